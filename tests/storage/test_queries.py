"""storage.queries: cards, standings, history, chart series, export, ledgers."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.calendar import Phase
from engine.ranks import Rank
from engine.system import Pending
from engine.timecontrol import TimeControl
from engine.types import Result, Tournament
from storage import (
    Club,
    Database,
    NotFound,
    Player,
    StorageError,
    TournamentChanges,
    card,
    create_tournament,
    export_rows,
    finalise_tournament,
    history,
    ledger,
    month_changes,
    placed_card,
    rating_series,
    register_player,
    rejected,
    set_setting,
    standings,
    tournament_changes,
    void_game,
)
from storage.clubs import create_club
from tests.storage.conftest import DAY, ORGANISER, game, open_test_db, player


@pytest.fixture
async def four(db: Database, club: Club) -> list[Player]:
    return [await player(db, club, name) for name in ("Anna", "Bela", "Csaba", "Dora")]


async def test_card_under_each_system(db: Database, club: Club, four: list[Player]) -> None:
    await game(db, club, four[0], four[1])
    assert (await card(db, club, four[0])).rating == 101
    assert (await card(db, club, four[0], system="daily")).pending == Pending(
        1, "points", Phase.DAY_END
    )
    with pytest.raises(StorageError, match="unknown rating system 'elo'"):
        await card(db, club, four[0], system="elo")
    with pytest.raises(NotFound, match="player 999 has no rating under plus"):
        await card(db, club, 999)


async def test_a_placed_card_is_the_card_with_its_place_in_the_list(
    db: Database, club: Club, four: list[Player]
) -> None:
    anna, bela, csaba, dora = four
    await game(db, club, anna, bela)
    await game(db, club, csaba, dora)
    for who in four:
        found, place, listed = await placed_card(db, club, who)
        assert found == await card(db, club, who)
        assert place == next(s.place for s in await standings(db, club) if s.player == who)
        assert listed == 4
    await game(db, club, bela, anna)  # a write: the list is read again
    assert (await placed_card(db, club, bela))[:2] == (await card(db, club, bela), 2)  # 100
    with pytest.raises(NotFound, match="player 999 has no rating under plus"):
        await placed_card(db, club, 999)


async def test_standings_share_places_for_equal_keys(
    db: Database, club: Club, four: list[Player]
) -> None:
    anna, bela, csaba, dora = four
    await game(db, club, anna, bela)  # anna 101, bela 99
    await game(db, club, csaba, dora)  # csaba 101, dora 99
    table = await standings(db, club)
    assert [(s.place, s.player.name) for s in table] == [
        (1, "Anna"),
        (1, "Csaba"),
        (3, "Bela"),
        (3, "Dora"),
    ]
    place, who, shown = table[0]  # a (place, player, card) triple
    assert (place, who, shown.rating) == (1, anna, 101)
    assert [s.player.name for s in await standings(db, club, limit=2)] == ["Anna", "Csaba"]


async def test_standings_under_another_system(
    db: Database, club: Club, four: list[Player]
) -> None:
    await game(db, club, four[3], four[0])
    assert (await standings(db, club))[0].player == four[3]
    daily = await standings(db, club, system="daily")  # pending only: sorted by games
    assert [(s.place, s.player.name) for s in daily] == [
        (1, "Anna"),
        (1, "Dora"),
        (3, "Bela"),
        (3, "Csaba"),
    ]


async def test_history_newest_first_with_voided_games(
    db: Database, club: Club, four: list[Player]
) -> None:
    anna, bela = four[:2]
    first = await game(db, club, anna, bela)
    second = await game(db, club, bela, anna, date=DAY + dt.timedelta(days=1))
    await void_game(db, club, second.id, actor=ORGANISER)
    lines = await history(db, club, anna)
    assert [(line.source, line.status) for line in lines] == [
        (f"game:{second.id}", "voided"),
        (f"game:{first.id}", "rated"),
        ("registration", "rated"),
    ]
    assert (lines[1].rating_before, lines[1].rating_after) == (100, 101)
    assert lines[1].rank_after == Rank.kyu(5)
    assert lines[0].game is not None and lines[0].game.id == second.id
    assert len(await history(db, club, anna, limit=1)) == 1


async def test_rating_series_for_charts(db: Database, club: Club, four: list[Player]) -> None:
    anna, bela = four[:2]
    await game(db, club, anna, bela)
    await game(db, club, anna, bela, date=DAY + dt.timedelta(days=2))
    series = await rating_series(db, club, anna)
    assert [(p.date, p.rating, p.source.split(":")[0]) for p in series] == [
        (DAY, 100, "registration"),
        (DAY, 101, "game"),
        (DAY + dt.timedelta(days=2), 102, "game"),
    ]
    date, rating, rank, _, tournament = series[-1]  # (date, rating, rank, source, tournament)
    assert (date, rating, rank, tournament) == (DAY + dt.timedelta(days=2), 102, Rank.kyu(5), None)


async def test_export(db: Database, club: Club, four: list[Player]) -> None:
    row = await game(db, club, four[0], four[1], Result.WHITE)
    data = await export_rows(db, club)
    assert data.club == club and data.system == "plus"
    assert [(p.name, c.rating if c else None) for p, c in data.players] == [
        ("Anna", 99),
        ("Bela", 101),
        ("Csaba", 100),
        ("Dora", 100),
    ]
    assert [g.id for g in data.games] == [row.id]
    assert data.tournaments == ()


async def test_ledger_is_the_live_engine_ledger(
    db: Database, club: Club, four: list[Player]
) -> None:
    await game(db, club, four[0], four[1])
    plus = await ledger(db, club)
    assert plus.card(four[0].id).rating == 101
    assert (await ledger(db, club, "daily")).card(four[0].id).pending == Pending(
        1, "points", Phase.DAY_END
    )
    with pytest.raises(StorageError, match="unknown rating system 'elo'"):
        await ledger(db, club, "elo")


async def test_rejected_lists_what_another_system_refused(db: Database, club: Club) -> None:
    await set_setting(db, club, "system", "daily", actor=ORGANISER)
    a, b = await player(db, club, "Strong", "3d"), await player(db, club, "Weak", "5k")
    pair_go = await game(db, club, a, b, pair_go=True)  # daily rates it, plus refuses it
    assert await rejected(db, club) == []
    ((seq, message),) = await rejected(db, club, "plus")
    assert seq == pair_go.id and "pair go" in message


# ---------------------------------------------------------------- change this month (issue 14)


async def test_month_changes_follow_the_calendar_not_the_order_of_entry(
    db: Database, club: Club, four: list[Player]
) -> None:
    anna, bela, csaba, dora = four  # registered 2026-03-01 at 100
    april = dt.date(2026, 4, 1)
    await game(db, club, anna, bela, date=dt.date(2026, 3, 15))  # anna 101, bela 99
    await game(db, club, anna, csaba, date=dt.date(2026, 4, 10))
    await game(db, club, bela, anna, date=dt.date(2026, 4, 5))  # back-dated: before the 10th
    await game(db, club, anna, dora, date=dt.date(2026, 3, 20))  # back-dated into March
    # calendar: 03-15 anna 100→101; 03-20 anna 101→102; 04-05 anna 102→101, bela 99→100;
    # 04-10 anna 101→102, csaba 100→99
    assert await month_changes(db, club, april) == {
        anna.id: (102, 102),
        bela.id: (99, 100),
        csaba.id: (100, 99),
    }
    # March holds the registrations (no rating before) and the March games
    march = await month_changes(db, club, DAY)
    assert march[dora.id] == (None, 99) and march[anna.id] == (None, 102)


async def test_month_changes_of_a_month_without_rows_are_empty(
    db: Database, club: Club, four: list[Player]
) -> None:
    await game(db, club, four[0], four[1], date=dt.date(2026, 4, 10))
    assert await month_changes(db, club, dt.date(2026, 5, 1)) == {}
    assert await month_changes(db, club, dt.date(2026, 4, 11)) == {}
    assert await month_changes(db, club, dt.date(2026, 4, 10)) == {
        four[0].id: (100, 101),
        four[1].id: (100, 99),
    }


async def test_month_changes_under_another_system_and_an_unknown_one(
    db: Database, club: Club, four: list[Player]
) -> None:
    anna, bela = four[:2]
    await game(db, club, anna, bela, date=dt.date(2026, 4, 10))
    await game(db, club, anna, bela, date=dt.date(2026, 4, 12))
    april = dt.date(2026, 4, 1)
    assert await month_changes(db, club, april) == {anna.id: (100, 102), bela.id: (100, 98)}
    # the daily system holds the games until a day end (none recorded): only registrations
    assert await month_changes(db, club, april, system="daily") == {}
    assert await month_changes(db, club, DAY, system="daily") == {
        each.id: (None, 100) for each in four
    }
    with pytest.raises(StorageError, match="unknown rating system 'elo'"):
        await month_changes(db, club, dt.date(2026, 4, 1), system="elo")


async def test_month_changes_are_read_again_after_a_write(
    db: Database, club: Club, four: list[Player]
) -> None:
    anna, bela = four[:2]
    april = dt.date(2026, 4, 1)
    await game(db, club, anna, bela, date=dt.date(2026, 4, 10))
    seen = await month_changes(db, club, april)
    seen[anna.id] = (0, 0)  # the caller's own copy
    assert await month_changes(db, club, april) == {anna.id: (100, 101), bela.id: (100, 99)}
    await game(db, club, bela, anna, date=dt.date(2026, 4, 2))  # back-dated: first now
    assert await month_changes(db, club, april) == {anna.id: (100, 100), bela.id: (100, 100)}
    assert await month_changes(db, club, dt.date(2026, 4, 3)) == {
        anna.id: (99, 100),
        bela.id: (101, 100),
    }


# ---------------------------------------------------------------- a tournament's changes

CUP = Tournament(0, "Spring Cup", DAY, DAY + dt.timedelta(days=1), rounds=2)
OTHER = dataclasses.replace(CUP, name="Other")


async def test_tournament_changes_of_a_tournament_rated_as_a_whole(
    db: Database, club: Club, four: list[Player]
) -> None:
    anna, bela, csaba, dora = four
    cup = await create_tournament(db, club, CUP, actor=ORGANISER)
    other = await create_tournament(db, club, OTHER, actor=ORGANISER)
    await game(db, club, anna, bela, tournament=cup.id, round=1)
    await game(db, club, anna, csaba, tournament=cup.id, round=2)
    await game(db, club, csaba, dora, tournament=other.id, round=1)
    await game(db, club, bela, anna)  # a club game the same day
    assert await tournament_changes(db, club, cup.id) == TournamentChanges({}, {})  # open
    await finalise_tournament(db, club, cup, actor=ORGANISER)
    await finalise_tournament(db, club, other, actor=ORGANISER)
    found = await tournament_changes(db, club, cup.id)
    # the plus system rates the tournament as a whole, on its last day (after the club game)
    assert found.players == {anna.id: (99, 101), bela.id: (101, 100), csaba.id: (100, 99)}
    assert found.games == {}
    assert (await tournament_changes(db, club, other.id)).players == {
        csaba.id: (99, 100),
        dora.id: (100, 99),
    }
    with pytest.raises(NotFound):
        await tournament_changes(db, club, 999)


@pytest.fixture
async def real(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_test_db(tmp_path / "real.sqlite", systems=None)  # the real systems
    try:
        yield database
    finally:
        await database.close()


HOUR = TimeControl.parse("60m 3x30s japanese")


async def _real_cup(db: Database) -> tuple[Club, list[Player], int, list[int]]:
    club = await create_club(db, "Real Club", "mgsz", actor=ORGANISER)
    # Tensuusei's points of a day settle at the club's end of day (local rule 2) unless off
    await set_setting(db, club, "tensuusei.settle_end_of_day", "off", actor=ORGANISER, since=DAY)
    members = [
        await register_player(
            db, club, name, Rank.parse(rank), rating=elo, date=DAY, actor=ORGANISER
        )
        for name, rank, elo in (
            ("Nagy Péter", "2k", 1870),
            ("Kovács Anna", "1k", 1930),
            ("Szabó Éva", "3k", 1820),
        )
    ]
    end = DAY + dt.timedelta(days=1)
    cup = await create_tournament(
        db, club, Tournament(0, "Real Cup", DAY, end, 3, time=HOUR), actor=ORGANISER
    )
    gids = []
    for number, (black, white) in enumerate(((0, 1), (1, 2), (2, 0))):
        row = await game(
            db,
            club,
            members[black],
            members[white],
            Result.BLACK if number != 1 else Result.WHITE,
            komi=6,
            time=HOUR,
            date=end,
            tournament=cup.id,
            round=number + 1,
        )
        gids.append(row.id)
    await finalise_tournament(db, club, cup, actor=ORGANISER)
    return club, members, cup.id, gids


async def test_tournament_changes_under_mgsz_are_the_whole_tournaments(real: Database) -> None:
    club, members, cup, _ = await _real_cup(real)
    found = await tournament_changes(real, club, cup, system="mgsz")
    assert found.games == {}
    assert set(found.players) == {each.id for each in members}
    rows = [
        line
        for each in members
        for line in await history(real, club, each, system="mgsz")
        if line.source == f"tournament:{cup}"
    ]
    assert len(rows) == 3  # one row a player: the tournament rated as a whole
    for line, each in zip(rows, members, strict=True):
        assert found.players[each.id] == (line.rating_before, line.rating_after)
    assert found.players[members[0].id][0] == 1870


@pytest.mark.parametrize("system", ["psg", "tensuusei"])
async def test_tournament_changes_game_by_game(real: Database, system: str) -> None:
    club, members, cup, gids = await _real_cup(real)
    found = await tournament_changes(real, club, cup, system=system)
    # every game of the three: its two players' changes, in round order
    assert set(found.games) == set(gids)
    pairs = ((0, 1), (1, 2), (2, 0))
    for gid, (black, white) in zip(gids, pairs, strict=True):
        assert set(found.games[gid]) == {members[black].id, members[white].id}
    for each in members:
        rows = [
            line
            for line in reversed(await history(real, club, each, system=system))
            if line.seq == cup
        ]
        assert len(rows) == 2  # a row for each of their two games
        assert found.players[each.id] == (rows[0].rating_before, rows[-1].rating_after)
        mine = [found.games[gid][each.id] for gid in gids if each.id in found.games[gid]]
        assert mine == [(line.rating_before, line.rating_after) for line in rows]


async def test_tournament_changes_under_tensuusei_settled_at_the_day_end(real: Database) -> None:
    club, _, cup, _ = await _real_cup(real)
    await set_setting(real, club, "tensuusei.settle_end_of_day", "on", actor=ORGANISER, since=DAY)
    # the points wait for the day's end, which settles the whole day (its own rows)
    assert await tournament_changes(real, club, cup, system="tensuusei") == TournamentChanges(
        {}, {}
    )


async def test_data_version_moves_with_every_write(tmp_path: Path) -> None:
    """A kept page (the web's ranking list) is current while the club's version is the same."""
    import storage as st

    db = await open_test_db(tmp_path / "v.sqlite", systems=None)
    try:
        club = await st.create_club(db, "Version Club", "mgsz", actor="t")
        first = await st.data_version(db, club)
        assert first == await st.data_version(db, club)
        await st.set_setting(db, club, "web", "on", actor="t")
        second = await st.data_version(db, club)
        assert second != first
        other = await st.create_club(db, "Other Club", "mgsz", actor="t")
        await st.set_setting(db, other, "web", "on", actor="t")
        assert await st.data_version(db, club) == second  # another club's write
    finally:
        await db.close()
