"""The scores pairing needs: MMS (twice over, as OpenGotha keeps it), SOS, colour balance.

OpenGotha keeps every score doubled (``mms2``) so half points stay integers; so does this
module. Its defaults (GeneralParameterSet): a win 2, a jigo 1; a bye ``genMMS2ValueBye`` = 2
(a full point); a round not played ``genMMS2ValueAbsent`` = 1 (half a point: a late entrant's
earlier rounds, a withdrawn player's later ones). The full standings (SOSOS, SODOS, tie-breaks)
belong to the standings helper; this is the minimum pairing reads.
"""

from __future__ import annotations

from engine.pairing.types import (
    MMS_ZERO,
    Entrant,
    PlayedGame,
    Result,
    System,
    TournamentState,
)
from engine.types import PlayerId

WIN2 = 2  # a win, doubled
JIGO2 = 1  # a jigo, doubled
BYE2 = 2  # OpenGotha genMMS2ValueBye default
ABSENT2 = 1  # OpenGotha genMMS2ValueAbsent default


def mms_start(state: TournamentState, player: Entrant) -> int:
    """MMS0 = the rank clamped to [floor, bar], counted from OpenGotha's genMMZero (30k).

    Swiss and round robin start everyone at 0 (OpenGotha's Swiss pairs on wins).
    """
    settings = state.settings
    if settings.system is not System.MCMAHON:
        return 0
    return player.rank.clamp(settings.floor, settings.bar) - MMS_ZERO


def points2(game: PlayedGame, player: PlayerId) -> int:
    """Doubled points ``player`` scored in ``game`` (win 2, jigo 1, loss or no result 0)."""
    if game.result is Result.JIGO:
        return JIGO2
    winner = {Result.BLACK: game.black, Result.WHITE: game.white}.get(game.result)
    return WIN2 if winner == player else 0


def mms2(state: TournamentState, before_round: int) -> dict[PlayerId, int]:
    """Each entrant's doubled MMS over rounds 1 … ``before_round`` − 1.

    Every earlier round counts once: the game's points, a bye's ``BYE2``, else ``ABSENT2``.
    """
    scores = {p.id: 2 * mms_start(state, p) for p in state.players}
    played: dict[tuple[int, PlayerId], int] = {}
    for game in state.games:
        if game.round < before_round:
            for who in (game.black, game.white):
                played[game.round, who] = points2(game, who)
    for bye in state.byes:
        if bye.round < before_round:
            played[bye.round, bye.player] = BYE2
    for player in state.players:
        for rnd in range(1, before_round):
            scores[player.id] += played.get((rnd, player.id), ABSENT2)
    return scores


def sos2(state: TournamentState, before_round: int) -> dict[PlayerId, int]:
    """Doubled SOS: the sum of the real opponents' doubled MMS (byes and absences add none)."""
    scores = mms2(state, before_round)
    sos = dict.fromkeys(scores, 0)
    for game in state.games:
        if game.round < before_round:
            sos[game.black] += scores[game.white]
            sos[game.white] += scores[game.black]
    return sos


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
