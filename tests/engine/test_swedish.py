"""Swedish promotion points (rules.md §3): the seed's worked example, the decisions, properties."""

from __future__ import annotations

import datetime as dt
import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.calendar import Phase
from engine.errors import EngineError, RuleError
from engine.ranks import Rank
from engine.swedish import (
    POINTS_TABLE,
    REQUIREMENTS,
    Requirement,
    SequenceTracker,
    Swedish,
    SwedishParams,
    format_half_games,
    format_quarters,
    game_points_quarters,
    game_weight,
    invalid_reason,
    qualifies,
)
from engine.system import Card, Change, replay
from engine.timecontrol import TimeControl
from engine.types import (
    DayEnded,
    Entry,
    Event,
    Game,
    GamePlayed,
    Outcome,
    Override,
    Registered,
    Result,
    SettingsChanged,
    Tournament,
    TournamentRated,
)
from tests.conftest import load_vectors

VECTORS = load_vectors("swedish")
EXAMPLE = VECTORS["example"]
DAY = dt.date(2024, 3, 1)
HOUR = TimeControl.parse("60m")
SUBJECT = 1
OUTCOMES = {"win": Outcome.WIN, "loss": Outcome.LOSS, "jigo": Outcome.JIGO}


def r(text: str) -> Rank:
    return Rank.parse(text)


class Games:
    """Feeds one-game tournaments to a ledger, the subject holding White."""

    def __init__(self, system: Swedish) -> None:
        self.system = system
        self.next_id = 1

    def play(
        self,
        opponent_rank: str,
        outcome: str,
        *,
        country: str | None = None,
        time: TimeControl | None = HOUR,
        player: int = SUBJECT,
        **game_fields: Any,
    ) -> list[Change]:
        gid = self.next_id
        self.next_id += 1
        opponent = 1000 + gid
        result = {"win": Result.WHITE, "loss": Result.BLACK, "jigo": Result.JIGO}[outcome]
        date = DAY + dt.timedelta(days=gid)
        game = Game(
            id=gid, black=opponent, white=player, result=result, date=date, round=1, **game_fields
        )
        tournament = Tournament(
            id=gid, name=f"Cup {gid}", start=date, end=date, rounds=1, time=time
        )
        entries = (
            Entry(player, self.system.card(player).rank),
            Entry(opponent, r(opponent_rank), registered=False, country=country),
        )
        return self.system.apply(TournamentRated(tournament, entries, (game,))).changes


def registered(
    rank: str, params: SwedishParams | None = None, country: str | None = None
) -> Swedish:
    system = Swedish(params) if params is not None else Swedish()
    system.apply(Registered(SUBJECT, r(rank), DAY, country=country))
    return system


def total(system: Swedish, target: str, player: int = SUBJECT) -> str | None:
    tracker = system.sequence(player, r(target))
    return None if tracker is None else format_quarters(tracker.total)


# ------------------------------------------------------------------- the seed's tables


@pytest.mark.parametrize(
    "row", VECTORS["points_table"], ids=lambda row: f"opponent{row['opponent_minus_reference']:+d}"
)
def test_points_table(row: dict[str, int]) -> None:
    offset = row["opponent_minus_reference"]
    assert POINTS_TABLE[offset] == (row["win"], row["loss"])
    reference = r("1k")
    opponent = reference + offset
    assert game_points_quarters(opponent, reference, Outcome.WIN) == row["win"] * 4
    assert game_points_quarters(opponent, reference, Outcome.LOSS) == row["loss"] * 4


def test_points_table_shape() -> None:
    rows = sorted(POINTS_TABLE)
    assert rows == list(range(-2, 4))  # no gaps
    wins = [POINTS_TABLE[row][0] for row in rows]
    losses = [POINTS_TABLE[row][1] for row in rows]
    assert wins == sorted(wins) and losses == sorted(losses)  # stronger opponents pay more


