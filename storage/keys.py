"""The keys of a club's memos that every command reads at once (issue 23: a ``/result`` in at
most 12 statements).

A memo's key (storage.memo) is a small query: the latest ``seq`` of the tables its answer is
made of. The keys here are read once as a command begins, with the club itself
(storage.clubs.club_for_chat, :data:`CLUB_COLUMNS`), and the command's later reads of those
memos compare with what was read then (storage.cache.Known) instead of asking again. Each key
is written once, as columns over ``clubs.seq``: :data:`CLUB_COLUMNS` reads them for the chat's
club, and each key's own query (``*_KEY``) for a club given as its parameter.

None of them changes when a game is appended (a ``log`` row and a ``games`` row): a write
transaction that appended only games keeps them.
"""

from __future__ import annotations

from storage import log

CLUB = "FROM (SELECT CAST(? AS BIGINT) AS seq) AS clubs"
"""The ``clubs.seq`` of a key's own query: its one parameter, the club."""

PLAYERS_COLUMNS = (
    "(SELECT MAX(seq) FROM players WHERE club = clubs.seq), "
    "(SELECT MAX(seq) FROM player_aliases WHERE club = clubs.seq), "
    f"(SELECT MAX(seq) FROM events WHERE club = clubs.seq AND kind = '{log.UNDO}')"
)  # changes with every registration, alias and undo (players are never renamed)
PLAYERS_KEY = f"SELECT {PLAYERS_COLUMNS} {CLUB}"
"""The key of the club's players and their names (storage.players)."""

OVERLAY_COLUMNS = ", ".join(
    f"(SELECT MAX(seq) FROM events WHERE club = clubs.seq AND kind = '{kind}')"
    for kind in log.OVERLAY_EVENTS
)  # one index seek per kind: changes whenever an overlay event is appended
OVERLAY_KEY = f"SELECT {OVERLAY_COLUMNS} {CLUB}"
"""The key of the club's overlay (storage.overlay)."""

SETTINGS_COLUMNS = ", ".join(
    f"(SELECT MAX(seq) FROM events WHERE club = clubs.seq AND kind = '{kind}')"
    for kind in (log.SETTING, log.RATING_SETTING, log.UNDO)
)  # the club's row never changes; its settings are events, a rating setting may be undone
SETTINGS_KEY = f"SELECT {SETTINGS_COLUMNS} {CLUB}"
"""The key of the club's typed settings (storage.settings.club_settings)."""

PAIRINGS_COLUMNS = ", ".join(
    f"(SELECT MAX(seq) FROM events WHERE club = clubs.seq AND kind = '{kind}')"
    for kind in (log.PAIRING, log.ROUND)
)  # changes when a tournament is run from the chat or one of its rounds is published
PAIRINGS_KEY = f"SELECT {PAIRINGS_COLUMNS} {CLUB}"
"""The key of the club's published boards (storage.pairings.published_boards)."""

KEYS = (
    (PLAYERS_KEY, 3),
    (OVERLAY_KEY, len(log.OVERLAY_EVENTS)),
    (SETTINGS_KEY, 3),
    (PAIRINGS_KEY, 2),
)
"""Each key read as a command begins, with how many columns it has."""

CLUB_COLUMNS = ", ".join(
    (
        "(SELECT MAX(seq) FROM log WHERE club = clubs.seq)",
        "(SELECT at FROM log WHERE seq = clubs.seq)",
        PLAYERS_COLUMNS,
        OVERLAY_COLUMNS,
        SETTINGS_COLUMNS,
        PAIRINGS_COLUMNS,
    )
)
"""The club's last log position, when it was created, and the :data:`KEYS` in their order,
as columns over ``clubs.seq``."""


def split(row: tuple[object, ...]) -> dict[str, tuple[object, ...]]:
    """The :data:`KEYS`' answers in ``row`` (the :data:`CLUB_COLUMNS` after the first two),
    by key."""
    found: dict[str, tuple[object, ...]] = {}
    at = 0
    for key, width in KEYS:
        found[key] = tuple(row[at : at + width])
        at += width
    return found
