"""bot.metrics: the core's counters and the database's gauges in a registry of their own,
read at scrape time; the snapshot's age by the database's clock, absent without one."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

import storage
from bot.metrics import COMMAND_BUCKETS_S, Metrics
from tests.bot.core.fakechat import FakeChat


async def families(metrics: Metrics) -> dict[str, list[tuple[dict[str, str], float]]]:
    data, content_type = await metrics.exposition()
    assert content_type.startswith("text/plain; version=0.0.4")
    return {
        family.name: [(sample.labels, sample.value) for sample in family.samples]
        for family in text_string_to_metric_families(data.decode("utf-8"))
    }


async def test_the_snapshot_age_by_the_database_clock(tmp_path: Path) -> None:
    chat = await FakeChat.open(tmp_path, players=("Nagy Péter 5k", "Kovács Anna 2d 2090"))
    try:
        await chat.ok("/result Nagy Péter Kovács Anna B+ h=4")
        found = await families(chat.core.metrics)
        assert found["hoshi_snapshot_age_seconds"] == []  # absent: no snapshot yet
        await storage.snapshot_club(chat.db, chat.club.id)
        chat.clock.advance(dt.timedelta(seconds=90))
        found = await families(chat.core.metrics)
        assert found["hoshi_snapshot_age_seconds"] == [({}, 90.0)]
        assert found["hoshi_clubs_loaded"] == [({}, 1.0)]
    finally:
        await chat.close()


async def test_a_timer_measures_each_command(tmp_path: Path) -> None:
    """The histogram takes what the core's timer says a command took (a timer the test
    moves: 3 ms per reading pair), in the buckets from 1 ms to 10 s."""
    chat = await FakeChat.open(tmp_path, players=("Nagy Péter 5k",))
    ticks = iter(range(0, 1000, 3))
    chat.core.metrics = Metrics(chat.db, timer=lambda: next(ticks) / 1000)
    try:
        await chat.ok("/rating Nagy Péter")
        found = {
            labels["le"]: value
            for labels, value in (await families(chat.core.metrics))["hoshi_command_seconds"]
            if labels.get("command") == "rating" and "le" in labels
        }
    finally:
        await chat.close()
    assert [float(le) for le in found if le != "+Inf"] == list(COMMAND_BUCKETS_S)
    assert found["0.001"] == 0 and found["0.0025"] == 0 and found["0.005"] == 1
    assert found["+Inf"] == 1


async def test_openmetrics_when_the_scraper_asks(tmp_path: Path) -> None:
    chat = await FakeChat.open(tmp_path)
    try:
        data, content_type = await chat.core.metrics.exposition(
            "application/openmetrics-text; version=1.0.0"
        )
    finally:
        await chat.close()
    assert content_type.startswith("application/openmetrics-text")
    assert data.decode("utf-8").rstrip().endswith("# EOF")
