"""``hoshi rate``: rate a finished tournament file offline (issue 1/6)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot import system_names
from bot.cli.common import SYSTEM_CHOICES, fail, no_time_control, said
from bot.i18n import _, translated
from engine.errors import EngineError


def add(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    rate = commands.add_parser(
        "rate",
        help=_("rate a finished tournament file offline"),
        description=_(
            "Rate an EGD h9 (or OpenGotha XML) tournament file and print every player's "
            "starting rating, game points, change, new rating and new rank."
        ),
    )
    rate.add_argument("file", type=Path, help=_("the tournament file (.h9 or OpenGotha .xml)"))
    rate.add_argument(
        "--system",
        choices=SYSTEM_CHOICES,
        default=system_names.DEFAULT_SYSTEM,
        help=_("the rating system (default: {system})", system=system_names.DEFAULT_SYSTEM),
    )
    rate.add_argument(
        "--ratings",
        type=Path,
        help=_("CSV of starting ratings: {columns}", columns="name,rating[,rank]"),
    )
    rate.add_argument("--json", action="store_true", help=_("print JSON instead of a table"))
    rate.add_argument(
        "--C", dest="manual_c", type=int, help=_("set the MGSZ multiplier C by hand")
    )
    rate.add_argument(
        "--time",
        help=_(
            "time control, e.g. {example} (default: the file's TM line)",
            example='"60m 3x20s japanese"',
        ),
    )
    rate.add_argument(
        "--participants", type=int, help=_("number of participants (default: from the file)")
    )
    rate.add_argument(
        "--importance",
        action="append",
        default=[],
        metavar="FLAG",
        help=_(
            "the tournament's importance: {flags}; repeat or comma-separate",
            flags="invitational, championship (Hungarian), european, world",
        ),
    )
    rate.set_defaults(run=_run_rate)


def _run_rate(args: argparse.Namespace) -> int:
    from bot.core.rate_report import IMPORTANCE_FLAGS, MultiplierInputs, rate, read_tournament
    from engine.formats import parse_ratings_csv
    from engine.timecontrol import TimeControl

    importance = tuple(f.strip().lower() for arg in args.importance for f in arg.split(",") if f)
    unknown = [f for f in importance if f not in IMPORTANCE_FLAGS]
    if unknown:
        return fail(
            _(
                "unknown --importance {flag}; use {flags}",
                flag=repr(unknown[0]),
                flags=", ".join(IMPORTANCE_FLAGS),
            )
        )
    if args.manual_c is not None and args.manual_c < 0:
        return fail(_("--C must be 0 or more, not {value}", value=args.manual_c))
    if args.participants is not None and args.participants < 2:
        return fail(_("--participants must be at least 2, not {value}", value=args.participants))
    try:
        data = args.file.read_bytes()
    except OSError as exc:
        return fail(_("cannot read {file}: {reason}", file=args.file, reason=exc.strerror))
    try:
        tf = read_tournament(data, args.file.name)
    except EngineError as exc:
        return fail(f"{args.file}: {said(exc)}")
    ratings = []
    if args.ratings:
        try:
            ratings = parse_ratings_csv(args.ratings.read_bytes())
        except OSError as exc:
            return fail(_("cannot read {file}: {reason}", file=args.ratings, reason=exc.strerror))
        except EngineError as exc:
            return fail(f"{args.ratings}: {said(exc)}")
    try:
        time = TimeControl.parse(args.time) if args.time else None
        inputs = MultiplierInputs(args.manual_c, time, args.participants, importance)
        report = rate(tf, args.system, ratings, inputs)
    except EngineError as exc:
        why = None if args.time else no_time_control(tf, args.manual_c, time_flag=True)
        return fail(why or said(exc))
    if args.json:  # the table carries its warnings; JSON keeps stdout to the rows
        print(report.as_json())
        for warning in report.warnings:
            print(f"hoshi: {translated(warning)}", file=sys.stderr)
    else:
        print(report.as_table())
    return 0
