"""The format-independent tournament file and its conversion to engine values."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import FormatError
from engine.formats.csv_tables import parse_ratings_csv
from engine.formats.h9 import parse_h9, write_h9
from engine.formats.names import fold_name
from engine.formats.tournament_file import (
    FileGame,
    TournamentFile,
    criterion_value,
    file_wins,
    format_komi,
    game_komi,
    in_standings_order,
    parse_komi,
    places,
    round_dates,
    to_engine,
)
from engine.ranks import Rank
from engine.timecontrol import TimeControl
from engine.types import Entry, Game, Result, Tournament
from tests.engine.formats.test_h9 import tournaments as h9_tournaments

DATA = Path(__file__).parent / "data"
B, W = Result.BLACK, Result.WHITE
D11, D12 = dt.date(2026, 4, 11), dt.date(2026, 4, 12)
HALF, KOMI = Fraction(1, 2), Fraction(13, 2)


@pytest.fixture(scope="module")
def example() -> TournamentFile:
    return parse_h9((DATA / "formats_example.h9").read_bytes())


IDS = {1: 101, 2: 102, 3: 103, 4: 104}


def criteria(mms: str, sos: str) -> tuple[tuple[str, str], ...]:
    """A line's criteria in the formats.md example: MMS, SOS and two untitled columns."""
    return (("MMS", mms), ("SOS", sos), ("criterion 3", "0"), ("criterion 4", "0"))


def test_to_engine_on_the_formats_example(example: TournamentFile) -> None:
    tournament, entries, games = to_engine(example, IDS, {101, 102, 104}, 7, 500)
    assert tournament == Tournament(
        id=7,
        name="Budapest Spring Cup 2026",
        start=D11,
        end=D12,
        rounds=4,
        board=19,
        time=TimeControl(base_s=3600),  # TM[60]: the adjusted time as base time
        even=False,  # HA[h2]
        handicap_reduction=2,
        participants=4,
        klass="B",  # CL[B]: the EGF class (rules.md §6)
    )
    assert tournament.time is not None and tournament.time.extended_minutes() == 60
    assert entries == (
        Entry(101, Rank.dan(3), True, "HU", criteria("33", "128")),
        # round 3: 0= (a bye counted as half), 0- (not paired): kept on the entries
        Entry(102, Rank.dan(2), True, "HU", criteria("31", "127"), byes=((3, "half"),)),
        Entry(103, Rank.kyu(1), False, "DE", criteria("31", "120")),  # a guest: not registered
        Entry(104, Rank.kyu(5), True, "HU", criteria("29", "110"), byes=((3, "none"),)),
    )
    time = TimeControl(base_s=3600)
    common = {"tournament": 7, "time": time, "board": 19}
    assert games == (
        Game(500, 104, 101, W, D11, 0, KOMI, round=1, **common),
        Game(501, 103, 102, W, D11, 0, KOMI, round=1, **common),
        Game(502, 101, 102, B, D11, 0, KOMI, round=2, **common),
        Game(503, 104, 103, W, D11, 2, HALF, round=2, **common),  # 2 stones: komi 0.5 (§5)
        Game(504, 103, 101, W, D12, 0, KOMI, round=3, **common),
        Game(505, 103, 101, B, D12, 0, KOMI, played=False, round=4, **common),  # by default
        Game(506, 104, 102, W, D12, 0, KOMI, round=4, **common),
    )
    assert [g.rated for g in games] == [True, True, True, True, True, False, True]


def test_to_engine_needs_dates(example: TournamentFile) -> None:
    undated = TournamentFile(name="x", start=None, end=None, rounds=1, players=example.players)
    with pytest.raises(FormatError, match=r"no tournament dates.*DT\[2026-04-11,2026-04-12\]"):
        to_engine(undated, IDS, set(), 1, 1)


def test_to_engine_refuses_two_lines_matched_to_one_player(example: TournamentFile) -> None:
    with pytest.raises(FormatError) as caught:
        to_engine(example, {1: 101, 2: 101, 3: 103, 4: 104}, set(), 1, 1)
    message = str(caught.value)
    assert "'Nagy Péter' (line 11)" in message and "'Kovács Anna' (line 12)" in message
    assert caught.value.line == 12


def test_to_engine_needs_every_position(example: TournamentFile) -> None:
    with pytest.raises(ValueError, match=r"no player id for positions \[4\]"):
        to_engine(example, {1: 101, 2: 102, 3: 103}, set(), 1, 1)


