"""A game entered twice: caught and asked about, never counted twice (issue 1/5).

Before ``/result`` records a game it looks for a live game of the club (recorded, or a
player's report awaiting confirmation) with the same two players (colours either way), date
and winner (:func:`storage.games.looks_the_same`). Then:

* an organiser's entry is not recorded; the reply names the earlier game (its number, date,
  players, result, who entered it and when) and offers to record it anyway — a button, or the
  word ``again`` at the end of the command;
* a player's report of a game their opponent already reported **confirms** that report
  instead of storing a second one (decision: two players reporting the same game agree on it,
  exactly as if the second had pressed the report's Confirm button); any other likeness (the
  reporter's own earlier report, an organiser's entry) is asked about as above;
* an organiser's entry of a game a player has reported offers the report's confirmation as
  well as recording it anyway.
"""

from __future__ import annotations

import storage
from bot.core import format as fmt
from bot.core.context import Context
from bot.core.replies import Button, Reply, Text
from bot.i18n import _, date_text, date_time_text
from engine.types import Game
from storage.records import GAME_PENDING, GameRow, Player

AGAIN = "again"


async def earlier(ctx: Context, game: Game) -> list[GameRow]:
    """The club's live games that look like ``game`` entered again, oldest first."""
    return await storage.same_games(ctx.db, ctx.the_club, game)


async def opponents_report(ctx: Context, me: Player, rows: list[GameRow]) -> GameRow | None:
    """The first pending report among ``rows`` made by someone other than ``me``'s player."""
    for row in rows:
        if row.status != GAME_PENDING or row.entry.actor == ctx.actor:
            continue
        reporter = await _linked(ctx, row.entry.actor)
        if reporter is None or reporter.id != me.id:
            return row
    return None


async def _linked(ctx: Context, actor: str) -> Player | None:
    platform, _, account = actor.partition(":")
    if not account:
        return None
    return await storage.player_for_account(ctx.db, ctx.the_club, platform, account)


async def who(ctx: Context, row: GameRow) -> str:
    """Who entered a game: ``you``, the linked player's name, or the chat account."""
    if row.entry.actor == ctx.actor:
        # TRANSLATORS: who entered a game: the person asking
        return _("you")
    linked = await _linked(ctx, row.entry.actor)
    return linked.name if linked is not None else row.entry.actor


async def line(ctx: Context, row: GameRow) -> str:
    """``#12 Apr 20, 2026, Nagy Péter (B) – Kovács Anna (W): B+R, entered by … on …`` (dates
    in the conversation's language)."""
    game = row.game
    names = []
    for player in (game.black, game.white):
        found = await storage.get_player(ctx.db, ctx.the_club, player)
        names.append(found.name if found is not None else _("player {number}", number=player))
    at = date_time_text(row.entry.at.astimezone(ctx.timezone))
    shown = {
        "number": row.number,
        "day": date_text(game.date) if game.date else "—",
        "black": names[0],
        "white": names[1],
        "result": fmt.result(game),
        "at": at,
    }
    if row.entry.actor == ctx.actor:
        text = _(
            "#{number} {day}, {black} (B) – {white} (W): {result}, entered by you on {at}", **shown
        )
    else:
        text = _(
            "#{number} {day}, {black} (B) – {white} (W): {result}, entered by {who} on {at}",
            who=await who(ctx, row),
            **shown,
        )
    if row.status == GAME_PENDING:
        return _(
            "{game} — a player's report that waits for confirmation ({command})",
            game=text,
            command=f"/confirm {row.number}",
        )
    return text


async def ask(ctx: Context, rows: list[GameRow], command: str) -> Reply:
    """Nothing recorded: name the games that look the same and offer to record it anyway.

    ``command`` is the command as typed (``/result …``); ``again`` is added to it.
    """
    again = f"{command} {AGAIN}"
    lines = [await line(ctx, row) for row in rows]
    buttons = [
        Button(_("Confirm #{number}", number=row.number), f"/confirm {row.number}")
        for row in rows
        if row.status == GAME_PENDING and ctx.organiser
    ]
    buttons.append(Button(_("Record it again"), again))
    return Reply(
        blocks=(
            Text(_("Already recorded?"), title=True),
            Text(
                _(
                    "This looks like a game the club already has:\n{games}\nNothing was "
                    "recorded. If it is another game, add {again} at the end: {command}",
                    games="\n".join(lines),
                    again=AGAIN,
                    command=again,
                )
            ),
        ),
        buttons=tuple(buttons),
    )
