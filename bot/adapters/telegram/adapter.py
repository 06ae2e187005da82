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
handled: long polling asks for the next ones only then (:mod:`~bot.adapters.telegram.polling`),
and the webhook answers Telegram's request only then (:mod:`~bot.adapters.telegram.webhook`).
What a killed process was still handling is delivered again — at its next start, or (webhooks
behind a load balancer) at once to another process — and acted on exactly once, all in all.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

from telegram import (
    Bot,
    BotCommandScope,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
    Chat,
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
    ApplicationBuilder,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.adapters.buttons import ButtonCommands, split_command
from bot.adapters.languages import for_person, too_big
from bot.adapters.telegram.admins import AdminCache
from bot.adapters.telegram.menu import MENU_LANGUAGES, bot_commands, parse_command
from bot.adapters.telegram.polling import ConfirmAfterHandling
from bot.adapters.telegram.processor import PerChatUpdates
from bot.adapters.telegram.rendering import (
    CAPTION_LIMIT,
    as_document,
    escape,
    keyboard,
    render_html,
    visible_length,
)
from bot.adapters.telegram.rendering import cut as _cut
from bot.adapters.telegram.updates import InFlight, RecentIds
from bot.adapters.telegram.webhook import Webhook, webhook_secret
from bot.config import TelegramConfig
from bot.core.app import Core
from bot.core.command_table import lookup, public_commands
from bot.core.commands import CommandSpec
from bot.core.facade import chat_language, handled_before
from bot.core.invocation import Caller, Invocation
from bot.core.replies import Reply, Table
from bot.i18n import _, language_of, using
from bot.i18n.catalogues import SOURCE

log = logging.getLogger("hoshi.telegram")

PLATFORM = "telegram"
ALERT_LIMIT = 200  # answerCallbackQuery text
CALLBACK_DATA_BYTES = 64  # InlineKeyboardButton.callback_data: 1-64 bytes
MAX_MESSAGES = 4  # a longer answer is sent as a file instead of a wall of messages
MAX_ATTACHMENT_BYTES = 5_000_000  # results tables are kilobytes; refuse anything huge
ALLOWED_UPDATES = ("message", "callback_query")
TYPING_AFTER_S = 1.0  # show "typing…" when the core takes longer than this
TYPING_EVERY_S = 4.5  # Telegram shows a chat action for about 5 seconds


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
        self._admins = AdminCache(config.admin_cache_s, monotonic)
        self._webhook: Webhook | None = None
        self._secret = webhook_secret(token)
        builder: ApplicationBuilder[Any, Any, Any, Any, Any, Any] = (
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
        bot: Bot = self.application.bot
        return bot

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
        if await handled_before(self.core.db, self.delivery(update)):
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
        caller = await self.caller(chat, user, message, person)
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
        takes_file = cmd is not None and (
            bool(cmd.with_file) or any(p.kind == "file" for p in cmd.params)
        )  # /result answering an .sgf reads it (with_file: /sgf)
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

    async def caller(
        self, chat: Chat, user: User, message: Message | None, language: str | None
    ) -> Caller:
        """Who sent a command or pressed a button in ``chat``, as the core knows people."""
        return Caller(
            PLATFORM,
            str(user.id),
            user.full_name,
            await self.chat_admin(chat, user, message),
            language=language,
        )

    async def chat_admin(self, chat: Chat, user: User, message: Message | None) -> bool:
        """The caller administers this chat (cached ``admin_cache_s``), or it is private."""
        if chat.type == ChatType.PRIVATE:
            return True
        if message is not None and message.sender_chat is not None:
            return message.sender_chat.id == chat.id  # an anonymous administrator
        return await self._admins.administers(self.bot, chat.id, user.id)

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
        caller = await self.caller(chat, user, None, person)
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
                reply_markup=keyboard(reply, self.buttons),
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

    async def tell(self, account: str, reply: Reply) -> None:
        """Tell one person in private (a Telegram user's private chat has their id; it
        reaches them once they have started the bot)."""
        await self.deliver(reply, Target(int(account)))

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
            document = as_document(reply)
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
        markup = keyboard(reply, self.buttons)
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
