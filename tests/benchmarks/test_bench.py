"""``hoshi bench`` at 10,000 games: every phase runs, and the replayed state is the state built
entry by entry. Correctness only — timings are the benchmark's business, not the tests'."""

from __future__ import annotations

import datetime as dt
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import storage
from benchmarks import bench
from benchmarks.federation import Shape, federation
from engine.types import Result
from storage.bulk import bulk_load
from storage.db import Database

KEYS = {
    "games",
    "replay_s",
    "scan_s",
    "replay_over_scan",
    "rating_p50_ms",
    "rating_p99_ms",
    "append_p99_ms",
    "peak_rss_mb",
}


ANCIENT = dt.date(2024, 10, 1)
"""The catch-up case's "ancient" result at test size: 16 months before the small club's
clock (the bench's default, 1900, is 1,500 months)."""


async def test_a_10k_run_replays_what_was_built_entry_by_entry(tmp_path: Path) -> None:
    result = await bench.run(
        10_000,
        directory=tmp_path,
        samples=5,
        updates=30,
        check=True,
        tail=200,
        writers=2,
        writer_games=4,
        import_players=4,
        ancient=ANCIENT,
    )
    assert result["check"]["identical"], result["check"]["differ"]
    assert "rating_history" in result["check"]["compared"]
    assert "ledger psg" in result["check"]["compared"]
    assert set(result) >= KEYS
    assert result["games"] == 10_000 and result["scan_rows"] == 10_000
    assert result["history_rows"] > 10_000
    assert set(result["replay_by_system"]) == {"mgsz", "tensuusei", "swedish", "psg", "gor"}
    assert result["finalise"]["changes"] > 0
    assert result["telegram"]["updates"] == 30
    _the_web_pages_answered(result)
    _the_processes_were_measured(result)
    _the_clubs_own_work_was_measured(result)
    _the_catchup_cases_ran(result)
    assert json.loads(json.dumps(result)) == result  # one JSON object
    table = bench.table(result)
    assert "10,000 games" in table and "replayed vs built entry by entry: identical" in table
    assert f"backend: sqlite, SQLite {sqlite3.sqlite_version}" in table


def _the_clubs_own_work_was_measured(result: dict[str, Any]) -> None:
    """Issue 23's figures of the federation's club: each present and sane, and printed
    beside its target."""
    assert result["replay_own_system"] == bench.SYSTEM
    own = result["replay_by_system"][bench.SYSTEM]["over_scan"]
    assert result["replay_own_over_scan"] == own > 0
    assert result["replay_all_over_scan"] == result["replay_s"] / result["scan_s"] > 0
    events = result["moments"]
    assert events["night_games"] == bench.TAIL_NIGHT and events["day"] == "2029-12-31"
    for key in ("day_end_ms", "month_end_ms", "period_close_ms"):
        assert result[key] == events[key] > 0, key
    every = result["rating_all"]
    assert every["cold"]["n"] == bench.COLD_ASKS and every["warm"]["n"] == 5
    for kind in ("cold", "warm"):
        assert 0 < result[f"rating_all_{kind}_p50_ms"] <= result[f"rating_all_{kind}_p99_ms"]
    assert result["result_statements"] >= 1 and result["result_transactions"] >= 1
    assert result["result_cost"]["s"] > 0
    back = dt.date.fromisoformat(result["backdated"]["date"])
    assert back < bench.web_day(Shape.of(10_000)) and result["backdated_result_s"] > 0
    assert result["switch"]["to"] == "psg"
    assert result["switch_s"] > 0 and result["switch_back_s"] > 0
    assert result["writers_ratio_clubs"] == result["writers"]["ratio_clubs"] > 0
    assert result["total_s"] > 0
    for phase in (
        "club-wide moments",
        "/rating NAME all, cold and warm",
        "one /result counted",
        "backdated /result",
        "switch of system and back",
    ):
        assert result["phases"][phase]["s"] > 0, phase
    table = bench.table(result)
    for line in (
        "the club's own system (mgsz)",
        "every system in one pass",
        "the day's end (Tensuusei)",
        "the month's end (PSG)",
        "the month's rating period closed (MGSZ)",
        "SQL statements",
        "a year before the federation's last day",
        "the whole run",
    ):
        shown = next(row for row in table.splitlines() if line in row)
        assert re.search(r"[✓✗] \(target [≤≥] [\d.]+\)", shown), shown
    assert "/rating NAME all, the first after the memory was dropped: p50" in table
    assert "/club system psg:" in table


