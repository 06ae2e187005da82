"""What a handler gets: the invocation, the club, the caller's role, storage and the clock."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from bot.core.invocation import Invocation
from bot.core.parse import Args
from storage.db import Database
from storage.records import Club
from storage.settings import ClubSettings

if TYPE_CHECKING:
    from bot.core.app import Core


@dataclass(frozen=True, slots=True)
class Context:
    core: Core
    inv: Invocation
    club: Club | None
    organiser: bool
    settings: ClubSettings

    @property
    def db(self) -> Database:
        return self.core.db

    @property
    def actor(self) -> str:
        return self.inv.caller.identity

    @property
    def chat(self) -> str:
        return self.inv.chat

    @property
    def the_club(self) -> Club:
        """The club (handlers that need one are only called with one)."""
        assert self.club is not None
        return self.club

    def now(self) -> dt.datetime:
        """Now, in the club's time zone (an injected clock: tests never sleep)."""
        return self.core.clock().astimezone(self.timezone)

    def today(self) -> dt.date:
        return self.now().date()

    @property
    def timezone(self) -> ZoneInfo:
        return self.settings.zone

    def args(self, options: frozenset[str] | set[str] = frozenset()) -> Args:
        return Args.read(self.inv.text, options)
