"""Projections: every rating is a fold of the club log through the engine.

Each club keeps one in-memory ledger per rating system (all of them, so that switching the
club's system is instant), built on first use by replaying the log. Two tables hold what the
ledgers say — ``player_state`` (each player's card) and ``rating_history`` (every change) —
and are the only mutable tables.

The fold runs in calendar order (rules.md, top; :mod:`engine.calendar`, :mod:`storage.history`),
never in the order of entry:

* An entry whose date comes after everything folded so far is applied to each ledger and
  only the changed players' rows are written (:meth:`ClubWrite.apply`).
* An entry dated earlier (a backdated result, a late tournament), and anything that rewrites
  the past (void, correct, undo, reopen, a rating setting), rebuilds the club's projections in
  the same transaction, rewriting the rating history only from the first day it touches
  (:meth:`ClubWrite.rebuild`, :func:`replay_club`).

Ledgers folded up to some log position — a snapshot (storage.snapshots), or this process's
own ledgers after another process appended — are brought up to the log end by folding only the
tail of the calendar after the last place they folded (:func:`resumed`), unless a rewrite of
the past made since (the ``rewrites`` table, written by every :func:`rebuild`) reached that
place: then the log is replayed.

Both paths give byte-identical tables. The club's *current* system is strict: an event it
rejects (``EngineError``) aborts the transaction, and the ledgers are left as they were. The
other systems are tolerant: an event one of them rejects is skipped there and listed in
``ClubLedgers.rejected`` — replaying does the same, so the two paths still agree.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import AsyncIterator, Callable, Collection, Iterable, Iterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from engine.calendar import Key, event_key, first_day, start_of
from engine.errors import EngineError
from engine.system import Applied, Card, Change, RatingSystem
from engine.text import Msg
from engine.types import Event, GamePlayed, Registered, TournamentRated
from storage import log, overlay, settings
from storage.cache import SystemFactory
from storage.codec import card_json, change_row, value_text
from storage.common import ClubRef, club_id
from storage.db import Database, Transaction
from storage.errors import NotFound, StorageError
from storage.history import club_events, count_events
from storage.memo import forget_club

Progress = Callable[[int, int], None]
"""``progress(done, total)``: events replayed so far out of the total."""

HISTORY_INSERT = (
    "INSERT INTO rating_history (club, system, seq, idx, moment, player, date, source, "
    "rating_before, rating_after, rank_before, rank_after, note) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
STATE_UPSERT = (
    "INSERT INTO player_state (club, system, player, card, sort_key, rank, games) "
    "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (club, system, player) DO UPDATE SET "
    "card = excluded.card, sort_key = excluded.sort_key, rank = excluded.rank, "
    "games = excluded.games"
)
FLUSH_ROWS = 20000


@dataclass(slots=True)
class ClubLedgers:
    """One club's ledgers, one per rating system, and what the projections hold of them.

    ``cards`` mirrors ``player_state``: system → player → card JSON. ``last_seq`` is the
    club's last log entry folded in; ``last_key`` the latest place in the calendar folded so
    far (engine.calendar): a fact after it is folded at the end, one before it rewrites the
    history from its day. ``rejected`` lists, per system, the facts that system refused while
    the club used another one: ``(position, message)``.
    """

    club: int
    current: str
    systems: dict[str, RatingSystem]
    fingerprint: str
    last_seq: int = 0
    last_key: Key = (0, 0)
    cards: dict[str, dict[int, str]] = field(default_factory=dict)
    rejected: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    captured: list[Change] = field(default_factory=list)
    registered: set[int] = field(default_factory=set)
    """The players whose registration is folded in (at its date, or just before their first
    fact): a fold of the tail after ``last_key`` must not fold it again."""

    def order(self) -> list[str]:
        """System keys with the current one first (it validates before anything changes)."""
        first = [self.current] if self.current in self.systems else []
        return [*first, *sorted(k for k in self.systems if k != self.current)]


def seen_by(key: str, event: Event) -> Event:
    """The event as the system ``key`` reads it (a registration's rating is in the units of
    the system it was made under: ``engine.types.Registered.for_system``)."""
    return event.for_system(key) if isinstance(event, Registered) else event


def fact_position(event: Event, seq: int) -> int:
    """The log position that identifies a fact in the calendar's tie-break (engine.calendar):
    a game's, a tournament's creation (so a reopened tournament finalised again keeps its
    place), a registration's; any other event's own ``seq``."""
    if isinstance(event, GamePlayed):
        return event.game.id
    if isinstance(event, TournamentRated):
        return event.tournament.id
    if isinstance(event, Registered):
        return event.player
    return seq


def fingerprint(factories: Mapping[str, SystemFactory]) -> str:
    """Which systems (and, when their factories say, which versions) built a projection."""
    return ",".join(f"{key}:{getattr(factories[key], 'version', '')}" for key in sorted(factories))


async def last_club_seq(tx: Transaction, club: int) -> int:
    """The club's last log entry (0: no such club)."""
    row = await tx.fetchone("SELECT MAX(seq) FROM log WHERE club = ?", (club,))
    return 0 if row is None or row[0] is None else int(row[0])


