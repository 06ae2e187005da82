"""A tournament run from the chat (issue 25): its pairing setup, entrants, drafts and rounds.

Everything is an event about the tournament (``events.target`` = its seq), appended and never
changed; this module reads them back as one :class:`Field`:

* ``pairing`` — the setup chosen at ``/tournament new … pairing=…`` (written in the same
  transaction as the tournament): the system, McMahon bar and floor, handicap policy and the
  standings' tie-break order. A tournament without it is an ordinary one (typed or imported).
* entries (``tournament_entries``, storage.tournaments.add_entry) — a player enters; a later
  entry of the same player after a ``withdraw`` brings them back.
* ``draft`` — a pairing the organiser looks at (``/tournament pair``, ``swap``); the latest
  draft of a round newer than that round's publication is the one shown.
* ``round`` — a published pairing (``/tournament publish``); publishing a round again replaces
  its boards (a re-pairing before any result).

A late entrant's first round is the round after the last one published before they entered
(OpenGotha counts the earlier rounds as absent).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.ranks import Rank
from engine.text import Msg
from storage import keys, log
from storage import overlay as overlays
from storage.backend import Database
from storage.codec import entry_rank_from_text, rank_from_text
from storage.common import ClubRef, PlayerRef, club_id, player_id
from storage.errors import Refused
from storage.log import Reader
from storage.memo import remembered
from storage.projections import club_write
from storage.records import EventRow

SETUP, DRAFT, ROUND, WITHDRAW = log.PAIRING, log.DRAFT, log.ROUND, log.WITHDRAW
KINDS = (SETUP, DRAFT, ROUND, WITHDRAW)


@dataclass(frozen=True, slots=True)
class Setup:
    """How a tournament run from the chat is paired and placed.

    ``system``: ``mcmahon``, ``swiss`` or ``roundrobin``; ``bar``/``floor``: the McMahon bar
    and floor (``None``: none); ``handicap``: ``none``, ``rank-N`` or ``system``; ``order``:
    the standings' criteria after the score, by OpenGotha's names (``SOSM``, ``SOSOSM`` …).
    """

    system: str
    bar: Rank | None = None
    floor: Rank | None = None
    handicap: str = "none"
    order: tuple[str, ...] = ()

    def payload(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "bar": None if self.bar is None else str(self.bar),
            "floor": None if self.floor is None else str(self.floor),
            "handicap": self.handicap,
            "order": list(self.order),
        }

    @classmethod
    def of(cls, payload: dict[str, Any]) -> Setup:
        bar, floor = payload.get("bar"), payload.get("floor")
        return cls(
            payload["system"],
            None if bar is None else rank_from_text(bar),
            None if floor is None else rank_from_text(floor),
            payload.get("handicap", "none"),
            tuple(payload.get("order", ())),
        )


@dataclass(frozen=True, slots=True)
class Seat:
    """An entrant: the rank entered with (``None``: none declared), the first round they
    play, whether they have withdrawn."""

    player: int
    rank: Rank | None
    first_round: int
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class Board:
    """One board of a round; ``komi`` ``None``: the club's even-game komi."""

    number: int
    black: int
    white: int
    handicap: int
    komi: Fraction | None


@dataclass(frozen=True, slots=True)
class Round:
    """A round's pairing as drafted or published: boards, the bye, round robin's idle."""

    number: int
    boards: tuple[Board, ...]
    bye: int | None = None
    idle: tuple[int, ...] = ()
    seq: int = 0  # the log entry that wrote it

    def payload(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "boards": [
                [b.number, b.black, b.white, b.handicap, None if b.komi is None else str(b.komi)]
                for b in self.boards
            ],
            "bye": self.bye,
            "idle": list(self.idle),
        }

    @classmethod
    def of(cls, payload: dict[str, Any], seq: int) -> Round:
        return cls(
            payload["round"],
            tuple(
                Board(n, b, w, h, None if k is None else Fraction(k))
                for n, b, w, h, k in payload["boards"]
            ),
            payload.get("bye"),
            tuple(payload.get("idle", ())),
            seq,
        )

    def players(self) -> set[int]:
        """Everyone this round places: on a board, the bye, idle."""
        found = {p for b in self.boards for p in (b.black, b.white)}
        found.update(self.idle)
        if self.bye is not None:
            found.add(self.bye)
        return found

    def board_of(self, player: int) -> Board | None:
        return next((b for b in self.boards if player in (b.black, b.white)), None)


@dataclass(frozen=True, slots=True)
class Field:
    """A tournament run from the chat as its log has it now."""

    tournament: int
    setup: Setup
    seats: tuple[Seat, ...]
    rounds: tuple[Round, ...]  # the published rounds, 1 … n, each as last published
    draft: Round | None  # the latest draft newer than its round's publication

    def seat(self, player: int) -> Seat | None:
        return next((s for s in self.seats if s.player == player), None)

    @property
    def published(self) -> int:
        """How many rounds are published."""
        return len(self.rounds)


