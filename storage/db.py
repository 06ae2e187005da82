"""The database: one writer connection behind a lock, one reader, migrations at open.

Every write is a transaction ``async with db.transaction() as tx:`` — ``BEGIN IMMEDIATE`` …
``COMMIT``, rolled back on any exception — taken under one ``asyncio.Lock``, so coroutines never
interleave inside a transaction (stack-notes.md, SQLite). Reads go through a second connection
and see the last committed state (WAL). ``await db.close()`` closes both: an open aiosqlite
connection keeps a thread alive and hangs the process at exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import datetime as dt
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import aiosqlite

from storage import deliveries, migrate
from storage.cache import Projections, SystemFactory

Row = tuple[Any, ...]
Clock = Callable[[], dt.datetime]

BUSY_TIMEOUT_MS = 5000
CHECKPOINT_WAL_BYTES = 4 << 20
"""A WAL this big is copied back into the database by a background checkpoint (SQLite's own
automatic checkpoint is about as big, but runs inside the ``COMMIT`` that crosses it: the
slowest appends at federation size were those)."""
SYNCHRONOUS_MODES = ("NORMAL", "FULL")


def utc_now() -> dt.datetime:
    """The default clock: now, in UTC."""
    return dt.datetime.now(dt.UTC)


class Transaction:
    """One write transaction on the writer connection (only valid inside ``db.transaction()``)."""

    def __init__(self, connection: aiosqlite.Connection, projections: Projections):
        self._connection = connection
        self._rollback_hooks: list[Callable[[], None]] = []
        self.projections = projections
        """The database's projections (storage.cache): its memos are shared with its reads."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run one statement."""
        await self._connection.execute_fetchall(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for every row."""
        cursor = await self._connection.executemany(sql, rows)
        await cursor.close()

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query, as tuples."""
        return [tuple(row) for row in await self._connection.execute_fetchall(sql, params)]

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of a query, or ``None``."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def chunks(
        self, sql: str, params: Sequence[Any] = (), size: int = 4096, *, prefetch: bool = False
    ) -> AsyncIterator[list[Row]]:
        """The rows of a query in lists of up to ``size`` (for scans too big to hold at once).

        ``prefetch``: SQLite reads the next list while the caller works on this one, on its own
        thread (for long scans; the caller's other statements queue behind the read-ahead).
        """
        cursor = await self._connection.execute(sql, params)
        try:
            if not prefetch:
                while rows := await cursor.fetchmany(size):
                    yield rows  # type: ignore[misc]  # sqlite3 rows are tuples (no row factory)
                return
            ahead = asyncio.ensure_future(cursor.fetchmany(size))
            try:
                while rows := await ahead:
                    ahead = asyncio.ensure_future(cursor.fetchmany(size))
                    yield rows  # type: ignore[misc]
            finally:
                if not ahead.done():
                    ahead.cancel()
                    with contextlib.suppress(BaseException):
                        await ahead
        finally:
            await cursor.close()

    def on_rollback(self, hook: Callable[[], None]) -> None:
        """Run ``hook`` if this transaction rolls back (to drop in-memory state it touched)."""
        self._rollback_hooks.append(hook)


@dataclass(slots=True)
class _Checkpoint:
    """The background checkpoint: its connection (opened on first use) and the running one."""

    connection: aiosqlite.Connection | None = None
    task: asyncio.Task[None] | None = None


