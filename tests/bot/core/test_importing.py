"""Importing a tournament file into a club: names matched, new players and guests, the
multiplier from the file, MGSZ's initial-rank rule, all or nothing (bot.core.importing)."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import AsyncIterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import storage
from bot.core import importing
from bot.i18n import using
from engine.formats import fold_name, parse_h9, parse_ratings_csv
from engine.formats.tournament_file import TournamentFile
from engine.ranks import Rank
from storage.errors import Refused
from storage.records import NewPlayer
from tests.bot.core.fakechat import CALLERS, TODAY, FakeChat

DATA = Path(__file__).resolve().parents[2] / "engine" / "formats" / "data"
ACTOR = "console:local"
NAMESAKES_H9 = """\
; EV[Namesakes Open]
; DT[2026-04-18,2026-04-18]
; HA[h9]
; KM[6.5]
; TM[45]
;
; Pl Name           Rk Co Club
   1 Kovács Réka    5k HU Szeg   2+/b0   3+/w0
   2 Kovács Réka    6k HU Bp     1-/w0   0+
   3 Nagy Péter     5k HU Bp        0+   1-/b0
"""


@pytest.fixture
async def chat(tmp_path: Path) -> AsyncIterator[FakeChat]:
    fake = await FakeChat.open(tmp_path)
    try:
        yield fake
    finally:
        await fake.close()


def read(name: str) -> TournamentFile:
    return importing.read_file((DATA / name).read_bytes(), name)


async def plan(chat: FakeChat, tf: TournamentFile, **options: Any) -> importing.ImportPlan:
    settings = await storage.club_settings(chat.db, chat.club)
    return await importing.plan_import(chat.db, chat.club, tf, settings=settings, **options)


async def apply(chat: FakeChat, p: importing.ImportPlan) -> storage.ImportResult:
    return await importing.apply_import(chat.db, chat.club, p, actor=ACTOR, chat=None)


# -- reading -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "data_file", "encoding"),
    [("kis_kupa.h9", "kis_kupa.h9", "ISO-8859-15"), ("kis_kupa.xml", "kis_kupa.xml", None),
     ("upload.bin", "kis_kupa.xml", None), ("", "spring_cup_40x5.h9", "UTF-8")],
)  # fmt: skip
def test_read_file_recognises_the_format(name: str, data_file: str, encoding: str | None) -> None:
    tf = importing.read_file((DATA / data_file).read_bytes(), name)
    assert tf.players and tf.games
    if encoding:
        assert tf.encoding == encoding
    assert "Kiss Ödön" in [p.name for p in tf.players] or tf.name == "Budapest Spring Cup 2026"


# -- planning ----------------------------------------------------------------------------------


async def test_the_mgsz_rule_refuses_new_players_above_5k_and_lists_them(chat: FakeChat) -> None:
    tf = read("spring_cup_40x5.h9")
    strong = [f"{p.name} {p.rank}" for p in tf.players if p.rank > Rank.kyu(5)]
    with pytest.raises(Refused) as caught:
        await plan(chat, tf)
    message = str(caught.value)
    assert message.startswith("the file cannot be imported:\n")
    assert len(strong) > 3
    assert (
        f"{len(strong)} new players are stronger than 5k: {', '.join(strong[:3])} and "
        f"{len(strong) - 3} more. " in message
    )
    assert "MGSZ Minősítési Szabályzat 5.§ (3)" in message and "rules.md" not in message
    assert "/tournament import committee" in message  # the chat's own words for the remedy
    assert "/register NAME RANK RATING" in message and "/club country HU" in message
    assert await chat.log_size() == 5  # the club, its chat, organiser, language: nothing new


async def test_starting_ratings_satisfy_the_rule_for_those_they_name(chat: FakeChat) -> None:
    tf = read("spring_cup_40x5.h9")
    ratings = parse_ratings_csv((DATA / "spring_cup_start.csv").read_bytes())
    rated = {r.name for r in ratings}
    left = [f"{p.name} {p.rank}" for p in tf.players
            if p.rank > Rank.kyu(5) and p.name not in rated]  # fmt: skip
    assert left, "the fixture leaves some strong players without a starting rating"
    with pytest.raises(Refused) as caught:
        await plan(chat, tf, ratings=ratings)
    listed = (
        ", ".join(left) if len(left) <= 3 else f"{', '.join(left[:3])} and {len(left) - 3} more"
    )
    assert (
        f"{len(left)} new player{'s are' if len(left) > 1 else ' is'} stronger than 5k: {listed}."
        in str(caught.value)
    )


async def test_ratings_and_committee_import_the_spring_cup(chat: FakeChat) -> None:
    tf = read("spring_cup_40x5.h9")
    ratings = parse_ratings_csv((DATA / "spring_cup_start.csv").read_bytes())
    p = await plan(chat, tf, ratings=ratings, committee=True)
    assert len(p.new) == 40 and not p.matched and len(p.games) == 99
    result = await apply(chat, p)
    assert result.tournament.tournament.name == "Budapest Spring Cup 2026"
    for row in ratings:
        player = await chat.player(row.name)
        assert player.rating == row.rating
        assert player.rank == (row.rank or player.rank)
        assert player.committee
        assert (await chat.card(row.name)).rating == row.rating
    assert len(await storage.players(chat.db, chat.club)) == 40


async def test_registered_players_are_matched_by_name(chat: FakeChat) -> None:
    await chat.register("Nagy Péter 5k", "kovacs anna 2d 2090")
    tf = read_text(
        NAMESAKES_H9.replace("Kovács Réka    6k", "Kovács Anna    2d").replace(
            "Kovács Réka    5k", "Tóth Géza      7k"
        )
    )
    p = await plan(chat, tf)
    assert sorted(name for name, _ in p.matched) == ["Kovács Anna", "Nagy Péter"]
    assert [n.name for n in p.new] == ["Tóth Géza"]
    await apply(chat, p)
    assert len(await storage.players(chat.db, chat.club)) == 3


def read_text(text: str) -> TournamentFile:
    return parse_h9(text.encode("utf-8"))


async def test_namesakes_in_a_file_become_two_players(chat: FakeChat) -> None:
    p = await plan(chat, read_text(NAMESAKES_H9))
    assert [n.name for n in p.new] == ["Kovács Réka (Szeg)", "Kovács Réka (Bp)", "Nagy Péter"]
    await apply(chat, p)
    szeg, bp = await chat.player("Kovács Réka (Szeg)"), await chat.player("Kovács Réka (Bp)")
    assert (szeg.rank, bp.rank) == (Rank.kyu(5), Rank.kyu(6))
    games = {(g.game.black, g.game.white): g.game for g in await chat.games()}
    nagy = await chat.player("Nagy Péter")
    assert (szeg.id, bp.id) in games and (nagy.id, szeg.id) in games


async def test_a_name_matching_several_club_players_is_refused(chat: FakeChat) -> None:
    for home in ("Pécs", "Győr"):
        await storage.register_player(
            chat.db, chat.club, "Nagy Péter", Rank.kyu(5), date=TODAY, home_club=home,
            actor=CALLERS["admin"].identity, allow_duplicate=True,
        )  # fmt: skip
    before = await chat.snapshot()
    with pytest.raises(Refused) as caught:
        await plan(chat, read_text(NAMESAKES_H9))
    assert "line 10: “Nagy Péter” matches several players: Nagy Péter (5k), Nagy Péter (5k)" in (
        str(caught.value)
    )
    assert await chat.snapshot() == before


async def test_a_club_country_makes_foreigners_guests(tmp_path: Path) -> None:
    chat = await FakeChat.open(tmp_path, settings={"country": "hu"})
    try:
        p = await plan(chat, read("kis_kupa.h9"), committee=True)
        guests = [n for n in p.new if n.guest]
        assert [(n.name, n.country) for n in guests] == [("Müller Jürgen", "DE")]
        assert "Müller Jürgen 3k (guest)" in "\n".join(importing.summary_lines(p))
        await apply(chat, p)
        assert "Müller Jürgen" not in [x.name for x in await storage.players(chat.db, chat.club)]
        found = await storage.find_player(chat.db, chat.club, "Müller Jürgen", guests=True)
        assert found.player is not None and found.player.guest
    finally:
        await chat.close()


async def test_without_a_country_every_new_player_joins(chat: FakeChat) -> None:
    p = await plan(chat, read("kis_kupa.h9"), committee=True)
    assert not any(n.guest for n in p.new) and len(p.new) == 5


async def test_a_guest_stronger_than_5k_needs_no_committee(tmp_path: Path) -> None:
    chat = await FakeChat.open(tmp_path, settings={"country": "DE"})
    try:
        # everyone but Müller is a guest now; Müller (3k) is new and needs the committee
        with pytest.raises(Refused) as caught:
            await plan(chat, read("kis_kupa.h9"))
        assert "1 new player is stronger than 5k: Müller Jürgen 3k." in str(caught.value)
    finally:
        await chat.close()


async def test_a_refusal_and_a_summary_in_the_clubs_language(tmp_path: Path) -> None:
    chat = await FakeChat.open(tmp_path, settings={"country": "DE"})
    try:
        with using("hu"), pytest.raises(Refused) as caught:
            await plan(chat, read("kis_kupa.h9"))
        message = str(caught.value)
        assert message.startswith("a fájl nem importálható:\n")
        assert "1 új játékos erősebb, mint 5k: Müller Jürgen 3k." in message
        assert "/tournament import committee (a bejelentett fokozatok" in message
        assert "stronger than" not in message
        with using("pl"):
            p = await plan(chat, read("kis_kupa.h9"), committee=True)
            lines = importing.summary_lines(p)
        assert lines[0].startswith("Kis Kupa 2026: 2026-03-07 – 2026-03-07, 3 rundy, 5 graczy, ")
        assert "6 partii (4 do rankingu), z forą, kodowanie ISO-8859-15" in lines[0]
        assert lines[1] == "Dopasowano: 0 zarejestrowanych graczy; 1 nowy, 4 gości."
        assert lines[2].startswith("Nowi: ") and "Horváth Zsófia 1k (gość)" in lines[2]
    finally:
        await chat.close()


async def test_the_multiplier_comes_from_the_file_or_by_hand(chat: FakeChat) -> None:
    tf = read("kis_kupa.h9")
    derived = await plan(chat, tf, committee=True)
    assert derived.tournament.multiplier is None
    assert (
        "Multiplier C: category C: 10 (base 45 min, extended 45 min); C = 10 (derived from the "
        "file; set it with C=NN)"
    ) in derived.notes  # rules.md §1.2: TM[45] ≥ 40 min is category C; handicap, no +10
    manual = await plan(chat, tf, committee=True, manual_c=30, name="Kis Kupa (kézi C)")
    assert manual.tournament.multiplier == 30
    assert manual.tournament.name == "Kis Kupa (kézi C)"
    assert "Multiplier C: C = 30, set by hand (MGSZ §6(2))" in manual.notes


async def test_an_entry_rank_outside_the_elo_band_is_noted(chat: FakeChat) -> None:
    await chat.register("Nagy Péter 1k 1900")  # 1900 is in the 2k band (rules.md §1.1)
    p = await plan(chat, read_text(NAMESAKES_H9), committee=True)
    assert (
        "Nagy Péter entered as 5k but their Elo is in the 2k band, and a domestic tournament "
        "is entered at the rank of one's current Elo (MGSZ Minősítési Szabályzat 9.§ (1) a)): "
        "correct the entry if needed"
    ) in p.notes
    assert not any("rules.md" in note for note in p.notes)  # club members' words


async def test_unknown_results_are_noted_once(tmp_path: Path, chat: FakeChat) -> None:
    """Regression: the plan repeated the reader's own warning about unknown results."""
    for name in ("kis_kupa.h9", "kis_kupa.xml"):
        p = await plan(chat, read(name), committee=True)
        assert sum("unknown result" in n for n in p.notes) == 1, p.notes


