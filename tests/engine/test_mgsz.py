"""MGSZ Elo (rules.md §1, §5): tables, game points, multiplier C, splitting, titles, the ledger.

Expected values come from the seed's worked examples (``load_vectors("mgsz")``) or are worked
out by hand from the seed's tables in the comments beside them.
"""

from __future__ import annotations

import datetime as dt
import itertools
from fractions import Fraction
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.calendar import Phase
from engine.errors import EngineError, RuleError
from engine.mgsz import (
    CHANCE_TABLE,
    IMPORTANCE_ADDITIONS,
    RANK_BOUNDS,
    TIME_CATEGORIES,
    Mgsz,
    MgszParams,
    Multiplier,
    band_width,
    black_jp_milli,
    chance_milli,
    corrected_elos,
    elo_change,
    game_points,
    game_points_milli,
    handicap_corrected,
    month_period,
    multiplier,
    rank_after_tournament,
    rank_floor,
    rank_of_elo,
    round_half_up_milli,
    split_rounds,
)
from engine.mgsz.multiplier import _CATEGORIES, _CATEGORIES_KEPT, time_category
from engine.ranks import Rank
from engine.system import Applied, Card, Change, Pending, replay
from engine.timecontrol import Overtime, TimeControl
from engine.types import (
    DayEnded,
    EgfRating,
    Entry,
    Event,
    Game,
    GamePlayed,
    Importance,
    MonthEnded,
    Outcome,
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
from tests.conftest import load_vectors

VECTORS = load_vectors("mgsz")
DAY = dt.date(2026, 4, 11)
R = Rank.parse
TABLE_RANK_OF_ELO = {elo: rank for rank, elo in RANK_BOUNDS}  # the seed's table, read backwards
OPPOSITE = {Outcome.WIN: Outcome.LOSS, Outcome.LOSS: Outcome.WIN, Outcome.JIGO: Outcome.JIGO}


# ---------------------------------------------------------------- helpers


def reg(
    player: int, rank: str, rating: int | None = None, *, committee: bool = False
) -> Registered:
    return Registered(player, R(rank), DAY, rating=rating, committee=committee)


def game(
    gid: int,
    black: int,
    white: int,
    result: Result | None = Result.BLACK,
    *,
    stones: int = 0,
    rnd: int | None = None,
    date: dt.date = DAY,
    **kwargs: Any,
) -> Game:
    return Game(gid, black, white, result, date, stones=stones, round=rnd, **kwargs)


def tournament(
    tid: int = 1,
    *,
    rounds: int = 5,
    c: int | None = None,
    time: str | None = "60m 3x30s japanese",
    even: bool = True,
    board: int = 19,
    end: dt.date = DAY,
    participants: int | None = None,
) -> Tournament:
    return Tournament(
        tid,
        f"Cup {tid}",
        DAY,
        end,
        rounds,
        board=board,
        time=TimeControl.parse(time) if time else None,
        even=even,
        participants=participants,
        multiplier=c,
    )


def rated(t: Tournament, entries: list[Entry], games: list[Game]) -> TournamentRated:
    return TournamentRated(t, tuple(entries), tuple(games))


def entries_for(ledger: Mgsz, *players: int) -> list[Entry]:
    return [Entry(p, ledger.rank(p)) for p in players]


def result_for(outcome: Outcome, player_is_black: bool) -> Result:
    if outcome is Outcome.JIGO:
        return Result.JIGO
    return Result.BLACK if (outcome is Outcome.WIN) == player_is_black else Result.WHITE


def vector_game(gid: int, player: int, opponent: int, outcome: Outcome, stones: int) -> Game:
    """The vectors' game from the player's view as a Game (stones > 0: the player is black)."""
    player_black = stones >= 0
    black, white = (player, opponent) if player_black else (opponent, player)
    return game(gid, black, white, result_for(outcome, player_black), stones=abs(stones), rnd=gid)


def ledger_with(*events: Event, params: MgszParams | None = None) -> Mgsz:
    ledger = Mgsz(params)
    replay(ledger, events)
    return ledger


def one_change(changes: list[Change], player: int) -> Change:
    mine = [c for c in changes if c.player == player]
    assert len(mine) == 1, mine
    return mine[0]


# ---------------------------------------------------------------- table shapes


def test_rank_bounds_cover_35k_to_7d_strictly_increasing() -> None:
    ranks = [R(rank) for rank, _ in RANK_BOUNDS]
    assert sorted(ranks) == [Rank(step) for step in range(R("35k").step, R("7d").step + 1)]
    weakest_first = sorted(RANK_BOUNDS, key=lambda row: R(row[0]))
    bounds = [elo for _, elo in weakest_first]
    assert all(a < b for a, b in pairwise(bounds))
    assert (bounds[0], bounds[-1]) == (1000, 2700)


def test_chance_table_is_gap_free_from_0_to_348_and_never_rises() -> None:
    assert CHANCE_TABLE[0][0] == 0
    for (_, high, chance), (low, _, next_chance) in pairwise(CHANCE_TABLE):
        assert high is not None
        assert low == high + 1
        assert next_chance <= chance
    assert CHANCE_TABLE[-1] == (348, None, 0)
    assert CHANCE_TABLE[0][2] == 500


def test_time_categories_run_a_to_e_with_falling_thresholds() -> None:
    assert [row[0] for row in TIME_CATEGORIES] == ["A", "B", "C", "D", "E"]
    for column in (1, 2, 3):
        values = [row[column] for row in TIME_CATEGORIES]
        assert all(a > b for a, b in pairwise(values))
    assert TIME_CATEGORIES[-1][3] == 0


def test_importance_additions_are_the_seed_values() -> None:
    assert sorted(IMPORTANCE_ADDITIONS.values()) == [5, 5, 10, 10]


@pytest.mark.parametrize("delta", range(400))
def test_chance_lookup_matches_the_table_row(delta: int) -> None:
    row = next(r for r in CHANCE_TABLE if r[0] <= delta and (r[1] is None or delta <= r[1]))
    assert chance_milli(delta) == row[2]
    assert chance_milli(-delta) == row[2]


# ---------------------------------------------------------------- vectors: tournaments


def _game_cases() -> list[Any]:
    cases = []
    for t in VECTORS["tournaments"]:
        for index, g in enumerate(t["games"], start=1):
            cases.append(pytest.param(t["player_elo"], g, id=f"{t['name']} — game {index}"))
    return cases


@pytest.mark.parametrize(("player_elo", "case"), _game_cases())
def test_vector_game(player_elo: int, case: dict[str, Any]) -> None:
    outcome, stones, opponent = Outcome(case["result"]), case["stones"], case["opponent_elo"]
    points = game_points(player_elo, opponent, outcome, stones)
    assert points.delta == case["delta"]
    assert points.jp_milli == case["jp_milli"]
    assert game_points_milli(player_elo, opponent, outcome, stones) == case["jp_milli"]
    if "correction" in case:
        assert points.correction == case["correction"]
        assert list(points.corrected) == case["corrected"]
        assert list(corrected_elos(player_elo, opponent, stones)) == case["corrected"]
    # the replay's inlined path agrees, from black's side
    player_black = stones >= 0
    elo_black, elo_white = (player_elo, opponent) if player_black else (opponent, player_elo)
    score = {Outcome.WIN: 1000, Outcome.LOSS: 0, Outcome.JIGO: 500}[outcome]
    black_score = score if player_black else 1000 - score
    black_jp = black_jp_milli(elo_black, elo_white, abs(stones), black_score)
    assert (black_jp if player_black else -black_jp) == case["jp_milli"]


def _tournament_cases() -> list[Any]:
    return [pytest.param(t, id=t["name"]) for t in VECTORS["tournaments"]]


@pytest.mark.parametrize("case", _tournament_cases())
def test_vector_tournament_sum_change_and_new_elo(case: dict[str, Any]) -> None:
    total = sum(
        game_points_milli(case["player_elo"], g["opponent_elo"], Outcome(g["result"]), g["stones"])
        for g in case["games"]
    )
    assert total == case["sum_jp_milli"]
    assert elo_change(case["C"], total) == case["elo_change"]
    assert case["player_elo"] + elo_change(case["C"], total) == case["new_elo"]


def _run_vector_tournament(case: dict[str, Any], *, guests: bool) -> tuple[Mgsz, list[Change]]:
    """The vector tournament through ``Mgsz.apply``; opponents registered at their Elo, or
    (``guests``) entered as foreign players where their Elo is a rank table value."""
    xy = 100
    events: list[Event] = [reg(xy, "1k", case["player_elo"])]
    entries = [Entry(xy, R("1k"))]
    games = []
    for index, g in enumerate(case["games"], start=1):
        elo = g["opponent_elo"]
        if guests and elo in TABLE_RANK_OF_ELO:
            entries.append(Entry(index, R(TABLE_RANK_OF_ELO[elo]), registered=False))
        else:
            events.append(reg(index, "5k", elo))
            entries.append(Entry(index, R("5k")))
        games.append(vector_game(index, xy, index, Outcome(g["result"]), g["stones"]))
    even = all(g["stones"] == 0 for g in case["games"])
    t = tournament(rounds=len(games), c=case["C"], even=even)
    ledger = ledger_with(*events)
    return ledger, ledger.apply(rated(t, entries, games)).changes


@pytest.mark.parametrize("guests", [False, True], ids=["registered opponents", "foreign guests"])
@pytest.mark.parametrize("case", _tournament_cases())
def test_vector_tournament_through_the_ledger(case: dict[str, Any], guests: bool) -> None:
    ledger, changes = _run_vector_tournament(case, guests=guests)
    change = one_change(changes, 100)
    assert (change.rating_before, change.rating_after) == (case["player_elo"], case["new_elo"])
    assert change.source == "tournament:1"
    assert ledger.elo(100) == case["new_elo"]
    assert ledger.card(100).games == len(case["games"])
    stored = set(ledger.players())
    changed = {c.player for c in changes}
    assert changed <= stored
    if guests:  # the table-value opponents (1865 = 2k, 2130 = 3d) were never stored
        guest_ids = {
            i for i, g in enumerate(case["games"], 1) if g["opponent_elo"] in TABLE_RANK_OF_ELO
        }
        assert guest_ids
        assert not guest_ids & stored


# ---------------------------------------------------------------- vectors: titles


def _progression_cases() -> list[Any]:
    return [pytest.param(p, id=p["name"]) for p in VECTORS["rank_progressions"]]


@pytest.mark.parametrize("case", _progression_cases())
def test_rank_progression_by_the_rule(case: dict[str, Any]) -> None:
    title, reached = R(case["start_rank"]), dict[Rank, int]()
    for step in case["after_each_tournament"]:
        title, reached = rank_after_tournament(title, reached, step["elo"])
        assert str(title) == step["rank"], step


@pytest.mark.parametrize("case", _progression_cases())
def test_rank_progression_through_the_ledger(case: dict[str, Any]) -> None:
    """Each tournament: one game against a fresh opponent of equal Elo (Jp ±0.500, the equal
    Elo Decision) with C = 2 × the wanted change, so the Elo lands exactly on the vector's."""
    player = 1
    ledger = ledger_with(reg(player, case["start_rank"], case["start_elo"]))
    for index, step in enumerate(case["after_each_tournament"], start=1):
        opponent = 100 + index
        current = ledger.elo(player)
        ledger.apply(reg(opponent, "5k", current))
        delta = step["elo"] - current
        outcome = Outcome.WIN if delta > 0 else Outcome.LOSS if delta < 0 else Outcome.JIGO
        g = vector_game(index, player, opponent, outcome, 0)
        t = tournament(index, rounds=1, c=max(1, 2 * abs(delta)))
        ledger.apply(rated(t, entries_for(ledger, player, opponent), [g]))
        assert ledger.elo(player) == step["elo"]
        assert str(ledger.card(player).rank) == step["rank"], step


# ---------------------------------------------------------------- vectors: multiplier, time


def _multiplier_cases() -> list[Any]:
    return [pytest.param(m, id=m["name"]) for m in VECTORS["multipliers"]]


def _vector_multiplier(case: dict[str, Any]) -> Multiplier:
    """The multiplier of a ``multipliers`` vector's tournament."""
    time = TimeControl(case["base_minutes"] * 60) if case["overtime"] is None else None
    return multiplier(
        case["board"],
        time,
        even=not case["handicap_tournament"],
        participants=case["participants"],
        importance=Importance(
            invitational_or_national_championship=case["invitational_or_hungarian_championship"],
            european_or_world_championship=case["european_or_world_championship"],
        ),
    )


@pytest.mark.parametrize("case", _multiplier_cases())
def test_vector_multiplier(case: dict[str, Any]) -> None:
    m = _vector_multiplier(case)
    assert (m.time_value, m.C) == (case["time_value"], case["C"])
    assert m.rated
    assert f"C = {case['C']}" in " ".join(m.breakdown())


def _time_control(base_minutes: int, spec: dict[str, Any]) -> TimeControl:
    if spec["kind"] == "japanese":
        return TimeControl(
            base_minutes * 60, Overtime.JAPANESE, spec["seconds"], periods=spec["periods"]
        )
    assert spec["kind"] == "canadian"
    return TimeControl(
        base_minutes * 60, Overtime.CANADIAN, spec["minutes"] * 60, moves=spec["moves"]
    )


@pytest.mark.parametrize("case", [pytest.param(c, id=c["name"]) for c in VECTORS["extended_time"]])
def test_vector_extended_time(case: dict[str, Any]) -> None:
    time = _time_control(case["base_minutes"], case["overtime"])
    m = multiplier(19, time, even=False, participants=None, importance=Importance())
    assert m.extended_minutes == case["extended_minutes"]
    # a handicap tournament, no additions: C is the time value
    assert (m.time_value, m.C) == (case["time_value"], case["time_value"])


@pytest.mark.parametrize(
    "case", [pytest.param(c, id=f"elo {c['elo']}") for c in VECTORS["band_widths"]]
)
def test_vector_band_width(case: dict[str, Any]) -> None:
    assert band_width(case["elo"]) == case["width"]


# ---------------------------------------------------------------- §1.1 bands (Decisions)


@pytest.mark.parametrize(
    ("elo", "width"),
    [
        (1000, 10),  # 35k band [1000, 1010)
        (1979, 60),  # 1k band [1920, 1980)
        (1980, 70),  # 1d band [1980, 2050)
        (2699, 200),  # 6d band [2500, 2700)
        (2700, 200),  # Decision: at or above 2700 → 200
        (3500, 200),
        (999, 10),  # Decision: below 1000 → 10
        (0, 10),
        (-50, 10),
    ],
)
def test_band_width_decisions(elo: int, width: int) -> None:
    assert band_width(elo) == width


@pytest.mark.parametrize(
    ("elo", "rank"),
    [
        (0, "35k"),
        (999, "35k"),
        (1000, "35k"),
        (1009, "35k"),
        (1010, "34k"),
        (1764, "5k"),
        (1765, "4k"),
        (1919, "2k"),
        (1920, "1k"),
        (1947, "1k"),
        (1980, "1d"),
        (2699, "6d"),
        (2700, "7d"),
        (4000, "7d"),
    ],
)
def test_rank_of_elo_is_the_band_rank(elo: int, rank: str) -> None:
    assert rank_of_elo(elo) == R(rank)


@pytest.mark.parametrize(
    ("rank", "elo"),
    [
        ("35k", 1000),
        ("30k", 1055),
        ("5k", 1720),
        ("1k", 1920),
        ("1d", 1980),
        ("7d", 2700),
        ("8d", 2700),  # stronger than 7d: 7d's value
        ("9d", 2700),
    ],
)
def test_rank_floor_is_the_table_value(rank: str, elo: int) -> None:
    assert rank_floor(R(rank)) == elo


# ---------------------------------------------------------------- §1.3 game points (Decisions)


@pytest.mark.parametrize(
    ("player", "opponent", "outcome", "stones", "jp"),
    [
        # Decision: equal Elo → chance 0.500, the same from either side
        (1900, 1900, Outcome.WIN, 0, 500),
        (1900, 1900, Outcome.LOSS, 0, -500),
        (1900, 1900, Outcome.JIGO, 0, 0),
        # Decision: jigo = half a win, half a loss. Δ 100 → 0.270 (98–102)
        (2000, 1900, Outcome.JIGO, 0, 270 - 500),
        (1900, 2000, Outcome.JIGO, 0, 500 - 270),
        # Δ 400 → 0.000 (348–): the favourite's win earns nothing, its loss a whole point
        (2400, 2000, Outcome.WIN, 0, 0),
        (2400, 2000, Outcome.LOSS, 0, -1000),
        (2000, 2400, Outcome.WIN, 0, 1000),
        # Decision: handicap 1 corrects once: 1500 (10k band, width 35) → 1535; Δ 65 → 0.340
        (1500, 1600, Outcome.WIN, 1, 1000 - 340),
        (1600, 1500, Outcome.LOSS, -1, -(1000 - 340)),
        # role swap: 1900 +55 (2k band) → 1955 +60 (1k band) → 2015 > 1950; Δ 65 → 0.340
        (1900, 1950, Outcome.WIN, 2, 340),
        (1900, 1950, Outcome.LOSS, 2, -(1000 - 340)),
        (1950, 1900, Outcome.WIN, -2, 1000 - 340),
        # 2700 and above: width 200 per stone; 2650 +200 → 2850 vs 2800, Δ 50 → 0.380
        (2650, 2800, Outcome.WIN, 1, 380),
    ],
)
def test_game_point_decisions(
    player: int, opponent: int, outcome: Outcome, stones: int, jp: int
) -> None:
    assert game_points_milli(player, opponent, outcome, stones) == jp
    assert game_points_milli(opponent, player, OPPOSITE[outcome], -stones) == -jp


@pytest.mark.parametrize(
    ("elo", "stones", "corrected"),
    [(1947, 0, 1947), (1947, 1, 2007), (1947, 2, 2077), (1947, 4, 2257), (995, 2, 1015)],
)
def test_handicap_correction_adds_the_current_band_width_per_stone(
    elo: int, stones: int, corrected: int
) -> None:
    # 995 → +10 (below 1000) → 1005 → +10 (35k band) → 1015
    assert handicap_corrected(elo, stones) == corrected


# ---------------------------------------------------------------- §1.4 rounding and splitting


@pytest.mark.parametrize(
    ("c", "sum_jp_milli", "change"),
    [
        (30, 520, 16),  # seed example 5: 15.6 → 16
        (15, 2110, 32),  # seed example 7: 31.65 → 32
        (31, -500, -15),  # −15.5 → −15 (floor(x + 0.5), not away from zero)
        (31, 500, 16),  # 15.5 → 16
        (10, -1560, -16),
        (10, 1549, 15),
        (20, 25, 1),  # 0.5 → 1
        (20, -25, 0),  # −0.5 → 0
        (20, -26, -1),
        (0, 1000, 0),
    ],
)
def test_round_half_up_decision(c: int, sum_jp_milli: int, change: int) -> None:
    assert elo_change(c, sum_jp_milli) == change
    assert round_half_up_milli(c * sum_jp_milli) == change


@pytest.mark.parametrize(
    ("c", "rounds", "parts"),
    [
        (45, 10, [5, 5]),  # rules.md §1.4 Decision example
        (45, 7, [4, 3]),  # rules.md §1.4 Decision example: earlier part takes the extra round
        (30, 10, [5, 5]),  # 300 reaches the limit
        (29, 10, [10]),  # 290 does not
        (25, 12, [6, 6]),
        (25, 11, [11]),
        (20, 15, [8, 7]),  # 300: parts of at most 14 rounds, two of them
        (50, 13, [5, 4, 4]),  # 5 × 50 = 250 < 300 ≤ 6 × 50
        (0, 10, [10]),
        (25, 0, [0]),
        (400, 3, [1, 1, 1]),  # a hand-set C ≥ 300: every round alone
    ],
)
def test_split_rounds_decision(c: int, rounds: int, parts: list[int]) -> None:
    assert split_rounds(c, rounds) == parts


def test_split_rounds_refuses_negative_rounds() -> None:
    with pytest.raises(RuleError, match="-1 rounds"):
        split_rounds(20, -1)


# ---------------------------------------------------------------- §1.2 multiplier (Decisions)

EVEN_19 = {"even": True, "participants": 20, "importance": Importance()}
HANDICAP_19 = {"even": False, "participants": 20, "importance": Importance()}


@pytest.mark.parametrize(
    ("time", "category", "c"),
    [
        ("90m", "A", 20),
        ("80m 1x40s japanese", "A", 20),  # extended 80 + 30 = 110
        ("60m 5x60s japanese", "B", 15),  # extended 60 + 45 = 105 < 110
        ("70m 5x20s japanese", "B", 15),
        ("45m", "C", 10),  # Decision (KPMC): base ≥ 40 is enough
        ("30m 30/5m canadian", "D", 5),  # extended 30 + 10 = 40 < 55
        ("25m 30/15m canadian", "C", 10),  # extended 25 + 30 = 55: extended alone meets C
        ("20m", "D", 5),
        ("10m", "E", 0),
        ("9m 3x15s japanese", "E", 0),  # extended 9 + 11.25 = 20.25
        ("unlimited", "A", 20),  # ours: no clock meets every threshold
    ],
)
def test_time_category_decision(time: str, category: str, c: int) -> None:
    m = multiplier(19, TimeControl.parse(time), **HANDICAP_19)  # type: ignore[arg-type]
    assert (m.time_category, m.time_value, m.C, m.rated) == (category, c, c, True)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["70m 5x20s japanese", "45m", "20m", "10m", "5m", "unlimited"])))
