"""Importing a tournament file into a club: match names, list new players, derive C, all or
nothing (formats.md; rules.md §1.2, §1.6, §4.1). Shared by ``/tournament import`` and
``hoshi import``."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import storage
from bot.config import GivenOptions
from bot.core import format as fmt
from bot.core.errors import reason
from bot.core.notices import marked
from bot.i18n import N_, _, _n, date_text, quoted, translated
from engine.formats import (
    RatingRow,
    TournamentFile,
    fold_name,
    name_keys,
    name_variants,
    parse_games_csv,
    parse_h9,
    parse_opengotha,
)
from engine.formats.h9 import kept_header
from engine.formats.tournament_file import FilePlayer, game_komi, to_engine
from engine.ratings import Rating, decimal_text, parse_rating
from engine.text import Msg
from engine.types import Entry, Game, Tournament
from storage.db import Database
from storage.errors import Refused
from storage.records import Club, NewPlayer, Player, TournamentRow
from storage.settings import ClubSettings
from storage.tournaments import ImportResult


@dataclass(frozen=True, slots=True)
class Remedies:
    """How to go on after a refusal, in the words of where the import was asked for (a chat
    command's options, or ``hoshi import``'s flags). Each is a text a catalogue translates
    (a :class:`~engine.text.Msg`, or a command typed as it is); ``finalise`` is a template
    shown with ``_(remedies.finalise, name=..., console=remedies.console)``."""

    committee: str  # record new players' declared ranks as the committee's decision
    ratings: str  # give new players starting ratings
    country: str  # set the club's country, so that players from abroad come as guests
    multiplier: str  # set the MGSZ multiplier C by hand
    finalise: str  # rate the open tournament ({name}: its name)
    again: str = "/tournament import again"  # record a file whose games are recorded already
    rename: str = "name=…"  # give the tournament another name
    confirm: str = "/tournament import confirm"  # names in another word order: the same people
    console: str = "hoshi console"  # the console command, with the command line's options


CHAT = Remedies(
    committee=Msg(
        "{command} (the declared ranks as the committee's decision)",
        command="/tournament import committee",
    ),
    ratings=Msg(
        "register them first with a rating ({example})", example="/register NAME RANK RATING"
    ),
    country="/club country HU",
    multiplier="C=NN",
    finalise="/tournament finalise {name}",
)


def chat_remedies(typed: str) -> Remedies:
    """``/tournament import``'s remedies, ``again`` as the organiser typed the command
    (``typed``: its first line, e.g. ``import C=20``), with the file again."""
    again = f"/tournament {typed.strip()} again"
    confirm = f"/tournament {typed.strip()} confirm"
    return dataclasses.replace(
        CHAT,
        again=_("{command} (with the file again)", command=again),
        confirm=_("{command} (with the file again)", command=confirm),
    )


def cli_remedies(
    file: str,
    *,
    players_table: bool = False,
    flags: Sequence[str] = (),
    given: GivenOptions | None = None,
) -> Remedies:
    """``hoshi import FILE``'s remedies, naming its flags and the file (a players table gives
    its ratings in a column of its own; a tournament file takes them from ``--ratings``);
    ``flags`` are the ones given, repeated in the commands that record a file again and that
    confirm its names in another word order; every command keeps the options ``given``
    (``--db``, ``--config``, ``--club``)."""
    given = given or GivenOptions()

    def command(*more: str) -> str:
        return given.command("import", file, *more)

    console = given.command("console")
    ratings = (
        _("give their Elo in the table's rating column ({columns})", columns="name,rank,rating")
        if players_table
        else _(
            "{command} (starting ratings: {columns})",
            command=command("--ratings", "start.csv"),
            columns="name,rating[,rank]",
        )
    )
    return Remedies(
        committee=_(
            "{command} (the declared ranks as the committee's decision)",
            command=command("--committee"),
        ),
        ratings=ratings,
        country=_("{command} in {console}", command="/club country HU", console=console),
        multiplier="--C NN",
        finalise=N_("/tournament finalise {name} in {console} (or import with --finalise)"),
        again=command(*flags, "--again"),
        rename="--name=NAME",
        confirm=command(*flags, "--confirm"),
        console=console,
    )


def some(items: Sequence[str], shown: int = 3) -> str:
    """``A, B, C and 212 more``: the first few of a long list, and how many are left."""
    if len(items) <= shown:
        return ", ".join(items)
    return _n(
        "{items} and {n} more",
        "{items} and {n} more",
        len(items) - shown,
        items=", ".join(items[:shown]),
    )


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
    again: bool = False,
    confirm: bool = False,
) -> ImportPlan:
    """Match the file's players to the club's, decide who is new, derive the multiplier.

    New players from the club's country (setting ``country``; every new player when unset)
    join the register at their declared rank; others are guests, rated at their declared rank
    and never ranked (rules.md §1.4 step 2).

    ``ratings`` gives new players their starting rating (and rank), as ``hoshi rate
    --ratings`` does; ``committee`` records the declared ranks of new players as committee
    decisions (MGSZ: stronger than 5k without a rating, rules.md §1.5). ``remedies`` words
    what to do about a refusal for where the import was asked for.

    A file's name matches a club player written as one of their names (case and accents
    aside); one that matches only in another word order (the file's Anna Kiss, the club's
    Kiss Anna) is asked about (:func:`refuse_reordered`) unless ``confirm``.

    Raises:
        Refused: a name in the file matches several players of the club; under MGSZ, new
            players stronger than the initial-rank limit with neither a rating nor
            ``committee``; without ``confirm``, a name matches a club player only in another
            word order; the file's games are recorded already (a file imported twice) and
            not ``again``.
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
    ledger = await storage.ledger(db, club.id)
    scale = ledger.rating_scale()  # the system's own bounds
    titles = ledger.file_rating_titles  # the file's column of the system's own rating
    if scale is not None:
        problems.extend(
            _(
                "starting ratings line {line}: {player}'s {rating} is outside the {scale}",
                line=row.line,
                player=row.name,
                rating=decimal_text(row.rating),
                scale=scale,
            )
            for row in ratings
            if row.rating not in scale
        )
    # namesakes: file players whose names match each other (case, accents, order ignored)
    shared = Counter(key for p in tf.players for key in name_keys(p.name))
    index = await _name_index(db, club)
    taken: set[str] = set()  # the keys of the new players' names so far
    reordered: list[Reordered] = []  # matched only in another word order
    for fp in tf.players:
        namesake = any(shared[key] > 1 for key in name_keys(fp.name))
        found = {p.id: p for key in name_keys(fp.name) for p in index.get(key, ())}
        if len(found) == 1 and not namesake:
            (player_found,) = found.values()
            players[fp.position] = player_found.id
            matched.append((fp.name, player_found))
            if in_another_order(fp.name, player_found):
                reordered.append(Reordered([fp.line], fp.name, player_found, fp.club))
            continue
        if len(found) > 1:
            listed = ", ".join(f"{p.name} ({p.rank})" for p in found.values())
            problems.append(
                _(
                    "line {line}: {name} matches several players: {players}",
                    line=fp.line,
                    name=quoted(fp.name),
                    players=listed,
                )
            )
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
            rating=start.rating if start else _file_rating(fp, titles, problems),
            country=fp.country,
            home_club=fp.club,
            egd_pin=fp.egd_pin,
            committee=committee,
            guest=guest,
            pro=0 if start and start.rank else fp.pro,
        )
        players[fp.position] = player
        new.append(player)
    problems.extend(await initial_rank_problems(db, club, new, remedies))
    if problems:
        raise Refused(_("the file cannot be imported:\n{problems}", problems="\n".join(problems)))
    if not confirm:
        refuse_reordered(reordered, remedies)
    ids = {p.position: p.position for p in tf.players}
    guests = {pos for pos, p in players.items() if isinstance(p, NewPlayer) and p.guest}
    registered = {p.position for p in tf.players} - guests
    tournament, entries, games = to_engine(tf, ids, registered, 0, 1)
    tournament = dataclasses.replace(tournament, multiplier=manual_c, name=name or tournament.name)
    if not again:  # a file imported twice: its games between the club's players
        known = []
        for g in games:
            black, white = players[g.black], players[g.white]
            if isinstance(black, int) and isinstance(white, int):
                known.append(dataclasses.replace(g, black=black, white=white))
        name_taken = await storage.tournament(db, club, tournament.name) is not None
        await refuse_recorded(
            db,
            club,
            known,
            [_("round {round}", round=g.round) for g in known],
            remedies,
            name_taken=name_taken,
        )
    notes = list(tf.warnings)  # the readers already say how many results are unknown
    notes.extend(await _rule_notes(db, club, tournament, entries, players, remedies))
    return ImportPlan(
        tf, tournament, players, entries, games, tuple(matched), tuple(new), tuple(notes)
    )


