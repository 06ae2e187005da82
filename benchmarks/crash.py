"""The crash run (issue 6/6, item 2), large: ``python -m benchmarks.crash``.

Runs the three scenes of :mod:`tests.reliability.crashing` with at least 50 SIGKILLs each —
``hoshi console`` answering piped results, ``hoshi run`` with the Telegram adapter polling a
fake Bot API while four chats post at once (every update handed to a killed bot delivered
again), and the scheduler's start-up sweep — and prints the figures: kills survived, results
posted, acknowledged and present, games lost, results applied twice. Exits 1 on any problem.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

from tests.reliability import crashing


async def run(kills: int, work: Path, scenes: list[str]) -> int:
    began = time.monotonic()
    results = []
    for scene in scenes:
        print(f"{scene}: {kills} kills …", flush=True)
        function = getattr(crashing, f"{scene}_scene")
        figures = await function(work / scene, kills, say=lambda line: print(line, flush=True))
        results.append(figures)
        print(figures.line(), flush=True)
        for problem in figures.problems[:20]:
            print(f"  PROBLEM {problem}")
    print()
    print(f"crash run, {time.monotonic() - began:.0f} s in all:")
    for figures in results:
        print(f"  {figures.line()}")
    total_kills = sum(f.kills for f in results)
    lost = sum(f.lost for f in results)
    doubled = sum(f.doubled for f in results)
    problems = sum(len(f.problems) for f in results)
    print(
        f"  total: {total_kills} kills survived, {lost} games lost, {doubled} applied twice, "
        f"{problems} problems"
    )
    return 1 if problems or lost or doubled else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.crash", description=__doc__)
    parser.add_argument("--kills", type=int, default=50, help="SIGKILLs per scene (50)")
    parser.add_argument(
        "--scene",
        action="append",
        choices=("console", "telegram", "scheduler"),
        help="run only this scene (repeatable; default all three)",
    )
    parser.add_argument("--dir", type=Path, help="keep the databases here (default: a temp dir)")
    args = parser.parse_args(argv)
    scenes = args.scene or ["console", "telegram", "scheduler"]
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)
        return asyncio.run(run(args.kills, args.dir, scenes))
    with tempfile.TemporaryDirectory(prefix="hoshi-crash-") as work:
        return asyncio.run(run(args.kills, Path(work), scenes))


if __name__ == "__main__":
    sys.exit(main())
