"""MGSZ — the Hungarian Go Federation's Elo rating system (rules.md §1; §5 handicap advice).

* :mod:`engine.mgsz.tables` — the rulebook's tables as data (annex 1, tables 1–4);
* :mod:`engine.mgsz.elo` — bands, handicap correction, game points, rounding, splitting, titles;
* :mod:`engine.mgsz.multiplier` — the tournament multiplier C;
* :mod:`engine.mgsz.period` — the club's rating periods of club games (a calendar month);
* :mod:`engine.mgsz.ledger` — :class:`Mgsz`, the RatingSystem.
"""

from __future__ import annotations

from engine.mgsz.elo import (
    GamePoints,
    band_width,
    black_jp_milli,
    chance_milli,
    corrected_elos,
    elo_change,
    game_points,
    game_points_milli,
    handicap_corrected,
    rank_after_tournament,
    rank_floor,
    rank_of_elo,
    round_half_up_milli,
    split_rounds,
)
from engine.mgsz.ledger import RULES_VERSION, SETTINGS, Mgsz, MgszParams
from engine.mgsz.multiplier import Multiplier, multiplier, time_category
from engine.mgsz.period import month_period
from engine.mgsz.tables import (
    CHANCE_TABLE,
    IMPORTANCE_ADDITIONS,
    RANK_BOUNDS,
    TIME_CATEGORIES,
)

__all__ = [
    "CHANCE_TABLE",
    "IMPORTANCE_ADDITIONS",
    "RANK_BOUNDS",
    "RULES_VERSION",
    "SETTINGS",
    "TIME_CATEGORIES",
    "GamePoints",
    "Mgsz",
    "MgszParams",
    "Multiplier",
    "band_width",
    "black_jp_milli",
    "chance_milli",
    "corrected_elos",
    "elo_change",
    "game_points",
    "game_points_milli",
    "handicap_corrected",
    "month_period",
    "multiplier",
    "rank_after_tournament",
    "rank_floor",
    "rank_of_elo",
    "round_half_up_milli",
    "split_rounds",
    "time_category",
]