def _the_catchup_cases_ran(result: dict[str, Any]) -> None:
    """The catch-up cases ran at test size, each in its own process, in time."""
    ancient, imported = result["ancient"], result["import"]
    assert not ancient["timed_out"] and not imported["timed_out"]
    assert ancient["setup"]["date"] == ANCIENT.isoformat()
    assert ancient["setup"]["players"] == 20
    assert result["ancient_s"] == ancient["result_s"] + ancient["tick_s"] > 0
    assert ancient["log_entries"] >= 2  # the game, and at least one month checked since
    assert imported["setup"]["players"] == imported["players"] == 4
    assert result["import_s"] == imported["s"] > 0
    assert result["import_rss_mb"] == imported["rss_mb"] > 0
    assert imported["log_entries"] >= 4 + imported["games"]  # the players and the games
    table = bench.table(result)
    assert f"date={ANCIENT.isoformat()} confirm, then /tick 1d, in a 20-player club" in table
    assert "an h9 of 4 new players imported into a club with 2,000 later games" in table


def _the_processes_were_measured(result: dict[str, Any]) -> None:
    """The process start (from the snapshot, and with a full replay at this size) and the
    writers phase ran in processes of their own, with sane figures."""
    assert result["backend"] == "sqlite" and result["server"]["name"].startswith("SQLite")
    start = result["start"]
    assert start["tail_games"] == 200 and start["tail_entries"] > 200  # + the later phases
    assert result["snapshot"]["seq"] > 0 and result["snapshot"]["mb"] > 0
    assert start["fresh_snapshot"] > result["snapshot"]["seq"]
    for key, folds in (("snapshot", 0), ("fresh", 0), ("replay", 1)):
        row = start[key]
        assert row["verified"]["equal"], (key, row["verified"]["differ"])
        assert row["full_folds"] == folds, key
        assert row["ledgers_s"] > 0 and row["rss_mb"] > 0
    assert result["start_to_first_write_s"] == start["snapshot"]["spawn_to_write_s"]
    writers = result["writers"]
    assert writers["one"]["writers"] == 1 and writers["one"]["acked"] == 8
    assert writers["many"]["writers"] == 2 and writers["many"]["acked"] == 8
    assert writers["one_small"]["clubs"] == 1 and writers["one_small"]["acked"] == 8
    assert writers["many_clubs"]["clubs"] == 2 and writers["many_clubs"]["acked"] == 8
    for key in ("one", "many", "one_small", "many_clubs"):
        row = writers[key]
        assert row["lost"] == row["doubled"] == row["mismatched"] == row["failed"] == 0, key
    assert writers["ratio"] > 0 and result["writers_ratio"] == writers["ratio"]
    assert writers["ratio_clubs"] > 0
    table = bench.table(result)
    assert "from the snapshot:" in table and "no snapshot, full replay:" in table
    assert "from a snapshot at the log's end (no tail):" in table
    assert "2 processes / 1, one club:" in table and "2 processes / 1, a club each:" in table


