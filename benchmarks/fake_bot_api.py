"""A fake Telegram Bot API on 127.0.0.1: answers the methods hoshi uses and records every call.

The real python-telegram-bot ``Application`` talks to it over HTTP (``base_url`` pointing here),
so the tests exercise PTB's own request encoding, update parsing and handler dispatch. Tests
queue updates (:meth:`FakeBotApi.command`, :meth:`FakeBotApi.press`), the bot long-polls them
with ``getUpdates``, and the tests wait for and read what the bot sent (:attr:`calls`).

Webhooks: every distinct URL given to ``setWebhook`` joins a pool — the fake is Telegram and a
load balancer in front of several ``hoshi run`` processes at once. While the pool is not empty,
a queued update is POSTed to one of them (round-robin, or the one a test names) instead of
waiting for ``getUpdates``, with the secret last set (Telegram keeps one per bot). An update
whose request fails — refused, cut by a killed process, not answered 200 — is posted again to
another process of the pool, as Telegram retries an update it has no answer for
(:attr:`FakeBotApi.posts` records every attempt). ``deleteWebhook`` empties the pool.

Only loopback; no network. Bounded waits everywhere, and :meth:`close` wakes every poller.

It lives in the installed ``benchmarks`` package because ``hoshi bench`` measures the Telegram
adapter against it after a plain ``pip install``; the tests import it as ``tests.fakes.telegram``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import BodyPartReader, web


async def served_locally(app: web.Application) -> tuple[web.AppRunner, int]:
    """``app`` served on 127.0.0.1 at a free port: its runner (to clean up) and the port."""
    runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    server = site._server
    assert isinstance(server, asyncio.base_events.Server)
    port: int = server.sockets[0].getsockname()[1]
    return runner, port


TOKEN = "123456:TEST-not-a-real-token"
BOT_ID = 123456
BOT_USERNAME = "hoshi_test_bot"
MAX_POLL_WAIT_S = 1.0  # getUpdates long-polls at most this long (PTB asks for 10 s)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
WEBHOOK_TIMEOUT_S = 30.0  # how long a webhook request may take before it counts as failed
WEBHOOK_RETRY_S = 0.05  # the pause before an update is posted again (Telegram's is longer)
WEBHOOK_ATTEMPTS = 100  # then the update is given up (recorded as a post ``"given up"``)


@dataclass(frozen=True, slots=True)
class Call:
    """One Bot API request: the method, its JSON-decoded fields and any uploaded files."""

    method: str
    params: dict[str, Any]
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    at: float = field(default=0.0, compare=False)  # time.monotonic() when it was received

    def summary(self) -> str:
        """A one-line description for reports: ``sendMessage chat=-100 text='…'``."""
        shown = {k: v for k, v in self.params.items() if k not in ("link_preview_options",)}
        parts = [f"{k}={_short(v)}" for k, v in shown.items()]
        parts += [f"{k}=<file {name} {len(data)} bytes>" for k, (name, data) in self.files.items()]
        return f"{self.method} " + " ".join(parts)


@dataclass(frozen=True, slots=True)
class Post:
    """One attempt to deliver an update to a webhook: where, and its HTTP status (200: the
    process handled it) or why it failed (``"ServerDisconnectedError"`` …)."""

    update_id: int
    url: str
    outcome: int | str
    at: float = field(default=0.0, compare=False)  # time.monotonic() when it ended

    @property
    def delivered(self) -> bool:
        return self.outcome == 200


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def user(uid: int, first: str, last: str | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"id": uid, "is_bot": False, "first_name": first}
    if last:
        data["last_name"] = last
    return data


def group(chat_id: int, title: str = "Go Club") -> dict[str, Any]:
    return {"id": chat_id, "type": "supergroup", "title": title}


def private(u: dict[str, Any]) -> dict[str, Any]:
    return {"id": u["id"], "type": "private", "first_name": u["first_name"]}


class FakeBotApi:
    """The fake server. ``async with FakeBotApi() as api:`` starts and stops it."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.admins: dict[int, set[int]] = {}  # chat id → administrator user ids
        self.unreachable: set[int] = set()  # users who never pressed Start (403 on DM)
        self.files: dict[str, tuple[str, bytes]] = {}  # file_id → (file_name, data)
        self.fail_next: dict[str, int] = {}  # method → how many next calls answer 400
        self.stalled: set[int] = set()  # message ids whose answers are never answered (below)
        self._updates: list[dict[str, Any]] = []
        self._update_ids = itertools.count(1000)
        self._message_ids = itertools.count(1)
        self._file_ids = itertools.count(1)
        self._changed = asyncio.Condition()
        self._closing = False
        self._closed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0
        # webhooks (see the module docstring)
        self.webhooks: list[str] = []  # the pool, in the order the URLs were set
        self.secret: str | None = None  # the secret_token last set
        self.down: set[str] = set()  # refused or cut a request: skipped until set again
        self.posts: list[Post] = []  # every delivery attempt
        self.in_flight: Counter[str] = Counter()  # requests under way, by URL
        self._turn = itertools.count()
        self._posting: set[asyncio.Task[None]] = set()
        self._http: aiohttp.ClientSession | None = None

    # --- lifecycle

    async def __aenter__(self) -> FakeBotApi:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._method)
        app.router.add_get("/file/bot{token}/{path:.*}", self._file)
        self._runner, self.port = await served_locally(app)
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def close(self) -> None:
        self._closing = True
        self._closed.set()
        async with self._changed:
            self._changed.notify_all()
        for task in list(self._posting):
            task.cancel()
        for task in list(self._posting):
            with contextlib.suppress(BaseException):
                await task
        if self._http is not None:
            await self._http.close()
            self._http = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def file_base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/file/bot"

    # --- feeding updates

    def push(self, update: dict[str, Any], *, to: int | None = None) -> dict[str, Any]:
        """Queue a raw update (``update_id`` assigned when missing); returns it.

        With webhooks set it is posted at once: to ``webhooks[to]`` when given (and up),
        else to the next one round-robin; again to another one while its requests fail.
        """
        update.setdefault("update_id", next(self._update_ids))
        if self.webhooks:
            task = asyncio.get_running_loop().create_task(self._deliver(update, to))
            self._posting.add(task)
            task.add_done_callback(self._posting.discard)
            return update
        self._updates.append(update)
        asyncio.get_running_loop().create_task(self._notify())
        return update

    def message(
        self,
        text: str,
        chat: dict[str, Any],
        sender: dict[str, Any],
        *,
        document: tuple[str, bytes] | None = None,
        reply_to: dict[str, Any] | None = None,
        to: int | None = None,
    ) -> dict[str, Any]:
        """A message update; a ``/command`` gets its ``bot_command`` entity (text or caption).
        ``to``: the webhook to post it to (see :meth:`push`)."""
        message: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": chat,
            "from": sender,
        }
        key = "caption" if document else "text"
        message[key] = text
        if text.startswith("/"):
            length = len(text.split(maxsplit=1)[0]) if text.split() else 1
            message[f"{key}_entities" if key == "caption" else "entities"] = [
                {"type": "bot_command", "offset": 0, "length": length}
            ]
        if document is not None:
            message["document"] = self.upload(*document)
        if reply_to is not None:
            message["reply_to_message"] = reply_to
        return self.push({"message": message}, to=to)

    def command(
        self, text: str, chat: dict[str, Any], sender: dict[str, Any], *, to: int | None = None
    ) -> dict[str, Any]:
        return self.message(text, chat, sender, to=to)

    def upload(self, file_name: str, data: bytes) -> dict[str, Any]:
        """A document as Telegram describes it; ``getFile`` and the file URL serve ``data``."""
        file_id = f"doc-{next(self._file_ids)}"
        self.files[file_id] = (file_name, data)
        return {
            "file_id": file_id,
            "file_unique_id": f"u{file_id}",
            "file_name": file_name,
            "mime_type": "text/plain",
            "file_size": len(data),
        }

    def press(self, data: str, message: dict[str, Any], sender: dict[str, Any]) -> dict[str, Any]:
        """A callback query: ``sender`` pressed the button with ``data`` under ``message``."""
        query = {
            "id": f"cq-{next(self._update_ids)}",
            "from": sender,
            "chat_instance": "ci-1",
            "data": data,
            "message": message,
        }
        return self.push({"callback_query": query})

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # --- webhooks

    def _target(self, to: int | None, avoid: set[str]) -> str | None:
        """The webhook for the next attempt: ``to``'s when it is up, else the next one up
        round-robin (one not tried for this update yet, when there is one)."""
        up = [url for url in self.webhooks if url not in self.down]
        if to is not None and 0 <= to < len(self.webhooks) and self.webhooks[to] in up:
            return self.webhooks[to]
        fresh = [url for url in up if url not in avoid] or up
        return fresh[next(self._turn) % len(fresh)] if fresh else None

    async def _deliver(self, update: dict[str, Any], to: int | None) -> None:
        body = json.dumps(update)
        tried: set[str] = set()
        for _attempt in range(WEBHOOK_ATTEMPTS):
            if self._closing:
                return
            url = self._target(to, tried)
            if url is not None:
                outcome = await self._post(url, body)
                self.posts.append(Post(update["update_id"], url, outcome, time.monotonic()))
                await self._notify()
                if outcome == 200:
                    return
                tried.add(url)
                to = None  # Telegram retries; the load balancer picks another process
            await asyncio.sleep(WEBHOOK_RETRY_S)
        self.posts.append(Post(update["update_id"], "", "given up", time.monotonic()))
        await self._notify()

    async def _post(self, url: str, body: str) -> int | str:
        if self._http is None:
            self._http = aiohttp.ClientSession()
        headers = {"Content-Type": "application/json"}
        if self.secret is not None:
            headers[SECRET_HEADER] = self.secret
        self.in_flight[url] += 1
        await self._notify()
        try:
            timeout = aiohttp.ClientTimeout(total=WEBHOOK_TIMEOUT_S)
            async with self._http.post(url, data=body, headers=headers, timeout=timeout) as r:
                await r.read()
                return r.status
        except aiohttp.ClientConnectionError as exc:  # refused, or cut by a killed process
            self.down.add(url)
            return type(exc).__name__
        except TimeoutError:
            return "timeout"
        finally:
            self.in_flight[url] -= 1
            await self._notify()

    def redelivered(self) -> set[int]:
        """The updates posted more than once."""
        counts = Counter(p.update_id for p in self.posts if p.url)
        return {update_id for update_id, n in counts.items() if n > 1}

    async def settled(self, timeout: float = 30.0) -> None:
        """Wait until every update posted to a webhook was delivered (or given up)."""

        async def drained() -> None:
            while self._posting:
                await asyncio.wait(set(self._posting))

        await asyncio.wait_for(drained(), timeout)

    # --- reading what the bot did

    def sent(self, *methods: str) -> list[Call]:
        """Calls of the given methods, in order."""
        return [c for c in self.calls if c.method in methods]

    async def wait_for(
        self,
        predicate: Callable[[list[Call]], bool] | str,
        count: int = 1,
        timeout: float = 5.0,
    ) -> list[Call]:
        """Wait until ``count`` calls of a method were made (or a predicate on all calls
        holds); returns the calls of that method (or all calls)."""
        if isinstance(predicate, str):
            method = predicate

            def counted(calls: list[Call]) -> bool:
                return sum(c.method == method for c in calls) >= count

            check: Callable[[list[Call]], bool] = counted

            result: Callable[[], list[Call]] = lambda: self.sent(method)  # noqa: E731
        else:
            check = predicate
            result = lambda: list(self.calls)  # noqa: E731
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: check(self.calls)), timeout)
        return result()

    # --- the server

    async def _decode(self, request: web.Request) -> tuple[dict[str, Any], dict[str, Any]]:
        params: dict[str, Any] = {}
        files: dict[str, tuple[str, bytes]] = {}
        if request.content_type == "multipart/form-data":
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                assert isinstance(part, BodyPartReader)  # form data: no nested multipart
                name = part.name or ""
                if part.filename:
                    files[name] = (part.filename, bytes(await part.read()))
                else:
                    params[name] = _json(await part.text())
        elif request.content_type == "application/json":
            params = await request.json()
        else:
            params = {k: _json(v) for k, v in (await request.post()).items()}  # type: ignore
        return params, files

    async def _method(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != TOKEN:
            return _error(401, "Unauthorized")
        method = request.match_info["method"]
        params, files = await self._decode(request)
        if method != "getUpdates":
            self.calls.append(Call(method, params, files, time.monotonic()))
            await self._notify()
        quoted = (params.get("reply_parameters") or {}).get("message_id")
        if method == "sendMessage" and quoted in self.stalled:
            # a network stall: the bot's answer to this message arrives, and the bot never
            # hears back (until the fake closes) — a process killed then has acted and not
            # finished handling the update
            await self._closed.wait()
            return _error(502, "Bad Gateway: stalled by the test")
        if self.fail_next.get(method, 0) > 0:
            self.fail_next[method] -= 1
            return _error(400, "Bad Request: failure injected by the test")
        handler: Callable[..., Awaitable[web.Response]] | None = getattr(
            self, f"_m_{method}", None
        )
        if handler is None:
            return _error(404, f"Not Found: method {method} not faked")
        return await handler(params, files)

    async def _file(self, request: web.Request) -> web.Response:
        path = request.match_info["path"]
        file_id = path.rsplit("/", 1)[-1]
        if file_id not in self.files:
            return web.Response(status=404)
        return web.Response(body=self.files[file_id][1])

    # --- methods

    async def _m_getMe(self, *_: Any) -> web.Response:
        return _ok(
            {
                "id": BOT_ID,
                "is_bot": True,
                "first_name": "hoshi",
                "username": BOT_USERNAME,
                "can_join_groups": True,
                "can_read_all_group_messages": False,
                "supports_inline_queries": False,
            }
        )

    async def _m_getUpdates(self, params: dict[str, Any], _: Any) -> web.Response:
        offset = int(params.get("offset") or 0)
        wait = min(float(params.get("timeout") or 0), MAX_POLL_WAIT_S)
        self._updates = [u for u in self._updates if u["update_id"] >= offset]

        def ready() -> bool:
            return bool(self._updates) or self._closing

        if not ready() and wait > 0:
            async with self._changed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait_for(ready), wait)
        limit = int(params.get("limit") or 100)
        return _ok(self._updates[:limit])

    async def _m_deleteWebhook(self, *_: Any) -> web.Response:
        self.webhooks.clear()
        return _ok(True)

    async def _m_setWebhook(self, params: dict[str, Any], _: Any) -> web.Response:
        url = str(params["url"])
        if url not in self.webhooks:
            self.webhooks.append(url)
        self.down.discard(url)  # a process (re)started behind it
        self.secret = params.get("secret_token") or None
        return _ok(True)

    async def _m_setMyCommands(self, *_: Any) -> web.Response:
        return _ok(True)

    async def _m_sendChatAction(self, *_: Any) -> web.Response:
        return _ok(True)

    async def _m_answerCallbackQuery(self, *_: Any) -> web.Response:
        return _ok(True)

    def _chat(self, chat_id: Any) -> dict[str, Any]:
        cid = int(chat_id)
        if cid < 0:
            return group(cid)
        return {"id": cid, "type": "private", "first_name": "someone"}

    def _message(self, params: dict[str, Any], **content: Any) -> dict[str, Any]:
        return {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": self._chat(params["chat_id"]),
            "from": {"id": BOT_ID, "is_bot": True, "first_name": "hoshi"},
            **({"reply_markup": params["reply_markup"]} if params.get("reply_markup") else {}),
            **content,
        }

    def _refused(self, params: dict[str, Any]) -> web.Response | None:
        if int(params["chat_id"]) in self.unreachable:
            return _error(403, "Forbidden: bot can't initiate conversation with a user")
        return None

    async def _m_sendMessage(self, params: dict[str, Any], _: Any) -> web.Response:
        return self._refused(params) or _ok(self._message(params, text=params["text"]))

    async def _m_sendPhoto(self, params: dict[str, Any], _: Any) -> web.Response:
        photo = [{"file_id": "photo-1", "file_unique_id": "p1", "width": 800, "height": 500}]
        return self._refused(params) or _ok(self._message(params, photo=photo))

    async def _m_sendDocument(
        self, params: dict[str, Any], files: dict[str, tuple[str, bytes]]
    ) -> web.Response:
        name = files["document"][0] if "document" in files else "file"
        document = {"file_id": "sent-doc", "file_unique_id": "sd", "file_name": name}
        return self._refused(params) or _ok(self._message(params, document=document))

    async def _m_editMessageText(self, params: dict[str, Any], _: Any) -> web.Response:
        message = self._message(params, text=params["text"])
        message["message_id"] = int(params["message_id"])
        message["edit_date"] = int(time.time())
        return _ok(message)

    async def _m_getChatAdministrators(self, params: dict[str, Any], _: Any) -> web.Response:
        members = [
            {"status": "creator", "user": user(uid, f"admin{uid}"), "is_anonymous": False}
            for uid in sorted(self.admins.get(int(params["chat_id"]), ()))
        ]
        return _ok(members)

    async def _m_getFile(self, params: dict[str, Any], _: Any) -> web.Response:
        file_id = str(params["file_id"])
        if file_id not in self.files:
            return _error(400, "Bad Request: invalid file_id")
        return _ok(
            {
                "file_id": file_id,
                "file_unique_id": f"u{file_id}",
                "file_size": len(self.files[file_id][1]),
                "file_path": f"documents/{file_id}",
            }
        )


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _ok(result: Any) -> web.Response:
    return web.json_response({"ok": True, "result": result})


def _error(code: int, description: str) -> web.Response:
    return web.json_response(
        {"ok": False, "error_code": code, "description": description}, status=code
    )
