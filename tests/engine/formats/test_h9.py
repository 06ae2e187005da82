"""EGD results files (formats.md, EGD tournament results): reading, writing, real-export quirks
and broken files."""

from __future__ import annotations

import dataclasses
import datetime as dt
import string
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import FormatError
from engine.formats.h9 import kept_header, parse_h9, with_kept_header, write_h9
from engine.formats.names import fold_name
from engine.formats.tournament_file import FileBye, FileGame, FilePlayer, TournamentFile
from engine.ranks import Rank
from engine.types import Outcome, Result

DATA = Path(__file__).parent / "data"
B, W, J = Result.BLACK, Result.WHITE, Result.JIGO


def read(name: str) -> bytes:
    return (DATA / name).read_bytes()


def h9(*lines: str, header: str = "; DT[2026-04-11,2026-04-12]") -> str:
    """A small file: the header, then the given player lines."""
    return "\n".join([header, *lines]) + "\n"


def game_tuples(tf: TournamentFile) -> list[tuple[object, ...]]:
    return [
        (g.round, g.black, g.white, g.result, g.played, g.stones, g.colour_known) for g in tf.games
    ]


# ------------------------------------------------------------------ the formats.md example


@pytest.fixture(scope="module")
def example() -> TournamentFile:
    return parse_h9(read("formats_example.h9"))


def test_example_header(example: TournamentFile) -> None:
    assert example.class_ == "B"
    assert example.name == "Budapest Spring Cup 2026"
    assert example.place == "HU, Budapest"
    assert (example.start, example.end) == (dt.date(2026, 4, 11), dt.date(2026, 4, 12))
    assert example.handicap_rule == 2
    assert example.even is False
    assert example.komi == Fraction(13, 2)
    assert example.time_minutes == 60
    assert example.comment == "4 rounds, McMahon, 60 min + 3x30 s byo-yomi"
    assert example.rounds == 4
    assert example.encoding == "UTF-8"
    assert example.notes == {}
    assert example.warnings == ()


EXAMPLE_PLAYERS = [
    # position, line, name, rank, country, club, place
    (1, 11, "Nagy Péter", Rank.dan(3), "HU", "Bp", 1),
    (2, 12, "Kovács Anna", Rank.dan(2), "HU", "Bp", 2),
    (3, 13, "Schmidt Jonas", Rank.kyu(1), "DE", "Mun", None),  # blank place: tied
    (4, 14, "Szabó Éva", Rank.kyu(5), "HU", "Szeg", 4),
]


# the criteria columns under "; Pl Name Rk Co Club MMS SOS", and two more without a title
EXAMPLE_CRITERIA = {
    position: (("MMS", mms), ("SOS", sos), ("criterion 3", "0"), ("criterion 4", "0"))
    for position, mms, sos in (
        (1, "33", "128"),
        (2, "31", "127"),
        (3, "31", "120"),
        (4, "29", "110"),
    )
}


@pytest.mark.parametrize(
    "position, line, name, rank, country, club, place",
    EXAMPLE_PLAYERS,
    ids=[row[2] for row in EXAMPLE_PLAYERS],
)
def test_example_players(
    example: TournamentFile,
    position: int,
    line: int,
    name: str,
    rank: Rank,
    country: str,
    club: str,
    place: int | None,
) -> None:
    player = example.player(position)
    assert player == FilePlayer(
        position, line, name, rank, False, country, club, None, place, EXAMPLE_CRITERIA[position]
    )
    assert player.line == line


def test_example_games(example: TournamentFile) -> None:
    # read by hand from the example: (round, black, white, result, played, stones, colour known)
    assert game_tuples(example) == [
        (1, 4, 1, W, True, 0, True),  # Nagy 4+/w0, Szabó 1-/b0
        (1, 3, 2, W, True, 0, True),  # Kovács 3+/w0, Schmidt 2-/b0
        (2, 1, 2, B, True, 0, True),  # Nagy 2+/b0, Kovács 1-/w0
        (2, 4, 3, W, True, 2, True),  # Schmidt 4+/w2, Szabó 3-/b2
        (3, 3, 1, W, True, 0, True),  # Nagy 3+/w0, Schmidt 1-/b0
        (4, 3, 1, B, False, 0, True),  # Nagy 3-!w0, Schmidt 1+!b0: by default
        (4, 4, 2, W, True, 0, True),  # Kovács 4+/w0, Szabó 2-/b0
    ]
    assert [g.line for g in example.games] == [11, 12, 11, 13, 11, 11, 12]
    assert example.unknown_results == 0


def test_example_byes(example: TournamentFile) -> None:
    assert example.byes == (FileBye(3, 2, "half"), FileBye(3, 4, "none"))


# ------------------------------------------------------------------ real-export quirks


def test_iso_8859_15_bytes_with_accented_names() -> None:
    tf = parse_h9(read("kis_kupa.h9"))
    assert tf.encoding == "ISO-8859-15"
    assert "not UTF-8" in tf.warnings[0]
    assert [p.name for p in tf.players] == [
        "Kiss Ödön",
        "Horváth Zsófia",
        "Varga Gábor",
        "Tóth Bence",
        "Müller Jürgen",
    ]
    assert tf.place == "HU, Pécs"
    assert tf.player(1).club == "Pécs"


