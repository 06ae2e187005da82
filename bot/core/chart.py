"""Rating charts as PNG pictures (matplotlib, headless Agg backend).

Rendering is CPU work: callers run :func:`render_chart` off the event loop
(``asyncio.to_thread``, which carries the conversation's language along) so that a chart
never blocks other chats.

Every text is drawn with DejaVu Sans and, for the characters it lacks, IPAexGothic (issue 13:
Japanese names and labels, and every letter of Hungarian, Polish and Swedish), the font the
``matplotlib-fontja`` wheel ships. Its file is registered with matplotlib once; the package
itself is not imported, as that would change matplotlib's global settings for everyone.
"""

from __future__ import annotations

import datetime as dt
import functools
import importlib.util
import io
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.dates as mdates
from babel.dates import format_skeleton
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties, findfont, fontManager, get_font
from matplotlib.ticker import FuncFormatter, MaxNLocator

from bot.i18n import _, current, number_text, signed_text, using

# names are text, never formulas: "$" in a name must not start mathtext (a malformed one raised)
matplotlib.rcParams["text.parse_math"] = False

SHORT_SPAN_DAYS = 7  # a chart spanning fewer days shows a week around them, day by day
MISSING_GLYPH = "\u25a1"  # □, for a character the chart's fonts cannot draw
LATIN_FONT = "DejaVu Sans"
CJK_FONT = "IPAexGothic"
FONTJA = "matplotlib_fontja"  # the wheel shipping IPAexGothic (found, never imported)
LONG_SPAN_DAYS = 180  # a longer chart's dates read month and year, a shorter one's month and day


def cjk_font_file() -> Path | None:
    """IPAexGothic's file in the installed ``matplotlib-fontja`` wheel, if it is there."""
    spec = importlib.util.find_spec(FONTJA)
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / "fonts" / "ipaexg.ttf"
        if path.is_file():
            return path
    return None


@functools.cache
def font_family() -> tuple[str, ...]:
    """The families every chart text is drawn with, first to last choice per character:
    DejaVu Sans, then IPAexGothic (registered with matplotlib here, once)."""
    path = cjk_font_file()
    if path is None:
        return (LATIN_FONT,)
    fontManager.addfont(str(path))
    return (LATIN_FONT, CJK_FONT)


@functools.cache
def _glyphs() -> frozenset[int]:
    """The characters the chart fonts can draw, between them."""
    found: set[int] = set()
    for family in font_family():
        path = findfont(FontProperties(family=family), fallback_to_default=False)
        found.update(get_font(path).get_charmap())
    return frozenset(found)


def drawable(text: str) -> str:
    """``text`` with the characters no chart font has (an emoji, a control) shown as □ —
    matplotlib would draw an empty box anyway, and warn for each one."""
    glyphs = _glyphs()
    return "".join(c if ord(c) in glyphs or c in " \n" else MISSING_GLYPH for c in text)


@dataclass(frozen=True, slots=True)
class Band:
    """A rank band shaded behind the line: ``[low, high)`` labelled with the rank."""

    low: float
    high: float
    label: str


@dataclass(frozen=True, slots=True)
class Marker:
    """A tournament (or other event) marked on the time axis."""

    date: dt.date
    label: str


@dataclass(frozen=True, slots=True)
class ChartData:
    title: str
    y_label: str
    points: tuple[tuple[dt.date, float], ...]
    bands: tuple[Band, ...] = ()
    markers: tuple[Marker, ...] = ()


def render_chart(data: ChartData) -> bytes:
    """The chart as PNG bytes, sized for a phone screen (1080 px wide)."""
    fig = chart_figure(data)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