def test_time_category_is_the_same_asked_again_or_of_another_equal_object(
    asked: list[str],
) -> None:
    """``time_category`` keeps its answers by object (a replay asks once a game): a time
    control asked again, or an equal one made anew, has the category of its multiplier."""
    for text in asked:
        kept, fresh = TimeControl.parse(text), TimeControl.parse(text)
        m = multiplier(19, fresh, **EVEN_19)  # type: ignore[arg-type]
        assert time_category(kept) == time_category(kept) == time_category(fresh)
        assert time_category(kept) == (m.time_category, m.time_value or 0)  # 0: below E


def test_time_category_forgets_its_answers_past_the_kept_count() -> None:
    """Past 1,024 time control objects it starts again: memory stays bounded in a process
    that folds for years."""
    controls = [TimeControl.parse(f"{10 + n % 50}m") for n in range(1100)]
    assert [time_category(t) for t in controls] == [time_category(t) for t in controls]
    assert len(_CATEGORIES) <= _CATEGORIES_KEPT


def test_below_category_e_is_not_rated() -> None:
    m = multiplier(19, TimeControl.parse("5m 3x10s japanese"), **EVEN_19)  # type: ignore[arg-type]
    assert (m.rated, m.C, m.time_category) == (False, 0, None)
    assert any("below category E" in line for line in m.breakdown())


