"""Exactly once (issue 6/6, item 3): Telegram delivers updates at least once.

A redelivered update (the same ``update_id``) — while the bot runs, and after a restart, when
the in-memory duplicate filter is empty — changes nothing the second time; so does a
double-pressed Confirm button. The update's key is stored with its first change
(storage.deliveries), so even two copies racing each other change the club once. A scheduled
job re-run (after a crash, in a new process) is a no-op.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import storage
from bot.config import Config
from bot.core.app import Core
from bot.core.invocation import Caller, Invocation
from bot.core.replies import Notice
from bot.core.scheduler import Scheduler
from storage import deliveries
from tests.fakes import telegram as ft
from tests.reliability.conftest import (
    ADMIN,
    GROUP,
    Clock,
    Telegram,
    make_club,
    open_core,
    table_rows,
    telegram_on,
    texts,
)
from tests.reliability.crashing import RedeliveringBotApi

PLAYERS = ("Nagy Péter", "Kovács Anna", "Szabó Éva", "Tóth Ádám")
PETER = ft.user(202, "Péter", "Nagy")
ANNA = ft.user(303, "Anna", "Kovács")


async def arranged(tmp_path: Path, clock: Clock, *, reports: bool = False) -> Path:
    path = tmp_path / "hoshi.sqlite"
    db = await storage.open_db(path, clock=clock)
    try:
        club = await make_club(db, players=PLAYERS)
        for user, name in ((PETER, "Nagy Péter"), (ANNA, "Kovács Anna")):
            player = (await storage.find_player(db, club, name)).player
            assert player is not None
            await storage.link_account(
                db, club, player.id, "telegram", str(user["id"]), actor="telegram:101"
            )
        if reports:
            await storage.set_setting(db, club, "reports", "on", actor="telegram:101")
    finally:
        await db.close()
    return path


async def games(core: Core) -> list[storage.GameRow]:
    club = await storage.club_for_chat(core.db, "telegram", str(GROUP["id"]))
    assert club is not None
    return await storage.club_games(core.db, club)


async def test_a_redelivered_result_is_recorded_once(tmp_path: Path) -> None:
    clock = Clock()
    core = await open_core(await arranged(tmp_path, clock), clock)
    try:
        async with ft.FakeBotApi() as api, telegram_on(core, api) as bot:
            api.admins[GROUP["id"]] = {ADMIN["id"]}
            update = api.message("/result Nagy Péter Kovács Anna B+", GROUP, ADMIN)
            await bot.processed(update)
            assert len(await games(core)) == 1
            before = await table_rows(core.db)
            calls = await bot.again(update)
            assert texts(calls) == []  # dropped silently: the running bot remembers it
            assert await table_rows(core.db) == before
    finally:
        await core.db.close()


async def test_a_result_redelivered_after_a_restart_changes_nothing(tmp_path: Path) -> None:
    clock = Clock()
    path = await arranged(tmp_path, clock)
    async with ft.FakeBotApi() as api:
        api.admins[GROUP["id"]] = {ADMIN["id"]}
        core = await open_core(path, clock)
        try:
            async with telegram_on(core, api) as bot:
                update = api.message("/result Nagy Péter Kovács Anna B+", GROUP, ADMIN)
                await bot.processed(update)
                (recorded,) = texts(api.sent("sendMessage"))
                assert "Game #" in recorded
        finally:
            await core.db.close()
        # a new process: a new core, a new adapter, an empty in-memory duplicate filter
        core = await open_core(path, clock)
        try:
            before = await table_rows(core.db)
            async with telegram_on(core, api) as bot:
                calls = await bot.again(update)
            assert await table_rows(core.db) == before
            assert len(await games(core)) == 1
            (note,) = texts(calls)
            assert "already handled this message" in note
            quoted = next(c for c in calls if c.method == "sendMessage")
            assert (
                quoted.params["reply_parameters"]["message_id"]
                == (update["message"]["message_id"])
            )
        finally:
            await core.db.close()


async def press_data(api: ft.FakeBotApi, label: str) -> tuple[str, dict[str, Any]]:
    """The callback data of the button ``label`` on the bot's last message, and the message."""
    call = next(c for c in reversed(api.sent("sendMessage")) if c.params.get("reply_markup"))
    rows = call.params["reply_markup"]["inline_keyboard"]
    data = next(b["callback_data"] for row in rows for b in row if b["text"] == label)
    message = {
        "message_id": 777,
        "date": 0,
        "chat": GROUP,
        "from": {"id": ft.BOT_ID, "is_bot": True, "first_name": "hoshi"},
        "text": call.params["text"],
    }
    return data, message


