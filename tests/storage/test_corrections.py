"""storage.corrections: void, correct and undo — history is never destroyed."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from engine.errors import RuleError
from engine.ranks import Rank
from engine.types import Result, Tournament
from storage import (
    Club,
    Database,
    NotFound,
    Player,
    Refused,
    card,
    correct_game,
    create_club,
    create_tournament,
    end_day,
    finalise_tournament,
    game,
    history,
    players,
    record_override,
    reopen_tournament,
    undo_last,
    void_game,
)
from tests.storage.conftest import (
    DAY,
    LOG_TABLES,
    ORGANISER,
    dump,
    dump_all,
    player,
)
from tests.storage.conftest import (
    game as record,
)


@pytest.fixture
async def pair(db: Database, club: Club) -> tuple[Player, Player]:
    return await player(db, club, "Nagy Péter"), await player(db, club, "Kovács Anna", "7k")


async def _log(db: Database) -> dict[str, list[object]]:
    return await dump(db, dict.fromkeys(LOG_TABLES, "seq"))


def _kept(before: dict[str, list[object]], after: dict[str, list[object]]) -> bool:
    """Every row that was in the log is still there, unchanged (append-only)."""
    return all(after[table][: len(rows)] == rows for table, rows in before.items())


async def test_void_keeps_the_game_and_takes_its_rating_back(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    row = await record(db, club, *pair)
    before = await _log(db)
    voided = await void_game(db, club, row.id, actor=ORGANISER, reason="wrong players")
    assert voided.status == "voided" and voided.game == row.game
    assert _kept(before, await _log(db))
    assert (await card(db, club, pair[0])).rating == 100
    lines = await history(db, club, pair[0])
    assert [(line.seq, line.status) for line in lines][:1] == [(row.id, "voided")]
    with pytest.raises(Refused, match=f"game #{row.number} is already void"):
        await void_game(db, club, row.id, actor=ORGANISER)
    with pytest.raises(NotFound, match="no such game"):
        await void_game(db, club, 999, actor=ORGANISER)


async def test_correct_supersedes_the_data_and_keeps_the_original(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    row = await record(db, club, *pair)
    before = await _log(db)
    fixed = await correct_game(
        db, club, row.id, actor=ORGANISER, result=Result.WHITE, komi=Fraction(7, 2)
    )
    assert (fixed.game.result, fixed.game.komi, fixed.corrected) == (
        Result.WHITE,
        Fraction(7, 2),
        True,
    )
    assert _kept(before, await _log(db))
    original = await db.fetchone("SELECT result, komi2 FROM games WHERE seq = ?", (row.id,))
    assert original == ("B+", 13)
    assert (await card(db, club, pair[0])).rating == 99
    assert (await history(db, club, pair[0]))[0].status == "corrected"


async def test_corrections_accumulate(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    row = await record(db, club, *pair)
    await correct_game(db, club, row.id, actor=ORGANISER, result=Result.WHITE)
    fixed = await correct_game(db, club, row.id, actor=ORGANISER, stones=2)
    assert (fixed.game.result, fixed.game.stones) == (Result.WHITE, 2)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"tournament": 5}, "cannot correct tournament of a game"),
        ({"result": Result.BLACK}, "nothing to correct"),
        ({"white": 999}, "no player 999"),
        ({"stones": 11}, "handicap stones must be 0–9, not 11"),
    ],
    ids=["field", "no-change", "player", "stones"],
)
async def test_correction_refusals(
    db: Database,
    club: Club,
    pair: tuple[Player, Player],
    changes: dict[str, object],
    message: str,
) -> None:
    row = await record(db, club, *pair)
    before = await dump_all(db)
    with pytest.raises(Refused, match=message):
        await correct_game(db, club, row.id, actor=ORGANISER, **changes)
    assert await dump_all(db) == before


async def test_a_correction_the_engine_refuses_writes_nothing(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    row = await record(db, club, *pair)
    before = await dump_all(db)
    with pytest.raises(RuleError, match="pair go"):
        await correct_game(db, club, row.id, actor=ORGANISER, pair_go=True)
    assert await dump_all(db) == before
    await record(db, club, *pair)  # the cached ledgers are still right
    assert (await card(db, club, pair[0])).rating == 102


async def test_a_voided_game_cannot_be_corrected(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    row = await record(db, club, *pair)
    await void_game(db, club, row.id, actor=ORGANISER)
    with pytest.raises(Refused, match="already void"):
        await correct_game(db, club, row.id, actor=ORGANISER, result=Result.WHITE)


async def test_a_correction_keeps_the_games_place_in_history(db: Database) -> None:
    """Daily settles at the day's end: a corrected game must still be settled that day."""
    club = await create_club(db, "Tokyo", "daily", actor=ORGANISER)
    black, white = await player(db, club, "Sato"), await player(db, club, "Suzuki")
    first = await record(db, club, black, white)
    await end_day(db, club, DAY)
    await record(db, club, black, white, date=DAY + dt.timedelta(days=1))
    assert (await card(db, club, black)).rating == 101
    await correct_game(db, club, first.id, actor=ORGANISER, result=Result.WHITE)
    settled = await card(db, club, black)
    assert (settled.rating, settled.pending and settled.pending.amount) == (
        99,
        1,
    )  # the second game still pends


