"""Tensuusei points (rules.md §2): the seed's vectors, the decisions, and conservation."""

from __future__ import annotations

import datetime as dt
import itertools
import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.calendar import Phase
from engine.errors import EngineError, RuleError
from engine.ranks import Rank
from engine.system import Band, Card, Notice, Pending, replay
from engine.tensuusei import (
    Tensuusei,
    TensuuseiParams,
    handicap_from_points,
    initial_points,
    next_step_points,
    rank_equivalent,
)
from engine.types import (
    DayEnded,
    Entry,
    Event,
    Game,
    GamePlayed,
    MonthEnded,
    Override,
    Registered,
    Result,
    SettingsChanged,
    Tournament,
    TournamentRated,
)
from tests.conftest import load_vectors

VECTORS = load_vectors("tensuusei")
DAY = dt.date(2024, 5, 1)
NEXT_DAY = dt.date(2024, 5, 2)


def ledger(points: dict[int, int], params: TensuuseiParams | None = None) -> Tensuusei:
    """A ledger with players registered at the given points."""
    system = Tensuusei(params) if params is not None else Tensuusei()
    for player, value in points.items():
        system.apply(Registered(player, Rank.parse("5k"), DAY, rating=value))
    return system


def game(
    gid: int, black: int, white: int, result: Result | None, date: dt.date = DAY, **kw: Any
) -> GamePlayed:
    return GamePlayed(Game(id=gid, black=black, white=white, result=result, date=date, **kw))


def won_by(gid: int, winner: int, loser: int, date: dt.date = DAY) -> GamePlayed:
    """A game ``winner`` won, ``winner`` holding White."""
    return game(gid, loser, winner, Result.WHITE, date)


def points(system: Tensuusei, player: int) -> int:
    rating = system.card(player).rating
    assert isinstance(rating, int)
    return rating


# ------------------------------------------------------------------- the seed's vectors


def _handicap_id(case: dict[str, Any]) -> str:
    return str(case.get("name", f"{case['points'][0]} vs {case['points'][1]}"))


@pytest.mark.parametrize("case", VECTORS["handicaps"], ids=_handicap_id)
def test_handicap_table(case: dict[str, Any]) -> None:
    first, second = case["points"]
    white_points, black_points = max(first, second), min(first, second)
    assert white_points - black_points == case["difference"]
    assert handicap_from_points(white_points, black_points) == (
        case["stones"],
        case["komi"],
        False,
    )


@pytest.mark.parametrize("case", VECTORS["handicaps"], ids=_handicap_id)
def test_handicap_advice_from_the_ledger(case: dict[str, Any]) -> None:
    system = ledger({0: case["points"][0], 1: case["points"][1]})
    advice = system.handicap(0, 1)
    assert (advice.stones, advice.komi) == (case["stones"], Fraction(case["komi"]))
    assert advice.own_komi  # the table's komi, never the club's even-game komi
    if case["white"] == "either":
        assert {advice.white, advice.black} == {0, 1}
        assert any("nigiri" in note for note in advice.notes)
    else:
        assert advice.white == case["white"]
        assert advice.black == 1 - case["white"]


@pytest.mark.parametrize(("rank", "expected"), sorted(VECTORS["initial_points"].items()))
def test_initial_points(rank: str, expected: int) -> None:
    assert initial_points(Rank.parse(rank)) == expected
    system = Tensuusei()
    system.apply(Registered(1, Rank.parse(rank), DAY))
    assert system.card(1).rating == expected


@pytest.mark.parametrize(
    "case", VECTORS["day_settlement"], ids=[c["name"] for c in VECTORS["day_settlement"]]
)
def test_day_settlement(case: dict[str, Any]) -> None:
    names = list(case["start"])
    ids = {name: number for number, name in enumerate(names, start=1)}
    system = ledger({ids[name]: value for name, value in case["start"].items()})
    first, second = ids[names[0]], ids[names[1]]
    for gid, winner in enumerate(case["games_same_day"], start=1):
        # the first-named player holds White, as in the seed's "2–1 for White"
        result = Result.WHITE if ids[winner] == first else Result.BLACK
        system.apply(game(gid, second, first, result))
        for name, start in case["start"].items():  # nothing moves during the day
            assert points(system, ids[name]) == start
    system.apply(DayEnded(DAY))
    for name, expected in case["end_of_day"].items():
        assert points(system, ids[name]) == expected
        assert system.card(ids[name]).pending is None


# ------------------------------------------------------------------------ decision lines


