"""What a handler may ask of the core: :class:`Services`, the type of ``Context.core``.

A handler runs inside the core (:class:`~bot.core.app.Core` calls it), and the core lists the
handlers (:mod:`bot.core.command_table`); were ``Context.core`` typed as ``Core``, the
handlers and the core would import each other round a loop. They are typed against this
protocol instead, which ``Core`` satisfies, so the imports of ``bot/core`` run one way
(tests/bot/test_imports.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from bot.config import Config
    from bot.core.commands import CommandSpec
    from bot.core.links import Links
    from bot.core.replies import Notice
    from bot.core.scheduler import Scheduler
    from storage.db import Clock, Database

__all__ = ["Services"]


class Services(Protocol):
    """The core as its handlers see it."""

    db: Database
    config: Config
    clock: Clock
    links: Links
    """Where the club's web pages are (:mod:`bot.core.links`), injected by whoever runs the
    bot."""
    scheduler: Scheduler | None

    @property
    def commands(self) -> Mapping[str, CommandSpec]:
        """The table of commands by name (:data:`bot.core.command_table.COMMANDS`), for
        /help."""
        ...

    def lookup(self, name: str) -> CommandSpec | None:
        """The command called ``name`` (or an alias of it), if any."""
        ...

    async def post(self, notice: Notice) -> bool:
        """Post a notice to the club's bound chats; ``False`` when nothing can post."""
        ...

    def post_soon(self, notice: Notice) -> None:
        """:meth:`post` in a task of its own."""
        ...
