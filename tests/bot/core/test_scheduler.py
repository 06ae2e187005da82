"""Scheduled work with a hand-moved clock (issue 4/6): finalisation exactly once across
restarts, a Tensuusei day settled once, PSG demotion after three months below the line and not
after two, player reports confirmed, disputed and expired. Nothing here sleeps."""

from __future__ import annotations

import asyncio
import datetime as dt
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import storage
from bot.clock import FakeClock
from bot.config import Config
from bot.core.app import Core
from bot.core.invocation import Caller, Invocation
from bot.core.replies import Notice, Reply
from bot.core.scheduler import Scheduler, last_weekly
from bot.i18n import translated, using
from engine.calendar import Phase
from engine.ranks import Rank
from engine.system import Pending
from storage.settings import parse_weekly

ADMIN = Caller("console", "admin", "Admin Ági", chat_admin=True)
ANNA = Caller("console", "11", "Anna")
BELA = Caller("console", "12", "Béla")
CHAT = "club-chat"


class Bot:
    """One run of hoshi on a database: a core, a scheduler and what it posted."""

    def __init__(self, db: storage.Database, clock: FakeClock) -> None:
        self.db, self.clock = db, clock
        self.core = Core(db, Config(), clock=clock)
        self.posted: list[Notice] = []
        self.core.deliver = self._deliver
        self.scheduler = self.core.scheduler = Scheduler(self.core, self._deliver, timers=False)

    async def _deliver(self, notice: Notice) -> None:
        self.posted.append(notice)

    async def say(self, line: str, caller: Caller = ADMIN) -> Reply:
        name, _, rest = line.lstrip("/").partition(" ")
        return await self.core.handle(Invocation(name, rest, caller, CHAT))

    async def link(self, name: str, caller: Caller) -> Reply:
        """A member's ``/link NAME`` and the administrator's press of its Confirm button."""
        (button,) = (await self.say(f"/link {name}", caller)).buttons
        return await self.say(button.command)

    def texts(self) -> list[str]:
        return [n.reply.as_text() for n in self.posted]


class Process:
    """Start, stop and restart hoshi on one database file with one moving clock."""

    def __init__(self, path: Path, clock: FakeClock) -> None:
        self.path, self.clock = path, clock
        self.bot: Bot | None = None

    async def start(self) -> Bot:
        db = await storage.open_db(self.path, clock=self.clock)
        self.bot = Bot(db, self.clock)
        await self.bot.scheduler.start()  # the start-up sweep: what was missed runs now
        return self.bot

    async def stop(self) -> None:
        assert self.bot is not None
        await self.bot.db.close()
        self.bot = None

    async def restart(self) -> Bot:
        await self.stop()
        return await self.start()


@pytest.fixture
async def process(tmp_path: Path) -> AsyncIterator[Process]:
    clock = FakeClock(dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC))  # a Monday
    proc = Process(tmp_path / "club.sqlite", clock)
    bot = await proc.start()
    club = await storage.create_club(bot.db, "Club", "mgsz", actor=ADMIN.identity)
    await storage.set_setting(bot.db, club, "language", "en", actor=ADMIN.identity)
    await storage.bind_chat(bot.db, club, "console", CHAT, actor=ADMIN.identity)
    yield proc
    if proc.bot is not None:
        await proc.stop()


async def count_events(db: storage.Database, kind: str) -> int:
    row = await db.fetchone("SELECT COUNT(*) FROM events WHERE kind = ?", (kind,))
    assert row is not None
    return int(row[0])


@pytest.mark.parametrize(
    "restarts",
    [(), ("before",), ("before", "during_down", "after")],
    ids=["no-restart", "restart-before", "restart-before-down-after"],
)
async def test_a_tournament_is_finalised_at_its_time_exactly_once(
    process: Process, restarts: tuple[str, ...]
) -> None:
    bot = process.bot
    assert bot is not None
    for line in (
        "/register Nagy Péter 5k",
        "/register Kovács Anna 5k",
        "/tournament new Spring Cup start=2026-03-02 end=2026-03-02 rounds=1 time=60m even",
        "/tournament result 1 Nagy Péter Kovács Anna B+",
        "/tournament schedule Spring Cup 20:00",
    ):
        assert not (await bot.say(line)).error, line
    process.clock.set(dt.datetime(2026, 3, 2, 19, 0, tzinfo=dt.UTC))
    if "before" in restarts:
        bot = await process.restart()
    assert await bot.scheduler.run_due() == []
    if "during_down" in restarts:  # down across the due time: the start-up sweep runs it
        await process.stop()
        process.clock.set(dt.datetime(2026, 3, 3, 8, 0, tzinfo=dt.UTC))
        bot = await process.start()
    else:
        process.clock.set(dt.datetime(2026, 3, 2, 20, 0, tzinfo=dt.UTC))
        assert await bot.scheduler.run_due() == ["Club: finalised Spring Cup"]
    assert await count_events(bot.db, "finalise") == 1
    assert sum("Spring Cup is rated" in t for t in bot.texts()) == 1
    if "after" in restarts:
        bot = await process.restart()
    bot.posted.clear()
    process.clock.advance(dt.timedelta(days=1))
    assert "Club: finalised Spring Cup" not in await bot.scheduler.run_due()
    assert await count_events(bot.db, "finalise") == 1
    assert not any("Spring Cup is rated" in t for t in bot.texts())  # nothing posted twice
    card = await storage.card(
        bot.db, 1, (await storage.find_player(bot.db, 1, "Nagy")).partial[0].id
    )
    assert card.rating == 1733  # 1720 + floor(25 × 0.5 + 0.5): C = 15 + 10, Δ0 → 0.5 (§1.3–1.4)


async def test_a_tensuusei_day_is_settled_once_even_across_a_restart(process: Process) -> None:
    bot = process.bot
    assert bot is not None
    for line in (
        "/club system tensuusei",
        "/register Nagy Péter 1d",
        "/register Kovács Anna 1d",
        "/result Nagy Péter Kovács Anna W+",
        "/result Kovács Anna Nagy Péter W+",
        "/result Nagy Péter Kovács Anna W+ again",  # a second game like the first
    ):
        assert not (await bot.say(line)).error, line
    # before midnight the points are pending (rules.md §2.3)
    anna = (await storage.find_player(bot.db, 1, "Kovács Anna")).player
    assert anna is not None
    card = await storage.card(bot.db, 1, anna.id)
    assert (card.rating, card.pending) == (130, Pending(1, "points", Phase.DAY_END))
    process.clock.set(dt.datetime(2026, 3, 3, 0, 1, tzinfo=dt.UTC))
    assert "Club: day Mar 2, 2026 settled" in await bot.scheduler.run_due()
    assert (await storage.card(bot.db, 1, anna.id)).rating == 131  # 2–1 for White Anna
    assert any("the day Mar 2, 2026 is settled" in t for t in bot.texts())
    bot = await process.restart()
    assert await bot.scheduler.run_due() == []
    assert await count_events(bot.db, "day") == 1
    assert (await storage.card(bot.db, 1, anna.id)).rating == 131


