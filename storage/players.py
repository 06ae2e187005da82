"""Players: registration, aliases, linked chat accounts and name lookup."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from engine.errors import EngineError
from engine.formats.messages import message_of
from engine.ranks import Rank
from engine.ratings import Rating
from engine.text import Msg
from engine.types import Registered
from storage import keys, log, memo, overlay
from storage.backend import Database, Row
from storage.codec import (
    date_from_text,
    rank_from_text,
    rating_columns,
    rating_from_columns,
)
from storage.common import ClubRef, PlayerRef, clean_identity, clean_name, club_id, player_id
from storage.errors import BatchError, NotFound, Refused
from storage.log import Reader
from storage.memo import remembered
from storage.names import fold, lookup, name_key
from storage.projections import ClubWrite, club_write
from storage.records import Lookup, NewPlayer, Player

PLAYER_SELECT = (
    "players.seq, players.club, players.name, players.rank, players.date, players.rating, "
    "players.country, players.home_club, players.egd_pin, players.committee, players.guest, "
    "players.rating_milli, players.pro"
)


def player_from_row(row: Row, aliases: Iterable[str] = ()) -> Player:
    """A :class:`Player` from a row of ``PLAYER_SELECT``."""
    return Player(
        id=row[0],
        club=row[1],
        name=row[2],
        rank=rank_from_text(row[3]),
        date=date_from_text(row[4]),
        rating=rating_from_columns(row[5], row[11]),
        country=row[6],
        home_club=row[7],
        egd_pin=row[8],
        committee=row[9] == 1,
        guest=row[10] == 1,
        aliases=tuple(aliases),
        pro=row[12],
    )


async def load_players(reader: Reader, club: int, *, guests: bool = True) -> dict[int, Player]:
    """The club's players (registrations not undone), by id, in registration order."""
    every = await remembered(
        reader, ("players", club), keys.PLAYERS_KEY, (club,), lambda: _load(reader, club)
    )
    if guests:
        return dict(every)
    return {pid: player for pid, player in every.items() if not player.guest}


async def _name_index(
    reader: Reader, club: int, guests: bool
) -> tuple[list[Player], dict[tuple[str, ...], list[Player]]]:
    """The candidates of a name lookup, and their folded name keys (each player once per key,
    in registration order)."""

    async def build() -> tuple[list[Player], dict[tuple[str, ...], list[Player]]]:
        candidates = list((await load_players(reader, club, guests=guests)).values())
        index: dict[tuple[str, ...], list[Player]] = {}
        for player in candidates:
            for key in dict.fromkeys(name_key(name) for name in names_of(player)):
                index.setdefault(key, []).append(player)
        return candidates, index

    return await remembered(reader, ("names", club, guests), keys.PLAYERS_KEY, (club,), build)


async def _load(reader: Reader, club: int) -> dict[int, Player]:
    taken_back = await overlay.undone(reader, club)
    aliases: dict[int, list[str]] = {}
    for seq, player, alias in await reader.fetchall(
        "SELECT seq, player, alias FROM player_aliases WHERE club = ? ORDER BY seq", (club,)
    ):
        if seq not in taken_back:
            aliases.setdefault(player, []).append(alias)
    found: dict[int, Player] = {}
    for row in await reader.fetchall(
        f"SELECT {PLAYER_SELECT} FROM players WHERE club = ? ORDER BY seq", (club,)
    ):
        if row[0] not in taken_back:
            found[row[0]] = player_from_row(row, aliases.get(row[0], ()))
    return found


async def players_by_id(
    reader: Reader, club: int, ids: Iterable[int], undone: set[int]
) -> dict[int, Player]:
    """Some of the club's players by id (without aliases): for checks that need only a few."""
    wanted = sorted(set(ids))
    found: dict[int, Player] = {}
    for start in range(0, len(wanted), 500):
        part = wanted[start : start + 500]
        marks = ", ".join("?" for _ in part)
        for row in await reader.fetchall(
            f"SELECT {PLAYER_SELECT} FROM players WHERE club = ? AND seq IN ({marks})",
            (club, *part),
        ):
            if row[0] not in undone:
                found[row[0]] = player_from_row(row)
    return found


