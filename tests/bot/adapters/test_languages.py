"""The adapters in the person's and the club's language (issue 13): who gets which language
(bot/adapters/languages.py), replies only the caller sees in their own language, the command
menus of Telegram and Discord in every language, and the platforms' limits in Japanese and
Polish."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest

import storage
from bot.adapters import console as console_adapter
from bot.adapters.discord import (
    CONTENT_LIMIT,
    DESCRIPTION_LIMIT,
    EMBED_DESCRIPTION_LIMIT,
    EMBED_TITLE_LIMIT,
    render,
    shorten,
)
from bot.adapters.languages import for_person
from bot.adapters.telegram.menu import COMMAND_DESCRIPTION_LIMIT, MENU_LANGUAGES
from bot.adapters.telegram.rendering import MESSAGE_LIMIT, render_html, visible_length
from bot.config import Config
from bot.core.app import Core
from bot.core.command_table import COMMANDS, public_commands
from bot.core.facade import chat_language
from bot.core.invocation import Invocation
from bot.core.replies import Notice, Reply, Table, Text
from bot.i18n import _, terminal_language, using
from storage.db import Database
from tests.bot.adapters.conftest import (
    D_PLAYER,
    GROUP,
    PLAYER,
    DiscordBot,
    discord_running,
    fixed_clock,
)
from tests.bot.adapters.test_telegram import plain
from tests.fakes import discord as fd

PRIVATELY_PL = "Wysłałem Ci odpowiedź w prywatnej wiadomości."
PRIVATELY_HU = "A választ privát üzenetben küldtem el neked."
STALE_SV = "Den här knappen fungerar inte längre; skriv kommandot i stället."
STALE_JA = "このボタンはもう使えません。代わりにコマンドを使ってください。"


class ScriptedCore(Core):
    """The real core's database and settings, answering every command with ``reply`` (built
    in the club's language, as the core builds it) and remembering what it was asked."""

    def __init__(self, db: Database, reply: Callable[[], Reply]) -> None:
        super().__init__(db, Config(), clock=fixed_clock)
        self.reply = reply
        self.asked: list[Invocation] = []

    async def handle(self, inv: Invocation) -> Reply:
        self.asked.append(inv)
        return self.reply()


async def club_in(db: Database, language: str, platform: str, chat_id: str) -> None:
    club = await storage.create_club(db, "Klub", "mgsz", actor="t")
    await storage.bind_chat(db, club, platform, chat_id, actor="t")
    await storage.set_setting(db, club, "language", language, actor="t")


# --- which language ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "hu_HU.UTF-8"}, "hu"),
        ({"LANG": "en_GB.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"}, "ja"),
        ({"LANG": "ja_JP.UTF-8", "LC_MESSAGES": "sv_SE", "LC_ALL": "pl_PL.UTF-8"}, "pl"),
        ({"LC_ALL": "C", "LANG": "hu_HU.UTF-8"}, None),
        ({"LANG": "POSIX"}, None),
        ({"LANG": "C.UTF-8"}, None),
        ({"LANG": "de_DE.UTF-8"}, None),
        ({}, None),
    ],
)
def test_the_console_language_comes_from_the_locale(
    environ: dict[str, str], language: str | None
) -> None:
    assert terminal_language(environ) == language


async def test_a_chat_speaks_its_clubs_language(db: Database) -> None:
    assert await chat_language(db, "telegram", "-5") == "en"
    assert await chat_language(db, "telegram", "-5", "ja") == "ja"  # no club: the person's
    await club_in(db, "sv", "telegram", "-5")
    assert await chat_language(db, "telegram", "-5", "ja") == "sv"


def test_a_reply_for_one_person_follows_their_language() -> None:
    reply = Reply.text(_("I've sent you the answer in a private message."))
    assert for_person(reply, None) is reply
    assert for_person(reply, "hu").as_text() == PRIVATELY_HU


# --- Telegram ------------------------------------------------------------------------------


async def test_the_telegram_caller_has_their_language(
    telegram_factory: Callable[..., Any], db: Database
) -> None:
    core = ScriptedCore(db, lambda: Reply.text("ok"))
    async with telegram_factory(core) as bot:
        await bot.say("/help", GROUP, {**PLAYER, "language_code": "pl"})
        await bot.say("/help", GROUP, {**PLAYER, "language_code": "pt-br"})
        await bot.say("/help", GROUP, PLAYER)
    assert [inv.caller.language for inv in core.asked] == ["pl", None, None]


