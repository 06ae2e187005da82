"""Tournaments: opening, importing (one transaction), entries, finalising and reopening.

A tournament's games are rated together when it is finalised, at the finalisation's place in
the club's history (rules.md §1.4); reopening takes that rating back (the projections are
rebuilt) and a new finalisation rates it at its new place.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.calendar import start_of
from engine.errors import EngineError
from engine.formats.messages import joined, message_of
from engine.ranks import Rank
from engine.system import Change
from engine.text import Msg
from engine.types import ByeKind, Entry, Game, Outcome, Tournament
from storage import log, pairings
from storage import overlay as overlays
from storage.backend import Database
from storage.codec import decode, entry_rank_from_text, from_timestamp
from storage.common import ClubRef, PlayerRef, clean_name, club_id, player_id
from storage.errors import BatchError, NotFound, Refused, StorageError
from storage.events import club_today
from storage.games import TOURNAMENT_NUMBER, Context, add_entry_row, game_rows, insert_game
from storage.history import (
    TOURNAMENT_COLUMNS,
    TOURNAMENT_SELECT,
    effective_tournament,
    tournament_columns,
    tournament_rated,
)
from storage.log import LOG_COLUMNS, Reader, entry_from
from storage.names import fold, lookup
from storage.overlay import Overlay
from storage.pairings import Setup
from storage.players import NameIndex, load_players, players_by_id, register
from storage.projections import ClubWrite, club_write
from storage.records import GAME_OK, GameRow, NewPlayer, Player, TournamentRow

TournamentRef = TournamentRow | int | str

EGF_CLASSES = ("A", "B", "C", "D")
"""The EGF tournament classes an h9 header's ``CL[…]`` names (formats.md)."""

AMENDABLE = frozenset(
    {
        "name",
        "start",
        "end",
        "rounds",
        "board",
        "time",
        "even",
        "handicap_reduction",
        "participants",
        "importance",
        "multiplier",
        "arranged",
        "klass",
    }
)


@dataclass(frozen=True, slots=True)
class ImportResult:
    """What an import wrote: the tournament, the players it created, its games."""

    tournament: TournamentRow
    created: tuple[Player, ...]
    games: tuple[GameRow, ...]


def _problems(tournament: Tournament) -> list[str]:
    found: list[str] = []
    if not " ".join(tournament.name.split()):
        found.append(Msg("the tournament needs a name"))
    if tournament.end < tournament.start:
        found.append(
            Msg(
                "the tournament ends ({end}) before it starts ({start})",
                end=tournament.end,
                start=tournament.start,
            )
        )
    if tournament.rounds < 1:
        found.append(
            Msg("a tournament needs at least one round, not {rounds}", rounds=tournament.rounds)
        )
    if tournament.board < 2:
        found.append(
            Msg(
                "the board size must be a number like 19 or 13, not {board}",
                board=tournament.board,
            )
        )
    if tournament.handicap_reduction < 0:
        found.append(
            Msg(
                "a handicap reduction cannot be negative ({handicap_reduction})",
                handicap_reduction=tournament.handicap_reduction,
            )
        )
    if tournament.multiplier is not None and tournament.multiplier <= 0:
        found.append(
            Msg(
                "a multiplier C set by hand must be positive, not {multiplier}",
                multiplier=tournament.multiplier,
            )
        )
    if tournament.klass is not None and tournament.klass not in EGF_CLASSES:
        found.append(
            Msg("the EGF tournament class is A, B, C or D, not {klass!r}", klass=tournament.klass)
        )
    if tournament.participants is not None and tournament.participants < 0:
        found.append(
            Msg(
                "participants cannot be negative ({participants})",
                participants=tournament.participants,
            )
        )
    return found


_ROW_SELECT = (
    f"SELECT {TOURNAMENT_SELECT}, tournaments.notes, tournaments.club, {LOG_COLUMNS}, "
    "tournaments.number FROM tournaments JOIN log ON log.seq = tournaments.seq"
)
_NOTES = len(TOURNAMENT_COLUMNS)
_NUMBER = _NOTES + 8


