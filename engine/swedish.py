"""Swedish promotion points for 1 kyu and stronger (rules.md §3).

Seed: ``sweden-upgrade-rules-1kyu-and-stronger.txt`` (Rankingkommittén, June 2004). Not a
rating but a promotion tracker: for a target rank T a player collects points over an unbroken
sequence of valid games; the points of a game depend on the opponent's rank against the
*reference rank* T − 1 (§3.2); a sequence qualifies by the §3.3 requirements.

Points are kept exactly as integer **quarter-points** and games as integer **half-games**
(§3.2: a half game halves the points, a jigo halves the win and the loss).

For each target, :class:`SequenceTracker` keeps, incrementally and in O(1) amortised per game:
the best sequence ending at the latest valid game (Kadane: a total that drops below zero
starts over, §3.3 Decision) and whether *any* sequence ending at that game qualifies (§3.3
Decision). The ledger follows the player's next target at every game; the states of the
targets beyond it are brought up to date from the player's stored games only when asked for
(a query, or a promotion: §3.3 Decision, "the next target is evaluated on the same game
history"), so the per-game path touches one target.

Decisions where rules.md and the seed are silent (ours, each named where it is applied):

* a game whose time control is unknown (neither the game's nor the tournament's) does not
  count: it cannot be shown to meet §3.1's 30-minute minimum; an organiser records the time
  control and the history is replayed;
* a game with no time limit counts as a whole game;
* only 19×19 games count, pair go never;
* the D-dan wins (§3.3) are wins in valid games (half games too, one win each) against an
  opponent whose entry rank is D dan or stronger;
* once a sequence has met the requirement for the player's current target, it stays met until
  the player's rank changes: the promotion then waits only for the D-dan wins, which may come
  "at any time" (§3.3);
* an ``Override`` of the rank does not itself promote; the next check is at the next valid game.
"""

from __future__ import annotations

import datetime as dt
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.errors import EngineError, RuleError
from engine.handicap import rank_handicap
from engine.ranks import STRONGEST_DAN, WEAKEST_KYU, Rank
from engine.system import Card, Change, HandicapAdvice, Progress
from engine.timecontrol import TimeControl
from engine.types import (
    Event,
    Game,
    GamePlayed,
    Outcome,
    Override,
    PlayerId,
    Registered,
    Result,
    TournamentRated,
)

# Seed §2 "Värdet av ett partiresultat" (rules.md §3.2): the opponent's rank minus the
# reference rank → (win, loss) points. Rows beyond +3 use +3, beyond −2 use −2.
POINTS_TABLE: dict[int, tuple[int, int]] = {
    3: (35, 0),  # three or more stronger
    2: (35, -10),  # two stronger
    1: (35, -25),  # one stronger
    0: (25, -35),  # same rank
    -1: (10, -35),  # one weaker
    -2: (0, -35),  # two or more weaker
}
STRONGEST_ROW = 3
WEAKEST_ROW = -2

# Seed §3 "Krav för upprankning" (rules.md §3.3): target → (minimum points, minimum games).
REQUIREMENTS: dict[str, tuple[int, int]] = {
    "1k": (100, 13),
    "1d": (150, 17),
    "2d": (200, 20),
    "3d": (200, 20),
    "4d": (200, 20),
    "5d": (200, 20),
    "6d": (200, 20),
}
# Seed §3: "p >= 10*k" — each game short of the minimum costs ten extra points.
POINTS_PER_MISSING_GAME = 10
# Seed §3: "För upprankning i området 4-2 kyu rekommenderas 80-100 poäng. Klubbarna sköter den
# uppgraderingen" — the kyu targets a club may switch on (rules.md §3.3).
KYU_TARGETS = ("4k", "3k", "2k")
KYU_POINTS = 80  # ours: the low end of the seed's recommended 80–100 points
KYU_GAMES = 10  # ours: the seed names no game count for kyu targets

# Seed §1 "Giltiga partier" (rules.md §3.1): komi 5½ to 8 to White; at least one hour of base
# time counts fully, at least half an hour counts as half a game.
KOMI_MIN = Fraction(11, 2)
KOMI_MAX = Fraction(8)
WHOLE_GAME_BASE_S = 60 * 60
HALF_GAME_BASE_S = 30 * 60
RATED_BOARD = 19  # ours: "go-partier på lika villkor" are 19×19 games
REGION_REVIEW_GAMES = 3  # seed §2: "fler än tre partier" against other regions → review

