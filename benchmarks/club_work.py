"""What one club's own work costs on the federation's club (issue 23, Targets): its club-wide
moments, ``/rating NAME all`` cold and warm, the SQL of one ``/result``, a result entered a
year back, and a switch of rating system — each through the public entry points (the command
core ``Core.handle`` as a Telegram organiser or player asks, or the storage functions the
scheduler calls), so that they measure whatever the code does.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import storage
from benchmarks.federation import CLUB_TIME, club_period
from bot.core.app import Core
from bot.core.invocation import Caller, Invocation
from bot.core.replies import Reply
from engine.timecontrol import TimeControl
from engine.types import Result
from storage.db import Database

ORGANISER = Caller("telegram", "4243", "Bench Organiser", chat_admin=True)
PLAYER = Caller("telegram", "4242", "Bench Player")
EVENT_DAY = dt.date(2029, 12, 31)
"""The club night whose day, month and rating period end in the events phase: the last of
the year before the bench's clock (2030-01-01), after the whole federation's history — what
the scheduler ends at midnight (bot/core/scheduler.py: the day, the month, then the period)."""
SWITCH_TO = "psg"
"""The other system of the switch (and back again to the club's own)."""


def quoted(name: str) -> str:
    return f'"{name}"'


def text_of(reply: Reply) -> str:
    """A reply's blocks as one line (for error messages)."""
    return " / ".join(str(getattr(block, "text", block)) for block in reply.blocks)


@dataclass
class Asker:
    """Commands through ``Core.handle`` in one Telegram chat, each as an update of its own
    (a delivery key, as the adapter gives it); an error reply fails the phase."""

    core: Core
    chat: str
    update: int = 0
    asked: list[str] = field(default_factory=list)

    async def __call__(self, command: str, text: str, caller: Caller = PLAYER) -> float:
        """Seconds to answer ``/command text``."""
        self.update += 1
        inv = Invocation(
            command, text, caller, self.chat, delivery=f"telegram:bench:{self.update}"
        )
        started = time.perf_counter()
        reply = await self.core.handle(inv)
        elapsed = time.perf_counter() - started
        if reply.error:
            raise RuntimeError(f"/{command} {text}: {text_of(reply)}")
        self.asked.append(f"/{command} {text}")
        return elapsed


async def games_of(db: Database, club: int) -> int:
    row = await db.fetchone("SELECT COUNT(*) FROM games WHERE club = ?", (club,))
    return int(row[0]) if row else 0


async def club_events(
    db: Database, club: int, pairs: Callable[[], tuple[int, int]], games: int
) -> dict[str, Any]:
    """A club night of ``games`` games on :data:`EVENT_DAY` (recorded untimed, on its
    evening), then, each timed, what the scheduler writes after it at midnight: the day's end
    (Tensuusei, ``storage.end_day``), the month's end (PSG, ``storage.end_month``) and the
    month's rating period closed (MGSZ, ``storage.close_period``). Each must write its fact."""
    rng = random.Random(17)
    club_time = TimeControl.parse(CLUB_TIME)
    night = []
    for _ in range(games):
        a, b = pairs()
        result = Result.BLACK if rng.random() < 0.5 else Result.WHITE
        night.append(
            storage.new_game(a, b, result, stones=0, komi=6, date=EVENT_DAY, time=club_time)
        )
    clock = db.clock  # the night is recorded on its evening: a game entered for a day that
    db.clock = lambda: dt.datetime.combine(EVENT_DAY, dt.time(20), tzinfo=dt.UTC)  # has ended
    try:  # is settled as it is entered (rules.md §2.3), and nothing would be left to time
        await storage.record_games(db, club, night, actor="bench")
    finally:
        db.clock = clock
    found: dict[str, Any] = {"day": EVENT_DAY.isoformat(), "night_games": games}
    year, month = EVENT_DAY.year, EVENT_DAY.month
    moments: tuple[tuple[str, Callable[[], Awaitable[bool]]], ...] = (
        ("day_end", lambda: storage.end_day(db, club, EVENT_DAY)),
        ("month_end", lambda: storage.end_month(db, club, year, month)),
        ("period_close", lambda: storage.close_period(db, club, club_period(year, month))),
    )
    for key, write in moments:
        started = time.perf_counter()
        written = await write()
        found[f"{key}_ms"] = (time.perf_counter() - started) * 1000
        if not written:
            raise RuntimeError(f"the {key.replace('_', ' ')} of {EVENT_DAY} was written already")
    return found


async def rating_all(
    ask: Asker,
    forget: Callable[[], Awaitable[None]],
    names: Callable[[], str],
    cold: int,
    warm: int,
    progress: Callable[[int], None] = lambda _: None,
) -> dict[str, Any]:
    """``/rating NAME all`` (every system side by side): ``cold`` times as the first command
    after ``forget()`` dropped whatever the process keeps in memory (as after a restart: the
    snapshot and the tail are read again), then ``warm`` times in a row."""
    cold_s = []
    for i in range(cold):
        await forget()
        cold_s.append(await ask("rating", f"{quoted(names())} all"))
        progress(i + 1)
    warm_s = [await ask("rating", f"{quoted(names())} all") for _ in range(warm)]
    return {"cold_s": cold_s, "warm_s": warm_s}


async def result_cost(ask: Asker, db: Database, club: int, a: str, b: str) -> dict[str, Any]:
    """The SQL statements and write transactions of one club ``/result`` (today's date) by the
    organiser, through the core with its update key, as Telegram delivers it (the ledgers are
    current; issue 23's target: at most 12 statements in one write transaction)."""
    await ask("rating", quoted(a))  # the ledgers and memos as a busy club has them
    before = await games_of(db, club)
    statements, transactions = db.statements, db.transactions
    seconds = await ask("result", f"{quoted(a)} {quoted(b)} B+", ORGANISER)
    found = {
        "statements": db.statements - statements,
        "transactions": db.transactions - transactions,
        "s": seconds,
    }
    if await games_of(db, club) != before + 1:
        raise RuntimeError("the counted /result recorded no game")
    return found


async def backdated(
    ask: Asker, db: Database, club: int, a: str, b: str, day: dt.date
) -> dict[str, Any]:
    """``/result A B B+ date=DAY`` by the organiser: a game a year before the federation's last
    day, which rewrites every rating since (calendar order). The ledgers are made current
    first (untimed: other processes wrote to the club)."""
    await ask("rating", quoted(a))
    before = await games_of(db, club)
    seconds = await ask("result", f"{quoted(a)} {quoted(b)} B+ date={day.isoformat()}", ORGANISER)
    if await games_of(db, club) != before + 1:
        raise RuntimeError(f"the /result dated {day} recorded no game")
    return {"date": day.isoformat(), "s": seconds}


async def switch(ask: Asker, own: str, other: str = SWITCH_TO) -> dict[str, Any]:
    """``/club system OTHER`` by the organiser, timed, then back to the club's own."""
    there = await ask("club", f"system {other}", ORGANISER)
    back = await ask("club", f"system {own}", ORGANISER)
    return {"to": other, "s": there, "back_s": back}


async def settled(db: Database) -> None:
    """Wait for the background snapshots under way (storage.snapshots): forgetting the
    ledgers cancels them, and a cancelled one could leave the writer inside ``BEGIN``."""
    running = list(db.projections.snapshot_tasks.values())
    await asyncio.gather(*running, return_exceptions=True)


async def forget_everything(db: Database) -> None:
    """Drop what the process keeps of the database in memory (``Projections.clear``, as a
    closed database does): the next command reads its club as a fresh process would."""
    await settled(db)
    db.projections.clear()