async def test_summary_lines(chat: FakeChat) -> None:
    await chat.register("Kiss Ödön 5k")
    p = await plan(chat, read("kis_kupa.h9"), committee=True)
    result = await apply(chat, p)
    lines = importing.summary_lines(p, result)
    assert lines[0] == (
        "Kis Kupa 2026: 2026-03-07 – 2026-03-07, 3 rounds, 5 players, 6 games (4 to rate), "
        "handicap, encoding ISO-8859-15"
    )
    assert lines[1] == "Matched 1 registered player; 4 new, 0 guests."
    assert lines[2] == "New: Horváth Zsófia 1k, Varga Gábor 8k, Tóth Bence 2d, Müller Jürgen 3k"
    assert lines[-1] == (
        f"Imported as tournament #{result.tournament.number}; it stays open until /tournament "
        "finalise Kis Kupa 2026."
    )


async def test_the_h9_and_its_xml_twin_plan_the_same_games(chat: FakeChat) -> None:
    found = []
    for name in ("kis_kupa.h9", "kis_kupa.xml"):
        tf = read(name)
        p = await plan(chat, tf, committee=True)
        names = {fp.position: fp.name for fp in tf.players}
        found.append(sorted(
            (g.round, names[g.black], names[g.white], repr(g.result), g.stones, g.komi, g.played)
            for g in p.games
        ))  # fmt: skip
    assert found[0] == found[1]


