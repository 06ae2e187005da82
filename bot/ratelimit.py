"""Per-person rate limits for the expensive commands: charts, exports, imports (issue 6/6).

A bot in a public group is poked by everyone; a chart renders a picture, an export reads the
whole club and an import parses and replays a tournament, so one person may not ask for them
faster than the limits below. Each limit allows a burst, then one more request every
``every_s`` seconds (the generic cell rate scheme, GCRA: one "next allowed" moment per person and
kind, no timers). Time comes from the core's injected clock, so tests never sleep.

Only the chat platforms are limited: the console user is the bot's own operator.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.i18n import N_, _, _n

Clock = Callable[[], dt.datetime]

CHART, EXPORT, IMPORT = "chart", "export", "import"
MAX_PEOPLE = 10_000  # remembered (person, kind) pairs before the idle ones are forgotten


@dataclass(frozen=True, slots=True)
class Limit:
    """``burst`` requests at once, then one more every ``every_s`` seconds; ``refusal`` is the
    friendly answer beyond that (a catalogue message with ``{wait}``, ``{burst}`` and
    ``{every}``)."""

    burst: int
    every_s: int
    refusal: str

    def __post_init__(self) -> None:
        if self.burst < 1 or self.every_s < 1:
            raise ValueError(f"a limit needs burst >= 1 and every_s >= 1, not {self}")


# TRANSLATORS: {wait} and {every} are durations ("7 seconds", "2 minutes"); {burst} a number.
CHART_REFUSAL = N_(
    "That is a lot of charts in a short time: please try again in {wait}. (Each person may "
    "ask for {burst} at once, then one every {every}, so that the bot stays quick for everyone.)"
)
# TRANSLATORS: {wait} and {every} are durations ("7 seconds", "2 minutes"); {burst} a number.
EXPORT_REFUSAL = N_(
    "That is a lot of exports in a short time: please try again in {wait}. (Each person may "
    "ask for {burst} at once, then one every {every}, so that the bot stays quick for everyone.)"
)
# TRANSLATORS: {wait} and {every} are durations ("7 seconds", "2 minutes"); {burst} a number.
IMPORT_REFUSAL = N_(
    "That is a lot of imports in a short time: please try again in {wait}. (Each person may "
    "ask for {burst} at once, then one every {every}, so that the bot stays quick for everyone.)"
)

LIMITS: Mapping[str, Limit] = {
    CHART: Limit(burst=6, every_s=20, refusal=CHART_REFUSAL),
    EXPORT: Limit(burst=6, every_s=30, refusal=EXPORT_REFUSAL),
    IMPORT: Limit(burst=6, every_s=30, refusal=IMPORT_REFUSAL),
}


def kind_of(command: str, text: str, attachment: bytes | None) -> str | None:
    """Which limit a command falls under: ``/chart``, ``/export``, and ``/tournament import``
    or any file or pasted table given to ``/tournament``; ``None`` for the cheap ones."""
    if command == "chart":
        return CHART
    if command == "export":
        return EXPORT
    if command == "tournament":
        first = text.split(maxsplit=1)[0].lower() if text.strip() else ""
        if first == "import" or attachment is not None or "\n" in text.strip():
            return IMPORT
    return None


class RateLimiter:
    """The limits of every person, in memory (a restart forgives everybody)."""

    def __init__(self, clock: Clock, limits: Mapping[str, Limit] = LIMITS) -> None:
        self.clock = clock
        self.limits = dict(limits)
        self._next: dict[tuple[str, str], dt.datetime] = {}  # the theoretical arrival time

    def take(self, who: str, kind: str) -> int:
        """Count one request of ``kind`` by ``who``: 0 when allowed, else the whole seconds
        until the next one will be (nothing is counted for a refused request)."""
        limit = self.limits.get(kind)
        if limit is None:
            return 0
        now = self.clock()
        every = dt.timedelta(seconds=limit.every_s)
        tolerance = every * (limit.burst - 1)
        key = (who, kind)
        arrival = max(self._next.get(key, now), now)
        if arrival - now > tolerance:
            return max(1, math.ceil((arrival - tolerance - now).total_seconds()))
        self._next[key] = arrival + every
        if len(self._next) > MAX_PEOPLE:
            self._forget(now)
        return 0

    def refusal(self, kind: str, wait_s: int) -> str:
        """A friendly refusal saying when to try again."""
        limit = self.limits[kind]
        return _(
            limit.refusal,
            wait=_duration(wait_s),
            burst=limit.burst,
            every=_duration(limit.every_s),
        )

    def _forget(self, now: dt.datetime) -> None:
        """Drop the people whose allowance is full again (their entry changes nothing)."""
        for key, arrival in list(self._next.items()):
            if arrival <= now:
                del self._next[key]


def _duration(seconds: int) -> str:
    """A wait in whole seconds, or in minutes (rounded up) from one minute on."""
    if seconds < 60:
        # TRANSLATORS: a duration, used in "try again in {wait}" and "one every {every}"
        return _n("{n} second", "{n} seconds", seconds)
    # TRANSLATORS: a duration, used in "try again in {wait}" and "one every {every}"
    return _n("{n} minute", "{n} minutes", math.ceil(seconds / 60))
