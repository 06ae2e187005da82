"""A club with its pages on the web, and a client of the web server (aiohttp's own test
server on 127.0.0.1: real HTTP, no network)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.web.app import web_app
from tests.bot.core.fakechat import FakeChat

FIRST_HOUR = """\
/register Nagy Péter 5k
/register Kovács Anna 2d 2090
/register Szabó Éva 3k 1830
/register Tóth Bence 1d 2000
/result Nagy Péter Kovács Anna B+ h=4 time=60m
/result Szabó Éva Tóth Bence W+R time=60m date=2026-04-10
/result Tóth Bence Nagy Péter B+ time=60m date=2026-04-12
/tournament new Spring Cup start=2026-03-10 end=2026-03-11 rounds=2 time=60m
/tournament result 1 Tóth Bence Szabó Éva B+
/tournament result 1 Nagy Péter Kovács Anna W+
/tournament result 2 Tóth Bence Kovács Anna W+
/tournament result 2 Szabó Éva Nagy Péter B+
/tournament finalise
"""


async def club_with_games(tmp_path: Path, system: str = "mgsz", web: bool = True) -> FakeChat:
    """A club's first hour (four players, games, a finalised tournament), pages on."""
    chat = await FakeChat.open(tmp_path, system)
    for line in FIRST_HOUR.splitlines():
        await chat.ok(line)
    if web:
        await chat.ok("/club web on")
    return chat


@pytest.fixture
async def chat(tmp_path: Path) -> AsyncIterator[FakeChat]:
    fake = await club_with_games(tmp_path)
    try:
        yield fake
    finally:
        await fake.close()


@pytest.fixture
async def client(chat: FakeChat) -> AsyncIterator[TestClient]:  # type: ignore[type-arg]
    async with TestClient(TestServer(web_app(chat.db), host="127.0.0.1")) as web:
        yield web


CHAT_RUN = """\
/register Huber Anna 3d 2300
/register Gruber Max 1d 2100
/register Bauer Felix 1k 2000
/register Schmid Eva 3k 1800
/register Weber Paul 5k
/register Neumann Lara 8k
/tournament new Autumn League rounds=3 pairing=mcmahon bar=1d handicap=rank-2 order=sos
/tournament add Huber Anna, Gruber Max, Bauer Felix, Schmid Eva, Weber Paul
/tournament pair
/tournament publish
"""


async def chat_run_club(tmp_path: Path) -> FakeChat:
    """The first hour's club (the Spring Cup typed in) and a tournament run from the chat,
    #2: five players paired by McMahon (a bye in round 1, both boards' results recorded),
    Neumann Lara entering late for round 2, whose board 1 is recorded and the others wait;
    then Weber Paul withdraws. The boards' players come from the published pairing, so the
    results are recorded on the boards as the chat records them (``/result BLACK WHITE``)."""
    from fractions import Fraction

    import storage
    from bot.core import reads

    chat = await club_with_games(tmp_path)
    for line in CHAT_RUN.splitlines():
        await chat.ok(line)

    async def boards(number: int) -> reads.RoundBoards:
        row = await storage.tournament_by_number(chat.db, chat.club, 2)
        assert row is not None
        run = await reads.tournament_rounds(chat.db, chat.club, row, komi=Fraction(13, 2))
        assert run is not None
        return run.rounds[number - 1]

    for board in (await boards(1)).boards:
        await chat.ok(
            f"/result {await _name(chat, board.black)} {await _name(chat, board.white)} B+"
        )
    await chat.ok("/tournament add Neumann Lara")
    await chat.ok("/tournament pair")
    await chat.ok("/tournament publish")
    first = (await boards(2)).boards[0]
    await chat.ok(f"/result {await _name(chat, first.black)} {await _name(chat, first.white)} W+R")
    await chat.ok("/tournament withdraw Weber Paul")
    return chat


async def _name(chat: FakeChat, pid: int) -> str:
    import storage

    player = await storage.get_player(chat.db, chat.club, pid)
    assert player is not None
    return player.name
