"""storage.snapshots and the tail fold: a snapshot + the tail, or another process's ledgers
caught up, equal a whole replay — for every rating system, after voids, corrections, undos,
backdated results, late tournaments and registrations, a switch of system."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hashlib
import importlib
import itertools
import logging
import pickle
import sys
import tempfile
from collections.abc import Collection, Iterator, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.ranks import Rank
from engine.systems import SYSTEMS as REAL_SYSTEMS
from engine.types import Registered
from storage import (
    Club,
    Database,
    Player,
    create_club,
    every_system,
    projections,
    set_setting,
    snapshot_club,
    snapshots,
)
from storage.bulk import BulkGame, BulkPlayer, bulk_load
from storage.codec import card_json
from storage.db import SystemFactory
from storage.ledgers import ClubLedgers
from storage.projections import all_cards, fold, ledger, ledgers_for
from storage.records import NewPlayer
from storage.rewrites import rewritten
from storage.settings import current_system
from storage.snapshots import (
    code_version,
    newest_valid,
    snapshot_version,
    state_shape,
    system_version,
)
from tests.storage.conftest import DAY, ORGANISER, FakeClock, dump, game, open_test_db, player
from tests.storage.fake_system import SYSTEMS, Daily, FakeParams, PlusMinus
from tests.storage.test_projections import KINDS, RANKS, RESULTS, Scenario

OPERATIONS = st.tuples(
    st.sampled_from([*KINDS, "late", "late"]),
    st.integers(0, 40),
    st.integers(0, 40),
    st.sampled_from(RESULTS),
    st.booleans(),
    st.integers(0, 3),
)


class LateScenario(Scenario):
    """Scenario, plus registrations dated after the games entered for them ("late")."""

    async def _do(self, kind: str, a: int, b: int, result: Any, flag: bool, small: int) -> None:
        if kind != "late":
            await super()._do(kind, a, b, result, flag, small)
            return
        date = DAY + dt.timedelta(days=len(self.games) // 3 + 10 + small)
        registered = await player(
            self.db, self.club, f"Late {len(self.players)}", RANKS[b % len(RANKS)], date=date
        )
        self.players[len(self.players)] = registered.id


def state(ledgers: ClubLedgers, only: Collection[str] | None = None) -> dict[str, Any]:
    """Everything the ledgers' projections say (those of the systems ``only``, default every
    one in memory), comparable (``cards`` as a whole replay computes them)."""
    chosen = {
        key: each
        for key, each in sorted(ledgers.projections.items())
        if only is None or key in only
    }
    cards = all_cards(ledgers)
    return {
        "systems": {key: each.system.snapshot() for key, each in chosen.items()},
        "cards": {
            key: {player: card_json(card) for player, card in cards[key].items()} for key in chosen
        },
        "rejected": {key: each.rejected for key, each in chosen.items()},
        "current": ledgers.current,
        "last_seq": {key: each.last_seq for key, each in chosen.items()},
        "last_key": {key: each.last_key for key, each in chosen.items()},
        "registered": {key: each.registered for key, each in chosen.items()},
    }


def kept(ledgers: ClubLedgers, only: Collection[str] | None = None) -> dict[str, Any]:
    """:func:`state`, with the cards the projections keep (``player_state``'s mirror)."""
    mirrored = {
        key: each.cards
        for key, each in sorted(ledgers.projections.items())
        if only is None or key in only
    }
    return {**state(ledgers, only), "cards": mirrored}


def current(ledgers: ClubLedgers) -> dict[str, Any]:
    """:func:`kept` of the current system's projection alone (the one kept current)."""
    return kept(ledgers, {ledgers.current})


async def replayed(db: Database, club: int, only: Collection[str] | None = None) -> dict[str, Any]:
    """The state of a whole replay of the club's log (nothing written)."""
    async with db.transaction() as tx:
        return state(await fold(db, tx, club), only)


async def replayed_current(db: Database, club: int) -> dict[str, Any]:
    """:func:`replayed` of the club's current system alone."""
    async with db.transaction() as tx:
        key = await current_system(tx, club)
    return await replayed(db, club, {key})


async def _start(db: Database, keys: list[str], first: int) -> tuple[Club, LateScenario]:
    club = await create_club(db, "Club", keys[first % len(keys)], actor=ORGANISER)
    scenario = LateScenario(db, club, keys)
    for number in range(3):
        await scenario.run(("register", number, 1, None, False, 0))
    await scenario.run(("tournament", 0, 0, None, False, 0))
    return club, scenario


async def _snapshot_and_tail(
    path: Path, systems: Mapping[str, SystemFactory], first: int, cut: int, operations: list[Any]
) -> None:
    keys = sorted(systems)
    cut = cut % (len(operations) + 1)
    db = await open_test_db(path, FakeClock(), systems)
    try:
        club, scenario = await _start(db, keys, first)
        for operation in operations[:cut]:
            await scenario.run(operation)
        await snapshot_club(db, club.id)
        snapped = {
            key: (each.last_seq, each.last_key)
            for key, each in db.projections.ledgers[club.id].projections.items()
        }
        for operation in operations[cut:]:
            await scenario.run(operation)
        await every_system(db, club.id)  # every shadow at the log's end: the eager tables
        written = await dump(db)
        expected = await replayed(db, club.id)
    finally:
        await db.close()
    fresh = await open_test_db(path, FakeClock(), systems)  # a process start
    try:
        async with fresh.transaction() as tx:
            key = await current_system(tx, club.id)
            valid = key in snapped and not await rewritten(tx, club.id, *snapped[key])
            await ledgers_for(fresh, tx, club.id)
        assert fresh.projections.full_folds == (0 if valid else 1)  # the current system's
        started = await every_system(fresh, club.id)
        assert state(started) == expected
        assert kept(started) == expected
        assert await dump(fresh) == written  # player_state and rating_history untouched
    finally:
        await fresh.close()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 3), st.integers(0, 40), st.lists(OPERATIONS, min_size=8, max_size=36))
