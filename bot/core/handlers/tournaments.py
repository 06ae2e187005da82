"""Tournaments: /tournament new | result | import | finalise | reopen | show | list."""

from __future__ import annotations

import datetime as dt
import re

import storage
from bot import importing
from bot.core.commands import ORGANISER, Param, command
from bot.core.context import Context
from bot.core.errors import BadArgument
from bot.core.handlers import game_options as opt
from bot.core.handlers.games import game_line, will_not_count
from bot.core.names import resolve_pair
from bot.core.notices import finalisation_reply
from bot.core.parse import Args, Token, join, positive_int
from bot.core.replies import Reply, Table, Text
from engine import mgsz
from engine.errors import EngineError
from engine.types import Importance, Tournament
from storage import schedules
from storage.errors import Refused
from storage.records import TournamentRow

USAGE = (
    "/tournament new NAME [options] | result ROUND BLACK WHITE RESULT [h=N] [t=NAME] | "
    "import [C=NN] [name=...] [committee] (paste or attach h9/XML/CSV) | finalise [NAME] | "
    "schedule NAME [YYYY-MM-DD] [HH:MM] | reopen NAME | show [NAME] | list"
)
NEW_OPTIONS = frozenset({"start", "end", "rounds", "board", "time", "reduce", "c", "participants"})
RESULT_OPTIONS = opt.GAME_OPTIONS | {"t"}
IMPORT_OPTIONS = frozenset({"c", "name"})
COMMITTEE_WORDS = frozenset({"committee", "override"})
ALL_OPTIONS = NEW_OPTIONS | RESULT_OPTIONS | IMPORT_OPTIONS
FLAGS = {
    "even": ("even", True),
    "handicap": ("even", False),
    "invitational": ("invitational", True),
    "championship": ("invitational", True),
    "european": ("eu", True),
    "world": ("eu", True),
    "arranged": ("arranged", True),
}


@command(
    "tournament",
    usage=USAGE,
    summary="Open a tournament, add its games one by one or as a pasted table, rate it.",
    examples=(
        '/tournament new Spring Cup start=2026-04-11 end=2026-04-12 rounds=5 time="60m 3x30s" '
        "even",
        "/tournament result 1 Nagy Péter Kovács Anna B+",
        "/tournament import   (with the h9 file attached or pasted below)",
        "/tournament finalise Spring Cup",
    ),
    access=ORGANISER,
    options=ALL_OPTIONS,
    params=(
        Param(
            "action",
            "choice",
            "what to do",
            choices=("new", "result", "import", "finalise", "schedule", "reopen", "show", "list"),
        ),
        Param("args", "text", "the action's arguments", required=False),
        Param("file", "file", "a results table (h9, OpenGotha XML or CSV)", required=False),
    ),
)
async def tournament(ctx: Context) -> Reply:
    first_line, _, pasted = ctx.inv.text.partition("\n")
    words = first_line.split(maxsplit=1)
    if not words:
        raise BadArgument(f"say what to do: {USAGE}")
    action, rest = words[0].lower(), words[1] if len(words) > 1 else ""
    data = (
        ctx.inv.attachment
        if ctx.inv.attachment is not None
        else (pasted.encode("utf-8") if pasted.strip() else None)
    )
    if action in ("finalize", "rate"):
        action = "finalise"
    handlers = {
        "new": _new,
        "result": _result,
        "import": _import,
        "finalise": _finalise,
        "reopen": _reopen,
        "schedule": _schedule,
        "show": _show,
        "list": _list,
    }
    if action not in handlers:
        raise BadArgument(f"unknown /tournament action {action!r}; {USAGE}")
    if action == "result" and data is not None:
        action = "import"
    if action != "import" and data is not None:
        raise BadArgument(
            f"/tournament {action} takes no pasted table; paste results with /tournament import"
        )
    return await handlers[action](ctx, rest, data)


