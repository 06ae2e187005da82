"""What happened in a club between two moments: the weekly summary's facts (issue 4/6).

Moments are the log's timestamps (when something was recorded), so a week's summary tells
what the club *learned* that week, whatever dates the games carry.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from engine.ranks import Rank
from engine.system import Value
from storage import log, settings
from storage.codec import rank_from_text, timestamp, value_from_text
from storage.common import ClubRef, club_id
from storage.db import Database
from storage.players import load_players
from storage.projections import ensure_fresh
from storage.records import Player


@dataclass(frozen=True, slots=True)
class Movement:
    """One player's net movement over the period: first value before, last value after."""

    player: Player
    rating_before: Value
    rating_after: Value
    rank_before: Rank
    rank_after: Rank
    changes: int


@dataclass(frozen=True, slots=True)
class PeriodFacts:
    system: str
    movements: tuple[Movement, ...]
    new_players: tuple[Player, ...]
    tournaments: tuple[str, ...]
    games: int

    @property
    def empty(self) -> bool:
        return not (self.movements or self.new_players or self.tournaments or self.games)


async def facts_between(
    db: Database, club: ClubRef, start: dt.datetime, end: dt.datetime
) -> PeriodFacts:
    """Rating movements, new players, tournaments rated and games recorded in ``[start, end)``.

    Rating movements leave out registrations (a starting value is not a movement).
    """
    cid = club_id(club)
    await ensure_fresh(db, cid)
    system = await settings.current_system(db, cid)
    window = (timestamp(start), timestamp(end))
    players = await load_players(db, cid)
    first: dict[int, tuple[Value, Rank]] = {}
    last: dict[int, tuple[Value, Rank]] = {}
    counts: dict[int, int] = {}
    span = await db.fetchone(  # the week's log positions, by the log_club_at index (0002)
        "SELECT MIN(seq), MAX(seq) FROM log WHERE club = ? AND at >= ? AND at < ?",
        (cid, *window),
    )
    low, high = span if span is not None and span[0] is not None else (0, -1)
    # the changes of facts entered in the window (a game, a day's end …) and of tournaments
    # finalised in it (their rows carry the tournament's own position), in calendar order
    for player, before, after, rank_before, rank_after in await db.fetchall(
        "SELECT h.player, h.rating_before, h.rating_after, h.rank_before, h.rank_after "
        "FROM rating_history h WHERE h.club = ? AND h.system = ? "
        "AND (h.seq BETWEEN ? AND ? OR h.seq IN (SELECT target FROM events WHERE club = ? "
        "AND kind = ? AND seq BETWEEN ? AND ?)) AND h.source != 'registration' "
        "ORDER BY h.moment, h.seq, h.idx",
        (cid, system, low, high, cid, log.FINALISE, low, high),
    ):
        if player not in players:
            continue
        first.setdefault(player, (value_from_text(before), rank_from_text(rank_before)))
        last[player] = (value_from_text(after), rank_from_text(rank_after))
        counts[player] = counts.get(player, 0) + 1
    movements = tuple(
        Movement(players[p], first[p][0], last[p][0], first[p][1], last[p][1], counts[p])
        for p in first
    )
    new_players = tuple(
        players[seq]
        for (seq,) in await db.fetchall(
            "SELECT seq FROM log WHERE club = ? AND kind = ? AND at >= ? AND at < ?",
            (cid, log.PLAYER, *window),
        )
        if seq in players and not players[seq].guest
    )
    tournaments = tuple(
        name
        for (name,) in await db.fetchall(
            "SELECT t.name FROM events e JOIN log ON log.seq = e.seq "
            "JOIN tournaments t ON t.seq = e.target "
            "WHERE e.club = ? AND e.kind = ? AND log.at >= ? AND log.at < ? ORDER BY e.seq",
            (cid, log.FINALISE, *window),
        )
    )
    (games,) = await db.fetchone(
        "SELECT COUNT(*) FROM games g JOIN log ON log.seq = g.seq "
        "WHERE g.club = ? AND log.at >= ? AND log.at < ? AND g.pending = 0",
        (cid, *window),
    ) or (0,)
    return PeriodFacts(system, movements, new_players, tournaments, int(games))
