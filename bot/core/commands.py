"""The one table of commands: name, arguments, help with examples, who may use it.

Help texts, Telegram's command list and the Discord command tree are all generated from it
(STYLE.md, bot/). Handler modules register their commands with :func:`command`; the table is
complete once :mod:`bot.core.handlers` is imported.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.core.context import Context
    from bot.core.replies import Reply

Handler = Callable[["Context"], Awaitable["Reply"]]

PLAYER = "player"
ORGANISER = "organiser"
CONSOLE = "console"  # only in the local console (e.g. /tick)


@dataclass(frozen=True, slots=True)
class Param:
    """One argument, for platforms with typed options (Discord slash commands).

    ``kind``: ``player`` (autocompleted from the club's names), ``text``, ``int``, ``rank``,
    ``result``, ``system`` (a choice), ``file`` (an attachment) or ``choice`` (with
    ``choices``). Optional params are appended as ``key=value`` when ``option`` is true.
    """

    name: str
    kind: str
    description: str
    required: bool = True
    option: bool = False
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Command:
    name: str
    usage: str
    summary: str
    examples: tuple[str, ...]
    access: str
    handler: Handler
    options: frozenset[str] = frozenset()
    params: tuple[Param, ...] = ()
    needs_club: bool = True
    details: str = ""
    aliases: tuple[str, ...] = field(default=())

    @property
    def organiser_only(self) -> bool:
        return self.access == ORGANISER

    def help_text(self) -> str:
        lines = [f"{self.usage}", self.summary]
        if self.details:
            lines.append(self.details)
        if self.examples:
            lines.append("Examples: " + " · ".join(self.examples))
        if self.organiser_only:
            lines.append("For organisers.")
        return "\n".join(lines)


COMMANDS: dict[str, Command] = {}
_ALIASES: dict[str, str] = {}


def command(
    name: str,
    *,
    usage: str,
    summary: str,
    examples: tuple[str, ...] = (),
    access: str = PLAYER,
    options: frozenset[str] | set[str] = frozenset(),
    params: tuple[Param, ...] = (),
    needs_club: bool = True,
    details: str = "",
    aliases: tuple[str, ...] = (),
) -> Callable[[Handler], Handler]:
    """Register a handler in the command table."""

    def register(handler: Handler) -> Handler:
        if name in COMMANDS:
            raise RuntimeError(f"command /{name} is registered twice")
        COMMANDS[name] = Command(
            name,
            usage,
            summary,
            examples,
            access,
            handler,
            frozenset(options),
            params,
            needs_club,
            details,
            aliases,
        )
        for alias in aliases:
            _ALIASES[alias] = name
        return handler

    return register


def lookup(name: str) -> Command | None:
    """The command called ``name`` (or an alias of it), if any."""
    key = name.lower().lstrip("/").split("@", 1)[0]
    return COMMANDS.get(_ALIASES.get(key, key))


def public_commands() -> list[Command]:
    """Commands offered on chat platforms (not the console-only ones), in table order."""
    return [c for c in COMMANDS.values() if c.access != CONSOLE]
