"""storage.projections: incremental updates equal a full replay, byte for byte; atomic errors."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import tempfile
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.calendar import Phase, start_of
from engine.errors import EngineError
from engine.ranks import Rank
from engine.system import Pending
from engine.systems import SYSTEMS as REAL_SYSTEMS
from engine.timecontrol import TimeControl
from engine.types import Game, GamePlayed, Result, Tournament
from storage import (
    Club,
    Database,
    Player,
    StorageError,
    card,
    close_period,
    confirm_game,
    correct_game,
    create_club,
    create_tournament,
    end_day,
    end_month,
    every_system,
    finalise_tournament,
    record_egf,
    record_override,
    reopen_tournament,
    replay_club,
    set_setting,
    undo_last,
    void_game,
)
from storage.db import SystemFactory
from storage.projections import (
    caught_up_in_steps,
    caught_up_step,
    club_write,
    ensure_fresh,
    fold,
    ledger,
)
from tests.storage.conftest import (
    DAY,
    ORGANISER,
    FakeClock,
    dump,
    dump_all,
    game,
    open_test_db,
    player,
    release_target,
)
from tests.storage.fake_system import SYSTEMS

ACTORS = (ORGANISER, "discord:2")
NAMES = ("Anna", "Bela", "Csaba", "Dora", "Erik", "Fanni")
RESULTS = (Result.BLACK, Result.WHITE, Result.JIGO, None)

KINDS = (
    ["game"] * 6
    + ["tgame"] * 3
    + ["register", "void", "correct", "undo", "override", "day", "tournament"]
    + ["finalise", "reopen", "confirm", "switch", "month", "egf", "period", "peek"]
    + ["step"] * 3
)
RANKS = ("12k", "6k", "5k", "2k", "1d")
OPERATIONS = st.tuples(
    st.sampled_from(KINDS),
    st.integers(0, 40),
    st.integers(0, 40),
    st.sampled_from(RESULTS),
    st.booleans(),
    st.integers(0, 3),
)
"""``(kind, a, b, result, flag, small)``: each kind reads the arguments it needs."""
TIME = TimeControl.parse("60m 3x30s japanese")


class Scenario:
    """Runs random operations on one club, checking that every refusal changes nothing."""

    def __init__(self, db: Database, club: Club, systems: list[str]):
        self.db = db
        self.club = club
        self.systems = systems
        self.players: dict[int, int] = {}
        self.games: list[int] = []
        self.tournaments: list[int] = []
        self.pending: list[int] = []
        self.actor = ORGANISER

    def _game_id(self, n: int) -> int:
        return self.games[n % len(self.games)] if self.games else 10**9

    def _player(self, n: int) -> int:
        known = list(self.players.values())
        return known[n % len(known)] if known else 10**9

    def _pair(self, n: int, m: int) -> tuple[int, int]:
        """Two players, different whenever two are registered."""
        known = list(self.players.values()) or [10**9]
        black = n % len(known)
        white = (black + 1 + m % max(len(known) - 1, 1)) % len(known)
        return known[black], known[white]

    async def run(self, operation: tuple[Any, ...]) -> None:
        before = await dump_all(self.db)
        try:
            await self._do(*operation)
        except (StorageError, EngineError):
            assert await dump_all(self.db) == before, f"{operation} failed but wrote"

    async def _do(
        self, kind: str, a: int, b: int, result: Result | None, flag: bool, small: int
    ) -> None:
        db, club = self.db, self.club
        day = DAY + dt.timedelta(days=len(self.games) // 3)
        cup = self.tournaments[a % len(self.tournaments)] if self.tournaments else 10**9
        if kind == "register":
            name = f"{NAMES[a % len(NAMES)]} {len(self.players)}"
            registered = await player(db, club, name, RANKS[b % len(RANKS)], actor=ACTORS[a % 2])
            self.players[len(self.players)] = registered.id
        elif kind in ("game", "tgame"):
            options: dict[str, Any] = {"date": day + dt.timedelta(days=small)}
            if kind == "game":
                options |= {"pending": flag and small == 0, "actor": ACTORS[b % 2]}
            else:
                last = self.tournaments[-1] if self.tournaments else 10**9
                options |= {"tournament": last, "round": 1 + small % 3, "date": day}
            row = await game(db, club, *self._pair(a, b), result, **options)
            self.games.append(row.id)
            if row.status == "pending":
                self.pending.append(row.id)
        elif kind == "void":
            await void_game(db, club, self._game_id(a), actor=ACTORS[b % 2])
        elif kind == "correct":
            await correct_game(
                db, club, self._game_id(a), actor=ACTORS[b % 2], result=result, stones=small % 3
            )
        elif kind == "undo":
            await undo_last(db, club, actor=ACTORS[a % 2])
        elif kind == "override":
            rank = Rank.kyu(3 + small)
            await record_override(
                db, club, self._player(a), reason="r", date=day, rank=rank, actor=ORGANISER
            )
        elif kind == "day":
            await end_day(db, club, DAY + dt.timedelta(days=a % 6))
        elif kind == "tournament":
            end = day + dt.timedelta(days=small)
            cup_facts = Tournament(0, f"Cup {len(self.tournaments)}", day, end, 3, time=TIME)
            self.tournaments.append(
                (await create_tournament(db, club, cup_facts, actor=ORGANISER)).id
            )
        elif kind == "finalise":
            await finalise_tournament(db, club, cup, actor=ORGANISER)
        elif kind == "reopen":
            await reopen_tournament(db, club, cup, actor=ORGANISER)
        elif kind == "confirm":
            target = self.pending[a % len(self.pending)] if self.pending else self._game_id(a)
            await confirm_game(db, club, target, actor=ORGANISER)
        elif kind == "switch":
            system = self.systems[a % len(self.systems)]
            await set_setting(db, club, "system", system, actor=ORGANISER)
        elif kind == "month":
            await end_month(db, club, 2026, 2 + small)
        elif kind == "egf":
            rating = 1500 + 10 * b
            await record_egf(
                db, club, self._player(a), rating, year=2026, month=3, actor=ORGANISER
            )
        elif kind == "peek":  # a shadow asked for (/rating NAME all): it catches up here
            await ledger(db, club, self.systems[a % len(self.systems)])
        elif kind == "step":  # a step of each system's catch-up, stopped part way (a few events)
            for system in self.systems:
                await caught_up_step(db, club.id, system, budget=small + 1)
        elif kind == "period":
            start = DAY + dt.timedelta(days=7 * small)
            period = Tournament(0, f"Period {small}", start, start, rounds=1, time=TIME)
            await close_period(db, club, period)


async def _snapshots(db: Database, club: Club, systems: list[str]) -> dict[str, Any]:
    return {key: (await ledger(db, club, key)).snapshot() for key in systems}


async def _incremental_equals_replay(
    path: Path,
    systems: Mapping[str, SystemFactory],
    first: int,
    operations: list[tuple[Any, ...]],
) -> None:
    keys = sorted(systems)
    db = await open_test_db(path, FakeClock(), systems)
    try:
        club = await create_club(db, "Club", keys[first % len(keys)], actor=ORGANISER)
        scenario = Scenario(db, club, keys)
        for number in range(3):
            await scenario.run(("register", number, 1, None, False, 0))
        await scenario.run(("tournament", 0, 0, None, False, 0))
        for operation in operations:
            await scenario.run(operation)
        live = await _snapshots(db, club, keys)  # every shadow caught up
        incremental = await dump(db)
        await replay_club(db, club)  # every system replayed from nothing: eager projections
        assert await dump(db) == incremental
        assert await _snapshots(db, club, keys) == live
        await replay_club(db, club)  # replaying twice gives the same state
        assert await dump(db) == incremental
    finally:
        await db.close()
    reopened = await open_test_db(path, FakeClock(), systems)  # a restart: rebuilt from the log
    try:
        await ensure_fresh(reopened, club.id)
        assert await _snapshots(reopened, club, keys) == live
        assert await dump(reopened) == incremental
    finally:
        await reopened.close()
        await release_target(path)  # an example's database: the next example may reuse it


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 3), st.lists(OPERATIONS, min_size=8, max_size=40))
def test_incremental_projections_equal_a_full_replay(
    first: int, operations: list[tuple[Any, ...]]
) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "h.db"
        asyncio.run(_incremental_equals_replay(path, SYSTEMS, first, operations))


@pytest.mark.both_backends  # the fake systems' twin above: SQLite only (time)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 3), st.lists(OPERATIONS, min_size=8, max_size=30))
def test_incremental_projections_equal_a_full_replay_with_the_real_systems(
    first: int, operations: list[tuple[Any, ...]]
) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "h.db"
        asyncio.run(_incremental_equals_replay(path, REAL_SYSTEMS, first, operations))


STEP = ("step", 0, 0, None, False, 0)
"""A step of one event of every system's catch-up."""


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 3), st.lists(OPERATIONS, min_size=4, max_size=20))
def test_a_catch_up_stopped_part_way_after_every_write_equals_a_full_replay(
    first: int, operations: list[tuple[Any, ...]]
) -> None:
    """Every system's catch-up stopped after one event, again after every write (a rewrite of
    the past meanwhile, a switch, a restart), still ends where a whole fold does."""
    games = [("game", n, n + 1, Result.BLACK, False, n % 4) for n in range(6)]
    stepped = [each for operation in games + operations for each in (operation, STEP)]
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "h.db"
        asyncio.run(_incremental_equals_replay(path, SYSTEMS, first, stepped))


