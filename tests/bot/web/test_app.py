"""The web server: only GET, only clubs that turned their pages on, security headers on every
answer, names escaped, the ranking list as /top has it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.web import urls
from bot.web.app import SECURITY_HEADERS, web_app
from engine.formats import parse_h9
from engine.formats.tournament_file import file_wins
from tests.bot.core.fakechat import FakeChat
from tests.bot.web.conftest import club_with_games


def ranking_names(html: str) -> list[str]:
    return re.findall(r'<a class="player" href="[^"]+">([^<]+)</a>', html)


async def test_the_ranking_list_is_the_one_top_gives(chat: FakeChat, client: TestClient) -> None:
    top = await chat.ok("/top")
    response = await client.get("/" + urls.ranking(chat.club, "en", everyone=True))
    assert response.status == 200
    html = await response.text()
    names = ranking_names(html)
    listed = [line for line in top.text.splitlines() if re.match(r"\s*\d+\s", line)]
    assert len(names) == len(listed) == 4
    for name, line in zip(names, listed, strict=True):
        assert name in line
    assert '<html lang="en">' in html


async def test_the_club_folder_leads_to_its_language(chat: FakeChat, client: TestClient) -> None:
    slug = urls.club_slug(chat.club)
    response = await client.get(f"/{slug}/", allow_redirects=False)
    assert response.status == 302
    assert response.headers["Location"] == f"/{slug}/en/"
    stale = await client.get(f"/{chat.club.id}-old-name/en/all.html", allow_redirects=False)
    assert stale.status == 301
    assert stale.headers["Location"] == f"/{slug}/en/all.html"


async def test_a_club_with_its_pages_off_is_not_found(chat: FakeChat, client: TestClient) -> None:
    await chat.ok("/club web off")
    for path in (
        urls.ranking(chat.club, "en"),
        urls.player(chat.club, "en", 1),
        urls.download(chat.club, "players.csv"),
        urls.club_slug(chat.club) + "/",
    ):
        response = await client.get("/" + path, allow_redirects=False)
        assert response.status == 404, path
        text = await response.text()
        assert chat.club.name not in text and "Nagy" not in text
    front = await client.get("/")
    assert chat.club.name not in await front.text()


async def test_a_club_with_its_pages_off_answers_as_an_unknown_one_does(
    chat: FakeChat, client: TestClient
) -> None:
    """Issue 26: a club whose pages are off was told apart from an unknown one by timing
    (club ids are small integers); both answer with the same page after the same reads."""
    await chat.ok("/club web off")
    unknown = urls.club_slug(chat.club).replace(str(chat.club.id), str(chat.club.id + 999))

    async def asked(slug: str, rest: str) -> tuple[int, int, str]:
        before = chat.db.statements
        response = await client.get(f"/{slug}/{rest}", allow_redirects=False)
        return response.status, chat.db.statements - before, await response.text()

    for rest in ("en/ranking.html", "downloads/players.csv", "en/tournaments/1.html", ""):
        off = await asked(urls.club_slug(chat.club), rest)
        missing = await asked(unknown, rest)
        assert off[0] == missing[0] == 404, rest
        assert off[1] == missing[1], rest  # the same reads
        assert off[2] == missing[2], rest  # the same page


async def test_every_answer_carries_the_security_headers(
    chat: FakeChat, client: TestClient
) -> None:
    for path in ("/", "/static/hoshi.css", "/nowhere", "/" + urls.ranking(chat.club, "hu")):
        response = await client.get(path)
        for header, value in SECURITY_HEADERS.items():
            assert response.headers.get(header) == value, (path, header)


async def test_nothing_can_be_written(chat: FakeChat, client: TestClient) -> None:
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        response = await client.request(method, "/" + urls.ranking(chat.club, "en"))
        assert response.status == 405, method


async def test_names_are_text_never_markup(tmp_path: Path) -> None:
    chat = await club_with_games(tmp_path)
    try:
        await chat.ok('/register "<script>alert(1)</script> & Co" 10k')
        async with TestClient(TestServer(web_app(chat.db), host="127.0.0.1")) as client:
            html = await (
                await client.get("/" + urls.ranking(chat.club, "en", everyone=True))
            ).text()
            assert "<script>alert" not in html
            assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co" in html
    finally:
        await chat.close()


async def test_search_without_javascript(chat: FakeChat, client: TestClient) -> None:
    path = "/" + urls.ranking(chat.club, "en", everyone=True)
    html = await (await client.get(path, params={"q": "szabo"})).text()
    assert ranking_names(html) == ["Szabó Éva"]
    none = await (await client.get(path, params={"q": "nobody"})).text()
    assert ranking_names(none) == [] and "nobody" in none


async def test_the_pages_in_each_language(chat: FakeChat, client: TestClient) -> None:
    html = await (await client.get("/" + urls.ranking(chat.club, "hu"))).text()
    assert '<html lang="hu">' in html
    assert 'hreflang="ja"' in html and 'href="../ja/index.html"' in html
    ja = await (await client.get("/" + urls.ranking(chat.club, "ja"))).text()
    assert '<html lang="ja">' in ja


async def test_a_player_page(chat: FakeChat, client: TestClient) -> None:
    player = await _player(chat, "Tóth Bence")
    response = await client.get("/" + urls.player(chat.club, "en", player))
    assert response.status == 200
    html = await response.text()
    for part in ('id="card"', "<svg", 'id="history-table"', 'id="head-to-head"', "Spring Cup"):
        assert part in html, part
    missing = await client.get("/" + urls.player(chat.club, "en", 999999))
    assert missing.status == 404


async def test_head_to_head(chat: FakeChat, client: TestClient) -> None:
    a, b = await _player(chat, "Tóth Bence"), await _player(chat, "Szabó Éva")
    html = await (await client.get("/" + urls.head_to_head(chat.club, "en", a, b))).text()
    assert 'id="games"' in html
    assert html.count("<tr") >= 3  # the heading and two games
    assert "Tóth Bence: 2 won, 0 lost, 0 jigo" in html


async def test_a_tournament_page(chat: FakeChat, client: TestClient) -> None:
    html = await (await client.get("/" + urls.tournament(chat.club, "en", 1))).text()
    assert "Spring Cup" in html and 'id="standings"' in html and 'id="games"' in html
    assert "Black&#39;s change" not in html  # MGSZ rates the tournament as a whole
    listed = await (await client.get("/" + urls.tournaments(chat.club, "en"))).text()
    assert "tournaments/1.html" not in listed  # a relative link from the list's own folder
    assert 'href="1.html"' in listed


async def test_downloads(chat: FakeChat, client: TestClient) -> None:
    for name, media in (
        ("players.csv", "text/csv"),
        ("games.csv", "text/csv"),
        ("ratings.json", "application/json"),
        ("tournaments/1.h9", "text/plain"),
    ):
        response = await client.get("/" + urls.download(chat.club, name))
        assert response.status == 200, name
        assert response.content_type == media
        assert "attachment" in response.headers["Content-Disposition"]
    h9 = await (await client.get("/" + urls.download(chat.club, "tournaments/1.h9"))).text()
    assert "Spring Cup" in h9
    missing = await client.get("/" + urls.download(chat.club, "tournaments/9.h9"))
    assert missing.status == 404


async def test_a_download_is_made_only_for_a_name_the_club_has_and_kept(
    chat: FakeChat, client: TestClient
) -> None:
    """Issue 26: every name under downloads/ built the club's whole export before it was
    checked, and each request built it again. An unknown name (or a second name of a file,
    ``01.h9``) is answered at once; a file is kept until the club's data moves on."""

    async def asked(name: str) -> tuple[int, int, str]:
        before = chat.db.statements
        response = await client.get("/" + urls.download(chat.club, name))
        return response.status, chat.db.statements - before, await response.text()

    status, first, text = await asked("players.csv")
    assert status == 200
    status, again, kept = await asked("players.csv")
    assert status == 200 and kept == text and again < first
    for name in ("anything.csv", "tournaments/01.h9", "tournaments/1.h9x", "../players.csv"):
        status, unknown, _text = await asked(name)
        assert status == 404, name
        assert unknown <= again, name  # no more than a kept file: nothing of the club read
    await chat.ok("/register Új Játékos 10k")
    status, moved, text = await asked("players.csv")
    assert status == 200 and "Új Játékos" in text and moved > again


