"""storage.schedules: a scheduled job's occurrence is claimed once, also by several processes."""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path

from engine.types import DayEnded, Event
from storage.clubs import create_club
from storage.db import Database
from storage.schedules import (
    QUIET_HORIZON_DAYS,
    claim_job,
    first_record_day,
    job_done,
    note_quiet,
    quiet_days,
    quiet_through,
)
from tests.storage.conftest import ORGANISER, START, FakeClock, game, open_test_db, player
from tests.storage.fake_system import SYSTEMS, Daily


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


async def test_the_first_record_day_is_the_earliest_fact_of_the_club(db: Database) -> None:
    """Where a game dated far back is measured from (issue 22): the club's creation, its
    first registration, tournament or game, whichever is earliest."""
    club = await create_club(db, "Club", "plus", actor=ORGANISER)
    created = START.date()
    assert await first_record_day(db, club) == created
    nagy = await player(db, club, "Nagy Péter", date=created - dt.timedelta(days=3))
    kiss = await player(db, club, "Kiss Anna")
    assert await first_record_day(db, club) == created - dt.timedelta(days=3)
    await game(db, club, nagy, kiss, date=dt.date(1999, 1, 5))
    assert await first_record_day(db, club) == dt.date(1999, 1, 5)


class Days:
    """A ledger's ``due`` alone (RatingSystem.due): each day of ``days`` ends after it."""

    def __init__(self, *days: dt.date) -> None:
        self.days = days

    def due(self, today: dt.date) -> list[Event]:
        return [DayEnded(day) for day in sorted(self.days) if day < today]


def test_a_club_is_quiet_through_the_day_before_its_first_moment() -> None:
    today = dt.date(2026, 3, 2)
    first = Days(dt.date(2026, 3, 10))
    never = Days()
    assert quiet_through([first, never], today) == dt.date(2026, 3, 10)  # due on the 11th
    assert quiet_through([never, Days(dt.date(2026, 3, 2))], today) == dt.date(2026, 3, 2)
    assert quiet_through([Days(dt.date(2026, 3, 1)), never], today) is None  # due today
    assert quiet_through([never], today) == today + dt.timedelta(days=QUIET_HORIZON_DAYS)
    assert quiet_through([], today, horizon_days=5) == dt.date(2026, 3, 7)


class DailyBumped(Daily):
    """The daily rulebook of a later deploy: what falls due may have changed."""

    rules_version = Daily.rules_version + 1


async def test_a_quiet_note_of_other_rulebooks_is_not_trusted(tmp_path: Path) -> None:
    """A club noted quiet by one deploy is asked again by a deploy that changed a rulebook
    with scheduled moments; one that did not change them keeps the note."""
    db = await open_test_db(tmp_path / "h.db")
    try:
        club = await create_club(db, "Club", "plus", actor=ORGANISER)
        await note_quiet(db, {club.id: (7, dt.date(2026, 5, 1))})
        assert await quiet_days(db) == {club.id: (7, dt.date(2026, 5, 1))}
    finally:
        await db.close()
    same = await open_test_db(tmp_path / "h.db", systems=dict(SYSTEMS))
    try:
        assert await quiet_days(same) == {club.id: (7, dt.date(2026, 5, 1))}
    finally:
        await same.close()
    bumped = await open_test_db(tmp_path / "h.db", systems={**SYSTEMS, "daily": DailyBumped})
    try:
        assert await quiet_days(bumped) == {}
    finally:
        await bumped.close()
