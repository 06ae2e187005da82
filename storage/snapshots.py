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

* its ``version`` is this code's (:func:`code_version`: for each of the club's systems its
  :func:`system_version` — the rulebook's ``RULES_VERSION``, the layout of its pickled state,
  the snapshot's own :data:`SNAPSHOT_FORMAT` and Python's major.minor): the snapshot can be
  read by this code and means what this code would compute;
* its ``digest`` is the sha256 of its ``data`` (a torn or corrupt row is skipped);
* no rewrite of the past made after it (the ``rewrites`` table) reached its calendar key or
  earlier.

An invalid or unreadable row is skipped, never an error: the next older one is tried, then a
whole replay.

Trust: ``data`` is a :mod:`pickle`, and unpickling runs whatever code the pickle names. A
snapshot is only ever read from the club's own database, written there by hoshi; whoever can
write that database can already change every rating, so a snapshot adds no new way in. Never
load a snapshot from anywhere else (``hoshi migrate`` copies the log, not the snapshots).

Writing: :func:`storage.projections.snapshot_club` writes one now (bench, tests), through
:func:`write`. After every commit, a club whose
cached ledgers are ``db.projections.snapshot_every`` log entries past its newest snapshot gets
one written by a background task (:func:`watch`); a forked child pickles the ledgers as they
are at the fork (:func:`pickled_aside`), so neither the event loop nor the club's writes wait
for the pickling, only for the row's insert. A background failure is
logged, never raised into the write that triggered it. The newest two snapshots of a club
(of this version) are kept, older ones and other versions' deleted.

Versions by meaning, not by bytes: a snapshot is kept across a deploy unless what it holds
would mean something else to the new code. Three things say so, each bumped or found without
reading any source file:

* a rulebook's ``RULES_VERSION`` (``engine.mgsz.RULES_VERSION`` …, the ledger's
  ``rules_version``), bumped by hand when a change moves any of its results — a rating, rank,
  card, history row or refusal; ``tests/engine/test_rules_versions.py`` fails when its results
  over the rulebooks' worked examples and a seeded federation change without a bump;
* the layout of the ledger's pickled state (:func:`state_shape`: the attribute names and value
  types of the ledger, its cards and every engine object they hold, after a tiny fixed event
  stream): an attribute added, removed or renamed, or a value of another type, is found
  without anyone bumping anything;
* :data:`SNAPSHOT_FORMAT`, bumped by hand when the snapshot's own dict (:func:`_data`)
  changes, and Python's major.minor (a pickle of one Python is not promised to another).