def test_a_snapshot_and_its_tail_equal_a_whole_replay(
    first: int, cut: int, operations: list[Any]
) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "h.db"
        asyncio.run(_snapshot_and_tail(path, SYSTEMS, first, cut, operations))


@pytest.mark.both_backends  # the fake systems' twin above: SQLite only (time)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 3), st.integers(0, 40), st.lists(OPERATIONS, min_size=8, max_size=30))
def test_a_snapshot_and_its_tail_equal_a_whole_replay_with_every_real_system(
    first: int, cut: int, operations: list[Any]
) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "h.db"
        asyncio.run(_snapshot_and_tail(path, REAL_SYSTEMS, first, cut, operations))


async def _two_processes(
    path: Path,
    systems: Mapping[str, SystemFactory],
    first: int,
    cuts: tuple[int, int],
    operations: list[Any],
) -> None:
    keys = sorted(systems)
    writer = await open_test_db(path, FakeClock(), systems)
    other = await open_test_db(path, FakeClock(), systems)  # another process on the same file
    try:
        club, scenario = await _start(writer, keys, first)
        await ledger(other, club)  # its own ledgers, from the log
        folds = other.projections.full_folds
        low, high = sorted(c % (len(operations) + 1) for c in cuts)
        for part in (operations[:low], operations[low:high], operations[high:]):
            for operation in part:
                await scenario.run(operation)
            await every_system(writer, club.id)  # every shadow at the log's end
            cached = other.projections.ledgers[club.id]
            written = await dump(writer)
            async with other.transaction() as tx:
                key = await current_system(tx, club.id)
                had = cached.projections.get(key)
                stale = had is None or await rewritten(tx, club.id, had.last_seq, had.last_key)
                await ledgers_for(other, tx, club.id)
            assert other.projections.full_folds == folds + stale  # resumed unless rewritten
            caught_up = await every_system(other, club.id)
            folds = other.projections.full_folds
            expected = await replayed(writer, club.id)
            assert state(caught_up) == expected
            assert kept(caught_up) == expected
            assert state(writer.projections.ledgers[club.id]) == expected
            assert await dump(other) == written  # nothing written by catching up
    finally:
        await writer.close()
        await other.close()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 3),
    st.tuples(st.integers(0, 40), st.integers(0, 40)),
    st.lists(OPERATIONS, min_size=8, max_size=36),
)
def test_another_process_catches_up_by_the_tail(
    first: int, cuts: tuple[int, int], operations: list[Any]
) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "h.db"
        asyncio.run(_two_processes(path, SYSTEMS, first, cuts, operations))


