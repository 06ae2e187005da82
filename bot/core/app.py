"""The command core: parse → check permission → call engine/storage → format.

Every adapter turns a platform message into an :class:`Invocation` and renders the
:class:`Reply` that :meth:`Core.handle` returns. One central handler turns errors into replies
(STYLE.md, Errors): a user error shows its message and the usage line; anything else is logged
with an incident id and the user sees only "Something went wrong (ref …)".
"""

from __future__ import annotations

import asyncio
import difflib
import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import storage
from bot import system_names
from bot.config import Config
from bot.core.command_table import COMMANDS, lookup
from bot.core.commands import CONSOLE, ORGANISER, CommandSpec, Upload
from bot.core.context import Context
from bot.core.errors import NotPermitted, UserError
from bot.core.invocation import Invocation
from bot.core.links import NO_LINKS, Links
from bot.core.names import ClubNames
from bot.core.notices import MARK, marked
from bot.core.parse import Reader, fill_arguments, read_arguments
from bot.core.replies import Notice, Reply, Text
from bot.i18n import N_, Msg, _, translated, using
from bot.metrics import UNKNOWN_COMMAND, Metrics
from bot.ratelimit import RateLimiter, kind_of
from engine.errors import EngineError
from storage.db import Clock, Database
from storage.errors import StorageError
from storage.records import Club
from storage.settings import ClubSettings

if TYPE_CHECKING:
    from bot.core.scheduler import Scheduler

log = logging.getLogger("hoshi.core")

UNBOUND = N_(
    "This chat is not linked to a club yet. A chat administrator can start one with "
    "/club new NAME [{systems}], e.g. /club new Budapest Go Club {system}, or join an "
    "existing club with /club join CODE (an organiser gets the code with /club code)."
)
"""The answer to a club command in a chat without a club (:func:`unbound`)."""


def unbound() -> str:
    """:data:`UNBOUND` in the current language, naming the systems ``/club new`` takes."""
    return _(UNBOUND, systems="|".join(system_names.KEYS), system=system_names.DEFAULT_SYSTEM)


def sentence(message: str) -> str:
    """The message with a capital first letter — unless its first word is a literal the user
    types as it is (``country=``, ``telegram:999``, ``h``), which must keep its case, or its
    script has no capitals (Japanese)."""
    first = message.split(" ", 1)[0]
    word = first.rstrip(",:;.")
    ordinary = word == "a" or (
        len(word) > 1
        and re.fullmatch(r"[^\W\d_][^\W\d_'’-]*", word) is not None
        and word[0].islower()
        and word == word.lower()
    )
    if ordinary and isinstance(message, Msg):  # still the catalogue's text (its id kept)
        capital = message[:1].upper() + message[1:]
        return Msg.rendered(
            capital, message.template, message.plural_template, message.n, message.args
        )
    if ordinary:
        return message[:1].upper() + message[1:]
    return message


def error_text(exc: BaseException) -> str:
    """An error's message in the current language: engine/ and storage/ raise with an
    :class:`engine.text.Msg`, given again from its message id."""
    return translated(exc.args[0]) if exc.args and isinstance(exc.args[0], str) else str(exc)


async def named(ctx: Context, text: str) -> str:
    """An error's text with the engine's ``{game:ID}`` and ``{player:ID}`` marks as members
    read them (the game's club number, the player's name): never an internal id."""
    if ctx.club is None or MARK.search(text) is None:
        return text
    return await marked(ctx.db, ctx.club, text)


