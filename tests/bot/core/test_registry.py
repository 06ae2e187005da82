"""The club's register: /register, /override, /egf (organisers)."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import storage
from engine.ranks import Rank
from storage import log
from tests.bot.core.fakechat import ADMIN, CALLERS, ORGANISER, FakeChat

REGISTER_USAGE = (
    "Usage: /register NAME RANK [RATING] [country=XX] [club=...] [pin=EGD] [rating=N] "
    "[alias=...] [override] — e.g. /register Nagy Péter 5k"
)
OVERRIDE_USAGE = (
    'Usage: /override NAME rating=N|rank=R reason="..." — e.g. /override Nagy Péter rank=2d '
    'reason="committee decision 2026/3"'
)
EGF_USAGE = "Usage: /egf NAME RATING [YYYY-MM] — e.g. /egf Nagy Péter 2045"


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


# -- /register ---------------------------------------------------------------------------------


async def test_register_a_new_player(club: FakeChat) -> None:
    said = await club.ok(
        "/register Szabó Éva 6k country=hu club=Szeged pin=14700111 alias=Évi", as_=ORGANISER
    )
    assert said.text == "Registered Szabó Éva (6k, HU, Szeged)\n\nElo: 1675"  # rules.md §1.1
    player = await club.player("Szabó Éva")
    assert (player.rank, player.rating, player.country, player.home_club, player.egd_pin) == (
        Rank.kyu(6),
        None,
        "HU",
        "Szeged",
        "14700111",
    )
    assert player.aliases == ("Évi",)
    assert player.date == dt.date(2026, 4, 20) and not player.committee and not player.guest
    assert (await club.player("evi")).id == player.id
    card = await club.card("Szabó Éva")
    assert (card.rank, card.rating) == (Rank.kyu(6), 1675)
    entry = await club.db.fetchone("SELECT actor, chat FROM log WHERE seq = ?", (player.id,))
    assert entry == ("telegram:200", "telegram:-1001")  # who and from where


@pytest.mark.parametrize("hidden", ["\u2066", "\u2067\u2069", "\u061c", "\u202e", "\u200b"])
async def test_a_name_with_invisible_characters_is_the_name_already_there(
    club: FakeChat, hidden: str
) -> None:
    """Issue 26: bidirectional controls and other invisible characters made identical-looking
    rows of one player; they are no part of a name, so the name is taken."""
    refused = await club.refused(f"/register Nagy{hidden} Péter{hidden} 5k", as_=ORGANISER)
    assert "Nagy Péter" in refused.text
    assert len([p for p in await storage.players(club.db, club.club) if "Nagy" in p.name]) == 1


async def test_a_nul_in_an_imported_name_is_taken_out(club: FakeChat) -> None:
    said = await club.ok(
        "/tournament import C=10\n; EV[Nul Cup]\n; DT[2026-04-18,2026-04-18]\n"
        "; Pl Name Rk Co Club\n   1 Kiss\x00 Béla  5k HU Bp  2+/b0\n"
        "   2 Tóth Ádám 6k HU Bp 1-/w0\n"
    )
    assert "Imported Nul Cup" in said.text
    names = [p.name for p in await storage.players(club.db, club.club, guests=True)]
    assert "Kiss Béla" in names and not any("\x00" in n for n in names)


async def test_register_with_an_existing_rating_at_any_rank(club: FakeChat) -> None:
    said = await club.ok("/register Tóth Ádám 3d 2150")
    assert said.text == "Registered Tóth Ádám (3d)\n\nElo: 2150"
    assert (await club.player("Tóth Ádám")).rating == 2150
    said = await club.ok("/register Kiss Éva 1d rating=1990")
    assert (await club.card("Kiss Éva")).rating == 1990


@pytest.mark.parametrize("word", ["override", "committee", "OVERRIDE"])
async def test_register_a_stronger_rank_as_a_committee_decision(club: FakeChat, word: str) -> None:
    said = await club.ok(f"/register Szabó Éva 3k {word}")
    assert said.text == (
        "Registered Szabó Éva (3k)\n\nElo: 1815\nInitial rank recorded as a committee decision."
    )
    assert (await club.player("Szabó Éva")).committee


@pytest.mark.parametrize(
    ("typed", "rank"),
    [("Tóth 5 k", "5k"), ("Tóth 30k", "30k"), ("Tóth 35 kyu", "35k"), ('"Tóth 1d" 5k', "5k")],
)
async def test_register_reads_ranks_as_people_write_them(
    club: FakeChat, typed: str, rank: str
) -> None:
    await club.ok(f"/register {typed}")
    name = typed.rsplit(" ", 2 if " k" in typed or " kyu" in typed else 1)[0].strip('"')
    assert (await club.player(name)).rank == Rank.parse(rank)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        # rules.md §1.5: a new player without a rating starts at 5k at most
        ("Szabó Éva 4k", "A new player without a rating can start at 5k at most, not 4k: a "
         "stronger initial rank needs a rating committee decision (MGSZ §5(3)). Register them "
         "as 5k, with the Elo they already have (after the rank), or with the word override to "
         "record the committee's decision"),
        ("5k", "The name is missing, e.g. /register Nagy Péter 5k"),
        ("", "The rank is missing or unreadable: “” is not a rank"),
        ("Szabó Éva", "The rank is missing or unreadable: “Éva” is not a rank (ranks look like "
         "3k, 3 kyu, 1d, 2 dan)"),
        ("Szabó Éva 5k extra", "Unexpected “extra” after the rank"),
        ("Szabó Éva 40k", "The rank is missing or unreadable: kyu ranks run from 35k to 1k, "
         "not 40k"),
        ("Szabó Éva 5k country=HUN", "country= takes a two-letter code like HU, not “HUN”"),
        ("Szabó Éva 5k pin=abc", "pin= takes an EGD PIN (digits), not “abc”"),
        ("Szabó Éva 5k rating=lots", "Rating: “lots” is not a number; write e.g. 2100 or "
         "2705.840"),
        ("Szabó Éva 5k 99999", "RATING must be -10000–10000, not 99999"),
        ("Szabó Éva 5k nick=Evi", "/register has no option nick=; it takes country=, club=, "
         "pin=, rating=, alias="),
        ("Szabó Éva 5k alias=Nagy Péter", "Unexpected “Péter” after the rank"),
        ("Szabó Éva 5k alias=kovacs anna", "Unexpected “anna” after the rank"),
        ('Szabó Éva 5k alias="kovacs anna"', "The alias “kovacs anna” already names Kovács "
         "Anna (2d); choose another"),
        ('Szabó Éva 5k alias=""', "alias= is empty; write e.g. alias=Peti"),
        ("nagy peter 5k", "Nagy Péter (5k, since "),
        ("Péter Nagy 5k", "Is Péter Nagy the same person as Nagy Péter (5k, since "),
        ('"Nagy Péter', 'The quote opened at'),
    ],
)  # fmt: skip
async def test_register_bad_inputs(club: FakeChat, line: str, message: str) -> None:
    said = await club.refused(f"/register {line}")
    assert said.text.startswith(message)
    assert said.text.endswith(REGISTER_USAGE)


async def test_a_refused_alias_leaves_no_player_behind(club: FakeChat) -> None:
    """Regression: the alias was written after the player, so a taken alias answered with an
    error and left the player registered."""
    await club.ok("/register Szabó Éva 5k alias=Peti")
    said = await club.refused("/register Kiss Péter 5k alias=Peti")
    assert said.text.startswith("The alias “Peti” already names Szabó Éva (5k)")
    assert "Kiss Péter" not in [p.name for p in await storage.players(club.db, club.club)]


async def test_a_duplicate_name_names_the_registered_player(club: FakeChat) -> None:
    said = await club.refused("/register Nagy Péter 6k")
    nagy = await club.player("Nagy Péter")
    assert said.text.startswith(
        f"Nagy Péter ({nagy.rank}, since {nagy.date:%b} {nagy.date.day}, {nagy.date.year}) is "
        "already registered; to add a different person with the same name, register them "
        "under a name that tells them apart, e.g. Nagy Péter (Szeged)"
    )


@pytest.mark.parametrize("typed", ["Anna Kovács", "anna kovacs", "ANNA KOVÁCS"])
async def test_a_name_in_another_word_order_is_asked_about(club: FakeChat, typed: str) -> None:
    # Kovács Anna in the other order may be her (written the Western way) or a new player:
    # asked, never registered as a second Kovács Anna nor silently taken for her
    said = await club.refused(f"/register {typed} 7k")
    anna = await club.player("Kovács Anna")
    since = f"{anna.date:%b} {anna.date.day}, {anna.date.year}"
    assert said.text.startswith(
        f"Is {typed} the same person as Kovács Anna (2d, since {since}), with the names in "
        "another order? If so, nothing needs registering; if not, register the new player "
        f"under a name that tells the two apart, e.g. {typed} (Szeged)"
    )
    assert said.text.endswith(REGISTER_USAGE)


@pytest.mark.parametrize(
    ("line", "what"),
    [
        ("/register {name} 5k", "a player's name"),
        ("/register Nagy Béla 5k alias={name}", "an alias"),
        ("/tournament new {name}", "a tournament's name"),
    ],
)
async def test_a_name_past_the_length_limit_is_refused(
    club: FakeChat, line: str, what: str
) -> None:
    said = await club.refused(line.format(name="Abcdefghij" * 40))
    assert said.text.startswith(f"That name is 400 characters long; {what} has at most 80"), (
        said.text
    )
    await club.ok(line.format(name="Abcdefghij" * 8))  # 80 characters are fine


@pytest.mark.parametrize(
    ("system", "line", "message"),
    [
        ("psg", "Nagy Péter 5k", "A new PSG participant starts at 6k or weaker unless the "
         "committee approves (§11(3)); 5k needs the committee flag"),
        ("psg", "Nagy Péter 10k 1500", "PSG has ranks and points, no rating to set (got "
         "rating 1500); register with a rank only, e.g. 12k"),
    ],
)  # fmt: skip
async def test_register_under_other_systems(
    tmp_path: Path, system: str, line: str, message: str
) -> None:
    chat = await FakeChat.open(tmp_path, system)
    try:
        said = await chat.refused(f"/register {line}")
        assert said.text.startswith(message)
        await chat.ok("/register Nagy Péter 10k")
        assert (await chat.card("Nagy Péter")).rank == Rank.kyu(10)
    finally:
        await chat.close()


# -- /override ---------------------------------------------------------------------------------


async def test_override_the_rank(club: FakeChat) -> None:
    said = await club.ok('/override Nagy Péter rank=4k reason="committee decision 2026/3"')
    assert said.text == ("Nagy Péter is now 4k, Elo 1720 (override: committee decision 2026/3).")
    assert (await club.card("Nagy Péter")).rank == Rank.kyu(4)
    (event,) = await log.events(club.db, club.club.id, [log.OVERRIDE])
    assert event.payload["reason"] == "committee decision 2026/3"
    assert event.payload["rank"] == "4k" and event.payload["rating"] is None
    assert (event.entry.actor, event.entry.chat) == ("telegram:100", "telegram:-1001")


async def test_override_the_rating_shows_in_the_history(club: FakeChat) -> None:
    said = await club.ok('/override Kovács rating=2140 reason="EGD import fix"')
    assert said.text == "Kovács Anna is now 2d, Elo 2140 (override: EGD import fix)."
    card = await club.card("Kovács Anna")
    assert card.rating == 2140
    history = (await club.ok("/history Kovács Anna", as_="player")).text
    assert "committee override  2090 → 2140 (+50)" in history


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('Nagy Péter rating=1800', 'An override needs a reason, e.g. reason="committee '
         'decision"'),
        ('Nagy Péter rating=1800 reason="  "', "An override needs a reason"),
        ('Nagy Péter reason="x"', "Give rating=N or rank=R (or both)"),
        ('Nagy Péter rank=99k reason="x"', "Kyu ranks run from 35k to 1k, not 99k"),
        ('Nagy Péter rank=strong reason="x"', "“strong” is not a rank"),
        ('Nagy Péter rating=abc reason="x"', "Rating: “abc” is not a number; write e.g. 2100 "
         "or 2705.840"),
        ('rating=1800 reason="x"', "A player's name is missing"),
        ('Nobody rating=1800 reason="x"', "No player called “Nobody” in this club."),
        ('Nagy Péter rating=1800 why="x"', "/override has no option why=; it takes rating=, "
         "rank=, reason="),
    ],
)  # fmt: skip
async def test_override_bad_inputs(club: FakeChat, line: str, message: str) -> None:
    said = await club.refused(f"/override {line}")
    assert said.text.startswith(message)
    assert said.text.endswith(OVERRIDE_USAGE)


async def test_override_refused_by_the_system(tmp_path: Path) -> None:
    chat = await FakeChat.open(tmp_path, "swedish")
    try:
        await chat.register("Nagy Péter 2k")
        said = await chat.refused('/override Nagy rating=100 reason="x"')
        assert said.text.startswith(
            "Swedish promotion points are counted from games and cannot be set; override the "
            "rank instead, e.g. rank=1k"
        )
    finally:
        await chat.close()


# -- /egf --------------------------------------------------------------------------------------


async def test_egf_rating_for_this_month(club: FakeChat) -> None:
    said = await club.ok("/egf Nagy Péter 2045", as_=ORGANISER)
    assert said.text == "EGF rating 2045 recorded for Nagy Péter (April 2026)."
    (event,) = await log.events(club.db, club.club.id, [log.EGF])
    nagy = await club.player("Nagy Péter")
    assert event.target == nagy.id
    assert (event.payload["rating"], event.payload["year"], event.payload["month"]) == (
        2045,
        2026,
        4,
    )


async def test_egf_rating_for_a_past_month_shows_on_the_psg_card(tmp_path: Path) -> None:
    chat = await FakeChat.open(tmp_path, "psg")
    try:
        await chat.register("Nagy Péter 10k")
        said = await chat.ok("/egf Nagy 1700 2026-3")
        assert said.text == "EGF rating 1700 recorded for Nagy Péter (March 2026)."
        card = (await chat.ok("/rating Nagy")).text
        assert "EGF rating: 1700\nEGF rating month: 2026-03" in card
    finally:
        await chat.close()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("Kovács Anna 1890 2026-13", "Month must be a past or current YYYY-MM, not 2026-13"),
        ("Kovács Anna 1890 2026-05", "Month must be a past or current YYYY-MM, not 2026-05"),
        ("Kovács Anna 1890 1899-12", "Month must be a past or current YYYY-MM, not 1899-12"),
        ("Kovács Anna abc", "Give the name and the EGF rating, e.g. /egf Nagy Péter 2045"),
        ("Kovács Anna", "Give the name and the EGF rating"),
        ("2045", "Give the name and the EGF rating"),
        ("Kovács Anna 9999", "RATING must be -1000–3500, not 9999"),
        ("Nobody 2000", "No player called “Nobody” in this club."),
    ],
)
async def test_egf_bad_inputs(club: FakeChat, line: str, message: str) -> None:
    said = await club.refused(f"/egf {line}")
    assert said.text.startswith(message)
    assert said.text.endswith(EGF_USAGE)


async def test_registry_commands_record_who_did_it(club: FakeChat) -> None:
    await club.ok("/register Szabó Éva 5k", as_=ORGANISER)
    await club.ok('/override Szabó rank=4k reason="x"', as_=ADMIN)
    rows = await club.db.fetchall("SELECT kind, actor FROM log ORDER BY seq DESC LIMIT 2")
    assert rows == [("override", CALLERS[ADMIN].identity), ("player", CALLERS[ORGANISER].identity)]


# -- the club's language (issue 13) ------------------------------------------------------------


async def test_register_speaks_japanese(tmp_path: Path) -> None:
    chat = await FakeChat.open(
        tmp_path, "tensuusei", name="Sendai Go Club", settings={"language": "ja"}
    )
    try:
        said = await chat.ok("/register 佐藤 健 1d country=JP")
        assert said.reply.blocks[0].text == "佐藤 健 (1d, JP)を登録しました"
        assert "Registered" not in said.text
        said = await chat.refused("/register 佐藤 健")
        assert said.text.startswith("段級位がないか、読み取れません：")
        said = await chat.refused("/register 鈴木 2k country=JPN")
        assert said.text.startswith(
            "country= には HU のような2文字のコードを指定してください（「JPN」 は使えません）"
        )
        said = await chat.refused("/register 鈴木 2k alias=")
        assert said.text.startswith('alias= が空です。例：alias=Peti または alias="Nagy P."')
    finally:
        await chat.close()


async def test_override_and_egf_speak_hungarian(tmp_path: Path) -> None:
    chat = await FakeChat.open(tmp_path, settings={"language": "hu"}, players=("Nagy Péter 5k",))
    try:
        said = await chat.ok("/register Szabó Éva 3k override")
        assert "A kezdő minősítést bizottsági döntésként rögzítettük." in said.text
        assert said.reply.blocks[0].text == "Felvett játékos: Szabó Éva (3k)"
        said = await chat.refused("/override Nagy Péter rank=2d")
        assert said.text.startswith('A módosításhoz indoklás kell, pl. reason="bizottsági döntés"')
        said = await chat.refused('/override Nagy Péter reason="x"')
        assert said.text.startswith("Add meg a rating=N vagy a rank=R értéket (vagy mindkettőt)")
        said = await chat.ok("/egf Nagy Péter 2045 2026-03")
        assert said.text == "EGF-értékelés rögzítve – Nagy Péter: 2045 (2026. március)."
        said = await chat.refused("/egf Nagy Péter 2045 2027-01")
        assert said.text.startswith(
            "A hónap csak múltbeli vagy a mostani lehet, ÉÉÉÉ-HH alakban; ez nem az: 2027-01"
        )
    finally:
        await chat.close()