def _new_systems(
    db: Database, current: str, only: Collection[str] | None = None
) -> dict[str, RatingSystem]:
    factories = db.projections.systems
    if current not in factories:
        raise StorageError(
            Msg(
                "the club's rating system {current!r} is not one this hoshi knows ({factories})",
                current=current,
                factories=", ".join(sorted(factories)),
            )
        )
    return {key: factory() for key, factory in factories.items() if only is None or key in only}


async def fold(
    db: Database,
    tx: Transaction,
    club: int,
    *,
    strict: Collection[int] = (),
    write_history: bool = False,
    progress: Progress | None = None,
    systems: Collection[str] | None = None,
    history_since: Key = (0, 0),
    capture: int | None = None,
) -> ClubLedgers:
    """Replay the club's whole log, in calendar order, into fresh ledgers.

    Args:
        strict: positions at which the current system's rejection is raised, not skipped
            (the corrected entry of a rewrite).
        write_history: insert every change into ``rating_history`` (emptied by the caller).
        history_since: with ``write_history``, only the changes of facts at this place in the
            calendar or later (the ones before it are in the table already).
        capture: the position of a fact whose changes under the current system are kept in
            ``ClubLedgers.captured`` (a fact entered for an earlier date: what it changed).
        progress: called as ``progress(done, total)`` after each chunk of events.
        systems: replay only these systems (default: all of the database's) — ledgers for
            measuring or checking one system; never cached.
    """
    folded = await overlay.load(tx, club)
    current = await settings.current_system(tx, club)
    with collector_paused():
        return await _fold(
            db,
            tx,
            club,
            folded,
            current,
            _new_systems(db, current, systems),
            strict=strict,
            write_history=write_history,
            progress=progress,
            history_since=history_since,
            capture=capture,
        )


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused for a replay.

    A replay makes millions of small objects and keeps most of them (the ledgers); the
    collector would walk them again and again as they accumulate — at a million games that
    was a third of the replay. A replay makes no reference cycles, and whatever else the
    process made meanwhile is collected once the collector runs again.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


async def _fold(
    db: Database,
    tx: Transaction,
    club: int,
    folded: overlay.Overlay,
    current: str,
    fresh: dict[str, RatingSystem],
    *,
    strict: Collection[int],
    write_history: bool,
    progress: Progress | None,
    history_since: Key,
    capture: int | None,
) -> ClubLedgers:
    ledgers = ClubLedgers(club, current, fresh, fingerprint(db.projections.systems))
    ledgers.rejected = {key: [] for key in fresh}
    order = [(key, fresh[key], ledgers.rejected[key]) for key in ledgers.order()]
    total = await count_events(tx, club, folded) if progress is not None else 0
    done = 0
    rows: list[tuple[Any, ...]] = []
    last = ledgers.last_key
    registered = ledgers.registered
    async for batch in club_events(tx, club, folded):
        for at, event in batch:
            position = at[1]
            if type(event) is Registered:
                registered.add(event.player)
            for key, system, rejected in order:
                if type(event) not in system.handles:
                    continue  # a no-op for this system
                try:
                    changes = system.apply(seen_by(key, event)).changes
                except EngineError as error:
                    if key == current and position in strict:
                        raise
                    rejected.append((position, str(error)))
                    continue
                if write_history and changes and at >= history_since:
                    rows.extend(
                        change_row(club, key, at, idx, change)
                        for idx, change in enumerate(changes)
                    )
                if position == capture and key == current:
                    ledgers.captured = changes
            last = max(last, at)
        if len(rows) >= FLUSH_ROWS:
            await tx.executemany(HISTORY_INSERT, rows)
            rows = []
        if progress is not None:
            done += len(batch)
            progress(done, total)
    if rows:
        await tx.executemany(HISTORY_INSERT, rows)
    if progress is not None and done == 0:
        progress(0, total)
    ledgers.last_seq = await last_club_seq(tx, club)
    ledgers.last_key = last
    return ledgers


