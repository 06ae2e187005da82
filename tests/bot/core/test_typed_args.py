"""The declaration drives the call (bot.core.commands, bot.core.parse): arguments dataclasses
checked against their specs, the one parser, Discord's values, and no hand parsing left in the
converted handlers."""

from __future__ import annotations

import ast
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.commands import Flag, GameResult, Option, Param, command, spec_of
from bot.core.errors import BadArgument
from bot.core.parse import (
    Reader,
    Token,
    as_values,
    fill_arguments,
    read_arguments,
    read_result,
    render_arguments,
)
from bot.core.replies import Reply
from engine.ranks import Rank
from storage.records import Player

HANDLERS = Path(__file__).resolve().parents[3] / "bot" / "core" / "handlers"
CONVERTED = tuple(sorted(p.name for p in HANDLERS.glob("*.py") if p.name != "__init__.py"))
"""Handler modules: every one takes (ctx, args) and parses no words by hand."""
TODAY = dt.date(2026, 4, 20)


@pytest.mark.parametrize("module", CONVERTED)
def test_converted_handlers_parse_no_positional_words_by_hand(module: str) -> None:
    tree = ast.parse((HANDLERS / module).read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("args", "words"):
            found.append(f"line {node.lineno}: .{node.attr}")
        if isinstance(node, ast.Name) and node.id in ("join", "Token", "positive_int"):
            found.append(f"line {node.lineno}: {node.id}")
    # ``args.`` is the dataclass parameter itself: only ``ctx.args(...)`` is hand parsing
    calls = [f for f in found if not f.endswith(".args")]
    ctx_args = [
        n.lineno
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == "args"
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id == "ctx"
    ]
    assert not calls and not ctx_args, (module, calls, ctx_args)


@dataclass(frozen=True, slots=True)
class SampleArgs:
    n: int
    text: str = ""
    rank: Rank | None = None
    result: GameResult | None = None
    day: dt.date | None = None
    colour: str | None = None
    all: bool = False


async def sample(ctx: object, args: SampleArgs) -> Reply:
    return Reply.text(str(args))


SAMPLE = spec_of(
    command(
        "sample",
        usage="/sample N [TEXT] [RANK] [RESULT] [day=YYYY-MM-DD] [colour=C] [all]",
        summary="a test command",
        examples=("/sample 3 hello 5k B+",),
        params=(
            Param("n", "int", "a number", high=50),
            Param("text", "text", "words", required=False),
            Param("rank", "rank", "a rank", required=False),
            Param("result", "result", "a result", required=False),
        ),
        options=(
            Option("day", "date", "a day"),
            Option("colour", "choice", "a colour", choices=("black", "white")),
        ),
        flags=(Flag("all", "everything"),),
    )(sample)
)


@dataclass(frozen=True, slots=True)
class Drifted:
    n: int
    stray: str = ""


@dataclass(frozen=True, slots=True)
class Wrong:
    n: str


def test_the_spec_finds_its_dataclass_in_the_handler() -> None:
    assert SAMPLE.arguments is SampleArgs and SAMPLE.typed


def test_a_field_the_declaration_does_not_name_is_refused() -> None:
    async def drifted(ctx: object, args: Drifted) -> Reply:
        return Reply.text("")

    with pytest.raises(ValueError, match="stray"):
        command("drifted", usage="/drifted N", summary="", params=(Param("n", "int", ""),))(
            drifted
        )


def test_a_field_of_the_wrong_type_is_refused() -> None:
    async def wrong(ctx: object, args: Wrong) -> Reply:
        return Reply.text("")

    with pytest.raises(ValueError, match=r"Wrong\.n"):
        command("wrong", usage="/wrong N", summary="", params=(Param("n", "int", ""),))(wrong)


WORDS = st.text(alphabet="abcdefghij", min_size=1, max_size=6).filter(
    lambda w: w not in ("all",) and read_result(w) is None
)


@given(
    n=st.integers(1, 50),
    text=st.lists(WORDS, max_size=3).map(" ".join),
    rank=st.none() | st.sampled_from([Rank.parse(r) for r in ("5k", "1d", "30k", "7d")]),
    result=st.none() | st.sampled_from(["B+", "W+R", "W+3.5", "jigo"]),
    day=st.none() | st.dates(dt.date(1900, 1, 1), TODAY),
    colour=st.none() | st.sampled_from(["black", "white"]),
    everything=st.booleans(),
)
async def test_any_arguments_written_out_read_back_the_same(
    n: int,
    text: str,
    rank: Rank | None,
    result: str | None,
    day: dt.date | None,
    colour: str | None,
    everything: bool,
) -> None:
    args = SampleArgs(
        n, text, rank, None if result is None else read_result(result), day, colour, everything
    )
    line = render_arguments(SAMPLE, as_values(args))
    assert await read_arguments(SAMPLE, line, Reader(TODAY)) == args, line


async def test_the_parser_refuses_with_the_argument_and_the_value() -> None:
    with pytest.raises(BadArgument, match="N must be 1–50, not 51"):
        await read_arguments(SAMPLE, "51", Reader(TODAY))
    with pytest.raises(BadArgument, match="colour must be one of black, white, not “red”"):
        await read_arguments(SAMPLE, "1 colour=red", Reader(TODAY))
    with pytest.raises(BadArgument, match=r"N is missing, e\.g\. /sample 3"):
        await read_arguments(SAMPLE, "", Reader(TODAY))


class FakeNames:
    """The club's names, as a list (the parser's Names port)."""

    def __init__(self, *names: str) -> None:
        self.players = [
            Player(i, 1, name, Rank.parse("5k"), TODAY) for i, name in enumerate(names, start=1)
        ]

    async def player(self, name: str) -> Player:
        found = [p for p in self.players if p.name.lower() == name.lower()]
        if len(found) != 1:
            raise BadArgument(f"no player called {name!r}")
        return found[0]

    async def pair(
        self, tokens: Sequence[Token], what: str, at: int | None = None
    ) -> tuple[Player, Player]:
        texts = [t.text for t in tokens]
        at = at if at is not None else 1
        return await self.player(" ".join(texts[:at])), await self.player(" ".join(texts[at:]))


async def test_discord_values_fill_the_same_dataclass_as_the_line() -> None:
    from bot.core.handlers.games import result

    spec = spec_of(result)
    names = FakeNames("Nagy Péter", "Kovács Anna")
    reader = Reader(TODAY, names)
    typed = await read_arguments(spec, '"Nagy Péter" "Kovács Anna" W+R h=2', reader)
    values = {"black": "Nagy Péter", "white": "Kovács Anna", "result": "W+R", "h": 2}
    assert await fill_arguments(spec, values, reader) == typed
    assert typed.h == 2 and typed.result == read_result("W+R")  # type: ignore[attr-defined]


async def test_beat_splits_the_names_where_it_stands() -> None:
    from bot.core.handlers.games import result

    reader = Reader(TODAY, FakeNames("Kiss", "Tóth Ádám"))
    args = await read_arguments(spec_of(result), "Kiss beat Tóth Ádám h=3 again", reader)
    assert (args.black.name, args.white.name) == ("Kiss", "Tóth Ádám")  # type: ignore[attr-defined]
    assert args.beat and args.again and args.result is None  # type: ignore[attr-defined]
