"""``hoshi export`` and ``hoshi replay`` read a club that exists; they never create one."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from engine.formats import parse_h9
from tests.bot.core.test_exporting import facts

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


# -- hoshi import: refusals in the command line's own words ------------------------------------

STRONG = ["Kovács Anna 2d", "Nagy Béla 1d", "Tóth Éva 3k"]


def h9_with(players: list[str]) -> str:
    """A one-round h9 file: each pair plays, the first of a pair wins with black."""
    lines = ["; EV[Big Open]", "; DT[2026-04-18,2026-04-18]", "; HA[h9]", "; KM[6.5]",
             "; TM[60]", ";", "; Pl Name           Rk Co Club"]  # fmt: skip
    for i, player in enumerate(players, 1):
        name, rank = player.rsplit(" ", 1)
        opponent = i + 1 if i % 2 else i - 1
        result = f"{opponent}{'+' if i % 2 else '-'}/{'b' if i % 2 else 'w'}0"
        lines.append(f"{i:4d} {name:<20} {rank:>3} HU Bp   {result}")
    return "\n".join(lines) + "\n"


@pytest.fixture
def big_open(tmp_path: Path) -> Path:
    strong = [f"Erős{chr(65 + i // 26)}{chr(97 + i % 26)} Játékos 1d" for i in range(212)]
    players = [*STRONG, *strong, "Gyenge Géza 6k"]  # an even number of players: pairs
    path = tmp_path / "big_open.h9"
    path.write_text(h9_with(players), encoding="utf-8")
    return path


def test_a_refused_import_names_a_few_players_and_the_command_to_go_on(
    hoshi, big_open: Path, tmp_path: Path
) -> None:
    db = tmp_path / "club.sqlite"
    code, out, err = hoshi("import", str(big_open), "--db", str(db))
    assert (code, out) == (2, "")
    assert (
        "215 new players are stronger than 5k: Kovács Anna 2d, Nagy Béla 1d, Tóth Éva 3k and "
        "212 more." in err
    )
    # every command it suggests keeps the --db given
    assert f"hoshi import {big_open} --committee --db {db}" in err
    assert f"hoshi import {big_open} --ratings start.csv --db {db}" in err
    assert f"/club country HU in hoshi console --db {db}" in err
    assert "MGSZ Minősítési Szabályzat 5.§ (3)" in err
    assert "committee=" not in err and "(committee)" not in err and "rules.md" not in err
    assert len(err) < 1500  # not 215 names
    code, out, _ = hoshi("import", str(big_open), "--db", str(db), "--committee")
    assert code == 0 and "216 new" in out


def test_a_players_csv_refusal_names_the_flag(hoshi, tmp_path: Path) -> None:
    rows = ["name,rank", *(",".join(p.rsplit(" ", 1)) for p in STRONG)]
    (tmp_path / "p.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, _, err = hoshi("import", str(tmp_path / "p.csv"), "--db", str(tmp_path / "c.sqlite"))
    assert code == 2
    assert "3 new players are stronger than 5k: Kovács Anna 2d, Nagy Béla 1d, Tóth Éva 3k." in err
    assert f"hoshi import {tmp_path / 'p.csv'} --committee" in err
    assert "give their Elo in the table's rating column (name,rank,rating)" in err
    assert "(override)" not in err and "rules.md" not in err and "--ratings" not in err


def test_the_multiplier_note_names_the_flag(hoshi, tmp_path: Path) -> None:
    path = tmp_path / "small.h9"
    path.write_text(h9_with(["Kiss Ödön 6k", "Nagy Béla 7k"]), encoding="utf-8")
    code, out, _ = hoshi("import", str(path), "--db", str(tmp_path / "c.sqlite"))
    assert code == 0
    assert "set it with --C NN" in out and "C=NN" not in out
    assert (
        "stays open until /tournament finalise Big Open in hoshi console "
        f"--db {tmp_path / 'c.sqlite'} (or import with --finalise)." in out
    )


def test_an_import_without_a_time_control_names_the_flag(hoshi, tmp_path: Path) -> None:
    path = tmp_path / "no_tm.h9"
    text = h9_with(["Kiss Ödön 6k", "Nagy Béla 7k"])
    path.write_text(text.replace("; TM[60]\n", ""), encoding="utf-8")
    db = str(tmp_path / "c.sqlite")
    code, _, err = hoshi("import", str(path), "--db", db)
    assert code == 2
    assert "no time control (no TM line)" in err and "set C by hand with --C, e.g. --C 25" in err
    assert "C=25" not in err and "rules.md" not in err
    assert hoshi("import", str(path), "--db", db, "--C", "25")[0] == 0


def test_tournament_flags_on_a_csv_table_are_refused(hoshi, tmp_path: Path) -> None:
    (tmp_path / "p.csv").write_text(PLAYERS, encoding="utf-8")
    (tmp_path / "r.csv").write_text("name,rating\nNagy Péter,1700\n", encoding="utf-8")
    db = str(tmp_path / "c.sqlite")
    code, _, err = hoshi("import", str(tmp_path / "p.csv"), "--db", db, "--ratings", "r.csv")
    assert code == 2
    assert err.startswith("hoshi: --ratings is for tournament files (h9, OpenGotha XML)")
    code, _, err = hoshi("import", str(tmp_path / "p.csv"), "--db", db, "--C", "25", "--finalise")
    assert code == 2 and err.startswith("hoshi: --C, --finalise are for tournament files")
    assert not (tmp_path / "c.sqlite").exists()


def test_a_club_in_postgresql_by_url(hoshi, pg_databases, tmp_path: Path) -> None:
    """``--db postgresql://…``: the same commands on a PostgreSQL database (a URL is never a
    path: nothing is created on disk for it)."""
    import asyncio

    url = asyncio.run(pg_databases.create())
    try:
        (tmp_path / "p.csv").write_text(PLAYERS, encoding="utf-8")
        assert hoshi("import", str(tmp_path / "p.csv"), "--db", url)[0] == 0
        code, out, _ = hoshi("export", "--db", url)
        assert code == 0 and "Nagy Péter" in out
        assert not (tmp_path / "postgresql:").exists()
    finally:
        asyncio.run(pg_databases.drop(url))


def test_an_unreachable_database_is_named_without_its_password(hoshi) -> None:
    from benchmarks.pgcluster import free_port

    port = free_port()
    code, out, err = hoshi("export", "--db", f"postgresql://hoshi:s3cret@127.0.0.1:{port}/club")
    assert (code, out) == (2, "")
    assert f"cannot open the database postgresql://hoshi@127.0.0.1:{port}/club: " in err
    assert "s3cret" not in err


async def _tensuusei_club(db: Path) -> None:
    import storage

    opened = await storage.open_db(db)
    try:
        await storage.create_club(opened, "My Go Club", "tensuusei", actor="test")
    finally:
        await opened.close()


async def _pending_cards(db: Path) -> dict[str, object]:
    import storage

    opened = await storage.open_db(db)
    try:
        club = await storage.get_club(opened, "My Go Club")
        assert club is not None
        return {
            player.name: (await storage.card(opened, club, player.id)).pending
            for player in await storage.players(opened, club)
        }
    finally:
        await opened.close()


def test_imported_games_and_tournaments_of_past_days_settle_at_once(hoshi, tmp_path: Path) -> None:
    """rules.md §2.3 (late reports): a CSV of last spring's club games and a tournament file
    finalised on import leave no Tensuusei point pending — their days ended long ago."""
    import asyncio

    db = tmp_path / "club.sqlite"
    asyncio.run(_tensuusei_club(db))
    (tmp_path / "p.csv").write_text("name,rank\nKiss Ödön,6k\nNagy Béla,7k\n", encoding="utf-8")
    assert hoshi("import", str(tmp_path / "p.csv"), "--db", str(db))[0] == 0
    games = "date,black,white,result\n2026-04-11,Kiss Ödön,Nagy Béla,B+\n"
    (tmp_path / "g.csv").write_text(games, encoding="utf-8")
    assert hoshi("import", str(tmp_path / "g.csv"), "--db", str(db))[0] == 0
    path = tmp_path / "cup.h9"
    path.write_text(h9_with(["Kiss Ödön 6k", "Nagy Béla 7k"]), encoding="utf-8")
    code, _, err = hoshi("import", str(path), "--db", str(db), "--finalise")
    assert code == 0, err
    assert asyncio.run(_pending_cards(db)) == {"Kiss Ödön": None, "Nagy Béla": None}


def test_an_engine_refusal_offline_shows_its_marks_as_numbers() -> None:
    """Without a club (hoshi rate) a marked game reads as its file's number, never a mark."""
    from bot.cli.common import said
    from engine.errors import RuleError
    from engine.text import Msg, game_mark

    refusal = RuleError(Msg("game {game} has no round number", game=game_mark(5)))
    assert said(refusal) == "game 5 has no round number"


