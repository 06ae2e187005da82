"""storage.rewrites: a ledger folded up to a log entry and a calendar place can be resumed
until a later write rewrote the past at or before that place (storage.projections,
storage.snapshots)."""

from __future__ import annotations

import itertools

from engine.calendar import Key
from storage import Club, Database
from storage.rewrites import record_rewrite, rewrite_reaching, rewritten

# the rewrites made: (the club's last log entry then, the earliest place it rewrote)
REWRITES: list[tuple[int, Key]] = [(3, (20, 2)), (5, (10, 0)), (5, (30, 1)), (8, (20, 1))]
PLACES: list[Key] = [(0, 0), (10, 0), (10, 1), (20, 0), (20, 1), (20, 2), (30, 1), (40, 0)]


def _reaching(seq: int, key: Key) -> Key | None:
    """The earliest place of a rewrite after ``seq`` that reached ``key`` or earlier, by hand."""
    return min((since for at, since in REWRITES if at > seq and since <= key), default=None)


async def test_a_place_is_rewritten_by_a_later_rewrite_that_reached_it(
    db: Database, club: Club
) -> None:
    async with db.transaction() as tx:
        for seq, since in REWRITES:
            await record_rewrite(tx, club.id, seq, since)
        await record_rewrite(tx, club.id + 1, 9, (0, 0))  # another club's: never counted
    async with db.transaction() as tx:
        for seq, key in itertools.product(range(10), PLACES):
            expected = _reaching(seq, key)
            assert await rewrite_reaching(tx, club.id, seq, key) == expected, (seq, key)
            assert await rewritten(tx, club.id, seq, key) == (expected is not None), (seq, key)


async def test_a_rewrite_is_recorded_once_and_never_before_the_calendar(
    db: Database, club: Club
) -> None:
    async with db.transaction() as tx:
        await record_rewrite(tx, club.id, 4, (-1, 0))  # before any place: from the start
        await record_rewrite(tx, club.id, 4, (0, 0))  # the same rewrite again
    rows = await db.fetchall(
        "SELECT seq, moment, position FROM rewrites WHERE club = ?", (club.id,)
    )
    assert [r for r in rows if r[0] == 4] == [(4, 0, 0)]
    async with db.transaction() as tx:
        assert await rewritten(tx, club.id, 3, (0, 0))
        assert not await rewritten(tx, club.id, 4, (0, 0))  # made at 4: not after it
