"""Recording and fixing single games: /result, /undo, /void, /correct."""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from fractions import Fraction

import storage
from bot.core import format as fmt
from bot.core.commands import ORGANISER, PLAYER, Flag, GameResult, Option, Param, command
from bot.core.context import Context
from bot.core.errors import BadArgument, NotPermitted
from bot.core.handlers import game_options as opt
from bot.core.handlers import same_game as same
from bot.core.handlers.tournament_rounds import open_board
from bot.core.replies import Button, Reply, Text
from bot.core.rounds import komi_of
from bot.i18n import N_, _, _n, date_text, date_time_text, month_text, translated
from engine.timecontrol import TimeControl
from engine.types import Game, Result
from storage import log
from storage.records import GAME_UNDONE, GAME_VOIDED, GameRow, Player, Recorded, Undone, gone_game

BEAT_WORDS = ("beat", "beats", "defeated", "won", "wins")
AGAIN = Flag("again", N_("record it although it looks like a game recorded already"), menu=False)
CONFIRM = Flag("confirm", N_("record it as written, not asked about"), menu=False)


def may_record(ctx: Context) -> None:
    """Organisers record games; players report their own only when the club allows it."""
    if not ctx.organiser and not ctx.settings.reports:
        raise NotPermitted(
            _(
                "/result is for the organisers of {club}: chat administrators and the "
                "people an organiser adds with /club organiser add. (An organiser can let "
                "players report their own games with /club reports on.) Nothing was changed.",
                club=ctx.the_club.name,
            )
        )


@dataclass(frozen=True, slots=True)
class ResultArgs:
    black: Player
    white: Player
    result: GameResult | None = None  # None: NAME beat NAME
    h: int | None = None
    komi: Fraction | None = None
    date: dt.date | None = None
    time: TimeControl | None = None
    board: int | None = None
    beat: bool = False
    again: bool = False
    confirm: bool = False


@command(
    "result",
    usage=N_("/result BLACK WHITE RESULT [h=N] [komi=K] [date=YYYY-MM-DD] [time=...] [board=19]"),
    summary=N_(
        "Record a single game. RESULT is B+, W+, B+R, W+3.5, jigo or unplayed; "
        "also NAME beat NAME [h=N]."
    ),
    examples=(
        "/result Nagy Péter Kovács Anna B+",
        '/result "Szabó Éva" "Tóth Ádám" W+3.5 h=2',
        "/result Kiss beat Tóth h=3",
    ),
    access=PLAYER,
    details=N_(
        "Organisers record any game. When the club allows player reports (/club reports "
        "on), a player may report their own game: it counts once the opponent confirms, or once "
        "the opponent reports the same game. A game like one already recorded (the same two "
        "players, day and winner) is asked about first; end the command with again to record "
        "it anyway."
    ),
    options=opt.GAME_OPTIONS,
    params=(
        Param("black", "player", N_("who had Black (the winner, in the 'beat' form)")),
        Param("white", "player", N_("who had White")),
        Param(
            "result",
            "result",
            N_("B+, W+, B+R, W+3.5, jigo or unplayed"),
            missing=N_(
                "the result is missing: write B+, W+, B+R, W+3.5, jigo or unplayed after "
                "the two names"
            ),
        ),
    ),
    flags=(
        Flag(
            "beat",
            N_("WINNER beat LOSER: colours from the handicap"),
            BEAT_WORDS,
            anywhere=True,
            instead_of="result",
            menu=False,
        ),
        AGAIN,
        CONFIRM,
    ),
    permit=may_record,
    with_file="sgf",
)
async def result(ctx: Context, args: ResultArgs) -> Reply:
    again, confirmed = args.again, args.confirm
    date = args.date or ctx.today()
    stones = args.h or 0
    black, white, outcome, played, note, margin = await _players_and_result(
        ctx, args, stones, date
    )
    komi = args.komi if args.komi is not None else opt.komi(ctx, None, stones)
    seat = await open_board(ctx, black.id, white.id)  # a board of a tournament round?
    if seat is not None and args.h is None and args.komi is None:
        stones, komi = seat[2].handicap, komi_of(ctx, seat[2])
    board = args.board or 19
    time = args.time
    game = storage.new_game(
        black.id,
        white.id,
        outcome,
        stones=stones,
        komi=komi,
        date=date,
        played=played,
        board=board,
        time=time,
        margin=margin,
    )
    swapped = f"/result {white.name} {black.name} {opt.swapped_result(game)} h={stones}"
    asked = await opt.ask_about(ctx, game, black, white, swapped=swapped, confirmed=confirmed)
    if asked is not None:
        return asked
    return await record(
        ctx, game, black, white, note=note, again=again, retry=f"/result {ctx.inv.text}"
    )