async def _rows(
    reader: Reader, club: int, folded: Overlay, where: str = "", params: Sequence[Any] = ()
) -> list[TournamentRow]:
    rows = await reader.fetchall(
        f"{_ROW_SELECT} WHERE tournaments.club = ? {where} ORDER BY tournaments.seq",
        (club, *params),
    )
    finalised = [seq for row in rows if (seq := folded.finalised.get(row[0])) is not None]
    stamps: dict[int, str] = {}
    for start in range(0, len(finalised), 500):
        part = finalised[start : start + 500]
        marks = ", ".join("?" for _ in part)
        stamps.update(
            await reader.fetchall(f"SELECT seq, at FROM log WHERE seq IN ({marks})", part)
        )
    found = []
    for row in rows:
        seq = folded.finalised.get(row[0])
        stamp = None if seq is None else stamps.get(seq)
        found.append(
            TournamentRow(
                tournament=effective_tournament(row, folded),
                club=row[_NOTES + 1],
                finalised_seq=seq,
                finalised_at=None if stamp is None else from_timestamp(stamp),
                notes=row[_NOTES],
                entry=entry_from(row, _NOTES + 2),
                number=row[_NUMBER],
            )
        )
    return found


async def _one(reader: Reader, club: int, folded: Overlay, seq: int) -> list[TournamentRow]:
    """One tournament by id, its finalisation's time read in the same round trip."""
    finalised = folded.finalised.get(seq)
    row = await reader.fetchone(
        f"SELECT {TOURNAMENT_SELECT}, tournaments.notes, tournaments.club, {LOG_COLUMNS}, "
        "tournaments.number, (SELECT at FROM log WHERE seq = ?) "
        "FROM tournaments JOIN log ON log.seq = tournaments.seq "
        "WHERE tournaments.club = ? AND tournaments.seq = ?",
        (finalised, club, seq),
    )
    if row is None:
        return []
    stamp = row[-1]
    return [
        TournamentRow(
            tournament=effective_tournament(row, folded),
            club=row[_NOTES + 1],
            finalised_seq=finalised,
            finalised_at=None if stamp is None else from_timestamp(stamp),
            notes=row[_NOTES],
            entry=entry_from(row, _NOTES + 2),
            number=row[_NUMBER],
        )
    ]


async def _resolve(reader: Reader, club: int, ref: TournamentRef) -> TournamentRow:
    folded = await overlays.load(reader, club)
    if isinstance(ref, TournamentRow):
        ref = ref.id
    if isinstance(ref, int):
        rows = await _one(reader, club, folded, ref)
    else:
        wanted = fold(ref)
        ids = [
            seq
            for seq, name in await reader.fetchall(
                "SELECT seq, name FROM tournaments WHERE club = ? ORDER BY seq", (club,)
            )
            if fold(str(folded.amendments.get(seq, {}).get("name", name))) == wanted
        ]
        rows = (
            await _rows(reader, club, folded, "AND tournaments.seq = ?", ids[-1:]) if ids else []
        )
    if not rows:
        raise NotFound(Msg("there is no tournament {ref!r} in this club", ref=ref))
    return rows[-1]


async def tournament_row(reader: Reader, club: int, tournament: int) -> TournamentRow:
    """One tournament of the club by id, as the overlay has it now (within a transaction).

    Raises:
        NotFound: no such tournament.
    """
    return await _resolve(reader, club, tournament)


@dataclass(frozen=True, slots=True)
class TournamentMatch:
    """A tournament name lookup, as :class:`storage.records.Lookup` for players: the
    ``exact`` match (names are unique in a club), or the ``partial`` matches (every word, or
    the start of the name) and, on a miss, the closest names (``suggestions``)."""

    exact: TournamentRow | None = None
    partial: tuple[TournamentRow, ...] = ()
    suggestions: tuple[TournamentRow, ...] = ()


async def find_tournament(db: Database, club: ClubRef, query: str) -> TournamentMatch:
    """Find a tournament by name as players are found (storage.names.lookup): case- and
    accent-insensitive, any word order, a unique prefix or partial name, close names on a miss.
    """
    rows = await tournaments(db, club)
    exact, partial, suggestions = lookup(
        query, rows, lambda row: (row.tournament.name,), prefix=True
    )
    if exact:
        return TournamentMatch(exact=exact[-1])
    return TournamentMatch(partial=tuple(partial), suggestions=tuple(suggestions))


