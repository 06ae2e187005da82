"""Time controls and MGSZ extended time (rules.md §1.2; MGSZ annex table 2)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.errors import TimeControlError
from engine.timecontrol import Overtime, TimeControl
from tests.conftest import load_vectors


@pytest.mark.parametrize(
    ("text", "overtime", "base_min", "extended_min"),
    [
        ("60m", Overtime.NONE, 60, 60),
        ("60", Overtime.NONE, 60, 60),
        ("1h", Overtime.NONE, 60, 60),
        ("1h30m", Overtime.NONE, 90, 90),
        ("60m 3x20s", Overtime.JAPANESE, 60, 75),
        ("60m+3x20s japanese", Overtime.JAPANESE, 60, 75),
        ("60m 5x30s byoyomi", Overtime.JAPANESE, 60, Fraction(165, 2)),
        ("40m 30/5m canadian", Overtime.CANADIAN, 40, 50),
        ("40m 30/5m", Overtime.CANADIAN, 40, 50),
        ("90m+30s fischer", Overtime.FISCHER, 90, Fraction(225, 2)),
        ("90m 30s", Overtime.FISCHER, 90, Fraction(225, 2)),
        ("45m", Overtime.NONE, 45, 45),
    ],
)
def test_parse_and_extended_time(
    text: str, overtime: Overtime, base_min: int, extended_min: Fraction
) -> None:
    tc = TimeControl.parse(text)
    assert tc.overtime is overtime
    assert tc.base_minutes == base_min
    assert tc.extended_minutes() == extended_min


def test_unlimited() -> None:
    tc = TimeControl.parse("unlimited")
    assert tc.unlimited and str(tc) == "unlimited"


@pytest.mark.parametrize(
    "text", ["60m 3x20s japanese", "40m 30/5m canadian", "90m+30s fischer", "45m", "unlimited"]
)
def test_text_round_trips(text: str) -> None:
    tc = TimeControl.parse(text)
    assert TimeControl.parse(str(tc)) == tc


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "missing"),
        ("fast", "duration"),
        ("60m japanese", "needs its periods"),
        ("40m 0/5m canadian", "Canadian"),
        ("60m 3x20s canadian", "Japanese"),
        ("60m 3x20s 1/5m 10s", "cannot read"),
        ("³", "duration"),  # a digit to str.isdigit(), not to int() (found by fuzzing)
        ("60m ²x20s", "Japanese"),
    ],
)
def test_bad_time_controls_are_refused_with_an_example(text: str, fragment: str) -> None:
    with pytest.raises(TimeControlError, match=fragment) as info:
        TimeControl.parse(text)
    assert "e.g." in str(info.value)


@pytest.mark.parametrize("case", load_vectors("mgsz")["extended_time"], ids=lambda c: c["name"])
def test_mgsz_extended_time_vectors(case: dict) -> None:
    ot = case["overtime"]
    if ot["kind"] == "japanese":
        text = f"{case['base_minutes']}m {ot['periods']}x{ot['seconds']}s japanese"
    else:
        text = f"{case['base_minutes']}m {ot['moves']}/{ot['minutes']}m canadian"
    assert TimeControl.parse(text).extended_minutes() == case["extended_minutes"]


def test_a_time_control_error_is_a_translatable_message() -> None:
    """Issue 13: the refusal keeps its template; the examples stay literal."""
    from engine.text import Msg

    with pytest.raises(TimeControlError) as refused:
        TimeControl.parse("3x20s 60m 5 japanese")
    message = refused.value.args[0]
    assert isinstance(message, Msg)
    assert message.template == "cannot read the time control {text} ({examples})"
    assert message.args["examples"].template == "e.g. {examples} or {unlimited}"
