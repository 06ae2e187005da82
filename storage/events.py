"""Organiser and scheduler events that enter the rating history.

Overrides, EGF ratings, teacher actions and suspensions name a player; the end of a day
(Tensuusei, rules.md §2.3), of a month (PSG, §4.5) and of a rating period (MGSZ club games,
§1.4 Decision) are idempotent: a second call for the same day, month or period is a no-op.
Each is applied at the end of the club's history; the club's current system may refuse it
(``EngineError``), and then nothing is written.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Iterable
from typing import Any

from engine.calendar import Phase, month_end
from engine.ranks import Rank
from engine.ratings import Rating, as_data
from engine.system import Change, RatingSystem
from engine.text import Msg
from engine.types import (
    DayEnded,
    EgfRating,
    Event,
    MonthEnded,
    Override,
    PeriodClosed,
    TeacherAction,
    TeacherKind,
    Tournament,
    VerificationSuspended,
)
from storage import log, settings
from storage.codec import optional_text
from storage.common import ClubRef, PlayerRef, club_id, player_id
from storage.db import Database
from storage.errors import NotFound, Refused
from storage.history import tournament_columns
from storage.players import load_players
from storage.projections import ClubWrite, club_write
from storage.records import Settled

SCHEDULER = "scheduler"


async def _player_event(
    db: Database,
    club: ClubRef,
    player: PlayerRef,
    kind: str,
    payload: dict[str, Any],
    make: Callable[..., Event],
    event_fields: dict[str, Any],
    *,
    actor: str,
    chat: str | None,
) -> list[Change]:
    async with club_write(db, club_id(club)) as write:
        known = (await load_players(write.tx, write.club, guests=False)).get(player_id(player))
        if known is None:
            raise NotFound(
                Msg(
                    "there is no registered player {player} in this club", player=player_id(player)
                )
            )
        seq = await write.event(
            kind, actor=actor, chat=chat, target=known.id, payload={"player": known.id, **payload}
        )
        return await write.apply(seq, make(player=known.id, **event_fields))


async def record_override(
    db: Database,
    club: ClubRef,
    player: PlayerRef,
    *,
    reason: str,
    date: dt.date,
    actor: str,
    chat: str | None = None,
    rating: Rating | None = None,
    rank: Rank | None = None,
) -> list[Change]:
    """A committee adjustment of rating and/or rank, with who/when/why (rules.md §1.5, §4.4).

    Raises:
        Refused: neither rating nor rank given, or no reason.
        EngineError: the club's system refuses it.
    """
    if rating is None and rank is None:
        raise Refused(Msg('an override needs rating=N or rank=R, e.g. rank=2d reason="committee"'))
    reason = " ".join(reason.split())
    if not reason:
        raise Refused(Msg('an override needs a reason, e.g. reason="committee decision 2026-03"'))
    # rules.md §6 Decision: a rating with decimals is kept exactly, as decimal text
    payload = {
        "date": date.isoformat(),
        "reason": reason,
        "rating": None if rating is None else as_data(rating),
    }
    payload["rank"] = optional_text(rank)
    fields = {"date": date, "reason": reason, "rating": rating, "rank": rank}
    return await _player_event(
        db, club, player, log.OVERRIDE, payload, Override, fields, actor=actor, chat=chat
    )


async def record_egf(
    db: Database,
    club: ClubRef,
    player: PlayerRef,
    rating: Rating,
    *,
    year: int,
    month: int,
    actor: str,
    chat: str | None = None,
    from_tournament: bool = True,
) -> list[Change]:
    """An EGF rating known for a player in a month (rules.md §4.4–4.5)."""
    if not 1 <= month <= 12:
        raise Refused(Msg("months run from 1 to 12, not {month}", month=month))
    payload = {
        "rating": as_data(rating),
        "year": year,
        "month": month,
        "from_tournament": from_tournament,
    }
    fields = {**payload, "rating": rating}
    return await _player_event(
        db, club, player, log.EGF, payload, EgfRating, fields, actor=actor, chat=chat
    )


async def record_teacher_action(
    db: Database,
    club: ClubRef,
    player: PlayerRef,
    kind: TeacherKind,
    *,
    date: dt.date,
    actor: str,
    chat: str | None = None,
    teacher_rank: Rank | None = None,
    rank: Rank | None = None,
) -> list[Change]:
    """PSG: a teacher promotes a student or holds back / releases promotion (rules.md §4.4)."""
    payload = {
        "kind": kind.value,
        "date": date.isoformat(),
        "teacher_rank": optional_text(teacher_rank),
        "rank": optional_text(rank),
    }
    fields = {"kind": kind, "date": date, "teacher_rank": teacher_rank, "rank": rank}
    return await _player_event(
        db, club, player, log.TEACHER, payload, TeacherAction, fields, actor=actor, chat=chat
    )


async def suspend_verification(
    db: Database,
    club: ClubRef,
    player: PlayerRef,
    *,
    date: dt.date,
    actor: str,
    chat: str | None = None,
    suspended: bool = True,
) -> list[Change]:
    """PSG: suspend (or resume) a player's month-end verification (rules.md §4.5)."""
    payload = {"suspended": suspended, "date": date.isoformat()}
    fields = {"suspended": suspended, "date": date}
    return await _player_event(
        db,
        club,
        player,
        log.SUSPEND,
        payload,
        VerificationSuspended,
        fields,
        actor=actor,
        chat=chat,
    )


