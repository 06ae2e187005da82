"""Tournaments: /tournament new | result | import | finalise | reopen | show | list."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from dataclasses import dataclass
from fractions import Fraction

import storage
from bot.core import format as fmt
from bot.core import importing, rounds
from bot.core.commands import (
    ORGANISER,
    PLAYER,
    Action,
    Flag,
    GameResult,
    Option,
    Param,
    Upload,
    command,
)
from bot.core.context import Context
from bot.core.errors import BadArgument
from bot.core.handlers import game_options as opt
from bot.core.handlers import tournament_rounds as rr
from bot.core.handlers.games import game_line, will_not_count
from bot.core.names import resolve_tournament
from bot.core.notices import finalisation_reply, pending_amounts, tournament_players
from bot.core.replies import Button, Reply, Table, Text
from bot.i18n import N_, _, _n, date_text, date_time_text, quoted, translated
from engine.calendar import month_end
from engine.errors import EngineError
from engine.ranks import Rank
from engine.timecontrol import TimeControl
from engine.types import Game, Importance, Tournament
from storage import schedules
from storage.errors import Refused
from storage.pairings import Setup
from storage.records import Player, TournamentRow
from storage.tournaments import EGF_CLASSES, MissingRound

USAGE = N_(
    "/tournament new NAME [start=YYYY-MM-DD] [end=YYYY-MM-DD] [rounds=N] [board=N] [time=TIME] "
    "[even|handicap] [reduce=N] [C=NN] [participants=N|>80] [invitational|championship] "
    "[european|world] [arranged] [class=A-D] [pairing=mcmahon|swiss|roundrobin] [bar=RANK] "
    "[floor=RANK] [handicap=none|rank-N|system] [order=sos,sosos] | "
    "result ROUND BLACK WHITE RESULT [h=N] [komi=K] [date=YYYY-MM-DD] [time=TIME] [board=N] "
    "[t=NAME] | "
    "import [C=NN] [class=A-D] [name=...] [committee] | "
    "finalise [NAME] [confirm] | schedule NAME [YYYY-MM-DD] [HH:MM] | reopen NAME | "
    "show [NAME] | list | join [NAME] | add NAME, NAME [t=NAME] | withdraw [NAME] [t=NAME] | "
    "players [NAME] | pair [NAME] [again] | swap A B [t=NAME] | publish [NAME] | "
    "missing [NAME] [remind] | standings [NAME] [picture]"
)
PAIRING_SYSTEMS = ("mcmahon", "swiss", "roundrobin")
_GAME = {o.key: dataclasses.replace(o, actions=("result",)) for o in opt.GAME_OPTIONS}
OPTIONS = (
    Option("start", "text", N_("the first day (default today)"), "YYYY-MM-DD", actions=("new",)),
    Option("end", "text", N_("the last day (default: the start)"), "YYYY-MM-DD", actions=("new",)),
    Option("rounds", "int", N_("how many rounds, 1–50 (default 1)"), actions=("new",), high=50),
    Option(
        "board",
        "int",
        N_("the board size (default 19)"),
        actions=("new", "result"),
        low=5,
        high=25,
    ),
    Option(
        "time",
        "time",
        N_('the time control, e.g. "60m 3x30s"'),
        "TIME",
        actions=("new", "result"),
    ),
    Option("reduce", "int", N_("lower the handicap by N stones"), actions=("new",), low=0, high=9),
    Option(
        "c",
        "int",
        N_("the MGSZ multiplier set by hand"),
        "NN",
        actions=("new", "import"),
        name="C",
        low=0,
        high=1000,
    ),
    Option(
        "participants",
        "int",
        N_("the field's size"),
        actions=("new",),
        low=2,
        high=100_000,
    ),
    Option(
        "class",
        "text",
        N_("the EGF tournament class A–D, where a system weights by it"),
        "A-D",
        choices=EGF_CLASSES,
        actions=("new", "import"),
    ),
    _GAME["h"],
    _GAME["komi"],
    _GAME["date"],
    Option(
        "t",
        "text",
        N_("which tournament (name or #N), when several are open"),
        "NAME",
        actions=("result", "add", "withdraw", "swap"),
    ),
    Option("name", "text", N_("the tournament's name"), "...", actions=("import",)),
    Option(
        "pairing",
        "choice",
        N_("run it from the chat, paired by McMahon, Swiss or round robin"),
        "mcmahon|swiss|roundrobin",
        choices=PAIRING_SYSTEMS,
        actions=("new",),
    ),
    Option(
        "bar", "rank", N_("the McMahon bar: everyone above starts equal"), "RANK", actions=("new",)
    ),
    Option(
        "floor",
        "rank",
        N_("the McMahon floor: everyone below starts equal"),
        "RANK",
        actions=("new",),
    ),
    Option(
        "handicap",
        "text",
        N_("the pairing's handicap: none, rank-N (rank difference minus N) or system"),
        "none|rank-N|system",
        actions=("new",),
    ),
    Option(
        "order",
        "text",
        N_("the standings' tie-breaks after the score, e.g. sos,sosos,sodos"),
        "sos,sosos",
        actions=("new",),
    ),
)
COMMITTEE_WORDS = ("committee", "override")
CONFIRM_WORDS = ("confirm", "anyway", "yes")
NEW_FLAGS = (
    Flag("even", N_("no-handicap games (the default)")),
    Flag("handicapped", N_("handicap games"), ("handicap",)),
    Flag(
        "invitational",
        N_("an international invitational or the national championship"),
        ("invitational", "championship"),
    ),
    Flag("european", N_("a European or world event"), ("european", "world")),
    Flag("arranged", N_("its games count as arranged games (PSG regulations §10(2))")),
    Flag("over80", N_("more than 80 players"), (">80",)),
)
FLAGS = tuple(word for flag in NEW_FLAGS for word in flag.said)
"""The words /tournament new takes on their own (``even``, ``>80`` …)."""


def _not_an_option(word: str, before: str) -> None:
    """Refuse an unquoted word of a tournament's name that is an option without its key (a
    date, a time control, a board size, "5 rounds"): never fold it into the name. Quoted, it
    is part of the name (the parser calls this for unquoted words only)."""
    if _DATE_LIKE.fullmatch(word):
        raise BadArgument(
            _(
                "{quoted} looks like a date: write start={word} (and end=YYYY-MM-DD for a "
                "second day), or quote the name if the date is part of it: {example}",
                quoted=quoted(word),
                word=word,
                example=f'"Spring Cup {word}"',
            )
        )
    board = _BOARD_LIKE.fullmatch(word)
    if board:
        raise BadArgument(
            _(
                "{quoted} looks like a board size: write board={size}",
                quoted=quoted(word),
                size=board[1],
            )
        )
    if word.lower() in ("round", "rounds"):
        count = before if before.isdecimal() else "5"
        raise BadArgument(
            _(
                "{quoted} looks like an option: write rounds={count}",
                quoted=quoted(word),
                count=count,
            )
        )
    if any(c.isdecimal() for c in word) and not word.isdecimal():
        try:
            TimeControl.parse(word)
        except (EngineError, ValueError):
            return
        raise BadArgument(
            _(
                "{quoted} looks like a time control: write time={word} (with quotes for "
                "several words: {example})",
                quoted=quoted(word),
                word=word,
                example='time="60m 3x30s"',
            )
        )


_DATE_LIKE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}|\d{1,4}[./]\d{1,2}[./]\d{1,4}")
_BOARD_LIKE = re.compile(r"(\d{1,2})\s*[x×]\s*\d{1,2}")


@dataclass(frozen=True, slots=True)
class NewArgs:
    name: str = ""
    start: str | None = None
    end: str | None = None
    rounds: int | None = None
    board: int | None = None
    time: TimeControl | None = None
    reduce: int | None = None
    c: int | None = None
    participants: int | None = None
    class_: str | None = None
    pairing: str | None = None
    bar: Rank | None = None
    floor: Rank | None = None
    handicap: str | None = None
    order: str | None = None
    even: bool = False
    handicapped: bool = False
    invitational: bool = False
    european: bool = False
    arranged: bool = False
    over80: bool = False


START_WITH_ROUND = N_("start with the round number, e.g. {example}")
ROUND = Param(
    "round",
    "int",
    N_("the round's number"),
    missing=START_WITH_ROUND,
    refusal=START_WITH_ROUND,
)
END_WITH_RESULT = N_("end with the result: B+, W+, B+R, W+3.5, jigo or unplayed")


@dataclass(frozen=True, slots=True)
class ResultArgs:
    round: int
    black: Player
    white: Player
    result: GameResult
    board: int | None = None
    time: TimeControl | None = None
    h: int | None = None
    komi: Fraction | None = None
    date: dt.date | None = None
    t: str | None = None
    confirm: bool = False


@dataclass(frozen=True, slots=True)
class ImportArgs:
    file: Upload | None = None
    c: int | None = None
    class_: str | None = None
    name: str | None = None
    committee: bool = False
    again: bool = False
    confirm: bool = False


@dataclass(frozen=True, slots=True)
class FinaliseArgs:
    name: str = ""
    confirm: bool = False


@dataclass(frozen=True, slots=True)
class ScheduleArgs:
    name: str = ""
    day: dt.date | None = None
    at: dt.time | None = None


@dataclass(frozen=True, slots=True)
class ReopenArgs:
    name: str = ""


@dataclass(frozen=True, slots=True)
class ShowArgs:
    name: str = ""


@dataclass(frozen=True, slots=True)
class ListArgs:
    pass


TournamentArgs = (
    rr.RoundArgs
    | NewArgs
    | ResultArgs
    | ImportArgs
    | FinaliseArgs
    | ScheduleArgs
    | ReopenArgs
    | ShowArgs
    | ListArgs
)
NAME = Param("name", "text", N_("the tournament (name or #N)"), required=False)
ACTIONS = (
    Action(
        "new",
        params=(
            Param(
                "name",
                "text",
                N_("the tournament's name"),
                required=False,
                first=True,
                check=_not_an_option,
            ),
        ),
        flags=NEW_FLAGS,
        arguments=NewArgs,
        access=ORGANISER,
    ),
    Action(
        "result",
        params=(
            ROUND,
            Param("black", "player", N_("who had Black")),
            Param("white", "player", N_("who had White")),
            Param(
                "result",
                "result",
                N_("B+, W+, B+R, W+3.5, jigo or unplayed"),
                missing=END_WITH_RESULT,
                refusal=END_WITH_RESULT,
            ),
        ),
        flags=(Flag("confirm", N_("record it as written, not asked about"), menu=False),),
        arguments=ResultArgs,
        table="import",
        access=ORGANISER,
    ),
    Action(
        "import",
        params=(
            Param(
                "file",
                "file",
                N_("a results table (h9, OpenGotha XML or CSV)"),
                required=False,
            ),
        ),
        flags=(
            Flag(
                "committee",
                N_("new players' declared ranks as a rating committee decision"),
                COMMITTEE_WORDS,
            ),
            Flag("again", N_("record games the club has already")),
            Flag("confirm", N_("the file's names in another word order are the club's players")),
        ),
        arguments=ImportArgs,
        extra=N_(
            "unexpected {word}: /tournament import takes C=NN, name=..., "
            "committee (new players' declared ranks as a rating committee decision), "
            "again (record games the club has already) and confirm (the file's names "
            "in another word order are the club's players)"
        ),
        access=ORGANISER,
    ),
    Action(
        "finalise",
        params=(NAME,),
        flags=(Flag("confirm", N_("rate it with rounds missing"), CONFIRM_WORDS),),
        arguments=FinaliseArgs,
        aliases=("finalize", "rate"),
        access=ORGANISER,
    ),
    Action(
        "schedule",
        params=(
            NAME,
            Param("day", "day", N_("the day (default: its end date)"), required=False),
            Param("at", "clock", N_("the time (default 20:00)"), required=False, metavar="HH:MM"),
        ),
        arguments=ScheduleArgs,
        access=ORGANISER,
    ),
    Action("reopen", params=(NAME,), arguments=ReopenArgs, access=ORGANISER),
    Action("show", params=(NAME,), arguments=ShowArgs),
    Action("list", arguments=ListArgs),
    Action("join", params=(NAME,), arguments=rr.JoinArgs, aliases=("enter",)),
    Action(
        "add",
        params=(Param("names", "text", N_("the players, separated by commas"), metavar="NAME"),),
        arguments=rr.AddArgs,
        access=ORGANISER,
    ),
    Action(
        "withdraw",
        params=(Param("name", "text", N_("the player (default: yourself)"), required=False),),
        arguments=rr.WithdrawArgs,
    ),
    Action("players", params=(NAME,), arguments=rr.PlayersArgs),
    Action(
        "pair",
        params=(NAME,),
        flags=(Flag("again", N_("pair the last published round again (before any result)")),),
        arguments=rr.PairArgs,
        access=ORGANISER,
    ),
    Action(
        "swap",
        params=(
            Param("a", "player", N_("a player of the draft")),
            Param("b", "player", N_("the player to swap them with")),
        ),
        arguments=rr.SwapArgs,
        access=ORGANISER,
    ),
    Action("publish", params=(NAME,), arguments=rr.PublishArgs, access=ORGANISER),
    Action(
        "missing",
        params=(NAME,),
        flags=(Flag("remind", N_("remind the players of those boards in private")),),
        arguments=rr.MissingArgs,
    ),
    Action(
        "standings",
        params=(NAME,),
        flags=(Flag("picture", N_("as a crosstable picture")),),
        arguments=rr.StandingsArgs,
    ),
)

DETAILS = N_(
    "/tournament new NAME [options] — the name comes first (in quotes when it holds a "
    'keyword, e.g. "World Cup"); then, in any order:\n'
    "• start=YYYY-MM-DD, end=YYYY-MM-DD — its days (default: today, one day); a "
    "tournament may be opened before it is played, e.g. /tournament new Summer Cup "
    "start=2026-06-06 end=2026-06-07\n"
    "• rounds=N — 1 to 50 (default 1), e.g. /tournament new Club League rounds=7\n"
    "• board=N — 19, 13 or 9 … (default 19), e.g. /tournament new Kids Cup board=13 "
    "C=10\n"
    '• time="…" — the time control (main time, byo-yomi, Canadian), e.g. /tournament '
    'new Rapid Cup time="30m 3x20s"\n'
    "• even | handicap — no-handicap (the default), or handicap games; reduce=N "
    "lowers the stones by N (the handicap rule), e.g. /tournament new Club Night "
    "handicap reduce=1 C=20\n"
    "• invitational | championship — an international invitational or the national "
    "championship; european | world — a European or world event; >80 or "
    "participants=N — the field's size (importance flags for the MGSZ multiplier), "
    'e.g. /tournament new Budapest Open invitational >80 time="60m 3x30s"\n'
    "• C=NN — the MGSZ multiplier set by hand (the rating committee's decision when "
    "it cannot be computed), e.g. /tournament new Teaching Day C=12\n"
    "• class=A–D — the EGF tournament class, where the club's system weights a "
    "tournament by it (an h9 file's CL[…] gives it too), e.g. /tournament new Online "
    "League class=D\n"
    "• arranged — a small tournament whose games count as arranged games (PSG "
    "regulations §10(2)), e.g. /tournament new Autumn League arranged rounds=5 C=20\n"
    "A word that is not the name or an option (a date without start=, 60m without "
    'time=, "5 rounds") is refused, never made part of the name.\n'
    "/tournament result ROUND BLACK WHITE RESULT — a game: h=N (stones), komi=K, "
    'date=YYYY-MM-DD, time="…", board=N, t=NAME or t=#N (which tournament, when '
    "several are open), e.g. /tournament result 2 Nagy Péter Kovács Anna W+ h=2 t=#1\n"
    "/tournament import — a results table pasted below or attached (h9, OpenGotha "
    "XML, CSV): C=NN, class=A–D, name=NAME, committee (new players' declared ranks as "
    "a rating committee decision), again (a file whose games the club has already is "
    "refused, naming them; again records them anyway), confirm (a file's name that is a "
    "club player's name in another order, Anna Kiss for Kiss Anna, is asked about; confirm "
    "takes them as the same person)\n"
    "/tournament finalise [NAME|#N] — rate it now; with rounds missing it asks first, "
    "and /tournament finalise NAME confirm rates it as it is\n"
    "/tournament schedule NAME [YYYY-MM-DD] [HH:MM] — rate it at a time (default: the "
    "end date, 20:00 club time); reopen NAME, show [NAME], list\n"
    "A tournament is named by its name (accents and case optional, a unique start is "
    "enough) or by its number: #2."
)


@command(
    "tournament",
    usage=USAGE,
    summary=N_("Open a tournament, add its games one by one or as a pasted table, rate it."),
    examples=(
        '/tournament new Spring Cup start=2026-04-11 end=2026-04-12 rounds=5 time="60m 3x30s" '
        "even",
        "/tournament result 1 Nagy Péter Kovács Anna B+",
        "/tournament import C=20",
        "/tournament finalise Spring Cup",
    ),
    access=PLAYER,
    details=(DETAILS, rr.DETAILS),
    options=OPTIONS,
    actions=ACTIONS,
    unknown=N_("unknown /tournament action {action}"),
    params=(
        Param("action", "choice", N_("what to do"), choices=tuple(a.name for a in ACTIONS)),
        Param("args", "text", N_("the action's arguments"), required=False),
        Param("file", "file", N_("a results table (h9, OpenGotha XML or CSV)"), required=False),
    ),
)
async def tournament(ctx: Context, args: TournamentArgs) -> Reply:
    if isinstance(args, NewArgs):
        return await _new(ctx, args)
    if isinstance(args, ResultArgs):
        return await _result(ctx, args)
    if isinstance(args, ImportArgs):
        return await _import(ctx, args)
    if isinstance(args, FinaliseArgs):
        return await _finalise(ctx, args)
    if isinstance(args, ScheduleArgs):
        return await _schedule(ctx, args)
    if isinstance(args, ReopenArgs):
        return await _reopen(ctx, args)
    if isinstance(args, ShowArgs):
        return await _show(ctx, args)
    if isinstance(args, ListArgs):
        return await _list(ctx)
    return await _round_action(ctx, args)


async def _round_action(ctx: Context, args: rr.RoundArgs) -> Reply:
    """An action of a tournament run from the chat (bot.core.handlers.tournament_rounds): the
    tournament it names (NAME, or ``t=`` where NAME is a player), or the club's only open one."""
    action, option = rr.named(args)
    row = await _which(ctx, getattr(args, option) or "", action, option if option == "t" else None)
    return await rr.run_action(ctx, args, row)


