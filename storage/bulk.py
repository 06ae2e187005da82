"""Bulk loading: a long history appended in big transactions, then one replay.

For a federation's past (decades of tournaments) and the benchmark's generator. Rows go into
the log and its typed tables with one ``executemany`` per table per transaction, and nothing
is rated on the way in: the club's own system's projection is built once at the end by
replaying the whole club log (:func:`storage.projections.replay_club`); the other systems'
when first asked for, as any club's. The log stays append-only and the projections
stay derived — a bulk-loaded club is indistinguishable from one built entry by entry
(``incremental=True`` builds it entry by entry, through :meth:`ClubWrite.apply`, which is how
the tests prove it).

Items name players and tournaments by the caller's own keys; :func:`bulk_load` hands out the
log positions and translates. Fields are checked as the normal paths check them (names, stones,
boards, rounds, keys); the club's system sees every event at the replay, and an event it
refuses is listed in its projection's ``rejected`` instead of aborting a long load
(:attr:`BulkResult.rejected` counts them per system folded).

Each batch is its own transaction: a failed load keeps the batches before it (the log is
append-only), so load into a fresh club.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, NamedTuple

from engine.formats.messages import joined, message_of
from engine.ranks import Rank
from engine.text import Msg
from engine.timecontrol import TimeControl
from engine.types import (
    DayEnded,
    Event,
    Game,
    GamePlayed,
    MonthEnded,
    PeriodClosed,
    Registered,
    Tournament,
)
from storage import log, schedules, settings
from storage import overlay as overlays
from storage.backend import Database, Transaction
from storage.clubs import new_club
from storage.codec import RESULTS, dumps, komi_from_half_points, time_from_text, timestamp
from storage.common import ClubRef, clean_name, club_id
from storage.errors import BatchError, NotFound, StorageError
from storage.games import GAME_INSERT, TOURNAMENT_NUMBER
from storage.history import TOURNAMENT_COLUMNS, tournament_columns, tournament_rated
from storage.names import fold
from storage.players import (
    PLAYER_INSERT,
    NameIndex,
    already_registered,
    load_players,
    player_row,
)
from storage.projections import (
    ClubWrite,
    club_write,
    last_club_seq,
    ledgers_for,
    rebuild,
    replay_club,
)
from storage.projections import fold as fold_systems
from storage.records import Club, NewPlayer, Player
from storage.rewrites import record_rewrite
from storage.tournaments import _problems as tournament_problems

BATCH = 100_000
"""Items per transaction."""
CLUBS_PER_TRANSACTION = 50
"""New clubs per transaction of :func:`bulk_load_clubs`."""


@dataclass(frozen=True, slots=True)
class BulkPlayer:
    """Register ``player`` on ``date``; later items name them by ``key``."""

    key: int
    player: NewPlayer
    date: dt.date


@dataclass(frozen=True, slots=True)
class BulkTournament:
    """Open ``tournament`` (its ``id`` is ignored); later items name it by ``key``."""

    key: int
    tournament: Tournament


@dataclass(frozen=True, slots=True)
class BulkEntry:
    """Enter player ``player`` (a key) in tournament ``tournament`` (a key) with ``rank``."""

    tournament: int
    player: int
    rank: Rank
    country: str | None = None


class BulkGame(NamedTuple):
    """A game in column form (a million of them are made: a tuple, not a dataclass).

    ``black`` and ``white`` are player keys, ``tournament`` a tournament key or ``None`` (a
    club game, rated at its own position), ``komi2`` the komi in half points, ``time`` a time
    control's text, ``margin`` the result's SGF margin (``Game.margin``).
    """

    black: int
    white: int
    result: str | None
    date: dt.date
    stones: int = 0
    komi2: int = 13
    played: bool = True
    board: int = 19
    time: str | None = None
    tournament: int | None = None
    round: int | None = None
    arranged: bool = False
    margin: str | None = None


@dataclass(frozen=True, slots=True)
class BulkFinalise:
    """Finalise tournament ``tournament`` (a key): it is rated here (rules.md §1.4)."""

    tournament: int


BulkItem = (
    BulkPlayer | BulkTournament | BulkEntry | BulkGame | BulkFinalise | DayEnded | MonthEnded
) | PeriodClosed
"""What a bulk load appends; day, month and period ends are the scheduler's events."""