def test_iso_8859_15_is_not_latin_1() -> None:
    # byte 0xA6 is Š in ISO-8859-15 (¦ in ISO-8859-1), 0xA4 is €
    data = h9("   1 \xa6imon Ana 3k SI Lj 1 0+").encode("latin-1")
    tf = parse_h9(data)
    assert tf.player(1).name == "Šimon Ana"


def test_valid_utf8_is_read_as_utf8_and_a_bom_is_dropped() -> None:
    tf = parse_h9(("\ufeff" + h9("   1 Szűcs Ödön 3k HU Bp 0+")).encode("utf-8"))
    assert tf.encoding == "UTF-8"
    assert tf.player(1).name == "Szűcs Ödön"
    assert tf.warnings == ()


def test_text_input_is_taken_as_decoded() -> None:
    assert parse_h9(h9("   1 Szűcs Ödön 3k HU Bp 0+")).encoding == "text"


def test_crlf_line_endings() -> None:
    text = h9("   1 Kiss Ádám 3k HU Bp 2+/w0", "   2 Nagy Éva 4k HU Bp 1-/b0")
    tf = parse_h9(text.replace("\n", "\r\n").encode("utf-8"))
    assert game_tuples(tf) == [(1, 2, 1, W, True, 0, True)]
    assert [p.line for p in tf.players] == [2, 3]


def test_unknown_results_are_counted_and_not_rated() -> None:
    tf = parse_h9(read("kis_kupa.h9"))
    unknown = [g for g in tf.games if g.result is None]
    assert [(g.round, g.black, g.white, g.played) for g in unknown] == [(3, 1, 4, True)]
    assert tf.unknown_results == 1
    assert "1 game has an unknown result" in " ".join(tf.warnings)


def test_two_players_with_the_same_name_stay_two_players() -> None:
    tf = parse_h9(
        h9(
            "   1 Kovács Anna 2k HU Bp 2+/w0",
            "   2 Kovács Anna 5k HU Deb 1-/b0",
        )
    )
    assert [(p.position, p.name, p.rank, p.club) for p in tf.players] == [
        (1, "Kovács Anna", Rank.kyu(2), "Bp"),
        (2, "Kovács Anna", Rank.kyu(5), "Deb"),
    ]
    assert game_tuples(tf) == [(1, 2, 1, W, True, 0, True)]


UNDERSCORE_NAMES = [
    ("van_der_Berg Jan", "van der Berg Jan"),
    ("Nagy_Kovács Anna_Mária", "Nagy Kovács Anna Mária"),
    ("O'Neil Mary", "O'Neil Mary"),
    ("Li Wu", "Li Wu"),
]


@pytest.mark.parametrize("written, name", UNDERSCORE_NAMES, ids=[n for _, n in UNDERSCORE_NAMES])
def test_names_with_underscores_and_many_words(written: str, name: str) -> None:
    tf = parse_h9(h9(f"   1 {written} 3k NL Ams 0+"))
    assert tf.player(1).name == name


RANK_FORMS = [
    ("3D", Rank.dan(3), 0),
    ("3d", Rank.dan(3), 0),
    ("1K", Rank.kyu(1), 0),
    ("30k", Rank.kyu(30), 0),
    ("12", Rank.kyu(12), 0),  # a bare number means kyu
    ("1p", Rank.dan(7), 1),  # pro ranks are read as 7d, their N kept (GoR: rules.md §6)
    ("9P", Rank.dan(7), 9),
]


@pytest.mark.parametrize("token, rank, pro", RANK_FORMS, ids=[t for t, _, _ in RANK_FORMS])
def test_rank_forms(token: str, rank: Rank, pro: int) -> None:
    tf = parse_h9(h9(f"   1 Cho Hun {token} KR Seo 0+"))
    assert (tf.player(1).rank, tf.player(1).pro) == (rank, pro)
    assert ("professional rank" in " ".join(tf.warnings)) is bool(pro)


def test_egd_pin_column() -> None:
    tf = parse_h9(
        h9(
            "   1 Kiss Ádám 3k HU Bp  10  2+/w0 |12345678",
            "   2 Nagy Éva 4k HU Bp    9  1-/b0|87654321",
            "   3 Tóth Jenő 5k HU Bp   9  0+",
        )
    )
    assert [p.egd_pin for p in tf.players] == ["12345678", "87654321", None]


def test_unknown_country_and_club() -> None:
    tf = parse_h9(h9("   1 Kiss Ádám 3k XX xxxx 0+"))
    assert (tf.player(1).country, tf.player(1).club) == (None, None)


