"""benchmarks.federation: the synthetic federation is seeded, exact and well formed."""

from __future__ import annotations

from collections import Counter

from benchmarks.federation import Shape, federation
from engine.types import DayEnded, MonthEnded, PeriodClosed
from storage.bulk import BulkEntry, BulkFinalise, BulkGame, BulkItem, BulkPlayer, BulkTournament


def _items(games: int, seed: int = 1) -> list[BulkItem]:
    return list(federation(games, seed=seed))


def test_the_same_seed_gives_the_same_history() -> None:
    assert _items(3000, seed=7) == _items(3000, seed=7)
    assert _items(3000, seed=7) != _items(3000, seed=8)


def test_exactly_the_games_asked_for_club_and_tournament() -> None:
    games = [item for item in _items(5000) if isinstance(item, BulkGame)]
    assert len(games) == 5000
    club = sum(1 for game in games if game.tournament is None)
    assert 0.2 * len(games) < club < 0.3 * len(games)  # CLUB_SHARE is a quarter


def test_every_kind_of_item_appears() -> None:
    kinds = Counter(type(item) for item in _items(5000))
    expected = {
        BulkPlayer,
        BulkTournament,
        BulkEntry,
        BulkGame,
        BulkFinalise,
        DayEnded,
        MonthEnded,
        PeriodClosed,
    }
    assert set(kinds) == expected
    assert kinds[BulkTournament] == kinds[BulkFinalise]


def test_tournaments_have_4_to_7_rounds_and_10_to_300_players() -> None:
    items = _items(100_000)
    tournaments = [item.tournament for item in items if isinstance(item, BulkTournament)]
    assert {t.rounds for t in tournaments} == {4, 5, 6, 7}
    sizes = [t.participants for t in tournaments]
    assert all(size is not None and 4 <= size <= 300 + 300 // 25 for size in sizes)
    assert max(size for size in sizes if size is not None) > 150
    assert {t.even for t in tournaments} == {True, False}
    assert len({t.time for t in tournaments}) > 4


def test_players_and_tournaments_exist_before_they_are_named() -> None:
    players: set[int] = set()
    open_: set[int] = set()
    finalised: set[int] = set()
    for item in _items(5000):
        if isinstance(item, BulkPlayer):
            players.add(item.key)
        elif isinstance(item, BulkTournament):
            open_.add(item.key)
        elif isinstance(item, BulkEntry):
            assert item.player in players and item.tournament in open_
        elif isinstance(item, BulkGame):
            assert {item.black, item.white} <= players and item.black != item.white
            if item.tournament is not None:
                assert item.tournament in open_ and item.tournament not in finalised
        elif isinstance(item, BulkFinalise):
            open_.discard(item.tournament)
            finalised.add(item.tournament)
    assert not open_  # every tournament is finalised


def test_the_shape_scales_with_the_games() -> None:
    assert Shape.of(10_000).players == 300  # at least 300: the finalise phase needs them
    assert Shape.of(1_000_000).players == 20_000
    assert Shape.of(1_000_000).years == 25
