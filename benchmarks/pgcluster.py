"""A throw-away PostgreSQL cluster for the tests and ``hoshi bench --backend postgresql``.

``initdb`` + ``pg_ctl`` in a temporary directory (stack-notes.md, "PostgreSQL on these
machines"): as the ``postgres`` system user when run as root (the server refuses root), on a
free port, listening on 127.0.0.1 only, with its socket in its own directory. Durability is
switched off (``fsync``, ``synchronous_commit``): the cluster lives as long as the process that
started it, which stops it and removes its directory (:meth:`Cluster.stop`, also at exit).
"""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

BIN_DIRS = tuple(
    Path(p)
    for p in (
        os.environ.get("HOSHI_PG_BIN", ""),
        "/usr/lib/postgresql/15/bin",
        "/usr/lib/postgresql/16/bin",
        "/usr/lib/postgresql/17/bin",
        "/usr/lib/postgresql/14/bin",
    )
    if p
)
TOOLS = ("initdb", "pg_ctl", "postgres")
INSTALL_HINT = "apt-get install postgresql-15"
SUPERUSER = "postgres"


class Unavailable(RuntimeError):
    """No PostgreSQL binaries on this machine (the message names the missing one)."""


def find_binaries() -> Path:
    """The directory holding ``initdb``, ``pg_ctl`` and ``postgres``.

    Raises:
        Unavailable: none found; the message says which binary is missing and what to install.
    """
    for directory in BIN_DIRS:
        if all((directory / tool).is_file() for tool in TOOLS):
            return directory
    on_path = [shutil.which(tool) for tool in TOOLS]
    if all(on_path):
        return Path(on_path[0]).parent  # type: ignore[arg-type]
    missing = next(
        tool
        for tool in TOOLS
        if not shutil.which(tool) and not any((d / tool).is_file() for d in BIN_DIRS)
    )
    raise Unavailable(
        f"PostgreSQL binary {missing!r} not found (looked in "
        f"{', '.join(str(d) for d in BIN_DIRS)} and on PATH); install it with "
        f"`{INSTALL_HINT}`"
    )


def free_port() -> int:
    """A TCP port nobody listens on now on 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _as_postgres() -> list[str]:
    """The command prefix that runs a tool as the ``postgres`` user when we are root."""
    if os.geteuid() != 0:
        return []
    return ["runuser", "-u", SUPERUSER, "--"]


@dataclass
class Cluster:
    """A running throw-away cluster: its directory, port and binaries."""

    directory: Path
    port: int
    binaries: Path
    user: str = SUPERUSER
    running: bool = field(default=False)

    def url(self, database: str = "postgres") -> str:
        """A ``postgresql://`` URL for one of the cluster's databases."""
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """Create an empty database (``createdb``) and return its URL."""
        _run(
            [
                str(self.binaries / "createdb"),
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                self.user,
                name,
            ],
            "createdb",
        )
        return self.url(name)

    def stop(self) -> None:
        """Stop the server (fast shutdown) and remove its directory (idempotent)."""
        if self.running:
            subprocess.run(
                [
                    *_as_postgres(),
                    str(self.binaries / "pg_ctl"),
                    "-D",
                    str(self.data),
                    "-m",
                    "immediate",
                    "-w",
                    "stop",
                ],
                check=False,
                capture_output=True,
            )
            self.running = False
        shutil.rmtree(self.directory, ignore_errors=True)

    @property
    def data(self) -> Path:
        return self.directory / "data"


def start(*, port: int | None = None, parent: str | None = None) -> Cluster:
    """Create and start a cluster in a new temporary directory; it is stopped and removed
    at exit if the caller does not :meth:`Cluster.stop` it first.

    Raises:
        Unavailable: no PostgreSQL binaries.
        RuntimeError: initdb or the server failed (with their output).
    """
    binaries = find_binaries()
    directory = Path(tempfile.mkdtemp(prefix="hoshi-pg-", dir=parent))
    as_postgres = _as_postgres()
    if as_postgres:
        shutil.chown(directory, SUPERUSER, SUPERUSER)
    cluster = Cluster(directory, port or free_port(), binaries, user=SUPERUSER)
    atexit.register(cluster.stop)
    user = [] if as_postgres else ["-U", SUPERUSER]
    _run(
        [
            *as_postgres,
            str(binaries / "initdb"),
            "-D",
            str(cluster.data),
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-locale",
            *user,
        ],
        "initdb",
    )
    options = (
        f"-p {cluster.port} -c listen_addresses=127.0.0.1 -k {directory} -c fsync=off "
        "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
    )
    log = directory / "server.log"
    _run(
        [
            *as_postgres,
            str(binaries / "pg_ctl"),
            "-D",
            str(cluster.data),
            "-o",
            options,
            "-l",
            str(log),
            "-w",
            "-t",
            "60",
            "start",
        ],
        "pg_ctl start",
        log,
    )
    cluster.running = True
    return cluster


def _run(command: list[str], what: str, log: Path | None = None) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        extra = ""
        if log is not None and log.exists():
            extra = log.read_text(encoding="utf-8", errors="replace")[-2000:]
        raise RuntimeError(f"{what} failed ({done.returncode}): {done.stderr}{done.stdout}{extra}")
