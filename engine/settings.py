"""Typed club settings: each one's meaning, range and example (/club set, /club settings).

A rating system declares its own settings next to its rules (``SETTINGS`` in its package, keys
prefixed with the system's key: ``tensuusei.anchor``); the club-wide ones are declared here.
A setting reads a club member's text into a typed value or says what was wrong, with the range
and an example.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

SettingValue = object
"""A setting's typed value: ``int``, ``bool``, ``Fraction``, ``Rank``, ``TimeControl``, ``str``
or ``None`` (where the setting allows "none")."""


@dataclass(frozen=True, slots=True)
class Setting:
    """One setting a club may change.

    ``key`` is what ``/club set`` takes (``tensuusei.anchor``); ``field`` the name of the
    parameter it sets in the system's params dataclass (``anchor_1d``; empty for a club-wide
    setting); ``read`` turns a club member's text into the typed value or raises
    ``EngineError`` naming the range and ``example``; ``show`` writes a value back as text a
    club member could type; ``rule`` cites where the rulebook sets the default.
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
