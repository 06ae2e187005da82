"""The fuzz run (issue 6/6, item 1), large: ``python -m benchmarks.fuzz``.

Feeds 100,000 hypothesis-generated lines (tests/reliability/strategies.py: random bytes,
unicode names, huge numbers, negative handicaps, dates in year 0 and 9999, empty and 100 kB
pastes, SQL and HTML metacharacters, zero-width and right-to-left characters …) to the command
core of one growing club database, checks every reply as Telegram, Discord and the console
would show it (tests/reliability/fuzzing.py), then the database's integrity and its projections
against a replay. Prints the figures and every distinct crash with its traceback; exits 1 when
anything was found. A crash is not shrunk here (the run goes on): replay it in the suite.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
import warnings
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed

from tests.reliability.fuzzing import Fuzzer
from tests.reliability.strategies import Line, fuzzed_lines


def run(inputs: int, work: Path, seed: int, every: int) -> int:
    warnings.simplefilter("error")  # as in the test suite: a warning in a handler is a bug
    loop = asyncio.new_event_loop()
    fuzzer = loop.run_until_complete(Fuzzer.open(work / "fuzz.sqlite"))
    began = time.monotonic()
    try:

        @hypothesis_seed(seed)
        @settings(
            max_examples=inputs,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
            phases=[Phase.generate],
        )
        @given(fuzzed_lines())
        def one_line(line: Line) -> None:
            loop.run_until_complete(fuzzer.feed(line))
            done = fuzzer.found.inputs
            if done % every == 0:
                found = fuzzer.found
                rate = done / (time.monotonic() - began)
                print(
                    f"  {done:,} lines ({rate:.0f}/s): {dict(found.replies)}, "
                    f"{len(found.crashes)} crashes, {len(found.problems)} other problems",
                    flush=True,
                )

        one_line()
        end = loop.run_until_complete(fuzzer.finish(work))
    finally:
        loop.run_until_complete(fuzzer.close())
        loop.close()
    found = fuzzer.found
    seconds = time.monotonic() - began
    distinct: dict[str, str] = {}
    for crash in found.crashes:
        distinct.setdefault(crash.strip().splitlines()[-1], crash)
    for last, crash in distinct.items():
        print(f"\nCRASH ({sum(c.strip().endswith(last) for c in found.crashes)}×): {crash}")
    for problem in found.problems[:30]:
        print(f"\nPROBLEM: {problem[:2000]}")
    print()
    print(f"fuzz run, seed {seed}, {seconds:.0f} s:")
    print(f"  inputs fuzzed: {found.inputs:,} ({found.inputs / seconds:.0f} per second)")
    print(f"  replies: {dict(found.replies)}")
    print(f"  crashes found: {len(found.crashes)} ({len(distinct)} distinct)")
    print(f"  other problems (empty or oversized replies, bad HTML): {len(found.problems)}")
    print(f"  integrity and replay at the end: {end or 'ok'}")
    database = work / "fuzz.sqlite"
    print(f"  database at the end: {database.stat().st_size / 1e6:.1f} MB")
    return 1 if found.failures or end else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fuzz", description=__doc__)
    parser.add_argument("--inputs", type=int, default=100_000, help="lines to fuzz (100000)")
    parser.add_argument("--seed", type=int, default=20261122, help="hypothesis seed")
    parser.add_argument("--every", type=int, default=5000, help="progress every N lines")
    parser.add_argument("--dir", type=Path, help="keep the database here (default: a temp dir)")
    args = parser.parse_args(argv)
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)
        return run(args.inputs, args.dir, args.seed, args.every)
    with tempfile.TemporaryDirectory(prefix="hoshi-fuzz-") as work:
        return run(args.inputs, Path(work), args.seed, args.every)


if __name__ == "__main__":
    sys.exit(main())
