"""Shared wording of values, changes, komi, dates, results and cards."""

from __future__ import annotations

import dataclasses
import datetime as dt
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core import format as fmt
from bot.i18n import using
from engine.calendar import Phase
from engine.ranks import Rank
from engine.system import Card, Measure, Pending, Value
from engine.text import Msg, plural
from engine.types import Game, Result


@pytest.mark.parametrize(
    ("value", "text"),
    [(None, "—"), (1865, "1865"), (-4, "-4"), (Fraction(75, 2), "37.5"), (Fraction(6), "6"),
     (Fraction(1, 3), "0.33"), (Fraction(-1, 4), "-0.25"), ("12.5", "12.5")],
)  # fmt: skip
def test_value(value: Value, text: str) -> None:
    assert fmt.value(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [(None, "—"), (16, "+16"), (-4, "-4"), (0, "±0"), (Fraction(-9, 2), "-4.5"),
     (Fraction(1, 2), "+0.5"), ("n/a", "n/a")],
)  # fmt: skip
def test_signed(value: Value, text: str) -> None:
    assert fmt.signed(value) == text


@pytest.mark.parametrize(
    ("language", "text"), [("en", "-4.5 -7 6.5"), ("sv", "−4,5 −7 6,5"), ("pl", "-4,5 -7 6,5")]
)
def test_signs_and_marks_are_the_languages_own(language: str, text: str) -> None:
    """One minus sign per language, Babel's (issue 24: "-7" beside "−13" in one reply)."""
    with using(language):
        shown = (
            f"{fmt.signed(Fraction(-9, 2))} {fmt.komi(Fraction(-7))} {fmt.komi(Fraction(13, 2))}"
        )
    assert shown == text


@pytest.mark.parametrize(
    ("before", "after", "delta"),
    [(1947, 1963, 16), (1963, 1947, -16), (Fraction(1, 2), 2, Fraction(3, 2)),
     ("12.5", "20", Fraction(15, 2)), ("10", "12", 2), (None, 5, None), (5, None, None),
     ("x", "5", None)],
)  # fmt: skip
def test_difference(before: Value, after: Value, delta: Value) -> None:
    result = fmt.difference(before, after)
    assert result == delta
    if isinstance(delta, int):
        assert type(result) is int  # whole changes read 16, not 16/1


@pytest.mark.parametrize(
    ("value", "number"),
    [(None, None), (3, Fraction(3)), (Fraction(1, 2), Fraction(1, 2)), ("2.5", Fraction(5, 2)),
     ("abc", None), ("1/0", None)],
)  # fmt: skip
def test_number(value: Value, number: Fraction | None) -> None:
    assert fmt.number(value) == number


@pytest.mark.parametrize(
    ("komi", "text"),
    [(Fraction(13, 2), "6.5"), (Fraction(1, 2), "0.5"), (Fraction(0), "0"), (Fraction(-5), "-5"),
     (Fraction(-7, 2), "-3.5")],
)  # fmt: skip
def test_komi(komi: Fraction, text: str) -> None:
    assert fmt.komi(komi) == text


def test_day() -> None:
    assert fmt.day(dt.date(2026, 4, 1)) == "2026-04-01"
    assert fmt.day(None) == "—"


def _game(result: Result | None, played: bool = True) -> Game:
    return Game(id=1, black=1, white=2, result=result, date=dt.date(2026, 4, 1), stones=0,
                komi=Fraction(13, 2), played=played)  # fmt: skip


@pytest.mark.parametrize(
    ("game", "text"),
    [(_game(Result.BLACK), "B+"), (_game(Result.WHITE), "W+"), (_game(Result.JIGO), "jigo"),
     (_game(None), "?"), (_game(Result.BLACK, played=False), "unplayed")],
    ids=["black", "white", "jigo", "unknown", "unplayed"],
)  # fmt: skip
def test_result(game: Game, text: str) -> None:
    assert fmt.result(game) == text


@pytest.mark.parametrize(
    ("key", "title"),
    [("mgsz", "MGSZ Elo (Hungary)"), ("tensuusei", "Tensuusei points (Japan)"),
     ("swedish", "Swedish promotion points"), ("psg", "PSG ranking (Poland)"),
     ("gor", "EGF GoR (Europe)"), ("go4go", "go4go")],
)  # fmt: skip
def test_system_title(key: str, title: str) -> None:
    assert fmt.system_title(key) == title


def test_card_lines_leave_out_what_rating_shows_itself() -> None:
    card = Card(
        player=1, rank=Rank.kyu(5), rating=1720, rating_label="Elo", sort_key=(1720,), games=0,
        pending=Pending(2, "games", Phase.PERIOD_END),
        values=(
            Measure("elo", "Elo", 1720, "Elo"),
            Measure("band_rank", "band rank", "5k"),
            Measure("club_games_held", "pending club games", 2, "games"),
            Measure("pending_elo", "if the period ended now", 1733, "Elo"),
            Measure("confirmations.2d", "2d bound reached", 1, "of 2 tournaments"),
        ),
    )  # fmt: skip
    assert fmt.card_lines(card) == [
        "band rank: 5k",
        "pending club games: 2",
        "if the period ended now: 1733 (+13)",
        "2d bound reached: 1 of 2 tournaments",
    ]
    assert fmt.unsettled(card) == ["if the period ended now: 1733 (+13)"]
    one = dataclasses.replace(card, values=(Measure("held", "pending club games", 1, "games"),))
    assert fmt.card_lines(one) == ["pending club games: 1"]
    held = dataclasses.replace(card, values=(Measure("n", "games with this rank", 1, "games"),))
    assert fmt.card_lines(held) == ["games with this rank: 1 game"]


