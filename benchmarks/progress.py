"""A one-line progress bar for the benchmark's long phases (issue 23: a million-game run shows
it is alive): ``load ██████░░░░░░  412,000/1,000,000 games  41%  1:52``.

:class:`Bar` counts; where the line goes is the caller's :data:`Status` — ``hoshi bench``
redraws one line of a terminal in place, and writes a plain line now and then to a file or
pipe (:func:`terminal_status`).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from typing import TextIO, TypeVar

Status = Callable[[str, bool], None]
"""``status(line, final)``: show the progress line ``line``; ``final``: the phase's last."""

T = TypeVar("T")

WIDTH = 24  # the bar's cells
REDRAW_S = 0.2  # at most five redraws a second
LOG_EVERY_S = 10.0  # not a terminal: a line every ten seconds (and the last)


def quiet(_line: str, _final: bool) -> None:
    """No progress shown (the tests, ``--json`` into a pipe)."""


def clock_text(seconds: float) -> str:
    """Elapsed time as ``m:ss`` (``h:mm:ss`` past an hour)."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Bar:
    """Progress of one phase: call it with how much is done (and the total, when it is known
    only then); :meth:`close` draws the last line."""

    def __init__(self, status: Status, label: str, total: int = 0, unit: str = "") -> None:
        self.status = status
        self.label = label
        self.total = total
        self.unit = unit
        self.done = 0
        self.started = time.perf_counter()
        self._drawn = 0.0

    def __call__(self, done: int, total: int | None = None) -> None:
        self.done = done
        if total is not None and total > 0:
            self.total = total
        now = time.perf_counter()
        if now - self._drawn >= REDRAW_S:
            self._drawn = now
            self.status(self.line(now), False)

    def add(self, n: int = 1) -> None:
        """``n`` more done."""
        self(self.done + n)

    def line(self, now: float | None = None) -> str:
        """The progress line as it reads now."""
        elapsed = (now if now is not None else time.perf_counter()) - self.started
        unit = f" {self.unit}" if self.unit else ""
        if self.total > 0:
            part = min(1.0, self.done / self.total)
            full = round(part * WIDTH)
            bar = "█" * full + "░" * (WIDTH - full)
            return (
                f"  {self.label} {bar} {self.done:,}/{self.total:,}{unit} "
                f"{part * 100:3.0f}%  {clock_text(elapsed)}"
            )
        if self.done == 0:  # nothing counted (yet): only the time
            return f"  {self.label} …  {clock_text(elapsed)}"
        return f"  {self.label} {self.done:,}{unit}  {clock_text(elapsed)}"

    @contextlib.asynccontextmanager
    async def ticking(self, every_s: float = 0.5) -> AsyncIterator[Bar]:
        """Redraw the line every ``every_s`` while the block runs (a loop that reports no
        progress of its own, or must not be slowed by counting it), then :meth:`close`."""

        async def tick() -> None:
            while True:
                await asyncio.sleep(every_s)
                self(self.done)

        task = asyncio.ensure_future(tick())
        try:
            yield self
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            self.close()

    def close(self) -> None:
        """Draw the last line (the phase is over)."""
        self.status(self.line(), True)

    def over(self, items: Iterable[T]) -> Iterator[T]:
        """``items``, one more done for each (then :meth:`close`)."""
        for item in items:
            yield item
            self.add()
        self.close()


def terminal_status(stream: TextIO | None = None) -> Status:
    """Progress lines for ``stream`` (default stderr): on a terminal one line redrawn in place
    (cleared when the phase ends, whose summary line follows); elsewhere a plain line every
    :data:`LOG_EVERY_S` seconds and the last one."""
    out = stream or sys.stderr
    if out.isatty():

        def redraw(line: str, final: bool) -> None:
            out.write("\r" + line + "\x1b[K")
            if final:
                out.write("\r\x1b[K")
            out.flush()

        return redraw
    last = [time.perf_counter()]

    def logged(line: str, final: bool) -> None:
        now = time.perf_counter()
        if final or now - last[0] >= LOG_EVERY_S:
            last[0] = now
            out.write(line + "\n")
            out.flush()

    return logged
