"""Moving a database: every log table copied to another backend, and the copy proved.

``hoshi migrate --from club.sqlite --to postgresql://…`` (and back, issue 5/5) copies the whole
append-only log — every table a fact lives in, in log order, in one transaction on the target —
then replays every club on the target and compares a digest of its projections (each player's
card under every system, the rating history, the last position folded) with the source's. The
projections are folds of the log, so equal digests prove the target rates exactly as the source
did; the log's own rows are compared by digest too. Nothing is copied into a database that
already holds a log, and a failed copy leaves the target as empty as it was.

Projections (with how far each system's are written), snapshots and rewrite marks are not
copied: the target builds its own.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.text import Msg, plural
from storage import projections
from storage.backend import Database, Transaction
from storage.errors import Refused

LOG_TABLES = (
    "log",
    "clubs",
    "chat_bindings",
    "players",
    "player_aliases",
    "account_links",
    "account_unlinks",
    "tournaments",
    "tournament_entries",
    "games",
    "events",
    "game_files",
    "game_sgf",
    "deliveries",
)
"""The tables copied, in an order that satisfies their references, each with every column the
schema gives it (both sides are at this hoshi's schema version: :func:`storage.open_db`
migrates them). ``deliveries`` is not part of the log but goes along, so that an update the
source acted on is not acted on again by the target."""

PROJECTION_QUERIES = (
    "SELECT system, player, card, sort_key, rank, games FROM player_state WHERE club = ? "
    "ORDER BY system, player",
    "SELECT system, seq, idx, moment, player, date, source, rating_before, rating_after, "
    "rank_before, rank_after, note FROM rating_history WHERE club = ? ORDER BY system, seq, idx",
    "SELECT last_seq, fingerprint FROM projection_state WHERE club = ?",
)
"""A club's projections, in a fixed order (the digest's input)."""

CHUNK = 5000
Progress = Callable[[str, int], None]
"""``progress(table, rows_copied_so_far)``."""


@dataclass(slots=True)
class Moved:
    """What :func:`copy_database` did: rows per table, each club's projection digest (equal on
    both sides), the log's digest, and the clubs whose digests differed (empty: verified)."""

    rows: dict[str, int] = field(default_factory=dict)
    clubs: dict[int, str] = field(default_factory=dict)
    log_digest: str = ""
    differing: list[int] = field(default_factory=list)

    @property
    def verified(self) -> bool:
        """Every club's projections on the target equal the source's."""
        return not self.differing


def _digest_rows(digest: Any, rows: Sequence[Sequence[Any]]) -> None:
    for row in rows:
        digest.update(repr(tuple(row)).encode())
        digest.update(b"\n")


async def projection_digest(db: Database, club: int) -> str:
    """``sha256:…`` of the club's projections under every system (after bringing each up to
    the log's end: the shadows catch up, storage.projections.every_system)."""
    await projections.every_system(db, club)
    digest = hashlib.sha256()
    for sql in PROJECTION_QUERIES:
        _digest_rows(digest, await db.fetchall(sql, (club,)))
    return "sha256:" + digest.hexdigest()


async def log_digest(db: Database) -> str:
    """``sha256:…`` of every log table's rows (in log order), so two databases holding the
    same log have the same digest whatever their backend."""
    digest = hashlib.sha256()
    for table in LOG_TABLES:
        if table == "deliveries":  # not part of the log (and pruned as it ages)
            continue
        columns = await db.columns(table)
        async with db.transaction() as tx:
            async for rows in tx.chunks(
                f"SELECT {', '.join(columns)} FROM {table} ORDER BY {columns[0]}", (), CHUNK
            ):
                _digest_rows(digest, rows)
    return "sha256:" + digest.hexdigest()


async def log_size(db: Database) -> int:
    """How many entries the database's log holds."""
    row = await db.fetchone("SELECT COUNT(*) FROM log")
    return 0 if row is None else int(row[0])


async def copy_database(
    source: Database, target: Database, progress: Progress | None = None
) -> Moved:
    """Copy every log table of ``source`` into the empty ``target``, then replay the target's
    clubs and compare their projections (and the log) with the source's by digest.

    Raises:
        Refused: the target already holds a log (nothing is copied).
    """
    held = await log_size(target)
    if held:
        raise Refused(
            plural(
                "the target database already holds {n} log entry; hoshi migrate copies "
                "into an empty database only (a new SQLite file, or a new PostgreSQL database "
                "made with createdb)",
                "the target database already holds {n} log entries; hoshi migrate copies "
                "into an empty database only (a new SQLite file, or a new PostgreSQL database "
                "made with createdb)",
                held,
            )
        )
    moved = Moved()
    async with source.transaction() as reading, target.transaction() as writing:
        for table in LOG_TABLES:
            columns = await source.columns(table)
            if sorted(columns) != sorted(await target.columns(table)):
                raise Refused(
                    Msg(
                        "the two databases' {table} tables differ ({source} and {target}); "
                        "open both with this hoshi first",
                        table=table,
                        source=", ".join(columns),
                        target=", ".join(await target.columns(table)),
                    )
                )
            moved.rows[table] = await _copy_table(reading, writing, table, columns, progress)
        await writing.positions_follow_log()
    clubs = [int(row[0]) for row in await source.fetchall("SELECT seq FROM clubs ORDER BY seq")]
    for club in clubs:
        await projections.replay_club(target, club)
        before = await projection_digest(source, club)
        after = await projection_digest(target, club)
        moved.clubs[club] = after
        if before != after:
            moved.differing.append(club)
    moved.log_digest = await log_digest(source)
    if await log_digest(target) != moved.log_digest:
        moved.differing.append(0)
    return moved


async def _copy_table(
    reading: Transaction,
    writing: Transaction,
    table: str,
    columns: Sequence[str],
    progress: Progress | None,
) -> int:
    names = ", ".join(columns)
    insert = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' for _ in columns)})"
    copied = 0
    async for rows in reading.chunks(
        f"SELECT {names} FROM {table} ORDER BY {columns[0]}", (), CHUNK
    ):
        await writing.executemany(insert, rows)
        copied += len(rows)
        if progress is not None:
            progress(table, copied)
    if progress is not None and copied == 0:
        progress(table, 0)
    return copied