@dataclass(slots=True)
class BulkResult:
    """What :func:`bulk_load` wrote, and how many events each system refused at the replay."""

    players: dict[int, int] = field(default_factory=dict)
    """Player key → player id (log seq)."""
    tournaments: dict[int, int] = field(default_factory=dict)
    """Tournament key → tournament id (log seq)."""
    games: int = 0
    entries: int = 0
    events: int = 0
    skipped: int = 0
    """Day, month or period ends already recorded (a no-op, as in storage.events)."""
    rejected: dict[str, int] = field(default_factory=dict)
    last_seq: int = 0


_SCHEDULED = (log.DAY, log.MONTH, log.PERIOD)
_TOURNAMENT_COLUMNS = ("seq", "club", "notes", *TOURNAMENT_COLUMNS[1:])
"""The stored columns of a tournament row: the log position, the club, the notes, then the
columns :func:`storage.history.tournament_columns` fills."""
_TOURNAMENT_INSERT = (
    f"INSERT INTO tournaments ({', '.join(_TOURNAMENT_COLUMNS)}, number) "
    f"VALUES ({', '.join('?' for _ in _TOURNAMENT_COLUMNS)}, {TOURNAMENT_NUMBER})"
)
"""Parameters: the :data:`_TOURNAMENT_COLUMNS` values, then the club again (for the club's
number, handed out as :mod:`storage.tournaments` does)."""
_ENTRY_INSERT = (
    "INSERT INTO tournament_entries (seq, club, tournament, player, rank, registered, country) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_EVENT_INSERT = (
    "INSERT INTO events (seq, club, kind, target, key, payload) VALUES (?, ?, ?, ?, ?, ?)"
)
_LOG_INSERT = "INSERT INTO log (seq, club, kind, at, actor, chat) VALUES (?, ?, ?, ?, ?, ?)"


