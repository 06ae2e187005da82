"""engine.pairing.pair: the pairing properties of issue 25's Done-when, then worked examples."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.handicap import rank_handicap
from engine.pairing import (
    Bye,
    Entrant,
    HandicapPolicy,
    NoHandicap,
    Pairing,
    PairingSettings,
    PlayedGame,
    RankHandicap,
    Result,
    System,
    TournamentState,
    berger_round,
    pair,
)
from engine.pairing.scores import colour_balance, mms2, opponents
from engine.ranks import Rank
from engine.system import HandicapAdvice
from engine.types import PlayerId


def _half_rank(a: PlayerId, rank_a: Rank, b: PlayerId, rank_b: Rank) -> HandicapAdvice:
    """A stand-in for a club system's table: half the rank difference, rounded down."""
    black, white = (a, b) if rank_a <= rank_b else (b, a)
    stones = abs(rank_a - rank_b) // 2
    return HandicapAdvice(black, white, stones, Fraction(0 if stones else 7))


POLICIES: list[HandicapPolicy] = [NoHandicap(), RankHandicap(0), RankHandicap(2), _half_rank]


def _expected_stones(policy: HandicapPolicy, a: Entrant, b: Entrant) -> int:
    if isinstance(policy, NoHandicap):
        return 0
    if isinstance(policy, RankHandicap):
        return min(9, max(0, abs(a.rank - b.rank) - policy.reduction))
    return policy(a.id, a.rank, b.id, b.rank).stones


@st.composite
def tournaments(draw: st.DrawFn, max_players: int = 14) -> tuple[TournamentState, int, int]:
    """A field, settings, a number of rounds, and a seed for the results."""
    n = draw(st.integers(2, max_players))
    ranks = draw(st.lists(st.integers(-29, 7), min_size=n, max_size=n))
    rounds = draw(st.integers(1, 5))
    late = draw(st.lists(st.integers(1, 3), min_size=n, max_size=n))
    players = tuple(
        Entrant(i + 1, Rank(r), first_round=late[i] if i % 4 == 3 else 1)
        for i, r in enumerate(ranks)
    )
    system = draw(st.sampled_from([System.MCMAHON, System.SWISS]))
    floor = draw(st.integers(-29, 0))
    bar = draw(st.integers(floor, 9))
    policy = draw(st.sampled_from(POLICIES))
    state = TournamentState(PairingSettings(system, Rank(bar), Rank(floor), policy), players)
    return state, rounds, draw(st.integers(0, 2**16))


def _play(state: TournamentState, rounds: int, seed: int) -> list[tuple[TournamentState, Pairing]]:
    """Pair and play ``rounds`` rounds with random results; a player may withdraw after one."""
    rng = random.Random(seed)
    history = []
    for rnd in range(1, rounds + 1):
        present = [
            p for p in state.players if p.first_round <= rnd and p.id not in state.withdrawn
        ]
        if len(present) < 2:
            break
        pairing = pair(state, rnd)
        history.append((state, pairing))
        results = [Result.BLACK, Result.WHITE, Result.JIGO, Result.NONE]
        games = tuple(
            PlayedGame(rnd, b.black, b.white, rng.choice(results), b.handicap)
            for b in pairing.boards
        )
        byes = (Bye(rnd, pairing.bye),) if pairing.bye is not None else ()
        withdrawn = state.withdrawn
        if rng.random() < 0.2:
            withdrawn |= {rng.choice(present).id}
        state = TournamentState(
            state.settings, state.players, state.games + games, state.byes + byes, withdrawn
        )
    return history


def _present(state: TournamentState, rnd: int) -> set[PlayerId]:
    return {p.id for p in state.players if p.first_round <= rnd and p.id not in state.withdrawn}


@given(tournaments())
@settings(max_examples=150, deadline=None)
def test_everyone_present_plays_once_and_byes_never_twice(
    case: tuple[TournamentState, int, int],
) -> None:
    given_byes: Counter[PlayerId] = Counter()
    history = _play(*case)
    for state, pairing in history:
        seated = [p for b in pairing.boards for p in (b.black, b.white)]
        if pairing.bye is not None:
            present = _present(state, pairing.round)
            assert given_byes[pairing.bye] == min(given_byes[p] for p in present)
            seated.append(pairing.bye)
            given_byes[pairing.bye] += 1
        assert len(seated) == len(set(seated))
        assert set(seated) == _present(state, pairing.round)
        assert (pairing.bye is not None) == (len(seated) % 2 == 1)
        assert [b.number for b in pairing.boards] == list(range(1, len(pairing.boards) + 1))
    fewest_present = min((len(_present(s, p.round)) for s, p in history), default=0)
    if len(history) <= fewest_present:  # as many players as rounds: a bye never comes twice
        assert all(count == 1 for count in given_byes.values())


def _perfect_matchings(ids: list[PlayerId]) -> list[list[tuple[PlayerId, PlayerId]]]:
    if not ids:
        return [[]]
    first, rest = ids[0], ids[1:]
    return [
        [(first, other), *tail]
        for i, other in enumerate(rest)
        for tail in _perfect_matchings(rest[:i] + rest[i + 1 :])
    ]


