"""Validation of PSG organiser events before they touch the ledger (rules.md §4.1, §4.4, §4.5).

Each function raises :class:`RuleError` with a message for the user and changes nothing.
"""

from __future__ import annotations

from engine.errors import RuleError
from engine.psg.state import PlayerState, PsgParams
from engine.ranks import Rank
from engine.types import EgfRating, Override, Registered, TeacherAction, TeacherKind

EGF_RATING_RANGE = (-1000, 3500)  # plausibility bounds for an entered EGF rating (ours)


def check_registration(event: Registered, params: PsgParams) -> None:
    """§15(1) (rules.md §4.1): rank 30k or stronger; a first rank above 6k needs the committee."""
    if event.rating is not None:
        raise RuleError(
            f"PSG has ranks and points, no rating to set (got rating {event.rating}); "
            f"register with a rank only, e.g. 12k"
        )
    if event.rank < params.registration_limit:
        raise RuleError(
            f"PSG registers players of {params.registration_limit} or stronger (§15(1)), "
            f"not {event.rank}"
        )
    if event.rank > params.new_participant_limit and not event.committee:
        # rules.md §4.1 (seed §11(3), §13(2)): a stronger first rank needs the committee
        raise RuleError(
            f"a new PSG participant starts at {params.new_participant_limit} or weaker unless "
            f"the committee approves (§11(3)); {event.rank} needs the committee flag"
        )


def teacher_target(state: PlayerState, event: TeacherAction, params: PsgParams) -> Rank | None:
    """Check a teacher action (§21, §22; rules.md §4.4); the rank a PROMOTE gives."""
    if event.kind is TeacherKind.HOLD:
        if state.held:
            raise RuleError(f"promotion of player {event.player} is already held")
        if state.rank + 1 > params.hold_limit:
            raise RuleError(
                f"a teacher holds back promotion to {params.hold_limit} or weaker only (§21: "
                f"promotion to {params.hold_limit + 1} is automatic); player {event.player} is "
                f"{state.rank}"
            )
        return None
    if event.kind is TeacherKind.RELEASE:
        if not state.held:
            raise RuleError(f"promotion of player {event.player} is not held")
        return None
    target = event.rank if event.rank is not None else state.rank + 1
    if target <= state.rank:
        raise RuleError(
            f"a teacher promotion must raise the rank: player {event.player} is already "
            f"{state.rank}, so {target} is no promotion"
        )
    if target > params.teacher_limit:
        raise RuleError(
            f"a teacher promotes up to {params.teacher_limit} (§22(1)), not to {target}"
        )
    if event.teacher_rank is None:
        raise RuleError(
            "a teacher promotion needs the teacher's rank (§22(1): not above it), e.g. "
            "teacher_rank=2d"
        )
    if target > event.teacher_rank:
        raise RuleError(
            f"a teacher promotes at most to their own rank {event.teacher_rank} (§22(1)), "
            f"not to {target}"
        )
    return target


def override_rank(state: PlayerState, event: Override, params: PsgParams) -> Rank:
    """Check a committee override (rules.md §4.4): a rank, never a rating."""
    if event.rating is not None:
        raise RuleError(
            f"PSG has no rating to override (got rating={event.rating}); set a rank, e.g. rank=3k"
        )
    if event.rank is None:
        raise RuleError("a PSG override sets a rank, e.g. rank=3k")
    if event.rank < params.registration_limit:
        raise RuleError(f"PSG ranks run from {params.registration_limit}, not {event.rank}")
    if event.rank == state.rank:
        raise RuleError(f"player {event.player} is already {state.rank}; nothing to change")
    return event.rank


def check_egf(event: EgfRating) -> None:
    """An EGF rating needs a real month and a plausible value (rules.md §4.4–§4.5)."""
    check_month(event.year, event.month)
    low, high = EGF_RATING_RANGE
    if not low <= event.rating <= high:
        raise RuleError(f"an EGF rating lies between {low} and {high}, not {event.rating}")


def check_month(year: int, month: int) -> None:
    if not 1 <= month <= 12:
        raise RuleError(f"a month is 1–12, not {month} (e.g. 2024-03)")
    if not 1900 <= year <= 9999:
        raise RuleError(f"the year {year} is out of range (e.g. 2024-03)")
