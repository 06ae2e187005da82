"""Games: recording (one or a batch), confirming reports, and reading them back."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from engine.errors import EngineError
from engine.formats.csv_tables import format_result
from engine.formats.messages import joined, message_of
from engine.ranks import Rank
from engine.system import Card, Change
from engine.text import Msg
from engine.timecontrol import TimeControl
from engine.types import ByeKind, Game, GamePlayed, Outcome, Result, Tournament
from storage import game_files, log
from storage import overlay as overlays
from storage.backend import Database, Row
from storage.codec import (
    dumps,
    encode,
    entry_rank_text,
    komi_half_points,
    result_text,
    time_text,
)
from storage.common import ClubRef, PlayerRef, club_id, player_id
from storage.errors import BatchError, NotFound, Refused, StorageError
from storage.events import settle_ended
from storage.history import GAME_COLUMNS, GAME_SELECT, TOURNAMENT_SELECT, effective_game
from storage.history import effective_tournament as _effective_tournament
from storage.log import LOG_COLUMNS, Reader, entry_from
from storage.overlay import Overlay
from storage.players import some_players
from storage.projections import ClubWrite, club_write
from storage.records import (
    GAME_OK,
    GAME_PENDING,
    GAME_UNDONE,
    GAME_VOIDED,
    GameRow,
    Player,
    Recorded,
    Settled,
    gone_game,
)

GAME_NUMBER = "(SELECT COALESCE(MAX(number), 0) + 1 FROM games WHERE club = ?)"
"""A new game's club number (#1, #2, …): one more than the club's highest, never reused."""
TOURNAMENT_NUMBER = "(SELECT COALESCE(MAX(number), 0) + 1 FROM tournaments WHERE club = ?)"
"""A new tournament's club number, as :data:`GAME_NUMBER` for games."""

GAME_INSERT = (
    f"INSERT INTO games (club, pending, {', '.join(GAME_COLUMNS)}, number) "
    f"VALUES ({', '.join('?' for _ in range(len(GAME_COLUMNS) + 2))}, {GAME_NUMBER})"
)
"""Parameters: the club, pending, the :data:`GAME_COLUMNS` values, the club again (for the
number)."""


def game_columns(game: Game) -> dict[str, Any]:
    """A game's stored column values (komi in half points, dates and time as text)."""
    return {
        "seq": game.id,
        "black": game.black,
        "white": game.white,
        "result": result_text(game.result),
        "date": game.date.isoformat(),
        "stones": game.stones,
        "komi2": komi_half_points(game.komi),
        "played": int(game.played),
        "board": game.board,
        "time": time_text(game.time),
        "tournament": game.tournament,
        "round": game.round,
        "arranged": int(game.arranged),
        "counts_as_tournament": int(game.counts_as_tournament),
        "pair_go": int(game.pair_go),
        "reported": None if game.reported is None else game.reported.isoformat(),
        "margin": game.margin,
    }


Slot = tuple[int, int, int]
"""A player's place in a tournament round: ``(tournament, round, player)``."""


