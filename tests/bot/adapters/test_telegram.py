"""The Telegram adapter end to end: the real PTB ``Application`` polling a fake Bot API.

Every test feeds updates to the fake server and asserts on the Bot API calls the bot made —
PTB's own encoding, parsing and dispatch run for real (tests/fakes/telegram.py).
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
from html import unescape
from pathlib import Path
from typing import Any

import aiohttp
import pytest

import storage
from bot.adapters.telegram.menu import parse_command
from bot.adapters.telegram.rendering import MESSAGE_LIMIT, render_html, visible_length
from bot.adapters.telegram.updates import RecentIds
from bot.core.command_table import public_commands
from bot.core.commands import ORGANISER
from bot.core.replies import Reply, Table, Text
from engine.ranks import Rank
from storage.db import Database
from storage.game_files import file_of_game
from tests.bot.adapters.conftest import (
    ADMIN,
    GROUP,
    NOW,
    OTHER,
    PLAYER,
    TelegramBot,
    log_size,
)
from tests.fakes import telegram as ft

DATA = Path(__file__).resolve().parents[2] / "engine" / "formats" / "data"
H9 = DATA / "kis_kupa.h9"  # Latin-1, as many pairing programs write it
H9_UTF8 = DATA / "formats_example.h9"


def texts(calls: list[ft.Call], method: str = "sendMessage") -> list[str]:
    return [c.params["text"] for c in calls if c.method == method]


def plain(html: str) -> str:
    """What a Telegram user reads: tags dropped, entities decoded."""
    return unescape(re.sub(r"</?(b|i|pre|code)>", "", html))


async def new_club(bot: TelegramBot, name: str = "Test Club") -> None:
    """An MGSZ club that speaks English (a new MGSZ club speaks Hungarian)."""
    calls = await bot.say(f"/club new {name} mgsz", GROUP, ADMIN)
    assert "Létrejött a klub" in plain(texts(calls)[0]), texts(calls)  # in its language
    calls = await bot.say("/club set language en", GROUP, ADMIN)
    assert "language is now en" in plain(texts(calls)[0]), texts(calls)


async def register(bot: TelegramBot, *lines: str) -> None:
    for line in lines:
        calls = await bot.say(f"/register {line}", GROUP, ADMIN)
        assert texts(calls) and "Registered" in plain(texts(calls)[0]), texts(calls)


# --- the command menu ----------------------------------------------------------------------


async def test_set_my_commands_lists_every_public_command(telegram: TelegramBot) -> None:
    calls = [c for c in telegram.api.sent("setMyCommands") if "language_code" not in c.params]
    by_scope = {c.params["scope"]["type"]: c.params["commands"] for c in calls}
    assert len(calls) == len(by_scope) == 3  # the default (English) menus, once per scope
    public = [c.name for c in public_commands()]
    players = [c.name for c in public_commands() if c.access != ORGANISER]
    assert [c["command"] for c in by_scope["all_chat_administrators"]] == public
    assert [c["command"] for c in by_scope["all_private_chats"]] == public
    assert [c["command"] for c in by_scope["default"]] == players
    for entry in by_scope["all_chat_administrators"]:
        assert 1 <= len(entry["description"]) <= 256


# --- commands ------------------------------------------------------------------------------


async def test_a_command_is_answered_in_html_as_a_reply(telegram: TelegramBot) -> None:
    update = telegram.api.command("/help", GROUP, PLAYER)
    await telegram.processed(update)
    (call,) = telegram.api.sent("sendMessage")
    assert call.params["chat_id"] == GROUP["id"]
    assert call.params["parse_mode"] == "HTML"
    assert call.params["reply_parameters"]["message_id"] == update["message"]["message_id"]
    assert call.params["text"].startswith("<b>hoshi — go club ratings</b>")
    assert "/rating" in call.params["text"]


async def test_user_text_is_escaped(telegram: TelegramBot) -> None:
    await new_club(telegram, "Kis & <Nagy> Club")
    (text,) = texts(await telegram.say("/club show", GROUP, PLAYER))
    assert "Kis &amp; &lt;Nagy&gt; Club" in text
    assert "<Nagy>" not in text


async def test_the_bot_name_suffix_is_understood_and_other_bots_ignored(
    telegram: TelegramBot,
) -> None:
    calls = await telegram.say(f"/help@{ft.BOT_USERNAME}", GROUP, PLAYER)
    assert len(texts(calls)) == 1
    calls = await telegram.say("/help@some_other_bot", GROUP, PLAYER)
    assert texts(calls) == []


async def test_an_unknown_command_gets_a_suggestion(telegram: TelegramBot) -> None:
    (text,) = texts(await telegram.say("/ratin Kovács", GROUP, PLAYER))
    assert "There is no command /ratin" in text
    assert "/rating" in text


async def test_an_unbound_chat_is_told_how_to_start(telegram: TelegramBot) -> None:
    (text,) = texts(await telegram.say("/rating Kovács", GROUP, PLAYER))
    assert "/club new" in plain(text)


async def test_register_result_rating(telegram: TelegramBot, db: Database) -> None:
    await new_club(telegram)
    await register(telegram, "Nagy Péter 5k", "Kovács Anna 6k")
    (text,) = texts(await telegram.say("/result Nagy Péter Kovács Anna B+", GROUP, ADMIN))
    assert "Nagy Péter" in plain(text)
    (card,) = texts(await telegram.say("/rating nagy peter", GROUP, PLAYER))
    assert card.startswith("<b>Nagy Péter — ")
    assert "pending club games: 1" in plain(card)  # MGSZ rates club games per period


# --- permissions ---------------------------------------------------------------------------


def organiser_examples() -> list[tuple[str, str]]:
    """Every organiser command of the table with its first example (or its bare name)."""
    return [
        (c.name, c.examples[0] if c.examples else f"/{c.name}")
        for c in public_commands()
        if c.access == ORGANISER
    ]


def test_the_table_has_organiser_commands() -> None:
    assert organiser_examples(), "no organiser command in the table to test refusals with"


@pytest.mark.parametrize(("name", "example"), organiser_examples(), ids=lambda v: v)
async def test_a_non_admin_is_refused_every_organiser_command(
    telegram: TelegramBot, db: Database, name: str, example: str
) -> None:
    await new_club(telegram)
    await register(telegram, "Nagy Péter 5k", "Kovács Anna 6k")
    before = await log_size(db)
    (text,) = texts(await telegram.say(example, GROUP, PLAYER))
    assert f"/{name} is for the organisers" in plain(text)
    assert await log_size(db) == before


async def test_chat_administrators_are_cached(telegram: TelegramBot) -> None:
    await new_club(telegram)
    await telegram.say("/register Nagy Péter 5k", GROUP, ADMIN)
    await telegram.say("/register Kovács Anna 6k", GROUP, ADMIN)
    assert len(telegram.api.sent("getChatAdministrators")) == 1
    telegram.clock.now += 301  # past admin_cache_s (300 by default)
    await telegram.say("/register Tóth Ádám 7k", GROUP, ADMIN)
    assert len(telegram.api.sent("getChatAdministrators")) == 2


async def test_private_chats_need_no_admin_lookup(telegram: TelegramBot) -> None:
    calls = await telegram.say("/club new Home Club mgsz", ft.private(PLAYER), PLAYER)
    assert "Létrejött a klub" in texts(calls)[0]  # no language_code: the club's
    assert telegram.api.sent("getChatAdministrators") == []


# --- pastes and files ----------------------------------------------------------------------


async def test_a_results_table_attached_as_a_file(telegram: TelegramBot, db: Database) -> None:
    await new_club(telegram)
    data = H9.read_bytes()
    calls = await telegram.say(
        "/tournament import committee", GROUP, ADMIN, document=("kis_kupa.h9", data)
    )
    assert [c.method for c in calls if c.method in ("getFile", "sendMessage")] == [
        "getFile",
        "sendMessage",
    ]
    assert "Kis Kupa" in plain(texts(calls)[0]), texts(calls)
    club = await storage.club_for_chat(db, "telegram", str(GROUP["id"]))
    assert club is not None
    assert len(await storage.tournaments(db, club)) == 1


async def test_a_command_replying_to_a_posted_file_reads_it(telegram: TelegramBot) -> None:
    await new_club(telegram)
    posted = telegram.api.message("here are the results", GROUP, ADMIN)
    await telegram.processed(posted)
    document_message = dict(posted["message"])
    document_message["document"] = telegram.api.upload("kis_kupa.h9", H9.read_bytes())
    calls = await telegram.say(
        "/tournament import committee", GROUP, ADMIN, reply_to=document_message
    )
    assert telegram.api.sent("getFile")
    assert "Kis Kupa" in plain(texts(calls)[0]), texts(calls)


async def test_a_results_table_pasted_below_the_command(
    telegram: TelegramBot, db: Database
) -> None:
    await new_club(telegram)
    text = "/tournament import committee\n" + H9_UTF8.read_text(encoding="utf-8")
    calls = await telegram.say(text, GROUP, ADMIN)
    assert telegram.api.sent("getFile") == []
    assert "Budapest Spring Cup 2026" in plain(texts(calls)[0]), texts(calls)
    club = await storage.club_for_chat(db, "telegram", str(GROUP["id"]))
    assert club is not None
    assert len(await storage.tournaments(db, club)) == 1


# --- buttons -------------------------------------------------------------------------------


async def test_a_button_runs_its_command_as_the_presser(
    telegram: TelegramBot, db: Database
) -> None:
    await new_club(telegram)
    await register(telegram, "Nagy Péter 5k")
    # a member links themselves: the bot asks an organiser to confirm, with a button
    calls = await telegram.say("/link Nagy Péter", GROUP, PLAYER)
    (question,) = [c for c in calls if c.method == "sendMessage"]
    (row,) = question.params["reply_markup"]["inline_keyboard"]
    data = row[0]["callback_data"]
    assert len(data.encode()) <= 64
    message = {
        "message_id": 77,
        "date": 0,
        "chat": GROUP,
        "text": plain(question.params["text"]),
        "from": {"id": ft.BOT_ID, "is_bot": True, "first_name": "hoshi"},
    }
    before = await log_size(db)
    # another member cannot confirm the claim: refused in an alert, nothing changes
    calls = await telegram.press(data, message, OTHER)
    (alert,) = [c for c in calls if c.method == "answerCallbackQuery"]
    assert alert.params["show_alert"] is True
    assert "organiser" in alert.params["text"]
    assert not [c for c in calls if c.method in ("sendMessage", "editMessageText")]
    assert await log_size(db) == before
    # an administrator can: the question is replaced by the answer
    calls = await telegram.press(data, message, ADMIN)
    assert [c.method for c in calls if c.method != "getChatAdministrators"] == [
        "answerCallbackQuery",
        "editMessageText",
    ]
    edit = calls[-1]
    assert edit.params["message_id"] == 77
    assert "now linked" in plain(edit.params["text"])
    club = await storage.club_for_chat(db, "telegram", str(GROUP["id"]))
    assert club is not None
    linked = await storage.player_for_account(db, club, "telegram", str(PLAYER["id"]))
    assert linked is not None and linked.name == "Nagy Péter"


async def test_a_long_button_command_travels_by_key(telegram: TelegramBot) -> None:
    command = "/help " + "x" * 100
    data = telegram.adapter.buttons.encode(command)
    assert len(data.encode()) <= 64
    assert telegram.adapter.buttons.decode(data) == command


async def test_an_expired_button_is_answered(telegram: TelegramBot) -> None:
    message = {"message_id": 5, "date": 0, "chat": GROUP, "text": "old"}
    calls = await telegram.press("k:no-such-key", message, PLAYER)
    (answer,) = calls
    assert answer.method == "answerCallbackQuery"
    assert "no longer active" in answer.params["text"]


# --- duplicates ----------------------------------------------------------------------------


async def test_a_duplicate_update_runs_once(telegram: TelegramBot, db: Database) -> None:
    await new_club(telegram)
    before = len(telegram.api.sent("sendMessage"))
    update = telegram.api.command("/register Nagy Péter 5k", GROUP, ADMIN)
    telegram.api.push(json.loads(json.dumps(update)))  # the same update_id again
    after = telegram.api.command("/help", GROUP, PLAYER)
    await telegram.processed(update)
    await telegram.processed(after)
    assert len(telegram.api.sent("sendMessage")) == before + 2  # register once, help once
    club = await storage.club_for_chat(db, "telegram", str(GROUP["id"]))
    assert club is not None
    assert [p.name for p in await storage.players(db, club)] == ["Nagy Péter"]


def test_recent_ids_forget_the_oldest() -> None:
    seen = RecentIds(size=3)
    assert [seen.add(i) for i in (1, 2, 1, 3, 4)] == [True, True, False, True, True]
    assert seen.add(1) is True  # forgotten after 3 newer ids
    assert seen.add(4) is False


# --- long replies, pictures, private replies -----------------------------------------------


async def test_a_long_reply_is_split(telegram: TelegramBot, db: Database) -> None:
    await new_club(telegram)
    club = await storage.club_for_chat(db, "telegram", str(GROUP["id"]))
    assert club is not None
    for i in range(150):
        await storage.register_player(
            db, club, f"Player Number {i:03d} Longname", Rank.kyu(10), date=NOW.date(), actor="t"
        )
    calls = await telegram.say("/top 150", GROUP, PLAYER)
    sent = texts(calls)
    assert len(sent) >= 2
    assert all(visible_length(plain(t)) <= MESSAGE_LIMIT for t in sent)
    joined = "\n".join(plain(t) for t in sent)
    assert all(f"Player Number {i:03d} Longname" in joined for i in range(150))
    assert all(t.count("<pre>") == t.count("</pre>") for t in sent)
    first, *rest = [c for c in calls if c.method == "sendMessage"]
    assert "reply_parameters" in first.params
    assert all("reply_parameters" not in c.params for c in rest)


async def test_a_picture_is_sent_as_a_photo(telegram: TelegramBot) -> None:
    await new_club(telegram)
    await register(telegram, "Nagy Péter 5k", "Kovács Anna 6k")
    await telegram.say("/result Nagy Péter Kovács Anna B+", GROUP, ADMIN)
    calls = await telegram.say("/chart Nagy Péter", GROUP, PLAYER)
    (photo,) = [c for c in calls if c.method == "sendPhoto"]
    name, data = photo.files["photo"]
    assert name.endswith(".png")
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert "Nagy Péter" in photo.params["caption"]


async def test_a_private_reply_goes_to_the_private_chat(telegram: TelegramBot) -> None:
    await new_club(telegram)
    calls = await telegram.say("/club code", GROUP, ADMIN)
    sent = [c for c in calls if c.method == "sendMessage"]
    assert [c.params["chat_id"] for c in sent] == [ADMIN["id"], GROUP["id"]]
    assert "Join code" in sent[0].params["text"]
    assert "private message" in sent[1].params["text"]
    assert "Join code" not in sent[1].params["text"]


async def test_a_private_reply_never_falls_back_to_the_group(telegram: TelegramBot) -> None:
    await new_club(telegram)
    telegram.api.unreachable.add(ADMIN["id"])
    calls = await telegram.say("/club code", GROUP, ADMIN)
    delivered = [
        c.params["text"]
        for c in calls
        if c.method == "sendMessage" and c.params["chat_id"] == GROUP["id"]
    ]
    assert len(delivered) == 1
    assert "press Start" in delivered[0]
    assert "Join code" not in delivered[0]


# --- errors --------------------------------------------------------------------------------


async def test_a_failed_send_is_reported_and_the_bot_carries_on(
    telegram: TelegramBot, caplog: pytest.LogCaptureFixture
) -> None:
    telegram.api.fail_next["sendMessage"] = 1
    calls = await telegram.say("/help", GROUP, PLAYER)
    sent = texts(calls)
    assert len(sent) == 2  # the failed answer, then the incident report
    assert re.search(r"Something went wrong \(ref [0-9a-f]{6}\)", sent[1])
    assert any("incident" in r.getMessage() for r in caplog.records)
    assert len(texts(await telegram.say("/help", GROUP, PLAYER))) == 1


# --- webhook mode --------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_webhook_mode_and_a_retried_delivery(telegram_factory: Any) -> None:
    port = free_port()
    url = "https://bot.example.org/hoshi-hook"
    async with telegram_factory(webhook_url=url, webhook_port=port) as bot:
        (hook,) = bot.api.sent("setWebhook")
        assert hook.params["url"] == url
        secret = hook.params["secret_token"]
        update = {
            "update_id": 4242,
            "message": {
                "message_id": 1,
                "date": 0,
                "chat": GROUP,
                "from": PLAYER,
                "text": "/help",
                "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
            },
        }
        headers = {"X-Telegram-Bot-Api-Secret-Token": secret}
        later = {**update, "update_id": 4243}
        async with aiohttp.ClientSession() as http:
            target = f"http://127.0.0.1:{port}/hoshi-hook"
            for body in (update, update, later):  # Telegram retries a delivery it thought lost
                async with http.post(target, json=body, headers=headers) as response:
                    assert response.status == 200
            async with http.post(target, json=update, headers={}) as response:
                assert response.status == 403  # no secret, no entry
        # a secret header of bytes that are not UTF-8 is a wrong secret too (issue 26), not a 500
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        body = json.dumps(update).encode()
        writer.write(
            b"POST /hoshi-hook HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"X-Telegram-Bot-Api-Secret-Token: \xff\xfe" + secret.encode() + b"\r\n"
            b"Content-Type: application/json\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body
        )
        await writer.drain()
        status_line = await reader.readline()
        writer.close()
        assert status_line.split()[1] == b"403", status_line
        await bot.processed(later)  # one chat's updates are handled in order
        assert len(bot.api.sent("sendMessage")) == 2  # the retry did not run again


# --- rendering (unit) ----------------------------------------------------------------------


def test_render_html_titles_tables_and_escaping() -> None:
    reply = Reply(
        blocks=(
            Text("A & B", title=True),
            Text("x < y"),
            Table(("Name", "Elo"), (("Kis <K>", "1500"),), "lr"),
        )
    )
    (html,) = render_html(reply)
    assert html == "<b>A &amp; B</b>\n\nx &lt; y\n\n<pre>Name      Elo\nKis &lt;K&gt;  1500</pre>"


def test_render_html_splits_at_the_limit_and_keeps_pre_balanced() -> None:
    rows = tuple((f"player {i}", str(i)) for i in range(400))
    reply = Reply(blocks=(Text("Top", title=True), Table(("Name", "N"), rows)))
    messages = render_html(reply, limit=1000)
    assert len(messages) > 3
    for html in messages:
        assert visible_length(plain(html)) <= 1000
        assert html.count("<pre>") == html.count("</pre>")


def test_render_html_counts_astral_characters_twice() -> None:
    reply = Reply(blocks=(Text("🀄" * 600),))
    messages = render_html(reply, limit=1000)
    assert all(visible_length(m) <= 1000 for m in messages)
    assert "".join(messages) == "🀄" * 600


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/rating Nagy Péter", ("rating", "Nagy Péter")),
        ("/Rating", ("rating", "")),
        (f"/top@{ft.BOT_USERNAME} 5", ("top", "5")),
        ("/top@other_bot 5", None),
        ("/tournament import\n; EV[Cup]\n", ("tournament", "import\n; EV[Cup]")),
        ("hello /rating", None),
        ("/rating-x", None),
    ],
    ids=["name", "case", "own-bot", "other-bot", "paste", "not-first", "bad-name"],
)
def test_parse_command(text: str, expected: tuple[str, str] | None) -> None:
    assert parse_command(text, ft.BOT_USERNAME) == expected


# --- working state, files, edits -----------------------------------------------------------


async def test_a_slow_command_shows_typing(
    telegram: TelegramBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.adapters.telegram.adapter.TYPING_AFTER_S", 0.01)
    core = telegram.adapter.core
    answer = core.handle

    async def slow(inv: Any) -> Any:  # finishes only once the chat saw "typing…"
        await telegram.api.wait_for("sendChatAction")
        return await answer(inv)

    monkeypatch.setattr(core, "handle", slow)
    calls = await telegram.say("/help", ft.private(PLAYER), PLAYER)
    assert [c.method for c in calls] == ["sendChatAction", "sendMessage"]
    assert calls[0].params["action"] == "typing"
    assert calls[0].params["chat_id"] == PLAYER["id"]


async def test_a_file_reply_is_sent_as_a_document(telegram: TelegramBot) -> None:
    await new_club(telegram)
    await register(telegram, "Nagy Péter 5k")
    calls = await telegram.say("/export csv", GROUP, ADMIN)
    (document,) = [c for c in calls if c.method == "sendDocument"]
    name, data = document.files["document"]
    assert name.endswith(".csv")
    assert "Nagy Péter" in data.decode("utf-8")


async def test_an_edited_command_does_not_run_again(telegram: TelegramBot) -> None:
    update = telegram.api.command("/help", GROUP, PLAYER)
    await telegram.processed(update)
    edited = telegram.api.push({"edited_message": {**update["message"], "edit_date": 1}})
    await telegram.processed(edited)
    assert len(telegram.api.sent("sendMessage")) == 1


# --- results from SGF files (issue 4/5, item 5) --------------------------------------------

SGF = "(;GM[1]FF[4]SZ[19]KM[6.5]PB[Nagy Péter]PW[Kovács Anna]DT[2026-03-01]RE[B+R])".encode()


async def _record_from_preview(telegram: TelegramBot, db: Database, calls: list[ft.Call]) -> None:
    """The preview the calls hold, its Record button pressed: the game is recorded with its
    file kept."""
    (preview,) = [c for c in calls if c.method == "sendMessage"]
    assert "Record this game?" in plain(preview.params["text"]), preview.params["text"]
    assert "Black: Nagy Péter" in plain(preview.params["text"])
    (row,) = preview.params["reply_markup"]["inline_keyboard"]
    message = {"message_id": 78, "date": 0, "chat": GROUP, "text": "Record this game?"}
    message["from"] = {"id": ft.BOT_ID, "is_bot": True, "first_name": "hoshi"}
    done = await telegram.press(row[0]["callback_data"], message, ADMIN)
    assert any("recorded" in plain(c.params.get("text", "")) for c in done), done
    club = await storage.club_for_chat(db, "telegram", str(GROUP["id"]))
    assert club is not None
    (game,) = await storage.club_games(db, club)
    kept = await file_of_game(db, club, game.id)
    assert kept is not None and kept.data == SGF and kept.name == "game.sgf"


async def test_an_sgf_sent_with_result_as_its_caption_is_shown_and_recorded(
    telegram: TelegramBot, db: Database
) -> None:
    await new_club(telegram)
    await register(telegram, "Nagy Péter 5k", "Kovács Anna 2d 2090")
    calls = await telegram.say("/result", GROUP, ADMIN, document=("game.sgf", SGF))
    assert telegram.api.sent("getFile")
    await _record_from_preview(telegram, db, calls)


async def test_result_answering_a_posted_sgf_reads_it(telegram: TelegramBot, db: Database) -> None:
    await new_club(telegram)
    await register(telegram, "Nagy Péter 5k", "Kovács Anna 2d 2090")
    posted = telegram.api.message("our game", GROUP, PLAYER)
    await telegram.processed(posted)
    document_message = dict(posted["message"])
    document_message["document"] = telegram.api.upload("game.sgf", SGF)
    calls = await telegram.say("/result", GROUP, ADMIN, reply_to=document_message)
    await _record_from_preview(telegram, db, calls)


async def test_a_chats_backlog_never_holds_another_chats_update() -> None:
    """Issue 26: 80 /ratings in one group took every one of PTB's concurrent slots, each
    waiting for its chat's turn, and a /help in a private chat waited 96 s. An update waiting
    for its chat's turn now holds no slot; one chat's updates still run one at a time, in
    arrival order."""
    import datetime as dt

    from telegram import Chat, Message, Update

    from bot.adapters.telegram.processor import PerChatUpdates

    processor = PerChatUpdates(max_concurrent_updates=2)
    release = asyncio.Event()
    started: list[str] = []

    async def work(name: str) -> None:
        started.append(name)
        if name.startswith("busy"):
            await release.wait()

    def update(n: int, chat: int) -> Update:
        return Update(n, message=Message(n, dt.datetime.now(dt.UTC), Chat(chat, "group")))

    busy = [
        asyncio.create_task(processor.process_update(update(n, -100), work(f"busy {n}")))
        for n in range(10)
    ]
    for _ in range(5):
        await asyncio.sleep(0)  # the busy group's updates queue up
    other = asyncio.create_task(processor.process_update(update(99, 7), work("other")))
    await asyncio.wait_for(other, 5)  # answered while the busy group's first still runs
    assert started == ["busy 0", "other"]
    release.set()
    await asyncio.gather(*busy)
    assert started == ["busy 0", "other", *(f"busy {n}" for n in range(1, 10))]
