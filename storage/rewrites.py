"""The ``rewrites`` table: where a write rewrote a club's calendar from.

A ledger folded up to some log entry and calendar place — a snapshot (storage.snapshots),
another process's ledgers, a shadow system (storage.projections) — can be resumed from there
only while no later write rewrote the past at or before that place. storage.projections
records each rewrite; storage.snapshots and storage.projections ask before resuming.
"""

from __future__ import annotations

from engine.calendar import Key
from storage.backend import Transaction


async def record_rewrite(tx: Transaction, club: int, seq: int, since: Key) -> None:
    """Note that the write whose last log entry is ``seq`` rewrote the club's calendar from
    ``since`` on (the ``rewrites`` table): ledgers folded up to an earlier entry and a place
    at or after ``since`` — a snapshot, another process's, a shadow — can no longer be
    resumed."""
    moment, position = max(since, (0, 0))
    await tx.execute(
        "INSERT INTO rewrites (club, seq, moment, position) VALUES (?, ?, ?, ?) "
        "ON CONFLICT DO NOTHING",
        (club, seq, moment, position),
    )


async def rewritten(tx: Transaction, club: int, seq: int, key: Key) -> bool:
    """Whether a rewrite after log entry ``seq`` reached calendar key ``key`` or earlier."""
    return await rewrite_reaching(tx, club, seq, key) is not None


async def rewrite_reaching(tx: Transaction, club: int, seq: int, key: Key) -> Key | None:
    """The earliest place a rewrite after log entry ``seq`` rewrote from, among those that
    reached calendar key ``key`` or earlier (``None``: none did)."""
    moment, position = key
    row = await tx.fetchone(
        "SELECT moment, position FROM rewrites WHERE club = ? AND seq > ? "
        "AND (moment < ? OR (moment = ? AND position <= ?)) "
        "ORDER BY moment, position LIMIT 1",
        (club, seq, moment, moment, position),
    )
    return None if row is None else (int(row[0]), int(row[1]))
