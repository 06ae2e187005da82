"""storage.postgres: several processes on one PostgreSQL database (two ``Database`` handles on
one URL stand for two processes: separate connections, separate in-memory ledgers)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import asyncpg
import pytest

from storage import Database, deliveries, every_system, log, open_db, replay_club
from storage.clubs import create_club
from storage.postgres import PgListening
from tests.conftest import PgDatabases
from tests.storage.conftest import ORGANISER, FakeClock, dump_all, game, player
from tests.storage.fake_system import SYSTEMS

pytestmark = pytest.mark.postgresql_only

WAIT = 20.0  # seconds: a guard against a hang, never a pause


@pytest.fixture
async def url(pg_databases: PgDatabases) -> AsyncIterator[str]:
    made = await pg_databases.create()
    try:
        yield made
    finally:
        await pg_databases.release(made)


@pytest.fixture
async def two(url: str) -> AsyncIterator[tuple[Database, Database]]:
    first = await open_db(url, systems=SYSTEMS, clock=FakeClock())
    second = await open_db(url, systems=SYSTEMS, clock=FakeClock())
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def _until(check: Callable[[], object], what: str) -> None:
    """Yield to the event loop until ``check()`` holds (bounded by :data:`WAIT`)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not check():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0)


async def _advisory_waiters(database: Database) -> int:
    row = await database.fetchone(
        "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
    )
    assert row is not None
    return int(row[0])


async def test_a_club_write_waits_for_another_processs_write_to_end(
    two: tuple[Database, Database],
) -> None:
    first, second = two
    club = await create_club(first, "Budapest Go Club", "plus", actor=ORGANISER)
    order: list[str] = []
    waiting = asyncio.Event()

    async def later() -> int:
        async with second.transaction() as tx:
            waiting.set()
            await tx.lock(club.id)  # blocks until the first process commits
            order.append("second locked")
            seen = await tx.fetchone("SELECT COUNT(*) FROM players WHERE club = ?", (club.id,))
            assert seen == (1,)  # the first process's committed row is visible
            return await log.append(
                tx, second.clock, club=club.id, kind=log.DAY, actor=ORGANISER, chat=None
            )

    async with first.transaction() as tx:
        await tx.lock(club.id)
        task = asyncio.ensure_future(later())
        await waiting.wait()
        waiters = 0
        for _ in range(10_000):
            waiters = await _advisory_waiters(first)
            if waiters:
                break
        assert waiters == 1 and order == []  # the second process waits on the club's lock
        ours = await log.append(
            tx, first.clock, club=club.id, kind=log.PLAYER, actor=ORGANISER, chat=None
        )
        await tx.execute(
            "INSERT INTO players (seq, club, name, rank, date) VALUES (?, ?, 'A', '5k', "
            "'2026-03-01')",
            (ours, club.id),
        )
        order.append("first commits")
    theirs = await asyncio.wait_for(task, WAIT)
    assert order == ["first commits", "second locked"]
    assert theirs > ours


async def test_two_processes_writing_one_club_keep_every_game_once_in_order(
    two: tuple[Database, Database],
) -> None:
    first, second = two
    club = await create_club(first, "Budapest Go Club", "plus", actor=ORGANISER)
    a, b = await player(first, club, "Anna"), await player(second, club, "Bela")
    heard: list[tuple[int, int]] = []
    listening = await first.listen(lambda c, s: heard.append((c, s)))
    try:

        async def writes(database: Database, count: int) -> list[int]:
            return [(await game(database, club, a, b)).id for _ in range(count)]

        mine, theirs = await asyncio.gather(writes(first, 8), writes(second, 8))
        last = max(mine + theirs)
        await _until(lambda: (club.id, last) in heard, "the last write's notice")
    finally:
        await listening.close()
    rows = await first.fetchall("SELECT seq FROM games WHERE club = ? ORDER BY seq", (club.id,))
    assert sorted(mine + theirs) == [seq for (seq,) in rows]  # every game once
    notices = [seq for c, seq in heard if c == club.id]
    assert notices == sorted(notices) and len(set(notices)) == len(notices)  # commit order
    # the projections both processes kept write by write (the shadows caught up) are what a
    # full replay builds
    await every_system(first, club)
    kept = await dump_all(first)
    await replay_club(second, club)
    assert await dump_all(second) == kept


async def test_notices_name_the_club_and_its_last_position_after_commit(
    two: tuple[Database, Database],
) -> None:
    first, second = two
    heard: list[tuple[int, int]] = []
    listening = await first.listen(lambda c, s: heard.append((c, s)))
    try:
        club = await create_club(second, "Kyoto Go Club", "plus", actor=ORGANISER)
        await _until(lambda: heard, "the club's notice")
        assert heard[-1][0] == club.id and heard[-1][1] >= club.id
        with pytest.raises(RuntimeError):
            async with second.transaction() as tx:
                await log.append(
                    tx, second.clock, club=club.id, kind=log.DAY, actor="x", chat=None
                )
                raise RuntimeError("rolled back: no notice")
        row = await player(second, club, "Anna")
        await _until(lambda: heard[-1] == (club.id, row.id), "the player's notice")
        assert all(seq <= row.id for _, seq in heard)
    finally:
        await listening.close()


