"""``hoshi backup`` and ``hoshi restore``: the database to a timestamped file, and back."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

from bot.cli.common import config_option, configured, database_of, db_option, fail, said, shown
from bot.i18n import _, _n, translated


def add(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    backup = commands.add_parser(
        "backup",
        help=_("back the database up to a timestamped file (safe while the bot runs)"),
        description=_(
            "Copy the database with SQLite's online backup API to {file} in the backup folder "
            "(default: {key}, or a {folder} folder beside the database), check the copy, and "
            "print its path.",
            file="hoshi-YYYYMMDD-HHMMSSZ.sqlite",
            key="[backup] directory",
            folder="'backups'",
        ),
    )
    _common(backup)
    backup.add_argument("--to", type=Path, help=_("the folder to write the backup into"))
    backup.add_argument(
        "--keep",
        type=int,
        metavar="N",
        help=_("afterwards, delete all but the newest N backups"),
    )
    backup.set_defaults(run=_backup)
    restore = commands.add_parser(
        "restore",
        help=_("replace the database with a backup (stop the bot first)"),
        description=_(
            "Check the backup (a sound SQLite file, hoshi's tables, a schema version this "
            "hoshi knows) and refuse before touching anything if it is not; then save the "
            "current database as {file} in the backup folder and copy the backup into it. "
            "Stop {commands} first.",
            file="hoshi-before-restore-….sqlite",
            commands="hoshi run / hoshi console",
        ),
    )
    restore.add_argument("backup", type=Path, help=_("the backup file to restore"))
    _common(restore)
    restore.add_argument("--yes", action="store_true", help=_("do not ask for confirmation"))
    restore.set_defaults(run=_restore)


def _common(parser: argparse.ArgumentParser) -> None:
    db_option(parser)
    config_option(parser)


def _backup(args: argparse.Namespace) -> int:
    import asyncio

    from bot.config import ConfigError
    from storage import backup

    try:
        config = configured(args)
    except ConfigError as exc:
        return fail(said(exc))
    if args.keep is not None and args.keep < 1:
        return fail(
            _("--keep takes a number of backups of at least 1, not {value}", value=args.keep)
        )
    source = database_of(args.db, config)
    if not isinstance(source, Path):
        return fail(_postgresql_backups(source))
    if not source.exists():
        return fail(_("there is no database at {path}", path=source))
    directory = (args.to or config.backup.directory_for(source)).expanduser()
    now = dt.datetime.now(dt.UTC)
    try:
        made = asyncio.run(backup.backup(source, directory, now=now))
        info = backup.check(made)
        removed = backup.prune(directory, args.keep) if args.keep else []
    except backup.BackupError as exc:
        return fail(said(exc))
    print(
        _(
            "Backed up {source} to {copy} ({contents}).",
            source=source,
            copy=made,
            contents=info.describe(),
        )
    )
    if removed:
        print(_n("Deleted {n} older backup.", "Deleted {n} older backups.", len(removed)))
    return 0


def _restore(args: argparse.Namespace) -> int:
    from bot.config import ConfigError
    from storage import backup

    try:
        config = configured(args)
    except ConfigError as exc:
        return fail(said(exc))
    target = database_of(args.db, config)
    if not isinstance(target, Path):
        return fail(_postgresql_backups(target))
    source = args.backup.expanduser()
    try:
        info = backup.check(source)  # before asking anything: a bad file is refused at once
    except backup.BackupError as exc:
        return fail(_("{problem}. Nothing was changed.", problem=said(exc)))
    print(f"{source}: {translated(info.describe())}.")
    if not args.yes:
        if not sys.stdin.isatty():
            return fail(_("add --yes to replace the database without being asked"))
        # TRANSLATORS: the answer stays y/yes in every language (any other answer keeps
        # the database)
        answer = input(
            _("Replace {target} with it? The current one is saved first. [y/N] ", target=target)
        )
        if answer.strip().lower() not in ("y", "yes"):
            print(_("Nothing was changed."))
            return 1
    try:
        restored = backup.restore(
            source, target, config.backup.directory_for(target), now=dt.datetime.now(dt.UTC)
        )
    except backup.BackupError as exc:
        return fail(said(exc))
    if restored.previous is not None:
        print(_("The database it replaced is saved as {path}.", path=restored.previous))
    print(
        _(
            "Restored {target} from {source} ({contents}).",
            target=target,
            source=source,
            contents=restored.info.describe(),
        )
    )
    return 0


def _postgresql_backups(url: str) -> str:
    """Why ``hoshi backup``/``restore`` refuse a PostgreSQL database, and what to use."""
    return _(
        "{database} is a PostgreSQL database: hoshi backup and hoshi restore copy SQLite "
        "files. Back it up with PostgreSQL's own tools, e.g. {example}",
        database=shown(url),
        example=f"pg_dump -Fc -f hoshi.dump {shown(url)}",
    )
