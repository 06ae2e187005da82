"""The rating chart as inline SVG: well-formed, accessible, escaped, styled only by attributes
and classes (the pages' CSP forbids inline style), fast."""

from __future__ import annotations

import datetime as dt
import re
import time
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.chart import Band, ChartData, Marker
from bot.i18n import LANGUAGES, date_text, using
from bot.web import svg
from bot.web.svg import chart_svg

NS = "{http://www.w3.org/2000/svg}"
DAY = dt.date(2026, 4, 1)
EVIL = "<script>alert('x')</script> & \"Kis\" Béla"


def series(n: int, start: float = 1720.0, step: float = 12.5, days: int = 7):
    return tuple((DAY + dt.timedelta(days=days * i), start + step * i) for i in range(n))


def parsed(data: ChartData, **size: int) -> ET.Element:
    return ET.fromstring(chart_svg(data, **size))


def with_class(root: ET.Element, tag: str, name: str) -> list[ET.Element]:
    return [e for e in root.iter(NS + tag) if name in e.get("class", "").split()]


def texts(root: ET.Element, name: str) -> list[str]:
    return ["".join(e.itertext()) for e in with_class(root, "text", name)]


def polyline_points(root: ET.Element) -> list[tuple[float, float]]:
    (line,) = with_class(root, "polyline", "line")
    return [tuple(map(float, pair.split(","))) for pair in line.get("points", "").split()]


MGSZ = ChartData(
    "Nagy Péter — MGSZ",
    "Elo",
    series(6),
    bands=(Band(1600, 1710, "6k"), Band(1700, 1765, "5k"), Band(1765, 1815, "4k"),
           Band(2500, 2600, "5d")),
    markers=(Marker(DAY + dt.timedelta(days=14), "Spring Cup"),
             Marker(DAY + dt.timedelta(days=28), "Budapest Open")),
)  # fmt: skip


def test_the_chart_is_one_accessible_svg_element() -> None:
    root = parsed(MGSZ)
    assert root.tag == NS + "svg"
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "chart-title chart-desc"
    assert root.get("viewBox") == "0 0 720 320"
    title = root.find(NS + "title")
    desc = root.find(NS + "desc")
    assert title is not None and title.get("id") == "chart-title"
    assert title.text == "Nagy Péter — MGSZ"
    assert desc is not None and desc.get("id") == "chart-desc"
    assert desc.text == "6 ratings from Apr 1, 2026 to May 6, 2026, lowest 1720, highest 1782.5."


def test_the_size_is_the_view_box() -> None:
    assert parsed(MGSZ, width=480, height=240).get("viewBox") == "0 0 480 240"


def test_no_inline_style_anywhere() -> None:
    text = chart_svg(MGSZ)
    root = ET.fromstring(text)
    assert all("style" not in e.attrib for e in root.iter())
    assert root.find(f".//{NS}style") is None
    assert "style" not in text


def test_the_line_joins_every_point_left_to_right_upwards() -> None:
    root = parsed(MGSZ)
    points = polyline_points(root)
    assert len(points) == 6
    xs, ys = [x for x, _y in points], [y for _x, y in points]
    assert xs == sorted(xs) and ys == sorted(ys, reverse=True)  # rising ratings go up
    circles = with_class(root, "circle", "point")
    assert [(float(c.get("cx", "")), float(c.get("cy", ""))) for c in circles] == points


def test_each_point_tells_its_date_and_value_on_hover() -> None:
    root = parsed(MGSZ)
    tips = [c.findtext(NS + "title") for c in with_class(root, "circle", "point")]
    assert tips[0] == "Apr 1, 2026: 1720"
    assert tips[1] == "Apr 8, 2026: 1732.5"
    assert len(tips) == 6


def test_the_bands_the_axis_crosses_are_shaded_and_named_at_the_right() -> None:
    root = parsed(MGSZ)
    bands = with_class(root, "rect", "band")
    # 6k (partly), 5k, 4k; 5d is far above the ratings
    assert [b.get("class") for b in bands] == ["band band-0", "band band-1", "band band-0"]
    assert texts(root, "band-label") == ["6k", "5k", "4k"]
    labels = with_class(root, "text", "band-label")
    plot_right = max(float(b.get("x", "")) + float(b.get("width", "")) for b in bands)
    assert all(float(label.get("x", "")) > plot_right for label in labels)
    heights = [float(b.get("y", "")) for b in bands]
    assert heights == sorted(heights, reverse=True)  # weakest lowest


