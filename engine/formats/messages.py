"""The readers' and the club log's texts for a club member, kept translatable (issue 13).

An organiser reads a reader's :class:`~engine.errors.FormatError` after an import, and storage's
refusals in the chat: each is an :class:`engine.text.Msg`, and so is a list of them joined
(:func:`joined`) or an error's message passed on (:func:`message_of`).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import FormatError
from engine.text import Msg


def format_error(
    message: str, *, line: int | None = None, token: str | None = None
) -> FormatError:
    """A :class:`FormatError` whose message stays translatable: ``line N: message`` as a
    :class:`Msg` (``FormatError`` itself writes the line number into a plain text)."""
    error = FormatError(message, line=line, token=token)
    if line is not None:
        error.args = (Msg("line {line}: {message}", line=line, message=message),)
    elif isinstance(message, Msg):
        error.args = (message,)
    return error


def message_of(error: BaseException) -> str:
    """The message ``error`` was raised with, as it was given (a :class:`Msg` stays one)."""
    if error.args and isinstance(error.args[0], str):
        return error.args[0]
    return str(error)


def joined(parts: Sequence[str], lines: bool = False) -> str:
    """``parts`` joined by ``; `` (``lines``: one a line), each part translated on its own."""
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    middle = len(parts) // 2  # halves: a long list nests only log2(n) deep
    earlier, later = joined(parts[:middle], lines), joined(parts[middle:], lines)
    if lines:
        return Msg("{earlier}\n{later}", earlier=earlier, later=later)
    # TRANSLATORS: two problems of one request, one after the other
    return Msg("{earlier}; {later}", earlier=earlier, later=later)


def bare_message(error: FormatError) -> str:
    """``error``'s message without the ``line N:`` that :func:`format_error` put before it."""
    text = message_of(error)
    if isinstance(text, Msg) and text.template == "line {line}: {message}":
        message: str = text.args["message"]
        return message
    return text.removeprefix(f"line {error.line}: ")