async def _player(chat: FakeChat, name: str) -> int:
    import storage

    found = await storage.find_player(chat.db, chat.club, name)
    return found.player.id  # type: ignore[union-attr]


PSG_HOUR = """\
/register Kowalski Jan 10k
/register Nowak Ewa 8k
/register Wiśniewski Piotr 12k
/register Zielińska Maria 6k
/tournament new Jesienny Turniej start=2026-04-14 end=2026-04-15 rounds=2 time=45m
/tournament result 1 Kowalski Jan Zielińska Maria W+
/tournament result 1 Wiśniewski Piotr Nowak Ewa W+
/tournament result 2 Nowak Ewa Kowalski Jan B+
/tournament result 2 Wiśniewski Piotr Zielińska Maria W+
/tournament finalise
/club web on
"""


async def test_a_system_that_rates_game_by_game_shows_each_games_change(tmp_path: Path) -> None:
    """PSG scores each tournament game: the games table has each player's change; MGSZ rates
    the tournament as a whole, so its games table has no such columns (test_a_tournament_page)."""
    chat = await FakeChat.open(tmp_path, "psg")
    try:
        for line in PSG_HOUR.splitlines():
            await chat.ok(line)
        async with TestClient(TestServer(web_app(chat.db), host="127.0.0.1")) as client:
            html = await (await client.get("/" + urls.tournament(chat.club, "en", 1))).text()
        assert "Black&#39;s change" in html
        games = html[html.index('id="games"') :]
        assert re.search(r'<td class="num">[+−]\d', games), games[:2000]
    finally:
        await chat.close()


