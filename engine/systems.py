"""The registry of rating systems, keyed as clubs and ``--system`` name them.

Each system's package declares its settings as ``SETTINGS`` (engine.settings.Setting, keys
prefixed with the system's key); :data:`SYSTEM_SETTINGS` gathers them from the package of each
registered system, so a system added to :data:`SYSTEMS` brings its settings along.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable

from engine.gor import Gor
from engine.mgsz import Mgsz
from engine.psg import Psg
from engine.settings import Setting, params_with
from engine.swedish import Swedish
from engine.system import Activity, RatingSystem, default_activity
from engine.tensuusei import Tensuusei
from engine.text import Msg, Typed

SYSTEMS: dict[str, Callable[..., RatingSystem]] = {
    "mgsz": Mgsz,
    "tensuusei": Tensuusei,
    "swedish": Swedish,
    "psg": Psg,
    "gor": Gor,
}
"""Each system's factory: called without arguments, the system with its rulebook's defaults;
called with its params dataclass, the system with those (``Tensuusei(params)``)."""


def _declared(key: str, factory: Callable[..., RatingSystem]) -> tuple[Setting, ...]:
    """The ``SETTINGS`` of the system's package (``engine.<key>``, else the factory's module)."""
    for name in (f"engine.{key}", factory.__module__):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        found: tuple[Setting, ...] | None = getattr(module, "SETTINGS", None)
        if found is not None:
            return tuple(found)
    return ()


def settings_of(key: str) -> tuple[Setting, ...]:
    """The settings the system ``key`` declares (none for a system without any)."""
    factory = SYSTEMS.get(key)
    return () if factory is None else _declared(key, factory)


SYSTEM_SETTINGS: dict[str, tuple[Setting, ...]] = {key: settings_of(key) for key in SYSTEMS}
"""Every registered system's settings, by system key."""


def home_language(key: str) -> str:
    """The language of the rulebook of the system ``key`` (its country's: ``mgsz`` → ``hu``),
    a club's default language; ``en`` for an unknown key."""
    factory = SYSTEMS.get(key.strip().lower())
    language = getattr(factory, "language", None)
    return language if isinstance(language, str) else "en"


def activity_of(key: str, values: Iterable[tuple[str, object]] = ()) -> Activity:
    """Who counts as active under the system ``key`` with a club's settings ``values``
    (prefixed keys and typed values, as :func:`system_named` takes them; none: the rulebook's
    defaults — PSG: 13 months, PSG regulations §3(5), a club's ``psg.inactive_months``;
    hoshi's 12 months under the others); hoshi's 12 months for an unknown key. The system's
    own ledger answers (``system.activity``), never a branch on its name."""
    if key.strip().lower() not in SYSTEMS:
        return default_activity()
    activity = getattr(system_named(key, values), "activity", None)
    return activity if isinstance(activity, Activity) else default_activity()


def system_named(key: str, values: Iterable[tuple[str, object]] = ()) -> RatingSystem:
    """A fresh ledger of the system ``key``; ``values`` (prefixed keys and typed values,
    engine.settings) replace its defaults.

    Raises:
        KeyError: with the known keys, for an unknown system.
        EngineError: the system refuses the combination of values.
    """
    try:
        factory = SYSTEMS[key.strip().lower()]
    except KeyError:
        known = ", ".join(SYSTEMS)
        raise KeyError(
            Msg("unknown rating system {key}; choose one of {known}", key=Typed(key), known=known)
        ) from None
    system = factory()
    values = tuple(values)
    if not values:
        return system
    params = getattr(system, "params", None)
    if params is None:
        return system
    return factory(params_with(params, settings_of(key.strip().lower()), values))
