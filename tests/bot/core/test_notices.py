"""bot.core.notices: what the bot posts when a tournament is rated."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import storage
from bot.core.notices import changes_table, joined, per_player, weekly_reply
from bot.i18n import Msg, _, translated, using
from engine.ranks import Rank
from engine.system import Change
from tests.bot.core.fakechat import FakeChat

DAY = dt.date(2026, 11, 14)
TEN_KYU = Rank.kyu(10)


def _change(player: int, before: int, after: int, rank: Rank = TEN_KYU) -> Change:
    return Change(player, DAY, "tournament:1", before, after, Rank.kyu(10), rank)


def test_a_player_rated_game_by_game_is_one_row_from_first_before_to_last_after() -> None:
    """PSG rates a tournament game by game: the table once showed a player on three rows."""
    changes = [
        _change(1, 0, 10),
        _change(2, 0, 8),
        _change(2, 8, 16),
        _change(1, 10, 10),
        _change(2, 16, 14, Rank.kyu(9)),
    ]
    merged = per_player(changes)
    assert [(c.player, c.rating_before, c.rating_after, c.rank_after) for c in merged] == [
        (1, 0, 10, Rank.kyu(10)),
        (2, 0, 14, Rank.kyu(9)),
    ]
    table = changes_table(changes, {1: "Kowalski Jan", 2: "Nowak Ewa"})
    assert table.rows == (
        ("Nowak Ewa", "0", "+14", "14", "10k → 9k"),
        ("Kowalski Jan", "0", "+10", "10", "10k"),
    )


async def test_a_tournament_rated_after_its_end_says_it_counts_on_that_day(
    tmp_path: Path,
) -> None:
    chat = await FakeChat.open(tmp_path, players=("Nagy Péter 5k", "Kovács Anna 2d 2090"))
    try:
        await chat.ok("/tournament new Cup start=2026-04-11 end=2026-04-12 rounds=1 time=60m")
        await chat.ok("/tournament result 1 Nagy Péter Kovács Anna B+")
        said = await chat.ok("/tournament finalise")
        assert said.text.endswith(
            "Rated at its end date, Apr 12, 2026: the table shows that day's change, and every "
            "rating since then is recomputed (/top shows where everyone stands now)."
        )
    finally:
        await chat.close()


async def test_the_weekly_summarys_top_fits_every_rows_target(tmp_path: Path) -> None:
    """Swedish players count toward their own next rank: the summary's top list says each
    row's target, not the first row's for all."""
    chat = await FakeChat.open(tmp_path, "swedish", players=("Lind Erik 2k", "Ek Sara 2d"))
    try:
        await chat.ok("/result Lind Erik Ek Sara B+")  # a game: not a quiet week
        start = dt.datetime(2026, 4, 20, tzinfo=dt.UTC)
        end = start + dt.timedelta(days=7)
        reply = await weekly_reply(chat.db, chat.club, start, end, picture=False)
        text = reply.as_text()
        assert "points toward 3d" not in text and "points toward 1k" not in text
        assert any(line.split()[-1] == "3d" for line in text.splitlines() if "Ek Sara" in line)
        assert any(line.split()[-1] == "1k" for line in text.splitlines() if "Lind Erik" in line)
    finally:
        await chat.close()


def test_joined_lines_are_each_given_again_in_another_language() -> None:
    """An engine text among the parts is shown in the current language, and the whole can
    be given again in another (Reply.in_language)."""
    with using("sv"):
        text = joined([_("Nothing was due."), Msg("no such catalogue line"), "Nagy {Péter}"])
    assert text == "Inget var dags.\nno such catalogue line\nNagy {Péter}"
    assert (
        translated(text, "ja")
        == "期限が来た処理はありません。\nno such catalogue line\nNagy {Péter}"
    )
    assert translated(text, "en") == "Nothing was due.\nno such catalogue line\nNagy {Péter}"


# -- reports agree with the projections: reopen + finalise unchanged changes nothing (issue 22)

MEMBERS = ("Nagy Péter 6k", "Kovács Anna 7k", "Szabó Éva 8k", "Tóth Bence 10k")
NAMES = tuple(line.rsplit(" ", 1)[0] for line in MEMBERS)
FIRST_DAY = dt.date(2026, 3, 1)  # the club's spring, up to FakeChat's today (Apr 20)
RESULTS = ("B+", "W+", "jigo", "B+R", "W+3.5")

SLOTS = ((1, 0, 1), (1, 2, 3), (2, 0, 2), (2, 3, 1))  # round, black, white: a valid draw
slot = st.one_of(st.none(), st.sampled_from(RESULTS))
tournament_fact = st.tuples(
    st.just("tournament"),
    st.integers(0, 45),
    st.integers(0, 3),
    st.tuples(slot, slot, slot, slot).filter(lambda results: any(results)),
)
game_fact = st.tuples(
    st.just("game"),
    st.integers(0, 50),
    st.integers(0, 3),
    st.tuples(st.integers(0, 3), st.integers(1, 3), st.sampled_from(RESULTS)),
)
histories = st.lists(st.one_of(tournament_fact, game_fact), min_size=1, max_size=6).filter(
    lambda facts: any(f[0] == "tournament" for f in facts)
)


async def _enter(chat: FakeChat, facts: list[tuple[str, int, int, tuple[Any, ...]]]) -> list[str]:
    """Each fact as the organiser types it; the tournaments' numbers (``#1``)."""
    numbers: list[str] = []
    for kind, offset, span, what in facts:
        day = FIRST_DAY + dt.timedelta(days=offset)
        if kind == "game":
            black, step, result = what
            white = (black + step) % len(NAMES)
            await chat.ok(f"/result {NAMES[black]} {NAMES[white]} {result} date={day} time=60m")
            continue
        number = f"#{len(numbers) + 1}"  # the club's tournament number
        end = day + dt.timedelta(days=span)
        await chat.ok(f"/tournament new Cup {number} start={day} end={end} rounds=2 time=60m")
        for (round_, black, white), result in zip(SLOTS, what, strict=True):
            if result is not None:
                await chat.ok(
                    f"/tournament result {round_} {NAMES[black]} {NAMES[white]} {result}"
                )
        await chat.ok(f"/tournament finalise {number} confirm")
        numbers.append(number)
    return numbers


