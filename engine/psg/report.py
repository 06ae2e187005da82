"""What ``/rating`` and ``/promotion`` show of a PSG participant (rules.md §4.3–§4.5)."""

from __future__ import annotations

from engine.psg.state import PlayerState, PsgParams, Results, month_name
from engine.psg.tables import model_rating, norm_reached, norm_value
from engine.ranks import STRONGEST_DAN, Rank
from engine.ratings import as_data, whole_points
from engine.system import Measure, unit
from engine.text import Msg, plural


def next_rank(rank: Rank) -> Rank | None:
    """The rank one step stronger, or ``None`` at the top of the ladder."""
    return rank + 1 if rank.step < STRONGEST_DAN else None


def card_values(state: PlayerState, active: bool) -> tuple[str, tuple[Measure, ...]]:
    """The card's rating label and its typed values in display order (the list's value
    first, under its export key ``psg_list``; formats.md, Ratings export)."""
    results = state.results
    label: str
    if results is None:
        label = Msg("PSG result (not computed below 20k)")
    else:
        label = MIN_GAMES_RESULT if results.min_result is not None else Msg("sum of games")
    min_result = None if results is None else results.min_result
    fewer_result = None if results is None else results.fewer_result
    values = [
        Measure("psg_list", label, state.list_shows, _points(state.list_shows)),
        Measure("psg_min_result", MIN_GAMES_RESULT, min_result, _points(min_result)),
        Measure("psg_fewer_result", FEWER_GAMES_RESULT, fewer_result, _points(fewer_result)),
    ]
    if results is not None:
        values.append(
            Measure("psg_games", Msg("games with this rank"), results.n, _games(results.n))
        )
        values.append(
            Measure(
                "psg_minimum_games",
                Msg("minimum games"),
                results.minimum,
                _games(results.minimum),
            )
        )
    latest = state.latest_egf()
    # rules.md §6 Decision: an EGF rating is kept exactly; exports write its thousandths
    values.append(
        Measure("egf_rating", Msg("EGF rating"), None if latest is None else as_data(latest[1]))
    )
    if latest is not None:
        values.append(Measure("egf_month", Msg("EGF rating month"), month_name(latest[0])))
    values.append(Measure("active", Msg("active"), Msg("yes") if active else Msg("no")))
    if state.late_reports:
        values.append(
            Measure(
                "late_reports",
                Msg("late reports, flagged for the manager (PSG regulations §7)"),
                state.late_reports,
                unit(plural("report", "reports", state.late_reports)),
            )
        )
    if state.held:
        values.append(
            Measure(
                "promotion",
                Msg("promotion"),
                Msg("held by a teacher (PSG regulations §21)"),
            )
        )
    if state.suspended:
        values.append(
            Measure(
                "verification",
                Msg("verification"),
                Msg("suspended (PSG regulations §23(4))"),
            )
        )
    return label, tuple(values)


def promotion_lines(state: PlayerState, params: PsgParams) -> list[str]:
    """Norm needed, where the player stands, the EGF condition, verification (§4.4–§4.5)."""
    lines: list[str] = []
    results = state.results
    target = next_rank(state.rank)
    if results is None:
        lines.append(
            Msg("no PSG points below 20k (§15(2)): promotion by a teacher or the committee")
        )
    elif target is None or norm_value(target) is None:
        lines.append(Msg("no norm above {rank} in the PSG tables", rank=str(state.rank)))
    else:
        lines.extend(_norm_lines(state, results, target, params))
    lines.extend(_verification_lines(state, params))
    return lines


def _norm_lines(
    state: PlayerState, results: Results, target: Rank, params: PsgParams
) -> list[str]:
    value = norm_value(target)
    assert value is not None
    lines: list[str]
    if target.is_dan:
        lines = [Msg("norm for {rank}: min-games result ≥ {value}", rank=str(target), value=value)]
    else:
        lines = [
            Msg(
                "norm for {rank}: min-games result ≥ 100 or fewer-games result ≥ {value}",
                rank=str(target),
                value=value,
            )
        ]
    if results.min_result is None:
        lines.append(
            Msg(
                "games with {rank}: {n} of {minimum} needed; the list shows their sum {total}",
                rank=str(state.rank),
                n=results.n,
                minimum=results.minimum,
                total=f"{results.total:+d}",
            )
        )
    else:
        lines.append(
            plural(
                "min-games result {min_result}, fewer-games result {fewer_result} ({n} game)",
                "min-games result {min_result}, fewer-games result {fewer_result} ({n} games)",
                results.n,
                min_result=f"{results.min_result:+d}",
                fewer_result=_plain(results.fewer_result),
            )
        )
    normed = norm_reached(target, results.min_result, results.fewer_result)
    if state.tainted:
        lines.append(
            Msg("the norm was reached by losing an arranged game: it does not count (§19(1))")
        )
    held = state.held and target <= params.hold_limit
    if target <= params.auto_promotion_limit:
        if held:
            lines.append(
                Msg("norm reached; a teacher holds back promotion")
                if normed
                else Msg("a teacher holds back promotion")
            )
        return lines
    model = model_rating(target)
    assert model is not None
    latest = state.latest_egf()
    egf = (
        Msg("none known")
        if latest is None
        else Msg("{rating} ({month})", rating=whole_points(latest[1]), month=month_name(latest[0]))
    )
    need_a = model - params.norm_egf_margin
    lines.append(
        Msg(
            "EGF condition (§20(2)): (a) the norm and EGF ≥ {need_a}, or (b) fewer-games result "
            "≥ {value} and EGF ≥ {model}; latest EGF: {egf}",
            need_a=need_a,
            value=value,
            model=model,
            egf=egf,
        )
    )
    b_points = results.fewer_result is not None and results.fewer_result >= value
    if normed or b_points:
        need = need_a if normed else model
        if latest is None or latest[1] < need:
            lines.append(Msg("norm reached; waiting for an EGF rating ≥ {need}", need=need))
    return lines


def _verification_lines(state: PlayerState, params: PsgParams) -> list[str]:
    model = model_rating(state.rank)
    if state.rank <= params.auto_promotion_limit or model is None:
        return []
    if state.suspended:
        return [Msg("verification (§23): suspended by the manager")]
    if state.clock_from is None:
        return [
            Msg(
                "verification (§23): the clock starts with an EGF rating from a tournament "
                "after the promotion on {date}",
                date=state.rank_since,
            )
        ]
    line = model - params.verification_margin
    return [
        plural(
            "verification (§23): {n} consecutive month with EGF below {line} drops a rank; "
            "months below the line: {below}",
            "verification (§23): {n} consecutive months with EGF below {line} drop a rank; "
            "months below the line: {below}",
            params.verification_months,
            line=line,
            below=state.below_run,
        )
    ]


def _plain(value: int | None) -> str:
    return "—" if value is None else str(value)


def results_text(min_result: int | None, fewer: int | None) -> str:
    """Both results in one phrase, for notes."""
    return Msg(
        "min-games result {min_result}, fewer-games result {fewer_result}",
        min_result=_plain(min_result),
        fewer_result=_plain(fewer),
    )


MIN_GAMES_RESULT = Msg("min-games result")
"""PSG §17: the result from the minimum number of games (wynik z minimalnej liczby gier)."""
FEWER_GAMES_RESULT = Msg("fewer-games result")
"""PSG §18: the result from fewer games (wynik z mniejszej liczby gier)."""


def _points(value: int | None) -> str:
    """The unit of ``value`` PSG points (one point, two points)."""
    return unit(plural("point", "points", 0 if value is None else abs(value)))


def _games(value: int) -> str:
    return unit(plural("game", "games", value))
