"""Permissions (issue 6/6, item 4): every command × every kind of caller × every platform.

Callers: an anonymous member, a player (named like a registered player, not linked), a linked
player, a named organiser, the chat's administrator, and the administrator of another club's
chat. Platforms: Telegram (the real PTB adapter on the fake Bot API), Discord (the real
discord.py tree on the fake REST API, as slash commands) and the console (the core with console
identities: the real console has one user, its operator, who is the chat administrator).

The expected cell comes from bot.md, written out below (never from the command table): players'
commands are for everyone; organisers' commands for organisers and chat administrators; a
player may report (/result) and confirm or dispute only their own game. A refused cell must
say so and change nothing; an allowed one must not be refused — and a write must succeed.

Besides the matrix: a club is never left without an organiser, a chat administrator can always
recover it, and one club's chat can neither read nor write another club's data.
"""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import storage
from bot.config import Config
from bot.core.app import Core
from bot.core.invocation import Caller, Invocation
from bot.core.replies import Reply
from engine.ranks import Rank
from engine.types import Result
from storage.db import Database
from tests.bot.adapters.conftest import DiscordBot, discord_running
from tests.fakes import discord as fd
from tests.fakes import telegram as ft
from tests.reliability.conftest import Clock, table_rows, telegram_on, texts

ROLES = ("anonymous", "player", "linked", "organiser", "admin", "other-admin")
ACCOUNT = {
    "anonymous": 500,
    "player": 400,
    "linked": 300,
    "organiser": 200,
    "admin": 100,
    "other-admin": 600,
}
NAME = {  # the player role is called like a registered player (Szabó Éva): that grants nothing
    "anonymous": ("Anon", None),
    "player": ("Éva", "Szabó"),
    "linked": ("Anna", "Kovács"),
    "organiser": ("Olga", "Organiser"),
    "admin": ("Ági", "Admin"),
    "other-admin": ("Béla", "Kiss"),
}
A_TELEGRAM, B_TELEGRAM = -1001, -2002
A_GUILD, B_GUILD = fd.GUILD_ID, fd.GUILD_ID + 7
EVERYONE = frozenset(ROLES)
ORGANISERS = frozenset({"organiser", "admin"})
OWN_GAME = ORGANISERS | {"linked"}  # the linked player is Kovács Anna, the report's opponent


@dataclass(frozen=True)
class Cell:
    """A command as typed (``{report}``, ``{game}`` filled in) and as Discord options, who
    may run it (bot.md), whether an allowed run writes (so it must succeed), and who of the
    allowed only asks (a member's /link waits for an organiser: it must change nothing)."""

    line: str
    options: dict[str, Any]
    allowed: frozenset[str]
    writes: bool
    asks: frozenset[str] = frozenset()