@pytest.mark.both_backends  # the fake systems' twin above: SQLite only (time)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 3),
    st.tuples(st.integers(0, 40), st.integers(0, 40)),
    st.lists(OPERATIONS, min_size=8, max_size=30),
)
def test_another_process_catches_up_by_the_tail_with_every_real_system(
    first: int, cuts: tuple[int, int], operations: list[Any]
) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "h.db"
        asyncio.run(_two_processes(path, REAL_SYSTEMS, first, cuts, operations))


async def _games(db: Database, club: Club, count: int, day: int = 0) -> tuple[Player, Player]:
    on = DAY + dt.timedelta(days=day)
    a = await player(db, club, f"A{day}", "8k", date=on)
    b = await player(db, club, f"B{day}", "8k", date=on)
    for n in range(count):
        await game(db, club, a, b, date=DAY + dt.timedelta(days=day + n))
    return a, b


async def test_appends_at_the_end_are_never_replayed(tmp_path: Path) -> None:
    writer = await open_test_db(tmp_path / "h.db")
    other = await open_test_db(tmp_path / "h.db")
    try:
        club = await create_club(writer, "Club", "plus", actor=ORGANISER)
        a, b = await _games(writer, club, 3)
        await ledger(other, club)
        assert other.projections.full_folds == 1
        await _games(writer, club, 3, day=10)
        assert current(await ledger_of(other, club)) == await replayed_current(writer, club.id)
        await _games(writer, club, 2, day=20)
        assert current(await ledger_of(other, club)) == await replayed_current(writer, club.id)
        assert other.projections.full_folds == 1
        await game(writer, club, a, b, date=DAY)  # backdated: before what other folded
        assert current(await ledger_of(other, club)) == await replayed_current(writer, club.id)
        assert other.projections.full_folds == 2
    finally:
        await writer.close()
        await other.close()


async def test_another_process_follows_a_switch_of_system(tmp_path: Path) -> None:
    writer = await open_test_db(tmp_path / "h.db", systems=REAL_SYSTEMS)
    other = await open_test_db(tmp_path / "h.db", systems=REAL_SYSTEMS)
    try:
        club = await create_club(writer, "Club", "mgsz", actor=ORGANISER)
        a, b = await _games(writer, club, 2)
        await ledger(other, club)
        await set_setting(writer, club, "system", "psg", actor=ORGANISER)
        await game(writer, club, a, b, date=DAY + dt.timedelta(days=5))
        caught_up = await ledger_of(other, club)
        assert caught_up.current == "psg"
        assert current(caught_up) == await replayed_current(writer, club.id)
        # the PSG projection was never folded here (a shadow of the writer's, caught up and
        # written there at the switch): it is folded from the log once; MGSZ stays as it was
        assert other.projections.full_folds == 2
        assert await dump(other) == await dump(writer)  # nothing written by catching up
    finally:
        await writer.close()
        await other.close()


