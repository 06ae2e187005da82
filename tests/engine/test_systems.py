"""engine.systems: the registry, each system's settings, a factory taking typed values."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from engine.errors import EngineError
from engine.systems import SYSTEM_SETTINGS, SYSTEMS, settings_of, system_named
from engine.timecontrol import TimeControl
from engine.types import SettingsChanged, Tournament


def test_every_registered_system_declares_settings_under_its_own_prefix() -> None:
    assert set(SYSTEM_SETTINGS) == set(SYSTEMS)
    for key, declared in SYSTEM_SETTINGS.items():
        assert declared, f"{key} declares no settings"
        keys = [setting.key for setting in declared]
        assert len(keys) == len(set(keys))
        for setting in declared:
            assert setting.prefix == key and setting.rates
            assert setting.rule and setting.summary and setting.allowed


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_each_default_is_the_params_default_and_reads_back(key: str) -> None:
    params = SYSTEMS[key]().params  # type: ignore[attr-defined]
    for setting in settings_of(key):
        assert getattr(params, setting.field) == setting.default, setting.key
        assert setting.read(setting.show(setting.default)) == setting.default, setting.key
        assert setting.read(setting.example) is not None or setting.example == "none"


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_each_setting_takes_effect_in_its_ledger(key: str) -> None:
    for setting in settings_of(key):
        ledger = SYSTEMS[key]()
        value = setting.read(setting.example)
        if value == setting.default:  # an example that is the default: pick another value
            value = next(
                candidate
                for candidate in (
                    setting.read(text)
                    for text in ("off", "on", "4k", "6", "2", "13", "9")
                    if _readable(setting, text)
                )
                if candidate != setting.default
            )
        ledger.apply(SettingsChanged(dt.date(2024, 1, 1), ((setting.key, value),)))
        assert getattr(ledger.params, setting.field) == value, setting.key  # type: ignore[attr-defined]


def _readable(setting: object, text: str) -> bool:
    try:
        setting.read(text)  # type: ignore[attr-defined]
    except EngineError:
        return False
    return True


def test_system_named_takes_typed_values() -> None:
    system = system_named("tensuusei", [("tensuusei.anchor", 128), ("psg.report_days", 9)])
    assert system.params.anchor_1d == 128  # type: ignore[attr-defined]
    assert dataclasses.replace(system.params, anchor_1d=130) == SYSTEMS["tensuusei"]().params  # type: ignore[attr-defined]
    with pytest.raises(KeyError, match="choose one of"):
        system_named("elo")


def test_home_language_of_every_system_and_english_for_an_unknown_key() -> None:
    from engine.systems import home_language

    assert {key: home_language(key) for key in SYSTEMS} == {
        "mgsz": "hu",
        "tensuusei": "ja",
        "swedish": "sv",
        "psg": "pl",
        "gor": "en",
    }
    assert home_language(" MGSZ ") == "hu"
    assert home_language("elo") == "en"
    assert home_language("") == "en"


def test_activity_of_every_system_and_a_default_for_an_unknown_key() -> None:
    from engine.system import Activity
    from engine.systems import activity_of

    assert {key: activity_of(key).months for key in SYSTEMS} == {
        "mgsz": 12,
        "tensuusei": 12,
        "swedish": 12,
        "psg": 13,
        "gor": 12,
    }
    assert activity_of(" PSG ") == SYSTEMS["psg"]().activity
    unknown = activity_of("elo")
    assert isinstance(unknown, Activity) and unknown.months == 12


@pytest.mark.parametrize("time", ["10m", "30m", "45m 3x30s", "60m", "unlimited"])
@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_every_system_weighs_a_time_control_by_its_own_rule(key: str, time: str) -> None:
    """Every rulebook weighs a time control itself, naming it: no system is left to a
    generic sentence (the class of issue 22's Swedish /multiplier 30m)."""
    tournament = Tournament(
        0, "/multiplier", dt.date(2000, 1, 1), dt.date(2000, 1, 1), 1,
        time=TimeControl.parse(time),
    )  # fmt: skip
    weight = system_named(key).time_weight(tournament)
    assert weight.label and weight.lines
    # the answer names the time control it weighed, in the rulebook's own terms
    named = (str(tournament.time), " min", "time limit", "thinking time")
    assert any(word in line for line in weight.lines for word in named), weight.lines