def test_a_band_too_thin_to_hold_its_name_is_shaded_without_it() -> None:
    bands = (Band(1700, 1730, "5k"), Band(1730, 1731, "4k"))
    data = ChartData("X", "Elo", series(3), bands=bands)
    root = parsed(data)
    assert len(with_class(root, "rect", "band")) == 2
    assert texts(root, "band-label") == ["5k"]


def test_band_bounds_may_be_exact_numbers() -> None:
    data = ChartData("X", "points", series(3, 100, 1), bands=(Band(Fraction(199, 2), 120, "2k"),))  # type: ignore[arg-type]
    assert texts(parsed(data), "band-label") == ["2k"]


def test_tournaments_are_dashed_lines_named_on_hover() -> None:
    root = parsed(MGSZ)
    markers = with_class(root, "g", "marker")
    assert [m.findtext(NS + "title") for m in markers] == [
        "Spring Cup (Apr 15, 2026)",
        "Budapest Open (Apr 29, 2026)",
    ]
    for marker in markers:
        (line,) = with_class(marker, "line", "marker-line")
        assert line.get("stroke-dasharray") and line.get("x1") == line.get("x2")
    assert texts(root, "marker-label") == ["Spring Cup", "Budapest Open"]
    # the marker stands where the line's point of the same day is
    spring = float(with_class(markers[0], "line", "marker-line")[0].get("x1", ""))
    assert spring == polyline_points(root)[2][0]


def test_many_tournaments_are_named_on_hover_only_and_long_names_are_cut() -> None:
    many = tuple(Marker(DAY + dt.timedelta(days=7 * i), f"Cup {i}") for i in range(9))
    root = parsed(ChartData("X", "Elo", series(10), markers=many))
    assert len(with_class(root, "g", "marker")) == 9
    assert texts(root, "marker-label") == []
    long = (Marker(DAY, "The Very Long Memorial Tournament of Spring"),)
    root = parsed(ChartData("X", "Elo", series(10), markers=long))
    assert texts(root, "marker-label") == ["The Very Long Mem…"]
    assert (
        with_class(root, "g", "marker")[0]
        .findtext(NS + "title", "")
        .startswith("The Very Long Memorial Tournament of Spring")
    )


def test_names_are_escaped_and_survive_as_text() -> None:
    data = ChartData(EVIL, EVIL, series(3), (Band(1700, 1800, EVIL),), (Marker(DAY, EVIL),))
    text = chart_svg(data)
    assert "<script>" not in text and "&lt;script&gt;" in text
    root = ET.fromstring(text)
    assert root.findtext(NS + "title") == EVIL
    assert texts(root, "axis-label") == [EVIL]
    assert texts(root, "band-label") == [EVIL]
    assert with_class(root, "g", "marker")[0].findtext(NS + "title") == f"{EVIL} (Apr 1, 2026)"


def test_a_control_character_in_a_name_keeps_the_picture_well_formed() -> None:
    root = parsed(ChartData("Kis\x00Béla\x1b", "Elo", series(2)))
    assert root.findtext(NS + "title") == "Kis\ufffdBéla\ufffd"


def test_a_japanese_chart_keeps_its_names_and_writes_japanese_dates() -> None:
    data = ChartData(
        "山田太郎 — 点数制", "点数", series(40, days=30), markers=(Marker(DAY, "本因坊戦"),)
    )
    with using("ja"):
        root = parsed(data)
    assert root.findtext(NS + "title") == "山田太郎 — 点数制"
    assert texts(root, "axis-label") == ["点数"]
    assert texts(root, "marker-label") == ["本因坊戦"]
    ticks = texts(root, "date")
    assert all("年" in tick for tick in ticks)  # a long span: ticks by year and month
    tip = with_class(root, "circle", "point")[0].findtext(NS + "title")
    assert tip == "2026/04/01: 1720"


def test_decimals_use_the_language_s_mark_and_negatives_a_true_minus() -> None:
    data = ChartData("X", "poäng", ((DAY, 37.5), (DAY + dt.timedelta(days=9), -2.25)))
    with using("sv"):
        root = parsed(data)
    tips = [c.findtext(NS + "title") for c in with_class(root, "circle", "point")]
    assert tips == ["1 apr. 2026: 37,5", "10 apr. 2026: \u22122,25"]
    assert "\u221220" in texts(root, "value")


def test_the_output_is_the_same_on_every_call() -> None:
    assert chart_svg(MGSZ) == chart_svg(MGSZ)


