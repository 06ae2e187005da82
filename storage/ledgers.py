"""One club's ledgers in memory: the types the projections (storage.projections), their
snapshots (storage.snapshots) and the in-memory cache (storage.cache) share.

They sit below all three so that none of them imports another upward: a
:class:`ClubLedgers` is built and folded by storage.projections, pickled and loaded by
storage.snapshots, and kept (least recently used first) by storage.cache.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from dataclasses import dataclass, field

from engine.calendar import Key
from engine.system import Change, RatingSystem


@dataclass(slots=True)
class Projection:
    """One rating system's fold of one club's log.

    ``last_seq`` is the club's last log entry folded in; ``last_key`` the latest place in the
    calendar folded so far (engine.calendar). ``cards`` mirrors this system's ``player_state``
    rows as this fold wrote them (player → card JSON). ``rejected`` lists the facts the system
    refused while the club used another one: ``(position, message)``. ``registered``: the
    players whose registration is folded in (at its date, or just before their first fact) —
    a fold of the tail after ``last_key`` must not fold it again.
    """

    key: str
    system: RatingSystem
    last_seq: int = 0
    last_key: Key = (0, 0)
    cards: dict[int, str] = field(default_factory=dict)
    rejected: list[tuple[int, str]] = field(default_factory=list)
    registered: set[int] = field(default_factory=set)
    read_to: int | None = None
    """``None``: every entry up to ``last_seq`` is folded. Else the fold stopped part way, at
    ``last_key``, having read the log up to entry ``read_to`` (a step of
    :func:`caught_up_in_steps`): every entry up to ``last_seq`` and those after it up to
    ``read_to`` that are dated at or before ``last_key`` are folded — the place a tail resumes
    from, as after a whole fold — and every rewrite entered up to ``read_to`` is in."""

    @property
    def checked(self) -> int:
        """The log entry up to which every rewrite of the past is folded in."""
        return self.last_seq if self.read_to is None else self.read_to


@dataclass(slots=True)
class ClubLedgers:
    """One club's projections in memory: the current system's (always at the log's end after
    :func:`ledgers_for`) and those of the shadows folded so far (each where it stopped).

    ``captured``: the changes under the current system of the fact a rebuild was asked to
    capture (a fact entered for an earlier date: what it changed).
    """

    club: int
    current: str
    projections: dict[str, Projection]
    fingerprint: str
    captured: list[Change] = field(default_factory=list)
    reach: Key = (0, 0)
    """How far in the calendar another system's stored rows may claim to be complete (the
    greatest of the places from which a shadow's rows are missing, :func:`caught_up`, or
    more): a fact appended before it, though after what the current system has folded
    (after a void moved it back), is a rewrite of the past for those shadows
    (:meth:`ClubWrite.apply`)."""

    @property
    def now(self) -> Projection:
        """The current system's projection."""
        return self.projections[self.current]

    @property
    def system(self) -> RatingSystem:
        """The current system's ledger."""
        return self.now.system

    @property
    def last_seq(self) -> int:
        """The club's last log entry the current projection includes."""
        return self.now.last_seq

    @property
    def last_key(self) -> Key:
        """The latest place in the calendar the current projection folded."""
        return self.now.last_key

    @property
    def rejected(self) -> dict[str, list[tuple[int, str]]]:
        """The facts each system in memory refused."""
        return {key: each.rejected for key, each in self.projections.items()}

    def backlog(self, end: int | None = None) -> int:
        """Log entries the shadows in memory have not folded yet (up to ``end``, default the
        current projection's last entry)."""
        last = self.last_seq if end is None else end
        return sum(max(0, last - each.last_seq) for each in self.projections.values())


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused for a replay.

    A replay makes millions of small objects and keeps most of them (the ledgers); the
    collector would walk them again and again as they accumulate — at a million games that
    was a third of the replay. A replay makes no reference cycles, and whatever else the
    process made meanwhile is collected once the collector runs again.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()
