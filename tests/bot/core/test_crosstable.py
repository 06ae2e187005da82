"""bot.core.crosstable: the standings as OpenGotha's crosstable notation, a reply table and a
picture. The notation is checked against hand-written rows and against real OpenGotha h9
files (their own round and criteria columns); the picture against every text it draws."""

from __future__ import annotations

import io
import itertools
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.chart import MISSING_GLYPH
from bot.core.crosstable import (
    Crosstable,
    crosstable,
    crosstable_figure,
    render_crosstable,
    standings_table,
)
from bot.core.replies import Reply
from bot.i18n import using
from engine.formats.h9 import parse_h9
from engine.formats.tournament_file import criterion_value
from engine.pairing.standings import (
    MCMAHON_ORDER,
    Criterion,
    Entrant,
    RoundGame,
    Scoring,
    Standing,
    Unpaired,
    from_file,
    h9_text,
    standings,
)
from engine.ranks import Rank
from engine.types import Outcome, Result
from tests.bot.core.test_chart import (
    LANGUAGES,
    PNG_SIGNATURE,
    DrawnTexts,
    ihdr_size,
    names,
    overlapping,
)
from tests.engine.pairing.test_standings import (
    DATA,
    KNOWN,
    REAL_FILES,
    RealFile,
    written_columns,
)

F = Fraction


def line(pid: int, place: int, mms: int = 0, sos: Fraction = Fraction()) -> Standing:
    """A standing written by hand (the engine's arithmetic is tested in its own module)."""
    zero = F(0)
    return Standing(pid, F(mms), F(mms), zero, sos, zero, zero, zero, zero, place=place)


# rows by hand: ids 10, 20, 30, 40, 50 placed 1st, 2nd, 2nd (tied), 4th, 5th
FIVE = (line(10, 1, 3), line(20, 2, 2, F(5)), line(30, 2, 2, F(5)), line(40, 4, 1), line(50, 5))
NAMES = {10: "Nagy Péter", 20: "山田太郎", 30: "Kovács Anna", 40: "Tóth Ádám", 50: "Åsa Öberg"}
RANKS = {10: "3d", 20: "1k", 30: "2k", 40: "5k", 50: "12k"}


def cells_of(table: Crosstable) -> dict[int, tuple[str, ...]]:
    return {row.player: row.cells for row in table.rows}


def test_the_notation_of_wins_losses_jigo_and_handicaps() -> None:
    games = [
        RoundGame(1, 10, 20, Result.BLACK, handicap=2),  # 10 black with 2 stones beats row 2
        RoundGame(1, 30, 40, Result.JIGO),
        RoundGame(2, 40, 10, Result.BLACK),  # 10 white loses to row 4 in an even game
        RoundGame(2, 20, 30, Result.WHITE, handicap=9),
    ]
    got = cells_of(crosstable(FIVE, NAMES, RANKS, games, [Unpaired(1, 50, "bye")], 2, ()))
    assert got[10] == ("2+/b2", "4-/w")
    assert got[20] == ("1-/w2", "3-/b9")
    assert got[30] == ("4=/b", "2+/w9")
    assert got[40] == ("3=/w", "1+/b")


def test_byes_absences_and_rounds_without_a_game() -> None:
    """A bye counted as a win ``0+``, an absence worth half a point ``0=`` (OpenGotha's
    default), worth nothing ``0-`` (a club's setting), and a round the player was neither
    paired nor given the bye ``0-``."""
    unpaired = [Unpaired(1, 50, "bye"), Unpaired(2, 50, "absent"), Unpaired(1, 40, "absent")]
    games = [RoundGame(1, 10, 20, Result.WHITE), RoundGame(2, 10, 40, Result.BLACK)]
    got = cells_of(crosstable(FIVE, NAMES, RANKS, games, unpaired, 2, ()))
    assert got[50] == ("0+", "0=")
    assert got[40] == ("0=", "1-/w")
    assert got[30] == ("0-", "0-")
    stingy = Scoring(absent_mms_x2=0)
    got = cells_of(crosstable(FIVE, NAMES, RANKS, games, unpaired, 2, (), scoring=stingy))
    assert got[50] == ("0+", "0-")