async def record(
    ctx: Context,
    game: Game,
    black: Player,
    white: Player,
    *,
    note: str = "",
    again: bool = False,
    retry: str,
    sgf: int | None = None,
) -> Reply:
    """Record the game value ``game`` as ``/result`` does, whatever it was read from (typed,
    an SGF file): the question about a game that looks recorded already (``again``: not
    asked), a player's report pending the opponent's confirmation, why it will not count,
    the game written and the reply.

    Args:
        note: a line for the reply (how colours were chosen).
        retry: the command that repeats this one (``again`` added to it records the game
            anyway).
        sgf: the kept file (storage.game_files) the game was read from, named with the game.
    """
    seat = None if game.tournament is not None else await open_board(ctx, game.black, game.white)
    if seat is not None:  # the game of a published board (issue 25): rated with its tournament
        tournament, number, paired = seat
        game = dataclasses.replace(game, tournament=tournament.id, round=number)
        if game.time is None:
            game = dataclasses.replace(game, time=tournament.tournament.time)
        note = "\n".join(
            part
            for part in (
                note,
                _(
                    "{name}, round {round}, board {board}: rated when the tournament is "
                    "finalised.",
                    name=tournament.tournament.name,
                    round=number,
                    board=paired.number,
                ),
            )
            if part
        )
    earlier = [] if again else await same.earlier(ctx, game)  # a game entered twice?
    if not ctx.organiser:
        return await _report(ctx, black, white, game, earlier, retry=retry, sgf=sgf, note=note)
    if earlier:
        return await same.ask(ctx, earlier, retry)
    why = await will_not_count(ctx, game)
    done = await storage.record_game(
        ctx.db, ctx.the_club, game, actor=ctx.actor, chat=ctx.chat, sgf=sgf
    )
    row = done.row
    lines = [game_line(row, black, white)]
    if note:
        lines.append(note)
    if why is not None and row.game.rated:  # unplayed, no result: the next line says so
        lines.append(_("Recorded, but it will not count: {why}.", why=translated(why)))
    if row.game.date < ctx.today():  # calendar order (rules.md, top)
        lines.append(
            _(
                "Dated {date}: it counts on that day, and every rating since then is recomputed.",
                date=date_text(row.game.date),
            )
        )
    lines.extend(settled_lines(done))
    lines.append(rated_line(done, (black, white)))
    return Reply(
        blocks=(
            Text(_("Game #{number} recorded", number=row.number), title=True),
            Text("\n".join(lines)),
        )
    )


async def _report(
    ctx: Context,
    black: Player,
    white: Player,
    game: Game,
    earlier: list[GameRow],
    *,
    retry: str,
    sgf: int | None,
    note: str = "",
) -> Reply:
    """A player's own game: pending until the opponent confirms (issue 4/6, item 6);
    ``note``: a line for the reply (the tournament board it is the game of).

    The opponent's report of the same game confirms it instead (``same_game``)."""
    caller = ctx.inv.caller
    me = await storage.player_for_account(ctx.db, ctx.the_club, caller.platform, caller.account)
    if me is None or me.id not in (black.id, white.id):
        raise NotPermitted(
            _(
                "players may report only their own games: /link YOUR NAME first (an "
                "organiser confirms it), then /result with yourself as one of the two players"
            )
        )
    opponent = white if me.id == black.id else black
    if earlier:
        report = await same.opponents_report(ctx, me, earlier)
        if report is None:
            return await same.ask(ctx, earlier, retry)
        reporter = await same.who(ctx, report)
        confirmed = await storage.confirm_game(
            ctx.db, ctx.the_club, report.id, actor=ctx.actor, chat=ctx.chat
        )
        pair = (black, white) if confirmed.game.black == black.id else (white, black)
        return Reply(
            blocks=(
                Text(_("Game #{number} confirmed", number=confirmed.number), title=True),
                Text(
                    _(
                        "{reporter} reported this game already (report #{number}): {game}. "
                        "Your report agrees with it, so it is confirmed and counts from now "
                        "on; no second game was recorded.",
                        reporter=reporter,
                        number=report.number,
                        game=game_line(confirmed, *pair),
                    )
                ),
            )
        )
    row = (
        await storage.record_game(
            ctx.db,
            ctx.the_club,
            dataclasses.replace(game, reported=ctx.today()),
            pending=True,
            actor=ctx.actor,
            chat=ctx.chat,
            sgf=sgf,
        )
    ).row
    hours = ctx.settings.report_hours
    return Reply(
        blocks=(
            Text(
                _(
                    "Report #{number} waits for {opponent}",
                    number=row.number,
                    opponent=opponent.name,
                ),
                title=True,
            ),
            Text(
                game_line(row, black, white)
                + "\n"
                + (note + "\n" if note else "")
                + _n(
                    "{opponent} (or an organiser) confirms with the button or /confirm {number}; "
                    "/dispute {number} if it is wrong. Unconfirmed, it expires in {n} hour. It "
                    "is not rated until confirmed.",
                    "{opponent} (or an organiser) confirms with the button or /confirm {number}; "
                    "/dispute {number} if it is wrong. Unconfirmed, it expires in {n} hours. It "
                    "is not rated until confirmed.",
                    hours,
                    opponent=opponent.name,
                    number=row.number,
                )
            ),
        ),
        buttons=(
            # TRANSLATORS: a button under a player's report of a game
            Button(_("Confirm"), f"/confirm {row.number}"),
            # TRANSLATORS: a button under a player's report of a game
            Button(_("Dispute"), f"/dispute {row.number}"),
        ),
    )


