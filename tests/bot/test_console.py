"""The console adapter: scripted sessions, pasted blocks, pictures and files written to disk."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from prompt_toolkit import PromptSession
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

import storage
from bot.adapters import console
from bot.adapters.console import commands, invocation, run_console
from bot.config import Config
from tests.conftest import PgDatabases


@pytest.fixture(autouse=True)
def english_operator(monkeypatch: pytest.MonkeyPatch) -> None:
    """The operator's terminal speaks English: the console answers in it (a new MGSZ club
    itself speaks Hungarian)."""
    monkeypatch.setenv("LANG", "en_US.UTF-8")


DATA = Path(__file__).resolve().parents[1] / "engine" / "formats" / "data"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
TINY_H9 = """\
; EV[Tiny Cup]
; DT[2026-04-18,2026-04-19]
; HA[h9]
; KM[6.5]
; TM[60]
;
; Pl Name           Rk Co Club
   1 Nagy Péter     5k HU Bp     2+/b0   3+/w0
   2 Kovács Anna    2d HU Bp     1-/w0   0+
   3 Új Ferenc      6k HU Bp        0+   1-/b0
"""


def config(tmp_path: Path) -> Config:
    return Config(db_path=tmp_path / "default.sqlite", charts_dir=tmp_path / "charts")


async def run(tmp_path: Path, script: str, **options: object) -> tuple[int, str]:
    out = io.StringIO()
    options.setdefault("db_path", tmp_path / "club.sqlite")
    status = await run_console(
        config(tmp_path),
        source=io.StringIO(script),
        out=out,
        **options,  # type: ignore[arg-type]
    )
    return status, out.getvalue()


def replies(transcript: str) -> dict[str, str]:
    """Each echoed command with its reply."""
    found: dict[str, str] = {}
    for block in transcript.split("\n> ")[0:]:
        command, _, reply = block.removeprefix("> ").partition("\n")
        found[command] = reply.strip()
    return found


async def test_a_scripted_session(tmp_path: Path) -> None:
    script = f"""\
# a whole club evening, as a script
/register Nagy Péter 5k
/register Kovács Anna 2d 2090