def all_cards(ledgers: ClubLedgers) -> dict[str, dict[int, Card]]:
    """Every player's card under every system."""
    return {
        key: {player: system.card(player) for player in system.players()}
        for key, system in ledgers.systems.items()
    }


def _state_row(club: int, key: str, card: Card, text: str) -> tuple[Any, ...]:
    """A ``player_state`` row (``text`` is the card's JSON)."""
    return (club, key, card.player, text, value_text(card.sort_key), str(card.rank), card.games)


async def _save_projection_state(tx: Transaction, ledgers: ClubLedgers) -> None:
    await tx.execute(
        "INSERT INTO projection_state (club, last_seq, fingerprint) VALUES (?, ?, ?) "
        "ON CONFLICT (club) DO UPDATE SET last_seq = excluded.last_seq, "
        "fingerprint = excluded.fingerprint",
        (ledgers.club, ledgers.last_seq, ledgers.fingerprint),
    )


async def rebuild(
    db: Database,
    tx: Transaction,
    club: int,
    *,
    strict: Collection[int] = (),
    progress: Progress | None = None,
    since: Key = (0, 0),
    capture: int | None = None,
) -> ClubLedgers:
    """Rebuild the club's projections from the log (in the caller's transaction).

    The whole log is replayed in calendar order; ``since`` is the earliest place in the
    calendar the rewrite touched (engine.calendar.start_of its earliest day): the rating
    history before it depends only on the facts before it, which did not change, so only the
    rows from there on are written again (an undo of last week's game rewrites last week, not
    the club's thirty years). ``capture``: see :func:`fold`. The new ledgers replace the
    cached ones; if the transaction rolls back they are dropped and rebuilt on next use.
    """
    forget_club(tx, club)  # the projections may change at the same log position
    whole = since <= (0, 0)
    index = await _history_index(tx, club) if whole else None
    if index is not None:  # a big club: the index is rebuilt in one sort at the end
        await tx.execute("DROP INDEX rating_history_player")
    if whole:
        await tx.execute("DELETE FROM rating_history WHERE club = ?", (club,))
    else:
        moment, position = since
        for key in db.projections.systems:  # by the rating_history_moment index
            await tx.execute(
                "DELETE FROM rating_history WHERE club = ? AND system = ? "
                "AND moment >= ? AND (moment > ? OR seq >= ?)",
                (club, key, moment, moment, position),
            )
    await tx.execute("DELETE FROM player_state WHERE club = ?", (club,))
    ledgers = await fold(
        db,
        tx,
        club,
        strict=strict,
        write_history=True,
        progress=progress,
        history_since=since,
        capture=capture,
    )
    if index is not None:
        await tx.execute(index)
    await record_rewrite(tx, club, ledgers.last_seq, since)
    rows = []
    for key, cards in all_cards(ledgers).items():
        texts = ledgers.cards[key] = {}
        for player, card in cards.items():
            text = texts[player] = card_json(card)
            rows.append(_state_row(club, key, card, text))
    await tx.executemany(STATE_UPSERT, rows)
    await _save_projection_state(tx, ledgers)
    _cache(db, tx, ledgers)
    return ledgers


async def record_rewrite(tx: Transaction, club: int, seq: int, since: Key) -> None:
    """Note that the write whose last log entry is ``seq`` rewrote the club's calendar from
    ``since`` on (the ``rewrites`` table): ledgers folded up to an earlier entry and a place
    at or after ``since`` — a snapshot, another process's — can no longer be resumed."""
    moment, position = max(since, (0, 0))
    await tx.execute(
        "INSERT INTO rewrites (club, seq, moment, position) VALUES (?, ?, ?, ?) "
        "ON CONFLICT DO NOTHING",
        (club, seq, moment, position),
    )


