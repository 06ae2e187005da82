"""Fixtures for the storage tests: a real SQLite database in ``tmp_path`` with the fake systems."""

from __future__ import annotations

import datetime as dt
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
)
from storage.clubs import create_club
from storage.db import SystemFactory
from tests.storage.fake_system import SYSTEMS

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
    path: Path, clock: FakeClock | None = None, systems: Mapping[str, SystemFactory] = SYSTEMS
) -> Database:
    return await open_db(path, systems=systems, clock=clock or FakeClock())


@pytest.fixture
async def db(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Database]:
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

LOG_TABLES = (
    "log",
    "clubs",
    "chat_bindings",
    "players",
    "player_aliases",
    "account_links",
    "tournaments",
    "tournament_entries",
    "games",
    "events",
)


async def dump(db: Database, tables: Mapping[str, str] = PROJECTIONS) -> dict[str, list[Any]]:
    """Every row of the given tables in primary-key order (to compare states byte for byte)."""
    return {
        table: await db.fetchall(f"SELECT * FROM {table} ORDER BY {order}")
        for table, order in tables.items()
    }


async def dump_all(db: Database) -> dict[str, list[Any]]:
    """The log tables and the projections."""
    return await dump(db, {**dict.fromkeys(LOG_TABLES, "seq"), **PROJECTIONS})