@pytest.mark.parametrize(
    ("white", "black", "expected"),
    [
        (208, 100, (8, -5, True)),  # d = 108: the table's last cell, flagged
        (400, 100, (8, -5, True)),  # far beyond
        (207, 100, (8, -5, False)),  # d = 107: the table's last cell itself
        (112, 100, (1, 6, False)),  # one stone, komi +6 to White: played as the table says
        (123, 100, (1, -5, False)),  # one stone, komi 5 to Black
        (100, 100, (0, 6, False)),
    ],
    ids=["d=108", "d=300", "d=107", "1 stone komi 6", "1 stone komi -5", "even"],
)
def test_handicap_decisions(white: int, black: int, expected: tuple[int, int, bool]) -> None:
    assert handicap_from_points(white, black) == expected


def test_beyond_the_table_is_said() -> None:
    advice = ledger({1: 250, 2: 100}).handicap(1, 2)
    assert (advice.white, advice.stones, advice.komi) == (1, 8, Fraction(-5))
    assert any("beyond the table" in note for note in advice.notes)


def test_white_must_have_the_higher_points() -> None:
    with pytest.raises(RuleError, match="White takes the higher points"):
        handicap_from_points(100, 101)


@pytest.mark.parametrize(
    ("result", "winner"),
    [(Result.WHITE, 2), (Result.BLACK, 1), (Result.JIGO, 2)],
    ids=["W+", "B+", "jigo is a win for White"],
)
def test_who_wins(result: Result, winner: int) -> None:
    system = ledger({1: 100, 2: 100}, TensuuseiParams(settle_end_of_day=False))
    system.apply(game(1, 1, 2, result))
    loser = 3 - winner
    assert (points(system, winner), points(system, loser)) == (101, 99)


def test_fourth_game_of_a_pair_in_a_day_is_not_rated() -> None:
    system = ledger({1: 100, 2: 100}, TensuuseiParams(settle_end_of_day=False))
    for gid in (1, 2, 3):
        system.apply(won_by(gid, 1, 2))
    changes = system.apply(won_by(4, 2, 1)).changes
    assert (points(system, 1), points(system, 2)) == (103, 97)
    assert {c.player for c in changes} == {1, 2}
    assert all(c.rating_before == c.rating_after for c in changes)
    assert all("not rated" in c.note for c in changes)
    # the next day the pair counts again, and other pairs were never limited
    system.apply(won_by(5, 2, 1, NEXT_DAY))
    assert (points(system, 1), points(system, 2)) == (102, 98)
    assert system.card(1).games == 4


def test_pair_limit_is_per_pair_not_per_player() -> None:
    system = ledger({1: 100, 2: 100, 3: 100}, TensuuseiParams(settle_end_of_day=False))
    for gid in (1, 2, 3):
        system.apply(won_by(gid, 1, 2))
    system.apply(won_by(4, 1, 3))
    assert points(system, 1) == 104


def test_pair_limit_can_be_switched_off() -> None:
    params = TensuuseiParams(max_games_per_pair_day=None, settle_end_of_day=False)
    system = ledger({1: 100, 2: 100}, params)
    for gid in range(1, 6):
        system.apply(won_by(gid, 1, 2))
    assert points(system, 1) == 105


@pytest.mark.parametrize(
    ("rank", "expected"),
    [("9k", 22), ("10k", 10), ("11k", -2), ("12k", -14), ("20k", -110), ("30k", -230)],
)
def test_points_below_9k_continue_the_line_and_may_be_negative(rank: str, expected: int) -> None:
    assert initial_points(Rank.parse(rank)) == expected


@pytest.mark.parametrize(
    ("rank", "expected"),
    [("1d", 100), ("1k", 90), ("5k", 50), ("3d", 120), ("15k", -50)],
)
def test_anchor_and_spacing_are_settings(rank: str, expected: int) -> None:
    params = TensuuseiParams(anchor_1d=100, spacing=10)
    assert initial_points(Rank.parse(rank), params) == expected
    system = Tensuusei(params)
    system.apply(Registered(1, Rank.parse(rank), DAY))
    assert system.card(1).rating == expected
    assert system.card(1).rank == Rank.parse(rank)


def test_rule_two_off_moves_points_at_once() -> None:
    system = ledger({1: 120, 2: 100}, TensuuseiParams(settle_end_of_day=False))
    changes = system.apply(won_by(7, 2, 1)).changes
    assert [(c.player, c.rating_before, c.rating_after, c.source) for c in changes] == [
        (2, 100, 101, "game:7"),
        (1, 120, 119, "game:7"),
    ]
    assert system.apply(DayEnded(DAY)).changes == []
    assert system.card(1).pending is None


