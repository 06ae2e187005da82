"""Taking things back: void a game, correct a game, undo one's last entry.

Nothing is deleted or overwritten: each is a new event naming its target, the original rows
stay and are shown as voided, corrected or undone, and every rating derived from them is
recomputed from the log (bot.md, ``/undo``, ``/void``, ``/correct``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from engine.calendar import Key, day_of, event_day, start_of
from engine.errors import EngineError
from engine.formats.messages import joined, message_of
from engine.text import Msg
from storage import log
from storage import overlay as overlays
from storage.backend import Database
from storage.common import ClubRef, club_id
from storage.errors import NotFound, Refused
from storage.events import settle_ended
from storage.games import (
    Context,
    game_columns,
    game_ids_of,
    game_row,
    game_rows,
    rated_day,
    raw_pending,
)
from storage.history import engine_event
from storage.log import LOG_COLUMNS, entry_from, events
from storage.overlay import Overlay
from storage.players import load_players
from storage.projections import ClubWrite, club_write
from storage.records import GAME_OK, GAME_PENDING, GameRow, Undone, gone_game
from storage.tournaments import tournament_row

CORRECTABLE = frozenset(
    {
        "black",
        "white",
        "result",
        "date",
        "stones",
        "komi",
        "played",
        "board",
        "time",
        "round",
        "arranged",
        "counts_as_tournament",
        "pair_go",
        "reported",
        "margin",
    }
)


async def _live_game(write: ClubWrite, game: int) -> GameRow:
    row = await game_row(write.tx, write.club, game)
    if row is None:
        raise NotFound(Msg("there is no such game in this club"))  # never its internal id
    if row.status not in (GAME_OK, GAME_PENDING):
        raise Refused(gone_game(row.number, row.status))
    return row


async def _refuse_if_finalised(write: ClubWrite, row: GameRow, folded: Overlay) -> None:
    """A game of a rated tournament changes only when the tournament is reopened: its
    rating was given with the tournament's, and a silent re-rating would change a published
    result (issue 22, item 2)."""
    tournament = row.game.tournament
    if tournament is None or tournament not in folded.finalised:
        return
    name = (await tournament_row(write.tx, write.club, tournament)).tournament.name
    raise Refused(
        Msg(
            "game #{number} belongs to {name}, which is finalised: a game of a rated "
            "tournament changes only when the tournament is reopened ({command}); fix it "
            "there, then finalise it again",
            number=row.number,
            name=name,
            command=f"/tournament reopen {name}",
        )
    )


async def _rated(write: ClubWrite, row: GameRow, folded: Overlay, *also: dt.date) -> Key | None:
    """Where in the calendar a change of the game rewrites the history from (``None``: it is
    not rated): its rating day, or an earlier day in ``also`` (a corrected date)."""
    day = await rated_day(write.tx, row.game, await raw_pending(write.tx, row.id), folded)
    if day is None:
        return None
    if row.game.tournament is None:
        day = min((day, *also))
    return start_of(day)


async def void_game(
    db: Database,
    club: ClubRef,
    game: int,
    *,
    actor: str,
    chat: str | None = None,
    reason: str = "",
) -> GameRow:
    """Void a game: it stays in the log, shown as voided, and counts for nothing.

    Raises:
        NotFound: no such game. Refused: it is already voided or undone.
    """
    async with club_write(db, club_id(club)) as write:
        row = await _live_game(write, game)
        folded = await overlays.load(write.tx, write.club)
        await _refuse_if_finalised(write, row, folded)
        payload = {"reason": reason}
        await write.event(log.VOID, actor=actor, chat=chat, target=game, payload=payload)
        where = await _rated(write, row, folded)
        if where is not None:
            await write.rebuild(since=where)
        voided = await game_row(write.tx, write.club, game)
    assert voided is not None
    return voided


async def correct_game(
    db: Database,
    club: ClubRef,
    game: int,
    *,
    actor: str,
    chat: str | None = None,
    **changes: Any,
) -> GameRow:
    """Correct a game's data; it keeps its place in history and everything is re-rated.

    Changeable: black, white, result, date, stones, komi, played, board, time, round,
    arranged, counts_as_tournament, pair_go, reported, margin (to move a game to another
    tournament, void it and record it again).

    Raises:
        NotFound: no such game. Refused: unknown fields, bad values, no change, a voided game.
        EngineError: the club's system refuses the corrected game; nothing is written.
    """
    unknown = set(changes) - CORRECTABLE
    if unknown:
        raise Refused(
            Msg(
                "cannot correct {unknown} of a game; correctable: {correctable} (void the game "
                "and record it again otherwise)",
                unknown=", ".join(sorted(unknown)),
                correctable=", ".join(sorted(CORRECTABLE)),
            )
        )
    async with club_write(db, club_id(club)) as write:
        row = await _live_game(write, game)
        await _refuse_if_finalised(write, row, await overlays.load(write.tx, write.club))
        try:
            corrected = dataclasses.replace(row.game, **changes)
        except EngineError:
            raise
        except ValueError as error:
            raise Refused(message_of(error)) from None
        context = await Context.load(write.tx, write.club, [corrected])
        problems = context.problems(corrected, correcting=True)
        if problems:
            raise Refused(joined(problems))
        before, after = game_columns(row.game), game_columns(corrected)
        diff = {column: value for column, value in after.items() if before[column] != value}
        if not diff:
            raise Refused(Msg("nothing to correct: the game already has those values"))
        await write.event(
            log.CORRECT, actor=actor, chat=chat, target=game, payload={"changes": diff}
        )
        where = await _rated(write, row, context.overlay, corrected.date)
        if where is not None:
            await write.rebuild(strict={game}, since=where)
            if corrected.tournament is None:  # moved to a day that has ended (§2.3)
                await settle_ended(write, [corrected.date], actor=actor, chat=chat)
        fixed = await game_row(write.tx, write.club, game)
    assert fixed is not None
    return fixed


async def undo_last(db: Database, club: ClubRef, *, actor: str, chat: str | None = None) -> Undone:
    """Take back ``actor``'s last undoable entry not already undone (or voided).

    Undoable: games, registrations, voids, corrections, confirmations, overrides, EGF
    ratings, teacher actions and suspensions.

    Raises:
        Refused: nothing to undo, or a registration whose player already has games.
    """
    async with club_write(db, club_id(club)) as write:
        folded = await overlays.load(write.tx, write.club)
        marks = ", ".join("?" for _ in log.UNDOABLE)
        rows = await write.tx.fetchall(
            f"SELECT {LOG_COLUMNS} FROM log WHERE club = ? AND actor = ? AND kind IN ({marks}) "
            "ORDER BY seq DESC",
            (write.club, actor, *log.UNDOABLE),
        )
        for row in rows:
            if row[0] in folded.undone or (row[2] == log.GAME and row[0] in folded.voided):
                continue
            if (row[2] == log.FINALISE and row[0] not in folded.finalised.values()) or (
                row[2] == log.REOPEN and row[0] not in folded.reopened.values()
            ):
                continue  # a later reopening (finalisation) took it back already
            entry = entry_from(row)
            break
        else:
            raise Refused(Msg("there is nothing of yours to undo"))
        undone = await _undo(write, entry.seq, entry.kind, folded)
        await write.event(log.UNDO, actor=actor, chat=chat, target=entry.seq)
        if undone.since is not None:
            await write.rebuild(since=undone.since)
        game = tournament = None
        if undone.game is not None:
            game = await game_row(write.tx, write.club, undone.game)
        if undone.tournament is not None:
            tournament = await tournament_row(write.tx, write.club, undone.tournament)
        return Undone(entry, game, undone.player, undone.event, tournament)


@dataclasses.dataclass(slots=True)
class _Target:
    since: Key | None  # where in the calendar the undo rewrites from (None: nothing rated)
    game: int | None = None
    player: Any = None
    event: Any = None
    tournament: int | None = None


async def _undo(write: ClubWrite, seq: int, kind: str, folded: Overlay) -> _Target:
    """What undoing entry ``seq`` involves (refusing a registration still in use)."""
    if kind == log.GAME:
        row = await game_row(write.tx, write.club, seq)
        assert row is not None
        await _refuse_if_finalised(write, row, folded)
        return _Target(await _rated(write, row, folded), game=seq)
    if kind == log.PLAYER:
        player = (await load_players(write.tx, write.club)).get(seq)
        assert player is not None
        await _refuse_if_used(write, seq, player.name, folded)
        if player.guest:
            return _Target(None, player=player)
        return _Target(await _registration_since(write, player.id, player.date), player=player)
    (event,) = [e for e in await events(write.tx, write.club, [kind]) if e.seq == seq]
    if kind in (log.VOID, log.CORRECT, log.CONFIRM):
        assert event.target is not None
        row = await game_row(write.tx, write.club, event.target)
        assert row is not None
        await _refuse_if_finalised(write, row, folded)
        # the game's place in the calendar, with or without this entry (a corrected date)
        (raw,) = await game_rows(write.tx, write.club, [event.target], Overlay())
        rated = await rated_day(write.tx, row.game, False, folded)
        since = None if rated is None else start_of(min(rated, raw.game.date))
        return _Target(since, game=event.target, event=event)
    if kind in (log.FINALISE, log.REOPEN):  # rated (or taken back) again from its start
        assert event.target is not None
        tournament = await tournament_row(write.tx, write.club, event.target)
        return _Target(start_of(tournament.tournament.start), event=event, tournament=event.target)
    fact = engine_event(seq, kind, event.payload)
    return _Target(start_of(event_day(fact)), event=event)


async def _registration_since(write: ClubWrite, player: int, date: dt.date) -> Key:
    """Where undoing a registration rewrites from: its date, or the day it was folded on if
    a fact of the player came first (storage.history: a registration never follows them)."""
    row = await write.tx.fetchone(
        "SELECT MIN(moment) FROM rating_history WHERE club = ? AND player = ?",
        (write.club, player),
    )
    folded = date if row is None or row[0] is None else min(date, day_of(row[0]))
    return start_of(folded)


async def _refuse_if_used(write: ClubWrite, player: int, name: str, folded: Overlay) -> None:
    games = await game_ids_of(write.tx, write.club, player, folded)
    used = [seq for seq in sorted(games) if not folded.removed(seq)]
    entries = await write.tx.fetchall(
        "SELECT seq FROM tournament_entries WHERE club = ? AND player = ?", (write.club, player)
    )
    used += [seq for (seq,) in entries if seq not in folded.undone]
    if used:
        raise Refused(
            Msg(
                "{name} already has games or tournament entries; void those first, "
                "then undo the registration",
                name=name,
            )
        )
