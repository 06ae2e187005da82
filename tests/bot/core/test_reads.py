"""bot.core.reads: what the web pages show, decided in the core (issue 24, build item 2).

The club is the web tests' first hour (tests/bot/web/conftest.py): Nagy Péter beat Kovács
Anna with black (game #1), lost to Tóth Bence, and in the Spring Cup lost to Kovács Anna
(round 1, white won) and to Szabó Éva (round 2); Kovács Anna also beat Tóth Bence there.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import storage
from bot.core import reads
from tests.bot.core.fakechat import FakeChat
from tests.bot.web.conftest import club_with_games


@pytest.fixture
async def chat(tmp_path: Path) -> AsyncIterator[FakeChat]:
    fake = await club_with_games(tmp_path)
    try:
        yield fake
    finally:
        await fake.close()


async def _pid(chat: FakeChat, name: str) -> int:
    found = await storage.find_player(chat.db, chat.club, name)
    assert found is not None and found.player is not None
    return found.player.id


async def _shown(chat: FakeChat) -> reads.Shown:
    shown = await reads.shown_club(chat.db, chat.club.id)
    assert shown is not None
    return shown


async def test_a_club_is_shown_only_while_its_pages_are_on(chat: FakeChat) -> None:
    assert [s.club.id for s in await reads.web_clubs(chat.db)] == [chat.club.id]
    await chat.ok("/club web off")
    assert await reads.shown_club(chat.db, chat.club.id) is None
    assert await reads.web_clubs(chat.db) == []
    assert await reads.shown_club(chat.db, chat.club.id + 100) is None  # no such club


async def test_the_ranking_lists_the_active_or_everyone_and_finds_a_name(chat: FakeChat) -> None:
    shown = await _shown(chat)
    today = dt.date(2026, 5, 2)
    everyone = await reads.ranking_list(chat.db, shown, today, everyone=True)
    assert len(everyone.listed) == len(everyone.standings) == 4
    assert [index for index, _standing, _active in everyone.listed] == [0, 1, 2, 3]
    assert everyone.since == dt.date(2026, 5, 1)
    assert everyone.active_count == sum(active for *_, active in everyone.listed)
    active = await reads.ranking_list(chat.db, shown, today)
    assert all(is_active for *_, is_active in active.listed)
    assert len(active.listed) == active.active_count
    found = await reads.ranking_list(chat.db, shown, today, everyone=True, query="KOVACS")
    assert [s.player.name for _i, s, _a in found.listed] == ["Kovács Anna"]
    assert found.standings[found.listed[0][0]] == found.listed[0][1]  # its place in the list
    assert found.active_count == everyone.active_count  # counted over the whole list


async def test_the_record_against_each_opponent(chat: FakeChat) -> None:
    nagy = await _pid(chat, "Nagy Péter")
    records = await reads.meetings(chat.db, chat.club, nagy)
    assert [(r.name, r.games, r.wins, r.losses, r.jigo) for r in records] == [
        ("Kovács Anna", 2, 1, 1, 0),  # most games first
        ("Szabó Éva", 1, 0, 1, 0),  # then by name
        ("Tóth Bence", 1, 0, 1, 0),
    ]
    assert records[2].last == dt.date(2026, 4, 12)
    assert sorted(await reads.opponents(chat.db, chat.club, nagy)) == sorted(
        r.pid for r in records
    )


async def test_a_voided_game_is_shown_between_two_players_but_not_counted(
    chat: FakeChat,
) -> None:
    nagy, kovacs = await _pid(chat, "Nagy Péter"), await _pid(chat, "Kovács Anna")
    before = await reads.head_to_head(chat.db, chat.club, nagy, kovacs)
    assert before is not None
    assert before.record == (1, 1, 0)
    # as recorded: game #1 (April), then the Spring Cup's (March, entered later)
    assert [g.game.date for g in before.games] == [dt.date(2026, 4, 20), dt.date(2026, 3, 10)]
    won = next(g for g in before.games if reads.outcome(g, nagy) == 0)
    await chat.ok(f"/void {won.number}")
    after = await reads.head_to_head(chat.db, chat.club, nagy, kovacs)
    assert after is not None
    assert len(after.games) == 2 and after.record == (0, 1, 0)
    records = await reads.meetings(chat.db, chat.club, nagy)
    assert (records[0].name, records[0].games) == ("Kovács Anna", 1)


async def test_no_head_to_head_with_oneself_or_a_stranger(chat: FakeChat) -> None:
    nagy = await _pid(chat, "Nagy Péter")
    assert await reads.head_to_head(chat.db, chat.club, nagy, nagy) is None
    assert await reads.head_to_head(chat.db, chat.club, nagy, 10_000) is None


async def test_no_handicap_without_a_cheap_ledger(chat: FakeChat) -> None:
    nagy, toth = await _pid(chat, "Nagy Péter"), await _pid(chat, "Tóth Bence")
    chat.db.projections.ledgers.clear()  # a web process that has not replayed the club
    assert await reads.handicap(chat.db, chat.club, nagy, toth, limit=1) is None
    advice = await reads.handicap(chat.db, chat.club, nagy, toth, limit=50_000)
    assert advice is not None and {advice.black, advice.white} == {nagy, toth}


async def test_the_tournaments_and_their_places(chat: FakeChat) -> None:
    [summary] = await reads.tournament_list(chat.db, chat.club)
    assert (summary.row.tournament.name, summary.players) == ("Spring Cup", 4)
    results = await reads.tournament_results(chat.db, chat.club, summary.row.number)
    assert results is not None
    names = [results.names[pid] for pid, _place in results.places]
    # Kovács Anna won both rounds; Tóth Bence and Szabó Éva one each; Nagy Péter none
    assert names[0] == "Kovács Anna" and names[-1] == "Nagy Péter"
    assert [place for _pid, place in results.places] == [1, 2, 2, 4]
    assert await reads.tournament_results(chat.db, chat.club, 99) is None


async def test_a_tournaments_h9_file(chat: FakeChat) -> None:
    data = await reads.export(chat.db, chat.club)
    text = await reads.tournament_h9(chat.db, chat.club, data, 1)
    assert text is not None and "Spring Cup" in text
    assert await reads.tournament_h9(chat.db, chat.club, data, 2) is None


async def test_a_chat_run_tournaments_rounds_and_crosstable(tmp_path: Path) -> None:
    """tournament_rounds: ``None`` for a typed tournament; for one run from the chat, each
    published round's boards with the komi they were published with, the bye, the boards
    waiting for a result, who entered late and who withdrew, and the crosstable of both
    rounds."""
    from fractions import Fraction

    from tests.bot.web.conftest import chat_run_club

    chat = await chat_run_club(tmp_path)
    try:
        typed = await storage.tournament_by_number(chat.db, chat.club, 1)
        row = await storage.tournament_by_number(chat.db, chat.club, 2)
        assert typed is not None and row is not None
        komi = Fraction(7, 2)
        assert await reads.tournament_rounds(chat.db, chat.club, typed, komi=komi) is None
        run = await reads.tournament_rounds(chat.db, chat.club, row, komi=komi)
        assert run is not None
        assert run.setup.system == "mcmahon" and run.setup.handicap == "rank-2"
        assert [r.number for r in run.rounds] == [1, 2]
        first, second = run.rounds
        assert first.bye == await _pid(chat, "Weber Paul") and second.bye is None
        assert [len(r.boards) for r in run.rounds] == [2, 3]
        assert not any(b.waiting for b in first.boards)
        assert [(n, b.number) for n, b in run.waiting()] == [(2, 2), (2, 3)]
        for board in (*first.boards, *second.boards):  # as published (the chat's 6.5)
            assert board.komi == {0: Fraction(13, 2), 1: Fraction(0)}.get(
                board.stones, Fraction(1, 2)
            )
        assert run.late == {await _pid(chat, "Neumann Lara"): 2}
        assert run.withdrawn == {await _pid(chat, "Weber Paul")}
        assert run.table.rounds == 2 and len(run.table.rows) == 6
        assert {run.names[r.player] for r in run.table.rows} >= {"Huber Anna", "Neumann Lara"}
    finally:
        await chat.close()
