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

TIME_ZONE_EXAMPLE = "e.g. /club timezone Europe/Budapest (the tz database's Area/City names)"
# a tz database name: ASCII letters, digits, and _ - + in parts joined by "/" (e.g.
# America/Argentina/Buenos_Aires, Etc/GMT+5); anything else is refused before it is looked up
_TIME_ZONE_RE = re.compile(r"[A-Za-z0-9_+-]{1,40}(?:/[A-Za-z0-9_+-]{1,40}){0,3}")
# files of the tz database that are not places a club can be in
_NOT_PLACES = frozenset({"Factory", "localtime", "posixrules"})


def time_zone(text: str) -> str:
    """``text`` as a time zone a club can use (``/club timezone``): a name in the tz database.

    Any string is answered: a shape check comes first, and only a name listed by
    :func:`zoneinfo.available_timezones` is then opened (so a folder, a data file, a path or
    a name too long for the file system never reaches the zone loader, whose errors differ
    between the system's files and the tzdata package).

    Raises:
        ValueError: a message naming the value (cut short) and an example.
    """
    import zoneinfo

    value = text.strip()
    if not value:
        raise ValueError(f"give a time zone, {TIME_ZONE_EXAMPLE}")
    shown = repr(value if len(value) <= 20 else value[:20] + "…")
    known = zoneinfo.available_timezones() - _NOT_PLACES
    if _TIME_ZONE_RE.fullmatch(value) is None or value not in known:
        folded = {name.lower(): name for name in known}
        guess = folded.get(value.lower()) if len(value) <= 100 else None
        hint = f"; did you mean {guess}?" if guess else ""
        raise ValueError(f"{shown} is not a time zone{hint} — {TIME_ZONE_EXAMPLE}")
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        raise ValueError(f"{shown} cannot be read as a time zone — {TIME_ZONE_EXAMPLE}") from None
    return value


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
