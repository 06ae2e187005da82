"""Where each page lives: slugs, and relative links that work from any folder."""

from __future__ import annotations

import posixpath

from hypothesis import given
from hypothesis import strategies as st

from bot.core.links import NO_LINKS, Links
from bot.web import urls
from storage.records import Club


def club(name: str, cid: int = 3) -> Club:
    return Club(cid, name, "mgsz")


def test_club_slug_is_the_id_and_the_folded_name() -> None:
    assert urls.club_slug(club("Budapesti Gó Egyesület")) == "3-budapesti-go-egyesulet"
    assert urls.club_slug(club("山田碁会", 7)) == "7"
    assert urls.club_id_of("3-budapesti-go-egyesulet") == 3
    assert urls.club_id_of("7") == 7
    assert urls.club_id_of("en") is None
    assert urls.club_id_of("3-../etc") is None


def test_pages_of_a_club() -> None:
    c = club("My Go Club")
    assert urls.ranking(c, "hu") == "3-my-go-club/hu/"
    assert urls.ranking(c, "hu", everyone=True) == "3-my-go-club/hu/all.html"
    assert urls.player(c, "ja", 12) == "3-my-go-club/ja/players/12.html"
    assert urls.head_to_head(c, "en", 1, 2) == "3-my-go-club/en/players/1/vs/2.html"
    assert urls.tournament(c, "pl", 4) == "3-my-go-club/pl/tournaments/4.html"
    assert urls.download(c, "tournaments/4.h9") == "3-my-go-club/downloads/tournaments/4.h9"
    assert urls.file_of("3-my-go-club/hu/") == "3-my-go-club/hu/index.html"
    assert urls.absolute("https://go.example.org/hoshi/", "3-x/hu/") == (
        "https://go.example.org/hoshi/3-x/hu/"
    )


def test_relative_links() -> None:
    assert urls.relative("3-x/hu/", "static/hoshi.css") == "../../static/hoshi.css"
    assert urls.relative("3-x/hu/players/12.html", "3-x/hu/") == "../index.html"
    assert urls.relative("3-x/hu/players/12.html", "3-x/hu/players/5.html") == "5.html"
    assert urls.relative("3-x/hu/all.html", "3-x/hu/") == "index.html"
    assert urls.relative("", "3-x/hu/") == "3-x/hu/index.html"
    assert urls.relative("3-x/hu/", "") == "../../index.html"


SEGMENT = st.sampled_from(["3-x", "hu", "en", "players", "12.html", "vs", "5.html", "static"])
PATH = st.lists(SEGMENT, min_size=1, max_size=5).map("/".join) | st.lists(
    SEGMENT, min_size=1, max_size=4
).map(lambda parts: "/".join(parts) + "/")


@given(PATH, PATH)
def test_a_relative_link_leads_to_its_page(here: str, there: str) -> None:
    """Followed from ``here`` the way a browser does, the link arrives at ``there`` (a
    folder: its index.html)."""
    base = here if here.endswith("/") else posixpath.dirname(here)
    arrived = posixpath.normpath(posixpath.join(base, urls.relative(here, there)))
    assert arrived == posixpath.normpath(urls.file_of(there))


def test_web_links_are_the_core_links_port_below_the_base_url() -> None:
    """The core's links (bot.core.links.Links): the page's site path below ``[web] base_url``,
    and no address at all while none is configured (as the core's own default)."""
    c = club("My Go Club")
    links: Links = urls.WebLinks("https://go.example.org/hoshi/")
    assert links.ranking(c, "hu") == "https://go.example.org/hoshi/3-my-go-club/hu/"
    assert (
        links.player(c, "ja", 12) == "https://go.example.org/hoshi/3-my-go-club/ja/players/12.html"
    )
    assert (
        links.tournament(c, "en", 2)
        == "https://go.example.org/hoshi/3-my-go-club/en/tournaments/2.html"
    )
    for nowhere in (urls.WebLinks(None), NO_LINKS):
        assert nowhere.ranking(c, "hu") is None
        assert nowhere.player(c, "hu", 12) is None
        assert nowhere.tournament(c, "hu", 2) is None