async def _new(ctx: Context, args: NewArgs) -> Reply:
    name = args.name.strip()
    if not name:
        raise BadArgument(_("name the tournament, e.g. /tournament new Spring Cup rounds=5"))
    # a tournament may be opened before it is played: its dates may lie ahead
    start = _any_date(args.start, "start") if args.start is not None else ctx.today()
    end = _any_date(args.end, "end") if args.end is not None else start
    if end < start:
        raise BadArgument(
            _(
                "the end {end} is before the start {start}",
                end=end.isoformat(),
                start=start.isoformat(),
            )
        )
    setup = _pairing_setup(args)
    reduction = args.reduce or 0
    if setup is not None and setup.handicap.startswith("rank-"):
        reduction = int(setup.handicap[5:])
    participants = (
        args.participants if args.participants is not None else (81 if args.over80 else None)
    )
    even = args.even or (not args.handicapped and reduction == 0)
    if setup is not None:  # the pairing's handicap decides (rules.md §1.2: even or not)
        even = setup.handicap == "none"
    t = Tournament(
        id=0,
        name=name,
        start=start,
        end=end,
        rounds=args.rounds or 1,
        board=args.board or 19,
        time=args.time,
        even=even,
        handicap_reduction=reduction,
        participants=participants,
        importance=Importance(args.invitational, args.european),
        multiplier=args.c,
        arranged=args.arranged,
        klass=egf_class(args.class_, f"/tournament new {name} class=B"),
    )
    row = await storage.create_tournament(
        ctx.db, ctx.the_club, t, actor=ctx.actor, chat=ctx.chat, pairing=setup
    )
    lines = await _facts(ctx, row)
    buttons: tuple[Button, ...] = ()
    if setup is not None:
        lines.append(rounds.pairing_line(setup))
        lines.append(
            _(
                "Registration is open: players join with /tournament join #{number} (or the "
                "button), an organiser adds them with /tournament add NAME, NAME; then "
                "/tournament pair drafts round 1.",
                number=row.number,
            )
        )
        # TRANSLATORS: a button under a new tournament run from the chat
        buttons = (Button(_("Join"), f"/tournament join #{row.number}"),)
    return Reply(
        blocks=(
            Text(
                _(
                    "Tournament #{number} {name} opened",
                    number=row.number,
                    name=row.tournament.name,
                ),
                title=True,
            ),
            Text("\n".join(lines)),
        ),
        buttons=buttons,
    )