A docstring, a comment, or a refactor that keeps every result and the state's layout keeps
every snapshot: the next start folds only the tail.
"""

from __future__ import annotations

import asyncio
import copy
import datetime as dt
import hashlib
import importlib
import logging
import os
import pickle
import sys
from array import array
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import replace
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from typing import Any

from engine.calendar import Key, month_end
from engine.errors import EngineError
from engine.ranks import Rank
from engine.timecontrol import TimeControl
from engine.types import (
    DayEnded,
    Entry,
    Event,
    Game,
    GamePlayed,
    MonthEnded,
    Override,
    PeriodClosed,
    Registered,
    Result,
    Tournament,
    TournamentRated,
)
from storage.backend import Database, Transaction
from storage.cache import SystemFactory
from storage.ledgers import ClubLedgers, Projection, collector_paused
from storage.rewrites import rewritten

logger = logging.getLogger(__name__)

SNAPSHOT_FORMAT = 1
"""The layout of a snapshot's own dict (:func:`_data`): bump it by hand whenever that dict
changes (a key added, removed, or holding another kind of value), so that no snapshot of the
old layout is read as the new one."""


def _probe_events() -> list[Event]:
    """A tiny fixed history touching every kind of state a ledger keeps: registrations (by
    the committee, with an MGSZ rating), club games with and without stones, a day end, a
    tournament with a foreign guest, an override, a club period and a month end, and a game
    left pending (its day, its period open)."""
    day = dt.date(2000, 1, 4)
    hour = TimeControl.parse("60m")

    def game(gid: int, black: int, white: int, result: Result, when: dt.date, **kw: Any) -> Game:
        return Game(gid, black, white, result, when, time=hour, **kw)

    tournament = Tournament(
        10, "Probe Cup", day + dt.timedelta(days=4), day + dt.timedelta(days=5), 2, time=hour
    )
    entries = (
        Entry(1, Rank.kyu(3)),
        Entry(2, Rank.kyu(6)),
        Entry(3, Rank.kyu(10)),
        Entry(4, Rank.dan(1)),
        Entry(9, Rank.kyu(2), registered=False, country="XX"),
    )
    rounds = (
        game(11, 2, 1, Result.BLACK, tournament.start, stones=2, tournament=10, round=1),
        game(12, 3, 4, Result.WHITE, tournament.start, tournament=10, round=1),
        game(13, 9, 1, Result.JIGO, tournament.end, tournament=10, round=2),
        game(14, 2, 4, Result.WHITE, tournament.end, tournament=10, round=2),
    )
    period = Tournament(0, "Club games 2000-01", dt.date(2000, 1, 1), month_end(2000, 1), 1)
    return [
        Registered(1, Rank.kyu(3), day, committee=True),
        Registered(2, Rank.kyu(6), day),
        Registered(3, Rank.kyu(10), day, rating=1500, rating_system="mgsz"),
        Registered(4, Rank.dan(1), day, committee=True),
        GamePlayed(game(5, 2, 1, Result.BLACK, day)),
        GamePlayed(game(6, 3, 2, Result.WHITE, day, stones=4)),
        DayEnded(day),
        TournamentRated(tournament, entries, rounds),
        Override(3, tournament.end, "probe", rank=Rank.kyu(9)),
        GamePlayed(game(15, 4, 1, Result.BLACK, period.end)),
        DayEnded(period.end),
        PeriodClosed(replace(period, time=hour)),
        MonthEnded(2000, 1),
        GamePlayed(game(16, 1, 3, Result.WHITE, dt.date(2000, 2, 1))),  # held, pending
    ]


_LEAVES = (
    type(None), bool, int, float, complex, str, bytes, Fraction, Decimal,
    dt.date, dt.datetime, dt.time, dt.timedelta, dt.timezone,
)  # fmt: skip
"""Values of other code whose layout is theirs: named in a layout, never opened."""

_CONTAINERS = (list, tuple, set, frozenset, deque, array)


class _Unset:
    """An unset slot's value in a layout."""


def _attributes(value: object) -> dict[str, object]:
    """An object's attributes as its pickle keeps them: its slots (an unset one as
    :class:`_Unset`), a named tuple's fields, its ``__dict__``."""
    found: dict[str, object] = {}
    for klass in type(value).__mro__:
        slots = klass.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__"):
                found[name] = getattr(value, name, _Unset)
    fields = getattr(value, "_fields", None)
    if isinstance(value, tuple) and isinstance(fields, tuple):
        found.update(zip(fields, value, strict=True))
    found.update(getattr(value, "__dict__", {}))
    return found


def state_shape(ledger: object, *more: object) -> str:
    """The layout of the pickle of ``ledger`` (and of ``more``, e.g. its cards), as text.

    One line per class of the ledger's own code (the top packages of its class and of the
    classes it derives from, and ``engine``) that it holds, itself included: each attribute
    with the sorted types of the values it was seen holding; a container is named by its
    elements' types (``builtins.dict[builtins.int: engine.ranks.Rank]``); enums, classes and
    the values of other code (``date``, ``Fraction``) are named, not opened. Found by walking
    the objects, never by reading a source file: it is the same for any docstring, comment or
    method body, and changes with an attribute added, removed or renamed, or holding a value
    of another type.
    """
    ours = {"engine"} | {klass.__module__.split(".")[0] for klass in type(ledger).__mro__[:-1]}
    classes: dict[str, dict[str, set[str]]] = {}
    opened: set[int] = set()
    walking: set[int] = set()  # the containers and objects being described (a cycle's guard)

    def name(kind: type) -> str:
        return f"{kind.__module__}.{kind.__qualname__}"

    def union(values: Iterable[object]) -> str:
        return "|".join(sorted({describe(item) for item in values}))

    def describe(value: object) -> str:
        kind = type(value)
        home = kind.__module__.split(".")[0]
        if isinstance(value, Enum | type) or (isinstance(value, _LEAVES) and home not in ours):
            return name(kind)
        if id(value) in walking:
            return f"{name(kind)}(again)"
        walking.add(id(value))
        try:
            if home not in ours:
                if isinstance(value, Mapping):
                    return f"{name(kind)}[{union(value.keys())}: {union(value.values())}]"
                if isinstance(value, _CONTAINERS):
                    return f"{name(kind)}[{union(value)}]"
                return name(kind)  # another library's object
            layout = classes.setdefault(name(kind), {})
            if id(value) not in opened:
                opened.add(id(value))
                for attribute, held in _attributes(value).items():
                    layout.setdefault(attribute, set()).add(describe(held))
            return name(kind)
        finally:
            walking.discard(id(value))

    for root in (ledger, *more):
        describe(root)
    return "\n".join(
        f"{klass}: "
        + ", ".join(f"{key}={'|'.join(sorted(kinds))}" for key, kinds in sorted(layout.items()))
        for klass, layout in sorted(classes.items())
    )


