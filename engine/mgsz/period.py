"""The club's rating periods of club games (rules.md §1.4, Decision — club games).

A club game is held until its calendar month's period ends, then the month's games are rated
as one tournament. :func:`month_period` is that period as the club's schedule closes it;
:class:`HeldGames` indexes the games held for the open period by player, with what the
period's multiplier C and its parts are worked out from, so that a fact can tell whose "if
the period ended now" it moved without walking the period.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from engine.calendar import month_end
from engine.mgsz.tables import FULL_BOARD, PARTICIPANTS_OVER
from engine.timecontrol import TimeControl
from engine.types import Game, PlayerId, Tournament


def month_period(year: int, month: int) -> Tournament:
    """The MGSZ rating period of a month's club games (rules.md §1.4, Decision — club games:
    a calendar month), as the schedule and a late game close it: ``Club games 2026-11``, the
    same in every language (storage keeps it, exports write it); no time of its own, so the
    ledger rates it with the club's usual time in effect at its end; its id is given when it
    is recorded (the log position)."""
    return Tournament(
        id=0,
        name=f"Club games {year:04d}-{month:02d}",
        start=dt.date(year, month, 1),
        end=month_end(year, month),
        rounds=1,
    )


class HeldGames:
    """The club games held for the open period (rules.md §1.4 club games), by player, and the
    terms its multiplier C is worked out from (rules.md §1.2: the 19×19 games' time controls,
    whether every game is even, the boards, more than 80 players), its months and the most
    games one player holds (splitting, §6(3)).

    Games are only added; a period's close starts a new index from the games it leaves held.
    ``c_by_board`` caches the C of the current terms (``None``: to be worked out again).
    """

    __slots__ = ("boards", "by_player", "c_by_board", "handicap", "months", "most", "times")

    def __init__(self, games: Iterable[Game] = ()) -> None:
        self.by_player: dict[PlayerId, list[Game]] = {}
        self.boards: set[int] = set()
        self.handicap = 0  # held games with stones: the even addition needs none (§1.4)
        self.months: set[tuple[int, int]] = set()
        self.most = 0
        # the distinct time controls of the 19×19 games: by identity first (the games share
        # their objects, and a TimeControl's own hash is slow), then by value
        self.times: dict[int, TimeControl | None] = {}
        self.c_by_board: dict[int, int] | None = None
        for game in games:
            self.add(game)

    def copy(self) -> HeldGames:
        """An index of the same games that :meth:`add` can grow without touching this one
        (the games themselves are values, shared)."""
        other = HeldGames.__new__(HeldGames)
        other.by_player = {player: list(games) for player, games in self.by_player.items()}
        other.boards = set(self.boards)
        other.handicap = self.handicap
        other.months = set(self.months)
        other.most = self.most
        other.times = dict(self.times)
        other.c_by_board = None if self.c_by_board is None else dict(self.c_by_board)
        return other

    def add(self, game: Game) -> bool:
        """Hold ``game``; whether the terms its C is worked out from changed (a new board,
        a first handicap game, a new 19×19 time control, the 81st player)."""
        changed = False
        if game.board not in self.boards:
            self.boards.add(game.board)
            changed = True
        if game.stones:
            self.handicap += 1
            changed = changed or self.handicap == 1
        if game.board == FULL_BOARD:
            time = game.time
            if id(time) not in self.times:
                changed = changed or time not in self.times.values()
                self.times[id(time)] = time
        self.months.add((game.date.year, game.date.month))
        before = len(self.by_player)
        for player in (game.black, game.white):
            mine = self.by_player.get(player)
            if mine is None:
                mine = self.by_player[player] = []
            mine.append(game)
            self.most = max(self.most, len(mine))
        if before <= PARTICIPANTS_OVER < len(self.by_player):
            changed = True
        if changed:
            self.c_by_board = None
        return changed

    def board_times(self) -> list[TimeControl | None]:
        """The distinct time controls of the held 19×19 games (``None``: a game without)."""
        return list(self.times.values())
