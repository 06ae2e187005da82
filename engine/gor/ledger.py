"""The EGF GoR ledger: registrations, club games, tournaments (rules.md §6; §5 handicap advice).

Ratings are kept in integer thousandths of a GoR point (rules.md §6 Decision: at least three
decimals); the formula itself is :mod:`engine.gor.formula`.

**Decision (ours, on rules.md top "Calendar order" and §6 Tournaments): one day's facts are
rated from the ratings at the start of that day.** A tournament uses the ratings from before
it, and every club game of a day, like the games of a one-day tournament, uses the ratings
from the day's start; each fact's change (rounded to thousandths) is added to that start, and
the floor −900 applies to the sum. So the facts of one day give the same ratings whatever
order they were entered in (the calendar breaks ties of one day by log position), and a
player never gains from the floor by the order of a loss and a win. An override or an EGF
rating sets the rating: the day starts again from it for that player.
"""

from __future__ import annotations

import copy
import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any, ClassVar

from engine import ratings, settings
from engine.calendar import Phase
from engine.errors import RuleError
from engine.gor.formula import (
    CLASS_WEIGHTS,
    FLOOR,
    ONLINE_CLASS_TIMES,
    RANK_POINTS,
    SCORES,
    TOP,
    adjusted_minutes,
    class_of_time,
    game_change,
    initial_rating,
    rank_of,
    shown,
    to_milli,
    tournament_change,
)
from engine.gor.params import SETTINGS, GorParams
from engine.handicap import HANDICAP_KOMI, MAX_STONES
from engine.ranks import Rank, ladder
from engine.system import (
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
    RatingScale,
    Stakes,
    Weight,
    applied,
    default_activity,
    entry_rank,
    never_rated,
    refuse_unknown_players,
    stakes_by_trial,
)
from engine.text import Msg, Typed, decimal, game_mark, plural
from engine.types import (
    EgfRating,
    Entry,
    Event,
    Game,
    GamePlayed,
    Outcome,
    Override,
    PlayerId,
    Registered,
    Result,
    SettingsChanged,
    Tournament,
    TournamentRated,
)

RULEBOOK = Msg("the EGF rating system (GoR)")
GOR = Msg("GoR")
"""The rating's name on a card and its unit."""
CLASS_LABEL = Msg("Tournament class")
TITLE = Msg("professional title")
FULL_BOARD = 19  # rules.md §6 Decision: only 19×19 games are rated
FLOOR_MILLI = FLOOR * 1000
_FLOAT_WEIGHTS = {letter: float(weight) for letter, weight in CLASS_WEIGHTS.items()}
"""Each class's weight as the float a club game is rated with (made once, not once a game)."""
SCALE = (FLOOR, TOP - 100)  # a GoR a player can hold: the floor up to 3200 (β needs < 3300)
WEAKEST = Rank.kyu(30)
STRONGEST = Rank.dan(9)
TIME_EXAMPLE = "60m 3x30s japanese"


class _Standing:
    """One registered player's GoR in thousandths, and bookkeeping."""

    __slots__ = ("games", "last_played", "milli", "pro")

    def __init__(self, milli: int, pro: int = 0) -> None:
        self.milli = milli
        self.games = 0
        self.last_played: dt.date | None = None
        self.pro = pro  # a declared professional rank Np keeps N as the title (rules.md §6)


@dataclass(frozen=True, slots=True)
class GorClass:
    """A tournament's class as GoR counts it: the letter (``None`` below class C), its weight
    and how it was found (rules.md §6, Tournament class)."""

    letter: str | None
    weight: Fraction
    lines: tuple[str, ...]

    @property
    def rated(self) -> bool:
        return self.letter is not None


