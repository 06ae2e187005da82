"""Which language an adapter speaks in its own words, and the words both chat adapters say
(issue 13).

The core answers every command in the club's language, and a private chat in the person's own
language where the platform says it. The adapters also speak by themselves — "I've sent you
the answer in a private message", "Something went wrong (ref …)", a button that no longer
works — and give a reply shown only to its caller again in that person's language
(:meth:`~bot.core.replies.Reply.in_language`). These helpers say which language that is; a
chat's own is :func:`bot.core.facade.chat_language`.
"""

from __future__ import annotations

from bot.core.replies import Reply
from bot.i18n import _, number_text

__all__ = ["for_person", "too_big"]


def for_person(reply: Reply, person: str | None) -> Reply:
    """``reply`` as shown only to one person: in their own language when the platform says
    it (names, numbers and other plain text stay as they are)."""
    return reply if person is None else reply.in_language(person)


def too_big(name: str | None, size: int, limit: int) -> str:
    """Why an attached file is refused, in the current language."""
    if name is None:
        return _(
            "that file is {size} bytes; a results table must be under {limit}",
            size=number_text(size),
            limit=number_text(limit),
        )
    return _(
        "{file} is {size} bytes; a results table must be under {limit}",
        file=name,
        size=number_text(size),
        limit=number_text(limit),
    )
