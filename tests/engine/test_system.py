"""Questions every rating system answers the same way (engine/system.py's protocol)."""

from __future__ import annotations

import pytest

from engine.mgsz.tables import RANK_BOUNDS
from engine.system import RatingScale
from engine.systems import SYSTEMS
from engine.tensuusei import Tensuusei, TensuuseiParams


@pytest.mark.parametrize(
    ("system", "inside", "outside"),
    [
        # every bound of the MGSZ rank table (rules.md §1.1) is an Elo; 5 is not
        ("mgsz", [bound for _, bound in RANK_BOUNDS], [5, 0, 100, 9000]),
        # initial points, 12 a rank from 130 at 1d (rules.md §2.2): 9k 22, 8d 214, 11k −2
        ("tensuusei", [22, 70, 130, 214, -2], [2100, 1720, -1000]),
    ],
)
def test_a_rated_systems_scale(system: str, inside: list[int], outside: list[int]) -> None:
    scale = SYSTEMS[system]().rating_scale()
    assert scale is not None
    assert all(value in scale for value in inside)
    assert not any(value in scale for value in outside)


@pytest.mark.parametrize("system", ["swedish", "psg"])
def test_systems_without_a_settable_rating_have_no_scale(system: str) -> None:
    assert SYSTEMS[system]().rating_scale() is None


def test_tensuusei_scale_follows_the_clubs_rank_line() -> None:
    wide = Tensuusei(TensuuseiParams(anchor_1d=1000, spacing=100)).rating_scale()
    assert wide is not None and 2100 in wide and -5000 not in wide


def test_a_scale_reads_as_a_range() -> None:
    assert str(RatingScale("MGSZ Elo", 800, 3300)) == "MGSZ Elo scale (800 to 3300)"
