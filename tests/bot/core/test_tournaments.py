"""/tournament new | result | import | finalise | reopen | show | list (organisers)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import storage
from bot.core.invocation import Caller
from bot.i18n.catalogues import catalogue
from engine.formats import parse_h9
from engine.ranks import Rank
from engine.systems import SYSTEMS
from engine.timecontrol import TimeControl
from engine.types import Importance, Result
from tests.bot.core.fakechat import ORGANISER, FakeChat, FakeClock
from tests.bot.core.scenes import SUBJECT, mgsz_tournaments, play_mgsz_example

DATA = Path(__file__).resolve().parents[2] / "engine" / "formats" / "data"
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
GAMES_CSV = """\
date,black,white,result,handicap,komi,tournament,round
2026-04-20,Nagy Péter,Kovács Anna,B+,0,6.5,Club League,1
2026-04-20,Tóth Ádám,Kovács Anna,W+,,,Club League,2
"""


@pytest.fixture
async def club(tmp_path: Path) -> AsyncIterator[FakeChat]:
    chat = await FakeChat.open(
        tmp_path,
        players=(
            "Nagy Péter 5k",
            "Kovács Anna 2d 2090",
            "Tóth Ádám 3k 1850",
        ),
    )
    try:
        yield chat
    finally:
        await chat.close()


async def only_tournament(chat: FakeChat) -> storage.TournamentRow:
    (row,) = await storage.tournaments(chat.db, chat.club)
    return row


async def tournament_games(chat: FakeChat, tid: int) -> list[storage.GameRow]:
    return [g for g in await chat.games() if g.game.tournament == tid]


# -- new ---------------------------------------------------------------------------------------


async def test_new_opens_a_tournament(club: FakeChat) -> None:
    said = await club.ok(
        '/tournament new Spring Cup start=2026-04-11 end=2026-04-12 rounds=5 time="60m 3x30s" '
        "even championship >80",
        as_=ORGANISER,
    )
    row = await only_tournament(club)
    t = row.tournament
    assert said.text == (
        f"Tournament #{row.number} Spring Cup opened\n\n"
        "Apr 11, 2026 – Apr 12, 2026, 5 rounds, 19×19, even, time 1h 3x30s japanese\n"
        "Status: open\n"
        "Multiplier C: category B: 15 (base 60 min, extended 82.5 min); +5 international "
        "invitational or Hungarian championship; +5 more than 80 participants; +10 no-handicap "
        "19×19 tournament; C = 35"
    )  # rules.md §1.2: 60 + 45 × 30 s = 82.5 min, category B
    assert (t.name, t.start, t.end, t.rounds, t.board, t.even) == (
        "Spring Cup", dt.date(2026, 4, 11), dt.date(2026, 4, 12), 5, 19, True
    )  # fmt: skip
    assert t.time == TimeControl.parse("60m 3x30s")
    assert t.importance == Importance(True, False) and t.participants == 81
    assert t.multiplier is None and not row.finalised


async def test_new_with_c_by_hand_and_a_handicap_rule(club: FakeChat) -> None:
    said = await club.ok("/tournament new Club Night handicap reduce=1 board=13 C=12 rounds=3")
    t = (await only_tournament(club)).tournament
    assert (t.even, t.handicap_reduction, t.board, t.multiplier, t.rounds) == (
        False, 1, 13, 12, 3
    )  # fmt: skip
    assert (t.start, t.end) == (dt.date(2026, 4, 20), dt.date(2026, 4, 20))  # default: today
    assert "13×13, handicap (reduced by 1)" in said.text
    assert "Multiplier C: C = 12, set by hand (MGSZ §6(2))" in said.text


async def test_a_quoted_name_may_hold_keywords(club: FakeChat) -> None:
    await club.ok('/tournament new "World Cup" even C=10')
    t = (await only_tournament(club)).tournament
    assert t.name == "World Cup" and t.importance == Importance(False, False)


async def test_new_without_time_says_c_is_not_yet_known(club: FakeChat) -> None:
    said = await club.ok("/tournament new Spring Cup")
    assert "Weight: not yet determined — the time control is not known" in said.text


TOURNAMENT_USAGE = "\n\nUsage: /tournament new NAME [start=YYYY-MM-DD] [end=YYYY-MM-DD]"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("", "Say what to do: /tournament new NAME"),
        ("frobnicate", "Unknown /tournament action “frobnicate”\n\nUsage: /tournament new NAME"),
        ("new", "Name the tournament, e.g. /tournament new Spring Cup rounds=5"),
        ("new even", "Name the tournament"),
        ("new Cup start=2026-04-12 end=2026-04-11", "The end 2026-04-11 is before the start "
         "2026-04-12"),
        ("new Cup rounds=0", "Rounds must be 1–50, not 0"),
        ("new Cup rounds=51", "Rounds must be 1–50, not 51"),
        ("new Cup time=xyz", "time=“xyz”: cannot read “xyz”"),
        ("new Cup start=tomorrow", "start= must be YYYY-MM-DD, not “tomorrow”"),
        ("new Cup start=1899-12-31", "start= 1899-12-31 is before 1900"),
        ("new Cup end=2026-99-01", "end= must be YYYY-MM-DD, not “2026-99-01”"),
        ("new Cup reduce=10", "Reduce must be 0–9, not 10"),
        ("new Cup C=1001", "C must be 0–1000, not 1001"),
        ("new Cup board=30", "Board must be 5–25, not 30"),
        ("new Cup participants=1", "Participants must be 2–100000, not 1"),
        ("new Cup prize=100", "/tournament new has no option prize="),
        # a keyword inside a name would silently change C (rules.md §1.2): ask for quotes
        ("new World Cup", "“Cup” comes after “World”: write the name first, and in quotes "
         'when it holds a word like World, e.g. /tournament new "World Cup" even'),
        ("new Spring Handicap Cup", "“Cup” comes after “Handicap”"),
    ],
)  # fmt: skip
async def test_new_bad_inputs(club: FakeChat, line: str, message: str) -> None:
    said = await club.refused(f"/tournament {line}")
    assert said.text.startswith(message)
    assert TOURNAMENT_USAGE in said.text


# -- result ------------------------------------------------------------------------------------


async def test_result_adds_a_game_to_the_open_tournament(club: FakeChat) -> None:
    await club.ok(
        "/tournament new Spring Cup start=2026-04-11 end=2026-04-12 rounds=3 C=20 handicap"
    )
    tid = (await only_tournament(club)).id
    said = await club.ok("/tournament result 3 Nagy Péter Kovács Anna B+ h=2", as_=ORGANISER)
    (row,) = await tournament_games(club, tid)
    assert said.text == (
        f"Spring Cup, round 3: game #{row.number} — Nagy Péter (B) – Kovács Anna (W): B+, h2, "
        "komi 0.5, Apr 12, 2026. Rated when the tournament is finalised."
    )
    g = row.game
    assert (g.round, g.stones, g.komi, g.result, g.date) == (
        3, 2, Fraction(1, 2), Result.BLACK, dt.date(2026, 4, 12)
    )  # fmt: skip
    entries = await storage.entries(club.db, club.club, tid)
    assert len(entries) == 2


async def test_result_names_the_tournament_when_several_are_open(club: FakeChat) -> None:
    await club.ok("/tournament new Autumn Cup C=10")
    await club.ok("/tournament new Winter Cup C=10")
    said = await club.refused("/tournament result 1 Nagy Péter Kovács Anna B+")
    assert said.text.startswith(
        'Several tournaments are open (Autumn Cup, Winter Cup); name one, e.g. t="Autumn Cup"'
    )
    await club.ok('/tournament result 1 Nagy Péter Kovács Anna B+ t="Winter Cup"')
    winter = await storage.tournament(club.db, club.club, "Winter Cup")
    assert winter is not None and len(await tournament_games(club, winter.id)) == 1


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("result Nagy Péter Kovács Anna B+", "Start with the round number, e.g. /tournament "
         "result 1 Nagy Péter Kovács Anna B+"),
        ("result 4 Nagy Péter Kovács Anna B+", "ROUND must be 1–3, not 4"),
        ("result 1 Nagy Péter Kovács Anna", "End with the result: B+, W+, B+R, W+3.5, jigo or "
         "unplayed"),
        ("result 1 Nagy Péter Kovács Anna B+ h=10", "h (handicap stones) must be 0–9, not 10"),
        ("result 1 Nagy Péter vs Nobody B+", "No player called “Nobody” in this club."),
        ("result 1 Nagy Péter Kovács Anna B+ t=Nothing", "There is no tournament “Nothing” in "
         "this club; it has: Spring Cup"),
    ],
)  # fmt: skip
async def test_result_bad_inputs(club: FakeChat, line: str, message: str) -> None:
    await club.ok("/tournament new Spring Cup rounds=3 C=20")
    said = await club.refused(f"/tournament {line}")
    assert said.text.startswith(message)


async def test_result_without_an_open_tournament(club: FakeChat) -> None:
    said = await club.refused("/tournament result 1 Nagy Péter Kovács Anna B+")
    assert said.text.startswith("There is no open tournament; open one with /tournament new NAME")


# -- finalise, reopen --------------------------------------------------------------------------


@pytest.mark.parametrize("case", mgsz_tournaments(), ids=lambda c: c["name"])
async def test_finalise_rates_the_rulebooks_examples(club: FakeChat, case: dict[str, Any]) -> None:
    await play_mgsz_example(club, case, "Example Cup")  # the subject's games only: confirm
    said = await club.ok("/tournament finalise Example Cup confirm", as_=ORGANISER)
    assert said.text.startswith("Example Cup is rated\n\nName ")
    assert (await club.card(SUBJECT)).rating == case["new_elo"]
    line = next(x for x in said.text.splitlines() if x.startswith(SUBJECT))
    assert line.split()[2:5] == [
        str(case["player_elo"]),
        f"+{case['elo_change']}",
        str(case["new_elo"]),
    ]
    assert (await only_tournament(club)).finalised


async def test_finalise_announces_promotions(club: FakeChat) -> None:
    # rules.md §1.5: 4k and weaker are awarded the first time the Elo reaches the bound (1765)
    await club.register("Gyors Gábor 5k 1760")
    await club.ok("/tournament new Club Cup C=20")
    await club.ok("/tournament result 1 Gyors Gábor Kovács Anna B+")
    said = await club.ok("/tournament finalise")
    card = await club.card("Gyors Gábor")
    assert card.rating >= 1765 and card.rank == Rank.kyu(4)
    assert said.text.endswith("Promotions: Gyors Gábor 5k → 4k")


async def test_result_says_when_a_tournament_game_will_not_count(club: FakeChat) -> None:
    await club.ok("/tournament new Empty Cup C=20")
    said = await club.ok("/tournament result 1 Nagy Péter Kovács Anna unplayed")
    assert said.text.endswith(
        "Recorded, but it will not count: an unplayed game (a bye, no-show or forfeit) is "
        "stored and shown, never rated."
    )
    await club.register("Szabó Éva 5k")
    said = await club.ok("/tournament result 1 Tóth Ádám Szabó Éva B+")
    assert said.text.endswith("Rated when the tournament is finalised.")


async def test_finalise_a_tournament_without_rated_games(club: FakeChat) -> None:
    await club.ok("/tournament new Empty Cup C=20")
    await club.ok("/tournament result 1 Nagy Péter Kovács Anna unplayed")
    said = await club.ok("/tournament finalise")
    assert said.text == (
        "Empty Cup is rated\n\nNo rating changed (no rated games, or the system rates none)."
    )


async def test_reopen_takes_the_rating_back_and_finalise_gives_it_again(club: FakeChat) -> None:
    case = mgsz_tournaments()[0]
    await play_mgsz_example(club, case, "Example Cup")
    await club.ok("/tournament finalise confirm")
    said = await club.ok("/tournament reopen example cup")
    assert said.text == (
        "Example Cup is open again: its rating was taken back and every rating after it "
        "recomputed. Fix it, then /tournament finalise."
    )
    assert (await club.card(SUBJECT)).rating == case["player_elo"]
    assert not (await only_tournament(club)).finalised
    await club.ok("/tournament finalize anyway")
    assert (await club.card(SUBJECT)).rating == case["new_elo"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("finalise", "There is no open tournament; open one with /tournament new NAME"),
        ("finalise Nothing", "There is no tournament “Nothing”"),
        ("reopen", "Name the tournament to reopen, e.g. /tournament reopen Spring Cup"),
        ("reopen Nothing", "There is no tournament “Nothing”"),
        ("show", "There is no open tournament"),
        ("show Nothing", "There is no tournament “Nothing”"),
    ],
)
async def test_finalise_reopen_show_bad_inputs(club: FakeChat, line: str, message: str) -> None:
    said = await club.refused(f"/tournament {line}")
    assert said.text.startswith(message)


async def test_finalise_and_reopen_only_once(club: FakeChat) -> None:
    await club.ok("/tournament new Cup C=20")
    said = await club.refused("/tournament reopen Cup")
    assert said.text.startswith("Cup is not finalised, so there is nothing to reopen")
    await club.ok("/tournament finalise Cup confirm")  # no games at all: asked first
    said = await club.refused("/tournament finalise Cup")
    assert said.text.startswith(
        "Cup was already finalised on 2026-04-20; reopen it to rate it again"
    )
    said = await club.refused("/tournament result 1 Nagy Péter Kovács Anna B+ t=Cup")
    assert said.text.startswith("Cup is already finalised; reopen it to add games")
    said = await club.refused(f"/tournament import name=Cup\n{GAMES_CSV}")
    assert said.text.startswith(  # every line of the paste is named
        "Nothing was recorded:\nline 2: Cup is already finalised; reopen it to add games\n"
        "line 3: Cup is already finalised; reopen it to add games"
    )


async def test_several_open_tournaments_must_be_named(club: FakeChat) -> None:
    await club.ok("/tournament new Autumn Cup C=10")
    await club.ok("/tournament new Winter Cup C=10")
    said = await club.refused("/tournament finalise")
    assert said.text.startswith(
        "Several tournaments are open (Autumn Cup, Winter Cup); name one, e.g. Autumn Cup"
    )


# -- show, list --------------------------------------------------------------------------------


async def test_show_and_list(club: FakeChat) -> None:
    await club.ok("/tournament new Spring Cup start=2026-04-11 end=2026-04-12 rounds=3 C=20")
    await club.ok("/tournament result 1 Nagy Péter Kovács Anna B+")
    await club.ok("/tournament result 2 Tóth Ádám Kovács Anna W+")
    await club.ok("/tournament result 3 Nagy Péter Tóth Ádám unplayed")  # one game a round
    row = await only_tournament(club)
    said = await club.ok("/tournament show", as_=ORGANISER)
    assert said.text == (
        f"#{row.number} Spring Cup\n\n"
        "Apr 11, 2026 – Apr 12, 2026, 3 rounds, 19×19, even\n"
        "Status: open\n"
        "Multiplier C: C = 20, set by hand (MGSZ §6(2))\n"
        "3 entries, 3 games (2 to rate)\n"
        "Games per round: R1: 1, R2: 1, R3: 1"
    )
    said = await club.ok("/tournament list")
    header, line = said.text.splitlines()
    assert header.split() == ["#", "Tournament", "Dates", "Rounds", "Status"]
    assert line.split() == [str(row.number), "Spring", "Cup", "Apr", "11,", "2026", "–", "Apr",
                            "12,", "2026", "3", "open"]  # fmt: skip


async def test_list_of_no_tournaments(club: FakeChat) -> None:
    said = await club.ok("/tournament list")
    assert said.text == "No tournaments yet. /tournament new NAME opens one."


# -- import: pasted or attached tables ---------------------------------------------------------


async def test_import_a_pasted_h9(club: FakeChat) -> None:
    said = await club.ok(f"/tournament import\n{TINY_H9}", as_=ORGANISER)
    row = await only_tournament(club)
    assert said.text.startswith("Imported Tiny Cup\n\n")
    assert (
        "Tiny Cup: 2026-04-18 – 2026-04-19, 2 rounds, 3 players, 2 games (2 to rate)" in said.text
    )
    assert "Matched 2 registered players; 1 new, 0 guests." in said.text
    assert "New: Új Ferenc 6k" in said.text
    assert "(derived from the file; set it with C=NN)" in said.text  # MGSZ's C: by hand
    assert said.text.endswith(
        f"Imported as tournament #{row.number}; it stays open until /tournament finalise Tiny Cup."
    )
    assert not row.finalised and row.tournament.even
    games = await tournament_games(club, row.id)
    names = {p.id: p.name for p in await storage.players(club.db, club.club)}
    assert sorted((g.game.round, names[g.game.black], names[g.game.white], g.game.result)
                  for g in games) == [
        (1, "Nagy Péter", "Kovács Anna", Result.BLACK),
        (2, "Új Ferenc", "Nagy Péter", Result.WHITE),
    ]  # fmt: skip
    assert (await club.player("Új Ferenc")).rank == Rank.kyu(6)


async def test_import_with_result_and_a_table_is_an_import(club: FakeChat) -> None:
    said = await club.ok(f"/tournament result\n{TINY_H9}")
    assert said.text.startswith("Imported Tiny Cup")


async def test_import_options_c_and_name(club: FakeChat) -> None:
    said = await club.ok(f'/tournament import C=30 name="Kis Torna"\n{TINY_H9}')
    t = (await only_tournament(club)).tournament
    assert (t.name, t.multiplier) == ("Kis Torna", 30)
    assert "Multiplier C: C = 30, set by hand" in said.text


async def test_import_the_xml_twin_gives_the_same_games(tmp_path: Path) -> None:
    found = []
    for name in ("kis_kupa.h9", "kis_kupa.xml"):
        (tmp_path / name).mkdir()
        chat = await FakeChat.open(tmp_path / name, settings={"country": "HU"})
        try:
            data = (DATA / name).read_bytes()
            await chat.ok("/tournament import committee", attachment=data, attachment_name=name)
            names = {p.id: p.name for p in await storage.players(chat.db, chat.club, guests=True)}
            found.append(sorted(
                (g.game.round, names[g.game.black], names[g.game.white], g.game.result,
                 g.game.stones, g.game.komi, g.game.played, g.game.date)
                for g in await chat.games()
            ))  # fmt: skip
        finally:
            await chat.close()
    h9, xml = found
    assert h9 == xml and len(h9) == 6


@pytest.mark.parametrize("committee", ["", " committee"])
async def test_mgsz_refuses_new_players_stronger_than_5k(club: FakeChat, committee: str) -> None:
    data = (DATA / "kis_kupa.h9").read_bytes()
    line = f"/tournament import{committee}"
    if not committee:
        said = await club.refused(line, attachment=data, attachment_name="kis_kupa.h9")
        first = said.text.splitlines()
        assert first[0] == "The file cannot be imported:"
        assert first[1].startswith(
            "3 new players are stronger than 5k: Horváth Zsófia 1k, Tóth Bence 2d, Müller "
            "Jürgen 3k. A new player without a rating starts at 5k at most"
        )
        assert "committee" in first[1]
        return
    said = await club.ok(line, attachment=data, attachment_name="kis_kupa.h9")
    assert "4 new" not in said.text and "5 new, 0 guests" in said.text
    assert (await club.player("Tóth Bence")).committee


async def test_a_club_country_makes_foreigners_guests(tmp_path: Path) -> None:
    chat = await FakeChat.open(tmp_path, settings={"country": "HU"})
    try:
        data = (DATA / "kis_kupa.h9").read_bytes()
        said = await chat.ok("/tournament import committee", attachment=data)
        assert "4 new, 1 guest" in said.text and "Müller Jürgen 3k (guest)" in said.text
        assert [p.name for p in await storage.players(chat.db, chat.club) if p.guest] == []
        guests = [p for p in await storage.players(chat.db, chat.club, guests=True) if p.guest]
        assert [(p.name, p.country) for p in guests] == [("Müller Jürgen", "DE")]
    finally:
        await chat.close()


async def test_the_40_player_spring_cup_imports_and_rates(tmp_path: Path) -> None:
    chat = await FakeChat.open(tmp_path)
    try:
        data = (DATA / "spring_cup_40x5.h9").read_bytes()
        said = await chat.ok("/tournament import committee", attachment=data)
        assert "40 players, 99 games" in said.text
        assert len(await storage.players(chat.db, chat.club)) == 40
        # two players missed round 1 (19 of the other rounds' 20 games): an absentee's bye,
        # not a round still being entered, so nothing is asked
        said = await chat.ok("/tournament finalise")
        assert said.text.startswith("Budapest Spring Cup 2026 is rated")
    finally:
        await chat.close()


async def test_import_csv_games_into_the_open_tournament(club: FakeChat) -> None:
    await club.ok("/tournament new Club League C=10 rounds=2")
    said = await club.ok(f"/tournament import\n{GAMES_CSV}")
    assert said.text == "2 games added to Club League. Rated when the tournament is finalised."
    tid = (await only_tournament(club)).id
    games = sorted(g.game.round or 0 for g in await tournament_games(club, tid))
    assert games == [1, 2]


def broken_h9() -> bytes:
    text = (DATA / "spring_cup_40x5.h9").read_text(encoding="utf-8")
    return re.sub(r"13\+/b0", "13%/b0", text, count=1).encode("utf-8")


def broken_xml() -> bytes:
    data = (DATA / "kis_kupa.xml").read_bytes()
    return data.replace(b'result="RESULT_BLACKWINS"', b'result="RESULT_MAYBE"', 1)


@pytest.mark.parametrize(
    ("data", "name", "message"),
    [
        (broken_h9(), "cup.h9", "Line 16: “13%/b0” is not a round token"),
        (broken_xml(), "cup.xml", "result=“RESULT_MAYBE” in <Game "),
        ((DATA / "kis_kupa.xml").read_bytes().replace(b"</Games>", b"", 1), "cup.xml",
         "Line 41: not well-formed XML"),
        (GAMES_CSV.replace("Tóth Ádám", "Kiss Béla").encode(), "games.csv",
         "Nothing was recorded:\nline 3: no player is called “Kiss Béla”"),
        (GAMES_CSV.replace(",B+,", ",X+,").encode(), "games.csv",
         "Line 2: cannot read the result “X+”"),
        (b"\x00\x01garbage", "cup.h9", ""),
    ],
    ids=["h9-bad-round", "xml-bad-result", "xml-not-well-formed", "csv-unknown-name",
         "csv-bad-result", "garbage"],
)  # fmt: skip
async def test_a_malformed_table_leaves_the_database_unchanged(
    club: FakeChat, data: bytes, name: str, message: str
) -> None:
    await club.ok("/tournament new Club League C=10 rounds=2")
    line = "/tournament import" + ("" if name.endswith(".csv") else " committee")
    said = await club.refused(line, attachment=data, attachment_name=name)
    assert said.text.startswith(message)
    assert "Something went wrong" not in said.text


async def test_a_malformed_paste_leaves_the_database_unchanged(club: FakeChat) -> None:
    broken = TINY_H9.replace("3+/w0", "3+/x0")
    said = await club.refused(f"/tournament import\n{broken}")
    assert said.text.startswith("Line 8: “3+/x0” is not a round token")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/tournament import", "Attach the results file (h9, OpenGotha XML or CSV) to the "
         "command's message, or paste it in the same message on the lines below the command, "
         "or send the command as a reply to the message with the file"),
        (f"/tournament new Cup\n{TINY_H9}", "/tournament new takes no pasted table; paste "
         "results with /tournament import"),
        (f"/tournament import please\n{TINY_H9}", "Unexpected “please”: /tournament import "
         "takes C=NN, name=..., committee"),
        (f"/tournament import C=abc\n{TINY_H9}", "C must be a whole number, not “abc”"),
        (f"/tournament import committee\n{GAMES_CSV}", "Committee is for tournament files that "
         "add players, not CSV games"),
    ],
)  # fmt: skip
async def test_import_bad_inputs(club: FakeChat, line: str, message: str) -> None:
    said = await club.refused(line)
    assert said.text.startswith(message)


@pytest.mark.parametrize(
    ("platform", "message"),
    [
        ("console", "Paste the results table (h9, OpenGotha XML or CSV) together with the "
         "command: the command line first and the table after it in one paste, or type the "
         "command, paste the table right after it, then press Enter"),
        ("discord", "Attach the results file (h9, OpenGotha XML or CSV) as the command's file, "
         "or press the button below and paste the table into the form"),
    ],
)  # fmt: skip
async def test_import_without_a_table_says_how_to_send_one_where_it_is_asked(
    club: FakeChat, platform: str, message: str
) -> None:
    """The console reads a paste only in the same entry as the command (console.entered), a
    Discord command takes its file as an option or in the paste form: no "lines below"."""
    await club.bind(platform)
    caller = Caller(platform, "100", "Admin Ági", chat_admin=True)
    said = await club.refused("/tournament import", as_=caller)
    assert said.text.startswith(message)
    assert "lines below" not in said.text


async def test_csv_games_need_an_open_tournament(club: FakeChat) -> None:
    said = await club.refused(f"/tournament import\n{GAMES_CSV}")
    assert said.text.startswith("There is no open tournament")
    await club.ok("/tournament new A Cup C=10 rounds=2")
    await club.ok("/tournament new B Cup C=10 rounds=2")
    said = await club.refused(f"/tournament import\n{GAMES_CSV}")
    assert said.text.startswith(
        'Several tournaments are open (A Cup, B Cup); name one, e.g. name="A Cup"'
    )
    await club.ok(f'/tournament import name="B Cup"\n{GAMES_CSV}')


async def test_a_files_name_in_another_order_is_asked_about_then_confirmed(
    club: FakeChat,
) -> None:
    """Issue 22 (names and pairs): the file's Anna Kovács is not silently the club's Kovács
    Anna; the refusal names the pair and both ways on, and confirm imports it as written."""
    reordered = TINY_H9.replace("Kovács Anna ", "Anna Kovács ")
    said = await club.refused(f"/tournament import C=20\n{reordered}")
    assert said.text.startswith(
        "1 name in the file is a club player's name in another order:\n"
        "line 9: the file's Anna Kovács would be Kovács Anna (2d, since Apr 20, 2026), the "
        "names in another order\n"
        "Nothing was recorded. If it is the same person, say so: /tournament import C=20 "
        "confirm (with the file again); if not, correct the name in the file (a new player "
        "needs a name that tells the two apart, e.g. Anna Kovács (Bp))."
    )
    said = await club.ok(f"/tournament import C=20 confirm\n{reordered}")
    assert "Matched 2 registered players; 1 new, 0 guests." in said.text
    assert len(await storage.players(club.db, club.club)) == 4  # Új Ferenc only
    # a file imported again, in another order: both words, in either order
    said = await club.refused(f"/tournament import C=20 confirm\n{reordered}")
    assert "record them anyway: /tournament import C=20 confirm again (with the file" in (
        said.text
    )
    for name, words in (("Second", "again confirm"), ("Third", "confirm again")):
        said = await club.ok(f"/tournament import C=20 name={name} {words}\n{reordered}")
        assert "Imported as tournament" in said.text


async def test_a_csv_of_games_with_a_name_in_another_order_is_asked_about(
    club: FakeChat,
) -> None:
    await club.ok("/tournament new Club League C=10 rounds=2")
    reordered = GAMES_CSV.replace("Nagy Péter,Kovács", "Péter Nagy,Kovács")
    said = await club.refused(f"/tournament import\n{reordered}")
    assert said.text.startswith(
        "1 name in the file is a club player's name in another order:\n"
        "line 2: the file's Péter Nagy would be Nagy Péter (5k, since Apr 20, 2026), the "
        "names in another order\n"
        "Nothing was recorded. If it is the same person, say so: /tournament import confirm "
        "(with the file again); if not"
    )
    said = await club.ok(f"/tournament import confirm\n{reordered}")
    assert said.text == "2 games added to Club League. Rated when the tournament is finalised."
    nagy = await club.player("Nagy Péter")
    assert nagy.id in {g.game.black for g in await club.games()}


# -- club numbers ------------------------------------------------------------------------------


async def test_tournaments_and_their_games_show_the_clubs_numbers(club: FakeChat) -> None:
    await club.ok("/result Nagy Péter Kovács Anna B+")
    said = await club.ok("/tournament new Spring Cup rounds=2 C=20")
    assert said.text.startswith("Tournament #1 Spring Cup opened")
    said = await club.ok("/tournament new Autumn Cup rounds=2 C=20")
    assert said.text.startswith("Tournament #2 Autumn Cup opened")
    said = await club.ok('/tournament result 1 Nagy Péter Tóth Ádám B+ t="Spring Cup"')
    assert said.text.startswith("Spring Cup, round 1: game #2 — ")
    assert (await club.ok("/tournament show #2")).text.startswith("#2 Autumn Cup")
    assert (await club.ok("/tournament show 1")).text.startswith("#1 Spring Cup")
    assert "\n1 " in (await club.ok("/tournament list")).text.replace("│", " ")
    said = await club.refused("/tournament show #7")
    assert said.text.startswith("There is no tournament #7 in this club")


# -- a tournament opened before it is played ---------------------------------------------------


async def test_a_tournament_opens_before_it_is_played_and_takes_rounds_as_they_are_played(
    club: FakeChat,
) -> None:
    said = await club.ok(
        "/tournament new Summer Cup start=2026-06-06 end=2026-06-07 rounds=2 C=20"
    )
    assert "Jun 6, 2026 – Jun 7, 2026, 2 rounds" in said.text
    said = await club.refused("/tournament result 1 Nagy Péter Kovács Anna B+")
    assert said.text.startswith(
        "Summer Cup starts on Jun 6, 2026: enter a round's results once it is played"
    )
    club.clock.advance(dt.timedelta(days=47))  # 2026-06-06, the first day
    said = await club.ok("/tournament result 1 Nagy Péter Kovács Anna B+")
    assert "Jun 6, 2026" in said.text
    said = await club.ok("/tournament result 2 Nagy Péter Tóth Ádám W+")
    assert "Jun 6, 2026" in said.text  # round 2's day is tomorrow: not a date in the future
    said = await club.refused("/tournament result 2 Nagy Péter Tóth Ádám W+ date=2026-06-09")
    assert said.text.startswith("The date 2026-06-09 is in the future")


async def test_finalise_with_rounds_missing_asks_first(club: FakeChat) -> None:
    await club.register("Szabó Éva 5k")
    await club.ok("/tournament new Spring Cup rounds=3 C=20")
    await club.ok("/tournament result 1 Nagy Péter Kovács Anna B+")
    await club.ok("/tournament result 1 Tóth Ádám Szabó Éva B+")
    await club.ok("/tournament result 2 Nagy Péter Tóth Ádám W+")
    before = await club.snapshot()
    said = await club.ok("/tournament finalise", as_=ORGANISER)
    assert said.text == (
        "Spring Cup has rounds missing\n\n"
        "Round 2: 1 of 2 games (4 entries); round 3: no games.\n"
        "Enter the missing results first, or finalise it as it is: "
        "/tournament finalise #1 confirm"
    )
    assert [(b.label, b.command) for b in said.reply.buttons] == [
        ("Finalise anyway", "/tournament finalise #1 confirm")
    ]
    assert await club.snapshot() == before  # asking changed nothing
    assert not (await only_tournament(club)).finalised
    said = await club.ok("/tournament finalise #1 confirm", as_=ORGANISER)
    assert said.text.startswith("Spring Cup is rated")
    assert (await only_tournament(club)).finalised


async def test_finalise_of_a_complete_tournament_does_not_ask(club: FakeChat) -> None:
    await club.ok("/tournament new Spring Cup rounds=2 C=20")
    await club.ok("/tournament result 1 Nagy Péter Kovács Anna B+")
    await club.ok("/tournament result 2 Kovács Anna Nagy Péter B+")
    said = await club.ok("/tournament finalise Spring Cup")
    assert said.text.startswith("Spring Cup is rated")


# -- tournament names are matched like player names --------------------------------------------


async def test_tournament_names_are_matched_like_player_names(club: FakeChat) -> None:
    await club.ok("/tournament new Tavaszi Kupa 2026 C=20")
    await club.ok("/tournament new Őszi Kupa 2026 C=20")
    assert (await club.ok("/tournament show oszi KUPA 2026")).text.startswith("#2 Őszi Kupa")
    assert (await club.ok("/tournament show tav")).text.startswith("#1 Tavaszi Kupa")
    said = await club.ok("/tournament result 1 Nagy Péter Kovács Anna B+ t=őszi")
    assert said.text.startswith("Őszi Kupa 2026, round 1:")
    said = await club.refused("/tournament show kupa")
    assert said.text.startswith(
        "2 tournaments match “kupa”: Tavaszi Kupa 2026 (#1), Őszi Kupa 2026 (#2). Which one? "
        "Give more of the name or its number, e.g. /tournament show #1"
    )
    said = await club.refused("/tournament show 2026")  # a bare number: #2026, or the names
    assert said.text.startswith("2 tournaments match “2026”")
    said = await club.refused("/tournament show Tavasi Kupa")
    assert said.text.startswith(
        "There is no tournament “Tavasi Kupa”. Did you mean: Tavaszi Kupa 2026?"
    )
    said = await club.ok("/export h9 oszi")
    assert said.reply.document is not None and said.reply.document.filename.endswith("-2.h9")


# -- junk in the options is refused, never folded into the name --------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("Spring Cup 2026-03-01 rounds=5", "“2026-03-01” looks like a date: write "
         "start=2026-03-01 (and end=YYYY-MM-DD for a second day)"),
        ("Spring Cup 60m rounds=5", "“60m” looks like a time control: write time=60m"),
        ('Spring Cup "60m 3x30s"', None),  # quoted: part of the name, as asked
        ("Spring Cup 5 rounds", "“rounds” looks like an option: write rounds=5"),
        ("Spring Cup 13x13", "“13x13” looks like a board size: write board=13"),
        ("Spring rounds=5 Cup", "“Cup” comes after the options: write the name first, e.g. "
         "/tournament new Spring Cup rounds=5"),
        ("Spring Cup even Cup", "“Cup” comes after “even”"),
    ],
)  # fmt: skip
async def test_new_refuses_words_that_are_not_the_name(
    club: FakeChat, line: str, message: str | None
) -> None:
    if message is None:
        said = await club.ok(f"/tournament new {line}")
        assert (await only_tournament(club)).tournament.name == "Spring Cup 60m 3x30s"
        return
    said = await club.refused(f"/tournament new {line}")
    assert said.text.startswith(message[:1].upper() + message[1:])


# -- the open rating period of club games (MGSZ) ------------------------------------------------


async def test_the_open_club_period_is_shown_and_listed(club: FakeChat) -> None:
    """MGSZ rates club games together at the end of the month: /tournament show and list
    name that open period, how many games it has and when it is rated."""
    await club.ok("/result Nagy Péter Kovács Anna B+")
    await club.ok("/result Tóth Ádám Kovács Anna W+")
    said = await club.ok("/tournament show")
    assert said.text == (
        "Open rating period\n\n"
        "Club games, April 2026: 2 club games of 3 players so far (Apr 20, 2026 – Apr 20, 2026), "
        "rated together after Apr 30, 2026; until then /rating shows each player's rating if the "
        "period ended now"
    )
    said = await club.ok("/tournament list")
    assert said.text.splitlines()[-1].split() == [
        "–", "Club", "games,", "April", "2026", "Apr", "20,", "2026", "–", "Apr", "30,", "2026",
        "–", "open", "until", "Apr", "30,", "2026",
    ]  # fmt: skip
    await club.ok("/tournament new Spring Cup start=2026-04-11 end=2026-04-12 rounds=3")
    said = await club.ok("/tournament show")
    assert said.text.startswith("#1 Spring Cup")
    assert said.text.endswith(
        "Also open:\nClub games, April 2026: 2 club games of 3 players so far "
        "(Apr 20, 2026 – Apr 20, 2026), rated together after Apr 30, 2026; until "
        "then /rating shows each player's rating if the period ended now"
    )
    said = await club.ok("/rating Nagy Péter")
    assert "if the period ended now:" in said.text


# -- the club's language (issue 13) -------------------------------------------------------------


async def test_tournaments_answer_in_japanese_in_a_japanese_club(tmp_path: Path) -> None:
    chat = await FakeChat.open(
        tmp_path,
        "tensuusei",
        settings={"language": "ja"},
        players=("Nagy Péter 5k", "Kovács Anna 3k"),
    )
    try:
        said = await chat.ok(
            "/tournament new 春季大会 start=2026-04-18 end=2026-04-19 rounds=3 handicap"
        )
        assert said.text.startswith(
            "大会#1「春季大会」を開きました\n\n2026/04/18〜2026/04/19, 3回戦, 19×19, "
            "置き碁\n"
            "状態: 受付中"
        )
        said = await chat.ok("/tournament result 1 Nagy Péter Kovács Anna B+ h=2")
        assert said.text == (
            "春季大会 第1回戦: 対局#1 — Nagy Péter（黒）– Kovács Anna（白）: B+, 2子局, コミ0.5, "
            "2026/04/18。大会の確定時にレーティングに反映されます。"
        )
        said = await chat.ok("/tournament show")
        assert "参加2件、1局（計算対象1局）\n回戦ごとの対局数: R1: 1" in said.text
        said = await chat.ok("/tournament list")
        assert said.text.splitlines()[0].split() == ["#", "大会", "日程", "回戦数", "状態"]
        assert said.text.splitlines()[1].split()[-1] == "受付中"
        said = await chat.ok("/tournament finalise")
        assert said.text == (
            "「春季大会」に未入力の回戦があります\n\n"
            "第2回戦: 対局なし; 第3回戦: 対局なし。\n"
            "先に未入力の結果を入力するか、このまま確定してください: "
            "/tournament finalise #1 confirm"
        )
        assert [b.label for b in said.reply.buttons] == ["このまま確定"]
        said = await chat.ok("/tournament schedule 春季大会 2026-04-25 19:00")
        assert said.text.startswith(
            "春季大会は2026/04/25 19:00（UTC）にレーティングに反映されます。"
        )
        said = await chat.refused("/tournament frobnicate")
        assert said.text.startswith("不明な/tournamentの操作です: 「frobnicate」")
        said = await chat.refused("/tournament new Cup class=E")
        assert said.text.startswith("EGF大会クラスはA、B、C、Dのいずれかです。「E」は使えません")
        for english in ("opened", "Rated when", "Status", "entries", "rounds missing", "unknown"):
            assert english not in "\n".join(s.text for _line, s in chat.said), english
    finally:
        await chat.close()


async def test_tournaments_count_in_polish(tmp_path: Path) -> None:
    """Polish plurals: 1 runda, 2–4 rundy, 5+ rund; 1 partia, 2 partie, 5 partii."""
    chat = await FakeChat.open(
        tmp_path,
        "psg",
        settings={"language": "pl"},
        players=("Nagy Péter 8k", "Kovács Anna 10k", "Tóth Ádám 9k"),
    )
    try:
        counted = (("1", "1 runda"), ("3", "3 rundy"), ("5", "5 rund"))
        for number, (rounds, said_rounds) in enumerate(counted, start=1):
            said = await chat.ok(f"/tournament new Puchar {rounds} rounds={rounds}")
            assert said.text.startswith(f"Otwarto turniej #{number} Puchar {rounds}\n\n")
            assert f"20 kwi 2026 – 20 kwi 2026, {said_rounds}, 19×19, bez fory" in said.text
        said = await chat.ok("/tournament show Puchar 3")
        assert "Stan: otwarty\n0 zgłoszeń, 0 partii (do przeliczenia: 0)" in said.text
        await chat.ok("/tournament result 1 Nagy Péter Kovács Anna B+ t=#2")
        said = await chat.ok("/tournament show #2")
        assert "2 zgłoszenia, 1 partia (do przeliczenia: 1)" in said.text
        said = await chat.ok("/tournament finalise #2")
        assert said.text == (
            "Puchar 3: brakuje rund\n\n"
            "Runda 2: brak partii; runda 3: brak partii.\n"
            "Najpierw wpisz brakujące wyniki albo zatwierdź turniej w obecnym stanie: "
            "/tournament finalise #2 confirm"
        )
        games = "date,black,white,result,round\n" + "".join(
            f"2026-04-20,{black},{white},B+,{round_}\n"
            for round_, black, white in (
                (1, "Kovács Anna", "Nagy Péter"),  # not Puchar 3's game: another winner
                (2, "Tóth Ádám", "Nagy Péter"),
                (3, "Kovács Anna", "Tóth Ádám"),
                (4, "Nagy Péter", "Tóth Ádám"),
                (5, "Kovács Anna", "Nagy Péter"),
            )
        )
        said = await chat.ok(f'/tournament import name="Puchar 5"\n{games}')
        assert said.text == (
            "Dodano 5 partii do turnieju Puchar 5. Zostaną przeliczone przy zatwierdzeniu "
            "turnieju."
        )
        said = await chat.refused("/tournament new Puchar 2026-05-01")
        assert said.text.startswith("„2026-05-01” wygląda na datę: wpisz start=2026-05-01")
    finally:
        await chat.close()


def translated_in(language: str, message: str) -> bool:
    """Whether ``language``'s catalogue has ``message``: a text written by another part of
    issue 13 (the rules' weight lines, /multiplier) is checked once that part is there."""
    return catalogue(language).gettext(message) != message


@pytest.mark.skipif(
    not (
        translated_in("hu", "Multiplier C")
        and translated_in(
            "hu", "category {category}: {value} (base {base} min, extended {extended} min)"
        )
    ),
    reason="the Hungarian catalogue has no MGSZ multiplier lines yet (the rules part of issue 13)",
)
async def test_a_tournaments_multiplier_in_hungarian(tmp_path: Path) -> None:
    """MGSZ's multiplier C, as /multiplier and /tournament new give it, in Hungarian."""
    chat = await FakeChat.open(
        tmp_path, settings={"language": "hu"}, players=("Nagy Péter 5k", "Kovács Anna 2d 2090")
    )
    try:
        said = await chat.ok("/multiplier 60m 3x30s even")
        assert said.text.startswith("C szorzó = 25")
        said = await chat.ok('/tournament new Kupa rounds=3 time="60m 3x30s" even')
        assert said.text.startswith("Megnyitva: #1 Kupa verseny\n\n")
        assert "\nÁllapot: nyitott\nC szorzó: B kategória: 15 (alapidő 60 perc" in said.text
        said = await chat.ok("/tournament new Mini rounds=3")
        assert "\nSúly: még nem határozható meg — " in said.text
        assert "Multiplier" not in said.text and "category" not in said.text
    finally:
        await chat.close()


async def test_the_open_club_period_in_hungarian(tmp_path: Path) -> None:
    """MGSZ's open period of club games, in /tournament show and list, in Hungarian."""
    chat = await FakeChat.open(
        tmp_path, settings={"language": "hu"}, players=("Nagy Péter 5k", "Kovács Anna 2d 2090")
    )
    try:
        await chat.ok("/result Nagy Péter Kovács Anna B+")
        said = await chat.ok("/tournament show")
        assert said.text == (
            "Nyitott értékelési időszak\n\n"
            "Klubjátszmák, 2026. április: eddig 1 klubjátszma 2 játékos részvételével "
            "(2026. ápr. 20. – 2026. ápr. 20.), 2026. ápr. 30. után együtt értékeljük őket; "
            "addig a /rating azt mutatja, mennyi lenne a játékosok Élő-pontja, ha az időszak "
            "most zárulna"
        )
        said = await chat.ok("/tournament list")
        assert said.text.splitlines()[0].split() == [
            "#",
            "Verseny",
            "Dátum",
            "Fordulók",
            "Állapot",
        ]
        assert said.text.splitlines()[1].endswith("nyitott eddig: 2026. ápr. 30.")
    finally:
        await chat.close()


async def test_tournaments_in_swedish(tmp_path: Path) -> None:
    chat = await FakeChat.open(
        tmp_path,
        "swedish",
        settings={"language": "sv"},
        players=("Nagy Péter 5k", "Kovács Anna 3k"),
    )
    try:
        said = await chat.ok("/tournament new Vårcupen rounds=2 start=2026-04-18 end=2026-04-19")
        assert said.text.startswith(
            "Turnering #1 Vårcupen öppnad\n\n18 apr. 2026–19 apr. 2026, 2 ronder, 19×19, jämn\n"
            "Status: öppen"
        )
        said = await chat.ok("/tournament result 2 Nagy Péter Kovács Anna W+")
        assert said.text.startswith(
            "Vårcupen, rond 2: parti #1 — Nagy Péter (S) – Kovács Anna (V): W+, jämn, "
        )
        assert said.text.endswith("Ratingas när turneringen avslutas.")
        said = await chat.ok("/tournament show")
        assert "\n2 anmälningar, 1 parti (1 att ratinga)\nPartier per rond: R2: 1" in said.text
        said = await chat.ok("/tournament finalise")
        assert said.text.startswith("Vårcupen saknar ronder\n\nRond 1: inga partier.\n")
        assert [b.label for b in said.reply.buttons] == ["Avsluta ändå"]
        await chat.ok("/tournament finalise Vårcupen confirm")
        said = await chat.ok("/tournament reopen Vårcupen")
        assert said.text == (
            "Vårcupen är öppen igen: dess rating har tagits tillbaka och all rating efter den "
            "räknats om. Rätta den och kör sedan /tournament finalise."
        )
    finally:
        await chat.close()


# -- a finalised tournament's games, and /undo of a finalisation -------------------------------


async def _finalised_cup(chat: FakeChat) -> list[int]:
    """Cup with two games entered by ORGANISER, finalised by the administrator; the games'
    numbers."""
    await chat.ok("/tournament new Cup C=20 rounds=2")
    numbers = []
    for line in ("1 Nagy Péter Kovács Anna B+", "2 Tóth Ádám Kovács Anna W+"):
        said = await chat.ok(f"/tournament result {line}", as_=ORGANISER)
        numbers.append(int(re.search(r"#(\d+)", said.text).group(1)))  # type: ignore[union-attr]
    await chat.ok("/tournament finalise Cup confirm")
    return numbers


async def test_undo_after_finalise_takes_back_the_finalisation(club: FakeChat) -> None:
    names = ("Nagy Péter", "Kovács Anna", "Tóth Ádám")
    before = {n: (await club.card(n)).rating for n in names}
    numbers = await _finalised_cup(club)
    assert {n: (await club.card(n)).rating for n in names} != before
    said = await club.ok("/undo")
    assert said.text.startswith(
        "Undone: the finalisation of Cup; it is open again and its rating was taken back."
    )
    assert not (await only_tournament(club)).finalised
    assert {n: (await club.card(n)).rating for n in names} == before
    for number in numbers:  # its games stay as they were
        row = await storage.game_by_number(club.db, club.club, number)
        assert row is not None and row.status == "ok"
    await club.ok("/tournament finalise Cup confirm")
    assert (await only_tournament(club)).finalised


@pytest.mark.parametrize(
    ("line", "who"),
    [
        ("/void {game}", "admin"),
        ("/correct {game} result=B+", "admin"),
        ("/correct {game} swap", "admin"),
        ("/undo", ORGANISER),  # ORGANISER's last entry is the game #2
    ],
)
async def test_a_game_of_a_finalised_tournament_changes_only_by_reopening(
    club: FakeChat, line: str, who: str
) -> None:
    numbers = await _finalised_cup(club)
    said = await club.refused(line.format(game=numbers[1]), as_=who)
    assert said.text.startswith(
        f"Game #{numbers[1]} belongs to Cup, which is finalised: a game of a rated "
        "tournament changes only when the tournament is reopened (/tournament reopen Cup)"
    )
    await club.ok("/tournament reopen Cup")
    await club.ok(line.format(game=numbers[1]), as_=who)


async def test_undo_of_a_void_in_a_tournament_finalised_since_is_refused(club: FakeChat) -> None:
    await club.ok("/tournament new Cup C=20")
    said = await club.ok("/tournament result 1 Nagy Péter Kovács Anna B+")
    number = int(re.search(r"#(\d+)", said.text).group(1))  # type: ignore[union-attr]
    await club.ok(f"/void {number}", as_=ORGANISER)
    await club.ok("/tournament finalise Cup confirm")
    said = await club.refused("/undo", as_=ORGANISER)
    assert said.text.startswith(f"Game #{number} belongs to Cup, which is finalised")


async def test_undo_after_reopen_rates_the_tournament_again(club: FakeChat) -> None:
    await _finalised_cup(club)
    rated = {n: (await club.card(n)).rating for n in ("Nagy Péter", "Kovács Anna")}
    await club.ok("/tournament reopen Cup")
    said = await club.ok("/undo")
    assert said.text.startswith(
        "Undone: the reopening of Cup; it is rated again as it was finalised."
    )
    assert (await only_tournament(club)).finalised
    assert {n: (await club.card(n)).rating for n in rated} == rated
    said = await club.ok("/undo")  # then the finalisation itself
    assert said.text.startswith("Undone: the finalisation of Cup")
    assert not (await only_tournament(club)).finalised


# -- a tournament typed in chat scores everyone with the rank of its first day -----------------

AFTER_EVERYTHING = FakeClock(dt.datetime(2026, 11, 27, 19, 0, tzinfo=dt.UTC))
HERBST = (
    "/tournament new Herbst start=2026-11-14 end=2026-11-15 rounds=1 time=60m",
    "/tournament result 1 Wagner Lena Gruber Max B+",
    "/tournament finalise",
)
LATER_GAME = ("/result Huber Anna Gruber Max B+ time=60m",)  # dated today, Nov 27


def systems_of(said: Any) -> dict[str, tuple[str, str]]:
    """``/rating NAME all`` as system name → (rank, rating)."""
    (table,) = [block for block in said.reply.blocks if hasattr(block, "rows")]
    return {row[0].rstrip(" *"): (row[1], row[2]) for row in table.rows}


@pytest.mark.parametrize("order", ["tournament first", "later game first"])
async def test_a_typed_tournament_scores_the_ranks_of_its_first_day(
    tmp_path: Path, order: str
) -> None:
    """Issue 22: Gruber Max (1k) lost a club game on Nov 27, after a tournament of Nov 14–15
    (his GoR fell to 1998, 2k). Typed after that game, the tournament scored him as 2k
    (Swedish 25, PSG 40: "due +3"); typed before it, as 1k (35 and 35). Both must say 35:
    he entered with the rank he had on the tournament's first day."""
    chat = await FakeChat.open(
        tmp_path,
        "gor",
        clock=AFTER_EVERYTHING,
        players=("Gruber Max 1k", "Wagner Lena 5k", "Huber Anna 2d"),
    )
    try:
        for line in HERBST + LATER_GAME if order == "tournament first" else LATER_GAME + HERBST:
            await chat.ok(line)
        wagner = systems_of(await chat.ok("/rating Wagner Lena all"))
        assert wagner["Swedish promotion points"] == ("5k", "35")
        assert wagner["PSG ranking (Poland)"] == ("5k", "35")
        assert systems_of(await chat.ok("/rating Gruber Max all"))["EGF GoR (Europe)"][0] == "2k"
        said = await chat.ok("/export h9 Herbst")
        assert said.reply.document is not None
        ranks = {p.name: str(p.rank) for p in parse_h9(said.reply.document.data).players}
        assert ranks == {"Gruber Max": "1k", "Wagner Lena": "5k"}
    finally:
        await chat.close()


NAMES = ("Gruber Max", "Wagner Lena", "Huber Anna", "Bauer Jonas", "Fischer Eva")
LATE = "Late Lukas"
RANKS = ("7k", "5k", "3k", "2k", "1k", "1d", "2d")
RESULTS = ("B+", "W+", "jigo")
OCTOBER_FIRST = dt.date(2026, 10, 1)


@dataclass(frozen=True)
class Calendar:
    """A club and its dated facts: each fact is the lines typed for it (a tournament's lines
    stay together), ``late`` the fact registering a player who joined today."""

    system: str
    players: tuple[str, ...]
    facts: tuple[tuple[str, ...], ...]
    late: int | None
    order: tuple[int, ...]


@st.composite
def calendars(draw: st.DrawFn) -> Calendar:
    """3–5 players of assorted ranks under any system; club games on distinct days of October
    and November, a typed tournament among them (before, after or around them), perhaps a
    committee's rank override today, and perhaps a player registered today who played some of
    them."""
    system = draw(st.sampled_from(sorted(SYSTEMS)))
    count = draw(st.integers(3, 5))
    ranks = draw(st.lists(st.sampled_from(RANKS), min_size=count, max_size=count))
    names = list(NAMES[:count])
    late = draw(st.booleans())
    if late:
        names.append(LATE)
    start = OCTOBER_FIRST + dt.timedelta(days=draw(st.integers(0, 50)))
    end = start + dt.timedelta(days=draw(st.integers(0, 2)))
    rounds = draw(st.integers(1, 2))
    lines = [
        f"/tournament new Herbst start={start} end={end} rounds={rounds} time=60m",
    ]
    for round_ in range(1, rounds + 1):
        seats = draw(st.permutations(names))
        for pair in range(draw(st.integers(1, len(names) // 2))):
            black, white = seats[2 * pair], seats[2 * pair + 1]
            result = draw(st.sampled_from(RESULTS))
            lines.append(f"/tournament result {round_} {black} {white} {result}")
    lines.append("/tournament finalise Herbst confirm")
    facts: list[tuple[str, ...]] = [tuple(lines)]
    # club games up to Nov 25: today's facts (an override) tie with them by order of entry
    days = draw(st.lists(st.integers(0, 55), min_size=1, max_size=4, unique=True))
    for day in days:
        date = OCTOBER_FIRST + dt.timedelta(days=day)
        if date == end:  # a club game of the tournament's last day: the order of entry decides
            continue
        black, white = draw(st.permutations(names))[:2]
        result = draw(st.sampled_from(RESULTS))
        facts.append((f"/result {black} {white} {result} date={date} time=60m",))
    if draw(st.booleans()):  # the committee sets a rank today: no tournament of the past sees it
        who, rank = draw(st.sampled_from(NAMES[:count])), draw(st.sampled_from(RANKS))
        facts.append((f'/override {who} rank={rank} reason="committee"',))
    index = None
    if late:
        index = len(facts)
        facts.append((f"/register {LATE} {draw(st.sampled_from(RANKS))} override",))
    order = tuple(draw(st.permutations(range(len(facts)))))
    players = tuple(f"{name} {rank} override" for name, rank in zip(NAMES, ranks, strict=False))
    return Calendar(system, players, tuple(facts), index, order)


NUMBERS = re.compile(r"(#|\bgame )\d+")
DATED = re.compile(r"\b(?:start|date)=(\S+)")


def day_of(fact: tuple[str, ...]) -> str:
    """The day a fact is dated (a tournament's first day); undated facts are today's."""
    found = DATED.search(fact[0])
    return found.group(1) if found else f"{AFTER_EVERYTHING.now:%Y-%m-%d}"


async def entered(path: Path, calendar: Calendar, order: Sequence[int]) -> list[str]:
    """What the club says after the facts were typed in ``order`` (a player's registration
    first of the facts naming them): every player under every system, their history, the
    tournament as an h9 file; game numbers left out (they follow the order of entry)."""
    order = list(order)
    if calendar.late is not None:
        order.remove(calendar.late)
        first = next(
            (i for i, f in enumerate(order) if any(LATE in line for line in calendar.facts[f])),
            len(order),
        )
        order.insert(first, calendar.late)
    path.mkdir()
    chat = await FakeChat.open(
        path,
        calendar.system,
        clock=FakeClock(AFTER_EVERYTHING.now),
        players=calendar.players,
    )
    try:
        for fact in order:
            for line in calendar.facts[fact]:
                await chat.ok(line)
        names = [line.rsplit(" ", 2)[0] for line in calendar.players]
        if calendar.late is not None:
            names.append(LATE)
        said = []
        for name in names:
            said.append((await chat.ok(f"/rating {name} all")).text)
            said.append((await chat.ok(f"/history {name} 30")).text)
        export = await chat.ok("/export h9 Herbst")
        assert export.reply.document is not None
        said.append(export.reply.document.data.decode())
        # the file's ranks (read from the rating history) are the ledger's of the first day
        row = await only_tournament(chat)
        ledger = await storage.ledger(chat.db, chat.club)
        ranks = await storage.entry_ranks(chat.db, chat.club, row.id)
        assert ranks == {p: ledger.rank_on(p, row.tournament.start) for p in ranks}
        return [NUMBERS.sub(r"\1N", text) for text in said]
    finally:
        await chat.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calendar=calendars())
async def test_any_order_of_entry_gives_the_same_replies(
    tmp_path_factory: pytest.TempPathFactory, calendar: Calendar
) -> None:
    """rules.md, top: entering the same dated facts in any order gives the same ratings —
    cards, history, ranks — under every system, and the same tournament file."""
    base = tmp_path_factory.mktemp("orders")
    in_calendar_order = sorted(range(len(calendar.facts)), key=lambda f: day_of(calendar.facts[f]))
    assert await entered(base / "typed", calendar, calendar.order) == await entered(
        base / "calendar", calendar, in_calendar_order
    )
