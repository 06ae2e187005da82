"""Generate autumn_cup_16x4.h9, once, deterministically (not run by the test suite).

    python3 tests/bot/data/make_autumn_cup.py

A 4-round, 16-player *handicap* tournament (HA[h2]: stones = rank difference − 2, the weaker
player takes black) among sixteen players of spring_cup_40x5.h9, paired by the circle method
(no repeated pairings), the stronger player usually winning. It gives the club-season test a
second tournament with stones, so that the MGSZ handicap correction is exercised too.
"""

from __future__ import annotations

import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
PLAYERS = [  # name, rank — as entered for this tournament
    ("Nagy Bálint", "4d"), ("Kovács Réka", "3d"), ("Horváth Gergő", "2d"),
    ("Kiss Máté", "1d"), ("Németh Levente", "1k"), ("Lakatos Dániel", "2k"),
    ("Mészáros Kinga", "3k"), ("Fehér Gábor", "4k"), ("Balázs Anikó", "4k"),
    ("Gál Tamás", "5k"), ("Pintér Ildikó", "5k"), ("Szalai Hajnalka", "7k"),
    ("Király Tünde", "7k"), ("Gulyás Vivien", "8k"), ("Bíró László", "9k"),
    ("Katona Ákos", "10k"),
]  # fmt: skip
ROUNDS = 4
REDUCTION = 2


def step(rank: str) -> int:
    n = int(rank[:-1])
    return n if rank.endswith("d") else 1 - n


def main() -> None:
    rng = random.Random(20261017)
    n = len(PLAYERS)
    tokens: list[list[str]] = [[] for _ in range(n)]
    circle = list(range(n))
    for _ in range(ROUNDS):
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            sa, sb = step(PLAYERS[a][1]), step(PLAYERS[b][1])
            weaker, stronger = (a, b) if sa < sb else (b, a)
            stones = min(9, max(0, abs(sa - sb) - REDUCTION))  # 9 stones at most
            if stones == 0 and rng.random() < 0.5:
                weaker, stronger = stronger, weaker  # even game: colours by lot
            black, white = weaker, stronger
            winner = stronger if rng.random() < 0.62 else weaker
            for me, other in ((black, white), (white, black)):
                result = "+" if me == winner else "-"
                colour = "b" if me == black else "w"
                tokens[me].append(f"{other + 1}{result}/{colour}{stones}")
        circle = [circle[0], circle[-1], *circle[1:-1]]
    lines = [
        "; CL[C]",
        "; EV[Budapest Autumn Handicap Cup 2026]",
        "; PC[HU, Budapest]",
        "; DT[2026-10-17,2026-10-18]",
        f"; HA[h{REDUCTION}]",
        "; KM[0.5]",
        "; TM[45]",
        ";",
        "; Pl Name                            Rk Co Club",
    ]
    for i, (name, rank) in enumerate(PLAYERS):
        lines.append(f"{i + 1:4} {name:<30} {rank:>3} HU Bp    " + "  ".join(tokens[i]))
    (HERE / "autumn_cup_16x4.h9").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
