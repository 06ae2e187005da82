"""Rating charts: a valid PNG sized for a phone, with or without data."""

from __future__ import annotations

import datetime as dt
import io
import struct
import sys

import matplotlib.dates as mdates
import matplotlib.image as mpimg
import pytest

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
from bot.i18n import using

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
