"""A fake Discord REST API on 127.0.0.1, and gateway events injected by hand.

discord.py's ``Route.BASE`` points here while the fake runs, so the real client logs in
(``GET /users/@me``, ``GET /oauth2/applications/@me``), syncs its command tree (``PUT
…/commands``) and answers interactions (``POST /interactions/{id}/{token}/callback``,
follow-ups through the webhook routes) over HTTP. Interactions are injected as gateway events
through the client's connection state (``parse_interaction_create``) — private API, wrapped
here once (stack-notes.md, Discord without the network). Every request is recorded.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from aiohttp import web
from discord.http import Route

from benchmarks.fake_bot_api import served_locally

APP_ID = 700000000000000001
BOT_USER_ID = 700000000000000002
GUILD_ID = 800000000000000001
CHANNEL_ID = 800000000000000002
DM_CHANNEL_ID = 800000000000000003  # the bot's direct messages with a user
TOKEN = "fake-discord-token"
MANAGE_GUILD = 1 << 5
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11)  # view channel, send messages
SUB_COMMAND = 1  # an application command option that is a subcommand (/club komi)
INTERACTION_TASKS = (  # the names discord.py gives the tasks that answer an interaction
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
    "discord-ui-modal-dispatch-",
)


@dataclass(frozen=True, slots=True)
class Call:
    """One REST request: method, path, JSON body and uploaded files."""

    method: str
    path: str
    body: Any = None
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    message_id: str | None = None  # the id of the message this request created, if any

    @property
    def data(self) -> dict[str, Any]:
        """The message data of an interaction callback or follow-up."""
        if not isinstance(self.body, dict):
            return {}
        inner = self.body.get("data")
        return inner if isinstance(inner, dict) and "type" in self.body else self.body

    def summary(self) -> str:
        body = json.dumps(self.body, ensure_ascii=False) if self.body is not None else ""
        if len(body) > 400:
            body = body[:399] + "…"
        files = " ".join(f"<file {n} {len(d)} bytes>" for n, d in self.files.values())
        return f"{self.method} {self.path} {body} {files}".rstrip()


def discord_user(uid: int, name: str) -> dict[str, Any]:
    return {
        "id": str(uid),
        "username": name.lower(),
        "discriminator": "0",
        "global_name": name,
        "avatar": None,
    }


def member(uid: int, name: str, permissions: int) -> dict[str, Any]:
    return {
        "user": discord_user(uid, name),
        "roles": [],
        "joined_at": "2024-01-01T00:00:00+00:00",
        "deaf": False,
        "mute": False,
        "flags": 0,
        "permissions": str(permissions),
    }


class FakeDiscord:
    """The fake REST server; ``async with FakeDiscord() as fake:`` also redirects discord.py."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.attachments: dict[str, bytes] = {}
        self.reject_token = False  # answer 401 to the login, as Discord does for a bad token
        self._ids = itertools.count(900000000000000001)
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self._saved_base = Route.BASE
        self.port = 0

    async def __aenter__(self) -> FakeDiscord:
        app = web.Application()
        app.router.add_route("*", "/api/v10/{path:.*}", self._api)
        app.router.add_get("/attachments/{name}", self._attachment)
        self._runner, self.port = await served_locally(app)
        Route.BASE = f"http://127.0.0.1:{self.port}/api/v10"
        return self

    async def __aexit__(self, *_: object) -> None:
        Route.BASE = self._saved_base
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def new_id(self) -> int:
        return next(self._ids)

    # --- injecting interactions

    def attachment(self, name: str, data: bytes) -> dict[str, Any]:
        """A resolved attachment served by this fake."""
        self.attachments[name] = data
        return {
            "id": str(self.new_id()),
            "filename": name,
            "size": len(data),
            "url": f"http://127.0.0.1:{self.port}/attachments/{name}",
            "proxy_url": f"http://127.0.0.1:{self.port}/attachments/{name}",
            "content_type": "text/plain",
        }

    def interaction(
        self,
        kind: int,
        data: dict[str, Any],
        who: dict[str, Any],
        *,
        guild_id: int | None = GUILD_ID,
        message: dict[str, Any] | None = None,
        locale: str = "en-US",
    ) -> dict[str, Any]:
        """A gateway INTERACTION_CREATE payload from member ``who`` (or a DM user) whose
        Discord speaks ``locale``."""
        payload: dict[str, Any] = {
            "id": str(self.new_id()),
            "application_id": str(APP_ID),
            "type": kind,
            "data": data,
            "token": f"itoken-{self.new_id()}",
            "version": 1,
            "channel_id": str(CHANNEL_ID),
            "locale": locale,
            "app_permissions": "0",
            "attachment_size_limit": 10_000_000,
            "entitlements": [],
        }
        if guild_id is not None:
            payload["guild_id"] = str(guild_id)
            payload["guild_locale"] = "en-US"
            payload["member"] = who
            payload["channel"] = {
                "id": str(CHANNEL_ID),
                "type": 0,
                "guild_id": str(guild_id),
                "name": "general",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
            }
        else:
            payload["user"] = who["user"]
            payload["channel"] = {"id": str(CHANNEL_ID), "type": 1}
        if message is not None:
            payload["message"] = message
        return payload

    @staticmethod
    def options(values: dict[str, Any], types: dict[str, int]) -> list[dict[str, Any]]:
        return [{"name": k, "type": types[k], "value": v} for k, v in values.items()]

    @staticmethod
    def command_data(command: str, options: list[dict[str, Any]]) -> dict[str, Any]:
        """An application command's interaction data: ``club komi`` is the subcommand
        ``komi`` of the group ``club``, its options nested under it as Discord sends them."""
        name, _space, sub = command.partition(" ")
        if sub:
            options = [{"name": sub, "type": SUB_COMMAND, "options": options}]
        return {"id": "1", "name": name, "type": 1, "options": options}

    def dispatch(self, client: discord.Client, payload: dict[str, Any]) -> None:
        """Hand a gateway event to the client as the gateway would."""
        client._connection.parse_interaction_create(payload)  # type: ignore[arg-type]

    async def handled(self, timeout: float = 10.0) -> None:
        """Wait until discord.py has finished every interaction task it started (commands,
        button and form dispatch), so that every response has been sent."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            pending = [
                t
                for t in asyncio.all_tasks()
                if not t.done() and t.get_name().startswith(INTERACTION_TASKS)
            ]
            if not pending:
                return
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError("interaction tasks still running")
            await asyncio.wait(pending, timeout=left)

    def callbacks(self, interaction_id: str | None = None) -> list[Call]:
        """Interaction callbacks (of one interaction, when given)."""
        marker = f"/interactions/{interaction_id}/" if interaction_id else "/interactions/"
        return [c for c in self.calls if marker in c.path and c.path.endswith("/callback")]

    def followups(self) -> list[Call]:
        return [c for c in self.calls if c.path.startswith("/webhooks/")]

    async def wait_for(self, check: Callable[[list[Call]], bool], timeout: float = 5.0) -> None:
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: check(self.calls)), timeout)

    async def respond_to(self, payload: dict[str, Any], count: int = 1) -> list[Call]:
        """The responses to the interaction (its callback, then follow-ups), once discord.py
        has finished with it; at least ``count`` of them."""
        await self.handled()
        token = payload["token"]

        def mine(calls: list[Call]) -> list[Call]:
            return [
                c
                for c in calls
                if c.path.startswith(f"/interactions/{payload['id']}/")
                or (c.path.startswith("/webhooks/") and token in c.path)
            ]

        await self.wait_for(lambda calls: len(mine(calls)) >= count)
        return mine(self.calls)

    # --- the server

    async def _attachment(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in self.attachments:
            return web.Response(status=404)
        return web.Response(body=self.attachments[name])

    async def _api(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["path"]
        body: Any = None
        files: dict[str, tuple[str, bytes]] = {}
        if request.content_type == "multipart/form-data":
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                if part.name == "payload_json":  # type: ignore[union-attr]
                    body = json.loads(await part.text())  # type: ignore[union-attr]
                else:
                    name = part.filename or part.name  # type: ignore[union-attr]
                    files[part.name] = (name, bytes(await part.read()))  # type: ignore
        elif request.can_read_body:
            raw = await request.read()
            body = json.loads(raw) if raw else None
        answer = self._answer(request.method, path, body)
        self.calls.append(Call(request.method, path, body, files, self._created(answer)))
        async with self._changed:
            self._changed.notify_all()
        return _json(answer[0], status=answer[1])

    @staticmethod
    def _created(answer: tuple[Any, int]) -> str | None:
        payload = answer[0]
        if not isinstance(payload, dict):
            return None
        if "interaction" in payload:
            return payload["interaction"].get("response_message_id")
        return payload.get("id") if "channel_id" in payload else None

    def _answer(self, method: str, path: str, body: Any) -> tuple[Any, int]:
        if path == "/users/@me" and self.reject_token:
            return ({"message": "401: Unauthorized", "code": 0}, 401)
        if path == "/users/@me":
            return ({**discord_user(BOT_USER_ID, "hoshi"), "bot": True}, 200)
        if path == "/oauth2/applications/@me":
            return (
                {
                    "id": str(APP_ID),
                    "name": "hoshi",
                    "icon": None,
                    "description": "",
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "verify_key": "0" * 64,
                    "flags": 0,
                    "owner": discord_user(1, "owner"),
                },
                200,
            )
        if path.endswith("/commands") and method == "PUT":
            commands = [
                {**c, "id": str(self.new_id()), "application_id": str(APP_ID), "version": "1"}
                for c in body or []
            ]
            return (commands, 200)
        if path.startswith("/interactions/") and path.endswith("/callback"):
            interaction_id = path.split("/")[2]
            kind = body.get("type") if isinstance(body, dict) else None
            answer: dict[str, Any] = {
                "interaction": {
                    "id": interaction_id,
                    "type": 2,
                    "response_message_id": str(self.new_id()),
                    "response_message_loading": kind == 5,
                    "response_message_ephemeral": bool(
                        isinstance(body, dict) and (body.get("data") or {}).get("flags", 0) & 64
                    ),
                }
            }
            return (answer, 200)
        if path == "/users/@me/channels" and method == "POST":  # a direct message channel
            recipient = str((body or {}).get("recipient_id", "0"))
            user = discord_user(int(recipient), "member")
            return ({"id": str(DM_CHANNEL_ID), "type": 1, "recipients": [user]}, 200)
        if path.startswith("/users/") and method == "GET":
            return (discord_user(int(path.split("/")[2]), "member"), 200)
        if path.startswith("/webhooks/"):
            return (self._message(body), 200)
        if path.startswith("/channels/") and path.endswith("/messages") and method == "POST":
            return (self._message(body), 200)  # a message the bot posts by itself
        return ({"message": "404: Not Found", "code": 0}, 404)

    def _message(self, body: Any) -> dict[str, Any]:
        data = body if isinstance(body, dict) else {}
        return {
            "id": str(self.new_id()),
            "channel_id": str(CHANNEL_ID),
            "author": {**discord_user(BOT_USER_ID, "hoshi"), "bot": True},
            "content": data.get("content") or "",
            "timestamp": "2025-03-01T12:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": data.get("embeds") or [],
            "pinned": False,
            "type": 0,
            "flags": data.get("flags", 0),
            "components": data.get("components") or [],
        }


def guild_create(channel_id: int = CHANNEL_ID, guild_id: int = GUILD_ID) -> dict[str, Any]:
    """A GUILD_CREATE gateway payload: a server with one text channel the bot can write in
    (tests inject it with ``client._connection.parse_guild_create``: there is no gateway)."""
    everyone = 1 << 10 | 1 << 11  # view channel, send messages
    return {
        "id": str(guild_id),
        "name": "Go Club",
        "owner_id": "1",
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [
            {
                "id": str(guild_id),
                "name": "@everyone",
                "permissions": str(everyone),
                "position": 0,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }
        ],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": str(channel_id),
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "unavailable": False,
        "member_count": 2,
        "large": False,
        "joined_at": "2025-03-01T12:00:00+00:00",
        "channels": [
            {
                "id": str(channel_id),
                "type": 0,
                "name": "general",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
                "guild_id": str(guild_id),
            }
        ],
        "members": [
            {
                "user": {**discord_user(BOT_USER_ID, "hoshi"), "bot": True},
                "roles": [],
                "joined_at": "2025-03-01T12:00:00+00:00",
                "deaf": False,
                "mute": False,
                "flags": 0,
            }
        ],
        "threads": [],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
    }


def _json(payload: Any, status: int = 200) -> web.Response:
    # exactly "application/json": discord.py does not decode "…; charset=utf-8"
    return web.Response(
        body=json.dumps(payload).encode("utf-8"),
        status=status,
        headers={"Content-Type": "application/json"},
    )