def chart_figure(data: ChartData) -> Figure:
    """The chart as a matplotlib figure (laid out, not yet drawn to pixels); its dates and
    numbers as the current language writes them."""
    family = list(font_family())
    fig = Figure(figsize=(7.2, 4.8), dpi=150)
    ax = fig.subplots()
    dates = [d for d, _value in data.points]
    values = [v for _date, v in data.points]
    if values:
        low, high = min(values), max(values)
        margin = max(10.0, (high - low) * 0.15)
        ax.set_ylim(low - margin, high + margin)
    y_low, y_high = ax.get_ylim()
    for i, band in enumerate(data.bands):
        if band.high <= y_low or band.low >= y_high:
            continue
        ax.axhspan(band.low, band.high, color="#4c72b0" if i % 2 else "#dd8452", alpha=0.10, lw=0)
        mid = (max(band.low, y_low) + min(band.high, y_high)) / 2
        ax.text(
            1.01,
            mid,
            drawable(band.label),
            transform=ax.get_yaxis_transform(),
            va="center",
            fontsize=9,
            color="#555555",
            fontfamily=family,
        )
    for marker in data.markers:
        ax.axvline(marker.date, color="#999999", lw=0.8, ls=":")  # type: ignore[arg-type]
    if len(data.markers) <= 8:
        for marker in data.markers:
            ax.annotate(
                drawable(marker.label[:18]),
                (mdates.date2num(marker.date), y_high),
                fontsize=7,
                rotation=90,
                va="top",
                ha="right",
                color="#666666",
                fontfamily=family,
            )
    ax.plot(dates, values, marker="o", ms=4, lw=2, color="#1f4e79")  # type: ignore[arg-type]
    ax.set_title(drawable(data.title), fontsize=13, fontfamily=family)
    ax.set_ylabel(drawable(data.y_label), fontsize=11, fontfamily=family)
    ax.grid(axis="y", alpha=0.3)
    _time_axis(ax, dates)
    if values and all(float(v).is_integer() for v in values):  # Elo, Tensuusei points
        ax.yaxis.set_major_locator(MaxNLocator(nbins="auto", integer=True))
    ax.yaxis.set_major_formatter(_numbers(current()))
    ax.tick_params(labelsize=9, labelfontfamily=family)
    if not values:
        ax.text(
            0.5,
            0.5,
            drawable(_("no rated games yet")),
            transform=ax.transAxes,
            ha="center",
            fontfamily=family,
        )
    fig.tight_layout()
    return fig


def _numbers(language: str) -> FuncFormatter:
    """Tick values with the language's decimal mark (``37,5`` in Swedish)."""

    def text(value: float, _position: int | None) -> str:
        with using(language):  # Babel's decimal mark and minus sign (−5 in Swedish)
            return number_text(value, 0 if float(value).is_integer() else 1, grouped=False)

    return FuncFormatter(text)


def _dates(language: str, span: int) -> FuncFormatter:
    """Tick dates as ``language`` writes them: month and day on a short chart (``Apr 3``,
    ``4月3日``), month and year on a long one (``Apr 2026``, ``2026年4月``)."""
    skeleton = "yMMM" if span > LONG_SPAN_DAYS else "MMMd"

    def text(value: float, _position: int | None) -> str:
        return format_skeleton(skeleton, mdates.num2date(value).date(), locale=language)

    return FuncFormatter(text)


def _time_axis(ax: Axes, dates: list[dt.date]) -> None:
    """Dates on the x axis: some days either side of a one-day span (matplotlib would show
    years around it), and whole days, never hours, when the span is short."""
    language = current()
    locator: mdates.DateLocator
    if dates:
        first, last = min(dates), max(dates)
        span = (last - first).days
        if span < SHORT_SPAN_DAYS:
            pad = dt.timedelta(days=max(1, (SHORT_SPAN_DAYS - span) // 2))
            ax.set_xlim(mdates.date2num(first - pad), mdates.date2num(last + pad))
            locator = mdates.DayLocator(interval=max(1, (span + 2 * pad.days) // 6))
            ax.xaxis.set_major_locator(locator)
            ax.xaxis.set_major_formatter(_dates(language, span))
            return
    else:
        span = 0
    locator = mdates.AutoDateLocator(minticks=3, maxticks=7)
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(_dates(language, span))


def render_movers(title: str, movers: list[tuple[str, float]]) -> bytes:
    """The week's movers as horizontal bars (gains green, losses red), as PNG bytes; the
    changes with the current language's decimal mark."""
    family = list(font_family())
    fig = Figure(figsize=(7.2, max(2.4, 0.45 * len(movers) + 1.2)), dpi=150)
    ax = fig.subplots()
    names = [drawable(name) for name, _value in movers][::-1]
    values = [value for _name, value in movers][::-1]
    colours = ["#2e7d32" if v >= 0 else "#c62828" for v in values]
    ax.barh(names, values, color=colours)
    ax.axvline(0, color="#555555", lw=0.8)
    for y, v in enumerate(values):
        ax.text(
            v,
            y,
            f" {signed_number(v)} ",
            va="center",
            ha="left" if v >= 0 else "right",
            fontsize=9,
            fontfamily=family,
        )
    ax.xaxis.set_major_formatter(_numbers(current()))
    ax.set_title(drawable(title), fontsize=13, fontfamily=family)
    ax.tick_params(labelsize=9, labelfontfamily=family)
    ax.margins(x=0.2)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


def signed_number(value: float) -> str:
    """``+16``, ``−4,5``: a change with its sign and the current language's decimal mark."""
    return signed_text(value, 0 if float(value).is_integer() else 1)