@pytest.mark.parametrize(("offset", "row"), [(5, 3), (9, 3), (-3, -2), (-12, -2)])
def test_points_beyond_the_table_use_its_last_rows(offset: int, row: int) -> None:
    reference = r("1k")
    win, loss = POINTS_TABLE[row]
    assert game_points_quarters(reference + offset, reference, Outcome.WIN) == win * 4
    assert game_points_quarters(reference + offset, reference, Outcome.LOSS) == loss * 4


@pytest.mark.parametrize(("target", "need"), sorted(VECTORS["requirements"].items()))
def test_requirements(target: str, need: dict[str, int]) -> None:
    expected = Requirement(need["points"], need["games"])
    assert Requirement(*REQUIREMENTS[target]) == expected
    assert Swedish().requirement(r(target)) == expected


# ------------------------------------------------------------------- the worked example


def _example_id(row: dict[str, Any]) -> str:
    promoted = f"-promoted-{row['promoted_to']}" if "promoted_to" in row else ""
    return f"game{row['n']}-{row['result']}-vs-{row['opponent']}{promoted}"


def _replay_example_to(n: int) -> tuple[Swedish, list[Change]]:
    system = registered(EXAMPLE["start_rank"])
    games = Games(system)
    changes: list[Change] = []
    for row in EXAMPLE["games"][:n]:
        changes = games.play(row["opponent"], row["result"])
    return system, changes


def _promoted_before(n: int) -> str:
    rank = EXAMPLE["start_rank"]
    for row in EXAMPLE["games"][: n - 1]:
        rank = row.get("promoted_to", rank)
    return str(rank)


@pytest.mark.parametrize("row", EXAMPLE["games"], ids=_example_id)
def test_worked_example(row: dict[str, Any]) -> None:
    system, changes = _replay_example_to(row["n"])
    promoted = row.get("promoted_to")
    rank_before = _promoted_before(row["n"])
    assert str(system.card(SUBJECT).rank) == (promoted or rank_before)
    for column, target in (("to_1k", "1k"), ("to_1d", "1d")):
        expected = row[column]
        if expected is None:  # already promoted: the target is no longer tracked
            assert system.sequence(SUBJECT, r(target)) is None
            assert r(target) not in system.targets(SUBJECT)
            continue
        # the game's points, from the seed's table
        reference = r(target) + (-1)
        outcome = OUTCOMES[row["result"]]
        points = game_points_quarters(r(row["opponent"]), reference, outcome)
        assert points == expected["points"] * 4
        if target == promoted:
            # the promotion's history row runs from the total reached toward this target
            promotion = [c for c in changes if c.rank_after != c.rank_before]
            assert len(promotion) == 1
            assert (str(promotion[0].rank_before), str(promotion[0].rank_after)) == (
                rank_before,
                target,
            )
            assert promotion[0].rating_before == str(expected["total"])
            continue
        tracker = system.sequence(SUBJECT, r(target))
        assert tracker is not None
        assert tracker.last == expected["points"] * 4
        assert format_quarters(tracker.total) == str(expected["total"])
    if promoted:  # after the promotion the card shows the total toward the next target
        if promoted == "1k":
            assert system.card(SUBJECT).rating == str(row["to_1d"]["total"])
    else:
        assert not [c for c in changes if c.rank_after != c.rank_before]


def test_worked_example_promotion_notes() -> None:
    system, _ = _replay_example_to(10)
    assert system.card(SUBJECT).rating_label == "points toward 1d"
    _, changes = _replay_example_to(23)
    note = next(c for c in changes if c.rank_after == r("1d")).note
    assert "170 points in 19 games" in note


# ------------------------------------------------------------------------ decision lines


def game_with(**fields: Any) -> Game:
    base: dict[str, Any] = {"id": 1, "black": 1, "white": 2, "result": Result.WHITE, "date": DAY}
    base.update(fields)
    return Game(**base)


