"""storage.history: the log replayed into the engine's ordered event stream."""

from __future__ import annotations

import dataclasses
import datetime as dt
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ranks import Rank
from engine.timecontrol import TimeControl
from engine.types import (
    DayEnded,
    Entry,
    Event,
    Game,
    GamePlayed,
    Registered,
    Result,
    SettingsChanged,
    Tournament,
    TournamentRated,
)
from storage import (
    Club,
    Database,
    Player,
    confirm_game,
    correct_game,
    create_tournament,
    end_day,
    finalise_tournament,
    log,
    reopen_tournament,
    undo_last,
    void_game,
)
from storage import overlay as overlays
from storage.clubs import set_setting
from storage.history import _Games, _Tournaments, club_events, count_events, game_from_row
from storage.projections import club_write
from tests.storage.conftest import DAY, KOMI, ORGANISER, game, player


async def _stream(db: Database, club: Club, chunk: int = 4096) -> list[tuple[int, Event]]:
    """``(position, event)`` in the order of the fold; the keys are checked to be sorted."""
    async with db.transaction() as tx:
        folded = await overlays.load(tx, club.id)
        keyed = [
            item async for batch in club_events(tx, club.id, folded, chunk=chunk) for item in batch
        ]
        assert await count_events(tx, club.id, folded) == len(keyed)
    keys = [key for key, _ in keyed]
    assert keys == sorted(keys)
    return [(key[1], event) for key, event in keyed]


@pytest.fixture
async def pair(db: Database, club: Club) -> tuple[Player, Player]:
    return await player(db, club, "Nagy Péter"), await player(db, club, "Kovács Anna", "7k")


