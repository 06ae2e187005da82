"""``/healthz`` and ``/metrics`` (bot.web.health) on the real aiohttp server: 200 or 503 with
what is wrong and nothing of any club; Prometheus's text, moved by the commands the core
handles; both there whatever clubs exist or are named."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample

from bot.web import urls
from bot.web.app import SECURITY_HEADERS, web_app
from tests.bot.core.fakechat import FakeChat
from tests.bot.web.conftest import club_with_games


def serving(chat: FakeChat, adapters: Mapping[str, bool] | None = None) -> TestClient:  # type: ignore[type-arg]
    """The web server of ``chat``'s database with its core's metrics, the chat adapters in
    ``adapters`` reported as given."""
    states = dict(adapters or {})
    app = web_app(chat.db, metrics=chat.core.metrics, adapters=lambda: states)
    return TestClient(TestServer(app, host="127.0.0.1"))


async def health(client: TestClient) -> tuple[int, dict[str, object]]:  # type: ignore[type-arg]
    response = await client.get("/healthz")
    assert response.content_type == "application/json"
    for header, value in SECURITY_HEADERS.items():
        assert response.headers.get(header) == value, header
    return response.status, json.loads(await response.text())


async def samples(client: TestClient) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:  # type: ignore[type-arg]
    """Every sample of ``/metrics``, parsed by prometheus_client's own parser, by name and
    labels."""
    response = await client.get("/metrics")
    assert response.status == 200
    assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
    for header, value in SECURITY_HEADERS.items():
        assert response.headers.get(header) == value, header
    found: dict[tuple[str, frozenset[tuple[str, str]]], float] = {}
    for family in text_string_to_metric_families(await response.text()):
        for sample in family.samples:
            found[key(sample)] = sample.value
    return found


def key(sample: Sample) -> tuple[str, frozenset[tuple[str, str]]]:
    return sample.name, frozenset(sample.labels.items())


def named(name: str, **labels: str) -> tuple[str, frozenset[tuple[str, str]]]:
    return name, frozenset(labels.items())


async def test_healthy_with_every_adapter_running(chat: FakeChat) -> None:
    async with serving(chat, {"telegram": True, "discord": True}) as client:
        status, body = await health(client)
    assert status == 200
    assert body == {
        "status": "ok",
        "database": "ok",
        "adapters": {"telegram": "running", "discord": "running"},
    }


async def test_healthy_without_adapters_and_without_club_data(chat: FakeChat) -> None:
    """``hoshi web`` alone checks the database only; the body names no club or player."""
    async with TestClient(TestServer(web_app(chat.db), host="127.0.0.1")) as client:
        status, body = await health(client)
        head = await client.head("/healthz")
        text = await (await client.get("/healthz")).text()
    assert (status, head.status) == (200, 200)
    assert body == {"status": "ok", "database": "ok", "adapters": {}}
    assert chat.club.name not in text and "Nagy" not in text


async def test_a_stopped_adapter_is_named_with_503(chat: FakeChat) -> None:
    async with serving(chat, {"telegram": True, "discord": False}) as client:
        status, body = await health(client)
    assert status == 503
    assert body == {
        "status": "failing",
        "database": "ok",
        "adapters": {"telegram": "running", "discord": "stopped"},
    }


async def test_a_closed_database_is_named_with_503(tmp_path: Path) -> None:
    chat = await club_with_games(tmp_path)
    async with serving(chat, {"telegram": True}) as client:
        await chat.close()
        status, body = await health(client)
    assert status == 503
    assert body == {
        "status": "failing",
        "database": "unreachable",
        "adapters": {"telegram": "running"},
    }


async def test_a_long_write_does_not_fail_the_check(chat: FakeChat) -> None:
    """Read on the reader: the writer held by a transaction does not make it wait."""
    async with serving(chat) as client, chat.db.transaction() as tx:
        await tx.lock(chat.club.id)
        status, body = await health(client)
    assert (status, body["database"]) == (200, "ok")


async def test_metrics_move_with_the_commands_the_core_handles(chat: FakeChat) -> None:
    async with serving(chat) as client:
        before = await samples(client)
        await chat.ok("/rating Nagy Péter")
        await chat.say("/nonsense")
        after = await samples(client)
    updates = named("hoshi_updates_total", adapter="telegram")
    assert after[updates] == before.get(updates, 0) + 2
    count = named("hoshi_command_seconds_count", command="rating")
    assert after[count] == before.get(count, 0) + 1
    every = named("hoshi_command_seconds_bucket", command="rating", le="+Inf")
    assert after[every] == after[count]
    assert after[named("hoshi_command_seconds_sum", command="rating")] > 0
    assert after[named("hoshi_command_seconds_count", command="unknown")] == 1
    assert not any("nonsense" in str(labels) for _name, labels in after)
    assert after[named("hoshi_clubs_loaded")] == len(chat.db.projections.ledgers) >= 1
    assert after[named("hoshi_fold_backlog")] == 0
    assert named("hoshi_snapshot_age_seconds") not in after  # no snapshot yet: absent


async def test_each_app_has_its_own_registry(tmp_path: Path) -> None:
    """Two servers (two cores, as in a test run) never add to each other's counters."""
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one = await club_with_games(tmp_path / "one")
    two = await club_with_games(tmp_path / "two")
    try:
        async with serving(one) as first, serving(two) as second:
            start = (await samples(second))[named("hoshi_updates_total", adapter="telegram")]
            await one.ok("/top")
            moved = await samples(first)
            still = await samples(second)
        assert still[named("hoshi_updates_total", adapter="telegram")] == start
        assert moved[named("hoshi_command_seconds_count", command="top")] == 1
    finally:
        await one.close()
        await two.close()


async def test_no_club_can_take_the_two_addresses(tmp_path: Path) -> None:
    """A club's folder starts with its id (``7-healthz``): a club named ``healthz`` or
    ``metrics`` has its pages there, and the two routes stay the server's."""
    (tmp_path / "h").mkdir()
    (tmp_path / "m").mkdir()
    healthz = await FakeChat.open(tmp_path / "h", name="healthz")
    metrics = await FakeChat.open(tmp_path / "m", name="metrics")
    try:
        for chat in (healthz, metrics):
            await chat.ok("/register Nagy Péter 5k")
            await chat.ok("/club web on")
        assert urls.club_slug(healthz.club).endswith("-healthz")
        async with serving(healthz) as client:
            status, body = await health(client)
            assert (status, body["status"]) == (200, "ok")
            assert named("hoshi_clubs_loaded") in await samples(client)
            page = await client.get("/" + urls.ranking(healthz.club, "en", everyone=True))
            assert page.status == 200 and "Nagy Péter" in await page.text()
        async with serving(metrics) as client:
            assert named("hoshi_clubs_loaded") in await samples(client)
            page = await client.get("/" + urls.ranking(metrics.club, "en", everyone=True))
            assert page.status == 200 and "Nagy Péter" in await page.text()
    finally:
        await healthz.close()
        await metrics.close()


async def test_only_get_and_head(chat: FakeChat) -> None:
    async with serving(chat) as client:
        for path in ("/healthz", "/metrics"):
            response = await client.post(path)
            assert response.status == 405, path
