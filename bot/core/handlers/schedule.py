"""Work on a schedule and reports awaiting confirmation: /weekly, /summary, /confirm,
/dispute, and the console's /tick (issue 4/6)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import storage
from bot.clock import FakeClock, parse_duration
from bot.core import format as fmt
from bot.core.commands import CONSOLE, ORGANISER, PLAYER, Param, command, on_off
from bot.core.context import Context
from bot.core.errors import BadArgument, NotPermitted, reason
from bot.core.notices import weekly_reply
from bot.core.replies import Notice, Reply, Text
from bot.core.scheduler import DEFAULT_WEEKLY
from bot.i18n import N_, _, date_text, date_time_text, quoted, translated, weekday_text
from storage import schedules
from storage.records import GameRow
from storage.settings import WEEKDAYS, parse_weekly


@dataclass(frozen=True, slots=True)
class WeeklyArgs:
    state: str
    when: str | None = None


@command(
    "weekly",
    usage="/weekly on|off [DAY HH:MM]",
    summary=N_(
        "The weekly ranking summary, posted to every chat of the club (default Monday "
        "18:00, club time)."
    ),
    examples=("/weekly on", "/weekly on sun 20:00", "/weekly off"),
    access=ORGANISER,
    params=(
        on_off(N_("write /weekly on [DAY HH:MM] or /weekly off")),
        Param(
            "when",
            "text",
            N_("day and time, e.g. mon 18:00"),
            required=False,
            metavar="DAY HH:MM",
        ),
    ),
)
async def weekly(ctx: Context, args: WeeklyArgs) -> Reply:
    if args.state == "off":
        await storage.set_setting(
            ctx.db, ctx.the_club, "weekly", "off", actor=ctx.actor, chat=ctx.chat
        )
        return Reply.text(_("The weekly summary is off. /summary still shows one on request."))
    when = args.when or DEFAULT_WEEKLY
    try:
        rule = parse_weekly(when)
    except ValueError as exc:
        raise BadArgument(reason(exc, _("cannot read {text}", text=quoted(when)))) from None
    if rule is None:  # "/weekly on off": parse_weekly reads "off" as no schedule
        raise BadArgument(
            _(
                "after on, write a day and a time, e.g. {example}, not {text}",
                example="mon 18:00",
                text=quoted(when),
            )
        )
    value = f"{WEEKDAYS[rule[0]]} {rule[1]:%H:%M}"
    await storage.set_setting(
        ctx.db, ctx.the_club, "weekly", value, actor=ctx.actor, chat=ctx.chat
    )
    return Reply.text(
        # TRANSLATORS: e.g. "… every Monday at 18:00 (Europe/Budapest) to every chat of …"
        _(
            "The weekly summary will be posted every {weekday} at {time} ({zone}) to every "
            "chat of {club}.",
            weekday=weekday_text(rule[0]),
            time=f"{rule[1]:%H:%M}",
            zone=ctx.settings.time_zone,
            club=ctx.the_club.name,
        )
    )


@dataclass(frozen=True, slots=True)
class SummaryArgs:
    pass


@command(
    "summary",
    usage="/summary",
    summary=N_("The ranking summary of the last seven days, now."),
    examples=("/summary",),
    extra=N_("/summary takes no arguments"),
)
async def summary(ctx: Context, args: SummaryArgs) -> Reply:
    # the seven calendar days up to today (club time), as the projections hold them
    today = ctx.core.clock().astimezone(ctx.timezone).date()
    end = dt.datetime.combine(today + dt.timedelta(days=1), dt.time(), tzinfo=ctx.timezone)
    return await weekly_reply(ctx.db, ctx.the_club, end - dt.timedelta(days=7), end)


MAX_TICK = dt.timedelta(days=3653)  # ten years
GAME_STATUS = {
    # TRANSLATORS: a game's status: it counts
    "ok": N_("recorded"),
    # TRANSLATORS: a game's status: an organiser voided it
    "voided": N_("voided"),
    # TRANSLATORS: a game's status: taken back with /undo
    "undone": N_("undone"),
    # TRANSLATORS: a game's status: a player's report waiting for the opponent
    "pending": N_("pending"),
}
"""How a game's status (storage's GAME_… values) reads in a refusal."""


@dataclass(frozen=True, slots=True)
class TickArgs:
    when: str | None = None


@command(
    "tick",
    usage="/tick DURATION | YYYY-MM-DD HH:MM",
    summary=N_("Console only: move the console's clock forward and run whatever became due."),
    examples=("/tick 1d", "/tick 6h", "/tick 2026-12-01 00:05"),
    access=CONSOLE,
    needs_club=False,
    # optional here: a real clock is refused first, then a missing one (below)
    params=(
        Param(
            "when",
            "text",
            N_("how far: a duration (1d, 6h) or a date and time"),
            required=False,
            metavar="DURATION",
        ),
    ),
)
async def tick(ctx: Context, args: TickArgs) -> Reply:
    clock, scheduler = ctx.core.clock, ctx.core.scheduler
    if not isinstance(clock, FakeClock) or scheduler is None:
        raise BadArgument(
            _(
                "the clock is real here; start the console with {option} to move time by hand",
                option='--clock "2026-11-02 09:00"',
            )
        )
    text = args.when or ""
    if not text:
        raise BadArgument(
            _(
                "say how far, e.g. {example} or {other}",
                example="/tick 1d",
                other="/tick 2026-12-01 00:05",
            )
        )
    try:
        if any(ch in text for ch in "-:"):
            try:
                moment = dt.datetime.fromisoformat(text)
            except ValueError:
                raise BadArgument(
                    _(
                        "{text} is not a date and time; write e.g. {example}",
                        text=quoted(text),
                        example="/tick 2026-12-01 00:05",
                    )
                ) from None
            target = moment if moment.tzinfo else moment.replace(tzinfo=ctx.timezone)
        else:
            target = clock() + parse_duration(text)
    except OverflowError:
        target = dt.datetime.max.replace(tzinfo=dt.UTC)  # refused just below
    except ValueError as exc:
        raise BadArgument(reason(exc, _("cannot read {text}", text=quoted(text)))) from None
    # every month and day on the way is worked through: a jump to the year 9999 would run
    # for hours (found by fuzzing), and 99999999999999d overflowed
    if target - clock() > MAX_TICK:
        raise BadArgument(
            _("{text} is too far: move the clock at most 10 years at a time", text=quoted(text))
        )
    try:
        clock.set(target)
    except ValueError as exc:
        raise BadArgument(reason(exc, _("cannot read {text}", text=quoted(text)))) from None
    done = await scheduler.run_due()
    now = clock().astimezone(ctx.timezone)
    lines = [_("It is now {moment} ({zone}).", moment=date_time_text(now), zone=ctx.timezone.key)]
    # what ran, each club's work named in this reply's language (not each club's own)
    jobs = "; ".join(translated(job) for job in done)
    lines.append(_("Ran: {jobs}", jobs=jobs) if done else _("Nothing was due."))
    return Reply.text(*lines)


REPORT_NUMBER = N_("give the report's number, e.g. {example}")
"""The refusal of /confirm or /dispute without a number (``{example}``: the command's)."""


async def _report(ctx: Context, number: int) -> GameRow:
    """The pending report numbered ``number``, or a refusal saying why not."""
    row = await storage.game_by_number(ctx.db, ctx.the_club, number)
    if row is None:
        raise BadArgument(_("there is no game #{number} in this club", number=number))
    if row.status != "pending":
        raise BadArgument(
            _(
                "game #{number} is not waiting for a confirmation ({status})",
                number=number,
                status=_(GAME_STATUS.get(row.status, row.status)),
            )
        )
    return row


async def _callers_side(ctx: Context, row: GameRow) -> int | None:
    """The game's player the caller is linked to, if any."""
    caller = ctx.inv.caller
    player = await storage.player_for_account(
        ctx.db, ctx.the_club, caller.platform, caller.account
    )
    if player is not None and player.id in (row.game.black, row.game.white):
        return player.id
    return None


@dataclass(frozen=True, slots=True)
class ConfirmArgs:
    game_id: int


@command(
    "confirm",
    usage="/confirm GAME_ID",
    summary=N_("Confirm a result your opponent reported (or, for organisers, any report)."),
    examples=("/confirm 12",),
    access=PLAYER,
    params=(Param("game_id", "number", N_("the report's number"), missing=REPORT_NUMBER),),
)
async def confirm(ctx: Context, args: ConfirmArgs) -> Reply:
    row = await _report(ctx, args.game_id)
    side = await _callers_side(ctx, row)
    if not ctx.organiser:
        if side is None:
            raise NotPermitted(
                _("only the opponent named in the report, or an organiser, can confirm it")
            )
        if row.entry.actor == ctx.actor:
            raise NotPermitted(_("your opponent must confirm your own report"))
    confirmed = await storage.confirm_game(
        ctx.db, ctx.the_club, row.id, actor=ctx.actor, chat=ctx.chat
    )
    return Reply.text(
        _(
            "Game #{number} ({result}, {date}) is confirmed and counts from now on.",
            number=confirmed.number,
            result=fmt.result(confirmed.game),
            date=date_text(confirmed.game.date),
        )
    )


@dataclass(frozen=True, slots=True)
class DisputeArgs:
    game_id: int
    reason: str | None = None


@command(
    "dispute",
    usage="/dispute GAME_ID [REASON]",
    summary=N_("Dispute a reported result: it stays unrated and the organisers are told."),
    examples=("/dispute 12 I won by resignation",),
    access=PLAYER,
    params=(
        Param("game_id", "number", N_("the report's number"), missing=REPORT_NUMBER),
        Param("reason", "text", N_("what is wrong"), required=False),
    ),
)
async def dispute(ctx: Context, args: DisputeArgs) -> Reply:
    row = await _report(ctx, args.game_id)
    reason = args.reason or ""
    if not ctx.organiser and await _callers_side(ctx, row) is None:
        raise NotPermitted(_("only the players of the game, or an organiser, can dispute it"))
    await schedules.record_dispute(
        ctx.db, ctx.the_club, row.id, reason, actor=ctx.actor, chat=ctx.chat
    )
    organisers = ", ".join(sorted(await storage.organisers(ctx.db, ctx.the_club)))
    await ctx.core.post(
        Notice(
            ctx.the_club.id,
            Reply(
                blocks=(
                    Text(_("Report #{number} is disputed", number=row.number), title=True),
                    Text(
                        _(
                            "{person} disputes game #{number} ({result}, {date}): "
                            "{reason}. Organisers ({organisers}): /confirm {number} if "
                            "it stands, or /void {number}.",
                            person=ctx.inv.caller.name,
                            number=row.number,
                            result=fmt.result(row.game),
                            date=date_text(row.game.date),
                            reason=reason,
                            organisers=organisers,
                        )
                        if reason
                        else _(
                            "{person} disputes game #{number} ({result}, {date}). "
                            "Organisers ({organisers}): /confirm {number} if it stands, "
                            "or /void {number}.",
                            person=ctx.inv.caller.name,
                            number=row.number,
                            result=fmt.result(row.game),
                            date=date_text(row.game.date),
                            organisers=organisers,
                        )
                    ),
                )
            ),
        )
    )
    return Reply.text(
        _(
            "Game #{number} is disputed: it stays unrated and the organisers have been told.",
            number=row.number,
        )
    )