def test_criteria_columns_may_carry_question_marks_and_equals() -> None:
    tf = parse_h9(
        h9(
            "   1 Kiss Ádám 3k HU Bp  12=  3?  1.5  2+/w0 0+",
            "   2 Nagy Éva 4k HU Bp   11   4   ?    1-/b0 0=",
        )
    )
    assert tf.rounds == 2
    assert tf.byes == (FileBye(2, 1, "win"), FileBye(2, 2, "half"))
    # no title line: the columns are numbered; the marks are dropped, a bare mark is empty
    assert [p.criteria for p in tf.players] == [
        (("criterion 1", "12"), ("criterion 2", "3"), ("criterion 3", "1.5")),
        (("criterion 1", "11"), ("criterion 2", "4"), ("criterion 3", "")),
    ]


def test_criteria_are_named_by_the_column_titles() -> None:
    tf = parse_h9(
        h9(
            "   1 Kiss Ádám 3k HU Bp  12=  30  2+/w0",
            "   2 Nagy Éva 4k HU Bp   11   31  1-/b0",
            header="; DT[2026-04-11]\n;\n; Pl Name          Rk Co Club  MMS  SOS  1",
        )
    )
    assert [p.criteria for p in tf.players] == [
        (("MMS", "12"), ("SOS", "30")),
        (("MMS", "11"), ("SOS", "31")),
    ]


def test_criteria_titles_fewer_than_the_columns_number_the_rest() -> None:
    tf = parse_h9(
        h9(
            "   1 Kiss Ádám 3k HU Bp  2  12?  2+/w0",
            "   2 Nagy Éva 4k HU Bp   1  11   1-/b0",
            header="; DT[2026-04-11]\n; Num Name Rank Co Club NBW",
        )
    )
    assert tf.player(1).criteria == (("NBW", "2"), ("criterion 2", "12"))


def test_a_file_without_criteria_has_none() -> None:
    tf = parse_h9(h9("   1 Kiss Ádám 3k HU Bp 2+/w0", "   2 Nagy Éva 4k HU Bp 1-/b0"))
    assert [p.criteria for p in tf.players] == [(), ()]


def test_criteria_columns_are_written_back_under_their_titles() -> None:
    tf = parse_h9(read("formats_example.h9"))
    written = write_h9(tf)
    title = next(line for line in written.splitlines() if "Name" in line)
    assert title.split()[-4:] == ["MMS", "SOS", "criterion_3", "criterion_4"]
    assert "33" in written.splitlines()[10].split()
    assert parse_h9(written).players == tf.players


EVEN_CASES = [
    # header, tokens of players 1 and 2, expected even
    ("", ("2+/w0", "1-/b0"), True),  # no HA, all games even → even tournament
    ("", ("2+/w1", "1-/b1"), False),  # no HA, a handicap game
    ("; HA[h9]", ("2+/w0", "1-/b0"), True),
    ("; HA[h12]", ("2+/w0", "1-/b0"), True),
    ("; HA[h2]", ("2+/w0", "1-/b0"), False),  # a handicap tournament whose game was even
    ("; HA[h0]", ("2+/w0", "1-/b0"), False),
]


@pytest.mark.parametrize(
    "ha, tokens, even", EVEN_CASES, ids=[f"{c[0] or 'no HA'}-{c[1][0]}" for c in EVEN_CASES]
)
def test_even_tournament(ha: str, tokens: tuple[str, str], even: bool) -> None:
    text = h9(
        f"   1 Kiss Ádám 3k HU Bp {tokens[0]}",
        f"   2 Nagy Éva 3k HU Bp {tokens[1]}",
        header=f"; DT[2026-04-11,2026-04-12]\n{ha}",
    )
    assert parse_h9(text).even is even


TOKEN_FORMS = [
    # header HA, token of player 1 (1d), token of player 2 (4k), expected
    # (black, white, result, played, stones, colour_known, handicap_inferred)
    ("", "2+/w0", "1-/b0", (2, 1, W, True, 0, True, False)),
    ("", "2+/w", "1-/b", (2, 1, W, True, 0, True, False)),  # 23+/w = 23+/w0
    ("", "2-/w3", "1+/b3", (2, 1, B, True, 3, True, False)),
    ("", "2+", "1-", (1, 2, B, True, 0, False, False)),  # no colour, no HA: 0, lower black
    ("; HA[h0]", "2+", "1-", (2, 1, W, True, 4, False, True)),  # 1d − 4k = 4 stones
    ("; HA[h2]", "2+", "1-", (2, 1, W, True, 2, False, True)),  # reduced by 2
    ("; HA[h9]", "2+", "1-", (1, 2, B, True, 0, False, True)),  # h9: never a stone
    ("; HA[h2]", "2+/0", "1-/0", (1, 2, B, True, 0, False, False)),  # explicit 0 stones
    ("; HA[h2]", "2+/w", "1-", (2, 1, W, True, 0, True, False)),  # one colour is enough
    ("", "2+!w0", "1-!b0", (2, 1, W, False, 0, True, False)),  # by default: unplayed
    ("", "2=/w0", "1=/b0", (2, 1, J, True, 0, True, False)),
    ("", "2?/w0", "1?/b0", (2, 1, None, True, 0, True, False)),
    ("", "2+!w0", "1+!b0", (2, 1, None, False, 0, True, False)),  # both win by default
    ("", "2-!w0", "1-!b0", (2, 1, None, False, 0, True, False)),  # both lose by default
    ("", "2+/W0", "1-/B0", (2, 1, W, True, 0, True, False)),  # upper-case colours
]


