"""Snapshots of a club's ledgers: a process start loads the newest valid one and folds the tail.

A replay of a federation's million games takes most of a minute; a snapshot of the club's
ledgers — every rating system's ledger, the club's current system, its last log position
(``seq``) and calendar key, the facts each system rejected, the players whose registration is
folded, and the cards — is loaded in a fraction of that, and only the log entries after it are
folded (:func:`storage.projections.resumed`). A snapshot never changes a result: the ledgers it
gives are those of a whole replay, and :func:`storage.projections.adopt` still compares their
cards with ``player_state`` (a mismatch rebuilds).

A snapshot row (the ``snapshots`` table, a projection: mutable, may be deleted) is valid for
its club iff

* its ``version`` is this code's (:func:`code_version`: the engine, the storage modules that
  turn the log into events and fold them, the rating systems' fingerprint, Python's
  major.minor — a pickle of other code's objects is never trusted to mean the same);
* its ``digest`` is the sha256 of its ``data`` (a torn or corrupt row is skipped);
* no rewrite of the past made after it (the ``rewrites`` table) reached its calendar key or
  earlier.

An invalid or unreadable row is skipped, never an error: the next older one is tried, then a
whole replay.

Trust: ``data`` is a :mod:`pickle`, and unpickling runs whatever code the pickle names. A
snapshot is only ever read from the club's own database, written there by hoshi; whoever can
write that database can already change every rating, so a snapshot adds no new way in. Never
load a snapshot from anywhere else (``hoshi migrate`` copies the log, not the snapshots).

Writing: :func:`snapshot_club` writes one now (bench, tests). After every commit, a club whose
cached ledgers are ``db.projections.snapshot_every`` log entries past its newest snapshot gets
one written by a background task (:func:`watch`); a forked child pickles the ledgers as they
are at the fork (:func:`pickled_aside`), so neither the event loop nor the club's writes wait
for the pickling, only for the row's insert. A background failure is
logged, never raised into the write that triggered it. The newest two snapshots of a club
(of this version) are kept, older ones and other versions' deleted.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import importlib.util
import logging
import os
import pickle
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from storage import projections
from storage.cache import SystemFactory
from storage.db import Database, Transaction
from storage.projections import ClubLedgers, Projection, fingerprint

logger = logging.getLogger(__name__)

FOLDING_MODULES = (
    "cache",
    "codec",
    "common",
    "history",
    "log",
    "overlay",
    "projections",
    "settings",
    "snapshots",
)
"""The storage modules that turn the log into events and fold them (their source is part of
the code version)."""

_SOURCES: str | None = None


def _sources_digest() -> str:
    """sha256 of the engine's sources and the folding storage modules (once per process)."""
    global _SOURCES
    if _SOURCES is None:
        digest = hashlib.sha256()
        engine = importlib.util.find_spec("engine")
        assert engine is not None and engine.submodule_search_locations is not None
        root = Path(next(iter(engine.submodule_search_locations)))
        files = sorted(root.rglob("*.py"))
        here = Path(__file__).parent
        files += [here / f"{name}.py" for name in FOLDING_MODULES]
        for path in files:
            name = path.relative_to(root.parent).as_posix()
            digest.update(f"{name}\0".encode())
            digest.update(path.read_bytes())
            digest.update(b"\0")
        _SOURCES = digest.hexdigest()
    return _SOURCES


def code_version(systems: Mapping[str, SystemFactory] | None = None) -> str:
    """The version a snapshot made by this code carries: a hash of the engine's and the folding
    storage modules' sources, the rating systems' fingerprint (default: the engine's registry)
    and Python's major.minor (pickles of one Python are not promised to another)."""
    if systems is None:
        systems = importlib.import_module("engine.systems").SYSTEMS
    assert systems is not None
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    text = f"{_sources_digest()}|{fingerprint(systems)}|python {python}"
    return hashlib.sha256(text.encode()).hexdigest()


