"""Rating changes caused by given games (the web's head-to-head page, issue 14).

A rating_history row's ``seq`` is the log position of the fact that caused it, so a game's
changes are found by the table's primary key (club, system, seq); systems that rate a
tournament or a period as a whole have none per game.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.system import Value
from storage.codec import value_from_text
from storage.common import ClubRef, club_id
from storage.db import Database
from storage.projections import fresh_system

__all__ = ["game_changes"]


async def game_changes(
    db: Database, club: ClubRef, games: Sequence[int], system: str | None = None
) -> dict[int, dict[int, tuple[Value, Value]]]:
    """For each of ``games`` that changed a rating by itself: each player's (before, after)
    under ``system`` (default: the club's)."""
    cid = club_id(club)
    key = system or await fresh_system(db, cid)
    found: dict[int, dict[int, tuple[Value, Value]]] = {}
    ids = list(dict.fromkeys(games))
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        marks = ", ".join("?" for _ in part)
        for seq, player, source, before, after in await db.fetchall(
            "SELECT seq, player, source, rating_before, rating_after FROM rating_history "
            f"WHERE club = ? AND system = ? AND seq IN ({marks}) ORDER BY moment, seq, idx",
            (cid, key, *part),
        ):
            if source != f"game:{seq}":
                continue
            by_player = found.setdefault(seq, {})
            first = by_player.get(player)
            by_player[player] = (
                value_from_text(before) if first is None else first[0],
                value_from_text(after),
            )
    return found
