"""benchmarks.pgcluster: a throw-away PostgreSQL cluster (tests and ``hoshi bench``)."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import asyncpg
import pytest

from benchmarks import pgcluster


async def _tables(url: str) -> int:
    connection = await asyncpg.connect(url)
    try:
        count: int = await connection.fetchval(
            "SELECT COUNT(*) FROM pg_tables WHERE schemaname = 'public'"
        )
        return count
    finally:
        await connection.close()


def _listening(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


async def test_the_sessions_cluster_answers_on_127_0_0_1(pg_cluster: pgcluster.Cluster) -> None:
    connection = await asyncpg.connect(pg_cluster.url())
    try:
        assert await connection.fetchval("SHOW fsync") == "off"
        assert await connection.fetchval("SHOW listen_addresses") == "127.0.0.1"
        assert await connection.fetchval("SHOW lc_collate") == "C"  # byte order, as SQLite
    finally:
        await connection.close()


def test_a_cluster_starts_on_a_free_port_and_is_removed_when_stopped(
    pg_cluster: pgcluster.Cluster,  # skips with the install hint where PostgreSQL is missing
) -> None:
    cluster = pgcluster.start()
    try:
        assert cluster.running and _listening(cluster.port)
        assert cluster.port != pg_cluster.port
        assert cluster.url("x") == f"postgresql://postgres@127.0.0.1:{cluster.port}/x"
        assert cluster.create_database("bench") == cluster.url("bench")
        assert asyncio.run(_tables(cluster.url("bench"))) == 0
    finally:
        cluster.stop()
    assert not cluster.directory.exists() and not _listening(cluster.port)
    cluster.stop()  # idempotent


def test_missing_binaries_name_the_binary_and_the_package(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(pgcluster, "BIN_DIRS", (tmp_path,))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(
        pgcluster.Unavailable, match=r"'initdb' not found.*apt-get install postgresql-15"
    ):
        pgcluster.find_binaries()
    for tool in ("initdb", "pg_ctl"):
        (tmp_path / tool).write_text("", encoding="utf-8")
    with pytest.raises(pgcluster.Unavailable, match=r"'postgres' not found"):
        pgcluster.find_binaries()
    (tmp_path / "postgres").write_text("", encoding="utf-8")
    assert pgcluster.find_binaries() == tmp_path


def test_a_free_port_is_free() -> None:
    assert not _listening(pgcluster.free_port())
