"""The weekly summary reaches a Telegram group and a Discord server of the same club (issue
4/6): ``hoshi run`` with both adapters against the fake servers and a hand-moved clock."""

from __future__ import annotations

import asyncio
import datetime as dt
import io
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.config import Config, TelegramConfig
from bot.run import Bots, run_bots
from tests.bot.adapters.conftest import ADMIN, D_ADMIN, GROUP
from tests.fakes import discord as fd
from tests.fakes import telegram as ft


async def test_the_weekly_summary_is_posted_to_both_platforms(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("TELEGRAM_TOKEN", ft.TOKEN)
    monkeypatch.setenv("DISCORD_TOKEN", fd.TOKEN)
    clock = FakeClock(dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC))  # a Monday
    stop = asyncio.Event()
    async with ft.FakeBotApi() as api, fd.FakeDiscord() as fake:
        api.admins[GROUP["id"]] = {ADMIN["id"]}
        config = Config(
            db_path=tmp_path / "hoshi.sqlite",
            telegram=TelegramConfig(api_base_url=api.base_url, file_base_url=api.file_base_url),
        )
        running: list[Bots] = []
        task = asyncio.create_task(
            run_bots(config, stop=stop, on_started=running.append, err=io.StringIO(), clock=clock)
        )
        await api.wait_for("deleteWebhook")
        await fake.wait_for(lambda calls: any(c.method == "PUT" for c in calls))
        while not running:
            await asyncio.sleep(0.01)
        (bots,) = running
        discord = bots.adapters["discord"]
        discord.client._connection.parse_guild_create(fd.guild_create())  # type: ignore[attr-defined]
        # the club starts in the Telegram group …
        lines = (
            "/club new Shared Club mgsz",
            "/club set language en",
            "/register Nagy Péter 5k",
            "/register Kovács Anna 5k",
            "/result Nagy Péter Kovács Anna B+",
            "/weekly on mon 18:00",
            "/club code",
        )
        for sent, line in enumerate(lines, 1):
            api.command(line, GROUP, ADMIN)
            calls = await api.wait_for("sendMessage", sent)
        code = calls[-1].params["text"].split("Join code for Shared Club: ")[1].split()[0]
        # … and the Discord server joins it
        payload = fake.interaction(
            2,
            fake.command_data("club join", [{"name": "code", "type": 3, "value": code}]),
            D_ADMIN,
        )
        fake.dispatch(discord.client, payload)  # type: ignore[attr-defined]
        (joined,) = await fake.respond_to(payload)
        assert "Shared Club" in joined.body["data"]["content"]
        # Monday 18:00 passes
        clock.set(dt.datetime(2026, 3, 2, 18, 1, tzinfo=dt.UTC))
        done = await bots.core.scheduler.run_due()  # type: ignore[union-attr]
        assert "Shared Club: weekly summary Mar 2, 2026" in done
        telegram_posts = [
            c
            for c in api.sent("sendMessage") + api.sent("sendPhoto")
            if "the week" in str(c.params.get("text") or c.params.get("caption"))
        ]
        discord_posts = [
            c
            for c in fake.calls
            if c.method == "POST" and c.path.endswith(f"/channels/{fd.CHANNEL_ID}/messages")
        ]
        assert telegram_posts, "the Telegram group got no summary"
        assert discord_posts, "the Discord server got no summary"
        assert "the week" in str(discord_posts[0].body)
        # a second run of the same occurrence posts nothing
        before = len(api.sent("sendMessage")), len(discord_posts)
        assert await bots.core.scheduler.run_due() == []  # type: ignore[union-attr]
        assert len(api.sent("sendMessage")) == before[0]
        stop.set()
        assert await asyncio.wait_for(task, 10) == 0
