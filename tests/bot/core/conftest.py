"""Fixtures for the command-core tests: a :class:`FakeChat` on a real database."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.core.fakechat import FakeChat


@pytest.fixture
async def chat(tmp_path: Path) -> AsyncIterator[FakeChat]:
    """An MGSZ club bound to a chat; tests may ``/club system`` it elsewhere."""
    fake = await FakeChat.open(tmp_path)
    try:
        yield fake
    finally:
        await fake.close()


def make_chat(system: str, language: str = "en"):  # type: ignore[no-untyped-def]
    """A fixture for a club under ``system`` speaking ``language`` (English unless told)."""

    @pytest.fixture
    async def fixture(tmp_path: Path) -> AsyncIterator[FakeChat]:
        fake = await FakeChat.open(tmp_path, system, language=language)
        try:
            yield fake
        finally:
            await fake.close()

    return fixture
