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
/register Szabó Éva 3k
/register Tóth Bence 1d
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
