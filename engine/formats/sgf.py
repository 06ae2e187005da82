"""SGF game records: read one game's players, result, handicap, komi, date and clock.

SGF (FF[4], https://www.red-bean.com/sgf/) is what servers (OGS, KGS, IGS, Fox) and
programs (Sabaki, CGoban, MultiGo) write. The grammar, escapes and values are read by
sgfmill's parser (a well-kept library, not a hand parser); this module turns the root node's
game-info properties into an :class:`SgfGame`:

``PB``/``PW`` names, ``BR``/``WR`` ranks, ``RE`` result (``B+R``, ``W+3.5``, ``B+T``,
``W+F``, ``0``/``Draw``/``jigo``, ``Void``/``?``), ``HA`` handicap (else the ``AB`` stones),
``KM`` komi, ``DT`` date, ``SZ`` board size, ``TM``/``OT`` clock, ``EV``/``RO`` event and
round, ``AP``/``PC`` program and place.

Encoding: a byte order mark wins, then ``CA``; without either the file is read as UTF-8
(what every current program writes; FF[4] says Latin-1, so a file that is not valid UTF-8
falls back to Latin-1 with a warning).

Reading is all or nothing: :func:`read_sgf` returns the game or raises a
:class:`~engine.errors.FormatError` naming the reason.
"""

from __future__ import annotations

import codecs
import datetime as dt
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from sgfmill import sgf_grammar  # type: ignore[import-untyped]

from engine.errors import FormatError, RankError, TimeControlError
from engine.formats.messages import format_error
from engine.ranks import Rank, parse_rank_lenient
from engine.text import Msg, plural
from engine.timecontrol import TimeControl
from engine.types import Result

UTF8 = "UTF-8"
LATIN1 = "ISO-8859-1"
USUAL_SIZES = (19, 13, 9)

Ending = Literal["score", "resign", "time", "forfeit", "jigo", "unknown", "none"]
"""How the game ended: counted, resignation, time-out, forfeit, a draw, an unknown or void
result (``Void``, ``?``), or no ``RE`` at all."""

