"""A club tournament run from the chat (issue 25): entering, pairing, publishing, standings.

The actions of ``/tournament`` that run it: ``join`` and ``withdraw`` (a player for themselves,
an organiser for anyone), ``add`` (an organiser enters several players), ``players``,
``pair`` (a draft the organiser looks at), ``swap``, ``publish`` (the round is posted with its
boards, stones and komi, and each linked player is told their board privately), ``missing``
(boards without a result, and a reminder) and ``standings``. Pairing is the engine's
(engine.pairing: OpenGotha's criteria by maximum-weight matching); the log keeps every step
(storage.pairings).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import storage
from bot.core import rounds
from bot.core.context import Context
from bot.core.crosstable import render_crosstable, standings_table
from bot.core.errors import BadArgument, NotPermitted
from bot.core.format import handicap_text
from bot.core.format import komi as komi_text
from bot.core.names import resolve
from bot.core.replies import Button, Notice, Picture, Reply, Table, Text
from bot.core.stakes import stake_lines
from bot.i18n import N_, _, _n, number_text
from engine.types import Game
from storage.errors import Refused
from storage.games import tournament_games
from storage.pairings import Board, Round, publish, published_boards, save_draft, withdraw
from storage.records import GAME_OK, Player, TournamentRow

DETAILS = N_(
    "A tournament run from the chat: open it with pairing=mcmahon, swiss or roundrobin "
    "(bar=RANK and floor=RANK for McMahon; handicap=none, rank-N or system; order=sos,sosos), "
    "then:\n"
    "• join — enter yourself (your account linked with /link); add NAME, NAME — an organiser "
    "enters players; withdraw [NAME] — leave the rounds not yet published; players — the field "
    "with each start score\n"
    "• pair — draft the next round (pair again: the last published round, before any result); "
    "swap A B — exchange two players of the draft; publish — post the round with its boards and "
    "what is at stake, and tell each linked player their board\n"
    "• missing [remind] — the boards without a result (remind: tell their players); standings "
    "[picture] — the crosstable now\n"
    "A result typed with /result, reported, or sent as an SGF file between two players of a "
    "published board is that board's game."
)


@dataclass(frozen=True, slots=True)
class JoinArgs:
    name: str = ""


@dataclass(frozen=True, slots=True)
class AddArgs:
    names: str
    t: str | None = None


@dataclass(frozen=True, slots=True)
class WithdrawArgs:
    name: str = ""
    t: str | None = None


@dataclass(frozen=True, slots=True)
class PlayersArgs:
    name: str = ""


@dataclass(frozen=True, slots=True)
class PairArgs:
    name: str = ""
    again: bool = False


@dataclass(frozen=True, slots=True)
class SwapArgs:
    a: Player
    b: Player
    t: str | None = None


@dataclass(frozen=True, slots=True)
class PublishArgs:
    name: str = ""


@dataclass(frozen=True, slots=True)
class MissingArgs:
    name: str = ""
    remind: bool = False


@dataclass(frozen=True, slots=True)
class StandingsArgs:
    name: str = ""
    picture: bool = False


RoundArgs = (
    JoinArgs
    | AddArgs
    | WithdrawArgs
    | PlayersArgs
    | PairArgs
    | SwapArgs
    | PublishArgs
    | MissingArgs
    | StandingsArgs
)


ACTIONS: dict[type, str] = {
    JoinArgs: "join",
    AddArgs: "add",
    WithdrawArgs: "withdraw",
    PlayersArgs: "players",
    PairArgs: "pair",
    SwapArgs: "swap",
    PublishArgs: "publish",
    MissingArgs: "missing",
    StandingsArgs: "standings",
}


def named(args: RoundArgs) -> tuple[str, str]:
    """The action and the field naming its tournament: ``t`` for an action whose words name
    players (add, withdraw, swap), else ``name``."""
    field_ = "t" if isinstance(args, (AddArgs, WithdrawArgs, SwapArgs)) else "name"
    return ACTIONS[type(args)], field_


async def run_action(ctx: Context, args: RoundArgs, row: TournamentRow) -> Reply:
    """Run one of this module's actions on the tournament ``row``."""
    run = await rounds.run_of(ctx, row)
    if isinstance(args, JoinArgs):
        return await _join(ctx, run)
    if isinstance(args, AddArgs):
        return await _add(ctx, run, args.names)
    if isinstance(args, WithdrawArgs):
        return await _withdraw(ctx, run, args.name)
    if isinstance(args, PlayersArgs):
        return _players(run)
    if isinstance(args, PairArgs):
        return await _pair(ctx, run, args.again)
    if isinstance(args, SwapArgs):
        return await _swap(ctx, run, args.a, args.b)
    if isinstance(args, PublishArgs):
        return await _publish(ctx, run)
    if isinstance(args, MissingArgs):
        return await _missing(ctx, run, args.remind)
    return await _standings(ctx, run, args.picture)


