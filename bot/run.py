"""``hoshi run``: the chat bots whose tokens are in the environment, in one process.

One event loop, one :class:`~storage.db.Database`, one :class:`~bot.core.app.Core`, shared by
the Telegram adapter (``TELEGRAM_TOKEN``) and the Discord adapter (``DISCORD_TOKEN``); a club
bound to a Telegram group and a Discord server sees the same players from both. Without any
token it says so and points to ``hoshi console`` (bot.md, Configuration). Tokens are never
logged: HTTP client logs that would show request URLs are kept at WARNING, and a filter blanks
the tokens out of every log line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, Protocol, TextIO

import storage
from bot.cli.common import database_of, shown
from bot.clock import FakeClock
from bot.config import Config, WebConfig
from bot.core.app import Core
from bot.core.replies import Notice, Reply
from bot.core.scheduler import Scheduler
from bot.i18n import N_, _, current, using
from bot.i18n.catalogues import SOURCE
from bot.metrics import Metrics
from bot.web.urls import WebLinks

log = logging.getLogger("hoshi.run")

NO_TOKEN = N_(
    "hoshi run: no bot token in the environment. Set TELEGRAM_TOKEN and/or DISCORD_TOKEN "
    "(never in the config file), or try the bot locally without a token: {command}"
)
"""Said (in the operator's language: ``_(NO_TOKEN)``) when no token is set."""


class Adapter(Protocol):
    async def start(self) -> None: ...
    async def stop(self) -> None: ...
    async def post(self, chat_id: str, reply: Reply) -> None: ...

    async def tell(self, account: str, reply: Reply) -> None: ...
    @property
    def running(self) -> bool:
        """Whether it receives updates now (``/healthz``)."""
        ...


class RedactTokens(logging.Filter):
    """Blanks the bot tokens out of log records (defence in depth): the message, and the
    traceback and stack of a record that carries them — PTB's ``InvalidToken`` names the
    token it was refused, and a traceback prints it."""

    def __init__(self, tokens: list[str]) -> None:
        super().__init__()
        self.tokens = [t for t in tokens if t]

    def redact(self, text: str) -> str:
        for token in self.tokens:
            text = text.replace(token, "<token>")
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.tokens:
            return True
        message = record.getMessage()
        if any(token in message for token in self.tokens):
            record.msg, record.args = self.redact(message), None
        if record.exc_info and not record.exc_text:
            # formatted once here, as the handler's formatter would, and kept redacted
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


def configure_logging(config: Config, tokens: list[str]) -> None:
    logging.basicConfig(
        level=getattr(logging, config.log_level, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # httpx logs every request URL at INFO, and Telegram's URLs contain the token
    for noisy in ("httpx", "httpcore"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    redact = RedactTokens(tokens)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redact)


class Bots:
    """The running adapters by platform; delivers notices to every chat bound to a club."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.adapters: dict[str, Adapter] = {}
        self.follower: storage.Follower | None = None  # keeps the ledgers current (storage.follow)

    async def deliver(self, notice: Notice) -> int:
        """Post a notice (a scheduled summary) to each of the club's chats on a running
        platform; returns how many chats got it. A failing chat does not stop the others."""
        sent = 0
        private = bool(notice.accounts)
        targets = notice.accounts or await storage.chats(self.core.db, notice.club_id)
        for platform, chat_id in targets:
            adapter = self.adapters.get(platform)
            if adapter is None:
                continue
            try:
                if private:  # a member in private (their own board)
                    await adapter.tell(chat_id, notice.reply)
                else:
                    await adapter.post(chat_id, notice.reply)
                sent += 1
            except Exception:
                log.exception("could not post a notice to %s:%s", platform, chat_id)
        return sent

    def states(self) -> dict[str, bool]:
        """Each configured platform, and whether its adapter is running (``/healthz``)."""
        return {platform: adapter.running for platform, adapter in self.adapters.items()}


async def run_bots(
    config: Config,
    *,
    db_path: Path | str | None = None,
    stop: asyncio.Event | None = None,
    err: TextIO | None = None,
    on_started: Callable[[Bots], None] | None = None,
    clock: FakeClock | None = None,
) -> int:
    """Run the bots until ``stop`` is set (or SIGINT/SIGTERM); returns the exit status.

    Returns 2 when no token is set, 1 when a platform refuses to start (e.g. a bad token).
    ``clock`` (tests): a hand-moved clock; the scheduler then runs only when asked.
    """
    err = err or sys.stderr
    telegram_token, discord_token = config.telegram_token, config.discord_token
    if not telegram_token and not discord_token:
        err.write(_(NO_TOKEN, command=config.given.command("console", club=False)) + "\n")
        return 2
    operator = current()  # the terminal's language, for what this function writes to err
    # the bots speak each chat's language (bot.core sets it per conversation), never the
    # terminal's: whatever they build outside a conversation is in the source language
    with using(SOURCE):
        path = database_of(db_path, config)  # a file, or a postgresql:// URL
        if isinstance(path, Path):
            path.parent.mkdir(parents=True, exist_ok=True)
        stop = stop or asyncio.Event()
        db = await storage.open_db(path, clock=clock) if clock else await storage.open_db(path)
        db.projections.clubs_in_memory = config.clubs_in_memory  # the least recently used go
        follower: storage.Follower | None = None
        try:
            # other processes may write the same database: keep this one's ledgers current
            follower = await storage.follow(db)
            core = Core(db, config, links=WebLinks(config.web.base_url))
            bots = Bots(core)
            bots.follower = follower
            if telegram_token:
                from bot.adapters.telegram import TelegramAdapter

                bots.adapters["telegram"] = TelegramAdapter(core, telegram_token, config.telegram)
            if discord_token:
                from bot.adapters.discord import DiscordAdapter

                bots.adapters["discord"] = DiscordAdapter(core, discord_token, config.discord)
            started: list[Adapter] = []
            pages = WebPages(db, config.web, core.metrics, bots.states)
            # SIGTERM/SIGINT stop the bot from the start: a signal that comes while the scheduler
            # catches up (polling has begun) ends the run cleanly, never with the default action
            with _signals_set(stop):
                try:
                    for platform, adapter in bots.adapters.items():
                        try:
                            await adapter.start()
                        except Exception as exc:
                            log.debug("%s failed to start", platform, exc_info=True)
                            reason = RedactTokens(
                                [t for t in (telegram_token, discord_token) if t]
                            )
                            with using(operator):
                                why = _(
                                    "hoshi run: {platform} did not start: {reason}",
                                    platform=platform,
                                    reason=reason.redact(_reason(exc)),
                                )
                            err.write(why + "\n")
                            return 1
                        started.append(adapter)
                    # one scheduler for the process, shared by both platforms (issue 4/6): what was
                    # missed while down runs now, then timers
                    core.deliver = bots.deliver
                    scheduler = core.scheduler = Scheduler(
                        core, bots.deliver, timers=clock is None
                    )
                    await scheduler.start()
                    await pages.start()
                    log.info(
                        "hoshi is running on %s; database %s",
                        ", ".join(bots.adapters),
                        shown(path),
                    )
                    if on_started is not None:
                        on_started(bots)
                    await stop.wait()
                finally:
                    await pages.stop()
                    if core.scheduler is not None:
                        await core.scheduler.stop()
                    for adapter in reversed(started):
                        try:
                            await adapter.stop()
                        except Exception:
                            log.exception("stopping an adapter failed")
            return 0
        finally:
            if follower is not None:
                await follower.close()
            await db.close()


class WebPages:
    """The club pages beside the bots (issue 14): the web server when ``[web] enabled``, and
    the static site in ``[web] site_dir`` written at start and again after writes."""

    def __init__(
        self,
        db: storage.Database,
        config: WebConfig,
        metrics: Metrics,
        adapters: Callable[[], Mapping[str, bool]],
    ) -> None:
        self.db, self.config = db, config
        self.metrics, self.adapters = metrics, adapters  # for /metrics and /healthz
        self.runner: Any = None
        self.refresher: Any = None

    async def start(self) -> None:
        if self.config.enabled:
            from bot.web.app import serve

            self.runner = await serve(
                self.db, self.config, metrics=self.metrics, adapters=self.adapters
            )
        if self.config.site_dir is not None:
            from bot.web.site import SiteRefresher

            self.refresher = SiteRefresher(self.db, self.config.site_dir)
            self.db.after_commit(self.refresher.written)
            self.refresher.written()

    async def stop(self) -> None:
        if self.refresher is not None:
            await self.refresher.close()
        if self.runner is not None:
            await self.runner.cleanup()


def _reason(exc: BaseException) -> str:
    """Why a platform refused to start, without ever echoing a token."""
    name = type(exc).__name__
    if name in ("InvalidToken", "LoginFailure"):
        return _("the token was rejected")
    return f"{name}: {exc}" if str(exc) else name


@contextlib.contextmanager
def _signals_set(stop: asyncio.Event) -> Iterator[None]:
    """SIGINT and SIGTERM set ``stop`` (where the platform lets us install handlers)."""
    loop = asyncio.get_running_loop()
    installed = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
            installed.append(sig)
        except (NotImplementedError, RuntimeError, ValueError):
            pass  # not the main thread, or not supported here
    try:
        yield
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)
