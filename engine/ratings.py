"""A rating typed or imported from outside, kept exactly (rules.md §6 Decision).

GoR values from the European Go Database carry three decimals (``2705.840``). Wherever a
rating is typed or imported (a ratings CSV, ``/egf``, ``/register``, ``/override``) up to
three decimals are kept exactly: a whole value stays an ``int``, any other a ``Fraction`` of
thousandths. More decimals are refused with the reason. Which systems take a value with
decimals is each rulebook's own business (the EGF GoR and the EGF rating PSG reads do; an
MGSZ Elo or Tensuusei points are whole numbers).
"""

from __future__ import annotations

import re
from fractions import Fraction

from engine.errors import RuleError
from engine.text import Msg, Typed, decimal

DECIMALS = 3  # rules.md §6 Decision: a GoR is kept to 3 decimals, as the EGD keeps it
PER_POINT = 10**DECIMALS  # thousandths of a point
EXAMPLE = "2705.840"  # an EGD GoR, as the EGD writes it

Rating = int | Fraction
"""A rating: whole (``int``) or exact to the thousandth (``Fraction``)."""

_NUMBER_RE = re.compile(r"^([-+−]?)([0-9]{1,12})(?:[.,]([0-9]+))?$")


def parse_rating(text: str) -> Rating:
    """Read ``2100``, ``2705.840`` or ``-12.5`` exactly; a comma works as the decimal point.

    Returns:
        An ``int`` for a whole value (``2100.000`` too), else a ``Fraction``.

    Raises:
        ValueError: not a number, or more than three decimals (the message says which).
    """
    match = _NUMBER_RE.match(text.strip())
    if match is None:
        raise ValueError(
            Msg(
                "{text} is not a number; write e.g. {whole} or {exact}",
                text=Typed(text.strip()),
                whole="2100",
                exact=decimal(Fraction(EXAMPLE), 3),  # 2705,840 where a comma is the mark
            )
        )
    sign, whole, part = match.groups()
    part = part or ""
    if len(part.rstrip("0")) > DECIMALS:
        raise ValueError(
            Msg(
                "{text} has {n} decimals; a rating is kept to 3 decimals at most, as the "
                "European Go Database keeps a GoR (e.g. {example})",
                text=text.strip(),
                n=len(part),
                example=decimal(Fraction(EXAMPLE), 3),
            )
        )
    value = Fraction(int(whole + part), 10 ** len(part))
    if sign in ("-", "−"):
        value = -value
    return exact(value)


def exact(value: Rating) -> Rating:
    """``value`` as an ``int`` when it is whole, else unchanged."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


def to_milli(value: Rating) -> int:
    """A rating in whole thousandths, exactly.

    Raises:
        RuleError: the value has more than three decimals (rules.md §6 Decision).
    """
    milli = Fraction(value) * PER_POINT
    if milli.denominator != 1:
        raise RuleError(
            Msg(
                "{value} has more than 3 decimals; a rating is kept to 3 decimals at most "
                "(e.g. {example})",
                value=str(float(value)),
                example=decimal(Fraction(EXAMPLE), 3),
            )
        )
    return int(milli)


def from_milli(milli: int) -> Rating:
    """Whole thousandths as a rating (an ``int`` when whole)."""
    return exact(Fraction(milli, PER_POINT))


def decimal_text(value: Rating) -> str:
    """The exact decimal text of a rating: ``2100`` for a whole one, else three decimals
    (``2705.840``, ``-5.250``) — how storage and exports write it."""
    if isinstance(value, int):
        return str(value)
    milli = to_milli(value)
    sign = "-" if milli < 0 else ""
    whole, part = divmod(abs(milli), PER_POINT)
    return f"{sign}{whole}.{part:03d}"


def whole_points(value: Rating) -> int:
    """A rating shown in whole points, half up (rules.md §6 Decision: replies show whole
    points)."""
    return int((Fraction(value) + Fraction(1, 2)) // 1)


def require_whole(value: Rating, rating: str) -> int:
    """``value`` as an ``int`` for a rulebook whose ratings are whole numbers.

    Args:
        value: the rating given.
        rating: what the rulebook calls it, e.g. "an MGSZ Elo".

    Raises:
        RuleError: ``value`` has decimals.
    """
    if isinstance(value, int):
        return value
    if value.denominator == 1:
        return int(value)
    raise RuleError(
        Msg(
            "{rating} is a whole number, not {value} (e.g. {example})",
            rating=rating,
            value=decimal_text(value),
            example=whole_points(value),
        )
    )


def as_data(value: Rating) -> int | str:
    """A rating as stored data (a log payload, a snapshot, an export's value): a whole one as
    a number, else its exact decimal text (``"2705.840"``), never a float."""
    return value if isinstance(value, int) else decimal_text(value)


def from_data(data: int | str) -> Rating:
    """The inverse of :func:`as_data`.

    Raises:
        ValueError: ``data`` is neither a whole number nor decimal text of up to 3 decimals.
    """
    if isinstance(data, bool) or not isinstance(data, int | str):
        raise ValueError(f"a stored rating is a number or decimal text, not {data!r}")
    return data if isinstance(data, int) else parse_rating(data)
