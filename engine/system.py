"""The one small interface behind which each rulebook lives (STYLE.md; goratings' RatingSystem).

A system is a mutable ledger built from explicit parameters. ``apply`` folds one event of a
club's history into it and returns the rating changes the event caused (history rows with
before/after values) and the players whose cards it touched (:class:`Applied`); ``apply``
validates first and changes nothing when it raises. A system declares the event types it
handles (``handles``): any other is a no-op a fold may skip. ``due`` names the scheduled
moments (day, month, period ends) a rulebook has due. Queries never change the ledger.
"""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from operator import attrgetter
from typing import Any, NamedTuple, Protocol

from engine.calendar import Phase, add_months
from engine.errors import RuleError
from engine.ranks import Rank
from engine.text import Msg, Typed, game_mark, marked_id, plural
from engine.types import (
    EgfRating,
    Entry,
    Event,
    Game,
    GamePlayed,
    Override,
    PlayerId,
    Registered,
    Result,
    TeacherAction,
    Tournament,
    TournamentRated,
    VerificationSuspended,
)

Value = int | Fraction | str | None


class Change(NamedTuple):
    """One player's rating or rank moved by one event (a row of ``/history``).

    ``source`` names what caused it: ``game:ID``, ``tournament:ID``, ``override``,
    ``day:YYYY-MM-DD``, ``month:YYYY-MM``, ``registration`` …

    Immutable like every record here, but a named tuple rather than a frozen dataclass: a
    replay of a federation makes millions of them, and a named tuple is built in a third of
    the time (each field of a frozen dataclass is set through ``object.__setattr__``).
    """

    player: PlayerId
    date: dt.date
    source: str
    rating_before: Value
    rating_after: Value
    rank_before: Rank
    rank_after: Rank
    note: str = ""


class Applied(NamedTuple):
    """What folding one event did (:meth:`RatingSystem.apply`): its ``changes`` (history
    rows), and the players whose :meth:`RatingSystem.card` it may have changed.

    ``touched`` holds every player whose card differs after the event — those of the
    changes, those the event names, and those it changed without a change of theirs (time
    moved on: PSG activity, rules.md §4.3; an MGSZ club period's "if it ended now", §1.4) —
    and maybe a few more; ``None`` only for a fact that may change every card (a setting
    that moves every rank equivalent). An event the system does not handle touches nobody.
    """

    changes: list[Change]
    touched: frozenset[PlayerId] | None  # None: every card may have changed


NOBODY: frozenset[PlayerId] = frozenset()
"""No player: what an event a system does not handle touches (:attr:`Applied.touched`)."""


_BLACK = attrgetter("black")
_WHITE = attrgetter("white")
_PLAYER = attrgetter("player")


def named(event: Event) -> tuple[PlayerId, ...]:
    """The players ``event`` names: a game's two, a tournament's entries and players, the
    player of a registration, override, EGF rating, teacher action or suspension; none for
    a club-wide fact (a day, month or period end, a setting)."""
    if isinstance(event, GamePlayed):
        return (event.game.black, event.game.white)
    if isinstance(
        event, Registered | Override | EgfRating | TeacherAction | VerificationSuspended
    ):
        return (event.player,)
    if isinstance(event, TournamentRated):
        players = [entry.player for entry in event.entries]
        for game in event.games:
            players.append(game.black)
            players.append(game.white)
        return tuple(players)
    return ()


def touched_by(
    event: Event, changes: Iterable[Change], *others: Iterable[PlayerId]
) -> frozenset[PlayerId]:
    """The players ``event`` touched under a system whose cards follow only its changes and
    the players it names (:func:`named`), and ``others`` (players it changed otherwise)."""
    players: set[PlayerId]
    if isinstance(event, TournamentRated):  # named(event), its players read in C loops
        players = {entry.player for entry in event.entries}
        players.update(map(_BLACK, event.games))
        players.update(map(_WHITE, event.games))
    else:
        players = set(named(event))
    players.update(map(_PLAYER, changes))
    for more in others:
        players.update(more)
    return frozenset(players)


