"""The PSG ledger: ranks, PSG points, norms, promotion and EGF verification (rules.md §4).

Seed: ``psg-regulamin-rankingowy-2005-2009.txt``. ``apply`` validates every event before it
touches the ledger, so a rejected event changes nothing.
"""

from __future__ import annotations

import datetime as dt
import functools
import heapq
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from engine import settings
from engine.calendar import Phase, add_months, first_day
from engine.errors import RuleError
from engine.handicap import rank_handicap
from engine.psg.checks import (
    arranged_handicap,
    check_egf,
    check_month,
    check_registration,
    handicap_facts,
    override_rank,
    teacher_target,
)
from engine.psg.entries import EntryStanding, entry_rank_violations
from engine.psg.report import card_values, next_rank, promotion_lines, results_text
from engine.psg.settings import SETTINGS
from engine.psg.state import (
    GameScore,
    PlayerState,
    PsgParams,
    Results,
    month_end,
    month_index,
    month_name,
    new_results,
)
from engine.psg.tables import (
    LOWEST_NORM,
    cell,
    game_points,
    model_rating,
    norm_reached,
    norm_value,
    time_control_counts,
)
from engine.psg.verification import record_egf, verify_month
from engine.ranks import Rank
from engine.ratings import whole_points
from engine.system import (
    GAME_WEIGHT,
    NOBODY,
    Activity,
    Applied,
    Band,
    Card,
    Change,
    HandicapAdvice,
    Notice,
    Progress,
    RankLimit,
    RankTrail,
    Stakes,
    Weight,
    applied,
    clauses,
    entry_rank,
    never_rated,
    stakes_by_trial,
)
from engine.text import Msg, Typed, game_mark, plural
from engine.timecontrol import TimeControl
from engine.types import (
    EgfRating,
    Entry,
    Event,
    Game,
    GamePlayed,
    MonthEnded,
    Outcome,
    Override,
    PlayerId,
    Registered,
    Result,
    SettingsChanged,
    TeacherAction,
    TeacherKind,
    Tournament,
    TournamentRated,
    VerificationSuspended,
)

_Before = tuple[int | None, int | None, int | None]  # min-games, fewer-games, list shows
# (outcome, its word): enum hashing and ``.value`` are slow on the per-game path
_WIN, _LOSS, _JIGO = (
    (Outcome.WIN, Msg("win")),
    (Outcome.LOSS, Msg("loss")),
    (Outcome.JIGO, Msg("jigo")),
)
_SHORTEST_INACTIVITY_DAYS = 365  # no span of 12 or more months is shorter: a cheap pre-check


def psg_activity(months: int) -> Activity:
    """§3(5): a participant is active with a ranked game in the last ``months`` months (13;
    from registration at first), as :meth:`Psg.active` judges it. A manager's declaration of
    activity is not modelled."""
    return Activity(
        months,
        plural(
            "a ranked game in the last {months} month (PSG regulations §3(5))",
            "a ranked game in the last {months} months (PSG regulations §3(5))",
            months,
            months=months,
        ),
    )


# The version of this rulebook's results, bumped by hand whenever a change makes any of its
# ratings, ranks, cards, history rows or refusals differ (a snapshot of a club's ledgers is kept
# only under the RULES_VERSION it was made with: storage.snapshots.system_version; and
# tests/engine/test_rules_versions.py fails when the results move without a bump). A docstring,
# a comment or a refactor that keeps every result leaves it alone.
RULES_VERSION = 1


