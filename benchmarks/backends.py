"""Where ``hoshi bench`` keeps its federation: a SQLite file or a PostgreSQL database.

:func:`place` gives a :class:`Place` for the run and removes it afterwards:

* ``sqlite`` — a file in the run's temporary directory;
* ``postgresql`` — a fresh database, either on a throw-away cluster started for the run
  (``benchmarks.pgcluster``: initdb + pg_ctl in a temporary directory, stopped and removed at
  the end) or, with ``url``, on an existing server (a database ``hoshi_bench_…`` created there
  and dropped at the end; the URL's own database is only used to connect).

A place also knows the backend's plain-driver **scan floor** (``sqlite3`` or a plain asyncpg
cursor reading the replay's game query into tuples), its server's name and version, the
settings that bear on commit cost, and the database's size.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from storage.db import is_url, without_password
from storage.history import GAME_SELECT

BACKENDS = ("sqlite", "postgresql")

SCAN_SQL = f"SELECT {GAME_SELECT} FROM games WHERE club = ? AND pending = 0 ORDER BY seq"
"""The replay's game query (storage.history reads the same rows, in the same order)."""

SCAN_BATCH = 4096
"""Rows per fetch in the floor scans (``fetchmany`` / the asyncpg cursor's prefetch)."""

PG_SETTINGS = ("fsync", "synchronous_commit", "shared_buffers", "max_connections")
"""The server settings printed with a PostgreSQL run (they decide what a commit costs)."""


def with_database(url: str, database: str) -> str:
    """``url`` with its database part replaced."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + database, parts.query, parts.fragment))


@dataclass
class Place:
    """One run's database: ``target`` is what ``storage.open_db`` takes (a path or a URL).

    ``server``: the backend's name and version as printed (``SQLite 3.40.1``,
    ``PostgreSQL 15.5``); ``where``: how the database was made (a file, a throw-away
    cluster, a server given by URL); ``settings``: the server settings that bear on commit
    cost.
    """

    backend: str
    target: str
    work: Path
    server: str = ""
    where: str = ""
    settings: dict[str, str] = field(default_factory=dict)
    _admin: str | None = None  # PostgreSQL: the URL to create and drop databases through
    _made: list[str] = field(default_factory=list)  # PostgreSQL: databases to drop

    async def another(self, name: str) -> str:
        """A second, empty database of the same kind (the ``--check`` twin)."""
        if self.backend == "sqlite":
            return str(self.work / f"{name}.sqlite")
        return await self._create(name)

    async def _create(self, name: str) -> str:
        import asyncpg

        assert self._admin is not None
        database = f"hoshi_bench_{name}_{secrets.token_hex(4)}"
        connection = await asyncpg.connect(self._admin)
        try:
            await connection.execute(f'CREATE DATABASE "{database}"')
        finally:
            await connection.close()
        self._made.append(database)
        return with_database(self._admin, database)

    async def _drop_made(self) -> None:
        if not self._made or self._admin is None:
            return
        import asyncpg

        connection = await asyncpg.connect(self._admin)
        try:
            for database in self._made:
                with suppress(asyncpg.PostgresError):
                    await connection.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        finally:
            await connection.close()

    async def size_mb(self) -> float:
        """The database's size on disk (MB; the SQLite file once closed, or
        ``pg_database_size``)."""
        if self.backend == "sqlite":
            path = Path(self.target)
            return path.stat().st_size / 1e6 if path.exists() else 0.0
        import asyncpg

        connection = await asyncpg.connect(self.target)
        try:
            size = await connection.fetchval("SELECT pg_database_size(current_database())")
        finally:
            await connection.close()
        return int(size) / 1e6

    async def scan_floor(self, club: int, repeat: int = 3) -> tuple[int, float]:
        """The floor: the replay's game query read with the plain driver into tuples, best of
        ``repeat`` — ``sqlite3`` ``fetchmany``, or an asyncpg cursor (one transaction,
        :data:`SCAN_BATCH` rows a fetch) whose records are turned into tuples."""
        if self.backend == "sqlite":
            return await asyncio.to_thread(_sqlite_scan, self.target, club, repeat)
        import asyncpg

        sql = SCAN_SQL.replace("?", "$1")
        connection = await asyncpg.connect(self.target)
        try:
            best = float("inf")
            rows = 0
            for _ in range(repeat):
                started = time.perf_counter()
                rows = 0
                async with connection.transaction(readonly=True):
                    async for record in connection.cursor(sql, club, prefetch=SCAN_BATCH):
                        tuple(record)
                        rows += 1
                best = min(best, time.perf_counter() - started)
            return rows, best
        finally:
            await connection.close()


def _sqlite_scan(path: str, club: int, repeat: int) -> tuple[int, float]:
    connection = sqlite3.connect(path)
    try:
        best = float("inf")
        rows = 0
        for _ in range(repeat):
            started = time.perf_counter()
            cursor = connection.execute(SCAN_SQL, (club,))
            rows = 0
            while chunk := cursor.fetchmany(SCAN_BATCH):
                rows += len(chunk)
            best = min(best, time.perf_counter() - started)
        return rows, best
    finally:
        connection.close()


async def _pg_describe(url: str) -> tuple[str, dict[str, str]]:
    """The server's version and :data:`PG_SETTINGS`."""
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        version = await connection.fetchval("SHOW server_version")
        settings = {name: str(await connection.fetchval(f"SHOW {name}")) for name in PG_SETTINGS}
    finally:
        await connection.close()
    return f"PostgreSQL {str(version).split()[0]}", settings


@asynccontextmanager
async def place(
    backend: str,
    work: Path,
    *,
    url: str | None = None,
    cluster_dir: Path | None = None,
    say: Any = lambda _: None,
) -> AsyncIterator[Place]:
    """The run's database on ``backend``, removed afterwards (module docstring).

    ``work``: the run's temporary directory (the SQLite file goes there); ``url``: an
    existing PostgreSQL server to use instead of a throw-away cluster; ``cluster_dir``: where
    the throw-away cluster's directory goes (default: the system's temporary directory; the
    ``postgres`` user must be able to enter it).

    Raises:
        ValueError: an unknown backend, or a URL that is not ``postgresql://``.
        benchmarks.pgcluster.Unavailable: no PostgreSQL binaries (and no ``url``).
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if backend == "sqlite":
        if url is not None:
            raise ValueError("--db-url is for --backend postgresql")
        path = work / "federation.sqlite"
        yield Place(
            "sqlite",
            str(path),
            work,
            server=f"SQLite {sqlite3.sqlite_version}",
            where=f"a file in {work}",
        )
        return
    if url is not None and not is_url(url):
        raise ValueError(f"--db-url takes a postgresql:// URL, not {url!r}")
    cluster = None
    if url is None:
        from benchmarks import pgcluster

        say("starting a throw-away PostgreSQL cluster …")
        parent = None if cluster_dir is None else os.fspath(cluster_dir)
        cluster = await asyncio.to_thread(pgcluster.start, parent=parent)
        admin = cluster.url("postgres")
        where = f"a throw-away cluster on 127.0.0.1:{cluster.port}"
    else:
        admin = url
        where = f"a database made on {without_password(url)}"
    try:
        here = Place("postgresql", "", work, where=where, _admin=admin)
        try:
            here.target = await here._create("federation")
            here.server, here.settings = await _pg_describe(here.target)
            yield here
        finally:
            await here._drop_made()
    finally:
        if cluster is not None:
            await asyncio.to_thread(cluster.stop)
