"""A fake chat for the command core (errbot's testbot): real SQLite, real engine, no mocks.

``chat = await FakeChat.open(tmp_path)`` opens a database in ``tmp_path`` with a fixed clock,
creates a club bound to one chat and builds a :class:`~bot.core.app.Core`;
``await chat.say("/rating Nagy", as_=PLAYER)`` runs a command the way an adapter would and
returns what the bot answered (the :class:`Reply` and its plain ``text``).

Callers: ``ADMIN`` is a chat administrator (an organiser by right), ``ORGANISER`` a person
the club named with ``/club organiser add``, ``PLAYER`` anyone else in the chat.
"""

from __future__ import annotations

import atexit
import datetime as dt
import shutil
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import storage
from bot.config import Config
from bot.core.app import Core
from bot.core.invocation import Caller, Invocation
from bot.core.replies import Reply
from bot.web.urls import WebLinks
from storage.db import Database
from storage.records import Club

START = dt.datetime(2026, 4, 20, 18, 0, tzinfo=dt.UTC)
TODAY = START.date()
PLATFORM = "telegram"
CHAT_ID = "-1001"

ADMIN = "admin"
ORGANISER = "organiser"
PLAYER = "player"
CALLERS = {
    ADMIN: Caller(PLATFORM, "100", "Admin Ági", chat_admin=True),
    ORGANISER: Caller(PLATFORM, "200", "Organiser Olga"),
    PLAYER: Caller(PLATFORM, "300", "Player Pál"),
}


_TEMPLATES: dict[tuple[str, str, tuple[str, ...], str], Path] = {}
_TEMPLATE_DIR: Path | None = None


async def _template(system: str, name: str, players: tuple[str, ...], language: str) -> Path:
    """A database file holding the club speaking ``language`` and its registered ``players``,
    made once per test session and copied for each test (migrating, creating a club and
    registering players for every test would dominate the suite's time)."""
    global _TEMPLATE_DIR
    key = (system, name, players, language)
    if key in _TEMPLATES:
        return _TEMPLATES[key]
    if _TEMPLATE_DIR is None:
        _TEMPLATE_DIR = Path(tempfile.mkdtemp(prefix="hoshi-fakechat-"))
        atexit.register(shutil.rmtree, _TEMPLATE_DIR, True)
    path = _TEMPLATE_DIR / f"{system}-{len(_TEMPLATES)}.sqlite"
    db = await storage.open_db(path, clock=FakeClock())
    try:
        admin = CALLERS[ADMIN].identity
        club = await storage.create_club(db, name, system, actor=admin)
        await storage.bind_chat(db, club, PLATFORM, CHAT_ID, actor=admin)
        await storage.add_organiser(db, club, CALLERS[ORGANISER].identity, actor=admin)
        await storage.set_setting(db, club, "language", language, actor=admin)
        if players:
            chat = FakeChat(db, Core(db, Config(db_path=path)), club, FakeClock())
            await chat.register(*players)
    finally:
        await db.close()  # the last connection to close checkpoints the WAL into the file
    _TEMPLATES[key] = path
    return path


class FakeClock:
    """A clock the test moves by hand (tests never sleep)."""

    def __init__(self, now: dt.datetime = START) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, delta: dt.timedelta) -> None:
        self.now += delta


@dataclass(frozen=True, slots=True)
class Said:
    """The bot's answer to one command: the reply and its plain text."""

    reply: Reply
    text: str

    @property
    def error(self) -> bool:
        return self.reply.error

    def __contains__(self, needle: str) -> bool:
        return needle in self.text