class Context:
    """What validating games needs, loaded once per write: players, overlay, tournaments,
    and which player already has a game in which round (``rounds``: slot → (game id, what)).
    """

    def __init__(
        self,
        players: dict[int, Player],
        overlay: Overlay,
        tournaments: dict[int, Tournament],
        entered: dict[int, set[int]],
        rounds: dict[Slot, tuple[int, str]] | None = None,
    ):
        self.players = players
        self.overlay = overlay
        self.tournaments = tournaments
        self.entered = entered
        self.rounds = rounds if rounds is not None else {}
        self.inserted: dict[int, Row] = {}  # games inserted by this write, as _ROW_SELECT reads
        self.batch = 0  # games of this write checked so far (for "game N of this batch")
        self.labels: Sequence[str] = ()  # how messages name the batch's games (e.g. "line 3")

    @classmethod
    async def load(cls, reader: Reader, club: int, games: Sequence[Game]) -> Context:
        """What checking ``games`` needs: their players, tournaments and entries only."""
        folded = await overlays.load(reader, club)
        ids = {player for game in games for player in (game.black, game.white)}
        wanted = sorted({game.tournament for game in games if game.tournament is not None})
        tournaments: dict[int, Tournament] = {}
        entered: dict[int, set[int]] = {}
        for tournament in wanted:
            found = await reader.fetchone(
                f"SELECT {TOURNAMENT_SELECT} FROM tournaments WHERE club = ? AND seq = ?",
                (club, tournament),
            )
            if found is None:
                continue
            tournaments[tournament] = _effective_tournament(found, folded)
            entered[tournament] = {
                player
                for seq, player in await reader.fetchall(
                    "SELECT seq, player FROM tournament_entries WHERE tournament = ?",
                    (tournament,),
                )
                if seq not in folded.undone
            }
        # the games already in the rounds these games are for (one game a player a round):
        # only those rounds are read, not a 300-player tournament's every game each time,
        # and the games a correction moved to another round
        wanted_rounds = {
            (g.tournament, g.round)
            for g in games
            if g.tournament in tournaments and g.round is not None
        }
        seqs = {game for game, changes in folded.corrections.items() if "round" in changes}
        for tournament, round_ in sorted(wanted_rounds):
            seqs.update(
                seq
                for (seq,) in await reader.fetchall(
                    "SELECT seq FROM games WHERE tournament = ? AND round = ?",
                    (tournament, round_),
                )
            )
        played = [
            stored
            for stored in await game_rows(reader, club, sorted(seqs), folded)
            if stored.status in (GAME_OK, GAME_PENDING)
            and (stored.game.tournament, stored.game.round) in wanted_rounds
        ]
        ids |= {player for game in played for player in (game.game.black, game.game.white)}
        players = await some_players(reader, club, ids, folded.undone)
        context = cls(players, folded, tournaments, entered)
        for earlier in played:
            context.claim(
                earlier.game,
                Msg(
                    "#{number} {game}", number=earlier.number, game=context.describe(earlier.game)
                ),
            )
        return context

    def describe(self, game: Game) -> str:
        """``Nagy Péter (B) – Kovács Anna (W), B+R`` for messages."""
        result = format_result(game.result, game.played, game.margin)
        return f"{self.name(game.black)} (B) – {self.name(game.white)} (W), {result}"

    def claim(self, game: Game, what: str) -> None:
        """Mark the round of a tournament game as taken by ``game`` for both its players."""
        if game.tournament is None or game.round is None:
            return
        for player in (game.black, game.white):
            self.rounds[(game.tournament, game.round, player)] = (game.id, what)

    def _round_problems(self, game: Game, tournament: Tournament) -> list[str]:
        """A player has one game a round (formats.md: one round token per player and round;
        OpenGotha: one game or bye a round)."""
        if game.round is None:
            return []
        found: list[str] = []
        for player in (game.black, game.white):
            taken = self.rounds.get((tournament.id, game.round, player))
            if taken is not None and (game.id == 0 or taken[0] != game.id):
                found.append(
                    Msg(
                        "{player} already has a game in round {round} of {name}: {taken}; a "
                        "player plays one game a round (void or correct that game first)",
                        player=self.name(player),
                        round=game.round,
                        name=tournament.name,
                        taken=taken[1],
                    )
                )
        return found

    def name(self, player: int) -> str:
        """A player's name for messages (the id when unknown)."""
        known = self.players.get(player)
        return known.name if known is not None else Msg("player {player}", player=player)

    def problems(
        self, game: Game, *, pending: bool = False, correcting: bool = False
    ) -> list[str]:
        """Everything wrong with recording ``game`` in this club (empty: fine).

        ``correcting``: the game is already stored and being corrected, so a finalised
        tournament does not stop it.
        """
        self.batch += 1
        found: list[str] = []
        for player in (game.black, game.white):
            known = self.players.get(player)
            if known is None:
                found.append(Msg("there is no player {player} in this club", player=player))
            elif known.guest and game.tournament is None:
                found.append(
                    Msg(
                        "{name} is a tournament guest, not a registered player of the club",
                        name=known.name,
                    )
                )
        try:
            komi_half_points(game.komi)
        except Refused as error:
            found.append(message_of(error))
        if game.board < 2:
            found.append(
                Msg("the board size must be a number like 19 or 13, not {board}", board=game.board)
            )
        if game.tournament is not None:
            tournament = self.tournaments.get(game.tournament)
            if tournament is None:
                found.append(
                    Msg(
                        "there is no tournament {tournament} in this club",
                        tournament=game.tournament,
                    )
                )
            else:
                if game.tournament in self.overlay.finalised and not correcting:
                    found.append(
                        Msg(
                            "{name} is already finalised; reopen it to add games",
                            name=tournament.name,
                        )
                    )
                if game.round is not None and not 1 <= game.round <= tournament.rounds:
                    found.append(
                        Msg(
                            "round {round} is outside {name}'s rounds 1–{rounds}",
                            round=game.round,
                            name=tournament.name,
                            rounds=tournament.rounds,
                        )
                    )
                found.extend(self._round_problems(game, tournament))
        elif game.round is not None:
            found.append(Msg("a round number needs a tournament"))
        if not found and not correcting and game.id == 0:  # later games of a batch see it
            label = (
                self.labels[self.batch - 1]
                if self.batch <= len(self.labels)
                else Msg("game {number} of this batch", number=self.batch)
            )
            self.claim(game, Msg("{label}, {game}", label=label, game=self.describe(game)))
        return found


