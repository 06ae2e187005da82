"""The Telegram adapter: python-telegram-bot v22 in front of the command core.

One ``MessageHandler`` bridges every command of the table (``/name@bot rest``, also as the
caption of an attached file) to :meth:`Core.handle`; one ``CallbackQueryHandler`` runs the
commands behind inline buttons as the person who pressed; one error handler logs and answers.
Replies are HTML with every piece of user text escaped, titles bold and tables in ``<pre>``;
messages over Telegram's 4096 characters are split, and very long answers go as a file.

Long polling by default; a webhook when ``[telegram] webhook_url`` is set. Updates of one chat
are handled in order and different chats concurrently, so a slow command never blocks another
chat. A duplicate update (the same ``update_id`` delivered twice, as a webhook retry does) runs
once — also after a restart, and in another process: the update's key is stored with the first
change it makes (storage.deliveries), and a redelivered update that finds it changes nothing.
So that a crash loses nothing either, an update is confirmed to Telegram only once it has been
handled: long polling asks for the next ones only then (:class:`ConfirmAfterHandling`), and the
webhook answers Telegram's request only then (:class:`Webhook`). What a killed process was
still handling is delivered again — at its next start, or (webhooks behind a load balancer) at
once to another process — and acted on exactly once, all in all.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import re
import secrets
import time
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from html import escape as _html_escape
from typing import Any
from urllib.parse import urlparse

from aiohttp import web
from telegram import (
    Bot,
    BotCommand,
    BotCommandScope,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
    Chat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
    LinkPreviewOptions,
    Message,
    ReplyParameters,
    Update,
    User,
)
from telegram.constants import ChatAction, ChatType, ParseMode
from telegram.error import Forbidden, NetworkError, TelegramError
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationHandlerStop,
    BaseUpdateProcessor,
    CallbackQueryHandler,
    ContextTypes,
    ExtBot,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.adapters.buttons import ButtonCommands, split_command
from bot.adapters.languages import chat_language, for_person, too_big
from bot.config import TelegramConfig
from bot.core.app import Core
from bot.core.command_table import lookup, public_commands
from bot.core.commands import CommandSpec, shown
from bot.core.invocation import Caller, Invocation
from bot.core.replies import Document, Reply, Table, split_text
from bot.i18n import LANGUAGES, _, language_of, using
from bot.i18n.catalogues import SOURCE
from storage import deliveries

log = logging.getLogger("hoshi.telegram")

PLATFORM = "telegram"
MESSAGE_LIMIT = 4096  # Bot API sendMessage: 1-4096 characters after entity parsing
CAPTION_LIMIT = 1024  # sendPhoto/sendDocument captions
ALERT_LIMIT = 200  # answerCallbackQuery text
CALLBACK_DATA_BYTES = 64  # InlineKeyboardButton.callback_data: 1-64 bytes
COMMAND_DESCRIPTION_LIMIT = 256  # BotCommand.description: 3-256 characters
COMMAND_DESCRIPTION_MIN = 3
MENU_LANGUAGES = tuple(language for language in LANGUAGES if language != SOURCE)
"""The menus with a ``language_code`` (hu, ja, sv, pl); English is the default menu."""
MAX_MESSAGES = 4  # a longer answer is sent as a file instead of a wall of messages
MAX_ATTACHMENT_BYTES = 5_000_000  # results tables are kilobytes; refuse anything huge
SEEN_UPDATES = 4096  # how many processed update ids are remembered
SHORT_POLL_S = 0.5  # how often to ask for new updates while earlier ones are being handled
ALLOWED_UPDATES = ("message", "callback_query")
TYPING_AFTER_S = 1.0  # show "typing…" when the core takes longer than this
TYPING_EVERY_S = 4.5  # Telegram shows a chat action for about 5 seconds
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"  # Bot API setWebhook: secret_token
WEBHOOK_STOP_S = 10.0  # how long a stopping webhook lets the updates it is handling finish
_COMMAND = re.compile(r"/([A-Za-z0-9_]{1,64})(?:@([A-Za-z0-9_]{1,64}))?(?=\s|$)(.*)\Z", re.DOTALL)
_BOT_COMMAND_NAME = re.compile(r"[a-z0-9_]{1,32}")


# --- rendering -----------------------------------------------------------------------------


def escape(text: str) -> str:
    """User text made safe for Telegram's HTML parse mode (``<``, ``>``, ``&``)."""
    return _html_escape(text, quote=False)


