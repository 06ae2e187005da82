"""Swedish promotion points: pure functions — points, valid games, requirements (rules.md §3)."""

from __future__ import annotations

from engine.ranks import Rank
from engine.swedish.tables import (
    _JIGO,
    _LADDER,
    _LOSS,
    _MISSING_GAME_Q,
    _OUTCOME_CODE,
    _WIN,
    DEFAULT_PARAMS,
    HALF_GAME_BASE_S,
    HALVES,
    POINTS_TABLE,
    QUARTERS,
    RATED_BOARD,
    STRONGEST_ROW,
    WEAKEST_ROW,
    WHOLE_GAME_BASE_S,
    Requirement,
    SwedishParams,
)
from engine.text import Msg, decimal
from engine.timecontrol import TimeControl
from engine.types import (
    Game,
    Outcome,
)

# ------------------------------------------------------------------------- pure functions


def game_points_quarters(
    opponent_rank: Rank, reference_rank: Rank, outcome: Outcome, half_games: int = HALVES
) -> int:
    """A game's points toward a target, in quarter-points (rules.md §3.2; seed §2 table).

    Args:
        opponent_rank: the rank the opponent played the tournament with.
        reference_rank: one rank below the target.
        outcome: the result from the player's side; a jigo is half a win and half a loss.
        half_games: 2 for a whole game, 1 for a half game (halves the points).

    Returns:
        Quarter-points (``+35`` → 140; a half-game jigo at the same rank → −10).
    """
    row = max(WEAKEST_ROW, min(STRONGEST_ROW, opponent_rank - reference_rank))
    return _whole_game_quarters(row, _OUTCOME_CODE[outcome]) * half_games // HALVES


def _whole_game_quarters(row: int, outcome: int) -> int:
    win, loss = POINTS_TABLE[row]
    if outcome == _WIN:
        return win * QUARTERS
    if outcome == _LOSS:
        return loss * QUARTERS
    return (win + loss) * QUARTERS // 2  # rules.md §3.2: jigo = half a win and half a loss


def invalid_reason(
    game: Game, tournament_time: TimeControl | None = None, params: SwedishParams = DEFAULT_PARAMS
) -> str | None:
    """Why a game does not count in a sequence, or ``None`` (rules.md §3.1)."""
    return _weigh(game, tournament_time, params)[1]


def game_weight(
    game: Game, tournament_time: TimeControl | None = None, params: SwedishParams = DEFAULT_PARAMS
) -> int:
    """How much a game counts, in half-games: 0, 1 or 2 (rules.md §3.1).

    Not counted (0): unplayed, result unknown, handicap stones, komi outside 5½–8, base time
    under 30 minutes, time control unknown (ours), not 19×19, pair go. Base time of 30–59
    minutes counts as half a game (1), 60 minutes or more, or no time limit, as a whole (2).

    Args:
        game: the game; its own time control wins over the tournament's.
        tournament_time: the tournament's time control, if the game has none.
        params: the club's komi bounds.
    """
    return _weigh(game, tournament_time, params)[0]


# why a game is not counted, short (a history row's "not counted: 2 handicap game")
# TRANSLATORS: Swedish promotion points: why games were not counted ("2 unplayed")
UNPLAYED = Msg("unplayed")
RESULT_UNKNOWN = Msg("result unknown")
PAIR_GO = Msg("pair go")
HANDICAP_GAME = Msg("handicap game")
TIME_UNKNOWN = Msg("time control unknown")
SHORT_TIME = Msg("base time under 30 minutes")


