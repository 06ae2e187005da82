"""A club's data as files: players/games CSV, ratings JSON, a tournament as EGD h9
(formats.md). Shared by ``/export`` and ``hoshi export``."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from bot.core import format as fmt
from bot.i18n import _
from engine.errors import FormatError
from engine.formats import CsvGame, CsvPlayer, write_games_csv, write_h9, write_players_csv
from engine.formats.tournament_file import FileGame, FilePlayer, TournamentFile
from engine.ranks import Rank
from engine.system import Card, Value
from engine.types import Entry
from storage.records import Export, TournamentRow

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


def ratings_json(export: Export) -> str:
    """formats.md, Ratings export: one object per player with the system's rating values."""
    games: dict[int, int] = {}
    for row in export.games:
        if row.status == "ok" and row.game.rated:
            for player in (row.game.black, row.game.white):
                games[player] = games.get(player, 0) + 1
    out = []
    for player, card in export.players:
        if player.guest or card is None:
            continue
        item: dict[str, Any] = {"name": player.name, "rank": str(card.rank)}
        item.update(_rating_values(card))
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
    ranks: Mapping[int, Rank],
    entries: Sequence[Entry] = (),
) -> str:
    """One tournament as an EGD results file, with hoshi's ranks (rules.md §4.1, §14):
    ``ranks`` (storage.entry_ranks) the rank each player played it with — a member's on its
    first day, not today's; ``entries`` (storage.entries) give back the criteria columns
    (MMS, SOS …) an imported file had.

    Raises:
        FormatError: a player has two games in one round, which an h9 file cannot hold.
    """
    t = row.tournament
    games = [g.game for g in export.games if g.game.tournament == t.id and g.status == "ok"]
    ids = sorted({p for g in games for p in (g.black, g.white)})
    position = {pid: i + 1 for i, pid in enumerate(ids)}
    players = {p.id: (p, card) for p, card in export.players}
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
    criteria = {entry.player: entry.criteria for entry in entries}
    file_players = tuple(
        FilePlayer(
            position=position[pid],
            line=0,
            name=players[pid][0].name,
            rank=ranks.get(pid, players[pid][0].rank),
            country=players[pid][0].country,
            club=players[pid][0].home_club,
            egd_pin=players[pid][0].egd_pin,
            criteria=criteria.get(pid, ()),
        )
        for pid in ids
    )
    file_games = tuple(
        FileGame(g.round or 1, position[g.black], position[g.white], g.result, g.played, g.stones)
        for g in games
    )
    tf = TournamentFile(
        name=t.name,
        start=t.start,
        end=t.end,
        rounds=t.rounds,
        board=t.board,
        komi=next((g.komi for g in games if g.stones == 0), None),
        time_minutes=int(t.time.extended_minutes()) if t.time and not t.time.unlimited else None,
        handicap_rule=9 if t.even else t.handicap_reduction,
        even=t.even,
        players=file_players,
        games=file_games,
    )
    return write_h9(tf)
