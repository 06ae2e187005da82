"""Typed names to players: accents and case ignored, aliases, either order, closest names on a
miss, ambiguity asked back and never guessed (bot.md)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import storage
from bot.core.errors import Ambiguous, BadArgument, UnknownPlayer
from bot.core.names import describe, resolve, resolve_pair
from bot.core.parse import tokenize
from bot.i18n import QUOTES
from engine.ranks import Rank
from tests.bot.core.fakechat import CALLERS, PLAYER, TODAY, FakeChat


@pytest.fixture
async def club(tmp_path: Path) -> AsyncIterator[FakeChat]:
    chat = await FakeChat.open(
        tmp_path,
        players=(
            "Szabó Éva 5k alias=Évi",
            "Nagy Péter 5k",
            "Nagy Pál 5k",
            "Kovács Anna 2d 2090 country=HU club=Szeged",
            "Tóth Ádám 3k 1850",
            "O'Brien Seán 5k",
        ),
    )
    try:
        yield chat
    finally:
        await chat.close()


async def context(chat: FakeChat):  # type: ignore[no-untyped-def]
    return await chat.core.context(chat.invocation("/rating", as_=PLAYER))


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("Szabó Éva", "Szabó Éva"),
        ("szabo eva", "Szabó Éva"),
        ("SZABO EVA", "Szabó Éva"),
        ("Éva Szabó", "Szabó Éva"),
        ("Szabo, Eva", "Szabó Éva"),
        ("Évi", "Szabó Éva"),
        ("evi", "Szabó Éva"),
        ("Szabó", "Szabó Éva"),  # one partial match is accepted
        ("toth adam", "Tóth Ádám"),
        ("Ádám", "Tóth Ádám"),
        ("o'brien sean", "O'Brien Seán"),
        ("Nagy Péter", "Nagy Péter"),
        ("  nagy   pal ", "Nagy Pál"),
    ],
)
async def test_names_are_matched_case_and_accent_insensitively(
    club: FakeChat, typed: str, name: str
) -> None:
    assert (await resolve(await context(club), typed)).name == name
    said = await club.ok(f"/rating {typed}", as_=PLAYER)
    assert said.text.startswith(f"{name} — ")


async def test_a_partial_name_of_several_players_lists_them(club: FakeChat) -> None:
    said = await club.refused("/rating Nagy", as_=PLAYER)
    assert said.text.startswith("No player called “Nagy”. Did you mean: ")
    listed = said.text.split("Did you mean: ")[1].split("?")[0].split(", ")
    assert sorted(listed) == ["Nagy Pál", "Nagy Péter"]


@pytest.mark.parametrize(
    ("typed", "suggested"),
    [("Nagi Peter", "Nagy Péter"), ("Szabo Eve", "Szabó Éva"), ("Kovacs Ana", "Kovács Anna"),
     ("Toht Adam", "Tóth Ádám")],
)  # fmt: skip
async def test_a_miss_gets_the_closest_names(club: FakeChat, typed: str, suggested: str) -> None:
    said = await club.refused(f"/rating {typed}", as_=PLAYER)
    assert said.text.startswith(f"No player called “{typed}”. Did you mean: ")
    assert suggested in said.text.split("Did you mean: ")[1]
    assert said.text.endswith("Usage: /rating [NAME] [all] — e.g. /rating Nagy Péter")


async def test_a_miss_with_nothing_close_says_how_players_are_added(club: FakeChat) -> None:
    said = await club.refused("/rating Xylophone", as_=PLAYER)
    assert said.text.startswith(
        "No player called “Xylophone” in this club. Organisers add players with "
        "/register NAME RANK, e.g. /register Nagy Péter 3k"
    )


async def test_namesakes_are_asked_back_never_guessed(club: FakeChat) -> None:
    await storage.register_player(
        club.db, club.club, "Kovács Anna", Rank.kyu(5), date=TODAY,
        actor=CALLERS["admin"].identity, country="HU", home_club="Budapest",
        allow_duplicate=True,
    )  # fmt: skip
    ctx = await context(club)
    with pytest.raises(Ambiguous) as caught:
        await resolve(ctx, "kovacs anna")
    message = str(caught.value)
    assert message.startswith("2 players are called “kovacs anna”: ")
    assert "Kovács Anna (2d, HU, Szeged)" in message
    assert "Kovács Anna (5k, HU, Budapest)" in message
    assert "Which one?" in message
    said = await club.refused("/rating Kovács Anna", as_=PLAYER)
    assert said.text.startswith("2 players are called “Kovács Anna”: ")
    # a command that writes is refused too, and nothing is written
    said = await club.refused("/result Kovács Anna vs Nagy Péter B+")
    assert "Which one?" in said.text


async def test_an_empty_name_is_refused(club: FakeChat) -> None:
    with pytest.raises(BadArgument, match="a player's name is missing"):
        await resolve(await context(club), "   ")


@pytest.mark.parametrize(
    ("typed", "pair"),
    [
        ("Nagy Péter Kovács Anna", ("Nagy Péter", "Kovács Anna")),
        ('"Nagy Péter" "Kovács Anna"', ("Nagy Péter", "Kovács Anna")),
        ("Nagy Péter vs Kovács Anna", ("Nagy Péter", "Kovács Anna")),
        ("nagy peter - kovacs anna", ("Nagy Péter", "Kovács Anna")),
        ("Évi , Tóth", ("Szabó Éva", "Tóth Ádám")),
        ("Kovács Szabó", ("Kovács Anna", "Szabó Éva")),
        ("Tóth Ádám and Évi", ("Tóth Ádám", "Szabó Éva")),
        ('"Nagy Pál" Tóth Ádám', ("Nagy Pál", "Tóth Ádám")),
    ],
)
async def test_two_names_one_after_the_other(
    club: FakeChat, typed: str, pair: tuple[str, str]
) -> None:
    a, b = await resolve_pair(await context(club), tokenize(typed), "/handicap")
    assert (a.name, b.name) == pair


@pytest.mark.parametrize(
    ("typed", "error", "message"),
    [
        ("Nagy", BadArgument, "/handicap needs two players, e.g. Nagy Péter vs Kovács Anna"),
        ("vs Nagy Péter", BadArgument,
         "/handicap needs two players, e.g. Nagy Péter vs Kovács Anna"),
        ("Tóth Tóth", BadArgument,
         "both names are Tóth Ádám; /handicap needs two different players"),
        ("Tóth vs Xylophone", UnknownPlayer, "no player called “Xylophone” in this club"),
        ("Tóth vs Nagy", UnknownPlayer, "no player called “Nagy”. Did you mean: "),
    ],
)  # fmt: skip
async def test_pairs_that_do_not_name_two_players(
    club: FakeChat, typed: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as caught:
        await resolve_pair(await context(club), tokenize(typed), "/handicap")
    assert str(caught.value).startswith(message)


async def test_a_pair_read_in_several_ways_is_asked_back(club: FakeChat) -> None:
    # "Kis Nagy Kis" is Kis | Nagy Kis (= Kis Nagy, either order) or Kis Nagy | Kis
    await club.register("Kis 5k", "Kis Nagy 5k")
    with pytest.raises(BadArgument) as caught:
        await resolve_pair(await context(club), tokenize("Kis Nagy Kis"), "/handicap")
    assert str(caught.value) == (
        "I can read those names in 2 ways; put each name in quotes or write vs between them, "
        'e.g. "Nagy Péter" vs "Kovács Anna"'
    )
    a, b = await resolve_pair(await context(club), tokenize('"Kis Nagy" Kis'), "/handicap")
    assert (a.name, b.name) == ("Kis Nagy", "Kis")
    a, b = await resolve_pair(await context(club), tokenize("Kis vs Nagy Kis"), "/handicap")
    assert (a.name, b.name) == ("Kis", "Kis Nagy")


async def test_describe_tells_namesakes_apart(club: FakeChat) -> None:
    anna = await club.player("Kovács Anna")
    assert describe(anna) == "Kovács Anna (2d, HU, Szeged)"
    assert describe(await club.player("Nagy Pál")) == "Nagy Pál (5k)"


async def test_guests_are_not_found_by_chat_commands(club: FakeChat) -> None:
    await storage.register_player(
        club.db, club.club, "Müller Jürgen", Rank.kyu(3), date=TODAY,
        actor=CALLERS["admin"].identity, country="DE", guest=True,
    )  # fmt: skip
    said = await club.refused("/rating Müller Jürgen", as_=PLAYER)
    assert said.text.startswith("No player called “Müller Jürgen”")


async def test_a_renamed_namesake_is_found_without_the_parentheses(club: FakeChat) -> None:
    await club.register("Kovács Réka (Szeg) 5k", "Kovács Réka (Bp) 5k")
    assert (await resolve(await context(club), "Kovács Réka Szeg")).name == "Kovács Réka (Szeg)"


# -- in the conversation's language (issue 13) -------------------------------------------------


async def test_a_missing_player_is_told_in_the_clubs_language(tmp_path: Path) -> None:
    chat = await FakeChat.open(
        tmp_path, "tensuusei", language="ja", players=("田中太郎 5k", "田中花子 3k")
    )
    try:
        said = await chat.refused("/rating 鈴木", as_=PLAYER)
        assert said.text.startswith(
            "このクラブに 「鈴木」 という会員はいません。"
            "幹事は /register 名前 段級位 で会員を登録できます"
        )
        said = await chat.refused("/rating 田中", as_=PLAYER)
        assert said.text.startswith("「田中」 という会員はいません。もしかして: ")
        assert "田中太郎" in said.text and "田中花子" in said.text and "Did you" not in said.text
    finally:
        await chat.close()


@pytest.mark.parametrize(
    ("language", "found"),
    [("pl", "2 gracze nazywają się"), ("sv", "2 spelare heter"), ("hu", "2 játékos neve")],
)
async def test_namesakes_are_asked_back_in_the_clubs_language(
    tmp_path: Path, language: str, found: str
) -> None:
    chat = await FakeChat.open(
        tmp_path, language=language, players=("Nagy Péter 5k", "Nagy Pál 5k")
    )
    try:
        await storage.register_player(
            chat.db, chat.club, "Nagy Péter", Rank.kyu(6), date=TODAY,
            actor=CALLERS["admin"].identity, allow_duplicate=True,
        )  # fmt: skip
        said = await chat.refused("/rating Nagy Péter", as_=PLAYER)
        start, end = QUOTES[language]
        assert said.text.startswith(f"{found} {start}Nagy Péter{end}: ")
    finally:
        await chat.close()


# -- one player is never both sides of a game (issue 22) ----------------------------------------

# Every way a member may write Szabó Éva: as registered, the other word order, folded, the
# alias, a unique part of the name, quoted.
SELF_SPELLINGS = ("Szabó Éva", "Éva Szabó", "szabo eva", "Évi", "Szabó", '"Szabó Éva"')
SELF_JOINERS = (" ", " vs ", " - ")
SELF_COMMANDS = (
    "/handicap {pair}",
    "/result {pair} B+",
    "/result {pair} W+ h=2 date=2026-04-19",
    "/tournament result 1 {pair} B+",
)


async def test_no_command_takes_the_same_player_twice(club: FakeChat) -> None:
    """Property, checked exhaustively over the spellings: a command naming two players is
    refused, and changes nothing, whenever both names denote the same player."""
    await club.ok("/tournament new Autumn Cup C=20")
    refused: list[str] = []
    for template in SELF_COMMANDS:
        for a in SELF_SPELLINGS:
            for b in SELF_SPELLINGS:
                for joiner in SELF_JOINERS:
                    line = template.format(pair=f"{a}{joiner}{b}")
                    said = await club.refused(line)
                    assert said.text.startswith("Both names are Szabó Éva;"), (line, said.text)
                    assert "needs two different players" in said.text, (line, said.text)
                    refused.append(line)
        for a in SELF_SPELLINGS:
            for b in SELF_SPELLINGS:
                said = await club.refused(f"/result {a} beat {b}")
                assert said.text.startswith("Both names are Szabó Éva;"), (a, b, said.text)
    assert len(refused) == len(SELF_COMMANDS) * len(SELF_SPELLINGS) ** 2 * len(SELF_JOINERS)


async def test_a_pair_whose_only_reading_is_one_player_twice_names_that_player(
    club: FakeChat,
) -> None:
    # "Szabó Éva Évi" splits only as Szabó Éva | Évi (the same player): say so, rather than
    # guessing the middle split ("Szabó" | "Éva Évi") and calling "Éva Évi" unknown
    with pytest.raises(BadArgument) as caught:
        await resolve_pair(await context(club), tokenize("Szabó Éva Évi"), "/handicap")
    assert str(caught.value) == "both names are Szabó Éva; /handicap needs two different players"


async def test_a_correction_cannot_seat_one_player_on_both_sides(club: FakeChat) -> None:
    await club.ok("/result Nagy Péter Kovács Anna B+")
    for line in ('/correct 1 black="Kovács Anna"', '/correct 1 white="Nagy Péter"'):
        said = await club.refused(line)
        assert "themselves" in said.text or "two different players" in said.text, said.text


class CountingNames:
    """The club's name lookups, counted: how many a command asks (issue 26: every split of
    thousands of words was looked up, a fuzzy match over every player each time)."""

    def __init__(self, chat: FakeChat) -> None:
        self.asked = 0
        original = storage.find_player

        async def counted(*args: object, **kwargs: object) -> object:
            self.asked += 1
            return await original(*args, **kwargs)  # type: ignore[arg-type]

        self.counted = counted


@pytest.mark.parametrize(
    "line",
    [
        "/handicap " + " ".join("x" for _ in range(2000)),
        "/result " + " ".join("ab" for _ in range(600)) + " B+",
        "/rating " + "y" * 18_000,
        "/handicap " + " ".join(["Nagy", "Péter"] * 9),
    ],
)
async def test_a_line_of_too_many_words_is_refused_before_any_split_is_tried(
    club: FakeChat, line: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26: /handicap or /result with 2,000 words from a plain member tried every split,
    each a fuzzy lookup over every player (10 s); such a line names no player: refused at once
    with the form names take, after at most a couple of lookups."""
    counter = CountingNames(club)
    monkeypatch.setattr(storage, "find_player", counter.counted)
    who = PLAYER if line.startswith(("/handicap", "/rating")) else "admin"
    said = await club.refused(line, as_=who)
    assert "words" in said.text and "Nagy Péter" in said.text
    assert counter.asked <= 2