class _Loader:
    """The state of one load: key maps, names taken, idempotency keys seen."""

    def __init__(self, db: Database, club: int, actor: str, chat: str | None) -> None:
        self.db = db
        self.club = club
        self.actor = actor
        self.chat = chat
        self.result = BulkResult()
        self.system = ""
        self.names = NameIndex(())
        self.guests: set[int] = set()  # player ids of tournament guests
        self.rounds: dict[int, int] = {}  # tournament id → its rounds
        self.finalised: set[int] = set()  # tournament ids finalised in this load
        self.tournament_names: set[str] = set()
        self.scheduled: set[tuple[str, str]] = set()
        self.times: dict[str | None, TimeControl | None] = {None: None}
        self.number = 0  # items seen, for error messages

    async def start(self, tx: Transaction) -> None:
        """What the checks need from the club as it is."""
        if not await tx.fetchone("SELECT 1 FROM clubs WHERE seq = ?", (self.club,)):
            raise NotFound(Msg("there is no club {club}", club=self.club))
        self.system = await settings.current_system(tx, self.club)
        known: dict[int, Player] = await load_players(tx, self.club)
        self.names = NameIndex(known.values())
        self.guests = {pid for pid, player in known.items() if player.guest}
        for seq, name, rounds in await tx.fetchall(
            "SELECT seq, name, rounds FROM tournaments WHERE club = ?", (self.club,)
        ):
            self.tournament_names.add(fold(name))
            self.rounds[seq] = rounds
        marks = ", ".join("?" for _ in _SCHEDULED)
        self.scheduled = {
            (kind, key)
            for kind, key in await tx.fetchall(
                f"SELECT kind, key FROM events WHERE club = ? AND kind IN ({marks})",
                (self.club, *_SCHEDULED),
            )
        }

    def _refuse(self, message: str) -> BatchError:
        return BatchError([(self.number, message)])

    def _player(self, key: int) -> int:
        found = self.result.players.get(key)
        if found is None:
            raise self._refuse(
                Msg("no player with key {key} was loaded before this item", key=key)
            )
        return found

    def _tournament(self, key: int) -> int:
        found = self.result.tournaments.get(key)
        if found is None:
            raise self._refuse(
                Msg("no tournament with key {key} was loaded before this item", key=key)
            )
        if found in self.finalised:
            raise self._refuse(Msg("tournament {key} is already finalised", key=key))
        return found

    def _time(self, text: str | None) -> TimeControl | None:
        if text not in self.times:
            try:
                self.times[text] = time_from_text(text)
            except ValueError as error:
                raise self._refuse(
                    Msg("time control {text!r}: {error}", text=text, error=message_of(error))
                ) from None
        return self.times[text]

    async def insert(
        self, tx: Transaction, items: list[BulkItem], *, events: bool
    ) -> list[tuple[int, Any]]:
        """Append ``items``; with ``events``, return ``(seq, event or finalised tournament)``.

        The events are built only when asked (the incremental path applies them one by one;
        the replay path reads them back from the log).
        """
        await tx.lock(self.club)
        seqs = await tx.next_seqs(len(items))
        used = 0
        at = timestamp(self.db.clock())
        club, actor, chat, result = self.club, self.actor, self.chat, self.result
        log_rows: list[tuple[Any, ...]] = []
        players: list[tuple[Any, ...]] = []
        tournaments: list[tuple[Any, ...]] = []
        entries: list[tuple[Any, ...]] = []
        games: list[tuple[Any, ...]] = []
        event_rows: list[tuple[Any, ...]] = []
        applied: list[tuple[int, Any]] = []
        results, player_of = RESULTS, self._player
        for item in items:
            self.number += 1
            seq = seqs[used]
            used += 1
            if type(item) is BulkGame:
                black, white = player_of(item.black), player_of(item.white)
                tournament = None if item.tournament is None else self._tournament(item.tournament)
                self._check_game(item, black, white, tournament)
                log_rows.append((seq, club, log.GAME, at, actor, chat))
                games.append(
                    (
                        club,
                        0,
                        seq,
                        black,
                        white,
                        item.result,
                        item.date.isoformat(),
                        item.stones,
                        item.komi2,
                        int(item.played),
                        item.board,
                        item.time,
                        tournament,
                        item.round,
                        int(item.arranged),
                        0,
                        0,
                        None,
                        item.margin,
                        club,  # the club again: GAME_INSERT numbers the game within it
                    )
                )
                result.games += 1
                if events and tournament is None:
                    game = Game(
                        seq,
                        black,
                        white,
                        results[item.result],
                        item.date,
                        item.stones,
                        komi_from_half_points(item.komi2),
                        item.played,
                        item.board,
                        self._time(item.time),
                        None,
                        item.round,
                        item.arranged,
                        margin=item.margin,
                    )
                    applied.append((seq, GamePlayed(game)))
            elif isinstance(item, BulkEntry):
                tournament = self._tournament(item.tournament)
                player = player_of(item.player)
                log_rows.append((seq, club, log.ENTRY, at, actor, chat))
                registered = int(player not in self.guests)
                entries.append(
                    (seq, club, tournament, player, str(item.rank), registered, item.country)
                )
                result.entries += 1
            elif isinstance(item, BulkPlayer):
                new = item.player
                name = self._name(new.name)
                log_rows.append((seq, club, log.PLAYER, at, actor, chat))
                players.append(player_row(seq, club, name, new, item.date, self.system))
                self.names.add(Player(seq, club, name, new.rank, item.date))
                result.players[item.key] = seq
                if new.guest:
                    self.guests.add(seq)
                elif events:
                    registered_event = Registered(
                        seq, new.rank, item.date, new.rating, new.country, new.committee,
                        self.system, new.pro,
                    )  # fmt: skip
                    applied.append((seq, registered_event))
            elif isinstance(item, BulkTournament):
                columns = self._tournament_columns(item)
                log_rows.append((seq, club, log.TOURNAMENT, at, actor, chat))
                tournaments.append((seq, club, None, *columns.values(), club))
                result.tournaments[item.key] = seq
                self.rounds[seq] = item.tournament.rounds
            elif isinstance(item, BulkFinalise):
                tournament = self._tournament(item.tournament)
                self.finalised.add(tournament)
                log_rows.append((seq, club, log.FINALISE, at, actor, chat))
                event_rows.append((seq, club, log.FINALISE, tournament, None, "{}"))
                result.events += 1
                if events:
                    applied.append((seq, tournament))
            elif isinstance(item, DayEnded | MonthEnded | PeriodClosed):
                kind, key, payload = _scheduled(item)
                if (kind, key) in self.scheduled:
                    used -= 1
                    result.skipped += 1
                    continue
                self.scheduled.add((kind, key))
                log_rows.append((seq, club, kind, at, actor, chat))
                event_rows.append((seq, club, kind, None, key, payload))
                result.events += 1
                if events:
                    event: Event = item
                    if isinstance(item, PeriodClosed):
                        event = PeriodClosed(dataclasses.replace(item.tournament, id=seq))
                    applied.append((seq, event))
            else:
                raise self._refuse(Msg("cannot bulk-load a {name}", name=type(item).__name__))
        await tx.executemany(_LOG_INSERT, log_rows)
        await tx.executemany(PLAYER_INSERT, players)
        await tx.executemany(_TOURNAMENT_INSERT, tournaments)
        await tx.executemany(_ENTRY_INSERT, entries)
        await tx.executemany(GAME_INSERT, games)
        await tx.executemany(_EVENT_INSERT, event_rows)
        if used:
            result.last_seq = seqs[used - 1]
            tx.appending(club, result.last_seq)
        return applied

    def _name(self, name: str) -> str:
        try:
            cleaned = clean_name(name)
        except StorageError as error:
            raise self._refuse(message_of(error)) from None
        holder = self.names.holder(cleaned)
        if holder is not None:
            raise self._refuse(already_registered(holder, cleaned))
        return cleaned

    def _tournament_columns(self, item: BulkTournament) -> dict[str, Any]:
        tournament = item.tournament
        problems = tournament_problems(tournament)
        if fold(tournament.name) in self.tournament_names:
            problems.append(
                Msg("there is already a tournament called {name!r}", name=tournament.name)
            )
        if problems:
            raise self._refuse(joined(problems))
        self.tournament_names.add(fold(tournament.name))
        return tournament_columns(tournament)

    def _check_game(self, game: BulkGame, black: int, white: int, tournament: int | None) -> None:
        problems: list[str] = []
        if black == white:
            problems.append(Msg("a player cannot play themselves"))
        if not 0 <= game.stones <= 9:
            problems.append(Msg("handicap stones must be 0–9, not {stones}", stones=game.stones))
        if game.result not in RESULTS:
            problems.append(
                Msg("a result is B+, W+, jigo or unknown, not {result!r}", result=game.result)
            )
        if game.board < 2:
            problems.append(
                Msg("the board size must be a number like 19 or 13, not {board}", board=game.board)
            )
        if tournament is None:
            if game.round is not None:
                problems.append(Msg("a round number needs a tournament"))
            if black in self.guests or white in self.guests:
                problems.append(Msg("a tournament guest is not a registered player of the club"))
        elif game.round is not None and not 1 <= game.round <= self.rounds[tournament]:
            problems.append(
                Msg(
                    "round {round} is outside 1–{rounds}",
                    round=game.round,
                    rounds=self.rounds[tournament],
                )
            )
        self._time(game.time)
        if problems:
            raise self._refuse(joined(problems))


