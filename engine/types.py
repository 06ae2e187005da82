"""The records every rating system reads: games, tournaments and the events of a club's history.

A history is an ordered sequence of :data:`Event` values. Each rating system replays it
(:mod:`engine.system`); replaying the same history twice gives the same state, replaying a
prefix gives the state at that moment.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Literal

from engine.ranks import Rank
from engine.ratings import Rating
from engine.text import Msg
from engine.timecontrol import TimeControl

PlayerId = int
"""A player's identity: the registry id in storage, the line number in a tournament file."""


class Result(Enum):
    """The outcome of a game on the board (rules.md, common vocabulary)."""

    BLACK = "B+"
    WHITE = "W+"
    JIGO = "jigo"

    def score_for(self, black: bool) -> Fraction:
        """1 for a win, ½ for a jigo, 0 for a loss, from black's or white's side."""
        if self is Result.JIGO:
            return Fraction(1, 2)
        return Fraction(int((self is Result.BLACK) == black))


class Outcome(Enum):
    """A result from one player's point of view (the vectors' ``win``/``loss``/``jigo``)."""

    WIN = "win"
    LOSS = "loss"
    JIGO = "jigo"


DEFAULT_KOMI = Fraction(13, 2)


@dataclass(frozen=True, slots=True)
class Game:
    """One game between two players.

    ``stones`` is the handicap (0 even, 1 = no komi handicap, 2–9 stones) placed by black.
    ``result`` is ``None`` when unknown (a ``?`` in an h9 file): stored, never rated.
    ``played`` is false for byes, no-shows, forfeits and referee decisions: stored and
    shown, never rated by any system (rules.md, common vocabulary).
    ``arranged`` marks a PSG arranged game (rules.md §4.1); ``counts_as_tournament`` lets an
    organiser count a club game in a Swedish sequence (rules.md §3.1, Decision).
    ``margin`` is the SGF-style margin text after ``B+``/``W+`` (``"R"`` resignation, ``"T"``
    time, ``"F"`` forfeit, ``"3.5"`` points; ``None`` when not given): kept and shown, never
    read by any rating system.
    """

    id: int
    black: PlayerId
    white: PlayerId
    result: Result | None
    date: dt.date
    stones: int = 0
    komi: Fraction = DEFAULT_KOMI
    played: bool = True
    board: int = 19
    time: TimeControl | None = None
    tournament: int | None = None
    round: int | None = None
    arranged: bool = False
    counts_as_tournament: bool = False
    pair_go: bool = False
    reported: dt.date | None = None
    margin: str | None = None

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        """A game is a value (frozen, of values): a deep copy of a ledger holding it (a trial,
        a snapshot) shares it instead of rebuilding it field by field."""
        return self

    def __post_init__(self) -> None:
        if self.black == self.white:
            raise ValueError(Msg("a player cannot play themselves"))
        if not 0 <= self.stones <= 9:
            raise ValueError(Msg("handicap stones must be 0–9, not {stones}", stones=self.stones))

    @property
    def rated(self) -> bool:
        """Whether any system may rate it: actually played, with a known result."""
        return self.played and self.result is not None

    def opponent(self, player: PlayerId) -> PlayerId:
        return self.white if player == self.black else self.black

    def outcome_for(self, player: PlayerId) -> Outcome:
        """The result from ``player``'s side."""
        if self.result is None:
            raise ValueError(f"game {self.id} has no known result")
        if self.result is Result.JIGO:
            return Outcome.JIGO
        won = (self.result is Result.BLACK) == (player == self.black)
        return Outcome.WIN if won else Outcome.LOSS

    def stones_for(self, player: PlayerId) -> int:
        """Handicap from ``player``'s side: positive = received (black), negative = gave."""
        return self.stones if player == self.black else -self.stones


