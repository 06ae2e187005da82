"""The rating systems as club members see them: the one place in ``bot/`` that names them.

Everything else in ``bot/`` asks the club's ledger (the ``RatingSystem`` protocol,
engine/system.py) and never branches on a system's key; it takes the keys from the engine's
registry (:data:`engine.systems.SYSTEMS`) and the words shown to members from here.
"""

from __future__ import annotations

from engine.systems import SYSTEMS

DEFAULT_SYSTEM = "mgsz"
"""The system of a club created without naming one (``/club new``, ``hoshi.toml``)."""

TITLES = {
    "mgsz": "MGSZ Elo (Hungary)",
    "tensuusei": "Tensuusei points (Japan)",
    "swedish": "Swedish promotion points",
    "psg": "PSG ranking (Poland)",
    "gor": "EGF GoR (Europe)",
}
"""Each system's title in replies (``/rating``, ``/top``, ``/club``)."""

KEYS: tuple[str, ...] = tuple(SYSTEMS)
"""The systems a club can use, as ``/club new``, ``/club system`` and ``--system`` name them."""

OTHER_SYSTEM = next(key for key in KEYS if key != DEFAULT_SYSTEM)
"""A second system, for examples that switch a club to another system."""


def title(key: str) -> str:
    """The system's title as members read it (its key when it has none)."""
    return TITLES.get(key, key)
