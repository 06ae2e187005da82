"""``hoshi bench``: the performance benchmark on a synthetic federation (README, Scaling).

The benchmark is the installed ``benchmarks`` package (with its fake Bot API), so it runs after a
plain ``pip install`` as well as from a clone.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from bot.i18n import _


def add(commands: Any) -> None:
    parser = commands.add_parser(
        "bench",
        help=_(
            "measure replay, commands, appends and Telegram throughput on a synthetic federation"
        ),
        description=_(
            "Generate a federation of N games into a fresh database in a temporary directory, "
            "then time the replay against a plain SQLite scan, {commands}, appending a result, "
            "finalising a 300-player tournament and the Telegram adapter; print a table (or "
            "one JSON object).",
            commands="/rating, /top, /handicap",
        ),
    )
    parser.add_argument(
        "--games",
        type=_games,
        default=1_000_000,
        help=_("games to generate (default {default})", default=1000000),
    )
    parser.add_argument(
        "--seed", type=int, default=1, help=_("generator seed (default {default})", default=1)
    )
    parser.add_argument("--json", action="store_true", help=_("print one JSON object instead"))
    parser.add_argument(
        "--samples",
        type=int,
        default=200,
        help=_("commands and appends timed (default {default})", default=200),
    )
    parser.add_argument(
        "--updates",
        type=int,
        default=2000,
        help=_("Telegram updates sent (default {default})", default=2000),
    )
    parser.add_argument(
        "--no-telegram", action="store_true", help=_("skip the Telegram throughput phase")
    )
    parser.add_argument(
        "--dir", type=Path, default=None, help=_("where the temporary database goes")
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help=_("also build the federation entry by entry and compare it with the replay (slow)"),
    )
    parser.set_defaults(run=run)


def _games(text: str) -> int:
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(
            _(
                "--games takes a number like {example}, not {value}",
                example=100000,
                value=repr(text),
            )
        ) from None
    if not 100 <= value <= 10_000_000:
        raise argparse.ArgumentTypeError(
            _("--games must be {low}–{high}, not {value}", low=100, high=10000000, value=value)
        )
    return value


def run(args: argparse.Namespace) -> int:
    from benchmarks import bench  # imported here: only `hoshi bench` pays for it

    def say(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    result = asyncio.run(
        bench.run(
            args.games,
            seed=args.seed,
            directory=args.dir,
            samples=args.samples,
            updates=args.updates,
            with_telegram=not args.no_telegram,
            check=args.check,
            say=say,
        )
    )
    print(json.dumps(result) if args.json else bench.table(result))
    return 0