def visible_length(text: str) -> int:
    """Length as Telegram counts it (UTF-16 code units)."""
    return len(text.encode("utf-16-le")) // 2


def _pieces(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` UTF-16 units, split at line breaks if possible."""
    size = limit
    while True:
        pieces = split_text(text, size)
        if all(visible_length(p) <= limit for p in pieces):
            return pieces
        size = max(1, size // 2)  # astral characters count twice


def render_html(reply: Reply, limit: int = MESSAGE_LIMIT) -> list[str]:
    """The reply's blocks as HTML messages of at most ``limit`` visible characters each.

    Every piece of text is escaped; titles are bold, tables monospace (``<pre>``). Blocks are
    kept whole where they fit and split at line breaks where they do not.
    """
    units: list[tuple[int, str]] = []  # (visible length, html)
    for block in reply.blocks:
        if isinstance(block, Table):
            for chunk in _pieces("\n".join(block.lines()), limit):
                units.append((visible_length(chunk), f"<pre>{escape(chunk)}</pre>"))
        else:
            for chunk in _pieces(block.text, limit):
                html = f"<b>{escape(chunk)}</b>" if block.title else escape(chunk)
                units.append((visible_length(chunk), html))
    messages: list[str] = []
    current: list[str] = []
    size = 0
    for length, html in units:
        if current and size + 2 + length > limit:
            messages.append("\n\n".join(current))
            current, size = [], 0
        size += length + (2 if current else 0)
        current.append(html)
    if current:
        messages.append("\n\n".join(current))
    return messages


def parse_command(text: str, bot_username: str | None) -> tuple[str, str] | None:
    """``(name, rest)`` of ``/name@bot rest``; ``None`` for no command or another bot's."""
    match = _COMMAND.match(text)
    if match is None:
        return None
    name, target, rest = match.groups()
    if target and (bot_username is None or target.lower() != bot_username.lower()):
        return None
    return name.lower(), rest.strip()


def bot_commands(commands: Sequence[CommandSpec]) -> list[BotCommand]:
    """Telegram's command menu for ``commands`` in the current language (names Telegram
    accepts and the same in every language, descriptions translated and cut to fit)."""
    menu = []
    for cmd in commands:
        if not _BOT_COMMAND_NAME.fullmatch(cmd.name):
            log.warning("/%s cannot be in Telegram's command menu (name)", cmd.name)
            continue
        menu.append(BotCommand(cmd.name, menu_description(cmd)))
    return menu


def menu_description(cmd: CommandSpec) -> str:
    """The command's summary in the current language, as a menu entry (3-256 characters;
    the usage line where the summary would be too short)."""
    text = shown(cmd.summary).strip()
    if len(text) < COMMAND_DESCRIPTION_MIN:
        text = cmd.usage_text()
    return _cut(text, COMMAND_DESCRIPTION_LIMIT)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- plumbing ------------------------------------------------------------------------------


class RecentIds:
    """The last ``size`` ids seen, to drop an update delivered twice."""

    def __init__(self, size: int = SEEN_UPDATES) -> None:
        self._order: deque[int] = deque()
        self._set: set[int] = set()
        self.size = size

    def add(self, key: int) -> bool:
        """Remember ``key``; ``False`` when it was already there."""
        if key in self._set:
            return False
        self._order.append(key)
        self._set.add(key)
        if len(self._order) > self.size:
            self._set.discard(self._order.popleft())
        return True


class InFlight:
    """The ids of updates fetched from Telegram, and which of them are still being handled."""

    def __init__(self) -> None:
        self.fetched = RecentIds()
        self.handling: set[int] = set()
        self.last: int | None = None  # the newest id fetched
        self.idle = asyncio.Event()  # set while nothing is being handled
        self.idle.set()

    def fetch(self, update_id: int) -> bool:
        """Note a fetched update; ``False`` when it was fetched before (drop it)."""
        if not self.fetched.add(update_id):
            return False
        self.handling.add(update_id)
        self.idle.clear()
        self.last = update_id if self.last is None else max(self.last, update_id)
        return True

    def done(self, update_id: int) -> None:
        self.handling.discard(update_id)
        if not self.handling:
            self.idle.set()


class ConfirmAfterHandling:
    """The bot as PTB's ``Updater`` sees it: ``getUpdates`` confirms only handled updates.

    Telegram forgets every update below the ``offset`` of a ``getUpdates`` call. PTB asks for
    the next batch (confirming the last) as soon as it has queued one, so updates still being
    handled when the process dies would be lost. Here, while any update is being handled, the
    offset stays at the oldest of them and Telegram is asked briefly every
    :data:`SHORT_POLL_S` instead of long-polling (usually they are all handled sooner, and the
    long poll goes on at once); updates fetched again are dropped. After a
    crash the next start gets them again, and storage.deliveries keeps their effects single.
    Everything else is the real bot's.
    """

    def __init__(self, bot: Bot, in_flight: InFlight) -> None:
        self._bot = bot
        self._in_flight = in_flight

    def __getattr__(self, name: str) -> Any:
        return getattr(self._bot, name)

    async def get_updates(
        self, offset: int | None = None, timeout: Any = None, **kwargs: Any
    ) -> tuple[Update, ...]:
        if self._in_flight.handling:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._in_flight.idle.wait(), SHORT_POLL_S)
            if self._in_flight.handling:
                offset, timeout = min(self._in_flight.handling), 0
        updates = await self._bot.get_updates(offset=offset, timeout=timeout, **kwargs)
        return tuple(u for u in updates if self._in_flight.fetch(u.update_id))


class PerChatUpdates(BaseUpdateProcessor):
    """Updates of one chat in arrival order, different chats concurrently.

    A club's ``/register`` must be stored before the ``/result`` typed after it, while a big
    import in one group must not hold up ``/rating`` in another (bot.md, Long work).
    ``on_done`` is told when an update has been handled (:class:`ConfirmAfterHandling`).
    """

    def __init__(
        self,
        max_concurrent_updates: int = 32,
        on_done: Callable[[int], None] | None = None,
    ) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._on_done = on_done

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        try:
            await self._in_order(update, coroutine)
        finally:
            if self._on_done is not None and isinstance(update, Update):
                self._on_done(update.update_id)

    async def _in_order(self, update: object, coroutine: Awaitable[Any]) -> None:
        chat = update.effective_chat if isinstance(update, Update) else None
        if chat is None:
            await coroutine
            return
        lock = self._locks.get(chat.id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[chat.id] = lock
        async with lock:
            await coroutine

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to free."""


class AttachmentRefused(Exception):
    """An attached file the bot will not read (too big): its name and size."""

    def __init__(self, name: str | None, size: int) -> None:
        super().__init__(name, size)
        self.name, self.size = name, size

    def message(self) -> str:
        """The refusal in the current language."""
        return too_big(self.name, self.size, MAX_ATTACHMENT_BYTES)


@dataclass(frozen=True, slots=True)
class Target:
    """Where a reply goes: a chat, its forum topic, the message it answers."""

    chat_id: int
    thread_id: int | None = None
    reply_to: int | None = None
    language: str | None = None  # of the adapter's own words there, when already known


def webhook_secret(token: str) -> str:
    """The ``secret_token`` of the bot's webhook: the same in every process that runs the bot
    (Telegram keeps one secret per bot and sends it to whichever process the load balancer
    picks), and known only to who knows the token. Bot API: 1-256 of ``A-Za-z0-9_-``."""
    return hashlib.sha256(f"hoshi webhook secret:{token}".encode()).hexdigest()


class Webhook:
    """The bot's webhook: an HTTP server that answers Telegram's request for an update only
    once the update has been handled.

    PTB's own webhook answers as soon as it has queued the update; a process killed then has
    lost it (Telegram does not send an answered update again). Here, a process killed while
    handling leaves the request unanswered, and Telegram delivers the update again — behind a
    load balancer, to another process, where storage.deliveries makes sure it acts once.
    """

    def __init__(self, application: Application[Any, Any, Any, Any, Any, Any], secret: str):
        self.application = application
        self._secret = secret
        self._runner: web.AppRunner | None = None

    async def start(self, listen: str, port: int, path: str) -> None:
        app = web.Application()
        app.router.add_post("/" + path.lstrip("/"), self._received)
        runner = web.AppRunner(
            app, handle_signals=False, access_log=None, shutdown_timeout=WEBHOOK_STOP_S
        )
        await runner.setup()
        try:
            await web.TCPSite(runner, listen, port).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner

    async def _received(self, request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(given.encode(), self._secret.encode()):
            return web.Response(status=403)
        try:
            update = Update.de_json(await request.json(), self.application.bot)
        except Exception:
            log.warning("Telegram: the webhook received something that is not an update")
            return web.Response(status=400)
        if update is None:
            return web.Response(status=400)
        app = self.application
        if isinstance(app.bot, ExtBot):
            app.bot.insert_callback_data(update)
        # handled as polled updates are (one chat in order); answered once it is done
        await app.update_processor.process_update(update, app.process_update(update))
        return web.Response()

    async def stop(self) -> None:
        """Stop accepting updates; those being handled finish first (up to
        :data:`WEBHOOK_STOP_S`)."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()


# --- the adapter ---------------------------------------------------------------------------


class TelegramAdapter:
    """Bridges a PTB ``Application`` to the core. ``start()``/``stop()`` run it."""

    def __init__(
        self,
        core: Core,
        token: str,
        config: TelegramConfig,
        *,
        rate_limiter: bool = True,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.core = core
        self.config = config
        self.buttons = ButtonCommands(CALLBACK_DATA_BYTES)
        self._seen = RecentIds()
        self._in_flight = InFlight()
        self._admins: dict[int, tuple[float, frozenset[int]]] = {}
        self._monotonic = monotonic
        self._webhook: Webhook | None = None
        self._secret = webhook_secret(token)
        builder = (
            Application.builder()
            .token(token)
            .base_url(config.api_base_url)
            .base_file_url(config.file_base_url)
            .concurrent_updates(PerChatUpdates(on_done=self._in_flight.done))
            .job_queue(None)  # one scheduler for the whole process, shared by both platforms
        )
        if rate_limiter:
            builder = builder.rate_limiter(AIORateLimiter())
        self.application: Application[Any, Any, Any, Any, Any, Any] = builder.build()
        app = self.application
        if app.updater is not None:  # long polling confirms only what was handled
            app.updater.bot = ConfirmAfterHandling(app.bot, self._in_flight)  # type: ignore[assignment]
        app.add_handler(TypeHandler(Update, self._drop_duplicates), group=-1)
        app.add_handler(
            MessageHandler(
                filters.UpdateType.MESSAGE
                & (filters.COMMAND | (filters.Document.ALL & filters.CaptionRegex(r"^/\w"))),
                self._on_command,
            )
        )
        app.add_handler(CallbackQueryHandler(self._on_button))
        app.add_error_handler(self._on_error)

    @property
    def bot(self) -> Bot:
        return self.application.bot

    # --- lifecycle

    @property
    def running(self) -> bool:
        """Whether updates come in now (``/healthz``): the application runs, and polling runs
        or the webhook serves."""
        app = self.application
        if not app.running:
            return False
        if self.config.webhook_url:
            return self._webhook is not None
        return app.updater is not None and app.updater.running

    async def start(self) -> None:
        """Connect, publish the command menu and start receiving updates."""
        try:
            await self._start()
        except BaseException:
            await self.stop()  # a refused token must not leave connections open
            raise

    async def _start(self) -> None:
        app = self.application
        await app.initialize()
        await self.publish_commands()
        await app.start()
        assert app.updater is not None
        if self.config.webhook_url:
            # serving before Telegram is told, so that no update finds the port closed
            self._webhook = Webhook(app, self._secret)
            await self._webhook.start(
                self.config.webhook_listen,
                self.config.webhook_port,
                urlparse(self.config.webhook_url).path,
            )
            await self.bot.set_webhook(
                url=self.config.webhook_url,
                allowed_updates=list(ALLOWED_UPDATES),
                secret_token=self._secret,
            )
            log.info("Telegram: webhook on %s", self.config.webhook_url)
        else:
            await app.updater.start_polling(allowed_updates=list(ALLOWED_UPDATES))
            log.info("Telegram: polling as @%s", self.bot.username)

    async def stop(self) -> None:
        """Stop receiving, finish what runs and close the connection."""
        app = self.application
        if self._webhook is not None:
            await self._webhook.stop()  # the updates it is handling finish, then it closes
            self._webhook = None
        if app.updater is not None and app.updater.running:
            await app.updater.stop()
        if app.running:
            await app.stop()  # finishes the updates being handled …
        await self._confirm_handled()  # … and tells Telegram, so a restart does not get them
        await app.shutdown()
        await app.bot.shutdown()  # idempotent; frees the connections after a failed start too

    async def _confirm_handled(self) -> None:
        last = self._in_flight.last
        if self.config.webhook_url or last is None or self._in_flight.handling:
            return
        try:
            await self.bot.get_updates(offset=last + 1, timeout=0)
        except TelegramError as exc:  # they will come again, and change nothing again
            log.info("Telegram: could not confirm the last updates: %s", exc)

    async def publish_commands(self) -> None:
        """Telegram's command menu from the table: players' commands for everybody, every
        command for chat administrators and in private chats."""
        public = public_commands()
        everyone = [c for c in public if not c.organiser_only]
        scopes: list[tuple[BotCommandScope, list[CommandSpec]]] = [
            (BotCommandScopeDefault(), everyone),
            (BotCommandScopeAllPrivateChats(), public),
            (BotCommandScopeAllChatAdministrators(), public),
        ]
        for scope, commands in scopes:
            with using(SOURCE):
                default = bot_commands(commands)
            await self.bot.set_my_commands(default, scope=scope)
            for language in MENU_LANGUAGES:
                with using(language):
                    menu = bot_commands(commands)
                await self.bot.set_my_commands(menu, scope=scope, language_code=language)

    # --- updates → invocations

    def delivery(self, update: Update) -> str:
        """The update's key for exactly-once handling (update ids are per bot)."""
        return f"{PLATFORM}:{self.bot.id}:{update.update_id}"

    async def _drop_duplicates(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        if not self._seen.add(update.update_id):
            log.info("Telegram: update %s seen before; dropped", update.update_id)
            raise ApplicationHandlerStop
        if await deliveries.seen(self.core.db, self.delivery(update)):
            # delivered again after a restart: what it did is stored; do not do it twice
            log.info("Telegram: update %s was handled before; dropped", update.update_id)
            await self._already_handled(update)
            raise ApplicationHandlerStop

    async def _already_handled(self, update: Update) -> None:
        """Tell the sender that a redelivered message changed nothing the second time."""
        try:
            if update.callback_query is not None:
                with using(person_of(update.callback_query.from_user) or SOURCE):
                    done = _("Already done.")
                await update.callback_query.answer(done)
            elif update.effective_message is not None and update.effective_chat is not None:
                chat = update.effective_chat
                with using(await self.language_of_chat(chat, update.effective_user)):
                    note = Reply.text(
                        _(
                            "I had already handled this message before a restart; nothing "
                            "was done again."
                        )
                    )
                await self.deliver(note, Target(chat.id, reply_to=update.effective_message.id))
        except TelegramError as exc:
            log.warning("Telegram: could not answer a redelivered update: %s", exc)

    async def _on_command(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        message, chat, user = (
            update.effective_message,
            update.effective_chat,
            update.effective_user,
        )
        if message is None or chat is None or user is None:
            return
        parsed = parse_command(message.text or message.caption or "", self.bot.username)
        if parsed is None:
            return
        name, rest = parsed
        private = chat.type == ChatType.PRIVATE
        person = person_of(user)
        target = Target(
            chat.id,
            message.message_thread_id if message.is_topic_message else None,
            message.id,
            language=person if private else None,
        )
        try:
            attachment, attachment_name = await self._attachment(message, lookup(name))
        except AttachmentRefused as exc:
            with using(await self.language_of_chat(chat, user)):
                refused = Reply.text(exc.message(), error=True)
            await self.deliver(refused, target)
            return
        caller = Caller(
            PLATFORM,
            str(user.id),
            user.full_name,
            await self.chat_admin(chat, user, message),
            language=person,
        )
        inv = Invocation(
            command=name,
            text=rest,
            caller=caller,
            chat_id=str(chat.id),
            private=private,
            attachment=attachment,
            attachment_name=attachment_name,
            received_at=message.date,
            delivery=self.delivery(update),
        )
        reply = await self._handle(inv, target)
        await self.answer(reply, target, user, private)

    async def _attachment(
        self, message: Message, cmd: CommandSpec | None
    ) -> tuple[bytes | None, str | None]:
        """The file sent with the command, or the file the command replies to when the command
        reads files (``/tournament import`` answering a posted ``.h9``)."""
        document = message.document
        takes_file = cmd is not None and any(p.kind == "file" for p in cmd.params)
        if document is None and takes_file and message.reply_to_message is not None:
            document = message.reply_to_message.document
        if document is None:
            return None, None
        if document.file_size is not None and document.file_size > MAX_ATTACHMENT_BYTES:
            raise AttachmentRefused(document.file_name, document.file_size)
        file = await document.get_file()
        data = bytes(await file.download_as_bytearray())
        if len(data) > MAX_ATTACHMENT_BYTES:  # the declared size is optional, or may lie
            raise AttachmentRefused(document.file_name, len(data))
        return data, document.file_name or "attachment.txt"

    async def chat_admin(self, chat: Chat, user: User, message: Message | None) -> bool:
        """The caller administers this chat (cached ``admin_cache_s``), or it is private."""
        if chat.type == ChatType.PRIVATE:
            return True
        if message is not None and message.sender_chat is not None:
            return message.sender_chat.id == chat.id  # an anonymous administrator
        now = self._monotonic()
        cached = self._admins.get(chat.id)
        if cached is None or cached[0] <= now:
            try:
                members = await self.bot.get_chat_administrators(chat.id)
            except TelegramError as exc:
                log.warning("Telegram: administrators of %s unavailable: %s", chat.id, exc)
                return False
            cached = (now + self.config.admin_cache_s, frozenset(m.user.id for m in members))
            self._admins[chat.id] = cached
        return user.id in cached[1]

    async def _handle(self, inv: Invocation, target: Target) -> Reply:
        """The core's reply; "typing…" is shown while a slow command works."""
        task = asyncio.ensure_future(self.core.handle(inv))
        wait = TYPING_AFTER_S
        while True:
            done, _pending = await asyncio.wait({task}, timeout=wait)
            if done:
                return task.result()
            with contextlib.suppress(TelegramError):  # only a courtesy
                await self.bot.send_chat_action(
                    target.chat_id, ChatAction.TYPING, message_thread_id=target.thread_id
                )
            wait = TYPING_EVERY_S

    async def _on_button(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        command = self.buttons.decode(query.data or "")
        message = query.message
        person = person_of(query.from_user)
        if command is None or message is None:
            with using(person or SOURCE):
                stale = _("This button is no longer active; please type the command instead.")
            await query.answer(stale, show_alert=True)
            return
        chat, user = message.chat, query.from_user
        name, rest = split_command(command)
        private = chat.type == ChatType.PRIVATE
        caller = Caller(
            PLATFORM,
            str(user.id),
            user.full_name,
            await self.chat_admin(chat, user, None),
            language=person,
        )
        inv = Invocation(
            name, rest, caller, str(chat.id), private=private, delivery=self.delivery(update)
        )
        reply = await self.core.handle(inv)
        if reply.error:  # an alert only the presser sees: in their own language
            alert = for_person(reply, person).as_text()
            await query.answer(_cut(alert, ALERT_LIMIT), show_alert=True)
            return
        await query.answer()
        messages = render_html(reply)
        editable = (
            isinstance(message, Message)
            and message.text is not None
            and not reply.private
            and reply.picture is None
            and reply.document is None
            and len(messages) == 1
        )
        if editable:
            await query.edit_message_text(
                messages[0],
                parse_mode=ParseMode.HTML,
                reply_markup=self.keyboard(reply),
                link_preview_options=LinkPreviewOptions(is_disabled=True),
            )
            return
        thread = message.message_thread_id if isinstance(message, Message) else None
        target = Target(chat.id, thread, language=person if private else None)
        await self.answer(reply, target, user, private)

    # --- replies → messages

    async def answer(self, reply: Reply, target: Target, user: User, private_chat: bool) -> None:
        """Send ``reply`` for ``user``: a private reply from a group goes to their private
        chat (never into the group: it may hold a join code), in their own language when
        Telegram says it; what the group is told is in the club's language."""
        if not reply.private or reply.error or private_chat:
            await self.deliver(reply, target)
            return
        person = person_of(user)
        try:
            await self.deliver(for_person(reply, person), Target(user.id, language=person))
        except Forbidden:
            with using(await self._target_language(target)):
                refused = Reply.text(
                    _(
                        "I can't message you privately yet: open a chat with @{username}, "
                        "press Start, then send the command again.",
                        username=self.bot.username,
                    ),
                    error=True,
                )
            await self.deliver(refused, target)
            return
        with using(await self._target_language(target)):
            sent = Reply.text(_("I've sent you the answer in a private message."))
        await self.deliver(sent, target)

    async def language_of_chat(self, chat: Chat, user: User | None) -> str:
        """The language of the adapter's own words in ``chat``: the person's own in a private
        chat (when Telegram says it), else the club's."""
        person = person_of(user) if user is not None else None
        if chat.type == ChatType.PRIVATE and person is not None:
            return person
        return await chat_language(self.core.db, PLATFORM, chat.id, person)

    async def _language_or_source(self, chat: Chat, user: User | None) -> str:
        """:meth:`language_of_chat`, or English when even that fails (an incident may be the
        database's own)."""
        try:
            return await self.language_of_chat(chat, user)
        except Exception:
            log.warning("Telegram: the language of chat %s is unknown", chat.id, exc_info=True)
            return SOURCE

    async def _target_language(self, target: Target) -> str:
        if target.language is not None:
            return target.language
        return await chat_language(self.core.db, PLATFORM, target.chat_id)

    async def post(self, chat_id: str, reply: Reply) -> None:
        """Post a reply the bot sends by itself (scheduled summaries) to a chat."""
        await self.deliver(reply, Target(int(chat_id)))

    def keyboard(self, reply: Reply) -> InlineKeyboardMarkup | None:
        """The reply's buttons, one per row, each carrying its command (or a key to it)."""
        if not reply.buttons:
            return None
        return InlineKeyboardMarkup(
            [
                [InlineKeyboardButton(b.label, callback_data=self.buttons.encode(b.command))]
                for b in reply.buttons
            ]
        )

    async def deliver(self, reply: Reply, target: Target) -> None:
        """Text messages, then the picture, then the file; the buttons go on the last one."""
        messages = render_html(reply)
        document = reply.document
        if len(messages) > MAX_MESSAGES:  # a long list reads better as a file
            first = reply.blocks[0]
            with using(await self._target_language(target)):
                head = first.text if not isinstance(first, Table) else _("The answer")
                long = _("The full answer is long; it is in the file.")
            messages = [f"{escape(_cut(head, 200))}\n\n<i>{escape(long)}</i>"]
            document = _as_document(reply)
            extra = reply.document
        else:
            extra = None
        picture_caption = escape(reply.picture.caption) if reply.picture else ""
        if (
            reply.picture is not None
            and not picture_caption
            and len(messages) == 1
            and visible_length(messages[0]) <= CAPTION_LIMIT
        ):
            picture_caption, messages = messages[0], []
        sends: list[
            Callable[[InlineKeyboardMarkup | None, ReplyParameters | None], Awaitable[Message]]
        ] = []
        for html in messages:
            sends.append(self._text_sender(target, html))
        if reply.picture is not None:
            sends.append(
                self._file_sender(
                    target, "photo", reply.picture.png, reply.picture.filename, picture_caption
                )
            )
        for doc in (document, extra):
            if doc is not None:
                caption = escape(_cut(doc.caption, CAPTION_LIMIT)) if doc.caption else ""
                sends.append(
                    self._file_sender(target, "document", doc.data, doc.filename, caption)
                )
        markup = self.keyboard(reply)
        for i, send in enumerate(sends):
            last = i == len(sends) - 1
            quote = (
                ReplyParameters(target.reply_to, allow_sending_without_reply=True)
                if i == 0 and target.reply_to is not None
                else None
            )
            await send(markup if last else None, quote)

    def _text_sender(
        self, target: Target, html: str
    ) -> Callable[[InlineKeyboardMarkup | None, ReplyParameters | None], Awaitable[Message]]:
        async def send(
            markup: InlineKeyboardMarkup | None, quote: ReplyParameters | None
        ) -> Message:
            return await self.bot.send_message(
                target.chat_id,
                html,
                parse_mode=ParseMode.HTML,
                message_thread_id=target.thread_id,
                reply_parameters=quote,
                reply_markup=markup,
                link_preview_options=LinkPreviewOptions(is_disabled=True),
            )

        return send

    def _file_sender(
        self, target: Target, kind: str, data: bytes, filename: str, caption: str
    ) -> Callable[[InlineKeyboardMarkup | None, ReplyParameters | None], Awaitable[Message]]:
        async def send(
            markup: InlineKeyboardMarkup | None, quote: ReplyParameters | None
        ) -> Message:
            common: dict[str, Any] = {
                "caption": caption or None,
                "parse_mode": ParseMode.HTML,
                "message_thread_id": target.thread_id,
                "reply_parameters": quote,
                "reply_markup": markup,
            }
            upload = InputFile(data, filename=filename)
            if kind == "photo":
                return await self.bot.send_photo(target.chat_id, upload, **common)
            return await self.bot.send_document(target.chat_id, upload, **common)

        return send

    # --- errors

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log every failure; tell the chat with an incident reference. Never raises."""
        error = context.error
        if update is None and isinstance(error, NetworkError):
            log.warning("Telegram: network trouble: %s", error)
            return
        ref = secrets.token_hex(3)
        log.error("incident %s: a Telegram update failed", ref, exc_info=error)
        if not isinstance(update, Update):
            return
        try:
            if update.callback_query is not None:
                with using(person_of(update.callback_query.from_user) or SOURCE):
                    alert = _("Something went wrong (ref {ref}).", ref=ref)
                await update.callback_query.answer(alert, show_alert=True)
            elif update.effective_chat is not None:
                chat = update.effective_chat
                with using(await self._language_or_source(chat, update.effective_user)):
                    text = _(
                        "Something went wrong (ref {ref}). Nothing more was changed; an "
                        "organiser can report the reference to the bot's operator.",
                        ref=ref,
                    )
                await self.bot.send_message(chat.id, text)
        except TelegramError as exc:
            log.warning("Telegram: could not report incident %s: %s", ref, exc)


def person_of(user: User | None) -> str | None:
    """The person's own language when Telegram says it and hoshi has a catalogue for it."""
    return language_of(user.language_code) if user is not None else None


def _as_document(reply: Reply) -> Document:
    """A reply too long for messages, as a text file named after its title."""
    first = reply.blocks[0] if reply.blocks else None
    stem = "answer"
    if first is not None and not isinstance(first, Table) and first.title:
        stem = re.sub(r"[^\w-]+", "-", first.text.lower()).strip("-")[:40] or "answer"
    return Document(reply.as_text().encode("utf-8") + b"\n", f"{stem}.txt")