@pytest.mark.parametrize(
    "ha, first, second, expected",
    TOKEN_FORMS,
    ids=[f"{c[0][2:] or 'noHA'}:{c[1]}|{c[2]}" for c in TOKEN_FORMS],
)
def test_round_token_forms(ha: str, first: str, second: str, expected: tuple[object, ...]) -> None:
    text = h9(
        f"   1 Kiss Ádám 1d HU Bp {first}",
        f"   2 Nagy Éva 4k HU Bp {second}",
        header=f"; DT[2026-04-11,2026-04-12]\n{ha}",
    )
    (game,) = parse_h9(text).games
    assert (
        game.black,
        game.white,
        game.result,
        game.played,
        game.stones,
        game.colour_known,
        game.handicap_inferred,
    ) == expected


def test_double_results_are_recorded() -> None:
    both_win = h9("   1 Kiss Ádám 1d HU Bp 2+!w0", "   2 Nagy Éva 4k HU Bp 1+!b0")
    both_lose = h9("   1 Kiss Ádám 1d HU Bp 2-!w0", "   2 Nagy Éva 4k HU Bp 1-!b0")
    assert parse_h9(both_win).games[0].double is Outcome.WIN
    assert parse_h9(both_lose).games[0].double is Outcome.LOSS
    assert parse_h9(both_win).unknown_results == 0


@pytest.mark.parametrize("sep", ["/", "!"])
def test_both_win_or_lose_is_read_with_either_mark_and_never_played(sep: str) -> None:
    """OpenGotha writes RESULT_BOTHWIN as ``+/`` on both lines: an administrative result,
    unplayed (never rated) whatever the mark, and named in the warnings."""
    both_win = parse_h9(
        h9(f"   1 Kiss Ádám 1d HU Bp 2+{sep}w0", f"   2 Nagy Éva 4k HU Bp 1+{sep}b0")
    )
    both_lose = parse_h9(
        h9(f"   1 Kiss Ádám 1d HU Bp 2-{sep}w0", f"   2 Nagy Éva 4k HU Bp 1-{sep}b0")
    )
    assert [(g.double, g.played, g.result) for g in both_win.games + both_lose.games] == [
        (Outcome.WIN, False, None),
        (Outcome.LOSS, False, None),
    ]
    assert both_win.warnings == (
        "1 game with an administrative result (both win / both lose) is stored and not rated: "
        "round 1 Nagy Éva – Kiss Ádám (both win)",
    )


def test_inferred_handicaps_are_reported() -> None:
    text = h9(
        "   1 Kiss Ádám 1d HU Bp 2+",
        "   2 Nagy Éva 4k HU Bp 1-",
        header="; DT[2026-04-11,2026-04-12]\n; HA[h1]",
    )
    assert "1 game has neither colour nor handicap" in " ".join(parse_h9(text).warnings)


def test_header_keys_comments_and_notes() -> None:
    text = "\n".join(
        [
            ";CL[a]",
            "; EV[Cup [open]] ",
            "; Pl Name Rk Co Club MMS",  # the column titles: a comment
            "; a free comment with DT in it",
            "; XY[something] ZZ[else]",
            "; CM[first]",
            "; CM[second]",
            "; TC[THU260411A]",
            "; DT[2026-04-11]",
            "   1 Kiss Ádám 3k HU Bp 0+",
        ]
    )
    tf = parse_h9(text)
    assert tf.class_ == "a"
    assert tf.name == "Cup [open]"
    assert tf.notes == {"XY": "something", "ZZ": "else"}
    assert tf.comment == "first\nsecond"
    assert tf.code == "THU260411A"
    assert (tf.start, tf.end) == (dt.date(2026, 4, 11), dt.date(2026, 4, 11))
    assert (tf.komi, tf.time_minutes, tf.handicap_rule) == (None, None, None)


def test_a_file_without_dates_warns() -> None:
    tf = parse_h9("   1 Kiss Ádám 3k HU Bp 0+\n")
    assert (tf.start, tf.end) == (None, None)
    assert "no dates" in " ".join(tf.warnings)


KOMI_VALUES = [("6.5", Fraction(13, 2)), ("7,5", Fraction(15, 2)), ("0", 0), ("-0.5", -0.5)]


@pytest.mark.parametrize("text, komi", KOMI_VALUES, ids=[t for t, _ in KOMI_VALUES])
def test_komi_values(text: str, komi: Fraction) -> None:
    tf = parse_h9(h9("   1 Kiss Ádám 3k HU Bp 0+", header=f"; KM[{text}]"))
    assert tf.komi == Fraction(komi)


# ------------------------------------------------------------------ the realistic fixture