def _scheduled(item: DayEnded | MonthEnded | PeriodClosed) -> tuple[str, str, str]:
    """The event kind, idempotency key and payload text the scheduler would write."""
    if isinstance(item, DayEnded):
        day = item.date.isoformat()
        return log.DAY, day, dumps({"date": day})
    if isinstance(item, MonthEnded):
        key = f"{item.year:04d}-{item.month:02d}"
        return log.MONTH, key, dumps({"year": item.year, "month": item.month})
    period = item.tournament
    key = f"{period.start.isoformat()}/{period.end.isoformat()}"
    return log.PERIOD, key, dumps({"tournament": tournament_columns(period)})


async def _apply(write: ClubWrite, tx: Transaction, applied: list[tuple[int, Any]]) -> None:
    """The incremental path: each event folded into the ledgers as it was appended."""
    folded = await overlays.load(tx, write.club)
    for seq, event in applied:
        if seq <= write.ledgers.last_seq:
            continue  # an earlier event of the batch was dated before what was folded: the
            # rebuild from its day folded the whole log, this batch's later entries too
        if isinstance(event, int):  # a finalisation: the tournament as stored now
            event = await tournament_rated(tx, event, folded)
        await write.apply(seq, event, strict=False)


async def bulk_load(
    db: Database,
    club: ClubRef,
    items: Iterable[BulkItem],
    *,
    actor: str = "import",
    chat: str | None = None,
    batch: int = BATCH,
    incremental: bool = False,
    replay: bool = True,
    progress: Callable[[str, int], None] | None = None,
) -> BulkResult:
    """Append a long history to a club, then build its projections with one replay.

    Args:
        items: in log order; consumed lazily, ``batch`` at a time (a generator is fine).
        actor: who the log names as the writer (e.g. ``import`` or ``console``).
        batch: items per transaction.
        incremental: fold every event into the ledgers as it is appended (the normal write
            path, :meth:`ClubWrite.apply`) instead of one replay at the end. Slower; the two
            give identical projections.
        replay: ``False`` leaves the replay to the caller (:func:`replay_club`, e.g. to time
            it); until then the club's projections are stale and rebuilt on first use.
        progress: called as ``progress(stage, done)`` — ``("load", items)`` after each batch,
            ``("replay", events)`` during the replay.

    Raises:
        NotFound: no such club.
        BatchError: naming the first bad item by its 1-based number; the batches before it
            stay loaded, its own batch is not.
    """
    cid = club_id(club)
    loader = _Loader(db, cid, actor, chat)
    db.projections.ledgers.pop(cid, None)
    iterator = iter(items)
    started = False
    while chunk := list(islice(iterator, batch)):
        async with db.transaction() as tx:
            if not started:
                await loader.start(tx)
                started = True
            if incremental:
                async with club_write(db, cid, tx) as write:
                    applied = await loader.insert(tx, chunk, events=True)
                    await _apply(write, tx, applied)
            else:
                await loader.insert(tx, chunk, events=False)
                # appended anywhere in the calendar without a fold: no snapshot, and no other
                # process's ledgers, folded before it may be resumed past it
                await record_rewrite(tx, cid, await last_club_seq(tx, cid), (0, 0))
        if progress is not None:
            progress("load", loader.number)
    result = loader.result
    if incremental:
        async with db.transaction() as tx:
            ledgers = await ledgers_for(db, tx, cid)
    elif not replay:
        return result
    else:
        report = None if progress is None else (lambda done, _total: progress("replay", done))
        ledgers = await replay_club(db, cid, report, every_system=False)  # the rest: when asked
    result.rejected = {key: len(found) for key, found in ledgers.rejected.items()}
    return result