async def test_psg_demotion_after_three_months_below_the_line_and_not_after_two(
    process: Process,
) -> None:
    bot = process.bot
    assert bot is not None
    for line in ("/club system psg", "/register Nagy Péter 3d override"):
        assert not (await bot.say(line)).error, line
    nagy = (await storage.find_player(bot.db, 1, "Nagy Péter")).player
    assert nagy is not None

    async def month(year: int, month_: int, egf: int) -> Rank:
        assert not (await bot.say(f"/egf Nagy Péter {egf} {year}-{month_:02d}")).error
        first = dt.date(year + month_ // 12, month_ % 12 + 1, 1)
        process.clock.set(dt.datetime.combine(first, dt.time(0, 5), tzinfo=dt.UTC))
        checked = f"Club: month {dt.date(year, month_, 1):%B %Y} checked"
        assert checked in await bot.scheduler.run_due()
        return (await storage.card(bot.db, 1, nagy.id)).rank

    # 3d's model EGF rating is 2300 (rules.md §4.4); 2150 is more than 100 below it
    assert await month(2026, 3, 2150) == Rank.parse("3d")
    assert await month(2026, 4, 2150) == Rank.parse("3d")  # two months: not yet …
    warning = [t for t in bot.texts() if "month-end verification April 2026" in t]
    assert len(warning) == 1 and "Nagy Péter 2" in warning[0]  # … but warned
    assert "Down one rank" not in warning[0]
    assert await month(2026, 5, 2150) == Rank.parse("2d")  # the third month: one rank down
    (notice,) = [t for t in bot.texts() if "month-end verification May 2026" in t]
    assert "Nagy Péter 3d → 2d" in notice
    assert "(PSG regulations §23(1))" in notice and "rules.md" not in notice
    bot = await process.restart()
    assert await bot.scheduler.run_due() == []  # every month checked once


async def test_reports_confirmed_disputed_and_expired(process: Process) -> None:
    bot = process.bot
    assert bot is not None
    for line in ("/register Anna Kovács 5k", "/register Béla Nagy 5k", "/club reports on 48"):
        assert not (await bot.say(line)).error, line
    assert not (await bot.link("Anna Kovács", ANNA)).error
    assert not (await bot.link("Béla Nagy", BELA)).error

    async def report() -> int:
        # three games like one another: "again" records each (else the bot asks)
        reply = await bot.say("/result Anna Kovács Béla Nagy B+ again", ANNA)
        assert not reply.error and [b.command.split()[0] for b in reply.buttons] == [
            "/confirm",
            "/dispute",
        ]
        return int(reply.buttons[0].command.split()[1])

    confirmed, disputed, expired = await report(), await report(), await report()
    # the reporter cannot confirm their own report; the opponent can
    assert "your opponent must confirm" in (await bot.say(f"/confirm {confirmed}", ANNA)).as_text()
    assert "is confirmed" in (await bot.say(f"/confirm {confirmed}", BELA)).as_text()
    reply = await bot.say(f"/dispute {disputed} I won by time", BELA)
    assert "disputed" in reply.as_text()
    (notice,) = [t for t in bot.texts() if f"Report #{disputed} is disputed" in t]
    assert "I won by time" in notice and f"/confirm {disputed}" in notice
    bot.clock.advance(dt.timedelta(hours=49))
    done = await bot.scheduler.run_due()
    assert (
        f"Club: report #{disputed} expired" in done and f"Club: report #{expired} expired" in done
    )
    assert any(f"Report #{expired}" in t and "expired" in t for t in bot.texts())
    statuses = {g.number: g.status for g in await storage.club_games(bot.db, 1)}
    assert statuses == {confirmed: "ok", disputed: "voided", expired: "voided"}
    assert await bot.scheduler.run_due() == []  # an expiry runs once


async def test_players_cannot_report_unless_the_club_allows_it(process: Process) -> None:
    bot = process.bot
    assert bot is not None
    await bot.say("/register Anna Kovács 5k")
    await bot.say("/register Béla Nagy 5k")
    await bot.link("Anna Kovács", ANNA)
    reply = await bot.say("/result Anna Kovács Béla Nagy B+", ANNA)
    assert reply.error and "/club reports on" in reply.as_text()
    await bot.say("/club reports on")
    reply = await bot.say("/result Kovács Anna Béla Nagy B+", BELA)  # Béla is not linked
    assert reply.error and "only their own games" in reply.as_text()


def test_weekly_rules() -> None:
    assert parse_weekly("off") is None
    assert parse_weekly("Sun 20:00") == (6, dt.time(20, 0))
    with pytest.raises(ValueError, match=r"e\.g\. mon 18:00"):
        parse_weekly("someday")
    monday = dt.datetime(2026, 3, 2, 17, 0, tzinfo=dt.UTC)
    assert last_weekly(monday, 0, dt.time(18)) == dt.datetime(2026, 2, 23, 18, tzinfo=dt.UTC)
    assert last_weekly(monday, 0, dt.time(9)) == dt.datetime(2026, 3, 2, 9, tzinfo=dt.UTC)


async def test_an_empty_week_posts_a_short_line(process: Process) -> None:
    bot = process.bot
    assert bot is not None
    await bot.say("/weekly on mon 18:00")
    bot.clock.set(dt.datetime(2026, 3, 9, 18, 1, tzinfo=dt.UTC))
    await bot.scheduler.run_due()
    bot.posted.clear()
    bot.clock.set(dt.datetime(2026, 3, 16, 18, 1, tzinfo=dt.UTC))
    assert await bot.scheduler.run_due() == ["Club: weekly summary Mar 16, 2026"]
    (text,) = bot.texts()
    assert "A quiet week" in text


async def test_tensuusei_late_reports_are_settled_with_their_day(process: Process) -> None:
    """A game reported for a day that has ended belongs to that day (its pair's net) and is
    settled as it is entered, even when that day had no games (rules.md §2.3, late reports):
    never left pending, not even until the scheduler's next end of day."""
    bot = process.bot
    assert bot is not None
    for line in ("/club system tensuusei", "/register Nagy Péter 1k", "/register Kovács Anna 1d"):
        assert not (await bot.say(line)).error, line
    anna = (await storage.find_player(bot.db, 1, "Kovács Anna")).player
    assert anna is not None
    assert not (await bot.say("/result Nagy Péter Kovács Anna W+")).error
    process.clock.set(dt.datetime(2026, 3, 3, 0, 1, tzinfo=dt.UTC))
    assert "Club: day Mar 2, 2026 settled" in await bot.scheduler.run_due()
    assert (await storage.card(bot.db, 1, anna.id)).rating == 131
    # a second game of 2 March, reported on the 3rd: the day's net for the pair is now 2–0
    said = await bot.say("/result Nagy Péter Kovács Anna W+ date=2026-03-02 again")
    assert said.as_text().startswith("Game #"), said.as_text()
    card = await storage.card(bot.db, 1, anna.id)
    assert (card.rating, card.pending) == (132, None)
    # a game of 1 March, a day that had no games: a loss for Anna, settled as it is entered
    # (recording it ended 1 March: the scheduler has nothing left to do for that day)
    assert not (await bot.say("/result Kovács Anna Nagy Péter W+ date=2026-03-01")).error
    card = await storage.card(bot.db, 1, anna.id)
    assert (card.rating, card.pending) == (131, None)
    process.clock.set(dt.datetime(2026, 3, 4, 0, 1, tzinfo=dt.UTC))
    assert not [done for done in await bot.scheduler.run_due() if "2026-03-01" in done]
    card = await storage.card(bot.db, 1, anna.id)
    assert (card.rating, card.pending) == (131, None)  # 130 − 1 on 1 March, + 2 on 2 March
    # a game of 3 March (ended at midnight, before the scheduler ran): no later day has ended,
    # so only recording it can end its day — it is settled in the reply, not minutes later
    said = await bot.say("/result Nagy Péter Kovács Anna W+ date=2026-03-03")
    assert "pending" not in said.as_text(), said.as_text()
    card = await storage.card(bot.db, 1, anna.id)
    assert (card.rating, card.pending) == (132, None)


async def test_month_ends_cover_the_months_of_games_entered_from_before_the_club(
    process: Process,
) -> None:
    """A game dated before the club came to hoshi (a late import) gets its months' checks
    too (calendar order), each once."""
    bot = process.bot
    assert bot is not None
    for line in (
        "/club system psg",
        "/register Nagy Péter 10k",
        "/register Kovács Anna 10k",
        "/result Nagy Péter Kovács Anna B+ date=2025-12-10",
    ):
        assert not (await bot.say(line)).error, line
    ran = await bot.scheduler.run_due()
    assert [r for r in ran if "month" in r] == [
        "Club: month December 2025 checked",
        "Club: month January 2026 checked",
        "Club: month February 2026 checked",
    ]
    assert [r for r in await bot.scheduler.run_due() if "month" in r] == []


async def test_a_game_a_century_back_makes_its_month_ends_due_in_one_write(
    process: Process,
) -> None:
    """Catch-up work grows with the facts, not with calendar days (issue 23): a game dated
    1900 makes every month end since then due (PSG §4.5, from the first fact); the
    scheduler hands them to storage in one call and the projections are rebuilt once (from
    1900, under a registration of 2026), not once a month. Each month is checked once, in
    order."""
    bot = process.bot
    assert bot is not None
    for name in ("Nagy Péter", "Kovács Anna", "Szabó Éva"):  # Éva stays in 2026
        assert not (await bot.say(f"/register {name} 6k")).error, name
    await bot.scheduler.run_due()
    said = await bot.say("/result Nagy Péter Kovács Anna B+ date=1900-01-01 confirm")
    assert not said.error, said.as_text()
    rewrites = await bot.db.fetchone("SELECT COUNT(*) FROM rewrites")
    process.clock.advance(dt.timedelta(days=1))
    done = [d for d in await bot.scheduler.run_due() if "month" in d]
    assert len(done) == 126 * 12 + 2  # January 1900 to February 2026
    assert done[0] == "Club: month January 1900 checked"
    assert done[-1] == "Club: month February 2026 checked"
    assert await bot.db.fetchone("SELECT COUNT(*) FROM rewrites") == (rewrites[0] + 1,)
    assert await count_events(bot.db, "month") == len(done)
    assert [d for d in await bot.scheduler.run_due() if "month" in d] == []


async def test_each_moment_is_announced_in_the_current_systems_words_only(
    process: Process,
) -> None:
    """Every system's scheduled moments are kept whatever the club's system (a club that
    switches finds them in place), but only the current system speaks: an MGSZ club's day
    passes in silence, its period is announced with the promotions by name."""
    bot = process.bot
    assert bot is not None
    for line in (
        "/register Nagy Péter 6k",
        "/register Kovács Anna 6k",
        "/result Nagy Péter Kovács Anna B+",
    ):
        assert not (await bot.say(line)).error, line
    process.clock.set(dt.datetime(2026, 3, 3, 0, 1, tzinfo=dt.UTC))
    assert "Club: day Mar 2, 2026 settled" in await bot.scheduler.run_due()
    assert not any("settled" in t for t in bot.texts())  # Tensuusei's words, not MGSZ's
    process.clock.set(dt.datetime(2026, 4, 1, 0, 1, tzinfo=dt.UTC))
    done = await bot.scheduler.run_due()
    assert "Club: period March 2026 rated" in done and "Club: month March 2026 checked" in done
    (notice,) = [t for t in bot.texts() if "Club games, March 2026 is rated" in t]
    assert notice.startswith("Club: Club games, March 2026 is rated")
    assert "Nagy Péter" in notice and "{player:" not in notice
    assert not any("month-end verification" in t for t in bot.texts())


async def test_a_swedish_club_is_told_nothing_at_the_scheduled_moments(process: Process) -> None:
    bot = process.bot
    assert bot is not None
    for line in (
        "/club system swedish",
        "/register Nagy Péter 2k",
        "/register Kovács Anna 2k",
        "/result Nagy Péter Kovács Anna B+",
    ):
        assert not (await bot.say(line)).error, line
    bot.posted.clear()
    process.clock.set(dt.datetime(2026, 4, 1, 0, 1, tzinfo=dt.UTC))
    done = await bot.scheduler.run_due()
    assert {"Club: day Mar 2, 2026 settled", "Club: month March 2026 checked"} <= set(done)
    assert bot.texts() == []


async def test_each_club_s_notices_are_in_the_club_s_language(tmp_path: Path) -> None:
    """Issue 13: a scheduled post is composed in its club's language (/club set language),
    whatever language is current where the scheduler runs — here, outside any conversation
    (English), two clubs, Japanese and Swedish, each get their own."""
    clock = FakeClock(dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC))  # a Monday
    db = await storage.open_db(tmp_path / "clubs.sqlite", clock=clock)
    try:
        bot = Bot(db, clock)
        clubs = {}
        for name, system, language, players in (
            ("碁会所", "tensuusei", "ja", ("山田太郎 1d", "鈴木花子 1d")),
            ("Klubben", "swedish", "sv", ("Lind Erik 1k", "Ek Sara 2k")),
        ):
            club = clubs[language] = await storage.create_club(
                db, name, system, actor=ADMIN.identity
            )
            await storage.bind_chat(db, club, "console", f"chat-{language}", actor=ADMIN.identity)
            for key, value in (("language", language), ("weekly", "mon 18:00")):
                await storage.set_setting(db, club, key, value, actor=ADMIN.identity)
            for player in players:
                line = f"register {player}"
                invocation = Invocation("register", player, ADMIN, f"chat-{language}")
                assert not (await bot.core.handle(invocation)).error, line
        clock.set(dt.datetime(2026, 3, 2, 18, 1, tzinfo=dt.UTC))  # the first summary, on time
        await bot.scheduler.run_due()
        clock.set(dt.datetime(2026, 3, 3, 19, 0, tzinfo=dt.UTC))  # within the week
        first, second = ("山田太郎", "鈴木花子"), ("Lind Erik", "Ek Sara")
        for language, (a, b) in (("ja", first), ("sv", second)):
            reply = await bot.core.handle(
                Invocation("result", f"{a} {b} B+", ADMIN, f"chat-{language}")
            )
            assert not reply.error, reply.as_text()
        clock.set(dt.datetime(2026, 3, 9, 18, 1, tzinfo=dt.UTC))
        bot.posted.clear()
        done = await bot.scheduler.run_due()
        assert "碁会所: 2026/03/09の週間まとめ" in done
        assert "Klubben: veckosammanfattning 9 mars 2026" in done
        # what ran, read in one language (/tick's reader's), not in each club's (issue 24)
        in_swedish = [translated(job, "sv") for job in done]
        assert "碁会所: veckosammanfattning 9 mars 2026" in in_swedish
        weekly = {
            notice.club_id: notice.reply.as_text()
            for notice in bot.posted
            if "週間まとめ" in notice.reply.as_text() or "veckan" in notice.reply.as_text()
        }
        japanese, swedish = weekly[clubs["ja"].id], weekly[clubs["sv"].id]
        assert japanese.startswith("碁会所：週間まとめ 2026年3月2日～8日")  # Monday to Sunday
        assert "記録した対局：1局" in japanese and "Games recorded" not in japanese
        assert swedish.startswith("Klubben: veckan 2–8 mars 2026")
        assert "Registrerade partier: 1" in swedish and "Games recorded" not in swedish
    finally:
        await db.close()


