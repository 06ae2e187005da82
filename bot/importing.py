"""Importing a tournament file into a club: match names, list new players, derive C, all or
nothing (formats.md; rules.md §1.2, §1.6, §4.1). Shared by ``/tournament import`` and
``hoshi import``."""

from __future__ import annotations

import dataclasses
import shlex
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import storage
from bot.core.notices import marked
from engine.formats import (
    RatingRow,
    TournamentFile,
    name_keys,
    parse_games_csv,
    parse_h9,
    parse_opengotha,
)
from engine.formats.tournament_file import game_komi, to_engine
from engine.types import Entry, Game, Tournament
from storage.db import Database
from storage.errors import Refused
from storage.records import Club, NewPlayer, Player, TournamentRow
from storage.settings import ClubSettings
from storage.tournaments import ImportResult


@dataclass(frozen=True, slots=True)
class Remedies:
    """How to go on after a refusal, in the words of where the import was asked for (a chat
    command's options, or ``hoshi import``'s flags)."""

    committee: str  # record new players' declared ranks as the committee's decision
    ratings: str  # give new players starting ratings
    country: str  # set the club's country, so that players from abroad come as guests
    multiplier: str  # set the MGSZ multiplier C by hand
    finalise: str  # rate the open tournament ({name}: its name)


CHAT = Remedies(
    committee="/tournament import committee (the declared ranks as the committee's decision)",
    ratings="register them first with a rating (/register NAME RANK RATING)",
    country="/club country HU",
    multiplier="C=NN",
    finalise="/tournament finalise {name}",
)


def cli_remedies(file: str, *, players_table: bool = False) -> Remedies:
    """``hoshi import FILE``'s remedies, naming its flags and the file (a players table gives
    its ratings in a column of its own; a tournament file takes them from ``--ratings``)."""
    command = f"hoshi import {shlex.quote(file)}"
    ratings = (
        "give their Elo in the table's rating column (name,rank,rating)"
        if players_table
        else f"{command} --ratings start.csv (starting ratings: name,rating[,rank])"
    )
    return Remedies(
        committee=f"{command} --committee (the declared ranks as the committee's decision)",
        ratings=ratings,
        country="/club country HU in hoshi console",
        multiplier="--C NN",
        finalise="/tournament finalise {name} in hoshi console (or import with --finalise)",
    )


def some(items: Sequence[str], shown: int = 3) -> str:
    """``A, B, C and 212 more``: the first few of a long list, and how many are left."""
    if len(items) <= shown:
        return ", ".join(items)
    return f"{', '.join(items[:shown])} and {len(items) - shown} more"


@dataclass(frozen=True, slots=True)
class ImportPlan:
    """What an import would write, and what the organiser should know before it does."""

    file: TournamentFile
    tournament: Tournament
    players: dict[int, int | NewPlayer]
    entries: tuple[Entry, ...]
    games: tuple[Game, ...]
    matched: tuple[tuple[str, Player], ...]
    new: tuple[NewPlayer, ...]
    notes: tuple[str, ...]


def read_file(data: bytes, filename: str = "") -> TournamentFile:
    """An EGD h9 file or an OpenGotha XML file, recognised by content, then by name."""
    head = data.lstrip()[:200].lower()
    if head.startswith((b"<?xml", b"<tournament")) or filename.lower().endswith(".xml"):
        return parse_opengotha(data)
    return parse_h9(data)


