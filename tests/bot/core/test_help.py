"""/help and /link."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import storage
from bot.core.command_table import COMMANDS, public_commands
from bot.core.commands import PLACEHOLDERS, CommandSpec, Param, placeholder_words
from bot.core.handlers.help import LONG_USAGE
from bot.core.invocation import Caller
from bot.i18n import _, using
from bot.i18n.catalogues import po_path
from tests.bot.core.fakechat import PLAYER, FakeChat

OTHER = Caller("telegram", "301", "Another Account")
ELSEWHERE = Caller("discord", "555", "Discord Dóra")


@pytest.fixture
async def club(tmp_path: Path) -> AsyncIterator[FakeChat]:
    chat = await FakeChat.open(
        tmp_path,
        players=(
            "Nagy Péter 5k",
            "Kovács Anna 2d 2090",
        ),
    )
    try:
        yield chat
    finally:
        await chat.close()


# -- /help -------------------------------------------------------------------------------------


async def test_help_lists_every_command_by_role(club: FakeChat) -> None:
    said = await club.ok("/help", as_=PLAYER)
    head, players, title, organisers, tail = said.text.split("\n\n")
    assert head == "hoshi — go club ratings (Budapest Go Club, mgsz)"
    assert title == "For organisers"
    for cmd in public_commands():
        section = organisers if cmd.organiser_only else players
        usage = cmd.usage
        if cmd.actions and len(usage) > LONG_USAGE:  # by its actions' names (/help CMD: all)
            usage = f"/{cmd.name} " + " | ".join(a.name for a in cmd.actions)
        assert f"{usage} — {cmd.summary}" in section.splitlines()
    assert "accents are optional" in tail


async def test_help_works_in_a_chat_without_a_club(club: FakeChat) -> None:
    said = await club.ok("/help", as_=PLAYER, chat_id="-42")
    assert said.text.startswith("hoshi — go club ratings\n\n")


@pytest.mark.parametrize("typed", ["result", "/result", "RESULT", "result@hoshi_bot"])
async def test_help_for_one_command_shows_usage_and_examples(club: FakeChat, typed: str) -> None:
    said = await club.ok(f"/help {typed}", as_=PLAYER)
    cmd = COMMANDS["result"]
    assert said.text == f"/result\n\n{cmd.help_text()}"
    assert "Examples: /result Nagy Péter Kovács Anna B+ · " in said.text


async def test_help_for_an_unknown_command(club: FakeChat) -> None:
    said = await club.refused("/help frobnicate", as_=PLAYER)
    assert said.text == (
        "There is no command /frobnicate; /help lists them all\n\nUsage: /help [COMMAND] — "
        "e.g. /help"
    )


# -- /link -------------------------------------------------------------------------------------


async def linked(club: FakeChat, platform: str, account: str) -> str | None:
    player = await storage.player_for_account(club.db, club.club, platform, account)
    return None if player is None else player.name


async def test_a_members_link_waits_for_an_organiser(club: FakeChat) -> None:
    """Issue 26, item 4: a member's own /link links nothing until an organiser confirms."""
    before = await club.snapshot()
    said = await club.ok("/link nagy peter", as_=PLAYER)
    assert said.text == (
        "Linking your account to Nagy Péter (5k) needs an organiser's confirmation, or one "
        "from an account already linked to Nagy Péter.\n"
        "Until then, /rating alone, reports and tournament entries do not speak for Nagy "
        'Péter. To confirm, press the button or send: /link "Nagy Péter" account=telegram:300'
    )
    assert await club.snapshot() == before
    (button,) = said.reply.buttons
    assert button.label == "Confirm (organisers)"
    assert button.command == '/link "Nagy Péter" account=telegram:300'
    # the button runs as whoever presses it: the member pressing it asks again …
    again = await club.ok(button.command, as_=PLAYER)
    assert again.text == said.text and await club.snapshot() == before
    # … another member cannot confirm it …
    refused = await club.refused(button.command, as_=OTHER)
    assert refused.text.startswith(
        "only an organiser, or an account already linked to Nagy Péter, can link another "
        "account to them"
    )
    # … an organiser can
    said = await club.ok(button.command, as_="organiser")
    assert said.text == (
        "telegram:300 is now linked to Nagy Péter (5k). /rating with no name shows this card."
    )
    assert await linked(club, "telegram", "300") == "Nagy Péter"
    nagy = await club.player("Nagy Péter")
    assert await storage.accounts_of(club.db, club.club, nagy.id) == [("telegram", "300")]