@pytest.mark.parametrize("tracked", [2, 256])
async def test_another_process_keeps_every_card_over_a_long_stretch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tracked: int
) -> None:
    """A game of one pair, then two years of another pair's games under PSG, caught up at
    once: every card is what a replay gives, whether the tail's cards are tracked event by
    event or all worked out at the end (a tail longer than ``TRACKED_EVENTS``)."""
    monkeypatch.setattr(projections, "TRACKED_EVENTS", tracked)
    writer = await open_test_db(tmp_path / "h.db", systems=REAL_SYSTEMS)
    other = await open_test_db(tmp_path / "h.db", systems=REAL_SYSTEMS)
    try:
        club = await create_club(writer, "Club", "psg", actor=ORGANISER)
        a, b = await _games(writer, club, 3)
        c, d = await _games(writer, club, 3, day=5)
        await ledger(other, club)
        await game(writer, club, c, d, date=DAY + dt.timedelta(days=20))  # first in the tail
        for month in range(1, 30):
            await game(writer, club, a, b, date=DAY + dt.timedelta(days=30 * month))
        caught_up = await ledger_of(other, club)
        assert current(caught_up) == await replayed_current(writer, club.id)
        assert other.projections.full_folds == 1
    finally:
        await writer.close()
        await other.close()


async def ledger_of(db: Database, club: Club) -> ClubLedgers:
    async with db.transaction() as tx:
        return await ledgers_for(db, tx, club.id)


players: list[Player] = []


async def _snapshotted(path: Path, systems: Mapping[str, SystemFactory] = SYSTEMS) -> Club:
    db = await open_test_db(path, systems=systems)
    try:
        club = await create_club(db, "Club", "plus", actor=ORGANISER)
        players.extend(await _games(db, club, 4))
        await snapshot_club(db, club.id)
        await _games(db, club, 2, day=10)
    finally:
        await db.close()
    return club


async def _start_folds(
    path: Path, club: Club, systems: Mapping[str, SystemFactory] = SYSTEMS
) -> int:
    db = await open_test_db(path, systems=systems)
    try:
        got = await ledger_of(db, club)
        assert current(got) == await replayed_current(db, club.id)
        return db.projections.full_folds
    finally:
        await db.close()


async def test_a_process_starts_from_the_snapshot(tmp_path: Path) -> None:
    club = await _snapshotted(tmp_path / "h.db")
    assert await _start_folds(tmp_path / "h.db", club) == 0


async def _tamper(path: Path, sql: str, params: tuple[Any, ...] = ()) -> None:
    db = await open_test_db(path)
    try:
        async with db.transaction() as tx:
            await tx.execute(sql, params)
    finally:
        await db.close()


async def test_a_snapshot_with_a_wrong_digest_is_ignored(tmp_path: Path) -> None:
    club = await _snapshotted(tmp_path / "h.db")
    await _tamper(tmp_path / "h.db", "UPDATE snapshots SET digest = ?", ("0" * 64,))
    assert await _start_folds(tmp_path / "h.db", club) == 1


async def test_a_corrupt_snapshot_is_ignored(tmp_path: Path) -> None:
    club = await _snapshotted(tmp_path / "h.db")
    data = b"not a pickle at all"
    await _tamper(
        tmp_path / "h.db",
        "UPDATE snapshots SET data = ?, digest = ?",
        (data, hashlib.sha256(data).hexdigest()),
    )
    assert await _start_folds(tmp_path / "h.db", club) == 1


async def test_another_clubs_snapshot_is_ignored(tmp_path: Path) -> None:
    club = await _snapshotted(tmp_path / "h.db")
    db = await open_test_db(tmp_path / "h.db")
    try:
        row = await db.fetchone("SELECT data FROM snapshots")
        assert row is not None
        other = pickle.loads(row[0])
        other["club"] = club.id + 1
        data = pickle.dumps(other)
    finally:
        await db.close()
    await _tamper(
        tmp_path / "h.db",
        "UPDATE snapshots SET data = ?, digest = ?",
        (data, hashlib.sha256(data).hexdigest()),
    )
    assert await _start_folds(tmp_path / "h.db", club) == 1