async def tournament(
    db: Database, club: ClubRef, name_or_id: TournamentRef
) -> TournamentRow | None:
    """A tournament of the club by id or name (case/accent-insensitive)."""
    try:
        return await _resolve(db, club_id(club), name_or_id)
    except NotFound:
        return None


async def tournament_by_number(db: Database, club: ClubRef, number: int) -> TournamentRow | None:
    """The club's tournament #``number`` (the number members see), or ``None``."""
    cid = club_id(club)
    found = await db.fetchone(
        "SELECT seq FROM tournaments WHERE club = ? AND number = ?", (cid, number)
    )
    return None if found is None else await tournament(db, cid, found[0])


async def tournaments(db: Database, club: ClubRef) -> list[TournamentRow]:
    """Every tournament of the club in calendar order: by end date, then start date (rules.md,
    top), then entry."""
    cid = club_id(club)
    found = await _rows(db, cid, await overlays.load(db, cid))
    found.sort(key=lambda row: (row.tournament.end, row.tournament.start, row.id))
    return found


async def open_tournaments(db: Database, club: ClubRef) -> list[TournamentRow]:
    """The club's tournaments not finalised (open, or reopened)."""
    return [row for row in await tournaments(db, club) if not row.finalised]


async def entries(db: Database, club: ClubRef, ref: TournamentRef) -> list[Entry]:
    """A tournament's entries (the latest entry of each player), in entry order, each with
    the criteria (MMS, SOS, …), byes, administrative results and colourless games' rounds
    its results file gave (none
    for an entry added by hand)."""
    cid = club_id(club)
    row = await _resolve(db, cid, ref)
    taken_back = await overlays.undone(db, cid)
    found: dict[int, Entry] = {}
    for (
        seq,
        player,
        rank,
        registered,
        country,
        criteria,
        byes,
        administrative,
        colourless,
        pro,
    ) in await db.fetchall(
        "SELECT seq, player, rank, registered, country, criteria, byes, administrative, "
        "colourless, pro FROM tournament_entries "
        "WHERE tournament = ? ORDER BY seq",
        (row.id,),
    ):
        if seq not in taken_back:
            found[player] = Entry(
                player,
                entry_rank_from_text(rank),
                registered == 1,
                country,
                () if criteria is None else _criteria(criteria),
                () if byes is None else _byes(byes),
                () if administrative is None else _administrative(administrative),
                () if colourless is None else tuple(json.loads(colourless)),
                pro,
            )
    return list(found.values())


def _criteria(text: str) -> tuple[tuple[str, str], ...]:
    """An entry's criteria as stored (storage.games.add_entry_row): ``(title, value)`` pairs,
    an untitled column's ``criterion N`` still a translatable message."""
    pairs: tuple[tuple[str, str], ...] = decode(json.loads(text))
    return pairs


def _byes(text: str) -> tuple[tuple[int, ByeKind], ...]:
    """An entry's byes as stored (storage.games.add_entry_row): ``(round, kind)`` pairs."""
    pairs: tuple[tuple[int, ByeKind], ...] = decode(json.loads(text))
    return pairs


def _administrative(text: str) -> tuple[tuple[int, Outcome], ...]:
    """An entry's administrative results as stored: ``(round, outcome)`` pairs."""
    pairs: tuple[tuple[int, str], ...] = decode(json.loads(text))
    return tuple((number, Outcome(outcome)) for number, outcome in pairs)


@dataclass(frozen=True, slots=True)
class MissingRound:
    """A round with fewer games than its entries make: ``games`` of ``expected``."""

    round: int
    games: int
    expected: int


