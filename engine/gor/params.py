"""A club's EGF GoR settings (rules.md §6, §5) and how ``/club set`` reads them."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from engine.errors import EngineError
from engine.gor.formula import CLASS_WEIGHTS
from engine.handicap import EVEN_KOMI
from engine.settings import Setting, SettingValue

CLUB_CLASS = "C"  # rules.md §6 Decision: single club games are rated as class C
CLASS_EXAMPLE = "/club set gor.club_class B"
KOMI_EXAMPLE = "/club set gor.even_komi 6.5"


@dataclass(frozen=True, slots=True)
class GorParams:
    """A club's GoR settings.

    ``club_class``: the tournament class single club games are rated as (rules.md §6
    Decision: C unless the club sets another; D for an online club). ``even_komi``: the
    even-game komi of handicap advice (rules.md §5, default 6.5).
    """

    club_class: str = CLUB_CLASS
    even_komi: Fraction = EVEN_KOMI

    def __post_init__(self) -> None:
        if not isinstance(self.club_class, str) or self.club_class not in CLASS_WEIGHTS:
            raise EngineError(_class_message(str(self.club_class)))
        komi: object = self.even_komi
        if not isinstance(komi, Fraction | int) or komi < 0 or (komi * 2) % 1:
            raise EngineError(_komi_message(str(self.even_komi)))


def _class_message(text: str) -> str:
    allowed = ", ".join(CLASS_WEIGHTS)
    return (
        f"the club games' GoR class must be one of {allowed}, not {text!r} (e.g. {CLASS_EXAMPLE})"
    )


def _komi_message(text: str) -> str:
    return (
        f"the even-game komi must be 0 or more in half points, like 6.5 or 7, not {text!r} "
        f"(e.g. {KOMI_EXAMPLE})"
    )


def read_club_class(text: str) -> SettingValue:
    """A class letter A–D, any case.

    Raises:
        EngineError: naming the allowed letters and an example.
    """
    letter = text.strip().upper()
    if letter not in CLASS_WEIGHTS:
        raise EngineError(_class_message(text.strip()))
    return letter


def read_even_komi(text: str) -> SettingValue:
    """A komi in half points: ``6.5``, ``7``, ``0``.

    Raises:
        EngineError: for anything else, with an example.
    """
    try:
        komi = Fraction(text.strip().replace(",", "."))
    except (ValueError, ZeroDivisionError):
        raise EngineError(_komi_message(text.strip())) from None
    if komi < 0 or (komi * 2).denominator != 1:
        raise EngineError(_komi_message(text.strip()))
    return komi


def show_club_class(value: SettingValue) -> str:
    return str(value)


def show_komi(value: SettingValue) -> str:
    if not isinstance(value, Fraction | int):
        return str(value)
    komi = Fraction(value)
    return str(komi.numerator) if komi.denominator == 1 else f"{float(komi):.1f}"


SETTINGS: tuple[Setting, ...] = (
    Setting(
        key="gor.club_class",
        summary="the EGF tournament class single club games are rated as (A 1.00, B 0.75, "
        "C 0.50, D 0.25 online)",
        default=CLUB_CLASS,
        read=read_club_class,
        show=show_club_class,
        example=CLASS_EXAMPLE,
        field="club_class",
        rule="EGF GoR: club games count as class C unless the club sets another class",
    ),
    Setting(
        key="gor.even_komi",
        summary="the komi of an even game in handicap advice",
        default=EVEN_KOMI,
        read=read_even_komi,
        show=show_komi,
        example=KOMI_EXAMPLE,
        field="even_komi",
        rule="handicap advice: the club's even-game komi, 6.5 unless the club sets another",
        rates=False,
    ),
)

SETTINGS_BY_KEY = {setting.key: setting for setting in SETTINGS}
