"""``hoshi import`` of CSV tables: players and games, all or nothing (formats.md, CSV)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.__main__ import main

PLAYERS = (
    "name,rank,rating,country\nNagy Péter,3k,1830,HU\nKovács Anna,2d,2080,HU\nSzabó Éva,12k,,HU\n"
)
GAMES = "\n".join(
    [
        "date,black,white,result,handicap",
        "2026-11-01,Szabó Éva,Nagy Péter,W+,9",
        "2026-11-02,nagy peter,Kovács Anna,B+R,3",
        "",
    ]
)


@pytest.fixture
def hoshi(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    monkeypatch.setenv("HOSHI_CONFIG", str(tmp_path / "none.toml"))
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):  # the operator's language: English
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "none.toml").write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)

    def run(*args: str) -> tuple[int, str, str]:
        code = main([*args, "--db", str(tmp_path / "club.sqlite")])
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_players_then_games(hoshi, tmp_path: Path) -> None:
    assert hoshi("import", write(tmp_path, "p.csv", PLAYERS))[:2] == (
        0,
        "3 players registered in My Go Club.\n",
    )
    assert hoshi("import", write(tmp_path, "g.csv", GAMES))[:2] == (
        0,
        "2 games recorded in My Go Club.\n",
    )
    _, out, _ = hoshi("export", "--format", "json")
    rows = {row["name"]: row for row in json.loads(out)}
    assert rows["Nagy Péter"]["elo"] == 1830 and rows["Nagy Péter"]["rank"] == "3k"
    assert rows["Szabó Éva"]["elo"] == 1450  # 12k's table value (rules.md §1.1, §1.4)
    _, out, _ = hoshi("export", "--format", "games")
    assert (
        "2026-11-02,Nagy Péter,Kovács Anna,B+R,3,0.5" in out
    )  # margin kept; komi 0.5 with stones (§5)


def test_a_swedish_terminal(hoshi, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "sv_SE.UTF-8")
    assert hoshi("import", write(tmp_path, "p.csv", PLAYERS))[:2] == (
        0,
        "3 spelare registrerade i My Go Club.\n",
    )
    assert hoshi("import", write(tmp_path, "g.csv", GAMES))[:2] == (
        0,
        "2 partier registrerade i My Go Club.\n",
    )
    bad = "date,black,white,result\n2026-11-01,Nobody,Nagy Péter,W+\n"
    code, _, err = hoshi("import", write(tmp_path, "bad.csv", bad))
    assert code == 2
    assert err == "hoshi: inget registrerades:\nrad 2: ingen spelare heter ”Nobody”\n"


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        (
            "p.csv",
            "name,rank\nNagy Péter,3k\nKovács Anna,2d\n",
            "2 new players are stronger than 5k: Nagy Péter 3k, Kovács Anna 2d.",
        ),
        ("p.csv", "name,rank\nKiss Ödön,6k\nKiss Odon,6k\n", "line 3: Kiss Ödön"),
        (
            "g.csv",
            "date,black,white,result\n2026-11-01,Nobody,Nagy Péter,W+\n",
            "line 2: no player is called “Nobody”",
        ),
        ("g.csv", "date,black,white,result\n2026-11-01,Nagy Péter,Nagy Péter,W+\n", "themselves"),
    ],
    ids=["mgsz-5k-limit", "duplicate-in-file", "unknown-name", "same-player"],
)
def test_a_bad_table_writes_nothing(
    hoshi, tmp_path: Path, name: str, text: str, message: str
) -> None:
    hoshi(
        "import", write(tmp_path, "base.csv", "name,rank\nNagy Péter,3k\n".replace("3k", "5k"))
    )  # one player the tables can name
    before = hoshi("export", "--format", "games")[1], hoshi("export", "--format", "csv")[1]
    code, _, err = hoshi("import", write(tmp_path, name, text))
    assert code == 2 and message in err
    assert (
        hoshi("export", "--format", "games")[1],
        hoshi("export", "--format", "csv")[1],
    ) == before


# -- a file imported twice (issue 22, item 1) --------------------------------------------------

KIS_KUPA = Path(__file__).resolve().parents[1] / "engine" / "formats" / "data" / "kis_kupa.h9"


def test_a_games_table_imported_twice_is_refused_whole(hoshi, tmp_path: Path) -> None:
    hoshi("import", write(tmp_path, "p.csv", PLAYERS))
    games = write(tmp_path, "g.csv", GAMES)
    assert hoshi("import", games)[:2] == (0, "2 games recorded in My Go Club.\n")
    before = hoshi("export", "--format", "games")[1]
    code, _, err = hoshi("import", games)
    assert code == 2
    assert err.startswith(
        "hoshi: all 2 games of the file are already recorded:\n"
        "line 2: #1 Nov 1, 2026, Szabó Éva (B) – Nagy Péter (W): W+\n"
        "line 3: #2 Nov 2, 2026, Nagy Péter (B) – Kovács Anna (W): B+R\n"
        "Nothing was recorded. If they are other games, record them anyway: hoshi import "
    )
    assert err.endswith(f" --again --db {tmp_path / 'club.sqlite'}\n")  # the --db given kept
    assert hoshi("export", "--format", "games")[1] == before
    # partly recorded: the recorded one is named, nothing is recorded
    more = GAMES + "2026-11-03,Kovács Anna,Szabó Éva,B+,\n"
    code, _, err = hoshi("import", write(tmp_path, "more.csv", more))
    assert code == 2
    assert err.startswith("hoshi: 2 of the file's 3 games are already recorded:\nline 2: #1 ")
    assert "line 4" not in err
    assert hoshi("export", "--format", "games")[1] == before
    # told to: recorded again
    assert hoshi("import", games, "--again")[:2] == (0, "2 games recorded in My Go Club.\n")


def test_a_tournament_file_imported_twice_is_refused(hoshi, tmp_path: Path) -> None:
    code, out, _ = hoshi("import", str(KIS_KUPA), "--committee")
    assert code == 0 and "Imported as tournament #1;" in out
    before = hoshi("export", "--format", "games")[1]
    db = f"--db {tmp_path / 'club.sqlite'}"
    for name, end in (((), f" --committee --again {db} --name=NAME\n"), (
        ("--name", "Kis Kupa again"), f" --committee --name 'Kis Kupa again' --again {db}\n"
    )):  # fmt: skip
        code, _, err = hoshi("import", str(KIS_KUPA), "--committee", *name)
        assert code == 2
        assert err.startswith("hoshi: all 6 games of the file are already recorded:\nround 1: #")
        assert "(Kis Kupa 2026, tournament #1)" in err
        assert err.endswith(end)
        assert hoshi("export", "--format", "games")[1] == before
    code, _, err = hoshi("import", str(KIS_KUPA.with_suffix(".xml")), "--name", "Kis Kupa XML")
    assert code == 2  # its OpenGotha twin: the same games
    assert err.startswith("hoshi: all 6 games of the file are already recorded:")
    code, out, _ = hoshi("import", str(KIS_KUPA), "--name", "Kis Kupa again", "--again")
    assert code == 0 and "Imported as tournament #2;" in out


def test_import_and_finalise_names_the_clubs_tournament_number(hoshi, tmp_path: Path) -> None:
    code, out, _ = hoshi("import", str(KIS_KUPA), "--committee", "--finalise")
    assert code == 0
    assert "Imported as tournament #1 and finalised: 5 rating changes." in out
    code, out, _ = hoshi("export", "--format", "h9", "--tournament", "#1")
    assert code == 0 and "Kis Kupa 2026" in out


# -- a file's name in another word order (issue 22, names and pairs) ---------------------------


def test_a_name_in_another_order_is_asked_about_then_confirmed(hoshi, tmp_path: Path) -> None:
    hoshi("import", write(tmp_path, "p.csv", PLAYERS))
    reordered = write(tmp_path, "g.csv", GAMES.replace("Szabó Éva,Nagy", "Éva Szabó,Nagy"))
    before = hoshi("export", "--format", "games")[1]
    code, _, err = hoshi("import", reordered)
    assert code == 2
    assert err.startswith(
        "hoshi: 1 name in the file is a club player's name in another order:\n"
        "line 2: the file's Éva Szabó would be Szabó Éva (12k, since "
    )
    assert "Nothing was recorded. If it is the same person, say so: hoshi import " in err
    assert f"g.csv --confirm --db {tmp_path / 'club.sqlite'}; if not, correct the name" in err
    assert hoshi("export", "--format", "games")[1] == before
    assert hoshi("import", reordered, "--confirm")[:2] == (0, "2 games recorded in My Go Club.\n")
    assert "2026-11-01,Szabó Éva,Nagy Péter,W+" in hoshi("export", "--format", "games")[1]


def test_a_tournament_files_name_in_another_order_names_the_flags(hoshi, tmp_path: Path) -> None:
    hoshi("import", write(tmp_path, "p.csv", "name,rank\nÖdön Kiss,5k\n"))
    code, _, err = hoshi("import", str(KIS_KUPA), "--committee", "--name", "Kis")
    assert code == 2
    assert err.startswith(
        "hoshi: 1 name in the file is a club player's name in another order:\n"
        "line 11: the file's Kiss Ödön would be Ödön Kiss (5k, since "
    )
    assert f" --committee --name Kis --confirm --db {tmp_path / 'club.sqlite'}; if not" in err
    assert "e.g. Kiss Ödön (Pécs))" in err
    code, out, _ = hoshi("import", str(KIS_KUPA), "--committee", "--name", "Kis", "--confirm")
    assert code == 0 and "Matched 1 registered player; 4 new" in out
    # imported twice: --again, with --confirm kept
    code, _, err = hoshi("import", str(KIS_KUPA), "--committee", "--confirm")
    assert code == 2
    assert err.endswith(f" --committee --confirm --again --db {tmp_path / 'club.sqlite'}\n")
