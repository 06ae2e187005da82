"""Forward-only numbered migrations, tracked by ``PRAGMA user_version`` (STYLE.md, storage/)
on SQLite and by the one-row table ``schema_version`` on PostgreSQL.

A migration is a file ``NNNN_name.sql`` in ``storage/migrations/``; version N is the schema after
file N has run. Opening a database applies every file above its version, each in its own
transaction (an older database upgrades in place); a database newer than the newest file is
refused, naming both versions. The files are written in SQLite's dialect; PostgreSQL runs
their translation (storage.dialect.migration), each under ``pg_advisory_xact_lock(0)`` so two
processes starting at once migrate one after the other.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING

import aiosqlite

from storage import dialect
from storage.errors import SchemaVersionError

if TYPE_CHECKING:
    import asyncpg

_NAME_RE = re.compile(r"^(\d{4})_[A-Za-z0-9_]+\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One migration file: its version number, name and SQL text."""

    version: int
    name: str
    sql: str


def packaged() -> Traversable:
    """The migrations shipped with hoshi (package data ``storage/migrations/*.sql``)."""
    return resources.files("storage") / "migrations"


def discover(directory: Traversable | Path) -> list[Migration]:
    """The migrations in ``directory``, in version order.

    Raises:
        ValueError: when the numbers do not run 1, 2, 3 … without gaps or repeats.
    """
    found: list[Migration] = []
    for item in directory.iterdir():
        match = _NAME_RE.match(item.name)
        if match is not None:
            found.append(Migration(int(match[1]), item.name, item.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise ValueError(
                f"migration {migration.name} is out of sequence: expected number {expected:04d}"
            )
    return found


def pending(current: int, migrations: Iterable[Migration]) -> list[Migration]:
    """The migrations to run on a database at version ``current``.

    Raises:
        SchemaVersionError: when the database is newer than the newest migration.
    """
    known = list(migrations)
    newest = known[-1].version if known else 0
    if current > newest:
        raise SchemaVersionError(
            f"the database is at schema version {current}, but this hoshi knows versions up to "
            f"{newest}; upgrade hoshi to open it"
        )
    return [m for m in known if m.version > current]


async def apply(connection: aiosqlite.Connection, migrations: Iterable[Migration]) -> int:
    """Bring ``connection`` up to the newest migration.

    Each migration runs in one transaction together with its ``user_version`` bump, so a
    failing migration leaves the database at the previous version.

    Returns:
        The schema version after migrating.

    Raises:
        SchemaVersionError: when the database is newer than the newest migration.
    """
    rows = list(await connection.execute_fetchall("PRAGMA user_version"))
    current: int = rows[0][0]
    for migration in pending(current, migrations):
        script = (
            f"BEGIN IMMEDIATE;\n{migration.sql}\n;PRAGMA user_version = {migration.version};\n"
            "COMMIT;"
        )
        try:
            await connection.executescript(script)
        except sqlite3.Error:
            if connection.in_transaction:
                await connection.execute_fetchall("ROLLBACK")
            raise
        current = migration.version
    return current


MIGRATION_LOCK = 0
"""The advisory lock key held while migrating a PostgreSQL database (clubs are 1 and up)."""


async def apply_pg(connection: asyncpg.Connection, migrations: Iterable[Migration]) -> int:
    """Bring a PostgreSQL database up to the newest migration (see :func:`apply`).

    Each migration runs in its own transaction with its version bump, under advisory lock
    :data:`MIGRATION_LOCK`; the version is read again once the lock is held, so a second
    process finds the work done.

    Returns:
        The schema version after migrating.

    Raises:
        SchemaVersionError: when the database is newer than the newest migration.
    """
    known = list(migrations)
    while True:
        async with connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            if await connection.fetchval("SELECT to_regclass('schema_version')") is None:
                await connection.execute("CREATE TABLE schema_version (version BIGINT NOT NULL)")
            current = await connection.fetchval("SELECT MAX(version) FROM schema_version")
            if current is None:
                await connection.execute("INSERT INTO schema_version (version) VALUES (0)")
                current = 0
            todo = pending(int(current), known)
            if not todo:
                return int(current)
            step = todo[0]
            for statement in dialect.migration(step.sql):
                await connection.execute(statement)
            await connection.execute("UPDATE schema_version SET version = $1", step.version)
