"""Calendar order through storage: the same dated facts, entered in any order, give the same
projections under every system (rules.md, top: "Calendar order")."""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ranks import Rank
from engine.systems import SYSTEMS
from engine.timecontrol import TimeControl
from engine.types import Result, Tournament
from storage import (
    Database,
    close_period,
    club_games,
    correct_game,
    create_tournament,
    end_day,
    end_month,
    every_system,
    finalise_tournament,
    history,
    new_game,
    rating_series,
    record_game,
    register_player,
    reopen_tournament,
    replay_club,
    tournaments,
    void_game,
)
from storage.clubs import create_club
from storage.errors import Refused
from tests.storage.conftest import FakeClock, open_test_db, release_target

ORGANISER = "console"
HOUR = TimeControl.parse("60m 3x30s japanese")
PLAYERS = (  # name, rank, MGSZ Elo: four members moving their standing into hoshi
    ("Nagy Péter", "2k", 1870),
    ("Kovács Anna", "1k", 1930),
    ("Szabó Éva", "3k", 1820),
    ("Tóth Béla", "1d", 1990),
)
OCTOBER = (dt.date(2026, 10, 10), dt.date(2026, 10, 11))
NOVEMBER = (dt.date(2026, 11, 7), dt.date(2026, 11, 8))

IDS = re.compile(r"\b(game|tournament|period):\d+")

Fact = Callable[[Database, int, list[int]], Awaitable[None]]