class Core:
    """The platform-neutral bot: one per process, shared by every adapter."""

    def __init__(
        self,
        db: Database,
        config: Config,
        *,
        clock: Clock | None = None,
        limiter: RateLimiter | None = None,
        metrics: Metrics | None = None,
        links: Links = NO_LINKS,
    ) -> None:
        self.db = db
        self.config = config
        # where the clubs' web pages are: given by whoever runs the bot (bot.web.urls.WebLinks)
        self.links = links
        self.commands = COMMANDS  # the table, for /help (bot.core.services.Services)
        # updates handled and their latency (bot.metrics), served at GET /metrics
        self.metrics = metrics or Metrics(db)
        self.clock: Clock = clock or db.clock
        # charts, exports and imports per person (issue 6/6); on the core's clock
        self.limiter = limiter or RateLimiter(self.clock)
        # set by whoever runs the bot: how to post to a club's chats, and the scheduler
        self.deliver: Callable[[Notice], Awaitable[object]] | None = None
        self.scheduler: Scheduler | None = None
        self._posting: set[asyncio.Task[bool]] = set()  # notices posted soon, held till sent

    def lookup(self, name: str) -> CommandSpec | None:
        """The command called ``name`` (or an alias of it), if any."""
        return lookup(name)

    async def post(self, notice: Notice) -> bool:
        """Post a notice to the club's bound chats; ``False`` when nothing can post."""
        if self.deliver is None:
            return False
        await self.deliver(notice)
        return True

    def post_soon(self, notice: Notice) -> None:
        """:meth:`post` in a task of its own: a notice from inside work that cannot wait for
        it (a progress report of a long computation)."""
        task = asyncio.get_running_loop().create_task(self.post(notice))
        self._posting.add(task)
        task.add_done_callback(self._posting.discard)

    async def handle(self, inv: Invocation) -> Reply:
        """Answer one command in the conversation's language (:attr:`Context.language`).
        Never raises: every failure becomes a reply. Counted in :attr:`metrics` by the
        invocation's platform and timed by the command's name."""
        cmd = lookup(inv.command)
        if cmd is not None and cmd.with_file and inv.attachment is not None:
            cmd = lookup(cmd.with_file)  # /result with an .sgf attached is /sgf
        if cmd is not None and cmd.access == CONSOLE and inv.caller.platform != "console":
            cmd = None
        started = self.metrics.timer()
        reply = await self._answer(inv, cmd)
        name = cmd.name if cmd is not None else UNKNOWN_COMMAND
        self.metrics.handled(inv.caller.platform, name, self.metrics.timer() - started)
        return reply

    async def _answer(self, inv: Invocation, cmd: CommandSpec | None) -> Reply:
        try:
            ctx = await self.context(inv, cmd)
        except Exception:
            with using(Context.own_language(inv)):
                return self._incident(inv, cmd)
        with using(ctx.language):
            if cmd is None:
                return self._unknown(inv.command, inv.caller.platform)
            try:
                return await self._run(cmd, ctx)
            except NotPermitted as exc:
                return Reply.text(error_text(exc), error=True, private=True)
            except UserError as exc:
                return self._user_error(cmd, inv.text, error_text(exc), exc.show_usage)
            except (EngineError, StorageError) as exc:
                return self._user_error(cmd, inv.text, await named(ctx, error_text(exc)), True)
            except Exception:
                return self._incident(inv, cmd)

    def _incident(self, inv: Invocation, cmd: CommandSpec | None) -> Reply:
        """Log the failure with a reference; the user sees only the reference."""
        ref = secrets.token_hex(3)
        name = cmd.name if cmd is not None else inv.command
        log.exception("incident %s: /%s from %s in %s", ref, name, inv.caller.identity, inv.chat)
        return Reply.text(
            _(
                "Something went wrong (ref {ref}). Nothing was changed; an organiser can "
                "report the reference to the bot's operator.",
                ref=ref,
            ),
            error=True,
        )

    async def context(self, inv: Invocation, command: CommandSpec | None = None) -> Context:
        """The club of the chat (if bound), the caller's role and the club's settings, the
        database as this update's handler writes it (a redelivered update changes nothing:
        ``Database.command``, storage.deliveries); the ``command`` being run decides the
        options its arguments may hold."""
        db = self.db.command(inv.delivery)
        club = await storage.club_for_chat(db, inv.caller.platform, inv.chat_id)
        if club is None:
            return Context(
                self, inv, None, inv.caller.chat_admin, ClubSettings.defaults(), db, command
            )
        return Context(
            self,
            inv,
            club,
            await self.is_organiser(club, inv),
            await storage.club_settings(db, club),
            db,
            command,
        )

    async def is_organiser(self, club: Club, inv: Invocation) -> bool:
        """Chat administrators, plus the people the club names (bot.md)."""
        if inv.caller.chat_admin:
            return True
        return inv.caller.identity in await storage.organisers(self.db, club)

    async def _run(self, cmd: CommandSpec, ctx: Context) -> Reply:
        inv = ctx.inv
        if cmd.needs_club and ctx.club is None:
            return Reply.text(unbound(), error=True)
        if cmd.access_of(inv.text) == ORGANISER and not ctx.organiser:
            command = f"/{cmd.name}"
            if ctx.club is not None:
                refusal = _(
                    "{command} is for the organisers of {club}: chat administrators and the "
                    "people an organiser adds with /club organiser add. Nothing was changed.",
                    command=command,
                    club=ctx.club.name,
                )
            else:
                refusal = _(
                    "{command} is for the organisers: chat administrators and the people an "
                    "organiser adds with /club organiser add. Nothing was changed.",
                    command=command,
                )
            raise NotPermitted(refusal)
        kind = kind_of(cmd.name, inv.text, inv.attachment)
        if kind is not None and inv.caller.platform != "console":  # the operator is not limited
            wait_s = self.limiter.take(inv.caller.identity, kind)
            if wait_s:
                return Reply.text(self.limiter.refusal(kind, wait_s), error=True)
        if cmd.permit is not None:
            cmd.permit(ctx)
        if cmd.typed:  # (ctx, args): the declaration's dataclass, filled here
            return await cmd.handler(ctx, await arguments(ctx, cmd))
        return await cmd.handler(ctx)  # not converted yet: it reads ctx.args() itself

    def _user_error(self, cmd: CommandSpec, text: str, message: str, usage: bool) -> Reply:
        blocks = [Text(sentence(message))]
        if usage:
            line, example = cmd.usage_of(text)
            line = cmd.usage_text(line)
            if example:
                blocks.append(
                    Text(_("Usage: {line} — e.g. {example}", line=line, example=example))
                )
            else:
                blocks.append(Text(_("Usage: {line}", line=line)))
        return Reply(blocks=tuple(blocks), error=True)

    def _unknown(self, name: str, platform: str) -> Reply:
        """The refusal of a command there is not (here: a console-only command elsewhere),
        suggesting the commands of this platform that look like it."""
        name = name.lstrip("/").split("@", 1)[0]
        here = [n for n, c in COMMANDS.items() if c.access != CONSOLE or platform == "console"]
        close = difflib.get_close_matches(name.lower(), here, n=3, cutoff=0.6)
        command = f"/{name}"
        if close:
            return Reply.text(
                _(
                    "There is no command {command}. Did you mean {commands}? /help lists them "
                    "all.",
                    command=command,
                    commands=", ".join("/" + c for c in close),
                ),
                error=True,
            )
        return Reply.text(
            _("There is no command {command}. /help lists them all.", command=command),
            error=True,
        )


async def arguments(ctx: Context, cmd: CommandSpec) -> object:
    """The command's arguments dataclass for this invocation: from the platform's typed values
    when it sent them (Discord), else read from the typed line (bot.core.parse)."""
    inv = ctx.inv
    upload = None if inv.attachment is None else Upload(inv.attachment, inv.attachment_name)
    reader = Reader(ctx.today, ClubNames(ctx) if ctx.club is not None else None, upload)
    if inv.values is not None and cmd.layout(inv.action) is not None:
        return await fill_arguments(cmd, dict(inv.values), reader, inv.action)
    return await read_arguments(cmd, inv.text, reader)