def applied(event: Event, changes: list[Change], *others: Iterable[PlayerId]) -> Applied:
    """``changes`` with the players ``event`` touched (:func:`touched_by`)."""
    return Applied(changes, touched_by(event, changes, *others))


@dataclass(frozen=True, slots=True)
class Measure:
    """One typed value of a card: a number (or word) with its unit, apart from its label.

    ``key`` is the value's stable name in exports (formats.md, Ratings export: ``elo``,
    ``points``, ``psg_min_result`` …; a dot nests: ``swedish_sequences.target``); ``label``
    is how a club member calls it (``min-games result``); ``unit`` what it counts
    (``Elo``, ``points``, ``games``; empty for a rank or a word). Exports and the web read
    ``value``; only chat replies format it.
    """

    key: str
    label: str
    value: Value
    unit: str = ""


@dataclass(frozen=True, slots=True)
class Pending:
    """A change a player has earned that is not settled yet (``/rating``'s "pending").

    ``amount`` in ``unit`` (Tensuusei: +3 ``points`` until the day ends; MGSZ: 4 ``games``
    held for the club period); ``settles`` the scheduled moment that settles it
    (engine.calendar.Phase: ``DAY_END``, ``PERIOD_END``).
    """

    amount: Value
    unit: str
    settles: Phase


@dataclass(frozen=True, slots=True)
class RankLimit:
    """The strongest rank a new player may be given without a starting rating, and the
    rule that sets it in a club member's words (who decides above it)."""

    rank: Rank
    rule: str


@dataclass(frozen=True, slots=True)
class Activity:
    """Who counts as active under a system (the ranking list shows active players by default).

    A player is active while ``today`` is before the later of their last rated game and their
    registration plus ``months`` calendar months (:func:`engine.calendar.add_months`): exactly
    ``months`` later they are inactive. A player with no rated game is not active: the rule is
    "a rated game in the last months" (PSG regulations §3(5): "a ranked game in the last 13
    months"). ``rule`` says it in a club member's words, naming the rulebook's own paragraph
    (PSG regulations §3(5)) or saying that the rulebook sets none.
    """

    months: int
    rule: str

    def active(self, last_played: dt.date | None, registered: dt.date, today: dt.date) -> bool:
        """Whether a player last playing on ``last_played`` (``None``: never, so not active),
        registered on ``registered``, is active on ``today``."""
        if last_played is None:
            return False
        return today < add_months(max(last_played, registered), self.months)


def default_activity(months: int = 12) -> Activity:
    """hoshi's activity rule for a rulebook that sets none (MGSZ, Tensuusei, Swedish, GoR):
    a rated game in the last ``months`` months, saying honestly that it is hoshi's."""
    return Activity(
        months,
        plural(
            "a rated game in the last {months} month "
            "(hoshi's default: the rulebook sets no activity rule)",
            "a rated game in the last {months} months "
            "(hoshi's default: the rulebook sets no activity rule)",
            months,
            months=months,
        ),
    )


class Band(NamedTuple):
    """A rank's span of the rating scale, ``[low, high)``, shaded behind a chart's line."""

    low: float
    high: float
    rank: Rank


@dataclass(frozen=True, slots=True)
class Notice:
    """What the club is told when a scheduled moment passes (a day settled, a month's
    verification, a period rated): a title and lines in a club member's words, players and
    games marked ``{player:ID}`` / ``{game:ID}`` for the bot to name."""

    title: str
    lines: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Weight:
    """How much a system counts one tournament (``/multiplier``, ``/tournament show``,
    imports): MGSZ's multiplier C, GoR's class. ``rated`` is false when the tournament is
    not rated at all (C = 0, GoR below class C); ``lines`` explain how it was found.
    ``set_by_hand`` is true when an organiser may set the value by hand as the tournament's
    ``multiplier`` (MGSZ's C); a value found otherwise (GoR's class) is false."""

    label: str  # e.g. "Multiplier C", "Tournament class"
    value: Value  # e.g. 1.20 as Fraction, "B"
    rated: bool
    lines: tuple[str, ...] = ()
    set_by_hand: bool = False


