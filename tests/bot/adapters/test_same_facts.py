"""One club session — register, result, rating — on the console, Telegram and Discord gives the
same facts; and every public command of the table is reachable on both chat platforms."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator, Callable
from html import unescape
from pathlib import Path
from typing import Any

import pytest

import storage
from bot.adapters.console import Console, chat_id
from bot.adapters.telegram.menu import bot_commands
from bot.config import Config
from bot.core.app import Core
from bot.core.command_table import public_commands
from bot.core.commands import ORGANISER
from tests.bot.adapters.conftest import (
    ADMIN,
    D_ADMIN,
    D_PLAYER,
    GROUP,
    PLAYER,
    DiscordBot,
    TelegramBot,
    discord_running,
    fixed_clock,
)

SESSION = (
    ("organiser", "/register Nagy Péter 5k"),
    ("organiser", "/register Kovács Anna 6k"),
    ("organiser", "/register Szabó Éva 3k 1950"),
    ("organiser", "/result Nagy Péter Kovács Anna B+"),
    ("organiser", "/result Nagy Péter Szabó Éva B+ h=2"),
)
QUESTIONS = (
    "/rating Nagy Péter",
    "/rating kovacs anna",
    "/rating Szabo Eva",
    "/top",
    "/history Nagy Péter",
    "/handicap Nagy Péter Szabó Éva",
)


def lines(text: str) -> list[str]:
    """The facts a person reads, independent of markup: non-empty, stripped lines."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def from_html(html: str) -> str:
    return unescape(re.sub(r"</?(b|i|pre|code)>", "", html))


def from_markdown(text: str) -> str:
    text = text.replace("```", "")
    text = re.sub(r"\*\*(.*?)\*\*", r"\1", text, flags=re.DOTALL)
    return re.sub(r"\\([\\*_~`|>#-])", r"\1", text)


async def open_core(path: Path) -> Core:
    db = await storage.open_db(path, clock=fixed_clock)
    return Core(db, Config(), clock=fixed_clock)


@pytest.fixture
async def cores(tmp_path: Path) -> AsyncIterator[Callable[[str], Any]]:
    opened: list[Core] = []

    async def make(name: str) -> Core:
        core = await open_core(tmp_path / f"{name}.sqlite")
        opened.append(core)
        return core

    yield make
    for core in opened:
        await core.db.close()


async def console_session(core: Core, system: str, tmp_path: Path) -> list[list[str]]:
    club = await storage.create_club(core.db, "Test Club", system, actor="console:local")
    await storage.set_setting(core.db, club, "language", "en", actor="console:local")
    await storage.bind_chat(core.db, club, "console", chat_id(club), actor="console:local")
    console = Console(core, club, io.StringIO(), tmp_path / "charts")
    for _, line in SESSION:
        reply = await console.run_line(line)
        assert not reply.error, reply.as_text()
    answers = []
    for question in QUESTIONS:
        reply = await console.run_line(question)
        assert not reply.error, reply.as_text()
        answers.append(lines(reply.as_text()))
    return answers


async def telegram_session(bot: TelegramBot, system: str) -> list[list[str]]:
    bot.api.admins[GROUP["id"]] = {ADMIN["id"]}
    await bot.say(f"/club new Test Club {system}", GROUP, ADMIN)
    await bot.say("/club set language en", GROUP, ADMIN)  # the facts below are read in English
    for _, line in SESSION:
        await bot.say(line, GROUP, ADMIN)
    answers = []
    for question in QUESTIONS:
        calls = await bot.say(question, GROUP, PLAYER)
        text = "\n".join(c.params["text"] for c in calls if c.method == "sendMessage")
        answers.append(lines(from_html(text)))
    return answers