async def test_apply_writes_everything_in_one_go(chat: FakeChat) -> None:
    p = await plan(chat, read("kis_kupa.h9"), committee=True)
    before = await chat.log_size()
    result = await apply(chat, p)
    assert isinstance(p.players[1], NewPlayer)
    assert len(await storage.players(chat.db, chat.club)) == 5
    assert len(await storage.entries(chat.db, chat.club, result.tournament.id)) == 5
    assert len(await chat.games()) == 6
    assert not result.tournament.finalised
    assert await chat.log_size() > before


FOLDED_TWINS_H9 = NAMESAKES_H9.replace("Kovács Réka    6k HU Bp ", "KOVACS Reka    6k HU Szeg")


async def test_names_that_fold_alike_are_namesakes_too(chat: FakeChat) -> None:
    """Regression: 'Kovács Réka' and 'KOVACS Reka' were counted as different names, both
    matched one registered player, and the import crashed with a game against oneself."""
    await chat.register("Kovács Réka 5k")
    p = await plan(chat, read_text(FOLDED_TWINS_H9))
    assert [n.name for n in p.new[:2]] == ["Kovács Réka (Szeg)", "KOVACS Reka (Szeg, 2)"]
    assert p.matched == ()  # the registered Kovács Réka is not guessed to be either of them
    await apply(chat, p)
    said = await chat.ok("/tournament finalise")
    assert "Kovács Réka (Szeg)" in said.text and "KOVACS Reka (Szeg, 2)" in said.text