async def _players_and_result(
    ctx: Context, args: ResultArgs, stones: int, date: dt.date
) -> tuple[Player, Player, Result | None, bool, str, str | None]:
    """BLACK WHITE RESULT, or WINNER beat LOSER (colours from the handicap and the ranks of
    the game's ``date``); last the result's SGF margin (``R``, ``3.5``; ``None`` when not
    given)."""
    if args.beat or args.result is None:
        return (*await _beat(ctx, args.black, args.white, stones, date), None)
    read = args.result
    return args.black, args.white, read.outcome, read.played, "", read.margin


async def _beat(
    ctx: Context, winner: Player, loser: Player, stones: int, date: dt.date
) -> tuple[Player, Player, Result | None, bool, str]:
    if stones == 0:
        return (
            winner,
            loser,
            Result.BLACK,
            True,
            _(
                "Colours were not given: recorded the winner as Black (even game, so the rating "
                "does not depend on it; use /result BLACK WHITE B+ to record colours)."
            ),
        )
    # the weaker player on the game's day took the stones (rules.md, top: calendar order),
    # not the weaker one today: a backdated game keeps the colours of its day
    ledger = await storage.ledger(ctx.db, ctx.the_club.id)
    winner_rank, loser_rank = ledger.rank_on(winner.id, date), ledger.rank_on(loser.id, date)
    if winner_rank == loser_rank:
        raise BadArgument(
            _(
                "{winner} and {loser} have the same rank, so I cannot tell who took the "
                "stones; write /result BLACK WHITE B+ h=N",
                winner=winner.name,
                loser=loser.name,
            )
        )
    if winner_rank < loser_rank:  # the weaker player takes Black and the stones
        return winner, loser, Result.BLACK, True, ""
    return loser, winner, Result.WHITE, True, ""


async def will_not_count(ctx: Context, game: Game) -> str | None:
    """Why the game about to be recorded will not count under the club's current system, asked
    of its ledger before the game is folded in; ``None`` when it counts."""
    return (await storage.ledger(ctx.db, ctx.the_club.id)).uncounted(game)


def game_line(row: GameRow, black: Player, white: Player) -> str:
    """``Nagy Péter (B) – Kovács Anna (W): B+, h2, komi 0.5, Apr 20, 2026``, and the board
    and time control when given, in the conversation's language."""
    game = row.game
    facts = [
        fmt.result(game),
        _("even") if game.stones == 0 else _("h{stones}", stones=game.stones),
        _("komi {komi}", komi=fmt.komi(game.komi)),
        date_text(game.date),
    ]
    if game.board != 19:
        facts.append(f"{game.board}×{game.board}")
    if game.time is not None:
        facts.append(_("time {time}", time=str(game.time)))
    return _(
        "{black} (B) – {white} (W): {facts}",
        black=black.name,
        white=white.name,
        facts=", ".join(facts),
    )