def _tournament(name: str, days: tuple[dt.date, dt.date], pairings: list[tuple[int, int]]) -> Fact:
    """A two-round tournament entered, played and finalised in one go."""

    async def enter(db: Database, club: int, players: list[int]) -> None:
        row = await create_tournament(
            db, club, Tournament(0, name, days[0], days[1], 2, time=HOUR), actor=ORGANISER
        )
        for number, (black, white) in enumerate(pairings):
            await record_game(
                db,
                club,
                new_game(
                    players[black],
                    players[white],
                    Result.BLACK if number % 3 else Result.WHITE,
                    stones=0,
                    komi=6,
                    date=days[number // 2],
                    time=HOUR,
                    tournament=row.id,
                    round=number // 2 + 1,
                ),
                actor=ORGANISER,
            )
        await finalise_tournament(db, club, row.id, actor=ORGANISER)

    return enter


def _club_game(day: dt.date, black: int, white: int, result: Result) -> Fact:
    async def enter(db: Database, club: int, players: list[int]) -> None:
        await record_game(
            db,
            club,
            new_game(
                players[black], players[white], result, stones=0, komi=6, date=day, time=HOUR
            ),
            actor=ORGANISER,
        )

    return enter


def _scheduled(day: dt.date) -> Fact:
    """What the scheduler writes after a day: its end (Tensuusei), and after a month's last day
    the month end (PSG) and the club-games period (MGSZ)."""

    async def enter(db: Database, club: int, players: list[int]) -> None:
        await end_day(db, club, day)
        if (day + dt.timedelta(days=1)).day == 1:
            await end_month(db, club, day.year, day.month)
            first = day.replace(day=1)
            period = Tournament(0, f"Club games {day:%Y-%m}", first, day, 1, time=HOUR)
            await close_period(db, club, period)

    return enter


FACTS: tuple[Fact, ...] = (
    _tournament("October Cup", OCTOBER, [(0, 1), (2, 3), (1, 2), (3, 0)]),
    _tournament("November Cup", NOVEMBER, [(0, 2), (1, 3), (2, 1), (0, 3)]),
    _club_game(dt.date(2026, 10, 3), 0, 1, Result.BLACK),
    _club_game(dt.date(2026, 10, 20), 2, 0, Result.WHITE),
    _club_game(dt.date(2026, 11, 2), 3, 2, Result.BLACK),
    _club_game(dt.date(2026, 11, 15), 1, 0, Result.JIGO),
    _scheduled(dt.date(2026, 10, 3)),
    _scheduled(dt.date(2026, 10, 20)),
    _scheduled(dt.date(2026, 10, 31)),
    _scheduled(dt.date(2026, 11, 2)),
    _scheduled(dt.date(2026, 11, 15)),
    _scheduled(dt.date(2026, 11, 30)),
)


async def _club(path: Path) -> tuple[Database, int, list[int]]:
    db = await open_test_db(path, FakeClock(dt.datetime(2026, 12, 1, tzinfo=dt.UTC)), SYSTEMS)
    club = await create_club(db, "Budapest Go Club", "mgsz", actor=ORGANISER)
    players = []
    for name, rank, elo in PLAYERS:
        player = await register_player(
            db,
            club,
            name,
            Rank.parse(rank),
            date=dt.date(2026, 9, 1),
            rating=elo,
            actor=ORGANISER,
        )
        players.append(player.id)
    return db, club.id, players


async def projections(db: Database, club: int) -> dict[str, object]:
    """Everything the projections say, with the facts' own log positions left out (they
    differ with the order of entry): the cards byte for byte but for a source's number
    (``tournament:9``), the history row by row — every system's, its shadows caught up."""
    await every_system(db, club)
    cards = [
        (system, player, IDS.sub(r"\1:#", card), *rest)
        for system, player, card, *rest in await db.fetchall(
            "SELECT system, player, card, sort_key, rank, games FROM player_state WHERE club = ? "
            "ORDER BY system, player",
            (club,),
        )
    ]
    history = sorted(  # ties (one player's two games of a day) in a stated order on any backend
        (*row, source[: source.find(":") + 1] if ":" in source else source)
        for *row, source in await db.fetchall(
            "SELECT system, moment, idx, player, date, rating_before, rating_after, rank_before, "
            "rank_after, source FROM rating_history "
            "WHERE club = ? ORDER BY system, moment, player, idx",
            (club,),
        )
    )
    return {"cards": cards, "history": history}


async def _entered(path: Path, order: list[int]) -> dict[str, object]:
    db, club, players = await _club(path)
    try:
        for index in order:
            await FACTS[index](db, club, players)
        return await projections(db, club)
    finally:
        await db.close()
        await release_target(path)  # a property test's example: the next one may reuse it


async def test_the_order_of_entry_does_not_change_any_projection(tmp_path: Path) -> None:
    calendar = await _entered(tmp_path / "a.db", list(range(len(FACTS))))
    backwards = await _entered(tmp_path / "b.db", list(reversed(range(len(FACTS)))))
    assert backwards == calendar
    assert calendar["history"]  # the facts were rated


@settings(max_examples=8)
@given(order=st.permutations(list(range(len(FACTS)))))
async def test_any_order_of_entry_gives_the_same_projections(
    tmp_path_factory: object, order: list[int]
) -> None:
    base = Path(tmp_path_factory.mktemp("calendar"))  # type: ignore[attr-defined]
    assert await _entered(base / "any.db", order) == await _entered(
        base / "calendar.db", list(range(len(FACTS)))
    )


async def _elo(db: Database, club: int) -> dict[int, int]:
    rows = await db.fetchall(
        "SELECT player, card FROM player_state WHERE club = ? AND system = 'mgsz'", (club,)
    )
    return {player: json.loads(card)["rating"] for player, card in rows}


async def test_reopening_and_finalising_again_changes_nothing(tmp_path: Path) -> None:
    """The issue's reproduction: October, then November, then October reopened and finalised
    again without a change: every Elo as before (it was rated after November)."""
    db, club, players = await _club(tmp_path / "club.db")
    try:
        await FACTS[0](db, club, players)
        await FACTS[1](db, club, players)
        before = await projections(db, club)
        elo = await _elo(db, club)
        assert len(set(elo.values())) > 1
        october = await db.fetchone("SELECT seq FROM tournaments WHERE name = 'October Cup'")
        assert october is not None
        await reopen_tournament(db, club, october[0], actor=ORGANISER)
        await finalise_tournament(db, club, october[0], actor=ORGANISER)
        assert await projections(db, club) == before
        assert await _elo(db, club) == elo
    finally:
        await db.close()


async def test_november_entered_first_gives_the_same_elo(tmp_path: Path) -> None:
    in_order = await _entered(tmp_path / "a.db", [0, 1])
    november_first = await _entered(tmp_path / "b.db", [1, 0])
    assert november_first == in_order


async def test_lists_and_history_are_in_date_order(tmp_path: Path) -> None:
    """/history, /chart, /tournament list and the exports follow the calendar: November's
    tournament and a late October game entered first still come after October's facts."""
    db, club, players = await _club(tmp_path / "club.db")
    try:
        await FACTS[1](db, club, players)  # November Cup
        await FACTS[3](db, club, players)  # 20 October
        await FACTS[0](db, club, players)  # October Cup
        await FACTS[2](db, club, players)  # 3 October
        names = [row.tournament.name for row in await tournaments(db, club)]
        assert names == ["October Cup", "November Cup"]
        dates = [row.game.date for row in await club_games(db, club)]
        assert dates == sorted(dates)
        rows = await history(db, club, players[0], limit=None)
        assert [row.date for row in rows] == sorted((row.date for row in rows), reverse=True)
        series = await rating_series(db, club, players[0])
        assert [point.date for point in series] == sorted(point.date for point in series)
        assert {point.date for point in series} >= {OCTOBER[1], NOVEMBER[1]}
    finally:
        await db.close()


async def test_history_newest_first_chains_every_change(tmp_path: Path) -> None:
    """Each row starts where the one before it (older) ended, also when a system rates a
    tournament game by game (PSG: several rows of one tournament, newest first)."""
    db, club, players = await _club(tmp_path / "club.db")
    try:
        for fact in FACTS:
            await fact(db, club, players)
        for system in ("psg", "mgsz", "tensuusei"):
            rows = [r for r in await history(db, club, players[0], None, system) if r.status]
            assert len(rows) > 2
            for newer, older in itertools.pairwise(rows):
                assert newer.rating_before == older.rating_after, (system, newer, older)
    finally:
        await db.close()


async def _stored_equals_replay(db: Database, club: int) -> None:
    stored = await projections(db, club)
    await replay_club(db, club)
    assert await projections(db, club) == stored


Step = tuple[str, int, int, int]

STEPS = st.lists(
    st.tuples(
        st.sampled_from(["game", "game", "game", "register", "void", "redate", "cup", "reopen"]),
        st.integers(0, 7),  # a player, or which game
        st.integers(0, 7),  # the other player
        st.integers(0, 40),  # a day of October–November
    ),
    min_size=4,
    max_size=14,
)


@settings(max_examples=150)
@given(steps=STEPS)
async def test_writes_keep_the_projections_a_full_replay_would_build(
    tmp_path_factory: object, steps: list[Step]
) -> None:
    """Whatever is entered, in whatever order and for whatever date — a game before its
    players' registrations, a void, a corrected date — the projections kept write by write
    (folded at the end, or rewritten from a day) are what a full replay builds."""
    base = Path(tmp_path_factory.mktemp("writes"))  # type: ignore[attr-defined]
    db = await open_test_db(base / "club.db", FakeClock(), SYSTEMS)
    try:
        club = (await create_club(db, "Club", "mgsz", actor=ORGANISER)).id
        players: list[int] = []
        games: list[int] = []
        cups: list[int] = []
        start = dt.date(2026, 10, 1)
        for kind, a, b, day in steps:
            date = start + dt.timedelta(days=day)
            if kind == "register" or len(players) < 2:
                player = await register_player(
                    db, club, f"Player {len(players)}", Rank.kyu(5), date=date, actor=ORGANISER
                )
                players.append(player.id)
            elif kind == "game" and players[a % len(players)] != players[b % len(players)]:
                row = (
                    await record_game(
                        db,
                        club,
                        new_game(
                            players[a % len(players)],
                            players[b % len(players)],
                            Result.BLACK if day % 3 else Result.WHITE,
                            stones=0,
                            komi=6,
                            date=date,
                            time=HOUR,
                        ),
                        actor=ORGANISER,
                    )
                ).row
                games.append(row.id)
            elif kind == "cup" and players[a % len(players)] != players[b % len(players)]:
                cup = await create_tournament(
                    db,
                    club,
                    Tournament(
                        0,
                        f"Cup {len(games)}-{len(cups)}-{day}",
                        date,
                        date + dt.timedelta(days=2),
                        1,
                        time=HOUR,
                    ),
                    actor=ORGANISER,
                )
                await record_game(
                    db,
                    club,
                    new_game(
                        players[a % len(players)],
                        players[b % len(players)],
                        Result.WHITE,
                        stones=0,
                        komi=6,
                        date=date,
                        time=HOUR,
                        tournament=cup.id,
                        round=1,
                    ),
                    actor=ORGANISER,
                )
                await finalise_tournament(db, club, cup.id, actor=ORGANISER)
                cups.append(cup.id)
            elif kind == "reopen" and cups:
                cup_id = cups[a % len(cups)]
                await reopen_tournament(db, club, cup_id, actor=ORGANISER)
                if b % 2:
                    await finalise_tournament(db, club, cup_id, actor=ORGANISER)
                else:
                    cups.remove(cup_id)
            elif kind == "void" and games:
                await void_game(db, club, games.pop(a % len(games)), actor=ORGANISER)
            elif kind == "redate" and games:
                game = games[a % len(games)]
                with contextlib.suppress(Refused):  # the same date again: nothing to correct
                    await correct_game(db, club, game, actor=ORGANISER, date=date)
            if day % 10 == 0:
                await end_day(db, club, date)
                await end_month(db, club, date.year, date.month)
        await _stored_equals_replay(db, club)
    finally:
        await db.close()
        await release_target(base / "club.db")