@dataclass(frozen=True, slots=True)
class Card:
    """What ``/rating`` shows of one player under one system.

    ``rating`` is the system's headline value (Elo, points, PSG result, Swedish total);
    ``sort_key`` orders the ranking list (higher first); ``values`` are the card's typed
    values in display order (the headline too, under its export key); ``pending`` a change
    not yet settled (Tensuusei day, MGSZ period).
    """

    player: PlayerId
    rank: Rank
    rating: Value
    rating_label: str
    sort_key: tuple[Any, ...]
    games: int
    last_played: dt.date | None = None
    pending: Pending | None = None
    values: tuple[Measure, ...] = ()


@dataclass(frozen=True, slots=True)
class HandicapAdvice:
    """Who takes black, stones and komi (rules.md §2.1, §5). Komi > 0 goes to white.

    ``own_komi``: the komi of an even game is the system's own (Tensuusei's points table,
    §2.1), not the club's even-game komi (``/club komi``), which the bot puts in otherwise.
    """

    black: PlayerId
    white: PlayerId
    stones: int
    komi: Fraction
    notes: tuple[str, ...] = ()
    own_komi: bool = False


@dataclass(frozen=True, slots=True)
class Progress:
    """Progress toward the next rank (``/promotion``): a target, where the player stands, notes."""

    player: PlayerId
    rank: Rank
    target: Rank | None
    lines: tuple[str, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class RatingScale:
    """The values a player's rating can plausibly take under one system, inclusive.

    A starting rating given from outside (``hoshi rate --ratings``, a CSV import) outside the
    scale is a mistake in the table (an Elo of 5, Tensuusei points of 2100), not a player.
    """

    name: str  # what the value is, e.g. "MGSZ Elo", "Tensuusei points"
    low: int
    high: int

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int | Fraction) and self.low <= value <= self.high

    def __str__(self) -> str:
        return Msg("{name} scale ({low} to {high})", name=self.name, low=self.low, high=self.high)


@dataclass(frozen=True, slots=True)
class Stake:
    """What one player gains or loses by one outcome of a game not played yet (``/handicap``,
    a published pairing): ``change`` exact, counted in ``unit`` (Elo, points, promotion
    points …); ``None`` when there is no number to give (not counted, a promotion that
    starts a new target), ``note`` saying why or when it is settled."""

    player: PlayerId
    change: int | Fraction | None
    unit: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Stakes:
    """What is at stake in a game (:meth:`RatingSystem.stakes`): each player's
    :class:`Stake` if Black wins and if White wins, Black's first; ``uncounted`` why the
    game would not count at all (:meth:`RatingSystem.uncounted`), else ``None``."""

    black_wins: tuple[Stake, Stake]
    white_wins: tuple[Stake, Stake]
    uncounted: str | None = None


def trial(ledger: Any, game: Game) -> Any:
    """A copy of ``ledger`` that ``game`` may be applied to, leaving ``ledger`` as it is.

    A ledger that knows what a club game can change gives its own copy (``trial_copy``:
    MGSZ, whose club game only joins the open period, copies the period and shares every
    player; GoR, whose club game moves its two players within the day, copies those two and
    the day). Otherwise the copy is whole: a game may settle more than its two players (a
    Tensuusei day it ends settles everyone who played that day), so no player's standing or
    rank steps are shared. Games are values and are shared (``Game.__deepcopy__``)."""
    own = getattr(ledger, "trial_copy", None)
    return own(game) if own is not None else copy.deepcopy(ledger)


Number = int | Fraction


