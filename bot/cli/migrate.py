"""``hoshi migrate --from SRC --to DST``: a whole database moved to another backend (issue 5/5).

SQLite to PostgreSQL when a club outgrows one process, and back. The log is copied, the
target replays every club, and the two sides' projections are compared by digest before the
command says the move is done (storage.transfer).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from bot.cli.common import database_of, db_target, fail, said, shown
from bot.i18n import _, _n, number_text


def add(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    move = commands.add_parser(
        "migrate",
        help=_("copy a whole database to another backend (SQLite ↔ PostgreSQL) and verify it"),
        description=_(
            "Copy every club's log from {source} to the empty database {target}, replay every "
            "club there and compare its ratings with the source's by digest. Stop the bots "
            "first. Example: {example}",
            source="--from",
            target="--to",
            example="hoshi migrate --from club.sqlite --to postgresql://hoshi@db.example.org/hoshi",
        ),
    )
    move.add_argument(
        "--from",
        dest="source",
        type=db_target,
        required=True,
        metavar="SOURCE",
        help=_("the database to copy: an SQLite file or a postgresql:// address"),
    )
    move.add_argument(
        "--to",
        dest="target",
        type=db_target,
        required=True,
        metavar="TARGET",
        help=_("the empty database to copy into: an SQLite file or a postgresql:// address"),
    )
    move.set_defaults(run=_migrate)


def _migrate(args: argparse.Namespace) -> int:
    import asyncio

    from storage.errors import StorageError

    # given on the command line, so never the config's (there is none to read)
    source, target = database_of(args.source, None), database_of(args.target, None)
    if isinstance(source, Path) and not source.is_file():
        return fail(
            _(
                "there is no database at {path}; give an existing one with --from, e.g. {example}",
                path=source,
                example="--from ~/hoshi/club.sqlite",
            )
        )
    if source == target:
        return fail(_("--from and --to name the same database"))
    try:
        return asyncio.run(_moved(source, target))
    except StorageError as exc:
        return fail(_("{problem}. Nothing was copied.", problem=said(exc)))
    except OSError as exc:
        return fail(_("could not open a database: {reason}", reason=str(exc)))


async def _moved(source: str | Path, target: str | Path) -> int:
    from storage import open_db
    from storage.transfer import copy_database

    started = time.perf_counter()
    if isinstance(target, Path):
        target.parent.mkdir(parents=True, exist_ok=True)
    src = await open_db(source)
    try:
        dst = await open_db(target)
        try:
            widest = 0

            def progress(table: str, rows: int) -> None:
                nonlocal widest
                line = _("copying {table}: {rows}", table=table, rows=number_text(rows))
                widest = max(widest, len(line))  # a shorter line covers all of a longer one
                print("\r" + line.ljust(widest), end="", file=sys.stderr, flush=True)

            moved = await copy_database(src, dst, progress)
        finally:
            await dst.close()
    finally:
        await src.close()
    print(file=sys.stderr)
    entries = moved.rows.get("log", 0)
    seconds = number_text(time.perf_counter() - started, 1)
    if not moved.verified:
        return fail(
            _n(
                "copied, but {n} club's ratings differ on {target}: do not use it (clubs: "
                "{clubs})",
                "copied, but {n} clubs' ratings differ on {target}: do not use it (clubs: "
                "{clubs})",
                len(moved.differing),
                target=shown(target),
                clubs=", ".join(str(club) for club in moved.differing),
            )
        )
    print(
        _n(
            "Copied {entries} log entries of {n} club from {source} to {target} in {seconds} "
            "s; verified: every rating replayed on {target} equals the source's ({digest}).",
            "Copied {entries} log entries of {n} clubs from {source} to {target} in {seconds} "
            "s; verified: every rating replayed on {target} equals the source's ({digest}).",
            len(moved.clubs),
            entries=number_text(entries),
            source=shown(source),
            target=shown(target),
            seconds=seconds,
            digest=moved.log_digest[:19] + "…",
        )
    )
    return 0