async def test_folded_namesakes_in_a_new_club_import_through_the_chat(chat: FakeChat) -> None:
    said = await chat.ok(f"/tournament import\n{FOLDED_TWINS_H9}")
    assert "New: Kovács Réka (Szeg) 5k, KOVACS Reka (Szeg, 2) 6k, Nagy Péter 5k" in said.text


async def test_a_games_csv_keeps_each_results_margin(chat: FakeChat) -> None:
    await chat.register("Nagy Péter 5k", "Kovács Anna 5k")
    await chat.ok("/tournament new Cup rounds=2 even")
    cup = await storage.tournament(chat.db, chat.club, "Cup")
    data = (
        "date,black,white,result,round\n"
        "2026-04-18,Nagy Péter,Kovács Anna,W+Resign,1\n"
        "2026-04-18,Kovács Anna,Nagy Péter,B+12.5,2\n"
    ).encode()
    games = await importing.games_from_csv(
        chat.db, chat.club, data, even_komi=Fraction(13, 2), tournament=cup
    )
    assert [(g.round, g.margin) for g in games] == [(1, "R"), (2, "12.5")]


# -- one game a player and round ---------------------------------------------------------------


async def test_a_pasted_csv_with_two_games_of_a_player_in_a_round_is_refused_whole(
    chat: FakeChat,
) -> None:
    await chat.register("Nagy Péter 5k", "Kovács Anna 5k", "Szabó Éva 5k", "Tóth Ádám 5k")
    await chat.ok("/tournament new Cup rounds=2 even")
    first = (await chat.ok("/tournament result 1 Nagy Péter Kovács Anna B+")).text
    number = first.split("game #")[1].split()[0]
    paste = (
        "date,black,white,result,round\n"
        "2026-04-18,Szabó Éva,Tóth Ádám,B+,1\n"
        "2026-04-18,Nagy Péter,Szabó Éva,W+,1\n"
        "2026-04-18,Kovács Anna,Tóth Ádám,B+R,2\n"
        "2026-04-18,Tóth Ádám,Nagy Péter,B+,2\n"
    )
    said = await chat.refused(f"/tournament import\n{paste}")
    rule = "a player plays one game a round (void or correct that game first)"
    assert said.text.startswith(
        "Nothing was recorded:\n"
        f"line 3: Nagy Péter already has a game in round 1 of Cup: #{number} Nagy Péter (B) – "
        f"Kovács Anna (W), B+; {rule}; Szabó Éva already has a game in round 1 of Cup: line 2, "
        f"Szabó Éva (B) – Tóth Ádám (W), B+; {rule}\n"
        "line 5: Tóth Ádám already has a game in round 2 of Cup: line 4, Kovács Anna (B) – "
        f"Tóth Ádám (W), B+R; {rule}\n"
    )


