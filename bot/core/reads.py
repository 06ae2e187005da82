"""The web's read port: what the club pages show, read through the core (issue 14; issue 24,
build item 2).

STYLE.md, Lessons round 2: "adapters reach the core through a small facade, never storage".
The web (``bot/web/``) is such an adapter: it renders, and this module reads. Each function
here is what one page (or the static export, or ``/healthz``) needs, named after what it
returns, and calls the same storage functions the page called itself — no page makes an extra
query. Where a page decided something from several reads (which players the ranking lists,
a player's record against each opponent, a tournament's places, which clubs are on the web)
the decision is made here, once, and the page only writes it out. ``bot/web`` imports this
module and :mod:`bot.core.facade`, never ``storage`` (tests/bot/test_imports.py).

The record types the pages render are re-exported (:class:`Player`, :class:`Standing`,
:class:`GameRow` …); the :class:`Club` and :class:`Database` every adapter handles come from
:mod:`bot.core.facade`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

import storage
from bot.core import exporting, rounds
from bot.core.crosstable import Crosstable
from bot.core.exporting import club_activity
from bot.core.handlers.sgf import safe_file_name
from engine.formats import fold_name
from engine.formats.tournament_file import entry_wins, places
from engine.ranks import Rank
from engine.system import Activity, Card, HandicapAdvice, RatingSystem, Value
from engine.types import Entry, Result
from storage.db import Database
from storage.errors import StorageError
from storage.game_files import file_of_game, games_with_files
from storage.games import tournament_games
from storage.health import PING_TIMEOUT_S, DatabaseState, database_state
from storage.pairings import Setup
from storage.projections import ledger_if_cheap
from storage.records import (
    GAME_OK,
    Club,
    Export,
    GameRow,
    HistoryRow,
    Player,
    Standing,
    TournamentChanges,
    TournamentRow,
)
from storage.settings import ClubSettings, web_on

__all__ = [
    "GAME_OK",
    "PING_TIMEOUT_S",
    "SGF_MEDIA_TYPE",
    "BoardGame",
    "ClubSettings",
    "DatabaseState",
    "Export",
    "GameRow",
    "GameSgf",
    "HeadToHead",
    "HistoryRow",
    "Player",
    "RankingList",
    "Record",
    "RoundBoards",
    "Setup",
    "Shown",
    "Standing",
    "TournamentChanges",
    "TournamentResults",
    "TournamentRounds",
    "TournamentRow",
    "TournamentSummary",
    "data_version",
    "database_state",
    "export",
    "game_sgf",
    "handicap",
    "head_to_head",
    "ledger",
    "meetings",
    "opponents",
    "outcome",
    "page_players",
    "placed_card",
    "player",
    "player_sgf_games",
    "ranking_list",
    "rating_history",
    "shown_club",
    "tournament_h9",
    "tournament_list",
    "tournament_results",
    "tournament_rounds",
    "tournaments",
    "web_clubs",
    "with_sgf",
]


# --- the clubs on the web ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shown:
    """A club with its settings, as the pages show it."""

    club: Club
    settings: ClubSettings

    @property
    def system(self) -> str:
        return self.settings.system or self.club.system

    @property
    def activity(self) -> Activity:
        """Who counts as active: the club's system asked with the club's own settings
        (``psg.inactive_months``), the rule the exports use too."""
        return club_activity(self.settings, self.system)


async def shown_club(db: Database, club_id: int) -> Shown | None:
    """The club whose pages are on the web (``/club web on``); ``None`` for an unknown club
    or one that keeps its pages off — the web never shows its data."""
    if not await web_on(db, club_id):  # one statement, unknown or off alike (issue 26)
        return None
    club = await storage.get_club(db, club_id)
    if club is None:
        return None
    return Shown(club, await storage.club_settings(db, club))


async def web_clubs(db: Database) -> list[Shown]:
    """Every club whose pages are on, by name (the site's front page, ``hoshi site``)."""
    found = [s for c in await storage.clubs(db) if (s := await shown_club(db, c.id)) is not None]
    return sorted(found, key=lambda s: fold_name(s.club.name))


async def data_version(db: Database, club: Club) -> tuple[object, ...]:
    """What everything read of the club depends on (storage.queries.data_version): a page
    kept under an equal version is still the page (the web's PageCache)."""
    return await storage.data_version(db, club)


# --- the ranking list -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RankingList:
    """The ranking page's rows: ``standings`` is the whole list in order (its length is the
    page's total; every row's rating label decides the headings), ``listed`` the rows the page
    shows — each with its index in ``standings`` and whether the player is active —
    ``active_count`` how many of the whole list are active, and ``changes`` each player's
    (before, after) since the first of the month (``before`` ``None``: new this month)."""

    standings: list[Standing]
    listed: list[tuple[int, Standing, bool]]
    active_count: int
    changes: dict[int, tuple[Value, Value]]
    since: dt.date


async def ranking_list(
    db: Database, shown: Shown, today: dt.date, *, everyone: bool = False, query: str = ""
) -> RankingList:
    """The ranking list on ``today``: the active players by the system's own rule (engine
    Activity, :attr:`Shown.activity`), or ``everyone``; ``query`` keeps the names containing
    it (accents and case ignored)."""
    standings = await storage.standings(db, shown.club)
    since = today.replace(day=1)
    changes = await storage.month_changes(db, shown.club, since)
    activity = shown.activity
    wanted = fold_name(query)
    listed: list[tuple[int, Standing, bool]] = []
    active_count = 0
    for index, standing in enumerate(standings):
        active = activity.active(standing.card.last_played, standing.player.date, today)
        active_count += active
        if not (everyone or active):
            continue
        if wanted and wanted not in fold_name(standing.player.name):
            continue
        listed.append((index, standing, active))
    return RankingList(standings, listed, active_count, changes, since)


# --- a player ---------------------------------------------------------------------------------


async def player(db: Database, club: Club, pid: int) -> Player | None:
    """One player of the club (guests too), or ``None``."""
    return await storage.get_player(db, club, pid)


async def page_players(db: Database, club: Club) -> list[Player]:
    """Everyone with a page: the club's players and its tournaments' guests, in registration
    order."""
    return await storage.players(db, club, guests=True)


async def placed_card(db: Database, club: Club, pid: int) -> tuple[Card | None, int | None, int]:
    """The player's card, place in the ranking list (``None``: not in it) and the list's
    length; no card (``None``, ``None``, 0) for a player the projections have none of."""
    try:
        return await storage.placed_card(db, club, pid)
    except StorageError:
        return None, None, 0


async def ledger(db: Database, club: Club, limit: int) -> RatingSystem | None:
    """The club's ledger (promotion progress, handicaps) when it costs little: kept current
    in this process, or at most ``limit`` games to replay; else ``None`` — a page never waits
    for a federation's replay (storage.projections.ledger_if_cheap)."""
    return await ledger_if_cheap(db, club.id, limit)


async def rating_history(db: Database, club: Club, pid: int) -> list[HistoryRow]:
    """Every rating change of the player, newest first, voided games among them; games taken
    back with /undo are typos and stay out, as in ``/history``."""
    return await storage.history(db, club, pid, None, undone=False)


def outcome(row: GameRow, pid: int) -> int | None:
    """0 a win for ``pid``, 1 a loss, 2 jigo; ``None`` when unplayed or unknown."""
    game = row.game
    if not game.played or game.result is None:
        return None
    if game.result is Result.JIGO:
        return 2
    black_won = game.result is Result.BLACK
    return 0 if black_won == (game.black == pid) else 1


@dataclass(frozen=True, slots=True)
class Record:
    """A player's record against one opponent: games that count, wins, losses, jigo, and the
    day of the last."""

    pid: int
    name: str
    games: int
    wins: int
    losses: int
    jigo: int
    last: dt.date


async def meetings(db: Database, club: Club, pid: int) -> list[Record]:
    """The player's record against each opponent faced in a game that counts, most games
    first, then by name."""
    names = {p.id: p.name for p in await storage.players(db, club, guests=True)}
    tally: dict[int, list[int]] = {}
    last: dict[int, dt.date] = {}
    for row in await storage.games_of(db, club, pid, None):
        if row.status != GAME_OK:
            continue
        game = row.game
        other = game.opponent(pid)
        counts = tally.setdefault(other, [0, 0, 0, 0])
        counts[0] += 1
        found = outcome(row, pid)
        if found is not None:
            counts[1 + found] += 1
        last[other] = max(last.get(other, game.date), game.date)
    records = [
        Record(other, names.get(other, "?"), games, wins, losses, jigo, last[other])
        for other, (games, wins, losses, jigo) in tally.items()
    ]
    records.sort(key=lambda r: (-r.games, fold_name(r.name)))
    return records


async def opponents(db: Database, club: Club, pid: int) -> list[int]:
    """Everyone the player has a game with (any status), the latest recorded first: the
    head-to-head pages the static export writes."""
    seen: dict[int, None] = {}
    for row in await storage.games_of(db, club, pid, None):
        seen[row.game.opponent(pid)] = None
    return list(seen)


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two players' games against each other in the order they were recorded, the first
    first (those that count and the voided ones), each game's rating changes by player, and
    ``a``'s record in the games that count (wins, losses, jigo)."""

    a: Player
    b: Player
    games: list[GameRow]
    changes: dict[int, dict[int, tuple[Value, Value]]]
    record: tuple[int, int, int]


async def head_to_head(db: Database, club: Club, pid: int, other: int) -> HeadToHead | None:
    """The games of ``pid`` against ``other``; ``None`` unless both are players of the club
    and not the same."""
    a = await storage.get_player(db, club, pid)
    b = await storage.get_player(db, club, other)
    if a is None or b is None or a.id == b.id:
        return None
    rows = [
        row
        for row in await storage.games_of(db, club, pid, None)
        if row.game.opponent(pid) == other and row.status in (GAME_OK, "voided")
    ]
    rows.reverse()  # the first recorded first
    changes = await storage.game_changes(db, club, [row.id for row in rows])
    record = [0, 0, 0]
    for row in rows:
        found = outcome(row, pid) if row.status == GAME_OK else None
        if found is not None:
            record[found] += 1
    return HeadToHead(a, b, rows, changes, (record[0], record[1], record[2]))


async def handicap(
    db: Database, club: Club, pid: int, other: int, limit: int
) -> HandicapAdvice | None:
    """The handicap between two players today under the club's system; ``None`` when the
    ledger would need a long replay (:func:`ledger`) or the system gives no advice for them."""
    found = await ledger(db, club, limit)
    if found is None:
        return None
    try:
        return found.handicap(pid, other)
    except (KeyError, ValueError):
        return None


# --- tournaments ------------------------------------------------------------------------------


async def tournaments(db: Database, club: Club) -> list[TournamentRow]:
    """Every tournament of the club in calendar order (storage.tournaments.tournaments)."""
    return await storage.tournaments(db, club)


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    """A line of the tournaments page: the tournament and how many players entered it."""

    row: TournamentRow
    players: int


async def tournament_list(db: Database, club: Club) -> list[TournamentSummary]:
    """The club's tournaments, newest first, each with its number of entries."""
    return [
        TournamentSummary(row, len(await storage.entries(db, club, row.id)))
        for row in reversed(await storage.tournaments(db, club))
    ]


@dataclass(frozen=True, slots=True)
class TournamentResults:
    """A tournament's page: its row, entries (with the file's criteria, MMS, SOS …), the rank
    each player played it with (the first day's, not today's), its games by round, everyone's
    names, the rating changes it caused, each player's wins, and the standings — (player,
    place) in order, the same as the tournament's h9 export — with the names of the criteria
    columns in the file's order."""

    row: TournamentRow
    entries: list[Entry]
    ranks: dict[int, Rank]
    games: list[GameRow]
    names: dict[int, str]
    changes: TournamentChanges
    wins: dict[int, Fraction]
    places: list[tuple[int, int]]
    criteria: list[str] = field(default_factory=list)


async def tournament_results(db: Database, club: Club, number: int) -> TournamentResults | None:
    """Tournament #``number`` of the club, or ``None`` when it has none by that number."""
    row = await storage.tournament_by_number(db, club, number)
    if row is None:
        return None
    entries = await storage.entries(db, club, row.id)
    ranks = await storage.entry_ranks(db, club, row.id)
    games = await tournament_games(db, club, row.id)
    names = {p.id: p.name for p in await storage.players(db, club, guests=True)}
    changes = await storage.tournament_changes(db, club, row.id)
    # the same standings as the tournament's h9 export (wins, then the file's criteria)
    wins = entry_wins(entries, [g.game for g in games if g.status == GAME_OK])
    criteria_names: list[str] = []
    for entry in entries:
        for name, _text in entry.criteria:
            if name not in criteria_names:
                criteria_names.append(name)
    alphabetical = sorted(wins, key=lambda pid: fold_name(names.get(pid, "")))
    criteria = {e.player: e.criteria for e in entries}
    placed = places(alphabetical, wins, criteria)
    return TournamentResults(
        row, entries, ranks, games, names, changes, wins, placed, criteria_names
    )


@dataclass(frozen=True, slots=True)
class BoardGame:
    """One board of a published round as the page shows it: the players as they played (the
    recorded game's colours, else the board's), the stones and komi, and the recorded game
    (``None``: no result yet). ``number`` ``None``: a game typed for the round without a
    board (/tournament result)."""

    number: int | None
    black: int
    white: int
    stones: int
    komi: Fraction
    game: GameRow | None

    @property
    def waiting(self) -> bool:
        """No result yet: no game recorded, or one recorded without a result."""
        return self.game is None or self.game.game.result is None


@dataclass(frozen=True, slots=True)
class RoundBoards:
    """A published round: its boards in board order, the bye, round robin's idle."""

    number: int
    boards: tuple[BoardGame, ...]
    bye: int | None
    idle: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TournamentRounds:
    """A tournament run from the chat, now: how it is paired (``setup``), each published
    round with its boards (round 1 first), the live standings as a crosstable (placed by the
    tournament's tie-break order, boards without a result counting as paired with no point:
    bot.core.rounds), everyone's names, who withdrew and who entered late (their first
    round)."""

    setup: Setup
    rounds: tuple[RoundBoards, ...]
    table: Crosstable
    names: dict[int, str]
    withdrawn: frozenset[int]
    late: dict[int, int]

    def waiting(self) -> list[tuple[int, BoardGame]]:
        """The boards still without a result, by round and board (``/tournament
        missing``'s)."""
        return [(r.number, b) for r in self.rounds for b in r.boards if b.waiting]


async def tournament_rounds(
    db: Database, club: Club, row: TournamentRow, *, komi: Fraction
) -> TournamentRounds | None:
    """The rounds and live standings of ``row`` (issue 25, build item 7); ``None`` for a
    tournament not run from the chat (typed or imported). ``komi``: the club's even-game komi,
    a board's when the pairing gave none (bot.core.rounds.komi_of). The club's ledger only
    when it is cheap (an entrant without a declared rank at their rank now): a page never
    waits for a federation's replay."""
    ledger = await ledger_if_cheap(db, club.id)
    run = await rounds.run_from(db, club, row, komi=komi, ledger=ledger)
    if run is None:
        return None
    shown: list[RoundBoards] = []
    for published in run.field.rounds:
        boards: list[BoardGame] = []
        on_board: set[int] = set()
        for board in published.boards:
            game = run.game_on(published.number, board)
            black, white = board.black, board.white
            if game is not None:
                on_board.add(game.id)
                black, white = game.game.black, game.game.white
            boards.append(
                BoardGame(
                    board.number,
                    black,
                    white,
                    board.handicap,
                    komi if board.komi is None else board.komi,
                    game,
                )
            )
        for game in run.games:  # typed for the round without a board
            g = game.game
            if g.round == published.number and game.id not in on_board:
                boards.append(BoardGame(None, g.black, g.white, g.stones, g.komi, game))
        shown.append(RoundBoards(published.number, tuple(boards), published.bye, published.idle))
    return TournamentRounds(
        run.field.setup,
        tuple(shown),
        rounds.table_of(run),
        {pid: p.name for pid, p in run.players.items()},
        frozenset(s.player for s in run.field.seats if s.withdrawn),
        {s.player: s.first_round for s in run.field.seats if s.first_round > 1},
    )


# --- the files ------------------------------------------------------------------------------


async def export(db: Database, club: Club) -> Export:
    """The club's players with their cards, its tournaments and every game: what the
    downloads (CSV, JSON, h9) are written from, read once for all of them."""
    return await storage.export_rows(db, club)


async def tournament_h9(db: Database, club: Club, data: Export, number: int) -> str | None:
    """Tournament #``number``'s EGD h9 file (``/export``'s), or ``None`` when the club has no
    such tournament.

    Raises:
        FormatError: a tournament an EGD h9 file cannot hold (two games of one player in a
            round), in the reader's words.
    """
    row = await storage.tournament_by_number(db, club, number)
    if row is None:
        return None
    given = await rounds.h9_input(db, club, row, cheap=True)
    return exporting.tournament_h9(data, row, given.entries, given.ranks, given.places)


SGF_MEDIA_TYPE = "application/x-go-sgf"
"""The SGF files' media type (the one SGF's own site and the go servers send)."""


@dataclass(frozen=True, slots=True)
class GameSgf:
    """The SGF file a game was recorded from: its bytes and the name it is offered under
    (``game-12.sgf``, never the name it was sent under, which may hold anything)."""

    filename: str
    data: bytes


async def game_sgf(db: Database, club: Club, number: int) -> GameSgf | None:
    """The SGF file game #``number`` was recorded from (``/sgf game=N``'s), or ``None``: no
    such game in the club, a game recorded without one, or one undone or voided (the file
    stays in the log, no longer offered; storage.game_files)."""
    row = await storage.game_by_number(db, club, number)
    if row is None or row.status != GAME_OK:
        return None
    kept = await file_of_game(db, club, row.id)
    return None if kept is None else GameSgf(safe_file_name(row.number), kept.data)


async def with_sgf(db: Database, club: Club, rows: Iterable[GameRow]) -> list[GameRow]:
    """Those of ``rows`` that count and offer the SGF they were recorded from, in their order:
    one query for them all (storage.game_files.games_with_files)."""
    counting = [row for row in rows if row.status == GAME_OK]
    found = await games_with_files(db, club, (row.id for row in counting))
    return [row for row in counting if row.id in found]


async def player_sgf_games(db: Database, club: Club, pid: int) -> list[GameRow]:
    """The player's games that offer their SGF (the player page's list), newest first."""
    return await with_sgf(db, club, await storage.games_of(db, club, pid, None))
