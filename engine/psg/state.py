"""PSG parameters and per-player state (rules.md §4); internal to :mod:`engine.psg`.

The per-game path keeps each player's §17–§18 results incrementally (:class:`Results`), so
replaying a long history is linear in the number of games.
"""

from __future__ import annotations

import calendar
import datetime as dt
from bisect import bisect_right
from collections import deque
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.handicap import EVEN_KOMI
from engine.psg.tables import POINTS_WEAKEST, minimum_games, shown_fewer
from engine.ranks import Rank
from engine.ratings import Rating, as_data

_6K, _7K, _30K = Rank.kyu(6), Rank.kyu(7), Rank.kyu(30)


@dataclass(frozen=True, slots=True)
class PsgParams:
    """PSG settings (rules.md §4); the defaults are the seed's values.

    ``unknown_time_counts``: Decision (ours; rules.md §4.1 is silent): a game without a recorded
    time control counts — club results are often posted without one, and §6 also admits any
    game the EGF counts, which a time control alone cannot show. ``boards``: Decision (ours):
    only 19×19 games are ranked, the board the points table's handicaps are meant for.
    ``suspension_ends_on_new_egf``: seed §23(4) suspends verification "do czasu otrzymania
    nowego ratingu EGF" (until a new EGF rating is received).
    """

    report_days: int = 3  # §7
    inactive_months: int = 13  # §3(5), §18(4)
    max_arranged_per_pair: int = 2  # §8(2)
    auto_promotion_limit: Rank = _6K  # §20(1): promotion on the norm alone up to 6k
    teacher_limit: Rank = _6K  # §22(1)
    hold_limit: Rank = _7K  # §21
    new_participant_limit: Rank = _6K  # §11(3)
    registration_limit: Rank = _30K  # §15(1)
    norm_egf_margin: int = 50  # §20(2)(a)
    verification_margin: int = 100  # §23(1)
    verification_months: int = 3  # §23(1)
    unknown_time_counts: bool = True
    boards: tuple[int, ...] = (19,)
    suspension_ends_on_new_egf: bool = True
    even_komi: Fraction = EVEN_KOMI  # §5: the club's even-game komi for /handicap


@dataclass(frozen=True, slots=True)
class GameScore:
    """How the ledger scored one player's latest game (``/history``, the tests).

    ``counted`` is false for a game that is no ranked game (time control, arranged-game
    rules, board); ``points`` is ``None`` also for an empty table cell and below 20k. The
    results are those right after the game, before a promotion it caused resets them.
    """

    game: int
    counted: bool
    points: int | None
    min_games_result: int | None
    fewer_games_result: int | None
    list_shows: int | None
    promoted_to: Rank | None
    notes: tuple[str, ...]

    def snapshot(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "counted": self.counted,
            "points": self.points,
            "min_games_result": self.min_games_result,
            "fewer_games_result": self.fewer_games_result,
            "list_shows": self.list_shows,
            "promoted_to": None if self.promoted_to is None else str(self.promoted_to),
            "notes": list(self.notes),
        }


class Results:
    """The §17–§18 results of the counted games since the rank was set (rules.md §4.3).

    With prefix sums S_0 = 0 … S_n the min-games result is S_n − min(S_j : j ≤ n − minimum)
    (``floor``) and the best shorter suffix is S_n − min(S_j : n − minimum < j < n); ``recent``
    holds those S_j and S_n. O(minimum) per game, and minimum ≤ 50.
    """

    __slots__ = ("fewer_result", "floor", "min_result", "minimum", "n", "recent", "total")

    def __init__(self, minimum: int) -> None:
        self.minimum = minimum
        self.n = 0
        self.total = 0
        self.floor: int | None = None
        self.recent: deque[int] = deque((0,))
        self.min_result: int | None = None
        self.fewer_result: int | None = None

    @property
    def list_shows(self) -> int:
        """§17(2): the min-games result, or the sum while it cannot be computed."""
        return self.total if self.min_result is None else self.min_result

    def add(self, points: int) -> None:
        """One more counted game's points."""
        n = self.n + 1
        recent = self.recent
        if n >= self.minimum:  # S_{n−minimum} leaves the short window for the floor
            leaving = recent.popleft()
            if self.floor is None or leaving < self.floor:
                self.floor = leaving
        total = self.total + points
        best_short = total - min(recent) if recent else None
        self.min_result = None if self.floor is None else total - self.floor
        self.fewer_result = shown_fewer(self.min_result, best_short)
        recent.append(total)
        self.total = total
        self.n = n

    def snapshot(self) -> dict[str, Any]:
        return {
            "minimum": self.minimum,
            "n": self.n,
            "total": self.total,
            "floor": self.floor,
            "recent": list(self.recent),
        }


