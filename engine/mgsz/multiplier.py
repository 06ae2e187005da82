"""The tournament multiplier C (rules.md §1.2; MGSZ §6(1) step 1, §6(2); annex tables 2, 3)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from engine.errors import RuleError
from engine.mgsz.tables import (
    IMPORTANCE_ADDITIONS,
    IMPORTANCE_LABELS,
    PARTICIPANTS_OVER,
    RATED_BOARDS,
    SMALL_BOARD,
    SMALL_BOARD_C,
    TIME_CATEGORIES,
)
from engine.text import Msg, decimal
from engine.timecontrol import Overtime, TimeControl
from engine.types import Importance

FISCHER_NOTE = Msg(
    "Fischer increment is not in the rules: treated like Japanese byo-yomi "
    "(45 × increment); an organiser may set C by hand (MGSZ §6(2))"
)
UNLIMITED_NOTE = Msg("unlimited thinking time meets every threshold: category A (ours)")
BELOW_E_NOTE = Msg(
    "below category E (base < 10 min and extended < 20 min): not rated (MGSZ annex table 2)"
)


@dataclass(frozen=True, slots=True)
class Multiplier:
    """A tournament's C and how it was reached (rules.md §1.2).

    ``time_category`` is the letter A–E (``None`` for 13×13, a C set by hand, below E or an
    unrated board); ``additions`` are the importance additions as (label, value) pairs;
    ``manual`` marks a C set by hand (§6(2)); ``rated`` is false below category E and for
    board sizes other than 19×19 and 13×13.
    """

    C: int
    board: int
    time_category: str | None = None
    time_value: int | None = None
    base_minutes: Fraction | None = None
    extended_minutes: Fraction | None = None
    additions: tuple[tuple[str, int], ...] = ()
    manual: bool = False
    rated: bool = True
    notes: tuple[str, ...] = ()

    def breakdown(self) -> list[str]:
        """Human-readable lines, e.g. for ``/multiplier`` (bot.md)."""
        lines: list[str] = []
        if self.manual:
            lines.append(Msg("C = {c}, set by hand (MGSZ §6(2))", c=self.C))
        elif self.board == SMALL_BOARD:
            lines.append(Msg("13×13 board: C = {c} always, no additions", c=SMALL_BOARD_C))
        elif not self.rated:
            lines.append(Msg("not rated: C = 0"))
        else:
            if self.base_minutes is not None and self.extended_minutes is not None:
                lines.append(
                    Msg(
                        "category {category}: {value} (base {base} min, extended {extended} min)",
                        category=self.time_category,
                        value=self.time_value,
                        base=_minutes(self.base_minutes),
                        extended=_minutes(self.extended_minutes),
                    )
                )
            else:
                lines.append(
                    Msg(
                        "category {category}: {value}",
                        category=self.time_category,
                        value=self.time_value,
                    )
                )
            lines.extend(
                Msg("+{value} {addition}", value=value, addition=label)
                for label, value in self.additions
            )
            lines.append(f"C = {self.C}")
        lines.extend(self.notes)
        return lines


def multiplier(
    board: int,
    time: TimeControl | None,
    *,
    even: bool,
    participants: int | None,
    importance: Importance,
    manual: int | None = None,
) -> Multiplier:
    """C = time category value + importance additions (rules.md §1.2; annex tables 2, 3).

    Args:
        board: the board size; 13×13 is always 5, sizes other than 19 and 13 are not rated.
        time: the time control; ``None`` (unknown) needs ``manual``.
        even: a no-handicap tournament (+10 on 19×19).
        participants: the number of participants (more than 80: +5); ``None`` if unknown.
        importance: invitational / Hungarian championship (+5), EC/WC (+10).
        manual: a C set by hand (§6(2)); it wins over everything else.

    Raises:
        RuleError: for a negative manual C, or when neither a time control nor a manual C
            is given for a 19×19 tournament.
    """
    if board not in RATED_BOARDS:
        note = Msg(
            "only 19×19 and 13×13 games are rated, not {size}×{size} (MGSZ §1(2))", size=board
        )
        return Multiplier(C=0, board=board, rated=False, notes=(note,))
    if manual is not None:
        if manual < 0:
            raise RuleError(
                Msg(
                    "a multiplier set by hand must be 0 or more, e.g. {example}, not {value}",
                    example="C=25",
                    value=manual,
                )
            )
        # rules.md §1.2 (§6(2)): the organiser may set C by hand; recorded as such
        return Multiplier(C=manual, board=board, manual=True, rated=manual > 0)
    if board == SMALL_BOARD:
        return Multiplier(C=SMALL_BOARD_C, board=board)
    if time is None:
        raise RuleError(
            Msg(
                "the time control is not known, so C cannot be computed: give one "
                "(e.g. {time}) or set C by hand, e.g. {example} (MGSZ §6(2))",
                time="60m 3x30s japanese",
                example="C=25",
            )
        )
    category, value, base, extended, notes = _time_category(time)
    if category is None:
        return Multiplier(
            C=0,
            board=board,
            base_minutes=base,
            extended_minutes=extended,
            rated=False,
            notes=(*notes, BELOW_E_NOTE),
        )
    additions = _additions(even=even, participants=participants, importance=importance)
    total = value + sum(v for _, v in additions)
    return Multiplier(
        C=total,
        board=board,
        time_category=category,
        time_value=value,
        base_minutes=base,
        extended_minutes=extended,
        additions=additions,
        notes=notes,
    )


_CATEGORIES: dict[int, tuple[TimeControl, tuple[str | None, int]]] = {}
""":func:`time_category`'s answers by time control object, each kept with its object (so its
id is not reused): a replay's club games share a few objects, and each is asked once per
game (a TimeControl's own hash is slow). Emptied when it holds :data:`_CATEGORIES_KEPT`."""
_CATEGORIES_KEPT = 1024


def time_category(time: TimeControl) -> tuple[str | None, int]:
    """The highest time category met and its value; ``(None, 0)`` below E (rules.md §1.2)."""
    known = _CATEGORIES.get(id(time))
    if known is not None and known[0] is time:
        return known[1]
    category, value, _, _, _ = _time_category(time)
    if len(_CATEGORIES) >= _CATEGORIES_KEPT:
        _CATEGORIES.clear()
    _CATEGORIES[id(time)] = (time, (category, value))
    return category, value


def _time_category(
    time: TimeControl,
) -> tuple[str | None, int, Fraction | None, Fraction | None, tuple[str, ...]]:
    if time.unlimited:
        top, _, _, value = TIME_CATEGORIES[0]
        return top, value, None, None, (UNLIMITED_NOTE,)
    # rules.md §1.2 Decision: Fischer is not in the seed; timecontrol counts it like Japanese
    # byo-yomi (45 × increment) and the result is marked so an organiser can override it
    notes = (FISCHER_NOTE,) if time.overtime is Overtime.FISCHER else ()
    base_s = time.base_s
    extended_s = time.extended_s()
    for category, base_min, extended_min, value in TIME_CATEGORIES:
        # rules.md §1.2 Decision: met when base ≥ its base threshold OR extended ≥ its
        # extended threshold (the seed's KPMC example: 45-minute games are category C)
        if base_s >= base_min * 60 or extended_s >= extended_min * 60:
            return category, value, time.base_minutes, extended_s / 60, notes
    return None, 0, time.base_minutes, extended_s / 60, notes


def _additions(
    *, even: bool, participants: int | None, importance: Importance
) -> tuple[tuple[str, int], ...]:
    """Annex table 3: every addition that applies (all may apply together)."""
    keys: list[str] = []
    if importance.invitational_or_national_championship:
        keys.append("invitational")
    if participants is not None and participants > PARTICIPANTS_OVER:
        keys.append("over_80")
    if importance.european_or_world_championship:
        keys.append("championship")
    if even:  # only reached for 19×19: "no-handicap 19×19 tournament"
        keys.append("even")
    return tuple((IMPORTANCE_LABELS[key], IMPORTANCE_ADDITIONS[key]) for key in keys)


def _minutes(value: Fraction) -> Decimal:
    """Minutes for display: ``75``, ``62.5`` (hundredths, cut, not rounded; the bot writes
    them in the reader's language)."""
    hundredths = value.numerator * 100 // value.denominator
    part = hundredths % 100
    places = 0 if part == 0 else (1 if part % 10 == 0 else 2)
    return decimal(Fraction(hundredths, 100), places, cut=True)
