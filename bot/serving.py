"""What every HTTP server of hoshi answers with and how long it waits (issue 26, item 2): the
web pages (``hoshi web``, bot.web.app) and Telegram's webhook (bot.adapters.telegram.webhook)
both run on :class:`Runner`.

* Every response carries :data:`SECURITY_HEADERS` and ``Server:`` :data:`SERVER` — also the
  server's own answers to a request it could not read (a bad request line, a header too long),
  which pass no middleware.
* A connection that has not sent a whole request head (request line and headers) within
  :data:`IDLE_S` seconds of opening, or of its last answer, is closed: a slow client cannot hold
  a connection by trickling its headers, nor keep an idle one open.
* A request line or a header longer than :data:`MAX_LINE` bytes, more than
  :data:`MAX_HEADERS` headers (400), or a body over :data:`MAX_BODY` bytes (413, for the apps
  made with ``client_max_size=MAX_BODY``) is refused by aiohttp's parser before any handler.
"""

from __future__ import annotations

import functools
from typing import Any

from aiohttp import hdrs, web

__all__ = ["IDLE_S", "MAX_BODY", "MAX_HEADERS", "MAX_LINE", "SECURITY_HEADERS", "SERVER", "Runner"]

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "interest-cohort=()",
}
"""Sent with every response: no inline script or style, nothing from elsewhere, no framing."""

SERVER = "hoshi"
"""What the ``Server`` header says: no software or version to look up weaknesses of."""

IDLE_S = 15.0
"""Seconds a connection may take to send a whole request head, counted from its opening or
from its last answer (aiohttp's keep-alive timer, which a trickle of bytes does not reset)."""

MAX_LINE = 8190
"""Bytes a request line or one header may have."""

MAX_HEADERS = 128
"""Headers a request may have."""

MAX_BODY = 1024 * 1024
"""Bytes a request body may have (the webhook's updates are small; the pages take none)."""


class _Request(web.Request):
    """A request whose every response carries the security headers and :data:`SERVER`."""

    async def _prepare_hook(self, response: web.StreamResponse) -> None:
        response.headers.update(SECURITY_HEADERS)
        response.headers[hdrs.SERVER] = SERVER
        await super()._prepare_hook(response)


class Runner(web.AppRunner):
    """An app's runner whose requests are :class:`_Request` and whose connections close after
    :data:`IDLE_S` seconds without a whole request head (``idle_s`` for a test)."""

    def __init__(self, app: web.Application, *, idle_s: float = IDLE_S, **kwargs: Any) -> None:
        super().__init__(
            app,
            keepalive_timeout=idle_s,
            max_line_size=MAX_LINE,
            max_field_size=MAX_LINE,
            max_headers=MAX_HEADERS,
            **kwargs,
        )

    async def _make_server(self) -> web.Server:
        server = await super()._make_server()
        server.request_factory = functools.partial(self.app._make_request, _cls=_Request)
        return server
