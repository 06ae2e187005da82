"""benchmarks.clubs: ``hoshi bench --clubs N --games-per-club M`` at a tiny size — every
stage runs and its figures are sane (timings are the benchmark's business)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import storage
from benchmarks import bench, clubs
from benchmarks.federation import federation
from bot.clock import FakeClock
from bot.config import Config
from bot.core.app import Core
from bot.core.replies import Notice
from bot.core.scheduler import Scheduler
from engine.types import MonthEnded
from storage import schedules
from storage.bulk import BulkGame, BulkTournament, bulk_load


async def test_many_small_clubs_load_start_and_answer(tmp_path: Path) -> None:
    result = await bench.run(0, clubs=20, games_per_club=30, directory=tmp_path)
    assert result["shape"] == "clubs" and result["clubs"] == 20
    assert result["games"] == 600
    assert result["players_per_club"] == clubs.players_of(30) == 10
    assert result["players"] >= 20 * 10  # and each club's guests
    started = result["start"]
    assert started["timed_out"] is None
    assert 0 < started["ready"]["imports_s"] < result["clubs_start_s"]
    cold = result["cold"]
    assert cold["n"] == 20  # every club, each once: fewer clubs than the sample
    assert 0 < result["clubs_cold_p50_ms"] <= result["clubs_cold_p99_ms"]
    assert started["sweep"]["s"] > 0
    assert started["sweep"]["ran"] == 0  # nothing of the clubs' histories is due
    assert result["clubs_rss_mb"] == started["sweep"]["rss_mb"] > 0
    assert result["result_statements"] >= 1 and result["result_transactions"] >= 1
    assert result["phases"]["load"]["s"] > 0 and result["total_s"] > 0
    assert json.loads(json.dumps(result)) == result
    table = bench.table(result)
    assert table.startswith("hoshi bench — 20 clubs × 30 games (600 games")
    for line in ("ready to answer", "a cold club's first command", "peak RSS of the process"):
        shown = next(row for row in table.splitlines() if line in row)
        assert "(target ≤" in shown, shown
    assert "the scheduler's first sweep over every club" in table


def test_the_clock_stands_after_the_clubs_histories() -> None:
    """The clubs' clock is in the month after their histories' last month end, after every
    game: the start's sweep finds nothing due (a club that has been running all along)."""
    items = list(federation(30, seed=1, players=clubs.players_of(30), club_share=1.0))
    now = clubs.now_for(30).date()
    year, month = max((i.year, i.month) for i in items if isinstance(i, MonthEnded))
    assert (now.year, now.month) == (year + month // 12, month % 12 + 1)
    assert all(i.date < now for i in items if isinstance(i, BulkGame))
    assert not any(isinstance(i, BulkTournament) for i in items)  # club games only


TABLES = {
    "log": "seq, club, kind, at, actor, chat",
    "clubs": "seq, name, folded, system",
    "chat_bindings": "seq, club, platform, chat_id",
    "events": "seq, club, kind, target, key, payload",
    "players": "*",
    "games": "*",
    "rating_history": "*",
    "player_state": "*",
    "system_state": "*",
    "projection_state": "*",
    "rewrites": "*",
}
"""What a loaded club is: its log, rows and its current system's projection."""


async def _tables(db: storage.Database) -> dict[str, list[tuple[object, ...]]]:
    return {
        table: sorted(await db.fetchall(f"SELECT {columns} FROM {table}"), key=repr)
        for table, columns in TABLES.items()
    }


async def test_the_fast_load_makes_what_the_normal_path_makes(tmp_path: Path) -> None:
    """Many clubs a transaction (storage.bulk.bulk_load_clubs) write the same log, rows and
    projections as each club created, bound and bulk-loaded on its own."""
    now = clubs.now_for(30)
    fast = await storage.open_db(tmp_path / "fast.sqlite", clock=lambda: now)
    normal = await storage.open_db(tmp_path / "normal.sqlite", clock=lambda: now)
    try:
        await clubs.load(fast, 4, 30, seed=3)
        for index, new in enumerate(clubs.new_clubs(4, 30, seed=3)):
            club = await storage.create_club(normal, new.name, new.system, actor="bench")
            await storage.bind_chat(normal, club, "telegram", clubs.chat_of(index), actor="bench")
            await bulk_load(normal, club, new.items, actor="bench")
        found, expected = await _tables(fast), await _tables(normal)
        assert all(expected[table] for table in ("players", "games", "rating_history"))
        for table in TABLES:
            assert found[table] == expected[table], table
    finally:
        await fast.close()
        await normal.close()


async def test_the_fast_load_notes_each_quiet_club(tmp_path: Path) -> None:
    """Each loaded club with nothing due is noted quiet at its last log entry, through a day
    after the clock's (the first sweep skips it: tests/bot/core/test_scheduler.py)."""
    now = clubs.now_for(30)
    db = await storage.open_db(tmp_path / "clubs.sqlite", clock=lambda: now)
    try:
        await clubs.load(db, 3, 30, seed=2)
        quiet = await schedules.quiet_days(db)
        assert len(quiet) == 3
        for club, (seq, through) in quiet.items():
            assert seq == await schedules.last_seq(db, club)
            assert through >= now.date()
            # the first day of the next month: the month that has just ended is due
            assert through < dt.date(now.year + now.month // 12, now.month % 12 + 1, 2)
    finally:
        await db.close()


async def test_a_fresh_process_sweeps_loaded_quiet_clubs_without_their_ledgers(
    tmp_path: Path,
) -> None:
    """The first sweep of a new process over clubs with nothing due folds none of them
    (their quiet answer was recorded at the load), and asks a few rows of each."""
    now = clubs.now_for(30)
    path = tmp_path / "clubs.sqlite"
    db = await storage.open_db(path, clock=lambda: now)
    try:
        await clubs.load(db, 6, 30, seed=4)
    finally:
        await db.close()
    clock = FakeClock(now)
    db = await storage.open_db(path, clock=clock)
    try:
        core = Core(db, Config(db_path=path, system=clubs.SYSTEM), clock=clock)
        before = db.counts.statements
        assert await Scheduler(core, _nowhere, timers=False).start() == []
        assert db.projections.ledgers == {}
        assert db.projections.folded_events == db.projections.full_folds == 0
        assert db.counts.statements - before <= 2 + 6 * STATEMENTS_PER_QUIET_CLUB
    finally:
        await db.close()


STATEMENTS_PER_QUIET_CLUB = 9
"""What the sweep asks of a club with nothing due: its settings (the memo's key, then the
settings on a first read), its log's end, scheduled finalisations, pending reports (a few rows
each, no fold); besides two for the sweep (the clubs, the quiet answers)."""


async def _nowhere(_notice: Notice) -> None:
    """Notices are dropped (none is expected)."""
