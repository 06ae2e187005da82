"""Typed club settings: each one's meaning, range and example (/club set, /club settings).

A rating system declares its own settings next to its rules (``SETTINGS`` in its package, keys
prefixed with the system's key: ``tensuusei.anchor``); the club-wide ones are declared by
storage (storage.settings). A setting reads a club member's text into a typed value or says
what was wrong, with the range and an example. Each default is read from the system's params
dataclass (:func:`default_of`), so it is written once.

A change of a rating setting is a fact of the calendar (``engine.types.SettingsChanged``): a
ledger takes the values with its own prefix and replaces its params from that date on
(:func:`params_with`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any, TypeVar

from engine.errors import EngineError, RankError
from engine.ranks import Rank
from engine.text import Msg, Typed
from engine.timecontrol import TimeControl

USUAL_TIME = "time"
"""The club-wide setting every system may read from its facts: the club's usual time control
(storage.settings declares it). A change is a rating fact (``SettingsChanged``) because an MGSZ
club period is rated with it (rules.md §1.4, club games): the period's end and its preview
("if the period ended now") read the same value from the ledger."""

SettingValue = object
"""A setting's typed value: ``int``, ``bool``, ``Fraction``, ``Rank``, ``TimeControl``, ``str``
or ``None`` (where the setting allows "none")."""


@dataclasses.dataclass(frozen=True, slots=True)
class Setting:
    """One setting a club may change.

    ``key`` is what ``/club set`` takes (``tensuusei.anchor``); ``field`` the name of the
    parameter it sets in the system's params dataclass (``anchor_1d``; empty for a club-wide
    setting); ``read`` turns a club member's text into the typed value or raises
    ``EngineError`` naming the range and ``example``; ``show`` writes a value back as text a
    club member could type; ``allowed`` says the range or the allowed values in words;
    ``rule`` cites where the rulebook sets the default.
    """

    key: str
    summary: str
    default: SettingValue
    read: Callable[[str], SettingValue]
    show: Callable[[SettingValue], str]
    example: str
    field: str = ""
    rule: str = ""
    rates: bool = True
    """Whether a change rewrites ratings from its date (a ``SettingsChanged`` fact)."""
    allowed: str = ""

    @property
    def prefix(self) -> str:
        """The system key of a rating setting (``tensuusei``); empty for a club-wide one."""
        prefix, dot, _ = self.key.partition(".")
        return prefix if dot else ""


P = TypeVar("P")


def default_of(params: type[Any], field: str) -> SettingValue:
    """The default of ``field`` in a params dataclass (defaults are written there once)."""
    for each in dataclasses.fields(params):
        if each.name == field:
            if each.default is not dataclasses.MISSING:
                return each.default
            if each.default_factory is not dataclasses.MISSING:
                return each.default_factory()
            break
    raise KeyError(f"{params.__name__} has no field {field!r} with a default")


def refuse(key: str, allowed: str, text: str, example: str) -> EngineError:
    """What a bad value of ``key`` gets: what it takes, the value (cut short), an example."""
    shown = text.strip()
    shown = shown if len(shown) <= 30 else shown[:30] + "…"
    return EngineError(
        Msg(
            "{key} takes {allowed}, not {value} (e.g. {key} {example})",
            key=key,
            allowed=allowed,
            value=Typed(shown),
            example=example,
        )
    )


ON_OR_OFF = Msg("on or off")
HALF_POINTS = Msg("a whole or half point from -50 to 50")

NONE_WORDS = frozenset({"none", "off", "no limit", "-"})
TRUE_WORDS = frozenset({"on", "yes", "true", "1"})
FALSE_WORDS = frozenset({"off", "no", "false", "0"})


def read_whole(
    key: str, text: str, low: int, high: int, example: str, allowed: str, *, none: bool = False
) -> int | None:
    """A whole number from ``low`` to ``high`` (``None`` for "none" where ``none`` allows it).

    Raises:
        EngineError: saying what ``key`` takes (``allowed``) and an example.
    """
    value = text.strip().lower()
    if none and value in NONE_WORDS:
        return None
    try:
        number = int(value)
    except ValueError:
        raise refuse(key, allowed, text, example) from None
    if not low <= number <= high:
        raise refuse(key, allowed, text, example)
    return number


def read_switch(key: str, text: str, example: str = "on") -> bool:
    """On or off (yes/no, true/false, 1/0).

    Raises:
        EngineError: saying ``key`` takes on or off, with an example.
    """
    value = text.strip().lower()
    if value in TRUE_WORDS:
        return True
    if value in FALSE_WORDS:
        return False
    raise refuse(key, ON_OR_OFF, text, example)


def show_switch(value: SettingValue) -> str:
    """An on/off value as a club member types it."""
    return "on" if value else "off"


def whole(
    key: str,
    summary: str,
    *,
    params: type[Any],
    field: str,
    low: int,
    high: int,
    example: str,
    rule: str = "",
    none: str = "",
) -> Setting:
    """A whole-number setting from ``low`` to ``high``; ``none``: what "none" means, when
    the setting allows it (e.g. "no limit")."""
    allowed = (
        Msg("a whole number from {low} to {high}, or none ({none})", low=low, high=high, none=none)
        if none
        else Msg("a whole number from {low} to {high}", low=low, high=high)
    )

    def read(text: str) -> SettingValue:
        return read_whole(key, text, low, high, example, allowed, none=bool(none))

    def show(value: SettingValue) -> str:
        return "none" if value is None else str(value)

    return Setting(
        key, summary, default_of(params, field), read, show, example, field, rule, True, allowed
    )


def choice(
    key: str,
    summary: str,
    *,
    params: type[Any],
    field: str,
    choices: Iterable[str],
    example: str,
    rule: str = "",
) -> Setting:
    """One of a few words (any case; stored as declared, e.g. a class letter ``B``)."""
    words = tuple(choices)
    allowed = Msg("one of {choices}", choices=", ".join(words))
    by_fold = {word.lower(): word for word in words}

    def read(text: str) -> SettingValue:
        word = by_fold.get(text.strip().lower())
        if word is None:
            raise refuse(key, allowed, text, example)
        return word

    return Setting(
        key, summary, default_of(params, field), read, str, example, field, rule, True, allowed
    )


def switch(
    key: str, summary: str, *, params: type[Any], field: str, rule: str = "", example: str = "on"
) -> Setting:
    """An on/off setting."""
    allowed = ON_OR_OFF

    return Setting(
        key,
        summary,
        default_of(params, field),
        lambda text: read_switch(key, text, example),
        show_switch,
        example,
        field,
        rule,
        True,
        allowed,
    )


def rank(
    key: str,
    summary: str,
    *,
    params: type[Any],
    field: str,
    low: Rank,
    high: Rank,
    example: str,
    rule: str = "",
) -> Setting:
    """A rank setting from ``low`` to ``high`` (e.g. 30k to 9d)."""
    allowed = Msg("a rank from {low} to {high}", low=str(low), high=str(high))

    def read(text: str) -> SettingValue:
        try:
            value = Rank.parse(text)
        except RankError:
            raise refuse(key, allowed, text, example) from None
        if not low <= value <= high:
            raise refuse(key, allowed, text, example)
        return value

    return Setting(
        key, summary, default_of(params, field), read, str, example, field, rule, True, allowed
    )


def komi_text(value: SettingValue) -> str:
    """A komi as a club member writes it: ``6.5``, ``7``, ``-0.5``."""
    assert isinstance(value, Fraction | int)
    number = Fraction(value)
    whole_part = abs(number.numerator) // number.denominator
    sign = "-" if number < 0 else ""
    return f"{sign}{whole_part}.5" if number.denominator == 2 else f"{sign}{whole_part}"


def read_komi(key: str, text: str, example: str) -> Fraction:
    """A whole or half point from -50 to 50 (what a game's ``komi=`` takes)."""
    allowed = HALF_POINTS
    value = text.strip().replace(",", ".")
    try:
        number = Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise refuse(key, allowed, text, example) from None
    if "/" in value or not -50 <= number <= 50 or (number * 2).denominator != 1:
        raise refuse(key, allowed, text, example)
    return number


def komi(
    key: str, summary: str, *, params: type[Any], field: str, example: str, rule: str = ""
) -> Setting:
    """A komi setting (a whole or half point from -50 to 50)."""
    return Setting(
        key,
        summary,
        default_of(params, field),
        lambda text: read_komi(key, text, example),
        komi_text,
        example,
        field,
        rule,
        True,
        HALF_POINTS,
    )


def boards(
    key: str, summary: str, *, params: type[Any], field: str, example: str, rule: str = ""
) -> Setting:
    """A set of board sizes (e.g. ``19`` or ``13,19``), each from 5 to 25."""
    allowed = Msg("board sizes from 5 to 25 separated by commas")

    def read(text: str) -> SettingValue:
        parts = [part.strip() for part in text.replace(" ", ",").split(",") if part.strip()]
        try:
            sizes = tuple(sorted({int(part) for part in parts}))
        except ValueError:
            raise refuse(key, allowed, text, example) from None
        if not sizes or any(not 5 <= size <= 25 for size in sizes):
            raise refuse(key, allowed, text, example)
        return sizes

    def show(value: SettingValue) -> str:
        assert isinstance(value, tuple)
        return ",".join(str(size) for size in value)

    return Setting(
        key, summary, default_of(params, field), read, show, example, field, rule, True, allowed
    )


def time_control(key: str, text: str, example: str) -> TimeControl:
    """A time control (``60m``, ``90m+30s``, ``45m 5x30s byo-yomi``)."""
    try:
        return TimeControl.parse(text)
    except EngineError as error:
        reason = error.args[0] if error.args and isinstance(error.args[0], str) else str(error)
        raise EngineError(
            Msg("{key}: {error} (e.g. {key} {example})", key=key, error=reason, example=example)
        ) from None


def params_with(params: P, settings: Iterable[Setting], values: Iterable[tuple[str, object]]) -> P:
    """``params`` with the fields of the given settings replaced by ``values`` (pairs of
    prefixed key and typed value; keys of other systems are ignored).

    Raises:
        EngineError: the params refuse the combination (e.g. a minimum above the maximum).
    """
    fields = {setting.key: setting.field for setting in settings}
    changes = {fields[key]: value for key, value in values if key in fields}
    if not changes:
        return params
    return dataclasses.replace(params, **changes)  # type: ignore[type-var]
