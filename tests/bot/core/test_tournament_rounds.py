"""A club tournament run from the chat (issue 25): /tournament join, add, withdraw, players,
pair, swap, publish, missing, standings, and /result tied to a board."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import storage
from bot.core.invocation import Caller
from bot.core.replies import Notice
from engine.formats import parse_h9
from tests.bot.core.fakechat import PLAYER, FakeChat

PLAYERS = (
    "Nagy Péter 3d",
    "Kovács Anna 1k",
    "Szabó Éva 5k",
    "Tóth Ádám 8k",
    "Kiss Béla 12k",
    "Horváth Zsófia 20k",
    "Varga Gábor 25k",
)
NAMES = [" ".join(line.split()[:2]) for line in PLAYERS]
NEW = "/tournament new Autumn Cup rounds=4 pairing=mcmahon bar=1d floor=20k handicap=rank-2"


@pytest.fixture
async def chat(tmp_path: Path) -> AsyncIterator[FakeChat]:
    club = await FakeChat.open(tmp_path, "gor", players=PLAYERS)
    try:
        yield club
    finally:
        await club.close()


async def _entered(chat: FakeChat, names: list[str] = NAMES[:6]) -> None:
    await chat.ok(NEW)
    await chat.ok("/tournament add " + ", ".join(names))


def _boards(text: str) -> list[tuple[str, str]]:
    """The (Black, White) names of a drafted or published round's table."""
    found = []
    for line in text.splitlines():
        cells = line.split("  ")
        cells = [c.strip() for c in cells if c.strip()]
        if len(cells) == 5 and cells[0].isdigit():
            found.append((cells[1], cells[2]))
    return found


async def test_opening_says_how_it_is_paired_and_offers_the_join_button(chat: FakeChat) -> None:
    said = await chat.ok(NEW + " order=sos,sodos")
    assert "Pairing: McMahon; bar 1d; floor 20k" in said
    assert "placed by MMS, SOSM, SODOSM" in said
    assert [b.command for b in said.reply.buttons] == ["/tournament join #1"]


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("/tournament new Cup bar=1d", "bar= sets how a tournament run from the chat is paired"),
        ("/tournament new Cup pairing=mcmahon handicap=rank", "handicap= is none, rank-N"),
        ("/tournament new Cup pairing=mcmahon order=sos,best", "order= lists tie-breaks"),
        ("/tournament new Cup pairing=mcmahon bar=5k floor=1d", "floor 1d is above the bar 5k"),
        ("/tournament new Cup pairing=swiss bar=1d", "bar= and floor= are for McMahon"),
        ("/tournament new Cup pairing=dutch", "dutch"),
    ],
)
async def test_a_wrong_setup_is_refused_with_the_right_form(
    chat: FakeChat, line: str, why: str
) -> None:
    assert why in (await chat.refused(line)).text


async def test_a_player_joins_once_linked_and_only_organisers_add(chat: FakeChat) -> None:
    await chat.ok(NEW)
    assert "/link YOUR NAME" in (await chat.refused("/tournament join", as_=PLAYER)).text
    await chat.link("Szabó Éva", PLAYER)
    assert "Szabó Éva (5k) is entered." in await chat.ok("/tournament join", as_=PLAYER)
    assert "is entered already" in await chat.ok("/tournament join", as_=PLAYER)
    refused = await chat.refused("/tournament add Kiss Béla", as_=PLAYER)
    assert "for the organisers" in refused.text
    # a player withdraws only themselves
    assert "only an organiser" in (await chat.refused("/tournament withdraw Kiss", as_=PLAYER))
    assert "Szabó Éva withdrew" in await chat.ok("/tournament withdraw", as_=PLAYER)


async def test_the_player_list_shows_each_start_mms_highest_first(chat: FakeChat) -> None:
    await _entered(chat, ["Varga Gábor", "Nagy Péter", "Kiss Béla"])
    text = (await chat.ok("/tournament players")).text
    rows = [line.split() for line in text.splitlines()[3:]]
    # bar 1d: 3d starts as 1d (30); floor 20k: 25k starts as 20k (10)
    assert [(r[0], r[-1]) for r in rows] == [("Nagy", "30"), ("Kiss", "18"), ("Varga", "10")]


