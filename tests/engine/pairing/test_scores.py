"""engine.pairing.scores: MMS doubled as OpenGotha keeps it, SOS, colour balance."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine import types as core
from engine.pairing import standings as sd
from engine.pairing.scores import byes_had, colour_balance, mms2, mms_start, opponents, sos2
from engine.pairing.types import (
    Bye,
    Entrant,
    PairingSettings,
    PlayedGame,
    Result,
    System,
    TournamentState,
)
from engine.ranks import Rank

MCMAHON = PairingSettings(System.MCMAHON, bar=Rank.dan(3), floor=Rank.kyu(20))


def _state(*games: PlayedGame, byes: tuple[Bye, ...] = (), late: int = 1) -> TournamentState:
    players = (
        Entrant(1, Rank.dan(5)),
        Entrant(2, Rank.dan(3)),
        Entrant(3, Rank.kyu(5)),
        Entrant(4, Rank.kyu(25)),
        Entrant(5, Rank.kyu(10), first_round=late),
    )
    return TournamentState(MCMAHON, players, games, byes)


def test_mms_start_clamps_to_bar_and_floor_from_30k() -> None:
    state = _state()
    starts = {p.id: mms_start(state, p) for p in state.players}
    # OpenGotha: MMS0 = clamp(rank, floor, bar) − genMMZero (30k); 3d is 32, 20k is 10
    assert starts == {1: 32, 2: 32, 3: 25, 4: 10, 5: 20}


def test_swiss_starts_everyone_at_zero() -> None:
    state = TournamentState(PairingSettings(System.SWISS), _state().players)
    assert {mms_start(state, p) for p in state.players} == {0}


def test_win_jigo_bye_and_absence_count_as_opengotha_defaults() -> None:
    state = _state(
        PlayedGame(1, 3, 1, Result.BLACK),
        PlayedGame(1, 2, 4, Result.JIGO),
        PlayedGame(2, 1, 2, Result.WHITE),
        PlayedGame(2, 3, 4, Result.NONE),
        byes=(Bye(1, 5), Bye(2, 5)),
        late=1,
    )
    assert mms2(state, 1) == {1: 64, 2: 64, 3: 50, 4: 20, 5: 40}
    # round 1: 3 wins (+2), 2 and 4 draw (+1), 5 has the bye (+2)
    assert mms2(state, 2) == {1: 64, 2: 65, 3: 52, 4: 21, 5: 42}
    # round 2: 2 wins as white; 3–4 no result: nothing
    assert mms2(state, 3) == {1: 64, 2: 67, 3: 52, 4: 21, 5: 44}


def test_late_entrant_gets_half_a_point_per_missed_round() -> None:
    state = _state(PlayedGame(1, 3, 1, Result.BLACK), PlayedGame(1, 2, 4, Result.BLACK), late=3)
    assert mms2(state, 3)[5] == 40 + 2  # rounds 1 and 2 absent: 1 each (genMMS2ValueAbsent)


def test_late_entrant_one_missed_round_rounds_down_to_nothing() -> None:
    state = _state(PlayedGame(1, 3, 1, Result.BLACK), late=2)
    assert mms2(state, 2)[5] == 40  # ½ for round 1, rounded down (genRoundDownNBWMMS)


def test_sos_sums_the_opponents_mms() -> None:
    state = _state(PlayedGame(1, 3, 1, Result.BLACK), PlayedGame(1, 2, 4, Result.BLACK))
    scores = mms2(state, 2)
    assert sos2(state, 2) == {
        1: scores[3],
        2: scores[4],
        3: scores[1],
        4: scores[2],
        5: 2 * 20,  # absent in round 1: a virtual opponent on its own start MMS (SOSM)
    }


def test_sos_counts_handicap_stones_as_opengotha_sosm() -> None:
    state = _state(PlayedGame(1, 4, 3, Result.WHITE, handicap=4))
    # 4 (black, MMS 10) took 4 stones from 3 (white, MMS 26 after the win): white's SOS counts
    # black as 10 + 4, black's counts white as 26 - 4 (OpenGotha: osmX2 += 2 * handicap)
    assert sos2(state, 2)[3] == 2 * (10 + 4)
    assert sos2(state, 2)[4] == 2 * (26 - 4)


def test_a_game_without_result_scores_nothing_but_counts_as_played() -> None:
    state = _state(PlayedGame(1, 1, 2, Result.NONE))
    assert mms2(state, 2)[1] == mms2(state, 1)[1] == 64
    assert sos2(state, 2)[1] == 64  # the opponent's MMS, not a virtual one


def test_colour_balance_counts_even_games_only() -> None:
    state = _state(
        PlayedGame(1, 3, 1, Result.BLACK),
        PlayedGame(1, 4, 2, Result.BLACK, handicap=4),
        PlayedGame(2, 1, 2, Result.BLACK),
    )
    assert colour_balance(state, 3) == {1: 0, 2: 1, 3: -1, 4: 0, 5: 0}
    assert colour_balance(state, 2) == {1: 1, 2: 0, 3: -1, 4: 0, 5: 0}


def test_opponents_and_byes_had_look_only_before_the_round() -> None:
    state = _state(PlayedGame(1, 3, 1, Result.BLACK), byes=(Bye(1, 5), Bye(2, 4)))
    assert opponents(state, 2)[1] == {3}
    assert opponents(state, 1)[1] == set()
    assert byes_had(state, 2) == {1: 0, 2: 0, 3: 0, 4: 0, 5: 1}
    assert byes_had(state, 3)[4] == 1


CORE = {
    Result.BLACK: core.Result.BLACK,
    Result.WHITE: core.Result.WHITE,
    Result.JIGO: core.Result.JIGO,
    Result.NONE: None,
}


@st.composite
def played(
    draw: st.DrawFn,
) -> tuple[TournamentState, tuple[sd.Entrant, ...], list[sd.RoundGame], list[sd.Unpaired], int]:
    """A random McMahon tournament, written both as a pairing state and, independently, as the
    standings' input: late entrants and withdrawn players miss rounds (absent), odd counts
    give a bye, games have random results and handicaps."""
    n = draw(st.integers(2, 9))
    rounds = draw(st.integers(1, 5))
    players = tuple(
        Entrant(i, Rank(draw(st.integers(-29, 7))), draw(st.integers(1, rounds)))
        for i in range(1, n + 1)
    )
    left = {p.id: draw(st.integers(2, rounds + 1)) for p in players}  # first round away
    withdrawn = frozenset(p for p in left if left[p] <= rounds and draw(st.booleans()))
    state = TournamentState(MCMAHON, players)
    entrants = tuple(sd.Entrant(p.id, mms_start(state, p)) for p in players)
    games: list[PlayedGame] = []
    byes: list[Bye] = []
    round_games: list[sd.RoundGame] = []
    unpaired: list[sd.Unpaired] = []
    for rnd in range(1, rounds + 1):
        here = [
            p.id
            for p in players
            if p.first_round <= rnd and not (p.id in withdrawn and rnd >= left[p.id])
        ]
        unpaired += [sd.Unpaired(rnd, p.id, "absent") for p in players if p.id not in here]
        order = draw(st.permutations(here))
        if len(order) % 2:
            byes.append(Bye(rnd, order[-1]))
            unpaired.append(sd.Unpaired(rnd, order[-1], "bye"))
        for black, white in zip(order[0::2], order[1::2], strict=False):
            result = draw(st.sampled_from(Result))
            stones = draw(st.sampled_from((0, 0, 2, 5)))
            games.append(PlayedGame(rnd, black, white, result, stones))
            round_games.append(sd.RoundGame(rnd, black, white, CORE[result], stones))
    state = TournamentState(MCMAHON, players, tuple(games), tuple(byes), withdrawn)
    return state, entrants, round_games, unpaired, rounds


@given(played(), st.data())
def test_pairing_scores_are_the_standings_scores_doubled(
    tournament: tuple[
        TournamentState, tuple[sd.Entrant, ...], list[sd.RoundGame], list[sd.Unpaired], int
    ],
    data: st.DataObject,
) -> None:
    state, entrants, games, unpaired, rounds = tournament
    before = data.draw(st.integers(1, rounds + 1))
    lines = sd.standings(
        entrants,
        [g for g in games if g.round < before],
        [u for u in unpaired if u.round < before],
        rounds=before - 1,
    )
    mms, sos = mms2(state, before), sos2(state, before)
    for line in lines:
        assert mms[line.id] == 2 * line.mms
        assert sos[line.id] == 2 * line.sosm
