"""``hoshi migrate``: a database copied to another one from the command line, and verified."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.cli.common import shown
from tests.conftest import PgDatabases
from tests.storage.test_transfer import clubs_database


async def test_migrate_copies_verifies_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = await clubs_database(tmp_path)
    target = tmp_path / "moved" / "club.sqlite"
    assert await _main(["migrate", "--from", str(source), "--to", str(target)]) == 0
    out, err = capsys.readouterr()
    with sqlite3.connect(source) as con:
        entries = con.execute("SELECT COUNT(*) FROM log").fetchone()[0]
    assert f"Copied {entries} log entries of 2 clubs from {source} to {target}" in out
    assert "verified: every rating replayed on" in out
    assert "copying games:" in err
    with sqlite3.connect(target) as con:
        assert con.execute("SELECT COUNT(*) FROM log").fetchone()[0] == entries


async def test_a_target_that_holds_a_log_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = await clubs_database(tmp_path)
    (tmp_path / "b").mkdir()
    target = await clubs_database(tmp_path / "b")
    assert await _main(["migrate", "--from", str(source), "--to", str(target)]) == 2
    err = capsys.readouterr().err
    assert "already holds" in err and "Nothing was copied." in err


async def test_a_missing_source_or_the_same_database_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nothing.sqlite"
    assert await _main(["migrate", "--from", str(missing), "--to", str(tmp_path / "x")]) == 2
    assert f"there is no database at {missing}" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()
    source = await clubs_database(tmp_path)
    assert await _main(["migrate", "--from", str(source), "--to", str(source)]) == 2
    assert "the same database" in capsys.readouterr().err


def test_an_address_is_shown_without_its_password() -> None:
    assert shown("postgresql://hoshi:s3cret@db:5432/clubs") == "postgresql://hoshi@db:5432/clubs"
    assert shown("postgresql://hoshi@db/clubs") == "postgresql://hoshi@db/clubs"
    assert shown("club.sqlite") == "club.sqlite"


async def _main(argv: list[str]) -> int:
    """``hoshi ARGV`` on its own event loop (the command runs asyncio.run itself)."""
    import asyncio

    return await asyncio.to_thread(main, argv)


async def test_migrate_to_postgresql_and_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], pg_databases: PgDatabases
) -> None:
    source = await clubs_database(tmp_path)
    url = await pg_databases.create(migrated=False)
    back = tmp_path / "back.sqlite"
    try:
        assert await _main(["migrate", "--from", str(source), "--to", url]) == 0
        assert f"to {url} in" in capsys.readouterr().out
        assert await _main(["migrate", "--from", url, "--to", str(back)]) == 0
        assert "verified" in capsys.readouterr().out
    finally:
        await pg_databases.drop(url)
    with sqlite3.connect(source) as one, sqlite3.connect(back) as other:
        for table in ("log", "games", "events", "players"):
            query = f"SELECT * FROM {table} ORDER BY seq"
            assert one.execute(query).fetchall() == other.execute(query).fetchall()
