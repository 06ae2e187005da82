"""storage.pairings: a tournament run from the chat read back from its log (issue 25)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from engine.ranks import Rank
from engine.types import Tournament
from storage import Club, Database, Refused, add_entry, create_tournament
from storage.pairings import Board, Round, Setup, field, publish, save_draft, withdraw
from tests.storage.conftest import player

DAY = dt.date(2026, 4, 20)
SETUP = Setup("mcmahon", Rank.dan(2), Rank.kyu(20), "rank-2", ("sos", "sosos"))


async def _opened(db: Database, club: Club, setup: Setup | None = SETUP) -> int:
    row = await create_tournament(
        db, club, Tournament(0, "Winter Cup", DAY, DAY, 4), actor="t", pairing=setup
    )
    return row.id


def _round(number: int, *boards: tuple[int, int], bye: int | None = None) -> Round:
    return Round(
        number,
        tuple(Board(n, b, w, 0, None) for n, (b, w) in enumerate(boards, start=1)),
        bye,
    )


async def test_a_tournament_opened_without_pairing_is_not_run_from_the_chat(
    db: Database, club: Club
) -> None:
    assert await field(db, club.id, await _opened(db, club, None)) is None


async def test_the_setup_comes_back_as_written(db: Database, club: Club) -> None:
    found = await field(db, club.id, await _opened(db, club))
    assert found is not None
    assert found.setup == SETUP
    assert found.seats == () and found.rounds == () and found.draft is None


async def test_a_late_entrant_starts_after_the_rounds_published_before_them(
    db: Database, club: Club
) -> None:
    t = await _opened(db, club)
    a, b, c = [await player(db, club, name) for name in ("Nagy", "Kiss", "Tóth")]
    for p in (a, b):
        await add_entry(db, club, t, p, Rank.kyu(5), actor="t")
    draft = await save_draft(db, club, t, _round(1, (a.id, b.id)), actor="t", chat=None)
    await publish(db, club, t, draft, actor="t", chat=None)
    await add_entry(db, club, t, c, Rank.kyu(8), actor="t")
    found = await field(db, club.id, t)
    assert found is not None
    assert [(s.player, s.first_round) for s in found.seats] == [(a.id, 1), (b.id, 1), (c.id, 2)]
    assert found.published == 1 and found.draft is None
    assert found.rounds[0].board_of(b.id) == Board(1, a.id, b.id, 0, None)


async def test_a_withdrawal_holds_until_the_player_enters_again(db: Database, club: Club) -> None:
    t = await _opened(db, club)
    a = await player(db, club, "Nagy")
    await add_entry(db, club, t, a, Rank.kyu(5), actor="t")
    await withdraw(db, club, t, a, actor="t")
    found = await field(db, club.id, t)
    assert found is not None and found.seats[0].withdrawn
    with pytest.raises(Refused):
        await withdraw(db, club, t, a, actor="t")
    await add_entry(db, club, t, a, Rank.kyu(5), actor="t")
    found = await field(db, club.id, t)
    assert found is not None and not found.seats[0].withdrawn
    assert found.seats[0].first_round == 1  # entered before any round: still from round 1


async def test_withdrawing_someone_not_entered_is_refused(db: Database, club: Club) -> None:
    t = await _opened(db, club)
    with pytest.raises(Refused):
        await withdraw(db, club, t, await player(db, club, "Nagy"), actor="t")


async def test_only_the_draft_shown_is_published(db: Database, club: Club) -> None:
    """A draft changed (swapped, paired again) after it was shown is never published unseen."""
    t = await _opened(db, club)
    a, b, c, d = [await player(db, club, n) for n in ("A", "B", "C", "D")]
    first = await save_draft(
        db, club, t, _round(1, (a.id, b.id), (c.id, d.id)), actor="t", chat=None
    )
    second = await save_draft(
        db, club, t, _round(1, (a.id, c.id), (b.id, d.id)), actor="t", chat=None
    )
    with pytest.raises(Refused):
        await publish(db, club, t, first, actor="t", chat=None)
    await publish(db, club, t, second, actor="t", chat=None)
    found = await field(db, club.id, t)
    assert found is not None
    assert [b.black for b in found.rounds[0].boards] == [a.id, b.id]
    assert found.draft is None


async def test_publishing_a_round_again_replaces_its_boards(db: Database, club: Club) -> None:
    t = await _opened(db, club)
    a, b, c, d = [await player(db, club, n) for n in ("A", "B", "C", "D")]
    for pairing in (_round(1, (a.id, b.id), (c.id, d.id)), _round(1, (a.id, d.id), (c.id, b.id))):
        await publish(
            db, club, t, await save_draft(db, club, t, pairing, actor="t", chat=None),
            actor="t", chat=None,
        )  # fmt: skip
    found = await field(db, club.id, t)
    assert found is not None and found.published == 1
    assert found.rounds[0].board_of(a.id) == Board(1, a.id, d.id, 0, None)


def test_a_round_keeps_komi_and_bye_through_its_payload() -> None:
    kept = Round(3, (Board(1, 5, 6, 2, Fraction(1, 2)), Board(2, 7, 8, 0, None)), 9, (10,))
    assert Round.of(kept.payload(), 0) == kept
    assert kept.players() == {5, 6, 7, 8, 9, 10}
