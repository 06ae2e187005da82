"""Long polling that confirms an update to Telegram only once it has been handled (the part
of PTB's ``Updater`` that hoshi changes)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from telegram import Bot, Update

from bot.adapters.telegram.updates import InFlight

SHORT_POLL_S = 0.5  # how often to ask for new updates while earlier ones are being handled


class ConfirmAfterHandling:
    """The bot as PTB's ``Updater`` sees it: ``getUpdates`` confirms only handled updates.

    Telegram forgets every update below the ``offset`` of a ``getUpdates`` call. PTB asks for
    the next batch (confirming the last) as soon as it has queued one, so updates still being
    handled when the process dies would be lost. Here, while any update is being handled, the
    offset stays at the oldest of them and Telegram is asked briefly every
    :data:`SHORT_POLL_S` instead of long-polling (usually they are all handled sooner, and the
    long poll goes on at once); updates fetched again are dropped. After a
    crash the next start gets them again, and storage.deliveries keeps their effects single.
    Everything else is the real bot's.
    """

    def __init__(self, bot: Bot, in_flight: InFlight) -> None:
        self._bot = bot
        self._in_flight = in_flight

    def __getattr__(self, name: str) -> Any:
        return getattr(self._bot, name)

    async def get_updates(
        self, offset: int | None = None, timeout: Any = None, **kwargs: Any
    ) -> tuple[Update, ...]:
        if self._in_flight.handling:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._in_flight.idle.wait(), SHORT_POLL_S)
            if self._in_flight.handling:
                offset, timeout = min(self._in_flight.handling), 0
        updates = await self._bot.get_updates(offset=offset, timeout=timeout, **kwargs)
        return tuple(u for u in updates if self._in_flight.fetch(u.update_id))
