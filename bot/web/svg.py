"""A player's rating chart as inline SVG for the web pages (issue 14).

The same picture as ``/chart`` (:mod:`bot.core.chart` draws it as a PNG with matplotlib), written
by hand: a matplotlib SVG is some 100 KB (every glyph a path) and takes ~150 ms, and a static
export of a federation draws thousands. This one is a few KB of plain elements whose texts are
real text (searchable, translatable, read by the page's fonts).

The page's Content-Security-Policy forbids inline styles, so nothing here uses ``style=``:
colours and lines are presentation attributes (``fill``, ``stroke``…), which the page's
stylesheet (``bot/web/static/hoshi.css``) may override through the ``class`` names below —
its dark scheme does.

``svg.chart``            the picture (``role="img"``, named by its ``<title>`` and ``<desc>``)
``rect.band``            a rank band, ``band-0``/``band-1`` alternating; ``text.band-label``
``line.grid``            a horizontal line at a value tick; ``line.axis`` the two axes
``text.tick``            a tick's date (``tick date``) or value (``tick value``)
``text.axis-label``      the vertical axis' name
``g.marker``             a tournament: ``line.marker-line`` (dashed), ``text.marker-label``
``polyline.line``        the ratings joined; ``circle.point`` one rating (hover: its date, value)
``text.empty``           the message when there is nothing to draw

Dates and numbers read as the page's language writes them (:mod:`bot.i18n`): a tooltip's date as
:func:`bot.i18n.date_text`, a value as the bot's replies show it (``1720``, ``37,5``).
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import re
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import TYPE_CHECKING, cast
from unicodedata import east_asian_width
from xml.sax.saxutils import escape, quoteattr

from babel import Locale
from babel.dates import DateTimeFormat, format_skeleton, get_date_format, parse_pattern

from bot.core import format as fmt
from bot.i18n import _, _n, current, using

if TYPE_CHECKING:  # bot.core.chart imports matplotlib, which a page never needs
    from babel.dates import DateTimePattern

    from bot.core.chart import ChartData

SHORT_SPAN_DAYS = 7  # a chart spanning fewer days shows a week around them (as bot/core/chart.py)
LONG_SPAN_DAYS = 180  # a longer chart's ticks read month and year, a shorter one's month and day
MAX_TICKS = 7
MARKER_LABELS = 8  # more tournaments than this: their names only on hover (as bot/core/chart.py)
MARKER_LABEL_CHARS = 18
FONT = 12  # tick and axis texts, in viewBox units
CHAR_WIDTH = 0.62  # an average character's width per font size, to leave room for labels
POINT_RADIUS = 3.0
POINT_RADIUS_MANY = 1.5  # when points crowd (more than one per POINT_SPACING units)
POINT_SPACING = 8.0

# colours for a light page; hoshi.css recolours the classes for a dark one. Each text colour
# reads at 4.5:1 or better on white and on the bands' tint (WCAG AA; see hoshi.css).
INK = "#1f4e79"  # the line and its points (bot/core/chart.py's)
TEXT = "#333333"
MUTED = "#595959"
GRID = "#d0d0d0"
MARKER = "#767676"
BANDS = ("#dd8452", "#4c72b0")  # alternating, at 10 % like the PNG's
BAND_OPACITY = "0.1"

SVG_NAMESPACE = "http://www.w3.org/2000/svg"
TITLE_ID, DESC_ID = "chart-title", "chart-desc"  # the page holds one chart

Scale = Callable[[float], float]  # a value to its height in the picture
DateScale = Callable[[dt.date], float]  # a date to its place across

# characters XML 1.0 does not allow (a control in a name would make the page ill-formed)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def chart_svg(data: ChartData, *, width: int = 720, height: int = 320) -> str:
    """``data`` drawn as one ``<svg>`` element to put inline in a page.

    Args:
        data: what ``/chart`` draws: title, the vertical axis' name, the ratings by date, the
            rank bands behind them and the tournaments to mark.
        width, height: the picture's size in viewBox units (the page scales it to its column).

    Returns:
        The ``<svg>`` element, every text escaped, in the current language.

    Raises:
        ValueError: the size leaves no room to plot beside the axes' labels.
    """
    dates = [day for day, _value in data.points]
    values = [float(value) for _day, value in data.points]
    y_label_width = FONT + 10
    if values:
        y_low, y_high, y_ticks = _value_axis(values)
        tick_texts = [_value_text(current(), tick) for tick in y_ticks]
    else:
        y_low, y_high, y_ticks, tick_texts = 0.0, 1.0, [], []
    left = y_label_width + _text_width(max(tick_texts, key=len, default=""), FONT) + 8
    x_low, x_high = _date_range(dates + [marker.date for marker in data.markers])
    date_ticks = _date_ticks(x_low, x_high) if dates else []
    band_chars = max((len(band.label) for band in data.bands), default=0)
    right = max(
        _text_width("x" * band_chars, FONT - 1) + 10 if band_chars else 12,
        # the last date may sit on the right edge, its label centred on it
        _text_width(date_ticks[-1][1], FONT) / 2 + 2 if date_ticks else 0,
    )
    top, bottom = 10.0, FONT * 2 + 10.0
    plot_w, plot_h = width - left - right, height - top - bottom
    if plot_w < 4 * FONT or plot_h < 4 * FONT:
        raise ValueError(f"a {width}×{height} chart is too small for its axes' labels")

    def y_of(value: float | Fraction) -> float:
        return top + (y_high - value) / (y_high - y_low) * plot_h

    parts = [
        _tag("title", _text(data.title), id=TITLE_ID),
        _tag("desc", _text(_description(dates, values)), id=DESC_ID),
    ]
    if values:
        parts.extend(_bands(data, y_low, y_high, y_of, left, plot_w))
        for tick, text in zip(y_ticks, tick_texts, strict=True):
            y = _n1(y_of(tick))
            parts.append(
                _tag("line", class_="grid", x1=_n1(left), x2=_n1(left + plot_w), y1=y, y2=y,
                     stroke=GRID, stroke_width=1)
                + _tag("text", _text(text), class_=_classes("tick", "value"), x=_n1(left - 6),
                       y=y, dy=".35em", text_anchor="end")
            )  # fmt: skip

    def x_of(day: dt.date) -> float:
        return left + (day.toordinal() - x_low) / (x_high - x_low) * plot_w

    bottom_y = top + plot_h
    if dates:
        for day, text in date_ticks:
            x = _n1(x_of(day))
            parts.append(
                _tag("line", class_="axis", x1=x, x2=x, y1=_n1(bottom_y), y2=_n1(bottom_y + 5),
                     stroke=MUTED, stroke_width=1)
                + _tag("text", _text(text), class_=_classes("tick", "date"), x=x,
                       y=_n1(bottom_y + 8 + FONT), text_anchor="middle")
            )  # fmt: skip
    parts.append(
        _tag("line", class_="axis", x1=_n1(left), x2=_n1(left), y1=_n1(top), y2=_n1(bottom_y),
             stroke=MUTED, stroke_width=1)
        + _tag("line", class_="axis", x1=_n1(left), x2=_n1(left + plot_w), y1=_n1(bottom_y),
               y2=_n1(bottom_y), stroke=MUTED, stroke_width=1)
    )  # fmt: skip
    middle = _n1(top + plot_h / 2)
    parts.append(
        _tag("text", _text(data.y_label), class_="axis-label", x=FONT + 2, y=middle,
             text_anchor="middle", transform=f"rotate(-90 {FONT + 2} {middle})")
    )  # fmt: skip
    if not dates:
        parts.append(
            _tag("text", _text(_("no rated games yet")), class_="empty",
                 x=_n1(left + plot_w / 2), y=middle, text_anchor="middle")
        )  # fmt: skip
    else:
        parts.extend(_markers(data, x_of, top, plot_h))
        parts.extend(_line(data, x_of, y_of, plot_w))
    return _tag(
        "svg",
        *parts,
        xmlns=SVG_NAMESPACE,
        class_="chart",
        viewBox=f"0 0 {width} {height}",
        width=width,
        height=height,
        role="img",
        aria_labelledby=_classes(TITLE_ID, DESC_ID),
        font_family="sans-serif",
        font_size=FONT,
        fill=TEXT,
    )


def _description(dates: list[dt.date], values: list[float]) -> str:
    """One sentence for a screen reader: how many ratings, over which dates, lowest, highest."""
    if not values:
        return _("no rated games yet")
    language = current()
    first, last = _date_text(language, dates[0]), _date_text(language, dates[-1])
    low, high = _value_text(language, min(values)), _value_text(language, max(values))
    if len(values) == 1:
        # TRANSLATORS: the web page's rating chart, told to a screen reader ({value}: 1720)
        return _("One rating, {value}, on {date}.", value=low, date=first)
    if first == last:
        # TRANSLATORS: the web page's rating chart, told to a screen reader: all on one day
        return _n(
            "{n} rating on {date}, lowest {low}, highest {high}.",
            "{n} ratings on {date}, lowest {low}, highest {high}.",
            len(values),
            date=first,
            low=low,
            high=high,
        )
    # TRANSLATORS: the web page's rating chart, told to a screen reader ({low}: 1720)
    return _n(
        "{n} rating from {first} to {last}, lowest {low}, highest {high}.",
        "{n} ratings from {first} to {last}, lowest {low}, highest {high}.",
        len(values),
        first=first,
        last=last,
        low=low,
        high=high,
    )


def _bands(
    data: ChartData, y_low: float, y_high: float, y_of: Scale, left: float, plot_w: float
) -> Iterator[str]:
    """The rank bands the value axis crosses, shaded in turn, each named at the right edge
    (when it is tall enough to hold its name)."""
    for i, band in enumerate(data.bands):
        low, high = max(float(band.low), y_low), min(float(band.high), y_high)
        if high <= low:
            continue
        top, bottom = y_of(high), y_of(low)
        yield _tag(
            "rect",
            class_=_classes("band", f"band-{i % 2}"),
            x=_n1(left),
            y=_n1(top),
            width=_n1(plot_w),
            height=_n1(bottom - top),
            fill=BANDS[i % 2],
            fill_opacity=BAND_OPACITY,
        )
        if bottom - top >= FONT - 2:
            yield _tag(
                "text",
                _text(band.label),
                class_="band-label",
                x=_n1(left + plot_w + 4),
                y=_n1((top + bottom) / 2),
                dy=".35em",
                font_size=FONT - 1,
                fill=MUTED,
            )


def _markers(data: ChartData, x_of: DateScale, top: float, plot_h: float) -> Iterator[str]:
    """Each tournament as a dashed vertical line; its name and date show on hover (a wider,
    invisible line catches the pointer) and, when there are few, along the line."""
    language = current()
    labelled = len(data.markers) <= MARKER_LABELS
    for marker in data.markers:
        x = _n1(x_of(marker.date))
        line = {"x1": x, "x2": x, "y1": _n1(top), "y2": _n1(top + plot_h)}
        name = f"{marker.label} ({_date_text(language, marker.date)})"
        label = ""
        if labelled:
            short = marker.label
            if len(short) > MARKER_LABEL_CHARS:
                short = short[: MARKER_LABEL_CHARS - 1].rstrip() + "…"
            lx, ly = _n1(x_of(marker.date) - 3), _n1(top + 4)
            label = _tag("text", _text(short), class_="marker-label", x=lx, y=ly,
                         font_size=FONT - 2, text_anchor="end", fill=MUTED,
                         transform=f"rotate(-90 {lx} {ly})")  # fmt: skip
        yield _tag(
            "g",
            _tag("title", _text(name)),
            _tag("line", class_="marker-line", **line, stroke=MARKER, stroke_width=1,
                 stroke_dasharray="3 3"),
            _tag("line", class_="marker-hit", **line, stroke="#000", stroke_opacity=0,
                 stroke_width=9),
            label,
            class_="marker",
        )  # fmt: skip


def _line(data: ChartData, x_of: DateScale, y_of: Scale, plot_w: float) -> Iterator[str]:
    """The ratings joined by a line (none for a single one), and a dot per rating whose
    tooltip gives its date and value."""
    language = current()
    coords = [f"{x_of(day):.1f},{y_of(float(value)):.1f}" for day, value in data.points]
    if len(coords) > 1:
        yield _tag(
            "polyline",
            class_="line",
            points=" ".join(coords),
            fill="none",
            stroke=INK,
            stroke_width=2,
            stroke_linejoin="round",
            stroke_linecap="round",
        )
    crowded = len(coords) * POINT_SPACING > plot_w
    radius = _n1(POINT_RADIUS_MANY if crowded else POINT_RADIUS)
    # a thousand points: one template filled in, not a thousand elements built
    point = _tag("circle", _tag("title", "{tip}"), class_="point", cx="{x}", cy="{y}", r=radius,
                 fill=INK).format  # fmt: skip
    for (day, value), xy in zip(data.points, coords, strict=True):
        x, y = xy.split(",")
        # a date and a number as babel writes them: no control characters to replace
        tip = escape(f"{_date_text(language, day)}: {_value_text(language, float(value))}")
        yield point(tip=tip, x=x, y=y)


def _value_axis(values: list[float]) -> tuple[float, float, list[Fraction]]:
    """The value axis: the ratings with a margin (at least 10, as the PNG), widened to whole
    ticks of a nice step (1, 2, 2.5 or 5 times a power of ten; whole numbers only when every
    rating is whole) so that 4 to 7 ticks fall on it; not below zero when no rating is."""
    low, high = min(values), max(values)
    margin = max(10.0, (high - low) * 0.15)
    bottom = low - margin
    if low >= 0 > bottom:
        bottom = 0.0
    top = high + margin
    whole = all(value.is_integer() for value in values)
    lo, hi = Fraction(bottom), Fraction(top)
    for step in _nice_steps(float(hi - lo), whole=whole):
        first, last = math.floor(lo / step), math.ceil(hi / step)
        if last - first + 1 <= MAX_TICKS:
            ticks = [step * i for i in range(first, last + 1)]
            return float(ticks[0]), float(ticks[-1]), ticks
    raise AssertionError("the nice steps grow without bound")  # pragma: no cover


def _nice_steps(span: float, *, whole: bool) -> Iterator[Fraction]:
    """Tick steps, smallest first: 1, 2, 2.5, 5 times powers of ten from well below ``span``
    (1 and up, and never 2.5, when the ticks must be whole)."""
    power = math.floor(math.log10(span)) - 2
    while True:
        scale = Fraction(10) ** power
        for mantissa in (Fraction(1), Fraction(2), Fraction(5, 2), Fraction(5)):
            step = mantissa * scale
            if not whole or step.denominator == 1:
                yield step
        power += 1


def _date_range(dates: list[dt.date]) -> tuple[float, float]:
    """The time axis as day numbers: a week around a span shorter than that (a one-day chart
    must not show years, as matplotlib would), else the dates with 3 % to spare either side."""
    if not dates:
        return 0.0, 1.0
    first, last = min(dates).toordinal(), max(dates).toordinal()
    span = last - first
    pad = max(1, (SHORT_SPAN_DAYS - span) // 2) if span < SHORT_SPAN_DAYS else span * 0.03
    return first - pad, last + pad


# tick steps along the time axis, smallest first: every n days (7 and 14: from Mondays), the
# 1st, 11th and 21st of each month, the 1st and 16th, then the 1st of every n months
DAY_STEPS = (1, 2, 3, 4, 7, 14)
MONTH_DAYS = ((1, 11, 21), (1, 16))
MONTH_STEPS = (1, 2, 3, 4, 6, 12, 24, 36, 60, 120, 240, 600)


def _date_ticks(x_low: float, x_high: float) -> list[tuple[dt.date, str]]:
    """Dates on whole days, weeks (Mondays), parts of months, months or years that fall in the
    range: the first step, smallest first, that gives 4 to 7 of them (else the first that gives
    no more than 7), with their labels."""
    start, end = math.ceil(x_low), math.floor(x_high)
    first, last = dt.date.fromordinal(start), dt.date.fromordinal(end)
    short = x_high - x_low <= LONG_SPAN_DAYS
    candidates: list[tuple[list[dt.date], str]] = []
    for step in DAY_STEPS:
        if (end - start) / step <= 3 * MAX_TICKS:  # not thousands of days to count
            anchor = 1 if step in (7, 14) else 0  # day 1 (1 January of year 1) is a Monday
            days = [dt.date.fromordinal(o) for o in range(start, end + 1) if o % step == anchor]
            candidates.append((days, "MMMd"))
    months = range(first.year * 12 + first.month - 1, last.year * 12 + last.month)
    if len(months) <= MAX_TICKS:
        for mdays in MONTH_DAYS:
            days = [dt.date(m // 12, m % 12 + 1, d) for m in months for d in mdays]
            candidates.append(([day for day in days if first <= day <= last], "MMMd"))
    for step in MONTH_STEPS:
        days = [dt.date(m // 12, m % 12 + 1, 1) for m in months if m % step == 0]
        skeleton = "y" if step >= 12 else ("MMMd" if short else "yMMM")
        candidates.append(([day for day in days if first <= day], skeleton))
    days, skeleton = next(
        ((days, skeleton) for days, skeleton in candidates if 4 <= len(days) <= MAX_TICKS),
        next((c for c in candidates if len(c[0]) <= MAX_TICKS), ([], "")),
    )
    language = current()
    return [(day, _tick_date(language, day, skeleton)) for day in days]


@functools.lru_cache(maxsize=4096)
def _tick_date(language: str, day: dt.date, skeleton: str) -> str:
    """A tick's date, as bot/core/chart.py writes it (``Apr 3``, ``Apr 2026``, ``2026``)."""
    return format_skeleton(skeleton, day, locale=language)


