"""hoshi's web pages in a real browser (web-contract.md): a Hungarian club's first hour, served
by ``bot.web.app.web_app`` and read by headless Chromium — what a member sees, clicks and
types, with and without JavaScript, on a desktop and a phone; what axe-core finds; and what
the server answers for the pages it must not show.

The club's data comes from examples/first-hour-mgsz.txt run through the real command core
(the console: the example moves time with ``/tick``, which only the console has), then
``/club web on`` and ``/top`` said in the club's chat (FakeChat). A second club keeps its pages
off.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import pytest_asyncio
from playwright.async_api import expect

import storage
from bot.adapters.console import run_console
from bot.clock import FakeClock
from bot.config import Config
from bot.core.app import Core
from bot.web import urls
from bot.web.app import web_app
from bot.web.site import write_site
from storage.records import Club
from tests.bot.core.fakechat import ADMIN, CALLERS, CHAT_ID, PLATFORM, FakeChat
from tests.web.browser import (
    PHONE,
    accessibility_violations,
    console_errors,
    format_violations,
    png_size,
    served,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
START = dt.datetime(2026, 11, 23, 19, 0, tzinfo=ZoneInfo("UTC"))  # the example's clock
HIDDEN_CHAT = "-2002"

SECURITY_HEADERS = {  # web-contract.md, "Security headers (every response)"
    "content-security-policy": "default-src 'none'; style-src 'self'; script-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "interest-cohort=()",
}


@dataclass(frozen=True)
class Site:
    """The served site: its address, the club with its pages on and the one without."""

    url: str
    db: storage.Database
    club: Club
    hidden: Club
    top: str  # what /top answered in the club's chat
    players: dict[str, int]  # name → storage Player.id

    def page(self, path: str) -> str:
        """The address of a page below the club's folder (``hu/``, ``hu/all.html`` …)."""
        return f"{self.url}/{urls.club_slug(self.club)}/{path}"


async def first_hour(folder: Path) -> Path:
    """examples/first-hour-mgsz.txt as its header says to run it; the database's path."""
    path = folder / "club.sqlite"
    config = Config(db_path=path, charts_dir=folder / "charts")
    script = (EXAMPLES / "first-hour-mgsz.txt").read_text(encoding="utf-8")
    out = io.StringIO()
    code = await run_console(config, source=io.StringIO(script), out=out, clock=FakeClock(START))
    assert code == 0, out.getvalue()
    assert "Something went wrong" not in out.getvalue()
    return path


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def site(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Site]:
    folder = tmp_path_factory.mktemp("web-club")
    path = await first_hour(folder)
    clock = FakeClock(dt.datetime(2026, 12, 1, 0, 10, tzinfo=ZoneInfo("UTC")))
    db = await storage.open_db(path, clock=clock)
    try:
        admin = CALLERS[ADMIN].identity
        (club,) = await storage.clubs(db)
        await storage.bind_chat(db, club, PLATFORM, CHAT_ID, actor=admin)
        core = Core(db, Config(db_path=path, charts_dir=folder / "charts"))
        chat = FakeChat(db, core, club, clock)
        await chat.ok("/club web on")
        top = (await chat.ok("/top")).text
        # a tournament run from the chat, its first round published (no result yet)
        await chat.ok("/tournament new Téli Liga rounds=3 pairing=mcmahon handicap=rank-2")
        await chat.ok("/tournament add Nagy Péter, Kovács Anna, Tóth Bence, Szabó Éva")
        await chat.ok("/tournament pair")
        await chat.ok("/tournament publish")

        hidden = await storage.create_club(db, "Titkos Klub", "mgsz", actor=admin)
        await storage.bind_chat(db, hidden, PLATFORM, HIDDEN_CHAT, actor=admin)
        secret = FakeChat(db, core, hidden, clock, chat_id=HIDDEN_CHAT)
        await secret.ok("/register Rejtett Róza 3k 1830")

        club = await storage.get_club(db, club.id)
        assert club is not None
        players = {player.name: player.id for player in await storage.players(db, club)}
        async with served(web_app(db)) as url:
            yield Site(url, db, club, hidden, top, players)
    finally:
        await db.close()


# --- reading a page -------------------------------------------------------------------------

VISIBLE_ROWS = """table => [...table.tBodies].flatMap(body => [...body.rows])
    .filter(row => row.getClientRects().length > 0)
    .map(row => [...row.cells].map(cell => cell.textContent.trim()))"""


async def rows(page: Any, table: str = "#ranking") -> list[list[str]]:
    """The visible body rows of ``table``: each cell's text as shown."""
    return await page.eval_on_selector(table, VISIBLE_ROWS)


