"""A synthetic go federation: players, tournaments and club games, seeded and deterministic.

:func:`federation` yields the history of one federation-wide rating list, in log order, as
``storage.bulk`` items:

* **players** with an EGF-like rank distribution (most between 15k and 1d, a long tail of
  children down to 30k, a few strong dans), registered over the years (a third at the start),
  each with a home club, an activity level and a strength that grows with time (kyu players
  improve, dans hardly);
* **tournaments** of 10–300 players (most 20–60) and 4–7 McMahon-style rounds on weekends —
  open (even) tournaments, handicap tournaments with a reduction of 0–2 stones, a few 13×13
  and fast ones, the occasional national or European championship — entered with each
  player's current declared rank, then finalised;
* **club games** on club nights, between members of one club, mostly with the full handicap;
* the **scheduler's events**: each club-game day ends (Tensuusei), each month ends (PSG), and
  each month's club games close as an MGSZ rating period, as ``bot/core/scheduler.py`` writes them.

Results come from the players' hidden strengths (a logistic model on the rank difference
after handicap), so ratings move the way real ones do. The same ``seed`` gives the same
history, byte for byte.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

from engine.mgsz import month_period
from engine.ranks import Rank
from engine.timecontrol import TimeControl
from engine.types import DayEnded, Importance, MonthEnded, PeriodClosed, Tournament
from storage.bulk import (
    BulkEntry,
    BulkFinalise,
    BulkGame,
    BulkItem,
    BulkPlayer,
    BulkTournament,
)
from storage.records import NewPlayer

GAMES_PER_YEAR = 40_000  # a busy federation (the EGD holds about a million games over 25 years)
PLAYERS_PER_GAMES = 50  # one player per 50 games: 20,000 players at a million games
CLUB_SHARE = 0.25  # a quarter of the games are club games, the rest tournament games
HOME_CLUB_SIZE = 120  # members per home club on average (over the years)
ACTIVE_YEARS = 6  # how long a player keeps playing, on average (exponential)
START = dt.date(2000, 1, 3)  # a Monday

WEAKEST, STRONGEST = -29, 7  # 30k … 7d as Rank steps (1d = 1, 1k = 0)
COMMITTEE_ABOVE = -5  # a first rank stronger than 6k needs the committee (MGSZ §5(3), PSG §11(3))

# (text, weight): the time controls tournaments use; the short ones are not ranked everywhere
TIME_CONTROLS = (
    ("1h 5x30s japanese", 30),
    ("90m 5x30s japanese", 15),
    ("40m 30/5m canadian", 10),
    ("2h 25/10m canadian", 6),
    ("90m+30s fischer", 8),
    ("45m 3x30s japanese", 12),
    ("30m 5x20s japanese", 10),
    ("10m 3x10s japanese", 4),
    ("unlimited", 1),
)
CLUB_TIME = "60m"  # bot/core/scheduler.py's DEFAULT_CLUB_TIME for a club period
CITIES = (
    "Budapest", "Szeged", "Debrecen", "Pécs", "Győr", "Warszawa", "Kraków", "Wrocław",
    "Poznań", "Gdańsk", "Stockholm", "Göteborg", "Malmö", "Uppsala", "Tokyo", "Osaka",
    "Nagoya", "Sapporo", "Praha", "Brno", "Wien", "Graz", "Berlin", "Hamburg",
)  # fmt: skip
KINDS = ("Open", "Cup", "Spring Tournament", "Autumn Tournament", "Memorial", "Youth Cup")
SYLLABLES = (
    "ko", "va", "na", "gy", "sza", "bo", "ki", "ma", "to", "ri", "ha", "lo", "mi", "se",
    "ta", "ne", "ro", "ka", "wa", "yo", "li", "de", "zu", "po", "fe", "gu", "sta", "ber",
)  # fmt: skip
GIVEN = (
    "Péter", "Anna", "Jan", "Ewa", "Erik", "Karin", "Hiroshi", "Yuki", "Tomás", "Eva",
    "László", "Réka", "Piotr", "Zofia", "Lars", "Ingrid", "Kenji", "Aiko", "Jonas", "Marta",
)  # fmt: skip


@dataclass(slots=True)
class _Player:
    key: int
    step: int  # the rank registered with
    registered: int  # day index
    growth: float  # rank steps a year
    activity: int  # how often they play (1 rarely … 6 a lot)
    club: int  # home club
    leaves: int  # day index: stops playing (players come and go)
    guest: bool = False

    def strength(self, day: int) -> float:
        """The hidden playing strength on ``day`` (rank steps)."""
        years = (day - self.registered) / 365.25
        return min(STRONGEST + 0.4, self.step + self.growth * years, self.step + 12.0)

    def declared(self, day: int) -> int:
        """The rank they enter tournaments with on ``day``."""
        return max(WEAKEST, min(STRONGEST, math.floor(self.strength(day) + 0.5)))


@dataclass(frozen=True, slots=True)
class Shape:
    """The size of a generated federation (defaults scale with ``games``)."""

    games: int
    players: int
    years: int
    clubs: int
    guests: int

    @classmethod
    def of(cls, games: int, players: int | None = None) -> Shape:
        players = players if players is not None else max(300, games // PLAYERS_PER_GAMES)
        years = max(1, round(games / GAMES_PER_YEAR))
        return cls(games, players, years, max(1, players // HOME_CLUB_SIZE), max(2, players // 40))


class _Generator:
    def __init__(
        self, shape: Shape, seed: int, start: dt.date = START, club_share: float = CLUB_SHARE
    ) -> None:
        self.shape = shape
        self.start = start
        self.rng = random.Random(seed)
        self.days = shape.years * 364  # whole weeks
        self.players: list[_Player] = []
        self.guests: list[_Player] = []
        self.names: set[str] = set()
        self.next_key = 1
        self.tournament_names: set[str] = set()
        self.games_left = shape.games
        self.club_games_left = round(shape.games * club_share)
        self.tournament_games_left = shape.games - self.club_games_left
        self.month = (start.year, start.month)
        self.period_games = 0  # club games of the month (an MGSZ period closes only if any)

    # --- players

    def _name(self) -> str:
        rng = self.rng
        while True:
            family = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3)))
            name = f"{family.capitalize()} {rng.choice(GIVEN)}"
            if name in self.names:
                family += rng.choice(SYLLABLES)
                name = f"{family.capitalize()} {rng.choice(GIVEN)}"
            if name not in self.names:
                self.names.add(name)
                return name

    def _rank_step(self) -> int:
        """EGF-like: a broad hump around 5k–8k, a children's tail, dans ~15%."""
        rng = self.rng
        children = rng.random() < 0.12  # children and beginners
        step = round(rng.uniform(-29, -15)) if children else round(rng.gauss(-6, 6))
        return max(WEAKEST, min(STRONGEST - 1, step))

    def _new_player(self, day: int, guest: bool = False) -> _Player:
        rng = self.rng
        step = self._rank_step()
        if step <= -10:
            growth = rng.uniform(0.0, 2.5)
        elif step <= 0:
            growth = rng.uniform(0.0, 0.8)
        else:
            growth = rng.uniform(0.0, 0.15)
        activity = min(6, 1 + int(rng.expovariate(0.7)))
        leaves = day + int(rng.expovariate(1 / (ACTIVE_YEARS * 365.25))) + 28
        club = rng.randrange(self.shape.clubs)
        player = _Player(self.next_key, step, day, growth, activity, club, leaves, guest)
        self.next_key += 1
        return player

    def _register(self, player: _Player) -> BulkPlayer:
        rank = Rank(player.step)
        new = NewPlayer(
            self._name(),
            rank,
            country="XX" if player.guest else None,
            home_club=None if player.guest else f"Club {player.club + 1}",
            committee=player.step > COMMITTEE_ABOVE and not player.guest,
            guest=player.guest,
        )
        return BulkPlayer(player.key, new, self.start + dt.timedelta(days=player.registered))

    # --- the history

    def items(self) -> Iterator[BulkItem]:
        shape, rng = self.shape, self.rng
        arrivals = sorted(
            0 if i < shape.players // 3 else rng.randrange(0, max(1, self.days - 28))
            for i in range(shape.players)
        )
        for _ in range(shape.guests):
            guest = self._new_player(0, guest=True)
            self.guests.append(guest)
            yield self._register(guest)
        weeks = self.days // 7
        arrived = 0
        members: dict[int, list[_Player]] = {}  # home club → its active players
        pool: list[_Player] = []  # active players, each once per activity level
        for week in range(weeks):
            monday = week * 7
            while arrived < len(arrivals) and arrivals[arrived] <= monday + 6:
                player = self._new_player(arrivals[arrived])
                self.players.append(player)
                arrived += 1
                yield self._register(player)
            if week % 4 == 0 or len(pool) < 2:  # who still plays, every four weeks
                members, pool = self._active(monday)
            # club games on Tuesday and Thursday evenings; each day ends at midnight
            club_target = self._share(self.club_games_left, weeks - week)
            for offset, count in ((1, club_target // 2), (3, club_target - club_target // 2)):
                yield from self._month_turn(monday + offset)
                played = yield from self._club_night(monday + offset, count, members)
                self.club_games_left -= played
                self.period_games += played
                if played:
                    yield DayEnded(self.start + dt.timedelta(days=monday + offset))
            # tournaments on the weekend, finalised on Sunday evening
            yield from self._month_turn(monday + 5)
            target = self._share(self.tournament_games_left, weeks - week)
            weekend = target > 0
            while target > 0:
                played = yield from self._tournament(monday + 5, target, pool)
                if played == 0:
                    break
                target -= played
                self.tournament_games_left -= played
            if weekend:
                yield DayEnded(self.start + dt.timedelta(days=monday + 5))
                yield DayEnded(self.start + dt.timedelta(days=monday + 6))
        if self.club_games_left or self.tournament_games_left:
            raise AssertionError("the generator did not place every game")  # a bug here
        # the last month ends too, as the scheduler ends it: the history is of the past (the
        # bench's clock is years later), so no month of it still holds club games
        yield from self._month_turn(weeks * 7 + 31)

    def _month_turn(self, day: int) -> Iterator[BulkItem]:
        """The scheduler's month ends passed before ``day``: the MGSZ club period, then the
        PSG month-end check."""
        date = self.start + dt.timedelta(days=day)
        while (date.year, date.month) != self.month:
            year, number = self.month
            if self.period_games:
                yield PeriodClosed(club_period(year, number))
            yield MonthEnded(year, number)
            self.month = (year + number // 12, number % 12 + 1)
            self.period_games = 0

    def _active(self, day: int) -> tuple[dict[int, list[_Player]], list[_Player]]:
        """The home clubs' active members and the weighted pool of active players."""
        members: dict[int, list[_Player]] = {}
        pool: list[_Player] = []
        for player in self.players:
            if player.registered <= day + 6 and day < player.leaves:
                members.setdefault(player.club, []).append(player)
                pool.extend([player] * player.activity)
        return members, pool

    @staticmethod
    def _share(left: int, weeks_left: int) -> int:
        """This week's part of what is left (the last week takes the rest)."""
        return left if weeks_left <= 1 else left // weeks_left

    def _club_night(
        self, day: int, count: int, members: dict[int, list[_Player]]
    ) -> Iterator[BulkItem]:
        """``count`` club games on ``day``; returns how many were played."""
        rng = self.rng
        clubs = [club for club, people in members.items() if len(people) >= 2]
        if not clubs or count <= 0:
            return 0
        date = self.start + dt.timedelta(days=day)
        for _ in range(count):
            people = members[rng.choice(clubs)]
            a, b = rng.sample(people, 2)
            if rng.random() < 0.7:  # the full handicap: weaker takes black
                black, white = (a, b) if a.declared(day) <= b.declared(day) else (b, a)
                stones = min(9, white.declared(day) - black.declared(day))
                komi2 = 13 if stones == 0 else 1
            else:
                black, white = (a, b) if rng.random() < 0.5 else (b, a)
                stones, komi2 = 0, 13
            yield BulkGame(
                black.key,
                white.key,
                self._result(black, white, stones, day),
                date,
                stones,
                komi2,
                time=CLUB_TIME,
            )
        return count

    def _result(self, black: _Player, white: _Player, stones: int, day: int) -> str | None:
        """B+ / W+ from the strengths: the logistic model on the difference after handicap."""
        rng = self.rng
        if rng.random() < 0.001:
            return None  # result unknown (a `?` in an h9 file)
        advantage = black.strength(day) - white.strength(day) + max(0, stones - 0.5)
        black_wins = 1.0 / (1.0 + math.exp(-0.9 * advantage))
        return "B+" if rng.random() < black_wins else "W+"

    def _tournament_name(self, year: int) -> str:
        rng = self.rng
        base = f"{rng.choice(CITIES)} {rng.choice(KINDS)} {year}"
        name, number = base, 1
        while name in self.tournament_names:
            number += 1
            name = f"{base} ({number})"
        self.tournament_names.add(name)
        return name

    def _tournament(self, day: int, budget: int, pool: list[_Player]) -> Iterator[BulkItem]:
        """One weekend tournament of at most ``budget`` games; returns how many were played."""
        rng = self.rng
        active = len({p.key for p in pool})
        if active < 4:
            return 0
        size = min(300, max(10, int(rng.lognormvariate(math.log(36), 0.7))))
        rounds = rng.randint(4, 7)
        size = min(size, active)
        if (size // 2) * rounds > budget:  # the last tournament: fewer players
            size = max(4, min(size, 2 * -(-budget // rounds)))
        chosen: dict[int, _Player] = {}
        while len(chosen) < size:
            player = rng.choice(pool)
            chosen.setdefault(player.key, player)
        people = list(chosen.values())
        if size >= 40 and self.guests:  # international guests in the bigger ones
            for guest in rng.sample(self.guests, min(len(self.guests), size // 25)):
                people.append(guest)
        even = rng.random() < 0.45
        reduction = 0 if even else rng.choice((0, 0, 0, 1, 1, 2))
        board = 13 if rng.random() < 0.03 else 19
        start = self.start + dt.timedelta(days=day)
        end = start + dt.timedelta(days=1 if rounds <= 5 else 2)
        time_text = rng.choices(
            [t for t, _ in TIME_CONTROLS], weights=[w for _, w in TIME_CONTROLS]
        )[0]
        national = rng.random() < 0.01
        key = self.next_key
        self.next_key += 1
        tournament = Tournament(
            id=0,
            name=self._tournament_name(start.year),
            start=start,
            end=end,
            rounds=rounds,
            board=board,
            time=TimeControl.parse(time_text),
            even=even,
            handicap_reduction=reduction,
            participants=len(people),
            importance=Importance(national, national and rng.random() < 0.2),
        )
        yield BulkTournament(key, tournament)
        ranks = {p.key: p.declared(day) for p in people}
        for player in people:
            yield BulkEntry(key, player.key, Rank(ranks[player.key]))
        score = dict.fromkeys(ranks, 0)
        played = 0
        for number in range(1, rounds + 1):
            order = sorted(people, key=lambda p: (-score[p.key], -ranks[p.key], rng.random()))
            date = start if number <= (rounds + 1) // 2 else end
            for i in range(0, len(order) - 1, 2):
                if played >= budget:
                    break
                a, b = order[i], order[i + 1]
                if even:
                    black, white = (a, b) if rng.random() < 0.5 else (b, a)
                    stones, komi2 = 0, rng.choice((13, 13, 15))
                else:
                    black, white = (a, b) if ranks[a.key] <= ranks[b.key] else (b, a)
                    stones = max(0, min(9, ranks[white.key] - ranks[black.key] - reduction))
                    komi2 = 13 if stones == 0 else 1
                result = self._result(black, white, stones, day)
                walkover = rng.random() < 0.005  # a no-show: stored, never rated
                if result == "B+":
                    score[black.key] += 1
                elif result == "W+":
                    score[white.key] += 1
                yield BulkGame(
                    black.key,
                    white.key,
                    result,
                    date,
                    stones,
                    komi2,
                    not walkover,
                    board,
                    None,
                    key,
                    number,
                )
                played += 1
        yield BulkFinalise(key)
        return played


def club_period(year: int, month: int) -> Tournament:
    """A month of club games as one MGSZ rating period, as the scheduler closes it
    (:func:`engine.mgsz.period.month_period`), with the federation's club time of its own."""
    return replace(month_period(year, month), time=TimeControl.parse(CLUB_TIME))


def federation(
    games: int,
    *,
    seed: int = 1,
    players: int | None = None,
    start: dt.date = START,
    club_share: float = CLUB_SHARE,
) -> Iterator[BulkItem]:
    """The history of a federation with exactly ``games`` games (see the module docstring).

    Args:
        games: how many games (club and tournament) in all.
        seed: the same seed gives the same history.
        players: registered players (default: one per 50 games, at least 300).
        start: its first day (best a Monday: club nights are Tuesdays and Thursdays).
        club_share: the part of the games played as club games (1: a club of its own, with
            no tournaments).
    """
    return _Generator(Shape.of(games, players), seed, start, club_share).items()


def after_history(shape: Shape, start: dt.date = START) -> dt.date:
    """The first day after :func:`federation`'s history whose month it has not ended: on it,
    a scheduler finds nothing of the history due (every day, month and period before it has
    ended), as at a club that has been running all along."""
    weeks = shape.years * 364 // 7
    return start + dt.timedelta(days=weeks * 7 + 31)
