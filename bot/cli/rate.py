"""``hoshi rate``: rate a finished tournament file offline (issue 1/6)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot import system_names
from bot.cli.common import SYSTEM_CHOICES, fail, no_time_control
from engine.errors import EngineError


def add(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    rate = commands.add_parser(
        "rate",
        help="rate a finished tournament file offline",
        description="Rate an EGD h9 (or OpenGotha XML) tournament file and print every "
        "player's starting rating, game points, change, new rating and new rank.",
    )
    rate.add_argument("file", type=Path, help="the tournament file (.h9 or OpenGotha .xml)")
    rate.add_argument("--system", choices=SYSTEM_CHOICES, default=system_names.DEFAULT_SYSTEM)
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


def _run_rate(args: argparse.Namespace) -> int:
    from bot.rate_report import IMPORTANCE_FLAGS, MultiplierInputs, rate, read_tournament
    from engine.formats import parse_ratings_csv
    from engine.timecontrol import TimeControl

    importance = tuple(f.strip().lower() for arg in args.importance for f in arg.split(",") if f)
    unknown = [f for f in importance if f not in IMPORTANCE_FLAGS]
    if unknown:
        return fail(f"unknown --importance {unknown[0]!r}; use {', '.join(IMPORTANCE_FLAGS)}")
    if args.manual_c is not None and args.manual_c < 0:
        return fail(f"--C must be 0 or more, not {args.manual_c}")
    if args.participants is not None and args.participants < 2:
        return fail(f"--participants must be at least 2, not {args.participants}")
    try:
        data = args.file.read_bytes()
    except OSError as exc:
        return fail(f"cannot read {args.file}: {exc.strerror}")
    try:
        tf = read_tournament(data, args.file.name)
    except EngineError as exc:
        return fail(f"{args.file}: {exc}")
    ratings = []
    if args.ratings:
        try:
            ratings = parse_ratings_csv(args.ratings.read_bytes())
        except OSError as exc:
            return fail(f"cannot read {args.ratings}: {exc.strerror}")
        except EngineError as exc:
            return fail(f"{args.ratings}: {exc}")
    try:
        time = TimeControl.parse(args.time) if args.time else None
        inputs = MultiplierInputs(args.manual_c, time, args.participants, importance)
        report = rate(tf, args.system, ratings, inputs)
    except EngineError as exc:
        why = None if args.time else no_time_control(tf, args.manual_c, time_flag=True)
        return fail(why or str(exc))
    if args.json:  # the table carries its warnings; JSON keeps stdout to the rows
        print(report.as_json())
        for warning in report.warnings:
            print(f"hoshi: {warning}", file=sys.stderr)
    else:
        print(report.as_table())
    return 0