@pytest.mark.parametrize(
    ("fields", "tournament_time", "weight"),
    [
        ({"time": HOUR}, None, 2),
        ({"time": TimeControl.parse("90m 3x30s")}, None, 2),
        ({"time": TimeControl.parse("59m 30/5m canadian")}, None, 1),
        ({"time": TimeControl.parse("30m")}, None, 1),
        ({"time": TimeControl.parse("29m 3x60s")}, None, 0),
        ({"time": TimeControl.parse("unlimited")}, None, 2),
        ({}, HOUR, 2),  # the tournament's time control when the game has none
        ({"time": TimeControl.parse("45m")}, HOUR, 1),  # the game's own wins
        ({}, None, 0),  # unknown time control: not counted (ours)
        ({"time": HOUR, "stones": 2}, None, 0),
        ({"time": HOUR, "stones": 1, "komi": Fraction(0)}, None, 0),
        ({"time": HOUR, "komi": Fraction(11, 2)}, None, 2),
        ({"time": HOUR, "komi": Fraction(8)}, None, 2),
        ({"time": HOUR, "komi": Fraction(5)}, None, 0),
        ({"time": HOUR, "komi": Fraction(17, 2)}, None, 0),
        ({"time": HOUR, "komi": Fraction(1, 2)}, None, 0),
        ({"time": HOUR, "played": False}, None, 0),
        ({"time": HOUR, "result": None}, None, 0),
        ({"time": HOUR, "board": 13}, None, 0),
        ({"time": HOUR, "pair_go": True}, None, 0),
    ],
    ids=[
        "60 min",
        "90 min byo-yomi",
        "59 min is half",
        "30 min is half",
        "29 min",
        "no time limit",
        "tournament time",
        "game time wins",
        "time unknown",
        "handicap 2",
        "handicap 1 no komi",
        "komi 5.5",
        "komi 8",
        "komi 5",
        "komi 8.5",
        "komi 0.5",
        "unplayed",
        "result unknown",
        "13x13",
        "pair go",
    ],
)
def test_valid_games(
    fields: dict[str, Any], tournament_time: TimeControl | None, weight: int
) -> None:
    game = game_with(**fields)
    assert game_weight(game, tournament_time) == weight
    assert (invalid_reason(game, tournament_time) is None) == (weight > 0)


def test_komi_bounds_are_settings() -> None:
    params = SwedishParams(komi_min=Fraction(6), komi_max=Fraction(7))
    assert game_weight(game_with(time=HOUR), None, params) == 2  # 6.5
    assert game_weight(game_with(time=HOUR, komi=Fraction(15, 2)), None, params) == 0


@pytest.mark.parametrize(
    ("opponent", "outcome", "quarters", "shown"),
    [
        ("2k", "win", 50, "12.5"),  # same rank: 25 → 12.5
        ("1k", "loss", -50, "-12.5"),  # one stronger: −25 → −12.5
        ("3k", "jigo", -25, "-6.25"),  # one weaker: (10 − 35)/2 = −12.5 → −6.25
        ("1d", "jigo", 25, "6.25"),  # two stronger: (35 − 10)/2 = 12.5 → 6.25
    ],
    ids=["win", "loss", "jigo one weaker", "jigo two stronger"],
)
def test_half_games_halve_the_points(
    opponent: str, outcome: str, quarters: int, shown: str
) -> None:
    reference = r("2k")  # target 1k
    assert (
        game_points_quarters(r(opponent), reference, OUTCOMES[outcome], half_games=1) == quarters
    )
    assert format_quarters(quarters) == shown


def test_half_game_counts_half_in_the_sequence() -> None:
    system = registered("2k")
    games = Games(system)
    games.play("2k", "win", time=TimeControl.parse("45m"))
    games.play("2k", "win")
    tracker = system.sequence(SUBJECT, r("1k"))
    assert tracker is not None
    assert (tracker.total, tracker.total_halves) == (150, 3)  # 37.5 points in 1.5 games
    card = system.card(SUBJECT)
    assert card.rating == "37.5"
    assert values(card)["swedish_sequences.games"] == Fraction(3, 2)
    assert values(card)["swedish_sequences.points"] == Fraction(75, 2)


