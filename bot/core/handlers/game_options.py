"""Reading the options a game takes: ``h=`` ``komi=`` ``date=`` ``time=`` ``board=`` (bot.md)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

from bot.core.commands import Option
from bot.core.context import Context
from bot.core.errors import BadArgument
from bot.core.parse import positive_int
from bot.i18n import N_, _, translated
from engine.errors import EngineError
from engine.formats import parse_result_margin
from engine.formats.tournament_file import parse_komi
from engine.timecontrol import TimeControl
from engine.types import Result

GAME_OPTIONS = (
    Option("h", "int", N_("handicap stones (0–9)")),
    Option("komi", "text", N_("komi to White, e.g. 6.5 (default: the club's)"), "K"),
    Option("date", "text", N_("the day it was played (default today)"), "YYYY-MM-DD"),
    Option("time", "text", N_('the time control, e.g. "60m 3x30s"'), "TIME"),
    Option("board", "int", N_("the board size (default 19)")),
)
EARLIEST = dt.date(1900, 1, 1)
RESULT_WORDS = ("B+", "W+", "B+R", "W+3.5", "jigo", "unplayed")


def read_result(text: str) -> tuple[Result | None, bool, str | None] | None:
    """The result a token denotes (result, played, SGF margin such as ``R`` or ``3.5``), or
    ``None`` when the token is not a result."""
    if text.lower() in ("0",):  # SGF's draw is too easily a typo here; ask for "jigo"
        return None
    try:
        return parse_result_margin(text)
    except EngineError:
        return None


def stones(value: str) -> int:
    # TRANSLATORS: the option named in an error such as "h (handicap stones) must be …"
    return positive_int(value, _("h (handicap stones)"), low=0, high=9)


def komi(ctx: Context, value: str | None, stones_: int) -> Fraction:
    """The komi given, or the default: the club's even komi, 0.5 with stones, 0 with one."""
    if value is not None:
        try:
            k = parse_komi(value)
        except EngineError:
            raise BadArgument(
                _("komi must be a number like 6.5, 0.5 or -3, not {value}", value=repr(value))
            ) from None
        if not -50 <= k <= 50:
            raise BadArgument(_("komi must be between -50 and 50, not {value}", value=value))
        return k
    if stones_ == 1:
        return Fraction(0)
    if stones_ > 1:
        return Fraction(1, 2)
    return ctx.settings.komi


def date(ctx: Context, value: str | None) -> dt.date:
    """``YYYY-MM-DD`` (default today, club time), not in the future, not before 1900."""
    today = ctx.today()
    if value is None:
        return today
    if value.lower() == "today":
        return today
    if value.lower() == "yesterday":
        return today - dt.timedelta(days=1)
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        raise BadArgument(
            _(
                "date must be YYYY-MM-DD, e.g. date={today}, not {value}",
                today=today.isoformat(),
                value=repr(value),
            )
        ) from None
    if day > today + dt.timedelta(days=1):
        raise BadArgument(_("the date {date} is in the future", date=day.isoformat()))
    if day < EARLIEST:
        raise BadArgument(
            _("the date {date} is before {year}", date=day.isoformat(), year=EARLIEST.year)
        )
    return day


def time_control(value: str | None) -> TimeControl | None:
    if value is None:
        return None
    try:
        return TimeControl.parse(value)
    except EngineError as exc:
        reason = translated(exc.args[0]) if exc.args else str(exc)
        raise BadArgument(_("time={value}: {reason}", value=repr(value), reason=reason)) from None


def board(value: str | None) -> int:
    return 19 if value is None else positive_int(value, "board", low=5, high=25)
