"""storage.follow: a process's cached ledgers kept current while another process writes.

Two :class:`~storage.db.Database` handles on one database stand for two processes; a fake
listener stands for ``db.listen`` (the notices PostgreSQL sends at commit), fed by the test
with what the other handle committed.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from engine.types import Result
from storage import Club, Database, ledger
from storage.clubs import create_club
from storage.follow import Follower, follow
from storage.ledgers import ClubLedgers
from storage.projections import all_cards, fold
from tests.fakes.listener import FakeListener
from tests.storage.conftest import ORGANISER, FakeClock, game, open_test_db, player

Notice = Callable[[int, int], None]
following = importlib.import_module("storage.follow")  # the module (storage.follow: a function)


@pytest.fixture
async def two(tmp_path: Path, clock: FakeClock) -> AsyncIterator[tuple[Database, Database]]:
    """``(here, there)``: two handles on one database, as two processes have."""
    here = await open_test_db(tmp_path / "hoshi.db", clock)
    there = await open_test_db(tmp_path / "hoshi.db", clock)
    try:
        yield here, there
    finally:
        await here.close()
        await there.close()


@pytest.fixture
def listener(two: tuple[Database, Database], monkeypatch: pytest.MonkeyPatch) -> FakeListener:
    fake = FakeListener()
    monkeypatch.setattr(two[0], "listen", fake.listen, raising=False)
    return fake


@pytest.fixture
async def follower(
    two: tuple[Database, Database], listener: FakeListener
) -> AsyncIterator[Follower]:
    running = await follow(two[0])
    try:
        yield running
    finally:
        await running.close()


async def arranged(here: Database, there: Database, name: str = "Budapest Go Club") -> Club:
    """A club with two players and a game, written there; its ledgers cached here."""
    club = await create_club(there, name, "plus", actor=ORGANISER)
    black, white = await player(there, club, "Kis Anna"), await player(there, club, "Nagy Béla")
    await game(there, club, black, white)
    await ledger(here, club)
    return club


async def last_seq(db: Database, club: Club) -> int:
    row = await db.fetchone("SELECT MAX(seq) FROM log WHERE club = ?", (club.id,))
    assert row is not None
    return int(row[0])


async def replayed_cards(db: Database, club: Club) -> dict[str, Any]:
    """Every system's cards from a fresh fold of the whole log (not cached)."""
    async with db.transaction() as tx:
        return all_cards(await fold(db, tx, club.id))


async def as_replayed(ledgers: ClubLedgers, db: Database, club: Club) -> bool:
    """Whether the cached ledgers' current system has the cards a whole replay gives (the
    follower keeps the current system current; the shadows catch up when asked)."""
    return all_cards(ledgers)[ledgers.current] == (await replayed_cards(db, club))[ledgers.current]


async def another_game(there: Database, club: Club, result: Result = Result.WHITE) -> int:
    """One more game of the club's two players, written there (later in the calendar than
    everything folded: the tail of the history); the club's last log position."""
    players = await there.fetchall(
        "SELECT seq FROM players WHERE club = ? ORDER BY seq LIMIT 2", (club.id,)
    )
    (black,), (white,) = players
    await game(there, club, black, white, result)
    return await last_seq(there, club)


async def test_a_notice_catches_the_cached_ledgers_up(
    two: tuple[Database, Database], listener: FakeListener, follower: Follower
) -> None:
    here, there = two
    club = await arranged(here, there)
    cached = here.projections.ledgers[club.id]
    seq = await another_game(there, club)
    assert cached.last_seq < seq  # here is behind
    replays = here.projections.full_folds
    listener.send(club.id, seq)
    await asyncio.wait_for(follower.settled(), 10)
    current = here.projections.ledgers[club.id]
    assert current.last_seq == seq
    assert await as_replayed(current, there, club)
    assert follower.caught_up == 1
    assert here.projections.full_folds == replays  # the new entries folded, not everything


async def test_a_notice_of_this_process_own_write_does_nothing(
    two: tuple[Database, Database], listener: FakeListener, follower: Follower
) -> None:
    here, there = two
    club = await arranged(here, there)
    seq = await another_game(here, club)  # written here: the cached ledgers are current
    listener.send(club.id, seq)
    await asyncio.wait_for(follower.settled(), 10)
    assert follower.caught_up == 0


