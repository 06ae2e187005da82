"""Several processes appending results at once: ``hoshi bench``'s writers phase.

Each writer is a process of its own (``python3 -m benchmarks.writers TARGET --club N
--writer W --games K …``): it opens the database, makes the club's ledgers ready (untimed),
says it is ready, waits for the word, then records ``K`` club games one at a time through
storage as ``/result`` does (``storage.record_game``). Every game carries a tag of its own in
its log entry's ``chat`` (``bench:RUN:W:I``), and the writer reports what it got back for each
acknowledged one (the game's log position and club number) and the error of each refused one.

:func:`writers` runs ``n`` of them at once — all on one club, or each on a club of its own —
(the parent starts them one after another, each once the one before is ready, then releases
them together) and counts in the log afterwards: an acknowledged game missing is **lost**; a
tag present twice, or a club number given twice, is **doubled**; a game present that its
writer did not see acknowledged (a writer that died after the commit) is counted apart.
Throughput is the acknowledged games over the span from the first writer's
start to the last writer's end.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import random
import statistics
import sys
import time
from collections import Counter
from typing import Any

import storage
from benchmarks.start import child_env, fixed_clock, peak_rss_mb
from engine.types import Result
from storage.db import Database
from storage.projections import ledgers_for

READY = "ready"
GO = "go\n"


def tag(run: str, writer: int, index: int) -> str:
    """The ``chat`` of game ``index`` of ``writer`` in run ``run``."""
    return f"bench:{run}:{writer}:{index}"


async def _players(db: Database, club: int) -> list[int]:
    return [
        pid
        for (pid,) in await db.fetchall(
            "SELECT seq FROM players WHERE club = ? AND guest = 0 ORDER BY seq", (club,)
        )
    ]


async def _writer(args: argparse.Namespace) -> dict[str, Any]:
    db = await storage.open_db(args.target, clock=fixed_clock)
    try:
        began = time.perf_counter()
        async with db.transaction() as tx:
            await ledgers_for(db, tx, args.club)
        warm_s = time.perf_counter() - began
        rng = random.Random(f"{args.seed}:{args.run}:{args.writer}")
        players = await _players(db, args.club)
        day = dt.date.fromisoformat(args.day)
        print(json.dumps({READY: True, "warm_s": warm_s}), flush=True)
        word = await asyncio.to_thread(sys.stdin.readline)
        if word != GO:
            raise SystemExit(f"expected {GO!r} on stdin, got {word!r}")
        acked: list[list[int]] = []
        failed: list[list[Any]] = []
        took: list[float] = []
        started_at = time.time()
        for index in range(args.games):
            black, white = rng.sample(players, 2)
            game = storage.new_game(
                black,
                white,
                Result.BLACK if rng.random() < 0.5 else Result.WHITE,
                stones=0,
                komi=6,
                date=day,
            )
            asked = time.perf_counter()
            try:
                recorded = await storage.record_game(
                    db,
                    args.club,
                    game,
                    actor=f"bench:writer{args.writer}",
                    chat=tag(args.run, args.writer, index),
                )
            except Exception as error:  # counted and reported, the run goes on
                failed.append([index, f"{type(error).__name__}: {error}"])
                continue
            took.append(time.perf_counter() - asked)
            acked.append([index, recorded.row.id, recorded.row.number])
        ended_at = time.time()
        return {
            "writer": args.writer,
            "warm_s": warm_s,
            "started_at": started_at,
            "ended_at": ended_at,
            "acked": acked,
            "failed": failed,
            "append_ms": [s * 1000 for s in took],
            "rss_mb": peak_rss_mb(),
            "full_folds": int(getattr(db.projections, "full_folds", -1)),
        }
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.writers", description=__doc__)
    parser.add_argument("target", help="the database: a SQLite path or a postgresql:// URL")
    parser.add_argument("--club", type=int, required=True)
    parser.add_argument("--writer", type=int, required=True, help="this writer's number")
    parser.add_argument("--games", type=int, required=True, help="games to append")
    parser.add_argument("--run", required=True, help="the run's name (in every game's tag)")
    parser.add_argument("--day", required=True, help="the games' date, YYYY-MM-DD")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    result = asyncio.run(_writer(args))
    print(json.dumps(result), flush=True)
    return 0


# --- the parent's side ---------------------------------------------------------------------


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, round(q * len(ordered) + 0.5) - 1))
    return ordered[index]


async def _line(process: asyncio.subprocess.Process, timeout: float) -> dict[str, Any]:
    assert process.stdout is not None
    raw = await asyncio.wait_for(process.stdout.readline(), timeout)
    if not raw:
        assert process.stderr is not None
        await process.wait()
        err = (await process.stderr.read()).decode(errors="replace")
        raise RuntimeError(f"a writer ended without an answer ({process.returncode}): {err}")
    found: dict[str, Any] = json.loads(raw)
    return found


async def writers(
    db: Database,
    target: str,
    clubs: list[int],
    games: int,
    day: dt.date,
    *,
    run: str,
    seed: int = 1,
    timeout: float = 1800,
) -> dict[str, Any]:
    """One writer process per entry of ``clubs`` (the same club any number of times, or
    clubs of their own), each appending ``games`` games to its club, all at once (once each
    is ready: they are started one after another); then the
    log counted through ``db`` (module docstring). Returns the figures.

    Raises:
        RuntimeError: a writer failed to start or to answer (with its error output).
    """
    processes = []
    ready = []
    try:
        # started one at a time, each once the one before is ready: a set-up folds the club's
        # tail in a write transaction, and writers started together waited for each other's
        # past SQLite's busy timeout ("database is locked" at 20,000 games); untimed anyway
        for writer, club in enumerate(clubs):
            processes.append(
                await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-m",
                    "benchmarks.writers",
                    target,
                    "--club",
                    str(club),
                    "--writer",
                    str(writer),
                    "--games",
                    str(games),
                    "--run",
                    run,
                    "--day",
                    day.isoformat(),
                    "--seed",
                    str(seed),
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE,
                    env=child_env(),
                )
            )
            ready.append(await _line(processes[-1], timeout))
        for process in processes:
            assert process.stdin is not None
            process.stdin.write(GO.encode())
            await process.stdin.drain()
        reports = [await _line(process, timeout) for process in processes]
        for process in processes:
            await asyncio.wait_for(process.wait(), timeout)
    finally:
        for process in processes:
            if process.returncode is None:
                process.kill()
                await process.wait()
    counted = await count(db, sorted(set(clubs)), run, reports)
    acked = sum(len(report["acked"]) for report in reports)
    span = max(r["ended_at"] for r in reports) - min(r["started_at"] for r in reports)
    took = [ms for report in reports for ms in report["append_ms"]]
    return {
        "writers": len(clubs),
        "clubs": len(set(clubs)),
        "games_each": games,
        "acked": acked,
        "failed": sum(len(report["failed"]) for report in reports),
        "errors": sorted({error for report in reports for _, error in report["failed"]})[:5],
        "seconds": span,
        "games_per_s": acked / span if span > 0 else 0.0,
        "append_p50_ms": statistics.median(took) if took else 0.0,
        "append_p99_ms": _percentile(took, 0.99) if took else 0.0,
        "warm_s": max(r["warm_s"] for r in ready),
        "writer_rss_mb": max(report["rss_mb"] for report in reports),
        "full_folds": sum(max(0, report["full_folds"]) for report in reports),
        **counted,
    }


async def count(
    db: Database, clubs: list[int], run: str, reports: list[dict[str, Any]]
) -> dict[str, int]:
    """What the log holds of run ``run`` against what each writer was told: ``lost`` (an
    acknowledged game absent), ``doubled`` (each extra copy of a tag, plus each extra holder
    of a club number), ``mismatched`` (present once, at another log position or number than
    the writer was told), ``unacknowledged`` (present, never acknowledged)."""
    rows = await db.fetchall(
        "SELECT log.chat, games.seq, games.number FROM games JOIN log ON log.seq = games.seq "
        "WHERE log.chat LIKE ?",
        (f"bench:{run}:%",),
    )
    held = Counter(chat for chat, _, _ in rows)
    where = {chat: (seq, number) for chat, seq, number in rows}
    told = {
        tag(run, report["writer"], index): (seq, number)
        for report in reports
        for index, seq, number in report["acked"]
    }
    doubled = sum(times - 1 for times in held.values() if times > 1)
    for club in clubs:
        numbers = await db.fetchall(
            "SELECT number, COUNT(*) FROM games WHERE club = ? AND number IS NOT NULL "
            "GROUP BY number HAVING COUNT(*) > 1",
            (club,),
        )
        doubled += sum(int(times) - 1 for _, times in numbers)
    return {
        "present": len(rows),
        "lost": sum(1 for chat in told if held[chat] == 0),
        "doubled": doubled,
        "mismatched": sum(
            1 for chat, got in told.items() if held[chat] == 1 and where[chat] != got
        ),
        "unacknowledged": sum(times for chat, times in held.items() if chat not in told),
    }


if __name__ == "__main__":
    raise SystemExit(main())