def tournament_class(tournament: Tournament) -> GorClass:
    """The class of ``tournament``: the one given (an h9 header's ``CL[…]``, the organiser's
    ``class=``) if any, else from its time
    control (rules.md §6, Tournament class; Decision: below class C not rated).

    Raises:
        RuleError: when neither a class nor a time control is known.
    """
    given = (tournament.klass or "").strip().upper()
    if given:
        if given not in CLASS_WEIGHTS:
            raise RuleError(
                Msg(
                    "tournament {tournament} has class {klass}; the EGF "
                    "classes are A, B, C and D (e.g. {example}, or {header} in an h9 header)",
                    tournament=Typed(tournament.name),
                    klass=Typed(tournament.klass),
                    example="class=B",
                    header="CL[B]",
                )
            )
        weight = CLASS_WEIGHTS[given]
        line = Msg(
            "class {klass} given for the tournament: every change × {weight}",
            klass=given,
            weight=_weight(weight),
        )
        return GorClass(given, weight, (line,))
    time = tournament.time
    if time is None:
        raise RuleError(
            Msg(
                "the time control of tournament {tournament} is not known, so its EGF "
                "class cannot be found: give one (e.g. {time}) or its class "
                "(e.g. {example}, or {header} in the h9 header)",
                tournament=Typed(tournament.name),
                time=TIME_EXAMPLE,
                example="class=B",
                header="CL[B]",
            )
        )
    letter = class_of_time(time)
    basis: str
    if time.unlimited:
        basis = Msg("no time limit")
    else:
        basis = Msg(
            "{time}: basic time {basic} min, adjusted time {adjusted} min (overtime for 45 "
            "moves of Japanese byo-yomi, 60 of Canadian, 120 of a Fischer increment)",
            time=str(time),
            basic=_minutes(time.base_minutes),
            adjusted=_minutes(adjusted_minutes(time)),
        )
    if letter is None:
        _, basic_d, adjusted_d = ONLINE_CLASS_TIMES
        return GorClass(
            None,
            Fraction(0),
            (
                basis,
                Msg(
                    "below class C (basic time at least 25 min and adjusted time at least "
                    "30 min): not rated under the EGF GoR"
                ),
                Msg(
                    "an online tournament of at least {basic}/{adjusted} min is class D: "
                    "give its class ({example}, or {header} in an h9 header)",
                    basic=basic_d,
                    adjusted=adjusted_d,
                    example="class=D",
                    header="CL[D]",
                ),
            ),
        )
    weight = CLASS_WEIGHTS[letter]
    line = Msg(
        "class {klass} from the time control: every change × {weight}",
        klass=letter,
        weight=_weight(weight),
    )
    return GorClass(letter, weight, (basis, line))


# The version of this rulebook's results, bumped by hand whenever a change makes any of its
# ratings, ranks, cards, history rows or refusals differ (a snapshot of a club's ledgers is kept
# only under the RULES_VERSION it was made with: storage.snapshots.system_version; and
# tests/engine/test_rules_versions.py fails when the results move without a bump). A docstring,
# a comment or a refactor that keeps every result leaves it alone.
RULES_VERSION = 1


