"""Small helpers the repositories share: ids from records, validation of free text."""

from __future__ import annotations

from engine.formats.names import visible_name
from engine.text import Msg
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


_EMPTY = {
    "name": Msg("the name is empty; write it like Nagy Péter"),
    "alias": Msg("the alias is empty; write it like Nagy Péter"),
    "club name": Msg("the club name is empty; write it like Budapest Go Club"),
    "tournament name": Msg("the tournament name is empty; write it like Budapest Open 2026"),
}
"""What an empty name of each kind gets (:func:`clean_name`), one whole sentence each."""


NAME_MAX = 80
"""The longest name of any kind, in characters: twice the longest names of the European Go
Database and tournament titles, room for a namesake's "(Szeged)"; longer is a paste gone
wrong, and would break every list and table it stands in."""


def _too_long(what: str, length: int) -> Msg:
    """What a name past :data:`NAME_MAX` gets (:func:`clean_name`), by kind."""
    if what == "alias":
        return Msg(
            "that name is {length} characters long; an alias has at most {limit}, e.g. Peti",
            length=length,
            limit=NAME_MAX,
        )
    if what == "club name":
        return Msg(
            "that name is {length} characters long; a club's name has at most {limit}, e.g. "
            "Budapest Go Club",
            length=length,
            limit=NAME_MAX,
        )
    if what == "tournament name":
        return Msg(
            "that name is {length} characters long; a tournament's name has at most {limit}, "
            "e.g. Budapest Open 2026",
            length=length,
            limit=NAME_MAX,
        )
    return Msg(
        "that name is {length} characters long; a player's name has at most {limit}, e.g. "
        "Nagy Péter",
        length=length,
        limit=NAME_MAX,
    )


def clean_name(name: str, what: str = "name") -> str:
    """A name with spaces collapsed and the characters that draw nothing (controls, NUL,
    bidirectional and other invisible characters) taken out, composed (NFC:
    engine.formats.names.visible_name); refuses an empty one, or one longer than
    :data:`NAME_MAX` (``what``: a key of ``_EMPTY``)."""
    cleaned = visible_name(name)
    if not cleaned:
        raise Refused(_EMPTY.get(what, _EMPTY["name"]))
    if len(cleaned) > NAME_MAX:
        raise Refused(_too_long(what, len(cleaned)))
    return cleaned


def clean_identity(identity: str, what: str = "identity") -> str:
    """An account identity such as ``telegram:123``."""
    cleaned = identity.strip()
    if not cleaned or " " in cleaned:
        # TRANSLATORS: {what} is "identity" or "platform", a word of the command kept in English
        raise Refused(
            Msg(
                "{what} {identity!r} should look like telegram:123 or discord:456",
                what=what,
                identity=identity,
            )
        )
    return cleaned
