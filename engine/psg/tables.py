"""PSG tables and the pure arithmetic on them (rules.md §4.2–§4.4; seed §6, §16–§20).

Every table is data, transcribed from the seed's annexes
(``psg-regulamin-rankingowy-2005-2009.txt``: Tabela punktacji, Tabela Minimalnej Liczby Gier,
Tabela Norm Punktowych, Tabela Ratingów Modelowych). The functions here are pure; the ledger in
:mod:`engine.psg.ledger` keeps the same results incrementally.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ranks import Rank
from engine.timecontrol import Overtime, TimeControl
from engine.types import Outcome

# PSG Tabela punktacji (rules.md §4.2; seed §16). Rows: the due handicap (rank difference,
# positive when the player is the weaker one). Columns: POINTS_COLUMNS, the handicap the game
# was actually played with, positive when the player received stones. A cell is (win, loss);
# None is an empty cell: no PSG points and not counted in the sequences (§17(1)).
POINTS_COLUMNS: tuple[int, ...] = (3, 2, 1, 0, -1, -2, -3)
POINTS_TABLE: dict[int, tuple[tuple[int, int] | None, ...]] = {
    #      +3          +2          +1          0           −1          −2          −3
    5: ((10, 0), (20, 0), (35, 0), (35, 0), None, None, None),
    4: ((10, -5), (20, 0), (35, 0), (30, 0), None, None, None),
    3: ((10, -15), (20, -10), (35, -5), (35, 0), None, None, None),
    2: ((0, -15), (20, -25), (35, -15), (35, -10), (30, 0), None, None),
    1: (None, (5, -25), (30, -30), (35, -25), (30, -15), (20, 0), None),
    0: (None, (0, -25), (15, -30), (25, -35), (30, -30), (20, -10), None),
    -1: (None, None, (5, -30), (10, -35), (15, -35), (15, -15), None),
    -2: (None, None, None, (0, -35), (5, -35), (10, -15), None),
    -3: (None, None, None, (0, -35), (0, -35), (0, -15), (5, -10)),
}
DUE_STRONGEST = max(POINTS_TABLE)  # +5: Decision (rules.md §4.2): due beyond +5 uses this row
DUE_WEAKEST = min(POINTS_TABLE)  # −3: Decision (rules.md §4.2): due beyond −3 uses this row

# Derived once from POINTS_TABLE for the per-game path: (due row, played) → (win, loss).
_CELLS: dict[tuple[int, int], tuple[int, int]] = {
    (due, played): pair
    for due, row in POINTS_TABLE.items()
    for played, pair in zip(POINTS_COLUMNS, row, strict=True)
    if pair is not None
}

# PSG Tabela Minimalnej Liczby Gier (rules.md §4.3; seed §17). Weaker than 1k: 10.
MINIMUM_GAMES: dict[Rank, int] = {
    Rank.dan(6): 50,
    Rank.dan(5): 40,
    Rank.dan(4): 30,
    Rank.dan(3): 25,
    Rank.dan(2): 20,
    Rank.dan(1): 15,
    Rank.kyu(1): 15,
}
MINIMUM_GAMES_BELOW_1K = 10  # the seed's "< 1 kyu" row

# PSG Tabela Norm Punktowych (rules.md §4.4; seed §19(3)): target dan rank → min-games result.
DAN_NORMS: dict[Rank, int] = {
    Rank.dan(7): 170,
    Rank.dan(6): 160,
    Rank.dan(5): 150,
    Rank.dan(4): 140,
    Rank.dan(3): 130,
    Rank.dan(2): 120,
    Rank.dan(1): 110,
}

# Seed §19(2) (rules.md §4.4): a kyu norm is a min-games result ≥ 100 or a fewer-games
# result ≥ 135. Keys name the result each threshold applies to.
KYU_NORMS: dict[str, int] = {"min_games": 100, "fewer_games": 135}

# The lowest number any norm or condition (b) asks for: results below it cannot promote.
LOWEST_NORM = min(*KYU_NORMS.values(), *DAN_NORMS.values())

# PSG Tabela Ratingów Modelowych (rules.md §4.4; seed §3(4)): model EGF rating by rank.
MODEL_RATINGS: dict[Rank, int] = {
    Rank.dan(7): 2700,
    Rank.dan(6): 2600,
    Rank.dan(5): 2500,
    Rank.dan(4): 2400,
    Rank.dan(3): 2300,
    Rank.dan(2): 2200,
    Rank.dan(1): 2100,
    Rank.kyu(1): 2000,
    Rank.kyu(2): 1900,
    Rank.kyu(3): 1800,
    Rank.kyu(4): 1700,
    Rank.kyu(5): 1600,
    Rank.kyu(6): 1500,
    Rank.kyu(7): 1400,
    Rank.kyu(8): 1300,
    Rank.kyu(9): 1200,
    Rank.kyu(10): 1100,
    Rank.kyu(11): 1000,
    Rank.kyu(12): 900,
    Rank.kyu(13): 800,
    Rank.kyu(14): 700,
    Rank.kyu(15): 600,
    Rank.kyu(16): 500,
    Rank.kyu(17): 400,
    Rank.kyu(18): 300,
    Rank.kyu(19): 200,
    Rank.kyu(20): 100,
}

# Seed §16(2) (rules.md §4.2): the kyu bonus applies to ranks 20k–1k.
BONUS_WEAKEST = Rank.kyu(20)
BONUS_STRONGEST = Rank.kyu(1)
# Seed §15(2) (rules.md §4.1): PSG points are computed for 20k and stronger.
POINTS_WEAKEST = Rank.kyu(20)
_BONUS_WEAKEST_STEP, _BONUS_STRONGEST_STEP = BONUS_WEAKEST.step, BONUS_STRONGEST.step
_POINTS_WEAKEST_STEP = POINTS_WEAKEST.step

# Seed §6 (rules.md §4.1): time controls of a ranked game.
BYOYOMI_BASE_S = 30 * 60  # ≥ 30 min each with byo-yomi …
BYOYOMI_MOVE_S = 10  # … of at least 10 s a move
ABSOLUTE_BASE_S = 45 * 60  # or ≥ 45 min each without byo-yomi


def cell(due: int, played: int) -> tuple[int, int] | None:
    """The points-table cell (win, loss) for a due and a played handicap (rules.md §4.2).

    Args:
        due: rank difference, positive when the player is the weaker one.
        played: handicap the game was played with, positive when the player received stones.

    Returns:
        ``(win, loss)`` before the kyu bonus, or ``None`` for an empty cell (and for a played
        handicap outside the table's columns +3 … −3).
    """
    # Decision (rules.md §4.2): due handicaps beyond +5 use the +5 row, beyond −3 the −3 row.
    row = DUE_STRONGEST if due > DUE_STRONGEST else DUE_WEAKEST if due < DUE_WEAKEST else due
    return _CELLS.get((row, played))


def kyu_bonus(rank: Rank) -> int:
    """The §16(2) bonus: a 20k–1k player adds their kyu number (rules.md §4.2); else 0."""
    step = rank.step  # integer steps: this runs for every game
    return 1 - step if _BONUS_WEAKEST_STEP <= step <= _BONUS_STRONGEST_STEP else 0


def game_points(rank: Rank, due: int, played: int, outcome: Outcome) -> int | None:
    """PSG points a player of ``rank`` earns for one game (rules.md §4.2; seed §16).

    A jigo scores the sum of the cell's two numbers (§16, "sumuje się"); then a 20k–1k player
    adds the kyu bonus, except that a lost game never scores above 0 (§16(2)).

    Returns:
        The points, or ``None`` when the cell is empty or the player is weaker than 20k
        (§15(2): no points are computed for them).
    """
    step = rank.step
    if step < _POINTS_WEAKEST_STEP:
        return None
    row = DUE_STRONGEST if due > DUE_STRONGEST else DUE_WEAKEST if due < DUE_WEAKEST else due
    pair = _CELLS.get((row, played))  # cell(), inlined: this runs for every game
    if pair is None:
        return None
    win, loss = pair
    bonus = 1 - step if _BONUS_WEAKEST_STEP <= step <= _BONUS_STRONGEST_STEP else 0
    if outcome is Outcome.WIN:
        return win + bonus
    if outcome is Outcome.LOSS:
        return min(0, loss + bonus)  # §16(2): "by wynik za grę przegraną nie był dodatni"
    return win + loss + bonus


def minimum_games(rank: Rank) -> int:
    """The minimum number of games for ``rank`` (rules.md §4.3; Tabela Minimalnej Liczby Gier).

    Ranks stronger than 6d are not in the seed's table; they use the 6d value (our reading:
    the table's strongest row is the most demanding).
    """
    if rank > BONUS_STRONGEST:
        return MINIMUM_GAMES.get(rank, MINIMUM_GAMES[Rank.dan(6)])
    return MINIMUM_GAMES.get(rank, MINIMUM_GAMES_BELOW_1K)


def model_rating(rank: Rank) -> int | None:
    """The model EGF rating of ``rank`` (rules.md §4.4); ``None`` outside 20k–7d."""
    return MODEL_RATINGS.get(rank)


def best_suffix_sums(points: Sequence[int], minimum: int) -> tuple[int | None, int | None, int]:
    """The §17–§18 results of a run of counted games, oldest first (rules.md §4.3).

    * min-games result: the best sum of the most recent consecutive games, at least
      ``minimum`` of them; ``None`` while fewer than ``minimum`` games were played;
    * fewer-games result: the best such sum over fewer than ``minimum`` games; if the
      min-games result is positive and higher it is also the fewer-games result (§18(3));
      shown (not ``None``) only if it is > 0 and the min-games result can be computed (§18(2));
    * what the list shows: the min-games result, or while it cannot be computed the sum of all
      games played (§17(2)).

    Raises:
        ValueError: for a minimum below 1.
    """
    if minimum < 1:
        raise ValueError(f"the minimum number of games must be at least 1, not {minimum}")
    suffix = 0
    best_min: int | None = None
    best_short: int | None = None
    for length, value in enumerate(reversed(points), start=1):
        suffix += value
        if length >= minimum:
            best_min = suffix if best_min is None or suffix > best_min else best_min
        elif best_short is None or suffix > best_short:
            best_short = suffix
    if best_min is None:
        return None, None, suffix
    return best_min, shown_fewer(best_min, best_short), best_min


def shown_fewer(min_result: int | None, best_short: int | None) -> int | None:
    """The fewer-games result as §18(2)–(3) show it (rules.md §4.3)."""
    if min_result is None:
        return None  # §18(2): only when the min-games result can be computed
    fewer = best_short
    if min_result > 0 and (fewer is None or min_result > fewer):
        fewer = min_result  # §18(3)
    if fewer is None or fewer <= 0:
        return None  # §18(2): only if greater than zero
    return fewer


def norm_value(target: Rank) -> int | None:
    """The norm's number for a target rank: 135 for kyu, the dan norm table for dan.

    Decision (rules.md §4.4): this is the "norm value" of EGF condition (b). ``None`` for a
    target the seed has no norm for (above 7d).
    """
    if target.is_dan:
        return DAN_NORMS.get(target)
    return KYU_NORMS["fewer_games"]


def norm_reached(target: Rank, min_result: int | None, fewer_result: int | None) -> bool:
    """Whether the results make the points norm for ``target`` (rules.md §4.4; seed §19).

    Kyu target: min-games result ≥ 100 or fewer-games result ≥ 135. Dan target: min-games
    result ≥ the dan norm table's value. A target above 7d has no norm (False).
    """
    if target.is_dan:
        norm = DAN_NORMS.get(target)
        return norm is not None and min_result is not None and min_result >= norm
    if min_result is not None and min_result >= KYU_NORMS["min_games"]:
        return True
    return fewer_result is not None and fewer_result >= KYU_NORMS["fewer_games"]


def time_control_counts(time: TimeControl | None) -> bool | None:
    """Whether a time control makes a game rankable (rules.md §4.1; seed §6).

    No limit; or ≥ 30 min each with byo-yomi of at least 10 s a move (Japanese period,
    Canadian period ÷ moves, or a Fischer increment — our reading for Canadian and Fischer);
    or ≥ 45 min each without (or with shorter) byo-yomi. ``None`` when the time control is
    unknown: the caller decides (the EGF-counted clause cannot be checked from a time control).
    """
    if time is None:
        return None
    if time.unlimited or time.base_s >= ABSOLUTE_BASE_S:
        return True
    if time.base_s < BYOYOMI_BASE_S:
        return False
    if time.overtime is Overtime.JAPANESE:
        return time.periods > 0 and time.period_s >= BYOYOMI_MOVE_S
    if time.overtime is Overtime.CANADIAN:
        return time.period_s >= BYOYOMI_MOVE_S * time.moves
    if time.overtime is Overtime.FISCHER:
        return time.period_s >= BYOYOMI_MOVE_S
    return False