def stakes_by_trial(
    ledger: Any,
    game: Game,
    after: Callable[[Any, PlayerId], Number | None],
    unit: str,
    note: str = "",
    before: Callable[[Any, PlayerId], Number | None] | None = None,
) -> Stakes:
    """What is at stake in ``game`` (:meth:`RatingSystem.stakes`) as folding it would give:
    each outcome applied to a :func:`trial` copy, each player's ``after(copy, player)`` less
    ``before(ledger, player)`` (``after`` itself when ``before`` is not given). A game the
    ledger would not count (:meth:`RatingSystem.uncounted`) stakes nothing; its reason is
    kept. Changes nothing.

    Raises:
        KeyError: a player the ledger does not know.
    """
    measure = before or after
    start = {player: measure(ledger, player) for player in (game.black, game.white)}
    reason = ledger.uncounted(replace(game, result=Result.BLACK, played=True))
    outcomes: list[tuple[Stake, Stake]] = []
    for result in (Result.BLACK, Result.WHITE):
        if reason is not None:
            outcomes.append((Stake(game.black, None, unit), Stake(game.white, None, unit)))
            continue
        played = replace(game, result=result, played=True)
        shadow = trial(ledger, played)
        shadow.apply(GamePlayed(played))
        pair: list[Stake] = []
        for player in (game.black, game.white):
            was, now = start[player], after(shadow, player)
            change = None if was is None or now is None else now - was
            pair.append(Stake(player, change, unit, note))
        outcomes.append((pair[0], pair[1]))
    return Stakes(outcomes[0], outcomes[1], reason)


class RankTrail:
    """Each player's rank through the calendar, as a ledger folded it: a club player enters a
    typed tournament with the rank they had on its first day (rules.md, top: calendar order;
    §3.2 "the rank they played the tournament with"; §4.1 entry ranks), whatever was typed
    before or after it.

    Kept from the ledger's own changes, folded in calendar order: the rank a player joined
    with, then one step for each day that ended with another rank than the day before (the
    order of a day's facts may move a rank back and forth within it; only where the day ends
    counts, so the trail is the same for any order of entry). A few entries per player,
    however many games move a rating.
    """

    __slots__ = ("_first", "_now", "_steps")

    def __init__(self) -> None:
        self._first: dict[PlayerId, Rank] = {}
        self._steps: dict[PlayerId, list[tuple[dt.date, Rank]]] = {}
        self._now: dict[PlayerId, int] = {}  # each player's latest rank step (the fast path)

    def trial_copy(self, players: Iterable[PlayerId]) -> RankTrail:
        """A trail that :meth:`note` may move ``players`` on without touching this one (the
        others' steps are shared: a game of those players adds none of theirs)."""
        other = RankTrail()
        other._first = dict(self._first)
        other._now = dict(self._now)
        other._steps = dict(self._steps)
        for player in players:
            if player in other._steps:
                other._steps[player] = list(other._steps[player])
        return other

    def note(self, changes: Iterable[Change]) -> None:
        """Note the ranks ``changes`` (one fact's, just folded) leave their players at."""
        now = self._now
        for change in changes:
            if now.get(change.player) != change.rank_after.step:  # most changes: it did not
                self._moved(change.player, change.date, change.rank_after)

    def note_ranks(self, ranks: Iterable[tuple[PlayerId, dt.date, Rank]]) -> None:
        """Note ``(player, date, rank)``: as :meth:`note` notes a change's ``rank_after``
        (a trail of other ranks than the changes', e.g. MGSZ's band ranks)."""
        now = self._now
        for player, date, rank in ranks:
            if now.get(player) != rank.step:
                self._moved(player, date, rank)

    def _moved(self, player: PlayerId, date: dt.date, rank: Rank) -> None:
        """A fact of ``date`` left ``player`` at another rank than their latest step."""
        self._now[player] = rank.step
        steps = self._steps.get(player)
        if steps is None:  # their registration: the rank they joined with
            self._first[player] = rank
            self._steps[player] = []
            return
        if steps and steps[-1][0] == date:
            steps.pop()  # the day's earlier rank: only where the day ends counts
        if rank != (steps[-1][1] if steps else self._first[player]):
            steps.append((date, rank))

    def on(self, player: PlayerId, day: dt.date) -> Rank | None:
        """The player's rank at the start of ``day``: where the last day before it with a
        step left them, else the rank they joined with (a player who joined on or after
        ``day`` enters with it); ``None`` for a player never noted."""
        for date, rank in reversed(self._steps.get(player, ())):
            if date < day:
                return rank
        return self._first.get(player)

    def snapshot(self) -> dict[str, Any]:
        """The trail as plain data (part of a ledger's :meth:`RatingSystem.snapshot`)."""
        return {
            str(player): {
                "joined": str(self._first[player]),
                "steps": [[date.isoformat(), str(rank)] for date, rank in self._steps[player]],
            }
            for player in sorted(self._first)
        }