def test_fischer_is_treated_like_japanese_and_marked() -> None:
    # 30 + 45 × 1 min = 75 extended: category C (55), not B (80)
    m = multiplier(19, TimeControl.parse("30m+60s fischer"), **HANDICAP_19)  # type: ignore[arg-type]
    assert (m.time_category, m.C, m.extended_minutes) == ("C", 10, 75)
    assert any("not in the rules" in note for note in m.notes)
    assert any("by hand" in line for line in m.breakdown())


@pytest.mark.parametrize(
    ("importance", "participants", "even", "c"),
    [
        (Importance(), 80, False, 15),  # exactly 80: no addition
        (Importance(), 81, False, 20),  # more than 80: +5
        (Importance(), None, True, 25),  # even 19×19: +10
        (Importance(invitational_or_national_championship=True), 10, False, 20),
        (Importance(european_or_world_championship=True), 10, False, 25),
        (Importance(True, True), 100, True, 45),  # all of them together
    ],
)
def test_importance_additions_add_up(
    importance: Importance, participants: int | None, even: bool, c: int
) -> None:
    time = TimeControl.parse("60m")  # category B = 15
    m = multiplier(19, time, even=even, participants=participants, importance=importance)
    assert (m.C, m.time_value + sum(v for _, v in m.additions)) == (c, c)  # type: ignore[operator]


def test_13x13_is_always_5() -> None:
    m = multiplier(
        13,
        TimeControl.parse("90m"),
        even=True,
        participants=200,
        importance=Importance(True, True),
    )
    assert (m.C, m.additions, m.time_category, m.rated) == (5, (), None, True)
    assert any("13×13" in line for line in m.breakdown())


def test_other_boards_are_not_rated() -> None:
    m = multiplier(9, TimeControl.parse("90m"), manual=20, **EVEN_19)  # type: ignore[arg-type]
    assert (m.rated, m.C) == (False, 0)


def test_a_hand_set_c_wins_and_is_recorded() -> None:
    m = multiplier(19, None, manual=33, **EVEN_19)  # type: ignore[arg-type]
    assert (m.C, m.manual, m.rated) == (33, True, True)
    assert m.breakdown()[0].startswith("C = 33, set by hand")


@pytest.mark.parametrize(("manual", "fragment"), [(None, "set C by hand"), (-1, "not -1")])
def test_multiplier_refusals(manual: int | None, fragment: str) -> None:
    with pytest.raises(RuleError, match=fragment):
        multiplier(19, None, manual=manual, **EVEN_19)  # type: ignore[arg-type]


def test_breakdown_lists_category_and_additions() -> None:
    m = multiplier(
        19,
        TimeControl.parse("60m 3x20s japanese"),
        even=True,
        participants=120,
        importance=Importance(),
    )
    assert m.breakdown() == [
        "category B: 15 (base 60 min, extended 75 min)",
        "+5 more than 80 participants",
        "+10 no-handicap 19×19 tournament",
        "C = 30",
    ]


# ---------------------------------------------------------------- §1.5 titles (Decisions)


@pytest.mark.parametrize(
    ("title", "reached", "elo", "new_title", "new_reached"),
    [
        # 4k and weaker: the first time; several at once
        ("10k", {}, 1700, "6k", {}),
        ("8k", {}, 1594, "8k", {}),
        # 3k and stronger: the second time
        ("4k", {}, 1815, "4k", {"3k": 1}),
        ("4k", {"3k": 1}, 1820, "3k", {}),
        # Decision: per-rank counts — a jump counts toward every rank it crosses
        ("4k", {}, 1990, "4k", {"3k": 1, "2k": 1, "1k": 1, "1d": 1}),
        ("4k", {"3k": 1, "2k": 1, "1k": 1, "1d": 1}, 1930, "1k", {"1d": 1}),
        # 6k to the 3k band: 5k and 4k at once, 3k counted
        ("6k", {}, 1830, "4k", {"3k": 1}),
        # never down
        ("2d", {}, 1500, "2d", {}),
        ("1d", {"2d": 1}, 1700, "1d", {"2d": 1}),
        # above 7d's bound nothing more is reachable
        ("7d", {}, 3000, "7d", {}),
        ("6d", {"7d": 1}, 2900, "7d", {}),
    ],
)
def test_rank_rule_decisions(
    title: str, reached: dict[str, int], elo: int, new_title: str, new_reached: dict[str, int]
) -> None:
    got_title, got_reached = rank_after_tournament(
        R(title), {R(k): v for k, v in reached.items()}, elo
    )
    assert got_title == R(new_title)
    assert {str(k): v for k, v in got_reached.items()} == new_reached


