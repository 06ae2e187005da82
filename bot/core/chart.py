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
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.dates as mdates
from babel.dates import format_skeleton
from matplotlib.axes import Axes
from matplotlib.axis import XAxis, YAxis
from matplotlib.backend_bases import RendererBase
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties, findfont, fontManager, get_font
from matplotlib.text import Text
from matplotlib.ticker import FixedLocator, FuncFormatter, MaxNLocator
from matplotlib.transforms import Bbox

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
    numbers as the current language writes them.

    Every text lies inside the picture and no two overlap (:func:`_lay_out`): a long name is
    set smaller, then shortened with "…"; marker labels take the room beside their line that
    is free, and a label with no room left is not drawn (its line is)."""
    family = list(font_family())
    fig = Figure(figsize=(7.2, 4.8), dpi=150)
    FigureCanvasAgg(fig)  # a renderer to measure texts with while laying them out
    ax = fig.subplots()
    dates = [d for d, _value in data.points]
    values = [v for _date, v in data.points]
    if values:
        low, high = min(values), max(values)
        margin = max(10.0, (high - low) * 0.15)
        ax.set_ylim(low - margin, high + margin)
    y_low, y_high = ax.get_ylim()
    band_labels = []
    for i, band in enumerate(data.bands):
        if band.high <= y_low or band.low >= y_high:
            continue
        ax.axhspan(band.low, band.high, color="#4c72b0" if i % 2 else "#dd8452", alpha=0.10, lw=0)
        mid = (max(band.low, y_low) + min(band.high, y_high)) / 2
        band_labels.append(
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
        )
    ax.plot(dates, values, marker="o", ms=4, lw=2, color="#1f4e79")  # type: ignore[arg-type]
    ax.set_title(drawable(data.title), fontsize=TITLE_SIZE, fontfamily=family)
    ax.set_ylabel(drawable(data.y_label), fontsize=LABEL_SIZE, fontfamily=family)
    ax.grid(axis="y", alpha=0.3)
    _time_axis(ax, dates)
    if values and all(float(v).is_integer() for v in values):  # Elo, Tensuusei points
        ax.yaxis.set_major_locator(MaxNLocator(nbins="auto", integer=True))
    ax.yaxis.set_major_formatter(_numbers(current()))
    ax.tick_params(labelsize=9, labelfontfamily=family)
    if not values:
        ax.set_xticks([])  # no dates nor ratings to read: hours of 1 January 1970 were shown
        ax.set_yticks([])
        ax.text(
            0.5,
            0.5,
            drawable(_("no rated games yet")),
            transform=ax.transAxes,
            ha="center",
            fontfamily=family,
        )
    _lay_out(fig, ax, band_labels)
    if values:  # marked against the line, in the room the layout left
        _mark(ax, data.markers, family)
    _keep_apart(fig, ax)
    return fig


TITLE_SIZE, LABEL_SIZE, SMALLEST_SIZE = 13, 11, 8  # points; a long text is set smaller first
MARKER_SIZE = 7
EDGE_PX = 4  # every text keeps this far inside the picture's edge
ELLIPSIS = "\u2026"


def _lay_out(fig: Figure, ax: Axes, band_labels: list[Text]) -> None:
    """Fit the axes and their texts in the picture: the title and the vertical label set
    smaller (then shortened) to the room around the axes' centre, matplotlib's tight layout,
    the ticks fixed to those in view and thinned while their labels overlap, and the band
    labels kept only where they sit within the axes' height apart from each other."""
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    inner = _inner(fig)
    _fit(ax.title, renderer, lambda box: box.width <= inner.width)
    _fit(ax.yaxis.label, renderer, lambda box: box.height <= inner.height * 0.9)
    fig.tight_layout()
    fig.draw_without_rendering()
    for axis in (ax.xaxis, ax.yaxis):
        _thin(axis, renderer)
    frame = ax.get_window_extent(renderer)
    centre_x = (frame.x0 + frame.x1) / 2
    half = min(centre_x - inner.x0, inner.x1 - centre_x)
    _fit(ax.title, renderer, lambda box: box.width <= 2 * half)
    centre_y = (frame.y0 + frame.y1) / 2
    half = min(centre_y - inner.y0, inner.y1 - centre_y)
    _fit(ax.yaxis.label, renderer, lambda box: box.height <= 2 * half)
    kept: list[Bbox] = []
    for label in band_labels:
        box = label.get_window_extent(renderer)
        if box.y0 < frame.y0 or box.y1 > frame.y1 or any(_overlap(box, k) for k in kept):
            label.set_visible(False)  # a band too thin for its name, or past the axes
        else:
            kept.append(box)


def _inner(fig: Figure) -> Bbox:
    """The picture less its edge, in pixels."""
    box = fig.bbox
    return Bbox.from_extents(
        box.x0 + EDGE_PX, box.y0 + EDGE_PX, box.x1 - EDGE_PX, box.y1 - EDGE_PX
    )


