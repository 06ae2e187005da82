"""Organiser and scheduler events that enter the rating history.

Overrides, EGF ratings, teacher actions and suspensions name a player; the end of a day
(Tensuusei, rules.md §2.3), of a month (PSG, §4.5) and of a rating period (MGSZ club games,
§1.4 Decision) are idempotent: a second call for the same day, month or period is a no-op.
Which of those are due is each rulebook's to say (``RatingSystem.due``): :func:`end_due`
records what the club's systems name in one write, and a late write ends what it made due
(:func:`settle_ended`). Each is applied at the end of the club's history; the club's current
system may refuse it (``EngineError``), and then nothing is written.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engine.calendar import event_moment
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
from storage.backend import Database
from storage.codec import optional_text
from storage.common import ClubRef, PlayerRef, club_id, player_id
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


def _numbered(period: Tournament, seq: int) -> PeriodClosed:
    """The close of ``period`` recorded at log position ``seq`` (the period's id)."""
    return PeriodClosed(dataclasses.replace(period, id=seq))


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
        return bool(await _end(write, [DayEnded(date)], actor=actor, chat=chat))


async def club_today(write: ClubWrite) -> dt.date:
    """Today in the club's time zone (the database's clock): the days before it have ended."""
    zone = (await settings.club_settings(write.tx, write.club)).zone
    return write.db.clock().astimezone(zone).date()


async def settle_ended(
    write: ClubWrite, days: Iterable[dt.date], *, actor: str, chat: str | None
) -> Settled:
    """End, in the caller's write, what the club's own system has due (``RatingSystem.due``:
    the same answers the scheduler's next run would act on) of ``days`` that are over
    (before today, club time): each such day a system still holds (a game entered for a day
    that has ended is settled as it is entered, rules.md §2.3, Decision — late reports), and
    the rating period of each such day's month once the month is over and holds club games
    not rated yet (a club game entered late for a month that has ended is rated with its
    period as it is entered: §1.4 club games, the same rule for periods; the close is a dated
    fact of the month's end, so a later fact of the calendar, such as an override, comes
    after it). Month ends are the scheduler's alone, and so are the other systems' moments:
    the club does not use them, and a moment written by the next run takes the same place in
    the calendar, so every rating comes out the same (storage.projections: the shadows).
    """
    today = await club_today(write)
    ended = {d for d in days if d < today}
    if not ended:
        return Settled()
    wanted = [
        event
        for event in due_events([write.ledgers.system], today)
        if (isinstance(event, DayEnded) and event.date in ended)
        or (
            isinstance(event, PeriodClosed)
            and any(event.tournament.start <= d <= event.tournament.end for d in ended)
        )
    ]
    written = await _end(write, wanted, actor=actor, chat=chat)
    return Settled(
        tuple(e.date for e in written if isinstance(e, DayEnded)),
        tuple(e.tournament for e in written if isinstance(e, PeriodClosed)),
    )


def due_events(systems: Iterable[RatingSystem], today: dt.date) -> list[Event]:
    """What the ``systems`` have due on the club's ``today`` (``RatingSystem.due``): each
    day, month or period end once, in calendar order."""
    return _ordered(event for system in systems for event in system.due(today))


def _ordered(events: Iterable[Event]) -> list[Event]:
    """Scheduled events once each (by their log kind and key), in calendar order."""
    unique: dict[tuple[str, str], Event] = {}
    for event in events:
        kind, key, _ = _entry(event)
        unique.setdefault((kind, key), event)
    return sorted(unique.values(), key=event_moment)


def _entry(event: Event) -> tuple[str, str, dict[str, Any]]:
    """A scheduled event's log kind, idempotency key and payload.

    Raises:
        Refused: a month outside 1–12. TypeError: not a day, month or period end.
    """
    if isinstance(event, DayEnded):
        day = event.date.isoformat()
        return log.DAY, day, {"date": day}
    if isinstance(event, MonthEnded):
        if not 1 <= event.month <= 12:
            raise Refused(Msg("months run from 1 to 12, not {month}", month=event.month))
        key = f"{event.year:04d}-{event.month:02d}"
        return log.MONTH, key, {"year": event.year, "month": event.month}
    if isinstance(event, PeriodClosed):
        period = event.tournament
        key = f"{period.start.isoformat()}/{period.end.isoformat()}"
        return log.PERIOD, key, {"tournament": tournament_columns(period)}
    raise TypeError(f"not a scheduled moment: {event!r}")  # a caller's bug, not a member's


async def end_due(
    db: Database,
    club: ClubRef,
    events: Iterable[Event],
    *,
    actor: str = SCHEDULER,
    chat: str | None = None,
) -> list[Event]:
    """Record the scheduled ``events`` the club's systems have due (``RatingSystem.due``: day,
    month and rating period ends), all in one write: each once (one already in the log is
    skipped), in calendar order, each folded at its place in the calendar.

    Returns:
        The events written, in calendar order; a period's id is its log position.

    Raises:
        TypeError: an event that is not a scheduled moment. EngineError: the club's current
            system refused one; nothing is written.
    """
    async with club_write(db, club_id(club)) as write:
        return await _end(write, _ordered(events), actor=actor, chat=chat)


async def _end(
    write: ClubWrite, events: Sequence[Event], *, actor: str, chat: str | None
) -> list[Event]:
    """Write ``events`` (scheduled moments, in calendar order) in the caller's write, each
    unless one of its kind and key is in the log already, then fold them; the events written
    (a period's id its log position).

    All are appended first: when one is dated before what the ledgers folded, the rebuild
    from its day folds the whole log — the later ones too — once, not once each (a game
    entered for 1900 makes more than a thousand month ends due)."""
    appended: list[tuple[int, Event]] = []
    for event in events:
        kind, key, payload = _entry(event)
        if await write.tx.fetchone(
            "SELECT 1 FROM events WHERE kind = ? AND key = ? AND club = ?",
            (kind, key, write.club),
        ):
            continue
        seq = await write.event(kind, actor=actor, chat=chat, key=key, payload=payload)
        if isinstance(event, PeriodClosed):  # its id is its log position
            event = _numbered(event.tournament, seq)
        appended.append((seq, event))
    for seq, event in appended:
        if seq <= write.ledgers.last_seq:
            continue  # folded by the rebuild an earlier one of them made
        await write.apply(seq, event)
    return [event for _, event in appended]


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
    event = MonthEnded(year, month)
    _entry(event)  # refuses a month outside 1–12
    async with club_write(db, club_id(club)) as write:
        return bool(await _end(write, [event], actor=actor, chat=chat))


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
        return bool(await _end(write, [PeriodClosed(period)], actor=actor, chat=chat))
