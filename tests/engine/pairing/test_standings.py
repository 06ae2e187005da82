"""engine.pairing.standings: NBW, MMS, SOS, SOSOS, SODOS and the order, as OpenGotha 3.51
(``Tournament.fillBaseScoringInfoIfNecessary``). The worked examples are computed by hand from
OpenGotha's rules; the properties check the sums against a brute-force count."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.formats.h9 import parse_h9
from engine.pairing.standings import (
    MCMAHON_ORDER,
    SWISS_ORDER,
    Criterion,
    Entrant,
    RoundGame,
    Scoring,
    Standing,
    Unpaired,
    from_file,
    h9_text,
    standings,
)
from engine.ranks import Rank
from engine.types import Outcome, Result

DATA = Path(__file__).parent / "data"

F = Fraction
A, B, C = 1, 2, 3
THREE = (Entrant(A, 20), Entrant(B, 19), Entrant(C, 18))
# round 1: A (black) loses to B; C has the bye. Round 2: A (black) beats C; B has the bye.
THREE_GAMES = (RoundGame(1, A, B, Result.WHITE), RoundGame(2, A, C, Result.BLACK))
THREE_BYES = (Unpaired(1, C, "bye"), Unpaired(2, B, "bye"))


def by_id(lines: tuple[Standing, ...]) -> dict[int, Standing]:
    return {s.id: s for s in lines}


def test_worked_example_mcmahon_with_byes() -> None:
    # by hand: MMS A 20+1=21, B 19+1+bye 1=21, C 18+bye 1=19; a bye round counts the player's
    # own start MMS in SOSM (B: 21+19, C: 18+21) and start MMS x rounds in SOSOSM
    got = by_id(standings(THREE, THREE_GAMES, THREE_BYES))
    assert (got[A].nbw, got[B].nbw, got[C].nbw) == (1, 2, 1)
    assert (got[A].mms, got[B].mms, got[C].mms) == (21, 21, 19)
    assert (got[A].sosm, got[B].sosm, got[C].sosm) == (40, 40, 39)
    assert (got[A].sosw, got[B].sosw, got[C].sosw) == (3, 1, 1)
    assert (got[A].sososm, got[B].sososm, got[C].sososm) == (79, 78, 76)
    assert (got[A].sodosm, got[B].sodosm, got[C].sodosm) == (19, 21, 0)
    assert [(s.id, s.place) for s in standings(THREE, THREE_GAMES, THREE_BYES)] == [
        (A, 1),
        (B, 2),
        (C, 3),
    ]


def test_after_round_one_ignores_later_games() -> None:
    got = by_id(standings(THREE, THREE_GAMES, THREE_BYES, rounds=1))
    assert (got[A].mms, got[B].mms, got[C].mms) == (20, 20, 19)
    assert got[A].sosm == 20  # B's MMS after round 1


def test_jigo_is_half_and_sodos_counts_half() -> None:
    got = by_id(standings((Entrant(A, 10), Entrant(B, 10)), [RoundGame(1, A, B, Result.JIGO)]))
    assert (got[A].nbw, got[A].mms) == (F(1, 2), F(21, 2))
    assert got[A].sodosm == F(21, 4)  # half of the opponent's 10½


def test_both_win_and_both_lose() -> None:
    ents = (Entrant(A, 10), Entrant(B, 10), Entrant(C, 10), Entrant(4, 10))
    games = [
        RoundGame(1, A, B, None, double=Outcome.WIN),
        RoundGame(1, C, 4, None, double=Outcome.LOSS),
    ]
    got = by_id(standings(ents, games))
    assert [got[p].mms for p in (A, B, C, 4)] == [11, 11, 10, 10]
    assert got[C].sosm == 10  # paired, so the opponent's MMS, not the virtual one


def test_handicap_moves_the_opponents_score_in_sosm_only() -> None:
    # OpenGotha: osmX2 += 2 * handicap for white, -= for black; SOSW is unchanged
    got = by_id(standings((Entrant(A, 10), Entrant(B, 12)), [RoundGame(1, A, B, Result.BLACK, 2)]))
    assert got[B].sosm == 11 + 2  # white counts black's MMS plus the stones
    assert got[A].sosm == 12 - 2
    assert got[A].sosw == 0 and got[B].sosw == 1


@pytest.mark.parametrize(
    ("kinds", "nbw", "mms"),
    [
        (("bye",), 1, 11),
        (("absent",), 0, 10),  # ½ rounded down (genRoundDownNBWMMS)
        (("absent", "absent"), 0, 11),
        (("bye", "absent"), 1, 11),
        (("bye", "absent", "absent"), 1, 12),
    ],
    ids=["bye", "one-absence", "two-absences", "bye-and-absence", "bye-two-absences"],
)
def test_bye_and_absence_points(kinds: tuple[str, ...], nbw: int, mms: int) -> None:
    unpaired = [Unpaired(r, A, k) for r, k in enumerate(kinds, start=1)]  # type: ignore[arg-type]
    got = by_id(standings([Entrant(A, 10)], [], unpaired, rounds=len(kinds)))[A]
    assert (got.nbw, got.mms) == (nbw, mms)
    assert got.sosm == 10 * len(kinds)  # each unpaired round counts the start MMS
    assert got.sosw == 0


def test_swiss_order_and_no_start() -> None:
    # Swiss: no start MMS, so MMS is the wins and an unpaired round counts 0 in SOSM too
    ents = (Entrant(A), Entrant(B), Entrant(C))
    got = standings(
        ents, [RoundGame(1, B, A, Result.BLACK)], [Unpaired(1, C, "bye")], order=SWISS_ORDER
    )
    assert [(s.id, s.nbw, s.mms, s.sosw, s.place) for s in got] == [
        (B, 1, 1, 0, 1),
        (C, 1, 1, 0, 2),  # tied with B on NBW and SOSW; B's SOSOSW is 1 (A's SOSW), C's 0
        (A, 0, 0, 1, 3),
    ]


@pytest.mark.parametrize(
    ("games", "message"),
    [
        ([RoundGame(1, A, A, Result.BLACK)], "paired with themselves"),
        ([RoundGame(1, A, 9, Result.BLACK)], "unknown player 9"),
        ([RoundGame(1, A, B, Result.BLACK), RoundGame(1, A, C, None)], "player 1 paired twice"),
    ],
    ids=["self", "unknown", "twice"],
)
def test_bad_input_is_refused(games: list[RoundGame], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        standings(THREE, games)


def test_unknown_criterion_is_refused() -> None:
    with pytest.raises(ValueError, match="not SOS"):
        standings(THREE, THREE_GAMES, order=("MMS", "SOS"))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "quarters", "text"),
    [
        (F(21), False, "21"),
        (F(25, 2), False, "12½"),
        (F(2401, 2), False, "1200"),  # cut to 4 characters as OpenGotha's h9 writer does
        (F(13, 4), True, "3¼"),
        (F(7, 4), True, "1¾"),
        (F(0), False, "0"),
    ],
)
def test_h9_text(value: Fraction, quarters: bool, text: str) -> None:
    assert h9_text(value, quarters) == text


def test_from_file_reads_byes_and_games() -> None:
    tf = parse_h9(
        "; HA[h9]\n"
        "; Pl Name Rk Co Club\n"
        "   1 Alpha One   5k HU Bp     2+/b0    0+\n"
        "   2 Beta Two    6k HU Bp     1-/w0    0=\n"
    )
    entrants, games, unpaired = from_file(tf, {1: 25, 2: 24})
    got = by_id(standings(entrants, games, unpaired, order=MCMAHON_ORDER))
    assert (got[1].mms, got[2].mms) == (27, 24)  # the lone absence rounds down to 0
    assert (got[1].sosm, got[2].sosm) == (24 + 25, 27 + 24)


# --- properties ------------------------------------------------------------------------------

RESULTS = st.sampled_from([Result.BLACK, Result.WHITE, Result.JIGO, None])


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[list[Entrant], list[RoundGame], list[Unpaired], int]:
    n = draw(st.integers(2, 8))
    rounds = draw(st.integers(1, 4))
    entrants = [Entrant(p, draw(st.integers(10, 30))) for p in range(1, n + 1)]
    games: list[RoundGame] = []
    unpaired: list[Unpaired] = []
    for r in range(1, rounds + 1):
        order = draw(st.permutations(range(1, n + 1)))
        present = [p for p in order if draw(st.booleans()) or len(order) <= 3]
        for p in order:
            if p not in present:
                unpaired.append(Unpaired(r, p, "absent"))
        if len(present) % 2:
            unpaired.append(Unpaired(r, present.pop(), "bye"))
        for i in range(0, len(present), 2):
            hd = draw(st.integers(0, 3))
            games.append(RoundGame(r, present[i], present[i + 1], draw(RESULTS), hd))
    return entrants, games, unpaired, rounds


def brute_scores(
    entrants: list[Entrant], games: list[RoundGame], unpaired: list[Unpaired]
) -> dict[int, Fraction]:
    mms: dict[int, Fraction] = {}
    for e in entrants:
        bonus = sum(F(1) if u.kind == "bye" else F(1, 2) for u in unpaired if u.player == e.id)
        won = sum(
            (g.result.score_for(g.black == e.id) if g.result else F(0))
            for g in games
            if e.id in (g.black, g.white)
        )
        mms[e.id] = (e.mms_start or 0) + won + (bonus // 1)
    return mms


@given(tournaments())
def test_sos_is_the_sum_of_the_opponents_scores(
    t: tuple[list[Entrant], list[RoundGame], list[Unpaired], int],
) -> None:
    entrants, games, unpaired, rounds = t
    got = by_id(standings(entrants, games, unpaired, rounds=rounds))
    mms = brute_scores(entrants, games, unpaired)
    for e in entrants:
        assert got[e.id].mms == mms[e.id]
        sos = F(0)
        for r in range(1, rounds + 1):
            mine = [g for g in games if g.round == r and e.id in (g.black, g.white)]
            if not mine:
                sos += e.mms_start or 0
                continue
            g = mine[0]
            opp = g.white if g.black == e.id else g.black
            sos += mms[opp] + (g.handicap if g.white == e.id else -g.handicap)
        assert got[e.id].sosm == sos


@given(tournaments(), st.data())
def test_order_is_total_and_deterministic(
    t: tuple[list[Entrant], list[RoundGame], list[Unpaired], int], data: st.DataObject
) -> None:
    entrants, games, unpaired, rounds = t
    first = standings(entrants, games, unpaired, rounds=rounds)
    shuffled = standings(
        data.draw(st.permutations(entrants)),
        data.draw(st.permutations(games)),
        data.draw(st.permutations(unpaired)),
        rounds=rounds,
    )
    assert first == shuffled
    assert sorted(s.id for s in first) == [e.id for e in entrants]
    keys = [tuple(s.value(c) for c in MCMAHON_ORDER) for s in first]
    for i in range(1, len(first)):
        assert keys[i - 1] >= keys[i]
        if keys[i - 1] == keys[i]:
            assert first[i].place == first[i - 1].place and first[i - 1].id < first[i].id
        else:
            assert first[i].place == i + 1


@given(tournaments())
def test_a_bye_adds_one_point_and_the_virtual_opponent(
    t: tuple[list[Entrant], list[RoundGame], list[Unpaired], int],
) -> None:
    entrants, games, unpaired, rounds = t
    newcomer = Entrant(99, 15)
    more = [*unpaired, *(Unpaired(r, 99, "bye") for r in range(1, rounds + 1))]
    got = by_id(standings([*entrants, newcomer], games, more, rounds=rounds))[99]
    assert (got.nbw, got.mms) == (rounds, 15 + rounds)
    assert (got.sosw, got.sosm, got.sososm) == (0, 15 * rounds, 15 * rounds * rounds)


# --- real OpenGotha files (data/README.md) ---------------------------------------------------


@dataclass(frozen=True)
class RealFile:
    name: str
    columns: tuple[str, ...]  # the file's criteria columns, in order
    bar: Rank  # genMMBar of the tournament's XML
    floor: Rank  # genMMFloor
    round_down: bool = True  # genRoundDownNBWMMS
    corrected: frozenset[str] = frozenset()  # players with smmsCorrection="1"


# egc2013.xml: the 32 players whose start MMS the organisers raised by one (smmsCorrection="1")
EGC2013_CORRECTED = frozenset(
    [
        "burzo cornel",
        "campagnie remi",
        "debarre thomas",
        "dinerstein alexandr",
        "ditzhuijzen zeno van",
        "fan hui",
        "frejlak stanislaw",
        "jabarin ali",
        "kachanovskyi artem",
        "kraemer lukas",
        "kravets andrii",
        "kruml ondrej",
        "kurita shigeru",
        "kuronen juri",
        "lazarev alexej",
        "li yue",
        "lin viktor",
        "lisy pavol",
        "mero csaba",
        "mitic dusan",
        "mitic nikola",
        "obenaus johannes",
        "papazoglou benjamin",
        "podpera lukas",
        "radmacher bernd",
        "shikshin ilja",
        "soldan leszek",
        "surma mateusz",
        "tarumi jun",
        "teuber benjamin",
        "tormanen antti",
        "vashurov alexandr",
    ]
)

BAR, FLOOR = Rank.dan(4), Rank.kyu(20)
REAL_FILES = [
    RealFile("juvisy_2019.h9", ("MMS", "SOSM", "SOSOSM"), BAR, FLOOR),
    RealFile("tournoi_chinois_2020.h9", ("MMS", "SOSM", "SOSOSM"), BAR, FLOOR),
    RealFile("egc2013.h9", ("MMS", "SOSM"), BAR, FLOOR, False, EGC2013_CORRECTED),
    RealFile("ioct_20_02.h9", ("CAT", "NBW"), Rank.dan(9), Rank.kyu(30)),  # CAT: a category
]
KNOWN: dict[str, Criterion] = {"NBW": "NBW", "MMS": "MMS", "SOSM": "SOSM", "SOSOSM": "SOSOSM"}

# OpenGotha's h9 line: place (4), name (31), rank (3), country (3), club (5), then one
# " %4s" column per criterion (ExternalDocument.generateH9File)
FIRST_COLUMN = 47


def written_columns(line: str, count: int) -> list[str]:
    """The criteria as OpenGotha wrote them, ``?`` read back as the ``½`` ISO-8859-15 lacks (the
    h9 reader drops a trailing ``?``, so the halves are read from the line itself)."""
    at = FIRST_COLUMN
    return [line[at + 5 * i : at + 5 * i + 5].strip().replace("?", "½") for i in range(count)]


@pytest.mark.parametrize("real", REAL_FILES, ids=lambda f: f.name)
def test_real_opengotha_files_columns_are_recomputed(real: RealFile) -> None:
    data = (DATA / real.name).read_bytes()
    tf = parse_h9(data)
    lines = data.decode("latin-1").splitlines()
    assert "; Generated by OpenGotha" in data.decode("latin-1")
    starts = {}
    for p in tf.players:
        assert p.pro == 0
        rank = p.rank.clamp(real.floor, real.bar)
        starts[p.position] = 30 + (rank - Rank.dan(1)) + (p.name.lower() in real.corrected)
    entrants, games, unpaired = from_file(tf, starts)
    scoring = Scoring(round_down=real.round_down)
    got = by_id(standings(entrants, games, unpaired, rounds=tf.rounds, scoring=scoring))
    checked = 0
    for p in tf.players:
        written = written_columns(lines[p.line - 1], len(real.columns))
        for column, text in zip(real.columns, written, strict=True):
            if column not in KNOWN:
                continue
            assert h9_text(got[p.position].value(KNOWN[column])) == text, (p.name, column)
            checked += 1
    assert checked >= len(tf.players)
    assert len(set(real.corrected) - {p.name.lower() for p in tf.players}) == 0