async def test_a_double_pressed_confirm_button_confirms_once(tmp_path: Path) -> None:
    clock = Clock()
    core = await open_core(await arranged(tmp_path, clock, reports=True), clock)
    try:
        async with ft.FakeBotApi() as api, telegram_on(core, api) as bot:
            calls = await bot.say("/result Nagy Péter Kovács Anna B+", PETER)
            assert "waits for Kovács Anna" in texts(calls)[0]
            data, message = await press_data(api, "Confirm")
            first = api.press(data, message, ANNA)
            second = api.press(data, message, ANNA)  # pressed twice before the first answer
            await bot.processed(first)
            await bot.processed(second)
            (game,) = await games(core)
            assert game.status == "ok"
            answers = api.sent("answerCallbackQuery")
            assert len(answers) == 2
            assert "not waiting for a confirmation" in answers[1].params["text"]
            edits = api.sent("editMessageText")
            assert len(edits) == 1 and "is confirmed" in edits[0].params["text"]
            club = await storage.club_for_chat(core.db, "telegram", str(GROUP["id"]))
            assert club is not None
            confirms = await core.db.fetchall(
                "SELECT COUNT(*) FROM events WHERE club = ? AND kind = 'confirm'", (club.id,)
            )
            assert confirms == [(1,)]
    finally:
        await core.db.close()


async def test_a_press_redelivered_after_a_restart_is_only_acknowledged(tmp_path: Path) -> None:
    clock = Clock()
    path = await arranged(tmp_path, clock, reports=True)
    async with ft.FakeBotApi() as api:
        core = await open_core(path, clock)
        try:
            async with telegram_on(core, api) as bot:
                await bot.say("/result Nagy Péter Kovács Anna B+", PETER)
                data, message = await press_data(api, "Confirm")
                press = api.press(data, message, ANNA)
                await bot.processed(press)
        finally:
            await core.db.close()
        core = await open_core(path, clock)
        try:
            before = await table_rows(core.db)
            async with telegram_on(core, api) as bot:
                calls = await bot.again(press)
            assert await table_rows(core.db) == before
            (answer,) = [c for c in calls if c.method == "answerCallbackQuery"]
            assert answer.params.get("text") == "Already done."
            assert not [c for c in calls if c.method in ("editMessageText", "sendMessage")]
        finally:
            await core.db.close()


def invocation(line: str, key: str | None) -> Invocation:
    name, _, rest = line.lstrip("/").partition(" ")
    caller = Caller("telegram", str(ADMIN["id"]), "Anna Admin", chat_admin=True)
    return Invocation(name, rest, caller, str(GROUP["id"]), delivery=key)


async def test_two_copies_racing_change_the_club_once(tmp_path: Path) -> None:
    """Two copies of one update handled at the same time (two webhook retries, or two
    processes): the later transaction finds the key and rolls back."""
    clock = Clock()
    core = await open_core(await arranged(tmp_path, clock), clock)
    try:
        inv = invocation("/result Nagy Péter Kovács Anna B+", "telegram:1:5000")
        first, second = await asyncio.gather(core.handle(inv), core.handle(inv))
        assert len(await games(core)) == 1
        assert sorted([first.error, second.error]) == [False, True]
        refused = first if first.error else second
        assert "already handled" in refused.as_text()
    finally:
        await core.db.close()