async def _reports(chat: FakeChat) -> dict[str, object]:
    """Every report a member can read: cards, histories, the list, weekly summaries of each
    week of the spring, the month changes (web) and the export's files, as text."""
    from bot.core import exporting

    shown: dict[str, object] = {"top": (await chat.ok("/top 20")).text}
    for name in NAMES:
        shown[f"rating {name}"] = (await chat.ok(f"/rating {name}")).text
        shown[f"history {name}"] = (await chat.ok(f"/history {name} 50")).text
    shown["summary"] = (await chat.ok("/summary")).text
    for week in range(8):
        start = dt.datetime(2026, 3, 2, 18, tzinfo=dt.UTC) + dt.timedelta(weeks=week)
        reply = await weekly_reply(
            chat.db, chat.club, start, start + dt.timedelta(days=7), picture=False
        )
        shown[f"week {week}"] = reply.as_text()
    for month in (3, 4):
        since = dt.date(2026, month, 1)
        shown[f"month {month}"] = await storage.month_changes(chat.db, chat.club, since)
    export = await storage.export_rows(chat.db, chat.club)
    shown["export"] = (
        exporting.players_csv(export),
        exporting.games_csv(export),
        exporting.ratings_json(export),
    )
    return shown


@pytest.mark.parametrize("system", ["mgsz", "tensuusei", "swedish", "psg", "gor"])
@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(facts=histories, which=st.integers(0, 10))
async def test_reopening_and_finalising_a_tournament_unchanged_changes_no_report(
    tmp_path_factory: pytest.TempPathFactory,
    system: str,
    facts: list[tuple[str, int, int, tuple[Any, ...]]],
    which: int,
) -> None:
    """For any club history, reopening any tournament and finalising it again as it was
    leaves every report byte for byte as it was: cards, histories, /top, the weekly summaries,
    the month changes, the exports (rules.md, top: calendar order; issue 22)."""
    chat = await FakeChat.open(tmp_path_factory.mktemp(system), system, players=MEMBERS)
    try:
        tournaments = await _enter(chat, facts)
        before = await _reports(chat)
        name = tournaments[which % len(tournaments)]
        await chat.ok(f"/tournament reopen {name}")
        await chat.ok(f"/tournament finalise {name} confirm")
        assert await _reports(chat) == before
    finally:
        await chat.close()