@pytest.mark.parametrize(
    ("points", "games", "target", "expected"),
    [
        (140, 10, "1k", True),  # the seed's (*): 3 games short, 40 extra ≥ 30
        (130, 9, "1k", False),  # 4 short, 30 extra < 40
        (130, 8, "1k", False),
        (100, 13, "1k", True),
        (99.75, 13, "1k", False),
        (100, 25, "1k", True),
        (130, 10, "1k", True),  # exactly 10·k
        (129.75, 10, "1k", False),
        (135, 9.5, "1k", True),  # half games: 3.5 short, 35 extra
        (134.75, 9.5, "1k", False),
        (150, 16, "1d", False),  # the seed's "bara 16 part."
        (160, 16, "1d", True),
        (170, 19, "1d", True),
        (199.75, 30, "2d", False),
        (300, 10, "6d", True),
        (0, 0, "1k", False),
    ],
)
def test_short_sequences_need_ten_points_a_game(
    points: float, games: float, target: str, expected: bool
) -> None:
    req = Requirement(*REQUIREMENTS[target])
    quarters, halves = Fraction(str(points)) * 4, Fraction(str(games)) * 2
    assert quarters.denominator == halves.denominator == 1
    assert qualifies(int(quarters), int(halves), req) is expected


def test_only_a_total_below_zero_starts_over() -> None:
    # rules.md §3.3 Decision: "a total that drops below zero starts over"; zero keeps the run
    system = registered("2k")
    games = Games(system)
    games.play("3k", "win")  # 0 toward 1d (reference 1k, opponent two weaker)
    tracker = system.sequence(SUBJECT, r("1d"))
    assert tracker is not None
    assert (tracker.total, tracker.total_halves) == (0, 2)
    games.play("1k", "win")  # +25
    games.play("1k", "loss")  # −35: −10, starts over with no games
    tracker = system.sequence(SUBJECT, r("1d"))
    assert tracker is not None
    assert (tracker.total, tracker.total_halves) == (0, 0)


def test_dan_promotion_needs_wins_against_that_dan() -> None:
    system = registered("1d")  # target 2d: 200 points in 20 games and 2 wins vs 2d+
    games = Games(system)
    for _ in range(12):  # 12 × 25 + 10 × 12 = 420 ≥ 200 + 200: the sequence qualifies
        games.play("1d", "win")
    assert system.card(SUBJECT).rank == r("1d")
    assert "The sequence requirement is met." in system.promotion(SUBJECT).lines
    games.play("2d", "win")
    assert system.card(SUBJECT).rank == r("1d")  # one win against 2d+ is not two
    assert system.wins_against(SUBJECT, r("2d")) == 1
    changes = games.play("4d", "win")
    assert system.card(SUBJECT).rank == r("2d")
    assert [(str(c.rank_before), str(c.rank_after)) for c in changes][-1] == ("1d", "2d")


def test_dan_wins_may_come_before_the_sequence() -> None:
    system = registered("1d")
    games = Games(system)
    games.play("3d", "win")
    games.play("2d", "win")
    for _ in range(10):
        games.play("1k", "loss")  # −35 each toward 2d: the run starts over
    for n in range(1, 13):
        games.play("1d", "win")
        assert system.card(SUBJECT).rank == (r("2d") if n == 12 else r("1d"))


def test_met_sequence_waits_for_the_wins() -> None:
    # ours: once met for the current target, the promotion waits only for the wins
    system = registered("1d")
    games = Games(system)
    for _ in range(12):
        games.play("1d", "win")
    for _ in range(12):
        games.play("1k", "loss")  # no sequence ending here qualifies any more
    tracker = system.sequence(SUBJECT, r("2d"))
    assert tracker is not None and not tracker.ok
    games.play("2d", "win")
    changes = games.play("3d", "win")
    assert system.card(SUBJECT).rank == r("2d")
    assert "qualified earlier" in changes[-1].note


