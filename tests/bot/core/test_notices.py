"""bot.core.notices: what the bot posts when a tournament is rated."""

from __future__ import annotations

import datetime as dt

from bot.core.notices import changes_table, per_player
from engine.ranks import Rank
from engine.system import Change

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
