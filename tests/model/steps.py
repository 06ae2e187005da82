"""The model's vocabulary: the console lines it types, built from small shrinkable choices.

Every builder returns the console line exactly as a person would type it (and, for imports, the
pasted block), so a failing example prints as a script ``hoshi console`` runs.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from hypothesis import strategies as st

DATA = Path(__file__).resolve().parents[1] / "engine" / "formats" / "data"

SYSTEMS = ("mgsz", "tensuusei", "swedish", "psg", "gor")
STARTS = (
    dt.datetime(2026, 11, 23, 19, 0, tzinfo=dt.UTC),  # a Monday evening
    dt.datetime(2026, 11, 20, 18, 30, tzinfo=dt.UTC),  # a Friday, a Tensuusei club night
    dt.datetime(2026, 12, 30, 20, 0, tzinfo=dt.UTC),  # the year's end two days away
)
# players with their rank and (for some) a standing to bring in: Elo for MGSZ-like numbers
PLAYERS = (
    ("Nagy Péter", "5k", None),
    ("Kovács Anna", "2d", 2090),
    ("Szabó Éva", "3k", 1830),
    ("Tóth Bence", "1d", None),
    ("Lind Erik", "12k", None),
    ("Sato Ken", "1k", 1950),
    ("Kowalski Jan", "6k", None),
    ("Huber Anna", "2p", None),
)
NAMES = tuple(name for name, _rank, _rating in PLAYERS)
RANKS = ("20k", "10k", "5k", "3k", "1k", "1d", "3d", "6d", "1p")
RESULTS = ("B+", "W+", "B+R", "W+R", "W+3.5", "B+0.5", "jigo", "unplayed")
TIMES = (None, "5m", "30m", "60m", '"60m 3x30s"', "2h")
KOMIS = (None, "0.5", "6.5", "7")
BOARDS = (None, "19", "13", "9")
TICKS = ("6h", "1d", "2d", "7d", "16d")
# rating settings (with a value each may take) and the club's own
SETTINGS = (
    ("system", SYSTEMS),
    ("time", ("30m", "60m", "2h", '"45m 3x30s"')),
    ("language", ("hu", "ja", "sv", "pl", "en")),
    ("komi", ("6.5", "7.5", "0.5")),
    ("mgsz.max_initial_rank", ("5k", "1k", "10k")),
    ("mgsz.split_club_periods", ("on", "off")),
    ("gor.club_class", ("A", "B", "C", "D")),
    ("psg.inactive_months", ("1", "13")),
    ("psg.max_arranged_per_pair", ("1", "2")),
    ("psg.auto_promotion_limit", ("6k", "1k")),
    ("psg.unknown_time_counts", ("on", "off")),
    ("psg.boards", ("19", "19,13")),
    ("swedish.kyu_targets", ("on", "off")),
    ("swedish.kyu_points", ("80", "40")),
    ("swedish.komi_min", ("5.5", "0.5")),
    ("tensuusei.anchor", ("130", "100")),
    ("tensuusei.spacing", ("12", "10")),
    ("tensuusei.pair_games_per_day", ("3", "1")),
    ("tensuusei.settle_end_of_day", ("on", "off")),
)
CORRECTIONS = (
    ("result", ("W+", "B+R", "jigo", "W+0.5")),
    ("h", ("0", "2", "5")),
    ("komi", ("0.5", "6.5")),
    ("date", ()),  # a date: days before today
    ("time", ("5m", "60m")),
    ("board", ("19", "13")),
    ("black", ()),  # a player
    ("white", ()),
    ("played", ("yes", "no")),
    ("swap", ()),
)


def _h9(name: str) -> str:
    data = (DATA / name).read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("iso-8859-15")


FILES = {  # a pasted results table (what an organiser pastes), by a short name
    "kis_kupa.h9": _h9("kis_kupa.h9"),
    "kis_kupa.xml": _h9("kis_kupa.xml"),
    "both_results.h9": _h9("both_results.h9"),
    "both_results.xml": _h9("both_results.xml"),
}
FILE_DATES = {
    "kis_kupa.h9": dt.date(2026, 3, 7),
    "kis_kupa.xml": dt.date(2026, 3, 7),
    "both_results.h9": dt.date(2026, 5, 9),
    "both_results.xml": dt.date(2026, 5, 9),
}

index = st.integers(0, 7)
small = st.integers(0, 3)
days_back = st.integers(0, 45)


def quoted(value: str) -> str:
    return value


def day(today: dt.date, back: int) -> str:
    return (today - dt.timedelta(days=back)).isoformat()


def result_line(
    black: str,
    white: str,
    result: str,
    *,
    h: int | None = None,
    komi: str | None = None,
    date: str | None = None,
    time: str | None = None,
    board: str | None = None,
    again: bool = False,
) -> str:
    parts = ["/result", black, white, result]
    if h is not None:
        parts.append(f"h={h}")
    if komi is not None:
        parts.append(f"komi={komi}")
    if date is not None:
        parts.append(f"date={date}")
    if time is not None:
        parts.append(f"time={time}")
    if board is not None:
        parts.append(f"board={board}")
    if again:
        parts.append("again")
    return " ".join(parts)


def csv_table(rows: list[tuple[str, str, str, str, int]]) -> str:
    """A games CSV (formats.md, CSV): date, black, white, result, round."""
    lines = ["date,black,white,result,round"]
    lines.extend(f"{d},{b},{w},{r},{n}" for d, b, w, r, n in rows)
    return "\n".join(lines) + "\n"
