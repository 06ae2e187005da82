"""storage.queries: cards, standings, history, chart series, export, ledgers."""

from __future__ import annotations

import datetime as dt

import pytest

from engine.calendar import Phase
from engine.ranks import Rank
from engine.system import Pending
from engine.types import Result
from storage import (
    Club,
    Database,
    NotFound,
    Player,
    StorageError,
    card,
    export_rows,
    history,
    ledger,
    month_changes,
    placed_card,
    rating_series,
    rejected,
    set_setting,
    standings,
    void_game,
)
from tests.storage.conftest import DAY, ORGANISER, game, player


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
    date, rating, rank, _ = series[-1]  # a (date, rating, rank, source) tuple
    assert (date, rating, rank) == (DAY + dt.timedelta(days=2), 102, Rank.kyu(5))


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