async def test_reports_confirmed_disputed_and_expired_in_swedish(process: Process) -> None:
    """The same flow in a Swedish-speaking club: the replies, the organisers' notice and the
    expiry notice (composed by the scheduler in the club's language)."""
    bot = process.bot
    assert bot is not None
    for line in ("/register Anna Kovács 5k", "/register Béla Nagy 5k", "/club reports on 48"):
        assert not (await bot.say(line)).error, line
    await storage.set_setting(bot.db, 1, "language", "sv", actor=ADMIN.identity)
    assert not (await bot.link("Anna Kovács", ANNA)).error
    assert not (await bot.link("Béla Nagy", BELA)).error
    numbers = []
    for _turn in range(3):
        reply = await bot.say("/result Anna Kovács Béla Nagy B+ again", ANNA)
        numbers.append(int(reply.buttons[0].command.split()[1]))
    confirmed, disputed, expired = numbers
    with using("sv"):
        own = (await bot.say(f"/confirm {confirmed}", ANNA)).as_text()
        assert "din egen rapport måste bekräftas av din motståndare" in own.lower()
        text = (await bot.say(f"/confirm {confirmed}", BELA)).as_text()
        assert (
            text
            == f"Parti #{confirmed} (B+, 2 mars 2026) är bekräftat och räknas från och med nu."
        )
        text = (await bot.say(f"/dispute {disputed} jag vann på tid", BELA)).as_text()
        assert text.startswith(f"Parti #{disputed} är bestritt: det räknas inte")
        weekly = (await bot.say("/weekly on sun 20:00")).as_text()
        assert weekly.startswith("Veckosammanfattningen postas varje söndag kl. 20:00 (UTC)")
    (notice,) = [t for t in bot.texts() if f"Rapport #{disputed} är bestriden" in t]
    assert f"Béla bestrider parti #{disputed} (B+, 2 mars 2026): jag vann på tid." in notice
    bot.clock.advance(dt.timedelta(hours=49))
    done = await bot.scheduler.run_due()  # outside any conversation: in the club's language
    assert f"Club: rapport #{expired} har gått ut" in done
    (gone,) = [t for t in bot.texts() if t.startswith(f"Rapport #{expired} (B+, 2 mars 2026)")]
    assert "ingen bekräftade den inom 48 timmar, så den räknades inte" in gone


