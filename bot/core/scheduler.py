"""One scheduler for every club (issue 4/6; bot.md, Scheduled work).

The schedule belongs to the club, not to a platform: everything that is due is worked out
from the club's log and settings by :meth:`Scheduler.run_due`, which the process calls at
start-up (so work missed while the bot was down runs then), whenever an APScheduler timer
fires, and — in the console — on ``/tick``. Every job is idempotent: a tournament cannot be
finalised twice, a day or a month ends once (storage refuses a second time), and each posted
notice is recorded as a job run before it is posted, so a second run of the same occurrence
is a no-op. Rating work always runs, however late; a weekly summary whose moment passed while
the bot was down (or the console's clock jumped past it) is posted once, late, for its own week,
saying so when it is later than the club's grace (issue 22).

The scheduled moments of the rulebooks — a Tensuusei day's end, a PSG month's verification,
an MGSZ club period's close — are the rulebooks' own: the scheduler asks each of the club's
ledgers what it has due on the club's today (``RatingSystem.due``), records them all in one
write (``storage.end_due``) and announces them in the current system's words; it knows no
rule of its own.

Settings read here (``/club …``, ``/weekly``): ``timezone``, ``weekly`` (``off`` or
``mon 18:00``), ``reports``/``report_hours``, ``grace_hours``, ``language`` (issue 13: each
club's notices are composed in the club's language, whatever language is current where the
scheduler runs — a /tick typed in English included).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol
from zoneinfo import ZoneInfo

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger
from apscheduler.triggers.interval import IntervalTrigger

import storage
from bot.core import format as fmt
from bot.core.notices import (
    changes_table,
    finalisation_reply,
    marked,
    pending_amounts,
    tournament_players,
    weekly_reply,
)
from bot.core.replies import Notice, Reply, Table, Text
from bot.i18n import Month, _, _n, date_text, month_text, using
from engine.calendar import Phase
from engine.systems import SYSTEMS
from engine.types import DayEnded, Event, MonthEnded, PeriodClosed
from storage import schedules
from storage.errors import StorageError
from storage.records import Club
from storage.settings import ClubSettings

if TYPE_CHECKING:
    from bot.config import Config
    from storage.db import Clock

log = logging.getLogger("hoshi.scheduler")

Deliver = Callable[[Notice], Awaitable[object]]
DEFAULT_WEEKLY = "mon 18:00"  # what /schedule weekly on sets
WEEKLY = "weekly:"  # a weekly summary's occurrence key: weekly:2026-11-23 (its day)
SWEEP_S = 300  # a safety net besides the precise timers


def last_weekly(now: dt.datetime, weekday: int, at: dt.time) -> dt.datetime:
    """The latest ``weekday at`` (club time) at or before ``now``."""
    candidate = dt.datetime.combine(now.date(), at, tzinfo=now.tzinfo)
    candidate -= dt.timedelta(days=(candidate.weekday() - weekday) % 7)
    if candidate > now:
        candidate -= dt.timedelta(days=7)
    return candidate


def moment_of(event: Event) -> tuple[Phase, str, str, str]:
    """A recorded scheduled moment as the club is told of it: its phase, what the run
    says it did, its label in the club's language and the source of its changes."""
    if isinstance(event, DayEnded):
        day = event.date.isoformat()
        done = _("day {day} settled", day=event.date)  # a date: each language writes it
        return Phase.DAY_END, done, date_text(event.date), f"day:{day}"
    if isinstance(event, MonthEnded):
        key = f"{event.year:04d}-{event.month:02d}"
        label = month_text(event.year, event.month)
        done = _("month {month} checked", month=Month(event.year, event.month))
        return Phase.MONTH_END, done, label, f"month:{key}"
    if isinstance(event, PeriodClosed):
        start = event.tournament.start
        done = _("period {month} rated", month=Month(start.year, start.month))
        label = fmt.period_title(start.year, start.month)
        return Phase.PERIOD_END, done, label, f"tournament:{event.tournament.id}"
    raise TypeError(f"not a scheduled moment: {event!r}")


class Host(Protocol):
    """What the scheduler needs of the core (:class:`~bot.core.app.Core` is one): its
    database, config and clock — a protocol, so that the core may hold its scheduler without
    the two importing each other (tests/bot/test_imports.py)."""

    db: storage.Database
    config: Config
    clock: Clock