async def test_pair_swap_publish(chat: FakeChat) -> None:
    await _entered(chat)
    draft = await chat.ok("/tournament pair")
    assert "round 1: draft" in draft and "Not published yet" in draft
    boards = _boards(draft.text)
    assert len(boards) == 3
    a, b = boards[0][0], boards[1][1]
    swapped = await chat.ok(f'/tournament swap "{a}" "{b}"')
    moved = _boards(swapped.text)
    assert {moved[0][0], moved[0][1]} == {b, boards[0][1]}
    published = await chat.ok("/tournament publish")
    assert _boards(published.text) == moved
    assert "What is at stake" in published and "If Black wins:" in published
    assert "no draft to publish" in (await chat.refused("/tournament publish")).text


async def test_a_swap_sets_the_stones_of_the_new_boards_by_the_policy(chat: FakeChat) -> None:
    await _entered(chat, ["Nagy Péter", "Kovács Anna", "Kiss Béla", "Horváth Zsófia"])
    boards = _boards((await chat.ok("/tournament pair")).text)
    assert sorted(boards) == sorted(
        [("Kovács Anna", "Nagy Péter"), ("Horváth Zsófia", "Kiss Béla")]
    )
    text = (await chat.ok("/tournament swap Kovács Anna Horváth Zsófia")).text
    stones = {
        (cells[1], cells[2]): cells[3]
        for line in text.splitlines()
        if len(cells := [c.strip() for c in line.split("  ") if c.strip()]) == 5
        and cells[0].isdigit()
    }
    # 20k against 3d: 22 ranks minus 2, at most 9; 12k against 1k: 11 minus 2
    assert stones == {("Horváth Zsófia", "Nagy Péter"): "9", ("Kiss Béla", "Kovács Anna"): "9"}


async def test_a_result_is_the_game_of_its_board_and_each_player_is_told(
    chat: FakeChat,
) -> None:
    posted: list[Notice] = []

    async def deliver(notice: Notice) -> None:
        posted.append(notice)

    chat.core.deliver = deliver
    await chat.link("Nagy Péter", PLAYER)
    await _entered(chat)
    await chat.ok("/tournament pair")
    published = await chat.ok("/tournament publish")
    assert "1 player was told their board privately." in published
    (notice,) = posted
    assert notice.accounts == ((PLAYER_CALLER.platform, PLAYER_CALLER.account),)
    assert "you play" in notice.reply.as_text()
    black, white = next(b for b in _boards(published.text) if "Nagy Péter" in b)
    recorded = await chat.ok(f'/result "{black}" "{white}" B+')
    assert "Autumn Cup, round 1, board 1: rated when the tournament is finalised." in recorded
    (game,) = await chat.games()
    assert (game.game.tournament, game.game.round) is not None
    assert game.game.round == 1
    reversed_ = await chat.refused(f'/tournament result 1 "{white}" "{black}" W+')
    assert f"{black} has Black" in reversed_.text
    missing = await chat.ok("/tournament missing remind")
    assert "2 boards without a result" in missing and "4 players were reminded." not in missing
    assert "Round 2 of Autumn Cup is not published yet" in (
        await chat.refused(f'/tournament result 2 "{black}" "{white}" B+')
    )


PLAYER_CALLER = Caller("telegram", "300", "Player Pál")


async def test_pairing_again_is_refused_once_a_result_is_in(chat: FakeChat) -> None:
    await _entered(chat)
    await chat.ok("/tournament pair")
    await chat.ok("/tournament publish")
    assert "round 1: draft" in await chat.ok("/tournament pair again")
    black, white = _boards((await chat.ok("/tournament publish")).text)[0]
    await chat.ok(f'/result "{black}" "{white}" W+')
    assert "1 result already" in (await chat.refused("/tournament pair again")).text