class Psg:
    """PSG ranking regulations 2005–2009 as a ledger (rules.md §4; RatingSystem protocol)."""

    key = "psg"
    rules_version = RULES_VERSION
    """This rulebook's :data:`RULES_VERSION` (what a snapshot of the ledger is kept under)."""
    language = "pl"
    """Polish, the PSG Regulamin rankingowy's: a club's default language (issue 13)."""
    activity: Activity = psg_activity(PsgParams().inactive_months)
    """§3(5): a ranked game in the last 13 months; a ledger's own follows the club's
    ``psg.inactive_months``."""
    scheduled = frozenset({Phase.MONTH_END})
    file_rating_titles: tuple[str, ...] = ()  # PSG has ranks and points, no rating to start at
    """The month end runs the 13-month reset and the EGF verification (rules.md §4.3, §4.5)."""

    handles: frozenset[type[Event]]
    """Everything but other rulebooks' schedules (the keys of the dispatch table below): day
    ends and rating periods are no-ops."""

    _HANDLERS: ClassVar[dict[type, Any]]

    def __init__(self, params: PsgParams | None = None) -> None:
        self._trail = RankTrail()  # each player's rank through the calendar
        self.params = params if params is not None else PsgParams()
        self.activity = psg_activity(self.params.inactive_months)
        self._players: dict[PlayerId, PlayerState] = {}
        # §8(2): arranged games per pair (lower id, higher id) → (their rank versions, count)
        self._pairs: dict[tuple[PlayerId, PlayerId], tuple[int, int, int]] = {}
        self._last_month: int | None = None
        self._checked: set[int] = set()  # the months whose end was checked (§4.5)
        self._first: dt.date | None = None  # the earliest day a fact folded covers
        self._everyone = False  # the last fact changed the settings (activity, §3(5))
        self._today: dt.date | None = None
        # §3(5) activity: (a date on or before the day the player lapses, player), one entry
        # per active participant — when "today" passes it, their card says inactive
        self._lapses: list[tuple[dt.date, PlayerId]] = []
        self._watched: set[PlayerId] = set()
        self._lapsed: list[PlayerId] = []  # made inactive by the last apply (§3(5))
        self._time_ok: dict[TimeControl | None, bool | None] = {}  # a cache, not state
        self._last_time: TimeControl | None = None
        self._last_time_ok: bool | None = None

    # ------------------------------------------------------------------ events

    def apply(self, event: Event) -> Applied:
        """Fold one event in (rules.md §4); raises :class:`RuleError` and changes nothing.

        It touches the players it names, those it changed, and those it made inactive: the
        participants whose 13 months without a ranked game (§3(5)) it moved time past —
        nothing about them changed but the calendar, yet their card now reads ``active: no``.
        A change of the settings may move everyone's activity: every card."""
        handler = self._HANDLERS.get(type(event))
        if handler is None:
            return Applied([], NOBODY)
        if self._lapsed:
            self._lapsed = []
        self._everyone = False
        changes: list[Change] = handler(self, event)
        self._trail.note(changes)
        day = first_day(event)  # a tournament's first day: its games are dated from there
        if self._first is None or day < self._first:
            self._first = day
        if self._everyone:
            return Applied(changes, None)
        return applied(event, changes, self._lapsed)

    def due(self, today: dt.date) -> list[Event]:
        """The month ends not checked yet, from the month of the earliest fact folded up to
        the month before ``today``'s, oldest first: the §23 verification (rules.md §4.5) and
        the 13-month reset (§4.3) run at every month's end, a month with no fact of its own
        included (a run of months below the line counts calendar months). Before the first
        fact nothing is due: with no participant a month's end changes nothing."""
        if self._first is None:
            return []
        first = month_index(self._first.year, self._first.month)
        months = range(first, month_index(today.year, today.month))
        return [MonthEnded(m // 12, m % 12 + 1) for m in months if m not in self._checked]

    def _played(self, event: GamePlayed) -> list[Change]:
        return self._game_played(event.game)

    def _settings(self, event: SettingsChanged) -> list[Change]:
        """The club changed its PSG settings from ``event.date`` on (``SETTINGS``): the facts
        from that date are judged by the new params (which games count, the deadlines, the
        promotion and verification limits); what was ranked before stays."""
        params = settings.params_with(self.params, SETTINGS, event.values)
        if params != self.params:
            self._everyone = True
            self.params = params
            self.activity = psg_activity(params.inactive_months)
            self._time_ok = {}  # whether a time control counts depends on the params
            self._last_time = None
            self._last_time_ok = None
        return []

    def _player(self, player: PlayerId, what: str) -> PlayerState:
        state = self._players.get(player)
        if state is None:
            raise RuleError(
                Msg(
                    "{what}: player {player} is not registered in the PSG ranking",
                    what=what,
                    player=player,
                )
            )
        return state

    def _seen(self, date: dt.date) -> None:
        if self._today is None or date > self._today:
            self._today = date
            lapses = self._lapses
            while lapses and lapses[0][0] <= date:
                self._lapse(*heapq.heappop(lapses), date)

    def _lapse(self, due: dt.date, player: PlayerId, today: dt.date) -> None:
        """A participant's activity was due to end at ``due`` (or later, after a newer game)."""
        ends = add_months(self._players[player].last_ranked, self.params.inactive_months)
        if ends > today:  # a ranked game since: still active, watched until the new end
            heapq.heappush(self._lapses, (ends, player))
        else:
            self._watched.discard(player)
            self._lapsed.append(player)

    def _watch(self, player: PlayerId, state: PlayerState) -> None:
        """Watch an active participant for the day they lapse (§3(5))."""
        if player not in self._watched:
            self._watched.add(player)
            ends = add_months(state.last_ranked, self.params.inactive_months)
            heapq.heappush(self._lapses, (ends, player))

    def _register(self, event: Registered) -> list[Change]:
        """A new participant (rules.md §4.1)."""
        if event.player in self._players:
            raise RuleError(
                Msg(
                    "player {player} is already registered in the PSG ranking", player=event.player
                )
            )
        check_registration(event, self.params)
        self._seen(event.date)
        state = PlayerState(event.rank, event.date)
        self._players[event.player] = state
        self._watch(event.player, state)
        said = [
            Msg("registered (rank approved by the committee)")
            if event.committee
            else Msg("registered")
        ]
        if state.results is None:
            said.append(Msg("no PSG points below 20k (§15(2))"))
        note = clauses(said)
        rank = event.rank
        shows = state.list_shows
        return [Change(event.player, event.date, "registration", None, shows, rank, rank, note)]

    # ------------------------------------------------------------------ games

    def _game_played(self, game: Game) -> list[Change]:
        """A club game is an arranged game (rules.md §4.1, Decision — club games)."""
        black = self._players.get(game.black)
        white = self._players.get(game.white)
        if black is None or white is None:  # the refusal names the game
            what = Msg("game {game}", game=game_mark(game.id))
            black = self._player(game.black, what)
            white = self._player(game.white, what)
        deadline = game.date + dt.timedelta(days=self.params.report_days)
        source = f"game:{game.id}"
        return self._rate_game(
            game, black, white, black.rank, white.rank, True, deadline, source, game.time
        )

    def _tournament(self, event: TournamentRated) -> list[Change]:
        """A tournament's games in round order (rules.md §4.1–§4.4).

        The due handicap is the difference of the entries' ranks (the ranks played with).
        """
        tournament = event.tournament
        name = Msg("tournament {name}", name=Typed(tournament.name))
        entries: dict[PlayerId, Entry] = {}
        members: dict[PlayerId, PlayerState | None] = {}
        for entry in event.entries:
            if entry.player in entries:
                raise RuleError(
                    Msg("{what}: player {player} is entered twice", what=name, player=entry.player)
                )
            entries[entry.player] = entry
            # a guest's id is a file line number that may equal a registry id: never look it up
            members[entry.player] = self._player(entry.player, name) if entry.registered else None
        for game in event.games:
            for side in (game.black, game.white):
                if side not in entries:
                    raise RuleError(
                        Msg(
                            "{what}, game {game}: player {player} has no entry; add them to the "
                            "entries with their rank",
                            what=name,
                            game=game_mark(game.id),
                            player=side,
                        )
                    )
        # the ranks played with: declared, else the PSG rank of the first day (§5(1))
        ranks = {p: entry_rank(e, self._trail, tournament) for p, e in entries.items()}
        deadline = tournament.end + dt.timedelta(days=self.params.report_days)
        source = f"tournament:{tournament.id}"
        changes: list[Change] = []
        for game in sorted(event.games, key=_round):
            changes += self._rate_game(
                game,
                members[game.black],
                members[game.white],
                ranks[game.black],
                ranks[game.white],
                # §10(2) (rules.md §4.1): a tournament may count as arranged games
                tournament.arranged or game.arranged,
                deadline,
                source,
                game.time if game.time is not None else tournament.time,
            )
        if any(m is not None for m in members.values()):
            self._seen(tournament.end)
        return changes

    def _ineligible(
        self,
        game: Game,
        arranged: bool,
        black: PlayerState | None,
        white: PlayerState | None,
        ranks: tuple[Rank, Rank] | None,
        time: TimeControl | None,
    ) -> str | None:
        """Why the game is not a ranked game at all (rules.md §4.1), or ``None``.

        ``ranks`` are Black's and White's ranks for this game (their entries in a tournament;
        ``None`` when one of them is not a participant).
        """
        if game.board not in self.params.boards:
            return Msg(
                "{size}×{size} games are not ranked under PSG (19×19 only)", size=game.board
            )
        if game.pair_go:
            return Msg("pair go is not a ranked game under PSG")
        if time is self._last_time:  # a tournament's games share one TimeControl object
            ok = self._last_time_ok
        else:
            if time in self._time_ok:
                ok = self._time_ok[time]
            else:
                ok = self._time_ok[time] = time_control_counts(time)
            self._last_time, self._last_time_ok = time, ok
        if ok is False:
            return Msg(
                "time control {time} is too short for a ranked game (PSG regulations §6: "
                "30 min + 10 s byo-yomi, or 45 min)",
                time=str(time),
            )
        if ok is None and not self.params.unknown_time_counts:
            return Msg("time control unknown, so not a ranked game (PSG regulations §6)")
        if not arranged:
            return None
        if black is None or white is None or ranks is None:
            return Msg("an arranged game needs two participants (PSG regulations §8(1))")
        return arranged_handicap(*ranks, game.stones)

    def _arranged_limit(
        self, game: Game, black: PlayerState, white: PlayerState
    ) -> tuple[tuple[PlayerId, PlayerId], tuple[int, int, int], str | None]:
        """§8(2) (rules.md §4.1): at most two arranged games with the same opponent count; the
        count restarts when either rank changes (rank versions, not ranks: a rank that changes
        and changes back still restarts it). Returns the pair key, its new value, a refusal.
        """
        if game.black < game.white:
            pair, first, second = (game.black, game.white), black, white
        else:
            pair, first, second = (game.white, game.black), white, black
        known = self._pairs.get(pair)
        count = 0
        if known is not None and (known[0], known[1]) == (first.rank_version, second.rank_version):
            count = known[2]
        if count >= self.params.max_arranged_per_pair:
            refusal = plural(
                "not counted: {n} arranged game between these players already counts at "
                "these ranks (PSG regulations §8(2))",
                "not counted: {n} arranged games between these players already count at "
                "these ranks (PSG regulations §8(2))",
                count,
            )
            return pair, known or (0, 0, 0), refusal
        return pair, (first.rank_version, second.rank_version, count + 1), None

    def _rate_game(
        self,
        game: Game,
        black: PlayerState | None,
        white: PlayerState | None,
        black_rank: Rank,
        white_rank: Rank,
        arranged: bool,
        deadline: dt.date,
        source: str,
        time: TimeControl | None,
    ) -> list[Change]:
        """Score one game for its participants, then check their promotions (§4.1–§4.4)."""
        result = game.result
        if result is None or not game.played or (black is None and white is None):
            return []  # unplayed or unknown result: stored, never rated (rules.md, vocabulary)
        prefix = (  # the game as a mark: members read its club number (#12), never its id
            Msg("game {game}", game=game_mark(game.id))
            if game.round is None
            else Msg("game {game} (round {round})", game=game_mark(game.id), round=game.round)
        )
        due = white_rank.step - black_rank.step  # black's view: positive = black is weaker
        reason = self._ineligible(game, arranged, black, white, (black_rank, white_rank), time)
        if reason is None and arranged and black is not None and white is not None:
            pair, value, reason = self._arranged_limit(game, black, white)
            if reason is None:
                self._pairs[pair] = value
        if reason is not None:
            return self._not_counted(game, black, white, source, _noted(prefix, [reason]))
        date = game.date
        self._seen(date)
        if result is Result.JIGO:
            black_outcome = white_outcome = _JIGO
        elif result is Result.BLACK:
            black_outcome, white_outcome = _WIN, _LOSS
        else:
            black_outcome, white_outcome = _LOSS, _WIN
        # both sides are scored with the ranks before the game, then promotions are checked
        sides = []
        if black is not None:
            sides.append((game.black, black, black_outcome, due, game.stones))
        if white is not None:
            sides.append((game.white, white, white_outcome, -due, -game.stones))
        scored = [
            (pid, state, outcome, *self._score(game, state, due, played, outcome, deadline))
            for pid, state, outcome, due, played in sides
        ]
        changes = []
        for pid, state, outcome, before, points, notes in scored:
            self._watch(pid, state)  # active again if the game made them so
            rank_before = state.rank
            results = state.results
            promoted = None
            after = before
            if results is not None and points is not None:
                fewer = results.fewer_result
                after = (results.min_result, fewer, results.list_shows)
                if fewer is not None and fewer >= LOWEST_NORM:
                    lost_arranged = arranged and outcome is _LOSS
                    promoted = self._after_counted_game(state, lost_arranged, before, date, notes)
                else:
                    # no norm asks for less; the fewer-games result is at least the min-games
                    # result whenever that is positive (§18(3))
                    state.tainted = False
            state.last_score = (game.id, True, points, *after, promoted, tuple(notes))
            note = _noted(prefix, notes)
            shows = state.list_shows
            changes.append(
                Change(pid, date, source, before[2], shows, rank_before, state.rank, note)
            )
        return changes

    def _not_counted(
        self,
        game: Game,
        black: PlayerState | None,
        white: PlayerState | None,
        source: str,
        note: str,
    ) -> list[Change]:
        """A game that is no ranked game: a note for each participant, nothing else changes."""
        changes = []
        for pid, state in ((game.black, black), (game.white, white)):
            if state is None:
                continue
            results = state.results
            after: _Before = (None, None, None)
            if results is not None:
                after = (results.min_result, results.fewer_result, results.list_shows)
            state.last_score = (game.id, False, None, *after, None, (note,))
            shows, rank = state.list_shows, state.rank
            changes.append(Change(pid, game.date, source, shows, shows, rank, rank, note))
        return changes

    def _score(
        self,
        game: Game,
        state: PlayerState,
        due: int,
        played: int,
        outcome: tuple[Outcome, str],
        deadline: dt.date,
    ) -> tuple[_Before, int | None, list[str]]:
        """One player's part of a ranked game: activity, late flag, points (§4.1–§4.3)."""
        date = game.date
        notes: list[str] = []
        results = state.results
        last = state.last_ranked
        if (
            results is not None
            and results.n
            and (date - last).days >= _SHORTEST_INACTIVITY_DAYS
            and date >= add_months(last, self.params.inactive_months)
        ):
            # §18(4) (rules.md §4.3): the results reset after 13 months without a ranked game
            results = state.results = Results(results.minimum)
            state.tainted = False
            notes.append(
                plural(
                    "results reset: {n} month without a game",
                    "results reset: {n} months without a game",
                    self.params.inactive_months,
                )
            )
        if date > last:
            state.last_ranked = date
        if state.last_played is None or date > state.last_played:
            state.last_played = date
        state.games += 1
        before: _Before = (None, None, None)
        points = game_points(state.rank, due, played, outcome[0])
        word = outcome[1]
        if results is None:
            notes.append(Msg("{outcome}; no PSG points below 20k (§15(2))", outcome=word))
        else:
            before = (results.min_result, results.fewer_result, results.list_shows)
            if points is None:
                notes.append(
                    Msg(
                        "{outcome}; empty cell (due {due}, played {played}): not counted in the "
                        "results (§17(1))",
                        outcome=word,
                        due=f"{due:+d}",
                        played=f"{played:+d}",
                    )
                )
            else:
                results.add(points)
                notes.append(_scored(word, points, due, played))
        reported = game.reported
        if reported is not None and reported > deadline:
            # §7 (rules.md §4.1): a late report is flagged for the manager, not rejected
            state.late_reports += 1
            notes.append(
                plural(
                    "reported {n} day after the {days}-day deadline: flagged for the manager (§7)",
                    "reported {n} days after the {days}-day deadline: "
                    "flagged for the manager (§7)",
                    (reported - deadline).days,
                    days=self.params.report_days,
                )
            )
        return before, points, notes

    # ------------------------------------------------------------------ promotion

    def _points_norm(self, rank: Rank, min_result: int | None, fewer: int | None) -> bool:
        """Whether results alone meet the norm or condition (b)'s points (§19, §20(2))."""
        target = next_rank(rank)
        if target is None:
            return False
        if norm_reached(target, min_result, fewer):
            return True
        value = norm_value(target)
        return (
            target > self.params.auto_promotion_limit
            and value is not None
            and fewer is not None
            and fewer >= value
        )

    def _after_counted_game(
        self,
        state: PlayerState,
        lost_arranged: bool,
        before: _Before,
        date: dt.date,
        notes: list[str],
    ) -> Rank | None:
        """The promotion check after every counted game (rules.md §4.4, Decision).

        Seed §19(1) (rules.md §4.1, Decision): no check runs after a lost arranged game, and a
        norm that first came into being with a lost arranged game stays unrecognised (the EGF
        and release checks skip it too) until a later game that is not a lost arranged game
        still shows a norm — that game's check may then promote. A norm that already stood
        before the loss keeps its standing.
        """
        if not lost_arranged:
            state.tainted = False
            return self._maybe_promote(state, date, notes)
        results = state.results
        assert results is not None
        if not self._points_norm(state.rank, results.min_result, results.fewer_result):
            state.tainted = False  # no norm left to recognise
        elif not self._points_norm(state.rank, before[0], before[1]):
            state.tainted = True  # the norm came into being with this loss
        if state.tainted:
            notes.append(
                Msg(
                    "norm reached by losing an arranged game: it does not count until a later "
                    "game that is not a lost arranged game still shows it (PSG regulations §19(1))"
                )
            )
        return None

    def _promotion_due(self, state: PlayerState) -> tuple[Rank, str] | None:
        """The target and the reason when the player is to be promoted now (rules.md §4.4)."""
        results = state.results
        if results is None or state.tainted:
            return None
        minr, fewr = results.min_result, results.fewer_result
        if (minr is None or minr < LOWEST_NORM) and (fewr is None or fewr < LOWEST_NORM):
            return None  # no norm and no condition (b) asks for less (the common case)
        target = next_rank(state.rank)
        if target is None:
            return None
        params = self.params
        # Decision (rules.md §4.4): the results exist only after the minimum number of games
        # with the current rank, so no norm can be met before that (§17(2))
        normed = norm_reached(target, minr, fewr)
        if target <= params.auto_promotion_limit:  # §20(1): up to 6k on the norm alone
            if not normed:
                return None
            if state.held and target <= params.hold_limit:
                return None  # §21: a teacher holds back promotion up to 7k
            return target, Msg("norm ({results})", results=results_text(minr, fewr))
        model = model_rating(target)
        value = norm_value(target)
        latest = state.latest_egf()
        if model is None or value is None or latest is None:
            return None
        egf = latest[1]
        need_a = model - params.norm_egf_margin
        if normed and egf >= need_a:
            return target, Msg(
                "norm ({results}) and EGF {egf} ≥ {need} (§20(2)a)",
                results=results_text(minr, fewr),
                egf=egf,
                need=need_a,
            )
        # Decision (rules.md §4.4): condition (b)'s "norm value" is 135 for a kyu target and
        # the dan norm table's value for a dan target
        if fewr is not None and fewr >= value and egf >= model:
            return target, Msg(
                "fewer-games result {fewer} ≥ {value} and EGF {egf} ≥ {model} (§20(2)b)",
                fewer=fewr,
                value=value,
                egf=egf,
                model=model,
            )
        return None

    def _maybe_promote(self, state: PlayerState, date: dt.date, notes: list[str]) -> Rank | None:
        due = self._promotion_due(state)
        if due is None:
            return None
        target, why = due
        notes.append(
            Msg(
                "promoted {rank} → {target}: {why}",
                rank=str(state.rank),
                target=str(target),
                why=why,
            )
        )
        self._set_rank(state, target, date)
        return target

    def _set_rank(self, state: PlayerState, rank: Rank, date: dt.date) -> None:
        """Any rank change: the results reset (§18(4)); after a raise the §23 clock waits."""
        raised = rank > state.rank
        state.rank = rank
        state.rank_version += 1
        state.rank_since = date
        state.results = new_results(rank)
        state.tainted = False
        state.below_run, state.below_last = 0, None
        if raised:
            # §23(3) (rules.md §4.5): after a promotion the clock starts only with an EGF rating
            # from a tournament game played after it
            state.clock_from = None
            state.raised_month = month_index(date.year, date.month)

    # ------------------------------------------------------------------ EGF and verification

    def _egf_rating(self, event: EgfRating) -> list[Change]:
        """Record an EGF rating by month (rules.md §4.4–§4.5); it may complete a promotion.

        Decision (ours): a norm waiting for its EGF condition is promoted as soon as a good
        enough EGF rating is recorded (§20(2) names no moment; the norm still stands).
        """
        state = self._player(event.player, Msg("EGF rating"))
        check_egf(event)
        month = month_index(event.year, event.month)
        notes = record_egf(state, month, event.rating, event.from_tournament, self.params)
        date = dt.date(event.year, event.month, 1)
        if self._today is not None and self._today > date:
            date = self._today
        rank_before, shows_before = state.rank, state.list_shows
        self._maybe_promote(state, date, notes)
        if not notes:
            return []
        note = Msg(
            "EGF {rating} ({month}): {notes}",
            rating=whole_points(event.rating),
            month=month_name(month),
            notes=clauses(notes),
        )
        source = f"egf:{month_name(month)}"
        return [
            Change(event.player, date, source, shows_before, state.list_shows, rank_before,
                    state.rank, note)
        ]  # fmt: skip

    def _month_ended(self, event: MonthEnded) -> list[Change]:
        """Month end: the 13-month reset and the §23 verification (rules.md §4.3, §4.5)."""
        check_month(event.year, event.month)
        month = month_index(event.year, event.month)
        if self._last_month is not None and month <= self._last_month:
            raise RuleError(
                Msg(
                    "month {month} was already checked; the next month end is {next} or later",
                    month=month_name(month),
                    next=month_name(self._last_month + 1),
                )
            )
        self._last_month = month
        self._checked.add(month)
        end = month_end(event.year, event.month)
        self._seen(end)
        source = f"month:{month_name(month)}"
        params = self.params
        changes: list[Change] = []
        for pid in sorted(self._players):
            state = self._players[pid]
            results = state.results
            if (
                results is not None
                and results.n
                and end >= add_months(state.last_ranked, params.inactive_months)
            ):
                # §18(4) (rules.md §4.3): checked at month end as well as at each game
                shows = results.list_shows
                state.results = Results(results.minimum)
                state.tainted = False
                reset = plural(
                    "results reset: {n} month without a ranked game",
                    "results reset: {n} months without a ranked game",
                    params.inactive_months,
                )
                changes.append(Change(pid, end, source, shows, 0, state.rank, state.rank, reset))
            note = verify_month(state, month, params)
            if note is not None:
                rank_before, shows_before = state.rank, state.list_shows
                self._set_rank(state, state.rank + -1, end)
                changes.append(
                    Change(pid, end, source, shows_before, state.list_shows, rank_before,
                            state.rank, note)
                )  # fmt: skip
        return changes

    def _suspension(self, event: VerificationSuspended) -> list[Change]:
        """The manager suspends or resumes a player's §23 check (rules.md §4.5)."""
        state = self._player(event.player, Msg("verification"))
        if state.suspended == event.suspended:
            raise RuleError(
                Msg("verification for player {player} is already suspended", player=event.player)
                if event.suspended
                else Msg(
                    "verification for player {player} is already running", player=event.player
                )
            )
        self._seen(event.date)
        state.suspended = event.suspended
        state.below_run, state.below_last = 0, None
        note = (
            Msg("verification suspended (§23(4))")
            if event.suspended
            else Msg("verification resumed")
        )
        shows, rank = state.list_shows, state.rank
        return [Change(event.player, event.date, "verification", shows, shows, rank, rank, note)]

    # ------------------------------------------------------------------ organiser actions

    def _teacher(self, event: TeacherAction) -> list[Change]:
        """Teacher promotion (§22) or hold/release of automatic promotion (§21; rules.md §4.4).

        Decision (ours): HOLD withholds automatic promotions to ranks up to 7k (the results
        keep growing and are not reset); promotion to 6k and above cannot be held (§21: "Awans
        na 6 kyu następuje automatycznie"). RELEASE ends the hold and checks the norm at once.
        """
        state = self._player(event.player, Msg("teacher action"))
        target = teacher_target(state, event, self.params)
        note: str
        if target is not None:
            note = Msg(
                "promoted by a teacher ({teacher}): {rank} → {target} (§22)",
                teacher=str(event.teacher_rank),
                rank=str(state.rank),
                target=str(target),
            )
        elif event.kind is TeacherKind.HOLD:
            note = Msg(
                "promotion held by a teacher (up to {limit}, §21)",
                limit=str(self.params.hold_limit),
            )
        else:
            note = Msg("the teacher's hold is released (§21)")
        self._seen(event.date)
        rank_before, shows_before = state.rank, state.list_shows
        notes: list[str] = [note]
        if target is not None:
            self._set_rank(state, target, event.date)
        elif event.kind is TeacherKind.HOLD:
            state.held = True
        else:
            state.held = False
            self._maybe_promote(state, event.date, notes)
        return [
            Change(event.player, event.date, "teacher", shows_before, state.list_shows,
                    rank_before, state.rank, clauses(notes))
        ]  # fmt: skip

    def _override(self, event: Override) -> list[Change]:
        """A committee rank change (rules.md §4.4); it resets the results as any rank change."""
        state = self._player(event.player, Msg("override"))
        rank = override_rank(state, event, self.params)
        self._seen(event.date)
        rank_before, shows_before = state.rank, state.list_shows
        self._set_rank(state, rank, event.date)
        note = Msg(
            "override {rank} → {new}: {reason}",
            rank=str(rank_before),
            new=str(rank),
            reason=event.reason,
        )
        return [
            Change(event.player, event.date, "override", shows_before, state.list_shows,
                    rank_before, state.rank, note)
        ]  # fmt: skip

    # ------------------------------------------------------------------ queries

    def players(self) -> Iterable[PlayerId]:
        """Every registered participant."""
        return list(self._players)

    def open_period(self) -> Sequence[Game]:
        """Club games held for a rating period not closed yet (the RatingSystem protocol)."""
        return ()  # every game counts at once (rules.md §4)

    def period_weight(self) -> Weight | None:
        """None: an arranged game counts at once (rules.md §4.1), nothing is held."""
        return None

    def stakes(self, game: Game) -> Stakes:
        """Each player's PSG points (the list's result, rules.md §4.3) moved by ``game``, if
        Black wins and if White wins, as folding it now gives them; ``None`` while a player
        has no result yet. Changes nothing."""
        return stakes_by_trial(
            self,
            game,
            lambda ledger, player: ledger._players[player].list_shows,
            Msg("points"),
        )

    def uncounted(self, game: Game) -> str | None:
        """Why ``game`` will not be a counted PSG game, asked before it is folded in (rules.md
        §4.1: ranked games, arranged games; §4.2: the points table); ``None`` when it counts.

        A game outside a tournament is an arranged game (rules.md §4.1, Decision — club
        games); a tournament game is one when marked so. Tournament games are judged with the
        players' current ranks (their entries may differ). Changes nothing: the §8(2) count is
        read, not taken.
        """
        common = never_rated(game)
        if common is not None:
            return common
        black, white = self._players.get(game.black), self._players.get(game.white)
        if black is None and white is None:
            return Msg("neither player is a PSG participant")
        arranged = game.tournament is None or game.arranged
        due = 0 if black is None or white is None else white.rank.step - black.rank.step
        ranks = None if black is None or white is None else (black.rank, white.rank)
        reason = self._ineligible(game, arranged, black, white, ranks, game.time)
        if reason is None and arranged and black is not None and white is not None:
            reason = self._arranged_limit(game, black, white)[2]
        if (
            reason is None
            and black is not None
            and white is not None
            and cell(due, game.stones) is None
            and cell(-due, -game.stones) is None
        ):
            reason = Msg(
                "{facts}: the PSG points table has no cell for that handicap, so the game "
                "earns neither player points (PSG regulations §16)",
                facts=handicap_facts(black.rank, white.rank, game.stones),
            )
        return reason

    def rank(self, player: PlayerId) -> Rank:
        """The player's PSG rank (``KeyError`` for an unknown player)."""
        return self._players[player].rank

    def last_score(self, player: PlayerId) -> GameScore | None:
        """How the player's latest ranked game was scored (``None`` before any)."""
        score = self._players[player].last_score
        return None if score is None else GameScore(*score)

    def active(self, player: PlayerId, on: dt.date | None = None) -> bool:
        """§3(5) (rules.md §4.1): a ranked game within the last 13 months (the club's
        ``psg.inactive_months``); a participant with no ranked game yet is not active, as
        :meth:`engine.system.Activity.active` judges the ranking list.

        ``on`` defaults to the latest date the ledger has seen. A manager's declaration of
        activity is not modelled.
        """
        if not self._players[player].games:
            return False
        return self._bound_to_rank(player, on)

    def _bound_to_rank(self, player: PlayerId, on: dt.date | None = None) -> bool:
        """Whether §5(1) binds the participant to their current rank when entering a
        tournament: active, or registered within the last 13 months with no ranked game yet
        (Decision, ours: a new participant enters with the rank they were registered at, not
        under the inactive participant's "at no more than their last rank")."""
        state = self._players[player]
        today = on if on is not None else self._today
        if today is None:
            return True
        return today < add_months(state.last_ranked, self.params.inactive_months)

    def card(self, player: PlayerId) -> Card:
        """Rank, results, games, latest EGF, activity and flags (rules.md §4.3)."""
        state = self._players[player]
        active = self.active(player)
        label, values = card_values(state, active)
        shows = state.list_shows
        return Card(
            player=player,
            rank=state.rank,
            rating=shows,
            rating_label=label,
            sort_key=(active, state.rank.step, shows if shows is not None else -(10**9)),
            games=state.games,
            last_played=state.last_played,
            values=values,
        )

    def announcement(self, phase: Phase, label: str, changes: Sequence[Change]) -> Notice | None:
        """The month-end verification (rules.md §4.5; PSG regulations §23): who dropped a rank,
        and who is on the way (one or two months below the line already); ``None`` when
        nobody is, and at the other moments."""
        if phase is not Phase.MONTH_END:
            return None
        demoted = [c for c in changes if c.rank_after < c.rank_before]
        warned = [(p, n) for p in sorted(self._players) if (n := self.months_below(p))]
        lines: list[str] = []
        if demoted:
            lines.append(
                Msg(
                    "Down one rank after three months more than 100 below the model EGF rating "
                    "(PSG regulations §23(1)): {players}.",
                    players=", ".join(
                        f"{{player:{c.player}}} {c.rank_before} → {c.rank_after}" for c in demoted
                    ),
                )
            )
        if warned:
            lines.append(
                Msg(
                    "Warning — months in a row more than 100 below the model rating (a third one "
                    "drops a rank): {players}.",
                    players=", ".join(f"{{player:{p}}} {n}" for p, n in warned),
                )
            )
        if not lines:
            return None
        return Notice(Msg("month-end verification {month}", month=label), tuple(lines))

    def rank_bands(self) -> tuple[Band, ...]:
        """Empty: the list's value is a result of games, not a rank scale (rules.md §4.3)."""
        return ()

    def tournament_weight(self, tournament: Tournament) -> Weight | None:
        """None: a tournament's games count alike whatever the tournament (rules.md §4.2)."""
        return None

    def time_weight(self, tournament: Tournament) -> Weight:
        """Whether a game of ``tournament`` at its time control is a ranked game (rules.md
        §4.1; PSG regulations §6): 1 when it is, 0 when not; every ranked game counts alike.

        Raises:
            RuleError: no time control, in a club that does not count unknown ones.
        """
        if tournament.board not in self.params.boards:
            board = Msg(
                "{size}×{size} games are not ranked under PSG (19×19 only)", size=tournament.board
            )
            return Weight(GAME_WEIGHT, 0, False, (board,))
        time = tournament.time
        ok = time_control_counts(time)
        if ok is None and not self.params.unknown_time_counts:
            raise RuleError(
                Msg(
                    "PSG ranks a game by its time control (PSG regulations §6): give it, "
                    "e.g. {example}",
                    example="/multiplier 60m",
                )
            )
        rule = Msg(
            "PSG regulations §6 rank games with no time limit, with at least 30 min each and "
            "10 s byo-yomi, or with at least 45 min each (or any game the EGF rates); every "
            "ranked game counts alike, whatever the tournament"
        )
        if ok is None:
            said = Msg("time control unknown: counted as a ranked game (the club's setting)")
        elif ok:
            said = Msg("{time}: a ranked game", time=str(time))
        else:
            said = Msg("{time} is too short for a ranked game", time=str(time))
        return Weight(GAME_WEIGHT, 0 if ok is False else 1, ok is not False, (said, rule))

    def entry_notes(self, tournament: Tournament, entries: Sequence[Entry]) -> list[str]:
        """Entry ranks against PSG's rules (rules.md §4.1; PSG regulations §5, §11, §13), each
        against the PSG rank of the tournament's first day (rules.md, top: calendar order; a
        promotion since does not make last month's entry wrong); activity as known now."""
        standings = {
            pid: EntryStanding(self.rank_on(pid, tournament.start), standing.active)
            for pid, standing in self.entry_standings().items()
        }
        return entry_rank_violations(entries, standings)

    def initial_rank_limit(self) -> RankLimit | None:
        """None: a new participant's entry rank is checked at their tournaments (§11(3))."""
        return None

    def months_below(self, player: PlayerId) -> int:
        """Consecutive checked months the player's EGF rating has been more than 100 below
        their rank's model rating (rules.md §4.5; §23): 0 when not below the line.

        Raises:
            KeyError: an unknown player.
        """
        return self._players[player].below_run

    def promotion(self, player: PlayerId) -> Progress:
        """Norm needed, where the player stands, EGF condition, verification (§4.4–§4.5)."""
        state = self._players[player]
        lines = promotion_lines(state, self.params)
        return Progress(player, state.rank, next_rank(state.rank), tuple(lines))

    def rank_on(self, player: PlayerId, day: dt.date) -> Rank:
        """The player's rank at the start of ``day`` (engine.system.RankTrail); ``KeyError``
        for a player this ledger never knew."""
        found = self._trail.on(player, day)
        return found if found is not None else self.card(player).rank

    def handicap(self, a: PlayerId, b: PlayerId, *, reduction: int = 0) -> HandicapAdvice:
        """Stones = rank difference (rules.md §5)."""
        rank_a, rank_b = self._players[a].rank, self._players[b].rank
        return rank_handicap(
            a, rank_a, b, rank_b, reduction=reduction, even_komi=self.params.even_komi
        )

    def entry_standings(self) -> dict[PlayerId, EntryStanding]:
        """Each participant's rank and activity for the entry rules (rules.md §4.1)."""
        return {
            pid: EntryStanding(state.rank, self._bound_to_rank(pid))
            for pid, state in self._players.items()
        }

    def entry_rank_violations(
        self, entries: Iterable[Entry], approvals: Mapping[PlayerId, Rank] | None = None
    ) -> list[str]:
        """The §4.1 entry-rank problems of a tournament's entries against this ledger."""
        return entry_rank_violations(entries, self.entry_standings(), approvals=approvals)

    def rating_scale(self) -> None:
        """None: a PSG result is computed from games alone and cannot be set (rules.md §4)."""
        return None

    def snapshot(self) -> dict[str, Any]:
        """The whole ledger as canonical JSON-able data."""
        players = self._players
        return {
            "system": self.key,
            "trail": self._trail.snapshot(),
            "today": None if self._today is None else self._today.isoformat(),
            "last_month": None if self._last_month is None else month_name(self._last_month),
            "checked": [month_name(month) for month in sorted(self._checked)],
            "first": None if self._first is None else self._first.isoformat(),
            "players": {str(pid): players[pid].snapshot() for pid in sorted(players)},
            "arranged_pairs": [[a, b, *v] for (a, b), v in sorted(self._pairs.items())],
        }


def _round(game: Game) -> int:
    return game.round if game.round is not None else 0


Psg._HANDLERS = {
    Registered: Psg._register,
    GamePlayed: Psg._played,
    TournamentRated: Psg._tournament,
    MonthEnded: Psg._month_ended,
    EgfRating: Psg._egf_rating,
    TeacherAction: Psg._teacher,
    VerificationSuspended: Psg._suspension,
    Override: Psg._override,
    SettingsChanged: Psg._settings,
}
Psg.handles = frozenset(Psg._HANDLERS)


@functools.lru_cache(maxsize=4096)
def _scored(word: str, points: int, due: int, played: int) -> Msg:
    """A ranked game's points in its note: ``win +15 (due 0, played 0)``, made once for each
    outcome, points and handicap (a Msg is immutable; a replay writes one a game a side)."""
    return Msg(
        "{outcome} {points} (due {due}, played {played})",
        outcome=word,
        points=f"{points:+d}",
        due=f"{due:+d}",
        played=f"{played:+d}",
    )


def _noted(prefix: str, notes: Sequence[str]) -> str:
    """A game's history note: ``game 12 (round 3): win +15 (due 0, played 0); …``."""
    return Msg("{game}: {notes}", game=prefix, notes=clauses(notes))