@dataclass(frozen=True, slots=True)
class BulkClub:
    """A new club for :func:`bulk_load_clubs`: its name and rating system, the chats bound to
    it (``(platform, chat_id)``), and its history (items in log order, as
    :func:`bulk_load` takes them; consumed lazily)."""

    name: str
    system: str
    items: Iterable[BulkItem]
    chats: tuple[tuple[str, str], ...] = ()


async def bulk_load_clubs(
    db: Database,
    clubs: Iterable[BulkClub],
    *,
    actor: str = "import",
    per_transaction: int = CLUBS_PER_TRANSACTION,
    progress: Callable[[int], None] | None = None,
) -> list[tuple[Club, BulkResult]]:
    """Create many clubs, each with its chats and its history, ``per_transaction`` clubs in
    one transaction (a hosted hoshi's clubs moved in at once).

    Each club is what :func:`storage.create_club`, :func:`storage.bind_chat` for each chat and
    then :func:`bulk_load` make of it — the same log entries, rows and projection of its
    current system (tests/benchmarks/test_clubs.py compares them) — without their five
    transactions a club. Its ledgers are not kept in memory (a club loaded is not a club in
    use). The scheduler's question is answered as it would be on the club's first sweep:
    the ledger of every system with scheduled moments (storage.schedules.with_moments),
    folded once in memory, is asked what it has due
    (``RatingSystem.due``) from the club's today on, and a club with nothing due has that
    recorded (storage.schedules: ``quiet_clubs``), so a process's first sweep skips it
    instead of folding every rulebook of every club.

    Args:
        progress: called with the number of clubs loaded so far after each club.

    Returns:
        Each club and what its load wrote (:class:`BulkResult`; ``rejected``: the club's
        current system's), in order.

    Raises:
        Refused: a club's name is taken, its system unknown, or a chat another club's.
        BatchError: a club's bad item (see :func:`bulk_load`). The transactions before
            the failing one stay: load into a fresh database.
    """
    loaded: list[tuple[Club, BulkResult]] = []
    moments = schedules.with_moments(db)
    version = schedules.quiet_version(db)
    iterator = iter(clubs)
    while group := list(islice(iterator, max(1, per_transaction))):
        quiet: list[tuple[int, int, str, str]] = []
        async with db.transaction() as tx:
            for each in group:
                club, result, quiet_at = await _load_club(db, tx, each, actor, moments)
                loaded.append((club, result))
                if quiet_at is not None:
                    quiet.append((club.id, quiet_at[0], quiet_at[1].isoformat(), version))
                if progress is not None:
                    progress(len(loaded))
            await tx.executemany(schedules.QUIET_UPSERT, quiet)
    return loaded


