"""What happened in a club over some calendar days: the weekly summary's facts (issue 4/6).

Everything here is read from the projections in calendar order (rules.md, top): a player's
movement is their rating history between the two moments — the first value before and the
last value after the changes dated in the days — the tournaments are those rated that end in
them, the games those played on them. Nothing counts log entries or finalisations, so a
reopened tournament finalised again unchanged, or facts typed in another order, leave the
summary as it was (issue 22); a game entered late counts in the week it was played.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from engine.calendar import start_of
from engine.ranks import Rank
from engine.system import Value
from storage import overlay as overlays
from storage import settings
from storage.backend import Database
from storage.codec import rank_from_text, value_from_text
from storage.common import ClubRef, club_id
from storage.games import game_rows
from storage.players import load_players
from storage.projections import ensure_fresh
from storage.records import GAME_OK, Player
from storage.tournaments import tournaments as club_tournaments


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


def days_of(start: dt.datetime, end: dt.datetime, zone: dt.tzinfo) -> tuple[dt.date, dt.date]:
    """The calendar days (club time) a window ``[start, end)`` stands for: from ``start``'s
    day up to the day before ``end``'s, both included (a week ending on Monday 18:00 covers
    Monday to Sunday before it; its Monday counts in the next week)."""
    first = start.astimezone(zone).date()
    last = end.astimezone(zone).date() - dt.timedelta(days=1)
    return first, max(first, last)


async def facts_between(
    db: Database, club: ClubRef, start: dt.datetime, end: dt.datetime
) -> PeriodFacts:
    """Rating movements, new players, tournaments rated and games played on the days of
    ``[start, end)`` (:func:`days_of`, the club's time zone), in calendar order.

    Rating movements leave out registrations (a starting value is not a movement).
    """
    cid = club_id(club)
    await ensure_fresh(db, cid)
    system = await settings.current_system(db, cid)
    zone = (await settings.club_settings(db, cid)).zone
    first_day, last_day = days_of(start, end, zone)
    low = start_of(first_day)[0]
    high = start_of(last_day + dt.timedelta(days=1))[0]
    players = await load_players(db, cid)
    first: dict[int, tuple[Value, Rank]] = {}
    last: dict[int, tuple[Value, Rank]] = {}
    counts: dict[int, int] = {}
    for player, before, after, rank_before, rank_after in await db.fetchall(
        "SELECT player, rating_before, rating_after, rank_before, rank_after "
        "FROM rating_history INDEXED BY rating_history_moment "
        "WHERE club = ? AND system = ? AND moment >= ? AND moment < ? "
        "AND source != 'registration' ORDER BY moment, seq, idx",
        (cid, system, low, high),
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
        sorted(
            (p for p in players.values() if not p.guest and first_day <= p.date <= last_day),
            key=lambda p: (p.date, p.id),
        )
    )
    rated = sorted(
        (
            row
            for row in await club_tournaments(db, cid)
            if row.finalised and first_day <= row.tournament.end <= last_day
        ),
        key=lambda row: (row.tournament.end, row.tournament.start, row.id),
    )
    tournaments = tuple(row.tournament.name for row in rated)
    return PeriodFacts(
        system, movements, new_players, tournaments, await _games(db, cid, first_day, last_day)
    )


async def _games(db: Database, cid: int, first: dt.date, last: dt.date) -> int:
    """Games played on the days ``first`` … ``last`` that count: confirmed, neither voided
    nor undone, at their corrected date."""
    folded = await overlays.load(db, cid)
    ids = {
        seq
        for (seq,) in await db.fetchall(
            "SELECT seq FROM games WHERE club = ? AND date >= ? AND date <= ?",
            (cid, first.isoformat(), last.isoformat()),
        )
    }
    ids.update(game for game, changes in folded.corrections.items() if "date" in changes)
    rows = await game_rows(db, cid, sorted(ids), folded)
    return sum(1 for row in rows if row.status == GAME_OK and first <= row.game.date <= last)
