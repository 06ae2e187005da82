"""What a load balancer and a metrics scraper ask of one open database (issue 23, Hosting).

Each question reads only what is already in memory, or runs a small read-only query on the
reader (``Database.fetchall``: SQLite's reader connection, PostgreSQL's pool), never in a
write transaction: a long write (a replay, an import) never holds a health check up.

* :func:`database_state` — does the database answer a trivial query in time;
* :func:`clubs_loaded` — clubs whose ledgers are in memory;
* :func:`fold_backlog` — log entries the clubs' shadow systems have not folded yet;
* :func:`oldest_newest_snapshot` — when the stalest of the loaded clubs' newest snapshots
  was written.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from typing import Literal

from storage.backend import Database

log = logging.getLogger(__name__)

DatabaseState = Literal["ok", "timeout", "unreachable"]
"""``ok``: answered; ``timeout``: no answer within the timeout; ``unreachable``: the query
failed (the database is closed, the server is down, the file is gone)."""

PING_TIMEOUT_S = 1.0
"""How long :func:`database_state` waits for ``SELECT 1``: well under a load balancer's own
check timeout (typically 2–5 s), so the check answers 503 rather than not at all."""

CLUBS_PER_QUERY = 500
"""Club ids per ``IN (…)`` list (SQLite's default limit is 32,766 parameters)."""


async def database_state(db: Database, timeout_s: float = PING_TIMEOUT_S) -> DatabaseState:
    """Whether the database answers ``SELECT 1`` on its reader within ``timeout_s``.

    The reader takes no writer lock, so a long write transaction does not make it time out
    (an SQLite ``:memory:`` database, whose one connection is shared, is the exception).
    A failure is logged by its exception's type only: a PostgreSQL error may quote the URL.
    """
    try:
        await asyncio.wait_for(db.fetchall("SELECT 1"), timeout_s)
    except TimeoutError:
        log.warning("health: the database did not answer within %s s", timeout_s)
        return "timeout"
    except Exception as exc:
        log.warning("health: the database did not answer: %s", type(exc).__name__)
        return "unreachable"
    return "ok"


def clubs_loaded(db: Database) -> int:
    """How many clubs have their ledgers in memory (``db.projections.ledgers``)."""
    return len(db.projections.ledgers)


def fold_backlog(db: Database) -> int:
    """Log entries appended but not yet folded by the loaded clubs' shadow systems.

    A club's current system is folded on every write; its other systems (the shadows) catch
    up from their own snapshot and the tail only when asked (storage.projections.caught_up).
    This counts what the shadows in memory have not folded yet: the sum of each loaded club's
    :meth:`~storage.projections.ClubLedgers.backlog` (a shadow never folded in this process
    is not counted: nothing of it is in memory to be behind).
    """
    return sum(ledgers.backlog() for ledgers in db.projections.ledgers.values())


async def oldest_newest_snapshot(db: Database) -> dt.datetime | None:
    """When the stalest of the loaded clubs' newest snapshots was written (the ``snapshots``
    table's ``at``, by the database's clock); ``None`` when no loaded club has a snapshot.

    A club's newest snapshot is its row with the highest log position, whatever its code
    version (a row of another version is still the newest one written). A club without any
    snapshot (under ``db.projections.snapshot_every`` log entries) does not count. The
    ``at`` column follows the pickled ledgers in the row: only the newest row of each loaded
    club is read, never the older ones.
    """
    clubs = sorted(db.projections.ledgers)
    newest: dict[int, dt.datetime] = {}
    for start in range(0, len(clubs), CLUBS_PER_QUERY):
        part = clubs[start : start + CLUBS_PER_QUERY]
        marks = ", ".join("?" for _ in part)
        rows = await db.fetchall(
            f"SELECT s.club, s.at FROM snapshots AS s WHERE s.club IN ({marks}) AND s.seq = "
            "(SELECT MAX(t.seq) FROM snapshots AS t WHERE t.club = s.club)",
            part,
        )
        for club, at in rows:  # two versions' rows at one position: the later one
            written = _aware(dt.datetime.fromisoformat(str(at)))
            newest[int(club)] = max(written, newest.get(int(club), written))
    return min(newest.values(), default=None)


def _aware(moment: dt.datetime) -> dt.datetime:
    """A stored moment in UTC (the clock writes aware ones; a naive one is taken as UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)