def new_game(
    black: PlayerRef,
    white: PlayerRef,
    result: Result | None,
    *,
    stones: int,
    komi: Fraction | int,
    date: dt.date,
    played: bool = True,
    board: int = 19,
    time: TimeControl | None = None,
    tournament: int | None = None,
    round: int | None = None,
    arranged: bool = False,
    counts_as_tournament: bool = False,
    pair_go: bool = False,
    reported: dt.date | None = None,
    margin: str | None = None,
) -> Game:
    """A ``Game`` to record (id 0 until stored).

    Raises:
        Refused: a player against themselves, or stones outside 0–9.
    """
    try:
        return Game(
            0,
            player_id(black),
            player_id(white),
            result,
            date,
            stones,
            Fraction(komi),
            played,
            board,
            time,
            tournament,
            round,
            arranged,
            counts_as_tournament,
            pair_go,
            reported,
            margin,
        )
    except EngineError:
        raise
    except ValueError as error:
        raise Refused(message_of(error)) from None


async def ensure_entries(
    write: ClubWrite, context: Context, game: Game, *, actor: str, chat: str | None
) -> None:
    """Enter a tournament game's players who have no entry yet.

    A registered player enters without a declared rank: each system gives them the rank they
    had on the tournament's first day when it is rated (engine.types.Entry; rules.md, top:
    calendar order) — never the rank of the moment the game is typed, which would depend on
    what had been typed before. A guest enters with their declared rank.
    """
    if game.tournament is None:
        return
    entered = context.entered.setdefault(game.tournament, set())
    for player in (game.black, game.white):
        if player in entered:
            continue
        known = context.players[player]
        rank = known.rank if known.guest else None
        await add_entry_row(
            write, game.tournament, known, rank, registered=not known.guest, actor=actor, chat=chat
        )
        entered.add(player)


async def add_entry_row(
    write: ClubWrite,
    tournament: int,
    player: Player,
    rank: Rank | None,
    *,
    registered: bool,
    actor: str,
    chat: str | None,
    country: str | None = None,
    criteria: tuple[tuple[str, str], ...] = (),
    byes: tuple[tuple[int, ByeKind], ...] = (),
    administrative: tuple[tuple[int, Outcome], ...] = (),
    colourless: tuple[int, ...] = (),
    pro: int = 0,
) -> int:
    """Append a tournament entry (the rank a player entered with, ``None``: none declared;
    ``pro`` its N when a professional rank Np; the criteria, byes, administrative results
    and colourless games' rounds its results file gave, as canonical JSON, ``NULL`` for
    none)."""
    seq = await write.append(log.ENTRY, actor=actor, chat=chat)
    await write.tx.execute(
        "INSERT INTO tournament_entries "
        "(seq, club, tournament, player, rank, registered, country, criteria, byes, "
        "administrative, colourless, pro) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            seq,
            write.club,
            tournament,
            player.id,
            entry_rank_text(rank),
            int(registered),
            country if country is not None else player.country,
            dumps(encode(criteria)) if criteria else None,
            dumps(encode(byes)) if byes else None,
            dumps(encode(administrative)) if administrative else None,
            dumps(encode(colourless)) if colourless else None,
            pro,
        ),
    )
    return seq


