"""The MGSZ ledger: registry, tournaments, club rating periods, titles (rules.md §1, §5)."""

from __future__ import annotations

import copy
import datetime as dt
import functools
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import chain
from operator import attrgetter
from typing import Any, ClassVar

from engine import ratings, settings
from engine.calendar import Phase, month_end
from engine.errors import EngineError, RuleError
from engine.handicap import EVEN_KOMI, rank_handicap
from engine.mgsz.elo import (
    black_jp_milli,
    rank_after_tournament,
    rank_floor,
    rank_of_elo,
    round_half_up_milli,
    rounds_per_part_limit,
    split_rounds,
)
from engine.mgsz.multiplier import Multiplier, multiplier, time_category
from engine.mgsz.period import HeldGames, month_period
from engine.mgsz.tables import (
    CONFIRM_FROM_STEP,
    CONFIRMATIONS,
    ELO_SCALE,
    FULL_BOARD,
    RANK_BOUNDS,
    RATED_BOARDS,
    SMALL_BOARD,
    STRONGEST_STEP,
)
from engine.ranks import Rank
from engine.settings import Setting
from engine.system import (
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
    default_activity,
    entry_rank,
    never_rated,
    refuse_unknown_players,
    stakes_by_trial,
    touched_by,
    unit,
)
from engine.text import Msg, Typed, game_mark, plural
from engine.timecontrol import TimeControl
from engine.types import (
    Entry,
    Event,
    Game,
    GamePlayed,
    Override,
    PeriodClosed,
    PlayerId,
    Registered,
    Result,
    SettingsChanged,
    Tournament,
    TournamentRated,
)

# rules.md §1.5 (MGSZ §5(3)): the strongest initial rank an organiser may give
MAX_INITIAL_RANK = Rank.kyu(5)
ELO = Msg("Elo")
"""The MGSZ rating's name on a card (Hungarian: Élő-pont)."""
CLUB_TIME = TimeControl.parse("60m")
"""The club's usual time control for its club games until a period says otherwise (a club
setting; rules.md §1.4 Decision — club games)."""

_BLACK = attrgetter("black")
_WHITE = attrgetter("white")
_DATE = attrgetter("date")
_STONES = attrgetter("stones")
_BOARD = attrgetter("board")
_DATE_ID = attrgetter("date", "id")


@dataclass(frozen=True, slots=True)
class MgszParams:
    """A club's MGSZ settings.

    ``max_initial_rank``: the strongest rank an organiser may give a new player without a
    rating (rules.md §1.5: 5k; stronger needs the committee). ``even_komi``: the club's
    even-game komi for handicap advice (rules.md §5). ``split_club_periods``: split a club
    rating period whose C × (most games one player played) reaches 300, as §6(3) splits a
    tournament (ours; off = a period is always rated in one part). ``club_time``: the club's
    usual time control, for the provisional Elo before any period has closed (rules.md §1.4).
    """

    max_initial_rank: Rank = MAX_INITIAL_RANK
    even_komi: Fraction = EVEN_KOMI
    split_club_periods: bool = True
    club_time: TimeControl = CLUB_TIME


SETTINGS: tuple[Setting, ...] = (
    settings.rank(
        "mgsz.max_initial_rank",
        Msg("the strongest rank an organiser may give a new player without a rating"),
        params=MgszParams,
        field="max_initial_rank",
        low=Rank.kyu(30),
        high=Rank.dan(9),
        example="5k",
        rule=Msg("MGSZ Minősítési Szabályzat 5.§ (3): stronger than 5 kyu needs the committee"),
    ),
    settings.switch(
        "mgsz.split_club_periods",
        Msg("split a big club rating period into parts, as a big tournament is split"),
        params=MgszParams,
        field="split_club_periods",
        rule=Msg(
            "MGSZ Minősítési Szabályzat 6.§ (3) (splitting; for club periods hoshi's choice)"
        ),
    ),
)
"""The club's MGSZ settings (``/club set mgsz.…``); defaults from MgszParams. The even-game
komi and the usual time control are the club's own settings (``/club komi``, ``/club time``)."""


class _Standing:
    """One registered player's indicators (rules.md §1: Elo and title) and bookkeeping."""

    __slots__ = ("elo", "games", "last_change", "last_played", "rank", "reached")

    def __init__(self, elo: int, rank: Rank) -> None:
        self.elo = elo
        self.rank = rank
        self.games = 0
        self.last_played: dt.date | None = None
        # tournaments that reached each rank's bound, for ranks above the title (§1.5)
        self.reached: dict[Rank, int] = {}
        self.last_change: tuple[int, str, dt.date] | None = None


@dataclass(slots=True)
class _Provisional:
    """The open period as ``Mgsz.provisional`` rates it: C by board and the games of an
    unsplit period, or the whole outcome's Elo of a split one."""

    c_by_board: dict[int, int] = field(default_factory=dict)
    games: list[Game] = field(default_factory=list)
    elo: dict[PlayerId, int] | None = None


@dataclass(frozen=True, slots=True)
class _Outcome:
    """The computed result of rating one tournament or period, before it is committed."""

    source: str
    date: dt.date
    C: int
    new_elo: dict[PlayerId, int]
    part_changes: dict[PlayerId, list[int]]
    games: dict[PlayerId, int]
    last_played: dict[PlayerId, dt.date]
    parts: int


# The version of this rulebook's results, bumped by hand whenever a change makes any of its
# ratings, ranks, cards, history rows or refusals differ (a snapshot of a club's ledgers is kept
# only under the RULES_VERSION it was made with: storage.snapshots.system_version; and
# tests/engine/test_rules_versions.py fails when the results move without a bump). A docstring,
# a comment or a refactor that keeps every result leaves it alone.
RULES_VERSION = 1