_BOMS = (
    (codecs.BOM_UTF8, "UTF-8"),
    (codecs.BOM_UTF16_LE, "UTF-16-LE"),
    (codecs.BOM_UTF16_BE, "UTF-16-BE"),
)
_DATE_RE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")
_RESULT_RE = re.compile(r"^\s*([BW])\s*\+\s*(.*?)\s*$", re.IGNORECASE)
_MARGIN_RE = re.compile(r"^(\d+(?:[.,]\d+)?)$")
_KOMI_RE = re.compile(r"^\s*([+-]?\d*(?:[.,]\d*)?)\s*$")
_ENDINGS: dict[str, Ending] = {
    "r": "resign",
    "resign": "resign",
    "resignation": "resign",
    "t": "time",
    "time": "time",
    "timeout": "time",
    "time over": "time",
    "f": "forfeit",
    "forfeit": "forfeit",
}
_JIGO = {"0", "draw", "jigo", "j", "d"}
_UNKNOWN = {"?", "void", "unknown", ""}
_OVERTIME_RE = re.compile(
    r"^\s*(?:(?P<periods>\d+)\s*x\s*(?P<period>\d+)\s*(?:byo-?yomi)?"
    r"|(?P<moves>\d+)\s*/\s*(?P<time>\d+)\s*(?:canadian)?"
    r"|(?P<inc>\d+)\s*fischer)\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class SgfGame:
    """One game's record as the SGF root node gives it.

    ``black_rank``/``white_rank`` are ranks when ``BR``/``WR`` read as one (``3d``, ``12k``,
    ``1p``), else ``None`` with the text kept in ``black_rank_text``/``white_rank_text``
    (``15级``, ``?``). ``result`` is ``None`` when ``RE`` is missing, void or unknown
    (``ending`` says which). ``margin`` is the score difference of a counted game.
    ``handicap`` is ``HA``, else the number of ``AB`` stones (0 for an even game).
    ``warnings`` name what was read with a guess (encoding, an unusual board size).
    """

    black: str
    white: str
    black_rank: Rank | None
    white_rank: Rank | None
    black_rank_text: str
    white_rank_text: str
    result: Result | None
    margin: Fraction | None
    ending: Ending
    result_text: str
    handicap: int
    komi: Fraction | None
    date: dt.date | None
    size: int
    time_control: TimeControl | None
    time_text: str
    event: str
    round: str
    program: str
    place: str
    moves: int
    encoding: str
    warnings: tuple[str, ...] = ()

    @property
    def has_result(self) -> bool:
        """Whether the record says who won (or that it was a jigo)."""
        return self.result is not None


def read_sgf(data: bytes) -> SgfGame:
    """Read the one game of an SGF file.

    Raises:
        FormatError: not an SGF (no ``(;``), malformed (sgfmill's reason and where), several
            games in one file (how many), not a go game (``GM`` other than 1), a board that is
            not square, no players, or a value that cannot be read (``KM``, ``HA``).
    """
    body, bom_encoding = _strip_bom(data)
    if bom_encoding is not None and bom_encoding.startswith("UTF-16"):
        body = body.decode(bom_encoding).encode(UTF8)
        bom_encoding = UTF8
    if re.search(rb"\(\s*;", body) is None:
        raise format_error(Msg("this is not an SGF game record (no “(;” starts a game)"))
    try:
        trees = sgf_grammar.parse_sgf_collection(body)
    except ValueError as error:
        raise format_error(_malformed(str(error), body)) from None
    if len(trees) > 1:
        raise format_error(
            plural(
                "the file holds {n} game; send one game a file",
                "the file holds {n} games (an SGF collection); send one game a file",
                len(trees),
            )
        )
    tree = trees[0]
    root: dict[str, list[bytes]] = tree.sequence[0]
    warnings: list[str] = []
    encoding = _encoding(root, body, bom_encoding, warnings)

    def text(identifier: str) -> str:
        values = root.get(identifier)
        if not values:
            return ""
        raw = sgf_grammar.simpletext_value(values[0])
        return str(raw.decode(encoding, errors="replace")).strip()

    game_type = text("GM")
    if game_type not in ("", "1"):
        raise format_error(
            Msg("this SGF records another game (GM[{gm}]), not go (GM[1])", gm=game_type)
        )
    size = _size(text("SZ"))
    if size not in USUAL_SIZES:
        warnings.append(Msg("an unusual board size: {size}×{size}", size=size))
    black, white = text("PB"), text("PW")
    if not black or not white:
        missing = "PB" if not black else "PW"
        raise format_error(
            Msg(
                "the record names no {colour} player ({prop}[…] is missing)",
                colour=Msg("black") if missing == "PB" else Msg("white"),
                prop=missing,
            )
        )
    black_rank_text, white_rank_text = text("BR"), text("WR")
    result_text = text("RE")
    result, margin, ending = parse_result(result_text)
    time_text = " ".join(part for part in (text("TM"), text("OT")) if part)
    return SgfGame(
        black=black,
        white=white,
        black_rank=_rank(black_rank_text),
        white_rank=_rank(white_rank_text),
        black_rank_text=black_rank_text,
        white_rank_text=white_rank_text,
        result=result,
        margin=margin,
        ending=ending,
        result_text=result_text,
        handicap=_handicap(text("HA"), root),
        komi=_komi(text("KM")),
        date=parse_sgf_date(text("DT")),
        size=size,
        time_control=_time_control(text("TM"), text("OT")),
        time_text=time_text,
        event=text("EV"),
        round=text("RO"),
        program=text("AP"),
        place=text("PC"),
        moves=_count_moves(tree),
        encoding=encoding,
        warnings=tuple(warnings),
    )


def parse_result(text: str) -> tuple[Result | None, Fraction | None, Ending]:
    """Read an SGF ``RE`` value (FF[4]: ``B+R``, ``W+3.5``, ``B+T``, ``W+F``, ``0``/``Draw``,
    ``Void``, ``?``); KGS writes ``B+Resign``/``W+Time``, others ``jigo`` or ``B+``.

    Returns:
        The winner (``None`` for void or unknown), the margin of a counted game, how it ended.
    """
    stripped = text.strip()
    if not stripped:
        return None, None, "none"
    lowered = stripped.lower()
    if lowered in _JIGO:
        return Result.JIGO, Fraction(0), "jigo"
    if lowered in _UNKNOWN:
        return None, None, "unknown"
    match = _RESULT_RE.match(stripped)
    if match is None:
        return None, None, "unknown"
    winner = Result.BLACK if match[1].upper() == "B" else Result.WHITE
    rest = match[2].lower()
    if rest in _ENDINGS:
        return winner, None, _ENDINGS[rest]
    number = _MARGIN_RE.match(rest)
    if number is not None:
        margin = Fraction(number[1].replace(",", "."))
        if margin == 0:
            return Result.JIGO, margin, "jigo"
        return winner, margin, "score"
    # "B+", or a margin with a word after it: the winner is known, the margin not
    return winner, None, "score"


def parse_sgf_date(text: str) -> dt.date | None:
    """The first day of an SGF ``DT`` (``2024-03-01,02``, ``2024-03``, ``2024``); a month or
    year alone reads as its first day; ``None`` when it does not start with a date."""
    match = _DATE_RE.match(text.strip())
    if match is None:
        return None
    year, month, day = int(match[1]), int(match[2] or 1), int(match[3] or 1)
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


# ------------------------------------------------------------------------------- helpers


def _strip_bom(data: bytes) -> tuple[bytes, str | None]:
    for bom, name in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :], name
    return data, None


