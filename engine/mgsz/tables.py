"""The MGSZ rulebook's tables as data (rules.md §1.1–§1.3; MGSZ annex 1, tables 1–4).

Every table is a literal copied from the seed; the lookups derived from them are built once,
at import, by plain loops (no rule logic lives here).
"""

from __future__ import annotations

from engine.ranks import Rank
from engine.text import Msg

# MGSZ annex 1, table 1 (Minősítések): the lower Elo bound of each rank, strongest first
# (rules.md §1.1). 8d and 9d have no bound: they are not reachable by Elo.
RANK_BOUNDS: tuple[tuple[str, int], ...] = (
    ("7d", 2700), ("6d", 2500), ("5d", 2350), ("4d", 2230), ("3d", 2130), ("2d", 2050),
    ("1d", 1980), ("1k", 1920), ("2k", 1865), ("3k", 1815), ("4k", 1765),
    ("5k", 1720), ("6k", 1675), ("7k", 1635), ("8k", 1595), ("9k", 1555), ("10k", 1520),
    ("11k", 1485), ("12k", 1450), ("13k", 1420), ("14k", 1390), ("15k", 1360),
    ("16k", 1330), ("17k", 1305), ("18k", 1280), ("19k", 1255), ("20k", 1230), ("21k", 1210),
    ("22k", 1190), ("23k", 1170), ("24k", 1150), ("25k", 1130), ("26k", 1115),
    ("27k", 1100), ("28k", 1085), ("29k", 1070), ("30k", 1055), ("31k", 1040), ("32k", 1030),
    ("33k", 1020), ("34k", 1010), ("35k", 1000),
)  # fmt: skip

# rules.md §1.1 Decision: band width at or above 2700 (the 6d→7d step) and below 1000 (35k step)
WIDTH_FROM_TOP = 200
WIDTH_BELOW_TABLE = 10

# MGSZ annex 1, table 4 (Esélytáblázat): (lowest Δ, highest Δ, chance in thousandths);
# the last row is open-ended (348 and more → 0.000). rules.md §1.3.
CHANCE_TABLE: tuple[tuple[int, int | None, int], ...] = (
    (0, 2, 500), (3, 7, 490), (8, 12, 480), (13, 17, 460), (18, 22, 450),
    (23, 27, 440), (28, 32, 430), (33, 37, 410), (38, 42, 400), (43, 47, 390),
    (48, 52, 380), (53, 57, 370), (58, 62, 350), (63, 67, 340), (68, 72, 330),
    (73, 77, 320), (78, 82, 310), (83, 87, 300), (88, 92, 290), (93, 97, 280),
    (98, 102, 270), (103, 107, 260), (108, 112, 250), (113, 117, 240), (118, 122, 230),
    (123, 127, 220), (128, 132, 210), (133, 137, 200), (138, 142, 195), (143, 147, 190),
    (148, 152, 180), (153, 157, 170), (158, 162, 160), (163, 167, 150), (168, 172, 140),
    (173, 177, 135), (178, 182, 130), (183, 187, 125), (188, 192, 120), (193, 197, 115),
    (198, 202, 110), (203, 207, 105), (208, 212, 100), (213, 217, 90), (218, 222, 85),
    (223, 227, 80), (228, 232, 70), (233, 237, 60), (238, 242, 55), (243, 252, 50),
    (253, 272, 40), (273, 297, 30), (298, 312, 20), (313, 347, 10), (348, None, 0),
)  # fmt: skip

# MGSZ annex 1, table 2 (Versenyszorzók): category, base minutes ≥, extended minutes ≥, value;
# highest category first (rules.md §1.2).
TIME_CATEGORIES: tuple[tuple[str, int, int, int], ...] = (
    ("A", 90, 110, 20),
    ("B", 60, 80, 15),
    ("C", 40, 55, 10),
    ("D", 20, 30, 5),
    ("E", 10, 20, 0),
)

# MGSZ annex 1, table 2: a 13×13 tournament's multiplier, always (rules.md §1.2)
SMALL_BOARD_C = 5
SMALL_BOARD = 13
FULL_BOARD = 19
RATED_BOARDS = (FULL_BOARD, SMALL_BOARD)  # §1(2), rules.md §1.6

# MGSZ annex 1, table 3 (Fontosság): importance additions, each that applies (rules.md §1.2)
IMPORTANCE_ADDITIONS: dict[str, int] = {
    "invitational": 5,  # international invitational tournament or Hungarian championship
    "over_80": 5,  # more than 80 participants
    "championship": 10,  # European or World championship
    "even": 10,  # no-handicap 19×19 tournament
}
IMPORTANCE_LABELS: dict[str, str] = {
    "invitational": Msg("international invitational or Hungarian championship"),
    "over_80": Msg("more than 80 participants"),
    "championship": Msg("European or World championship"),
    "even": Msg("no-handicap 19×19 tournament"),
}
PARTICIPANTS_OVER = 80

# §6(3): a tournament whose C × rounds reaches this is split into parts (rules.md §1.4)
SPLIT_AT = 300

# §5(2)–(4): ranks from 3k up need the bound reached in two tournaments (rules.md §1.5)
CONFIRM_FROM = "3k"
CONFIRMATIONS = 2

# ---------------------------------------------------------------- lookups built from the tables

BOUND_BY_STEP: dict[int, int] = {Rank.parse(rank).step: elo for rank, elo in RANK_BOUNDS}
WEAKEST_STEP = min(BOUND_BY_STEP)  # 35k
STRONGEST_STEP = max(BOUND_BY_STEP)  # 7d
TABLE_BOTTOM = BOUND_BY_STEP[WEAKEST_STEP]  # 1000
TABLE_TOP = BOUND_BY_STEP[STRONGEST_STEP]  # 2700
# ours: the Elo a starting rating may be (hoshi rate --ratings): the rank table's span widened
# by the top band width (rules.md §1.1 Decision) — one band below 35k, and above 7d the 8d and
# 9d steps and one band more. Outside it (an Elo of 5, of 9000) the table is mistaken.
ELO_SCALE = (TABLE_BOTTOM - WIDTH_FROM_TOP, TABLE_TOP + 3 * WIDTH_FROM_TOP)  # 800 to 3300
CONFIRM_FROM_STEP = Rank.parse(CONFIRM_FROM).step

# For every Elo in [1000, 2700): the band's rank step and width (index = Elo − 1000).
BAND_STEP: list[int] = []
BAND_WIDTH: list[int] = []
for _step in range(WEAKEST_STEP, STRONGEST_STEP):
    _low, _high = BOUND_BY_STEP[_step], BOUND_BY_STEP[_step + 1]
    BAND_STEP.extend([_step] * (_high - _low))
    BAND_WIDTH.extend([_high - _low] * (_high - _low))

# The chance for every Δ below the open-ended last row (index = Δ).
CHANCE_BY_DELTA: list[int] = []
for _lowest, _highest, _milli in CHANCE_TABLE:
    if _highest is not None:
        CHANCE_BY_DELTA.extend([_milli] * (_highest - _lowest + 1))
CHANCE_BEYOND = CHANCE_TABLE[-1][2]
