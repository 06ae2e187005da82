"""How later log entries change earlier ones: undo, void, correct, confirm, finalise, reopen.

Nothing in the log is rewritten; instead the :class:`Overlay` of a club says, for every entry,
whether it still counts and with which data. A ``correct`` supersedes a game's data but keeps
the game's position in history; ``void`` and ``undo`` remove their target from the rating
history (the rows stay and are shown as voided/undone); a tournament is rated at its
*effective* finalisation — the last ``finalise`` not followed by a ``reopen``.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any

from storage import keys, log
from storage.log import Reader
from storage.memo import remembered


@dataclass(slots=True)
class Overlay:
    """A club's overlay events folded into lookup tables (all keyed by target seq).

    ``undone``: every seq an ``undo`` took back. ``voided``: game → the void's seq (voids
    not undone). ``corrections``: game → the merged column changes of its corrections.
    ``confirmed``: pending game → the confirmation's seq. ``finalised``: tournament → its
    effective finalisation seq. ``amendments``: tournament → merged column changes.
    """

    undone: set[int] = field(default_factory=set)
    voided: dict[int, int] = field(default_factory=dict)
    corrections: dict[int, dict[str, Any]] = field(default_factory=dict)
    confirmed: dict[int, int] = field(default_factory=dict)
    finalised: dict[int, int] = field(default_factory=dict)
    # tournament → the club's day its effective finalisation was made on (rules.md §2.3)
    finalised_on: dict[int, dt.date] = field(default_factory=dict)
    amendments: dict[int, dict[str, Any]] = field(default_factory=dict)
    reopened: dict[int, int] = field(default_factory=dict)
    # player → the games corrections put them in (built on first use)
    _moved_to: dict[int, set[int]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def moved_to(self, player: int) -> set[int]:
        """Games a correction made ``player`` a player of (as black or white).

        Indexed once per overlay: a player's card and history ask this on every call, and a
        federation has thousands of corrections.
        """
        if self._moved_to is None:
            index: dict[int, set[int]] = {}
            for game, changes in self.corrections.items():
                for colour in ("black", "white"):
                    if (moved := changes.get(colour)) is not None:
                        index.setdefault(moved, set()).add(game)
            self._moved_to = index
        return self._moved_to.get(player, set())

    def removed(self, seq: int) -> bool:
        """Whether a game (or any entry) no longer counts: undone or voided."""
        return seq in self.undone or seq in self.voided


async def load(reader: Reader, club: int) -> Overlay:
    """The club's overlay events (a small fraction of the log), folded (a memo: the overlay
    is read again only when an overlay event was appended; do not change what it returns)."""
    return await remembered(
        reader, ("overlay", club), keys.OVERLAY_KEY, (club,), lambda: _load(reader, club)
    )


async def _load(reader: Reader, club: int) -> Overlay:
    marks = ", ".join("?" for _ in log.OVERLAY_EVENTS)
    rows = await reader.fetchall(
        f"SELECT seq, kind, target, payload FROM events WHERE club = ? AND kind IN ({marks}) "
        "ORDER BY seq",
        (club, *log.OVERLAY_EVENTS),
    )
    overlay = Overlay()
    overlay.undone = {target for _, kind, target, _ in rows if kind == log.UNDO}
    for seq, kind, target, payload in rows:
        if kind == log.UNDO or seq in overlay.undone:
            continue
        if kind == log.VOID:
            overlay.voided[target] = seq
        elif kind == log.CORRECT:
            overlay.corrections.setdefault(target, {}).update(json.loads(payload)["changes"])
        elif kind == log.CONFIRM:
            overlay.confirmed[target] = seq
        elif kind == log.FINALISE:
            overlay.finalised[target] = seq
            overlay.reopened.pop(target, None)
            on = json.loads(payload).get("on") if payload else None
            if on is not None:
                overlay.finalised_on[target] = dt.date.fromisoformat(on)
            else:  # finalised before the day was recorded: only the calendar tells
                overlay.finalised_on.pop(target, None)
        elif kind == log.REOPEN:
            overlay.finalised.pop(target, None)
            overlay.finalised_on.pop(target, None)
            overlay.reopened[target] = seq
        elif kind == log.AMEND:
            overlay.amendments.setdefault(target, {}).update(json.loads(payload)["changes"])
    return overlay


async def undone(reader: Reader, club: int) -> set[int]:
    """Every seq of the club that an ``undo`` took back."""
    rows = await reader.fetchall(
        "SELECT target FROM events WHERE club = ? AND kind = ?", (club, log.UNDO)
    )
    return {target for (target,) in rows}