async def test_a_private_answer_is_in_the_persons_language_and_the_group_told_in_the_clubs(
    telegram_factory: Callable[..., Any], db: Database
) -> None:
    await club_in(db, "hu", "telegram", str(GROUP["id"]))

    def answer() -> Reply:
        with using("hu"):  # the core answers in the club's language
            return Reply.text(_("Already done."), private=True)

    async with telegram_factory(ScriptedCore(db, answer)) as bot:
        calls = await bot.say("/club code", GROUP, {**PLAYER, "language_code": "pl"})
    sent = [c for c in calls if c.method == "sendMessage"]
    assert [c.params["chat_id"] for c in sent] == [PLAYER["id"], GROUP["id"]]
    assert sent[0].params["text"] == "Już zrobione."  # to the person, in Polish
    assert sent[1].params["text"] == PRIVATELY_HU  # to the group, in the club's Hungarian


async def test_a_private_answer_stays_in_the_clubs_language_for_an_unknown_one(
    telegram_factory: Callable[..., Any], db: Database
) -> None:
    await club_in(db, "hu", "telegram", str(GROUP["id"]))

    def answer() -> Reply:
        with using("hu"):
            return Reply.text(_("Already done."), private=True)

    async with telegram_factory(ScriptedCore(db, answer)) as bot:
        calls = await bot.say("/club code", GROUP, {**PLAYER, "language_code": "de"})
    sent = [c for c in calls if c.method == "sendMessage"]
    assert sent[0].params["text"] == "Ez már megtörtént."


async def test_a_long_private_answer_notes_the_file_in_the_persons_language(
    telegram_factory: Callable[..., Any], db: Database
) -> None:
    await club_in(db, "hu", "telegram", str(GROUP["id"]))
    rows = tuple((str(i), "Nagy Péter " * 8) for i in range(600))

    def answer() -> Reply:
        return Reply(blocks=(Table(("#", "név"), rows),), private=True)

    async with telegram_factory(ScriptedCore(db, answer)) as bot:
        calls = await bot.say("/export", GROUP, {**PLAYER, "language_code": "ja"})
    mine = [c for c in calls if c.method == "sendMessage" and c.params["chat_id"] == PLAYER["id"]]
    (note,) = mine
    assert "回答が長いため、全文はファイルにあります。" in note.params["text"]
    (document,) = [c for c in calls if c.method == "sendDocument"]
    assert document.params["chat_id"] == PLAYER["id"]
    told = [c for c in calls if c.method == "sendMessage" and c.params["chat_id"] == GROUP["id"]]
    assert [c.params["text"] for c in told] == [PRIVATELY_HU]


async def test_an_expired_button_answers_in_the_pressers_language(
    telegram_factory: Callable[..., Any],
) -> None:
    async with telegram_factory() as bot:
        message = {"message_id": 5, "date": 0, "chat": GROUP, "text": "old"}
        (answer,) = await bot.press("k:no-such-key", message, {**PLAYER, "language_code": "sv"})
    assert answer.params["text"] == STALE_SV


async def test_telegram_menus_are_set_once_per_language(
    telegram_factory: Callable[..., Any], catalogues: Callable[..., None]
) -> None:
    rating = COMMANDS["rating"]
    catalogues(
        {
            "hu": {rating.summary: "Egy játékos kártyája: minősítés, Élő-pont, helyezés."},
            "ja": {rating.summary: "会員のカード: 段級位、点数、順位。"},
        }
    )
    async with telegram_factory() as bot:
        calls = bot.api.sent("setMyCommands")
    by_language: dict[str | None, list[Any]] = {}
    for call in calls:
        by_language.setdefault(call.params.get("language_code"), []).append(call)
    assert sorted(by_language, key=str) == sorted([None, "hu", "ja", "sv", "pl"], key=str)
    assert MENU_LANGUAGES == ("hu", "ja", "sv", "pl")
    for sets in by_language.values():  # each scope once in each language
        scopes = [c.params["scope"]["type"] for c in sets]
        assert sorted(scopes) == ["all_chat_administrators", "all_private_chats", "default"]

    def description(language: str | None, name: str) -> str:
        (call,) = [
            c
            for c in by_language[language]
            if c.params["scope"]["type"] == "all_chat_administrators"
        ]
        return next(e["description"] for e in call.params["commands"] if e["command"] == name)

    assert description(None, "rating") == rating.summary
    assert description("hu", "rating") == "Egy játékos kártyája: minősítés, Élő-pont, helyezés."
    assert description("ja", "rating") == "会員のカード: 段級位、点数、順位。"
    assert description("sv", "rating") == rating.summary  # no translation: as written
    for sets in by_language.values():  # the names stay; descriptions fit
        for call in sets:
            for entry in call.params["commands"]:
                assert entry["command"] in COMMANDS
                assert 3 <= len(entry["description"]) <= COMMAND_DESCRIPTION_LIMIT


