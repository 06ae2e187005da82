"""``hoshi console``: the bot in this terminal, no token needed."""

from __future__ import annotations

import argparse
import datetime as dt
from zoneinfo import ZoneInfo

from bot.cli.common import SYSTEM_CHOICES, club_options, configured, fail, said
from bot.i18n import _


def add(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    console = commands.add_parser(
        "console",
        help=_("run the bot in this terminal (no token needed)"),
        description=_(
            "The bot on a terminal: you are the club's organiser. With standard input not a "
            "terminal it reads one command per line ({example}).",
            example="hoshi console --db club.sqlite < session.txt",
        ),
    )
    club_options(console)
    console.add_argument(
        "--new-club",
        metavar="NAME",
        help=_("make a new club NAME in the database (--club opens only a club that exists)"),
    )
    console.add_argument("--system", choices=SYSTEM_CHOICES, help=_("system of a new club"))
    console.add_argument("--quiet", action="store_true", help=_("scripted: do not echo commands"))
    console.add_argument(
        "--clock",
        metavar="TIME",
        help=_(
            "start a hand-moved clock at TIME (e.g. {example}, the config's time zone); "
            "{tick} moves it and runs what became due",
            example='"2026-11-02 09:00"',
            tick="/tick",
        ),
    )
    console.set_defaults(run=_run_console)


def _run_console(args: argparse.Namespace) -> int:
    import asyncio

    from bot.adapters.console import run_console
    from bot.clock import FakeClock
    from bot.config import ConfigError

    try:
        config = configured(args)
    except ConfigError as exc:
        return fail(said(exc))
    if args.club and args.new_club:
        return fail(
            _(
                "give --club NAME to open a club or --new-club NAME to make one, not both "
                "(e.g. {example})",
                example=config.given.command("console", "--new-club", args.new_club, club=False),
            )
        )
    clock = None
    if args.clock:
        try:
            start = dt.datetime.fromisoformat(args.clock)
        except ValueError:
            return fail(
                _(
                    "--clock takes a time like {example}, not {value}",
                    example='"2026-11-02 09:00"',
                    value=repr(args.clock),
                )
            )
        clock = FakeClock(
            start if start.tzinfo else start.replace(tzinfo=ZoneInfo(config.timezone))
        )
    return asyncio.run(
        run_console(
            config,
            db_path=args.db,
            club=args.new_club or args.club,
            system=args.system,
            new_club=bool(args.new_club),
            echo=not args.quiet,
            clock=clock,
        )
    )
