"""A club's data as files: players/games CSV, ratings JSON, a tournament as EGD h9
(formats.md). Shared by ``/export`` and ``hoshi export``."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction
from typing import Any

from bot.core import format as fmt
from bot.i18n import _
from engine.errors import FormatError
from engine.formats import CsvGame, CsvPlayer, write_games_csv, write_h9, write_players_csv
from engine.formats.h9 import with_kept_header
from engine.formats.tournament_file import (
    EVEN_RULE,
    FileBye,
    FileGame,
    FilePlayer,
    TournamentFile,
    in_places,
    in_standings_order,
)
from engine.ranks import Rank
from engine.system import Activity, Card, Value
from engine.systems import activity_of
from engine.types import Entry, Game, Outcome
from storage.records import Export, TournamentRow
from storage.settings import ClubSettings

FORMATS = ("csv", "games", "json", "h9")


def players_csv(export: Export) -> str:
    """``name,rank,rating,country,club,egd_pin`` with each player's current rank and rating."""
    rows = []
    for player, card in export.players:
        if player.guest:
            continue
        rating = card.rating if card is not None and isinstance(card.rating, int) else None
        rows.append(
            CsvPlayer(
                0,
                player.name,
                card.rank if card else player.rank,
                rating,
                player.country,
                player.home_club,
                player.egd_pin,
            )
        )
    return write_players_csv(rows)


def games_csv(export: Export) -> str:
    """Every live game (voided and undone ones left out), with tournament names and rounds."""
    names = {p.id: p.name for p, _ in export.players}
    tournaments = {t.id: t.tournament.name for t in export.tournaments}
    rows = [
        CsvGame(
            0,
            row.game.date,
            names.get(row.game.black, "?"),
            names.get(row.game.white, "?"),
            row.game.result,
            row.game.played,
            row.game.stones,
            row.game.komi,
            tournaments.get(row.game.tournament) if row.game.tournament else None,
            row.game.round,
            row.game.margin,
        )
        for row in export.games
        if row.status == "ok"
    ]
    return write_games_csv(rows)


def club_activity(settings: ClubSettings, system: str) -> Activity:
    """Who counts as active in a club: its system asked with the club's own settings
    (``psg.inactive_months``) — the one rule the web's list and the exports use."""
    return activity_of(system, settings.system_values(system))


def active_players(export: Export, activity: Activity, today: dt.date) -> frozenset[int]:
    """The players of ``export`` active on ``today`` by ``activity``
    (:meth:`engine.system.Activity.active`, as the web's ranking list judges its rows)."""
    return frozenset(
        player.id
        for player, card in export.players
        if card is not None and activity.active(card.last_played, player.date, today)
    )


def ratings_json(export: Export, active: Collection[int] | None = None) -> str:
    """formats.md, Ratings export: one object per player with the system's rating values.

    ``active``: the players active on the day of the export (:func:`active_players`); each
    object then says ``"active": "yes"`` or ``"no"``, as the web's list shows it that day (a
    card's own, written when its last fact was folded, may be older)."""
    games: dict[int, int] = {}
    for row in export.games:
        if row.status == "ok" and row.game.rated:
            for pid in (row.game.black, row.game.white):
                games[pid] = games.get(pid, 0) + 1
    out = []
    for player, card in export.players:
        if player.guest or card is None:
            continue
        item: dict[str, Any] = {"name": player.name, "rank": str(card.rank)}
        item.update(_rating_values(card))
        if active is not None:
            item["active"] = "yes" if player.id in active else "no"
        item["games"] = card.games
        item["last_played"] = fmt.day(card.last_played) if card.last_played else None
        if player.country:
            item["country"] = player.country
        if player.egd_pin:
            item["egd_pin"] = player.egd_pin
        out.append(item)
    return json.dumps(out, ensure_ascii=False, indent=2)


def _rating_values(card: Card) -> dict[str, Any]:
    """The card's typed values under their export keys (formats.md, Ratings export); a dot
    in a key nests (``a.b`` → ``{"a": {"b": …}}``). A card without values exports its
    headline as ``rating``."""
    if not card.values:
        return {"rating": _json_value(card.rating)}
    out: dict[str, Any] = {}
    for m in card.values:
        *parents, leaf = m.key.split(".")
        into = out
        for parent in parents:
            into = into.setdefault(parent, {})
        into[leaf] = _json_value(m.value)
    return out


def _json_value(v: Value) -> Any:
    """Integers and words as they are; an exact fraction as its decimal text (``"37.5"``),
    as exports have always written Swedish points, so that nothing is rounded."""
    if isinstance(v, Fraction):
        return fmt.plain(v)
    return v


def tournament_h9(
    export: Export,
    row: TournamentRow,
    entries: Sequence[Entry],
    ranks: Mapping[int, Rank],
    placed: Mapping[int, int] | None = None,
) -> str:
    """One tournament as an EGD results file (:func:`tournament_file`, written by
    :func:`~engine.formats.write_h9`).

    Raises:
        FormatError: a player has two games in one round, which an h9 file cannot hold.
    """
    return write_h9(tournament_file(export, row, entries, ranks, placed))