async def rewritten(tx: Transaction, club: int, seq: int, key: Key) -> bool:
    """Whether a rewrite after log entry ``seq`` reached calendar key ``key`` or earlier."""
    moment, position = key
    row = await tx.fetchone(
        "SELECT 1 FROM rewrites WHERE club = ? AND seq > ? "
        "AND (moment < ? OR (moment = ? AND position <= ?)) LIMIT 1",
        (club, seq, moment, moment, position),
    )
    return row is not None


BIG_CLUB_GAMES = 50_000
"""From this many games on, a full rebuild drops the rating history's player index and builds
it again at the end: inserting millions of rows into an index ordered by player (every insert
at a random place) was most of a federation's rebuild; one sort is several times faster."""


async def _history_index(tx: Transaction, club: int) -> str | None:
    """The SQL of ``rating_history_player`` when the club is big enough to rebuild it."""
    row = await tx.fetchone(
        "SELECT COUNT(*) FROM (SELECT 1 FROM games WHERE club = ? LIMIT ?) AS head",
        (club, BIG_CLUB_GAMES),
    )
    if row is None or row[0] < BIG_CLUB_GAMES:
        return None
    return await tx.index_sql("rating_history_player")


def _cache(db: Database, tx: Transaction, ledgers: ClubLedgers) -> None:
    db.projections.ledgers[ledgers.club] = ledgers
    tx.on_rollback(lambda: _drop(db, ledgers))


def _drop(db: Database, ledgers: ClubLedgers) -> None:
    if db.projections.ledgers.get(ledgers.club) is ledgers:
        del db.projections.ledgers[ledgers.club]


async def ledgers_for(db: Database, tx: Transaction, club: int) -> ClubLedgers:
    """The club's ledgers: cached, brought up to the log end, or built on first use.

    * Cached and current: as they are.
    * Cached but behind the log (another process wrote): the new entries' tail is folded in
      (:func:`resumed`) — unless a rewrite of the past reached what they had folded, then
      as if not cached.
    * Not cached (a process start): the newest valid snapshot (storage.snapshots) and the
      tail after it, else a replay of the whole log; either is checked against the stored
      projections (same last entry, same systems, same cards) and the projections are
      rebuilt when they differ — after an upgrade of the engine, say (:func:`adopt`).
    """
    from storage import snapshots  # imports this module: bound at first use

    await tx.lock(club)
    last = await last_club_seq(tx, club)
    if last == 0:
        raise NotFound(Msg("there is no club {club}", club=club))
    snapshots.watch(db)
    cached = db.projections.ledgers.get(club)
    if cached is not None:
        if cached.last_seq == last:
            return cached
        if cached.fingerprint == fingerprint(db.projections.systems):
            tx.on_rollback(lambda: _drop(db, cached))
            try:
                caught_up = await resumed(db, tx, cached)
            except BaseException:
                _drop(db, cached)
                raise
            if caught_up is not None:
                return caught_up
        _drop(db, cached)  # a rewrite reached them: an older snapshot may still serve
    base = await snapshots.newest_valid(tx, club, db.projections.systems)
    if base is not None:
        caught_up = await resumed(db, tx, base)
        if caught_up is not None:
            return await adopt(db, tx, caught_up, carded=True)
    db.projections.full_folds += 1
    return await adopt(db, tx, await fold(db, tx, club))


TRACKED_EVENTS = 256
"""A tail up to this long refreshes only the cards its events changed; a longer one every card
(:func:`resumed`)."""


