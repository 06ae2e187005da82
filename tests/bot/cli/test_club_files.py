"""``hoshi export`` and ``hoshi replay`` read a club that exists; they never create one."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main

PLAYERS = "name,rank\nNagy Péter,6k\n"


@pytest.fixture
def hoshi(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    monkeypatch.setenv("HOSHI_CONFIG", str(tmp_path / "none.toml"))
    (tmp_path / "none.toml").write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)

    def run(*args: str) -> tuple[int, str, str]:
        code = main(list(args))
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


@pytest.fixture
def club_db(hoshi, tmp_path: Path) -> Path:
    """A database holding one club, My Go Club, with one player."""
    db = tmp_path / "club.sqlite"
    (tmp_path / "p.csv").write_text(PLAYERS, encoding="utf-8")
    assert hoshi("import", str(tmp_path / "p.csv"), "--db", str(db))[0] == 0
    return db


def club_names(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [name for (name,) in conn.execute("SELECT name FROM clubs ORDER BY seq")]


def test_export_from_a_missing_directory_refuses(hoshi, tmp_path: Path) -> None:
    db = tmp_path / "nowhere" / "club.sqlite"
    code, out, err = hoshi("export", "--db", str(db))
    assert (code, out) == (2, "")
    assert err == (
        f"hoshi: there is no database at {db} (no directory {db.parent}); give an existing "
        "one with --db, e.g. --db ~/hoshi/club.sqlite\n"
    )
    assert not db.parent.exists()


def test_export_from_a_missing_database_refuses(hoshi, tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    code, _, err = hoshi("export", "--db", str(db))
    assert code == 2
    assert err.startswith(f"hoshi: there is no database at {db}; give an existing one")
    assert not db.exists()


@pytest.mark.parametrize("command", ["export", "replay"])
def test_an_unknown_club_is_refused_not_created(hoshi, club_db: Path, command: str) -> None:
    code, out, err = hoshi(command, "--db", str(club_db), "--club", "Chess Club")
    assert (code, out) == (2, "")
    assert err == (
        "hoshi: there is no club 'Chess Club' in this database; its clubs: My Go Club "
        "(e.g. --club 'My Go Club')\n"
    )
    assert club_names(club_db) == ["My Go Club"]


def test_export_into_a_missing_directory_refuses(hoshi, club_db: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "no" / "such" / "players.csv"
    code, _, err = hoshi("export", "--db", str(club_db), "-o", str(out_file))
    assert code == 2
    assert err == (
        f"hoshi: cannot write {out_file}: there is no directory {out_file.parent} "
        "(create it first, or give --output a file in an existing directory)\n"
    )
    assert not out_file.parent.exists()


def test_export_of_a_named_existing_club(hoshi, club_db: Path) -> None:
    code, out, _ = hoshi("export", "--db", str(club_db), "--club", "my go club")
    assert code == 0 and "Nagy Péter" in out
