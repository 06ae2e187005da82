"""storage.health: the database answers on its reader while a write holds the writer; what is
loaded, what the shadows owe, and the stalest newest snapshot — without club data."""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path

from storage import Club, Database, create_club, every_system, snapshot_club
from storage.health import (
    clubs_loaded,
    database_state,
    fold_backlog,
    oldest_newest_snapshot,
)
from tests.storage.conftest import ORGANISER, FakeClock, game, open_test_db, player


async def test_the_database_answers(db: Database) -> None:
    assert await database_state(db) == "ok"


async def test_a_long_write_does_not_hold_the_check_up(db: Database, club: Club) -> None:
    """The check reads on the reader: a write transaction holding the writer (its lock, and
    on SQLite the file's write lock) does not make it wait, let alone time out."""
    async with db.transaction() as tx:
        await tx.lock(club.id)
        await tx.execute("DELETE FROM snapshots WHERE club = ?", (club.id,))
        assert await database_state(db, timeout_s=5) == "ok"


async def test_no_answer_in_time_is_a_timeout(db: Database) -> None:
    assert await database_state(db, timeout_s=0) == "timeout"


async def test_a_closed_database_is_unreachable(tmp_path: Path) -> None:
    db = await open_test_db(tmp_path / "closed.db")
    await db.close()
    assert await database_state(db) == "unreachable"


async def test_clubs_loaded_counts_the_ledgers_in_memory(db: Database, club: Club) -> None:
    assert clubs_loaded(db) == len(db.projections.ledgers)
    other = await create_club(db, "Szeged Go Club", "plus", actor=ORGANISER)
    await player(db, club, "Nagy Péter")
    await player(db, other, "Kovács Anna")
    assert set(db.projections.ledgers) == {club.id, other.id}
    assert clubs_loaded(db) == 2


async def test_the_fold_backlog_counts_what_the_shadows_in_memory_have_not_folded(
    db: Database, club: Club
) -> None:
    nagy = await player(db, club, "Nagy Péter")
    kiss = await player(db, club, "Kiss Anna")
    await every_system(db, club)  # every system folded to the log's end
    assert fold_backlog(db) == 0
    ledgers = db.projections.ledgers[club.id]
    shadows = [key for key in ledgers.projections if key != ledgers.current]
    assert shadows
    before = ledgers.last_seq
    await game(db, club, nagy, kiss)  # folded by the current system only
    behind = ledgers.last_seq - before
    assert behind > 0
    assert fold_backlog(db) == len(shadows) * behind
    await every_system(db, club)
    assert fold_backlog(db) == 0


async def test_the_stalest_newest_snapshot_of_the_loaded_clubs(
    db: Database, club: Club, clock: FakeClock
) -> None:
    await player(db, club, "Nagy Péter")
    assert await oldest_newest_snapshot(db) is None  # no snapshot yet
    first = clock.now
    await snapshot_club(db, club.id)
    clock.advance(dt.timedelta(hours=1))
    other = await create_club(db, "Szeged Go Club", "plus", actor=ORGANISER)
    await player(db, other, "Kovács Anna")
    await snapshot_club(db, other.id)
    assert await oldest_newest_snapshot(db) == first
    # the club's newer snapshot replaces its older one as its newest
    clock.advance(dt.timedelta(hours=1))
    await player(db, club, "Szabó Éva")
    await snapshot_club(db, club.id)
    assert await oldest_newest_snapshot(db) == first + dt.timedelta(hours=1)
    # a club whose ledgers are not in memory does not count
    del db.projections.ledgers[other.id]
    assert await oldest_newest_snapshot(db) == first + dt.timedelta(hours=2)


async def test_many_loaded_clubs_are_asked_in_parts(
    db: Database, club: Club, clock: FakeClock
) -> None:
    """More loaded clubs than one query's list holds (storage.health.CLUBS_PER_QUERY)."""
    await player(db, club, "Nagy Péter")
    await snapshot_club(db, club.id)
    written = clock.now
    ledgers = db.projections.ledgers[club.id]
    fakes = range(-600, 0)  # loaded, without snapshots, and asked before the club
    for fake in fakes:
        db.projections.ledgers[fake] = ledgers
    try:
        assert await asyncio.wait_for(oldest_newest_snapshot(db), 30) == written
    finally:
        for fake in fakes:
            del db.projections.ledgers[fake]
