"""PSG (rules.md §4, §5): the points table, results, norms, promotion, EGF verification, ledger.

Expected values come from the seed's worked examples (``load_vectors("psg")``), from the seed's
tables, or are worked out by hand in the comments beside them.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.calendar import Phase
from engine.errors import EngineError, RuleError
from engine.psg import (
    DAN_NORMS,
    KYU_NORMS,
    MINIMUM_GAMES,
    MODEL_RATINGS,
    POINTS_COLUMNS,
    POINTS_TABLE,
    EntryStanding,
    Psg,
    PsgParams,
    best_suffix_sums,
    cell,
    entry_rank_violations,
    game_points,
    minimum_games,
    model_rating,
    norm_reached,
    norm_value,
    time_control_counts,
)
from engine.psg.state import Results
from engine.ranks import Rank
from engine.system import Card, Change, Notice
from engine.timecontrol import TimeControl
from engine.types import (
    DayEnded,
    EgfRating,
    Entry,
    Event,
    Game,
    GamePlayed,
    MonthEnded,
    Outcome,
    Override,
    Registered,
    Result,
    SettingsChanged,
    TeacherAction,
    TeacherKind,
    Tournament,
    TournamentRated,
    VerificationSuspended,
)
from tests.conftest import VECTORS as VECTOR_DIR
from tests.conftest import load_vectors

VECTORS = load_vectors("psg")
SEED = VECTOR_DIR.parent / "seeds" / "psg-regulamin-rankingowy-2005-2009.txt"
DAY = dt.date(2026, 1, 5)
R = Rank.parse
W, L, J = Outcome.WIN, Outcome.LOSS, Outcome.JIGO

# rules.md §4.2, transcribed by hand from the markdown table (columns +3 … −3)
RULES_MD_TABLE = """
+5 | +10/0 | +20/0 | +35/0 | +35/0 | | |
+4 | +10/−5 | +20/0 | +35/0 | +30/0 | | |
+3 | +10/−15 | +20/−10 | +35/−5 | +35/0 | | |
+2 | 0/−15 | +20/−25 | +35/−15 | +35/−10 | +30/0 | |
+1 | | +5/−25 | +30/−30 | +35/−25 | +30/−15 | +20/0 |
0 | | 0/−25 | +15/−30 | +25/−35 | +30/−30 | +20/−10 |
−1 | | | +5/−30 | +10/−35 | +15/−35 | +15/−15 |
−2 | | | | 0/−35 | +5/−35 | +10/−15 |
−3 | | | | 0/−35 | 0/−35 | 0/−15 | +5/−10
"""


def _rules_md_cells() -> dict[tuple[int, int], tuple[int, int] | None]:
    cells: dict[tuple[int, int], tuple[int, int] | None] = {}
    for line in RULES_MD_TABLE.strip().splitlines():
        due_text, *texts = (part.strip().replace("−", "-") for part in line.split("|"))
        texts += [""] * (7 - len(texts))
        for played, text in zip((3, 2, 1, 0, -1, -2, -3), texts, strict=True):
            win, _, loss = text.partition("/")
            cells[(int(due_text), played)] = (int(win), int(loss)) if text else None
    return cells


RULES_MD_CELLS = _rules_md_cells()


# ---------------------------------------------------------------- a small club to play in


class Club:
    """A ledger plus helpers: fresh opponents, one-game tournaments, club games, a calendar."""

    def __init__(self, params: PsgParams | None = None) -> None:
        self.psg = Psg(params)
        self.next_player = 1000
        self.next_game = 1
        self.day = DAY
        self.touched: frozenset[int] | None = frozenset()  # by the last event

    def apply(self, event: Event) -> list[Change]:
        """Fold ``event`` in; its changes (whom it touched: ``self.touched``)."""
        applied = self.psg.apply(event)
        self.touched = applied.touched
        return applied.changes

    def register(self, player: int, rank: str, *, date: dt.date | None = None) -> None:
        self.apply(Registered(player, R(rank), date or self.day, committee=True))

    def opponent(self, rank: str) -> int:
        self.next_player += 1
        self.register(self.next_player, rank)
        return self.next_player

    def _tick(self, date: dt.date | None) -> dt.date:
        if date is None:
            self.day += dt.timedelta(days=1)
            return self.day
        self.day = max(self.day, date)
        return date

    def _game(
        self, player: int, opp: int, outcome: Outcome, stones: int, date: dt.date, **kw: Any
    ) -> Game:
        player_black = stones >= 0
        black, white = (player, opp) if player_black else (opp, player)
        if outcome is J:
            result = Result.JIGO
        else:
            result = Result.BLACK if (outcome is W) == player_black else Result.WHITE
        gid = self.next_game
        self.next_game += 1
        return Game(gid, black, white, result, date, stones=abs(stones), round=1, **kw)

    def tournament_game(
        self,
        player: int,
        opp_rank: str | None,
        outcome: Outcome,
        *,
        stones: int = 0,
        opp: int | None = None,
        date: dt.date | None = None,
        arranged: bool = False,
        time: str | None = "60m 3x30s",
        **kw: Any,
    ) -> list[Change]:
        """A one-game tournament; entries at the players' current PSG ranks (or ``opp_rank``
        for a fresh opponent). ``stones`` > 0: the player received them."""
        when = self._tick(date)
        if opp is None:
            assert opp_rank is not None
            opp = self.opponent(opp_rank)
        g = self._game(player, opp, outcome, stones, when, **kw)
        t = Tournament(
            g.id,
            f"Cup {g.id}",
            when,
            when,
            1,
            time=TimeControl.parse(time) if time else None,
            arranged=arranged,
        )
        entries = (Entry(player, self.psg.rank(player)), Entry(opp, self.psg.rank(opp)))
        return self.apply(TournamentRated(t, entries, (g,)))

    def club_game(
        self,
        player: int,
        opp: int,
        outcome: Outcome,
        *,
        stones: int = 0,
        date: dt.date | None = None,
        **kw: Any,
    ) -> list[Change]:
        """A single game outside a tournament (an arranged game under PSG)."""
        return self.apply(
            GamePlayed(self._game(player, opp, outcome, stones, self._tick(date), **kw))
        )

    def wins(self, player: int, opp_rank: str, n: int) -> None:
        for _ in range(n):
            self.tournament_game(player, opp_rank, W)

    def losses(self, player: int, opp_rank: str, n: int) -> None:
        for _ in range(n):
            self.tournament_game(player, opp_rank, L)

    def egf(
        self, player: int, rating: int, year: int, month: int, tournament: bool = True
    ) -> list[Change]:
        return self.psg.apply(
            EgfRating(player, rating, year, month, from_tournament=tournament)
        ).changes

    def month_end(self, year: int, month: int) -> list[Change]:
        return self.apply(MonthEnded(year, month))

    def shows(self, player: int) -> Any:
        return self.psg.card(player).rating

    def score(self, player: int) -> Any:
        score = self.psg.last_score(player)
        assert score is not None
        return score


def mine(changes: list[Change], player: int) -> Change:
    found = [c for c in changes if c.player == player]
    assert len(found) == 1, found
    return found[0]


# ---------------------------------------------------------------- vectors


@pytest.mark.parametrize(
    "case", VECTORS["cells"], ids=lambda c: f"due{c['due']:+d}-played{c['played']:+d}"
)
def test_vector_cell(case: dict[str, Any]) -> None:
    expected = None if case["win"] is None else (case["win"], case["loss"])
    assert cell(case["due"], case["played"]) == expected


@pytest.mark.parametrize(
    "case",
    VECTORS["games_with_bonus"],
    ids=lambda c: f"{c['rank']}-due{c['due']:+d}-played{c['played']:+d}-{c['result']}",
)
def test_vector_game_with_bonus(case: dict[str, Any]) -> None:
    points = game_points(R(case["rank"]), case["due"], case["played"], Outcome(case["result"]))
    assert points == case["points"]


@pytest.mark.parametrize("rank, games", sorted(VECTORS["minimum_games"].items()))
def test_vector_minimum_games(rank: str, games: int) -> None:
    assert minimum_games(R(rank)) == games


@pytest.mark.parametrize("rank, norm", sorted(VECTORS["dan_norms"].items()))
def test_vector_dan_norm(rank: str, norm: int) -> None:
    assert DAN_NORMS[R(rank)] == norm
    assert norm_reached(R(rank), norm, None)
    assert not norm_reached(R(rank), norm - 1, None)


@pytest.mark.parametrize("rank, rating", sorted(VECTORS["model_ratings"].items()))
def test_vector_model_rating(rank: str, rating: int) -> None:
    assert model_rating(R(rank)) == rating


def _sequence_cases() -> list[Any]:
    return [
        pytest.param(seq, game["n"], id=f"{seq['start_rank']}-game{game['n']}")
        for seq in VECTORS["sequences"]
        for game in seq["games"]
    ]


@pytest.mark.parametrize("seq, upto", _sequence_cases())
def test_vector_sequence_through_apply(seq: dict[str, Any], upto: int) -> None:
    """The whole sequence replayed through ``Psg.apply`` (one-game tournaments at the
    players' current ranks); checked at game ``upto``."""
    club = Club()
    club.register(1, seq["start_rank"])
    for game in seq["games"]:
        if game["n"] > upto:
            break
        club.tournament_game(1, game["opponent"], Outcome(game["result"]))
    game = seq["games"][upto - 1]
    score = club.score(1)
    assert score.points == game["points"]
    if "min_games_result" in game:
        assert score.min_games_result == game["min_games_result"]
    expected_promotion = R(game["promoted_to"]) if "promoted_to" in game else None
    assert score.promoted_to == expected_promotion
    if "list_shows" in game:
        assert score.list_shows == game["list_shows"]
        assert club.shows(1) == game["list_shows"]


def test_vector_sequence_no_norm_before_the_minimum() -> None:
    """Game 9: 195 points in 9 games — no results yet, the list shows the sum (§17(2))."""
    club = Club()
    club.register(1, "10k")
    for game in VECTORS["sequences"][0]["games"][:9]:
        club.tournament_game(1, game["opponent"], Outcome(game["result"]))
    assert club.psg.rank(1) == R("10k")
    assert club.score(1).min_games_result is None
    assert club.shows(1) == 195


# ---------------------------------------------------------------- table shapes


def test_points_table_is_exactly_the_rules_md_layout() -> None:
    assert list(POINTS_TABLE) == [5, 4, 3, 2, 1, 0, -1, -2, -3]
    assert POINTS_COLUMNS == (3, 2, 1, 0, -1, -2, -3)
    for due, row in POINTS_TABLE.items():
        assert len(row) == len(POINTS_COLUMNS)
        for played, pair in zip(POINTS_COLUMNS, row, strict=True):
            assert pair == RULES_MD_CELLS[(due, played)], (due, played)


@pytest.mark.parametrize("due, played", sorted(RULES_MD_CELLS), ids=lambda v: f"{v:+d}")
def test_every_cell_through_the_lookup(due: int, played: int) -> None:
    assert cell(due, played) == RULES_MD_CELLS[(due, played)]


def test_points_table_rows_are_the_seeds_flattened_numbers() -> None:
    """Each row's non-empty cells, read left to right, are the seed's numbers for that row."""
    if not SEED.exists():
        pytest.fail(f"seed not found at {SEED}")
    text = SEED.read_text(encoding="utf-8")
    block = text[text.index("+3 +2 +1 0 -1 -2 -3") :].splitlines()[1:10]
    for line, (due, row) in zip(block, POINTS_TABLE.items(), strict=True):
        numbers = [
            int(n) for n in re.findall(r"[+-]?\s?\d+", line.replace("+ ", "+").replace("- ", "-"))
        ]
        assert numbers[0] == due
        flattened = [n for pair in row if pair is not None for n in pair]
        assert numbers[1:] == flattened, due


def test_points_table_shape() -> None:
    """Non-empty cells form one unbroken run per row; wins ≥ 0 ≥ losses; the diagonal
    (handicap = rank difference) is filled for −3 … +3."""
    for due, row in POINTS_TABLE.items():
        filled = [i for i, pair in enumerate(row) if pair is not None]
        assert filled == list(range(filled[0], filled[-1] + 1)), due
        for pair in row:
            if pair is not None:
                assert pair[0] >= 0 >= pair[1]
    for due in range(-3, 4):
        assert cell(due, due) is not None


@pytest.mark.parametrize(
    "due, swedish",
    [
        (3, (35, 0)),
        (2, (35, -10)),
        (1, (35, -25)),
        (0, (25, -35)),
        (-1, (10, -35)),
        (-2, (0, -35)),
    ],
)
def test_even_column_agrees_with_the_swedish_table(due: int, swedish: tuple[int, int]) -> None:
    """rules.md §4.2: the even-game column is the Swedish table of §3.2."""
    assert cell(due, 0) == swedish


def test_other_tables_are_the_seeds() -> None:
    assert [(str(r), n) for r, n in MINIMUM_GAMES.items()] == [
        ("6d", 50), ("5d", 40), ("4d", 30), ("3d", 25), ("2d", 20), ("1d", 15), ("1k", 15)
    ]  # fmt: skip
    assert KYU_NORMS == {"min_games": 100, "fewer_games": 135}
    assert sorted((r.step, n) for r, n in DAN_NORMS.items()) == [
        (d, 100 + 10 * d) for d in range(1, 8)
    ]
    # 100 a rank from 20k (100) to 7d (2700), no gaps
    assert sorted(MODEL_RATINGS) == [Rank(step) for step in range(R("20k").step, R("7d").step + 1)]
    for rank, rating in MODEL_RATINGS.items():
        assert rating == 100 + 100 * (rank.step - R("20k").step)


# ---------------------------------------------------------------- decision lines: arithmetic


@pytest.mark.parametrize(
    "due, played, expected",
    [
        (6, 0, (35, 0)),  # beyond +5: the +5 row
        (9, 3, (10, 0)),
        (-4, 0, (0, -35)),  # beyond −3: the −3 row
        (-8, -3, (5, -10)),
        (0, 4, None),  # played outside the columns
        (0, -4, None),
        (-3, -4, None),
        (1, 3, None),  # an empty cell inside the table
    ],
)
def test_due_beyond_the_table_and_played_outside(
    due: int, played: int, expected: tuple[int, int] | None
) -> None:
    assert cell(due, played) == expected


@pytest.mark.parametrize(
    "rank, due, played, outcome, points",
    [
        ("1d", 0, 0, J, -10),  # jigo: 25 − 35, no bonus for dan
        ("10k", 0, 0, J, 0),  # vector: −10 + 10
        ("5k", 2, 1, J, 25),  # 35 − 15 + 5
        ("20k", 0, 0, J, 10),  # −10 + 20: a jigo is not capped
        ("1k", 0, 0, L, -34),  # −35 + 1
        ("20k", 0, 0, L, -15),  # −35 + 20
        ("20k", 2, 0, L, 0),  # −10 + 20 = 10, capped: a lost game never scores above 0
        ("15k", 3, 0, L, 0),  # 0 + 15 capped (vector)
        ("12k", 5, 3, L, 0),
        ("20k", 0, 0, W, 45),  # 25 + 20
        ("1d", 2, 0, L, -10),  # no bonus, no cap needed
        ("21k", 0, 0, W, None),  # §15(2): no points below 20k
        ("5k", 0, 3, W, None),  # empty cell
    ],
)
def test_game_points_jigo_bonus_and_cap(
    rank: str, due: int, played: int, outcome: Outcome, points: int | None
) -> None:
    assert game_points(R(rank), due, played, outcome) == points


@pytest.mark.parametrize(
    "points, minimum, expected",
    [
        ([], 10, (None, None, 0)),
        ([10] * 5, 10, (None, None, 50)),  # fewer than the minimum: the list shows the sum
        # the vector's ten games: one suffix of 10 = 230; best shorter = 195 (last 9) →
        # the min-games result is positive and higher, so it is also the fewer-games result
        ([35, 35, -25, 35, 35, 35, -25, 35, 35, 35], 10, (230, 230, 230)),
        ([-10] * 10, 10, (-100, None, -100)),  # fewer-games −10 is not > 0: not shown
        ([-50] * 5 + [30] * 5, 10, (-100, 150, -100)),  # fewer-games 150 (last five)
        ([-50] + [20] * 10, 10, (200, 200, 200)),  # best suffix ≥ 10 skips the −50
        # 15 games: suffixes of 10 … 15 sum to −300 −330 −360 −320 −280 −240; shorter ≤ −30
        ([40] * 3 + [-30] * 12, 10, (-240, None, -240)),
        # minimum 3: the whole run 40 − 10 + 60 = 90 beats the last three (58); shorter: 60
        ([20] * 2 + [-1] * 10 + [60], 3, (90, 90, 90)),
    ],
)
def test_best_suffix_sums(
    points: list[int], minimum: int, expected: tuple[int | None, int | None, int]
) -> None:
    assert best_suffix_sums(points, minimum) == expected


def test_best_suffix_sums_rejects_a_zero_minimum() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        best_suffix_sums([1], 0)


@pytest.mark.parametrize(
    "target, min_result, fewer, reached",
    [
        ("9k", 100, 100, True),
        ("9k", 99, None, False),
        ("9k", 99, 135, True),  # kyu: fewer-games result ≥ 135
        ("9k", 99, 134, False),
        ("1k", -20, 140, True),
        ("1d", 110, 110, True),
        ("1d", 109, 500, False),  # dan: the min-games result only
        ("7d", 170, 170, True),
        ("7d", 169, 169, False),
        ("8d", 999, 999, False),  # no norm above 7d
        ("9k", None, None, False),
    ],
)
def test_norm_reached(
    target: str, min_result: int | None, fewer: int | None, reached: bool
) -> None:
    assert norm_reached(R(target), min_result, fewer) is reached


@pytest.mark.parametrize(
    "target, value",
    [("5k", 135), ("1k", 135), ("1d", 110), ("4d", 140), ("7d", 170), ("8d", None)],
)
def test_norm_value_for_condition_b(target: str, value: int | None) -> None:
    """Decision (rules.md §4.4): (b)'s norm value is 135 for kyu, the dan table for dan."""
    assert norm_value(R(target)) == value


@pytest.mark.parametrize(
    "text, counts",
    [
        ("unlimited", True),
        ("45m", True),
        ("44m", False),
        ("30m 3x10s japanese", True),
        ("30m 3x9s japanese", False),
        ("29m 5x30s japanese", False),
        ("50m 1x5s japanese", True),  # ≥ 45 min counts whatever the byo-yomi
        ("30m 30/5m canadian", True),  # 10 s a move
        ("30m 31/5m canadian", False),
        ("30m+10s fischer", True),
        ("30m+5s fischer", False),
        (None, None),  # unknown: the ledger decides (PsgParams.unknown_time_counts)
    ],
)
def test_time_control_eligibility(text: str | None, counts: bool | None) -> None:
    assert time_control_counts(TimeControl.parse(text) if text else None) is counts


@pytest.mark.parametrize("rank", ["7d", "8d", "9d"])
def test_minimum_games_above_6d_is_the_6d_value(rank: str) -> None:
    assert minimum_games(R(rank)) == 50


@pytest.mark.parametrize("rank", ["21k", "30k", "8d"])
def test_model_rating_outside_the_table(rank: str) -> None:
    assert model_rating(R(rank)) is None


# ---------------------------------------------------------------- games in the ledger


def test_tournament_game_uses_the_table_when_the_handicap_differs() -> None:
    club = Club()
    club.register(1, "10k")
    club.tournament_game(1, "8k", W)  # due +2 played 0: 35 + 10
    assert club.score(1).points == 45
    club.tournament_game(1, "8k", L, stones=2)  # due +2 played +2: −25 + 10
    assert club.score(1).points == -15


def test_club_game_with_the_right_handicap_counts_for_both() -> None:
    club = Club()
    club.register(1, "10k")
    club.register(2, "8k")
    changes = club.club_game(1, 2, W, stones=2)  # arranged: handicap = rank difference
    assert club.score(1).points == 20 + 10  # due +2 played +2
    assert club.score(2).points == -15 + 8  # due −2 played −2
    assert mine(changes, 1).rating_after == 30
    assert mine(changes, 2).rating_after == -7


@pytest.mark.parametrize(
    "rank_a, rank_b, stones, counted",
    [
        ("10k", "8k", 2, True),
        ("10k", "8k", 0, False),  # handicap must equal the rank difference
        ("10k", "8k", 1, False),
        ("10k", "10k", 0, True),
        ("10k", "9k", 1, True),  # handicap 1 = no komi
        ("10k", "7k", 3, True),
        ("10k", "6k", 4, False),  # 4 stones are outside the table's columns
        ("10k", "10k", 1, False),
    ],
)
def test_arranged_game_handicap_rule(rank_a: str, rank_b: str, stones: int, counted: bool) -> None:
    club = Club()
    club.register(1, rank_a)
    club.register(2, rank_b)
    changes = club.club_game(1, 2, W, stones=stones)
    assert club.score(1).counted is counted
    assert club.score(2).counted is counted
    if not counted:
        assert "arranged game not counted" in mine(changes, 1).note
        assert "(PSG regulations §8(1))" in mine(changes, 1).note
        assert mine(changes, 1).rating_before == mine(changes, 1).rating_after == 0
        assert club.psg.card(1).games == 0


def test_the_stronger_player_receiving_stones_is_said_so() -> None:
    # issue 22: a 1d taking 3 stones from a 3k was told "handicap 3 must equal the rank
    # difference 3"; what is wrong is who received them
    club = Club()
    club.register(1, "1d")
    club.register(2, "3k")
    game = club._game(1, 2, W, 3, club.day)
    reason = club.psg.uncounted(game)
    assert reason == (
        "arranged game not counted: Black (1d) is 3 ranks stronger than White (3k) but "
        "received the 3 stones: the weaker player takes Black and the stones, 3 for this "
        "difference (PSG regulations §8(1))"
    )
    changes = club.club_game(1, 2, W, stones=3)
    assert reason in mine(changes, 1).note


@pytest.mark.parametrize(
    "black, white, stones, reason",
    [
        ("10k", "8k", 0, "an even game between Black (10k) and White (8k), 2 ranks apart: an "
         "arranged game is played with 2 stones to the weaker player"),
        ("10k", "8k", 1, "Black (10k) received 1 stone from White (8k), 2 ranks stronger: an "
         "arranged game is played with 2 stones to the weaker player"),
        ("10k", "9k", 3, "Black (10k) received 3 stones from White (9k), 1 rank stronger: an "
         "arranged game is played with 1 stone to the weaker player"),
        ("10k", "10k", 1, "Black and White are both 10k, yet Black received 1 stone: an "
         "arranged game between equal ranks is even"),
        ("10k", "6k", 4, "Black (10k) received 4 stones from White (6k), 4 ranks stronger: "
         "arranged games count only between players at most 3 ranks apart (the PSG points "
         "table)"),
        ("1d", "5k", 3, "Black (1d) is 5 ranks stronger than White (5k) but received the 3 "
         "stones: arranged games count only between players at most 3 ranks apart (the PSG "
         "points table)"),
    ],
)  # fmt: skip
def test_arranged_handicap_refusals_say_what_is_wrong(
    black: str, white: str, stones: int, reason: str
) -> None:
    club = Club()
    club.register(1, black)
    club.register(2, white)
    said = club.psg.uncounted(club._game(1, 2, W, stones, club.day))
    assert said == f"arranged game not counted: {reason} (PSG regulations §8(1))"


RANKS = [R(r) for r in ("15k", "10k", "5k", "3k", "2k", "1k", "1d", "2d", "4d")]


@given(st.sampled_from(RANKS), st.sampled_from(RANKS), st.integers(0, 9), st.booleans())
def test_a_handicap_refusal_never_contradicts_the_game(
    black: Rank, white: Rank, stones: int, arranged: bool
) -> None:
    """Whatever the game, a refusal over its handicap states the ranks and stones it was
    played with, blames the stronger player only when the stronger player took the stones,
    and never asks for the handicap the game already had."""
    psg = Psg()
    psg.apply(Registered(1, black, DAY, committee=True))
    psg.apply(Registered(2, white, DAY, committee=True))
    game = Game(
        1, 1, 2, Result.BLACK, DAY, stones=stones, tournament=None if arranged else 7,
        time=TimeControl.parse("60m"),
    )  # fmt: skip
    reason = psg.uncounted(game)
    if reason is None or not ("stone" in reason or "handicap" in reason):
        return
    assert f"Black ({black})" in reason or f"both {black}" in reason, reason
    assert "stronger" not in reason.split("received")[0] or black > white, reason
    if "the stronger player" in reason or "stronger than White" in reason:
        assert black > white and stones > 0, reason
    due = abs(white.step - black.step)
    assert f"must equal the rank difference {due}" not in reason
    assert f"played with {stones} stone" not in reason, reason


def test_arranged_tournament_applies_the_arranged_rules() -> None:
    club = Club()
    club.register(1, "10k")
    club.tournament_game(1, "8k", W, arranged=True)  # even game, due +2: not an arranged game
    assert club.score(1).counted is False
    club.tournament_game(1, "8k", W, arranged=True, stones=2)
    assert club.score(1).points == 30


def test_arranged_limit_two_per_opponent_and_restart_on_rank_change() -> None:
    club = Club()
    club.register(1, "10k")
    club.register(2, "10k")
    club.club_game(1, 2, W)
    club.club_game(2, 1, W)
    changes = club.club_game(1, 2, W)  # the third: not counted
    assert club.score(1).counted is False
    assert "§8(2)" in mine(changes, 1).note
    assert club.shows(1) == 35 - 25  # only the first two
    club.tournament_game(1, None, W, opp=2)  # a tournament game between them still counts
    assert club.score(1).points == 35
    club.psg.apply(Override(2, club.day, "committee", rank=R("9k")))
    club.club_game(1, 2, L, stones=1)  # a rank changed: the count restarts
    assert club.score(1).counted is True
    club.club_game(1, 2, L, stones=1)
    assert club.score(1).counted is True
    club.club_game(1, 2, L, stones=1)
    assert club.score(1).counted is False


def test_arranged_count_restarts_even_when_the_rank_changes_back() -> None:
    club = Club()
    club.register(1, "10k")
    club.register(2, "10k")
    club.club_game(1, 2, W)
    club.club_game(1, 2, W)
    club.psg.apply(Override(2, club.day, "mistake", rank=R("9k")))
    club.psg.apply(Override(2, club.day, "mistake undone", rank=R("10k")))
    club.club_game(1, 2, W)
    assert club.score(1).counted is True


@pytest.mark.parametrize(
    "how, promoted",
    [
        ("arranged loss", False),  # §19(1): a norm reached by losing an arranged game
        ("tournament loss", True),
        ("arranged win", True),
    ],
)
def test_norm_reached_by_losing_an_arranged_game(how: str, promoted: bool) -> None:
    club = Club()
    club.register(1, "10k")
    club.wins(1, "10k", 9)  # 9 × 35 = 315, no result yet (minimum 10)
    outcome = L if "loss" in how else W
    if how.startswith("arranged"):
        club.club_game(1, club.opponent("10k"), outcome)
    else:
        club.tournament_game(1, "10k", outcome)
    # tenth game: the min-games result exists for the first time (290 or 350 ≥ 100)
    assert club.score(1).min_games_result == (290 if outcome is L else 350)
    assert (club.psg.rank(1) == R("9k")) is promoted
    if not promoted:
        assert any("§19(1)" in n for n in club.score(1).notes)
        assert any("does not count" in line for line in club.psg.promotion(1).lines)
        club.tournament_game(1, "10k", W)  # the next counted game meets the norm itself
        assert club.psg.rank(1) == R("9k")


def _fifteen_kyu_after_nine_arranged_wins(club: Club) -> list[int]:
    """A 15k wins 9 arranged games against five 15k players (at most two each count, §8(2))."""
    club.register(1, "15k")
    opponents = [club.opponent("15k") for _ in range(5)]
    for opp in [*opponents[:4], *opponents[:4], opponents[4]]:
        club.club_game(1, opp, W)
    assert club.shows(1) == 9 * 40  # 25 + the kyu bonus 15, no result yet (minimum 10)
    return opponents


def test_no_promotion_after_a_second_lost_arranged_game() -> None:
    """Seed §19(1) (rules.md §4.1 Decision): no promotion check runs after a lost arranged
    game, and a norm that came into being with one stays unrecognised through the next."""
    club = Club()
    opponents = _fifteen_kyu_after_nine_arranged_wins(club)
    club.club_game(1, opponents[4], L)  # the norm appears with this loss: 340
    assert club.score(1).min_games_result == 340
    assert club.psg.rank(1) == R("15k")
    club.club_game(1, club.opponent("15k"), L)  # a second lost arranged game: still a norm
    assert club.score(1).counted is True
    assert club.score(1).min_games_result == 320
    assert club.psg.rank(1) == R("15k")
    assert any("does not count" in n for n in club.score(1).notes)
    assert any("does not count" in line for line in club.psg.promotion(1).lines)


@pytest.mark.parametrize("outcome", [W, J, L], ids=["win", "jigo", "tournament loss"])
def test_a_later_game_that_is_no_lost_arranged_game_promotes_on_the_norm(
    outcome: Outcome,
) -> None:
    """The norm is recognised when a later game that is not a lost arranged game still shows
    it (rules.md §4.1 Decision): that game's check promotes."""
    club = Club()
    opponents = _fifteen_kyu_after_nine_arranged_wins(club)
    club.club_game(1, opponents[4], L)
    club.club_game(1, club.opponent("15k"), L)
    assert club.psg.rank(1) == R("15k")
    if outcome is L:
        club.tournament_game(1, "15k", L)
    else:
        club.club_game(1, club.opponent("15k"), outcome)
    assert club.score(1).promoted_to == R("14k")
    assert club.psg.rank(1) == R("14k")


def test_a_norm_that_stood_before_a_lost_arranged_game_is_not_voided() -> None:
    """A held norm (teacher) is not "reached by" the later arranged loss."""
    club = Club()
    club.register(1, "10k")
    club.psg.apply(TeacherAction(1, TeacherKind.HOLD, club.day))
    club.wins(1, "10k", 10)
    club.club_game(1, club.opponent("10k"), L)
    assert club.psg.rank(1) == R("10k")
    club.psg.apply(TeacherAction(1, TeacherKind.RELEASE, club.day))
    assert club.psg.rank(1) == R("9k")


@pytest.mark.parametrize(
    "gap_months, reset", [(12, False), (13, True), (14, True)], ids=lambda v: str(v)
)
def test_results_reset_after_13_months_without_a_ranked_game(gap_months: int, reset: bool) -> None:
    club = Club()
    club.register(1, "10k")
    club.wins(1, "10k", 3)  # 105
    last = club.day
    later = dt.date(
        last.year + (last.month + gap_months - 1) // 12,
        (last.month + gap_months - 1) % 12 + 1,
        last.day,
    )
    changes = club.tournament_game(1, "10k", W, date=later)
    assert club.shows(1) == (35 if reset else 140)
    assert ("results reset" in mine(changes, 1).note) is reset


def test_results_reset_at_month_end_after_13_months() -> None:
    club = Club()
    club.register(1, "10k", date=dt.date(2026, 1, 1))
    club.tournament_game(1, "10k", W, date=dt.date(2026, 1, 20))
    assert club.month_end(2027, 1) == []  # 2027-01-31 < 2027-02-20
    assert club.psg.active(1)
    changes = club.month_end(2027, 2)  # 13 months since 2026-01-20
    change = mine(changes, 1)
    assert (change.rating_before, change.rating_after) == (35, 0)
    assert "13 months" in change.note
    assert not club.psg.active(1)
    assert values(club.psg.card(1))["active"] == "no"


def test_the_event_that_moves_time_past_13_months_touches_who_lapsed() -> None:
    """§3(5): nothing about a lapsing participant changes but the calendar, so the event
    that moves time past their 13 months names them as touched, for whoever keeps their
    card (storage rewrites it)."""
    club = Club()
    club.register(1, "10k", date=dt.date(2026, 1, 1))
    club.register(2, "10k", date=dt.date(2026, 1, 1))
    club.tournament_game(1, "10k", W, date=dt.date(2026, 1, 20))
    opponent = club.next_player
    assert club.touched == {1, opponent}
    club.register(3, "10k", date=dt.date(2027, 1, 31))
    assert club.touched == {3}  # 2 lapses on 2027-02-01, 1 on 2027-02-20
    club.register(4, "10k", date=dt.date(2027, 2, 1))
    assert club.touched == {2, 4}
    assert not club.psg.active(2) and club.psg.active(1)
    club.tournament_game(1, "10k", W, date=dt.date(2027, 2, 10))  # 1 plays: active longer
    assert club.touched == {1, club.next_player}
    club.register(5, "10k", date=dt.date(2028, 3, 10))  # 1, 3, 4 and the opponents lapse
    assert club.touched is not None
    lapsed = club.touched - {5}
    assert {1, 3, 4} <= lapsed and 2 not in lapsed
    assert all(not club.psg.active(p) for p in lapsed)
    club.register(6, "10k", date=dt.date(2028, 3, 11))
    assert club.touched == {6}  # each lapse is touched once


def test_late_report_is_flagged_not_rejected() -> None:
    club = Club()
    club.register(1, "10k")
    club.register(2, "10k")
    day = dt.date(2026, 2, 1)
    changes = club.club_game(1, 2, W, date=day, reported=day + dt.timedelta(days=3))
    assert "flagged" not in mine(changes, 1).note  # within 3 days
    changes = club.club_game(1, 2, W, date=day, reported=day + dt.timedelta(days=5))
    assert club.score(1).counted and club.score(1).points == 35
    assert "2 days after the 3-day deadline" in mine(changes, 1).note
    late = club.psg.card(1).values[-1]
    assert (late.key, late.value, late.unit) == ("late_reports", 1, "reports")
    assert "flagged for the manager (PSG regulations §7)" in late.label
    assert club.psg.card(2).values[-1].key == "late_reports"


def test_late_report_of_a_tournament_counts_from_its_end() -> None:
    club = Club()
    club.register(1, "10k")
    end = dt.date(2026, 3, 10)
    club.tournament_game(1, "10k", W, date=end, reported=end + dt.timedelta(days=3))
    assert not any("flagged" in n for n in club.score(1).notes)
    club.tournament_game(1, "10k", W, date=end, reported=end + dt.timedelta(days=4))
    assert any("flagged" in n for n in club.score(1).notes)
    assert club.shows(1) == 70


@pytest.mark.parametrize(
    "time, params, counted",
    [
        ("20m", PsgParams(), False),
        ("45m", PsgParams(), True),
        (None, PsgParams(), True),  # Decision (ours): an unknown time control counts …
        (None, PsgParams(unknown_time_counts=False), False),  # … unless the club says not
    ],
)
def test_time_control_in_the_ledger(time: str | None, params: PsgParams, counted: bool) -> None:
    club = Club(params)
    club.register(1, "10k")
    club.tournament_game(1, "10k", W, time=time)
    assert club.score(1).counted is counted
    assert club.shows(1) == (35 if counted else 0)


def test_unplayed_and_unknown_games_never_count() -> None:
    club = Club()
    club.register(1, "10k")
    club.register(2, "10k")
    before = club.psg.snapshot()
    assert club.psg.apply(GamePlayed(Game(1, 1, 2, Result.BLACK, DAY, played=False))).changes == []
    assert club.psg.apply(GamePlayed(Game(2, 1, 2, None, DAY))).changes == []
    assert club.psg.snapshot() == before


def test_other_boards_and_pair_go_are_not_ranked() -> None:
    club = Club()
    club.register(1, "10k")
    club.register(2, "10k")
    club.club_game(1, 2, W, board=13)
    assert club.score(1).counted is False
    club.club_game(1, 2, W, pair_go=True)
    assert club.score(1).counted is False
    assert club.psg.card(1).games == 0


def test_tournament_games_in_round_order_with_a_guest() -> None:
    """Round 1 is rated before round 2 whatever the input order; a guest gets nothing."""
    club = Club()
    club.register(1, "10k")
    t = Tournament(7, "Open", DAY, DAY, 2, time=TimeControl.parse("60m"))
    r2 = Game(2, 1, 50, Result.WHITE, DAY, round=2)  # a loss to the guest
    r1 = Game(1, 1, 50, Result.BLACK, DAY, round=1)
    entries = (Entry(1, R("10k")), Entry(50, R("10k"), registered=False))
    changes = club.psg.apply(TournamentRated(t, entries, (r2, r1))).changes
    assert [c.player for c in changes] == [1, 1]
    assert [c.rating_after for c in changes] == [35, 10]
    assert club.score(1).game == 2


def test_player_weaker_than_20k_is_stored_without_points() -> None:
    club = Club()
    club.register(1, "25k")
    changes = club.tournament_game(1, "25k", W)
    assert "no PSG points below 20k" in mine(changes, 1).note
    card = club.psg.card(1)
    assert card.rating is None and card.games == 1
    assert club.psg.promotion(1).lines[0].startswith("no PSG points below 20k")


# ---------------------------------------------------------------- promotion above 6k


def _norm_6k(club: Club, player: int, pattern: str) -> None:
    """A 6k (bonus 6): W = 25 + 6 = 31, L = −35 + 6 = −29 against 6k opponents."""
    for ch in pattern:
        club.tournament_game(player, "6k", W if ch == "W" else L)


@pytest.mark.parametrize(
    "egf, pattern, promoted",
    [
        (1550, "W" * 10, True),  # (a): norm (310) and EGF ≥ 1600 − 50
        (1549, "W" * 10, False),
        # 5 losses then 5 wins: min-games 10, fewer-games 155 ≥ 135 is the kyu norm too,
        # so (a) applies with EGF ≥ 1550 (for a kyu target (b) adds nothing)
        (1550, "L" * 5 + "W" * 5, True),
        (1549, "L" * 5 + "W" * 5, False),
        (1600, "L" * 6 + "W" * 4, False),  # fewer-games 124: no norm at all
    ],
)
def test_egf_conditions_for_a_kyu_target(egf: int, pattern: str, promoted: bool) -> None:
    club = Club()
    club.register(1, "6k")
    club.egf(1, egf, 2026, 1)
    _norm_6k(club, 1, pattern)
    assert club.psg.rank(1) == (R("5k") if promoted else R("6k"))


def _dan_candidate(club: Club, egf: int | None, pattern: str) -> None:
    """A 1k (bonus 1, minimum 15): W = 26, L = −34 against 1k opponents; target 1d (110,
    model 2100)."""
    club.register(1, "1k")
    if egf is not None:
        club.egf(1, egf, 2026, 1)
    for ch in pattern:
        club.tournament_game(1, "1k", W if ch == "W" else L)


@pytest.mark.parametrize(
    "egf, pattern, promoted",
    [
        (2050, "W" * 15, True),  # (a): min-games 390 ≥ 110 and EGF ≥ 2100 − 50
        (2049, "W" * 15, False),
        # 8 losses then 7 wins: min-games −90 < 110; fewer-games 182 ≥ 110 → (b) needs 2100
        (2100, "L" * 8 + "W" * 7, True),
        (2099, "L" * 8 + "W" * 7, False),
        (None, "W" * 15, False),  # no EGF rating known
    ],
)
def test_egf_conditions_a_and_b_for_a_dan_target(
    egf: int | None, pattern: str, promoted: bool
) -> None:
    club = Club()
    _dan_candidate(club, egf, pattern)
    assert club.psg.rank(1) == (R("1d") if promoted else R("1k"))


def test_norm_without_egf_is_visible_and_an_egf_rating_completes_it() -> None:
    club = Club()
    _dan_candidate(club, None, "W" * 15)
    lines = club.psg.promotion(1).lines
    assert "norm reached; waiting for an EGF rating ≥ 2050" in lines
    assert any("latest EGF: none known" in line for line in lines)
    assert club.egf(1, 2000, 2026, 2) == []  # not enough
    assert club.psg.rank(1) == R("1k")
    changes = club.egf(1, 2060, 2026, 3)  # Decision (ours): promoted when the rating is known
    assert club.psg.rank(1) == R("1d")
    assert mine(changes, 1).rank_after == R("1d")
    assert "§20(2)a" in mine(changes, 1).note


def test_norm_needs_the_minimum_number_of_games_with_the_current_rank() -> None:
    club = Club()
    _dan_candidate(club, 2500, "W" * 14)  # 364 points in 14 games: no result yet
    assert club.psg.rank(1) == R("1k")
    assert "games with 1k: 14 of 15 needed; the list shows their sum +364" in (
        club.psg.promotion(1).lines
    )
    club.tournament_game(1, "1k", W)
    assert club.psg.rank(1) == R("1d")
    assert club.shows(1) == 0  # promotion resets both results
    assert club.psg.promotion(1).lines[1].startswith("games with 1d: 0 of 15")


# ---------------------------------------------------------------- teacher actions


@pytest.mark.parametrize(
    "student, target, teacher, error",
    [
        ("12k", "6k", "3k", None),
        ("12k", None, "3k", None),  # one rank up
        ("12k", "5k", "1d", "up to 6k"),
        ("12k", "7k", "8k", "their own rank 8k"),
        ("12k", "8k", "8k", None),
        ("12k", "12k", "1d", "must raise the rank"),
        ("12k", "6k", None, "needs the teacher's rank"),
    ],
)
def test_teacher_promotion(
    student: str, target: str | None, teacher: str | None, error: str | None
) -> None:
    club = Club()
    club.register(1, student)
    club.wins(1, "12k", 3)
    event = TeacherAction(
        1,
        TeacherKind.PROMOTE,
        club.day,
        teacher_rank=R(teacher) if teacher else None,
        rank=R(target) if target else None,
    )
    if error:
        before = club.psg.snapshot()
        with pytest.raises(RuleError, match=error):
            club.psg.apply(event)
        assert club.psg.snapshot() == before
        return
    change = mine(club.psg.apply(event).changes, 1)
    expected = R(target) if target else R(student) + 1
    assert club.psg.rank(1) == expected
    assert (change.rank_before, change.rank_after) == (R(student), expected)
    assert "teacher" in change.note
    assert club.shows(1) == 0  # a rank change resets the results


def test_teacher_hold_and_release() -> None:
    club = Club()
    club.register(1, "10k")
    change = mine(club.psg.apply(TeacherAction(1, TeacherKind.HOLD, club.day)).changes, 1)
    assert "held" in change.note
    club.wins(1, "10k", 10)
    assert club.psg.rank(1) == R("10k")  # held: results keep growing, no promotion
    assert club.shows(1) == 350
    assert "norm reached; a teacher holds back promotion" in club.psg.promotion(1).lines
    assert values(club.psg.card(1))["promotion"] == "held by a teacher (PSG regulations §21)"
    change = mine(club.psg.apply(TeacherAction(1, TeacherKind.RELEASE, club.day)).changes, 1)
    assert (change.rank_before, change.rank_after) == (R("10k"), R("9k"))
    assert "released" in change.note and "promoted" in change.note


def test_hold_does_not_stop_promotion_to_6k() -> None:
    """§21: "Awans na 6 kyu następuje automatycznie" — a 7k cannot be held."""
    club = Club()
    club.register(1, "8k")
    club.psg.apply(TeacherAction(1, TeacherKind.HOLD, club.day))
    club.wins(1, "8k", 10)
    assert club.psg.rank(1) == R("8k")  # target 7k: held
    club.psg.apply(Override(1, club.day, "committee", rank=R("7k")))
    club.wins(1, "7k", 10)
    assert club.psg.rank(1) == R("6k")  # target 6k: automatic despite the hold


@pytest.mark.parametrize(
    "rank, kinds, error",
    [
        ("7k", [TeacherKind.HOLD], "automatic"),
        ("3k", [TeacherKind.HOLD], "automatic"),
        ("10k", [TeacherKind.RELEASE], "not held"),
        ("10k", [TeacherKind.HOLD, TeacherKind.HOLD], "already held"),
    ],
)
def test_teacher_hold_refusals(rank: str, kinds: list[TeacherKind], error: str) -> None:
    club = Club()
    club.register(1, rank)
    for kind in kinds[:-1]:
        club.psg.apply(TeacherAction(1, kind, club.day))
    before = club.psg.snapshot()
    with pytest.raises(RuleError, match=error):
        club.psg.apply(TeacherAction(1, kinds[-1], club.day))
    assert club.psg.snapshot() == before


# ---------------------------------------------------------------- verification (§23)


def _three_dan(club: Club) -> None:
    club.register(1, "3d")  # model 2300: the line is 2200


@pytest.mark.parametrize(
    "ratings, months, demoted",
    [
        ([2150, 2150, 2150], 3, True),  # three consecutive months more than 100 below
        ([2150, 2150], 2, False),  # NOT after two
        ([2199, 2199, 2199], 3, True),
        ([2200, 2200, 2200], 3, False),  # exactly 100 below is not "more than 100"
        ([2150, 2250, 2150], 3, False),  # the run is broken
        ([2150, 2250, 2150, 2150, 2150], 5, True),
        ([2150, None, None], 3, True),  # Decision (ours): the latest rating carries forward
        ([None, None, None], 3, False),  # no rating known at all
    ],
)
def test_verification_demotion(ratings: list[int | None], months: int, demoted: bool) -> None:
    club = Club()
    _three_dan(club)
    changes: list[Change] = []
    for month in range(1, months + 1):
        rating = ratings[month - 1]
        if rating is not None:
            club.egf(1, rating, 2026, month)
        changes = club.month_end(2026, month)
    assert club.psg.rank(1) == (R("2d") if demoted else R("3d"))
    if demoted:
        change = mine(changes, 1)
        assert (change.rank_before, change.rank_after) == (R("3d"), R("2d"))
        assert "3 consecutive months" in change.note


def test_verification_counts_months_below_in_promotion() -> None:
    club = Club()
    _three_dan(club)
    club.egf(1, 2100, 2026, 1)
    club.month_end(2026, 1)
    club.month_end(2026, 2)
    assert club.psg.promotion(1).lines[-1].endswith("months below the line: 2")


def test_verification_only_above_6k() -> None:
    club = Club()
    club.register(1, "6k")
    club.egf(1, 100, 2026, 1)
    for month in (1, 2, 3, 4):
        club.month_end(2026, month)
    assert club.psg.rank(1) == R("6k")


def test_verification_clock_after_a_promotion_waits_for_a_tournament_rating() -> None:
    club = Club()
    club.register(1, "6k")
    club.egf(1, 1600, 2026, 1)
    for _ in range(10):
        club.tournament_game(1, "6k", W, date=dt.date(2026, 3, 10))
    assert club.psg.rank(1) == R("5k")  # promoted in March; 5k's line is 1500
    club.egf(1, 1400, 2026, 3)  # same month as the promotion: may predate it
    for month in (3, 4, 5):
        club.month_end(2026, month)
    assert club.psg.rank(1) == R("5k")
    assert "clock starts with an EGF rating from a tournament" in club.psg.promotion(1).lines[-1]
    club.egf(1, 1400, 2026, 6, tournament=False)  # not from a tournament game
    club.month_end(2026, 6)
    changes = club.egf(1, 1400, 2026, 7)  # from a tournament after the promotion
    assert "clock starts" in mine(changes, 1).note
    club.month_end(2026, 7)
    club.month_end(2026, 8)
    assert club.psg.rank(1) == R("5k")
    club.month_end(2026, 9)
    assert club.psg.rank(1) == R("6k")


def test_verification_suspension_and_resumption() -> None:
    club = Club()
    _three_dan(club)
    club.egf(1, 2100, 2026, 1)
    club.month_end(2026, 1)
    club.month_end(2026, 2)
    change = mine(club.psg.apply(VerificationSuspended(1, True, club.day)).changes, 1)
    assert "suspended" in change.note
    club.month_end(2026, 3)
    club.month_end(2026, 4)
    assert club.psg.rank(1) == R("3d")
    assert club.psg.promotion(1).lines[-1] == "verification (§23): suspended by the manager"
    club.psg.apply(VerificationSuspended(1, False, club.day))
    club.month_end(2026, 5)
    club.month_end(2026, 6)
    assert club.psg.rank(1) == R("3d")  # the run starts again after the suspension
    club.month_end(2026, 7)
    assert club.psg.rank(1) == R("2d")


@pytest.mark.parametrize("ends, demoted", [(True, True), (False, False)])
def test_suspension_ends_with_a_new_egf_rating(ends: bool, demoted: bool) -> None:
    """Seed §23(4): suspended "until a new EGF rating is received" (a setting)."""
    club = Club(PsgParams(suspension_ends_on_new_egf=ends))
    _three_dan(club)
    club.psg.apply(VerificationSuspended(1, True, club.day))
    club.egf(1, 2100, 2026, 1)
    for month in (1, 2, 3):
        club.month_end(2026, month)
    assert club.psg.rank(1) == (R("2d") if demoted else R("3d"))


def test_month_end_must_move_forward() -> None:
    club = Club()
    club.month_end(2026, 3)
    with pytest.raises(
        RuleError, match="2026-03 was already checked; the next month end is 2026-04"
    ):
        club.month_end(2026, 3)
    with pytest.raises(RuleError, match="a month is 1–12, not 13"):
        club.month_end(2026, 13)


# ---------------------------------------------------------------- organiser events, refusals


@pytest.mark.parametrize(
    "event, message",
    [
        (Registered(9, R("31k"), DAY), "30k or stronger"),
        (Registered(9, R("5k"), DAY), "needs the committee flag"),
        (Registered(9, R("10k"), DAY, rating=1500), "no rating to set"),
        (Registered(1, R("10k"), DAY), "already registered"),
        (Override(1, DAY, "x", rating=1500), "no rating to override"),
        (Override(1, DAY, "x", rank=R("10k"), rating=1500), "no rating to override"),
        (Override(1, DAY, "x"), "sets a rank"),
        (Override(1, DAY, "x", rank=R("10k")), "already 10k"),
        (Override(1, DAY, "x", rank=R("32k")), "from 30k"),
        (Override(9, DAY, "x", rank=R("10k")), "player 9 is not registered"),
        (EgfRating(1, 1500, 2026, 0), "a month is 1–12"),
        (EgfRating(1, 15000, 2026, 1), "not 15000"),
        (EgfRating(9, 1500, 2026, 1), "not registered"),
        (VerificationSuspended(1, False, DAY), "already running"),
        (
            GamePlayed(Game(1, 1, 9, Result.BLACK, DAY)),
            "game {game:1}: player 9 is not registered",  # the game marked for the bot to name
        ),
        (
            TournamentRated(
                Tournament(1, "Cup", DAY, DAY, 1),
                (Entry(1, R("10k")),),
                (Game(1, 1, 2, Result.BLACK, DAY),),
            ),
            "player 2 has no entry",
        ),
        (
            TournamentRated(
                Tournament(1, "Cup", DAY, DAY, 1), (Entry(1, R("10k")), Entry(1, R("9k"))), ()
            ),
            "entered twice",
        ),
        (
            TournamentRated(Tournament(1, "Cup", DAY, DAY, 1), (Entry(8, R("10k")),), ()),
            "player 8 is not registered",
        ),
    ],
    ids=lambda v: type(v).__name__ if not isinstance(v, str) else v,
)
def test_refused_events_change_nothing(event: Event, message: str) -> None:
    club = Club()
    club.register(1, "10k")
    club.register(2, "10k")
    club.club_game(1, 2, W)
    before = club.psg.snapshot()
    with pytest.raises(RuleError, match=message):
        club.psg.apply(event)
    assert club.psg.snapshot() == before


def test_committee_registration_above_6k() -> None:
    psg = Psg()
    change = mine(psg.apply(Registered(1, R("2d"), DAY, committee=True)).changes, 1)
    assert change.rank_after == R("2d") and "committee" in change.note


def test_override_rank_resets_results_and_notes_the_reason() -> None:
    club = Club()
    club.register(1, "10k")
    club.wins(1, "10k", 3)
    change = mine(
        club.psg.apply(Override(1, club.day, "strong at the EGC", rank=R("5k"))).changes, 1
    )
    assert (change.rating_before, change.rating_after) == (105, 0)
    assert change.note == "override 10k → 5k: strong at the EGC"
    card = values(club.psg.card(1))
    assert (card["psg_games"], card["psg_minimum_games"]) == (0, 10)


def test_day_ended_is_not_a_psg_event() -> None:
    assert Psg().apply(DayEnded(DAY)).changes == []


# ---------------------------------------------------------------- queries


def test_card_fields() -> None:
    club = Club()
    club.register(1, "10k")
    club.egf(1, 1080, 2026, 1)
    for ch in "WWLWWWLWWW":
        club.tournament_game(1, "12k", W if ch == "W" else L)  # due −2 played 0: (0, −35)+10
    # wins 10, losses −25: 8 × 10 − 2 × 25 = 30 in 10 games → min-games 30; the best
    # shorter run is the last seven, W W W L W W W = 60 − 25 = 35 → fewer-games 35
    card = club.psg.card(1)
    assert (card.rank, card.rating, card.rating_label, card.games) == (
        R("10k"),
        30,
        "min-games result",
        10,
    )
    assert values(card) == {
        "psg_list": 30,
        "psg_min_result": 30,
        "psg_fewer_result": 35,
        "psg_games": 10,
        "psg_minimum_games": 10,
        "egf_rating": 1080,
        "egf_month": "2026-01",
        "active": "yes",
    }
    assert [m.label for m in card.values][:3] == [
        "min-games result",
        "min-games result",
        "fewer-games result",
    ]
    assert {m.unit for m in card.values[:5]} == {"points", "games"}
    assert card.last_played == club.day


def test_handicap_uses_psg_ranks() -> None:
    club = Club()
    club.register(1, "10k")
    club.register(2, "7k")
    advice = club.psg.handicap(2, 1)
    assert (advice.black, advice.white, advice.stones) == (1, 2, 3)
    assert club.psg.handicap(1, 2, reduction=1).stones == 2
    with pytest.raises(KeyError):
        club.psg.handicap(1, 99)


def test_unknown_player_queries_raise_key_error() -> None:
    psg = Psg()
    with pytest.raises(KeyError):
        psg.card(1)
    with pytest.raises(KeyError):
        psg.promotion(1)


def test_players_and_json_snapshot() -> None:
    club = Club()
    club.register(1, "10k")
    club.register(2, "10k")
    club.club_game(1, 2, W, reported=DAY + dt.timedelta(days=30))
    club.egf(1, 1100, 2026, 1)
    club.month_end(2026, 1)
    assert sorted(club.psg.players()) == [1, 2]
    snap = club.psg.snapshot()
    assert json.loads(json.dumps(snap)) == snap
    assert snap["arranged_pairs"] == [[1, 2, 0, 0, 1]]
    assert snap["players"]["1"]["egf"] == {"2026-01": 1100}


@pytest.mark.parametrize(
    "entry, standing, approval, problem",
    [
        (Entry(1, R("5k")), EntryStanding(R("5k"), True), None, None),
        (Entry(1, R("6k")), EntryStanding(R("5k"), True), None, "PSG rank is 5k"),
        (Entry(1, R("4k")), EntryStanding(R("5k"), True), None, "PSG rank is 5k"),
        (Entry(1, R("6k")), EntryStanding(R("5k"), False), None, None),  # inactive: ≤ last
        (Entry(1, R("4k")), EntryStanding(R("5k"), False), None, "inactive"),
        (Entry(1, R("6k"), country="PL"), None, None, None),  # never a participant: ≤ 6k
        (Entry(1, R("5k"), country="PL"), None, None, "one committee member"),
        (Entry(1, R("2k"), country="PL"), None, None, "two committee members"),
        (Entry(1, R("1d")), None, None, "a committee resolution"),  # no country: domestic
        (Entry(1, R("4k"), country="PL"), None, R("3k"), None),  # approved up to 3k
        (Entry(1, R("2k"), country="PL"), None, R("3k"), "two committee members"),
        (Entry(1, R("3d"), registered=False, country="DE"), None, None, None),  # foreign
    ],
)
def test_entry_rank_violations(
    entry: Entry, standing: EntryStanding | None, approval: Rank | None, problem: str | None
) -> None:
    standings = {} if standing is None else {1: standing}
    approvals = {} if approval is None else {1: approval}
    found = entry_rank_violations([entry], standings, approvals=approvals)
    if problem is None:
        assert found == []
    else:
        assert len(found) == 1 and problem in found[0]


def test_ledger_entry_rank_violations_use_current_rank_and_activity() -> None:
    club = Club()
    club.register(1, "10k")
    club.register(2, "8k")
    problems = club.psg.entry_rank_violations(
        [Entry(1, R("10k")), Entry(2, R("9k")), Entry(3, R("4k"), country="PL")]
    )
    assert problems == [
        "{player:2} entered as 9k but their PSG rank is 8k (PSG regulations §5(1): "
        "participants enter with their current rank)",
        "{player:3} never was a PSG participant and entered as 4k; above 6k that needs one "
        "committee member's approval (§11(3)(1))",
    ]


# ---------------------------------------------------------------- hypothesis


def brute_force(points: list[int], minimum: int) -> tuple[int | None, int | None, int]:
    """§17–§18 straight from the definitions, every suffix summed afresh."""
    n = len(points)
    if n < minimum:
        return None, None, sum(points)
    min_result = max(sum(points[n - k :]) for k in range(minimum, n + 1))
    short = [sum(points[n - k :]) for k in range(1, minimum)]
    fewer = max(short) if short else None
    if min_result > 0 and (fewer is None or min_result > fewer):
        fewer = min_result
    return min_result, (fewer if fewer is not None and fewer > 0 else None), min_result


point_lists = st.lists(st.integers(min_value=-35, max_value=55), max_size=70)
minimums = st.sampled_from([1, 2, 10, 15, 20, 50])


@given(point_lists, minimums)
def test_best_suffix_sums_matches_the_definition(points: list[int], minimum: int) -> None:
    assert best_suffix_sums(points, minimum) == brute_force(points, minimum)


@given(point_lists, minimums)
def test_incremental_results_match_the_pure_function(points: list[int], minimum: int) -> None:
    results = Results(minimum)
    for i, value in enumerate(points, start=1):
        results.add(value)
        expected = best_suffix_sums(points[:i], minimum)
        assert (results.min_result, results.fewer_result, results.list_shows) == expected


RANKS = ["15k", "12k", "10k", "8k", "6k", "5k", "3k", "1k", "1d", "2d"]
game_steps = st.tuples(
    st.sampled_from(RANKS), st.sampled_from([W, L, J]), st.integers(min_value=-3, max_value=3)
)


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    st.sampled_from(["12k", "8k", "3k", "1d"]),
    st.lists(game_steps, min_size=1, max_size=40),
    st.integers(min_value=0, max_value=40),
    st.sampled_from(["10k", "6k", "2k", "2d"]),
)
def test_results_reset_on_every_rank_change(
    start: str, steps: list[tuple[str, Outcome, int]], change_at: int, new_rank: str
) -> None:
    """The list always equals the §17 results of the points earned since the last rank change."""
    club = Club()
    club.register(1, start)
    club.egf(1, 2600, 2026, 1)  # EGF conditions met, so norms promote at any rank
    since: list[int] = []
    for i, (opp, outcome, stones) in enumerate(steps):
        if i == change_at and club.psg.rank(1) != R(new_rank):
            club.psg.apply(Override(1, club.day, "committee", rank=R(new_rank)))
            since = []
            assert club.shows(1) == 0
        club.tournament_game(1, opp, outcome, stones=stones)
        score = club.score(1)
        if score.points is not None:
            since.append(score.points)
        if score.promoted_to is not None:
            since = []
        minimum = minimum_games(club.psg.rank(1))
        assert club.shows(1) == best_suffix_sums(since, minimum)[2]


