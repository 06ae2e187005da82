"""bot.web.kept: a bounded store of values under data-version keys, the oldest dropped first."""

from __future__ import annotations

from bot.web.downloads import DownloadCache
from bot.web.kept import Kept
from bot.web.pages import PageCache


def test_the_oldest_kept_goes_first_once_full() -> None:
    kept: Kept[str] = Kept(2)
    assert kept.keep((1, "a"), "first") == "first"
    kept.keep((1, "b"), "second")
    assert kept.get((1, "a")) == "first"
    kept.keep((2, "a"), "third")  # full: (1, "a") was kept first and goes
    assert kept.get((1, "a")) is None
    assert [kept.get((1, "b")), kept.get((2, "a"))] == ["second", "third"]


def test_the_web_servers_stores_keep_their_own_sizes() -> None:
    assert (PageCache().size, DownloadCache().size) == (64, 32)