def test_one_rank_at_a_time_with_a_double_promotion() -> None:
    # kyu targets with a club requirement harder than 1k's: a 3k's run of wins against 1k
    # players meets 2k (200 in 20) and 1k (100 in 13) at the same game, 1d not yet
    params = SwedishParams(kyu_targets=True, kyu_points=200, kyu_games=20)
    system = registered("3k", params)
    games = Games(system)
    for _ in range(8):  # 8 × 35 + 80 = 360 < 400
        assert not [c for c in games.play("1k", "win") if c.rank_before != c.rank_after]
    changes = games.play("1k", "win")  # 9 × 35 + 90 = 405
    steps = [
        (str(c.rank_before), str(c.rank_after)) for c in changes if c.rank_before != c.rank_after
    ]
    assert steps == [("3k", "2k"), ("2k", "1k")]
    assert system.card(SUBJECT).rank == r("1k")
    # 1d: 9 × 25 + 90 = 315 < 320; next game 350, but 1d needs a win against a dan player
    games.play("1k", "win")
    assert system.card(SUBJECT).rank == r("1k")
    games.play("1d", "win")
    assert system.card(SUBJECT).rank == r("1d")


def test_history_rows_chain_through_a_promotion() -> None:
    system, _ = _replay_example_to(9)
    games = Games(system)
    games.next_id = 10
    rows = games.play("3k", "win")
    assert [(c.rating_before, c.rating_after) for c in rows] == [("130", "140"), ("140", "40")]


def test_override_sets_the_rank_and_the_next_game_decides() -> None:
    system, _ = _replay_example_to(23)
    assert system.card(SUBJECT).rank == r("1d")
    changes = system.apply(Override(SUBJECT, DAY, "committee", rank=r("2k"))).changes
    assert (changes[0].rank_before, changes[0].rank_after) == (r("1d"), r("2k"))
    assert system.card(SUBJECT).rank == r("2k")  # the override itself promotes nobody
    games = Games(system)
    games.next_id = 24
    rows = games.play("1k", "win")
    steps = [
        (str(c.rank_before), str(c.rank_after)) for c in rows if c.rank_before != c.rank_after
    ]
    assert steps == [("2k", "1k"), ("1k", "1d")]  # one rank at a time, same history


def test_club_game_counts_only_when_marked() -> None:
    system = Swedish()
    system.apply(Registered(1, r("2k"), DAY))
    system.apply(Registered(2, r("2k"), DAY))
    plain = Game(id=1, black=2, white=1, result=Result.WHITE, date=DAY, time=HOUR)
    assert system.apply(GamePlayed(plain)).changes == []
    assert total(system, "1k") == "0"
    marked = Game(
        id=2, black=2, white=1, result=Result.WHITE, date=DAY, time=HOUR, counts_as_tournament=True
    )
    system.apply(GamePlayed(marked))
    assert total(system, "1k") == "25"  # the opponent's rank here is their registered rank
    assert total(system, "1k", player=2) == "0"  # −35 starts over


def test_region_flag() -> None:
    system = registered("2k", country="SE")
    games = Games(system)
    for _ in range(3):
        games.play("2k", "win", country="JP")
    games.play("2k", "win", country="se")  # same country, any case
    assert "review" not in values(system.card(SUBJECT))
    rows = games.play("1k", "win", country="KR")
    assert "4 games" in str(values(system.card(SUBJECT))["review"])
    assert any("committee" in line for line in system.promotion(SUBJECT).lines)
    assert "committee" in rows[-1].note
    games.play("3k", "win")  # 145 points in 6 games: not yet (145 + 60 < 230)
    assert system.card(SUBJECT).rank == r("2k")


def test_region_flag_on_promotion() -> None:
    system = registered("2k", country="SE")
    games = Games(system)
    for _ in range(6):  # 6 × 35 + 60 = 270 ≥ 230
        rows = games.play("1d", "win", country="CN")
    assert system.card(SUBJECT).rank == r("1k")
    promotion = next(c for c in rows if c.rank_after == r("1k"))
    assert "6 games of the sequence against players from other countries" in promotion.note


def test_tournament_games_in_round_order_and_unplayed_noted() -> None:
    system = registered("2k")
    tournament = Tournament(id=1, name="Cup", start=DAY, end=DAY, rounds=3, time=HOUR)
    entries = (Entry(1, r("2k")), Entry(2, r("1k"), registered=False))
    games = (
        Game(id=3, black=2, white=1, result=Result.WHITE, date=DAY, round=3),  # +35
        Game(id=1, black=2, white=1, result=Result.BLACK, date=DAY, round=1),  # −25
        Game(id=2, black=2, white=1, result=Result.WHITE, date=DAY, round=2, played=False),
    )
    changes = system.apply(TournamentRated(tournament, entries, games)).changes
    # −25 first (starts over at 0), then +35; the other order would give 10
    assert total(system, "1k") == "35"
    assert changes[-1].note.startswith("2 games counted")
    assert "1 unplayed" in changes[-1].note


