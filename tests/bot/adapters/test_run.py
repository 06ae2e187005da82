"""``hoshi run``: the adapters with tokens, one loop, one database, one core."""

from __future__ import annotations

import asyncio
import io
import logging
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import Config, TelegramConfig
from bot.core.replies import Notice, Reply
from bot.run import Bots, RedactTokens, run_bots
from tests.bot.adapters.conftest import ADMIN, D_ADMIN, GROUP
from tests.fakes import discord as fd
from tests.fakes import telegram as ft


@pytest.fixture
def no_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TELEGRAM_TOKEN", raising=False)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)


def config_file(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'[hoshi]\ndb_path = "{tmp_path / "hoshi.sqlite"}"\n{extra}', "utf-8")
    return path


def test_without_tokens_it_points_to_the_console(
    no_tokens: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "--config", str(config_file(tmp_path))]) == 2
    err = capsys.readouterr().err
    assert "TELEGRAM_TOKEN" in err and "DISCORD_TOKEN" in err
    assert f"hoshi console --config {tmp_path / 'config.toml'}" in err  # the options kept
    assert not (tmp_path / "hoshi.sqlite").exists()  # nothing opened


async def test_both_platforms_share_one_core(
    no_tokens: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("TELEGRAM_TOKEN", ft.TOKEN)
    monkeypatch.setenv("DISCORD_TOKEN", fd.TOKEN)
    stop = asyncio.Event()
    async with ft.FakeBotApi() as api, fd.FakeDiscord() as fake:
        api.admins[GROUP["id"]] = {ADMIN["id"]}
        config = Config(
            db_path=tmp_path / "hoshi.sqlite",
            telegram=TelegramConfig(api_base_url=api.base_url, file_base_url=api.file_base_url),
        )
        running: list[Bots] = []
        task = asyncio.create_task(
            run_bots(config, stop=stop, on_started=running.append, err=io.StringIO())
        )
        await api.wait_for("deleteWebhook")  # polling has begun
        await fake.wait_for(lambda calls: any(c.method == "PUT" for c in calls))
        while not running:
            await asyncio.sleep(0.01)
        (bots,) = running
        assert set(bots.adapters) == {"telegram", "discord"}
        telegram, discord = bots.adapters["telegram"], bots.adapters["discord"]
        assert telegram.core is discord.core  # type: ignore[attr-defined]
        # a club made on Telegram …
        api.command("/club new Shared Club mgsz", GROUP, ADMIN)
        await api.wait_for("sendMessage")
        api.command("/club set language en", GROUP, ADMIN)
        await api.wait_for("sendMessage", 2)
        api.command("/register Nagy Péter 5k", GROUP, ADMIN)
        await api.wait_for("sendMessage", 3)
        api.command("/club code", GROUP, ADMIN)
        (code_call, *_) = (await api.wait_for("sendMessage", 5))[3:]
        code = code_call.params["text"].split("Join code for Shared Club: ")[1].split()[0]
        # … joined from Discord sees the same players
        options = [{"name": "code", "type": 3, "value": code}]
        payload = fake.interaction(2, fake.command_data("club join", options), D_ADMIN)
        fake.dispatch(discord.client, payload)  # type: ignore[attr-defined]
        (joined,) = await fake.respond_to(payload)
        assert "Shared Club" in joined.body["data"]["content"]
        payload = fake.interaction(
            2,
            {
                "id": "1",
                "name": "rating",
                "type": 1,
                "options": [{"name": "name", "type": 3, "value": "nagy"}],
            },
            fd.member(5, "Someone", fd.MEMBER_PERMISSIONS),
        )
        fake.dispatch(discord.client, payload)  # type: ignore[attr-defined]
        (card,) = await fake.respond_to(payload)
        assert card.body["data"]["embeds"][0]["title"] == "Nagy Péter — 5k"
        # a notice reaches every bound chat of a running platform
        sent = await bots.deliver(Notice(1, Reply.text("Weekly summary")))
        assert sent >= 1
        assert any("Weekly summary" in c.params["text"] for c in api.sent("sendMessage"))
        # … and a member's own board reaches them in private on each platform (issue 25)
        told = Notice(1, Reply.text("Board 3: you play Black"), accounts=PRIVATE)
        assert await bots.deliver(told) == 2
        assert any(
            str(c.params["chat_id"]) == PRIVATE[0][1] and "Board 3" in c.params["text"]
            for c in api.sent("sendMessage")
        )
        assert any(
            c.path == f"/channels/{fd.DM_CHANNEL_ID}/messages" and "Board 3" in str(c.body)
            for c in fake.calls
        )
        stop.set()
        assert await asyncio.wait_for(task, 10) == 0


PRIVATE = (("telegram", "4242"), ("discord", "5"))
"""Two members' accounts, one on each platform."""


async def test_a_rejected_token_is_reported_without_echoing_it(
    no_tokens: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    wrong = "999999:WRONG-token-value"
    monkeypatch.setenv("TELEGRAM_TOKEN", wrong)
    async with ft.FakeBotApi() as api:
        config = Config(
            db_path=tmp_path / "hoshi.sqlite",
            telegram=TelegramConfig(api_base_url=api.base_url, file_base_url=api.file_base_url),
        )
        err = io.StringIO()
        assert await run_bots(config, err=err) == 1
    assert "telegram did not start: the token was rejected" in err.getvalue()
    assert wrong not in err.getvalue()


async def test_a_rejected_discord_token_stops_the_started_telegram_bot(
    no_tokens: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("TELEGRAM_TOKEN", ft.TOKEN)
    monkeypatch.setenv("DISCORD_TOKEN", "bad-discord-token")
    async with ft.FakeBotApi() as api, fd.FakeDiscord() as fake:
        fake.reject_token = True
        config = Config(
            db_path=tmp_path / "hoshi.sqlite",
            telegram=TelegramConfig(api_base_url=api.base_url, file_base_url=api.file_base_url),
        )
        err = io.StringIO()
        assert await run_bots(config, err=err) == 1
        assert api.sent("deleteWebhook")  # Telegram had started, and was stopped again
    assert "discord did not start: the token was rejected" in err.getvalue()
    assert "bad-discord-token" not in err.getvalue()


def test_tokens_are_blanked_out_of_log_lines() -> None:
    record = logging.LogRecord(
        "httpx", logging.INFO, __file__, 1, "POST %s", ("https://x/bot123:SECRET/getMe",), None
    )
    assert RedactTokens(["123:SECRET"]).filter(record)
    assert record.getMessage() == "POST https://x/bot<token>/getMe"


async def test_hoshi_run_serves_the_pages_and_keeps_the_site_current(
    no_tokens: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``[web] enabled`` and ``site_dir`` (issue 14): the web server runs beside the bot on
    the same loop, and a write through the chat reaches the static site."""
    import socket

    import aiohttp

    from bot.config import WebConfig

    with socket.socket() as probe:  # a free port on 127.0.0.1
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("TELEGRAM_TOKEN", ft.TOKEN)
    stop = asyncio.Event()
    site = tmp_path / "site"
    async with ft.FakeBotApi() as api:
        api.admins[GROUP["id"]] = {ADMIN["id"]}
        config = Config(
            db_path=tmp_path / "hoshi.sqlite",
            telegram=TelegramConfig(api_base_url=api.base_url, file_base_url=api.file_base_url),
            web=WebConfig(
                enabled=True, port=port, base_url=f"http://127.0.0.1:{port}", site_dir=site
            ),
        )
        started = asyncio.Event()  # on_started: after the web server is up, too
        task = asyncio.create_task(
            run_bots(config, stop=stop, on_started=lambda _: started.set(), err=io.StringIO())
        )
        await api.wait_for("deleteWebhook")
        lines = ("/club new Web Club mgsz", "/club set language en", "/register Nagy Péter 5k")
        for n, line in enumerate((*lines, "/club web on"), start=1):
            api.command(line, GROUP, ADMIN)
            await api.wait_for("sendMessage", n)
        assert "/1-web-club/en/" in api.sent("sendMessage")[-1].params["text"]
        await asyncio.wait_for(started.wait(), 10)  # the bot answers before the pages serve
        async with (
            aiohttp.ClientSession() as http,
            # everyone's list: Nagy Péter has no game yet, so no active player (issue 22)
            http.get(f"http://127.0.0.1:{port}/1-web-club/en/all.html") as response,
        ):
            assert response.status == 200
            assert "Nagy Péter" in await response.text()
        stop.set()
        assert await asyncio.wait_for(task, 10) == 0
    # the refresh waits for writes to pause (5 s); stopping does the one still waiting
    assert "Nagy Péter" in (site / "1-web-club" / "en" / "all.html").read_text("utf-8")


async def test_hoshi_run_reports_its_health_and_metrics_on_the_web_port(
    no_tokens: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``/healthz`` checks the adapters ``hoshi run`` started (issue 23, Hosting): 200 while
    both run, 503 naming the one that stopped; ``/metrics`` counts what came from each."""
    import socket

    import aiohttp
    from prometheus_client.parser import text_string_to_metric_families

    from bot.config import WebConfig

    with socket.socket() as probe:  # a free port on 127.0.0.1
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("TELEGRAM_TOKEN", ft.TOKEN)
    monkeypatch.setenv("DISCORD_TOKEN", fd.TOKEN)
    stop = asyncio.Event()
    async with ft.FakeBotApi() as api, fd.FakeDiscord() as fake, aiohttp.ClientSession() as http:
        api.admins[GROUP["id"]] = {ADMIN["id"]}
        config = Config(
            db_path=tmp_path / "hoshi.sqlite",
            telegram=TelegramConfig(api_base_url=api.base_url, file_base_url=api.file_base_url),
            web=WebConfig(enabled=True, port=port),  # no club has its pages on
        )
        running: list[Bots] = []
        task = asyncio.create_task(
            run_bots(config, stop=stop, on_started=running.append, err=io.StringIO())
        )
        await api.wait_for("deleteWebhook")
        await fake.wait_for(lambda calls: any(c.method == "PUT" for c in calls))
        while not running:
            await asyncio.sleep(0.01)
        (bots,) = running
        base = f"http://127.0.0.1:{port}"
        async with http.get(base + "/healthz") as response:
            assert response.status == 200
            assert await response.json() == {
                "status": "ok",
                "database": "ok",
                "adapters": {"telegram": "running", "discord": "running"},
            }
        api.command("/club new Health Club mgsz", GROUP, ADMIN)
        await api.wait_for("sendMessage")
        async with http.get(base + "/metrics") as response:
            text = await response.text()
        counted = {
            sample.labels["adapter"]: sample.value
            for family in text_string_to_metric_families(text)
            for sample in family.samples
            if sample.name == "hoshi_updates_total"
        }
        assert counted == {"telegram": 1.0}
        await bots.adapters["discord"].stop()
        async with http.get(base + "/healthz") as response:
            assert response.status == 503
            assert (await response.json())["adapters"] == {
                "telegram": "running",
                "discord": "stopped",
            }
        await bots.adapters["telegram"].stop()
        async with http.get(base + "/healthz") as response:
            assert response.status == 503
            assert (await response.json())["adapters"]["telegram"] == "stopped"
        stop.set()
        assert await asyncio.wait_for(task, 10) == 0