def test_a_split_tournament_counts_once_with_the_elo_after_its_last_part() -> None:
    """C = 45, 10 rounds → parts of 5 and 5. The player (1k, 1920) beats five 1k guests
    (1920) in each part. Part 1: 5 × 0.500 × 45 = 112.5 → +113 → 2033. Part 2 starts from
    2033: Δ 113 → 0.240, 5 × 0.240 × 45 = 54 → 2087 (one part would give 2145). 2087 reaches
    the 1d and 2d bounds: counted once each, so still 1k."""
    ledger = ledger_with(reg(1, "1k", 1920))
    entries = [Entry(1, R("1k"))] + [Entry(g, R("1k"), registered=False) for g in range(2, 12)]
    games = [game(r, 1, r + 1, Result.BLACK, rnd=r) for r in range(1, 11)]
    changes = ledger.apply(rated(tournament(rounds=10, c=45), entries, games)).changes
    change = one_change(changes, 1)
    assert (change.rating_before, change.rating_after) == (1920, 2087)
    assert "2 parts" in change.note and "+113, +54" in change.note
    card = ledger.card(1)
    assert card.rank == R("1k")
    assert values(card)["confirmations.1d"] == 1
    assert values(card)["confirmations.2d"] == 1
    assert {m.unit for m in card.values if m.key.startswith("confirmations.")} == {
        "of 2 tournaments"
    }
    # a second tournament at or above 2050 confirms both: 2d
    ledger.apply(reg(20, "5k", 2087))
    t2 = tournament(2, rounds=1, c=2)  # a jigo at equal Elo changes nothing
    ledger.apply(rated(t2, entries_for(ledger, 1, 20), [game(30, 1, 20, Result.JIGO, rnd=1)]))
    assert (ledger.elo(1), ledger.rank(1)) == (2087, R("2d"))


def test_a_split_tournament_needs_round_numbers() -> None:
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    games = [game(1, 1, 2, rnd=1), game(2, 2, 1, rnd=None)]
    before = ledger.snapshot()
    with pytest.raises(RuleError, match="no round number"):
        ledger.apply(rated(tournament(rounds=10, c=45), entries_for(ledger, 1, 2), games))
    assert ledger.snapshot() == before


def test_rounds_beyond_the_announced_number_extend_the_tournament() -> None:
    # announced 5 rounds, games up to round 10 at C = 45: split 5 + 5 as above
    ledger = ledger_with(reg(1, "1k", 1920))
    entries = [Entry(1, R("1k"))] + [Entry(g, R("1k"), registered=False) for g in range(2, 12)]
    games = [game(r, 1, r + 1, Result.BLACK, rnd=r) for r in range(1, 11)]
    ledger.apply(rated(tournament(rounds=5, c=45), entries, games))
    assert ledger.elo(1) == 2087


# ---------------------------------------------------------------- registration (§1.4, §1.5)


@pytest.mark.parametrize(
    ("event", "elo"),
    [
        (reg(1, "5k"), 1720),  # Decision: the rank table value
        (reg(1, "20k"), 1230),
        (reg(1, "4k", 1800), 1800),  # a given rating: any rank
        (reg(1, "3d", committee=True), 2130),  # the committee's stronger initial rank
    ],
)
def test_registration_elo(event: Registered, elo: int) -> None:
    ledger = Mgsz()
    [change] = ledger.apply(event).changes
    assert (ledger.elo(1), ledger.rank(1)) == (elo, event.rank)
    assert (change.source, change.rating_before, change.rating_after) == (
        "registration",
        None,
        elo,
    )


def test_the_5k_limit_for_new_players() -> None:
    ledger = Mgsz()
    with pytest.raises(RuleError, match=r"5k at most, not 4k.*committee"):
        ledger.apply(reg(1, "4k"))
    assert ledger.snapshot() == Mgsz().snapshot()
    stricter = Mgsz(MgszParams(max_initial_rank=R("10k")))
    with pytest.raises(RuleError, match="10k at most, not 9k"):
        stricter.apply(reg(1, "9k"))


@pytest.mark.parametrize(
    ("event", "fragment"),
    [
        (reg(1, "5k"), "already registered"),
        (reg(2, "5k", -5), "cannot be negative"),
    ],
)
def test_registration_refusals(event: Registered, fragment: str) -> None:
    ledger = ledger_with(reg(1, "5k"))
    before = ledger.snapshot()
    with pytest.raises(RuleError, match=fragment):
        ledger.apply(event)
    assert ledger.snapshot() == before


# ---------------------------------------------------------------- tournaments in the ledger


def test_every_game_uses_the_starting_elo() -> None:
    """1920 beats 1920 twice in one tournament at C = 20: 2 × 0.500 × 20 = +20. (A running
    Elo would give +10, then 1930 vs 1910: Δ 20 → 0.450 × 20 = +9, so 1939.)"""
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    games = [game(1, 1, 2, Result.BLACK, rnd=1), game(2, 2, 1, Result.WHITE, rnd=2)]
    changes = ledger.apply(
        rated(tournament(rounds=2, c=20), entries_for(ledger, 1, 2), games)
    ).changes
    assert (ledger.elo(1), ledger.elo(2)) == (1940, 1900)
    assert {c.player: c.note for c in changes}[1] == "C = 20, 2 games"


def test_tournament_multiplier_is_computed_when_not_set_by_hand() -> None:
    # 60m 3x30s: extended 60 + 22.5 = 82.5 → B 15; even +10; participants from the entries
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    ledger.apply(rated(tournament(rounds=1), entries_for(ledger, 1, 2), [game(1, 1, 2, rnd=1)]))
    assert ledger.elo(1) == 1920 + 13  # 0.5 × 25 = 12.5 → 13
    assert ledger.elo(2) == 1920 - 12  # −12.5 → −12


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param(game(1, 1, 2, Result.BLACK, rnd=1, played=False), id="unplayed"),
        pytest.param(game(1, 1, 2, None, rnd=1), id="unknown result"),
        pytest.param(game(1, 1, 2, Result.BLACK, rnd=1, board=9), id="9x9 board"),
    ],
)
def test_games_that_earn_nothing(bad: Game) -> None:
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    changes = ledger.apply(
        rated(tournament(rounds=1, c=20), entries_for(ledger, 1, 2), [bad])
    ).changes
    assert changes == []
    assert (ledger.elo(1), ledger.card(1).games) == (1920, 0)


def test_a_13x13_game_in_a_tournament_uses_5() -> None:
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    t = tournament(rounds=1, board=13)
    ledger.apply(rated(t, entries_for(ledger, 1, 2), [game(1, 1, 2, rnd=1, board=13)]))
    assert ledger.elo(1) == 1923  # 0.5 × 5 = 2.5 → 3


def test_a_13x13_game_needs_no_time_control() -> None:
    # a 19×19 event without a time control or C: its 13×13 game is still 5 (§1.2)
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    t = tournament(rounds=1, time=None)
    ledger.apply(rated(t, entries_for(ledger, 1, 2), [game(1, 1, 2, rnd=1, board=13)]))
    assert ledger.elo(1) == 1923


def test_a_tournament_below_category_e_changes_nothing() -> None:
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    t = tournament(rounds=1, time="5m")
    assert ledger.apply(rated(t, entries_for(ledger, 1, 2), [game(1, 1, 2, rnd=1)])).changes == []
    assert ledger.card(1).games == 0


def test_foreign_players_are_rated_at_their_rank_and_never_stored() -> None:
    # guest 2d = 2050 beats the 1k player (1920): Δ 130 → 0.210; −0.210 × 20 = −4.2 → −4
    ledger = ledger_with(reg(1, "1k", 1920))
    entries = [Entry(1, R("1k")), Entry(77, R("2d"), registered=False, country="DE")]
    changes = ledger.apply(
        rated(tournament(rounds=1, c=20), entries, [game(1, 77, 1, rnd=1)])
    ).changes
    assert [c.player for c in changes] == [1]
    assert ledger.elo(1) == 1916
    assert list(ledger.players()) == [1]
    with pytest.raises(KeyError):
        ledger.card(77)


@pytest.mark.parametrize(
    ("entries", "games", "fragment"),
    [
        ([Entry(1, R("1k")), Entry(9, R("1k"))], [game(1, 1, 9, rnd=1)], "not in the registry"),
        ([Entry(1, R("1k"))], [game(1, 1, 9, rnd=1)], "no entry"),
        ([Entry(1, R("1k")), Entry(1, R("1k"))], [], "entered twice"),
        ([Entry(1, R("1k")), Entry(2, R("1k"))], [game(1, 1, 2, pair_go=True)], "pair go"),
    ],
)
def test_tournament_refusals_change_nothing(
    entries: list[Entry], games: list[Game], fragment: str
) -> None:
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    before = ledger.snapshot()
    with pytest.raises(RuleError, match=fragment):
        ledger.apply(rated(tournament(rounds=1, c=20), entries, games))
    assert ledger.snapshot() == before


