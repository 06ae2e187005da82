"""Projections: every rating is a fold of the club log through the engine.

Each rating system of a club is its own projection (:class:`Projection`): its in-memory
ledger, the place in the log and the calendar it has folded to, the facts it refused, and
what the tables hold of it — each player's card (``player_state``), every rating change
(``rating_history``) and how far those rows were written (``system_state``). Only these
tables (and ``projection_state``: the current system's position) are mutable.

**The club's current system is kept current by every write**, strictly: an event it
rejects (``EngineError``) aborts the transaction, and the ledgers are left as they were.

**Every other system is a shadow**: a write does not fold it. It is brought up to the end of
the log when something asks for it (:func:`caught_up`: ``/rating NAME all``, a switch of the
club's system, a page or an export naming that system, the scheduler asking its moments): from
where it stands — its ledger in this process's memory, else its newest valid snapshot
(storage.snapshots), else nothing — it folds the tail of the calendar after that place,
tolerantly (an event it rejects is skipped and listed in ``Projection.rejected``, as it was
when the club used another system at the time), and writes the rating history rows and the
cards that the tail changed. A rewrite of the past that reached a shadow's place (the
``rewrites`` table) makes it fold the whole log again, writing its rows from the rewrite's
place on. Either way its tables become those a fold of every system on every write would have
written (tests/storage/test_projections.py compares the two byte for byte).

The fold runs in calendar order (rules.md, top; :mod:`engine.calendar`, :mod:`storage.history`),
never in the order of entry:

* An entry whose date comes after everything folded so far is applied to the current ledger
  and only the changed players' rows are written (:meth:`ClubWrite.apply`).
* An entry dated earlier (a backdated result, a late tournament), and anything that rewrites
  the past (void, correct, undo, reopen, a rating setting), rebuilds the current projection in
  the same transaction, rewriting the rating history only from the first day it touches
  (:meth:`ClubWrite.rebuild`, :func:`rebuild`); every system's rows from that day on are
  deleted, and the shadows write theirs when they catch up.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Collection, Iterable, Mapping
from contextlib import asynccontextmanager
from typing import Any, NamedTuple

from engine.calendar import Key, event_key, first_day, start_of
from engine.errors import EngineError
from engine.system import Card, Change, RatingSystem
from engine.text import Msg
from engine.types import Event, GamePlayed, Registered, TournamentRated
from storage import log, overlay, settings, snapshots
from storage.backend import Database, Transaction
from storage.cache import SystemFactory
from storage.codec import card_json, change_row, value_text
from storage.common import ClubRef, club_id
from storage.errors import NotFound, StorageError
from storage.history import CHUNK, club_events, count_events, event_players
from storage.ledgers import ClubLedgers, Projection, collector_paused
from storage.memo import forget_club, known_end
from storage.rewrites import record_rewrite, rewrite_reaching, rewritten

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
SYSTEM_STATE_UPSERT = (
    "INSERT INTO system_state (club, system, seq, moment, position, version) "
    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (club, system) DO UPDATE SET seq = excluded.seq, "
    "moment = excluded.moment, position = excluded.position, version = excluded.version"
)
FLUSH_ROWS = 20000
TRACKED_EVENTS = 256
"""A tail up to this long refreshes only the cards its events changed; a longer one every card
(asking each event which cards it changed costs more than working out every card once)."""


def just_after(key: Key) -> Key:
    """The first place in the calendar after ``key`` (where rows folded up to it end)."""
    return (key[0], key[1] + 1)


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


def system_version(db: Database, key: str) -> str:
    """The version of system ``key``'s rows (``system_state.version``): the rulebook version
    that wrote them (storage.snapshots.system_version)."""

    return snapshots.system_version(key, db.projections.systems[key])


async def last_club_seq(tx: Transaction, club: int) -> int:
    """The club's last log entry (0: no such club)."""
    row = await tx.fetchone("SELECT MAX(seq) FROM log WHERE club = ?", (club,))
    return 0 if row is None or row[0] is None else int(row[0])


def _factory(db: Database, key: str) -> SystemFactory:
    factories = db.projections.systems
    if key not in factories:
        raise StorageError(
            Msg(
                "the club's rating system {current!r} is not one this hoshi knows ({factories})",
                current=key,
                factories=", ".join(sorted(factories)),
            )
        )
    return factories[key]


class _Folded(NamedTuple):
    """What one pass of :func:`_fold_into` found: per system, the players whose cards it may
    have changed (``None``: every player), the captured fact's changes, and how many rating
    history rows it wrote."""

    touched: dict[str, set[int] | None]
    captured: list[Change]
    rows: int = 0
    finished: bool = True


