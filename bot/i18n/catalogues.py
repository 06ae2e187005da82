"""The compiled message catalogues, one per language (``bot/i18n/locales``).

``pip install`` compiles each ``hoshi.po`` into ``hoshi.mo`` (setup.py); a catalogue whose
``.mo`` is missing or older than its ``.po`` (a translator's working copy) is compiled in
memory from the ``.po`` instead, so what is read is always what is written.
"""

from __future__ import annotations

import functools
import gettext
import io
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

DOMAIN = "hoshi"
SOURCE = "en"
LANGUAGES = ("en", "hu", "ja", "sv", "pl")
"""The languages hoshi speaks; each has a complete catalogue (tests/bot/i18n)."""

LOCALES = Path(__file__).parent / "locales"


def po_path(language: str) -> Path:
    """Where the translators' catalogue of ``language`` lives."""
    return LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def catalogue(language: str) -> gettext.NullTranslations:
    """The translations of ``language`` (none for an unknown one: the English source)."""
    po = po_path(language)
    if language not in LANGUAGES or not po.exists():
        return gettext.NullTranslations()
    mo = po.with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    return gettext.GNUTranslations(io.BytesIO(compiled(po)))


def compiled(po: Path) -> bytes:
    """The ``.mo`` bytes of the catalogue ``po`` (fuzzy entries left out, as pybabel does)."""
    with po.open("rb") as handle:
        messages = read_po(handle)
    out = io.BytesIO()
    write_mo(out, messages, use_fuzzy=False)
    return out.getvalue()
