"""The webhook: Telegram's requests answered only once their update has been handled (PTB's
webhook handler, changed in when it answers)."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
from typing import Any

from aiohttp import web
from telegram import Update
from telegram.ext import Application, ExtBot

from bot.serving import IDLE_S, MAX_BODY, Runner

log = logging.getLogger("hoshi.telegram")

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"  # Bot API setWebhook: secret_token
WEBHOOK_STOP_S = 10.0  # how long a stopping webhook lets the updates it is handling finish
BODY_S = 10.0
"""Seconds a request may take to send its body once its head has come (a slow client's update
is refused with 408; Telegram sends one again)."""


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

    async def start(self, listen: str, port: int, path: str, *, idle_s: float = IDLE_S) -> None:
        """Serve ``POST /path`` on ``listen:port`` (``idle_s``: how long a connection may take
        to send a request head, bot.serving)."""
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_post("/" + path.lstrip("/"), self._received)
        runner = Runner(
            app,
            idle_s=idle_s,
            handle_signals=False,
            access_log=None,
            shutdown_timeout=WEBHOOK_STOP_S,
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
        # a header's bytes that are not UTF-8 come as lone surrogates: compared as the bytes
        # they were (a wrong secret, 403), never an error (issue 26)
        if not hmac.compare_digest(
            given.encode("utf-8", "surrogateescape"), self._secret.encode()
        ):
            return web.Response(status=403)
        try:
            async with asyncio.timeout(BODY_S):
                body = await request.read()
        except TimeoutError:
            log.warning("Telegram: the webhook gave up on a body that came too slowly")
            slow = web.Response(status=408)
            slow.force_close()  # the rest of that body is not waited for
            return slow
        try:
            update = Update.de_json(json.loads(body), self.application.bot)
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