def number(text: str) -> str:
    """A number as a page or a reply writes it, without grouping spaces or a typographic
    minus: ``"2 059"`` → ``"2059"``, ``"−13"`` → ``"-13"``."""
    return re.sub(r"[\s\u00a0\u202f]", "", text).replace("\u2212", "-")


TOP_ROW = re.compile(r"^\s*(\d+)\s+(\S.*?)\s{2,}(\S+)\s+([−-]?\d+)\s+(\d+)\s*$")


def top_rows(top: str) -> list[tuple[str, str, str, str, str]]:
    """/top's table: place, name, rank, rating, games."""
    found = [match.groups() for line in top.splitlines() if (match := TOP_ROW.match(line))]
    assert found, f"no rows in /top's answer:\n{top}"
    return [
        (place, name, rank, number(rating), games) for place, name, rank, rating, games in found
    ]


def no_errors(page: Any) -> None:
    """The page loaded everything it asked for and broke no rule of its own (no script error,
    nothing the Content-Security-Policy refused)."""
    errors = console_errors(page)
    assert not errors, "\n".join(errors)


def names(found: list[list[str]]) -> list[str]:
    return [row[1] for row in found]


def headers_missing(headers: dict[str, str]) -> dict[str, tuple[str | None, str]]:
    """The contract's security headers a response lacks or gets wrong: name → (got, wanted)."""
    return {
        name: (headers.get(name), wanted)
        for name, wanted in SECURITY_HEADERS.items()
        if headers.get(name) != wanted
    }


# --- the ranking ----------------------------------------------------------------------------


async def test_the_ranking_shows_what_top_answers_in_the_chat(page: Any, site: Site) -> None:
    response = await page.goto(site.page("hu/"))
    assert response.status == 200
    assert await page.get_attribute("html", "lang") == "hu"
    assert await page.locator("h1").count() == 1
    assert site.club.name in await page.text_content("header")
    shown = [(row[0], row[1], row[2], number(row[3]), number(row[4])) for row in await rows(page)]
    assert shown == top_rows(site.top)
    no_errors(page)


async def test_each_name_links_to_the_players_page(page: Any, site: Site) -> None:
    await page.goto(site.page("hu/"))
    for name, pid in site.players.items():
        row = page.locator(f'#ranking tr[data-player="{pid}"]')
        assert await row.locator("a.player").text_content() == name
        assert await row.locator("a.player").get_attribute("href") == f"players/{pid}.html"


async def test_everyone_and_the_active_players_link_to_each_other(page: Any, site: Site) -> None:
    await page.goto(site.page("hu/"))
    await page.click("a.toggle")
    assert page.url == site.page("hu/all.html")
    assert set(names(await rows(page))) == set(site.players)
    await page.click("a.toggle")
    assert page.url == site.page("hu/index.html")  # a folder is linked by its index.html


# --- the player page ------------------------------------------------------------------------


async def test_a_player_link_opens_the_players_card_chart_history_and_opponents(
    page: Any, site: Site
) -> None:
    pid = site.players["Nagy Péter"]
    await page.goto(site.page("hu/"))
    await page.click(f'#ranking tr[data-player="{pid}"] a.player')
    assert page.url == site.page(f"hu/players/{pid}.html")
    assert "Nagy Péter" in await page.text_content("h1")
    card = await page.text_content("#card")
    assert "1727" in number(card)  # /rating Nagy Péter after the November club games
    assert "5k" in card

    chart = page.locator("#chart svg[role=img]")
    assert await chart.count() == 1
    label = await chart.get_attribute("aria-labelledby")
    assert label
    for part in label.split():
        assert await page.locator(f"#{part}").count() == 1, f"aria-labelledby names #{part}"

    history = await rows(page, "#history-table")
    assert len(history) >= 3  # registration, Őszi Kupa, the November club games
    assert any("Őszi Kupa" in " ".join(row) for row in history), history

    # he played Kovács Anna twice (the club game, round 2) and Szabó Éva once; the game
    # against Tóth Bence was undone
    opponents = page.locator("#head-to-head tbody tr")
    assert await opponents.count() == 2
    text = await page.text_content("#head-to-head")
    assert "Kovács Anna" in text and "Szabó Éva" in text and "Tóth Bence" not in text
    anna = site.players["Kovács Anna"]
    await page.click(f'#head-to-head a[href="{pid}/vs/{anna}.html"]')
    assert page.url == site.page(f"hu/players/{pid}/vs/{anna}.html")
    no_errors(page)


# --- languages ------------------------------------------------------------------------------


