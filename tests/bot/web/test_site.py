"""``hoshi site --out DIR``: the same pages as files; every link in them leads to a file."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from bot.web import urls
from bot.web.site import SiteRefresher, write_site
from tests.bot.core.fakechat import FakeChat
from tests.bot.web.conftest import club_with_games
from tests.conftest import PgDatabases

LINK = re.compile(r'(?:href|src)="([^"]+)"')


def broken_links(root: Path) -> list[tuple[str, str]]:
    """Every relative link of every page that leads to no file — a link to a folder too: a
    static copy opened from disk would show the folder's listing, not its page."""
    broken = []
    for page in root.rglob("*.html"):
        for link in LINK.findall(page.read_text(encoding="utf-8")):
            parts = urlsplit(link)
            if parts.scheme or link.startswith("#"):
                continue
            target = (page.parent / unquote(parts.path)).resolve()
            if not target.is_file():
                broken.append((str(page.relative_to(root)), link))
    return broken


async def test_the_site_holds_every_page_and_no_broken_link(
    chat: FakeChat, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    done = await write_site(chat.db, out)
    slug = urls.club_slug(chat.club)
    for lang in ("en", "hu", "ja", "sv", "pl"):
        for page in ("index.html", "all.html", "tournaments/index.html", "tournaments/1.html"):
            assert (out / slug / lang / page).is_file(), (lang, page)
        assert len(list((out / slug / lang / "players").glob("*.html"))) == 4
    for name in ("players.csv", "games.csv", "ratings.json", "tournaments/1.h9"):
        assert (out / slug / "downloads" / name).is_file(), name
    assert (out / "index.html").is_file() and (out / "static" / "hoshi.css").is_file()
    assert done.clubs == 1 and done.files > 40 and not done.skipped
    # the count hoshi site prints is the files there are (it once left out two)
    assert done.files == sum(1 for path in out.rglob("*") if path.is_file())
    assert broken_links(out) == []


async def test_the_sgf_files_the_player_pages_link_are_written(
    chat: FakeChat, tmp_path: Path
) -> None:
    sgf = (Path(__file__).parents[2] / "engine/formats/data/sgf/jigo.sgf").read_bytes()
    shown = await chat.ok(
        '/result black="Nagy Péter" white="Kovács Anna"', attachment=sgf, attachment_name="a.sgf"
    )
    await chat.ok(shown.reply.buttons[0].command)
    number = max(row.number for row in await chat.games())
    out = tmp_path / "site"
    await write_site(chat.db, out)
    assert (out / urls.game_sgf(chat.club, number)).read_bytes() == sgf
    assert [p.name for p in out.rglob("*.sgf")] == [f"{number}.sgf"]
    assert broken_links(out) == []


async def test_a_club_that_turns_its_pages_off_leaves_the_site(
    chat: FakeChat, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    await write_site(chat.db, out)
    slug = urls.club_slug(chat.club)
    assert (out / slug).is_dir()
    await chat.ok("/club web off")
    done = await write_site(chat.db, out)
    assert done.clubs == 0
    assert not (out / slug).exists()
    assert chat.club.name not in (out / "index.html").read_text(encoding="utf-8")


async def test_only_clubs_with_pages_on_are_written(tmp_path: Path) -> None:
    chat = await club_with_games(tmp_path, web=False)
    try:
        done = await write_site(chat.db, tmp_path / "site")
        assert done.clubs == 0
        assert not list((tmp_path / "site").glob("*-budapest-go-club"))
    finally:
        await chat.close()


async def test_the_site_is_written_again_after_a_write(chat: FakeChat, tmp_path: Path) -> None:
    out = tmp_path / "site"
    refresher = SiteRefresher(chat.db, out, delay=0)
    chat.db.after_commit(refresher.written)
    try:
        await chat.ok("/register Kiss Dóra 12k")
        await refresher.settled()
        ranking = out / urls.club_slug(chat.club) / "en" / "all.html"
        assert "Kiss Dóra" in ranking.read_text(encoding="utf-8")
    finally:
        await refresher.close()


async def test_hoshi_site_reads_a_postgresql_database(
    tmp_path: Path, pg_databases: PgDatabases
) -> None:
    import asyncio
    import io

    from bot.__main__ import main
    from bot.adapters.console import run_console
    from bot.config import Config

    url = await pg_databases.create()
    try:
        script = "/register Nagy Péter 5k 1600\n/register Kiss Anna 5k 1600\n/club web on\n"
        config = Config(charts_dir=tmp_path / "charts")
        out = io.StringIO()
        assert await run_console(config, db_path=url, source=io.StringIO(script), out=out) == 0
        site = tmp_path / "site"
        assert await asyncio.to_thread(main, ["site", "--db", url, "--out", str(site)]) == 0
        # Kiss Anna has no game yet: not on the active list, but on everyone's and her page
        pages = [p.read_text(encoding="utf-8") for p in site.rglob("*.html")]
        assert any("Kiss Anna" in page for page in pages)
        assert broken_links(site) == []
    finally:
        await pg_databases.drop(url)


async def test_the_site_writes_a_chat_run_tournaments_page_as_the_server_serves_it(
    tmp_path: Path,
) -> None:
    from aiohttp.test_utils import TestClient, TestServer

    from bot.web.app import web_app
    from tests.bot.web.conftest import chat_run_club

    chat = await chat_run_club(tmp_path)
    try:
        out = tmp_path / "site"
        await write_site(chat.db, out)
        path = urls.tournament(chat.club, "en", 2)
        async with TestClient(TestServer(web_app(chat.db), host="127.0.0.1")) as client:
            served = await (await client.get("/" + path)).text()
        written = (out / path).read_text(encoding="utf-8")
        assert 'id="round-2"' in written and "2 boards wait for their results." in written
        assert written == served
        assert broken_links(out) == []
    finally:
        await chat.close()