class Scheduler:
    """Runs the clubs' due work; ``deliver`` posts a notice to a club's bound chats."""

    def __init__(self, core: Host, deliver: Deliver, *, timers: bool = True) -> None:
        self.core = core
        self.deliver = deliver
        self.timers = timers
        self._lock = asyncio.Lock()
        # clubs found with nothing due through a day (storage.schedules.quiet_days), and
        # those found so now
        self._quiet: dict[int, tuple[int, dt.date]] = {}
        self._noted: dict[int, tuple[int, dt.date]] = {}
        self._moments_of: frozenset[str] | None = None  # systems that may have something due
        self._aps: AsyncIOScheduler | None = None

    @property
    def db(self) -> storage.Database:
        return self.core.db

    # ---------------------------------------------------------------- lifecycle

    async def start(self) -> list[str]:
        """Run whatever is due now (missed while down), then arm the timers."""
        done = await self.run_due()
        if self.timers:
            aps = AsyncIOScheduler(timezone=dt.UTC)
            aps.add_job(
                self.run_due,
                IntervalTrigger(seconds=SWEEP_S),
                id="hoshi-sweep",
                coalesce=True,
                max_instances=1,
                replace_existing=True,
            )
            aps.start()
            self._aps = aps
            await self._arm()
        return done

    async def stop(self) -> None:
        if self._aps is not None:
            self._aps.shutdown(wait=False)
            self._aps = None

    async def _arm(self) -> None:
        """A precise timer at the next moment something becomes due."""
        if self._aps is None:
            return
        moment = await self.next_due()
        if moment is not None:
            self._aps.add_job(
                self.run_due,
                DateTrigger(run_date=moment),
                id="hoshi-next",
                coalesce=True,
                max_instances=1,
                replace_existing=True,
                misfire_grace_time=None,
            )

    # ---------------------------------------------------------------- the work

    async def run_due(self) -> list[str]:
        """Everything due for every club, once; returns what ran (``club: job``)."""
        async with self._lock:
            done: list[str] = []
            now = self.core.clock()
            self._quiet = await schedules.quiet_days(self.db)
            self._noted = {}
            for club in await storage.clubs(self.db):
                settings = await storage.club_settings(self.db, club)
                tz = settings.zone
                with using(settings.language):  # the club's notices in the club's language
                    for job in (
                        self._finalisations,
                        self._moments,
                        self._expiries,
                        self._weekly,
                    ):
                        try:
                            # texts kept as the catalogue's (Msg): whoever reads the list
                            # (/tick) gives them in its own reader's language
                            done.extend(
                                _("{club}: {job}", club=club.name, job=name)
                                for name in await job(club, settings, now.astimezone(tz))
                            )
                        except Exception:  # one failing job must not stop the others
                            log.exception("scheduled %s failed for club %s", job.__name__, club.id)
                noted = self._noted.get(club.id)
                if noted is not None:
                    # nothing left due: the jobs after the moments add no day, month or
                    # period to end (a summary, an expired report's void)
                    self._noted[club.id] = (await schedules.last_seq(self.db, club), noted[1])
            await schedules.note_quiet(self.db, self._noted)
            await self._daily_backup(now)
            await self._arm()
            return done

    async def _daily_backup(self, now: dt.datetime) -> None:
        """The database's daily backup, after ``[backup] hour`` (the config's time zone), and
        the oldest beyond ``[backup] keep`` deleted (issue 6/6). A backup taken since today's
        hour — by this job, or by hand with ``hoshi backup`` — makes a re-run (after a crash
        too) a no-op. Only a bot on the real clock does it, not the console's hand-moved one."""
        from pathlib import Path

        from storage import backup

        settings, path = self.core.config.backup, self.db.target
        if not self.timers or settings.keep <= 0 or self.db.dialect != "sqlite":
            return  # PostgreSQL: the server's own backups (pg_dump), README "Backups"
        if path == ":memory:":
            return
        local = now.astimezone(ZoneInfo(self.core.config.timezone))
        due = dt.datetime.combine(local.date(), dt.time(settings.hour), tzinfo=local.tzinfo)
        directory = settings.directory_for(Path(path))
        taken = [backup.taken_at(b) or due for b in backup.backups(directory)]
        if local < due or any(at >= due for at in taken):
            return
        try:
            made = await backup.backup(Path(path), directory, now=now)
            removed = backup.prune(directory, settings.keep)
        except Exception:  # the bot goes on; the next sweep tries again
            log.exception("the daily backup into %s failed", directory)
            return
        log.info("daily backup %s; %d older removed", made, len(removed))

    async def _post(self, club: Club, reply: Reply) -> None:
        try:
            await self.deliver(Notice(club.id, reply))
        except Exception:
            log.exception("could not deliver a notice to club %s", club.id)

    async def _finalisations(
        self, club: Club, settings: ClubSettings, now: dt.datetime
    ) -> list[str]:
        done: list[str] = []
        for tournament, due in await schedules.scheduled_finalisations(self.db, club):
            if due > now:
                break
            row = await storage.tournament(self.db, club, tournament)
            if row is None or row.finalised:
                continue
            players = await tournament_players(self.db, club, tournament)
            before = await pending_amounts(self.db, club, players)
            changes = await storage.finalise_tournament(
                self.db, club, tournament, actor="scheduler"
            )
            # run late (the bot was down): the reply says the day it counts at
            reply = await finalisation_reply(
                self.db,
                club,
                row.tournament.name,
                changes,
                pending_before=before,
                ended=row.tournament.end,
                today=now.date(),
            )
            await self._post(club, reply)
            done.append(_("finalised {tournament}", tournament=row.tournament.name))
        return done

    async def _due(self, club: Club, today: dt.date) -> tuple[list[Event], dt.date | None]:
        """What each of the club's ledgers has due on the club's ``today``
        (``RatingSystem.due``; every system is folded, so a club that switches system finds
        its days, months and periods in place; one with no scheduled moments has none:
        storage.schedules.with_moments), and the last day through which none has anything
        due (``None``: something is due today; storage.schedules.quiet_through)."""
        due: list[Event] = []
        through: dt.date | None = today + dt.timedelta(days=schedules.QUIET_HORIZON_DAYS)
        if self._moments_of is None:
            self._moments_of = schedules.with_moments(self.db)
        for key in SYSTEMS:
            if key not in self._moments_of:
                continue  # no scheduled moments: never anything due (RatingSystem.due)
            try:
                ledger = await storage.ledger(self.db, club.id, key)
            except StorageError:
                continue  # a system this club's ledgers do not hold
            # asked at once: the ledger is not held across an await (a write may replace it)
            due.extend(ledger.due(today))
            quiet = schedules.quiet_through([ledger], today)
            through = None if quiet is None or through is None else min(through, quiet)
        return due, through

    async def _announce(self, club: Club, phase: Phase, label: str, source: str) -> None:
        """Tell the club what the moment ``label`` changed, in the current system's words
        (nothing when it has nothing to say): its notice, the changes that moved."""
        changes = await schedules.changes_with_source(self.db, club, source)
        notice = (await storage.ledger(self.db, club.id)).announcement(phase, label, changes)
        if notice is None:
            return
        names = {p.id: p.name for p in await storage.players(self.db, club, guests=True)}
        moved = [
            c
            for c in changes
            if c.rating_after != c.rating_before or c.rank_after != c.rank_before
        ]
        # one text of the catalogue (the period's name in it too): given again in the
        # language of whoever reads it (the console's operator)
        title = _("{club}: {job}", club=club.name, job=notice.title)
        blocks: list[Text | Table] = [Text(title, title=True)]
        if moved:
            blocks.append(changes_table(moved, names))
        if notice.lines:
            blocks.append(
                Text("\n".join([await marked(self.db, club, line) for line in notice.lines]))
            )
        await self._post(club, Reply(blocks=tuple(blocks)))

    async def _moments(self, club: Club, settings: ClubSettings, now: dt.datetime) -> list[str]:
        """The scheduled moments the club's rulebooks have due (a day's end, a month's
        verification, a club period's close: ``RatingSystem.due``), recorded in one write in
        calendar order, each once; then those of the current system announced in its words."""
        today = now.date()
        last = await schedules.still_quiet(self.db, club, self._quiet.get(club.id), today)
        if last is None:
            return []  # nothing was due at this log position through today: nothing is
        due, through = await self._due(club, today)
        if not due:
            assert through is not None
            self._noted[club.id] = (last, through)
            return []
        written = await storage.end_due(self.db, club, due)
        _, through = await self._due(club, today)
        if through is not None:  # all done: quiet at the club's jobs' end
            self._noted[club.id] = (0, through)
        phases = (await storage.ledger(self.db, club.id)).scheduled
        done: list[str] = []
        for event in written:
            phase, what, label, source = moment_of(event)
            done.append(what)
            if phase in phases:
                await self._announce(club, phase, label, source)
        return done

    async def _expiries(self, club: Club, settings: ClubSettings, now: dt.datetime) -> list[str]:
        """Player reports nobody confirmed in time are voided (never rated), reporter told."""
        hours = settings.report_hours
        done: list[str] = []
        for row in await storage.pending_games(self.db, club):
            if row.entry.at + dt.timedelta(hours=hours) > now:
                continue
            if not await schedules.claim_job(self.db, club, f"expire:{row.id}"):
                continue
            await storage.void_game(
                self.db,
                club,
                row.id,
                actor="scheduler",
                # TRANSLATORS: the reason recorded with a report voided unconfirmed (h: hours)
                reason=_("expired: not confirmed within {hours} h", hours=hours),
            )
            await self._post(
                club,
                Reply.text(
                    _n(
                        "Report #{number} ({result}, {date}) expired: nobody confirmed it "
                        "within {n} hour, so it was not rated. Reporter: {reporter}. Post it "
                        "again, or ask an organiser to record it.",
                        "Report #{number} ({result}, {date}) expired: nobody confirmed it "
                        "within {n} hours, so it was not rated. Reporter: {reporter}. Post it "
                        "again, or ask an organiser to record it.",
                        hours,
                        number=row.number,
                        result=fmt.result(row.game),
                        date=date_text(row.game.date),
                        reporter=row.entry.actor,
                    )
                ),
            )
            done.append(_("report #{number} expired", number=row.number))
        return done

    async def _weekly(self, club: Club, settings: ClubSettings, now: dt.datetime) -> list[str]:
        """Each weekly summary whose moment has come, once: one the bot was down for, or the
        clock jumped past, is posted late with its week, never skipped (issue 22); later than
        the club's grace after its moment it says it is late. Several missed at once are
        posted as one summary of their weeks. An occurrence already posted (claimed) is never
        posted again."""
        rule = settings.weekly
        if rule is None:
            return []
        since = await schedules.setting_changed_at(self.db, club, "weekly")
        if since is None:
            since = await schedules.club_started(self.db, club)
        last = await schedules.last_occurrence(self.db, club, WEEKLY)
        due: list[dt.datetime] = []
        moment = last_weekly(now, *rule)
        # switched on after a week's moment: the first one is the next (not the missed ones)
        while moment >= since and (last is None or moment.date() > last):
            due.append(moment)
            moment -= dt.timedelta(days=7)
        grace = dt.timedelta(hours=settings.grace_hours)
        claimed = [
            moment
            for moment in reversed(due)
            if await schedules.claim_job(self.db, club, f"{WEEKLY}{moment.date().isoformat()}")
        ]
        if not claimed:
            return []
        # several weeks missed (the bot was down for them): one summary of them all, not a
        # post a week at once; nothing of them is left out
        first, newest = claimed[0], claimed[-1]
        late = now - first > grace
        reply = await weekly_reply(self.db, club, first - dt.timedelta(days=7), newest, late=late)
        await self._post(club, reply)
        if len(claimed) > 1:
            return [
                _(
                    "weekly summaries {first} to {date}, posted late as one",
                    first=first.date(),
                    date=newest.date(),
                )
            ]
        return [
            _("weekly summary {date}, posted late", date=newest.date())
            if late
            else _("weekly summary {date}", date=newest.date())
        ]

    # ---------------------------------------------------------------- when next

    async def next_due(self) -> dt.datetime | None:
        """The next moment any club has work: a scheduled finalisation, a midnight (day or
        month end, period), a weekly summary or a report's expiry."""
        now = self.core.clock()
        moments: list[dt.datetime] = []
        for club in await storage.clubs(self.db):
            settings = await storage.club_settings(self.db, club)
            tz = settings.zone
            local = now.astimezone(tz)
            midnight = dt.datetime.combine(
                local.date() + dt.timedelta(days=1), dt.time(), tzinfo=tz
            )
            moments.append(midnight)
            moments.extend(
                due
                for _, due in await schedules.scheduled_finalisations(self.db, club)
                if due > now
            )
            rule = settings.weekly
            if rule is not None:
                moments.append(last_weekly(local, *rule) + dt.timedelta(days=7))
            hours = settings.report_hours
            moments.extend(
                row.entry.at + dt.timedelta(hours=hours)
                for row in await storage.pending_games(self.db, club)
            )
        future = [m for m in moments if m > now]
        return min(future) if future else None