async def test_the_language_links_open_the_same_page_in_another_language(
    page: Any, site: Site
) -> None:
    await page.goto(site.page("hu/"))
    current = page.locator('nav.languages [aria-current="true"]')
    assert await current.count() == 1
    assert await page.locator("nav.languages a[hreflang=hu]").count() == 0
    for lang in ("en", "ja", "sv", "pl"):
        link = page.locator(f"nav.languages a[hreflang={lang}]")
        assert await link.get_attribute("lang") == lang
    hungarian = await page.text_content("#ranking thead")
    await page.click("nav.languages a[hreflang=en]")
    assert page.url == site.page("en/index.html")
    assert await page.get_attribute("html", "lang") == "en"
    english = await page.text_content("#ranking thead")
    assert english != hungarian
    assert re.search(r"\bName\b", english) and re.search(r"\bGames\b", english), english
    assert names(await rows(page)) == [row[1] for row in top_rows(site.top)]


# --- search and sorting ---------------------------------------------------------------------


async def test_typing_in_search_narrows_the_rows_accents_and_case_ignored(
    page: Any, site: Site
) -> None:
    await page.goto(site.page("hu/"))
    everyone = len(await rows(page))
    await page.fill("#search", "szabo")
    # the script may filter a moment after the keystroke: wait (at most 5 s) for one row
    await expect(page.locator("#ranking tbody tr:visible")).to_have_count(1, timeout=5000)
    assert names(await rows(page)) == ["Szabó Éva"]
    count = await page.text_content("#search-count")
    assert re.findall(r"\d+", count) in (["1", str(everyone)], [str(everyone), "1"]), count
    assert await page.get_attribute("#search-count", "aria-live") == "polite"
    await page.fill("#search", "")
    await expect(page.locator("#ranking tbody tr:visible")).to_have_count(everyone)


async def test_search_works_without_javascript_as_a_plain_get(open_page: Any, site: Site) -> None:
    plain = await open_page(java_script_enabled=False)
    await plain.goto(site.page("hu/"))
    label = plain.locator('form.filter[role=search] label[for="search"]')
    assert await label.count() == 1
    await plain.fill("#search", "szabo")
    await plain.press("#search", "Enter")
    await plain.wait_for_load_state()
    assert "q=szabo" in plain.url
    assert names(await rows(plain)) == ["Szabó Éva"]
    await plain.goto(site.page("hu/?q=SZABÓ"))
    assert names(await rows(plain)) == ["Szabó Éva"]
    await plain.goto(site.page("hu/?q=nobody-by-that-name"))
    assert await plain.locator("tr[data-player]").count() == 0
    assert await plain.input_value("#search") == "nobody-by-that-name"


async def test_sorting_by_rating_reverses_the_ranking(page: Any, site: Site) -> None:
    await page.goto(site.page("hu/"))
    before = names(await rows(page))
    header = page.locator("#ranking thead th").nth(3)  # place, name, rank, rating, …
    assert await header.get_attribute("data-sort") == "number"
    button = header.locator("button")
    target = button if await button.count() else header
    after = before
    for _click in range(2):  # the first click may sort as the list already is
        await target.click()
        after = names(await rows(page))
        if after != before:
            break
    assert after == before[::-1]
    assert await header.get_attribute("aria-sort") == "ascending"
    await target.click()
    assert names(await rows(page)) == before
    assert await header.get_attribute("aria-sort") == "descending"


async def test_the_keyboard_reaches_the_skip_link_first_and_sorts_a_column(
    page: Any, site: Site
) -> None:
    await page.goto(site.page("hu/"))
    await page.keyboard.press("Tab")
    assert await page.evaluate("document.activeElement.className") == "skip"
    await page.keyboard.press("Enter")
    assert page.url.endswith("#main")
    before = names(await rows(page))
    header = page.locator("#ranking thead th").nth(1)  # the names
    await header.locator("button").focus()
    await page.keyboard.press("Enter")
    if names(await rows(page)) == before:  # the first press may keep an order already true
        await page.keyboard.press("Enter")
    assert names(await rows(page)) in (sorted(before), sorted(before, reverse=True))
    assert names(await rows(page)) != before
    assert await header.get_attribute("aria-sort") in ("ascending", "descending")


# --- the tournament -------------------------------------------------------------------------


async def test_the_tournament_page_lists_its_standings_and_games(page: Any, site: Site) -> None:
    await page.goto(site.page("hu/tournaments/"))
    await page.click('a[href="1.html"]')
    assert page.url == site.page("hu/tournaments/1.html")
    assert "Őszi Kupa" in await page.text_content("h1")
    standings = await rows(page, "#standings")
    assert [row[1] for row in standings][:1] == ["Tóth Bence"]  # won both rounds
    assert {row[1] for row in standings} == set(site.players)
    assert [row[0] for row in standings][:1] == ["1"]
    games = await rows(page, "#games")
    assert len(games) == 4
    assert sorted(row[0] for row in games) == ["1", "1", "2", "2"]
    no_errors(page)


