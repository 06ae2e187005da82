"""``hoshi rate``: the offline calculator on a hand-made 40-player, 5-round tournament."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.core.rate_report import MultiplierInputs, rate, read_tournament
from bot.i18n import using
from engine.formats import parse_ratings_csv

DATA = Path(__file__).resolve().parents[2] / "engine" / "formats" / "data"
CUP = DATA / "spring_cup_40x5.h9"
START = DATA / "spring_cup_start.csv"


@pytest.fixture(autouse=True)
def english_operator(monkeypatch: pytest.MonkeyPatch) -> None:
    """``hoshi rate`` speaks the terminal's locale: these tests read English."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def _report(system: str = "mgsz", inputs: MultiplierInputs | None = None):
    tf = read_tournament(CUP.read_bytes(), CUP.name)
    return rate(tf, system, parse_ratings_csv(START.read_bytes()), inputs or MultiplierInputs())


def _row(report, name: str):
    return next(p for p in report.players if p.name == name)


def test_a_player_checked_by_hand() -> None:
    """Balázs Anikó (5k, 1760 from the CSV), C = 15 (60 min) + 10 (even) = 25.

    By hand from the chance table (rules.md §1.3): R1 beat Gál 1739 (Δ21, higher won) +0.450;
    R2 beat Török 1782 (Δ22, lower won) +0.550; R3 lost to Fehér 1770 (Δ10) −0.480; R4 beat
    Szűcs 1720 (no CSV row: 5k table value; Δ40, higher won) +0.400; R5 beat Szilágyi 1807
    (Δ47, lower won) +0.610. ΣJp = 1.530; 25 × 1.530 = 38.25 → 38; 1798 ≥ 1765: 4k at once.
    """
    row = _row(_report(), "Balázs Anikó")
    assert (row.rating_before, row.start_from, row.games) == (1760, "csv", 5)
    assert (row.change, row.rating_after, str(row.rank_after)) == (38, 1798, "4k")


def test_unknown_players_start_at_their_rank_value_and_unplayed_games_are_not_rated() -> None:
    report = _report()
    szucs = _row(report, "Szűcs Ferenc")
    assert (szucs.start_from, szucs.rating_before) == ("rank", 1720)  # 5k (rules.md §1.4)
    fekete = _row(report, "Fekete Judit")
    assert fekete.games == 4  # round 5 was "27+!b0": a win by default, unplayed


def test_elo_is_conserved_up_to_rounding() -> None:
    report = _report()
    total = sum(int(p.change) for p in report.players)
    assert abs(total) <= len(report.players) // 2 + 1  # each change rounds by at most 0.5


def test_the_report_says_where_the_multiplier_came_from() -> None:
    text = _report().as_table()
    assert "C = 25" in text and "from the file (TM)" in text and "HA[h9]" in text
    manual = _report(inputs=MultiplierInputs(manual=45)).as_table()
    assert "C = 45, set by hand" in manual and "from --C" in manual


def test_a_big_manual_multiplier_splits_the_tournament() -> None:
    report = _report(inputs=MultiplierInputs(manual=70))  # 70 × 5 rounds ≥ 300
    assert "rated in 2 parts of 3, 2 rounds" in report.as_table()


@pytest.mark.parametrize("system", ["mgsz", "tensuusei", "swedish", "psg"])
def test_every_system_rates_the_file(system: str) -> None:
    report = _report(system)
    assert len(report.players) == 40
    rows = json.loads(report.as_json())
    assert {"name", "rank_before", "rating_before", "rating_after", "rank_after"} <= set(rows[0])


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rate", "--system", "mgsz", str(CUP), "--ratings", str(START), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    anikó = next(r for r in rows if r["name"] == "Balázs Anikó")
    assert (anikó["rating_before"], anikó["rating_after"], anikó["rank_after"]) == (
        1760,
        1798,
        "4k",
    )
    # numbers are JSON numbers: the change too, never "+38"
    assert anikó["change"] == 38
    assert all(isinstance(row["change"], int) for row in rows)