async def test_a_snapshot_of_another_code_version_is_ignored(tmp_path: Path) -> None:
    club = await _snapshotted(tmp_path / "h.db")
    await _tamper(tmp_path / "h.db", "UPDATE snapshots SET version = 'an older hoshi'")
    assert await _start_folds(tmp_path / "h.db", club) == 1


async def test_a_snapshot_overtaken_by_a_rewrite_is_ignored(tmp_path: Path) -> None:
    club = await _snapshotted(tmp_path / "h.db")
    db = await open_test_db(tmp_path / "h.db")
    try:
        await game(db, club, *players[-2:], date=DAY)  # backdated before the snapshot's last game
    finally:
        await db.close()
    assert await _start_folds(tmp_path / "h.db", club) == 1


def test_the_code_version_names_the_systems() -> None:
    assert code_version(SYSTEMS) == code_version(SYSTEMS)
    assert code_version(SYSTEMS) != code_version(REAL_SYSTEMS)
    assert code_version() == code_version(REAL_SYSTEMS)


def test_the_system_version_names_what_it_is_made_of(monkeypatch: pytest.MonkeyPatch) -> None:
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    version = system_version("plus", PlusMinus)
    assert version.startswith("plus rules 1 shape ")
    assert version.endswith(f" format {snapshots.SNAPSHOT_FORMAT} python {python}")
    assert system_version("daily", Daily) != version.replace("plus", "daily")  # its own shape
    before = code_version(SYSTEMS)
    monkeypatch.setattr(snapshots, "SNAPSHOT_FORMAT", snapshots.SNAPSHOT_FORMAT + 1)
    assert code_version(SYSTEMS) != before


_OPENED: list[str] | None = None
"""The files opened while :func:`_opened` listens (``None``: not listening)."""


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _OPENED is not None and event == "open":
        _OPENED.append(str(args[0]))


@contextlib.contextmanager
def _opened() -> Iterator[list[str]]:
    """The files the block opens, by Python's own ``open`` audit event (an audit hook stays
    for the process: it listens only inside this block)."""
    global _OPENED
    if not getattr(_audit, "added", False):
        sys.addaudithook(_audit)
        _audit.added = True  # type: ignore[attr-defined]
    _OPENED = []
    try:
        yield _OPENED
    finally:
        _OPENED = None


def test_the_code_version_reads_no_source_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """A docstring or a comment cannot move it: the version is made of RULES_VERSION, the
    state's layout and the format, and no file is read to find it."""
    monkeypatch.setattr(snapshots, "_SHAPES", {})
    expected = code_version(REAL_SYSTEMS)  # every module it needs imported
    monkeypatch.setattr(snapshots, "_SHAPES", {})  # the layouts found again, listened to
    with _opened() as files:
        assert code_version(REAL_SYSTEMS) == expected
    assert files == []


PROBE = '''"""A rating system of the snapshot tests, as written at {when}."""

from tests.storage.fake_system import PlusMinus


class Probe(PlusMinus):
    """{when}: a docstring that says something else each time."""

{body}
'''
REFACTOR = """\
    def players(self):  # a comment, and the same players found another way
        return [player for player in self._players]
"""
NEW_ATTRIBUTE = """\
    def __init__(self, params=None):
        super().__init__(params)
        self.moves = 0  # a new attribute: the pickled state's layout changed
"""


def _write_probe(path: Path, when: str, body: str = "    pass") -> None:
    path.write_text(PROBE.format(when=when, body=body), encoding="utf-8")
    importlib.invalidate_caches()


