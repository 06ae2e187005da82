"""Shared wording: how values, ranks, games and cards read in every reply."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

from bot import system_names
from engine.calendar import Phase
from engine.system import Card, Measure, Pending, Value
from engine.types import Game, Result

SIGNED_SOURCES = {"registration": "registered", "override": "committee override"}


def value(v: Value) -> str:
    """A rating value as people write it: 1865, 37.5, —."""
    if v is None:
        return "—"
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return str(v.numerator)
        return f"{float(v):.2f}".rstrip("0").rstrip(".")
    return str(v)


def signed(v: Value) -> str:
    """A change with its sign: +16, −4.5 (a string value is shown as it is)."""
    if v is None:
        return "—"
    if isinstance(v, int | Fraction):
        text = value(abs(Fraction(v)))
        return f"+{text}" if v > 0 else (f"−{text}" if v < 0 else "±0")
    return str(v)


def difference(before: Value, after: Value) -> Value:
    """``after − before`` when both are numbers (Swedish totals are decimal strings)."""
    a, b = number(after), number(before)
    if a is None or b is None:
        return None
    delta = a - b
    return delta.numerator if delta.denominator == 1 else delta


def number(v: Value) -> Fraction | None:
    if v is None:
        return None
    if isinstance(v, int | Fraction):
        return Fraction(v)
    try:
        return Fraction(v)
    except (ValueError, ZeroDivisionError):
        return None


def komi(k: Fraction) -> str:
    text = value(k)
    return text if k >= 0 else text.replace("-", "−")


def period_name(year: int, month: int) -> str:
    """``Club games 2026-11``: the name of an MGSZ rating period of club games (a month)."""
    return f"Club games {year:04d}-{month:02d}"


def count(n: int, noun: str) -> str:
    """``1 club game``, ``3 club games`` (English plurals: the noun takes an s)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def day(d: dt.date | None) -> str:
    return d.isoformat() if d else "—"


def result(game: Game) -> str:
    """``B+``, ``W+R``, ``W+3.5``, ``jigo``, ``unplayed``, ``?`` as stored, with the margin;
    an unplayed game with a winner and a margin reads ``W+F (unplayed)``."""
    margin = game.margin or ""
    if not game.played:
        if game.result in (Result.BLACK, Result.WHITE) and margin:
            return f"{game.result.value}{margin} (unplayed)"
        return "unplayed"
    if game.result is None:
        return "?"
    return "jigo" if game.result is Result.JIGO else game.result.value + margin


def system_title(key: str) -> str:
    """The system's title as members read it (bot.system_names)."""
    return system_names.title(key)


SETTLES = {
    Phase.DAY_END: "at the end of the club day",
    Phase.PERIOD_END: "at the end of the rating period",
    Phase.MONTH_END: "at the end of the month",
}


def measure(m: Measure) -> str:
    """A card value as people read it: ``1933 Elo``, ``1 game``, ``1 of 2 tournaments``."""
    if not m.unit or m.value is None or m.label.endswith(m.unit):
        return value(m.value)  # "pending club games: 2", not "… games: 2 games"
    one = m.value == 1 and " " not in m.unit and m.unit.endswith("s")
    return f"{value(m.value)} {m.unit[:-1] if one else m.unit}"


def pending(p: Pending) -> str:
    """``+2 points, settled at the end of the club day``; ``1 game, …`` for a count held."""
    unit = p.unit[:-1] if p.amount in (1, -1) and p.unit.endswith("s") else p.unit
    amount = value(p.amount) if p.unit == "games" else signed(p.amount)  # games: a count
    return f"{amount} {unit}, settled {SETTLES.get(p.settles, 'later')}"


def card_lines(card: Card) -> list[str]:
    """The card's values, one line each, but the headline (/rating shows it first) and the
    pending amount kept for exports (``pending``; the lines ``pending_…`` say it in words)."""
    return [
        _line(card, m) for m in card.values if m.label != card.rating_label and m.key != "pending"
    ]


def unsettled(card: Card) -> list[str]:
    """What the pending change will give, in the card's words: its values keyed
    ``pending_…`` (MGSZ's Elo if the period ended now, a Tensuusei day's net)."""
    return [_line(card, m) for m in card.values if m.key.startswith("pending_")]


def _line(card: Card, m: Measure) -> str:
    """``label: value unit``; a pending value on the headline's own scale is shown with how
    far it is from the headline: ``if the period ended now: 1733 (+13)``."""
    headline = next((h for h in card.values if h.label == card.rating_label), None)
    if (
        m.key.startswith("pending_")
        and headline is not None
        and m.unit == headline.unit
        and isinstance(m.value, int | Fraction)
    ):
        return f"{m.label}: {value(m.value)} ({signed(difference(card.rating, m.value))})"
    return f"{m.label}: {measure(m)}"


def rating_heading(labels: list[str]) -> tuple[tuple[str, ...], list[str] | None]:
    """Column headings for ``labels`` (the rows' ``Card.rating_label``), and each row's own
    remainder when they differ.

    A Swedish player counts points toward the rank above their own, so a list's rows say
    "points toward 2d", "points toward 1k" …: the headings are the words they share
    ("points", "toward") and each row keeps the rest ("2d") in a column of its own. Labels
    that share no first word give the heading "value" and each row its whole label.

    Returns:
        ``((heading,), None)`` when every row has the same label, else the value's heading,
        the heading of the rows' own column, and that column's cells.
    """
    if len(set(labels)) <= 1:
        return (labels[0] if labels else "value",), None
    split = [label.split() for label in labels]
    shared: list[str] = []
    for words in zip(*split, strict=False):
        if len(set(words)) != 1:
            break
        shared.append(words[0])
    rest = [" ".join(words[len(shared) :]) for words in split]
    if len(shared) >= 2:
        return (" ".join(shared[:-1]), shared[-1]), rest
    return (" ".join(shared) or "value", ""), rest
