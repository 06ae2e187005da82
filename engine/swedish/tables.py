"""Swedish promotion points: the rulebook's tables and parameters (rules.md §3.2, §3.3)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from engine import settings
from engine.errors import EngineError
from engine.ranks import STRONGEST_DAN, WEAKEST_KYU
from engine.settings import Setting
from engine.text import Msg
from engine.types import (
    Outcome,
)

# Seed §2 "Värdet av ett partiresultat" (rules.md §3.2): the opponent's rank minus the
# reference rank → (win, loss) points. Rows beyond +3 use +3, beyond −2 use −2.
POINTS_TABLE: dict[int, tuple[int, int]] = {
    3: (35, 0),  # three or more stronger
    2: (35, -10),  # two stronger
    1: (35, -25),  # one stronger
    0: (25, -35),  # same rank
    -1: (10, -35),  # one weaker
    -2: (0, -35),  # two or more weaker
}
STRONGEST_ROW = 3
WEAKEST_ROW = -2

# Seed §3 "Krav för upprankning" (rules.md §3.3): target → (minimum points, minimum games).
REQUIREMENTS: dict[str, tuple[int, int]] = {
    "1k": (100, 13),
    "1d": (150, 17),
    "2d": (200, 20),
    "3d": (200, 20),
    "4d": (200, 20),
    "5d": (200, 20),
    "6d": (200, 20),
}
# Seed §3: "p >= 10*k" — each game short of the minimum costs ten extra points.
POINTS_PER_MISSING_GAME = 10
# Seed §3: "För upprankning i området 4-2 kyu rekommenderas 80-100 poäng. Klubbarna sköter den
# uppgraderingen" — the kyu targets a club may switch on (rules.md §3.3).
KYU_TARGETS = ("4k", "3k", "2k")
KYU_POINTS = 80  # ours: the low end of the seed's recommended 80–100 points
KYU_GAMES = 10  # ours: the seed names no game count for kyu targets

# Seed §1 "Giltiga partier" (rules.md §3.1): komi 5½ to 8 to White; at least one hour of base
# time counts fully, at least half an hour counts as half a game.
KOMI_MIN = Fraction(11, 2)
KOMI_MAX = Fraction(8)
WHOLE_GAME_BASE_S = 60 * 60
HALF_GAME_BASE_S = 30 * 60
RATED_BOARD = 19  # ours: "go-partier på lika villkor" are 19×19 games
REGION_REVIEW_GAMES = 3  # seed §2: "fler än tre partier" against other regions → review

QUARTERS = 4  # quarter-points per point
HALVES = 2  # half-games per game
_MISSING_GAME_Q = POINTS_PER_MISSING_GAME * QUARTERS // HALVES  # quarter-points a half game

_OUTCOME_CODE = {Outcome.WIN: 0, Outcome.LOSS: 1, Outcome.JIGO: 2}
_WIN, _LOSS, _JIGO = 0, 1, 2
_LOWEST_STEP = 1 - WEAKEST_KYU
_HIGHEST_STEP = STRONGEST_DAN
_LADDER = range(_LOWEST_STEP, _HIGHEST_STEP + 1)


@dataclass(frozen=True, slots=True)
class Requirement:
    """Minimum points and games for a target (rules.md §3.3), in whole points and games."""

    points: int
    games: int


@dataclass(frozen=True, slots=True)
class SwedishParams:
    """A club's Swedish settings (rules.md §3.1, §3.3).

    ``kyu_targets`` switches on the club-managed targets 4k, 3k and 2k with ``kyu_points``
    and ``kyu_games`` (seed: 80–100 points recommended); ``komi_min``/``komi_max`` bound an
    even game's komi (seed: 5½ to 8).
    """

    kyu_targets: bool = False
    kyu_points: int = KYU_POINTS
    kyu_games: int = KYU_GAMES
    komi_min: Fraction = KOMI_MIN
    komi_max: Fraction = KOMI_MAX

    def __post_init__(self) -> None:
        if self.kyu_points < 1 or self.kyu_games < 1:
            raise EngineError(
                Msg(
                    "kyu targets need at least 1 point and 1 game, not "
                    "{points} points in {games} games (e.g. 80 points, 10 games)",
                    points=self.kyu_points,
                    games=self.kyu_games,
                )
            )
        # exact komi bounds whatever was passed (5.5 is exactly 11/2)
        object.__setattr__(self, "komi_min", Fraction(self.komi_min))
        object.__setattr__(self, "komi_max", Fraction(self.komi_max))
        if self.komi_min > self.komi_max:
            raise EngineError(
                Msg(
                    "komi_min {low} is above komi_max {high}",
                    low=str(self.komi_min),
                    high=str(self.komi_max),
                )
            )


DEFAULT_PARAMS = SwedishParams()

VALID_KOMI = Msg("Swedish promotion rules, valid games: even games with komi 5½ to 8")

SETTINGS: tuple[Setting, ...] = (
    settings.switch(
        "swedish.kyu_targets",
        Msg("the club also promotes to 4k, 3k and 2k on points"),
        params=SwedishParams,
        field="kyu_targets",
        rule=Msg(
            "Swedish promotion rules: kyu promotions are the club's own (80–100 points "
            "recommended)"
        ),
    ),
    settings.whole(
        "swedish.kyu_points",
        Msg("points a kyu promotion needs"),
        params=SwedishParams,
        field="kyu_points",
        low=1,
        high=1000,
        example="80",
        rule=Msg("Swedish promotion rules: 80–100 points recommended for kyu players"),
    ),
    settings.whole(
        "swedish.kyu_games",
        Msg("games a kyu promotion's points must come from, at most"),
        params=SwedishParams,
        field="kyu_games",
        low=1,
        high=1000,
        example="10",
        rule=Msg("Swedish promotion rules (no game count is given for kyu players)"),
    ),
    settings.komi(
        "swedish.komi_min",
        Msg("the lowest komi of a valid even game"),
        params=SwedishParams,
        field="komi_min",
        example="5.5",
        rule=VALID_KOMI,
    ),
    settings.komi(
        "swedish.komi_max",
        Msg("the highest komi of a valid even game"),
        params=SwedishParams,
        field="komi_max",
        example="8",
        rule=VALID_KOMI,
    ),
)
"""The club's Swedish settings (``/club set swedish.…``); defaults from SwedishParams."""