async def test_a_pasted_h9_with_a_player_twice_in_a_round_is_refused_whole(
    chat: FakeChat,
) -> None:
    paste = (
        "; EV[Twice Cup]\n"
        "; DT[2026-04-18,2026-04-18]\n"
        "   1 Kiss Ádám 1d HU Bp  2+/w0\n"
        "   2 Nagy Éva 4k HU Bp   1-/b0\n"
        "   3 Tóth Jenő 5k HU Bp  1-/w0\n"
    )
    said = await chat.refused(f"/tournament import committee\n{paste}")
    assert (
        "round 1: line 5 (Tóth Jenő) has “1-/w0”, a game against line 3 (Kiss Ádám), but "
        "Kiss Ádám plays line 4 (Nagy Éva) in that round (“2+/w0”); a player has one game "
        "a round"
    ) in said.text


# -- OpenGotha's administrative results ---------------------------------------------------------

ADMINISTRATIVE = (
    "2 games with an administrative result (both win / both lose) are stored and not rated: "
    "round 1 Nagy Éva – Kiss Ádám (both win); round 2 Kiss Ádám – Tóth Jenő (both lose)"
)


@pytest.mark.parametrize("name", ["both_results.h9", "both_results.xml"])
async def test_both_win_and_both_lose_import_as_unrated_games(chat: FakeChat, name: str) -> None:
    """Real OpenGotha files carry both-win / both-lose results: the file is imported, those
    games are stored unplayed (never rated) and the report names them."""
    said = await chat.ok(
        "/tournament import committee", attachment=(DATA / name).read_bytes(), attachment_name=name
    )
    assert "6 games (4 to rate)" in said.text
    assert ADMINISTRATIVE in said.text
    games = [g.game for g in await chat.games()]
    unplayed = sorted(g.round for g in games if not g.played)  # type: ignore[type-var]
    assert unplayed == [1, 2]
    assert all(g.result is None for g in games if not g.played)
    await chat.ok("/tournament finalise")
    kiss = await chat.card("Kiss Ádám")
    assert kiss.games == 1  # only the round-3 win is rated


async def test_the_plan_of_a_file_with_administrative_results_names_them(chat: FakeChat) -> None:
    p = await plan(chat, read("both_results.h9"), committee=True)
    assert ADMINISTRATIVE in importing.summary_lines(p)
    assert sum(1 for g in p.games if g.rated) == 4


async def test_a_starting_rating_off_the_scale_refuses_the_import(chat: FakeChat) -> None:
    tf = read("spring_cup_40x5.h9")
    ratings = parse_ratings_csv("name,rating\nBalázs Anikó,5\nNagy Bálint,9000\n".encode())
    with pytest.raises(Refused) as caught:
        await plan(chat, tf, ratings=ratings, committee=True)
    message = str(caught.value)
    assert (
        "starting ratings line 2: Balázs Anikó's 5 is outside the MGSZ Elo scale (800 to 3300)"
        in message
    )
    assert "starting ratings line 3: Nagy Bálint's 9000 is outside" in message
    assert await chat.log_size() == 5  # nothing written


async def test_a_psg_entry_rank_problem_names_the_player(tmp_path: Path) -> None:
    """The engine marks the player (it knows no names); the plan's note names them, and
    PSG's rule is named by its own paragraph."""
    fake = await FakeChat.open(tmp_path, "psg")
    try:
        await fake.register("Nagy Péter 8k")
        p = await plan(fake, read_text(NAMESAKES_H9), committee=True)
        (note,) = [n for n in p.notes if "entered as" in n]
        assert note.startswith("Nagy Péter entered as 5k but their PSG rank is 8k")
        assert "PSG regulations §5(1)" in note and "{player:" not in note
        assert not any(n.startswith("Multiplier") for n in p.notes)  # PSG weighs none
    finally:
        await fake.close()


async def test_a_system_without_an_initial_rank_limit_takes_any_rank(
    tmp_path: Path, chat: FakeChat
) -> None:
    strong_file = read_text(NAMESAKES_H9.replace("Nagy Péter     5k", "Nagy Péter     2d"))
    with pytest.raises(storage.Refused, match="stronger than 5k"):
        await plan(chat, strong_file)  # MGSZ: at most 5k without a rating (§1.5)
    fake = await FakeChat.open(tmp_path, "tensuusei")
    try:
        strong = NAMESAKES_H9.replace("Nagy Péter     5k", "Nagy Péter     2d")
        p = await plan(fake, read_text(strong))  # a new 2d, no rating, no committee
        assert any(n.rank.is_dan for n in p.new)
        assert await importing.too_strong(fake.db, fake.club, p.new) == []
    finally:
        await fake.close()


