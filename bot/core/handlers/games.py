"""Recording and fixing single games: /result, /undo, /void, /correct."""

from __future__ import annotations

from typing import Any

import storage
from bot.core import format as fmt
from bot.core.commands import ORGANISER, PLAYER, Param, command
from bot.core.context import Context
from bot.core.errors import BadArgument, NotPermitted
from bot.core.handlers import game_options as opt
from bot.core.names import resolve, resolve_pair
from bot.core.parse import Token, join, positive_int
from bot.core.replies import Button, Reply, Text
from engine.types import Game, Result
from storage.records import GameRow, Player

BEAT_WORDS = {"beat", "beats", "defeated", "won", "wins"}


@command(
    "result",
    usage="/result BLACK WHITE RESULT [h=N] [komi=K] [date=YYYY-MM-DD] [time=...] [board=19]",
    summary="Record a single game. RESULT is B+, W+, B+R, W+3.5, jigo or unplayed; "
    "also NAME beat NAME [h=N].",
    examples=(
        "/result Nagy Péter Kovács Anna B+",
        '/result "Szabó Éva" "Tóth Ádám" W+3.5 h=2',
        "/result Kiss beat Tóth h=3",
    ),
    access=PLAYER,
    details="Organisers record any game. When the club allows player reports (/club reports "
    "on), a player may report their own game: it counts once the opponent confirms.",
    options=opt.GAME_OPTIONS,
    params=(
        Param("black", "player", "who had Black (the winner, in the 'beat' form)"),
        Param("white", "player", "who had White"),
        Param("result", "result", "B+, W+, B+R, W+3.5, jigo or unplayed"),
        Param("h", "int", "handicap stones (0–9)", False, True),
        Param("komi", "text", "komi to White, e.g. 6.5", False, True),
        Param("date", "text", "YYYY-MM-DD (default today)", False, True),
    ),
)
async def result(ctx: Context) -> Reply:
    reporting = not ctx.organiser
    if reporting and ctx.settings.get("reports") != "on":
        raise NotPermitted(
            f"/result is for the organisers of {ctx.the_club.name}: chat administrators and the "
            "people an organiser adds with /club organiser add. (An organiser can let players "
            "report their own games with /club reports on.) Nothing was changed."
        )
    args = ctx.args(opt.GAME_OPTIONS)
    black, white, outcome, played, note = await _players_and_result(ctx, args.words, args.options)
    if reporting:
        return await _report(ctx, args.options, black, white, outcome, played)
    stones = opt.stones(args.options["h"]) if "h" in args.options else 0
    komi = opt.komi(ctx, args.options.get("komi"), stones)
    date = opt.date(ctx, args.options.get("date"))
    board = opt.board(args.options.get("board"))
    time = opt.time_control(args.options.get("time"))
    why = await will_not_count(
        ctx, black=black.id, white=white.id, result=outcome, date=date, stones=stones, komi=komi,
        played=played, board=board, time=time,
    )  # fmt: skip
    row = await storage.record_game(
        ctx.db,
        ctx.the_club,
        black.id,
        white.id,
        outcome,
        stones=stones,
        komi=komi,
        date=date,
        played=played,
        board=board,
        time=time,
        actor=ctx.actor,
        chat=ctx.chat,
    )
    lines = [game_line(row, black, white)]
    if note:
        lines.append(note)
    if why is not None and row.game.rated:  # unplayed, no result: the next line says so
        lines.append(f"Recorded, but it will not count: {why}.")
    lines.append(await rated_line(ctx, row, (black, white)))
    return Reply(blocks=(Text(f"Game #{row.id} recorded", title=True), Text("\n".join(lines))))


async def _report(
    ctx: Context,
    options: dict[str, str],
    black: Player,
    white: Player,
    outcome: Result | None,
    played: bool,
) -> Reply:
    """A player's own game: pending until the opponent confirms (issue 4/6, item 6)."""
    caller = ctx.inv.caller
    me = await storage.player_for_account(ctx.db, ctx.the_club, caller.platform, caller.account)
    if me is None or me.id not in (black.id, white.id):
        raise NotPermitted(
            "players may report only their own games: /link YOUR NAME first, "
            "then /result with yourself as one of the two players"
        )
    opponent = white if me.id == black.id else black
    stones = opt.stones(options["h"]) if "h" in options else 0
    row = await storage.record_game(
        ctx.db,
        ctx.the_club,
        black.id,
        white.id,
        outcome,
        stones=stones,
        komi=opt.komi(ctx, options.get("komi"), stones),
        date=opt.date(ctx, options.get("date")),
        played=played,
        board=opt.board(options.get("board")),
        time=opt.time_control(options.get("time")),
        reported=ctx.today(),
        pending=True,
        actor=ctx.actor,
        chat=ctx.chat,
    )
    hours = ctx.settings.get("report_hours", "48")
    return Reply(
        blocks=(
            Text(f"Report #{row.id} waits for {opponent.name}", title=True),
            Text(
                f"{game_line(row, black, white)}\n{opponent.name} (or an organiser) confirms "
                f"with the button or /confirm {row.id}; /dispute {row.id} if it is wrong. "
                f"Unconfirmed, it expires in {hours} hours. It is not rated until confirmed."
            ),
        ),
        buttons=(Button("Confirm", f"/confirm {row.id}"), Button("Dispute", f"/dispute {row.id}")),
    )


