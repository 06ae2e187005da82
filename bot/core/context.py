"""What a handler gets: the invocation, the club, the caller's role, storage and the clock."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from bot.core.invocation import Invocation
from bot.core.parse import Args
from bot.i18n import language_of
from bot.i18n.catalogues import SOURCE
from storage.db import Database
from storage.records import Club
from storage.settings import ClubSettings

if TYPE_CHECKING:
    from bot.core.commands import CommandSpec
    from bot.core.services import Services


@dataclass(frozen=True, slots=True)
class Context:
    core: Services
    inv: Invocation
    club: Club | None
    organiser: bool
    settings: ClubSettings
    db: Database
    """The database as this invocation writes it: ``core.db.command(inv.delivery)``, so a
    chat update delivered twice changes nothing the second time (storage.deliveries)."""
    command: CommandSpec | None = None  # the command being run: its options are parsed

    @property
    def actor(self) -> str:
        return self.inv.caller.identity

    @property
    def chat(self) -> str:
        return self.inv.chat

    @property
    def language(self) -> str:
        """The language this conversation is answered in (issue 13): the club's
        (``/club set language``), but in a private chat the person's own when the platform says
        it; in a chat without a club the person's own or English."""
        if self.club is None:
            return language_of(self.inv.caller.language) or SOURCE
        return self.language_in(self.settings)

    def language_in(self, settings: ClubSettings) -> str:
        """:attr:`language` were the club's settings ``settings`` (the answer to a new club,
        or to a change of the club's language or system, is the first in the new language)."""
        own = language_of(self.inv.caller.language)
        if self.inv.private and own is not None:
            return own
        return settings.language

    @staticmethod
    def own_language(inv: Invocation) -> str:
        """The person's own language when the platform says it and hoshi has it, else
        English."""
        return language_of(inv.caller.language) or SOURCE

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

    def args(self, text: str | None = None, *, action: str | None = None) -> Args:
        """The command's arguments (default: the whole invocation text) with the ``key=value``
        options its spec declares taken out: all of them, or those of ``action``; any other
        option is refused, naming the ones it takes (handlers cannot pass their own set)."""
        spec = self.command
        keys = spec.option_keys(action) if spec is not None else ()
        label = f"/{spec.name}" if spec is not None else None
        if label is not None and action:
            label = f"{label} {action}"
        return Args.read(self.inv.text if text is None else text, keys, command=label)