# -- a file imported twice (issue 22, item 1) --------------------------------------------------


TWICE_H9 = """\
; EV[Twice Open]
; DT[2026-04-18,2026-04-18]
; HA[h9]
; KM[6.5]
; TM[45]
;
; Pl Name           Rk Co Club
   1 Nagy Péter     5k HU Bp     2+/b0   3+/w0
   2 Kovács Anna    6k HU Bp     1-/w0   0+
   3 Tóth Ádám      6k HU Bp        0+   1-/b0
"""


async def test_a_pasted_tournament_imported_twice_is_refused_then_imported_with_again(
    chat: FakeChat,
) -> None:
    await chat.ok(f"/tournament import\n{TWICE_H9}")
    said = await chat.refused(f"/tournament import\n{TWICE_H9}")
    assert said.text.startswith(
        "All 2 games of the file are already recorded:\n"
        "round 1: #1 Apr 18, 2026, Nagy Péter (B) – Kovács Anna (W): B+ "
        "(Twice Open, tournament #1)\n"
        "round 2: #2 Apr 18, 2026, Tóth Ádám (B) – Nagy Péter (W): W+ "
        "(Twice Open, tournament #1)\n"
        "Nothing was recorded. If they are other games, record them anyway: /tournament "
        "import again (with the file again) name=…"
    )
    said = await chat.refused(f"/tournament import C=20 name=Second\n{TWICE_H9}")
    assert said.text.startswith("All 2 games of the file are already recorded:")
    assert "record them anyway: /tournament import C=20 name=Second again (with the file" in (
        said.text
    )
    said = await chat.ok(f"/tournament import name=Second again\n{TWICE_H9}")
    assert "Imported as tournament #2" in said.text
    assert len(await chat.games()) == 4


async def test_a_games_table_partly_recorded_names_those_and_records_nothing(
    chat: FakeChat,
) -> None:
    await chat.register("Nagy Péter 5k", "Kovács Anna 5k")
    await chat.ok("/tournament new Cup rounds=2 even")
    await chat.ok("/tournament new League rounds=2 even")
    first = "date,black,white,result,round\n2026-04-18,Nagy Péter,Kovács Anna,W+R,1\n"
    await chat.ok(f"/tournament import name=Cup\n{first}")
    both = first + "2026-04-18,Kovács Anna,Nagy Péter,B+12.5,2\n"
    said = await chat.refused(f"/tournament import name=League\n{both}")
    assert said.text.startswith(
        "1 of the file's 2 games is already recorded:\n"
        "line 2: #1 Apr 18, 2026, Nagy Péter (B) – Kovács Anna (W): W+R (Cup, tournament #1)\n"
        "Nothing was recorded. If it is another game, record it anyway: /tournament import "
        "name=League again (with the file again)"
    )
    await chat.ok(f"/tournament import name=League again\n{both}")
    assert len(await chat.games()) == 3


async def test_starting_gors_from_a_ratings_csv_are_kept_to_the_thousandth(
    tmp_path: Path,
) -> None:
    """rules.md §6: GoR values from the EGD carry 3 decimals and are kept exactly; a
    professional in the file starts at 1p = 2700, 30 more a rank."""
    fake = await FakeChat.open(tmp_path, "gor")
    try:
        tf = read_text(NAMESAKES_H9.replace("Nagy Péter     5k", "Nagy Péter     3p"))
        ratings = parse_ratings_csv("name,rating\nKovács Réka,2705.840\n".encode())
        p = await plan(fake, tf, ratings=ratings)
        await apply(fake, p)
        players = await storage.players(fake.db, fake.club)
        by_name = {player.name: player for player in players}
        kept = next(pl for pl in players if pl.name.startswith("Kovács Réka"))
        assert kept.rating == Fraction("2705.84")
        card = await storage.card(fake.db, fake.club, kept.id)
        assert card.rating == 2706
        assert {m.key: m.value for m in card.values}["gor"] == "2705.840"
        nagy = await storage.card(fake.db, fake.club, by_name["Nagy Péter"].id)
        assert nagy.rating == 2760  # 3p
        assert by_name["Nagy Péter"].pro == 3
    finally:
        await fake.close()