def test_rule_two_on_keeps_the_day_pending() -> None:
    system = ledger({1: 120, 2: 100})
    assert system.apply(won_by(1, 2, 1)).changes == []
    system.apply(won_by(2, 2, 1))
    card = system.card(2)
    assert (card.rating, amount(card)) == (100, 2)
    assert amount(system.card(1)) == -2
    # /handicap uses the settled (start-of-day) points: d = 20 → 1 stone, komi −2
    advice = system.handicap(1, 2)
    assert (advice.white, advice.stones, advice.komi) == (1, 1, Fraction(-2))
    changes = system.apply(DayEnded(DAY)).changes
    assert [(c.player, c.rating_before, c.rating_after) for c in changes] == [
        (1, 120, 118),
        (2, 100, 102),
    ]
    assert all(c.source == "day:2024-05-01" for c in changes)
    assert "0–2" in changes[0].note


def test_day_end_settles_only_games_dated_up_to_it() -> None:
    system = ledger({1: 100, 2: 100})
    system.apply(won_by(1, 1, 2, DAY))
    system.apply(won_by(2, 1, 2, NEXT_DAY))
    system.apply(DayEnded(DAY))
    assert (points(system, 1), amount(system.card(1))) == (101, 1)
    # a late report for a settled day is settled as it is entered (§2.3, late reports)
    changes = system.apply(won_by(3, 1, 2, DAY)).changes
    assert [(c.player, c.date, c.rating_before, c.rating_after) for c in changes] == [
        (1, DAY, 101, 102),
        (2, DAY, 99, 98),
    ]
    assert amount(system.card(1)) == 1  # only 2 May's game waits for its day's end
    system.apply(DayEnded(NEXT_DAY))
    assert (points(system, 1), amount(system.card(1))) == (103, None)


def test_the_pending_change_names_every_unsettled_day() -> None:
    """rules.md §2.3 (late reports): the card says which club day each pending change is from."""
    system = ledger({1: 100, 2: 100, 3: 100})
    system.apply(won_by(1, 1, 2, DAY))
    system.apply(won_by(2, 1, 3, DAY))
    system.apply(won_by(3, 2, 1, NEXT_DAY))
    card = system.card(1)
    assert amount(card) == 1
    assert values(card)["pending_days"] == "+2 from 2024-05-01, −1 from 2024-05-02"
    assert values(system.card(3))["pending_days"] == "−1 from 2024-05-01"
    assert "2024-05-01" in " ".join(system.promotion(1).lines)
    system.apply(DayEnded(DAY))
    assert values(system.card(1))["pending_days"] == "−1 from 2024-05-02"
    assert "pending_days" not in values(system.card(3))


def test_a_day_that_nets_to_zero_is_still_pending_until_it_ends() -> None:
    system = ledger({1: 100, 2: 100})
    system.apply(won_by(1, 1, 2))
    system.apply(won_by(2, 2, 1))
    card = system.card(1)
    assert (amount(card), values(card)["pending_days"]) == (0, "±0 from 2024-05-01")


def test_the_day_end_note_lists_the_days_games_and_those_not_rated() -> None:
    """rules.md §2.3: /history shows each rated game of the day (opponent, result) and each
    game that did not count, with the reason."""
    system = ledger({1: 100, 2: 100, 3: 100})
    system.apply(won_by(11, 1, 2))
    system.apply(won_by(12, 2, 1))
    system.apply(game(13, 2, 1, Result.JIGO))  # a jigo: White (1) wins
    system.apply(won_by(14, 2, 1))  # the 4th game of the pair: not rated
    system.apply(won_by(15, 3, 1))
    changes = system.apply(DayEnded(DAY)).changes
    notes = {(c.player, c.note) for c in changes}
    first = (
        "2–1 against {player:2}: {game:11} won, {game:12} lost, {game:13} jigo (won with White)"
    )
    skipped = "; {game:14}: 4th game of the pair that day, not rated (3 a pair a day count)"
    assert (1, first + skipped) in notes
    second = (
        "1–2 against {player:1}: {game:11} lost, {game:12} won, {game:13} jigo (lost with Black)"
    )
    assert (2, second + skipped) in notes
    assert (1, "0–1 against {player:3}: {game:15} lost") in notes
    assert all("rules.md" not in c.note and len(c.note) < 200 for c in changes)


def test_a_settled_day_keeps_one_count_per_pair_and_no_games() -> None:
    """Once a day is settled its games are gone from the ledger; what stays is each pair's
    count, which a late report of that day joins (rules.md §2.3, late reports)."""
    system = ledger({1: 100, 2: 100})
    for gid in range(5):
        system.apply(won_by(gid, 1, 2))
    system.apply(DayEnded(DAY))
    after = system.snapshot()
    assert after["days"] == {}
    assert after["counts"] == {"2024-05-01": {"1-2": 5}}


