"""A registration's rating is in the units of the system it was made under (rules.md §1.4,
§2.2): the club's other systems start the player from the rank, as a recorded standing."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import storage
from engine.ranks import Rank
from engine.types import Registered
from tests.storage.conftest import open_test_db

DAY = dt.date(2026, 3, 1)


def test_for_system_reads_a_rating_only_in_its_own_system() -> None:
    event = Registered(1, Rank.parse("2d"), DAY, rating=2090, rating_system="mgsz")
    assert event.for_system("mgsz") is event
    other = event.for_system("tensuusei")
    assert (other.rating, other.committee, other.rank) == (None, True, Rank.parse("2d"))
    legacy = Registered(1, Rank.parse("2d"), DAY, rating=2090)
    assert legacy.for_system("psg") is legacy


async def test_an_elo_is_not_points_and_every_system_knows_the_player(tmp_path: Path) -> None:
    db = await open_test_db(tmp_path / "club.sqlite", systems=None)
    try:
        club = await storage.create_club(db, "Club", "mgsz", actor="console")
        anna = await storage.register_player(
            db, club, "Kovács Anna", Rank.parse("2d"), rating=2090, date=DAY, actor="console"
        )
        peter = await storage.register_player(
            db, club, "Nagy Péter", Rank.parse("3k"), committee=True, date=DAY, actor="console"
        )
        assert (await storage.card(db, club, anna.id, "mgsz")).rating == 2090
        assert (await storage.card(db, club, anna.id, "tensuusei")).rating == 142  # 2d (§2.2)
        for system in ("psg", "swedish"):  # PSG refuses a rating: the player is still there
            assert (await storage.card(db, club, peter.id, system)).rank == Rank.parse("3k")
            assert (await storage.card(db, club, anna.id, system)).rank == Rank.parse("2d")
        assert await storage.rejected(db, club, "psg") == []
        # a full replay reads the registrations the same way
        await storage.replay_club(db, club.id)
        assert (await storage.card(db, club, anna.id, "tensuusei")).rating == 142
    finally:
        await db.close()
