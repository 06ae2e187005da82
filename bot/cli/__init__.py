"""The ``hoshi`` command line (bot.md, Arguments): one module per subcommand.

A subcommand module has ``add(commands)``, which adds its parser and sets ``run`` to the
function that does the work; add new subcommands to :data:`SUBCOMMANDS`.

The command line speaks the operator's language (issue 13): the first of ``LC_ALL``,
``LC_MESSAGES`` and ``LANG`` that is set names it (``LANG=ja_JP.UTF-8 hoshi rate …``), English
when hoshi has no catalogue for it.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Mapping, Sequence

from bot import system_names
from bot.i18n import _, terminal_language, translated, using

SUBCOMMANDS = (
    "bot.cli.console",
    "bot.cli.run",
    "bot.cli.rate",
    "bot.cli.club_files",
    "bot.cli.bench",
    "bot.cli.backup",
    "bot.cli.translations",
    "bot.cli.web",
    "bot.cli.migrate",
)


def operator_language(env: Mapping[str, str] | None = None) -> str:
    """The language of the person at the terminal: the first of ``LC_ALL``, ``LC_MESSAGES``
    and ``LANG`` that is set (POSIX's order), when hoshi has a catalogue for it; else English."""
    return terminal_language(env) or "en"


def main(argv: Sequence[str] | None = None) -> int:
    """Run one ``hoshi`` command in the operator's language (:func:`operator_language`)."""
    with using(operator_language()):
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
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
        return _("unknown (not installed: {command})", command="pip install -e .")


def parser_of_hoshi() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hoshi",
        description=_(
            "A rating bot for go clubs: {systems}.",
            systems="; ".join(translated(system_names.title(key)) for key in system_names.TITLES),
        ),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"hoshi {version()}",
        help=_("show hoshi's version and exit"),
    )
    commands = parser.add_subparsers(title=_("commands"), metavar="COMMAND")
    for name in SUBCOMMANDS:
        importlib.import_module(name).add(commands)
    for each in (parser, *commands.choices.values()):
        _localised(each)
    return parser


class _Formatter(argparse.HelpFormatter):
    """argparse's help with its own words ("usage:") in the operator's language."""

    def add_usage(self, usage, actions, groups, prefix=None):  # type: ignore[no-untyped-def]
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)


def _localised(parser: argparse.ArgumentParser) -> None:
    """The words argparse writes itself (its section titles, ``-h``'s help) in the operator's
    language; argparse has no catalogue of its own for them."""
    parser.formatter_class = _Formatter
    parser._positionals.title = _("positional arguments")
    parser._optionals.title = _("options")
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            action.help = _("show this help message and exit")
