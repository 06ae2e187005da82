"""Shared test fixtures: the rulebooks' vectors live in ../shared/vectors beside the checkout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

# CI runs on a busy 2-core machine: no per-example deadline (timing is the benchmarks' job), and
# the same examples every run, so a red CI is a reproducible failure, never a dice roll.
settings.register_profile("hoshi", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("hoshi")

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT.parent / "shared" / "vectors"


def load_vectors(name: str) -> dict[str, Any]:
    """One vector file, e.g. ``load_vectors("mgsz")``; a missing file fails the test loudly."""
    path = VECTORS / f"{name}.json"
    if not path.exists():
        pytest.fail(f"test vectors not found at {path} (../shared/vectors beside the checkout)")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.fixture(autouse=True)
def english_operator(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line and the console speak the terminal's locale (LC_ALL, LC_MESSAGES,
    LANG): every test reads English on any machine unless it sets one."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