class Mgsz:
    """The MGSZ rating system as a ledger (rules.md §1; the RatingSystem protocol)."""

    key = "mgsz"
    rules_version = RULES_VERSION
    """This rulebook's :data:`RULES_VERSION` (what a snapshot of the ledger is kept under)."""
    language = "hu"
    """Hungarian, the MGSZ Minősítési Szabályzat's: a club's default language (issue 13)."""
    activity = default_activity()
    """The rulebook sets no activity rule: hoshi's 12 months, said as such (issue 14)."""
    scheduled = frozenset({Phase.PERIOD_END})
    file_rating_titles: tuple[str, ...] = ()  # an MGSZ Elo comes from --ratings, not a file
    """The end of a club rating period rates its club games (rules.md §1.4 Decision)."""

    handles: frozenset[type[Event]]
    """Registrations, club games, period ends, tournaments, overrides and settings (the keys
    of the dispatch table below); EGF ratings, days, months and PSG actions are no-ops."""

    _HANDLERS: ClassVar[dict[type, Callable[[Mgsz, Any], list[Change]]]]

    def __init__(self, params: MgszParams | None = None) -> None:
        self._trail = RankTrail()  # each player's rank through the calendar
        self._bands = RankTrail()  # and the rank of their Elo band (entry ranks, §1.6)
        self.params = params if params is not None else MgszParams()
        self._players: dict[PlayerId, _Standing] = {}
        self._pending: list[Game] = []  # club games awaiting the period's end (§1.4 Decision)
        self._held = HeldGames()  # the same games by player, and the terms of their C
        self._club_time: TimeControl | None = self.params.club_time  # the usual time, §1.4
        # and from which day each usual time was in effect (the preview of months held at
        # once rates each with the time of its own end, as their closes do)
        self._club_times: list[tuple[dt.date, TimeControl]] = []
        self._provisional: _Provisional | None = None  # the open period, rated if it ended now
        # set by the last fact: it held a club game; it moved the period's terms as a whole
        self._added = False
        self._shaken = False

    # ------------------------------------------------------------ events

    def apply(self, event: Event) -> Applied:
        """Fold one event in (rules.md §1); raises and changes nothing on error. What it
        touched: :meth:`_touched`."""
        handler = self._HANDLERS.get(type(event))
        if handler is None:
            return Applied([], NOBODY)
        held = self._held
        self._provisional = None
        self._added = self._shaken = False
        changes: list[Change] = handler(self, event)
        if changes:  # a club game held for its period changes nobody's rank
            self._trail.note(changes)
            self._bands.note_ranks(
                (change.player, change.date, rank_of_elo(change.rating_after))
                for change in changes
                if isinstance(change.rating_after, int)
            )
        return Applied(changes, self._touched(event, changes, held))

    def _touched(
        self, event: Event, changes: list[Change], before: HeldGames
    ) -> frozenset[PlayerId]:
        """The players ``event`` touched: those it names and changed, and the held players
        whose "if the period ended now" (:meth:`provisional`) it moved without a change of
        theirs. The period is rated as a whole (rules.md §1.4 Decision — club games): a new
        C, a close or a setting moves every held player (``before`` the fact and after);
        in one part with the same C a held player's value follows their own games and their
        opponents' Elo, so an Elo that moved moves its held opponents; a period worked out
        as a whole (several months, split, a board without C) moves every held player with
        any held player's Elo or games. From the index by player: never the whole period."""
        held = self._held
        if self._shaken:
            return touched_by(event, changes, before.by_player, held.by_player)
        by_player = held.by_player
        if not by_player:
            return touched_by(event, changes)
        moved = [change.player for change in changes if change.player in by_player]
        if not moved and not self._added:
            return touched_by(event, changes)
        if self._whole():
            return touched_by(event, changes, by_player)
        opponents: set[PlayerId] = set()
        for player in moved:
            opponents.update(map(_BLACK, by_player[player]))
            opponents.update(map(_WHITE, by_player[player]))
        return touched_by(event, changes, opponents)

    def due(self, today: dt.date) -> list[Event]:
        """The club rating periods to close before ``today``: each calendar month that has
        ended and holds club games not rated yet, oldest first (rules.md §1.4, Decision —
        club games: a month's club games are rated as one tournament at its end; a game
        entered late for a month not closed yet waits for its own month's period). Each is
        :func:`~engine.mgsz.period.month_period`, with no time of its own: it is rated with
        the club's usual time control in effect at its end."""
        months = sorted(self._held.months)
        return [
            PeriodClosed(month_period(year, month))
            for year, month in months
            if month_end(year, month) < today
        ]

    def _registered(self, event: Registered) -> list[Change]:
        """A new player: Elo = the given rating, else the rank table value (rules.md §1.4)."""
        if event.player in self._players:
            raise RuleError(Msg("player {player} is already registered", player=event.player))
        given = None if event.rating is None else ratings.require_whole(event.rating, ELO_NAME)
        if given is not None and given < 0:
            raise RuleError(_negative_elo(given))
        limit = self.params.max_initial_rank
        if event.rating is None and event.rank > limit and not event.committee:
            # rules.md §1.5 (§5(3)): the organiser gives at most 5k; stronger is the committee's
            raise RuleError(
                Msg(
                    "a new player without a rating can start at {limit} at most, not {rank}: "
                    "a stronger initial rank needs a rating committee decision (MGSZ §5(3)). "
                    "Register them as {limit}, with the Elo they already have (after the rank), "
                    "or with the word override to record the committee's decision",
                    limit=str(limit),
                    rank=str(event.rank),
                )
            )
        # rules.md §1.4 Decision: default starting Elo = the rank table value of the rank
        elo = given if given is not None else rank_floor(event.rank)
        standing = _Standing(elo, event.rank)
        self._players[event.player] = standing
        note: str
        if event.rating is not None and event.committee:
            note = Msg("rating given at registration; initial rank by committee decision")
        elif event.rating is not None:
            note = Msg("rating given at registration")
        elif event.committee:
            note = Msg(
                "Elo from the rank table for {rank}; initial rank by committee decision",
                rank=str(event.rank),
            )
        else:
            note = Msg("Elo from the rank table for {rank}", rank=str(event.rank))
        return [
            Change(
                event.player,
                event.date,
                "registration",
                None,
                elo,
                event.rank,
                event.rank,
                note,
            )
        ]

    def _game_played(self, event: GamePlayed) -> list[Change]:
        """A club game: kept for the rating period, rated when it closes (§1.4 Decision)."""
        game = event.game
        if game.pair_go:
            _refuse_pair_go(game)
        players = self._players
        if game.black not in players or game.white not in players:
            unknown = game.black if game.black not in players else game.white
            raise RuleError(
                Msg(
                    "player {player} of game {game} is not registered; register them first",
                    player=unknown,
                    game=game_mark(game.id),
                )
            )
        if self.uncounted(game) is None:
            # rules.md §1.4 Decision — club games: rated together when the period closes
            self._pending.append(game)
            self._shaken = self._held.add(game)
            self._added = True
        return []

    def _period_closed(self, event: PeriodClosed) -> list[Change]:
        """Rate the period's club games as one tournament (rules.md §1.4 Decision — club games).

        The period is rated with the club's usual time control in effect at its end (a
        ``SettingsChanged`` fact of ``USUAL_TIME``), the one :meth:`provisional` uses, unless
        it carries its own (a period closed before the usual time was a dated fact: it was
        rated with the time it carries, which became the usual time). It rates the held games
        dated within it: games dated after its end stay pending for the next period (ours), and
        a game entered late for an earlier month that no period has closed stays pending for
        its own month's period, never rated with a later month's (each month its own period,
        §1.4; found by the model, issue 22).
        """
        period = event.tournament
        if period.time is None:
            period = replace(period, time=self._club_time)
        else:
            self._club_time = period.time
            self._club_times.append((period.end, period.time))
            self._held.c_by_board = None  # the usual time control the C is worked out with
            self._shaken = True
        pending = self._pending
        if not pending:
            return []
        games = sorted((g for g in pending if period.start <= g.date <= period.end), key=_DATE_ID)
        if not games:
            return []
        kept = [g for g in pending if not period.start <= g.date <= period.end]
        rated = self._period_outcome(period, games)
        self._pending = kept
        self._held = HeldGames(kept)  # a new index: a copy's close leaves this one alone
        self._shaken = True
        return [] if rated is None else self._commit(*rated)

    def _period_outcome(
        self, period: Tournament, games: list[Game]
    ) -> tuple[_Outcome, int] | None:
        """A period's games rated as one tournament, not stored: the outcome and the C its
        history notes show (``None``: no game has a C)."""
        plan = self._period_plan(period, games)
        if plan is None:
            return None
        c_by_board, parts, participants = plan
        start = {p: self._players[p].elo for p in participants}
        outcome = self._rate(
            f"tournament:{period.id}", period.end, parts, c_by_board, start, chronological=True
        )
        return outcome, _shown_c(c_by_board, period.board)

    def _period_plan(
        self, period: Tournament, games: list[Game]
    ) -> tuple[dict[int, int], list[list[Game]], set[PlayerId]] | None:
        """How a period's games are rated: C by board, the parts (§6(3) splitting) and the
        players (``None``: no game has a C)."""
        period, even, participants = _period_terms(period, games)
        boards = set(map(_BOARD, games))
        c_by_board = self._multipliers(period, boards, even, len(participants))
        rated = games
        if not all(c_by_board[board] for board in boards):
            rated = [g for g in games if c_by_board[g.board] > 0]
            if not rated:
                return None
        parts = (
            _chronological_parts(rated, rounds_per_part_limit(max(c_by_board.values())))
            if self.params.split_club_periods
            else [rated]
        )
        return c_by_board, parts, participants

    def provisional(self, player: PlayerId) -> int | None:
        """The player's Elo if the open rating period ended now (``None``: no pending game).

        Every pending club game rated as the period's end will rate it (rules.md §1.4
        Decision — club games), with the club's usual time control now in effect, the one the
        period's end uses (:meth:`_period_closed`: one way to work out C); nothing is stored.
        In one part every game uses the starting Elo, so a player's own games (from the index
        by player) and the period's C give their Elo; a period worked out as a whole
        (:meth:`_whole`) is worked out once per state of the ledger (``apply`` forgets it).
        """
        mine = self._held.by_player.get(player)
        if not mine:
            return None
        if not self._whole():
            mine = sorted(mine, key=_DATE_ID)
            start = {p: self._players[p].elo for g in mine for p in (g.black, g.white)}
            c_by_board = self._held_c()
            own = self._rate("", mine[-1].date, [mine], c_by_board, start, chronological=True)
            return own.new_elo.get(player)
        if self._provisional is None:
            self._provisional = _Provisional()
            if self._pending:
                games = sorted(self._pending, key=_DATE_ID)
                period = self._open_period(games)
                plan = self._period_plan(period, games)
                if len({(g.date.year, g.date.month) for g in games}) > 1:
                    self._provisional.elo = self._closed_month_by_month(games)
                elif plan is not None and len(plan[1]) > 1:  # split: the parts chain the Elo
                    whole = self._period_outcome(period, games)
                    self._provisional.elo = {} if whole is None else whole[0].new_elo
                elif plan is not None:
                    self._provisional.c_by_board, (self._provisional.games,) = plan[:2]
        known = self._provisional
        if known.elo is not None:
            return known.elo.get(player)
        mine = [g for g in known.games if player in (g.black, g.white)]
        if not mine:
            return None
        start = {p: self._players[p].elo for g in mine for p in (g.black, g.white)}
        day = mine[-1].date
        own = self._rate("", day, [mine], known.c_by_board, start, chronological=True)
        return own.new_elo.get(player)

    def _held_c(self) -> dict[int, int]:
        """The open period's C by board as its end would work it out now (rules.md §1.2,
        §1.4 club games: :func:`_period_time` from the held 19×19 games' time controls and
        the usual time, the even addition, the players), kept until its terms change."""
        held = self._held
        if held.c_by_board is None:
            day = next(iter(held.by_player.values()))[0].date  # C does not depend on dates
            base = Tournament(0, "open period", day, day, 1, time=self._club_time)
            period = _period_time(base, held.board_times())
            participants = len(held.by_player)
            held.c_by_board = self._multipliers(
                period, held.boards, not held.handicap, participants
            )
        return held.c_by_board

    def _whole(self) -> bool:
        """Whether the open period's "if it ended now" is worked out as a whole, every held
        player's value from every held game (rules.md §1.4 club games): games of several
        months (each month closed in turn, the Elo chaining), a period split into parts (the
        parts chain the Elo, §6(3)), or a board whose games get no C (left out of the plan)."""
        held = self._held
        if not held.by_player:
            return False
        if len(held.months) > 1:
            return True
        try:
            c_by_board = self._held_c()
        except EngineError:  # no C can be worked out (no time control): as the close would
            return True
        if not all(c_by_board.values()):
            return True
        limit = rounds_per_part_limit(max(c_by_board.values()))
        return self.params.split_club_periods and held.most > limit

    def _closed_month_by_month(self, games: list[Game]) -> dict[PlayerId, int]:
        """The Elo of every player of the held ``games`` (oldest first, of several months:
        a club game entered late for a month not yet closed) after each month's period is
        closed in turn, as the scheduler closes them (rules.md §1.4 club games: each month
        its own period, the Elo chaining from one to the next): the close itself
        (:meth:`_period_closed`) run on a copy of the players it touches; nothing is stored."""
        shadow = copy.copy(self)
        shadow._players = dict(self._players)
        for player in {p for g in games for p in (g.black, g.white)}:
            # a close sets a standing's fields anew, never changes a value in place (its
            # ``reached`` is replaced, rank_after_tournament): a shallow copy keeps this one
            shadow._players[player] = copy.copy(self._players[player])
        for year, month in sorted({(g.date.year, g.date.month) for g in games}):
            end = month_end(year, month)
            times = [time for day, time in self._club_times if day <= end]
            shadow._club_time = times[-1] if times else self.params.club_time
            period = Tournament(0, "open period", dt.date(year, month, 1), end, 1)
            shadow._period_closed(PeriodClosed(period))
        return {p: shadow._players[p].elo for g in games for p in (g.black, g.white)}

    def _open_period(self, games: list[Game]) -> Tournament:
        """The open period of the held ``games`` (oldest first) as its end will rate it: with
        the club's usual time control now in effect (:meth:`_period_closed`)."""
        return Tournament(0, "open period", games[0].date, games[-1].date, 1, time=self._club_time)

    def period_weight(self) -> Weight | None:
        """The multiplier C the open club period will be rated with at its end if nothing
        else happens before (rules.md §1.4, club games), with its breakdown: worked out as the
        end works it out (:func:`_period_terms`, :meth:`_multipliers`) from the usual time
        control now in effect. ``None``: no club game is held."""
        if not self._pending:
            return None
        games = sorted(self._pending, key=_DATE_ID)
        period, even, participants = _period_terms(self._open_period(games), games)
        boards = set(map(_BOARD, games))
        board = period.board if period.board in boards else min(boards)
        m = tournament_multiplier(period, board, even, len(participants), None)
        c = self._multipliers(period, {board}, even, len(participants))[board]
        return Weight(Msg("Multiplier C"), c, c > 0, tuple(m.breakdown()), set_by_hand=True)

    def _tournament_rated(self, event: TournamentRated) -> list[Change]:
        """Rate a finalised tournament (rules.md §1.3–§1.5; MGSZ §6–§8)."""
        tournament = event.tournament
        entries = self._entries(event.entries)
        rated: list[Game] = []
        players = self._players
        for game in event.games:
            if game.pair_go:
                _refuse_pair_go(game)
            # rules.md §1.3, §1.6: unplayed, unknown results and other boards earn nothing
            if not game.played or game.result is None or game.board not in RATED_BOARDS:
                continue
            black, white = game.black, game.white
            if (black not in entries and black not in players) or (
                white not in entries and white not in players
            ):
                refuse_unknown_players(game, tournament, entries, players)
            rated.append(game)
        participants = (
            tournament.participants if tournament.participants is not None else len(entries)
        )
        c_by_board = self._multipliers(
            tournament, {g.board for g in rated}, tournament.even, participants
        )
        rated = [g for g in rated if c_by_board[g.board] > 0]
        if not rated:
            return []
        parts = _round_parts(tournament, rated, max(c_by_board.values()))
        # §6(1) step 2: guests and foreign players play at their declared rank's table value;
        # registered players at their starting Elo (rules.md §1.4)
        start: dict[PlayerId, int] = {}
        for player in _players_of(rated):
            entry = entries.get(player)
            if entry is not None and not entry.registered:
                start[player] = rank_floor(entry_rank(entry, self._trail, tournament))
            else:
                start[player] = self._players[player].elo
        guests = {p for p, e in entries.items() if not e.registered}
        outcome = self._rate(
            f"tournament:{tournament.id}", tournament.end, parts, c_by_board, start, guests
        )
        return self._commit(outcome, _shown_c(c_by_board, tournament.board))

    def _override(self, event: Override) -> list[Change]:
        """A committee adjustment of Elo and/or title (rules.md §1.5; MGSZ §3(3))."""
        standing = self._standing_or_error(event.player)
        if event.rating is None and event.rank is None:
            raise RuleError(
                Msg("an override needs rating=N or rank=R, e.g. {example}", example="rating=1850")
            )
        given = None if event.rating is None else ratings.require_whole(event.rating, ELO_NAME)
        if given is not None and given < 0:
            raise RuleError(_negative_elo(given))
        before_elo, before_rank = standing.elo, standing.rank
        if given is not None:
            standing.elo = given
        if event.rank is not None:
            standing.rank = event.rank  # the committee may lower a title too
            # ours: the committee's rank restarts the §1.5 confirmation counts above it
            standing.reached = {}
        standing.last_change = (standing.elo - before_elo, "override", event.date)
        return [
            Change(
                event.player,
                event.date,
                "override",
                before_elo,
                standing.elo,
                before_rank,
                standing.rank,
                event.reason,
            )
        ]

    def _settings(self, event: SettingsChanged) -> list[Change]:
        """The club changed its MGSZ settings from ``event.date`` on (``SETTINGS``): a new
        player's rank limit and the splitting of the periods closed from that date; or its
        usual time control (``USUAL_TIME``), which the periods closed from that date are rated
        with."""
        self.params = settings.params_with(self.params, SETTINGS, event.values)
        for key, value in event.values:
            if key == settings.USUAL_TIME and isinstance(value, TimeControl):
                self._club_time = value  # the periods closed from that date (rules.md §1.4)
                self._club_times.append((event.date, value))
        # the held period's C (usual time) and parts (splitting) are worked out anew
        self._held.c_by_board = None
        self._shaken = True
        return []

    # ------------------------------------------------------------ rating

    def _entries(self, entries: Sequence[Entry]) -> dict[PlayerId, Entry]:
        by_player: dict[PlayerId, Entry] = {}
        for entry in entries:
            if entry.player in by_player:
                raise RuleError(
                    Msg("player {player} is entered twice in the tournament", player=entry.player)
                )
            if entry.registered and entry.player not in self._players:
                raise RuleError(
                    Msg(
                        "player {player} ({rank}) is entered as registered but is not "
                        "in the registry: register them first, or enter them as a guest",
                        player=entry.player,
                        rank=str(entry.rank),
                    )
                )
            by_player[entry.player] = entry
        return by_player

    def _multipliers(
        self, tournament: Tournament, boards: set[int], even: bool, participants: int
    ) -> dict[int, int]:
        """C for each board size present: the tournament's own C for its board (manual or
        computed, rules.md §1.2), the computed C for a game on the other rated size (ours)."""
        c_by_board: dict[int, int] = {}
        for board in boards:
            # a C set by hand is for the tournament's own board; a 13×13 game in a 19×19
            # event keeps its 5 (rules.md §1.2: 13×13 is 5 always)
            manual = tournament.multiplier if board == tournament.board else None
            m = tournament_multiplier(tournament, board, even, participants, manual)
            c_by_board[board] = m.C if m.rated else 0
        return c_by_board

    def _rate(
        self,
        source: str,
        date: dt.date,
        parts: list[list[Game]],
        c_by_board: dict[int, int],
        start: dict[PlayerId, int],
        guests: AbstractSet[PlayerId] = frozenset(),
        *,
        chronological: bool = False,
    ) -> _Outcome:
        """Rate the parts one after another; every game of a part uses the Elo from before the
        part (rules.md §1.4: starting Elo; Splitting). Nothing is stored here.

        The replay's hot loop: plain dicts and ints, one call per game.
        """
        elo = dict(start)
        part_changes: dict[PlayerId, list[int]] = {}
        black_wins, white_wins = Result.BLACK, Result.WHITE
        every = parts[0] if len(parts) == 1 else list(chain.from_iterable(parts))
        boards = set(map(_BOARD, every))
        # one board (the usual case): sum Jp and multiply by C once per player
        single_c = c_by_board[next(iter(boards))] if len(boards) == 1 else 0
        for part in parts:
            acc: defaultdict[PlayerId, int] = defaultdict(int)
            for game in part:
                result = game.result
                score = 1000 if result is black_wins else 0 if result is white_wins else 500
                black, white = game.black, game.white
                jp = black_jp_milli(elo[black], elo[white], game.stones, score)
                if not single_c:
                    jp *= c_by_board[game.board]
                acc[black] += jp
                acc[white] -= jp
            for player, total_milli in acc.items():
                if single_c:
                    total_milli *= single_c
                if player in guests:
                    continue  # §6(1) step 2: a guest keeps its table value and is not stored
                # rules.md §1.4: new Elo = starting Elo + floor(C × ΣJp + 0.5), exactly
                change = round_half_up_milli(total_milli)
                elo[player] += change
                part_changes.setdefault(player, []).append(change)
        games = Counter(map(_BLACK, every))
        games.update(map(_WHITE, every))
        if not chronological:
            every = sorted(every, key=_DATE)
        # in date order later dates overwrite earlier ones: each player's last game
        last = dict(zip(map(_BLACK, every), map(_DATE, every), strict=True))
        last_white = dict(zip(map(_WHITE, every), map(_DATE, every), strict=True))
        for player, day in last_white.items():
            if last.get(player, day) <= day:
                last[player] = day
        new_elo = {p: elo[p] for p in part_changes}
        c_main = max(c_by_board.values(), default=0)
        return _Outcome(source, date, c_main, new_elo, part_changes, games, last, len(parts))

    def _commit(self, outcome: _Outcome, c_shown: int) -> list[Change]:
        """Store the new Elos and titles; one Change per registered player who played."""
        changes: list[Change] = []
        source, date, games, last_played = (
            outcome.source,
            outcome.date,
            outcome.games,
            outcome.last_played,
        )
        for player, elo in outcome.new_elo.items():
            standing = self._players[player]
            before_elo, before_rank = standing.elo, standing.rank
            # rules.md §1.5 Decision: a split tournament counts once, with the Elo after its
            # last part
            rank, reached = rank_after_tournament(standing.rank, standing.reached, elo)
            standing.elo, standing.rank, standing.reached = elo, rank, reached
            played_games = games[player]
            standing.games += played_games
            played = last_played[player]
            if standing.last_played is None or standing.last_played < played:
                standing.last_played = played
            standing.last_change = (elo - before_elo, source, date)
            if outcome.parts > 1:
                note = plural(
                    "C = {c}, {n} game; rated in {parts} parts (MGSZ §6(3) splitting): {steps}",
                    "C = {c}, {n} games; rated in {parts} parts (MGSZ §6(3) splitting): {steps}",
                    played_games,
                    c=c_shown,
                    parts=outcome.parts,
                    steps=", ".join(_signed(c) for c in outcome.part_changes[player]),
                )
            else:
                note = _games_note(c_shown, played_games)
            changes.append(Change(player, date, source, before_elo, elo, before_rank, rank, note))
        return changes

    # ------------------------------------------------------------ queries

    def players(self) -> Iterable[PlayerId]:
        """Every registered player (guests of tournaments are never stored)."""
        return list(self._players)

    def open_period(self) -> Sequence[Game]:
        """Club games held for a rating period not closed yet (the RatingSystem protocol)."""
        return sorted(self._pending, key=_DATE_ID)

    def elo(self, player: PlayerId) -> int:
        """The player's current Elo (raises ``KeyError`` for an unknown player)."""
        return self._standing(player).elo

    def rank(self, player: PlayerId) -> Rank:
        """The player's title (raises ``KeyError`` for an unknown player)."""
        return self._standing(player).rank

    def trial_copy(self, game: Game) -> Mgsz:
        """A copy a club game may be folded into for :meth:`stakes` (engine.system.trial),
        costing the open period, not the club: a club game changes no standing or rank here
        (``_game_played`` only holds it for the period, rules.md §1.4 Decision), so the
        players, their ranks through the calendar and the settings are shared; the held games
        and what is worked out from them are the copy's own."""
        other = copy.copy(self)
        other._pending = list(self._pending)
        other._held = self._held.copy()
        other._provisional = None
        return other

    def stakes(self, game: Game) -> Stakes:
        """What each player's open-period change would become with ``game`` held, if Black
        wins and if White wins: the Elo "if the period ended now" (:meth:`provisional`) less
        today's Elo (rules.md §1.4 Decision — club games: rated when the period closes), its
        stones and komi counting as the close counts them. Changes nothing."""
        return stakes_by_trial(
            self,
            game,
            lambda ledger, player: ledger.provisional(player) or ledger._standing(player).elo,
            ELO,
            Msg("if the period ended now"),
            before=lambda ledger, player: ledger._standing(player).elo,
        )

    def uncounted(self, game: Game) -> str | None:
        """Why ``game`` will not be rated under MGSZ, in a club member's words; ``None`` when
        it counts (rules.md, common vocabulary; §1.2 below category E; §1.6 boards)."""
        common = never_rated(game)
        if common is not None:
            return common
        if game.pair_go:
            return Msg("pair go is not rated under MGSZ (games between two players only)")
        if game.board not in RATED_BOARDS:
            return Msg(
                "{size}×{size} games are not rated under MGSZ (19×19 and 13×13 only)",
                size=game.board,
            )
        # a club game keeps its own time control (rules.md §1.4 Decision — club games); a
        # tournament's games are rated with the tournament's C, whatever their own
        if game.tournament is None and game.board == FULL_BOARD and game.time is not None:
            category, _ = time_category(game.time)
            if category is None:
                # rules.md §1.2: below category E the game is not rated (C would be 0)
                return Msg(
                    "{time} is below category E (base under 10 min and extended time "
                    "under 20 min): not rated (MGSZ Minősítési Szabályzat, annex table 2)",
                    time=str(game.time),
                )
        return None

    def pending_games(self, player: PlayerId | None = None) -> list[Game]:
        """Club games waiting for the period's end, optionally only ``player``'s."""
        if player is None:
            return list(self._pending)
        return list(self._held.by_player.get(player, ()))

    def card(self, player: PlayerId) -> Card:
        """Title, Elo, band rank, last change, pending club games, confirmations (rules.md §1)."""
        standing = self._standing(player)
        pending = self.pending_games(player)
        last_played = standing.last_played
        for game in pending:
            if last_played is None or last_played < game.date:
                last_played = game.date
        values = [
            Measure("elo", ELO, standing.elo, ELO),
            Measure("band_rank", Msg("band rank"), str(rank_of_elo(standing.elo))),
            Measure(
                "club_games_held",
                Msg("pending club games"),
                len(pending),
                unit(plural("game", "games", len(pending))),
            ),
        ]
        provisional = self.provisional(player) if pending else None
        if provisional is not None:
            values.append(Measure("pending_elo", Msg("if the period ended now"), provisional, ELO))
        for rank, count in sorted(standing.reached.items()):
            # rules.md §1.5: 3k and stronger are awarded the second time the bound is reached
            values.append(
                Measure(
                    f"confirmations.{rank}",
                    Msg("{rank} bound reached", rank=str(rank)),
                    count,
                    plural("of {n} tournament", "of {n} tournaments", CONFIRMATIONS),
                )
            )
        return Card(
            player=player,
            rank=standing.rank,
            rating=standing.elo,
            rating_label=ELO,
            sort_key=(standing.elo,),
            games=standing.games,
            last_played=last_played,
            pending=(
                Pending(
                    len(pending), unit(plural("game", "games", len(pending))), Phase.PERIOD_END
                )
                if pending
                else None
            ),
            values=tuple(values),
        )

    def rank_on(self, player: PlayerId, day: dt.date) -> Rank:
        """The player's rank at the start of ``day`` (engine.system.RankTrail); ``KeyError``
        for a player this ledger never knew."""
        found = self._trail.on(player, day)
        return found if found is not None else self.card(player).rank

    def handicap(self, a: PlayerId, b: PlayerId, *, reduction: int = 0) -> HandicapAdvice:
        """Stones and komi from the ranks of the players' current Elo bands (rules.md §5)."""
        elo_a, elo_b = self._standing(a).elo, self._standing(b).elo
        # rules.md §5: under MGSZ the rank is the current Elo band's, not the title
        return rank_handicap(
            a,
            rank_of_elo(elo_a),
            b,
            rank_of_elo(elo_b),
            reduction=reduction,
            even_komi=self.params.even_komi,
        )

    def promotion(self, player: PlayerId) -> Progress:
        """The next title, its Elo bound, points to go and confirmations (rules.md §1.5)."""
        standing = self._standing(player)
        title, elo = standing.rank, standing.elo
        if title.step >= STRONGEST_STEP:
            line = Msg(
                "{rank}: no stronger rank is reachable by Elo (the MGSZ rank table ends at 7d)",
                rank=str(title),
            )
            return Progress(player, title, None, (line,))
        target = title + 1
        bound = rank_floor(target)
        lines: list[str] = [
            plural(
                "{target} at Elo {bound}: {n} point to go (Elo {elo})",
                "{target} at Elo {bound}: {n} points to go (Elo {elo})",
                bound - elo,
                target=str(target),
                bound=bound,
                elo=elo,
            )
            if elo < bound
            else Msg(
                "{target} at Elo {bound}: reached (Elo {elo})",
                target=str(target),
                bound=bound,
                elo=elo,
            )
        ]
        if target.step >= CONFIRM_FROM_STEP:
            count = standing.reached.get(target, 0)
            lines.append(
                Msg(
                    "{target} bound reached after {count}/{needed} tournaments; 3k and "
                    "stronger are awarded the second time (MGSZ §5)",
                    target=str(target),
                    count=count,
                    needed=CONFIRMATIONS,
                )
            )
        else:
            lines.append(
                Msg(
                    "4k and weaker are awarded the first time the Elo after a tournament "
                    "reaches the bound (MGSZ §5)"
                )
            )
        pending = len(self.pending_games(player))
        if pending:
            lines.append(
                plural(
                    "{n} club game waits for the end of the rating period",
                    "{n} club games wait for the end of the rating period",
                    pending,
                )
            )
        return Progress(player, title, target, tuple(lines))

    def rating_scale(self) -> RatingScale:
        """An Elo the rank table can place (rules.md §1.1; the range is ours)."""
        return RatingScale(Msg("MGSZ Elo"), *ELO_SCALE)

    def snapshot(self) -> dict[str, Any]:
        """The whole state as canonical JSON-able data."""
        players: dict[str, Any] = {}
        for player in sorted(self._players):
            s = self._players[player]
            players[str(player)] = {
                "elo": s.elo,
                "rank": str(s.rank),
                "games": s.games,
                "last_played": s.last_played.isoformat() if s.last_played else None,
                "reached": {str(r): n for r, n in sorted(s.reached.items())},
                "last_change": (
                    None
                    if s.last_change is None
                    else [s.last_change[0], s.last_change[1], s.last_change[2].isoformat()]
                ),
            }
        pending = [
            [
                g.id,
                g.black,
                g.white,
                g.result.value if g.result else None,
                g.date.isoformat(),
                g.stones,
                g.board,
            ]
            for g in self._pending
        ]
        return {
            "system": self.key,
            "trail": self._trail.snapshot(),
            "bands": self._bands.snapshot(),
            "players": players,
            "pending": pending,
            "club_time": str(self._club_time),
            "club_times": [[day.isoformat(), str(time)] for day, time in self._club_times],
        }

    def announcement(self, phase: Phase, label: str, changes: Sequence[Change]) -> Notice | None:
        """A club rating period rated (rules.md §1.4 Decision — club games): its name, and who
        was promoted by it (§1.5); ``None`` at the other moments."""
        if phase is not Phase.PERIOD_END:
            return None
        if not changes:
            return Notice(
                Msg("{period} is rated", period=label),
                (Msg("No rating changed (no rated games, or the system rates none)."),),
            )
        first: dict[PlayerId, Rank] = {}
        last: dict[PlayerId, Rank] = {}
        for change in changes:
            first.setdefault(change.player, change.rank_before)
            last[change.player] = change.rank_after
        promoted = [f"{{player:{p}}} {first[p]} → {last[p]}" for p in first if last[p] > first[p]]
        lines = (
            (Msg("Promotions: {promotions}", promotions=", ".join(promoted)),) if promoted else ()
        )
        return Notice(Msg("{period} is rated", period=label), lines)

    def rank_bands(self) -> tuple[Band, ...]:
        """Each rank's Elo band from the rank table (rules.md §1.1), weakest first; the
        strongest band is drawn 200 points wide."""
        bounds = sorted(RANK_BOUNDS, key=lambda item: item[1])
        return tuple(
            Band(low, bounds[i + 1][1] if i + 1 < len(bounds) else low + 200, Rank.parse(rank))
            for i, (rank, low) in enumerate(bounds)
        )

    def tournament_weight(self, tournament: Tournament) -> Weight:
        """The multiplier C with its breakdown (rules.md §1.2; MGSZ §6(1), a hand-set C §6(2))
        and, when C × rounds reaches 300, the parts it is rated in (§6(3)).

        Raises:
            RuleError: neither a time control nor a hand-set C (19×19).
        """
        m = multiplier(
            tournament.board,
            tournament.time,
            even=tournament.even,
            participants=tournament.participants,
            importance=tournament.importance,
            manual=tournament.multiplier,
        )
        lines = m.breakdown()
        parts = split_rounds(m.C, tournament.rounds) if m.rated and m.C else []
        if len(parts) > 1:
            # rules.md §1.4 (MGSZ §6(3)): C × rounds of 300 or more is rated in parts
            lines.append(
                Msg(
                    "C × rounds = {product} ≥ 300: rated in {n} parts of {sizes} rounds "
                    "(MGSZ Minősítési Szabályzat 6.§ (3))",
                    product=m.C * tournament.rounds,
                    n=len(parts),
                    sizes=", ".join(map(str, parts)),
                )
            )
        return Weight(
            Msg("Multiplier C"), m.C, m.rated and m.C > 0, tuple(lines), set_by_hand=True
        )

    def time_weight(self, tournament: Tournament) -> Weight:
        """The multiplier C the tournament's time control gives (rules.md §1.2): MGSZ
        weighs tournaments, not single games."""
        return self.tournament_weight(tournament)

    def entry_notes(self, tournament: Tournament, entries: Sequence[Entry]) -> list[str]:
        """Entries at a rank other than their Elo band's (rules.md §1.6; MGSZ §9(1) a))."""
        return [
            Msg(
                "{player} entered as {declared} but their Elo is in the {expected} band, "
                "and a domestic tournament is entered at the rank of one's current Elo (MGSZ "
                "Minősítési Szabályzat 9.§ (1) a)): correct the entry if needed",
                player=f"{{player:{pid}}}",
                declared=str(declared),
                expected=str(expected),
            )
            for pid, declared, expected in self.entry_rank_mismatches(
                entries, board=tournament.board, day=tournament.start
            )
        ]

    def initial_rank_limit(self) -> RankLimit:
        """The strongest rank an organiser may give without a rating (rules.md §1.5, §5(3))."""
        return RankLimit(
            self.params.max_initial_rank,
            Msg(
                "a stronger rank is the rating committee's decision "
                "(MGSZ Minősítési Szabályzat 5.§ (3))"
            ),
        )

    def entry_rank_mismatches(
        self, entries: Iterable[Entry], *, board: int = FULL_BOARD, day: dt.date | None = None
    ) -> list[tuple[PlayerId, Rank, Rank]]:
        """Registered entries whose declared rank is not their current Elo band's (§1.6; §9(1)a):
        the band of the start of ``day`` (a tournament's first day, rules.md, top: calendar
        order), else of now.

        §9(2): on 13×13 (children's events) any entry rank is allowed, so nothing is listed.

        Returns:
            (player, declared rank, expected rank) for each; unknown players are skipped.
        """
        if board == SMALL_BOARD:
            return []
        mismatches: list[tuple[PlayerId, Rank, Rank]] = []
        for entry in entries:
            standing = self._players.get(entry.player)
            if not entry.registered or standing is None or entry.rank is None:
                continue  # a guest; or no rank declared: nothing to compare
            band = None if day is None else self._bands.on(entry.player, day)
            expected = band if band is not None else rank_of_elo(standing.elo)
            if entry.rank != expected:
                mismatches.append((entry.player, entry.rank, expected))
        return mismatches

    def _standing(self, player: PlayerId) -> _Standing:
        try:
            return self._players[player]
        except KeyError:
            raise KeyError(f"player {player} is not registered under MGSZ") from None

    def _standing_or_error(self, player: PlayerId) -> _Standing:
        standing = self._players.get(player)
        if standing is None:
            raise RuleError(Msg("player {player} is not registered", player=player))
        return standing