async def test_an_organisers_own_link_needs_no_confirmation(club: FakeChat) -> None:
    said = await club.ok("/link Kovács Anna", as_="organiser")
    assert said.text == (
        "Your account is now linked to Kovács Anna (2d). /rating with no name shows this card."
    )
    assert await linked(club, "telegram", "200") == "Kovács Anna"


async def test_linking_again_changes_nothing(club: FakeChat) -> None:
    await club.link("Nagy Péter", PLAYER)
    before = await club.snapshot()
    said = await club.ok("/link Nagy Péter", as_=PLAYER)
    assert said.text == "That account is already linked to Nagy Péter."
    assert not said.reply.buttons
    assert await club.snapshot() == before


async def test_the_players_linked_account_confirms_another_of_theirs(club: FakeChat) -> None:
    """The player's own confirmation: the account already linked to them confirms a second
    one (another device, Discord beside Telegram)."""
    await club.bind("discord")
    await club.link("Nagy Péter", PLAYER)
    asked = await club.ok("/link Nagy Péter", as_=ELSEWHERE)
    assert await linked(club, "discord", "555") is None
    (button,) = asked.reply.buttons
    assert button.command == '/link "Nagy Péter" account=discord:555'
    said = await club.ok(button.command, as_=PLAYER)
    assert said.text.startswith("discord:555 is now linked to Nagy Péter")
    nagy = await club.player("Nagy Péter")
    assert sorted(await storage.accounts_of(club.db, club.club, nagy.id)) == [
        ("discord", "555"),
        ("telegram", "300"),
    ]


async def test_a_player_cannot_take_an_account_linked_to_someone_else(club: FakeChat) -> None:
    """Moving a link is the organisers' alone: Nagy Péter's account cannot pull Kovács Anna's
    account over to Nagy Péter, nor link itself to Kovács Anna."""
    await club.link("Nagy Péter", PLAYER)
    await club.link("Kovács Anna", OTHER)
    await club.refused('/link "Nagy Péter" account=telegram:301', as_=PLAYER)
    said = await club.ok("/link Kovács Anna", as_=PLAYER)
    assert said.text.startswith(
        "Your account is linked to Nagy Péter now; moving it to Kovács Anna (2d) needs an "
        "organiser's confirmation."
    )
    assert await linked(club, "telegram", "300") == "Nagy Péter"
    await club.ok(said.reply.buttons[0].command)
    assert await linked(club, "telegram", "300") == "Kovács Anna"


async def test_two_members_cannot_record_a_rated_game_between_themselves(club: FakeChat) -> None:
    """The probe of issue 26, item 4: with reports on, two members link themselves to two
    players and report and confirm a game; nothing counts, nothing is recorded."""
    await club.ok("/club reports on")
    await club.ok("/link Nagy Péter", as_=PLAYER)
    await club.ok("/link Kovács Anna", as_=OTHER)
    said = await club.refused("/result Nagy Péter Kovács Anna B+", as_=PLAYER)
    assert "only their own games" in said.text
    assert await club.games() == []


async def test_a_member_takes_their_own_link_off(club: FakeChat) -> None:
    await club.link("Nagy Péter", PLAYER)
    await club.refused("/link Kovács Anna remove", as_=PLAYER)  # not theirs
    said = await club.ok("/link Nagy Péter remove", as_=PLAYER)
    assert said.text == (
        "Your account is no longer linked to Nagy Péter (5k). /link NAME links it again, once "
        "an organiser confirms it."
    )
    assert await linked(club, "telegram", "300") is None
    refused = await club.refused("/link Nagy Péter remove", as_=PLAYER)
    assert refused.text.startswith(
        "Your account is not linked to Nagy Péter: there is nothing to take off"
    )
    asked = await club.ok("/link Nagy Péter", as_=PLAYER)  # linking again asks again
    assert asked.reply.buttons and await linked(club, "telegram", "300") is None