@pytest.mark.parametrize("language", ["en", "hu", "ja", "sv", "pl"])
async def test_telegram_menus_fit_in_every_language(
    telegram_factory: Callable[..., Any], language: str
) -> None:
    async with telegram_factory() as bot:
        calls = bot.api.sent("setMyCommands")
    code = None if language == "en" else language
    menus = [c for c in calls if c.params.get("language_code") == code]
    assert len(menus) == 3
    names = [e["command"] for e in menus[0].params["commands"]]
    assert names and all(n in COMMANDS for n in names)
    for call in menus:
        for entry in call.params["commands"]:
            assert 3 <= len(entry["description"]) <= COMMAND_DESCRIPTION_LIMIT


# --- Discord -------------------------------------------------------------------------------


def synced(bot: DiscordBot) -> list[dict[str, Any]]:
    (sync,) = [c for c in bot.fake.calls if c.method == "PUT"]
    return list(sync.body)


async def test_discord_sync_carries_the_translations(
    core: Core, catalogues: Callable[..., None]
) -> None:
    rating, top = COMMANDS["rating"], COMMANDS["top"]
    name_param = next(p for p in rating.params if p.kind == "player")
    catalogues(
        {
            "hu": {rating.summary: "Egy játékos kártyája.", name_param.description: "a név"},
            "ja": {rating.summary: "会員のカード。", "csv": "CSV表"},
            "sv": {rating.summary: "En spelares kort."},
            "pl": {rating.summary: "Karta gracza.", top.summary: "Ranking klubu. " * 20},
        }
    )
    async with discord_running(core) as bot:
        commands = {c["name"]: c for c in synced(bot)}
    card = commands["rating"]
    assert card["description_localizations"] == {
        "hu": "Egy játékos kártyája.",
        "ja": "会員のカード。",
        "sv-SE": "En spelares kort.",
        "pl": "Karta gracza.",
    }
    assert card["name_localizations"] == {}  # /rating is /rating everywhere
    option = next(o for o in card["options"] if o["description"] == name_param.description)
    assert option["description_localizations"] == {"hu": "a név"}
    assert "name_localizations" not in option
    long = commands["top"]["description_localizations"]["pl"]
    assert long == ("Ranking klubu. " * 6).strip()  # cut to Discord's limit, at a sentence
    export = commands["export"]
    choices = [c for o in export["options"] for c in o.get("choices", [])]
    csv = next(c for c in choices if c["value"] == "csv")
    assert csv["name"] == "csv" and csv["name_localizations"] == {"ja": "CSV表"}


def test_a_description_is_shortened_after_a_whole_word() -> None:
    assert shorten("Karta gracza.", 100) == "Karta gracza."
    assert shorten("Karta gracza: ranga, ranking, miejsce", 30) == "Karta gracza: ranga, ranking…"
    assert shorten("会員の成績：段級位、レーティング、順位", 10) == "会員の成績：段級位…"
    assert len(shorten("a" * 150, 100)) == 100
    # the sentences that fit, when they say enough; a clause ends as a sentence
    summary = "A player's card: rank, rating, place; with all, every system side by side."
    assert shorten(summary, 60) == "A player's card: rank, rating, place."
    assert shorten("Add a player. A rating records an existing standing here.", 40) == (
        "Add a player. A rating records an…"
    )  # "Add a player." alone says too little
    assert shorten("点数の一覧です。会員の段級位と点数を表示します。", 12) == "点数の一覧です。"