def new_results(rank: Rank) -> Results | None:
    """Fresh results for ``rank``; ``None`` below 20k (§15(2): no points computed)."""
    return Results(minimum_games(rank)) if rank >= POINTS_WEAKEST else None


class PlayerState:
    """One participant's mutable state (plain attributes: the per-game path is hot)."""

    __slots__ = (
        "below_last",
        "below_run",
        "clock_from",
        "egf",
        "egf_months",
        "games",
        "held",
        "last_played",
        "last_ranked",
        "last_score",
        "late_reports",
        "raised_month",
        "rank",
        "rank_since",
        "rank_version",
        "registered",
        "results",
        "suspended",
        "tainted",
    )

    def __init__(self, rank: Rank, date: dt.date) -> None:
        self.rank = rank
        self.rank_version = 0  # bumped at every rank change (§8(2) pair counts restart)
        self.rank_since = date
        self.registered = date
        self.results = new_results(rank)
        self.games = 0  # ranked games ever
        self.last_played: dt.date | None = None
        # the §18(4) reset counts from registration until the first ranked game; activity
        # (§3(5)) needs a ranked game (Psg.active)
        self.last_ranked = date
        self.late_reports = 0
        self.held = False  # §21: a teacher holds back automatic promotion
        self.tainted = False  # the current norm was reached by losing an arranged game (§19(1))
        self.egf: dict[int, Rating] = {}  # month → EGF rating (§4.5 by month; §6 exact)
        self.egf_months: list[int] = []  # the keys of ``egf``, sorted
        self.clock_from: int | None = 0  # month index the §23 clock runs from; None = waiting
        self.raised_month: int | None = None  # month index of the last rank raise
        self.suspended = False
        self.below_run = 0  # consecutive checked months below the §23 line
        self.below_last: int | None = None  # the last of them
        # the fields of a GameScore, kept as a plain tuple on the per-game path
        self.last_score: tuple[Any, ...] | None = None

    @property
    def list_shows(self) -> int | None:
        return None if self.results is None else self.results.list_shows

    def latest_egf(self) -> tuple[int, Rating] | None:
        """(month index, rating) of the latest known EGF rating."""
        if not self.egf_months:
            return None
        month = self.egf_months[-1]
        return month, self.egf[month]

    def egf_at(self, month: int) -> Rating | None:
        """The EGF rating known at ``month``: the latest one carried forward (rules.md §4.5)."""
        i = bisect_right(self.egf_months, month)
        return self.egf[self.egf_months[i - 1]] if i else None

    def snapshot(self) -> dict[str, Any]:
        return {
            "rank": str(self.rank),
            "rank_version": self.rank_version,
            "rank_since": self.rank_since.isoformat(),
            "registered": self.registered.isoformat(),
            "results": None if self.results is None else self.results.snapshot(),
            "games": self.games,
            "last_played": _iso(self.last_played),
            "last_ranked": self.last_ranked.isoformat(),
            "late_reports": self.late_reports,
            "held": self.held,
            "tainted": self.tainted,
            "egf": {month_name(m): as_data(self.egf[m]) for m in self.egf_months},
            "clock_from": _month_or_none(self.clock_from),
            "raised_month": _month_or_none(self.raised_month),
            "suspended": self.suspended,
            "below_run": self.below_run,
            "below_last": _month_or_none(self.below_last),
            "last_score": None
            if self.last_score is None
            else GameScore(*self.last_score).snapshot(),
        }


def month_index(year: int, month: int) -> int:
    """A calendar month as one integer (consecutive months differ by 1)."""
    return year * 12 + month - 1


def month_name(index: int) -> str:
    year, month0 = divmod(index, 12)
    return f"{year:04d}-{month0 + 1:02d}"


def month_end(year: int, month: int) -> dt.date:
    return dt.date(year, month, calendar.monthrange(year, month)[1])


def _iso(date: dt.date | None) -> str | None:
    return None if date is None else date.isoformat()


def _month_or_none(index: int | None) -> str | None:
    return None if index is None else month_name(index)
