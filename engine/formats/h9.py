"""EGD tournament results ("h9" files): read and write (formats.md, EGD tournament results).

A file is header lines (``; KEY[value]``), comments (other ``;`` lines) and player lines::

       1 Nagy Péter                      3D HU Bp     33  128 0 0    4+/w0    2+/b0   |12345678
         Schmidt Jonas                   1K DE Mun    31  120 0 0    2-/b0    4+/w2

A player line is: place (blank when tied), name (one or more words), rank, country, club,
numeric criteria columns (kept as text under the titles of the ``; Pl Name Rk Co Club MMS
SOS`` comment), one round token per round, and optionally ``|PIN``. The
name ends at the first word that starts with a digit (the rank); the round tokens are the
last ``rounds`` tokens of every line, and every line has the same number of them.

Reading is all or nothing: :func:`parse_h9` returns the whole file or raises a
:class:`~engine.errors.FormatError` carrying the line number and the token.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from engine.errors import FormatError, RankError
from engine.formats.messages import (
    UTF16,
    bare_message,
    format_error,
    joined,
    message_of,
    utf16_text,
)
from engine.formats.tournament_file import (
    EVEN_RULE,
    FileBye,
    FileGame,
    FilePlayer,
    TournamentFile,
    administrative_note,
    format_komi,
    parse_komi,
)
from engine.handicap import rank_handicap
from engine.ranks import RANK_EXAMPLE, Rank, parse_rank_lenient
from engine.text import Msg, plural
from engine.types import ByeKind, Outcome, Result

UTF8 = "UTF-8"
LATIN9 = "ISO-8859-15"  # formats.md: OpenGotha writes ISO-8859-15, the others UTF-8
TEXT = "text"  # the caller passed already decoded text

UNKNOWN_COUNTRY = "XX"  # formats.md: country XX if unknown
UNKNOWN_CLUB = "xxxx"  # formats.md: club xxxx if unknown

ROUND_TOKEN_EXAMPLE = Msg(
    "a round token is OPP RES [SEP] [COLOUR] [HANDICAP], e.g. 12+/w0, 7-!b2, 23+ or 0+"
)
DATE_EXAMPLE = Msg("DT[2026-04-11,2026-04-12] (first and last day, YYYY-MM-DD)")
HANDICAP_RULE_EXAMPLE = Msg("HA[h2] (handicap = rank difference reduced by 2; h9: no handicap)")

_KEY_RE = re.compile(r"\s*([A-Za-z]{2})\[([^\]]*)\]")
_ONE_KEY_RE = re.compile(r"^\s*([A-Za-z]{2})\[(.*)\]\s*$")
_PIN_RE = re.compile(r"\|\s*(\d*)\s*$")
_PLACE_RE = re.compile(r"^(\d+)[.=]?$")
_COUNTRY_RE = re.compile(r"^[A-Za-z]{2}$")
_ROUND_RE = re.compile(
    r"^(?P<opp>\d+)(?P<res>[-+=?])(?P<sep>[/!])?(?P<colour>[wWbB])?(?P<stones>\d)?$"
)
# criteria columns (MMS, SOS, ...): numbers that may carry ? or = (formats.md: ignore them)
_CRITERION_RE = re.compile(r"^(?:\d+(?:[.,]\d+)?½?|½|-)[?=]?$|^[?=]$")
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_HA_RE = re.compile(r"^[hH]?(\d+)$")
_NOTE_KEY_RE = re.compile(r"^[A-Z]{2}$")

_RESULT_OF_BLACK = {"+": Result.BLACK, "-": Result.WHITE, "=": Result.JIGO, "?": None}
_OPPOSITE = {"+": "-", "-": "+", "=": "=", "?": "?"}
_BYE_KINDS: dict[str, ByeKind] = {"+": "win", "=": "half", "-": "none"}
_BYE_TOKENS = {kind: f"0{res}" for res, kind in _BYE_KINDS.items()}


# ------------------------------------------------------------------------------- reading


@dataclass
class _Header:
    values: dict[str, tuple[str, int]] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    notes: dict[str, str] = field(default_factory=dict)
    titles: tuple[str, ...] | None = None  # the criteria columns' titles, when given


@dataclass(frozen=True, slots=True)
class _Row:
    line: int
    place: int | None
    name: str
    rank: Rank
    pro: int  # N of a professional rank Np, 0 for an amateur
    country: str | None
    club: str | None
    pin: str | None
    rest: tuple[str, ...]  # criteria columns and round tokens


@dataclass(frozen=True, slots=True)
class _Token:
    text: str
    opp: int
    res: str
    played: bool
    colour: str | None  # "w" or "b"
    stones: int | None  # None: not written


def parse_h9(data: bytes | str) -> TournamentFile:
    """Read an EGD results file (formats.md, EGD tournament results).

    Args:
        data: the file's bytes (UTF-8 when valid, else ISO-8859-15; the choice is reported in
            ``encoding`` and ``warnings``) or already decoded text.

    Returns:
        The whole tournament. Games are ordered by round, then by the lower position.

    Raises:
        FormatError: for the first problem found, with its line number, the token and what
            was expected; nothing is returned for a file with any error.
    """
    text, encoding, warnings = _decode(data)
    header = _Header()
    rows: list[_Row] = []
    for number, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
        stripped = raw.strip()
        if not stripped:
            continue
        if stripped.startswith(";"):
            _read_header_line(stripped[1:], number, header)
        else:
            rows.append(_read_player_line(raw, number))
    if not rows:
        raise format_error(
            Msg("the file has no player lines (place, name, rank, country, club, …)")
        )
    rounds = _count_rounds(rows)
    tokens = [
        [_read_token(tok, row.line, len(rows)) for tok in row.rest[len(row.rest) - rounds :]]
        for row in rows
    ]
    for position, row in enumerate(rows, 1):
        for tok in tokens[position - 1]:
            if tok.opp == position:
                raise format_error(
                    Msg(
                        "{text!r} pairs the player with themselves (line position {position}); "
                        "the opponent is the other player's line position",
                        text=tok.text,
                        position=position,
                    ),
                    line=row.line,
                    token=tok.text,
                )
        if row.pro:
            warnings.append(
                Msg(
                    "line {line}: {name} has a professional rank, read as {rank}",
                    line=row.line,
                    name=row.name,
                    rank=row.rank,
                )
            )
    handicap_rule = _handicap_rule(header)
    games, byes = _pair(rows, tokens, handicap_rule)
    inferred = sum(g.handicap_inferred for g in games)
    if inferred:
        warnings.append(
            plural(
                "{n} game has neither colour nor handicap: stones computed from HA[h{rule}]",
                "{n} games have neither colour nor handicap: stones computed from HA[h{rule}]",
                inferred,
                rule=handicap_rule,
            )
        )
    unknown = sum(1 for g in games if g.result is None and g.double is None)
    if unknown:
        warnings.append(
            plural(
                "{n} game has an unknown result (?): stored, never rated",
                "{n} games have an unknown result (?): stored, never rated",
                unknown,
            )
        )
    note = administrative_note(games, {position: row.name for position, row in enumerate(rows, 1)})
    if note:
        warnings.append(note)
    start, end = _dates(header)
    if start is None:
        warnings.append(
            Msg("the file has no dates; add them, e.g. {example}", example=DATE_EXAMPLE)
        )
    even = (
        all(g.stones == 0 for g in games) if handicap_rule is None else handicap_rule >= EVEN_RULE
    )
    players = tuple(
        FilePlayer(
            position=position,
            line=row.line,
            name=row.name,
            rank=row.rank,
            pro=row.pro,
            country=row.country,
            club=row.club,
            egd_pin=row.pin,
            place=row.place,
            criteria=_criteria(row, len(row.rest) - rounds, header.titles),
        )
        for position, row in enumerate(rows, 1)
    )
    return TournamentFile(
        name=_value(header, "EV") or "",
        start=start,
        end=end,
        rounds=rounds,
        komi=_komi(header),
        time_minutes=_time_minutes(header),
        handicap_rule=handicap_rule,
        even=even,
        class_=_value(header, "CL"),
        place=_value(header, "PC"),
        code=_value(header, "TC"),
        comment="\n".join(header.comments) or None,
        notes=dict(header.notes),
        encoding=encoding,
        players=players,
        games=tuple(games),
        byes=tuple(byes),
        unknown_results=unknown,
        warnings=tuple(warnings),
    )


def _decode(data: bytes | str) -> tuple[str, str, list[str]]:
    """Valid UTF-8 is UTF-8, UTF-16 is UTF-16 (messages.utf16_text), anything else
    ISO-8859-15 (formats.md, Encoding)."""
    if isinstance(data, str):
        return data.removeprefix("\ufeff"), TEXT, []
    wide = utf16_text(data)
    if wide is not None:
        return wide.removeprefix("\ufeff"), UTF16, []
    raw = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return raw.decode("utf-8"), UTF8, []
    except UnicodeDecodeError:
        return (
            raw.decode("iso8859_15"),
            LATIN9,
            [Msg("the file is not UTF-8: read as {encoding}", encoding=LATIN9)],
        )


def _read_header_line(content: str, number: int, header: _Header) -> None:
    pairs: list[tuple[str, str]] = []
    position = 0
    while (match := _KEY_RE.match(content, position)) is not None:
        pairs.append((match[1], match[2]))
        position = match.end()
    if not pairs or content[position:].strip():
        single = _ONE_KEY_RE.match(content)
        if single is None:  # a comment, e.g. the column titles "; Pl Name Rk Co Club MMS SOS"
            if header.titles is None:
                header.titles = _criteria_titles(content)
            return
        pairs = [(single[1], single[2])]
    for raw_key, raw_value in pairs:
        key, value = raw_key.upper(), raw_value.strip()
        if key == "CM":
            header.comments.append(value)
        elif key in ("CL", "EV", "PC", "DT", "HA", "KM", "TM", "TC"):
            if key in header.values:
                first = header.values[key][1]
                raise format_error(
                    Msg(
                        "{key}[…] is given twice (lines {first} and {number}); keep one",
                        key=key,
                        first=first,
                        number=number,
                    ),
                    line=number,
                    token=f"{key}[{raw_value}]",
                )
            header.values[key] = (value, number)
        elif key in header.notes:
            header.notes[key] += "\n" + value
        else:
            header.notes[key] = value


def _value(header: _Header, key: str) -> str | None:
    found = header.values.get(key)
    return found[0] or None if found else None


def _dates(header: _Header) -> tuple[dt.date | None, dt.date | None]:
    found = header.values.get("DT")
    if found is None or not found[0]:
        return None, None
    value, number = found
    parts = [part.strip() for part in value.split(",")]
    if len(parts) > 2 or not all(_DATE_RE.match(part) for part in parts):
        raise format_error(
            Msg(
                "cannot read the dates DT[{value}]; write {example}",
                value=value,
                example=DATE_EXAMPLE,
            ),
            line=number,
            token=value,
        )
    try:
        dates = [dt.date.fromisoformat(part) for part in parts]
    except ValueError as exc:
        raise format_error(
            Msg(
                "DT[{value}] holds an impossible date ({error}); write {example}",
                value=value,
                error=message_of(exc),
                example=DATE_EXAMPLE,
            ),
            line=number,
            token=value,
        ) from None
    start, end = dates[0], dates[-1]
    if end < start:
        raise format_error(
            Msg(
                "DT[{value}] ends before it starts; write {example}",
                value=value,
                example=DATE_EXAMPLE,
            ),
            line=number,
            token=value,
        )
    return start, end


def _handicap_rule(header: _Header) -> int | None:
    found = header.values.get("HA")
    if found is None or not found[0]:
        return None
    value, number = found
    match = _HA_RE.match(value)
    if match is None:
        raise format_error(
            Msg(
                "cannot read the handicap rule HA[{value}]; write {example}",
                value=value,
                example=HANDICAP_RULE_EXAMPLE,
            ),
            line=number,
            token=value,
        )
    return int(match[1])


def _komi(header: _Header) -> Fraction | None:
    found = header.values.get("KM")
    if found is None or not found[0]:
        return None
    return parse_komi(found[0], line=found[1])


def _time_minutes(header: _Header) -> int | None:
    found = header.values.get("TM")
    if found is None or not found[0]:
        return None
    value, number = found
    if not value.isdecimal():
        raise format_error(
            Msg(
                "cannot read the time TM[{value}]; write the adjusted time in whole "
                "minutes, e.g. TM[60]",
                value=value,
            ),
            line=number,
            token=value,
        )
    return int(value)


def _criteria_titles(comment: str) -> tuple[str, ...] | None:
    """The criteria columns' titles from a column-title comment (``; Pl Name Rk Co Club MMS
    SOS``): the words after the name's and the three of rank, country and club; ``None`` when
    the comment is no title line (its first or second word is not ``Name``)."""
    words = comment.split()
    at = next((i for i, word in enumerate(words[:2]) if word.lower() == "name"), None)
    if at is None:
        return None
    return tuple(word.replace("_", " ") for word in words[at + 4 :])


def _criteria(
    row: _Row, count: int, titles: tuple[str, ...] | None
) -> tuple[tuple[str, str], ...]:
    """A line's criteria columns as ``(title, value)``: titled by the column-title line, else
    (and past its titles) ``criterion N`` by the column's number; the ``?`` and ``=`` marks
    dropped (formats.md), a bare mark read as an empty value."""
    named = titles or ()
    return tuple(
        (
            named[index] if index < len(named) else Msg("criterion {n}", n=index + 1),
            value.rstrip("?="),
        )
        for index, value in enumerate(row.rest[:count])
    )


def _read_player_line(raw: str, number: int) -> _Row:
    pin = None
    pin_match = _PIN_RE.search(raw)
    if pin_match is not None:
        pin = pin_match[1] or None
        raw = raw[: pin_match.start()]
    tokens = raw.split()
    if not tokens:
        raise format_error(Msg("a player line holds only an EGD PIN"), line=number, token="|")
    place = None
    first = 0
    place_match = _PLACE_RE.match(tokens[0])
    if place_match is not None:
        place, first = int(place_match[1]), 1
    elif tokens[0][0].isdecimal():
        raise format_error(
            Msg("{token!r} is neither a place number nor the start of a name", token=tokens[0]),
            line=number,
            token=tokens[0],
        )
    end = first
    while end < len(tokens) and not tokens[end][0].isdecimal():
        end += 1  # the name ends at the rank, the first word that starts with a digit
    if end == first:
        token = tokens[first] if first < len(tokens) else tokens[-1]
        raise format_error(
            Msg(
                "no name before the rank {token!r}; a player line is: place, name, "
                "rank, country, club, criteria, one token per round",
                token=token,
            ),
            line=number,
            token=token,
        )
    if end == len(tokens):
        raise format_error(
            Msg(
                "no rank after the name {name!r} ({example}, or 1p)",
                name=" ".join(tokens[first:]),
                example=RANK_EXAMPLE,
            ),
            line=number,
            token=tokens[-1],
        )
    name = " ".join(" ".join(tokens[first:end]).replace("_", " ").split())
    rank_token = tokens[end]
    try:
        rank, pro = parse_rank_lenient(rank_token)
    except RankError as exc:
        raise format_error(
            Msg(
                "{rank!r} after the name {name!r} is not a rank: {error}",
                rank=rank_token,
                name=name,
                error=message_of(exc),
            ),
            line=number,
            token=rank_token,
        ) from None
    if end + 2 >= len(tokens):
        raise format_error(
            Msg(
                "expected a country (2 letters, XX if unknown) and a club (xxxx if "
                "unknown) after the rank {rank!r}",
                rank=rank_token,
            ),
            line=number,
            token=rank_token,
        )
    country_token, club = tokens[end + 1], tokens[end + 2]
    if _COUNTRY_RE.match(country_token) is None:
        raise format_error(
            Msg(
                "{country!r} after the rank is not a country: write 2 letters such as HU, or XX "
                "if unknown",
                country=country_token,
            ),
            line=number,
            token=country_token,
        )
    country = country_token.upper()
    return _Row(
        line=number,
        place=place,
        name=name,
        rank=rank,
        pro=pro,
        country=None if country == UNKNOWN_COUNTRY else country,
        club=None if club.lower() == UNKNOWN_CLUB else club,
        pin=pin,
        rest=tuple(tokens[end + 3 :]),
    )


def _is_round(token: str) -> bool:
    return _ROUND_RE.match(token) is not None


def _is_criterion(token: str) -> bool:
    return _CRITERION_RE.match(token) is not None


def _trailing_rounds(row: _Row) -> int:
    count = 0
    for token in reversed(row.rest):
        if not _is_round(token):
            break
        count += 1
    return count


def _count_rounds(rows: list[_Row]) -> int:
    """The number of rounds: every line has the same criteria columns and round tokens.

    The round tokens are the trailing run of round-shaped tokens common to every line. A
    criterion that carries ``=`` or ``?`` (``33=``) reads as a round token too, so a line may
    show a longer run; a line whose run is shorter than the others' has a broken token.
    """
    widths = Counter(len(row.rest) for row in rows)
    width, _ = widths.most_common(1)[0]
    for row in rows:
        if len(row.rest) != width:
            model = next(r for r in rows if len(r.rest) == width)
            raise format_error(
                plural(
                    "round count mismatch: {rest} column after the club where line {line} "
                    "has {width} (criteria, then one token per round); every player needs "
                    "the same number of round tokens",
                    "round count mismatch: {rest} columns after the club where line {line} "
                    "has {width} (criteria, then one token per round); every player needs "
                    "the same number of round tokens",
                    len(row.rest),
                    rest=len(row.rest),
                    line=model.line,
                    width=width,
                ),
                line=row.line,
                token=row.rest[-1] if row.rest else row.club,
            )
    runs = [_trailing_rounds(row) for row in rows]
    rounds = min(runs)
    criteria = width - rounds
    if any(
        _is_round(tok) and not _is_criterion(tok) for row in rows for tok in row.rest[:criteria]
    ):
        # another line has a real round token where this one has something else
        culprit = rows[runs.index(rounds)]
        token = culprit.rest[criteria - 1]
        raise format_error(
            Msg(
                "{token!r} is not a round token ({example})",
                token=token,
                example=ROUND_TOKEN_EXAMPLE,
            ),
            line=culprit.line,
            token=token,
        )
    for row in rows:
        for tok in row.rest[:criteria]:
            if not _is_criterion(tok):
                raise format_error(
                    Msg(
                        "unknown token {tok!r}: expected a number (a criteria column such as "
                        "MMS) or a round token ({example})",
                        tok=tok,
                        example=ROUND_TOKEN_EXAMPLE,
                    ),
                    line=row.line,
                    token=tok,
                )
    if rounds == 0:
        raise format_error(
            Msg(
                "no round tokens found after the criteria columns ({example})",
                example=ROUND_TOKEN_EXAMPLE,
            ),
            line=rows[0].line,
            token=rows[0].rest[-1] if rows[0].rest else rows[0].club,
        )
    return rounds


def _read_token(text: str, line: int, players: int) -> _Token:
    match = _ROUND_RE.match(text)
    if match is None:  # pragma: no cover - _count_rounds only leaves round-shaped tokens
        raise format_error(
            Msg(
                "{text!r} is not a round token ({example})", text=text, example=ROUND_TOKEN_EXAMPLE
            ),
            line=line,
            token=text,
        )
    opp = int(match["opp"])
    if opp == 0 and (match["sep"] or match["colour"] or match["stones"] or match["res"] == "?"):
        raise format_error(
            Msg(
                "{text!r}: a round without an opponent is written 0+ (bye, a win), 0= "
                "(bye, half) or 0- (not paired)",
                text=text,
            ),
            line=line,
            token=text,
        )
    if opp > players:
        raise format_error(
            plural(
                "opponent {opp} in {text!r} is out of range: the file has {players} "
                "player line and opponents are numbered by line position",
                "opponent {opp} in {text!r} is out of range: the file has {players} "
                "player lines and opponents are numbered by line position",
                players,
                opp=opp,
                text=text,
                players=players,
            ),
            line=line,
            token=text,
        )
    colour = match["colour"].lower() if match["colour"] else None
    stones = int(match["stones"]) if match["stones"] else None
    return _Token(text, opp, match["res"], match["sep"] != "!", colour, stones)


def _pair(
    rows: list[_Row], tokens: list[list[_Token]], handicap_rule: int | None
) -> tuple[list[FileGame], list[FileBye]]:
    """Join both players' tokens of every game; they must agree (formats.md).

    Raises:
        FormatError: naming every line whose token does not agree with its opponent's (the
            first line's number and token are the error's), e.g. a player claimed by two
            lines in one round: a player has one game a round.
    """
    games: list[FileGame] = []
    byes: list[FileBye] = []
    errors: list[FormatError] = []
    for round_index in range(len(tokens[0])):
        for index, row in enumerate(rows):
            position = index + 1
            mine = tokens[index][round_index]
            if mine.opp == 0:
                byes.append(FileBye(round_index + 1, position, _BYE_KINDS[mine.res], row.line))
                continue
            other_row = rows[mine.opp - 1]
            theirs = tokens[mine.opp - 1][round_index]
            if theirs.opp == position and position > mine.opp:
                continue  # checked from the other line
            try:
                _check_one_game(round_index + 1, position, rows, tokens, mine)
                _check_agreement(round_index + 1, position, row, mine, other_row, theirs)
            except FormatError as error:
                errors.append(error)
                continue
            games.append(
                _game(round_index + 1, position, row, mine, other_row, theirs, handicap_rule)
            )
    if errors:
        first = errors[0]
        message = bare_message(first)
        raise format_error(
            joined([message, *(message_of(error) for error in errors[1:])], lines=True),
            line=first.line,
            token=first.token,
        )
    games.sort(key=lambda game: (game.round, min(game.black, game.white)))
    return games, byes


def _check_one_game(
    round_number: int, position: int, rows: list[_Row], tokens: list[list[_Token]], mine: _Token
) -> None:
    """A player has one game a round: the opponent ``mine`` names must not be paired with
    a third line that names them back."""
    theirs = tokens[mine.opp - 1][round_number - 1]
    if theirs.opp in (0, position):
        return
    if tokens[theirs.opp - 1][round_number - 1].opp != mine.opp:
        return  # not a pair either: reported as a disagreement
    row, other, third = rows[position - 1], rows[mine.opp - 1], rows[theirs.opp - 1]
    raise format_error(
        Msg(
            "round {round}: line {line} ({name}) has {token!r}, a game against line {other_line} "
            "({other}), but {other} plays line {third_line} ({third}) in that round "
            "({other_token!r}); a player has one game a round",
            round=round_number,
            line=row.line,
            name=row.name,
            token=mine.text,
            other_line=other.line,
            other=other.name,
            third_line=third.line,
            third=third.name,
            other_token=theirs.text,
        ),
        line=row.line,
        token=mine.text,
    )


def _check_agreement(
    round_number: int, position: int, row: _Row, mine: _Token, other: _Row, theirs: _Token
) -> None:
    def disagree(what: str) -> FormatError:
        return format_error(
            Msg(
                "round {round}: line {line} ({name}) has {token!r} but line {other_line} "
                "({other}) has {other_token!r}; the two tokens of a game must agree ({what})",
                round=round_number,
                line=row.line,
                name=row.name,
                token=mine.text,
                other_line=other.line,
                other=other.name,
                other_token=theirs.text,
                what=what,
            ),
            line=row.line,
            token=mine.text,
        )

    if theirs.opp != position:
        raise disagree(
            Msg("line {line} should name opponent {position}", line=other.line, position=position)
        )
    if mine.played != theirs.played:
        raise disagree(Msg("both played (/) or both by default (!)"))
    # both + or both -: OpenGotha's both win / both lose, with / or ! (formats.md)
    double = mine.res == theirs.res and mine.res in "+-"
    if theirs.res != _OPPOSITE[mine.res] and not double:
        raise disagree(Msg("opposite results: + and -, = and =, ? and ?"))
    if mine.colour is not None and mine.colour == theirs.colour:
        raise disagree(Msg("opposite colours, w and b"))
    if mine.stones is not None and theirs.stones is not None and mine.stones != theirs.stones:
        raise disagree(Msg("the same handicap"))


def _game(
    round_number: int,
    position: int,
    row: _Row,
    mine: _Token,
    other: _Row,
    theirs: _Token,
    handicap_rule: int | None,
) -> FileGame:
    opponent = mine.opp
    colour_known = mine.colour is not None or theirs.colour is not None
    stones = mine.stones if mine.stones is not None else theirs.stones
    inferred = False
    if colour_known:
        mine_black = mine.colour == "b" if mine.colour is not None else theirs.colour == "w"
        stones = stones or 0
    else:
        if stones is None and handicap_rule is not None:
            # formats.md: no colour and no handicap → the rank difference reduced per HA[hN]
            inferred = True
            stones = (
                0
                if handicap_rule >= EVEN_RULE
                else rank_handicap(
                    position, row.rank, opponent, other.rank, reduction=handicap_rule
                ).stones
            )
        stones = stones or 0
        # colour unknown: with stones the weaker player is black; even: the lower position
        mine_black = row.rank < other.rank if stones and row.rank != other.rank else True
    black_token = mine if mine_black else theirs
    double: Outcome | None = None
    if mine.res == theirs.res and mine.res in "+-":
        double = Outcome.WIN if mine.res == "+" else Outcome.LOSS
        result = None
    else:
        result = _RESULT_OF_BLACK[black_token.res]
    black, white = (position, opponent) if mine_black else (opponent, position)
    return FileGame(
        round=round_number,
        black=black,
        white=white,
        result=result,
        played=mine.played and double is None,  # an administrative result is unplayed
        stones=stones,
        colour_known=colour_known,
        handicap_inferred=inferred,
        line=row.line,
        double=double,
    )


# ------------------------------------------------------------------------------- writing


def write_h9(tf: TournamentFile) -> str:
    """Write an EGD results file that :func:`parse_h9` reads back to the same tournament.

    Ranks are hoshi's (``3d``, ``12k``; a professional's as their title, ``3p``: rules.md §6).
    Criteria columns are written under their titles when every player has the same
    ones. Lines, places and positions are written as ``tf`` has them (an export puts them in
    standings order first: :func:`~engine.formats.tournament_file.in_standings_order`). A
    game whose colours are unknown is written without colour, with its handicap unless it was
    inferred from ``HA``. A round in which a player has neither game nor bye is written
    ``0-`` (not paired).

    Raises:
        ValueError: when the tournament is inconsistent (a player in two games of a round, a
            position out of range).
    """
    n = len(tf.players)
    cells: list[list[str | None]] = [[None] * tf.rounds for _ in range(n)]

    def put(position: int, round_number: int, text: str) -> None:
        if not 1 <= position <= n or not 1 <= round_number <= tf.rounds:
            raise ValueError(f"position {position} or round {round_number} is out of range")
        if cells[position - 1][round_number - 1] is not None:
            raise ValueError(f"position {position} has two entries in round {round_number}")
        cells[position - 1][round_number - 1] = text

    for game in tf.games:
        for me, them in ((game.black, game.white), (game.white, game.black)):
            put(me, game.round, _token_for(game, me, them, tf.handicap_rule))
    for bye in tf.byes:
        put(bye.player, bye.round, _BYE_TOKENS[bye.kind])

    titles = _written_titles(tf.players)
    widths = [
        max([len(title), *(len(_criterion_text(p.criteria[i][1])) for p in tf.players)])
        for i, title in enumerate(titles)
    ]
    name_width = max([30, *(len(p.name) for p in tf.players)])
    lines = [f"; {key}[{value}]" for key, value in _header_items(tf)]
    lines.append(";")
    columns = "".join(f" {title:>{width}}" for title, width in zip(titles, widths, strict=True))
    lines.append(f"; {'Pl':>2} {'Name':<{name_width}} {'Rk':>3} Co {'Club':<5}{columns}".rstrip())
    for player, row in zip(tf.players, cells, strict=True):
        place = "" if player.place is None else str(player.place)
        criteria = "".join(
            f"{_criterion_text(value):>{width}} "
            for (_, value), width in zip(player.criteria, widths, strict=False)
        )
        tokens = " ".join(f"{cell or '0-':>7}" for cell in row)
        pin = f"  |{player.egd_pin}" if player.egd_pin else ""
        lines.append(
            f"{place:>4} {player.name:<{name_width}} {_rank_text(player):>3} "
            f"{player.country or UNKNOWN_COUNTRY:<2} {player.club or UNKNOWN_CLUB:<5} "
            f"{criteria}{tokens}{pin}".rstrip()
        )
    return "\n".join(lines) + "\n"


def _rank_text(player: FilePlayer) -> str:
    """A player's rank as the EGD format writes it: ``3p`` for a professional (read as 7d,
    their title kept: rules.md §6), else the amateur rank."""
    return f"{player.pro}p" if player.pro else str(player.rank)


_OWN_KEYS = frozenset({"EV", "DT", "CL", "TM"})
"""Header keys a club's tournament holds as its own facts (name, dates, class, time), which
an export writes from the tournament as it is now."""


def kept_header(tf: TournamentFile) -> str:
    """The header lines of a results file that a club's tournament does not hold as its own
    facts: place ``PC``, code ``TC``, handicap rule ``HA`` and komi ``KM`` (``HA[]``, ``KM[]``
    when the file had none), comments ``CM`` and any other keys, as ``; KEY[value]`` lines.
    Kept with the imported tournament, so that :func:`with_kept_header` gives them back to its
    export."""
    items = [(key, value) for key, value in _header_items(tf) if key not in _OWN_KEYS]
    if tf.handicap_rule is None:
        items.append(("HA", ""))
    if tf.komi is None:
        items.append(("KM", ""))
    return "\n".join(f"; {key}[{value}]" for key, value in items)


def with_kept_header(tf: TournamentFile, kept: str | None) -> TournamentFile:
    """``tf`` (a club's tournament about to be written) with the header facts
    :func:`kept_header` kept from its file: place, code, komi, comments, other keys, and the
    file's handicap rule as long as the tournament's own (even, reduction) still agrees with
    it. ``kept`` empty or ``None``: ``tf`` as it is."""
    if not kept:
        return tf
    header = _Header()
    for number, line in enumerate(kept.splitlines(), 1):
        if line.strip().startswith(";"):
            _read_header_line(line.strip()[1:], number, header)
    rule = tf.handicap_rule
    if "HA" in header.values:
        file_rule = _handicap_rule(header)
        if file_rule is None:
            even_games = all(g.stones == 0 for g in tf.games)
            if (tf.even and even_games) or (not tf.even and not even_games and not rule):
                rule = None
        elif (file_rule >= EVEN_RULE) == tf.even and (tf.even or file_rule == rule):
            rule = file_rule
    return dataclasses.replace(
        tf,
        handicap_rule=rule,
        komi=_komi(header) if "KM" in header.values else tf.komi,
        place=_value(header, "PC") or tf.place,
        code=_value(header, "TC") or tf.code,
        comment="\n".join(header.comments) or tf.comment,
        notes={**tf.notes, **header.notes},
    )


def _written_titles(players: tuple[FilePlayer, ...]) -> tuple[str, ...]:
    """The criteria columns to write: every player's, when all have the same titles (a file
    read from h9); none otherwise (a tournament entered by hand or from OpenGotha XML)."""
    if not players:
        return ()
    titles = tuple(title for title, _ in players[0].criteria)
    if any(tuple(title for title, _ in p.criteria) != titles for p in players):
        return ()
    return tuple("_".join(title.split()) for title in titles)


def _criterion_text(value: str) -> str:
    """A criterion's value as written: an empty one (read from a bare ``?``) as ``?``."""
    return value or "?"


