"""Backups (issue 6/6, item 6): ``hoshi backup``, the scheduled daily backup with retention,
and ``hoshi restore`` refusing an unsound file before it replaces anything."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import re
import sqlite3
from pathlib import Path

import pytest

import storage
from bot.__main__ import main
from bot.config import BackupConfig, Config, ConfigError, load_config
from bot.core.app import Core
from bot.core.replies import Notice
from bot.core.scheduler import Scheduler
from engine.ranks import Rank
from engine.types import Result
from storage import backup
from tests.conftest import PgDatabases
from tests.reliability.conftest import Clock, make_club

NOW = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)


async def club_file(path: Path, games: int = 3) -> None:
    clock = Clock(NOW)
    db = await storage.open_db(path, clock=clock)
    try:
        club = await make_club(db, players=("Nagy Péter", "Kovács Anna"))
        a, b = [p.id for p in await storage.players(db, club)]
        for _ in range(games):
            await storage.record_game(
                db,
                club,
                storage.new_game(a, b, Result.BLACK, stones=0, komi=7, date=NOW.date()),
                actor="t:1",
            )
    finally:
        await db.close()


def count(path: Path, table: str = "games") -> int:
    with sqlite3.connect(path) as con:
        return int(con.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def config_file(tmp_path: Path, db: Path, extra: str = "") -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'[hoshi]\ndb_path = "{db}"\n{extra}', "utf-8")
    return path


# --- hoshi backup --------------------------------------------------------------------------


async def test_a_backup_holds_what_is_still_in_the_write_ahead_log(tmp_path: Path) -> None:
    """The online backup copies committed pages wherever they are (the bot keeps the file
    open; its newest writes are in the WAL, not yet in the main file)."""
    path = tmp_path / "hoshi.sqlite"
    await club_file(path)
    db = await storage.open_db(path, clock=Clock(NOW))
    try:
        club = (await storage.clubs(db))[0]
        await storage.register_player(
            db, club, "Friss Játékos", Rank.kyu(9), date=NOW.date(), actor="t:1"
        )
        assert Path(f"{path}-wal").stat().st_size > 0
        made = await backup.backup(path, tmp_path / "backups", now=NOW)
    finally:
        await db.close()
    assert made.name == "hoshi-20260310-120000Z.sqlite"
    info = backup.check(made)
    assert (info.clubs, info.games) == (1, 3)
    with sqlite3.connect(made) as con:
        assert con.execute("SELECT name FROM players WHERE name = 'Friss Játékos'").fetchone()
        assert con.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file
    assert not list((tmp_path / "backups").glob("*.partial"))


async def test_a_backup_taken_while_results_are_written_is_consistent(tmp_path: Path) -> None:
    path = tmp_path / "hoshi.sqlite"
    await club_file(path, games=0)
    db = await storage.open_db(path, clock=Clock(NOW))
    made: list[Path] = []
    try:
        club = (await storage.clubs(db))[0]
        a, b = [p.id for p in await storage.players(db, club)]

        async def write() -> None:
            for _ in range(150):
                await storage.record_game(
                    db,
                    club,
                    storage.new_game(a, b, Result.WHITE, stones=0, komi=7, date=NOW.date()),
                    actor="t:1",
                )

        async def take() -> None:
            for i in range(5):
                await asyncio.sleep(0.01)
                when = NOW + dt.timedelta(seconds=i)
                made.append(await backup.backup(path, tmp_path / "b", now=when))

        await asyncio.gather(write(), take())
    finally:
        await db.close()
    counts = []
    for copy in made:
        backup.check(copy)  # intact
        counts.append(count(copy))
        with sqlite3.connect(copy) as con:  # every game with its log entry and projections
            orphans = con.execute(
                "SELECT COUNT(*) FROM games WHERE seq NOT IN (SELECT seq FROM log)"
            ).fetchone()[0]
            assert orphans == 0
            state = con.execute("SELECT last_seq FROM projection_state").fetchone()[0]
            assert state == con.execute("SELECT MAX(seq) FROM log WHERE club = 1").fetchone()[0]
    assert counts == sorted(counts) and counts[-1] <= 150


def test_hoshi_backup_prints_the_file_and_keeps_the_newest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "hoshi.sqlite"
    asyncio.run(club_file(db))
    folder = tmp_path / "backups"
    folder.mkdir()
    for stamp in ("20250101-000000", "20250102-000000", "20250103-000000"):
        (folder / f"hoshi-{stamp}Z.sqlite").write_bytes(b"old")
    (folder / "notes.txt").write_text("mine")
    (folder / "hoshi-before-restore-20250101-000000Z.sqlite").write_bytes(b"kept")
    assert main(["backup", "--db", str(db), "--to", str(folder), "--keep", "2"]) == 0
    out = capsys.readouterr().out
    assert "Backed up" in out and "1 club, 3 games" in out and "Deleted 2 older backups" in out
    names = sorted(p.name for p in folder.iterdir())
    assert names[0] == "hoshi-20250103-000000Z.sqlite" and len(names) == 4
    assert "notes.txt" in names and "hoshi-before-restore-20250101-000000Z.sqlite" in names


def test_hoshi_backup_of_no_database_fails_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["backup", "--db", str(tmp_path / "none.sqlite")]) == 2
    assert "there is no database" in capsys.readouterr().err
    assert not (tmp_path / "backups").exists()


@pytest.mark.parametrize("where", ["a file", "inside a file", "read-only"])
def test_hoshi_backup_to_an_impossible_place_says_so_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    """Issue 26: ``hoshi backup --to`` an unwritable or impossible path printed a traceback."""
    db = tmp_path / "hoshi.sqlite"
    asyncio.run(club_file(db))
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a folder")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    target = {"a file": blocker, "inside a file": blocker / "b", "read-only": locked / "b"}[where]
    try:
        if where == "read-only" and os.access(locked, os.W_OK):
            pytest.skip("running as a user every folder is writable to")
        assert main(["backup", "--db", str(db), "--to", str(target)]) == 2
    finally:
        locked.chmod(0o700)
    err = capsys.readouterr().err
    assert "cannot write a backup to" in err and str(target) in err
    assert "Traceback" not in err


def test_a_failed_backup_leaves_nothing_under_a_backup_name(tmp_path: Path) -> None:
    source = tmp_path / "hoshi.sqlite"
    source.write_bytes(b"this is not a database" * 100)
    with pytest.raises(backup.BackupError):
        backup.copy_database(source, tmp_path / "b" / "hoshi-20260101-000000Z.sqlite")
    assert list((tmp_path / "b").iterdir()) == []


# --- the daily backup ----------------------------------------------------------------------


async def test_the_daily_backup_runs_once_a_day_after_its_hour_and_keeps_the_newest(
    tmp_path: Path,
) -> None:
    path = tmp_path / "hoshi.sqlite"
    await club_file(path)
    clock = Clock(dt.datetime(2026, 3, 10, 2, 59, tzinfo=dt.UTC))
    config = Config(db_path=path, timezone="Europe/Budapest", backup=BackupConfig(hour=4, keep=2))
    folder = tmp_path / "backups"
    db = await storage.open_db(path, clock=clock)

    async def deliver(notice: Notice) -> None:
        pass

    try:
        core = Core(db, config, clock=clock)
        scheduler = Scheduler(core, deliver, timers=True)  # not started: no timers armed
        await scheduler.run_due()
        assert backup.backups(folder) == []  # 03:59 in Budapest: not yet
        clock.advance(minutes=2)
        await scheduler.run_due()
        assert [p.name for p in backup.backups(folder)] == ["hoshi-20260310-030100Z.sqlite"]
        (folder / "hoshi-20260310-040000Z.sqlite.partial").write_bytes(b"killed half-way")
        for _ in range(3):  # the sweep runs every few minutes: nothing more today
            clock.advance(hours=5)
            await scheduler.run_due()
        assert len(backup.backups(folder)) == 1
        for day in (11, 12):
            clock.now = dt.datetime(2026, 3, day, 3, 30, tzinfo=dt.UTC)
            await scheduler.run_due()
        assert [p.name for p in backup.backups(folder)] == [
            "hoshi-20260311-033000Z.sqlite",
            "hoshi-20260312-033000Z.sqlite",
        ]
        assert not list(folder.glob("*.partial"))
        # a crash and a restart the same day: the new scheduler finds today's backup
        await Scheduler(core, deliver, timers=True).run_due()
        assert len(backup.backups(folder)) == 2
        # the console's hand-moved clock (no timers) never backs up; keep = 0 turns it off
        clock.now = dt.datetime(2026, 3, 13, 12, 0, tzinfo=dt.UTC)
        await Scheduler(core, deliver, timers=False).run_due()
        off = Core(db, Config(db_path=path, backup=BackupConfig(keep=0)), clock=clock)
        await Scheduler(off, deliver, timers=True).run_due()
        assert len(backup.backups(folder)) == 2
    finally:
        await db.close()


def test_backup_settings_are_read_and_checked(tmp_path: Path) -> None:
    db = tmp_path / "hoshi.sqlite"
    config = load_config(
        config_file(tmp_path, db, '[backup]\ndirectory = "~/b"\nhour = 23\nkeep = 30\n'), env={}
    )
    assert config.backup == BackupConfig(Path("~/b").expanduser(), 23, 30)
    assert load_config(config_file(tmp_path, db), env={}).backup.directory_for(db) == (
        tmp_path / "backups"
    )
    for bad, message in (
        ("hour = 24", "hour must be a whole number from 0 to 23, not 24"),
        ("keep = -1", "keep must be a whole number from 0 to 10000, not -1"),
        ("keep = true", "keep must be a whole number"),
        ('directory = ""', "directory must be a folder's path"),
        ("when = 3", "unknown key 'when' in [backup]"),
    ):
        with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
            load_config(config_file(tmp_path, db, f"[backup]\n{bad}\n"), env={})


# --- hoshi restore -------------------------------------------------------------------------


def damaged(path: Path, tmp_path: Path) -> Path:
    """A copy of ``path`` with a page of the games table overwritten."""
    copy = tmp_path / "damaged.sqlite"
    copy.write_bytes(path.read_bytes())
    with sqlite3.connect(copy) as con:
        root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()
        size = con.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(copy.read_bytes())
    start = (root[0] - 1) * size
    data[start : start + size] = b"\xff" * size
    copy.write_bytes(bytes(data))
    return copy


def newer(path: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "newer.sqlite"
    copy.write_bytes(path.read_bytes())
    with sqlite3.connect(copy) as con:
        con.execute("PRAGMA user_version = 99")
    return copy


def foreign(tmp_path: Path) -> Path:
    copy = tmp_path / "foreign.sqlite"
    with sqlite3.connect(copy) as con:
        con.execute("CREATE TABLE notes (text TEXT)")
    return copy


def look_alike(tmp_path: Path) -> Path:
    """Issue 26: hoshi's table names and schema version on tables of other columns (the next
    start crashed after its restore)."""
    copy = tmp_path / "look-alike.sqlite"
    newest = len(storage.migrate.discover(storage.migrate.packaged()))
    with sqlite3.connect(copy) as con:
        for table in ("log", "clubs", "games"):
            con.execute(f"CREATE TABLE {table} (seq INTEGER PRIMARY KEY, text TEXT)")
        con.execute(f"PRAGMA user_version = {newest}")
    return copy


def altered(path: Path, tmp_path: Path) -> Path:
    """A real backup with one column more in the games table."""
    copy = tmp_path / "altered.sqlite"
    copy.write_bytes(path.read_bytes())
    with sqlite3.connect(copy) as con:
        con.execute("ALTER TABLE games ADD COLUMN extra TEXT")
    return copy


@pytest.mark.parametrize(
    ("make", "message"),
    [
        pytest.param(lambda p, t: t / "missing.sqlite", "does not exist", id="missing"),
        pytest.param(lambda p, t: look_alike(t), "not its schema", id="look-alike"),
        pytest.param(altered, "games has other columns", id="altered"),
        pytest.param(
            lambda p, t: (t / "text.sqlite").write_text("hello") and t / "text.sqlite",
            "is not a SQLite database",
            id="not-sqlite",
        ),
        pytest.param(damaged, "damaged|cannot be read", id="damaged"),
        pytest.param(newer, "schema version 99, but this hoshi knows", id="too-new"),
        pytest.param(lambda p, t: foreign(t), "not a hoshi database", id="not-hoshi"),
    ],
)
def test_restore_refuses_an_unsound_backup_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: object, message: str
) -> None:
    db = tmp_path / "hoshi.sqlite"
    asyncio.run(club_file(db))
    good = tmp_path / "good.sqlite"
    backup.copy_database(db, good)
    bad = make(good, tmp_path)  # type: ignore[operator]
    before = db.read_bytes()
    assert main(["restore", str(bad), "--db", str(db), "--yes"]) == 2
    err = capsys.readouterr().err
    assert re.search(message, err), err
    assert "Nothing was changed" in err
    assert db.read_bytes() == before
    assert not (tmp_path / "backups").exists()  # not even the safety copy was needed


async def test_restore_brings_the_backup_back_and_saves_what_it_replaced(tmp_path: Path) -> None:
    db = tmp_path / "hoshi.sqlite"
    await club_file(db, games=2)
    made = await backup.backup(db, tmp_path / "backups", now=NOW)
    await club_file(tmp_path / "other.sqlite")  # (not touched)
    opened = await storage.open_db(db, clock=Clock(NOW))
    try:  # later work, to be undone by the restore
        club = (await storage.clubs(opened))[0]
        await storage.register_player(
            opened, club, "Később Jött", Rank.kyu(9), date=NOW.date(), actor="t:1"
        )
    finally:
        await opened.close()
    later = NOW + dt.timedelta(hours=1)
    restored = backup.restore(made, db, tmp_path / "backups", now=later)
    assert (
        restored.previous == tmp_path / "backups" / "hoshi-before-restore-20260310-130000Z.sqlite"
    )
    assert count(restored.previous, "players") == 3  # what was replaced, kept
    assert count(db, "players") == 2 and count(db, "games") == 2
    reopened = await storage.open_db(db, clock=Clock(NOW))  # hoshi opens it, WAL and all
    try:
        assert [p.name for p in await storage.players(reopened, 1)] == [
            "Nagy Péter",
            "Kovács Anna",
        ]
        assert await reopened.fetchone("PRAGMA journal_mode") == ("wal",)
    finally:
        await reopened.close()


def test_restore_asks_before_replacing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "hoshi.sqlite"
    asyncio.run(club_file(db))
    good = tmp_path / "good.sqlite"
    backup.copy_database(db, good)
    before = db.read_bytes()
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert main(["restore", str(good), "--db", str(db)]) == 2
    assert "add --yes" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt: "n")
    assert main(["restore", str(good), "--db", str(db)]) == 1
    assert "Nothing was changed" in capsys.readouterr().out
    assert db.read_bytes() == before


def test_backup_and_restore_of_a_postgresql_database_point_to_pg_dump(
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = "postgresql://hoshi:s3cret@db.example.org/clubs"
    assert main(["backup", "--db", url]) == 2
    err = capsys.readouterr().err
    assert "is a PostgreSQL database" in err
    assert "pg_dump -Fc -f hoshi.dump postgresql://hoshi@db.example.org/clubs" in err
    assert "s3cret" not in err
    assert main(["restore", "x.sqlite", "--db", url, "--yes"]) == 2
    assert "pg_dump" in capsys.readouterr().err


async def test_no_daily_backup_file_is_written_for_a_postgresql_database(
    tmp_path: Path, pg_databases: PgDatabases
) -> None:
    """PostgreSQL is backed up by the server's own tools; the daily job writes no file."""
    url = await pg_databases.create()
    clock = Clock(dt.datetime(2026, 3, 10, 5, 0, tzinfo=dt.UTC))
    folder = tmp_path / "backups"
    config = Config(database_url=url, backup=BackupConfig(hour=4, keep=2, directory=folder))
    db = await storage.open_db(url, clock=clock)

    async def deliver(notice: Notice) -> None:
        pass

    try:
        await Scheduler(Core(db, config, clock=clock), deliver, timers=True).run_due()
        assert not folder.exists()
    finally:
        await db.close()
        await pg_databases.drop(url)