def _cost(
    state: TournamentState, rnd: int, games: list[tuple[PlayerId, PlayerId]]
) -> tuple[int, int, int]:
    """(rematches, sum of squared MMS differences, sum of squared colour imbalances after)."""
    met = opponents(state, rnd)
    scores = mms2(state, rnd)
    balance = colour_balance(state, rnd)
    rematches = sum(b in met[a] for a, b in games)
    spread = sum((scores[a] - scores[b]) ** 2 for a, b in games)
    colours = sum(
        min(
            (balance[a] - 1) ** 2 + (balance[b] + 1) ** 2,
            (balance[a] + 1) ** 2 + (balance[b] - 1) ** 2,
        )
        for a, b in games
    )
    return rematches, spread, colours


@given(tournaments(max_players=9))
@settings(max_examples=150, deadline=None)
def test_no_avoidable_rematch_then_closest_scores_then_colours(
    case: tuple[TournamentState, int, int],
) -> None:
    """Brute force over every pairing of the same players: none has fewer rematches; none with
    as few has a smaller sum of squared MMS differences; none with both as small leaves the
    players' colour imbalances (whites − blacks, squared, summed) smaller."""
    for state, pairing in _play(*case):
        ours = [(b.black, b.white) for b in pairing.boards]
        ids = sorted(p for game in ours for p in game)
        best = min(_cost(state, pairing.round, m) for m in _perfect_matchings(ids))
        assert _cost(state, pairing.round, ours) == best


@given(tournaments())
@settings(max_examples=150, deadline=None)
def test_colours_and_handicap_as_configured(case: tuple[TournamentState, int, int]) -> None:
    for state, pairing in _play(*case):
        policy = state.settings.handicap
        by_id = {p.id: p for p in state.players}
        balance = colour_balance(state, pairing.round)
        for board in pairing.boards:
            black, white = by_id[board.black], by_id[board.white]
            assert board.handicap == _expected_stones(policy, black, white)
            if board.handicap:
                assert black.rank <= white.rank  # the weaker takes black
            else:
                assert balance[black.id] >= balance[white.id]  # more whites so far: black now
            if isinstance(policy, NoHandicap):
                assert board.komi is None
            elif isinstance(policy, RankHandicap):
                advice = rank_handicap(
                    black.id, black.rank, white.id, white.rank, reduction=policy.reduction
                )
                assert board.komi == advice.komi
            else:
                assert board.komi == policy(black.id, black.rank, white.id, white.rank).komi


@given(tournaments(), st.randoms(use_true_random=False))
@settings(max_examples=100, deadline=None)
def test_same_state_same_pairing(
    case: tuple[TournamentState, int, int], rng: random.Random
) -> None:
    for state, pairing in _play(*case):
        players, games, byes = list(state.players), list(state.games), list(state.byes)
        rng.shuffle(players)
        rng.shuffle(games)
        rng.shuffle(byes)
        shuffled = TournamentState(
            state.settings, tuple(players), tuple(games), tuple(byes), state.withdrawn
        )
        assert pair(shuffled, pairing.round) == pairing
        assert pair(state, pairing.round) == pairing


@pytest.mark.parametrize("n", range(2, 13))
def test_round_robin_meets_everyone_once(n: int) -> None:
    players = tuple(Entrant(i, Rank(3 - i)) for i in range(1, n + 1))
    state = TournamentState(PairingSettings(System.ROUNDROBIN), players)
    rounds = n - 1 if n % 2 == 0 else n
    met: Counter[frozenset[PlayerId]] = Counter()
    byes: Counter[PlayerId] = Counter()
    for rnd in range(1, rounds + 1):
        pairing = pair(state, rnd)
        seated = [p for b in pairing.boards for p in (b.black, b.white)]
        assert len(seated) == len(set(seated))
        met.update(frozenset((b.black, b.white)) for b in pairing.boards)
        if pairing.bye is not None:
            byes[pairing.bye] += 1
        games = tuple(PlayedGame(rnd, b.black, b.white, Result.BLACK) for b in pairing.boards)
        more = (Bye(rnd, pairing.bye),) if pairing.bye is not None else ()
        state = TournamentState(state.settings, players, state.games + games, state.byes + more)
    assert set(met) == {frozenset(pair_) for pair_ in itertools.combinations(range(1, n + 1), 2)}
    assert set(met.values()) == {1}
    assert byes == (Counter(range(1, n + 1)) if n % 2 else Counter())
    with pytest.raises(RuleError):
        pair(state, rounds + 1)


def test_round_robin_leaves_the_opponent_of_a_withdrawn_player_idle() -> None:
    players = tuple(Entrant(i, Rank.kyu(i)) for i in range(1, 5))
    state = TournamentState(PairingSettings(System.ROUNDROBIN), players, withdrawn=frozenset({4}))
    pairing = pair(state, 1)
    assert len(pairing.boards) == 1
    assert pairing.bye is None
    assert len(pairing.idle) == 1
    assert 4 not in {p for b in pairing.boards for p in (b.black, b.white)} | set(pairing.idle)