async def test_a_finalised_tournament_game_changes_only_by_reopening(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    """Voiding, correcting or undoing a game of a rated tournament is refused (nothing
    written); reopened, corrected and finalised again, the tournament is re-rated."""
    cup = await create_tournament(db, club, Tournament(0, "Cup", DAY, DAY, 3), actor=ORGANISER)
    row = await record(db, club, *pair, tournament=cup.id, round=1)
    await finalise_tournament(db, club, cup, actor=ORGANISER)
    before = await _log(db)
    refusal = "belongs to Cup, which is finalised"
    with pytest.raises(Refused, match=refusal):
        await correct_game(db, club, row.id, actor=ORGANISER, result=Result.WHITE)
    with pytest.raises(Refused, match=refusal):
        await void_game(db, club, row.id, actor=ORGANISER)
    assert await _log(db) == before
    await reopen_tournament(db, club, cup, actor=ORGANISER)
    await correct_game(db, club, row.id, actor=ORGANISER, result=Result.WHITE)
    await finalise_tournament(db, club, cup, actor=ORGANISER)
    assert (await card(db, club, pair[1])).rating == 101


async def test_undo_takes_back_a_finalisation_not_a_game_of_it(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    cup = await create_tournament(db, club, Tournament(0, "Cup", DAY, DAY, 3), actor=ORGANISER)
    row = await record(db, club, *pair, tournament=cup.id, round=1)
    await finalise_tournament(db, club, cup, actor=ORGANISER)
    assert (await card(db, club, pair[0])).rating == 101
    undone = await undo_last(db, club, actor=ORGANISER)
    assert undone.entry.kind == "finalise" and undone.tournament is not None
    assert not undone.tournament.finalised
    assert (await game(db, club, row.id)).status == "ok"  # type: ignore[union-attr]
    assert (await card(db, club, pair[0])).rating == 100


async def test_undo_takes_back_the_actors_last_entry(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    mine = await record(db, club, *pair, actor="telegram:7")
    theirs = await record(db, club, *pair)
    before = await _log(db)
    undone = await undo_last(db, club, actor="telegram:7")
    assert undone.entry.seq == mine.id and undone.game is not None
    assert undone.game.status == "undone"
    assert _kept(before, await _log(db))
    assert (await game(db, club, theirs.id)).status == "ok"  # type: ignore[union-attr]
    assert (await card(db, club, pair[0])).rating == 101
    with pytest.raises(Refused, match="nothing of yours to undo"):
        await undo_last(db, club, actor="telegram:7")


async def test_undo_walks_back_one_entry_at_a_time(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    row = await record(db, club, *pair)
    await void_game(db, club, row.id, actor=ORGANISER)
    assert (await undo_last(db, club, actor=ORGANISER)).entry.kind == "void"
    assert (await game(db, club, row.id)).status == "ok"  # type: ignore[union-attr]
    assert (await card(db, club, pair[0])).rating == 101
    assert (await undo_last(db, club, actor=ORGANISER)).entry.seq == row.id
    assert (await card(db, club, pair[0])).rating == 100
    # next: the registrations, newest first
    assert (await undo_last(db, club, actor=ORGANISER)).player == pair[1]
    assert await players(db, club) == [pair[0]]


async def test_undo_skips_a_voided_game(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    row = await record(db, club, *pair)
    await void_game(db, club, row.id, actor="telegram:9")
    undone = await undo_last(db, club, actor=ORGANISER)
    assert undone.player == pair[1]  # the voided game is passed over


async def test_undo_of_a_correction_restores_the_original(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    row = await record(db, club, *pair)
    await correct_game(db, club, row.id, actor=ORGANISER, result=Result.WHITE)
    undone = await undo_last(db, club, actor=ORGANISER)
    assert undone.entry.kind == "correct" and undone.event is not None
    assert undone.game is not None and undone.game.game.result is Result.BLACK
    assert (await card(db, club, pair[0])).rating == 101


async def test_undo_of_an_override(db: Database, club: Club, pair: tuple[Player, Player]) -> None:
    await record_override(
        db, club, pair[0], reason="committee", date=DAY, rank=Rank.kyu(2), actor=ORGANISER
    )
    assert (await card(db, club, pair[0])).rank == Rank.kyu(2)
    assert (await undo_last(db, club, actor=ORGANISER)).entry.kind == "override"
    assert (await card(db, club, pair[0])).rank == Rank.kyu(5)


async def test_a_registration_in_use_cannot_be_undone(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    await record(db, club, *pair, actor="telegram:9")
    before = await dump_all(db)
    with pytest.raises(Refused, match=r"Kovács Anna already has games .* void those first"):
        await undo_last(db, club, actor=ORGANISER)
    assert await dump_all(db) == before