@pytest.fixture(scope="module")
def spring_cup() -> TournamentFile:
    return parse_h9(read("spring_cup_40x5.h9"))


def test_spring_cup_shape(spring_cup: TournamentFile) -> None:
    tf = spring_cup
    assert (len(tf.players), tf.rounds) == (40, 5)
    assert tf.name == "Budapest Spring Cup 2026"
    assert (tf.komi, tf.time_minutes, tf.handicap_rule, tf.even) == (Fraction(13, 2), 60, 9, True)
    # round 1: one player absent, 39 others → one bye and 19 games; then 20 games a round
    assert len(tf.games) == 19 + 4 * 20
    assert [(b.round, b.kind) for b in tf.byes] == [(1, "none"), (1, "win")]
    assert sum(not g.played for g in tf.games) == 2
    assert all(g.stones == 0 and g.colour_known for g in tf.games)
    assert tf.encoding == "UTF-8"
    assert tf.warnings == ()


def test_spring_cup_every_player_once_a_round(spring_cup: TournamentFile) -> None:
    for round_number in range(1, 6):
        seen = Counter(
            p for g in spring_cup.games if g.round == round_number for p in g.positions()
        )
        seen.update(b.player for b in spring_cup.byes if b.round == round_number)
        assert sorted(seen) == list(range(1, 41))
        assert set(seen.values()) == {1}


def test_spring_cup_no_repeated_pairings(spring_cup: TournamentFile) -> None:
    pairs = Counter(frozenset(g.positions()) for g in spring_cup.games)
    assert max(pairs.values()) == 1


def test_spring_cup_colours_alternate_and_stronger_usually_wins(
    spring_cup: TournamentFile,
) -> None:
    blacks = Counter(g.black for g in spring_cup.games)
    assert max(blacks.values()) <= 3
    decisive = [
        g
        for g in spring_cup.games
        if g.played and spring_cup.player(g.black).rank != spring_cup.player(g.white).rank
    ]
    stronger_won = sum(
        (g.result is B) == (spring_cup.player(g.black).rank > spring_cup.player(g.white).rank)
        for g in decisive
    )
    assert stronger_won > len(decisive) * 0.6


def test_spring_cup_names_ranks_and_places(spring_cup: TournamentFile) -> None:
    ranks = {p.rank for p in spring_cup.players}
    assert min(ranks) == Rank.kyu(10) and max(ranks) == Rank.dan(4)
    assert any(fold_name(p.name) != p.name.lower() for p in spring_cup.players)  # accents
    assert sum(p.place is None for p in spring_cup.players) >= 1  # tied places left blank
    assert sum(p.egd_pin is not None for p in spring_cup.players) == 30


# ------------------------------------------------------------------ broken files

HEAD = "; DT[2026-04-11,2026-04-12]"
P1 = "   1 Kiss Ádám 1d HU Bp  5  2+/w0 3+/b0"
P2 = "   2 Nagy Éva 4k HU Bp   4  1-/b0 0+"
P3 = "   3 Tóth Jenő 5k HU Bp   3  0+    1-/w0"

BROKEN = [
    # id, file, line, token, message fragment
    ("unknown round token", [P1, P2.replace("1-/b0", "1x/b0"), P3], 3, "1x/b0",
     "is not a round token"),
    ("unknown last round token", [P1, P2.replace("0+", "0*"), P3], 3, "0*",
     "is not a round token"),
    ("unknown criteria token", [P1, P2.replace("  4  ", "  abc  "), P3], 3, "abc",
     "unknown token"),
    ("round count mismatch", [P1, P2.replace(" 0+", ""), P3], 3, "1-/b0",
     "round count mismatch"),
    ("extra round token", [P1, P2 + " 0-", P3], 3, "0-", "round count mismatch"),
    ("opponent out of range", [P1, P2, P3.replace("0+", "7+")], 4, "7+",
     "out of range: the file has 3 player lines"),
    ("opponent is themselves", [P1, P2, P3.replace("0+", "3+")], 4, "3+", "themselves"),
    ("opponent does not answer", [P1, P2.replace("1-/b0", "3-/b0"), P3], 2, "2+/w0",
     "should name opponent 1"),
    ("unknown against a win", [P1, P2.replace("1-/b0", "1?/b0"), P3], 2, "2+/w0",
     "opposite results"),
    ("same colours", [P1, P2.replace("1-/b0", "1-/w0"), P3], 2, "2+/w0", "opposite colours"),
    ("different handicaps", [P1.replace("2+/w0", "2+/w2"), P2.replace("1-/b0", "1-/b3"), P3],
     2, "2+/w2", "the same handicap"),
    ("played against by default", [P1, P2.replace("1-/b0", "1-!b0"), P3], 2, "2+/w0",
     "both played (/) or both by default (!)"),
    ("jigo against a win", [P1, P2.replace("1-/b0", "1=/b0"), P3], 2, "2+/w0",
     "opposite results"),
    ("opponent has a bye", [P1, P2.replace("1-/b0", "0+"), P3], 2, "2+/w0", "must agree"),
    ("bye with a colour", [P1, P2, P3.replace("0+", "0+/w0")], 4, "0+/w0",
     "without an opponent is written 0+"),
    ("bad rank", [P1, P2.replace("4k", "4x"), P3], 3, "4x", "is not a rank"),
    ("rank off the ladder", [P1, P2.replace("4k", "40k"), P3], 3, "40k", "is not a rank"),
    ("rank zero", [P1, P2.replace("4k", "0d"), P3], 3, "0d", "is not a rank"),
    ("no rank", ["   1 Kiss Ádám HU Bp"], 2, "Bp", "no rank after the name"),
    ("no name", ["   1 3k HU Bp 0+"], 2, "3k", "no name before the rank"),
    ("bad country", [P1, P2.replace(" HU ", " HUN "), P3], 3, "HUN", "is not a country"),
    ("no club", ["   1 Kiss Ádám 3k HU"], 2, "3k", "expected a country"),
    ("bad place", ["  1a Kiss Ádám 3k HU Bp 0+"], 2, "1a", "neither a place number"),
    ("no round tokens", ["   1 Kiss Ádám 3k HU Bp 12"], 2, "12", "no round tokens"),
]  # fmt: skip


