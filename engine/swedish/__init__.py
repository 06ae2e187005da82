"""Swedish promotion points for 1 kyu and stronger (rules.md §3).

Seed: ``sweden-upgrade-rules-1kyu-and-stronger.txt`` (Rankingkommittén, June 2004). Not a
rating but a promotion tracker: for a target rank T a player collects points over an unbroken
sequence of valid games; the points of a game depend on the opponent's rank against the
*reference rank* T − 1 (§3.2); a sequence qualifies by the §3.3 requirements.

Points are kept exactly as integer **quarter-points** and games as integer **half-games**
(§3.2: a half game halves the points, a jigo halves the win and the loss).

For each target, :class:`SequenceTracker` keeps, incrementally and in O(1) amortised per game:
the best sequence ending at the latest valid game (Kadane: a total that drops below zero
starts over, §3.3 Decision) and whether *any* sequence ending at that game qualifies (§3.3
Decision). The ledger follows the player's next target at every game; the states of the
targets beyond it are brought up to date from the player's stored games only when asked for
(a query, or a promotion: §3.3 Decision, "the next target is evaluated on the same game
history"), so the per-game path touches one target.

Decisions where rules.md and the seed are silent (ours, each named where it is applied):

* a game whose time control is unknown (neither the game's nor the tournament's) does not
  count: it cannot be shown to meet §3.1's 30-minute minimum; an organiser records the time
  control and the history is replayed;
* a game with no time limit counts as a whole game;
* only 19×19 games count, pair go never;
* the D-dan wins (§3.3) are wins in valid games (half games too, one win each) against an
  opponent whose entry rank is D dan or stronger;
* once a sequence has met the requirement for the player's current target, it stays met until
  the player's rank changes: the promotion then waits only for the D-dan wins, which may come
  "at any time" (§3.3);
* an ``Override`` of the rank does not itself promote; the next check is at the next valid game.
"""

from engine.swedish.ledger import (
    RULES_VERSION,
    Swedish,
)
from engine.swedish.points import (
    format_half_games,
    format_quarters,
    game_points_quarters,
    game_weight,
    invalid_reason,
    qualifies,
)
from engine.swedish.sequences import (
    SequenceTracker,
)
from engine.swedish.tables import (
    DEFAULT_PARAMS,
    HALF_GAME_BASE_S,
    HALVES,
    KOMI_MAX,
    KOMI_MIN,
    KYU_GAMES,
    KYU_POINTS,
    KYU_TARGETS,
    POINTS_PER_MISSING_GAME,
    POINTS_TABLE,
    QUARTERS,
    RATED_BOARD,
    REGION_REVIEW_GAMES,
    REQUIREMENTS,
    SETTINGS,
    STRONGEST_ROW,
    WEAKEST_ROW,
    WHOLE_GAME_BASE_S,
    Requirement,
    SwedishParams,
)

__all__ = [
    "DEFAULT_PARAMS",
    "HALF_GAME_BASE_S",
    "HALVES",
    "KOMI_MAX",
    "KOMI_MIN",
    "KYU_GAMES",
    "KYU_POINTS",
    "KYU_TARGETS",
    "POINTS_PER_MISSING_GAME",
    "POINTS_TABLE",
    "QUARTERS",
    "RATED_BOARD",
    "REGION_REVIEW_GAMES",
    "REQUIREMENTS",
    "RULES_VERSION",
    "SETTINGS",
    "STRONGEST_ROW",
    "WEAKEST_ROW",
    "WHOLE_GAME_BASE_S",
    "Requirement",
    "SequenceTracker",
    "Swedish",
    "SwedishParams",
    "format_half_games",
    "format_quarters",
    "game_points_quarters",
    "game_weight",
    "invalid_reason",
    "qualifies",
]
