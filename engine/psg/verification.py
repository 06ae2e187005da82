"""The §23 verification clock (rules.md §4.5): EGF ratings by month and demotion."""

from __future__ import annotations

from bisect import insort

from engine.psg.state import PlayerState, PsgParams, month_name
from engine.psg.tables import model_rating
from engine.ratings import Rating
from engine.text import Msg, plural


def record_egf(
    state: PlayerState, month: int, rating: Rating, from_tournament: bool, params: PsgParams
) -> list[str]:
    """Keep an EGF rating by month; start a waiting clock, end a suspension (§23(3)–(4)).

    Returns:
        Notes for the history (empty when nothing but the rating changed).
    """
    if month not in state.egf:
        insort(state.egf_months, month)
    state.egf[month] = rating
    notes: list[str] = []
    if (
        state.clock_from is None
        and from_tournament
        and state.raised_month is not None
        # Decision (ours, rules.md §4.5): only a month after the promotion's month is surely
        # from a game after the promotion (a month cannot order events within it)
        and month > state.raised_month
    ):
        state.clock_from = month
        notes.append(
            Msg(
                "verification clock starts with the EGF rating of {month}",
                month=month_name(month),
            )
        )
    if state.suspended and params.suspension_ends_on_new_egf:
        state.suspended = False  # seed §23(4): suspended "until a new EGF rating is received"
        state.below_run, state.below_last = 0, None
        notes.append(Msg("verification resumes: a new EGF rating is known (§23(4))"))
    return notes


def verify_month(state: PlayerState, month: int, params: PsgParams) -> str | None:
    """One month-end §23 check; returns the demotion note when the player drops a rank.

    Decision (ours, rules.md §4.5): a month without a new EGF rating uses the latest known
    rating carried forward; with no rating known at all the month is not below the line. A
    run counts consecutive *checked* calendar months: a month that is not checked (suspended,
    clock waiting, month end missing) breaks it.
    """
    model = model_rating(state.rank)
    if (
        state.rank <= params.auto_promotion_limit  # §23(1): ranks above 6k only
        or model is None
        or state.suspended
        or state.clock_from is None
        or month < state.clock_from
    ):
        return None
    egf = state.egf_at(month)
    line = model - params.verification_margin
    if egf is None or egf >= line:  # "more than 100 below": strictly below the line
        state.below_run, state.below_last = 0, None
        return None
    state.below_run = state.below_run + 1 if state.below_last == month - 1 else 1
    state.below_last = month
    if state.below_run < params.verification_months:
        return None
    return plural(
        "verification (§23): EGF {egf} more than {margin} below {model}, "
        "the model rating of {rank}, for {n} consecutive month: {rank} → {lower}",
        "verification (§23): EGF {egf} more than {margin} below {model}, "
        "the model rating of {rank}, for {n} consecutive months: {rank} → {lower}",
        state.below_run,
        egf=egf,
        margin=params.verification_margin,
        model=model,
        rank=str(state.rank),
        lower=str(state.rank + -1),
    )
