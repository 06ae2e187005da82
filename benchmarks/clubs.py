"""Many small clubs in one database (issue 23, Build 5: a hosted hoshi holds thousands of
clubs): ``hoshi bench --clubs N --games-per-club M``.

:func:`load` bulk-loads ``N`` clubs of their own (``storage.bulk.bulk_load_clubs``: ``M`` club
games among ``M / 5`` players over a year each, their projections built, many clubs in a
transaction), each bound to a Telegram chat.
Then a fresh process (``python3 -m benchmarks.clubs TARGET …``) starts as ``hoshi run``
does — the database opened, the log followed (``storage.follow``), the command core made —
and reports in three stages (benchmarks.children):

1. **ready** — when it could answer, from the process's start (interpreter and imports
   included: the parent measures from the moment it started it), and its RSS;
2. **cold** — ``/rating NAME`` in each of the sampled clubs (never touched since the start),
   through ``Core.handle`` as a player in the club's chat: each club's first command;
3. **sweep** — the scheduler's first run over every club (``Scheduler.start``, no timers),
   which ``hoshi run`` makes at its start; the clock stands a month after the clubs'
   histories, where nothing of them is due.

The process's peak RSS is read after each stage.
"""

from __future__ import annotations

import time

IMPORTED = time.perf_counter()  # before the imports below, which the start pays

import argparse  # noqa: E402
import asyncio  # noqa: E402
import datetime as dt  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
from collections.abc import Callable, Iterator  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import storage  # noqa: E402
from benchmarks.children import staged  # noqa: E402
from benchmarks.federation import START, Shape, after_history, federation  # noqa: E402
from benchmarks.start import peak_rss_mb  # noqa: E402
from bot.clock import FakeClock  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.core.app import Core  # noqa: E402
from bot.core.invocation import Caller, Invocation  # noqa: E402
from bot.core.replies import Notice  # noqa: E402
from bot.core.scheduler import Scheduler  # noqa: E402
from storage.bulk import BulkClub, bulk_load_clubs  # noqa: E402
from storage.db import Database  # noqa: E402

SYSTEM = "mgsz"
PLAYER = Caller("telegram", "4242", "Bench Player")
PLAYERS_PER_GAMES = 5  # a club of 100 games has 20 players
COLD_CLUBS = 200
TIMEOUTS_S = (600.0, 900.0, 1800.0)  # ready, cold commands, the sweep
"""Each stage's limit: past the sweep's, the sweep is reported as over it."""


