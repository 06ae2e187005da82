"""Results from SGF files: /result with an .sgf attached, the Record button, /sgf game=N."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from fractions import Fraction
from pathlib import Path

import pytest

from engine.types import Result
from storage.game_files import file_of_game
from tests.bot.core.fakechat import FakeChat

DATA = Path(__file__).parents[2] / "engine" / "formats" / "data" / "sgf"

# file: result, margin, stones, komi, date, board (what each file says; SOURCES.md)
EXPECTED = {
    "fox-resign.sgf": (Result.BLACK, "R", 0, Fraction(0), dt.date(2020, 7, 25), 19),
    "igs-handicap.sgf": (Result.WHITE, "34.5", 2, Fraction(1, 2), dt.date(2020, 4, 10), 19),
    "jigo.sgf": (Result.JIGO, None, 0, Fraction(7), dt.date(2026, 3, 14), 9),
    "kgs-cgoban-handicap-resign.sgf": (
        Result.BLACK,
        "R",
        6,
        Fraction(1, 2),
        dt.date(2005, 4, 5),
        19,
    ),
    "kgs-timeout.sgf": (Result.BLACK, "T", 0, Fraction(1, 2), dt.date(2004, 8, 5), 19),
    "latin1.sgf": (Result.WHITE, "2.5", 0, Fraction(13, 2), dt.date(2024, 3, 1), 19),
    "ogs.sgf": (None, None, 0, Fraction(13, 2), dt.date(2020, 3, 31), 19),
}
BROKEN = {
    "broken-collection.sgf": "holds 2 games",
    "broken-garbage.sgf": "not an SGF game record",
    "broken-no-players.sgf": "no black player",
    "broken-not-go.sgf": "another game",
    "broken-truncated.sgf": "cut short",
}


@pytest.fixture
async def club(tmp_path: Path) -> AsyncIterator[FakeChat]:
    chat = await FakeChat.open(
        tmp_path,
        players=("Nagy Péter 5k", "Tóth Ádám 3k 1850", "Kovács Anna 5k", "Szabó Béla 4k 1750"),
    )
    try:
        yield chat
    finally:
        await chat.close()


def _sgf(name: str) -> bytes:
    return (DATA / name).read_bytes()


@pytest.mark.parametrize("name", sorted(EXPECTED))
async def test_every_sgf_records_the_right_game(club: FakeChat, name: str) -> None:
    shown = await club.ok(
        '/result black="Nagy Péter" white="Tóth Ádám"',
        attachment=_sgf(name),
        attachment_name=name,
    )
    assert "Record this game?" in shown and not await club.games()
    (button,) = shown.reply.buttons
    done = await club.ok(button.command)
    assert "recorded" in done
    (row,) = await club.games()
    black, white = await club.player("Nagy Péter"), await club.player("Tóth Ádám")
    result, margin, stones, komi, date, board = EXPECTED[name]
    game = row.game
    assert (game.black, game.white) == (black.id, white.id)
    assert (game.result, game.margin, game.stones, game.komi) == (result, margin, stones, komi)
    assert (game.date, game.board) == (date, board)
    kept = await file_of_game(club.db, club.club, row.id)
    assert kept is not None and kept.data == _sgf(name) and kept.name == name


async def test_names_are_matched_and_an_unknown_one_asked_for(club: FakeChat) -> None:
    shown = await club.ok("/result", attachment=_sgf("jigo.sgf"), attachment_name="jigo.sgf")
    assert "Black: Kovács Anna" in shown and "White: Szabó Béla" in shown
    asked = await club.refused(
        "/result", attachment=_sgf("latin1.sgf"), attachment_name="latin1.sgf"
    )
    assert "Jörg Müller" in asked and "black=NAME" in asked


@pytest.mark.parametrize("name", sorted(BROKEN))
async def test_broken_files_are_refused_with_the_reason(club: FakeChat, name: str) -> None:
    said = await club.refused(
        '/result black="Nagy Péter" white="Tóth Ádám"', attachment=_sgf(name)
    )
    assert "cannot be read" in said and BROKEN[name] in said


async def test_the_kept_file_is_downloadable_until_the_game_is_voided(club: FakeChat) -> None:
    shown = await club.ok("/result", attachment=_sgf("jigo.sgf"), attachment_name='x"y.sgf')
    await club.ok(shown.reply.buttons[0].command)
    (row,) = await club.games()
    sent = await club.ok(f"/sgf game={row.number}", as_="player")
    assert sent.reply.document is not None
    assert sent.reply.document.data == _sgf("jigo.sgf")
    assert sent.reply.document.filename == f"game-{row.number}.sgf"
    await club.ok(f"/void {row.number}")
    assert (await club.say(f"/sgf game={row.number}")).error


async def test_the_record_button_asks_before_recording_a_game_twice(club: FakeChat) -> None:
    shown = await club.ok("/result", attachment=_sgf("jigo.sgf"))
    await club.ok(shown.reply.buttons[0].command)
    again = await club.ok("/result", attachment=_sgf("jigo.sgf"))
    asked = await club.ok(again.reply.buttons[0].command)
    assert "Already recorded?" in asked and len(await club.games()) == 1
    await club.ok(asked.reply.buttons[-1].command)
    assert len(await club.games()) == 2