def settled_lines(done: Recorded) -> list[str]:
    """What the game's write settled of the past under the club's system, as the scheduler
    would have: a Tensuusei day that has ended (rules.md §2.3, late reports), an MGSZ month
    whose club games are rated as one period (§1.4)."""
    days: list[str] = [
        _("{date} has ended, so its games are settled now.", date=date_text(day))
        for day in done.settled.days
    ]
    return days + [
        _(
            "{month} has ended, so its club games are rated now as one period, this game "
            "with them.",
            month=month_text(period.start.year, period.start.month),
        )
        for period in done.settled.periods
    ]


def rated_line(done: Recorded, players: tuple[Player, Player]) -> str:
    """What the game did to the two players' ratings under the club's system (their cards
    after it, as recording it returned them)."""
    if not done.row.game.played:
        return _("Unplayed: stored and shown, never rated.")
    if done.row.game.result is None:
        return _("Result unknown: stored, not rated.")
    parts = []
    for player in players:
        card = done.after[player.id]
        # what is not settled yet, in the card's own words: the Elo if the MGSZ period ended
        # now (rules.md §1.4), a Tensuusei day's net waiting for its end (§2.3)
        waiting = fmt.unsettled(card)
        pending = f" — {'; '.join(waiting)}" if waiting else ""
        parts.append(f"{player.name} {fmt.value(card.rating)}{pending}")
    return f"{fmt.system_title(done.system)}: " + " · ".join(parts)


@dataclass(frozen=True, slots=True)
class NoArgs:
    """A command that takes no arguments."""


@command(
    "undo",
    usage="/undo",
    summary=N_(
        "Take back your last entry (a game, a registration, a correction, a tournament's "
        "finalisation …)."
    ),
    examples=("/undo",),
    access=ORGANISER,
    extra=N_("/undo takes no arguments; to remove a particular game use /void ID"),
)
async def undo(ctx: Context, args: NoArgs) -> Reply:
    undone = await storage.undo_last(ctx.db, ctx.the_club, actor=ctx.actor, chat=ctx.chat)
    return Reply.text(await _undone_text(ctx, undone))


UNDONE_EVENTS = {
    log.OVERRIDE: N_("Undone: the override of {at}."),
    log.EGF: N_("Undone: the egf of {at}."),
    log.TEACHER: N_("Undone: the teacher of {at}."),
    log.SUSPEND: N_("Undone: the suspend of {at}."),
}
"""What ``/undo`` says of an event it took back, by the event's kind (the log's own word)."""

KEPT = N_("It stays in the history, marked as undone; every rating after it was recomputed.")


