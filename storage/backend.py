"""The storage interface both backends implement (scale-contract.md §1): :class:`Database`
and :class:`Transaction`, with the types they speak in.

The SQLite backend and :func:`storage.db.open_db`, which picks a backend from its target, are
in storage.db; the PostgreSQL backend in storage.postgres. Storage's repositories (the log, the
memos, the projections, the queries and commands) are written against this module only, so
neither backend is imported by what runs on top of it, and a backend imports nothing of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import datetime as dt
import os
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar
from urllib.parse import urlsplit, urlunsplit

from storage.cache import Known, Projections
from storage.dialect import Dialect

Row = tuple[Any, ...]
Clock = Callable[[], dt.datetime]


def utc_now() -> dt.datetime:
    """The default clock: now, in UTC."""
    return dt.datetime.now(dt.UTC)


@dataclass(slots=True)
class Counts:
    """The SQL statements and write transactions a database has run (``hoshi bench``, and
    the tests that count a command's: issue 23, a ``/result`` in at most 12 statements and one
    write transaction). One object, shared by the database's handles and transactions: two
    integers, each counted where a statement is sent."""

    statements: int = 0
    """Statements sent (``execute``, ``executemany``, ``fetch*``, ``chunks``; not ``BEGIN``
    or ``COMMIT``)."""
    transactions: int = 0
    """Write transactions begun (``Database.transaction``)."""


class Transaction:
    """One write transaction (only valid inside ``db.transaction()``): the interface both
    backends implement."""

    def __init__(self, projections: Projections, counts: Counts | None = None):
        self._rollback_hooks: list[Callable[[], None]] = []
        self.projections = projections
        """The database's projections (storage.cache): its memos are shared with its reads."""
        self.counts = counts if counts is not None else Counts()
        """Where the statements sent are counted (the database's :class:`Counts`)."""
        self.appended: dict[int, int] = {}
        """Each club this transaction appended log entries to, with its last position."""
        self.last_entry: Row | None = None
        """The log entry this transaction appended last, as ``log.LOG_COLUMNS`` reads it."""
        self.before: Mapping[int, Known] = {}
        """What the command read of its club as it began (its handle's ``known``)."""
        self.known: dict[int, Known] = {}
        """Of :attr:`before`, what still holds in this transaction (:meth:`confirm`)."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run one statement."""
        raise NotImplementedError

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for every row."""
        raise NotImplementedError

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query, as tuples."""
        raise NotImplementedError

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of a query, or ``None``."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    def chunks(
        self, sql: str, params: Sequence[Any] = (), size: int = 4096, *, prefetch: bool = False
    ) -> AsyncIterator[list[Row]]:
        """The rows of a query in lists of up to ``size`` (for scans too big to hold at once).

        ``prefetch``: read the next list while the caller works on this one (for long scans).
        """
        raise NotImplementedError

    async def lock(self, club: int) -> None:
        """Serialise this club's writes (across processes): held until the transaction ends."""
        raise NotImplementedError

    async def next_seqs(self, count: int) -> list[int]:
        """``count`` new log positions, increasing (not necessarily consecutive)."""
        raise NotImplementedError

    async def index_sql(self, name: str) -> str | None:
        """The ``CREATE INDEX`` statement of index ``name``, or ``None`` if there is none."""
        raise NotImplementedError

    async def positions_follow_log(self) -> None:
        """Hand out log positions after the log's last from now on (after rows were copied in
        with their own ``seq``, storage.transfer). SQLite takes them from the log itself."""

    async def next_seq(self) -> int:
        """The next log position."""
        return (await self.next_seqs(1))[0]

    NEXT_SEQ_SQL: ClassVar[str]
    """The SQL of the next log position inside the ``INSERT`` (the backend's)."""

    async def insert_log(
        self,
        club: int,
        kind: str,
        at: str,
        actor: str,
        chat: str | None,
        *,
        seq: int | None = None,
    ) -> int:
        """Insert a log entry of ``club`` at position ``seq`` (default: the next, taken by the
        same statement, :attr:`NEXT_SEQ_SQL`), which it returns."""
        if seq is None:
            position = self.NEXT_SEQ_SQL
            params: tuple[Any, ...] = (club, kind, at, actor, chat)
        else:
            position = "?"
            params = (seq, club, kind, at, actor, chat)
        row = await self.fetchone(
            "INSERT INTO log (seq, club, kind, at, actor, chat) "
            f"VALUES ({position}, ?, ?, ?, ?, ?) RETURNING seq",
            params,
        )
        assert row is not None
        inserted: int = row[0]
        return inserted

    def appending(self, club: int, seq: int, *, keys_kept: bool = False) -> None:
        """Note that log entry ``seq`` of ``club`` is written in this transaction (the backend
        tells other processes at commit). ``keys_kept``: the entry is a game (a row of
        ``games`` only), which changes none of the club's memo keys (storage.keys)."""
        if seq > self.appended.get(club, 0):
            self.appended[club] = seq
        if not keys_kept:
            self.known.pop(club, None)

    def confirm(self, club: int, end: int) -> None:
        """The club's log ends at ``end`` in this transaction (its writes are serialised): what
        the command read of it as it began holds here too if the log ended there then."""
        before = self.before.get(club)
        if before is not None and before.end == end:
            self.known[club] = before

    def on_rollback(self, hook: Callable[[], None]) -> None:
        """Run ``hook`` if this transaction rolls back (to drop in-memory state it touched)."""
        self._rollback_hooks.append(hook)

    def rolled_back(self) -> None:
        """Run the rollback hooks (the backend calls this once, after ``ROLLBACK``)."""
        for hook in self._rollback_hooks:
            hook()


