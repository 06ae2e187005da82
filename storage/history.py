"""The club's history as the engine sees it: the log replayed into ``engine.types`` events.

Order is the log order (one global ``seq``). Registrations become ``Registered``; games outside
tournaments ``GamePlayed`` at their own position; a tournament's games are gathered into one
``TournamentRated`` at the position of its effective finalisation; overrides, EGF ratings,
teacher actions, suspensions and the day/month/period ends map to their engine events. A
voided or undone entry is left out, a corrected game carries its corrected data at its original
position, a pending report counts from its confirmation (storage.overlay).

The game path is kept lean for big clubs (the target: a replay within 3× a plain scan of the
game rows): rows come as tuples in ``seq`` order, in chunks, and become ``Game`` objects in one
pass with cached dates, komi and time controls.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import AsyncIterator
from typing import Any

from engine.types import (
    DayEnded,
    EgfRating,
    Entry,
    Event,
    Game,
    GamePlayed,
    Importance,
    MonthEnded,
    Override,
    PeriodClosed,
    Registered,
    TeacherAction,
    TeacherKind,
    Tournament,
    TournamentRated,
    VerificationSuspended,
)
from storage import log
from storage.codec import (
    RESULTS,
    date_from_text,
    komi_from_half_points,
    optional_date,
    optional_rank,
    rank_from_text,
    time_from_text,
    time_text,
)
from storage.db import Row, Transaction
from storage.log import Reader
from storage.overlay import Overlay

GAME_COLUMNS = (
    "seq",
    "black",
    "white",
    "result",
    "date",
    "stones",
    "komi2",
    "played",
    "board",
    "time",
    "tournament",
    "round",
    "arranged",
    "counts_as_tournament",
    "pair_go",
    "reported",
    "margin",
)
"""``games`` columns in the order of ``Game``'s fields (komi as half points)."""

GAME_SELECT = ", ".join(f"games.{c}" for c in GAME_COLUMNS)
_GAME_INDEX = {name: i for i, name in enumerate(GAME_COLUMNS)}

TOURNAMENT_COLUMNS = (
    "seq",
    "name",
    "start_date",
    "end_date",
    "rounds",
    "board",
    "time",
    "even",
    "handicap_reduction",
    "participants",
    "invitational_or_national",
    "european_or_world",
    "multiplier",
    "arranged",
)
"""``tournaments`` columns that make an ``engine.types.Tournament``."""

TOURNAMENT_SELECT = ", ".join(f"tournaments.{c}" for c in TOURNAMENT_COLUMNS)
_TOURNAMENT_INDEX = {name: i for i, name in enumerate(TOURNAMENT_COLUMNS)}

CHUNK = 4096


def patched(row: Row, changes: dict[str, Any], index: dict[str, int]) -> Row:
    """``row`` with some columns replaced (a correction or amendment in column form)."""
    values = list(row)
    for column, value in changes.items():
        values[index[column]] = value
    return tuple(values)


def game_from_row(row: Row) -> Game:
    """A ``Game`` from a row of ``GAME_SELECT`` (not for hot loops: see :func:`club_events`)."""
    return Game(
        row[0],
        row[1],
        row[2],
        RESULTS[row[3]],
        date_from_text(row[4]),
        row[5],
        komi_from_half_points(row[6]),
        bool(row[7]),
        row[8],
        time_from_text(row[9]),
        row[10],
        row[11],
        bool(row[12]),
        bool(row[13]),
        bool(row[14]),
        optional_date(row[15]),
        row[16],
    )


def effective_game(row: Row, overlay: Overlay) -> Game:
    """The game with its corrections applied."""
    changes = overlay.corrections.get(row[0])
    return game_from_row(row if changes is None else patched(row, changes, _GAME_INDEX))


def tournament_from_row(row: Row) -> Tournament:
    """A ``Tournament`` from a row of ``TOURNAMENT_SELECT``."""
    return Tournament(
        id=row[0],
        name=row[1],
        start=date_from_text(row[2]),
        end=date_from_text(row[3]),
        rounds=row[4],
        board=row[5],
        time=time_from_text(row[6]),
        even=bool(row[7]),
        handicap_reduction=row[8],
        participants=row[9],
        importance=Importance(bool(row[10]), bool(row[11])),
        multiplier=row[12],
        arranged=bool(row[13]),
    )


def effective_tournament(row: Row, overlay: Overlay) -> Tournament:
    """The tournament with its amendments applied."""
    changes = overlay.amendments.get(row[0])
    return tournament_from_row(
        row if changes is None else patched(row, changes, _TOURNAMENT_INDEX)
    )


