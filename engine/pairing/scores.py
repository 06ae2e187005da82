"""The scores pairing needs: MMS and SOS (doubled, as OpenGotha keeps them), colour balance.

MMS and SOS are read from ``engine.pairing.standings`` (OpenGotha's own arithmetic: bye 1,
absent ½ with the unplayed points rounded down, SOSM with virtual opponents and handicap), so
pairing and the standings can never disagree; this module only converts a
:class:`TournamentState` into the standings' input, and keeps the scores doubled so half points
stay integers (OpenGotha's ``mmsX2``).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from engine import types as core
from engine.pairing.standings import Entrant as ScoredEntrant
from engine.pairing.standings import RoundGame, Standing, Unpaired, standings
from engine.pairing.types import MMS_ZERO, Entrant, Result, System, TournamentState
from engine.types import PlayerId

RESULTS: dict[Result, core.Result | None] = {
    Result.BLACK: core.Result.BLACK,
    Result.WHITE: core.Result.WHITE,
    Result.JIGO: core.Result.JIGO,
    Result.NONE: None,  # unknown or both lose: no point to either (OpenGotha)
}


def mms_start(state: TournamentState, player: Entrant) -> int:
    """MMS0 = the rank clamped to [floor, bar], counted from OpenGotha's genMMZero (30k).

    Swiss and round robin start everyone at 0 (OpenGotha's Swiss pairs on wins).
    """
    settings = state.settings
    if settings.system is not System.MCMAHON:
        return 0
    return player.rank.clamp(settings.floor, settings.bar) - MMS_ZERO


def standings_input(
    state: TournamentState, before_round: int
) -> tuple[tuple[ScoredEntrant, ...], tuple[RoundGame, ...], tuple[Unpaired, ...]]:
    """The state's rounds 1 … ``before_round`` − 1 as ``standings`` reads them.

    Each entrant starts on :func:`mms_start`; a game keeps its result (``Result.NONE``: no
    result) and handicap; a bye is an ``Unpaired`` "bye"; every other earlier round in which the
    player has neither game nor bye (a late entrant's earlier rounds, a withdrawn player's later
    ones, an idle round robin round) is an ``Unpaired`` "absent" (OpenGotha genMMS2ValueAbsent).
    """
    entrants = tuple(ScoredEntrant(p.id, mms_start(state, p)) for p in state.players)
    games = tuple(
        RoundGame(g.round, g.black, g.white, RESULTS[g.result], g.handicap)
        for g in state.games
        if g.round < before_round
    )
    byes = tuple(Unpaired(b.round, b.player, "bye") for b in state.byes if b.round < before_round)
    seen = {(g.round, p) for g in games for p in (g.black, g.white)}
    seen |= {(b.round, b.player) for b in byes}
    absent = tuple(
        Unpaired(rnd, p.id, "absent")
        for p in state.players
        for rnd in range(1, before_round)
        if (rnd, p.id) not in seen
    )
    return entrants, games, byes + absent


def scored(state: TournamentState, before_round: int) -> dict[PlayerId, Standing]:
    """Each entrant's standing after round ``before_round`` − 1 (OpenGotha's, see standings)."""
    entrants, games, unpaired = standings_input(state, before_round)
    lines = standings(entrants, games, unpaired, rounds=max(before_round - 1, 0))
    return {s.id: s for s in lines}


def _doubled(value: Fraction) -> int:
    """A score kept in halves as OpenGotha's doubled integer (exact: standings keeps halves)."""
    return int(value * 2)


def mms2(state: TournamentState, before_round: int) -> dict[PlayerId, int]:
    """Each entrant's doubled MMS over rounds 1 … ``before_round`` − 1 (standings' MMS × 2)."""
    return mms2_of(scored(state, before_round))


def sos2(state: TournamentState, before_round: int) -> dict[PlayerId, int]:
    """Doubled SOS: standings' SOSM × 2 (OpenGotha's SOSM: the opponents' MMS adjusted for
    handicap, the player's own start MMS for each round without a game)."""
    return sos2_of(scored(state, before_round))


def mms2_of(standing: Mapping[PlayerId, Standing]) -> dict[PlayerId, int]:
    """:func:`mms2` of standings already computed (:func:`scored`)."""
    return {p: _doubled(s.mms) for p, s in standing.items()}


def sos2_of(standing: Mapping[PlayerId, Standing]) -> dict[PlayerId, int]:
    """:func:`sos2` of standings already computed (:func:`scored`)."""
    return {p: _doubled(s.sosm) for p, s in standing.items()}


def colour_balance(state: TournamentState, before_round: int) -> dict[PlayerId, int]:
    """Whites minus blacks in even games (ours: in a handicap game colour is not a choice)."""
    balance = {p.id: 0 for p in state.players}
    for game in state.games:
        if game.round < before_round and game.handicap == 0:
            balance[game.white] += 1
            balance[game.black] -= 1
    return balance


def opponents(state: TournamentState, before_round: int) -> dict[PlayerId, set[PlayerId]]:
    """Who each entrant has played in rounds before ``before_round``."""
    met: dict[PlayerId, set[PlayerId]] = {p.id: set() for p in state.players}
    for game in state.games:
        if game.round < before_round:
            met[game.black].add(game.white)
            met[game.white].add(game.black)
    return met


def byes_had(state: TournamentState, before_round: int) -> dict[PlayerId, int]:
    """How many byes each entrant has had before ``before_round``."""
    had = {p.id: 0 for p in state.players}
    for bye in state.byes:
        if bye.round < before_round:
            had[bye.player] += 1
    return had