async def test_the_console_s_tick_answers_in_the_club_s_language(process: Process) -> None:
    bot = process.bot
    assert bot is not None
    await storage.set_setting(bot.db, 1, "language", "sv", actor=ADMIN.identity)
    assert not (await bot.say("/weekly on mon 18:00")).error
    with using("sv"):
        text = (await bot.say("/tick 2026-03-02 18:05")).as_text()  # the first one on time
        assert text.splitlines() == [
            "Nu är klockan 2 mars 2026 18:05 (UTC).",
            "",
            "Kördes: Club: veckosammanfattning 2 mars 2026",
        ]
        assert (await bot.say("/tick 1m")).as_text().endswith("Inget var dags.")
        refused = await bot.say("/tick 2026-13-01 00:00")
        assert refused.error
        assert "”2026-13-01 00:00”" in refused.as_text()  # quoted as Swedish quotes
        assert "e.g." not in refused.as_text().split("\n\n")[0]


async def test_a_tensuusei_tournament_on_ended_days_settles_when_it_is_finalised(
    process: Process,
) -> None:
    """issue 22: a tournament of days that have ended, finalised by its schedule on /tick, is
    settled at once and says which points moved — not "No rating changed", not "every pair
    broke even", and nothing is left pending from 2 March (rules.md §2.3, late reports)."""
    bot = process.bot
    assert bot is not None
    for line in (
        "/club system tensuusei",
        "/club set language en",
        "/register Nagy Péter 5k",
        "/register Kovács Anna 5k",
        "/register Szabó Éva 8k",
        "/register Tóth Ádám 6k",
        "/tournament new Cup start=2026-03-02 end=2026-03-03 rounds=2",
        "/tournament result 1 Nagy Péter Kovács Anna B+",
        "/tournament result 1 Szabó Éva Tóth Ádám W+",
        "/tournament result 2 Nagy Péter Tóth Ádám B+",
        "/tournament result 2 Kovács Anna Szabó Éva B+",
        "/tournament schedule Cup 20:00",
    ):
        assert not (reply := await bot.say(line)).error, (line, reply.as_text())
    bot.posted.clear()
    process.clock.set(dt.datetime(2026, 3, 3, 20, 1, tzinfo=dt.UTC))
    await bot.scheduler.run_due()
    (rated,) = [t for t in bot.texts() if "Cup is rated" in t]
    assert "No rating changed" not in rated and "the table" not in rated
    assert "Nagy Péter       70      +2     72" in rated
    assert "Szabó Éva        34      -2     32" in rated
    assert not any("broke even" in t for t in bot.texts())
    for name, points in (("Nagy Péter", 72), ("Kovács Anna", 70), ("Szabó Éva", 32)):
        player = (await storage.find_player(bot.db, 1, name)).player
        assert player is not None
        card = await storage.card(bot.db, 1, player.id)
        assert (card.rating, card.pending) == (points, None), name
    said = (await bot.say("/rating Nagy Péter")).as_text()
    assert "pending" not in said, said