async def _undone_text(ctx: Context, undone: Undone) -> str:
    """Say what ``/undo`` took back: the entry itself, not the game an entry was about."""
    kind, game = undone.entry.kind, undone.game
    kept = _(KEPT)
    if game is not None:
        number = game.number
        facts = f"{fmt.result(game.game)}, {date_text(game.game.date)}"
        if kind == log.VOID:
            what = _(
                "Undone: the void of game #{number} ({facts}); the game counts again.",
                number=number,
                facts=facts,
            )
            kept = _(
                "The void stays in the history, marked as undone; every rating after it was "
                "recomputed."
            )
        elif kind == log.CORRECT:  # the game as it reads now, without the correction
            black = await storage.get_player(ctx.db, ctx.the_club, game.game.black)
            white = await storage.get_player(ctx.db, ctx.the_club, game.game.white)
            assert black is not None and white is not None
            # the colours too: the correction may have exchanged them (swap)
            what = _(
                "Undone: the correction of game #{number}; it reads {facts} again.",
                number=number,
                facts=_(
                    "{black} (B) – {white} (W): {facts}",
                    black=black.name,
                    white=white.name,
                    facts=facts,
                ),
            )
            kept = _(
                "The correction stays in the history, marked as undone; every rating after it "
                "was recomputed."
            )
        elif kind == log.CONFIRM:
            what = _(
                "Undone: the confirmation of game #{number} ({facts}); it waits for "
                "confirmation again.",
                number=number,
                facts=facts,
            )
            kept = _(
                "The confirmation stays in the history, marked as undone; every rating after "
                "it was recomputed."
            )
        else:
            what = _("Undone: game #{number} ({facts}).", number=number, facts=facts)
    elif undone.tournament is not None and kind == log.FINALISE:
        name = undone.tournament.tournament.name
        what = _(
            "Undone: the finalisation of {name}; it is open again and its rating was taken back.",
            name=name,
        )
        kept = _(
            "The finalisation stays in the history, marked as undone; every rating after it "
            "was recomputed. Finalise it again with {command}",
            command=f"/tournament finalise {name}",
        )
    elif undone.tournament is not None and kind == log.REOPEN:
        what = _(
            "Undone: the reopening of {name}; it is rated again as it was finalised.",
            name=undone.tournament.tournament.name,
        )
        kept = _(
            "The reopening stays in the history, marked as undone; every rating after it was "
            "recomputed."
        )
    elif undone.player is not None:
        what = _("Undone: the registration of {name}.", name=undone.player.name)
    elif undone.event is not None and kind == log.RATING_SETTING:
        change = undone.event.payload
        what = _(
            "Undone: {key} {value} from {date}; {key} is back to what it was.",
            key=change["key"],
            value=change["value"],
            date=change["date"],
        )
        kept = _(
            "The change stays in the history, marked as undone; every rating after it was "
            "recomputed."
        )
    elif undone.event is not None:
        at = date_time_text(undone.entry.at.astimezone(ctx.timezone))
        said = UNDONE_EVENTS.get(undone.event.kind)
        if said is not None:
            what = _(said, at=at)
        else:
            what = _(
                "Undone: the {kind} of {at}.", kind=undone.event.kind.replace("_", " "), at=at
            )
    else:  # never the entry's log position: members cannot name it
        what = _(
            "Undone: the {kind} of {at}.",
            kind=kind.replace("_", " "),
            at=date_time_text(undone.entry.at.astimezone(ctx.timezone)),
        )
    # TRANSLATORS: what /undo took back, then that it stays in the history (two sentences)
    return _("{undone} {kept}", undone=what, kept=kept)


ONE_GAME = N_("give one game number, e.g. 12 (the # shown when it was recorded)")


@dataclass(frozen=True, slots=True)
class VoidArgs:
    game_id: int
    reason: str | None = None


@command(
    "void",
    usage=N_('/void GAME_ID [reason="..."]'),
    summary=N_("Void a game: it stays in the history, marked void, and counts for nothing."),
    examples=("/void 12", '/void 12 reason="entered twice"'),
    access=ORGANISER,
    options=(Option("reason", "text", N_("why"), '"..."'),),
    params=(Param("game_id", "number", N_("the game's number (#12)"), missing=ONE_GAME),),
    extra=ONE_GAME,
)
async def void(ctx: Context, args: VoidArgs) -> Reply:
    target = await live_game(ctx, args.game_id)
    row = await storage.void_game(
        ctx.db,
        ctx.the_club,
        target.id,
        actor=ctx.actor,
        chat=ctx.chat,
        reason=args.reason or "",
    )
    return Reply.text(
        _(
            "Game #{number} ({result}, {date}) is void. Every rating after it was recomputed; "
            "the game stays in the history.",
            number=row.number,
            result=fmt.result(row.game),
            date=date_text(row.game.date),
        )
    )


SWAPPED = {Result.BLACK: Result.WHITE, Result.WHITE: Result.BLACK}
"""A result with the colours exchanged: the same player wins (``/correct N swap``)."""

CORRECTABLE = (
    Option("result", "result", N_("the result, e.g. W+ or B+R"), "W+"),
    *opt.GAME_OPTIONS,
    Option("black", "player", N_("who had Black"), "NAME"),
    Option("white", "player", N_("who had White"), "NAME"),
    Option("played", "choice", N_("whether the game was played"), "yes|no", ("yes", "no")),
)


@dataclass(frozen=True, slots=True)
class CorrectArgs:
    game_id: int
    result: GameResult | None = None
    h: int | None = None
    komi: Fraction | None = None
    date: dt.date | None = None
    time: TimeControl | None = None
    board: int | None = None
    black: Player | None = None
    white: Player | None = None
    played: str | None = None
    swap: bool = False
    confirm: bool = False


