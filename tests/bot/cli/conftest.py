"""The command line speaks the operator's locale (LC_ALL, LC_MESSAGES, LANG): its tests read
English unless a test sets one."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def english_operator(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