def test_missing_entry_is_refused_and_changes_nothing() -> None:
    system, _ = _replay_example_to(5)
    before = json.dumps(system.snapshot())
    tournament = Tournament(id=99, name="Cup", start=DAY, end=DAY, rounds=2, time=HOUR)
    games = (
        Game(id=98, black=7, white=1, result=Result.WHITE, date=DAY, round=1),
        Game(id=99, black=8, white=1, result=Result.WHITE, date=DAY, round=2),
    )
    entries = (Entry(1, r("2k")), Entry(7, r("1k"), registered=False))
    with pytest.raises(RuleError, match="player 8 has no entry"):
        system.apply(TournamentRated(tournament, entries, games))
    assert json.dumps(system.snapshot()) == before


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (Registered(SUBJECT, r("3k"), DAY), "already registered"),
        (Override(SUBJECT, DAY, "x", rating=100), "override the rank"),
        (Override(5, DAY, "x", rank=r("1k")), "not registered"),
        (
            GamePlayed(
                Game(
                    id=1,
                    black=5,
                    white=SUBJECT,
                    result=Result.WHITE,
                    date=DAY,
                    counts_as_tournament=True,
                )
            ),
            "not registered",
        ),
    ],
    ids=["registered twice", "rating override", "unknown player", "marked game, unknown player"],
)
def test_rejected_events_change_nothing(event: Event, message: str) -> None:
    system, _ = _replay_example_to(4)
    before = json.dumps(system.snapshot())
    with pytest.raises(RuleError, match=message):
        system.apply(event)
    assert json.dumps(system.snapshot()) == before


def test_kyu_targets_are_off_by_default() -> None:
    assert registered("5k").targets(SUBJECT)[0] == r("1k")
    on = registered("5k", SwedishParams(kyu_targets=True))
    assert on.targets(SUBJECT)[:4] == [r("4k"), r("3k"), r("2k"), r("1k")]
    assert on.requirement(r("3k")) == Requirement(80, 10)
    with pytest.raises(RuleError, match="not a Swedish target"):
        registered("5k").sequence(SUBJECT, r("3k"))
    with pytest.raises(EngineError):
        SwedishParams(kyu_points=0)


def test_card_promotion_and_handicap() -> None:
    system, _ = _replay_example_to(15)  # 1k, 40 toward 1d
    card = system.card(SUBJECT)
    assert (card.rank, card.rating, card.sort_key) == (r("1k"), "40", (0, 160))
    assert (
        values(card)["swedish_required_points"],
        values(card)["swedish_required_games"],
    ) == (150, 17)
    lines = " ".join(system.promotion(SUBJECT).lines)
    assert "Target 1d" in lines and "Wins against 1d or stronger: 1 of the 1 needed" in lines
    system.apply(Registered(2, r("3k"), DAY))
    advice = system.handicap(SUBJECT, 2)
    assert (advice.black, advice.white, advice.stones) == (2, SUBJECT, 2)
    top = registered("6d")
    assert top.promotion(SUBJECT).target is None
    assert top.card(SUBJECT).rating is None


def test_other_events_are_ignored() -> None:
    system, _ = _replay_example_to(3)
    before = system.snapshot()
    assert system.apply(DayEnded(DAY)).changes == []
    assert system.snapshot() == before


@pytest.mark.parametrize(
    ("quarters", "text"), [(0, "0"), (150, "37.5"), (-25, "-6.25"), (3, "0.75"), (560, "140")]
)
def test_exact_decimals(quarters: int, text: str) -> None:
    assert format_quarters(quarters) == text


def test_half_games_shown() -> None:
    assert (format_half_games(15), format_half_games(20)) == ("7.5", "10")