async def test_replay_reports_progress(db: Database, club: Club) -> None:
    a, b = await player(db, club, "Anna"), await player(db, club, "Bela")
    for _ in range(5):
        await game(db, club, a, b)
    seen: list[tuple[int, int]] = []
    await replay_club(db, club, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (7, 7)  # two registrations and five games
    assert all(total == 7 for _, total in seen)


async def test_replay_of_an_unknown_club(db: Database) -> None:
    with pytest.raises(StorageError, match="no club 77"):
        await replay_club(db, 77)


async def test_a_rejected_event_leaves_the_ledgers_untouched(db: Database, club: Club) -> None:
    a, b = await player(db, club, "Anna"), await player(db, club, "Bela")
    await game(db, club, a, b)
    cached = db.projections.ledgers[club.id]
    snapshot = (await ledger(db, club)).snapshot()
    with pytest.raises(EngineError):
        await game(db, club, a, b, pair_go=True)
    assert db.projections.ledgers[club.id] is cached  # kept: the refusal changed nothing
    assert (await ledger(db, club)).snapshot() == snapshot


async def test_a_failure_after_the_ledgers_changed_drops_them(db: Database, club: Club) -> None:
    a, b = await player(db, club, "Anna"), await player(db, club, "Bela")

    with pytest.raises(RuntimeError, match="later failure"):
        async with club_write(db, club.id) as write:
            seq = await write.append("game", actor=ORGANISER, chat=None)
            await write.apply(seq, GamePlayed(Game(seq, a.id, b.id, Result.BLACK, DAY)))
            raise RuntimeError("later failure")
    assert club.id not in db.projections.ledgers  # dropped, rebuilt from the log on next use
    assert (await card(db, club, a)).rating == 100
    assert (await ledger(db, club)).card(a.id).rating == 100


async def test_switching_systems_needs_no_replay(db: Database, club: Club) -> None:
    a, b = await player(db, club, "Anna"), await player(db, club, "Bela")
    await game(db, club, a, b)
    cached = db.projections.ledgers[club.id]
    await set_setting(db, club, "system", "daily", actor=ORGANISER)
    assert db.projections.ledgers[club.id] is cached and cached.current == "daily"
    assert (await card(db, club, a)).pending == Pending(1, "points", Phase.DAY_END)


async def test_projections_built_elsewhere_are_rebuilt(tmp_path: Path) -> None:
    db = await open_test_db(tmp_path / "h.db")
    try:
        club = await create_club(db, "Club", "plus", actor=ORGANISER)
        a, b = await player(db, club, "Anna"), await player(db, club, "Bela")
        await game(db, club, a, b)
        expected = await dump(db)
        async with db.transaction() as tx:  # as if another program had lost them
            await tx.execute("DELETE FROM player_state")
            await tx.execute("DELETE FROM rating_history")
            await tx.execute("DELETE FROM projection_state")
    finally:
        await db.close()
    db = await open_test_db(tmp_path / "h.db")
    try:
        assert (await card(db, club, a)).rating == 101
        assert await dump(db) == expected
    finally:
        await db.close()


async def test_stale_cards_are_detected_on_first_use(tmp_path: Path) -> None:
    db = await open_test_db(tmp_path / "h.db")
    try:
        club = await create_club(db, "Club", "plus", actor=ORGANISER)
        a, b = await player(db, club, "Anna"), await player(db, club, "Bela")
        await game(db, club, a, b)
        expected = await dump(db)
        async with db.transaction() as tx:  # as if an older engine had computed them
            await tx.execute("UPDATE player_state SET card = '{}' WHERE player = ?", (a.id,))
        assert await dump(db) != expected
    finally:
        await db.close()
    db = await open_test_db(tmp_path / "h.db")
    try:
        await ledger(db, club)  # the first use replays, compares and rebuilds
        assert await dump(db) == expected
    finally:
        await db.close()


async def test_another_writer_is_noticed(tmp_path: Path) -> None:
    first = await open_test_db(tmp_path / "h.db")
    second = await open_test_db(tmp_path / "h.db")
    try:
        club = await create_club(first, "Club", "plus", actor=ORGANISER)
        a, b = await player(first, club, "Anna"), await player(first, club, "Bela")
        await game(first, club, a, b)
        await game(second, club, a, b)  # second process: its own ledgers, built from the log
        await game(first, club, a, b)  # first notices the foreign entry and replays
        assert (await card(first, club, a)).rating == 103
        assert (await ledger(first, club)).card(a.id).rating == 103
    finally:
        await first.close()
        await second.close()


async def _nights(db: Database, club: Club, nights: int) -> tuple[Player, Player]:
    """Anna and Bela registered, and one game between them on each of ``nights`` days."""
    a, b = await player(db, club, "Anna"), await player(db, club, "Bela")
    for day in range(nights):
        await game(db, club, a, b, date=DAY + dt.timedelta(days=day))
    return a, b


async def _steps_to_the_end(db: Database, club: Club, key: str, budget: int = 1) -> int:
    """How many one-event steps bring system ``key``'s projection to the log's end."""
    for steps in range(1, 200):
        if await caught_up_step(db, club.id, key, budget=budget):
            return steps
    raise AssertionError("the catch-up went on past 200 steps")


async def _as_a_whole_fold(db: Database, club: Club, key: str) -> None:
    """System ``key``'s ledger is what one fold of the whole log gives, and its stored rows
    and cards are what a replay of every system writes."""
    async with db.upkeep().transaction() as tx:
        folded = await fold(db, tx, club.id, systems=[key])
    assert (await ledger(db, club, key)).snapshot() == folded.projections[key].system.snapshot()
    for other in db.projections.systems:
        await ledger(db, club, other)  # as a replay of every system has them
    expected = await dump(db)
    await replay_club(db, club)
    assert await dump(db) == expected


async def test_a_catch_up_in_steps_goes_on_from_where_each_stopped(
    db: Database, club: Club
) -> None:
    """Ten games in steps of one event each take about ten steps, also after a rewrite of the
    past entered before the first: a step never starts again from a rewrite it has read."""
    a, b = await _nights(db, club, 10)
    await ledger(db, club, "daily")  # the shadow's rows written to here
    await game(db, club, b, a, date=DAY + dt.timedelta(days=1))  # reaches them: a rewrite
    await game(db, club, a, b, date=DAY + dt.timedelta(days=20))
    assert await _steps_to_the_end(db, club, "daily") <= 14  # 2 registrations, 12 games
    await _as_a_whole_fold(db, club, "daily")


async def test_a_cold_clubs_own_system_loads_in_steps(tmp_path: Path) -> None:
    """A process start: the club's own system folds from the log a step at a time, and a
    write in the middle finishes the fold first."""
    db = await open_test_db(tmp_path / "h.db")
    try:
        club = await create_club(db, "Club", "plus", actor=ORGANISER)
        a, b = await _nights(db, club, 8)
        async with db.transaction() as tx:  # as if built by another engine, no snapshot
            await tx.execute("DELETE FROM system_state")
            await tx.execute("DELETE FROM snapshots")
    finally:
        await db.close()
    db = await open_test_db(tmp_path / "h.db")
    try:
        assert not await caught_up_step(db, club.id, budget=1)
        assert db.projections.ledgers[club.id].now.read_to is not None
        await game(db, club, b, a, date=DAY + dt.timedelta(days=9))
        assert db.projections.ledgers[club.id].now.read_to is None
        assert await caught_up_step(db, club.id, budget=1)
        await _as_a_whole_fold(db, club, "plus")
    finally:
        await db.close()


async def test_a_step_notices_another_writers_rewrite(tmp_path: Path) -> None:
    """A shadow stopped part way in one process, a backdated result entered by another: the
    next step folds from before it, not on from where it stopped."""
    first = await open_test_db(tmp_path / "h.db")
    second = await open_test_db(tmp_path / "h.db")
    try:
        club = await create_club(first, "Club", "plus", actor=ORGANISER)
        a, b = await _nights(first, club, 6)
        for _ in range(5):
            assert not await caught_up_step(first, club.id, "daily", budget=1)
        await game(second, club, b, a, date=DAY)  # before where the shadow stopped
        await _steps_to_the_end(first, club, "daily")
        await _as_a_whole_fold(first, club, "daily")
    finally:
        await first.close()
        await second.close()


async def test_another_clubs_write_goes_between_two_steps(db: Database, club: Club) -> None:
    """A long catch-up of one club holds the writer's lock for a step at a time: a write to
    another club, asked for meanwhile, is done before the catch-up is."""
    await _nights(db, club, 30)
    other = await create_club(db, "Other", "plus", actor=ORGANISER)
    c, d = await player(db, other, "Csaba"), await player(db, other, "Dora")
    catching_up = asyncio.create_task(caught_up_in_steps(db, club.id, "daily", budget=1))
    await asyncio.sleep(0)  # the first step has the lock
    await game(db, other, c, d)
    assert not catching_up.done()
    await catching_up
    await _as_a_whole_fold(db, club, "daily")


async def test_a_catch_up_whose_club_leaves_memory_between_steps_still_finishes(
    db: Database, club: Club
) -> None:
    """Another club's writes evict this club's ledgers between every two steps (one club in
    memory), so each step starts again from nothing: after a few such steps the rest is
    folded in one go, while the other club keeps writing."""
    db.projections.clubs_in_memory = 1
    await _nights(db, club, 12)
    other = await create_club(db, "Other", "plus", actor=ORGANISER)
    c, d = await player(db, other, "Csaba"), await player(db, other, "Dora")
    catching_up = asyncio.create_task(caught_up_in_steps(db, club.id, "daily", budget=1))
    writes = 0
    while not catching_up.done() and writes < 60:
        await game(db, other, c, d)
        writes += 1
    assert catching_up.done(), "the catch-up started again from nothing at every step"
    await catching_up
    await _as_a_whole_fold(db, club, "daily")


async def test_after_another_writer_only_the_touched_cards_are_refreshed(tmp_path: Path) -> None:
    """A process whose ledgers are behind another's write folds the new entries and refreshes
    the cards they touched, never every card of the club (at a million games that was 3 s an
    append with three processes on one club); the tables stay those of a replay."""
    first = await open_test_db(tmp_path / "h.db")
    second = await open_test_db(tmp_path / "h.db")
    try:
        club = await create_club(first, "Club", "plus", actor=ORGANISER)
        players = [await player(first, club, name) for name in NAMES]
        await game(first, club, players[0], players[1])
        await game(second, club, players[2], players[3])  # the first process is behind now
        asked: list[str] = []
        transaction = first.transaction

        @contextlib.asynccontextmanager
        async def watched() -> AsyncIterator[Any]:
            async with transaction() as tx:
                fetchall = tx.fetchall

                async def noted(sql: str, params: Any = ()) -> Any:
                    asked.append(sql)
                    return await fetchall(sql, params)

                tx.fetchall = noted  # type: ignore[method-assign]
                yield tx

        first.transaction = watched  # type: ignore[method-assign]
        await game(first, club, players[4], players[5])
        assert not [sql for sql in asked if sql.startswith("SELECT player, card FROM")]
        first.transaction = transaction  # type: ignore[method-assign]
        await _as_a_whole_fold(first, club, "plus")
    finally:
        await first.close()
        await second.close()


async def _rewrites(db: Database) -> list[tuple[int, ...]]:
    return [
        tuple(row)
        for row in await db.fetchall(
            "SELECT club, seq, moment, position FROM rewrites ORDER BY seq, moment, position"
        )
    ]


async def test_every_rebuild_records_where_it_rewrote(db: Database, club: Club) -> None:
    """A write at the end records nothing; a backdated one, a void, a whole replay record the
    club's last log entry and the place in the calendar they rewrote from."""
    first = await _rewrites(db)  # the new club's first projections
    a, b = await player(db, club, "Anna"), await player(db, club, "Bela")
    await game(db, club, a, b, date=DAY + dt.timedelta(days=5))
    assert await _rewrites(db) == first
    backdated = await game(db, club, a, b, date=DAY + dt.timedelta(days=2))
    since = start_of(DAY + dt.timedelta(days=2))
    assert await _rewrites(db) == [*first, (club.id, backdated.id, *since)]
    await void_game(db, club, backdated.id, actor=ORGANISER)
    void = (await db.fetchone("SELECT MAX(seq) FROM log"))[0]  # type: ignore[index]
    assert (club.id, void, *since) in await _rewrites(db)
    await replay_club(db, club)
    assert (club.id, void, 0, 0) in await _rewrites(db)


async def test_a_failed_rebuild_records_nothing(db: Database, club: Club) -> None:
    a, b = await player(db, club, "Anna"), await player(db, club, "Bela")
    await game(db, club, a, b, date=DAY + dt.timedelta(days=5))
    before = await _rewrites(db)
    with pytest.raises(RuntimeError):
        async with club_write(db, club.id) as write:
            await write.rebuild(since=start_of(DAY))
            raise RuntimeError("after the rebuild")
    assert await _rewrites(db) == before


async def test_a_fact_the_clubs_system_ignores_still_moves_a_registration(tmp_path: Path) -> None:
    """An EGF rating dated before a player's registration is nothing to MGSZ, but the
    registration moves to just before it (the player's first fact): the club's own system is
    rebuilt all the same (found by the model)."""
    db = await open_test_db(tmp_path / "h.db", FakeClock(), REAL_SYSTEMS)
    try:
        club = await create_club(db, "Club", "mgsz", actor=ORGANISER)
        nagy = await player(db, club, "Nagy Péter", "5k", date=DAY + dt.timedelta(days=40))
        await record_egf(db, club, nagy.id, 2460, year=DAY.year, month=DAY.month, actor=ORGANISER)
        await every_system(db, club)
        stored = await dump(db)
        await replay_club(db, club)
        assert await dump(db) == stored
    finally:
        await db.close()
