"""Small helpers the repositories share: ids from records, validation of free text."""

from __future__ import annotations

from storage.errors import Refused
from storage.records import Club, Player

ClubRef = Club | int
PlayerRef = Player | int


def club_id(club: ClubRef) -> int:
    """The id of a club given as a record or an id."""
    return club.id if isinstance(club, Club) else club


def player_id(player: PlayerRef) -> int:
    """The id of a player given as a record or an id."""
    return player.id if isinstance(player, Player) else player


def clean_name(name: str, what: str = "name") -> str:
    """A name with spaces collapsed; refuses an empty one."""
    cleaned = " ".join(name.split())
    if not cleaned:
        raise Refused(f"the {what} is empty; write it like Nagy Péter")
    return cleaned


def clean_identity(identity: str, what: str = "identity") -> str:
    """An account identity such as ``telegram:123``."""
    cleaned = identity.strip()
    if not cleaned or " " in cleaned:
        raise Refused(f"{what} {identity!r} should look like telegram:123 or discord:456")
    return cleaned