# --- downloads ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("players.csv", "text/csv"),
        ("games.csv", "text/csv"),
        ("ratings.json", "application/json"),
        ("tournaments/1.h9", "text/plain"),
    ],
)
async def test_downloads_come_with_their_content_type(
    page: Any, site: Site, name: str, kind: str
) -> None:
    response = await page.request.get(site.page(f"downloads/{name}"))
    assert response.status == 200
    assert response.headers["content-type"].split(";")[0].strip() == kind
    assert not headers_missing(response.headers), headers_missing(response.headers)
    body = await response.text()
    if kind == "application/json":
        json.loads(body)
    assert "Tóth Bence" in body or "Toth Bence" in body


async def test_the_footer_links_to_the_downloads(page: Any, site: Site) -> None:
    await page.goto(site.page("hu/"))
    hrefs = await page.eval_on_selector_all("footer a", "links => links.map(a => a.href)")
    for name in ("players.csv", "games.csv", "ratings.json"):
        assert site.page(f"downloads/{name}") in hrefs, hrefs


# --- what the server must not show ----------------------------------------------------------


async def test_a_club_with_its_pages_off_is_not_found_and_never_named(
    page: Any, site: Site
) -> None:
    slug = urls.club_slug(site.hidden)
    for path in (
        f"{slug}/",
        f"{slug}/hu/",
        f"{slug}/hu/all.html",
        f"{slug}/downloads/players.csv",
    ):
        response = await page.goto(f"{site.url}/{path}")
        assert response.status == 404, path
        body = await page.content()
        assert "Titkos" not in body and "Rejtett" not in body, path
    await page.goto(site.url + "/")
    index = await page.content()
    assert site.club.name in index
    assert "Titkos" not in index


@pytest.mark.parametrize(
    "path",
    ["999-nobody/hu/", "{club}/xx/", "{club}/hu/players/999.html", "{club}/hu/tournaments/9.html"],
)
async def test_an_unknown_club_language_player_or_tournament_is_not_found(
    page: Any, site: Site, path: str
) -> None:
    response = await page.request.get(f"{site.url}/{path.format(club=urls.club_slug(site.club))}")
    assert response.status == 404
    assert "Nagy Péter" not in await response.text()


async def test_the_club_folder_leads_to_its_language_and_a_stale_name_to_the_new_one(
    page: Any, site: Site
) -> None:
    slug = urls.club_slug(site.club)
    found = await page.request.get(f"{site.url}/{slug}/", max_redirects=0)
    assert found.status == 302
    assert found.headers["location"].endswith(f"/{slug}/hu/") or found.headers["location"] in (
        "hu/",
        f"{slug}/hu/",
    )
    stale = await page.request.get(f"{site.url}/{site.club.id}-old-name/hu/", max_redirects=0)
    assert stale.status == 301
    assert stale.headers["location"].endswith(f"/{slug}/hu/")


async def test_only_get_and_head_are_answered(page: Any, site: Site) -> None:
    ranking = site.page("hu/")
    assert (await page.request.head(ranking)).status == 200
    for method in ("post", "put", "delete", "patch"):
        response = await getattr(page.request, method)(ranking)
        assert response.status == 405, method
        assert not headers_missing(response.headers), (method, headers_missing(response.headers))


async def test_every_response_carries_the_security_headers(page: Any, site: Site) -> None:
    seen: list[Any] = []
    page.on("response", lambda response: seen.append(response))
    pid = site.players["Kovács Anna"]
    for path in ("hu/", "hu/all.html", f"hu/players/{pid}.html", "hu/tournaments/1.html"):
        await page.goto(site.page(path))
    await page.goto(site.url + "/")
    await page.goto(site.page("hu/players/999.html"))
    assert {response.url.rsplit("/", 1)[-1] for response in seen} >= {"hoshi.css", "hoshi.js"}
    wrong = {
        response.url: headers_missing(await response.all_headers())
        for response in seen
        if headers_missing(await response.all_headers())
    }
    assert not wrong, wrong


# --- every page, desktop and phone: accessible, no errors, pictured -------------------------