def _fit(text: Text, renderer: RendererBase, fits: Callable[[Bbox], bool]) -> None:
    """Set ``text`` smaller, down to :data:`SMALLEST_SIZE`, then shorten it with "…" until
    its extent ``fits``; hidden when not even its first letter does."""
    size = float(text.get_fontsize())
    while not fits(text.get_window_extent(renderer)) and size > SMALLEST_SIZE:
        size = max(SMALLEST_SIZE, size - 1)
        text.set_fontsize(size)
    _shorten(text, renderer, fits)


def _shorten(text: Text, renderer: RendererBase, fits: Callable[[Bbox], bool]) -> None:
    """The longest start of ``text`` that ``fits``, with "…"; hidden when none does."""
    full = text.get_text()
    if fits(text.get_window_extent(renderer)):
        return
    low, high, best = 1, len(full) - 1, ""
    while low <= high:  # a longer start is never narrower: the longest that fits, by halves
        middle = (low + high) // 2
        text.set_text(full[:middle].rstrip() + ELLIPSIS)
        if fits(text.get_window_extent(renderer)):
            best, low = text.get_text(), middle + 1
        else:
            high = middle - 1
    text.set_text(best or full)
    text.set_visible(bool(best))


def _thin(axis: XAxis | YAxis, renderer: RendererBase) -> None:
    """Fix the axis's ticks to those in view, every second (third …) one while their labels
    would overlap (long month names: ``2026. szept.``)."""
    low, high = sorted(axis.get_view_interval())
    slack = (high - low) * 1e-9
    ticks = [t for t in axis.get_majorticklocs() if low - slack <= t <= high + slack]
    for step in range(1, len(ticks) + 1):
        axis.set_major_locator(FixedLocator(ticks[::step]))
        boxes = [
            label.get_window_extent(renderer)
            for label in axis.get_majorticklabels()
            if label.get_text()
        ]
        if not any(_overlap(a, b) for a, b in itertools.pairwise(boxes)):
            return


def _overlap(a: Bbox, b: Bbox) -> bool:
    """Whether two extents share more than a sliver (texts' extents include their leading)."""
    return bool(
        min(a.x1, b.x1) - max(a.x0, b.x0) > 0.5 and min(a.y1, b.y1) - max(a.y0, b.y0) > 0.5
    )


def _mark(ax: Axes, markers: tuple[Marker, ...], family: list[str]) -> None:
    """A dotted line at each marker's date and its label hanging from the top beside it:
    left of the line, else right of it, where no label is yet; shortened to the axes'
    height, not drawn where it finds no room."""
    fig = ax.get_figure()
    assert isinstance(fig, Figure)
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    frame = ax.get_window_extent(renderer)
    low, high = sorted(ax.get_xlim())
    placed: list[Bbox] = []
    for marker in sorted(markers, key=lambda m: m.date):
        x = mdates.date2num(marker.date)
        if not low <= x <= high:
            continue
        ax.axvline(x, color="#999999", lw=0.8, ls=":")
        for side, offset in (("right", -2), ("left", 2)):
            label = ax.annotate(
                drawable(marker.label),
                (x, 1),
                xycoords=("data", "axes fraction"),
                xytext=(offset, -3),
                textcoords="offset points",
                fontsize=MARKER_SIZE,
                rotation=90,
                va="top",
                ha=side,
                color="#666666",
                fontfamily=family,
            )
            _shorten(label, renderer, lambda box: box.y0 >= frame.y0 + EDGE_PX)
            box = label.get_window_extent(renderer)
            if (
                label.get_visible()
                and frame.x0 <= box.x0
                and box.x1 <= frame.x1
                and not any(_overlap(box, p) for p in placed)
            ):
                placed.append(box)
                break
            label.remove()


def _keep_apart(fig: Figure, ax: Axes) -> None:
    """The last word on the layout, most important first: the title and the axis labels,
    then each tick's label, then the band and marker labels, each shortened to lie inside
    the picture and hidden where it would overlap one kept before it (a tick is dropped,
    as its label is remade at every draw)."""
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    inner = _inner(fig)

    def inside(box: Bbox) -> bool:
        return bool(inner.contains(box.x0, box.y0) and inner.contains(box.x1, box.y1))

    def keep(text: Text) -> bool:
        box = text.get_window_extent(renderer)
        if not inside(box) or any(_overlap(box, k) for k in kept):
            return False
        kept.append(box)
        return True

    fig.draw_without_rendering()
    kept: list[Bbox] = []
    for text in (ax.title, ax.xaxis.label, ax.yaxis.label):
        if text.get_visible() and text.get_text():
            _shorten(text, renderer, inside)
            text.set_visible(text.get_visible() and keep(text))
    for axis in (ax.xaxis, ax.yaxis):
        ticks = zip(axis.get_majorticklocs(), axis.get_major_ticks(), strict=False)
        shown = [loc for loc, tick in ticks if not tick.label1.get_text() or keep(tick.label1)]
        axis.set_major_locator(FixedLocator(shown))
    for text in ax.texts:
        if text.get_visible() and text.get_text():
            _shorten(text, renderer, inside)
            text.set_visible(text.get_visible() and keep(text))


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