async def test_a_federation_page_never_waits_for_a_replay(chat: FakeChat) -> None:
    """Promotion progress needs the club's ledger: beyond the replay limit, a player page is
    built from the stored projections alone and says where to ask instead."""
    from bot.i18n import using
    from bot.web import pages
    from bot.web.pages import Site
    from storage.projections import ledger_if_cheap

    chat.db.projections.ledgers.clear()  # a web process that has not replayed the club
    assert await ledger_if_cheap(chat.db, chat.club.id, limit=1) is None
    assert chat.club.id not in chat.db.projections.ledgers  # nothing was replayed
    shown = await pages.shown_club(chat.db, chat.club.id)
    assert shown is not None
    player = await _player(chat, "Nagy Péter")
    site = Site(chat.db, chat.clock().date(), replay_limit=1)
    with using("en"):
        page = await pages.player_page(site, shown, "en", player)
    assert page is not None
    assert "/promotion Nagy Péter" in page.html
    assert chat.club.id not in chat.db.projections.ledgers
    assert await ledger_if_cheap(chat.db, chat.club.id) is not None  # a small club: replayed


async def test_a_broken_page_is_answered_with_the_headers_and_no_traceback(
    tmp_path: Path,
) -> None:
    chat = await club_with_games(tmp_path)
    app = web_app(chat.db)
    path = "/" + urls.ranking(chat.club, "en")
    await chat.close()  # the database is gone: every page breaks
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:
        response = await client.get(path)
        assert response.status == 500
        text = await response.text()
        assert "Traceback" not in text and "Something went wrong on this page (ref " in text
        for header, value in SECURITY_HEADERS.items():
            assert response.headers.get(header) == value