async def test_an_organiser_takes_a_link_given_by_mistake_back(club: FakeChat) -> None:
    """Every account of the player at once, or the one account= names; another member can
    take off nobody's link but their own."""
    await club.bind("discord")
    await club.link("Nagy Péter", PLAYER)
    await club.ok('/link "Nagy Péter" account=discord:555', as_=PLAYER)  # the player's own
    await club.link("Kovács Anna", OTHER)
    refused = await club.refused("/link Nagy Péter account=telegram:300 remove", as_=OTHER)
    assert refused.text.startswith(
        "only an organiser, or an account linked to Nagy Péter, can take another account off"
    )
    said = await club.ok("/link Kovács Anna account=telegram:301 remove", as_="organiser")
    assert said.text == "telegram:301 is no longer linked to Kovács Anna (2d)."
    said = await club.ok("/link Nagy Péter remove", as_="organiser")
    assert said.text == "telegram:300, discord:555 are no longer linked to Nagy Péter (5k)."
    assert await linked(club, "telegram", "300") is None
    assert await linked(club, "discord", "555") is None
    refused = await club.refused("/link Nagy Péter remove", as_="organiser")
    assert refused.text.startswith("Nagy Péter has no linked account")
    # the accounts taken off report nothing: a report needs a link the club approved
    await club.ok("/club reports on")
    await club.refused("/result Nagy Péter Kovács Anna B+", as_=PLAYER)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/link", "A player's name is missing"),
        ("/link Nobody", "No player called “Nobody” in this club."),
        ("/link Nagy account=12345", "account= takes platform:id, e.g. account=telegram:12345"),
        ("/link Nagy account=telegram:", "account= takes platform:id"),
        ("/link Nagy pin=1", "/link has no option pin=; it takes account="),
    ],
)
async def test_link_bad_inputs(club: FakeChat, line: str, message: str) -> None:
    said = await club.refused(line, as_="organiser")
    assert said.text.startswith(message)
    assert said.text.endswith(
        "Usage: /link NAME [account=PLATFORM:ID] [remove] — e.g. /link Nagy Péter"
    )


# -- /help tournament --------------------------------------------------------------------------


async def test_help_tournament_documents_every_option_with_examples_that_work(
    club: FakeChat,
) -> None:
    import re

    from bot.core.handlers.tournaments import FLAGS

    said = await club.ok("/help tournament", as_=PLAYER)
    text = said.text
    for key in COMMANDS["tournament"].option_keys():
        shown = "C=" if key == "c" else f"{key}="
        assert shown in text, shown
    for flag in [*FLAGS, ">80", "confirm"]:
        assert flag in text, flag
    examples = re.findall(r"e\.g\. (/tournament new [^·\n]+)", text)
    assert len(examples) >= 8
    for n, example in enumerate(examples):
        await club.ok(example.strip())  # every documented example works as written
        rows = await storage.tournaments(club.db, club.club)
        assert len(rows) == n + 1, example


# -- the club's language (issue 13) ------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(c.name for c in public_commands()))
async def test_help_in_english_is_each_commands_help_text(club: FakeChat, name: str) -> None:
    said = await club.ok(f"/help {name}")
    assert said.text == f"/{name}\n\n{COMMANDS[name].help_text()}"


