"""benchmarks.catchup: the catch-up cases' file and their time limit (the cases themselves run
in tests/benchmarks/test_bench.py)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from benchmarks import bench, catchup
from engine.formats import parse_h9


def test_the_imported_file_is_a_tournament_of_new_players() -> None:
    """The h9 the import case sends reads back as written: every player once, every round
    fully paired, names no club player has."""
    tf = parse_h9(catchup.import_file(11, seed=3))
    assert len(tf.players) == 11 and tf.rounds == catchup.IMPORT_ROUNDS
    assert tf.start == catchup.IMPORT_START and tf.time_minutes == 60
    assert len({p.name for p in tf.players}) == 11
    assert all(p.name.startswith("Importee") for p in tf.players)
    assert len(tf.games) == catchup.IMPORT_ROUNDS * 5  # one player sits out each round
    for number in range(1, tf.rounds + 1):
        seated = [pos for g in tf.games if g.round == number for pos in g.positions()]
        assert len(seated) == len(set(seated)) == 10


async def test_a_case_past_its_time_is_stopped_and_reported_as_over(tmp_path: Path) -> None:
    """A case whose work outruns its limit is killed and reported "over", with a miss beside
    its target (the set-up's figures kept)."""
    found = await catchup.catchup(
        str(tmp_path / "ancient.sqlite"),
        "ancient",
        tmp_path,
        date=dt.date(1990, 1, 1),
        timeout_s=0.05,
    )
    assert found["timed_out"] and "s" not in found
    assert found["setup"]["players"] == catchup.ANCIENT_PLAYERS
    assert found["setup"]["date"] == "1990-01-01"
    lines = bench.catchup_lines({"ancient": found}, bench._mark)
    assert lines[1].endswith("over 0 s  ✗ (target ≤ 1)"), lines