async def test_a_docstring_a_comment_or_a_refactor_keeps_the_snapshot_a_new_attribute_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The module of a system is edited between two starts (its source text changes): the
    snapshot stays valid until the ledger's layout changes."""
    name = "snapshot_probe_system"
    source = tmp_path / "code" / f"{name}.py"
    source.parent.mkdir()
    monkeypatch.syspath_prepend(str(source.parent))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # each edit compiled afresh
    monkeypatch.delitem(sys.modules, name, raising=False)  # gone again after the test
    _write_probe(source, "first")
    module = importlib.import_module(name)

    def systems() -> dict[str, SystemFactory]:
        return {"plus": module.Probe, "daily": Daily}

    club = await _snapshotted(tmp_path / "h.db", systems())
    version = code_version(systems())
    _write_probe(source, "second", REFACTOR)
    module = importlib.reload(module)
    assert code_version(systems()) == version
    assert await _start_folds(tmp_path / "h.db", club, systems()) == 0
    _write_probe(source, "third", NEW_ATTRIBUTE)
    module = importlib.reload(module)
    assert code_version(systems()) != version
    assert await _start_folds(tmp_path / "h.db", club, systems()) == 1


async def test_a_bumped_rules_version_makes_the_start_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    club = await _snapshotted(tmp_path / "h.db")
    assert await _start_folds(tmp_path / "h.db", club) == 0
    monkeypatch.setattr(PlusMinus, "rules_version", PlusMinus.rules_version + 1)
    assert await _start_folds(tmp_path / "h.db", club) == 1


