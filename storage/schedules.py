"""Scheduled work in the log: finalisation times, once-only job runs, report disputes.

The schedule belongs to the club, not to a platform: it lives here and the bot's scheduler
rebuilds its timers from it at every start (stack-notes.md, Scheduling). Every run of a job
is an event recorded once per occurrence (``job``, keyed ``weekly:2026-W47`` …): a second run
of the same occurrence finds it and does nothing.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Mapping
from typing import Any

from engine.system import Change, RatingSystem
from engine.text import Msg
from storage import log
from storage import overlay as overlays
from storage.backend import Database
from storage.codec import note_from_text, rank_from_text, value_from_text
from storage.common import ClubRef, club_id
from storage.errors import NotFound, Refused
from storage.log import Reader
from storage.memo import known_club
from storage.projections import club_write, ensure_fresh, system_version
from storage.settings import current_system

SCHEDULE = "schedule"
JOB = "job"
DISPUTE = "dispute"


async def schedule_finalisation(
    db: Database,
    club: ClubRef,
    tournament: int,
    due_at: dt.datetime,
    *,
    actor: str,
    chat: str | None = None,
) -> None:
    """Finalise ``tournament`` at ``due_at`` (an aware datetime); a later schedule replaces it.

    Raises:
        NotFound: no such tournament in the club. Refused: it is already finalised, or the
            time has no time zone.
    """
    if due_at.tzinfo is None:
        raise Refused(Msg("a scheduled time needs its time zone"))
    async with club_write(db, club_id(club)) as write:
        row = await write.tx.fetchone(
            "SELECT 1 FROM tournaments WHERE seq = ? AND club = ?", (tournament, write.club)
        )
        if row is None:
            raise NotFound(
                Msg("there is no tournament {tournament} in this club", tournament=tournament)
            )
        if await _finalised(write.tx, write.club, tournament):
            raise Refused(Msg("that tournament is already finalised; reopen it first"))
        await write.event(
            SCHEDULE,
            actor=actor,
            chat=chat,
            target=tournament,
            payload={"due_at": due_at.astimezone(dt.UTC).isoformat()},
        )


async def _finalised(reader: Reader, club: int, tournament: int) -> bool:
    """Whether the tournament's last finalise/reopen event is a finalise."""
    row = await reader.fetchone(
        "SELECT kind FROM events WHERE club = ? AND target = ? AND kind IN (?, ?) "
        "ORDER BY seq DESC LIMIT 1",
        (club, tournament, log.FINALISE, log.REOPEN),
    )
    return row is not None and row[0] == log.FINALISE


async def scheduled_finalisations(db: Database, club: ClubRef) -> list[tuple[int, dt.datetime]]:
    """``(tournament, due_at)`` of every open tournament with a schedule, soonest first."""
    cid = club_id(club)
    latest: dict[int, dt.datetime] = {}
    for target, payload in await db.fetchall(
        "SELECT target, payload FROM events WHERE club = ? AND kind = ? ORDER BY seq",
        (cid, SCHEDULE),
    ):
        latest[target] = dt.datetime.fromisoformat(_payload(payload)["due_at"])
    due = [(t, at) for t, at in latest.items() if not await _finalised(db, cid, t)]
    return sorted(due, key=lambda item: item[1])


async def claim_job(
    db: Database, club: ClubRef, occurrence: str, *, actor: str = "scheduler"
) -> bool:
    """Record that the job ``occurrence`` ran; ``False`` when it already had (do nothing then)."""
    async with club_write(db, club_id(club)) as write:
        if await write.tx.fetchone(
            "SELECT 1 FROM events WHERE club = ? AND kind = ? AND key = ?",
            (write.club, JOB, occurrence),
        ):
            return False
        await write.event(JOB, actor=actor, chat=None, key=occurrence, payload={})
        return True