def test_export_h9_of_an_imported_file_keeps_its_facts(hoshi, tmp_path: Path) -> None:
    """hoshi export --format h9 writes the tournament from its own entries: the ranks they
    entered with, the byes, the header the file had (the chat's /export h9 does the same)."""
    source = Path(__file__).parents[2] / "engine" / "formats" / "data" / "kis_kupa.h9"
    db = str(tmp_path / "club.sqlite")
    code, _, err = hoshi("import", str(source), "--db", db, "--committee")
    assert code == 0, err
    code, out, err = hoshi("export", "--db", db, "--format", "h9", "--tournament", "Kis Kupa 2026")
    assert code == 0, err
    assert facts(parse_h9(out)) == facts(parse_h9(source.read_bytes()))


def test_export_of_a_tournament_by_its_number_writes_its_h9(hoshi, tmp_path: Path) -> None:
    """``--tournament "#1"`` is the club's number, as the chat shows it; alone it means h9
    (it was once ignored for the players CSV), and with another format it is refused."""
    source = Path(__file__).parents[2] / "engine" / "formats" / "data" / "kis_kupa.h9"
    db = str(tmp_path / "club.sqlite")
    assert hoshi("import", str(source), "--db", db, "--committee")[0] == 0
    code, out, err = hoshi("export", "--db", db, "--tournament", "#1")
    assert code == 0, err
    assert facts(parse_h9(out)) == facts(parse_h9(source.read_bytes()))
    code, out, err = hoshi("export", "--db", db, "--tournament", "#1", "--format", "csv")
    assert (code, out) == (2, "")
    assert err == (
        "hoshi: --tournament writes one tournament as h9; it does not go with --format csv\n"
    )