Mgsz._HANDLERS = {
    Registered: Mgsz._registered,
    GamePlayed: Mgsz._game_played,
    PeriodClosed: Mgsz._period_closed,
    TournamentRated: Mgsz._tournament_rated,
    Override: Mgsz._override,
    SettingsChanged: Mgsz._settings,
}
Mgsz.handles = frozenset(Mgsz._HANDLERS)


def tournament_multiplier(
    tournament: Tournament,
    board: int,
    even: bool,
    participants: int | None,
    manual: int | None,
) -> Multiplier:
    """:func:`multiplier` for a tournament's facts (rules.md §1.2)."""
    return multiplier(
        board,
        tournament.time,
        even=even,
        participants=participants,
        importance=tournament.importance,
        manual=manual,
    )


def _refuse_pair_go(game: Game) -> None:
    if game.pair_go:
        # rules.md §1.6 (§1(3)): pair go and team games are out of scope — refuse clearly
        raise RuleError(
            Msg(
                "game {game} is a pair go game: MGSZ rates only games between two players "
                "(MGSZ §1(3)); record it without pair go, or leave it out",
                game=game_mark(game.id),
            )
        )


def _round_parts(tournament: Tournament, games: list[Game], c: int) -> list[list[Game]]:
    """Games by part, each part a run of rounds (rules.md §1.4 Splitting; §6(3)).

    The number of rounds is the tournament's, or the highest round a game carries if more
    (ours: the games are the record).
    """
    rounds = max([tournament.rounds, *(g.round or 0 for g in games)])
    sizes = split_rounds(c, rounds)
    if len(sizes) == 1:
        return [games]
    part_of_round: list[int] = []
    for index, size in enumerate(sizes):
        part_of_round.extend([index] * size)
    parts: list[list[Game]] = [[] for _ in sizes]
    for game in games:
        if game.round is None or game.round < 1:
            raise RuleError(
                Msg(
                    "game {game} has no round number, but tournament {tournament} "
                    "(C = {c}, {rounds} rounds) is rated in parts by round (MGSZ §6(3))",
                    game=game_mark(game.id),
                    tournament=Typed(tournament.name),
                    c=c,
                    rounds=rounds,
                )
            )
        parts[part_of_round[game.round - 1]].append(game)
    return parts


