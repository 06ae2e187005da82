"""bot.web.pages' ranking list at size: each distinct date and rating label is written once a
page (Babel's date formatting per row was a third of a federation's 2,000-row page; ``hoshi
bench`` measures the page, this checks the work it saves is saved and the page unchanged)."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from bot.i18n import date_text, translated, using
from bot.web import pages
from tests.bot.web.conftest import club_with_games


@pytest.mark.parametrize("lang", ["en", "hu"])
async def test_each_date_and_label_is_written_once_a_page(
    tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    chat = await club_with_games(tmp_path)
    try:
        shown = await pages.shown_club(chat.db, chat.club.id)
        assert shown is not None
        today = dt.date(2026, 5, 2)
        with using(lang):
            before = await pages.ranking_page(
                pages.Site(chat.db, today), shown, lang, everyone=True
            )
        dates: list[dt.date] = []
        labels: list[str] = []

        def counted_date(day: dt.date) -> str:
            dates.append(day)
            return date_text(day)

        def counted_label(text: str, language: str | None = None) -> str:
            labels.append(text)
            return translated(text, language)

        monkeypatch.setattr(pages, "date_text", counted_date)
        monkeypatch.setattr(pages, "translated", counted_label)
        with using(lang):
            page = await pages.ranking_page(pages.Site(chat.db, today), shown, lang, everyone=True)
        shown_dates = re.findall(r'<td data-value="(\d{4}-\d\d-\d\d)">', page.html)
        assert len(shown_dates) == 4 > len(set(shown_dates))  # two players share a day
        assert sorted(dates) == sorted(set(dates))  # each day written once
        assert set(dates) == {dt.date.fromisoformat(d) for d in shown_dates} | {today}
        assert len(labels) < 4  # one label for the four rows (and the page's own words)
        assert page.html == before.html  # the same page
    finally:
        await chat.close()
