"""Shared arrangements for the reliability suite (issue 6/6): clubs built straight through
storage (fast), and the real Telegram adapter polling the fake Bot API."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from telegram import Update
from telegram.ext import ContextTypes, TypeHandler

import storage
from bot.adapters.telegram import TelegramAdapter
from bot.config import Config, TelegramConfig
from bot.core.app import Core
from engine.ranks import Rank
from storage.db import Database
from storage.records import Club
from tests.fakes import telegram as ft

NOW = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)
TODAY = NOW.date()
GROUP = ft.group(-1001, "Budapest Go Club")
ADMIN = ft.user(101, "Anna", "Admin")


class Clock:
    """A clock the test moves by hand (tests never sleep)."""

    def __init__(self, now: dt.datetime = NOW) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


async def make_club(
    db: Database,
    name: str = "Budapest Go Club",
    system: str = "tensuusei",
    *,
    chats: Iterable[tuple[str, str]] = (("telegram", str(GROUP["id"])),),
    players: Iterable[str] = (),
    admin: str = f"telegram:{ADMIN['id']}",
    language: str = "en",
) -> Club:
    """A club bound to ``chats`` with ``players`` (all 8k) registered, speaking ``language``."""
    club = await storage.create_club(db, name, system, actor=admin)
    await storage.set_setting(db, club, "language", language, actor=admin)
    for platform, chat_id in chats:
        await storage.bind_chat(db, club, platform, chat_id, actor=admin)
    for player in players:
        await storage.register_player(
            db, club, player, Rank.kyu(8), date=TODAY - dt.timedelta(days=30), actor=admin
        )
    return club


async def table_rows(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, to compare before and after."""
    names = [
        name
        for (name,) in await db.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name"
        )
    ]
    return {n: sorted(await db.fetchall(f"SELECT * FROM {n}"), key=repr) for n in names}


async def integrity(db: Database) -> list[str]:
    """SQLite's integrity and foreign-key checks: ``[]`` when both pass."""
    problems = [r[0] for r in await db.fetchall("PRAGMA integrity_check") if r[0] != "ok"]
    problems += [repr(r) for r in await db.fetchall("PRAGMA foreign_key_check")]
    return problems


@dataclass
class Telegram:
    """The real PTB application of the adapter, polling the fake Bot API."""

    api: ft.FakeBotApi
    adapter: TelegramAdapter
    done: set[int] = field(default_factory=set)
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)

    async def processed(self, update: dict[str, Any], timeout: float = 10.0) -> None:
        uid = update["update_id"]
        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(lambda: uid in self.done), timeout)

    async def say(
        self, text: str, who: dict[str, Any], chat: dict[str, Any] = GROUP, **kwargs: Any
    ) -> list[ft.Call]:
        before = len(self.api.calls)
        update = self.api.message(text, chat, who, **kwargs)
        await self.processed(update)
        return self.api.calls[before:]

    async def again(self, update: dict[str, Any]) -> list[ft.Call]:
        """Deliver ``update`` once more (same ``update_id``), as Telegram may; returns the
        calls it caused. A dropped update runs no handler to mark it, so a plain message (no
        command: no answer) follows in the same chat, whose updates are handled in order."""
        before = len(self.api.calls)
        self.api.push(json.loads(json.dumps(update)))
        body = update.get("message") or update["callback_query"]["message"]
        sentinel = self.api.message("(sentinel)", body["chat"], body["from"])
        await self.processed(sentinel)
        return self.api.calls[before:]


@asynccontextmanager
async def telegram_on(core: Core, api: ft.FakeBotApi, **settings: Any) -> AsyncIterator[Telegram]:
    """A started adapter for ``core`` polling ``api`` (stopped on leaving)."""
    config = TelegramConfig(api_base_url=api.base_url, file_base_url=api.file_base_url, **settings)
    adapter = TelegramAdapter(core, ft.TOKEN, config, rate_limiter=False)
    bot = Telegram(api, adapter)

    async def mark(update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        async with bot.changed:
            bot.done.add(update.update_id)
            bot.changed.notify_all()

    adapter.application.add_handler(TypeHandler(Update, mark), group=99)
    await adapter.start()
    try:
        yield bot
    finally:
        await adapter.stop()


async def open_core(path: Path, clock: Clock) -> Core:
    db = await storage.open_db(path, clock=clock)
    return Core(db, Config(db_path=path, charts_dir=path.parent), clock=clock)


def texts(calls: list[ft.Call], method: str = "sendMessage") -> list[str]:
    return [c.params["text"] for c in calls if c.method == method]