_SHAPES: dict[tuple[str, SystemFactory], str] = {}


def _shape_digest(key: str, factory: SystemFactory) -> str:
    """sha256 of :func:`state_shape` of a ledger of ``factory`` and its cards after the probe
    history (:func:`_probe_events`; a fact the system refuses is skipped, as a fold skips it);
    once per process and factory."""
    found = _SHAPES.get((key, factory))
    if found is None:
        ledger = factory()
        for event in _probe_events():
            try:
                ledger.apply(event.for_system(key) if isinstance(event, Registered) else event)
            except EngineError:
                continue
        cards = [ledger.card(player) for player in sorted(ledger.players())]
        shape = state_shape(ledger, cards)
        found = _SHAPES[(key, factory)] = hashlib.sha256(shape.encode()).hexdigest()
    return found


def system_version(key: str, factory: SystemFactory) -> str:
    """The version of one system's persisted state (see the module docstring): its key, its
    rulebook's ``RULES_VERSION`` (the ledger's ``rules_version``), a digest of its state's
    layout (:func:`state_shape`), :data:`SNAPSHOT_FORMAT` and Python's major.minor, e.g.
    ``mgsz rules 1 shape 3f2a… format 1 python 3.12``. Reads no source file."""
    rules = getattr(factory, "rules_version", None)  # a ledger class says it unbuilt
    if not isinstance(rules, int):
        rules = factory().rules_version
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    shape = _shape_digest(key, factory)[:16]
    return f"{key} rules {rules} shape {shape} format {SNAPSHOT_FORMAT} python {python}"


def code_version(systems: Mapping[str, SystemFactory] | None = None) -> str:
    """The version a snapshot made by this code carries (the ``version`` column: this snapshot
    can be read by this code): sha256 of the :func:`system_version` of each of ``systems``
    (default: the engine's registry), in key order."""
    if systems is None:
        systems = importlib.import_module("engine.systems").SYSTEMS
    assert systems is not None
    text = "|".join(system_version(key, systems[key]) for key in sorted(systems))
    return hashlib.sha256(text.encode()).hexdigest()


def snapshot_version(systems: Mapping[str, SystemFactory], key: str) -> str:
    """The version a snapshot of system ``key``'s projection made by this code carries: its
    :func:`system_version`, which starts with the key (one snapshot row per system and log
    position)."""
    return system_version(key, systems[key])


def _data(club: int, projection: Projection) -> bytes:
    """The pickle of what a snapshot keeps of one system's projection of ``club``."""
    state = {
        "club": club,
        "key": projection.key,
        "system": projection.system,
        "last_seq": projection.last_seq,
        "last_key": projection.last_key,
        "cards": projection.cards,
        "rejected": projection.rejected,
        "registered": projection.registered,
    }
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def _projection(data: bytes) -> tuple[int, Projection]:
    """The club and the projection of a snapshot's pickle (see the module docstring on
    trust)."""
    state: dict[str, Any] = pickle.loads(data)  # the club's own database: see the docstring
    return state["club"], Projection(
        key=state["key"],
        system=state["system"],
        last_seq=state["last_seq"],
        last_key=tuple(state["last_key"]),
        cards=state["cards"],
        rejected=state["rejected"],
        registered=state["registered"],
    )


KEEP = 2
"""The newest snapshots kept per club and system (of this code version); older ones are
thinned out (:func:`kept_seqs`)."""

OLDER = 6
"""At most this many older snapshots kept besides the newest :data:`KEEP`, each at least twice
as far from the next newer one as that one from its own: bases for a rewrite of the past a
long way back (a backdated result folds from the newest snapshot before its day)."""