async def test_help_speaks_japanese(tmp_path: Path) -> None:
    chat = await FakeChat.open(
        tmp_path, "tensuusei", name="Sendai Go Club", settings={"language": "ja"}
    )
    try:
        said = await chat.ok("/help", as_=PLAYER)
        head, players, title, organisers, tail = said.text.split("\n\n")
        assert head == "hoshi — 碁会のレーティング（Sendai Go Club、tensuusei）"
        assert title == "幹事向け"
        assert (
            "/help [コマンド] — ボットでできること、または1つのコマンドの使い方と例。"
            in players.splitlines()
        )
        assert any(
            line.startswith("/register 名前 段級位 [レーティング] ")
            for line in organisers.splitlines()
        )
        assert tail == (
            "名前には空白を含められ、アクセント記号は省略できます：/rating szabo eva。"
            "/help コマンド で例を表示します。"
        )
        said = await chat.ok("/help link", as_=PLAYER)
        assert said.text == (
            "/link\n\n/link 名前 [account=PLATFORM:ID] [remove]\n"
            "チャットのアカウントを自分の会員情報につなぎ、"
            "/rating だけで自分の成績表を表示できるようにします。\n"
            "つなぐには幹事の確認が必要です（2つ目のアカウントなら、その会員にすでに"
            "つながっているアカウントでも確認できます）。確認されるまでは、/rating や報告、"
            "大会への参加はその会員のものとして扱われません。/link 名前 remove で自分の"
            "アカウントをその会員から外せます。幹事が使うと、すべてのアカウント、または "
            "account= で指定した1つを外します。\n"
            "オプション：\n"
            "account=PLATFORM:ID — つなぐ（申請を確認する）または外すアカウント"
            "（例：telegram:12345）\n"
            "例：/link Nagy Péter · /link Nagy Péter remove"
        )
        said = await chat.refused("/help frobnicate", as_=PLAYER)
        assert said.text.startswith(
            "/frobnicate というコマンドはありません。/help で一覧を表示できます"
        )
    finally:
        await chat.close()


async def test_help_and_link_speak_hungarian(tmp_path: Path) -> None:
    chat = await FakeChat.open(tmp_path, settings={"language": "hu"}, players=("Nagy Péter 5k",))
    try:
        said = await chat.ok("/help register", as_=PLAYER)
        lines = said.text.splitlines()
        assert lines[2].startswith("/register NÉV MINŐSÍTÉS [ÉRTÉKELÉS] [country=XX] ")
        assert lines[3].startswith("Játékos felvétele.")
        assert "Opciók:" in lines and "country=XX — kétbetűs országkód, pl. HU" in lines
        assert lines[-2].startswith("Példák: /register Nagy Péter 5k · ")
        assert lines[-1] == "Szervezőknek."
        assert "Options:" not in said.text and "Examples:" not in said.text
        said = await chat.ok("/link Nagy Péter", as_=PLAYER)
        assert said.text == (
            "Ahhoz, hogy a fiókod ehhez a játékoshoz kapcsolódjon: Nagy Péter (5k), egy szervező "
            "megerősítése kell, vagy egy olyan fióké, amely már hozzá kapcsolódik (Nagy Péter).\n"
            "Addig a név nélküli /rating, a bejelentések és a versenynevezések nem Nagy Péter "
            "nevében szólnak. Megerősítéshez nyomd meg a gombot, vagy küldd el: "
            '/link "Nagy Péter" account=telegram:300'
        )
        assert [b.label for b in said.reply.buttons] == ["Megerősítés (szervezők)"]
        said = await chat.ok(said.reply.buttons[0].command, as_="organiser")
        assert said.text.startswith("telegram:300 mostantól ehhez a játékoshoz kapcsolódik: ")
    finally:
        await chat.close()


def test_a_spec_text_left_empty_stays_empty_in_every_language() -> None:
    """An empty summary or option help is not looked up (a catalogue's empty message is its
    header)."""
    from bot.core.commands import CommandSpec, Option
    from bot.core.handlers.help import link, summary_line
    from bot.i18n import using

    spec = CommandSpec(
        "demo", "/demo [k=V]", "", options=(Option("k", "text", "", "V"),), handler=link
    )
    for language in ("en", "hu", "ja", "sv", "pl"):
        with using(language):
            assert summary_line(spec) == "/demo [k=V] — "
            assert spec.help_text().splitlines()[:2] == ["/demo [k=V]", ""]
            assert "k=V — " in spec.help_text().splitlines()


# -- usage lines in the reader's language (issue 24) -------------------------------------------

READERS = ("hu", "ja", "pl", "sv")


@functools.cache
def translated_ids(language: str) -> frozenset[str]:
    """The texts ``language``'s catalogue translates (not fuzzy, not empty)."""
    with po_path(language).open("rb") as handle:
        return frozenset(
            m.id for m in read_po(handle) if isinstance(m.id, str) and m.string and not m.fuzzy
        )