PAGES = {  # name (the screenshot's) → the page below the club's folder
    "ranking": "hu/",
    "ranking-ja": "ja/",  # Japanese text in the screenshot (fonts-noto-cjk)
    "everyone": "hu/all.html",
    "player": "hu/players/{nagy}.html",
    "head-to-head": "hu/players/{nagy}/vs/{anna}.html",
    "tournaments": "hu/tournaments/",
    "tournament": "hu/tournaments/1.html",
    "tournament-chat": "hu/tournaments/2.html",  # run from the chat: rounds, crosstable
}


@pytest.mark.parametrize("device", ["desktop", "phone"])
@pytest.mark.parametrize("kind", list(PAGES))
async def test_each_page_is_accessible_fits_and_is_pictured(
    page: Any, phone: Any, site: Site, screenshot: Any, kind: str, device: str
) -> None:
    opened = phone if device == "phone" else page
    path = PAGES[kind].format(nagy=site.players["Nagy Péter"], anna=site.players["Kovács Anna"])
    response = await opened.goto(site.page(path))
    assert response.status == 200
    await check_page(opened, screenshot, f"{kind}-{device}.png")


@pytest.mark.parametrize("device", ["desktop", "phone"])
async def test_the_not_found_page_is_accessible_too(
    page: Any, phone: Any, site: Site, screenshot: Any, device: str
) -> None:
    opened = phone if device == "phone" else page
    response = await opened.goto(site.page("hu/players/999.html"))
    assert response.status == 404
    assert await opened.get_attribute("html", "lang") == "hu"
    assert await opened.locator("h1").count() == 1
    failed = [error for error in console_errors(opened) if "/players/999.html" not in error]
    assert not failed, "\n".join(failed)
    await check_page(opened, screenshot, f"not-found-{device}.png", errors=False)


async def check_page(opened: Any, screenshot: Any, name: str, *, errors: bool = True) -> None:
    """No serious or critical axe-core violation, no console error, nothing wider than the
    screen but a table's own scrolling box; and a screenshot of the whole page."""
    found = await accessibility_violations(opened)
    assert not found, format_violations(found)
    if errors:
        no_errors(opened)
    viewport = opened.viewport_size["width"]
    width = await opened.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport, f"the page is {width} px wide on a {viewport} px screen"
    picture = await screenshot(opened, name)
    scale = PHONE["device_scale_factor"] if viewport == 390 else 1
    assert png_size(picture.read_bytes())[0] == viewport * scale


async def test_a_server_error_carries_the_security_headers_and_no_traceback(
    page: Any, tmp_path: Path
) -> None:
    """A page that breaks (here: its database is gone) is still answered under the contract's
    headers, and the reader sees no Python traceback."""
    path = await first_hour(tmp_path)
    db = await storage.open_db(path, clock=FakeClock(START))
    (club,) = await storage.clubs(db)
    await storage.bind_chat(db, club, PLATFORM, CHAT_ID, actor=CALLERS[ADMIN].identity)
    chat = FakeChat(
        db, Core(db, Config(db_path=path, charts_dir=tmp_path)), club, FakeClock(START)
    )
    await chat.ok("/club web on")
    app = web_app(db)
    await db.close()
    async with served(app) as url:
        response = await page.request.get(f"{url}/{urls.club_slug(club)}/hu/")
        assert response.status == 500
        assert "Traceback" not in await response.text()
        assert not headers_missing(response.headers), headers_missing(response.headers)


# --- the static site, opened from disk ------------------------------------------------------


async def test_the_static_site_opened_from_disk_links_page_to_page(
    open_page: Any, site: Site, tmp_path: Path
) -> None:
    """``hoshi site --out DIR``: every link is relative, so the files work from disk — the
    front page, the club's ranking, a player, each page of the club's menu."""
    root = tmp_path / "site"
    await write_site(site.db, root)
    plain = await open_page()
    await plain.goto((root / "index.html").as_uri())
    await plain.click(f'a[href*="{urls.club_slug(site.club)}"]')
    await plain.wait_for_load_state()
    assert await plain.locator("main#main").count() == 1, f"no page at {plain.url}"
    await plain.wait_for_url("**/hu/index.html", timeout=5000)  # the club's folder → its language
    assert names(await rows(plain)) == [row[1] for row in top_rows(site.top)]
    pid = site.players["Szabó Éva"]
    await plain.click(f'#ranking tr[data-player="{pid}"] a.player')
    assert plain.url == (root / urls.player(site.club, "hu", pid)).as_uri()
    assert await plain.locator("#card").count() == 1
    menu = "header nav:not(.languages) a"
    for index in range(await plain.locator(menu).count()):
        await plain.locator(menu).nth(index).click()
        await plain.wait_for_load_state()
        assert await plain.locator("main#main h1").count() == 1, f"no page at {plain.url}"
        await plain.go_back()
    no_errors(plain)