result Nagy Péter Kovács Anna B+
/result Nagy Péter Kovács Anna B+
/rating nagy peter
/handicap Nagy Kovács
/tournament import <<END
{TINY_H9}END
/tournament finalise
/top
/chart Nagy Péter
/chart Nagy Péter
/export json
/ratin Nagy
"""
    status, out = await run(tmp_path, script)
    assert status == 0
    said = replies(out)
    assert "# a whole club evening" not in out  # comments are skipped
    assert said["/register Nagy Péter 5k"] == "Registered Nagy Péter (5k)\n\nElo: 1720"
    # a line without its slash is not run: it could have been an undo
    assert said["result Nagy Péter Kovács Anna B+"] == (
        "Commands start with a slash: /result Nagy Péter Kovács Anna B+. Type /help for the list."
    )
    assert said["/result Nagy Péter Kovács Anna B+"].startswith("Game #1")
    assert said["/rating nagy peter"].startswith("Nagy Péter — 5k\n\nElo: 1720")
    assert (
        "Black: Nagy Péter (5k)\nWhite: Kovács Anna (2d)\n6 stones, komi 0.5"
        in said["/handicap Nagy Kovács"]
    )
    assert said["/tournament import"].startswith("Imported Tiny Cup")
    assert "New: Új Ferenc 6k" in said["/tournament import"]
    assert said["/tournament finalise"].startswith("Tiny Cup is rated")
    assert said["/ratin Nagy"] == (
        "There is no command /ratin. Did you mean /rating? /help lists them all."
    )
    charts = re.findall(r"\[picture written to (.+)\]", out)
    assert [Path(c).name for c in charts] == ["hoshi-nagy-peter.png", "hoshi-nagy-peter-2.png"]
    for chart in charts:
        assert Path(chart).read_bytes().startswith(PNG_SIGNATURE)
        assert Path(chart).parent == tmp_path / "charts"
    (export,) = re.findall(r"\[file written to (.+)\]", out)
    assert Path(export).name == "my-go-club-ratings.json"
    assert '"name": "Nagy Péter"' in Path(export).read_text(encoding="utf-8")


async def test_the_database_keeps_the_club_between_sessions(tmp_path: Path) -> None:
    await run(tmp_path, "/register Nagy Péter 5k\n", club="Pécsi Go Klub", system="tensuusei")
    status, out = await run(tmp_path, "/rating Nagy\n", club="Pécsi Go Klub")
    assert status == 0
    assert "points: 70" in out and "Tensuusei points (Japan) · Pécsi Go Klub" in out
    # without --club: the only club of the database
    status, out = await run(tmp_path, "/club show\n")
    assert out.splitlines()[1] == "Pécsi Go Klub"
    db = await storage.open_db(tmp_path / "club.sqlite")
    try:
        assert [c.name for c in await storage.clubs(db)] == ["Pécsi Go Klub"]
    finally:
        await db.close()


async def test_the_default_database_is_created_on_first_use(tmp_path: Path) -> None:
    cfg = Config(db_path=tmp_path / "data" / "hoshi" / "hoshi.sqlite", charts_dir=tmp_path)
    out = io.StringIO()
    status = await run_console(cfg, source=io.StringIO("/club show\n"), out=out)
    assert status == 0 and cfg.db_path.exists()
    assert "My Go Club" in out.getvalue() and "MGSZ Elo (Hungary)" in out.getvalue()


async def test_errors_set_the_exit_status_without_echo(tmp_path: Path) -> None:
    status, out = await run(tmp_path, "/register Nagy Péter 5k\n/rating Nobody\n", echo=False)
    assert status == 1
    assert not out.startswith(">")
    assert "No player called “Nobody” in this club." in out
    status, _ = await run(tmp_path, "/rating Nagy\n", echo=False)
    assert status == 0


async def test_a_bad_club_is_reported(tmp_path: Path) -> None:
    status, out = await run(tmp_path, "/top\n", club="Elo Club", system="elo")
    assert status == 2
    assert out.startswith("hoshi: ") and "elo" in out


async def test_a_malformed_paste_changes_nothing(tmp_path: Path) -> None:
    broken = TINY_H9.replace("3+/w0", "3+/x0")
    script = f"/register Nagy Péter 5k\n/tournament import <<END\n{broken}END\n/tournament list\n"
    _, out = await run(tmp_path, script)
    said = replies(out)
    assert said["/tournament import"].startswith("Line 8: “3+/x0” is not a round token")
    assert said["/tournament list"] == "No tournaments yet. /tournament new NAME opens one."


def test_commands_read_heredocs_and_skip_comments() -> None:
    lines = iter(
        ["# comment\n", "\n", "/top 5\n", "/tournament import <<EOF\n", "a\n", "b\n", "EOF\n",
         "/rating Nagy   <<  X\n", "x\n"]
    )  # fmt: skip
    assert list(commands(lines)) == [
        ("/top 5", None),
        ("/tournament import", b"a\nb\n"),
        ("/rating Nagy", b"x\n"),  # an unterminated block ends with the input
    ]


def test_invocation() -> None:
    inv = invocation("  /rating Nagy Péter ", "club-1")
    assert (inv.command, inv.text, inv.chat_id, inv.attachment) == (
        "rating", "Nagy Péter", "club-1", None
    )  # fmt: skip
    assert inv.caller.chat_admin and inv.caller.identity == "console:local"
    pasted = invocation("tournament import", "club-1", b"data")
    assert (pasted.command, pasted.attachment, pasted.attachment_name) == (
        "tournament", b"data", "pasted.txt"
    )  # fmt: skip


@pytest.mark.parametrize("who", ["local", "console", "Kovács Anna"])
def test_as_plays_a_member_never_the_operator(who: str) -> None:
    """Issue 26: ``/as local`` took the operator's account and acted as the organiser."""
    inv = invocation(f"/as {who} /club organiser add x", "club-1")
    assert not inv.caller.chat_admin and not inv.private
    assert inv.caller.identity != console.CALLER.identity
    assert inv.caller.identity == f"console:as:{who.replace(' ', '_')}"


async def test_as_local_is_refused_an_organisers_command(tmp_path: Path) -> None:
    out = io.StringIO()
    config = Config(db_path=tmp_path / "c.sqlite", charts_dir=tmp_path)
    script = io.StringIO("/club set language en\n/as local /club organiser add telegram:9\n")
    assert await run_console(config, source=script, out=out) == 0
    assert "is for the organisers" in out.getvalue()


class Typing(console.TerminalPrompter):
    """The real prompt on a pipe: each prompt, once up, gets the next keys typed (then the
    pipe closes: Ctrl-D)."""

    def __init__(self, history: Path | None, keys: list[str], pipe: PipeInput) -> None:
        super().__init__(history, input=pipe, output=DummyOutput())
        self.keys, self.pipe, self.prompts = keys, pipe, list[str]()
        self.history = history

    def started(self, session: PromptSession[str]) -> None:
        super().started(session)
        self.prompts.append(str(session.message))
        if self.keys:
            self.pipe.send_text(self.keys.pop(0))
        else:
            self.pipe.close()