async def test_discord_descriptions_fit_in_every_language(core: Core) -> None:
    async with discord_running(core) as bot:
        commands = synced(bot)
    assert {c["name"] for c in commands} == {c.name for c in public_commands()}
    for command in commands:
        assert command["name_localizations"] == {}
        for text in (command["description"], *command["description_localizations"].values()):
            assert 1 <= len(text) <= DESCRIPTION_LIMIT
        for option in command.get("options", []):
            localized = option.get("description_localizations", {})
            for text in (option["description"], *localized.values()):
                assert 1 <= len(text) <= DESCRIPTION_LIMIT
            assert set(localized) <= {"hu", "ja", "sv-SE", "pl"}
            for choice in option.get("choices", []):
                for text in (choice["name"], *choice.get("name_localizations", {}).values()):
                    assert 1 <= len(text) <= 100


async def test_the_discord_caller_has_their_language(db: Database) -> None:
    core = ScriptedCore(db, lambda: Reply.text("ok"))
    async with discord_running(core) as bot:
        await bot.slash("help", D_PLAYER, locale="sv-SE")
        await bot.slash("help", D_PLAYER, locale="ja")
        await bot.slash("help", D_PLAYER, locale="en-US")
    assert [inv.caller.language for inv in core.asked] == ["sv", "ja", "en"]


async def test_an_ephemeral_answer_is_in_the_persons_language(db: Database) -> None:
    await club_in(db, "hu", "discord", str(fd.GUILD_ID))

    def refusal() -> Reply:
        with using("hu"):
            return Reply.text(_("Already done."), error=True)

    async with discord_running(ScriptedCore(db, refusal)) as bot:
        (call,) = await bot.slash("help", D_PLAYER, locale="pl")
    assert call.data["flags"] & 64  # ephemeral
    assert call.data["content"] == "Już zrobione."


async def test_a_public_answer_stays_in_the_clubs_language(db: Database) -> None:
    await club_in(db, "hu", "discord", str(fd.GUILD_ID))

    def answer() -> Reply:
        with using("hu"):
            return Reply.text(_("Already done."))

    async with discord_running(ScriptedCore(db, answer)) as bot:
        (call,) = await bot.slash("help", D_PLAYER, locale="pl")
    assert not call.data.get("flags", 0) & 64
    assert call.data["content"] == "Ez már megtörtént."


async def test_a_rate_limit_refusal_is_in_the_persons_language(core: Core, db: Database) -> None:
    await club_in(db, "en", "discord", str(fd.GUILD_ID))
    async with discord_running(core) as bot:
        answers = []
        for _n in range(8):
            (call,) = await bot.slash("chart", D_PLAYER, locale="pl", name="Nagy")
            answers.append(call.data)
    refused = answers[-1]
    assert refused["flags"] & 64
    assert "spróbuj ponownie za" in refused["content"]
    assert "try again" not in refused["content"]


async def test_an_expired_discord_button_answers_in_the_pressers_language(
    discord_bot: DiscordBot,
) -> None:
    (call,) = await discord_bot.press("hoshi:k:no-such-key", D_PLAYER, locale="ja")
    assert call.data["flags"] & 64
    assert call.data["content"] == STALE_JA


# --- the limits in Japanese and Polish -----------------------------------------------------


def long_reply(language: str) -> Reply:
    """A long reply as a club in ``language`` gets it: a title, many paragraphs and a table
    of wide (Japanese) or accented (Polish) text."""
    with using(language):
        paragraph = _(
            "Something went wrong (ref {ref}). Nothing more was changed; an organiser can "
            "report the reference to the bot's operator.",
            ref="abc123",
        )
        title = _("The full answer is long; it is in the file.")
    rows = tuple(
        (str(i), f"{'段級位' if language == 'ja' else 'Zażółć gęślą jaźń'} {i}", "1234")
        for i in range(300)
    )
    return Reply(
        blocks=(
            Text(title, title=True),
            *(Text(paragraph) for _n in range(12)),
            Table(("#", "名前" if language == "ja" else "Gracz", "pkt"), rows, "rlr"),
        )
    )


