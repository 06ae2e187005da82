"""bot.core.notices: what the bot posts when a tournament is rated."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

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