HANDICAP_POLICY = re.compile(r"none|system|rank-([0-9])")


def _pairing_setup(args: NewArgs) -> Setup | None:
    """The pairing chosen with ``pairing=`` (``None``: not run from the chat); ``bar=``,
    ``floor=``, ``handicap=`` and ``order=`` without it are refused, never ignored."""
    if args.pairing is None:
        given = [
            key
            for key, value in (
                ("bar", args.bar),
                ("floor", args.floor),
                ("handicap", args.handicap),
                ("order", args.order),
            )
            if value is not None
        ]
        if given:
            raise BadArgument(
                _(
                    "{key}= sets how a tournament run from the chat is paired: add "
                    "pairing=mcmahon (or swiss, roundrobin)",
                    key=given[0],
                )
            )
        return None
    policy = (args.handicap or "none").strip().lower()
    if not HANDICAP_POLICY.fullmatch(policy):
        raise BadArgument(
            _(
                "handicap= is none, rank-N (the rank difference minus N stones, e.g. rank-2) "
                "or system (the club's rating system's advice), not {value}",
                value=quoted(args.handicap or ""),
            )
        )
    words = [w.strip().lower() for w in (args.order or "").split(",") if w.strip()]
    wrong = [w for w in words if w not in rounds.CRITERIA]
    if wrong:
        raise BadArgument(
            _(
                "order= lists tie-breaks from {known}, separated by commas, e.g. "
                "order=sos,sosos; not {value}",
                known=", ".join(rounds.CRITERIA),
                value=quoted(wrong[0]),
            )
        )
    if args.bar is not None and args.floor is not None and args.floor > args.bar:
        raise BadArgument(
            _(
                "the McMahon floor {floor} is above the bar {bar}",
                floor=str(args.floor),
                bar=str(args.bar),
            )
        )
    if args.pairing != "mcmahon" and (args.bar is not None or args.floor is not None):
        raise BadArgument(_("bar= and floor= are for McMahon: pairing=mcmahon"))
    return Setup(args.pairing, args.bar, args.floor, policy, tuple(dict.fromkeys(words)))


