"""The adapters' way to the data behind the core (issue 24, build item 2).

STYLE.md, Lessons round 2: "adapters reach the core through a small facade, never storage".
What the chat adapters (``bot/adapters/``) need besides :meth:`Core.handle` is here, and only
that: which club a chat is bound to and the language it speaks, the club's names for Discord's
autocomplete, whether a redelivered update was handled before, and the console's club. The
decisions in them (a typo in ``--club`` must not make a second club; names starting with
what was typed come first) are the core's, made once, here. Adapters import this module and
never ``storage`` (tests/bot/test_imports.py).

The few storage names an adapter handles as values — the :class:`Database` it is given and
closes, a :class:`Club`, a :class:`StorageError` to show — are re-exported, not the
repositories. What the web pages read is the core's read port beside it,
:mod:`bot.core.reads`.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable

import storage
from bot.i18n import Msg, quoted
from bot.i18n.catalogues import SOURCE
from engine.formats import fold_name
from storage.db import Database, is_url, open_db, without_password
from storage.deliveries import seen
from storage.errors import Refused, StorageError
from storage.records import Club

__all__ = [
    "Club",
    "Database",
    "Refused",
    "StorageError",
    "bound_club",
    "chat_club",
    "chat_language",
    "handled_before",
    "is_url",
    "open_db",
    "player_names",
    "without_password",
]


async def chat_club(db: Database, platform: str, chat_id: str | int) -> Club | None:
    """The club a chat is bound to, if any."""
    return await storage.club_for_chat(db, platform, chat_id)


async def chat_language(
    db: Database, platform: str, chat_id: str | int, person: str | None = None
) -> str:
    """The language of a chat: its club's; in a chat bound to no club, the person's own when
    known, else English."""
    club = await storage.club_for_chat(db, platform, chat_id)
    if club is None:
        return person or SOURCE
    return (await storage.club_settings(db, club)).language


async def player_names(
    db: Database, platform: str, chat_id: str | int, typed: str, limit: int
) -> list[str]:
    """Up to ``limit`` names of the chat's club's players that contain ``typed`` (accents and
    case ignored), those starting with it first, then alphabetically (folded); none in a chat
    bound to no club."""
    club = await storage.club_for_chat(db, platform, chat_id)
    if club is None:
        return []
    key = fold_name(typed)
    found = []
    for player in await storage.players(db, club):
        folded = fold_name(player.name)
        if key in folded:
            found.append((not folded.startswith(key), folded, player.name))
    found.sort()
    return [name for *_, name in found[:limit]]


async def handled_before(db: Database, delivery: str) -> bool:
    """Whether the update with key ``delivery`` was already acted on (its change committed:
    storage.deliveries), so that a redelivered update is dropped."""
    return await seen(db, delivery)


async def bound_club(
    db: Database,
    name: str | None,
    system: str,
    default: str,
    timezone: str = "UTC",
    *,
    new: bool = False,
    platform: str,
    chat_of: Callable[[Club], str],
    actor: str,
    new_club: Callable[[str], str] = lambda name: f"hoshi console --new-club {shlex.quote(name)}",
) -> Club:
    """The club a one-club front end opens — named, or the only one — bound to its chat
    (``chat_of(club)`` on ``platform``; bot.md, Arguments). A database with no club gets one on
    first use (named ``name``, else ``default``, in ``timezone``); a name that is none of the
    clubs of a database that has some is refused (a typo must not make a second club) unless
    ``new`` asks for that club to be made; the refusal suggests ``new_club(name)``, the
    command that makes it (with the options the user gave).

    Raises:
        Refused: an unknown ``name`` where there are clubs, a ``new`` club whose name is
            taken, or several clubs and no name.
    """
    if name:
        found = await storage.get_club(db, name)
        if found is not None and new:
            raise Refused(
                Msg(
                    "there is a club {name} in this database already; open it with {option}",
                    name=quoted(found.name),
                    option=f"--club {shlex.quote(found.name)}",
                )
            )
        if found is None and not new:
            await _refuse_unknown(db, name, new_club(name))
        club = found or await storage.create_club(db, name, system, actor=actor)
    else:
        club = await storage.only_club_or_create(db, default, system, actor=actor)
    if (
        await storage.bind_chat(db, club, platform, chat_of(club), actor=actor)
        and timezone != "UTC"
    ):  # a new club: give it the configured time zone
        await storage.set_setting(db, club, "timezone", timezone, actor=actor)
    return club


async def _refuse_unknown(db: Database, name: str, new_club: str) -> None:
    """Refuse ``--club NAME`` that names none of the clubs there are, listing them and how to
    make a new club (nothing to refuse in a database with no club yet: the first is made)."""
    clubs = await storage.clubs(db)
    if clubs:
        raise Refused(
            Msg(
                "there is no club {name} in this database; its clubs: {names}. Open one with "
                "{example}, or make a new club with {new}",
                name=quoted(name),
                names=", ".join(club.name for club in clubs),
                example=f"--club {shlex.quote(clubs[0].name)}",
                new=new_club,
            )
        )
