"""Which updates were seen, and which are still being handled: the bookkeeping both ways of
receiving updates share (:mod:`~bot.adapters.telegram.polling`,
:mod:`~bot.adapters.telegram.webhook`) and the adapter's duplicate check."""

from __future__ import annotations

import asyncio
from collections import deque

SEEN_UPDATES = 4096  # how many processed update ids are remembered


class RecentIds:
    """The last ``size`` ids seen, to drop an update delivered twice."""

    def __init__(self, size: int = SEEN_UPDATES) -> None:
        self._order: deque[int] = deque()
        self._set: set[int] = set()
        self.size = size

    def add(self, key: int) -> bool:
        """Remember ``key``; ``False`` when it was already there."""
        if key in self._set:
            return False
        self._order.append(key)
        self._set.add(key)
        if len(self._order) > self.size:
            self._set.discard(self._order.popleft())
        return True


class InFlight:
    """The ids of updates fetched from Telegram, and which of them are still being handled."""

    def __init__(self) -> None:
        self.fetched = RecentIds()
        self.handling: set[int] = set()
        self.last: int | None = None  # the newest id fetched
        self.idle = asyncio.Event()  # set while nothing is being handled
        self.idle.set()

    def fetch(self, update_id: int) -> bool:
        """Note a fetched update; ``False`` when it was fetched before (drop it)."""
        if not self.fetched.add(update_id):
            return False
        self.handling.add(update_id)
        self.idle.clear()
        self.last = update_id if self.last is None else max(self.last, update_id)
        return True

    def done(self, update_id: int) -> None:
        self.handling.discard(update_id)
        if not self.handling:
            self.idle.set()
