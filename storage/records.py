"""The frozen records storage hands out: clubs, players, log entries, game and tournament rows.

Repositories return these (or engine types), never cursors (STYLE.md, storage/).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from engine.calendar import Phase
from engine.ranks import Rank
from engine.ratings import Rating
from engine.system import Card, Change, Value
from engine.text import Msg
from engine.types import Game, Tournament


@dataclass(frozen=True, slots=True)
class Club:
    """A rating community: one current rating system, any number of bound chats."""

    id: int
    name: str
    system: str


@dataclass(frozen=True, slots=True)
class Player:
    """A player's registration facts (their current rank and rating come from a card).

    ``rank`` is the rank registered with; ``rating`` an initial rating given at registration;
    ``guest`` marks a tournament guest who is stored but never a ranked player (rules.md §1.4
    step 2); ``aliases`` are other names the player is found by.
    """

    id: int
    club: int
    name: str
    rank: Rank
    date: dt.date
    rating: Rating | None = None
    country: str | None = None
    home_club: str | None = None
    egd_pin: str | None = None
    committee: bool = False
    guest: bool = False
    aliases: tuple[str, ...] = ()
    pro: int = 0
    """N of a declared professional rank Np (``rank`` is then 7d), 0 for an amateur."""


@dataclass(frozen=True, slots=True)
class NewPlayer:
    """A player to create while importing a tournament (see ``import_tournament``)."""

    name: str
    rank: Rank
    rating: Rating | None = None
    country: str | None = None
    home_club: str | None = None
    egd_pin: str | None = None
    committee: bool = False
    guest: bool = False
    pro: int = 0


@dataclass(frozen=True, slots=True)
class LogEntry:
    """Who wrote one log entry, when and from where."""

    seq: int
    club: int | None
    kind: str
    at: dt.datetime
    actor: str
    chat: str | None


GAME_OK = "ok"
GAME_VOIDED = "voided"
GAME_UNDONE = "undone"
GAME_PENDING = "pending"


def gone_game(number: int, status: str) -> Msg:
    """The refusal of a change to game #``number``, which is voided or undone (``status``):
    in words, never the stored status."""
    if status == GAME_VOIDED:
        return Msg("game #{number} is already void", number=number)
    return Msg("game #{number} was taken back with /undo", number=number)


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game as the log holds it now: its effective data (corrections applied) and status.

    ``status`` is ``ok``, ``voided``, ``undone`` or ``pending`` (a player's report awaiting
    confirmation); ``corrected`` says whether a correction changed the original data;
    ``entry`` tells who recorded it; ``number`` is the club's number for it (``#3``: what
    members see and type), while ``id`` stays its log position.
    """

    game: Game
    status: str
    corrected: bool
    entry: LogEntry
    number: int = 0

    @property
    def id(self) -> int:
        """The game's id (its log seq)."""
        return self.game.id


@dataclass(frozen=True, slots=True)
class Settled:
    """What a write settled of the past besides its own facts
    (:func:`storage.events.settle_ended`): the days it ended (Tensuusei, rules.md §2.3) and
    the club-game periods it closed (MGSZ, §1.4), each period's id its log position."""

    days: tuple[dt.date, ...] = ()
    periods: tuple[Tournament, ...] = ()

    def under(self, phases: Collection[Phase]) -> Settled:
        """What of it a system with these scheduled ``phases`` (``RatingSystem.scheduled``)
        settles: days at ``DAY_END``, periods at ``PERIOD_END``."""
        return Settled(
            self.days if Phase.DAY_END in phases else (),
            self.periods if Phase.PERIOD_END in phases else (),
        )


