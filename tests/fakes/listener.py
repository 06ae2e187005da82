"""A fake of ``Database.listen``: notices of other processes' commits, sent by the test."""

from __future__ import annotations

from storage.db import Notice


class FakeListener:
    """``db.listen`` of a database that sends notices: the test sends them."""

    def __init__(self) -> None:
        self.callbacks: list[Notice] = []
        self.closed = 0

    async def listen(self, callback: Notice) -> FakeListener:
        self.callbacks.append(callback)
        return self

    def send(self, club: int, seq: int) -> None:
        for callback in self.callbacks:
            callback(club, seq)

    async def close(self) -> None:
        self.closed += 1