@dataclass(frozen=True, slots=True)
class Importance:
    """MGSZ importance additions (rules.md §1.2; annex table 3)."""

    invitational_or_national_championship: bool = False
    european_or_world_championship: bool = False


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament's facts as the rulebooks need them.

    ``handicap_reduction`` is the ``HA[hN]`` rule: handicap = rank difference − N;
    ``even`` marks a no-handicap tournament (rules.md §1.2 importance addition).
    ``multiplier`` is an MGSZ C set by hand (§6(2)); ``arranged`` makes PSG count its games
    as arranged games (§10(2)). ``klass`` is the EGF tournament class ``A``–``D`` of an h9
    header's ``CL[…]`` (rules.md §6; ``None``: not given, found from the time control).
    """

    id: int
    name: str
    start: dt.date
    end: dt.date
    rounds: int
    board: int = 19
    time: TimeControl | None = None
    even: bool = True
    handicap_reduction: int = 0
    participants: int | None = None
    importance: Importance = field(default_factory=Importance)
    multiplier: int | None = None
    arranged: bool = False
    klass: str | None = None


ByeKind = Literal["win", "half", "none"]
"""A round without an opponent: a bye counted as a win (h9 ``0+``), as half (``0=``), or not
paired (``0-``)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """A tournament participant with the rank they entered with.

    ``rank`` is the rank declared (a results file's, an organiser's); ``None`` for a club
    player entered by typing their games: each system then takes the rank it gave them on the
    tournament's first day (rules.md, top: calendar order; engine.system.entry_rank), never a
    rank captured when the games were typed. An unregistered entry (a foreign or guest player,
    rules.md §1.4 step 2) always declares its rank, is rated at the rank table value of it and
    never stored as a ranked player.
    """

    player: PlayerId
    rank: Rank | None
    registered: bool = True
    country: str | None = None
    criteria: tuple[tuple[str, str], ...] = ()
    """The tournament program's criteria for the player (MMS, SOS, …) as ``(title, value)``
    text pairs, when the results file had them (formats.md); shown, never rated."""
    byes: tuple[tuple[int, ByeKind], ...] = ()
    """The rounds the results file gave the player no opponent, as ``(round, kind)`` in round
    order (formats.md: ``0+``, ``0=``, ``0-``); counted in the standings, never rated."""
    administrative: tuple[tuple[int, Outcome], ...] = ()
    """The rounds whose game the results file gave an administrative result (OpenGotha's
    both win, both lose; formats.md), as ``(round, outcome)``: the game is stored unplayed
    without a result, never rated; this keeps what it counted as in the standings."""
    colourless: tuple[int, ...] = ()
    """The rounds whose game the results file gave without colours (formats.md: ``23+``):
    the game is stored with the readers' convention (with stones the weaker player black,
    otherwise the lower line); an export writes it without colours again."""
    pro: int = 0
    """N of a professional rank Np entered with (``rank`` is then 7d), 0 for an amateur: a
    guest professional plays at 1p = 2700, 30 more a rank under the EGF GoR (rules.md §6)."""


# ---------------------------------------------------------------- events of a club's history


@dataclass(frozen=True, slots=True)
class Registered:
    """A player joins the registry with an initial rank and optionally a rating.

    ``rating`` given = an existing player's standing moved into hoshi (bot.md, Arguments);
    ``committee`` = a stronger initial rank allowed by the committee (rules.md §1.5, §4.1).
    """

    player: PlayerId
    rank: Rank
    date: dt.date
    rating: Rating | None = None
    country: str | None = None
    committee: bool = False
    rating_system: str | None = None
    pro: int = 0
    """The N of a declared professional rank Np (1–9), 0 for an amateur. ``rank`` is then 7d
    on the amateur ladder (formats.md); a rulebook with its own professional scale reads
    ``pro`` (the EGF GoR: 1p = 2700, 30 more a rank, rules.md §6)."""

    def for_system(self, key: str) -> Registered:
        """The registration as the system ``key`` reads it.

        A registration is made under one system (``rating_system``: the club's at the time),
        which validates it and reads its rating in its own units (Elo, points). Every other
        system of the club takes the rank as a standing the club recorded — a committee
        decision in MGSZ's words (rules.md §1.5) — and starts the player by its own rule from
        that rank; a rating in another system's units means nothing to it. ``None``: read by
        every system as it is.
        """
        if self.rating_system is None or self.rating_system == key:
            return self
        return Registered(
            self.player, self.rank, self.date, None, self.country, True, key, self.pro
        )