async def _players_and_result(
    ctx: Context, words: list[Token], options: dict[str, str]
) -> tuple[Player, Player, Result | None, bool, str]:
    """BLACK WHITE RESULT, or WINNER beat LOSER (colours from the handicap)."""
    for i, token in enumerate(words):
        if not token.quoted and token.text.lower() in BEAT_WORDS:
            winner = await resolve(ctx, join(words[:i]))
            loser = await resolve(ctx, join(words[i + 1 :]))
            if winner.id == loser.id:
                raise BadArgument("a player cannot beat themselves")
            return await _beat(ctx, winner, loser, options)
    position = next(
        (
            i
            for i in range(len(words) - 1, -1, -1)
            if not words[i].quoted and opt.read_result(words[i].text) is not None
        ),
        None,
    )
    if position is None:
        last = f" ({words[-1].text!r} is not one)" if words else ""
        raise BadArgument(
            f"the result is missing{last}: write B+, W+, B+R, W+3.5, jigo or unplayed after "
            "the two names"
        )
    if position != len(words) - 1:
        extra = join(words[position + 1 :])
        raise BadArgument(f"unexpected {extra!r} after the result (options look like h=2)")
    outcome, played = opt.read_result(words[position].text)  # type: ignore[misc]
    black, white = await resolve_pair(ctx, words[:position], "/result")
    return black, white, outcome, played, ""


async def _beat(
    ctx: Context, winner: Player, loser: Player, options: dict[str, str]
) -> tuple[Player, Player, Result | None, bool, str]:
    stones = opt.stones(options["h"]) if "h" in options else 0
    if stones == 0:
        return (
            winner,
            loser,
            Result.BLACK,
            True,
            (
                "Colours were not given: recorded the winner as Black (even game, so the rating "
                "does not depend on it; use /result BLACK WHITE B+ to record colours)."
            ),
        )
    ledger = await storage.ledger(ctx.db, ctx.the_club.id)
    winner_rank, loser_rank = ledger.card(winner.id).rank, ledger.card(loser.id).rank
    if winner_rank == loser_rank:
        raise BadArgument(
            f"{winner.name} and {loser.name} have the same rank, so I cannot tell who took the "
            "stones; write /result BLACK WHITE B+ h=N"
        )
    if winner_rank < loser_rank:  # the weaker player takes Black and the stones
        return winner, loser, Result.BLACK, True, ""
    return loser, winner, Result.WHITE, True, ""


async def will_not_count(ctx: Context, **fields: Any) -> str | None:
    """Why the game about to be recorded will not count under the club's current system, asked
    of its ledger before the game is folded in; ``None`` when it counts (or when it is no game
    at all: storage then refuses it with its own reply)."""
    try:
        game = Game(0, **fields)
    except ValueError:
        return None
    return (await storage.ledger(ctx.db, ctx.the_club.id)).uncounted(game)


def game_line(row: GameRow, black: Player, white: Player) -> str:
    game = row.game
    setup = "even" if game.stones == 0 else f"h{game.stones}"
    return (
        f"{black.name} (B) – {white.name} (W): {fmt.result(game)}, {setup}, "
        f"komi {fmt.komi(game.komi)}, {fmt.day(game.date)}"
        + (f", {game.board}×{game.board}" if game.board != 19 else "")
        + (f", time {game.time}" if game.time is not None else "")
    )


async def rated_line(ctx: Context, row: GameRow, players: tuple[Player, Player]) -> str:
    """What the game did to the two players' ratings under the club's system."""
    if not row.game.played:
        return "Unplayed: stored and shown, never rated."
    if row.game.result is None:
        return "Result unknown: stored, not rated."
    parts = []
    for player in players:
        card = await storage.card(ctx.db, ctx.the_club, player.id)
        pending = ""
        if card.pending not in (None, 0):
            # MGSZ counts club games awaiting the period (§1.4); Tensuusei a day's net (§2.3)
            pending = (
                f" ({card.pending} club game(s) wait for the period's end)"
                if ctx.the_club.system == "mgsz"
                else f" ({fmt.signed(card.pending)} at the end of the day)"
            )
        parts.append(f"{player.name} {fmt.value(card.rating)}{pending}")
    return f"{ctx.the_club.system}: " + " · ".join(parts)