async def _once(
    write: ClubWrite,
    kind: str,
    key: str,
    payload: dict[str, Any],
    event: Event | Callable[[int], Event],
    *,
    actor: str,
    chat: str | None,
) -> int | None:
    """Write and fold a scheduled fact (a day, month or period end) unless one of ``kind`` with
    ``key`` is in the log already: the log position written (``None``: nothing written).
    ``event`` may be made from the position (a period's id is its log position)."""
    if await write.tx.fetchone(
        "SELECT 1 FROM events WHERE kind = ? AND key = ? AND club = ?", (kind, key, write.club)
    ):
        return None
    seq = await write.event(kind, actor=actor, chat=chat, key=key, payload=payload)
    await write.apply(seq, event(seq) if callable(event) else event)
    return seq


async def end_day(
    db: Database,
    club: ClubRef,
    date: dt.date,
    *,
    actor: str = SCHEDULER,
    chat: str | None = None,
) -> bool:
    """Tensuusei: the club's day ends and its pairs are settled (rules.md §2.3).

    Returns:
        ``False`` when that day had already ended (nothing written).
    """
    async with club_write(db, club_id(club)) as write:
        return await _day_ended(write, date, actor=actor, chat=chat)


async def _day_ended(write: ClubWrite, day: dt.date, *, actor: str, chat: str | None) -> bool:
    """End ``day`` in the caller's write, once (``False``: it had ended already)."""
    key = day.isoformat()
    return (
        await _once(write, log.DAY, key, {"date": key}, DayEnded(day), actor=actor, chat=chat)
        is not None
    )


async def club_today(write: ClubWrite) -> dt.date:
    """Today in the club's time zone (the database's clock): the days before it have ended."""
    zone = (await settings.club_settings(write.tx, write.club)).zone
    return write.db.clock().astimezone(zone).date()


async def settle_ended(
    write: ClubWrite, days: Iterable[dt.date], *, actor: str, chat: str | None
) -> Settled:
    """End, in the caller's write, what of ``days`` is over (before today, club time) and not
    ended yet, as the scheduler's next run would: each such day (a game entered for a day that
    has ended is settled as it is entered, rules.md §2.3, Decision — late reports), and the
    rating period of each such day's month once the month is over and holds club games not
    rated yet (a club game entered late for a month that has ended is rated with its period
    as it is entered: §1.4 club games, the same rule for periods; the close is a dated fact of
    the month's end, so a later fact of the calendar, such as an override, comes after it).
    """
    today = await club_today(write)
    ended = sorted({d for d in days if d < today})
    if not ended:
        return Settled()
    settled_days = [day for day in ended if await _day_ended(write, day, actor=actor, chat=chat)]
    held = held_months(
        [await write.ledger_of(key) for key in sorted(write.db.projections.systems)]
    )
    periods = []
    for year, month in sorted({(d.year, d.month) for d in ended} & held):
        period = month_period(year, month)
        if period.end < today:
            closed = await _closed_period(write, period, actor=actor, chat=chat)
            if closed is not None:
                periods.append(closed)
    return Settled(tuple(settled_days), tuple(periods))


def held_months(systems: Iterable[RatingSystem]) -> set[tuple[int, int]]:
    """The ``(year, month)`` of every club game the ``systems`` hold for a rating period's
    close (those with a ``PERIOD_END`` moment: MGSZ, rules.md §1.4), as the scheduler and a
    late write close them."""
    return {
        (game.date.year, game.date.month)
        for system in systems
        if Phase.PERIOD_END in system.scheduled
        for game in system.open_period()
    }


def month_period(year: int, month: int) -> Tournament:
    """The MGSZ rating period of a month's club games (rules.md §1.4, Decision — club games:
    a calendar month), as the scheduler and a late game close it: ``Club games 2026-11``, the
    same in every language (storage keeps it, exports write it); no time of its own, so the
    ledger rates it with the club's usual time in effect at its end."""
    return Tournament(
        id=0,
        name=f"Club games {year:04d}-{month:02d}",
        start=dt.date(year, month, 1),
        end=month_end(year, month),
        rounds=1,
    )


async def _closed_period(
    write: ClubWrite, period: Tournament, *, actor: str, chat: str | None
) -> Tournament | None:
    """Close ``period`` in the caller's write, once (the period as closed, its id the log
    position; ``None``: it was closed already and nothing is written)."""
    key = f"{period.start.isoformat()}/{period.end.isoformat()}"
    payload = {"tournament": tournament_columns(period)}
    seq = await _once(
        write,
        log.PERIOD,
        key,
        payload,
        lambda seq: PeriodClosed(dataclasses.replace(period, id=seq)),
        actor=actor,
        chat=chat,
    )
    return None if seq is None else dataclasses.replace(period, id=seq)


async def end_month(
    db: Database,
    club: ClubRef,
    year: int,
    month: int,
    *,
    actor: str = SCHEDULER,
    chat: str | None = None,
) -> bool:
    """PSG: the month-end verification check (rules.md §4.5).

    Returns:
        ``False`` when that month had already ended (nothing written).
    """
    if not 1 <= month <= 12:
        raise Refused(Msg("months run from 1 to 12, not {month}", month=month))
    async with club_write(db, club_id(club)) as write:
        return (
            await _once(
                write,
                log.MONTH,
                f"{year:04d}-{month:02d}",
                {"year": year, "month": month},
                MonthEnded(year, month),
                actor=actor,
                chat=chat,
            )
            is not None
        )


async def close_period(
    db: Database,
    club: ClubRef,
    period: Tournament,
    *,
    actor: str = SCHEDULER,
    chat: str | None = None,
) -> bool:
    """MGSZ: the club's rating period ends; its single games are rated as one tournament.

    (rules.md §1.4, Decision — club games.) The period is identified by its dates; its id
    becomes the event's log position.

    Returns:
        ``False`` when that period had already been closed (nothing written).
    """
    async with club_write(db, club_id(club)) as write:
        return await _closed_period(write, period, actor=actor, chat=chat) is not None
