"""The command table: every command of bot.md, its help, and who may use it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.core.command_table import COMMANDS, lookup, public_commands
from bot.core.commands import (
    CONSOLE,
    KINDS,
    ORGANISER,
    PLACEHOLDERS,
    PLAYER,
    CommandSpec,
    Option,
    Param,
    command,
    placeholder_words,
    placeholders,
    spec_of,
)
from bot.core.replies import Reply
from bot.i18n import using
from tests.bot.core.fakechat import ADMIN, FakeChat
from tests.bot.core.fakechat import ORGANISER as NAMED
from tests.bot.core.fakechat import PLAYER as MEMBER

# bot.md, Commands: the players' and the organisers' tables (scheduled ones left out, issue 3)
PLAYER_COMMANDS = ("rating", "chart", "top", "history", "handicap", "multiplier", "promotion",
                   "link", "help")  # fmt: skip
ORGANISER_COMMANDS = ("register", "result", "tournament", "undo", "void", "correct", "override",
                      "egf", "club", "export")  # fmt: skip
PARAM_KINDS = set(KINDS)


@pytest.mark.parametrize("name", PLAYER_COMMANDS)
def test_player_commands_are_open_to_everyone(name: str) -> None:
    assert COMMANDS[name].access == PLAYER
    assert not COMMANDS[name].organiser_only


# bot.md, Player-reported games: a club may let players post /result for their own game, so
# /result may be open to everyone and check the club's setting itself
PLAYER_REPORTABLE = {"result"}
# issue 25: players join a tournament run from the chat, withdraw, and follow its rounds
MIXED = {
    "tournament": {"show", "list", "join", "withdraw", "players", "missing", "standings"},
}


@pytest.mark.parametrize("name", ORGANISER_COMMANDS)
def test_organiser_commands_are_for_organisers(name: str) -> None:
    cmd = COMMANDS[name]
    if name in MIXED:  # its players' actions are open to everyone, the rest are not
        players = {a.name for a in cmd.actions if cmd.access_of(a.name) != ORGANISER}
        assert players == MIXED[name]
        return
    assert cmd.access == ORGANISER or name in PLAYER_REPORTABLE


def test_the_table_holds_every_command_of_bot_md() -> None:
    public = {c.name for c in public_commands()}
    assert set(PLAYER_COMMANDS) | set(ORGANISER_COMMANDS) <= public


@pytest.mark.parametrize("cmd", list(COMMANDS.values()), ids=lambda c: c.name)
def test_every_command_documents_itself(cmd: CommandSpec) -> None:
    assert cmd.usage.startswith(f"/{cmd.name}")
    assert cmd.summary.endswith(".")
    assert cmd.examples, f"/{cmd.name} has no example"
    assert all(e.startswith(f"/{cmd.name}") for e in cmd.examples)
    assert {p.kind for p in cmd.params} <= PARAM_KINDS
    assert {o.kind for o in cmd.options} <= PARAM_KINDS
    assert all(o.help for o in cmd.options)
    for param in cmd.params:
        assert param.description
        assert (param.kind == "choice") == bool(param.choices) or param.kind != "choice"
    text = cmd.help_text()
    assert text.splitlines()[0] == cmd.usage
    assert all(example in text for example in cmd.examples)
    assert ("For organisers." in text) == cmd.organiser_only


@pytest.mark.parametrize(
    ("typed", "name"),
    [("rating", "rating"), ("/rating", "rating"), ("RATING", "rating"),
     ("rating@hoshi_bot", "rating"), ("/Top@hoshi_bot", "top")],
)  # fmt: skip
def test_lookup_ignores_slash_case_and_bot_name(typed: str, name: str) -> None:
    found = lookup(typed)
    assert found is not None and found.name == name


@pytest.mark.parametrize("typed", ["", "/", "ratin", "rating2", "@rating"])
def test_lookup_of_an_unknown_name_is_none(typed: str) -> None:
    assert lookup(typed) is None


@pytest.fixture
def scratch_names() -> Iterator[list[str]]:
    """Names of commands a test registers; removed afterwards so the table stays as shipped."""
    names: list[str] = []
    yield names
    for name in names:
        COMMANDS.pop(name, None)


async def _nothing(ctx: object) -> Reply:
    return Reply.text("nothing")


def test_aliases_and_console_commands(scratch_names: list[str]) -> None:
    scratch_names.append("zz-console")
    handler = command(
        "zz-console", usage="/zz-console", summary="Test.", access=CONSOLE, aliases=("zzc",)
    )(_nothing)
    COMMANDS["zz-console"] = spec_of(handler)
    assert lookup("zzc") is COMMANDS["zz-console"]
    assert COMMANDS["zz-console"] not in public_commands()
    assert all(c.access != CONSOLE for c in public_commands())


def test_param_defaults() -> None:
    p = Param("name", "player", "the player")
    assert p.required and p.choices == ()


# -- permissions: enumerate the table ----------------------------------------------------------

ORGANISER_TABLE = [COMMANDS[name] for name in ORGANISER_COMMANDS]


@pytest.fixture
async def busy(tmp_path: Path) -> AsyncIterator[FakeChat]:
    """A club with players, a game and an open tournament: something to get wrong."""
    chat = await FakeChat.open(
        tmp_path, players=("Nagy Péter 5k", "Kovács Anna 2d 2090", "Szabó Éva 5k")
    )
    try:
        await chat.ok("/result Nagy Péter Kovács Anna B+")
        await chat.ok('/tournament new Spring Cup rounds=5 time="60m 3x30s" even')
        yield chat
    finally:
        await chat.close()


@pytest.mark.parametrize("cmd", ORGANISER_TABLE, ids=lambda c: c.name)
async def test_a_player_is_refused_every_organiser_command(
    busy: FakeChat, cmd: CommandSpec
) -> None:
    refusal = (
        f"/{cmd.name} is for the organisers of Budapest Go Club: chat administrators and the "
        "people an organiser adds with /club organiser add."
    )
    whole = () if cmd.name in MIXED else (cmd.usage, f"/{cmd.name}")
    for line in (*cmd.examples, *whole):
        said = await busy.refused(line, as_=MEMBER)
        assert said.text.startswith(refusal), line
        assert said.text.endswith("Nothing was changed."), line
        assert said.reply.private, line  # the refusal goes to the caller only, where it can
    said = await busy.refused(
        f"/{cmd.name} import", as_=MEMBER, attachment=b"; EV[x]\n", attachment_name="x.h9"
    )
    assert said.text.startswith(refusal)


@pytest.mark.parametrize("cmd", ORGANISER_TABLE, ids=lambda c: c.name)
async def test_organisers_pass_the_permission_check(busy: FakeChat, cmd: CommandSpec) -> None:
    for who in (ADMIN, NAMED):
        said = await busy.say(cmd.examples[0], as_=who)
        assert "is for the organisers" not in said.text, who


@pytest.mark.parametrize("name", PLAYER_COMMANDS)
async def test_players_pass_the_permission_check(busy: FakeChat, name: str) -> None:
    said = await busy.say(COMMANDS[name].examples[0], as_=MEMBER)
    assert "is for the organisers" not in said.text


async def test_a_removed_organiser_is_refused_again(chat: FakeChat) -> None:
    await chat.ok("/club organiser add telegram:300")
    await chat.ok("/register Nagy Péter 5k", as_=MEMBER)
    await chat.ok("/club organiser remove telegram:300")
    said = await chat.refused("/register Kovács Anna 5k", as_=MEMBER)
    assert said.text.startswith("/register is for the organisers")


def test_an_actions_error_shows_the_usage_of_that_action_alone() -> None:
    from bot.core.command_table import COMMANDS

    club = COMMANDS["club"]
    assert club.usage_of("set tensuusei.anchor lots") == (
        "/club set KEY VALUE [from=YYYY-MM-DD]",
        next(e for e in club.examples if e.startswith("/club set ")),
    )
    assert club.usage_of("timezone Mars") == (
        "/club timezone ZONE",
        "/club timezone Europe/Budapest",
    )
    assert club.usage_of("frobnicate") == (club.usage, club.examples[0])  # no such action
    rating = COMMANDS["rating"]
    assert rating.usage_of("set x") == (rating.usage, rating.examples[0])  # no actions


def test_help_text_speaks_the_conversations_language() -> None:
    async def handler(ctx: object) -> Reply:
        raise AssertionError("never run")

    spec = spec_of(
        command(
            "demo",
            usage="/demo NAME [h=N]",
            summary="Already done.",
            examples=("/demo Nagy h=2",),
            access=ORGANISER,
            options=(Option("h", "int", "Results table"),),
        )(handler)  # type: ignore[arg-type]
    )
    assert spec.help_text() == (
        "/demo NAME [h=N]\nAlready done.\nOptions:\nh=N — Results table\n"
        "Examples: /demo Nagy h=2\nFor organisers."
    )
    with using("ja"):
        text = spec.help_text()
    assert text == (
        "/demo 名前 [h=N]\n処理済みです。\nオプション：\nh=N — 結果表\n"
        "例：/demo Nagy h=2\n幹事専用です。"
    )


# -- placeholders in the reader's language (issue 24) ----------------------------------------


def test_the_placeholders_of_a_usage_line_are_its_capital_words_not_keys_or_values() -> None:
    line = "/demo BLACK WHITE RESULT [h=N] [result=W+] [C=NN] [class=A-D] (h9/XML/CSV) [all]"
    assert placeholder_words(line) == ["BLACK", "WHITE", "RESULT", "N", "NN"]
    assert placeholder_words("/tick DURATION | YYYY-MM-DD HH:MM") == [
        "DURATION",
        "YYYY-MM-DD",
        "HH:MM",
    ]
    assert placeholder_words("/link NÉV [account=PLATFORM:ID]") == ["PLATFORM:ID"]


@pytest.mark.parametrize("cmd", list(dict.fromkeys(COMMANDS.values())), ids=lambda c: c.name)
def test_every_placeholder_a_command_shows_can_be_translated(cmd: CommandSpec) -> None:
    """A capital word of a usage line, an option's placeholder (/help) or a placeholder the
    parser's refusals name (the params it reads) that is not in PLACEHOLDERS would stay
    English in every language."""
    shown = [cmd.usage, *(o.metavar for o in cmd.options)]
    shown.extend(p.metavar for layout in cmd.layouts() for p in layout.params)
    words = {w for text in shown for w in placeholder_words(text)}
    assert words <= set(PLACEHOLDERS), sorted(words - set(PLACEHOLDERS))


def test_a_usage_line_is_shown_exactly_as_declared_in_english() -> None:
    for cmd in COMMANDS.values():
        assert cmd.usage_text() == cmd.usage
        assert placeholders(cmd.usage) == cmd.usage
