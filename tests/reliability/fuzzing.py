"""The fuzz driver (issue 6/6, item 1): fuzzed lines through :meth:`Core.handle`, every reply
checked the way each platform would show it, and the database checked at the end.

A reply is a *crash* when it is the core's "Something went wrong (ref …)": the core turned an
unexpected exception into it, so the traceback logged under that reference is captured for the
report. Every reply must also be non-empty, and fit each platform once rendered: Telegram's HTML
(pieces of at most 4096 characters as Telegram counts them, only the tags hoshi writes, every
piece of user text escaped — the text a user reads is the reply's text, exactly), Discord's
messages and embeds (2000 / 256 / 4096 / 6000 characters), the console's plain text. At the end
SQLite's integrity and foreign-key checks pass and every club's stored projections equal a
replay of its log.

Used by ``tests/reliability/test_fuzz.py`` and ``benchmarks/fuzz.py``.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections import Counter
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import storage
from bot.adapters import discord as discord_adapter
from bot.adapters.telegram import rendering as telegram_adapter
from bot.clock import FakeClock
from bot.config import Config
from bot.core.app import Core
from bot.core.invocation import Caller, Invocation
from bot.core.replies import Notice, Reply, Table
from bot.core.scheduler import Scheduler
from engine.ranks import Rank
from storage.db import Database
from storage.records import Club
from tests.reliability.crashing import replay_differs
from tests.reliability.strategies import PLAYERS, Line

START = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)
CHATS = {  # platform → (adapter platform, chat id)
    "telegram": ("telegram", "-1001"),
    "telegram-b": ("telegram", "-2002"),
    "telegram-unbound": ("telegram", "-3003"),
    "discord": ("discord", "900"),
    "console": ("console", "club-1"),
}
ACCOUNTS = {  # role → (account, chat admin)
    "admin": ("100", True),
    "organiser": ("200", False),
    "linked": ("300", False),
    "player": ("400", False),
    "stranger": ("500", False),
    "other-admin": ("600", False),  # administers club B's chat, not club A's
}
CRASH = re.compile(r"Something went wrong \(ref ([0-9a-f]+)\)")
TAGS = {"b", "i", "pre", "code"}


class Incidents(logging.Handler):
    """Keeps the tracebacks the core logs under an incident reference."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.by_ref: dict[str, str] = {}
        self.setFormatter(logging.Formatter("%(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        text = self.format(record)
        match = re.match(r"incident ([0-9a-f]+)", record.getMessage())
        if match:
            self.by_ref[match[1]] = text


@dataclass
class Found:
    """What the fuzzing found."""

    inputs: int = 0
    crashes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    replies: Counter[str] = field(default_factory=Counter)  # ok / error / refused

    @property
    def failures(self) -> list[str]:
        return self.crashes + self.problems


class TelegramHtml(HTMLParser):
    """Checks a message in Telegram's HTML: only hoshi's tags, nested, and the text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in TAGS or attrs:
            self.errors.append(f"a <{tag}> tag that hoshi never writes (unescaped user text?)")
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(f"</{tag}> closes nothing open")

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def check_telegram(reply: Reply) -> list[str]:
    problems = []
    messages = telegram_adapter.render_html(reply)
    if reply.blocks and not messages:
        problems.append("Telegram: blocks but no message")
    seen: list[str] = []
    for html in messages:
        length = telegram_adapter.visible_length(unescape(re.sub(r"</?(b|i|pre|code)>", "", html)))
        if length > telegram_adapter.MESSAGE_LIMIT:
            problems.append(f"Telegram: a message of {length} characters")
        if not unescape(re.sub(r"<[^>]*>", "", html)).strip():
            problems.append("Telegram: an empty message (Telegram refuses it)")
        parser = TelegramHtml()
        parser.feed(html)
        parser.close()
        problems += [f"Telegram: {e}" for e in parser.errors]
        if parser.stack:
            problems.append(f"Telegram: <{parser.stack[-1]}> never closed")
        seen.append("".join(parser.text))
    # what the user reads is the reply's text: nothing lost, nothing added but the splits
    shown = re.sub(r"\s+", "", "".join(seen))
    wanted = re.sub(r"\s+", "", "".join(_block_texts(reply)))
    if shown != wanted:
        problems.append("Telegram: the text shown differs from the reply's text")
    return problems


def _block_texts(reply: Reply) -> list[str]:
    return ["\n".join(b.lines()) if isinstance(b, Table) else b.text for b in reply.blocks]


def check_discord(reply: Reply) -> list[str]:
    problems = []
    for out in discord_adapter.render(reply):
        if out.content is not None and len(out.content) > discord_adapter.CONTENT_LIMIT:
            problems.append(f"Discord: a message of {len(out.content)} characters")
        if out.embed is not None:
            title, description = out.embed.title or "", out.embed.description or ""
            if len(title) > discord_adapter.EMBED_TITLE_LIMIT:
                problems.append(f"Discord: an embed title of {len(title)} characters")
            if len(description) > discord_adapter.EMBED_DESCRIPTION_LIMIT:
                problems.append(f"Discord: an embed description of {len(description)}")
            if len(out.embed) > 6000:
                problems.append(f"Discord: an embed of {len(out.embed)} characters in all")
        if not out.content and out.embed is None and not out.files:
            problems.append("Discord: an empty message")
    return problems


def check_reply(reply: Reply) -> list[str]:
    """Everything a reply must be, on every platform."""
    problems = []
    if (
        not any(t.strip() for t in _block_texts(reply))
        and not reply.picture
        and not (reply.document)
    ):
        problems.append("an empty reply")
    return problems + check_telegram(reply) + check_discord(reply)


class Fuzzer:
    """A database with two clubs, a core on a hand-moved clock, and the checks."""

    def __init__(self, db: Database, core: Core, clock: FakeClock, incidents: Incidents) -> None:
        self.db = db
        self.core = core
        self.clock = clock
        self.incidents = incidents
        self.found = Found()
        self.posted: list[Notice] = []

    @classmethod
    async def open(cls, path: Path, language: str = "en") -> Fuzzer:
        """A fuzzer on two clubs (:func:`arrange`) that answer in ``language``."""
        clock = FakeClock(START)
        db = await storage.open_db(path, clock=clock)
        try:
            for club in await arrange(db, clock):
                await storage.set_setting(db, club, "language", language, actor="telegram:100")
        except BaseException:
            await db.close()
            raise
        core = Core(db, Config(db_path=path, charts_dir=path.parent), clock=clock)
        incidents = Incidents()
        logging.getLogger("hoshi").addHandler(incidents)
        fuzzer = cls(db, core, clock, incidents)
        core.deliver = fuzzer.deliver
        core.scheduler = Scheduler(core, core.deliver, timers=False)
        return fuzzer

    async def deliver(self, notice: Notice) -> None:
        self.found.problems += [f"a posted notice: {p}" for p in check_reply(notice.reply)]
        self.posted.append(notice)

    async def close(self) -> None:
        logging.getLogger("hoshi").removeHandler(self.incidents)
        await self.db.close()

    def invocation(self, line: Line) -> Invocation:
        platform, chat = CHATS[line.platform]
        account, admin = ACCOUNTS[line.role]
        if platform == "console":
            account, admin = "local", True  # the console has one user: the operator
        if line.role == "other-admin" and line.platform == "telegram-b":
            admin = True
        caller = Caller(platform, account, f"Fuzzy {line.role}", chat_admin=admin)
        return Invocation(
            command=line.command,
            text=line.text,
            caller=caller,
            chat_id=chat,
            private=line.private,
            attachment=line.attachment,
            attachment_name=line.filename if line.attachment is not None else None,
            received_at=self.clock(),
        )

    async def feed(self, line: Line) -> list[str]:
        """Run one line; returns what was wrong with the answer (also kept in ``found``)."""
        self.found.inputs += 1
        if self.clock().year < 9000:  # a /tick may have moved the clock far already
            self.clock.advance(dt.timedelta(seconds=line.advance_s))
        known = set(self.incidents.by_ref)
        try:
            reply = await self.core.handle(self.invocation(line))
        except BaseException as exc:  # Core.handle never raises: this is a crash too
            problem = f"{line!r}: Core.handle raised {type(exc).__name__}: {exc}"
            self.found.crashes.append(problem)
            return [problem]
        text = reply.as_text()
        crash = CRASH.search(text)
        new = [ref for ref in self.incidents.by_ref if ref not in known]
        if crash or new:  # an incident logged: "Something went wrong" in any language
            ref = crash[1] if crash else new[0]
            trace = self.incidents.by_ref.get(ref, "(no traceback logged)")
            problem = f"{line!r}: a crash\n{trace}"
            self.found.crashes.append(problem)
            return [problem]
        self.found.replies["refused" if reply.private and reply.error else (
            "error" if reply.error else "ok"
        )] += 1  # fmt: skip
        problems = [f"{line!r}: {p}" for p in check_reply(reply)]
        self.found.problems += problems
        return problems

    async def finish(self, scratch: Path) -> list[str]:
        """Integrity, foreign keys, and every club's projections against a replay."""
        checks = await self.db.fetchall("PRAGMA integrity_check")
        problems = [r[0] for r in checks if r[0] != "ok"]
        keys = await self.db.fetchall("PRAGMA foreign_key_check")
        problems += [f"foreign key {r!r}" for r in keys]
        problems += await replay_differs(Path(self.db.path), scratch)
        self.found.problems += [f"at the end: {p}" for p in problems]
        return problems


async def arrange(db: Database, clock: FakeClock) -> tuple[Club, Club]:
    """Club A (MGSZ; Telegram, Discord and console chats; players, one linked, a named
    organiser, games, a tournament, a pending report) and club B (PSG; its own chat)."""
    admin = "telegram:100"
    a = await storage.create_club(db, "Budapest Go Club", "mgsz", actor=admin)
    for platform, chat in (("telegram", "-1001"), ("discord", "900"), ("console", "club-1")):
        await storage.bind_chat(db, a, platform, chat, actor=admin)
    await storage.add_organiser(db, a, "telegram:200", actor=admin)
    await storage.set_setting(db, a, "reports", "on", actor=admin)
    joined = START.date() - dt.timedelta(days=60)
    ids = []
    for name in PLAYERS:
        player = await storage.register_player(
            db, a, name, Rank.kyu(6), date=joined, actor=admin, allow_duplicate=True
        )
        ids.append(player.id)
    await storage.link_account(db, a, ids[0], "telegram", "300", actor=admin)
    await storage.link_account(db, a, ids[1], "telegram", "301", actor=admin)
    from engine.types import Result

    for i in range(6):
        await storage.record_game(
            db,
            a,
            storage.new_game(
                ids[i % 4],
                ids[(i + 1) % 4],
                Result.BLACK if i % 2 else Result.WHITE,
                stones=0,
                komi=7,
                date=joined + dt.timedelta(days=7 * i),
            ),
            actor=admin,
        )
    await storage.record_game(
        db,
        a,
        storage.new_game(
            ids[1],
            ids[0],
            Result.WHITE,
            stones=0,
            komi=7,
            date=START.date(),
            reported=START.date(),
        ),
        actor=admin,
        pending=True,
    )
    b = await storage.create_club(db, "Szeged Go Club", "psg", actor="telegram:600")
    await storage.bind_chat(db, b, "telegram", "-2002", actor="telegram:600")
    for name in ("Kiss Béla", "Nagy Péter"):
        await storage.register_player(db, b, name, Rank.kyu(8), date=joined, actor="telegram:600")
    return a, b
