"""Validation of PSG organiser events before they touch the ledger (rules.md §4.1, §4.4, §4.5).

Each function raises :class:`RuleError` with a message for the user and changes nothing.
"""

from __future__ import annotations

from engine.errors import RuleError
from engine.psg.state import PlayerState, PsgParams
from engine.ranks import Rank
from engine.ratings import decimal_text, to_milli
from engine.text import Msg
from engine.types import EgfRating, Override, Registered, TeacherAction, TeacherKind

EGF_RATING_RANGE = (-1000, 3500)  # plausibility bounds for an entered EGF rating (ours)


def check_registration(event: Registered, params: PsgParams) -> None:
    """§15(1) (rules.md §4.1): rank 30k or stronger; a first rank above 6k needs the committee."""
    if event.rating is not None:
        raise RuleError(
            Msg(
                "PSG has ranks and points, no rating to set (got rating {rating}); "
                "register with a rank only, e.g. {example}",
                rating=decimal_text(event.rating),
                example="12k",
            )
        )
    if event.rank < params.registration_limit:
        raise RuleError(
            Msg(
                "PSG registers players of {limit} or stronger (§15(1)), not {rank}",
                limit=str(params.registration_limit),
                rank=str(event.rank),
            )
        )
    if event.rank > params.new_participant_limit and not event.committee:
        # rules.md §4.1 (seed §11(3), §13(2)): a stronger first rank needs the committee
        raise RuleError(
            Msg(
                "a new PSG participant starts at {limit} or weaker unless "
                "the committee approves (§11(3)); {rank} needs the committee flag",
                limit=str(params.new_participant_limit),
                rank=str(event.rank),
            )
        )


def teacher_target(state: PlayerState, event: TeacherAction, params: PsgParams) -> Rank | None:
    """Check a teacher action (§21, §22; rules.md §4.4); the rank a PROMOTE gives."""
    if event.kind is TeacherKind.HOLD:
        if state.held:
            raise RuleError(
                Msg("promotion of player {player} is already held", player=event.player)
            )
        if state.rank + 1 > params.hold_limit:
            raise RuleError(
                Msg(
                    "a teacher holds back promotion to {limit} or weaker only (§21: "
                    "promotion to {next} is automatic); player {player} is {rank}",
                    limit=str(params.hold_limit),
                    next=str(params.hold_limit + 1),
                    player=event.player,
                    rank=str(state.rank),
                )
            )
        return None
    if event.kind is TeacherKind.RELEASE:
        if not state.held:
            raise RuleError(Msg("promotion of player {player} is not held", player=event.player))
        return None
    target = event.rank if event.rank is not None else state.rank + 1
    if target <= state.rank:
        raise RuleError(
            Msg(
                "a teacher promotion must raise the rank: player {player} is already "
                "{rank}, so {target} is no promotion",
                player=event.player,
                rank=str(state.rank),
                target=str(target),
            )
        )
    if target > params.teacher_limit:
        raise RuleError(
            Msg(
                "a teacher promotes up to {limit} (§22(1)), not to {target}",
                limit=str(params.teacher_limit),
                target=str(target),
            )
        )
    if event.teacher_rank is None:
        raise RuleError(
            Msg(
                "a teacher promotion needs the teacher's rank (§22(1): not above it), e.g. "
                "{example}",
                example="teacher_rank=2d",
            )
        )
    if target > event.teacher_rank:
        raise RuleError(
            Msg(
                "a teacher promotes at most to their own rank {rank} (§22(1)), not to {target}",
                rank=str(event.teacher_rank),
                target=str(target),
            )
        )
    return target


def override_rank(state: PlayerState, event: Override, params: PsgParams) -> Rank:
    """Check a committee override (rules.md §4.4): a rank, never a rating."""
    if event.rating is not None:
        raise RuleError(
            Msg(
                "PSG has no rating to override (got rating={rating}); set a rank, e.g. {example}",
                rating=decimal_text(event.rating),
                example="rank=3k",
            )
        )
    if event.rank is None:
        raise RuleError(Msg("a PSG override sets a rank, e.g. {example}", example="rank=3k"))
    if event.rank < params.registration_limit:
        raise RuleError(
            Msg(
                "PSG ranks run from {limit}, not {rank}",
                limit=str(params.registration_limit),
                rank=str(event.rank),
            )
        )
    if event.rank == state.rank:
        raise RuleError(
            Msg(
                "player {player} is already {rank}; nothing to change",
                player=event.player,
                rank=str(state.rank),
            )
        )
    return event.rank


def check_egf(event: EgfRating) -> None:
    """An EGF rating needs a real month and a plausible value (rules.md §4.4–§4.5)."""
    check_month(event.year, event.month)
    to_milli(event.rating)  # rules.md §6 Decision: kept to 3 decimals, more refused
    low, high = EGF_RATING_RANGE
    if not low <= event.rating <= high:
        raise RuleError(
            Msg(
                "an EGF rating lies between {low} and {high}, not {rating}",
                low=low,
                high=high,
                rating=decimal_text(event.rating),
            )
        )


def check_month(year: int, month: int) -> None:
    if not 1 <= month <= 12:
        raise RuleError(
            Msg("a month is 1–12, not {month} (e.g. {example})", month=month, example="2024-03")
        )
    if not 1900 <= year <= 9999:
        raise RuleError(
            Msg("the year {year} is out of range (e.g. {example})", year=year, example="2024-03")
        )
