"""The EGF GoR formula, 2021 recalculation (rules.md §6), as pure functions.

Ratings here are floats: the formula is built from ``exp`` and ``ln`` and has no exact form.
The ledger keeps ratings in integer thousandths (:func:`to_milli`, rules.md §6 Decision: at
least 3 decimals), so a replay is exact and the same on every machine once each change is
rounded. A tournament's changes are summed with :func:`math.fsum`, which is correctly rounded
and so independent of the order of the games.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction

from engine.ranks import Rank
from engine.timecontrol import Overtime, TimeControl
from engine.types import Outcome

# rules.md §6: β(r) = −7 · ln(3300 − r); the scale's top, where β is undefined
TOP = 3300
BETA_FACTOR = 7
# rules.md §6: con(r) = ((3300 − r) / 200) ^ 1.6
CON_DIVISOR = 200
CON_POWER = 1.6
# rules.md §6: bonus(r) = ln(1 + exp((2300 − r) / 80)) / 5
BONUS_CENTRE = 2300
BONUS_WIDTH = 80
BONUS_DIVISOR = 5
# rules.md §6: a rating never goes below −900
FLOOR = -900
# rules.md §6: the receiver of H ≥ 1 stones counts 100 · (H − 0.5) points stronger inside β
HANDICAP_STEP = 100
HANDICAP_HALF = 0.5
# ours: a handicap-adjusted rating inside β stays below 3300, where β ends (reached only when a
# player rated 2450 or more receives 9 stones)
BETA_CAP = TOP - 1
# rules.md §6: 1d = 2100, 100 points a rank (1k = 2000, 30k = −900, 7d = 2700)
RANK_POINTS = 100
ONE_DAN = 2100
# rules.md §6, professionals (the EGD's nominal table): 1p = 2700, each professional rank 30 more
ONE_PRO = 2700
PRO_POINTS = 30

SCORES = {Outcome.WIN: 1.0, Outcome.JIGO: 0.5, Outcome.LOSS: 0.0}
"""S of rules.md §6: 1 a win, ½ a jigo, 0 a loss."""

# rules.md §6, tournament class: weight, minimum basic time and adjusted time (minutes).
# Class D is for online tournaments only: it comes from the h9 header or a club setting,
# never from a time control (hoshi does not know whether a tournament was played online).
CLASS_WEIGHTS = {"A": Fraction(1), "B": Fraction(3, 4), "C": Fraction(1, 2), "D": Fraction(1, 4)}
CLASS_TIMES = (("A", 60, 75), ("B", 40, 50), ("C", 25, 30))
ONLINE_CLASS_TIMES = ("D", 40, 50)
# rules.md §6: adjusted time = basic time + overtime for this many moves
ADJUSTED_JAPANESE_MOVES = 45
ADJUSTED_CANADIAN_MOVES = 60
ADJUSTED_FISCHER_MOVES = 120


def beta(rating: float) -> float:
    """β(r) = −7 · ln(3300 − r) (rules.md §6).

    Raises:
        ValueError: for a rating of 3300 or more, where β is not defined.
    """
    if rating >= TOP:
        raise ValueError(f"a GoR must stay below {TOP}, not {rating}")
    return -BETA_FACTOR * math.log(TOP - rating)


def handicap_bonus(stones: int) -> float:
    """The points a receiver of ``stones`` counts stronger inside β: 100 · (H − 0.5) for
    H ≥ 1, nothing for an even game (rules.md §6, Handicap)."""
    if stones < 1:
        return 0.0
    return HANDICAP_STEP * (stones - HANDICAP_HALF)


def expected(rating: float, opponent: float, stones: int = 0) -> float:
    """Se = 1 / (1 + exp(β(r₂) − β(r))) with the handicap inside β (rules.md §6).

    Args:
        rating: the player's GoR r.
        opponent: the opponent's GoR r₂.
        stones: handicap from the player's side: positive = received, negative = given.

    A handicap-adjusted rating is capped at 3299 so that β stays defined (ours).
    """
    own = min(BETA_CAP, rating + handicap_bonus(stones))
    other = min(BETA_CAP, opponent + handicap_bonus(-stones))
    return 1.0 / (1.0 + math.exp(beta(other) - beta(own)))


def con(rating: float) -> float:
    """con(r) = ((3300 − r) / 200) ^ 1.6 (rules.md §6)."""
    return float(((TOP - rating) / CON_DIVISOR) ** CON_POWER)


def bonus(rating: float) -> float:
    """bonus(r) = ln(1 + exp((2300 − r) / 80)) / 5 (rules.md §6).

    ``log1p`` keeps it exact for strong players; for very weak ones the exponent is large
    and ln(1 + eˣ) = x + ln(1 + e⁻ˣ) avoids an overflow.
    """
    x = (BONUS_CENTRE - rating) / BONUS_WIDTH
    if x > 0:
        return (x + math.log1p(math.exp(-x))) / BONUS_DIVISOR
    return math.log1p(math.exp(x)) / BONUS_DIVISOR


def game_change(rating: float, opponent: float, score: float, stones: int = 0) -> float:
    """One game's change before the class weight: con(r) · (S − Se) + bonus(r) (rules.md §6)."""
    return con(rating) * (score - expected(rating, opponent, stones)) + bonus(rating)


