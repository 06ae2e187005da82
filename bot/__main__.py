"""The ``hoshi`` command line: ``hoshi rate`` … (bot.md, Arguments)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.errors import EngineError

SYSTEM_CHOICES = ("mgsz", "tensuusei", "swedish", "psg")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `hoshi rate … | head`: the reader left; not an error
        sys.stderr.close()
        return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hoshi", description="A rating bot for go clubs (MGSZ, Tensuusei, Swedish, PSG)."
    )
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")

    rate = commands.add_parser(
        "rate",
        help="rate a finished tournament file offline",
        description="Rate an EGD h9 (or OpenGotha XML) tournament file and print every "
        "player's starting rating, game points, change, new rating and new rank.",
    )
    rate.add_argument("file", type=Path, help="the tournament file (.h9 or OpenGotha .xml)")
    rate.add_argument("--system", choices=SYSTEM_CHOICES, default="mgsz")
    rate.add_argument("--ratings", type=Path, help="CSV of starting ratings: name,rating[,rank]")
    rate.add_argument("--json", action="store_true", help="print JSON instead of a table")
    rate.add_argument("--C", dest="manual_c", type=int, help="set the MGSZ multiplier C by hand")
    rate.add_argument("--time", help='time control, e.g. "60m 3x20s japanese" (default: TM)')
    rate.add_argument("--participants", type=int, help="number of participants (default: file)")
    rate.add_argument(
        "--importance",
        action="append",
        default=[],
        metavar="FLAG",
        help="invitational, championship (Hungarian), european, world; repeat or comma-separate",
    )
    rate.set_defaults(run=_run_rate)

    console = commands.add_parser(
        "console",
        help="run the bot in this terminal (no token needed)",
        description="The bot on a terminal: you are the club's organiser. With standard input "
        "not a terminal it reads one command per line (hoshi console --db club.sqlite < "
        "session.txt).",
    )
    _club_options(console)
    console.add_argument("--system", choices=SYSTEM_CHOICES, help="system of a new club")
    console.add_argument("--quiet", action="store_true", help="scripted: do not echo commands")
    console.set_defaults(run=_run_console)
    return parser


def _club_options(parser: argparse.ArgumentParser) -> None:
    """``--db`` and ``--club``, taken by every subcommand that opens a club (bot.md)."""
    parser.add_argument("--db", type=Path, help="the SQLite database (default: from the config)")
    parser.add_argument("--club", help="the club (default: the only club, created on first use)")
    parser.add_argument(
        "--config",
        type=Path,
        help="config file (default: HOSHI_CONFIG or the user config directory)",
    )


def _run_console(args: argparse.Namespace) -> int:
    import asyncio

    from bot.adapters.console import run_console
    from bot.config import ConfigError, load_config

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        return _fail(str(exc))
    return asyncio.run(
        run_console(
            config, db_path=args.db, club=args.club, system=args.system, echo=not args.quiet
        )
    )


def _run_rate(args: argparse.Namespace) -> int:
    from bot.rate_report import IMPORTANCE_FLAGS, MultiplierInputs, rate, read_tournament
    from engine.formats import parse_ratings_csv
    from engine.timecontrol import TimeControl

    importance = tuple(f.strip().lower() for arg in args.importance for f in arg.split(",") if f)
    unknown = [f for f in importance if f not in IMPORTANCE_FLAGS]
    if unknown:
        return _fail(f"unknown --importance {unknown[0]!r}; use {', '.join(IMPORTANCE_FLAGS)}")
    if args.manual_c is not None and args.manual_c < 0:
        return _fail(f"--C must be 0 or more, not {args.manual_c}")
    if args.participants is not None and args.participants < 2:
        return _fail(f"--participants must be at least 2, not {args.participants}")
    try:
        data = args.file.read_bytes()
    except OSError as exc:
        return _fail(f"cannot read {args.file}: {exc.strerror}")
    try:
        tf = read_tournament(data, args.file.name)
    except EngineError as exc:
        return _fail(f"{args.file}: {exc}")
    ratings = []
    if args.ratings:
        try:
            ratings = parse_ratings_csv(args.ratings.read_bytes())
        except OSError as exc:
            return _fail(f"cannot read {args.ratings}: {exc.strerror}")
        except EngineError as exc:
            return _fail(f"{args.ratings}: {exc}")
    try:
        time = TimeControl.parse(args.time) if args.time else None
        inputs = MultiplierInputs(args.manual_c, time, args.participants, importance)
        report = rate(tf, args.system, ratings, inputs)
    except EngineError as exc:
        return _fail(str(exc))
    print(report.as_json() if args.json else report.as_table())
    return 0


def _fail(message: str) -> int:
    print(f"hoshi: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
