"""Errors the engine raises for input the rules cannot accept.

Every message is safe to show to a user: it names the value that was wrong and, where it
helps, an example of the right form (STYLE.md, Errors).
"""

from __future__ import annotations

from engine.text import Msg


class EngineError(ValueError):
    """Input that the rulebooks or the file formats cannot accept; nothing was changed."""


class RankError(EngineError):
    """A rank that is not on the kyu/dan ladder (rules.md, common vocabulary)."""


class TimeControlError(EngineError):
    """A time control that cannot be read."""


class RuleError(EngineError):
    """An event or query that a rulebook refuses (e.g. a pair go game under MGSZ, §1.6)."""


class FormatError(EngineError):
    """A malformed file; carries the 1-based line number and the offending token."""

    def __init__(self, message: str, *, line: int | None = None, token: str | None = None):
        self.line = line
        self.token = token
        # a Msg message stays translatable with its line number (issue 13)
        super().__init__(
            message if line is None else Msg("line {line}: {message}", line=line, message=message)
        )
