"""What every ``hoshi`` subcommand shares: ``--db``/``--club``, opening the club, failing."""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot import system_names
from bot.i18n import _, translated
from engine.errors import EngineError
from engine.text import MARK

if TYPE_CHECKING:
    from bot.config import Config, GivenOptions

ClubWork = Callable[[Any, Any, Any], Awaitable[int]]

SYSTEM_CHOICES = system_names.KEYS


def club_options(parser: argparse.ArgumentParser, *, creates: bool = True) -> None:
    """``--db``, ``--club`` and ``--config``, taken by every subcommand that opens a club;
    ``creates=False`` for one that only reads or rebuilds a club that exists."""
    db_option(parser)
    parser.add_argument(
        "--club",
        help=(
            _("the club (default: the only club, created on first use)")
            if creates
            else _("the club (default: the database's only club)")
        ),
    )
    config_option(parser)


def db_option(parser: argparse.ArgumentParser) -> None:
    """``--db``: the database, in the operator's language."""
    parser.add_argument(
        "--db",
        type=db_target,
        help=_("the SQLite database, or a postgresql:// URL (default: from the config)"),
    )


def db_target(text: str) -> str | Path:
    """``--db``'s value: a ``postgresql://`` URL as given (a URL is never a path), else the
    SQLite file's path."""
    from bot.config import is_database_url

    return text if is_database_url(text) else Path(text)


def database_of(given: str | Path | None, config: Any) -> str | Path:
    """The database a command opens: ``--db``, else the config's (``[database] url`` or
    ``[hoshi] db_path``); a path with ``~`` expanded."""
    target: str | Path = given if given is not None else config.database
    return target.expanduser() if isinstance(target, Path) else target


def shown(target: str | Path) -> str:
    """A database for a message: the path, or the URL without its password."""
    if isinstance(target, Path):
        return str(target)
    from storage.db import without_password

    return without_password(target)


def configured(args: argparse.Namespace) -> Config:
    """The config of ``--config`` (else ``HOSHI_CONFIG``, else the user config directory),
    carrying the options the operator gave (``--db``, ``--config``, ``--club``) for every
    command hoshi suggests (:meth:`bot.config.GivenOptions.command`).

    Raises:
        ConfigError: the config file is bad, naming the key.
    """
    from bot.config import GivenOptions, load_config

    config = load_config(args.config)
    club = getattr(args, "club", None) or getattr(args, "new_club", None)
    return replace(config, given=GivenOptions(getattr(args, "db", None), args.config, club))


def config_option(parser: argparse.ArgumentParser) -> None:
    """``--config``: the config file, in the operator's language."""
    parser.add_argument(
        "--config",
        type=Path,
        help=_("config file (default: HOSHI_CONFIG or the user config directory)"),
    )


def said(exc: BaseException) -> str:
    """An exception's message in the operator's language (a storage or engine ``Msg``); the
    engine's ``{game:ID}``/``{player:ID}`` marks as their bare numbers (no club to name them
    by: a file's own numbers, offline; :func:`said_in` names them in a club)."""
    text = translated(exc.args[0]) if exc.args else str(exc)
    return MARK.sub(lambda mark: mark[2], text)


async def said_in(db: Any, club: Any, exc: BaseException) -> str:
    """:func:`said`, a game named by its club number and a player by name (``#12``)."""
    from bot.core.notices import marked

    text = translated(exc.args[0]) if exc.args else str(exc)
    return await marked(db, club, text) if club is not None else said(exc)


