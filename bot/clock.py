"""Clocks: the real one, and a settable one for the console's ``--clock`` and for tests."""

from __future__ import annotations

import datetime as dt
import re

from bot.i18n import _, date_time_text, quoted
from storage.db import utc_now

__all__ = ["FakeClock", "parse_duration", "utc_now"]


class FakeClock:
    """A clock that stands still until told to move (tests never sleep; STYLE.md)."""

    def __init__(self, start: dt.datetime):
        if start.tzinfo is None:
            raise ValueError("a fake clock needs an aware start time")
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, delta: dt.timedelta) -> dt.datetime:
        if delta < dt.timedelta(0):
            raise ValueError(_("the clock only moves forward"))
        self.now += delta
        return self.now

    def set(self, moment: dt.datetime) -> dt.datetime:
        if moment < self.now:
            raise ValueError(
                _(
                    "the clock only moves forward; it is already {moment}",
                    moment=date_time_text(self.now),
                )
            )
        self.now = moment
        return self.now


_DURATION = re.compile(r"^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?$")


def parse_duration(text: str) -> dt.timedelta:
    """``2d``, ``6h``, ``90m``, ``1d12h``.

    Raises:
        ValueError: with an example (a :class:`~engine.text.Msg` in the current language).
    """
    match = _DURATION.match(text.strip().lower())
    if match is None or not any(match.groups()):
        raise ValueError(
            _(
                "{text} is not a duration; write e.g. {hours}, {days} or {both}",
                text=quoted(text),
                hours="6h",
                days="2d",
                both="1d12h",
            )
        )
    days, hours, minutes = (int(g) if g else 0 for g in match.groups())
    return dt.timedelta(days=days, hours=hours, minutes=minutes)