def test_a_tournament_folded_at_its_end_date_settles_its_earlier_rounds_as_entered() -> None:
    """A tournament is folded at its end date (rules.md, Calendar order): its first day has
    ended there, so that day's games are settled as they are entered (§2.3, late reports);
    the end date's games wait for the end of their day."""
    system = ledger({1: 100, 2: 100})
    system.apply(won_by(1, 1, 2, DAY))
    system.apply(DayEnded(DAY))
    tournament = Tournament(id=9, name="Cup", start=DAY, end=NEXT_DAY, rounds=2)
    games = (
        Game(id=2, black=2, white=1, result=Result.WHITE, date=DAY, round=1),
        Game(id=3, black=2, white=1, result=Result.WHITE, date=NEXT_DAY, round=2),
    )
    entries = (Entry(1, Rank.parse("5k")), Entry(2, Rank.parse("5k")))
    changes = system.apply(TournamentRated(tournament, entries, games)).changes
    assert [(c.player, c.date, c.rating_before, c.rating_after) for c in changes] == [
        (1, DAY, 101, 102),
        (2, DAY, 99, 98),
    ]
    assert "had ended" in changes[0].note
    assert values(system.card(1))["pending_days"] == "+1 from 2024-05-02"
    changes = system.apply(DayEnded(NEXT_DAY)).changes
    assert sorted(c.source for c in changes if c.player == 1) == ["day:2024-05-02"]
    assert (points(system, 1), points(system, 2)) == (103, 97)


def test_a_tournament_finalised_after_its_days_ended_leaves_nothing_pending() -> None:
    """rules.md §2.3 (late reports): every game of a tournament whose days have ended when it
    is finalised is settled as it is entered — its last day's too."""
    system = ledger({1: 100, 2: 100, 3: 100})
    tournament = Tournament(id=9, name="Cup", start=DAY, end=NEXT_DAY, rounds=2)
    games = (
        Game(id=2, black=2, white=1, result=Result.WHITE, date=DAY, round=1),
        Game(id=3, black=3, white=1, result=Result.BLACK, date=NEXT_DAY, round=2),
    )
    entries = tuple(Entry(p, Rank.parse("5k")) for p in (1, 2, 3))
    later = NEXT_DAY + dt.timedelta(days=1)
    changes = system.apply(TournamentRated(tournament, entries, games, finalised_on=later)).changes
    assert {(c.player, c.date, c.rating_after) for c in changes} == {
        (1, DAY, 101),
        (2, DAY, 99),
        (3, NEXT_DAY, 101),
        (1, NEXT_DAY, 100),
    }
    assert all(system.card(p).pending is None for p in (1, 2, 3))
    # its days' ends come later (the scheduler): nothing is left to settle or to announce
    assert system.apply(DayEnded(NEXT_DAY)).changes == []
    assert system.announcement(Phase.DAY_END, "2024-05-02", []) is None


def test_a_late_game_takes_its_place_in_its_days_count() -> None:
    """rules.md §2.3 (late reports): a game of an ended day belongs to that day's 3-game count:
    after three games of a pair that day, a fourth reported late moves nothing."""
    system = ledger({1: 100, 2: 100, 3: 100})
    for gid in range(1, 4):
        system.apply(won_by(gid, 1, 2))
    system.apply(won_by(4, 1, 3))
    system.apply(DayEnded(DAY))
    assert "4th game" in str(system.uncounted(won_by(5, 2, 1).game))
    fourth = system.apply(won_by(5, 2, 1)).changes
    assert [(c.rating_before, c.rating_after) for c in fourth] == [(104, 104), (97, 97)]
    assert "4th game of the pair" in fourth[0].note
    assert system.uncounted(won_by(6, 3, 1).game) is None  # the pair 1–3 played once
    tournament = Tournament(id=9, name="Cup", start=DAY, end=NEXT_DAY, rounds=1)
    games = (
        Game(id=6, black=1, white=3, result=Result.WHITE, date=DAY, round=1),
        Game(id=7, black=1, white=2, result=Result.WHITE, date=DAY, round=1),
    )
    entries = tuple(Entry(p, Rank.parse("5k")) for p in (1, 2, 3))
    changes = system.apply(TournamentRated(tournament, entries, games)).changes
    moved = {(c.player, c.rating_after - c.rating_before) for c in changes}  # type: ignore[operator]
    assert moved == {(3, 1), (1, -1), (1, 0), (2, 0)}  # game 7: the pair's 5th that day
    assert all(system.card(p).pending is None for p in (1, 2, 3))