def _weigh(
    game: Game, tournament_time: TimeControl | None, params: SwedishParams
) -> tuple[int, str | None]:
    """(half-games, why not counted) for a game (rules.md §3.1)."""
    if not game.played:
        return 0, UNPLAYED
    if game.result is None:
        return 0, RESULT_UNKNOWN
    if game.pair_go:
        return 0, PAIR_GO
    if game.board != RATED_BOARD:
        return 0, Msg("{size}×{size} board", size=game.board)
    if game.stones != 0:
        return 0, HANDICAP_GAME
    komi = game.komi
    low, high = params.komi_min, params.komi_max
    # exact: komi_min ≤ n/d ≤ komi_max compared as integers (cheaper than Fraction's operators)
    n, d = komi.numerator, komi.denominator
    if n * low.denominator < low.numerator * d or n * high.denominator > high.numerator * d:
        return 0, Msg(
            "komi {komi} outside {low}–{high}",
            komi=decimal(komi),
            low=decimal(low),
            high=decimal(high),
        )
    time = game.time if game.time is not None else tournament_time
    if time is None:
        return 0, TIME_UNKNOWN  # ours: cannot be shown to meet the 30-minute minimum
    halves = time_halves(time)
    return halves, (SHORT_TIME if halves == 0 else None)


def time_halves(time: TimeControl) -> int:
    """What a valid game at ``time`` counts for, in half-games (rules.md §3.1): base time of
    60 minutes or more (or no time limit, ours) a whole game (2), 30–59 minutes half (1),
    shorter nothing (0)."""
    if time.unlimited or time.base_s >= WHOLE_GAME_BASE_S:
        return HALVES  # ours: no time limit counts as a whole game
    if time.base_s >= HALF_GAME_BASE_S:
        return 1
    return 0


def time_rule(time: TimeControl) -> Msg:
    """:func:`time_halves` in a club member's words, naming the base time it read."""
    halves = time_halves(time)
    if time.unlimited:
        return Msg("no time limit: counts as a whole game")
    minutes = time.base_text
    if halves == HALVES:
        return Msg(
            "base time {minutes} min: a game with 60 minutes' base time or more counts as a "
            "whole game (Swedish upgrade rules, valid games)",
            minutes=minutes,
        )
    if halves:
        return Msg(
            "base time {minutes} min: a game with 30–59 minutes' base time counts as half a "
            "game (half the points, half a game in the count; Swedish upgrade rules, valid "
            "games)",
            minutes=minutes,
        )
    return Msg(
        "base time {minutes} min: a game with under 30 minutes' base time does not count "
        "(Swedish upgrade rules, valid games: 60 minutes count as a whole game, 30 as half)",
        minutes=minutes,
    )


def qualifies(points: int, games: int, req: Requirement) -> bool:
    """Whether a sequence meets a requirement (rules.md §3.3; seed: ``p >= 10*k``).

    n ≥ N games with at least P points qualify; n = N − k games qualify when the points
    exceed P by at least 10·k (half games count half). Both cases read
    ``p + 10·min(n, N) ≥ P + 10·N``.

    Args:
        points: the sequence's points, in quarter-points.
        games: the sequence's games, in half-games.
        req: the target's requirement.
    """
    window = req.games * HALVES
    return points + _MISSING_GAME_Q * min(games, window) >= _measure_needed(req)


def _measure_needed(req: Requirement) -> int:
    return req.points * QUARTERS + _MISSING_GAME_Q * req.games * HALVES


def format_quarters(quarters: int) -> str:
    """Quarter-points as an exact decimal: 150 → ``"37.5"``, −25 → ``"-6.25"``."""
    sign = "-" if quarters < 0 else ""
    whole, rest = divmod(abs(quarters), QUARTERS)
    return f"{sign}{whole}{('', '.25', '.5', '.75')[rest]}"


def format_half_games(halves: int) -> str:
    """Half-games as games: 15 → ``"7.5"``."""
    whole, rest = divmod(halves, HALVES)
    return f"{whole}.5" if rest else str(whole)


def _target_table(target_step: int) -> dict[int, tuple[int, int, int]]:
    """Whole-game quarter-points toward a target by opponent step: (win, loss, jigo) (§3.2)."""
    table: dict[int, tuple[int, int, int]] = {}
    for opponent in _LADDER:
        row = max(WEAKEST_ROW, min(STRONGEST_ROW, opponent - (target_step - 1)))
        table[opponent] = (
            _whole_game_quarters(row, _WIN),
            _whole_game_quarters(row, _LOSS),
            _whole_game_quarters(row, _JIGO),
        )
    return table
