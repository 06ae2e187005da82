"""The README is a newcomer's page (issue 24): short, its links lead somewhere, and following
its Telegram and Discord steps gives a running bot (against the fake Bot API and the fake
Discord REST API, as a newcomer would against the real ones)."""

from __future__ import annotations

import asyncio
import io
import os
import re
import shlex
import signal
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from bot.adapters.discord import HoshiClient
from bot.cli import parser_of_hoshi
from bot.cli.common import configured
from bot.run import Bots, run_bots
from tests.bot.adapters.conftest import ADMIN, D_ADMIN, GROUP
from tests.fakes import discord as fd
from tests.fakes import telegram as ft

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES = 1 << 10, 1 << 11, 1 << 14, 1 << 15


def section(title: str) -> str:
    """The README's ``## title`` section, up to the next ``## ``."""
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else None]


def blocks(text: str, language: str) -> list[str]:
    """The fenced blocks of ``language`` in ``text``, dedented."""
    found = re.findall(rf"^( *)```{language}\n(.*?)^\1```", text, re.M | re.S)
    return ["\n".join(line[len(indent) :] for line in body.splitlines()) for indent, body in found]


def steps(title: str) -> tuple[str, list[str], str]:
    """What a section tells a newcomer to do: the environment variable it exports the token
    in, the ``hoshi`` command it runs, and the first command typed in the chat."""
    text = section(title)
    (shell,) = blocks(text, "sh")
    (variable,) = re.findall(r"^export (\w+)=", shell, re.M)
    (command,) = [line for line in shell.splitlines() if line.startswith("hoshi ")]
    first = re.findall(r"(/club new [^`\n]+)", text)[0]
    return variable, shlex.split(command)[1:], first


def test_the_readme_is_short_and_its_links_exist() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) < 12_000
    links = re.findall(r"\]\(([^)#]+)\)", text)
    local = [link for link in links if not re.match(r"https?://", link)]
    assert {"docs/systems.md", "docs/cli.md", "docs/scaling.md"} <= set(local)
    assert [link for link in local if not (ROOT / link).exists()] == []
    for page in sorted((ROOT / "docs").glob("*.md")):  # every page is linked …
        assert f"docs/{page.name}" in local, f"README does not link {page.name}"
        for link in re.findall(r"\]\(([^)#]+)\)", page.read_text(encoding="utf-8")):
            if not re.match(r"https?://", link):  # … and its own links lead somewhere
                assert (page.parent / link).exists(), f"{page.name}: {link}"


def test_ci_runs_exactly_the_readmes_test_command() -> None:
    (_, tests) = blocks(section("Two commands"), "sh")
    assert tests.strip() in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


async def test_the_telegram_steps_give_a_running_bot(tmp_path: Path) -> None:
    """The token in the variable the README names, the command it gives, the bot added to a
    group, the first command an administrator types there: the club is made."""
    variable, argv, first = steps("A Telegram bot")
    assert argv == ["run"]
    (tmp_path / "none.toml").write_text("", encoding="utf-8")
    async with ft.FakeBotApi() as api:
        api.admins[GROUP["id"]] = {ADMIN["id"]}
        env = {
            **os.environ,
            variable: ft.TOKEN,
            "TELEGRAM_API_BASE_URL": api.base_url,  # the fake in Telegram's place
            "TELEGRAM_FILE_BASE_URL": api.file_base_url,
            "HOSHI_CONFIG": str(tmp_path / "none.toml"),
            "HOSHI_DB": str(tmp_path / "hoshi.sqlite"),
        }
        env.pop("DISCORD_TOKEN", None)
        bot = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", *argv, cwd=ROOT, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        try:
            await api.wait_for("deleteWebhook", timeout=60)  # polling has begun
            api.command(first, GROUP, ADMIN)
            (reply,) = await api.wait_for("sendMessage", timeout=30)
            assert "Budapest Go Club" in reply.params["text"]
        finally:
            bot.send_signal(signal.SIGINT)
            _, err = await asyncio.wait_for(bot.communicate(), 30)
        assert bot.returncode == 0, err.decode()
        assert ft.TOKEN not in err.decode()