def _players_of(games: list[Game]) -> set[PlayerId]:
    """Everyone who played one of ``games``."""
    players = set(map(_BLACK, games))
    players.update(map(_WHITE, games))
    return players


def _chronological_parts(games: list[Game], per_part: int) -> list[list[Game]]:
    """A period's games in date order, cut into the fewest runs in which nobody plays more
    than ``per_part`` games (ours: a club player's games are their rounds; rules.md §1.4)."""
    most = Counter(map(_BLACK, games))
    most.update(map(_WHITE, games))
    if max(most.values(), default=0) <= per_part:
        return [games]
    parts: list[list[Game]] = [[]]
    counts: defaultdict[PlayerId, int] = defaultdict(int)
    for game in games:
        black, white = game.black, game.white
        if counts[black] >= per_part or counts[white] >= per_part:
            parts.append([])
            counts = defaultdict(int)
        counts[black] += 1
        counts[white] += 1
        parts[-1].append(game)
    return parts


def _period_terms(period: Tournament, games: list[Game]) -> tuple[Tournament, bool, set[PlayerId]]:
    """What a club period's C is worked out from (rules.md §1.2, §1.4 club games): the period
    with its time control (:func:`_period_time`), whether it is even, and its players."""
    # Decision (rules.md §1.4, club games): the even addition only if every game was even
    even = not any(map(_STONES, games))
    # the games share their time control objects: tell them apart by identity first (a
    # TimeControl's own hash is slow, and a month of club games has hundreds)
    times = {id(g.time): g.time for g in games if g.board == FULL_BOARD}
    return _period_time(period, times.values()), even, _players_of(games)