async def insert_game(
    write: ClubWrite,
    context: Context,
    game: Game,
    *,
    pending: bool = False,
    actor: str,
    chat: str | None,
) -> tuple[Game, list[Change]]:
    """Append a game; a club game not pending is applied to the ledgers at once.

    Returns:
        The stored game (its id is its seq) and the current system's changes.
    """
    await ensure_entries(write, context, game, actor=actor, chat=chat)
    seq = await write.append(log.GAME, actor=actor, chat=chat)
    stored = dataclasses.replace(game, id=seq)
    entry = write.tx.last_entry
    columns = game_columns(stored)
    inserted = await write.tx.fetchone(
        f"{GAME_INSERT} RETURNING {GAME_RETURNING}",
        (write.club, int(pending), *(columns[c] for c in GAME_COLUMNS), write.club),
    )
    assert inserted is not None and entry is not None and entry[0] == seq
    context.inserted[seq] = (*inserted[:-1], *entry, inserted[-1])  # as _ROW_SELECT reads it
    changes: list[Change] = []
    if game.tournament is None and not pending:
        changes = await write.apply(seq, GamePlayed(stored))
    return stored, changes


async def record_game(
    db: Database,
    club: ClubRef,
    game: Game,
    *,
    actor: str,
    chat: str | None = None,
    pending: bool = False,
    sgf: int | None = None,
) -> Recorded:
    """Record one game value (built with :func:`new_game`; ``/result``) in one transaction; a
    club game is rated at once.

    ``pending`` stores a player's own report that waits for :func:`confirm_game`; a game in
    an open tournament is rated when the tournament is finalised. ``sgf``: the kept file
    (storage.game_files) the game was read from, named in the same transaction.

    Returns:
        What changed: the stored row, and the current system's changes and the two players'
        cards before and after (:class:`~storage.records.Recorded`).

    Raises:
        Refused: unknown players or tournament, a finalised tournament, bad values.
        EngineError: the club's rating system refuses the game; nothing is written.
    """
    async with club_write(db, club_id(club)) as write:
        context = await Context.load(write.tx, write.club, [game])
        problems = context.problems(game, pending=pending)
        if problems:
            raise Refused(joined(problems))
        before = _current_cards(write, (game.black, game.white))
        stored, changes = await insert_game(
            write, context, game, pending=pending, actor=actor, chat=chat
        )
        if sgf is not None:
            await game_files.attach(write.tx, write.club, stored.id, sgf)
        settled = Settled()
        if game.tournament is None and not pending:  # rules.md §2.3, §1.4: late reports
            settled = await settle_ended(write, [game.date], actor=actor, chat=chat)
        after = _current_cards(write, (game.black, game.white))
        folded = await overlays.load(write.tx, write.club)
        row = _game_row(context.inserted[stored.id], folded)  # as game_row() reads it
        system = write.ledgers.current
        settled = settled.under(write.ledgers.system.scheduled)
    assert row is not None
    return Recorded(row, system, tuple(changes), before, after, settled)


def _current_cards(write: ClubWrite, players: Sequence[int]) -> dict[int, Card]:
    """The players' cards under the club's current system (those it knows)."""
    system = write.ledgers.system
    cards = {}
    for player in players:
        with contextlib.suppress(KeyError):  # card(): KeyError for a player it does not know
            cards[player] = system.card(player)
    return cards


async def record_games(
    db: Database,
    club: ClubRef,
    games: Sequence[Game],
    *,
    actor: str,
    chat: str | None = None,
) -> list[GameRow]:
    """Record a batch of games (ids ignored): all of them, or none.

    Raises:
        BatchError: naming every bad game by its 1-based number; nothing is written.
    """
    async with club_write(db, club_id(club)) as write:
        context = await Context.load(write.tx, write.club, games)
        problems = [
            (number, "; ".join(found))
            for number, game in enumerate(games, start=1)
            if (found := context.problems(game))
        ]
        if problems:
            raise BatchError(problems)
        ids = []
        for number, game in enumerate(games, start=1):
            try:
                stored, _ = await insert_game(write, context, game, actor=actor, chat=chat)
            except (EngineError, StorageError) as error:
                raise BatchError([(number, message_of(error))]) from error
            ids.append(stored.id)
        days = [game.date for game in games if game.tournament is None]
        await settle_ended(write, days, actor=actor, chat=chat)  # rules.md §2.3, late reports
        rows = await game_rows(write.tx, write.club, ids)
    return rows


