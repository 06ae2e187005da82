"""engine.pairing.scores: MMS doubled as OpenGotha keeps it, SOS, colour balance."""

from __future__ import annotations

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


def test_sos_sums_the_opponents_mms() -> None:
    state = _state(PlayedGame(1, 3, 1, Result.BLACK), PlayedGame(1, 2, 4, Result.BLACK))
    scores = mms2(state, 2)
    assert sos2(state, 2) == {
        1: scores[3],
        2: scores[4],
        3: scores[1],
        4: scores[2],
        5: 0,
    }


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