async def missing_rounds(db: Database, club: ClubRef, ref: TournamentRef) -> list[MissingRound]:
    """The tournament's rounds with no games, or clearly fewer than its fullest round (less
    than three quarters of it: a round still being entered, not an absentee's bye); before
    any round has games, one game per two entries is expected. Voided and undone games do not
    count.
    """
    cid = club_id(club)
    row = await _resolve(db, cid, ref)
    folded = await overlays.load(db, cid)
    ids = [
        seq
        for (seq,) in await db.fetchall(
            "SELECT seq FROM games WHERE club = ? AND tournament = ? ORDER BY seq",
            (cid, row.id),
        )
    ]
    per_round: dict[int, int] = {}
    for game in await game_rows(db, cid, ids, folded):
        if game.status == GAME_OK and game.game.round is not None:
            per_round[game.game.round] = per_round.get(game.game.round, 0) + 1
    expected = max(per_round.values(), default=max(1, len(await entries(db, cid, row.id)) // 2))
    return [
        MissingRound(number, per_round.get(number, 0), expected)
        for number in range(1, row.tournament.rounds + 1)
        if per_round.get(number, 0) * 4 < expected * 3
    ]


async def _create(
    write: ClubWrite,
    tournament: Tournament,
    *,
    notes: str | None,
    actor: str,
    chat: str | None,
    pairing: Setup | None = None,
) -> int:
    problems = _problems(tournament)
    if problems:
        raise Refused(joined(problems))
    name = clean_name(tournament.name, "tournament name")
    folded = await overlays.load(write.tx, write.club)
    for existing in await _rows(write.tx, write.club, folded):
        if fold(existing.tournament.name) == fold(name):
            raise Refused(
                Msg(
                    "there is already a tournament called {name!r}; choose another name", name=name
                )
            )
    seq = await write.append(log.TOURNAMENT, actor=actor, chat=chat)
    columns = tournament_columns(dataclasses.replace(tournament, name=name))
    names = ", ".join(columns)
    await write.tx.execute(
        f"INSERT INTO tournaments (seq, club, notes, {names}, number) "
        f"VALUES (?, ?, ?, {', '.join('?' for _ in columns)}, {TOURNAMENT_NUMBER})",
        (seq, write.club, notes, *columns.values(), write.club),
    )
    if pairing is not None:  # run from the chat (storage.pairings)
        await write.event(
            pairings.SETUP, actor=actor, chat=chat, target=seq, payload=pairing.payload()
        )
    return seq


async def create_tournament(
    db: Database,
    club: ClubRef,
    tournament: Tournament,
    *,
    actor: str,
    chat: str | None = None,
    notes: str | None = None,
    pairing: Setup | None = None,
) -> TournamentRow:
    """Open a tournament (``/tournament new``); ``tournament.id`` is ignored. ``pairing``:
    run it from the chat, paired as set up (storage.pairings).

    Raises:
        Refused: a taken name or impossible fields (dates, rounds, board).
    """
    async with club_write(db, club_id(club)) as write:
        seq = await _create(
            write, tournament, notes=notes, actor=actor, chat=chat, pairing=pairing
        )
        return await _resolve(write.tx, write.club, seq)


async def import_tournament(
    db: Database,
    club: ClubRef,
    tournament: Tournament,
    *,
    players: Mapping[int, PlayerRef | NewPlayer],
    games: Sequence[Game],
    entries: Sequence[Entry] = (),
    actor: str,
    chat: str | None = None,
    notes: str | None = None,
    registered_on: dt.date | None = None,
) -> ImportResult:
    """Create a tournament, its new players, entries and all games in ONE transaction.

    Args:
        tournament: the tournament's facts (``id`` ignored).
        players: the file's player ids (as used by ``games`` and ``entries``) → an existing
            player of the club, or a :class:`NewPlayer` to register (``guest=True`` for a
            foreign player who is never ranked).
        games: the games with file player ids (ids, ``tournament`` ignored).
        entries: declared entry ranks by file player id; a player without one enters at
            their current rank.
        registered_on: the registration date of new players (default: the start date).

    Raises:
        Refused: a taken name or impossible fields of the tournament. BatchError: every
            problem found with its players, entries and games; nothing is written.
    """
    date = registered_on or tournament.start
    async with club_write(db, club_id(club)) as write:
        # the tournament's own fields (a taken name, impossible dates) are no item of the
        # batch: refused as they are, never as an item "#0"
        seq = await _create(write, tournament, notes=notes, actor=actor, chat=chat)
        known = await load_players(write.tx, write.club)
        index = NameIndex(known.values())
        mapping: dict[int, int] = {}
        created: list[Player] = []
        problems: list[tuple[int, str]] = []
        labels: list[str] = []  # what each problem's number counts (BatchError)
        async with write.batch():  # the new players dated before later games: one rebuild
            for number, spec in players.items():
                if isinstance(spec, NewPlayer):
                    try:
                        player = await register(
                            write, spec, date=date, actor=actor, chat=chat, index=index
                        )
                    except (EngineError, StorageError) as error:
                        problems.append((number, message_of(error)))
                        labels.append(Msg("player {name}", name=spec.name))
                        continue
                    created.append(player)
                    mapping[number] = player.id
                elif player_id(spec) in known:
                    mapping[number] = player_id(spec)
                else:
                    problems.append((number, Msg("there is no such player in this club")))
                    labels.append(Msg("player {number} of the file", number=number))
        for entry in entries:
            if entry.player not in mapping and entry.player not in players:
                problems.append((entry.player, Msg("an entry for a player not in the file")))
                labels.append(Msg("player {number} of the file", number=entry.player))
        remapped: list[Game] = []
        for number, game in enumerate(games, start=1):
            if game.black not in mapping or game.white not in mapping:
                if game.black not in players or game.white not in players:
                    problems.append((number, Msg("a player is not in the file")))
                    labels.append(Msg("game {number} of the file", number=number))
                continue
            remapped.append(
                dataclasses.replace(
                    game, black=mapping[game.black], white=mapping[game.white], tournament=seq
                )
            )
        if problems:
            raise BatchError(problems, labels)
        context = await Context.load(write.tx, write.club, remapped)
        by_id = await players_by_id(
            write.tx, write.club, [mapping[e.player] for e in entries], context.overlay.undone
        )
        for entry in entries:
            player = by_id[mapping[entry.player]]
            await add_entry_row(
                write,
                seq,
                player,
                entry.rank,
                registered=not player.guest,
                actor=actor,
                chat=chat,
                country=entry.country,
                criteria=entry.criteria,
                byes=entry.byes,
                administrative=entry.administrative,
                colourless=entry.colourless,
                pro=entry.pro,
            )
            context.entered.setdefault(seq, set()).add(player.id)
        problems = [
            (number, "; ".join(found))
            for number, game in enumerate(remapped, start=1)
            if (found := context.problems(game))
        ]
        if problems:
            raise BatchError(
                problems, [Msg("game {number} of the file", number=n) for n, _ in problems]
            )
        ids = []
        for game in remapped:
            stored, _ = await insert_game(write, context, game, actor=actor, chat=chat)
            ids.append(stored.id)
        rows = await game_rows(write.tx, write.club, ids)
        row = await _resolve(write.tx, write.club, seq)
    return ImportResult(row, tuple(created), tuple(rows))


async def add_entry(
    db: Database,
    club: ClubRef,
    ref: TournamentRef,
    player: PlayerRef,
    rank: Rank,
    *,
    actor: str,
    chat: str | None = None,
    country: str | None = None,
) -> None:
    """Enter a player in an open tournament with a declared rank (a later entry replaces it).

    Raises:
        Refused: the tournament is finalised. NotFound: unknown player or tournament.
    """
    async with club_write(db, club_id(club)) as write:
        row = await _resolve(write.tx, write.club, ref)
        if row.finalised:
            raise Refused(
                Msg(
                    "{name} is already finalised; reopen it to change it", name=row.tournament.name
                )
            )
        known = (await load_players(write.tx, write.club)).get(player_id(player))
        if known is None:
            raise NotFound(
                Msg("there is no player {player} in this club", player=player_id(player))
            )
        await add_entry_row(
            write,
            row.id,
            known,
            rank,
            registered=not known.guest,
            actor=actor,
            chat=chat,
            country=country,
        )


async def finalise_tournament(
    db: Database, club: ClubRef, ref: TournamentRef, *, actor: str, chat: str | None = None
) -> list[Change]:
    """Rate a tournament at its end date in the club's calendar (rules.md §1.4, and top:
    calendar order); every rating after that date is recomputed.

    Returns:
        The rating changes under the club's current system.

    Raises:
        Refused: it is already finalised (reopen it first).
        EngineError: the club's system refuses it; nothing is written.
    """
    async with club_write(db, club_id(club)) as write:
        row = await _resolve(write.tx, write.club, ref)
        if row.finalised:
            if row.finalised_at:
                raise Refused(
                    Msg(
                        "{name} was already finalised on {day}; reopen it to rate it again",
                        name=row.tournament.name,
                        day=f"{row.finalised_at:%Y-%m-%d}",
                    )
                )
            raise Refused(
                Msg(
                    "{name} was already finalised; reopen it to rate it again",
                    name=row.tournament.name,
                )
            )
        # the club's day it is finalised on: the days before it have ended (rules.md §2.3)
        today = await club_today(write)
        seq = await write.event(
            log.FINALISE,
            actor=actor,
            chat=chat,
            target=row.id,
            payload={"on": today.isoformat()},
        )
        event = await tournament_rated(write.tx, row.id, await overlays.load(write.tx, write.club))
        return await write.apply(seq, event)


async def reopen_tournament(
    db: Database, club: ClubRef, ref: TournamentRef, *, actor: str, chat: str | None = None
) -> TournamentRow:
    """Take a tournament's rating back so that it can be changed and finalised again.

    Raises:
        Refused: it is not finalised.
    """
    async with club_write(db, club_id(club)) as write:
        row = await _resolve(write.tx, write.club, ref)
        if not row.finalised:
            raise Refused(
                Msg(
                    "{name} is not finalised, so there is nothing to reopen",
                    name=row.tournament.name,
                )
            )
        await write.event(log.REOPEN, actor=actor, chat=chat, target=row.id)
        await write.rebuild(since=start_of(row.tournament.start))
        return await _resolve(write.tx, write.club, row.id)


async def amend_tournament(
    db: Database,
    club: ClubRef,
    ref: TournamentRef,
    *,
    actor: str,
    chat: str | None = None,
    **changes: Any,
) -> TournamentRow:
    """Change a tournament's facts (e.g. set the multiplier C by hand, rules.md §1.2 §6(2)).

    A finalised tournament is re-rated at its place in history.

    Raises:
        Refused: an unknown field, impossible values, or a taken name.
        EngineError: the club's system refuses the changed tournament; nothing is written.
    """
    unknown = set(changes) - AMENDABLE
    if unknown:
        raise Refused(
            Msg(
                "cannot change {unknown} of a tournament; changeable: {changeable}",
                unknown=", ".join(sorted(unknown)),
                changeable=", ".join(sorted(AMENDABLE)),
            )
        )
    async with club_write(db, club_id(club)) as write:
        row = await _resolve(write.tx, write.club, ref)
        amended = dataclasses.replace(row.tournament, **changes)
        problems = _problems(amended)
        if problems:
            raise Refused(joined(problems))
        if fold(amended.name) != fold(row.tournament.name):
            folded = await overlays.load(write.tx, write.club)
            for existing in await _rows(write.tx, write.club, folded):
                if fold(existing.tournament.name) == fold(amended.name):
                    raise Refused(
                        Msg("there is already a tournament called {name!r}", name=amended.name)
                    )
        before, after = tournament_columns(row.tournament), tournament_columns(amended)
        diff = {column: value for column, value in after.items() if before[column] != value}
        if not diff:
            raise Refused(
                Msg("nothing to change: {name} already has those values", name=row.tournament.name)
            )
        await write.event(
            log.AMEND, actor=actor, chat=chat, target=row.id, payload={"changes": diff}
        )
        if row.finalised_seq is not None:  # re-rated at its (possibly new) end date
            day = min(row.tournament.start, amended.start)
            await write.rebuild(strict={row.id}, since=start_of(day))
        return await _resolve(write.tx, write.club, row.id)
