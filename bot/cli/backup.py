"""``hoshi backup`` and ``hoshi restore``: the database to a timestamped file, and back."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

from bot.cli.common import fail


def add(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    backup = commands.add_parser(
        "backup",
        help="back the database up to a timestamped file (safe while the bot runs)",
        description="Copy the database with SQLite's online backup API to "
        "hoshi-YYYYMMDD-HHMMSSZ.sqlite in the backup folder (default: [backup] directory, or "
        "a 'backups' folder beside the database), check the copy, and print its path.",
    )
    _common(backup)
    backup.add_argument("--to", type=Path, help="the folder to write the backup into")
    backup.add_argument(
        "--keep", type=int, metavar="N", help="afterwards, delete all but the newest N backups"
    )
    backup.set_defaults(run=_backup)
    restore = commands.add_parser(
        "restore",
        help="replace the database with a backup (stop the bot first)",
        description="Check the backup (a sound SQLite file, hoshi's tables, a schema version "
        "this hoshi knows) and refuse before touching anything if it is not; then save the "
        "current database as hoshi-before-restore-….sqlite in the backup folder and copy the "
        "backup into it. Stop hoshi run / hoshi console first.",
    )
    restore.add_argument("backup", type=Path, help="the backup file to restore")
    _common(restore)
    restore.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    restore.set_defaults(run=_restore)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, help="the SQLite database (default: from the config)")
    parser.add_argument(
        "--config",
        type=Path,
        help="config file (default: HOSHI_CONFIG or the user config directory)",
    )


def _backup(args: argparse.Namespace) -> int:
    import asyncio

    from bot.config import ConfigError, load_config
    from storage import backup

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        return fail(str(exc))
    if args.keep is not None and args.keep < 1:
        return fail(f"--keep takes a number of backups of at least 1, not {args.keep}")
    source = (args.db or config.db_path).expanduser()
    if not source.exists():
        return fail(f"there is no database at {source}")
    directory = (args.to or config.backup.directory_for(source)).expanduser()
    now = dt.datetime.now(dt.UTC)
    try:
        made = asyncio.run(backup.backup(source, directory, now=now))
        info = backup.check(made)
        removed = backup.prune(directory, args.keep) if args.keep else []
    except backup.BackupError as exc:
        return fail(str(exc))
    print(f"Backed up {source} to {made} ({info.describe()}).")
    if removed:
        print(f"Deleted {len(removed)} older backup{'s' if len(removed) != 1 else ''}.")
    return 0


def _restore(args: argparse.Namespace) -> int:
    from bot.config import ConfigError, load_config
    from storage import backup

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        return fail(str(exc))
    target = (args.db or config.db_path).expanduser()
    source = args.backup.expanduser()
    try:
        info = backup.check(source)  # before asking anything: a bad file is refused at once
    except backup.BackupError as exc:
        return fail(f"{exc}. Nothing was changed.")
    print(f"{source}: {info.describe()}.")
    if not args.yes:
        if not sys.stdin.isatty():
            return fail("add --yes to replace the database without being asked")
        answer = input(f"Replace {target} with it? The current one is saved first. [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            print("Nothing was changed.")
            return 1
    try:
        restored = backup.restore(
            source, target, config.backup.directory_for(target), now=dt.datetime.now(dt.UTC)
        )
    except backup.BackupError as exc:
        return fail(str(exc))
    if restored.previous is not None:
        print(f"The database it replaced is saved as {restored.previous}.")
    print(f"Restored {target} from {source} ({restored.info.describe()}).")
    return 0
