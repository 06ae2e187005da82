"""Results from SGF files (issue 4/5, item 5): /result with an ``.sgf`` attached, /sgf.

An ``.sgf`` sent with ``/result`` (a Telegram document with the command as its caption or
answered by it, a Discord attachment, ``/result game.sgf`` in the console) comes here: the
record is read (:func:`engine.formats.sgf.read_sgf`), its two names are matched to the club's
players, the file is kept in the log (storage.game_files) and the reply shows what will be
recorded, with a Record button naming the kept file. The button records it through
:func:`bot.core.handlers.games.record`, the path every ``/result`` takes (the question about a
game recorded already, a player's report waiting for the opponent), naming the file with the
game in the same transaction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import storage
from bot.core import format as fmt
from bot.core.commands import PLAYER, GameResult, Option, Param, Upload, command
from bot.core.context import Context
from bot.core.errors import BadArgument, UnknownPlayer
from bot.core.handlers import game_options as opt
from bot.core.handlers import games
from bot.core.handlers.tournament_rounds import open_board
from bot.core.names import lookup, refusal, same_player, single
from bot.core.replies import Button, Document, Reply, Text
from bot.i18n import N_, _, date_text, quoted
from engine.errors import FormatError
from engine.formats.sgf import SgfGame, read_sgf
from engine.types import Game, Result
from storage.game_files import GameFile, file_of_game, keep_file, kept_file
from storage.pairings import Board
from storage.records import Player, TournamentRow

ENDING_MARGINS = {"resign": "R", "time": "T", "forfeit": "F"}
"""The margin /result stores for a game the SGF says ended without a count (B+R, B+T, B+F)."""


@dataclass(frozen=True, slots=True)
class SgfArgs:
    kept: int | None = None
    file: Upload | None = None
    black: Player | None = None
    white: Player | None = None
    result: GameResult | None = None
    game: int | None = None
    again: bool = False


DOWNLOAD = re.compile(r"(?<!\S)game=", re.IGNORECASE)
"""``/sgf game=N``: a download, open to anyone; recording asks /result's permission first,
before its words are read (a member's refusal says who may, whatever they typed)."""


@command(
    "sgf",
    usage=N_("/sgf [black=NAME] [white=NAME] [result=B+] [game=N]"),
    summary=N_("Record a game from its SGF file: shown first, recorded with the button."),
    examples=("/sgf", "/sgf black=Nagy white=Kovács", "/sgf game=12"),
    access=PLAYER,
    details=N_(
        "Attach the game's .sgf (or send /result with it). hoshi reads the players, the "
        "result, handicap, komi, date, board and clock, shows what it will record and records "
        "it when you press Record, as /result would. Names the club does not know are asked "
        "for: give them with black=NAME and white=NAME. The file is kept: /history and the "
        "player's web page offer it."
    ),
    options=(
        Option("black", "player", N_("the club's player who had Black"), "NAME"),
        Option("white", "player", N_("the club's player who had White"), "NAME"),
        Option("result", "result", N_("the result, when the file does not say it"), "B+"),
        Option("game", "number", N_("send the SGF game #N was recorded from"), "N"),
    ),
    params=(
        Param(
            "kept",
            "number",
            N_("the kept file's number (the Record button)"),
            required=False,
            metavar="N",
        ),
        Param("file", "file", N_("the game's SGF file"), required=False),
    ),
    flags=(games.AGAIN,),
    permit=lambda ctx: None if DOWNLOAD.search(ctx.inv.text) else games.may_record(ctx),
)
async def sgf(ctx: Context, args: SgfArgs) -> Reply:
    if args.game is not None:
        return await game_sgf(ctx, args.game)  # anyone may download it
    games.may_record(ctx)
    if args.kept is not None:
        kept = await kept_file(ctx.db, ctx.the_club, args.kept)
        if kept is None:
            raise BadArgument(_("there is no SGF file {number} to record", number=args.kept))
        read = _read(kept.data)
        black, white = await _players(ctx, read, args)
        game = _game(ctx, read, black, white, args.result)
        retry = f"/sgf {kept.seq} {_named(black, white, args.result)}"
        return await games.record(
            ctx, game, black, white, again=args.again, retry=retry, sgf=kept.seq
        )
    if args.file is None:
        raise BadArgument(_no_file(ctx.inv.caller.platform))
    read = _read(args.file.data)
    black, white = await _players(ctx, read, args)
    game = _game(ctx, read, black, white, args.result)  # refused here, before the file is kept
    kept = await keep_file(
        ctx.db,
        ctx.the_club,
        _file_name(args.file.name),
        args.file.data,
        actor=ctx.actor,
        chat=ctx.chat,
    )
    seat = await open_board(ctx, black.id, white.id)
    return _preview(read, game, black, white, kept, args, seat)


def _read(data: bytes) -> SgfGame:
    """The file's game, or the refusal naming why it cannot be read."""
    try:
        return read_sgf(data)
    except FormatError as error:
        raise BadArgument(
            _("this SGF file cannot be read: {reason}. Nothing was recorded", reason=str(error))
        ) from None


async def _players(ctx: Context, read: SgfGame, args: SgfArgs) -> tuple[Player, Player]:
    """The club's players the file's names are (``black=``/``white=`` win); a name matched by
    none or by several is asked about, saying how to give it."""
    black = args.black or await _player(ctx, read.black, "black")
    white = args.white or await _player(ctx, read.white, "white")
    if black.id == white.id:
        raise same_player(black, "/sgf black=NAME white=NAME")
    return black, white


async def _player(ctx: Context, name: str, colour: str) -> Player:
    found = await lookup(ctx, name)
    player = single(found)
    if player is not None:
        return player
    why = refusal(name, found)
    say = (
        _(
            "the file's Black player {name} is not one I can match: {why}",
            name=quoted(name),
            why=why,
        )
        if colour == "black"
        else _(
            "the file's White player {name} is not one I can match: {why}",
            name=quoted(name),
            why=why,
        )
    )
    raise UnknownPlayer(
        _(
            "{said}. Say who it is with the file again: /result {colour}=NAME (e.g. "
            '{colour}="Nagy Péter"). Nothing was recorded',
            said=say.rstrip("."),
            colour=colour,
        )
    )


def _game(
    ctx: Context, read: SgfGame, black: Player, white: Player, given: GameResult | None
) -> Game:
    """The game value /result would record from the file's facts (``given``: the result
    typed, for a file that does not say it)."""
    stones = read.handicap
    if stones > 9:
        raise BadArgument(
            _("the file gives {stones} handicap stones; 0–9 are recorded", stones=stones)
        )
    outcome: Result | None = read.result
    played, margin = read.ending != "forfeit", ENDING_MARGINS.get(read.ending)
    if read.ending == "score" and read.margin is not None:
        margin = fmt.value(read.margin).replace(",", ".").replace("−", "-")
    if given is not None:
        outcome, played, margin = given.outcome, given.played, given.margin
    date = read.date or ctx.today()
    if date > ctx.today():
        raise BadArgument(
            _("the file's date {date} is in the future; nothing was recorded", date=date)
        )
    return storage.new_game(
        black.id,
        white.id,
        outcome,
        stones=stones,
        komi=read.komi if read.komi is not None else opt.komi(ctx, None, stones),
        date=date,
        played=played,
        board=read.size,
        time=read.time_control,
        margin=margin,
    )


def _named(black: Player, white: Player, given: GameResult | None) -> str:
    named = f'black="{black.name}" white="{white.name}"'
    return named if given is None else f"{named} result={given.text}"


def _preview(
    read: SgfGame,
    game: Game,
    black: Player,
    white: Player,
    kept: GameFile,
    args: SgfArgs,
    seat: tuple[TournamentRow, int, Board] | None,
) -> Reply:
    """What will be recorded, with the button that records it; ``seat``: the published board
    of a tournament run from the chat the two players have, whose game it becomes."""

    def named(name: str, rank: str) -> str:
        return f"{name} {rank}" if rank else name

    lines = [
        _(
            "Black: {black} (the file: {name})",
            black=black.name,
            name=named(read.black, read.black_rank_text),
        ),
        _(
            "White: {white} (the file: {name})",
            white=white.name,
            name=named(read.white, read.white_rank_text),
        ),
        _("Result: {result}", result=fmt.result(game)),
        _("Handicap: {stones}", stones=game.stones) if game.stones else _("Handicap: even"),
        _("Komi: {komi}", komi=fmt.komi(game.komi)),
        _("Date: {date}", date=date_text(game.date)),
        _("Board: {size}×{size}", size=game.board),
    ]
    if game.time is not None:
        lines.append(_("Time: {time}", time=str(game.time)))
    if read.event:
        lines.append(_("Event: {event}", event=read.event))
    if seat is not None:
        row, number, board = seat
        lines.append(
            _(
                "It is the game of {name}, round {round}, board {board}.",
                name=row.tournament.name,
                round=number,
                board=board.number,
            )
        )
    if game.result is None and game.played:
        lines.append(
            _(
                "The file does not say who won: it will be stored, not rated. To record a "
                "result, send it again with result=B+ or result=W+."
            )
        )
    retry = f"/sgf {kept.seq} {_named(black, white, args.result)}"
    return Reply(
        blocks=(
            Text(_("Record this game?"), title=True),
            Text("\n".join(lines)),
        ),
        # TRANSLATORS: a button under the game read from an SGF file
        buttons=(Button(_("Record"), retry),),
    )


def _file_name(name: str | None) -> str:
    """The name to keep: the file's own, or ``game.sgf``."""
    return (name or "").strip() or "game.sgf"


def _no_file(platform: str) -> str:
    """``/sgf`` without a file: how to send one where it was asked."""
    if platform == "console":
        return _("give the file's path: /result path/to/game.sgf")
    if platform == "discord":
        return _("attach the game's .sgf as the command's file")
    return _(
        "send the game's .sgf as a document with /result as its caption, or answer the "
        "document's message with /result"
    )


def safe_file_name(number: int) -> str:
    """The name a downloaded SGF is offered under: ``game-12.sgf`` (the game's number, never
    the name as sent, which may hold anything)."""
    return f"game-{number}.sgf"


async def game_sgf(ctx: Context, number: int) -> Reply:
    """The SGF file game #``number`` was recorded from, as an attachment."""
    row = await games.live_game(ctx, number)
    kept = await file_of_game(ctx.db, ctx.the_club, row.id)
    if kept is None:
        raise BadArgument(_("game #{number} was not recorded from an SGF file", number=number))
    return Reply(
        blocks=(Text(_("The SGF of game #{number}", number=number)),),
        document=Document(kept.data, safe_file_name(number)),
    )