def test_net_result_per_pair() -> None:
    system = ledger({1: 100, 2: 100, 3: 100})
    system.apply(won_by(1, 1, 2))
    system.apply(won_by(2, 2, 1))
    system.apply(won_by(3, 1, 3))
    changes = system.apply(DayEnded(DAY)).changes
    assert (points(system, 1), points(system, 2), points(system, 3)) == (101, 100, 99)
    assert len(changes) == 4  # one row per player per pair


def test_tournament_games_are_rated_and_guests_skipped() -> None:
    system = ledger({1: 100, 2: 100}, TensuuseiParams(settle_end_of_day=False))
    tournament = Tournament(id=9, name="Cup", start=DAY, end=DAY, rounds=2)
    games = (
        Game(id=1, black=1, white=2, result=Result.BLACK, date=DAY, round=1),
        Game(id=2, black=1, white=50, result=Result.WHITE, date=DAY, round=2),
        Game(id=3, black=2, white=1, result=None, date=DAY, round=2),
        Game(id=4, black=2, white=1, result=Result.BLACK, date=DAY, round=2, played=False),
    )
    entries = (Entry(1, Rank.parse("5k")), Entry(2, Rank.parse("5k")))
    entries += (Entry(50, Rank.parse("3k"), registered=False),)
    system.apply(TournamentRated(tournament, entries, games))
    assert (points(system, 1), points(system, 2)) == (101, 99)
    assert 50 not in set(system.players())


@pytest.mark.parametrize(
    "extra",
    [{"played": False}, {"board": 13}, {"pair_go": True}],
    ids=["unplayed", "13x13", "pair go"],
)
def test_games_that_are_stored_not_rated(extra: dict[str, Any]) -> None:
    system = ledger({1: 100, 2: 100}, TensuuseiParams(settle_end_of_day=False))
    assert system.apply(game(1, 1, 2, Result.BLACK, **extra)).changes == []
    assert system.apply(game(2, 1, 2, None)).changes == []
    assert (points(system, 1), points(system, 2)) == (100, 100)


def test_override_sets_points() -> None:
    system = ledger({1: 100})
    changes = system.apply(Override(1, DAY, "committee", rating=130)).changes
    assert (changes[0].rating_before, changes[0].rating_after) == (100, 130)
    assert system.card(1).rank == Rank.parse("1d")
    system.apply(Override(1, DAY, "back to 3k", rank=Rank.parse("3k")))
    assert points(system, 1) == 94


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (won_by(1, 1, 99), "not registered"),
        (Registered(1, Rank.parse("3k"), DAY), "already registered"),
        (Override(99, DAY, "x", rating=5), "not registered"),
        (Override(1, DAY, "x"), "rating=120 or rank=2k"),
    ],
    ids=["unknown player in a game", "registered twice", "override unknown", "empty override"],
)
def test_rejected_events_change_nothing(event: Event, message: str) -> None:
    system = ledger({1: 100, 2: 90})
    system.apply(won_by(10, 1, 2))
    before = json.dumps(system.snapshot())
    with pytest.raises(RuleError, match=message):
        system.apply(event)
    assert json.dumps(system.snapshot()) == before


def test_other_systems_events_are_ignored() -> None:
    system = ledger({1: 100})
    before = system.snapshot()
    assert system.apply(MonthEnded(2024, 5)).changes == []
    assert system.snapshot() == before


@pytest.mark.parametrize(
    "params",
    [{"spacing": 0}, {"max_games_per_pair_day": 0}],
    ids=["spacing 0", "limit 0"],
)
def test_bad_params_are_refused(params: dict[str, Any]) -> None:
    with pytest.raises(EngineError):
        TensuuseiParams(**params)


@pytest.mark.parametrize(
    ("value", "rank", "next_points"),
    [
        (130, "1d", 136),
        (129, "1d", 136),
        (124, "1d", 136),  # halfway between 1k (118) and 1d (130): the stronger rank
        (135, "1d", 136),
        (136, "2d", 148),
        (123, "1k", 124),
        (118, "1k", 124),
        (112, "1k", 124),
        (111, "2k", 112),
        (-3, "11k", 4),  # 11k = −2 on the line continued below 9k
        (-8, "11k", 4),  # halfway between 12k (−14) and 11k: the stronger
        (-9, "12k", -8),
        (400, "9d", 412),
        (-290, "35k", -284),
    ],
)
def test_rank_equivalent_is_the_nearest_rank(value: int, rank: str, next_points: int) -> None:
    """rules.md §2.2 Decision — rank equivalent: the rank whose initial points are nearest,
    1d covering 124–135 with the seed's line; a tie goes to the stronger rank."""
    assert rank_equivalent(value) == Rank.parse(rank)
    assert next_step_points(value) == next_points


