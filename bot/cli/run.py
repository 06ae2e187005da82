"""``hoshi run``: the Telegram and Discord bots (tokens from the environment)."""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.cli.common import fail


def add(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
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
        return fail(str(exc))
    tokens = [t for t in (config.telegram_token, config.discord_token) if t]
    if tokens:
        configure_logging(config, tokens)
    return asyncio.run(run_bots(config, db_path=args.db))