async def test_registrations_come_before_the_games_of_their_day(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    a, b = pair
    time = TimeControl.parse("40m 30/5m canadian")
    row = await game(db, club, a, b, Result.JIGO, stones=3, komi=Fraction(1, 2), time=time)
    third = await player(db, club, "Szabó Éva", rating=120, country="HU", committee=True)
    assert await _stream(db, club) == [
        (a.id, Registered(a.id, Rank.kyu(5), DAY, rating_system="plus")),
        (b.id, Registered(b.id, Rank.kyu(7), DAY, rating_system="plus")),
        (third.id, Registered(third.id, Rank.kyu(5), DAY, 120, "HU", True, "plus")),
        (
            row.id,
            GamePlayed(Game(row.id, a.id, b.id, Result.JIGO, DAY, 3, Fraction(1, 2), time=time)),
        ),
    ]


async def test_games_come_in_date_order_whatever_the_order_of_entry(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    a, b = pair
    late = await game(db, club, a, b, date=DAY + dt.timedelta(days=2))
    early = await game(db, club, b, a, date=DAY + dt.timedelta(days=1))
    same_day = await game(db, club, a, b, date=DAY + dt.timedelta(days=1))
    games = [p for p, e in await _stream(db, club) if isinstance(e, GamePlayed)]
    assert games == [early.id, same_day.id, late.id]


async def test_a_registration_dated_after_a_game_comes_just_before_it(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    a, _ = pair
    later = await player(db, club, "Szabó Éva", date=DAY + dt.timedelta(days=30))
    row = await game(db, club, a, later, date=DAY + dt.timedelta(days=3))
    stream = await _stream(db, club)
    assert stream[-2:] == [
        (later.id, Registered(later.id, Rank.kyu(5), row.game.date, rating_system="plus")),
        (row.id, GamePlayed(row.game)),
    ]


async def test_every_game_field_reads_back(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    a, b = pair
    row = await game(
        db,
        club,
        a,
        b,
        None,
        stones=1,
        komi=0,
        played=False,
        board=13,
        arranged=True,
        counts_as_tournament=True,
        reported=DAY,
        margin="F",
    )
    stored = await db.fetchone(
        "SELECT seq, black, white, result, date, stones, komi2, played, board, time, tournament, "
        "round, arranged, counts_as_tournament, pair_go, reported, margin "
        "FROM games WHERE seq = ?",
        (row.id,),
    )
    assert stored is not None
    expected = Game(
        row.id,
        a.id,
        b.id,
        None,
        DAY,
        1,
        Fraction(0),
        False,
        13,
        None,
        None,
        None,
        True,
        True,
        False,
        DAY,
        "F",
    )
    assert game_from_row(stored) == expected
    assert (await _stream(db, club))[-1] == (row.id, GamePlayed(expected))


async def test_chunks_do_not_change_the_stream(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    for _ in range(5):
        await game(db, club, *pair)
    await end_day(db, club, DAY)
    await game(db, club, *pair)
    assert await _stream(db, club, chunk=2) == await _stream(db, club)


async def test_a_tournament_is_rated_at_its_end_date_in_its_own_place(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    a, b = pair
    cup = await create_tournament(db, club, Tournament(0, "Cup", DAY, DAY, 2), actor=ORGANISER)
    first = await game(db, club, a, b, tournament=cup.id, round=1)
    club_game = await game(db, club, b, a)
    await finalise_tournament(db, club, cup, actor=ORGANISER)
    await reopen_tournament(db, club, cup, actor=ORGANISER)
    second = await game(db, club, b, a, tournament=cup.id, round=2)
    later = await game(db, club, a, b)
    before = await game(db, club, a, b, date=DAY - dt.timedelta(days=1))
    await finalise_tournament(db, club, cup, actor=ORGANISER)
    stream = await _stream(db, club)
    (rated,) = [(p, e) for p, e in stream if isinstance(e, TournamentRated)]
    position, event = rated
    assert position == cup.id  # its own place, however often it was finalised
    assert [p for p, e in stream if isinstance(e, TournamentRated | GamePlayed)] == [
        before.id,
        cup.id,
        club_game.id,
        later.id,
    ]
    assert [g.id for g in event.games] == [first.id, second.id]
    # entered by their games: no rank declared, each system gives the first day's
    assert event.entries == (Entry(a.id, None), Entry(b.id, None))
    assert event.tournament.name == "Cup"


async def test_tournaments_read_many_a_query_keep_their_own_games(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    """More finalised tournaments than one query reads (their games are read fifty
    tournaments at a time, in calendar order): each still has its own games, in log order,
    the one left unfinalised none of them."""
    a, b = pair
    count = _Tournaments.GAME_BATCH + 7
    played: dict[int, list[int]] = {}
    for n in range(count):
        day = DAY + dt.timedelta(days=count - n)  # entered newest first
        cup = await create_tournament(
            db, club, Tournament(0, f"Cup {n}", day, day, 2), actor=ORGANISER
        )
        games = [
            (await game(db, club, a, b, tournament=cup.id, round=r, date=day)).id
            for r in (1, 2)[: 1 + n % 2]
        ]
        if n != 3:
            await finalise_tournament(db, club, cup, actor=ORGANISER)
            played[cup.id] = games
    rated = [e for _, e in await _stream(db, club) if isinstance(e, TournamentRated)]
    assert {e.tournament.id: [g.id for g in e.games] for e in rated} == played
    assert [e.tournament.end for e in rated] == sorted(e.tournament.end for e in rated)


_STORED_GAMES = st.tuples(
    st.integers(1, 10**6),
    st.integers(1, 50),
    st.integers(51, 100),
    st.sampled_from(["B+", "W+", "jigo", None]),
    st.dates(dt.date(1990, 1, 1), dt.date(2040, 12, 31)).map(dt.date.isoformat),
    st.integers(0, 9),
    st.integers(-20, 20),
    st.sampled_from([0, 1]),
    st.sampled_from([9, 13, 19]),
    st.sampled_from([None, "60m", "30m 3x30s japanese"]),
    st.none() | st.integers(1, 500),
    st.none() | st.integers(1, 9),
    st.sampled_from([0, 1]),
    st.sampled_from([0, 1]),
    st.sampled_from([0, 1]),
    st.none() | st.dates(dt.date(1990, 1, 1), dt.date(2040, 12, 31)).map(dt.date.isoformat),
    st.none() | st.sampled_from(["R", "T", "3.5"]),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_STORED_GAMES, max_size=8))
def test_the_replays_games_are_the_games_the_rows_say(rows: list[tuple[Any, ...]]) -> None:
    """The fold's games, built slot by slot, are those ``Game(...)`` makes of the rows
    (:func:`game_from_row`): equal, with fields of the same types."""
    games = _Games(overlays.Overlay())
    for row in rows:
        made, expected = games.game(row), game_from_row(row)
        assert made == expected and repr(made) == repr(expected)
        assert [type(getattr(made, f.name)) for f in dataclasses.fields(Game)] == [
            type(getattr(expected, f.name)) for f in dataclasses.fields(Game)
        ]


def test_a_row_game_would_refuse_is_refused_as_game_refuses_it() -> None:
    with pytest.raises(ValueError, match="a player cannot play themselves"):
        _Games(overlays.Overlay()).game((1, 7, 7, "B+", "2026-11-01", 0, 13, 1, 19) + (None,) * 8)


async def test_an_open_tournament_is_not_in_the_stream(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    cup = await create_tournament(db, club, Tournament(0, "Cup", DAY, DAY, 2), actor=ORGANISER)
    await game(db, club, *pair, tournament=cup.id, round=1)
    assert not any(isinstance(e, TournamentRated) for _, e in await _stream(db, club))


async def test_a_corrected_date_moves_the_game(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    a, b = pair
    first = await game(db, club, a, b)
    second = await game(db, club, b, a)
    await correct_game(db, club, first.id, actor=ORGANISER, date=DAY + dt.timedelta(days=1))
    games = [p for p, e in await _stream(db, club) if isinstance(e, GamePlayed)]
    assert games == [second.id, first.id]


async def test_a_correction_keeps_the_original_position(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    a, b = pair
    row = await game(db, club, a, b)
    await end_day(db, club, DAY)
    await correct_game(
        db, club, row.id, actor=ORGANISER, result=Result.WHITE, black=b.id, white=a.id
    )
    stream = await _stream(db, club)
    assert stream[2] == (
        row.id,
        GamePlayed(dataclasses.replace(row.game, result=Result.WHITE, black=b.id, white=a.id)),
    )
    assert stream[3] == (stream[3][0], DayEnded(DAY))


async def test_void_and_undo_remove_their_targets(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    a, b = pair
    voided = await game(db, club, a, b)
    undone = await game(db, club, a, b, actor="telegram:9")
    kept = await game(db, club, b, a)
    await void_game(db, club, voided.id, actor=ORGANISER)
    await undo_last(db, club, actor="telegram:9")
    games = [e.game.id for _, e in await _stream(db, club) if isinstance(e, GamePlayed)]
    assert games == [kept.id]
    assert voided.id not in games and undone.id not in games


async def test_an_undone_registration_is_not_in_the_stream(db: Database, club: Club) -> None:
    a = await player(db, club, "Nagy Péter")
    await undo_last(db, club, actor=ORGANISER)
    assert not any(e == Registered(a.id, Rank.kyu(5), DAY) for _, e in await _stream(db, club))


async def test_a_pending_report_counts_at_its_date_once_confirmed(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    a, b = pair
    report = await game(db, club, a, b, pending=True)
    other = await game(db, club, b, a)
    assert [e.game.id for _, e in await _stream(db, club) if isinstance(e, GamePlayed)] == [
        other.id
    ]
    await confirm_game(db, club, report.id, actor=ORGANISER)
    stream = await _stream(db, club)
    assert [p for p, e in stream if isinstance(e, GamePlayed)] == [report.id, other.id]


async def test_komi_reads_back_exactly(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    await game(db, club, *pair, komi=KOMI)
    await game(db, club, *pair, komi=-2)
    komis = [e.game.komi for _, e in await _stream(db, club) if isinstance(e, GamePlayed)]
    assert komis == [Fraction(13, 2), Fraction(-2)]


async def _keyed(
    db: Database,
    club: Club,
    after: tuple[int, int] | None = None,
    registered: frozenset[int] | set[int] = frozenset(),
) -> list[tuple[tuple[int, int], Event]]:
    async with db.transaction() as tx:
        folded = await overlays.load(tx, club.id)
        stream = club_events(tx, club.id, folded, chunk=3, after=after, registered=registered)
        return [item async for batch in stream for item in batch]


async def test_the_tail_after_a_key_is_the_rest_of_the_whole_history(
    db: Database, club: Club
) -> None:
    """Cut anywhere, the tail (``after``, with the base's registrations) is exactly what the
    whole history yields after the cut: nothing again, nothing missed."""
    early = await player(db, club, "Early")
    late = await player(db, club, "Late", date=DAY + dt.timedelta(days=9))  # after its games
    other = await player(db, club, "Other", date=DAY + dt.timedelta(days=20))  # games after it
    for days in (3, 1, 5, 2, 7):
        await game(db, club, early, late, date=DAY + dt.timedelta(days=days))
    await game(db, club, early, other, date=DAY + dt.timedelta(days=25))
    voided = await game(db, club, early, other, date=DAY + dt.timedelta(days=22))
    await void_game(db, club, voided.id, actor=ORGANISER)
    fixed = await game(db, club, early, late, date=DAY + dt.timedelta(days=4))
    await correct_game(db, club, fixed.id, actor=ORGANISER, date=DAY + dt.timedelta(days=30))
    cup = Tournament(0, "Cup", DAY + dt.timedelta(days=6), DAY + dt.timedelta(days=6), 1)
    row = await create_tournament(db, club, cup, actor=ORGANISER)
    await game(db, club, late, other, tournament=row.id, round=1, date=cup.start)
    await finalise_tournament(db, club, row.id, actor=ORGANISER)
    await end_day(db, club, DAY + dt.timedelta(days=5))
    whole = await _keyed(db, club)
    assert [key for key, _ in whole] == sorted(key for key, _ in whole)
    assert any(
        isinstance(event, Registered) and event.player == late.id and event.date < late.date
        for _, event in whole
    )  # the late registration moved before its first game
    for cut in range(len(whole) + 1):
        before, expected = whole[:cut], whole[cut:]
        after = before[-1][0] if before else (0, 0)
        folded = {event.player for _, event in before if isinstance(event, Registered)}
        assert await _keyed(db, club, after, folded) == expected, cut


async def test_the_tail_keeps_a_registration_waiting_for_its_first_fact(
    db: Database, club: Club
) -> None:
    """A registration not folded yet whose date is past the cut is folded just before its
    player's first fact in the tail, not at its own later date."""
    a = await player(db, club, "Anna")
    await game(db, club, a, await player(db, club, "Bela"), date=DAY)
    whole = await _keyed(db, club)
    newcomer = await player(db, club, "Csaba", date=DAY + dt.timedelta(days=10))
    await game(db, club, a, newcomer, date=DAY + dt.timedelta(days=3))
    folded = {event.player for _, event in whole if isinstance(event, Registered)}
    tail = await _keyed(db, club, whole[-1][0], folded)
    assert [type(event) for _, event in tail] == [Registered, GamePlayed]
    assert tail[0][1] == dataclasses.replace(tail[0][1], date=DAY + dt.timedelta(days=3))
    assert tail == (await _keyed(db, club))[len(whole) :]


async def test_the_usual_time_set_before_it_was_dated_is_a_fact_from_the_day_it_was_set(
    db: Database, club: Club
) -> None:
    """A club that set its usual time control when it was a plain club setting (a ``setting``
    event) still has its MGSZ periods rated with it: the history yields it as a setting change
    from the day it was entered (issue 22); a dated one (``/club set time``) as its own."""
    async with club_write(db, club.id) as write:  # as hoshi wrote it before
        await write.event(
            log.SETTING, actor=ORGANISER, chat=None, key="time", payload={"value": "90m"}
        )
    await set_setting(db, club, "time", "45m", actor=ORGANISER)
    changes = [event for _, event in await _stream(db, club) if isinstance(event, SettingsChanged)]
    today = db.clock().date()
    assert changes == [
        SettingsChanged(today, (("time", TimeControl.parse("90m")),)),
        SettingsChanged(today, (("time", TimeControl.parse("45m")),)),
    ]