async def _fold_into(
    tx: Transaction,
    club: int,
    projections: list[Projection],
    *,
    current: str,
    strict: Collection[int] = (),
    rows_from: Mapping[str, Key] | None = None,
    capture: int | None = None,
    progress: Progress | None = None,
    budget: int | None = None,
) -> _Folded:
    """Fold the club's calendar after the place ``projections`` share (all at the same log
    entry and calendar key, e.g. fresh ones) into each of them, in calendar order.

    Args:
        current: the club's current system: its rejection of a fact at a position in
            ``strict`` is raised (the corrected entry of a rewrite), not skipped.
        rows_from: per system, the calendar key from which its changes are inserted into
            ``rating_history`` (absent: none are).
        capture: the position of a fact whose changes under ``current`` are returned.
        progress: called as ``progress(done, total)`` after each chunk of events.
        budget: stop after the first chunk of events that brings the events folded to this
            many (``None``: fold to the end). A fold that stops leaves each projection at the
            last place it folded, with ``read_to`` the log's end (:class:`Projection`), and
            says it is not ``finished``.
    """
    first = projections[0]
    folded = await overlay.load(tx, club)
    after = first.last_key if first.last_key > (0, 0) else None
    order = sorted(projections, key=lambda each: (each.key != current, each.key))
    touched: dict[str, set[int] | None] = {each.key: set() for each in projections}
    froms = rows_from or {}
    captured: list[Change] = []
    total = await count_events(tx, club, folded) if progress is not None else 0
    done = count = 0
    rows: list[tuple[Any, ...]] = []
    written = 0
    last = first.last_key
    registered = first.registered
    finished = True
    events = club_events(
        tx,
        club,
        folded,
        after=after,
        since=first.last_seq,
        registered=registered,
        chunk=CHUNK if budget is None else max(1, min(CHUNK, budget)),
    )
    # per system, what each event asks of it (looked up once, not once an event)
    folds = [
        (each, each.key, each.system.apply, each.system.handles, froms.get(each.key))
        for each in order
    ]
    with collector_paused():
        async for batch in events:
            for at, event in batch:
                position = at[1]
                kind = type(event)
                registration = event if isinstance(event, Registered) else None
                if registration is not None:
                    for each in projections:
                        each.registered.add(registration.player)
                for each, key, apply, handles, since in folds:
                    if kind not in handles:
                        continue  # a no-op for this system
                    try:
                        # as the system reads it (seen_by: a registration in its units)
                        changes, named = apply(
                            event if registration is None else registration.for_system(key)
                        )
                    except EngineError as error:
                        if key == current and position in strict:
                            raise
                        each.rejected.append((position, str(error)))
                        continue
                    if changes and since is not None and at >= since:
                        rows.extend(
                            change_row(club, key, at, idx, change)
                            for idx, change in enumerate(changes)
                        )
                    if position == capture and key == current:
                        captured = changes
                    players = touched[key]
                    if players is None:
                        continue
                    if named is None:  # every card may have changed
                        touched[key] = None
                        continue
                    players.update(named)
                if at > last:
                    last = at
                count += 1
                if count == TRACKED_EVENTS:  # a long tail: every card, once, at the end
                    touched = dict.fromkeys(touched)
            if len(rows) >= FLUSH_ROWS:
                await tx.executemany(HISTORY_INSERT, rows)
                written += len(rows)
                rows = []
            if progress is not None:
                done += len(batch)
                progress(done, total)
            if budget is not None and count >= budget:
                finished = False
                break
    await events.aclose()
    if rows:
        await tx.executemany(HISTORY_INSERT, rows)
        written += len(rows)
    if progress is not None and done == 0:
        progress(0, total)
    tx.projections.folded_events += count * len(projections)
    end = await last_club_seq(tx, club)
    for each in projections:
        each.last_key = last
        if finished:
            each.last_seq, each.read_to = end, None
        else:
            each.read_to = end
    return _Folded(touched, captured, written, finished)


def _fresh(db: Database, key: str) -> Projection:
    return Projection(key, _factory(db, key)())


async def fold(
    db: Database,
    tx: Transaction,
    club: int,
    *,
    progress: Progress | None = None,
    systems: Collection[str] | None = None,
) -> ClubLedgers:
    """Replay the club's whole log, in calendar order, into fresh projections of ``systems``
    (default: every system of the database) in one pass — what eager projections of every
    system would hold. Nothing is written and nothing cached (a measure, a check)."""
    current = await settings.current_system(tx, club)
    _factory(db, current)
    keys = sorted(db.projections.systems) if systems is None else sorted(systems)
    fresh = {key: _fresh(db, key) for key in keys}
    ledgers = ClubLedgers(club, current, fresh, fingerprint(db.projections.systems))
    if fresh:
        await _fold_into(tx, club, list(fresh.values()), current=current, progress=progress)
    return ledgers


def all_cards(ledgers: ClubLedgers) -> dict[str, dict[int, Card]]:
    """Every player's card under every system in memory."""
    return {
        key: {player: each.system.card(player) for player in each.system.players()}
        for key, each in ledgers.projections.items()
    }


def _cards_of(projection: Projection, players: Iterable[int] | None) -> list[tuple[int, Card]]:
    """``players``' cards (``None``: everyone's) as the projection's ledger has them."""
    system = projection.system
    if players is None:
        return [(player, system.card(player)) for player in sorted(system.players())]
    found = []
    for player in sorted(set(players)):
        with contextlib.suppress(KeyError):  # card(): KeyError for an unknown player
            found.append((player, system.card(player)))
    return found


