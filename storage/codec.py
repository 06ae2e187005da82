"""Text forms of engine values as the log and the projections store them.

Komi is stored as integer half points (6.5 → 13), a time control as its text
``str(TimeControl)`` and re-parsed, a result as ``B+``/``W+``/``jigo``, dates as ISO text.
Projection values (cards, rating changes) are canonical JSON: equal values, equal bytes — the
incremental and the full rebuild of the projections must agree byte for byte.
"""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from typing import Any

from engine.calendar import Phase
from engine.ranks import STRONGEST_DAN, WEAKEST_KYU, Rank
from engine.ratings import PER_POINT, Rating, from_milli, to_milli
from engine.system import Card, Change, Measure, Pending
from engine.text import Msg
from engine.timecontrol import TimeControl
from engine.types import Result
from storage.errors import Refused

RESULTS: dict[str | None, Result | None] = {r.value: r for r in Result} | {None: None}
_RANK_TEXT = {step: str(Rank(step)) for step in range(1 - WEAKEST_KYU, STRONGEST_DAN + 1)}


def result_text(result: Result | None) -> str | None:
    """``B+``, ``W+``, ``jigo``, or ``None`` for an unknown result."""
    return None if result is None else result.value


def komi_half_points(komi: Fraction | int) -> int:
    """Komi as integer half points (6.5 → 13, −2 → −4).

    Raises:
        Refused: for a komi that is not a whole or half point.
    """
    doubled = Fraction(komi) * 2
    if doubled.denominator != 1:
        raise Refused(
            Msg(
                "komi must be a whole or half point, e.g. 6.5 or 0, not {komi:g}", komi=float(komi)
            )
        )
    return doubled.numerator


@lru_cache(maxsize=256)
def komi_from_half_points(half_points: int) -> Fraction:
    """The inverse of :func:`komi_half_points` (cached: a club uses a handful of komi)."""
    return Fraction(half_points, 2)


def time_text(time: TimeControl | None) -> str | None:
    """A time control as stored: its own text form, which must read back to the same value."""
    if time is None:
        return None
    text = str(time)
    if TimeControl.parse(text) != time:
        raise Refused(
            Msg(
                "the time control {text!r} cannot be stored faithfully; write it simply", text=text
            )
        )
    return text


@lru_cache(maxsize=1024)
def time_from_text(text: str | None) -> TimeControl | None:
    """The stored text of a time control read back (cached: parsing is slow, texts repeat)."""
    return None if text is None else TimeControl.parse(text)


@lru_cache(maxsize=65536)
def date_from_text(text: str) -> dt.date:
    """An ISO date read back (cached: a club's games share few dates)."""
    return dt.date.fromisoformat(text)


def optional_date(text: str | None) -> dt.date | None:
    """An optional ISO date read back."""
    return None if text is None else date_from_text(text)


def optional_text(value: object) -> str | None:
    """``str(value)``, or ``None`` for ``None`` (ranks, time controls)."""
    return None if value is None else str(value)


@lru_cache(maxsize=128)
def rank_from_text(text: str) -> Rank:
    """A stored rank read back (cached)."""
    return Rank.parse(text)


def optional_rank(text: str | None) -> Rank | None:
    """An optional stored rank read back."""
    return None if text is None else rank_from_text(text)


UNDECLARED = ""
"""``tournament_entries.rank`` of an entry without a declared rank (the column is NOT NULL):
a club player entered by typing their games, who plays with the rank each system gave them on
the tournament's first day (engine.types.Entry)."""


def entry_rank_text(rank: Rank | None) -> str:
    """A tournament entry's rank as stored (:data:`UNDECLARED` when none was declared)."""
    return UNDECLARED if rank is None else str(rank)


def entry_rank_from_text(text: str) -> Rank | None:
    """A tournament entry's stored rank read back (``None``: none declared)."""
    return None if text == UNDECLARED else rank_from_text(text)


