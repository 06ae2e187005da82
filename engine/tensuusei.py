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
import functools
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any, ClassVar

from engine import ratings, settings
from engine.calendar import Phase
from engine.errors import EngineError, RuleError
from engine.ranks import STRONGEST_DAN, WEAKEST_KYU, Rank
from engine.settings import Setting
from engine.system import (
    GAME_WEIGHT,
    NOBODY,
    Applied,
    Band,
    Card,
    Change,
    HandicapAdvice,
    Measure,
    Notice,
    Pending,
    Progress,
    RankLimit,
    RankTrail,
    RatingScale,
    Stakes,
    Weight,
    applied,
    default_activity,
    listed,
    never_rated,
    stakes_by_trial,
    unit,
)
from engine.text import Msg, plural
from engine.types import (
    DayEnded,
    Entry,
    Event,
    Game,
    GamePlayed,
    Override,
    PlayerId,
    Registered,
    Result,
    SettingsChanged,
    Tournament,
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
                Msg(
                    "the points spacing between ranks must be 1 or more, not {value}",
                    value=self.spacing,
                )
            )
        if self.max_games_per_pair_day is not None and self.max_games_per_pair_day < 1:
            raise EngineError(
                Msg(
                    "games a pair may count per day must be 1 or more (or none for no limit), "
                    "not {value}",
                    value=self.max_games_per_pair_day,
                )
            )


DEFAULT_PARAMS = TensuuseiParams()

SETTINGS: tuple[Setting, ...] = (
    settings.whole(
        "tensuusei.anchor",
        Msg("a new 1 dan's points: where the rank line starts"),
        params=TensuuseiParams,
        field="anchor_1d",
        low=1,
        high=100_000,
        example="130",
        rule=Msg("Tensuusei initial points assignment (Tagajo branch, Nihon Kiin): 1d = 130"),
    ),
    settings.whole(
        "tensuusei.spacing",
        Msg("points between two ranks on the rank line"),
        params=TensuuseiParams,
        field="spacing",
        low=1,
        high=10_000,
        example="12",
        rule=Msg("Tensuusei initial points assignment: 12 points a rank"),
    ),
    settings.whole(
        "tensuusei.pair_games_per_day",
        Msg("games one pair may count a day"),
        params=TensuuseiParams,
        field="max_games_per_pair_day",
        low=1,
        high=100,
        example="3",
        none=Msg("every game counts"),
        rule=Msg("Tensuusei local rule 1: up to three games a pair a day"),
    ),
    settings.switch(
        "tensuusei.settle_end_of_day",
        Msg("points change at the end of the day, not game by game"),
        params=TensuuseiParams,
        field="settle_end_of_day",
        rule=Msg("Tensuusei local rule 2: points are settled at the end of the day"),
    ),
)
"""The club's Tensuusei settings (``/club set tensuusei.…``); defaults from TensuuseiParams."""


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
    """The rank whose initial points are nearest to ``points`` (rules.md §2.2 Decision — rank
    equivalent).

    Points are what Tensuusei rates; the rank beside them is a label: with the seed's line 1d
    covers 124–135, and a tie (exactly halfway between two ranks) goes to the stronger rank,
    so one lost game does not turn a fresh 1d into 1k. Limited to the ladder (35k … 9d).
    """
    step = _raw_step(points, params)
    return _RANKS[_HIGHEST_STEP if step > _HIGHEST_STEP else max(_LOWEST_STEP, step)]


def next_step_points(points: int, params: TensuuseiParams = DEFAULT_PARAMS) -> int:
    """The points where the next rank equivalent's range begins (rules.md §2.2 Decision).

    The range of the rank with initial points ``p`` starts half a ``spacing`` below ``p``
    (a tie belonging to the stronger rank): 136 for 2d on the seed's line.
    """
    spacing = params.spacing
    return params.anchor_1d + spacing * _raw_step(points, params) - spacing // 2


def _raw_step(points: int, params: TensuuseiParams) -> int:
    """The rank step (1d = 1, 1k = 0) of the nearest point on the line, not limited to the
    ladder; exactly halfway rounds up (to the stronger rank), in integers:
    ``floor((points − anchor) / spacing + ½) + 1``."""
    spacing = params.spacing
    return (2 * (points - params.anchor_1d) + spacing) // (2 * spacing) + 1


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
            Msg(
                "White takes the higher points: {white} (White) is below {black} "
                "(Black); swap the players",
                white=white_points,
                black=black_points,
            )
        )
    if difference > TABLE_MAX_DIFFERENCE:
        # rules.md §2.1 Decision: beyond the table, answer its last cell and say so
        return TABLE_MAX_STONES, KOMI_BY_COLUMN[-1], True
    stones, column = divmod(difference, POINTS_PER_STONE)
    return stones, KOMI_BY_COLUMN[column], False


