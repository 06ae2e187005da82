"""The rating systems as club members see them: the one place in ``bot/`` that names them.

Everything else in ``bot/`` asks the club's ledger (the ``RatingSystem`` protocol,
engine/system.py) and never branches on a system's key; it takes the keys from the engine's
registry (:data:`engine.systems.SYSTEMS`) and the words shown to members from here.
"""

from __future__ import annotations

from bot.i18n import N_, _
from engine.systems import SYSTEMS

DEFAULT_SYSTEM = "mgsz"
"""The system of a club created without naming one (``/club new``, ``hoshi.toml``)."""

TITLES = {
    # TRANSLATORS: the Hungarian federation's rating (Hungarian: Élő-pont)
    "mgsz": N_("MGSZ Elo (Hungary)"),
    # TRANSLATORS: the Japanese points system (Japanese: 点数制)
    "tensuusei": N_("Tensuusei points (Japan)"),
    # TRANSLATORS: the Swedish Go Association's promotion points
    "swedish": N_("Swedish promotion points"),
    # TRANSLATORS: the Polish Go Association's ranking
    "psg": N_("PSG ranking (Poland)"),
    # TRANSLATORS: the European Go Federation's rating
    "gor": N_("EGF GoR (Europe)"),
}
"""Each system's title in replies (``/rating``, ``/top``, ``/club``): show it with
:func:`title`."""

KEYS: tuple[str, ...] = tuple(SYSTEMS)
"""The systems a club can use, as ``/club new``, ``/club system`` and ``--system`` name them."""

OTHER_SYSTEM = next(key for key in KEYS if key != DEFAULT_SYSTEM)
"""A second system, for examples that switch a club to another system."""


def title(key: str) -> str:
    """The system's title as members read it, in the conversation's language (its key when
    it has none)."""
    found = TITLES.get(key)
    return key if found is None else _(found)
