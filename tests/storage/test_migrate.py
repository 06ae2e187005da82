"""storage.migrate: forward-only numbered migrations with PRAGMA user_version (SQLite) or the
``schema_version`` table (PostgreSQL), on both backends."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from storage import migrate
from storage.db import Database, is_url, open_db
from storage.errors import SchemaVersionError
from tests.storage.conftest import Targets
from tests.storage.fake_system import SYSTEMS

PACKAGED = Path(migrate.__file__).parent / "migrations"
INTEGRITY = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)


async def _version_of(target: str | os.PathLike[str]) -> int:
    """The schema version stored in the database, read without hoshi."""
    if is_url(target):
        connection = await asyncpg.connect(str(target))
        try:
            return int(await connection.fetchval("SELECT version FROM schema_version"))
        finally:
            await connection.close()
    with sqlite3.connect(target) as con:
        version: int = con.execute("PRAGMA user_version").fetchone()[0]
    con.close()
    return version


async def _tables(target: str | os.PathLike[str]) -> set[str]:
    """The tables of a database, read without hoshi."""
    if is_url(target):
        connection = await asyncpg.connect(str(target))
        try:
            rows = await connection.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            )
        finally:
            await connection.close()
        return {row[0] for row in rows}
    with sqlite3.connect(target) as con:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
    con.close()
    return tables


async def _open(target: str | os.PathLike[str], **options: object) -> Database:
    return await open_db(target, systems=SYSTEMS, **options)  # type: ignore[arg-type]


def _dir_with(tmp_path: Path, extra: dict[str, str], name: str = "migrations") -> Path:
    """A migrations directory: the packaged version 1 plus ``extra`` files."""
    directory = tmp_path / name
    directory.mkdir()
    shutil.copy(PACKAGED / "0001_initial.sql", directory)
    for name, sql in extra.items():
        (directory / name).write_text(sql, encoding="utf-8")
    return directory


async def test_a_fresh_database_gets_every_migration(tmp_path: Path, targets: Targets) -> None:
    target = await targets.empty(tmp_path / "new.db")
    db = await _open(target)
    try:
        assert db.version == len(migrate.discover(migrate.packaged()))
        tables = await db.tables()
        assert {"log", "games", "events", "player_state", "rating_history"} <= tables
    finally:
        await db.close()
    assert await _version_of(target) == db.version


async def test_reopening_applies_nothing_twice(tmp_path: Path, targets: Targets) -> None:
    target = await targets.empty(tmp_path / "again.db")
    for _ in range(2):
        db = await _open(target)
        await db.close()
    assert await _version_of(target) == len(migrate.discover(migrate.packaged()))


async def test_an_older_database_upgrades_in_place(tmp_path: Path, targets: Targets) -> None:
    target = await targets.empty(tmp_path / "old.db")
    db = await _open(target, migrations=_dir_with(tmp_path, {}, "v1"))
    assert db.version == 1
    async with db.transaction() as tx:
        await tx.execute(
            "INSERT INTO log (seq, club, kind, at, actor) VALUES (1, 1, 'club', 'x', 'console')"
        )
    await db.close()
    directory = _dir_with(
        tmp_path,
        {"0002_notes.sql": "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('v2');"},
    )
    db = await _open(target, migrations=directory)
    try:
        assert db.version == 2
        assert await db.fetchall("SELECT text FROM notes") == [("v2",)]
        assert await db.fetchall("SELECT seq, kind FROM log") == [(1, "club")]  # data kept
    finally:
        await db.close()
    assert await _version_of(target) == 2


async def test_a_newer_database_is_refused_naming_both_versions(
    tmp_path: Path, targets: Targets
) -> None:
    target = await targets.empty(tmp_path / "newer.db")
    directory = _dir_with(tmp_path, {"0002_more.sql": "CREATE TABLE more (x INTEGER);"})
    db = await _open(target, migrations=directory)
    await db.close()
    with pytest.raises(SchemaVersionError, match=r"schema version 2.* versions up to 1"):
        await _open(target, migrations=_dir_with(tmp_path, {}, "v1"))
    assert await _version_of(target) == 2


async def test_a_failing_migration_leaves_the_previous_version(
    tmp_path: Path, targets: Targets
) -> None:
    target = await targets.empty(tmp_path / "fail.db")
    db = await _open(target, migrations=_dir_with(tmp_path, {}, "v1"))
    await db.close()
    directory = _dir_with(
        tmp_path,
        {"0002_broken.sql": "CREATE TABLE half (x INTEGER); INSERT INTO nowhere VALUES (1);"},
    )
    with pytest.raises(
        (sqlite3.OperationalError, asyncpg.UndefinedTableError),
        match=r"no such table: nowhere|relation \"nowhere\" does not exist",
    ):
        await _open(target, migrations=directory)
    assert await _version_of(target) == 1
    assert "half" not in await _tables(target)


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["0001_a.sql", "0003_c.sql"], "0003_c.sql is out of sequence: expected number 0002"),
        (["0002_b.sql"], "0002_b.sql is out of sequence: expected number 0001"),
        (["0001_a.sql", "0001_b.sql"], "0001_b.sql is out of sequence: expected number 0002"),
    ],
    ids=["gap", "no-first", "repeat"],
)
def test_migration_numbers_must_run_without_gaps(
    tmp_path: Path, names: list[str], message: str
) -> None:
    for name in names:
        (tmp_path / name).write_text("SELECT 1;", encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        migrate.discover(tmp_path)


def test_other_files_are_ignored(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("SELECT 1;", encoding="utf-8")
    (tmp_path / "README.md").write_text("notes", encoding="utf-8")
    (tmp_path / "draft.sql").write_text("SELECT 2;", encoding="utf-8")
    assert [m.name for m in migrate.discover(tmp_path)] == ["0001_a.sql"]


def test_the_packaged_migrations_are_package_data() -> None:
    names = [m.name for m in migrate.discover(migrate.packaged())]
    assert names[0] == "0001_initial.sql"


@pytest.mark.parametrize(
    ("current", "expected"), [(0, [1, 2]), (1, [2]), (2, [])], ids=["fresh", "v1", "current"]
)
def test_pending(current: int, expected: list[int]) -> None:
    known = [migrate.Migration(1, "a", ""), migrate.Migration(2, "b", "")]
    assert [m.version for m in migrate.pending(current, known)] == expected


def _up_to(tmp_path: Path, version: int) -> Path:
    """The packaged migrations up to ``version`` (a database as an older hoshi left it)."""
    directory = tmp_path / f"up-to-{version}"
    directory.mkdir()
    for migration in migrate.discover(PACKAGED):
        if migration.version <= version:
            shutil.copy(PACKAGED / migration.name, directory)
    return directory


async def test_version_6_numbers_old_games_and_tournaments_per_club(
    tmp_path: Path, targets: Targets
) -> None:
    path = await targets.empty(tmp_path / "v5.db")
    db = await _open(path, migrations=_up_to(tmp_path, 5))
    assert db.version == 5
    game = (
        "INSERT INTO games (seq, club, black, white, result, date, stones, komi2, played, board, "
        "arranged, counts_as_tournament, pair_go, pending) "
        "VALUES (?, ?, ?, ?, 'B+', '2026-03-01', 0, 13, 1, 19, 0, 0, 0, 0)"
    )
    tournament = (
        "INSERT INTO tournaments (seq, club, name, start_date, end_date, rounds, board, even, "
        "handicap_reduction, invitational_or_national, european_or_world, arranged) "
        "VALUES (?, ?, ?, '2026-03-01', '2026-03-01', 1, 19, 1, 0, 0, 0, 0)"
    )
    # two clubs' entries interleaved in the one global log
    rows = [(1, None, "club"), (2, None, "club")]
    rows += [(3, 1, "player"), (4, 1, "player"), (5, 2, "player"), (6, 2, "player")]
    rows += [(7, 1, "game"), (8, 2, "game"), (9, 1, "tournament"), (10, 1, "game")]
    rows += [(11, 2, "tournament"), (12, 2, "game"), (13, 1, "game"), (14, 1, "tournament")]
    async with db.transaction() as tx:
        for seq, club, kind in rows:
            await tx.execute(
                "INSERT INTO log (seq, club, kind, at, actor) "
                "VALUES (?, ?, ?, '2026-03-01T18:00:00+00:00', 'console')",
                (seq, club or seq, kind),
            )
        for seq in (1, 2):
            await tx.execute(
                "INSERT INTO clubs (seq, name, folded, system) VALUES (?, ?, ?, 'plus')",
                (seq, f"Club {seq}", f"club {seq}"),
            )
        for seq, club in ((3, 1), (4, 1), (5, 2), (6, 2)):
            await tx.execute(
                "INSERT INTO players (seq, club, name, rank, date) "
                "VALUES (?, ?, ?, '5k', '2026-03-01')",
                (seq, club, f"P{seq}"),
            )
        for seq, club in ((9, 1), (11, 2), (14, 1)):
            await tx.execute(tournament, (seq, club, f"Cup {seq}"))
        for seq, club in ((7, 1), (8, 2), (10, 1), (12, 2), (13, 1)):
            black, white = (3, 4) if club == 1 else (5, 6)
            await tx.execute(game, (seq, club, black, white))
    await db.close()
    db = await _open(path)
    try:
        assert db.version >= 6
        assert await db.fetchall("SELECT seq, club, number FROM games ORDER BY seq") == [
            (7, 1, 1),
            (8, 2, 1),
            (10, 1, 2),
            (12, 2, 2),
            (13, 1, 3),
        ]
        assert await db.fetchall("SELECT seq, club, number FROM tournaments ORDER BY seq") == [
            (9, 1, 1),
            (11, 2, 1),
            (14, 1, 2),
        ]
        # the log stays append-only after the migration lifted and restored the triggers
        with pytest.raises(INTEGRITY, match="append-only"):
            async with db.transaction() as tx:
                await tx.execute("UPDATE games SET number = 9 WHERE seq = 7")
        with pytest.raises(INTEGRITY, match="append-only"):
            async with db.transaction() as tx:
                await tx.execute("UPDATE tournaments SET number = 9 WHERE seq = 9")
    finally:
        await db.close()
