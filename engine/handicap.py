"""Handicap advice for the Elo and rank systems: MGSZ, Swedish, PSG (rules.md §5)."""

from __future__ import annotations

from fractions import Fraction

from engine.ranks import Rank
from engine.system import HandicapAdvice
from engine.text import Msg
from engine.types import PlayerId

MAX_STONES = 9
HANDICAP_KOMI = Fraction(1, 2)  # §5: komi 0.5 to white when stones ≥ 2
EVEN_KOMI = Fraction(13, 2)  # §5: the club's even-game komi, default 6.5


def rank_handicap(
    a: PlayerId,
    rank_a: Rank,
    b: PlayerId,
    rank_b: Rank,
    *,
    reduction: int = 0,
    even_komi: Fraction = EVEN_KOMI,
) -> HandicapAdvice:
    """Stones = rank difference reduced by ``reduction``, capped at 9 (rules.md §5).

    The weaker player takes black. One stone means no komi (black simply moves first);
    two or more stones give white 0.5; an even game uses the club's even komi. With equal
    ranks ``a`` takes black (nigiri in practice; the advice notes it).
    """
    if reduction < 0:
        raise ValueError(f"a handicap reduction cannot be negative, not {reduction}")
    black, white = (a, b) if rank_a <= rank_b else (b, a)
    difference = abs(rank_a - rank_b)
    stones = min(MAX_STONES, max(0, difference - reduction))
    notes: list[str] = []
    if difference - reduction > MAX_STONES:
        notes.append(
            Msg(
                "rank difference {difference} is capped at {most} stones",
                difference=difference,
                most=MAX_STONES,
            )
        )
    if reduction:
        notes.append(Msg("handicap reduced by {reduction}", reduction=reduction))
    if stones == 0:
        if difference == 0:
            notes.append(Msg("equal ranks: choose colours by nigiri"))
        return HandicapAdvice(black, white, 0, even_komi, tuple(notes))
    komi = Fraction(0) if stones == 1 else HANDICAP_KOMI
    return HandicapAdvice(black, white, stones, komi, tuple(notes))