# ------------------------------------------------------------------------- properties

games_strategy = st.lists(
    st.tuples(
        st.integers(-4, 5),  # opponent minus reference
        st.sampled_from(list(Outcome)),
        st.sampled_from([1, 2]),  # half or whole game
    ),
    max_size=45,
)


def _points(offset: int, outcome: Outcome, halves: int) -> int:
    reference = r("1k")
    return game_points_quarters(reference + offset, reference, outcome, half_games=halves)


@settings(max_examples=300, deadline=None)
@given(games_strategy, st.integers(1, 3), st.sampled_from([1, 2]), st.sampled_from(["1d", "2d"]))
def test_a_qualifying_sequence_stays_qualifying_after_a_win_against_a_stronger_player(
    games: list[tuple[int, Outcome, int]], stronger: int, halves: int, target: str
) -> None:
    req = Requirement(*REQUIREMENTS[target])
    points = sum(_points(*g) for g in games)
    count = sum(g[2] for g in games)
    win = _points(stronger, Outcome.WIN, halves)
    if qualifies(points, count, req):
        assert qualifies(points + win, count + halves, req)
    tracker = SequenceTracker(r(target), req)
    for game in games:
        tracker.add(_points(*game), game[2])
    was_ok = tracker.ok
    tracker.add(win, halves)
    if was_ok:
        assert tracker.ok


@settings(max_examples=300, deadline=None)
@given(games_strategy, st.sampled_from(["1k", "1d", "2d"]), st.lists(st.booleans(), max_size=45))
def test_tracker_agrees_with_every_sequence(
    games: list[tuple[int, Outcome, int]], target: str, foreign: list[bool]
) -> None:
    """Brute force over all sequences ending at each game (the O(history) reading of §3.3)."""
    req = Requirement(*REQUIREMENTS[target])
    tracker = SequenceTracker(r(target), req)
    prefix_points, prefix_halves, prefix_foreign = [0], [0], [0]
    for index, game in enumerate(games):
        away = index < len(foreign) and foreign[index]
        points = _points(*game)
        tracker.add(points, game[2], away)
        prefix_points.append(prefix_points[-1] + points)
        prefix_halves.append(prefix_halves[-1] + game[2])
        prefix_foreign.append(prefix_foreign[-1] + away)
        sequences = [
            (
                prefix_points[-1] - prefix_points[i],
                prefix_halves[-1] - prefix_halves[i],
                prefix_foreign[-1] - prefix_foreign[i],
            )
            for i in range(len(prefix_points) - 1)
        ]
        best = max(0, max(p for p, _, _ in sequences))
        assert tracker.total == best
        if tracker.total:
            assert (tracker.total, tracker.total_halves, tracker.total_foreign) in sequences
        any_ok = any(qualifies(p, h, req) for p, h, _ in sequences)
        assert tracker.ok is any_ok
        if tracker.ok:
            assert tracker.witness in sequences
            assert tracker.witness is not None and qualifies(*tracker.witness[:2], req)


@st.composite
def histories(draw: st.DrawFn) -> list[Event]:
    events: list[Event] = [
        Registered(
            p, Rank(draw(st.integers(-4, 3))), DAY, country=draw(st.sampled_from(["SE", None]))
        )
        for p in (1, 2, 3)
    ]
    ranks = {p: draw(st.integers(-5, 6)) for p in (1, 2, 3, 9)}
    for tid in range(draw(st.integers(0, 8))):
        games = []
        for gid in range(draw(st.integers(1, 6))):
            black, white = draw(st.sampled_from([(1, 2), (2, 3), (3, 1), (9, 1), (2, 9)]))
            result = draw(st.sampled_from([Result.BLACK, Result.WHITE, Result.JIGO]))
            stones = draw(st.sampled_from([0, 0, 0, 2]))
            games.append(
                Game(
                    id=tid * 10 + gid,
                    black=black,
                    white=white,
                    result=result,
                    date=DAY,
                    round=gid,
                    stones=stones,
                )
            )
        tournament = Tournament(id=tid, name="t", start=DAY, end=DAY, rounds=6, time=HOUR)
        entries = tuple(
            Entry(p, Rank(s), country="NO" if p == 9 else "SE") for p, s in ranks.items()
        )
        events.append(TournamentRated(tournament, entries, tuple(games)))
    return events


