"""storage.deliveries: a chat update's key is passed explicitly (``db.delivering(key)``), and
whatever the update changes is changed once."""

from __future__ import annotations

import pytest

from storage import Club, Database, deliveries, ensure_fresh, every_system, games_of, ledger
from storage.deliveries import Duplicate
from tests.storage.conftest import game, player


async def test_the_same_update_twice_is_recorded_once(db: Database, club: Club) -> None:
    a, b = await player(db, club, "Anna"), await player(db, club, "Bela")
    first = db.delivering("telegram:1:7")
    await game(first, club, a, b)
    await game(first, club, b, a)  # the same update's second write: it is the same update
    assert await deliveries.seen(db, "telegram:1:7")
    again = db.delivering("telegram:1:7")  # delivered again, e.g. after a restart
    with pytest.raises(Duplicate, match="already handled"):
        await game(again, club, a, b)
    assert len(await games_of(db, club, a.id)) == 2


async def test_a_handle_shares_the_database(db: Database, club: Club) -> None:
    handle = db.delivering("telegram:1:8")
    assert handle.delivery is not None and handle.delivery.key == "telegram:1:8"
    assert handle.projections is db.projections and handle.target == db.target
    assert db.delivery is None and db.delivering(None) is db
    a, b = await player(handle, club, "Anna"), await player(db, club, "Bela")
    assert await handle.fetchall("SELECT seq FROM players ORDER BY seq") == [(a.id,), (b.id,)]


async def test_a_write_that_changes_nothing_records_no_key(db: Database, club: Club) -> None:
    handle = db.delivering("telegram:1:9")
    async with handle.transaction() as tx:
        await tx.fetchall("SELECT 1")
    assert not await deliveries.seen(db, "telegram:1:9")
    await player(handle, club, "Anna")
    assert await deliveries.seen(db, "telegram:1:9")


async def test_a_failed_write_leaves_the_key_for_the_next_try(db: Database, club: Club) -> None:
    handle = db.delivering("telegram:1:10")
    with pytest.raises(RuntimeError):
        async with handle.transaction() as tx:
            await tx.execute("INSERT INTO deliveries (key, at) VALUES ('other', '2026')")
            raise RuntimeError("later failure")
    assert not await deliveries.seen(db, "telegram:1:10")
    await player(handle, club, "Anna")  # the same handle tries again: recorded now
    assert await deliveries.seen(db, "telegram:1:10")


async def test_without_a_key_nothing_is_recorded(db: Database, club: Club) -> None:
    await player(db, club, "Anna")
    assert await db.fetchall("SELECT key FROM deliveries") == []


def test_there_is_no_hidden_key() -> None:
    """The key travels with the database handle, not in a context variable."""
    assert not hasattr(deliveries, "handling")
    assert not any(type(value).__name__ == "ContextVar" for value in vars(deliveries).values())


async def test_a_catch_up_before_the_commands_write_records_no_key(
    db: Database, club: Club
) -> None:
    """What a command reads before it writes may bring projections up to date (its own
    system after another process wrote, a shadow system asked for): those writes are upkeep,
    not the update's facts. Recorded with them, an update cut off before its own write would
    be taken as handled when delivered again, and its game lost."""
    a, b = await player(db, club, "Anna"), await player(db, club, "Bela")
    await game(db, club, a, b)
    handle = db.delivering("telegram:1:11")
    for system in sorted(db.projections.systems):
        db.projections.ledgers.clear()  # as after another process wrote, or a start
        await ledger(handle, club, system)  # the current one, then every shadow, folded
        await ensure_fresh(handle, club.id, system)
    await every_system(handle, club)
    assert not await deliveries.seen(db, "telegram:1:11")
    await game(handle, club, b, a)  # the command's own write carries the key
    assert await deliveries.seen(db, "telegram:1:11")