CELLS: dict[str, Cell] = {
    "help": Cell("/help rating", {"command": "rating"}, EVERYONE, False),
    "rating": Cell("/rating Nagy Péter", {"name": "Nagy Péter"}, EVERYONE, False),
    "chart": Cell("/chart Nagy Péter", {"name": "Nagy Péter"}, EVERYONE, False),
    "top": Cell("/top", {}, EVERYONE, False),
    "history": Cell("/history Nagy Péter", {"name": "Nagy Péter"}, EVERYONE, False),
    "handicap": Cell(
        "/handicap Nagy Péter Tóth Ádám", {"a": "Nagy Péter", "b": "Tóth Ádám"}, EVERYONE, False
    ),
    "multiplier": Cell("/multiplier 60m", {"time": "60m"}, EVERYONE, False),
    "promotion": Cell("/promotion Nagy Péter", {"name": "Nagy Péter"}, EVERYONE, False),
    "summary": Cell("/summary", {}, EVERYONE, False),
    "link": Cell("/link Tóth Ádám", {"name": "Tóth Ádám"}, EVERYONE, True, EVERYONE - ORGANISERS),
    "result": Cell(
        "/result Kovács Anna Szabó Éva B+",
        {"black": "Kovács Anna", "white": "Szabó Éva", "result": "B+"},
        OWN_GAME,
        True,
    ),
    "confirm": Cell("/confirm {report}", {"game_id": "{report}"}, OWN_GAME, True),
    "dispute": Cell(
        "/dispute {report} wrong colours",
        {"game_id": "{report}", "reason": "wrong colours"},
        OWN_GAME,
        True,
    ),
    "undo": Cell("/undo", {}, ORGANISERS, True),
    "void": Cell("/void {game}", {"game_id": "{game}"}, ORGANISERS, True),
    "correct": Cell(
        "/correct {game} result=W+",
        {"game_id": "{game}", "result": "W+"},
        ORGANISERS,
        True,
    ),
    "register": Cell(
        "/register Új Játékos 10k", {"name": "Új Játékos", "rank": "10k"}, ORGANISERS, True
    ),
    "override": Cell(
        '/override Nagy Péter rank=3k reason="committee"',
        {"name": "Nagy Péter", "rank": "3k", "reason": "committee"},
        ORGANISERS,
        True,
    ),
    "egf": Cell("/egf Nagy Péter 2045", {"name": "Nagy Péter", "rating": 2045}, ORGANISERS, True),
    "weekly": Cell("/weekly on", {"state": "on"}, ORGANISERS, True),
    "club": Cell("/club show", {}, ORGANISERS, False),
    "export": Cell("/export csv", {"format": "csv"}, ORGANISERS, False),
    "tournament": Cell("/tournament new Matrix Cup", {"name": "Matrix Cup"}, ORGANISERS, True),
    "tick": Cell("/tick 1d", {}, frozenset(), False),  # console only: unknown elsewhere
    # anyone may ask for a game's SGF (issue 25); recording one is /result's permission
    "sgf": Cell("/sgf game={game}", {"game": "{game}"}, EVERYONE, False),
}


def test_the_matrix_covers_every_command() -> None:
    from bot.core.command_table import COMMANDS

    assert set(CELLS) == set(COMMANDS)


# --- the template club ---------------------------------------------------------------------


@dataclass(frozen=True)
class Template:
    path: Path
    report: int  # a pending report by Nagy Péter's account, Kovács Anna the opponent
    game: int  # a B+ game recorded by the organiser


async def build_template(path: Path, platform: str) -> Template:
    """Club A (this platform's chat; players; an organiser; the linked player; a report) and
    club B (another chat, administered by ``other-admin``, who is also B's organiser)."""
    clock = Clock()
    db = await storage.open_db(path, clock=clock)
    try:
        chat_a, chat_b = chats(platform)
        admin, organiser = identity(platform, "admin"), identity(platform, "organiser")
        other = identity(platform, "other-admin")
        a = await storage.create_club(db, "Óbuda Go Club", "mgsz", actor=admin)
        await storage.set_setting(db, a, "language", "en", actor=admin)
        await storage.bind_chat(db, a, platform, chat_a, actor=admin)
        await storage.add_organiser(db, a, organiser, actor=admin)
        await storage.set_setting(db, a, "reports", "on", actor=admin)
        day = clock().date() - dt.timedelta(days=20)
        ids = {}
        for name in ("Nagy Péter", "Kovács Anna", "Szabó Éva", "Tóth Ádám"):
            ids[name] = (
                await storage.register_player(db, a, name, Rank.kyu(5), date=day, actor=admin)
            ).id
        await storage.link_account(
            db, a, ids["Kovács Anna"], platform, str(ACCOUNT["linked"]), actor=admin
        )
        await storage.link_account(db, a, ids["Nagy Péter"], platform, "301", actor=admin)
        game = (
            await storage.record_game(
                db,
                a,
                storage.new_game(
                    ids["Nagy Péter"], ids["Tóth Ádám"], Result.BLACK, stones=0, komi=7, date=day
                ),
                actor=organiser,
            )
        ).row
        report = (
            await storage.record_game(
                db,
                a,
                storage.new_game(
                    ids["Nagy Péter"],
                    ids["Kovács Anna"],
                    Result.BLACK,
                    stones=0,
                    komi=7,
                    date=clock().date(),
                    reported=clock().date(),
                ),
                actor=f"{platform}:301",
                pending=True,
            )
        ).row
        await storage.record_egf(  # the administrator's last entry, for /undo
            db, a, ids["Szabó Éva"], 1850, year=day.year, month=day.month, actor=admin
        )
        b = await storage.create_club(db, "Szeged Go Club", "psg", actor=other)
        await storage.set_setting(db, b, "language", "en", actor=other)
        await storage.bind_chat(db, b, platform, chat_b, actor=other)
        await storage.register_player(db, b, "Nagy Péter", Rank.kyu(8), date=day, actor=other)
    finally:
        await db.close()
    return Template(path, report.number, game.number)


