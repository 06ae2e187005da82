"""The pairing engine (issue 25, Build 2): pure, deterministic, no I/O.

``pair(state, round)`` pairs a McMahon or Swiss round by maximum-weight matching with
OpenGotha's criteria in order, or a round robin by Berger tables; ``engine.pairing.scores``
gives the MMS, SOS and colour balance it reads; ``engine.pairing.standings`` the standings
(MMS, SOS, SOSOS, SODOS and the tie-break order) exactly as OpenGotha computes them.
"""

from engine.pairing.pair import berger_round, choose_bye, pair
from engine.pairing.types import (
    Board,
    Bye,
    Entrant,
    HandicapPolicy,
    HandicapRule,
    NoHandicap,
    Pairing,
    PairingSettings,
    PlayedGame,
    RankHandicap,
    Result,
    System,
    TournamentState,
)

__all__ = [
    "Board",
    "Bye",
    "Entrant",
    "HandicapPolicy",
    "HandicapRule",
    "NoHandicap",
    "Pairing",
    "PairingSettings",
    "PlayedGame",
    "RankHandicap",
    "Result",
    "System",
    "TournamentState",
    "berger_round",
    "choose_bye",
    "pair",
]
