"""SGF game records (engine.formats.sgf): real files from servers and programs, refusals."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import FormatError
from engine.formats.sgf import SgfGame, parse_result, parse_sgf_date, read_sgf
from engine.ranks import Rank
from engine.timecontrol import Overtime
from engine.types import Result

DATA = Path(__file__).parent / "data" / "sgf"


def read(name: str) -> SgfGame:
    return read_sgf((DATA / name).read_bytes())


def test_ogs_export_with_unknown_result() -> None:
    game = read("ogs.sgf")
    assert (game.black, game.white) == ("bbb", "aaa")
    assert (game.black_rank, game.white_rank) == (Rank.kyu(4), Rank.kyu(5))
    assert game.result is None and game.ending == "unknown" and not game.has_result
    assert game.place.startswith("OGS: https://online-go.com")
    assert (game.handicap, game.komi, game.size) == (0, Fraction(13, 2), 19)
    assert game.date == dt.date(2020, 3, 31)
    assert game.time_control is not None
    assert game.time_control.overtime is Overtime.FISCHER
    assert game.moves == 113


def test_igs_handicap_game_counted() -> None:
    game = read("igs-handicap.sgf")
    assert (game.black, game.white) == ("player2", "player1")
    assert (game.result, game.margin, game.ending) == (Result.WHITE, Fraction(69, 2), "score")
    assert (game.handicap, game.komi) == (2, Fraction(1, 2))
    assert game.white_rank == Rank.kyu(11) and game.white_rank_text == "11k+"
    assert game.date == dt.date(2020, 4, 10)


def test_fox_resignation_with_chinese_ranks() -> None:
    game = read("fox-resign.sgf")
    assert (game.black, game.white) == ("whatiskale", "注号用名")
    assert (game.result, game.margin, game.ending) == (Result.BLACK, None, "resign")
    assert game.black_rank == Rank.kyu(15) and game.black_rank_text == "15级"
    assert (game.handicap, game.komi, game.date) == (0, Fraction(0), dt.date(2020, 7, 25))


def test_sabaki_file_with_bom_and_no_result() -> None:
    game = read("sabaki-bom.sgf")
    assert (game.black, game.white) == ("Kitani Minoru", "Go Seigen")
    assert game.program == "Sabaki:0.35.0"
    assert game.black_rank == Rank.dan(7) and game.black_rank_text == "9p"  # 9p reads as 7d
    assert (game.result, game.ending) == (None, "none")
    assert game.encoding == "utf-8" and game.date is None


@pytest.mark.parametrize(
    ("name", "black", "white", "encoding"),
    [
        ("shift-jis.sgf", "井山 裕太", "山下 敬吾", "shift_jis"),
        ("gb2312.sgf", "古力", "柯洁", "gb2312"),
        ("jigo.sgf", "Kovács Anna", "Szabó Béla", "utf-8"),
        ("latin1.sgf", "Jörg Müller", "François Léger", "iso8859-1"),
    ],
)
def test_names_in_each_encoding(name: str, black: str, white: str, encoding: str) -> None:
    game = read(name)
    assert (game.black, game.white, game.encoding) == (black, white, encoding)


def test_kgs_cgoban_handicap_resignation() -> None:
    game = read("kgs-cgoban-handicap-resign.sgf")
    assert (game.black, game.white) == ("marfan", "GNU")
    assert (game.black_rank, game.white_rank) == (Rank.kyu(20), Rank.kyu(13))
    assert (game.result, game.ending) == (Result.BLACK, "resign")
    assert (game.handicap, game.komi, game.size) == (6, Fraction(1, 2), 19)
    assert game.program == "CGoban:2" and "KGS" in game.place
    assert game.date == dt.date(2005, 4, 5)
    assert game.time_control is not None
    assert (game.time_control.overtime, game.time_control.moves) == (Overtime.CANADIAN, 25)


def test_kgs_timeout() -> None:
    game = read("kgs-timeout.sgf")
    assert (game.black, game.white) == ("up", "TheGNUGo")
    assert (game.result, game.ending, game.result_text) == (Result.BLACK, "time", "B+Time")
    assert (game.handicap, game.komi, game.date) == (0, Fraction(1, 2), dt.date(2004, 8, 5))


def test_jigo() -> None:
    game = read("jigo.sgf")
    assert (game.result, game.margin, game.ending) == (Result.JIGO, Fraction(0), "jigo")
    assert (game.size, game.komi, game.date, game.moves) == (
        9,
        Fraction(7),
        dt.date(2026, 3, 14),
        2,
    )


def test_latin1_event_round_and_first_date() -> None:
    game = read("latin1.sgf")
    assert (game.event, game.round) == ("Hamburg Open", "3")
    assert game.date == dt.date(2024, 3, 1)
    assert (game.result, game.margin) == (Result.WHITE, Fraction(5, 2))


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("broken-truncated.sgf", "cut short"),
        ("broken-not-go.sgf", "GM[2]"),
        ("broken-collection.sgf", "2 games"),
        ("broken-garbage.sgf", "not an SGF"),
        ("broken-no-players.sgf", "no black player"),
    ],
)
def test_broken_files_are_refused_with_the_reason(name: str, reason: str) -> None:
    with pytest.raises(FormatError, match=reason.replace("[", r"\[").replace("]", r"\]")):
        read(name)


def test_malformed_value_outside_a_node() -> None:
    with pytest.raises(FormatError, match="cannot be read"):
        read_sgf(b"(;GM[1]PB[a]PW[b](B[aa]))")


def test_unusual_size_is_kept_and_flagged() -> None:
    game = read_sgf(b"(;GM[1]SZ[7]PB[a]PW[b]RE[B+R])")
    assert game.size == 7 and any("7" in w for w in game.warnings)


def test_rectangular_board_refused() -> None:
    with pytest.raises(FormatError, match="not square"):
        read_sgf(b"(;GM[1]SZ[19:13]PB[a]PW[b])")


def test_handicap_counted_from_setup_stones_when_ha_is_missing() -> None:
    assert read_sgf(b"(;GM[1]PB[a]PW[b]AB[dd][pp][dp:dq])").handicap == 4


def test_no_ca_and_not_utf8_falls_back_to_latin1() -> None:
    game = read_sgf(b"(;GM[1]PB[J\xf6rg]PW[b])")
    assert game.black == "Jörg" and game.warnings


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("B+R", (Result.BLACK, None, "resign")),
        ("W+Resign", (Result.WHITE, None, "resign")),
        ("W+3.5", (Result.WHITE, Fraction(7, 2), "score")),
        ("B+T", (Result.BLACK, None, "time")),
        ("W+F", (Result.WHITE, None, "forfeit")),
        ("Draw", (Result.JIGO, Fraction(0), "jigo")),
        ("Void", (None, None, "unknown")),
        ("?", (None, None, "unknown")),
        ("", (None, None, "none")),
    ],
)
def test_parse_result(text: str, expected: object) -> None:
    assert parse_result(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024-03-01,02", dt.date(2024, 3, 1)),
        ("2024-03-01,2024-03-05", dt.date(2024, 3, 1)),
        ("2024-03", dt.date(2024, 3, 1)),
        ("1996", dt.date(1996, 1, 1)),
        ("someday", None),
    ],
)
def test_parse_sgf_date(text: str, expected: dt.date | None) -> None:
    assert parse_sgf_date(text) == expected


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


names = st.text(
    st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=20
).filter(lambda s: s.strip() == s and s.strip() != "")


@given(
    black=names,
    white=names,
    winner=st.sampled_from(["B", "W"]),
    margin=st.integers(0, 400).map(lambda n: Fraction(2 * n + 1, 2)),
    handicap=st.integers(0, 9).filter(lambda n: n != 1),
    komi=st.integers(-20, 20).map(lambda n: Fraction(n, 2)),
    date=st.dates(dt.date(1900, 1, 1), dt.date(2100, 12, 31)),
    size=st.sampled_from([9, 13, 19]),
)
def test_fields_written_as_sgf_read_back(
    black: str,
    white: str,
    winner: str,
    margin: Fraction,
    handicap: int,
    komi: Fraction,
    date: dt.date,
    size: int,
) -> None:
    text = (
        f"(;GM[1]FF[4]CA[UTF-8]SZ[{size}]PB[{_escape(black)}]PW[{_escape(white)}]"
        f"HA[{handicap}]KM[{float(komi)}]DT[{date.isoformat()}]RE[{winner}+{float(margin)}]"
        ";B[aa])"
    )
    game = read_sgf(text.encode("utf-8"))
    assert (game.black, game.white) == (black, white)
    assert game.result is (Result.BLACK if winner == "B" else Result.WHITE)
    assert (game.margin, game.handicap, game.komi) == (margin, handicap, komi)
    assert (game.date, game.size, game.moves) == (date, size, 1)
