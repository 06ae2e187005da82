"""Rendering: a core :class:`~bot.core.replies.Reply` as Telegram messages.

HTML with every piece of user text escaped, titles bold and tables in ``<pre>``; messages over
Telegram's 4096 characters (counted in UTF-16 units, as Telegram counts) are split at line
breaks, and a very long answer becomes a text file (:func:`as_document`). The buttons become
an inline keyboard whose callback data carries the command (:func:`keyboard`).
"""

from __future__ import annotations

import re
from html import escape as _html_escape

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.adapters.buttons import ButtonCommands
from bot.core.replies import Document, Reply, Table, split_text

MESSAGE_LIMIT = 4096  # Bot API sendMessage: 1-4096 characters after entity parsing
CAPTION_LIMIT = 1024  # sendPhoto/sendDocument captions


def escape(text: str) -> str:
    """User text made safe for Telegram's HTML parse mode (``<``, ``>``, ``&``)."""
    return _html_escape(text, quote=False)


def visible_length(text: str) -> int:
    """Length as Telegram counts it (UTF-16 code units)."""
    return len(text.encode("utf-16-le")) // 2


def _pieces(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` UTF-16 units, split at line breaks if possible."""
    size = limit
    while True:
        pieces = split_text(text, size)
        if all(visible_length(p) <= limit for p in pieces):
            return pieces
        size = max(1, size // 2)  # astral characters count twice


def render_html(reply: Reply, limit: int = MESSAGE_LIMIT) -> list[str]:
    """The reply's blocks as HTML messages of at most ``limit`` visible characters each.

    Every piece of text is escaped; titles are bold, tables monospace (``<pre>``). Blocks are
    kept whole where they fit and split at line breaks where they do not.
    """
    units: list[tuple[int, str]] = []  # (visible length, html)
    for block in reply.blocks:
        if isinstance(block, Table):
            for chunk in _pieces("\n".join(block.lines()), limit):
                units.append((visible_length(chunk), f"<pre>{escape(chunk)}</pre>"))
        else:
            for chunk in _pieces(block.text, limit):
                html = f"<b>{escape(chunk)}</b>" if block.title else escape(chunk)
                units.append((visible_length(chunk), html))
    messages: list[str] = []
    current: list[str] = []
    size = 0
    for length, html in units:
        if current and size + 2 + length > limit:
            messages.append("\n\n".join(current))
            current, size = [], 0
        size += length + (2 if current else 0)
        current.append(html)
    if current:
        messages.append("\n\n".join(current))
    return messages


def keyboard(reply: Reply, buttons: ButtonCommands) -> InlineKeyboardMarkup | None:
    """The reply's buttons, one per row, each carrying its command (or a key to it)."""
    if not reply.buttons:
        return None
    return InlineKeyboardMarkup(
        [
            [InlineKeyboardButton(b.label, callback_data=buttons.encode(b.command))]
            for b in reply.buttons
        ]
    )


def as_document(reply: Reply) -> Document:
    """A reply too long for messages, as a text file named after its title."""
    first = reply.blocks[0] if reply.blocks else None
    stem = "answer"
    if first is not None and not isinstance(first, Table) and first.title:
        stem = re.sub(r"[^\w-]+", "-", first.text.lower()).strip("-")[:40] or "answer"
    return Document(reply.as_text().encode("utf-8") + b"\n", f"{stem}.txt")


def cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
