"""Tiny rating systems for storage tests (fakes, not mocks; STYLE.md, Tests).

``PlusMinus``: +1 for a win, −1 for a loss, rated at once (games and tournaments); it refuses a
new player stronger than 5k without a rating or committee decision and refuses pair go — the
shapes of MGSZ's refusals (rules.md §1.5, §1.6). ``Daily``: like Tensuusei's local rule
(rules.md §2.3), results wait as *pending* until the day ends, then everyone is settled at once —
a club-wide event. Both validate before they mutate, as the RatingSystem protocol demands.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.calendar import Phase
from engine.errors import RuleError
from engine.ranks import Rank
from engine.system import (
    Applied,
    Card,
    Change,
    HandicapAdvice,
    Measure,
    Pending,
    Progress,
    applied,
    never_rated,
)
from engine.types import (
    DayEnded,
    Event,
    Game,
    GamePlayed,
    Override,
    Registered,
    Result,
    TournamentRated,
)

FIVE_KYU = Rank.kyu(5)


@dataclass(frozen=True, slots=True)
class FakeParams:
    """No-argument-constructible parameters, like the real systems'."""

    start: int = 100


@dataclass(slots=True)
class _Player:
    rank: Rank
    rating: int
    games: int = 0
    last: dt.date | None = None
    pending: int = 0


def _score(game: Game, player: int) -> int:
    if game.result is Result.JIGO:
        return 0
    won = (game.result is Result.BLACK) == (player == game.black)
    return 1 if won else -1


class _Base:
    key = "fake"
    rules_version = 1  # a snapshot of a fake ledger is kept under it, as a rulebook's
    scheduled: frozenset[Phase] = frozenset()  # no scheduled moment of its own

    def __init__(self, params: FakeParams | None = None):
        self.params = params or FakeParams()
        self._players: dict[int, _Player] = {}

    def players(self) -> Iterable[int]:
        return list(self._players)

    def due(self, today: dt.date) -> list[Event]:
        return []  # no scheduled moment of its own

    def card(self, player: int) -> Card:
        state = self._players[player]
        return Card(
            player=player,
            rank=state.rank,
            rating=state.rating,
            rating_label="points",
            sort_key=(state.rating, state.games),
            games=state.games,
            last_played=state.last,
            pending=Pending(state.pending, "points", Phase.DAY_END) if state.pending else None,
            values=(Measure("games", "games", state.games, "games"),),
        )

    def handicap(self, a: int, b: int, *, reduction: int = 0) -> HandicapAdvice:
        low, high = sorted((a, b), key=lambda p: self._players[p].rating)
        return HandicapAdvice(low, high, 0, Fraction(13, 2))

    def promotion(self, player: int) -> Progress:
        return Progress(player, self._players[player].rank, None)

    def uncounted(self, game: Game) -> str | None:
        return never_rated(game)

    def rank_on(self, player: int, day: dt.date) -> Rank:
        return self._players[player].rank  # a fake's ranks never move

    def snapshot(self) -> dict[str, Any]:
        return {
            str(p): [str(s.rank), s.rating, s.games, str(s.last), s.pending]
            for p, s in sorted(self._players.items())
        }

    def _known(self, *players: int) -> None:
        for player in players:
            if player not in self._players:
                raise RuleError(f"player {player} is not registered")

    def _register(self, event: Registered, *, limit: bool) -> list[Change]:
        if event.player in self._players:
            raise RuleError(f"player {event.player} is already registered")
        if limit and event.rank > FIVE_KYU and event.rating is None and not event.committee:
            raise RuleError(f"a new player's initial rank is at most 5k, not {event.rank}")
        rating = self.params.start if event.rating is None else event.rating
        self._players[event.player] = _Player(event.rank, rating)
        return [
            Change(event.player, event.date, "registration", None, rating, event.rank, event.rank)
        ]

    def _override(self, event: Override) -> list[Change]:
        self._known(event.player)
        state = self._players[event.player]
        before, rank_before = state.rating, state.rank
        if event.rating is not None:
            state.rating = event.rating
        if event.rank is not None:
            state.rank = event.rank
        return [
            Change(
                event.player,
                event.date,
                "override",
                before,
                state.rating,
                rank_before,
                state.rank,
                event.reason,
            )
        ]