def discord_call(line: str) -> tuple[str, dict[str, Any]]:
    """A typed line as slash-command options (what a Discord user fills in)."""
    name = line.lstrip("/").split(" ", 1)[0]
    spec: dict[str, dict[str, Any]] = {
        "/register Nagy Péter 5k": {"name": "Nagy Péter", "rank": "5k"},
        "/register Kovács Anna 6k": {"name": "Kovács Anna", "rank": "6k"},
        "/register Szabó Éva 3k 1950": {"name": "Szabó Éva", "rank": "3k", "rating": 1950},
        "/result Nagy Péter Kovács Anna B+": {
            "black": "Nagy Péter",
            "white": "Kovács Anna",
            "result": "B+",
        },
        "/result Nagy Péter Szabó Éva B+ h=2": {
            "black": "Nagy Péter",
            "white": "Szabó Éva",
            "result": "B+",
            "h": 2,
        },
        "/rating Nagy Péter": {"name": "Nagy Péter"},
        "/rating kovacs anna": {"name": "kovacs anna"},
        "/rating Szabo Eva": {"name": "Szabo Eva"},
        "/top": {},
        "/history Nagy Péter": {"name": "Nagy Péter"},
        "/handicap Nagy Péter Szabó Éva": {"a": "Nagy Péter", "b": "Szabó Éva"},
    }
    return name, spec[line]


async def discord_session(bot: DiscordBot, system: str) -> list[list[str]]:
    await bot.slash("club", D_ADMIN, action="new", value=f"Test Club {system}")
    await bot.slash("club", D_ADMIN, action="set", value="language en")
    for _, line in SESSION:
        name, values = discord_call(line)
        await bot.slash(name, D_ADMIN, **values)
    answers = []
    for question in QUESTIONS:
        name, values = discord_call(question)
        calls = await bot.slash(name, D_PLAYER, **values)
        parts = []
        for call in calls:
            data = call.body.get("data", call.body) if "type" in call.body else call.body
            parts.append(data.get("content") or "")
            for embed in data.get("embeds") or []:
                parts += [embed.get("title", ""), embed.get("description", "")]
        answers.append(lines(from_markdown("\n".join(parts))))
    return answers


@pytest.mark.parametrize(
    ("system", "fact"),
    [
        ("mgsz", "pending club games: 2"),  # MGSZ rates club games per period (§1.4)
        ("tensuusei", "2 rated games"),  # Tensuusei moves points game by game (§2)
    ],
    ids=["mgsz", "tensuusei"],
)
async def test_console_telegram_and_discord_give_the_same_facts(
    cores: Callable[[str], Any],
    telegram_factory: Callable[..., Any],
    tmp_path: Path,
    system: str,
    fact: str,
) -> None:
    console = await console_session(await cores("console"), system, tmp_path)
    async with telegram_factory(await cores("telegram")) as bot:
        telegram = await telegram_session(bot, system)
    async with discord_running(await cores("discord")) as dbot:
        discord = await discord_session(dbot, system)
    for question, c, t, d in zip(QUESTIONS, console, telegram, discord, strict=True):
        assert t == c, question
        assert d == c, question
    card = "\n".join(console[0])
    assert card.startswith("Nagy Péter — 5k")
    assert fact in card


# --- every command on both platforms -------------------------------------------------------


def test_every_public_command_is_in_telegrams_menu_and_discords_tree() -> None:
    public = [c.name for c in public_commands()]
    assert public, "the command table is empty"
    assert [c.command for c in bot_commands(public_commands())] == public


async def test_every_public_command_is_answered_on_both_platforms(
    telegram: TelegramBot, discord_bot: DiscordBot
) -> None:
    """Each command of the table, invoked bare on each platform, reaches the core: the
    answer is never "there is no command"."""
    tree = {c.name for c in discord_bot.adapter.tree.get_commands()}
    assert tree == {c.name for c in public_commands()}
    for cmd in public_commands():
        calls = await telegram.say(
            f"/{cmd.name}", GROUP, ADMIN if cmd.access == ORGANISER else PLAYER
        )
        sent = [c.params["text"] for c in calls if c.method == "sendMessage"]
        assert sent, cmd.name
        assert "There is no command" not in sent[0], cmd.name
        slash = discord_bot.adapter.tree.get_command(cmd.name)
        assert slash is not None
        required = {
            p.display_name: ("x" if p.type.value == 3 else 1)
            for p in slash.parameters  # type: ignore[union-attr]
            if p.required
        }
        who = D_ADMIN if cmd.access == ORGANISER else D_PLAYER
        answers = await discord_bot.slash(cmd.name, who, **required)
        assert answers, cmd.name
        body = answers[0].body
        assert body["type"] in (4, 5, 9), cmd.name  # a message, a deferral or a form
        assert "There is no command" not in str(body), cmd.name