@functools.cache
def _date_pattern(language: str) -> tuple[DateTimePattern, Locale]:
    """The language's medium date pattern, parsed once (what ``babel.dates.format_date`` looks
    up on each call)."""
    locale = Locale.parse(language)
    return parse_pattern(get_date_format("medium", locale=locale)), locale


DAY_FIELDS = ("d", "dd")  # a pattern's day of the month: 3, 03
MONTH_FIELD = re.compile(r"[yMLG]+")  # fields that only the year and the month decide
PATTERN_FIELD = re.compile(r"%\((\w+)\)s")  # a field in a babel pattern's %-format


@functools.lru_cache(maxsize=4096)
def _month_fields(language: str, year: int, month: int) -> dict[str, str] | None:
    """The fields of ``language``'s date pattern that a month's days share (``Apr``,
    ``2026``), formatted once; ``None`` when the pattern has a field that changes from day to
    day other than the day itself (a weekday)."""
    pattern, locale = _date_pattern(language)
    text = cast(str, pattern.format)  # the pattern's text: an attribute, despite the stub
    names = PATTERN_FIELD.findall(text)
    if not all(name in DAY_FIELDS or MONTH_FIELD.fullmatch(name) for name in names):
        return None
    fields = DateTimeFormat(dt.date(year, month, 1), locale)
    return {name: fields[name] for name in names if name not in DAY_FIELDS}