async def plan_import(
    db: Database,
    club: Club,
    tf: TournamentFile,
    *,
    settings: ClubSettings,
    manual_c: int | None = None,
    name: str | None = None,
    ratings: Sequence[RatingRow] = (),
    committee: bool = False,
    remedies: Remedies = CHAT,
) -> ImportPlan:
    """Match the file's players to the club's, decide who is new, derive the multiplier.

    New players from the club's country (setting ``country``; every new player when unset)
    join the register at their declared rank; others are guests, rated at their declared rank
    and never ranked (rules.md §1.4 step 2).

    ``ratings`` gives new players their starting rating (and rank), as ``hoshi rate
    --ratings`` does; ``committee`` records the declared ranks of new players as committee
    decisions (MGSZ: stronger than 5k without a rating, rules.md §1.5). ``remedies`` words
    what to do about a refusal for where the import was asked for.

    Raises:
        Refused: a name in the file matches several players of the club; under MGSZ, new
            players stronger than the initial-rank limit with neither a rating nor
            ``committee``.
    """
    starting: dict[str, RatingRow] = {}
    for row in ratings:
        for key in name_keys(row.name):
            starting.setdefault(key, row)
    home = settings.country
    players: dict[int, int | NewPlayer] = {}
    matched: list[tuple[str, Player]] = []
    new: list[NewPlayer] = []
    problems: list[str] = []
    scale = (await storage.ledger(db, club.id)).rating_scale()  # the system's own bounds
    if scale is not None:
        problems.extend(
            f"starting ratings line {row.line}: {row.name}'s {row.rating} is outside the {scale}"
            for row in ratings
            if row.rating not in scale
        )
    # namesakes: file players whose names match each other (case, accents, order ignored)
    shared = Counter(key for p in tf.players for key in name_keys(p.name))
    index = await _name_index(db, club)
    taken: set[str] = set()  # the keys of the new players' names so far
    for fp in tf.players:
        namesake = any(shared[key] > 1 for key in name_keys(fp.name))
        found = {p.id: p for key in name_keys(fp.name) for p in index.get(key, ())}
        if len(found) == 1 and not namesake:
            (player_found,) = found.values()
            players[fp.position] = player_found.id
            matched.append((fp.name, player_found))
            continue
        if len(found) > 1:
            listed = ", ".join(f"{p.name} ({p.rank})" for p in found.values())
            problems.append(f"line {fp.line}: {fp.name!r} matches several players: {listed}")
            continue
        name_new = fp.name
        if namesake or found:  # namesakes: tell them apart
            name_new = f"{fp.name} ({fp.club or fp.country or fp.position})"
            if name_keys(name_new) & taken or any(k in index for k in name_keys(name_new)):
                name_new = f"{fp.name} ({fp.club or fp.country or 'no club'}, {fp.position})"
        taken |= name_keys(name_new)
        guest = home is not None and fp.country is not None and fp.country != home
        start = next((starting[k] for k in name_keys(fp.name) if k in starting), None)
        player = NewPlayer(
            name_new,
            start.rank if start and start.rank else fp.rank,
            rating=start.rating if start else None,
            country=fp.country,
            home_club=fp.club,
            egd_pin=fp.egd_pin,
            committee=committee,
            guest=guest,
        )
        players[fp.position] = player
        new.append(player)
    problems.extend(await initial_rank_problems(db, club, new, remedies))
    if problems:
        raise Refused("the file cannot be imported:\n" + "\n".join(problems))
    ids = {p.position: p.position for p in tf.players}
    guests = {pos for pos, p in players.items() if isinstance(p, NewPlayer) and p.guest}
    registered = {p.position for p in tf.players} - guests
    tournament, entries, games = to_engine(tf, ids, registered, 0, 1)
    tournament = dataclasses.replace(tournament, multiplier=manual_c, name=name or tournament.name)
    notes = list(tf.warnings)  # the readers already say how many results are unknown
    notes.extend(await _rule_notes(db, club, tournament, entries, players, remedies))
    return ImportPlan(
        tf, tournament, players, entries, games, tuple(matched), tuple(new), tuple(notes)
    )


async def _name_index(db: Database, club: Club) -> dict[str, list[Player]]:
    """Every folded name key (names, aliases, either order) → the club's players holding it.

    One read of the register for the whole file: matching is a dictionary look-up per line.
    """
    index: dict[str, list[Player]] = {}
    for player in await storage.players(db, club, guests=True):
        for name in (player.name, *player.aliases):
            for key in name_keys(name):
                holders = index.setdefault(key, [])
                if player not in holders:
                    holders.append(player)
    return index


async def too_strong(db: Database, club: Club, new: Sequence[NewPlayer]) -> list[NewPlayer]:
    """The new players above the system's initial-rank limit (``RankLimit``) with neither a
    rating nor the committee's decision; none under a system without a limit."""
    limit = (await storage.ledger(db, club.id)).initial_rank_limit()
    if limit is None:
        return []
    return [
        p
        for p in new
        if not p.guest and p.rating is None and not p.committee and p.rank > limit.rank
    ]


async def initial_rank_problems(
    db: Database, club: Club, new: Sequence[NewPlayer], remedies: Remedies = CHAT
) -> list[str]:
    """New players above the system's initial-rank limit need a rating or the decision its
    rule names; a few are named, with how many more, and the ways to go on."""
    strong = await too_strong(db, club, new)
    if not strong:
        return []
    limit = (await storage.ledger(db, club.id)).initial_rank_limit()
    assert limit is not None  # too_strong found players above it
    listed = some([f"{p.name} {p.rank}" for p in strong])
    are = "players are" if len(strong) > 1 else "player is"
    return [
        f"{len(strong)} new {are} stronger than {limit.rank}: {listed}. A new player without "
        f"a rating starts at {limit.rank} at most; {limit.rule}. To go on: "
        f"{remedies.committee}, or {remedies.ratings}. Players from abroad join as guests, "
        f"at their declared rank, once the club's country is set ({remedies.country})."
    ]