def run_club_command(args: argparse.Namespace, work: ClubWork, *, create: bool = True) -> int:
    """Open the config, the database and the club, run ``work``, close everything.

    With ``create=False`` (commands that only read or rebuild a club: export, replay) the
    database and the club must exist: a missing one is refused, never created.
    """
    import asyncio

    from bot.adapters.console import console_club
    from bot.config import ConfigError
    from storage import open_db
    from storage.errors import StorageError

    try:
        config = configured(args)
    except ConfigError as exc:
        return fail(said(exc))
    target = database_of(args.db, config)
    path = target if isinstance(target, Path) else None
    if path is not None and not create and not path.is_file():
        example = "--db ~/hoshi/club.sqlite"
        if path.parent.is_dir():
            return fail(
                _(
                    "there is no database at {path}; give an existing one with --db, "
                    "e.g. {example}",
                    path=path,
                    example=example,
                )
            )
        return fail(
            _(
                "there is no database at {path} (no directory {directory}); give an existing "
                "one with --db, e.g. {example}",
                path=path,
                directory=path.parent,
                example=example,
            )
        )

    async def run() -> int:
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        errors: tuple[type[BaseException], ...] = (OSError,)
        if path is None:
            import asyncpg

            errors = (OSError, asyncpg.PostgresError, asyncpg.InterfaceError)
        try:
            db = await open_db(target)
        except errors as exc:  # a server that does not answer, refuses us, lacks the database
            return fail(
                _("cannot open the database {target}: {error}", target=shown(target), error=exc)
            )
        club = None
        try:
            if create:
                club = await console_club(
                    db, args.club, config.system, config.club, given=config.given
                )
            else:
                club = await existing_club(db, args.club, config.given)
            return await work(db, club, config)
        except (StorageError, EngineError) as exc:
            return fail(await said_in(db, club, exc))
        finally:
            await db.close()

    return asyncio.run(run())


async def existing_club(db: Any, name: str | None, given: GivenOptions | None = None) -> Any:
    """The club named ``name`` (or the only club) of an existing database, never created;
    a refusal's suggested command keeps the options ``given``.

    Raises:
        Refused: no such club, no club at all, or several clubs and no name.
    """
    import storage
    from storage.errors import Refused

    clubs = await storage.clubs(db)
    names = ", ".join(club.name for club in clubs)
    example = f"--club {shlex.quote(clubs[0].name)}" if clubs else ""
    if name:
        club = await storage.get_club(db, name)
        if club is None:
            if clubs:
                raise Refused(
                    _(
                        "there is no club {name} in this database; its clubs: {names} "
                        "(e.g. {example})",
                        name=repr(name),
                        names=names,
                        example=example,
                    )
                )
            raise Refused(
                _(
                    "there is no club {name} in this database; it holds no club yet",
                    name=repr(name),
                )
            )
        return club
    if len(clubs) == 1:
        return clubs[0]
    if clubs:
        raise Refused(
            _(
                "this database holds several clubs ({names}); name one with --club "
                "(e.g. {example})",
                names=names,
                example=example,
            )
        )
    raise Refused(
        _(
            "this database holds no club yet; import players first ({example})",
            example=(given or _no_options()).command("import", "FILE", club=False),
        )
    )


def _no_options() -> GivenOptions:
    from bot.config import GivenOptions

    return GivenOptions()


def no_time_control(tf: Any, manual_c: int | None, *, time_flag: bool) -> str | None:
    """In the command line's words, why C cannot be computed for ``tf`` (an engine
    ``TournamentFile``), or ``None`` when that is not the trouble: the file gives no time
    control and no ``--C`` was given (MGSZ Minősítési Szabályzat 6.§ (1) step 1; the rating
    committee sets C when the tournament's own data cannot, 6.§ (2))."""
    if manual_c is not None or tf.time is not None or tf.time_minutes is not None:
        return None
    if time_flag:
        return _(
            "{tournament}: the file gives no time control (no TM line), so the MGSZ "
            "multiplier C cannot be computed; give it with {time} or set C by hand with --C, "
            "e.g. {example}",
            tournament=tf.name,
            time='--time "60m 3x30s japanese"',
            example="--C 25",
        )
    return _(
        "{tournament}: the file gives no time control (no TM line), so the MGSZ multiplier "
        "C cannot be computed; set C by hand with --C, e.g. {example}",
        tournament=tf.name,
        example="--C 25",
    )


def fail(message: str) -> int:
    print(f"hoshi: {message}", file=sys.stderr)
    return 2