def test_no_result_yet_and_a_referee_s_double_result() -> None:
    games = [
        RoundGame(1, 10, 20, None, handicap=3),  # paired, no result yet
        RoundGame(1, 30, 40, None, double=Outcome.WIN),  # both won
        RoundGame(2, 10, 30, None, double=Outcome.LOSS),  # both lost
    ]
    got = cells_of(crosstable(FIVE, NAMES, RANKS, games, [], 2, ()))
    assert got[10] == ("2?/b3", "3-/b")
    assert got[20] == ("1?/w3", "0-")
    assert (got[30], got[40]) == (("4+/b", "1-/w"), ("3+/w", "0-"))


def test_later_rounds_are_left_out() -> None:
    games = [RoundGame(1, 10, 20, Result.BLACK), RoundGame(2, 10, 30, Result.BLACK)]
    table = crosstable(FIVE, NAMES, RANKS, games, [Unpaired(3, 40, "bye")], 1, ())
    assert cells_of(table)[10] == ("2+/b",) and table.rounds == 1


def test_tied_players_share_a_place_written_once() -> None:
    """OpenGotha prints a shared place on the first row of the tie, blank after it; the
    cells name rows by number, so the tied rows 2 and 3 stay apart."""
    games = [RoundGame(1, 10, 30, Result.BLACK)]
    table = crosstable(FIVE, NAMES, RANKS, games, [], 1, ("MMS", "SOSM"))
    assert [(r.number, r.place, r.place_text) for r in table.rows] == [
        (1, 1, "1"),
        (2, 2, "2"),
        (3, 2, ""),
        (4, 4, "4"),
        (5, 5, "5"),
    ]
    assert cells_of(table)[10] == ("3+/b",)
    assert table.rows[1].values == (F(2), F(5))


def test_an_unknown_player_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown player 99"):
        crosstable(FIVE, NAMES, RANKS, [RoundGame(1, 10, 99, Result.BLACK)], [], 1, ())
    with pytest.raises(ValueError, match="unknown player 99"):
        crosstable(FIVE, NAMES, RANKS, [], [Unpaired(1, 99, "bye")], 1, ())


# --- the reply table --------------------------------------------------------------------------


def test_the_reply_table_headings_and_numbers_in_english() -> None:
    halves = (line(10, 1, 3, F(25, 2)), line(20, 2, 2, F(7)))
    table = crosstable(halves, NAMES, RANKS, [RoundGame(1, 10, 20, Result.BLACK)], [], 1, [
        "NBW", "MMS", "SOSM"
    ])  # fmt: skip
    reply = standings_table(table)
    assert reply.header == ("Place", "Name", "Rank", "R1", "Wins", "MMS", "SOS")
    assert reply.rows[0] == ("1", "Nagy Péter", "3d", "2+/b", "3", "3", "12.5")
    text = Reply(blocks=(reply,)).as_text().splitlines()
    assert text[2].startswith("    2  山田太郎") and text[2].endswith("7")


@pytest.mark.parametrize(
    ("language", "half", "quarter"),
    [("en", "12.5", "3.25"), ("hu", "12,5", "3,25"), ("sv", "12,5", "3,25"),
     ("ja", "12.5", "3.25")],
)  # fmt: skip
def test_half_and_quarter_points_in_the_reader_s_language(
    language: str, half: str, quarter: str
) -> None:
    one = (Standing(10, F(1), F(1), F(0), F(25, 2), F(0), F(0), F(0), F(13, 4), place=1),)
    table = crosstable(one, NAMES, RANKS, [], [], 1, ("SOSM", "SODOSM"))
    with using(language):
        assert standings_table(table).rows[0][-2:] == (half, quarter)


