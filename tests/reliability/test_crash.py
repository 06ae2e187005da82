"""Crash safety (issue 6/6, item 2), in CI sizes: hoshi killed with SIGKILL at random moments.

The scenes live in :mod:`tests.reliability.crashing`; ``python -m benchmarks.crash`` runs them
with at least 50 kills each. Every scene checks after every kill: integrity, every acknowledged
result present exactly once, nothing present twice, stored projections equal to a replay.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.reliability import crashing

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


def report(figures: crashing.Figures) -> None:
    print(figures.line())
    assert figures.problems == []
    assert figures.lost == 0 and figures.doubled == 0


async def test_the_console_killed_while_answering_loses_and_doubles_nothing(
    tmp_path: Path,
) -> None:
    figures = await crashing.console_scene(tmp_path, kills=2, per_run=120)
    report(figures)
    assert figures.kills == 2
    assert figures.acknowledged > 0  # the last run answers everything it was given
    assert figures.present >= figures.acknowledged


async def test_the_telegram_bot_killed_while_chats_post_acts_on_each_update_once(
    tmp_path: Path,
) -> None:
    """Updates a killed bot had not confirmed come again, and so do some it had: every posted
    result ends up recorded exactly once, and answered."""
    figures = await crashing.telegram_scene(tmp_path, kills=2, per_run=8)
    report(figures)
    assert figures.kills == 2
    assert figures.redelivered > 0
    assert figures.present == figures.posted == figures.acknowledged
    assert figures.dropped == 0


async def test_the_scheduler_killed_during_its_start_up_sweep_runs_each_job_once(
    tmp_path: Path,
) -> None:
    figures = await crashing.scheduler_scene(tmp_path, kills=2)
    report(figures)
    assert figures.kills == 2
    assert figures.present == figures.posted
