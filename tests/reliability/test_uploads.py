"""Uploaded files (issue 6/6, item 5): size-limited, and parsed without executing anything.

Telegram refuses a file declared too big before downloading it, and one whose size was not
declared (or lied about) after downloading it; Discord refuses by the attachment's size. An
XML file's entities are never expanded (defusedxml refuses "billion laughs" and external
entities), and text that looks like code in a table is stored as the text it is.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import storage
from bot.adapters.console import Console
from bot.adapters.telegram import adapter as telegram_adapter
from bot.core.app import Core
from tests.bot.adapters.conftest import discord_running
from tests.fakes import discord as fd
from tests.fakes import telegram as ft
from tests.reliability.conftest import (
    ADMIN,
    GROUP,
    Clock,
    make_club,
    open_core,
    table_rows,
    telegram_on,
    texts,
)
from tests.reliability.strategies import BILLION_LAUGHS, EXTERNAL_ENTITY

DATA = Path(__file__).resolve().parents[1] / "engine" / "formats" / "data"


async def core_for(tmp_path: Path, platform: str = "telegram", chat: str = "-1001") -> Core:
    clock = Clock()
    path = tmp_path / "hoshi.sqlite"
    db = await storage.open_db(path, clock=clock)
    try:
        await make_club(db, chats=((platform, chat),), players=("Nagy Péter", "Kovács Anna"))
    finally:
        await db.close()
    return await open_core(path, clock)


async def test_telegram_refuses_a_file_declared_too_big_without_downloading_it(
    tmp_path: Path,
) -> None:
    core = await core_for(tmp_path)
    try:
        async with ft.FakeBotApi() as api, telegram_on(core, api) as bot:
            api.admins[GROUP["id"]] = {ADMIN["id"]}
            before = await table_rows(core.db)
            update = api.message("/tournament import", GROUP, ADMIN, document=("a.h9", b"x"))
            update["message"]["document"]["file_size"] = 6_000_000  # what Telegram says
            await bot.processed(update)
            (answer,) = texts(api.sent("sendMessage"))
            assert "a.h9 is 6,000,000 bytes; a results table must be under 5,000,000" in answer
            assert api.sent("getFile") == []  # never fetched
            assert await table_rows(core.db) == before
    finally:
        await core.db.close()


async def test_telegram_measures_a_file_whose_size_was_not_declared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(telegram_adapter, "MAX_ATTACHMENT_BYTES", 1000)
    core = await core_for(tmp_path)
    try:
        async with ft.FakeBotApi() as api, telegram_on(core, api) as bot:
            api.admins[GROUP["id"]] = {ADMIN["id"]}
            before = await table_rows(core.db)
            update = api.message(
                "/tournament import", GROUP, ADMIN, document=("big.h9", b"; " * 1500)
            )
            del update["message"]["document"]["file_size"]  # optional in the Bot API
            await bot.processed(update)
            (answer,) = texts(api.sent("sendMessage"))
            assert "big.h9 is 3,000 bytes; a results table must be under 1,000" in answer
            assert await table_rows(core.db) == before
    finally:
        await core.db.close()


async def test_discord_refuses_an_attachment_too_big(tmp_path: Path) -> None:
    core = await core_for(tmp_path, "discord", str(fd.GUILD_ID))
    try:
        async with discord_running(core) as bot:
            before = await table_rows(core.db)
            attachment = bot.fake.attachment("huge.h9", b"; x\n")
            attachment["size"] = 6_000_000
            manager = fd.member(101, "Anna", fd.MANAGE_GUILD | fd.MEMBER_PERMISSIONS)
            (call,) = await bot.slash(
                "tournament",
                manager,
                resolved={"attachments": {attachment["id"]: attachment}},
                action="import",
                file=attachment["id"],
            )
            assert "huge.h9 is 6,000,000 bytes" in call.data["content"]
            assert call.data["flags"] & 64
            assert await table_rows(core.db) == before
    finally:
        await core.db.close()


# --- parsed, never run ---------------------------------------------------------------------


def invocation(text: str, data: bytes, name: str) -> Any:
    from bot.core.invocation import Caller, Invocation

    caller = Caller("telegram", "101", "Anna", chat_admin=True)
    return Invocation("tournament", text, caller, "-1001", attachment=data, attachment_name=name)


@pytest.mark.parametrize(
    ("data", "name"),
    [
        pytest.param(BILLION_LAUGHS, "cup.xml", id="billion-laughs"),
        pytest.param(EXTERNAL_ENTITY, "cup.xml", id="external-entity"),
        pytest.param(
            (DATA / "kis_kupa.xml")
            .read_bytes()
            .replace(b"?>", b'?>\n<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/hostname">]>', 1),
            "cup.xml",
            id="entity-in-a-real-file",
        ),
    ],
)
async def test_xml_entities_are_refused_not_expanded(
    tmp_path: Path, data: bytes, name: str
) -> None:
    core = await core_for(tmp_path)
    try:
        before = await table_rows(core.db)
        reply = await core.handle(invocation("import", data, name))
        text = reply.as_text()
        assert reply.error and "Something went wrong" not in text
        assert "lollol" not in text  # nothing expanded
        if os.path.exists("/etc/hostname"):
            host = Path("/etc/hostname").read_text().strip()
            assert not host or host not in text
        assert await table_rows(core.db) == before
    finally:
        await core.db.close()


CODE = (
    "__import__('os').system('touch PWNED')",
    "$(touch PWNED)",
    "`touch PWNED`",
    "{{7*7}}",
    "${jndi:ldap://x/a}",
    "'); DROP TABLE games; --",
)


async def test_code_in_a_table_is_stored_as_the_text_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    lines = ["; EV[Code Cup]", "; DT[2026-03-01,2026-03-01]", "; HA[h9]", "; KM[6.5]"]
    for i, code in enumerate(CODE, start=1):
        opponent, token = (i + 1, "+/b0") if i % 2 else (i - 1, "-/w0")
        # h9 writes spaces in a name as underscores
        lines.append(f"{i:4} {code.replace(' ', '_')} X  10k HU Bp  {opponent}{token}")
    data = ("\n".join(lines) + "\n").encode()
    core = await core_for(tmp_path)
    try:
        reply = await core.handle(invocation("import C=20", data, "cup.h9"))
        assert not reply.error, reply.as_text()
        club = (await storage.clubs(core.db))[0]
        names = {p.name for p in await storage.players(core.db, club)}
        for code in CODE:  # as written (h9's underscores read back as spaces)
            assert " ".join(code.replace("_", " ").split()) + " X" in names, names
        assert not (tmp_path / "PWNED").exists()
        assert await core.db.fetchone("SELECT COUNT(*) FROM games") is not None
    finally:
        await core.db.close()


async def test_a_name_never_steers_where_the_console_writes(tmp_path: Path) -> None:
    core = await core_for(tmp_path, "console", "club-1")
    try:
        club = (await storage.clubs(core.db))[0]
        console = Console(core, club, open(os.devnull, "w"), tmp_path / "charts")  # noqa: SIM115
        await console.run_line('/register "../../../../tmp/evil" 10k')
        await console.run_line('/chart "../../../../tmp/evil"')
        await console.run_line("/export csv")
        written = list((tmp_path / "charts").iterdir())
        assert len(written) == 2
        assert all(p.parent == tmp_path / "charts" for p in written)
        console.out.close()
    finally:
        await core.db.close()
