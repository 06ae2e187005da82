"""Club settings: the latest ``setting`` event for each key, over the defaults.

The club's rating system is a setting too (``system``); its starting value is the system the
club was created with. Settings whose key starts with a system key and a dot (``mgsz.…``) are
*rating settings*: changing one rewrites the past, so the club's projections are rebuilt.
"""

from __future__ import annotations

import json
import re

from storage import log
from storage.log import Reader

SYSTEM = "system"
DEFAULTS: dict[str, str] = {"timezone": "UTC"}
"""Defaults of the settings hoshi itself knows; any other ``[a-z0-9_.]`` key may be set."""

KEY_RE = re.compile(r"^[a-z][a-z0-9_.]*$")


async def settings(reader: Reader, club: int) -> dict[str, str]:
    """The club's settings: defaults, the creation system, then every change in log order."""
    rows = await reader.fetchall(
        "SELECT 0, NULL, system FROM clubs WHERE seq = ? "
        "UNION ALL SELECT seq, key, payload FROM events WHERE club = ? AND kind = ? "
        "ORDER BY 1",
        (club, club, log.SETTING),
    )  # one round trip: the creation row (position 0) first
    if not rows or rows[0][0] != 0:
        raise LookupError(f"no club {club}")
    values = dict(DEFAULTS)
    values[SYSTEM] = rows[0][2]
    for _, key, payload in rows[1:]:
        values[key] = json.loads(payload)["value"]
    return values


CURRENT_SYSTEM = (
    "(SELECT payload FROM events WHERE club = ? AND kind = 'setting' AND key = 'system' "
    "ORDER BY seq DESC LIMIT 1), (SELECT system FROM clubs WHERE seq = ?)"
)
"""Two columns for :func:`system_from` (parameters: the club twice), to put in a bigger query."""


def system_from(setting: str | None, created: str | None, club: int) -> str:
    """The current system from :data:`CURRENT_SYSTEM`'s columns: the last ``system`` setting,
    else the system the club was created with."""
    if setting is not None:
        value: str = json.loads(setting)["value"]
        return value
    if created is None:
        raise LookupError(f"no club {club}")
    return created


async def current_system(reader: Reader, club: int) -> str:
    """The club's current rating system key."""
    row = await reader.fetchone(f"SELECT {CURRENT_SYSTEM}", (club, club))
    assert row is not None
    return system_from(row[0], row[1], club)


def is_rating_setting(key: str, systems: set[str] | frozenset[str]) -> bool:
    """Whether changing ``key`` changes ratings (a ``<system>.`` key)."""
    prefix, dot, _ = key.partition(".")
    return bool(dot) and prefix in systems