async def some_players(
    reader: Reader, club: int, ids: Iterable[int], undone: set[int]
) -> dict[int, Player]:
    """:func:`players_by_id`, taken from the memo of the club's players when the command
    knows it current without asking (storage.keys): it left out the same undone players."""
    every: dict[int, Player] | None = memo.current(reader, ("players", club), keys.PLAYERS_KEY)
    if every is None:
        return await players_by_id(reader, club, ids, undone)
    return {
        pid: dataclasses.replace(every[pid], aliases=())
        for pid in sorted(set(ids))
        if pid in every
    }


def names_of(player: Player) -> tuple[str, ...]:
    """The names a player is found by: their name, then their aliases."""
    return (player.name, *player.aliases)


class NameIndex:
    """Folded name keys of a club's players (names and aliases), for duplicate checks."""

    def __init__(self, players: Iterable[Player]):
        self._keys: dict[tuple[str, ...], Player] = {}
        for player in players:
            self.add(player)

    def add(self, player: Player, name: str | None = None) -> None:
        """Index ``player`` by all their names (or by one new ``name``)."""
        for each in (name,) if name is not None else names_of(player):
            self._keys.setdefault(name_key(each), player)

    def holder(self, name: str) -> Player | None:
        """The player already known by ``name`` (folded, any word order), if any."""
        return self._keys.get(name_key(name))


def already_registered(holder: Player, name: str | None = None) -> str:
    """Why a new player cannot take ``holder``'s name, and how to tell the two apart.

    ``name`` is the name as typed: when it is one of ``holder``'s names in another word order
    (``Anna Kiss`` for Kiss Anna), it may be the same person written the other way or a new
    one, so the reason asks which.
    """
    if name is not None and fold(name) not in {fold(each) for each in names_of(holder)}:
        return Msg(
            "Is {typed} the same person as {name} ({rank}, since {date}), with the names in "
            "another order? If so, nothing needs registering; if not, register the new player "
            "under a name that tells the two apart, e.g. {typed} (Szeged)",
            typed=name,
            name=holder.name,
            rank=str(holder.rank),
            date=holder.date,
        )
    return Msg(
        "{name} ({rank}, since {date}) is already registered; to add a different person with "
        "the same name, register them under a name that tells them apart, e.g. {name} (Szeged)",
        name=holder.name,
        rank=str(holder.rank),
        date=holder.date,
    )


PLAYER_INSERT = (
    "INSERT INTO players (seq, club, name, rank, date, rating, country, home_club, egd_pin, "
    "committee, guest, rating_system, rating_milli, pro) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def player_row(
    seq: int, club: int, name: str, new: NewPlayer, date: dt.date, system: str
) -> tuple[Any, ...]:
    """A new player's ``players`` row, for :data:`PLAYER_INSERT` (``name`` already cleaned;
    ``system``: the club's rating system when they registered)."""
    rating, rating_milli = rating_columns(new.rating)
    return (
        seq,
        club,
        name,
        str(new.rank),
        date.isoformat(),
        rating,
        new.country,
        new.home_club,
        new.egd_pin,
        int(new.committee),
        int(new.guest),
        system,
        rating_milli,
        new.pro,
    )


async def register(
    write: ClubWrite,
    new: NewPlayer,
    *,
    date: dt.date,
    actor: str,
    chat: str | None,
    index: NameIndex,
    allow_duplicate: bool = False,
) -> Player:
    """Register a player inside an open club write (shared by registration and imports).

    Raises:
        Refused: an empty or duplicate name.
        EngineError: the club's rating system refuses the registration (nothing is written).
    """
    name = clean_name(new.name)
    holder = index.holder(name)
    if holder is not None and not allow_duplicate:
        raise Refused(already_registered(holder, name))
    seq = await write.append(log.PLAYER, actor=actor, chat=chat)
    await write.tx.execute(
        PLAYER_INSERT, player_row(seq, write.club, name, new, date, write.ledgers.current)
    )
    if not new.guest:  # a guest is an unregistered tournament entry (rules.md §1.4 step 2)
        registered = Registered(
            seq,
            new.rank,
            date,
            new.rating,
            new.country,
            new.committee,
            write.ledgers.current,
            new.pro,
        )
        await write.apply(seq, registered)
    player = Player(
        seq,
        write.club,
        name,
        new.rank,
        date,
        new.rating,
        new.country,
        new.home_club,
        new.egd_pin,
        new.committee,
        new.guest,
        pro=new.pro,
    )
    index.add(player)
    return player


