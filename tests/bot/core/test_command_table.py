"""The explicit command table: one spec per command drives parsing, usage and help."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core import command_table
from bot.core.commands import CommandSpec, Option, Param, command, spec_of
from bot.core.replies import Reply
from tests.bot.core.fakechat import ADMIN, FakeChat

TABLE = list(command_table.COMMANDS.values())


@pytest.fixture
async def chat(tmp_path: Path) -> AsyncIterator[FakeChat]:
    chat = await FakeChat.open(tmp_path, "tensuusei")
    try:
        yield chat
    finally:
        await chat.close()


async def _nothing(ctx: object) -> Reply:
    return Reply.text("nothing")


def test_the_decorator_attaches_a_spec_and_registers_nothing() -> None:
    before = dict(command_table.COMMANDS)
    handler = command("zz-new", usage="/zz-new [x=N]", summary="Test.",
                      options=(Option("x", "int", "a number"),))(_nothing)  # fmt: skip
    assert before == command_table.COMMANDS
    spec = spec_of(handler)
    assert spec.name == "zz-new" and spec.handler is _nothing
    assert spec.option_keys() == ("x",)


def test_the_table_lists_each_handler_explicitly() -> None:
    names = [spec_of(h).name for h in command_table.HANDLERS]
    assert names == list(command_table.COMMANDS)
    assert len(set(names)) == len(names)
    assert all(command_table.COMMANDS[spec_of(h).name].handler is spec_of(h).handler
               for h in command_table.HANDLERS)  # fmt: skip


def test_a_table_with_a_name_twice_is_refused() -> None:
    handler = command("zz-twice", usage="/zz-twice", summary="Test.")(_nothing)
    with pytest.raises(ValueError, match="twice"):
        command_table.build((handler, handler))


@pytest.mark.parametrize(
    ("usage", "problem"),
    [("/zz [h=N]", "komi="), ("/zz [h=N] [komi=K] [board=N]", "board="), ("/other", "/zz")],
)
def test_a_usage_line_that_disagrees_with_the_spec_is_refused(usage: str, problem: str) -> None:
    with pytest.raises(ValueError, match=re.escape(problem)):
        options = (Option("h", "int", "stones"), Option("komi", "text", "komi"))
        CommandSpec("zz", usage, "Test.", handler=_nothing, options=options)


@pytest.mark.parametrize("cmd", TABLE, ids=lambda c: c.name)
def test_every_usage_line_names_exactly_the_options_the_parser_takes(cmd: CommandSpec) -> None:
    in_usage = {key.lower() for key in re.findall(r"\b([A-Za-z_]+)=", cmd.usage)}
    assert in_usage == set(cmd.option_keys())
    for action in cmd.actions:
        assert set(cmd.option_keys(action.name)) <= set(cmd.option_keys())


@pytest.mark.parametrize("cmd", TABLE, ids=lambda c: c.name)
def test_help_text_explains_every_option(cmd: CommandSpec) -> None:
    text = cmd.help_text()
    for option in cmd.options:
        assert f"{option.key}={option.metavar} — {option.help}" in text


async def test_help_for_result_lists_time_and_board(chat: FakeChat) -> None:
    said = await chat.ok("/help result")
    assert "time=TIME — " in said.text and "board=N — " in said.text


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        ("/result Nagy Kovács B+ zz=1", "/result has no option zz=; it takes h=, komi=, date=, "
         "time=, board="),
        ("/tournament new Cup t=Spring", "/tournament new has no option t=; it takes start=, "
         "end=, rounds=, board=, time=, reduce=, c=, participants=, class=, pairing=, bar=, "
         "floor=, handicap=, order= (t= goes with /tournament result)"),
        ("/tournament finalise Cup zz=1", "/tournament finalise takes no key=value options"),
        ("/undo zz=1", "/undo takes no key=value options"),
    ],
)  # fmt: skip
async def test_an_option_outside_the_spec_is_refused_naming_the_accepted(
    chat: FakeChat, line: str, reply: str
) -> None:
    said = await chat.refused(line, as_=ADMIN)
    assert said.text.startswith(reply), said.text
    assert "Usage: /" in said.text  # and the right form, with an example


def test_discord_positional_params_and_options_do_not_share_names() -> None:
    for cmd in TABLE:
        positional = {p.name for p in cmd.params}
        assert not positional & set(cmd.option_keys()), cmd.name
        assert all(isinstance(p, Param) for p in cmd.params)


def test_a_required_option_cannot_follow_an_optional_argument() -> None:
    with pytest.raises(ValueError, match="required option after an optional argument"):
        CommandSpec("zz", "/zz [N] why=X", "Test.", handler=_nothing,
                    params=(Param("n", "int", "a number", required=False),),
                    options=(Option("why", "text", "why", required=True),))  # fmt: skip


def test_no_handler_reads_options_outside_its_spec() -> None:
    """Handlers parse with ``ctx.args()``, whose options come from the spec; ``Args.read``
    with a set of its own would let the parser and the spec disagree again."""
    handlers = Path(command_table.__file__).parent / "handlers"
    for source in sorted(handlers.glob("*.py")):
        text = source.read_text(encoding="utf-8")
        assert "Args.read(" not in text, source.name
        assert not re.search(r"ctx\.args\(\s*[{(A-Z]", text), source.name
