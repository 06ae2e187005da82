"""storage.overlay: how undo, void, correct, confirm, finalise and reopen fold together."""

from __future__ import annotations

import pytest

from engine.types import Result, Tournament
from storage import (
    Club,
    Database,
    Player,
    amend_tournament,
    confirm_game,
    correct_game,
    create_club,
    create_tournament,
    finalise_tournament,
    reopen_tournament,
    undo_last,
    void_game,
)
from storage import overlay as overlays
from tests.storage.conftest import DAY, ORGANISER, game, player


@pytest.fixture
async def pair(db: Database, club: Club) -> tuple[Player, Player]:
    return await player(db, club, "Nagy Péter"), await player(db, club, "Kovács Anna", "7k")


async def test_an_empty_overlay(db: Database, club: Club) -> None:
    assert await overlays.load(db, club.id) == overlays.Overlay()


async def test_voids_and_undos(db: Database, club: Club, pair: tuple[Player, Player]) -> None:
    first = await game(db, club, *pair)
    second = await game(db, club, *pair)
    await void_game(db, club, first.id, actor=ORGANISER)
    await void_game(db, club, second.id, actor="telegram:9")
    await undo_last(db, club, actor="telegram:9")  # takes the second void back
    folded = await overlays.load(db, club.id)
    assert set(folded.voided) == {first.id}
    assert folded.removed(first.id) and not folded.removed(second.id)
    assert len(folded.undone) == 1


async def test_corrections_merge_in_order(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    row = await game(db, club, *pair)
    await correct_game(db, club, row.id, actor=ORGANISER, result=Result.WHITE)
    await correct_game(db, club, row.id, actor=ORGANISER, result=Result.JIGO, stones=2)
    folded = await overlays.load(db, club.id)
    assert folded.corrections == {row.id: {"result": "jigo", "stones": 2}}


async def test_finalise_and_reopen(db: Database, club: Club) -> None:
    cup = await create_tournament(db, club, Tournament(0, "Cup", DAY, DAY, 1), actor=ORGANISER)
    await finalise_tournament(db, club, cup, actor=ORGANISER)
    first = await overlays.load(db, club.id)
    await reopen_tournament(db, club, cup, actor=ORGANISER)
    reopened = await overlays.load(db, club.id)
    await finalise_tournament(db, club, cup, actor=ORGANISER)
    again = await overlays.load(db, club.id)
    assert cup.id in first.finalised and cup.id not in reopened.finalised
    assert again.finalised[cup.id] > first.finalised[cup.id]
    assert cup.id in reopened.reopened and cup.id not in again.reopened


async def test_amendments_and_confirmations(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    cup = await create_tournament(db, club, Tournament(0, "Cup", DAY, DAY, 1), actor=ORGANISER)
    await amend_tournament(db, club, cup, actor=ORGANISER, multiplier=20)
    report = await game(db, club, *pair, pending=True)
    await confirm_game(db, club, report.id, actor=ORGANISER)
    folded = await overlays.load(db, club.id)
    assert folded.amendments == {cup.id: {"multiplier": 20}}
    assert report.id in folded.confirmed


async def test_overlays_are_per_club(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    other = await create_club(db, "Szeged", "plus", actor=ORGANISER)
    row = await game(db, club, *pair)
    await void_game(db, club, row.id, actor=ORGANISER)
    assert (await overlays.load(db, other.id)).voided == {}
