"""Shared wording: how values, ranks, games and cards read in every reply, in the
conversation's language (bot.i18n: decimals with the language's own mark, 37,5 in Hungarian,
Swedish and Polish)."""

from __future__ import annotations

import datetime as dt
import re
from fractions import Fraction

from bot import system_names
from bot.i18n import N_, Month, _, _n, number_text, signed_text, translated
from engine.calendar import Phase
from engine.formats.names import fold_name
from engine.mgsz import month_period
from engine.system import Card, Measure, Pending, Value
from engine.text import Msg
from engine.types import Game, Result

SIGNED_SOURCES = {"registration": N_("registered"), "override": N_("committee override")}
"""How a rating's source reads (``/rating``): show it with :func:`source`."""

DECIMALS = 2
"""The most decimals a value is shown with (Swedish points are quarters: 37.25)."""


def source(key: str) -> str:
    """A rating source (``registration``, ``override``) as members read it."""
    label = SIGNED_SOURCES.get(key)
    return key if label is None else _(label)


def value(v: Value) -> str:
    """A rating value as people write it: 1865, 37.5 (37,5 in Hungarian), —; a word (a rank,
    a Swedish total) as it is, translated when it is a catalogue's text."""
    if v is None:
        return "—"
    if isinstance(v, Fraction):
        return number_text(v, 0 if v.denominator == 1 else _digits(v), grouped=False)
    if isinstance(v, int):
        return number_text(v, grouped=False)  # the language's own minus sign
    return translated(v) if isinstance(v, str) else str(v)


def plain(v: Value) -> str:
    """A value as files write it, in no language: ``1865``, ``37.5`` (exports, formats.md)."""
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return str(v.numerator)
        return f"{float(v):.{DECIMALS}f}".rstrip("0").rstrip(".")
    return "" if v is None else str(v)


def _digits(v: Fraction) -> int:
    """The fewest decimals (at most :data:`DECIMALS`) that show ``v`` as its rounding does."""
    rounded = round(v, DECIMALS)
    return next(d for d in range(1, DECIMALS + 1) if round(rounded, d) == rounded)


def signed(v: Value) -> str:
    """A change with its sign in the language's own plus and minus signs (Babel): +16,
    -4.5 (−4,5 in Swedish); a string value is shown as it is."""
    if v is None:
        return "—"
    if isinstance(v, int | Fraction):
        exact = Fraction(v)
        return signed_text(exact, 0 if exact.denominator == 1 else _digits(exact))
    return translated(v)


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
    """A komi as the language writes it, with its own minus sign: 6.5 (6,5), -3 (−3)."""
    return value(k)


FILE_SLUG_MAX = 60
"""The longest name part of a file hoshi writes (a chart, an export): any name of any
length makes a file name a file system takes (issue 26: "File name too long")."""


def file_slug(name: str, fallback: str, length: int = FILE_SLUG_MAX) -> str:
    """A file name's or address's part from a name: ``Szabó Éva`` → ``szabo-eva`` (ASCII
    letters, digits and hyphens, at most ``length`` characters); ``fallback`` when nothing is
    left (a name in another script)."""
    slug = re.sub(r"[^a-z0-9]+", "-", fold_name(name)).strip("-")
    return slug[:length].strip("-") or fallback


def handicap_text(stones: int, komi_: Fraction) -> str:
    """A game's setup in words: ``Even game, komi 6.5``, ``1 stone: Black moves first, no
    komi``, ``3 stones, komi 0.5`` (rules.md §5)."""
    if stones == 0:
        return _("Even game, komi {komi}", komi=komi(komi_))
    if stones == 1 and komi_ == 0:
        return _("1 stone: Black moves first, no komi")
    return _n("{n} stone, komi {komi}", "{n} stones, komi {komi}", stones, komi=komi(komi_))


def period_name(year: int, month: int) -> str:
    """``Club games 2026-11``: the name of an MGSZ rating period of club games (a month).

    Stored as the period's tournament name (storage keeps it, exports write it), so it is the
    same in every language."""
    return month_period(year, month).name


_PERIOD = re.compile(r"Club games (\d{4})-(\d{2})")


def tournament_title(name: str) -> str:
    """A tournament's name as shown: a club-games period (:func:`period_name`, stored alike
    in every language) in the current language (``Club games, November 2026``,
    ``Klubjátszmák, 2026. november``); any other name as the organiser gave it."""
    found = _PERIOD.fullmatch(name)
    return name if found is None else period_title(int(found[1]), int(found[2]))


def period_title(year: int, month: int) -> str:
    """The club-games period of ``year``-``month`` as the current language names it."""
    return _("Club games, {month}", month=Month(year, month))


