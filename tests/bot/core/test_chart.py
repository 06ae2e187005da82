"""Rating charts: a valid PNG sized for a phone, with or without data."""

from __future__ import annotations

import datetime as dt
import io
import itertools
import struct
import sys
from pathlib import Path
from typing import Any

import matplotlib.dates as mdates
import matplotlib.image as mpimg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.text import Text
from matplotlib.transforms import Bbox

import storage
from bot.core.chart import (
    MISSING_GLYPH,
    Band,
    ChartData,
    Marker,
    chart_figure,
    cjk_font_file,
    font_family,
    render_chart,
    render_movers,
    signed_number,
)
from bot.core.handlers.ratings import chart_data
from bot.i18n import using
from engine.systems import SYSTEMS
from tests.bot.core.fakechat import FakeChat

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
DAY = dt.date(2026, 4, 1)


def ihdr_size(png: bytes) -> tuple[int, int]:
    """Width and height from the PNG header (standard library only)."""
    assert png.startswith(PNG_SIGNATURE)
    length, kind = struct.unpack(">I4s", png[8:16])
    assert (length, kind) == (13, b"IHDR")
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def decoded(png: bytes) -> tuple[int, int]:
    """Height and width as matplotlib decodes the pixels (the whole file must be valid)."""
    pixels = mpimg.imread(io.BytesIO(png), format="png")
    return pixels.shape[0], pixels.shape[1]


def series(n: int, start: float = 1720.0, step: float = 12.5) -> tuple[tuple[dt.date, float], ...]:
    return tuple((DAY + dt.timedelta(days=7 * i), start + step * i) for i in range(n))


@pytest.mark.parametrize(
    "data",
    [
        ChartData("Nagy Péter — MGSZ", "Elo", series(6),
                  bands=(Band(1720, 1765, "5k"), Band(1765, 1815, "4k"), Band(0, 10, "off")),
                  markers=(Marker(DAY + dt.timedelta(days=14), "Spring Cup"),)),
        ChartData("One point", "Elo", series(1)),
        ChartData("Flat", "points", series(5, step=0)),
        ChartData("Many tournaments", "Elo", series(30),
                  markers=tuple(Marker(DAY + dt.timedelta(days=7 * i), f"Cup {i}")
                                for i in range(12))),
        ChartData("Empty", "Elo", ()),
    ],
    ids=["bands-and-marker", "one-point", "flat", "many-markers", "empty"],
)  # fmt: skip
def test_the_chart_is_a_phone_sized_png(data: ChartData) -> None:
    png = render_chart(data)
    assert ihdr_size(png) == (1080, 720)
    assert decoded(png) == (720, 1080)
    assert png.endswith(b"IEND\xaeB`\x82")


def test_different_data_draws_different_pictures() -> None:
    a = render_chart(ChartData("A", "Elo", series(5)))
    b = render_chart(ChartData("A", "Elo", series(5, step=-20)))
    assert a != b


def test_an_empty_series_says_there_is_nothing_yet() -> None:
    empty = render_chart(ChartData("Nagy Péter", "Elo", ()))
    other = render_chart(ChartData("Nagy Péter", "Elo", series(2)))
    assert empty != other and ihdr_size(empty) == (1080, 720)


def visible(ticks: list[float], limits: tuple[float, float]) -> list[float]:
    low, high = limits
    return [t for t in ticks if low <= t <= high]


def test_a_one_day_chart_shows_some_days_either_side() -> None:
    """Every change on one date (a first club evening): days around it, not years or hours."""
    data = ChartData("One evening", "points", ((DAY, 70.0), (DAY, 71.0), (DAY, 72.0)))
    ax = chart_figure(data).axes[0]
    low, high = ax.get_xlim()
    day = mdates.date2num(DAY)
    assert day - 10 <= low <= day - 2 and day + 2 <= high <= day + 10
    ticks = visible(list(ax.get_xticks()), (low, high))
    assert len(ticks) >= 3 and all(t == int(t) for t in ticks)  # whole days, no hours


def test_a_short_span_has_day_ticks() -> None:
    data = ChartData("Three days", "Elo", ((DAY, 1720.0), (DAY + dt.timedelta(days=2), 1731.0)))
    ax = chart_figure(data).axes[0]
    assert all(t == int(t) for t in visible(list(ax.get_xticks()), ax.get_xlim()))


@pytest.mark.parametrize("values", [(70, 71, 72), (1720, 1721), (0, 1, 0, -1), (1720, 1838, 1901)])
def test_integer_ratings_get_integer_ticks(values: tuple[int, ...]) -> None:
    points = tuple((DAY + dt.timedelta(days=i), float(v)) for i, v in enumerate(values))
    ax = chart_figure(ChartData("Whole points", "points", points)).axes[0]
    ticks = visible(list(ax.get_yticks()), ax.get_ylim())
    assert len(ticks) >= 3 and all(t == int(t) for t in ticks)