# ------------------------------------------------------------------------------- the ledger


class _Player:
    __slots__ = ("games", "last_played", "pending", "points")

    def __init__(self, points: int) -> None:
        self.points = points  # settled points
        self.games = 0  # rated (counted) games, settled or pending
        self.last_played: dt.date | None = None
        # local rule 2: per unsettled club day, [net of its counted games, their number]
        self.pending: dict[dt.date, list[int]] = {}

    def pending_total(self) -> int:
        return sum(net for net, _ in self.pending.values())


class _PairDay:
    """One pair's games on one club day, held until the day ends (rules.md §2.3).

    ``counted`` holds ``(game id, winner, jigo, settled)`` of the games local rule 1 lets
    count, in the order they were folded (calendar order: their date, then the log);
    ``settled`` marks a game that moved the points as it was entered (its day had ended:
    §2.3, late reports), so the day's end leaves it out of the net. ``skipped`` holds the ids
    of the games beyond the day's limit.
    """

    __slots__ = ("counted", "skipped")

    def __init__(self) -> None:
        self.counted: list[tuple[int, PlayerId, bool, bool]] = []
        self.skipped: list[int] = []


# The version of this rulebook's results, bumped by hand whenever a change makes any of its
# ratings, ranks, cards, history rows or refusals differ (a snapshot of a club's ledgers is kept
# only under the RULES_VERSION it was made with: storage.snapshots.system_version; and
# tests/engine/test_rules_versions.py fails when the results move without a bump). A docstring,
# a comment or a refactor that keeps every result leaves it alone.
RULES_VERSION = 1