SHOWN_RECORDED = 10
"""How many already recorded games a refusal lists (then: "and N more")."""


async def refuse_recorded(
    db: Database,
    club: Club,
    games: Sequence[Game],
    labels: Sequence[str],
    remedies: Remedies,
    *,
    name_taken: bool = False,
) -> None:
    """A file whose games the club has already (issue 22, item 1): refused as a whole,
    every such game named by the file's label (``line 3``, ``round 2``) and the club's game
    it looks like (its number, day, players, result and tournament), with the way to record
    them anyway (``remedies.again``; and another name when ``name_taken``).

    Raises:
        Refused: some of ``games`` look like live games of the club entered again.
    """
    found = await storage.recorded_already(db, club, games)
    if not found:
        return
    names = {p.id: p.name for p in await storage.players(db, club, guests=True)}
    events = {t.id: t for t in await storage.tournaments(db, club)}
    lines = []
    for number, rows in found[:SHOWN_RECORDED]:
        like = []
        for row in rows:
            game = row.game
            text = _(
                "#{number} {day}, {black} (B) – {white} (W): {result}",
                number=row.number,
                day=date_text(game.date),
                black=names.get(game.black, "?"),
                white=names.get(game.white, "?"),
                result=fmt.result(game),
            )
            held = events.get(game.tournament) if game.tournament is not None else None
            if held is not None:
                text = _(
                    "{game} ({tournament}, tournament #{number})",
                    game=text,
                    tournament=held.tournament.name,
                    number=held.number,
                )
            like.append(text)
        lines.append(f"{labels[number - 1]}: {'; '.join(like)}")
    if len(found) > SHOWN_RECORDED:
        lines.append(_n("… and {n} more", "… and {n} more", len(found) - SHOWN_RECORDED))
    n, total = len(found), len(games)
    if n == total:
        head = _n(
            "the file's game is already recorded:",
            "all {n} games of the file are already recorded:",
            n,
        )
    else:
        head = _n(
            "{n} of the file's {total} games is already recorded:",
            "{n} of the file's {total} games are already recorded:",
            n,
            total=total,
        )
    command = f"{remedies.again} {remedies.rename}" if name_taken else remedies.again
    tail = _n(
        "Nothing was recorded. If it is another game, record it anyway: {command}",
        "Nothing was recorded. If they are other games, record them anyway: {command}",
        n,
        command=command,
    )
    raise Refused("\n".join([head, *lines, tail]))