async def test_the_discord_steps_give_a_running_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's invite asks for the scopes and permissions hoshi uses and no privileged
    intent; with the token in its variable, the command it gives starts the bot, which makes
    the club at an organiser's first command."""
    variable, argv, first = steps("A Discord bot")
    (invite,) = re.findall(r"https://discord\.com/oauth2/authorize\S+", section("A Discord bot"))
    query = parse_qs(urlparse(invite).query)
    assert query["scope"] == ["bot applications.commands"]
    needed = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES
    assert int(query["permissions"][0]) == needed
    (tmp_path / "none.toml").write_text("", encoding="utf-8")
    monkeypatch.setenv(variable, fd.TOKEN)
    monkeypatch.delenv("TELEGRAM_TOKEN", raising=False)
    monkeypatch.setenv("HOSHI_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("HOSHI_DB", str(tmp_path / "hoshi.sqlite"))
    args = parser_of_hoshi().parse_args(argv)
    stop, running = asyncio.Event(), list[Bots]()
    async with fd.FakeDiscord() as fake:
        task = asyncio.create_task(
            run_bots(
                configured(args),
                db_path=args.db,
                stop=stop,
                on_started=running.append,
                err=io.StringIO(),
            )
        )
        await fake.wait_for(lambda calls: any(c.method == "PUT" for c in calls), 30)
        while not running:
            await asyncio.sleep(0.01)
        client = running[0].adapters["discord"].client  # type: ignore[attr-defined]
        assert isinstance(client, HoshiClient)
        assert not (client.intents.message_content or client.intents.members)
        assert not client.intents.presences
        name, system = first.removeprefix("/club new ").rsplit(" ", 1)
        options = [
            {"name": "name", "type": 3, "value": name},
            {"name": "system", "type": 3, "value": system},
        ]
        payload = fake.interaction(2, fake.command_data("club new", options), D_ADMIN)
        fake.dispatch(client, payload)
        (made,) = await fake.respond_to(payload)
        assert "Budapest Go Club" in made.data["content"]
        stop.set()
        assert await asyncio.wait_for(task, 10) == 0


def documented_options(command: str) -> set[str]:
    """The ``--options`` docs/cli.md lists for ``hoshi COMMAND``."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    heads = list(re.finditer(r"^## (.+)$", text, re.M))
    for i, head in enumerate(heads):
        if f"`hoshi {command}`" not in head[1]:
            continue
        body = text[head.end() : heads[i + 1].start() if i + 1 < len(heads) else None]
        label = rf"(?:`hoshi {command}` options|Options)" if " and " in head[1] else "Options"
        (line,) = re.findall(rf"^{label}: (.+?)\.\n", body, re.M | re.S)
        return set(re.findall(r"`(--[\w-]+)", line))
    raise AssertionError(f"docs/cli.md has no section for hoshi {command}")


def test_the_cli_page_lists_every_subcommands_options() -> None:
    """docs/cli.md says which options each subcommand takes: every one it has, none it has
    not (the old README claimed every subcommand took --db and --club)."""
    parser = parser_of_hoshi()
    (subcommands,) = [a for a in parser._actions if hasattr(a, "choices") and a.choices]
    for name, sub in subcommands.choices.items():  # type: ignore[union-attr]
        options = {
            flag
            for action in sub._actions
            for flag in action.option_strings
            if flag.startswith("--") and flag != "--help"
        }
        assert documented_options(name) == options, name


def test_the_security_section_gives_the_limits_the_servers_have() -> None:
    """Issue 26: the README's security paragraph is true word for word. Its numbers are the
    servers' own (bot.serving, the webhook), its test file exists, and each of its promises
    has a test: the probe (tests/reliability/test_http_probe.py), the hostile-input suite,
    /link's approval (tests/bot/core/test_help.py), the permission matrix."""
    from bot.adapters.telegram.webhook import BODY_S
    from bot.serving import IDLE_S, MAX_BODY, MAX_HEADERS, MAX_LINE

    text = " ".join(section("Security").split())
    assert f"request head within {IDLE_S:g} seconds" in text
    assert f"over {MAX_LINE:,} bytes, more than {MAX_HEADERS} headers" in text
    assert MAX_BODY == 1024 * 1024 and "a body over 1 MiB" in text
    assert f"408 to a body slower than {BODY_S:g} seconds" in text
    for path in re.findall(r"`(tests/[^`]+)`", text):
        assert (ROOT / path).exists(), path