async def test_a_refused_command_records_no_key(tmp_path: Path) -> None:
    """Nothing changed, nothing recorded: the same update may be handled again."""
    clock = Clock()
    core = await open_core(await arranged(tmp_path, clock), clock)
    try:
        refused = await core.handle(invocation("/result Nagy Péter Nobody B+", "telegram:1:1"))
        assert refused.error
        shown = await core.handle(invocation("/rating Nagy Péter", "telegram:1:2"))
        assert not shown.error
        assert not await deliveries.seen(core.db, "telegram:1:1")
        assert not await deliveries.seen(core.db, "telegram:1:2")  # a read records nothing
        ok = await core.handle(invocation("/result Nagy Péter Kovács Anna B+", "telegram:1:3"))
        assert not ok.error and await deliveries.seen(core.db, "telegram:1:3")
    finally:
        await core.db.close()


async def test_delivery_keys_are_pruned_after_a_week(tmp_path: Path) -> None:
    clock = Clock()
    core = await open_core(await arranged(tmp_path, clock), clock)
    try:
        await core.handle(invocation("/result Nagy Péter Kovács Anna B+", "telegram:1:1"))
        clock.advance(days=8)
        await core.handle(invocation("/result Szabó Éva Tóth Ádám B+", "telegram:1:2"))
        assert not await deliveries.seen(core.db, "telegram:1:1")
        assert await deliveries.seen(core.db, "telegram:1:2")
    finally:
        await core.db.close()


async def test_scheduled_work_run_again_in_a_new_process_is_a_no_op(tmp_path: Path) -> None:
    """Everything due ran once; a restarted bot (a new core and scheduler on the same file)
    finds it done: no change to the database, nothing posted twice."""
    clock = Clock()
    path = await arranged(tmp_path, clock)
    core = await open_core(path, clock)
    posted: list[Notice] = []

    async def deliver(notice: Notice) -> None:
        posted.append(notice)

    try:
        club = await storage.club_for_chat(core.db, "telegram", str(GROUP["id"]))
        assert club is not None
        for line in (
            "/result Nagy Péter Kovács Anna B+",
            "/result Szabó Éva Tóth Ádám W+",
            "/weekly on tue 18:00",
            "/tournament new Spring Cup rounds=1",
            "/tournament result 1 Nagy Péter Szabó Éva B+",
            "/tournament schedule Spring Cup 2026-03-10 20:00",
        ):
            reply = await core.handle(invocation(line, None))
            assert not reply.error, (line, reply.as_text())
        clock.advance(days=1)  # past midnight, the schedule, and Tuesday 18:00
        done = await Scheduler(core, deliver, timers=False).run_due()
        assert any("finalised Spring Cup" in d for d in done), done
        assert any("day Mar 10, 2026 settled" in d for d in done), done
        assert any("weekly summary" in d for d in done), done
    finally:
        await core.db.close()
    first_posts = len(posted)
    core = await open_core(path, clock)
    try:
        # the club's other rulebooks (shadows) write their rows when first asked, whoever
        # asks: asked here first, so that what is compared is the run's own doing
        for each in await storage.clubs(core.db):
            await storage.every_system(core.db, each)
        before = await table_rows(core.db)
        assert await Scheduler(core, deliver, timers=False).run_due() == []
        assert await table_rows(core.db) == before
        assert len(posted) == first_posts
    finally:
        await core.db.close()


class GatedCore(Core):
    """A core that holds every command naming Kovács until the test opens the gate."""

    gate: asyncio.Event

    async def handle(self, inv: Invocation) -> Any:
        if "Kovács" in inv.text:
            await self.gate.wait()
        return await super().handle(inv)


