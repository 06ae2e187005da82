"""The process's metrics in Prometheus's text format (issue 23, Hosting): ``GET /metrics``.

:class:`Metrics` owns a :class:`~prometheus_client.CollectorRegistry` of its own — never the
library's global default registry, which every core and web app of a test run would share.
The core counts each command it handles (:meth:`Metrics.handled`); what the database holds is
read when scraped (:class:`StoredGauges`), never by a background loop:

* ``hoshi_updates_total{adapter}`` — updates (commands, buttons) the core handled, by the
  platform they came from (``telegram``, ``discord``, ``console``);
* ``hoshi_command_seconds{command}`` — how long the core took to answer, by command name
  (``unknown`` for a command hoshi does not have: what users type never becomes a label);
* ``hoshi_clubs_loaded`` — clubs whose ledgers are in memory;
* ``hoshi_fold_backlog`` — log entries the loaded clubs' shadow systems have not folded yet;
* ``hoshi_snapshot_age_seconds`` — the age of the stalest of the loaded clubs' newest
  snapshots, by the database's clock; **absent** (its HELP and TYPE lines, no sample) while
  no loaded club has a snapshot, so ``absent()`` and comparisons in PromQL see no value
  rather than a NaN.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Iterable

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.exposition import choose_encoder
from prometheus_client.metrics_core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from storage.db import Database
from storage.health import clubs_loaded, fold_backlog, oldest_newest_snapshot

COMMAND_BUCKETS_S = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""``hoshi_command_seconds`` buckets: from a cached ``/rating`` (about a millisecond) to an
imported tournament file (seconds); slower lands in ``+Inf``."""

UNKNOWN_COMMAND = "unknown"
"""The ``command`` label of a command hoshi does not have."""


class StoredGauges(Collector):
    """The gauges read from the database's memory and its ``snapshots`` table.

    ``hoshi_clubs_loaded`` and ``hoshi_fold_backlog`` are computed when collected; the
    snapshot's moment needs a query, so :meth:`read` (awaited by :meth:`Metrics.exposition`
    just before collecting) fetches it, and :meth:`collect` turns it into an age.
    """

    def __init__(self, db: Database) -> None:
        self.db = db
        self.snapshot_at: dt.datetime | None = None

    async def read(self) -> None:
        """Fetch the stalest newest snapshot's moment (storage.health)."""
        self.snapshot_at = await oldest_newest_snapshot(self.db)

    def collect(self) -> Iterable[Metric]:
        yield GaugeMetricFamily(
            "hoshi_clubs_loaded",
            "Clubs whose ledgers are in memory.",
            value=clubs_loaded(self.db),
        )
        yield GaugeMetricFamily(
            "hoshi_fold_backlog",
            "Log entries appended but not yet folded by the loaded clubs' shadow systems.",
            value=fold_backlog(self.db),
        )
        age = GaugeMetricFamily(
            "hoshi_snapshot_age_seconds",
            "Age of the oldest of the loaded clubs' newest snapshots (absent: none has one).",
        )
        if self.snapshot_at is not None:
            age.add_metric([], (self.db.clock() - self.snapshot_at).total_seconds())
        yield age


class Metrics:
    """One process's metrics (see the module docstring): the core's counters and the
    database's gauges, in a registry of their own.

    Args:
        db: the database whose clubs the gauges describe.
        timer: seconds on a monotonic clock (tests may pass their own).
    """

    def __init__(self, db: Database, *, timer: Callable[[], float] = time.perf_counter) -> None:
        self.db = db
        self.timer = timer
        self.registry = CollectorRegistry()
        self.updates = Counter(
            "hoshi_updates",
            "Updates (commands and buttons) the core handled, by platform.",
            ["adapter"],
            registry=self.registry,
        )
        self.command_seconds = Histogram(
            "hoshi_command_seconds",
            "Seconds the core took to answer a command, by command name.",
            ["command"],
            buckets=COMMAND_BUCKETS_S,
            registry=self.registry,
        )
        self.stored = StoredGauges(db)
        self.registry.register(self.stored)

    def handled(self, platform: str, command: str, seconds: float) -> None:
        """One update from ``platform`` answered by ``command`` (a name of the command table,
        or :data:`UNKNOWN_COMMAND`) in ``seconds``."""
        self.updates.labels(adapter=platform).inc()
        self.command_seconds.labels(command=command).observe(seconds)

    async def exposition(self, accept: str = "") -> tuple[bytes, str]:
        """The metrics now, and their content type: Prometheus's text format, or OpenMetrics
        when the scraper's ``Accept`` header asks for it (the library's own negotiation)."""
        await self.stored.read()
        encode, content_type = choose_encoder(accept)
        return encode(self.registry), content_type
