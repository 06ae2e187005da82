"""storage.game_files: SGF files kept in the log, named by the game recorded from them."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from engine.types import Result
from storage import Club, Database, Refused, new_game, record_game, undo_last, void_game
from storage.game_files import (
    MAX_FILE_BYTES,
    file_of_game,
    games_with_files,
    keep_file,
    kept_file,
)
from tests.storage.conftest import player

SGF = b"(;GM[1]FF[4]SZ[19]PB[Nagy]PW[Kovacs]RE[B+R])"
DAY = dt.date(2026, 4, 20)


async def _game(db: Database, club: Club, sgf: int | None, actor: str = "console") -> int:
    black = await player(db, club, "Nagy Péter")
    white = await player(db, club, "Kovács Anna", "7k")
    game = new_game(black.id, white.id, Result.BLACK, stones=0, komi=Fraction(13, 2), date=DAY)
    done = await record_game(db, club, game, actor=actor, sgf=sgf)
    return done.row.id


async def test_a_kept_file_reads_back_and_names_its_game(db: Database, club: Club) -> None:
    kept = await keep_file(db, club, "game.sgf", SGF, actor="console", chat="t:1")
    assert await kept_file(db, club, kept.seq) == kept
    assert (kept.name, kept.data) == ("game.sgf", SGF)
    game = await _game(db, club, kept.seq)
    assert await games_with_files(db, club, [game]) == {game}
    assert await file_of_game(db, club, game) == kept


async def test_a_game_without_a_file_has_none(db: Database, club: Club) -> None:
    game = await _game(db, club, None)
    assert await games_with_files(db, club, [game]) == set()
    assert await file_of_game(db, club, game) is None


async def test_a_file_of_another_club_is_refused_and_nothing_is_written(
    db: Database, club: Club
) -> None:
    from storage import create_club

    other = await create_club(db, "Other", system="plus", actor="console")
    kept = await keep_file(db, other, "game.sgf", SGF, actor="console", chat=None)
    assert await kept_file(db, club, kept.seq) is None
    with pytest.raises(Refused):
        await _game(db, club, kept.seq)
    rows = await db.fetchall("SELECT seq FROM games")
    assert rows == []


@pytest.mark.parametrize("data", [b"", b"x" * (MAX_FILE_BYTES + 1)], ids=["empty", "too-big"])
async def test_empty_or_huge_files_are_refused(db: Database, club: Club, data: bytes) -> None:
    with pytest.raises(Refused):
        await keep_file(db, club, "game.sgf", data, actor="console", chat=None)
    assert await db.fetchall("SELECT seq FROM game_files") == []


async def test_undo_and_void_keep_the_file_but_no_longer_offer_it(
    db: Database, club: Club
) -> None:
    kept = await keep_file(db, club, "a.sgf", SGF, actor="console", chat=None)
    undone = await _game(db, club, kept.seq)
    await undo_last(db, club, actor="console")
    assert await file_of_game(db, club, undone) is None
    again = await keep_file(db, club, "b.sgf", SGF, actor="console", chat=None)
    black, white = (await db.fetchall("SELECT black, white FROM games"))[0]
    game = new_game(black, white, Result.WHITE, stones=0, komi=Fraction(13, 2), date=DAY)
    voided = (await record_game(db, club, game, actor="console", sgf=again.seq)).row.id
    await void_game(db, club, voided, actor="console")
    assert await file_of_game(db, club, voided) is None
    assert await kept_file(db, club, again.seq) == again  # still in the log


async def test_kept_files_are_append_only(db: Database, club: Club) -> None:
    kept = await keep_file(db, club, "a.sgf", SGF, actor="console", chat=None)
    with pytest.raises(Exception, match="append-only"):
        async with db.transaction() as tx:
            await tx.execute("DELETE FROM game_files WHERE seq = ?", (kept.seq,))
    assert await kept_file(db, club, kept.seq) == kept
