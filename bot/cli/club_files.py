"""``hoshi import``, ``hoshi export``, ``hoshi replay``: a club's data from the command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.cli.common import club_options, fail, no_time_control, run_club_command
from engine.errors import EngineError


def add(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    imp = commands.add_parser(
        "import",
        help="import a tournament (h9, OpenGotha XML) or a CSV of players or games",
        description="Import a tournament file (EGD h9 or OpenGotha XML: it stays open until "
        "finalised, its MGSZ multiplier derived from the file), a CSV of players "
        "(name,rank[,rating][,country][,club][,egd_pin]) or a CSV of games "
        "(date,black,white,result[,handicap][,komi][,tournament][,round]). All or nothing.",
    )
    imp.add_argument("file", type=Path)
    club_options(imp)
    imp.add_argument("--C", dest="manual_c", type=int, help="set the MGSZ multiplier C by hand")
    imp.add_argument("--name", help="the tournament's name (default: the file's EV)")
    imp.add_argument(
        "--ratings", type=Path, help="CSV of starting ratings for new players: name,rating[,rank]"
    )
    imp.add_argument(
        "--committee",
        action="store_true",
        help="record new players' declared ranks stronger than 5k as the rating committee's "
        "decision (MGSZ Minősítési Szabályzat 5.§ (3))",
    )
    imp.add_argument("--finalise", action="store_true", help="rate the tournament at once")
    imp.set_defaults(run=_run_import)

    exp = commands.add_parser("export", help="write the club's players, games or ratings")
    club_options(exp)
    exp.add_argument("--format", choices=("csv", "games", "json", "h9"), default="csv")
    exp.add_argument("--tournament", help="with --format h9: the tournament")
    exp.add_argument("--output", "-o", type=Path, help="write to a file instead of stdout")
    exp.set_defaults(run=_run_export)

    rep = commands.add_parser("replay", help="rebuild every rating from the club's log")
    club_options(rep)
    rep.set_defaults(run=_run_replay)


def _run_import(args: argparse.Namespace) -> int:
    from bot import importing
    from bot.adapters.console import CALLER
    from engine.formats import parse_ratings_csv

    if args.file.suffix.lower() == ".csv":  # a table of players or games, not a tournament
        given = [
            flag
            for flag, value in (
                ("--ratings", args.ratings),
                ("--C", args.manual_c),
                ("--name", args.name),
                ("--finalise", args.finalise or None),
            )
            if value is not None
        ]
        if given:
            return fail(
                f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} for tournament files "
                "(h9, OpenGotha XML); a CSV table of players gives ratings in its rating "
                f"column, e.g. hoshi import {args.file} --committee"
            )
    try:
        data = args.file.read_bytes()
        ratings = parse_ratings_csv(args.ratings.read_bytes()) if args.ratings else []
    except OSError as exc:
        return fail(f"cannot read {exc.filename}: {exc.strerror}")
    except EngineError as exc:
        return fail(f"{args.ratings}: {exc}")

    async def work(db, club, config) -> int:  # type: ignore[no-untyped-def]
        import storage

        settings = await storage.club_settings(db, club)
        table = args.file.suffix.lower() == ".csv"
        remedies = importing.cli_remedies(str(args.file), players_table=table)
        if table:
            return await _import_csv(
                db, club, settings, data, committee=args.committee, remedies=remedies
            )
        tf = importing.read_file(data, args.file.name)
        try:
            plan = await importing.plan_import(
                db,
                club,
                tf,
                settings=settings,
                manual_c=args.manual_c,
                name=args.name,
                ratings=ratings,
                committee=args.committee,
                remedies=remedies,
            )
        except EngineError as exc:
            return fail(no_time_control(tf, args.manual_c, time_flag=False) or str(exc))
        result = await importing.apply_import(db, club, plan, actor=CALLER.identity, chat=None)
        lines = importing.summary_lines(plan, result, remedies)
        if not args.finalise:
            print("\n".join(lines))
            return 0
        print("\n".join(lines[:-1]))  # not "it stays open": it is finalised at once
        changes = await storage.finalise_tournament(
            db, club, result.tournament.id, actor=CALLER.identity
        )
        print(
            f"Imported as tournament #{result.tournament.id} and finalised: "
            f"{len(changes)} rating changes."
        )
        return 0

    return run_club_command(args, work)


async def _import_csv(db, club, settings, data: bytes, *, committee: bool, remedies) -> int:  # type: ignore[no-untyped-def]
    """A CSV of players or of games (formats.md, CSV), told apart by its header."""
    import datetime as dt

    import storage
    from bot import importing
    from bot.adapters.console import CALLER
    from engine.formats import parse_players_csv
    from storage.errors import BatchError
    from storage.records import NewPlayer

    header = data.lstrip().decode("utf-8", "replace").split("\n", 1)[0].lower()
    if "black" in header and "white" in header:
        games = await importing.games_from_csv(db, club, data, even_komi=settings.komi)
        rows = await storage.record_games(db, club, games, actor=CALLER.identity)
        print(f"{len(rows)} games recorded in {club.name}.")
        return 0
    today = dt.datetime.now(settings.zone).date()
    players = [
        (
            row.line,
            NewPlayer(
                row.name,
                row.rank,
                row.rating,
                row.country,
                row.club,
                row.egd_pin,
                committee=committee,
            ),
        )
        for row in parse_players_csv(data)
    ]
    try:
        created = await storage.register_players(
            db, club, players, date=today, actor=CALLER.identity
        )
    except BatchError as error:
        # the MGSZ initial-rank refusals, in the command line's words and a few names; every
        # other bad line as the register said it
        new = [p for _, p in players]
        strong = {id(p) for p in await importing.too_strong(db, club, new)}
        if not strong:
            raise
        lines = {number for number, p in players if id(p) in strong}
        said = await importing.initial_rank_problems(db, club, new, remedies)
        others = [f"#{n}: {message}" for n, message in error.problems if n not in lines]
        return fail("nothing was recorded: " + " ".join(said + others))
    print(f"{len(created)} players registered in {club.name}.")
    return 0


def _run_export(args: argparse.Namespace) -> int:
    from bot import exporting

    output = args.output.expanduser() if args.output else None
    if output is not None and not output.parent.is_dir():
        return fail(
            f"cannot write {output}: there is no directory {output.parent} (create it first, "
            "or give --output a file in an existing directory)"
        )

    async def work(db, club, config) -> int:  # type: ignore[no-untyped-def]
        import storage

        data = await storage.export_rows(db, club)
        if args.format == "h9":
            if not args.tournament:
                return fail("--format h9 needs --tournament NAME")
            row = await storage.tournament(db, club, args.tournament)
            if row is None:
                return fail(f"there is no tournament {args.tournament!r} in {club.name}")
            text = exporting.tournament_h9(data, row)
        else:
            text = {
                "csv": exporting.players_csv,
                "games": exporting.games_csv,
                "json": exporting.ratings_json,
            }[args.format](data)
        if output is not None:
            try:
                output.write_text(text, encoding="utf-8")
            except OSError as exc:
                return fail(f"cannot write {output}: {exc.strerror}")
            print(f"wrote {output}", file=sys.stderr)
        else:
            sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return 0

    return run_club_command(args, work, create=False)


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

    return run_club_command(args, work, create=False)
