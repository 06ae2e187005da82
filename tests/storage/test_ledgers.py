"""storage.ledgers: one club's projections in memory, and the collector paused for a replay."""

from __future__ import annotations

import gc

import pytest

from storage.ledgers import ClubLedgers, Projection, collector_paused
from tests.storage.fake_system import SYSTEMS


def _ledgers() -> ClubLedgers:
    plus = Projection("plus", SYSTEMS["plus"](), last_seq=12, last_key=(5, 3))
    daily = Projection("daily", SYSTEMS["daily"](), last_seq=7, rejected=[(9, "refused")])
    return ClubLedgers(7, "plus", {"plus": plus, "daily": daily}, "daily:,plus:")


def test_the_current_systems_projection_speaks_for_the_club() -> None:
    ledgers = _ledgers()
    assert ledgers.now is ledgers.projections["plus"]
    assert ledgers.system is ledgers.projections["plus"].system
    assert (ledgers.last_seq, ledgers.last_key) == (12, (5, 3))
    assert ledgers.rejected == {"plus": [], "daily": [(9, "refused")]}


def test_the_backlog_counts_the_entries_each_projection_has_not_folded() -> None:
    ledgers = _ledgers()
    assert ledgers.backlog() == 0 + 5
    assert ledgers.backlog(20) == 8 + 13
    assert ledgers.backlog(5) == 0  # nothing is behind an earlier end


def test_a_projection_stopped_part_way_is_checked_to_where_it_read() -> None:
    projection = Projection("plus", SYSTEMS["plus"](), last_seq=12)
    assert projection.checked == 12
    projection.read_to = 30
    assert projection.checked == 30


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_and_left_as_it_was(enabled: bool) -> None:
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        with collector_paused():
            assert not gc.isenabled()
        assert gc.isenabled() == enabled
        with pytest.raises(RuntimeError), collector_paused():
            raise RuntimeError("a replay failed")
        assert gc.isenabled() == enabled
    finally:
        (gc.enable if was else gc.disable)()
