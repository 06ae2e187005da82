"""``hoshi run``: the Telegram and Discord bots (tokens from the environment)."""

from __future__ import annotations

import argparse

from bot.cli.common import config_option, configured, db_option, fail, said
from bot.i18n import _


def add(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    run = commands.add_parser(
        "run",
        help=_("run the Telegram and/or Discord bot (tokens from the environment)"),
        description=_(
            "Start the bots whose tokens are set ({tokens}) in one process sharing one "
            "database; Ctrl-C stops them. Without a token, use {console}.",
            tokens="TELEGRAM_TOKEN, DISCORD_TOKEN",
            console="hoshi console",
        ),
    )
    db_option(run)
    config_option(run)
    run.set_defaults(run=_run_bots)


def _run_bots(args: argparse.Namespace) -> int:
    import asyncio

    from bot.config import ConfigError
    from bot.run import configure_logging, run_bots

    try:
        config = configured(args)
    except ConfigError as exc:
        return fail(said(exc))
    tokens = [t for t in (config.telegram_token, config.discord_token) if t]
    if tokens:
        configure_logging(config, tokens)
    return asyncio.run(run_bots(config, db_path=args.db))