@command(
    "undo",
    usage="/undo",
    summary="Take back your last entry (a game, a registration, a correction …).",
    examples=("/undo",),
    access=ORGANISER,
)
async def undo(ctx: Context) -> Reply:
    if ctx.args().words:
        raise BadArgument("/undo takes no arguments; to remove a particular game use /void ID")
    undone = await storage.undo_last(ctx.db, ctx.the_club, actor=ctx.actor, chat=ctx.chat)
    if undone.game is not None:
        what = (
            f"game #{undone.game.id} ({fmt.result(undone.game.game)}, "
            f"{fmt.day(undone.game.game.date)})"
        )
    elif undone.player is not None:
        what = f"the registration of {undone.player.name}"
    elif undone.event is not None:
        what = f"the {undone.event.kind.replace('_', ' ')} of {undone.entry.at:%Y-%m-%d %H:%M}"
    else:
        what = f"entry {undone.entry.seq} ({undone.entry.kind})"
    return Reply.text(
        f"Undone: {what}. It stays in the history, marked as undone; every "
        "rating after it was recomputed."
    )


@command(
    "void",
    usage='/void GAME_ID [reason="..."]',
    summary="Void a game: it stays in the history, marked void, and counts for nothing.",
    examples=("/void 12", '/void 12 reason="entered twice"'),
    access=ORGANISER,
    options={"reason"},
    params=(
        Param("game_id", "int", "the game's number (#12)"),
        Param("reason", "text", "why", False, True),
    ),
)
async def void(ctx: Context) -> Reply:
    args = ctx.args({"reason"})
    game_id = _game_id(args.words)
    row = await storage.void_game(
        ctx.db,
        ctx.the_club,
        game_id,
        actor=ctx.actor,
        chat=ctx.chat,
        reason=args.options.get("reason", ""),
    )
    return Reply.text(
        f"Game #{row.id} ({fmt.result(row.game)}, {fmt.day(row.game.date)}) is "
        "void. Every rating after it was recomputed; the game stays in the history."
    )


CORRECTABLE = frozenset(
    {"result", "h", "komi", "date", "black", "white", "board", "time", "played"}
)


@command(
    "correct",
    usage="/correct GAME_ID [result=W+] [h=N] [komi=K] [date=…] [black=NAME] [white=NAME] "
    "[board=N] [time=…] [swap]",
    summary="Fix a game; it keeps its place in history and every rating after it is recomputed.",
    examples=("/correct 12 result=W+", "/correct 12 h=2 komi=0.5", "/correct 12 swap"),
    access=ORGANISER,
    options=CORRECTABLE,
    params=(
        Param("game_id", "int", "the game's number"),
        Param("changes", "text", "e.g. result=W+ h=2", required=False),
    ),
)
async def correct(ctx: Context) -> Reply:
    args = ctx.args(CORRECTABLE)
    swap = any(not t.quoted and t.text.lower() == "swap" for t in args.words)
    game_id = _game_id([t for t in args.words if t.text.lower() != "swap"])
    current = await storage.game(ctx.db, ctx.the_club, game_id)
    if current is None:
        raise BadArgument(f"there is no game #{game_id} in this club")
    changes: dict[str, object] = {}
    o = args.options
    if "result" in o:
        read = opt.read_result(o["result"])
        if read is None:
            raise BadArgument(
                f"result={o['result']!r}: write B+, W+, B+R, W+3.5, jigo or unplayed"
            )
        changes["result"], changes["played"] = read
    if "played" in o:
        changes["played"] = o["played"].lower() in ("yes", "true", "1")
    if "h" in o:
        changes["stones"] = opt.stones(o["h"])
    if "komi" in o:
        changes["komi"] = opt.komi(ctx, o["komi"], 0)
    if "date" in o:
        changes["date"] = opt.date(ctx, o["date"])
    if "board" in o:
        changes["board"] = opt.board(o["board"])
    if "time" in o:
        changes["time"] = opt.time_control(o["time"])
    for colour in ("black", "white"):
        if colour in o:
            changes[colour] = (await resolve(ctx, o[colour])).id
    if swap:
        changes["black"], changes["white"] = current.game.white, current.game.black
    if not changes:
        raise BadArgument("say what to change, e.g. /correct 12 result=W+ or /correct 12 swap")
    row = await storage.correct_game(
        ctx.db, ctx.the_club, game_id, actor=ctx.actor, chat=ctx.chat, **changes
    )
    black = await storage.get_player(ctx.db, ctx.the_club, row.game.black)
    white = await storage.get_player(ctx.db, ctx.the_club, row.game.white)
    assert black is not None and white is not None
    return Reply(
        blocks=(
            Text(f"Game #{row.id} corrected", title=True),
            Text(
                game_line(row, black, white) + "\nIt keeps its place in history; every rating "
                "after it was recomputed. The original stays in the history."
            ),
        )
    )


def _game_id(words: list[Token]) -> int:
    if len(words) != 1:
        raise BadArgument("give one game number, e.g. 12 (the # shown when it was recorded)")
    return positive_int(words[0].text.lstrip("#"), "GAME_ID", high=10**12)