def test_a_tournament_without_time_or_c_is_refused() -> None:
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    t = tournament(rounds=1, time=None)
    with pytest.raises(RuleError, match="set C by hand"):
        ledger.apply(rated(t, entries_for(ledger, 1, 2), [game(1, 1, 2, rnd=1)]))


# ---------------------------------------------------------------- club games (§1.4 Decision)


def test_club_games_wait_for_the_period_and_are_rated_as_one_tournament() -> None:
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    assert ledger.apply(GamePlayed(game(1, 1, 2, Result.BLACK))).changes == []
    assert ledger.elo(1) == 1920
    card = ledger.card(1)
    assert (card.pending, card.last_played) == (Pending(1, "games", Phase.PERIOD_END), DAY)
    assert values(card)["club_games_held"] == 1
    # all even → C = 15 (B: 60m 3x30s) + 10 = 25; 0.5 × 25 = 12.5 → +13 / −12
    changes = ledger.apply(PeriodClosed(tournament(9, rounds=1))).changes
    assert {c.player: (c.rating_before, c.rating_after) for c in changes} == {
        1: (1920, 1933),
        2: (1920, 1908),
    }
    assert {c.source for c in changes} == {"tournament:9"}
    assert ledger.pending_games() == []
    assert ledger.card(1).games == 1
    assert ledger.apply(PeriodClosed(tournament(10, rounds=1))).changes == []  # empty period


def test_the_card_shows_the_elo_if_the_period_ended_now() -> None:
    """A club game moves nothing until the period ends; the card says what it would give
    now (with the club's usual 60-minute games: C = 15 + 10 = 25 → +13 / −12)."""
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920), reg(3, "2k", 1870))
    ledger.apply(GamePlayed(game(1, 1, 2, Result.BLACK, time=TimeControl.parse("60m"))))
    assert values(ledger.card(1))["pending_elo"] == 1933
    assert values(ledger.card(2))["pending_elo"] == 1908
    assert "pending_elo" not in values(ledger.card(3))
    assert ledger.elo(1) == 1920  # nothing moved yet
    ledger.apply(PeriodClosed(tournament(9, rounds=1, time="60m")))
    assert (ledger.elo(1), ledger.elo(2)) == (1933, 1908)  # as announced
    assert "pending_elo" not in values(ledger.card(1))


def held_games(last_day: int) -> st.SearchStrategy[list[tuple[int, int, Result, int, int]]]:
    """Club games of players 1–4 (black, white, result, stones, days after DAY up to
    ``last_day``) for :func:`assert_foreseen`."""
    game = st.tuples(
        st.integers(1, 4),
        st.integers(1, 4),
        st.sampled_from(list(Result)),
        st.integers(0, 3),
        st.integers(0, last_day),
    )
    return st.lists(game, min_size=1, max_size=30)


def assert_foreseen(
    games: list[tuple[int, int, Result, int, int]], periods: list[Tournament]
) -> None:
    """Each player's Elo "if the period ended now", with ``games`` held (black, white,
    result, stones, days after DAY), is the Elo the ``periods``' closes give, in turn."""
    ledger = ledger_with(
        reg(1, "1k", 1920), reg(2, "3k", 1830), reg(3, "5k", 1720), reg(4, "1d", 2000)
    )
    for gid, (black, white, result, stones, day) in enumerate(games, start=1):
        if black != white:
            when = DAY + dt.timedelta(days=day)
            ledger.apply(GamePlayed(game(gid, black, white, result, stones=stones, date=when)))
    foreseen = {p: ledger.provisional(p) for p in (1, 2, 3, 4)}
    for period in periods:
        ledger.apply(PeriodClosed(period))
    for player, elo in foreseen.items():
        assert elo is None or elo == ledger.elo(player), player


@given(held_games(last_day=19))  # April 11 to 30: one calendar month
def test_the_elo_if_the_period_ended_now_is_what_its_end_gives(
    games: list[tuple[int, int, Result, int, int]],
) -> None:
    """Whatever the open period holds — split into parts or not — each player's Elo "if the
    period ended now" is the Elo its end gives (rules.md §1.4 Decision — club games)."""
    last = DAY + dt.timedelta(days=19)
    assert_foreseen(games, [tournament(99, rounds=1, time="60m", end=last)])


@settings(max_examples=60, deadline=None)
@given(held_games(last_day=40))  # April 11 to May 21: two months held at once
def test_the_elo_if_the_periods_ended_now_is_what_their_ends_give(
    games: list[tuple[int, int, Result, int, int]],
) -> None:
    """Club games of two months held at once (April's period not closed when May's games
    came: the bot was down): "if the period ended now" is what April's close and then May's
    give, each month its own period, the Elo chaining (rules.md §1.4 Decision — club games:
    a calendar month a period)."""
    months = [dt.date(2026, 4, 30), dt.date(2026, 5, 31)]
    assert_foreseen(
        games, [Tournament(99, "period", end.replace(day=1), end, 1) for end in months]
    )


def test_a_period_with_a_handicap_game_gets_no_even_addition() -> None:
    """C = 15. Game 1: even, 1 beats 2: +0.500 for 1. Game 2: 2 receives 1 stone: 1920 + 60 =
    1980 > 1920, so 2 is A, Δ 60 → 0.350; 2 wins: +0.350. Sums ±0.150 × 15 = ±2.25 →
    +2 / −2 (floor(−2.25 + 0.5) = −2)."""
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    ledger.apply(GamePlayed(game(1, 1, 2, Result.BLACK)))
    ledger.apply(GamePlayed(game(2, 2, 1, Result.BLACK, stones=1)))
    ledger.apply(PeriodClosed(tournament(9, rounds=1)))
    assert (ledger.elo(1), ledger.elo(2)) == (1922, 1918)


def test_later_games_stay_for_the_next_period() -> None:
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    later = DAY + dt.timedelta(days=1)
    ledger.apply(GamePlayed(game(1, 1, 2, date=later)))
    assert ledger.apply(PeriodClosed(tournament(9, rounds=1, end=DAY))).changes == []
    assert [g.id for g in ledger.pending_games()] == [1]
    ledger.apply(PeriodClosed(tournament(10, rounds=1, end=later)))
    assert ledger.pending_games() == []
    assert ledger.elo(1) == 1933


@pytest.mark.parametrize(
    ("split", "elos"),
    [
        # C = 25: at most 11 games a part (275 < 300). Part 1: 11 × 0.5 × 25 = 137.5 →
        # 2058 / 1783. Part 2: Δ 275 → 0.030; 0.75 → +1 / floor(−0.25) = −1.
        (True, (2059, 1782)),
        # one part: 12 × 0.5 × 25 = 150
        (False, (2070, 1770)),
    ],
    ids=["split like a tournament", "one part"],
)
def test_a_busy_period_is_split(split: bool, elos: tuple[int, int]) -> None:
    params = MgszParams(split_club_periods=split)
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920), params=params)
    for gid in range(1, 13):
        ledger.apply(GamePlayed(game(gid, 1, 2, Result.BLACK)))
    ledger.apply(PeriodClosed(tournament(9, rounds=1)))
    assert (ledger.elo(1), ledger.elo(2)) == elos


def test_a_period_with_c_by_hand_and_one_without_time() -> None:
    """A period with no time of its own is rated with the club's usual time control (60m by
    default: C = 15 + 10 even = 25, +0.500 × 25 = 12.5 → 13); a C set by hand wins."""
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    ledger.apply(GamePlayed(game(1, 1, 2)))
    ledger.apply(PeriodClosed(tournament(9, rounds=1, time=None)))
    assert ledger.elo(1) == 1933
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    ledger.apply(GamePlayed(game(1, 1, 2)))
    ledger.apply(PeriodClosed(tournament(9, rounds=1, time=None, c=40)))
    assert ledger.elo(1) == 1940


def test_the_usual_time_from_a_date_rates_the_periods_and_their_preview_alike() -> None:
    """rules.md §1.4, club games: the club's usual time control is a fact from its date; the
    open period's preview and its end use it (90m: C = 20 + 10 even = 30; issue 22)."""
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    ledger.apply(GamePlayed(game(1, 1, 2, time=None)))
    assert values(ledger.card(1))["pending_elo"] == 1933  # 60m: C = 25
    ledger.apply(SettingsChanged(DAY, (("time", TimeControl.parse("90m")),)))
    assert values(ledger.card(1))["pending_elo"] == 1935  # 90m: C = 30
    changes = ledger.apply(PeriodClosed(tournament(9, rounds=1, time=None))).changes
    assert ledger.elo(1) == 1935
    assert one_change(changes, 1).note == "C = 30, 1 game"


