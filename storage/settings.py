"""Club settings: the latest ``setting`` event for each key, over the defaults; typed as
:class:`ClubSettings`, built once from the log.

The club's rating system is a setting too (``system``); its starting value is the system the
club was created with. The club-wide settings are declared here (:data:`CLUB_SETTINGS`, each an
``engine.settings.Setting`` with its range and example); each rating system declares its own
(``engine.systems.SYSTEM_SETTINGS``, keys like ``tensuusei.anchor``). A change of a club-wide
setting is a ``setting`` event; a change of a rating setting is a ``rating_setting`` event with
its effective date, which the history yields as an ``engine.types.SettingsChanged`` fact at the
start of that day (storage.history): the projections are rewritten from that day, and ``/undo``
takes it back.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any
from zoneinfo import ZoneInfo

from engine import settings as kinds
from engine.errors import EngineError
from engine.formats.messages import message_of
from engine.handicap import EVEN_KOMI
from engine.settings import USUAL_TIME, Setting, SettingValue
from engine.systems import SYSTEM_SETTINGS, home_language
from engine.text import Msg, Typed
from engine.timecontrol import TimeControl
from storage import keys, log
from storage.log import Reader
from storage.memo import remembered

SYSTEM = "system"

KEY_RE = re.compile(r"^[a-z][a-z0-9_.]*$")

TIME_ZONE_EXAMPLE = Msg("e.g. /club timezone Europe/Budapest (the tz database's Area/City names)")
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
        raise ValueError(Msg("give a time zone, {example}", example=TIME_ZONE_EXAMPLE))
    shown = Typed(value if len(value) <= 20 else value[:20] + "…")
    known = zoneinfo.available_timezones() - _NOT_PLACES
    if _TIME_ZONE_RE.fullmatch(value) is None or value not in known:
        folded = {name.lower(): name for name in known}
        guess = folded.get(value.lower()) if len(value) <= 100 else None
        if guess:
            raise ValueError(
                Msg(
                    "{zone} is not a time zone; did you mean {guess}? — {example}",
                    zone=shown,
                    guess=guess,
                    example=TIME_ZONE_EXAMPLE,
                )
            )
        raise ValueError(
            Msg("{zone} is not a time zone — {example}", zone=shown, example=TIME_ZONE_EXAMPLE)
        )
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        raise ValueError(
            Msg(
                "{zone} cannot be read as a time zone — {example}",
                zone=shown,
                example=TIME_ZONE_EXAMPLE,
            )
        ) from None
    return value


async def settings(reader: Reader, club: int) -> dict[str, str]:
    """The club's stored settings as text: the creation system, then every change in log order
    (the defaults are the declarations'; :func:`club_settings` types them)."""
    rows = await reader.fetchall(
        "SELECT 0, NULL, system FROM clubs WHERE seq = ? "
        "UNION ALL SELECT seq, key, payload FROM events WHERE club = ? AND kind = ? "
        "ORDER BY 1",
        (club, club, log.SETTING),
    )  # one round trip: the creation row (position 0) first
    if not rows or rows[0][0] != 0:
        raise LookupError(f"no club {club}")
    values = {SYSTEM: rows[0][2]}
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


# ------------------------------------------------------------------ typed settings (issue 12)

LANGUAGES = ("en", "hu", "ja", "sv", "pl")
"""The languages a club may choose for the bot's replies."""


@dataclasses.dataclass(frozen=True, slots=True)
class SystemLanguage:
    """The ``language`` setting of a club that has not set one: the language of its rating
    system's rulebook country (engine.systems.home_language), which moves along when the club
    changes systems.

    It is the setting's default whatever language it currently means, so every
    ``SystemLanguage`` is equal to every other (``language`` takes no part in comparing);
    ``language`` is the one it means for the club (empty: not known yet).
    """

    language: str = dataclasses.field(default="", compare=False)


WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def parse_weekly(value: str) -> tuple[int, dt.time] | None:
    """``mon 18:00`` → (0, 18:00); ``off`` → None.

    Raises:
        ValueError: naming the bad part, with an example.
    """
    if value.strip().lower() in ("", "off"):
        return None
    parts = value.lower().split()
    if len(parts) != 2 or parts[0][:3] not in WEEKDAYS:
        raise ValueError(Msg("write a day and a time, e.g. mon 18:00, not {value!r}", value=value))
    try:
        at = dt.time.fromisoformat(parts[1] if len(parts[1]) > 2 else f"{parts[1]}:00")
    except ValueError:
        raise ValueError(Msg("{time!r} is not a time; write e.g. 18:00", time=parts[1])) from None
    return WEEKDAYS.index(parts[0][:3]), at


def _club(
    key: str,
    summary: str,
    default: SettingValue,
    read: Any,
    show: Any,
    example: str,
    allowed: str,
) -> Setting:
    return Setting(key, summary, default, read, show, example, rates=False, allowed=allowed)


def _read_zone(text: str) -> SettingValue:
    try:
        return time_zone(text)
    except ValueError as error:
        raise EngineError(message_of(error)) from None


def _read_language(text: str) -> SettingValue:
    value = text.strip().lower()
    if value not in LANGUAGES:
        raise kinds.refuse("language", LANGUAGE_VALUES, text, "hu")
    return value


def _show_language(value: SettingValue) -> str:
    if isinstance(value, SystemLanguage):
        if value.language:
            return Msg("the system's language ({language})", language=value.language)
        return Msg("the system's language")
    return str(value)


def _read_country(text: str) -> SettingValue:
    value = text.strip()
    if value.lower() in ("none", "-"):
        return None
    if not re.fullmatch(r"[A-Za-z]{2}", value):
        raise kinds.refuse("country", COUNTRY_VALUES, text, "HU")
    return value.upper()


def _read_time(text: str) -> SettingValue:
    return kinds.time_control("time", text, "90m+30s")


def _read_weekly(text: str) -> SettingValue:
    try:
        return parse_weekly(text)
    except ValueError as error:
        raise EngineError(Msg("weekly: {error} (or off)", error=message_of(error))) from None


def _show_weekly(value: SettingValue) -> str:
    if value is None:
        return "off"
    assert isinstance(value, tuple)
    day, at = value
    return f"{WEEKDAYS[day]} {at.strftime('%H:%M')}"


DEFAULT_REPORT_HOURS = 48
DEFAULT_GRACE_HOURS = 48
REPORT_HOURS = Msg("a whole number of hours from 1 to {high}", high=24 * 30)
GRACE_HOURS = Msg("a whole number of hours from 1 to {high}", high=24 * 60)
LANGUAGE_VALUES = Msg("one of {languages}", languages=", ".join(LANGUAGES))
COUNTRY_VALUES = Msg("a two-letter code like HU, or none")

CLUB_SETTINGS: tuple[Setting, ...] = (
    _club(
        "timezone",
        Msg("the club's time zone: its days, scheduled summaries and deadlines"),
        "UTC",
        _read_zone,
        str,
        "Europe/Budapest",
        Msg("a tz database name like Europe/Budapest"),
    ),
    _club(
        "komi",
        Msg("an even game's komi when a result gives none"),
        EVEN_KOMI,
        lambda text: kinds.read_komi("komi", text, "6.5"),
        kinds.komi_text,
        "6.5",
        Msg("a whole or half point from -50 to 50"),
    ),
    _club(
        "language",
        Msg("the language of the bot's replies"),
        SystemLanguage(),
        _read_language,
        _show_language,
        "hu",
        LANGUAGE_VALUES,
    ),
    _club(
        "country",
        Msg("the club's country: imported players from elsewhere are guests"),
        None,
        _read_country,
        lambda value: "none" if value is None else str(value),
        "HU",
        COUNTRY_VALUES,
    ),
    Setting(  # a rating fact from its date: MGSZ rates a period's club games with it
        USUAL_TIME,
        Msg("the club's usual time control (MGSZ rates a month's club games with it)"),
        TimeControl.parse("60m"),
        _read_time,
        str,
        "90m+30s",
        allowed=Msg("a time control like 60m, 90m+30s or 45m 5x30s"),
    ),
    _club(
        "reports",
        Msg("players may report their own games (/result), pending until confirmed"),
        False,
        lambda text: kinds.read_switch("reports", text),
        kinds.show_switch,
        "on",
        Msg("on or off"),
    ),
    _club(
        "web",
        Msg("the club's ranking, players and tournaments on hoshi's read-only web pages"),
        False,
        lambda text: kinds.read_switch("web", text),
        kinds.show_switch,
        "on",
        Msg("on or off"),
    ),
    _club(
        "report_hours",
        Msg("hours a player's report waits for confirmation"),
        DEFAULT_REPORT_HOURS,
        lambda text: kinds.read_whole("report_hours", text, 1, 24 * 30, "48", REPORT_HOURS),
        str,
        "48",
        REPORT_HOURS,
    ),
    _club(
        "grace_hours",
        Msg(
            "hours after its moment a missed weekly summary reads as on time (later: marked late)"
        ),
        DEFAULT_GRACE_HOURS,
        lambda text: kinds.read_whole("grace_hours", text, 1, 24 * 60, "24", GRACE_HOURS),
        str,
        "24",
        GRACE_HOURS,
    ),
    _club(
        "weekly",
        Msg("the weekly summary's day and time (club time)"),
        None,
        _read_weekly,
        _show_weekly,
        "mon 18:00",
        Msg("a weekday and a time like mon 18:00, or off"),
    ),
)
"""The club-wide settings: not facts of the calendar (a change rewrites no rating)."""


def declared() -> dict[str, Setting]:
    """Every setting a club may change, by key: the club-wide ones, then each system's."""
    found = {setting.key: setting for setting in CLUB_SETTINGS}
    for system_settings in SYSTEM_SETTINGS.values():
        found.update((setting.key, setting) for setting in system_settings)
    return found


def setting_named(key: str) -> Setting | None:
    """The declared setting ``key`` (``None``: no such setting)."""
    return declared().get(key.strip().lower())


def read_value(setting: Setting, text: str) -> SettingValue:
    """A stored text as the setting's typed value (the default if it no longer reads: a value
    stored before the setting's range changed)."""
    try:
        return setting.read(text)
    except EngineError:
        return setting.default


@dataclasses.dataclass(frozen=True, slots=True)
class ClubSettings:
    """A club's settings, typed: every declared setting's current value (the club-wide ones
    and every system's), built once from the log (:func:`club_settings`).

    ``stored`` holds the text of the settings hoshi does not declare (kept as written).
    ``since`` holds, for each rating setting the club changed, the date the change holds from.
    """

    system: str
    values: Mapping[str, SettingValue]
    stored: Mapping[str, str] = dataclasses.field(default_factory=dict)
    since: Mapping[str, dt.date] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        values = dict(self.values)
        if isinstance(values.get("language"), SystemLanguage):  # not set: the system's
            values["language"] = SystemLanguage(home_language(self.system))
        object.__setattr__(self, "values", values)
        for name in ("values", "stored", "since"):  # frozen all the way down
            object.__setattr__(self, name, MappingProxyType(dict(getattr(self, name))))

    @classmethod
    def defaults(cls, system: str = "") -> ClubSettings:
        """Every setting at its default (a chat without a club)."""
        return cls(system, {key: setting.default for key, setting in declared().items()})

    def value(self, key: str) -> SettingValue:
        """The typed value of the declared setting ``key``."""
        return self.values[key]

    def text(self, key: str) -> str:
        """The value of ``key`` as a club member would type it."""
        setting = setting_named(key)
        if setting is None:
            return self.stored.get(key, "")
        return setting.show(self.values[key])

    def get(self, key: str, default: str | None = None) -> str | None:
        """The text of ``key`` (``default`` when it is neither declared nor stored)."""
        if key == SYSTEM:
            return self.system
        if key in self.values:
            return self.text(key)
        return self.stored.get(key, default)

    def system_values(self, key: str) -> tuple[tuple[str, SettingValue], ...]:
        """The system ``key``'s settings and their current values."""
        return tuple(
            (setting.key, self.values[setting.key]) for setting in SYSTEM_SETTINGS.get(key, ())
        )

    @property
    def time_zone(self) -> str:
        """The tz database name of the club's time zone."""
        return str(self.values["timezone"])

    @property
    def zone(self) -> ZoneInfo:
        """The club's time zone."""
        return ZoneInfo(self.time_zone)

    @property
    def komi(self) -> Fraction:
        """An even game's komi when a result gives none."""
        value = self.values["komi"]
        assert isinstance(value, Fraction)
        return value

    @property
    def language(self) -> str:
        """The language of the bot's replies (en, hu, ja, sv, pl): the club's choice, else its
        rating system's (engine.systems.home_language; ``en`` without a club)."""
        value = self.values["language"]
        if isinstance(value, SystemLanguage):
            return value.language or home_language(self.system)
        return str(value)

    @property
    def country(self) -> str | None:
        """The club's country (a two-letter code), if set."""
        value = self.values["country"]
        return None if value is None else str(value)

    @property
    def time(self) -> TimeControl:
        """The club's usual time control."""
        value = self.values["time"]
        assert isinstance(value, TimeControl)
        return value

    @property
    def reports(self) -> bool:
        """Whether players may report their own games."""
        return bool(self.values["reports"])

    @property
    def web(self) -> bool:
        """Whether the club's pages are on the web (``/club web on``, issue 14); off, the web
        server answers 404 for the club, never its data."""
        return bool(self.values["web"])

    @property
    def report_hours(self) -> int:
        """Hours a player's report waits for confirmation."""
        value = self.values["report_hours"]
        assert isinstance(value, int)
        return value

    @property
    def grace_hours(self) -> int:
        """Hours after its moment a missed weekly summary is posted as on time; a later one
        is posted all the same, marked late (issue 22)."""
        value = self.values["grace_hours"]
        assert isinstance(value, int)
        return value

    @property
    def weekly(self) -> tuple[int, dt.time] | None:
        """The weekly summary's weekday (0 = Monday) and time, or ``None`` (off)."""
        value = self.values["weekly"]
        assert value is None or isinstance(value, tuple)
        return value


RATING_ROWS = (
    "SELECT seq, key, payload FROM events WHERE club = ? AND kind = ? "
    "AND seq NOT IN (SELECT target FROM events WHERE club = ? AND kind = ? "
    "AND target IS NOT NULL)"
)
"""The club's rating setting changes that were not undone (parameters: club, kind, club,
``log.UNDO``)."""


async def rating_changes(reader: Reader, club: int) -> list[tuple[int, str, str, dt.date]]:
    """The club's rating setting changes not undone, as ``(seq, key, text, date)`` in the order
    they hold: by date, then by entry."""
    rows = await reader.fetchall(RATING_ROWS, (club, log.RATING_SETTING, club, log.UNDO))
    changes = []
    for seq, key, payload in rows:
        data = json.loads(payload)
        changes.append((seq, key, data["value"], dt.date.fromisoformat(data["date"])))
    changes.sort(key=lambda change: (change[3], change[0]))
    return changes


async def club_settings(reader: Reader, club: int) -> ClubSettings:
    """The club's typed settings, built once from the log (a memo: read again only when a
    setting, a rating setting or an undo was appended)."""
    return await remembered(
        reader,
        ("settings", club),
        keys.SETTINGS_KEY,
        (club,),
        lambda: _club_settings(reader, club),
    )


async def web_on(reader: Reader, club: int) -> bool:
    """Whether club ``club`` exists and shows its pages on the web (``/club web on``), in one
    statement whatever the answer: an unknown club and one that keeps its pages off cost the
    same (issue 26: told apart by timing, club ids being small integers)."""
    row = await reader.fetchone(
        "SELECT (SELECT 1 FROM clubs WHERE seq = ?), (SELECT payload FROM events WHERE club = ? "
        "AND kind = ? AND key = ? ORDER BY seq DESC LIMIT 1)",
        (club, club, log.SETTING, "web"),
    )
    if row is None or row[0] is None:
        return False
    setting = declared()["web"]
    text = None if row[1] is None else json.loads(row[1])["value"]
    return bool(setting.default if text is None else read_value(setting, text))


async def _club_settings(reader: Reader, club: int) -> ClubSettings:
    stored = await settings(reader, club)
    values: dict[str, SettingValue] = {}
    for key, setting in declared().items():
        text = stored.get(key)
        values[key] = setting.default if text is None else read_value(setting, text)
    since: dict[str, dt.date] = {}
    for _, key, text, date in await rating_changes(reader, club):
        changed = setting_named(key)
        if changed is not None:
            values[key] = read_value(changed, text)
            since[key] = date
    rest = {key: text for key, text in stored.items() if key not in values and key != SYSTEM}
    return ClubSettings(stored[SYSTEM], values, rest, since)


def value_from(setting: Setting, text: str) -> SettingValue:
    """A club member's text as the setting's value.

    Raises:
        EngineError: the range or allowed values and an example.
    """
    return setting.read(text)
