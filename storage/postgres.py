"""The PostgreSQL backend (asyncpg): the storage interface of storage.db on a database server.

Writes go through one connection under the database's ``asyncio.Lock`` (as SQLite's writer);
several processes writing the same club are serialised by ``pg_advisory_xact_lock(club)``
inside the transaction (:meth:`PgTransaction.lock`, taken before the club is read). Log
positions come from the sequence ``log_seq``; a transaction that appended to a club sends
``pg_notify('hoshi_log', 'club:seq')`` before committing (delivered only if it commits), and
:meth:`PgDatabase.listen` hears every process's notices. Reads use a small pool and see the
committed state.

Storage's SQL is written once for both dialects (storage.dialect translates the placeholders);
``numeric`` results (``SUM``, ``AVG``) come back as ``int`` (``float`` when fractional) and
``boolean`` ones as 0/1, so callers see the Python types SQLite gives them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from decimal import Decimal
from typing import Any

import asyncpg

from storage import deliveries, dialect, migrate
from storage.backend import (
    Clock,
    Counts,
    Database,
    Listening,
    Notice,
    Row,
    Transaction,
    without_password,
)
from storage.cache import Projections
from storage.dialect import Dialect

log = logging.getLogger(__name__)

CHANNEL = "hoshi_log"
POOL_SIZE = 4
COPY_ROWS = 64
"""``executemany`` of a plain INSERT with at least this many rows uses ``COPY``."""
RECONNECT_DELAYS = (0.05, 0.2, 1.0, 2.0, 5.0)
"""Seconds between attempts to re-establish a lost listening connection (the last repeats)."""
CHECK_EVERY = 5.0
"""Seconds between checks that an idle listening connection is still alive."""

_PLAIN_INSERT = re.compile(
    r"^\s*INSERT\s+INTO\s+(?P<table>\w+)\s*\((?P<columns>[\w\s,]+)\)\s*VALUES\s*"
    r"\((?P<values>[\s?,]+)\)\s*$",
    re.IGNORECASE,
)
_WRITES = re.compile(r"^\s*(?:INSERT|UPDATE|DELETE|WITH)\b", re.IGNORECASE)
_CHANGES = re.compile(r"^(?:INSERT \d+|UPDATE|DELETE|COPY|MERGE) (\d+)$")


def _numeric(text: str) -> int | float:
    value = Decimal(text)
    return int(value) if value == value.to_integral_value() else float(value)


def _boolean_out(value: Any) -> str:
    return "t" if value else "f"


async def _setup(connection: asyncpg.Connection) -> None:
    """Every connection: SQLite's Python types for ``numeric`` and ``boolean`` results."""
    await connection.set_type_codec(
        "numeric", schema="pg_catalog", encoder=str, decoder=_numeric, format="text"
    )
    await connection.set_type_codec(
        "bool",
        schema="pg_catalog",
        encoder=_boolean_out,
        decoder=lambda text: 1 if text == "t" else 0,
        format="text",
    )


async def _read_only(connection: asyncpg.Connection) -> None:
    """A reader: the Python types of :func:`_setup`, and no writing (as SQLite's reader)."""
    await _setup(connection)
    await connection.execute("SET default_transaction_read_only = on")


def _changed(status: str | None) -> bool:
    if not status:
        return False
    match = _CHANGES.match(status)
    return match is not None and int(match[1]) > 0


