"""Following the log that other processes write (issue 15, several processes on one club).

Every process keeps its clubs' ledgers in memory (``db.projections.ledgers``,
storage.projections). When another process appends to a club's log, this process's ledgers of
that club fall behind; the next write here would have to fold the new entries first. The
follower does that fold as soon as the other process commits, so that a write here never waits
for it:

* ``db.listen`` (PostgreSQL: ``LISTEN hoshi_log``) calls back with ``(club, seq)`` for every
  commit that appended entries to a club, in any process. A club whose cached ledgers are
  older than ``seq`` is caught up in a transaction through
  :func:`storage.projections.ledgers_for`, which resumes the cached ledgers from where they are
  (folding only the new entries, never the whole history again).
* ``(0, 0)`` means "notices may have been missed" (the listening connection was lost and made
  again): every cached club is checked against the log. So is every cached club every
  ``every_s`` seconds (a database without notices, e.g. one SQLite file shared by several
  processes, is followed that way).

A club with no cached ledgers is left alone: it is folded on its first use, as ever. The
follower never raises out of its task: a failed catch-up is logged, and the next notice or the
next periodic check tries again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from storage.backend import Database, Listening
from storage.projections import ledgers_for

log = logging.getLogger("hoshi.follow")

EVERY_S = 30.0
"""How often every cached club is checked against the log, notices or not."""

EVERYTHING = 0
"""The club of the notice ``(0, 0)``: check every cached club."""


class Follower:
    """A running follower (see the module docstring); :func:`follow` starts one, ``await
    close()`` stops it. ``caught_up`` counts the catch-ups it made (for logs and tests)."""

    def __init__(self, db: Database, *, every_s: float = EVERY_S) -> None:
        self.db = db
        self.every_s = every_s
        self.caught_up = 0
        self._notices: dict[int, int] = {}  # club → the newest position a notice named
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()  # set while nothing waits to be caught up
        self._idle.set()
        self._listening: Listening | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Listen for notices (when the database sends them) and start the loop."""
        self._listening = await self.db.listen(self.notice)
        self._task = asyncio.get_running_loop().create_task(self._run(), name="hoshi follow")

    def notice(self, club: int, seq: int) -> None:
        """A commit appended to ``club``'s log up to ``seq`` (``(0, 0)``: maybe several were
        missed). Called by the database's listener; it only takes note, the loop folds."""
        club, seq = int(club), int(seq)
        if club != EVERYTHING:
            cached = self.db.projections.ledgers.get(club)
            if cached is None or cached.last_seq >= seq:
                return  # nothing cached, or this process's own write: nothing to fold
        self._notices[club] = max(seq, self._notices.get(club, 0))
        self._idle.clear()
        self._wake.set()

    async def settled(self) -> None:
        """Wait until every notice taken so far has been acted on (for tests and shutdown)."""
        await self._idle.wait()

    async def _run(self) -> None:
        while True:
            everything = False
            try:
                await asyncio.wait_for(self._wake.wait(), self.every_s)
            except TimeoutError:
                everything = True
            self._wake.clear()
            notices, self._notices = self._notices, {}
            if notices.pop(EVERYTHING, None) is not None:
                everything = True
            try:
                if everything:
                    await self.check_all()
                for club, seq in sorted(notices.items()):
                    await self._behind(club, seq)
            finally:
                if not self._notices:
                    self._idle.set()

    async def check_all(self) -> int:
        """Compare every cached club with the log and catch up those behind; returns how many
        were caught up."""
        done = 0
        for club in sorted(self.db.projections.ledgers):
            try:
                row = await self.db.fetchone("SELECT MAX(seq) FROM log WHERE club = ?", (club,))
            except Exception:
                log.exception("follow: could not read club %s's last log position", club)
                continue
            if row is not None and row[0] is not None and await self._behind(club, int(row[0])):
                done += 1
        return done

    async def _behind(self, club: int, seq: int) -> bool:
        """Catch the club's cached ledgers up if they are older than ``seq``; whether it
        did. Never raises (but for cancellation)."""
        cached = self.db.projections.ledgers.get(club)
        if cached is None or cached.last_seq >= seq:
            return False
        began, behind = time.monotonic(), cached.last_seq
        try:
            async with self.db.transaction() as tx:
                ledgers = await ledgers_for(self.db, tx, club)
        except Exception:
            log.exception("follow: could not catch club %s up to log position %s", club, seq)
            return False
        self.caught_up += 1
        log.debug(
            "follow: club %s caught up from log position %s to %s in %.1f ms",
            club,
            behind,
            ledgers.last_seq,
            (time.monotonic() - began) * 1000,
        )
        return True

    async def close(self) -> None:
        """Stop listening and stop the loop (idempotent)."""
        listening, self._listening = self._listening, None
        if listening is not None:
            try:
                await listening.close()
            except Exception:
                log.exception("follow: stopping the listener failed")
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


async def follow(db: Database, *, every_s: float = EVERY_S) -> Follower:
    """Start following the log for ``db``'s cached ledgers (see the module docstring).

    Args:
        every_s: how often every cached club is checked against the log anyway.

    Returns:
        The running follower; ``await follower.close()`` stops it (before ``db.close()``).
    """
    follower = Follower(db, every_s=every_s)
    await follower.start()
    return follower
