"""Button payloads shared by the chat adapters: which command a pressed button runs.

A :class:`~bot.core.replies.Button` carries a command line (``/confirm 12``). Platforms limit
the payload a button may carry (Telegram's callback data: 64 bytes; Discord's custom id: 100
characters), so a short command travels inline — it survives a restart of the bot — and a
longer one is kept in memory under a short random key. Either way the command runs *as the
person who pressed*, through the core's permission checks, exactly as if they had typed it, so
a forged payload gains nothing.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict

INLINE = "c:"
KEYED = "k:"


class ButtonCommands:
    """Encodes commands into button payloads of at most ``limit_bytes`` and back."""

    def __init__(self, limit_bytes: int, *, prefix: str = "", capacity: int = 10_000) -> None:
        self.limit_bytes = limit_bytes
        self.prefix = prefix
        self.capacity = capacity
        self._keyed: OrderedDict[str, str] = OrderedDict()

    def encode(self, command: str) -> str:
        """The payload for a button that runs ``command``."""
        inline = f"{self.prefix}{INLINE}{command}"
        if len(inline.encode("utf-8")) <= self.limit_bytes:
            return inline
        key = secrets.token_urlsafe(9)
        self._keyed[key] = command
        while len(self._keyed) > self.capacity:  # the oldest buttons expire first
            self._keyed.popitem(last=False)
        return f"{self.prefix}{KEYED}{key}"

    def decode(self, payload: str) -> str | None:
        """The command of a payload, or ``None`` when it is not ours or has expired."""
        if not payload.startswith(self.prefix):
            return None
        body = payload[len(self.prefix) :]
        if body.startswith(INLINE):
            return body[len(INLINE) :] or None
        if body.startswith(KEYED):
            return self._keyed.get(body[len(KEYED) :])
        return None


def split_command(line: str) -> tuple[str, str]:
    """``("confirm", "12")`` for ``/confirm 12``: the command name and its argument text."""
    parts = line.strip().lstrip("/").split(maxsplit=1)
    if not parts:
        return "", ""
    rest = parts[1].strip() if len(parts) > 1 else ""
    return parts[0].split("@", 1)[0].lower(), rest
