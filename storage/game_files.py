"""The files games were recorded from (an ``.sgf`` sent with ``/result``; issue 4/5, item 5).

A file is kept in the log when it is read (:func:`keep_file`: its own entry, kind ``file``),
before anyone confirms the game it describes; the game recorded from it names it in the same
transaction (:func:`attach`, called by :func:`storage.games.record_game`). Nothing is updated or
deleted: a game undone or voided keeps its file, and :func:`file_of_game` no longer offers it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from storage import log
from storage.backend import Database, Transaction
from storage.common import ClubRef, club_id
from storage.errors import Refused
from storage.log import Reader
from storage.overlay import load as load_overlay

FILE = "file"
"""The log kind of a kept file."""

MAX_FILE_BYTES = 1_000_000
"""The largest file kept (an SGF of a long game with comments is ~100 kB)."""


@dataclass(frozen=True, slots=True)
class GameFile:
    """A kept file: its log entry (``seq``), its name as sent and its bytes."""

    seq: int
    name: str
    data: bytes


async def keep_file(
    db: Database, club: ClubRef, name: str, data: bytes, *, actor: str, chat: str | None
) -> GameFile:
    """Keep ``data`` (a game's file as sent) in the club's log, under an entry of its own.

    Raises:
        Refused: an empty file, or one larger than :data:`MAX_FILE_BYTES`.
    """
    if not data:
        raise Refused("the file is empty")
    if len(data) > MAX_FILE_BYTES:
        raise Refused(f"the file is larger than {MAX_FILE_BYTES} bytes")
    owner = club_id(club)
    async with db.transaction() as tx:
        seq = await log.append(tx, db.clock, club=owner, kind=FILE, actor=actor, chat=chat)
        await tx.execute(
            "INSERT INTO game_files (seq, club, name, data) VALUES (?, ?, ?, ?)",
            (seq, owner, name, data),
        )
    return GameFile(seq, name, data)


async def kept_file(reader: Reader, club: ClubRef, seq: int) -> GameFile | None:
    """The club's kept file ``seq`` (``None``: no such file in this club)."""
    row = await reader.fetchone(
        "SELECT seq, name, data FROM game_files WHERE seq = ? AND club = ?", (seq, club_id(club))
    )
    return None if row is None else GameFile(row[0], row[1], bytes(row[2]))


async def attach(tx: Transaction, club: int, game: int, file: int) -> None:
    """Name ``file`` as the record of ``game`` (in the transaction that writes the game).

    Raises:
        Refused: the file is not one of the club's kept files.
    """
    if await kept_file(tx, club, file) is None:
        raise Refused(f"there is no kept file {file} in this club")
    await tx.execute("INSERT INTO game_sgf (seq, file) VALUES (?, ?)", (game, file))


async def games_with_files(reader: Reader, club: ClubRef, games: Iterable[int]) -> set[int]:
    """Which of the club's ``games`` (their ids) were recorded from a file and still count
    (not undone, not voided)."""
    wanted = set(games)
    if not wanted:
        return set()
    rows = await reader.fetchall(
        "SELECT game_sgf.seq FROM game_sgf JOIN game_files ON game_files.seq = game_sgf.file "
        "WHERE game_files.club = ?",
        (club_id(club),),
    )
    found = {row[0] for row in rows} & wanted
    if not found:
        return found
    folded = await load_overlay(reader, club_id(club))
    return {game for game in found if game not in folded.undone and game not in folded.voided}


async def file_of_game(reader: Reader, club: ClubRef, game: int) -> GameFile | None:
    """The file game ``game`` (its id) was recorded from, while the game counts; ``None``: none,
    or the game was undone or voided (the file stays in the log, no longer offered)."""
    if not await games_with_files(reader, club, (game,)):
        return None
    row = await reader.fetchone(
        "SELECT game_files.seq, game_files.name, game_files.data FROM game_sgf "
        "JOIN game_files ON game_files.seq = game_sgf.file WHERE game_sgf.seq = ?",
        (game,),
    )
    return None if row is None else GameFile(row[0], row[1], bytes(row[2]))