def test_both_sos_variants_are_named_in_full() -> None:
    table = crosstable(FIVE, NAMES, RANKS, [], [], 1, ("MMS", "SOSW", "SOSM"))
    assert standings_table(table).header[-3:] == ("MMS", "SOSW", "SOSM")


# --- real OpenGotha files ---------------------------------------------------------------------


def real_crosstable(real: RealFile) -> tuple[Crosstable, list[str]]:
    """A real file's crosstable (start MMS as test_standings derives them, placed by the
    file's own criteria) and its player lines."""
    data = (DATA / real.name).read_bytes()
    tf = parse_h9(data)
    starts = {
        p.position: 30
        + (p.rank.clamp(real.floor, real.bar) - Rank.dan(1))
        + (p.name.lower() in real.corrected)
        for p in tf.players
    }
    entrants, games, unpaired = from_file(tf, starts)
    scoring = Scoring(round_down=real.round_down)
    columns = [KNOWN[c] for c in real.columns if c in KNOWN]  # the file's order of places
    lines = standings(entrants, games, unpaired, tf.rounds, columns, scoring)
    names = {p.position: p.name for p in tf.players}
    ranks = {p.position: str(p.rank) for p in tf.players}
    table = crosstable(lines, names, ranks, games, unpaired, tf.rounds, columns, scoring)
    text = data.decode("latin-1").splitlines()
    return table, [text[p.line - 1] for p in tf.players]


@pytest.mark.parametrize("real", REAL_FILES, ids=lambda f: f.name)
def test_a_real_opengotha_file_reads_as_its_own_columns(real: RealFile) -> None:
    """Place, name, every round's cell and every criterion as OpenGotha wrote them (its
    ``/w0`` read as hoshi's ``/w``, its ``!w`` of a result by default as ``/w``: the engine's
    ``RoundGame`` does not say so; its ``½`` as the reply's ``.5``)."""
    table, lines = real_crosstable(real)
    reply = standings_table(table)
    known = [i for i, c in enumerate(real.columns) if c in KNOWN]
    assert len(table.rows) == len(lines) and known
    for row, shown, written in zip(table.rows, reply.rows, lines, strict=True):
        assert row.place_text == written[:4].strip()
        assert row.name == shown[1] and written[5:].replace("_", " ").startswith(row.name)
        rounds = [re.sub(r"[/!]([bw])0?$", r"/\1", c) for c in written.split()[-table.rounds :]]
        assert list(row.cells) == rounds == list(shown[3 : 3 + table.rounds]), row.name
        criteria = written_columns(written, len(real.columns))
        for k, value, text in zip(known, row.values, shown[3 + table.rounds :], strict=True):
            quarters = KNOWN[real.columns[k]].startswith("SODOS")
            assert h9_text(value, quarters) == criteria[k], (row.name, real.columns[k])
            assert criterion_value(text) == criterion_value(criteria[k]) == value


# --- the picture ------------------------------------------------------------------------------

RESULTS = st.sampled_from([Result.BLACK, Result.WHITE, Result.JIGO, None])


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[Crosstable, str]:
    """A tournament of 2 to 40 players and 1 to 10 rounds, long Latin and Japanese names,
    handicaps up to 9, byes, absences and games without a result yet."""
    n = draw(st.integers(2, 40))
    rounds = draw(st.integers(1, 10))
    entrants = [Entrant(p, draw(st.integers(0, 40))) for p in range(1, n + 1)]
    games: list[RoundGame] = []
    unpaired: list[Unpaired] = []
    for r in range(1, rounds + 1):
        order = list(draw(st.permutations(range(1, n + 1))))
        absent = draw(st.integers(0, max(0, n - 2)))
        unpaired += [Unpaired(r, p, "absent") for p in order[:absent]]
        present = order[absent:]
        if len(present) % 2:
            unpaired.append(Unpaired(r, present.pop(), "bye"))
        for i in range(0, len(present), 2):
            hd = draw(st.sampled_from([0, 0, 2, 9]))
            games.append(RoundGame(r, present[i], present[i + 1], draw(RESULTS), hd))
    criteria: tuple[Criterion, ...] = draw(
        st.sampled_from([MCMAHON_ORDER, ("NBW", "SOSW", "SOSOSW", "SODOSW"), ("MMS",)])
    )
    lines = standings(entrants, games, unpaired, rounds=rounds, order=criteria)
    who = {p: draw(names) for p in range(1, n + 1)}
    ranks = {p: draw(st.sampled_from(["30k", "5k", "1d", "9d", "初段"])) for p in range(1, n + 1)}
    title = draw(names)
    return crosstable(lines, who, ranks, games, unpaired, rounds, criteria), title