ENTER, UP, INTERRUPT = "\r", "\x1b[A", "\x03"


def paste(text: str) -> str:
    """``text`` pasted into the terminal (bracketed paste)."""
    return f"\x1b[200~{text}\x1b[201~"


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """What is typed at each prompt of the interactive console (:class:`Typing`), e.g.
    ``"/top" + ENTER``, ``INTERRUPT`` (Ctrl-C); after the last, Ctrl-D."""
    typed: list[str] = []
    prompters: list[Typing] = []
    with contextlib.ExitStack() as pipes:

        def prompter(history: Path | None) -> Typing:  # a new terminal for each session
            prompters.append(Typing(history, typed, pipes.enter_context(create_pipe_input())))
            return prompters[-1]

        monkeypatch.setattr(console, "terminal_prompter", prompter)
        monkeypatch.setattr(console, "stdin_is_terminal", lambda: True)
        yield typed
    for used in prompters:
        assert used.prompts[0] == "hoshi> "


def lines(*typed: str) -> list[str]:
    return [line + ENTER for line in typed]


async def test_the_interactive_prompt(tmp_path: Path, keys: list[str]) -> None:
    keys.extend(lines("/register Nagy Péter 5k", "", "/tournament import committee <<END",
                      *TINY_H9.splitlines(), "END", "/top"))  # fmt: skip
    out = io.StringIO()
    status = await run_console(config(tmp_path), db_path=tmp_path / "i.sqlite", out=out)
    text = out.getvalue()
    assert status == 0
    assert text.startswith("Club: My Go Club (mgsz) · database: ")
    assert "hoshi console — you are the club's organiser." in text
    assert "Registered Nagy Péter (5k)" in text and "Imported Tiny Cup" in text
    assert "Kovács Anna" in text.split("My Go Club — MGSZ Elo (Hungary)")[1]
    # the table's lines were a block, not commands: none was refused
    assert "Commands start with a slash" not in text and "is not a command" not in text


async def session(tmp_path: Path, name: str = "k.sqlite") -> tuple[int, str]:
    out = io.StringIO()
    status = await run_console(config(tmp_path), db_path=tmp_path / name, out=out)
    return status, out.getvalue()


async def test_ctrl_c_clears_the_line_and_the_session_goes_on(
    tmp_path: Path, keys: list[str]
) -> None:
    keys.extend([INTERRUPT, *lines("/register Nagy Péter 5k"), "/undo" + INTERRUPT,
                 *lines("/top")])  # fmt: skip
    status, text = await session(tmp_path)
    assert status == 0
    assert text.count("(Ctrl-C again on an empty line, or Ctrl-D, quits.)") == 2
    assert "Registered Nagy Péter (5k)" in text and "Nagy Péter" in text.split("Elo")[-1]
    assert "Undone" not in text  # the line Ctrl-C cleared never ran


async def test_a_second_ctrl_c_quits(tmp_path: Path, keys: list[str]) -> None:
    keys.extend([INTERRUPT, INTERRUPT, *lines("/register Nagy Péter 5k")])
    status, text = await session(tmp_path)
    assert status == 0
    assert "Registered" not in text  # the session ended before the third line
    assert keys == lines("/register Nagy Péter 5k")


async def test_an_empty_line_between_two_ctrl_cs_still_quits(
    tmp_path: Path, keys: list[str]
) -> None:
    keys.extend([*lines("/register Nagy Péter 5k"), INTERRUPT, ENTER, INTERRUPT,
                 *lines("/top")])  # fmt: skip
    status, text = await session(tmp_path)
    assert status == 0 and "Registered Nagy Péter" in text
    assert keys == lines("/top")


async def test_ctrl_c_in_a_paste_drops_the_command(tmp_path: Path, keys: list[str]) -> None:
    keys.extend([*lines("/tournament import <<END", "; EV[Half]"), INTERRUPT, *lines("/top")])
    status, text = await session(tmp_path)
    assert status == 0
    assert "Imported" not in text and "No players yet" in text


async def test_ctrl_d_quits(tmp_path: Path, keys: list[str]) -> None:
    keys.extend(lines("/top"))
    status, text = await session(tmp_path)
    assert status == 0 and text.endswith("\n")