def tournament_file(
    export: Export,
    row: TournamentRow,
    entries: Sequence[Entry],
    ranks: Mapping[int, Rank],
    placed: Mapping[int, int] | None = None,
) -> TournamentFile:
    """One tournament as the results file an export writes (formats.md, EGD results).

    ``entries`` (storage.entries) are the tournament's own data: every entrant is a line
    (a player with only byes too), at the rank they played it with, ``ranks``
    (storage.entry_ranks: a member's on its first day, not today's; rules.md §4.1), with the
    criteria columns (MMS, SOS …), byes, administrative results (both win, both lose) and
    games without colours an imported file had. The lines are in standings
    order with their places (:func:`~engine.formats.tournament_file.in_standings_order`);
    the header facts an imported file had beyond the tournament's own (place, code, komi,
    comments …) come back from what the import kept (``row.notes``).

    Raises:
        FormatError: a player has two games in one round, which an h9 file cannot hold.
    """
    t = row.tournament
    games = [g.game for g in export.games if g.game.tournament == t.id and g.status == "ok"]
    players = {p.id: (p, card) for p, card in export.players}
    by_player = {entry.player: entry for entry in entries}
    ids = [entry.player for entry in entries if entry.player in players]
    for pid in (p for g in games for p in (g.black, g.white)):  # a game without an entry
        if pid not in ids:
            ids.append(pid)
    position = {pid: i + 1 for i, pid in enumerate(ids)}
    seen: set[tuple[int, int]] = set()
    for g in games:  # an h9 line has one cell per round (formats.md)
        for pid in (g.black, g.white):
            if (pid, g.round or 1) in seen:
                refusal = _(
                    "{player} has two games in round {round} of {tournament}, and an EGD h9 "
                    "file holds one game per player and round; export the games as CSV "
                    "instead ({format})",
                    player=players[pid][0].name,
                    round=g.round or 1,
                    tournament=t.name,
                    format="games",
                )
                error = FormatError(refusal)
                # FormatError formats its message into a plain str: keep the translatable one,
                # so that the chat answers in its own language (translated(exc.args[0]))
                error.args = (refusal,)
                raise error
            seen.add((pid, g.round or 1))

    def rank(pid: int) -> Rank:
        if pid in ranks:
            return ranks[pid]
        entry = by_player.get(pid)
        if entry is not None and entry.rank is not None:
            return entry.rank
        player, card = players[pid]
        return card.rank if card is not None else player.rank

    file_players = tuple(
        FilePlayer(
            position=position[pid],
            line=0,
            name=players[pid][0].name,
            rank=rank(pid),
            # a professional keeps the declared Np as their title (rules.md §6) while they
            # play as the 7d it is rated as
            pro=players[pid][0].pro if rank(pid) == Rank.dan(7) else 0,
            country=(by_player[pid].country if pid in by_player else None)
            or players[pid][0].country,
            club=players[pid][0].home_club,
            egd_pin=players[pid][0].egd_pin,
            criteria=by_player[pid].criteria if pid in by_player else (),
        )
        for pid in ids
    )

    def double(g: Game) -> Outcome | None:
        """The administrative result (both win, both lose) both entries kept for an
        unplayed game without a result."""
        if g.played or g.result is not None or g.black not in by_player:
            return None
        black = dict(by_player[g.black].administrative).get(g.round or 1)
        white = (
            dict(by_player[g.white].administrative).get(g.round or 1)
            if g.white in by_player
            else None
        )
        return black if black is not None and black == white else None

    def colourless(g: Game) -> bool:
        """Whether both entries kept that the file gave this game without colours."""
        return all(
            p in by_player and (g.round or 1) in by_player[p].colourless
            for p in (g.black, g.white)
        )

    file_games = tuple(
        sorted(
            (
                FileGame(
                    g.round or 1,
                    position[g.black],
                    position[g.white],
                    g.result,
                    g.played,
                    g.stones,
                    colour_known=not colourless(g),
                    double=double(g),
                )
                for g in games
            ),
            key=lambda g: (g.round, min(g.black, g.white)),
        )
    )
    byes = tuple(
        sorted(
            (
                FileBye(round_number, position[pid], kind)
                for pid in ids
                if pid in by_player
                for round_number, kind in by_player[pid].byes
                if (pid, round_number) not in seen and 1 <= round_number <= t.rounds
            ),
            key=lambda b: (b.round, b.player),
        )
    )
    tf = TournamentFile(
        name=t.name,
        start=t.start,
        end=t.end,
        rounds=t.rounds,
        board=t.board,
        komi=next((g.komi for g in games if g.stones == 0), None),
        time_minutes=int(t.time.extended_minutes()) if t.time and not t.time.unlimited else None,
        handicap_rule=EVEN_RULE if t.even else t.handicap_reduction,
        even=t.even,
        class_=t.klass,
        players=file_players,
        games=file_games,
        byes=byes,
    )
    tf = with_kept_header(tf, row.notes)
    if placed is None:
        return in_standings_order(tf)
    last = max(placed.values(), default=0) + 1
    standing = sorted(
        ((position[pid], placed.get(pid, last)) for pid in ids), key=lambda pair: pair[1]
    )
    return in_places(tf, standing)