async def register_player(
    db: Database,
    club: ClubRef,
    name: str,
    rank: Rank,
    *,
    date: dt.date,
    actor: str,
    chat: str | None = None,
    rating: Rating | None = None,
    country: str | None = None,
    home_club: str | None = None,
    egd_pin: str | None = None,
    committee: bool = False,
    guest: bool = False,
    allow_duplicate: bool = False,
    pro: int = 0,
) -> Player:
    """Add a player to the club (``/register``).

    ``rating`` records an existing player's standing; ``committee`` marks a stronger initial
    rank allowed by the committee (rules.md §1.5); ``guest`` stores a tournament guest who is
    never a ranked player; ``pro`` is N of a declared professional rank Np (``rank`` 7d).

    Raises:
        Refused: an empty name, or a name (or alias) already registered.
        EngineError: the club's system refuses it (e.g. MGSZ: a new player above 5k without
            a rating or committee decision, rules.md §1.5); nothing is written.
    """
    new = NewPlayer(name, rank, rating, country, home_club, egd_pin, committee, guest, pro)
    async with club_write(db, club_id(club)) as write:
        index = NameIndex((await load_players(write.tx, write.club)).values())
        return await register(
            write,
            new,
            date=date,
            actor=actor,
            chat=chat,
            index=index,
            allow_duplicate=allow_duplicate,
        )


async def register_players(
    db: Database,
    club: ClubRef,
    rows: Sequence[tuple[int, NewPlayer]],
    *,
    date: dt.date,
    actor: str,
    chat: str | None = None,
) -> list[Player]:
    """Register a table of players (``hoshi import players.csv``): all of them, or none.

    Args:
        rows: ``(number, player)``, ``number`` naming the row in errors (a CSV line).

    Raises:
        BatchError: naming every refused row by its number; nothing is written.
    """
    problems: list[tuple[int, str]] = []
    created: list[Player] = []
    async with club_write(db, club_id(club)) as write:
        index = NameIndex((await load_players(write.tx, write.club)).values())
        for number, new in rows:
            try:
                created.append(
                    await register(write, new, date=date, actor=actor, chat=chat, index=index)
                )
            except (Refused, EngineError) as error:  # the engine refuses before changing
                problems.append((number, message_of(error)))
        if problems:  # raising inside the write rolls back everything, ledgers included
            raise BatchError(problems, [Msg("line {number}", number=n) for n, _ in problems])
    return created


async def players(db: Database, club: ClubRef, *, guests: bool = False) -> list[Player]:
    """The club's players in registration order (tournament guests only when asked)."""
    return list((await load_players(db, club_id(club), guests=guests)).values())


async def get_player(db: Database, club: ClubRef, player: PlayerRef) -> Player | None:
    """One player of the club by id."""
    return (await load_players(db, club_id(club))).get(player_id(player))


async def _known(reader: Reader, club: int, player: PlayerRef) -> Player:
    found = (await load_players(reader, club)).get(player_id(player))
    if found is None:
        raise NotFound(Msg("there is no player {player} in this club", player=player_id(player)))
    return found


async def add_alias(
    db: Database,
    club: ClubRef,
    player: PlayerRef,
    alias: str,
    *,
    actor: str,
    chat: str | None = None,
) -> bool:
    """Another name the player is found by; ``False`` when they already had it.

    Raises:
        Refused: another player already has that name or alias.
    """
    alias = clean_name(alias, "alias")
    async with club_write(db, club_id(club)) as write:
        known = await load_players(write.tx, write.club)
        target = known.get(player_id(player))
        if target is None:
            raise NotFound(
                Msg("there is no player {player} in this club", player=player_id(player))
            )
        holder = NameIndex(known.values()).holder(alias)
        if holder is not None:
            if holder.id == target.id:
                return False
            raise Refused(
                Msg(
                    "{alias!r} already names {name} (id {id})",
                    alias=alias,
                    name=holder.name,
                    id=holder.id,
                )
            )
        seq = await write.append(log.ALIAS, actor=actor, chat=chat)
        await write.tx.execute(
            "INSERT INTO player_aliases (seq, club, player, alias) VALUES (?, ?, ?, ?)",
            (seq, write.club, target.id, alias),
        )
    return True