class Listening:
    """What :meth:`Database.listen` returns: ``await close()`` stops listening."""

    async def close(self) -> None:
        """Stop listening (idempotent)."""


Notice = Callable[[int, int], None]
"""``callback(club, seq)``: another process appended to ``club`` up to ``seq``; ``(0, 0)``:
notices may have been missed, check every club."""


@dataclass(slots=True)
class Delivery:
    """One chat update being handled (storage.deliveries): its key, and whether one of its
    transactions has recorded it (its later transactions are the same update, not a second
    delivery)."""

    key: str
    recorded: bool = False


class Database:
    """An open hoshi database (see :func:`open_db`): the interface both backends implement.
    What storage keeps in memory of it (ledgers, memos, rating systems) is ``projections``
    (storage.cache), which it only refers to.

    ``dialect``: ``"sqlite"`` or ``"postgresql"``; ``target``: the file, or the URL without
    its password (for messages). ``delivery``: the chat update this handle writes for
    (:meth:`delivering`); ``None`` for the database itself.
    """

    dialect: Dialect

    def __init__(self, target: str, *, projections: Projections, clock: Clock, version: int):
        self.target = target
        self.version = version
        self.clock = clock
        self.projections = projections
        self._lock = asyncio.Lock()
        self.delivery: Delivery | None = None
        self._committed: list[Callable[[], None]] = []  # shared by every delivering() handle
        self.counts = Counts()  # shared by every delivering() handle and every transaction
        self.known: dict[int, Known] | None = None
        """What the command this handle runs read of its club as it began (:meth:`command`;
        ``None``: not a command's handle)."""

    @property
    def statements(self) -> int:
        """SQL statements sent so far, reads and writes (:class:`Counts`)."""
        return self.counts.statements

    @property
    def transactions(self) -> int:
        """Write transactions begun so far (:class:`Counts`)."""
        return self.counts.transactions

    def delivering(self, key: str | None) -> Database:
        """This database as the handler of one chat update sees it (``telegram:BOT:UPDATE``):
        the same connections, lock and projections, and the first of its transactions that
        changes anything records ``key`` with the change (storage.deliveries) — an update
        delivered again changes nothing. ``None``: no key, the database itself."""
        if key is None:
            return self
        handle = copy.copy(self)
        handle.delivery = Delivery(key)
        return handle

    def command(self, key: str | None) -> Database:
        """This database as one command sees it: :meth:`delivering` ``key``, with room for
        what the command reads of its club as it begins (``known``, storage.cache.Known), so
        that its later reads of the club need not ask the same again. Its own write of the
        club forgets it: what the command reads after that, it reads anew."""
        handle = copy.copy(self)
        handle.delivery = None if key is None else Delivery(key)
        handle.known = {}
        return handle

    def _began(self, tx: Transaction) -> None:
        """A transaction of this handle began: it may use what the command knows."""
        if self.known:
            tx.before = self.known

    def _forget_written(self, tx: Transaction) -> None:
        """``tx`` committed: the command reads the clubs it appended to anew."""
        if self.known:
            for club in tx.appended:
                self.known.pop(club, None)

    def upkeep(self) -> Database:
        """This database for the projections' upkeep (a catch-up that writes no fact): a
        handle whose transactions never record the chat update's key. The key goes with the
        command's own write of its facts: recorded with a catch-up before it, an update cut
        off between the two would be taken as handled when it comes again, and lost."""
        if self.delivery is None:
            return self
        handle = copy.copy(self)
        handle.delivery = None
        return handle

    def transaction(self) -> contextlib.AbstractAsyncContextManager[Transaction]:
        """A write transaction, committed at the end of the block, rolled back on any
        exception.

        On a :meth:`delivering` handle, a transaction that changed anything records the
        update's key first (once per handle); if the key is already recorded it rolls back
        with ``storage.deliveries.Duplicate``.
        """
        raise NotImplementedError

    def after_commit(self, hook: Callable[[], None]) -> None:
        """Call ``hook`` after every transaction that changed something is committed (the
        static web site is written again, issue 14); it must not raise or block."""
        self._committed.append(hook)

    def _did_commit(self) -> None:
        for hook in self._committed:
            hook()

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a read-only query (committed state)."""
        raise NotImplementedError

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of a query, or ``None``."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def tables(self) -> set[str]:
        """The names of the database's tables."""
        raise NotImplementedError

    async def columns(self, table: str) -> list[str]:
        """The names of a table's columns, in order (``SELECT *`` order)."""
        raise NotImplementedError

    async def listen(self, callback: Notice) -> Listening:
        """Call ``callback(club, seq)`` for every log notice of any process (see
        :data:`Notice`). SQLite: one process, no notices — an object that never calls."""
        return Listening()

    async def close(self) -> None:
        """Close every connection (idempotent; any handle closes the database)."""
        raise NotImplementedError


URL_SCHEMES = ("postgresql://", "postgres://")


def is_url(target: str | os.PathLike[str]) -> bool:
    """Whether ``target`` names a PostgreSQL database (a URL) rather than an SQLite file."""
    return isinstance(target, str) and target.lower().startswith(URL_SCHEMES)


def without_password(url: str) -> str:
    """``url`` with any password removed (for messages and logs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    user = parts.username or ""
    netloc = f"{user}@{host}" if user else host
    if parts.port is not None:
        netloc += f":{parts.port}"
    return urlunsplit(parts._replace(netloc=netloc))