@settings(max_examples=80, deadline=None)
@given(histories())
def test_replay_twice_gives_the_same_snapshot(events: list[Event]) -> None:
    first, second = Swedish(), Swedish()
    changes_first = replay(first, events)
    second_changes = replay(second, events)
    assert changes_first == second_changes
    for player in (1, 2, 3):  # queries on one ledger only: the snapshot must not notice
        first.card(player)
        first.promotion(player)
    assert first.snapshot() == second.snapshot()
    json.dumps(first.snapshot())


def values(card: Card) -> dict[str, object]:
    """The card's typed values by export key."""
    return {m.key: m.value for m in card.values}


# ------------------------------------------------------- what the bot asks by name


def test_nothing_scheduled_no_bands_no_weight_no_entry_rules() -> None:
    system = registered("2k")
    cup = Tournament(1, "Cup", DAY, DAY, 3)
    assert system.scheduled == frozenset()
    assert system.announcement(Phase.DAY_END, "2026-01-05", []) is None
    assert system.rank_bands() == ()
    assert system.tournament_weight(cup) is None
    assert system.entry_notes(cup, [Entry(SUBJECT, r("1d"))]) == []
    assert system.initial_rank_limit() is None


def test_the_card_keeps_the_sequence_values_under_their_export_keys() -> None:
    card = registered("2k").card(SUBJECT)
    assert {m.key: m.value for m in card.values if m.key.startswith("swedish_sequences.")} == {
        "swedish_sequences.points": 0,
        "swedish_sequences.target": "1k",
        "swedish_sequences.games": 0,
    }


def test_kyu_targets_setting_aims_players_at_4k_from_its_date() -> None:
    system = registered("6k")
    assert system.promotion(SUBJECT).target is None or system.promotion(SUBJECT).target > r("4k")
    system.apply(
        SettingsChanged(
            DAY, (("swedish.kyu_targets", True), ("swedish.kyu_points", 90), ("other.x", 1))
        )
    )
    assert system.promotion(SUBJECT).target == r("4k")
    assert system.params.kyu_points == 90


def test_komi_bounds_setting_judges_the_games_after_it() -> None:
    system = registered("1d")
    system.apply(Registered(2, r("1d"), DAY))
    late = game_with(komi=Fraction(9), counts_as_tournament=True, time=HOUR)
    assert "komi" in (system.uncounted(late) or "")
    system.apply(SettingsChanged(DAY, (("swedish.komi_max", Fraction(9)),)))
    assert system.params.komi_max == 9
    assert system.uncounted(late) is None


def test_home_language_is_the_rulebooks_country() -> None:
    """The rulebook's language is a club's default language (issue 13)."""
    from engine.swedish import Swedish as system
    from engine.systems import home_language

    assert system.language == "sv"
    assert system().language == "sv"
    assert home_language("swedish") == "sv"


def test_swedish_texts_are_translatable_messages() -> None:
    """Issue 13: why a game does not count, the card's labels and the progress lines are Msg."""
    from engine.text import Msg

    system = registered("2k")
    reason = system.uncounted(game_with(stones=2, tournament=1))
    assert isinstance(reason, Msg)
    assert reason.template.startswith("a handicap game is not an even game")
    labels = {m.key: m.label for m in system.card(SUBJECT).values}
    assert labels["swedish_sequences.points"].template == "points toward {rank}"  # type: ignore[attr-defined]
    assert labels["swedish_sequences.points"] == "points toward 1k"
    first = system.promotion(SUBJECT).lines[0]
    assert isinstance(first, Msg)
    assert first.template == "Target {target} (points against the reference rank {reference})."


def test_nothing_is_ever_due() -> None:
    """Every valid game counts at once (rules.md §3): no scheduled moment."""
    system = Swedish()
    system.apply(Registered(1, Rank.parse("1k"), DAY))
    assert system.due(DAY + dt.timedelta(days=999)) == []