async def test_the_history_is_kept_per_database(tmp_path: Path, keys: list[str]) -> None:
    """The up arrow recalls a line of an earlier session on the same database, not one typed
    on another database."""
    keys.extend(lines("/register Nagy Péter 5k"))
    assert (await session(tmp_path))[0] == 0
    keys.extend(lines("/register Kiss Anna 3k"))
    assert (await session(tmp_path, "other.sqlite"))[0] == 0
    keys.append(UP + ENTER)
    status, text = await session(tmp_path)
    assert status == 0
    assert "Nagy Péter (5k, since" in text and "is already registered" in text, text
    assert "Kiss Anna" not in text
    assert (tmp_path / "k.sqlite.history").is_file()
    assert "/register Kiss Anna 3k" in (tmp_path / "other.sqlite.history").read_text("utf-8")


async def test_a_pasted_table_after_its_command_is_its_block(
    tmp_path: Path, keys: list[str]
) -> None:
    keys.extend(lines("/register Nagy Péter 5k"))
    keys.append("/tournament import committee" + paste(TINY_H9) + ENTER)
    keys.extend(lines("/tournament list"))
    status, text = await session(tmp_path)
    assert status == 0
    assert "Imported Tiny Cup" in text and "New: Kovács Anna 2d, Új Ferenc 6k" in text
    assert "Commands start with a slash" not in text and "is not a command" not in text


async def test_a_pasted_command_with_its_table_and_pasted_commands(
    tmp_path: Path, keys: list[str]
) -> None:
    """A paste holding the command and its table is one block; a paste of several commands
    runs each."""
    keys.append(paste("/register Nagy Péter 5k\n/register Kiss Anna 6k\n") + ENTER)
    keys.append(paste("/tournament import committee\n" + TINY_H9) + ENTER)
    status, text = await session(tmp_path)
    assert status == 0
    assert "Registered Nagy Péter (5k)" in text and "Registered Kiss Anna (6k)" in text, text
    assert "Imported Tiny Cup" in text


async def test_a_table_pasted_alone_is_refused_with_a_hint(
    tmp_path: Path, keys: list[str]
) -> None:
    keys.append(paste(TINY_H9) + ENTER)
    keys.extend(lines("/tournament list"))
    status, text = await session(tmp_path)
    assert status == 0
    assert (
        "That looks like a table pasted without its command: type the command first (e.g. "
        "/tournament import), paste the table right after it, then press Enter."
    ) in text
    assert "No tournaments yet" in text


async def test_a_line_without_a_slash_is_refused_at_the_prompt(
    tmp_path: Path, keys: list[str]
) -> None:
    keys.extend(lines("/register Nagy Péter 5k", "undo", "/top"))
    status, text = await session(tmp_path)
    assert status == 0
    assert "Commands start with a slash: /undo. Type /help for the list." in text
    assert "Nagy Péter" in text.split("Elo")[-1]  # the registration was not undone


async def test_a_session_on_postgresql(tmp_path: Path, pg_databases: PgDatabases) -> None:
    """``hoshi console --db postgresql://…``: the same club, kept between sessions."""
    url = await pg_databases.create()
    try:
        script = "/register Nagy Péter 5k 1600\n/register Kiss Anna 5k 1600\n"
        script += "/result Nagy Péter beat Kiss Anna\n"
        status, out = await run(tmp_path, script, db_path=url)
        assert status == 0, out
        status, out = await run(tmp_path, "/rating Nagy Péter\n", db_path=url)
        assert status == 0 and "Nagy Péter" in out and "1 game" in out, out
        assert not (tmp_path / "club.sqlite").exists()
    finally:
        await pg_databases.drop(url)


async def test_a_script_refuses_lines_without_a_slash_and_skips_blanks_and_comments(
    tmp_path: Path,
) -> None:
    script = "/register Nagy Péter 5k\n\n# undo\n   \nundo\n/top\n"
    status, out = await run(tmp_path, script, echo=False)
    assert status == 1  # the refused line is an error of the script
    assert out.count("Commands start with a slash: /undo. Type /help for the list.") == 1
    assert "Nagy Péter" in out.split("Elo")[-1]  # nothing was undone


def test_the_hint_for_a_line_without_a_slash() -> None:
    assert console.slashless("/undo") is None
    assert console.slashless("  /as Nagy Péter /top") is None
    assert console.slashless("undo") == (
        "Commands start with a slash: /undo. Type /help for the list."
    )
    assert console.slashless("hello there") == (
        "'hello there' is not a command: commands start with a slash. Type /help for the list."
    )
    long = "result " + "x" * 80
    assert console.slashless(long) == (
        "Commands start with a slash: /result …. Type /help for the list."
    )


