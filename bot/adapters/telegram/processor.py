"""The update processor: updates of one chat in order, different chats concurrently (PTB's
``BaseUpdateProcessor``)."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor


class PerChatUpdates(BaseUpdateProcessor):
    """Updates of one chat in arrival order, different chats concurrently.

    A club's ``/register`` must be stored before the ``/result`` typed after it, while a big
    import in one group must not hold up ``/rating`` in another (bot.md, Long work). An update
    waiting for its chat's turn holds none of the concurrent slots: a chat's backlog never
    holds another chat's update.
    ``on_done`` is told when an update has been handled (:class:`ConfirmAfterHandling`).
    """

    def __init__(
        self,
        max_concurrent_updates: int = 32,
        on_done: Callable[[int], None] | None = None,
    ) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._on_done = on_done

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        try:
            await self._in_order(update, coroutine)
        finally:
            if self._on_done is not None and isinstance(update, Update):
                self._on_done(update.update_id)

    async def _in_order(self, update: object, coroutine: Awaitable[Any]) -> None:
        chat = update.effective_chat if isinstance(update, Update) else None
        if chat is None:
            await coroutine
            return
        lock = self._locks.get(chat.id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[chat.id] = lock
        if lock.locked():
            # this chat's earlier update still runs: wait for it without one of the
            # concurrent slots, which other chats' updates take meanwhile (issue 26: a busy
            # group's backlog held every slot, and a private /help waited 96 s)
            self._semaphore.release()
            try:
                await lock.acquire()
            finally:
                await self._semaphore.acquire()
        else:
            await lock.acquire()
        try:
            await coroutine
        finally:
            lock.release()

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to free."""
