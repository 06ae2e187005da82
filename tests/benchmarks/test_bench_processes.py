"""``hoshi bench``'s process phases at a tiny size, on both backends: a process start from a
snapshot folds the tail to the ledgers a full replay gives, and writer processes appending at
once lose and double nothing. Correctness only — no timing is checked."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import storage
from benchmarks import bench
from benchmarks.federation import federation
from benchmarks.start import start
from benchmarks.writers import count, tag, writers
from engine.types import Result
from storage.bulk import bulk_load
from storage.db import Database

GAMES = 600
DAY = dt.date(2030, 3, 1)


@pytest.fixture(params=["sqlite", "postgresql"])
async def target(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh, empty database on each backend (PostgreSQL: the session's throw-away
    cluster, skipped with its message where no PostgreSQL binaries exist)."""
    if request.param == "sqlite":
        yield str(tmp_path / "f.sqlite")
        return
    databases: Any = request.getfixturevalue("pg_databases")
    url: str = await databases.create()
    try:
        yield url
    finally:
        await databases.drop(url)


@pytest.fixture
async def loaded(target: str) -> AsyncIterator[tuple[Database, int, list[int]]]:
    """A small federation, replayed: the database, its club and its registered players."""
    db = await storage.open_db(target, clock=bench.fixed_clock)
    try:
        club = (await storage.create_club(db, "F", "mgsz", actor="console")).id
        await bulk_load(db, club, federation(GAMES, seed=2), actor="console")
        players = [pid for pid, _ in await bench._names(db, club)]
        yield db, club, players
    finally:
        await db.close()


async def _tail(db: Database, club: int, players: list[int], n: int) -> None:
    await storage.record_games(
        db,
        club,
        [
            storage.new_game(
                players[i % len(players)],
                players[(i + 1) % len(players)],
                Result.WHITE if i % 3 else Result.BLACK,
                stones=0,
                komi=6,
                date=bench.TAIL_START,
            )
            for i in range(n)
        ],
        actor="console",
    )


async def test_a_start_from_a_snapshot_folds_only_the_tail(
    loaded: tuple[Database, int, list[int]], target: str
) -> None:
    db, club, players = loaded
    await storage.snapshot_club(db, club)
    await _tail(db, club, players, 25)
    found = await start(target, club, players[0], players[1], DAY, verify=True)
    assert found["verified"]["equal"], found["verified"]["differ"]
    # the club's own system, the one a start folds (the others wait until asked for)
    assert "ledger mgsz" in found["verified"]["compared"]
    assert found["full_folds"] == 0  # the snapshot and its tail, no replay
    last = await db.fetchone("SELECT MAX(seq) FROM log WHERE club = ?", (club,))
    assert last is not None and found["game"] == last[0]  # the first write is committed
    assert found["ledgers_seq"] == last[0] - 1  # the tail folded up to the log's end
    assert 0 < found["to_first_write_s"] <= found["spawn_to_write_s"]
    assert found["rss_mb"] > 0


async def test_a_start_without_a_snapshot_replays_the_whole_log(
    loaded: tuple[Database, int, list[int]], target: str
) -> None:
    db, club, players = loaded
    async with db.transaction() as tx:
        await tx.execute("DELETE FROM snapshots WHERE club = ?", (club,))
    found = await start(target, club, players[2], players[3], DAY, verify=True)
    assert found["verified"]["equal"], found["verified"]["differ"]
    assert found["full_folds"] == 1


async def test_writers_at_once_lose_and_double_nothing(
    loaded: tuple[Database, int, list[int]], target: str
) -> None:
    db, club, _ = loaded
    found = await writers(db, target, [club] * 3, 6, DAY, run="t")
    assert found["writers"] == 3 and found["clubs"] == 1
    assert found["acked"] == 18 and found["failed"] == 0
    assert found["present"] == 18
    assert found["lost"] == found["doubled"] == found["mismatched"] == 0
    assert found["unacknowledged"] == 0
    assert found["games_per_s"] > 0 and found["append_p99_ms"] >= found["append_p50_ms"] > 0
    numbers = await db.fetchall(
        "SELECT games.number FROM games JOIN log ON log.seq = games.seq "
        "WHERE games.club = ? AND log.chat LIKE 'bench:t:%'",
        (club,),
    )
    assert len({n for (n,) in numbers}) == 18


async def test_the_count_finds_a_lost_and_a_doubled_game(
    loaded: tuple[Database, int, list[int]],
) -> None:
    """What the writers phase counts is the log against the acknowledgements: a game a
    writer was told about that the log lacks is lost, a tag written twice is doubled."""
    db, club, players = loaded
    stored = []
    for index in (0, 1, 1):  # game 1 written twice
        recorded = await storage.record_game(
            db,
            club,
            storage.new_game(players[0], players[1], Result.BLACK, stones=0, komi=6, date=DAY),
            actor="console",
            chat=tag("c", 0, index),
        )
        stored.append([index, recorded.row.id, recorded.row.number])
    told = [stored[0], stored[1], [2, 10**9, 10**6]]  # game 2 acknowledged, never written
    found = await count(db, [club], "c", [{"writer": 0, "acked": told}])
    assert found == {
        "present": 3,
        "lost": 1,
        "doubled": 1,
        "mismatched": 0,
        "unacknowledged": 0,
    }
    wrong = [[0, stored[0][1], stored[0][2] + 100]]  # told another number than it holds
    found = await count(db, [club], "c", [{"writer": 0, "acked": wrong}])
    assert found["mismatched"] == 1 and found["lost"] == 0
    assert found["unacknowledged"] == 2  # c:0:1 was never acknowledged this time
