"""engine.settings: a setting reads text into its typed value or names its range and example."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pytest

from engine import settings
from engine.errors import EngineError
from engine.ranks import Rank
from engine.timecontrol import TimeControl

FIVE_KYU = Rank.kyu(5)


@dataclass(frozen=True, slots=True)
class Params:
    count: int | None = 3
    on: bool = True
    rank: Rank = FIVE_KYU
    komi: Fraction = Fraction(13, 2)
    boards: tuple[int, ...] = (19,)


COUNT = settings.whole(
    "demo.count", "a count", params=Params, field="count", low=1, high=9, example="4", none="all"
)
ON = settings.switch("demo.on", "a switch", params=Params, field="on")
RANK = settings.rank(
    "demo.rank",
    "a rank",
    params=Params,
    field="rank",
    low=Rank.kyu(20),
    high=Rank.dan(2),
    example="3k",
)
KOMI = settings.komi("demo.komi", "a komi", params=Params, field="komi", example="7")
BOARDS = settings.boards("demo.boards", "boards", params=Params, field="boards", example="13,19")


def test_defaults_come_from_the_params_dataclass() -> None:
    assert [s.default for s in (COUNT, ON, RANK, KOMI, BOARDS)] == [
        3,
        True,
        Rank.kyu(5),
        Fraction(13, 2),
        (19,),
    ]
    assert COUNT.prefix == "demo" and COUNT.field == "count" and COUNT.rates


@pytest.mark.parametrize(
    ("setting", "text", "value", "shown"),
    [
        (COUNT, " 4 ", 4, "4"),
        (COUNT, "None", None, "none"),
        (ON, "off", False, "off"),
        (ON, "YES", True, "on"),
        (RANK, "2 dan", Rank.dan(2), "2d"),
        (KOMI, "7,5", Fraction(15, 2), "7.5"),
        (KOMI, "-0.5", Fraction(-1, 2), "-0.5"),
        (BOARDS, "19 13 13", (13, 19), "13,19"),
    ],
)
def test_read_and_show(setting: settings.Setting, text: str, value: object, shown: str) -> None:
    assert setting.read(text) == value
    assert setting.show(value) == shown
    assert setting.read(shown) == value


@pytest.mark.parametrize(
    ("setting", "text", "message"),
    [
        (COUNT, "10", "demo.count takes a whole number from 1 to 9, or none (all), not “10” "
         "(e.g. demo.count 4)"),
        (COUNT, "x", "from 1 to 9"),
        (ON, "maybe", "demo.on takes on or off, not “maybe” (e.g. demo.on on)"),
        (RANK, "3d", "demo.rank takes a rank from 20k to 2d, not “3d” (e.g. demo.rank 3k)"),
        (RANK, "1p", "a rank from 20k to 2d"),
        (KOMI, "6.25", "demo.komi takes a whole or half point from -50 to 50, not “6.25”"),
        (KOMI, "1/2", "whole or half point"),
        (KOMI, "51", "whole or half point"),
        (BOARDS, "4", "board sizes from 5 to 25"),
        (BOARDS, "", "board sizes from 5 to 25"),
    ],
)  # fmt: skip
def test_a_bad_value_names_the_range_and_an_example(
    setting: settings.Setting, text: str, message: str
) -> None:
    with pytest.raises(EngineError) as caught:
        setting.read(text)
    assert message in str(caught.value)


def test_a_time_control_setting() -> None:
    assert settings.time_control("time", "90m+30s", "60m") == TimeControl.parse("90m+30s")
    with pytest.raises(EngineError, match=r"^time: .*\(e\.g\. time 60m\)$"):
        settings.time_control("time", "fast", "60m")


def test_params_with_takes_its_own_keys_only() -> None:
    params = Params()
    changed = settings.params_with(
        params, (COUNT, ON), (("demo.count", 5), ("other.count", 1), ("demo.rank", Rank.dan(1)))
    )
    assert changed == Params(count=5)
    assert settings.params_with(params, (COUNT,), ()) is params
    with pytest.raises(KeyError):
        settings.default_of(Params, "missing")


def test_a_refusal_and_the_allowed_text_are_translatable_messages() -> None:
    """Issue 13: what a setting takes and its refusal are Msg; the key and the example stay
    literal values (people type them as they are)."""
    from engine.settings import refuse, whole
    from engine.text import Msg

    error = refuse("psg.report_days", Msg("on or off"), "maybe", "on")
    message = error.args[0]
    assert isinstance(message, Msg)
    assert message.template == "{key} takes {allowed}, not {value} (e.g. {key} {example})"
    assert message == "psg.report_days takes on or off, not “maybe” (e.g. psg.report_days on)"
    assert message.args["key"] == "psg.report_days" and message.args["example"] == "on"

    @dataclass(frozen=True)
    class Params:
        days: int = 3

    setting = whole("x.days", Msg("days"), params=Params, field="days", low=1, high=9, example="3")
    assert isinstance(setting.allowed, Msg)
    assert setting.allowed.template == "a whole number from {low} to {high}"
