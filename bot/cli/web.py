"""``hoshi web`` (the read-only club pages on a web server) and ``hoshi site --out DIR`` (the
same pages as static files), issue 14."""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import replace
from pathlib import Path

from bot.cli.common import config_option, configured, database_of, db_option, fail, said
from bot.i18n import _, _n


def add(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    web = commands.add_parser(
        "web",
        help=_("serve the clubs' read-only web pages (ranking, players, tournaments)"),
        description=_(
            "Serve the pages of every club whose organisers turned them on with {command}: "
            "the ranking list, each player and tournament, and the CSV, JSON and h9 files. "
            "Nothing can be changed through them. Ctrl-C stops the server.",
            command="/club web on",
        ),
    )
    db_option(web)
    config_option(web)
    web.add_argument(
        "--host", help=_("the address to listen on (default: {key})", key="[web] host")
    )
    web.add_argument(
        "--port", type=int, help=_("the port to listen on (default: {key})", key="[web] port")
    )
    web.set_defaults(run=_serve)
    site = commands.add_parser(
        "site",
        help=_("write the clubs' web pages as static files into a folder"),
        description=_(
            "Write the same pages as {command} into a folder, for any web host: links are "
            "relative, so the folder also works opened from disk. Clubs whose pages are off "
            "are left out (and removed from the folder).",
            command="hoshi web",
        ),
    )
    db_option(site)
    config_option(site)
    site.add_argument("--out", type=Path, required=True, help=_("the folder to write into"))
    site.set_defaults(run=_site)


def _serve(args: argparse.Namespace) -> int:
    from bot.config import ConfigError

    try:
        config = configured(args)
    except ConfigError as exc:
        return fail(said(exc))
    web = config.web
    if args.host:
        web = replace(web, host=args.host)
    if args.port is not None:
        if not 0 <= args.port <= 65535:
            return fail(_("--port takes a number from 0 to 65535, not {value}", value=args.port))
        web = replace(web, port=args.port)
    path = database_of(args.db, config)
    if isinstance(path, Path) and not path.exists():
        return fail(_("there is no database at {path}", path=path))
    try:
        return asyncio.run(_serving(path, web))
    except OSError as exc:
        return fail(
            _(
                "cannot listen on {address}: {error}",
                address=f"{web.host}:{web.port}",
                error=exc.strerror or exc,
            )
        )


async def _serving(path: str | Path, web_config: object) -> int:
    from bot.web.app import serve
    from bot.web.pages import web_clubs
    from storage import open_db

    db = await open_db(path)
    try:
        runner = await serve(db, web_config)  # type: ignore[arg-type]
        try:
            shown = await web_clubs(db)
            host, port = web_config.host, web_config.port  # type: ignore[attr-defined]
            print(_("hoshi's web pages: {url} (Ctrl-C stops)", url=f"http://{host}:{port}/"))
            if not shown:
                print(
                    _(
                        "No club shows its pages yet: an organiser turns them on in the "
                        "club's chat with {command}.",
                        command="/club web on",
                    )
                )
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()
    finally:
        await db.close()
    return 0


def _site(args: argparse.Namespace) -> int:
    from bot.config import ConfigError

    try:
        config = configured(args)
    except ConfigError as exc:
        return fail(said(exc))
    path = database_of(args.db, config)
    if isinstance(path, Path) and not path.exists():
        return fail(_("there is no database at {path}", path=path))
    out = args.out.expanduser()
    if out.exists() and not out.is_dir():
        return fail(_("{path} is a file, not a folder", path=out))
    done = asyncio.run(_writing(path, out))
    print(
        _(
            "Wrote {files} for {clubs} into {folder}.",
            files=_n("{n} file", "{n} files", done.files),
            clubs=_n("{n} club", "{n} clubs", done.clubs),
            folder=out,
        )
    )
    for where, reason in done.skipped:
        print(_("Not written: {file}: {reason}", file=where, reason=reason))
    if not done.clubs:
        print(
            _(
                "No club shows its pages yet: an organiser turns them on in the club's chat "
                "with {command}.",
                command="/club web on",
            )
        )
    return 0


async def _writing(path: str | Path, out: Path):  # type: ignore[no-untyped-def]
    from bot.web.site import write_site
    from storage import open_db

    db = await open_db(path)
    try:
        return await write_site(db, out)
    finally:
        await db.close()