def english_placeholders(line: str, language: str) -> list[str]:
    """The placeholders ``line`` still shows in English because ``language``'s catalogue
    has no translation of them (a translator may keep a word as it is, ``N``: translated
    as itself, it is not reported)."""
    known = translated_ids(language)
    return [
        word
        for word in placeholder_words(line)
        if word in PLACEHOLDERS and PLACEHOLDERS[word] not in known
    ]


def usage_parts(cmd: CommandSpec) -> list[str]:
    """The command's usage line and, for a command with actions, each action's part (what a
    refusal of that action shows)."""
    head = f"/{cmd.name} "
    parts = cmd.usage.removeprefix(head).split(" | ") if " | " in cmd.usage else []
    return [cmd.usage, *(cmd.usage_of(p)[0] for p in parts if p[:1].islower())]


def refusals_usage(text: str, language: str) -> str:
    """The usage line of a refusal (``Usage: LINE — e.g. EXAMPLE`` in ``language``; not the
    example, typed as it is)."""
    with using(language):
        template = _("Usage: {line} — e.g. {example}", line="\0", example="\1")
    before, after = template.split("\0")
    between = after.split("\1")[0]
    (block,) = [b for b in text.split("\n\n") if b.startswith(before) and between in b]
    return block[len(before) : block.index(between)]


@pytest.mark.parametrize("language", READERS)
async def test_no_usage_line_shows_an_english_placeholder(tmp_path: Path, language: str) -> None:
    """/help, /help COMMAND, a refusal's usage line and the platforms' menus show each
    placeholder in the reader's language (FEKETE FEHÉR EREDMÉNY, 黒番 白番 結果 …); fails
    naming each placeholder the catalogue does not translate yet."""
    from bot.adapters.discord import _description, _summary, options_of
    from bot.adapters.telegram.menu import menu_description

    found: dict[str, list[str]] = {}

    def check(where: str, line: str) -> None:
        words = english_placeholders(line, language)
        if words:
            found[f"{where}: {line}"] = words

    chat = await FakeChat.open(tmp_path, settings={"language": language})
    try:
        listing = await chat.ok("/help", as_=PLAYER)
        for line in listing.text.splitlines():
            if line.startswith("/"):
                check("/help", line.split(" — ", 1)[0])
        for cmd in public_commands():
            said = await chat.ok(f"/help {cmd.name}", as_=PLAYER)
            lines = said.text.splitlines()
            check(f"/help {cmd.name}", lines[2])
            for line in lines:
                if any(line.startswith(f"{o.key}=") for o in cmd.options):
                    check(f"/help {cmd.name} options", line.split(" — ", 1)[0])
            refused = await chat.refused(f"/{cmd.name} zzz=1")
            check(f"/{cmd.name}'s refusal", refusals_usage(refused.text, language))
        with using(language):
            for cmd in public_commands():
                for part in usage_parts(cmd):
                    check("a refusal", cmd.usage_text(part))
                menu = menu_description(cmd)
                if menu.startswith("/"):
                    check("Telegram's menu", menu)
                if not cmd.summary:  # else the summary: prose, as translated
                    check("Discord's description", _summary(cmd))
                for typed in options_of(cmd):
                    if isinstance(typed, Param) and typed.description == cmd.usage:
                        check("Discord's free-text option", _description(typed, cmd))
    finally:
        await chat.close()
    missing = sorted({PLACEHOLDERS[word] for words in found.values() for word in words})
    places = [f"{where} — {', '.join(words)}" for where, words in found.items()]
    assert not found, (
        f"{language} has no translation of the placeholders {', '.join(missing)}; shown in:\n"
        + "\n".join(places[:30])
    )


async def test_help_in_the_console_documents_as(club: FakeChat) -> None:
    """/as is the console's own act-as command (bot.adapters.console): its /help says it,
    and a chat's does not (issue 24)."""
    console = Caller("console", "console", "Operator", chat_admin=True)
    said = await club.ok("/help", as_=console)
    assert "/as NAME /COMMAND" in said.text and "/as Kovács Anna /confirm 12" in said.text
    assert "/as NAME" not in (await club.ok("/help")).text
