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

Settings read here (``/club …``, ``/weekly``): ``timezone``, ``weekly`` (``off`` or
``mon 18:00``), ``reports``/``report_hours``, ``grace_hours``, ``time`` (the club's usual time
control: the MGSZ period's multiplier, rules.md §1.4 club games), ``language`` (issue 13: each
club's notices are composed in the club's language, whatever language is current where the
scheduler runs — a /tick typed in English included).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING
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
from bot.i18n import _, _n, date_text, month_text, translated, using
from engine.calendar import Phase
from engine.system import RatingSystem
from engine.systems import SYSTEMS
from storage import schedules
from storage.errors import StorageError
from storage.events import held_months, month_period
from storage.records import Club
from storage.settings import ClubSettings

if TYPE_CHECKING:
    from bot.core.app import Core

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


def month_of(moment: dt.date) -> tuple[int, int]:
    return moment.year, moment.month


def next_month(year: int, month: int) -> tuple[int, int]:
    return (year + 1, 1) if month == 12 else (year, month + 1)


class Scheduler:
    """Runs the clubs' due work; ``deliver`` posts a notice to a club's bound chats."""

    def __init__(self, core: Core, deliver: Deliver, *, timers: bool = True) -> None:
        self.core = core
        self.deliver = deliver
        self.timers = timers
        self._lock = asyncio.Lock()
        self._aps: AsyncIOScheduler | None = None
        # the work each scheduled moment of a system needs (RatingSystem.scheduled)
        self._jobs = {
            Phase.DAY_END: self._days,
            Phase.MONTH_END: self._months,
            Phase.PERIOD_END: self._periods,
        }

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
            for club in await storage.clubs(self.db):
                settings = await storage.club_settings(self.db, club)
                tz = settings.zone
                phases = await self._scheduled(club)
                with using(settings.language):  # the club's notices in the club's language
                    for job in (
                        self._finalisations,
                        *(job for phase, job in self._jobs.items() if phase in phases),
                        self._expiries,
                        self._weekly,
                    ):
                        try:
                            done.extend(
                                f"{club.name}: {name}"
                                for name in await job(club, settings, now.astimezone(tz))
                            )
                        except Exception:  # one failing job must not stop the others
                            log.exception("scheduled %s failed for club %s", job.__name__, club.id)
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

    async def _scheduled(self, club: Club) -> frozenset[Phase]:
        """The scheduled moments any of the club's systems uses (every system is folded,
        so a club that switches system finds its days, months and periods in place)."""
        return frozenset(
            phase for ledger in await self._ledgers(club) for phase in ledger.scheduled
        )

    async def _ledgers(self, club: Club) -> list[RatingSystem]:
        """The club's ledger under every system it holds (all are folded together)."""
        found = []
        for key in SYSTEMS:
            try:
                found.append(await storage.ledger(self.db, club.id, key))
            except StorageError:
                continue  # a system this club's ledgers do not hold
        return found

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
        blocks: list[Text | Table] = [Text(f"{club.name}: {translated(notice.title)}", title=True)]
        if moved:
            blocks.append(changes_table(moved, names))
        if notice.lines:
            blocks.append(
                Text("\n".join([await marked(self.db, club, line) for line in notice.lines]))
            )
        await self._post(club, Reply(blocks=tuple(blocks)))

    async def _days(self, club: Club, settings: ClubSettings, now: dt.datetime) -> list[str]:
        """End of day (Tensuusei settles its pairs, rules.md §2.3): every past day with
        games, at midnight."""
        done: list[str] = []
        for day in await schedules.unsettled_days(self.db, club, now.date()):
            if not await storage.end_day(self.db, club, day):
                continue
            label = day.isoformat()
            done.append(_("day {day} settled", day=label))
            await self._announce(club, Phase.DAY_END, date_text(day), f"day:{label}")
        return done

    async def _months(self, club: Club, settings: ClubSettings, now: dt.datetime) -> list[str]:
        """Month end (PSG's verification, rules.md §4.5): each finished month, checked once,
        in order."""
        ended = set(await schedules.months_ended(self.db, club))
        start = (await schedules.club_started(self.db, club)).date()
        first = await schedules.first_game_day(self.db, club)
        # every month from the club's first fact on: a tournament entered late for a month
        # before the club came to hoshi still gets that month's check (calendar order)
        year, month = month_of(start if first is None else min(first, start))
        done: list[str] = []
        while (year, month) < month_of(now.date()):
            key = f"{year:04d}-{month:02d}"
            if key not in ended and await storage.end_month(self.db, club, year, month):
                done.append(_("month {month} checked", month=key))
                await self._announce(
                    club, Phase.MONTH_END, month_text(year, month), f"month:{key}"
                )
            year, month = next_month(year, month)
        return done

    async def _periods(self, club: Club, settings: ClubSettings, now: dt.datetime) -> list[str]:
        """Rating periods of club games (MGSZ, rules.md §1.4): each finished month's held
        games rated as one tournament, as the club's ledgers hold them (``open_period``)."""
        held = held_months(await self._ledgers(club))
        months = sorted(m for m in held if m < month_of(now.date()))
        done: list[str] = []
        for year, month in months:
            period = month_period(year, month)  # no time of its own (rules.md §1.4)
            if not await storage.close_period(self.db, club, period):
                continue
            done.append(_("period {month} rated", month=f"{year:04d}-{month:02d}"))
            seq = await schedules.last_event_seq(self.db, club, "period")
            await self._announce(
                club, Phase.PERIOD_END, fmt.period_title(year, month), f"tournament:{seq}"
            )
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
        day = newest.date().isoformat()
        if len(claimed) > 1:
            return [
                _(
                    "weekly summaries {first} to {date}, posted late as one",
                    first=first.date().isoformat(),
                    date=day,
                )
            ]
        return [
            _("weekly summary {date}, posted late", date=day)
            if late
            else _("weekly summary {date}", date=day)
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
