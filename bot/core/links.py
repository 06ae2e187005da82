"""The links port: where a club's web pages are, for a reply (issue 14; issue 24, build item 2).

The core says "On the web: …" under ``/top`` and ``/rating`` and answers ``/club web on`` with
the ranking list's address, but it does not know how the web server lays out its pages: it is
given a :class:`Links` when it is made (:class:`~bot.core.app.Core`), and ``bot/web``
implements it (:class:`bot.web.urls.WebLinks`). So ``bot/core`` imports nothing from
``bot/web`` (tests/bot/test_imports.py), and a core without a web — the console with no
``[web] base_url``, a test — is given :data:`NO_LINKS`.

Whether a club's pages are on (``/club web on``) is a club setting the core reads itself
(``ClubSettings.web``); the port only says where the pages would be.
"""

from __future__ import annotations

from typing import Protocol

from storage.records import Club

__all__ = ["NO_LINKS", "Links", "NoLinks"]


class Links(Protocol):
    """The address members open for a club's page, in a language (``hu``, ``ja`` …); ``None``
    where this hoshi has no web address configured (``[web] base_url``)."""

    def ranking(self, club: Club, lang: str) -> str | None:
        """The club's ranking list (its active players)."""
        ...

    def player(self, club: Club, lang: str, pid: int) -> str | None:
        """One player's page: card, history and chart."""
        ...

    def tournament(self, club: Club, lang: str, number: int) -> str | None:
        """One tournament's page, by its number in the club."""
        ...


class NoLinks:
    """No web pages anywhere: every address is ``None``."""

    def ranking(self, club: Club, lang: str) -> str | None:
        return None

    def player(self, club: Club, lang: str, pid: int) -> str | None:
        return None

    def tournament(self, club: Club, lang: str, number: int) -> str | None:
        return None


NO_LINKS: Links = NoLinks()
"""The links of a core without a web (the default of :class:`~bot.core.app.Core`)."""