def _open(run: rounds.Run) -> None:
    if run.row.finalised:
        raise BadArgument(
            _(
                "{name} is finalised; reopen it first (/tournament reopen {name})",
                name=run.row.tournament.name,
            )
        )


def _ref(run: rounds.Run) -> str:
    """How a command names this tournament: ``#N``."""
    return f"#{run.row.number}"


async def _me(ctx: Context) -> Player:
    caller = ctx.inv.caller
    me = await storage.player_for_account(ctx.db, ctx.the_club, caller.platform, caller.account)
    if me is None:
        raise BadArgument(
            _(
                "link yourself to your name first: /link YOUR NAME, then try again once an "
                "organiser has confirmed it"
            )
        )
    return me


async def _someone(ctx: Context, name: str) -> Player:
    """The named player (an organiser's choice), or the caller themselves when no name is
    given; a player may name only themselves."""
    if not name.strip():
        return await _me(ctx)
    player = await resolve(ctx, name)
    if not ctx.organiser:
        me = await _me(ctx)
        if me.id != player.id:
            raise NotPermitted(
                _(
                    "only an organiser may enter or withdraw someone else; "
                    "for yourself, leave out the name"
                )
            )
    return player


async def _enter(ctx: Context, run: rounds.Run, player: Player) -> str:
    """Enter ``player`` at their current rank; the line saying so."""
    seat = run.field.seat(player.id)
    if seat is not None and not seat.withdrawn:
        return _("{player} is entered already.", player=player.name)
    ledger = await storage.ledger(ctx.db, ctx.the_club.id)
    try:
        rank = ledger.card(player.id).rank
    except KeyError:
        rank = player.rank
    await storage.add_entry(
        ctx.db, ctx.the_club, run.row.id, player, rank, actor=ctx.actor, chat=ctx.chat
    )
    late = run.field.published
    if seat is not None:
        return _("{player} is back in from round {round}.", player=player.name, round=late + 1)
    if late:
        return _n(
            "{player} ({rank}) enters late, from round {round}: the round before counts as "
            "absent (half a point of MMS, rounded down).",
            "{player} ({rank}) enters late, from round {round}: the {n} rounds before count as "
            "absent (half a point of MMS each, rounded down).",
            late,
            player=player.name,
            rank=str(rank),
            round=late + 1,
        )
    return _("{player} ({rank}) is entered.", player=player.name, rank=str(rank))