def _state_row(club: int, key: str, card: Card, text: str) -> tuple[Any, ...]:
    """A ``player_state`` row (``text`` is the card's JSON)."""
    return (club, key, card.player, text, value_text(card.sort_key), str(card.rank), card.games)


async def _save_state(db: Database, tx: Transaction, club: int, projection: Projection) -> None:
    """Record how far the projection's rows are written (``system_state``)."""
    moment, position = projection.last_key
    await tx.execute(
        SYSTEM_STATE_UPSERT,
        (
            club,
            projection.key,
            projection.last_seq,
            moment,
            position,
            system_version(db, projection.key),
        ),
    )


PROJECTION_STATE_INSERT = "INSERT INTO projection_state (club, last_seq, fingerprint) VALUES"
PROJECTION_STATE_CONFLICT = (
    "ON CONFLICT (club) DO UPDATE SET last_seq = excluded.last_seq, "
    "fingerprint = excluded.fingerprint"
)
"""The current projection's place: the insert, its values, then the update on conflict."""


async def _save_projection_state(db: Database, tx: Transaction, ledgers: ClubLedgers) -> None:
    """Record the current projection's place (``projection_state``, ``system_state``)."""
    await tx.execute(
        f"{PROJECTION_STATE_INSERT} (?, ?, ?) {PROJECTION_STATE_CONFLICT}",
        (ledgers.club, ledgers.last_seq, ledgers.fingerprint),
    )
    await _save_state(db, tx, ledgers.club, ledgers.now)


class _Written(NamedTuple):
    """A ``system_state`` row: how far a system's rows are written, and by what."""

    seq: int
    key: Key
    version: str


async def _written(tx: Transaction, club: int, key: str) -> _Written | None:
    row = await tx.fetchone(
        "SELECT seq, moment, position, version FROM system_state WHERE club = ? AND system = ?",
        (club, key),
    )
    return None if row is None else _Written(int(row[0]), (int(row[1]), int(row[2])), row[3])


async def _reach(tx: Transaction, club: int) -> Key:
    """An upper bound of how far any system's stored rows claim to be complete: just past
    the furthest calendar key a ``system_state`` row names."""
    row = await tx.fetchone(
        "SELECT moment, position FROM system_state WHERE club = ? "
        "ORDER BY moment DESC, position DESC LIMIT 1",
        (club,),
    )
    return (0, 0) if row is None else just_after((int(row[0]), int(row[1])))