def new_rating(rating: float, change: float, weight: float = 1.0) -> float:
    """r + weight · change, never below −900 (rules.md §6)."""
    return max(float(FLOOR), rating + weight * change)


def tournament_change(
    rating: float, games: Iterable[tuple[float, float, int]], weight: float = 1.0
) -> float:
    """A player's summed, weighted change over a tournament (rules.md §6, Tournaments).

    Every game uses the ratings from before the tournament: ``games`` are (opponent's rating
    before, S, stones from the player's side). ``fsum`` is correctly rounded, so the order of
    the games does not matter.
    """
    # game_change's terms of the player's own rating, worked out once: the same floats
    factor, extra = con(rating), bonus(rating)
    return weight * math.fsum(
        factor * (score - expected(rating, opponent, stones)) + extra
        for opponent, score, stones in games
    )


def to_milli(points: float) -> int:
    """GoR points in whole thousandths, half away from zero upward (rules.md §6 Decision:
    ratings are kept to at least 3 decimals)."""
    return math.floor(points * 1000 + 0.5)


def shown(milli: int) -> int:
    """The rating as shown: whole points, half up (rules.md §6 Decision)."""
    return (milli + 500) // 1000


def initial_rating(rank: Rank, pro: int = 0) -> int:
    """The starting GoR of a declared rank: 1d = 2100, 100 a rank; a rank weaker than 30k
    starts at −900 (rules.md §6, New players; professionals and the ends of the ladder).

    Args:
        rank: the declared amateur rank.
        pro: N of a declared professional rank Np (1–9): 1p = 2700, 30 more a rank
            (2p 2730 … 9p 2940); 0 for an amateur.
    """
    if pro:
        return ONE_PRO + PRO_POINTS * (pro - 1)
    return max(FLOOR, ONE_DAN + RANK_POINTS * (rank.step - 1))


_WEAKEST_STEP = Rank.kyu(30).step
_STRONGEST_STEP = Rank.dan(9).step
_RANK_AT_STEP = {step: Rank(step) for step in range(_WEAKEST_STEP, _STRONGEST_STEP + 1)}
"""The ladder's ranks, 30k to 9d, made once (a Rank is immutable; a replay asks millions)."""


def rank_of(milli: int) -> Rank:
    """The rank of a rating rounded down to the 100s (rules.md §6: 2150 → 1d, 2099.9 → 1k);
    2900 and above is 9d, the ladder's end."""
    hundreds = milli // (RANK_POINTS * 1000)
    step = hundreds - (ONE_DAN // RANK_POINTS) + 1
    return _RANK_AT_STEP[max(_WEAKEST_STEP, min(_STRONGEST_STEP, step))]


def adjusted_minutes(time: TimeControl) -> Fraction:
    """Basic time plus overtime for 45 moves of Japanese byo-yomi, 60 moves of Canadian or
    120 moves of a Fischer increment, in minutes (rules.md §6, Tournament class)."""
    extra: Fraction
    if time.overtime is Overtime.JAPANESE:
        extra = Fraction(ADJUSTED_JAPANESE_MOVES * time.period_s)
    elif time.overtime is Overtime.CANADIAN:
        extra = Fraction(ADJUSTED_CANADIAN_MOVES * time.period_s, time.moves)
    elif time.overtime is Overtime.FISCHER:
        extra = Fraction(ADJUSTED_FISCHER_MOVES * time.period_s)
    else:
        extra = Fraction(0)
    return (time.base_s + extra) / 60


def class_of_time(time: TimeControl) -> str | None:
    """The class a time control gives: A, B or C; ``None`` below class C (rules.md §6).

    An unlimited game has more time than any class asks (ours): class A.
    """
    if time.unlimited:
        return "A"
    basic, adjusted = time.base_minutes, adjusted_minutes(time)
    for letter, least_basic, least_adjusted in CLASS_TIMES:
        if basic >= least_basic and adjusted >= least_adjusted:
            return letter
    return None


def class_weight(letter: str) -> Fraction:
    """The weight of a class letter A–D (rules.md §6: 1.00, 0.75, 0.50, 0.25).

    Raises:
        KeyError: for another letter.
    """
    return CLASS_WEIGHTS[letter]
