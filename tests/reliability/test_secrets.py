"""Secrets (issue 6/6, item 5): bot tokens never appear in logs, errors or exports.

``hoshi run`` is started as a real process at log level DEBUG against the fake Bot API, used
for a while (a club, results, a chart, exports, an imported file — whose download URL holds the
token —, a failing send), stopped, and everything it wrote is grepped: its whole log, every
message and file it sent, and the database file. A refused token — PTB's ``InvalidToken`` names
it, and the DEBUG log prints that traceback — must not leak either. The Discord adapter is
checked in this process with the same log set-up ``hoshi run`` installs.
"""

from __future__ import annotations

import asyncio
import io
import logging
import sys
import traceback
from pathlib import Path
from urllib.parse import quote

import pytest

from bot.config import Config
from bot.run import RedactTokens, run_bots
from tests.fakes import discord as fd
from tests.fakes import telegram as ft
from tests.reliability.conftest import ADMIN, GROUP
from tests.reliability.crashing import environment, wait_until

H9 = Path(__file__).resolve().parents[1] / "engine" / "formats" / "data" / "kis_kupa.h9"


def forms(token: str) -> list[str]:
    """The token as it may be written: as is, URL-encoded, and its secret half alone."""
    return [token, quote(token, safe=""), token.split(":", 1)[-1]]


def leaks(token: str, *texts: str | bytes) -> list[str]:
    found = []
    for text in texts:
        data = text if isinstance(text, bytes) else text.encode("utf-8", "replace")
        found += [form for form in forms(token) if form.encode() in data]
    return found


async def start_run(tmp_path: Path, api: ft.FakeBotApi, token: str) -> asyncio.subprocess.Process:
    config = tmp_path / "config.toml"
    config.write_text('[hoshi]\nlog_level = "DEBUG"\n', "utf-8")
    env = environment(
        tmp_path,
        TELEGRAM_TOKEN=token,
        TELEGRAM_API_BASE_URL=api.base_url,
        TELEGRAM_FILE_BASE_URL=api.file_base_url,
        HOSHI_CONFIG=str(config),
    )
    with (tmp_path / "hoshi.log").open("wb") as log:  # a full pipe would stop the bot
        return await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "run",
            "--db",
            str(tmp_path / "hoshi.sqlite"),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            env=env,
            cwd=tmp_path,
        )


async def test_a_whole_telegram_session_at_debug_level_never_shows_the_token(
    tmp_path: Path,
) -> None:
    async with ft.FakeBotApi() as api:
        api.admins[GROUP["id"]] = {ADMIN["id"]}
        process = await start_run(tmp_path, api, ft.TOKEN)
        try:
            await wait_until(lambda: bool(api.sent("deleteWebhook")), process, "polling", tmp_path)
            lines = [
                "/club new Secret Club mgsz",
                "/club set language en",
                "/register Nagy Péter 5k",
                "/register Kovács Anna 5k",
                "/result Nagy Péter Kovács Anna B+",
                "/chart Nagy Péter",
                "/export json",
                "/export csv",
                "/rating Nobody At All",
                "/club code",
            ]
            posted = [api.command(line, GROUP, ADMIN) for line in lines]
            posted.append(
                api.message(
                    "/tournament import", GROUP, ADMIN, document=("kis_kupa.h9", H9.read_bytes())
                )
            )
            wanted = {u["message"]["message_id"] for u in posted}
            await wait_until(lambda: wanted <= quoted(api), process, "the answers")
            api.fail_next["sendMessage"] = 1  # an answer that fails: an incident is logged
            api.command("/top", GROUP, ADMIN)
            await wait_until(
                lambda: any("Something went wrong" in c.params.get("text", "") for c in api.calls),
                process,
                "the incident",
            )
        finally:
            if process.returncode is None:
                process.terminate()
            await asyncio.wait_for(process.wait(), 30)
        log = (tmp_path / "hoshi.log").read_text("utf-8", "replace")
        assert "hoshi is running on telegram" in log  # the log was written …
        assert "DEBUG" in log and "incident" in log
        assert leaks(ft.TOKEN, log) == []  # … and never names the token
        sent = [str(c.params) for c in api.calls] + [
            data for c in api.calls for _, data in c.files.values()
        ]
        documents = [data for c in api.sent("sendDocument") for _, data in c.files.values()]
        assert len(documents) >= 2  # the exports
        assert leaks(ft.TOKEN, *sent) == []
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("hoshi.sqlite*"))
    assert b"Secret Club" in stored
    assert leaks(ft.TOKEN, stored) == []


async def test_a_refused_token_is_not_printed_even_at_debug_level(tmp_path: Path) -> None:
    """PTB refuses with ``InvalidToken("The token `…` was rejected by the server.")``."""
    wrong = "999999:WRONG-secret-value"
    async with ft.FakeBotApi() as api:
        process = await start_run(tmp_path, api, wrong)
        await asyncio.wait_for(process.wait(), 60)
    assert process.returncode == 1
    log = (tmp_path / "hoshi.log").read_text("utf-8", "replace")
    assert "telegram did not start: the token was rejected" in log
    assert "Traceback" in log  # the DEBUG log has the traceback, redacted
    assert leaks(wrong, log) == []


def test_tracebacks_and_stacks_are_redacted() -> None:
    token = "4242:TRACEBACK-SECRET"
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactTokens([token]))
    logger = logging.getLogger("hoshi.test.redact")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        try:
            raise RuntimeError(f"refused {token}")
        except RuntimeError:
            logger.exception("failed at %s", f"https://x/bot{token}/getMe")
        logger.error("where", stack_info=True, extra={"detail": token})
        logger.warning("".join(traceback.format_stack()) + token)
    finally:
        logger.removeHandler(handler)
    text = stream.getvalue()
    assert "refused <token>" in text and "https://x/bot<token>/getMe" in text
    assert token not in text


async def test_the_discord_adapter_logs_no_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """discord.py at DEBUG, through the handler filter ``hoshi run`` installs on every log
    handler (bot.run.configure_logging), with a login refused and one accepted."""
    monkeypatch.delenv("TELEGRAM_TOKEN", raising=False)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    level = root.level
    for token, reject in (("bad-discord-token-SECRET", True), (fd.TOKEN, False)):
        monkeypatch.setenv("DISCORD_TOKEN", token)
        handler.filters.clear()
        handler.addFilter(RedactTokens([token]))
        root.addHandler(handler)
        root.setLevel(logging.DEBUG)
        try:
            async with fd.FakeDiscord() as fake:
                fake.reject_token = reject
                stop = asyncio.Event()
                err = io.StringIO()
                task = asyncio.create_task(
                    run_bots(Config(db_path=tmp_path / "hoshi.sqlite"), stop=stop, err=err)
                )
                if not reject:
                    await fake.wait_for(lambda calls: any(c.method == "PUT" for c in calls))
                    stop.set()
                code = await asyncio.wait_for(task, 30)
        finally:
            root.removeHandler(handler)
            root.setLevel(level)
        assert code == (1 if reject else 0)
        assert leaks(token, stream.getvalue(), err.getvalue()) == []
    assert "DEBUG discord" in stream.getvalue()  # discord.py did log at DEBUG


def quoted(api: ft.FakeBotApi) -> set[int]:
    """The messages the bot's answers quote."""
    return {
        (c.params.get("reply_parameters") or {}).get("message_id")
        for c in api.calls
        if c.method in ("sendMessage", "sendPhoto", "sendDocument")
    }
