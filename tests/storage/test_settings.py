"""storage.settings: the latest value over the defaults; rating settings rebuild projections."""

from __future__ import annotations

import pytest

from storage import Club, Database, club_settings, set_setting, settings
from tests.storage.conftest import ORGANISER, game, player


async def test_defaults_and_the_creation_system(db: Database, club: Club) -> None:
    assert await settings.settings(db, club.id) == {**settings.DEFAULTS, "system": "plus"}
    assert await settings.current_system(db, club.id) == "plus"


async def test_the_latest_value_wins(db: Database, club: Club) -> None:
    for zone in ("Europe/Budapest", "Asia/Tokyo", "Europe/Warsaw"):
        await set_setting(db, club, "timezone", zone, actor=ORGANISER)
    assert (await club_settings(db, club))["timezone"] == "Europe/Warsaw"
    await set_setting(db, club, "system", "daily", actor=ORGANISER)
    await set_setting(db, club, "system", "plus", actor=ORGANISER)
    assert await settings.current_system(db, club.id) == "plus"


async def test_an_unknown_club(db: Database) -> None:
    with pytest.raises(LookupError, match="no club 42"):
        await settings.settings(db, 42)
    with pytest.raises(LookupError, match="no club 42"):
        await settings.current_system(db, 42)


@pytest.mark.parametrize(
    ("key", "rating"),
    [("plus.start", True), ("daily.x", True), ("timezone", False), ("mgsz.c", False)],
    ids=["plus", "daily", "plain", "not-a-system-here"],
)
def test_rating_settings(key: str, rating: bool) -> None:
    assert settings.is_rating_setting(key, frozenset({"plus", "daily"})) is rating


async def test_a_rating_setting_rebuilds_the_projections(db: Database, club: Club) -> None:
    a, b = await player(db, club, "Anna"), await player(db, club, "Bela")
    await game(db, club, a, b)
    cached = db.projections.ledgers[club.id]
    await set_setting(db, club, "plus.start", "100", actor=ORGANISER)
    assert db.projections.ledgers[club.id] is not cached  # replayed
    await set_setting(db, club, "timezone", "Asia/Tokyo", actor=ORGANISER)
    assert db.projections.ledgers[club.id].current == "plus"
