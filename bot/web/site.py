"""``hoshi site --out DIR``: the club pages as static files for any web host (issue 14).

The same builders as the server (bot.web.pages) write every page of every club whose pages
are on, in every language, with the stylesheet, the script and the downloads: links are
relative, so the folder works from any address or from disk. A club that turned its pages off
is removed from the folder. ``hoshi run`` rewrites a club's part after each write when
``[web] site_dir`` is set (:class:`SiteRefresher`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from bot.core import reads
from bot.core.facade import Database
from bot.core.reads import Shown
from bot.i18n import LANGUAGES, translated, using
from bot.web import pages, urls
from bot.web.app import static_file, today_for
from bot.web.downloads import club_download, club_downloads
from bot.web.pages import Page, Site
from engine.errors import FormatError

log = logging.getLogger("hoshi.web")


@dataclass(slots=True)
class Written:
    """What an export wrote: files, and the files it could not write with the reason."""

    files: int = 0
    clubs: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)


async def club_pages(db: Database, shown: Shown, lang: str) -> list[Page]:
    """Every page of the club in ``lang``."""
    site = Site(db, today_for(db, shown))
    found: list[Page] = []
    with using(lang):
        found.append(await pages.ranking_page(site, shown, lang))
        found.append(await pages.ranking_page(site, shown, lang, everyone=True))
        found.append(await pages.tournaments_page(site, shown, lang))
        for row in await reads.tournaments(db, shown.club):
            page = await pages.tournament_page(site, shown, lang, row.number)
            if page is not None:
                found.append(page)
        for player in await reads.page_players(db, shown.club):
            page = await pages.player_page(site, shown, lang, player.id)
            if page is None:
                continue
            found.append(page)
            for other in await reads.opponents(db, shown.club, player.id):
                vs = await pages.head_to_head_page(site, shown, lang, player.id, other)
                if vs is not None:
                    found.append(vs)
    return found


def _write(root: Path, path: str, data: bytes, written: Written) -> None:
    """One file of the site, counted in ``written`` (what ``hoshi site`` says it wrote)."""
    target = root / urls.file_of(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    written.files += 1


async def write_club(db: Database, shown: Shown, root: Path, written: Written) -> None:
    """The club's folder under ``root``, written afresh beside the old one and swapped in, so
    that a reader never sees half a club."""
    slug = urls.club_slug(shown.club)
    fresh = Path(tempfile.mkdtemp(prefix=f".{slug}-", dir=root))
    try:
        redirect = pages.club_redirect_page(shown).html.encode()
        _write(fresh, urls.club_slug(shown.club) + "/", redirect, written)
        for lang in LANGUAGES:
            for page in await club_pages(db, shown, lang):
                _write(fresh, page.path, page.html.encode("utf-8"), written)
        with using(shown.settings.language):
            export = await reads.export(db, shown.club)
            for name in await club_downloads(db, shown):
                try:
                    found = await club_download(db, shown, name, today_for(db, shown), export)
                except FormatError as error:
                    reason = translated(error.args[0]) if error.args else str(error)
                    written.skipped.append((urls.download(shown.club, name), reason))
                    continue
                if found is not None:
                    _write(fresh, found.path, found.data, written)
            for row in await reads.with_sgf(db, shown.club, export.games):
                sgf = await reads.game_sgf(db, shown.club, row.number)
                if sgf is not None:  # the player pages link it
                    _write(fresh, urls.game_sgf(shown.club, row.number), sgf.data, written)
        old = root / slug
        if old.exists():
            retired = Path(tempfile.mkdtemp(prefix=f".{slug}-old-", dir=root))
            os.replace(old, retired / slug)
            os.replace(fresh / slug, old)
            shutil.rmtree(retired, ignore_errors=True)
        else:
            os.replace(fresh / slug, old)
        written.clubs += 1
    finally:
        shutil.rmtree(fresh, ignore_errors=True)


def _remove_others(root: Path, keep: Iterable[str]) -> None:
    """Folders of clubs whose pages are no longer on (or that were renamed) leave the site."""
    kept = set(keep)
    for child in root.iterdir():
        if child.is_dir() and urls.club_id_of(child.name) is not None and child.name not in kept:
            shutil.rmtree(child, ignore_errors=True)


async def write_site(db: Database, root: Path) -> Written:
    """The whole site under ``root``: the front page in every language, the stylesheet and
    script, and each club whose pages are on."""
    root.mkdir(parents=True, exist_ok=True)
    written = Written()
    for name in ("hoshi.css", "hoshi.js"):
        data = static_file(name)
        assert data is not None, name
        _write(root, urls.static(name), data, written)
    shown_clubs = await reads.web_clubs(db)
    for lang in LANGUAGES:
        with using(lang):
            page = await pages.index_page(Site(db, today_for(db, None)), lang)
        _write(root, page.path, page.html.encode("utf-8"), written)
    with using("en"):
        _write(root, "404.html", pages.not_found_page("en").html.encode("utf-8"), written)
    for shown in shown_clubs:
        await write_club(db, shown, root, written)
    _remove_others(root, (urls.club_slug(s.club) for s in shown_clubs))
    return written


class SiteRefresher:
    """Keeps ``[web] site_dir`` current while ``hoshi run`` runs: after a write, the site is
    written again once writes pause for ``delay`` seconds (a pasted tournament is one
    rewrite, not fifty)."""

    def __init__(self, db: Database, root: Path, delay: float = 5.0) -> None:
        self.db, self.root, self.delay = db, root, delay
        self._task: asyncio.Task[None] | None = None
        self._again = False

    def written(self) -> None:
        """Something was written: refresh soon."""
        if self._task is not None and not self._task.done():
            self._again = True
            return
        self._task = asyncio.get_running_loop().create_task(self._refresh())

    async def _refresh(self) -> None:
        while True:
            self._again = False
            await asyncio.sleep(self.delay)
            if self._again:
                continue
            try:
                done = await write_site(self.db, self.root)
                log.info("site refreshed: %d files, %d clubs", done.files, done.clubs)
            except Exception:  # the bot goes on; the next write tries again
                log.exception("the static site could not be written to %s", self.root)
            if not self._again:
                return

    async def settled(self) -> None:
        """Wait until the refresh under way (if any) has written the site."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    async def close(self) -> None:
        """Stop; a refresh still waiting for writes to pause is done now, so the site the bot
        leaves behind holds every write."""
        if self._task is None or self._task.done():
            return
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        try:
            await write_site(self.db, self.root)
        except Exception:
            log.exception("the static site could not be written to %s", self.root)