async def board_for(
    ctx: Context, row: TournamentRow, number: int, black: Player, white: Player
) -> Board | None:
    """The published board of round ``number`` the two players sit at, in a tournament run
    from the chat (``None`` for any other tournament).

    Raises:
        BadArgument: the round is not published, they have no board together in it, or the
            colours are the other way round (the board's colours are the game's).
    """
    run = await rounds.run_of_any(ctx, row)
    if run is None:
        return None
    if number > run.field.published:
        raise BadArgument(
            _(
                "round {round} of {name} is not published yet: /tournament pair, then "
                "/tournament publish",
                round=number,
                name=row.tournament.name,
            )
        )
    board = run.field.rounds[number - 1].board_of(black.id)
    if board is None or white.id not in (board.black, board.white):
        raise BadArgument(
            _(
                "{black} and {white} do not play each other in round {round} of {name}; "
                "/tournament missing lists the boards without a result",
                black=black.name,
                white=white.name,
                round=number,
                name=row.tournament.name,
            )
        )
    if board.black != black.id:
        raise BadArgument(
            _(
                "on board {board} {black} has Black: write {example}",
                board=board.number,
                black=white.name,
                example=f"{white.name} {black.name}",
            )
        )
    return board


async def open_board(ctx: Context, a: int, b: int) -> tuple[TournamentRow, int, Board] | None:
    """The board ``a`` and ``b`` sit at without a result yet, in a published round of an open
    tournament run from the chat (the earliest such round), if any: a game of theirs reported
    with /result or an SGF file is that board's game. Asked by every /result: a pair without
    a published board costs no statement (storage.pairings.published_boards, a memo)."""
    found = (await published_boards(ctx.db, ctx.the_club.id)).get(frozenset((a, b)), ())
    for tournament, number, board in found:
        row = await storage.tournament(ctx.db, ctx.the_club, tournament)
        if row is None or row.finalised:
            continue
        games = await tournament_games(ctx.db, ctx.the_club, tournament)
        done = any(  # a report waiting for the opponent keeps the board open to them
            g.status == GAME_OK
            and g.game.round == number
            and {g.game.black, g.game.white} == {a, b}
            for g in games
        )
        if not done:
            return row, number, board
    return None


async def _join(ctx: Context, run: rounds.Run) -> Reply:
    _open(run)
    player = await _me(ctx)
    line = await _enter(ctx, run, player)
    return Reply.text(line, _entrants_line(await rounds.run_of(ctx, run.row)))


async def _add(ctx: Context, run: rounds.Run, names: str) -> Reply:
    _open(run)
    wanted = [n.strip() for n in names.replace("\n", ",").split(",") if n.strip()]
    if not wanted:
        raise BadArgument(
            _(
                "name the players, separated by commas, e.g. {example}",
                example="/tournament add Nagy Péter, Kovács Anna",
            )
        )
    players = [await resolve(ctx, n) for n in wanted]  # all found before anyone is entered
    lines = []
    for player in dict.fromkeys(players):
        lines.append(await _enter(ctx, run, player))
        run = await rounds.run_of(ctx, run.row)
    return Reply.text("\n".join(lines), _entrants_line(run))


def _entrants_line(run: rounds.Run) -> str:
    present = [s for s in run.field.seats if not s.withdrawn]
    return _n(
        "{n} player is entered in {name}.",
        "{n} players are entered in {name}.",
        len(present),
        name=run.row.tournament.name,
    )


async def _withdraw(ctx: Context, run: rounds.Run, name: str) -> Reply:
    _open(run)
    player = await _someone(ctx, name)
    try:
        await withdraw(ctx.db, ctx.the_club, run.row.id, player, actor=ctx.actor, chat=ctx.chat)
    except Refused as exc:
        raise BadArgument(
            _("{player}: {why}", player=player.name, why=_(str(exc.args[0])))
        ) from None
    return Reply.text(
        _(
            "{player} withdrew from {name}: not paired from round {round} on; the games "
            "played stay.",
            player=player.name,
            name=run.row.tournament.name,
            round=run.next_round,
        )
    )