def test_a_period_mixing_boards_weights_each_game_by_its_board() -> None:
    """19×19 game (C = 15 + 10 even = 25): 1 beats 2, ±0.500 × 25 = ±12.5; 13×13 game (C = 5):
    2 beats 1, ∓0.500 × 5 = ∓2.5. Player 1: 12.5 − 2.5 = 10 → 1930; player 2: 1910."""
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    ledger.apply(GamePlayed(game(1, 1, 2, Result.BLACK)))
    ledger.apply(GamePlayed(game(2, 1, 2, Result.WHITE, board=13)))
    changes = ledger.apply(PeriodClosed(tournament(9, rounds=1))).changes
    assert (ledger.elo(1), ledger.elo(2)) == (1930, 1910)
    assert one_change(changes, 1).note == "C = 25, 2 games"


def test_a_game_below_category_e_never_enters_the_period() -> None:
    """rules.md §1.2: below category E the game is not rated; a club game keeps its own time
    control (§1.4 Decision — club games), so a 5-minute game is stored and not rated even when
    the club's usual time control is category B."""
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    ledger.apply(GamePlayed(game(1, 1, 2, time=TimeControl.parse("5m"))))
    ledger.apply(GamePlayed(game(2, 1, 2, time=TimeControl.parse("10m"))))  # category E
    assert [g.id for g in ledger.pending_games()] == [2]
    changes = ledger.apply(PeriodClosed(tournament(9, rounds=1))).changes
    assert one_change(changes, 1).note == "C = 10, 1 game"  # E: 0 + 10 even


@pytest.mark.parametrize(
    ("times", "c"),
    [
        (["40m", "40m"], 20),  # category C 10 + 10 even, not the club's usual B
        (["90m", "90m"], 30),  # A 20 + 10
        (["90m", None], 25),  # no time control: the club's usual (60m 3x30s, B 15) + 10
        (["90m", "25m"], 15),  # the lowest category among the rated games: D 5 + 10
        (["90m", "35m 3x30s japanese", "60m"], 20),  # extended 57.5 min: C 10 + 10
    ],
    ids=["all C", "all A", "A and the usual B", "A and D", "A, C and B"],
)
def test_the_period_c_comes_from_the_rated_games_own_time_controls(
    times: list[str | None], c: int
) -> None:
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    for gid, time in enumerate(times, start=1):
        tc = TimeControl.parse(time) if time else None
        ledger.apply(GamePlayed(game(gid, 1, 2, time=tc, date=DAY + dt.timedelta(days=gid))))
    end = DAY + dt.timedelta(days=len(times))
    changes = ledger.apply(PeriodClosed(tournament(9, rounds=1, end=end))).changes
    assert one_change(changes, 1).note == f"C = {c}, {len(times)} games"


def test_a_late_game_of_an_earlier_month_waits_for_its_own_period() -> None:
    """Each month is its own period (rules.md §1.4, club games): a game entered late for a
    month that no period closed is not rated with a later month's period, but with its own
    when that closes (found by the model, issue 22: entered after November's close, an
    October game was rated as November's)."""
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    october, november = dt.date(2026, 10, 19), dt.date(2026, 11, 8)
    ledger.apply(GamePlayed(game(1, 1, 2, date=november)))
    ledger.apply(GamePlayed(game(2, 2, 1, date=october)))
    month = Tournament(9, "Club games 2026-11", dt.date(2026, 11, 1), dt.date(2026, 11, 30), 1)
    changes = ledger.apply(PeriodClosed(month)).changes
    assert one_change(changes, 1).note.endswith("1 game")
    assert [g.id for g in ledger.open_period()] == [2]
    own = Tournament(8, "Club games 2026-10", dt.date(2026, 10, 1), dt.date(2026, 10, 31), 1)
    assert one_change(ledger.apply(PeriodClosed(own)).changes, 2).note.endswith("1 game")
    assert not ledger.open_period()


def test_a_period_of_games_with_own_time_controls_needs_no_usual_time() -> None:
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    ledger.apply(GamePlayed(game(1, 1, 2, time=TimeControl.parse("40m"))))
    ledger.apply(PeriodClosed(tournament(9, rounds=1, time=None)))
    assert ledger.elo(1) == 1930  # C = 20: 0.5 × 20


@pytest.mark.parametrize(
    ("bad", "fragment"),
    [
        (game(1, 1, 2, pair_go=True), "pair go"),
        (game(1, 1, 99), "player 99"),
    ],
)
def test_club_game_refusals(bad: Game, fragment: str) -> None:
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    before = ledger.snapshot()
    with pytest.raises(RuleError, match=fragment):
        ledger.apply(GamePlayed(bad))
    assert ledger.snapshot() == before


@pytest.mark.parametrize(
    "ignored",
    [
        pytest.param(game(1, 1, 2, played=False), id="unplayed"),
        pytest.param(game(1, 1, 2, None), id="unknown result"),
        pytest.param(game(1, 1, 2, board=9), id="9x9 board"),
        pytest.param(game(1, 1, 2, time=TimeControl.parse("5m")), id="5m: below category E"),
        pytest.param(
            game(1, 1, 2, time=TimeControl.parse("9m 3x10s japanese")),
            id="9m + 45×10s = 16.5m: below category E",
        ),
    ],
)
def test_club_games_not_rated(ignored: Game) -> None:
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    assert ledger.apply(GamePlayed(ignored)).changes == []
    assert ledger.pending_games() == []


# ---------------------------------------------------------------- override and other events


def test_override_sets_elo_and_rank_even_down() -> None:
    ledger = ledger_with(reg(1, "2d", 2100))
    [change] = ledger.apply(
        Override(1, DAY, "committee 2026/3", rating=1900, rank=R("1k"))
    ).changes
    assert (ledger.elo(1), ledger.rank(1)) == (1900, R("1k"))
    assert (change.source, change.note) == ("override", "committee 2026/3")
    assert (change.rating_before, change.rating_after) == (2100, 1900)
    assert (change.rank_before, change.rank_after) == (R("2d"), R("1k"))


def test_a_rank_override_restarts_the_confirmation_counts() -> None:
    # 1d at 2060 after a tournament: 2d reached once; the committee sets 1d again (ours:
    # counts above the new rank restart), so the next tournament at 2060 counts once more
    ledger = ledger_with(reg(1, "1d", 2060), reg(2, "5k", 2060), reg(3, "5k", 2060))
    jigo = game(1, 1, 2, Result.JIGO, rnd=1)
    ledger.apply(rated(tournament(1, rounds=1, c=2), entries_for(ledger, 1, 2), [jigo]))
    assert values(ledger.card(1))["confirmations.2d"] == 1
    ledger.apply(Override(1, DAY, "committee: stays 1d", rank=R("1d")))
    jigo = game(2, 1, 3, Result.JIGO, rnd=1)
    ledger.apply(rated(tournament(2, rounds=1, c=2), entries_for(ledger, 1, 3), [jigo]))
    assert ledger.rank(1) == R("1d")
    assert values(ledger.card(1))["confirmations.2d"] == 1


@pytest.mark.parametrize(
    ("event", "fragment"),
    [
        (Override(9, DAY, "x", rating=1900), "player 9 is not registered"),
        (Override(1, DAY, "x"), "rating=N or rank=R"),
        (Override(1, DAY, "x", rating=-1), "negative"),
    ],
)
def test_override_refusals(event: Override, fragment: str) -> None:
    ledger = ledger_with(reg(1, "5k"))
    before = ledger.snapshot()
    with pytest.raises(RuleError, match=fragment):
        ledger.apply(event)
    assert ledger.snapshot() == before


@pytest.mark.parametrize(
    "event",
    [
        EgfRating(1, 2000, 2026, 4),
        DayEnded(DAY),
        MonthEnded(2026, 4),
        TeacherAction(1, TeacherKind.PROMOTE, DAY),
        VerificationSuspended(1, True, DAY),
    ],
    ids=lambda e: type(e).__name__,
)
def test_other_systems_events_are_not_handled(event: Event) -> None:
    ledger = ledger_with(reg(1, "5k"))
    before = ledger.snapshot()
    assert type(event) not in ledger.handles
    assert ledger.apply(event) == Applied([], frozenset())
    assert ledger.snapshot() == before


# ---------------------------------------------------------------- queries


def test_card_shows_title_elo_band_rank_and_last_change() -> None:
    ledger = ledger_with(reg(1, "3k", 1830), reg(2, "5k", 1720))
    ledger.apply(rated(tournament(rounds=1, c=20), entries_for(ledger, 1, 2), [game(1, 2, 1)]))
    # 1720 beats 1830: Δ 110 → 0.250; 0.750 × 20 = 15 → 1815 / 1735
    card = ledger.card(1)
    assert (card.rank, card.rating, card.sort_key, card.games) == (R("3k"), 1815, (1815,), 1)
    assert card.rating_label == "Elo"
    assert values(card) == {"elo": 1815, "band_rank": "3k", "club_games_held": 0}
    assert [m.unit for m in card.values] == ["Elo", "", "games"]
    assert card.pending is None
    with pytest.raises(KeyError, match="not registered"):
        ledger.card(42)


def test_handicap_uses_the_rank_of_the_current_elo_not_the_title() -> None:
    # titles 1d and 5k, but Elo 1830 is the 3k band and 1720 the 5k band: 2 stones
    ledger = ledger_with(reg(1, "1d", 1830), reg(2, "5k", 1720))
    advice = ledger.handicap(1, 2)
    assert (advice.black, advice.white, advice.stones, advice.komi) == (2, 1, 2, Fraction(1, 2))
    reduced = ledger.handicap(1, 2, reduction=1)
    assert (reduced.stones, reduced.komi) == (1, 0)
    even = Mgsz(MgszParams(even_komi=Fraction(7)))
    replay(even, [reg(1, "5k", 1720), reg(2, "5k", 1725)])
    assert even.handicap(1, 2).komi == 7


