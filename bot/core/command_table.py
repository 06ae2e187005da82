"""The table of commands, listed explicitly, in help order.

Each handler carries its :class:`~bot.core.commands.CommandSpec` (attached by
:func:`~bot.core.commands.command`); :data:`HANDLERS` names every command the bot has, and
nothing else adds to :data:`COMMANDS`. Help texts, Telegram's command menu and the Discord
command tree are generated from this table.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.core.commands import CONSOLE, CommandSpec, Handler, spec_of
from bot.core.handlers import club, games, help, ratings, registry, schedule, sgf, tournaments

HANDLERS: tuple[Handler, ...] = (
    club.club,
    club.export,
    games.result,
    sgf.sgf,
    games.undo,
    games.void,
    games.correct,
    help.help_,
    help.link,
    ratings.rating,
    ratings.top,
    ratings.history,
    ratings.chart,
    ratings.handicap,
    ratings.multiplier,
    ratings.promotion,
    registry.register,
    registry.override,
    registry.egf,
    schedule.weekly,
    schedule.summary,
    schedule.tick,
    schedule.confirm,
    schedule.dispute,
    tournaments.tournament,
)


def build(handlers: Iterable[Handler]) -> dict[str, CommandSpec]:
    """The table of ``handlers``' specs by name.

    Raises:
        ValueError: a name or alias given twice.
    """
    table: dict[str, CommandSpec] = {}
    names: set[str] = set()
    for handler in handlers:
        spec = spec_of(handler)
        for name in (spec.name, *spec.aliases):
            if name in names:
                raise ValueError(f"the command name /{name} is in the table twice")
            names.add(name)
        table[spec.name] = spec
    return table


COMMANDS: dict[str, CommandSpec] = build(HANDLERS)


def lookup(name: str) -> CommandSpec | None:
    """The command called ``name`` (or an alias of it), if any."""
    key = name.lower().lstrip("/").split("@", 1)[0]
    found = COMMANDS.get(key)
    if found is None:
        found = next((c for c in COMMANDS.values() if key in c.aliases), None)
    return found


def public_commands() -> list[CommandSpec]:
    """Commands offered on chat platforms (not the console-only ones), in table order."""
    return [c for c in COMMANDS.values() if c.access != CONSOLE]