class PgTransaction(Transaction):
    """A write transaction on the writer connection."""

    NEXT_SEQ_SQL = "nextval('log_seq')"

    def __init__(
        self,
        connection: asyncpg.Connection,
        projections: Projections,
        counts: Counts | None = None,
    ):
        super().__init__(projections, counts)
        self._connection = connection
        self._busy = asyncio.Lock()  # one statement at a time (a read-ahead queues the others)
        self._locked: set[int] = set()
        self.changed = False
        """Whether any statement of this transaction inserted, updated or deleted a row."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run one statement."""
        sql = dialect.query(sql)
        self.counts.statements += 1
        async with self._busy:
            status = await self._connection.execute(sql, *params)
        if not self.changed and _changed(status):
            self.changed = True

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for every row; a plain ``INSERT … VALUES (?, …)`` of many rows
        goes by ``COPY`` (rebuilds write millions of rows)."""
        records = rows if isinstance(rows, list) else list(rows)
        if not records:
            return
        plain = _PLAIN_INSERT.match(sql)
        self.counts.statements += 1
        async with self._busy:
            if plain is not None and len(records) >= COPY_ROWS:
                columns = [c.strip() for c in plain["columns"].split(",")]
                await self._connection.copy_records_to_table(
                    plain["table"], records=records, columns=columns
                )
            else:
                sql = dialect.query(sql)
                await self._connection.executemany(sql, records)
        self.changed = True

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query, as tuples."""
        self.counts.statements += 1
        async with self._busy:
            if _WRITES.match(sql) is None:
                rows = await self._connection.fetch(dialect.query(sql), *params)
                return [tuple(row) for row in rows]
            statement = await self._connection.prepare(dialect.query(sql))
            rows = await statement.fetch(*params)
        if not self.changed and _changed(statement.get_statusmsg()):
            self.changed = True
        return [tuple(row) for row in rows]

    async def chunks(
        self, sql: str, params: Sequence[Any] = (), size: int = 4096, *, prefetch: bool = False
    ) -> AsyncIterator[list[Row]]:
        """The rows of a query in lists of up to ``size``, from a server-side cursor
        (``prefetch`` asks the server for the next list while the caller works on this one)."""
        self.counts.statements += 1
        async with self._busy:
            statement = await self._connection.prepare(dialect.query(sql))
            cursor = await statement.cursor(*params)

        async def fetch() -> list[Any]:
            async with self._busy:
                rows: list[Any] = await cursor.fetch(size)
                return rows

        if not prefetch:
            while rows := await fetch():
                yield [tuple(row) for row in rows]
            return
        ahead = asyncio.ensure_future(fetch())
        try:
            while rows := await ahead:
                ahead = asyncio.ensure_future(fetch())
                yield [tuple(row) for row in rows]
        finally:
            # never cancelled: a cancelled statement would abort the whole transaction
            with contextlib.suppress(BaseException):
                await ahead

    async def lock(self, club: int) -> None:
        """``pg_advisory_xact_lock(club)``, once per club per transaction: another process's
        write to the club waits for this transaction's end."""
        if club in self._locked:
            return
        self.counts.statements += 1
        async with self._busy:
            await self._connection.execute("SELECT pg_advisory_xact_lock($1)", club)
        self._locked.add(club)

    async def positions_follow_log(self) -> None:
        """The ``log_seq`` sequence moved past the log's last position."""
        await self.execute(
            "SELECT setval('log_seq', (SELECT COALESCE(MAX(seq), 0) + 1 FROM log), false)"
        )

    async def next_seqs(self, count: int) -> list[int]:
        """``count`` values of the ``log_seq`` sequence, increasing."""
        if count <= 0:
            return []
        self.counts.statements += 1
        async with self._busy:
            rows = await self._connection.fetch(
                "SELECT nextval('log_seq') FROM generate_series(1, $1::bigint) ORDER BY 1", count
            )
        return [row[0] for row in rows]

    async def index_sql(self, name: str) -> str | None:
        """The ``CREATE INDEX`` statement of index ``name`` (from ``pg_indexes``)."""
        row = await self.fetchone(
            "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() "
            "AND indexname = ?",
            (name,),
        )
        return None if row is None else str(row[0])

    async def notify(self) -> None:
        """Tell every listener which clubs this transaction appended to, and up to where (sent
        by the server only when the transaction commits)."""
        for club, seq in sorted(self.appended.items()):
            self.counts.statements += 1
            async with self._busy:
                await self._connection.execute(
                    "SELECT pg_notify($1, $2)", CHANNEL, f"{club}:{seq}"
                )


