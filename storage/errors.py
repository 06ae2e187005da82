"""Errors the storage layer raises.

:class:`StorageError` and its subclasses are safe to show to a user: each message names the
value that was wrong and, where it helps, what to do instead (STYLE.md, Errors).
:class:`SchemaVersionError` is for operators, not chat users.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.formats.messages import joined
from engine.text import Msg


class StorageError(Exception):
    """A request the club log cannot accept; nothing was written."""


class NotFound(StorageError):
    """An unknown club, player, game, tournament or join code."""


class Refused(StorageError):
    """A request that breaks a rule of the log (e.g. removing the last organiser)."""


class BatchError(Refused):
    """A batch with bad items; nothing of it was written.

    ``problems`` lists ``(number, message)`` with 1-based item numbers, every bad item named;
    ``labels`` (one per problem) say what each number counts in the members' words (``line
    3``, ``player 2 of the file``); without them an item reads ``item 3``, never ``#3``,
    which members read as a game's or tournament's club number (issue 22, item 3).
    """

    def __init__(
        self, problems: Sequence[tuple[int, str]], labels: Sequence[str] | None = None
    ) -> None:
        self.problems = tuple(problems)
        if labels is None:
            labels = [Msg("item {number}", number=number) for number, _ in self.problems]
        lines = joined(
            [
                Msg("{item}: {problem}", item=label, problem=message)
                for label, (_, message) in zip(labels, self.problems, strict=True)
            ]
        )
        super().__init__(Msg("nothing was recorded — {problems}", problems=lines))


class SchemaVersionError(RuntimeError):
    """The database was written by a newer hoshi than this one."""
