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
    row = await reader.fetchone("SELECT system FROM clubs WHERE seq = ?", (club,))
    if row is None:
        raise LookupError(f"no club {club}")
    values = dict(DEFAULTS)
    values[SYSTEM] = row[0]
    for key, payload in await reader.fetchall(
        "SELECT key, payload FROM events WHERE club = ? AND kind = ? ORDER BY seq",
        (club, log.SETTING),
    ):
        values[key] = json.loads(payload)["value"]
    return values


async def current_system(reader: Reader, club: int) -> str:
    """The club's current rating system key."""
    row = await reader.fetchone(
        "SELECT payload FROM events WHERE club = ? AND kind = ? AND key = ? "
        "ORDER BY seq DESC LIMIT 1",
        (club, log.SETTING, SYSTEM),
    )
    if row is not None:
        value: str = json.loads(row[0])["value"]
        return value
    row = await reader.fetchone("SELECT system FROM clubs WHERE seq = ?", (club,))
    if row is None:
        raise LookupError(f"no club {club}")
    system: str = row[0]
    return system


def is_rating_setting(key: str, systems: set[str] | frozenset[str]) -> bool:
    """Whether changing ``key`` changes ratings (a ``<system>.`` key)."""
    prefix, dot, _ = key.partition(".")
    return bool(dot) and prefix in systems
