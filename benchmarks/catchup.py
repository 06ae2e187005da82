"""Catch-up work, each case in a fresh process on a database of its own, with a time limit
(issue 23, Targets: "catch-up work grows with the facts, not with calendar days or players").

``python3 -m benchmarks.catchup TARGET --case CASE --work DIR …``:

* ``ancient`` — a club of 20 players with a year of club nights, its scheduler caught up
  (the console's hand-moved clock, a month after its last night); then, timed, as the
  console types them through the command core: ``/result A B B+ date=1900-01-01 confirm``
  (``confirm``: the date is more than a year before the club's first record, which the
  command otherwise asks about) and ``/tick 1d`` — the console's ``/tick``, which runs the
  scheduler (``Scheduler.run_due``) on the moved clock: every month from 1900 on is checked.
* ``import`` — a club with a year of games; then, timed, ``/tournament import committee``
  of an h9 file (``engine.formats.h9.write_h9``) of a tournament played before that year, of
  ``--players`` players all new to the club (``committee``: their declared ranks stand).

The child prints two JSON lines: when the club is ready (the set-up's figures), then the
timed work's (seconds, the process's peak RSS during it, the log entries it wrote).
:func:`catchup` runs it from the benchmark: the work gets ``timeout_s`` after the first line,
then the child is killed and the case reported as over the limit.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import random
import time
from pathlib import Path
from typing import Any

import storage
from benchmarks.children import staged
from benchmarks.club_work import text_of
from benchmarks.federation import Shape, after_history, federation
from benchmarks.start import peak_rss_mb, reset_peak
from bot.adapters.console import chat_id, console_club, invocation
from bot.clock import FakeClock
from bot.config import Config
from bot.core.app import Core
from bot.core.replies import Notice, Reply
from bot.core.scheduler import Scheduler
from engine.formats.h9 import write_h9
from engine.formats.tournament_file import FileGame, FilePlayer, TournamentFile
from engine.ranks import Rank
from engine.types import Result
from storage.bulk import bulk_load
from storage.db import Database
from storage.records import Club

CASES = ("ancient", "import")
CLUB_START = dt.date(2025, 1, 6)
"""The small clubs' first day (a Monday): a year of club nights, the clock a month later."""
ANCIENT_PLAYERS = 20
ANCIENT_GAMES = 200
ANCIENT_DATE = dt.date(1900, 1, 1)
IMPORT_CLUB_PLAYERS = 100
IMPORT_CLUB_GAMES = 2_000
IMPORT_PLAYERS = 1_000
IMPORT_ROUNDS = 5
IMPORT_START = dt.date(2024, 6, 1)  # a Saturday: the weekend before the club's year
TIMEOUT_S = 120.0
SETUP_TIMEOUT_S = 900.0
SYSTEM = "mgsz"


async def _count(db: Database, sql: str, club: int) -> int:
    row = await db.fetchone(sql, (club,))
    return int(row[0]) if row else 0


async def _small_club(
    db: Database, name: str, games: int, players: int, seed: int, clock: FakeClock, work: Path
) -> tuple[Club, Core]:
    """A club of its own (club games only) bound to the console, its year of history loaded,
    and its scheduler run once at the clock (the set-up; untimed)."""
    club = await console_club(db, name, SYSTEM, name)
    history = federation(games, seed=seed, players=players, start=CLUB_START, club_share=1.0)
    await bulk_load(db, club, history, actor="bench:catchup")
    config = Config(db_path=work / "catchup.sqlite", club=name, system=SYSTEM, charts_dir=work)
    core = Core(db, config, clock=clock)

    async def nowhere(_notice: Notice) -> None:
        """Notices are composed, then dropped (no chat to post to)."""

    core.deliver = nowhere
    scheduler = core.scheduler = Scheduler(core, nowhere, timers=False)
    await scheduler.start()
    return club, core


async def _ask(core: Core, club: Club, line: str) -> tuple[Reply, float]:
    started = time.perf_counter()
    reply = await core.handle(invocation(line, chat_id(club)))
    elapsed = time.perf_counter() - started
    if reply.error:
        raise RuntimeError(f"{line}: {text_of(reply)}")
    return reply, elapsed


def _clock_for(games: int, players: int) -> FakeClock:
    day = after_history(Shape.of(games, players), CLUB_START)
    return FakeClock(dt.datetime.combine(day, dt.time(12), tzinfo=dt.UTC))


def ready(figures: dict[str, Any]) -> None:
    print(json.dumps({"stage": "ready", **figures}), flush=True)


async def ancient(args: argparse.Namespace) -> dict[str, Any]:
    """The ``ancient`` case (module docstring)."""
    clock = _clock_for(ANCIENT_GAMES, ANCIENT_PLAYERS)
    db = await storage.open_db(args.target, clock=clock)
    try:
        began = time.perf_counter()
        club, core = await _small_club(
            db, "Ancient", ANCIENT_GAMES, ANCIENT_PLAYERS, args.seed, clock, args.work
        )
        a, b = [p.name for p in await storage.players(db, club)][:2]
        games_sql = "SELECT COUNT(*) FROM games WHERE club = ?"
        log_sql = "SELECT COUNT(*) FROM log WHERE club = ?"
        games, entries = await _count(db, games_sql, club.id), await _count(db, log_sql, club.id)
        ready(
            {
                "setup_s": time.perf_counter() - began,
                "players": ANCIENT_PLAYERS,
                "date": args.date.isoformat(),
                "today": clock().date().isoformat(),
            }
        )
        reset_peak()
        _reply, result_s = await _ask(
            core, club, f'/result "{a}" "{b}" B+ date={args.date.isoformat()} confirm'
        )
        if await _count(db, games_sql, club.id) != games + 1:
            raise RuntimeError("the ancient /result recorded no game")
        _reply, tick_s = await _ask(core, club, "/tick 1d")
        return {
            "result_s": result_s,
            "tick_s": tick_s,
            "s": result_s + tick_s,
            "rss_mb": peak_rss_mb(),
            "log_entries": await _count(db, log_sql, club.id) - entries,
        }
    finally:
        await db.close()


