"""Validation of PSG organiser events before they touch the ledger (rules.md §4.1, §4.4, §4.5).

Each function raises :class:`RuleError` with a message for the user and changes nothing.
"""

from __future__ import annotations

from engine.errors import RuleError
from engine.psg.state import PlayerState, PsgParams
from engine.psg.tables import cell
from engine.ranks import Rank
from engine.ratings import decimal_text, to_milli
from engine.text import Msg, plural
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


# the widest rank difference an arranged game may span: its handicap must equal the difference
# and lie in the points table for both players (rules.md §4.1, §4.2; seed §8(1))
ARRANGED_MAX_DIFFERENCE = max(
    d for d in range(10) if cell(d, d) is not None and cell(-d, -d) is not None
)


def _ranks(n: int) -> Msg:
    return plural("{n} rank", "{n} ranks", n)


def _stones(n: int) -> Msg:
    return plural("{n} stone", "{n} stones", n)


def handicap_facts(black: Rank, white: Rank, stones: int) -> Msg:
    """Who had Black, who is stronger and who received the stones, in a club member's words:
    the facts a handicap refusal rests on (never a rule restated against the game's own
    numbers, as in "handicap 3 must equal the rank difference 3")."""
    gap = abs(white.step - black.step)
    if stones == 0:
        return Msg(
            "an even game between Black ({black}) and White ({white}), {ranks} apart",
            black=str(black),
            white=str(white),
            ranks=_ranks(gap),
        )
    if black == white:
        return Msg(
            "Black and White are both {rank}, yet Black received {stones}",
            rank=str(black),
            stones=_stones(stones),
        )
    if black > white:
        return Msg(
            "Black ({black}) is {ranks} stronger than White ({white}) but received the {stones}",
            black=str(black),
            white=str(white),
            ranks=_ranks(gap),
            stones=_stones(stones),
        )
    return Msg(
        "Black ({black}) received {stones} from White ({white}), {ranks} stronger",
        black=str(black),
        white=str(white),
        stones=_stones(stones),
        ranks=_ranks(gap),
    )


def arranged_handicap(black: Rank, white: Rank, stones: int) -> Msg | None:
    """Why an arranged game's handicap keeps it from counting (rules.md §4.1; seed §8(1): the
    handicap equals the rank difference, to the weaker player, and lies in the points table
    for both players), or ``None`` when it is right."""
    due = white.step - black.step  # Black's due handicap: positive when Black is the weaker
    gap = abs(due)
    if stones == due and gap <= ARRANGED_MAX_DIFFERENCE:
        return None
    facts = handicap_facts(black, white, stones)
    if gap > ARRANGED_MAX_DIFFERENCE:
        rule = plural(
            "arranged games count only between players at most {n} rank apart (the PSG "
            "points table)",
            "arranged games count only between players at most {n} ranks apart (the PSG "
            "points table)",
            ARRANGED_MAX_DIFFERENCE,
        )
    elif black == white:
        rule = Msg("an arranged game between equal ranks is even")
    elif black > white and stones > 0:
        rule = Msg("the weaker player takes Black and the stones, {n} for this difference", n=gap)
    else:
        rule = Msg(
            "an arranged game is played with {stones} to the weaker player",
            stones=_stones(gap),
        )
    return Msg(
        "arranged game not counted: {facts}: {rule} (PSG regulations §8(1))",
        facts=facts,
        rule=rule,
    )