@dataclass(frozen=True, slots=True)
class Reordered:
    """A file's name that matches a club player only in another word order, where it stands
    in the file (``lines``) and the file's club of that player (for a name telling two apart)."""

    lines: list[int]
    name: str
    player: Player
    club: str | None = None


def _as_written(name: str) -> str:
    """A name folded in its own word order (``"Schmidt, Jonas"`` → ``schmidt jonas``)."""
    return fold_name(" ".join(name_variants(name)[:1]))


def in_another_order(name: str, player: Player) -> bool:
    """Whether ``name`` (found as ``player`` by a word-order-insensitive key) is none of the
    player's names or aliases as written, but one in another order (Anna Kiss, Kiss Anna)."""
    return _as_written(name) not in {_as_written(each) for each in (player.name, *player.aliases)}


def refuse_reordered(found: Sequence[Reordered], remedies: Remedies) -> None:
    """A file's names that are club players' names only in another word order (issue 22,
    names and pairs): the same person written the other way, or a new one? Refused as a
    whole, each pair named once (with the lines it stands on), with both ways on: confirm
    them as the same people (``remedies.confirm``), or correct the file's names.

    Raises:
        Refused: ``found`` is not empty.
    """
    if not found:
        return
    lines = []
    for each in found[:SHOWN_RECORDED]:
        where = _n(
            "line {lines}",
            "lines {lines}",
            len(each.lines),
            lines=some([str(line) for line in each.lines], shown=5),
        )
        lines.append(
            _(
                "{where}: the file's {name} would be {player} ({rank}, since {date}), the "
                "names in another order",
                where=where,
                name=each.name,
                player=each.player.name,
                rank=str(each.player.rank),
                date=date_text(each.player.date),
            )
        )
    if len(found) > SHOWN_RECORDED:
        lines.append(_n("… and {n} more", "… and {n} more", len(found) - SHOWN_RECORDED))
    n = len(found)
    head = _n(
        "{n} name in the file is a club player's name in another order:",
        "{n} names in the file are club players' names in another order:",
        n,
    )
    # TRANSLATORS: a town, added to a new player's name to tell them from a club player
    town = found[0].club or _("Szeged")
    tail = _n(
        "Nothing was recorded. If it is the same person, say so: {command}; if not, correct "
        "the name in the file (a new player needs a name that tells the two apart, e.g. "
        "{example}).",
        "Nothing was recorded. If they are the same people, say so: {command}; if not, "
        "correct the names in the file (a new player needs a name that tells them apart, "
        "e.g. {example}).",
        n,
        command=remedies.confirm,
        example=f"{found[0].name} ({town})",
    )
    raise Refused("\n".join([head, *lines, tail]))


