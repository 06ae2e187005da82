"""The kyu/dan ladder (rules.md, common vocabulary).

A rank is a step on one ladder: ``35k`` … ``1k``, ``1d`` … ``9d``. There is no rank 0, so
``1k`` and ``1d`` are adjacent and ``2k → 1k → 1d`` is two steps. Internally a rank is an
integer *step*: ``1d`` = 1 … ``9d`` = 9, ``1k`` = 0, ``2k`` = −1 … ``35k`` = −34, so rank
arithmetic is integer arithmetic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import RankError
from engine.text import Msg, Typed

WEAKEST_KYU = 35  # MGSZ's table reaches 35k (rules.md §1.1); the other systems stop at 30k
STRONGEST_DAN = 9

_RANK_RE = re.compile(
    r"^\s*(?P<n>[0-9]{1,3})\s*(?P<kind>k|kyu|d|dan|p|pro|級|级|급|段|단)\.?\s*$", re.IGNORECASE
)
_KIND = {"k": "k", "kyu": "k", "d": "d", "dan": "d", "p": "p", "pro": "p"}
_KIND.update({"級": "k", "级": "k", "급": "k", "段": "d", "단": "d"})  # 3級, 3级, 3급, 2段, 2단
FIRST_DAN = ("初段", "초단")
"""Shodan, as Japanese and Korean players write 1 dan."""

RANK_EXAMPLE = Msg("ranks look like {examples}", examples="3k, 3 kyu, 1d, 2 dan")


@dataclass(frozen=True, slots=True, order=True)
class Rank:
    """A kyu/dan grade, ordered weakest to strongest; subtraction counts ladder steps."""

    step: int

    def __post_init__(self) -> None:
        if not 1 - WEAKEST_KYU <= self.step <= STRONGEST_DAN:
            raise RankError(f"rank step {self.step} is off the ladder {WEAKEST_KYU}k–9d")

    @classmethod
    def kyu(cls, n: int) -> Rank:
        """The rank ``n`` kyu (``Rank.kyu(3)`` is 3k)."""
        if not 1 <= n <= WEAKEST_KYU:
            raise RankError(
                Msg(
                    "kyu ranks run from {weakest} to 1k, not {rank}",
                    weakest=f"{WEAKEST_KYU}k",
                    rank=f"{n}k",
                )
            )
        return cls(1 - n)

    @classmethod
    def dan(cls, n: int) -> Rank:
        """The rank ``n`` dan (``Rank.dan(2)`` is 2d)."""
        if not 1 <= n <= STRONGEST_DAN:
            raise RankError(
                Msg(
                    "dan ranks run from 1d to {strongest}, not {rank}",
                    strongest=f"{STRONGEST_DAN}d",
                    rank=f"{n}d",
                )
            )
        return cls(n)

    @property
    def is_dan(self) -> bool:
        return self.step >= 1

    @property
    def number(self) -> int:
        """The grade's own number: 3 for 3k, 2 for 2d."""
        return self.step if self.is_dan else 1 - self.step

    def __str__(self) -> str:
        return f"{self.number}{'d' if self.is_dan else 'k'}"

    def __repr__(self) -> str:
        return f"Rank({self})"

    def __add__(self, steps: int) -> Rank:
        """The rank ``steps`` stronger (negative: weaker)."""
        if not isinstance(steps, int):
            return NotImplemented
        return Rank(self.step + steps)

    def __sub__(self, other: Rank) -> int:
        """Ladder steps from ``other`` up to ``self`` (1d − 2k = 2)."""
        if not isinstance(other, Rank):
            return NotImplemented
        return self.step - other.step

    def clamp(self, weakest: Rank, strongest: Rank) -> Rank:
        """This rank limited to ``[weakest, strongest]``."""
        return max(weakest, min(strongest, self))

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read ``3k``, ``3 kyu``, ``3kyu``, ``1d``, ``2 dan`` (any case), and as go players
        of Japan, China and Korea write them: ``3級``, ``3级``, ``3급``, ``2段``, ``2단``,
        ``初段``.

        Raises:
            RankError: for anything else, including professional ranks (``1p``), which are
                not on the amateur ladder (use :func:`parse_rank_lenient` for imported files).
        """
        n, kind = _split(text)
        if kind == "p":
            raise RankError(
                Msg(
                    "{text} is a professional rank; hoshi rates amateur ranks only ({examples})",
                    text=Typed(text.strip()),
                    examples=RANK_EXAMPLE,
                )
            )
        return cls.kyu(n) if kind == "k" else cls.dan(n)


PRO_AS_DAN = 7  # Decision (ours, formats.md: pro ranks appear in imported files): 1p…9p → 7d


def parse_rank_lenient(text: str) -> tuple[Rank, int]:
    """Read a rank as tournament files write it: a bare number is kyu, ``Np`` is read as 7d.

    Returns:
        The rank, and N of a professional rank Np mapped onto the amateur ladder (0 for an
        amateur rank): a rulebook with its own professional scale reads it (the EGF GoR,
        rules.md §6).
    """
    stripped = text.strip()
    if stripped.isdecimal():
        return Rank.kyu(int(stripped)), 0
    n, kind = _split(text)
    if kind == "p":
        if not 1 <= n <= 9:
            raise RankError(Msg("professional ranks run from 1p to 9p, not {rank}", rank=stripped))
        return Rank.dan(PRO_AS_DAN), n
    return (Rank.kyu(n) if kind == "k" else Rank.dan(n)), 0


def _split(text: str) -> tuple[int, str]:
    if text.strip() in FIRST_DAN:
        return 1, "d"
    match = _RANK_RE.match(text)
    if match is None:
        raise RankError(
            Msg(
                "{text} is not a rank ({examples})",
                text=Typed(text.strip()),
                examples=RANK_EXAMPLE,
            )
        )
    return int(match["n"]), _KIND[match["kind"].lower()]


def is_rank(text: str) -> bool:
    """Whether ``text`` reads as an amateur rank (used by the argument parser to end names)."""
    try:
        Rank.parse(text)
    except RankError:
        return False
    return True


def ladder(weakest: Rank, strongest: Rank) -> list[Rank]:
    """Every rank from ``weakest`` to ``strongest``, both included."""
    return [Rank(step) for step in range(weakest.step, strongest.step + 1)]