def _any_date(value: str, key: str) -> dt.date:
    """A date, past or future (a tournament's own dates; games are checked by parse.date_value);
    ``key`` is the option it was typed as (``start``)."""
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        raise BadArgument(
            _("{key}= must be YYYY-MM-DD, not {value}", key=key, value=quoted(value))
        ) from None
    if day < opt.EARLIEST:
        raise BadArgument(
            _(
                "{key}= {date} is before {year}",
                key=key,
                date=day.isoformat(),
                year=opt.EARLIEST.year,
            )
        )
    return day


async def _facts(ctx: Context, row: TournamentRow) -> list[str]:
    t = row.tournament
    facts = [
        _("{start} – {end}", start=date_text(t.start), end=date_text(t.end)),
        _n("{n} round", "{n} rounds", t.rounds),
        f"{t.board}×{t.board}",
        _("even")
        if t.even
        else _("handicap (reduced by {stones})", stones=t.handicap_reduction)
        if t.handicap_reduction
        else _("handicap"),
    ]
    if t.time:
        facts.append(_("time {time}", time=str(t.time)))
    lines = [
        ", ".join(facts),
        _("Status: finalised") if row.finalised else _("Status: open"),
    ]
    try:
        weight = (await storage.ledger(ctx.db, ctx.the_club.id)).tournament_weight(t)
    except EngineError as exc:
        reason = translated(exc.args[0]) if exc.args else str(exc)
        lines.append(_("Weight: not yet determined — {reason}", reason=reason))
    else:
        if weight is not None:  # how the club's system weighs it (MGSZ's multiplier C)
            said = "; ".join(translated(line) for line in weight.lines)
            lines.append(f"{translated(weight.label)}: {said}")
    return lines