def test_to_engine_on_the_spring_cup() -> None:
    tf = parse_h9((DATA / "spring_cup_40x5.h9").read_bytes())
    known = {fold_name(row.name) for row in parse_ratings_csv((DATA / "spring_cup_start.csv")
                                                                 .read_bytes())}  # fmt: skip
    ids = {p.position: 1000 + p.position for p in tf.players}
    registered = {ids[p.position] for p in tf.players if fold_name(p.name) in known}
    tournament, entries, games = to_engine(tf, ids, registered, 3, 1)
    assert (tournament.participants, tournament.even, tournament.rounds) == (40, True, 5)
    assert tournament.time == TimeControl(3600)
    assert len(entries) == 40 and sum(e.registered for e in entries) == 30
    assert len(games) == 99 and [g.id for g in games] == list(range(1, 100))
    # 5 rounds over 2 days: rounds 1–3 on the first day, 4–5 on the second
    first, second = dt.date(2026, 3, 21), dt.date(2026, 3, 22)
    assert {(g.round, g.date) for g in games} == {
        (1, first),
        (2, first),
        (3, first),
        (4, second),
        (5, second),
    }
    assert sum(not g.rated for g in games) == 2
    assert {g.komi for g in games} == {KOMI}


ROUND_DATES = [
    # first day, last day, rounds, expected days of the month
    (11, 12, 4, [11, 11, 12, 12]),
    (11, 12, 5, [11, 11, 11, 12, 12]),  # earlier days take the extra round
    (11, 11, 3, [11, 11, 11]),
    (1, 10, 4, [1, 3, 6, 8]),
    (11, 13, 3, [11, 12, 13]),
    (11, 13, 1, [11]),
]


@pytest.mark.parametrize(
    "first, last, rounds, days", ROUND_DATES, ids=[f"{c[0]}-{c[1]}x{c[2]}" for c in ROUND_DATES]
)
def test_round_dates(first: int, last: int, rounds: int, days: list[int]) -> None:
    dates = round_dates(dt.date(2026, 4, first), dt.date(2026, 4, last), rounds)
    assert [d.day for d in dates] == days


@given(st.integers(0, 20), st.integers(1, 12))
def test_round_dates_spread_evenly(extra_days: int, rounds: int) -> None:
    start = dt.date(2026, 4, 1)
    end = start + dt.timedelta(days=extra_days)
    dates = round_dates(start, end, rounds)
    assert len(dates) == rounds and dates[0] == start
    assert list(dates) == sorted(dates) and dates[-1] <= end
    if rounds >= extra_days + 1:
        per_day = Counter(dates)
        assert len(per_day) == extra_days + 1
        assert max(per_day.values()) - min(per_day.values()) <= 1


def test_round_dates_refuse_an_end_before_the_start() -> None:
    with pytest.raises(ValueError, match="ends"):
        round_dates(D12, D11, 2)


GAME_KOMI = [
    (0, Fraction(15, 2), Fraction(15, 2)),
    (0, None, KOMI),  # no KM: the default 6.5
    (1, KOMI, Fraction(0)),  # §5: one stone, no komi
    (2, KOMI, HALF),  # §5: 0.5 to white with stones
    (9, KOMI, HALF),
]


@pytest.mark.parametrize(
    "stones, even_komi, komi", GAME_KOMI, ids=["even", "no-KM", "1", "2", "9"]
)
def test_game_komi(stones: int, even_komi: Fraction | None, komi: Fraction) -> None:
    assert game_komi(stones, even_komi) == komi


KOMI_TEXT = [
    ("6.5", Fraction(13, 2), "6.5"),
    ("7,5", Fraction(15, 2), "7.5"),
    ("7", Fraction(7), "7"),
    ("0", Fraction(0), "0"),
    ("-0.5", Fraction(-1, 2), "-0.5"),
    ("+5.5", Fraction(11, 2), "5.5"),
    ("6.25", Fraction(25, 4), "6.25"),
]


@pytest.mark.parametrize("text, komi, written", KOMI_TEXT, ids=[t for t, _, _ in KOMI_TEXT])
def test_komi_text(text: str, komi: Fraction, written: str) -> None:
    assert parse_komi(text) == komi
    assert format_komi(komi) == written


@pytest.mark.parametrize("text", ["six", "6.5.5", "", "6,5 pts"])
def test_bad_komi(text: str) -> None:
    with pytest.raises(FormatError, match=r"6\.5, 7\.5 or 0\.5"):
        parse_komi(text, line=4)


def test_format_komi_refuses_thirds() -> None:
    with pytest.raises(ValueError, match="no short decimal form"):
        format_komi(Fraction(1, 3))


