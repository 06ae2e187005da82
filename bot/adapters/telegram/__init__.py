"""The Telegram adapter: python-telegram-bot v22 in front of the command core.

In small modules, as PTB keeps its updater, webhook handler and update processor apart:

* :mod:`~bot.adapters.telegram.adapter` — :class:`TelegramAdapter`: updates → invocations,
  replies → messages, lifecycle, the one error handler;
* :mod:`~bot.adapters.telegram.rendering` — a reply as HTML messages, keyboard and file;
* :mod:`~bot.adapters.telegram.menu` — the command menu, and the command a message holds;
* delivery — :mod:`~bot.adapters.telegram.updates` (updates seen and in flight, for
  duplicates), :mod:`~bot.adapters.telegram.polling` (long polling that confirms only handled
  updates), :mod:`~bot.adapters.telegram.webhook` (a webhook that answers only once handled),
  :mod:`~bot.adapters.telegram.processor` (one chat in order, chats concurrently);
* :mod:`~bot.adapters.telegram.admins` — the cache of chat administrators.
"""

from __future__ import annotations

from bot.adapters.telegram.adapter import TelegramAdapter

__all__ = ["TelegramAdapter"]
