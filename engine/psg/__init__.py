"""PSG — Polish Go Association ranking regulations 2005–2009 (rules.md §4 and §5).

Tables and pure functions in :mod:`engine.psg.tables`, the ledger in :mod:`engine.psg.ledger`,
the entry-rank check in :mod:`engine.psg.entries`.
"""

from __future__ import annotations

from engine.psg.entries import EntryStanding, entry_rank_violations
from engine.psg.ledger import RULES_VERSION, Psg
from engine.psg.settings import SETTINGS
from engine.psg.state import GameScore, PsgParams
from engine.psg.tables import (
    DAN_NORMS,
    KYU_NORMS,
    MINIMUM_GAMES,
    MODEL_RATINGS,
    POINTS_COLUMNS,
    POINTS_TABLE,
    best_suffix_sums,
    cell,
    game_points,
    kyu_bonus,
    minimum_games,
    model_rating,
    norm_reached,
    norm_value,
    time_control_counts,
)

__all__ = [
    "DAN_NORMS",
    "KYU_NORMS",
    "MINIMUM_GAMES",
    "MODEL_RATINGS",
    "POINTS_COLUMNS",
    "POINTS_TABLE",
    "RULES_VERSION",
    "SETTINGS",
    "EntryStanding",
    "GameScore",
    "Psg",
    "PsgParams",
    "best_suffix_sums",
    "cell",
    "entry_rank_violations",
    "game_points",
    "kyu_bonus",
    "minimum_games",
    "model_rating",
    "norm_reached",
    "norm_value",
    "time_control_counts",
]
