"""Standings of a McMahon or Swiss tournament, exactly as OpenGotha 3.51 computes them.

Source: OpenGotha 3.51.02 (github.com/lucvannier/opengotha), ``Tournament.
fillBaseScoringInfoIfNecessary`` and ``ScoredPlayer.getCritValue``/``formatScore``. Every score
is kept doubled (OpenGotha's ``...X2``; SODOS quadrupled) and shown as halves (quarters), so the
arithmetic is on integers and exact.

A player's round is one of: *paired* (a game, whatever its result, also unknown or by default),
a *bye* (unpaired for an odd count), *absent* (not participating that round) or unassigned
(participating but neither paired nor given the bye: it scores nothing).

* NBW: 1 a win, ½ a jigo, 1 to both for both-win, 0 to both for both-lose or unknown; plus the
  bye and absence points (defaults: bye 1, absent 0).
* MMS: the start MMS plus the same game points; bye 1, absent ½ by default.
* The bye/absence points are summed over the rounds and rounded *down* to whole points
  (``genRoundDownNBWMMS``, default on): one absence adds nothing to MMS, two add 1.
* SOS (``SOSW``/``SOSM``): over each round, the paired opponent's final score; an unpaired round
  (bye, absent, unassigned) counts 0 for SOSW and the player's own *start* MMS for SOSM (the
  "virtual opponent"). In SOSM an opponent who had handicap stones counts ``MMS + stones`` for
  white and ``MMS - stones`` for black (``osmX2 += 2 * handicap`` for white).
* SOSOS: over each round, the paired opponent's SOS; an unpaired round counts 0 (SOSOSW) or the
  player's start MMS times the number of rounds (SOSOSM).
* SODOS: over each round, the opponent's score (as counted in SOS) times the player's own game
  points (1, ½ or 0).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from engine.formats.tournament_file import TournamentFile
from engine.types import Outcome, Result

Absence = Literal["bye", "absent"]

# OpenGotha's placement criteria by their h9 column titles; the W/M suffix picks the score
# (NBW or MMS) that SOS, SOSOS and SODOS sum. ``SOS`` means SOSM in McMahon, SOSW in Swiss.
CRITERIA = ("NBW", "MMS", "SOSW", "SOSM", "SOSOSW", "SOSOSM", "SODOSW", "SODOSM")
Criterion = Literal["NBW", "MMS", "SOSW", "SOSM", "SOSOSW", "SOSOSM", "SODOSW", "SODOSM"]

MCMAHON_ORDER: tuple[Criterion, ...] = ("MMS", "SOSM", "SOSOSM")  # OpenGotha's McMahon default
SWISS_ORDER: tuple[Criterion, ...] = ("NBW", "SOSW", "SOSOSW")  # OpenGotha's Swiss default


@dataclass(frozen=True, slots=True)
class Scoring:
    """OpenGotha's general parameters for unpaired rounds, as doubled points (``genNBW2ValueBye``
    and the rest, defaults of ``GeneralParameterSet``)."""

    bye_nbw_x2: int = 2
    bye_mms_x2: int = 2
    absent_nbw_x2: int = 0
    absent_mms_x2: int = 1
    round_down: bool = True


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player of the tournament: ``mms_start`` is ``None`` in a Swiss tournament (0)."""

    id: int
    mms_start: int | None = None


@dataclass(frozen=True, slots=True)
class RoundGame:
    """One pairing of a round (1-based). ``result`` ``None`` is unknown unless ``double`` says
    both won (``Outcome.WIN``) or both lost (``Outcome.LOSS``). A game by default counts as
    played for the standings (OpenGotha's ``..._BYDEF`` results score as the others)."""

    round: int
    black: int
    white: int
    result: Result | None
    handicap: int = 0
    double: Outcome | None = None


