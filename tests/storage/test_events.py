"""storage.events: overrides, EGF ratings, teacher actions, suspensions, day/month/period ends."""

from __future__ import annotations

import datetime as dt

import pytest

from engine.calendar import Phase
from engine.ranks import Rank
from engine.system import Pending
from engine.types import (
    DayEnded,
    EgfRating,
    MonthEnded,
    Override,
    PeriodClosed,
    TeacherAction,
    TeacherKind,
    Tournament,
    VerificationSuspended,
)
from storage import (
    Club,
    Database,
    NotFound,
    Player,
    Refused,
    card,
    close_period,
    create_club,
    end_day,
    end_due,
    end_month,
    history,
    record_egf,
    record_override,
    record_teacher_action,
    suspend_verification,
)
from storage import overlay as overlays
from storage.history import club_events
from tests.storage.conftest import DAY, ORGANISER, dump_all, game, player


@pytest.fixture
async def nagy(db: Database, club: Club) -> Player:
    return await player(db, club, "Nagy Péter")


async def _engine_events(db: Database, club: Club) -> list[object]:
    async with db.transaction() as tx:
        folded = await overlays.load(tx, club.id)
        return [event async for batch in club_events(tx, club.id, folded) for _, event in batch]


async def test_an_override_is_recorded_with_who_when_why(
    db: Database, club: Club, nagy: Player
) -> None:
    changes = await record_override(
        db, club, nagy, reason="committee  2026/3", date=DAY, rating=150, actor=ORGANISER
    )
    assert [(c.rating_before, c.rating_after, c.note) for c in changes] == [
        (100, 150, "committee 2026/3")
    ]
    assert (await card(db, club, nagy)).rating == 150
    assert (await history(db, club, nagy))[0].source == "override"
    assert (await _engine_events(db, club))[-1] == Override(
        nagy.id, DAY, "committee 2026/3", rating=150
    )
    row = await db.fetchone("SELECT actor FROM log ORDER BY seq DESC LIMIT 1")
    assert row == (ORGANISER,)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"reason": "x"}, "needs rating=N or rank=R"),
        ({"reason": "  ", "rating": 5}, "needs a reason"),
    ],
    ids=["nothing", "no-reason"],
)
async def test_override_refusals(
    db: Database, club: Club, nagy: Player, options: dict[str, object], message: str
) -> None:
    with pytest.raises(Refused, match=message):
        await record_override(db, club, nagy, date=DAY, actor=ORGANISER, **options)  # type: ignore[arg-type]


async def test_events_need_a_registered_player(db: Database, club: Club) -> None:
    guest = await player(db, club, "Guest", guest=True)
    for who in (guest.id, 999):
        with pytest.raises(NotFound, match=f"no registered player {who}"):
            await record_egf(db, club, who, 2000, year=2026, month=3, actor=ORGANISER)


async def test_psg_events_reach_the_engine(db: Database, club: Club, nagy: Player) -> None:
    await record_egf(db, club, nagy, 1950, year=2026, month=2, actor=ORGANISER)
    await record_teacher_action(
        db,
        club,
        nagy,
        TeacherKind.PROMOTE,
        date=DAY,
        teacher_rank=Rank.dan(2),
        rank=Rank.kyu(6),
        actor=ORGANISER,
    )
    await suspend_verification(db, club, nagy, date=DAY, actor=ORGANISER)
    assert await end_month(db, club, 2026, 2)
    assert (await _engine_events(db, club))[1:] == [  # in calendar order
        EgfRating(nagy.id, 1950, 2026, 2, True),
        MonthEnded(2026, 2),
        TeacherAction(nagy.id, TeacherKind.PROMOTE, DAY, Rank.dan(2), Rank.kyu(6)),
        VerificationSuspended(nagy.id, True, DAY),
    ]


async def test_a_bad_month_is_refused(db: Database, club: Club, nagy: Player) -> None:
    with pytest.raises(Refused, match="months run from 1 to 12, not 13"):
        await record_egf(db, club, nagy, 1950, year=2026, month=13, actor=ORGANISER)
    with pytest.raises(Refused, match="not 0"):
        await end_month(db, club, 2026, 0)


