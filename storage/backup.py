"""Backups of a hoshi database, and restoring one (issue 6/6, item 6).

A backup is taken with SQLite's online backup API (``sqlite3.Connection.backup``): a consistent
copy of the whole database, the write-ahead log included, taken while the bot keeps running.
It is written under a temporary name, checked (``PRAGMA integrity_check``), switched to a
self-contained rollback journal, flushed to disk, and only then renamed to its timestamped name
``hoshi-YYYYMMDD-HHMMSSZ.sqlite`` (UTC): a file with that name is always a whole, checked backup.
A second backup in the same second is ``hoshi-YYYYMMDD-HHMMSSZ-2.sqlite`` (then ``-3`` …): a
backup never replaces another (the final name is taken with a hard link, which fails rather
than overwrite).

Restoring checks the backup first — a SQLite file, intact, with hoshi's log, at a schema
version this hoshi knows — and refuses before touching anything when it is not. Then the
current database is itself backed up (``hoshi-before-restore-….sqlite``) and the backup's pages
are copied into it through SQLite (never a file rename, which would leave a stale write-ahead
log beside the new file), and the result is checked again.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import os
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from engine.formats.messages import message_of
from engine.text import Msg, plural
from storage import migrate
from storage.errors import StorageError

PREFIX = "hoshi-"
SUFFIX = ".sqlite"
_NAME = re.compile(r"^hoshi-(\d{8}-\d{6})Z(?:-([1-9]\d*))?\.sqlite$")
_STAMP = "%Y%m%d-%H%M%S"
BUSY_TIMEOUT_S = 5.0


class BackupError(StorageError):
    """A backup could not be made, or a file is not a backup hoshi can restore."""


@dataclass(frozen=True, slots=True)
class BackupInfo:
    """What a checked database file holds."""

    path: Path
    version: int
    clubs: int
    games: int
    size: int

    def describe(self) -> str:
        return Msg(
            "{clubs}, {games}, schema version {version}, {size} MB, integrity ok",
            clubs=plural("{n} club", "{n} clubs", self.clubs),
            games=plural("{n} game", "{n} games", self.games),
            version=self.version,
            size=f"{self.size / 1e6:.1f}",
        )


def backup_name(at: dt.datetime, n: int = 1) -> str:
    """``hoshi-20261122-031500Z.sqlite`` for a backup taken at ``at`` (UTC in the name);
    the ``n``-th backup of the same second is ``hoshi-20261122-031500Z-N.sqlite``."""
    return f"{PREFIX}{at.astimezone(dt.UTC).strftime(_STAMP)}Z{f'-{n}' if n > 1 else ''}{SUFFIX}"


def _order(path: Path) -> tuple[str, int]:
    """A backup's place among others: its second, then its number within the second."""
    match = _NAME.match(path.name)
    assert match is not None
    return match[1], int(match[2] or 1)


def taken_at(path: Path) -> dt.datetime | None:
    """When a backup file was taken, from its name; ``None`` for any other file."""
    match = _NAME.match(path.name)
    if match is None:
        return None
    return dt.datetime.strptime(match[1], _STAMP).replace(tzinfo=dt.UTC)


def backups(directory: Path) -> list[Path]:
    """The backups in ``directory``, oldest first (files named like :func:`backup_name`)."""
    if not directory.is_dir():
        return []
    return sorted((p for p in directory.iterdir() if taken_at(p) is not None), key=_order)


