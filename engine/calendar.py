"""Calendar order: the order in which every system consumes a club's facts (rules.md, top).

Every fact is folded at its place in the calendar, never at the moment it was typed: a
tournament at its end date (then its start date: a longer tournament ending the same day comes
first), a single game at its date, a period, day or month end at its moment, registrations,
overrides, EGF ratings, teacher actions and suspensions at their effective date. The log
position only breaks ties between facts of the same moment.

A fact's place is a :data:`Key` ``(moment, position)``: ``moment`` is one integer that orders
the day, the phase within the day and the start date; ``position`` is the fact's own identity
(the log position of the game, of the tournament's creation, of the registration …), so that a
reopened tournament finalised again takes exactly the place it had (rules.md, top: "reopening and
finalising a tournament without changing it changes nothing").
"""

from __future__ import annotations

import calendar
import datetime as dt
from enum import IntEnum

from engine.types import (
    DayEnded,
    EgfRating,
    Event,
    GamePlayed,
    MonthEnded,
    Override,
    PeriodClosed,
    Registered,
    SettingsChanged,
    TeacherAction,
    Tournament,
    TournamentRated,
    VerificationSuspended,
)

Key = tuple[int, int]
"""``(moment, position)``: a fact's place in the calendar; keys compare as tuples."""


class Phase(IntEnum):
    """The parts of a calendar day, in order.

    A registration comes before anything else of its day (a player registered on the day of
    their first game plays it registered); the day's games, tournaments and organiser actions
    follow in log order; then the ends of the day (Tensuusei settlement, rules.md §2.3), of an
    MGSZ rating period (§1.4) and of a month (the PSG verification, §4.5), which take in
    everything dated that day.
    """

    REGISTRATION = 0
    FACTS = 1
    DAY_END = 2
    PERIOD_END = 3
    MONTH_END = 4


SPAN_LIMIT = 4095
"""Longest tournament span (days) the start-date tie-break tells apart; longer ones tie."""

_SPAN_BITS = 12
_PHASE_BITS = 3


def moment(day: dt.date, phase: Phase, start: dt.date | None = None) -> int:
    """The moment of a fact dated ``day`` in ``phase``; ``start`` is a tournament's first day.

    Of two tournaments ending the same day, the one that started earlier comes first (rules.md,
    top: "a tournament at its end date (then its start date)").
    """
    span = 0 if start is None else min(max((day - start).days, 0), SPAN_LIMIT)
    return (((day.toordinal() << _PHASE_BITS) | phase) << _SPAN_BITS) | (SPAN_LIMIT - span)


def day_of(value: int) -> dt.date:
    """The calendar day of a moment (the inverse of :func:`moment`'s first argument)."""
    return dt.date.fromordinal(value >> (_SPAN_BITS + _PHASE_BITS))


def start_of(day: dt.date) -> Key:
    """A key before every fact of ``day`` (where a rewrite of that day starts)."""
    return ((day.toordinal() << _PHASE_BITS) << _SPAN_BITS, 0)


def month_end(year: int, month: int) -> dt.date:
    """The last day of a month."""
    return dt.date(year, month, calendar.monthrange(year, month)[1])


def add_months(date: dt.date, months: int) -> dt.date:
    """The same day ``months`` calendar months later (the month's last day when it is shorter:
    31 January + 1 month is 28 or 29 February, 29 February + 12 months is 28 February)."""
    year, month0 = divmod(date.year * 12 + date.month - 1 + months, 12)
    day = min(date.day, calendar.monthrange(year, month0 + 1)[1])
    return dt.date(year, month0 + 1, day)


def event_day(event: Event) -> dt.date:
    """The calendar day an event belongs to (its effective date)."""
    if isinstance(event, GamePlayed):
        return event.game.date
    if isinstance(event, TournamentRated | PeriodClosed):
        return event.tournament.end
    if isinstance(event, Registered | Override | TeacherAction | VerificationSuspended):
        return event.date
    if isinstance(event, DayEnded | SettingsChanged):
        return event.date
    if isinstance(event, MonthEnded):
        return month_end(event.year, event.month)
    if isinstance(event, EgfRating):  # a monthly rating list holds from its month's first day
        return dt.date(event.year, event.month, 1)
    raise TypeError(f"not an event of a club's history: {event!r}")


def first_day(event: Event) -> dt.date:
    """The first calendar day an event covers: a tournament's start, else its own day. A
    rewrite of the event starts there (its games are dated from its start)."""
    if isinstance(event, TournamentRated):
        return min(event.tournament.start, event.tournament.end)
    return event_day(event)


def tournament_moment(tournament: Tournament) -> int:
    """A tournament's moment: its end date, then its start date (rules.md, top)."""
    return moment(tournament.end, Phase.FACTS, tournament.start)


def event_moment(event: Event) -> int:
    """The moment of an event: its day, its phase in the day, a tournament's start."""
    if isinstance(event, GamePlayed):
        return moment(event.game.date, Phase.FACTS)
    if isinstance(event, TournamentRated):
        return tournament_moment(event.tournament)
    if isinstance(event, Registered):
        return moment(event.date, Phase.REGISTRATION)
    if isinstance(event, SettingsChanged):  # before everything of its day, registrations too
        return start_of(event.date)[0]
    if isinstance(event, DayEnded):
        return moment(event.date, Phase.DAY_END)
    if isinstance(event, PeriodClosed):
        return moment(event.tournament.end, Phase.PERIOD_END)
    if isinstance(event, MonthEnded):
        return moment(month_end(event.year, event.month), Phase.MONTH_END)
    return moment(event_day(event), Phase.FACTS)


def event_key(event: Event, position: int) -> Key:
    """An event's place in the calendar; ``position`` is the fact's log position."""
    return (event_moment(event), position)


def registration_key(day: dt.date, position: int) -> Key:
    """Where a registration takes effect when it is folded on ``day``: before the day's facts.

    A registration dated after the player's first fact takes effect on that fact's day
    (storage folds it just before): a player's games are never rated before they exist.
    """
    return (moment(day, Phase.REGISTRATION), position)