@pytest.mark.parametrize("key", sorted(REAL_SYSTEMS))
def test_a_rulebooks_bump_changes_its_version_alone(
    key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = {other: system_version(other, REAL_SYSTEMS[other]) for other in REAL_SYSTEMS}
    everything = code_version(REAL_SYSTEMS)
    factory = REAL_SYSTEMS[key]
    monkeypatch.setattr(factory, "rules_version", factory().rules_version + 1)
    after = {other: system_version(other, REAL_SYSTEMS[other]) for other in REAL_SYSTEMS}
    assert {other for other in REAL_SYSTEMS if after[other] != before[other]} == {key}
    assert code_version(REAL_SYSTEMS) != everything


def test_the_state_shape_is_of_attributes_and_their_types() -> None:
    a, b = PlusMinus(), PlusMinus()
    for fake in (a, b):
        fake.apply(Registered(1, Rank.kyu(5), DAY))
    assert state_shape(a) == state_shape(b)
    b.apply(Registered(2, Rank.kyu(9), DAY, rating=90))  # more of the same: the same layout
    assert state_shape(a) == state_shape(b)
    assert "tests.storage.fake_system._Player: games=builtins.int" in state_shape(a)
    b.params = FakeParams(start=Fraction(1, 2))  # type: ignore[arg-type]  # another type
    assert state_shape(a) != state_shape(b)


async def test_the_newest_two_snapshots_are_kept(tmp_path: Path) -> None:
    db = await open_test_db(tmp_path / "h.db")
    try:
        club = await create_club(db, "Club", "plus", actor=ORGANISER)
        async with db.transaction() as tx:
            await tx.execute(
                "INSERT INTO snapshots (club, seq, version, digest, data, at) "
                "VALUES (?, 1, 'old', 'x', ?, 'then')",
                (club.id, b""),
            )
        seqs = []
        for day in range(3):
            await _games(db, club, 1, day=day * 5)
            seqs.append(await snapshot_club(db, club.id))
        assert await snapshot_club(db, club.id) == seqs[-1]  # the same one: nothing new
        rows = await db.fetchall("SELECT seq, version FROM snapshots ORDER BY seq")
        assert rows == [(seq, snapshot_version(SYSTEMS, "plus")) for seq in seqs[1:]]
    finally:
        await db.close()


async def _settled(db: Database) -> None:
    tasks = list(db.projections.snapshot_tasks.values())
    await asyncio.gather(*tasks)


async def test_snapshots_are_written_in_the_background(tmp_path: Path) -> None:
    """After a commit, a club whose ledgers are ``snapshot_every`` entries past its newest
    snapshot gets a new one (the newest two kept)."""
    db = await open_test_db(tmp_path / "h.db")
    try:
        db.projections.snapshot_every = 6
        club = await create_club(db, "Club", "plus", actor=ORGANISER)
        a, b = await _games(db, club, 0)
        newest, expected = 0, []
        for day in range(20):
            await game(db, club, a, b, date=DAY + dt.timedelta(days=day))
            await _settled(db)
            last = db.projections.ledgers[club.id].last_seq
            if last - newest >= 6:
                newest = last
                expected = [*expected[-1:], (last,)]
            assert await db.fetchall("SELECT seq FROM snapshots ORDER BY seq") == expected
        assert len(expected) == 2
    finally:
        await db.close()
    assert await _start_folds(tmp_path / "h.db", club) == 0


async def test_a_failed_background_snapshot_is_logged_not_raised(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = await open_test_db(tmp_path / "h.db")
    try:
        db.projections.snapshot_every = 2
        club = await create_club(db, "Club", "plus", actor=ORGANISER)
        async with db.transaction() as tx:
            await tx.execute("DROP TABLE snapshots")
        with caplog.at_level(logging.ERROR, logger="storage.snapshots"):
            a, _ = await _games(db, club, 2)  # the writes succeed
            await _settled(db)
        assert "background snapshot of club" in caplog.text
        assert (await ledger(db, club)).card(a.id).games == 2
    finally:
        await db.close()


async def test_a_bulk_load_overtakes_every_snapshot(tmp_path: Path) -> None:
    """A bulk load appends anywhere in the calendar without folding: the snapshot before it
    is no base for a start after it."""
    club = await _snapshotted(tmp_path / "h.db")
    db = await open_test_db(tmp_path / "h.db")
    try:
        new = [NewPlayer(name, Rank.parse("5k")) for name in ("Early One", "Early Two")]
        items = [BulkPlayer(1, new[0], DAY), BulkPlayer(2, new[1], DAY)]
        items.append(BulkGame(1, 2, "B+", DAY, komi2=13))  # before the snapshot's games
        await bulk_load(db, club, items, replay=False)  # the replay left to later
        async with db.transaction() as tx:
            assert await newest_valid(tx, db, club.id, "plus") is None
    finally:
        await db.close()


async def test_a_background_snapshot_is_pickled_by_a_child_process(tmp_path: Path) -> None:
    """The pickle a forked child makes is the ledgers' own; a child that fails is an error of
    the snapshot (logged by the background task), never a row."""
    db = await open_test_db(tmp_path / "h.db")
    try:
        club = await create_club(db, "Club", "plus", actor=ORGANISER)
        await _games(db, club, 3)
        projection = db.projections.ledgers[club.id].now
        owner, aside = snapshots._projection(await snapshots.pickled_aside(club.id, projection))
        assert owner == club.id
        assert aside.system.snapshot() == projection.system.snapshot()
        assert (aside.cards, aside.rejected, aside.registered) == (
            projection.cards,
            projection.rejected,
            projection.registered,
        )
        assert (aside.last_seq, aside.last_key) == (projection.last_seq, projection.last_key)
        projection.rejected.append((0, lambda: None))  # type: ignore[arg-type]  # no pickle
        with pytest.raises(RuntimeError, match="pickling process failed"):
            await snapshots.pickled_aside(club.id, projection)
    finally:
        await db.close()


async def test_gors_with_three_decimals_stay_exact_through_log_replay_and_snapshot(
    tmp_path: Path,
) -> None:
    """rules.md §6 Decision: an EGD GoR (2705.840) typed at registration, as an EGF rating or
    an override is kept to the thousandth by the log, a whole replay and a process start from
    a snapshot (the players row, the event payloads, the pickled ledgers), under the GoR and
    under PSG, which keeps the EGF rating for its §23 check."""
    from fractions import Fraction

    from storage import record_egf, record_override

    path = tmp_path / "exact.db"
    db = await open_test_db(path, systems=None)
    try:
        club = await create_club(db, "Club", "gor", actor=ORGANISER)
        weber = await player(db, club, "Weber Lukas", "7d", rating=Fraction("2705.84"))
        nagy = await player(db, club, "Nagy Péter", "2k")
        cho = await player(db, club, "Cho Hun", "7d", pro=2)
        await record_egf(
            db, club, nagy.id, Fraction("1950.125"), year=2026, month=3, actor=ORGANISER
        )
        await record_override(
            db, club, cho.id, reason="EGD", date=DAY, actor=ORGANISER, rating=Fraction("2731.5")
        )
        await every_system(db, club.id)  # every system in memory: each one snapshotted
        await snapshot_club(db, club.id)
        expected = await replayed(db, club.id)
    finally:
        await db.close()
    gor = expected["systems"]["gor"]["players"]
    assert gor[str(weber.id)]["gor_milli"] == 2_705_840
    assert gor[str(nagy.id)]["gor_milli"] == 1_950_125
    assert (gor[str(cho.id)]["gor_milli"], gor[str(cho.id)]["pro"]) == (2_731_500, 2)
    psg = expected["systems"]["psg"]["players"][str(nagy.id)]
    assert psg["egf"] == {"2026-03": "1950.125"}
    fresh = await open_test_db(path, systems=None)  # a process start, from the snapshot
    try:
        async with fresh.transaction() as tx:
            started = await ledgers_for(fresh, tx, club.id)
        assert fresh.projections.full_folds == 0
        assert current(started) == await replayed_current(fresh, club.id)
        started = await every_system(fresh, club.id)  # each shadow from its own snapshot
        assert fresh.projections.full_folds == 0
        assert state(started) == expected
        found = {p.name: p for p in await fresh_players(fresh, club)}
        assert found["Weber Lukas"].rating == Fraction("2705.84")
        assert found["Cho Hun"].pro == 2
    finally:
        await fresh.close()


async def fresh_players(db: Database, club: Club) -> list[Player]:
    from storage import players as all_players

    return list(await all_players(db, club))


@given(st.lists(st.integers(1, 10**6), max_size=40))
def test_older_snapshots_are_thinned_ever_wider(seqs: list[int]) -> None:
    kept = snapshots.kept_seqs(seqs)
    newest = sorted(set(seqs), reverse=True)
    assert kept[: snapshots.KEEP] == newest[: snapshots.KEEP]  # the newest always stay
    assert len(kept) <= snapshots.KEEP + snapshots.OLDER
    assert kept == sorted(kept, reverse=True) and set(kept) <= set(seqs)
    gaps = [newer - older for newer, older in itertools.pairwise(kept)]
    assert all(later >= 2 * earlier for earlier, later in itertools.pairwise(gaps))


async def test_a_backdated_result_folds_from_the_newest_snapshot_before_its_day(
    tmp_path: Path,
) -> None:
    """A result entered for a day long past rebuilds the current system from the newest
    snapshot before that day, not from the club's first fact, and gives what a replay does."""
    db = await open_test_db(tmp_path / "h.db")
    try:
        club = await create_club(db, "Club", "plus", actor=ORGANISER)
        a, b = await _games(db, club, 30)  # days 0–29
        async with db.transaction() as tx:
            early = await ledgers_for(db, tx, club.id)
        await snapshot_club(db, club.id)
        del early
        for day in range(30, 60):
            await game(db, club, a, b, date=DAY + dt.timedelta(days=day))
        folded = db.projections.folded_events
        await game(db, club, a, b, date=DAY + dt.timedelta(days=45))  # after the snapshot
        from_snapshot = db.projections.folded_events - folded
        assert 0 < from_snapshot <= 32  # days 30–59 and the game itself, not all 60 days
        assert current(db.projections.ledgers[club.id]) == await replayed_current(db, club.id)
        folded = db.projections.folded_events
        await game(db, club, a, b, date=DAY + dt.timedelta(days=10))  # before the snapshot
        assert db.projections.folded_events - folded > 60  # the whole log
        assert current(db.projections.ledgers[club.id]) == await replayed_current(db, club.id)
    finally:
        await db.close()