async def test_a_club_not_cached_here_is_left_for_its_first_use(
    two: tuple[Database, Database], listener: FakeListener, follower: Follower
) -> None:
    here, there = two
    club = await create_club(there, "Elsewhere", "plus", actor=ORGANISER)
    listener.send(club.id, await last_seq(there, club))
    await asyncio.wait_for(follower.settled(), 10)
    assert club.id not in here.projections.ledgers
    assert follower.caught_up == 0


async def test_a_missed_notice_checks_every_cached_club(
    two: tuple[Database, Database], listener: FakeListener, follower: Follower
) -> None:
    here, there = two
    first = await arranged(here, there, "First Club")
    second = await arranged(here, there, "Second Club")
    seqs = {
        first.id: await another_game(there, first),
        second.id: await another_game(there, second),
    }
    listener.send(0, 0)  # the listening connection was lost: notices may have been missed
    await asyncio.wait_for(follower.settled(), 10)
    assert {c: here.projections.ledgers[c].last_seq for c in seqs} == seqs
    assert follower.caught_up == 2


async def test_every_cached_club_is_checked_periodically_without_notices(
    two: tuple[Database, Database],
) -> None:
    """SQLite sends no notices: the periodic check keeps the ledgers current."""
    here, there = two
    club = await arranged(here, there)
    seq = await another_game(there, club)
    running = await follow(here, every_s=0.05)
    try:

        async def caught_up() -> None:
            while here.projections.ledgers[club.id].last_seq != seq:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(caught_up(), 10)
    finally:
        await running.close()
    assert running.caught_up == 1


async def test_a_failed_catch_up_is_logged_and_the_follower_goes_on(
    two: tuple[Database, Database],
    listener: FakeListener,
    follower: Follower,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    here, there = two
    club = await arranged(here, there)
    real = following.ledgers_for
    failures = [RuntimeError("the database went away")]

    async def flaky(db: Database, tx: Any, club_id: int) -> Any:
        if failures:
            raise failures.pop()
        return await real(db, tx, club_id)

    monkeypatch.setattr(following, "ledgers_for", flaky)
    seq = await another_game(there, club)
    with caplog.at_level(logging.ERROR, "hoshi.follow"):
        listener.send(club.id, seq)
        await asyncio.wait_for(follower.settled(), 10)
    assert "could not catch club" in caplog.text
    assert here.projections.ledgers[club.id].last_seq < seq
    listener.send(club.id, seq)  # the next notice tries again
    await asyncio.wait_for(follower.settled(), 10)
    assert here.projections.ledgers[club.id].last_seq == seq


async def test_writes_here_after_a_catch_up_build_on_the_other_process_writes(
    two: tuple[Database, Database], listener: FakeListener, follower: Follower
) -> None:
    here, there = two
    club = await arranged(here, there)
    listener.send(club.id, await another_game(there, club))
    await asyncio.wait_for(follower.settled(), 10)
    await another_game(here, club, Result.BLACK)
    assert await as_replayed(here.projections.ledgers[club.id], there, club)


async def test_close_stops_listening_and_is_idempotent(
    two: tuple[Database, Database], listener: FakeListener
) -> None:
    running = await follow(two[0])
    await running.close()
    await running.close()
    assert listener.closed == 1


@pytest.mark.postgresql_only
async def test_postgresql_notices_catch_another_process_up(
    two: tuple[Database, Database],
) -> None:
    """The real thing: the other handle's commit notifies (``pg_notify`` at commit), this
    handle's listener hears it, and the follower folds the new entries — no periodic check."""
    here, there = two
    club = await arranged(here, there)
    replays = here.projections.full_folds
    running = await follow(here, every_s=3600)
    try:
        seq = await another_game(there, club)

        async def caught_up() -> None:
            while here.projections.ledgers[club.id].last_seq != seq:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(caught_up(), 10)
        await asyncio.wait_for(running.settled(), 10)
    finally:
        await running.close()
    assert running.caught_up == 1
    assert here.projections.full_folds == replays  # each time the tail only
    assert await as_replayed(here.projections.ledgers[club.id], there, club)