def test_rank_equivalent_stays_on_the_ladder() -> None:
    assert (rank_equivalent(-1000), rank_equivalent(10**6)) == (Rank.kyu(35), Rank.dan(9))


@pytest.mark.parametrize(
    ("value", "rank"),
    [(100, "1d"), (95, "1d"), (94, "1k"), (104, "1d"), (105, "2d"), (85, "1k"), (84, "2k")],
)
def test_rank_equivalent_follows_the_clubs_anchor_and_spacing(value: int, rank: str) -> None:
    params = TensuuseiParams(anchor_1d=100, spacing=10)
    assert rank_equivalent(value, params) == Rank.parse(rank)


@pytest.mark.parametrize(("value", "rank"), [(105, "1d"), (95, "1d"), (106, "2d"), (94, "1k")])
def test_rank_equivalent_with_an_odd_spacing(value: int, rank: str) -> None:
    assert rank_equivalent(value, TensuuseiParams(anchor_1d=100, spacing=11)) == Rank.parse(rank)


def test_one_lost_game_leaves_a_fresh_1d_a_1d() -> None:
    system = Tensuusei()
    system.apply(Registered(1, Rank.parse("1d"), DAY))
    system.apply(Registered(2, Rank.parse("1d"), DAY))
    system.apply(won_by(1, 2, 1))
    changes = system.apply(DayEnded(DAY)).changes
    lost = [c for c in changes if c.player == 1]
    assert [(c.rating_before, c.rating_after) for c in lost] == [(130, 129)]
    assert (lost[0].rank_before, lost[0].rank_after) == (Rank.parse("1d"), Rank.parse("1d"))
    assert system.card(1).rank == Rank.parse("1d")


def test_promotion_explains_there_is_none() -> None:
    system = ledger({1: 120})
    progress = system.promotion(1)
    text = " ".join(progress.lines)
    assert "no promotion" in text
    assert "120 points" in text
    assert "begins at 124" in text and "4 to go" in text
    assert progress.target == Rank.parse("1d")
    assert progress.rank == Rank.parse("1k")


def test_unknown_player_queries_raise_key_error() -> None:
    with pytest.raises(KeyError):
        Tensuusei().card(5)


# ------------------------------------------------------------------------- properties

PLAYERS = range(1, 6)


@st.composite
def histories(draw: st.DrawFn) -> list[Event]:
    """Registrations, then games over a few days with end-of-day events mixed in."""
    events: list[Event] = [
        Registered(p, Rank.parse("5k"), DAY, rating=draw(st.integers(-50, 250))) for p in PLAYERS
    ]
    for gid in range(draw(st.integers(0, 40))):
        black = draw(st.sampled_from(PLAYERS))
        white = draw(st.sampled_from([p for p in PLAYERS if p != black]))
        date = DAY + dt.timedelta(days=draw(st.integers(0, 3)))
        result = draw(st.sampled_from([Result.BLACK, Result.WHITE, Result.JIGO, None]))
        events.append(game(gid, black, white, result, date))
        if draw(st.booleans()):
            events.append(DayEnded(DAY + dt.timedelta(days=draw(st.integers(0, 3)))))
    return events


@settings(max_examples=150, deadline=None)
@given(histories(), st.booleans(), st.sampled_from([None, 1, 3]))
def test_points_are_conserved(events: list[Event], settle: bool, limit: int | None) -> None:
    params = TensuuseiParams(max_games_per_pair_day=limit, settle_end_of_day=settle)
    system = Tensuusei(params)
    changes = replay(system, events)
    start = sum(e.rating or 0 for e in events if isinstance(e, Registered))
    settled = sum(points(system, p) for p in PLAYERS)
    pending = sum(amount(system.card(p)) or 0 for p in PLAYERS)
    assert settled + pending == start
    moved = [c for c in changes if c.source != "registration"]
    assert (
        sum(int(c.rating_after or 0) - int(c.rating_before or 0) for c in moved) == settled - start
    )
    replay(system, [DayEnded(DAY + dt.timedelta(days=10))])
    assert sum(points(system, p) for p in PLAYERS) == start


@settings(max_examples=60, deadline=None)
@given(histories())
def test_replay_twice_gives_the_same_snapshot(events: list[Event]) -> None:
    first, second = Tensuusei(), Tensuusei()
    replay(first, events)
    replay(second, events)
    assert first.snapshot() == second.snapshot()
    json.dumps(first.snapshot())  # plain data


def values(card: Card) -> dict[str, object]:
    """The card's typed values by export key."""
    return {m.key: m.value for m in card.values}