def test_what_is_entered_at_once() -> None:
    entered = console.entered
    assert entered("/top\n/rating Nagy\n\n# note\n") == [("/top", None), ("/rating Nagy", None)]
    assert entered("/tournament import\n; EV[X]\n 1 a\n\n") == [
        ("/tournament import", b"; EV[X]\n 1 a\n")
    ]
    assert entered("/tournament import <<END\n; EV[X]\nEND\n/top") == [
        ("/tournament import", b"; EV[X]\n"),
        ("/top", None),
    ]
    assert entered("; EV[X]\n 1 a") == [("; EV[X]", b" 1 a\n")]  # refused: no command
    assert entered("\n# only a comment\n") == []


def test_the_history_file_of_each_database(tmp_path: Path) -> None:
    assert console.history_file(tmp_path / "club.sqlite") == tmp_path / "club.sqlite.history"
    with_password = console.history_file("postgresql://hoshi:secret@db.example:5433/clubs")
    without = console.history_file("postgresql://hoshi@db.example:5433/clubs")
    other = console.history_file("postgresql://hoshi@db.example:5433/other")
    assert with_password is not None and with_password == without != other
    assert "secret" not in str(with_password) and with_password.name.startswith("console-")
    assert console.history_file(":memory:") is None


async def test_an_unknown_club_is_refused_with_the_clubs_and_how_to_make_one(
    tmp_path: Path,
) -> None:
    assert (await run(tmp_path, "/top\n"))[0] == 0  # the first run makes the club
    status, out = await run(tmp_path, "/top\n", club="My Go Clb")
    assert status == 2
    assert out == (
        "hoshi: there is no club “My Go Clb” in this database; its clubs: My Go Club. Open one "
        "with --club 'My Go Club', or make a new club with hoshi console --new-club 'My Go Clb'\n"
    )
    status, out = await run(tmp_path, "/club show\n", club="Chess Club", new_club=True)
    assert status == 0 and "Chess Club" in out
    status, out = await run(tmp_path, "/top\n", club="Chess Club", new_club=True)
    assert (status, out) == (
        2,
        "hoshi: there is a club “Chess Club” in this database already; open it with "
        "--club 'Chess Club'\n",
    )
    db = await storage.open_db(tmp_path / "club.sqlite")
    try:
        assert [c.name for c in await storage.clubs(db)] == ["My Go Club", "Chess Club"]
    finally:
        await db.close()


async def test_a_named_club_is_made_on_an_empty_database(tmp_path: Path) -> None:
    status, out = await run(tmp_path, "/club show\n", club="Pécsi Go Klub")
    assert status == 0 and "Pécsi Go Klub" in out


async def test_result_reads_an_sgf_file_from_disk(tmp_path: Path) -> None:
    sgf = Path(__file__).parents[1] / "engine" / "formats" / "data" / "sgf" / "jigo.sgf"
    script = f"""\
/register Kovács Anna 5k
/register Szabó Béla 5k
/result {sgf}
"""
    status, out = await run(tmp_path, script)
    assert status == 0, out
    said = replies(out)
    shown = said[f"/result {sgf}"]
    assert shown.startswith("Record this game?")
    assert "Black: Kovács Anna" in shown and "Result: jigo" in shown


def test_an_sgf_path_is_read_as_the_attachment(tmp_path: Path) -> None:
    path = tmp_path / "game.sgf"
    path.write_bytes(b"(;GM[1]PB[a]PW[b])")
    inv = invocation(f"/result {path} black=Nagy", "console:1")
    assert (inv.text, inv.attachment, inv.attachment_name) == (
        "black=Nagy",
        b"(;GM[1]PB[a]PW[b])",
        "game.sgf",
    )
    plain = invocation("/result Nagy Kovács B+", "console:1")
    assert plain.attachment is None and plain.text == "Nagy Kovács B+"


def test_a_file_name_of_any_length_can_be_written(tmp_path: Path) -> None:
    """Issue 26: a reply's file named after a very long name is written, suffix kept."""
    from bot.adapters.console import FILE_NAME_BYTES, bounded_file_name

    for name in ("hoshi-" + "é" * 300 + ".png", "a" * 400 + ".h9", ".png"):
        bounded = bounded_file_name(name)
        assert len(bounded.encode()) <= FILE_NAME_BYTES
        assert bounded.endswith(Path(name).suffix)
        (tmp_path / bounded).write_bytes(b"x")  # the file system takes it