def _players(run: rounds.Run) -> Reply:
    """The entrants with their rank and MMS at the start, the highest first."""
    starts = rounds.start_scores(run)
    if not run.field.seats:
        return Reply.text(
            _(
                "Nobody is entered yet: players join with /tournament join, an organiser "
                "adds them with /tournament add NAME, NAME"
            ),
            title=run.row.tournament.name,
        )
    ordered = sorted(
        zip(run.field.seats, run.state.players, strict=True),
        key=lambda pair: (-starts[pair[1].id], -pair[1].rank.step, run.name(pair[1].id)),
    )
    rows = []
    for seat, entrant in ordered:
        notes = []
        if seat.first_round > 1:
            notes.append(_("from round {round}", round=seat.first_round))
        if seat.withdrawn:
            notes.append(_("withdrawn"))
        rows.append(
            (
                run.name(entrant.id),
                str(entrant.rank),
                number_text(starts[entrant.id]),
                ", ".join(notes),
            )
        )
    return Reply(
        blocks=(
            Text(run.row.tournament.name, title=True),
            Table((_("Name"), _("Rank"), _("MMS at start"), ""), tuple(rows), "llrl"),
        ),
    )


async def _pair(ctx: Context, run: rounds.Run, again: bool) -> Reply:
    _open(run)
    number = run.next_round
    if again:
        if not run.field.published:
            raise BadArgument(_("no round is published yet: /tournament pair drafts round 1"))
        number = run.field.published
        done = [b for b in run.field.rounds[-1].boards if run.game_on(number, b) is not None]
        if done:
            raise BadArgument(
                _n(
                    "round {round} has {n} result already; it can no longer be paired again",
                    "round {round} has {n} results already; it can no longer be paired again",
                    len(done),
                    round=number,
                )
            )
    elif number > run.row.tournament.rounds:
        raise BadArgument(
            _n(
                "all {n} round of {name} is published",
                "all {n} rounds of {name} are published",
                run.row.tournament.rounds,
                name=run.row.tournament.name,
            )
        )
    present = [s for s in run.field.seats if not s.withdrawn and s.first_round <= number]
    if len(present) < 2:
        raise BadArgument(
            _("at least two players must be entered to pair a round: /tournament add NAME, NAME")
        )
    draft = await asyncio.to_thread(rounds.drafted, run, number)
    kept = await save_draft(
        ctx.db, ctx.the_club, run.row.id, draft, actor=ctx.actor, chat=ctx.chat
    )
    return _draft_reply(ctx, run, kept)


async def _swap(ctx: Context, run: rounds.Run, a: Player, b: Player) -> Reply:
    _open(run)
    draft = run.field.draft
    if draft is None:
        raise BadArgument(_("there is no draft to change: /tournament pair drafts the next round"))
    changed = rounds.swapped(run, draft, a.id, b.id)
    kept = await save_draft(
        ctx.db, ctx.the_club, run.row.id, changed, actor=ctx.actor, chat=ctx.chat
    )
    return _draft_reply(ctx, run, kept)


def board_rows(
    ctx: Context, run: rounds.Run, boards: tuple[Board, ...]
) -> tuple[tuple[str, ...], ...]:
    """A round's boards as table rows: board, Black, White, stones, komi."""
    return tuple(
        (
            number_text(b.number),
            run.name(b.black),
            run.name(b.white),
            number_text(b.handicap),
            komi_text(rounds.komi_of(ctx, b)),
        )
        for b in boards
    )


def _board_header() -> tuple[str, ...]:
    return (_("Board"), _("Black"), _("White"), _("Stones"), _("Komi"))


def _others(run: rounds.Run, draft: Round) -> list[str]:
    lines: list[str] = []
    if draft.bye is not None:
        lines.append(_("Bye: {player} (scores a win)", player=run.name(draft.bye)))
    if draft.idle:
        lines.append(
            _(
                "Without an opponent this round: {players}",
                players=", ".join(run.name(p) for p in draft.idle),
            )
        )
    return lines


