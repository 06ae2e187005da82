"""``GET /healthz`` and ``GET /metrics`` on the web port (issue 23, Hosting), for the load
balancer and the metrics scraper in front of several hoshi processes (docs/scaling.md).

``/healthz`` answers 200 when the database answers a trivial query in time (on its reader:
a long write does not hold the check up, storage.health) and every configured chat adapter
is running; 503 otherwise, naming what is wrong. The body is the same shape either way and
holds nothing of any club::

    {"status": "ok", "database": "ok", "adapters": {"telegram": "running"}}
    {"status": "failing", "database": "unreachable", "adapters": {"telegram": "stopped"}}

``/metrics`` is Prometheus's text format (bot.metrics). Both live beside the club pages and
cannot be taken by a club: a club's folder always starts with its id (``7-healthz``,
bot.web.urls), and these two routes are matched before the clubs'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.metrics import Metrics
from storage.db import Database
from storage.health import PING_TIMEOUT_S, database_state

AdapterStates = Callable[[], Mapping[str, bool]]
"""The configured chat adapters by platform, and whether each is running now."""

HEALTH_PATH = "/healthz"
METRICS_PATH = "/metrics"


def no_adapters() -> Mapping[str, bool]:
    """``hoshi web`` alone: no chat adapter to check."""
    return {}


@dataclass(frozen=True, slots=True)
class Hosting:
    """What the two routes read: the database, the process's metrics and its adapters'
    states."""

    db: Database
    metrics: Metrics
    adapters: AdapterStates = no_adapters


async def health_report(
    db: Database, adapters: Mapping[str, bool], timeout_s: float = PING_TIMEOUT_S
) -> tuple[bool, dict[str, Any]]:
    """Whether the process is healthy, and the body that says so (see the module
    docstring)."""
    database = await database_state(db, timeout_s)
    states = {platform: "running" if up else "stopped" for platform, up in adapters.items()}
    healthy = database == "ok" and all(adapters.values())
    return healthy, {
        "status": "ok" if healthy else "failing",
        "database": database,
        "adapters": states,
    }


HOSTING_KEY = web.AppKey("hosting", Hosting)


def add_routes(app: web.Application, hosting: Hosting) -> None:
    """``/healthz`` and ``/metrics`` on ``app`` (before any club route is added)."""
    app[HOSTING_KEY] = hosting
    app.router.add_get(HEALTH_PATH, _healthz)
    app.router.add_get(METRICS_PATH, _metrics)


async def _healthz(request: web.Request) -> web.Response:
    hosting = request.app[HOSTING_KEY]
    healthy, body = await health_report(hosting.db, hosting.adapters())
    return web.json_response(
        body, status=200 if healthy else 503, headers={"Cache-Control": "no-store"}
    )


async def _metrics(request: web.Request) -> web.Response:
    metrics = request.app[HOSTING_KEY].metrics
    data, content_type = await metrics.exposition(request.headers.get("Accept", ""))
    response = web.Response(body=data, headers={"Cache-Control": "no-store"})
    response.headers["Content-Type"] = content_type
    return response
