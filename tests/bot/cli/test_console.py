"""``hoshi console``'s options: ``--club`` opens a club that exists, ``--new-club`` makes one."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main


@pytest.fixture
def hoshi(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    monkeypatch.setenv("HOSHI_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    (tmp_path / "none.toml").write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)

    def run(script: str, *args: str) -> tuple[int, str, str]:
        monkeypatch.setattr("sys.stdin", io.StringIO(script))
        code = main(["console", "--db", str(tmp_path / "c.sqlite"), "--quiet", *args])
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


def club_names(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [name for (name,) in conn.execute("SELECT name FROM clubs ORDER BY seq")]


def test_new_club_makes_a_second_club_and_club_opens_it(hoshi, tmp_path: Path) -> None:
    assert hoshi("/top\n")[0] == 0  # the first run makes My Go Club
    code, out, _ = hoshi("/club show\n", "--new-club", "Chess Club", "--system", "gor")
    assert code == 0 and "Chess Club" in out and "GoR" in out
    code, out, _ = hoshi("/club show\n", "--club", "chess club")
    assert code == 0 and "Chess Club" in out
    assert club_names(tmp_path / "c.sqlite") == ["My Go Club", "Chess Club"]


def test_a_typo_in_club_makes_no_club(hoshi, tmp_path: Path) -> None:
    assert hoshi("/top\n")[0] == 0
    code, out, _ = hoshi("/top\n", "--club", "My Go Clb")
    assert code == 2
    assert "there is no club “My Go Clb” in this database; its clubs: My Go Club" in out
    assert f"hoshi console --new-club 'My Go Clb' --db {tmp_path / 'c.sqlite'}" in out
    assert club_names(tmp_path / "c.sqlite") == ["My Go Club"]


def test_club_and_new_club_together_are_refused(hoshi, tmp_path: Path) -> None:
    code, _, err = hoshi("/top\n", "--club", "A", "--new-club", "B")
    assert code == 2
    assert err == (
        "hoshi: give --club NAME to open a club or --new-club NAME to make one, not both "
        f"(e.g. hoshi console --new-club B --db {tmp_path / 'c.sqlite'})\n"
    )
    assert not (tmp_path / "c.sqlite").exists()