async def _one_day_cup(process: Process) -> Bot:
    """The process's bot with a Tensuusei club (in English) of two 5k players and a one-round
    Cup on 2026-03-02 whose game Nagy Péter won, not finalised."""
    bot = process.bot
    assert bot is not None
    for line in (
        "/club system tensuusei",
        "/club set language en",
        "/register Nagy Péter 5k",
        "/register Kovács Anna 5k",
        "/tournament new Cup start=2026-03-02 end=2026-03-02 rounds=1",
        "/tournament result 1 Nagy Péter Kovács Anna B+",
    ):
        assert not (reply := await bot.say(line)).error, (line, reply.as_text())
    return bot


async def test_a_tournament_finalised_after_its_last_day_leaves_nothing_pending(
    process: Process,
) -> None:
    """/tournament finalise the day after the tournament's last day: its last day's games are
    settled too, the reply shows them, and no day end is announced for them later."""
    bot = await _one_day_cup(process)
    process.clock.set(dt.datetime(2026, 3, 4, 10, 0, tzinfo=dt.UTC))
    said = (await bot.say("/tournament finalise Cup")).as_text()
    assert "Nagy Péter       70      +1     71" in said, said
    assert "Not settled yet" not in said and "No rating changed" not in said
    bot.posted.clear()
    await bot.scheduler.run_due()
    assert not any("settled" in t for t in bot.texts()), bot.texts()
    # reopened and finalised again without a change: nothing moves, nothing waits
    assert not (await bot.say("/tournament reopen Cup")).error
    again = (await bot.say("/tournament finalise Cup")).as_text()
    assert "Nagy Péter       70      +1     71" in again, again
    nagy = (await storage.find_player(bot.db, 1, "Nagy Péter")).player
    assert nagy is not None
    card = await storage.card(bot.db, 1, nagy.id)
    assert (card.rating, card.pending) == (71, None)


async def test_a_tournament_finalised_on_its_last_day_says_what_waits(process: Process) -> None:
    """Finalised on its last day, before the day ends: that day's games wait for the end of
    the day, and the reply says so per player instead of "No rating changed"."""
    bot = await _one_day_cup(process)
    said = (await bot.say("/tournament finalise Cup")).as_text()
    assert "No rating changed" not in said and "the table" not in said, said
    assert "Not settled yet: Nagy Péter +1 point, settled at the end of the club day" in said
    process.clock.set(dt.datetime(2026, 3, 3, 0, 1, tzinfo=dt.UTC))
    await bot.scheduler.run_due()
    nagy = (await storage.find_player(bot.db, 1, "Nagy Péter")).player
    assert nagy is not None
    card = await storage.card(bot.db, 1, nagy.id)
    assert (card.rating, card.pending) == (71, None)


# ------------------------------------------------------ liveness (issue 22, rules.md §2.3)

LIVE_START = dt.date(2026, 3, 2)
LIVE_DAYS = 5  # facts on days 0 … 4; the clock then stands on day 5
LIVE_PLAYERS = ("Aoki Ren", "Baba Sora", "Chiba Mei", "Doi Kai")


@dataclass(frozen=True)
class Single:
    """A single game: ``/result`` on its day."""

    day: int
    black: int
    white: int
    result: str


@dataclass(frozen=True)
class Cup:
    """A tournament over days ``start`` … ``end`` with its games ``(day, black, white,
    result)``, round = position + 1."""

    start: int
    end: int
    games: tuple[tuple[int, int, int, str], ...]


def _pair(black: int, white: int) -> tuple[int, int]:
    return (black, white) if black < white else (white, black)


@st.composite
def live_facts(draw: st.DrawFn) -> list[Single | Cup]:
    """Single games and tournaments on days 0 … 4, in the order they will be entered late.

    A pair's games of one day beyond the three that count (local rule 1) are only drawn
    from one source (singles, or one tournament): which ones count then follows the order
    of entry inside that source, which both worlds keep (calendar order, tie: entry)."""
    result = st.sampled_from(["B+", "W+", "jigo"])
    player = st.integers(0, len(LIVE_PLAYERS) - 1)
    facts: list[Single | Cup] = []
    for _ in range(draw(st.integers(1, 7))):
        if draw(st.booleans()):
            black = draw(player)
            white = draw(player.filter(lambda p, b=black: p != b))  # type: ignore[misc]
            facts.append(Single(draw(st.integers(0, LIVE_DAYS - 1)), black, white, draw(result)))
        else:
            start = draw(st.integers(0, LIVE_DAYS - 1))
            end = draw(st.integers(start, min(start + 2, LIVE_DAYS - 1)))
            games = []
            for _ in range(draw(st.integers(1, 4))):
                black = draw(player)
                white = draw(player.filter(lambda p, b=black: p != b))  # type: ignore[misc]
                games.append((draw(st.integers(start, end)), black, white, draw(result)))
            facts.append(Cup(start, end, tuple(games)))
    sources: dict[tuple[int, tuple[int, int]], set[int]] = {}
    counts: dict[tuple[int, tuple[int, int]], int] = {}
    for index, fact in enumerate(facts):
        rows = (
            [(fact.day, fact.black, fact.white)]
            if isinstance(fact, Single)
            else [(day, b, w) for day, b, w, _ in fact.games]
        )
        for day, b, w in rows:
            key = (day, _pair(b, w))
            sources.setdefault(key, set()).add(-1 if isinstance(fact, Single) else index)
            counts[key] = counts.get(key, 0) + 1
    assume(all(len(sources[k]) == 1 or counts[k] <= 3 for k in counts))
    return facts