def timestamp(at: dt.datetime) -> str:
    """A UTC ISO timestamp (naive datetimes are taken as UTC)."""
    if at.tzinfo is None:
        at = at.replace(tzinfo=dt.UTC)
    return at.astimezone(dt.UTC).isoformat(timespec="microseconds")


def from_timestamp(text: str) -> dt.datetime:
    """A stored timestamp read back (aware, UTC)."""
    return dt.datetime.fromisoformat(text)


# ---------------------------------------------------------------- canonical JSON values


_PLAIN = frozenset({type(None), bool, str, int, float})


def encode(value: Any) -> Any:
    """A value as JSON-able data that :func:`decode` reads back.

    Fractions, ranks, dates and enums become one-key objects (``{"q": [3, 2]}``,
    ``{"rank": "3k"}``, ``{"date": "2026-04-11"}``, ``{"enum": "win"}``); tuples become lists.
    """
    kind = type(value)  # the common exact types first (cards are encoded by the thousand)
    if kind in _PLAIN:
        return value
    if kind is tuple or kind is list:
        return [encode(item) for item in value]
    if kind is Rank:
        return {"rank": _RANK_TEXT[value.step]}
    if kind is dt.date:
        return {"date": value.isoformat()}
    return _encode(value)


def _encode(value: Any) -> Any:
    """:func:`encode` for any type, subclasses included."""
    if isinstance(value, Msg):
        return _msg(value)
    if value is None or isinstance(value, bool | str | int | float):
        return value
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return {"q": [value.numerator, 1]}
        return {"q": [value.numerator, value.denominator]}
    if isinstance(value, Decimal):  # a number a text shows with its decimals (× 1.00)
        return {"dec": str(value)}
    if isinstance(value, Rank):
        return {"rank": str(value)}
    if isinstance(value, dt.datetime):
        return {"datetime": value.isoformat()}
    if isinstance(value, dt.date):
        return {"date": value.isoformat()}
    if isinstance(value, Enum):
        return {"enum": encode(value.value)}
    if isinstance(value, tuple | list):
        return [encode(item) for item in value]
    if isinstance(value, dict):
        return {"dict": [[encode(k), encode(v)] for k, v in value.items()]}
    raise TypeError(f"cannot store a {type(value).__name__} in a projection: {value!r}")


def _msg(value: Msg) -> dict[str, list[Any]]:
    """A text the bot gives in the club's language: its English, its id and arguments
    (``{"msg": [text, template, plural, n, args]}``; plain arguments as they are, a replay
    writes one for most history rows)."""
    args = {
        key: arg if type(arg) in _PLAIN else (_msg(arg) if isinstance(arg, Msg) else encode(arg))
        for key, arg in value.args.items()
    }
    return {"msg": [value, value.template, value.plural_template, value.n, args]}


def decode(data: Any) -> Any:
    """The inverse of :func:`encode` (lists come back as tuples, enums as their values)."""
    if isinstance(data, list):
        return tuple(decode(item) for item in data)
    if isinstance(data, dict):
        ((tag, inner),) = data.items()
        if tag == "q":
            return Fraction(inner[0], inner[1])
        if tag == "dec":
            return Decimal(inner)
        if tag == "rank":
            return rank_from_text(inner)
        if tag == "date":
            return date_from_text(inner)
        if tag == "datetime":
            return dt.datetime.fromisoformat(inner)
        if tag == "enum":
            return decode(inner)
        if tag == "dict":
            return {decode(k): decode(v) for k, v in inner}
        if tag == "msg":  # the English text as the rules gave it, and what translates it
            text, template, plural, n, args = inner
            return Msg.rendered(text, template, plural, n, {k: decode(v) for k, v in args.items()})
        raise ValueError(f"unknown projection tag {tag!r}")
    return data


_ENCODE = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode
"""``json.dumps`` with the canonical options, built once (``dumps`` builds an encoder per call
when given options: a third of a rebuild's time went there)."""


