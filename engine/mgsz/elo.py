"""MGSZ Elo arithmetic: bands, handicap correction, game points, rounding, splitting, titles.

Pure functions over integers (rules.md §1.1, §1.3–§1.5). Chances and game points are integer
thousandths (``*_milli``); nothing here uses floating point.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.errors import RuleError
from engine.mgsz.tables import (
    BAND_STEP,
    BAND_WIDTH,
    BOUND_BY_STEP,
    CHANCE_BEYOND,
    CHANCE_BY_DELTA,
    CONFIRM_FROM_STEP,
    CONFIRMATIONS,
    SPLIT_AT,
    STRONGEST_STEP,
    TABLE_BOTTOM,
    TABLE_TOP,
    WEAKEST_STEP,
    WIDTH_BELOW_TABLE,
    WIDTH_FROM_TOP,
)
from engine.ranks import Rank
from engine.text import Msg
from engine.types import Outcome

MILLI = 1000  # one game point in thousandths
HALF_MILLI = 500
_TOP_INDEX = TABLE_TOP - TABLE_BOTTOM
_CHANCE_ROWS = len(CHANCE_BY_DELTA)


# ---------------------------------------------------------------- §1.1 rank table and bands


def band_width(elo: int) -> int:
    """The width of the rank band ``elo`` lies in (rules.md §1.1; §8(2) step 1).

    ``1947`` lies in the 1k band [1920, 1980): width 60.
    """
    index = elo - TABLE_BOTTOM
    if 0 <= index < _TOP_INDEX:
        return BAND_WIDTH[index]
    # rules.md §1.1 Decision: ≥ 2700 → 200 (the 6d→7d step); < 1000 → 10 (the 35k step)
    return WIDTH_FROM_TOP if index >= _TOP_INDEX else WIDTH_BELOW_TABLE


def band_step(elo: int) -> int:
    """The ladder step of the band ``elo`` lies in (35k below 1000, 7d from 2700 up)."""
    index = elo - TABLE_BOTTOM
    if 0 <= index < _TOP_INDEX:
        return BAND_STEP[index]
    return STRONGEST_STEP if index >= _TOP_INDEX else WEAKEST_STEP


_RANK_AT_STEP = {step: Rank(step) for step in range(WEAKEST_STEP, STRONGEST_STEP + 1)}
"""The ranks of the table's ladder, made once (a Rank is immutable; a replay asks millions)."""


def rank_of_elo(elo: int) -> Rank:
    """The rank whose band holds ``elo`` (rules.md §1.1): 1947 → 1k, 1980 → 1d.

    Below 1000 the band rank is 35k and from 2700 up it is 7d (the table's ends).
    """
    return _RANK_AT_STEP[band_step(elo)]


def rank_floor(rank: Rank) -> int:
    """The rank table value of ``rank``: the starting Elo of a declared rank (rules.md §1.4).

    Ranks stronger than 7d (8d, 9d; professional ranks read as dan) get 7d's 2700.
    """
    return BOUND_BY_STEP[max(WEAKEST_STEP, min(STRONGEST_STEP, rank.step))]


# ---------------------------------------------------------------- §1.3 game points


def chance_milli(delta: int) -> int:
    """The chance for an Elo difference, in thousandths (rules.md §1.3; annex 1 table 4).

    The sign of ``delta`` does not matter: the table is read with |Δ|.
    """
    delta = -delta if delta < 0 else delta
    return CHANCE_BY_DELTA[delta] if delta < _CHANCE_ROWS else CHANCE_BEYOND


def handicap_corrected(elo: int, stones: int) -> int:
    """The receiver's corrected Elo: once per stone add the current band width (rules.md §1.3).

    rules.md §1.3 Decision: "handicap" is the number of stones, so 1 stone corrects once.
    """
    for _ in range(stones):
        elo += band_width(elo)
    return elo