async def _which(ctx: Context, name: str, action: str, option: str | None = None) -> TournamentRow:
    """The named tournament (matched as player names are, or ``#N``), or with no name the
    club's only open one (``option`` is how ``action`` names a tournament, e.g. ``t`` for
    ``t="Spring Cup"``; else the rest of the line)."""
    if name.strip():
        example = f"{option}=#{{}}" if option else f"/tournament {action} #{{}}"
        return await resolve_tournament(ctx, name, example)
    open_ = await storage.open_tournaments(ctx.db, ctx.the_club)
    if len(open_) == 1:
        return open_[0]
    if not open_:
        raise BadArgument(_("there is no open tournament; open one with /tournament new NAME"))
    names = ", ".join(r.tournament.name for r in open_)
    example = f'{option}="{open_[0].tournament.name}"' if option else open_[0].tournament.name
    raise BadArgument(
        _(
            "several tournaments are open ({names}); name one, e.g. {example}",
            names=names,
            example=example,
        )
    )


async def _result(ctx: Context, args: ResultArgs) -> Reply:
    confirmed = args.confirm
    row = await _which(ctx, args.t or "", "result", "t")
    round_ = args.round
    if round_ > row.tournament.rounds:
        raise BadArgument(
            _(
                "{what} must be {low}–{high}, not {value}",
                what=ROUND.label,
                low=1,
                high=row.tournament.rounds,
                value=round_,
            )
        )
    outcome, played, margin = args.result.outcome, args.result.played, args.result.margin
    black, white = args.black, args.white
    stones = args.h or 0
    board = await rr.board_for(ctx, row, round_, black, white)
    if board is not None and args.h is None:
        stones = board.handicap
    t = row.tournament
    names = f"{black.name} {white.name} {args.result.text}"
    opt.even_tournament(t, stones, f"/tournament result {round_} {names}")
    if t.start > ctx.today():
        raise BadArgument(
            _(
                "{name} starts on {date}: enter a round's results once it is played",
                name=t.name,
                date=date_text(t.start),
            )
        )
    # the round's share of the tournament's days, never a day still ahead
    date = (
        args.date
        if args.date is not None
        else min(
            t.end,
            ctx.today(),
            t.start
            + dt.timedelta(
                days=(round_ - 1) * max(1, (t.end - t.start).days) // max(1, t.rounds - 1)
            ),
        )
    )
    komi = args.komi if args.komi is not None else opt.komi(ctx, None, stones)
    if board is not None and args.komi is None and args.h is None:
        komi = rounds.komi_of(ctx, board)
    time = args.time or t.time
    # will it count under the club's system, and why not (asked before it is stored)
    entered = storage.new_game(
        black.id,
        white.id,
        outcome,
        stones=stones,
        komi=komi,
        date=date,
        played=played,
        board=t.board,
        time=time,
        tournament=t.id,
        round=round_,
        margin=margin,
    )
    swapped = (
        f"/tournament result {round_} {white.name} {black.name} "
        f"{opt.swapped_result(entered)} h={stones}"
    )
    asked = await opt.ask_about(ctx, entered, black, white, swapped=swapped, confirmed=confirmed)
    if asked is not None:
        return asked
    why = await will_not_count(ctx, dataclasses.replace(entered, arranged=t.arranged))
    recorded = await storage.record_game(
        ctx.db, ctx.the_club, entered, actor=ctx.actor, chat=ctx.chat
    )
    game = recorded.row
    verdict = (
        _("Rated when the tournament is finalised.")
        if why is None
        else _("Recorded, but it will not count: {why}.", why=translated(why))
    )
    return Reply.text(
        _(
            "{name}, round {round}: game #{number} — {game}. {verdict}",
            name=t.name,
            round=round_,
            number=game.number,
            game=game_line(game, black, white),
            verdict=verdict,
        )
    )