async def test_a_lost_listening_connection_comes_back_and_says_so(url: str) -> None:
    db = await open_db(url, systems=SYSTEMS, clock=FakeClock())
    heard: list[tuple[int, int]] = []
    try:
        listening = await db.listen(lambda c, s: heard.append((c, s)))
        assert isinstance(listening, PgListening) and listening.pid is not None
        admin = await asyncpg.connect(url)
        try:
            await admin.execute("SELECT pg_terminate_backend($1)", listening.pid)
        finally:
            await admin.close()
        await _until(lambda: (0, 0) in heard, "the reconnect's (0, 0)")
        assert listening.reconnects == 1 and heard == [(0, 0)]
        club = await create_club(db, "Club", "plus", actor=ORGANISER)
        await _until(lambda: heard[-1][0] == club.id, "a notice on the new connection")
    finally:
        await db.close()


async def test_one_update_delivered_to_two_processes_acts_once(
    two: tuple[Database, Database],
) -> None:
    first, second = two
    club = await create_club(first, "Budapest Go Club", "plus", actor=ORGANISER)
    key = "telegram:1:77"

    async def handle(database: Database, name: str) -> str:
        try:
            await player(database.delivering(key), club, name)
        except deliveries.Duplicate:
            return "duplicate"
        return "acted"

    outcomes = await asyncio.gather(handle(first, "Anna"), handle(second, "Bela"))
    assert sorted(outcomes) == ["acted", "duplicate"]
    rows = await first.fetchall("SELECT name FROM players WHERE club = ?", (club.id,))
    assert len(rows) == 1
    assert await deliveries.seen(second, key)


async def test_two_processes_starting_at_once_migrate_once(pg_databases: PgDatabases) -> None:
    url = await pg_databases.create(migrated=False)
    try:
        first, second = await asyncio.gather(
            open_db(url, systems=SYSTEMS), open_db(url, systems=SYSTEMS)
        )
        try:
            assert first.version == second.version > 1
            assert await first.fetchall("SELECT version FROM schema_version") == [(first.version,)]
        finally:
            await first.close()
            await second.close()
    finally:
        await pg_databases.drop(url)


async def test_synchronous_full_waits_for_the_flush(url: str) -> None:
    db = await open_db(url, systems=SYSTEMS, synchronous="FULL")
    try:
        async with db.transaction() as tx:
            assert await tx.fetchone("SHOW synchronous_commit") == ("on",)
    finally:
        await db.close()


async def test_the_target_hides_the_password(url: str) -> None:
    admin = await asyncpg.connect(url)
    try:
        await admin.execute("CREATE ROLE keeper LOGIN PASSWORD 's3cret'")
        await admin.execute(f'GRANT ALL ON DATABASE "{url.rsplit("/", 1)[1]}" TO keeper')
        await admin.execute("GRANT ALL ON ALL TABLES IN SCHEMA public TO keeper")
        await admin.execute("GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO keeper")
    finally:
        await admin.close()
    secret = url.replace("postgres@", "keeper:s3cret@")
    db = await open_db(secret, systems=SYSTEMS)
    try:
        assert "s3cret" not in db.target and db.target == url.replace("postgres@", "keeper@")
        assert await db.fetchone("SELECT COUNT(*) FROM log") == (0,)
    finally:
        await db.close()
        admin = await asyncpg.connect(url)
        try:
            await admin.execute("DROP OWNED BY keeper")
            await admin.execute("DROP ROLE keeper")
        finally:
            await admin.close()


async def test_a_prefetching_scan_lets_the_caller_write_between_chunks(url: str) -> None:
    """A rebuild reads the club's history in chunks with read-ahead and writes history rows
    between them (found by ``hoshi bench --backend postgresql`` at 100,000 games: "another
    operation is in progress"): the read-ahead must not overlap the caller's statements."""
    db = await open_db(url, systems=SYSTEMS, clock=FakeClock())
    try:
        async with db.transaction() as tx:
            await tx.execute("CREATE TABLE numbers (n INTEGER)")
            await tx.executemany("INSERT INTO numbers (n) VALUES (?)", [(n,) for n in range(10)])
            await tx.execute("CREATE TABLE copied (n INTEGER)")
            seen = []
            async for rows in tx.chunks("SELECT n FROM numbers ORDER BY n", (), 3, prefetch=True):
                seen += [n for (n,) in rows]
                await tx.executemany("INSERT INTO copied (n) VALUES (?)", rows)
                assert await tx.fetchone("SELECT COUNT(*) FROM copied") == (len(seen),)
        assert seen == list(range(10))
        assert await db.fetchall("SELECT n FROM copied ORDER BY n") == [(n,) for n in range(10)]
    finally:
        await db.close()