def kept_seqs(seqs: list[int]) -> list[int]:
    """Which of a system's snapshots (their log positions) to keep: the newest :data:`KEEP`,
    then older ones spaced ever wider (each gap at least twice the last), :data:`OLDER` at
    most."""
    ordered = sorted(set(seqs), reverse=True)
    kept = ordered[:KEEP]
    gap = kept[-2] - kept[-1] if len(kept) >= 2 else 0
    for seq in ordered[KEEP:]:
        if len(kept) >= KEEP + OLDER:
            break
        if kept[-1] - seq >= 2 * gap:
            gap = kept[-1] - seq
            kept.append(seq)
    return kept


async def write(db: Database, tx: Transaction, ledgers: ClubLedgers) -> None:
    """Write a snapshot of each of the club's projections in ``ledgers`` in ``tx``, where it
    stands (storage.projections.snapshot_club brought the current one up to the log end); a
    catch-up stopped part way has no place to keep. Once ``tx`` commits, :func:`written`."""
    for key, projection in sorted(ledgers.projections.items()):
        if projection.read_to is not None:
            continue  # a catch-up stopped part way: no place to keep
        data = _data(ledgers.club, projection)  # no await since the caller read the ledgers
        await _insert(db, tx, ledgers.club, key, projection.last_seq, data)


def written(db: Database, ledgers: ClubLedgers) -> None:
    """The snapshots :func:`write` wrote of ``ledgers`` are committed: they are the club's
    newest this process knows of."""
    for key, projection in ledgers.projections.items():
        if projection.read_to is None:
            db.projections.snapshot_seq[(ledgers.club, key)] = projection.last_seq


async def pickled_aside(club: int, ledgers: Projection) -> bytes:
    """:func:`_data` of a projection as it is now, pickled by a forked child process.

    The child sees a copy-on-write image of this process at the fork, so the pickle is of this
    instant's ledgers while this process goes on serving (at a million games the pickling takes
    seconds: in the event loop it would hold every command up that long). Where ``fork`` is
    missing, the pickle is made here and now.
    """
    if not hasattr(os, "fork"):
        return _data(club, ledgers)
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child process (its exit status is checked below)
        code = 1
        try:
            os.close(reading)
            with os.fdopen(writing, "wb") as out:
                out.write(_data(club, ledgers))
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
    versions = [snapshot_version(db.projections.systems, each) for each in db.projections.systems]
    marks = ", ".join("?" for _ in versions)
    await tx.execute(  # other code's snapshots
        f"DELETE FROM snapshots WHERE club = ? AND version NOT IN ({marks})", (club, *versions)
    )
    seqs = [
        int(row[0])
        for row in await tx.fetchall(
            "SELECT seq FROM snapshots WHERE club = ? AND version = ?", (club, version)
        )
    ]
    kept = set(kept_seqs(seqs))
    gone = [(club, version, each) for each in seqs if each not in kept]
    if gone:
        await tx.executemany(
            "DELETE FROM snapshots WHERE club = ? AND version = ? AND seq = ?", gone
        )


async def newest_valid(
    tx: Transaction, db: Database, club: int, key: str, *, before: Key | None = None
) -> Projection | None:
    """The newest valid snapshot of system ``key``'s projection of the club (``None``: none
    is; see the module docstring), folded to a place before ``before`` when given (a rewrite
    of the past from there folds the rest again). A row of another version, a wrong digest,
    an unreadable pickle or one overtaken by a rewrite is skipped."""
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
            with collector_paused():  # millions of objects, no cycles
                owner, found = _projection(data)
        except Exception:  # a snapshot is an optimisation, never an error
            logger.warning("snapshot of club %s at %s: unreadable, skipped", club, seq)
            continue
        if owner != club or found.key != key or found.last_seq != seq:
            logger.warning("snapshot of club %s at %s: not its ledgers, skipped", club, seq)
            continue
        if before is not None and not found.last_key < before:
            continue
        if await rewritten(tx, club, seq, found.last_key):
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
    """Snapshot the projection in the background, unless one is being written or a
    catch-up's step stopped it part way (no place to keep)."""
    if projection.read_to is not None:
        return
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
        if seq - newest < every or projection.read_to is not None:
            return  # recent enough, or a catch-up's step stopped part way (no place to keep)
        data = await pickled_aside(club, projection)  # no await between reading seq and the fork
        async with db.transaction() as tx:
            await _insert(db, tx, club, key, seq, data)
        db.projections.snapshot_seq[(club, key)] = seq
    except asyncio.CancelledError:
        raise
    except Exception:  # never into the write that triggered it
        logger.exception("background snapshot of club %s (%s) failed", club, key)
