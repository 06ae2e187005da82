"""The ``hoshi`` command line (bot.md, Arguments): one module per subcommand.

A subcommand module has ``add(commands)``, which adds its parser and sets ``run`` to the
function that does the work; add new subcommands to :data:`SUBCOMMANDS`.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

SUBCOMMANDS = (
    "bot.cli.console",
    "bot.cli.run",
    "bot.cli.rate",
    "bot.cli.club_files",
    "bot.cli.bench",
    "bot.cli.backup",
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = parser_of_hoshi()
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


def version() -> str:
    """hoshi's version from the installed package's metadata (pyproject.toml's version)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("hoshi")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed: pip install -e .)"


def parser_of_hoshi() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hoshi", description="A rating bot for go clubs (MGSZ, Tensuusei, Swedish, PSG)."
    )
    parser.add_argument("--version", action="version", version=f"hoshi {version()}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    for name in SUBCOMMANDS:
        importlib.import_module(name).add(commands)
    return parser