async def _import(ctx: Context, args: ImportArgs) -> Reply:
    if args.file is None:
        raise BadArgument(_no_table(ctx.inv.caller.platform))
    data = args.file.data
    # again: a file whose games the club has; confirm: names in another word order
    again, confirm, committee = args.again, args.confirm, args.committee
    # the remedies repeat the command's first line as the organiser typed it (echoed, not
    # read: C=20 stays as typed), as an import (a /tournament result with a table is one)
    typed = ctx.inv.text.partition("\n")[0].split(maxsplit=1)[1:]
    remedies = importing.chat_remedies(" ".join(["import", *typed]))
    if _looks_like_games_csv(data):
        if committee:
            raise BadArgument(
                _("committee is for tournament files that add players, not CSV games")
            )
        return await _import_csv_games(
            ctx, args, data, again=again, confirm=confirm, remedies=remedies
        )
    tf = importing.read_file(data, args.file.name or "")
    if args.class_ is not None:  # the organiser's class wins over the file's CL[…]
        given = egf_class(args.class_, "/tournament import class=B")
        tf = dataclasses.replace(tf, class_=given)
    plan = await importing.plan_import(
        ctx.db,
        ctx.the_club,
        tf,
        settings=ctx.settings,
        manual_c=args.c,
        name=args.name,
        committee=committee,
        remedies=remedies,
        again=again,
        confirm=confirm,
    )
    result = await importing.apply_import(
        ctx.db, ctx.the_club, plan, actor=ctx.actor, chat=ctx.chat
    )
    return Reply(
        blocks=(
            Text(_("Imported {name}", name=plan.tournament.name), title=True),
            Text("\n".join(importing.summary_lines(plan, result))),
        )
    )


def _no_table(platform: str) -> str:
    """``/tournament import`` without a table: how to send one where it was asked (the
    console reads a paste in the same entry as the command, bot.adapters.console.entered; a
    Telegram message carries it below the command, or the command replies to the file's
    message; Discord takes the file as the command's option, or a paste in its form)."""
    if platform == "console":
        return _(
            "paste the results table (h9, OpenGotha XML or CSV) together with the command: "
            "the command line first and the table after it in one paste, or type the command, "
            "paste the table right after it, then press Enter"
        )
    if platform == "discord":
        return _(
            "attach the results file (h9, OpenGotha XML or CSV) as the command's file, or "
            "press the button below and paste the table into the form"
        )
    return _(
        "attach the results file (h9, OpenGotha XML or CSV) to the command's message, or "
        "paste it in the same message on the lines below the command, or send the command "
        "as a reply to the message with the file"
    )


