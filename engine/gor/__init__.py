"""EGF GoR — the European Go Database rating, 2021 recalculation (rules.md §6; §5 komi).

* :mod:`engine.gor.formula` — β, expected score with handicap, con, bonus, classes, ranks;
* :mod:`engine.gor.params` — :class:`GorParams` and the club's ``gor.`` settings;
* :mod:`engine.gor.ledger` — :class:`Gor`, the RatingSystem.
"""

from __future__ import annotations

from engine.gor.formula import (
    CLASS_WEIGHTS,
    FLOOR,
    adjusted_minutes,
    beta,
    bonus,
    class_of_time,
    class_weight,
    con,
    expected,
    game_change,
    initial_rating,
    new_rating,
    rank_of,
    to_milli,
    tournament_change,
)
from engine.gor.ledger import RULES_VERSION, Gor, GorClass, tournament_class
from engine.gor.params import SETTINGS, GorParams

__all__ = [
    "CLASS_WEIGHTS",
    "FLOOR",
    "RULES_VERSION",
    "SETTINGS",
    "Gor",
    "GorClass",
    "GorParams",
    "adjusted_minutes",
    "beta",
    "bonus",
    "class_of_time",
    "class_weight",
    "con",
    "expected",
    "game_change",
    "initial_rating",
    "new_rating",
    "rank_of",
    "to_milli",
    "tournament_change",
    "tournament_class",
]