class Database:
    """An open hoshi database (see :func:`open_db`): its connections, the writers' lock, its
    transactions and the background checkpoint. What storage keeps in memory of it (ledgers,
    memos, rating systems) is ``projections`` (storage.cache), which it only refers to.

    ``delivery``: the chat update this handle writes for (:meth:`delivering`); ``None`` for
    the database itself.
    """

    def __init__(
        self,
        path: str,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        *,
        projections: Projections,
        clock: Clock,
        version: int,
    ):
        self.path = path
        self.version = version
        self.clock = clock
        self.projections = projections
        self._writer = writer
        self._reader = reader
        self._shared = reader is writer
        self._lock = asyncio.Lock()
        self._checkpoint = _Checkpoint()
        self.delivery: deliveries.Delivery | None = None
        self._committed: list[Callable[[], None]] = []  # shared by every delivering() handle

    def delivering(self, key: str | None) -> Database:
        """This database as the handler of one chat update sees it (``telegram:BOT:UPDATE``):
        the same connections, lock and projections, and the first of its transactions that
        changes anything records ``key`` with the change (storage.deliveries) — an update
        delivered again changes nothing. ``None``: no key, the database itself."""
        if key is None:
            return self
        handle = copy.copy(self)
        handle.delivery = deliveries.Delivery(key)
        return handle

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """A write transaction: ``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back on any exception.

        On a :meth:`delivering` handle, a transaction that changed anything records the
        update's key first (once per handle); if the key is already recorded it rolls back
        with ``storage.deliveries.Duplicate``.
        """
        async with self._lock:
            tx = Transaction(self._writer, self.projections)
            await self._writer.execute_fetchall("BEGIN IMMEDIATE")
            began = self._writer.total_changes
            try:
                yield tx
                if self.delivery is not None and self._writer.total_changes != began:
                    await deliveries.record(tx, self.clock, self.delivery)
                await self._writer.execute_fetchall("COMMIT")
                self._checkpoint_if_due()
                if self._writer.total_changes != began:
                    for hook in self._committed:
                        hook()
            except BaseException:
                try:
                    if self._writer.in_transaction:
                        await self._writer.execute_fetchall("ROLLBACK")
                finally:
                    for hook in tx._rollback_hooks:
                        hook()
                raise

    def after_commit(self, hook: Callable[[], None]) -> None:
        """Call ``hook`` after every transaction that changed something is committed (the
        static web site is written again, issue 14); it must not raise or block."""
        self._committed.append(hook)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a read-only query on the reader connection (committed state)."""
        if self._shared:
            async with self._lock:
                return [tuple(r) for r in await self._reader.execute_fetchall(sql, params)]
        return [tuple(r) for r in await self._reader.execute_fetchall(sql, params)]

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of a query, or ``None``."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    def _checkpoint_if_due(self) -> None:
        """Start a background checkpoint when the WAL has grown past
        :data:`CHECKPOINT_WAL_BYTES` (and none is running)."""
        running = self._checkpoint.task
        if self._shared or (running is not None and not running.done()):
            return
        try:
            size = os.stat(self.path + "-wal").st_size
        except OSError:
            return
        if size >= CHECKPOINT_WAL_BYTES:
            self._checkpoint.task = asyncio.get_running_loop().create_task(self._checkpointed())

    async def _checkpointed(self) -> None:
        """``PRAGMA wal_checkpoint(PASSIVE)`` on a connection of its own: it never waits for
        the writer, and writers never wait for it (an interrupted checkpoint is harmless)."""
        try:
            if self._checkpoint.connection is None:
                self._checkpoint.connection = await _connect(
                    self.path, synchronous="NORMAL", query_only=False
                )
            await self._checkpoint.connection.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error:  # busy or locked: the next commit tries again
            pass

    async def close(self) -> None:
        """Close every connection (idempotent; any handle closes the database)."""
        self.projections.clear()
        if self._checkpoint.task is not None:
            await self._checkpoint.task
            self._checkpoint.task = None
        if self._checkpoint.connection is not None:
            await self._checkpoint.connection.close()
            self._checkpoint.connection = None
        await self._writer.close()
        if not self._shared:
            await self._reader.close()


async def _connect(path: str, *, synchronous: str, query_only: bool) -> aiosqlite.Connection:
    connection = await aiosqlite.connect(path, isolation_level=None)
    try:
        await connection.execute_fetchall(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await connection.execute_fetchall("PRAGMA foreign_keys = ON")
        await connection.execute_fetchall(f"PRAGMA synchronous = {synchronous}")
        if query_only:
            await connection.execute_fetchall("PRAGMA query_only = ON")
    except BaseException:
        await connection.close()
        raise
    return connection


async def open_db(
    path: str | os.PathLike[str],
    *,
    systems: Mapping[str, SystemFactory] | None = None,
    clock: Clock = utc_now,
    migrations: Traversable | Path | None = None,
    synchronous: str = "NORMAL",
) -> Database:
    """Open (creating if needed) and migrate a hoshi database.

    Args:
        path: the SQLite file (``":memory:"`` works too, with one shared connection).
        systems: rating-system factories by key; default the engine's registry.
        clock: the source of log timestamps (tests inject a fixed clock).
        migrations: a directory of ``NNNN_name.sql`` files (default: the packaged ones).
        synchronous: ``NORMAL`` (default) or ``FULL``.

    Raises:
        SchemaVersionError: the database is newer than this hoshi.
    """
    if synchronous.upper() not in SYNCHRONOUS_MODES:
        raise ValueError(f"synchronous must be NORMAL or FULL, not {synchronous!r}")
    synchronous = synchronous.upper()
    name = os.fspath(path)
    steps = migrate.discover(migrations if migrations is not None else migrate.packaged())
    writer = await _connect(name, synchronous=synchronous, query_only=False)
    try:
        if name != ":memory:":
            await writer.execute_fetchall("PRAGMA journal_mode = WAL")
            await writer.execute_fetchall("PRAGMA wal_autocheckpoint = 0")  # in the background
        version = await migrate.apply(writer, steps)
        reader = (
            writer
            if name == ":memory:"
            else await _connect(name, synchronous=synchronous, query_only=True)
        )
    except BaseException:
        await writer.close()
        raise
    return Database(
        name, writer, reader, projections=Projections(systems), clock=clock, version=version
    )