def snapshot_version(systems: Mapping[str, SystemFactory], key: str) -> str:
    """The version a snapshot of system ``key``'s projection made by this code carries: the
    code version and the system's key (one snapshot row per system and log position)."""
    return f"{key}|{code_version(systems)}"


def _data(projection: Projection) -> bytes:
    """The pickle of what a snapshot keeps of one system's projection."""
    state = {
        "key": projection.key,
        "system": projection.system,
        "last_seq": projection.last_seq,
        "last_key": projection.last_key,
        "cards": projection.cards,
        "rejected": projection.rejected,
        "registered": projection.registered,
    }
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def _projection(data: bytes) -> Projection:
    """A projection from a snapshot's pickle (see the module docstring on trust)."""
    state: dict[str, Any] = pickle.loads(data)  # the club's own database: see the docstring
    return Projection(
        key=state["key"],
        system=state["system"],
        last_seq=state["last_seq"],
        last_key=tuple(state["last_key"]),
        cards=state["cards"],
        rejected=state["rejected"],
        registered=state["registered"],
    )


KEEP = 2
"""Snapshots kept per club and system (of this code version)."""


async def snapshot_club(db: Database, club: int) -> int:
    """Write a snapshot of the club's current projection now (brought up to the log end
    first), and of every shadow in memory where it stands; returns the current one's log
    position. Two processes writing the same one at once: the second changes nothing.
    """
    async with db.transaction() as tx:
        ledgers = await projections.ledgers_for(db, tx, club)
        for key, projection in sorted(ledgers.projections.items()):
            data = _data(projection)  # no await since ledgers_for: nothing changed them
            await _insert(db, tx, club, key, projection.last_seq, data)
        seq = ledgers.last_seq
    for key, projection in ledgers.projections.items():
        db.projections.snapshot_seq[(club, key)] = projection.last_seq
    return seq


async def pickled_aside(ledgers: Projection) -> bytes:
    """:func:`_data` of a projection as it is now, pickled by a forked child process.

    The child sees a copy-on-write image of this process at the fork, so the pickle is of this
    instant's ledgers while this process goes on serving (at a million games the pickling takes
    seconds: in the event loop it would hold every command up that long). Where ``fork`` is
    missing, the pickle is made here and now.
    """
    if not hasattr(os, "fork"):
        return _data(ledgers)
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child process (its exit status is checked below)
        code = 1
        try:
            os.close(reading)
            with os.fdopen(writing, "wb") as out:
                out.write(_data(ledgers))
            code = 0
        finally:
            os._exit(code)
    os.close(writing)
    data = await asyncio.to_thread(_read_all, reading)
    _pid, status = await asyncio.to_thread(os.waitpid, child, 0)
    if status != 0:
        raise RuntimeError(f"the snapshot's pickling process failed (wait status {status})")
    return data


def _read_all(descriptor: int) -> bytes:
    with os.fdopen(descriptor, "rb") as source:
        return source.read()


async def _insert(
    db: Database, tx: Transaction, club: int, key: str, seq: int, data: bytes
) -> None:
    version = snapshot_version(db.projections.systems, key)
    await tx.execute(
        "INSERT INTO snapshots (club, seq, version, digest, data, at) VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT DO NOTHING",
        (club, seq, version, hashlib.sha256(data).hexdigest(), data, db.clock().isoformat()),
    )
    await tx.execute(
        "DELETE FROM snapshots WHERE club = ? AND version LIKE ? AND (version <> ? OR seq NOT IN "
        "(SELECT newest.seq FROM (SELECT seq FROM snapshots WHERE club = ? AND version = ? "
        "ORDER BY seq DESC LIMIT ?) AS newest))",
        (club, f"{key}|%", version, club, version, KEEP),
    )