async def last_occurrence(db: Database, club: ClubRef, prefix: str) -> dt.date | None:
    """The day of the latest occurrence of the job ``prefix`` that ran (``weekly:`` →
    ``weekly:2026-11-23``), ``None``: none yet."""
    days = [
        dt.date.fromisoformat(key[len(prefix) :])
        for (key,) in await db.fetchall(
            "SELECT key FROM events WHERE club = ? AND kind = ? AND key LIKE ?",
            (club_id(club), JOB, prefix + "%"),
        )
    ]
    return max(days, default=None)


async def job_done(db: Database, club: ClubRef, occurrence: str) -> bool:
    return (
        await db.fetchone(
            "SELECT 1 FROM events WHERE club = ? AND kind = ? AND key = ?",
            (club_id(club), JOB, occurrence),
        )
        is not None
    )


async def record_dispute(
    db: Database, club: ClubRef, game: int, reason: str, *, actor: str, chat: str | None
) -> None:
    """A player disputes a pending report (it stays pending; organisers are told)."""
    async with club_write(db, club_id(club)) as write:
        await write.event(DISPUTE, actor=actor, chat=chat, target=game, payload={"reason": reason})


async def disputed(db: Database, club: ClubRef, game: int) -> bool:
    return (
        await db.fetchone(
            "SELECT 1 FROM events WHERE club = ? AND kind = ? AND target = ?",
            (club_id(club), DISPUTE, game),
        )
        is not None
    )