async def check_games(
    db: Database, club: ClubRef, games: Sequence[Game], labels: Sequence[str] = ()
) -> list[tuple[int, str]]:
    """What :func:`record_games` would refuse, without writing: ``(number, message)`` for
    every bad game (1-based), each message naming the player, round and other game of a
    second game in a round; ``labels`` name the batch's games in messages (``line 3``)."""
    context = await Context.load(db, club_id(club), games)
    context.labels = labels
    return [
        (number, "; ".join(found))
        for number, game in enumerate(games, start=1)
        if (found := context.problems(game))
    ]


async def confirm_game(
    db: Database, club: ClubRef, game: int, *, actor: str, chat: str | None = None
) -> GameRow:
    """Confirm a player's pending report: from now on it counts (rated at the confirmation).

    Raises:
        NotFound: no such game. Refused: the game is not pending.
        EngineError: the club's system refuses it; nothing is written.
    """
    async with club_write(db, club_id(club)) as write:
        row = await game_row(write.tx, write.club, game)
        if row is None:
            raise NotFound(Msg("there is no such game in this club"))  # never its internal id
        if row.status != GAME_PENDING:
            if row.status == GAME_OK:
                raise Refused(Msg("game #{number} is already confirmed", number=row.number))
            raise Refused(gone_game(row.number, row.status))
        if row.game.tournament is not None:  # rated with its tournament (history.COUNTED)
            folded = await overlays.load(write.tx, write.club)
            if row.game.tournament in folded.finalised:
                raise Refused(
                    Msg(
                        "its tournament is already finalised; an organiser reopens it to add "
                        "game #{number}",
                        number=row.number,
                    )
                )
            await write.event(log.CONFIRM, actor=actor, chat=chat, target=game)
            confirmed = await game_row(write.tx, write.club, game)
            assert confirmed is not None
            return confirmed
        seq = await write.event(log.CONFIRM, actor=actor, chat=chat, target=game)
        await write.apply(seq, GamePlayed(row.game))
        # a report of a day that has ended is settled as it is confirmed (§2.3, late reports)
        await settle_ended(write, [row.game.date], actor=actor, chat=chat)
        confirmed = await game_row(write.tx, write.club, game)
    assert confirmed is not None
    return confirmed


# ---------------------------------------------------------------- reading games back

GAME_RETURNING = f"{', '.join(GAME_COLUMNS)}, pending, number"
"""What an inserted game's row returns: :data:`_ROW_SELECT`'s columns of ``games``."""
_ROW_SELECT = (
    f"SELECT {GAME_SELECT}, games.pending, {LOG_COLUMNS}, games.number FROM games "
    "JOIN log ON log.seq = games.seq"
)
_PENDING = len(GAME_COLUMNS)


def row_status(seq: int, pending: bool, folded: Overlay) -> str:
    """A game's status: undone, voided, pending or ok."""
    if seq in folded.undone:
        return GAME_UNDONE
    if seq in folded.voided:
        return GAME_VOIDED
    if pending and seq not in folded.confirmed:
        return GAME_PENDING
    return GAME_OK


async def rated_day(reader: Reader, game: Game, pending: bool, folded: Overlay) -> dt.date | None:
    """The first calendar day a change of the game rewrites (``None``: it is not rated yet):
    a club game's date, a tournament game's tournament's start (it is rated at its end date,
    its players' registrations may sit at its start; rules.md, top: calendar order)."""
    if game.tournament is not None:
        if game.tournament not in folded.finalised:
            return None
        row = await reader.fetchone(
            f"SELECT {TOURNAMENT_SELECT} FROM tournaments WHERE seq = ?", (game.tournament,)
        )
        assert row is not None
        return _effective_tournament(row, folded).start
    if pending and game.id not in folded.confirmed:
        return None
    return game.date