@dataclass
class FakeChat:
    db: Database
    core: Core
    club: Club
    clock: FakeClock
    chat_id: str = CHAT_ID
    platform: str = PLATFORM
    said: list[tuple[str, Said]] = field(default_factory=list)

    @classmethod
    async def open(
        cls,
        tmp_path: Path,
        system: str = "mgsz",
        *,
        name: str = "Budapest Go Club",
        settings: dict[str, str] | None = None,
        clock: FakeClock | None = None,
        config: Config | None = None,
        players: tuple[str, ...] = (),
        language: str = "en",
    ) -> FakeChat:
        """A club with ``system`` bound to the chat; ``ORGANISER`` is named an organiser;
        ``players`` are registered by the chat administrator (``/register`` lines).

        The club speaks ``language`` (stored as its ``language`` setting, so tests written in
        English keep English whatever a system's default language is); ``settings`` may set
        another (``settings={"language": "ja"}``)."""
        clock = clock or FakeClock()
        path = tmp_path / "hoshi.sqlite"
        shutil.copyfile(await _template(system, name, players, language), path)
        db = await storage.open_db(path, clock=clock)
        try:
            club = await storage.get_club(db, name)
            assert club is not None
            for key, value in (settings or {}).items():
                await storage.set_setting(db, club, key, value, actor=CALLERS[ADMIN].identity)
        except BaseException:
            await db.close()
            raise
        config = config or Config(db_path=path, charts_dir=tmp_path)
        return cls(db, Core(db, config, links=WebLinks(config.web.base_url)), club, clock)

    async def close(self) -> None:
        await self.db.close()

    async def bind(self, platform: str, chat_id: str = CHAT_ID) -> None:
        """Bind another chat (e.g. a Discord server's) to the same club."""
        await storage.bind_chat(
            self.db, self.club, platform, chat_id, actor=CALLERS[ADMIN].identity
        )

    def invocation(
        self,
        line: str,
        *,
        as_: str | Caller = ADMIN,
        attachment: bytes | None = None,
        attachment_name: str | None = None,
        chat_id: str | None = None,
        private: bool = False,
        language: str | None = None,
    ) -> Invocation:
        """The invocation an adapter would build; ``language`` is the caller's own (as the
        platform says it: Telegram's ``language_code``)."""
        caller = CALLERS[as_] if isinstance(as_, str) else as_
        if language is not None:
            caller = replace(caller, language=language)
        text = line.strip()
        first, _sep, rest = text.partition("\n")
        name, _sep, args = first.partition(" ")
        if rest:
            args = f"{args}\n{rest}"
        return Invocation(
            command=name.lstrip("/"),
            text=args.strip(" "),
            caller=caller,
            chat_id=chat_id or self.chat_id,
            private=private,
            attachment=attachment,
            attachment_name=attachment_name,
        )

    async def say(self, line: str, *, as_: str | Caller = ADMIN, **kwargs: Any) -> Said:
        """Run one command (``/name args``; a pasted table follows on the next lines)."""
        reply = await self.core.handle(self.invocation(line, as_=as_, **kwargs))
        said = Said(reply, reply.as_text())
        self.said.append((line, said))
        return said

    async def ok(self, line: str, *, as_: str | Caller = ADMIN, **kwargs: Any) -> Said:
        """:meth:`say`, failing the test when the bot answers with an error."""
        said = await self.say(line, as_=as_, **kwargs)
        assert not said.error, f"{line!r} was refused:\n{said.text}"
        return said

    async def refused(self, line: str, *, as_: str | Caller = ADMIN, **kwargs: Any) -> Said:
        """:meth:`say`, asserting that the bot refused and the database did not change."""
        before = await self.snapshot()
        said = await self.say(line, as_=as_, **kwargs)
        assert said.error, f"{line!r} was accepted:\n{said.text}"
        assert await self.snapshot() == before, f"{line!r} changed the database"
        return said

    async def snapshot(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table (log and projections), to compare before and after."""
        tables = [
            name
            for (name,) in await self.db.fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        return {t: sorted(await self.db.fetchall(f"SELECT * FROM {t}"), key=repr) for t in tables}

    async def log_size(self) -> int:
        row = await self.db.fetchone("SELECT COUNT(*) FROM log")
        assert row is not None
        return int(row[0])

    # -- shortcuts for arranging a club -------------------------------------------------------

    async def register(self, *lines: str) -> None:
        """``/register`` each line (``Nagy Péter 5k``) as the chat administrator."""
        for line in lines:
            await self.ok(f"/register {line}")

    async def link(self, name: str, as_: str | Caller = PLAYER) -> Said:
        """A member's ``/link NAME``, confirmed by the chat administrator with the reply's
        Confirm button (issue 26, item 4: a link needs an organiser's approval)."""
        asked = await self.ok(f"/link {name}", as_=as_)
        (button,) = asked.reply.buttons
        return await self.ok(button.command)

    async def player(self, name: str) -> storage.Player:
        found = await storage.find_player(self.db, self.club, name, guests=True)
        assert found.player is not None, f"no single player {name!r}: {found}"
        return found.player

    async def card(self, name: str) -> Any:
        return await storage.card(self.db, self.club, (await self.player(name)).id)

    async def games(self) -> list[storage.GameRow]:
        return await storage.club_games(self.db, self.club)