def test_berger_round_one_is_the_first_against_the_last() -> None:
    assert berger_round([1, 2, 3, 4, 5, 6], 1) == [(1, 6), (2, 5), (3, 4)]


def test_bye_goes_to_the_lowest_mms_then_weakest_who_has_had_none() -> None:
    players = (
        Entrant(1, Rank.dan(1)),
        Entrant(2, Rank.kyu(5)),
        Entrant(3, Rank.kyu(12)),
        Entrant(4, Rank.kyu(25)),
        Entrant(5, Rank.kyu(22)),
    )
    state = TournamentState(PairingSettings(System.MCMAHON, Rank.dan(3), Rank.kyu(20)), players)
    assert pair(state, 1).bye == 4  # at the floor with 5, but weaker: rank + 2·MMS is lowest
    after = TournamentState(state.settings, players, byes=(Bye(1, 4),))
    assert pair(after, 2).bye == 5


def test_club_tournament_13_players_4_rounds_late_entry_and_withdrawal() -> None:
    """13 players, McMahon bar 3d floor 20k, handicap rank-2; player 14 enters in round 2,
    player 7 withdraws after round 3; results: the stronger (then black) wins."""
    ranks = ["5d", "3d", "2d", "1d", "1k", "2k", "4k", "6k", "9k", "12k", "15k", "20k", "25k"]
    players = tuple(Entrant(i, Rank.parse(r)) for i, r in enumerate(ranks, start=1))
    players += (Entrant(14, Rank.kyu(3), first_round=2),)
    settings_ = PairingSettings(System.MCMAHON, Rank.dan(3), Rank.kyu(20), RankHandicap(2))
    state = TournamentState(settings_, players)
    by_id = {p.id: p for p in players}
    pairings = []
    for rnd in range(1, 5):
        if rnd == 4:
            state = TournamentState(settings_, players, state.games, state.byes, frozenset({7}))
        pairing = pair(state, rnd)
        pairings.append(pairing)
        games = tuple(
            PlayedGame(
                rnd,
                b.black,
                b.white,
                Result.WHITE if by_id[b.white].rank > by_id[b.black].rank else Result.BLACK,
                b.handicap,
            )
            for b in pairing.boards
        )
        byes = (Bye(rnd, pairing.bye),) if pairing.bye is not None else ()
        state = TournamentState(
            settings_, players, state.games + games, state.byes + byes, state.withdrawn
        )
    first, second, _, fourth = pairings
    # round 1: 13 present, the 25k (at the 20k floor, the weakest) sits out
    assert first.bye == 13 and len(first.boards) == 6
    # the 5d and 3d share the bar group and meet on board 1, even (rank-2: 2 steps → 0)
    assert {first.boards[0].black, first.boards[0].white} == {1, 2}
    assert first.boards[0].handicap == 0 and first.boards[0].komi == Fraction(13, 2)
    # round 2: the late 3k makes 14: nobody sits out
    assert second.bye is None and len(second.boards) == 7
    assert 14 in {p for b in second.boards for p in (b.black, b.white)}
    # round 4: the withdrawn 4k is not paired; 13 present, a new player gets the bye
    seated4 = {p for b in fourth.boards for p in (b.black, b.white)}
    assert 7 not in seated4 and fourth.bye not in {13, 7, None}
    # no rematch in four rounds; no second bye
    met = Counter(frozenset((g.black, g.white)) for g in state.games)
    assert set(met.values()) == {1}
    assert len({b.player for b in state.byes}) == len(state.byes) == 2
    # the late entrant started on 3k's MMS; its one missed round's ½ is rounded down (OpenGotha)
    assert mms2(state, 2)[14] == 2 * (Rank.kyu(3) - Rank.kyu(30))


def test_a_paired_round_cannot_be_paired_again() -> None:
    players = (Entrant(1, Rank.kyu(1)), Entrant(2, Rank.kyu(2)))
    state = TournamentState(PairingSettings(), players, (PlayedGame(1, 2, 1, Result.BLACK),))
    with pytest.raises(RuleError):
        pair(state, 1)
    with pytest.raises(RuleError):
        pair(state, 0)
    assert pair(state, 2).boards[0].black in {1, 2}


def test_split_and_fold_within_a_score_group() -> None:
    """Four players above a 1k bar share one group: the first meets the last (OpenGotha's
    PAIMA_SEED_SPLITANDFOLD), the stronger of each board takes white in an even game."""
    players = tuple(Entrant(i, Rank.dan(6 - i)) for i in range(1, 5))
    state = TournamentState(PairingSettings(System.MCMAHON, Rank.kyu(1), Rank.kyu(20)), players)
    boards = pair(state, 1).boards
    assert [(b.black, b.white) for b in boards] == [(4, 1), (3, 2)]
