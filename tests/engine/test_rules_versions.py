"""tests.engine.rules_versions: a rulebook's results do not change without a bump of its
``RULES_VERSION`` (what a snapshot of its ledger is kept under, storage.snapshots)."""

from __future__ import annotations

import importlib
import json
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from engine import tensuusei
from engine.systems import SYSTEMS
from engine.tensuusei import Tensuusei
from engine.text import Msg
from tests.engine import rules_versions
from tests.engine.rules_versions import (
    COMMAND,
    canonical,
    current,
    main,
    problems,
    recorded,
    update,
)

ONLY_TENSUUSEI = {"tensuusei": Tensuusei}


def _changed_komi(monkeypatch: pytest.MonkeyPatch) -> None:
    """A slip in Tensuusei's komi row (rules.md §2.1): every handicap's komi one more."""
    monkeypatch.setattr(
        tensuusei, "KOMI_BY_COLUMN", tuple(komi + 1 for komi in tensuusei.KOMI_BY_COLUMN)
    )


def _recorded_tensuusei() -> dict[str, dict[str, object]]:
    return {"tensuusei": recorded()["tensuusei"]}


def test_every_rules_version_matches_its_results() -> None:
    found = problems(current(), recorded())
    assert not found, "\n".join(found)


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_each_rulebook_declares_its_rules_version_in_its_package(key: str) -> None:
    factory = SYSTEMS[key]
    defined = sys.modules[factory.__module__].RULES_VERSION
    assert isinstance(defined, int) and defined >= 1
    assert factory().rules_version == defined
    package = importlib.import_module(f"engine.{key}")
    assert defined == package.RULES_VERSION


def test_results_changed_without_a_bump_fail_saying_what_to_bump_and_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert problems(current(ONLY_TENSUUSEI), _recorded_tensuusei(), ONLY_TENSUUSEI) == []
    _changed_komi(monkeypatch)
    assert problems(current(ONLY_TENSUUSEI), _recorded_tensuusei(), ONLY_TENSUUSEI) == [
        "tensuusei: its results changed but RULES_VERSION is still 1: bump RULES_VERSION in "
        f"engine/tensuusei.py and run {COMMAND}"
    ]


def test_a_bump_not_recorded_fails_saying_what_to_run(monkeypatch: pytest.MonkeyPatch) -> None:
    _changed_komi(monkeypatch)
    monkeypatch.setattr(Tensuusei, "rules_version", 2)
    assert problems(current(ONLY_TENSUUSEI), _recorded_tensuusei(), ONLY_TENSUUSEI) == [
        "tensuusei: RULES_VERSION is 2 but tests/engine/rules_versions.json records 1: "
        f"run {COMMAND}"
    ]


def test_a_system_missing_from_the_record_or_only_in_it_fails() -> None:
    now = {"tensuusei": {"version": 1, "digest": "x"}}
    then = {"gone": {"version": 1, "digest": "y"}}
    assert problems(now, then, ONLY_TENSUUSEI) == [
        f"gone: recorded in tests/engine/rules_versions.json but no such system: run {COMMAND}",
        f"tensuusei: no results recorded in tests/engine/rules_versions.json: run {COMMAND}",
    ]


def test_the_update_refuses_changed_results_without_a_bump_and_records_a_bump(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "rules_versions.json"
    before = json.dumps(_recorded_tensuusei())
    path.write_text(before, encoding="utf-8")
    _changed_komi(monkeypatch)
    refused = update(path, ONLY_TENSUUSEI)
    assert refused == [
        "tensuusei: its results changed but RULES_VERSION is still 1: bump RULES_VERSION in "
        f"engine/tensuusei.py and run {COMMAND}"
    ]
    assert path.read_text(encoding="utf-8") == before  # nothing written
    monkeypatch.setattr(Tensuusei, "rules_version", 2)
    assert update(path, ONLY_TENSUUSEI) == []
    now = current(ONLY_TENSUUSEI)
    assert recorded(path) == now
    assert now["tensuusei"]["version"] == 2
    assert now["tensuusei"]["digest"] != _recorded_tensuusei()["tensuusei"]["digest"]
    assert problems(now, recorded(path), ONLY_TENSUUSEI) == []


def test_the_command_checks_and_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    committed = recorded()
    path = tmp_path / "rules_versions.json"
    monkeypatch.setattr(rules_versions, "RECORDED", path)
    assert main([]) == 1
    assert f"tensuusei: no results recorded in {path.resolve()}" in capsys.readouterr().out
    assert main(["--update"]) == 0
    assert recorded(path) == committed
    assert main([]) == 0
    assert capsys.readouterr().out.endswith("every RULES_VERSION matches its results\n")


def test_the_canonical_text_is_of_values_not_objects() -> None:
    assert (
        canonical({"b": {2, 1}, "a": (Fraction(1, 3), None)}) == "{'a': [1/3, None], 'b': {1, 2}}"
    )
    assert canonical(Msg("{n} points", n=3)) == "'3 points'"  # the English text
    assert canonical(0.1 + 0.2) == "0.3"  # 12 digits: not a last bit of another libm
    with pytest.raises(TypeError, match="no canonical text for a object"):
        canonical(object())
