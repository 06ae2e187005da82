"""A console session the model drives: the console's own dispatch on one SQLite file.

:class:`Session` opens a database the way ``hoshi console --db x.sqlite --clock "…" --system S``
does (bot.adapters.console: the club, the console chat, the core, the scheduler without timers)
and runs console lines through :meth:`Console.run_line`, so each step is exactly the line a
person would type, ``/as NAME /command …`` and ``/tick`` included. What the console printed
(replies and the notices the scheduler posted) is kept per step.

Making a club costs a migration; a template per (system, start) is made once per test session
and copied for each example (as tests/bot/core/fakechat.py does).
"""

from __future__ import annotations

import atexit
import datetime as dt
import io
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import storage
from bot.adapters.console import Console, console_club
from bot.clock import FakeClock
from bot.config import Config
from bot.core.app import Core
from bot.core.scheduler import Scheduler
from storage.db import Database
from storage.records import Club

CLUB = "My Go Club"
LANGUAGE = "/club set language en"
"""The first line of every script: the club speaks English (the checks read its replies)."""

_TEMPLATES: dict[tuple[str, dt.datetime], Path] = {}
_TEMPLATE_DIR: Path | None = None


@dataclass(frozen=True, slots=True)
class Said:
    """One console line's outcome: whether the reply was an error, and all that was printed
    (the reply, and whatever the scheduler posted meanwhile)."""

    line: str
    error: bool
    text: str


async def _template(system: str, start: dt.datetime) -> Path:
    """A database holding the console's club (``system``, created at ``start``) speaking
    English, made once per test session."""
    global _TEMPLATE_DIR
    key = (system, start)
    if key in _TEMPLATES:
        return _TEMPLATES[key]
    if _TEMPLATE_DIR is None:
        _TEMPLATE_DIR = Path(tempfile.mkdtemp(prefix="hoshi-model-"))
        atexit.register(shutil.rmtree, _TEMPLATE_DIR, True)
    path = _TEMPLATE_DIR / f"{system}-{len(_TEMPLATES)}.sqlite"
    session = await Session.start(path, system, start, fresh=True)
    try:
        said = await session.run(LANGUAGE)
        assert not said.error, said.text
    finally:
        await session.close()
    _TEMPLATES[key] = path
    return path


class Session:
    """The console on one database file, with a hand-moved clock."""

    def __init__(
        self,
        db: Database,
        club: Club,
        core: Core,
        console: Console,
        scheduler: Scheduler,
        clock: FakeClock,
        out: io.StringIO,
    ) -> None:
        self.db, self.club, self.core, self.console = db, club, core, console
        self.scheduler, self.clock, self.out = scheduler, clock, out

    @classmethod
    async def start(
        cls, path: Path, system: str, start: dt.datetime, *, fresh: bool = False
    ) -> Session:
        """``hoshi console --db PATH --clock START --system SYSTEM`` (from a template copy
        unless ``fresh``)."""
        if not fresh:
            shutil.copyfile(await _template(system, start), path)
        clock = FakeClock(start)
        db = await storage.open_db(path, clock=clock)
        out = io.StringIO()
        try:
            club = await console_club(db, None, system, CLUB)
            config = Config(db_path=path, charts_dir=path.parent / "charts")
            core = Core(db, config)
            console = Console(core, club, out, config.charts_dir)
            core.deliver = console.show_notice
            scheduler = core.scheduler = Scheduler(core, core.deliver, timers=False)
            await scheduler.start()
        except BaseException:
            await db.close()
            raise
        return cls(db, club, core, console, scheduler, clock, out)

    async def close(self) -> None:
        await self.scheduler.stop()
        await self.db.close()

    async def run(self, line: str, block: str | None = None) -> Said:
        """One console line (with its pasted block); what it printed."""
        mark = self.out.tell()
        attachment = None if block is None else block.encode("utf-8")
        reply = await self.console.run_line(line, attachment)
        return Said(line, reply.error, self.out.getvalue()[mark:])

    @property
    def now(self) -> dt.datetime:
        return self.clock()


def render(system: str, start: dt.datetime, steps: list[tuple[str, str | None]]) -> str:
    """The steps as a console script: ``python3 -m bot console --db x.sqlite --clock "START"
    --system SYSTEM < script.txt`` reproduces them."""
    when = start.strftime("%Y-%m-%d %H:%M")
    lines = [
        "# Run it: python3 -m bot console --db x.sqlite "
        f'--clock "{when}" --system {system} < script.txt',
        LANGUAGE,
    ]
    for line, block in steps:
        if block is None:
            lines.append(line)
        else:
            lines.append(f"{line} <<END")
            lines.extend(block.rstrip("\n").split("\n"))
            lines.append("END")
    return "\n".join(lines)