async def field(reader: Reader, club: int, tournament: int) -> Field | None:
    """The tournament's chat-run state, or ``None`` for a tournament not run from the chat."""
    events = await log.events(reader, club, KINDS, target=tournament)
    setup = next((Setup.of(e.payload) for e in events if e.kind == SETUP), None)
    if setup is None:
        return None
    taken_back = await overlays.undone(reader, club)
    entries = [
        (seq, player, entry_rank_from_text(rank))
        for seq, player, rank in await reader.fetchall(
            "SELECT seq, player, rank FROM tournament_entries WHERE tournament = ? ORDER BY seq",
            (tournament,),
        )
        if seq not in taken_back
    ]
    return Field(tournament, setup, _seats(entries, events), *_rounds(events))


def _rounds(events: Sequence[EventRow]) -> tuple[tuple[Round, ...], Round | None]:
    published: dict[int, Round] = {}
    draft: Round | None = None
    for event in events:
        if event.kind == ROUND:
            number = event.payload["round"]
            published[number] = Round.of(event.payload, event.seq)
            if draft is not None and draft.number == number:
                draft = None
        elif event.kind == DRAFT:
            draft = Round.of(event.payload, event.seq)
    return tuple(published[n] for n in sorted(published)), draft


def _first_publications(events: Sequence[EventRow]) -> list[int]:
    """The seq of each round's first publication, in order."""
    first: dict[int, int] = {}
    for event in events:
        if event.kind == ROUND:
            first.setdefault(event.payload["round"], event.seq)
    return sorted(first.values())


def _seats(
    entries: Sequence[tuple[int, int, Rank | None]], events: Sequence[EventRow]
) -> tuple[Seat, ...]:
    publications = _first_publications(events)
    first_entry: dict[int, int] = {}
    last_entry: dict[int, tuple[int, Rank | None]] = {}
    for seq, player, rank in entries:
        first_entry.setdefault(player, seq)
        last_entry[player] = (seq, rank)
    withdrawn_at: dict[int, int] = {}
    for event in events:
        if event.kind == WITHDRAW:
            withdrawn_at[event.payload["player"]] = event.seq
    return tuple(
        Seat(
            player,
            rank,
            1 + sum(1 for p in publications if p < first_entry[player]),
            withdrawn_at.get(player, 0) > seq,
        )
        for player, (seq, rank) in last_entry.items()
    )


PublishedBoard = tuple[int, int, Board]
"""A published board as (tournament, round, board)."""


async def published_boards(
    reader: Reader, club: int
) -> dict[frozenset[int], tuple[PublishedBoard, ...]]:
    """Every published board of the club's tournaments run from the chat, by its two players
    (a memo, read again only when a round is published: every ``/result`` asks it, and a
    club that runs none pays no statement for it, storage.keys)."""
    return await remembered(
        reader, ("boards", club), keys.PAIRINGS_KEY, (club,), lambda: _published(reader, club)
    )


async def _published(
    reader: Reader, club: int
) -> dict[frozenset[int], tuple[PublishedBoard, ...]]:
    latest: dict[tuple[int, int], Round] = {}
    for event in await log.events(reader, club, (ROUND,)):
        if event.target is not None:
            latest[(event.target, event.payload["round"])] = Round.of(event.payload, event.seq)
    found: dict[frozenset[int], list[PublishedBoard]] = {}
    for (tournament, number), published in sorted(latest.items()):
        for board in published.boards:
            found.setdefault(frozenset((board.black, board.white)), []).append(
                (tournament, number, board)
            )
    return {pair: tuple(boards) for pair, boards in found.items()}


async def withdraw(
    db: Database,
    club: ClubRef,
    tournament: int,
    player: PlayerRef,
    *,
    actor: str,
    chat: str | None = None,
) -> None:
    """Withdraw an entrant from the rounds not yet published (their games stay).

    Raises:
        Refused: not an entrant, or withdrawn already.
    """
    async with club_write(db, club_id(club)) as write:
        found = await field(write.tx, write.club, tournament)
        seat = None if found is None else found.seat(player_id(player))
        if seat is None:
            raise Refused(Msg("they are not entered in this tournament"))
        if seat.withdrawn:
            raise Refused(Msg("they have withdrawn already"))
        await write.event(
            WITHDRAW, actor=actor, chat=chat, target=tournament, payload={"player": seat.player}
        )


async def save_draft(
    db: Database, club: ClubRef, tournament: int, draft: Round, *, actor: str, chat: str | None
) -> Round:
    """Keep a drafted pairing (``/tournament pair``, ``swap``): the organiser's to publish."""
    async with club_write(db, club_id(club)) as write:
        seq = await write.event(
            DRAFT, actor=actor, chat=chat, target=tournament, payload=draft.payload()
        )
    return Round(draft.number, draft.boards, draft.bye, draft.idle, seq)


async def publish(
    db: Database, club: ClubRef, tournament: int, draft: Round, *, actor: str, chat: str | None
) -> Round:
    """Publish a drafted round as it was shown (``draft.seq`` must still be the latest draft:
    a draft changed since it was shown is refused, never published unseen).

    Raises:
        Refused: no draft, or a newer one.
    """
    async with club_write(db, club_id(club)) as write:
        found = await field(write.tx, write.club, tournament)
        latest = None if found is None else found.draft
        if latest is None or latest.seq != draft.seq:
            raise Refused(Msg("the pairing changed since it was shown; look at it again"))
        seq = await write.event(
            ROUND, actor=actor, chat=chat, target=tournament, payload=draft.payload()
        )
    return Round(draft.number, draft.boards, draft.bye, draft.idle, seq)
