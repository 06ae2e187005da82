"""Generate gor_cup_40x5.h9, once, deterministically (not run by the test suite).

    python3 tests/bot/data/make_gor_cup.py

A 5-round, 40-player *handicap* tournament of class B (``CL[B]``, ``HA[h2]``: stones = rank
difference − 2, at most 9, the weaker player takes black) from 5d down to 30k, paired
McMahon-like (by McMahon score: rank plus wins, no repeated pairings), the stronger player
(counting the stones) usually winning. Round 2 has a jigo, round 4 a game won by default
(unplayed, never rated) and the 30k player loses every game, so that the EGF GoR's floor −900
is reached. It gives ``hoshi rate --system gor`` a realistic field (tests/bot/cli).
"""

from __future__ import annotations

import math
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
PLAYERS = [  # name, rank, country, club
    ("Weber Lukas", "5d", "DE", "Ber"), ("Dupont Mathieu", "4d", "FR", "Par"),
    ("Novák Jan", "4d", "CZ", "Pra"), ("Kowalski Piotr", "3d", "PL", "War"),
    ("Jansen Daan", "3d", "NL", "Ams"), ("Rossi Marco", "3d", "IT", "Mil"),
    ("Nagy Péter", "2d", "HU", "Bp"), ("Müller Anna", "2d", "DE", "Mun"),
    ("Lindqvist Erik", "2d", "SE", "Sto"), ("Horváth Gergő", "1d", "HU", "Pécs"),
    ("Svoboda Eva", "1d", "CZ", "Brn"), ("Schmidt Jonas", "1d", "DE", "Ham"),
    ("Martin Claire", "1k", "FR", "Lyo"), ("Kovács Anna", "1k", "HU", "Bp"),
    ("Wiśniewski Tomasz", "2k", "PL", "Kra"), ("de Vries Sanne", "2k", "NL", "Utr"),
    ("Bianchi Luca", "3k", "IT", "Rom"), ("Fischer Felix", "3k", "DE", "Köl"),
    ("Nilsson Karin", "4k", "SE", "Got"), ("Dvořák Petr", "4k", "CZ", "Pra"),
    ("Szabó Éva", "5k", "HU", "Szeg"), ("Bernard Hugo", "5k", "FR", "Tou"),
    ("Wójcik Agnieszka", "6k", "PL", "Gda"), ("Bakker Lotte", "6k", "NL", "Ams"),
    ("Ricci Giulia", "7k", "IT", "Tor"), ("Wagner Paul", "8k", "DE", "Ber"),
    ("Andersson Oskar", "9k", "SE", "Upp"), ("Kiss Máté", "10k", "HU", "Bp"),
    ("Procházka Tomáš", "11k", "CZ", "Ost"), ("Petit Léa", "12k", "FR", "Par"),
    ("Kamińska Zofia", "13k", "PL", "War"), ("Visser Bram", "14k", "NL", "Hag"),
    ("Greco Sofia", "15k", "IT", "Nap"), ("Becker Emma", "16k", "DE", "Dre"),
    ("Berg Maja", "18k", "SE", "Mal"), ("Tóth Ádám", "20k", "HU", "Deb"),
    ("Černý Jakub", "22k", "CZ", "Pra"), ("Moreau Chloé", "24k", "FR", "Nic"),
    ("Nowak Jakub", "26k", "PL", "Poz"), ("Kuijpers Tim", "30k", "NL", "Ein"),
]  # fmt: skip
ROUNDS = 5
REDUCTION = 2
JIGO = (2, 4)  # round 2: the game of the 4th board is a jigo
BY_DEFAULT = (4, 7)  # round 4: the game of the 7th board is won by default
FLOORED = len(PLAYERS) - 1  # the 30k loses every game


def step(rank: str) -> int:
    n = int(rank[:-1])
    return n if rank.endswith("d") else 1 - n


def pair_up(order: list[int], met: set[frozenset[int]]) -> list[tuple[int, int]]:
    """Each player, top down, with the nearest one not met yet (backtracking)."""
    if not order:
        return []
    a, rest = order[0], order[1:]
    for b in rest:
        if frozenset((a, b)) not in met:
            tail = pair_up([x for x in rest if x != b], met)
            if len(tail) * 2 == len(rest) - 1:
                return [(a, b), *tail]
    return []


def main() -> None:
    rng = random.Random(20261123)
    n = len(PLAYERS)
    tokens: list[list[str]] = [[] for _ in range(n)]
    score = [0.0] * n
    met: set[frozenset[int]] = set()
    for rnd in range(1, ROUNDS + 1):
        mms = [step(PLAYERS[i][1]) + score[i] for i in range(n)]  # McMahon score
        order = sorted(range(n), key=lambda i: (-mms[i], -step(PLAYERS[i][1]), i))
        pairs = pair_up(order, met)
        met.update(frozenset(p) for p in pairs)
        for board, (a, b) in enumerate(pairs, start=1):
            weaker, stronger = sorted((a, b), key=lambda i: (step(PLAYERS[i][1]), -i))
            gap = step(PLAYERS[stronger][1]) - step(PLAYERS[weaker][1])
            stones = min(9, max(0, gap - REDUCTION))
            if stones:
                black, white = weaker, stronger
            else:
                black, white = (a, b) if rng.random() < 0.5 else (b, a)
            edge = gap - stones  # the rank difference the stones leave
            p_strong = 1 / (1 + math.exp(-0.6 * edge))
            if FLOORED in (a, b):
                winner = b if a == FLOORED else a
            else:
                winner = stronger if rng.random() < p_strong else weaker
            mark = "!" if (rnd, board) == BY_DEFAULT else "/"
            for me, other in ((black, white), (white, black)):
                colour = "b" if me == black else "w"
                if (rnd, board) == JIGO:
                    res, points = "=", 0.5
                else:
                    res, points = ("+", 1.0) if me == winner else ("-", 0.0)
                tokens[me].append(f"{other + 1}{res}{mark}{colour}{stones}")
                score[me] += points
    lines = [
        "; CL[B]",
        "; EV[Frankfurt GoR Open 2026]",
        "; PC[DE, Frankfurt]",
        "; DT[2026-10-17,2026-10-18]",
        f"; HA[h{REDUCTION}]",
        "; KM[0.5]",
        "; TM[75]",
        "; CM[5 rounds, McMahon, handicap games, 60 min + 5x30 s byo-yomi]",
        ";",
        "; Pl Name                      Rk Co Club   MMS",
    ]
    for i, (name, rank, country, club) in enumerate(PLAYERS):
        mms = step(rank) + 30 + score[i]
        cells = "  ".join(f"{t:<7}" for t in tokens[i]).rstrip()
        lines.append(f"{i + 1:4d} {name:<25} {rank:>3} {country} {club:<6} {mms:4.1f}  {cells}")
    (HERE / "gor_cup_40x5.h9").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
