"""Compiles the message catalogues at install (issue 13): every ``bot/i18n/locales/*/
LC_MESSAGES/hoshi.po`` becomes the ``hoshi.mo`` the bot reads, in the source tree for an
editable install and in the built package otherwise. The metadata is in pyproject.toml."""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


def compile_catalogues(root: Path) -> list[Path]:
    """Write ``hoshi.mo`` beside each ``hoshi.po`` under ``root``; the files written."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(root.glob("*/LC_MESSAGES/hoshi.po")):
        with po.open("rb") as handle:
            messages = read_po(handle)
        mo = po.with_suffix(".mo")
        with mo.open("wb") as handle:
            write_mo(handle, messages, use_fuzzy=False)
        written.append(mo)
    return written


class BuildWithCatalogues(build_py):
    """build_py that compiles the catalogues first, so the .mo files are package data."""

    def run(self) -> None:
        compile_catalogues(Path(__file__).parent / "bot" / "i18n" / "locales")
        super().run()


setup(cmdclass={"build_py": BuildWithCatalogues})
