"""Reading ratings: cards, the ranking list, history rows, chart series, export.

All of these read the projections (``player_state``, ``rating_history``), which every write
keeps current; ``ledger`` hands out the in-memory engine ledger for handicap and promotion
questions.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Sequence

from engine.calendar import event_key, start_of
from engine.ranks import Rank
from engine.system import Card, Value, game_of
from engine.text import Msg
from engine.types import GamePlayed
from storage import log, settings
from storage import overlay as overlays
from storage.backend import Database
from storage.clubs import CURRENT_NAME
from storage.codec import (
    card_from_json,
    date_from_text,
    note_from_text,
    rank_from_text,
    value_from_text,
)
from storage.common import ClubRef, PlayerRef, club_id, player_id
from storage.errors import NotFound, StorageError
from storage.games import club_games, game_rows
from storage.memo import remembered
from storage.overlay import Overlay
from storage.players import load_players
from storage.projections import (
    caught_up,
    caught_up_in_steps,
    ensure_fresh,
    fresh_system,
    ledger,
    ledgers_for,
)
from storage.records import (
    GAME_UNDONE,
    GAME_VOIDED,
    HISTORY_CORRECTED,
    HISTORY_RATED,
    HISTORY_UNDONE,
    HISTORY_VOIDED,
    Club,
    Export,
    GameRow,
    HistoryRow,
    SeriesPoint,
    Standing,
    TournamentChanges,
)
from storage.tournaments import TournamentRef, tournaments
from storage.tournaments import entries as tournament_entries
from storage.tournaments import tournament as tournament_row

__all__ = [
    "card",
    "data_version",
    "entry_ranks",
    "export_rows",
    "game_changes",
    "history",
    "ledger",
    "month_changes",
    "placed_card",
    "rating_series",
    "rejected",
    "standings",
    "tournament_changes",
]


async def _system(db: Database, club: int, system: str | None) -> str:
    """The system asked for (default: the club's current one), its projection brought to
    the end of the club's log (a shadow catches up: storage.projections.caught_up)."""
    current = await fresh_system(db, club)
    key = current if system is None else system
    known = db.projections.systems
    if key not in known:
        raise StorageError(
            Msg(
                "unknown rating system {key!r}; choose one of {known}",
                key=key,
                known=", ".join(sorted(known)),
            )
        )
    if key != current:
        await ensure_fresh(db, club, key)
    return key


async def card(db: Database, club: ClubRef, player: PlayerRef, system: str | None = None) -> Card:
    """The player's card under ``system`` (default: the club's current system).

    Raises:
        NotFound: the system has no card for the player (unknown, or a guest).
    """
    cid, pid = club_id(club), player_id(player)
    return await _card(db, cid, await _system(db, cid, system), pid)


async def _card(db: Database, cid: int, key: str, pid: int) -> Card:
    row = await db.fetchone(
        "SELECT card FROM player_state WHERE club = ? AND system = ? AND player = ?",
        (cid, key, pid),
    )
    if row is None:
        raise NotFound(
            Msg("player {player} has no rating under {key} in this club", player=pid, key=key)
        )
    return card_from_json(row[0])


_STANDINGS_KEY = (
    "SELECT last_seq, fingerprint, "
    "(SELECT MAX(seq) FROM players WHERE club = ?), "
    "(SELECT MAX(seq) FROM player_aliases WHERE club = ?), "
    "(SELECT MAX(seq) FROM events WHERE club = ? AND kind = 'undo') "
    "FROM projection_state WHERE club = ?"
)  # the projections' position and systems, and the players (names order ties)


async def standings(
    db: Database, club: ClubRef, system: str | None = None, limit: int | None = None
) -> list[Standing]:
    """The ranking list: higher sort keys first, equal keys share a place (1, 2, 2, 4 …)."""
    cid = club_id(club)
    key = await _system(db, cid, system)
    ranked, _ = await _ranking(db, cid, key)
    return list(ranked) if limit is None else ranked[:limit]


async def placed_card(
    db: Database, club: ClubRef, player: PlayerRef, system: str | None = None
) -> tuple[Card, int | None, int]:
    """The player's card, their place in the ranking list (``None``: not in it) and the list's
    length — from the memoised list when the player is in it (``/rating``'s one read).

    Raises:
        NotFound: the system has no card for the player (unknown, or a guest).
    """
    cid, pid = club_id(club), player_id(player)
    key = await _system(db, cid, system)
    ranked, index = await _ranking(db, cid, key)
    at = index.get(pid)
    if at is None:
        return await _card(db, cid, key, pid), None, len(ranked)
    return ranked[at].card, ranked[at].place, len(ranked)


async def _ranking(db: Database, cid: int, key: str) -> tuple[list[Standing], dict[int, int]]:
    """The ranking list and each player's position in it (a memo)."""
    return await remembered(
        db,
        ("standings", cid, key),
        _STANDINGS_KEY,
        (cid, cid, cid, cid),
        lambda: _ranked(db, cid, key),
    )


async def _ranked(db: Database, cid: int, key: str) -> tuple[list[Standing], dict[int, int]]:
    known = await load_players(db, cid)
    # cards decoded before are reused while their text is the same (a write changes a few)
    decoded: dict[int, tuple[str, Card]] = db.projections.memo.setdefault(("cards", cid, key), {})
    fresh: dict[int, tuple[str, Card]] = {}
    cards = []
    for player, text in await db.fetchall(
        "SELECT player, card FROM player_state WHERE club = ? AND system = ?", (cid, key)
    ):
        seen = decoded.get(player)
        card = seen[1] if seen is not None and seen[0] == text else card_from_json(text)
        fresh[player] = (text, card)
        if player in known:
            cards.append((known[player], card))
    db.projections.memo[("cards", cid, key)] = fresh
    cards.sort(key=lambda pc: (pc[0].name, pc[0].id))
    cards.sort(key=lambda pc: pc[1].sort_key, reverse=True)  # stable: ties stay by name
    found: list[Standing] = []
    for index, (player, each) in enumerate(cards):
        tied = bool(found) and found[-1].card.sort_key == each.sort_key
        place = found[-1].place if tied else index + 1
        found.append(Standing(place, player, each))
    return found, {standing.player.id: at for at, standing in enumerate(found)}


_PLAYER_HISTORY = "rating_history INDEXED BY rating_history_player"
"""One player's rows by their index: without statistics SQLite chose the primary key (the
club's whole history, in order) and read a million rows to find a newcomer had none."""


async def history(
    db: Database,
    club: ClubRef,
    player: PlayerRef,
    limit: int | None = 20,
    system: str | None = None,
    *,
    undone: bool = True,
) -> list[HistoryRow]:
    """The player's rating changes, newest first in calendar order (rules.md, top), with
    their voided and undone games at their dates.

    A change caused by a corrected game is marked ``corrected``; ``undone=False`` leaves out
    the games taken back with /undo (typos).
    """
    cid, pid = club_id(club), player_id(player)
    key = await _system(db, cid, system)
    folded = await overlays.load(db, cid)
    found: list[tuple[tuple[int, int, int], HistoryRow]] = []
    sql = (
        "SELECT seq, idx, date, source, rating_before, rating_after, rank_before, rank_after, "
        f"note, moment FROM {_PLAYER_HISTORY} WHERE club = ? AND system = ? AND player = ? "
    )
    if limit is None:
        rows = await db.fetchall(sql + "ORDER BY moment, seq, idx", (cid, key, pid))
    else:  # the newest ``limit`` only (a long career has thousands), in the same order
        rows = await db.fetchall(
            sql + "ORDER BY moment DESC, seq DESC, idx LIMIT ?", (cid, key, pid, limit)
        )
        rows.sort(key=lambda row: (row[9], row[0], row[1]))
    for seq, idx, date, source, before, after, rank_before, rank_after, note, at in rows:
        kind, _, ident = source.partition(":")
        corrected = kind == "game" and ident.isdecimal() and int(ident) in folded.corrections
        found.append(
            (
                (at, seq, idx),
                HistoryRow(
                    seq=seq,
                    date=date_from_text(date),
                    source=source,
                    status=HISTORY_CORRECTED if corrected else HISTORY_RATED,
                    rating_before=value_from_text(before),
                    rating_after=value_from_text(after),
                    rank_before=rank_from_text(rank_before),
                    rank_after=rank_from_text(rank_after),
                    note=note_from_text(note),
                ),
            )
        )
    # voided and undone games are shown too: only they can be (newest first, as games_of)
    for row in (await _removed_games(db, cid, folded)).get(pid, ()):
        status = HISTORY_VOIDED if row.status == GAME_VOIDED else HISTORY_UNDONE
        if status == HISTORY_UNDONE and not undone:
            continue
        taken_back = HistoryRow(row.id, row.game.date, f"game:{row.id}", status, game=row)
        found.append(((*event_key(GamePlayed(row.game), row.id), 0), taken_back))
    found.sort(key=lambda item: item[0], reverse=True)
    newest = [each for _, each in found]
    return newest if limit is None else newest[:limit]


async def entry_ranks(
    db: Database, club: ClubRef, ref: TournamentRef, system: str | None = None
) -> dict[int, Rank]:
    """The rank each player of a tournament (entered, or in one of its games) played it with,
    as ``system`` (default: the club's) gives it — what its h9 file and page show (rules.md
    §4.1, §14: the system's ranks): a declared rank (a guest's, a results file's line), as
    engine.system.entry_rank takes it; otherwise a club member's rank at the start of the
    tournament's first day, whatever was typed before or after it (rules.md, top).

    Read from the rating history as the ledgers' trail reads their changes
    (engine.system.RankTrail): the rank after the member's last change dated before that day,
    else their first change's.
    """
    cid = club_id(club)
    key = await _system(db, cid, system)
    row = await tournament_row(db, cid, ref)
    if row is None:
        raise NotFound(Msg("there is no tournament {ref!r} in this club", ref=ref))
    entries = {entry.player: entry for entry in await tournament_entries(db, cid, row.id)}
    players = set(entries)
    for game in await game_rows(
        db,
        cid,
        [
            seq
            for (seq,) in await db.fetchall(
                "SELECT seq FROM games WHERE club = ? AND tournament = ?", (cid, row.id)
            )
        ],
    ):
        players.update((game.game.black, game.game.white))
    day = row.tournament.start.isoformat()
    ranks: dict[int, Rank] = {}
    for player in sorted(players):
        entry = entries.get(player)
        if entry is not None and entry.rank is not None:  # declared: a guest, a file's line
            ranks[player] = entry.rank
            continue
        found = await db.fetchone(
            f"SELECT rank_after FROM {_PLAYER_HISTORY} WHERE club = ? AND system = ? "
            "AND player = ? AND date < ? ORDER BY moment DESC, seq DESC, idx DESC LIMIT 1",
            (cid, key, player, day),
        ) or await db.fetchone(
            f"SELECT rank_after FROM {_PLAYER_HISTORY} WHERE club = ? AND system = ? "
            "AND player = ? ORDER BY moment, seq, idx LIMIT 1",
            (cid, key, player),
        )
        if found is not None:
            ranks[player] = rank_from_text(found[0])
        elif entry is not None and entry.rank is not None:
            ranks[player] = entry.rank
    return ranks


async def _removed_games(db: Database, cid: int, folded: Overlay) -> dict[int, list[GameRow]]:
    """The club's voided and undone games by player, as of the overlay ``folded`` (kept with
    it, and read again for a newer overlay: a void, an undo, a correction). A federation has
    thousands of them, and every ``/rating`` asks for one player's."""
    slot = ("removed games", cid)
    kept = db.projections.memo.get(slot)
    if kept is not None and kept[0] is folded:
        found: dict[int, list[GameRow]] = kept[1]
        return found
    removed = sorted(set(folded.voided) | folded.undone)
    by_player: dict[int, list[GameRow]] = {}
    for row in await game_rows(db, cid, removed, folded):
        if row.status in (GAME_VOIDED, GAME_UNDONE):
            for player in {row.game.black, row.game.white}:
                by_player.setdefault(player, []).append(row)
    db.projections.memo[slot] = (folded, by_player)
    return by_player


async def rating_series(
    db: Database, club: ClubRef, player: PlayerRef, system: str | None = None
) -> list[SeriesPoint]:
    """The player's rating after each change, oldest first: ``(date, rating, rank, source)``."""
    cid, pid = club_id(club), player_id(player)
    key = await _system(db, cid, system)
    return [
        SeriesPoint(date_from_text(date), value_from_text(after), rank_from_text(rank), source)
        for date, after, rank, source in await db.fetchall(
            f"SELECT date, rating_after, rank_after, source FROM {_PLAYER_HISTORY} "
            "WHERE club = ? AND system = ? AND player = ? ORDER BY moment, seq, idx",
            (cid, key, pid),
        )
    ]


_BY_MOMENT = "rating_history INDEXED BY rating_history_moment"
"""A club's rows from a moment on, in calendar order, by the index that rewrites use."""


async def month_changes(
    db: Database, club: ClubRef, since: dt.date, system: str | None = None
) -> dict[int, tuple[Value, Value]]:
    """Every player's change from ``since`` on (the ranking list's "change this month"):
    ``player → (rating before their first change dated on or after since, rating after their
    last)``, in calendar order (rules.md, top): a game entered late counts at its own date.

    One indexed read of the club's rows from ``since`` on (a month of a federation: some ten
    thousand rows, 20 ms), remembered until the next write; players without a change since
    are absent. A registration's change has no rating before (``None``).
    """
    cid = club_id(club)
    key = await _system(db, cid, system)
    start = start_of(since)[0]
    found = await remembered(
        db,
        ("month changes", cid, key),
        _CHANGES_KEY,
        (start, cid),
        lambda: _changes(db, cid, key, start),
    )
    return dict(found)  # the memo stays as it was, whatever the caller does


_CHANGES_KEY = (
    "SELECT last_seq, fingerprint, CAST(? AS BIGINT) FROM projection_state WHERE club = ?"
)
"""The projections' position and systems (every write that changes a row moves them), and
the moment asked from: a page asks for the same month again and again between writes."""


async def _changes(db: Database, cid: int, key: str, start: int) -> dict[int, tuple[Value, Value]]:
    first: dict[int, str] = {}
    last: dict[int, str] = {}
    for pid, before, after in await db.fetchall(
        f"SELECT player, rating_before, rating_after FROM {_BY_MOMENT} "
        "WHERE club = ? AND system = ? AND moment >= ? ORDER BY moment, seq, idx",
        (cid, key, start),
    ):
        if pid not in first:
            first[pid] = before
        last[pid] = after
    return {
        pid: (value_from_text(before), value_from_text(last[pid])) for pid, before in first.items()
    }


async def tournament_changes(
    db: Database, club: ClubRef, tournament: TournamentRef, system: str | None = None
) -> TournamentChanges:
    """The rating changes a tournament (its id, or its row) caused under ``system`` (default:
    the club's current one): each player's over the whole tournament, and game by game where
    the system rates its games one by one (:func:`engine.system.game_of`).

    The rows are found by the primary key: the tournament's own (``seq`` is the tournament's
    id, the log position of the fact that rated it) and, should a game of it have been rated
    on its own, the game's (``seq`` the game's id, source ``game:ID``). An open tournament
    has none.

    Raises:
        NotFound: the club has no such tournament.
    """
    cid = club_id(club)
    key = await _system(db, cid, system)
    row = await tournament_row(db, cid, tournament)
    if row is None:
        raise NotFound(Msg("there is no tournament {ref!r} in this club", ref=tournament))
    games = {
        gid
        for (gid,) in await db.fetchall(
            "SELECT seq FROM games WHERE club = ? AND tournament = ?", (cid, row.id)
        )
    }
    sources: dict[int, str | None] = {row.id: None} | {gid: f"game:{gid}" for gid in games}
    # a system that settles a day's games at the day's end (Tensuusei, rules.md §2.3) rates
    # the tournament's games under the ends of its days: their changes that name one of its
    # games are the tournament's
    days = await _day_ends(db, cid, row.tournament.start, row.tournament.end)
    players: dict[int, tuple[Value, Value]] = {}
    by_game: dict[int, dict[int, tuple[Value, Value]]] = {}
    for seq, pid, source, before, after, gid in await _changes_at(db, cid, key, {*sources, *days}):
        if seq in days and seq not in sources:
            if gid is None or gid not in games:
                continue  # another pair's day, or a club game of the same day
        elif (wanted := sources[seq]) is not None and source != wanted:
            continue  # a game's own fact changed something else (not of this tournament)
        _fold(players, pid, before, after)
        if gid is not None and gid in games:
            _fold(by_game.setdefault(gid, {}), pid, before, after)
    return TournamentChanges(players, by_game)


async def _day_ends(db: Database, cid: int, first: dt.date, last: dt.date) -> set[int]:
    """The log positions of the club's day ends from ``first`` to ``last`` (log.DAY)."""
    found: set[int] = set()
    for seq, payload in await db.fetchall(
        "SELECT seq, payload FROM events WHERE club = ? AND kind = ?", (cid, log.DAY)
    ):
        day = date_from_text(json.loads(payload)["date"])
        if first <= day <= last:
            found.add(seq)
    return found


async def game_changes(
    db: Database, club: ClubRef, games: Sequence[int], system: str | None = None
) -> dict[int, dict[int, tuple[Value, Value]]]:
    """For each of ``games`` that changed a rating by itself — under its own source
    (Tensuusei) or game by game under its tournament's (PSG, :func:`engine.system.game_of`) —
    each player's (before, after) under ``system`` (default: the club's). A system that rates a
    tournament or a period as a whole has none (the web's head-to-head page, issue 14)."""
    cid = club_id(club)
    key = await _system(db, cid, system)
    wanted = set(games)
    facts: set[int] = set(wanted)
    ids = sorted(wanted)
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        marks = ", ".join("?" for _ in part)
        facts.update(
            tournament
            for (tournament,) in await db.fetchall(
                f"SELECT tournament FROM games WHERE club = ? AND seq IN ({marks}) "
                "AND tournament IS NOT NULL",
                (cid, *part),
            )
        )
    found: dict[int, dict[int, tuple[Value, Value]]] = {}
    for _seq, pid, _source, before, after, gid in await _changes_at(db, cid, key, facts):
        if gid in wanted:
            _fold(found.setdefault(gid, {}), pid, before, after)
    return found


async def _changes_at(
    db: Database, cid: int, key: str, facts: Iterable[int]
) -> list[tuple[int, int, str, Value, Value, int | None]]:
    """The rating changes the facts at log positions ``facts`` caused, in calendar order:
    ``(seq, player, source, before, after, game)`` — ``game`` the one a change belongs to,
    if any (:func:`engine.system.game_of`). Read by the primary key (club, system, seq)."""
    seqs = sorted(set(facts))
    rows: list[tuple[int, int, int, int, str, str, str, str]] = []
    for start in range(0, len(seqs), 500):
        part = seqs[start : start + 500]
        marks = ", ".join("?" for _ in part)
        rows.extend(
            await db.fetchall(
                "SELECT moment, seq, idx, player, source, rating_before, rating_after, note "
                f"FROM rating_history WHERE club = ? AND system = ? AND seq IN ({marks})",
                (cid, key, *part),
            )
        )
    rows.sort()
    return [
        (
            seq,
            pid,
            source,
            value_from_text(before),
            value_from_text(after),
            game_of(source, note_from_text(note)),
        )
        for _, seq, _, pid, source, before, after, note in rows
    ]


def _fold(into: dict[int, tuple[Value, Value]], pid: int, before: Value, after: Value) -> None:
    """One more change of ``pid``: the first value before stays, the last after wins."""
    into[pid] = (into[pid][0] if pid in into else before, after)


async def rejected(
    db: Database, club: ClubRef, system: str | None = None
) -> list[tuple[int, str]]:
    """Events a system refused while replaying (``(seq, message)``): what a switch would lose."""
    await caught_up_in_steps(db, club_id(club), system)  # the long part, a step at a time
    async with db.upkeep().transaction() as tx:
        ledgers = await ledgers_for(db, tx, club_id(club))
        key = ledgers.current if system is None else system
        if key not in db.projections.systems:
            return []
        return list((await caught_up(db, tx, ledgers, key)).rejected)


async def export_rows(db: Database, club: ClubRef, system: str | None = None) -> Export:
    """The club's players with their cards, its tournaments and every game (for export)."""
    cid = club_id(club)
    key = await _system(db, cid, system)
    row = await db.fetchone(f"SELECT {CURRENT_NAME} FROM clubs WHERE seq = ?", (cid,))
    if row is None:
        raise NotFound(Msg("there is no club {club}", club=cid))
    known = await load_players(db, cid)
    cards = {
        player: card_from_json(text)
        for player, text in await db.fetchall(
            "SELECT player, card FROM player_state WHERE club = ? AND system = ?", (cid, key)
        )
    }
    current = await settings.current_system(db, cid)
    return Export(
        club=Club(cid, row[0], current),
        system=key,
        players=tuple((player, cards.get(player.id)) for player in known.values()),
        tournaments=tuple(await tournaments(db, cid)),
        games=tuple(await club_games(db, cid)),
    )


async def data_version(db: Database, club: ClubRef) -> tuple[object, ...]:
    """What everything read of the club depends on: its last log entry and the position and
    systems of its projections. Equal versions, equal answers — a page written from them may
    be kept (the web's ranking pages, issue 14)."""
    cid = club_id(club)
    row = await db.fetchone(
        "SELECT (SELECT MAX(seq) FROM log WHERE club = ?), "
        "(SELECT last_seq FROM projection_state WHERE club = ?), "
        "(SELECT fingerprint FROM projection_state WHERE club = ?)",
        (cid, cid, cid),
    )
    return tuple(row or ())
