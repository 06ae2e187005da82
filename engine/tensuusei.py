"""Points Rating System — Tensuusei 点数制 (rules.md §2; seed points-rating-system-tensuusei.txt).

Every rated game moves one point: the winner gains 1, the loser loses 1, so the club's points
are conserved. Handicap and komi follow from the points difference (§2.1); new players start
from the rank line (§2.2); the seed club's local rules (§2.3) cap the games of one pair per day
at three and settle a day's games at the club's end of day.

Decisions where rules.md and the seed are silent (ours, each named where it is applied):

* only played 19×19 games with a known result are rated (the §2.1 table is a 19×19 table);
  pair go games are stored, not rated;
* a tournament game is rated only when both players are registered here (a guest has no points
  to move, and rating one side alone would break conservation); a single game with an
  unregistered player is refused;
* the handicap table keeps the seed's 12 points a stone whatever the club's rank ``spacing``
  (the spacing places new players; the table is the seed's);
* an ``Override`` with only a rank sets the points to that rank's initial points.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any

from engine.errors import EngineError, RuleError
from engine.ranks import STRONGEST_DAN, WEAKEST_KYU, Rank
from engine.system import Card, Change, HandicapAdvice, Progress, RatingScale
from engine.types import (
    DayEnded,
    Event,
    Game,
    GamePlayed,
    Override,
    PlayerId,
    Registered,
    Result,
    TournamentRated,
)

# Seed table "Points Difference / Handi / Komi" (rules.md §2.1): each row of twelve
# differences is one more handicap stone; the bottom row gives the komi of each column
# (positive: to White, negative: to Black).
POINTS_PER_STONE = 12
KOMI_BY_COLUMN = (6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5)
TABLE_MAX_STONES = 8  # the table's last row, d = 96 … 107
TABLE_MAX_DIFFERENCE = POINTS_PER_STONE * (TABLE_MAX_STONES + 1) - 1  # 107

# Seed "Initial Points Assignment" (Tagajo branch, Nihon Kiin; rules.md §2.2):
# 9k 22, 8k 34 … 1k 118, 1d 130, 2d 142 … 8d 214 — a line through 1d = 130, 12 a rank.
INITIAL_POINTS_1D = 130
INITIAL_POINTS_SPACING = 12

# Seed local rule 1 (rules.md §2.3): a pair's games count up to three a day.
GAMES_PER_PAIR_DAY = 3

RATED_BOARD = 19  # ours: the §2.1 table is for 19×19 games

_LOWEST_STEP = 1 - WEAKEST_KYU
_HIGHEST_STEP = STRONGEST_DAN
_RANKS = {step: Rank(step) for step in range(_LOWEST_STEP, _HIGHEST_STEP + 1)}  # built once
# ours: how many ranks' spacing a rating may lie beyond the rank line (rating_scale)
SCALE_MARGIN_RANKS = 10


@dataclass(frozen=True, slots=True)
class TensuuseiParams:
    """A club's Tensuusei settings (rules.md §2.2, §2.3; each local rule is a setting).

    ``anchor_1d`` and ``spacing`` place new players on the rank line; ``max_games_per_pair_day``
    is local rule 1 (``None``: every game counts); ``settle_end_of_day`` is local rule 2.
    """

    anchor_1d: int = INITIAL_POINTS_1D
    spacing: int = INITIAL_POINTS_SPACING
    max_games_per_pair_day: int | None = GAMES_PER_PAIR_DAY
    settle_end_of_day: bool = True

    def __post_init__(self) -> None:
        if self.spacing < 1:
            raise EngineError(
                f"the points spacing between ranks must be 1 or more, not {self.spacing}"
            )
        if self.max_games_per_pair_day is not None and self.max_games_per_pair_day < 1:
            raise EngineError(
                "games a pair may count per day must be 1 or more (or none for no limit), "
                f"not {self.max_games_per_pair_day}"
            )


DEFAULT_PARAMS = TensuuseiParams()


# ------------------------------------------------------------------------- pure functions


def initial_points(rank: Rank, params: TensuuseiParams = DEFAULT_PARAMS) -> int:
    """A new player's points from their rank (rules.md §2.2).

    The seed's line, ``anchor_1d`` at 1d and ``spacing`` a rank, continued below 9k
    (10k = 10, 11k = −2 with the defaults); negative points are allowed.

    Args:
        rank: the player's declared rank.
        params: the club's anchor and spacing.

    Returns:
        The initial points.
    """
    return params.anchor_1d + params.spacing * (rank.step - 1)


def rank_equivalent(points: int, params: TensuuseiParams = DEFAULT_PARAMS) -> Rank:
    """The rank whose initial points are the highest not above ``points`` (rules.md §2.2).

    Tensuusei has no ranks of its own; this is the rank line read backwards, limited to the
    ladder (35k … 9d).
    """
    step = (points - params.anchor_1d) // params.spacing + 1
    return _RANKS[_HIGHEST_STEP if step > _HIGHEST_STEP else max(_LOWEST_STEP, step)]


def next_step_points(points: int, params: TensuuseiParams = DEFAULT_PARAMS) -> int:
    """The points where the next ``spacing`` step of the rank line begins (rules.md §2.2)."""
    return params.anchor_1d + params.spacing * _raw_step(points, params)


def _raw_step(points: int, params: TensuuseiParams) -> int:
    return (points - params.anchor_1d) // params.spacing + 1


def handicap_from_points(white_points: int, black_points: int) -> tuple[int, int, bool]:
    """Stones and komi from the points difference (rules.md §2.1; the seed's table).

    ``d = white − black``; ``stones = d // 12`` and ``komi = 6 − d % 12`` (komi > 0 to White,
    < 0 to Black). One stone is played as the table says (§2.1 Decision: not "no komi").

    Args:
        white_points: the higher player's points (White).
        black_points: the other player's points.

    Returns:
        ``(stones, komi, beyond_table)``; for d ≥ 108 the table's last cell, 8 stones and
        komi −5, with ``beyond_table`` true (§2.1 Decision).

    Raises:
        RuleError: when White has fewer points than Black (the higher player takes White).
    """
    difference = white_points - black_points
    if difference < 0:
        raise RuleError(
            f"White takes the higher points: {white_points} (White) is below {black_points} "
            "(Black); swap the players"
        )
    if difference > TABLE_MAX_DIFFERENCE:
        # rules.md §2.1 Decision: beyond the table, answer its last cell and say so
        return TABLE_MAX_STONES, KOMI_BY_COLUMN[-1], True
    stones, column = divmod(difference, POINTS_PER_STONE)
    return stones, KOMI_BY_COLUMN[column], False


# ------------------------------------------------------------------------------- the ledger


class _Player:
    __slots__ = ("games", "last_played", "pending", "pending_games", "points")

    def __init__(self, points: int) -> None:
        self.points = points  # settled points
        self.games = 0  # rated (counted) games, settled or pending
        self.last_played: dt.date | None = None
        self.pending = 0  # net of the counted games not yet settled (local rule 2)
        self.pending_games = 0


class Tensuusei:
    """The Tensuusei points ledger (rules.md §2): one point a game, conserved.

    Args:
        params: the club's settings; the seed club's by default.
    """

    key = "tensuusei"

    def __init__(self, params: TensuuseiParams = DEFAULT_PARAMS) -> None:
        self.params = params
        self._players: dict[PlayerId, _Player] = {}
        # games counted per date and pair — local rule 1; a pair is one int, ``_pair(low,
        # high)``: a federation's million games keep this table, and tuple keys were twice
        # the memory
        self._day_counts: dict[dt.date, dict[int, int]] = {}
        # pending results per date and pair (lower id, higher id): [wins of lower, wins of higher]
        self._pending: dict[dt.date, dict[tuple[PlayerId, PlayerId], list[int]]] = {}
        self._ranks: dict[int, Rank] = {}  # rank equivalents by points, memoised

    def _rank(self, points: int) -> Rank:
        """The rank equivalent of ``points`` (rules.md §2.2), memoised for the history rows."""
        rank = self._ranks.get(points)
        if rank is None:
            rank = self._ranks[points] = rank_equivalent(points, self.params)
        return rank

    # ------------------------------------------------------------------------- events

    def apply(self, event: Event) -> list[Change]:
        """Fold one event in (rules.md §2); raises and changes nothing on error."""
        if isinstance(event, GamePlayed):
            game = event.game
            if not self._rateable(game):
                return []
            for player in (game.black, game.white):
                if player not in self._players:
                    raise RuleError(
                        f"player {player} is not registered under Tensuusei; register them "
                        "with a rank first (e.g. /register NAME 5k)"
                    )
            changes: list[Change] = []
            self._rate(game, changes)
            return changes
        if isinstance(event, TournamentRated):
            return self._tournament(event)
        if isinstance(event, DayEnded):
            return self._settle(event.date)
        if isinstance(event, Registered):
            return self._register(event)
        if isinstance(event, Override):
            return self._override(event)
        return []  # other systems' events: accepted and ignored

    def _register(self, event: Registered) -> list[Change]:
        if event.player in self._players:
            raise RuleError(f"player {event.player} is already registered under Tensuusei")
        points = event.rating
        if points is None:
            points = initial_points(event.rank, self.params)
        self._players[event.player] = _Player(points)
        rank = self._rank(points)
        note = (
            f"{points} points carried over"
            if event.rating is not None
            else f"{points} points for {event.rank} (rules.md §2.2)"
        )
        return [Change(event.player, event.date, "registration", None, points, rank, rank, note)]

    def _override(self, event: Override) -> list[Change]:
        player = self._players.get(event.player)
        if player is None:
            raise RuleError(f"player {event.player} is not registered under Tensuusei")
        if event.rating is not None:
            points = event.rating
        elif event.rank is not None:
            # ours: a rank alone sets the points to that rank's initial points (§2.2)
            points = initial_points(event.rank, self.params)
        else:
            raise RuleError("an override needs new points or a rank, e.g. rating=120 or rank=2k")
        before = player.points
        player.points = points
        note = event.reason
        if points != before:
            note = f"{note} (committee: {points - before:+d} points outside any game)".strip()
        return [
            Change(
                event.player,
                event.date,
                "override",
                before,
                points,
                self._rank(before),
                self._rank(points),
                note,
            )
        ]

    def _tournament(self, event: TournamentRated) -> list[Change]:
        players = self._players
        changes: list[Change] = []
        games = sorted(event.games, key=_round_order)  # stable: file order within a round
        for game in games:
            # ours: a game with a guest (not registered here) moves no points
            if game.black in players and game.white in players and self._rateable(game):
                self._rate(game, changes)
        return changes

    @staticmethod
    def _rateable(game: Game) -> bool:
        """Played, known result, 19×19, not pair go (rules.md, unplayed games; ours: board)."""
        return (
            game.played
            and game.result is not None
            and game.board == RATED_BOARD
            and not game.pair_go
        )

    def _rate(self, game: Game, changes: list[Change]) -> None:
        """One rated game: local rule 1, then at once or pending (rules.md §2.1, §2.3)."""
        black, white = game.black, game.white
        low, high = (black, white) if black < white else (white, black)
        limit = self.params.max_games_per_pair_day
        if limit is not None:
            day_counts = self._day_counts.get(game.date)
            if day_counts is None:
                day_counts = self._day_counts[game.date] = {}
            pair = _pair(low, high)
            counted = day_counts.get(pair, 0)
            if counted >= limit:
                # rules.md §2.3 local rule 1: stored, not rated; the history says so
                self._not_counted(game, counted + 1, limit, changes)
                return
            day_counts[pair] = counted + 1
        # rules.md §2.1: a jigo is a win for White (as if komi were +0.5)
        if game.result is Result.BLACK:
            winner, loser = black, white
        else:
            winner, loser = white, black
        players = self._players
        won, lost = players[winner], players[loser]
        for player in (won, lost):
            player.games += 1
            if player.last_played is None or game.date > player.last_played:
                player.last_played = game.date
        if self.params.settle_end_of_day:
            # rules.md §2.3 local rule 2 (Decision): pending until the club's end of day
            day = self._pending.setdefault(game.date, {})
            tally = day.get((low, high))
            if tally is None:
                tally = day[(low, high)] = [0, 0]
            tally[0 if winner == low else 1] += 1
            won.pending += 1
            won.pending_games += 1
            lost.pending -= 1
            lost.pending_games += 1
            return
        note = "jigo: a win for White (rules.md §2.1)" if game.result is Result.JIGO else ""
        source = f"game:{game.id}"
        for player_id, player, delta in ((winner, won, 1), (loser, lost, -1)):
            before = player.points
            player.points = before + delta
            changes.append(
                Change(
                    player_id,
                    game.date,
                    source,
                    before,
                    before + delta,
                    self._rank(before),
                    self._rank(before + delta),
                    note,
                )
            )

    def _not_counted(self, game: Game, ordinal: int, limit: int, changes: list[Change]) -> None:
        """A pair's game beyond the day's limit: a history row that moves no points (§2.3)."""
        low, high = sorted((game.black, game.white))
        note = (
            f"game {ordinal} of the day between {low} and {high}: not rated "
            f"(only {limit} a day count, rules.md §2.3)"
        )
        source = f"game:{game.id}"
        for player in (game.black, game.white):
            points = self._players[player].points
            rank = self._rank(points)
            changes.append(Change(player, game.date, source, points, points, rank, rank, note))

    def _settle(self, date: dt.date) -> list[Change]:
        """Settle every pending game dated ≤ ``date``, per pair (rules.md §2.3 local rule 2)."""
        due = sorted(day for day in self._pending if day <= date)
        changes: list[Change] = []
        for day in due:
            source = f"day:{day.isoformat()}"
            for (low, high), (low_wins, high_wins) in self._pending.pop(day).items():
                net = low_wins - high_wins  # 2–1 → the pair's winner +1, the other −1
                for player_id, opponent, delta, wins, losses in (
                    (low, high, net, low_wins, high_wins),
                    (high, low, -net, high_wins, low_wins),
                ):
                    player = self._players[player_id]
                    before = player.points
                    player.points = before + delta
                    player.pending -= delta
                    player.pending_games -= wins + losses
                    changes.append(
                        Change(
                            player_id,
                            day,
                            source,
                            before,
                            before + delta,
                            self._rank(before),
                            self._rank(before + delta),
                            f"{wins}–{losses} against {opponent} (rules.md §2.3)",
                        )
                    )
        return changes

    # ------------------------------------------------------------------------ queries

    def players(self) -> Iterable[PlayerId]:
        """Every registered player."""
        return list(self._players)

    def lapsed(self) -> Collection[PlayerId]:
        """Nobody: no card here changes with the calendar alone."""
        return ()

    def card(self, player: PlayerId) -> Card:
        """Settled points as the rating, the day's pending change apart (rules.md §2.3)."""
        state = self._players[player]
        fields = [("rank equivalent", str(self._rank(state.points)))]
        if state.pending_games:
            fields.append(
                ("pending", f"{state.pending:+d} from {state.pending_games} game(s) today")
            )
        return Card(
            player=player,
            rank=self._rank(state.points),
            rating=state.points,
            rating_label="points",
            sort_key=(state.points,),
            games=state.games,
            last_played=state.last_played,
            pending=state.pending if state.pending_games else None,
            fields=tuple(fields),
        )

    def handicap(self, a: PlayerId, b: PlayerId, *, reduction: int = 0) -> HandicapAdvice:
        """Stones and komi from the settled (start-of-day) points (rules.md §2.1, §2.3)."""
        points_a, points_b = self._players[a].points, self._players[b].points
        notes: list[str] = []
        if points_a > points_b:
            white, black = a, b
        else:
            # equal points: ``b`` takes White here, like §5's advice (nigiri in practice)
            white, black = b, a
            if points_a == points_b:
                notes.append("equal points: choose colours by nigiri")
        white_points, black_points = max(points_a, points_b), min(points_a, points_b)
        stones, komi, beyond = handicap_from_points(white_points, black_points)
        difference = white_points - black_points
        if beyond:
            notes.append(
                f"a difference of {difference} points is beyond the table (0–"
                f"{TABLE_MAX_DIFFERENCE}): its last cell, {stones} stones and komi {komi}"
            )
        if komi < 0:
            notes.append(f"komi {-komi} to Black")
        notes.append("a jigo counts as a win for White")
        notes.append("komi is given as stones in the prisoner tray (local rule 3)")
        if reduction:
            notes.append(f"a handicap reduction ({reduction}) does not apply under Tensuusei")
        if self._players[a].pending_games or self._players[b].pending_games:
            notes.append("from the settled points; today's games settle at the end of the day")
        return HandicapAdvice(black, white, stones, Fraction(komi), tuple(notes))

    def promotion(self, player: PlayerId) -> Progress:
        """Tensuusei has no promotion: the points and where the next rank step begins (§2.2)."""
        state = self._players[player]
        params = self.params
        rank = self._rank(state.points)
        nxt = next_step_points(state.points, params)
        target_step = _raw_step(state.points, params) + 1
        target = Rank(target_step) if _LOWEST_STEP <= target_step <= _HIGHEST_STEP else None
        lines = [
            "Tensuusei has no promotion: the points are the standing, and they set the handicap.",
            f"{state.points} points (settled)"
            + (f", {state.pending:+d} pending today" if state.pending_games else "")
            + ".",
            f"Rank equivalent {rank} on the club's line (1d = {params.anchor_1d}, "
            f"{params.spacing} points a rank).",
        ]
        if target is not None:
            lines.append(
                f"The next step ({target} equivalent) begins at {nxt} points: "
                f"{nxt - state.points} to go."
            )
        return Progress(player, rank, target, tuple(lines))

    def rating_scale(self) -> RatingScale:
        """Points on the club's rank line (rules.md §2.2), from the weakest rank's initial
        points to 9d's, widened by ten ranks either side (ours: points move one a game, so a
        player drifts off the line only slowly; 2100 or −1000 is a mistake in a table)."""
        margin = SCALE_MARGIN_RANKS * self.params.spacing
        low = initial_points(_RANKS[_LOWEST_STEP], self.params) - margin
        high = initial_points(_RANKS[_HIGHEST_STEP], self.params) + margin
        return RatingScale("Tensuusei points", low, high)

    def snapshot(self) -> dict[str, Any]:
        """The whole ledger as plain, canonically ordered data."""
        return {
            "system": self.key,
            "params": asdict(self.params),
            "players": {
                str(pid): {
                    "points": p.points,
                    "games": p.games,
                    "last_played": p.last_played.isoformat() if p.last_played else None,
                    "pending": p.pending,
                    "pending_games": p.pending_games,
                }
                for pid, p in sorted(self._players.items())
            },
            "pending": {
                day.isoformat(): {
                    f"{low}-{high}": list(tally) for (low, high), tally in sorted(pairs.items())
                }
                for day, pairs in sorted(self._pending.items())
            },
            "day_counts": [
                [day.isoformat(), pair >> _PAIR_BITS, pair & _PAIR_MASK, count]
                for day, counts in sorted(self._day_counts.items())
                for pair, count in sorted(counts.items())
            ],
        }


_PAIR_BITS = 64  # player ids are SQLite integers: below 2**63
_PAIR_MASK = (1 << _PAIR_BITS) - 1


def _pair(low: PlayerId, high: PlayerId) -> int:
    """A pair of player ids (``low`` < ``high``) as one int that sorts as ``(low, high)``."""
    return (low << _PAIR_BITS) | high


def _round_order(game: Game) -> int:
    return game.round if game.round is not None else 0