@dataclass(frozen=True, slots=True)
class Recorded:
    """What recording one game changed (``storage.record_game``): the stored ``row``; the
    club's current ``system``; that system's ``changes`` from this game (empty while the game
    waits: a pending report, a game of an open tournament); and the two players' cards under
    it ``before`` and ``after`` the game (a player the system did not know yet is left out).
    A game entered for an earlier day rewrites the history after it: ``after`` holds the
    recomputed cards, ``changes`` the game's own."""

    row: GameRow
    system: str
    changes: tuple[Change, ...]
    before: dict[int, Card]
    after: dict[int, Card]
    settled: Settled = Settled()
    """The days and periods of the past the game's write settled with it, those of the
    current system."""


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A tournament with its state: open, or finalised at a log position."""

    tournament: Tournament
    club: int
    finalised_seq: int | None
    finalised_at: dt.datetime | None
    notes: str | None
    entry: LogEntry
    number: int = 0
    """The club's number for it (``#2``: what members see and type)."""

    @property
    def id(self) -> int:
        """The tournament's id (its log seq)."""
        return self.tournament.id

    @property
    def finalised(self) -> bool:
        """Whether it is rated (finalised and not reopened since)."""
        return self.finalised_seq is not None


@dataclass(frozen=True, slots=True)
class EventRow:
    """One row of the events table: kind, target and decoded JSON payload."""

    seq: int
    kind: str
    target: int | None
    key: str | None
    payload: dict[str, Any]
    entry: LogEntry


@dataclass(frozen=True, slots=True)
class Lookup:
    """The answer to a name lookup.

    ``player``: the one exact match (case/accent-insensitive, name or alias, either name
    order). ``ambiguous``: several exact matches — ask back, never guess. ``partial``: players
    whose names contain every word of the query (``Nagy`` → ``Nagy Péter``), for the caller to
    offer. ``suggestions``: the closest names on a miss.
    """

    player: Player | None = None
    ambiguous: tuple[Player, ...] = ()
    partial: tuple[Player, ...] = ()
    suggestions: tuple[Player, ...] = ()


HISTORY_RATED = "rated"
HISTORY_CORRECTED = "corrected"
HISTORY_VOIDED = "voided"
HISTORY_UNDONE = "undone"


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """A row of ``/history``: a rating change, or a game taken back (voided/undone).

    ``status`` is ``rated``, ``corrected`` (a change caused by a corrected game), ``voided``
    or ``undone`` (no rating values then). ``seq`` is the row's position in the club's history.
    """

    seq: int
    date: dt.date
    source: str
    status: str
    rating_before: Value = None
    rating_after: Value = None
    rank_before: Rank | None = None
    rank_after: Rank | None = None
    note: str = ""
    game: GameRow | None = None


@dataclass(frozen=True, slots=True)
class TournamentChanges:
    """A tournament's rating changes under one system (the tournament page).

    ``players``: each player's ``(before, after)`` over the whole tournament (the rating
    before their first change of it, after their last); ``games``: game id → player →
    ``(before, after)`` of that game, only under systems that rate a tournament game by game
    (PSG, Tensuusei); empty under those that rate it as a whole (MGSZ, GoR, Swedish) and
    before the tournament is finalised.
    """

    players: Mapping[int, tuple[Value, Value]]
    games: Mapping[int, Mapping[int, tuple[Value, Value]]]


class SeriesPoint(NamedTuple):
    """One point of a rating chart: ``(date, rating, rank, source, tournament)``; the
    tournament (or MGSZ period) the change belongs to, ``None`` for any other change."""

    date: dt.date
    rating: Value
    rank: Rank
    source: str
    tournament: int | None = None


class Standing(NamedTuple):
    """A line of the ranking list, ``(place, player, card)``; equal sort keys share a place."""

    place: int
    player: Player
    card: Card


@dataclass(frozen=True, slots=True)
class Export:
    """A club's data for export: players with their cards, tournaments and every game."""

    club: Club
    system: str
    players: tuple[tuple[Player, Card | None], ...]
    tournaments: tuple[TournamentRow, ...]
    games: tuple[GameRow, ...]
    notes: tuple[str, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Undone:
    """What ``/undo`` took back: the log entry, and the game, player or event it was (for a
    finalisation or a reopening, the ``tournament`` as it stands after the undo)."""

    entry: LogEntry
    game: GameRow | None = None
    player: Player | None = None
    event: EventRow | None = None
    tournament: TournamentRow | None = None
