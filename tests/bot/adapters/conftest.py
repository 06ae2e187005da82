"""Fixtures for the adapter tests: a real database, the core, and each platform's real client
library talking to a fake server on 127.0.0.1 (tests/fakes)."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from telegram import Update
from telegram.ext import ContextTypes, TypeHandler

import storage
from bot.adapters.discord import DiscordAdapter
from bot.adapters.telegram import TelegramAdapter
from bot.config import Config, DiscordConfig, TelegramConfig
from bot.core.app import Core
from bot.i18n import catalogues as i18n_catalogues
from bot.i18n.catalogues import catalogue
from storage.db import Database
from tests.fakes import discord as fd
from tests.fakes import telegram as ft

NOW = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


def fixed_clock() -> dt.datetime:
    return NOW


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await storage.open_db(tmp_path / "hoshi.sqlite", clock=fixed_clock)
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
def core(db: Database) -> Core:
    return Core(db, Config(), clock=fixed_clock)


async def log_size(db: Database) -> int:
    """How many entries the club log holds (nothing changed ⇔ this stays the same)."""
    row = await db.fetchone("SELECT count(*) FROM log")
    assert row is not None
    return int(row[0])


# --- Telegram ------------------------------------------------------------------------------

ADMIN = ft.user(101, "Anna", "Admin")
PLAYER = ft.user(202, "Pál", "Player")
OTHER = ft.user(303, "Olga", "Other")
GROUP = ft.group(-1001, "Budapest Go Club")


class Clock:
    """A monotonic clock the tests move by hand (the admin cache)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class TelegramBot:
    """The real PTB application of the adapter, polling the fake Bot API."""

    api: ft.FakeBotApi
    adapter: TelegramAdapter
    clock: Clock
    done: set[int] = field(default_factory=set)
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)

    async def processed(self, update: dict[str, Any], timeout: float = 10.0) -> None:
        """Wait until every handler has run for ``update``."""
        uid = update["update_id"]
        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(lambda: uid in self.done), timeout)

    async def say(
        self, text: str, chat: dict[str, Any], who: dict[str, Any], **kwargs: Any
    ) -> list[ft.Call]:
        """Send a message, wait until it is handled; returns the calls it caused."""
        before = len(self.api.calls)
        update = self.api.message(text, chat, who, **kwargs)
        await self.processed(update)
        return self.api.calls[before:]

    async def press(
        self, data: str, message: dict[str, Any], who: dict[str, Any]
    ) -> list[ft.Call]:
        before = len(self.api.calls)
        update = self.api.press(data, message, who)
        await self.processed(update)
        return self.api.calls[before:]


@pytest.fixture
def telegram_factory(
    core: Core,
) -> Callable[..., Any]:
    """``async with telegram_factory(**config) as bot`` — a started bot on a fresh fake."""

    @asynccontextmanager
    async def start(the_core: Core | None = None, **settings: Any) -> AsyncIterator[TelegramBot]:
        async with ft.FakeBotApi() as api:
            config = TelegramConfig(
                api_base_url=api.base_url, file_base_url=api.file_base_url, **settings
            )
            clock = Clock()
            adapter = TelegramAdapter(the_core or core, ft.TOKEN, config, monotonic=clock)
            bot = TelegramBot(api, adapter, clock)

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

    return start


@pytest.fixture
async def telegram(telegram_factory: Callable[..., Any]) -> AsyncIterator[TelegramBot]:
    async with telegram_factory() as bot:
        bot.api.admins[GROUP["id"]] = {ADMIN["id"]}
        yield bot


# --- Discord -------------------------------------------------------------------------------

D_ADMIN = fd.member(1101, "Anna", fd.MANAGE_GUILD | fd.MEMBER_PERMISSIONS)
D_PLAYER = fd.member(2202, "Pál", fd.MEMBER_PERMISSIONS)
D_OTHER = fd.member(3303, "Olga", fd.MEMBER_PERMISSIONS)