def chats(platform: str) -> tuple[str, str]:
    if platform == "telegram":
        return str(A_TELEGRAM), str(B_TELEGRAM)
    if platform == "discord":
        return str(A_GUILD), str(B_GUILD)
    return "club-a", "club-b"


def identity(platform: str, role: str) -> str:
    return f"{platform}:{ACCOUNT[role]}"


class RecordingCore(Core):
    """The core, keeping what it answered (the platform shows it in its own way)."""

    replies: list[Reply]

    async def handle(self, inv: Invocation) -> Reply:
        reply = await super().handle(inv)
        self.replies.append(reply)
        return reply


class Cells:
    """Opens a fresh copy of the template whenever the previous cell changed it."""

    def __init__(self, template: Template, scratch: Path) -> None:
        self.template = template
        self.scratch = scratch
        self.db: Database | None = None
        self.core: RecordingCore | None = None
        self.copies = 0

    async def fresh(self) -> RecordingCore:
        if self.core is not None:
            return self.core
        if self.db is not None:
            await self.db.close()
        self.copies += 1
        path = self.scratch / f"cell-{self.copies}.sqlite"
        shutil.copyfile(self.template.path, path)
        clock = Clock()
        self.db = await storage.open_db(path, clock=clock)
        config = Config(db_path=path, charts_dir=self.scratch)
        self.core = RecordingCore(self.db, config, clock=clock)
        self.core.replies = []
        return self.core

    def spoilt(self) -> None:
        self.core = None

    async def close(self) -> None:
        if self.db is not None:
            await self.db.close()


def judge(
    platform: str, command: str, role: str, reply: Reply, before: Any, after: Any
) -> list[str]:
    """What is wrong with one cell (an empty list: the cell passes)."""
    cell = CELLS[command]
    text = reply.as_text()
    where = f"{platform} /{command} as {role}"
    if "Something went wrong" in text:
        return [f"{where}: a crash: {text}"]
    allowed = role in cell.allowed or (platform == "console" and command == "tick")
    refused = reply.error and reply.private
    if command == "tick" and platform != "console":
        if "There is no command /tick" not in text or after != before:
            return [f"{where}: /tick must be unknown outside the console: {text!r}"]
        return []
    if not allowed:
        problems = [] if refused else [f"{where}: not refused: {text!r}"]
        if after != before:
            problems.append(f"{where}: the refusal changed the database")
        return problems
    if refused:
        return [f"{where}: refused: {text!r}"]
    if role in cell.asks:
        return [] if after == before else [f"{where}: wrote without an organiser: {text!r}"]
    if cell.writes and (reply.error or after == before):
        return [f"{where}: did not do its work: {text!r}"]
    return []


# --- the three platforms -------------------------------------------------------------------


async def console_cells(template: Template, scratch: Path) -> tuple[int, list[str]]:
    cells = Cells(template, scratch)
    problems, count = [], 0
    chat_a, _ = chats("console")
    try:
        for command, cell in CELLS.items():
            for role in ROLES:
                core = await cells.fresh()
                before = await table_rows(core.db)
                line = cell.line.format(report=template.report, game=template.game)
                name, _, rest = line.lstrip("/").partition(" ")
                caller = Caller("console", str(ACCOUNT[role]), role, chat_admin=role == "admin")
                reply = await core.handle(Invocation(name, rest, caller, chat_a))
                after = await table_rows(core.db)
                problems += judge("console", command, role, reply, before, after)
                count += 1
                if after != before:
                    cells.spoilt()
    finally:
        await cells.close()
    return count, problems