def _payload(text: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(text)
    return data


async def unsettled_days(db: Database, club: ClubRef, before: dt.date) -> list[dt.date]:
    """Dates before ``before`` with live games and no end-of-day yet (rules.md §2.3).

    Recording, confirming or correcting a club game for a day that has ended ends that day
    in the same write (storage.events.settle_ended: a late report is settled as it is
    entered); what is left here are the days that ended since their games were entered
    (midnight), a tournament's days, and games entered before that rule. Confirmed reports
    and corrected dates count.
    """
    cid = club_id(club)
    settled = {
        key
        for (key,) in await db.fetchall(
            "SELECT key FROM events WHERE club = ? AND kind = ?", (cid, log.DAY)
        )
    }
    folded = await overlays.load(db, cid)
    days = {
        day
        for (day,) in await db.fetchall(
            "SELECT DISTINCT date FROM games WHERE club = ? AND date < ? AND pending = 0",
            (cid, before.isoformat()),
        )
    }
    confirmed = sorted(folded.confirmed)
    for start in range(0, len(confirmed), 500):
        part = confirmed[start : start + 500]
        marks = ", ".join("?" for _ in part)
        days.update(
            day
            for (day,) in await db.fetchall(
                f"SELECT date FROM games WHERE club = ? AND seq IN ({marks})", (cid, *part)
            )
        )
    days.update(changes["date"] for changes in folded.corrections.values() if "date" in changes)
    return [
        dt.date.fromisoformat(day)
        for day in sorted(days)
        if day < before.isoformat() and day not in settled
    ]


async def months_ended(db: Database, club: ClubRef) -> list[str]:
    """``YYYY-MM`` of every month-end check already run, in order."""
    return [
        key
        for (key,) in await db.fetchall(
            "SELECT key FROM events WHERE club = ? AND kind = ? ORDER BY seq",
            (club_id(club), log.MONTH),
        )
    ]


async def first_game_day(db: Database, club: ClubRef) -> dt.date | None:
    """The date of the club's earliest game (``None``: no games): a club that enters its old
    tournaments has months to check from before it came to hoshi (rules.md, top: calendar
    order; §4.5)."""
    row = await db.fetchone("SELECT MIN(date) FROM games WHERE club = ?", (club_id(club),))
    return None if row is None or row[0] is None else dt.date.fromisoformat(row[0])


async def first_record_day(db: Database, club: ClubRef) -> dt.date:
    """The earliest day the club's records reach: its first game, tournament or registration,
    or the day it was created (a game dated far before it is asked about, issue 22)."""
    cid = club_id(club)
    row = await db.fetchone(
        "SELECT MIN(day) FROM (SELECT MIN(date) AS day FROM games WHERE club = ? "
        "UNION ALL SELECT MIN(start_date) FROM tournaments WHERE club = ? "
        "UNION ALL SELECT MIN(date) FROM players WHERE club = ?) AS firsts",
        (cid, cid, cid),
    )
    started = (await club_started(db, club)).date()
    if row is None or row[0] is None:
        return started
    return min(started, dt.date.fromisoformat(row[0]))


async def club_started(db: Database, club: ClubRef) -> dt.datetime:
    """When the club was created (the first month its month-end checks cover)."""
    known = known_club(db, club_id(club))
    if known is not None:  # read as the command began (storage.keys): it never changes
        return dt.datetime.fromisoformat(known.started)
    row = await db.fetchone("SELECT at FROM log WHERE seq = ?", (club_id(club),))
    if row is None:
        raise NotFound(Msg("there is no club {club}", club=club_id(club)))
    return dt.datetime.fromisoformat(row[0])


async def setting_changed_at(db: Database, club: ClubRef, key: str) -> dt.datetime | None:
    """When the setting ``key`` last changed (``None``: never set)."""
    row = await db.fetchone(
        "SELECT log.at FROM events e JOIN log ON log.seq = e.seq "
        "WHERE e.club = ? AND e.kind = ? AND e.key = ? ORDER BY e.seq DESC LIMIT 1",
        (club_id(club), log.SETTING, key),
    )
    return None if row is None else dt.datetime.fromisoformat(row[0])


async def last_event_seq(db: Database, club: ClubRef, kind: str) -> int | None:
    row = await db.fetchone(
        "SELECT MAX(seq) FROM events WHERE club = ? AND kind = ?", (club_id(club), kind)
    )
    return None if row is None else row[0]


def _caused_after(source: str) -> int:
    """The log position a source's changes come at or after: a ``tournament:12`` or
    ``game:12`` is rated by an entry after its own (12); others may be anywhere (0). Reading
    from there, a finalisation's reply reads the newest rows, not a federation's history."""
    _, _, ident = source.partition(":")
    return int(ident) if ident.isdecimal() else 0


async def changes_with_source(db: Database, club: ClubRef, source: str) -> list[Change]:
    """The rating changes, under the club's current system, caused by ``source``
    (``tournament:12``, ``month:2026-03`` …)."""
    cid = club_id(club)
    await ensure_fresh(db, cid)
    system = await current_system(db, cid)
    return [
        Change(
            player,
            dt.date.fromisoformat(date),
            source,
            value_from_text(before),
            value_from_text(after),
            rank_from_text(rank_before),
            rank_from_text(rank_after),
            note_from_text(note),
        )
        for player, date, before, after, rank_before, rank_after, note in await db.fetchall(
            "SELECT player, date, rating_before, rating_after, rank_before, rank_after, note "
            "FROM rating_history WHERE club = ? AND system = ? AND seq >= ? AND source = ? "
            "ORDER BY seq, idx",
            (cid, system, _caused_after(source), source),
        )
    ]


async def period_name(db: Database, club: ClubRef, seq: int) -> str | None:
    """The name of the MGSZ club-games period closed at ``seq`` (rules.md §1.4), if it is one."""
    row = await db.fetchone(
        "SELECT payload FROM events WHERE seq = ? AND club = ? AND kind = ?",
        (seq, club_id(club), log.PERIOD),
    )
    if row is None:
        return None
    name: str = _payload(row[0])["tournament"]["name"]
    return name


QUIET_HORIZON_DAYS = 400
"""How far past the club's today a quiet answer looks (:func:`quiet_through`): a club whose
log does not move is asked again after at most this many days."""
QUIET_UPSERT = (
    "INSERT INTO quiet_clubs (club, seq, day, version) VALUES (?, ?, ?, ?) ON CONFLICT (club) "
    "DO UPDATE SET seq = excluded.seq, day = excluded.day, version = excluded.version"
)
"""Parameters: the club, its log position, the last day through which nothing is due, and
:func:`quiet_version`."""


def quiet_version(db: Database) -> str:
    """The versions of the rulebooks with scheduled moments (:func:`with_moments`,
    ``RULES_VERSION`` and state layout: storage.projections.system_version): a quiet note
    given by other ones is not trusted (a deploy may have changed what falls due)."""
    return " ".join(system_version(db, key) for key in sorted(with_moments(db)))


async def quiet_days(db: Database) -> dict[int, tuple[int, dt.date]]:
    """Each club the scheduler last found with nothing due, by these rulebooks
    (:func:`quiet_version`): the log position and the last day of the club's through which
    nothing is due at it (``quiet_clubs``; see :func:`still_quiet`)."""
    return {
        int(club): (int(seq), dt.date.fromisoformat(day))
        for club, seq, day in await db.fetchall(
            "SELECT club, seq, day FROM quiet_clubs WHERE version = ?", (quiet_version(db),)
        )
    }


def with_moments(db: Database) -> frozenset[str]:
    """The keys of the database's rating systems that have scheduled moments
    (``RatingSystem.scheduled``): only these may ever have something due — ``due`` is empty
    for a system with none (Swedish, GoR), so the scheduler need not fold it to ask."""
    systems = db.projections.systems
    return frozenset(key for key, factory in systems.items() if factory().scheduled)


def quiet_through(
    systems: Iterable[RatingSystem], today: dt.date, horizon_days: int = QUIET_HORIZON_DAYS
) -> dt.date | None:
    """The last day, from ``today`` to ``horizon_days`` after it, through which none of
    ``systems`` (ledgers as they stand) has anything due; ``None`` when something is due
    ``today``.

    A rulebook's moments are the days before today, the months and periods that have ended
    (``RatingSystem.due``): what is due on a day is due on every later one, so nothing due on
    a day means nothing due on any day before it, and the last quiet day is found by halving
    the span (a dozen questions of each ledger, none of which changes it).
    """
    ledgers = list(systems)

    def quiet(day: dt.date) -> bool:
        return not any(ledger.due(day) for ledger in ledgers)

    if not quiet(today):
        return None
    low, high = 0, horizon_days  # quiet at ``today + low``
    if quiet(today + dt.timedelta(days=high)):
        return today + dt.timedelta(days=high)
    while high - low > 1:
        middle = (low + high) // 2
        if quiet(today + dt.timedelta(days=middle)):
            low = middle
        else:
            high = middle
    return today + dt.timedelta(days=low)


async def still_quiet(
    db: Database, club: ClubRef, quiet: tuple[int, dt.date] | None, today: dt.date
) -> int | None:
    """``None`` when the club has nothing due still — ``quiet`` (:func:`quiet_days`) says so
    of the club's last log position through a day not before ``today``: what a rulebook has
    due depends only on the log and the club's day — else the club's last log position, to
    note with :func:`note_quiet` if asking its ledgers finds nothing due."""
    last = await last_seq(db, club)
    if quiet is not None and quiet[0] == last and today <= quiet[1]:
        return None
    return last


async def last_seq(db: Database, club: ClubRef) -> int:
    """The club's last log position (0: none)."""
    row = await db.fetchone("SELECT MAX(seq) FROM log WHERE club = ?", (club_id(club),))
    return 0 if row is None or row[0] is None else int(row[0])


async def note_quiet(db: Database, quiet: Mapping[int, tuple[int, dt.date]]) -> None:
    """Record, in one write, the clubs found with nothing due (club → log position, the last
    day through which nothing is due: :func:`quiet_through`)."""
    if not quiet:
        return
    version = quiet_version(db)
    async with db.upkeep().transaction() as tx:
        await tx.executemany(
            QUIET_UPSERT,
            [(club, seq, day.isoformat(), version) for club, (seq, day) in sorted(quiet.items())],
        )
