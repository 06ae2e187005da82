"""What the pairing engine reads and returns (issue 25, Build 2): pure frozen values.

A tournament's state for pairing is its entrants, the games played so far, the byes given and
the players who withdrew; the settings say the system (McMahon, Swiss, round robin), the
McMahon bar and floor, and the handicap policy. ``pair`` (engine.pairing.pair) turns a state
and a round number into a :class:`Pairing`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from fractions import Fraction

from engine.errors import RuleError
from engine.handicap import EVEN_KOMI
from engine.ranks import Rank
from engine.system import HandicapAdvice
from engine.text import Msg
from engine.types import PlayerId

# OpenGotha's defaults (GeneralParameterSet): bar 9d is "no bar", its genMMZero is 30k
NO_BAR = Rank.dan(9)
MMS_ZERO = Rank.kyu(30)


class System(StrEnum):
    """The pairing system chosen at creation (``pairing=mcmahon|swiss|roundrobin``)."""

    MCMAHON = "mcmahon"
    SWISS = "swiss"
    ROUNDROBIN = "roundrobin"


class Result(Enum):
    """A game's result as pairing scores it; ``NONE`` is unknown or both lose (no point)."""

    BLACK = "B+"
    WHITE = "W+"
    JIGO = "jigo"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player in the tournament. ``first_round`` > 1 is a late entrant: OpenGotha counts the
    rounds before as absent (genMMS2ValueAbsent, half a point each by default)."""

    id: PlayerId
    rank: Rank
    first_round: int = 1

    def __post_init__(self) -> None:
        if self.first_round < 1:
            raise RuleError(Msg("rounds are numbered from 1, not {n}", n=self.first_round))


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A game of an earlier round; ``handicap`` in stones (0 = even game)."""

    round: int
    black: PlayerId
    white: PlayerId
    result: Result
    handicap: int = 0


@dataclass(frozen=True, slots=True)
class Bye:
    """The player left unpaired in ``round`` for an odd count."""

    round: int
    player: PlayerId


@dataclass(frozen=True, slots=True)
class NoHandicap:
    """``handicap=none``: every game even; the engine gives no komi (the club's own applies)."""


@dataclass(frozen=True, slots=True)
class RankHandicap:
    """``handicap=rank-N``: rank difference minus N stones, capped at 9 (rules.md §5)."""

    reduction: int = 0
    even_komi: Fraction = EVEN_KOMI

    def __post_init__(self) -> None:
        if self.reduction < 0:
            raise RuleError(
                Msg("a handicap reduction cannot be negative, not {n}", n=self.reduction)
            )


HandicapRule = Callable[[PlayerId, Rank, PlayerId, Rank], HandicapAdvice]
"""``handicap=system``: the club system's own advice for (a, rank a, b, rank b), e.g. the
Tensuusei table. The caller passes the function; the engine imports no rulebook."""

HandicapPolicy = NoHandicap | RankHandicap | HandicapRule


@dataclass(frozen=True, slots=True)
class PairingSettings:
    """The system, OpenGotha's McMahon bar and floor, and the handicap policy."""

    system: System = System.MCMAHON
    bar: Rank = NO_BAR
    floor: Rank = MMS_ZERO
    handicap: HandicapPolicy = field(default_factory=NoHandicap)

    def __post_init__(self) -> None:
        if self.floor > self.bar:
            raise RuleError(
                Msg(
                    "the McMahon floor {floor} is above the bar {bar}",
                    floor=str(self.floor),
                    bar=str(self.bar),
                )
            )


@dataclass(frozen=True, slots=True)
class TournamentState:
    """Everything pairing reads; atomic on error (an inconsistent state raises)."""

    settings: PairingSettings
    players: tuple[Entrant, ...]
    games: tuple[PlayedGame, ...] = ()
    byes: tuple[Bye, ...] = ()
    withdrawn: frozenset[PlayerId] = frozenset()

    def __post_init__(self) -> None:
        ids = [p.id for p in self.players]
        if len(set(ids)) != len(ids):
            raise RuleError(Msg("a player is entered twice"))
        known = set(ids)
        for game in self.games:
            if game.black == game.white or not {game.black, game.white} <= known:
                raise RuleError(
                    Msg("round {n}: a game between unknown or identical players", n=game.round)
                )
        for bye in self.byes:
            if bye.player not in known:
                raise RuleError(Msg("round {n}: a bye to an unknown player", n=bye.round))


@dataclass(frozen=True, slots=True)
class Board:
    """One board of a round: ``komi`` is None when the policy gives none (``handicap=none``)."""

    number: int
    black: PlayerId
    white: PlayerId
    handicap: int
    komi: Fraction | None


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round's boards in order, the bye, and (round robin only) players whose scheduled
    opponent is absent this round."""

    round: int
    boards: tuple[Board, ...]
    bye: PlayerId | None
    idle: tuple[PlayerId, ...] = ()
