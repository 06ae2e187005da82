"""Swedish promotion points: the ledger (rules.md §3; the RatingSystem)."""

from __future__ import annotations

import datetime as dt
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any, ClassVar

from engine import settings
from engine.calendar import Phase
from engine.errors import RuleError
from engine.handicap import rank_handicap
from engine.ranks import Rank
from engine.swedish.points import (
    _target_table,
    _weigh,
    format_quarters,
    time_halves,
    time_rule,
)
from engine.swedish.sequences import (
    SequenceTracker,
)
from engine.swedish.tables import (
    _HIGHEST_STEP,
    _JIGO,
    _LADDER,
    _LOSS,
    _MISSING_GAME_Q,
    _WIN,
    DEFAULT_PARAMS,
    HALVES,
    KYU_TARGETS,
    QUARTERS,
    RATED_BOARD,
    REGION_REVIEW_GAMES,
    REQUIREMENTS,
    SETTINGS,
    Requirement,
    SwedishParams,
)
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
    Progress,
    RankLimit,
    RankTrail,
    Stakes,
    Weight,
    applied,
    clauses,
    default_activity,
    entry_rank,
    listed,
    never_rated,
    stakes_by_trial,
    unit,
)
from engine.text import Msg, Typed, decimal, game_mark, plural
from engine.types import (
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

# ------------------------------------------------------------------------------- the ledger

# A stored valid game: ((opponent step + _STEP_OFFSET) * 3 + outcome) * 4 + (halves − 1) * 2
# + foreign — one small int a game, enough to bring any target's tracker up to date. Kept in
# an array of unsigned 16-bit ints (2 bytes a game where a list of ints took 36: a federation's
# million games are two million of them).
_STEP_OFFSET = 64
_HISTORY_TYPE = "H"


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
        self.history = array(_HISTORY_TYPE)  # the valid games, encoded
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


# The version of this rulebook's results, bumped by hand whenever a change makes any of its
# ratings, ranks, cards, history rows or refusals differ (a snapshot of a club's ledgers is kept
# only under the RULES_VERSION it was made with: storage.snapshots.system_version; and
# tests/engine/test_rules_versions.py fails when the results move without a bump). A docstring,
# a comment or a refactor that keeps every result leaves it alone.
RULES_VERSION = 1


class Swedish:
    """Swedish promotion points (rules.md §3): a promotion tracker per player and target.

    Args:
        params: the club's settings; the seed's rules by default (kyu targets off).
    """

    key = "swedish"
    rules_version = RULES_VERSION
    """This rulebook's :data:`RULES_VERSION` (what a snapshot of the ledger is kept under)."""
    language = "sv"
    """Swedish, the uppgraderingsregler's: a club's default language (issue 13)."""
    activity = default_activity()
    """The rulebook sets no activity rule: hoshi's 12 months, said as such (issue 14)."""
    scheduled: frozenset[Phase] = frozenset()
    file_rating_titles: tuple[str, ...] = ()  # no file carries Swedish points
    """Nothing waits for a scheduled moment: every valid game counts at once (rules.md §3)."""

    handles: frozenset[type[Event]]
    """Registrations, games, tournaments, overrides and settings (the keys of the dispatch
    table below); days, periods, months, EGF ratings and PSG actions are no-ops."""

    _HANDLERS: ClassVar[dict[type, Any]]

    def __init__(self, params: SwedishParams = DEFAULT_PARAMS) -> None:
        self._trail = RankTrail()  # each player's rank through the calendar
        self._everyone = False  # the last fact re-aimed every player (the kyu targets)
        self._players: dict[PlayerId, _Player] = {}
        self._configure(params)

    def _configure(self, params: SwedishParams) -> None:
        """Take ``params``: the targets, their requirements and points tables (rules.md §3.3)."""
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

    # ------------------------------------------------------------------------- events

    def apply(self, event: Event) -> Applied:
        """Fold one event in (rules.md §3); raises and changes nothing on error.

        It touches the players it names and those it changed; a change of the kyu targets
        (§3.3) re-aims every player."""
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
        """Nothing is ever due: every valid game counts at once (rules.md §3)."""
        return []

    def _game_played(self, event: GamePlayed) -> list[Change]:
        return self._club_game(event.game)

    def _settings(self, event: SettingsChanged) -> list[Change]:
        """The club changed its Swedish settings from ``event.date`` on (``SETTINGS``).

        Komi bounds apply to the games from that date. A change of the kyu targets (rules.md
        §3.3: club-managed 4k, 3k, 2k) re-aims every player at their next target under the new
        requirements, counted over their games so far (the trackers of the kyu targets start
        again from the stored games); nobody is promoted by the change itself.
        """
        params = settings.params_with(self.params, SETTINGS, event.values)
        if params == self.params:
            return []
        before = self.params
        self._configure(params)
        kyu = (params.kyu_targets, params.kyu_points, params.kyu_games)
        if kyu != (before.kyu_targets, before.kyu_points, before.kyu_games):
            self._everyone = True
            dropped = {Rank.parse(text).step for text in KYU_TARGETS}
            for player in self._players.values():
                for step in dropped:
                    player.trackers.pop(step, None)
                self._retarget(player)
        return []

    def _register(self, event: Registered) -> list[Change]:
        if event.player in self._players:
            raise RuleError(
                Msg(
                    "player {player} is already registered under Swedish rules",
                    player=event.player,
                )
            )
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
            raise RuleError(
                Msg("player {player} is not registered under Swedish rules", player=event.player)
            )
        if event.rank is None:
            raise RuleError(
                Msg(
                    "Swedish promotion points are counted from games and cannot be set; "
                    "override the rank instead, e.g. {example}",
                    example="rank=1k",
                )
            )
        before_rank, before = player.rank, self._value(player)
        player.rank = event.rank
        self._retarget(player)  # ours: the override itself promotes nobody
        note = event.reason
        if event.rating is not None:
            unused = Msg("(a rating is not used under Swedish rules)")
            note = Msg("{reason} {unused}", reason=note, unused=unused) if note else unused
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
                    Msg(
                        "player {player} is not registered under Swedish rules; a club game "
                        "counted as a tournament game needs both players' ranks",
                        player=pid,
                    )
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
        # (a club player entered without a declared rank: the rank of the tournament's first
        # day, engine.system.entry_rank)
        seats = {
            entry.player: (
                entry_rank(entry, self._trail, tournament).step,
                entry.country.upper() if entry.country else None,
            )
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
                            Msg(
                                "game {game} of {tournament}: player {player} has no entry "
                                "in the tournament, so the rank they played with is unknown",
                                game=game_mark(game.id),
                                tournament=Typed(tournament.name),
                                player=pid,
                            )
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
        parts: list[str] = [
            plural(
                "promoted to {target}: a sequence of {points} points in "
                "{games} game (needs {needed} in {within}, "
                "or 10 more points for each game short)",
                "promoted to {target}: a sequence of {points} points in "
                "{games} games (needs {needed} in {within}, "
                "or 10 more points for each game short)",
                _games_n(halves),
                target=str(tracker.target),
                points=_quarter_points(points),
                games=_half_games(halves),
                needed=req.points,
                within=req.games,
            )
        ]
        if not fresh:
            parts.append(
                Msg("the sequence qualified earlier, the wins against dan players came now")
            )
        if foreign > REGION_REVIEW_GAMES:
            parts.append(_review(foreign))
        return clauses(parts)

    def _summary(self, pid: PlayerId, tally: _Tally, source: str) -> Change:
        """One history row for a player's games in an event (or up to a promotion)."""
        player = self._players[pid]
        parts: list[str] = []
        if tally.games and tally.half:
            parts.append(
                plural(
                    "{n} game counted ({half} as half games)",
                    "{n} games counted ({half} as half games)",
                    tally.games,
                    half=tally.half,
                )
            )
        elif tally.games:
            parts.append(plural("{n} game counted", "{n} games counted", tally.games))
        if tally.skipped:
            skipped = listed(
                # TRANSLATORS: how many games were not counted and why ("2 handicap game")
                [Msg("{n} {reason}", n=n, reason=why) for why, n in sorted(tally.skipped.items())]
            )
            parts.append(Msg("not counted: {games}", games=skipped))
        flag = self._region_flag(player)
        if flag:
            parts.append(flag)
        date = tally.last_date
        assert date is not None
        after = self._value(player)
        change = Change(
            pid, date, source, tally.before, after, player.rank, player.rank, clauses(parts)
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
        return _review(tracker.total_foreign)

    # ------------------------------------------------------------------------ queries

    def players(self) -> Iterable[PlayerId]:
        """Every registered player."""
        return list(self._players)

    def open_period(self) -> Sequence[Game]:
        """Club games held for a rating period not closed yet (the RatingSystem protocol)."""
        return ()  # only tournament games count (rules.md §3.1)

    def period_weight(self) -> Weight | None:
        """None: club games never enter a sequence (rules.md §3.1), nothing is held."""
        return None

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
            raise RuleError(
                Msg(
                    "{rank} is not a Swedish target here; the targets are {targets}",
                    rank=str(target),
                    targets=known,
                )
            )
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
        values: list[Measure] = []
        if tracker is None:
            label: str = Msg("no further Swedish target")
            total = 0
            values.append(Measure("swedish_sequences.points", label, None, POINTS))
            values.append(Measure("swedish_sequences.target", TARGET, None))
            values.append(Measure("swedish_sequences.games", SEQUENCE_GAMES, None, GAMES))
        else:
            req = tracker.requirement
            label = Msg("points toward {rank}", rank=str(tracker.target))
            total = tracker.total
            points = Fraction(total, QUARTERS)
            values.append(Measure("swedish_sequences.points", label, points, _points(points)))
            values.append(Measure("swedish_sequences.target", TARGET, str(tracker.target)))
            games = Fraction(tracker.total_halves, HALVES)
            values.append(Measure("swedish_sequences.games", SEQUENCE_GAMES, games, _games(games)))
            values.append(
                Measure(
                    "swedish_required_points",
                    Msg("points required"),
                    req.points,
                    _points(req.points),
                )
            )
            values.append(
                Measure(
                    "swedish_required_games",
                    Msg("games required"),
                    req.games,
                    _games(req.games),
                )
            )
            if tracker.target.is_dan:
                wins = self.wins_against(player, tracker.target)
                values.append(
                    Measure(
                        "swedish_wins",
                        Msg("wins vs {rank}+", rank=str(tracker.target)),
                        wins,
                        Msg("of {n} needed", n=tracker.target.step),
                    )
                )
            flag = self._region_flag(state)
            if flag:
                values.append(Measure("review", Msg("review"), flag))
        return Card(
            player=player,
            rank=state.rank,
            rating=self._value(state),
            rating_label=label,
            sort_key=(state.rank.step, total),
            games=len(state.history),
            last_played=state.last_played,
            values=tuple(values),
        )

    def announcement(self, phase: Phase, label: str, changes: Sequence[Change]) -> Notice | None:
        """None: no scheduled moment changes Swedish points (rules.md §3)."""
        return None

    def rank_bands(self) -> tuple[Band, ...]:
        """Empty: points count toward the next target, not on a rank scale (rules.md §3.3)."""
        return ()

    def tournament_weight(self, tournament: Tournament) -> Weight | None:
        """None: every valid game counts alike, whatever the tournament (rules.md §3.1)."""
        return None

    def time_weight(self, tournament: Tournament) -> Weight:
        """What one valid game of ``tournament`` counts for at its time control: a whole game,
        half a game or none (rules.md §3.1), with the even-game condition beside it.

        Raises:
            RuleError: no time control (the rules weigh a game by its base time).
        """
        low, high = self.params.komi_min, self.params.komi_max
        even = Msg(
            "only even games with komi {low}–{high} to White count; handicap games never do",
            low=decimal(low),
            high=decimal(high),
        )
        if tournament.board != RATED_BOARD:
            board = Msg(
                "{size}×{size} games do not count for Swedish promotion points: only 19×19",
                size=tournament.board,
            )
            return Weight(GAME_WEIGHT, 0, False, (board,))
        if tournament.time is None:
            raise RuleError(
                Msg(
                    "the Swedish upgrade rules weigh a game by its base time: give the time "
                    "control, e.g. {example}",
                    example="/multiplier 60m",
                )
            )
        halves = time_halves(tournament.time)
        return Weight(
            GAME_WEIGHT, Fraction(halves, HALVES), halves > 0, (time_rule(tournament.time), even)
        )

    def entry_notes(self, tournament: Tournament, entries: Sequence[Entry]) -> list[str]:
        """Nothing: the Swedish rules set no entry-rank limits (rules.md §3)."""
        return []

    def initial_rank_limit(self) -> RankLimit | None:
        """None: a new player starts at their declared rank (rules.md §3.3)."""
        return None

    def stakes(self, game: Game) -> Stakes:
        """Each player's promotion points toward their next target won by ``game``, if Black
        wins and if White wins (rules.md §3.3, the points table of the player's rank; a half
        game half). A tournament's game counts in the sequence (§3.1); a club game only when
        marked. ``None`` for a player without a target, or whom the game promotes (the
        total starts again toward the next target). Changes nothing."""
        if game.tournament is not None and not game.counts_as_tournament:
            # the game of a tournament is rated with it (rules.md §3.1): count it as such
            game = replace(game, counts_as_tournament=True)
        return stakes_by_trial(
            self,
            game,
            lambda ledger, player: ledger._toward(player, self._players[player]),
            Msg("promotion points"),
            before=lambda ledger, player: ledger._toward(player, None),
        )

    def _toward(self, player: PlayerId, was: _Player | None) -> Fraction | None:
        """The player's total toward their next target (``None``: no target, or another
        target than ``was`` aimed at: a promotion); raises ``KeyError``."""
        state = self._players[player]
        tracker = state.next
        if tracker is None:
            return None
        if was is not None and (was.next is None or was.next.target != tracker.target):
            return None
        return Fraction(tracker.total, QUARTERS)

    def uncounted(self, game: Game) -> str | None:
        """Why ``game`` will not enter a Swedish sequence, in a member's words (rules.md §3.1:
        valid games; Decision — club games); ``None`` when it counts, whole or half.

        A tournament game without its own time control is judged by the tournament's, which
        the game does not carry: its time is not judged here.
        """
        common = never_rated(game)
        if common is not None:
            return common
        if game.tournament is None and not game.counts_as_tournament:
            return Msg(
                "only tournament games count for Swedish promotion points (a club game counts "
                "when an organiser marks it as a tournament game)"
            )
        if game.black not in self._players and game.white not in self._players:
            return Msg("neither player is registered under the Swedish rules")
        halves, reason = _weigh(game, None, self.params)
        if halves or reason is None:
            return None
        if reason == "time control unknown":
            if game.tournament is not None:
                return None  # the tournament's time control decides
            return Msg(
                "its time control is not known, and the Swedish upgrade rules count only games "
                "with 30 minutes' base time or more: give it, e.g. {example}",
                example="time=60m",
            )
        worded = _SWEDISH_REASONS.get(reason)
        if worded is not None:
            return worded
        if reason.startswith("komi"):
            low, high = self.params.komi_min, self.params.komi_max
            return Msg(
                "komi {komi} is outside {low}–{high}, so it "
                "is not an even game: only even games count for Swedish promotion points",
                komi=_decimal(game.komi),
                low=_decimal(low),
                high=_decimal(high),
            )
        return Msg(
            "{size}×{size} games do not count for Swedish promotion points", size=game.board
        )

    def rank_on(self, player: PlayerId, day: dt.date) -> Rank:
        """The player's rank at the start of ``day`` (engine.system.RankTrail); ``KeyError``
        for a player this ledger never knew."""
        found = self._trail.on(player, day)
        return found if found is not None else self.card(player).rank

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
                (
                    Msg(
                        "{rank}: the Swedish rules promote no further than 6d.",
                        rank=str(state.rank),
                    ),
                ),
            )
        target, req = tracker.target, tracker.requirement
        lines: list[str] = [
            Msg(
                "Target {target} (points against the reference rank {reference}).",
                target=str(target),
                reference=str(Rank(target.step - 1)),
            ),
            plural(
                "Best sequence now: {points} points in {games} game.",
                "Best sequence now: {points} points in {games} games.",
                _games_n(tracker.total_halves),
                points=_quarter_points(tracker.total),
                games=_half_games(tracker.total_halves),
            ),
            plural(
                "Needs {points} points in {games} game, or 10 more points for each game short.",
                "Needs {points} points in {games} games, or 10 more points for each game short.",
                req.games,
                points=req.points,
                games=req.games,
            ),
        ]
        if state.met is not None:
            lines.append(Msg("The sequence requirement is met."))
        else:
            lines.append(self._shortfall(tracker))
        if target.is_dan:
            wins = self.wins_against(player, target)
            lines.append(
                Msg(
                    "Wins against {rank} or stronger: {wins} of the {needed} needed "
                    "(at any time).",
                    rank=str(target),
                    wins=wins,
                    needed=target.step,
                )
            )
        flag = self._region_flag(state)
        if flag:
            lines.append(_review(tracker.total_foreign, sentence=True))
        return Progress(player, state.rank, target, tuple(lines))

    @staticmethod
    def _shortfall(tracker: SequenceTracker) -> str:
        req = tracker.requirement
        halves = tracker.total_halves
        short_halves = max(0, req.games * HALVES - halves)
        needed_q = req.points * QUARTERS + _MISSING_GAME_Q * short_halves
        missing = max(0, needed_q - tracker.total)
        return plural(
            "With {games} game this sequence needs {points} points: {missing} more "
            "(every further game lowers the bar by 10 until the minimum is reached).",
            "With {games} games this sequence needs {points} points: {missing} more "
            "(every further game lowers the bar by 10 until the minimum is reached).",
            _games_n(halves),
            games=_half_games(halves),
            points=_quarter_points(needed_q),
            missing=_quarter_points(missing),
        )

    def rating_scale(self) -> None:
        """None: promotion points are counted from games and cannot be set (rules.md §3)."""
        return None

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
            "trail": self._trail.snapshot(),
            "params": {
                "kyu_targets": params.kyu_targets,
                "kyu_points": params.kyu_points,
                "kyu_games": params.kyu_games,
                "komi_min": str(params.komi_min),
                "komi_max": str(params.komi_max),
            },
            "players": players,
        }


# _weigh's short reasons (rules.md §3.1) in a club member's words; the others (a board, a komi)
# are worded where they are given
_SWEDISH_REASONS: dict[str, str] = {
    "pair go": Msg("pair go games do not count for Swedish promotion points"),
    "handicap game": Msg(
        "a handicap game is not an even game: only even games count for Swedish promotion points"
    ),
    "base time under 30 minutes": Msg(
        "a base time under 30 minutes is too short for the Swedish upgrade rules (60 minutes "
        "count as a whole game, 30 as half)"
    ),
}

POINTS = Msg("points")
GAMES = Msg("games")
TARGET = Msg("target")
SEQUENCE_GAMES = Msg("sequence games")


def _points(value: int | Fraction) -> str:
    """The unit of ``value`` promotion points; a fraction (12.5) takes the form of 5 (English
    plural, Polish genitive)."""
    return unit(plural("point", "points", _count(value)))


def _games(value: int | Fraction) -> str:
    """The unit of ``value`` games (2.5 games: half games count, rules.md §3.1)."""
    return unit(plural("game", "games", _count(value)))


def _count(value: int | Fraction) -> int:
    value = Fraction(value)
    return int(value) if value.denominator == 1 else 5


def _review(games: int, *, sentence: bool = False) -> str:
    """The note for the committee (seed §2: more than three games against other regions)."""
    if sentence:
        return plural(
            "For the committee: {n} game of the sequence against players from other "
            "countries (more than 3 may be reviewed).",
            "For the committee: {n} games of the sequence against players from other "
            "countries (more than 3 may be reviewed).",
            games,
        )
    return plural(
        "for the committee: {n} game of the sequence against players from other countries "
        "(more than 3 may be reviewed)",
        "for the committee: {n} games of the sequence against players from other countries "
        "(more than 3 may be reviewed)",
        games,
    )


def _decimal(value: Fraction) -> Decimal:
    """A komi as a club writes it: 6.5, 7, -0.5 (halves and quarters are exact decimals);
    the bot writes it in the reader's language (engine.text.decimal)."""
    return decimal(value)


def _round_order(game: Game) -> int:
    return game.round if game.round is not None else 0


Swedish._HANDLERS = {
    Registered: Swedish._register,
    GamePlayed: Swedish._game_played,
    TournamentRated: Swedish._tournament,
    Override: Swedish._override,
    SettingsChanged: Swedish._settings,
}
Swedish.handles = frozenset(Swedish._HANDLERS)


def _quarter_points(quarters: int) -> Decimal:
    """Quarter-points for a text: 150 → 37.5, written in the reader's language (37,5)."""
    return decimal(Fraction(quarters, QUARTERS))


def _half_games(halves: int) -> Decimal:
    """Half-games for a text: 15 → 7.5, written in the reader's language (7,5)."""
    return decimal(Fraction(halves, HALVES))


def _games_n(halves: int) -> int:
    """The count that chooses a text's plural form for ``halves`` half-games: the whole
    games, or 2 for a half (``1.5 games``: not one game in any language's rule)."""
    whole, rest = divmod(halves, HALVES)
    return 2 if rest else whole
