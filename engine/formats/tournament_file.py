"""What a tournament results file holds, whichever format it came in (formats.md).

:func:`engine.formats.h9.parse_h9` and :func:`engine.formats.opengotha.parse_opengotha` both
return a :class:`TournamentFile`; :func:`to_engine` turns one into the engine's
:class:`~engine.types.Tournament`, :class:`~engine.types.Entry` and :class:`~engine.types.Game`
values once the caller has matched the file's players to player ids.

Players are numbered by their *position*: 1-based, in the order of the player lines (h9) or the
``<Player>`` elements (OpenGotha XML). Line numbers are kept for messages but are not part of a
value's substance (``compare=False``), so a file written and read back compares equal.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections import Counter
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TypeVar

from engine.formats.messages import format_error, joined
from engine.ranks import Rank
from engine.text import Msg, plural
from engine.timecontrol import TimeControl
from engine.types import DEFAULT_KOMI, ByeKind, Entry, Game, Outcome, PlayerId, Result, Tournament

EVEN_RULE = 9  # formats.md: HA[h9] and above: no handicap at all, an even tournament

# rules.md §5: komi with handicap stones — none for one stone, 0.5 to white for two or more
ONE_STONE_KOMI = Fraction(0)
HANDICAP_KOMI = Fraction(1, 2)

KOMI_EXAMPLE = Msg("komi is a number of points such as 6.5, 7.5 or 0.5")


@dataclass(frozen=True, slots=True)
class FilePlayer:
    """One player line (h9) or ``<Player>`` (XML).

    ``rank`` is on hoshi's ladder; ``pro`` marks a professional rank read as 7d
    (:func:`engine.ranks.parse_rank_lenient`). ``place`` is the printed place, ``None`` when
    blank (tied with the line above) or absent. ``country`` and ``club`` are ``None`` when the
    file says unknown (``XX``, ``xxxx``) or nothing.
    """

    position: int
    line: int = field(compare=False)
    name: str
    rank: Rank
    pro: int = 0
    country: str | None = None
    club: str | None = None
    egd_pin: str | None = None
    place: int | None = None
    criteria: tuple[tuple[str, str], ...] = ()
    """The line's criteria columns (h9: MMS, SOS, …) as ``(title, value)`` text pairs, in
    file order: titled by the file's column-title comment, else ``criterion N``; empty when
    the file has none (OpenGotha XML, a tournament entered by hand)."""


@dataclass(frozen=True, slots=True)
class FileGame:
    """One game, read from both players' tokens (h9) or one ``<Game>`` (XML).

    ``black`` and ``white`` are player positions. ``result`` is ``None`` when unknown (``?``)
    and for a both-win or both-lose result, which ``double`` then records (``Outcome.WIN``:
    both won, ``Outcome.LOSS``: both lost; always unplayed). ``played`` is false for a result
    by default (``!``, ``_BYDEF``), never rated (rules.md, common vocabulary). When
    ``colour_known`` is false the file did not say who had black: with stones the weaker
    player is black, otherwise the lower position. ``handicap_inferred`` marks stones computed
    from ``HA[hN]`` because the file gave neither colour nor handicap (formats.md).
    """

    round: int
    black: int
    white: int
    result: Result | None
    played: bool = True
    stones: int = 0
    colour_known: bool = True
    handicap_inferred: bool = False
    line: int = field(default=0, compare=False)
    double: Outcome | None = None

    def positions(self) -> tuple[int, int]:
        return (self.black, self.white)


@dataclass(frozen=True, slots=True)
class FileBye:
    """A round in which a player had no opponent: ``kind`` says what it counted as."""

    round: int
    player: int
    kind: ByeKind
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class TournamentFile:
    """A whole tournament file, independent of its format (formats.md).

    ``handicap_rule`` is the N of ``HA[hN]`` (``None``: not given); ``even`` is true for
    ``h9`` and above, and for a file without a handicap rule whose games all have 0 stones.
    ``time_minutes`` is the (adjusted) time ``TM``; ``time`` a full time control when the
    format gives one (OpenGotha XML). ``notes`` keeps header keys hoshi does not use.
    ``unknown_results`` counts games whose result is ``?``; ``warnings`` says what the reader
    assumed (encoding, professional ranks, inferred handicaps).
    """

    name: str
    start: dt.date | None
    end: dt.date | None
    rounds: int
    board: int = 19
    komi: Fraction | None = None
    time_minutes: int | None = None
    time: TimeControl | None = None
    handicap_rule: int | None = None
    even: bool = True
    class_: str | None = None
    place: str | None = None
    code: str | None = None
    comment: str | None = None
    notes: Mapping[str, str] = field(default_factory=dict)
    encoding: str = field(default="text", compare=False)
    players: tuple[FilePlayer, ...] = ()
    games: tuple[FileGame, ...] = ()
    byes: tuple[FileBye, ...] = ()
    unknown_results: int = 0
    warnings: tuple[str, ...] = field(default=(), compare=False)

    def player(self, position: int) -> FilePlayer:
        """The player at a 1-based position."""
        return self.players[position - 1]


# ------------------------------------------------------------------------------- standings

BYE_SCORE: Mapping[str, Fraction] = {
    "win": Fraction(1),
    "half": Fraction(1, 2),
    "none": Fraction(0),
}
"""What a round without an opponent adds to the player's wins (formats.md: ``0+``, ``0=``,
``0-``)."""

_K = TypeVar("_K")

_CRITERION_NUMBER_RE = re.compile(
    r"^(?P<sign>-?)(?P<whole>\d*)(?:[.,](?P<fraction>\d+))?(?P<half>½?)$"
)


def criterion_value(text: str) -> Fraction:
    """A criteria column's value (MMS, SOS …: ``33``, ``12.5``, ``3,5``, ``12½``, ``½``) as
    an exact number; an empty, ``-`` or unreadable value counts as 0."""
    match = _CRITERION_NUMBER_RE.match(text.strip().rstrip("?="))
    if match is None or not (match["whole"] or match["fraction"] or match["half"]):
        return Fraction(0)
    fraction = match["fraction"] or ""
    value = Fraction(int((match["whole"] or "0") + fraction), 10 ** len(fraction))
    if match["half"]:
        value += Fraction(1, 2)
    return -value if match["sign"] else value


def places(
    order: Sequence[_K],
    wins: Mapping[_K, Fraction],
    criteria: Mapping[_K, Sequence[tuple[str, str]]],
) -> list[tuple[_K, int]]:
    """The standings: every key with its place, best first.

    Ordered by wins, then by the results file's criteria columns in the file's order (MMS,
    SOS, SOSOS … — each higher is better; a column a player lacks counts 0); players equal in
    all of them share the place of the first of them (``1, 2, 2, 4``) and keep ``order``
    among themselves.
    """
    columns: list[tuple[str, int]] = []  # (title, its n-th column of that title)
    for key in order:
        seen: Counter[str] = Counter()
        for title, _value in criteria.get(key, ()):
            if (title, seen[title]) not in columns:
                columns.append((title, seen[title]))
            seen[title] += 1

    def standing(key: _K) -> tuple[Fraction, ...]:
        values: dict[str, list[str]] = {}
        for title, value in criteria.get(key, ()):
            values.setdefault(title, []).append(value)
        return (
            wins.get(key, Fraction(0)),
            *(
                criterion_value(values[t][n]) if n < len(values.get(t, ())) else Fraction(0)
                for t, n in columns
            ),
        )

    ranked = sorted(order, key=lambda key: tuple(-v for v in standing(key)))
    found: list[tuple[_K, int]] = []
    previous: tuple[Fraction, ...] | None = None
    place = 0
    for index, key in enumerate(ranked):
        current = standing(key)
        if current != previous:
            place, previous = index + 1, current
        found.append((key, place))
    return found


def file_wins(tf: TournamentFile) -> dict[int, Fraction]:
    """Every position's wins: a game won (played or by default) 1, a jigo ½, a both-win 1
    to each; a bye as it counted (:data:`BYE_SCORE`); unknown results nothing."""
    wins = {p.position: Fraction(0) for p in tf.players}
    for g in tf.games:
        if g.double is not None:
            if g.double is Outcome.WIN:
                wins[g.black] += 1
                wins[g.white] += 1
        elif g.result is Result.JIGO:
            wins[g.black] += Fraction(1, 2)
            wins[g.white] += Fraction(1, 2)
        elif g.result is not None:
            wins[g.black if g.result is Result.BLACK else g.white] += 1
    for bye in tf.byes:
        wins[bye.player] += BYE_SCORE[bye.kind]
    return wins


def entry_wins(entries: Sequence[Entry], games: Sequence[Game]) -> dict[PlayerId, Fraction]:
    """A stored tournament's wins, counted as :func:`file_wins` counts its file's: a game won
    (played or by default) 1, a jigo ½, an administrative result the entry kept (both win)
    1, a bye as it counted; unknown results nothing. Every entrant and every player of
    ``games`` has a count."""
    wins: dict[PlayerId, Fraction] = {e.player: Fraction(0) for e in entries}
    for g in games:
        for player in (g.black, g.white):
            wins.setdefault(player, Fraction(0))
        if g.result is Result.JIGO:
            wins[g.black] += Fraction(1, 2)
            wins[g.white] += Fraction(1, 2)
        elif g.result is not None:
            wins[g.black if g.result is Result.BLACK else g.white] += 1
    for entry in entries:
        wins[entry.player] += sum((BYE_SCORE[kind] for _round, kind in entry.byes), Fraction(0))
        wins[entry.player] += sum(1 for _round, o in entry.administrative if o is Outcome.WIN)
    return wins


_SWAPPED = {Result.BLACK: Result.WHITE, Result.WHITE: Result.BLACK, Result.JIGO: Result.JIGO}


def _moved_game(
    game: FileGame, moved: Mapping[int, int], players: Sequence[FilePlayer]
) -> FileGame:
    """A game at its players' new positions. A game whose colours the file did not give
    follows the readers' convention again (FileGame): with stones the weaker player is
    black, otherwise the lower position, its result turned with the colours."""
    black, white = moved[game.black], moved[game.white]
    if not game.colour_known:
        low, high = sorted((black, white))
        low_rank, high_rank = players[low - 1].rank, players[high - 1].rank
        low_black = low_rank < high_rank if game.stones and low_rank != high_rank else True
        if low_black != (black == low):
            result = None if game.result is None else _SWAPPED[game.result]
            return dataclasses.replace(game, black=white, white=black, result=result)
    return dataclasses.replace(game, black=black, white=white)


def in_standings_order(tf: TournamentFile) -> TournamentFile:
    """The same tournament with its players in standings order (:func:`places`) and
    renumbered, the place printed on the first line of every tie and blank (``None``) on
    the lines tied with the line above (formats.md; OpenGotha's h9 export does the same);
    games and byes follow their players' new positions."""
    criteria = {p.position: p.criteria for p in tf.players}
    return in_places(tf, places([p.position for p in tf.players], file_wins(tf), criteria))


def in_places(tf: TournamentFile, standings: Sequence[tuple[int, int]]) -> TournamentFile:
    """The same tournament with its players in the order of ``standings`` (``(position,
    place)`` pairs, best first: a placement decided elsewhere, e.g. a McMahon tournament's own
    criteria), renumbered as :func:`in_standings_order` does."""
    moved = {old: new for new, (old, _place) in enumerate(standings, 1)}
    players: list[FilePlayer] = []
    previous = 0
    for new, (old, place) in enumerate(standings, 1):
        player = tf.player(old)
        shown = None if place == previous else place
        previous = place
        players.append(dataclasses.replace(player, position=new, place=shown))
    games = sorted(
        (_moved_game(g, moved, players) for g in tf.games),
        key=lambda g: (g.round, min(g.black, g.white)),
    )
    byes = sorted(
        (dataclasses.replace(b, player=moved[b.player]) for b in tf.byes),
        key=lambda b: (b.round, b.player),
    )
    return dataclasses.replace(tf, players=tuple(players), games=tuple(games), byes=tuple(byes))


# ------------------------------------------------------------------------------- numbers


_DECIMAL_RE = re.compile(r"^\s*(?P<sign>[-+]?)(?P<whole>[0-9]+)(?:[.,](?P<fraction>[0-9]+))?\s*$")


def parse_komi(text: str, *, line: int | None = None) -> Fraction:
    """Read a komi such as ``6.5``, ``7,5`` or ``-0.5`` exactly.

    Raises:
        FormatError: naming the text, with an example.
    """
    match = _DECIMAL_RE.match(text)
    if match is None:
        raise format_error(
            Msg(
                "cannot read the komi {text!r} ({example})",
                text=text.strip(),
                example=KOMI_EXAMPLE,
            ),
            line=line,
            token=text.strip(),
        )
    fraction = match["fraction"] or ""
    value = Fraction(int(match["whole"] + fraction), 10 ** len(fraction))
    return -value if match["sign"] == "-" else value


def format_komi(komi: Fraction) -> str:
    """A komi as a decimal: ``6.5``, ``7``, ``-0.5``.

    Raises:
        ValueError: for a value that has no short decimal form (komi are whole or half points).
    """
    sign = "-" if komi < 0 else ""
    magnitude = abs(komi)
    if magnitude.denominator == 1:
        return f"{sign}{magnitude.numerator}"
    if magnitude.denominator == 2:
        return f"{sign}{magnitude.numerator // 2}.5"
    if 100 % magnitude.denominator == 0:
        hundredths = magnitude.numerator * (100 // magnitude.denominator)
        return f"{sign}{hundredths // 100}.{hundredths % 100:02d}".rstrip("0")
    raise ValueError(f"komi {komi} has no short decimal form")


def game_komi(stones: int, even_komi: Fraction | None) -> Fraction:
    """The komi of a game: the tournament's for even games, rules.md §5 for handicap games."""
    if stones == 0:
        return DEFAULT_KOMI if even_komi is None else even_komi
    return ONE_STONE_KOMI if stones == 1 else HANDICAP_KOMI


# ------------------------------------------------------------------------------- to engine


def round_dates(start: dt.date, end: dt.date, rounds: int) -> tuple[dt.date, ...]:
    """The date of each round: the rounds spread over the tournament's days in order.

    Decision (ours; the files do not date rounds): round ``r`` (0-based) is played on day
    ``r × days // rounds``, so the days hold the rounds as evenly as possible, earlier days
    taking the extra round (like rules.md §1.4's splitting Decision): 5 rounds over 2 days →
    3 and 2; 4 rounds over 10 days → days 1, 3, 6, 8.
    """
    if end < start:
        raise ValueError(f"the tournament ends ({end}) before it starts ({start})")
    days = (end - start).days + 1
    return tuple(start + dt.timedelta(days=r * days // rounds) for r in range(rounds))


def tournament_time(tf: TournamentFile) -> TimeControl | None:
    """The tournament's time control: the file's own, or its adjusted time ``TM`` as base time.

    ``TM`` is already the adjusted (extended) time, so it is kept as base time without
    overtime and its extended time is ``TM`` again (rules.md §1.2).
    """
    if tf.time is not None:
        return tf.time
    if tf.time_minutes is None:
        return None
    return TimeControl(base_s=tf.time_minutes * 60)


def administrative_note(games: Sequence[FileGame], names: Mapping[int, str]) -> str | None:
    """The readers' warning naming the games with OpenGotha's administrative results (both
    win, both lose): stored as unplayed games and never rated (formats.md, OpenGotha
    tournament XML: "A both-win or both-lose result is unplayed for rating"); ``None`` when
    there are none. ``names`` gives each position's name."""
    doubles = [g for g in games if g.double is not None]
    if not doubles:
        return None
    listed = joined(
        [
            Msg(
                "round {round} {black} – {white} (both win)",
                round=g.round,
                black=names.get(g.black, g.black),
                white=names.get(g.white, g.white),
            )
            if g.double is Outcome.WIN
            else Msg(
                "round {round} {black} – {white} (both lose)",
                round=g.round,
                black=names.get(g.black, g.black),
                white=names.get(g.white, g.white),
            )
            for g in doubles
        ]
    )
    return plural(
        "{n} game with an administrative result (both win / both lose) is stored and not rated: "
        "{games}",
        "{n} games with an administrative result (both win / both lose) are stored and not "
        "rated: {games}",
        len(doubles),
        games=listed,
    )


def to_engine(
    tf: TournamentFile,
    player_ids: Mapping[int, PlayerId],
    registered: Set[PlayerId],
    tournament_id: int,
    game_id_start: int,
) -> tuple[Tournament, tuple[Entry, ...], tuple[Game, ...]]:
    """The engine's view of a tournament file, once its players are matched to player ids.

    Args:
        tf: the parsed file.
        player_ids: the player id of every position (1-based) in the file.
        registered: the ids that are registered players; the others are guests, rated at
            their declared rank and not stored as ranked players (rules.md §1.4 step 2).
        tournament_id: the id the tournament gets.
        game_id_start: the id of the first game; the others follow in the file's order.

    Returns:
        The tournament (``participants`` = the number of players, ``even`` per formats.md,
        time from the file), one entry per player, and every game including unplayed ones
        and unknown results (stored, never rated). Byes are not games: each entry keeps its
        own (``Entry.byes``), and what a game with an administrative
        result counted as (``Entry.administrative``) and which games had no colours
        (``Entry.colourless``).

    Raises:
        FormatError: when the file has no dates, or two positions are matched to one player.
        ValueError: when a position has no player id.
    """
    if tf.start is None or tf.end is None:
        raise format_error(
            Msg("the file gives no tournament dates; add them, e.g. DT[2026-04-11,2026-04-12]")
        )
    missing = [p.position for p in tf.players if p.position not in player_ids]
    if missing:
        raise ValueError(f"no player id for positions {missing}")
    seen: dict[PlayerId, FilePlayer] = {}
    for player in tf.players:
        pid = player_ids[player.position]
        if pid in seen:
            first = seen[pid]
            raise format_error(
                Msg(
                    "{first!r} (line {first_line}) and {second!r} (line {second_line}) are "
                    "matched to the same player; a player can appear only once",
                    first=first.name,
                    first_line=first.line,
                    second=player.name,
                    second_line=player.line,
                ),
                line=player.line,
                token=player.name,
            )
        seen[pid] = player
    time = tournament_time(tf)
    tournament = Tournament(
        id=tournament_id,
        name=tf.name,
        start=tf.start,
        end=tf.end,
        rounds=tf.rounds,
        board=tf.board,
        time=time,
        even=tf.even,
        handicap_reduction=tf.handicap_rule or 0,
        participants=len(tf.players),
        klass=(tf.class_ or "").strip().upper() or None,  # CL[b] is class B
    )
    byes: dict[int, tuple[tuple[int, ByeKind], ...]] = {}
    for bye in sorted(tf.byes, key=lambda b: b.round):
        byes[bye.player] = (*byes.get(bye.player, ()), (bye.round, bye.kind))
    administrative: dict[int, tuple[tuple[int, Outcome], ...]] = {}
    colourless: dict[int, tuple[int, ...]] = {}
    for g in tf.games:
        if not g.colour_known:
            for position in (g.black, g.white):
                colourless[position] = (*colourless.get(position, ()), g.round)
        if g.double is not None:
            for position in (g.black, g.white):
                administrative[position] = (
                    *administrative.get(position, ()),
                    (g.round, g.double),
                )
    entries = tuple(
        Entry(
            player=player_ids[p.position],
            rank=p.rank,
            registered=player_ids[p.position] in registered,
            country=p.country,
            criteria=p.criteria,
            byes=byes.get(p.position, ()),
            administrative=administrative.get(p.position, ()),
            colourless=colourless.get(p.position, ()),
            pro=p.pro,
        )
        for p in tf.players
    )
    dates = round_dates(tf.start, tf.end, tf.rounds) if tf.rounds else ()
    games = tuple(
        Game(
            id=game_id_start + index,
            black=player_ids[g.black],
            white=player_ids[g.white],
            result=g.result,
            date=dates[g.round - 1],
            stones=g.stones,
            komi=game_komi(g.stones, tf.komi),
            played=g.played,
            board=tf.board,
            time=time,
            tournament=tournament_id,
            round=g.round,
        )
        for index, g in enumerate(tf.games)
    )
    return tournament, entries, games