@dataclass(frozen=True, slots=True)
class GamePlayed:
    """A single game outside any tournament (a club game)."""

    game: Game


@dataclass(frozen=True, slots=True)
class TournamentRated:
    """A finalised tournament: its entries and games, rated together (rules.md §1.4).

    ``finalised_on`` is the club's day on which it was finalised (``None``: not known): the
    days before it had ended then, so under Tensuusei every game of those days is settled as
    it is entered (rules.md §2.3, Decision — late reports).
    """

    tournament: Tournament
    entries: tuple[Entry, ...]
    games: tuple[Game, ...]
    finalised_on: dt.date | None = None


@dataclass(frozen=True, slots=True)
class PeriodClosed:
    """MGSZ: the club's rating period ends; its single games are rated as one tournament.

    (rules.md §1.4, Decision — club games.) ``tournament`` carries the period's name, dates
    and multiplier inputs (the club's usual time control); ``even`` is decided from the games.
    """

    tournament: Tournament


@dataclass(frozen=True, slots=True)
class DayEnded:
    """Tensuusei: the club's day ends; pending pair results are settled (rules.md §2.3)."""

    date: dt.date


@dataclass(frozen=True, slots=True)
class MonthEnded:
    """PSG: the month-end verification check (rules.md §4.5)."""

    year: int
    month: int


@dataclass(frozen=True, slots=True)
class Override:
    """A committee adjustment of rating and/or rank (rules.md §1.5 §3(3), §4.4)."""

    player: PlayerId
    date: dt.date
    reason: str
    rating: Rating | None = None
    rank: Rank | None = None


@dataclass(frozen=True, slots=True)
class EgfRating:
    """An EGF rating known for a player in a month (rules.md §4.4–4.5).

    ``after_promotion_game`` is true when it comes from a tournament game played after the
    player's last promotion (starts the §4.5 clock).
    """

    player: PlayerId
    rating: Rating
    year: int
    month: int
    from_tournament: bool = True


class TeacherKind(Enum):
    PROMOTE = "promote"
    HOLD = "hold"
    RELEASE = "release"


@dataclass(frozen=True, slots=True)
class TeacherAction:
    """PSG: a teacher promotes a student (≤ 6k) or holds back promotion (rules.md §4.4)."""

    player: PlayerId
    kind: TeacherKind
    date: dt.date
    teacher_rank: Rank | None = None
    rank: Rank | None = None


@dataclass(frozen=True, slots=True)
class VerificationSuspended:
    """PSG: the manager suspends (or resumes) a player's §4.5 check (an organiser override)."""

    player: PlayerId
    suspended: bool
    date: dt.date


@dataclass(frozen=True, slots=True)
class SettingsChanged:
    """A club changed rating settings from ``date`` on (``/club set``; a change that affects
    ratings is a fact in the calendar, rules.md top). ``values`` maps setting keys *with* their
    system prefix (``tensuusei.anchor``) to typed values (engine.settings); a system takes the
    keys of its own prefix and ignores the rest. ``date``'s facts and later ones see them."""

    date: dt.date
    values: tuple[tuple[str, object], ...]


Event = (
    Registered
    | GamePlayed
    | TournamentRated
    | PeriodClosed
    | DayEnded
    | MonthEnded
    | Override
    | EgfRating
    | TeacherAction
    | VerificationSuspended
    | SettingsChanged
)