def _looks_like_games_csv(data: bytes) -> bool:
    head = data.lstrip()[:300].decode("utf-8", "replace").splitlines()
    return bool(head) and "black" in head[0].lower() and "white" in head[0].lower()


async def _import_csv_games(
    ctx: Context,
    args: ImportArgs,
    data: bytes,
    *,
    again: bool,
    confirm: bool,
    remedies: importing.Remedies,
) -> Reply:
    """A CSV of games into an open tournament (formats.md, CSV): all rows, or none; games
    the club has already only when told (``again``), names matching club players only in
    another word order only when confirmed (``confirm``)."""
    row = await _which(ctx, args.name or "", "import", "name")
    try:
        games = await importing.games_from_csv(
            ctx.db,
            ctx.the_club,
            data,
            even_komi=opt.komi(ctx, None, 0),
            tournament=row,
            again=again,
            confirm=confirm,
            remedies=remedies,
        )
    except Refused as exc:
        raise BadArgument(translated(exc.args[0]) if exc.args else str(exc)) from None
    rows = await storage.record_games(ctx.db, ctx.the_club, games, actor=ctx.actor, chat=ctx.chat)
    return Reply.text(
        _n(
            "{n} game added to {name}. Rated when the tournament is finalised.",
            "{n} games added to {name}. Rated when the tournament is finalised.",
            len(rows),
            name=row.tournament.name,
        )
    )


async def _finalise(ctx: Context, args: FinaliseArgs) -> Reply:
    confirmed = args.confirm
    row = await _which(ctx, args.name, "finalise")
    if not confirmed and not row.finalised:
        run = await rounds.run_of_any(ctx, row)
        if run is not None:  # run from the chat: its published boards and rounds say
            unfinished = rr.unfinished(run)
            if unfinished is not None:
                return unfinished
        else:
            missing = await storage.missing_rounds(ctx.db, ctx.the_club, row.id)
            if missing:
                return _ask_to_finalise(ctx, row, missing)
    players = await tournament_players(ctx.db, ctx.the_club, row.id)
    before = await pending_amounts(ctx.db, ctx.the_club, players)
    changes = await storage.finalise_tournament(
        ctx.db, ctx.the_club, row.id, actor=ctx.actor, chat=ctx.chat
    )
    return await finalisation_reply(
        ctx.db,
        ctx.the_club,
        row.tournament.name,
        changes,
        ended=row.tournament.end,
        today=ctx.today(),
        pending_before=before,
    )


def _ask_to_finalise(ctx: Context, row: TournamentRow, missing: list[MissingRound]) -> Reply:
    """Rounds are missing: say which, and let the organiser finalise anyway (a button)."""
    entries = missing[0].expected * 2
    parts = [
        _("round {round}: no games", round=m.round)
        if m.games == 0
        else _n(
            "round {round}: {games} of {n} game ({entries} entries)",
            "round {round}: {games} of {n} games ({entries} entries)",
            m.expected,
            round=m.round,
            games=m.games,
            entries=entries,
        )
        for m in missing
    ]
    rounds = "; ".join(parts)
    command = f"/tournament finalise #{row.number} confirm"
    return Reply(
        blocks=(
            Text(_("{name} has rounds missing", name=row.tournament.name), title=True),
            Text(
                _(
                    "{rounds}.\nEnter the missing results first, or finalise it as it is: "
                    "{command}",
                    rounds=rounds[:1].upper() + rounds[1:],
                    command=command,
                )
            ),
        ),
        buttons=(Button(_("Finalise anyway"), command),),
    )


EVENING = dt.time(20, 0)  # "the end date's evening" (issue 4/6): 20:00 club time


async def _schedule(ctx: Context, args: ScheduleArgs) -> Reply:
    """Finalise at a time: ``NAME [YYYY-MM-DD] [HH:MM]`` (default: the end date at 20:00)."""
    at_date, at_time = args.day, args.at
    row = await _which(ctx, args.name, "schedule")
    day = at_date or row.tournament.end
    due = dt.datetime.combine(day, at_time or EVENING, tzinfo=ctx.timezone)
    if due <= ctx.now():
        raise BadArgument(
            _(
                "{when} has passed; finalise now with {command}, or give a later time",
                when=date_time_text(due),
                command=f"/tournament finalise {row.tournament.name}",
            )
        )
    await schedules.schedule_finalisation(
        ctx.db, ctx.the_club, row.id, due, actor=ctx.actor, chat=ctx.chat
    )
    return Reply.text(
        _(
            "{name} will be rated on {date} at {time} ({zone}); the result is posted to every "
            "chat of the club.",
            name=row.tournament.name,
            date=date_text(due.date()),
            time=f"{due:%H:%M}",
            zone=ctx.timezone.key,
        )
    )


async def _reopen(ctx: Context, args: ReopenArgs) -> Reply:
    if not args.name.strip():
        raise BadArgument(_("name the tournament to reopen, e.g. /tournament reopen Spring Cup"))
    row = await _which(ctx, args.name, "reopen")
    await storage.reopen_tournament(ctx.db, ctx.the_club, row.id, actor=ctx.actor, chat=ctx.chat)
    return Reply.text(
        _(
            "{name} is open again: its rating was taken back and every rating after it "
            "recomputed. Fix it, then /tournament finalise.",
            name=row.tournament.name,
        )
    )


