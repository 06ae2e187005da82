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

    ``problems`` lists ``(number, message)`` with 1-based item numbers, every bad item named.
    """

    def __init__(self, problems: Sequence[tuple[int, str]]):
        self.problems = tuple(problems)
        lines = joined(
            [
                Msg("#{number}: {problem}", number=number, problem=message)
                for number, message in self.problems
            ]
        )
        super().__init__(Msg("nothing was recorded — {problems}", problems=lines))


class SchemaVersionError(RuntimeError):
    """The database was written by a newer hoshi than this one."""