def _on(day: int, hour: int = 12, minute: int = 0) -> dt.datetime:
    moment = dt.datetime.combine(LIVE_START + dt.timedelta(days=day), dt.time(hour, minute))
    return moment.replace(tzinfo=dt.UTC)


async def _live_club(path: Path) -> tuple[Bot, FakeClock]:
    clock = FakeClock(_on(0, 9))
    db = await storage.open_db(path, clock=clock)
    bot = Bot(db, clock)
    club = await storage.create_club(db, "Club", "tensuusei", actor=ADMIN.identity)
    await storage.set_setting(db, club, "language", "en", actor=ADMIN.identity)
    await storage.bind_chat(db, club, "console", CHAT, actor=ADMIN.identity)
    for name in LIVE_PLAYERS:
        assert not (await bot.say(f"/register {name} 3k")).error
    return bot, clock


def _result_line(single: Single, dated: bool) -> str:
    date = f" date={(LIVE_START + dt.timedelta(days=single.day)).isoformat()}" if dated else ""
    black, white = LIVE_PLAYERS[single.black], LIVE_PLAYERS[single.white]
    return f'/result "{black}" "{white}" {single.result}{date} again'


async def _enter_cup(bot: Bot, number: int, cup: Cup, games: list[int]) -> None:
    """Enter the games of cup ``number`` with these indexes (dated)."""
    for index in games:
        day, black, white, result = cup.games[index]
        date = (LIVE_START + dt.timedelta(days=day)).isoformat()
        line = (
            f'/tournament result {index + 1} "{LIVE_PLAYERS[black]}" "{LIVE_PLAYERS[white]}" '
            f"{result} date={date} t=Cup{number}"
        )
        assert not (reply := await bot.say(line)).error, (line, reply.as_text())


async def _open_cup(bot: Bot, number: int, cup: Cup) -> None:
    start = (LIVE_START + dt.timedelta(days=cup.start)).isoformat()
    end = (LIVE_START + dt.timedelta(days=cup.end)).isoformat()
    line = f"/tournament new Cup{number} start={start} end={end} rounds={len(cup.games)}"
    assert not (reply := await bot.say(line)).error, (line, reply.as_text())


async def _cards(bot: Bot) -> dict[str, tuple[object, object]]:
    found = {}
    for name in LIVE_PLAYERS:
        player = (await storage.find_player(bot.db, 1, name)).player
        assert player is not None
        card = await storage.card(bot.db, 1, player.id)
        found[name] = (card.rating, card.pending)
    return found


async def _late(path: Path, facts: list[Single | Cup]) -> dict[str, tuple[object, object]]:
    """Everything entered on day 5, in the drawn order, each dated on its own day."""
    bot, clock = await _live_club(path)
    try:
        clock.set(_on(LIVE_DAYS, 10))
        await bot.scheduler.run_due()
        for number, fact in enumerate(facts, start=1):
            if isinstance(fact, Single):
                assert not (reply := await bot.say(_result_line(fact, True))).error, reply
            else:
                await _open_cup(bot, number, fact)
                await _enter_cup(bot, number, fact, list(range(len(fact.games))))
                said = (await bot.say(f"/tournament finalise Cup{number} confirm")).as_text()
                assert "No rating changed" not in said or not any(g[3] for g in fact.games), said
            # liveness: every day entered so far has ended, so nothing is pending
            for name, (_, pending) in (await _cards(bot)).items():
                assert pending is None, (name, pending)
        entered = await _cards(bot)
        clock.set(_on(LIVE_DAYS + 1, 0, 5))
        await bot.scheduler.run_due()
        assert await _cards(bot) == entered  # the scheduler found nothing left to move
        said = (await bot.say(f"/rating {LIVE_PLAYERS[0]}")).as_text()
        assert "pending" not in said, said
        return entered
    finally:
        await bot.db.close()


async def _on_time(path: Path, facts: list[Single | Cup]) -> dict[str, tuple[object, object]]:
    """The same facts entered on their own days (a tournament: each game on its day, finalised
    on its last day at 20:00), each day settled by the end-of-day job at midnight."""
    bot, clock = await _live_club(path)
    try:
        cups = [(n, f) for n, f in enumerate(facts, start=1) if isinstance(f, Cup)]
        for day in range(LIVE_DAYS):
            clock.set(_on(day))
            for number, cup in cups:
                if cup.start == day:
                    await _open_cup(bot, number, cup)
            for fact in facts:  # the singles of the day, in the drawn order
                if isinstance(fact, Single) and fact.day == day:
                    assert not (await bot.say(_result_line(fact, False))).error
            for number, cup in cups:
                await _enter_cup(
                    bot, number, cup, [i for i, g in enumerate(cup.games) if g[0] == day]
                )
            clock.set(_on(day, 20, 1))
            for number, cup in cups:
                if cup.end == day:
                    assert not (await bot.say(f"/tournament finalise Cup{number} confirm")).error
            clock.set(_on(day + 1, 0, 1))
            await bot.scheduler.run_due()
        clock.set(_on(LIVE_DAYS + 1, 0, 5))
        await bot.scheduler.run_due()
        return await _cards(bot)
    finally:
        await bot.db.close()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(live_facts())
def test_late_tensuusei_games_are_never_left_pending(facts: list[Single | Cup]) -> None:
    """Liveness (rules.md §2.3, Decision — late reports): games and tournaments of days that
    have ended, entered in any order, leave nothing pending — on the cards, in /rating — and
    settle to the points the same facts get when entered on their days and settled by the
    end-of-day job."""
    with tempfile.TemporaryDirectory() as directory:
        late = asyncio.run(_late(Path(directory) / "late.sqlite", facts))
        on_time = asyncio.run(_on_time(Path(directory) / "on-time.sqlite", facts))
    assert late == on_time
    assert all(pending is None for _, pending in on_time.values())


