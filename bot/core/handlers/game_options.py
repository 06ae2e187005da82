"""Reading the options a game takes: ``h=`` ``komi=`` ``date=`` ``time=`` ``board=`` (bot.md)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from fractions import Fraction

import storage
from bot.core import format as fmt
from bot.core import parse
from bot.core.commands import Option
from bot.core.context import Context
from bot.core.errors import BadArgument
from bot.core.handlers import same_game as same
from bot.core.parse import Token, positive_int
from bot.core.replies import Button, Reply, Text
from bot.i18n import N_, _, _n, date_text
from engine.timecontrol import TimeControl
from engine.types import Game, Result, Tournament
from storage import schedules
from storage.records import Player

GAME_OPTIONS = (
    # TRANSLATORS: the option named in an error such as "h (handicap stones) must be …"
    Option("h", "int", N_("handicap stones (0–9)"), name=N_("h (handicap stones)"), high=9, low=0),
    Option("komi", "komi", N_("komi to White, e.g. 6.5 (default: the club's)"), "K"),
    Option("date", "date", N_("the day it was played (default today)"), "YYYY-MM-DD"),
    Option("time", "time", N_('the time control, e.g. "60m 3x30s"'), "TIME"),
    Option("board", "int", N_("the board size (default 19)"), low=5, high=25),
)
EARLIEST = dt.date(1900, 1, 1)
FAR_BACK = dt.timedelta(days=366)
"""A game dated this much before anything the club has is asked about (issue 22): a mistyped
year would move its players' registrations back with it."""
CONFIRM = "confirm"
"""The word that records a game asked about (:func:`ask_about`) as written."""
RESULT_WORDS = ("B+", "W+", "B+R", "W+3.5", "jigo", "unplayed")


def read_result(text: str) -> tuple[Result | None, bool, str | None] | None:
    """The result a token denotes (result, played, SGF margin such as ``R`` or ``3.5``), or
    ``None`` when the token is not a result (:func:`bot.core.parse.read_result`)."""
    read = parse.read_result(text)
    return None if read is None else (read.outcome, read.played, read.margin)


def stones(value: str) -> int:
    # TRANSLATORS: the option named in an error such as "h (handicap stones) must be …"
    return positive_int(value, _("h (handicap stones)"), low=0, high=9)


def komi(ctx: Context, value: str | None, stones_: int) -> Fraction:
    """The komi given, or the default: the club's even komi, 0.5 with stones, 0 with one."""
    if value is not None:
        return parse.komi_value(value)
    if stones_ == 1:
        return Fraction(0)
    if stones_ > 1:
        return Fraction(1, 2)
    return ctx.settings.komi


def date(ctx: Context, value: str | None) -> dt.date:
    """``YYYY-MM-DD`` (default today, club time), not in the future, not before 1900."""
    return ctx.today() if value is None else parse.date_value(value, ctx.today())


def time_control(value: str | None) -> TimeControl | None:
    return None if value is None else parse.time_value(value)


def board(value: str | None) -> int:
    return 19 if value is None else positive_int(value, "board", low=5, high=25)


def split_confirm(words: list[Token]) -> tuple[list[Token], bool]:
    """The words without a final, unquoted ``confirm``, and whether it was there."""
    if words and not words[-1].quoted and words[-1].text.lower() == CONFIRM:
        return words[:-1], True
    return words, False


def split_again_and_confirm(words: list[Token]) -> tuple[list[Token], bool, bool]:
    """The words without a final ``again`` and ``confirm`` (in either order), and whether
    each was there (:func:`same_game.split_again`, :func:`split_confirm`)."""
    again = confirmed = False
    for _turn in range(2):
        words, said_again = same.split_again(words)
        words, said_confirm = split_confirm(words)
        again, confirmed = again or said_again, confirmed or said_confirm
    return words, again, confirmed


def even_tournament(tournament: Tournament, stones: int, example: str) -> None:
    """Refuse stones in an even (no-handicap) tournament; ``example`` is the command without
    them.

    Raises:
        BadArgument: naming the tournament, the stones given and the right form.
    """
    if tournament.even and stones > 0:
        raise BadArgument(
            _(
                "{name} is an even tournament (no handicap), so a game in it has no stones, "
                "not h={stones}: leave h= out, e.g. {example}",
                name=tournament.name,
                stones=stones,
                example=example,
            )
        )


def swapped_result(game: Game) -> str:
    """The game's result as typed with the colours the other way round (``B+R`` → ``W+R``)."""
    flipped = {Result.BLACK: Result.WHITE, Result.WHITE: Result.BLACK}
    result = flipped.get(game.result, game.result) if game.result is not None else None
    return fmt.result(dataclasses.replace(game, result=result))


async def ask_about(
    ctx: Context,
    game: Game,
    black: Player,
    white: Player,
    *,
    swapped: str,
    confirmed: bool,
    colours: bool = True,
    date: bool = True,
) -> Reply | None:
    """The question to ask, nothing recorded, before recording a game that looks mistyped
    (``None``: record it): the stronger player written as Black with the stones (``swapped``
    is the command the other way round), or a date more than a year before anything the
    club has (its players' registrations would move back to it). It says what looks wrong,
    how to fix it, and that ``confirm`` at the end (or the button) records it as written;
    ``confirmed``: it was said. ``colours`` and ``date``: whether to ask about each (a
    correction asks only about what it changes).
    """
    if confirmed:
        return None
    questions: list[str] = []
    fixes: list[str] = []
    if colours and game.stones > 0:
        ledger = await storage.ledger(ctx.db, ctx.the_club.id)
        black_rank, white_rank = ledger.card(black.id).rank, ledger.card(white.id).rank
        if black_rank > white_rank:
            questions.append(
                _(
                    "{black} ({black_rank}) is stronger than {white} ({white_rank}) but is "
                    "written as Black with the stones; the weaker player takes Black and the "
                    "stones.",
                    black=black.name,
                    black_rank=str(black_rank),
                    white=white.name,
                    white_rank=str(white_rank),
                )
            )
            fixes.append(_("If the colours are swapped: {command}", command=swapped))
    # the club's first record is no later than its creation: a game dated since a year before
    # it is never far before it (and the records need not be read)
    started = (await schedules.club_started(ctx.db, ctx.the_club)).date()
    first = started
    if date and game.date < started - FAR_BACK:
        first = await schedules.first_record_day(ctx.db, ctx.the_club)
    if date and game.date < first - FAR_BACK:
        day = game.date
        years = first.year - day.year - ((first.month, first.day) < (day.month, day.day))
        questions.append(
            _n(
                "{date} is {n} year before the club's first record ({first}): a game dated "
                "then moves both players' registration back to that day.",
                "{date} is {n} years before the club's first record ({first}): a game dated "
                "then moves both players' registration back to that day.",
                years,
                date=date_text(game.date),
                first=date_text(first),
            )
        )
        fixes.append(
            _(
                "If the year is mistyped, give the right one, e.g. date={today}",
                today=ctx.today().isoformat(),
            )
        )
    if not questions:
        return None
    command = f"/{ctx.inv.command} {ctx.inv.text.strip()} {CONFIRM}"
    return Reply(
        blocks=(
            Text(_("Record it as written?"), title=True),
            Text(
                _(
                    "{questions} Nothing was recorded. {fixes}; if it is right as written, "
                    "add confirm at the end: {command}",
                    questions=" ".join(questions),
                    fixes="; ".join(fixes),
                    command=command,
                )
            ),
        ),
        # TRANSLATORS: a button under a question about a game that looks mistyped
        buttons=(Button(_("Record as written"), command),),
    )
