"""What ``/rating`` and ``/promotion`` show of a PSG participant (rules.md §4.3–§4.5)."""

from __future__ import annotations

from engine.psg.state import PlayerState, PsgParams, Results, month_name
from engine.psg.tables import model_rating, norm_reached, norm_value
from engine.ranks import STRONGEST_DAN, Rank
from engine.system import Measure


def next_rank(rank: Rank) -> Rank | None:
    """The rank one step stronger, or ``None`` at the top of the ladder."""
    return rank + 1 if rank.step < STRONGEST_DAN else None


def card_values(state: PlayerState, active: bool) -> tuple[str, tuple[Measure, ...]]:
    """The card's rating label and its typed values in display order (the list's value
    first, under its export key ``psg_list``; formats.md, Ratings export)."""
    results = state.results
    if results is None:
        label = "PSG result (not computed below 20k)"
    else:
        label = "min-games result" if results.min_result is not None else "sum of games"
    values = [
        Measure("psg_list", label, state.list_shows, "points"),
        Measure(
            "psg_min_result",
            "min-games result",
            None if results is None else results.min_result,
            "points",
        ),
        Measure(
            "psg_fewer_result",
            "fewer-games result",
            None if results is None else results.fewer_result,
            "points",
        ),
    ]
    if results is not None:
        values.append(Measure("psg_games", "games with this rank", results.n, "games"))
        values.append(Measure("psg_minimum_games", "minimum games", results.minimum, "games"))
    latest = state.latest_egf()
    values.append(Measure("egf_rating", "EGF rating", None if latest is None else latest[1]))
    if latest is not None:
        values.append(Measure("egf_month", "EGF rating month", month_name(latest[0])))
    values.append(Measure("active", "active", "yes" if active else "no"))
    if state.late_reports:
        values.append(
            Measure(
                "late_reports",
                "late reports, flagged for the manager (PSG regulations §7)",
                state.late_reports,
                "reports",
            )
        )
    if state.held:
        values.append(Measure("promotion", "promotion", "held by a teacher (PSG regulations §21)"))
    if state.suspended:
        values.append(
            Measure("verification", "verification", "suspended (PSG regulations §23(4))")
        )
    return label, tuple(values)


def promotion_lines(state: PlayerState, params: PsgParams) -> list[str]:
    """Norm needed, where the player stands, the EGF condition, verification (§4.4–§4.5)."""
    lines: list[str] = []
    results = state.results
    target = next_rank(state.rank)
    if results is None:
        lines.append("no PSG points below 20k (§15(2)): promotion by a teacher or the committee")
    elif target is None or norm_value(target) is None:
        lines.append(f"no norm above {state.rank} in the PSG tables")
    else:
        lines.extend(_norm_lines(state, results, target, params))
    lines.extend(_verification_lines(state, params))
    return lines


def _norm_lines(
    state: PlayerState, results: Results, target: Rank, params: PsgParams
) -> list[str]:
    value = norm_value(target)
    assert value is not None
    if target.is_dan:
        lines = [f"norm for {target}: min-games result ≥ {value}"]
    else:
        lines = [f"norm for {target}: min-games result ≥ 100 or fewer-games result ≥ {value}"]
    if results.min_result is None:
        lines.append(
            f"games with {state.rank}: {results.n} of {results.minimum} needed; the list shows "
            f"their sum {results.total:+d}"
        )
    else:
        lines.append(
            f"min-games result {results.min_result:+d}, fewer-games result "
            f"{_plain(results.fewer_result)} ({results.n} games)"
        )
    normed = norm_reached(target, results.min_result, results.fewer_result)
    if state.tainted:
        lines.append("the norm was reached by losing an arranged game: it does not count (§19(1))")
    held = state.held and target <= params.hold_limit
    if target <= params.auto_promotion_limit:
        if held:
            lines.append(("norm reached; " if normed else "") + "a teacher holds back promotion")
        return lines
    model = model_rating(target)
    assert model is not None
    latest = state.latest_egf()
    egf = "none known" if latest is None else f"{latest[1]} ({month_name(latest[0])})"
    need_a = model - params.norm_egf_margin
    lines.append(
        f"EGF condition (§20(2)): (a) the norm and EGF ≥ {need_a}, or (b) fewer-games result "
        f"≥ {value} and EGF ≥ {model}; latest EGF: {egf}"
    )
    b_points = results.fewer_result is not None and results.fewer_result >= value
    if normed or b_points:
        need = need_a if normed else model
        if latest is None or latest[1] < need:
            lines.append(f"norm reached; waiting for an EGF rating ≥ {need}")
    return lines


def _verification_lines(state: PlayerState, params: PsgParams) -> list[str]:
    model = model_rating(state.rank)
    if state.rank <= params.auto_promotion_limit or model is None:
        return []
    if state.suspended:
        return ["verification (§23): suspended by the manager"]
    if state.clock_from is None:
        return [
            "verification (§23): the clock starts with an EGF rating from a tournament after "
            f"the promotion on {state.rank_since.isoformat()}"
        ]
    line = model - params.verification_margin
    return [
        f"verification (§23): {params.verification_months} consecutive months with EGF below "
        f"{line} drop a rank; months below the line: {state.below_run}"
    ]


def _plain(value: int | None) -> str:
    return "—" if value is None else str(value)


def results_text(min_result: int | None, fewer: int | None) -> str:
    """Both results in one phrase, for notes."""
    return f"min-games result {_plain(min_result)}, fewer-games result {_plain(fewer)}"