async def test_a_starting_rating_with_decimals_is_refused_where_ratings_are_whole(
    chat: FakeChat,
) -> None:
    """An MGSZ Elo is a whole number: an EGD-style 1850.5 is refused with the reason."""
    tf = read("spring_cup_40x5.h9")
    name = tf.players[0].name
    ratings = parse_ratings_csv(f"name,rating\n{name},1850.5\n".encode())
    p = await plan(chat, tf, ratings=ratings, committee=True)
    with pytest.raises(Refused, match=r"an MGSZ Elo is a whole number, not 1850\.500"):
        await apply(chat, p)
    assert await chat.log_size() == 5  # nothing written


# -- a file's name in another word order (issue 22, "Names and pairs") ------------------------

REVERSED_CSV = "date,black,white,result,round\n2026-04-18,Anna Kiss,Nagy Péter,B+,1\n"


async def test_a_games_csv_name_in_another_order_is_asked_about_not_matched(
    chat: FakeChat,
) -> None:
    """A file's Anna Kiss in a club with Kiss Anna: refused whole, the pair named, with both
    ways on; ``confirm`` takes them as the same person."""
    await chat.register("Kiss Anna 5k", "Nagy Péter 5k")
    await chat.ok("/tournament new Cup rounds=1 even")
    cup = await storage.tournament(chat.db, chat.club, "Cup")
    before = await chat.snapshot()
    with pytest.raises(Refused) as caught:
        await importing.games_from_csv(
            chat.db, chat.club, REVERSED_CSV.encode(), even_komi=Fraction(13, 2), tournament=cup
        )
    assert str(caught.value) == (
        "1 name in the file is a club player's name in another order:\n"
        "line 2: the file's Anna Kiss would be Kiss Anna (5k, since Apr 20, 2026), the names "
        "in another order\n"
        "Nothing was recorded. If it is the same person, say so: /tournament import confirm; "
        "if not, correct the name in the file (a new player needs a name that tells the two "
        "apart, e.g. Anna Kiss (Szeged))."
    )
    assert await chat.snapshot() == before
    games = await importing.games_from_csv(
        chat.db, chat.club, REVERSED_CSV.encode(), even_komi=Fraction(13, 2), tournament=cup,
        confirm=True,
    )  # fmt: skip
    kiss, nagy = await chat.player("Kiss Anna"), await chat.player("Nagy Péter")
    assert [(g.black, g.white) for g in games] == [(kiss.id, nagy.id)]


async def test_every_reordered_name_of_a_games_csv_is_named_once_with_its_lines(
    chat: FakeChat,
) -> None:
    await chat.register("Kiss Anna 5k", "Nagy Péter 5k", "Tóth Ádám 5k")
    await chat.ok("/tournament new Cup rounds=3 even")
    cup = await storage.tournament(chat.db, chat.club, "Cup")
    data = (
        "date,black,white,result,round\n"
        "2026-04-18,Anna Kiss,Péter Nagy,B+,1\n"
        "2026-04-18,Tóth Ádám,anna kiss,W+,2\n"
        "2026-04-18,Nagy Péter,tóth ádám,W+,3\n"
    ).encode()
    with pytest.raises(Refused) as caught:
        await importing.games_from_csv(
            chat.db, chat.club, data, even_komi=Fraction(13, 2), tournament=cup
        )
    message = str(caught.value)
    assert message.startswith("2 names in the file are club players' names in another order:\n")
    assert "lines 2, 3: the file's Anna Kiss would be Kiss Anna (5k, since" in message
    assert "line 2: the file's Péter Nagy would be Nagy Péter (5k, since" in message
    assert "tóth ádám" not in message and "Tóth Ádám" not in message  # the same order: matched
    assert "If they are the same people, say so: /tournament import confirm" in message


H9_KISS = NAMESAKES_H9.replace("Kovács Réka    6k HU Bp ", "Tóth Ádám      6k HU Bp ")


