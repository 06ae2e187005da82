"""The example sessions in ``examples/`` run as they are documented (they cannot rot)."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path
from zoneinfo import ZoneInfo

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
        "My Go Club: the week 2026-03-02 – 2026-03-09",  # the weekly summary
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