@dataclass(frozen=True, slots=True)
class GamePoints:
    """One game from a player's side, every intermediate value of §8 (rules.md §1.3).

    ``correction`` is what the receiver of the stones gained; ``corrected`` is the pair
    (player, opponent) after it; ``delta`` is player − opponent, corrected.
    """

    correction: int
    corrected: tuple[int, int]
    delta: int
    chance_milli: int
    jp_milli: int


def corrected_elos(player_elo: int, opponent_elo: int, stones: int) -> tuple[int, int]:
    """Both Elos after the handicap correction (rules.md §1.3 step 1).

    Args:
        stones: from the player's view: positive = the player received them, negative = the
            player gave them (the opponent is corrected), 0 = even.

    Returns:
        (corrected player Elo, corrected opponent Elo).
    """
    if stones > 0:
        return handicap_corrected(player_elo, stones), opponent_elo
    if stones < 0:
        return player_elo, handicap_corrected(opponent_elo, -stones)
    return player_elo, opponent_elo


def game_points(player_elo: int, opponent_elo: int, outcome: Outcome, stones: int) -> GamePoints:
    """The player's game points Jp with the steps that lead to them (rules.md §1.3; §8(2)).

    After the correction the higher (corrected) Elo is A — which is also the §8 role swap
    when the receiver's corrected Elo passes the giver's. A's win earns ``+chance``, B's win
    ``+(1 − chance)``; the loser gets the negative of the winner's points.

    Args:
        player_elo: the player's starting Elo.
        opponent_elo: the opponent's starting Elo.
        outcome: the result from the player's side.
        stones: handicap from the player's side (positive = received).
    """
    player, opponent = corrected_elos(player_elo, opponent_elo, stones)
    correction = (player - player_elo) + (opponent - opponent_elo)
    delta = player - opponent
    chance = chance_milli(delta)
    # rules.md §1.3 Decision: with equal corrected Elo either player may be A (chance 0.500,
    # the same points either way), so ``>=`` makes the player A.
    jp = _jp_as_a(chance, outcome) if delta >= 0 else -_jp_as_a(chance, _OPPOSITE[outcome])
    return GamePoints(correction, (player, opponent), delta, chance, jp)


def game_points_milli(player_elo: int, opponent_elo: int, outcome: Outcome, stones: int) -> int:
    """The player's Jp in thousandths (rules.md §1.3); see :func:`game_points`."""
    return game_points(player_elo, opponent_elo, outcome, stones).jp_milli


_OPPOSITE = {Outcome.WIN: Outcome.LOSS, Outcome.LOSS: Outcome.WIN, Outcome.JIGO: Outcome.JIGO}


def _jp_as_a(chance: int, outcome: Outcome) -> int:
    """Jp of A, the player with the higher (corrected) Elo (§8(2) step 2)."""
    if outcome is Outcome.WIN:
        return chance
    if outcome is Outcome.LOSS:
        return chance - MILLI  # B won: A gets −(1 − chance)
    # rules.md §1.3 Decision: a jigo is half a win and half a loss → chance − 0.5
    return chance - HALF_MILLI


def black_jp_milli(elo_black: int, elo_white: int, stones: int, score_black_milli: int) -> int:
    """Black's Jp for a game; white's is its negative (rules.md §1.3). The replay's hot path.

    ``score_black_milli`` is 1000 for a black win, 0 for a white win, 500 for a jigo. This is
    :func:`game_points` inlined for speed; the tests check that the two agree.
    """
    for _ in range(stones):  # black received the stones (rules.md §1.3 Decision: per stone)
        elo_black += band_width(elo_black)
    delta = elo_black - elo_white
    if delta >= 0:
        chance = CHANCE_BY_DELTA[delta] if delta < _CHANCE_ROWS else CHANCE_BEYOND
        # black is A: score·1 − (1 − chance) … i.e. win → chance, loss → chance − 1,
        # jigo → chance − ½ (rules.md §1.3 Decision: jigo is half a win, half a loss)
        return chance + score_black_milli - MILLI
    delta = -delta
    chance = CHANCE_BY_DELTA[delta] if delta < _CHANCE_ROWS else CHANCE_BEYOND
    # black is B: win → 1 − chance, loss → −chance, jigo → ½ − chance
    return score_black_milli - chance