@pytest.mark.parametrize("language", ["ja", "pl"])
def test_a_long_reply_stays_within_telegrams_limit(language: str) -> None:
    reply = long_reply(language)
    messages = render_html(reply)
    assert len(messages) >= 2
    assert all(visible_length(plain(m)) <= MESSAGE_LIMIT for m in messages)
    assert messages[0].startswith("<b>")
    joined = "".join(messages)
    assert ("段級位 299" if language == "ja" else "Zażółć gęślą jaźń 299") in joined


@pytest.mark.parametrize("language", ["ja", "pl"])
def test_a_long_reply_stays_within_discords_limits(language: str) -> None:
    reply = long_reply(language)
    for out in render(reply):
        assert out.content is None or len(out.content) <= CONTENT_LIMIT
        if out.embed is not None:
            assert len(out.embed.title or "") <= EMBED_TITLE_LIMIT
            assert len(out.embed.description or "") <= EMBED_DESCRIPTION_LIMIT
            assert len(out.embed) <= 6000
    short = Reply(blocks=reply.blocks[:3])
    (card,) = render(short)  # a titled answer that fits is one embed
    assert isinstance(card.embed, discord.Embed)


@pytest.mark.parametrize("language", ["ja", "pl"])
def test_a_very_long_reply_becomes_a_file_with_a_note_in_the_language(language: str) -> None:
    with using(language):
        rows = tuple((str(i), "段級位" * 30 if language == "ja" else "ą" * 90) for i in range(400))
        outgoing = render(Reply(blocks=(Table(("#", "x"), rows),)))
        note = _("The full answer is long; it is in the file.")
    assert len(outgoing) == 1
    assert note in (outgoing[0].content or "").replace("\\", "")
    assert outgoing[0].files and outgoing[0].files[0][0].endswith(".txt")


# --- the console ---------------------------------------------------------------------------


def test_the_console_user_has_their_locales_language(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert console_adapter.invocation("/help", "club-1").caller.language == "ja"
    monkeypatch.setenv("LANG", "C")
    assert console_adapter.invocation("/help", "club-1").caller.language is None
    monkeypatch.setenv("LC_ALL", "sv_SE.UTF-8")
    inv = console_adapter.invocation("/as Nagy Péter /help", "club-1")
    assert inv.caller.language is None  # another member: their language is not known
    assert console_adapter.CALLER.identity == "console:local"


async def test_the_console_speaks_the_clubs_language(db: Database, tmp_path: Path) -> None:
    club = await storage.create_club(db, "Klub", "psg", actor="t")
    await storage.bind_chat(db, club, "console", console_adapter.chat_id(club), actor="t")
    await storage.set_setting(db, club, "language", "pl", actor="t")
    out = io.StringIO()
    console = console_adapter.Console(Core(db, Config(), clock=fixed_clock), club, out, tmp_path)
    await console.show_notice(Notice(club.id, Reply.text("x")))
    assert out.getvalue().startswith("[wysłano do czatów klubu]\nx")


async def test_the_prompts_hints_follow_the_console_users_locale(
    db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    club = await storage.create_club(db, "Klub", "psg", actor="t")
    await storage.bind_chat(db, club, "console", console_adapter.chat_id(club), actor="t")
    await storage.set_setting(db, club, "language", "pl", actor="t")
    keys = [KeyboardInterrupt, KeyboardInterrupt]

    def read(prompt: str) -> str:
        if keys:
            raise keys.pop(0)
        raise EOFError

    out = io.StringIO()
    console = console_adapter.Console(Core(db, Config(), clock=fixed_clock), club, out, tmp_path)
    await console.interactive(read)
    text = out.getvalue()
    assert text.startswith("hoshi コンソール — あなたはクラブの幹事です。")
    assert "(空の行でもう一度 Ctrl-C を押すか、Ctrl-D で終了します。)" in text
    monkeypatch.setenv("LANG", "C.UTF-8")  # no language of its own: the club's
    out.seek(0)
    out.truncate()
    keys.extend([KeyboardInterrupt, KeyboardInterrupt])
    await console.interactive(read)
    assert out.getvalue().startswith("Konsola hoshi — jesteś organizatorem klubu.")