def tournament_columns(tournament: Tournament) -> dict[str, Any]:
    """A tournament's stored column values (the inverse of :func:`tournament_from_row`)."""
    return {
        "name": tournament.name,
        "start_date": tournament.start.isoformat(),
        "end_date": tournament.end.isoformat(),
        "rounds": tournament.rounds,
        "board": tournament.board,
        "time": time_text(tournament.time),
        "even": int(tournament.even),
        "handicap_reduction": tournament.handicap_reduction,
        "participants": tournament.participants,
        "invitational_or_national": int(
            tournament.importance.invitational_or_national_championship
        ),
        "european_or_world": int(tournament.importance.european_or_world_championship),
        "multiplier": tournament.multiplier,
        "arranged": int(tournament.arranged),
    }


def engine_event(seq: int, kind: str, payload: dict[str, Any]) -> Event:
    """An engine history event from an event row's kind and payload."""
    if kind == log.OVERRIDE:
        return Override(
            player=payload["player"],
            date=date_from_text(payload["date"]),
            reason=payload["reason"],
            rating=payload.get("rating"),
            rank=optional_rank(payload.get("rank")),
        )
    if kind == log.EGF:
        return EgfRating(
            player=payload["player"],
            rating=payload["rating"],
            year=payload["year"],
            month=payload["month"],
            from_tournament=payload["from_tournament"],
        )
    if kind == log.TEACHER:
        return TeacherAction(
            player=payload["player"],
            kind=TeacherKind(payload["kind"]),
            date=date_from_text(payload["date"]),
            teacher_rank=optional_rank(payload.get("teacher_rank")),
            rank=optional_rank(payload.get("rank")),
        )
    if kind == log.SUSPEND:
        return VerificationSuspended(
            player=payload["player"],
            suspended=payload["suspended"],
            date=date_from_text(payload["date"]),
        )
    if kind == log.DAY:
        return DayEnded(date_from_text(payload["date"]))
    if kind == log.MONTH:
        return MonthEnded(payload["year"], payload["month"])
    if kind == log.PERIOD:
        columns = payload["tournament"]
        row = tuple(seq if c == "seq" else columns[c] for c in TOURNAMENT_COLUMNS)
        return PeriodClosed(tournament_from_row(row))
    raise ValueError(f"event kind {kind!r} is not an engine event")


def registered_from_row(row: Row) -> Registered:
    """``Registered`` from ``(seq, rank, date, rating, country, committee, rating_system)``."""
    seq, rank, date, rating, country, committee, rating_system = row
    return Registered(
        seq,
        rank_from_text(rank),
        date_from_text(date),
        rating,
        country,
        committee == 1,
        rating_system,
    )


async def tournament_rated(reader: Reader, tournament: int, overlay: Overlay) -> TournamentRated:
    """A tournament's entries and counting games, rated together (rules.md §1.4)."""
    row = await reader.fetchone(
        f"SELECT {TOURNAMENT_SELECT} FROM tournaments WHERE seq = ?", (tournament,)
    )
    if row is None:
        raise LookupError(f"no tournament {tournament}")
    entries: dict[int, Entry] = {}
    for seq, player, rank, registered, country in await reader.fetchall(
        "SELECT seq, player, rank, registered, country FROM tournament_entries "
        "WHERE tournament = ? ORDER BY seq",
        (tournament,),
    ):
        if seq not in overlay.undone:
            entries[player] = Entry(player, rank_from_text(rank), registered == 1, country)
    games = tuple(
        effective_game(game, overlay)
        for game in await reader.fetchall(
            f"SELECT {GAME_SELECT} FROM games WHERE tournament = ? ORDER BY seq", (tournament,)
        )
        if not overlay.removed(game[0])
    )
    return TournamentRated(effective_tournament(row, overlay), tuple(entries.values()), games)


_TOURNAMENT = object()
_CONFIRMED = object()


async def _others(reader: Reader, club: int, overlay: Overlay) -> list[tuple[int, Any, Any]]:
    """Everything but the club games, as ``(position, kind or marker, data)`` in log order."""
    others: list[tuple[int, Any, Any]] = []
    for row in await reader.fetchall(
        "SELECT seq, rank, date, rating, country, committee, rating_system FROM players "
        "WHERE club = ? AND guest = 0",
        (club,),
    ):
        if row[0] not in overlay.undone:
            others.append((row[0], Registered, row))
    marks = ", ".join("?" for _ in log.ENGINE_EVENTS)
    for seq, kind, payload in await reader.fetchall(
        f"SELECT seq, kind, payload FROM events WHERE club = ? AND kind IN ({marks})",
        (club, *log.ENGINE_EVENTS),
    ):
        if seq not in overlay.undone:
            others.append((seq, kind, payload))
    for tournament, position in overlay.finalised.items():
        others.append((position, _TOURNAMENT, tournament))
    for game, position in overlay.confirmed.items():
        if not overlay.removed(game):
            others.append((position, _CONFIRMED, game))
    others.sort(key=lambda item: item[0])
    return others


