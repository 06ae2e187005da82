"""storage.cache: many clubs in one process — the least recently used club's ledgers leave
memory beyond ``clubs_in_memory``, snapshotted on the way out, and come back from there."""

from __future__ import annotations

import asyncio
from pathlib import Path

from storage import create_club, projections
from tests.storage.conftest import DAY, ORGANISER, game, open_test_db, player


async def test_the_least_recently_used_club_is_evicted_and_comes_back_from_its_snapshot(
    tmp_path: Path,
) -> None:
    db = await open_test_db(tmp_path / "h.db")
    try:
        db.projections.clubs_in_memory = 2
        clubs = []
        for name in ("North", "South", "East"):
            club = await create_club(db, name, "plus", actor=ORGANISER)
            a, b = await player(db, club, f"{name} A"), await player(db, club, f"{name} B")
            for _ in range(3):
                await game(db, club, a, b, date=DAY)
            clubs.append(club)
        await asyncio.gather(*db.projections.snapshot_tasks.values())  # written on eviction
        assert list(db.projections.ledgers) == [clubs[1].id, clubs[2].id]  # North left first
        assert db.projections.evictions == 1
        rows = await db.fetchall("SELECT club FROM snapshots")
        assert (clubs[0].id,) in rows
        folds = db.projections.full_folds
        north = await projections.ledger(db, clubs[0])  # back, from its snapshot
        assert db.projections.full_folds == folds
        assert list(db.projections.ledgers) == [clubs[2].id, clubs[0].id]  # South left now
        assert {north.card(p).games for p in north.players()} == {3}
    finally:
        await db.close()