@pytest.mark.parametrize(
    ("tf", "file_name", "club_name"),
    [
        (read_text(H9_KISS), "Kovács Réka", "Réka Kovács 5k"),
        (read("kis_kupa.xml"), "Kiss Ödön", "Ödön Kiss 5k"),
        (read("kis_kupa.h9"), "Kiss Ödön", "Ödön Kiss 5k"),
    ],
    ids=["h9", "xml", "h9-file"],
)
async def test_a_tournament_files_name_in_another_order_is_asked_about_not_matched(
    chat: FakeChat, tf: TournamentFile, file_name: str, club_name: str
) -> None:
    await chat.register(club_name)
    player = (await storage.players(chat.db, chat.club))[0]
    line = next(p.line for p in tf.players if p.name == file_name)
    before = await chat.snapshot()
    with pytest.raises(Refused) as caught:
        await plan(chat, tf, committee=True)
    assert str(caught.value).startswith(
        "1 name in the file is a club player's name in another order:\n"
        f"line {line}: the file's {file_name} would be {player.name} (5k, since Apr 20, "
        "2026), the names in another order\n"
        "Nothing was recorded. If it is the same person, say so: /tournament import confirm; "
        f"if not, correct the name in the file (a new player needs a name that tells the two "
        f"apart, e.g. {file_name} ("
    )
    assert await chat.snapshot() == before
    p = await plan(chat, tf, committee=True, confirm=True)
    assert (file_name, player) in p.matched
    await apply(chat, p)
    assert [q.name for q in await storage.players(chat.db, chat.club)].count(player.name) == 1


async def test_names_in_the_same_order_or_an_alias_are_matched_without_a_word(
    chat: FakeChat,
) -> None:
    await chat.register("Kiss Anna 5k", "Nagy Péter 5k")
    kiss = await chat.player("Kiss Anna")
    await storage.add_alias(chat.db, chat.club, kiss.id, "Kiss Anikó", actor=ACTOR)
    await chat.ok("/tournament new Cup rounds=2 even")
    cup = await storage.tournament(chat.db, chat.club, "Cup")
    data = (
        "date,black,white,result,round\n"
        "2026-04-18,KISS anna,Nagy_Peter,B+,1\n"
        "2026-04-18,Nagy Péter,Kiss Aniko,B+,2\n"
    ).encode()
    games = await importing.games_from_csv(
        chat.db, chat.club, data, even_komi=Fraction(13, 2), tournament=cup
    )
    assert len(games) == 2
    tf = read_text(H9_KISS.replace("Kovács Réka    5k", "Kiss Anikó     5k"))
    matched = (await plan(chat, tf)).matched
    assert ("Kiss Anikó", kiss.id) in [(name, player.id) for name, player in matched]


WORDS = ("Kiss", "Anna", "Nagy", "Péter", "KISS", "anna", "Van", "Berg")


@st.composite
def club_and_file_names(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """A few club players' names, and a file's two names: a club name's words in any order
    (a case or accents apart, maybe), or words of the pool."""
    name = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join)
    club = draw(st.lists(name, min_size=1, max_size=3, unique_by=lambda n: n.casefold()))
    found = []
    for _ in range(2):
        words = draw(st.sampled_from(club)).split()
        order = draw(st.permutations(words))
        found.append(draw(st.one_of(st.just(" ".join(order)), name)))
    return club, found


async def _import_names(folder: Path, club: list[str], found: list[str]) -> list[str] | str:
    """The club's names of the file's two players matched (``str``: the refusal)."""
    fake = await FakeChat.open(folder)
    try:
        for each in club:
            await storage.register_player(
                fake.db, fake.club, each, Rank.kyu(5), date=TODAY, actor=ACTOR,
                allow_duplicate=True,
            )  # fmt: skip
        tf = read_text(
            NAMESAKES_H9.replace("Kovács Réka    6k", f"{found[0]:<14} 6k")
            .replace("Kovács Réka    5k", f"{found[1]:<14} 5k")
            .replace("Nagy Péter     5k", "Zz Qq         5k")
        )
        try:
            p = await plan(fake, tf, committee=True)
        except Refused as refused:
            return str(refused)
        return [f"{name}={player.name}" for name, player in p.matched]
    finally:
        await fake.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(club_and_file_names())
def test_an_import_matches_a_name_as_written_or_asks_never_in_another_order(
    names: tuple[list[str], list[str]],
) -> None:
    """For any club names and file names: a file's name is matched to a club player only
    when it is one of their names as written (case and accents aside); a match in another
    word order is asked about."""
    club, found = names
    with tempfile.TemporaryDirectory() as folder:
        outcome = asyncio.run(_import_names(Path(folder), club, found))
    if isinstance(outcome, str):
        return
    for pair in outcome:
        name, player = pair.split("=")
        assert fold_name(name) == fold_name(player), pair
