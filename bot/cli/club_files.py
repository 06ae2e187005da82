"""``hoshi import``, ``hoshi export``, ``hoshi replay``: a club's data from the command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.cli.common import club_options, fail, no_time_control, run_club_command, said
from bot.config import GivenOptions
from bot.i18n import _, _n, number_text, translated
from engine.errors import EngineError


def add(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    imp = commands.add_parser(
        "import",
        help=_("import a tournament (h9, OpenGotha XML) or a CSV of players or games"),
        description=_(
            "Import a tournament file (EGD h9 or OpenGotha XML: it stays open until finalised, "
            "its MGSZ multiplier derived from the file), a CSV of players ({players}) or a CSV "
            "of games ({games}). All or nothing.",
            players="name,rank[,rating][,country][,club][,egd_pin]",
            games="date,black,white,result[,handicap][,komi][,tournament][,round]",
        ),
    )
    imp.add_argument(
        "file", type=Path, help=_("the tournament file (.h9 or OpenGotha .xml) or CSV table")
    )
    club_options(imp)
    imp.add_argument("--C", dest="manual_c", type=int, help=_("set the MGSZ multiplier C by hand"))
    imp.add_argument("--name", help=_("the tournament's name (default: the file's EV line)"))
    imp.add_argument(
        "--ratings",
        type=Path,
        help=_("CSV of starting ratings for new players: {columns}", columns="name,rating[,rank]"),
    )
    imp.add_argument(
        "--committee",
        action="store_true",
        help=_(
            "record new players' declared ranks stronger than 5k as the rating committee's "
            "decision (MGSZ Minősítési Szabályzat 5.§ (3))"
        ),
    )
    imp.add_argument("--finalise", action="store_true", help=_("rate the tournament at once"))
    imp.add_argument(
        "--again",
        action="store_true",
        help=_(
            "record the file's games even where the club has games like them already (the "
            "same players, day and winner): a file is otherwise refused when imported twice"
        ),
    )
    imp.add_argument(
        "--confirm",
        action="store_true",
        help=_(
            "take the file's names that are club players' names in another word order (Anna "
            "Kiss for Kiss Anna) as the same people: a file is otherwise refused, naming them"
        ),
    )
    imp.set_defaults(run=_run_import)

    exp = commands.add_parser(
        "export",
        help=_("write the club's players, games or ratings"),
        description=_(
            "Write a club's players ({players}), games ({games}), ratings (JSON) or one "
            "tournament as an EGD h9 file, to standard output or {output}. The database and "
            "the club must exist: nothing is created.",
            players="name,rank,rating,country,club,egd_pin",
            games="date,black,white,result,handicap,komi,tournament,round",
            output="--output FILE",
        ),
    )
    club_options(exp, creates=False)
    exp.add_argument(
        "--format",
        choices=("csv", "games", "json", "h9"),
        help=_(
            "csv: players; games: games as CSV; json: ratings; h9: one tournament (default: "
            "h9 with --tournament, else csv)"
        ),
    )
    exp.add_argument(
        "--tournament",
        help=_("the tournament to write as h9 (its name, or its number: #2)"),
    )
    exp.add_argument(
        "--output", "-o", type=Path, help=_("write to a file instead of standard output")
    )
    exp.set_defaults(run=_run_export)

    rep = commands.add_parser(
        "replay",
        help=_("rebuild every rating from the club's log"),
        description=_(
            "Fold the club's whole log through its rating system again and rewrite every "
            "stored rating, card and history row from it (the log itself is never changed). "
            "The database and the club must exist."
        ),
    )
    club_options(rep, creates=False)
    rep.set_defaults(run=_run_replay)


def _run_import(args: argparse.Namespace) -> int:
    from bot.adapters.console import CALLER
    from bot.core import importing
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
                _n(
                    "{flags} is for tournament files (h9, OpenGotha XML); a CSV table of "
                    "players gives ratings in its rating column, e.g. {example}",
                    "{flags} are for tournament files (h9, OpenGotha XML); a CSV table of "
                    "players gives ratings in its rating column, e.g. {example}",
                    len(given),
                    flags=", ".join(given),
                    example=_given(args).command("import", str(args.file), "--committee"),
                )
            )
    try:
        data = args.file.read_bytes()
        ratings = parse_ratings_csv(args.ratings.read_bytes()) if args.ratings else []
    except OSError as exc:
        return fail(_("cannot read {file}: {reason}", file=exc.filename, reason=exc.strerror))
    except EngineError as exc:
        return fail(f"{args.ratings}: {said(exc)}")

    async def work(db, club, config) -> int:  # type: ignore[no-untyped-def]
        import storage

        settings = await storage.club_settings(db, club)
        table = args.file.suffix.lower() == ".csv"
        remedies = importing.cli_remedies(
            str(args.file), players_table=table, flags=_flags(args), given=config.given
        )
        if table:
            return await _import_csv(
                db,
                club,
                settings,
                data,
                committee=args.committee,
                remedies=remedies,
                again=args.again,
                confirm=args.confirm,
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
                again=args.again,
                confirm=args.confirm,
            )
        except EngineError as exc:
            return fail(no_time_control(tf, args.manual_c, time_flag=False) or said(exc))
        result = await importing.apply_import(db, club, plan, actor=CALLER.identity, chat=None)
        lines = importing.summary_lines(plan, result, remedies)
        if not args.finalise:
            print("\n".join(translated(line) for line in lines))
            return 0
        # not "it stays open": it is finalised at once
        print("\n".join(translated(line) for line in lines[:-1]))
        changes = await storage.finalise_tournament(
            db, club, result.tournament.id, actor=CALLER.identity
        )
        print(
            _n(
                "Imported as tournament #{number} and finalised: {n} rating change.",
                "Imported as tournament #{number} and finalised: {n} rating changes.",
                len(changes),
                number=result.tournament.number,
            )
        )
        return 0

    return run_club_command(args, work)


def _given(args: argparse.Namespace) -> GivenOptions:
    """The options given to ``hoshi import`` that a suggested command keeps, before the
    config is read."""
    return GivenOptions(args.db, args.config, args.club)


def _flags(args: argparse.Namespace) -> list[str]:
    """The flags given to ``hoshi import`` that change what it records (repeated in the
    command a refusal suggests)."""
    flags = []
    if args.committee:
        flags.append("--committee")
    given = (("--C", args.manual_c), ("--name", args.name), ("--ratings", args.ratings))
    for flag, value in given:
        if value is not None:
            flags += [flag, str(value)]
    if args.finalise:
        flags.append("--finalise")
    if args.confirm:  # kept in the command that records a file again
        flags.append("--confirm")
    return flags


async def _import_csv(  # type: ignore[no-untyped-def]
    db, club, settings, data: bytes, *, committee: bool, remedies, again: bool, confirm: bool
) -> int:
    """A CSV of players or of games (formats.md, CSV), told apart by its header."""
    import datetime as dt

    import storage
    from bot.adapters.console import CALLER
    from bot.core import importing
    from engine.formats import parse_players_csv
    from storage.errors import BatchError
    from storage.records import NewPlayer

    header = data.lstrip().decode("utf-8", "replace").split("\n", 1)[0].lower()
    if "black" in header and "white" in header:
        games = await importing.games_from_csv(
            db,
            club,
            data,
            even_komi=settings.komi,
            again=again,
            confirm=confirm,
            remedies=remedies,
        )
        rows = await storage.record_games(db, club, games, actor=CALLER.identity)
        print(
            _n(
                "{n} game recorded in {club}.",
                "{n} games recorded in {club}.",
                len(rows),
                club=club.name,
            )
        )
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
                pro=row.pro,
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
        problems = await importing.initial_rank_problems(db, club, new, remedies)
        others = [
            _("line {number}: {problem}", number=n, problem=translated(message))
            for n, message in error.problems
            if n not in lines
        ]
        return fail(
            _(
                "nothing was recorded: {problems}",
                problems=" ".join([*(translated(s) for s in problems), *others]),
            )
        )
    print(
        _n(
            "{n} player registered in {club}.",
            "{n} players registered in {club}.",
            len(created),
            club=club.name,
        )
    )
    return 0


def _run_export(args: argparse.Namespace) -> int:
    from bot.core import exporting, rounds

    form = args.format or ("h9" if args.tournament else "csv")
    if args.tournament and form != "h9":  # never silently ignored
        return fail(
            _(
                "{option} writes one tournament as h9; it does not go with {format}",
                option="--tournament",
                format=f"--format {form}",
            )
        )
    output = args.output.expanduser() if args.output else None
    if output is not None and not output.parent.is_dir():
        return fail(
            _(
                "cannot write {file}: there is no directory {directory} (create it first, or "
                "give --output a file in an existing directory)",
                file=output,
                directory=output.parent,
            )
        )

    async def work(db, club, config) -> int:  # type: ignore[no-untyped-def]
        import storage

        data = await storage.export_rows(db, club)
        if form == "h9":
            if not args.tournament:
                return fail(
                    _("{option} needs {needed}", option="--format h9", needed="--tournament NAME")
                )
            number = args.tournament.strip()
            if number.startswith("#") and number[1:].isdigit():  # the club's number, as shown
                row = await storage.tournament_by_number(db, club, int(number[1:]))
            else:
                row = await storage.tournament(db, club, args.tournament)
            if row is None:
                return fail(
                    _(
                        "there is no tournament {name} in {club}",
                        name=repr(args.tournament),
                        club=club.name,
                    )
                )
            given = await rounds.h9_input(db, club, row)
            text = exporting.tournament_h9(data, row, given.entries, given.ranks, given.places)
        else:
            text = {
                "csv": exporting.players_csv,
                "games": exporting.games_csv,
                "json": exporting.ratings_json,
            }[form](data)
        if output is not None:
            try:
                output.write_text(text, encoding="utf-8")
            except OSError as exc:
                return fail(_("cannot write {file}: {reason}", file=output, reason=exc.strerror))
            print(_("wrote {file}", file=output), file=sys.stderr)
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
            bar = f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total}"
            print(
                "\r" + _("replaying {club}: {bar}", club=club.name, bar=bar),
                end="",
                file=sys.stderr,
                flush=True,
            )

        await storage.replay_club(db, club.id, progress)
        seconds = number_text(time.perf_counter() - started, 2)
        print(
            "\n" + _("replayed {club} in {seconds} s", club=club.name, seconds=seconds),
            file=sys.stderr,
        )
        return 0

    return run_club_command(args, work, create=False)