@dataclass
class DiscordBot:
    """The real discord.py client and command tree of the adapter, on the fake REST API."""

    fake: fd.FakeDiscord
    adapter: DiscordAdapter

    def option_types(self, command: str) -> dict[str, int]:
        """The options of ``command`` (``club komi``: a group's subcommand) and their types."""
        slash: Any = self.adapter.tree
        for name in command.split():
            slash = slash.get_command(name)
            assert slash is not None, f"/{command} is not in the tree"
        return {p.display_name: p.type.value for p in slash.parameters}

    async def slash(
        self,
        command: str,
        who: dict[str, Any],
        /,
        guild_id: int | None = fd.GUILD_ID,
        resolved: dict[str, Any] | None = None,
        locale: str = "en-US",
        **values: Any,
    ) -> list[fd.Call]:
        """Run a slash command (``club komi``: a group's subcommand) as a person whose
        Discord speaks ``locale``; returns the responses (callback and follow-ups)."""
        types = self.option_types(command)
        data = self.fake.command_data(command, self.fake.options(values, types))
        if resolved:
            data["resolved"] = resolved
        payload = self.fake.interaction(2, data, who, guild_id=guild_id, locale=locale)
        self.fake.dispatch(self.adapter.client, payload)
        return await self.fake.respond_to(payload)

    async def complete(self, command: str, option: str, current: str, who: dict[str, Any]) -> Any:
        """Ask for autocomplete choices; returns the callback body's choices."""
        types = self.option_types(command)
        focused = {"name": option, "type": types[option], "value": current, "focused": True}
        data = self.fake.command_data(command, [focused])
        payload = self.fake.interaction(4, data, who)
        self.fake.dispatch(self.adapter.client, payload)
        (call,) = await self.fake.respond_to(payload)
        assert call.body["type"] == 8  # APPLICATION_COMMAND_AUTOCOMPLETE_RESULT
        return call.body["data"]["choices"]

    async def press(
        self,
        custom_id: str,
        who: dict[str, Any],
        message_id: str | None = None,
        locale: str = "en-US",
    ) -> list[fd.Call]:
        """Press the button ``custom_id`` on the bot's message ``message_id``."""
        button = {"type": 2, "style": 2, "label": "button", "custom_id": custom_id}
        message = {
            "id": message_id or str(self.fake.new_id()),
            "channel_id": str(fd.CHANNEL_ID),
            "author": {**fd.discord_user(fd.BOT_USER_ID, "hoshi"), "bot": True},
            "content": "",
            "timestamp": "2026-03-01T12:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "components": [{"type": 1, "components": [button]}],
        }
        data = {"custom_id": custom_id, "component_type": 2}
        payload = self.fake.interaction(3, data, who, message=message, locale=locale)
        self.fake.dispatch(self.adapter.client, payload)
        return await self.fake.respond_to(payload)


@asynccontextmanager
async def discord_running(core: Core) -> AsyncIterator[DiscordBot]:
    """The adapter's client logged in to a fresh fake (REST only: no gateway)."""
    async with fd.FakeDiscord() as fake:
        adapter = DiscordAdapter(core, fd.TOKEN, DiscordConfig(guild_ids=(fd.GUILD_ID,)))
        await adapter.client.login(fd.TOKEN)
        try:
            yield DiscordBot(fake, adapter)
        finally:
            await adapter.client.close()


@pytest.fixture
async def discord_bot(core: Core) -> AsyncIterator[DiscordBot]:
    async with discord_running(core) as bot:
        yield bot


# --- catalogues ----------------------------------------------------------------------------


@pytest.fixture
def catalogues(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """``catalogues({"hu": {msgid: msgstr}})``: the bot reads these catalogues instead of its
    own for the test (to see a text the adapters show but another part of the bot
    translates, such as a command's summary)."""
    root = tmp_path / "locales"

    def install(messages: dict[str, dict[str, str]]) -> None:
        for language, entries in messages.items():
            catalog = Catalog(locale=language, domain="hoshi")
            for msgid, msgstr in entries.items():
                catalog.add(msgid, msgstr)
            path = root / language / "LC_MESSAGES" / "hoshi.po"
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as handle:
                write_po(handle, catalog)
        catalogue.cache_clear()

    monkeypatch.setattr(i18n_catalogues, "LOCALES", root)
    catalogue.cache_clear()
    try:
        yield install
    finally:
        catalogue.cache_clear()  # the real catalogues again after the test
