"""Fixtures for the storage tests: a real database with the fake systems, on both backends.

Every storage test that opens a database runs twice (scale-contract.md §2): on SQLite (a file
in ``tmp_path``) and on PostgreSQL (a fresh database in the session's throw-away cluster,
tests/conftest.py). :func:`open_test_db` maps a test's file path to the current backend, so a
test written with paths reopens "the same file" on either. Tests about SQLite files themselves
are marked ``sqlite_only``.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import AsyncIterator, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from engine.ranks import Rank
from engine.types import Result
from storage import (
    Club,
    Database,
    GameRow,
    Player,
    new_game,
    open_db,
    record_game,
    register_player,
    transfer,
)
from storage.clubs import create_club
from storage.db import SystemFactory
from tests.conftest import PgDatabases
from tests.storage.fake_system import SYSTEMS

BACKENDS = ("sqlite", "postgresql")
_DB_FIXTURES = {"db", "club", "real", "tmp_path", "tmp_path_factory", "targets"}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run every storage test that opens a database on both backends (``[sqlite]``,
    ``[postgresql]``); ``sqlite_only`` tests on SQLite alone."""
    if "backend" not in metafunc.fixturenames:
        return
    opens = bool(_DB_FIXTURES & set(metafunc.fixturenames))
    opens |= metafunc.definition.get_closest_marker("both_backends") is not None
    if metafunc.definition.get_closest_marker("postgresql_only") is not None:
        backends: tuple[str, ...] = BACKENDS[1:]
    elif not opens or metafunc.definition.get_closest_marker("sqlite_only") is not None:
        backends = BACKENDS[:1]
    else:
        backends = BACKENDS
    metafunc.parametrize("backend", backends, indirect=True)


class Targets:
    """Where this test's databases live: paths as given (SQLite), or a fresh PostgreSQL
    database per distinct path (the same path twice is the same database)."""

    def __init__(self, backend: str, pg: PgDatabases | None):
        self.backend = backend
        self._pg = pg
        self._urls: dict[str, str] = {}

    async def of(self, path: str | os.PathLike[str]) -> str | os.PathLike[str]:
        """The target to open for ``path`` on this test's backend."""
        if self._pg is None:
            return path
        key = os.fspath(path)
        if key not in self._urls:
            self._urls[key] = await self._pg.create()
        return self._urls[key]

    async def empty(self, path: str | os.PathLike[str]) -> str | os.PathLike[str]:
        """A target for ``path`` with no schema yet (to test migrations)."""
        if self._pg is None:
            return path
        key = os.fspath(path)
        if key not in self._urls:
            self._urls[key] = await self._pg.create(migrated=False)
        return self._urls[key]

    async def release(self, path: str | os.PathLike[str]) -> None:
        """Done with ``path`` (closed, never opened again by this test): PostgreSQL may hand
        its database to the next user at once (a property test opens one per example)."""
        url = self._urls.pop(os.fspath(path), None)
        if url is not None and self._pg is not None:
            await self._pg.release(url)

    async def drop(self) -> None:
        if self._pg is not None:
            for url in self._urls.values():
                await self._pg.release(url)
        self._urls.clear()


_current: Targets | None = None


@pytest.fixture
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[str]:
    """The backend this run of the test uses (autouse below)."""
    global _current
    name: str = getattr(request, "param", "sqlite")
    pg = request.getfixturevalue("pg_databases") if name == "postgresql" else None
    _current = Targets(name, pg)
    try:
        yield name
    finally:
        targets, _current = _current, None
        await targets.drop()


@pytest.fixture(autouse=True)
def _every_backend(backend: str) -> str:
    return backend


@pytest.fixture
def targets(backend: str) -> Targets:
    """This test's :class:`Targets`."""
    assert _current is not None
    return _current


async def release_target(path: str | os.PathLike[str]) -> None:
    """The current test is done with the database at ``path`` (see :meth:`Targets.release`)."""
    if _current is not None:
        await _current.release(path)


async def target_of(path: str | os.PathLike[str]) -> str | os.PathLike[str]:
    """``path`` on the current test's backend (see :class:`Targets`)."""
    return path if _current is None else await _current.of(path)


START = dt.datetime(2026, 3, 1, 18, 0, tzinfo=dt.UTC)
DAY = dt.date(2026, 3, 1)
ORGANISER = "telegram:1"
KOMI = Fraction(13, 2)


class FakeClock:
    """A clock the test moves by hand (tests never sleep)."""

    def __init__(self, now: dt.datetime = START):
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, delta: dt.timedelta) -> None:
        self.now += delta


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


async def open_test_db(
    path: str | os.PathLike[str],
    clock: FakeClock | None = None,
    systems: Mapping[str, SystemFactory] | None = SYSTEMS,
) -> Database:
    """Open the test database ``path`` on the current backend (``systems=None``: the real
    ones)."""
    return await open_db(await target_of(path), systems=systems, clock=clock or FakeClock())


@pytest.fixture
async def db(backend: str, tmp_path: Path, clock: FakeClock) -> AsyncIterator[Database]:
    database = await open_test_db(tmp_path / "hoshi.db", clock)
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
async def club(db: Database) -> Club:
    return await create_club(db, "Budapest Go Club", "plus", actor=ORGANISER)


async def player(db: Database, club: Club, name: str, rank: str = "5k", **options: Any) -> Player:
    """Register a player on ``DAY`` as the organiser."""
    options.setdefault("date", DAY)
    options.setdefault("actor", ORGANISER)
    return await register_player(db, club, name, Rank.parse(rank), **options)


async def game(
    db: Database,
    club: Club,
    black: Player | int,
    white: Player | int,
    result: Result | None = Result.BLACK,
    **options: Any,
) -> GameRow:
    """Record an even game on ``DAY`` as the organiser."""
    options.setdefault("stones", 0)
    options.setdefault("komi", KOMI)
    options.setdefault("date", DAY)
    how = {name: options.pop(name) for name in ("chat", "pending") if name in options}
    actor = options.pop("actor", ORGANISER)
    played = new_game(black, white, result, **options)
    return (await record_game(db, club, played, actor=actor, **how)).row


PROJECTIONS = {
    "player_state": "club, system, player",
    "rating_history": "club, system, seq, idx",
    "projection_state": "club",
}

LOG_TABLES = tuple(table for table in transfer.LOG_TABLES if table != "deliveries")
"""The club log's tables (storage.transfer names them)."""


async def dump(db: Database, tables: Mapping[str, str] = PROJECTIONS) -> dict[str, list[Any]]:
    """Every row of the given tables in primary-key order (to compare states byte for byte)."""
    return {
        table: await db.fetchall(f"SELECT * FROM {table} ORDER BY {order}")
        for table, order in tables.items()
    }


async def dump_all(db: Database) -> dict[str, list[Any]]:
    """The log tables and the projections."""
    return await dump(db, {**dict.fromkeys(LOG_TABLES, "seq"), **PROJECTIONS})
