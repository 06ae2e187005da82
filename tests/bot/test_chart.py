"""Rating charts: a valid PNG sized for a phone, with or without data."""

from __future__ import annotations

import datetime as dt
import io
import struct

import matplotlib.image as mpimg
import pytest

from bot.chart import Band, ChartData, Marker, render_chart

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
