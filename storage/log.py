"""Appending to the club log: one global sequence, who/when/where on every entry.

Every write goes through :func:`append`, which hands out the next ``seq`` (one order for the
whole history) and records ``at``, ``actor`` and ``chat`` in the ``log`` table; the typed
tables (players, games, events …) then insert their row under that ``seq``. Nothing here is
ever updated or deleted.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

from storage.backend import Clock, Row, Transaction
from storage.codec import dumps, from_timestamp, timestamp
from storage.records import EventRow, LogEntry

# Kinds of log entries that are not events (their own tables hold them).
CLUB = "club"
BINDING = "binding"
PLAYER = "player"
ALIAS = "alias"
LINK = "link"
UNLINK = "unlink"  # an account taken off its player (account_unlinks)
TOURNAMENT = "tournament"
ENTRY = "entry"
GAME = "game"

# Event kinds (the ``events`` table).
VOID = "void"
CORRECT = "correct"
UNDO = "undo"
CONFIRM = "confirm"
OVERRIDE = "override"
EGF = "egf"
TEACHER = "teacher"
SUSPEND = "suspend"
SETTING = "setting"
RATING_SETTING = "rating_setting"  # a rating setting from a date (payload key, value, date)
FINALISE = "finalise"
REOPEN = "reopen"
AMEND = "amend"
PERIOD = "period"
DAY = "day"
MONTH = "month"
ORGANISER_ADD = "organiser_add"
ORGANISER_REMOVE = "organiser_remove"
JOIN_CODE = "join_code"
JOIN_REDEEMED = "join_redeemed"
RENAME = "rename"  # a club's new name (payload name, from; key: the new name folded)
# a tournament run from the chat (storage.pairings; target: the tournament)
PAIRING = "pairing"  # its setup (payload: system, bar, floor, handicap, order)
DRAFT = "draft"  # a round's pairing the organiser looks at (payload: round, boards, bye, idle)
ROUND = "round"  # a round's pairing published
WITHDRAW = "withdraw"  # an entrant withdrawn (payload: player)

ENGINE_EVENTS = (OVERRIDE, EGF, TEACHER, SUSPEND, PERIOD, DAY, MONTH, RATING_SETTING)
"""Event kinds that become engine history events."""

OVERLAY_EVENTS = (UNDO, VOID, CORRECT, CONFIRM, FINALISE, REOPEN, AMEND)
"""Event kinds that change how other log entries count."""

UNDOABLE = (
    GAME,
    PLAYER,
    VOID,
    CORRECT,
    CONFIRM,
    OVERRIDE,
    EGF,
    TEACHER,
    SUSPEND,
    RATING_SETTING,
    FINALISE,
    REOPEN,
)
"""Log kinds ``/undo`` can take back."""

LOG_COLUMNS = "log.seq, log.club, log.kind, log.at, log.actor, log.chat"


class Reader(Protocol):
    """Anything that runs read queries: a :class:`Transaction` or the :class:`Database`."""

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...


async def append(
    tx: Transaction, clock: Clock, *, club: int | None, kind: str, actor: str, chat: str | None
) -> int:
    """Add a log entry and return its ``seq``.

    ``club=None`` makes the entry its own club (a club is identified by the seq of its
    creation). A known club's writes are serialised first (``tx.lock``: other processes'
    writes to it wait for this transaction), and its entry takes the next position in one
    statement (``tx.insert_log``); the transaction tells other processes at commit
    (``tx.appending``).
    """
    if not actor:
        raise ValueError("every log entry needs an actor (e.g. telegram:123 or console)")
    position: int | None = None  # the next, taken by the insert
    if club is not None:
        await tx.lock(club)  # before the position: a club's positions rise in commit order
        owner = club
    else:  # a new club: its own position names it
        position = owner = await tx.next_seq()
    at = timestamp(clock())
    seq = await tx.insert_log(owner, kind, at, actor, chat, seq=position)
    tx.last_entry = (seq, owner, kind, at, actor, chat)
    tx.appending(owner, seq, keys_kept=kind == GAME)
    return seq


async def append_event(
    tx: Transaction,
    clock: Clock,
    *,
    club: int,
    kind: str,
    actor: str,
    chat: str | None,
    target: int | None = None,
    key: str | None = None,
    payload: dict[str, Any] | None = None,
) -> int:
    """Add an event (kind + JSON payload) and return its ``seq``."""
    seq = await append(tx, clock, club=club, kind=kind, actor=actor, chat=chat)
    await tx.execute(
        "INSERT INTO events (seq, club, kind, target, key, payload) VALUES (?, ?, ?, ?, ?, ?)",
        (seq, club, kind, target, key, dumps(payload or {})),
    )
    return seq


def entry_from(row: Row, start: int = 0) -> LogEntry:
    """A :class:`LogEntry` from ``LOG_COLUMNS`` at ``row[start:start + 6]``."""
    seq, club, kind, at, actor, chat = row[start : start + 6]
    return LogEntry(seq, club, kind, from_timestamp(at), actor, chat)


async def log_entry(reader: Reader, seq: int) -> LogEntry | None:
    """The log entry ``seq``, or ``None``."""
    row = await reader.fetchone(f"SELECT {LOG_COLUMNS} FROM log WHERE seq = ?", (seq,))
    return None if row is None else entry_from(row)


EVENT_COLUMNS = (
    f"events.seq, events.kind, events.target, events.key, events.payload, {LOG_COLUMNS}"
)


def event_from(row: Row) -> EventRow:
    """An :class:`EventRow` from ``EVENT_COLUMNS``."""
    return EventRow(row[0], row[1], row[2], row[3], json.loads(row[4]), entry_from(row, 5))


async def events(
    reader: Reader, club: int, kinds: Sequence[str], *, target: int | None = None
) -> list[EventRow]:
    """The club's events of the given kinds (optionally about one target), in log order."""
    marks = ", ".join("?" for _ in kinds)
    sql = (
        f"SELECT {EVENT_COLUMNS} FROM events JOIN log ON log.seq = events.seq "
        f"WHERE events.club = ? AND events.kind IN ({marks})"
    )
    params: list[Any] = [club, *kinds]
    if target is not None:
        sql += " AND events.target = ?"
        params.append(target)
    return [event_from(row) for row in await reader.fetchall(sql + " ORDER BY events.seq", params)]