async def telegram_cells(template: Template, scratch: Path) -> tuple[int, list[str]]:
    cells = Cells(template, scratch)
    problems, count = [], 0
    group = ft.group(A_TELEGRAM, "Budapest Go Club")
    core = await cells.fresh()
    try:
        async with ft.FakeBotApi() as api, telegram_on(core, api) as bot:
            api.admins[A_TELEGRAM] = {ACCOUNT["admin"]}
            api.admins[B_TELEGRAM] = {ACCOUNT["other-admin"]}
            for command, cell in CELLS.items():
                for role in ROLES:
                    core = await cells.fresh()
                    bot.adapter.core = core
                    before = await table_rows(core.db)
                    line = cell.line.format(report=template.report, game=template.game)
                    sender = ft.user(ACCOUNT[role], *NAME[role])
                    calls = await bot.say(line, sender, group)
                    after = await table_rows(core.db)
                    (reply,) = core.replies[-1:] or [Reply.text("(no answer)")]
                    core.replies.clear()
                    problems += judge("telegram", command, role, reply, before, after)
                    if not any(
                        c.method in ("sendMessage", "sendPhoto", "sendDocument") for c in calls
                    ):
                        problems.append(f"telegram /{command} as {role}: no answer in the chat")
                    count += 1
                    if after != before:
                        cells.spoilt()
    finally:
        await cells.close()
    return count, problems


def discord_member(role: str) -> dict[str, Any]:
    # Manage Server is a right in one server: the other club's admin has it only in theirs
    rights = fd.MEMBER_PERMISSIONS | (fd.MANAGE_GUILD if role == "admin" else 0)
    return fd.member(ACCOUNT[role], NAME[role][0], rights)


async def discord_cells(template: Template, scratch: Path) -> tuple[int, list[str]]:
    cells = Cells(template, scratch)
    problems, count = [], 0
    core = await cells.fresh()
    try:
        async with discord_running(core) as bot:
            for command, cell in CELLS.items():
                for role in ROLES:
                    core = await cells.fresh()
                    bot.adapter.core = core
                    before = await table_rows(core.db)
                    if command == "tick":  # not in the tree at all
                        assert bot.adapter.tree.get_command("tick") is None
                        count += 1
                        continue
                    values = {
                        k: (
                            int(v.format(report=template.report, game=template.game))
                            if isinstance(v, str) and "{" in v
                            else v
                        )
                        for k, v in cell.options.items()
                    }
                    # a command with actions: the subcommand of its cell's action (/club show)
                    sub = cell.line.split()[1] if command in ("club", "tournament") else ""
                    name = f"{command} {sub}".strip()
                    calls = await slash(bot, name, discord_member(role), values)
                    after = await table_rows(core.db)
                    (reply,) = core.replies[-1:] or [Reply.text("(no answer)")]
                    core.replies.clear()
                    problems += judge("discord", command, role, reply, before, after)
                    if not calls:
                        problems.append(f"discord /{command} as {role}: no response")
                    elif reply.error and reply.private:
                        flags = calls[0].data.get("flags", 0)
                        if not flags & 64:
                            problems.append(f"discord /{command} as {role}: refusal not ephemeral")
                    count += 1
                    if after != before:
                        cells.spoilt()
    finally:
        await cells.close()
    return count, problems


async def slash(
    bot: DiscordBot, command: str, who: dict[str, Any], values: dict[str, Any]
) -> list[fd.Call]:
    """Run a slash command (``club show``: a subcommand) in club A's server (as
    DiscordBot.slash, for any option name)."""
    options = bot.fake.options(values, bot.option_types(command))
    data = bot.fake.command_data(command, options)
    payload = bot.fake.interaction(2, data, who, guild_id=A_GUILD)
    bot.fake.dispatch(bot.adapter.client, payload)
    return await bot.fake.respond_to(payload)


@pytest.mark.parametrize("platform", ["console", "telegram", "discord"])
async def test_permission_matrix(platform: str, tmp_path: Path) -> None:
    template = await build_template(tmp_path / "template.sqlite", platform)
    run = {"console": console_cells, "telegram": telegram_cells, "discord": discord_cells}
    count, problems = await run[platform](template, tmp_path)
    print(f"{platform}: {count} permission cells tested, {len(problems)} failed")
    assert count == len(CELLS) * len(ROLES)
    assert problems == []


# --- a club always has an organiser --------------------------------------------------------


def telegram_caller(account: int, admin: bool = False) -> Caller:
    return Caller("telegram", str(account), f"user {account}", chat_admin=admin)


async def say(core: Core, line: str, caller: Caller, chat: int = A_TELEGRAM) -> Reply:
    name, _, rest = line.lstrip("/").partition(" ")
    return await core.handle(Invocation(name, rest, caller, str(chat)))


