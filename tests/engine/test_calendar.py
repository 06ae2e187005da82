"""engine.calendar: the order in which every system consumes a club's facts (rules.md, top)."""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from engine import calendar
from engine.calendar import Phase, event_key, moment, start_of
from engine.ranks import Rank
from engine.types import (
    DayEnded,
    EgfRating,
    Game,
    GamePlayed,
    MonthEnded,
    Override,
    PeriodClosed,
    Registered,
    Result,
    SettingsChanged,
    Tournament,
    TournamentRated,
)

DAY = dt.date(2026, 10, 11)


def _game(day: dt.date) -> GamePlayed:
    return GamePlayed(Game(1, 1, 2, Result.BLACK, day))


def _tournament(start: dt.date, end: dt.date) -> TournamentRated:
    return TournamentRated(Tournament(5, "Cup", start, end, 3), (), ())


def test_a_day_runs_registrations_then_facts_then_its_ends() -> None:
    order = [
        event_key(Registered(9, Rank.kyu(5), DAY), 900),
        event_key(_game(DAY), 100),
        event_key(Override(1, DAY, "committee", rating=1800), 200),
        event_key(DayEnded(DAY), 50),
        event_key(PeriodClosed(Tournament(60, "Club games", DAY, DAY, 1)), 60),
    ]
    assert order == sorted(order)


def test_a_tournament_comes_at_its_end_date_longer_ones_first() -> None:
    short = event_key(_tournament(DAY, DAY), 10)
    long = event_key(_tournament(DAY - dt.timedelta(days=1), DAY), 20)
    before = event_key(_game(DAY - dt.timedelta(days=1)), 30)
    after = event_key(_game(DAY + dt.timedelta(days=1)), 1)
    assert before < long < short < after


def test_the_log_position_only_breaks_ties() -> None:
    assert event_key(_game(DAY), 7) < event_key(_game(DAY), 8)
    assert event_key(_game(DAY), 8) < event_key(_game(DAY + dt.timedelta(days=1)), 7)


def test_month_ends_and_egf_ratings_take_their_month() -> None:
    assert calendar.event_day(MonthEnded(2026, 2)) == dt.date(2026, 2, 28)
    assert calendar.event_day(EgfRating(1, 2000, 2026, 2)) == dt.date(2026, 2, 1)
    feb = event_key(MonthEnded(2026, 2), 1)
    assert (
        event_key(_game(dt.date(2026, 2, 28)), 99) < feb < event_key(_game(dt.date(2026, 3, 1)), 0)
    )


@given(st.dates(), st.sampled_from(list(Phase)), st.integers(0, 10_000))
def test_start_of_a_day_comes_before_everything_of_it(
    day: dt.date, phase: Phase, span: int
) -> None:
    start = day - dt.timedelta(days=min(span, day.toordinal() - 1))
    assert start_of(day) < (moment(day, phase, start), 1)  # log positions start at 1
    assert calendar.day_of(moment(day, phase, start)) == day
    if day > dt.date.min:
        assert (moment(day - dt.timedelta(days=1), Phase.MONTH_END), 10**12) < start_of(day)


def test_a_settings_change_comes_first_on_its_day() -> None:
    change = SettingsChanged(DAY, (("tensuusei.anchor", 128),))
    at = event_key(change, 10**9)
    assert calendar.event_day(change) == DAY
    assert start_of(DAY) <= at < event_key(Registered(9, Rank.kyu(5), DAY), 1)
    assert (moment(DAY - dt.timedelta(days=1), Phase.MONTH_END), 10**12) < at
