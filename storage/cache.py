"""What storage keeps in memory of one open database: the clubs' ledgers, the memos, and the
rating systems the ledgers are built with.

:class:`storage.backend.Database` is connections and transactions only; :func:`storage.db.open_db`
makes one :class:`Projections` for it and every transaction shares it (a memo read inside a
write is the same memo a read outside sees). Storage reaches it as ``db.projections``
(``tx.projections`` in a transaction; :func:`of` for any reader).
"""

from __future__ import annotations

import asyncio
import importlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.system import RatingSystem
from storage.ledgers import ClubLedgers

SystemFactory = Callable[[], RatingSystem]

SNAPSHOT_EVERY = 20_000
"""Log entries after a club's newest snapshot at which a new one is written (storage.snapshots)."""

CLUBS_IN_MEMORY = 1000
"""Clubs whose ledgers one process keeps in memory at most (the least recently used go first;
``[storage] clubs_in_memory``)."""


@dataclass(slots=True)
class Known:
    """What a command read of its club in one statement as it began
    (storage.clubs.club_for_chat): the club's last log position, when the club was created,
    and the keys of its memos then (storage.keys). The command's other reads of the club take
    a memo whose stored key equals the known one without asking its key again; a write
    transaction does so only once it found the club's log where the command read it
    (storage.projections.ledgers_for), until it appends anything but a game."""

    end: int
    """The club's last log position."""
    started: str
    """When the club was created (its log entry's ``at``)."""
    keys: dict[str, tuple[Any, ...]]
    """Each memo key's query (storage.keys) with its answer."""


class Projections:
    """The in-memory side of one database (see the module docstring)."""

    def __init__(self, systems: Mapping[str, SystemFactory] | None = None):
        self._systems = dict(systems) if systems is not None else None
        self.ledgers: OrderedDict[int, ClubLedgers] = OrderedDict()
        """Each club's in-memory ledgers (storage.projections), built on first use, the
        least recently used first (:meth:`remember`)."""
        self.clubs_in_memory = CLUBS_IN_MEMORY
        """At most this many clubs' ledgers are kept; an idle club's are evicted."""
        self.evicted: Callable[[ClubLedgers], None] | None = None
        """Called with a club's ledgers as they are evicted (storage.snapshots writes a
        snapshot of what moved since the last one)."""
        self.writing: dict[int, int] = {}
        """Clubs with a write open in this process (how many): the read port
        (storage.projections.ledger) serves their cached ledgers only when none is."""
        self.evictions = 0
        """How many clubs' ledgers were evicted so far."""
        self.memo: dict[Hashable, Any] = {}
        """Read data derived from the log, kept with the log position it was read at
        (storage.memo)."""
        self.snapshot_every = SNAPSHOT_EVERY
        """Write a club's snapshot in the background once its ledgers are this many log
        entries past its newest one (storage.snapshots; 0: never)."""
        self.snapshot_seq: dict[tuple[int, str], int] = {}
        """Each club's newest snapshot known to this process (its log position)."""
        self.snapshot_tasks: dict[tuple[int, str], asyncio.Task[None]] = {}
        """The background snapshot being written, per club."""
        self.watched = False
        """Whether the background snapshots follow this database's commits."""
        self.folded_events = 0
        """How many events the projections folded so far, counted once per system that
        folded each (replays, rebuilds, tails and catch-ups; not single appends)."""
        self.full_folds = 0
        """How many times a club's ledgers were built by replaying its whole log (a replay on
        first use, a rebuild when the stored projections differed)."""

    def remember(self, club: int, ledgers: ClubLedgers) -> None:
        """Keep ``ledgers`` as the club's, the most recently used; evict the least recently
        used clubs beyond :attr:`clubs_in_memory` (their memos go with them)."""
        self.ledgers[club] = ledgers
        self.ledgers.move_to_end(club)
        while len(self.ledgers) > max(1, self.clubs_in_memory):
            old, evicted = self.ledgers.popitem(last=False)
            self.evictions += 1
            for slot in [s for s in self.memo if isinstance(s, tuple) and old in s[1:2]]:
                del self.memo[slot]
            if self.evicted is not None:
                self.evicted(evicted)

    @property
    def systems(self) -> Mapping[str, SystemFactory]:
        """The rating systems by key (default: the engine's registry ``engine.systems``)."""
        if self._systems is None:
            registry = importlib.import_module("engine.systems")
            self._systems = dict(registry.SYSTEMS)
        return self._systems

    def clear(self) -> None:
        """Forget every ledger and memo (the database closed); stop background snapshots."""
        self.ledgers.clear()
        self.memo.clear()
        for task in self.snapshot_tasks.values():
            task.cancel()
        self.snapshot_tasks.clear()
        self.snapshot_seq.clear()


def of(reader: object) -> Projections | None:
    """The projections of a database or of one of its transactions (``None`` for any other
    reader, e.g. a bare connection: it gets no memo)."""
    found = getattr(reader, "projections", None)
    return found if isinstance(found, Projections) else None
