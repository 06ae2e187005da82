"""A club's EGF GoR settings (rules.md §6, §5) and how ``/club set`` reads them."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from engine.errors import EngineError
from engine.gor.formula import CLASS_WEIGHTS
from engine.handicap import EVEN_KOMI
from engine.settings import Setting, choice
from engine.text import Msg, Typed

CLUB_CLASS = "C"  # rules.md §6 Decision: single club games are rated as class C


@dataclass(frozen=True, slots=True)
class GorParams:
    """A club's GoR settings.

    ``club_class``: the tournament class single club games are rated as (rules.md §6
    Decision: C unless the club sets another; D for an online club). ``even_komi``: the
    even-game komi of handicap advice (rules.md §5; the club's own komi setting applies at
    the edge, as under the other Elo-like systems).
    """

    club_class: str = CLUB_CLASS
    even_komi: Fraction = EVEN_KOMI

    def __post_init__(self) -> None:
        if self.club_class not in CLASS_WEIGHTS:
            allowed = ", ".join(CLASS_WEIGHTS)
            raise EngineError(
                Msg(
                    "the club games' GoR class must be one of {allowed}, not {value} "
                    "(e.g. {example})",
                    allowed=allowed,
                    value=Typed(str(self.club_class)),
                    example="/club set gor.club_class B",
                )
            )


SETTINGS: tuple[Setting, ...] = (
    choice(
        "gor.club_class",
        Msg(
            "the EGF tournament class single club games are rated as (A 1.00, B 0.75, C 0.50, "
            "D 0.25 online)"
        ),
        params=GorParams,
        field="club_class",
        choices=CLASS_WEIGHTS,
        example="B",
        rule=Msg("EGF GoR: club games count as class C unless the club sets another class"),
    ),
)
