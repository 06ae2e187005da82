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


UTF16 = "UTF-16"


def utf16_text(data: bytes) -> str | None:
    """``data`` read as UTF-16 when it is: a byte order mark (``FF FE``/``FE FF``, as Windows
    tools save "Unicode" text), or most of every other byte of its start zero and none of the
    others (UTF-16 without one);
    ``None`` for any other file. A results table saved as UTF-16 reads as the same table
    (issue 26: it was refused with a confusing reason)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    head = data[: len(data[:200]) // 2 * 2]
    half = len(head) // 2
    if half < 2:
        return None
    odd, even = head[1::2].count(0), head[0::2].count(0)
    if even == 0 and odd * 10 >= half * 7:  # mostly Latin text, low byte first
        return data.decode("utf-16-le", errors="replace")
    if odd == 0 and even * 10 >= half * 7:
        return data.decode("utf-16-be", errors="replace")
    return None
