"""The ``hoshi`` command line: ``hoshi rate`` … (bot.md, Arguments)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from engine.errors import EngineError

ClubWork = Callable[[Any, Any, Any], Awaitable[int]]

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
    _add_run_command(commands)
    _add_club_commands(commands)
    return parser


def _add_club_commands(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    imp = commands.add_parser(
        "import",
        help="import a tournament file (h9, OpenGotha XML) into a club",
        description="Import a tournament file (EGD h9 or OpenGotha XML): it stays open until "
        "finalised, its MGSZ multiplier derived from the file. All or nothing.",
    )
    imp.add_argument("file", type=Path)
    _club_options(imp)
    imp.add_argument("--C", dest="manual_c", type=int, help="set the MGSZ multiplier C by hand")
    imp.add_argument("--name", help="the tournament's name (default: the file's EV)")
    imp.add_argument(
        "--ratings", type=Path, help="CSV of starting ratings for new players: name,rating[,rank]"
    )
    imp.add_argument(
        "--committee",
        action="store_true",
        help="record new players' declared ranks as committee decisions (MGSZ, rules.md §1.5)",
    )
    imp.add_argument("--finalise", action="store_true", help="rate the tournament at once")
    imp.set_defaults(run=_run_import)

    exp = commands.add_parser("export", help="write the club's players, games or ratings")
    _club_options(exp)
    exp.add_argument("--format", choices=("csv", "games", "json", "h9"), default="csv")
    exp.add_argument("--tournament", help="with --format h9: the tournament")
    exp.add_argument("--output", "-o", type=Path, help="write to a file instead of stdout")
    exp.set_defaults(run=_run_export)

    rep = commands.add_parser("replay", help="rebuild every rating from the club's log")
    _club_options(rep)
    rep.set_defaults(run=_run_replay)


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


def _run_club_command(args: argparse.Namespace, work: ClubWork) -> int:
    """Open the config, the database and the club, run ``work``, close everything."""
    import asyncio

    from bot.adapters.console import console_club
    from bot.config import ConfigError, load_config
    from storage import open_db
    from storage.errors import StorageError

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        return _fail(str(exc))

    async def run() -> int:
        path = (args.db or config.db_path).expanduser()
        path.parent.mkdir(parents=True, exist_ok=True)
        db = await open_db(path)
        try:
            club = await console_club(db, args.club, config.system, config.club)
            return await work(db, club, config)
        except (StorageError, EngineError) as exc:
            return _fail(str(exc))
        finally:
            await db.close()

    return asyncio.run(run())


def _run_import(args: argparse.Namespace) -> int:
    from bot import importing
    from bot.adapters.console import CALLER
    from engine.formats import parse_ratings_csv

    try:
        data = args.file.read_bytes()
        ratings = parse_ratings_csv(args.ratings.read_bytes()) if args.ratings else []
    except OSError as exc:
        return _fail(f"cannot read {exc.filename}: {exc.strerror}")
    except EngineError as exc:
        return _fail(f"{args.ratings}: {exc}")

    async def work(db, club, config) -> int:  # type: ignore[no-untyped-def]
        import storage

        settings = await storage.club_settings(db, club)
        tf = importing.read_file(data, args.file.name)
        plan = await importing.plan_import(
            db,
            club,
            tf,
            settings=settings,
            manual_c=args.manual_c,
            name=args.name,
            ratings=ratings,
            committee=args.committee,
        )
        result = await importing.apply_import(db, club, plan, actor=CALLER.identity, chat=None)
        print("\n".join(importing.summary_lines(plan, result)))
        if args.finalise:
            changes = await storage.finalise_tournament(
                db, club, result.tournament.id, actor=CALLER.identity
            )
            print(f"Finalised: {len(changes)} rating changes.")
        return 0

    return _run_club_command(args, work)


def _run_export(args: argparse.Namespace) -> int:
    from bot import exporting

    async def work(db, club, config) -> int:  # type: ignore[no-untyped-def]
        import storage

        data = await storage.export_rows(db, club)
        if args.format == "h9":
            if not args.tournament:
                return _fail("--format h9 needs --tournament NAME")
            row = await storage.tournament(db, club, args.tournament)
            if row is None:
                return _fail(f"there is no tournament {args.tournament!r} in {club.name}")
            text = exporting.tournament_h9(data, row)
        else:
            text = {
                "csv": exporting.players_csv,
                "games": exporting.games_csv,
                "json": exporting.ratings_json,
            }[args.format](data)
        if args.output:
            args.output.write_text(text, encoding="utf-8")
            print(f"wrote {args.output}", file=sys.stderr)
        else:
            sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return 0

    return _run_club_command(args, work)


def _run_replay(args: argparse.Namespace) -> int:
    async def work(db, club, config) -> int:  # type: ignore[no-untyped-def]
        import time

        import storage

        started = time.perf_counter()

        def progress(done: int, total: int) -> None:
            width = 30
            filled = width * done // max(total, 1)
            print(
                f"\rreplaying {club.name}: [{'#' * filled}{'.' * (width - filled)}] "
                f"{done}/{total}",
                end="",
                file=sys.stderr,
                flush=True,
            )

        await storage.replay_club(db, club.id, progress)
        print(f"\nreplayed {club.name} in {time.perf_counter() - started:.2f} s", file=sys.stderr)
        return 0

    return _run_club_command(args, work)


def _add_run_command(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    run = commands.add_parser(
        "run",
        help="run the Telegram and/or Discord bot (tokens from the environment)",
        description="Start the bots whose tokens are set (TELEGRAM_TOKEN, DISCORD_TOKEN) in "
        "one process sharing one database; Ctrl-C stops them. Without a token, use "
        "hoshi console.",
    )
    run.add_argument("--db", type=Path, help="the SQLite database (default: from the config)")
    run.add_argument(
        "--config",
        type=Path,
        help="config file (default: HOSHI_CONFIG or the user config directory)",
    )
    run.set_defaults(run=_run_bots)


def _run_bots(args: argparse.Namespace) -> int:
    import asyncio

    from bot.config import ConfigError, load_config
    from bot.run import configure_logging, run_bots

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        return _fail(str(exc))
    tokens = [t for t in (config.telegram_token, config.discord_token) if t]
    if tokens:
        configure_logging(config, tokens)
    return asyncio.run(run_bots(config, db_path=args.db))


def _fail(message: str) -> int:
    print(f"hoshi: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