QUARTERS = 4  # quarter-points per point
HALVES = 2  # half-games per game
_MISSING_GAME_Q = POINTS_PER_MISSING_GAME * QUARTERS // HALVES  # quarter-points a half game

_OUTCOME_CODE = {Outcome.WIN: 0, Outcome.LOSS: 1, Outcome.JIGO: 2}
_WIN, _LOSS, _JIGO = 0, 1, 2
_LOWEST_STEP = 1 - WEAKEST_KYU
_HIGHEST_STEP = STRONGEST_DAN
_LADDER = range(_LOWEST_STEP, _HIGHEST_STEP + 1)


@dataclass(frozen=True, slots=True)
class Requirement:
    """Minimum points and games for a target (rules.md §3.3), in whole points and games."""

    points: int
    games: int


@dataclass(frozen=True, slots=True)
class SwedishParams:
    """A club's Swedish settings (rules.md §3.1, §3.3).

    ``kyu_targets`` switches on the club-managed targets 4k, 3k and 2k with ``kyu_points``
    and ``kyu_games`` (seed: 80–100 points recommended); ``komi_min``/``komi_max`` bound an
    even game's komi (seed: 5½ to 8).
    """

    kyu_targets: bool = False
    kyu_points: int = KYU_POINTS
    kyu_games: int = KYU_GAMES
    komi_min: Fraction = KOMI_MIN
    komi_max: Fraction = KOMI_MAX

    def __post_init__(self) -> None:
        if self.kyu_points < 1 or self.kyu_games < 1:
            raise EngineError(
                "kyu targets need at least 1 point and 1 game, not "
                f"{self.kyu_points} points in {self.kyu_games} games (e.g. 80 points, 10 games)"
            )
        # exact komi bounds whatever was passed (5.5 is exactly 11/2)
        object.__setattr__(self, "komi_min", Fraction(self.komi_min))
        object.__setattr__(self, "komi_max", Fraction(self.komi_max))
        if self.komi_min > self.komi_max:
            raise EngineError(f"komi_min {self.komi_min} is above komi_max {self.komi_max}")


DEFAULT_PARAMS = SwedishParams()


# ------------------------------------------------------------------------- pure functions


def game_points_quarters(
    opponent_rank: Rank, reference_rank: Rank, outcome: Outcome, half_games: int = HALVES
) -> int:
    """A game's points toward a target, in quarter-points (rules.md §3.2; seed §2 table).

    Args:
        opponent_rank: the rank the opponent played the tournament with.
        reference_rank: one rank below the target.
        outcome: the result from the player's side; a jigo is half a win and half a loss.
        half_games: 2 for a whole game, 1 for a half game (halves the points).

    Returns:
        Quarter-points (``+35`` → 140; a half-game jigo at the same rank → −10).
    """
    row = max(WEAKEST_ROW, min(STRONGEST_ROW, opponent_rank - reference_rank))
    return _whole_game_quarters(row, _OUTCOME_CODE[outcome]) * half_games // HALVES


def _whole_game_quarters(row: int, outcome: int) -> int:
    win, loss = POINTS_TABLE[row]
    if outcome == _WIN:
        return win * QUARTERS
    if outcome == _LOSS:
        return loss * QUARTERS
    return (win + loss) * QUARTERS // 2  # rules.md §3.2: jigo = half a win and half a loss


def invalid_reason(
    game: Game, tournament_time: TimeControl | None = None, params: SwedishParams = DEFAULT_PARAMS
) -> str | None:
    """Why a game does not count in a sequence, or ``None`` (rules.md §3.1)."""
    return _weigh(game, tournament_time, params)[1]


def game_weight(
    game: Game, tournament_time: TimeControl | None = None, params: SwedishParams = DEFAULT_PARAMS
) -> int:
    """How much a game counts, in half-games: 0, 1 or 2 (rules.md §3.1).

    Not counted (0): unplayed, result unknown, handicap stones, komi outside 5½–8, base time
    under 30 minutes, time control unknown (ours), not 19×19, pair go. Base time of 30–59
    minutes counts as half a game (1), 60 minutes or more, or no time limit, as a whole (2).

    Args:
        game: the game; its own time control wins over the tournament's.
        tournament_time: the tournament's time control, if the game has none.
        params: the club's komi bounds.
    """
    return _weigh(game, tournament_time, params)[0]