async def test_a_ranking_page_is_kept_until_the_club_moves_on(chat: FakeChat) -> None:
    """The server keeps a written ranking page until the next write to the club (a game, a
    setting, a player) or the next day; then it is written afresh."""
    from bot.i18n import using
    from bot.web import pages
    from bot.web.pages import PageCache, Site

    shown = await pages.shown_club(chat.db, chat.club.id)
    assert shown is not None
    site = Site(chat.db, chat.clock().date(), cache=PageCache())
    with using("en"):
        first = await pages.ranking_page(site, shown, "en", everyone=True)
        assert await pages.ranking_page(site, shown, "en", everyone=True) is first
        await chat.ok("/register Kiss Dóra 12k")
        again = await pages.ranking_page(site, shown, "en", everyone=True)
        assert again is not first and "Kiss Dóra" in again.html
        tomorrow = Site(chat.db, site.today.replace(day=site.today.day + 1), cache=site.cache)
        assert await pages.ranking_page(tomorrow, shown, "en", everyone=True) is not again
    assert len(site.cache.values) == 3  # type: ignore[union-attr]


async def test_a_tournament_page_shows_the_files_mms_and_sos(tmp_path: Path) -> None:
    data = (Path(__file__).parents[2] / "engine/formats/data/formats_example.h9").read_bytes()
    chat = await FakeChat.open(tmp_path, "gor")
    try:
        await chat.ok("/tournament import", attachment=data, attachment_name="spring.h9")
        await chat.ok("/club web on")
        async with TestClient(TestServer(web_app(chat.db), host="127.0.0.1")) as client:
            html = await (await client.get("/" + urls.tournament(chat.club, "en", 1))).text()
        standings = html[html.index('id="standings"') : html.index("</table>")]
        assert ">MMS</th>" in standings and ">SOS</th>" in standings
        nagy = standings[standings.index("Nagy Péter") :]
        assert '<td class="num">33</td><td class="num">128</td>' in nagy
    finally:
        await chat.close()


async def test_head_to_head_shows_each_games_change_where_the_tournament_page_does(
    tmp_path: Path,
) -> None:
    """PSG scores tournament games one by one under the tournament's source: the games of
    two players show the same changes on their page as on the tournament's
    (storage.game_changes and storage.tournament_changes read the same rows)."""
    import storage

    chat = await FakeChat.open(tmp_path, "psg")
    try:
        for line in PSG_HOUR.splitlines():
            await chat.ok(line)
        a, b = await _player(chat, "Kowalski Jan"), await _player(chat, "Zielińska Maria")
        row = await storage.tournament_by_number(chat.db, chat.club, 1)
        assert row is not None
        whole = await storage.tournament_changes(chat.db, chat.club, row.id)
        games = [g for g in whole.games if {a, b} <= set(whole.games[g])]
        assert len(games) == 1
        assert await storage.game_changes(chat.db, chat.club, games) == {
            games[0]: whole.games[games[0]]
        }
        async with TestClient(TestServer(web_app(chat.db), host="127.0.0.1")) as client:
            html = await (await client.get("/" + urls.head_to_head(chat.club, "en", a, b))).text()
        assert "Black&#39;s change" in html
    finally:
        await chat.close()


@pytest.mark.parametrize("name", ["formats_example.h9", "kis_kupa.h9", "both_results.h9"])
async def test_a_tournament_pages_standings_are_its_h9_exports(tmp_path: Path, name: str) -> None:
    """The page and the export count the same wins (byes, wins by default and both-win
    results included) and give the same places: the export prints a tie's place on its first
    line only."""
    data = (Path(__file__).parents[2] / "engine/formats/data" / name).read_bytes()
    chat = await FakeChat.open(tmp_path, "gor")
    try:
        await chat.ok("/tournament import committee", attachment=data, attachment_name=name)
        await chat.ok("/club web on")
        async with TestClient(TestServer(web_app(chat.db), host="127.0.0.1")) as client:
            html = await (await client.get("/" + urls.tournament(chat.club, "en", 1))).text()
            h9 = await (
                await client.get("/" + urls.download(chat.club, "tournaments/1.h9"))
            ).read()
        standings = html[html.index('id="standings"') : html.index("</table>")]
        rows = re.findall(
            r'<tr data-player="\d+"><td class="num">(\d+)</td><td><a [^>]*>([^<]+)</a></td>'
            r'<td>[^<]*</td><td class="num" data-value="([^"]+)">',
            standings,
        )
        exported = parse_h9(h9)
        wins = file_wins(exported)
        shown: list[tuple[str, str, float]] = []
        for p in exported.players:
            place = str(p.place) if p.place is not None else shown[-1][0]
            shown.append((place, p.name, float(wins[p.position])))
        assert [(place, html_name, float(value)) for place, html_name, value in rows] == shown
    finally:
        await chat.close()