class Tensuusei:
    """The Tensuusei points ledger (rules.md §2): one point a game, conserved.

    Facts arrive in calendar order (rules.md, Calendar order): every club game of a day comes
    before that day's :class:`DayEnded`, so the ledger holds a day's games until the day is
    settled. A game of a day that has ended — a tournament's earlier rounds, folded at its end
    date; every game of a tournament finalised after its days (``finalised_on``); a fold not
    in calendar order — belongs to that day (its pair's count under local rule 1) and is
    settled as it is entered, never left pending (rules.md §2.3, Decision — late reports).
    For that, a settled day keeps one count per pair (the games it held), nothing more.

    Args:
        params: the club's settings; the seed club's by default.
    """

    key = "tensuusei"
    rules_version = RULES_VERSION
    """This rulebook's :data:`RULES_VERSION` (what a snapshot of the ledger is kept under)."""
    language = "ja"
    """Japanese, the points system's (点数制): a club's default language (issue 13)."""
    activity = default_activity()
    """The rulebook sets no activity rule: hoshi's 12 months, said as such (issue 14)."""
    scheduled = frozenset({Phase.DAY_END})
    file_rating_titles: tuple[str, ...] = ()  # no file carries Tensuusei points
    """The club's end of day settles the day's games (rules.md §2.3 local rule 2)."""

    handles: frozenset[type[Event]]
    """Registrations, games, tournaments, day ends, overrides and settings (the keys of the
    dispatch table below); periods, months, EGF ratings and PSG actions are no-ops."""

    _HANDLERS: ClassVar[dict[type, Any]]

    def __init__(self, params: TensuuseiParams = DEFAULT_PARAMS) -> None:
        self._trail = RankTrail()  # each player's rank through the calendar
        self._everyone = False  # the last fact moved every card (the rank line: a setting)
        self.params = params
        self._players: dict[PlayerId, _Player] = {}
        # the unsettled club days: per date, per pair (lower id, higher id), its games
        self._days: dict[dt.date, dict[tuple[PlayerId, PlayerId], _PairDay]] = {}
        # the settled club days: per date, per pair, how many games it held (counted or not):
        # a late game takes its place in that count (rules.md §2.3 local rule 1, late reports)
        self._counts: dict[dt.date, dict[tuple[PlayerId, PlayerId], int]] = {}
        self._ended: dt.date | None = None  # the latest club day ended (DayEnded)
        self._ranks: dict[int, Rank] = {}  # rank equivalents by points, memoised

    def _rank(self, points: int) -> Rank:
        """The rank equivalent of ``points`` (rules.md §2.2), memoised for the history rows."""
        rank = self._ranks.get(points)
        if rank is None:
            rank = self._ranks[points] = rank_equivalent(points, self.params)
        return rank

    # ------------------------------------------------------------------------- events

    def apply(self, event: Event) -> Applied:
        """Fold one event in (rules.md §2); raises and changes nothing on error.

        It touches the players it names and those it changed: a day's end, the players of
        the pairs it settles (rules.md §2.3), never the whole club; a setting that moves the
        rank line (§2.2) every player, their rank equivalents with it."""
        handler = self._HANDLERS.get(type(event))
        if handler is None:
            return Applied([], NOBODY)
        self._everyone = False
        changes: list[Change] = handler(self, event)
        self._trail.note(changes)
        if self._everyone:
            return Applied(changes, None)
        return applied(event, changes)

    def due(self, today: dt.date) -> list[Event]:
        """The club days before ``today`` still holding games, oldest first: each ends at the
        club's midnight, and its pairs are settled (rules.md §2.3 local rule 2; a day's games
        are held to its end for local rule 1's count even when they move the points at once).
        A day without a rated game has nothing to settle: its end would change nothing."""
        return [DayEnded(day) for day in sorted(self._days) if day < today]

    def _game_played(self, event: GamePlayed) -> list[Change]:
        game = event.game
        if not self._rateable(game):
            return []
        for player in (game.black, game.white):
            if player not in self._players:
                raise RuleError(
                    Msg(
                        "player {player} is not registered under Tensuusei; register them "
                        "with a rank first (e.g. {example})",
                        player=player,
                        example="/register NAME 5k",
                    )
                )
        changes: list[Change] = []
        self._rate(game, changes, ended=self._has_ended(game.date))
        return changes

    def _has_ended(self, day: dt.date) -> bool:
        """Whether the club day ``day`` has ended in what is folded so far (a DayEnded on or
        after it)."""
        return self._ended is not None and day <= self._ended

    def _day_ended(self, event: DayEnded) -> list[Change]:
        if self._ended is None or event.date > self._ended:
            self._ended = event.date
        return self._settle(event.date)

    def _settings(self, event: SettingsChanged) -> list[Change]:
        """The club changed its Tensuusei settings from ``event.date`` on (``SETTINGS``): the
        facts from that date are folded with the new params (a player registered later is
        placed on the new rank line; points already held stay, their rank equivalents follow
        the new line)."""
        params = settings.params_with(self.params, SETTINGS, event.values)
        if params != self.params:
            line = (params.anchor_1d, params.spacing)
            # a new rank line moves every player's rank equivalent (§2.2)
            self._everyone = line != (self.params.anchor_1d, self.params.spacing)
            self.params = params
            self._ranks = {}
        return []

    def _register(self, event: Registered) -> list[Change]:
        if event.player in self._players:
            raise RuleError(
                Msg("player {player} is already registered under Tensuusei", player=event.player)
            )
        points = None if event.rating is None else ratings.require_whole(event.rating, POINTS_NAME)
        if points is None:
            points = initial_points(event.rank, self.params)
        self._players[event.player] = _Player(points)
        rank = self._rank(points)
        note = (
            plural("{n} point carried over", "{n} points carried over", points)
            if event.rating is not None
            else plural(
                "{n} point for {rank} (the club's line: 1d = {anchor}, {spacing} points a rank)",
                "{n} points for {rank} (the club's line: 1d = {anchor}, {spacing} points a rank)",
                points,
                rank=str(event.rank),
                anchor=self.params.anchor_1d,
                spacing=self.params.spacing,
            )
        )
        return [Change(event.player, event.date, "registration", None, points, rank, rank, note)]

    def _override(self, event: Override) -> list[Change]:
        player = self._players.get(event.player)
        if player is None:
            raise RuleError(
                Msg("player {player} is not registered under Tensuusei", player=event.player)
            )
        if event.rating is not None:
            points = ratings.require_whole(event.rating, POINTS_NAME)
        elif event.rank is not None:
            # ours: a rank alone sets the points to that rank's initial points (§2.2)
            points = initial_points(event.rank, self.params)
        else:
            raise RuleError(
                Msg(
                    "an override needs new points or a rank, e.g. {example} or {other}",
                    example="rating=120",
                    other="rank=2k",
                )
            )
        before = player.points
        player.points = points
        note = event.reason
        if points != before:
            committee = plural(
                "(committee: {change} point outside any game)",
                "(committee: {change} points outside any game)",
                abs(points - before),
                change=f"{points - before:+d}",
            )
            note = (
                Msg("{reason} {committee}", reason=note, committee=committee)
                if note
                else committee
            )
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
        """A tournament's games, each on its own club day (rules.md §2.3). It is folded at its
        end date, so the days before it have ended there; so have the days before the day it
        was finalised on: their games are settled as they are entered (Decision — late
        reports), the others wait for their day's end."""
        players = self._players
        changes: list[Change] = []
        games = sorted(event.games, key=_round_order)  # stable: file order within a round
        end = event.tournament.end
        finalised_on = event.finalised_on
        for game in games:
            # ours: a game with a guest (not registered here) moves no points
            if game.black in players and game.white in players and self._rateable(game):
                ended = (
                    game.date < end
                    or (finalised_on is not None and game.date < finalised_on)
                    or self._has_ended(game.date)
                )
                self._rate(game, changes, ended=ended)
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

    def _pair_day(self, game: Game) -> _PairDay:
        """The game's pair on the game's day (created when it is the pair's first game)."""
        black, white = game.black, game.white
        pair = (black, white) if black < white else (white, black)
        day = self._days.get(game.date)
        if day is None:
            day = self._days[game.date] = {}
        found = day.get(pair)
        if found is None:
            found = day[pair] = _PairDay()
        return found

    def _rate(self, game: Game, changes: list[Change], *, ended: bool) -> None:
        """One rated game: local rule 1, then at once or pending (rules.md §2.1, §2.3).

        ``ended``: the game's club day has ended (Decision — late reports): it takes its place
        in that day's count and moves the points as it is entered, never left pending.
        """
        black, white = game.black, game.white
        pair = (black, white) if black < white else (white, black)
        limit = self.params.max_games_per_pair_day
        day = self._days.get(game.date)
        pair_day: _PairDay | None = None
        if ended and day is None:
            # a settled day (or one with no games yet): its pair's count is all it kept
            counts = self._counts.get(game.date)
            if counts is None:
                counts = self._counts[game.date] = {}
            held = counts.get(pair, 0)
            counts[pair] = held + 1
            if limit is not None and held >= limit:
                # rules.md §2.3 local rule 1: stored, not rated; the history says so
                self._not_counted(game, held + 1, limit, changes)
                return
        else:
            pair_day = self._pair_day(game)
            if limit is not None and len(pair_day.counted) >= limit:
                # rules.md §2.3 local rule 1: stored, not rated; the history says so
                pair_day.skipped.append(game.id)
                held = len(pair_day.counted) + len(pair_day.skipped)
                self._not_counted(game, held, limit, changes)
                return
        # rules.md §2.1: a jigo is a win for White (as if komi were +0.5)
        if game.result is Result.BLACK:
            winner, loser = black, white
        else:
            winner, loser = white, black
        at_once = ended or not self.params.settle_end_of_day
        if pair_day is not None:
            pair_day.counted.append((game.id, winner, game.result is Result.JIGO, at_once))
        players = self._players
        won, lost = players[winner], players[loser]
        for player in (won, lost):
            player.games += 1
            if player.last_played is None or game.date > player.last_played:
                player.last_played = game.date
        if not at_once:
            # rules.md §2.3 local rule 2 (Decision): pending until the club's end of day
            for player, delta in ((won, 1), (lost, -1)):
                pending = player.pending.get(game.date)
                if pending is None:
                    pending = player.pending[game.date] = [0, 0]
                pending[0] += delta
                pending[1] += 1
            return
        note = JIGO_NOTE if game.result is Result.JIGO else ""
        if ended and self.params.settle_end_of_day:
            late = _settled_late(game.date)
            note = Msg("{late}; {jigo}", late=late, jigo=note) if note else late
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
        note = plural(
            "{ordinal} game of the pair on {date}: not rated "
            "(Tensuusei local rule: {n} game a pair a day)",
            "{ordinal} game of the pair on {date}: not rated "
            "(Tensuusei local rule: {n} games a pair a day)",
            limit,
            ordinal=_ordinal(ordinal),
            date=game.date,
        )
        source = f"game:{game.id}"
        for player in (game.black, game.white):
            points = self._players[player].points
            rank = self._rank(points)
            changes.append(Change(player, game.date, source, points, points, rank, rank, note))

    def _settle(self, date: dt.date) -> list[Change]:
        """Settle every club day up to ``date``, per pair (rules.md §2.3 local rule 2).

        In calendar order these are the games of ``date`` itself; a day before it is still
        held only when its games came after its own end (see the class). Each settled day is
        dropped: nothing is kept for days gone.
        """
        due = sorted(day for day in self._days if day <= date)
        changes: list[Change] = []
        settle = self.params.settle_end_of_day
        limit = self.params.max_games_per_pair_day
        for day in due:
            pairs = self._days.pop(day)
            counts = self._counts.get(day)
            if counts is None:
                counts = self._counts[day] = {}
            for pair, held in pairs.items():  # what a late game of this day is counted after
                counts[pair] = counts.get(pair, 0) + len(held.counted) + len(held.skipped)
            if not settle:
                continue  # the points moved at each game; only local rule 1's count ends
            source = f"day:{day.isoformat()}"
            for (low, high), whole in pairs.items():
                # the games settled as they were entered (late reports) moved already
                pair_day = _PairDay()
                pair_day.counted = [g for g in whole.counted if not g[3]]
                pair_day.skipped = whole.skipped
                if not pair_day.counted and whole.counted:
                    continue
                low_wins = sum(1 for _, winner, _, _ in pair_day.counted if winner == low)
                high_wins = len(pair_day.counted) - low_wins
                net = low_wins - high_wins  # 2–1 → the pair's winner +1, the other −1
                for player_id, opponent, delta, wins, losses in (
                    (low, high, net, low_wins, high_wins),
                    (high, low, -net, high_wins, low_wins),
                ):
                    player = self._players[player_id]
                    player.pending.pop(day, None)
                    before = player.points
                    player.points = before + delta
                    changes.append(
                        Change(
                            player_id,
                            day,
                            source,
                            before,
                            before + delta,
                            self._rank(before),
                            self._rank(before + delta),
                            _day_note(player_id, opponent, wins, losses, pair_day, limit),
                        )
                    )
        return changes

    # ------------------------------------------------------------------------ queries

    def players(self) -> Iterable[PlayerId]:
        """Every registered player."""
        return list(self._players)

    def open_period(self) -> Sequence[Game]:
        """Club games held for a rating period not closed yet (the RatingSystem protocol)."""
        return ()  # a club day is settled at its end, not in a period (§2.3)

    def period_weight(self) -> Weight | None:
        """None: a game is settled at its day's end (rules.md §2.3), never held for a period."""
        return None

    def card(self, player: PlayerId) -> Card:
        """Settled points as the rating, the day's pending change apart (rules.md §2.3)."""
        state = self._players[player]
        net = state.pending_total()
        values = [
            Measure("points", POINTS, state.points, _points(state.points)),
            Measure("rank_equivalent", Msg("rank equivalent"), str(self._rank(state.points))),
            Measure("pending", PENDING, net, _points(net)),
        ]
        if state.pending:
            values.append(Measure("pending_days", PENDING, _pending_text(state)))
        return Card(
            player=player,
            rank=self._rank(state.points),
            rating=state.points,
            rating_label=POINTS,
            sort_key=(state.points,),
            games=state.games,
            last_played=state.last_played,
            pending=Pending(net, _points(net), Phase.DAY_END) if state.pending else None,
            values=tuple(values),
        )

    def announcement(self, phase: Phase, label: str, changes: Sequence[Change]) -> Notice | None:
        """A club day settled (rules.md §2.3 local rule 2); ``None`` at the other moments, and
        when no pair was left to settle (the day had no games, or each was settled as it was
        entered: late reports)."""
        if phase is not Phase.DAY_END or not changes:
            return None
        title = Msg("the day {day} is settled", day=label)
        if any(c.rating_after != c.rating_before for c in changes):
            return Notice(title)
        return Notice(title, (Msg("Every pair broke even: no points moved."),))

    def rank_bands(self) -> tuple[Band, ...]:
        """Each rank's points around its initial points, one ``spacing`` wide (rules.md §2.2),
        from 29k to 8d, on the club's rank line."""
        half = self.params.spacing // 2
        return tuple(
            Band(low, low + self.params.spacing, Rank(step))
            for step in range(-29, 9)
            for low in (initial_points(Rank(step), self.params) - half,)
        )

    def tournament_weight(self, tournament: Tournament) -> Weight | None:
        """None: every rated game moves one point, whatever the tournament (rules.md §2)."""
        return None

    def time_weight(self, tournament: Tournament) -> Weight:
        """One: every rated game moves one point whatever its time control (rules.md §2: the
        seed sets no time limit); 19×19 only (ours)."""
        if tournament.board != RATED_BOARD:
            board = Msg(
                "{size}×{size} games are stored, not rated under Tensuusei (19×19 only)",
                size=tournament.board,
            )
            return Weight(GAME_WEIGHT, 0, False, (board,))
        time = Msg("no time control given") if tournament.time is None else str(tournament.time)
        return Weight(
            GAME_WEIGHT,
            1,
            True,
            (
                Msg(
                    "{time}: every rated game moves one point, whatever its time control "
                    "(Tensuusei: the winner +1, the loser −1)",
                    time=time,
                ),
            ),
        )

    def entry_notes(self, tournament: Tournament, entries: Sequence[Entry]) -> list[str]:
        """Nothing: Tensuusei has no entry-rank rules (rules.md §2)."""
        return []

    def initial_rank_limit(self) -> RankLimit | None:
        """None: any declared rank is placed on the rank line (rules.md §2.2)."""
        return None

    def stakes(self, game: Game) -> Stakes:
        """Each player's points won or lost by ``game``, if Black wins and if White wins: one
        point a game (rules.md §2), settled at the day's end (§2.3 local rule 2), nothing for
        a game beyond the pair's limit for the day (local rule 1) — the points and the day's
        pending net as folding it gives them. Changes nothing."""
        ended = self._has_ended(game.date)
        return stakes_by_trial(
            self,
            game,
            lambda ledger, player: ledger._held_points(player),
            POINTS,
            "" if ended else Msg("settled at the day's end"),
        )

    def _held_points(self, player: PlayerId) -> int:
        """The player's points with their unsettled days' nets (raises ``KeyError``)."""
        standing = self._players[player]
        return standing.points + standing.pending_total()

    def uncounted(self, game: Game) -> str | None:
        """Why ``game`` will not move points, asked before it is folded in (rules.md §2.3
        local rule 1; ours: 19×19 only, pair go and guests); ``None`` when it counts.

        The pair's count for the day is kept, settled or not: a game reported late takes its
        place in it (§2.3, late reports).
        """
        common = never_rated(game)
        if common is not None:
            return common
        if game.pair_go:
            return Msg("pair go games are stored, not rated under Tensuusei")
        if game.board != RATED_BOARD:
            return Msg(
                "{size}×{size} games are not rated under Tensuusei (the handicap "
                "table is for 19×19)",
                size=game.board,
            )
        for player in (game.black, game.white):
            if player not in self._players:
                return Msg(
                    "player {player} has no Tensuusei points, so the game moves none",
                    player=player,
                )
        limit = self.params.max_games_per_pair_day
        if limit is None:
            return None
        black, white = game.black, game.white
        pair = (black, white) if black < white else (white, black)
        pair_day = self._days.get(game.date, {}).get(pair)
        if pair_day is None:
            held = self._counts.get(game.date, {}).get(pair, 0)
            if held < limit:
                return None
        elif len(pair_day.counted) < limit:
            return None
        else:
            held = len(pair_day.counted) + len(pair_day.skipped)
        ordinal = _ordinal(held + 1)
        return plural(
            "{ordinal} game between these two players on {date} "
            "(Tensuusei local rule: {n} game a pair a day)",
            "{ordinal} game between these two players on {date} "
            "(Tensuusei local rule: {n} games a pair a day)",
            limit,
            ordinal=ordinal,
            date=game.date,
        )

    def rank_on(self, player: PlayerId, day: dt.date) -> Rank:
        """The player's rank at the start of ``day`` (engine.system.RankTrail); ``KeyError``
        for a player this ledger never knew."""
        found = self._trail.on(player, day)
        return found if found is not None else self.card(player).rank

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
                notes.append(Msg("equal points: choose colours by nigiri"))
        white_points, black_points = max(points_a, points_b), min(points_a, points_b)
        stones, komi, beyond = handicap_from_points(white_points, black_points)
        difference = white_points - black_points
        if beyond:
            notes.append(
                Msg(
                    "a difference of {difference} points is beyond the table (0–{most}): "
                    "its last cell, {stones} stones and komi {komi}",
                    difference=difference,
                    most=TABLE_MAX_DIFFERENCE,
                    stones=stones,
                    komi=komi,
                )
            )
        if komi < 0:
            notes.append(Msg("komi {komi} to Black", komi=-komi))
        notes.append(Msg("a jigo counts as a win for White"))
        notes.append(Msg("komi is given as stones in the prisoner tray (local rule 3)"))
        if reduction:
            notes.append(
                Msg(
                    "a handicap reduction ({reduction}) does not apply under Tensuusei",
                    reduction=reduction,
                )
            )
        if self._players[a].pending or self._players[b].pending:
            notes.append(Msg("from the settled points; a day's games settle at its end"))
        return HandicapAdvice(black, white, stones, Fraction(komi), tuple(notes), own_komi=True)

    def promotion(self, player: PlayerId) -> Progress:
        """Tensuusei has no promotion: the points and where the next rank step begins (§2.2)."""
        state = self._players[player]
        params = self.params
        rank = self._rank(state.points)
        nxt = next_step_points(state.points, params)
        target_step = _raw_step(state.points, params) + 1
        target = Rank(target_step) if _LOWEST_STEP <= target_step <= _HIGHEST_STEP else None
        settled = (
            plural(
                "{n} point (settled), pending {pending}.",
                "{n} points (settled), pending {pending}.",
                state.points,
                pending=_pending_text(state),
            )
            if state.pending
            else plural("{n} point (settled).", "{n} points (settled).", state.points)
        )
        lines = [
            Msg(
                "Tensuusei has no promotion: the points are the standing, and they set the "
                "handicap."
            ),
            settled,
            Msg(
                "Rank equivalent {rank} on the club's line (1d = {anchor}, "
                "{spacing} points a rank).",
                rank=str(rank),
                anchor=params.anchor_1d,
                spacing=params.spacing,
            ),
        ]
        if target is not None:
            lines.append(
                Msg(
                    "The next step ({target} equivalent) begins at {points} points: "
                    "{to_go} to go.",
                    target=str(target),
                    points=nxt,
                    to_go=nxt - state.points,
                )
            )
        return Progress(player, rank, target, tuple(lines))

    def rating_scale(self) -> RatingScale:
        """Points on the club's rank line (rules.md §2.2), from the weakest rank's initial
        points to 9d's, widened by ten ranks either side (ours: points move one a game, so a
        player drifts off the line only slowly; 2100 or −1000 is a mistake in a table)."""
        margin = SCALE_MARGIN_RANKS * self.params.spacing
        low = initial_points(_RANKS[_LOWEST_STEP], self.params) - margin
        high = initial_points(_RANKS[_HIGHEST_STEP], self.params) + margin
        return RatingScale(Msg("Tensuusei points"), low, high)

    def snapshot(self) -> dict[str, Any]:
        """The whole ledger as plain, canonically ordered data."""
        return {
            "system": self.key,
            "trail": self._trail.snapshot(),
            "params": asdict(self.params),
            "players": {
                str(pid): {
                    "points": p.points,
                    "games": p.games,
                    "last_played": p.last_played.isoformat() if p.last_played else None,
                    "pending": {
                        day.isoformat(): list(value) for day, value in sorted(p.pending.items())
                    },
                }
                for pid, p in sorted(self._players.items())
            },
            "days": {
                day.isoformat(): {
                    f"{low}-{high}": {
                        "counted": [list(g) for g in pair_day.counted],
                        "skipped": list(pair_day.skipped),
                    }
                    for (low, high), pair_day in sorted(pairs.items())
                }
                for day, pairs in sorted(self._days.items())
            },
            "ended": None if self._ended is None else self._ended.isoformat(),
            "counts": {
                day.isoformat(): {f"{low}-{high}": held for (low, high), held in sorted(c.items())}
                for day, c in sorted(self._counts.items())
            },
        }


