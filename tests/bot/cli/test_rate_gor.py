"""``hoshi rate --system gor``: the EGF GoR of a 40-player, 5-round class-B handicap tournament
(tests/bot/data/gor_cup_40x5.h9, made by make_gor_cup.py) against a hand computation.

The hand computation reads the h9 file itself and writes rules.md §6 out with plain ``math``,
independent of engine/: every player starts from the declared rank (1d = 2100, 100 a rank);
every game uses the ratings from before the tournament; per game
``con(r) · (S − Se) + bonus(r)`` with ``Se = 1 / (1 + exp(β(r₂) − β(r)))``,
``β(r) = −7 ln(3300 − r)``, the receiver of H ≥ 1 stones counted ``100 (H − 0.5)`` stronger
inside β; the sum × 0.75 (class B, CL[B]); never below −900; shown rounded to whole points.
Games won by default (``!``) are not rated.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.__main__ import main

ROOT = Path(__file__).resolve().parents[3]
CUP = ROOT / "tests" / "bot" / "data" / "gor_cup_40x5.h9"
TOKEN = re.compile(r"^(\d+)([+=-])([/!])([wb])(\d)$")
RANK = re.compile(r"^(\d+)([kd])$")
CLASS_B = 0.75
ROW = re.compile(r"^\s*(\d+)\s.+?\s(-?\d+)\s+rank\s+(\d)\s+([+-]\d+|±0)\s+(-?\d+)\s+\d+[kd]")


@dataclass(frozen=True)
class ByHand:
    name: str
    start: int
    games: int
    exact: float

    @property
    def shown(self) -> int:
        return math.floor(self.exact + 0.5)


def start_of(rank: str) -> int:
    """rules.md §6, New players: 1d = 2100, 100 points a rank (1k = 2000, 30k = −900)."""
    found = RANK.match(rank)
    assert found, rank
    n, kind = int(found[1]), found[2]
    return 2100 + 100 * (n - 1) if kind == "d" else 2100 - 100 * n


def beta(r: float) -> float:
    return -7 * math.log(3300 - r)


def by_hand() -> dict[int, ByHand]:
    lines = [line for line in CUP.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert "; CL[B]" in lines  # class B: every change × 0.75
    players: dict[int, tuple[str, str, list[str]]] = {}
    for line in lines:
        if line.startswith(";"):
            continue
        fields = line.split()
        rank_at = next(i for i, f in enumerate(fields) if RANK.match(f))
        players[int(fields[0])] = (" ".join(fields[1:rank_at]), fields[rank_at], fields[-5:])
    start = {pl: start_of(rank) for pl, (_, rank, _) in players.items()}
    out: dict[int, ByHand] = {}
    for pl, (name, _, tokens) in players.items():
        r = start[pl]
        total, games = 0.0, 0
        for token in tokens:
            found = TOKEN.match(token)
            assert found, token
            opponent, result, mark, colour, stones = found.groups()
            if mark == "!":  # won by default: unplayed, not rated
                continue
            games += 1
            s = {"+": 1.0, "=": 0.5, "-": 0.0}[result]
            own, other = float(r), float(start[int(opponent)])
            h = int(stones)
            if h >= 1:  # black receives the stones
                if colour == "b":
                    own += 100 * (h - 0.5)
                else:
                    other += 100 * (h - 0.5)
            se = 1 / (1 + math.exp(beta(other) - beta(own)))
            con = ((3300 - r) / 200) ** 1.6
            bonus = math.log(1 + math.exp((2300 - r) / 80)) / 5
            total += con * (s - se) + bonus
        out[pl] = ByHand(name, r, games, max(-900.0, r + CLASS_B * total))
    return out


BY_HAND = by_hand()


def test_the_file_is_what_the_hand_computation_needs() -> None:
    """40 players, a jigo, a game won by default, handicaps up to 9 and a player at the floor."""
    assert len(BY_HAND) == 40
    text = CUP.read_text(encoding="utf-8")
    assert "=/" in text and "+!" in text and "/b9" in text
    assert BY_HAND[40].exact == -900 and BY_HAND[40].start == -900
    assert BY_HAND[13].games == 4  # Martin Claire's round 4 was won by default


def test_the_table_matches_the_hand_computation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rate", str(CUP), "--system", "gor"]) == 0
    out = capsys.readouterr().out
    assert "Tournament class: class B given for the tournament: every change × 0.75" in out
    rows = {}
    for line in out.splitlines():
        found = ROW.match(line)
        if found:
            rows[int(found[1])] = (int(found[2]), int(found[3]), found[4], int(found[5]))
    assert len(rows) == 40
    for pl, hand in BY_HAND.items():
        start, games, change, after = rows[pl]
        assert (start, games, after) == (hand.start, hand.games, hand.shown), hand.name
        assert int(change.replace("±", "")) == hand.shown - hand.start, hand.name


def test_json_matches_the_hand_computation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rate", str(CUP), "--system", "gor", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["name"] for row in rows] == [hand.name for hand in BY_HAND.values()]
    for row, hand in zip(rows, BY_HAND.values(), strict=True):
        assert row["rating_before"] == hand.start, hand.name
        assert row["games"] == hand.games, hand.name
        assert row["rating_after"] == hand.shown, hand.name
        assert row["start_from"] == "rank"
    # a few by name, so that a reader sees the numbers (the table)
    shown = {row["name"]: (row["rating_before"], row["rating_after"]) for row in rows}
    assert shown["Weber Lukas"] == (2500, BY_HAND[1].shown)
    assert shown["Kuijpers Tim"] == (-900, -900)  # five losses at the floor
    assert rows[37]["rank_after"] == "23k"  # Moreau Chloé, 24k → 23k: −147 is 23k


def test_the_command_line_itself() -> None:
    """``python3 -m bot rate FILE --system gor``, as an organiser types it."""
    done = subprocess.run(
        [sys.executable, "-m", "bot", "rate", str(CUP), "--system", "gor"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "rated under EGF GoR (Europe)" in done.stdout
    weber = next(line for line in done.stdout.splitlines() if "Weber Lukas" in line)
    assert weber.split()[-2] == str(BY_HAND[1].shown)


def test_a_starting_gor_from_the_egd_is_kept_to_the_thousandth(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """rules.md §6: an EGD GoR (2705.840) in --ratings starts the player exactly; shown in
    whole points. More decimals are refused with the reason."""
    first = BY_HAND[1]
    start = tmp_path / "start.csv"
    start.write_text(f"name,rating\n{first.name},2705.840\n", encoding="utf-8")
    assert main(["rate", str(CUP), "--system", "gor", "--ratings", str(start), "--json"]) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)}
    assert rows[first.name]["rating_before"] == 2706
    start.write_text(f"name,rating\n{first.name},2705.8401\n", encoding="utf-8")
    assert main(["rate", str(CUP), "--system", "gor", "--ratings", str(start)]) != 0
    assert "3 decimals at most" in capsys.readouterr().err
