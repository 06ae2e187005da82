"""The EGF GoR formula (rules.md §6): β, Se with handicap, con, bonus, floor, classes, ranks.

Expected values are the rule's own numbers (rules.md §6 and its vectors) or worked from the
formula's definition by hand in the test, never produced by the code under test.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.gor.formula import (
    CLASS_WEIGHTS,
    FLOOR,
    adjusted_minutes,
    beta,
    bonus,
    class_of_time,
    class_weight,
    con,
    expected,
    game_change,
    handicap_bonus,
    initial_rating,
    new_rating,
    rank_of,
    shown,
    to_milli,
    tournament_change,
)
from engine.ranks import Rank
from engine.timecontrol import TimeControl

ratings = st.floats(min_value=-900, max_value=3000, allow_nan=False)
scores = st.sampled_from([0.0, 0.5, 1.0])
stones = st.integers(min_value=-9, max_value=9)


def test_beta_is_minus_seven_ln_of_the_distance_to_3300() -> None:
    assert beta(2300) == pytest.approx(-7 * math.log(1000))
    assert beta(-900) == pytest.approx(-7 * math.log(4200))
    with pytest.raises(ValueError, match="below 3300"):
        beta(3300)


def test_con_and_bonus_at_the_rules_points() -> None:
    # rules.md §6 vector: 2100 → con 17.58, bonus 0.516
    assert con(2100) == pytest.approx(17.5809, abs=1e-4)
    assert bonus(2100) == pytest.approx(0.5158, abs=1e-4)
    assert con(3100) == pytest.approx(1.0)  # (200/200)^1.6
    assert bonus(2300) == pytest.approx(math.log(2) / 5)


def test_bonus_of_the_weakest_players_does_not_overflow() -> None:
    # (2300 − (−900)) / 80 = 40: ln(1 + e^40) / 5 ≈ 8
    assert bonus(-900) == pytest.approx(8.0, abs=1e-9)
    assert bonus(-100000) == pytest.approx((2300 + 100000) / 80 / 5)


@pytest.mark.parametrize(("h", "points"), [(0, 0), (-3, 0), (1, 50), (2, 150), (9, 850)])
def test_a_receiver_of_h_stones_counts_100_times_h_minus_half_stronger(
    h: int, points: int
) -> None:
    assert handicap_bonus(h) == points


@given(ratings, ratings, stones)
def test_both_sides_expected_scores_add_up_to_one(r: float, r2: float, h: int) -> None:
    assert expected(r, r2, h) + expected(r2, r, -h) == pytest.approx(1.0)


@given(ratings, ratings, scores, stones, st.sampled_from(sorted(CLASS_WEIGHTS)))
def test_a_rating_never_goes_below_the_floor(
    r: float, r2: float, score: float, h: int, letter: str
) -> None:
    after = new_rating(r, game_change(r, r2, score, h), float(class_weight(letter)))
    assert after >= FLOOR


def test_a_strong_receiver_of_nine_stones_stays_inside_beta() -> None:
    # 2500 + 100 × 8.5 = 3350 would leave β undefined: capped at 3299 (ours)
    capped = 1 / (1 + math.exp(beta(2000) - beta(3299)))
    assert expected(2500, 2000, 9) == pytest.approx(capped)
    assert expected(2000, 2500, -9) == pytest.approx(1 - capped)


def test_the_floor_holds_a_losing_bottom_player() -> None:
    assert game_change(-900, -900, 0.0) < 0  # con(−900) · ½ ≈ 65 against a bonus of 8
    assert new_rating(-900, game_change(-900, -900, 0.0)) == FLOOR


@given(
    ratings,
    st.lists(st.tuples(ratings, scores, stones), min_size=1, max_size=10),
    st.randoms(use_true_random=False),
)
def test_a_tournament_change_does_not_depend_on_the_order_of_its_games(
    r: float, games: list[tuple[float, float, int]], rnd: object
) -> None:
    shuffled = list(games)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert tournament_change(r, shuffled) == tournament_change(r, games)


def test_a_tournament_sums_changes_from_the_ratings_before_it() -> None:
    # rules.md §6: no update between rounds — the sum of single games from the same start
    games = [(20.0, 1.0, 0), (40.0, 0.5, 0), (10.0, 0.0, 0), (-40.0, 1.0, 0)]
    by_hand = sum(game_change(0, opponent, s, h) for opponent, s, h in games)
    assert tournament_change(0, games) == pytest.approx(by_hand)
    assert tournament_change(0, games, 0.75) == pytest.approx(0.75 * by_hand)


@pytest.mark.parametrize(
    ("text", "adjusted", "letter"),
    [
        ("60m 3x30s japanese", Fraction(165, 2), "A"),  # 60 + 45 × 30 s
        ("60m", Fraction(60), "B"),  # basic 60 but adjusted under 75
        ("60m 1x20s japanese", Fraction(75), "A"),  # 60 + 45 × 20 s = 75 exactly
        ("40m 30/5m canadian", Fraction(50), "B"),  # 40 + 60 moves of 5 min / 30 moves
        ("30m+10s fischer", Fraction(50), "C"),  # 30 + 120 × 10 s; basic under 40
        ("25m 1x10s japanese", Fraction(65, 2), "C"),
        ("25m", Fraction(25), None),  # adjusted under 30
        ("20m 5x60s japanese", Fraction(65), None),  # basic under 25
        ("39m 1x60s japanese", Fraction(84), "C"),
    ],
)
def test_the_class_from_basic_and_adjusted_time(
    text: str, adjusted: Fraction, letter: str | None
) -> None:
    time = TimeControl.parse(text)
    assert adjusted_minutes(time) == adjusted
    assert class_of_time(time) == letter


def test_unlimited_time_is_class_a() -> None:
    assert class_of_time(TimeControl.parse("unlimited")) == "A"


def test_class_weights() -> None:
    assert [class_weight(c) for c in "ABCD"] == [1, Fraction(3, 4), Fraction(1, 2), Fraction(1, 4)]
    with pytest.raises(KeyError):
        class_weight("E")


@pytest.mark.parametrize(
    ("rank", "rating"),
    [("30k", -900), ("20k", 100), ("1k", 2000), ("1d", 2100), ("7d", 2700), ("9d", 2900)],
)
def test_initial_ratings_100_a_rank(rank: str, rating: int) -> None:
    assert initial_rating(Rank.parse(rank)) == rating


def test_ranks_weaker_than_30k_start_at_the_floor() -> None:
    assert initial_rating(Rank.kyu(35)) == FLOOR


@pytest.mark.parametrize(
    ("milli", "rank"),
    [
        (2_150_000, "1d"),
        (2_099_900, "1k"),
        (2_099_999, "1k"),
        (2_100_000, "1d"),
        (-900_000, "30k"),
        (-1, "22k"),  # −0.001 rounds down to −100: 22k (0 is 21k, 100 is 20k)
        (0, "21k"),
        (100_000, "20k"),
        (2_900_000, "9d"),
        (3_150_000, "9d"),
    ],
)
def test_the_rank_shown_is_the_ratings_rounded_down_to_the_100s(milli: int, rank: str) -> None:
    assert rank_of(milli) == Rank.parse(rank)


def test_thousandths_and_whole_points() -> None:
    assert to_milli(2109.3062) == 2_109_306
    assert to_milli(2109.3065) == 2_109_307
    assert to_milli(-38.6051) == -38_605
    assert shown(2_109_306) == 2109
    assert shown(68_500) == 69
    assert shown(-38_605) == -39
