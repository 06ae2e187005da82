"""The core's dispatcher: unknown commands, unbound chats, and the one central error handler."""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import storage
from bot.core.app import sentence, unbound
from bot.core.command_table import COMMANDS
from bot.core.commands import CONSOLE, command, spec_of
from bot.core.context import Context
from bot.core.errors import BadArgument, NotPermitted
from bot.core.invocation import Caller
from bot.core.replies import Reply
from engine.errors import RankError
from engine.text import Msg
from storage.errors import Refused
from tests.bot.core.conftest import make_chat
from tests.bot.core.fakechat import ADMIN, PLAYER, FakeChat

SECRET = "db password is hunter2 at /srv/secret"


@pytest.fixture
def fake_commands() -> Iterator[list[str]]:
    """Commands registered by a test for a test, removed afterwards."""
    names: list[str] = []
    yield names
    for name in names:
        COMMANDS.pop(name, None)


def register(names: list[str], name: str, handler, **options) -> None:  # type: ignore[no-untyped-def]
    names.append(name)
    command(name, usage=f"/{name} X", summary="A test command.", examples=(f"/{name} 1",),
            **options)(handler)  # fmt: skip
    COMMANDS[name] = spec_of(handler)  # the table is explicit: a test adds its own entry


# -- unknown commands --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "suggested"),
    [("ratin", "/rating"), ("histroy", "/history"), ("tournement", "/tournament"),
     ("hadicap", "/handicap"), ("Rating2", "/rating")],
)  # fmt: skip
async def test_an_unknown_command_gets_close_suggestions(
    chat: FakeChat, typed: str, suggested: str
) -> None:
    said = await chat.refused(f"/{typed} Nagy", as_=PLAYER)
    assert said.text.startswith(f"There is no command /{typed}. Did you mean ")
    assert suggested in said.text.split("Did you mean ")[1]
    assert said.text.endswith("/help lists them all.")


async def test_an_unknown_command_without_close_names_points_to_help(chat: FakeChat) -> None:
    said = await chat.refused("/xyzzy")
    assert said.text == "There is no command /xyzzy. /help lists them all."


async def test_a_console_command_elsewhere_is_not_suggested_as_itself(chat: FakeChat) -> None:
    """/tick exists only in the console: in a chat it is an unknown command, and the
    suggestions name only commands this chat has."""
    said = await chat.refused("/tick 1d")
    assert said.text == "There is no command /tick. /help lists them all."
    said = await chat.refused("/tic")
    assert "/tick" not in said.text


async def test_the_bot_name_is_dropped_from_an_unknown_command(chat: FakeChat) -> None:
    said = await chat.refused("/ratin@hoshi_bot Nagy")
    assert said.text.startswith("There is no command /ratin. Did you mean /rating?")


async def test_commands_work_with_the_bot_name_and_any_case(chat: FakeChat) -> None:
    await chat.register("Nagy Péter 5k")
    said = await chat.ok("/RATING@hoshi_bot nagy peter", as_=PLAYER)
    assert "Nagy Péter — 5k" in said.text


# -- unbound chats -----------------------------------------------------------------------------


@pytest.mark.parametrize("line", ["/rating Nagy", "/top", "/register Nagy Péter 5k", "/undo"])
async def test_a_chat_without_a_club_is_told_how_to_start_one(chat: FakeChat, line: str) -> None:
    said = await chat.refused(line, chat_id="-999")
    assert said.text == unbound()
    assert "/club new NAME" in said.text and "/club join CODE" in said.text


@pytest.mark.parametrize("line", ["/help", "/multiplier 45m even"])
async def test_club_free_commands_work_in_a_chat_without_a_club(chat: FakeChat, line: str) -> None:
    said = await chat.say(line, chat_id="-999", as_=PLAYER)
    assert not said.error


# -- the central error handler -----------------------------------------------------------------