async def resumed(db: Database, tx: Transaction, base: ClubLedgers) -> ClubLedgers | None:
    """``base`` (changed in place) brought up to the end of the club's log: every event of the
    calendar after ``base.last_key`` folded in, in calendar order, as a whole replay would
    (storage.history.club_events with ``after``). ``None``, and ``base`` untouched, when a
    rewrite made after ``base.last_seq`` reached ``base.last_key`` or earlier (a backdated
    result, a void, a correction …): only a replay gives the right ledgers then.

    Also refreshed: the club's current system (it may have switched), ``rejected``,
    ``last_seq``, ``last_key`` and the cards of every player the tail touched (every player
    after a club-wide event, or a tail of more than :data:`TRACKED_EVENTS` events: asking
    each event which cards it changed costs more than working out every card once). Nothing
    is written: whoever appended the tail wrote the projections.
    """
    club = base.club
    if await rewritten(tx, club, base.last_seq, base.last_key):
        return None
    folded = await overlay.load(tx, club)
    current = await settings.current_system(tx, club)
    if set(base.systems) != set(db.projections.systems) or current not in base.systems:
        return None
    base.current = current
    base.captured = []
    order = [(key, base.systems[key], base.rejected.setdefault(key, [])) for key in base.order()]
    touched: dict[str, set[int] | None] = {key: set() for key in base.systems}
    count = 0
    last = base.last_key
    registered = base.registered
    with collector_paused():
        async for batch in club_events(
            tx, club, folded, after=last, since=base.last_seq, registered=registered
        ):
            for at, event in batch:
                if type(event) is Registered:
                    registered.add(event.player)
                for key, system, rejected in order:
                    if type(event) not in system.handles:
                        continue  # a no-op for this system
                    try:
                        applied = system.apply(seen_by(key, event))
                    except EngineError as error:
                        rejected.append((at[1], str(error)))
                        continue
                    players = touched[key]
                    if players is None:
                        continue
                    if applied.touched is None:  # every card may have changed
                        touched[key] = None
                        continue
                    players.update(applied.touched)
                last = max(last, at)
                count += 1
                if count == TRACKED_EVENTS:  # a long tail: every card, once, at the end
                    touched = dict.fromkeys(touched)
    base.last_key = last
    base.last_seq = await last_club_seq(tx, club)
    for key, system in base.systems.items():
        kept = base.cards.setdefault(key, {})
        players = touched[key]
        for player in sorted(system.players() if players is None else players):
            with contextlib.suppress(KeyError):  # card(): KeyError for an unknown player
                kept[player] = card_json(system.card(player))
    return base


async def adopt(
    db: Database, tx: Transaction, ledgers: ClubLedgers, *, carded: bool = False
) -> ClubLedgers:
    """Cache freshly replayed ledgers if the stored projections say the same (same last
    entry, same systems, same cards); otherwise rebuild the projections.

    ``carded``: ``ledgers.cards`` holds every card already (a snapshot's, brought up to date
    by :func:`resumed`); else they are worked out from the ledgers.
    """
    club = ledgers.club
    stored = await tx.fetchone(
        "SELECT last_seq, fingerprint FROM projection_state WHERE club = ?", (club,)
    )
    if stored == (ledgers.last_seq, ledgers.fingerprint):
        if not carded:
            ledgers.cards = {
                key: {player: card_json(card) for player, card in cards.items()}
                for key, cards in all_cards(ledgers).items()
            }
        saved: dict[str, dict[int, str]] = {key: {} for key in ledgers.systems}
        for key, player, text in await tx.fetchall(
            "SELECT system, player, card FROM player_state WHERE club = ?", (club,)
        ):
            saved.setdefault(key, {})[player] = text
        if saved == ledgers.cards:
            db.projections.ledgers[club] = ledgers
            return ledgers
    db.projections.full_folds += 1
    return await rebuild(db, tx, club)