async def test_an_update_is_confirmed_to_telegram_only_once_handled(tmp_path: Path) -> None:
    """Until a command is handled Telegram keeps its update (a crash now would get it again);
    meanwhile other chats are answered; once handled, it is confirmed."""
    clock = Clock()
    path = await arranged(tmp_path, clock)
    db = await storage.open_db(path, clock=clock)
    core = GatedCore(db, Config(db_path=path), clock=clock)
    core.gate = asyncio.Event()
    other = ft.private(ft.user(404, "Olga"))
    try:
        async with RedeliveringBotApi() as api, telegram_on(core, api) as bot:
            await checks_with_the_gate_closed(core, api, bot, other)
    finally:
        await db.close()


async def checks_with_the_gate_closed(
    core: GatedCore, api: RedeliveringBotApi, bot: Telegram, other: dict[str, Any]
) -> None:
    try:
        api.admins[GROUP["id"]] = {ADMIN["id"]}
        slow = api.message("/result Nagy Péter Kovács Anna B+", GROUP, ADMIN)
        while slow["update_id"] not in api.handed:
            await asyncio.sleep(0.01)
        calls = await bot.say("/help", ft.user(404, "Olga"), other)
        assert texts(calls)  # another chat is answered meanwhile …
        polls = api.polls
        while api.polls < polls + 2:  # … and Telegram is asked again, twice …
            await asyncio.sleep(0.01)
        assert api.pending() >= 1  # … without confirming the update being handled
        assert await games(core) == []
        core.gate.set()
        await bot.processed(slow)
        while api.pending():  # handled: confirmed with the next request
            await asyncio.sleep(0.01)
        assert len(await games(core)) == 1
    finally:
        core.gate.set()  # a failing check must not leave the bot stuck on stopping


async def test_a_double_pressed_confirm_button_on_discord_confirms_once(tmp_path: Path) -> None:
    from tests.bot.adapters.conftest import discord_running
    from tests.fakes import discord as fd

    clock = Clock()
    path = tmp_path / "hoshi.sqlite"
    db = await storage.open_db(path, clock=clock)
    try:
        club = await make_club(
            db, chats=(("discord", str(fd.GUILD_ID)),), players=("Nagy Péter", "Kovács Anna")
        )
        await storage.set_setting(db, club, "reports", "on", actor="discord:1")
        peter, anna = [p.id for p in await storage.players(db, club)]
        await storage.link_account(db, club, peter, "discord", "202", actor="discord:1")
        await storage.link_account(db, club, anna, "discord", "303", actor="discord:1")
    finally:
        await db.close()
    core = await open_core(path, clock)
    try:
        async with discord_running(core) as bot:
            reporter = fd.member(202, "Péter", fd.MEMBER_PERMISSIONS)
            opponent = fd.member(303, "Anna", fd.MEMBER_PERMISSIONS)
            values = {"black": "Nagy Péter", "white": "Kovács Anna", "result": "B+"}
            (report,) = await bot.slash("result", reporter, **values)
            rows = report.data["components"]
            confirm = next(
                b["custom_id"]
                for row in rows
                for b in row["components"]
                if b["label"] == "Confirm"
            )
            first = await bot.press(confirm, opponent)
            before = await table_rows(core.db)
            (second,) = await bot.press(confirm, opponent)
            assert "is confirmed" in str(first[0].body)
            assert second.data["flags"] & 64  # told privately …
            assert "not waiting for a confirmation" in second.data["content"]
            assert await table_rows(core.db) == before  # … and nothing changed
            (game,) = await games_of_club(core, "discord", str(fd.GUILD_ID))
            assert game.status == "ok"
    finally:
        await core.db.close()


async def games_of_club(core: Core, platform: str, chat: str) -> list[storage.GameRow]:
    club = await storage.club_for_chat(core.db, platform, chat)
    assert club is not None
    return await storage.club_games(core.db, club)
