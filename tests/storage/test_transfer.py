"""storage.transfer: a whole database copied to another one, and the copy proved by digest."""

from __future__ import annotations

import datetime as dt
import io
import sqlite3
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

import storage
from bot.adapters.console import run_console
from bot.config import Config
from engine.ranks import Rank
from engine.types import Result
from storage import Database, transfer
from storage.errors import Refused
from tests.storage.conftest import KOMI, LOG_TABLES, FakeClock, Targets, dump

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
START = dt.datetime(2026, 11, 23, 19, 0, tzinfo=ZoneInfo("UTC"))
DAY = dt.date(2026, 11, 20)


async def clubs_database(folder: Path) -> Path:
    """Two clubs in one SQLite file: an MGSZ club's first hour (registrations, games, a
    tournament, an undo, the clock's day and month ends) and a PSG club with a voided game."""
    path = folder / "clubs.sqlite"
    config = Config(db_path=path, charts_dir=folder / "charts")
    script = (EXAMPLES / "first-hour-mgsz.txt").read_text(encoding="utf-8")
    out = io.StringIO()
    code = await run_console(config, source=io.StringIO(script), out=out, clock=FakeClock(START))
    assert code == 0, out.getvalue()
    db = await storage.open_db(path, clock=FakeClock(START))
    try:
        club = await storage.create_club(db, "Warszawski Klub Go", "psg", actor="console")
        names = ("Kowalski Jan", "Nowak Anna", "Wiśniewski Piotr")
        ranks = ("8k", "6k", "10k")
        players = [
            await storage.register_player(
                db, club, name, Rank.parse(rank), date=DAY, actor="console"
            )
            for name, rank in zip(names, ranks, strict=True)
        ]
        recorded = []
        for black, white in ((0, 1), (1, 2), (2, 0), (0, 1)):
            played = storage.new_game(
                players[black], players[white], Result.WHITE, stones=0, komi=KOMI, date=DAY
            )
            recorded.append(await storage.record_game(db, club, played, actor="console"))
        await storage.void_game(db, club, recorded[1].row.id, actor="console")
    finally:
        await db.close()
    return path


@pytest.fixture
async def source_path(tmp_path: Path) -> Path:
    return await clubs_database(tmp_path)


async def test_a_copy_holds_the_same_log_and_rates_the_same_and_comes_back(
    source_path: Path, tmp_path: Path, targets: Targets
) -> None:
    """SQLite to this backend, and from there to a new SQLite file: the same log, the same
    ratings, and each copy goes on writing after the copied positions."""
    source = await storage.open_db(source_path)
    target = await storage.open_db(await targets.of(tmp_path / "copy.sqlite"))
    back = await storage.open_db(tmp_path / "back.sqlite")
    try:
        moved = await transfer.copy_database(source, target)
        assert moved.verified
        assert len(moved.clubs) == 2
        assert moved.rows["log"] == transfer_log_size(source_path)
        assert moved.rows["games"] > 0 and moved.rows["events"] > 0
        for club, digest in moved.clubs.items():
            assert digest == await transfer.projection_digest(source, club)
        returned = await transfer.copy_database(target, back)
        assert returned.verified and returned.clubs == moved.clubs
        tables = dict.fromkeys(LOG_TABLES, "seq")
        expected = await dump(source, tables)
        assert await dump(target, tables) == expected
        assert await dump(back, tables) == expected
        assert await transfer.log_digest(target) == await transfer.log_digest(source)
        for copy in (target, back):  # each goes on where the source stopped
            (first, *_) = await storage.clubs(copy)
            newest = (await copy.fetchone("SELECT MAX(seq) FROM log"))[0]
            added = await storage.register_player(
                copy, first, "Új Játékos", Rank.parse("10k"), date=DAY, actor="console"
            )
            assert added.id == newest + 1
    finally:
        await source.close()
        await target.close()
        await back.close()


def transfer_log_size(path: Path) -> int:
    with sqlite3.connect(path) as con:
        return int(con.execute("SELECT COUNT(*) FROM log").fetchone()[0])


async def test_a_database_that_holds_a_log_is_refused_and_left_alone(
    source_path: Path, tmp_path: Path, targets: Targets
) -> None:
    source = await storage.open_db(source_path)
    target = await storage.open_db(await targets.of(tmp_path / "copy.sqlite"))
    try:
        await transfer.copy_database(source, target)
        before = await transfer.log_digest(target)
        with pytest.raises(Refused, match=r"already holds \d+ log entries"):
            await transfer.copy_database(source, target)
        assert await transfer.log_digest(target) == before
    finally:
        await source.close()
        await target.close()


async def test_ratings_that_differ_on_the_target_are_reported(
    source_path: Path, tmp_path: Path, targets: Targets
) -> None:
    """The digests are compared for real: a target that rates with one system fewer (another
    hoshi) does not pass as verified."""
    source = await storage.open_db(source_path)
    fewer = {k: v for k, v in source.projections.systems.items() if k != "gor"}
    target = await storage.open_db(await targets.of(tmp_path / "copy.sqlite"), systems=fewer)
    try:
        moved = await transfer.copy_database(source, target)
        assert not moved.verified
        assert sorted(moved.differing) == sorted(moved.clubs)
    finally:
        await source.close()
        await target.close()


async def test_every_table_is_copied_or_rebuilt(db: Database) -> None:
    """Every table is either copied (transfer.LOG_TABLES) or built again on the target from
    the log: a table a migration adds must be named in one of the two."""
    rebuilt = {
        "player_state",
        "rating_history",
        "projection_state",
        "system_state",
        "quiet_clubs",
        "snapshots",
        "rewrites",
    }
    bookkeeping = {"schema_version"}  # PostgreSQL's schema version (SQLite: user_version)
    assert await db.tables() - bookkeeping == set(transfer.LOG_TABLES) | rebuilt