def amount(card: Card) -> object:
    """The card's pending amount (``None`` when nothing is pending)."""
    return None if card.pending is None else card.pending.amount


# ------------------------------------------------------- what the bot asks by name


def test_a_settled_day_is_announced() -> None:
    system = ledger({1: 100, 2: 100})
    system.apply(game(1, 1, 2, Result.BLACK))
    changes = system.apply(DayEnded(DAY)).changes
    notice = system.announcement(Phase.DAY_END, "2024-05-01", changes)
    assert notice == Notice("the day 2024-05-01 is settled")
    system.apply(won_by(2, 1, 2, NEXT_DAY))
    system.apply(won_by(3, 2, 1, NEXT_DAY))
    even = system.announcement(
        Phase.DAY_END, "2024-05-02", system.apply(DayEnded(NEXT_DAY)).changes
    )
    assert even == Notice(
        "the day 2024-05-02 is settled", ("Every pair broke even: no points moved.",)
    )
    # a day with no pair left to settle says nothing (not "every pair broke even")
    assert system.announcement(Phase.DAY_END, "2024-05-03", []) is None
    assert system.announcement(Phase.MONTH_END, "2024-05", changes) is None


def test_the_pending_change_is_typed_and_settles_at_the_days_end() -> None:
    system = ledger({1: 100, 2: 100})
    system.apply(game(1, 1, 2, Result.BLACK))
    assert system.card(1).pending == Pending(1, "points", Phase.DAY_END)
    assert values(system.card(1))["pending"] == 1
    system.apply(DayEnded(DAY))
    assert system.card(1).pending is None and values(system.card(1))["pending"] == 0


def test_rank_bands_follow_the_clubs_rank_line() -> None:
    bands = Tensuusei().rank_bands()
    one_d = next(b for b in bands if b.rank == Rank.parse("1d"))
    assert (one_d.low, one_d.high) == (124, 136)
    assert all(a.high == b.low for a, b in itertools.pairwise(bands))
    wide = Tensuusei(TensuuseiParams(anchor_1d=200, spacing=20)).rank_bands()
    assert next(b for b in wide if b.rank == Rank.parse("1d")) == Band(190, 210, Rank.parse("1d"))


def test_no_tournament_weight_entry_rules_or_initial_limit() -> None:
    system = ledger({1: 100})
    cup = Tournament(1, "Cup", DAY, DAY, 3)
    assert system.tournament_weight(cup) is None
    assert system.entry_notes(cup, [Entry(1, Rank.parse("3d"))]) == []
    assert system.initial_rank_limit() is None


# ------------------------------------------------------------------ settings (issue 12)


def test_anchor_setting_places_players_registered_from_its_date() -> None:
    from engine.tensuusei import SETTINGS

    system = Tensuusei()
    system.apply(Registered(1, Rank.parse("1d"), DAY))
    system.apply(SettingsChanged(NEXT_DAY, (("tensuusei.anchor", 128),)))
    system.apply(Registered(2, Rank.parse("1d"), NEXT_DAY))
    assert points(system, 1) == 130  # registered before the change: its points stay
    assert points(system, 2) == 128
    assert system.params.anchor_1d == 128
    assert {s.key for s in SETTINGS} >= {"tensuusei.anchor", "tensuusei.spacing"}


def test_settings_of_other_systems_are_ignored() -> None:
    system = Tensuusei()
    system.apply(SettingsChanged(DAY, (("mgsz.anchor", 1), ("tensuusei.spacing", 10))))
    system.apply(Registered(1, Rank.parse("2d"), DAY))
    assert points(system, 1) == 140


def test_pair_limit_setting_none_counts_every_game() -> None:
    system = ledger({1: 100, 2: 100})
    system.apply(SettingsChanged(DAY, (("tensuusei.pair_games_per_day", None),)))
    for gid in range(1, 6):
        system.apply(won_by(gid, 1, 2))
    system.apply(DayEnded(DAY))
    assert points(system, 1) == 105


def test_settings_read_range_and_example() -> None:
    from engine.tensuusei import SETTINGS

    anchor = next(s for s in SETTINGS if s.key == "tensuusei.anchor")
    assert anchor.default == 130 == TensuuseiParams().anchor_1d
    assert anchor.read(" 128 ") == 128
    with pytest.raises(EngineError, match=r"from 1 to 100000.*e\.g\. tensuusei\.anchor 130"):
        anchor.read("lots")
    limit = next(s for s in SETTINGS if s.key == "tensuusei.pair_games_per_day")
    assert limit.read("none") is None
    assert limit.show(None) == "none"
    assert next(s for s in SETTINGS if s.field == "settle_end_of_day").read("off") is False


