"""storage.codec: stored text forms read back to the same values."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.calendar import Phase
from engine.ranks import Rank
from engine.system import Card, Change, Measure, Pending
from engine.timecontrol import Overtime, TimeControl
from engine.types import Outcome, Result
from storage import codec
from storage.errors import Refused


@pytest.mark.parametrize(
    ("komi", "half_points"),
    [
        (Fraction(13, 2), 13),
        (Fraction(0), 0),
        (Fraction(1, 2), 1),
        (-2, -4),
        (Fraction(-11, 2), -11),
    ],
    ids=["6.5", "0", "0.5", "-2", "-5.5"],
)
def test_komi_as_half_points(komi: Fraction, half_points: int) -> None:
    assert codec.komi_half_points(komi) == half_points
    assert codec.komi_from_half_points(half_points) == komi


def test_a_komi_that_is_not_a_half_point_is_refused() -> None:
    with pytest.raises(Refused, match=r"whole or half point, e\.g\. 6\.5 or 0, not 6\.25"):
        codec.komi_half_points(Fraction(25, 4))


@pytest.mark.parametrize(
    "text",
    [
        "unlimited",
        "60m",
        "1h30m",
        "60m 3x20s japanese",
        "40m 30/5m canadian",
        "90m+30s fischer",
        "45s",
        "0m 1x30s japanese",
        "10m 25/90s canadian",
    ],
)
def test_time_controls_read_back(text: str) -> None:
    time = TimeControl.parse(text)
    stored = codec.time_text(time)
    assert stored is not None
    assert codec.time_from_text(stored) == time


@given(
    st.builds(
        TimeControl,
        base_s=st.integers(0, 5 * 3600),
        overtime=st.sampled_from([Overtime.NONE, Overtime.JAPANESE, Overtime.FISCHER]),
        period_s=st.integers(0, 600),
        periods=st.integers(0, 10),
    )
)
def test_any_time_control_is_stored_faithfully_or_refused(time: TimeControl) -> None:
    try:
        stored = codec.time_text(time)
    except Refused:
        return
    assert stored is not None and codec.time_from_text(stored) == time


def test_no_time_control() -> None:
    assert codec.time_text(None) is None
    assert codec.time_from_text(None) is None


@pytest.mark.parametrize("result", [Result.BLACK, Result.WHITE, Result.JIGO, None])
def test_results(result: Result | None) -> None:
    assert codec.RESULTS[codec.result_text(result)] is result


VALUES = [
    None,
    True,
    0,
    -17,
    "Élő",
    Fraction(7, 3),
    Fraction(4),
    Rank.parse("3k"),
    dt.date(2026, 3, 1),
    dt.datetime(2026, 3, 1, 12, tzinfo=dt.UTC),
    (1, (Fraction(1, 2), "x"), Rank.parse("1d")),
    {"a": 1},
]


@pytest.mark.parametrize("value", VALUES, ids=[repr(v) for v in VALUES])
def test_values_read_back(value: object) -> None:
    assert codec.value_from_text(codec.value_text(value)) == value


def test_enums_read_back_as_their_values() -> None:
    assert codec.value_from_text(codec.value_text(Outcome.WIN)) == "win"


def test_lists_read_back_as_tuples() -> None:
    assert codec.value_from_text(codec.value_text([1, [2]])) == (1, (2,))


def test_unknown_types_are_refused() -> None:
    with pytest.raises(TypeError, match="cannot store a set"):
        codec.encode({1})


def test_an_integer_fraction_stays_a_fraction() -> None:
    assert isinstance(codec.value_from_text(codec.value_text(Fraction(4))), Fraction)


CARD = Card(
    player=7,
    rank=Rank.parse("2d"),
    rating=Fraction(4101, 2),
    rating_label="Elo",
    sort_key=(Fraction(4101, 2), 12, "x"),
    games=12,
    last_played=dt.date(2026, 2, 28),
    pending=Pending(-1, "points", Phase.DAY_END),
    values=(
        Measure("band_rank", "band rank", "2d"),
        Measure("confirmations.2d", "2d bound reached", 1, "of 2 tournaments"),
        Measure("half", "a half", Fraction(1, 2), "games"),
        Measure("none", "nothing yet", None),
    ),
)


def test_cards_read_back() -> None:
    assert codec.card_from_json(codec.card_json(CARD)) == CARD


def test_card_json_is_canonical() -> None:
    text = codec.card_json(CARD)
    assert text == codec.card_json(codec.card_from_json(text))
    words = ("band rank", "2d bound reached", "of 2 tournaments", "a half", "nothing yet")
    for words_with_spaces in words:
        text = text.replace(words_with_spaces, "")
    assert " " not in text


def test_change_rows_hold_every_field() -> None:
    change = Change(7, dt.date(2026, 3, 1), "game:5", 2030, 2047, Rank.dan(1), Rank.dan(1), "ok")
    row = codec.change_row(1, "mgsz", (99, 5), 0, change)
    assert row == (
        (1, "mgsz", 5, 0, 99, 7, "2026-03-01", "game:5", "2030", "2047", "1d", "1d", "ok")
    )


def test_timestamps_are_utc() -> None:
    local = dt.datetime(2026, 3, 1, 12, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    assert codec.timestamp(local) == "2026-03-01T10:00:00.000000+00:00"
    assert codec.from_timestamp(codec.timestamp(local)) == local
    assert codec.timestamp(dt.datetime(2026, 3, 1, 12)).endswith("12:00:00.000000+00:00")