async def _load_club(
    db: Database, tx: Transaction, new: BulkClub, actor: str, moments: frozenset[str]
) -> tuple[Club, BulkResult, tuple[int, dt.date] | None]:
    """One club of :func:`bulk_load_clubs` in the caller's transaction: the club, what was
    written, and its last log position with the last day through which nothing of it is due
    at it (``None``: something is due today)."""
    club = await new_club(db, tx, new.name, new.system, actor=actor, chats=new.chats)
    cid = club.id
    loader = _Loader(db, cid, actor, None)
    await loader.start(tx)
    items = iter(new.items)
    while chunk := list(islice(items, BATCH)):
        await loader.insert(tx, chunk, events=False)
    last = await last_club_seq(tx, cid)
    await record_rewrite(tx, cid, last, (0, 0))  # as bulk_load: appended without a fold
    ledgers = await rebuild(db, tx, cid)
    result = loader.result
    result.rejected = {key: len(found) for key, found in ledgers.rejected.items()}
    db.projections.ledgers.pop(cid, None)
    # the scheduler's question: every system that may have something due, folded once
    others = await fold_systems(db, tx, cid, systems=moments - {ledgers.current})
    zone = (await settings.club_settings(tx, cid)).zone
    today = db.clock().astimezone(zone).date()
    ledger_list = [each.system for each in others.projections.values()]
    if ledgers.current in moments:
        ledger_list.append(ledgers.system)
    through = schedules.quiet_through(ledger_list, today)
    return club, result, None if through is None else (ledgers.last_seq, through)
