"""benchmarks.clubs: ``hoshi bench --clubs N --games-per-club M`` at a tiny size — every
stage runs and its figures are sane (timings are the benchmark's business)."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import bench, clubs
from benchmarks.federation import federation
from engine.types import MonthEnded
from storage.bulk import BulkGame, BulkTournament


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