POINTS = Msg("points")
POINTS_NAME = Msg("Tensuusei points")
"""The Tensuusei rating's name on a card (Japanese: 点数)."""
PENDING = Msg("pending")
JIGO_NOTE = Msg("jigo: a win for White (Tensuusei)")


def _points(value: int) -> str:
    """The unit of ``value`` points (one point, two points)."""
    return unit(plural("point", "points", abs(value)))


def _pending_text(player: _Player) -> str:
    """``+1 from 2026-11-20, −1 from 2026-11-21``: each unsettled day's net (rules.md §2.3)."""
    return listed(
        [
            Msg("{change} from {date}", change=_signed(net), date=day)
            for day, (net, _) in sorted(player.pending.items())
        ]
    )


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "±0")


def _ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st (each language writes its own)."""
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        # TRANSLATORS: an ordinal number (4th, 11th): "game {ordinal} of the day"
        return Msg("{n}th", n=n)
    if n % 10 == 1:
        # TRANSLATORS: an ordinal number ending in 1 (1st, 21st)
        return Msg("{n}st", n=n)
    if n % 10 == 2:
        # TRANSLATORS: an ordinal number ending in 2 (2nd, 22nd)
        return Msg("{n}nd", n=n)
    # TRANSLATORS: an ordinal number ending in 3 (3rd, 23rd)
    return Msg("{n}rd", n=n)


@functools.lru_cache(maxsize=4096)
def _settled_late(day: dt.date) -> Msg:
    """The note of a game whose club day had ended (rules.md §2.3, Decision — late reports):
    made once a day (a Msg is immutable; a finalised tournament's games share a few days)."""
    return Msg("its day, {day}, had ended: settled as it was entered", day=day)


_NOTE_GAMES = 6  # games listed by number in a day's note; more are summed up (a chat line)


def _day_note(
    player: PlayerId,
    opponent: PlayerId,
    wins: int,
    losses: int,
    pair_day: _PairDay,
    limit: int | None,
) -> str:
    """The day's games of one pair from ``player``'s side, for ``/history`` (rules.md §2.3):
    ``2–1 against {player:7}: {game:11} won, {game:12} lost, {game:13} jigo (won with White);
    {game:14}: 4th game of the pair that day, not rated (3 a pair a day count)``. The engine
    knows no names: ``{player:ID}`` and ``{game:ID}`` are filled in by whoever shows the note
    (the player's name, the game's club number). A pair's day of one rated game names it
    as the note's ``game`` (:func:`engine.system.game_of`): the change is that game's, shown
    beside it on the tournament's page."""
    words: list[str] = []
    for gid, winner, jigo, _ in pair_day.counted[:_NOTE_GAMES]:
        mark = f"{{game:{gid}}}"
        if winner != player:  # a jigo is won by White (§2.1): the loser had Black
            words.append(Msg("{game} jigo (lost with Black)", game=mark) if jigo
                         else Msg("{game} lost", game=mark))  # fmt: skip
        else:
            words.append(Msg("{game} jigo (won with White)", game=mark) if jigo
                         else Msg("{game} won", game=mark))  # fmt: skip
    more = len(pair_day.counted) - _NOTE_GAMES
    if more > 0:
        words.append(Msg("{n} more", n=more))
    score = f"{wins}–{losses}"
    # the one rated game of the pair's day: the change is that game's (a Msg keeps the
    # argument and its text does not use it)
    own: dict[str, Any] = {"game": pair_day.counted[0][0]} if len(pair_day.counted) == 1 else {}
    opponent_mark = f"{{player:{opponent}}}"
    skipped = pair_day.skipped
    if not skipped or limit is None:
        return Msg(
            "{score} against {opponent}: {games}",
            score=score,
            opponent=opponent_mark,
            games=listed(words),
            **own,
        )
    marks = [f"{{game:{gid}}}" for gid in skipped[:_NOTE_GAMES]]
    numbers = listed(marks)
    if len(skipped) > _NOTE_GAMES:
        numbers = Msg("{games} and {n} more", games=numbers, n=len(skipped) - _NOTE_GAMES)
    first = _ordinal(limit + 1)
    if len(skipped) == 1:
        return Msg(
            "{score} against {opponent}: {games}; {skipped}: {ordinal} game of the pair that "
            "day, not rated ({limit} a pair a day count)",
            score=score,
            opponent=opponent_mark,
            games=listed(words),
            skipped=numbers,
            ordinal=first,
            limit=limit,
            **own,
        )
    return Msg(
        "{score} against {opponent}: {games}; {skipped}: {ordinal} and later games of the "
        "pair that day, not rated ({limit} a pair a day count)",
        score=score,
        opponent=opponent_mark,
        games=listed(words),
        skipped=numbers,
        ordinal=first,
        limit=limit,
        **own,
    )


def _round_order(game: Game) -> int:
    return game.round if game.round is not None else 0


Tensuusei._HANDLERS = {
    Registered: Tensuusei._register,
    GamePlayed: Tensuusei._game_played,
    TournamentRated: Tensuusei._tournament,
    DayEnded: Tensuusei._day_ended,
    Override: Tensuusei._override,
    SettingsChanged: Tensuusei._settings,
}
Tensuusei.handles = frozenset(Tensuusei._HANDLERS)