async def test_confirming_correcting_and_voiding_a_game_of_an_ended_day_leave_nothing_pending(
    process: Process,
) -> None:
    """Every path that puts a game into a day that has ended settles it at once (rules.md
    §2.3, late reports): a report confirmed after midnight, a game moved by /correct to a day
    that had no games; a /void recomputes the day; the scheduler finds nothing left."""
    bot = process.bot
    assert bot is not None
    for line in (
        "/club system tensuusei",
        "/register Nagy Péter 1d",
        "/register Kovács Anna 1d",
        "/club reports on 48",
        "/result Nagy Péter Kovács Anna W+",
    ):
        assert not (reply := await bot.say(line)).error, (line, reply.as_text())
    assert not (await bot.link("Kovács Anna", ANNA)).error
    report = await bot.say("/result Nagy Péter Kovács Anna W+ again", ANNA)
    assert "waits for" in report.as_text(), report.as_text()
    anna = (await storage.find_player(bot.db, 1, "Kovács Anna")).player
    assert anna is not None
    process.clock.set(dt.datetime(2026, 3, 3, 10, 0, tzinfo=dt.UTC))  # no scheduler run yet
    assert not (reply := await bot.say("/confirm 2")).error, reply.as_text()
    card = await storage.card(bot.db, 1, anna.id)
    assert (card.rating, card.pending) == (132, None)
    assert not (reply := await bot.say("/correct 1 date=2026-02-25")).error, reply.as_text()
    card = await storage.card(bot.db, 1, anna.id)
    assert (card.rating, card.pending) == (132, None)
    assert not (reply := await bot.say("/void 2")).error, reply.as_text()
    card = await storage.card(bot.db, 1, anna.id)
    assert (card.rating, card.pending) == (131, None)
    bot.posted.clear()
    assert not [done for done in await bot.scheduler.run_due() if "day" in done]
    assert (await storage.card(bot.db, 1, anna.id)).rating == 131


# -- preview = result: "if the period ended now" is what the period's end gives (issue 22)

TIMES = ("10m", "25m", "45m", "60m", "90m", "60m+3x30s", "40m+30/5m", "90m+30s")
MGSZ_PLAYERS = ("Nagy Péter 5k", "Kovács Anna 2d 2090", "Szabó Éva 3k 1830", "Tóth Bence 8k")
club_game = st.tuples(
    st.just("game"),
    st.integers(2, 27),  # the day of March
    st.integers(0, 3),
    st.integers(1, 3),
    st.sampled_from(("B+", "W+", "jigo")),
    st.sampled_from(("", " h=2", " h=4", " board=13")),
    st.sampled_from(("", *(f" time={t}" for t in TIMES))),
)
time_change = st.tuples(st.just("time"), st.integers(2, 27), st.sampled_from(TIMES))


async def _previews(bot: Bot, players: list[int]) -> dict[int, object]:
    """Each player's Elo as /rating shows it would be if the period ended now."""
    shown: dict[int, object] = {}
    for player in players:
        card = await storage.card(bot.db, 1, player)
        pending = {m.key: m.value for m in card.values}.get("pending_elo")
        shown[player] = card.rating if pending is None else pending
    return shown


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    steps=st.lists(st.one_of(club_game, time_change), min_size=1, max_size=8),
    months=st.sampled_from(((3,), (2, 3))),
)
async def test_the_preview_of_a_club_period_is_what_its_end_gives(
    tmp_path_factory: pytest.TempPathFactory,
    steps: list[tuple[object, ...]],
    months: tuple[int, ...],
) -> None:
    """For any month of MGSZ club games and changes of the club's usual time control, each
    player's "if the period ended now" equals their Elo after the period's end when nothing
    else happens in between (rules.md §1.4, club games: one code path, the same C). With
    ``months`` (2, 3) the steps fall in February and March and February is not closed before
    March's games are held (the bot was down): the preview rates each month as its own period
    with the usual time of its end, the Elo chaining, as the two closes do."""
    clock = FakeClock(dt.datetime(2026, months[0], 2, 9, 0, tzinfo=dt.UTC))
    proc = Process(tmp_path_factory.mktemp("period") / "club.sqlite", clock)
    bot = await proc.start()
    try:
        club = await storage.create_club(bot.db, "Club", "mgsz", actor=ADMIN.identity)
        await storage.set_setting(bot.db, club, "language", "en", actor=ADMIN.identity)
        await storage.bind_chat(bot.db, club, "console", CHAT, actor=ADMIN.identity)
        for line in MGSZ_PLAYERS:
            assert not (await bot.say(f"/register {line}")).error, line
        players = [p.id for p in await storage.players(bot.db, club)]
        names = [
            line.rsplit(" ", 2)[0] if line[-1].isdigit() else line.rsplit(" ", 1)[0]
            for line in MGSZ_PLAYERS
        ]
        # the steps' days in order, the first half of them in the first month
        ordered = sorted(steps, key=lambda s: s[1])
        for i, step in enumerate(ordered):  # the clock only moves on
            month = months[0] if i < len(ordered) // 2 else months[-1]
            day = dt.date(2026, month, int(step[1]))  # type: ignore[call-overload]
            clock.set(max(clock(), dt.datetime.combine(day, dt.time(12), tzinfo=dt.UTC)))
            if step[0] == "time":
                line = f"/club time {step[2]}"
            else:
                _, _, black, offset, result, extra, time = step
                white = (int(black) + int(offset)) % 4  # type: ignore[call-overload]
                line = f"/result {names[black]} {names[white]} {result}{extra}{time} date={day}"  # type: ignore[index]
            reply = await bot.say(line)
            assert not reply.error, (line, reply.as_text())
        previews = await _previews(bot, players)
        clock.set(dt.datetime(2026, 4, 1, 0, 5, tzinfo=dt.UTC))
        await bot.scheduler.run_due()
        after = {p: (await storage.card(bot.db, club, p)).rating for p in players}
        assert after == previews
    finally:
        await proc.stop()