def _the_web_pages_answered(result: dict[str, Any]) -> None:
    """The web phase ran: every page answered 200 (the phase fails otherwise) with the rows
    the ranking list must show, and each measurement has its keys."""
    web = result["web"]
    standings = web["standings"]
    assert standings >= 300  # the federation's players with a card
    assert web["ranking_everyone"]["rows"] == standings
    assert 0 < web["ranking_active"]["rows"] <= standings  # checked by the rule in the phase
    assert web["ranking_first"]["rows"] == min(bench.FIRST_PLACES, standings)
    assert result["web_ranking_rows"] == web["ranking_first"]["rows"]
    for key in ("ranking_active", "ranking_everyone", "ranking_first"):
        assert web[key]["status"] == 200
        assert {"cold_ms", "server", "round_trip", "builder"} <= set(web[key])
        for part in ("server", "round_trip", "builder"):
            assert {"p50_ms", "p99_ms", "max_ms", "n"} <= set(web[key][part])
    assert web["player"]["server"]["n"] == web["tournament"]["server"]["n"] == 3
    assert web["tournaments"] > 0
    assert web["gc_full"] >= 0 and web["gc_objects"] > 0
    assert {"web_ranking_p50_ms", "web_ranking_p99_ms"} <= set(result)
    assert "web" in result["phases"]
    table = bench.table(result)
    assert f"ranking page: {web['ranking_first']['rows']:,} players, 10,000 games" in table


async def _projections(db: Database) -> dict[str, list[tuple[object, ...]]]:
    """Every club's stored projections, each system's (the shadows caught up first)."""
    for club in await storage.clubs(db):
        await storage.every_system(db, club)
    return {
        table: await db.fetchall(f"SELECT * FROM {table} ORDER BY {bench.TABLES[table]}")
        for table in ("player_state", "rating_history", "projection_state")
    }


async def test_rewriting_the_past_rewrites_history_only_from_there(tmp_path: Path) -> None:
    """A void, a correction and an undo in the middle of a federation's history rewrite the
    rating history from that position on; the result is the full replay's, byte for byte."""
    db = await storage.open_db(tmp_path / "f.sqlite", clock=bench.fixed_clock)
    try:
        club = (await storage.create_club(db, "F", "psg", actor="console")).id
        await bulk_load(db, club, federation(3000, seed=3), actor="console")
        club_games = [
            seq
            for (seq,) in await db.fetchall(
                "SELECT seq FROM games WHERE club = ? AND tournament IS NULL ORDER BY seq",
                (club,),
            )
        ]
        middle = club_games[len(club_games) // 2]
        await storage.void_game(db, club, middle, actor="console")
        before = await _projections(db)
        late = await storage.game(db, club, club_games[-5])
        assert late is not None
        flipped = Result.WHITE if late.game.result is Result.BLACK else Result.BLACK
        await storage.correct_game(db, club, late.id, actor="console", result=flipped)
        assert (await _projections(db))["rating_history"] != before["rating_history"]
        undone = await storage.undo_last(db, club, actor="console")  # the correction
        assert undone.event is not None and undone.event.kind == "correct"
        after = await _projections(db)
        for table in ("player_state", "rating_history"):
            assert after[table] == before[table]
        await storage.void_game(db, club, club_games[len(club_games) // 3], actor="console")
        partial = await _projections(db)
        await storage.replay_club(db, club)
        assert await _projections(db) == partial
    finally:
        await db.close()


async def test_the_whole_ranking_list_is_not_the_cut_one_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The web phase reads the first places of the list, then the whole list at the same
    address: the cut page the app keeps must not be served for it (at 1M games the bench
    failed there: 2,000 rows, expected 20,000)."""
    monkeypatch.setattr(bench, "FIRST_PLACES", 50)
    db = await storage.open_db(tmp_path / "f.sqlite", clock=bench.fixed_clock)
    try:
        club = (await storage.create_club(db, "F", "mgsz", actor="console")).id
        await bulk_load(db, club, federation(3000, seed=3), actor="console")
        sampler = bench.Sampler(await bench._names(db, club), 1)
        day = bench.web_day(Shape.of(3000))
        web = await bench.web_pages(db, club, sampler, day, samples=3)
    finally:
        await db.close()
    assert web["ranking_first"]["rows"] == 50
    assert web["ranking_everyone"]["rows"] == web["standings"] > 50