def _game_row(row: tuple[Any, ...], folded: Overlay) -> GameRow:
    return GameRow(
        game=effective_game(row, folded),
        status=row_status(row[0], row[_PENDING] == 1, folded),
        corrected=row[0] in folded.corrections,
        entry=entry_from(row, _PENDING + 1),
        number=row[-1],
    )


async def game_rows(
    reader: Reader, club: int, ids: Sequence[int], folded: Overlay | None = None
) -> list[GameRow]:
    """The given games of the club, in the order of ``ids`` (unknown ids left out)."""
    folded = folded or await overlays.load(reader, club)
    found: dict[int, GameRow] = {}
    for start in range(0, len(ids), 500):
        part = list(ids[start : start + 500])
        marks = ", ".join("?" for _ in part)
        for row in await reader.fetchall(
            f"{_ROW_SELECT} WHERE games.club = ? AND games.seq IN ({marks})", (club, *part)
        ):
            found[row[0]] = _game_row(row, folded)
    return [found[i] for i in ids if i in found]


async def game_by_number(db: Database, club: ClubRef, number: int) -> GameRow | None:
    """The club's game #``number`` (the number members see), or ``None``."""
    cid = club_id(club)
    found = await db.fetchone("SELECT seq FROM games WHERE club = ? AND number = ?", (cid, number))
    return None if found is None else await game_row(db, cid, found[0])


async def game_row(reader: Reader, club: int, game: int) -> GameRow | None:
    """One game of the club, or ``None``."""
    rows = await game_rows(reader, club, [game])
    return rows[0] if rows else None


async def raw_pending(reader: Reader, game: int) -> bool:
    """Whether a game was stored as a pending report (confirmed or not)."""
    row = await reader.fetchone("SELECT pending FROM games WHERE seq = ?", (game,))
    return row is not None and row[0] == 1


async def game(db: Database, club: ClubRef, game_id: int) -> GameRow | None:
    """One game of the club, with its status (``ok``/``voided``/``undone``/``pending``)."""
    return await game_row(db, club_id(club), game_id)


async def games_of(
    db: Database, club: ClubRef, player: PlayerRef, limit: int | None = 20
) -> list[GameRow]:
    """The player's games, newest first (voided and undone ones too, marked by status).

    A correction that changed the players is followed: the game counts for its current
    players.
    """
    cid, pid = club_id(club), player_id(player)
    folded = await overlays.load(db, cid)
    candidates = await game_ids_of(db, cid, pid, folded)
    rows = [
        row
        for row in await game_rows(db, cid, sorted(candidates, reverse=True), folded)
        if pid in (row.game.black, row.game.white)
    ]
    return rows if limit is None else rows[:limit]


async def game_ids_of(reader: Reader, club: int, player: int, folded: Overlay) -> set[int]:
    """Every game the player was ever a player of: stored as black or white, or put in by a
    correction (a correction may also have taken them out: check each game's row)."""
    stored = await reader.fetchall(
        "SELECT seq FROM games INDEXED BY games_black WHERE black = ? AND club = ? UNION "
        "SELECT seq FROM games INDEXED BY games_white WHERE white = ? AND club = ?",
        (player, club, player, club),
    )
    return {seq for (seq,) in stored} | folded.moved_to(player)


async def games_of_both(
    reader: Reader, club: int, black: int, white: int, folded: Overlay
) -> set[int]:
    """Every game both players were ever players of (:func:`game_ids_of` of each, in one
    query)."""
    stored = await reader.fetchall(
        "SELECT seq, black, white FROM games INDEXED BY games_black WHERE black IN (?, ?) "
        "AND club = ? UNION SELECT seq, black, white FROM games INDEXED BY games_white "
        "WHERE white IN (?, ?) AND club = ?",
        (black, white, club, black, white, club),
    )
    found: dict[int, set[int]] = {black: set(), white: set()}
    for seq, *players in stored:
        for player in players:
            if player in found:
                found[player].add(seq)
    return (found[black] | folded.moved_to(black)) & (found[white] | folded.moved_to(white))


def _side(game: Game) -> tuple[bool, int | str | None]:
    """Who won, from the players' side (the winner's id, ``jigo``, ``None`` unknown), and
    whether it was played: the same for a game entered with the colours either way."""
    if game.result is Result.BLACK:
        return game.played, game.black
    if game.result is Result.WHITE:
        return game.played, game.white
    return game.played, None if game.result is None else "jigo"