async def test_an_unexpected_exception_shows_only_an_incident_reference(
    chat: FakeChat, fake_commands: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    async def crash(ctx: Context) -> Reply:
        raise RuntimeError(SECRET)

    register(fake_commands, "zz-crash", crash)
    before = await chat.snapshot()
    with caplog.at_level(logging.ERROR, logger="hoshi.core"):
        said = await chat.say("/zz-crash 1", as_=PLAYER)
    assert said.error
    match = re.fullmatch(
        r"Something went wrong \(ref ([0-9a-f]{6})\)\. Nothing was changed; an organiser can "
        r"report the reference to the bot's operator\.",
        said.text,
    )
    assert match, said.text
    assert "hunter2" not in said.text and "RuntimeError" not in said.text
    # the operator's log has the reference, the command and the traceback
    record = next(r for r in caplog.records if match.group(1) in r.getMessage())
    assert "/zz-crash" in record.getMessage() and "telegram:300" in record.getMessage()
    assert record.exc_info is not None and SECRET in str(record.exc_info[1])
    assert await chat.snapshot() == before


async def test_each_incident_gets_its_own_reference(
    chat: FakeChat, fake_commands: list[str]
) -> None:
    async def crash(ctx: Context) -> Reply:
        raise KeyError("player 17")

    register(fake_commands, "zz-crash2", crash)
    refs = {(await chat.say("/zz-crash2")).text.split("ref ")[1][:6] for _ in range(5)}
    assert len(refs) == 5


@pytest.mark.parametrize(
    ("error", "shown"),
    [
        (BadArgument("stones must be 0–9, not 12"), "Stones must be 0–9, not 12"),
        (RankError("'5q' is not a rank (e.g. 5k)"), "'5q' is not a rank (e.g. 5k)"),
        (Refused("the name is empty; write it like Nagy Péter"),
         "The name is empty; write it like Nagy Péter"),
    ],
    ids=["user", "engine", "storage"],
)  # fmt: skip
async def test_errors_safe_to_show_come_with_the_usage_line(
    chat: FakeChat, fake_commands: list[str], error: Exception, shown: str
) -> None:
    async def fail(ctx: Context) -> Reply:
        raise error

    register(fake_commands, "zz-fail", fail)
    said = await chat.say("/zz-fail")
    assert said.error
    assert said.text == f"{shown}\n\nUsage: /zz-fail X — e.g. /zz-fail 1"


async def test_a_user_error_may_leave_out_the_usage(
    chat: FakeChat, fake_commands: list[str]
) -> None:
    async def fail(ctx: Context) -> Reply:
        raise BadArgument("there is nothing of yours to undo", usage=False)

    register(fake_commands, "zz-nousage", fail)
    assert (await chat.say("/zz-nousage")).text == "There is nothing of yours to undo"


async def test_not_permitted_is_private_and_without_usage(
    chat: FakeChat, fake_commands: list[str]
) -> None:
    async def refuse(ctx: Context) -> Reply:
        raise NotPermitted("only an organiser can do that")

    register(fake_commands, "zz-refuse", refuse)
    said = await chat.say("/zz-refuse")
    assert said.error and said.reply.private
    assert said.text == "only an organiser can do that"


async def test_console_commands_are_invisible_elsewhere(
    chat: FakeChat, fake_commands: list[str]
) -> None:
    async def tick(ctx: Context) -> Reply:
        return Reply.text("tick")

    register(fake_commands, "zz-tick", tick, access=CONSOLE, needs_club=False)
    said = await chat.say("/zz-tick")
    assert said.error and said.text.startswith("There is no command /zz-tick.")
    console = Caller("console", "local", "console", chat_admin=True)
    assert (await chat.say("/zz-tick", as_=console)).text == "tick"


async def test_handlers_see_the_club_the_role_and_the_club_time(
    chat: FakeChat, fake_commands: list[str]
) -> None:
    seen: list[Context] = []

    async def spy(ctx: Context) -> Reply:
        seen.append(ctx)
        return Reply.text("ok")

    register(fake_commands, "zz-spy", spy)
    await chat.ok("/club timezone Asia/Tokyo")
    await chat.say("/zz-spy a b", as_=PLAYER)
    await chat.say("/zz-spy", as_=ADMIN)
    player, admin = seen
    assert player.club == chat.club and not player.organiser and admin.organiser
    assert player.actor == "telegram:300" and player.chat == "telegram:-1001"
    assert player.timezone.key == "Asia/Tokyo"
    assert player.now().utcoffset().total_seconds() == 9 * 3600  # type: ignore[union-attr]
    assert player.today().isoformat() == "2026-04-21"  # 18:00 UTC is 03:00 next day in Tokyo
    assert [t.text for t in player.args().words] == ["a", "b"]


@pytest.mark.parametrize(
    ("message", "shown"),
    [
        ("the name is missing", "The name is missing"),
        ("a player's name is missing", "A player's name is missing"),
        ("line 3: bad", "Line 3: bad"),
        ("country= takes a two-letter code", "country= takes a two-letter code"),
        ("telegram:999 is not an organiser", "telegram:999 is not an organiser"),
        ("h (handicap stones) must be 0–9", "h (handicap stones) must be 0–9"),
        ("'Mars' is not a time zone", "'Mars' is not a time zone"),
        ("/top takes one number", "/top takes one number"),
        ("N must be 1–200", "N must be 1–200"),
        ("", ""),
        ("érvénytelen név", "Érvénytelen név"),
        ("źle podana data", "Źle podana data"),
        ("ärendet saknas", "Ärendet saknas"),
        ("ez a sor túl hosszú", "Ez a sor túl hosszú"),
        ("名前がありません", "名前がありません"),
        ("'鈴木' という会員はいません", "'鈴木' という会員はいません"),
        ("nie ma w tym klubie turnieju", "Nie ma w tym klubie turnieju"),
    ],
)
def test_sentence_capitalises_only_ordinary_words(message: str, shown: str) -> None:
    assert sentence(message) == shown


async def test_handlers_write_through_the_updates_delivery_key(
    chat: FakeChat, fake_commands: list[str]
) -> None:
    """The key of a platform update reaches storage explicitly, as the context's database."""
    seen: list[Context] = []

    async def spy(ctx: Context) -> Reply:
        seen.append(ctx)
        return Reply.text("ok")

    register(fake_commands, "zz-spy", spy)
    keyed = dataclasses.replace(chat.invocation("/zz-spy"), delivery="telegram:1:42")
    await chat.core.handle(keyed)
    await chat.core.handle(chat.invocation("/zz-spy"))
    with_key, without = seen
    assert with_key.db.delivery is not None and with_key.db.delivery.key == "telegram:1:42"
    # each command has a handle of its own (Database.command): without a key, no delivery
    assert without.db.delivery is None and without.db.projections is chat.core.db.projections
    assert without.db.known is not None and chat.core.db.known is None


async def test_an_update_delivered_twice_changes_the_club_once(chat: FakeChat) -> None:
    await chat.register("Kiss Béla 5k", "Tóth Ádám 5k")
    line = "/result Kiss Béla Tóth Ádám B+ again"  # again: recorded even if it looks the same
    update = dataclasses.replace(chat.invocation(line), delivery="telegram:1:43")
    first = await chat.core.handle(update)
    assert not first.error, first.as_text()
    before = await chat.snapshot()
    again = await chat.core.handle(update)
    assert again.error and "already handled" in again.as_text()
    assert await chat.snapshot() == before


# -- the conversation's language (issue 13) ----------------------------------------------------


budapest = make_chat("mgsz", language="hu")  # an MGSZ club speaking Hungarian


async def test_a_hungarian_club_is_told_of_a_bad_option_and_the_usage_in_hungarian(
    budapest: FakeChat, fake_commands: list[str]
) -> None:
    async def read(ctx: Context) -> Reply:
        ctx.args()
        return Reply.text("ok")

    register(fake_commands, "zz-read", read)
    said = await budapest.refused("/zz-read from=2026-01-01")
    assert said.text == (
        "/zz-read: ennek a parancsnak nincsenek kulcs=érték opciói (from= sem)\n\n"
        "Használat: /zz-read X — például /zz-read 1"
    )


async def test_a_hungarian_club_refuses_a_player_an_organisers_command_in_hungarian(
    budapest: FakeChat,
) -> None:
    said = await budapest.refused("/register Nagy Péter 5k", as_=PLAYER)
    assert said.reply.private
    assert said.text.startswith(
        "/register: ezt a parancsot csak a klub szervezői használhatják (Budapest Go Club)"
    )
    assert "Nothing was changed" not in said.text and "Semmi sem változott." in said.text


async def test_an_engine_message_is_shown_in_the_clubs_language(
    budapest: FakeChat, fake_commands: list[str]
) -> None:
    async def fail(ctx: Context) -> Reply:
        raise RankError(Msg("{what} must be a whole number, not {value}", what="N", value="'x'"))

    register(fake_commands, "zz-engine", fail)
    said = await budapest.refused("/zz-engine")
    assert said.text.startswith("N: egész számnak kell lennie, nem 'x'\n\nHasználat: ")


async def test_an_incident_is_reported_in_the_clubs_language(
    budapest: FakeChat, fake_commands: list[str]
) -> None:
    async def crash(ctx: Context) -> Reply:
        raise RuntimeError(SECRET)

    register(fake_commands, "zz-crash3", crash)
    said = await budapest.say("/zz-crash3")
    assert re.fullmatch(
        r"Valami hiba történt \(azonosító: [0-9a-f]{6}\)\. Semmi sem változott; .+", said.text
    ), said.text


async def test_an_unknown_command_in_a_japanese_club_is_answered_in_japanese(
    tmp_path: Path,
) -> None:
    chat = await FakeChat.open(tmp_path, "tensuusei", settings={"language": "ja"})
    try:
        said = await chat.refused("/ratin 田中", as_=PLAYER)
        assert said.text == (
            "/ratin というコマンドはありません。/rating のことですか？"
            "/help でコマンドの一覧を表示できます。"
        )
        said = await chat.refused("/xyzzy", as_=PLAYER)
        assert (
            said.text
            == "/xyzzy というコマンドはありません。/help でコマンドの一覧を表示できます。"
        )
    finally:
        await chat.close()


async def test_a_private_chat_answers_in_the_persons_own_language(budapest: FakeChat) -> None:
    said = await budapest.refused("/xyzzy", as_=PLAYER, private=True, language="ja")
    assert said.text.startswith("/xyzzy というコマンドはありません。")


async def test_a_private_chat_in_a_language_hoshi_lacks_keeps_the_clubs(
    budapest: FakeChat,
) -> None:
    said = await budapest.refused("/xyzzy", as_=PLAYER, private=True, language="de")
    assert said.text.startswith("Nincs /xyzzy nevű parancs.")


async def test_a_group_keeps_the_clubs_language_whatever_the_persons(budapest: FakeChat) -> None:
    said = await budapest.refused("/xyzzy", as_=PLAYER, language="ja")
    assert said.text == "Nincs /xyzzy nevű parancs. A /help felsorolja az összeset."


async def test_a_chat_without_a_club_is_answered_in_the_persons_language_or_english(
    chat: FakeChat,
) -> None:
    polish = await chat.refused("/top", chat_id="-999", language="pl")
    assert polish.text.startswith("Ten czat nie jest jeszcze połączony z żadnym klubem.")
    assert "/club new NAZWA [" in polish.text and "/club join KOD" in polish.text
    english = await chat.refused("/top", chat_id="-999")
    assert english.text.startswith("This chat is not linked to a club yet.")


async def test_fakechat_clubs_speak_english_unless_told(tmp_path: Path) -> None:
    for system in ("mgsz", "tensuusei", "swedish", "psg"):
        (tmp_path / system).mkdir()
        chat = await FakeChat.open(tmp_path / system, system)
        try:
            assert (await storage.club_settings(chat.db, chat.club)).language == "en"
        finally:
            await chat.close()
    (tmp_path / "ja").mkdir()
    chat = await FakeChat.open(tmp_path / "ja", "tensuusei", language="ja")
    try:
        assert (await storage.club_settings(chat.db, chat.club)).language == "ja"
    finally:
        await chat.close()


async def test_a_failure_before_the_club_is_known_answers_in_the_persons_language(
    budapest: FakeChat, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(*args: object) -> None:
        raise RuntimeError(SECRET)

    monkeypatch.setattr(storage, "club_for_chat", broken)
    with caplog.at_level(logging.ERROR, logger="hoshi.core"):
        said = await budapest.say("/top", as_=PLAYER, language="sv")
    assert said.error and said.text.startswith("Något gick fel (ref ")
    assert "hunter2" not in said.text
    assert any("/top" in r.getMessage() for r in caplog.records)
    english = await budapest.say("/top", as_=PLAYER)
    assert english.text.startswith("Something went wrong (ref ")