def _file_rating(fp: FilePlayer, titles: Sequence[str], problems: list[str]) -> Rating | None:
    """The file's own column of the club system's rating for a new player (an h9's GoR,
    kept exactly to 3 decimals, rules.md §6); ``None`` without one. A value that cannot be
    read is a problem of the import, named with its line."""
    wanted = {title.casefold() for title in titles}
    for title, text in fp.criteria:
        if title.casefold() not in wanted or text.strip() in ("", "-"):
            continue
        try:
            return parse_rating(text)
        except ValueError as exc:
            problems.append(
                _(
                    "line {line}: {name}'s {title} {value}: {reason}",
                    line=fp.line,
                    name=fp.name,
                    title=title,
                    value=text,
                    reason=reason(exc, _("cannot read {text}", text=quoted(text))),
                )
            )
            return None
    return None


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
    return [
        _n(
            "{n} new player is stronger than {limit}: {players}. A new player without a rating "
            "starts at {limit} at most; {rule}. To go on: {committee}, or {ratings}. Players "
            "from abroad join as guests, at their declared rank, once the club's country is "
            "set ({country}).",
            "{n} new players are stronger than {limit}: {players}. A new player without a "
            "rating starts at {limit} at most; {rule}. To go on: {committee}, or {ratings}. "
            "Players from abroad join as guests, at their declared rank, once the club's "
            "country is set ({country}).",
            len(strong),
            limit=limit.rank,
            players=some([f"{p.name} {p.rank}" for p in strong]),
            rule=limit.rule,
            committee=remedies.committee,
            ratings=remedies.ratings,
            country=remedies.country,
        )
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
        how = "; ".join(translated(line) for line in weight.lines)
        if tournament.multiplier or not weight.set_by_hand:
            notes.append(_("{label}: {how}", label=weight.label, how=how))
        else:
            notes.append(
                _(
                    "{label}: {how} (derived from the file; set it with {remedy})",
                    label=weight.label,
                    how=how,
                    remedy=remedies.multiplier,
                )
            )
    for note in ledger.entry_notes(tournament, as_club):
        notes.append(await marked(db, club, note))
    return notes


async def apply_import(
    db: Database, club: Club, plan: ImportPlan, *, actor: str, chat: str | None
) -> ImportResult:
    """Write the tournament, its new players, entries and games in one transaction; the
    file's header facts the tournament does not hold itself (place, code, komi, comments …)
    are kept with it for its export."""
    return await storage.import_tournament(
        db,
        club,
        plan.tournament,
        players=plan.players,
        games=plan.games,
        entries=plan.entries,
        actor=actor,
        chat=chat,
        notes=kept_header(plan.file) or None,
    )


def summary_lines(
    plan: ImportPlan, result: ImportResult | None = None, remedies: Remedies = CHAT
) -> list[str]:
    """What an import found (and, with ``result``, did), a line each, in the current language."""
    t = plan.tournament
    rated = sum(1 for g in plan.games if g.rated)
    # TRANSLATORS: the kind of a tournament in an import's summary: no handicap
    even = _("even")
    # TRANSLATORS: the kind of a tournament in an import's summary: handicap games
    handicap = _("handicap")
    lines: list[str] = [
        _(
            "{tournament}: {start} – {end}, {rounds}, {players}, {games}, {kind}, "
            "encoding {encoding}",
            tournament=t.name,
            start=t.start.isoformat(),
            end=t.end.isoformat(),
            rounds=_n("{n} round", "{n} rounds", t.rounds),
            players=_n("{n} player", "{n} players", len(plan.file.players)),
            games=_n(
                "{n} game ({rated} to rate)",
                "{n} games ({rated} to rate)",
                len(plan.games),
                rated=rated,
            ),
            kind=even if t.even else handicap,
            encoding=plan.file.encoding,
        ),
        # TRANSLATORS: counts of an import's players: already registered, new, guests
        _(
            "Matched {matched}; {new}, {guests}.",
            matched=_n("{n} registered player", "{n} registered players", len(plan.matched)),
            new=_n("{n} new", "{n} new", sum(1 for p in plan.new if not p.guest)),
            guests=_n("{n} guest", "{n} guests", sum(1 for p in plan.new if p.guest)),
        ),
    ]
    if plan.new:
        shown = ", ".join(
            _("{player} (guest)", player=f"{p.name} {p.rank}") if p.guest else f"{p.name} {p.rank}"
            for p in plan.new[:30]
        )
        lines.append(_("New: {players}", players=shown + (" …" if len(plan.new) > 30 else "")))
    lines.extend(translated(note) for note in plan.notes)
    if result is not None:
        lines.append(
            _(
                "Imported as tournament #{number}; it stays open until {remedy}.",
                number=result.tournament.number,
                remedy=_(remedies.finalise, name=t.name, console=remedies.console),
            )
        )
    return lines


async def games_from_csv(
    db: Database,
    club: Club,
    data: bytes,
    *,
    even_komi: Fraction,
    tournament: TournamentRow | None = None,
    again: bool = False,
    remedies: Remedies = CHAT,
    confirm: bool = False,
) -> list[Game]:
    """The games of a CSV table (formats.md, CSV), matched to the club's players.

    Names are matched like the register's (case, accents and order ignored); one that is a
    club player's name only in another word order is asked about unless ``confirm``
    (:func:`refuse_reordered`). A row's
    ``tournament`` column names a tournament of the club (empty: a club game); with
    ``tournament`` given every row goes there. A missing komi follows the handicap (rules.md §5).

    Raises:
        FormatError: a malformed table. Refused: every unknown or ambiguous name and unknown
            tournament, by line; without ``confirm``, the names matching club players only
            in another word order; then every game the club would refuse (e.g. a player's
            second game in a round, naming the other game), by line; nothing is returned then.
            Without ``again``: the games the club has already (:func:`refuse_recorded`).
    """
    index = await _name_index(db, club)
    known: dict[str, TournamentRow | None] = {}
    games: list[Game] = []
    lines: list[int] = []
    problems: list[str] = []
    reordered: dict[tuple[str, int], Reordered] = {}  # (the file's name as written, player)
    for row in parse_games_csv(data):
        ids = []
        for name in (row.black, row.white):
            found = {p.id: p for key in name_keys(name) for p in index.get(key, ())}
            if len(found) == 1:
                (player,) = found.values()
                if in_another_order(name, player):
                    pair = reordered.setdefault(
                        (_as_written(name), player.id), Reordered([], name, player)
                    )
                    if row.line not in pair.lines:
                        pair.lines.append(row.line)
            if len(found) > 1:
                problems.append(
                    _(
                        "line {line}: several players are called {name}",
                        line=row.line,
                        name=quoted(name),
                    )
                )
            elif not found:
                problems.append(
                    _("line {line}: no player is called {name}", line=row.line, name=quoted(name))
                )
            ids.append(next(iter(found)) if len(found) == 1 else None)
        target = tournament
        if target is None and row.tournament:
            if row.tournament not in known:
                known[row.tournament] = await storage.tournament(db, club, row.tournament)
            target = known[row.tournament]
            if target is None:
                problems.append(
                    _(
                        "line {line}: there is no tournament {name}",
                        line=row.line,
                        name=quoted(row.tournament),
                    )
                )
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
    if not problems and not confirm:
        refuse_reordered(list(reordered.values()), remedies)
    if not problems:  # what recording them would refuse, every bad line named
        labels = [_("line {line}", line=line) for line in lines]
        problems = [
            _("line {line}: {problem}", line=lines[number - 1], problem=translated(message))
            for number, message in await storage.check_games(db, club, games, labels)
        ]
    if problems:
        raise Refused(_("nothing was recorded:\n{problems}", problems="\n".join(problems[:30])))
    if not again:
        labels = [_("line {line}", line=line) for line in lines]
        await refuse_recorded(db, club, games, labels, remedies)
    return games
