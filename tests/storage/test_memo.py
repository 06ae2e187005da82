"""storage.memo: a memo answers while its key query answers the same, and is read once however
many ask for it at the same time."""

from __future__ import annotations

import asyncio

import pytest

from storage import Database
from storage.clubs import create_club
from storage.memo import forget_club, remembered
from tests.storage.conftest import ORGANISER

KEY = "SELECT COUNT(*) FROM clubs"


class Reads:
    """A build that counts how often it ran and can be held open until released."""

    def __init__(self) -> None:
        self.count = 0
        self.release = asyncio.Event()
        self.started = asyncio.Event()  # set by the first read
        self.failing = 0  # how many of the next reads fail

    async def __call__(self) -> list[int]:
        self.count += 1
        self.started.set()
        fails = self.failing > 0
        self.failing -= fails
        await self.release.wait()
        if fails:
            raise ValueError("the read failed")
        return [self.count]


async def test_a_memo_is_read_again_only_when_its_key_changes(db: Database) -> None:
    reads = Reads()
    reads.release.set()
    first = await remembered(db, ("list", 1), KEY, (), reads)
    assert await remembered(db, ("list", 1), KEY, (), reads) is first
    assert reads.count == 1
    await create_club(db, "Other", "plus", actor=ORGANISER)
    assert await remembered(db, ("list", 1), KEY, (), reads) == [2]


async def test_many_asking_at_once_read_once(db: Database) -> None:
    reads = Reads()
    asking = [asyncio.create_task(remembered(db, ("list", 1), KEY, (), reads)) for _ in range(50)]
    await asyncio.sleep(0.01)
    reads.release.set()
    answers = await asyncio.gather(*asking)
    assert reads.count == 1
    assert all(answer is answers[0] for answer in answers)


async def test_when_the_shared_read_fails_the_others_read_themselves(db: Database) -> None:
    reads = Reads()
    reads.failing = 1
    first = asyncio.create_task(remembered(db, ("list", 1), KEY, (), reads))
    await asyncio.sleep(0.01)
    second = asyncio.create_task(remembered(db, ("list", 1), KEY, (), reads))
    await asyncio.sleep(0.01)
    reads.release.set()
    with pytest.raises(ValueError, match="the read failed"):
        await first
    assert await second == [2]
    assert reads.count == 2


async def test_forgetting_a_club_drops_its_memos_and_reads_underway(db: Database) -> None:
    reads = Reads()
    underway = asyncio.create_task(remembered(db, ("list", 1), KEY, (), reads))
    await reads.started.wait()  # its read is underway (the key query ran first)
    forget_club(db, 1)
    later = asyncio.create_task(remembered(db, ("list", 1), KEY, (), reads))
    await asyncio.sleep(0.01)
    reads.release.set()
    await asyncio.gather(underway, later)
    assert reads.count == 2
    forget_club(db, 1)
    assert await remembered(db, ("list", 1), KEY, (), reads) == [3]
