"""Backup file names: two backups in the same second keep both (storage/backup.py)."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

import pytest

import storage
from engine.ranks import Rank
from storage import backup
from tests.reliability.conftest import Clock
from tests.reliability.test_backup import club_file

pytestmark = pytest.mark.sqlite_only  # about SQLite files themselves

NOW = dt.datetime(2026, 3, 10, 12, 0, 5, 300_000, tzinfo=dt.UTC)


def players(path: Path) -> int:
    with sqlite3.connect(path) as con:
        return int(con.execute("SELECT COUNT(*) FROM players").fetchone()[0])


async def test_two_backups_in_one_second_keep_both(tmp_path: Path) -> None:
    path, folder = tmp_path / "hoshi.sqlite", tmp_path / "backups"
    await club_file(path)
    first = await backup.backup(path, folder, now=NOW)
    db = await storage.open_db(path, clock=Clock(NOW))
    try:
        club = (await storage.clubs(db))[0]
        await storage.register_player(
            db, club, "Új Játékos", Rank.kyu(9), date=NOW.date(), actor="t:1"
        )
    finally:
        await db.close()
    second = await backup.backup(path, folder, now=NOW + dt.timedelta(milliseconds=400))
    third = await backup.backup(path, folder, now=NOW)
    assert [p.name for p in (first, second, third)] == [
        "hoshi-20260310-120005Z.sqlite",
        "hoshi-20260310-120005Z-2.sqlite",
        "hoshi-20260310-120005Z-3.sqlite",
    ]
    assert (players(first), players(second)) == (2, 3)  # the first was not overwritten
    assert backup.backups(folder) == [first, second, third]  # oldest first
    assert backup.taken_at(second) == NOW.replace(microsecond=0)
    assert backup.prune(folder, keep=1) == [first, second]
    assert backup.backups(folder) == [third]


async def test_two_restores_in_one_second_keep_both_safety_copies(tmp_path: Path) -> None:
    path, folder = tmp_path / "hoshi.sqlite", tmp_path / "backups"
    await club_file(path)
    made = await backup.backup(path, folder, now=NOW)
    one = backup.restore(made, path, folder, now=NOW).previous
    two = backup.restore(made, path, folder, now=NOW).previous
    assert one is not None and two is not None and one != two
    assert one.exists() and two.exists()
