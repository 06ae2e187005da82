"""Every EGF GoR vector (../shared/vectors/gor.json, rules.md §6) as a test: through the
formula, and through the ledger as a club game or a tournament of class A (weight 1)."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from engine.gor import Gor, GorParams
from engine.gor.formula import bonus, con, expected, game_change, initial_rating
from engine.ranks import Rank
from engine.types import (
    Entry,
    Game,
    GamePlayed,
    Registered,
    Result,
    Tournament,
    TournamentRated,
)
from tests.conftest import load_vectors

VECTORS = load_vectors("gor")
DAY = dt.date(2026, 11, 20)
SCORE = {"win": 1.0, "jigo": 0.5, "loss": 0.0}
ME, OPPONENT = 1, 2


def _ids(cases: list[dict[str, Any]]) -> list[str]:
    return [case["name"] for case in cases]


def _game(gid: int, case_stones: int, result: str, opponent: int = OPPONENT) -> Game:
    """The vector's game from the player's side: stones > 0 received (the player is black),
    stones < 0 given (the opponent is black)."""
    me_black = case_stones >= 0
    black, white = (ME, opponent) if me_black else (opponent, ME)
    if result == "jigo":
        outcome = Result.JIGO
    else:
        outcome = Result.BLACK if (result == "win") == me_black else Result.WHITE
    return Game(gid, black, white, outcome, DAY, stones=abs(case_stones))


def _rounded(value: Fraction) -> int:
    """Whole points, half up (the vectors' ``rating_after_rounded``)."""
    return int((value + Fraction(1, 2)) // 1)


@pytest.mark.parametrize("case", VECTORS["games"], ids=_ids(VECTORS["games"]))
def test_game_vector_through_the_formula(case: dict[str, Any]) -> None:
    r, r2, stones = case["rating"], case["opponent"], case["stones"]
    tolerance = case.get("tolerance", 0.5)
    if "expected" in case:
        assert expected(r, r2, stones) == pytest.approx(case["expected"], abs=tolerance)
    if "con" in case:
        assert con(r) == pytest.approx(case["con"], abs=1e-4)
    if "bonus" in case:
        assert bonus(r) == pytest.approx(case["bonus"], abs=1e-4)
    if "result" in case:
        after = r + game_change(r, r2, SCORE[case["result"]], stones)
        if "rating_after" in case:
            assert after == pytest.approx(case["rating_after"], abs=tolerance)
        if "rating_after_rounded" in case:
            assert _rounded(Fraction(after)) == case["rating_after_rounded"]


def _club_game_ledger(case: dict[str, Any]) -> Gor:
    """A ``games`` vector with a result as a club game of class A (weight 1)."""
    gor = Gor(GorParams(club_class="A"))
    gor.apply(Registered(ME, Rank.kyu(10), DAY, rating=case["rating"]))
    gor.apply(Registered(OPPONENT, Rank.kyu(10), DAY, rating=case["opponent"]))
    gor.apply(GamePlayed(_game(1, case["stones"], case["result"])))
    return gor


@pytest.mark.parametrize(
    "case",
    [c for c in VECTORS["games"] if "result" in c],
    ids=_ids([c for c in VECTORS["games"] if "result" in c]),
)
def test_game_vector_through_the_ledger_as_a_class_a_club_game(case: dict[str, Any]) -> None:
    gor = _club_game_ledger(case)
    if "rating_after" in case:
        assert float(gor.gor(ME)) == pytest.approx(case["rating_after"], abs=case["tolerance"])
    if "rating_after_rounded" in case:
        assert _rounded(gor.gor(ME)) == case["rating_after_rounded"]


def _tournament_ledger(case: dict[str, Any]) -> Gor:
    """A ``tournaments`` vector as a tournament of class A (weight 1)."""
    gor = Gor()
    gor.apply(Registered(ME, Rank.kyu(10), DAY, rating=case["rating"]))
    games = []
    for index, played in enumerate(case["games"], start=1):
        opponent = OPPONENT + index
        gor.apply(Registered(opponent, Rank.kyu(10), DAY, rating=played["opponent"]))
        game = _game(index, 0, played["result"], opponent)
        games.append(replace(game, round=index, tournament=7))
    tournament = Tournament(7, "vector", DAY, DAY, len(games), klass="A")
    entries = tuple(Entry(p, Rank.kyu(10)) for p in gor.players())
    gor.apply(TournamentRated(tournament, entries, tuple(games)))
    return gor


@pytest.mark.parametrize("case", VECTORS["tournaments"], ids=_ids(VECTORS["tournaments"]))
def test_tournament_vector_through_the_ledger(case: dict[str, Any]) -> None:
    gor = _tournament_ledger(case)
    assert _rounded(gor.gor(ME)) == case["rating_after_rounded"]


@pytest.mark.parametrize(("rank", "rating"), sorted(VECTORS["initial_ratings"].items()), ids=str)
def test_initial_rating_vector(rank: str, rating: int) -> None:
    assert initial_rating(Rank.parse(rank)) == rating
    gor = Gor()
    gor.apply(Registered(ME, Rank.parse(rank), DAY))
    assert gor.gor(ME) == rating
    assert gor.card(ME).rank == Rank.parse(rank)


# rules.md §6, "Professionals and the ends of the ladder" (the EGD's nominal table): 1p = 2700,
# each professional rank 30 more; a declared rank below 30k starts at −900
PROFESSIONAL_STARTS = {n: 2700 + 30 * (n - 1) for n in range(1, 10)}
PROFESSIONAL_VECTORS = [(1, 2700, "7d"), (2, 2730, "7d"), (5, 2820, "8d"), (9, 2940, "9d")]


@pytest.mark.parametrize(("pro", "rating", "shown"), PROFESSIONAL_VECTORS, ids=str)
def test_professional_rank_starts_at_the_egd_nominal_gor(
    pro: int, rating: int, shown: str
) -> None:
    assert initial_rating(Rank.dan(7), pro) == rating
    gor = Gor()
    gor.apply(Registered(ME, Rank.dan(7), DAY, pro=pro))
    assert gor.gor(ME) == rating
    card = gor.card(ME)
    # the rank shown is the rating's amateur one; the declared Np stays the title
    assert card.rank == Rank.parse(shown)
    assert {m.key: m.value for m in card.values}["title"] == f"{pro}p"


def test_every_professional_rank_is_30_points_above_the_one_below() -> None:
    assert [initial_rating(Rank.dan(7), n) for n in range(1, 10)] == list(
        PROFESSIONAL_STARTS.values()
    )


@pytest.mark.parametrize(
    ("rating", "rank"),
    [(2790, "7d"), (2940, "9d"), (2899, "8d"), (2099.9, "1k"), (2150, "1d")],
    ids=str,
)
def test_the_rank_shown_for_a_rating_stays_the_amateur_one(rating: float, rank: str) -> None:
    gor = Gor()
    gor.apply(Registered(ME, Rank.kyu(10), DAY, rating=Fraction(str(rating))))
    assert gor.rank(ME) == Rank.parse(rank)


@pytest.mark.parametrize("kyu", [31, 33, 35], ids=lambda k: f"{k}k")
def test_a_rank_below_30k_starts_at_minus_900(kyu: int) -> None:
    assert initial_rating(Rank.kyu(kyu)) == -900


# rules.md §6: GoR values from the EGD carry 3 decimals; they are kept exactly
EGD_VALUES = ["2705.840", "2109.306", "-5.250", "100.001", "2100.000"]


@pytest.mark.parametrize("text", EGD_VALUES)
def test_an_egd_gor_with_three_decimals_is_kept_exactly(text: str) -> None:
    from engine.ratings import parse_rating
    from engine.types import EgfRating

    value = Fraction(text)
    gor = Gor()
    gor.apply(Registered(ME, Rank.kyu(10), DAY, rating=parse_rating(text)))
    assert gor.gor(ME) == value
    assert {m.key: m.value for m in gor.card(ME).values}["gor"] == text
    # the card shows whole points, half up
    assert gor.card(ME).rating == _rounded(value)
    gor.apply(EgfRating(ME, parse_rating(text) + 1, 2026, 11))
    assert gor.gor(ME) == value + 1


def test_more_than_three_decimals_are_refused_and_nothing_changes() -> None:
    from engine.errors import RuleError

    gor = Gor()
    with pytest.raises(RuleError, match="3 decimals"):
        gor.apply(Registered(ME, Rank.kyu(10), DAY, rating=Fraction("2705.8405")))
    assert list(gor.players()) == []


def test_a_guest_professional_plays_at_the_egd_nominal_gor() -> None:
    """A guest entered as 2p (7d on the ladder) plays at 2730, not at 7d's 2700."""
    gor = Gor()
    gor.apply(Registered(ME, Rank.dan(7), DAY, rating=2700))
    guest = 50
    game = replace(_game(1, 0, "win", opponent=guest), round=1, tournament=7)
    tournament = Tournament(7, "pro", DAY, DAY, 1, klass="A")
    entries = (Entry(ME, Rank.dan(7)), Entry(guest, Rank.dan(7), registered=False, pro=2))
    gor.apply(TournamentRated(tournament, entries, (game,)))
    expected = 2700 + game_change(2700, 2730, 1.0)
    assert float(gor.gor(ME)) == pytest.approx(expected, abs=0.0006)
    assert abs(expected - (2700 + game_change(2700, 2700, 1.0))) > 0.1  # the 30 points tell