class ClubWrite:
    """One club's side of a write transaction: append log entries, keep projections current.

    Obtain it with :func:`club_write`. Appended entries go to the end of history, so
    :meth:`apply` folds their engine event into every ledger incrementally; a rewrite of the
    past calls :meth:`rebuild` instead.
    """

    def __init__(self, db: Database, tx: Transaction, ledgers: ClubLedgers):
        self.db = db
        self.tx = tx
        self.ledgers = ledgers
        self._dirty_marked = False

    @property
    def club(self) -> int:
        """The club's id."""
        return self.ledgers.club

    def _dirty(self) -> None:
        """The cached ledgers are about to change: drop them if the transaction rolls back."""
        if not self._dirty_marked:
            self._dirty_marked = True
            ledgers = self.ledgers
            self.tx.on_rollback(lambda: _drop(self.db, ledgers))

    async def append(self, kind: str, *, actor: str, chat: str | None) -> int:
        """A new log entry of this club; returns its seq (insert the typed row after it)."""
        return await log.append(
            self.tx, self.db.clock, club=self.club, kind=kind, actor=actor, chat=chat
        )

    async def event(
        self,
        kind: str,
        *,
        actor: str,
        chat: str | None,
        target: int | None = None,
        key: str | None = None,
        payload: dict[str, Any] | None = None,
    ) -> int:
        """A new event of this club; returns its seq."""
        return await log.append_event(
            self.tx,
            self.db.clock,
            club=self.club,
            kind=kind,
            actor=actor,
            chat=chat,
            target=target,
            key=key,
            payload=payload,
        )

    async def apply(self, seq: int, event: Event, *, strict: bool = True) -> list[Change]:
        """Fold an event appended at ``seq`` into every ledger and write what changed.

        The event takes its place in the calendar (engine.calendar), with the fact's own log
        position (:func:`fact_position`) as the tie-break. After everything
        folded so far, it is folded at the end; dated earlier (a backdated result, a late
        tournament), the club's history is rebuilt from its day and every rating after it is
        recomputed.

        Returns:
            The event's own changes under the club's current system.

        Raises:
            EngineError: the current system refused the event (``strict``); nothing changed.
        """
        ledgers = self.ledgers
        if seq <= ledgers.last_seq:
            raise RuntimeError(f"entry {seq} is not at the end of club {self.club}'s history")
        at = event_key(event, fact_position(event, seq))
        if at <= ledgers.last_key:
            self._dirty()
            self.ledgers = await rebuild(
                self.db,
                self.tx,
                self.club,
                strict={at[1]} if strict else (),
                since=start_of(first_day(event)),
                capture=at[1],
            )
            return self.ledgers.captured
        per_system: dict[str, Applied] = {}
        for key in ledgers.order():
            if type(event) not in ledgers.systems[key].handles:
                continue  # a no-op for this system
            try:
                applied = ledgers.systems[key].apply(seen_by(key, event))
            except EngineError as error:
                if strict and key == ledgers.current:
                    raise
                self._dirty()
                ledgers.rejected.setdefault(key, []).append((at[1], str(error)))
                continue
            self._dirty()
            per_system[key] = applied
        self._dirty()  # last_key moves on even when no system handles the event
        ledgers.last_key = at
        if type(event) is Registered:
            ledgers.registered.add(event.player)
        rows = [
            change_row(self.club, key, at, idx, change)
            for key in sorted(per_system)
            for idx, change in enumerate(per_system[key].changes)
        ]
        if rows:
            await self.tx.executemany(HISTORY_INSERT, rows)
        for key in ledgers.systems:
            if key in per_system:  # the players whose cards the system says it touched
                await self._refresh_cards(key, per_system[key].touched)
        current = per_system.get(ledgers.current)
        return [] if current is None else current.changes

    async def _refresh_cards(self, key: str, players: Iterable[int] | None) -> None:
        system = self.ledgers.systems[key]
        saved = self.ledgers.cards.setdefault(key, {})
        rows = []
        if players is None:  # a club-wide event: every card may have changed
            cards = [(player, system.card(player)) for player in sorted(system.players())]
        else:  # the players the event named or changed (the ledger may not know all of them)
            cards = []
            for player in sorted(set(players)):
                with contextlib.suppress(KeyError):  # card(): KeyError for an unknown player
                    cards.append((player, system.card(player)))
        for player, card in cards:
            text = card_json(card)
            if saved.get(player) != text:
                self._dirty()
                saved[player] = text
                rows.append(_state_row(self.club, key, card, text))
        if rows:
            await self.tx.executemany(STATE_UPSERT, rows)

    async def rebuild(self, *, strict: Collection[int] = (), since: Key = (0, 0)) -> None:
        """Rebuild the club's projections after a rewrite of the past (this transaction).

        ``since``: the earliest place in the calendar the rewrite changed, e.g.
        ``engine.calendar.start_of(day)`` (``(0, 0)``: it may have changed anything, e.g. a
        rating setting).
        """
        self._dirty()
        self.ledgers = await rebuild(self.db, self.tx, self.club, strict=strict, since=since)

    def set_current(self, key: str) -> None:
        """The club switched its rating system (every ledger is kept, so nothing replays)."""
        if key not in self.ledgers.systems:
            raise StorageError(Msg("unknown rating system {key!r}", key=key))
        self._dirty()
        self.ledgers.current = key

    async def finish(self) -> None:
        """Record that the projections include every entry appended so far."""
        last = await last_club_seq(self.tx, self.club)
        if last != self.ledgers.last_seq:
            self._dirty()
            self.ledgers.last_seq = last
        await _save_projection_state(self.tx, self.ledgers)