class PgListening(Listening):
    """A dedicated connection listening on :data:`CHANNEL`, re-established when lost."""

    def __init__(self, url: str, callback: Notice):
        self._url = url
        self._callback = callback
        self._connection: asyncpg.Connection | None = None
        self._lost = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.reconnects = 0
        """How many times the connection was re-established."""

    async def start(self) -> None:
        """Connect and listen (raises if the database is unreachable now)."""
        await self._connect()
        self._task = asyncio.get_running_loop().create_task(self._watch())

    async def _connect(self) -> None:
        connection: asyncpg.Connection = await asyncpg.connect(self._url)
        self._lost.clear()
        connection.add_termination_listener(lambda _: self._lost.set())
        await connection.add_listener(CHANNEL, self._heard)
        self._connection = connection

    def _heard(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        club, _, seq = payload.partition(":")
        try:
            self._callback(int(club), int(seq))
        except Exception:  # a listener's bug must not stop the listening
            log.exception("log notice callback failed for %r", payload)

    @property
    def pid(self) -> int | None:
        """The server process of the listening connection (tests end it to cut it)."""
        return None if self._connection is None else self._connection.get_server_pid()

    async def _watch(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._lost.wait(), CHECK_EVERY)
            connection = self._connection
            if connection is not None and not connection.is_closed() and not self._lost.is_set():
                try:
                    await connection.execute("SELECT 1")
                    continue
                except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                    pass
            await self._reconnect()

    async def _reconnect(self) -> None:
        if self._connection is not None:
            self._connection.terminate()
            self._connection = None
        attempt = 0
        while True:
            try:
                await self._connect()
                break
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                delay = RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)]
                log.warning("listening for log notices: %s; again in %ss", error, delay)
                attempt += 1
                await asyncio.sleep(delay)
        self.reconnects += 1
        try:
            self._callback(0, 0)
        except Exception:
            log.exception("log notice callback failed after a reconnect")

    async def close(self) -> None:
        """Stop listening and close the connection (idempotent)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
            self._task = None
        if self._connection is not None:
            with contextlib.suppress(Exception):
                await self._connection.close(timeout=2)
            self._connection = None


class PgDatabase(Database):
    """A PostgreSQL database: one writer connection behind the lock, a pool of readers."""

    dialect: Dialect = "postgresql"

    def __init__(
        self,
        url: str,
        writer: asyncpg.Connection,
        readers: asyncpg.Pool,
        *,
        projections: Projections,
        clock: Clock,
        version: int,
        synchronous: str,
    ):
        super().__init__(
            without_password(url), projections=projections, clock=clock, version=version
        )
        self._url = url
        self._writer = writer
        self._readers = readers
        self._synchronous = synchronous
        self._listeners: list[PgListening] = []

    async def _writer_connection(self) -> asyncpg.Connection:
        """The writer, connected again if the server dropped it."""
        if self._writer.is_closed():
            self._writer = await _connect(self._url, self._synchronous)
        return self._writer

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """A write transaction: ``BEGIN`` … ``COMMIT``, rolled back on any exception (see
        :meth:`Database.transaction`); its log notices are sent just before ``COMMIT``."""
        async with self._lock:
            connection = await self._writer_connection()
            tx = PgTransaction(connection, self.projections, self.counts)
            self._began(tx)
            self.counts.transactions += 1
            try:
                await connection.execute("BEGIN")
                yield tx
                if self.delivery is not None and tx.changed:
                    await deliveries.record(tx, self.clock, self.delivery)
                await tx.notify()
                await connection.execute("COMMIT")
                self._forget_written(tx)
                if tx.changed:
                    self._did_commit()
            except BaseException:
                try:
                    if not connection.is_closed() and connection.is_in_transaction():
                        await connection.execute("ROLLBACK")
                finally:
                    tx.rolled_back()
                raise

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a read-only query, on a pooled reader (committed state)."""
        self.counts.statements += 1
        async with self._readers.acquire() as connection:
            rows = await connection.fetch(dialect.query(sql), *params)
        return [tuple(row) for row in rows]

    async def tables(self) -> set[str]:
        """The names of the database's tables (in its current schema)."""
        rows = await self.fetchall(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        )
        return {row[0] for row in rows}

    async def columns(self, table: str) -> list[str]:
        """The names of a table's columns, in order."""
        rows = await self.fetchall(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = "
            "current_schema() AND table_name = ? ORDER BY ordinal_position",
            (table,),
        )
        return [row[0] for row in rows]

    async def listen(self, callback: Notice) -> Listening:
        """Call ``callback(club, seq)`` for every log notice, from any process; after a lost
        connection is re-established, ``callback(0, 0)`` once."""
        listening = PgListening(self._url, callback)
        await listening.start()
        self._listeners.append(listening)
        return listening

    async def close(self) -> None:
        """Close the listeners, the writer and the readers (idempotent)."""
        self.projections.clear()
        for listening in self._listeners:
            await listening.close()
        self._listeners.clear()
        if not self._writer.is_closed():
            await self._writer.close()
        await self._readers.close()


async def _connect(url: str, synchronous: str) -> asyncpg.Connection:
    connection: asyncpg.Connection = await asyncpg.connect(url)
    try:
        await _setup(connection)
        if synchronous == "FULL":
            await connection.execute("SET synchronous_commit = on")
    except BaseException:
        await connection.close()
        raise
    return connection


async def open_pg(
    url: str,
    steps: Sequence[migrate.Migration],
    *,
    projections: Projections,
    clock: Clock,
    synchronous: str,
) -> PgDatabase:
    """Connect to the database at ``url``, migrate it (under advisory lock 0) and open it."""
    writer = await _connect(url, synchronous)
    try:
        version = await migrate.apply_pg(writer, steps)
        readers = await asyncpg.create_pool(url, min_size=1, max_size=POOL_SIZE, init=_read_only)
    except BaseException:
        await writer.close()
        raise
    return PgDatabase(
        url,
        writer,
        readers,
        projections=projections,
        clock=clock,
        version=version,
        synchronous=synchronous,
    )