@pytest.mark.parametrize(
    "lines, line, token, fragment", [c[1:] for c in BROKEN], ids=[c[0] for c in BROKEN]
)
def test_broken_player_lines(lines: list[str], line: int, token: str, fragment: str) -> None:
    with pytest.raises(FormatError) as caught:
        parse_h9("\n".join([HEAD, *lines]))
    assert caught.value.line == line
    assert caught.value.token == token
    assert fragment in str(caught.value)
    assert str(caught.value).startswith(f"line {line}: ")


def test_disagreeing_tokens_name_both_lines() -> None:
    with pytest.raises(FormatError) as caught:
        parse_h9("\n".join([HEAD, P1, P2.replace("1-/b0", "1-/w0"), P3]))
    message = str(caught.value)
    assert "line 2 (Kiss Ádám)" in message and "line 3 (Nagy Éva)" in message
    assert "'1-/w0'" in message


def test_a_player_with_two_games_in_a_round_names_every_bad_line() -> None:
    """Two lines claiming the same opponent in one round: each bad line is named, with the
    player, the round and the game they already have; nothing is read."""
    lines = [
        "   1 Kiss Ádám 1d HU Bp  2+/w0  3+/b0",
        "   2 Nagy Éva 4k HU Bp   1-/b0  4+/w0",
        "   3 Tóth Jenő 5k HU Bp  1-/w0  1-/w0",
        "   4 Szabó Éva 5k HU Bp  2-/w0  2-/b0",
    ]
    with pytest.raises(FormatError) as caught:
        parse_h9("\n".join([HEAD, *lines]))
    assert (caught.value.line, caught.value.token) == (4, "1-/w0")
    assert str(caught.value) == (
        "line 4: round 1: line 4 (Tóth Jenő) has '1-/w0', a game against line 2 (Kiss Ádám), "
        "but Kiss Ádám plays line 3 (Nagy Éva) in that round ('2+/w0'); a player has one game "
        "a round\n"
        "line 5: round 1: line 5 (Szabó Éva) has '2-/w0', a game against line 3 (Nagy Éva), "
        "but Nagy Éva plays line 2 (Kiss Ádám) in that round ('1-/b0'); a player has one game "
        "a round"
    )


BROKEN_HEADERS = [
    ("month 13", "; DT[2026-13-01,2026-13-02]", "impossible date"),
    ("day-month-year", "; DT[11.04.2026,12.04.2026]", "cannot read the dates"),
    ("three dates", "; DT[2026-04-11,2026-04-12,2026-04-13]", "cannot read the dates"),
    ("ends before it starts", "; DT[2026-04-12,2026-04-11]", "ends before it starts"),
    ("bad handicap rule", "; HA[two]", "cannot read the handicap rule"),
    ("bad komi", "; KM[six]", "cannot read the komi"),
    ("bad time", "; TM[1h]", "cannot read the time"),
]


@pytest.mark.parametrize(
    "header, fragment", [c[1:] for c in BROKEN_HEADERS], ids=[c[0] for c in BROKEN_HEADERS]
)
def test_broken_headers(header: str, fragment: str) -> None:
    with pytest.raises(FormatError) as caught:
        parse_h9(f"; EV[Cup]\n{header}\n{P1}\n{P2}\n{P3}\n")
    assert caught.value.line == 2
    assert caught.value.token == header[header.index("[") + 1 : -1]
    assert fragment in str(caught.value)


def test_a_key_given_twice_is_an_error() -> None:
    with pytest.raises(FormatError, match=r"line 3: KM\[…\] is given twice \(lines 1 and 3\)"):
        parse_h9("; KM[6.5]\n; EV[x]\n; KM[7.5]\n   1 Kiss Ádám 3k HU Bp 0+\n")