@asynccontextmanager
async def club_a(tmp_path: Path, platform: str = "telegram") -> AsyncIterator[Core]:
    template = await build_template(tmp_path / "club.sqlite", platform)
    clock = Clock()
    db = await storage.open_db(template.path, clock=clock)
    try:
        yield Core(db, Config(db_path=template.path, charts_dir=tmp_path), clock=clock)
    finally:
        await db.close()


async def named(core: Core, chat: int = A_TELEGRAM) -> set[str]:
    club = await storage.club_for_chat(core.db, "telegram", str(chat))
    assert club is not None
    return await storage.organisers(core.db, club)


async def test_the_last_organiser_cannot_remove_themselves(tmp_path: Path) -> None:
    async with club_a(tmp_path) as core:
        assert await named(core) == {"telegram:100", "telegram:200"}
        organiser, creator = telegram_caller(200), telegram_caller(100, admin=True)
        assert not (await say(core, "/club organiser remove telegram:200", organiser)).error
        assert await named(core) == {"telegram:100"}
        for who in (creator, telegram_caller(100)):  # as administrator, and after leaving
            refused = await say(core, "/club organiser remove telegram:100", who)
            assert refused.error and "last organiser" in refused.as_text()
            assert await named(core) == {"telegram:100"}


async def test_a_chat_administrator_can_always_recover_the_club(tmp_path: Path) -> None:
    """The only named organiser is gone (left the chat); whoever administers the chat now is
    an organiser by right, names a new one, and removes the old."""
    async with club_a(tmp_path) as core:
        await say(core, "/club organiser remove telegram:200", telegram_caller(200))
        newcomer = telegram_caller(700, admin=True)
        assert "telegram:700" not in await named(core)
        for line in ("/club organiser add telegram:701", "/club organiser remove telegram:100"):
            reply = await say(core, line, newcomer)
            assert not reply.error, reply.as_text()
        assert await named(core) == {"telegram:701"}
        refused = await say(core, "/club organiser remove telegram:701", newcomer)
        assert refused.error and "last organiser" in refused.as_text()
        # and the new organiser can work without being an administrator
        assert not (await say(core, "/register Új Tag 12k", telegram_caller(701))).error


async def test_a_telegram_administrator_recovers_through_the_adapter(tmp_path: Path) -> None:
    async with (
        club_a(tmp_path) as core,
        ft.FakeBotApi() as api,
        telegram_on(core, api, admin_cache_s=0) as bot,
    ):
        api.admins[A_TELEGRAM] = {800}  # the chat changed hands: 555 was its administrator
        group = ft.group(A_TELEGRAM)
        refused = await bot.say("/club organiser add telegram:801", ft.user(555, "Ex"), group)
        assert "is for the organisers" in texts(refused)[0]
        assert "telegram:801" not in await named(core)
        await bot.say("/club organiser add telegram:801", ft.user(800, "New"), group)
        assert "telegram:801" in await named(core)


async def test_a_discord_manager_recovers_through_the_adapter(tmp_path: Path) -> None:
    async with club_a(tmp_path, "discord") as core, discord_running(core) as bot:
        club = await storage.club_for_chat(core.db, "discord", str(A_GUILD))
        assert club is not None
        manager = fd.member(900, "Manager", fd.MEMBER_PERMISSIONS | fd.MANAGE_GUILD)
        values = {"verb": "add", "who": "discord:901"}
        await slash(bot, "club organiser", manager, values)
        assert "discord:901" in await storage.organisers(core.db, club)
        member = fd.member(902, "Member", fd.MEMBER_PERMISSIONS)
        (answer,) = await slash(bot, "club organiser", member, {**values, "who": "discord:902"})
        assert answer.data["flags"] & 64  # told privately
        assert "discord:902" not in await storage.organisers(core.db, club)


# --- one club's chat never reads or writes another club's data -----------------------------

A_ONLY = ("Kovács Anna", "Szabó Éva", "Tóth Ádám", "Óbuda Go Club", "Tavaszi Kupa")