def test_cli_refuses_a_corrupted_file_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = CUP.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines, 1) if "Németh Levente" in line)
    lines[number - 1] = lines[number - 1].replace("12+/w0", "12+/x0")
    bad = tmp_path / "bad.h9"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["rate", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing printed as if rated
    assert f"line {number}" in captured.err and "12+/x0" in captured.err


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["rate", "missing.h9"], "cannot read"),
        (["rate", str(CUP), "--importance", "olympic"], "unknown --importance"),
        (["rate", str(CUP), "--C", "-3"], "--C must be"),
        (["rate", str(CUP), "--time", "fast"], "duration"),
        (["rate", str(CUP), "--participants", "1"], "--participants"),
    ],
)
def test_cli_bad_flags(argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert fragment in capsys.readouterr().err


def test_cli_bad_ratings_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ratings = tmp_path / "r.csv"
    ratings.write_text("name,rating\nNagy Bálint,lots\n", encoding="utf-8")
    assert main(["rate", str(CUP), "--ratings", str(ratings)]) == 2
    assert "line 2" in capsys.readouterr().err


def _with_start(system: str, csv: str):
    tf = read_tournament(CUP.read_bytes(), CUP.name)
    return rate(tf, system, parse_ratings_csv(csv.encode()), MultiplierInputs())


@pytest.mark.parametrize(
    ("system", "value", "scale"),
    [("mgsz", 5, "MGSZ Elo scale (800 to 3300)"), ("tensuusei", 2100, "Tensuusei points scale")],
)
def test_a_rating_off_the_systems_scale_is_ignored_and_said(
    system: str, value: int, scale: str
) -> None:
    report = _with_start(system, f"name,rating\nBalázs Anikó,{value}\n")
    row = _row(report, "Balázs Anikó")
    from_rank = _row(_with_start(system, "name,rating\n"), "Balázs Anikó")
    assert (row.start_from, row.rating_before) == ("rank", from_rank.rating_before)
    (warning,) = [w for w in report.warnings if "Balázs Anikó" in w]
    assert warning.startswith(f"--ratings line 2: Balázs Anikó's {value} is outside the ")
    assert scale in warning
    assert warning.endswith("ignored: the player starts from the rank 5k")
    assert warning in report.as_table()


def test_the_table_in_polish() -> None:
    with using("pl"):
        report = _with_start("mgsz", "name,rating\nBalázs Anikó,5\n")
        text = report.as_table()
    assert text.startswith("Budapest Spring Cup 2026 — przeliczony według: ")
    assert "Dane wejściowe: tempo 1h z pliku (TM); turniej bez fory według HA[h9]; " in text
    assert "40 uczestników z wierszy graczy w pliku" in text
    assert "M-ce  Nazwisko" in text and "Ranga" in text and "stopień" in text
    assert (
        "--ratings, wiersz 2: wartość 5 (Balázs Anikó) jest poza zakresem: " in text
        and "gracz zaczyna od stopnia 5k" in text
    )
    assert "rated under" not in text and "Inputs" not in text and "ignored" not in text


def test_a_rating_on_the_scale_is_used() -> None:
    row = _row(_with_start("tensuusei", "name,rating\nBalázs Anikó,75\n"), "Balázs Anikó")
    assert (row.start_from, row.rating_before) == ("csv", 75)


@pytest.mark.parametrize("system", ["swedish", "psg"])
def test_ratings_under_a_system_without_one_are_ignored_and_said(system: str) -> None:
    report = _with_start(system, "name,rating,rank\nBalázs Anikó,1760,4k\n")
    assert str(_row(report, "Balázs Anikó").rank_before) == "4k"  # the rank still counts
    assert any(
        w.startswith("--ratings: the ratings are ignored (") and "only its ranks count" in w
        for w in report.warnings
    )


def test_cli_json_says_what_it_ignored_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ratings = tmp_path / "r.csv"
    ratings.write_text("name,rating\nBalázs Anikó,5\n", encoding="utf-8")
    assert main(["rate", str(CUP), "--ratings", str(ratings), "--json"]) == 0
    out = capsys.readouterr()
    json.loads(out.out)
    assert "--ratings line 2: Balázs Anikó's 5 is outside the MGSZ Elo scale" in out.err


def test_cli_without_a_time_control_names_its_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    no_tm = tmp_path / "no_tm.h9"
    no_tm.write_text(
        "".join(line for line in CUP.read_text("utf-8").splitlines(True) if "TM[" not in line),
        encoding="utf-8",
    )
    assert main(["rate", str(no_tm)]) == 2
    err = capsys.readouterr().err
    assert 'give it with --time "60m 3x30s japanese" or set C by hand with --C, e.g. --C 25' in err
    assert "C=25" not in err and "rules.md" not in err
    assert main(["rate", str(no_tm), "--C", "25"]) == 0


def test_json_changes_are_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    """``--json`` gives numbers as JSON numbers (issue 24: ``"change": "+7"``)."""
    assert main(["rate", "--system", "mgsz", str(CUP), "--ratings", str(START), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert all(isinstance(r["change"], int) for r in rows)
    anikó = next(r for r in rows if r["name"] == "Balázs Anikó")
    assert anikó["change"] == 38


@pytest.mark.parametrize("language", ["ja", "sv"])
def test_the_table_is_aligned_in_every_language(language: str) -> None:
    """Every row's columns start at the header's screen columns, Japanese headings (two
    columns a character) too (issue 24: a misaligned Japanese table)."""
    from bot.core.replies import display_width

    report = _report()
    with using(language):
        lines = report.as_table().splitlines()
    rows = lines[lines.index("") + 2 :][: len(report.players)]
    starts = {
        display_width(line[: line.index(player.name)])
        for line, player in zip(rows, report.players, strict=True)
    }
    ends = {
        display_width(line[: line.index(player.name) - 2])
        for line, player in zip(rows, report.players, strict=True)
    }
    assert len(starts) == 1 and len(ends) == 1, rows[:3]