def _header_items(tf: TournamentFile) -> list[tuple[str, str]]:
    items: list[tuple[str, str]] = []
    if tf.class_:
        items.append(("CL", tf.class_))
    if tf.name:
        items.append(("EV", tf.name))
    if tf.place:
        items.append(("PC", tf.place))
    if tf.start is not None and tf.end is not None:
        items.append(("DT", f"{tf.start.isoformat()},{tf.end.isoformat()}"))
    if tf.handicap_rule is not None:
        items.append(("HA", f"h{tf.handicap_rule}"))
    if tf.komi is not None:
        items.append(("KM", format_komi(tf.komi)))
    minutes = tf.time_minutes
    if minutes is None and tf.time is not None and not tf.time.unlimited:
        minutes = int(tf.time.extended_s() // 60)  # whole minutes, rounded down
    if minutes is not None:
        items.append(("TM", str(minutes)))
    if tf.code:
        items.append(("TC", tf.code))
    if tf.comment:
        items.extend(("CM", part) for part in tf.comment.split("\n"))
    for key, value in tf.notes.items():
        if _NOTE_KEY_RE.match(key):  # other formats' notes are not h9 header keys
            items.extend((key, part) for part in value.split("\n"))
    return items


def _token_for(game: FileGame, me: int, them: int, handicap_rule: int | None) -> str:
    black = me == game.black
    if game.double is not None:
        res = "+" if game.double is Outcome.WIN else "-"
    elif game.result is None:
        res = "?"
    elif game.result is Result.JIGO:
        res = "="
    else:
        res = "+" if (game.result is Result.BLACK) == black else "-"
    sep = "/" if game.played else "!"
    if game.colour_known:
        return f"{them}{res}{sep}{'b' if black else 'w'}{game.stones}"
    if game.handicap_inferred or (handicap_rule is None and game.stones == 0):
        return f"{them}{res}" if game.played else f"{them}{res}!"
    return f"{them}{res}{sep}{game.stones}"