@given(tournament=tournaments(), language=st.sampled_from(LANGUAGES))
@settings(max_examples=12)
def test_every_text_lies_inside_the_picture_and_apart(
    tournament: tuple[Crosstable, str], language: str
) -> None:
    """No text is clipped or drawn over another, whatever the names, title, players, rounds
    and language: every text a draw puts in the saved picture lies inside it, none overlap."""
    table, title = tournament
    with using(language):
        fig = crosstable_figure(table, title)
    with pytest.MonkeyPatch.context() as monkeypatch:
        drawn = DrawnTexts(monkeypatch)
        fig.savefig(io.BytesIO(), format="png")
    picture = fig.bbox
    cells = sum(len(r.cells) + len(r.values) for r in table.rows)
    assert len(drawn.seen) >= cells, "a cell was not drawn"
    for text, box in drawn.seen:
        assert picture.x0 <= box.x0 and box.x1 <= picture.x1, (text, box)
        assert picture.y0 <= box.y0 and box.y1 <= picture.y1, (text, box)
    for (a, box_a), (b, box_b) in itertools.combinations(drawn.seen, 2):
        assert not overlapping(box_a, box_b), (a, b, box_a, box_b)


def test_japanese_names_are_drawn_and_a_long_name_is_shortened() -> None:
    long = "Szentgyörgyi-Kovácsházi Bernadett Erzsébet Mária Magdolna Katalin"
    who = {**NAMES, 30: long}
    table = crosstable(FIVE, who, RANKS, [RoundGame(1, 10, 20, Result.BLACK)], [], 1, ["MMS"])
    with using("ja"):
        fig = crosstable_figure(table, "春季大会 — 囲碁クラブ")
    texts = [t.get_text() for t in fig.texts]
    assert "山田太郎" in texts and "春季大会 — 囲碁クラブ" in texts
    assert not any(MISSING_GLYPH in t for t in texts)
    shortened = [t for t in texts if t.endswith("\u2026")]
    assert len(shortened) == 1 and long.startswith(shortened[0][:-1])


def test_the_picture_is_a_png_sized_to_its_table() -> None:
    small = crosstable(FIVE[:2], NAMES, RANKS, [RoundGame(1, 10, 20, Result.BLACK)], [], 1, [])
    png = render_crosstable(small, "Cup")
    assert png.startswith(PNG_SIGNATURE)
    table, _lines = real_crosstable(REAL_FILES[0])  # 19 players, 4 rounds
    big = render_crosstable(table, "Tournoi de Juvisy")
    (w1, h1), (w2, h2) = ihdr_size(png), ihdr_size(big)
    assert w2 > w1 and h2 > h1


def test_the_title_is_set_smaller_then_shortened_to_the_width() -> None:
    small = crosstable(FIVE[:2], NAMES, RANKS, [], [], 1, [])
    title = "Budapesti Go Klub őszi bajnoksága, Magyar Go Szövetség " * 3
    fig = crosstable_figure(small, title)
    heading = next(t for t in fig.texts if t.get_text().startswith("Budapesti"))
    assert float(heading.get_fontsize()) < 13 and heading.get_text().endswith("\u2026")