def day(d: dt.date | None) -> str:
    """A date as files and examples write it, in no language (``2026-11-23``); replies show
    dates with ``bot.i18n.date_text``."""
    return d.isoformat() if d else "—"


def result(game: Game) -> str:
    """``B+``, ``W+R``, ``W+3.5``, ``jigo``, ``unplayed``, ``?`` as stored, with the margin;
    an unplayed game with a winner and a margin reads ``W+F (unplayed)``. The results people
    type (``B+R``) stay as they are; the words are the conversation's language."""
    margin = game.margin or ""
    if not game.played:
        if game.result in (Result.BLACK, Result.WHITE) and margin:
            # TRANSLATORS: a game reported with a winner that was not played (a forfeit): W+F
            return _("{result} (unplayed)", result=f"{game.result.value}{margin}")
        # TRANSLATORS: a game's result: it was not played (a bye, a no-show)
        return _("unplayed")
    if game.result is None:
        return "?"
    if game.result is Result.JIGO:
        # TRANSLATORS: a drawn game's result (Japanese 持碁)
        return _("jigo")
    return f"{game.result.value}{margin}"


def system_title(key: str) -> str:
    """The system's title as members read it (bot.system_names)."""
    return system_names.title(key)


SETTLES = {
    Phase.DAY_END: N_("{amount} {unit}, settled at the end of the club day"),
    Phase.PERIOD_END: N_("{amount} {unit}, settled at the end of the rating period"),
    Phase.MONTH_END: N_("{amount} {unit}, settled at the end of the month"),
}
"""A pending change and when it settles (:func:`pending`), by the moment that settles it."""

SETTLES_LATER = N_("{amount} {unit}, settled later")


def measure(m: Measure) -> str:
    """A card value as people read it: ``1933 Elo``, ``1 game``, ``1 of 2 tournaments``."""
    label, unit = translated(m.label), translated(m.unit)
    if not unit or m.value is None or label.endswith(unit):
        return value(m.value)  # "pending club games: 2", not "… games: 2 games"
    if not isinstance(m.unit, Msg):  # an English unit: one of them is singular
        one = m.value == 1 and " " not in unit and unit.endswith("s")
        unit = unit[:-1] if one else unit
    # TRANSLATORS: a number and its unit: 1933 Elo, 12 points (Japanese: 12点, no space)
    return _("{value} {unit}", value=value(m.value), unit=unit)


def pending(p: Pending) -> str:
    """``+2 points, settled at the end of the club day``; ``1 game, …`` for a count held."""
    unit = translated(p.unit)
    if not isinstance(p.unit, Msg) and p.amount in (1, -1) and unit.endswith("s"):
        unit = unit[:-1]  # an English unit: one of them is singular
    amount = value(p.amount) if p.unit in ("game", "games") else signed(p.amount)  # a count
    return _(SETTLES.get(p.settles, SETTLES_LATER), amount=amount, unit=unit)


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
        # TRANSLATORS: a card's line: what the rating would be, and how far from today's
        return _(
            "{label}: {value} ({change})",
            label=m.label,
            value=value(m.value),
            change=signed(difference(card.rating, m.value)),
        )
    # TRANSLATORS: a card's line: its label and value (Japanese may use a full-width colon)
    return _("{label}: {value}", label=m.label, value=measure(m))


def rating_heading(labels: list[str]) -> tuple[tuple[str, ...], list[str] | None]:
    """Column headings for ``labels`` (the rows' ``Card.rating_label``), and each row's own
    remainder when they differ.

    A Swedish player counts points toward the rank above their own, so a list's rows say
    "points toward 2d", "points toward 1k" …: the headings are the words they share
    ("points", "toward") and each row keeps the rest ("2d") in a column of its own. Labels
    that share no first word give the heading "value" and each row its whole label. The
    labels are read in the conversation's language (a catalogue's text is translated first).

    Returns:
        ``((heading,), None)`` when every row has the same label, else the value's heading,
        the heading of the rows' own column, and that column's cells. Every heading is a
        word: a column sorted or read aloud by its heading needs one (WCAG 1.3.1).
    """
    labels = [translated(label) for label in labels]
    if len(set(labels)) <= 1:
        # TRANSLATORS: a table's column heading for the players' rating values
        return (labels[0] if labels else _("value"),), None
    split = [label.split() for label in labels]
    shared: list[str] = []
    for words in zip(*split, strict=False):
        if len(set(words)) != 1:
            break
        shared.append(words[0])
    rest = [" ".join(words[len(shared) :]) for words in split]
    if len(shared) >= 2:
        return (" ".join(shared[:-1]), shared[-1]), rest
    # TRANSLATORS: the heading of a list's column that says what each row's value is (PSG:
    # "min-games result", "sum of games")
    return (" ".join(shared) or _("value"), _("kind of value")), rest
