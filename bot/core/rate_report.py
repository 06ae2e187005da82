"""``hoshi rate``: rate one finished tournament file offline (issue 1/6, item 4).

The organiser's calculator: a tournament file (EGD h9 or OpenGotha XML) plus an optional table
of starting ratings in, every player's before/after values out. Pure composition of engine
parts; the CLI in :mod:`bot.__main__` reads the files and prints.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot import system_names
from bot.core import format as fmt
from bot.core.replies import Table
from bot.i18n import N_, _, _n, translated
from engine.formats import RatingRow, TournamentFile, name_keys, parse_h9, parse_opengotha
from engine.formats.tournament_file import to_engine
from engine.ranks import Rank
from engine.ratings import Rating, decimal_text
from engine.system import Card, RatingSystem
from engine.systems import SYSTEMS
from engine.timecontrol import TimeControl
from engine.types import DayEnded, Importance, Registered, Tournament, TournamentRated

# TRANSLATORS: the column heads of `hoshi rate`'s table: place, name, rank before, starting
# value, where it came from (csv/rank), rated games, change, new value, rank after; keep them short
HEADER = (
    N_("Pl"),
    N_("Name"),
    N_("Rank"),
    N_("Start"),
    N_("from"),
    N_("Gm"),
    N_("Change"),
    N_("New"),
    N_("Rank"),
)
START_FROM = {
    # TRANSLATORS: a player's starting value came from the --ratings table
    "csv": N_("csv"),
    # TRANSLATORS: a player's starting value came from the declared rank
    "rank": N_("rank"),
}

IMPORTANCE_FLAGS = {
    "invitational": "invitational_or_national_championship",
    "championship": "invitational_or_national_championship",
    "hungarian": "invitational_or_national_championship",
    "european": "european_or_world_championship",
    "world": "european_or_world_championship",
    "ec": "european_or_world_championship",
    "wc": "european_or_world_championship",
}


@dataclass(frozen=True, slots=True)
class MultiplierInputs:
    """``--C``, ``--time``, ``--participants``, ``--importance`` (all optional)."""

    manual: int | None = None
    time: TimeControl | None = None
    participants: int | None = None
    importance: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RatedPlayer:
    position: int
    name: str
    rank_before: Rank
    rating_before: int | Fraction | str | None
    start_from: str
    games: int
    change: int | Fraction | str | None
    """The change as a number; ``None`` when a value that is no number stayed the same,
    :data:`CHANGED` when it changed."""
    rating_after: int | Fraction | str | None
    rank_after: Rank
    note: str = ""


@dataclass(frozen=True, slots=True)
class RateReport:
    system: str
    tournament: str
    encoding: str
    multiplier_lines: tuple[str, ...]
    players: tuple[RatedPlayer, ...]
    warnings: tuple[str, ...]

    def as_json(self) -> str:
        rows = [
            {
                "name": p.name,
                "rank_before": str(p.rank_before),
                "rating_before": _jsonable(p.rating_before),
                "start_from": p.start_from,
                "games": p.games,
                "change": _json_change(p),
                "rating_after": _jsonable(p.rating_after),
                "rank_after": str(p.rank_after),
                **({"note": p.note} if p.note else {}),
            }
            for p in self.players
        ]
        return json.dumps(rows, ensure_ascii=False, indent=2)

    def as_table(self) -> str:
        """The report as a text table in the current language (:mod:`bot.i18n`)."""
        header = tuple(_(head) for head in HEADER)
        rows = [
            (
                fmt.value(p.position),
                p.name,
                str(p.rank_before),
                _text(p.rating_before),
                _(START_FROM[p.start_from]) if p.start_from in START_FROM else p.start_from,
                fmt.value(p.games),
                _change(p.change),
                _text(p.rating_after),
                str(p.rank_after) + (" ↑" if p.rank_after > p.rank_before else ""),
            )
            for p in self.players
        ]
        # one renderer of tables for every reply (display widths: a Japanese name takes two
        # columns a character)
        table = Table(header, tuple(rows), align="rlrrlrrrl")
        out = [
            _(
                "{tournament} — rated under {system}",
                tournament=self.tournament,
                system=translated(system_names.title(self.system)),
            ),
            *(translated(text) for text in self.multiplier_lines),
            "",
        ]
        out += table.lines()
        notes = [f"{p.name}: {translated(p.note)}" for p in self.players if p.note]
        warnings = [translated(warning) for warning in self.warnings]
        out += ["", *warnings, *notes] if warnings or notes else []
        return "\n".join(out)


def read_tournament(data: bytes, filename: str = "") -> TournamentFile:
    """Parse an EGD h9 file or an OpenGotha XML file (by its content, then its name)."""
    head = data.lstrip()[:200].lower()
    if head.startswith((b"<?xml", b"<tournament")) or filename.endswith(".xml"):
        return parse_opengotha(data)
    return parse_h9(data)


def rate(
    tf: TournamentFile,
    system_key: str,
    ratings: Sequence[RatingRow] = (),
    inputs: MultiplierInputs = MultiplierInputs(),
) -> RateReport:
    """Rate ``tf`` under ``system_key`` from the starting ``ratings``.

    Players found in ``ratings`` (by name, accent- and case-insensitive, either name order)
    start from that rating (and rank, when given); the others start from their declared rank:
    the rank table value under MGSZ (rules.md §1.4), the initial points under Tensuusei.
    """
    system = SYSTEMS[system_key]()
    by_key: dict[str, RatingRow] = {}
    for row in ratings:
        for key in name_keys(row.name):
            by_key.setdefault(key, row)
    starting: dict[int, RatingRow | None] = {}
    for player in tf.players:
        starting[player.position] = next(
            (by_key[k] for k in name_keys(player.name) if k in by_key), None
        )
    # the system's own scale says which ratings it can start from (the engine knows it)
    scale = system.rating_scale()
    ignored: list[str] = []
    if scale is None and any(row.rating is not None for row in ratings):
        ignored.append(
            _(
                "{option}: the ratings are ignored ({system} counts its values from games "
                "alone); only its ranks count",
                option="--ratings",
                system=system_names.title(system_key),
            )
        )
    usable: dict[int, Rating | None] = {}
    for player in tf.players:
        given = starting[player.position]
        if given is None or scale is None:
            usable[player.position] = None
        elif given.rating in scale:
            usable[player.position] = given.rating
        else:
            usable[player.position] = None
            rank = given.rank or player.rank
            ignored.append(
                _(
                    "{option} line {line}: {player}'s {rating} is outside the {scale}, so it "
                    "is ignored: the player starts from the rank {rank}",
                    option="--ratings",
                    line=given.line,
                    player=player.name,
                    rating=decimal_text(given.rating),
                    scale=scale,
                    rank=rank,
                )
            )
    tournament, entries, games = to_engine(
        tf, {p.position: p.position for p in tf.players}, {p.position for p in tf.players}, 1, 1
    )
    tournament, lines = _with_weight(system, tournament, tf, inputs)
    for player in tf.players:
        given = starting[player.position]
        system.apply(
            Registered(
                player=player.position,
                rank=given.rank if given and given.rank else player.rank,
                date=tournament.start,
                rating=usable[player.position],
                country=player.country,
                committee=True,  # the organiser rating offline is the committee (§1.5)
                pro=0 if given and given.rank else player.pro,
            )
        )
    before = {p.position: system.card(p.position) for p in tf.players}
    changes = system.apply(TournamentRated(tournament, entries, games)).changes
    # Tensuusei settles the days (§2.3)
    changes += system.apply(DayEnded(tournament.end)).changes
    # the per-player note matters only when the tournament was split (rules.md §1.4)
    notes = {c.player: c.note for c in changes if "parts" in c.note}
    after = {p.position: system.card(p.position) for p in tf.players}
    rated: list[RatedPlayer] = []
    for player in tf.players:
        b, a = before[player.position], after[player.position]
        rated.append(
            RatedPlayer(
                position=player.position,
                name=player.name,
                rank_before=b.rank,
                rating_before=b.rating,
                start_from="csv" if usable[player.position] is not None else "rank",
                games=sum(1 for g in games if g.rated and player.position in (g.black, g.white)),
                change=_difference(b, a),
                rating_after=a.rating,
                rank_after=a.rank,
                note=notes.get(player.position, ""),
            )
        )
    warnings = [*tf.warnings, *ignored]
    if tf.unknown_results:
        warnings.append(
            _n(
                "{n} game with an unknown result (?) was not rated",
                "{n} games with an unknown result (?) were not rated",
                tf.unknown_results,
            )
        )
    return RateReport(
        system_key, tf.name, tf.encoding, tuple(lines), tuple(rated), tuple(warnings)
    )


def _with_weight(
    system: RatingSystem, tournament: Tournament, tf: TournamentFile, inputs: MultiplierInputs
) -> tuple[Tournament, list[str]]:
    """Apply the weight flags (``--C``, ``--time``, ``--participants``, ``--importance``) and,
    under a system that weighs tournaments (MGSZ's multiplier C, rules.md §1.2), say how it
    weighs this one and where every input came from."""
    flags = {IMPORTANCE_FLAGS[f] for f in inputs.importance}
    importance = Importance(
        invitational_or_national_championship="invitational_or_national_championship" in flags,
        european_or_world_championship="european_or_world_championship" in flags,
    )
    time = inputs.time or tournament.time
    participants = inputs.participants or tournament.participants
    tournament = dataclasses.replace(
        tournament,
        time=time,
        participants=participants,
        importance=importance,
        multiplier=inputs.manual,
    )
    weight = system.tournament_weight(tournament)
    if weight is None:
        return tournament, []
    sources: list[str] = []
    if inputs.manual is not None:
        sources.append(_("C = {value} from {option}", value=inputs.manual, option="--C"))
    else:
        if inputs.time:
            sources.append(_("time {time} from {option}", time=time, option="--time"))
        elif tf.time_minutes is not None:
            sources.append(_("time {time} from the file ({key})", time=time, key="TM"))
        else:
            sources.append(_("time {time} from the file's time control", time=time))
        even_from = f"HA[h{tf.handicap_rule}]" if tf.handicap_rule is not None else None
        if tournament.even:
            sources.append(
                _("even tournament from {key}", key=even_from)
                if even_from
                else _("even tournament from the games' stones (no HA key)")
            )
        else:
            sources.append(
                _("handicap tournament from {key}", key=even_from)
                if even_from
                else _("handicap tournament from the games' stones (no HA key)")
            )
        if inputs.participants:
            sources.append(
                _n(
                    "{n} participant from {option}",
                    "{n} participants from {option}",
                    inputs.participants,
                    option="--participants",
                )
            )
        else:
            sources.append(
                _n(
                    "{n} participant from the file's player lines",
                    "{n} participants from the file's player lines",
                    participants or 0,
                )
            )
        if inputs.importance:
            sources.append(
                _(
                    "importance from {option}",
                    option="--importance " + ",".join(inputs.importance),
                )
            )
    lines: list[str] = [
        _(
            "{label}: {how}",
            label=weight.label,
            how="; ".join(translated(line) for line in weight.lines),
        ),
        _("Inputs: {sources}", sources="; ".join(sources)),
    ]
    return tournament, lines


def _difference(before: Card, after: Card) -> int | Fraction | str | None:
    b, a = _number(before.rating), _number(after.rating)
    if b is None or a is None:
        return None if before.rating == after.rating else CHANGED
    delta = a - b
    return delta.numerator if delta.denominator == 1 else delta


def _change(change: int | Fraction | str | None) -> str:
    """A change in the table: signed in the reader's language, or in words."""
    if change is None:
        return ""
    return _("changed") if change == CHANGED else fmt.signed(change)


CHANGED = "changed"
"""A change that is no number (a value that is no number before or after); said in words."""


def _number(value: int | Fraction | str | None) -> Fraction | None:
    """A card's rating as an exact number (Swedish totals are exact decimal strings)."""
    if value is None:
        return None
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError):
        return None


def _text(value: int | Fraction | str | None) -> str:
    """A rating in the reader's language (1720, 37,5)."""
    number = _number(value) if isinstance(value, str) else value
    return fmt.value(number if number is not None else value)


def _json_change(player: RatedPlayer) -> int | str | float | None:
    """The change as a JSON number (``7``, ``-2.5``), never a signed text; ``null`` for none,
    and the word only where a value that is no number changed."""
    before, after = _number(player.rating_before), _number(player.rating_after)
    if before is None or after is None:
        return _jsonable(player.change or None)
    return _jsonable(after - before)


def _jsonable(value: int | Fraction | str | None) -> int | str | float | None:
    """A value for ``--json``: a number as a JSON number (a Swedish total "37.25" too), a
    word as a string."""
    number = _number(value) if isinstance(value, str) else value
    if isinstance(number, Fraction):
        return number.numerator if number.denominator == 1 else float(number)
    if number is None:
        return value if isinstance(value, str) else None
    return number
