"""The registry of rating systems, keyed as clubs and ``--system`` name them."""

from __future__ import annotations

from collections.abc import Callable

from engine.gor import Gor
from engine.mgsz import Mgsz
from engine.psg import Psg
from engine.swedish import Swedish
from engine.system import RatingSystem
from engine.tensuusei import Tensuusei

SYSTEMS: dict[str, Callable[[], RatingSystem]] = {
    "mgsz": Mgsz,
    "tensuusei": Tensuusei,
    "swedish": Swedish,
    "psg": Psg,
    "gor": Gor,
}

SYSTEM_TITLES = {
    "mgsz": "MGSZ Elo (Hungary)",
    "tensuusei": "Tensuusei points (Japan)",
    "swedish": "Swedish promotion points",
    "psg": "PSG ranking (Poland)",
    "gor": "EGF GoR (Europe)",
}


def system_named(key: str) -> RatingSystem:
    """A fresh ledger of the system ``key``.

    Raises:
        KeyError: with the known keys, for an unknown system.
    """
    try:
        factory = SYSTEMS[key.strip().lower()]
    except KeyError:
        known = ", ".join(SYSTEMS)
        raise KeyError(f"unknown rating system {key!r}; choose one of {known}") from None
    return factory()
