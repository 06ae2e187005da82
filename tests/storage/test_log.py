"""storage.log: one global sequence, who/when/where on every entry, append-only tables."""

from __future__ import annotations

import sqlite3
from fractions import Fraction

import asyncpg
import pytest

from engine.types import Result, Tournament
from storage import (
    Club,
    Database,
    add_alias,
    bind_chat,
    correct_game,
    create_tournament,
    link_account,
    log,
    new_game,
    record_game,
    unlink_accounts,
    void_game,
)
from storage.game_files import keep_file
from tests.storage.conftest import DAY, LOG_TABLES, ORGANISER, START, game, player


@pytest.fixture
async def busy(db: Database, club: Club) -> Club:
    """A club with a row in every log table."""
    a, b = await player(db, club, "Nagy Péter"), await player(db, club, "Kovács Anna")
    await add_alias(db, club, a, "Peti", actor=ORGANISER)
    await link_account(db, club, a, "telegram", 5, actor=ORGANISER)
    await link_account(db, club, a, "telegram", 6, actor=ORGANISER)
    await unlink_accounts(db, club, a, [("telegram", "6")], actor=ORGANISER)
    await bind_chat(db, club, "telegram", -1, actor=ORGANISER)
    cup = await create_tournament(db, club, Tournament(0, "Cup", DAY, DAY, 1), actor=ORGANISER)
    await game(db, club, a, b, tournament=cup.id, round=1)
    row = await game(db, club, a, b)
    await void_game(db, club, row.id, actor=ORGANISER)
    kept = await keep_file(db, club, "game.sgf", b"(;GM[1]SZ[19])", actor=ORGANISER, chat=None)
    played = new_game(a.id, b.id, Result.WHITE, stones=0, komi=Fraction(13, 2), date=DAY)
    await record_game(db, club, played, actor=ORGANISER, sgf=kept.seq)  # a row in game_sgf
    return club


LINK_TABLES = ("game_sgf",)
"""Log tables whose rows name another entry (a game and its file), not an entry of their own."""


@pytest.mark.parametrize("table", LOG_TABLES)
async def test_log_tables_refuse_updates_and_deletes(db: Database, busy: Club, table: str) -> None:
    assert await db.fetchone(f"SELECT COUNT(*) FROM {table}") != (0,)
    for statement in (f"UPDATE {table} SET seq = seq", f"DELETE FROM {table}"):
        with pytest.raises(
            (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)
        ) as refused:
            async with db.transaction() as tx:
                await tx.execute(statement)
        assert str(refused.value) == f"{table} is append-only"  # the same on both backends


async def test_one_sequence_orders_every_table(db: Database, busy: Club) -> None:
    seqs = [seq for (seq,) in await db.fetchall("SELECT seq FROM log ORDER BY seq")]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # one process: no gaps
    typed = []
    for table in (t for t in LOG_TABLES[1:] if t not in LINK_TABLES):
        typed += [seq for (seq,) in await db.fetchall(f"SELECT seq FROM {table}")]
    assert sorted(typed) == seqs  # every entry has exactly one typed row


async def test_every_entry_says_who_when_and_where(db: Database, club: Club) -> None:
    a = await player(db, club, "Nagy Péter", chat="telegram:-1", actor="telegram:7")
    entry = await log.log_entry(db, a.id)
    assert entry is not None
    assert (entry.kind, entry.actor, entry.chat, entry.at, entry.club) == (
        "player",
        "telegram:7",
        "telegram:-1",
        START,
        club.id,
    )
    assert await log.log_entry(db, 9999) is None


async def test_an_actor_is_required(db: Database, club: Club) -> None:
    with pytest.raises(ValueError, match="needs an actor"):
        await player(db, club, "Nagy Péter", actor="")


async def test_originals_survive_voids_and_corrections(db: Database, club: Club) -> None:
    a, b = await player(db, club, "Nagy Péter"), await player(db, club, "Kovács Anna")
    rows = [await game(db, club, a, b) for _ in range(3)]
    before = {t: await db.fetchall(f"SELECT * FROM {t} ORDER BY seq") for t in LOG_TABLES}
    await void_game(db, club, rows[0].id, actor=ORGANISER)
    await correct_game(db, club, rows[1].id, actor=ORGANISER, result=Result.WHITE)
    for table, old in before.items():
        now = await db.fetchall(f"SELECT * FROM {table} ORDER BY seq")
        assert now[: len(old)] == old
    events = await log.events(db, club.id, [log.VOID, log.CORRECT])
    assert [(e.kind, e.target) for e in events] == [("void", rows[0].id), ("correct", rows[1].id)]
    assert events[1].payload == {"changes": {"result": "W+"}}
    (only,) = await log.events(db, club.id, [log.CORRECT], target=rows[1].id)
    assert only.entry.actor == ORGANISER