def check(path: Path) -> BackupInfo:
    """Check that ``path`` is an intact hoshi database this hoshi can open.

    Raises:
        BackupError: naming what is wrong (not SQLite, damaged, not hoshi's, too new).
    """
    if not path.is_file():
        raise BackupError(Msg("{path} does not exist", path=path))
    with path.open("rb") as head:
        if head.read(16) != b"SQLite format 3\x00":
            raise BackupError(Msg("{path} is not a SQLite database", path=path))
    try:
        with contextlib.closing(_connect(path, read_only=True)) as con:
            problems = [row[0] for row in con.execute("PRAGMA integrity_check") if row[0] != "ok"]
            if problems:
                raise BackupError(
                    Msg(
                        "{path} is damaged: {problems}",
                        path=path,
                        problems="; ".join(problems[:3]),
                    )
                )
            if con.execute("PRAGMA foreign_key_check").fetchone() is not None:
                raise BackupError(
                    Msg("{path} is damaged: rows point at rows that are missing", path=path)
                )
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
            if not {"log", "clubs", "games"} <= tables:
                raise BackupError(
                    Msg("{path} is a SQLite file, but not a hoshi database", path=path)
                )
            version = int(con.execute("PRAGMA user_version").fetchone()[0])
            found = schema(con)
            clubs = int(con.execute("SELECT COUNT(*) FROM clubs").fetchone()[0])
            games = int(con.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.DatabaseError as exc:
        raise BackupError(
            Msg("{path} cannot be read as a database: {error}", path=path, error=message_of(exc))
        ) from None
    newest = len(migrate.discover(migrate.packaged()))
    if not 1 <= version <= newest:
        raise BackupError(
            Msg(
                "{path} is at schema version {version}, but this hoshi knows versions 1 to "
                "{newest}; upgrade hoshi to restore it",
                path=path,
                version=version,
                newest=newest,
            )
            if version > newest
            else Msg(
                "{path} is at schema version {version}, but this hoshi knows versions 1 to "
                "{newest}; not hoshi",
                path=path,
                version=version,
                newest=newest,
            )
        )
    differs = _schema_differences(found, expected_schema(version))
    if differs:  # hoshi's table names and version on another schema: the next start fails
        raise BackupError(
            Msg(
                "{path} has hoshi's table names but not its schema at version {version} "
                "({differs}); not hoshi",
                path=path,
                version=version,
                differs="; ".join(differs[:3]),
            )
        )
    return BackupInfo(path, version, clubs, games, path.stat().st_size)


Schema = dict[str, tuple[tuple[str, str, int], ...]]
"""Each table's columns as (name, declared type, primary key position), in order."""


def schema(con: sqlite3.Connection) -> Schema:
    """The tables of a SQLite database and their columns (SQLite's own tables left out)."""
    names = [
        row[0]
        for row in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    return {
        name: tuple(
            (column, str(kind).upper(), int(key))
            for column, kind, key in con.execute(
                "SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid", (name,)
            )
        )
        for name in names
    }


def expected_schema(version: int) -> Schema:
    """The schema hoshi's migrations 1 … ``version`` make (built in memory, a few ms)."""
    with contextlib.closing(sqlite3.connect(":memory:")) as con:
        for migration in migrate.discover(migrate.packaged())[:version]:
            script = migration.sql  # a packaged migration file (reviewed: test_sql_parameters)
            con.executescript(script)
        return schema(con)


def _schema_differences(found: Schema, expected: Schema) -> list[str]:
    """What ``found`` lacks or has otherwise than ``expected``: each table missing, extra or
    with other columns."""
    differs = [f"no table {t}" for t in expected if t not in found]
    differs += [f"a table {t} hoshi does not make" for t in found if t not in expected]
    differs += [
        f"the table {t} has other columns"
        for t in expected
        if t in found and found[t] != expected[t]
    ]
    return differs


def _connect(path: Path, *, read_only: bool = False) -> sqlite3.Connection:
    if read_only:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    else:
        con = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S)
    con.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
    return con


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class _NameTaken(Exception):
    """The name a copy was to take appeared meanwhile (another backup of the same second)."""


def copy_database(source: Path, target: Path, *, overwrite: bool = True) -> None:
    """A checked, self-contained copy of ``source`` at ``target`` (replaced atomically; with
    ``overwrite=False`` an existing ``target`` is never replaced: :class:`_NameTaken`).

    Raises:
        BackupError: the source cannot be read, or the copy does not check out.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        with (
            contextlib.closing(_connect(source)) as src,
            contextlib.closing(sqlite3.connect(partial)) as dst,
        ):
            src.backup(dst)  # all pages in one step: one consistent snapshot
            dst.execute("PRAGMA journal_mode = DELETE")  # one file, no -wal beside it
        check(partial)
        _fsync(partial)
        if overwrite:
            os.replace(partial, target)
        else:
            try:
                os.link(partial, target)  # atomic, and fails where os.replace would overwrite
            except FileExistsError:
                partial.unlink(missing_ok=True)
                raise _NameTaken(target) from None
            partial.unlink()
        _fsync(target.parent)
    except sqlite3.DatabaseError as exc:
        partial.unlink(missing_ok=True)
        raise BackupError(
            Msg("could not back up {source}: {error}", source=source, error=message_of(exc))
        ) from None
    except BackupError:
        partial.unlink(missing_ok=True)
        raise


def _stale_partials(directory: Path) -> None:
    """Remove what a backup killed half-way left behind."""
    if directory.is_dir():
        for leftover in directory.glob(f"{PREFIX}*{SUFFIX}.partial"):
            leftover.unlink(missing_ok=True)


async def backup(source: Path, directory: Path, *, now: dt.datetime) -> Path:
    """Back ``source`` up into ``directory`` as ``hoshi-<now>.sqlite``; returns its path.

    Runs in a thread: the online backup reads the whole file.

    Raises:
        BackupError: the backup failed (nothing is left under the backup's name).
    """
    try:
        _stale_partials(directory)
        return await asyncio.to_thread(_copy_to_a_new_name, source, directory, now, "")
    except OSError as exc:  # a place that cannot hold it: said, never a traceback (issue 26)
        raise BackupError(
            Msg(
                "cannot write a backup to {directory}: {reason}",
                directory=str(directory),
                reason=exc.strerror or type(exc).__name__,
            )
        ) from None


def _copy_to_a_new_name(source: Path, directory: Path, now: dt.datetime, kind: str) -> Path:
    """Copy ``source`` to the first free backup name of ``now`` in ``directory``."""
    n = 1
    while True:
        target = directory / f"{PREFIX}{kind}{backup_name(now, n)[len(PREFIX) :]}"
        if not target.exists() and not target.with_name(target.name + ".partial").exists():
            try:
                copy_database(source, target, overwrite=False)
                return target
            except _NameTaken:
                pass
        n += 1


def prune(directory: Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` backups in ``directory``; returns the deleted ones
    (only files named like backups are ever touched)."""
    if keep < 1:
        raise ValueError(f"keep at least one backup, not {keep}")
    old = backups(directory)[:-keep]
    for path in old:
        path.unlink(missing_ok=True)
    return old


@dataclass(frozen=True, slots=True)
class Restored:
    info: BackupInfo  # what the database now holds
    previous: Path | None  # the safety copy of the database it replaced


def restore(source: Path, target: Path, safety_directory: Path, *, now: dt.datetime) -> Restored:
    """Replace the database ``target`` with the backup ``source``, checking it first.

    The current database (if any) is backed up to ``safety_directory`` as
    ``hoshi-before-restore-<now>.sqlite`` before anything is replaced. Stop the bot first: a
    running bot would keep serving what it had in memory.

    Raises:
        BackupError: the backup is not sound, or the current database could not be saved
            first; nothing was changed then.
    """
    check(source)
    previous = None
    if target.exists():
        previous = _copy_to_a_new_name(target, safety_directory, now, "before-restore-")
    try:
        with (
            contextlib.closing(_connect(source, read_only=True)) as src,
            contextlib.closing(_connect(target)) as dst,
        ):
            src.backup(dst)
    except sqlite3.DatabaseError as exc:
        if previous:
            raise BackupError(
                Msg(
                    "could not write {target}: {error} — is hoshi still running? The database "
                    "was saved first as {previous}",
                    target=target,
                    error=message_of(exc),
                    previous=previous,
                )
            ) from None
        raise BackupError(
            Msg(
                "could not write {target}: {error} — is hoshi still running? The database was "
                "not there before",
                target=target,
                error=message_of(exc),
            )
        ) from None
    return Restored(check(target), previous)