@command(
    "correct",
    usage=N_(
        "/correct GAME_ID [result=W+] [h=N] [komi=K] [date=…] [black=NAME] [white=NAME] "
        "[board=N] [time=…] [played=yes|no] [swap]"
    ),
    summary=N_(
        "Fix a game; it keeps its place in history and every rating after it is recomputed."
    ),
    examples=("/correct 12 result=W+", "/correct 12 h=2 komi=0.5", "/correct 12 swap"),
    access=ORGANISER,
    details=N_(
        "swap exchanges the colours and keeps the winner: a B+ game of A (Black) against B "
        "(White) becomes a W+ game of B (Black) against A (White). With result=… as well, the "
        "result is read in the new colours."
    ),
    options=CORRECTABLE,
    params=(Param("game_id", "number", N_("the game's number"), missing=ONE_GAME),),
    flags=(
        Flag("swap", N_("exchange the colours, keeping the winner"), anywhere=True),
        CONFIRM,
    ),
    extra=ONE_GAME,
)
async def correct(ctx: Context, args: CorrectArgs) -> Reply:
    confirmed, swap = args.confirm, args.swap
    current = await live_game(ctx, args.game_id)
    changes: dict[str, object] = {}
    if args.result is not None:
        read = args.result
        changes["result"], changes["played"], changes["margin"] = (
            read.outcome,
            read.played,
            read.margin,
        )
    if args.played is not None:
        changes["played"] = args.played == "yes"
    given: dict[str, object] = {"stones": args.h, "komi": args.komi, "date": args.date}
    given |= {"board": args.board, "time": args.time}
    changes |= {key: value for key, value in given.items() if value is not None}
    for colour, player in (("black", args.black), ("white", args.white)):
        if player is not None:
            changes[colour] = player.id
    if swap:  # the colours change hands, the winner does not (unless a result is given)
        changes["black"], changes["white"] = current.game.white, current.game.black
        if "result" not in changes and current.game.result in SWAPPED:
            changes["result"] = SWAPPED[current.game.result]
    if not changes:
        raise BadArgument(_("say what to change, e.g. /correct 12 result=W+ or /correct 12 swap"))
    asked = await _ask_about_correction(ctx, current, changes, swap=swap, confirmed=confirmed)
    if asked is not None:
        return asked
    row = await storage.correct_game(
        ctx.db, ctx.the_club, current.id, actor=ctx.actor, chat=ctx.chat, **changes
    )
    black = await storage.get_player(ctx.db, ctx.the_club, row.game.black)
    white = await storage.get_player(ctx.db, ctx.the_club, row.game.white)
    assert black is not None and white is not None
    return Reply(
        blocks=(
            Text(_("Game #{number} corrected", number=row.number), title=True),
            Text(
                game_line(row, black, white)
                + "\n"
                + _(
                    "It keeps its place in history; every rating after it was recomputed. The "
                    "original stays in the history."
                )
            ),
        )
    )


async def _ask_about_correction(
    ctx: Context, current: GameRow, changes: dict[str, object], *, swap: bool, confirmed: bool
) -> Reply | None:
    """The question /result would ask about the corrected game, on what the correction
    changes (:func:`game_options.ask_about`; ``None``: correct it): the colours and stones,
    the date. The other way round is the same correction with ``swap`` added or left out."""
    colours = not changes.keys().isdisjoint({"black", "white", "stones"})
    if not (colours or "date" in changes):
        return None
    try:
        corrected = dataclasses.replace(current.game, **changes)  # type: ignore[arg-type]
    except ValueError:
        return None  # a player against themselves: the correction refuses it, naming them
    black = await storage.get_player(ctx.db, ctx.the_club, corrected.black)
    white = await storage.get_player(ctx.db, ctx.the_club, corrected.white)
    assert black is not None and white is not None
    kept = " ".join(w for w in ctx.inv.text.split() if w.lower() not in ("swap", opt.CONFIRM))
    swapped = f"/correct {kept}" if swap else f"/correct {kept} swap"
    return await opt.ask_about(
        ctx,
        corrected,
        black,
        white,
        swapped=swapped,
        confirmed=confirmed,
        colours=colours,
        date="date" in changes,
    )


async def game_by_number(ctx: Context, number: int) -> GameRow:
    """The club's game by the number members see (``#12``)."""
    row = await storage.game_by_number(ctx.db, ctx.the_club, number)
    if row is None:
        raise BadArgument(_("there is no game #{number} in this club", number=number))
    return row


async def live_game(ctx: Context, number: int) -> GameRow:
    """:func:`game_by_number`, refusing a game already voided or undone."""
    row = await game_by_number(ctx, number)
    if row.status in (GAME_VOIDED, GAME_UNDONE):
        raise BadArgument(translated(gone_game(row.number, row.status)))
    return row
