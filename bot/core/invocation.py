"""Who asks what, from where: the platform-neutral request every adapter builds."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Caller:
    """The person typing. ``chat_admin`` is the platform's own admin right in this chat
    (a Telegram chat administrator, a Discord member with Manage Server, the console user).
    """

    platform: str
    account: str
    name: str
    chat_admin: bool = False
    language: str | None = None
    """The person's own language when the platform says it and hoshi has a catalogue for it
    (bot.i18n.language_of of Telegram's ``language_code``, Discord's ``interaction.locale``,
    the console's locale); ``None`` otherwise."""

    @property
    def identity(self) -> str:
        """How the log names this person: ``telegram:12345``."""
        return f"{self.platform}:{self.account}"


@dataclass(frozen=True, slots=True)
class Invocation:
    """One command as typed: ``/name text`` by ``caller`` in ``chat``.

    ``attachment`` is a file sent with the command (a pasted results table), ``private``
    is true in a one-to-one chat with the bot. ``delivery`` names a platform update that may
    arrive twice (``telegram:BOT:UPDATE_ID``): whatever it changes is changed once
    (storage.deliveries). ``values`` are typed option values by argument name (Discord's
    slash command options): the core fills the command's arguments from them, not from
    ``text`` (which then only echoes them, for buttons and usage lines).
    """

    command: str
    text: str
    caller: Caller
    chat_id: str
    private: bool = False
    attachment: bytes | None = None
    attachment_name: str | None = None
    received_at: dt.datetime | None = None
    delivery: str | None = None
    values: tuple[tuple[str, object], ...] | None = None

    @property
    def chat(self) -> str:
        """How the log names the chat: ``telegram:-100123``."""
        return f"{self.caller.platform}:{self.chat_id}"
