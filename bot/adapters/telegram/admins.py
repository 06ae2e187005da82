"""Who administers a group: Telegram's list of a chat's administrators, cached for
``[telegram] admin_cache_s`` (chat administrators are organisers: bot.md, Permissions)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from telegram import Bot
from telegram.error import TelegramError

log = logging.getLogger("hoshi.telegram")


class AdminCache:
    """The administrators of each chat, asked of Telegram at most once per ``ttl_s`` seconds
    (on the ``monotonic`` clock: tests do not sleep)."""

    def __init__(self, ttl_s: float, monotonic: Callable[[], float]) -> None:
        self.ttl_s = ttl_s
        self._monotonic = monotonic
        self._admins: dict[int, tuple[float, frozenset[int]]] = {}  # chat → (until, users)

    async def administers(self, bot: Bot, chat_id: int, user_id: int) -> bool:
        """Whether ``user_id`` administers ``chat_id``; ``False`` while Telegram cannot say."""
        now = self._monotonic()
        cached = self._admins.get(chat_id)
        if cached is None or cached[0] <= now:
            try:
                members = await bot.get_chat_administrators(chat_id)
            except TelegramError as exc:
                log.warning("Telegram: administrators of %s unavailable: %s", chat_id, exc)
                return False
            cached = (now + self.ttl_s, frozenset(m.user.id for m in members))
            self._admins[chat_id] = cached
        return user_id in cached[1]