async def link_account(
    db: Database,
    club: ClubRef,
    player: PlayerRef,
    platform: str,
    account: str | int,
    *,
    actor: str,
    chat: str | None = None,
) -> bool:
    """Link a chat account to a player (``/link``); the newest link of an account wins.

    Returns:
        ``False`` when the account was already linked to this player.
    """
    platform = clean_identity(platform, "platform")
    async with club_write(db, club_id(club)) as write:
        target = await _known(write.tx, write.club, player)
        current = await _linked(write.tx, write.club, platform, str(account))
        if current == target.id:
            return False
        seq = await write.append(log.LINK, actor=actor, chat=chat)
        await write.tx.execute(
            "INSERT INTO account_links (seq, club, player, platform, account) "
            "VALUES (?, ?, ?, ?, ?)",
            (seq, write.club, target.id, platform, str(account)),
        )
    return True


async def unlink_accounts(
    db: Database,
    club: ClubRef,
    player: PlayerRef,
    accounts: Sequence[tuple[str, str]],
    *,
    actor: str,
    chat: str | None = None,
) -> list[tuple[str, str]]:
    """Take chat accounts off ``player`` (``/link NAME remove``), in one transaction: each
    of ``accounts`` (``(platform, account)``) that is linked to ``player`` now.

    Returns:
        The accounts taken off (those linked to someone else, or to nobody, are left).
    """
    taken: list[tuple[str, str]] = []
    async with club_write(db, club_id(club)) as write:
        target = await _known(write.tx, write.club, player)
        for platform, account in accounts:
            platform = clean_identity(platform, "platform")
            if await _linked(write.tx, write.club, platform, account) != target.id:
                continue
            seq = await write.append(log.UNLINK, actor=actor, chat=chat)
            await write.tx.execute(
                "INSERT INTO account_unlinks (seq, club, platform, account) VALUES (?, ?, ?, ?)",
                (seq, write.club, platform, account),
            )
            taken.append((platform, account))
    return taken


async def _linked(reader: Reader, club: int, platform: str, account: str) -> int | None:
    """The player the account's newest link names, unless an unlink is newer."""
    row = await reader.fetchone(
        "SELECT l.player FROM account_links l WHERE l.club = ? AND l.platform = ? "
        "AND l.account = ? AND NOT EXISTS (SELECT 1 FROM account_unlinks u WHERE "
        "u.club = l.club AND u.platform = l.platform AND u.account = l.account "
        "AND u.seq > l.seq) ORDER BY l.seq DESC LIMIT 1",
        (club, platform, account),
    )
    return None if row is None else int(row[0])


async def player_for_account(
    db: Database, club: ClubRef, platform: str, account: str | int
) -> Player | None:
    """The player a chat account is linked to, if any."""
    linked = await _linked(db, club_id(club), platform, str(account))
    if linked is None:
        return None
    return (await load_players(db, club_id(club))).get(linked)


async def accounts_of(db: Database, club: ClubRef, player: PlayerRef) -> list[tuple[str, str]]:
    """The accounts currently linked to the player, as ``(platform, account)``."""
    rows = await db.fetchall(
        "SELECT platform, account FROM account_links WHERE club = ? AND player = ? "
        "GROUP BY platform, account ORDER BY MIN(seq)",
        (club_id(club), player_id(player)),
    )
    return [
        (platform, account)
        for platform, account in rows
        if await _linked(db, club_id(club), platform, account) == player_id(player)
    ]


async def find_player(db: Database, club: ClubRef, query: str, *, guests: bool = False) -> Lookup:
    """Find a player by name or alias: case- and accent-insensitive, either name order.

    Returns:
        A :class:`Lookup`: the exact match, or the ambiguous matches, or partial matches and
        the closest names (never a guess).
    """
    candidates, index = await _name_index(db, club_id(club), guests)
    key = name_key(query)
    exact = index.get(key, []) if key else []
    if len(exact) == 1:
        return Lookup(player=exact[0])
    if exact:
        return Lookup(ambiguous=tuple(exact))
    _, partial, suggestions = lookup(query, candidates, names_of)  # a miss: the slow search
    return Lookup(partial=tuple(partial), suggestions=tuple(suggestions))
