"""Killing hoshi in the middle of a paste leaves all of it or none of it (issue 2/6).

A real ``hoshi console`` subprocess imports a pasted 300-player, 7-round tournament; it is
killed with SIGKILL at random moments, before, during and after the write. After every kill
the database passes SQLite's integrity check and holds either the whole tournament (every
player, every game) or nothing of it.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

PLAYERS, ROUNDS = 300, 7
KILLS = 8


def big_tournament(name: str, seed: int) -> str:
    """A valid h9 file: circle-method pairings, the lower number usually winning."""
    rng = random.Random(seed)
    tokens: list[list[str]] = [[] for _ in range(PLAYERS)]
    circle = list(range(PLAYERS))
    for _ in range(ROUNDS):
        for i in range(PLAYERS // 2):
            a, b = circle[i], circle[PLAYERS - 1 - i]
            winner = min(a, b) if rng.random() < 0.7 else max(a, b)
            for me, other, colour in ((a, b, "b"), (b, a, "w")):
                tokens[me].append(f"{other + 1}{'+' if me == winner else '-'}/{colour}0")
        circle = [circle[0], circle[-1], *circle[1:-1]]
    lines = [f"; EV[{name}]", "; DT[2026-05-01,2026-05-03]", "; HA[h9]", "; KM[6.5]", "; TM[60]"]
    for i in range(PLAYERS):
        rank = f"{1 + i * 25 // PLAYERS}k"
        lines.append(
            f"{i + 1:4} Player{i + 1:03d} {name.split()[-1]}  {rank} HU Bp  " + " ".join(tokens[i])
        )
    return "\n".join(lines) + "\n"


def import_script(text: str) -> str:
    return f"/tournament import <<END\n{text}END\n"


def start(db: Path, home: Path, script: str) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bot",
            "console",
            "--db",
            str(db),
            "--system",
            "tensuusei",
            "--quiet",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        # HOME in the test's folder: no user config, no user database is touched
        env={
            "PATH": "/usr/bin:/bin",
            "HOME": str(home),
            "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
        },
        cwd=home,
    )
    assert process.stdin is not None
    process.stdin.write(script.encode("utf-8"))
    process.stdin.close()
    return process


def tournament_state(db: Path, name: str) -> tuple[int, int, int]:
    """(tournaments called ``name``, their games, that cup's players); integrity checked."""
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        tournaments = con.execute("SELECT seq FROM tournaments WHERE name = ?", (name,)).fetchall()
        games = con.execute(
            "SELECT COUNT(*) FROM games WHERE tournament IN (SELECT seq FROM tournaments "
            "WHERE name = ?)",
            (name,),
        ).fetchone()[0]
        players = con.execute(
            "SELECT COUNT(*) FROM players WHERE name LIKE ?", (f"% {name.split()[-1]}",)
        ).fetchone()[0]
    return len(tournaments), games, players


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_a_killed_paste_leaves_all_or_nothing(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    rng = random.Random(7)
    # a first import, to completion, measures how long one takes
    began = time.monotonic()
    process = start(db, tmp_path, import_script(big_tournament("Cup c0", 0)))
    assert process.wait(timeout=120) == 0
    duration = time.monotonic() - began
    assert tournament_state(db, "Cup c0") == (1, PLAYERS * ROUNDS // 2, PLAYERS)

    outcomes = []
    for k in range(1, KILLS + 1):
        name = f"Cup c{k}"
        process = start(db, tmp_path, import_script(big_tournament(name, k)))
        # spread over parse, plan, write and exit (later imports take longer: the club grows)
        time.sleep((0.5 + 1.1 * (k - rng.random()) / KILLS) * duration)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        state = tournament_state(db, name)
        assert state in ((0, 0, 0), (1, PLAYERS * ROUNDS // 2, PLAYERS)), (name, state)
        outcomes.append(state[0])
    # the earlier, complete imports are untouched by the kills
    assert tournament_state(db, "Cup c0") == (1, PLAYERS * ROUNDS // 2, PLAYERS)
    print(
        f"import takes {duration:.2f} s; kills left {outcomes.count(1)} complete and "
        f"{outcomes.count(0)} absent imports"
    )
