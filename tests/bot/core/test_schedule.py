"""/weekly, /summary, /tick, /confirm and /dispute read their arguments from the declaration
(bot.core.handlers.schedule): what each takes and how each refuses what it does not."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import storage
from bot.core.invocation import Caller
from bot.core.replies import Notice
from storage import schedules
from tests.bot.core.fakechat import ORGANISER, PLAYER, FakeChat

CONSOLE = Caller("console", "admin", "Admin Ági", chat_admin=True)


@pytest.fixture
async def club(tmp_path: Path) -> AsyncIterator[FakeChat]:
    chat = await FakeChat.open(tmp_path, players=("Nagy Péter 5k", "Szabó Éva 5k"))
    try:
        yield chat
    finally:
        await chat.close()


async def report(club: FakeChat) -> int:
    """A player's report awaiting confirmation: its number."""
    await club.ok("/club reports on")
    await club.link("Nagy Péter", PLAYER)
    await club.ok("/result Nagy Péter Szabó Éva B+R", as_=PLAYER)
    (pending,) = await storage.pending_games(club.db, club.club)
    return pending.number


# -- /weekly -----------------------------------------------------------------------------------


@pytest.mark.parametrize("line", ["/weekly", "/weekly maybe", "/weekly sun 20:00"])
async def test_weekly_without_on_or_off_says_both_forms(club: FakeChat, line: str) -> None:
    said = await club.refused(line, as_=ORGANISER)
    assert said.text.startswith("Write /weekly on [DAY HH:MM] or /weekly off\n\nUsage: ")


async def test_weekly_on_takes_the_rest_as_day_and_time(club: FakeChat) -> None:
    said = await club.ok("/weekly ON sun 20:00", as_=ORGANISER)
    assert said.text.startswith("The weekly summary will be posted every Sunday at 20:00 ")
    said = await club.ok("/weekly on", as_=ORGANISER)  # the default
    assert "every Monday at 18:00" in said.text
    said = await club.refused("/weekly on on", as_=ORGANISER)
    assert said.text.startswith("Write a day and a time, e.g. mon 18:00, not “on”\n\nUsage: ")


async def test_weekly_off_ignores_what_follows(club: FakeChat) -> None:
    said = await club.ok("/weekly off now", as_=ORGANISER)
    assert said.text == "The weekly summary is off. /summary still shows one on request."


async def test_weekly_takes_no_options(club: FakeChat) -> None:
    said = await club.refused("/weekly on day=mon", as_=ORGANISER)
    assert said.text.startswith("/weekly takes no key=value options (not day=)")


# -- /summary ----------------------------------------------------------------------------------


@pytest.mark.parametrize("line", ["/summary now", '/summary "two words"'])
async def test_summary_takes_no_arguments(club: FakeChat, line: str) -> None:
    said = await club.refused(line, as_=PLAYER)
    assert said.text == "/summary takes no arguments\n\nUsage: /summary — e.g. /summary"


# -- /tick -------------------------------------------------------------------------------------


@pytest.mark.parametrize("line", ["/tick", "/tick 1d"])
async def test_tick_on_a_real_clock_says_so_before_anything_else(
    club: FakeChat, line: str
) -> None:
    said = await club.say(line, as_=CONSOLE, chat_id="console")
    assert said.error
    assert said.text.startswith("The clock is real here; start the console with --clock ")


# -- /confirm and /dispute ---------------------------------------------------------------------


async def test_confirm_takes_a_reports_number_with_or_without_its_hash(club: FakeChat) -> None:
    number = await report(club)
    said = await club.ok(f"/confirm #{number}", as_=ORGANISER)
    assert said.text.startswith(f"Game #{number} (B+R, ")
    said = await club.refused(f"/confirm {number}", as_=ORGANISER)
    assert said.text.startswith(f"Game #{number} is not waiting for a confirmation (recorded)")


@pytest.mark.parametrize(
    ("line", "refusal"),
    [
        ("/confirm", "Give the report's number, e.g. /confirm 12"),
        ("/confirm twelve", "GAME_ID must be a whole number, not “twelve”"),
        ("/confirm 0", "GAME_ID must be 1–1000000000000, not 0"),
        ("/confirm 12 13", "/confirm does not take “13”"),
        ("/confirm 99", "There is no game #99 in this club"),
        ("/dispute", "Give the report's number, e.g. /dispute 12 I won by resignation"),
        ("/dispute wrong result", "GAME_ID must be a whole number, not “wrong”"),
        ("/dispute 99 it was jigo", "There is no game #99 in this club"),
    ],
)
async def test_a_report_command_refuses_a_missing_or_unknown_number(
    club: FakeChat, line: str, refusal: str
) -> None:
    said = await club.refused(line, as_=ORGANISER)
    assert said.text.startswith(refusal + "\n\nUsage: /"), said.text


async def test_dispute_takes_the_words_after_the_number_as_its_reason(club: FakeChat) -> None:
    number = await report(club)
    posted: list[Notice] = []

    async def deliver(notice: Notice) -> None:
        posted.append(notice)

    club.core.deliver = deliver
    said = await club.ok(f'/dispute {number} I won "by time"', as_=ORGANISER)
    assert said.text.startswith(f"Game #{number} is disputed: it stays unrated")
    (row,) = await storage.pending_games(club.db, club.club)
    assert await schedules.disputed(club.db, club.club, row.id)
    (notice,) = posted
    assert f"disputes game #{number} (B+R, " in notice.reply.as_text()
    assert "): I won by time. Organisers (" in notice.reply.as_text()
    said = await club.refused(f"/dispute {number} all=yes", as_=ORGANISER)
    assert said.text.startswith("/dispute takes no key=value options (not all=)")