@dataclass(frozen=True, slots=True)
class OpenPeriod:
    """A rating period of club games not closed yet (rules.md §1.4 Decision — club games): a
    calendar month, closed by the scheduler after its last day."""

    name: str
    first: dt.date
    last: dt.date
    ends: dt.date
    games: int
    players: int

    def line(self) -> str:
        """``Club games 2026-11: 3 games of 4 players so far (…), rated after 2026-11-30``."""
        return _(
            "{name}: {games} {of_players} so far ({first} – {last}), rated together after "
            "{ends}; until then /rating shows each player's rating if the period ended now",
            name=self.name,
            games=_n("{n} club game", "{n} club games", self.games),
            # TRANSLATORS: follows "{n} club games" in "3 club games of 4 players so far"
            of_players=_n("of {n} player", "of {n} players", self.players),
            first=date_text(self.first),
            last=date_text(self.last),
            ends=date_text(self.ends),
        )


async def open_periods(ctx: Context) -> list[OpenPeriod]:
    """The club's open rating periods of club games, oldest first (empty under a system that
    rates every game at once)."""
    held = (await storage.ledger(ctx.db, ctx.the_club.id)).open_period()
    months: dict[tuple[int, int], list[Game]] = {}
    for game in held:
        months.setdefault((game.date.year, game.date.month), []).append(game)
    return [
        OpenPeriod(
            fmt.period_title(year, month),
            games[0].date,
            games[-1].date,
            month_end(year, month),
            len(games),
            len({p for g in games for p in (g.black, g.white)}),
        )
        for (year, month), games in sorted(months.items())
    ]


async def _show(ctx: Context, args: ShowArgs) -> Reply:
    text = args.name
    periods = await open_periods(ctx)
    if not text.strip() and periods and not await storage.open_tournaments(ctx.db, ctx.the_club):
        return Reply(
            blocks=(
                Text(_("Open rating period"), title=True),
                Text("\n".join(period.line() for period in periods)),
            )
        )
    row = await _which(ctx, text, "show")
    games = [
        g
        for g in await storage.club_games(ctx.db, ctx.the_club)
        if g.game.tournament == row.id and g.status == "ok"
    ]
    entries = await storage.entries(ctx.db, ctx.the_club, row.id)
    lines = await _facts(ctx, row)
    lines.append(
        _(
            "{entries}, {games} ({rated} to rate)",
            entries=_n("{n} entry", "{n} entries", len(entries)),
            games=_n("{n} game", "{n} games", len(games)),
            rated=sum(1 for g in games if g.game.rated),
        )
    )
    by_round: dict[int, int] = {}
    for g in games:
        by_round[g.game.round or 0] = by_round.get(g.game.round or 0, 0) + 1
    if by_round:
        counts = ", ".join(f"R{r}: {n}" for r, n in sorted(by_round.items()))
        lines.append(_("Games per round: {counts}", counts=counts))
    run = await rounds.run_of_any(ctx, row)
    if run is not None:  # run from the chat: how it is paired, how far it has come
        lines.append(rounds.pairing_line(run.field.setup))
        boards = _n("{n} board", "{n} boards", len(run.missing()))
        lines.append(
            _n(
                "{published} of {n} round published; {missing} without a result.",
                "{published} of {n} rounds published; {missing} without a result.",
                row.tournament.rounds,
                published=run.field.published,
                missing=boards,
            )
        )
    if not text.strip() and periods:
        lines.extend(["", _("Also open:"), *(period.line() for period in periods)])
    return Reply(
        blocks=(
            Text(f"#{row.number} {row.tournament.name}", title=True),
            Text("\n".join(lines)),
        )
    )


async def _list(ctx: Context) -> Reply:
    rows = await storage.tournaments(ctx.db, ctx.the_club)
    periods = await open_periods(ctx)
    if not rows and not periods:
        return Reply.text(_("No tournaments yet. /tournament new NAME opens one."))
    table = Table(
        # TRANSLATORS: the headings of /tournament list's table
        ("#", _("Tournament"), _("Dates"), _("Rounds"), _("Status")),
        tuple(
            (
                str(r.number),
                r.tournament.name,
                _(
                    "{start} – {end}",
                    start=date_text(r.tournament.start),
                    end=date_text(r.tournament.end),
                ),
                str(r.tournament.rounds),
                # TRANSLATORS: a tournament's status in /tournament list
                _("finalised") if r.finalised else _("open"),
            )
            for r in rows[-30:]
        )
        + tuple(
            (
                "–",
                p.name,
                _("{start} – {end}", start=date_text(p.first), end=date_text(p.ends)),
                "–",
                _("open until {date}", date=date_text(p.ends)),
            )
            for p in periods
        ),
        "rllrl",
    )
    return Reply(blocks=(table,))


def egf_class(text: str | None, example: str) -> str | None:
    """An EGF tournament class A–D from ``class=`` (any case); ``None`` when not given.

    Raises:
        BadArgument: another value, with ``example``.
    """
    if text is None:
        return None
    letter = text.strip().upper()
    if letter not in EGF_CLASSES:
        raise BadArgument(
            _(
                "The EGF tournament class is A, B, C or D, not {value} (e.g. {example})",
                value=quoted(text.strip()),
                example=example,
            )
        )
    return letter