async def club_rows(db: Database, club: int) -> dict[str, list[tuple[Any, ...]]]:
    """Every row that belongs to ``club`` (its log, facts, projections, chats)."""
    rows: dict[str, list[tuple[Any, ...]]] = {}
    tables = [t for (t,) in await db.fetchall("SELECT name FROM sqlite_master WHERE type='table'")]
    for table in tables:
        columns = [c[1] for c in await db.fetchall(f"PRAGMA table_info({table})")]
        if "club" in columns:
            rows[table] = sorted(
                await db.fetchall(f"SELECT * FROM {table} WHERE club = ?", (club,)), key=repr
            )
    rows["clubs"] = await db.fetchall("SELECT * FROM clubs WHERE seq = ?", (club,))
    return rows


async def test_another_clubs_chat_can_neither_read_nor_write_this_club(tmp_path: Path) -> None:
    """Club B's administrator, in B's chat, names A's players, games, reports, tournament and
    organiser: A's rows stay as they were, and no answer shows A's data."""
    async with club_a(tmp_path) as core:
        a = await storage.club_for_chat(core.db, "telegram", str(A_TELEGRAM))
        assert a is not None
        admin_a = telegram_caller(100, admin=True)
        assert not (await say(core, "/tournament new Tavaszi Kupa", admin_a)).error
        games = await storage.club_games(core.db, a)
        game, report = games[0].number, games[-1].number
        before = await club_rows(core.db, a.id)
        other = telegram_caller(600, admin=True)
        lines = [
            "/rating Kovács Anna", "/rating Kov", "/rating Szab", "/chart Kovács Anna",
            "/history Tóth Ádám", "/handicap Kovács Anna Nagy Péter", "/promotion Szabó Éva",
            "/link Kovács Anna", f"/void {game}", f"/correct {game} result=W+",
            f"/confirm {report}", f"/dispute {report} no", f"/void {report}", "/top 200",
            "/summary", "/export h9 Tavaszi Kupa", "/tournament finalise Tavaszi Kupa",
            "/tournament show Tavaszi Kupa", "/tournament reopen Tavaszi Kupa",
            "/club organiser remove telegram:200", "/override Kovács Anna rank=1d reason=x",
            "/egf Kovács Anna 2000", "/tournament result 1 Kovács Anna Nagy Péter B+",
            "/result Nagy Péter Kovács Anna B+", "/club show", "/undo",
        ]  # fmt: skip
        for kind in ("csv", "json", "games"):
            reply = await say(core, f"/export {kind}", other, B_TELEGRAM)
            assert reply.document is not None
            data = reply.document.data.decode("utf-8")
            assert "Nagy Péter" in data or kind == "games"  # B's own namesake
            assert [n for n in A_ONLY if n in data] == [], (kind, data[:300])
        for line in lines:
            reply = await say(core, line, other, B_TELEGRAM)
            text = reply.as_text()
            assert "Something went wrong" not in text, (line, text)
            typed = line.split(maxsplit=1)[-1]
            shown = [name for name in A_ONLY if name in text and name not in typed]
            assert shown == [], (line, text)
            if reply.document is not None:
                data = reply.document.data.decode("utf-8", "replace")
                assert [n for n in A_ONLY if n in data] == [], (line, data[:300])
        assert await club_rows(core.db, a.id) == before


async def test_autocomplete_offers_only_the_servers_own_club(tmp_path: Path) -> None:
    from bot.adapters.discord import player_choices

    async with club_a(tmp_path, "discord") as core:
        assert [c.name for c in await player_choices(core, str(A_GUILD), "a")] != []
        offered = [c.name for c in await player_choices(core, str(B_GUILD), "")]
        assert offered == ["Nagy Péter"]  # B's namesake, none of A's players
        assert await player_choices(core, str(B_GUILD), "Kov") == []
        assert await player_choices(core, "no-such-server", "") == []


async def test_a_named_organiser_of_one_club_is_nobody_in_another(tmp_path: Path) -> None:
    """The matrix's ``other-admin`` runs organiser commands in A; here A's organiser tries
    B's chat."""
    async with club_a(tmp_path) as core:
        b = await storage.club_for_chat(core.db, "telegram", str(B_TELEGRAM))
        assert b is not None
        before = await club_rows(core.db, b.id)
        for line in ("/register X Y 5k", "/club organiser add telegram:200", "/undo"):
            reply = await say(core, line, telegram_caller(200), B_TELEGRAM)
            assert reply.error and reply.private, (line, reply.as_text())
        assert await club_rows(core.db, b.id) == before
