"""The ``hoshi`` command itself: ``--version``."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bot.__main__ import main

PYPROJECT = Path(__file__).resolve().parents[3] / "pyproject.toml"


def test_version_prints_the_packages_version(capsys: pytest.CaptureFixture[str]) -> None:
    version = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["version"]
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"hoshi {version}\n"
