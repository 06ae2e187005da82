"""Swedish promotion points: one target's sequences, kept incrementally (rules.md §3.3)."""

from __future__ import annotations

from collections import deque
from typing import Any

from engine.ranks import Rank
from engine.swedish.points import (
    _measure_needed,
    format_half_games,
    format_quarters,
)
from engine.swedish.tables import (
    _MISSING_GAME_Q,
    HALVES,
    QUARTERS,
    Requirement,
)

# ------------------------------------------------------------------ one target's sequences


class SequenceTracker:
    """The sequences toward one target, game by game (rules.md §3.3 Decisions).

    ``total``/``total_games`` is the best sequence ending at the latest game (Kadane: a total
    that drops below zero starts over, with no games); ``ok`` says whether *any* sequence
    ending at the latest game qualifies — not necessarily the best one, since fewer games can
    qualify with extra points. With prefix sums S (quarter-points) and H (half-games), a
    sequence after prefix i qualifies when S − S_i ≥ 4P if it has at least N games, or
    (S + 20H) − (S_i + 20H_i) ≥ 4P + 40N if it has fewer. The prefixes less than N games back
    sit in a deque whose keys S_i + 20H_i rise from the front (a prefix with a smaller key later
    dominates an earlier one for good); the older prefixes keep only their smallest S_i. Each
    prefix enters and leaves once: O(1) amortised a game, at most 2N prefixes held.
    """

    __slots__ = (
        "_need_measure",
        "_need_points",
        "_window",
        "count",
        "foreign",
        "halves",
        "last",
        "ok",
        "old_foreign",
        "old_halves",
        "old_points",
        "points",
        "recent",
        "requirement",
        "target",
        "total",
        "total_foreign",
        "total_halves",
        "witness",
    )

    def __init__(self, target: Rank, requirement: Requirement) -> None:
        self.target = target
        self.requirement = requirement
        self._window = requirement.games * HALVES
        self._need_points = requirement.points * QUARTERS
        self._need_measure = _measure_needed(requirement)
        self.count = 0  # games seen
        self.points = 0  # prefix sum S, quarter-points
        self.halves = 0  # prefix sum H, half-games
        self.foreign = 0  # prefix count of games against other regions
        self.total = 0  # Kadane: best sequence ending now
        self.total_halves = 0
        self.total_foreign = 0
        self.last = 0  # the latest game's points
        self.recent: deque[tuple[int, int, int, int]] = deque()  # (S+20H, S, H, F) of prefixes
        self.old_points: int | None = None  # smallest S of the prefixes ≥ N games back
        self.old_halves = 0
        self.old_foreign = 0
        self.ok = False
        self.witness: tuple[int, int, int] | None = None  # (points, halves, foreign) when ok

    def add(self, points: int, halves: int, foreign: bool = False) -> bool:
        """One more valid game (quarter-points, half-games); whether any sequence qualifies."""
        s, h, f = self.points, self.halves, self.foreign
        key = s + _MISSING_GAME_Q * h
        recent = self.recent
        while recent and recent[-1][0] >= key:
            recent.pop()  # dominated: a later prefix with a key no larger (and S no larger)
        recent.append((key, s, h, f))
        s += points
        h += halves
        if foreign:
            f += 1
            self.foreign = f
        self.points = s
        self.halves = h
        window = self._window
        while recent and h - recent[0][2] >= window:
            _, old_s, old_h, old_f = recent.popleft()
            if self.old_points is None or old_s < self.old_points:
                self.old_points, self.old_halves, self.old_foreign = old_s, old_h, old_f
        self.count += 1
        self.last = points
        total = self.total + points
        if total < 0:  # rules.md §3.3 Decision: a total below zero starts over ("nollställs")
            self.total = self.total_halves = self.total_foreign = 0
        else:
            self.total = total
            self.total_halves += halves
            if foreign:
                self.total_foreign += 1
        # rules.md §3.3 Decision: qualified if ANY sequence ending at this game qualifies
        old = self.old_points
        if old is not None and s - old >= self._need_points:
            self.witness = (s - old, h - self.old_halves, f - self.old_foreign)
        elif recent and s + _MISSING_GAME_Q * h - recent[0][0] >= self._need_measure:
            _, front_s, front_h, front_f = recent[0]
            self.witness = (s - front_s, h - front_h, f - front_f)
        elif self.ok:
            self.ok = False
            self.witness = None
            return False
        else:
            return False
        self.ok = True
        return True

    def summary(self) -> dict[str, Any]:
        """The tracker as plain data (for snapshots)."""
        return {
            "games_seen": self.count,
            "total": format_quarters(self.total),
            "games": format_half_games(self.total_halves),
            "points": format_quarters(self.last) if self.count else None,
            "qualifies": self.ok,
        }