async def _rule_notes(
    db: Database,
    club: Club,
    tournament: Tournament,
    entries: tuple[Entry, ...],
    players: dict[int, int | NewPlayer],
    remedies: Remedies,
) -> list[str]:
    """How the club's system weighs the tournament (MGSZ's multiplier C) and the entry
    ranks that break its rules (MGSZ §9, PSG §11), in members' words."""
    notes: list[str] = []
    ledger = await storage.ledger(db, club.id)
    known = {pos: pid for pos, pid in players.items() if isinstance(pid, int)}
    as_club = [
        dataclasses.replace(e, player=known[e.player]) for e in entries if e.player in known
    ]
    weight = ledger.tournament_weight(tournament)
    if weight is not None:
        notes.append(
            f"{weight.label}: "
            + "; ".join(weight.lines)
            + (
                ""
                if tournament.multiplier or not weight.set_by_hand
                else f" (derived from the file; set it with {remedies.multiplier})"
            )
        )
    for note in ledger.entry_notes(tournament, as_club):
        notes.append(await marked(db, club, note))
    return notes


async def apply_import(
    db: Database, club: Club, plan: ImportPlan, *, actor: str, chat: str | None
) -> ImportResult:
    """Write the tournament, its new players, entries and games in one transaction."""
    return await storage.import_tournament(
        db,
        club,
        plan.tournament,
        players=plan.players,
        games=plan.games,
        entries=plan.entries,
        actor=actor,
        chat=chat,
    )


def summary_lines(
    plan: ImportPlan, result: ImportResult | None = None, remedies: Remedies = CHAT
) -> list[str]:
    t = plan.tournament
    rated = sum(1 for g in plan.games if g.rated)
    lines = [
        f"{t.name}: {t.start.isoformat()} – {t.end.isoformat()}, {t.rounds} rounds, "
        f"{len(plan.file.players)} players, {len(plan.games)} games ({rated} to rate), "
        f"{'even' if t.even else 'handicap'}, encoding {plan.file.encoding}",
        f"Matched {len(plan.matched)} registered player(s); "
        f"{sum(1 for p in plan.new if not p.guest)} new, "
        f"{sum(1 for p in plan.new if p.guest)} guest(s).",
    ]
    if plan.new:
        lines.append(
            "New: "
            + ", ".join(
                f"{p.name} {p.rank}" + (" (guest)" if p.guest else "") for p in plan.new[:30]
            )
            + (" …" if len(plan.new) > 30 else "")
        )
    lines.extend(plan.notes)
    if result is not None:
        lines.append(
            f"Imported as tournament #{result.tournament.number}; it stays open until "
            f"{remedies.finalise.format(name=t.name)}."
        )
    return lines


async def games_from_csv(
    db: Database,
    club: Club,
    data: bytes,
    *,
    even_komi: Fraction,
    tournament: TournamentRow | None = None,
) -> list[Game]:
    """The games of a CSV table (formats.md, CSV), matched to the club's players.

    Names are matched like the register's (case, accents and order ignored). A row's
    ``tournament`` column names a tournament of the club (empty: a club game); with
    ``tournament`` given every row goes there. A missing komi follows the handicap (rules.md §5).

    Raises:
        FormatError: a malformed table. Refused: every unknown or ambiguous name and unknown
            tournament, by line; then every game the club would refuse (e.g. a player's
            second game in a round, naming the other game), by line; nothing is returned then.
    """
    index = await _name_index(db, club)
    known: dict[str, TournamentRow | None] = {}
    games: list[Game] = []
    lines: list[int] = []
    problems: list[str] = []
    for row in parse_games_csv(data):
        ids = []
        for name in (row.black, row.white):
            found = {p.id for key in name_keys(name) for p in index.get(key, ())}
            if len(found) != 1:
                problems.append(
                    f"line {row.line}: {'several players are' if found else 'no player is'}"
                    f" called {name!r}"
                )
            ids.append(next(iter(found)) if len(found) == 1 else None)
        target = tournament
        if target is None and row.tournament:
            if row.tournament not in known:
                known[row.tournament] = await storage.tournament(db, club, row.tournament)
            target = known[row.tournament]
            if target is None:
                problems.append(f"line {row.line}: there is no tournament {row.tournament!r}")
        if None in ids or (row.tournament and target is None):
            continue
        black, white = ids
        assert black is not None and white is not None
        games.append(
            Game(
                id=0,
                black=black,
                white=white,
                result=row.result,
                date=row.date,
                stones=row.stones,
                komi=row.komi if row.komi is not None else game_komi(row.stones, even_komi),
                played=row.played,
                board=target.tournament.board if target else 19,
                time=target.tournament.time if target else None,
                tournament=target.id if target else None,
                round=row.round,
                margin=row.margin,
            )
        )
        lines.append(row.line)
    if not problems:  # what recording them would refuse, every bad line named
        labels = [f"line {line}" for line in lines]
        problems = [
            f"line {lines[number - 1]}: {message}"
            for number, message in await storage.check_games(db, club, games, labels)
        ]
    if problems:
        raise Refused("nothing was recorded:\n" + "\n".join(problems[:30]))
    return games