@dataclass(frozen=True, slots=True)
class Unpaired:
    """A round a player did not play: ``bye`` (odd count) or ``absent`` (not participating)."""

    round: int
    player: int
    kind: Absence


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line after ``rounds`` rounds; scores as exact halves (SODOS quarters)."""

    id: int
    nbw: Fraction
    mms: Fraction
    sosw: Fraction
    sosm: Fraction
    sososw: Fraction
    sososm: Fraction
    sodosw: Fraction
    sodosm: Fraction
    place: int = 0

    def value(self, criterion: Criterion) -> Fraction:
        """The value of one criterion by its OpenGotha name."""
        return {
            "NBW": self.nbw,
            "MMS": self.mms,
            "SOSW": self.sosw,
            "SOSM": self.sosm,
            "SOSOSW": self.sososw,
            "SOSOSM": self.sososm,
            "SODOSW": self.sodosw,
            "SODOSM": self.sodosm,
        }[criterion]


def _points_x2(game: RoundGame, black: bool) -> int:
    """Doubled game points of one side (OpenGotha ``getWX2``)."""
    if game.double is Outcome.WIN:
        return 2
    if game.result is None:
        return 0
    return int(game.result.score_for(black) * 2)


def _rounded_down_x2(x2: int, scoring: Scoring) -> int:
    """The bye and absence points, rounded down to whole points when ``round_down`` is set
    (OpenGotha ``genRoundDownNBWMMS``: ``(n / 2) * 2``)."""
    return (x2 // 2) * 2 if scoring.round_down else x2


def standings(
    entrants: Sequence[Entrant],
    games: Iterable[RoundGame],
    unpaired: Iterable[Unpaired] = (),
    rounds: int | None = None,
    order: Sequence[Criterion] = MCMAHON_ORDER,
    scoring: Scoring = Scoring(),
) -> tuple[Standing, ...]:
    """The standings after ``rounds`` rounds (default: the last round with a game or an unpaired
    player), ordered by ``order`` (each criterion higher first), ties by id; tied players share a
    place.

    Raises ``ValueError`` for an unknown player, a player paired twice in a round, or a criterion
    OpenGotha does not define here."""
    for criterion in order:
        if criterion not in CRITERIA:
            raise ValueError(f"criterion must be one of {', '.join(CRITERIA)}, not {criterion}")
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise ValueError("each entrant must appear once")
    start = {e.id: e.mms_start or 0 for e in entrants}
    all_games = list(games)
    all_unpaired = list(unpaired)
    rounds_seen = [g.round for g in all_games] + [u.round for u in all_unpaired]
    last = rounds if rounds is not None else max(rounds_seen, default=0)
    played: dict[tuple[int, int], tuple[RoundGame, bool]] = {}
    for g in all_games:
        if g.round > last:
            continue
        if g.black == g.white:
            raise ValueError(f"round {g.round}: player {g.black} paired with themselves")
        for pid, black in ((g.black, True), (g.white, False)):
            if pid not in start:
                raise ValueError(f"round {g.round}: unknown player {pid}")
            if (g.round, pid) in played:
                raise ValueError(f"round {g.round}: player {pid} paired twice")
            played[(g.round, pid)] = (g, black)
    extra_nbw = dict.fromkeys(ids, 0)
    extra_mms = dict.fromkeys(ids, 0)
    for u in all_unpaired:
        if u.round > last or (u.round, u.player) in played:
            continue
        if u.player not in start:
            raise ValueError(f"round {u.round}: unknown player {u.player}")
        bye = u.kind == "bye"
        extra_nbw[u.player] += scoring.bye_nbw_x2 if bye else scoring.absent_nbw_x2
        extra_mms[u.player] += scoring.bye_mms_x2 if bye else scoring.absent_mms_x2

    nbw = {p: _rounded_down_x2(extra_nbw[p], scoring) for p in ids}
    mms = {p: 2 * start[p] + _rounded_down_x2(extra_mms[p], scoring) for p in ids}
    for (_, pid), (g, black) in played.items():
        nbw[pid] += _points_x2(g, black)
        mms[pid] += _points_x2(g, black)

    def opponents(pid: int) -> list[tuple[int, int, int] | None]:
        """Per round: (opponent, handicap sign-adjusted for SOSM, own points x2), or None."""
        out: list[tuple[int, int, int] | None] = []
        for r in range(1, last + 1):
            entry = played.get((r, pid))
            if entry is None:
                out.append(None)
                continue
            g, black = entry
            opp = g.white if black else g.black
            out.append((opp, -g.handicap if black else g.handicap, _points_x2(g, black)))
        return out

    rounds_of = {p: opponents(p) for p in ids}
    sosw: dict[int, int] = {}
    sosm: dict[int, int] = {}
    sodosw: dict[int, int] = {}
    sodosm: dict[int, int] = {}
    for p in ids:
        sosw[p] = sosm[p] = sodosw[p] = sodosm[p] = 0
        for item in rounds_of[p]:
            if item is None:
                sosm[p] += 2 * start[p]
                continue
            opp, hd, own = item
            osm = mms[opp] + 2 * hd
            sosw[p] += nbw[opp]
            sosm[p] += osm
            sodosw[p] += nbw[opp] * own
            sodosm[p] += osm * own
    sososw: dict[int, int] = {}
    sososm: dict[int, int] = {}
    for p in ids:
        sososw[p] = sososm[p] = 0
        for item in rounds_of[p]:
            if item is None:
                sososm[p] += 2 * start[p] * last
                continue
            sososw[p] += sosw[item[0]]
            sososm[p] += sosm[item[0]]

    half, quarter = Fraction(1, 2), Fraction(1, 4)
    lines = [
        Standing(
            id=p,
            nbw=nbw[p] * half,
            mms=mms[p] * half,
            sosw=sosw[p] * half,
            sosm=sosm[p] * half,
            sososw=sososw[p] * half,
            sososm=sososm[p] * half,
            sodosw=sodosw[p] * quarter,
            sodosm=sodosm[p] * quarter,
        )
        for p in ids
    ]
    return _placed(lines, tuple(order))


def _placed(lines: list[Standing], order: tuple[Criterion, ...]) -> tuple[Standing, ...]:
    """Sorted by the criteria (higher first), then id; equal criteria share a place
    (OpenGotha ``positionStrings``)."""

    def key(s: Standing) -> tuple[Fraction, ...]:
        return tuple(-s.value(c) for c in order)

    ranked = sorted(lines, key=lambda s: (key(s), s.id))
    out: list[Standing] = []
    for i, s in enumerate(ranked):
        tied = i > 0 and key(ranked[i - 1]) == key(s)
        place = out[-1].place if tied else i + 1
        out.append(replace(s, place=place))
    return tuple(out)


def h9_text(value: Fraction, quarters: bool = False) -> str:
    """A criterion as OpenGotha writes it into an h9 column (``ScoredPlayer.formatScore``, then
    at most 4 characters): whole part, then ``½`` (``¼``, ``¾`` for SODOS), e.g. ``12½``."""
    coef = 4 if quarters else 2
    scaled = value * coef
    if scaled.denominator != 1:
        raise ValueError(f"a criterion is a multiple of 1/{coef}, not {value}")
    n = scaled.numerator
    whole = abs(n) // coef * (1 if n >= 0 else -1)  # Java's / truncates toward zero
    frac = abs(n) % coef * (1 if n >= 0 else -1)
    marks: Mapping[int, str] = {1: "½"} if coef == 2 else {1: "¼", 2: "½", 3: "¾"}
    return (str(whole) + marks.get(frac, ""))[:4]


def from_file(
    tf: TournamentFile, mms_start: Mapping[int, int] | None = None
) -> tuple[tuple[Entrant, ...], tuple[RoundGame, ...], tuple[Unpaired, ...]]:
    """A results file's players (by position), games and unplayed rounds as standings input.

    An h9 McMahon round without opponent is written from its MMS points (OpenGotha
    ``halfGamesStrings``): ``0+`` a bye, ``0=`` an absence (½ by default), ``0-`` unassigned, which
    scores nothing and is left out. ``mms_start`` maps positions to start MMS (``None``: Swiss)."""
    starts = mms_start or {}
    entrants = tuple(Entrant(p.position, starts.get(p.position)) for p in tf.players)
    games = tuple(
        RoundGame(g.round, g.black, g.white, g.result, g.stones, g.double) for g in tf.games
    )
    kinds: dict[str, Absence] = {"win": "bye", "half": "absent"}
    unpaired = tuple(
        Unpaired(b.round, b.player, kinds[b.kind]) for b in tf.byes if b.kind in kinds
    )
    return entrants, games, unpaired
