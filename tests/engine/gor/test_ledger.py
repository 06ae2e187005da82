"""The EGF GoR ledger (rules.md §6, §5): registrations, club games, tournaments and classes,
settings, overrides, queries, calendar order and a 40-player tournament worked by hand."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import math
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any, get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.calendar import Phase, event_key
from engine.errors import EngineError, RuleError
from engine.formats.h9 import parse_h9
from engine.formats.tournament_file import to_engine
from engine.gor import SETTINGS, Gor, GorParams
from engine.ranks import Rank
from engine.system import Applied, Measure, RatingSystem
from engine.systems import SYSTEMS
from engine.timecontrol import TimeControl
from engine.types import (
    DayEnded,
    EgfRating,
    Entry,
    Event,
    Game,
    GamePlayed,
    MonthEnded,
    Override,
    PeriodClosed,
    Registered,
    Result,
    SettingsChanged,
    TeacherAction,
    TeacherKind,
    Tournament,
    TournamentRated,
    VerificationSuspended,
)

DAY = dt.date(2026, 11, 20)
H9_DATA = Path(__file__).parents[1] / "formats" / "data"
NEXT = dt.date(2026, 11, 21)
TIME_B = TimeControl.parse("40m 30/5m canadian")  # basic 40, adjusted 50: class B


def club(*ratings: int, params: GorParams | None = None) -> Gor:
    gor = Gor(params)
    for player, rating in enumerate(ratings, start=1):
        gor.apply(Registered(player, Rank.kyu(10), DAY, rating=rating))
    return gor


def game(gid: int = 1, black: int = 1, white: int = 2, **kw: Any) -> Game:
    kw.setdefault("result", Result.BLACK)
    kw.setdefault("date", DAY)
    return Game(gid, black, white, **kw)


def state(ledger: Gor) -> str:
    return json.dumps(ledger.snapshot(), sort_keys=True)


def by_hand(r: float, r2: float, score: float, h: int = 0) -> float:
    """con · (S − Se) + bonus written out from rules.md §6, independent of engine.gor."""
    own = r + (100 * (h - 0.5) if h >= 1 else 0)
    other = r2 + (100 * (-h - 0.5) if h <= -1 else 0)
    se = 1 / (1 + math.exp(-7 * math.log(3300 - other) + 7 * math.log(3300 - own)))
    con = ((3300 - r) / 200) ** 1.6
    bonus = math.log(1 + math.exp((2300 - r) / 80)) / 5
    return con * (score - se) + bonus


# ------------------------------------------------------------------ the registry and protocol


def test_gor_is_the_fifth_system_in_the_registry() -> None:
    assert SYSTEMS["gor"] is Gor
    ledger: RatingSystem = Gor()
    assert ledger.key == "gor"
    assert ledger.scheduled == frozenset()


def test_gor_handles_what_its_dispatch_table_names_and_nothing_else() -> None:
    assert Gor.handles == set(Gor._HANDLERS) < set(get_args(Event))


@pytest.mark.parametrize(
    "event",
    [
        PeriodClosed(Tournament(9, "period", DAY, DAY, 1)),
        DayEnded(DAY),
        MonthEnded(2026, 11),
        TeacherAction(1, TeacherKind.PROMOTE, DAY),
        VerificationSuspended(1, True, DAY),
    ],
    ids=lambda e: type(e).__name__,
)
def test_other_rulebooks_events_change_nothing(event: Event) -> None:
    gor = club(2100, 2000)
    before = state(gor)
    assert type(event) not in gor.handles
    assert gor.apply(event) == Applied([], frozenset())
    assert state(gor) == before


def test_the_quiet_answers_of_a_system_without_schedules_or_entry_rules() -> None:
    gor = club(2100)
    tournament = Tournament(1, "Cup", DAY, DAY, 3, time=TIME_B)
    assert gor.open_period() == ()
    assert gor.due(DAY + dt.timedelta(days=400)) == []
    assert gor.announcement(Phase.DAY_END, "2026-11-20", []) is None
    assert gor.entry_notes(tournament, [Entry(1, Rank.kyu(5))]) == []
    assert gor.initial_rank_limit() is None


# ------------------------------------------------------------------ registrations


def test_a_new_player_starts_at_the_declared_ranks_gor() -> None:
    gor = Gor()
    (change,) = gor.apply(Registered(1, Rank.dan(2), DAY)).changes
    assert gor.gor(1) == 2200
    assert change.rating_after == 2200 and change.rank_after == Rank.dan(2)
    assert "2d" in change.note


def test_a_given_rating_wins_over_the_rank_and_sets_the_rank_shown() -> None:
    gor = Gor()
    gor.apply(Registered(1, Rank.kyu(5), DAY, rating=2150))
    assert gor.gor(1) == 2150
    assert gor.card(1).rank == Rank.dan(1)


@pytest.mark.parametrize("rating", [-901, 3201, 5000])
def test_a_rating_off_the_scale_is_refused_and_changes_nothing(rating: int) -> None:
    gor = club(2100)
    before = state(gor)
    with pytest.raises(RuleError, match=r"from -900 to 3200.*e\.g\. 2100"):
        gor.apply(Registered(2, Rank.kyu(5), DAY, rating=rating))
    assert state(gor) == before


def test_a_player_cannot_register_twice() -> None:
    gor = club(2100)
    with pytest.raises(RuleError, match="already registered"):
        gor.apply(Registered(1, Rank.kyu(5), DAY))


# ------------------------------------------------------------------ club games


def test_a_club_game_is_rated_at_once_as_class_c() -> None:
    gor = club(2100, 2100)
    changes = gor.apply(GamePlayed(game())).changes
    gain = 0.5 * by_hand(2100, 2100, 1)  # class C: weight 0.50
    assert float(gor.gor(1)) == pytest.approx(2100 + gain, abs=0.0006)
    assert float(gor.gor(2)) == pytest.approx(2100 + 0.5 * by_hand(2100, 2100, 0), abs=0.0006)
    assert [c.source for c in changes] == ["game:1", "game:1"]
    assert "class C" in changes[0].note
    assert gor.card(1).games == 1 and gor.card(1).last_played == DAY


def test_a_handicap_club_game_counts_the_receiver_stronger() -> None:
    gor = club(1000, 1300, params=GorParams(club_class="A"))
    gor.apply(GamePlayed(game(black=1, white=2, stones=1, result=Result.WHITE)))
    # rules.md §6 vector: Se 0.30481 for the 1000 player with one stone
    se = 0.30481
    con = (2300 / 200) ** 1.6
    bonus = math.log(1 + math.exp(1300 / 80)) / 5
    assert float(gor.gor(1)) == pytest.approx(1000 + con * (0 - se) + bonus, abs=0.01)


@pytest.mark.parametrize(
    ("kw", "why"),
    [
        ({"played": False}, "unplayed"),
        ({"result": None}, "without a result"),
        ({"board": 13}, "13×13"),
        ({"pair_go": True}, "pair go"),
    ],
)
def test_games_gor_does_not_rate_say_why_and_change_nothing(kw: dict[str, Any], why: str) -> None:
    gor = club(2100, 2000)
    the_game = game(**kw)
    answer = gor.uncounted(the_game)
    assert answer is not None and why in answer and "rules.md" not in answer
    before = state(gor)
    assert gor.apply(GamePlayed(the_game)).changes == []
    assert state(gor) == before


def test_a_tournament_game_is_not_judged_by_its_own_clock() -> None:
    """The tournament's class decides, and a game cannot see it: a 20-minute game of a
    tournament given class D counts (rules.md §6, Tournament class), so the game alone is
    never called unrated for its clock; the tournament says so itself (tournament_weight)."""
    gor = club(2100, 2000)
    assert gor.uncounted(game(tournament=3, time=TimeControl.parse("20m"))) is None
    assert gor.uncounted(game(tournament=3, time=TIME_B)) is None
    short = _cup(klass=None, time=TimeControl.parse("20m"))
    assert gor.tournament_weight(short).rated is False
    # a club game takes the club's class, whatever its clock
    assert gor.uncounted(game(time=TimeControl.parse("20m"))) is None


def test_a_club_game_of_an_unregistered_player_is_refused() -> None:
    gor = club(2100)
    with pytest.raises(RuleError, match=r"player 2 of game \{game:1\} is not registered"):
        gor.apply(GamePlayed(game()))


def test_one_days_club_games_use_the_ratings_of_the_days_start() -> None:
    gor = club(2100, 2000, 1900)
    gor.apply(GamePlayed(game(1, 1, 2)))
    gor.apply(GamePlayed(game(2, 1, 3)))
    # player 1's second game is rated from 2100 (the day's start), not from after the first
    expected = 2100 + 0.5 * (by_hand(2100, 2000, 1) + by_hand(2100, 1900, 1))
    assert float(gor.gor(1)) == pytest.approx(expected, abs=0.001)
    # the next day starts from the ratings the first day left
    day2 = {p: float(gor.gor(p)) for p in (1, 2, 3)}
    gor.apply(GamePlayed(game(3, 1, 3, date=NEXT)))
    gor.apply(GamePlayed(game(4, 1, 2, date=NEXT)))
    gains = by_hand(day2[1], day2[3], 1) + by_hand(day2[1], day2[2], 1)
    assert float(gor.gor(1)) == pytest.approx(day2[1] + 0.5 * gains, abs=0.001)


def test_the_floor_applies_to_the_days_sum_whatever_the_order() -> None:
    def play(order: list[Result]) -> Fraction:
        gor = club(-900, -900)
        for gid, result in enumerate(order, start=1):
            gor.apply(GamePlayed(game(gid, result=result)))
        return gor.gor(1)

    win_first = play([Result.BLACK, Result.WHITE])
    loss_first = play([Result.WHITE, Result.BLACK])
    assert win_first == loss_first
    assert win_first > -900


# ------------------------------------------------------------------ tournaments and classes


def _cup(**kw: Any) -> Tournament:
    kw.setdefault("time", TIME_B)
    return Tournament(5, "Autumn Cup", DAY, NEXT, 2, **kw)


def test_a_tournament_uses_the_ratings_before_it_and_its_class() -> None:
    gor = club(2100, 2000, 1900)
    games = (
        game(1, 2, 1, result=Result.WHITE, tournament=5, round=1),
        game(2, 3, 1, result=Result.WHITE, tournament=5, round=2, date=NEXT),
        game(3, 3, 2, result=Result.BLACK, tournament=5, round=1),
    )
    entries = tuple(Entry(p, Rank.kyu(5)) for p in (1, 2, 3))
    changes = gor.apply(TournamentRated(_cup(), entries, games)).changes
    expected = 2100 + 0.75 * (by_hand(2100, 2000, 1) + by_hand(2100, 1900, 1))
    assert float(gor.gor(1)) == pytest.approx(expected, abs=0.001)
    mine = next(c for c in changes if c.player == 1)
    assert mine.source == "tournament:5" and mine.date == NEXT
    assert "class B" in mine.note and "2 games" in mine.note
    assert gor.card(1).games == 2


def test_the_header_class_wins_over_the_time_control() -> None:
    gor = club(2100, 2100)
    games = (game(1, tournament=5, round=1),)
    entries = (Entry(1, Rank.dan(1)), Entry(2, Rank.dan(1)))
    gor.apply(TournamentRated(_cup(klass="d", time=None), entries, games))
    assert float(gor.gor(1)) == pytest.approx(2100 + 0.25 * by_hand(2100, 2100, 1), abs=0.001)


def test_a_header_class_rates_games_whose_own_clock_is_below_class_c() -> None:
    gor = club(2100, 2100)
    fast = TimeControl.parse("20m")
    games = (game(1, tournament=5, round=1, time=fast),)
    assert gor.apply(TournamentRated(_cup(klass="B", time=fast), (), games)).changes != []
    assert float(gor.gor(1)) == pytest.approx(2100 + 0.75 * by_hand(2100, 2100, 1), abs=0.001)


def test_a_tournament_below_class_c_is_not_rated() -> None:
    gor = club(2100, 2100)
    before = state(gor)
    slow = _cup(time=TimeControl.parse("20m 1x30s japanese"))
    games = (game(1, tournament=5, round=1),)
    assert gor.apply(TournamentRated(slow, (), games)).changes == []
    assert state(gor) == before
    weight = gor.tournament_weight(slow)
    assert weight.rated is False and weight.value is None
    assert any("below class C" in line for line in weight.lines)


def test_a_tournament_without_time_or_class_is_refused_with_an_example() -> None:
    gor = club(2100, 2100)
    before = state(gor)
    with pytest.raises(RuleError, match=r"e\.g\. 60m 3x30s japanese.*CL\[B\]"):
        gor.apply(TournamentRated(_cup(time=None), (), (game(1, tournament=5, round=1),)))
    assert state(gor) == before


def test_an_unknown_class_letter_is_refused() -> None:
    with pytest.raises(RuleError, match="A, B, C and D"):
        Gor().tournament_weight(_cup(klass="E"))


def test_tournament_weight_explains_the_class() -> None:
    weight = Gor().tournament_weight(_cup())
    assert (weight.label, weight.value, weight.rated) == ("Tournament class", "B", True)
    assert any("adjusted time 50 min" in line for line in weight.lines)
    assert any("× 0.75" in line for line in weight.lines)
    header = Gor().tournament_weight(_cup(klass="A", time=None))
    assert header.lines == ("class A given for the tournament: every change × 1.00",)
    small = Gor().tournament_weight(_cup(board=13))
    assert small.rated is False and "only 19×19" in small.lines[-1]


def test_a_guest_plays_at_the_declared_rank_and_is_not_stored() -> None:
    gor = club(2100)
    entries = (Entry(1, Rank.dan(1)), Entry(77, Rank.dan(3), registered=False))
    games = (game(1, 77, 1, result=Result.WHITE, tournament=5, round=1),)
    changes = gor.apply(TournamentRated(_cup(), entries, games)).changes
    assert [c.player for c in changes] == [1]
    assert 77 not in set(gor.players())
    assert float(gor.gor(1)) == pytest.approx(2100 + 0.75 * by_hand(2100, 2300, 1), abs=0.001)


def test_a_player_without_entry_or_registration_is_refused_atomically() -> None:
    gor = club(2100)
    before = state(gor)
    with pytest.raises(RuleError, match=r"player 9 of game \{game:1\} .*no entry"):
        gor.apply(TournamentRated(_cup(), (), (game(1, 9, 1, tournament=5, round=1),)))
    assert state(gor) == before


def test_unplayed_and_small_board_tournament_games_are_skipped() -> None:
    gor = club(2100, 2100)
    games = (
        game(1, tournament=5, round=1, played=False),
        game(2, tournament=5, round=2, board=9),
    )
    assert gor.apply(TournamentRated(_cup(), (), games)).changes == []
    assert gor.card(1).games == 0


# ------------------------------------------------------------------ settings


def test_settings_declare_the_club_class_with_reading_showing_and_examples() -> None:
    (klass,) = SETTINGS
    assert klass.key == "gor.club_class" and klass.field == "club_class"
    assert klass.read(" b ") == "B" and klass.show("B") == "B" and klass.default == "C"
    assert klass.allowed == "one of A, B, C, D" and klass.example == "B"


@pytest.mark.parametrize("text", ["E", "", "class B", "3"])
def test_a_bad_club_class_names_the_allowed_values(text: str) -> None:
    (klass,) = SETTINGS
    with pytest.raises(EngineError, match=r"one of A, B, C, D, not .*\(e\.g\. gor.club_class B"):
        klass.read(text)


def test_settings_changed_sets_the_club_class_from_its_date() -> None:
    gor = club(2100, 2100)
    gor.apply(SettingsChanged(DAY, (("gor.club_class", "A"), ("tensuusei.anchor", 5))))
    assert gor.params.club_class == "A"
    gor.apply(GamePlayed(game()))
    assert float(gor.gor(1)) == pytest.approx(2100 + by_hand(2100, 2100, 1), abs=0.001)


def test_a_bad_settings_change_is_refused_and_changes_nothing() -> None:
    gor = club(2100)
    before = state(gor)
    with pytest.raises(EngineError, match="one of A, B, C, D"):
        gor.apply(SettingsChanged(DAY, (("gor.club_class", "Z"),)))
    assert state(gor) == before


# ------------------------------------------------------------------ overrides and EGF ratings


def test_an_override_sets_the_rating_or_the_ranks_starting_rating() -> None:
    gor = club(2100)
    (change,) = gor.apply(Override(1, NEXT, "committee", rating=2345)).changes
    assert gor.gor(1) == 2345 and change.rating_before == 2100
    gor.apply(Override(1, NEXT, "committee", rank=Rank.kyu(3)))
    assert gor.gor(1) == 1800 and gor.rank(1) == Rank.kyu(3)


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({}, "rating=N or rank=R"),
        ({"rating": 2150, "rank": Rank.dan(3)}, "GoR 2150 is 1d, not 3d.*rating=2300"),
        ({"rating": 4000}, "from -900 to 3200"),
    ],
)
def test_a_bad_override_is_refused(kw: dict[str, Any], message: str) -> None:
    gor = club(2100)
    before = state(gor)
    with pytest.raises(RuleError, match=message):
        gor.apply(Override(1, NEXT, "why", **kw))
    assert state(gor) == before


def test_an_egf_rating_sets_the_gor_from_its_month() -> None:
    gor = club(2100)
    (change,) = gor.apply(EgfRating(1, 2234, 2026, 12)).changes
    assert gor.gor(1) == 2234
    assert change.source == "egf:2026-12" and change.date == dt.date(2026, 12, 1)
    with pytest.raises(RuleError, match="player 5 is not registered"):
        gor.apply(EgfRating(5, 2234, 2026, 12))


# ------------------------------------------------------------------ queries


def test_the_card_carries_typed_values() -> None:
    gor = club(2109)
    gor.apply(Override(1, DAY, "x", rating=2150))
    card = gor.card(1)
    assert card.rating == 2150 and card.rating_label == "GoR" and card.rank == Rank.dan(1)
    # the games rated are the card's own ``games`` (a value of their own would repeat them)
    assert card.values == (Measure("gor", "GoR", "2150.000", "GoR"),)
    assert card.sort_key == (2_150_000,)
    with pytest.raises(KeyError, match="not registered under the EGF GoR"):
        gor.card(9)


def test_ratings_are_shown_in_whole_points_and_kept_to_three_decimals() -> None:
    """rules.md §6 Decision: kept to at least 3 decimals, shown rounded to whole points (half
    up): 2100 beats 2100 in class A → 2109.306 kept, 2109 shown; the loser 2091.725 → 2092."""
    gor = club(2100, 2100, params=GorParams(club_class="A"))
    won, lost = gor.apply(GamePlayed(game())).changes
    assert (won.rating_before, won.rating_after) == (2100, 2109)
    assert (lost.rating_before, lost.rating_after) == (2100, 2092)
    assert all(type(v) is int for v in (won.rating_after, lost.rating_after))
    card = gor.card(1)
    assert card.rating == 2109 and type(card.rating) is int
    assert card.values[0] == Measure("gor", "GoR", "2109.306", "GoR")
    assert gor.card(2).values[0] == Measure("gor", "GoR", "2091.725", "GoR")
    assert gor.gor(1) == Fraction(2109306, 1000)  # the ledger's own value stays exact
    # the next day's game is rated from the exact 2109.306 and 2091.725, never the shown
    gor.apply(GamePlayed(game(2, date=NEXT)))
    a, b = 2109.306, 2091.725
    assert float(gor.gor(1)) == pytest.approx(a + by_hand(a, b, 1), abs=0.0006)
    assert gor.card(1).rating == math.floor(gor.gor(1) + Fraction(1, 2))


def test_a_rating_below_zero_is_kept_and_shown_like_any_other() -> None:
    gor = club(-900, 2100)
    gor.apply(Override(1, DAY, "x", rating=-5))
    assert gor.card(1).values[0].value == "-5.000" and gor.card(1).rating == -5


@pytest.mark.parametrize(
    ("a", "b", "black", "stones", "komi"),
    [
        (2100, 2100, 1, 0, Fraction(13, 2)),
        (2100, 2001, 2, 0, Fraction(13, 2)),  # 99 points: even
        (2100, 1950, 2, 1, Fraction(0)),  # 150 points: 1 stone, no komi
        (1850, 2100, 1, 2, Fraction(1, 2)),  # 250 points: 2 stones, komi 0.5
        (2500, 500, 2, 9, Fraction(1, 2)),  # capped
    ],
)
def test_handicap_is_the_gor_difference_over_100_rounded_down(
    a: int, b: int, black: int, stones: int, komi: Fraction
) -> None:
    advice = club(a, b).handicap(1, 2)
    assert (advice.black, advice.stones, advice.komi) == (black, stones, komi)


def test_handicap_names_the_difference_a_member_can_check() -> None:
    """The shown ratings' difference when it gives the same stones as the kept ratings';
    else the kept difference, to three decimals (rules.md §6: stones = difference ÷ 100
    rounded down, ratings shown in whole points)."""
    gor = club(1990, 2350, 1660)
    gor.apply(GamePlayed(game()))  # player 1: 1999.539, shown 2000
    gor.apply(Override(2, DAY, "x", rating=1900))
    assert gor.card(1).rating == 2000
    advice = gor.handicap(1, 3)  # 1999.539 − 1660 = 339.539, shown 2000 − 1660 = 340
    assert (advice.stones, advice.notes[0]) == (3, "GoR difference 340 (2000 − 1660)")
    advice = gor.handicap(1, 2)  # 99.539: even; the shown 2000 − 1900 = 100 would be 1 stone
    assert advice.stones == 0
    assert advice.notes[0] == "GoR difference 99.539 (1999.539 − 1900.000, shown 2000 − 1900)"


def test_handicap_reduction_and_the_clubs_even_komi() -> None:
    gor = club(1800, 2100, params=GorParams(even_komi=Fraction(7)))
    assert gor.handicap(1, 2, reduction=1).stones == 2
    assert gor.handicap(1, 2, reduction=3).komi == 7


def test_promotion_counts_points_to_the_next_hundred() -> None:
    gor = club(2150)
    progress = gor.promotion(1)
    assert progress.rank == Rank.dan(1) and progress.target == Rank.dan(2)
    assert progress.lines[0] == "50 GoR points to 2d (GoR 2200; now 2150)"
    gor.apply(Override(1, DAY, "x", rating=2950))
    assert gor.promotion(1).target is None


def test_promotion_speaks_in_whole_points() -> None:
    """2100 beats 2100 in class C: 2104.653 kept, 2105 shown; 95.347 to 2d: 96 whole points
    are needed (95 are not enough)."""
    gor = club(2100, 2100)
    gor.apply(GamePlayed(game()))
    assert gor.promotion(1).lines[0] == "96 GoR points to 2d (GoR 2200; now 2105)"
    gor.apply(Override(1, DAY, "x", rating=2199))
    assert gor.promotion(1).lines[0] == "1 GoR point to 2d (GoR 2200; now 2199)"


def test_promotion_names_a_rating_shown_at_the_boundary_but_still_below_it() -> None:
    """1990 beats 2350 in class C: 1999.539 is shown as 2000 but is still 2k (rounded down
    to the 100s, rules.md §6): one more point makes 1k."""
    gor = club(1990, 2350)
    gor.apply(GamePlayed(game()))
    assert gor.card(1).rating == 2000 and gor.card(1).rank == Rank.kyu(2)
    assert gor.promotion(1).lines[0] == "1 GoR point to 1k (GoR 2000; now 1999.539, shown as 2000)"


def test_rating_scale_and_rank_bands() -> None:
    gor = Gor()
    scale = gor.rating_scale()
    assert (scale.low, scale.high) == (-900, 3200)
    bands = gor.rank_bands()
    assert bands[0] == (-900.0, -800.0, Rank.kyu(30))
    assert bands[-1] == (2900.0, 3200.0, Rank.dan(9))
    assert len(bands) == 39
    assert all(lower.high == upper.low for lower, upper in itertools.pairwise(bands))


# ------------------------------------------------------------------ calendar order


facts = st.lists(
    st.tuples(
        st.integers(0, 3),  # day offset
        st.integers(1, 4),  # black
        st.integers(1, 4),  # white
        st.sampled_from([Result.BLACK, Result.WHITE, Result.JIGO]),
        st.integers(0, 3),  # stones
    ),
    min_size=1,
    max_size=12,
)


@given(facts, st.randoms(use_true_random=False), st.booleans())
def test_the_same_dated_facts_in_any_entry_order_give_the_same_snapshot(
    rows: list[tuple[int, int, int, Result, int]], rnd: Any, with_tournament: bool
) -> None:
    events: list[Event] = [
        Registered(p, Rank.kyu(5), DAY, rating=1500 + 100 * p) for p in range(1, 5)
    ]
    for gid, (offset, black, white, result, stones) in enumerate(rows, start=1):
        if black != white:
            day = DAY + dt.timedelta(days=offset)
            events.append(GamePlayed(Game(gid, black, white, result, day, stones=stones)))
    if with_tournament:
        cup = Tournament(50, "Cup", DAY, DAY + dt.timedelta(days=1), 1, time=TIME_B)
        games = (Game(100, 1, 2, Result.WHITE, DAY, tournament=50, round=1),)
        events.append(TournamentRated(cup, (Entry(1, Rank.kyu(5)), Entry(2, Rank.kyu(5))), games))

    def replay(order: list[Event]) -> str:
        keyed = sorted((event_key(e, position), position) for position, e in enumerate(order))
        ledger = Gor()
        for _, position in keyed:
            ledger.apply(order[position])
        return state(ledger)

    shuffled = list(events)
    rnd.shuffle(shuffled)
    assert replay(shuffled) == replay(events)


# ------------------------------------------------------------------ 40 players, by hand


ROUNDS = 5
PLAYERS = 40
GUESTS = {39: Rank.kyu(15), 40: Rank.dan(2)}


def _rating(player: int) -> int:
    return 2450 - 65 * (player - 1)  # 2450 (3d) down to −85 (21k) for player 40


def _pairings() -> list[list[tuple[int, int]]]:
    """Five rounds of the circle method: player 1 fixed, the others turn; no pair twice."""
    others = list(range(2, PLAYERS + 1))
    rounds = []
    for r in range(ROUNDS):
        turned = others[r:] + others[:r]
        line = [1, *turned]
        rounds.append([(line[i], line[PLAYERS - 1 - i]) for i in range(PLAYERS // 2)])
    return rounds


def _forty() -> tuple[Gor, TournamentRated, dict[int, float]]:
    gor = Gor()
    start: dict[int, float] = {}
    for player in range(1, PLAYERS + 1):
        if player in GUESTS:
            start[player] = 2100 + 100 * (GUESTS[player].step - 1)
        else:
            start[player] = _rating(player)
            gor.apply(Registered(player, Rank.kyu(10), DAY, rating=_rating(player)))
    games = []
    gid = 1
    for rnd, pairs in enumerate(_pairings(), start=1):
        for a, b in pairs:
            black, white = (a, b) if start[a] <= start[b] else (b, a)
            stones = max(0, min(9, int(start[white] - start[black]) // 100 - 2))  # handicap −2
            pick = (a * 7 + b * 3 + rnd) % 6
            result = Result.JIGO if pick == 5 else Result.BLACK if pick < 2 else Result.WHITE
            day = DAY if rnd <= 3 else NEXT
            games.append(
                Game(gid, black, white, result, day, stones=stones, tournament=9, round=rnd)
            )
            gid += 1
    entries = tuple(
        Entry(p, GUESTS.get(p, Rank.kyu(10)), registered=p not in GUESTS)
        for p in range(1, PLAYERS + 1)
    )
    cup = Tournament(9, "Forty", DAY, NEXT, ROUNDS, time=TIME_B, participants=PLAYERS)
    return gor, TournamentRated(cup, entries, tuple(games)), start


def test_a_40_player_tournament_matches_the_formula_by_hand() -> None:
    gor, event, start = _forty()
    total = dict.fromkeys(start, 0.0)
    for g in event.games:
        score_black = {Result.BLACK: 1.0, Result.WHITE: 0.0, Result.JIGO: 0.5}[g.result]
        total[g.black] += by_hand(start[g.black], start[g.white], score_black, g.stones)
        total[g.white] += by_hand(start[g.white], start[g.black], 1 - score_black, -g.stones)
    changes = gor.apply(event).changes
    assert len(changes) == PLAYERS - len(GUESTS)
    for player in range(1, PLAYERS + 1):
        if player in GUESTS:
            assert player not in set(gor.players())
            continue
        after = max(-900.0, start[player] + 0.75 * total[player])  # class B
        assert float(gor.gor(player)) == pytest.approx(after, abs=0.001), player
        assert gor.card(player).games == ROUNDS
    assert sum(1 for g in event.games if g.stones) > 10  # the handicap rule was exercised


def test_the_40_player_tournament_gives_the_same_result_in_any_game_order() -> None:
    gor, event, _ = _forty()
    again, _, _ = _forty()
    gor.apply(event)
    again.apply(TournamentRated(event.tournament, event.entries, tuple(reversed(event.games))))
    assert state(gor) == state(again)


# ------------------------------------------------------------------ an h9 file, as `hoshi rate`


def test_an_h9_files_class_header_rates_the_tournament_as_hoshi_rate_would() -> None:
    spring = parse_h9((H9_DATA / "spring_cup_40x5.h9").read_bytes())
    ids = {p.position: p.position for p in spring.players}
    tournament, entries, games = to_engine(spring, ids, set(ids.values()), 1, 1)
    gor = Gor()
    for player in spring.players:
        gor.apply(Registered(player.position, player.rank, tournament.start, committee=True))
    weight = gor.tournament_weight(tournament)
    # CL[C] wins over TM[60], which alone would give class B
    assert (weight.value, weight.rated) == ("C", True)
    assert gor.tournament_weight(replace(tournament, klass=None)).value == "B"
    changes = gor.apply(TournamentRated(tournament, entries, games)).changes
    assert changes and all("class C (× 0.50)" in c.note for c in changes)
    first = spring.players[0]
    start = 2100 + 100 * (first.rank.step - 1)
    mine = [g for g in games if g.rated and first.position in (g.black, g.white)]
    total = 0.0
    for g in mine:
        other = g.opponent(first.position)
        rank = spring.player(other).rank
        score = 1.0 if g.outcome_for(first.position).value == "win" else 0.0
        total += by_hand(start, 2100 + 100 * (rank.step - 1), score, g.stones_for(first.position))
    assert float(gor.gor(first.position)) == pytest.approx(start + 0.5 * total, abs=0.001)


def test_home_language_is_the_rulebooks_country() -> None:
    """The rulebook's language is a club's default language (issue 13)."""
    from engine.gor import Gor as system
    from engine.systems import home_language

    assert system.language == "en"
    assert system().language == "en"
    assert home_language("gor") == "en"


def test_gor_texts_are_translatable_messages() -> None:
    """Issue 13: the class lines, the card's label and a refusal are Msg."""
    from engine.text import Msg

    system = Gor()
    weight = system.tournament_weight(Tournament(1, "Cup", DAY, DAY, 5, time=TIME_B))
    assert isinstance(weight.label, Msg) and weight.label.template == "Tournament class"
    assert (
        weight.lines[-1].template == "class {klass} from the time control: every change × {weight}"
    )  # type: ignore[attr-defined]
    with pytest.raises(RuleError) as refused:
        system.apply(Registered(1, Rank.parse("1d"), DAY, rating=9000))
    assert refused.value.args[0].template.startswith("a GoR runs from {low} to {high}")