async def _other_event(
    reader: Reader, item: tuple[int, Any, Any], tournaments: _Tournaments
) -> Event:
    position, kind, data = item
    if kind is Registered:
        return registered_from_row(data)
    if kind is _TOURNAMENT:
        return await tournaments.rated(data)
    if kind is _CONFIRMED:
        row = await reader.fetchone(f"SELECT {GAME_SELECT} FROM games WHERE seq = ?", (data,))
        assert row is not None
        return GamePlayed(effective_game(row, tournaments.overlay))
    return engine_event(position, kind, json.loads(data))


async def count_events(reader: Reader, club: int, overlay: Overlay) -> int:
    """How many events :func:`club_events` will yield (for progress reports)."""
    where = "club = ? AND tournament IS NULL AND pending = 0"
    row = await reader.fetchone(f"SELECT COUNT(*) FROM games WHERE {where}", (club,))
    assert row is not None
    games: int = row[0]
    removed = sorted(overlay.undone | overlay.voided.keys())
    for start in range(0, len(removed), 500):
        part = removed[start : start + 500]
        marks = ", ".join("?" for _ in part)
        row = await reader.fetchone(
            f"SELECT COUNT(*) FROM games WHERE {where} AND seq IN ({marks})", (club, *part)
        )
        assert row is not None
        games -= row[0]
    return games + len(await _others(reader, club, overlay))


class _Games:
    """Game rows made into ``Game`` objects on the hot path: dates, komi and time controls
    are read once per distinct stored text, not once per game."""

    def __init__(self, overlay: Overlay) -> None:
        self.overlay = overlay
        self.special = overlay.undone | overlay.voided.keys() | overlay.corrections.keys()
        self.dates: dict[str, dt.date] = {}
        self.komis: dict[int, Any] = {}
        self.times: dict[str | None, Any] = {None: None}

    def game(self, row: Row) -> Game | None:
        """The game of a ``GAME_SELECT`` row as it counts now (``None``: voided or undone)."""
        seq = row[0]
        if seq in self.special:
            if self.overlay.removed(seq):
                return None
            return effective_game(row, self.overlay)
        date = self.dates.get(row[4])
        if date is None:
            date = self.dates[row[4]] = dt.date.fromisoformat(row[4])
        komi = self.komis.get(row[6])
        if komi is None:
            komi = self.komis[row[6]] = komi_from_half_points(row[6])
        time = self.times.get(row[9], self.times)
        if time is self.times:
            time = self.times[row[9]] = time_from_text(row[9])
        reported = row[15]
        return Game(
            seq,
            row[1],
            row[2],
            RESULTS[row[3]],
            date,
            row[5],
            komi,
            row[7] == 1,
            row[8],
            time,
            row[10],
            row[11],
            row[12] == 1,
            row[13] == 1,
            row[14] == 1,
            None if reported is None else dt.date.fromisoformat(reported),
            row[16],
        )