def _period_time(period: Tournament, distinct: Iterable[TimeControl | None]) -> Tournament:
    """The period with the time control its C is computed from (rules.md §1.2, §1.4).

    Decision (ours, on rules.md §1.4 "Decision — club games"): a club game keeps its own time
    control, so the period's time category is that of the rated 19×19 games' own time
    controls — when they differ, the lowest category among them (no game is rated above its
    own category); a game with no time control counts with the club's usual time control,
    which the period carries. A C set by hand (§6(2)) wins over all of this.

    ``distinct``: the time controls of the period's 19×19 games (``None``: a game without).
    """
    if period.multiplier is not None:
        return period
    times = {t if t is not None else period.time for t in distinct}
    if not times or None in times:
        return period  # nothing on 19×19, or a game whose time nobody knows: as before
    known = [t for t in times if t is not None]
    lowest = min(known, key=lambda t: (time_category(t)[1], t.base_s, t.extended_s(), str(t)))
    return period if lowest == period.time else replace(period, time=lowest)


def _shown_c(c_by_board: dict[int, int], board: int) -> int:
    """The C named in the history note: the event's own board's, else the one used."""
    return c_by_board.get(board) or max(c_by_board.values(), default=0)


ELO_NAME = Msg("an MGSZ Elo")


def _negative_elo(rating: int) -> Msg:
    """The refusal of a negative Elo (registration, override)."""
    return Msg(
        "an Elo rating cannot be negative, e.g. {example}, not {rating}",
        example=1720,
        rating=rating,
    )


@functools.lru_cache(maxsize=4096)
def _games_note(c: int, n: int) -> Msg:
    """A rating change's note for a tournament or period rated in one part: the same text
    for every player with as many games at the same C, made once (a Msg is immutable)."""
    return plural("C = {c}, {n} game", "C = {c}, {n} games", n, c=c)


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "±0"