def _encoding(
    root: dict[str, list[bytes]], body: bytes, bom: str | None, warnings: list[str]
) -> str:
    if bom is not None:
        return codecs.lookup(bom).name
    declared = root.get("CA")
    if declared:
        name = declared[0].decode("ascii", errors="replace").strip()
        try:
            return codecs.lookup(name).name
        except LookupError:
            warnings.append(Msg("the file's encoding {name} is unknown; read as UTF-8", name=name))
    try:
        body.decode(UTF8)
    except UnicodeDecodeError:
        warnings.append(Msg("no encoding given and not UTF-8: read as Latin-1 (ISO-8859-1)"))
        return codecs.lookup(LATIN1).name
    return codecs.lookup(UTF8).name


def _malformed(reason: str, body: bytes) -> str:
    reason = reason.removeprefix("error parsing game 0: ")
    if "unexpected end" in reason:
        return Msg("the SGF is cut short: it ends before its last “)” (truncated file?)")
    return Msg("the SGF cannot be read: {reason} (file of {n} bytes)", reason=reason, n=len(body))


def _size(text: str) -> int:
    if not text:
        return 19
    if ":" in text:
        columns, _, rows = text.partition(":")
        if columns.strip() != rows.strip():
            raise format_error(
                Msg(
                    "the board is not square (SZ[{size}]); go here is played on a square board",
                    size=text,
                )
            )
        text = columns
    try:
        size = int(text)
    except ValueError:
        raise format_error(Msg("cannot read the board size SZ[{size}]", size=text)) from None
    if not 1 <= size <= 52:
        raise format_error(Msg("a board size of {size} is not possible in SGF", size=size))
    return size


def _rank(text: str) -> Rank | None:
    # Fox and Japanese servers write 15级 / 15級 (kyu) and 3段 (dan)
    candidate = text.strip().rstrip("?*+ ").strip()
    for word, kind in (("级", "k"), ("級", "k"), ("段", "d")):
        candidate = candidate.replace(word, kind)
    if not candidate:
        return None
    try:
        rank, _pro = parse_rank_lenient(candidate)
    except RankError:
        return None
    return rank


def _handicap(text: str, root: dict[str, list[bytes]]) -> int:
    if text:
        try:
            stones = int(text)
        except ValueError:
            raise format_error(Msg("cannot read the handicap HA[{ha}]", ha=text)) from None
        if stones < 0:
            raise format_error(Msg("cannot read the handicap HA[{ha}]", ha=text))
        return 0 if stones == 1 else stones  # HA[1] is an even game with no komi
    return sum(_points(value) for value in root.get("AB", ()))


def _points(value: bytes) -> int:
    """Stones in one ``AB`` value: a point, or a compressed rectangle ``aa:cc``."""
    if b":" not in value:
        return 1
    first, _, last = value.partition(b":")
    if len(first) != 2 or len(last) != 2:
        return 1
    columns = abs(last[0] - first[0]) + 1
    rows = abs(last[1] - first[1]) + 1
    return columns * rows


def _komi(text: str) -> Fraction | None:
    if not text:
        return None
    match = _KOMI_RE.match(text)
    if match is None or not any(ch.isdigit() for ch in match[1]):
        raise format_error(Msg("cannot read the komi KM[{km}]", km=text))
    return Fraction(match[1].replace(",", "."))


def _time_control(main: str, overtime: str) -> TimeControl | None:
    """``TM`` (main time in seconds) and ``OT`` (``5x30 byo-yomi``, ``25/600 Canadian``,
    ``30 fischer``) as a :class:`TimeControl`; ``None`` when either does not read."""
    if not main:
        return None
    try:
        base_s = int(float(main))
    except ValueError:
        return None
    try:
        if not overtime or overtime.lower() in ("none", "0 none", "absolute"):
            return TimeControl.parse(f"{base_s}s")
        match = _OVERTIME_RE.match(overtime)
        if match is None:
            return None
        if match["periods"]:
            return TimeControl.parse(f"{base_s}s {match['periods']}x{match['period']}s japanese")
        if match["moves"]:
            return TimeControl.parse(f"{base_s}s {match['moves']}/{match['time']}s canadian")
        return TimeControl.parse(f"{base_s}s+{match['inc']}s fischer")
    except TimeControlError:
        return None


def _count_moves(tree: object) -> int:
    """Moves (``B``/``W`` nodes) along the main line: each first variation in turn."""
    count = 0
    node = tree
    while node is not None:
        for properties in node.sequence:  # type: ignore[attr-defined]
            count += ("B" in properties) + ("W" in properties)
        children = node.children  # type: ignore[attr-defined]
        node = children[0] if children else None
    return count


__all__ = ["Ending", "FormatError", "SgfGame", "parse_result", "parse_sgf_date", "read_sgf"]
