"""storage.db: PRAGMAs, the one-writer lock, transactions, closing (on both backends)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path

import asyncpg
import pytest

import storage
from storage.cache import Projections
from storage.clubs import create_club
from storage.db import (
    CHECKPOINT_WAL_BYTES,
    Database,
    SqliteDatabase,
    is_url,
    open_db,
    without_password,
)
from tests.storage.conftest import ORGANISER, FakeClock, open_test_db, player
from tests.storage.fake_system import SYSTEMS

INTEGRITY = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)
READ_ONLY = (sqlite3.OperationalError, asyncpg.ReadOnlySQLTransactionError)


@pytest.mark.sqlite_only
async def test_wal_foreign_keys_and_synchronous(db: Database) -> None:
    assert await db.fetchall("PRAGMA journal_mode") == [("wal",)]
    assert await db.fetchall("PRAGMA foreign_keys") == [(1,)]
    assert await db.fetchall("PRAGMA synchronous") == [(1,)]  # NORMAL
    async with db.transaction() as tx:
        assert await tx.fetchall("PRAGMA foreign_keys") == [(1,)]
        assert await tx.fetchall("PRAGMA busy_timeout") == [(5000,)]


@pytest.mark.sqlite_only
async def test_synchronous_full_on_request(tmp_path: Path) -> None:
    db = await open_db(tmp_path / "full.db", systems=SYSTEMS, synchronous="full")
    try:
        assert await db.fetchall("PRAGMA synchronous") == [(2,)]
    finally:
        await db.close()


async def test_unknown_synchronous_mode_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="NORMAL or FULL, not 'OFF'"):
        await open_db(tmp_path / "x.db", synchronous="OFF")


async def test_foreign_keys_are_enforced(db: Database) -> None:
    with pytest.raises(INTEGRITY, match=r"(?i)FOREIGN KEY"):
        async with db.transaction() as tx:
            await tx.execute(
                "INSERT INTO players (seq, club, name, rank, date) VALUES (99, 12345, 'x', '5k', "
                "'2026-01-01')"
            )


async def test_reader_connection_is_read_only(db: Database) -> None:
    with pytest.raises(READ_ONLY, match=r"readonly|read-only"):
        await db.fetchall("CREATE TABLE nope (x INTEGER)")


async def _write_marker(db: Database, name: str, started: list[str], pause: bool) -> None:
    async with db.transaction() as tx:
        started.append(f"begin {name}")
        await tx.execute("CREATE TABLE IF NOT EXISTS marks (name TEXT)")
        await tx.execute("INSERT INTO marks VALUES (?)", (name,))
        if pause:
            await asyncio.sleep(0)  # let the other writer try to run inside this transaction
            await asyncio.sleep(0)
        started.append(f"end {name}")


async def test_concurrent_writers_serialise(db: Database) -> None:
    order: list[str] = []
    await asyncio.gather(
        _write_marker(db, "a", order, pause=True), _write_marker(db, "b", order, pause=True)
    )
    assert order == ["begin a", "end a", "begin b", "end b"]
    assert sorted(await db.fetchall("SELECT name FROM marks")) == [("a",), ("b",)]


async def test_a_failing_transaction_does_not_discard_another_writers_rows(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.execute("CREATE TABLE marks (name TEXT)")

    async def fails() -> None:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO marks VALUES ('doomed')")
            await asyncio.sleep(0)
            raise RuntimeError("boom")

    async def succeeds() -> None:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO marks VALUES ('kept')")

    results = await asyncio.gather(fails(), succeeds(), return_exceptions=True)
    assert isinstance(results[0], RuntimeError)
    assert await db.fetchall("SELECT name FROM marks") == [("kept",)]


async def test_rollback_runs_hooks_and_commit_does_not(db: Database) -> None:
    calls: list[str] = []
    async with db.transaction() as tx:
        tx.on_rollback(lambda: calls.append("committed?"))
    assert calls == []
    with pytest.raises(KeyError):
        async with db.transaction() as tx:
            tx.on_rollback(lambda: calls.append("rolled back"))
            raise KeyError("x")
    assert calls == ["rolled back"]


async def test_reads_see_only_committed_rows(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.execute("CREATE TABLE marks (name TEXT)")
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO marks VALUES ('pending')")
        assert await db.fetchall("SELECT * FROM marks") == []
        assert await tx.fetchall("SELECT * FROM marks") == [("pending",)]
    assert await db.fetchall("SELECT * FROM marks") == [("pending",)]


async def test_chunks_stream_every_row(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.execute("CREATE TABLE numbers (n INTEGER)")
        await tx.executemany("INSERT INTO numbers VALUES (?)", [(i,) for i in range(10)])
        sizes = [len(rows) async for rows in tx.chunks("SELECT n FROM numbers", (), 4)]
    assert sizes == [4, 4, 2]


@pytest.mark.sqlite_only
async def test_memory_database_works_with_one_connection() -> None:
    db = await open_db(":memory:", systems=SYSTEMS)
    try:
        async with db.transaction() as tx:
            await tx.execute("CREATE TABLE marks (name TEXT)")
            await tx.execute("INSERT INTO marks VALUES ('x')")
        assert await db.fetchall("SELECT * FROM marks") == [("x",)]
    finally:
        await db.close()


async def test_close_is_idempotent(tmp_path: Path) -> None:
    db = await open_test_db(tmp_path / "x.db")
    await db.close()
    await db.close()


async def test_default_systems_come_from_the_engine_registry(tmp_path: Path) -> None:
    db = await open_test_db(tmp_path / "x.db", systems=None)
    try:
        assert set(db.projections.systems) == {"mgsz", "tensuusei", "swedish", "psg", "gor"}
    finally:
        await db.close()


async def test_the_database_holds_connections_and_transactions_only(db: Database) -> None:
    """The ledgers, the memos and the rating systems are the projections' (storage.cache),
    which the database merely refers to; a transaction shares them, it does not own them."""
    for name in ("ledgers", "memo", "systems", "_systems"):
        assert not hasattr(db, name), name
    assert isinstance(db.projections, Projections)
    async with db.transaction() as tx:
        assert not hasattr(tx, "memo")
        assert tx.projections is db.projections


@pytest.mark.sqlite_only
async def test_a_grown_wal_is_checkpointed_in_the_background_not_in_the_commit(
    db: Database,
) -> None:
    assert isinstance(db, SqliteDatabase)
    wal = Path(db.path + "-wal")
    main = Path(db.path)
    async with db.transaction() as tx:
        await tx.execute("CREATE TABLE filler (data BLOB)")
    assert db._checkpoint.task is None  # a small WAL: nothing to do
    before = main.stat().st_size
    async with db.transaction() as tx:  # about 5 MB: past CHECKPOINT_WAL_BYTES
        await tx.executemany("INSERT INTO filler VALUES (?)", [(bytes(4000),)] * 1300)
    assert wal.stat().st_size >= CHECKPOINT_WAL_BYTES
    assert main.stat().st_size == before  # the commit itself copied nothing back
    assert db._checkpoint.task is not None
    await db._checkpoint.task
    assert main.stat().st_size >= before + 1300 * 4000  # copied back by the checkpoint
    assert await db.fetchone("SELECT COUNT(*) FROM filler") == (1300,)


async def test_the_dialect_and_the_target_name_the_backend(db: Database, backend: str) -> None:
    assert db.dialect == backend
    assert is_url(db.target) == (backend == "postgresql")
    assert "hoshi" in await db.tables() or "log" in await db.tables()
    assert (await db.columns("log"))[:3] == ["seq", "club", "kind"]


def test_a_url_is_told_from_a_path() -> None:
    assert is_url("postgresql://u@h/db") and is_url("postgres://h/db")
    assert not is_url("club.sqlite") and not is_url(Path("postgresql:/x"))


def test_a_password_never_shows_in_the_target() -> None:
    assert without_password("postgresql://hoshi:s3cret@db.example:5433/clubs?sslmode=require") == (
        "postgresql://hoshi@db.example:5433/clubs?sslmode=require"
    )
    assert without_password("postgresql://db.example/clubs") == "postgresql://db.example/clubs"
    assert without_password("postgres://:pw@[::1]/x") == "postgres://[::1]/x"


async def test_a_sum_comes_back_as_an_int_or_a_float(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.execute("CREATE TABLE numbers (n INTEGER)")
        await tx.executemany("INSERT INTO numbers VALUES (?)", [(1,), (2,)])
    total, mean, none = (
        await db.fetchall("SELECT SUM(n), AVG(n), SUM(n) FILTER (WHERE n > 5) FROM numbers")
    )[0]
    assert (total, type(total)) == (3, int)
    assert (mean, type(mean)) == (1.5, float)
    assert none is None
    (flag,) = (await db.fetchall("SELECT n = 1 FROM numbers ORDER BY n"))[0]
    assert (flag, type(flag)) == (1, int)


async def test_many_rows_at_once_are_all_written(db: Database) -> None:
    """``executemany`` of a plain INSERT with many rows (PostgreSQL: by COPY)."""
    rows = [(i, f"name {i}", None if i % 3 else bytes([i % 256])) for i in range(1000)]
    async with db.transaction() as tx:
        await tx.execute("CREATE TABLE many (n INTEGER, name TEXT, data BLOB)")
        await tx.executemany("INSERT INTO many (n, name, data) VALUES (?, ?, ?)", rows)
    assert await db.fetchall("SELECT n, name, data FROM many ORDER BY n") == rows


async def test_a_transaction_that_wrote_calls_the_commit_hooks(db: Database) -> None:
    calls: list[str] = []
    db.after_commit(lambda: calls.append("committed"))
    async with db.transaction() as tx:
        await tx.fetchall("SELECT 1")
    assert calls == []
    async with db.transaction() as tx:
        await tx.execute("CREATE TABLE marks (name TEXT)")
        await tx.execute("INSERT INTO marks VALUES ('x')")
    assert calls == ["committed"]
    with pytest.raises(RuntimeError):
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO marks VALUES ('y')")
            raise RuntimeError("no")
    assert calls == ["committed"]


async def test_next_positions_rise(db: Database) -> None:
    async with db.transaction() as tx:
        first = await tx.next_seq()
        more = await tx.next_seqs(3)
    assert first >= 1 and len(more) == 3 and more == sorted(more)
    assert len(set(more)) == 3


@pytest.mark.sqlite_only  # PostgreSQL's listening: tests/storage/test_postgres.py
async def test_sqlite_listening_never_calls_back(tmp_path: Path) -> None:
    db = await open_test_db(tmp_path / "x.db")
    try:
        heard: list[tuple[int, int]] = []
        listening = await db.listen(lambda c, s: heard.append((c, s)))
        await create_club(db, "Club", "plus", actor=ORGANISER)
        await listening.close()
        assert heard == []
    finally:
        await db.close()


async def test_a_read_ahead_lets_the_transactions_other_statements_run(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.execute("CREATE TABLE numbers (n INTEGER)")
        await tx.executemany("INSERT INTO numbers VALUES (?)", [(i,) for i in range(10)])
        seen: list[tuple[int, ...]] = []
        async for rows in tx.chunks("SELECT n FROM numbers ORDER BY n", (), 4, prefetch=True):
            seen += rows
            assert await tx.fetchone("SELECT COUNT(*) FROM numbers") == (10,)
        assert seen == [(i,) for i in range(10)]
        async for _ in tx.chunks("SELECT n FROM numbers", (), 2, prefetch=True):
            break  # left early: the transaction goes on
        await tx.execute("INSERT INTO numbers VALUES (10)")
    assert await db.fetchone("SELECT COUNT(*) FROM numbers") == (11,)


async def test_a_transaction_cancelled_while_it_begins_leaves_none_open(db: Database) -> None:
    """A task cancelled at ``BEGIN`` (a background snapshot when the bot stops) leaves no
    transaction open behind it: the next one begins and commits."""

    async def write() -> None:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO deliveries (key, at) VALUES (?, ?)", ("a", "x"))

    for _ in range(3):
        task = asyncio.create_task(write())
        await asyncio.sleep(0)  # it reaches BEGIN
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO deliveries (key, at) VALUES (?, ?)", ("b", "y"))
    assert await db.fetchall("SELECT key FROM deliveries ORDER BY key") == [("b",)]


async def test_statements_and_write_transactions_are_counted(db: Database) -> None:
    """Every statement sent (reads too) and every write transaction is counted once, whichever
    handle of the database sent it (a chat update's ``delivering`` handle shares the counts)."""
    statements, transactions = db.statements, db.transactions
    async with db.transaction() as tx:
        await tx.execute("CREATE TABLE numbers (n INTEGER)")
        await tx.executemany("INSERT INTO numbers VALUES (?)", [(i,) for i in range(10)])
        assert await tx.fetchone("SELECT COUNT(*) FROM numbers") == (10,)
        async for _ in tx.chunks("SELECT n FROM numbers", (), 4):
            pass
    assert (db.statements - statements, db.transactions - transactions) == (4, 1)
    handle = db.delivering("telegram:1:2")
    assert await handle.fetchall("SELECT n FROM numbers WHERE n = 3") == [(3,)]
    async with handle.transaction() as tx:
        await tx.execute("INSERT INTO numbers VALUES (10)")
    # the delivery's key is recorded in the same transaction: at least one statement more
    assert db.statements - statements >= 4 + 1 + 1 + 1
    assert db.transactions - transactions == 2
    assert handle.statements == db.statements


RESULT_STATEMENTS_NOW = 12
"""What a club ``/result`` may cost: issue 23's target, 12 statements (SQLite 10, PostgreSQL
12: its club lock and log notice; 27 and 30 before the command read its club's memo keys
once, storage.keys)."""
RESULT_TRANSACTIONS_NOW = 1
"""Write transactions of a club ``/result``: one (the ledger the result asks whether the game
counts comes from the read port, without a transaction of its own)."""


async def test_a_result_through_the_core_is_counted(tmp_path: Path, clock: FakeClock) -> None:
    """A Telegram ``/result`` (with its update key) through the command core, in a small MGSZ
    club whose ledgers are in memory: its SQL statements and write transactions, at most the
    current figures (issue 23: ≤ 12 statements, one write transaction)."""
    from bot.config import Config
    from bot.core.app import Core
    from bot.core.invocation import Caller, Invocation

    db = await open_test_db(tmp_path / "counted.db", clock, systems=None)
    try:
        club = await create_club(db, "Counted", "mgsz", actor=ORGANISER)
        await storage.bind_chat(db, club, "telegram", "-100", actor=ORGANISER)
        for name in ("Kiss Anna", "Nagy Péter", "Tóth Ádám", "Szabó Éva"):
            await player(db, club, name)
        core = Core(db, Config(db_path=tmp_path / "counted.db", club="Counted", system="mgsz"))
        organiser = Caller("telegram", "1", "Organiser", chat_admin=True)

        async def result(text: str, update: int) -> tuple[int, int]:
            statements, transactions = db.statements, db.transactions
            reply = await core.handle(
                Invocation("result", text, organiser, "-100", delivery=f"telegram:7:{update}")
            )
            assert not reply.error, reply.blocks
            return db.statements - statements, db.transactions - transactions

        await result('"Kiss Anna" "Nagy Péter" B+', 1)  # the ledgers are folded on first use
        statements, transactions = await result('"Tóth Ádám" "Szabó Éva" W+', 2)
    finally:
        await db.close()
    assert 1 <= transactions <= RESULT_TRANSACTIONS_NOW
    assert 1 <= statements <= RESULT_STATEMENTS_NOW, statements