def test_a_pending_change_reads_with_its_sign_and_when_it_settles() -> None:
    day = Pending(-1, "points", Phase.DAY_END)
    assert fmt.pending(day) == "-1 point, settled at the end of the club day"
    assert fmt.pending(Pending(1, "games", Phase.PERIOD_END)).startswith("1 game,")
    assert fmt.measure(Measure("x", "best run", Fraction(3, 2), "games")) == "1.5 games"
    assert fmt.measure(Measure("egf", "EGF rating", None)) == "—"


@pytest.mark.parametrize(
    ("labels", "headings", "cells"),
    [
        (["Elo", "Elo"], ("Elo",), None),
        (["points toward 2d", "points toward 1k"], ("points", "toward"), ["2d", "1k"]),
        (
            ["points toward 1k", "no further Swedish target"],
            ("value", "kind of value"),
            ["points toward 1k", "no further Swedish target"],
        ),
        (
            ["sum of games", "min-games result"],
            ("value", "kind of value"),
            ["sum of games", "min-games result"],
        ),
    ],
)
def test_rating_heading_fits_every_row(
    labels: list[str], headings: tuple[str, ...], cells: list[str] | None
) -> None:
    assert fmt.rating_heading(labels) == (headings, cells)


@given(st.lists(st.text(st.sampled_from("ab c-"), min_size=1, max_size=12), max_size=6))
def test_every_rating_heading_is_a_word(labels: list[str]) -> None:
    """A sortable column is named by its heading (the web's ranking list, /top): none is
    empty, whatever the rows' labels (the PSG list had a nameless column)."""
    headings, cells = fmt.rating_heading([label for label in labels if label.strip()])
    assert all(heading.strip() for heading in headings)
    assert (cells is None) == (len(headings) == 1)


# -- in the conversation's language (issue 13) -------------------------------------------------


@pytest.mark.parametrize(
    ("language", "rating", "komi", "change"),
    [("en", "37.5", "6.5", "-4.5"), ("hu", "37,5", "6,5", "-4,5"), ("sv", "37,5", "6,5", "−4,5"),
     ("pl", "37,5", "6,5", "-4,5"), ("ja", "37.5", "6.5", "-4.5")],
)  # fmt: skip
def test_decimals_take_the_languages_own_mark(
    language: str, rating: str, komi: str, change: str
) -> None:
    with using(language):
        assert fmt.value(Fraction(75, 2)) == rating
        assert fmt.komi(Fraction(13, 2)) == komi
        assert fmt.komi(Fraction(-13, 2)) == change[0] + komi
        assert fmt.signed(Fraction(-9, 2)) == change
        assert fmt.value(1865) == "1865" and fmt.value(Fraction(3001, 2))[:4] == "1500"


def test_files_write_values_in_no_language() -> None:
    with using("hu"):
        assert fmt.plain(Fraction(75, 2)) == "37.5"
        assert fmt.plain(Fraction(1, 3)) == "0.33"
        assert fmt.plain(1865) == "1865" and fmt.plain(None) == ""
        assert fmt.day(dt.date(2026, 4, 1)) == "2026-04-01"


def test_results_and_system_titles_in_japanese() -> None:
    with using("ja"):
        assert fmt.result(_game(Result.JIGO)) == "持碁"
        assert fmt.result(_game(Result.BLACK, played=False)) == "不戦"
        assert fmt.result(_game(Result.WHITE)) == "W+"  # what people type stays
        assert fmt.system_title("tensuusei") == "点数制（日本）"
        assert fmt.source("override") == "委員会による修正"
    assert fmt.source("override") == "committee override" and fmt.source("x") == "x"


def test_a_pending_change_and_card_lines_in_hungarian() -> None:
    with using("hu"):
        assert fmt.pending(Pending(Fraction(5, 2), "points", Phase.DAY_END)) == (
            "+2,5 points, elszámolás a klubnap végén"
        )
        card = Card(
            player=1, rank=Rank.kyu(5), rating=1720, rating_label="Elo", sort_key=(1720,),
            games=0, pending=None,
            values=(Measure("elo", "Elo", 1720, "Elo"),
                    Measure("pending_elo", "if the period ended now", 1733, "Elo")),
        )  # fmt: skip
        assert fmt.unsettled(card) == ["if the period ended now: 1733 (+13)"]
        headings, cells = fmt.rating_heading(["a b", "c d"])
        assert headings[0] == "érték" and all(headings) and cells == ["a b", "c d"]


def test_a_unit_from_the_rules_is_translated_not_cut() -> None:
    """The engine gives a unit as a catalogue's text already in its number (plural()):
    no English s is taken off it."""
    unit = plural("point", "points", 1)
    assert fmt.measure(Measure("x", "best", 1, unit)) == "1 point"
    assert fmt.pending(Pending(1, unit, Phase.DAY_END)).startswith("+1 point,")
    with using("ja"):
        assert (
            fmt.measure(Measure("x", "best", 1, Msg("games"))) == "1 局"
        )  # the unit as the catalogue gives it


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Szabó Éva", "szabo-eva"),
        ("Łódź Go Klub", "lodz-go-klub"),
        ("山田太郎", "player"),
        ("x" * 300, "x" * 60),
        ("Ab " * 100, ("ab-" * 20).strip("-")),
    ],
)
def test_a_file_slug_is_short_ascii_whatever_the_name(name: str, slug: str) -> None:
    """Issue 26: a 300-character name made a chart's or an export's file name too long."""
    assert fmt.file_slug(name, "player") == slug