def test_half_points_may_have_half_ticks() -> None:
    points = ((DAY, 37.5), (DAY + dt.timedelta(days=7), 38.0))
    ax = chart_figure(ChartData("Swedish", "points toward 1d", points)).axes[0]
    assert len(visible(list(ax.get_yticks()), ax.get_ylim())) >= 3


JAPANESE = ChartData(
    "山田太郎 — 点数制",
    "点数",
    series(8, start=70, step=3),
    bands=(Band(60, 80, "初段"), Band(80, 100, "二段")),
    markers=(Marker(DAY + dt.timedelta(days=14), "春季大会"),),
)


def test_japanese_names_and_labels_are_drawn_with_a_japanese_font() -> None:
    """Issue 13: every Japanese character has a glyph (IPAexGothic from matplotlib-fontja)
    — none is replaced by □, and matplotlib warns of no missing glyph (warnings are errors
    in this suite)."""
    with using("ja"):
        fig = chart_figure(JAPANESE)
        png = render_chart(JAPANESE)
    ax = fig.axes[0]
    texts = [ax.title.get_text(), ax.yaxis.label.get_text()]
    texts += [t.get_text() for t in ax.texts]
    assert texts[:2] == ["山田太郎 — 点数制", "点数"]
    assert {"初段", "二段", "春季大会"} <= set(texts)
    assert not any(MISSING_GLYPH in t for t in texts)
    # the dates on the time axis are Japanese too (月, 日)
    fig.canvas.draw()
    dates = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert dates and all("月" in d for d in dates), dates
    assert ihdr_size(png) == (1080, 720)


def test_the_week_s_movers_draw_japanese_and_polish_names() -> None:
    movers = [("山田太郎", 12.0), ("Łukasz Żółć", -4.5), ("Åsa Öberg", 3.0)]
    with using("pl"):
        png = render_movers("週間まとめ — Łódź", movers)
    assert png.startswith(PNG_SIGNATURE)


@pytest.mark.parametrize("language", ["en", "hu", "ja", "sv", "pl"])
def test_a_decimal_change_uses_the_language_s_decimal_mark(language: str) -> None:
    with using(language):
        text = signed_number(-4.5)
    mark = "." if language in ("en", "ja") else ","
    minus = "\u2212" if language == "sv" else "-"  # Babel's (CLDR's) minus sign
    assert text == f"{minus}4{mark}5"


def test_the_chart_fonts_come_from_the_installed_wheel() -> None:
    """The font file is found in the matplotlib-fontja wheel without importing it (an
    import would change matplotlib's settings for every figure)."""
    path = cjk_font_file()
    assert path is not None and path.name == "ipaexg.ttf"
    assert font_family() == ("DejaVu Sans", "IPAexGothic")
    assert "matplotlib_fontja" not in sys.modules


# -- tournaments marked under every system (issue 24, item 6) ----------------------------------

TOURNAMENT_PLAYERS = ("Nagy Péter 6k", "Kovács Anna 7k", "Tóth Ádám 8k", "Szabó Éva 9k")
CUP_END = dt.date(2026, 4, 12)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
async def test_a_tournament_played_is_marked_under_every_system(
    tmp_path: Path, system: str
) -> None:
    """Each system gives a tournament's changes its own shape (one row for the whole
    tournament: MGSZ, Swedish, GoR; a row per game and day: PSG; a row per game: Tensuusei),
    and each chart marks the tournament once, at its last change; a club game is no marker."""
    chat = await FakeChat.open(tmp_path, system, players=TOURNAMENT_PLAYERS)
    try:
        await chat.ok("/result Nagy Péter Tóth Ádám B+ date=2026-04-08")
        await storage.end_day(chat.db, chat.club, dt.date(2026, 4, 8))
        await chat.ok(
            '/tournament new Spring Cup start=2026-04-11 end=2026-04-12 rounds=2 time="60m 3x30s"'
        )
        for line in (
            "1 Nagy Péter Kovács Anna B+ date=2026-04-11",
            "1 Tóth Ádám Szabó Éva W+ date=2026-04-11",
            "2 Nagy Péter Szabó Éva B+ date=2026-04-12",
            "2 Tóth Ádám Kovács Anna W+ date=2026-04-12",
        ):
            await chat.ok(f"/tournament result {line}")
        await chat.ok("/tournament finalise Spring Cup confirm")
        for name in ("Nagy Péter", "Szabó Éva"):
            data = await chart_data(chat.db, chat.club, await chat.player(name))
            assert data is not None
            assert data.markers == (Marker(CUP_END, "Spring Cup"),), (name, data.markers)
            ax = chart_figure(data).axes[0]
            assert "Spring Cup" in {t.get_text() for t in ax.texts}
        said = await chat.ok("/chart Nagy Péter")
        assert said.reply.picture is not None
    finally:
        await chat.close()


# -- every text inside the picture, none over another (issue 24, item 6) -----------------------