@asynccontextmanager
async def club_write(
    db: Database, club: int, tx: Transaction | None = None
) -> AsyncIterator[ClubWrite]:
    """``async with club_write(db, club_id) as w:`` — a write transaction on one club.

    Pass ``tx`` to join a transaction already open (e.g. one that first had to find the club).
    """
    if tx is None:
        async with db.transaction() as own, club_write(db, club, own) as write:
            yield write
        return
    write = ClubWrite(db, tx, await ledgers_for(db, tx, club))
    yield write
    await write.finish()


async def replay_club(
    db: Database, club: ClubRef, progress: Progress | None = None
) -> ClubLedgers:
    """Rebuild a club's projections from its whole log, in one transaction.

    Args:
        progress: ``progress(done, total)`` after each chunk of events.
    """
    async with db.transaction() as tx:
        if await last_club_seq(tx, club_id(club)) == 0:
            raise NotFound(Msg("there is no club {club}", club=club_id(club)))
        return await rebuild(db, tx, club_id(club), progress=progress)


async def fresh_system(db: Database, club: int) -> str:
    """:func:`ensure_fresh`, and the club's current system, in one round trip (every read of
    the projections starts here)."""
    row = await db.fetchone(
        "SELECT (SELECT MAX(seq) FROM log WHERE club = ?), last_seq, fingerprint, "
        f"{settings.CURRENT_SYSTEM} FROM (SELECT NULL) AS one "
        "LEFT JOIN projection_state ON projection_state.club = ?",
        (club, club, club, club),
    )
    if row is None or row[0] is None:
        raise NotFound(Msg("there is no club {club}", club=club))
    if (row[1], row[2]) != (row[0], fingerprint(db.projections.systems)):
        async with db.transaction() as tx:
            await ledgers_for(db, tx, club)
    return settings.system_from(row[3], row[4], club)


async def ensure_fresh(db: Database, club: int) -> None:
    """Make sure the club's projections include its whole log before reading them.

    Every write keeps them current; this catches a club whose projections were never built
    (a database from elsewhere) or were built by other systems.
    """
    row = await db.fetchone(
        "SELECT (SELECT MAX(seq) FROM log WHERE club = ?), "
        "(SELECT last_seq FROM projection_state WHERE club = ?), "
        "(SELECT fingerprint FROM projection_state WHERE club = ?)",
        (club, club, club),
    )
    if row is None or row[0] is None:
        raise NotFound(Msg("there is no club {club}", club=club))
    if (row[1], row[2]) != (row[0], fingerprint(db.projections.systems)):
        async with db.transaction() as tx:
            await ledgers_for(db, tx, club)


async def ledger(db: Database, club: ClubRef, system: str | None = None) -> RatingSystem:
    """The in-memory ledger of one system (default: the club's current one).

    Use it synchronously (handicap and promotion queries); do not hold it across an ``await``
    — a later write may replace it.
    """
    async with db.transaction() as tx:
        ledgers = await ledgers_for(db, tx, club_id(club))
    key = ledgers.current if system is None else system
    if key not in ledgers.systems:
        raise StorageError(
            Msg(
                "unknown rating system {key!r} ({systems})",
                key=key,
                systems=", ".join(sorted(ledgers.systems)),
            )
        )
    return ledgers.systems[key]


async def ledger_if_cheap(
    db: Database, club: ClubRef, limit: int = 50_000, system: str | None = None
) -> RatingSystem | None:
    """:func:`ledger` when it costs little: kept current in this process already, or a club
    of at most ``limit`` games to replay; else ``None`` (a federation's replay takes most of a
    minute, issue 5/6). The web pages ask this for promotion progress and handicaps, which
    only a ledger answers, and build everything else from the stored projections."""
    cid = club_id(club)
    cached = db.projections.ledgers.get(cid)
    if cached is not None:
        row = await db.fetchone("SELECT MAX(seq) FROM log WHERE club = ?", (cid,))
        if row is not None and row[0] == cached.last_seq:
            return await ledger(db, cid, system)
    row = await db.fetchone("SELECT COUNT(*) FROM games WHERE club = ?", (cid,))
    if row is None or row[0] > limit:
        return None
    return await ledger(db, cid, system)
