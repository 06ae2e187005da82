"""The club's history as the engine sees it: the log replayed into ``engine.types`` events.

Order is the calendar's (rules.md, top: "Calendar order"; engine.calendar), never the order of
entry: registrations become ``Registered`` at their date (or just before the player's first
fact, if that is earlier); games outside tournaments ``GamePlayed`` at their date; a finalised
tournament's games are gathered into one ``TournamentRated`` at its end date; overrides, EGF
ratings, teacher actions, suspensions and the day/month/period ends map to their engine events
at their dates. The log position only breaks ties. A voided or undone entry is left out, a
corrected game carries its corrected data (and date), a pending report counts once confirmed
(storage.overlay).

The game path is kept lean for big clubs: rows come as tuples in calendar order, in chunks,
and become ``Game`` objects in one pass with cached dates, komi and time controls.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import AsyncGenerator, Callable, Collection, Iterable
from typing import Any

from engine import calendar
from engine.calendar import Key
from engine.ratings import from_data
from engine.settings import USUAL_TIME
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
    SettingsChanged,
    TeacherAction,
    TeacherKind,
    Tournament,
    TournamentRated,
    VerificationSuspended,
)
from storage import log, settings
from storage.backend import Row, Transaction
from storage.codec import (
    RESULTS,
    date_from_text,
    entry_rank_from_text,
    komi_from_half_points,
    optional_date,
    optional_rank,
    rank_from_text,
    rating_from_columns,
    time_from_text,
    time_text,
)
from storage.log import Reader
from storage.overlay import Overlay

FACTS = calendar.Phase.FACTS

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
    "klass",
)
"""``tournaments`` columns that make an ``engine.types.Tournament`` (``klass``: the EGF
tournament class A–D when one was given, schema version 9)."""

TOURNAMENT_SELECT = ", ".join(f"tournaments.{c}" for c in TOURNAMENT_COLUMNS)
_TOURNAMENT_INDEX = {name: i for i, name in enumerate(TOURNAMENT_COLUMNS)}

CHUNK = 4096


COUNTED = f"(pending = 0 OR seq IN (SELECT target FROM events WHERE kind = '{log.CONFIRM}'))"
"""A tournament game that counts: recorded, or a player's report once confirmed (a report
still waiting is never rated with its tournament)."""


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
        klass=row[14],
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
        "klass": tournament.klass,
    }


def engine_event(seq: int, kind: str, payload: dict[str, Any]) -> Event:
    """An engine history event from an event row's kind and payload."""
    if kind == log.OVERRIDE:
        return Override(
            player=payload["player"],
            date=date_from_text(payload["date"]),
            reason=payload["reason"],
            rating=None if payload.get("rating") is None else from_data(payload["rating"]),
            rank=optional_rank(payload.get("rank")),
        )
    if kind == log.EGF:
        return EgfRating(
            player=payload["player"],
            rating=from_data(payload["rating"]),
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
    if kind == log.RATING_SETTING:
        return settings_changed(payload)
    if kind == log.DAY:
        return DayEnded(date_from_text(payload["date"]))
    if kind == log.MONTH:
        return MonthEnded(payload["year"], payload["month"])
    if kind == log.PERIOD:
        columns = payload["tournament"]
        # a period written before schema version 9 has no class: none was given
        row = tuple(seq if c == "seq" else columns.get(c) for c in TOURNAMENT_COLUMNS)
        return PeriodClosed(tournament_from_row(row))
    raise ValueError(f"event kind {kind!r} is not an engine event")


def settings_changed(payload: dict[str, Any]) -> SettingsChanged:
    """A rating setting change (``/club set tensuusei.anchor 128``) as the fact the systems
    fold at the start of its date (engine.calendar), its value typed by its declaration."""
    key = payload["key"]
    setting = settings.setting_named(key)
    values = () if setting is None else ((key, settings.read_value(setting, payload["value"])),)
    return SettingsChanged(date_from_text(payload["date"]), values)


async def _usual_times(
    reader: Reader, club: int, overlay: Overlay, since: int
) -> list[tuple[Key, Any, Any]]:
    """The club's usual time control as it was set before it became a dated rating setting
    (a ``setting`` event): a fact from the day it was entered (UTC), as a ``rating_setting``
    is from its date, so a club that set it then still has its periods rated with it
    (rules.md §1.4, club games)."""
    setting = settings.setting_named(USUAL_TIME)
    assert setting is not None
    found: list[tuple[Key, Any, Any]] = []
    for seq, payload, at in await reader.fetchall(
        "SELECT e.seq, e.payload, log.at FROM events e JOIN log ON log.seq = e.seq "
        "WHERE e.club = ? AND e.kind = ? AND e.key = ? AND e.seq > ?",
        (club, log.SETTING, USUAL_TIME, since),
    ):
        if seq in overlay.undone:
            continue
        value = settings.read_value(setting, json.loads(payload)["value"])
        day = dt.datetime.fromisoformat(at).astimezone(dt.UTC).date()
        event = SettingsChanged(day, ((USUAL_TIME, value),))
        found.append((calendar.event_key(event, seq), log.RATING_SETTING, event))
    return found


REGISTERED_SELECT = "seq, rank, date, rating, country, committee, rating_system, rating_milli, pro"
"""The ``players`` columns a registration is read from (:func:`registered_from_row`)."""


def registered_from_row(row: Row) -> Registered:
    """``Registered`` from ``(seq, rank, date, rating, country, committee, rating_system,
    rating_milli, pro)`` (:data:`REGISTERED_SELECT`)."""
    seq, rank, date, rating, country, committee, rating_system, rating_milli, pro = row
    return Registered(
        seq,
        rank_from_text(rank),
        date_from_text(date),
        rating_from_columns(rating, rating_milli),
        country,
        committee == 1,
        rating_system,
        pro,
    )


async def tournament_rated(reader: Reader, tournament: int, overlay: Overlay) -> TournamentRated:
    """A tournament's entries and counting games, rated together (rules.md §1.4)."""
    row = await reader.fetchone(
        f"SELECT {TOURNAMENT_SELECT} FROM tournaments WHERE seq = ?", (tournament,)
    )
    if row is None:
        raise LookupError(f"no tournament {tournament}")
    entries: dict[int, Entry] = {}
    for seq, player, rank, registered, country, pro in await reader.fetchall(
        "SELECT seq, player, rank, registered, country, pro FROM tournament_entries "
        "WHERE tournament = ? ORDER BY seq",
        (tournament,),
    ):
        if seq not in overlay.undone:
            entries[player] = Entry(
                player, entry_rank_from_text(rank), registered == 1, country, pro=pro
            )
    games = tuple(
        effective_game(game, overlay)
        for game in await reader.fetchall(
            f"SELECT {GAME_SELECT} FROM games WHERE tournament = ? AND {COUNTED} ORDER BY seq",
            (tournament,),
        )
        if not overlay.removed(game[0])
    )
    return TournamentRated(
        effective_tournament(row, overlay),
        tuple(entries.values()),
        games,
        overlay.finalised_on.get(tournament),
    )


_TOURNAMENT = object()
_GAME = object()


async def _others(
    reader: Reader, club: int, overlay: Overlay, since: int = 0, from_day: str = ""
) -> list[tuple[Key, Any, Any]]:
    """Everything but the club games read by the scan, as ``(key, kind or marker, data)`` in
    calendar order: registrations, organiser and scheduler events, finalised tournaments, and
    the club games the scan leaves out (confirmed reports, corrected games: their effective
    date is not the stored one).

    ``since``: only the registrations and events entered after this log position (a tail: the
    ledgers being resumed folded every one up to it, at its place in the calendar);
    ``from_day``: only the tournaments ending on that day (ISO) or later (one that ended
    before is rated before the tail: a change to it would have been a rewrite)."""
    others: list[tuple[Key, Any, Any]] = []
    for row in await reader.fetchall(
        f"SELECT {REGISTERED_SELECT} FROM players WHERE club = ? AND guest = 0 AND seq > ?",
        (club, since),
    ):
        if row[0] not in overlay.undone:
            registered = registered_from_row(row)
            others.append((calendar.event_key(registered, row[0]), Registered, registered))
    marks = ", ".join("?" for _ in log.ENGINE_EVENTS)
    for seq, kind, payload in await reader.fetchall(
        f"SELECT seq, kind, payload FROM events WHERE club = ? AND kind IN ({marks}) AND seq > ?",
        (club, *log.ENGINE_EVENTS, since),
    ):
        if seq not in overlay.undone:
            event = engine_event(seq, kind, json.loads(payload))
            others.append((calendar.event_key(event, seq), kind, event))
    others.extend(await _usual_times(reader, club, overlay, since))
    if overlay.finalised:
        for row in await reader.fetchall(
            f"SELECT {TOURNAMENT_SELECT} FROM tournaments WHERE club = ? AND end_date >= ?",
            (club, from_day),
        ):
            if row[0] in overlay.finalised:
                tournament = effective_tournament(row, overlay)
                key = (calendar.tournament_moment(tournament), row[0])
                others.append((key, _TOURNAMENT, tournament))
    apart = sorted(
        game
        for game in overlay.confirmed.keys() | overlay.corrections.keys()
        if not overlay.removed(game)
    )
    for start in range(0, len(apart), 500):
        part = apart[start : start + 500]
        marks = ", ".join("?" for _ in part)
        for *columns, pending in await reader.fetchall(
            f"SELECT {GAME_SELECT}, games.pending FROM games "
            f"WHERE club = ? AND tournament IS NULL AND seq IN ({marks})",
            (club, *part),
        ):
            if pending and columns[0] not in overlay.confirmed:
                continue  # a corrected report still waiting for its confirmation
            game = effective_game(tuple(columns), overlay)
            others.append((calendar.event_key(GamePlayed(game), game.id), _GAME, game))
    others.sort(key=lambda item: item[0])
    return others


async def _other_event(item: tuple[Key, Any, Any], tournaments: _Tournaments) -> Event:
    _, kind, data = item
    if kind is _TOURNAMENT:
        return await tournaments.rated(data)
    if kind is _GAME:
        return GamePlayed(data)
    event: Event = data
    return event


_CLUB_GAMES = "club = ? AND tournament IS NULL AND pending = 0"


async def count_events(reader: Reader, club: int, overlay: Overlay) -> int:
    """How many events :func:`club_events` will yield (for progress reports)."""
    row = await reader.fetchone(f"SELECT COUNT(*) FROM games WHERE {_CLUB_GAMES}", (club,))
    assert row is not None
    games: int = row[0]
    apart = sorted(overlay.undone | overlay.voided.keys() | overlay.corrections.keys())
    for start in range(0, len(apart), 500):
        part = apart[start : start + 500]
        marks = ", ".join("?" for _ in part)
        row = await reader.fetchone(
            f"SELECT COUNT(*) FROM games WHERE {_CLUB_GAMES} AND seq IN ({marks})", (club, *part)
        )
        assert row is not None
        games -= row[0]
    return games + len(await _others(reader, club, overlay))


def _slot_setters(cls: type, names: str) -> tuple[Callable[[Any, Any], None], ...]:
    """The setters of a frozen slotted dataclass's fields, in order: ``names``, which must be
    its fields in their order (a field added or moved stops the import here, not a replay)."""
    fields = tuple(field.name for field in dataclasses.fields(cls))
    if fields != tuple(names.split()):
        raise TypeError(f"{cls.__name__}'s fields are {fields}, not {names}")
    return tuple(getattr(cls, name).__set__ for name in fields)


_new_game = object.__new__
(
    _set_id,
    _set_black,
    _set_white,
    _set_result,
    _set_date,
    _set_stones,
    _set_komi,
    _set_played,
    _set_board,
    _set_time,
    _set_tournament,
    _set_round,
    _set_arranged,
    _set_counts_as_tournament,
    _set_pair_go,
    _set_reported,
    _set_margin,
) = _slot_setters(
    Game,
    "id black white result date stones komi played board time tournament round arranged "
    "counts_as_tournament pair_go reported margin",
)
"""Each ``Game`` field's slot, set directly: a frozen dataclass's ``__init__`` sets each field
through ``object.__setattr__`` by name, which took as long as reading the row (issue 23)."""


_new_entry = object.__new__
(
    _set_player,
    _set_entry_rank,
    _set_registered,
    _set_country,
    _set_criteria,
    _set_byes,
    _set_administrative,
    _set_colourless,
    _set_pro,
) = _slot_setters(
    Entry, "player rank registered country criteria byes administrative colourless pro"
)
"""Each ``Entry`` field's slot, set directly (as :data:`_set_id` … for games)."""


class _Games:
    """Game rows made into ``Game`` objects on the hot path: dates, komi and time controls
    are read once per distinct stored text, not once per game, and each game's slots are set
    directly (:meth:`game`)."""

    def __init__(self, overlay: Overlay) -> None:
        self.overlay = overlay
        self.special = overlay.undone | overlay.voided.keys() | overlay.corrections.keys()
        self.dates: dict[str, dt.date] = {}
        self.komis: dict[int, Any] = {}
        self.times: dict[str | None, Any] = {None: None}

    def date(self, text: str) -> dt.date:
        """A stored date, read once per distinct text."""
        date = self.dates.get(text)
        if date is None:
            date = self.dates[text] = dt.date.fromisoformat(text)
        return date

    def game(self, row: Row) -> Game | None:
        """The game of a ``GAME_SELECT`` row as it counts now (``None``: voided or undone):
        the same ``Game`` as :func:`game_from_row` gives, built without ``Game.__init__``
        (its checks are made here, and a game failing them is left to ``__init__`` to
        refuse)."""
        (
            seq,
            black,
            white,
            result,
            day,
            stones,
            komi2,
            played,
            board,
            time_text_,
            tournament,
            round_,
            arranged,
            counts_as_tournament,
            pair_go,
            reported,
            margin,
        ) = row
        if seq in self.special:
            if self.overlay.removed(seq):
                return None
            return effective_game(row, self.overlay)
        if black == white or not 0 <= stones <= 9:
            return game_from_row(row)  # raises Game's own error
        date = self.date(day)
        komi = self.komis.get(komi2)
        if komi is None:
            komi = self.komis[komi2] = komi_from_half_points(komi2)
        time = self.times.get(time_text_, self.times)
        if time is self.times:
            time = self.times[time_text_] = time_from_text(time_text_)
        game: Game = _new_game(Game)
        _set_id(game, seq)
        _set_black(game, black)
        _set_white(game, white)
        _set_result(game, RESULTS[result])
        _set_date(game, date)
        _set_stones(game, stones)
        _set_komi(game, komi)
        _set_played(game, played == 1)
        _set_board(game, board)
        _set_time(game, time)
        _set_tournament(game, tournament)
        _set_round(game, round_)
        _set_arranged(game, arranged == 1)
        _set_counts_as_tournament(game, counts_as_tournament == 1)
        _set_pair_go(game, pair_go == 1)
        _set_reported(game, None if reported is None else dt.date.fromisoformat(reported))
        _set_margin(game, margin)
        return game


class _Tournaments:
    """The finalised tournaments of a club, rated at their place in the calendar.

    Each is read when the fold reaches it: its games by the ``games_tournament`` index, its
    entries a few hundred tournaments at a time (in calendar order, the order they are asked).
    """

    ENTRY_BATCH = 500  # tournaments whose entries are read in one query
    GAME_BATCH = 50  # tournaments whose games are read in one query

    def __init__(self, tx: Transaction, overlay: Overlay, games: _Games, order: list[int]) -> None:
        self.tx = tx
        self.overlay = overlay
        self.games = games
        self.entries: dict[int, dict[int, Entry]] = {}
        self.game_rows: dict[int, list[Row]] = {}
        self.order = order  # finalised tournaments in calendar order
        self.next_batch = 0
        self.next_games = 0

    async def rated(self, tournament: Tournament) -> TournamentRated:
        """The tournament with its entries and counting games, rated together (§1.4)."""
        if tournament.id not in self.entries:
            await self._load_entries(tournament.id)
        entries = self.entries.pop(tournament.id, {})
        rows = self.game_rows.pop(tournament.id, None)
        if rows is None:
            rows = await self._load_games(tournament.id)
        make = self.games.game
        games = tuple(game for row in rows if (game := make(row)) is not None)
        return TournamentRated(
            tournament,
            tuple(entries.values()),
            games,
            self.overlay.finalised_on.get(tournament.id),
        )

    async def _load_games(self, tournament: int) -> list[Row]:
        """The game rows of ``tournament`` (in log order), read with those of the next few
        finalised tournaments in one query when it is the next in calendar order (the fold
        asks them in that order: one round trip for many small tournaments)."""
        order = self.order
        if self.next_games < len(order) and order[self.next_games] == tournament:
            part = order[self.next_games : self.next_games + self.GAME_BATCH]
            self.next_games += len(part)
            marks = ", ".join("?" for _ in part)
            found: dict[int, list[Row]] = {each: [] for each in part}
            for row in await self.tx.fetchall(
                f"SELECT {GAME_SELECT} FROM games WHERE tournament IN ({marks}) AND {COUNTED} "
                "ORDER BY seq",
                part,
            ):
                found[row[10]].append(row)
            self.game_rows.update(found)
            return self.game_rows.pop(tournament)
        return await self.tx.fetchall(
            f"SELECT {GAME_SELECT} FROM games WHERE tournament = ? AND {COUNTED} ORDER BY seq",
            (tournament,),
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
            for seq, of, player, rank, registered, country, pro in await self.tx.fetchall(
                "SELECT seq, tournament, player, rank, registered, country, pro "
                f"FROM tournament_entries WHERE tournament IN ({marks}) ORDER BY seq",
                part,
            ):
                if seq not in undone:
                    entry: Entry = _new_entry(Entry)  # as Entry(...) would, slot by slot
                    _set_player(entry, player)
                    _set_entry_rank(entry, entry_rank_from_text(rank))
                    _set_registered(entry, registered == 1)
                    _set_country(entry, country)
                    _set_criteria(entry, ())
                    _set_byes(entry, ())
                    _set_administrative(entry, ())
                    _set_colourless(entry, ())
                    _set_pro(entry, pro)
                    self.entries[of][player] = entry
            if tournament in self.entries:
                return


class _Registrations:
    """Registrations not folded yet, so that a player's first fact never comes before them.

    A registration takes effect at its date, but never after the player's first game,
    tournament or organiser action: one dated later (a club entering last year's tournaments
    after registering its members today) is folded just before that first fact, on its day
    (engine.calendar.registration_key).
    """

    def __init__(self, others: list[tuple[Key, Any, Any]], folded: Collection[int] = ()) -> None:
        self.waiting: dict[int, Registered] = {
            data.player: data
            for _, kind, data in others
            if kind is Registered and data.player not in folded
        }

    def before(self, event: Event, out: list[tuple[Key, Event]]) -> None:
        """Fold the registrations of the players ``event`` names that are still waiting."""
        if not self.waiting:
            return
        if isinstance(event, GamePlayed):
            named: Iterable[int] = (event.game.black, event.game.white)
        else:
            named = sorted(event_players(event) or ())
        for player in named:
            registered = self.waiting.pop(player, None)
            if registered is not None:
                # the fact's own day (a tournament's: its end, where it is folded), so that
                # the registration's place only moves with the first fact folded: a rewrite
                # from that fact's first day (engine.calendar.first_day) always covers it
                day = calendar.event_day(event)
                moved = dataclasses.replace(registered, date=_first_game_day(event, player, day))
                out.append((calendar.registration_key(day, player), moved))

    def due(self, registered: Registered) -> bool:
        """Whether a registration reached at its own date is still to be folded."""
        return self.waiting.pop(registered.player, None) is not None


def _first_game_day(event: Event, player: int, day: dt.date) -> dt.date:
    """The day a registration moved to ``event`` (folded on ``day``) is dated: the player's
    first game in it when that is earlier (a tournament's games are dated from its start,
    and a player is never registered after their first game); else ``day``."""
    if not isinstance(event, TournamentRated):
        return day  # a game's own day, or a fact of one day
    return min([day, *(g.date for g in event.games if player in (g.black, g.white))])


async def club_events(
    tx: Transaction,
    club: int,
    overlay: Overlay,
    *,
    chunk: int = CHUNK,
    after: Key | None = None,
    since: int = 0,
    registered: Collection[int] = (),
) -> AsyncGenerator[list[tuple[Key, Event]], None]:
    """The club's engine history in calendar order, as lists of ``(key, event)``.

    ``key`` is the fact's place in the calendar (engine.calendar: its moment, then its own log
    position). A scan of the club's single games by date (the ``games_club_calendar`` index)
    is merged with everything else — registrations, organiser and scheduler events, finalised
    tournaments (rated at their end date), confirmed and corrected games — sorted in memory
    (a small part of the log); the next chunk of rows is fetched while this one becomes events.

    The tail after a place already folded (ledgers resumed from a snapshot, or brought up to
    date after another process wrote): ``after`` yields only the events with a key after it,
    the game scan starting at its day; ``registered`` are the players whose registration was
    folded already (at its own date or just before their first fact: :class:`_Registrations`),
    never folded again. Any other registration still waits for its date or its player's first
    fact, as in the whole history. ``since``: the log position the resumed ledgers folded up
    to (every registration and event entered by then is at or before ``after``: not read).
    """
    from_day = "" if after is None or after <= (0, 0) else calendar.day_of(after[0]).isoformat()
    others = await _others(tx, club, overlay, since, from_day)
    registrations = _Registrations(others, registered)
    if after is not None:
        others = [item for item in others if item[0] > after]
    next_other = 0
    games = _Games(overlay)
    order = [data.id for _, kind, data in others if kind is _TOURNAMENT]
    tournaments = _Tournaments(tx, overlay, games, order)
    moments: dict[str, int] = {}
    make = games.game
    corrected = overlay.corrections.keys()
    waiting = registrations.waiting  # only ever popped from

    async def emit(item: tuple[Key, Any, Any], out: list[tuple[Key, Event]]) -> None:
        if item[1] is Registered:
            if registrations.due(item[2]):
                out.append((item[0], item[2]))
            return
        event = await _other_event(item, tournaments)
        registrations.before(event, out)
        out.append((item[0], event))

    start: Key = (-1, -1) if after is None else after
    if start[0] <= 0:  # the whole history
        sql = f"SELECT {GAME_SELECT} FROM games WHERE {_CLUB_GAMES} ORDER BY date, seq"
        params: tuple[Any, ...] = (club,)
    else:  # the same index, from the day of ``after`` on
        sql = (
            f"SELECT {GAME_SELECT} FROM games WHERE {_CLUB_GAMES} AND date >= ? ORDER BY date, seq"
        )
        params = (club, calendar.day_of(start[0]).isoformat())
    async for rows in tx.chunks(sql, params, chunk, prefetch=True):
        batch: list[tuple[Key, Event]] = []
        for row in rows:
            seq = row[0]
            if seq in corrected:  # folded at its corrected date, from ``others``
                continue
            at = moments.get(row[4])
            if at is None:
                at = moments[row[4]] = calendar.moment(games.date(row[4]), FACTS)
            key = (at, seq)
            if key <= start:  # folded already (the tail after ``after``)
                continue
            while next_other < len(others) and others[next_other][0] < key:
                await emit(others[next_other], batch)
                next_other += 1
            game = make(row)
            if game is not None:
                event = GamePlayed(game)
                if waiting and (game.black in waiting or game.white in waiting):
                    registrations.before(event, batch)
                batch.append((key, event))
        yield batch
    tail: list[tuple[Key, Event]] = []
    for item in others[next_other:]:
        await emit(item, tail)
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