def players_of(games_per_club: int) -> int:
    """The players of a club of ``games_per_club`` games (at least ten)."""
    return max(10, games_per_club // PLAYERS_PER_GAMES)


def now_for(games_per_club: int) -> dt.datetime:
    """The clock of the clubs' database: noon a month after their histories (nothing due)."""
    shape = Shape.of(games_per_club, players_of(games_per_club))
    return dt.datetime.combine(after_history(shape, START), dt.time(12), tzinfo=dt.UTC)


def chat_of(index: int) -> str:
    """The Telegram chat of club ``index`` (0-based)."""
    return str(-200_000_000 - index)


async def load(
    db: Database,
    clubs: int,
    games_per_club: int,
    seed: int,
    progress: Callable[[int], None] = lambda _: None,
) -> dict[str, Any]:
    """Create and bulk-load ``clubs`` clubs (module docstring), many in a transaction
    (:func:`storage.bulk.bulk_load_clubs`); ``progress(clubs_done)``."""
    players = players_of(games_per_club)
    loaded = await bulk_load_clubs(
        db, new_clubs(clubs, games_per_club, seed), actor="bench", progress=progress
    )
    return {
        "players": sum(len(done.players) for _club, done in loaded),
        "players_per_club": players,
    }


def new_clubs(clubs: int, games_per_club: int, seed: int) -> Iterator[BulkClub]:
    """The clubs :func:`load` loads, each bound to its Telegram chat (:func:`chat_of`) with a
    history of its own (benchmarks.federation: club games only)."""
    players = players_of(games_per_club)
    for index in range(clubs):
        history = federation(
            games_per_club, seed=seed * 100_003 + index, players=players, club_share=1.0
        )
        chats = (("telegram", chat_of(index)),)
        yield BulkClub(f"Club {index + 1:05d}", SYSTEM, history, chats)


async def sample(db: Database, clubs: int, n: int, seed: int) -> list[tuple[str, str]]:
    """``n`` clubs picked at random (each once, as many as there are), each with a registered
    player's name: ``(chat, name)``."""
    rng = random.Random(seed)
    picked = rng.sample(range(clubs), min(n, clubs))
    asks = []
    for index in picked:
        club = await storage.club_for_chat(db, "telegram", chat_of(index))
        assert club is not None
        names = [p.name for p in await storage.players(db, club)]
        asks.append((chat_of(index), rng.choice(names)))
    return asks


# --- the child -----------------------------------------------------------------------------


def _stage(name: str, figures: dict[str, Any]) -> None:
    print(json.dumps({"stage": name, **figures, "rss_mb": peak_rss_mb()}), flush=True)


async def _child(args: argparse.Namespace, asks: list[tuple[str, str]]) -> None:
    began = time.perf_counter()
    clock = FakeClock(dt.datetime.fromisoformat(args.now))
    db = await storage.open_db(args.target, clock=clock)
    follower = None
    try:
        opened = time.perf_counter()
        follower = await storage.follow(db)
        config = Config(db_path=args.work / "clubs.sqlite", system=SYSTEM, charts_dir=args.work)
        core = Core(db, config, clock=clock)

        async def nowhere(_notice: Notice) -> None:
            """Notices are composed, then dropped (no chat to post to)."""

        core.deliver = nowhere
        ready = time.perf_counter()
        _stage(
            "ready",
            {
                "imports_s": began - IMPORTED,
                "open_s": opened - began,
                "ready_s": ready - began,
                "ready_at": time.time(),
            },
        )
        asked = []
        for chat, name in asks:
            started = time.perf_counter()
            reply = await core.handle(Invocation("rating", f'"{name}"', PLAYER, chat))
            asked.append(time.perf_counter() - started)
            if reply.error:
                raise RuntimeError(f"/rating {name} in chat {chat}: {reply.blocks}")
        _stage("cold", {"cold_s": asked})
        started = time.perf_counter()
        done = await Scheduler(core, nowhere, timers=False).start()
        _stage("sweep", {"s": time.perf_counter() - started, "ran": len(done)})
    finally:
        if follower is not None:
            await follower.close()
        await db.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.clubs", description=__doc__)
    parser.add_argument("target", help="the database: a SQLite path or a postgresql:// URL")
    parser.add_argument("--now", required=True, help="the clock, an ISO date and time")
    parser.add_argument("--work", type=Path, required=True, help="a directory for the config")
    args = parser.parse_args(argv)
    asks = [(chat, name) for chat, name in json.loads(sys.stdin.read())]
    asyncio.run(_child(args, asks))
    return 0


# --- the parent's side ---------------------------------------------------------------------


async def start(
    target: str, work: Path, games_per_club: int, asks: list[tuple[str, str]]
) -> dict[str, Any]:
    """Run the child (module docstring): its stages' figures, with ``spawn_to_ready_s`` (from
    the moment it was started to its core ready) and ``timed_out`` naming the stage that ran
    past its limit (``None``: none).

    Raises:
        RuntimeError: the child failed (with its error output).
    """
    arguments = [target, "--now", now_for(games_per_club).isoformat(), "--work", str(work)]
    spawned = time.time()
    found = await staged(
        "benchmarks.clubs", arguments, TIMEOUTS_S, stdin=json.dumps(asks).encode()
    )
    stages = {line.pop("stage"): line for line in found.lines}
    names = ("ready", "cold", "sweep")
    result: dict[str, Any] = {
        "timed_out": None if found.timed_out is None else names[found.timed_out],
        "timeouts_s": list(TIMEOUTS_S),
        **stages,
    }
    if "ready" in stages:
        result["spawn_to_ready_s"] = stages["ready"]["ready_at"] - spawned
    return result


if __name__ == "__main__":
    raise SystemExit(main())