def test_to_engine_carries_the_h9_class_for_the_egf_gor() -> None:
    # rules.md §6: the h9 header CL[A]…CL[D] gives the EGF tournament class
    spring = parse_h9((DATA / "spring_cup_40x5.h9").read_bytes())
    ids = {p.position: p.position for p in spring.players}
    tournament, _, _ = to_engine(spring, ids, set(ids.values()), 1, 1)
    assert tournament.klass == "C"
    example = parse_h9((DATA / "formats_example.h9").read_bytes())
    assert to_engine(example, IDS, set(), 7, 500)[0].klass == "B"
    unclassed = dataclasses.replace(example, class_=None)
    assert to_engine(unclassed, IDS, set(), 7, 500)[0].klass is None
    lower = dataclasses.replace(example, class_=" b ")  # CL[b]: the same class B
    assert to_engine(lower, IDS, set(), 7, 500)[0].klass == "B"
    blank = dataclasses.replace(example, class_=" ")
    assert to_engine(blank, IDS, set(), 7, 500)[0].klass is None


# ------------------------------------------------------------------ standings


@pytest.mark.parametrize(
    ("text", "value"),
    [("33", Fraction(33)), ("12.5", Fraction(25, 2)), ("3,5", Fraction(7, 2)),
     ("12½", Fraction(25, 2)), ("½", HALF), ("-", Fraction(0)), ("", Fraction(0)),
     ("31?", Fraction(31)), ("-2", Fraction(-2)), ("abc", Fraction(0))],
)  # fmt: skip
def test_criterion_value(text: str, value: Fraction) -> None:
    assert criterion_value(text) == value


def test_places_by_wins_then_the_criteria_ties_share_the_first_place() -> None:
    wins = {"a": Fraction(2), "b": Fraction(3), "c": Fraction(2), "d": Fraction(2), "e": HALF}
    crit = {
        "a": (("MMS", "30"), ("SOS", "100")),
        "b": (("MMS", "29"), ("SOS", "90")),
        "c": (("MMS", "30"), ("SOS", "100")),
        "d": (("MMS", "30"), ("SOS", "101")),
    }  # e has none: they count 0
    assert places(["a", "b", "c", "d", "e"], wins, crit) == [
        ("b", 1), ("d", 2), ("a", 3), ("c", 3), ("e", 5)
    ]  # fmt: skip


def test_in_standings_order_on_the_formats_example(example: TournamentFile) -> None:
    """Wins first: Nagy 3 (and a loss by default), Kovács 2½ (a half bye), Schmidt 2 (a win by
    default counts), Szabó 0."""
    ranked = in_standings_order(example)
    assert [(p.name, p.place) for p in ranked.players] == [
        ("Nagy Péter", 1), ("Kovács Anna", 2), ("Schmidt Jonas", 3), ("Szabó Éva", 4)
    ]  # fmt: skip
    assert file_wins(ranked) == {1: 3, 2: Fraction(5, 2), 3: 2, 4: 0}


def standing_facts(tf: TournamentFile) -> tuple[object, ...]:
    """Players, games and byes by name; a game without colours as its pair and winner."""
    name = {p.position: p.name for p in tf.players}

    def game(g: FileGame) -> tuple[object, ...]:
        if g.colour_known:
            who: object = (name[g.black], name[g.white], g.result)
        else:
            winner = {B: name[g.black], W: name[g.white]}.get(g.result)  # type: ignore[arg-type]
            who = (sorted((name[g.black], name[g.white])), winner or g.result)
        return (g.round, who, g.played, g.stones, g.double)

    return (
        sorted((p.name, p.rank, p.criteria) for p in tf.players),
        sorted(map(game, tf.games), key=repr),
        sorted((b.round, name[b.player], b.kind) for b in tf.byes),
    )


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_in_standings_order_keeps_every_fact_and_places_follow_the_wins(
    data: st.DataObject,
) -> None:
    tf = data.draw(h9_tournaments())
    tf = dataclasses.replace(
        tf,
        players=tuple(
            dataclasses.replace(p, name=f"{p.name} Q{chr(96 + p.position)}") for p in tf.players
        ),
    )
    ranked = in_standings_order(tf)
    assert standing_facts(ranked) == standing_facts(tf)
    assert [p.position for p in ranked.players] == list(range(1, len(tf.players) + 1))
    assert parse_h9(write_h9(ranked)) == ranked  # still a file the reader reads back the same
    wins = file_wins(ranked)
    keys = [
        (wins[p.position], *(criterion_value(v) for _t, v in p.criteria)) for p in ranked.players
    ]
    assert keys == sorted(keys, reverse=True)
    for index, (player, key) in enumerate(zip(ranked.players, keys, strict=True)):
        tied = index > 0 and keys[index - 1] == key
        assert player.place == (None if tied else index + 1)
