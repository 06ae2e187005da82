"""Shared test fixtures: the rulebooks' vectors live in ../shared/vectors beside the checkout."""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from benchmarks import pgcluster
from tests import postgres_setup

# CI runs on a busy 2-core machine: no per-example deadline (timing is the benchmarks' job), and
# the same examples every run, so a red CI is a reproducible failure, never a dice roll.
settings.register_profile("hoshi", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("hoshi")

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT.parent / "shared" / "vectors"


def load_vectors(name: str) -> dict[str, Any]:
    """One vector file, e.g. ``load_vectors("mgsz")``; a missing file fails the test loudly."""
    path = VECTORS / f"{name}.json"
    if not path.exists():
        pytest.fail(f"test vectors not found at {path} (../shared/vectors beside the checkout)")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.fixture(autouse=True)
def english_operator(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line and the console speak the terminal's locale (LC_ALL, LC_MESSAGES,
    LANG): every test reads English on any machine unless it sets one."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(autouse=True)
def own_user_directories(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """hoshi's per-user directories (the default database, config, charts and exports) in
    a temporary folder: no test reads the config or writes into the home of whoever runs the
    tests. A test that sets them itself overrides this."""
    base = tmp_path_factory.getbasetemp()
    monkeypatch.setenv("XDG_DATA_HOME", str(base / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(base / "xdg-config"))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "postgresql_only: a storage test about the PostgreSQL backend alone"
    )
    config.addinivalue_line(
        "markers",
        "both_backends: a storage test that opens its databases itself (open_test_db), "
        "run on SQLite and PostgreSQL",
    )
    config.addinivalue_line(
        "markers",
        "sqlite_only: a storage test about SQLite files themselves (not run on PostgreSQL)",
    )


TEMPLATE = "hoshi_template"


class PgDatabases:
    """The session's throw-away PostgreSQL cluster: a migrated template database, and a fresh
    database cloned from it per use (``CREATE DATABASE … TEMPLATE`` copies files: fast).

    A database a test gave back (:meth:`release`) with the template's tables is emptied
    (``TRUNCATE``, the log sequence restarted: as fresh as a clone, and faster) and handed out
    again; any other is dropped.
    """

    def __init__(self, cluster: pgcluster.Cluster, tables: frozenset[str]):
        self.cluster = cluster
        self._names = itertools.count(1)
        self._tables = tables
        self._cloned: set[str] = set()
        self._free: list[str] = []

    def url(self, database: str = "postgres") -> str:
        return self.cluster.url(database)

    async def create(self, *, migrated: bool = True) -> str:
        """A new database (a copy of the migrated template, or empty); its URL."""
        import asyncpg

        if migrated and self._free:
            return self._free.pop()
        name = f"t{next(self._names)}"
        template = TEMPLATE if migrated else "template0"
        connection = await asyncpg.connect(self.url())
        try:
            await connection.execute(
                f'CREATE DATABASE "{name}" TEMPLATE "{template}" STRATEGY FILE_COPY'
            )
        finally:
            await connection.close()
        if migrated:
            self._cloned.add(self.url(name))
        return self.url(name)

    async def release(self, url: str) -> None:
        """A test is done with ``url``: empty it for the next one, or drop it."""
        import asyncpg

        if url in self._cloned:
            connection = await asyncpg.connect(url)
            try:
                others = await connection.fetchval(
                    "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND pid <> pg_backend_pid()"
                )
                rows = await connection.fetch(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                )
                if not others and frozenset(row[0] for row in rows) == self._tables:
                    emptied = ", ".join(sorted(self._tables - {"schema_version"}))
                    await connection.execute(
                        f"TRUNCATE {emptied} RESTART IDENTITY; ALTER SEQUENCE log_seq RESTART"
                    )
                    self._free.append(url)
                    return
            finally:
                await connection.close()
        await self.drop(url)

    async def drop(self, url: str) -> None:
        """Remove a database made by :meth:`create` (any connection left open is ended)."""
        import asyncpg

        name = url.rsplit("/", 1)[1]
        connection = await asyncpg.connect(self.url())
        try:
            await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await connection.close()


async def _make_template(cluster: pgcluster.Cluster) -> frozenset[str]:
    import asyncpg

    from storage import open_db

    connection = await asyncpg.connect(cluster.url())
    try:
        await connection.execute(f'CREATE DATABASE "{TEMPLATE}"')
    finally:
        await connection.close()
    db = await open_db(cluster.url(TEMPLATE))
    try:
        return frozenset(await db.tables())
    finally:
        await db.close()


@pytest.fixture(scope="session")
def pg_cluster(pytestconfig: pytest.Config) -> Iterator[pgcluster.Cluster]:
    """A PostgreSQL cluster for the whole session. Its binaries are installed first when a
    root Debian machine lacks them; skipped, saying what to install, only where they cannot
    be."""
    reporter = pytestconfig.pluginmanager.getplugin("terminalreporter")
    try:
        postgres_setup.ensure_postgresql(
            log=reporter.write_line if reporter is not None else print
        )
        cluster = pgcluster.start()
    except pgcluster.Unavailable as error:
        pytest.skip(str(error))
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def pg_databases(pg_cluster: pgcluster.Cluster) -> PgDatabases:
    """Fresh databases in the session's cluster, cloned from a migrated template."""
    # on a thread of its own: the first test asking may be inside a running event loop
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        tables = pool.submit(asyncio.run, _make_template(pg_cluster)).result()
    return PgDatabases(pg_cluster, tables)
