"""A tournament run from the chat, as the core reads it: the engine's pairing state built from
the log (storage.pairings), the next round's pairing, the standings at any moment.

Published boards without a recorded game count as paired with no result yet (OpenGotha's
unknown result: no point to either, never "absent"); a game recorded for a round without a
board (typed with /tournament result) counts as it was typed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import storage
from bot.core.context import Context
from bot.core.crosstable import Crosstable, crosstable
from bot.core.errors import BadArgument
from bot.i18n import _
from engine.pairing.pair import pair, seated
from engine.pairing.scores import mms_start, standings_input
from engine.pairing.standings import (
    MCMAHON_ORDER,
    SWISS_ORDER,
    Criterion,
    RoundGame,
    Standing,
    Unpaired,
    h9_text,
    standings,
)
from engine.pairing.types import (
    MMS_ZERO,
    NO_BAR,
    Bye,
    Entrant,
    HandicapPolicy,
    NoHandicap,
    PairingSettings,
    PlayedGame,
    RankHandicap,
    Result,
    System,
    TournamentState,
)
from engine.ranks import Rank
from engine.system import HandicapAdvice, RatingSystem
from engine.types import Entry
from engine.types import Result as GameResult
from storage.db import Database
from storage.games import tournament_games
from storage.pairings import Board, Field, Round, Setup, field
from storage.projections import ledger_if_cheap
from storage.records import GAME_OK, Club, GameRow, Player, TournamentRow

CRITERIA: dict[str, Criterion] = {
    "wins": "NBW",
    "mms": "MMS",
    "sos": "SOSM",
    "sosos": "SOSOSM",
    "sodos": "SODOSM",
}
"""The tie-break words ``/tournament new … order=…`` takes, as OpenGotha's criteria (SOS and
its kin sum MMS in McMahon; Swiss and round robin read them on wins: :func:`criteria_of`)."""

_ON_WINS: dict[Criterion, Criterion] = {"SOSM": "SOSW", "SOSOSM": "SOSOSW", "SODOSM": "SODOSW"}

OUTCOMES: dict[GameResult, Result] = {
    GameResult.BLACK: Result.BLACK,
    GameResult.WHITE: Result.WHITE,
    GameResult.JIGO: Result.JIGO,
}


@dataclass(frozen=True, slots=True)
class Run:
    """One tournament run from the chat, now."""

    row: TournamentRow
    field: Field
    games: tuple[GameRow, ...]  # its recorded games that count (not voided, undone, pending)
    players: dict[int, Player]  # every entrant and every player of its games
    state: TournamentState  # as pairing reads it, every published round included

    @property
    def next_round(self) -> int:
        return self.field.published + 1

    def name(self, player: int) -> str:
        return self.players[player].name

    def game_on(self, number: int, board: Board) -> GameRow | None:
        """The recorded game of a published board (colours either way), if any."""
        pair = {board.black, board.white}
        return next(
            (
                g
                for g in self.games
                if g.game.round == number and {g.game.black, g.game.white} == pair
            ),
            None,
        )

    def missing(self) -> list[tuple[int, Board]]:
        """The published boards still without a result, by round and board."""
        return [
            (r.number, b)
            for r in self.field.rounds
            for b in r.boards
            if (found := self.game_on(r.number, b)) is None or found.game.result is None
        ]


def criteria_of(order: Sequence[str], system: str) -> tuple[Criterion, ...]:
    """The standings' order: the score first (MMS in McMahon, wins otherwise), then the
    chosen tie-breaks (OpenGotha's default when none are chosen)."""
    mcmahon = system == System.MCMAHON
    if not order:
        return MCMAHON_ORDER if mcmahon else SWISS_ORDER
    chosen = [CRITERIA[word] for word in order]
    if not mcmahon:
        chosen = [_ON_WINS.get(c, c) for c in chosen if c != "MMS"]
    first: Criterion = "MMS" if mcmahon else "NBW"
    return (first, *(c for c in chosen if c != first))


def pairing_line(setup: Setup) -> str:
    """How the tournament is paired, in the reader's words."""
    system = {
        "mcmahon": _("McMahon"),
        "swiss": _("Swiss"),
        "roundrobin": _("round robin"),
    }[setup.system]
    parts = [system]
    if setup.bar is not None:
        parts.append(_("bar {rank}", rank=str(setup.bar)))
    if setup.floor is not None:
        parts.append(_("floor {rank}", rank=str(setup.floor)))
    if setup.handicap == "system":
        parts.append(_("handicap as the club's rating system advises"))
    elif setup.handicap.startswith("rank-"):
        parts.append(
            _(
                "handicap: rank difference minus {n}, at most 9",
                n=int(setup.handicap[5:]),
            )
        )
    else:
        parts.append(_("even games"))
    order = criteria_of(setup.order, setup.system)
    parts.append(_("placed by {order}", order=", ".join(order)))
    return _("Pairing: {how}", how="; ".join(parts))


def settings_of(field_: Field, ledger: RatingSystem | None, komi: Fraction) -> PairingSettings:
    """The engine's pairing settings from the tournament's setup: ``handicap=system`` asks the
    club's rating system (rules.md §5 and each rulebook's own table)."""
    setup = field_.setup
    policy: HandicapPolicy
    if setup.handicap == "system" and ledger is not None:

        def advice(a: int, _ra: Rank, b: int, _rb: Rank) -> HandicapAdvice:
            return ledger.handicap(a, b)

        policy = advice
    elif setup.handicap.startswith("rank-"):
        policy = RankHandicap(int(setup.handicap[5:]), even_komi=komi)
    else:
        policy = NoHandicap()
    return PairingSettings(
        System(setup.system), setup.bar or NO_BAR, setup.floor or MMS_ZERO, policy
    )


async def run_of(ctx: Context, row: TournamentRow) -> Run:
    """The chat-run state of ``row``.

    Raises:
        BadArgument: the tournament is not run from the chat (opened without pairing=).
    """
    found = await run_of_any(ctx, row)
    if found is None:
        raise BadArgument(
            _(
                "{name} is not run from the chat: open one with /tournament new NAME "
                "pairing=mcmahon (or swiss, roundrobin) to pair its rounds here",
                name=row.tournament.name,
            )
        )
    return found


async def run_of_any(ctx: Context, row: TournamentRow) -> Run | None:
    """The chat-run state of ``row``, ``None`` for a tournament not run from the chat."""
    ledger = await storage.ledger(ctx.db, ctx.the_club.id)
    return await run_from(ctx.db, ctx.the_club, row, komi=ctx.settings.komi, ledger=ledger)


async def run_from(
    db: Database,
    club: Club,
    row: TournamentRow,
    *,
    komi: Fraction,
    ledger: RatingSystem | None = None,
) -> Run | None:
    """:func:`run_of_any` outside a conversation (an export, a web page); ``komi``: the
    club's even-game komi, given by a ``handicap=rank-N`` pairing's even games. Without the
    club's ``ledger`` (a reader that must not wait for a replay) the standings are whole, but
    an entrant without a declared rank counts at their registered rank and ``handicap=system``
    cannot be asked: such a run answers standings, never a pairing."""
    found = await field(db, club.id, row.id)
    if found is None:
        return None
    games = tuple(
        g
        for g in await tournament_games(db, club, row.id)
        if g.status == GAME_OK and g.game.round is not None
    )
    ids = {s.player for s in found.seats} | {
        p for g in games for p in (g.game.black, g.game.white)
    }
    players = {p.id: p for p in await storage.players(db, club, guests=True)}
    players = {pid: players[pid] for pid in ids if pid in players}
    entrants = tuple(
        Entrant(s.player, s.rank or _rank_now(ledger, players[s.player]), s.first_round)
        for s in found.seats
    )
    state = TournamentState(
        settings_of(found, ledger, komi),
        entrants,
        _played(found, games),
        tuple(Bye(r.number, r.bye) for r in found.rounds if r.bye is not None),
        frozenset(s.player for s in found.seats if s.withdrawn),
    )
    return Run(row, found, games, players, state)


@dataclass(frozen=True, slots=True)
class H9Input:
    """What a tournament's EGD h9 is written from (bot.core.exporting.tournament_file): its
    entries and their ranks; for a tournament run from the chat, the entries carry the
    standings' columns (MMS, SOS …) and every round without a game (bye ``0+``, absent
    ``0=``, as OpenGotha writes an absence), and ``places`` the standings' places."""

    entries: list[Entry]
    ranks: dict[int, Rank]
    places: dict[int, int] | None = None


async def h9_input(
    db: Database, club: Club, row: TournamentRow, *, cheap: bool = False
) -> H9Input:
    """The h9 input of ``row`` (every export: /export, ``hoshi export``, the web download);
    ``cheap``: never wait for the club's replay (a web page), the ledger only when
    storage.projections.ledger_if_cheap gives it (:func:`run_from` without one)."""
    entries = await storage.entries(db, club, row.id)
    ranks = await storage.entry_ranks(db, club, row.id)
    ledger = await (ledger_if_cheap(db, club.id) if cheap else storage.ledger(db, club.id))
    run = await run_from(db, club, row, komi=Fraction(0), ledger=ledger)
    if run is None:
        return H9Input(entries, ranks)
    lines = {s.id: s for s in standings_now(run)}
    order = criteria_of(run.field.setup.order, run.field.setup.system)
    paired = {(g.round, p) for g in run.state.games for p in (g.black, g.white)}
    byes = {(b.round, b.player) for b in run.state.byes}
    rounds = run.field.published
    enriched = []
    for entry in entries:
        line = lines.get(entry.player)
        if line is None:
            enriched.append(entry)
            continue
        enriched.append(
            dataclasses.replace(
                entry,
                criteria=tuple((c, h9_text(getattr(line, c.lower()))) for c in order),
                byes=tuple(
                    (n, "win" if (n, entry.player) in byes else "half")
                    for n in range(1, rounds + 1)
                    if (n, entry.player) not in paired
                ),
            )
        )
    return H9Input(enriched, ranks, {s.id: s.place for s in lines.values()})


def _rank_now(ledger: RatingSystem | None, player: Player) -> Rank:
    if ledger is None:
        return player.rank
    try:
        return ledger.card(player.id).rank
    except KeyError:
        return player.rank


def _played(found: Field, games: Sequence[GameRow]) -> tuple[PlayedGame, ...]:
    """Every game pairing and standings count: the recorded ones, and each published board
    without one as a game with no result yet."""
    played = [
        PlayedGame(
            g.game.round or 0,
            g.game.black,
            g.game.white,
            OUTCOMES.get(g.game.result, Result.NONE) if g.game.result else Result.NONE,
            g.game.stones,
        )
        for g in games
    ]
    pairs = {(g.game.round, frozenset((g.game.black, g.game.white))) for g in games}
    for published in found.rounds:
        for board in published.boards:
            if (published.number, frozenset((board.black, board.white))) not in pairs:
                played.append(
                    PlayedGame(
                        published.number, board.black, board.white, Result.NONE, board.handicap
                    )
                )
    return tuple(played)


def _before(run: Run, number: int) -> TournamentState:
    """The state before round ``number`` (a re-pairing forgets the round's own boards)."""
    state = run.state
    return dataclasses.replace(
        state,
        games=tuple(g for g in state.games if g.round < number),
        byes=tuple(b for b in state.byes if b.round < number),
    )


def drafted(run: Run, number: int) -> Round:
    """The engine's pairing of round ``number`` as a draft to keep (storage.pairings)."""
    pairing = pair(_before(run, number), number)
    return Round(
        number,
        tuple(Board(b.number, b.black, b.white, b.handicap, b.komi) for b in pairing.boards),
        pairing.bye,
        pairing.idle,
    )


def swapped(run: Run, draft: Round, a: int, b: int) -> Round:
    """The draft with players ``a`` and ``b`` exchanged (boards, the bye, idle); each changed
    board gets its colours and stones from the tournament's handicap policy again.

    Raises:
        BadArgument: one of them is not in the draft, or they sit at the same board.
    """
    places = draft.players()
    if a not in places or b not in places:
        raise BadArgument(_("both players must be in the drafted round"))
    board = draft.board_of(a)
    if board is not None and b in (board.black, board.white):
        raise BadArgument(
            _("they already play each other: swap one of them with a player of another board")
        )

    def moved(p: int) -> int:
        return b if p == a else a if p == b else p

    state = _before(run, draft.number)
    boards = tuple(
        seated(state, draft.number, x.number, moved(x.black), moved(x.white))
        if {a, b} & {x.black, x.white}
        else x
        for x in draft.boards
    )
    return Round(
        draft.number,
        tuple(Board(x.number, x.black, x.white, x.handicap, x.komi) for x in boards),
        None if draft.bye is None else moved(draft.bye),
        tuple(moved(p) for p in draft.idle),
    )


def standings_now(run: Run) -> tuple[Standing, ...]:
    """The standings over every published round (boards without a result count as paired,
    no point), placed by the tie-break order chosen at creation."""
    return _placed(run)[0]


def table_of(run: Run) -> Crosstable:
    """The crosstable of the published rounds, placed by the tournament's order
    (bot.core.crosstable: OpenGotha's notation)."""
    placed, games, unpaired = _placed(run)
    return crosstable(
        placed,
        {pid: p.name for pid, p in run.players.items()},
        {p.id: str(p.rank) for p in run.state.players},
        games,
        unpaired,
        run.field.published,
        criteria_of(run.field.setup.order, run.field.setup.system),
    )


def _placed(
    run: Run,
) -> tuple[tuple[Standing, ...], tuple[RoundGame, ...], tuple[Unpaired, ...]]:
    """:func:`standings_now` with the games and unpaired rounds it was placed from (one
    reading of the published rounds for a crosstable)."""
    rounds = run.field.published
    entrants, games, unpaired = standings_input(run.state, rounds + 1)
    order = criteria_of(run.field.setup.order, run.field.setup.system)
    return standings(entrants, games, unpaired, rounds=rounds, order=order), games, unpaired


def start_scores(run: Run) -> dict[int, int]:
    """Each entrant's MMS at the start (0 in Swiss and round robin)."""
    return {p.id: mms_start(run.state, p) for p in run.state.players}


def komi_of(ctx: Context, board: Board) -> Fraction:
    """A board's komi: the engine's, or the club's even-game komi when it gives none."""
    return ctx.settings.komi if board.komi is None else board.komi
