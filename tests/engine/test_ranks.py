"""The kyu/dan ladder (rules.md, common vocabulary)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import RankError
from engine.ranks import Rank, is_rank, ladder, parse_rank_lenient


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3k", "3k"),
        ("3 kyu", "3k"),
        ("3kyu", "3k"),
        ("3K", "3k"),
        ("1d", "1d"),
        ("2 dan", "2d"),
        ("2 DAN", "2d"),
        ("35k", "35k"),
        ("9d", "9d"),
        (" 10k ", "10k"),
    ],
)
def test_parse_reads_every_written_form(text: str, expected: str) -> None:
    assert str(Rank.parse(text)) == expected


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("1p", "professional"),
        ("0k", "35k to 1k"),
        ("36k", "35k to 1k"),
        ("10d", "1d to 9d"),
        ("0d", "1d to 9d"),
        ("strong", "not a rank"),
        ("", "not a rank"),
        ("3", "not a rank"),
        ("k3", "not a rank"),
    ],
)
def test_parse_refuses_with_a_clear_message(text: str, fragment: str) -> None:
    with pytest.raises(RankError, match=fragment):
        Rank.parse(text)


def test_the_1k_1d_seam_is_one_step() -> None:
    assert Rank.parse("1d") - Rank.parse("1k") == 1
    assert Rank.parse("1d") - Rank.parse("2k") == 2
    assert Rank.parse("1k") + 1 == Rank.parse("1d")
    assert Rank.parse("1d") + (-2) == Rank.parse("2k")
    assert Rank.parse("3d") - Rank.parse("3k") == 5


def test_ordering_runs_weakest_to_strongest() -> None:
    ranks = [Rank.parse(t) for t in ("1d", "30k", "1k", "9d", "5k")]
    assert [str(r) for r in sorted(ranks)] == ["30k", "5k", "1k", "1d", "9d"]


def test_numbers_and_kinds() -> None:
    assert Rank.parse("3k").number == 3 and not Rank.parse("3k").is_dan
    assert Rank.parse("2d").number == 2 and Rank.parse("2d").is_dan


def test_arithmetic_off_the_ladder_is_refused() -> None:
    with pytest.raises(RankError):
        Rank.parse("9d") + 1
    with pytest.raises(RankError):
        Rank.parse("35k") + (-1)


def test_lenient_reading_of_tournament_files() -> None:
    assert parse_rank_lenient("12") == (Rank.kyu(12), 0)
    assert parse_rank_lenient("3P") == (Rank.dan(7), 3)
    assert parse_rank_lenient("2D") == (Rank.dan(2), 0)
    with pytest.raises(RankError):
        parse_rank_lenient("10p")


def test_is_rank_and_ladder() -> None:
    assert is_rank("4 kyu") and not is_rank("Kovács")
    assert [str(r) for r in ladder(Rank.parse("2k"), Rank.parse("2d"))] == ["2k", "1k", "1d", "2d"]


@given(st.integers(-34, 9), st.integers(-34, 9))
def test_difference_is_step_difference_and_round_trips(a: int, b: int) -> None:
    ra, rb = Rank(a), Rank(b)
    assert ra - rb == a - b
    assert rb + (ra - rb) == ra
    assert Rank.parse(str(ra)) == ra


def test_a_rank_error_is_a_translatable_message() -> None:
    """Issue 13: the refusal keeps its template; the value typed and the examples are values."""
    from engine.text import Msg

    with pytest.raises(RankError) as refused:
        Rank.parse("3 stones")
    message = refused.value.args[0]
    assert isinstance(message, Msg) and message.template == "{text} is not a rank ({examples})"
    assert message == "“3 stones” is not a rank (ranks look like 3k, 3 kyu, 1d, 2 dan)"


@pytest.mark.parametrize(
    ("typed", "rank"),
    [
        ("3段", Rank.dan(3)),
        ("初段", Rank.dan(1)),
        ("1級", Rank.kyu(1)),
        ("12 級", Rank.kyu(12)),
        ("5级", Rank.kyu(5)),
        ("2단", Rank.dan(2)),
        ("초단", Rank.dan(1)),
        ("7급", Rank.kyu(7)),
    ],
)
def test_a_rank_as_japanese_chinese_and_korean_players_write_it(typed: str, rank: Rank) -> None:
    assert Rank.parse(typed) == rank
    assert is_rank(typed)


def test_a_rank_word_without_a_number_is_still_refused() -> None:
    for typed in ("段", "級", "初", "初級"):
        assert not is_rank(typed)


@pytest.mark.parametrize("typed", ["３段", "٣k", "３ kyu", "۲d"])
def test_a_rank_is_written_with_ascii_digits(typed: str) -> None:
    """Digits of other scripts are not read as numbers (issue 26: one reading of a number)."""
    assert not is_rank(typed)