def import_file(players: int, seed: int) -> bytes:
    """An h9 file of a ``players``-player, :data:`IMPORT_ROUNDS`-round even tournament,
    everyone new to the club (names no club player has), 20k–6k, random pairings and
    results."""
    rng = random.Random(seed)
    people = tuple(
        FilePlayer(
            position=i + 1,
            line=0,
            name=f"Importee{i + 1:04d} Benchplayer",
            rank=Rank(rng.randint(-19, -5)),
            country="HU",
        )
        for i in range(players)
    )
    games = []
    for number in range(1, IMPORT_ROUNDS + 1):
        order = list(range(1, players + 1))
        rng.shuffle(order)
        for i in range(0, players - 1, 2):
            result = Result.BLACK if rng.random() < 0.5 else Result.WHITE
            games.append(FileGame(number, order[i], order[i + 1], result))
    tf = TournamentFile(
        name="Bench Import Open",
        start=IMPORT_START,
        end=IMPORT_START + dt.timedelta(days=1),
        rounds=IMPORT_ROUNDS,
        time_minutes=60,
        players=people,
        games=tuple(games),
    )
    return write_h9(tf).encode()


async def imported(args: argparse.Namespace) -> dict[str, Any]:
    """The ``import`` case (module docstring)."""
    clock = _clock_for(IMPORT_CLUB_GAMES, IMPORT_CLUB_PLAYERS)
    db = await storage.open_db(args.target, clock=clock)
    try:
        began = time.perf_counter()
        club, core = await _small_club(
            db, "Import", IMPORT_CLUB_GAMES, IMPORT_CLUB_PLAYERS, args.seed, clock, args.work
        )
        data = import_file(args.players, args.seed)
        players_sql = "SELECT COUNT(*) FROM players WHERE club = ?"
        log_sql = "SELECT COUNT(*) FROM log WHERE club = ?"
        before = await _count(db, players_sql, club.id)
        entries = await _count(db, log_sql, club.id)
        ready(
            {
                "setup_s": time.perf_counter() - began,
                "club_games": IMPORT_CLUB_GAMES,
                "players": args.players,
                "file_kb": len(data) / 1024,
            }
        )
        reset_peak()
        line = invocation("/tournament import committee", chat_id(club), data)
        started = time.perf_counter()
        reply = await core.handle(line)
        seconds = time.perf_counter() - started
        if reply.error:
            raise RuntimeError(f"/tournament import: {text_of(reply)}")
        added = await _count(db, players_sql, club.id) - before
        if added != args.players:
            raise RuntimeError(f"/tournament import added {added} players, not {args.players}")
        return {
            "players": args.players,
            "games": IMPORT_ROUNDS * (args.players // 2),
            "s": seconds,
            "rss_mb": peak_rss_mb(),
            "log_entries": await _count(db, log_sql, club.id) - entries,
        }
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.catchup", description=__doc__)
    parser.add_argument("target", help="an empty database: a SQLite path or a postgresql:// URL")
    parser.add_argument("--case", choices=CASES, required=True)
    parser.add_argument("--work", type=Path, required=True, help="a directory for the config")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--date", type=dt.date.fromisoformat, default=ANCIENT_DATE)
    parser.add_argument("--players", type=int, default=IMPORT_PLAYERS)
    args = parser.parse_args(argv)
    work = ancient if args.case == "ancient" else imported
    print(json.dumps({"stage": "done", **asyncio.run(work(args))}), flush=True)
    return 0


# --- the parent's side ---------------------------------------------------------------------


async def catchup(
    target: str,
    case: str,
    work: Path,
    *,
    seed: int = 1,
    date: dt.date = ANCIENT_DATE,
    players: int = IMPORT_PLAYERS,
    timeout_s: float = TIMEOUT_S,
) -> dict[str, Any]:
    """Run ``case`` in a child on the empty database ``target``: the set-up's figures under
    ``setup``, then the timed work's; ``timed_out`` (and no work figures) when the work took
    longer than ``timeout_s``.

    Raises:
        RuntimeError: the child failed (with its error output).
    """
    arguments = [target, "--case", case, "--work", str(work), "--seed", str(seed)]
    arguments += ["--date", date.isoformat(), "--players", str(players)]
    found = await staged("benchmarks.catchup", arguments, (SETUP_TIMEOUT_S, timeout_s))
    if not found.lines:
        raise RuntimeError(f"benchmarks.catchup {case}: the set-up took over {SETUP_TIMEOUT_S} s")
    result: dict[str, Any] = {"case": case, "setup": found.lines[0], "timeout_s": timeout_s}
    result["timed_out"] = found.timed_out is not None
    if len(found.lines) > 1:
        result |= {k: v for k, v in found.lines[1].items() if k != "stage"}
    return result


if __name__ == "__main__":
    raise SystemExit(main())