SGF = (Path(__file__).parents[2] / "engine" / "formats" / "data" / "sgf" / "jigo.sgf").read_bytes()


async def _sgf_game(chat: FakeChat, name: str = 'evil"; x=.sgf') -> int:
    """Game recorded from an SGF file sent under ``name``: its number."""
    shown = await chat.ok(
        '/result black="Nagy Péter" white="Kovács Anna"', attachment=SGF, attachment_name=name
    )
    await chat.ok(shown.reply.buttons[0].command)
    return max(row.number for row in await chat.games())


async def test_a_games_sgf_is_served_under_its_number(chat: FakeChat, client: TestClient) -> None:
    number = await _sgf_game(chat)
    response = await client.get("/" + urls.game_sgf(chat.club, number))
    assert response.status == 200
    assert response.content_type == "application/x-go-sgf"
    assert response.headers["Content-Disposition"] == (f'attachment; filename="game-{number}.sgf"')
    assert await response.read() == SGF
    assert response.headers["X-Content-Type-Options"] == "nosniff"


async def test_no_sgf_for_a_game_without_one_voided_or_undone(
    chat: FakeChat, client: TestClient
) -> None:
    without = max(row.number for row in await chat.games())  # typed with /result
    for number in (without, 99999):
        missing = await client.get("/" + urls.game_sgf(chat.club, number))
        assert missing.status == 404, number
    voided = await _sgf_game(chat)
    await chat.ok(f"/void {voided}")
    assert (await client.get("/" + urls.game_sgf(chat.club, voided))).status == 404
    undone = await _sgf_game(chat)
    await chat.ok("/undo")
    assert (await client.get("/" + urls.game_sgf(chat.club, undone))).status == 404


async def test_no_sgf_of_a_club_whose_pages_are_off_or_of_another_club(
    chat: FakeChat, client: TestClient
) -> None:
    import storage

    number = await _sgf_game(chat)
    other = await storage.create_club(chat.db, "Other Club", "mgsz", actor="test")
    await storage.set_setting(chat.db, other, "web", "on", actor="test")
    assert (await client.get("/" + urls.game_sgf(other, number))).status == 404
    assert (await client.get("/" + urls.game_sgf(chat.club, number))).status == 200
    await chat.ok("/club web off")
    off = await client.get("/" + urls.game_sgf(chat.club, number))
    assert off.status == 404 and SGF not in await off.read()


async def test_the_player_page_links_each_games_sgf(chat: FakeChat, client: TestClient) -> None:
    number = await _sgf_game(chat)
    player = await _player(chat, "Nagy Péter")
    page = urls.player(chat.club, "en", player)
    html = await (await client.get("/" + page)).text()
    links = re.findall(r'<a class="sgf" href="([^"]+)"', html)
    assert links == [urls.relative(page, urls.game_sgf(chat.club, number))]
    assert links == [f"../../games/{number}.sgf"]
    await chat.ok(f"/void {number}")
    html = await (await client.get("/" + page)).text()
    assert 'class="sgf"' not in html


# --- a tournament run from the chat ---------------------------------------------------------


def _table(html: str, table_id: str) -> list[list[str]]:
    """The body rows of a table: each cell's text, tags left out."""
    start = html.index(f'id="{table_id}"')
    body = html[html.index("<tbody>", start) : html.index("</tbody>", start)]
    return [
        [
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r)
        ]
        for r in re.findall(r"<tr[^>]*>(.*?)</tr>", body)
    ]


