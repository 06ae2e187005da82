"""Replies speak to club members: no reply cites ``rules.md`` (our spec file, not a rulebook).

Every command's help, the help texts in the table, and a sample of replies — each command run
bare, with a nonsense argument and with a typical one, under each rating system — are scanned.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.command_table import COMMANDS
from bot.core.rate_report import MultiplierInputs, rate, read_tournament
from tests.bot.core.fakechat import ADMIN, PLAYER, FakeChat

DATA = Path(__file__).resolve().parents[2] / "engine" / "formats" / "data"
FILE_WORDS = ("rules.md", "bot.md", "formats.md")

TINY_H9 = """\
; EV[Tiny Cup]
; DT[2026-04-18,2026-04-19]
; HA[h9]
; KM[6.5]
; TM[60]
;
; Pl Name           Rk Co Club
   1 Nagy Péter     5k HU Bp     2+/b0   3+/w0
   2 Kovács Anna    2d HU Bp     1-/w0   0+
   3 Tóth Ádám      3k HU Bp        0+   1-/b0
"""

# a typical use of each command (besides bare and nonsense); {tiny} is pasted as the file
TYPICAL = [
    "/rating Nagy", "/top", "/history Nagy", "/chart Nagy", "/handicap Nagy Kovács",
    "/multiplier 60m 3x30s japanese", "/multiplier 5m", "/promotion Nagy", "/promotion Kovács",
    "/result Nagy Kovács B+", "/correct 1 result=W+", "/void 1", "/undo", "/undo",
    "/tournament import committee C=90", "/tournament finalise", "/tournament list",
    "/register Új Játékos 2d", "/register Új Ember 9k", "/club show", "/club time 60m",
    "/export csv", "/report Nagy Kovács B+", "/override Nagy rank=4k reason=test",
    "/egf Kovács 2100 2026-03", "/help", "/tick 1d",
]  # fmt: skip


def no_file_citation(text: str, where: str) -> None:
    for word in FILE_WORDS:
        assert word not in text, f"{where} cites {word}: {text!r}"


# Texts engine/ writes, swept by another helper of the same issue (1/5): listed so that this
# test guards every other reply now. Once engine/ is swept these no longer appear; then empty
# this list (a line with a citation and none of these fragments fails the test either way).
FROM_ENGINE: tuple[str, ...] = ()  # engine/ names the rulebooks' paragraphs now too


def citations(text: str) -> list[str]:
    """Each line of ``text`` that names one of our spec files (engine/'s own lines aside)."""
    return [
        line
        for line in text.splitlines()
        if any(word in line for word in FILE_WORDS)
        and not any(fragment in line for fragment in FROM_ENGINE)
    ]


def test_the_command_tables_help_texts_cite_no_file() -> None:
    for command in COMMANDS.values():
        details = command.details if isinstance(command.details, tuple) else (command.details,)
        texts = [command.usage, command.summary, *details, *command.examples]
        texts += [param.description for param in command.params]
        texts += [option.help for option in command.options]
        no_file_citation("\n".join(texts), f"/{command.name}'s help")
        no_file_citation(command.help_text(), f"/{command.name}'s help text")


@pytest.fixture(params=["mgsz", "tensuusei", "swedish", "psg"])
async def chat(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[FakeChat]:
    fake = await FakeChat.open(
        tmp_path, request.param, players=("Nagy Péter 6k", "Kovács Anna 7k", "Tóth Ádám 8k")
    )
    try:
        yield fake
    finally:
        await fake.close()


async def test_help_and_a_sample_of_replies_cite_no_file(chat: FakeChat) -> None:
    lines = [f"/help {name}" for name in COMMANDS]
    lines += [f"/{name}" for name in COMMANDS] + [f"/{name} zzz 999 x=y" for name in COMMANDS]
    lines += TYPICAL
    found: set[tuple[str, str]] = set()
    for line in lines:
        for caller in (ADMIN, PLAYER):
            said = await chat.say(
                line,
                as_=caller,
                attachment=TINY_H9.encode() if "import" in line else None,
                attachment_name="tiny.h9" if "import" in line else None,
            )
            found.update((line.split()[0], c) for c in citations(said.text))
    assert not found, "\n".join(f"{command}: {text}" for command, text in sorted(found))


def test_hoshi_rate_cites_no_file() -> None:
    cup = DATA / "spring_cup_40x5.h9"
    tf = read_tournament(cup.read_bytes(), cup.name)
    for system in ("mgsz", "tensuusei", "swedish", "psg"):
        for inputs in (MultiplierInputs(), MultiplierInputs(manual=70)):  # 70: a split
            found = citations(rate(tf, system, (), inputs).as_table())
            assert not found, f"hoshi rate ({system}): {found}"


def test_the_command_lines_help_cites_no_file() -> None:
    import argparse

    from bot.cli import parser_of_hoshi

    parser = parser_of_hoshi()
    texts = [parser.format_help()]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            texts += [sub.format_help() for sub in action.choices.values()]
    assert len(texts) > 5
    for text in texts:
        no_file_citation(text, "hoshi --help")
