"""Platform-neutral replies: what a handler returns and every adapter renders.

A reply is a list of blocks (paragraphs and tables), with optionally a picture, a file and
buttons. Adapters render it natively (HTML for Telegram, embeds for Discord, plain text for
the console); :meth:`Reply.as_text` is the plain rendering shared by all.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, replace

from bot.i18n import translated


@dataclass(frozen=True, slots=True)
class Text:
    """A paragraph. ``title`` paragraphs are shown bold where the platform allows."""

    text: str
    title: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    """A table of rows; shown in monospace. ``align`` is ``l`` or ``r`` per column."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    align: str = ""

    def lines(self) -> list[str]:
        """The table as aligned monospace lines: columns as wide as their widest cell on the
        screen (:func:`display_width`: a Japanese character takes two columns)."""
        columns = len(self.header)
        widths = [display_width(h) for h in self.header]
        for row in self.rows:
            for i, cell in enumerate(row[:columns]):
                widths[i] = max(widths[i], display_width(cell))
        align = (self.align or "l" * columns).ljust(columns, "l")

        def fmt(row: tuple[str, ...]) -> str:
            cells = [
                _padded(cell, widths[i], right=align[i] == "r")
                for i, cell in enumerate(row[:columns])
            ]
            return "  ".join(cells).rstrip()

        return [fmt(self.header), *(fmt(row) for row in self.rows)]


def display_width(text: str) -> int:
    """How many monospace columns ``text`` takes: East Asian wide and full-width characters
    (Unicode East_Asian_Width W or F: 漢字, かな, ＡＢ) two, combining marks none, others one."""
    return sum(
        0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
        for ch in text
    )


def _padded(cell: str, width: int, *, right: bool) -> str:
    """``cell`` padded with spaces to ``width`` columns on the screen."""
    pad = " " * max(0, width - display_width(cell))
    return pad + cell if right else cell + pad


@dataclass(frozen=True, slots=True)
class Picture:
    """A PNG picture, e.g. a rating chart."""

    png: bytes
    filename: str
    caption: str = ""


@dataclass(frozen=True, slots=True)
class Document:
    """A file to send (exports, long lists)."""

    data: bytes
    filename: str
    caption: str = ""


@dataclass(frozen=True, slots=True)
class Button:
    """A button; pressing it runs ``command`` as the presser (e.g. ``/confirm 12``)."""

    label: str
    command: str


Block = Text | Table


@dataclass(frozen=True, slots=True)
class Reply:
    """What a command answers. ``private`` replies go only to the caller where possible."""

    blocks: tuple[Block, ...] = ()
    picture: Picture | None = None
    document: Document | None = None
    buttons: tuple[Button, ...] = ()
    private: bool = False
    error: bool = False

    @classmethod
    def text(cls, *paragraphs: str, title: str | None = None, **kwargs: object) -> Reply:
        blocks: list[Block] = [Text(title, title=True)] if title else []
        blocks.extend(Text(p) for p in paragraphs if p)
        return cls(blocks=tuple(blocks), **kwargs)  # type: ignore[arg-type]

    def in_language(self, language: str) -> Reply:
        """The same reply in ``language``: every text made by a catalogue is given again from
        its message id (a private answer in a group follows the person's own language; names,
        numbers and other plain text stay as they are)."""

        def cells(row: tuple[str, ...]) -> tuple[str, ...]:
            return tuple(translated(cell, language) for cell in row)

        blocks: list[Block] = []
        for block in self.blocks:
            if isinstance(block, Table):
                blocks.append(
                    Table(
                        cells(block.header), tuple(cells(row) for row in block.rows), block.align
                    )
                )
            else:
                blocks.append(Text(translated(block.text, language), block.title))
        picture, document = self.picture, self.document
        if picture is not None:
            picture = replace(picture, caption=translated(picture.caption, language))
        if document is not None:
            document = replace(document, caption=translated(document.caption, language))
        return replace(
            self,
            blocks=tuple(blocks),
            picture=picture,
            document=document,
            buttons=tuple(
                Button(translated(button.label, language), button.command)
                for button in self.buttons
            ),
        )

    def as_text(self) -> str:
        """Plain text: paragraphs separated by blank lines, tables as aligned lines."""
        parts: list[str] = []
        for block in self.blocks:
            if isinstance(block, Table):
                parts.append("\n".join(block.lines()))
            else:
                parts.append(block.text)
        return "\n\n".join(parts)


@dataclass(frozen=True, slots=True)
class Notice:
    """A message the bot posts by itself to a club's bound chats (scheduled work), or to some of
    its members in private."""

    club_id: int
    reply: Reply
    tags: tuple[str, ...] = field(default=())
    accounts: tuple[tuple[str, str], ...] = ()
    """People to tell in private, as ``(platform, account)`` (a player's own board); empty:
    the club's bound chats."""


def split_text(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, split at line breaks where possible."""
    if limit <= 0:
        raise ValueError("limit must be positive")
    pieces: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                pieces.append(current)
                current = ""
            pieces.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            pieces.append(current)
            current = line
        else:
            current = candidate
    if current or not pieces:
        pieces.append(current)
    return pieces