def test_promotion_for_a_dan_target_counts_confirmations() -> None:
    ledger = ledger_with(reg(1, "1d", 2000))
    progress = ledger.promotion(1)
    assert (progress.rank, progress.target) == (R("1d"), R("2d"))
    assert progress.lines[0] == "2d at Elo 2050: 50 points to go (Elo 2000)"
    assert "0/2" in progress.lines[1]
    ledger.apply(Override(1, DAY, "fix", rating=2060))
    ledger.apply(reg(2, "5k", 2060))
    ledger.apply(
        rated(tournament(rounds=1, c=2), entries_for(ledger, 1, 2), [game(1, 1, 2, Result.JIGO)])
    )
    progress = ledger.promotion(1)
    assert progress.lines[0] == "2d at Elo 2050: reached (Elo 2060)"
    assert "1/2" in progress.lines[1]


def test_promotion_for_kyu_targets_and_the_top() -> None:
    kyu = ledger_with(reg(1, "8k")).promotion(1)
    assert kyu.target == R("7k")
    assert kyu.lines[0] == "7k at Elo 1635: 40 points to go (Elo 1595)"
    assert "first time" in kyu.lines[1]
    top = ledger_with(reg(1, "7d", committee=True)).promotion(1)
    assert top.target is None


def test_entry_rank_mismatches() -> None:
    ledger = ledger_with(reg(1, "1d", 1830), reg(2, "5k", 1720))
    entries = [
        Entry(1, R("1d")),  # title 1d, but Elo 1830 is 3k: must enter as 3k (§9(1)a)
        Entry(2, R("5k")),
        Entry(3, R("2d"), registered=False),
        Entry(4, R("2d")),  # unknown: the importer lists new players itself
    ]
    assert ledger.entry_rank_mismatches(entries) == [(1, R("1d"), R("3k"))]
    assert ledger.entry_rank_mismatches(entries, board=13) == []  # §9(2): any rank on 13×13


def test_entry_notes_compare_with_the_elo_band_of_the_tournaments_first_day() -> None:
    """A tournament of last month imported today (rules.md, top: calendar order): its entries
    are checked against the Elo band of its first day (§9(1)a), not against an Elo the
    committee set since."""
    later = DAY + dt.timedelta(days=20)
    ledger = ledger_with(reg(1, "1d", 1990), Override(1, later, "committee", rating=2150))
    cup = Tournament(7, "Cup", DAY + dt.timedelta(days=10), DAY + dt.timedelta(days=11), 3)
    assert ledger.entry_notes(cup, [Entry(1, R("1d"))]) == []
    (note,) = ledger.entry_notes(cup, [Entry(1, R("3d"))])
    assert note.startswith("{player:1} entered as 3d but their Elo is in the 1d band")
    assert ledger.entry_rank_mismatches([Entry(1, R("1d"))]) == [(1, R("1d"), R("3d"))]  # now


def test_snapshot_is_json_data() -> None:
    import json

    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    ledger.apply(GamePlayed(game(1, 1, 2)))
    snap = ledger.snapshot()
    assert json.loads(json.dumps(snap)) == snap
    assert snap["players"]["1"]["elo"] == 1920
    assert snap["pending"] == [[1, 1, 2, "B+", "2026-04-11", 0, 19]]


# ---------------------------------------------------------------- properties

elos = st.integers(min_value=0, max_value=3200)
outcomes = st.sampled_from(list(Outcome))


@given(elos, elos, outcomes, st.integers(min_value=-9, max_value=9))
def test_the_two_players_game_points_sum_to_zero(a: int, b: int, outcome: Outcome, s: int) -> None:
    jp_a = game_points_milli(a, b, outcome, s)
    jp_b = game_points_milli(b, a, OPPOSITE[outcome], -s)
    assert jp_a + jp_b == 0
    assert -1000 <= jp_a <= 1000
    black, white, stones = (a, b, s) if s >= 0 else (b, a, -s)
    score = {Outcome.WIN: 1000, Outcome.LOSS: 0, Outcome.JIGO: 500}[outcome]
    black_jp = black_jp_milli(black, white, stones, score if s >= 0 else 1000 - score)
    assert black_jp == (jp_a if s >= 0 else jp_b)


RANKS = [Rank(step) for step in range(R("30k").step, R("9d").step + 1)]


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[Event], dict[int, tuple[int, dict[int, int]]]]:
    """Registered players, then tournaments or club rating periods of random games (no
    overrides). Also returns, per tournament id, its C and each player's rated games."""
    n = draw(st.integers(min_value=2, max_value=6))
    events: list[Event] = [
        Registered(
            p,
            draw(st.sampled_from(RANKS)),
            DAY,
            rating=draw(st.integers(min_value=800, max_value=2900)),
        )
        for p in range(1, n + 1)
    ]
    facts: dict[int, tuple[int, dict[int, int]]] = {}
    gid = 0
    for tid in range(1, draw(st.integers(min_value=1, max_value=5)) + 1):
        rounds = draw(st.integers(min_value=1, max_value=8))
        c = draw(st.integers(min_value=1, max_value=60))
        games = []
        played: dict[int, int] = {}
        for rnd in range(1, rounds + 1):
            black, white = draw(st.lists(st.integers(1, n), min_size=2, max_size=2, unique=True))
            gid += 1
            games.append(
                game(
                    gid,
                    black,
                    white,
                    draw(st.sampled_from(list(Result))),
                    stones=draw(st.integers(0, 5)),
                    rnd=rnd,
                )
            )
            for p in (black, white):
                played[p] = played.get(p, 0) + 1
        t = tournament(tid, rounds=rounds, c=c, even=False)
        if draw(st.booleans()):
            entries = tuple(Entry(p, R("5k")) for p in range(1, n + 1))
            events.append(TournamentRated(t, entries, tuple(games)))
        else:  # the same games as club games, closed as a rating period with C by hand
            events.extend(GamePlayed(g) for g in games)
            events.append(PeriodClosed(t))
        facts[tid] = (c, played)
    return events, facts


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_ranks_never_drop_and_changes_are_bounded(
    history: tuple[list[Event], dict[int, tuple[int, dict[int, int]]]],
) -> None:
    events, facts = history
    ledger = Mgsz()
    for event in events:
        ranks = {p: ledger.rank(p) for p in ledger.players()}
        changes = ledger.apply(event).changes
        for p, rank in ranks.items():
            assert ledger.rank(p) >= rank
        if isinstance(event, TournamentRated | PeriodClosed):
            c, played = facts[event.tournament.id]
            assert {ch.player for ch in changes} == set(played)
            for ch in changes:
                assert ch.rank_after >= ch.rank_before
                assert abs(ch.rating_after - ch.rating_before) <= c * played[ch.player]  # type: ignore[operator]


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_replaying_twice_gives_equal_snapshots(
    history: tuple[list[Event], dict[int, tuple[int, dict[int, int]]]],
) -> None:
    events, _ = history
    first, second = Mgsz(), Mgsz()
    assert replay(first, events) == replay(second, events)
    assert first.snapshot() == second.snapshot()


def _bad_events(n: int) -> list[Event]:
    unknown = n + 1
    return [
        reg(1, "5k"),  # already registered
        reg(unknown, "2d"),  # over the 5k limit without committee
        GamePlayed(game(900, 1, unknown)),
        GamePlayed(game(901, 1, 2, pair_go=True)),
        Override(unknown, DAY, "x", rating=1500),
        Override(1, DAY, "x"),
        TournamentRated(tournament(99, c=20), (Entry(unknown, R("5k")),), ()),
        TournamentRated(
            tournament(99, c=20),
            (Entry(1, R("5k")), Entry(2, R("5k"))),
            (game(902, 1, 2, rnd=1), game(903, 2, 1, rnd=2, pair_go=True)),
        ),
        TournamentRated(
            tournament(99, rounds=10, c=45),
            (Entry(1, R("5k")), Entry(2, R("5k"))),
            (game(904, 1, 2, rnd=1), game(905, 2, 1)),
        ),
    ]


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(histories(), st.data())
def test_a_rejected_event_leaves_the_snapshot_unchanged(
    history: tuple[list[Event], dict[int, tuple[int, dict[int, int]]]], data: st.DataObject
) -> None:
    events, _ = history
    ledger = Mgsz()
    replay(ledger, events)
    n = len(list(ledger.players()))
    ledger.apply(GamePlayed(game(800, 1, 2)))  # a pending game, so a period has work to do
    before = ledger.snapshot()
    bad = data.draw(st.sampled_from(_bad_events(n)))
    with pytest.raises(EngineError):
        ledger.apply(bad)
    assert ledger.snapshot() == before


def values(card: Card) -> dict[str, object]:
    """The card's typed values by export key."""
    return {m.key: m.value for m in card.values}


