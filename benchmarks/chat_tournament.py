"""``hoshi bench``'s club tournament run from the chat (issue 25): a 64-player, 4-round
McMahon with the club system's handicaps, paired, published (with what is at stake on every
board), its results reported and its standings asked after each round, through the command
core in the federation's club (its full history behind every ledger the commands read).

Each command's seconds are kept; the table shows the slowest of each kind, so a command that
grows with the field or with the club's history shows up here before a club meets it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from benchmarks.club_work import ORGANISER, Asker, text_of
from bot.core.invocation import Invocation
from bot.core.replies import Table

PLAYERS = 64
ROUNDS = 4
KINDS = ("add", "pair", "publish", "result", "standings", "picture", "export")


def _boards(table: Table) -> list[tuple[str, str]]:
    """The (Black, White) names of a published round's table."""
    return [(row[1], row[2]) for row in table.rows]


async def chat_tournament(ask: Asker, names: Sequence[str], seed: int) -> dict[str, Any]:
    """Run the tournament; each kind of command's slowest and total seconds."""
    rng = random.Random(seed)
    field = rng.sample(list(names), min(PLAYERS, len(names)))
    seconds: dict[str, list[float]] = {kind: [] for kind in KINDS}
    await ask(
        "tournament",
        f"new Bench Club Cup rounds={ROUNDS} pairing=mcmahon bar=3d floor=20k handicap=system",
        ORGANISER,
    )
    seconds["add"].append(await ask("tournament", "add " + ", ".join(field), ORGANISER))
    for _round in range(ROUNDS):
        seconds["pair"].append(await ask("tournament", "pair", ORGANISER))
        inv = Invocation(
            "tournament", "publish", ORGANISER, ask.chat, delivery=f"bench:publish:{_round}"
        )
        started = time.perf_counter()
        reply = await ask.core.handle(inv)
        seconds["publish"].append(time.perf_counter() - started)
        table = next((b for b in reply.blocks if isinstance(b, Table)), None)
        if reply.error or table is None:
            raise RuntimeError(f"/tournament publish: {text_of(reply)}")
        for black, white in _boards(table):
            result = rng.choice(("B+", "W+", "B+R", "W+3.5"))
            typed = f'"{black}" "{white}" {result}'
            seconds["result"].append(await ask("result", typed, ORGANISER))
        seconds["standings"].append(await ask("tournament", "standings"))
        seconds["picture"].append(await ask("tournament", "standings picture"))
    seconds["export"].append(await ask("export", "h9 Bench Club Cup", ORGANISER))
    return {
        "players": len(field),
        "rounds": ROUNDS,
        **{f"{kind}_max_ms": max(found) * 1000 for kind, found in seconds.items()},
        **{f"{kind}_count": len(found) for kind, found in seconds.items()},
    }


def lines(found: dict[str, Any]) -> list[str]:
    """The table's lines for :func:`chat_tournament`'s figures."""
    shown = [
        f"a club tournament run from the chat: {found['players']} players × "
        f"{found['rounds']} McMahon rounds, handicaps by the club's system (slowest of each):"
    ]
    labels = {
        "add": "/tournament add (the whole field)",
        "pair": "/tournament pair",
        "publish": "/tournament publish (with each board's stakes)",
        "result": "/result on a board",
        "standings": "/tournament standings",
        "picture": "/tournament standings picture",
        "export": "/export h9",
    }
    for kind in KINDS:
        shown.append(
            f"  {labels[kind]:<48} {found[f'{kind}_max_ms']:8.1f} ms"
            f"  ({found[f'{kind}_count']} asked)"
        )
    return shown
