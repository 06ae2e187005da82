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


# -- the web list, /top and the export agree (issue 22: one set of projections) ---------------


def _web_rows(html: str) -> list[tuple[str, ...]]:
    """The ranking table's rows as /top writes them: place, name, rank, rating, the row's own
    label when the rows' labels differ, games (last played and this month's change left out)."""
    rows = []
    for row in re.findall(r"<tr data-player=.*?</tr>", html, flags=re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)
        rows.append(tuple(re.sub(r"<[^>]+>", "", cell).strip() for cell in cells[:-2]))
    return rows


async def _agreeing_club(tmp_path: Path) -> tuple[object, dt.date]:
    """A PSG club whose psg.inactive_months is 2, not the rulebook's 13: Kowalski Jan last
    played more than 2 months ago, Nagy Anna and Mały Jaś never; Nowak Ewa and Wiśniewski
    Piotr today."""
    from tests.bot.core.fakechat import FakeChat

    chat = await FakeChat.open(tmp_path, "psg")
    await chat.register("Kowalski Jan 10k", "Nowak Ewa 8k", "Nagy Anna 8k", "Wiśniewski Piotr 10k")
    await chat.register("Mały Jaś 25k")  # below 20k no result: the rows' labels differ
    await chat.ok("/result Kowalski Jan Nowak Ewa B+ h=2")
    chat.clock.now += dt.timedelta(days=72)  # 2026-07-01
    await chat.ok("/club set psg.inactive_months 2")
    await chat.ok("/result Wiśniewski Piotr Nowak Ewa B+ h=2")
    await chat.ok("/club web on")
    return chat, chat.clock.now.date()


async def test_the_web_list_top_and_the_export_agree_under_the_clubs_settings(
    tmp_path: Path,
) -> None:
    """The web's ranking rows are /top's; its active players are those the club's own rule
    makes active (2 months here, a game needed) — the export's "active" column says the same."""
    import json

    from bot.core.notices import weekly_reply
    from bot.core.replies import Table

    chat, today = await _agreeing_club(tmp_path)
    try:
        shown = await pages.shown_club(chat.db, chat.club.id)
        assert shown is not None
        site = pages.Site(chat.db, today)
        with using("en"):
            everyone = await pages.ranking_page(site, shown, "en", everyone=True)
            active = await pages.ranking_page(site, shown, "en")
        top = await chat.ok("/top 50")
        (table,) = [b for b in top.reply.blocks if isinstance(b, Table)]
        assert _web_rows(everyone.html) == [tuple(row) for row in table.rows]
        # the weekly summary's list is /top's too (without the games column)
        start = dt.datetime.combine(today, dt.time(), tzinfo=dt.UTC) - dt.timedelta(days=6)
        summary = await weekly_reply(
            chat.db, chat.club, start, start + dt.timedelta(days=7), picture=False
        )
        (weekly,) = [b for b in summary.blocks if isinstance(b, Table)]
        assert [tuple(r) for r in weekly.rows] == [
            tuple(r[:-1]) for r in table.rows[: len(weekly.rows)]
        ]
        export = await chat.ok("/export json")
        assert export.reply.document is not None
        exported = json.loads(export.reply.document.data.decode("utf-8"))
        active_in_export = {p["name"] for p in exported if p["active"] == "yes"}
        assert {row[1] for row in _web_rows(active.html)} == active_in_export
        assert active_in_export == {"Nowak Ewa", "Wiśniewski Piotr"}
        assert "in the last 2 months" in active.html
        assert "2 active" in active.html
    finally:
        await chat.close()


async def test_every_sortable_column_of_the_list_is_named(tmp_path: Path) -> None:
    """PSG rows carry different labels ("sum of games", "min-games result"): the list's
    column of each row's own label has a heading too (an unnamed sortable column is read
    as nothing by a screen reader)."""
    chat, today = await _agreeing_club(tmp_path)
    try:
        shown = await pages.shown_club(chat.db, chat.club.id)
        assert shown is not None
        for lang in ("en", "pl"):
            with using(lang):
                page = await pages.ranking_page(
                    pages.Site(chat.db, today), shown, lang, everyone=True
                )
            head = page.html[page.html.index("<thead>") : page.html.index("</thead>")]
            headings = re.findall(r"<th[^>]*>(.*?)</th>", head, flags=re.S)
            assert headings and all(h.strip() for h in headings), headings
    finally:
        await chat.close()


async def test_a_tournament_rated_game_by_game_at_the_days_end_shows_each_games_change(
    tmp_path: Path,
) -> None:
    """Tensuusei settles a pair's games at the club day's end (rules.md §2.3): the tournament's
    page shows each game's change beside it, as PSG's does (the days' ends name their one
    game), and each player's change over the tournament is the sum of them."""
    import storage

    chat = await club_with_games(tmp_path, "tensuusei")
    try:
        for day in (dt.date(2026, 3, 10), dt.date(2026, 3, 11)):
            await storage.end_day(chat.db, chat.club, day)
        row = await storage.tournament_by_number(chat.db, chat.club, 1)
        assert row is not None
        changes = await storage.tournament_changes(chat.db, chat.club, row.id)
        assert len(changes.games) == 4  # two rounds of two games
        for game in changes.games.values():
            assert sorted(after - before for before, after in game.values()) == [-1, 1]
        totals = {pid: after - before for pid, (before, after) in changes.players.items()}
        assert sorted(totals.values()) == [-2, 0, 0, 2]
        shown = await pages.shown_club(chat.db, chat.club.id)
        assert shown is not None
        with using("en"):
            page = await pages.tournament_page(
                pages.Site(chat.db, dt.date(2026, 5, 2)), shown, "en", 1
            )
        assert page is not None
        assert "Black&#39;s change" in page.html
        games = page.html[page.html.index('id="games"') :]
        assert len(re.findall(r'<td class="num">[+−-]1</td>', games)) == 8
    finally:
        await chat.close()
