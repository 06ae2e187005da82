"""What storage keeps in memory of one open database: the clubs' ledgers, the memos, and the
rating systems the ledgers are built with.

:class:`storage.db.Database` is connections and transactions only; :func:`storage.db.open_db`
makes one :class:`Projections` for it and every transaction shares it (a memo read inside a
write is the same memo a read outside sees). Storage reaches it as ``db.projections``
(``tx.projections`` in a transaction; :func:`of` for any reader).
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable, Hashable, Mapping
from typing import TYPE_CHECKING, Any

from engine.system import RatingSystem

if TYPE_CHECKING:
    from storage.projections import ClubLedgers

SystemFactory = Callable[[], RatingSystem]

SNAPSHOT_EVERY = 20_000
"""Log entries after a club's newest snapshot at which a new one is written (storage.snapshots)."""


class Projections:
    """The in-memory side of one database (see the module docstring)."""

    def __init__(self, systems: Mapping[str, SystemFactory] | None = None):
        self._systems = dict(systems) if systems is not None else None
        self.ledgers: dict[int, ClubLedgers] = {}
        """Each club's in-memory ledgers (storage.projections), built on first use."""
        self.memo: dict[Hashable, Any] = {}
        """Read data derived from the log, kept with the log position it was read at
        (storage.memo)."""
        self.snapshot_every = SNAPSHOT_EVERY
        """Write a club's snapshot in the background once its ledgers are this many log
        entries past its newest one (storage.snapshots; 0: never)."""
        self.snapshot_seq: dict[int, int] = {}
        """Each club's newest snapshot known to this process (its log position)."""
        self.snapshot_tasks: dict[int, asyncio.Task[None]] = {}
        """The background snapshot being written, per club."""
        self.watched = False
        """Whether the background snapshots follow this database's commits."""
        self.full_folds = 0
        """How many times a club's ledgers were built by replaying its whole log (a replay on
        first use, a rebuild when the stored projections differed)."""

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
