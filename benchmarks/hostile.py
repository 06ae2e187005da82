"""Hostile lines (issue 26, item 1): what one member can send in one message to every
command and action, for ``hoshi bench``'s slowest-command phase and the hostile-input suite
(tests/reliability/test_hostile_inputs.py).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from bot.core.command_table import COMMANDS
from bot.core.commands import CONSOLE, CommandSpec
from bot.core.invocation import Caller, Invocation

WORDS = " ".join("x" for _ in range(2000))  # 4 KB, one Telegram message
LONG_WORD = "y" * 18_000
LINES = "\n".join("Nagy Péter Kovács Anna B+" for _ in range(300))
ODD = ("\u202e\u2066\u0000\ufeff\u200b" + "🀄" + "\u0301" * 3) * 400
DIGITS = " ".join("٣ ３ ٤٥ ۶" for _ in range(300))
HOSTILE = {
    "words": WORDS,
    "long word": LONG_WORD,
    "lines": LINES,
    "odd characters": ODD,
    "other digits": DIGITS,
    "quotes": '"' * 3000 + " " + "'" * 3000,
    "options": " ".join(f"k{n}=v{n}" for n in range(1500)),
}
"""Each kind of hostile text, as the rest of a line after a command (and action)."""

CRASH = "Something went wrong"


def forms(spec: CommandSpec) -> Iterator[str]:
    """How a line of ``spec`` starts: the command, and each of its actions."""
    yield f"/{spec.name}"
    for action in spec.actions:
        yield f"/{spec.name} {action.name}"


def lines() -> Iterator[tuple[str, str]]:
    """(label, line) for every command and action of the table with every hostile text."""
    for spec in COMMANDS.values():
        if spec.access == CONSOLE:
            continue
        for form in forms(spec):
            for kind, text in HOSTILE.items():
                yield f"{form} [{kind}]", f"{form} {text}"


async def slowest(core: Any, chat: str, callers: tuple[Caller, ...]) -> dict[str, Any]:
    """Every hostile line through ``core`` as each caller: the slowest command and its time,
    how many lines, and how many answered with a generic error (which must be none)."""
    worst, label_of, crashed, asked = 0.0, "", 0, 0
    for label, line in lines():
        command, _sep, text = line[1:].partition(" ")
        for caller in callers:
            asked += 1
            inv = Invocation(command, text, caller, chat, delivery=f"hostile:{asked}")
            started = time.perf_counter()
            reply = await core.handle(inv)
            elapsed = time.perf_counter() - started
            if elapsed > worst:
                worst, label_of = elapsed, f"{label} as {caller.name}"
            crashed += any(CRASH in getattr(b, "text", "") for b in reply.blocks)
    return {"slowest_ms": worst * 1000, "slowest": label_of, "lines": asked, "crashes": crashed}