async def newest_valid(tx: Transaction, db: Database, club: int, key: str) -> Projection | None:
    """The newest valid snapshot of system ``key``'s projection of the club (``None``: none
    is; see the module docstring). A row of another version, a wrong digest, an unreadable
    pickle or one overtaken by a rewrite is skipped."""
    version = snapshot_version(db.projections.systems, key)
    rows = await tx.fetchall(
        "SELECT seq FROM snapshots WHERE club = ? AND version = ? ORDER BY seq DESC",
        (club, version),
    )
    for (seq,) in rows:
        row = await tx.fetchone(
            "SELECT digest, data FROM snapshots WHERE club = ? AND seq = ? AND version = ?",
            (club, seq, version),
        )
        if row is None:
            continue
        digest, data = row[0], bytes(row[1])
        if hashlib.sha256(data).hexdigest() != digest:
            logger.warning("snapshot of club %s at %s: wrong digest, skipped", club, seq)
            continue
        try:
            with projections.collector_paused():  # millions of objects, no cycles
                found = _projection(data)
        except Exception:  # a snapshot is an optimisation, never an error
            logger.warning("snapshot of club %s at %s: unreadable, skipped", club, seq)
            continue
        if found.key != key or found.last_seq != seq:
            logger.warning("snapshot of club %s at %s: not its ledgers, skipped", club, seq)
            continue
        if await projections.rewritten(tx, club, seq, found.last_key):
            continue
        tx.projections.snapshot_seq[(club, key)] = seq
        return found
    return None


def watch(db: Database) -> None:
    """Write snapshots in the background after the database's commits and of a club whose
    ledgers are evicted from memory (once per database)."""
    if db.projections.watched:
        return
    db.projections.watched = True
    own = db
    if getattr(db, "delivery", None) is not None:  # a chat update's handle: the database's own
        own = copy.copy(db)
        own.delivery = None
    db.after_commit(lambda: _after_commit(own))
    db.projections.evicted = lambda ledgers: _on_eviction(own, ledgers)


def _after_commit(db: Database) -> None:
    """Start a background snapshot of every projection in memory far enough past its newest
    one."""
    every = db.projections.snapshot_every
    if every <= 0:
        return
    for club, ledgers in list(db.projections.ledgers.items()):
        for key, projection in list(ledgers.projections.items()):
            known = db.projections.snapshot_seq.get((club, key), 0)
            if projection.last_seq - known >= every:
                _start(db, club, key, projection, every)


def _on_eviction(db: Database, ledgers: ClubLedgers) -> None:
    """A club's ledgers leave memory: snapshot each projection that moved since its newest
    snapshot (the next use starts from there instead of replaying)."""
    if db.projections.snapshot_every <= 0:
        return
    for key, projection in list(ledgers.projections.items()):
        if projection.last_seq > db.projections.snapshot_seq.get((ledgers.club, key), 0):
            _start(db, ledgers.club, key, projection, 1)


def _start(db: Database, club: int, key: str, projection: Projection, every: int) -> None:
    tasks = db.projections.snapshot_tasks
    running = tasks.get((club, key))
    if running is not None and not running.done():
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # no loop: nothing runs in the background
        return
    tasks[(club, key)] = loop.create_task(_background(db, club, key, projection, every))


async def _background(
    db: Database, club: int, key: str, projection: Projection, every: int
) -> None:
    """Write a snapshot of the projection unless one within ``every`` entries of it exists."""
    try:
        row = await db.fetchone(
            "SELECT MAX(seq) FROM snapshots WHERE club = ? AND version = ?",
            (club, snapshot_version(db.projections.systems, key)),
        )
        newest = 0 if row is None or row[0] is None else int(row[0])
        db.projections.snapshot_seq[(club, key)] = newest
        seq = projection.last_seq
        if seq - newest < every:
            return
        data = await pickled_aside(projection)  # no await between reading seq and the fork
        async with db.transaction() as tx:
            await _insert(db, tx, club, key, seq, data)
        db.projections.snapshot_seq[(club, key)] = seq
    except asyncio.CancelledError:
        raise
    except Exception:  # never into the write that triggered it
        logger.exception("background snapshot of club %s (%s) failed", club, key)