# ------------------------------------------------------- what the bot asks by name


def test_a_rated_period_is_announced_with_its_promotions() -> None:
    ledger = ledger_with(reg(1, "5k", 1718), reg(2, "5k", 1720))
    ledger.apply(GamePlayed(game(1, 1, 2, Result.BLACK)))
    changes = ledger.apply(PeriodClosed(tournament(9, rounds=1))).changes
    notice = ledger.announcement(Phase.PERIOD_END, "Club games 2026-04", changes)
    assert notice is not None and notice.title == "Club games 2026-04 is rated"
    assert notice.lines == ()  # both keep their titles
    empty = ledger.announcement(Phase.PERIOD_END, "Club games 2026-05", [])
    assert empty is not None and "No rating changed" in empty.lines[0]
    assert ledger.announcement(Phase.DAY_END, "2026-04-20", changes) is None


def test_promotions_in_the_period_announcement_name_rank_moves_only() -> None:
    change = Change(1, DAY, "tournament:9", 1700, 1725, R("6k"), R("5k"))
    still = Change(2, DAY, "tournament:9", 1720, 1695, R("5k"), R("5k"))
    notice = Mgsz().announcement(Phase.PERIOD_END, "Club games 2026-04", [change, still])
    assert notice is not None
    assert notice.lines == ("Promotions: {player:1} 6k → 5k",)


def test_rank_bands_follow_the_rank_table_weakest_first() -> None:
    bands = Mgsz().rank_bands()
    assert (bands[0].rank, bands[-1].rank) == (R("35k"), R("7d"))
    assert all(a.high == b.low for a, b in itertools.pairwise(bands))
    one_k = next(b for b in bands if b.rank == R("1k"))
    assert (one_k.low, one_k.high) == (1920, 1980)
    assert bands[-1].high - bands[-1].low == 200


def test_tournament_weight_is_the_multiplier_with_its_breakdown() -> None:
    weight = Mgsz().tournament_weight(tournament(time="60m 3x30s japanese", even=True))
    assert (weight.label, weight.value, weight.rated) == ("Multiplier C", 25, True)
    assert weight.lines[-1] == "C = 25"
    by_hand = Mgsz().tournament_weight(tournament(c=40))
    assert by_hand.value == 40 and "set by hand" in by_hand.lines[0]
    slow = Mgsz().tournament_weight(tournament(time="5m"))
    assert (slow.value, slow.rated) == (0, False)
    with pytest.raises(EngineError):
        Mgsz().tournament_weight(tournament(time=None))


def test_entry_notes_name_entries_outside_their_elo_band() -> None:
    ledger = ledger_with(reg(1, "3k", 1830), reg(2, "5k", 1720))
    notes = ledger.entry_notes(tournament(), [Entry(1, R("2k")), Entry(2, R("5k"))])
    assert len(notes) == 1
    assert notes[0].startswith("{player:1} entered as 2k but their Elo is in the 3k band")
    assert "MGSZ Minősítési Szabályzat 9.§ (1) a)" in notes[0]
    assert ledger.entry_notes(tournament(board=13), [Entry(1, R("2k"))]) == []  # §9(2)


def test_initial_rank_limit_is_the_clubs_setting() -> None:
    limit = Mgsz().initial_rank_limit()
    assert limit.rank == R("5k") and "MGSZ Minősítési Szabályzat 5.§ (3)" in limit.rule
    assert Mgsz(MgszParams(max_initial_rank=R("3k"))).initial_rank_limit().rank == R("3k")


def test_max_initial_rank_setting_holds_from_its_date() -> None:
    ledger = Mgsz()
    with pytest.raises(RuleError):
        ledger.apply(reg(1, "3k"))
    later = DAY + dt.timedelta(days=1)
    ledger.apply(SettingsChanged(later, (("mgsz.max_initial_rank", R("1d")),)))
    ledger.apply(Registered(1, R("3k"), later))
    assert ledger.card(1).rank == R("3k")
    assert ledger.params.split_club_periods  # the other settings keep their defaults


def test_a_tournament_of_others_touches_the_held_players_if_the_period_ended_now() -> None:
    """The open period is rated whole: a cup between one held player and a newcomer moves
    the other held player's provisional Elo, so the ledger names him as touched."""
    ledger = ledger_with(reg(1, "5k", 1720), reg(2, "5k", 1720), reg(3, "5k", 1720))
    assert ledger.apply(GamePlayed(game(1, 1, 2, Result.WHITE))).touched == {1, 2}
    before = ledger.provisional(2)
    cup = TournamentRated(tournament(9, rounds=1), (), (game(2, 1, 3, Result.WHITE, rnd=1),))
    assert ledger.apply(cup).touched == {1, 2, 3}  # 2 is held against 1, whose Elo moved
    assert ledger.provisional(2) != before
    assert ledger.apply(DayEnded(DAY)).touched == frozenset()  # another system's schedule
    assert ledger.apply(Registered(4, R("5k"), DAY)).touched == {4}
    # the same C: only the new game's players moved
    assert ledger.apply(GamePlayed(game(3, 3, 4, Result.BLACK))).touched == {3, 4}


def test_home_language_is_the_rulebooks_country() -> None:
    """The rulebook's language is a club's default language (issue 13)."""
    from engine.mgsz import Mgsz as system
    from engine.systems import home_language

    assert system.language == "hu"
    assert system().language == "hu"
    assert home_language("mgsz") == "hu"


def test_rule_texts_are_translatable_messages_with_their_template() -> None:
    """Issue 13: a refusal, a history note, a notice and an entry note are Msg (the English
    text, with the template a catalogue translates and the values it is formatted with)."""
    from engine.text import Msg

    with pytest.raises(RuleError) as refused:
        ledger_with(reg(1, "2k"))
    message = refused.value.args[0]
    assert isinstance(message, Msg)
    assert message.template.startswith("a new player without a rating can start at {limit}")
    assert message.args["limit"] == "5k" and message.args["rank"] == "2k"

    ledger = ledger_with(reg(1, "5k"), reg(2, "5k", 1900))
    note = ledger.apply(reg(3, "10k")).changes[0].note
    assert isinstance(note, Msg) and note.template == "Elo from the rank table for {rank}"
    ledger.apply(GamePlayed(game(1, 1, 2)))
    notice = ledger.announcement(Phase.PERIOD_END, "2026-04", [])
    assert notice is not None and isinstance(notice.title, Msg)
    assert notice.title.template == "{period} is rated" and notice.title == "2026-04 is rated"
    [entry_note] = ledger.entry_notes(tournament(), [Entry(2, R("5k"))])
    assert isinstance(entry_note, Msg) and entry_note.args["player"] == "{player:2}"
    assert entry_note.startswith("{player:2} entered as 5k but their Elo is in the 2k band")
    card = ledger.card(1)
    assert [m.label.template for m in card.values if isinstance(m.label, Msg)][:2] == [
        "Elo",
        "band rank",
    ]
    assert card.pending is not None and card.pending.unit.plural_template == "games"  # type: ignore[attr-defined]


# ---------------------------------------------------------------- what is due (issue 23)


def test_the_periods_due_are_the_ended_months_holding_club_games() -> None:
    """A month's club games are rated as one tournament at its end (rules.md §1.4 Decision
    — club games): due are the months that have ended and hold games, oldest first, each
    the month's period with no time of its own; a game of a later month waits for its own."""
    ledger = ledger_with(reg(1, "1k", 1920), reg(2, "1k", 1920))
    may = dt.date(2026, 5, 3)
    ledger.apply(GamePlayed(game(1, 1, 2)))  # April 11
    ledger.apply(GamePlayed(game(2, 2, 1, date=may)))
    april, may_period = month_period(2026, 4), month_period(2026, 5)
    assert ledger.due(dt.date(2026, 4, 30)) == []
    assert ledger.due(dt.date(2026, 5, 1)) == [PeriodClosed(april)]
    assert ledger.due(dt.date(2026, 7, 1)) == [PeriodClosed(april), PeriodClosed(may_period)]
    assert april.name == "Club games 2026-04" and april.time is None
    closed = ledger.apply(PeriodClosed(april))
    assert {c.player for c in closed.changes} == {1, 2} and closed.touched == {1, 2}
    assert ledger.due(dt.date(2026, 7, 1)) == [PeriodClosed(may_period)]


def test_a_club_game_touches_its_players_while_the_period_keeps_its_c() -> None:
    """The open period indexed by player: a new game of the same C touches its two players;
    the first handicap game takes the even addition away from every held game (rules.md
    §1.4 club games: C from all of them), so it touches every held player."""
    ledger = ledger_with(*(reg(p, "1k", 1920) for p in (1, 2, 3, 4)))
    assert ledger.apply(GamePlayed(game(1, 1, 2))).touched == {1, 2}
    assert ledger.apply(GamePlayed(game(2, 3, 4))).touched == {3, 4}
    assert ledger.apply(GamePlayed(game(3, 3, 1))).touched == {1, 3}
    assert ledger.apply(GamePlayed(game(4, 2, 3, stones=2))).touched == {1, 2, 3, 4}
    assert ledger.apply(Registered(5, R("5k"), DAY)).touched == {5}
