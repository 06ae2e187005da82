"""benchmarks.progress: the benchmark's one-line progress bar."""

from __future__ import annotations

import io

import pytest

from benchmarks import progress
from benchmarks.progress import Bar


class Collected:
    """A status that keeps every line it is given."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, bool]] = []

    def __call__(self, line: str, final: bool) -> None:
        self.lines.append((line, final))


def test_the_line_says_done_of_total_the_share_and_the_time() -> None:
    shown = Collected()
    bar = Bar(shown, "load", 1_000_000, "games")
    bar(250_000)
    line, final = shown.lines[-1]
    assert not final
    assert line.startswith("  load ██████░░░░░░░░░░░░░░░░░░ 250,000/1,000,000 games  25%  0:0")
    bar.close()
    assert shown.lines[-1][1] and "250,000/1,000,000" in shown.lines[-1][0]


def test_redraws_are_few_and_the_last_line_is_always_drawn() -> None:
    shown = Collected()
    bar = Bar(shown, "rebuild", 0, "events")
    for done in range(1, 1001):
        bar(done, 1000)  # the total is known only as the work goes
    assert len(shown.lines) < 10  # at most five a second
    bar.close()
    assert shown.lines[-1] == (shown.lines[-1][0], True)
    assert "1,000/1,000 events 100%" in shown.lines[-1][0]


def test_without_a_count_the_line_shows_the_time() -> None:
    assert Bar(progress.quiet, "replay mgsz").line(None).startswith("  replay mgsz …  0:0")


@pytest.mark.parametrize(("seconds", "text"), [(5, "0:05"), (125, "2:05"), (3725, "1:02:05")])
def test_elapsed_time(seconds: float, text: str) -> None:
    assert progress.clock_text(seconds) == text


def test_over_counts_each_item_then_closes() -> None:
    shown = Collected()
    assert list(Bar(shown, "clubs", 3).over("abc")) == ["a", "b", "c"]
    assert shown.lines[-1][1] and "3/3" in shown.lines[-1][0]


async def test_ticking_redraws_a_loop_that_counts_nothing() -> None:
    shown = Collected()
    async with Bar(shown, "replay gor").ticking(every_s=0.001) as bar:
        assert bar.label == "replay gor"
    assert shown.lines[-1][1] and shown.lines[-1][0].startswith("  replay gor …")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_one_line_redrawn_in_place() -> None:
    out = Terminal()
    status = progress.terminal_status(out)
    status("  load 1/2", False)
    status("  load 2/2", True)
    assert out.getvalue() == "\r  load 1/2\x1b[K\r  load 2/2\x1b[K\r\x1b[K"


def test_a_file_gets_the_last_line_of_a_short_phase_only() -> None:
    out = io.StringIO()
    status = progress.terminal_status(out)
    status("  load 1/2", False)  # within the first ten seconds: not written
    status("  load 2/2", True)
    assert out.getvalue() == "  load 2/2\n"