def _history(draw: st.DrawFn) -> list[Event]:
    events: list[Event] = [
        Registered(p, R(r), DAY, committee=True)
        for p, r in ((1, "10k"), (2, "9k"), (3, "6k"), (4, "3k"), (5, "2d"))
    ]
    day = DAY
    month = (2026, 1)
    for gid in range(1, draw(st.integers(min_value=0, max_value=40)) + 1):
        kind = draw(st.integers(min_value=0, max_value=9))
        day += dt.timedelta(days=draw(st.integers(min_value=0, max_value=20)))
        if kind <= 5:
            a, b = draw(st.permutations([1, 2, 3, 4, 5]))[:2]
            result = draw(st.sampled_from([Result.BLACK, Result.WHITE, Result.JIGO, None]))
            stones = draw(st.integers(min_value=0, max_value=4))
            events.append(GamePlayed(Game(gid, a, b, result, day, stones=stones)))
        elif kind <= 7:
            events.append(
                EgfRating(draw(st.sampled_from([3, 4, 5])), draw(st.integers(1300, 2500)), *month)
            )
        else:
            events.append(MonthEnded(*month))
            month = (month[0] + month[1] // 12, month[1] % 12 + 1)
    return events


histories = st.composite(_history)


def _replay(events: list[Event]) -> Psg:
    psg = Psg()
    for event in events:
        psg.apply(event)
    return psg


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(histories())
def test_replay_twice_gives_the_same_snapshot(events: list[Event]) -> None:
    first, second = _replay(events), _replay(events)
    assert first.snapshot() == second.snapshot()
    assert json.loads(json.dumps(first.snapshot())) == first.snapshot()


BAD_EVENTS: list[Event] = [
    Registered(1, R("10k"), DAY),
    Override(2, DAY, "x", rating=1500),
    GamePlayed(Game(999, 1, 77, Result.BLACK, DAY)),
    EgfRating(3, 99999, 2026, 1),
    MonthEnded(2000, 1),
    TeacherAction(5, TeacherKind.HOLD, DAY),
    TeacherAction(1, TeacherKind.PROMOTE, DAY, teacher_rank=R("1d"), rank=R("1k")),
    VerificationSuspended(4, False, DAY),
]


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(histories(), st.sampled_from(BAD_EVENTS))
def test_a_rejected_event_changes_nothing(events: list[Event], bad: Event) -> None:
    psg = _replay([MonthEnded(2025, 12), *events])
    before = psg.snapshot()
    with pytest.raises(EngineError):
        psg.apply(bad)
    assert psg.snapshot() == before


def values(card: Card) -> dict[str, object]:
    """The card's typed values by export key."""
    return {m.key: m.value for m in card.values}


# ------------------------------------------------------- what the bot asks by name


def test_the_month_end_verification_is_announced_with_demotions_and_warnings() -> None:
    club = Club()
    _three_dan(club)
    club.register(2, "10k")
    club.egf(1, 2150, 2026, 1)
    changes = club.month_end(2026, 1)
    assert club.psg.announcement(Phase.MONTH_END, "2026-01", changes) == Notice(
        "month-end verification 2026-01",
        (
            "Warning — months in a row more than 100 below the model rating (a third one "
            "drops a rank): {player:1} 1.",
        ),
    )
    club.month_end(2026, 2)
    changes = club.month_end(2026, 3)
    notice = club.psg.announcement(Phase.MONTH_END, "2026-03", changes)
    assert notice is not None
    assert notice.lines[0] == (
        "Down one rank after three months more than 100 below the model EGF rating "
        "(PSG regulations §23(1)): {player:1} 3d → 2d."
    )
    assert club.psg.announcement(Phase.DAY_END, "2026-03-31", changes) is None


def test_a_quiet_month_end_is_not_announced() -> None:
    club = Club()
    club.register(1, "10k")
    assert club.psg.announcement(Phase.MONTH_END, "2026-01", club.month_end(2026, 1)) is None


def test_entry_notes_are_the_psg_entry_rank_rules() -> None:
    club = Club()
    club.register(2, "8k")
    cup = Tournament(1, "Cup", club.day, club.day, 3)
    (note,) = club.psg.entry_notes(cup, [Entry(2, R("9k"))])
    assert note.startswith("{player:2} entered as 9k but their PSG rank is 8k")


def test_no_rank_bands_weight_or_initial_limit() -> None:
    psg = Psg()
    assert psg.rank_bands() == ()
    assert psg.tournament_weight(Tournament(1, "Cup", DAY, DAY, 3)) is None
    assert psg.initial_rank_limit() is None


def test_boards_setting_counts_other_boards_from_its_date() -> None:
    ledger = Psg()
    ledger.apply(Registered(1, R("10k"), DAY))
    ledger.apply(Registered(2, R("10k"), DAY))
    small = Game(1, 1, 2, Result.BLACK, DAY, board=13)
    assert ledger.uncounted(small) is not None
    ledger.apply(SettingsChanged(DAY, (("psg.boards", (13, 19)),)))
    assert ledger.params.boards == (13, 19)
    assert ledger.uncounted(small) is None


def test_home_language_is_the_rulebooks_country() -> None:
    """The rulebook's language is a club's default language (issue 13)."""
    from engine.psg import Psg as system
    from engine.systems import home_language

    assert system.language == "pl"
    assert system().language == "pl"
    assert home_language("psg") == "pl"


def test_psg_texts_are_translatable_messages() -> None:
    """Issue 13: a refusal, a game's history note and an entry note are Msg; the marks and
    ranks are values, the template is what a catalogue translates."""
    from engine.text import Msg

    club = Club()
    club.register(1, "10k")
    club.register(2, "10k")
    note = mine(club.club_game(1, 2, W), 1).note
    assert isinstance(note, Msg) and note.template == "{game}: {notes}"
    assert note.args["game"].template == "game {game} (round {round})"
    with pytest.raises(RuleError) as refused:
        club.psg.apply(TeacherAction(1, TeacherKind.RELEASE, club.day))
    assert refused.value.args[0].template == "promotion of player {player} is not held"
    [problem] = club.psg.entry_notes(Tournament(1, "Cup", DAY, DAY, 1), [Entry(1, R("8k"))])
    assert isinstance(problem, Msg) and problem.args["player"] == "{player:1}"
    assert problem.template.startswith("{player} entered as {rank} but their PSG rank is")


def test_entry_notes_compare_with_the_rank_of_the_tournaments_first_day() -> None:
    """A tournament of last month imported today: its entries are checked against the PSG rank
    the players had on its first day (rules.md, top: calendar order; §4.1 entry ranks), not
    against a rank the committee gave one of them since."""
    ledger = Psg()
    ledger.apply(Registered(2, R("8k"), DAY))
    ledger.apply(Override(2, DAY + dt.timedelta(days=20), "committee", rank=R("6k")))
    cup = Tournament(1, "Cup", DAY + dt.timedelta(days=10), DAY + dt.timedelta(days=11), 3)
    assert ledger.entry_notes(cup, [Entry(2, R("8k"))]) == []
    (note,) = ledger.entry_notes(cup, [Entry(2, R("6k"))])
    assert note.startswith("{player:2} entered as 6k but their PSG rank is 8k")


# ------------------------------------------------------------- what is due (issue 23)


def test_the_month_ends_due_run_from_the_first_fact_and_skip_those_checked() -> None:
    """The §23 verification and the 13-month reset run at every month's end (rules.md §4.3,
    §4.5), a month with no fact of its own included: due are the months from the earliest
    fact's up to the month before today's, not checked yet, oldest first. Before any fact
    nothing is due (with no participant a month's end changes nothing)."""
    club = Club()
    assert club.psg.due(dt.date(2030, 1, 1)) == []
    club.register(1, "10k", date=dt.date(2026, 1, 20))
    assert club.psg.due(dt.date(2026, 1, 31)) == []
    assert club.psg.due(dt.date(2026, 2, 1)) == [MonthEnded(2026, 1)]
    club.month_end(2026, 1)
    club.month_end(2026, 2)
    assert club.psg.due(dt.date(2026, 4, 2)) == [MonthEnded(2026, 3)]
    club.register(2, "10k", date=dt.date(2025, 11, 3))  # a fact before the others
    assert club.psg.due(dt.date(2026, 4, 2)) == [
        MonthEnded(2025, 11),
        MonthEnded(2025, 12),
        MonthEnded(2026, 3),
    ]
