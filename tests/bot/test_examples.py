"""The example sessions in ``examples/`` run as they are documented (they cannot rot)."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.adapters.console import run_console
from bot.clock import FakeClock
from bot.config import Config

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


async def test_the_scheduled_month_runs_and_shows_all_the_scheduled_work(tmp_path: Path) -> None:
    out = io.StringIO()
    clock = FakeClock(dt.datetime(2026, 3, 2, 9, 0, tzinfo=ZoneInfo("UTC")))
    config = Config(db_path=tmp_path / "demo.sqlite", charts_dir=tmp_path / "charts")
    script = (EXAMPLES / "scheduled-month.txt").open(encoding="utf-8")
    with script:
        code = await run_console(config, source=script, out=out, clock=clock)
    text = out.getvalue()
    assert code == 0
    assert "Something went wrong" not in text
    for shown in (
        "Spring Cup is rated",  # scheduled finalisation
        "is confirmed and counts from now on",  # a report confirmed
        "Report #6 is disputed",  # … one disputed
        "expired: nobody confirmed it within 48 hours",  # … one expired
        "My Go Club: the week Mar 2\u2009–\u20099, 2026",  # the weekly summary
        "Club games 2026-03 is rated",  # the MGSZ period
        "the day 2026-04-01 is settled",  # a Tensuusei day
        "Molnár Dóra 3d → 2d",  # the PSG demotion
    ):
        assert shown in text, shown
    assert (tmp_path / "charts" / "hoshi-weekly.png").exists()


async def test_the_first_season_runs_as_documented(tmp_path: Path) -> None:
    out = io.StringIO()
    config = Config(db_path=tmp_path / "club.sqlite", charts_dir=tmp_path / "charts")
    with (EXAMPLES / "first-season.txt").open(encoding="utf-8") as script:
        assert await run_console(config, source=script, out=out) == 0
    text = out.getvalue()
    assert "Something went wrong" not in text
    for shown in (
        "a new player without a rating can start at 5k at most",  # the refusal it shows
        "Nagy Péter (B) – Varga Gábor (W): W+",  # names without quotes
        "Already recorded?",  # the same game twice is asked about
        "Undone: game",
        "Tavaszi Kupa 2026 is rated",
        "Game #1 corrected",
        "is void",
        "Szabó Éva is now 2k",
    ):
        assert shown.lower() in text.lower(), shown
    assert (tmp_path / "charts" / "hoshi-toth-bence.png").exists()


FIRST_HOURS = {  # each system's first hour, its clock, and what it must show (issue 1/5)
    "mgsz": (
        "2026-11-23 19:00",
        (
            "if the period ended now: 1733 (+13)",  # the rating moves in the first lines
            "Recorded, but it will not count: 5m is below category E",
            "Undone: game #3",
            "Őszi Kupa is rated",
            "Rated at its end date, Oct 11, 2026",
            "Club games 2026-11: 1 club game of 2 players so far",
            "Club games 2026-11 is rated",
            "Nagy Péter     1714     +13   1727  5k",  # the period after October's tournament
        ),
    ),
    "tensuusei": (
        "2026-11-20 18:30",
        (
            "5 stones, komi 6",
            "Sato Ken 70 — pending: +1 from 2026-11-20",
            "My Go Club: the day 2026-11-20 is settled",
            "2–1 against Tanaka Hiroshi: #1 won, #3 lost, #4 won",
            "Dated 2026-11-17: it counts on that day",
            "My Go Club: the day 2026-11-17 is settled",
        ),
    ),
    "swedish": (
        "2026-11-23 19:00",
        (
            "Recorded, but it will not count: only tournament games count",
            "Höstturneringen is rated",
            "Best sequence now: 130 points in 4 games.",
            "Lind Erik     2k       130  1k",
        ),
    ),
    "gor": (
        "2026-11-23 19:00",
        (
            "GoR: 1600",  # 5k from the declared rank: 1d = 2100, 100 a rank
            "6 stones, komi 0.5",
            "EGF GoR (Europe): Huber Anna 2202 · Gruber Max 1998",
            "2 GoR points to 1k (GoR 2000; now 1998)",
            "gor.club_class is B from Nov 23, 2026 (was C)",
            "class A given for the tournament: every change × 1.00",
            "Gruber Max     2000     −16   1984  1k → 2k",
            "class B from the time control: every change × 0.75",
            "EGF GoR (Europe) *        5k      1629  GoR",
        ),
    ),
    "psg": (
        "2026-11-23 19:00",
        (
            "2 stones, komi 0.5",
            "Kowalski Jan 30 · Nowak Ewa -7",
            "Jesienny Turniej is rated",
            "Zielińska Maria        0     +18     18  6k",
            "games with 10k: 5 of 10 needed",
            "EGF rating 1450 recorded for Zielińska Maria (November 2026).",
        ),
    ),
}


@pytest.mark.parametrize("system", sorted(FIRST_HOURS))
async def test_a_clubs_first_hour_runs_as_documented(system: str, tmp_path: Path) -> None:
    """examples/first-hour-<system>.txt: ratings move, every reply is a true reply in club
    members' words — no crash, no spec file cited, no engine mark left unnamed."""
    moment, shown = FIRST_HOURS[system]
    out = io.StringIO()
    clock = FakeClock(dt.datetime.fromisoformat(moment).replace(tzinfo=ZoneInfo("UTC")))
    config = Config(db_path=tmp_path / "club.sqlite", charts_dir=tmp_path / "charts")
    with (EXAMPLES / f"first-hour-{system}.txt").open(encoding="utf-8") as script:
        assert await run_console(config, source=script, out=out, clock=clock) == 0
    text = out.getvalue()
    for wrong in ("Something went wrong", "rules.md", "{player:", "{game:", "Traceback"):
        assert wrong not in text, wrong
    for expected in shown:
        assert expected in text, expected
