"""What the model's invariants compare: the club's projections, seen several ways.

* :func:`tables` — every row of every table (a refused command changes none of them);
* :func:`projections` — the stored projections byte for byte (replay, undo);
* :func:`facts` — what members see, under all five systems, free of entry order: every card,
  every history row, every tournament's entry ranks, by player and tournament *name* (the
  calendar invariant compares two databases whose log positions differ);
* :func:`outputs` — every report a member or the web sees: the weekly summary, month changes,
  exports, web pages (reopen + finalise unchanged must leave them all as they were).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from typing import Any

import storage
from bot.core import exporting
from bot.web.pages import Shown, Site, ranking_page, tournament_page, tournaments_page
from engine.systems import SYSTEMS
from tests.model.session import Session

ALL_SYSTEMS = tuple(sorted(SYSTEMS))
PROJECTIONS = {
    "player_state": "club, system, player",
    "rating_history": "club, system, seq, idx",
    "projection_state": "club",
}
_SOURCE_ID = re.compile(r"^(game|tournament):\d+")
_NOTE_IDS = re.compile(r"\{(\w+):\d+\}")
_NOTE_GAME = re.compile(r"\bgame \d+")


def note_text(note: str) -> str:
    """A history note without the log positions it names (``{game:12}`` placeholders the bot
    renders as the club's numbers, and PSG's ``game 12``)."""
    return _NOTE_GAME.sub("game N", _NOTE_IDS.sub(r"{\1}", note))


async def tables(session: Session) -> dict[str, list[Any]]:
    """Every row of every table, in a fixed order."""
    db = session.db
    names = [
        name
        for (name,) in await db.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
    ]
    return {t: sorted(await db.fetchall(f"SELECT * FROM {t}"), key=repr) for t in names}


async def projections(session: Session, *, state: bool = True) -> dict[str, list[Any]]:
    """The stored projections (without ``projection_state``, which names the last log
    position, unless ``state``), every system's: the shadows caught up first."""
    await storage.every_system(session.db, session.club)
    return {
        table: await session.db.fetchall(f"SELECT * FROM {table} ORDER BY {order}")
        for table, order in PROJECTIONS.items()
        if state or table != "projection_state"
    }


async def cards(session: Session) -> dict[str, dict[str, Any]]:
    """Every player's card under every system, by player name (the player's id left out)."""
    who = {p.id: p.name for p in await storage.players(session.db, session.club)}
    found: dict[str, dict[str, Any]] = {}
    for system in ALL_SYSTEMS:
        mine: dict[str, Any] = {}
        for pid, name in sorted(who.items(), key=lambda item: item[1]):
            try:
                card = await storage.card(session.db, session.club, pid, system)
            except storage.NotFound:
                continue
            mine[name] = dataclasses.replace(card, player=0)
        found[system] = mine
    return found


def _row(row: storage.HistoryRow) -> tuple[Any, ...]:
    source = _SOURCE_ID.sub(r"\1", row.source)
    return (
        row.date,
        source,
        row.status,
        row.rating_before,
        row.rating_after,
        row.rank_before,
        row.rank_after,
        note_text(row.note),
    )


async def histories(session: Session) -> dict[str, dict[str, list[tuple[Any, ...]]]]:
    """Every player's history under every system, by name, without log positions."""
    who = {p.id: p.name for p in await storage.players(session.db, session.club)}
    found: dict[str, dict[str, list[tuple[Any, ...]]]] = {}
    for system in ALL_SYSTEMS:
        mine = {}
        for pid, name in sorted(who.items(), key=lambda item: item[1]):
            rows = await storage.history(session.db, session.club, pid, None, system)
            mine[name] = [_row(r) for r in rows]
        found[system] = mine
    return found


async def entry_ranks(session: Session) -> dict[str, list[tuple[str, str]]]:
    """Each tournament's entries with the ranks they are scored with, by tournament name."""
    who = await _all_names(session)
    found = {}
    for row in await storage.tournaments(session.db, session.club):
        entries = await storage.entries(session.db, session.club, row.id)
        found[row.tournament.name] = sorted(
            (who.get(int(e.player), f"guest {e.player}"), str(e.rank)) for e in entries
        )
    return found


async def _all_names(session: Session) -> dict[int, str]:
    who = {p.id: p.name for p in await storage.players(session.db, session.club)}
    rows = await session.db.fetchall(
        "SELECT p.seq, p.name FROM players p WHERE p.club = ?", (session.club.id,)
    )
    for pid, name in rows:
        who.setdefault(int(pid), str(name))
    return who


async def facts(session: Session) -> dict[str, Any]:
    """What members see of the club under every system, independent of entry order."""
    return {
        "cards": await cards(session),
        "history": await histories(session),
        "entries": await entry_ranks(session),
    }


async def outputs(session: Session) -> dict[str, Any]:
    """Every report: the weekly summary, this month's changes under every system, the
    exports, the web pages (the club's web switched on for this view only when it is)."""
    db, club = session.db, session.club
    today = session.now.date()
    since = today.replace(day=1)
    found: dict[str, Any] = {}
    summary = await session.run("/summary")
    # the chart's file name counts up with each one written: not part of what is said
    found["summary"] = re.sub(r"\[[^\]]*\.png\]", "[picture]", summary.text)  # any language
    who = await _all_names(session)
    for system in ALL_SYSTEMS:
        changes = await storage.month_changes(db, club, since, system)
        found[f"month {system}"] = {who.get(p, str(p)): v for p, v in changes.items()}
    export = await storage.export_rows(db, club)
    found["players.csv"] = exporting.players_csv(export)
    found["games.csv"] = re.sub(r"\b\d{3,}\b", "ID", exporting.games_csv(export))
    found["ratings.json"] = exporting.ratings_json(export)
    settings = await storage.club_settings(db, club)
    shown = Shown(club, settings)
    site = Site(db, today)
    found["web ranking"] = (await ranking_page(site, shown, "en", everyone=True)).html
    found["web tournaments"] = (await tournaments_page(site, shown, "en")).html
    for row in await storage.tournaments(db, club):
        page = await tournament_page(site, shown, "en", row.number)
        found[f"web tournament #{row.number}"] = None if page is None else page.html
    return found


def differences(before: dict[str, Any], after: dict[str, Any], limit: int = 6) -> str:
    """The first few keys whose values differ, both values shown (for a failure message)."""
    lines = []
    for key in sorted(set(before) | set(after)):
        a, b = before.get(key), after.get(key)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            inner = differences(a, b, limit)
            lines.append(f"{key}:\n  " + inner.replace("\n", "\n  "))
        else:
            lines.append(f"{key}:\n  before: {_short(a)}\n  after:  {_short(b)}")
        if len(lines) >= limit:
            break
    return "\n".join(lines)


def _short(value: Any, size: int = 1500) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= size else text[:size] + " …"


def json_ratings(text: str) -> dict[str, dict[str, Any]]:
    return {item["name"]: item for item in json.loads(text)}


def month_start(moment: dt.datetime) -> dt.date:
    return moment.date().replace(day=1)