def _weigh(
    game: Game, tournament_time: TimeControl | None, params: SwedishParams
) -> tuple[int, str | None]:
    """(half-games, why not counted) for a game (rules.md §3.1)."""
    if not game.played:
        return 0, "unplayed"
    if game.result is None:
        return 0, "result unknown"
    if game.pair_go:
        return 0, "pair go"
    if game.board != RATED_BOARD:
        return 0, f"{game.board}×{game.board} board"
    if game.stones != 0:
        return 0, "handicap game"
    komi = game.komi
    low, high = params.komi_min, params.komi_max
    # exact: komi_min ≤ n/d ≤ komi_max compared as integers (cheaper than Fraction's operators)
    n, d = komi.numerator, komi.denominator
    if n * low.denominator < low.numerator * d or n * high.denominator > high.numerator * d:
        return 0, f"komi {komi} outside {low}–{high}"
    time = game.time if game.time is not None else tournament_time
    if time is None:
        return 0, "time control unknown"  # ours: cannot be shown to meet the 30-minute minimum
    if time.unlimited or time.base_s >= WHOLE_GAME_BASE_S:
        return HALVES, None  # ours: no time limit counts as a whole game
    if time.base_s >= HALF_GAME_BASE_S:
        return 1, None
    return 0, "base time under 30 minutes"


def qualifies(points: int, games: int, req: Requirement) -> bool:
    """Whether a sequence meets a requirement (rules.md §3.3; seed: ``p >= 10*k``).

    n ≥ N games with at least P points qualify; n = N − k games qualify when the points
    exceed P by at least 10·k (half games count half). Both cases read
    ``p + 10·min(n, N) ≥ P + 10·N``.

    Args:
        points: the sequence's points, in quarter-points.
        games: the sequence's games, in half-games.
        req: the target's requirement.
    """
    window = req.games * HALVES
    return points + _MISSING_GAME_Q * min(games, window) >= _measure_needed(req)


def _measure_needed(req: Requirement) -> int:
    return req.points * QUARTERS + _MISSING_GAME_Q * req.games * HALVES


def format_quarters(quarters: int) -> str:
    """Quarter-points as an exact decimal: 150 → ``"37.5"``, −25 → ``"-6.25"``."""
    sign = "-" if quarters < 0 else ""
    whole, rest = divmod(abs(quarters), QUARTERS)
    return f"{sign}{whole}{('', '.25', '.5', '.75')[rest]}"


def format_half_games(halves: int) -> str:
    """Half-games as games: 15 → ``"7.5"``."""
    whole, rest = divmod(halves, HALVES)
    return f"{whole}.5" if rest else str(whole)


def _target_table(target_step: int) -> dict[int, tuple[int, int, int]]:
    """Whole-game quarter-points toward a target by opponent step: (win, loss, jigo) (§3.2)."""
    table: dict[int, tuple[int, int, int]] = {}
    for opponent in _LADDER:
        row = max(WEAKEST_ROW, min(STRONGEST_ROW, opponent - (target_step - 1)))
        table[opponent] = (
            _whole_game_quarters(row, _WIN),
            _whole_game_quarters(row, _LOSS),
            _whole_game_quarters(row, _JIGO),
        )
    return table


# ------------------------------------------------------------------ one target's sequences