async def _new(ctx: Context, text: str, data: bytes | None) -> Reply:
    args = Args.read(text, NEW_OPTIONS)
    flags: dict[str, bool] = {}
    name_words: list[Token] = []
    first_flag: str | None = None
    for token in args.words:
        flag = FLAGS.get(token.text.lower()) if not token.quoted else None
        if flag:
            flags[flag[0]] = flag[1]
        elif not token.quoted and re.fullmatch(r">\s*80", token.text):
            flags["over80"] = True
        elif first_flag is None:
            name_words.append(token)
            continue
        else:
            # bot.md, Arguments: a name ends at the first keyword; a word after the keywords
            # means a name like "World Cup" was cut in two — say so rather than guess
            raise BadArgument(
                f"{token.text!r} comes after {first_flag!r}: write the name first, and in quotes "
                f'when it holds a word like {first_flag}, e.g. /tournament new "World Cup" even'
            )
        first_flag = first_flag or token.text
    name = join(name_words)
    if not name:
        raise BadArgument("name the tournament, e.g. /tournament new Spring Cup rounds=5")
    o = args.options
    start = opt.date(ctx, o["start"]) if "start" in o else ctx.today()
    end = _any_date(o["end"], "end") if "end" in o else start
    if end < start:
        raise BadArgument(f"the end {end} is before the start {start}")
    rounds = positive_int(o.get("rounds", "1"), "rounds", high=50)
    reduction = positive_int(o["reduce"], "reduce", low=0, high=9) if "reduce" in o else 0
    participants = (
        positive_int(o["participants"], "participants", low=2, high=100_000)
        if "participants" in o
        else (81 if flags.get("over80") else None)
    )
    t = Tournament(
        id=0,
        name=name,
        start=start,
        end=end,
        rounds=rounds,
        board=opt.board(o.get("board")),
        time=opt.time_control(o.get("time")),
        even=flags.get("even", reduction == 0 and True),
        handicap_reduction=reduction,
        participants=participants,
        importance=Importance(flags.get("invitational", False), flags.get("eu", False)),
        multiplier=positive_int(o["c"], "C", low=0, high=1000) if "c" in o else None,
        arranged=flags.get("arranged", False),
    )
    row = await storage.create_tournament(ctx.db, ctx.the_club, t, actor=ctx.actor, chat=ctx.chat)
    return Reply(
        blocks=(
            Text(f"Tournament #{row.id} {row.tournament.name} opened", title=True),
            Text("\n".join(_facts(ctx, row))),
        )
    )