async def test_day_ends_are_idempotent(db: Database) -> None:
    club = await create_club(db, "Tokyo", "daily", actor=ORGANISER)
    black, white = await player(db, club, "Sato"), await player(db, club, "Suzuki")
    await game(db, club, black, white)
    assert (await card(db, club, black)).pending == Pending(1, "points", Phase.DAY_END)
    assert await end_day(db, club, DAY) is True
    assert ((await card(db, club, black)).rating, (await card(db, club, black)).pending) == (
        101,
        None,
    )
    before = await dump_all(db)
    assert await end_day(db, club, DAY) is False
    assert await dump_all(db) == before
    assert await end_day(db, club, DAY + dt.timedelta(days=1)) is True


async def test_month_ends_are_idempotent(db: Database, club: Club) -> None:
    assert await end_month(db, club, 2026, 3) is True
    assert await end_month(db, club, 2026, 3) is False


async def test_the_same_day_in_two_clubs(db: Database, club: Club) -> None:
    other = await create_club(db, "Tokyo", "daily", actor=ORGANISER)
    assert await end_day(db, club, DAY) and await end_day(db, other, DAY)


async def test_periods_close_once(db: Database, club: Club) -> None:
    march = Tournament(0, "March 2026", DAY, dt.date(2026, 3, 31), rounds=1, multiplier=10)
    assert await close_period(db, club, march) is True
    assert await close_period(db, club, march) is False
    (closed,) = [e for e in await _engine_events(db, club) if isinstance(e, PeriodClosed)]
    assert closed.tournament.name == "March 2026" and closed.tournament.multiplier == 10
    assert closed.tournament.id > 0


async def test_scheduled_events_are_logged_as_the_scheduler(db: Database, club: Club) -> None:
    await end_day(db, club, DAY)
    assert await db.fetchone("SELECT actor, kind FROM log ORDER BY seq DESC LIMIT 1") == (
        "scheduler",
        "day",
    )
    assert DayEnded(DAY) in await _engine_events(db, club)


# -- what the rulebooks have due, recorded in one write (issue 23)


async def test_end_due_records_each_moment_once_in_calendar_order(
    db: Database, club: Club
) -> None:
    """The scheduler hands a club's due moments to storage in one call: each is written
    once (again, or already in the log: skipped), in calendar order, a period's id its log
    position."""
    april = Tournament(0, "April 2026", dt.date(2026, 4, 1), dt.date(2026, 4, 30), rounds=1)
    assert await end_day(db, club, dt.date(2026, 3, 2))
    due = [
        MonthEnded(2026, 4),
        PeriodClosed(april),
        DayEnded(dt.date(2026, 4, 30)),
        DayEnded(dt.date(2026, 3, 2)),  # in the log already
        MonthEnded(2026, 3),
        MonthEnded(2026, 4),  # named twice (two systems)
    ]
    written = await end_due(db, club, due)
    assert [type(e).__name__ for e in written] == [
        "MonthEnded",
        "DayEnded",
        "PeriodClosed",
        "MonthEnded",
    ]
    assert written[0] == MonthEnded(2026, 3) and written[-1] == MonthEnded(2026, 4)
    (closed,) = [e for e in written if isinstance(e, PeriodClosed)]
    assert closed.tournament.id > 0 and closed.tournament.name == "April 2026"
    assert closed in await _engine_events(db, club)
    before = await dump_all(db)
    assert await end_due(db, club, due) == []  # every one in the log already
    assert await dump_all(db) == before


async def test_end_due_refuses_a_fact_that_is_not_a_scheduled_moment(
    db: Database, club: Club, nagy: Player
) -> None:
    before = await dump_all(db)
    with pytest.raises(TypeError, match="not a scheduled moment"):
        await end_due(db, club, [DayEnded(DAY), Override(nagy.id, DAY, "x", rating=120)])
    with pytest.raises(Refused, match="not 13"):
        await end_due(db, club, [MonthEnded(2026, 13)])
    assert await dump_all(db) == before


async def test_a_late_game_ends_only_the_days_a_rulebook_has_due(db: Database) -> None:
    """A game entered for a day that has ended ends that day in the same write when a
    system holds it (``Daily``: a rated result pends), as the scheduler would; a game no
    system holds leaves its day alone (its end would change nothing)."""
    club = await create_club(db, "Tokyo", "daily", actor=ORGANISER)
    black, white = await player(db, club, "Sato"), await player(db, club, "Suzuki")
    yesterday = DAY - dt.timedelta(days=1)
    await game(db, club, black, white, None, date=yesterday)  # no result: nothing pends
    assert DayEnded(yesterday) not in await _engine_events(db, club)
    await game(db, club, black, white, date=yesterday)  # a win: it pends, its day is over
    assert DayEnded(yesterday) in await _engine_events(db, club)
    assert (await card(db, club, black)).pending is None