LANGUAGES = ("en", "hu", "ja", "pl", "sv")
LETTERS = "abcdefghijklmnopqrstuvwxyzÁÉÍÓÖŐÚÜŰáéíóöőúüűĄĆĘŁŃŚŹŻąćęłńśźżÅÄÖåäö"
KANA_KANJI = "山田太郎春季大会点数制初段二段囲碁クラブ名人戦ー"
names = st.text(alphabet=LETTERS + KANA_KANJI + " —,.'$()#0123456789", min_size=1, max_size=80)


@st.composite
def charts(draw: st.DrawFn) -> ChartData:
    """A chart as any club could ask for: a few points or many, over days or years, long
    Latin and Japanese names, rank bands of any width, markers close together."""
    start = draw(st.dates(dt.date(2000, 1, 1), dt.date(2035, 12, 31)))
    step = draw(st.sampled_from([0, 1, 3, 7, 30, 90, 365]))
    n = draw(st.integers(0, 60))
    values = draw(st.lists(st.integers(-50, 3000), min_size=n, max_size=n))
    points = tuple(
        (start + dt.timedelta(days=step * i + draw(st.integers(0, max(step - 1, 0)))), float(v))
        for i, v in enumerate(sorted(values) if draw(st.booleans()) else values)
    )
    width = draw(st.sampled_from([5, 20, 50, 400]))
    bands = (
        tuple(
            Band(low, low + width, draw(st.sampled_from(["30k", "5k", "1d", "7d", "初段", "9p"])))
            for low in range(-100, 3100, width)
        )
        if draw(st.booleans())
        else ()
    )
    last = max((d for d, _v in points), default=start)
    span = (last - start).days
    markers = tuple(
        Marker(start + dt.timedelta(days=draw(st.integers(0, span))), draw(names))
        for _ in range(draw(st.integers(0, 15)))
    )
    return ChartData(draw(names), draw(names), points, bands, markers)


class DrawnTexts:
    """Every text a draw puts in the picture, with its extent in pixels: a spy on matplotlib's
    ``Text.draw`` (tick labels, titles, annotations all draw through it). Saving a PNG draws
    the figure twice: each text counts once."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.drawn: dict[int, tuple[str, Bbox]] = {}
        draw = Text.draw

        def spy(text: Text, renderer: Any) -> None:
            draw(text, renderer)
            if text.get_visible() and text.get_text():
                self.drawn[id(text)] = (text.get_text(), text.get_window_extent(renderer))

        monkeypatch.setattr(Text, "draw", spy)

    @property
    def seen(self) -> list[tuple[str, Bbox]]:
        return list(self.drawn.values())


def overlapping(a: Bbox, b: Bbox) -> bool:
    return min(a.x1, b.x1) - max(a.x0, b.x0) > 1 and min(a.y1, b.y1) - max(a.y0, b.y0) > 1


@given(data=charts(), language=st.sampled_from(LANGUAGES))
@settings(max_examples=30)
def test_every_text_lies_inside_the_picture_and_apart(data: ChartData, language: str) -> None:
    """No label is clipped ("Club games, Novemb"): every text a draw puts in the saved
    picture lies inside it, and no two overlap — whatever the names, dates, bands, markers
    and language."""
    with using(language):
        fig = chart_figure(data)
    with pytest.MonkeyPatch.context() as monkeypatch:
        drawn = DrawnTexts(monkeypatch)
        fig.savefig(io.BytesIO(), format="png")  # as render_chart saves it
    picture = fig.bbox
    assert (picture.width, picture.height) == (1080, 720)
    assert drawn.seen, "nothing was drawn"
    for text, box in drawn.seen:
        assert picture.x0 <= box.x0 and box.x1 <= picture.x1, (text, box)
        assert picture.y0 <= box.y0 and box.y1 <= picture.y1, (text, box)
    for (a, box_a), (b, box_b) in itertools.combinations(drawn.seen, 2):
        assert not overlapping(box_a, box_b), (a, b, box_a, box_b)


def test_a_marker_label_is_drawn_whole() -> None:
    """The new organiser's chart read "Club games, Novemb": a label fits beside its line."""
    data = ChartData(
        "Nagy Péter — MGSZ",
        "Elo",
        series(20),
        markers=(Marker(DAY + dt.timedelta(days=30), "Club games, November 2026"),),
    )
    ax = chart_figure(data).axes[0]
    assert [t.get_text() for t in ax.texts if t.get_visible()] == ["Club games, November 2026"]


def test_a_long_title_is_set_smaller_then_shortened() -> None:
    name = "Szentgyörgyi-Kovácsházi Bernadett Erzsébet Mária"
    longer = f"{name} — Magyar Go Szövetség, Budapesti Go Klub"  # wider than the picture at 13 pt
    fits = chart_figure(ChartData(longer, "Elo", series(5))).axes[0].title
    assert fits.get_text() == longer and fits.get_fontsize() < 13
    title = chart_figure(ChartData(name * 3, "Elo", series(5))).axes[0].title
    assert title.get_text().startswith(name) and title.get_text().endswith("\u2026")