def _any_date(value: str, what: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise BadArgument(f"{what}= must be YYYY-MM-DD, not {value!r}") from None


def _facts(ctx: Context, row: TournamentRow) -> list[str]:
    t = row.tournament
    lines = [
        f"{t.start.isoformat()} – {t.end.isoformat()}, {t.rounds} round(s), {t.board}×{t.board}, "
        f"{'even' if t.even else f'handicap (reduced by {t.handicap_reduction})'}"
        + (f", time {t.time}" if t.time else ""),
        f"Status: {'finalised' if row.finalised else 'open'}",
    ]
    if ctx.the_club.system == "mgsz":
        try:
            m = mgsz.multiplier(
                t.board,
                t.time,
                even=t.even,
                participants=t.participants,
                importance=t.importance,
                manual=t.multiplier,
            )
            lines.append("Multiplier: " + "; ".join(m.breakdown()))
        except EngineError as exc:
            lines.append(f"Multiplier: not yet determined — {exc}")
    return lines


async def _which(ctx: Context, name: str, option: str | None = None) -> TournamentRow:
    """The named tournament, or with no name the club's only open one (``option`` is how the
    command names a tournament, e.g. ``t`` for ``t="Spring Cup"``; else the rest of the line)."""
    if name.strip():
        row = await storage.tournament(ctx.db, ctx.the_club, name.strip())
        if row is None:
            known = ", ".join(
                r.tournament.name for r in await storage.tournaments(ctx.db, ctx.the_club)
            )
            raise BadArgument(
                f"there is no tournament {name.strip()!r}"
                + (f"; the club has: {known}" if known else "")
            )
        return row
    open_ = await storage.open_tournaments(ctx.db, ctx.the_club)
    if len(open_) == 1:
        return open_[0]
    if not open_:
        raise BadArgument("there is no open tournament; open one with /tournament new NAME")
    names = ", ".join(r.tournament.name for r in open_)
    example = f'{option}="{open_[0].tournament.name}"' if option else open_[0].tournament.name
    raise BadArgument(f"several tournaments are open ({names}); name one, e.g. {example}")


async def _result(ctx: Context, text: str, data: bytes | None) -> Reply:
    args = Args.read(text, RESULT_OPTIONS)
    words = args.words
    if not words or not re.fullmatch(r"\d+", words[0].text):
        raise BadArgument(
            "start with the round number, e.g. /tournament result 1 Nagy Péter Kovács Anna B+"
        )
    row = await _which(ctx, args.options.get("t", ""), "t")
    round_ = positive_int(words[0].text, "ROUND", high=row.tournament.rounds)
    position = next(
        (
            i
            for i in range(len(words) - 1, 0, -1)
            if not words[i].quoted and opt.read_result(words[i].text)
        ),
        None,
    )
    if position is None or position != len(words) - 1:
        raise BadArgument("end with the result: B+, W+, B+R, W+3.5, jigo or unplayed")
    outcome, played = opt.read_result(words[position].text)  # type: ignore[misc]
    black, white = await resolve_pair(ctx, words[1:position], "/tournament result")
    stones = opt.stones(args.options["h"]) if "h" in args.options else 0
    t = row.tournament
    date = (
        opt.date(ctx, args.options["date"])
        if "date" in args.options
        else min(
            t.end,
            t.start
            + dt.timedelta(
                days=(round_ - 1) * max(1, (t.end - t.start).days) // max(1, t.rounds - 1)
            ),
        )
    )
    komi = opt.komi(ctx, args.options.get("komi"), stones)
    time = opt.time_control(args.options.get("time")) or t.time
    # will it count under the club's system, and why not (asked before it is stored)
    why = await will_not_count(
        ctx, black=black.id, white=white.id, result=outcome, date=date, stones=stones, komi=komi,
        played=played, board=t.board, time=time, tournament=t.id, round=round_,
        arranged=t.arranged,
    )  # fmt: skip
    game = await storage.record_game(
        ctx.db,
        ctx.the_club,
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
        actor=ctx.actor,
        chat=ctx.chat,
    )
    verdict = (
        "Rated when the tournament is finalised."
        if why is None
        else f"Recorded, but it will not count: {why}."
    )
    return Reply.text(
        f"{t.name}, round {round_}: game #{game.id} — {game_line(game, black, white)}. {verdict}"
    )


async def _import(ctx: Context, text: str, data: bytes | None) -> Reply:
    if data is None:
        raise BadArgument(
            "attach the results file (h9, OpenGotha XML or CSV), or paste it on "
            "the lines below the command"
        )
    args = Args.read(text, IMPORT_OPTIONS)
    committee = False
    for token in args.words:
        if token.quoted or token.text.lower() not in COMMITTEE_WORDS:
            raise BadArgument(
                f"unexpected {token.text!r}: /tournament import takes C=NN, name=... and "
                "committee (new players' declared ranks as a committee decision, rules.md §1.5)"
            )
        committee = True
    if _looks_like_games_csv(data):
        if committee:
            raise BadArgument("committee is for tournament files that add players, not CSV games")
        return await _import_csv_games(ctx, args, data)
    tf = importing.read_file(data, ctx.inv.attachment_name or "")
    manual = (
        positive_int(args.options["c"], "C", low=0, high=1000) if "c" in args.options else None
    )
    plan = await importing.plan_import(
        ctx.db,
        ctx.the_club,
        tf,
        settings=ctx.settings,
        manual_c=manual,
        name=args.options.get("name"),
        committee=committee,
    )
    result = await importing.apply_import(
        ctx.db, ctx.the_club, plan, actor=ctx.actor, chat=ctx.chat
    )
    return Reply(
        blocks=(
            Text(f"Imported {plan.tournament.name}", title=True),
            Text("\n".join(importing.summary_lines(plan, result))),
        )
    )


def _looks_like_games_csv(data: bytes) -> bool:
    head = data.lstrip()[:300].decode("utf-8", "replace").splitlines()
    return bool(head) and "black" in head[0].lower() and "white" in head[0].lower()


async def _import_csv_games(ctx: Context, args: Args, data: bytes) -> Reply:
    """A CSV of games into an open tournament (formats.md, CSV): all rows, or none."""
    row = await _which(ctx, args.options.get("name", ""), "name")
    try:
        games = await importing.games_from_csv(
            ctx.db, ctx.the_club, data, even_komi=opt.komi(ctx, None, 0), tournament=row
        )
    except Refused as exc:
        raise BadArgument(str(exc)) from None
    rows = await storage.record_games(ctx.db, ctx.the_club, games, actor=ctx.actor, chat=ctx.chat)
    return Reply.text(
        f"{len(rows)} games added to {row.tournament.name}. Rated when the "
        "tournament is finalised."
    )


async def _finalise(ctx: Context, text: str, data: bytes | None) -> Reply:
    row = await _which(ctx, text)
    changes = await storage.finalise_tournament(
        ctx.db, ctx.the_club, row.id, actor=ctx.actor, chat=ctx.chat
    )
    return await finalisation_reply(ctx.db, ctx.the_club, row.tournament.name, changes)


EVENING = dt.time(20, 0)  # "the end date's evening" (issue 4/6): 20:00 club time


async def _schedule(ctx: Context, text: str, data: bytes | None) -> Reply:
    """Finalise at a time: ``NAME [YYYY-MM-DD] [HH:MM]`` (default: the end date at 20:00)."""
    words = text.split()
    at_time = at_date = None
    if words and re.fullmatch(r"\d{1,2}:\d{2}", words[-1]):
        typed = words.pop()
        try:
            at_time = dt.time.fromisoformat(typed.zfill(5))
        except ValueError:
            raise BadArgument(
                f"{typed!r} is not a time of day: HH:MM from 00:00 to 23:59, "
                "e.g. /tournament schedule Spring Cup 2026-04-12 21:30"
            ) from None
    if words and re.fullmatch(r"\d{4}-\d{2}-\d{2}", words[-1]):
        at_date = _any_date(words.pop(), "the date")
    row = await _which(ctx, " ".join(words))
    day = at_date or row.tournament.end
    due = dt.datetime.combine(day, at_time or EVENING, tzinfo=ctx.timezone)
    if due <= ctx.now():
        raise BadArgument(
            f"{due:%Y-%m-%d %H:%M} has passed; finalise now with /tournament "
            f"finalise {row.tournament.name}, or give a later time"
        )
    await schedules.schedule_finalisation(
        ctx.db, ctx.the_club, row.id, due, actor=ctx.actor, chat=ctx.chat
    )
    return Reply.text(
        f"{row.tournament.name} will be rated on {due:%Y-%m-%d at %H:%M} "
        f"({ctx.timezone.key}); the result is posted to every chat of the club."
    )


async def _reopen(ctx: Context, text: str, data: bytes | None) -> Reply:
    if not text.strip():
        raise BadArgument("name the tournament to reopen, e.g. /tournament reopen Spring Cup")
    row = await _which(ctx, text)
    await storage.reopen_tournament(ctx.db, ctx.the_club, row.id, actor=ctx.actor, chat=ctx.chat)
    return Reply.text(
        f"{row.tournament.name} is open again: its rating was taken back and "
        "every rating after it recomputed. Fix it, then /tournament finalise."
    )


async def _show(ctx: Context, text: str, data: bytes | None) -> Reply:
    row = await _which(ctx, text)
    games = [
        g
        for g in await storage.club_games(ctx.db, ctx.the_club)
        if g.game.tournament == row.id and g.status == "ok"
    ]
    entries = await storage.entries(ctx.db, ctx.the_club, row.id)
    lines = _facts(ctx, row)
    lines.append(
        f"{len(entries)} entries, {len(games)} games "
        f"({sum(1 for g in games if g.game.rated)} to rate)"
    )
    by_round: dict[int, int] = {}
    for g in games:
        by_round[g.game.round or 0] = by_round.get(g.game.round or 0, 0) + 1
    if by_round:
        lines.append(
            "Games per round: " + ", ".join(f"R{r}: {n}" for r, n in sorted(by_round.items()))
        )
    return Reply(
        blocks=(Text(f"#{row.id} {row.tournament.name}", title=True), Text("\n".join(lines)))
    )


async def _list(ctx: Context, text: str, data: bytes | None) -> Reply:
    rows = await storage.tournaments(ctx.db, ctx.the_club)
    if not rows:
        return Reply.text("No tournaments yet. /tournament new NAME opens one.")
    table = Table(
        ("#", "Name", "Dates", "Rounds", "Status"),
        tuple(
            (
                str(r.id),
                r.tournament.name,
                f"{r.tournament.start} – {r.tournament.end}",
                str(r.tournament.rounds),
                "finalised" if r.finalised else "open",
            )
            for r in rows[-30:]
        ),
        "rllrl",
    )
    return Reply(blocks=(table,))
