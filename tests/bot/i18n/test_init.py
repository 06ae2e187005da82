"""bot.i18n: the conversation's language, translating, plurals, Babel's dates and numbers."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from bot.i18n import (
    LANGUAGES,
    _,
    _n,
    current,
    date_text,
    language_of,
    month_text,
    number_text,
    translated,
    using,
    weekday_text,
)
from engine.text import Msg, plural

UNKNOWN = "There is no command {command}. /help lists them all."


def test_a_conversation_has_a_language_only_inside_its_block() -> None:
    assert current() == "en"
    with using("ja") as language:
        assert language == current() == "ja"
        with using("pl"):
            assert current() == "pl"
        assert current() == "ja"
    assert current() == "en"


def test_a_language_without_a_catalogue_answers_in_english() -> None:
    with using("de"):
        assert current() == "en"
        assert _(UNKNOWN, command="/x") == "There is no command /x. /help lists them all."


@pytest.mark.parametrize(
    ("tag", "language"),
    [
        ("hu", "hu"),
        ("sv-SE", "sv"),
        ("pt-br", None),
        ("ja_JP.UTF-8", "ja"),
        ("PL", "pl"),
        ("en-US", "en"),
        ("C.UTF-8", None),
        ("", None),
        (None, None),
    ],
)
def test_the_catalogue_for_a_platforms_language_tag(tag: str | None, language: str) -> None:
    assert language_of(tag) == language


def test_a_text_is_given_in_the_current_language_with_its_arguments() -> None:
    with using("hu"):
        said = _(UNKNOWN, command="/rang")
    assert "/rang" in said and "/help" in said and "There is no" not in said
    assert isinstance(said, Msg) and said.template == UNKNOWN


def test_a_given_text_can_be_given_again_in_another_language() -> None:
    with using("hu"):
        said = _(UNKNOWN, command="/rang")
    again = translated(said, "ja")
    assert again != said and "/rang" in again
    assert translated(again, "en") == "There is no command /rang. /help lists them all."
    assert translated("Nagy Péter", "ja") == "Nagy Péter"  # plain text stays as it is


def test_an_engine_text_and_its_nested_arguments_are_translated() -> None:
    inner = plural("{n} player", "{n} players", 3)
    outer = Msg("{players} in the tournament", players=inner)
    assert outer == "3 players in the tournament"  # the engine's English, unchanged
    polish = translated(inner, "pl")
    assert polish.startswith("3 ") and "player" not in polish


@pytest.mark.parametrize(
    ("language", "words"), [("en", 2), ("hu", 1), ("ja", 1), ("sv", 2), ("pl", 3)]
)
def test_plurals_follow_each_languages_rule(language: str, words: int) -> None:
    """1, 2 and 5 games: English and Swedish say two words (parti, partier), Hungarian and
    Japanese one, Polish three (partia, partie, partii)."""
    with using(language):
        said = {_n("{n} game", "{n} games", n).replace(str(n), "") for n in (1, 2, 5)}
    assert len(said) == words


def test_dates_weekdays_months_and_numbers_as_each_language_writes_them() -> None:
    day = dt.date(2026, 11, 23)
    shown = {}
    for language in LANGUAGES:
        with using(language):
            shown[language] = (
                date_text(day),
                weekday_text(0),
                month_text(2026, 11),
                number_text(Fraction(13, 2), 1),
            )
    assert shown["en"] == ("Nov 23, 2026", "Monday", "November 2026", "6.5")
    assert shown["hu"] == ("2026. nov. 23.", "hétfő", "2026. november", "6,5")
    assert shown["ja"] == ("2026/11/23", "月曜日", "2026年11月", "6.5")
    assert shown["sv"][1:] == ("måndag", "november 2026", "6,5")
    assert shown["pl"][1:] == ("poniedziałek", "listopad 2026", "6,5")


def test_a_day_from_the_rules_is_written_as_the_language_writes_dates() -> None:
    """The rules pass days as dates: ISO in their English, each language's own form here."""
    note = Msg("{change} from {date}", change="+1", date=dt.date(2026, 11, 20))
    assert note == "+1 from 2026-11-20"
    assert "2026/11/20" in translated(note, "ja")
    assert translated(note, "en") == "+1 from Nov 20, 2026"
    assert "2026. nov. 20." in translated(translated(note, "ja"), "hu")  # again from the date
