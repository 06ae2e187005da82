"""storage.schedules: a scheduled job's occurrence is claimed once, also by several processes."""

from __future__ import annotations

import asyncio
from pathlib import Path

from storage.clubs import create_club
from storage.schedules import claim_job, job_done
from tests.storage.conftest import ORGANISER, FakeClock, open_test_db


async def test_an_occurrence_is_claimed_once_by_one_of_several_processes(
    tmp_path: Path, clock: FakeClock
) -> None:
    """Every ``hoshi run`` process runs its own scheduler: when three reach the same weekly
    summary at once, exactly one of them claims it (the club's write lock, then the check)."""
    handles = [await open_test_db(tmp_path / "h.db", clock) for _ in range(3)]
    try:
        club = await create_club(handles[0], "Club", "plus", actor=ORGANISER)
        for week in ("weekly:2026-11-16", "weekly:2026-11-23"):
            claims = await asyncio.gather(*(claim_job(db, club, week) for db in handles))
            assert sorted(claims) == [False, False, True]
            assert all([await job_done(db, club, week) for db in handles])
        rows = await handles[1].fetchall(
            "SELECT key FROM events WHERE club = ? AND kind = 'job' ORDER BY seq", (club.id,)
        )
        assert rows == [("weekly:2026-11-16",), ("weekly:2026-11-23",)]
    finally:
        for db in handles:
            await db.close()