async def test_the_usual_time_set_before_a_club_game_rates_its_preview_and_its_period(
    process: Process,
) -> None:
    """The issue's example: /club set time 90m, then a club game. Kovács Anna (2090) beats
    Horváth Lili (2000): Δ 90 → chance 0.290; 60m gave the preview C = 25 (+7) while the month
    end used 90m, C = 30 (+9). Now both use C = 30 = 20 (category A) + 10 (even)."""
    bot = process.bot
    assert bot is not None
    for line in ("/register Kovács Anna 2d 2090", "/register Horváth Lili 1d 2000"):
        assert not (await bot.say(line)).error, line
    said = (await bot.say("/club set time 90m")).as_text()
    assert "every rating from that day on is recomputed" in said
    assert "Multiplier C" not in said  # no club game held yet: nothing to say about a period
    assert not (await bot.say("/result Horváth Lili Kovács Anna W+")).error
    card = (await bot.say("/rating Kovács Anna")).as_text()
    assert "if the period ended now: 2099 (+9)" in card
    said = (await bot.say("/club time 60m")).as_text()
    assert (
        "The open period of club games will now be rated with Multiplier C = 25 when it ends, "
        "not 30 (category B: 15"
    ) in said
    assert "if the period ended now: 2097 (+7)" in (await bot.say("/rating Kovács Anna")).as_text()
    said = (await bot.say("/club set time 90m")).as_text()
    assert "will now be rated with Multiplier C = 30 when it ends, not 25 (category A: 20" in said
    process.clock.set(dt.datetime(2026, 4, 1, 0, 5, tzinfo=dt.UTC))
    assert "Club: period March 2026 rated" in await bot.scheduler.run_due()
    card = (await bot.say("/rating Kovács Anna")).as_text()
    assert "Elo: 2099" in card and "last change: +9 (Club games, March 2026" in card


# -- a summary the clock jumped past, or the bot was down for, is posted late once (issue 22)


@pytest.mark.parametrize("how", ["clock-jump", "bot-down"])
async def test_a_missed_weekly_summary_is_posted_late_once_with_its_week(
    process: Process, how: str
) -> None:
    bot = process.bot
    assert bot is not None
    for line in ("/weekly on mon 18:00", "/register Nagy Péter 5k", "/register Kovács Anna 5k"):
        assert not (await bot.say(line)).error, line
    process.clock.set(dt.datetime(2026, 3, 2, 18, 5, tzinfo=dt.UTC))
    assert await bot.scheduler.run_due() == ["Club: weekly summary Mar 2, 2026"]  # on time
    process.clock.set(dt.datetime(2026, 3, 4, 20, 0, tzinfo=dt.UTC))
    assert not (await bot.say("/result Nagy Péter Kovács Anna B+")).error
    bot.posted.clear()
    later = dt.datetime(2026, 3, 19, 10, 0, tzinfo=dt.UTC)  # past Mar 9 and Mar 16, 18:00
    if how == "bot-down":
        await process.stop()
        process.clock.set(later)
        bot = await process.start()  # the start-up sweep
    else:
        process.clock.set(later)
        done = await bot.scheduler.run_due()
        assert [d for d in done if "weekly" in d] == [
            "Club: weekly summaries Mar 9, 2026 to Mar 16, 2026, posted late as one",
        ]
    # the two weeks missed: one post of them both (not a post a week), nothing left out
    weeks = [t for t in bot.texts() if "Club: the week" in t]
    assert [w.splitlines()[0] for w in weeks] == [
        "Club: the weeks Mar 2\u2009–\u200915, 2026, posted late",
    ]
    assert "Games recorded: 1" in weeks[0]  # the weeks' game (MGSZ rates it at the month end)
    bot.posted.clear()
    assert await bot.scheduler.run_due() == []
    bot = await process.restart()
    assert not bot.posted  # never twice, across a restart too
    process.clock.set(dt.datetime(2026, 3, 23, 18, 0, tzinfo=dt.UTC))
    assert await bot.scheduler.run_due() == ["Club: weekly summary Mar 23, 2026"]
    (week,) = [t for t in bot.texts() if "Club: the week" in t]
    assert week.startswith("Club: the week Mar 16\u2009–\u200922, 2026\n")


async def test_a_club_with_nothing_due_is_not_folded_again_until_its_log_or_day_moves(
    process: Process,
) -> None:
    """What a rulebook has due depends on the club's log and day alone: once every system
    said "nothing" at a log position on a day, later runs — in this process or a new one —
    skip the club's ledgers until a fact is entered or the day changes."""
    bot = process.bot
    assert bot is not None
    for line in ("/register Nagy Péter 5k", "/register Kovács Anna 5k"):
        assert not (await bot.say(line)).error, line
    process.clock.set(dt.datetime(2026, 3, 2, 10, 0, tzinfo=dt.UTC))
    await bot.scheduler.run_due()  # every system asked, and every one has nothing due
    for restart in (False, True):
        if restart:
            bot = await process.restart()
        bot.db.projections.ledgers.clear()
        folded = bot.db.projections.folded_events
        assert await bot.scheduler.run_due() == []
        assert bot.db.projections.ledgers == {}  # no club's ledgers were loaded
        assert bot.db.projections.folded_events == folded
    assert not (await bot.say("/result Nagy Péter Kovács Anna B+")).error  # the log moves
    bot.db.projections.ledgers.clear()
    await bot.scheduler.run_due()
    assert bot.db.projections.ledgers != {}  # asked again
    process.clock.set(dt.datetime(2026, 3, 3, 10, 0, tzinfo=dt.UTC))  # the next day
    bot.db.projections.ledgers.clear()
    done = await bot.scheduler.run_due()  # a new day: asked again
    assert done == ["Club: day Mar 2, 2026 settled"]  # Tensuusei's, folded though not used
    assert bot.db.projections.ledgers != {}


async def test_a_quiet_club_is_skipped_until_its_next_moment_and_asked_then(
    process: Process,
) -> None:
    """Nothing due through a day (storage.schedules.quiet_through): the days before it skip
    the club's ledgers, in a new process too; on that day its moments are asked for and
    every one is written (the month's period and month end, the day before the day's)."""
    bot = process.bot
    assert bot is not None
    for line in ("/register Nagy Péter 5k", "/register Kovács Anna 5k"):
        assert not (await bot.say(line)).error, line
    assert not (await bot.say("/result Nagy Péter Kovács Anna B+")).error
    process.clock.set(dt.datetime(2026, 3, 3, 10, 0, tzinfo=dt.UTC))
    assert await bot.scheduler.run_due() == ["Club: day Mar 2, 2026 settled"]
    for day in (3, 20, 31):
        process.clock.set(dt.datetime(2026, 3, day, 10, 0, tzinfo=dt.UTC))
        bot = await process.restart()  # its start-up sweep
        assert bot.db.projections.ledgers == {}, day  # nothing due through March 31
        assert bot.db.projections.folded_events == 0
        assert await bot.scheduler.run_due() == [], day
        assert bot.db.projections.ledgers == {}, day
    assert await count_events(bot.db, "month") == await count_events(bot.db, "period") == 0
    process.clock.set(dt.datetime(2026, 4, 1, 10, 0, tzinfo=dt.UTC))
    bot = await process.restart()  # the club's next moment: asked, and all written
    assert bot.db.projections.ledgers != {}
    assert await count_events(bot.db, "month") == await count_events(bot.db, "period") == 1
    assert await bot.scheduler.run_due() == []
