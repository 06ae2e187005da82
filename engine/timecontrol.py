"""Time controls: base time plus overtime (rules.md, common vocabulary; §1.2 extended time).

Accepted forms (any case, ``+`` or space between parts)::

    unlimited            no time limit
    60m  60  1h  1h30m   base time only (a bare number is minutes)
    60m 3x20s            Japanese byo-yomi, 3 periods of 20 s (``japanese`` optional)
    40m 30/5m canadian   Canadian byo-yomi, 30 moves in 5 min (``canadian`` optional)
    90m+30s fischer      Fischer increment of 30 s a move (``fischer`` optional)
    60m 1x30s japanese
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from engine.errors import TimeControlError
from engine.text import Msg, Typed

TIME_EXAMPLE = Msg(
    "e.g. {examples} or {unlimited}",
    examples="60m, 60m 3x20s japanese, 40m 30/5m canadian, 90m+30s fischer",
    unlimited="unlimited",
)

# MGSZ annex table 2: overtime counts as the time it gives for this many moves (rules.md §1.2)
JAPANESE_MOVES = 45
CANADIAN_MOVES = 60
FISCHER_MOVES = JAPANESE_MOVES  # Decision (rules.md §1.2): Fischer is treated like Japanese


class Overtime(Enum):
    NONE = "none"
    JAPANESE = "japanese"
    CANADIAN = "canadian"
    FISCHER = "fischer"


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Base time plus overtime, in whole seconds.

    ``periods`` is the number of Japanese periods; ``moves`` the moves per Canadian period;
    ``period_s`` the length of a period (Japanese, Canadian) or the increment (Fischer).
    ``unlimited`` games have no clock at all.
    """

    base_s: int
    overtime: Overtime = Overtime.NONE
    period_s: int = 0
    periods: int = 0
    moves: int = 0
    unlimited: bool = False

    def __post_init__(self) -> None:
        if self.base_s < 0 or self.period_s < 0 or self.periods < 0 or self.moves < 0:
            raise TimeControlError(Msg("times and counts cannot be negative"))
        if self.overtime is Overtime.CANADIAN and self.moves <= 0:
            raise TimeControlError(
                Msg("Canadian byo-yomi needs a number of moves, e.g. {example}", example="30/5m")
            )

    @property
    def base_minutes(self) -> Fraction:
        return Fraction(self.base_s, 60)

    @property
    def base_text(self) -> str:
        """The base time in minutes as people write it: ``30``, ``2.5`` (tenths, cut)."""
        tenths = self.base_s // 6
        return str(tenths // 10) if tenths % 10 == 0 else f"{tenths // 10}.{tenths % 10}"

    def extended_s(self) -> Fraction:
        """Base time plus the time overtime gives for a number of moves (MGSZ annex table 2).

        Japanese byo-yomi counts 45 moves (the number of periods does not matter), Canadian
        60 moves (period time × 60 / moves per period); Fischer, which the seed does not
        know, is treated like Japanese (rules.md §1.2, Decision).
        """
        if self.overtime is Overtime.JAPANESE:
            return Fraction(self.base_s + JAPANESE_MOVES * self.period_s)
        if self.overtime is Overtime.CANADIAN:
            return self.base_s + Fraction(self.period_s * CANADIAN_MOVES, self.moves)
        if self.overtime is Overtime.FISCHER:
            return Fraction(self.base_s + FISCHER_MOVES * self.period_s)
        return Fraction(self.base_s)

    def extended_minutes(self) -> Fraction:
        return self.extended_s() / 60

    def __str__(self) -> str:
        if self.unlimited:
            return "unlimited"
        base = _duration(self.base_s)
        if self.overtime is Overtime.JAPANESE:
            return f"{base} {self.periods}x{_duration(self.period_s)} japanese"
        if self.overtime is Overtime.CANADIAN:
            return f"{base} {self.moves}/{_duration(self.period_s)} canadian"
        if self.overtime is Overtime.FISCHER:
            return f"{base}+{_duration(self.period_s)} fischer"
        return base

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Read a time control (forms in the module docstring).

        Raises:
            TimeControlError: naming the part that could not be read, with an example.
        """
        words = text.replace("+", " ").lower().split()
        if not words:
            raise TimeControlError(
                Msg("a time control is missing ({examples})", examples=TIME_EXAMPLE)
            )
        if words in (["unlimited"], ["none"], ["no", "limit"]):
            return cls(base_s=0, unlimited=True)
        kind_word = words[-1] if words[-1] in _KINDS else None
        if kind_word is not None:
            words = words[:-1]
        if not words or len(words) > 2:
            raise TimeControlError(
                Msg(
                    "cannot read the time control {text} ({examples})",
                    text=Typed(text),
                    examples=TIME_EXAMPLE,
                )
            )
        base_s = _seconds(words[0], text, default_unit="m")
        if len(words) == 1:
            if kind_word not in (None, "none", "absolute", "sudden"):
                raise TimeControlError(
                    Msg(
                        "{kind} overtime needs its periods, e.g. {example}",
                        kind=kind_word,
                        example="60m 3x20s japanese",
                    )
                )
            return cls(base_s=base_s)
        return _with_overtime(base_s, words[1], kind_word, text)


_KINDS = {"japanese", "byoyomi", "byo-yomi", "canadian", "fischer", "none", "absolute", "sudden"}


def _digits(word: str) -> bool:
    """Whether ``word`` is a whole number in ASCII digits (another script's digits are not
    read as numbers: issue 26)."""
    return word.isascii() and word.isdecimal()


_DURATION_RE = re.compile(r"^(?:([0-9]+)h)?(?:([0-9]+)m(?:in)?)?(?:([0-9]+)s)?$")


def _seconds(word: str, text: str, default_unit: str) -> int:
    if _digits(word):
        return int(word) * (60 if default_unit == "m" else 1)
    match = _DURATION_RE.match(word)
    if match is None or not any(match.groups()):
        raise TimeControlError(
            Msg(
                "cannot read {word} in {text} as a duration ({examples})",
                word=Typed(word),
                text=Typed(text),
                examples=TIME_EXAMPLE,
            )
        )
    hours, minutes, seconds = (int(g) if g else 0 for g in match.groups())
    return hours * 3600 + minutes * 60 + seconds


def _with_overtime(base_s: int, word: str, kind_word: str | None, text: str) -> TimeControl:
    if "x" in word:  # N x T: Japanese byo-yomi
        periods, _, length = word.partition("x")
        if kind_word not in (None, "japanese", "byoyomi", "byo-yomi") or not _digits(periods):
            raise TimeControlError(
                Msg(
                    "{word} reads as Japanese byo-yomi, e.g. {example}",
                    word=Typed(word),
                    example="60m 3x20s japanese",
                )
            )
        return TimeControl(
            base_s, Overtime.JAPANESE, _seconds(length, text, "s"), periods=int(periods)
        )
    if "/" in word:  # M / T: Canadian byo-yomi
        moves, _, length = word.partition("/")
        if kind_word not in (None, "canadian") or not _digits(moves) or int(moves) == 0:
            raise TimeControlError(
                Msg(
                    "{word} reads as Canadian byo-yomi, e.g. {example}",
                    word=Typed(word),
                    example="40m 30/5m canadian",
                )
            )
        return TimeControl(
            base_s, Overtime.CANADIAN, _seconds(length, text, "m"), moves=int(moves)
        )
    if kind_word in (None, "fischer"):
        return TimeControl(base_s, Overtime.FISCHER, _seconds(word, text, "s"))
    if kind_word in ("japanese", "byoyomi", "byo-yomi"):  # "60m 30s japanese": one period
        return TimeControl(base_s, Overtime.JAPANESE, _seconds(word, text, "s"), periods=1)
    raise TimeControlError(
        Msg(
            "cannot read the overtime {word} in {text} ({examples})",
            word=Typed(word),
            text=Typed(text),
            examples=TIME_EXAMPLE,
        )
    )


def _duration(seconds: int) -> str:
    if seconds % 3600 == 0 and seconds >= 3600:
        return f"{seconds // 3600}h"
    if seconds % 60 == 0:
        return f"{seconds // 60}m"
    if seconds > 60:
        return f"{seconds // 60}m{seconds % 60}s"
    return f"{seconds}s"