class Gor:
    """The EGF GoR (2021 recalculation) as a ledger (rules.md §6; the RatingSystem protocol)."""

    key = "gor"
    rules_version = RULES_VERSION
    """This rulebook's :data:`RULES_VERSION` (what a snapshot of the ledger is kept under)."""
    language = "en"
    """English, the EGF rating system's: a club's default language (issue 13)."""
    activity = default_activity()
    """The rulebook sets no activity rule: hoshi's 12 months, said as such (issue 14)."""
    scheduled: frozenset[Phase] = frozenset()  # GoR has no scheduled moments
    file_rating_titles: tuple[str, ...] = ("GoR",)
    """rules.md §6: an h9's GoR column (as the EGD writes it, to 3 decimals) starts a new
    player of the file."""

    handles: frozenset[type[Event]]
    """Registrations, games, tournaments, overrides, EGF ratings and settings (the keys of
    the dispatch table below); period, day and month ends, teacher actions and
    verification suspensions belong to other rulebooks and are no-ops."""

    _HANDLERS: ClassVar[dict[type, Callable[[Gor, Any], list[Change]]]]

    def __init__(self, params: GorParams | None = None) -> None:
        self._trail = RankTrail()  # each player's rank through the calendar
        self.params = params if params is not None else GorParams()
        self._players: dict[PlayerId, _Standing] = {}
        # the Decision of the module docstring: the day being rated, each touched player's
        # rating at its start and the sum of the day's changes (thousandths)
        self._day: dt.date | None = None
        self._day_base: dict[PlayerId, int] = {}
        self._day_sum: dict[PlayerId, int] = {}

    # ------------------------------------------------------------ events

    def apply(self, event: Event) -> Applied:
        """Fold one event in (rules.md §6); raises and changes nothing on error. It touches
        the players it names and those it changed: a GoR moves only with a player's own
        facts (a setting changes no card: later facts see it)."""
        handler = self._HANDLERS.get(type(event))
        if handler is None:
            return Applied([], NOBODY)
        changes: list[Change] = handler(self, event)
        self._trail.note(changes)
        return applied(event, changes)

    def due(self, today: dt.date) -> list[Event]:
        """Nothing is ever due: GoR has no scheduled moments (rules.md §6: a game is rated
        when it is entered)."""
        return []

    def _registered(self, event: Registered) -> list[Change]:
        """A new player: the given GoR (kept to the thousandth), else the declared rank's
        (rules.md §6, New players; professionals: 1p = 2700, 30 more a rank)."""
        if event.player in self._players:
            raise RuleError(Msg("player {player} is already registered", player=event.player))
        note: str
        if event.rating is not None:
            milli = self._checked_milli(event.rating)
            note = Msg("GoR given at registration")
        elif event.pro:
            if not 1 <= event.pro <= 9:
                raise RuleError(
                    Msg("professional ranks run from 1p to 9p, not {rank}", rank=f"{event.pro}p")
                )
            milli = initial_rating(event.rank, event.pro) * 1000
            note = Msg(
                "GoR of the declared rank {rank} (1p = 2700, 30 a professional rank)",
                rank=f"{event.pro}p",
            )
        else:
            milli = initial_rating(event.rank) * 1000
            note = Msg(
                "GoR of the declared rank {rank} (1d = 2100, 100 a rank)", rank=str(event.rank)
            )
        self._players[event.player] = _Standing(milli, event.pro)
        rank = rank_of(milli)
        return [
            Change(event.player, event.date, "registration", None, shown(milli), rank, rank, note)
        ]

    def _game_played(self, event: GamePlayed) -> list[Change]:
        """A single club game, rated at once with the club's class (rules.md §6 Decision:
        class C unless the club sets another), from the ratings at the day's start."""
        game = event.game
        for player in (game.black, game.white):
            if player not in self._players:
                raise RuleError(
                    Msg(
                        "player {player} of game {game} is not registered; register them first",
                        player=player,
                        game=game_mark(game.id),
                    )
                )
        if self.uncounted(game) is not None:
            return []
        self._enter_day(game.date)
        letter = self.params.club_class
        weight = _FLOAT_WEIGHTS[letter]
        black, white = game.black, game.white
        start = {p: self._start(p) for p in (black, white)}
        deltas: dict[PlayerId, int] = {}
        for player in (black, white):
            score = SCORES[game.outcome_for(player)]
            change = game_change(
                start[player] / 1000,
                start[game.opponent(player)] / 1000,
                score,
                game.stones_for(player),
            )
            deltas[player] = to_milli(weight * change)
        note = _club_note(letter)
        return self._commit(
            deltas,
            {black: 1, white: 1},
            game.date,
            f"game:{game.id}",
            note,
            {
                black: game.date,
                white: game.date,
            },
        )

    def _tournament_rated(self, event: TournamentRated) -> list[Change]:
        """Rate a finalised tournament: every game from the ratings before it, each player's
        changes summed and weighted by the class (rules.md §6, Tournaments)."""
        tournament = event.tournament
        entries = {e.player: e for e in event.entries}
        games: list[Game] = []
        for game in event.games:
            if _not_rated(game) is not None:
                # rules.md §6 Decision: unplayed games, byes and other boards are not rated;
                # the class is the tournament's, whatever the games' own clocks say
                continue
            refuse_unknown_players(game, tournament, entries, self._players)
            for player in (game.black, game.white):
                entry = entries.get(player)
                if (entry is None or entry.registered) and player not in self._players:
                    raise RuleError(
                        Msg(
                            "player {player} of tournament {tournament} is entered as a "
                            "club player but is not registered; register them first",
                            player=player,
                            tournament=Typed(tournament.name),
                        )
                    )
            games.append(game)
        if not games:
            return []
        klass = tournament_class(tournament)
        if not klass.rated:
            return []  # rules.md §6 Decision: below class C a tournament is not rated
        self._enter_day(tournament.end)
        start: dict[PlayerId, float] = {}
        guests: set[PlayerId] = set()
        for game in games:
            for player in (game.black, game.white):
                entry = entries.get(player)
                if entry is not None and not entry.registered:
                    # a guest plays at their declared rank's GoR and is not stored
                    start[player] = float(
                        initial_rating(entry_rank(entry, self._trail, tournament), entry.pro)
                    )
                    guests.add(player)
                else:
                    start[player] = self._start(player) / 1000
        played: defaultdict[PlayerId, list[tuple[float, float, int]]] = defaultdict(list)
        last: dict[PlayerId, dt.date] = {}
        win, jigo, loss = SCORES[Outcome.WIN], SCORES[Outcome.JIGO], SCORES[Outcome.LOSS]
        for game in games:  # Game.outcome_for and stones_for, inlined (every game is rated)
            black, white, stones, date = game.black, game.white, game.stones, game.date
            result = game.result
            if result is Result.JIGO:
                scores = (jigo, jigo)
            else:
                scores = (win, loss) if result is Result.BLACK else (loss, win)
            for player, opponent, score, received in (
                (black, white, scores[0], stones),
                (white, black, scores[1], -stones),
            ):
                if player in guests:
                    continue
                played[player].append((start[opponent], score, received))
                if player not in last or last[player] < date:
                    last[player] = date
        weight = float(klass.weight)
        deltas = {
            p: to_milli(tournament_change(start[p], mine, weight)) for p, mine in played.items()
        }
        counts = {p: len(mine) for p, mine in played.items()}
        note = Msg("class {klass} (× {weight})", klass=klass.letter, weight=_weight(klass.weight))
        return self._commit(
            deltas, counts, tournament.end, f"tournament:{tournament.id}", note, last
        )

    def _override(self, event: Override) -> list[Change]:
        """A committee sets a player's GoR, or their rank — the rank's starting GoR, since
        under GoR the rank follows the rating (rules.md §6, New players)."""
        standing = self._standing_or_error(event.player)
        if event.rating is None and event.rank is None:
            raise RuleError(
                Msg("an override needs rating=N or rank=R, e.g. {example}", example="rating=2150")
            )
        if event.rating is not None:
            milli = self._checked_milli(event.rating)
            if event.rank is not None and event.rank != rank_of(milli):
                raise RuleError(
                    Msg(
                        "under the EGF GoR the rank follows the rating: GoR {rating} is "
                        "{rank}, not {given}; give the rating alone, e.g. {example} for {given}",
                        rating=_decimals(milli) if milli % 1000 else milli // 1000,
                        rank=str(rank_of(milli)),
                        given=str(event.rank),
                        example=f"rating={initial_rating(event.rank)}",
                    )
                )
        else:
            assert event.rank is not None
            milli = initial_rating(event.rank) * 1000
        return [self._set(event.player, standing, milli, event.date, "override", event.reason)]

    def _egf_rating(self, event: EgfRating) -> list[Change]:
        """An EGF rating from the European Go Database sets the player's GoR: it is the same
        rating, kept by its owner (ours: the EGD's value supersedes the club's copy)."""
        standing = self._standing_or_error(event.player)
        milli = self._checked_milli(event.rating)
        date = dt.date(event.year, event.month, 1)
        source = f"egf:{event.year:04d}-{event.month:02d}"
        note = Msg("GoR from the European Go Database")
        return [self._set(event.player, standing, milli, date, source, note)]

    def _settings_changed(self, event: SettingsChanged) -> list[Change]:
        """The club's ``gor.`` settings from ``event.date`` on (``SETTINGS``); other systems'
        keys are ignored. Nothing is rated again here: later facts see the new values."""
        self.params = settings.params_with(self.params, SETTINGS, event.values)
        return []

    # ------------------------------------------------------------ the day's ratings

    def _enter_day(self, date: dt.date) -> None:
        """Start a new day of rated facts (the module docstring's Decision)."""
        if date != self._day:
            self._day = date
            self._day_base = {}
            self._day_sum = {}

    def _start(self, player: PlayerId) -> int:
        """The player's GoR at the start of the day being rated (thousandths)."""
        base = self._day_base.get(player)
        return self._players[player].milli if base is None else base

    def _commit(
        self,
        deltas: dict[PlayerId, int],
        counts: dict[PlayerId, int],
        date: dt.date,
        source: str,
        note: str,
        last: dict[PlayerId, dt.date],
    ) -> list[Change]:
        """Add each player's change to the day's sum; the rating is the day's start plus the
        sum, never below −900 (rules.md §6). One Change per registered player."""
        changes: list[Change] = []
        for player in sorted(deltas):
            standing = self._players[player]
            before = standing.milli
            base = self._day_base.setdefault(player, before)
            total = self._day_sum.get(player, 0) + deltas[player]
            self._day_sum[player] = total
            standing.milli = max(FLOOR_MILLI, base + total)
            standing.games += counts[player]
            if standing.last_played is None or standing.last_played < last[player]:
                standing.last_played = last[player]
            games = counts[player]
            text = _games_note(note, games)
            changes.append(
                Change(
                    player,
                    date,
                    source,
                    shown(before),
                    shown(standing.milli),
                    rank_of(before),
                    rank_of(standing.milli),
                    text,
                )
            )
        return changes

    def _set(
        self,
        player: PlayerId,
        standing: _Standing,
        milli: int,
        date: dt.date,
        source: str,
        note: str,
    ) -> Change:
        """Set a player's GoR (override, EGF rating); the day starts again from it."""
        before = standing.milli
        standing.milli = milli
        self._enter_day(date)
        self._day_base[player] = milli
        self._day_sum[player] = 0
        return Change(
            player,
            date,
            source,
            shown(before),
            shown(milli),
            rank_of(before),
            rank_of(milli),
            note,
        )

    def _checked_milli(self, rating: ratings.Rating) -> int:
        """A GoR given from outside in thousandths, exactly (rules.md §6 Decision: up to 3
        decimals kept, more refused), within the scale."""
        milli = ratings.to_milli(rating)
        if rating not in self.rating_scale():
            low, high = SCALE
            raise RuleError(
                Msg(
                    "a GoR runs from {low} to {high}, not {rating} (e.g. 2100 for a 1d)",
                    low=low,
                    high=high,
                    rating=ratings.decimal_text(rating),
                )
            )
        return milli

    # ------------------------------------------------------------ queries

    def players(self) -> Iterable[PlayerId]:
        """Every registered player (tournament guests are never stored)."""
        return list(self._players)

    def gor(self, player: PlayerId) -> Fraction:
        """The player's GoR, exact to the thousandth (raises ``KeyError`` if unknown)."""
        return _value(self._standing(player).milli)

    def rank(self, player: PlayerId) -> Rank:
        """The rank of the player's GoR rounded down to the 100s (rules.md §6)."""
        return rank_of(self._standing(player).milli)

    def card(self, player: PlayerId) -> Card:
        """The GoR shown in whole points (half up), its rank, the games rated; the value
        ``gor`` keeps it to three decimals for exports (rules.md §6 Decision: kept to at least
        3 decimals, shown rounded to whole points).

        ``gor`` is decimal text ("2109.306"), as exports write an exact value: three decimals
        always, where a fraction would be cut to two."""
        standing = self._standing(player)
        values: tuple[Measure, ...] = (Measure("gor", GOR, _decimals(standing.milli), GOR),)
        if standing.pro:
            # rules.md §6 Decision: the rank shown is the rating's amateur one; a professional
            # keeps the declared Np as their title
            values = (*values, Measure("title", TITLE, f"{standing.pro}p"))
        return Card(
            player=player,
            rank=rank_of(standing.milli),
            rating=shown(standing.milli),
            rating_label=GOR,
            sort_key=(standing.milli,),
            games=standing.games,
            last_played=standing.last_played,
            values=values,
        )

    def open_period(self) -> Sequence[Game]:
        """Nothing is held: every GoR game is rated when it is entered."""
        return ()

    def period_weight(self) -> Weight | None:
        """None: a club game is rated at once (rules.md §6), nothing is held."""
        return None

    def trial_copy(self, game: Game) -> Gor:
        """A copy ``game`` may be folded into for :meth:`stakes` (engine.system.trial),
        costing two players and the day, not the club: a club game moves only its two
        players' standings and rank steps, within the day being rated (the day's starts and
        sums, rules.md §6 Decision), so every other player is shared."""
        other = copy.copy(self)
        other._players = dict(self._players)
        for player in (game.black, game.white):
            if player in self._players:
                other._players[player] = copy.copy(self._players[player])
        other._day_base = dict(self._day_base)
        other._day_sum = dict(self._day_sum)
        other._trail = self._trail.trial_copy((game.black, game.white))
        return other

    def stakes(self, game: Game) -> Stakes:
        """Each player's GoR change by ``game``, if Black wins and if White wins (rules.md §6:
        the EGF formula with the game's stones and komi), as the rating shown moves: whole
        points (§6 Decision: replies show whole points). Changes nothing."""
        return stakes_by_trial(
            self,
            game,
            lambda ledger, player: Fraction(shown(ledger._standing(player).milli)),
            GOR,
        )

    def uncounted(self, game: Game) -> str | None:
        """Why ``game`` will not be rated under the EGF GoR, in a club member's words
        (rules.md §6 Decision: unplayed games, byes and other boards than 19×19). ``None``
        when it counts."""
        # a club game takes the club's class; a tournament game its tournament's, which the
        # game cannot see (a 20-minute game of a class-D tournament counts): the tournament
        # says whether it is rated (tournament_weight), never the game's own clock
        return _not_rated(game)

    def rank_on(self, player: PlayerId, day: dt.date) -> Rank:
        """The player's rank at the start of ``day`` (engine.system.RankTrail); ``KeyError``
        for a player this ledger never knew."""
        found = self._trail.on(player, day)
        return found if found is not None else self.card(player).rank

    def handicap(self, a: PlayerId, b: PlayerId, *, reduction: int = 0) -> HandicapAdvice:
        """Stones = the GoR difference ÷ 100 rounded down, less ``reduction``, capped at 9;
        komi as for the rank systems: none with one stone, 0.5 with more, the club's even
        komi in an even game (rules.md §6 Handicap advice; §5)."""
        if reduction < 0:
            raise ValueError(f"a handicap reduction cannot be negative, not {reduction}")
        milli_a, milli_b = self._standing(a).milli, self._standing(b).milli
        black, white = (a, b) if milli_a <= milli_b else (b, a)
        difference = abs(milli_a - milli_b) // (RANK_POINTS * 1000)
        stones = min(MAX_STONES, max(0, difference - reduction))
        notes = [_difference(milli_a, milli_b)]
        if difference - reduction > MAX_STONES:
            notes.append(
                Msg("{stones} stones are capped at {most}", stones=difference, most=MAX_STONES)
            )
        if reduction:
            notes.append(Msg("handicap reduced by {reduction}", reduction=reduction))
        if stones == 0:
            if milli_a == milli_b:
                notes.append(Msg("equal ratings: choose colours by nigiri"))
            return HandicapAdvice(black, white, 0, self.params.even_komi, tuple(notes))
        komi = Fraction(0) if stones == 1 else HANDICAP_KOMI
        return HandicapAdvice(black, white, stones, komi, tuple(notes))

    def promotion(self, player: PlayerId) -> Progress:
        """Points to the next 100 boundary, where the rank shown goes up (rules.md §6)."""
        milli = self._standing(player).milli
        rank = rank_of(milli)
        if rank >= STRONGEST:
            line = Msg(
                "{rank}: the strongest rank on the ladder (GoR {rating})",
                rank=str(rank),
                rating=shown(milli),
            )
            return Progress(player, rank, None, (line,))
        target = rank + 1
        bound = initial_rating(target)
        # whole points, rounded up: 95.347 to go needs 96 (95 are not enough)
        to_go = -(-(bound * 1000 - milli) // 1000)
        now: str = str(shown(milli))
        if shown(milli) >= bound:  # 2099.6 is shown as 2100 but is still 1k
            now = Msg("{exact}, shown as {shown}", exact=_decimals(milli), shown=now)
        lines = (
            plural(
                "{n} GoR point to {target} (GoR {bound}; now {now})",
                "{n} GoR points to {target} (GoR {bound}; now {now})",
                to_go,
                target=str(target),
                bound=bound,
                now=now,
            ),
            Msg(
                "under the EGF GoR the rank is the rating's, rounded down to the 100s: it moves "
                "with every rated game, up and down"
            ),
        )
        return Progress(player, rank, target, lines)

    def rating_scale(self) -> RatingScale:
        """A GoR a player can hold: from the floor −900 to 3200 (rules.md §6; the top is ours,
        below 3300 where the formula ends)."""
        return RatingScale(Msg("EGF GoR"), *SCALE)

    def rank_bands(self) -> tuple[Band, ...]:
        """100 points a rank, 30k from −900 up to 9d from 2900 (rules.md §6)."""
        bands: list[Band] = []
        for rank in ladder(WEAKEST, STRONGEST):
            low = initial_rating(rank)
            high = SCALE[1] if rank == STRONGEST else low + RANK_POINTS
            bands.append(Band(float(low), float(high), rank))
        return tuple(bands)

    def tournament_weight(self, tournament: Tournament) -> Weight:
        """The tournament's EGF class and weight (rules.md §6, Tournament class).

        Raises:
            RuleError: neither a class nor a time control is known.
        """
        klass = tournament_class(tournament)
        lines = klass.lines
        if tournament.board != FULL_BOARD:
            lines = (
                *lines,
                Msg("{size}×{size}: only 19×19 is rated", size=tournament.board),
            )
            return Weight(CLASS_LABEL, klass.letter, False, lines)
        return Weight(CLASS_LABEL, klass.letter, klass.rated, lines)

    def time_weight(self, tournament: Tournament) -> Weight:
        """The class the tournament's time control gives (rules.md §6, Tournament class):
        the EGF weighs tournaments, not single games."""
        return self.tournament_weight(tournament)

    def entry_notes(self, tournament: Tournament, entries: Sequence[Entry]) -> list[str]:
        """Nothing: the EGF GoR rates club players at their rating, whatever rank they
        entered with."""
        return []

    def initial_rank_limit(self) -> RankLimit | None:
        """None: any declared rank starts at its own GoR (rules.md §6, New players)."""
        return None

    def announcement(self, phase: Phase, label: str, changes: Sequence[Change]) -> Notice | None:
        """Nothing to announce: GoR has no scheduled moments."""
        return None

    def snapshot(self) -> dict[str, Any]:
        """The whole state as canonical JSON-able data (thousandths)."""
        players = {
            str(player): {
                "gor_milli": s.milli,
                "pro": s.pro,
                "games": s.games,
                "last_played": s.last_played.isoformat() if s.last_played else None,
            }
            for player, s in sorted(self._players.items())
        }
        return {
            "system": self.key,
            "trail": self._trail.snapshot(),
            "players": players,
            "params": {
                "club_class": self.params.club_class,
                "even_komi": str(self.params.even_komi),
            },
            "day": self._day.isoformat() if self._day else None,
            "day_base": {str(p): m for p, m in sorted(self._day_base.items())},
            "day_sum": {str(p): m for p, m in sorted(self._day_sum.items())},
        }

    def _standing(self, player: PlayerId) -> _Standing:
        try:
            return self._players[player]
        except KeyError:
            raise KeyError(f"player {player} is not registered under the EGF GoR") from None

    def _standing_or_error(self, player: PlayerId) -> _Standing:
        standing = self._players.get(player)
        if standing is None:
            raise RuleError(Msg("player {player} is not registered", player=player))
        return standing


Gor._HANDLERS = {
    Registered: Gor._registered,
    GamePlayed: Gor._game_played,
    TournamentRated: Gor._tournament_rated,
    Override: Gor._override,
    EgfRating: Gor._egf_rating,
    SettingsChanged: Gor._settings_changed,
}
Gor.handles = frozenset(Gor._HANDLERS)


def _not_rated(game: Game) -> str | None:
    """Why GoR never rates ``game``, whatever its class: unplayed, no result, pair go, not
    19×19 (rules.md common vocabulary; §6 Decision). ``None`` for a game that may count."""
    common = never_rated(game)
    if common is not None:
        return common
    if game.pair_go:
        return Msg(
            "pair go is not rated under {rulebook} (games between two players only)",
            rulebook=RULEBOOK,
        )
    if game.board != FULL_BOARD:
        return Msg(
            "{size}×{size} games are not rated under {rulebook} (19×19 only)",
            size=game.board,
            rulebook=RULEBOOK,
        )
    return None


@cache
def _club_note(letter: str) -> Msg:
    """A club game's history note (one per class: the replay's hot path makes no new text)."""
    return Msg(
        "club game, class {klass} (× {weight})",
        klass=letter,
        weight=_weight(CLASS_WEIGHTS[letter]),
    )


@lru_cache(maxsize=256)
def _games_note(note: str, games: int) -> Msg:
    """An event's note with the games a player played in it (kept: notes repeat)."""
    return plural("{note}, {n} game", "{note}, {n} games", games, note=note)


def _value(milli: int) -> Fraction:
    """Thousandths as an exact GoR value."""
    return Fraction(milli, 1000)


def _difference(milli_a: int, milli_b: int) -> str:
    """The GoR difference that gives the stones, in numbers a member can check: the shown
    ratings' difference when its hundreds are the kept difference's, else the kept ratings
    to three decimals (rules.md §6: stones = the difference ÷ 100 rounded down)."""
    high, low = max(milli_a, milli_b), min(milli_a, milli_b)
    kept = high - low
    seen = shown(high) - shown(low)
    if seen // RANK_POINTS == kept // (RANK_POINTS * 1000):
        return Msg(
            "GoR difference {difference} ({high} − {low})",
            difference=seen,
            high=shown(high),
            low=shown(low),
        )
    return Msg(
        "GoR difference {difference} ({high} − {low}, shown {shown_high} − {shown_low})",
        difference=_decimals(kept),
        high=_decimals(high),
        low=_decimals(low),
        shown_high=shown(high),
        shown_low=shown(low),
    )


def _decimals(milli: int) -> str:
    """Thousandths as a GoR with exactly three decimals: 2109.306, 2100.000, -5.250 (rules.md
    §6 Decision: kept to at least 3 decimals)."""
    sign = "-" if milli < 0 else ""
    whole, part = divmod(abs(milli), 1000)
    return f"{sign}{whole}.{part:03d}"


def _weight(weight: Fraction) -> Decimal:
    """A class weight as texts show it: ``1.00``, ``0.75`` (the bot: ``1,00`` in Polish)."""
    return decimal(weight, 2)


def _minutes(minutes: Fraction) -> Decimal:
    """Minutes as texts show them: ``60``, ``82.5``."""
    return decimal(minutes, 0 if minutes.denominator == 1 else 1)
