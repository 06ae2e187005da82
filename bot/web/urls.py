"""Where each web page lives (issue 14): one scheme for the server and the static export.

Every page's address is a path below the site's root (``3-my-go-club/hu/players/12.html``);
a page links to another by a *relative* address (:func:`relative`), so the same files work
at any host and folder — the server, ``hoshi site --out DIR`` opened from disk, or a club's
own web space.
"""

from __future__ import annotations

import posixpath
import re

from bot.core import format as fmt
from bot.core.facade import Club

STATIC = "static"
DOWNLOADS = "downloads"


CLUB_SLUG_MAX = 48
"""The longest name part of a club's folder (``3-my-go-club``)."""


def club_slug(club: Club) -> str:
    """The club's folder: its id and its name folded to ``[a-z0-9-]`` (``3-my-go-club``).

    The id finds the club (a renamed club keeps it; the server redirects an old name); the
    name makes the address readable. A name with no Latin letters or digits (``山田碁会``)
    is the id alone.
    """
    words = fmt.file_slug(club.name, "", CLUB_SLUG_MAX)
    return f"{club.id}-{words}" if words else str(club.id)


def club_id_of(slug: str) -> int | None:
    """The club id at the start of a folder name (``3-my-go-club`` → 3), else ``None``."""
    found = re.fullmatch(r"(\d{1,12})(?:-[a-z0-9-]*)?", slug)
    return int(found.group(1)) if found else None


def ranking(club: Club, lang: str, *, everyone: bool = False) -> str:
    """The ranking list: active players, or ``everyone``."""
    return f"{club_slug(club)}/{lang}/" + ("all.html" if everyone else "")


def player(club: Club, lang: str, pid: int) -> str:
    return f"{club_slug(club)}/{lang}/players/{pid}.html"


def head_to_head(club: Club, lang: str, pid: int, other: int) -> str:
    return f"{club_slug(club)}/{lang}/players/{pid}/vs/{other}.html"


def tournaments(club: Club, lang: str) -> str:
    return f"{club_slug(club)}/{lang}/tournaments/"


def tournament(club: Club, lang: str, number: int) -> str:
    return f"{club_slug(club)}/{lang}/tournaments/{number}.html"


def download(club: Club, name: str) -> str:
    """A club's file: ``players.csv``, ``games.csv``, ``ratings.json``,
    ``tournaments/3.h9``."""
    return f"{club_slug(club)}/{DOWNLOADS}/{name}"


def game_sgf(club: Club, number: int) -> str:
    """The SGF file game #``number`` was recorded from (``/sgf game=N``'s)."""
    return f"{club_slug(club)}/games/{number}.sgf"


def static(name: str) -> str:
    return f"{STATIC}/{name}"


def relative(here: str, there: str) -> str:
    """The address of ``there`` as a link written in the page ``here`` (both site paths; a
    path ending in ``/`` is a folder's index page). A folder is linked by its
    ``index.html``: a static copy opened from disk shows a folder's listing, not its page."""
    base = here.rstrip("/") if here.endswith("/") else posixpath.dirname(here)
    return posixpath.relpath(file_of(there), base or ".")


def absolute(base_url: str, path: str) -> str:
    """A page's address for a chat reply: ``[web] base_url`` and the site path."""
    return f"{base_url.rstrip('/')}/{path}"


def file_of(path: str) -> str:
    """The file a site path is written to in a static export (a folder → its index.html)."""
    return path + "index.html" if path.endswith("/") or path == "" else path


class WebLinks:
    """The core's links port (:class:`bot.core.links.Links`) for this site: a page's address
    below ``[web] base_url`` (``None`` for every page while the config does not say where
    members reach the pages)."""

    def __init__(self, base_url: str | None) -> None:
        self.base_url = base_url

    def _at(self, path: str) -> str | None:
        return None if self.base_url is None else absolute(self.base_url, path)

    def ranking(self, club: Club, lang: str) -> str | None:
        return self._at(ranking(club, lang))

    def player(self, club: Club, lang: str, pid: int) -> str | None:
        return self._at(player(club, lang, pid))

    def tournament(self, club: Club, lang: str, number: int) -> str | None:
        return self._at(tournament(club, lang, number))
