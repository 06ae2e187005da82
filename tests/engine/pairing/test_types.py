"""engine.pairing.types: inconsistent settings and states are refused, nothing half-made."""

from __future__ import annotations

import pytest

from engine.errors import RuleError
from engine.pairing import (
    Entrant,
    PairingSettings,
    PlayedGame,
    RankHandicap,
    Result,
    TournamentState,
)
from engine.ranks import Rank


def test_inconsistent_states_are_refused() -> None:
    with pytest.raises(RuleError):
        PairingSettings(bar=Rank.kyu(5), floor=Rank.kyu(2))
    with pytest.raises(RuleError):
        TournamentState(PairingSettings(), (Entrant(1, Rank.kyu(1)), Entrant(1, Rank.kyu(2))))
    with pytest.raises(RuleError):
        TournamentState(
            PairingSettings(), (Entrant(1, Rank.kyu(1)),), (PlayedGame(1, 1, 2, Result.BLACK),)
        )
    with pytest.raises(RuleError):
        RankHandicap(-1)
    with pytest.raises(RuleError):
        Entrant(1, Rank.kyu(1), first_round=0)