_ENCODE_NOTE = json.JSONEncoder(
    separators=(",", ":"), ensure_ascii=False, check_circular=False
).encode
"""JSON of a history note: a replay writes one for most rating changes, so without sorting
keys (a note's arguments keep the order the rules name them in, the same on every replay) or
checking for cycles (a note nests only notes)."""


def dumps(data: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, UTF-8 kept."""
    return _ENCODE(data)


def value_text(value: Any) -> str:
    """A projection value as canonical JSON text (ints and ``None``, the common values of a
    rating change, written directly: the same text :func:`dumps` gives)."""
    kind = type(value)
    if kind is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    return _ENCODE(encode(value))


def rank_text(rank: Rank) -> str:
    """``str(rank)``, looked up (a rebuild writes two per rating change)."""
    return _RANK_TEXT[rank.step]


def value_from_text(text: str) -> Any:
    """The inverse of :func:`value_text`."""
    return decode(json.loads(text))


def card_json(card: Card) -> str:
    """A card as canonical JSON (the ``player_state.card`` column)."""
    return dumps(
        {
            "player": card.player,
            "rank": _RANK_TEXT[card.rank.step],
            "rating": encode(card.rating),
            "rating_label": encode(card.rating_label),
            "sort_key": encode(card.sort_key),
            "games": card.games,
            "last_played": encode(card.last_played),
            "pending": None
            if card.pending is None
            else [
                encode(card.pending.amount),
                encode(card.pending.unit),
                int(card.pending.settles),
            ],
            "values": [
                [m.key, encode(m.label), encode(m.value), encode(m.unit)] for m in card.values
            ],
        }
    )


def card_from_json(text: str) -> Card:
    """The inverse of :func:`card_json`."""
    data = json.loads(text)
    return Card(
        player=data["player"],
        rank=rank_from_text(data["rank"]),
        rating=decode(data["rating"]),
        rating_label=decode(data["rating_label"]),
        sort_key=decode(data["sort_key"]),
        games=data["games"],
        last_played=decode(data["last_played"]),
        pending=None
        if data["pending"] is None
        else Pending(
            decode(data["pending"][0]), decode(data["pending"][1]), Phase(data["pending"][2])
        ),
        values=tuple(
            Measure(key, decode(label), decode(value), decode(unit))
            for key, label, value, unit in data["values"]
        ),
    )


def change_row(
    club: int, system: str, key: tuple[int, int], idx: int, change: Change
) -> tuple[Any, ...]:
    """A change as a ``rating_history`` row (column order of the table); ``key`` is the
    ``(moment, position)`` of the fact that caused it (engine.calendar)."""
    return (
        club,
        system,
        key[1],
        idx,
        key[0],
        change.player,
        change.date.isoformat(),
        change.source,
        value_text(change.rating_before),
        value_text(change.rating_after),
        _RANK_TEXT[change.rank_before.step],
        _RANK_TEXT[change.rank_after.step],
        note_text(change.note),
    )


def note_text(note: str) -> str:
    """A history note as its column stores it: plain text as it is, a :class:`Msg` as its
    canonical JSON (``{"msg": …}``) so it is shown in the club's language."""
    return note if type(note) is str else _ENCODE_NOTE(encode(note))


def note_from_text(text: str) -> str:
    """The inverse of :func:`note_text`."""
    if text.startswith('{"msg":'):
        note: str = decode(json.loads(text))
        return note
    return text


def rating_columns(rating: Rating | None) -> tuple[int | None, int | None]:
    """A registration's rating as the ``players`` columns ``(rating, rating_milli)``: a whole
    one in ``rating``, one with decimals exactly in thousandths (rules.md §6 Decision)."""
    if rating is None:
        return None, None
    milli = to_milli(rating)
    if milli % PER_POINT == 0:
        return milli // PER_POINT, None
    return None, milli


def rating_from_columns(rating: int | None, rating_milli: int | None) -> Rating | None:
    """The inverse of :func:`rating_columns`."""
    return from_milli(rating_milli) if rating_milli is not None else rating