def _draft_reply(ctx: Context, run: rounds.Run, draft: Round) -> Reply:
    lines = _others(run, draft)
    missing = run.missing()
    if missing:
        lines.append(
            _n(
                "{n} board of the rounds before has no result yet: it counts as no result "
                "(pair again once it is in).",
                "{n} boards of the rounds before have no result yet: they count as no result "
                "(pair again once they are in).",
                len(missing),
            )
        )
    lines.append(
        _(
            "Not published yet. Swap two players with /tournament swap A B, pair again with "
            "/tournament pair, publish with /tournament publish {ref}.",
            ref=_ref(run),
        )
    )
    return Reply(
        blocks=(
            Text(
                _(
                    "{name}, round {round}: draft",
                    name=run.row.tournament.name,
                    round=draft.number,
                ),
                title=True,
            ),
            Table(_board_header(), board_rows(ctx, run, draft.boards), "rllrr"),
            Text("\n".join(lines)),
        ),
        # TRANSLATORS: a button under a drafted round's pairing
        buttons=(Button(_("Publish"), f"/tournament publish {_ref(run)}"),),
    )


async def _publish(ctx: Context, run: rounds.Run) -> Reply:
    _open(run)
    draft = run.field.draft
    if draft is None:
        raise BadArgument(
            _("there is no draft to publish: /tournament pair drafts the next round")
        )
    try:
        published = await publish(
            ctx.db, ctx.the_club, run.row.id, draft, actor=ctx.actor, chat=ctx.chat
        )
    except Refused:
        raise BadArgument(
            _("the draft changed since it was shown; look at it again with /tournament pair")
        ) from None
    stakes = await _stakes(ctx, run, published)
    told = await _tell_boards(ctx, run, published, stakes)
    lines = _others(run, published)
    lines.append(
        _(
            "Report each result with /result BLACK WHITE RESULT (or attach the game's SGF); "
            "/tournament standings {ref} at any time.",
            ref=_ref(run),
        )
    )
    if told:
        lines.append(
            _n(
                "{n} player was told their board privately.",
                "{n} players were told their boards privately.",
                told,
            )
        )
    return Reply(
        blocks=(
            Text(
                _("{name}, round {round}", name=run.row.tournament.name, round=published.number),
                title=True,
            ),
            Table(_board_header(), board_rows(ctx, run, published.boards), "rllrr"),
            Text("\n".join(lines)),
            Text(_("What is at stake"), title=True),
            Text("\n".join(line for board in published.boards for line in stakes[board.number])),
        )
    )


async def _stakes(ctx: Context, run: rounds.Run, published: Round) -> dict[int, list[str]]:
    """Each board's stakes under the club's system, as of today (bot.core.stakes): the board's
    line, then what each player gains or loses if Black wins and if White wins."""
    ledger = await storage.ledger(ctx.db, ctx.the_club.id)
    today = ctx.today()

    def lines() -> dict[int, list[str]]:
        found: dict[int, list[str]] = {}
        for b in published.boards:
            game = Game(
                0, b.black, b.white, None, today, stones=b.handicap, komi=rounds.komi_of(ctx, b)
            )
            black, white = run.players[b.black], run.players[b.white]
            found[b.number] = [
                _(
                    "Board {board}: {black} – {white}",
                    board=b.number,
                    black=black.name,
                    white=white.name,
                ),
                *stake_lines(ledger, black, white, game),
            ]
        return found

    return await asyncio.to_thread(lines)  # the rulebooks' arithmetic, off the event loop


async def _tell_boards(
    ctx: Context, run: rounds.Run, published: Round, stakes: dict[int, list[str]]
) -> int:
    """Tell each linked player of the round their own board in private; how many were told."""
    told = 0
    for board in published.boards:
        for me, other in ((board.black, board.white), (board.white, board.black)):
            colour = _("Black") if me == board.black else _("White")
            text = _(
                "{name}, round {round}: board {board}, you play {colour} against {opponent}. "
                "{setup}.",
                name=run.row.tournament.name,
                round=published.number,
                board=board.number,
                colour=colour,
                opponent=run.name(other),
                setup=handicap_text(board.handicap, rounds.komi_of(ctx, board)),
            )
            told += await _tell(ctx, me, Reply.text(text, "\n".join(stakes[board.number][1:])))
    return told


