"""/club … (settings, chats, organisers) and /export (organisers)."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import re
from collections.abc import AsyncIterator, Iterator
from fractions import Fraction
from pathlib import Path

import pytest

import storage
from bot.config import Config, WebConfig
from bot.core.command_table import COMMANDS
from bot.core.handlers import club as club_handlers
from bot.core.invocation import Caller
from bot.core.replies import Notice
from engine.formats import parse_games_csv, parse_h9, parse_players_csv
from tests.bot.core.fakechat import ADMIN, CHAT_ID, ORGANISER, PLAYER, FakeChat

NEW_ADMIN = Caller("telegram", "400", "Admin of another chat", chat_admin=True)
NEW_MEMBER = Caller("telegram", "401", "Member of another chat")
CLUB_USAGE = "\n\nUsage: /club new NAME [SYSTEM] | join CODE | code | show | system SYSTEM | "


@pytest.fixture
async def club(tmp_path: Path) -> AsyncIterator[FakeChat]:
    chat = await FakeChat.open(
        tmp_path,
        players=(
            "Nagy Péter 5k",
            "Kovács Anna 2d 2090",
        ),
    )
    try:
        yield chat
    finally:
        await chat.close()


async def settings(chat: FakeChat) -> storage.ClubSettings:
    return await storage.club_settings(chat.db, chat.club)


# -- new, join, code, show ---------------------------------------------------------------------


async def test_a_chat_administrator_starts_a_club(club: FakeChat) -> None:
    said = await club.ok("/club new Szegedi Go Kör mgsz", as_=NEW_ADMIN, chat_id="-77")
    assert said.text == (
        "Létrejött a klub: Szegedi Go Kör (MGSZ Élő-pont (Magyarország)); ez a csevegés hozzá "
        "tartozik, és te vagy a szervezője.\n\n"
        "A hoshi itt a szabályzat nyelvén válaszol (nyelv: magyar); ezt a /club set language "
        "en paranccsal lehet módosítani.\n\n"
        "Következő lépés: /register NÉV MINŐSÍTÉS minden játékosra, aztán /result vagy "
        "/tournament."
    )  # a new club answers in its rulebook's language from its first reply
    new = await storage.club_for_chat(club.db, "telegram", "-77")
    assert new is not None and (new.name, new.system) == ("Szegedi Go Kör", "mgsz")
    assert new.id != club.club.id
    # the new club starts empty: the other club's players are not there
    said = await club.refused("/rating Nagy Péter", as_=NEW_ADMIN, chat_id="-77")
    assert "Nagy Péter" in said.text and "nincs" in said.text


async def test_a_new_gor_club_answers_in_english_and_names_the_way_to_hungarian(
    club: FakeChat,
) -> None:
    said = await club.ok("/club new Wiener Go Club gor", as_=NEW_ADMIN, chat_id="-77")
    assert "hoshi answers here in English, the rulebook's language; /club set language hu" in (
        said.text
    )


async def test_a_new_club_defaults_to_mgsz(club: FakeChat) -> None:
    await club.ok("/club new Pécsi Go Klub", as_=NEW_ADMIN, chat_id="-77")
    new = await storage.club_for_chat(club.db, "telegram", "-77")
    assert new is not None and new.system == "mgsz"


@pytest.mark.parametrize(
    ("line", "who", "chat_id", "message"),
    [
        ("/club new Other", ADMIN, CHAT_ID, "This chat already belongs to Budapest Go Club"),
        ("/club new", NEW_ADMIN, "-77", "Name the club, e.g. /club new Budapest Go Club mgsz"),
        ("/club new mgsz", NEW_ADMIN, "-77", "Name the club"),
        ("/club new Budapest Go Club", NEW_ADMIN, "-77", "There is already a club called "
         "“Budapest Go Club”; choose another name"),
        ("/club show", NEW_ADMIN, "-77", "This chat has no club yet: start one with /club new "
         "NAME SYSTEM or join one with /club join CODE"),
        ("/club join", NEW_ADMIN, "-77", "Give the code, e.g. /club join K7Q2-MX4P"),
        ("/club join XXXX-YYYY", NEW_ADMIN, "-77", "“XXXX-YYYY” is not a join code; ask an "
         "organiser for /club code"),
    ],
)  # fmt: skip
async def test_club_new_and_join_bad_inputs(
    club: FakeChat, line: str, who: Caller | str, chat_id: str, message: str
) -> None:
    said = await club.refused(line, as_=who, chat_id=chat_id)
    assert said.text.startswith(message)


async def test_club_in_a_chat_without_a_club(club: FakeChat) -> None:
    said = await club.refused("/club", as_=NEW_ADMIN, chat_id="-77")
    assert said.text.startswith("This chat has no club yet. /club new NAME [SYSTEM] | join CODE")


async def test_only_a_chat_administrator_starts_or_binds_a_club(club: FakeChat) -> None:
    said = await club.refused("/club new Other Club", as_=NEW_MEMBER, chat_id="-77")
    assert said.text.startswith("/club is for the organisers")
    # a named organiser of one club is not an administrator of another chat
    said = await club.refused("/club new Other Club", as_=ORGANISER, chat_id="-77")
    assert said.text.startswith("/club is for the organisers")


async def test_a_join_code_binds_another_chat_to_the_same_club(club: FakeChat) -> None:
    said = await club.ok("/club code", as_=ORGANISER)
    assert said.reply.private  # the code goes to the organiser only
    code = re.search(r"Join code for Budapest Go Club: (\S+)", said.text).group(1)  # type: ignore[union-attr]
    assert f"an administrator types /club join {code} (valid 24 hours, once)" in said.text
    said = await club.ok(f"/club join {code}", as_=NEW_ADMIN, chat_id="-77")
    assert said.text == (
        "This chat now belongs to Budapest Go Club: the same players, games and ratings as its "
        "other chats."
    )
    assert await storage.chats(club.db, club.club) == [("telegram", CHAT_ID), ("telegram", "-77")]
    said = await club.ok("/rating Nagy Péter", as_=NEW_MEMBER, chat_id="-77")
    assert said.text.startswith("Nagy Péter — 5k")
    # once only
    said = await club.refused(f"/club join {code}", as_=NEW_ADMIN, chat_id="-78")
    assert said.text.startswith("This join code was already used; ask an organiser for a new one")


async def test_a_join_code_expires_after_a_day(club: FakeChat) -> None:
    from datetime import timedelta

    code = re.search(r": (\S+)\n", (await club.ok("/club code")).text).group(1)  # type: ignore[union-attr]
    club.clock.advance(timedelta(hours=24, seconds=1))
    said = await club.refused(f"/club join {code}", as_=NEW_ADMIN, chat_id="-77")
    assert said.text.startswith(
        "This join code has expired (codes last 24 hours); ask for a new one"
    )


async def test_club_show(club: FakeChat) -> None:
    expected = [
        "Budapest Go Club",
        "",
        "System: MGSZ Elo (Hungary)",
        "Time zone: UTC",
        "Even-game komi: 6.5",
        "Country: not set (every new player joins the register)",
        "Players: 2",
        "Chats: telegram:-1001",
        "Organisers (besides chat administrators): telegram:100, telegram:200",
    ]
    for line in ("/club show", "/club"):
        said = await club.ok(line, as_=ORGANISER)
        shown = said.text.splitlines()
        assert [x for x in shown if x in expected] == expected  # in this order; more may follow


# -- settings ----------------------------------------------------------------------------------


async def test_switch_the_rating_system_and_back(club: FakeChat) -> None:
    said = await club.ok("/club system Tensuusei", as_=ORGANISER)
    assert said.text == (
        "Budapest Go Club now uses Tensuusei points (Japan). Every rating is derived from the "
        "same games, so switching back loses nothing."
    )
    assert (await settings(club)).system == "tensuusei"
    assert (await club.ok("/rating Nagy")).text.splitlines()[2].startswith("points: 70")
    before = await club.snapshot()
    said = await club.ok("/club system tensuusei")
    assert said.text.startswith("Budapest Go Club already uses Tensuusei points (Japan).")
    assert await club.snapshot() == before
    await club.ok("/club system mgsz")
    assert (await club.ok("/rating Nagy")).text.splitlines()[2].startswith("Elo: 1720")


async def test_set_the_time_zone_and_the_komi(club: FakeChat) -> None:
    said = await club.ok("/club timezone Europe/Budapest")
    assert said.text == "Budapest Go Club's time zone is now Europe/Budapest."
    said = await club.ok("/club komi 7")
    assert said.text == "Even games in Budapest Go Club now default to komi 7."
    said = await club.ok("/club komi 5.5")
    assert (await settings(club)).time_zone == "Europe/Budapest"
    assert (await settings(club)).komi == Fraction(11, 2)


async def test_set_the_clubs_country(club: FakeChat) -> None:
    said = await club.ok("/club country hu")
    assert said.text == (
        "Budapest Go Club is in HU: players from other countries in an imported tournament are "
        "rated as guests and not added to the register."
    )
    assert (await settings(club)).country == "HU"
    assert "Country: HU" in (await club.ok("/club show")).text
    said = await club.ok("/club country none")
    assert said.text == "Budapest Go Club has no country now: every imported player joins."
    assert (await settings(club)).country is None


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/club country HUN", "Country takes a two-letter code like HU, or none, not “HUN” "
         "(e.g. /club country HU)"),
        ("/club country", "Country takes a two-letter code like HU, or none, not “”"),
        ("/club system elo",
         "The system must be one of mgsz, tensuusei, swedish, psg, gor, not “elo”"),
        ("/club system", "The system must be one of mgsz, tensuusei, swedish, psg, gor, not “”"),
        ("/club timezone Mars/Olympus", "“Mars/Olympus” is not a time zone — e.g. /club "
         "timezone Europe/Budapest"),
        ("/club timezone ../../etc/passwd", "“../../etc/passwd” is not a time zone"),
        ("/club komi lots", "Komi takes a whole or half point from -50 to 50, not “lots” "
         "(e.g. /club komi 6.5)"),
        ("/club komi 6.25", "Komi takes a whole or half point from -50 to 50, not “6.25”"),
        ("/club grace 0", "grace_hours takes a whole number of hours from 1 to 1440, not “0” "
         "(e.g. /club grace 24)"),
        ("/club time fast", "Time: "),
        ("/club reports on 0", "report_hours takes a whole number of hours from 1 to 720"),
        ("/club frobnicate", "Unknown /club action “frobnicate”\n\nUsage: /club new NAME"),
        ("/club organiser", "Write /club organiser add WHO or /club organiser remove WHO; WHO "
         "is telegram:ID, discord:ID or a linked player's name"),
        ("/club organiser add", "Write /club organiser add WHO"),
        ("/club organiser promote telegram:1", "Write /club organiser add WHO"),
        ("/club organiser add Nobody", "No player called “Nobody” in this club."),
        ("/club organiser add Nagy Péter", "Nagy Péter has no linked chat account; they can "
         "/link first, or name the account as telegram:ID or discord:ID"),
        ("/club organiser remove telegram:999", "telegram:999 is not an organiser of this club"),
    ],
)  # fmt: skip
async def test_club_settings_bad_inputs(club: FakeChat, line: str, message: str) -> None:
    said = await club.refused(line)
    assert said.text.startswith(message)
    shown, _ = COMMANDS["club"].usage_of(line.removeprefix("/club"))
    assert f"\n\nUsage: {shown}" in said.text  # the usage of the action alone
    assert shown != COMMANDS["club"].usage or "frobnicate" in line


# -- /club set and /club settings (issue 12) ---------------------------------------------------


@pytest.fixture
async def sendai(tmp_path: Path) -> AsyncIterator[FakeChat]:
    chat = await FakeChat.open(tmp_path, system="tensuusei", name="Sendai Go Club")
    try:
        yield chat
    finally:
        await chat.close()


async def test_club_set_a_rating_setting_from_a_date_and_undo(sendai: FakeChat) -> None:
    start = sendai.clock.now.date()
    await sendai.ok("/register Aoi 1d")
    sendai.clock.advance(dt.timedelta(days=6))
    await sendai.ok("/register Ren 1d")
    sendai.clock.advance(dt.timedelta(days=4))
    since = start + dt.timedelta(days=3)  # after Aoi's registration, before Ren's
    said = await sendai.ok(f"/club set tensuusei.anchor 128 from={since.isoformat()}")
    assert said.text == (
        "Sendai Go Club: tensuusei.anchor is 128 from Apr 23, 2026 (was 130); every "
        "rating from that day on is recomputed. /undo takes it back."
    )
    assert "points: 130" in (await sendai.ok("/rating Aoi")).text
    assert "points: 128" in (await sendai.ok("/rating Ren")).text
    said = await sendai.ok(f"/club set tensuusei.anchor 128 from={since.isoformat()}")
    assert said.text == "tensuusei.anchor is already 128."
    said = await sendai.ok("/undo")
    assert said.text == (
        f"Undone: tensuusei.anchor 128 from {since.isoformat()}; tensuusei.anchor is back to "
        "what it was. The change stays in the history, marked as undone; every rating after it "
        "was recomputed."
    )
    assert "points: 130" in (await sendai.ok("/rating Ren")).text
    assert (await settings(sendai)).value("tensuusei.anchor") == 130


async def test_club_set_each_system_setting_is_taken(sendai: FakeChat) -> None:
    for key, value in (
        ("tensuusei.spacing", "10"),
        ("tensuusei.pair_games_per_day", "none"),
        ("tensuusei.settle_end_of_day", "off"),
        ("mgsz.max_initial_rank", "1k"),
        ("mgsz.split_club_periods", "off"),
        ("swedish.kyu_targets", "on"),
        ("swedish.komi_max", "9"),
        ("psg.report_days", "5"),
        ("psg.boards", "13,19"),
    ):
        said = await sendai.ok(f"/club set {key} {value}")
        assert f"{key} is {value}" in said.text or f"{key} is now {value}" in said.text
        assert (await settings(sendai)).text(key) == value
    await sendai.ok("/club set language ja")  # answered in Japanese (test_club_set_language_…)
    assert (await settings(sendai)).text("language") == "ja"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/club set tensuusei.anchor lots", "tensuusei.anchor takes a whole number from 1 to "
         "100000, not “lots” (e.g. /club set tensuusei.anchor 130)"),
        ("/club set tensuusei.anchor 0", "tensuusei.anchor takes a whole number from 1 to 100000"),
        ("/club set psg.hold_limit 12p", "psg.hold_limit takes a rank from 30k to 9d, not “12p” "
         "(e.g. /club set psg.hold_limit 7k)"),
        ("/club set swedish.kyu_targets maybe", "swedish.kyu_targets takes on or off, not "
         "“maybe” (e.g. /club set swedish.kyu_targets on)"),
        ("/club set language xx", "Language takes one of en, hu, ja, sv, pl, not “xx” "
         "(e.g. /club set language hu)"),
        ("/club set tensusei.anchor 128", "There is no setting “tensusei.anchor”; did you mean "
         "tensuusei.anchor? /club settings lists every setting"),
        ("/club set anchor 128", "There is no setting “anchor”; did you mean tensuusei.anchor?"),
        ("/club set frobnicate 1", "There is no setting “frobnicate”; /club settings lists"),
        ("/club set tensuusei.anchor", "Write /club set KEY VALUE, e.g. /club set "
         "tensuusei.anchor 130"),
        ("/club set komi 7 from=2026-01-01", "Komi changes no rating, so it takes no from= date"),
        ("/club set tensuusei.anchor 128 from=2099-01-01", "The date 2099-01-01 is in the future"),
        ("/club komi 7 from=2026-01-01",
         "/club komi takes no key=value options (not from=) (from= goes with /club set)"),
    ],
)  # fmt: skip
async def test_club_set_refusals(sendai: FakeChat, line: str, message: str) -> None:
    before = await sendai.snapshot()
    said = await sendai.refused(line)
    assert said.text.startswith(message)
    assert await sendai.snapshot() == before


async def test_club_settings_lists_every_setting_the_clubs_system_first(sendai: FakeChat) -> None:
    await sendai.ok("/club set tensuusei.anchor 128")
    text = (await sendai.ok("/club settings")).text
    lines = text.splitlines()
    assert "timezone = UTC (default): the club's time zone" in text
    assert "tensuusei.anchor = 128 (default 130, from Apr 20, 2026): a new 1 dan's points" in text
    assert "psg.boards = 19 (default): board sizes whose games are ranked" in text
    assert lines.index("Tensuusei points (Japan) — the club's system") < lines.index(
        "MGSZ Elo (Hungary)"
    )
    for key in storage.settings.declared():
        assert f"{key} = " in text


# -- organisers --------------------------------------------------------------------------------


async def test_add_and_remove_an_organiser_by_account(club: FakeChat) -> None:
    said = await club.ok("/club organiser add telegram:300", as_=ORGANISER)
    assert said.text == "telegram:300 is now an organiser of Budapest Go Club."
    assert "telegram:300" in await storage.organisers(club.db, club.club)
    await club.ok("/register Tóth Ádám 5k", as_=PLAYER)
    said = await club.ok("/club organizer remove telegram:300")
    assert said.text == "telegram:300 is no longer an organiser of Budapest Go Club."
    assert "telegram:300" not in await storage.organisers(club.db, club.club)
    said = await club.refused("/register Kiss Éva 5k", as_=PLAYER)
    assert said.text.startswith("/register is for the organisers")


async def test_adding_an_organiser_twice_says_so(club: FakeChat) -> None:
    before = await club.snapshot()
    said = await club.ok("/club organiser add telegram:200")
    assert said.text == "telegram:200 was already an organiser of Budapest Go Club."
    assert await club.snapshot() == before


async def test_add_an_organiser_by_linked_player(club: FakeChat) -> None:
    await club.link("Nagy Péter", PLAYER)
    said = await club.ok("/club organiser add nagy peter")
    assert said.text == "telegram:300 is now an organiser of Budapest Go Club."
    assert "telegram:300" in await storage.organisers(club.db, club.club)


async def test_the_last_organiser_stays(club: FakeChat) -> None:
    await club.ok("/club organiser remove telegram:100")
    said = await club.refused("/club organiser remove telegram:200")
    assert said.text.startswith("telegram:200 is the club's last organiser; add another one first")


# -- /export -----------------------------------------------------------------------------------


async def played_club(chat: FakeChat) -> None:
    await chat.ok("/tournament new Spring Cup C=20 rounds=2 handicap")
    await chat.ok("/tournament result 1 Nagy Péter Kovács Anna B+")
    await chat.ok("/tournament result 2 Nagy Péter Kovács Anna B+ h=2")
    await chat.ok("/tournament finalise")


@pytest.mark.parametrize(
    ("line", "filename"),
    [
        ("/export", "budapest-go-club-players.csv"),
        ("/export csv", "budapest-go-club-players.csv"),
        ("/export CSV", "budapest-go-club-players.csv"),
        ("/export games", "budapest-go-club-games.csv"),
        ("/export json", "budapest-go-club-ratings.json"),
    ],
)
async def test_export_sends_a_file(club: FakeChat, line: str, filename: str) -> None:
    await played_club(club)
    before = await club.snapshot()
    said = await club.ok(line, as_=ORGANISER)
    assert await club.snapshot() == before
    assert said.text == "Budapest Go Club: 2 players, 2 games."
    doc = said.reply.document
    assert doc is not None and doc.filename == filename
    text = doc.data.decode("utf-8")
    if filename.endswith("players.csv"):
        rows = parse_players_csv(text)
        assert [(r.name, str(r.rank)) for r in rows] == [
            ("Nagy Péter", "5k"),
            ("Kovács Anna", "2d"),
        ]
        card = await club.card("Nagy Péter")
        assert rows[0].rating == card.rating
    elif filename.endswith("games.csv"):
        rows = parse_games_csv(text)
        assert [(g.black, g.white, g.stones, g.tournament, g.round) for g in rows] == [
            ("Nagy Péter", "Kovács Anna", 0, "Spring Cup", 1),
            ("Nagy Péter", "Kovács Anna", 2, "Spring Cup", 2),
        ]
    else:
        data = json.loads(text)
        assert [(p["name"], p["rank"], p["games"]) for p in data] == [
            ("Nagy Péter", "5k", 2),
            ("Kovács Anna", "2d", 2),
        ]
        assert data[1]["elo"] == (await club.card("Kovács Anna")).rating


async def test_export_a_tournament_as_h9(club: FakeChat) -> None:
    await played_club(club)
    said = await club.ok("/export h9 spring cup")
    row = await storage.tournament(club.db, club.club, "Spring Cup")
    assert row is not None
    doc = said.reply.document
    assert doc is not None and doc.filename == f"budapest-go-club-{row.number}.h9"
    tf = parse_h9(doc.data)
    assert tf.name == "Spring Cup" and tf.rounds == 2
    assert sorted(p.name for p in tf.players) == ["Kovács Anna", "Nagy Péter"]
    assert len(tf.games) == 2


async def test_export_counts_only_live_games(club: FakeChat) -> None:
    gid = (await club.ok("/result Nagy Péter Kovács Anna B+")).text.split("#")[1].split()[0]
    await club.ok(f"/void {gid}")
    said = await club.ok("/export games")
    assert said.text == "Budapest Go Club: 2 players, 0 games."
    assert parse_games_csv(said.reply.document.data) == []  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/export xml", "The format must be one of csv, games, json, h9, not “xml”"),
        ("/export h9", "Name the tournament, e.g. /export h9 Spring Cup"),
        ("/export h9 Nothing", "There is no tournament “Nothing” in this club"),
    ],
)
async def test_export_bad_inputs(club: FakeChat, line: str, message: str) -> None:
    said = await club.refused(line)
    assert said.text.startswith(message)
    assert said.text.endswith("Usage: /export [csv|games|json|h9 TOURNAMENT] — e.g. /export csv")


# -- rename; the club made on first use --------------------------------------------------------


async def test_rename_the_club(club: FakeChat) -> None:
    said = await club.ok("/club rename Budapesti Go Egyesület", as_=ORGANISER)
    assert said.text == (
        "Budapest Go Club is now called Budapesti Go Egyesület. The old name stays in the "
        "club's history."
    )
    renamed = await storage.club_for_chat(club.db, "telegram", CHAT_ID)
    assert renamed is not None and renamed.name == "Budapesti Go Egyesület"
    assert (await club.ok("/club show")).text.startswith("Budapesti Go Egyesület\n")
    await club.ok("/club new Szegedi Go Kör", as_=NEW_ADMIN, chat_id="-77")
    said = await club.refused("/club rename szegedi go kor")
    assert said.text.startswith("There is already a club called “szegedi go kor”")
    said = await club.refused("/club rename")
    assert said.text.startswith("Give the new name, e.g. /club rename Budapest Go Club")
    said = await club.refused("/club rename Other", as_=PLAYER)
    assert "organisers" in said.text


async def test_club_new_in_the_chat_of_the_club_made_on_first_use_offers_a_rename(
    tmp_path: Path,
) -> None:
    first_use = await FakeChat.open(tmp_path, name="My Go Club")  # the config's [hoshi] club
    try:
        await first_use.register("Nagy Péter 5k", "Kovács Anna 5k")  # players, no games yet
        before = await first_use.snapshot()
        said = await first_use.ok("/club new Budapest Go Club tensuusei")
        assert said.text == (
            "This chat uses My Go Club, the club made on first use, and it has no games yet. "
            "Rename it instead of starting a second club: /club rename Budapest Go Club "
            "(then /club system tensuusei)."
        )
        assert [(b.label, b.command) for b in said.reply.buttons] == [
            ("Rename to Budapest Go Club", "/club rename Budapest Go Club")
        ]
        assert await first_use.snapshot() == before
        await first_use.ok(said.reply.buttons[0].command)
        assert (await first_use.ok("/club show")).text.startswith("Budapest Go Club\n")
        said = await first_use.refused("/club new Szeged Go Club")
        assert said.text.startswith("This chat already belongs to Budapest Go Club")
    finally:
        await first_use.close()


async def test_club_new_after_games_does_not_offer_a_rename(tmp_path: Path) -> None:
    first_use = await FakeChat.open(tmp_path, name="My Go Club", players=("A Béla 5k", "B Ede 5k"))
    try:
        await first_use.ok("/result A Béla B Ede B+")
        said = await first_use.refused("/club new Budapest Go Club")
        assert said.text.startswith("This chat already belongs to My Go Club")
    finally:
        await first_use.close()


# -- /club timezone with any string --------------------------------------------------------------

TZ_EXAMPLE = "e.g. /club timezone Europe/Budapest (the tz database's Area/City names)"


@pytest.fixture
def tzdata_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Time zones from the tzdata package alone, as where the system has no zoneinfo files
    (Windows, slim containers): a real, small tzdata package on disk, TZPATH empty."""
    import shutil
    import sys
    import zoneinfo

    root = tmp_path / "site" / "tzdata"
    (root / "zoneinfo" / "Europe").mkdir(parents=True)
    for package in (root, root / "zoneinfo", root / "zoneinfo" / "Europe"):
        (package / "__init__.py").write_text("", encoding="utf-8")
    shutil.copy(Path("/usr/share/zoneinfo/Europe/Budapest"), root / "zoneinfo" / "Europe")
    (root / "zones").write_text("Europe/Budapest\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    zoneinfo.reset_tzpath([])
    zoneinfo.ZoneInfo.clear_cache()
    try:
        yield
    finally:
        for name in [m for m in sys.modules if m == "tzdata" or m.startswith("tzdata.")]:
            del sys.modules[name]
        zoneinfo.reset_tzpath()
        zoneinfo.ZoneInfo.clear_cache()


ODD_ZONES = [
    pytest.param("", "Give a time zone", id="empty"),
    pytest.param("Europe", "“Europe” is not a time zone", id="a-folder"),
    pytest.param("a" * 5000, "“aaaaaaaaaaaaaaaaaaaa…” is not a time zone", id="very-long"),
    pytest.param("a/" * 300, "“a/a/a/a/a/a/a/a/a/a/…” is not a time zone", id="deep"),
    pytest.param("../../etc", "“../../etc” is not a time zone", id="dot-dot"),
    pytest.param("/etc/passwd", "“/etc/passwd” is not a time zone", id="absolute"),
    pytest.param("x\x00y", "“x\\x00y” is not a time zone", id="nul"),
    pytest.param("\udcff", "“\\udcff” is not a time zone", id="surrogate"),
    pytest.param("zone.tab", "“zone.tab” is not a time zone", id="a-data-file"),
    pytest.param("Factory", "“Factory” is not a time zone", id="not-a-place"),
    pytest.param("europe/budapest", "“europe/budapest” is not a time zone; did you mean "
                 "Europe/Budapest?", id="case"),
]  # fmt: skip


@pytest.mark.parametrize(("value", "message"), ODD_ZONES)
async def test_any_time_zone_string_gets_a_clear_reply(
    club: FakeChat, value: str, message: str
) -> None:
    said = await club.refused(f"/club timezone {value}")
    assert said.text.startswith(message)
    assert TZ_EXAMPLE in said.text
    assert len(said.text) < 600  # the value is not echoed whole


@pytest.mark.parametrize(("value", "message"), ODD_ZONES)
async def test_any_time_zone_string_gets_a_clear_reply_from_tzdata_alone(
    club: FakeChat, tzdata_only: None, value: str, message: str
) -> None:
    said = await club.refused(f"/club timezone {value}")
    assert said.text.startswith(message)
    assert (await club.ok("/club timezone Europe/Budapest")).text.endswith(
        "is now Europe/Budapest."
    )


# -- the club's language (issue 13) ------------------------------------------------------------


async def test_club_show_speaks_japanese(tmp_path: Path) -> None:
    chat = await FakeChat.open(
        tmp_path, "tensuusei", name="Sendai Go Club", settings={"language": "ja"}
    )
    try:
        await chat.ok("/club set weekly mon 18:00")
        text = (await chat.ok("/club show")).text
        assert "タイムゾーン：UTC" in text
        assert "国：未設定（新しい対局者はすべて名簿に加わります）" in text
        assert "会員の報告：オフ（結果は幹事が記録）" in text
        assert "週間まとめ：月曜日 18:00" in text  # the weekday by Babel
        assert "幹事（チャット管理者以外）：telegram:100, telegram:200" in text
        for english in ("Time zone", "Country", "Player reports", "Weekly summary", "Organisers"):
            assert english not in text
    finally:
        await chat.close()


async def test_club_replies_and_refusals_speak_japanese(tmp_path: Path) -> None:
    chat = await FakeChat.open(
        tmp_path, "tensuusei", name="Sendai Go Club", settings={"language": "ja"}
    )
    try:
        said = await chat.ok("/club organiser add telegram:300")
        assert said.text == "telegram:300 をSendai Go Clubの幹事にしました。"
        said = await chat.ok("/club reports on 24")
        assert said.text == (
            "会員は /result で自分の対局を報告できるようになりました。"
            "報告は相手の確認を待ち、24時間で期限切れになります。"
        )
        said = await chat.refused("/club set tensusei.anchor 128")
        assert said.text.startswith(
            "「tensusei.anchor」 という設定はありません。tensuusei.anchor のことですか？"
            "/club settings で全設定を一覧できます"
        )
        said = await chat.refused("/club frobnicate")
        assert said.text.startswith("/club に 「frobnicate」 という操作はありません")
        said = await chat.refused("/club system chess")
        assert "方式は " in said.text and "のいずれかで指定してください" in said.text
    finally:
        await chat.close()


async def test_club_settings_speak_hungarian_with_babel_dates(tmp_path: Path) -> None:
    chat = await FakeChat.open(tmp_path, settings={"language": "hu"})
    try:
        said = await chat.ok("/club set mgsz.max_initial_rank 3k")
        assert said.text.startswith(
            "Budapest Go Club: mgsz.max_initial_rank értéke 3k, érvényes ettől a naptól: "
            "2026. ápr. 20. (eddig 5k);"
        )
        text = (await chat.ok("/club settings")).text
        assert text.startswith("Budapest Go Club: beállítások\n\nKlub\n\n")
        assert "timezone = UTC (alapértelmezett): " in text
        assert (
            "mgsz.max_initial_rank = 3k (alapértelmezés: 5k; érvényes 2026. ápr. 20. óta): "
            in (text)
        )
        assert "MGSZ" in text and "— a klub rendszere" in text
        assert "Change one with" not in text and "(default" not in text
    finally:
        await chat.close()


async def test_club_set_language_answers_in_the_new_language(tmp_path: Path) -> None:
    chat = await FakeChat.open(
        tmp_path, "tensuusei", name="Sendai Go Club", settings={"language": "ja"}
    )
    try:
        said = await chat.ok("/club set language hu")
        assert said.text == "Sendai Go Club: language mostantól hu (eddig ja)."
        said = await chat.ok("/club set language ja")
        assert said.text == "Sendai Go Club：language を ja にしました（変更前は hu）。"
        said = await chat.ok("/club set language en")
        assert said.text == "Sendai Go Club: language is now en (was ja)."
        said = await chat.ok("/club set language en")
        assert said.text == "language is already en."
    finally:
        await chat.close()


async def test_export_counts_in_polish_plurals(tmp_path: Path) -> None:
    chat = await FakeChat.open(
        tmp_path, "psg", settings={"language": "pl"}, players=("Nowak Jan 7k", "Lis Ewa 8k")
    )
    try:
        assert (await chat.ok("/export csv")).text == "Budapest Go Club: 2 gracze, 0 partii."
        await chat.ok("/result Nowak Jan Lis Ewa B+")
        assert (await chat.ok("/export csv")).text == "Budapest Go Club: 2 gracze, 1 partia."
        await chat.register("Wójcik Piotr 9k", "Kowalczyk Anna 9k", "Zając Adam 10k")
        assert (await chat.ok("/export csv")).text == "Budapest Go Club: 5 graczy, 1 partia."
    finally:
        await chat.close()


def test_a_settings_refusal_from_a_msg_names_the_command() -> None:
    """A setting's refusal from engine/ (a Msg with its example) gets the command that takes
    the setting as its example, found by the key and example typed in every language."""
    from bot.core.handlers.club import _with_command
    from engine.errors import EngineError
    from engine.text import Msg

    error = EngineError(
        Msg(
            "{key} takes {allowed}, not {shown} (e.g. {key} {example})",
            key="komi",
            allowed="a whole or half point from -50 to 50",
            shown="“lots”",
            example="6.5",
        )
    )
    assert _with_command(error, "komi", "/club komi") == (
        "komi takes a whole or half point from -50 to 50, not “lots” (e.g. /club komi 6.5)"
    )


async def test_club_web_on_names_the_configured_address_or_how_to_set_it(
    tmp_path: Path,
) -> None:
    """Issue 22: with no [web] base_url the reply names no guessed port (8080) but says how
    to set it; with one, every reply links there, whatever port hoshi web listens on."""
    (tmp_path / "plain").mkdir()
    (tmp_path / "set").mkdir()
    plain = await FakeChat.open(tmp_path / "plain", players=("Nagy Péter 5k",))
    try:
        on = await plain.ok("/club web on")
        assert "8080" not in on.text and "127.0.0.1" not in on.text
        assert (
            "[web] base_url" in on.text and 'base_url = "https://go.example.org/hoshi"' in on.text
        )
        assert "On the web" not in (await plain.ok("/top")).text
    finally:
        await plain.close()
    config = Config(
        db_path=tmp_path / "set.sqlite",
        charts_dir=tmp_path,
        web=WebConfig(port=9000, base_url="https://go.example.org/hoshi"),
    )
    served = await FakeChat.open(tmp_path / "set", config=config, players=("Nagy Péter 5k",))
    try:
        on = await served.ok("/club web on")
        slug = f"{served.club.id}-budapest-go-club"
        assert f"https://go.example.org/hoshi/{slug}/en/" in on.text and "9000" not in on.text
    finally:
        await served.close()


async def test_club_web_on_and_off(tmp_path: Path) -> None:
    """/club web on|off (issue 14): on, the reply gives the address and /top and /rating carry
    the link; off, the link goes; a player may not switch it."""
    config = Config(
        db_path=tmp_path / "hoshi.sqlite",
        charts_dir=tmp_path,
        web=WebConfig(base_url="http://127.0.0.1:8080"),
    )
    club = await FakeChat.open(tmp_path, config=config, players=("Nagy Péter 5k",))
    try:
        await _web_on_and_off(club)
    finally:
        await club.close()


async def _web_on_and_off(club: FakeChat) -> None:
    slug = f"{club.club.id}-budapest-go-club"
    refused = await club.say("/club web on", as_=PLAYER)
    assert refused.error and not (await settings(club)).web
    on = await club.ok("/club web on")
    assert f"http://127.0.0.1:8080/{slug}/en/" in on.text
    assert "hoshi web" in on.text  # the server is not started by hoshi run without [web]
    assert (await settings(club)).web
    top = await club.ok("/top")
    assert f"On the web: http://127.0.0.1:8080/{slug}/en/" in top.text
    rating = await club.ok("/rating Nagy Péter")
    link = rf"On the web: http://127.0.0.1:8080/{slug}/en/players/\d+\.html"
    assert re.search(link, rating.text)
    off = await club.ok("/club web off")
    assert "not found" in off.text
    assert "On the web" not in (await club.ok("/top")).text
    bad = await club.say("/club web maybe")
    assert bad.error and "/club web on" in bad.text
    assert "web" in (await club.ok("/club settings")).text


async def test_an_imported_files_mms_and_sos_come_back_in_its_h9(tmp_path: Path) -> None:
    """The criteria columns an imported h9 had (MMS, SOS) are kept with its entries and
    written back by /export h9, under their titles (issue 14: the tournament page shows
    them too)."""
    data = (Path(__file__).parents[2] / "engine/formats/data/formats_example.h9").read_bytes()
    chat = await FakeChat.open(tmp_path, "gor")
    try:
        await chat.ok("/tournament import", attachment=data, attachment_name="spring.h9")
        said = await chat.ok("/export h9 Budapest Spring Cup 2026")
        assert said.reply.document is not None
        text = said.reply.document.data.decode("utf-8")
        title = next(line for line in text.splitlines() if "Name" in line and "MMS" in line)
        words = title.split()
        assert words.index("SOS") == words.index("MMS") + 1
        nagy = next(line for line in text.splitlines() if "Nagy" in line)
        assert " 33 " in nagy and " 128 " in nagy
    finally:
        await chat.close()


async def test_a_slow_switch_tells_the_chat_what_it_is_computing(
    chat: FakeChat, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A system the club has not used is folded when the club switches to it; when that takes
    longer than a second, the chat is told once what is being computed, and how far it got."""
    posted: list[Notice] = []

    async def deliver(notice: Notice) -> None:
        posted.append(notice)

    chat.core.deliver = deliver
    await chat.register("Kiss Anna 6k", "Nagy Béla 5k")
    for _ in range(3):
        await chat.ok("/result Kiss Nagy B+")
    monkeypatch.setattr(club_handlers, "SLOW_SWITCH_S", 0.0)  # every fold counts as slow
    said = await chat.ok("/club system gor")
    await asyncio.sleep(0)  # the notice is posted in a task of its own
    assert "now uses" in said.text
    assert len(posted) == 1
    text = posted[0].reply.as_text()
    assert text.startswith(f"Computing {chat.club.name}'s ratings under ")
    assert "facts so far" in text
    posted.clear()
    await chat.ok("/club system mgsz")  # back: MGSZ has no game to fold since, nothing to say
    await asyncio.sleep(0)
    assert posted == []