def test_a_file_without_players_is_an_error() -> None:
    with pytest.raises(FormatError, match="no player lines"):
        parse_h9("; EV[Cup]\n; DT[2026-04-11]\n")


# ------------------------------------------------------------------ writing


@pytest.mark.parametrize("name", ["formats_example.h9", "kis_kupa.h9", "spring_cup_40x5.h9"])
def test_fixtures_round_trip(name: str) -> None:
    tf = parse_h9(read(name))
    assert parse_h9(write_h9(tf)) == tf


def test_written_file_is_plain_h9() -> None:
    written = write_h9(parse_h9(read("formats_example.h9")))
    lines = written.splitlines()
    assert lines[:8] == [
        "; CL[B]",
        "; EV[Budapest Spring Cup 2026]",
        "; PC[HU, Budapest]",
        "; DT[2026-04-11,2026-04-12]",
        "; HA[h2]",
        "; KM[6.5]",
        "; TM[60]",
        "; CM[4 rounds, McMahon, 60 min + 3x30 s byo-yomi]",
    ]
    assert lines[10].split() == ["1", "Nagy", "Péter", "3d", "HU", "Bp", "33", "128", "0", "0",
                                 "4+/w0", "2+/b0", "3+/w0", "3-!w0"]  # fmt: skip
    assert lines[12].split()[:2] == ["Schmidt", "Jonas"]  # the blank place stays blank


def test_writing_uses_hoshis_ranks_for_pros() -> None:
    tf = parse_h9(h9("   1 Cho Hun 9p KR Seo 0+"))
    assert "Cho Hun" in write_h9(tf)
    assert parse_h9(write_h9(tf)).player(1).rank == Rank.dan(7)


def test_unpaired_rounds_are_written_as_not_paired() -> None:
    tf = TournamentFile(
        name="x",
        start=None,
        end=None,
        rounds=2,
        players=(FilePlayer(1, 0, "Kiss Ádám", Rank.kyu(3)),),
        byes=(FileBye(1, 1, "win"),),
    )
    assert parse_h9(write_h9(tf)).byes == (FileBye(1, 1, "win"), FileBye(2, 1, "none"))


def test_writing_refuses_a_player_twice_in_a_round() -> None:
    tf = TournamentFile(
        name="x",
        start=None,
        end=None,
        rounds=1,
        players=(
            FilePlayer(1, 0, "Kiss Ádám", Rank.kyu(3)),
            FilePlayer(2, 0, "Nagy Éva", Rank.kyu(3)),
        ),
        games=(FileGame(1, 1, 2, B),),
        byes=(FileBye(1, 1, "win"),),
    )
    with pytest.raises(ValueError, match="two entries in round 1"):
        write_h9(tf)


# ------------------------------------------------------------------ property: write then read

NAME_LETTERS = string.ascii_letters + "áéíóöőúüűÁÉÍÓÖŐÚÜŰ'-"
words = st.text(NAME_LETTERS, min_size=1, max_size=8).filter(lambda w: w[0] not in "'-")
names = st.lists(words, min_size=1, max_size=3).map(" ".join)
header_text = st.text(string.ascii_letters + string.digits + " ,.-áé", min_size=1, max_size=20)
header_values = header_text.map(str.strip).filter(bool)
criteria_values = st.from_regex(r"\A(?:[0-9]{1,3}(?:\.5)?|½|)\Z")