# ---------------------------------------------------------------- §1.4 new Elo


def round_half_up_milli(value_milli: int) -> int:
    """``floor(x + 0.5)`` for x given in thousandths (rules.md §1.4; §7).

    −15.5 → −15, 31.65 → 32, 15.6 → 16. rules.md §1.4 Decision: exact integer arithmetic,
    never float or Python's banker's ``round()``.
    """
    return (value_milli + HALF_MILLI) // MILLI


def elo_change(multiplier: int, sum_jp_milli: int) -> int:
    """The Elo change ``floor(C × ΣJp + 0.5)`` (rules.md §1.4; §7)."""
    return round_half_up_milli(multiplier * sum_jp_milli)


def split_rounds(multiplier: int, rounds: int) -> list[int]:
    """The sizes of the parts a tournament is rated in (rules.md §1.4 Splitting; §6(3)).

    rules.md §1.4 Decision: the fewest parts with C × rounds-in-part < 300, rounds in order and
    as evenly as possible, earlier parts taking the extra round (45 × 10 → [5, 5];
    45 × 7 → [4, 3]). A C of 300 or more (possible only when set by hand) rates every round on
    its own, the best the rule allows (ours).
    """
    if rounds < 0:
        raise RuleError(Msg("a tournament cannot have {rounds} rounds", rounds=rounds))
    if multiplier * rounds < SPLIT_AT:
        return [rounds]
    parts = -(-rounds // rounds_per_part_limit(multiplier))  # ceiling division
    size, extra = divmod(rounds, parts)
    return [size + 1] * extra + [size] * (parts - extra)


def rounds_per_part_limit(multiplier: int) -> int:
    """The most rounds (or games per player) one part may hold: C × n < 300 (§6(3))."""
    return max(1, (SPLIT_AT - 1) // multiplier) if multiplier > 0 else 1 << 30


# ---------------------------------------------------------------- §1.5 rank (title)


def rank_after_tournament(
    title: Rank, reached: Mapping[Rank, int], elo: int
) -> tuple[Rank, dict[Rank, int]]:
    """The title after a tournament that left the player at ``elo`` (rules.md §1.5; §4–§5).

    A title never goes down. Every rank above the title whose bound ``elo`` reaches counts
    this tournament: 4k and weaker are awarded at once, 3k and stronger on their second count.
    rules.md §1.5 Decision: counts are kept per rank, so one jump counts toward each rank it
    crosses (reaching 1d's bound also reaches 1k's, 2k's and 3k's).

    Args:
        title: the rank before the tournament.
        reached: how many earlier tournaments reached each rank's bound (ranks above the
            title only are read).
        elo: the Elo after the tournament (after its last part when split).

    Returns:
        The new title, and the counts for the ranks still above it.
    """
    counts = {rank: n for rank, n in reached.items() if rank.step > title.step} if reached else {}
    top = min(band_step(elo), STRONGEST_STEP)
    if top <= title.step:  # no bound above the title reached: nothing to count
        return title, counts
    new_step = title.step
    for step in range(title.step + 1, top + 1):
        if elo < BOUND_BY_STEP[step]:
            break
        if step < CONFIRM_FROM_STEP:  # 4k and weaker: the first time is enough (§5(2))
            new_step = step
            continue
        rank = _RANK_AT_STEP[step]
        counts[rank] = counts.get(rank, 0) + 1
        if counts[rank] >= CONFIRMATIONS:  # 3k and stronger: the second time (§5(4))
            new_step = step
    new_title = title if new_step == title.step else _RANK_AT_STEP[new_step]
    return new_title, {rank: n for rank, n in counts.items() if rank.step > new_step}