class _Tournaments:
    """The finalised tournaments of a club, rated from the game rows of the one scan.

    Their games are gathered from the scan as it passes them and rated at the tournament's
    effective finalisation, which comes after all of them (a finalised tournament takes no
    new games). A tournament with a game stored after that position — not something hoshi
    writes — is read by its own query instead (:func:`tournament_rated`), so the order of
    the history never depends on that rule.
    """

    ENTRY_BATCH = 500  # tournaments whose entries are read in one query

    def __init__(self, tx: Transaction, club: int, overlay: Overlay, games: _Games) -> None:
        self.tx = tx
        self.club = club
        self.overlay = overlay
        self.games = games
        self.rows: dict[int, list[Row]] = {}  # tournament → its game rows scanned so far
        self.separate: set[int] = set()  # tournaments read by their own query
        self.tournaments: dict[int, Row] = {}
        self.entries: dict[int, dict[int, Entry]] = {}
        self.order: list[int] = []  # finalised tournaments by position
        self.next_batch = 0

    async def load(self) -> None:
        """The tournament rows, and which tournaments need their own query."""
        finalised = self.overlay.finalised
        self.order = sorted(finalised, key=finalised.__getitem__)
        self.tournaments = {
            row[0]: row
            for row in await self.tx.fetchall(
                f"SELECT {TOURNAMENT_SELECT} FROM tournaments WHERE club = ?", (self.club,)
            )
        }
        for tournament, last in await self.tx.fetchall(
            "SELECT tournament, MAX(seq) FROM games "
            "WHERE club = ? AND tournament IS NOT NULL GROUP BY tournament",
            (self.club,),
        ):
            position = finalised.get(tournament)
            if position is not None and last > position:
                self.separate.add(tournament)

    def add(self, row: Row) -> None:
        """A tournament game passed by the scan."""
        tournament = row[10]
        if tournament not in self.separate:
            rows = self.rows.get(tournament)
            if rows is None:
                rows = self.rows[tournament] = []
            rows.append(row)

    async def rated(self, tournament: int) -> TournamentRated:
        """The tournament rated at its finalisation (every game row before it is scanned)."""
        if tournament in self.separate or tournament not in self.tournaments:
            return await tournament_rated(self.tx, tournament, self.overlay)
        if tournament not in self.entries:
            await self._load_entries(tournament)
        entries = self.entries.pop(tournament, {})
        make = self.games.game
        games = tuple(
            game for row in self.rows.pop(tournament, ()) if (game := make(row)) is not None
        )
        row = self.tournaments[tournament]
        return TournamentRated(
            effective_tournament(row, self.overlay), tuple(entries.values()), games
        )

    async def _load_entries(self, tournament: int) -> None:
        """The entries of the next few finalised tournaments, in one query."""
        while self.next_batch < len(self.order):
            part = self.order[self.next_batch : self.next_batch + self.ENTRY_BATCH]
            self.next_batch += len(part)
            marks = ", ".join("?" for _ in part)
            undone = self.overlay.undone
            for each in part:
                self.entries.setdefault(each, {})
            for seq, of, player, rank, registered, country in await self.tx.fetchall(
                "SELECT seq, tournament, player, rank, registered, country "
                f"FROM tournament_entries WHERE tournament IN ({marks}) ORDER BY seq",
                part,
            ):
                if seq not in undone:
                    entry = Entry(player, rank_from_text(rank), registered == 1, country)
                    self.entries[of][player] = entry
            if tournament in self.entries:
                return


async def club_events(
    tx: Transaction, club: int, overlay: Overlay, *, chunk: int = CHUNK
) -> AsyncIterator[list[tuple[int, Event]]]:
    """The club's engine history in log order, as lists of ``(position, event)``.

    ``position`` is the log seq at which the event takes effect (a tournament: its effective
    finalisation).

    One scan of the club's game rows in ``seq`` order feeds both the club games (at their own
    positions) and the tournaments (gathered until their finalisation); the next chunk of rows
    is fetched while this one becomes events, so SQLite and Python work side by side.
    """
    others = await _others(tx, club, overlay)
    next_other = 0
    games = _Games(overlay)
    tournaments = _Tournaments(tx, club, overlay, games)
    await tournaments.load()
    make = games.game
    gather = tournaments.add
    sql = f"SELECT {GAME_SELECT} FROM games WHERE club = ? AND pending = 0 ORDER BY seq"
    async for rows in tx.chunks(sql, (club,), chunk, prefetch=True):
        batch: list[tuple[int, Event]] = []
        for row in rows:
            seq = row[0]
            while next_other < len(others) and others[next_other][0] < seq:
                item = others[next_other]
                batch.append((item[0], await _other_event(tx, item, tournaments)))
                next_other += 1
            if row[10] is not None:
                gather(row)
                continue
            game = make(row)
            if game is not None:
                batch.append((seq, GamePlayed(game)))
        yield batch
    tail: list[tuple[int, Event]] = []
    for item in others[next_other:]:
        tail.append((item[0], await _other_event(tx, item, tournaments)))
        if len(tail) >= chunk:
            yield tail
            tail = []
    if tail:
        yield tail


def event_players(event: Event) -> set[int] | None:
    """The players an event names (``None``: a club-wide event that may touch everyone)."""
    if isinstance(event, GamePlayed):
        return {event.game.black, event.game.white}
    if isinstance(event, Registered | Override | EgfRating | TeacherAction):
        return {event.player}
    if isinstance(event, VerificationSuspended):
        return {event.player}
    if isinstance(event, TournamentRated):
        named = {entry.player for entry in event.entries}
        for game in event.games:
            named.add(game.black)
            named.add(game.white)
        return named
    return None
