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


@pytest.mark.parametrize(
    "case",
    [c for c in VECTORS["games"] if "result" in c],
    ids=_ids([c for c in VECTORS["games"] if "result" in c]),
)
def test_game_vector_through_the_ledger_as_a_class_a_club_game(case: dict[str, Any]) -> None:
    gor = Gor(GorParams(club_class="A"))
    gor.apply(Registered(ME, Rank.kyu(10), DAY, rating=case["rating"]))
    gor.apply(Registered(OPPONENT, Rank.kyu(10), DAY, rating=case["opponent"]))
    gor.apply(GamePlayed(_game(1, case["stones"], case["result"])))
    if "rating_after" in case:
        assert float(gor.gor(ME)) == pytest.approx(case["rating_after"], abs=case["tolerance"])
    if "rating_after_rounded" in case:
        assert _rounded(gor.gor(ME)) == case["rating_after_rounded"]


@pytest.mark.parametrize("case", VECTORS["tournaments"], ids=_ids(VECTORS["tournaments"]))
def test_tournament_vector_through_the_ledger(case: dict[str, Any]) -> None:
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
    assert _rounded(gor.gor(ME)) == case["rating_after_rounded"]


@pytest.mark.parametrize(("rank", "rating"), sorted(VECTORS["initial_ratings"].items()), ids=str)
def test_initial_rating_vector(rank: str, rating: int) -> None:
    assert initial_rating(Rank.parse(rank)) == rating
    gor = Gor()
    gor.apply(Registered(ME, Rank.parse(rank), DAY))
    assert gor.gor(ME) == rating
    assert gor.card(ME).rank == Rank.parse(rank)