class PlusMinus(_Base):
    """+1/−1 per rated game, at once; refuses pair go and over-strong new players."""

    key = "plus"
    handles = frozenset({Registered, GamePlayed, TournamentRated, Override})

    def apply(self, event: Event) -> Applied:
        return applied(event, self._apply(event))

    def _apply(self, event: Event) -> list[Change]:
        if isinstance(event, Registered):
            return self._register(event, limit=True)
        if isinstance(event, GamePlayed):
            return self._games([event.game], f"game:{event.game.id}", event.game.date)
        if isinstance(event, TournamentRated):
            registered = [e.player for e in event.entries if e.registered]
            games = [g for g in event.games if g.black in registered and g.white in registered]
            return self._games(games, f"tournament:{event.tournament.id}", event.tournament.end)
        if isinstance(event, Override):
            return self._override(event)
        return []

    def _games(self, games: list[Game], source: str, date: dt.date) -> list[Change]:
        for game in games:  # validate everything first: atomic on error
            self._known(game.black, game.white)
            if game.pair_go:
                raise RuleError(f"game {game.id} is pair go, which this system does not rate")
        delta: dict[int, int] = {}
        for game in games:
            if game.rated:
                for player in (game.black, game.white):
                    delta[player] = delta.get(player, 0) + _score(game, player)
        changes = []
        for player in sorted(delta):
            state = self._players[player]
            before = state.rating
            state.rating += delta[player]
            state.games += sum(1 for g in games if g.rated and player in (g.black, g.white))
            state.last = max(g.date for g in games if player in (g.black, g.white))
            after = state.rating
            changes.append(Change(player, date, source, before, after, state.rank, state.rank))
        return changes


class Daily(_Base):
    """Results pend until the day ends; ``DayEnded`` settles every player at once; a day
    with a pending result is due once it is over."""

    key = "daily"
    handles = frozenset({Registered, GamePlayed, TournamentRated, DayEnded, Override})
    scheduled = frozenset({Phase.DAY_END})  # its day ends (RatingSystem.due names them)

    def __init__(self, params: FakeParams | None = None):
        super().__init__(params)
        self._days: set[dt.date] = set()  # the days whose results pend

    def apply(self, event: Event) -> Applied:
        return applied(event, self._apply(event))

    def due(self, today: dt.date) -> list[Event]:
        return [DayEnded(day) for day in sorted(self._days) if day < today]

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "days": sorted(map(str, self._days))}

    def _apply(self, event: Event) -> list[Change]:
        if isinstance(event, Registered):
            return self._register(event, limit=False)
        if isinstance(event, GamePlayed):
            game = event.game
            self._known(game.black, game.white)
            if game.rated:
                self._days.add(game.date)
                for player in (game.black, game.white):
                    state = self._players[player]
                    state.pending += _score(game, player)
                    state.games += 1
                    state.last = game.date
            return []
        if isinstance(event, TournamentRated):
            for game in event.games:
                self._known(game.black, game.white)
            return []
        if isinstance(event, DayEnded):
            self._days.clear()  # every pending result is settled
            changes = []
            for player, state in sorted(self._players.items()):
                if state.pending:
                    before = state.rating
                    state.rating += state.pending
                    state.pending = 0
                    changes.append(
                        Change(
                            player,
                            event.date,
                            f"day:{event.date}",
                            before,
                            state.rating,
                            state.rank,
                            state.rank,
                        )
                    )
            return changes
        if isinstance(event, Override):
            return self._override(event)
        return []


SYSTEMS = {"plus": PlusMinus, "daily": Daily}
"""The registry the storage tests inject (keys as the real registry's would be)."""