@st.composite
def tournaments(draw: st.DrawFn) -> TournamentFile:
    n = draw(st.integers(2, 10))
    rounds = draw(st.integers(1, 4))
    titles = draw(st.lists(st.sampled_from(["MMS", "SOS", "SOSOS", "NBW", "criterion 2"]),
                           max_size=3))  # fmt: skip
    rule = draw(st.none() | st.integers(0, 12))
    players = tuple(
        FilePlayer(
            position=i,
            line=0,
            name=draw(names),
            # a professional (Np) is read as 7d and keeps their N
            rank=Rank.dan(7) if (pro := draw(st.sampled_from([0, 0, 0, 0, 1, 9]))) else
                 Rank(draw(st.integers(-34, 9))),
            pro=pro,
            country=draw(st.none() | st.sampled_from(["HU", "DE", "PL", "SE", "JP"])),
            club=draw(st.none() | st.text(string.ascii_letters + "éő", min_size=1, max_size=5)
                      .filter(lambda c: c.lower() != "xxxx")),
            egd_pin=draw(st.none() | st.from_regex(r"\A[1-9][0-9]{7}\Z")),
            place=draw(st.none() | st.integers(1, 99)),
            criteria=tuple(zip(titles, draw(st.lists(criteria_values, min_size=len(titles),
                                                     max_size=len(titles))), strict=True)),
        )
        for i in range(1, n + 1)
    )  # fmt: skip
    games: list[FileGame] = []
    byes: list[FileBye] = []
    for r in range(1, rounds + 1):
        order = draw(st.permutations(range(1, n + 1)))
        paired = draw(st.integers(0, n // 2))
        for k in range(paired):
            a, b = order[2 * k], order[2 * k + 1]
            played = draw(st.booleans())
            double = None if played else draw(st.none() | st.sampled_from(list(Outcome)[:2]))
            result = None if double else draw(st.sampled_from([B, W, J, None]))
            colour_known = draw(st.booleans())
            stones = draw(st.integers(0, 9))
            if colour_known:
                black, white = (a, b) if draw(st.booleans()) else (b, a)
            else:
                if rule is None:
                    stones = 0
                low, high = min(a, b), max(a, b)
                ra, rb = players[low - 1].rank, players[high - 1].rank
                black, white = (low, high)
                if stones and ra != rb:  # the weaker player takes black
                    black, white = (low, high) if ra < rb else (high, low)
            games.append(FileGame(r, black, white, result, played, stones, colour_known,
                                  double=double))  # fmt: skip
        for p in order[2 * paired :]:
            byes.append(FileBye(r, p, draw(st.sampled_from(["win", "half", "none"]))))
    games.sort(key=lambda g: (g.round, min(g.black, g.white)))
    byes.sort(key=lambda b: (b.round, b.player))
    even = all(g.stones == 0 for g in games) if rule is None else rule >= 9
    return TournamentFile(
        name=draw(header_values),
        start=dt.date(2026, 4, 11),
        end=dt.date(2026, 4, draw(st.integers(11, 30))),
        rounds=rounds,
        komi=draw(st.none() | st.sampled_from([Fraction(13, 2), Fraction(15, 2), Fraction(0)])),
        time_minutes=draw(st.none() | st.integers(1, 300)),
        handicap_rule=rule,
        even=even,
        class_=draw(st.none() | st.sampled_from("ABCD")),
        place=draw(st.none() | header_values),
        code=draw(st.none() | header_values),
        comment=draw(st.none() | header_values),
        notes=draw(st.dictionaries(st.sampled_from(["XY", "QQ", "RO"]), header_values)),
        players=players,
        games=tuple(games),
        byes=tuple(byes),
        unknown_results=sum(1 for g in games if g.result is None and g.double is None),
    )


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_write_then_read_gives_the_same_tournament(tf: TournamentFile) -> None:
    assert parse_h9(write_h9(tf)) == tf


@settings(max_examples=30, deadline=None)
@given(tournaments())
def test_written_files_read_the_same_as_latin9_bytes(tf: TournamentFile) -> None:
    text = write_h9(tf)
    try:
        data = text.encode("iso8859_15")
    except UnicodeEncodeError:  # ő and ű are not in ISO-8859-15
        return
    assert parse_h9(data) == tf


# ------------------------------------------------------------------ the kept header


def test_kept_header_holds_what_a_tournament_does_not() -> None:
    tf = parse_h9(read("formats_example.h9"))
    assert kept_header(tf).splitlines() == [
        "; PC[HU, Budapest]",
        "; HA[h2]",
        "; KM[6.5]",
        "; CM[4 rounds, McMahon, 60 min + 3x30 s byo-yomi]",
    ]
    # a file without HA and KM: kept as absent, so that the export does not invent them
    bare = parse_h9("; EV[Cup]\n; DT[2026-04-11]\n   1 Kiss Ádám 3k HU Bp 0+\n")
    assert kept_header(bare) == "; HA[]\n; KM[]"


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_with_kept_header_gives_back_the_files_header(tf: TournamentFile) -> None:
    """A club's tournament holds name, dates, class, time, even and the handicap reduction;
    the kept lines give back the rest exactly as the file had it."""
    stored = dataclasses.replace(
        tf,
        handicap_rule=9 if tf.even else (tf.handicap_rule or 0),
        komi=Fraction(13, 2),
        place=None,
        code=None,
        comment=None,
        notes={},
    )
    assert with_kept_header(stored, kept_header(tf)) == tf


def test_with_kept_header_follows_an_amended_tournament() -> None:
    tf = parse_h9(read("formats_example.h9"))  # HA[h2]
    amended = dataclasses.replace(tf, handicap_rule=9, even=True)  # amended: even
    assert with_kept_header(amended, kept_header(tf)).handicap_rule == 9
    assert with_kept_header(tf, None) == tf


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_an_h9_saved_as_utf16_reads_as_the_same_table(encoding: str) -> None:
    """Issue 26: a UTF-16 h9 (Windows' "Unicode" text, with or without its byte order mark)
    was refused with a confusing reason; it reads as the UTF-8 file does, saying UTF-16."""
    text = "; EV[Őszi Kupa]\n; DT[2026-04-18,2026-04-18]\n; Pl Name Rk Co Club\n" \
        "   1 Szabó Éva 5k HU Bp 2+/b0\n   2 Tóth Ádám 6k HU Bp 1-/w0\n"  # fmt: skip
    wide = parse_h9(text.encode(encoding))
    narrow = parse_h9(text.encode("utf-8"))
    assert wide.encoding == "UTF-16"
    assert (wide.name, wide.players, wide.games) == (narrow.name, narrow.players, narrow.games)