def test_one_point_is_a_dot_with_a_week_around_it() -> None:
    root = parsed(ChartData("X", "Elo", ((DAY, 1720.0),)))
    assert with_class(root, "polyline", "line") == []
    (dot,) = with_class(root, "circle", "point")
    (x_axis,) = [e for e in with_class(root, "line", "axis") if e.get("y1") == e.get("y2")]
    left, right = float(x_axis.get("x1", "")), float(x_axis.get("x2", ""))
    assert float(dot.get("cx", "")) == pytest.approx((left + right) / 2, abs=0.1)
    ticks = texts(root, "date")
    assert "Apr 1" in ticks and "Mar 29" in ticks and "Apr 4" in ticks  # days, not years
    desc = root.findtext(NS + "desc")
    assert desc == "One rating, 1720, on Apr 1, 2026."


@pytest.mark.parametrize("language", ["en", "ja"])
def test_date_labels_at_the_edges_stay_inside_the_picture(language: str) -> None:
    with using(language):
        root = parsed(ChartData("X", "Elo", ((DAY, 1720.0),)))
    dates = with_class(root, "text", "date")
    first, last = dates[0], dates[-1]
    assert float(first.get("x", "")) - svg._text_width(first.text or "", svg.FONT) / 2 >= 0
    assert float(last.get("x", "")) + svg._text_width(last.text or "", svg.FONT) / 2 <= 720


def test_a_flat_series_gets_a_range_around_its_value() -> None:
    root = parsed(ChartData("X", "Elo", series(5, step=0)))
    ticks = [int(t) for t in texts(root, "value")]
    assert 4 <= len(ticks) <= 7 and min(ticks) < 1720 < max(ticks)
    assert len({y for _x, y in polyline_points(root)}) == 1


def test_ratings_all_on_one_day_spread_around_that_day() -> None:
    data = ChartData("X", "Elo", tuple((DAY, 1700.0 + 10 * i) for i in range(4)))
    root = parsed(data)
    assert len({x for x, _y in polyline_points(root)}) == 1
    assert "Apr 1" in texts(root, "date")
    assert root.findtext(NS + "desc") == ("4 ratings on Apr 1, 2026, lowest 1700, highest 1730.")


def test_no_ratings_says_so() -> None:
    root = parsed(ChartData("X", "Elo", ()))
    assert texts(root, "empty") == ["no rated games yet"]
    assert root.findtext(NS + "desc") == "no rated games yet"
    assert with_class(root, "circle", "point") == []


def test_the_value_axis_stays_above_zero_when_every_rating_does() -> None:
    root = parsed(ChartData("X", "points", series(4, start=1, step=1)))
    assert texts(root, "value")[0] == "0"


@settings(max_examples=300, deadline=None)
@given(
    low=st.floats(-500, 3000, allow_nan=False),
    span=st.one_of(st.just(0.0), st.floats(0, 5), st.floats(0, 3000)),
    whole=st.booleans(),
)
def test_the_value_axis_has_4_to_7_ticks_around_the_ratings(
    low: float, span: float, whole: bool
) -> None:
    values = [low, low + span]
    if whole:
        values = [float(round(v)) for v in values]
    bottom, top, ticks = svg._value_axis(values)
    assert 4 <= len(ticks) <= 7
    assert bottom <= min(values) and max(values) <= top
    assert float(ticks[0]) == bottom and float(ticks[-1]) == top
    if whole:
        assert all(tick.denominator == 1 for tick in ticks)


@settings(max_examples=300, deadline=None)
@given(
    first=st.dates(dt.date(1990, 1, 1), dt.date(2040, 1, 1)),
    days=st.integers(0, 12000),
)
def test_the_time_axis_has_4_to_7_ticks_inside_it(first: dt.date, days: int) -> None:
    low, high = svg._date_range([first, first + dt.timedelta(days=days)])
    ticks = svg._date_ticks(low, high)
    assert 4 <= len(ticks) <= 7
    assert all(low <= day.toordinal() <= high for day, _text in ticks)
    assert [day for day, _text in ticks] == sorted(day for day, _text in ticks)


@settings(max_examples=200, deadline=None)
@given(day=st.dates(dt.date(1900, 1, 1), dt.date(2100, 12, 31)))
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_tooltip_date_is_written_as_the_bot_writes_dates(language: str, day: dt.date) -> None:
    with using(language):
        assert svg._date_text(language, day) == date_text(day)


