"""Ratings typed or imported from outside, kept exactly (rules.md §6 Decision)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.ratings import (
    as_data,
    decimal_text,
    from_data,
    parse_rating,
    require_whole,
    to_milli,
    whole_points,
)

READ = [
    ("2100", 2100),
    ("2705.840", Fraction("2705.84")),
    ("2705,84", Fraction("2705.84")),
    ("-5.25", Fraction("-5.25")),
    ("2100.000", 2100),
    ("0.001", Fraction(1, 1000)),
]


@pytest.mark.parametrize(("text", "value"), READ, ids=[t for t, _ in READ])
def test_read_exactly(text: str, value: int | Fraction) -> None:
    read = parse_rating(text)
    assert read == value
    assert type(read) is type(value)


@pytest.mark.parametrize("text", ["2705.8401", "1.0005"])
def test_more_than_three_decimals_are_refused_with_the_reason(text: str) -> None:
    with pytest.raises(ValueError, match="3 decimals at most"):
        parse_rating(text)


@pytest.mark.parametrize("text", ["abc", "2100x", "", "1e3"])
def test_not_a_number_is_refused_with_an_example(text: str) -> None:
    with pytest.raises(ValueError, match=r"2705\.840"):
        parse_rating(text)


def test_shown_and_written() -> None:
    value = parse_rating("2705.840")
    assert whole_points(value) == 2706
    assert whole_points(parse_rating("2705.5")) == 2706
    assert whole_points(parse_rating("-5.5")) == -5
    assert decimal_text(value) == "2705.840"
    assert to_milli(value) == 2_705_840


def test_a_whole_number_rulebook_refuses_decimals() -> None:
    assert require_whole(Fraction(2100), "an MGSZ Elo") == 2100
    with pytest.raises(RuleError, match=r"whole number, not 1985\.500"):
        require_whole(Fraction("1985.5"), "an MGSZ Elo")


@given(st.integers(min_value=-10_000_000, max_value=10_000_000))
def test_thousandths_survive_text_and_data_exactly(milli: int) -> None:
    value = Fraction(milli, 1000)
    assert parse_rating(decimal_text(value)) == value
    assert from_data(as_data(parse_rating(decimal_text(value)))) == value
    assert to_milli(parse_rating(decimal_text(value))) == milli
