"""Handicap advice for the Elo and rank systems (rules.md §5)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.handicap import rank_handicap
from engine.ranks import Rank


@pytest.mark.parametrize(
    ("rank_a", "rank_b", "reduction", "black", "stones", "komi"),
    [
        ("5k", "5k", 0, 1, 0, Fraction(13, 2)),  # even: the club's even komi
        ("5k", "4k", 0, 1, 1, Fraction(0)),  # one stone: no komi
        ("4k", "1k", 0, 1, 3, Fraction(1, 2)),  # 2+ stones: 0.5 to white
        ("1d", "2k", 0, 2, 2, Fraction(1, 2)),  # across the 1k/1d seam
        ("20k", "1d", 0, 1, 9, Fraction(1, 2)),  # capped at 9
        ("4k", "1k", 1, 1, 2, Fraction(1, 2)),  # "handicap −1" (MGSZ seed example 7)
        ("4k", "3k", 1, 1, 0, Fraction(13, 2)),  # reduced to even
    ],
)
def test_stones_and_komi(
    rank_a: str, rank_b: str, reduction: int, black: int, stones: int, komi: Fraction
) -> None:
    advice = rank_handicap(1, Rank.parse(rank_a), 2, Rank.parse(rank_b), reduction=reduction)
    assert (advice.black, advice.stones, advice.komi) == (black, stones, komi)
    assert advice.white == 3 - black


def test_cap_and_equal_ranks_are_explained() -> None:
    capped = rank_handicap(1, Rank.parse("25k"), 2, Rank.parse("1d"))
    assert any("capped" in note for note in capped.notes)
    even = rank_handicap(1, Rank.parse("3k"), 2, Rank.parse("3k"))
    assert any("nigiri" in note for note in even.notes)


def test_club_even_komi_is_a_parameter() -> None:
    advice = rank_handicap(1, Rank.parse("3k"), 2, Rank.parse("3k"), even_komi=Fraction(7))
    assert advice.komi == 7


def test_negative_reduction_is_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        rank_handicap(1, Rank.parse("3k"), 2, Rank.parse("1k"), reduction=-1)


def test_handicap_notes_are_translatable_messages() -> None:
    """Issue 13: the advice's notes are Msg with their numbers as values."""
    from engine.text import Msg

    advice = rank_handicap(1, Rank.parse("20k"), 2, Rank.parse("5k"), reduction=1)
    assert [note.template for note in advice.notes if isinstance(note, Msg)] == [
        "rank difference {difference} is capped at {most} stones",
        "handicap reduced by {reduction}",
    ]
    assert advice.notes[0] == "rank difference 15 is capped at 9 stones"