def entry_rank(entry: Entry, trail: RankTrail, tournament: Tournament) -> Rank:
    """The rank ``entry`` played ``tournament`` with: the rank declared (a results file's, an
    organiser's), else — a club player entered by typing their games — the rank the ledger
    gave them on the tournament's first day (:class:`RankTrail`).

    Raises:
        RuleError: no rank was declared and the ledger never knew the player.
    """
    if entry.rank is not None:
        return entry.rank
    found = trail.on(entry.player, tournament.start)
    if found is None:
        raise RuleError(
            Msg(
                "player {player} has no rank in tournament {tournament}: not registered here "
                "and entered without a rank",
                player=entry.player,
                tournament=Typed(tournament.name),
            )
        )
    return found


class RatingSystem(Protocol):
    """A rulebook as a ledger: replay events, answer queries."""

    key: str
    """Registry key: ``mgsz``, ``tensuusei``, ``swedish``, ``psg``, ``gor``."""

    rules_version: int
    """The version of the rulebook's results: its module's ``RULES_VERSION``, bumped by hand
    whenever a change makes any rating, rank, card, history row or refusal differ (a stored
    snapshot of a ledger is trusted only under the version it was made with); a docstring or a
    refactor that keeps every result leaves it alone."""

    language: str
    """The language of the rulebook's country (``hu`` MGSZ, ``ja`` Tensuusei, ``sv`` Swedish,
    ``pl`` PSG, ``en`` GoR): a club's default language (issue 13)."""

    activity: Activity
    """Who counts as active (the ranking list's default filter): PSG's own 13 months (PSG
    regulations §3(5), the club's ``psg.inactive_months``); hoshi's 12 months, said as such,
    under rulebooks that set no activity rule."""

    file_rating_titles: tuple[str, ...]
    """The titles of a results file's column (an h9's ``GoR``) that carries this rulebook's own
    rating: a new player of the file starts at it, kept exactly to 3 decimals (the EGF GoR,
    rules.md §6); empty for a rulebook no file carries the rating of."""

    scheduled: frozenset[Phase]
    """The scheduled moments whose events change this system's ratings (``DAY_END`` for
    Tensuusei, ``PERIOD_END`` for MGSZ club periods, ``MONTH_END`` for PSG verification);
    the current system's are announced (:meth:`announcement`)."""

    handles: frozenset[type[Event]]
    """The event types :meth:`apply` does anything with. Any other event is a pure no-op
    (``Applied([], frozenset())``, nothing changes), so a fold may skip it."""

    def apply(self, event: Event) -> Applied:
        """Fold one event in; returns its changes and the players whose cards it touched
        (:class:`Applied`). Raises and changes nothing on error; an event whose type is not
        in :attr:`handles` changes nothing and touches nobody."""
        ...

    def due(self, today: dt.date) -> list[Event]:
        """The scheduled events (``DayEnded``, ``MonthEnded``, ``PeriodClosed``) that are due
        under this ledger as it stands, given the club's local ``today``: the days before
        today, the months and rating periods that have ended — oldest first; empty for a
        system with no scheduled moments. Worked out from the ledger's own state, by the
        rulebook's own rule (each system's docstring cites it); asking changes nothing."""
        ...

    def players(self) -> Iterable[PlayerId]:
        """Every registered player the ledger knows."""
        ...

    def card(self, player: PlayerId) -> Card:
        """The player's card (raises ``KeyError`` for an unknown player)."""
        ...

    def open_period(self) -> Sequence[Game]:
        """The club games held for a rating period that has not closed yet (an MGSZ club
        period, rules.md §1.4 Decision — club games), oldest first; empty under systems that
        have no such period."""
        ...

    def period_weight(self) -> Weight | None:
        """How the open period of club games will be counted when it ends, if nothing else
        happens before (MGSZ: its multiplier C, rules.md §1.4 club games), worked out as its
        end works it out; ``None`` when nothing is held or the system has no such period."""

    def rank_on(self, player: PlayerId, day: dt.date) -> Rank:
        """The player's rank at the start of ``day`` as this ledger folded the calendar
        (:class:`RankTrail`): the rank a club player entered a tournament starting that day
        with (raises ``KeyError`` for a player the ledger never knew)."""
        ...

    def handicap(self, a: PlayerId, b: PlayerId, *, reduction: int = 0) -> HandicapAdvice:
        """Stones and komi for a game between ``a`` and ``b`` (rules.md §2.1, §5)."""
        ...

    def promotion(self, player: PlayerId) -> Progress:
        """Progress toward the player's next rank."""
        ...

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain JSON-able data, canonical: equal ledgers, equal snapshots."""
        ...

    def uncounted(self, game: Game) -> str | None:
        """Why ``game`` will not count under this system, asked before it is folded in, given
        the ledger's current state; in a club member's words (naming the rulebook's own rule,
        never rules.md). ``None`` when it counts. Never raises and changes nothing.
        """
        ...

    def announcement(self, phase: Phase, label: str, changes: Sequence[Change]) -> Notice | None:
        """What to tell the club when the scheduled moment ``phase`` named ``label`` (a day
        ``2026-11-20``, a month ``2026-11``, a period's name) has been folded in with
        ``changes``; ``None`` when there is nothing to say under this system."""
        ...

    def rank_bands(self) -> tuple[Band, ...]:
        """The ranks' spans on this system's rating scale, weakest first (``/chart``);
        empty when ratings are not on a rank scale (Swedish, PSG)."""
        ...

    def tournament_weight(self, tournament: Tournament) -> Weight | None:
        """How this system counts ``tournament`` (MGSZ multiplier C, GoR class); ``None``
        when it counts every tournament alike.

        Raises:
            EngineError: the tournament lacks a fact the weight needs (e.g. a time control).
        """
        ...

    def time_weight(self, tournament: Tournament) -> Weight:
        """How this rulebook counts the games of ``tournament`` at its time control
        (``/multiplier TIME``), by its own rule: the tournament's weight where the system
        weighs tournaments (MGSZ's multiplier C, GoR's class), otherwise what one game at
        that time control counts for (:data:`GAME_WEIGHT`: Swedish whole, half or no games,
        PSG ranked or not, Tensuusei alike), its ``lines`` naming the time control and the
        rule. Changes nothing.

        Raises:
            EngineError: the answer needs a fact the tournament lacks (a time control).
        """
        ...

    def entry_notes(self, tournament: Tournament, entries: Sequence[Entry]) -> list[str]:
        """Entries (club players at their declared ranks) that break this system's entry
        rules (MGSZ §9 rank bands, PSG §11, §15), in a club member's words with
        ``{player:ID}`` marks; empty when all is well. Changes nothing."""
        ...

    def initial_rank_limit(self) -> RankLimit | None:
        """The strongest rank a new player may be given without a starting rating (MGSZ
        §1.5: 5k, a club setting); ``None`` when any declared rank is taken."""
        ...

    def rating_scale(self) -> RatingScale | None:
        """The range a starting rating may take (``Registered.rating``); ``None`` when the
        system counts its values from games alone and a rating cannot be set (Swedish, PSG)."""
        ...

    def stakes(self, game: Game) -> Stakes:
        """What each player of ``game`` (its stones and komi; its result ignored) gains or
        loses if Black wins and if White wins, as folding it now would give, by the
        rulebook's own rule. Changes nothing.

        Raises:
            KeyError: a player the ledger does not know (no rating yet).
        """
        ...


# TRANSLATORS: /multiplier under a system that weighs games, not tournaments: "Game weight =
# 0.5" (a half game), 1 (a whole game), 0 (not counted)
GAME_WEIGHT = Msg("Game weight")
"""The label of a :class:`Weight` saying what one game counts for (``time_weight``)."""

UNPLAYED = Msg("an unplayed game (a bye, no-show or forfeit) is stored and shown, never rated")
NO_RESULT = Msg("a game without a result is stored, not rated until its result is known")


def listed(items: Sequence[str]) -> str:
    """``items`` joined by commas, kept translatable: ``a, b, c`` is ``{first}, {rest}``
    nested, so that each item (a :class:`~engine.text.Msg`) is translated on its own and a
    language may write its own separator (Japanese 、)."""
    if not items:
        return ""
    text = items[-1]
    for item in reversed(items[:-1]):
        # TRANSLATORS: two items of a list (each may itself be a list); Japanese: {first}、{rest}
        text = Msg("{first}, {rest}", first=item, rest=text)
    return text


def unit(counted: Msg) -> Msg:
    """A unit after a number (``points`` in ``3 points``), from ``plural(singular, plural, n)``.

    Its English text is the plural, as cards and pending values always carried it (the bot
    writes ``1 point`` by its own English rule); a catalogue still chooses its own form by
    ``n`` (Polish punkt, punkty, punktów)."""
    assert counted.plural_template is not None, "unit() takes a plural(...) message"
    return Msg.rendered(
        counted.plural_template.format(**counted.args),
        counted.template,
        counted.plural_template,
        counted.n,
        counted.args,
    )


def clauses(parts: Sequence[str]) -> str:
    """``parts`` joined by semicolons (the clauses of a history note), kept translatable as
    :func:`listed` keeps a list."""
    if not parts:
        return ""
    text = parts[-1]
    for part in reversed(parts[:-1]):
        # TRANSLATORS: two clauses of a history note, separated by a semicolon
        text = Msg("{first}; {rest}", first=part, rest=text)
    return text


def game_of(source: str, note: str) -> int | None:
    """The game one rating change belongs to: its source ``game:ID`` (Tensuusei rates a
    tournament's games one by one under their own sources), else a note that opens with its
    game, a :class:`~engine.text.Msg` whose argument ``game`` names it — directly or as a
    nested message (PSG scores a tournament game by game under the tournament's source, each
    note ``game {game:12} (round 3): …``, :func:`~engine.text.game_mark`). ``None`` for a
    change of a whole tournament, a period, a day, a registration …"""
    kind, _, ident = source.partition(":")
    if kind == "game" and ident.isdecimal():
        return int(ident)
    named: object = note
    while isinstance(named, Msg):
        named = named.args.get("game")
    if type(named) is int:  # a note written before games were marks
        return named
    return marked_id(named, "game")


def never_rated(game: Game) -> str | None:
    """Why no system rates ``game`` (rules.md, common vocabulary: unplayed games, unknown
    results), in a club member's words; ``None`` for a played game with a result."""
    if not game.played:
        return UNPLAYED
    if game.result is None:
        return NO_RESULT
    return None


def refuse_unknown_players(
    game: Game,
    tournament: Tournament,
    entries: Collection[PlayerId],
    registered: Collection[PlayerId],
) -> None:
    """Refuse a tournament game whose player has no entry in ``tournament`` and is not
    registered: a system rates a tournament's games only between players it knows.

    Raises:
        RuleError: naming the player, the game, its round and the tournament.
    """
    for player in (game.black, game.white):
        if player not in entries and player not in registered:
            raise RuleError(
                Msg(
                    "player {player} of game {game} (round {round}) has no entry "
                    "in tournament {tournament} and is not registered",
                    player=player,
                    game=game_mark(game.id),
                    round=game.round,
                    tournament=Typed(tournament.name),
                )
            )


def replay(system: RatingSystem, events: Iterable[Event]) -> list[Change]:
    """Apply ``events`` in order (skipping those the system does not handle: no-ops);
    returns every change, in order."""
    changes: list[Change] = []
    handles = system.handles
    for event in events:
        if type(event) in handles:
            changes.extend(system.apply(event).changes)
    return changes
