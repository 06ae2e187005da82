"""Pair a round: McMahon and Swiss by maximum-weight matching, round robin by Berger tables.

Why networkx's ``max_weight_matching``: the players and every allowed game form a *general*
graph (not bipartite), and Edmonds' blossom algorithm finds the exact optimum on it in O(n³) —
for a club field of 10–60 players that is milliseconds. OpenGotha pairs the same way (a
maximum-weight matching over weighted edges); a greedy pairing would not be optimal and a
hand-written blossom algorithm would be a liability. networkx is pure Python and well kept.

Each possible game is weighted by OpenGotha's criteria (PairingParameterSet), one level per
criterion, each level worth more than all lower levels of a whole round together, so they
apply strictly in order:

1. ``paiBaAvoidDuplGame``: no rematch (a rematch only when no pairing avoids it);
2. ``paiMaMinimizeScoreDifference``: same MMS group; the penalty grows with the square of the
   difference (OpenGotha's cost is concave too), so two one-point draws beat one two-point draw;
3. ``paiBaBalanceWB``: colour balance — each game is worth less the more colour imbalance
   (whites − blacks in even games, squared) its two players are left with;
4. ``paiMaMaximizeSeeding`` with ``PAIMA_SEED_SPLITANDFOLD`` (OpenGotha's ``paiMaSeedSystem2``):
   within a group ordered by SOS then rank, the first meets the last, the second the one before
   last. Ours: split-and-fold from round 1 too (OpenGotha's round 1 default is split-and-random;
   hoshi uses no randomness).

Ours: colour balance before the fold. OpenGotha's weights are not strictly lexicographic there
(seeding 5·10⁶ at most, colour 10⁶, and a fold a little off costs less than a colour clash),
so colour usually wins over a near-fold in OpenGotha too; strict levels keep ours checkable.
No order keeps everyone within one colour: a score group of players all owed black forces a
clash (the rematch and score criteria come first), as in OpenGotha.

The handicap is not a criterion: each board gets the stones the policy sets. Ties are broken
by a stable order (players sorted by id before the graph is built), so the same state always
gives the same pairing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import TypeVar

import networkx as nx  # type: ignore[import-untyped]

from engine.errors import RuleError
from engine.handicap import rank_handicap
from engine.pairing.scores import (
    byes_had,
    colour_balance,
    mms2,
    mms2_of,
    opponents,
    scored,
    sos2_of,
)
from engine.pairing.types import (
    Board,
    Entrant,
    NoHandicap,
    Pairing,
    RankHandicap,
    System,
    TournamentState,
)
from engine.text import Msg, plural
from engine.types import PlayerId

T = TypeVar("T")

BYE_WEIGHT_PER_BYE = 1000  # OpenGotha chooseAByePlayer: 1000 × byes had + rank + MMS×2


def pair(state: TournamentState, round: int) -> Pairing:
    """The pairing of ``round`` (1-based) from the games, byes and withdrawals before it.

    Raises:
        RuleError: the round is not after every played round, or fewer than two can play.
    """
    if round < 1:
        raise RuleError(Msg("rounds are numbered from 1, not {n}", n=round))
    if any(g.round >= round for g in state.games) or any(b.round >= round for b in state.byes):
        raise RuleError(Msg("round {n} or a later one is already paired", n=round))
    if state.settings.system is System.ROUNDROBIN:
        return _round_robin(state, round)
    present = [p for p in _stable(state.players) if _present(p, state, round)]
    if len(present) < 2:
        raise RuleError(Msg("round {n}: fewer than two players to pair", n=round))
    standing = scored(state, round)  # once: MMS and SOS both come from it
    scores = mms2_of(standing)
    bye = choose_bye(state, round, present, scores) if len(present) % 2 else None
    players = [p for p in present if p.id != bye]
    games = _match(state, round, players, scores, sos2_of(standing))
    return Pairing(round, _boards(state, round, games, scores), bye)


def choose_bye(
    state: TournamentState,
    round: int,
    present: list[Entrant],
    scores: Mapping[PlayerId, int] | None = None,
) -> PlayerId:
    """OpenGotha's ``chooseAByePlayer``: the lowest weight rank + MMS×2 + 1000 × byes had
    (``scores``: the doubled MMS when the caller has it, else :func:`mms2`).

    Ours: never a second bye while someone present has had none (OpenGotha's 1000 only makes a
    second one unlikely). Ties go to the weaker, then the higher id (the stable order's last).
    """
    if scores is None:
        scores = mms2(state, round)
    had = byes_had(state, round)
    fewest = min(had[p.id] for p in present)
    candidates = [p for p in present if had[p.id] == fewest]

    def weight(p: Entrant) -> tuple[int, int, int]:
        w = p.rank.step + scores[p.id] + BYE_WEIGHT_PER_BYE * had[p.id]
        return (w, p.rank.step, -p.id)

    return min(candidates, key=weight).id


def _stable(players: Iterable[Entrant]) -> list[Entrant]:
    return sorted(players, key=lambda p: p.id)


def _present(player: Entrant, state: TournamentState, round: int) -> bool:
    return player.first_round <= round and player.id not in state.withdrawn


def _match(
    state: TournamentState,
    round: int,
    players: list[Entrant],
    scores: dict[PlayerId, int],
    sos: dict[PlayerId, int],
) -> list[tuple[Entrant, Entrant]]:
    """The maximum-weight perfect matching of ``players`` (an even count), by the doubled
    MMS ``scores`` and SOS ``sos``."""
    met = opponents(state, round)
    balance = colour_balance(state, round)
    position: dict[PlayerId, tuple[int, int]] = {}  # id → (index in its group, group size)
    groups: dict[int, list[Entrant]] = {}
    for p in players:
        groups.setdefault(scores[p.id], []).append(p)
    for members in groups.values():
        members.sort(key=lambda p: (-sos[p.id], -p.rank.step, p.id))
        for i, p in enumerate(members):
            position[p.id] = (i, len(members))
    values = [scores[p.id] for p in players]
    span = max(values) - min(values) + 1
    worst = max(abs(balance[p.id]) for p in players) + 1
    top = max(span * span, len(players) ** 2, 2 * worst * worst) + 1
    base = (len(players) // 2 + 1) * top  # one level outweighs a whole round of the next

    graph = nx.Graph()
    graph.add_nodes_from(p.id for p in players)
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            fresh = 0 if b.id in met[a.id] else 1
            diff = abs(scores[a.id] - scores[b.id])
            score = span * span - diff * diff
            seed = 0
            if diff == 0:
                (ia, size), (ib, _) = position[a.id], position[b.id]
                seed = size * size - (ia + ib - (size - 1)) ** 2
            wa, wb = balance[a.id], balance[b.id]
            after = min((wa - 1) ** 2 + (wb + 1) ** 2, (wa + 1) ** 2 + (wb - 1) ** 2)
            colour = top - after
            weight = ((fresh * base + score) * base + colour) * base + seed
            graph.add_edge(a.id, b.id, weight=weight + 1)
    matching: set[tuple[PlayerId, PlayerId]] = nx.max_weight_matching(graph, maxcardinality=True)
    by_id = {p.id: p for p in players}
    pairs = [tuple(sorted(edge)) for edge in matching]
    return [(by_id[x], by_id[y]) for x, y in sorted(pairs)]


def _boards(
    state: TournamentState,
    round: int,
    games: list[tuple[Entrant, Entrant]],
    scores: dict[PlayerId, int],
) -> tuple[Board, ...]:
    """Colours and stones by the policy; boards ordered by the best MMS, then best rank
    (OpenGotha's ``renumberTablesByBestMMS``)."""
    balance = colour_balance(state, round)
    placed = [_colour(state, a, b, balance) for a, b in games]

    def order(board: tuple[Entrant, Entrant, int, Fraction | None]) -> tuple[int, ...]:
        black, white = board[0], board[1]
        best = max(scores[black.id], scores[white.id])
        total = scores[black.id] + scores[white.id]
        rank = max(black.rank.step, white.rank.step)
        return (-best, -total, -rank, min(black.id, white.id))

    placed.sort(key=order)
    return tuple(
        Board(n, black.id, white.id, stones, komi)
        for n, (black, white, stones, komi) in enumerate(placed, start=1)
    )


def seated(state: TournamentState, round: int, number: int, a: PlayerId, b: PlayerId) -> Board:
    """Board ``number`` of ``round`` for ``a`` and ``b`` with colours and stones as the policy
    gives them (an organiser's swap makes new boards: each is set as pairing would)."""
    by_id = {p.id: p for p in state.players}
    black, white, stones, komi = _colour(state, by_id[a], by_id[b], colour_balance(state, round))
    return Board(number, black.id, white.id, stones, komi)


def _colour(
    state: TournamentState, a: Entrant, b: Entrant, balance: dict[PlayerId, int]
) -> tuple[Entrant, Entrant, int, Fraction | None]:
    """(black, white, stones, komi). With stones the policy's Black (the weaker) takes black;
    an even game goes by colour balance: the one with more whites takes black; equal balance,
    the stronger (then the lower id) takes white."""
    policy = state.settings.handicap
    stones, komi, black_id = 0, None, None
    if isinstance(policy, RankHandicap):
        advice = rank_handicap(
            a.id, a.rank, b.id, b.rank, reduction=policy.reduction, even_komi=policy.even_komi
        )
        stones, komi, black_id = advice.stones, advice.komi, advice.black
    elif not isinstance(policy, NoHandicap):
        advice = policy(a.id, a.rank, b.id, b.rank)
        stones, komi, black_id = advice.stones, advice.komi, advice.black
    if stones > 0:
        return (a, b, stones, komi) if black_id == a.id else (b, a, stones, komi)

    def owed_black(p: Entrant) -> tuple[int, int, int]:
        return (balance[p.id], -p.rank.step, -p.id)

    black, white = (a, b) if owed_black(a) > owed_black(b) else (b, a)
    return (black, white, 0, komi)


def _round_robin(state: TournamentState, round: int) -> Pairing:
    """Berger tables over every entrant in id order (a dummy makes an odd count even; the
    player drawn against it has the bye). Players not present this round (withdrawn, not yet
    entered) leave their scheduled opponent idle. Colours as in a McMahon round."""
    ids: list[PlayerId | None] = [p.id for p in _stable(state.players)]
    if len(ids) < 2:
        raise RuleError(Msg("round {n}: fewer than two players to pair", n=round))
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    if round > n - 1:
        raise RuleError(
            plural(
                "a round robin of {players} has only {n} round",
                "a round robin of {players} has only {n} rounds",
                n - 1,
                players=sum(1 for i in ids if i is not None),
            )
        )
    pairs = berger_round(ids, round)
    by_id = {p.id: p for p in state.players}
    games: list[tuple[Entrant, Entrant]] = []
    bye: PlayerId | None = None
    idle: list[PlayerId] = []
    for x, y in pairs:
        if x is None or y is None:
            bye = x if y is None else y
            continue
        px, py = by_id[x], by_id[y]
        here = [p for p in (px, py) if _present(p, state, round)]
        if len(here) == 2:
            games.append((px, py))
        idle.extend(p.id for p in here if len(here) == 1)
    if bye is not None and not _present(by_id[bye], state, round):
        bye = None
    scores = mms2(state, round)
    return Pairing(round, _boards(state, round, games, scores), bye, tuple(sorted(idle)))


def berger_round(players: list[T], round: int) -> list[tuple[T, T]]:
    """Round ``round`` (1-based) of the Berger table of an even list: the circle method with
    the last player fixed; everyone meets everyone once over ``len(players) − 1`` rounds."""
    n = len(players)
    fixed, circle = players[-1], players[:-1]
    shift = (round - 1) * (n // 2) % (n - 1)
    turned = circle[shift:] + circle[:shift]
    pairs = [(turned[0], fixed)]
    pairs += [(turned[i], turned[n - 1 - i]) for i in range(1, n // 2)]
    return pairs
