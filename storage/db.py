"""The database: one writer connection behind a lock, readers, migrations at open.

:class:`Database` and :class:`Transaction` are the storage interface both backends implement
(scale-contract.md §1, storage.backend): SQLite here (:class:`SqliteDatabase`), PostgreSQL in
storage.postgres; :func:`open_db` picks one from its target (a path, or a ``postgresql://``
URL). The interface's names are importable from here too (``from storage.db import Database``).

SQLite:

Every write is a transaction ``async with db.transaction() as tx:`` — ``BEGIN IMMEDIATE`` …
``COMMIT``, rolled back on any exception — taken under one ``asyncio.Lock``, so coroutines never
interleave inside a transaction (stack-notes.md, SQLite). Reads go through a second connection
and see the last committed state (WAL). ``await db.close()`` closes both: an open aiosqlite
connection keeps a thread alive and hangs the process at exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import aiosqlite

from storage import deliveries, migrate
from storage.backend import Clock as Clock
from storage.backend import Counts
from storage.backend import Database as Database
from storage.backend import Listening as Listening
from storage.backend import Notice as Notice
from storage.backend import Row as Row
from storage.backend import Transaction as Transaction
from storage.backend import is_url as is_url
from storage.backend import utc_now as utc_now
from storage.backend import without_password as without_password
from storage.cache import Projections
from storage.cache import SystemFactory as SystemFactory
from storage.dialect import Dialect

BUSY_TIMEOUT_MS = 5000
CHECKPOINT_WAL_BYTES = 4 << 20
"""A WAL this big is copied back into the database by a background checkpoint (SQLite's own
automatic checkpoint is about as big, but runs inside the ``COMMIT`` that crosses it: the
slowest appends at federation size were those)."""
SYNCHRONOUS_MODES = ("NORMAL", "FULL")


class SqliteTransaction(Transaction):
    """A write transaction on SQLite's writer connection."""

    NEXT_SEQ_SQL = "(SELECT COALESCE(MAX(seq), 0) + 1 FROM log)"

    def __init__(
        self,
        connection: aiosqlite.Connection,
        projections: Projections,
        counts: Counts | None = None,
    ):
        super().__init__(projections, counts)
        self._connection = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run one statement."""
        self.counts.statements += 1
        await self._connection.execute_fetchall(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for every row."""
        self.counts.statements += 1
        cursor = await self._connection.executemany(sql, rows)
        await cursor.close()

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query, as tuples."""
        self.counts.statements += 1
        return [tuple(row) for row in await self._connection.execute_fetchall(sql, params)]

    async def chunks(
        self, sql: str, params: Sequence[Any] = (), size: int = 4096, *, prefetch: bool = False
    ) -> AsyncIterator[list[Row]]:
        """The rows of a query in lists of up to ``size``; ``prefetch`` reads the next list on
        SQLite's thread while the caller works (its other statements queue behind it)."""
        self.counts.statements += 1
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

    async def lock(self, club: int) -> None:
        """Nothing: ``BEGIN IMMEDIATE`` already serialises every writer of the file."""

    async def next_seqs(self, count: int) -> list[int]:
        """The positions after the log's last (the writer holds the file's write lock)."""
        row = await self.fetchone("SELECT COALESCE(MAX(seq), 0) FROM log")
        assert row is not None
        last: int = row[0]
        return list(range(last + 1, last + 1 + count))

    async def index_sql(self, name: str) -> str | None:
        """The ``CREATE INDEX`` statement of index ``name`` (from ``sqlite_master``)."""
        row = await self.fetchone(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", (name,)
        )
        return None if row is None else str(row[0])


@dataclass(slots=True)
class _Checkpoint:
    """The background checkpoint: its connection (opened on first use) and the running one."""

    connection: aiosqlite.Connection | None = None
    task: asyncio.Task[None] | None = None


class SqliteDatabase(Database):
    """An SQLite database: one writer connection behind the lock, one reader (WAL), and the
    background checkpoint."""

    dialect: Dialect = "sqlite"

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
        super().__init__(path, projections=projections, clock=clock, version=version)
        self.path = path
        self._writer = writer
        self._reader = reader
        self._shared = reader is writer
        self._checkpoint = _Checkpoint()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """A write transaction: ``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back on any exception
        (see :meth:`Database.transaction`)."""
        async with self._lock:
            tx = SqliteTransaction(self._writer, self.projections, self.counts)
            self._began(tx)
            self.counts.transactions += 1
            begun = False
            try:
                await self._writer.execute_fetchall("BEGIN IMMEDIATE")
                begun, began = True, self._writer.total_changes
                yield tx
                if self.delivery is not None and self._writer.total_changes != began:
                    await deliveries.record(tx, self.clock, self.delivery)
                await self._writer.execute_fetchall("COMMIT")
                self._forget_written(tx)
                self._checkpoint_if_due()
                if self._writer.total_changes != began:
                    self._did_commit()
            except BaseException:
                try:
                    if not begun:  # cancelled while BEGIN waited its turn: it still runs, then
                        with contextlib.suppress(sqlite3.Error):  # this undoes it
                            await self._writer.execute_fetchall("ROLLBACK")
                    elif self._writer.in_transaction:
                        await self._writer.execute_fetchall("ROLLBACK")
                finally:
                    tx.rolled_back()
                raise

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a read-only query on the reader connection (committed state)."""
        self.counts.statements += 1
        if self._shared:
            async with self._lock:
                return [tuple(r) for r in await self._reader.execute_fetchall(sql, params)]
        return [tuple(r) for r in await self._reader.execute_fetchall(sql, params)]

    async def tables(self) -> set[str]:
        """The names of the database's tables."""
        rows = await self.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {row[0] for row in rows}

    async def columns(self, table: str) -> list[str]:
        """The names of a table's columns, in order."""
        rows = await self.fetchall("SELECT name FROM pragma_table_info(?) ORDER BY cid", (table,))
        return [row[0] for row in rows]

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
    target: str | os.PathLike[str],
    *,
    systems: Mapping[str, SystemFactory] | None = None,
    clock: Clock = utc_now,
    migrations: Traversable | Path | None = None,
    synchronous: str = "NORMAL",
) -> Database:
    """Open (creating if needed) and migrate a hoshi database.

    Args:
        target: the SQLite file (``":memory:"`` works too, with one shared connection), or a
            ``postgresql://`` (``postgres://``) URL of an existing PostgreSQL database.
        systems: rating-system factories by key; default the engine's registry.
        clock: the source of log timestamps (tests inject a fixed clock).
        migrations: a directory of ``NNNN_name.sql`` files (default: the packaged ones).
        synchronous: SQLite's ``NORMAL`` (default) or ``FULL`` (PostgreSQL: ``FULL`` waits for
            the commit to be flushed, ``NORMAL`` leaves the server's setting).

    Raises:
        SchemaVersionError: the database is newer than this hoshi.
    """
    if synchronous.upper() not in SYNCHRONOUS_MODES:
        raise ValueError(f"synchronous must be NORMAL or FULL, not {synchronous!r}")
    synchronous = synchronous.upper()
    steps = migrate.discover(migrations if migrations is not None else migrate.packaged())
    if is_url(target):
        from storage import postgres  # asyncpg only when asked for

        return await postgres.open_pg(
            str(target),
            steps,
            projections=Projections(systems),
            clock=clock,
            synchronous=synchronous,
        )
    name = os.fspath(target)
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
    return SqliteDatabase(
        name, writer, reader, projections=Projections(systems), clock=clock, version=version
    )
