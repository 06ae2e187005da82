"""Generate spring_cup_40x5.h9 and spring_cup_start.csv, once, deterministically.

Not run by the test suite (the files are committed); run it by hand after changing it:

    python3 tests/engine/formats/data/make_spring_cup.py

A 5-round, 40-player even McMahon-style tournament with Hungarian names: ranks 10k–4d,
McMahon pairing by score (no repeated pairings), colours balanced, the stronger player usually
winning, one player absent in round 1 (``0-``) so that round 1 has one bye (``0+``), two games
decided by default (``!``), tied places left blank, EGD PINs for the known players. The CSV
gives starting MGSZ ratings (each within its rank's band) for 30 players; the other 10 are new.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 20260321
ROUNDS = 5

NAMES = [
    "Nagy Bálint", "Kovács Réka", "Tóth Ádám", "Szabó Eszter", "Horváth Gergő",
    "Varga Zsófia", "Kiss Máté", "Molnár Dóra", "Németh Levente", "Farkas Lili",
    "Balogh Áron", "Papp Luca", "Takács Bence", "Juhász Noémi", "Lakatos Dániel",
    "Mészáros Kinga", "Oláh Márton", "Simon Boglárka", "Rácz Csaba", "Fekete Judit",
    "Szilágyi Zoltán", "Török Petra", "Fehér Gábor", "Balázs Anikó", "Gál Tamás",
    "Kis Orsolya", "Szűcs Ferenc", "Kocsis Emese", "Orsós Krisztián", "Pintér Ildikó",
    "Fodor Attila", "Szalai Hajnalka", "Sipos Péter", "Magyar Enikő", "Lukács Gyula",
    "Gulyás Vivien", "Bíró László", "Király Tünde", "Katona Ákos", "László Éva",
]  # fmt: skip

# rank step (1d = 1, 1k = 0, 2k = -1 …) → how many players hold it; 40 in all
RANKS = {4: 1, 3: 2, 2: 2, 1: 3, 0: 3, -1: 4, -2: 4, -3: 4, -4: 4, -5: 3, -6: 3, -7: 3, -8: 2,
         -9: 2}  # fmt: skip

# MGSZ rank table lower bounds (rules.md §1.1): band of a rank = [bound, next stronger bound)
BOUNDS = {-9: 1520, -8: 1555, -7: 1595, -6: 1635, -5: 1675, -4: 1720, -3: 1765, -2: 1815,
          -1: 1865, 0: 1920, 1: 1980, 2: 2050, 3: 2130, 4: 2230, 5: 2350}  # fmt: skip

CLUBS = ["Bp", "Bp", "Bp", "Deb", "Szeg", "Pécs", "Győr", "Misk"]
ABSENT_IN_ROUND_1 = 20  # a 4k arriving late: not paired in round 1
BY_DEFAULT = {(3, 7), (5, 12)}  # (round, table): decided by default, unplayed
NEW_PLAYERS = 10  # ten players, drawn by the generator's dice, have no starting rating


@dataclass
class Player:
    id: int
    name: str
    step: int
    club: str
    mms: int = 0
    opponents: list[int] = field(default_factory=list)
    blacks: int = 0
    whites: int = 0
    tokens: list[tuple[int | None, str]] = field(default_factory=list)  # (opponent, rest)


def rank_text(step: int) -> str:
    return f"{step}d" if step >= 1 else f"{1 - step}k"


def main() -> None:
    rng = random.Random(SEED)
    steps = [step for step, count in RANKS.items() for _ in range(count)]
    players = [
        Player(i, name, step, CLUBS[rng.randrange(len(CLUBS))], mms=step + 20)
        for i, (name, step) in enumerate(zip(NAMES, steps, strict=True))
    ]
    for round_number in range(1, ROUNDS + 1):
        active = [p for p in players if not (round_number == 1 and p.id == ABSENT_IN_ROUND_1)]
        active.sort(key=lambda p: (-p.mms, -p.step, p.id))
        if round_number == 1:
            players[ABSENT_IN_ROUND_1].tokens.append((None, "0-"))
        if len(active) % 2:
            bye = active.pop()  # the lowest: a bye counted as a win
            bye.tokens.append((None, "0+"))
            bye.mms += 1
        tables = pair(active)
        for table, (a, b) in enumerate(tables, 1):
            black, white = colours(a, b, rng)
            stronger, weaker = (a, b) if a.step >= b.step else (b, a)
            difference = stronger.step - weaker.step
            chance = 0.5 if difference == 0 else min(0.92, 0.6 + 0.1 * difference)
            winner = stronger if rng.random() < chance else weaker
            loser = weaker if winner is stronger else stronger
            played = (round_number, table) not in BY_DEFAULT
            winner.mms += 1
            for p, q in ((a, b), (b, a)):
                p.opponents.append(q.id)
            black.blacks += 1
            white.whites += 1
            sep = "/" if played else "!"
            winner.tokens.append((loser.id, f"+{sep}{'b' if winner is black else 'w'}0"))
            loser.tokens.append((winner.id, f"-{sep}{'b' if loser is black else 'w'}0"))
    sos = {p.id: sum(players[q].mms for q in p.opponents) for p in players}
    order = sorted(players, key=lambda p: (-p.mms, -sos[p.id], p.id))
    position = {p.id: i + 1 for i, p in enumerate(order)}
    new_players = set(rng.sample(range(len(players)), NEW_PLAYERS))
    write_h9(order, sos, position, new_players)
    write_ratings(players, new_players, rng)


def pair(free: list[Player]) -> list[tuple[Player, Player]]:
    """McMahon-style: the top unpaired player meets the next one they have not met.

    Backtracks when the players left at the bottom have all met already.
    """
    if not free:
        return []
    a, rest = free[0], free[1:]
    for index, b in enumerate(rest):
        if b.id in a.opponents:
            continue
        try:
            return [(a, b), *pair(rest[:index] + rest[index + 1 :])]
        except LookupError:
            continue
    raise LookupError("no pairing without a repeated game")


def colours(a: Player, b: Player, rng: random.Random) -> tuple[Player, Player]:
    """Black to whoever had black less often; nigiri (the generator's dice) when equal."""
    balance_a, balance_b = a.blacks - a.whites, b.blacks - b.whites
    if balance_a != balance_b:
        return (a, b) if balance_a < balance_b else (b, a)
    return (a, b) if rng.random() < 0.5 else (b, a)


def write_h9(
    order: list[Player], sos: dict[int, int], position: dict[int, int], new_players: set[int]
) -> None:
    lines = [
        "; CL[C]",
        "; EV[Budapest Spring Cup 2026]",
        "; PC[HU, Budapest]",
        "; DT[2026-03-21,2026-03-22]",
        "; HA[h9]",
        "; KM[6.5]",
        "; TM[60]",
        "; CM[5 rounds, McMahon, even games, 60 min sudden death]",
        ";",
        "; Pl Name                      Rk Co Club   MMS  SOS",
    ]
    previous = None
    for place, player in enumerate(order, 1):
        key = (player.mms, sos[player.id])
        shown = "" if key == previous else str(place)
        previous = key
        tokens = "".join(
            f"{rest if opponent is None else f'{position[opponent]}{rest}':>8}"
            for opponent, rest in player.tokens
        )
        pin = "" if player.id in new_players else f"  |{14700000 + 37 * player.id}"
        lines.append(
            f"{shown:>4} {player.name:<25} {rank_text(player.step):>3} HU {player.club:<5}"
            f"{player.mms:>5}{sos[player.id]:>5}{tokens}{pin}"
        )
    (HERE / "spring_cup_40x5.h9").write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_ratings(players: list[Player], new_players: set[int], rng: random.Random) -> None:
    rows = ["name,rating,rank"]
    for player in (p for p in players if p.id not in new_players):
        low, high = BOUNDS[player.step], BOUNDS[player.step + 1]
        rows.append(f"{player.name},{rng.randrange(low, high)},{rank_text(player.step)}")
    (HERE / "spring_cup_start.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
