"""What every ``hoshi`` subcommand shares: ``--db``/``--club``, opening the club, failing."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from engine.errors import EngineError

ClubWork = Callable[[Any, Any, Any], Awaitable[int]]

SYSTEM_CHOICES = ("mgsz", "tensuusei", "swedish", "psg")


def club_options(parser: argparse.ArgumentParser) -> None:
    """``--db`` and ``--club``, taken by every subcommand that opens a club (bot.md)."""
    parser.add_argument("--db", type=Path, help="the SQLite database (default: from the config)")
    parser.add_argument("--club", help="the club (default: the only club, created on first use)")
    parser.add_argument(
        "--config",
        type=Path,
        help="config file (default: HOSHI_CONFIG or the user config directory)",
    )


def run_club_command(args: argparse.Namespace, work: ClubWork) -> int:
    """Open the config, the database and the club, run ``work``, close everything."""
    import asyncio

    from bot.adapters.console import console_club
    from bot.config import ConfigError, load_config
    from storage import open_db
    from storage.errors import StorageError

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        return fail(str(exc))

    async def run() -> int:
        path = (args.db or config.db_path).expanduser()
        path.parent.mkdir(parents=True, exist_ok=True)
        db = await open_db(path)
        try:
            club = await console_club(db, args.club, config.system, config.club)
            return await work(db, club, config)
        except (StorageError, EngineError) as exc:
            return fail(str(exc))
        finally:
            await db.close()

    return asyncio.run(run())


def fail(message: str) -> int:
    print(f"hoshi: {message}", file=sys.stderr)
    return 2