class SequenceTracker:
    """The sequences toward one target, game by game (rules.md §3.3 Decisions).

    ``total``/``total_games`` is the best sequence ending at the latest game (Kadane: a total
    that drops below zero starts over, with no games); ``ok`` says whether *any* sequence
    ending at the latest game qualifies — not necessarily the best one, since fewer games can
    qualify with extra points. With prefix sums S (quarter-points) and H (half-games), a
    sequence after prefix i qualifies when S − S_i ≥ 4P if it has at least N games, or
    (S + 20H) − (S_i + 20H_i) ≥ 4P + 40N if it has fewer. The prefixes less than N games back
    sit in a deque whose keys S_i + 20H_i rise from the front (a prefix with a smaller key later
    dominates an earlier one for good); the older prefixes keep only their smallest S_i. Each
    prefix enters and leaves once: O(1) amortised a game, at most 2N prefixes held.
    """

    __slots__ = (
        "_need_measure",
        "_need_points",
        "_window",
        "count",
        "foreign",
        "halves",
        "last",
        "ok",
        "old_foreign",
        "old_halves",
        "old_points",
        "points",
        "recent",
        "requirement",
        "target",
        "total",
        "total_foreign",
        "total_halves",
        "witness",
    )

    def __init__(self, target: Rank, requirement: Requirement) -> None:
        self.target = target
        self.requirement = requirement
        self._window = requirement.games * HALVES
        self._need_points = requirement.points * QUARTERS
        self._need_measure = _measure_needed(requirement)
        self.count = 0  # games seen
        self.points = 0  # prefix sum S, quarter-points
        self.halves = 0  # prefix sum H, half-games
        self.foreign = 0  # prefix count of games against other regions
        self.total = 0  # Kadane: best sequence ending now
        self.total_halves = 0
        self.total_foreign = 0
        self.last = 0  # the latest game's points
        self.recent: deque[tuple[int, int, int, int]] = deque()  # (S+20H, S, H, F) of prefixes
        self.old_points: int | None = None  # smallest S of the prefixes ≥ N games back
        self.old_halves = 0
        self.old_foreign = 0
        self.ok = False
        self.witness: tuple[int, int, int] | None = None  # (points, halves, foreign) when ok

    def add(self, points: int, halves: int, foreign: bool = False) -> bool:
        """One more valid game (quarter-points, half-games); whether any sequence qualifies."""
        s, h, f = self.points, self.halves, self.foreign
        key = s + _MISSING_GAME_Q * h
        recent = self.recent
        while recent and recent[-1][0] >= key:
            recent.pop()  # dominated: a later prefix with a key no larger (and S no larger)
        recent.append((key, s, h, f))
        s += points
        h += halves
        if foreign:
            f += 1
            self.foreign = f
        self.points = s
        self.halves = h
        window = self._window
        while recent and h - recent[0][2] >= window:
            _, old_s, old_h, old_f = recent.popleft()
            if self.old_points is None or old_s < self.old_points:
                self.old_points, self.old_halves, self.old_foreign = old_s, old_h, old_f
        self.count += 1
        self.last = points
        total = self.total + points
        if total < 0:  # rules.md §3.3 Decision: a total below zero starts over ("nollställs")
            self.total = self.total_halves = self.total_foreign = 0
        else:
            self.total = total
            self.total_halves += halves
            if foreign:
                self.total_foreign += 1
        # rules.md §3.3 Decision: qualified if ANY sequence ending at this game qualifies
        old = self.old_points
        if old is not None and s - old >= self._need_points:
            self.witness = (s - old, h - self.old_halves, f - self.old_foreign)
        elif recent and s + _MISSING_GAME_Q * h - recent[0][0] >= self._need_measure:
            _, front_s, front_h, front_f = recent[0]
            self.witness = (s - front_s, h - front_h, f - front_f)
        elif self.ok:
            self.ok = False
            self.witness = None
            return False
        else:
            return False
        self.ok = True
        return True

    def summary(self) -> dict[str, Any]:
        """The tracker as plain data (for snapshots)."""
        return {
            "games_seen": self.count,
            "total": format_quarters(self.total),
            "games": format_half_games(self.total_halves),
            "points": format_quarters(self.last) if self.count else None,
            "qualifies": self.ok,
        }


# ------------------------------------------------------------------------------- the ledger

# A stored valid game: ((opponent step + _STEP_OFFSET) * 3 + outcome) * 4 + (halves − 1) * 2
# + foreign — one small int a game, enough to bring any target's tracker up to date.
_STEP_OFFSET = 64


def _decode(code: int) -> tuple[int, int, int, int]:
    rest, foreign = divmod(code, 2)
    rest, halves_less_one = divmod(rest, 2)
    step, outcome = divmod(rest, 3)
    return step - _STEP_OFFSET, outcome, halves_less_one + 1, foreign


class _Player:
    __slots__ = (
        "country",
        "history",
        "last_played",
        "met",
        "next",
        "rank",
        "table",
        "trackers",
        "wins",
    )

    def __init__(self, rank: Rank, country: str | None) -> None:
        self.rank = rank
        self.country = country.upper() if country else None
        self.history: list[int] = []  # the valid games, encoded
        self.wins = [0] * (_HIGHEST_STEP + 1)  # wins in valid games by the opponent's dan
        self.trackers: dict[int, SequenceTracker] = {}  # by target step
        self.next: SequenceTracker | None = None  # the next target's, always up to date
        self.table: dict[int, tuple[int, int, int]] = {}  # the next target's points table
        # the qualifying sequence (points, halves, foreign) once the next target's requirement
        # is met; it stays met until the rank changes (ours, see the module docstring)
        self.met: tuple[int, int, int] | None = None
        self.last_played: dt.date | None = None


