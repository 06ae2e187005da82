"""CSV tables: players, games and starting ratings (formats.md, CSV).

Players: ``name,rank[,rating][,country][,club][,egd_pin]`` with a header row.
Games: ``date,black,white,result[,handicap][,komi][,tournament][,round]`` with a header row,
results SGF-style (:func:`parse_result`). Ratings (``hoshi rate --ratings``):
``name,rating[,rank]``, header optional.

UTF-8 (a byte order mark is allowed), comma or semicolon separated (detected from the first
row), quoted fields allowed. Columns are found by their header names, in any order. Reading
is all or nothing: the first bad row raises a :class:`~engine.errors.FormatError` with its
line number.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple, TypeVar

from engine.errors import FormatError, RankError
from engine.formats.messages import format_error, message_of, utf16_text
from engine.formats.tournament_file import format_komi, parse_komi
from engine.ranks import RANK_EXAMPLE, Rank, parse_rank_lenient
from engine.ratings import Rating, decimal_text, parse_rating
from engine.text import Msg, plural
from engine.types import Result

RESULT_EXAMPLE = Msg(
    "write B+ or W+ (also B+R, W+T, B+F for a forfeit, W+3.5), jigo, unplayed, or ? if unknown"
)

# Header names each column may have (folded: lower case, no spaces/underscores)
PLAYER_COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("name", "player"),
    "rank": ("rank", "grade"),
    "rating": ("rating", "elo"),
    "country": ("country",),
    "club": ("club",),
    "egd_pin": ("egdpin", "egfpin", "pin"),
}
GAME_COLUMNS: dict[str, tuple[str, ...]] = {
    "date": ("date",),
    "black": ("black",),
    "white": ("white",),
    "result": ("result",),
    "handicap": ("handicap", "stones"),
    "komi": ("komi",),
    "tournament": ("tournament",),
    "round": ("round",),
}
RATING_COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("name", "player"),
    "rating": ("rating", "elo"),
    "rank": ("rank", "grade"),
}
PLAYER_REQUIRED = ("name", "rank")
GAME_REQUIRED = ("date", "black", "white", "result")
RATING_REQUIRED = ("name", "rating")

PLAYER_HEADER = ("name", "rank", "rating", "country", "club", "egd_pin")
GAME_HEADER = ("date", "black", "white", "result", "handicap", "komi", "tournament", "round")

# SGF result reasons after ``B+``/``W+`` (FF[4] RE property); Forfeit is unplayed
_REASONS = {"r": True, "resign": True, "t": True, "time": True, "f": False, "forfeit": False}
_JIGO_WORDS = {"jigo", "draw", "0", "="}
_UNPLAYED_WORDS = {"unplayed"}
_UNKNOWN_WORDS = {"?"}
_WIN_RE = re.compile(r"^(?P<colour>[bw])\s*\+\s*(?P<reason>[a-z]+|\d+(?:[.,]\d+)?)?$")
_INT_RE = re.compile(r"^[-+]?\d+$")
# rules.md §6 Decision: a rating is read exactly to 3 decimals (an EGD GoR: 2705.840)
RATING_EXAMPLE = Msg("a rating is a number with at most 3 decimals, e.g. 1985 or 2705.840")
RATING_ROW_EXAMPLE = Msg(
    "a rating is a number with at most 3 decimals, e.g. name,1985,2k or name,2705.840,7d"
)
_PIN_RE = re.compile(r"^\d{1,10}$")
_COUNTRY_RE = re.compile(r"^[A-Za-z]{2}$")

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class CsvPlayer:
    """One row of a players table."""

    line: int
    name: str
    rank: Rank
    rating: Rating | None = None
    country: str | None = None
    club: str | None = None
    egd_pin: str | None = None
    pro: int = 0
    """N of a professional rank Np (``rank`` is then 7d), 0 for an amateur."""


@dataclass(frozen=True, slots=True)
class CsvGame:
    """One row of a games table; ``black`` and ``white`` are names as written.

    ``komi`` is ``None`` when the table has no komi (the caller's default applies);
    ``margin`` is the result's SGF margin (``R``, ``T``, ``F``, ``3.5``; see
    :func:`parse_result_margin`).
    """

    line: int
    date: dt.date
    black: str
    white: str
    result: Result | None
    played: bool = True
    stones: int = 0
    komi: Fraction | None = None
    tournament: str | None = None
    round: int | None = None
    margin: str | None = None


class RatingRow(NamedTuple):
    """One row of a starting ratings table (``hoshi rate --ratings``)."""

    line: int
    name: str
    rating: Rating
    rank: Rank | None


# ------------------------------------------------------------------------------- results


def parse_result(text: str) -> tuple[Result | None, bool]:
    """Read an SGF-style result (formats.md, CSV; bot.md ``/result``) without its margin.

    See :func:`parse_result_margin`, which also gives the margin.

    Returns:
        The result (``None`` when unknown or unplayed without a winner) and whether the game
        was played.

    Raises:
        FormatError: (an EngineError) naming the text, with examples of the right form.
    """
    result, played, _ = parse_result_margin(text)
    return result, played


def parse_result_margin(text: str) -> tuple[Result | None, bool, str | None]:
    """Read an SGF-style result with its margin (formats.md, CSV; bot.md ``/result``).

    ``B+``, ``W+``, ``B+R``/``B+Resign``, ``W+T``/``W+Time``, ``B+3.5`` (any case) are played
    games; ``B+F``/``B+Forfeit`` keeps the winner but is **unplayed** (rules.md, common
    vocabulary: a forfeit is unplayed, stored and shown, never rated); ``jigo``, ``draw``,
    ``0`` (SGF's draw) and ``=`` are a jigo; ``unplayed`` is an unplayed game without a
    result; ``?`` a played game whose result is unknown (stored, not rated).

    The margin is the SGF text after ``B+``/``W+`` (FF[4] RE property), normalised: ``R``
    (resignation), ``T`` (time), ``F`` (forfeit), or the points as :func:`format_komi`
    writes them (``3.5``); ``None`` when the result names none. It is kept and shown, and
    never changes a rating.

    Returns:
        The result, whether the game was played, and the margin.

    Raises:
        FormatError: (an EngineError) naming the text, with examples of the right form.
    """
    word = text.strip().lower()
    if word in _JIGO_WORDS:
        return Result.JIGO, True, None
    if word in _UNPLAYED_WORDS:
        return None, False, None
    if word in _UNKNOWN_WORDS:
        return None, True, None
    match = _WIN_RE.match(word)
    if match is not None:
        result = Result.BLACK if match["colour"] == "b" else Result.WHITE
        reason = match["reason"]
        if reason is None:
            return result, True, None
        if reason in _REASONS:
            return result, _REASONS[reason], reason[0].upper()
        if reason[0].isdecimal():
            margin = parse_komi(reason)
            if margin > 0:
                return result, True, format_komi(margin)
            raise format_error(
                Msg("{text!r}: a win by 0 points is a jigo; write jigo", text=text.strip()),
                token=text.strip(),
            )
    raise format_error(
        Msg(
            "cannot read the result {text!r}: {example}", text=text.strip(), example=RESULT_EXAMPLE
        ),
        token=text.strip(),
    )


def format_result(result: Result | None, played: bool, margin: str | None = None) -> str:
    """The SGF-style text :func:`parse_result_margin` reads back to the same result.

    An unplayed win is a forfeit, ``B+F``/``W+F``; an unplayed jigo has no SGF form and is
    written ``unplayed``. A played win carries its ``margin`` (``B+R``, ``W+3.5``).
    """
    if not played:
        if result is Result.BLACK:
            return "B+F"
        if result is Result.WHITE:
            return "W+F"
        return "unplayed"
    if result is None:
        return "?"
    if result is Result.JIGO:
        return "jigo"
    return f"{result.value}{margin or ''}"


# ------------------------------------------------------------------------------- reading


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    wide = utf16_text(data)  # "Unicode text" as a spreadsheet saves it
    if wide is not None:
        return wide.removeprefix("\ufeff")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise format_error(
            Msg("the file is not UTF-8; save it as UTF-8 (CSV UTF-8 in a spreadsheet)"), line=line
        ) from None


def _delimiter(text: str) -> str:
    """``;`` when the first non-empty line has more semicolons than commas outside quotes."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    outside = re.sub(r'"[^"]*"', "", first)
    return ";" if outside.count(";") > outside.count(",") else ","


def _rows(data: bytes | str) -> Iterator[tuple[int, list[str]]]:
    """Non-empty rows with the line each starts on."""
    text = _decode(data)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    last = 0
    try:
        for row in reader:
            start, last = last + 1, reader.line_num
            if any(cell.strip() for cell in row):
                yield start, [cell.strip() for cell in row]
    except csv.Error as exc:
        raise format_error(
            Msg("cannot read the CSV: {error}", error=message_of(exc)), line=reader.line_num
        ) from None


def _fold_header(cell: str) -> str:
    return cell.strip().lower().replace(" ", "").replace("_", "")


def _columns(
    header: list[str], line: int, known: Mapping[str, tuple[str, ...]], required: tuple[str, ...]
) -> dict[str, int]:
    names = {alias: column for column, aliases in known.items() for alias in aliases}
    found: dict[str, int] = {}
    for index, cell in enumerate(header):
        column = names.get(_fold_header(cell))
        if column is None:
            raise format_error(
                Msg(
                    "unknown column {cell!r}; the columns are {known}",
                    cell=cell,
                    known=", ".join(known),
                ),
                line=line,
                token=cell,
            )
        if column in found:
            raise format_error(
                Msg("the column {cell!r} appears twice", cell=cell), line=line, token=cell
            )
        found[column] = index
    missing = [column for column in required if column not in found]
    if missing:
        raise format_error(
            Msg(
                "the header lacks {missing}; it must name at least {required}",
                missing=", ".join(missing),
                required=", ".join(required),
            ),
            line=line,
            token=",".join(header),
        )
    return found


def _cell(row: list[str], columns: dict[str, int], column: str) -> str:
    index = columns.get(column)
    return plain_cell(row[index]) if index is not None and index < len(row) else ""


def _field(read: Callable[[str], T], text: str, line: int, what: str, example: str) -> T:
    try:
        return read(text)
    except (ValueError, RankError) as exc:
        raise format_error(
            # TRANSLATORS: {what} is a column of the CSV file, kept in English (rank, rating,
            # date, handicap, round); {example} says what the column takes
            Msg(
                "cannot read the {what} {text!r} ({error}); {example}",
                what=what,
                text=text,
                error=message_of(exc),
                example=example,
            ),
            line=line,
            token=text,
        ) from None


def _check_width(row: list[str], width: int, line: int) -> None:
    if len(row) > width:
        raise format_error(
            plural(
                "the row has {n} field but the header names {width}; quote fields that contain "
                'the separator, e.g. "Nagy, Péter"',
                "the row has {n} fields but the header names {width}; quote fields that contain "
                'the separator, e.g. "Nagy, Péter"',
                len(row),
                width=width,
            ),
            line=line,
            token=row[width],
        )


def _rank(text: str) -> Rank:
    return parse_rank_lenient(text)[0]


def _int(text: str) -> int:
    if _INT_RE.match(text) is None:
        raise ValueError(Msg("not a whole number"))
    return int(text)


def _name(text: str, line: int) -> str:
    name = " ".join(text.split())
    if not name:
        raise format_error(Msg("the name is empty"), line=line, token=text)
    return name


def parse_players_csv(data: bytes | str) -> list[CsvPlayer]:
    """Read a players table: ``name,rank[,rating][,country][,club][,egd_pin]``, header first.

    Raises:
        FormatError: for the first bad row, with its line number and the value.
    """
    rows = _rows(data)
    header_line, header = next(rows, (1, []))
    columns = _columns(header, header_line, PLAYER_COLUMNS, PLAYER_REQUIRED)
    players: list[CsvPlayer] = []
    for line, row in rows:
        _check_width(row, len(header), line)
        rank, pro = _field(
            parse_rank_lenient, _cell(row, columns, "rank"), line, "rank", RANK_EXAMPLE
        )
        rating_text = _cell(row, columns, "rating")
        rating = (
            _field(parse_rating, rating_text, line, "rating", RATING_EXAMPLE)
            if rating_text
            else None
        )
        country = _cell(row, columns, "country").upper() or None
        if country is not None and _COUNTRY_RE.match(country) is None:
            raise format_error(
                Msg("the country {country!r} is not 2 letters, e.g. HU", country=country),
                line=line,
                token=country,
            )
        pin = _cell(row, columns, "egd_pin") or None
        if pin is not None and _PIN_RE.match(pin) is None:
            raise format_error(
                Msg("the EGD PIN {pin!r} is not a number, e.g. 12345678", pin=pin),
                line=line,
                token=pin,
            )
        players.append(
            CsvPlayer(
                line=line,
                name=_name(_cell(row, columns, "name"), line),
                rank=rank,
                rating=rating,
                country=country,
                club=_cell(row, columns, "club") or None,
                egd_pin=pin,
                pro=pro,
            )
        )
    return players


def parse_games_csv(data: bytes | str) -> list[CsvGame]:
    """Read a games table: ``date,black,white,result[,handicap][,komi][,tournament][,round]``.

    Raises:
        FormatError: for the first bad row, with its line number and the value.
    """
    rows = _rows(data)
    header_line, header = next(rows, (1, []))
    columns = _columns(header, header_line, GAME_COLUMNS, GAME_REQUIRED)
    games: list[CsvGame] = []
    for line, row in rows:
        _check_width(row, len(header), line)
        date = _field(
            dt.date.fromisoformat,
            _cell(row, columns, "date"),
            line,
            "date",
            Msg("write YYYY-MM-DD, e.g. 2026-04-11"),
        )
        result_text = _cell(row, columns, "result")
        try:
            result, played, margin = parse_result_margin(result_text)
        except FormatError as exc:  # parse_result knows no line numbers
            raise format_error(message_of(exc), line=line, token=result_text) from None
        stones_text = _cell(row, columns, "handicap")
        stones = (
            _field(_stones, stones_text, line, "handicap", Msg("handicap stones are 0–9"))
            if stones_text
            else 0
        )
        komi_text = _cell(row, columns, "komi")
        komi = parse_komi(komi_text, line=line) if komi_text else None
        round_text = _cell(row, columns, "round")
        black = _name(_cell(row, columns, "black"), line)
        white = _name(_cell(row, columns, "white"), line)
        if black == white:
            raise format_error(
                Msg("{black!r} cannot play themselves; black and white must differ", black=black),
                line=line,
                token=black,
            )
        games.append(
            CsvGame(
                line=line,
                date=date,
                black=black,
                white=white,
                result=result,
                played=played,
                stones=stones,
                komi=komi,
                tournament=_cell(row, columns, "tournament") or None,
                round=(
                    _field(
                        _positive, round_text, line, "round", Msg("a round is a number, e.g. 3")
                    )
                    if round_text
                    else None
                ),
                margin=margin,
            )
        )
    return games


def _stones(text: str) -> int:
    stones = _int(text)
    if not 0 <= stones <= 9:
        raise ValueError(Msg("out of range"))
    return stones


def _positive(text: str) -> int:
    value = _int(text)
    if value < 1:
        raise ValueError(Msg("rounds count from 1"))
    return value


def parse_ratings_csv(data: bytes | str) -> list[RatingRow]:
    """Read starting ratings for ``hoshi rate --ratings``: ``name,rating[,rank]``.

    The header is optional: a first row that names a ``name`` or ``rating`` column is a
    header (and its columns may then come in any order).

    Raises:
        FormatError: for the first bad row, with its line number and the value.
    """
    rows = _rows(data)
    first = next(rows, None)
    if first is None:
        return []
    first_line, first_row = first
    if any(_fold_header(cell) in ("name", "rating", "player", "elo") for cell in first_row):
        columns = _columns(first_row, first_line, RATING_COLUMNS, RATING_REQUIRED)
        width = len(first_row)
        body: Iterable[tuple[int, list[str]]] = rows
    else:
        columns = {"name": 0, "rating": 1, "rank": 2}
        width = 3
        body = [first, *rows]
    ratings: list[RatingRow] = []
    for line, row in body:
        _check_width(row, width, line)
        rating_text = _cell(row, columns, "rating")
        rating = _field(parse_rating, rating_text, line, "rating", RATING_ROW_EXAMPLE)
        rank_text = _cell(row, columns, "rank")
        rank = _field(_rank, rank_text, line, "rank", RANK_EXAMPLE) if rank_text else None
        ratings.append(RatingRow(line, _name(_cell(row, columns, "name"), line), rating, rank))
    return ratings


# ------------------------------------------------------------------------------- writing


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet may read as the start of a formula (OWASP, CSV injection)."""


def safe_cell(text: str) -> str:
    """A text cell a spreadsheet shows as text: one starting like a formula gets a leading
    ``'`` (OWASP's CSV-injection rule); :func:`plain_cell` takes it off again on reading."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def plain_cell(text: str) -> str:
    """A text cell as written before :func:`safe_cell` (a re-imported export reads its own
    names back); any other cell as it is."""
    return text[1:] if text.startswith("'") and text[1:].startswith(FORMULA_STARTS) else text


def _write(header: Iterable[str], rows: Iterable[Iterable[str]]) -> str:
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def write_players_csv(players: Iterable[CsvPlayer]) -> str:
    """A players table that :func:`parse_players_csv` reads back (UTF-8 text, comma separated)."""
    return _write(
        PLAYER_HEADER,
        (
            (
                safe_cell(p.name),
                f"{p.pro}p" if p.pro else str(p.rank),
                "" if p.rating is None else decimal_text(p.rating),
                safe_cell(p.country or ""),
                safe_cell(p.club or ""),
                safe_cell(p.egd_pin or ""),
            )
            for p in players
        ),
    )


def write_games_csv(games: Iterable[CsvGame]) -> str:
    """A games table that :func:`parse_games_csv` reads back (UTF-8 text, comma separated)."""
    return _write(
        GAME_HEADER,
        (
            (
                g.date.isoformat(),
                safe_cell(g.black),
                safe_cell(g.white),
                format_result(g.result, g.played, g.margin),
                str(g.stones),
                "" if g.komi is None else format_komi(g.komi),
                safe_cell(g.tournament or ""),
                "" if g.round is None else str(g.round),
            )
            for g in games
        ),
    )
