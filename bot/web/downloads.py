"""A club's files on the web (issue 14): the same CSV, JSON and EGD h9 as ``/export``.

``players.csv``, ``games.csv``, ``ratings.json`` (formats.md) and ``tournaments/N.h9`` for
each tournament, ready to submit to the EGD. They hold what the club's lists show: names,
ranks, ratings, and the country, home club and EGD PIN the EGD publishes too.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

import storage
from bot.core import exporting
from bot.web import urls
from bot.web.pages import Shown


@dataclass(frozen=True, slots=True)
class Download:
    """A file: its site path, its bytes and its media type."""

    path: str
    data: bytes
    media_type: str


MEDIA_TYPES = {
    ".csv": "text/csv; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".h9": "text/plain; charset=utf-8",
}

CLUB_FILES = ("players.csv", "games.csv", "ratings.json")
_H9 = re.compile(r"tournaments/(\d{1,9})\.h9")


async def club_download(
    db: storage.Database,
    shown: Shown,
    name: str,
    today: dt.date,
    export: storage.Export | None = None,
) -> Download | None:
    """The club's file ``name`` (``players.csv``, ``tournaments/3.h9``); ``None`` when there
    is no such file. ``today``: the club's date (who is active, as the ranking list says).
    ``export``: the club's data read once for several files (the static export writes them
    all).

    Raises:
        FormatError: a tournament an EGD h9 file cannot hold (two games of one player in a
            round), in the reader's words.
    """
    export = export or await storage.export_rows(db, shown.club)
    path = urls.download(shown.club, name)
    if name == "players.csv":
        text = exporting.players_csv(export)
    elif name == "games.csv":
        text = exporting.games_csv(export)
    elif name == "ratings.json":
        activity = shown.activity
        text = exporting.ratings_json(export, exporting.active_players(export, activity, today))
    elif (found := _H9.fullmatch(name)) is not None:
        row = await storage.tournament_by_number(db, shown.club, int(found.group(1)))
        if row is None:
            return None
        text = exporting.tournament_h9(
            export,
            row,
            await storage.entries(db, shown.club, row.id),
            await storage.entry_ranks(db, shown.club, row.id),
        )
    else:
        return None
    suffix = name[name.rfind(".") :]
    return Download(path, text.encode("utf-8"), MEDIA_TYPES[suffix])


async def club_downloads(db: storage.Database, shown: Shown) -> list[str]:
    """The names of every file the club has (its tournaments' h9 files included)."""
    names = list(CLUB_FILES)
    for row in await storage.tournaments(db, shown.club):
        names.append(f"tournaments/{row.number}.h9")
    return names