def looks_the_same(a: Game, b: Game) -> bool:
    """Whether ``b`` looks like ``a`` entered again: the same two players (colours either
    way), date, winner (or jigo, or unknown) and played or not; margins, when both games
    name one, must agree (B+R and B+3.5 are two games)."""
    return (
        {a.black, a.white} == {b.black, b.white}
        and a.date == b.date
        and _side(a) == _side(b)
        and (a.margin is None or b.margin is None or a.margin == b.margin)
    )


async def same_games(db: Database, club: ClubRef, game: Game) -> list[GameRow]:
    """The club's live games (recorded or awaiting confirmation) that look like ``game``
    entered again (:func:`looks_the_same`), oldest first: a game reported twice, or a report
    and an organiser's entry of the same game."""
    cid = club_id(club)
    folded = await overlays.load(db, cid)
    candidates = await games_of_both(db, cid, game.black, game.white, folded)
    return [
        row
        for row in await game_rows(db, cid, sorted(candidates), folded)
        if row.status in (GAME_OK, GAME_PENDING) and looks_the_same(game, row.game)
    ]


async def recorded_already(
    db: Database, club: ClubRef, games: Sequence[Game]
) -> list[tuple[int, tuple[GameRow, ...]]]:
    """The games of a batch that look like live games of the club entered again
    (:func:`looks_the_same`): ``(number, look-alikes)`` with 1-based numbers in ``games``
    order and the look-alikes oldest first; a file imported twice (issue 22, item 1).

    The overlay, each player's games and the candidate rows are read once for the batch."""
    cid = club_id(club)
    folded = await overlays.load(db, cid)
    games_of_player: dict[int, set[int]] = {}
    for game in games:
        for player in (game.black, game.white):
            if player not in games_of_player:
                games_of_player[player] = await game_ids_of(db, cid, player, folded)
    candidates = [games_of_player[g.black] & games_of_player[g.white] for g in games]
    rows = {
        row.id: row
        for row in await game_rows(db, cid, sorted(set[int]().union(*candidates)), folded)
        if row.status in (GAME_OK, GAME_PENDING)
    }
    found = []
    for number, (game, ids) in enumerate(zip(games, candidates, strict=True), start=1):
        alike = tuple(
            rows[seq]
            for seq in sorted(ids)
            if seq in rows and looks_the_same(game, rows[seq].game)
        )
        if alike:
            found.append((number, alike))
    return found


async def club_games(db: Database, club: ClubRef) -> list[GameRow]:
    """Every game of the club in date order, then entry (for export; rules.md, top)."""
    cid = club_id(club)
    folded = await overlays.load(db, cid)
    rows = await db.fetchall(f"{_ROW_SELECT} WHERE games.club = ? ORDER BY games.seq", (cid,))
    found = [_game_row(row, folded) for row in rows]
    found.sort(key=lambda row: row.game.date)  # stable: a day's games stay in entry order
    return found


async def tournament_games(db: Database, club: ClubRef, tournament: int) -> list[GameRow]:
    """A tournament's games by round, then entry (voided and undone ones too, marked by
    status): its page on the web (issue 14), read by the ``games_tournament`` index."""
    cid = club_id(club)
    folded = await overlays.load(db, cid)
    rows = await db.fetchall(
        f"{_ROW_SELECT} WHERE games.club = ? AND games.tournament = ? ORDER BY games.seq",
        (cid, tournament),
    )
    found = [_game_row(row, folded) for row in rows]
    found.sort(key=lambda row: row.game.round or 0)  # stable: a round's games in entry order
    return found


async def pending_games(db: Database, club: ClubRef) -> list[GameRow]:
    """Player reports still waiting for confirmation, oldest first."""
    cid = club_id(club)
    folded = await overlays.load(db, cid)
    rows = await db.fetchall(
        f"{_ROW_SELECT} WHERE games.club = ? AND games.pending = 1 ORDER BY games.seq", (cid,)
    )
    return [r for r in (_game_row(row, folded) for row in rows) if r.status == GAME_PENDING]
