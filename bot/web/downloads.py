"""A club's files on the web (issue 14): the same CSV, JSON and EGD h9 as ``/export``.

``players.csv``, ``games.csv``, ``ratings.json`` (formats.md) and ``tournaments/N.h9`` for
each tournament, ready to submit to the EGD. They hold what the club's lists show: names,
ranks, ratings, and the country, home club and EGD PIN the EGD publishes too.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from bot.core import exporting, reads
from bot.core.facade import Database
from bot.core.reads import Export, Shown
from bot.web import urls
from bot.web.kept import Kept


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
_H9 = re.compile(r"tournaments/([1-9][0-9]{0,8})\.h9")
"""A tournament's h9 by its number as the club shows it: ``1.h9``, never ``01.h9`` (one name
per file, issue 26)."""


def known_name(name: str) -> bool:
    """Whether ``name`` is the name of a file a club may have: anything else is answered at
    once, before the club's data is read (issue 26: every unknown name built the export)."""
    return name in CLUB_FILES or _H9.fullmatch(name) is not None


class DownloadCache(Kept[Download]):
    """Files kept until the club's data moves on (a new log entry, a rebuilt projection, a new
    day): the same download asked again is not written again (issue 26: 20 requests at once
    for an export of 10,000 players held every other page up)."""

    __slots__ = ()

    def __init__(self, size: int = 32) -> None:
        super().__init__(size)


async def club_download(
    db: Database,
    shown: Shown,
    name: str,
    today: dt.date,
    export: Export | None = None,
    cache: DownloadCache | None = None,
) -> Download | None:
    """The club's file ``name`` (``players.csv``, ``tournaments/3.h9``); ``None`` when there
    is no such file. ``today``: the club's date (who is active, as the ranking list says).
    ``export``: the club's data read once for several files (the static export writes them
    all). ``cache``: files kept until the club's data moves on (the web server's).

    Raises:
        FormatError: a tournament an EGD h9 file cannot hold (two games of one player in a
            round), in the reader's words.
    """
    if not known_name(name):
        return None
    if export is None and cache is not None:
        key = (shown.club.id, name, today, await reads.data_version(db, shown.club))
        kept = cache.get(key)
        if kept is not None:
            return kept
        made = await club_download(db, shown, name, today)
        return made if made is None else cache.keep(key, made)
    export = export or await reads.export(db, shown.club)
    path = urls.download(shown.club, name)
    if name == "players.csv":
        text = exporting.players_csv(export)
    elif name == "games.csv":
        text = exporting.games_csv(export)
    elif name == "ratings.json":
        activity = shown.activity
        text = exporting.ratings_json(export, exporting.active_players(export, activity, today))
    elif (found := _H9.fullmatch(name)) is not None:
        h9 = await reads.tournament_h9(db, shown.club, export, int(found.group(1)))
        if h9 is None:
            return None
        text = h9
    else:
        return None
    suffix = name[name.rfind(".") :]
    return Download(path, text.encode("utf-8"), MEDIA_TYPES[suffix])


async def club_downloads(db: Database, shown: Shown) -> list[str]:
    """The names of every file the club has (its tournaments' h9 files included)."""
    names = list(CLUB_FILES)
    for row in await reads.tournaments(db, shown.club):
        names.append(f"tournaments/{row.number}.h9")
    return names