async def _tell(ctx: Context, player: int, reply: Reply) -> bool:
    """Send ``reply`` in private to the accounts linked to ``player``; whether it went to any
    (an unlinked player is told nothing)."""
    accounts = await storage.accounts_of(ctx.db, ctx.the_club, player)
    if not accounts:
        return False
    return bool(await ctx.core.post(Notice(ctx.the_club.id, reply, accounts=tuple(accounts))))


def unfinished(run: rounds.Run) -> Reply | None:
    """Before a tournament run from the chat is finalised: a question when rounds are not
    published or boards have no result (a button finalises it anyway), else ``None``."""
    missing = run.missing()
    unpublished = run.row.tournament.rounds - run.field.published
    if not missing and unpublished <= 0:
        return None
    lines = []
    if unpublished > 0:
        lines.append(
            _n(
                "{n} round is not published yet.",
                "{n} rounds are not published yet.",
                unpublished,
            )
        )
    if missing:
        boards = "; ".join(
            _("round {round}, board {board}", round=number, board=b.number)
            for number, b in missing
        )
        lines.append(
            _n(
                "{n} board has no result: {boards}.",
                "{n} boards have no result: {boards}.",
                len(missing),
                boards=boards,
            )
        )
    command = f"/tournament finalise {_ref(run)} confirm"
    lines.append(
        _(
            "Rate it as it is with {command}; a board without a result is not rated.",
            command=command,
        )
    )
    return Reply(
        blocks=(
            Text(_("{name} is not finished", name=run.row.tournament.name), title=True),
            Text("\n".join(lines)),
        ),
        # TRANSLATORS: a button that rates a tournament with rounds or results missing
        buttons=(Button(_("Finalise anyway"), command),),
    )


async def _missing(ctx: Context, run: rounds.Run, remind: bool) -> Reply:
    missing = run.missing()
    if not missing:
        return Reply.text(
            _("Every published board of {name} has a result.", name=run.row.tournament.name)
        )
    lines = [
        _(
            "Round {round}, board {board}: {black} – {white}",
            round=number,
            board=b.number,
            black=run.name(b.black),
            white=run.name(b.white),
        )
        for number, b in missing
    ]
    if remind:
        if not ctx.organiser:
            raise NotPermitted(_("only an organiser may send reminders"))
        reminded = 0
        for number, b in missing:
            for me in (b.black, b.white):
                text = _(
                    "{name}, round {round}: the result of board {board} ({black} – {white}) is "
                    "missing. Report it with /result {black} {white} RESULT.",
                    name=run.row.tournament.name,
                    round=number,
                    board=b.number,
                    black=run.name(b.black),
                    white=run.name(b.white),
                )
                reminded += await _tell(ctx, me, Reply.text(text))
        lines.append(_n("{n} player was reminded.", "{n} players were reminded.", reminded))
    return Reply.text(
        "\n".join(lines),
        title=_n(
            "{name}: {n} board without a result",
            "{name}: {n} boards without a result",
            len(missing),
            name=run.row.tournament.name,
        ),
    )


async def _standings(ctx: Context, run: rounds.Run, picture: bool) -> Reply:
    """The standings now: a crosstable (places, each round's cells, the tie-breaks chosen at
    creation) as a table, or drawn as a picture."""
    table = rounds.table_of(run)
    title = _n(
        "{name}: standings after {n} round",
        "{name}: standings after {n} rounds",
        run.field.published,
        name=run.row.tournament.name,
    )
    if picture:
        png = await asyncio.to_thread(render_crosstable, table, title)  # off the event loop
        return Reply(
            blocks=(Text(title, title=True),),
            picture=Picture(png, f"hoshi-tournament-{run.row.number}.png", title),
        )
    return Reply(blocks=(Text(title, title=True), standings_table(table)))
