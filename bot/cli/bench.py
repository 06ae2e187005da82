"""``hoshi bench``: the performance benchmark on a synthetic federation (docs/scaling.md).

The benchmark is the installed ``benchmarks`` package (with its fake Bot API), so it runs after a
plain ``pip install`` as well as from a clone.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import signal
import sys
from pathlib import Path
from typing import Any

from bot.i18n import _


def add(commands: Any) -> None:
    parser = commands.add_parser(
        "bench",
        help=_(
            "measure replay, commands, appends, process starts and several writers on a "
            "synthetic federation, on SQLite or PostgreSQL"
        ),
        description=_(
            "Generate a federation of N games into a fresh database (a SQLite file in a "
            "temporary directory, or a PostgreSQL database), then time the replay against a "
            "plain scan of the same rows, {commands}, appending a result, finalising a "
            "300-player tournament, the web pages, the Telegram adapter, a process start from "
            "a snapshot and several processes appending at once, then a club's own work: its "
            "day, month and period ends, a result a year back, a switch of system, the SQL of "
            "one result, and the catch-up after an ancient result or a big import; print a "
            "table with each target (or one JSON object). With {clubs}, many small clubs "
            "instead.",
            commands="/rating, /top, /handicap, /rating NAME all",
            clubs="--clubs N --games-per-club M",
        ),
    )
    parser.add_argument(
        "--backend",
        choices=("sqlite", "postgresql"),
        default="sqlite",
        help=_(
            "the database to measure (default {default}); postgresql starts a throw-away "
            "cluster unless --db-url names a server",
            default="sqlite",
        ),
    )
    parser.add_argument(
        "--db-url",
        type=_url,
        default=None,
        help=_(
            "an existing PostgreSQL server to use, like {example}: a fresh database is "
            "created there for the run and dropped after it",
            example="postgresql://postgres@127.0.0.1:5432/postgres",
        ),
    )
    parser.add_argument(
        "--writers",
        type=_count,
        default=3,
        help=_(
            "processes appending results at once in the writers phase, 0 for none "
            "(default {default})",
            default=3,
        ),
    )
    parser.add_argument(
        "--writer-games",
        type=_count,
        default=200,
        help=_("games each writer process appends (default {default})", default=200),
    )
    parser.add_argument(
        "--tail",
        type=_count,
        default=None,
        help=_(
            "games appended after the snapshot before a process start is timed (default "
            "{default}, or a tenth of the games when that is fewer)",
            default=10000,
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
    parser.add_argument(
        "--clubs",
        type=_count,
        default=0,
        help=_(
            "measure this many small clubs instead of a federation: their load, a process "
            "start, each club's first command and the scheduler's first sweep (with "
            "{option})",
            option="--games-per-club",
        ),
    )
    parser.add_argument(
        "--games-per-club",
        type=_positive,
        default=100,
        help=_(
            "games of each club with {option} (default {default})", option="--clubs", default=100
        ),
    )
    parser.add_argument(
        "--import-players",
        type=_positive,
        default=1000,
        help=_(
            "players of the h9 file imported into a club with later games (default {default})",
            default=1000,
        ),
    )
    parser.add_argument(
        "--ancient-date",
        type=_date,
        default=dt.date(1900, 1, 1),
        help=_(
            "the date of the result entered before a small club's history, then {command} "
            "(default {default})",
            command="/tick 1d",
            default="1900-01-01",
        ),
    )
    parser.add_argument(
        "--case-timeout",
        type=_positive,
        default=120,
        help=_(
            "seconds each catch-up case may take before it is stopped and reported as over "
            "(default {default})",
            default=120,
        ),
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


def _url(text: str) -> str:
    if not text.startswith(("postgresql://", "postgres://")):
        raise argparse.ArgumentTypeError(
            _(
                "--db-url takes a PostgreSQL URL like {example}, not {value}",
                example="postgresql://postgres@127.0.0.1:5432/postgres",
                value=repr(text),
            )
        )
    return text


def _count(text: str) -> int:
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(
            _("expected a whole number like {example}, not {value}", example=3, value=repr(text))
        )
    return value


def _positive(text: str) -> int:
    value = _count(text)
    if value < 1:
        raise argparse.ArgumentTypeError(
            _("expected a whole number like {example}, not {value}", example=3, value=repr(text))
        )
    return value


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _(
                "expected a date like {example}, not {value}",
                example="1900-01-01",
                value=repr(text),
            )
        ) from None


def run(args: argparse.Namespace) -> int:
    from benchmarks import bench, pgcluster, progress  # imported here: only `hoshi bench` pays

    def say(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    def stopped(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)  # unwinds: a throw-away cluster is stopped and removed

    signal.signal(signal.SIGTERM, stopped)

    if args.db_url is not None and args.backend != "postgresql":
        print(
            _(
                "--db-url is for the PostgreSQL backend: add {option}",
                option="--backend postgresql",
            ),
            file=sys.stderr,
        )
        return 2
    try:
        result = asyncio.run(
            bench.run(
                args.games,
                backend=args.backend,
                db_url=args.db_url,
                tail=args.tail,
                writers=args.writers,
                writer_games=args.writer_games,
                seed=args.seed,
                directory=args.dir,
                samples=args.samples,
                updates=args.updates,
                with_telegram=not args.no_telegram,
                check=args.check,
                clubs=args.clubs,
                games_per_club=args.games_per_club,
                import_players=args.import_players,
                ancient=args.ancient_date,
                case_timeout_s=args.case_timeout,
                say=say,
                status=progress.terminal_status(sys.stderr),
            )
        )
    except pgcluster.Unavailable as error:
        print(
            _(
                "no PostgreSQL to measure: {problem}; or name a server with {option}",
                problem=str(error),
                option="--db-url",
            ),
            file=sys.stderr,
        )
        return 2
    print(json.dumps(result) if args.json else bench.table(result))
    return 0