@dataclass(slots=True)
class _Tally:
    """One player's part in one event, for its history rows."""

    before: str | None
    games: int = 0
    half: int = 0
    skipped: dict[str, int] | None = None
    last_date: dt.date | None = None


class Swedish:
    """Swedish promotion points (rules.md §3): a promotion tracker per player and target.

    Args:
        params: the club's settings; the seed's rules by default (kyu targets off).
    """

    key = "swedish"

    def __init__(self, params: SwedishParams = DEFAULT_PARAMS) -> None:
        self.params = params
        requirements = {Rank.parse(t): Requirement(*pg) for t, pg in REQUIREMENTS.items()}
        if params.kyu_targets:
            for text in KYU_TARGETS:
                requirements[Rank.parse(text)] = Requirement(params.kyu_points, params.kyu_games)
        self._requirements = {rank.step: req for rank, req in requirements.items()}
        targets = sorted(self._requirements)
        # the next target above each rank: the weakest target stronger than it
        self._next_target: dict[int, int | None] = {
            step: next((t for t in targets if t > step), None) for step in _LADDER
        }
        # quarter-points of a whole game per target, by opponent step and outcome
        self._tables = {target: _target_table(target) for target in targets}
        self._players: dict[PlayerId, _Player] = {}

    # ------------------------------------------------------------------------- events

    def apply(self, event: Event) -> list[Change]:
        """Fold one event in (rules.md §3); raises and changes nothing on error."""
        if isinstance(event, TournamentRated):
            return self._tournament(event)
        if isinstance(event, GamePlayed):
            return self._club_game(event.game)
        if isinstance(event, Registered):
            return self._register(event)
        if isinstance(event, Override):
            return self._override(event)
        return []  # other systems' events: accepted and ignored

    def _register(self, event: Registered) -> list[Change]:
        if event.player in self._players:
            raise RuleError(f"player {event.player} is already registered under Swedish rules")
        player = _Player(event.rank, event.country)
        self._players[event.player] = player
        self._retarget(player)
        value = self._value(player)
        return [
            Change(event.player, event.date, "registration", None, value, event.rank, event.rank)
        ]

    def _override(self, event: Override) -> list[Change]:
        player = self._players.get(event.player)
        if player is None:
            raise RuleError(f"player {event.player} is not registered under Swedish rules")
        if event.rank is None:
            raise RuleError(
                "Swedish promotion points are counted from games and cannot be set; "
                "override the rank instead, e.g. rank=1k"
            )
        before_rank, before = player.rank, self._value(player)
        player.rank = event.rank
        self._retarget(player)  # ours: the override itself promotes nobody
        note = event.reason
        if event.rating is not None:
            note = f"{note} (a rating is not used under Swedish rules)".strip()
        return [
            Change(
                event.player,
                event.date,
                "override",
                before,
                self._value(player),
                before_rank,
                player.rank,
                note,
            )
        ]

    def _club_game(self, game: Game) -> list[Change]:
        # rules.md §3.1 Decision — club games: only tournament games count, unless marked
        if not game.counts_as_tournament:
            return []
        players = self._players
        for pid in (game.black, game.white):
            if pid not in players:
                raise RuleError(
                    f"player {pid} is not registered under Swedish rules; a club game counted "
                    "as a tournament game needs both players' ranks"
                )
        black, white = players[game.black], players[game.white]
        seats = {game.black: (black.rank.step, black.country)}
        seats[game.white] = (white.rank.step, white.country)
        halves, reason = _weigh(game, None, self.params)
        return self._rate([(game, halves, reason)], seats, f"game:{game.id}")

    def _tournament(self, event: TournamentRated) -> list[Change]:
        players = self._players
        tournament = event.tournament
        # the rank (and country) each player played the tournament with (rules.md §3.2)
        seats = {
            entry.player: (entry.rank.step, entry.country.upper() if entry.country else None)
            for entry in event.entries
        }
        # rules.md §3.3: the sequence follows the games in round order (file order within one)
        items: list[tuple[Game, int, str | None]] = []
        for game in sorted(event.games, key=_round_order):
            if game.black not in players and game.white not in players:
                continue
            halves, reason = _weigh(game, tournament.time, self.params)
            if halves:  # validate first: a counted game needs both players' entries
                for pid in (game.black, game.white):
                    if pid not in seats:
                        raise RuleError(
                            f"game {game.id} of {tournament.name!r}: player {pid} has no entry "
                            "in the tournament, so the rank they played with is unknown"
                        )
            items.append((game, halves, reason))
        return self._rate(items, seats, f"tournament:{tournament.id}")

    def _rate(
        self,
        items: list[tuple[Game, int, str | None]],
        seats: dict[PlayerId, tuple[int, str | None]],
        source: str,
    ) -> list[Change]:
        """Add weighed games to their players' sequences; promotions as they happen."""
        players = self._players
        changes: list[Change] = []
        tallies: dict[PlayerId, _Tally] = {}
        for game, halves, reason in items:
            black = game.black
            result = game.result
            for pid, opponent in ((black, game.white), (game.white, black)):
                player = players.get(pid)
                if player is None:
                    continue
                tally = tallies.get(pid)
                if tally is None:
                    tally = tallies[pid] = _Tally(self._value(player))
                tally.last_date = game.date
                if reason is not None:
                    if tally.skipped is None:
                        tally.skipped = {}
                    tally.skipped[reason] = tally.skipped.get(reason, 0) + 1
                    continue
                if result is Result.JIGO:
                    outcome = _JIGO
                elif (result is Result.BLACK) == (pid == black):
                    outcome = _WIN
                else:
                    outcome = _LOSS
                opponent_step, opponent_country = seats[opponent]
                # rules.md §3.1 Decision: store the opponent's region; flag, never block
                foreign = (
                    opponent_country is not None
                    and player.country is not None
                    and opponent_country != player.country
                )
                # the game joins the player's stored games (encoding above _decode) …
                player.history.append(
                    ((opponent_step + _STEP_OFFSET) * 3 + outcome) * 4 + (halves - 1) * 2 + foreign
                )
                if outcome == _WIN and opponent_step >= 1:
                    player.wins[opponent_step] += 1
                # … and the next target's sequences (the others catch up when asked)
                tracker = player.next
                if tracker is not None:
                    points = player.table[opponent_step][outcome]
                    if halves == 1:
                        points //= HALVES  # exact: whole-game quarter-points are even
                    if tracker.add(points, halves, foreign):
                        player.met = tracker.witness  # ours: met stays met until rank changes
                if player.last_played is None or game.date > player.last_played:
                    player.last_played = game.date
                tally.games += 1
                if halves == 1:
                    tally.half += 1
                if player.met is not None:
                    self._promote(pid, player, game, source, tally, changes)
        for pid, tally in tallies.items():
            if tally.games or tally.skipped:
                changes.append(self._summary(pid, tally, source))
        return changes

    def _promote(
        self,
        pid: PlayerId,
        player: _Player,
        game: Game,
        source: str,
        tally: _Tally,
        changes: list[Change],
    ) -> None:
        """Promote while the next target is met, one rank at a time (rules.md §3.3 Decision).

        The event's games so far get their own history row first, so that the promotion row
        runs from the total reached toward the old target to the total toward the new one.
        """
        while player.met is not None and player.next is not None:
            tracker = player.next
            target = tracker.target
            if target.is_dan and self.wins_against(pid, target) < target.step:
                return  # rules.md §3.3: D dan also needs D wins against D dan or stronger
            if tally.games or tally.skipped:
                changes.append(self._summary(pid, tally, source))
            before_rank, before = player.rank, self._value(player)
            note = self._promotion_note(tracker, player.met, fresh=tracker.ok)
            player.rank = target
            # rules.md §3.3 Decision: the next target is evaluated on the same game history
            self._retarget(player, evaluate=True)
            after = self._value(player)
            changes.append(
                Change(pid, game.date, source, before, after, before_rank, target, note)
            )
            tally.before = after

    @staticmethod
    def _promotion_note(
        tracker: SequenceTracker, witness: tuple[int, int, int], *, fresh: bool
    ) -> str:
        req = tracker.requirement
        points, halves, foreign = witness
        note = (
            f"promoted to {tracker.target}: a sequence of {format_quarters(points)} points in "
            f"{format_half_games(halves)} games (needs {req.points} in {req.games}, "
            f"or 10 more points for each game short; rules.md §3.3)"
        )
        if not fresh:
            note += "; the sequence qualified earlier, the wins against dan players came now"
        if foreign > REGION_REVIEW_GAMES:
            note += (
                f"; for the committee: {foreign} games of the sequence against players from "
                "other countries (rules.md §3.1)"
            )
        return note

    def _summary(self, pid: PlayerId, tally: _Tally, source: str) -> Change:
        """One history row for a player's games in an event (or up to a promotion)."""
        player = self._players[pid]
        parts = []
        if tally.games:
            half = f" ({tally.half} as half games)" if tally.half else ""
            parts.append(f"{tally.games} game(s) counted{half}")
        if tally.skipped:
            skipped = ", ".join(f"{n} {why}" for why, n in sorted(tally.skipped.items()))
            parts.append(f"not counted: {skipped} (rules.md §3.1)")
        flag = self._region_flag(player)
        if flag:
            parts.append(flag)
        date = tally.last_date
        assert date is not None
        after = self._value(player)
        change = Change(
            pid, date, source, tally.before, after, player.rank, player.rank, "; ".join(parts)
        )
        tally.before = after
        tally.games = tally.half = 0
        tally.skipped = None
        return change

    def _retarget(self, player: _Player, *, evaluate: bool = False) -> None:
        """Point the player at the next target above their rank, brought up to date.

        ``evaluate`` (after a promotion) checks the new target at the latest game at once.
        """
        player.met = None
        step = self._next_target.get(player.rank.step)
        if step is None:
            player.next = None
            return
        tracker = self._tracker(player, step)
        player.next = tracker
        player.table = self._tables[step]
        if evaluate:
            # rules.md §3.3 Decision: any sequence ending at the latest game may qualify
            player.met = tracker.witness

    def _tracker(self, player: _Player, target_step: int) -> SequenceTracker:
        """The target's tracker, brought up to date with the player's stored games."""
        tracker = player.trackers.get(target_step)
        if tracker is None:
            tracker = SequenceTracker(Rank(target_step), self._requirements[target_step])
            player.trackers[target_step] = tracker
        history = player.history
        if tracker.count < len(history):
            table = self._tables[target_step]
            for code in history[tracker.count :]:
                opponent_step, outcome, halves, foreign = _decode(code)
                points = table[opponent_step][outcome]
                if halves == 1:
                    points //= HALVES
                tracker.add(points, halves, bool(foreign))
        return tracker

    def _value(self, player: _Player) -> str | None:
        """The card's headline: the total toward the next target, exact (rules.md §3.3)."""
        tracker = player.next
        return None if tracker is None else format_quarters(tracker.total)

    def _region_flag(self, player: _Player) -> str:
        tracker = player.next
        if tracker is None or tracker.total_foreign <= REGION_REVIEW_GAMES:
            return ""
        return (
            f"for the committee: {tracker.total_foreign} games of the sequence against players "
            "from other countries (rules.md §3.1)"
        )

    # ------------------------------------------------------------------------ queries

    def players(self) -> Iterable[PlayerId]:
        """Every registered player."""
        return list(self._players)

    def targets(self, player: PlayerId) -> list[Rank]:
        """Every target above the player's rank, weakest first (rules.md §3.3)."""
        step = self._players[player].rank.step
        return [Rank(t) for t in sorted(self._requirements) if t > step]

    def sequence(self, player: PlayerId, target: Rank) -> SequenceTracker | None:
        """The player's sequences toward ``target``; ``None`` unless it is above their rank.

        The tracker is up to date when returned; ask again after more games (the targets
        beyond the next one are brought up to date only when asked for).

        Raises:
            KeyError: for an unknown player.
            RuleError: for a rank that is not a target under the club's settings.
        """
        state = self._players[player]
        if target.step not in self._requirements:
            known = ", ".join(str(Rank(t)) for t in sorted(self._requirements))
            raise RuleError(f"{target} is not a Swedish target here; the targets are {known}")
        if target.step <= state.rank.step:
            return None
        return self._tracker(state, target.step)

    def wins_against(self, player: PlayerId, rank: Rank) -> int:
        """Wins in valid games against opponents of ``rank`` or stronger (dan ranks, §3.3)."""
        wins = self._players[player].wins
        return sum(wins[max(1, rank.step) :])

    def requirement(self, target: Rank) -> Requirement:
        """The points and games a target needs (rules.md §3.3; club settings for kyu targets)."""
        return self._requirements[target.step]

    def card(self, player: PlayerId) -> Card:
        """Rank, and the total toward the next target as the rating (rules.md §3.3)."""
        state = self._players[player]
        tracker = state.next
        fields: list[tuple[str, str]] = []
        if tracker is None:
            label, total = "no further Swedish target", 0
        else:
            req = tracker.requirement
            label, total = f"points toward {tracker.target}", tracker.total
            fields.append(("target", str(tracker.target)))
            fields.append(("sequence games", format_half_games(tracker.total_halves)))
            fields.append(("required", f"{req.points} points in {req.games} games"))
            if tracker.target.is_dan:
                wins = self.wins_against(player, tracker.target)
                fields.append(
                    (f"wins vs {tracker.target}+", f"{wins} of {tracker.target.step} needed")
                )
            flag = self._region_flag(state)
            if flag:
                fields.append(("review", flag))
        return Card(
            player=player,
            rank=state.rank,
            rating=self._value(state),
            rating_label=label,
            sort_key=(state.rank.step, total),
            games=len(state.history),
            last_played=state.last_played,
            fields=tuple(fields),
        )

    def handicap(self, a: PlayerId, b: PlayerId, *, reduction: int = 0) -> HandicapAdvice:
        """Stones = rank difference (rules.md §5)."""
        rank_a, rank_b = self._players[a].rank, self._players[b].rank
        return rank_handicap(a, rank_a, b, rank_b, reduction=reduction)

    def promotion(self, player: PlayerId) -> Progress:
        """Target, best sequence, what is still needed (rules.md §3.3)."""
        state = self._players[player]
        tracker = state.next
        if tracker is None:
            return Progress(
                player,
                state.rank,
                None,
                (f"{state.rank}: the Swedish rules promote no further than 6d.",),
            )
        target, req = tracker.target, tracker.requirement
        lines = [
            f"Target {target} (points against the reference rank {Rank(target.step - 1)}).",
            f"Best sequence now: {format_quarters(tracker.total)} points in "
            f"{format_half_games(tracker.total_halves)} games.",
            f"Needs {req.points} points in {req.games} games, or 10 more points for each game "
            "short (rules.md §3.3).",
        ]
        if state.met is not None:
            lines.append("The sequence requirement is met.")
        else:
            lines.append(self._shortfall(tracker))
        if target.is_dan:
            wins = self.wins_against(player, target)
            lines.append(
                f"Wins against {target} or stronger: {wins} of the {target.step} needed"
                " (at any time)."
            )
        flag = self._region_flag(state)
        if flag:
            lines.append(flag[0].upper() + flag[1:] + ".")
        return Progress(player, state.rank, target, tuple(lines))

    @staticmethod
    def _shortfall(tracker: SequenceTracker) -> str:
        req = tracker.requirement
        halves = tracker.total_halves
        short_halves = max(0, req.games * HALVES - halves)
        needed_q = req.points * QUARTERS + _MISSING_GAME_Q * short_halves
        missing = max(0, needed_q - tracker.total)
        return (
            f"With {format_half_games(halves)} games this sequence needs "
            f"{format_quarters(needed_q)} points: {format_quarters(missing)} more "
            "(every further game lowers the bar by 10 until the minimum is reached)."
        )

    def snapshot(self) -> dict[str, Any]:
        """The whole ledger as plain, canonically ordered data.

        ``history`` holds each player's valid games in the module's one-int encoding
        (opponent's rank, outcome, whole or half game, other region).
        """
        players: dict[str, Any] = {}
        for pid, state in sorted(self._players.items()):
            sequences = {
                str(Rank(step)): self._tracker(state, step).summary()
                for step in sorted(self._requirements)
                if step > state.rank.step
            }
            players[str(pid)] = {
                "rank": str(state.rank),
                "country": state.country,
                "last_played": state.last_played.isoformat() if state.last_played else None,
                "met": list(state.met) if state.met is not None else None,
                "wins_vs_dan": {f"{d}d": n for d, n in enumerate(state.wins) if n},
                "history": list(state.history),
                "sequences": sequences,
            }
        params = self.params
        return {
            "system": self.key,
            "params": {
                "kyu_targets": params.kyu_targets,
                "kyu_points": params.kyu_points,
                "kyu_games": params.kyu_games,
                "komi_min": str(params.komi_min),
                "komi_max": str(params.komi_max),
            },
            "players": players,
        }


def _round_order(game: Game) -> int:
    return game.round if game.round is not None else 0