async def _delete_rows(tx: Transaction, club: int, key: str, since: Key) -> None:
    """Delete system ``key``'s rating history rows at calendar key ``since`` or later (by the
    ``rating_history_moment`` index)."""
    if since <= (0, 0):
        await tx.execute("DELETE FROM rating_history WHERE club = ? AND system = ?", (club, key))
        return
    moment, position = since
    await tx.execute(
        "DELETE FROM rating_history WHERE club = ? AND system = ? "
        "AND moment >= ? AND (moment > ? OR seq >= ?)",
        (club, key, moment, moment, position),
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
    """Rebuild the club's current projection from the log (in the caller's transaction).

    The log is folded in calendar order from the current system's newest valid snapshot before
    ``since`` (storage.snapshots), else from its start; ``since`` is the earliest place in the
    calendar the rewrite touched (engine.calendar.start_of its earliest day): the rating
    history before it depends only on the facts before it, which did not change, so only the
    rows from there on are written again (an undo of last week's game rewrites last week, not
    the club's thirty years). Every other system's rows from ``since`` on are deleted, and a
    shadow in memory that folded past ``since`` is dropped: each writes its rows again when it
    catches up (:func:`caught_up`). ``capture``: the position of a fact whose changes under the
    current system are kept in ``ClubLedgers.captured``. The new ledgers replace the cached
    ones; if the transaction rolls back they are dropped and rebuilt on next use.
    """
    forget_club(tx, club)  # the projections may change at the same log position
    current = await settings.current_system(tx, club)
    whole = since <= (0, 0)
    index = await _history_index(tx, club) if whole else None
    if index is not None:  # a big club: the index is rebuilt in one sort at the end
        await tx.execute("DROP INDEX rating_history_player")
    if whole:
        await tx.execute("DELETE FROM rating_history WHERE club = ?", (club,))
    else:
        for key in db.projections.systems:
            await _delete_rows(tx, club, key, since)
    await tx.execute("DELETE FROM player_state WHERE club = ? AND system = ?", (club, current))

    base = await snapshots.newest_valid(tx, db, club, current, before=since)
    projection = _fresh(db, current) if base is None else base
    folded = await _fold_into(
        tx,
        club,
        [projection],
        current=current,
        strict=strict,
        rows_from={current: since},
        capture=capture,
        progress=progress,
    )
    if index is not None:
        await tx.execute(index)
    await record_rewrite(tx, club, projection.last_seq, since)
    rows = []
    for player, card in _cards_of(projection, None):
        text = projection.cards[player] = card_json(card)
        rows.append(_state_row(club, current, card, text))
    await tx.executemany(STATE_UPSERT, rows)
    cached = db.projections.ledgers.get(club)
    kept = {} if cached is None else cached.projections
    shadows = {key: each for key, each in kept.items() if key != current and each.last_key < since}
    reach = await _reach(tx, club) if cached is None else cached.reach
    ledgers = ClubLedgers(
        club,
        current,
        {**shadows, current: projection},
        fingerprint(db.projections.systems),
        captured=folded.captured,
        reach=min(reach, since),  # every other system's rows from ``since`` on are gone
    )
    await _save_projection_state(db, tx, ledgers)
    _cache(db, tx, ledgers)
    return ledgers


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
    db.projections.remember(ledgers.club, ledgers)
    tx.on_rollback(lambda: _drop(db, ledgers))


def _drop(db: Database, ledgers: ClubLedgers) -> None:
    if db.projections.ledgers.get(ledgers.club) is ledgers:
        del db.projections.ledgers[ledgers.club]


async def caught_up(
    db: Database,
    tx: Transaction,
    ledgers: ClubLedgers,
    key: str,
    *,
    progress: Progress | None = None,
    again: bool = False,
    end: int | None = None,
    budget: int | None = None,
) -> Projection:
    """System ``key``'s projection of the club brought up to the end of its log, in the
    caller's transaction, and put in ``ledgers``: the rating history rows and the cards it
    had not written are written (see the module docstring).

    ``budget``: fold at most about this many events (``_fold_into``), then stop part way
    (``Projection.read_to``), its rows, cards and place written as far as it got — one step
    of :func:`caught_up_in_steps`; the next call goes on from there.

    Where it starts: its projection in memory, else its newest valid snapshot, else nothing
    (the whole log) — the first of these that no rewrite of the past has reached since and
    whose place is before where its written rows end. ``again``: from nothing, every row and
    card written anew (:func:`replay_club`).

    A start from a snapshot or from nothing compares every card with ``player_state``: when
    the stored rows claim to be at the log's end yet say something else (projections built by
    another engine), the system's rows are written again from nothing.
    """

    club = ledgers.club
    if end is None:
        end = await last_club_seq(tx, club)
    have = None if again else ledgers.projections.get(key)
    if have is not None and have.last_seq == end and have.read_to is None:
        return have
    written = None if again else await _written(tx, club, key)
    version = system_version(db, key)
    if written is None or written.version != version:
        rows_from: Key = (0, 0)  # nothing of this system's rows can be trusted
    else:
        checked = written.seq
        if have is not None and (have.last_seq, have.last_key) == (written.seq, written.key):
            checked = have.checked  # a step stopped there: it read the rewrites up to this
        reached = await rewrite_reaching(tx, club, checked, written.key)
        rows_from = reached if reached is not None else just_after(written.key)
    base: Projection | None = None
    mirrored = False  # base.cards is what player_state holds of it
    if (
        have is not None
        and have.last_key < rows_from
        and not await rewritten(tx, club, have.checked, have.last_key)
    ):
        base = have
        # its cards are what player_state holds, but for the players the tail's events touch:
        # another process that wrote since folded the same entries by the same rulebook, so
        # it changed those players' cards and no one else's (the tail refreshes them)
        mirrored = written is not None and written.version == version
    if base is None and not again:
        base = await snapshots.newest_valid(tx, db, club, key)
        if base is not None and not base.last_key < rows_from:
            base = None
    if base is None:
        db.projections.full_folds += 1
        base = _fresh(db, key)
    _dirty(db, tx, ledgers)
    resumed_rows = written is not None and rows_from == just_after(written.key)
    if not resumed_rows:
        await _delete_rows(tx, club, key, rows_from)  # rows a rewrite or another engine left
    folded = await _fold_into(
        tx,
        club,
        [base],
        current=ledgers.current,
        rows_from={key: rows_from},
        progress=progress,
        budget=budget,
    )
    touched = folded.touched[key] if mirrored else None
    at_end = written is not None and written.version == version and written.seq == end
    changed = folded.rows > 0 or not resumed_rows
    if touched is not None:  # from this process's own mirror of player_state
        cards = _cards_of(base, touched)
        changed = await _write_cards(tx, club, base, cards, write=not at_end) or changed
    else:
        stored: dict[int, str] = dict(
            await tx.fetchall(
                "SELECT player, card FROM player_state WHERE club = ? AND system = ?",
                (club, key),
            )
        )
        computed = {player: (card, card_json(card)) for player, card in _cards_of(base, None)}
        if at_end and not again and {p: t for p, (_c, t) in computed.items()} != stored:
            # the rows claim the log's end and say otherwise: built by another engine
            return await caught_up(db, tx, ledgers, key, progress=progress, again=True, end=end)
        base.cards = {}
        rows = []
        for player, (card, text) in computed.items():
            base.cards[player] = text
            if stored.get(player) != text:
                rows.append(_state_row(club, key, card, text))
        if rows:
            await tx.executemany(STATE_UPSERT, rows)
        gone = sorted(set(stored) - set(computed))
        if gone:
            await tx.executemany(
                "DELETE FROM player_state WHERE club = ? AND system = ? AND player = ?",
                [(club, key, player) for player in gone],
            )
        changed = changed or bool(rows or gone)
    # a tail that changed none of its rows or cards leaves its place as written: the same
    # rows and cards, and a rewrite made meanwhile is still seen from there (a run of the
    # scheduler that found nothing to do writes nothing)
    # a step that stopped before the place its rows start from leaves system_state as it
    # was: the rows before that place are the old ones, complete past where the fold stands,
    # and the old row with the rewrite that reached it names the same place next time
    short = base.read_to is not None and just_after(base.last_key) < rows_from
    ledgers.projections[key] = base
    if not at_end and not short and (changed or base.last_key != written.key if written else True):
        await _save_state(db, tx, club, base)
    if key != ledgers.current:
        ledgers.reach = max(ledgers.reach, just_after(base.last_key))
    return base


async def _write_cards(
    tx: Transaction,
    club: int,
    projection: Projection,
    cards: Iterable[tuple[int, Card]],
    *,
    write: bool = True,
) -> bool:
    """Keep ``cards`` in the projection's mirror and upsert those that differ from it
    (``write`` false: the table has them already, another process wrote them); whether any
    row was written."""
    saved = projection.cards
    rows = []
    for player, card in cards:
        text = card_json(card)
        if saved.get(player) != text:
            saved[player] = text
            rows.append(_state_row(club, projection.key, card, text))
    if rows and write:
        await tx.executemany(STATE_UPSERT, rows)
    return bool(rows) and write


def _dirty(db: Database, tx: Transaction, ledgers: ClubLedgers) -> None:
    """The cached ledgers are about to change: drop them if the transaction rolls back."""
    tx.on_rollback(lambda: _drop(db, ledgers))


async def ledgers_for(
    db: Database, tx: Transaction, club: int, *, budget: int | None = None
) -> ClubLedgers:
    """The club's ledgers, their current projection at the end of the log (``budget``: or
    as far as a step of that many events brought it, :func:`caught_up`).

    * Cached and current: as they are.
    * Cached but behind the log (another process wrote): the current system's projection
      folds the new entries' tail (:func:`caught_up`) — unless a rewrite of the past reached
      what it had folded, then it starts from its snapshot or from nothing.
    * Not cached (a process start, an evicted club): the current system's newest valid
      snapshot and the tail after it, else a replay of the whole log; its cards are checked
      against ``player_state`` and the projection is rebuilt when they differ — after an
      upgrade of the engine, say.

    The shadows stay where they are: :func:`caught_up` brings one up when it is asked for.
    """

    await tx.lock(club)
    last = await last_club_seq(tx, club)
    if last == 0:
        raise NotFound(Msg("there is no club {club}", club=club))
    tx.confirm(club, last)
    snapshots.watch(db)
    cached = db.projections.ledgers.get(club)
    if cached is not None and cached.last_seq == last and cached.now.read_to is None:
        db.projections.remember(club, cached)
        return cached
    current = await settings.current_system(tx, club)
    _factory(db, current)
    if cached is None:
        cached = ClubLedgers(club, current, {}, fingerprint(db.projections.systems))
    cached.reach = max(cached.reach, await _reach(tx, club))  # another process's shadows
    cached.current = current
    cached.captured = []
    _cache(db, tx, cached)
    try:
        now = await caught_up(db, tx, cached, current, end=last, budget=budget)
    except BaseException:
        _drop(db, cached)
        raise
    if now.read_to is not None:
        return cached  # part way: its place is in system_state, projection_state waits
    stored = await tx.fetchone(
        "SELECT last_seq, fingerprint FROM projection_state WHERE club = ?", (club,)
    )
    if stored != (cached.last_seq, cached.fingerprint):  # else another process wrote it
        await _save_projection_state(db, tx, cached)
    return cached


class ClubWrite:
    """One club's side of a write transaction: append log entries, keep projections current.

    Obtain it with :func:`club_write`. Appended entries go to the end of history, so
    :meth:`apply` folds their engine event into the current system's ledger incrementally; a
    rewrite of the past calls :meth:`rebuild` instead.
    """

    def __init__(self, db: Database, tx: Transaction, ledgers: ClubLedgers):
        self.db = db
        self.tx = tx
        self.ledgers = ledgers
        self._dirty_marked = False
        self._deferred: list[tuple[Key, int]] | None = None

    @property
    def club(self) -> int:
        """The club's id."""
        return self.ledgers.club

    def _dirty(self) -> None:
        """The cached ledgers are about to change: drop them if the transaction rolls back."""
        if not self._dirty_marked:
            self._dirty_marked = True
            _dirty(self.db, self.tx, self.ledgers)

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
        """Fold an event appended at ``seq`` into the current system's ledger and write what
        changed.

        The event takes its place in the calendar (engine.calendar), with the fact's own log
        position (:func:`fact_position`) as the tie-break. After everything folded so far,
        it is folded at the end; dated earlier (a backdated result, a late tournament), the
        club's current projection is rebuilt from its day and every rating after it is
        recomputed.

        Returns:
            The event's own changes under the club's current system.

        Raises:
            EngineError: the current system refused the event (``strict``); nothing changed.
        """
        ledgers = self.ledgers
        now = ledgers.now
        if seq <= now.last_seq:
            raise RuntimeError(f"entry {seq} is not at the end of club {self.club}'s history")
        at = event_key(event, fact_position(event, seq))
        if type(event) not in now.system.handles and event_players(event) is None:
            # nothing for the club's own system to fold, wherever it falls in the calendar
            # (another rulebook's day or month end): no rebuild of it, only the shadows see it.
            # Not a fact naming a player: it may move their registration to just before it
            if at < ledgers.reach:
                await self._rewrite_shadows(seq, start_of(first_day(event)))
            self._dirty()
            now.last_key = max(now.last_key, at)
            return []
        deferred = self._deferred
        if deferred is not None and (deferred or at <= now.last_key):
            self._dirty()
            deferred.append((start_of(first_day(event)), at[1]))  # folded at the batch's end
            return []
        if at <= now.last_key:
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
        if at < ledgers.reach:  # after what the current system folded, not the shadows
            await self._rewrite_shadows(seq, start_of(first_day(event)))
        key = ledgers.current
        changes: list[Change] = []
        touched: Collection[int] | None = ()
        try:
            changes, touched = now.system.apply(seen_by(key, event))
        except EngineError as error:
            if strict:
                raise
            self._dirty()
            now.rejected.append((at[1], str(error)))
        self._dirty()
        now.last_key = at
        if type(event) is Registered:
            now.registered.add(event.player)
        if changes:
            await self.tx.executemany(
                HISTORY_INSERT,
                [
                    change_row(self.club, key, at, idx, change)
                    for idx, change in enumerate(changes)
                ],
            )
        # the players whose cards the system says the fact changed (None: everyone's)
        await _write_cards(self.tx, self.club, now, _cards_of(now, touched))
        return changes

    async def _rewrite_shadows(self, seq: int, since: Key) -> None:
        """A fact at ``since`` or later appended at ``seq`` comes after everything the current
        system folded but before what another system's stored rows reach (a void moved the
        current system back): for those it is a rewrite of the past. Their rows from
        ``since`` on are deleted and the rewrite recorded (each folds again when asked)."""
        self._dirty()
        ledgers = self.ledgers
        for key in self.db.projections.systems:
            if key != ledgers.current:
                await _delete_rows(self.tx, self.club, key, since)
        await record_rewrite(self.tx, self.club, seq, since)
        for key, each in list(ledgers.projections.items()):
            if key != ledgers.current and not each.last_key < since:
                del ledgers.projections[key]
        ledgers.reach = since

    @asynccontextmanager
    async def batch(self) -> AsyncIterator[None]:
        """``async with write.batch():`` — many facts entered at once (an imported file's new
        players): a fact dated before what is folded is not folded on its own; it and every
        fact after it in the batch are folded by one rebuild at the batch's end, from the
        earliest day they touch (a thousand registrations dated before the club's last game
        rebuild it once, not a thousand times). Inside the batch :meth:`apply` returns no
        changes for such a fact, and the current system refuses one (strictly) at the end.
        """
        if self._deferred is not None:  # already in a batch: it folds at its own end
            yield
            return
        self._deferred = []
        try:
            yield
            deferred = self._deferred
        finally:
            self._deferred = None
        if deferred:
            await self.rebuild(
                strict={position for _since, position in deferred},
                since=min(since for since, _position in deferred),
            )

    async def rebuild(self, *, strict: Collection[int] = (), since: Key = (0, 0)) -> None:
        """Rebuild the club's current projection after a rewrite of the past (this
        transaction).

        ``since``: the earliest place in the calendar the rewrite changed, e.g.
        ``engine.calendar.start_of(day)`` (``(0, 0)``: it may have changed anything, e.g. a
        rating setting).
        """
        self._dirty()
        self.ledgers = await rebuild(self.db, self.tx, self.club, strict=strict, since=since)

    async def ledger_of(self, key: str) -> RatingSystem:
        """System ``key``'s ledger at the end of the log as this write has it so far (a
        shadow catches up, :func:`caught_up`)."""
        if key == self.ledgers.current:
            return self.ledgers.system
        self._dirty()
        return (await caught_up(self.db, self.tx, self.ledgers, key)).system

    async def set_current(self, key: str) -> None:
        """The club switched its rating system: its projection is brought up to the log's
        end (a shadow catches up), then it is the one every write folds."""
        if key not in self.db.projections.systems:
            raise StorageError(Msg("unknown rating system {key!r}", key=key))
        self._dirty()
        await caught_up(self.db, self.tx, self.ledgers, key)
        old = self.ledgers.now
        self.ledgers.reach = max(self.ledgers.reach, just_after(old.last_key))
        self.ledgers.current = key

    async def finish(self) -> None:
        """Record that the current projection includes every entry appended so far (the
        club's last log entry, read by the same statement that records it)."""
        row = await self.tx.fetchone(
            f"{PROJECTION_STATE_INSERT} (?, (SELECT MAX(seq) FROM log WHERE club = ?), ?) "
            f"{PROJECTION_STATE_CONFLICT} RETURNING last_seq",
            (self.club, self.club, self.ledgers.fingerprint),
        )
        assert row is not None
        now = self.ledgers.now
        if row[0] != now.last_seq:
            self._dirty()
            now.last_seq = row[0]
        await _save_state(self.db, self.tx, self.club, now)


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
    writing = db.projections.writing
    writing[club] = writing.get(club, 0) + 1
    try:
        write = ClubWrite(db, tx, await ledgers_for(db, tx, club))
        yield write
        await write.finish()
    finally:
        writing[club] -= 1
        if not writing[club]:
            del writing[club]


async def replay_club(
    db: Database,
    club: ClubRef,
    progress: Progress | None = None,
    *,
    every_system: bool = True,
) -> ClubLedgers:
    """Rebuild a club's projections from its whole log, in one transaction: the current
    system's, then (``every_system``) every other system's from nothing too — every table as
    eager projections of every system would have written it.

    Args:
        progress: ``progress(done, total)`` after each chunk of the current system's events.
    """
    async with db.transaction() as tx:
        if await last_club_seq(tx, club_id(club)) == 0:
            raise NotFound(Msg("there is no club {club}", club=club_id(club)))
        ledgers = await rebuild(db, tx, club_id(club), progress=progress)
        if every_system:
            for key in sorted(db.projections.systems):
                if key != ledgers.current:
                    await caught_up(db, tx, ledgers, key, again=True)
        return ledgers


async def snapshot_club(db: Database, club: int) -> int:
    """Write a snapshot of the club's current projection now (brought up to the log end
    first), and of every shadow in memory where it stands (storage.snapshots); returns the
    current one's log position. Two processes writing the same one at once: the second changes
    nothing.
    """
    async with db.transaction() as tx:
        ledgers = await ledgers_for(db, tx, club)
        await snapshots.write(db, tx, ledgers)
        seq = ledgers.last_seq
    snapshots.written(db, ledgers)
    return seq


STEP_EVENTS = 20_000
"""The events one transaction of a catch-up folds (:func:`caught_up_in_steps`): about a
tenth of a second of one system's fold, the longest a catch-up holds the writer's lock (every
other club's write waits for it) before it lets the queued ones through."""


STALLED_STEPS = 3
"""Steps in a row without progress after which :func:`caught_up_in_steps` folds the rest in
one go."""


async def caught_up_step(
    db: Database,
    club: int,
    key: str | None = None,
    *,
    budget: int | None = STEP_EVENTS,
    progress: Progress | None = None,
) -> bool:
    """One step of a catch-up, in a transaction of its own: the club's current projection,
    then system ``key``'s (default: the current one), folded by at most about ``budget``
    events (``None``: to the end); whether ``key``'s projection is now at the end of the
    log."""
    async with db.upkeep().transaction() as tx:
        ledgers = await ledgers_for(db, tx, club, budget=budget)
        if ledgers.now.read_to is not None:
            return False
        if key is None or key == ledgers.current:
            return True
        _factory(db, key)
        projection = await caught_up(db, tx, ledgers, key, budget=budget, progress=progress)
        return projection.read_to is None


async def caught_up_in_steps(
    db: Database,
    club: int,
    key: str | None = None,
    *,
    budget: int = STEP_EVENTS,
    progress: Progress | None = None,
) -> None:
    """Bring the club's projection of ``key`` (default: its current system) to the end of its
    log in steps (:func:`caught_up_step`), each its own short write transaction: between two
    steps the writer's lock goes to whatever waits for it — another club's command — so a
    long catch-up (a shadow a federation never folded, a club's first load from an old
    snapshot) never holds every other club up for longer than one step.

    ``progress(done, total)`` counts the events of every step together (``total``: what the
    first step saw left, grown as later steps see more).

    After :data:`STALLED_STEPS` steps in a row that do not get past where the one before
    stopped (the club's ledgers leave memory between steps, so each starts again from a
    snapshot), the rest is folded in one go: it always finishes. (One step back — a rewrite
    of the past entered meanwhile — is not a stall.) A ``key`` that is none of the database's
    systems has nothing to catch up: the caller's own read says what is wrong."""
    if key is not None and key not in db.projections.systems:
        return
    folded = step_done = stalls = 0
    reached: tuple[Key, Key] | None = None
    step: int | None = budget

    def counted(done: int, total: int) -> None:
        nonlocal step_done
        assert progress is not None
        step_done = done
        progress(folded + done, folded + total)

    while True:
        step_done = 0
        finished = await caught_up_step(
            db, club, key, budget=step, progress=None if progress is None else counted
        )
        folded += step_done
        if finished:
            return  # else the lock goes to whatever queued for it meanwhile (asyncio.Lock is fair)
        place = _places(db, club, key)
        moved = place is not None and (reached is None or place > reached)
        stalls = 0 if moved else stalls + 1
        if stalls >= STALLED_STEPS:
            step = None
        reached = place


def _places(db: Database, club: int, key: str | None) -> tuple[Key, Key] | None:
    """Where the club's current projection and system ``key``'s stand in this process's
    memory (``None``: not here)."""
    ledgers = db.projections.ledgers.get(club)
    if ledgers is None:
        return None
    there = ledgers.projections.get(ledgers.current if key is None else key)
    return ledgers.now.last_key, (0, 0) if there is None else there.last_key


async def every_system(db: Database, club: ClubRef) -> ClubLedgers:
    """The club's ledgers with every system's projection brought to the end of its log (each
    shadow caught up: what reading every system's tables needs first, e.g. a transfer)."""
    cid = club_id(club)
    for key in sorted(db.projections.systems):
        await caught_up_in_steps(db, cid, key)
    async with db.upkeep().transaction() as tx:
        ledgers = await ledgers_for(db, tx, cid)
        for key in sorted(db.projections.systems):
            await caught_up(db, tx, ledgers, key)
        return ledgers


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
        await caught_up_in_steps(db, club)
    return settings.system_from(row[3], row[4], club)


async def ensure_fresh(
    db: Database, club: int, system: str | None = None, *, progress: Progress | None = None
) -> None:
    """Make sure the club's projection of ``system`` (default: its current one) includes its
    whole log before reading it.

    Every write keeps the current one current; this catches a club whose projections were
    never built (a database from elsewhere) or were built by other systems, and brings a
    shadow up to date (:func:`caught_up`; ``progress(done, total)`` after each chunk of
    the events it folds).
    """
    current = await fresh_system(db, club)
    if system is None or system == current:
        return
    _factory(db, system)
    row = await db.fetchone(
        "SELECT (SELECT MAX(seq) FROM log WHERE club = ?), "
        "(SELECT seq FROM system_state WHERE club = ? AND system = ?), "
        "(SELECT version FROM system_state WHERE club = ? AND system = ?)",
        (club, club, system, club, system),
    )
    if row is not None and (row[1], row[2]) == (row[0], system_version(db, system)):
        return
    cached = db.projections.ledgers.get(club)
    have = None if cached is None else cached.projections.get(system)
    if (
        row is not None
        and have is not None
        and have.last_seq == row[0]
        and not db.projections.writing.get(club)
    ):
        return  # held here at the log's end already
    await caught_up_in_steps(db, club, system, progress=progress)


async def ledger(db: Database, club: ClubRef, system: str | None = None) -> RatingSystem:
    """The in-memory ledger of one system (default: the club's current one), at the end of
    the club's log (a shadow catches up first).

    The read port: when this process holds the ledger at the log's end already and no write
    of the club is open here, it is handed out after one read of the log's end, without the
    writer's lock; otherwise a transaction brings it up to date.

    Use it synchronously (handicap and promotion queries); do not hold it across an ``await``
    — a later write may replace it.
    """
    cid = club_id(club)
    cached = db.projections.ledgers.get(cid)
    if cached is not None and not db.projections.writing.get(cid):
        have = cached.projections.get(cached.current if system is None else system)
        if have is not None and have.read_to is None:
            end = known_end(db, cid)  # as the command began (storage.keys), if that is here
            row = (
                (end,)
                if end is not None and end == have.last_seq
                else await db.fetchone("SELECT MAX(seq) FROM log WHERE club = ?", (cid,))
            )
            latest = db.projections.ledgers.get(cid)
            if (
                row is not None
                and row[0] == have.last_seq == cached.last_seq
                and latest is cached
                and not db.projections.writing.get(cid)
            ):
                db.projections.remember(cid, cached)
                return have.system
    await caught_up_in_steps(db, cid, system)  # the long part, a step at a time
    async with db.upkeep().transaction() as tx:
        ledgers = await ledgers_for(db, tx, cid)
        key = ledgers.current if system is None else system
        if key not in db.projections.systems:
            raise StorageError(
                Msg(
                    "unknown rating system {key!r} ({systems})",
                    key=key,
                    systems=", ".join(sorted(db.projections.systems)),
                )
            )
        if key == ledgers.current:
            return ledgers.system
        return (await caught_up(db, tx, ledgers, key)).system


async def ledger_if_cheap(
    db: Database, club: ClubRef, limit: int = 50_000, system: str | None = None
) -> RatingSystem | None:
    """:func:`ledger` when it costs little: kept current in this process already, or a club
    of at most ``limit`` games to replay; else ``None`` (a federation's replay takes most of a
    minute, issue 5/6). The web pages ask this for promotion progress and handicaps, which
    only a ledger answers, and build everything else from the stored projections."""
    cid = club_id(club)
    cached = db.projections.ledgers.get(cid)
    if cached is not None and (system is None or system == cached.current):
        row = await db.fetchone("SELECT MAX(seq) FROM log WHERE club = ?", (cid,))
        if row is not None and row[0] == cached.last_seq:
            return await ledger(db, cid, system)
    row = await db.fetchone("SELECT COUNT(*) FROM games WHERE club = ?", (cid,))
    if row is None or row[0] > limit:
        return None
    return await ledger(db, cid, system)
