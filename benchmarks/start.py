"""A process start, timed in a fresh process: ``python3 -m benchmarks.start TARGET --club N …``.

What a bot process does after a restart before its first write: open the database, make the
club's ledgers ready (the newest valid snapshot loaded and the log's tail after it folded —
or, with no snapshot, the whole log replayed; ``storage.projections.ledgers_for``), then
record one result through storage as ``/result`` does (``storage.record_game``). The child
prints one JSON object: each step's seconds, the wall-clock time the write was committed (the
parent measures from the moment it started the process, interpreter and imports included),
the child's peak RSS and how many full replays it made. ``--verify`` then (untimed) replays
the whole log once more and compares every ledger with the ones the start produced.

:func:`start` runs the child from the benchmark (``benchmarks.bench``) and returns its
figures.
"""

from __future__ import annotations

import time

IMPORTED = time.perf_counter()  # before the imports below, which the start pays

import argparse  # noqa: E402
import asyncio  # noqa: E402
import contextlib  # noqa: E402
import datetime as dt  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
from collections.abc import Collection  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import storage  # noqa: E402
from engine.types import Result  # noqa: E402
from storage.ledgers import ClubLedgers  # noqa: E402
from storage.projections import fold, ledgers_for  # noqa: E402

NOW = dt.datetime(2030, 1, 1, 12, 0, tzinfo=dt.UTC)
ACTOR = "bench:start"


def fixed_clock() -> dt.datetime:
    return NOW


def peak_rss_mb() -> float:
    """This process's peak resident set so far (MB; Linux ``VmHWM``, else ``ru_maxrss``)."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    found = re.search(r"VmHWM:\s+(\d+) kB", status)
    return int(found.group(1)) / 1024 if found else 0.0


def reset_peak() -> None:
    """Start a new peak-RSS measurement from what the process holds now (Linux
    ``clear_refs`` 5; a no-op elsewhere)."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


def ledger_digest(ledgers: ClubLedgers, systems: Collection[str] | None = None) -> dict[str, str]:
    """A digest of each system's ledger in memory (its ``snapshot()``; only those of
    ``systems`` when given) and of what it refused."""
    found = {}
    for key, projection in sorted(ledgers.projections.items()):
        if systems is not None and key not in systems:
            continue
        snapshot = json.dumps(projection.system.snapshot(), sort_keys=True, default=str)
        found[f"ledger {key}"] = hashlib.sha256(snapshot.encode()).hexdigest()
        found[f"rejected {key}"] = repr(projection.rejected)
    found["last_seq"] = str(ledgers.last_seq)
    return found


def _full_folds(db: storage.Database) -> int:
    """The whole-log replays this process made (``Projections.full_folds``)."""
    return int(getattr(db.projections, "full_folds", -1))


async def _main(args: argparse.Namespace) -> dict[str, Any]:
    began = time.perf_counter()
    db = await storage.open_db(args.target, clock=fixed_clock)
    try:
        opened = time.perf_counter()
        async with db.transaction() as tx:
            ledgers = await ledgers_for(db, tx, args.club)
        ready = time.perf_counter()
        folds = _full_folds(db)
        folded_to = ledgers.last_seq
        day = dt.date.fromisoformat(args.day)
        recorded = await storage.record_game(
            db,
            args.club,
            storage.new_game(args.black, args.white, Result.BLACK, stones=0, komi=6, date=day),
            actor=ACTOR,
        )
        written = time.perf_counter()
        written_at = time.time()
        result: dict[str, Any] = {
            "imports_s": began - IMPORTED,
            "open_s": opened - began,
            "ledgers_s": ready - opened,
            "write_s": written - ready,
            "to_first_write_s": written - began,
            "written_at": written_at,
            "rss_mb": peak_rss_mb(),
            "full_folds": folds,
            "ledgers_seq": folded_to,
            "game": recorded.row.id,
            "number": recorded.row.number,
            "dialect": getattr(db, "dialect", "sqlite"),
        }
        if args.verify:  # the systems this process folded (the club's own, at least)
            kept = db.projections.ledgers[args.club]
            ours = ledger_digest(kept)
            async with db.transaction() as tx:
                replayed = ledger_digest(await fold(db, tx, args.club), kept.projections)
            result["verified"] = {
                "equal": ours == replayed,
                "compared": sorted(ours),
                "differ": sorted(k for k in ours if ours[k] != replayed.get(k)),
            }
        return result
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.start", description=__doc__)
    parser.add_argument("target", help="the database: a SQLite path or a postgresql:// URL")
    parser.add_argument("--club", type=int, required=True)
    parser.add_argument("--black", type=int, required=True, help="a player id")
    parser.add_argument("--white", type=int, required=True, help="another player id")
    parser.add_argument("--day", required=True, help="the game's date, YYYY-MM-DD")
    parser.add_argument("--verify", action="store_true", help="compare with a full replay")
    args = parser.parse_args(argv)
    result = asyncio.run(_main(args))
    print(json.dumps(result), flush=True)
    return 0


# --- the parent's side ---------------------------------------------------------------------


def child_env() -> dict[str, str]:
    """The environment for a benchmark child process: this ``benchmarks`` package (and the
    hoshi packages beside it) first on its path, wherever the parent was started from."""
    root = str(Path(__file__).resolve().parents[1])
    path = os.environ.get("PYTHONPATH", "")
    return {**os.environ, "PYTHONPATH": root + (os.pathsep + path if path else "")}


async def start(
    target: str,
    club: int,
    black: int,
    white: int,
    day: dt.date,
    *,
    verify: bool = False,
    timeout: float = 1800,
) -> dict[str, Any]:
    """Run the child (module docstring) and return its figures, with ``spawn_to_write_s``:
    from the moment the process was started to its first write committed.

    Raises:
        RuntimeError: the child failed (with its error output).
    """
    command = [
        sys.executable,
        "-m",
        "benchmarks.start",
        target,
        "--club",
        str(club),
        "--black",
        str(black),
        "--white",
        str(white),
        "--day",
        day.isoformat(),
    ]
    if verify:
        command.append("--verify")
    spawned = time.time()
    process = await asyncio.create_subprocess_exec(
        *command,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=child_env(),
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise RuntimeError(f"benchmarks.start did not finish in {timeout:.0f} s") from None
    if process.returncode != 0:
        raise RuntimeError(
            f"benchmarks.start failed ({process.returncode}): {err.decode(errors='replace')}"
        )
    result: dict[str, Any] = json.loads(out.decode().strip().splitlines()[-1])
    result["spawn_to_write_s"] = result["written_at"] - spawned
    return result


if __name__ == "__main__":
    raise SystemExit(main())