def test_home_language_is_the_rulebooks_country() -> None:
    """The rulebook's language is a club's default language (issue 13)."""
    from engine.systems import home_language
    from engine.tensuusei import Tensuusei as system

    assert system.language == "ja"
    assert system().language == "ja"
    assert home_language("tensuusei") == "ja"


def test_day_notes_and_progress_are_translatable_messages() -> None:
    """Issue 13: a day's note is built of Msg pieces (games, ordinals, the pair's limit),
    so a catalogue can give each in its own word order; the marks stay values."""
    from engine.text import Msg

    system = ledger({1: 100, 2: 100})
    for gid in range(1, 5):
        system.apply(won_by(gid, 1, 2))
    note = system.apply(DayEnded(DAY)).changes[0].note
    assert isinstance(note, Msg)
    assert note.template.startswith("{score} against {opponent}: {games}; {skipped}: {ordinal}")
    assert note.args["opponent"] == "{player:2}"
    assert note.args["ordinal"] == "4th" and note.args["ordinal"].template == "{n}th"
    assert note.args["games"].template == "{first}, {rest}"
    assert note.args["games"].args["first"].template == "{game} won"
    lines = system.promotion(1).lines
    assert all(isinstance(line, Msg) for line in lines)
    assert lines[1].plural_template == "{n} points (settled)."  # type: ignore[attr-defined]
    with pytest.raises(RuleError) as refused:
        system.apply(Registered(1, Rank.parse("5k"), DAY))
    assert (
        refused.value.args[0].template == "player {player} is already registered under Tensuusei"
    )


@settings(max_examples=200)
@given(
    st.lists(
        st.tuples(
            st.integers(1, 3),
            st.integers(1, 2),
            st.sampled_from((Result.BLACK, Result.WHITE, Result.JIGO, None)),
            st.booleans(),
        ),
        min_size=1,
        max_size=12,
    ),
    st.booleans(),
)
def test_a_pending_amount_is_what_its_day_end_settles(
    games: list[tuple[int, int, Result | None, bool]], tomorrow: bool
) -> None:
    """Preview = result (issue 22): each player's pending change on the card is exactly the
    change the day's end makes, for any games of one or two days, the pair limit included
    (rules.md §2.3)."""
    system = ledger({1: 130, 2: 118, 3: 100})
    for gid, (black, step, result, later) in enumerate(games, start=1):
        white = (black - 1 + step) % 3 + 1
        day = NEXT_DAY if later and tomorrow else DAY
        system.apply(game(gid, black, white, result, day))
    expected = {p: amount(system.card(p)) or 0 for p in (1, 2, 3)}
    start = {p: points(system, p) for p in (1, 2, 3)}
    system.apply(DayEnded(DAY))
    system.apply(DayEnded(NEXT_DAY))
    assert {p: points(system, p) - start[p] for p in (1, 2, 3)} == expected


# ------------------------------------------------------------- what is due (issue 23)


def test_the_days_due_are_the_past_days_holding_games() -> None:
    """A club day ends at midnight and its pairs are settled (rules.md §2.3): due are the
    days before today that hold games, oldest first; a day without a rated game has nothing
    to settle; a day settled is no longer due. A day end touches that day's players."""
    system = ledger({1: 130, 2: 130, 3: 130})
    later = NEXT_DAY + dt.timedelta(days=3)
    system.apply(won_by(1, 1, 2, DAY))
    system.apply(won_by(2, 2, 3, NEXT_DAY))
    system.apply(game(3, 1, 3, Result.BLACK, later, board=13))  # not rated: nothing held
    system.apply(game(4, 1, 3, None, later))
    assert system.due(DAY) == []
    assert system.due(NEXT_DAY) == [DayEnded(DAY)]
    far = later + dt.timedelta(days=9)
    assert system.due(far) == [DayEnded(DAY), DayEnded(NEXT_DAY)]
    assert system.apply(DayEnded(DAY)).touched == {1, 2}
    assert system.due(far) == [DayEnded(NEXT_DAY)]


def test_a_setting_touches_everyone_only_when_it_moves_the_rank_line() -> None:
    """The rank equivalents follow the club's line (rules.md §2.2): a new anchor or spacing
    touches every card; local rule 1 or 2 changes none."""
    system = ledger({1: 130, 2: 118})
    rule = system.apply(SettingsChanged(DAY, (("tensuusei.pair_games_per_day", 2),)))
    assert rule.touched == frozenset()
    line = system.apply(SettingsChanged(DAY, (("tensuusei.anchor", 100),)))
    assert line.touched is None