async def test_finalising_with_boards_missing_asks_first(chat: FakeChat) -> None:
    await _entered(chat)
    await chat.ok("/tournament pair")
    await chat.ok("/tournament publish")
    asked = await chat.ok("/tournament finalise")
    assert "Autumn Cup is not finished" in asked
    assert "3 rounds are not published yet." in asked and "3 boards have no result" in asked
    assert [b.command for b in asked.reply.buttons] == ["/tournament finalise #1 confirm"]
    assert "Autumn Cup is rated" in await chat.ok("/tournament finalise #1 confirm")
    assert "reopen it first" in (await chat.refused("/tournament pair #1")).text


async def test_an_ordinary_tournament_is_not_paired_here(chat: FakeChat) -> None:
    await chat.ok("/tournament new Club League rounds=3")
    assert "is not run from the chat" in (await chat.refused("/tournament pair")).text


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
async def test_any_run_of_rounds_keeps_the_pairing_rules_and_exports(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    """A model run: players enter, some late, some withdraw; each round is paired, published
    and given random results (some left missing). After every round: nobody sits twice in a
    round, nobody has two byes while someone present has none, the standings answer, and the
    h9 export reads back with every entrant and each recorded game."""
    chat = await FakeChat.open(tmp_path_factory.mktemp("run"), "gor", players=PLAYERS)
    try:
        first = data.draw(st.integers(3, 6))
        await chat.ok(NEW)
        await chat.ok("/tournament add " + ", ".join(NAMES[:first]))
        late = NAMES[first:]
        byes: dict[str, int] = {}
        recorded = 0
        for _round in range(1, 5):
            if late and data.draw(st.booleans()):
                await chat.ok(f"/tournament add {late.pop(0)}")
            draft = await chat.say("/tournament pair")
            if draft.error:  # fewer than two players left
                assert "at least two players" in draft
                break
            published = await chat.ok("/tournament publish")
            boards = _boards(published.text)
            seated = [name for board in boards for name in board]
            assert len(seated) == len(set(seated))
            bye = next(
                (line.split(": ", 1)[1].split(" (")[0] for line in published.text.splitlines()
                 if line.startswith("Bye: ")),
                None,
            )  # fmt: skip
            if bye is not None:
                assert bye not in seated
                byes[bye] = byes.get(bye, 0) + 1
                assert byes[bye] == 1 or all(byes.get(n, 0) for n in seated)
            for black, white in boards:
                outcome = data.draw(st.sampled_from(["B+", "W+", "jigo", None]))
                if outcome is not None:
                    await chat.ok(f'/result "{black}" "{white}" {outcome} again')
                    recorded += 1
            assert not (await chat.say("/tournament standings")).error
            if data.draw(st.booleans()):
                leaving = data.draw(st.sampled_from(seated or [bye]))
                await chat.ok(f'/tournament withdraw "{leaving}"')
        export = await chat.ok("/export h9 Autumn Cup")
        document = export.reply.document
        assert document is not None
        tf = parse_h9(document.data)
        row = await storage.tournament_by_number(chat.db, chat.club, 1)
        assert row is not None
        entered = await storage.entries(chat.db, chat.club, row.id)
        assert len(tf.players) == len(entered)
        assert len(tf.games) == recorded
    finally:
        await chat.close()


async def test_an_sgf_of_two_players_with_a_board_is_that_boards_game(chat: FakeChat) -> None:
    await _entered(chat)
    await chat.ok("/tournament pair")
    black, white = _boards((await chat.ok("/tournament publish")).text)[0]
    sgf = (
        f"(;GM[1]FF[4]CA[UTF-8]SZ[19]KM[6.5]PB[{black}]PW[{white}]RE[W+R]DT[2026-04-20]"
        ";B[pd];W[dp])"
    ).encode()
    preview = await chat.ok("/result", attachment=sgf, attachment_name="game.sgf")
    assert "It is the game of Autumn Cup, round 1, board 1." in preview
    (button,) = preview.reply.buttons
    recorded = await chat.ok(button.command)
    assert "Autumn Cup, round 1, board 1: rated when the tournament is finalised." in recorded
    (game,) = await chat.games()
    assert game.game.round == 1 and game.game.margin == "R"