@functools.lru_cache(maxsize=65536)
def _date_text(language: str, day: dt.date) -> str:
    """``day`` as :func:`bot.i18n.date_text` writes it in ``language``, at a fraction of the
    cost (a chart of a thousand ratings asks for a thousand dates): the month's part of the
    pattern is formatted once per month, the day filled in."""
    shared = _month_fields(language, day.year, day.month)
    pattern, locale = _date_pattern(language)
    if shared is None:
        return pattern.apply(day, locale)
    text = cast(str, pattern.format)
    return text % {**shared, "d": str(day.day), "dd": f"{day.day:02d}"}


@functools.lru_cache(maxsize=65536)
def _value_text(language: str, value: float | Fraction) -> str:
    """A rating as the bot's replies show it in ``language`` (:func:`bot.core.format.value`:
    ``1720``, ``37,5``), with the language's own minus sign (Babel: ``−5`` in Swedish)."""
    with using(language):
        return fmt.value(Fraction(value))


def _text_width(text: str, size: float) -> float:
    """About how wide ``text`` is drawn at ``size``: room to leave beside the plot (a wide
    character, Japanese, takes a whole em)."""
    ems = sum(1.0 if east_asian_width(c) in "WF" else CHAR_WIDTH for c in text)
    return math.ceil(ems * size)


def _n1(number: float) -> str:
    """A coordinate with one decimal: enough for a screen, and the same on every run."""
    return f"{number:.1f}"


def _tag(name: str, *children: str, **attributes: object) -> str:
    """An element: ``name`` with ``attributes`` (``class_`` is ``class``, ``stroke_width`` is
    ``stroke-width``) around ``children`` (markup, already escaped); empty, ``<name …/>``,
    without them."""
    marks = "".join(
        f" {key.rstrip('_').replace('_', '-')}={quoteattr(str(value))}"
        for key, value in attributes.items()
    )
    inner = "".join(children)
    return f"<{name}{marks}>{inner}</{name}>" if inner else f"<{name}{marks}/>"


def _classes(*names: str) -> str:
    """Several names in one attribute (``class``, ``aria-labelledby``)."""
    return " ".join(names)


def _text(text: str) -> str:
    """``text`` safe as an element's content (names are user input: ``<``, ``&``)."""
    return escape(_NOT_XML.sub("\ufffd", str(text)))