def test_a_thousand_points_draw_in_milliseconds() -> None:
    points = tuple((DAY + dt.timedelta(days=3 * i), 1500.0 + (i * 37) % 300) for i in range(1000))
    markers = tuple(Marker(points[i][0], f"Cup {i}") for i in range(0, 1000, 50))
    bands = tuple(Band(1000 + 100 * i, 1100 + 100 * i, f"{20 - i}k") for i in range(15))
    data = ChartData("X", "Elo", points, bands, markers)
    chart_svg(ChartData("X", "Elo", points[:2]))  # the language's data loaded once
    best = float("inf")
    for _ in range(5):
        svg._date_text.cache_clear()
        svg._month_fields.cache_clear()
        svg._value_text.cache_clear()
        started = time.perf_counter()
        text = chart_svg(data)
        best = min(best, time.perf_counter() - started)
    assert len(polyline_points(ET.fromstring(text))) == 1000
    # about 4 ms on a busy 2-core machine; matplotlib's SVG took 150 ms
    assert best < 0.05


# the colours: every text on its background passes WCAG AA (hoshi.css lists the ratios)

CSS = Path(svg.__file__).parent / "static" / "hoshi.css"


def luminance(colour: str) -> float:
    """WCAG 2.1 relative luminance of ``#rrggbb``."""
    channels = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def blend(colour: str, alpha: float, under: str) -> str:
    mixed = (
        round(alpha * int(colour[i : i + 2], 16) + (1 - alpha) * int(under[i : i + 2], 16))
        for i in (1, 3, 5)
    )
    return "#" + "".join(f"{c:02x}" for c in mixed)


def schemes() -> dict[str, dict[str, str]]:
    """The colour variables of hoshi.css's light, dark and print ``:root`` blocks."""
    blocks = re.findall(r":root\s*\{([^}]*)\}", CSS.read_text(encoding="utf-8"))
    found = [dict(re.findall(r"--([\w-]+):\s*(#[0-9a-f]{6}|[\d.]+);", block)) for block in blocks]
    light, dark, paper = found
    return {"light": light, "dark": dark, "print": {**light, **paper}}


def test_the_stylesheet_has_a_light_a_dark_and_a_print_scheme() -> None:
    text = CSS.read_text(encoding="utf-8")
    assert "@media (prefers-color-scheme: dark)" in text and "@media print" in text
    assert set(schemes()["dark"]) >= {"bg", "text", "muted", "link", "zebra", "thead"}


@pytest.mark.parametrize("scheme", ["light", "dark", "print"])
def test_every_text_colour_passes_wcag_aa_on_every_background(scheme: str) -> None:
    colours = schemes()[scheme]
    low = [
        (text, ground, round(contrast(colours[text], colours[ground]), 2))
        for text in ("text", "muted", "link", "visited")
        for ground in ("bg", "zebra", "thead")
        if contrast(colours[text], colours[ground]) < 4.5
    ]
    low += [
        (text, "head-bg", round(contrast(colours[text], colours["head-bg"]), 2))
        for text in ("head-text", "head-link")
        if contrast(colours[text], colours["head-bg"]) < 4.5
    ]
    assert low == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_focus_ring_and_the_chart_stand_out_and_its_labels_read_on_the_bands(
    scheme: str,
) -> None:
    colours = schemes()[scheme]
    assert contrast(colours["focus"], colours["bg"]) >= 3
    assert contrast(colours["chart-ink"], colours["bg"]) >= 3
    for band in svg.BANDS:
        under = blend(band, float(colours["band-opacity"]), colours["bg"])
        assert contrast(colours["muted"], under) >= 4.5
        assert contrast(colours["text"], under) >= 4.5


def test_the_chart_s_own_colours_read_on_a_light_page_without_the_stylesheet() -> None:
    for band in svg.BANDS:
        under = blend(band, float(svg.BAND_OPACITY), "#ffffff")
        assert contrast(svg.TEXT, under) >= 4.5 and contrast(svg.MUTED, under) >= 4.5
    assert contrast(svg.INK, "#ffffff") >= 3 and contrast(svg.MARKER, "#ffffff") >= 3


def test_a_value_is_written_in_the_language_asked_for_whatever_the_current_one() -> None:
    svg._value_text.cache_clear()
    with using("en"):
        assert svg._value_text("sv", 37.25) == "37,25"
    with using("sv"):
        assert svg._value_text("en", 37.25) == "37.25"


@pytest.mark.parametrize(("width", "height"), [(100, 320), (720, 40)])
def test_a_picture_too_small_for_its_axes_is_refused(width: int, height: int) -> None:
    with pytest.raises(ValueError, match="too small"):
        chart_svg(MGSZ, width=width, height=height)