async def test_a_chat_run_tournament_shows_its_pairing_rounds_and_live_crosstable(
    tmp_path: Path,
) -> None:
    """The web shows what the chat's /tournament standings and /tournament missing answer:
    the crosstable row for row (cells in OpenGotha's notation, MMS and SOS), each published
    round's boards newest first with the bye and the boards that wait for a result."""
    from tests.bot.web.conftest import chat_run_club

    chat = await chat_run_club(tmp_path)
    try:
        standings = (await chat.ok("/tournament standings")).text
        missing = (await chat.ok("/tournament missing")).text
        async with TestClient(TestServer(web_app(chat.db), host="127.0.0.1")) as client:
            response = await client.get("/" + urls.tournament(chat.club, "en", 2))
            assert response.status == 200
            html = await response.text()
            typed = await (await client.get("/" + urls.tournament(chat.club, "en", 1))).text()
        assert "Pairing: McMahon; bar 1d; handicap: rank difference minus 2, at most 9; " in html
        assert "placed by MMS, SOSM" in html
        # the crosstable is the chat's, row for row
        rows = _table(html, "standings")
        replied = [line.split() for line in standings.splitlines() if re.match(r"\s*\d+\s", line)]
        assert [[r[1], *r[2].split()[:2], r[3], *r[4:8]] for r in rows] == [
            [place, a, b, rank, *rest] for place, a, b, rank, *rest in replied
        ]
        assert "Standings by wins" not in html and ">MMS</th>" in html and ">SOS</th>" in html
        assert "(entered in round 2)" in html and "(withdrawn)" in html
        # every name links to its player's page: six rows, five boards, the bye
        assert html.count('href="../players/') == 6 + 5 * 2 + 1
        # the rounds newest first; the bye; the boards that wait, as /tournament missing
        assert html.index('id="round-2"') < html.index('id="round-1"')
        round1, round2 = _table(html, "round-1"), _table(html, "round-2")
        assert [r[0] for r in round1] == ["1", "2"] and [r[0] for r in round2] == ["1", "2", "3"]
        assert all(r[5] == "B+" for r in round1)
        assert round2[0][5] == "W+R"
        assert [r[5] for r in round2[1:]] == ["no result yet", "no result yet"]
        for number, board in enumerate(round2[1:], start=2):
            assert f"Round 2, board {number}: {board[1]} – {board[2]}" in missing
        bye = html[html.index('id="round-1"') :]
        assert re.search(r"Bye: <a href=\"[^\"]+\">Weber Paul</a>", bye)
        assert "Waiting for the results of boards 2, 3." in html
        assert "2 boards wait for their results." in html
        assert "3 stones" not in html and re.search(
            r'<td class="num">3</td><td class="num">0.5</td>', html
        )
        # a typed tournament keeps the table by wins
        assert "Standings by wins" in typed and 'id="round-1"' not in typed
    finally:
        await chat.close()


@pytest.mark.parametrize(
    "raw",
    [
        b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",  # a page
        b"GARBAGE\x01 / HTTP/1.1\r\n\r\n",  # a request line the server cannot read
        b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\n\r\n",  # a line too long
        b"GET / HTTP/1.1\r\nX: " + b"b" * 9000 + b"\r\n\r\n",  # a header too long
    ],
)
async def test_every_response_of_the_server_carries_the_headers_and_no_banner(
    chat: FakeChat, raw: bytes
) -> None:
    """Issue 26: the server's own 400s (which pass no middleware) had no security headers
    and said ``Server: Python/3.11 aiohttp/3.14.5``. Through the real server on 127.0.0.1."""
    import asyncio

    from bot.config import WebConfig
    from bot.serving import SERVER
    from bot.web.app import serve
    from tests.reliability.processes import free_port

    port = free_port()
    runner = await serve(chat.db, WebConfig(port=port))
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(raw)
        await writer.drain()
        head = (await asyncio.wait_for(reader.read(65536), 5)).split(b"\r\n\r\n")[0]
        writer.close()
    finally:
        await runner.cleanup()
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v for k, _sep, v in (line.partition(": ") for line in lines[1:])}
    assert headers["server"] == SERVER, lines[0]
    for name, value in SECURITY_HEADERS.items():
        assert headers[name.lower()] == value, (lines[0], name)
