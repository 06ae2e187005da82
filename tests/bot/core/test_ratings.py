"""Players' questions: /rating /top /history /chart /handicap /multiplier /promotion.

Expected values come from rules.md (rank table §1.1, multiplier §1.2, Tensuusei §2.1–2.2,
handicap §5) and the rulebooks' worked examples in shared/vectors — never from the code.
"""

from __future__ import annotations

import datetime as dt
import struct
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import storage
from bot import system_names
from bot.core.chart import Band
from bot.core.handlers.ratings import chart_bands
from bot.core.replies import Table
from bot.i18n import _, translated, using
from engine.mgsz import Mgsz
from engine.swedish import Swedish
from engine.systems import SYSTEMS
from engine.tensuusei import Tensuusei, TensuuseiParams
from storage import projections
from tests.bot.core.fakechat import PLAYER, FakeChat
from tests.bot.core.scenes import SUBJECT, mgsz_tournaments, play_mgsz_example
from tests.conftest import load_vectors

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
async def club(tmp_path: Path) -> AsyncIterator[FakeChat]:
    chat = await FakeChat.open(
        tmp_path,
        players=(
            "Nagy Péter 5k",
            "Kovács Anna 2d 2090 country=HU",
            "Tóth Ádám 3k 1850",
        ),
    )
    try:
        yield chat
    finally:
        await chat.close()


async def unchanged(chat: FakeChat, line: str, **kwargs: Any) -> str:
    """Run a player's command, check it wrote nothing, return its text."""
    before = await chat.snapshot()
    said = await chat.say(line, as_=PLAYER, **kwargs)
    assert await chat.snapshot() == before, f"{line} wrote to the database"
    return said.text


# -- /rating -----------------------------------------------------------------------------------


async def test_rating_shows_the_card(club: FakeChat) -> None:
    text = await unchanged(club, "/rating Kovács Anna")
    assert text == (
        "Kovács Anna — 2d\n\n"
        "Elo: 2090 · place 1 of 3 · 0 rated games\n"
        "last change: start 2090 (registered, Apr 20, 2026)\n"
        "band rank: 2d\n"
        "pending club games: 0\n\n"
        "MGSZ Elo (Hungary) · Budapest Go Club"
    )


async def test_rating_of_a_new_player_starts_at_the_rank_table_value(club: FakeChat) -> None:
    text = await unchanged(club, "/rating nagy peter")
    assert text.startswith("Nagy Péter — 5k\n\nElo: 1720 · place 3 of 3")  # rules.md §1.1


async def test_rating_after_a_tournament_shows_the_change(club: FakeChat) -> None:
    case = mgsz_tournaments()[0]
    await play_mgsz_example(club, case, "Spring Cup")
    await club.ok("/tournament finalise Spring Cup confirm")
    text = await unchanged(club, f"/rating {SUBJECT}")
    assert f"Elo: {case['new_elo']} · place " in text
    assert f"· {len(case['games'])} rated games · last played Apr 20, 2026" in text
    assert f"last change: +{case['elo_change']} (Spring Cup, Apr 20, 2026)" in text


async def test_rating_with_no_name_shows_the_callers_linked_player(club: FakeChat) -> None:
    text = await unchanged(club, "/rating")
    assert text.startswith(
        "Name a player, e.g. /rating Nagy Péter, or link your account first with /link YOUR "
        "NAME (then /rating alone answers for you)"
    )
    await club.link("Tóth Ádám", PLAYER)
    assert (await unchanged(club, "/rating")).startswith("Tóth Ádám — 3k\n\nElo: 1850")


async def test_rating_of_an_unknown_player_suggests_names(club: FakeChat) -> None:
    text = await unchanged(club, "/rating Kovacs Ana")
    assert text.startswith("No player called “Kovacs Ana”. Did you mean: Kovács Anna?")


@pytest.mark.parametrize(
    ("system", "line", "headline"),
    [
        ("tensuusei", "Nagy Péter 5k", "points: 70"),  # rules.md §2.2: 5k = 70
        ("tensuusei", "Nagy Péter 1d", "points: 130"),
        ("swedish", "Nagy Péter 2k", "points toward 1k: 0"),
        ("psg", "Nagy Péter 10k", "sum of games: 0"),
    ],
)
async def test_rating_under_each_system(
    tmp_path: Path, system: str, line: str, headline: str
) -> None:
    chat = await FakeChat.open(tmp_path, system)
    try:
        await chat.register(line)
        text = await unchanged(chat, "/rating Nagy")
        assert text.splitlines()[2].startswith(f"{headline} · place 1 of 1")
        assert text.endswith("· Budapest Go Club")
    finally:
        await chat.close()


# -- /top --------------------------------------------------------------------------------------


async def test_top_lists_the_ranking(club: FakeChat) -> None:
    text = await unchanged(club, "/top")
    assert text == (
        "Budapest Go Club — MGSZ Elo (Hungary)\n\n"
        "#  Name         Rank   Elo  Games\n"
        "1  Kovács Anna  2d    2090      0\n"
        "2  Tóth Ádám    3k    1850      0\n"
        "3  Nagy Péter   5k    1720      0"
    )


async def test_top_shows_ten_by_default_and_says_how_many_more(club: FakeChat) -> None:
    await club.register(*(f"Player {chr(65 + i)} {5 + i}k" for i in range(9)))
    text = await unchanged(club, "/top")
    rows = text.split("\n\n")[1].splitlines()[1:]
    assert len(rows) == 10
    assert text.endswith("… and 2 more: /top 12")
    assert len((await unchanged(club, "/top 12")).split("\n\n")[1].splitlines()) == 13


async def test_equal_ratings_share_a_place(club: FakeChat) -> None:
    await club.register("Szabó Éva 5k")
    rows = (await unchanged(club, "/top 2")).split("\n\n")[1].splitlines()
    assert [r.split()[0] for r in rows[1:]] == ["1", "2"]
    rows = (await unchanged(club, "/top")).split("\n\n")[1].splitlines()
    assert [r.split()[0] for r in rows[1:]] == ["1", "2", "3", "3"]


async def test_swedish_top_names_each_rows_own_target(tmp_path: Path) -> None:
    """Each Swedish player collects points toward the rank above their own (rules.md §3.3):
    the header cannot name one target for every row."""
    chat = await FakeChat.open(
        tmp_path, "swedish", players=("Kovács Anna 1d", "Nagy Péter 2k", "Tóth Ádám 5k")
    )
    try:
        text = await unchanged(chat, "/top")
        header, *rows = text.split("\n\n")[1].splitlines()
        assert header.split() == ["#", "Name", "Rank", "points", "toward", "Games"]
        assert [row.split()[-3:] for row in rows] == [
            ["0", "2d", "0"],  # a 1d player's next target
            ["0", "1k", "0"],
            ["0", "1k", "0"],  # players below 2k aim at 1k (rules.md §3.3)
        ]
    finally:
        await chat.close()


async def test_top_keeps_one_header_when_every_row_shares_it(tmp_path: Path) -> None:
    chat = await FakeChat.open(tmp_path, "tensuusei", players=("Nagy Péter 5k", "Tóth Ádám 1d"))
    try:
        header = (await unchanged(chat, "/top")).split("\n\n")[1].splitlines()[0]
        assert header.split() == ["#", "Name", "Rank", "points", "Games"]
    finally:
        await chat.close()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/top 0", "N must be 1–200, not 0"),
        ("/top 201", "N must be 1–200, not 201"),
        ("/top ten", "N must be a whole number, not “ten”"),
        ("/top 1 2", "/top takes one number, not “1 2”"),
    ],
)
async def test_top_bad_inputs(club: FakeChat, line: str, message: str) -> None:
    said = await club.refused(line, as_=PLAYER)
    assert said.text == f"{message}\n\nUsage: /top [N] — e.g. /top"


async def test_top_of_an_empty_club(tmp_path: Path) -> None:
    chat = await FakeChat.open(tmp_path)
    try:
        said = await chat.ok("/top", as_=PLAYER)
        assert said.text == "No players yet. Organisers add them with /register NAME RANK."
    finally:
        await chat.close()


# -- /history ----------------------------------------------------------------------------------


async def test_history_shows_each_change(club: FakeChat) -> None:
    case = mgsz_tournaments()[0]
    await play_mgsz_example(club, case, "Spring Cup")
    await club.ok("/tournament finalise confirm")
    before, after = case["player_elo"], case["new_elo"]
    text = await unchanged(club, f"/history {SUBJECT}")
    assert text.splitlines()[0] == f"{SUBJECT} — the last 2 entries"
    rows = text.split("\n\n")[1].splitlines()
    assert rows[0].split() == ["Date", "What", "Rating", "Rank"]
    rank = str((await club.card(SUBJECT)).rank)  # every row shows the rank (issue 22)
    assert rows[1].split() == ["Apr", "20,", "2026", "Spring", "Cup", str(before), "→", str(after),
                               f"(+{after - before})", rank]  # fmt: skip
    assert rows[2].split() == ["Apr", "20,", "2026", "registered", "start", str(before), rank]
    assert (await unchanged(club, f"/history {SUBJECT} 1")).splitlines()[0] == (
        f"{SUBJECT} — the last entry"
    )


async def test_history_marks_voided_games(tmp_path: Path) -> None:
    chat = await FakeChat.open(tmp_path, "psg")  # PSG rates single games at once
    try:
        await chat.register("Nagy Péter 10k", "Kiss Anna 10k")
        game = (await chat.ok("/result Nagy Péter Kiss Anna B+")).text.split("#")[1].split()[0]
        await chat.ok(f"/void {game}")
        text = await unchanged(chat, "/history Nagy Péter")
        assert f"game #{game} vs Kiss Anna (B+) [voided]" in text
    finally:
        await chat.close()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/history Nagy Péter 0", "N must be 1–100, not 0"),
        ("/history Nagy Péter 101", "N must be 1–100, not 101"),
        (
            "/history",
            "Name a player, e.g. /history Nagy Péter, or link your account first "
            "with /link YOUR NAME (then /history alone answers for you)",
        ),
        ("/history Nobody", "No player called “Nobody” in this club."),
    ],
)
async def test_history_bad_inputs(club: FakeChat, line: str, message: str) -> None:
    said = await club.refused(line, as_=PLAYER)
    assert said.text.startswith(message)
    assert said.text.endswith("Usage: /history NAME [N] [all] — e.g. /history Nagy Péter")


@pytest.mark.parametrize("command", ["rating", "history", "chart", "promotion"])
async def test_a_missing_name_is_asked_for_in_the_commands_own_words(
    club: FakeChat, command: str
) -> None:
    said = await club.refused(f"/{command}", as_=PLAYER)
    assert said.text.startswith(
        f"Name a player, e.g. /{command} Nagy Péter, or link your account first with /link "
        f"YOUR NAME (then /{command} alone answers for you)"
    )
    others = {"/rating", "/history", "/chart", "/promotion"} - {f"/{command}"}
    assert not any(f"{other} " in said.text.split("\n\n")[0] for other in others)


def history_table(said: Any) -> list[tuple[str, ...]]:
    """The rows of a /history reply's table."""
    (table,) = [block for block in said.reply.blocks if isinstance(block, Table)]
    return list(table.rows)


def shown_date(text: str) -> dt.date:
    return dt.datetime.strptime(text, "%b %d, %Y").date()


@pytest.mark.parametrize("system", sorted(SYSTEMS))
async def test_every_history_row_has_its_rank_in_calendar_order(
    tmp_path: Path, system: str
) -> None:
    """Issue 22: the rank column was always empty, a registration was dated after the
    player's first game (a tournament's games before its last day), and games waiting for
    an MGSZ period stood above newer rows."""
    chat = await FakeChat.open(tmp_path, system, players=("Nagy Péter 10k", "Kiss Anna 9k"))
    try:
        await chat.ok(
            "/tournament new Cup start=2026-04-10 end=2026-04-12 rounds=2 time=60m C=20 even"
        )
        await chat.ok("/tournament result 1 Nagy Péter Kiss Anna B+ date=2026-04-10")
        await chat.ok("/tournament result 2 Kiss Anna Nagy Péter W+ date=2026-04-11")
        await chat.ok("/tournament finalise Cup confirm")
        await chat.ok("/result Nagy Péter Kiss Anna B+ date=2026-04-14")
        await chat.ok("/result Kiss Anna Nagy Péter B+ date=2026-04-15")
        await chat.ok("/void 4")
        said = await chat.ok("/history Nagy Péter all")
        rows = history_table(said)
        assert len(rows) >= 2, said.text
        for row in rows:
            assert row[3].strip(), f"no rank in {row}:\n{said.text}"
        dates = [shown_date(row[0]) for row in rows]
        assert dates == sorted(dates, reverse=True), said.text
        (registered,) = [d for d, row in zip(dates, rows, strict=True) if row[1] == "registered"]
        assert registered <= dt.date(2026, 4, 10), said.text  # not after her first game
        card = (await chat.ok("/rating Nagy Péter")).text
        assert "Apr 10, 2026" in card or "registered" not in card
    finally:
        await chat.close()


async def test_last_change_names_its_day_once(tmp_path: Path) -> None:
    chat = await FakeChat.open(tmp_path, "tensuusei", players=("Nagy Péter 5k", "Kiss Anna 5k"))
    try:
        await chat.ok("/result Nagy Péter Kiss Anna B+")
        await storage.end_day(chat.db, chat.club, dt.date(2026, 4, 20))
        text = (await chat.ok("/rating Nagy Péter")).text
        assert "last change: +1 (end of day, Apr 20, 2026)" in text, text
        history = (await chat.ok("/history Nagy Péter")).text
        assert "Apr 20, 2026 end of day:" in history, history
        assert "end of day Apr 20, 2026" not in history, history
    finally:
        await chat.close()


# -- /chart ------------------------------------------------------------------------------------


def png_size(png: bytes) -> tuple[int, int]:
    assert png.startswith(PNG_SIGNATURE)
    assert png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


async def test_chart_is_a_png_of_the_players_history(club: FakeChat) -> None:
    await play_mgsz_example(club, mgsz_tournaments()[0], "Spring Cup")
    await club.ok("/tournament finalise confirm")
    before = await club.snapshot()
    said = await club.ok(f"/chart {SUBJECT}", as_=PLAYER)
    assert await club.snapshot() == before
    picture = said.reply.picture
    assert picture is not None
    assert picture.filename == "hoshi-kiss-bela.png"
    assert picture.caption == f"{SUBJECT} — MGSZ Elo (Hungary)"
    assert png_size(picture.png) == (1080, 720)  # phone-sized (bot.core.chart)
    assert said.text == f"{SUBJECT}: 2 ratings charted, from Apr 20, 2026 to Apr 20, 2026"


async def test_chart_bad_inputs(club: FakeChat) -> None:
    said = await club.refused("/chart Nobody", as_=PLAYER)
    assert said.text.startswith("No player called “Nobody” in this club.")
    said = await club.refused("/chart", as_=PLAYER)
    assert said.text.startswith("Name a player, e.g. /chart Nagy Péter, or link your account")


# -- /handicap ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "black", "white", "setup"),
    [
        # rules.md §5: stones = rank difference (rank from the Elo band), komi 0.5
        ("Nagy Péter Kovács Anna", "Nagy Péter (5k)", "Kovács Anna (2d, HU)",
         "6 stones, komi 0.5"),
        ('"Kovács Anna" vs "Nagy Péter"', "Nagy Péter (5k)", "Kovács Anna (2d, HU)",
         "6 stones, komi 0.5"),
        ("Nagy Péter Kovács Anna reduce=2", "Nagy Péter (5k)", "Kovács Anna (2d, HU)",
         "4 stones, komi 0.5"),
        ("Tóth Kovács", "Tóth Ádám (3k)", "Kovács Anna (2d, HU)", "4 stones, komi 0.5"),
        ("Nagy Szabó", "Nagy Péter (5k)", "Szabó Éva (4k)", "1 stone: Black moves first, no komi"),
    ],
)  # fmt: skip
async def test_handicap_under_mgsz(
    club: FakeChat, line: str, black: str, white: str, setup: str
) -> None:
    await club.register("Szabó Éva 4k 1765")
    text = await unchanged(club, f"/handicap {line}")
    lines = text.split("\n\n")[1].splitlines()
    assert lines[:3] == [f"Black: {black}", f"White: {white}", setup]


async def test_handicap_for_equal_ranks_uses_the_clubs_komi(club: FakeChat) -> None:
    await club.register("Szabó Éva 5k")
    text = await unchanged(club, "/handicap Nagy Szabó")
    assert "Even game, komi 6.5" in text
    await club.ok("/club komi 7")
    assert "Even game, komi 7" in await unchanged(club, "/handicap Nagy Szabó")


async def test_handicap_is_capped_at_nine_stones(club: FakeChat) -> None:
    await club.register("Kezdő Kata 20k")
    text = await unchanged(club, "/handicap Kezdő Kata Kovács Anna")
    assert "9 stones, komi 0.5" in text


async def test_handicap_says_what_is_at_stake(club: FakeChat) -> None:
    """Issue 25: each player's gain or loss under the club's system if Black or White wins;
    MGSZ holds a club game for its period, so it is the period's change if it ended now."""
    text = await unchanged(club, "/handicap Nagy Péter Kovács Anna")
    black = next(line for line in text.splitlines() if line.startswith("If Black wins: "))
    white = next(line for line in text.splitlines() if line.startswith("If White wins: "))
    assert "Nagy Péter +" in black and "Kovács Anna -" in black
    assert "Nagy Péter -" in white and "Kovács Anna +" in white
    assert black.endswith("(if the period ended now)")


async def test_handicap_under_tensuusei_follows_the_points_table(tmp_path: Path) -> None:
    chat = await FakeChat.open(tmp_path, "tensuusei")
    try:
        # rules.md §2.1 seed example: 130 vs 110 → 1 stone, komi −2 (two points to Black)
        await chat.register("Erős Ede 1d 130", "Gyenge Géza 2k 110")
        text = await unchanged(chat, "/handicap Gyenge Erős")
        lines = text.split("\n\n")[1].splitlines()
        assert lines[:3] == ["Black: Gyenge Géza (2k)", "White: Erős Ede (1d)", "1 stone, komi -2"]
    finally:
        await chat.close()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/handicap Nagy Péter", "Both names are Nagy Péter; /handicap needs two different "
         "players"),
        ("/handicap Nagy", "/handicap needs two players, e.g. Nagy Péter vs Kovács Anna"),
        ("/handicap Nagy vs Nobody", "No player called “Nobody” in this club."),
        ("/handicap Nagy Kovács reduce=10", "Reduce must be 0–9, not 10"),
        ("/handicap Nagy Kovács komi=3", "/handicap has no option komi=; it takes reduce="),
    ],
)  # fmt: skip
async def test_handicap_bad_inputs(club: FakeChat, line: str, message: str) -> None:
    said = await club.refused(line, as_=PLAYER)
    assert said.text.startswith(message)
    assert said.text.endswith("Usage: /handicap A B [reduce=N] — e.g. /handicap Nagy Péter "
                              "Kovács Anna")  # fmt: skip


# -- /multiplier -------------------------------------------------------------------------------


def multiplier_line(case: dict[str, Any]) -> str:
    words = ["13x13"] if case["board"] == 13 else [f"{case['base_minutes']}m"]
    if case["overtime"]:
        o = case["overtime"]
        words.append(f"{o['periods']}x{o['seconds']}s {o['kind']}")
    words.append("handicap" if case["handicap_tournament"] else "even")
    words.append(f"participants={case['participants']}")
    if case["invitational_or_hungarian_championship"]:
        words.append("invitational")
    if case["european_or_world_championship"]:
        words.append("european")
    return " ".join(words)


@pytest.mark.parametrize("case", load_vectors("mgsz")["multipliers"], ids=lambda c: c["name"])
async def test_multiplier_from_the_rulebooks_examples(
    club: FakeChat, case: dict[str, Any]
) -> None:
    text = await unchanged(club, f"/multiplier {multiplier_line(case)}")
    assert text.splitlines()[0] == f"Multiplier C = {case['C']}"
    assert text.endswith(f"C = {case['C']}") or "C = 5 always" in text


@pytest.mark.parametrize(
    ("line", "c", "facts"),
    [
        # bot.md's example; rules.md §1.2: 60 + 45×20 s = 75 min extended, category B (15),
        # +5 championship, +5 over 80, +10 even 19×19
        ("60m 3x20s japanese even >80 championship", 35,
         ["category B: 15 (base 60 min, extended 75 min)", "+5 ", "+5 more than 80",
          "+10 no-handicap 19×19"]),
        ("45m even", 20, ["category C: 10"]),  # the KPMC Decision: 45 min is category C
        ("40m 30/5m canadian handicap", 10, ["category C: 10 (base 40 min, extended 50 min)"]),
        ("90m handicap world", 30, ["category A: 20", "+10 "]),
        ("C=30", 30, ["set by hand"]),
    ],
)  # fmt: skip
async def test_multiplier_shows_its_breakdown(
    club: FakeChat, line: str, c: int, facts: list[str]
) -> None:
    text = await unchanged(club, f"/multiplier {line}")
    assert text.splitlines()[0] == f"Multiplier C = {c}"
    for fact in facts:
        assert fact in text


async def test_multiplier_needs_no_club(club: FakeChat) -> None:
    said = await club.ok("/multiplier 45m even", as_=PLAYER, chat_id="-555")
    assert said.text.startswith("Multiplier C = 20")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/multiplier", "The time control is missing, e.g. /multiplier 60m 3x20s japanese even"),
        ("/multiplier even", "The time control is missing"),
        ("/multiplier forever", "Cannot read “forever”"),
        ("/multiplier 60m participants=many", "Participants must be a whole number, not “many”"),
        ("/multiplier 60m board=3", "Board must be 5–25, not 3"),
        ("/multiplier C=-1", "C must be 0–1000, not -1"),
    ],
)
async def test_multiplier_bad_inputs(club: FakeChat, line: str, message: str) -> None:
    said = await club.refused(line, as_=PLAYER)
    assert said.text.startswith(message)
    assert "\n\nUsage: /multiplier TIME" in said.text


# -- /promotion --------------------------------------------------------------------------------


async def test_promotion_under_mgsz_counts_to_the_next_bound(club: FakeChat) -> None:
    text = await unchanged(club, "/promotion Nagy Péter")
    assert text.splitlines()[0] == "Nagy Péter: 5k → 4k"
    assert "4k at Elo 1765: 45 points to go (Elo 1720)" in text  # rules.md §1.1
    text = await unchanged(club, "/promotion Tóth")
    assert text.splitlines()[0] == "Tóth Ádám: 3k → 2k"
    assert "2k at Elo 1865: 15 points to go (Elo 1850)" in text
    assert "0/2 tournaments" in text  # rules.md §1.5: 3k and stronger need the bound twice


async def test_promotion_with_no_name_uses_the_link(club: FakeChat) -> None:
    await club.link("Nagy Péter", PLAYER)
    assert (await unchanged(club, "/promotion")).startswith("Nagy Péter: 5k → 4k")


async def test_promotion_under_psg_names_the_norm(tmp_path: Path) -> None:
    chat = await FakeChat.open(tmp_path, "psg")
    try:
        await chat.register("Nagy Péter 10k")
        text = await unchanged(chat, "/promotion Nagy")
        assert text.splitlines()[0] == "Nagy Péter: 10k → 9k"
        assert "norm for 9k" in text
    finally:
        await chat.close()


async def test_promotion_bad_inputs(club: FakeChat) -> None:
    said = await club.refused("/promotion Nobody", as_=PLAYER)
    assert said.text.startswith("No player called “Nobody” in this club.")


async def test_reading_commands_write_nothing(club: FakeChat) -> None:
    await club.ok("/result Nagy Péter Kovács Anna B+")
    before = await club.snapshot()
    for line in ("/rating Nagy", "/top", "/history Nagy", "/chart Nagy", "/handicap Nagy Tóth",
                 "/multiplier 45m", "/promotion Nagy", "/help", "/help rating"):  # fmt: skip
        assert not (await club.say(line, as_=PLAYER)).error, line
    assert await club.snapshot() == before
    assert (
        await storage.card(club.db, club.club, (await club.player("Nagy Péter")).id)
    ).games == 0


async def test_history_hides_undone_typos_and_organisers_see_them_with_all(
    tmp_path: Path,
) -> None:
    from tests.bot.core.fakechat import ORGANISER

    chat = await FakeChat.open(tmp_path, "psg")  # PSG rates single games at once
    try:
        await chat.register("Nagy Péter 10k", "Kiss Anna 10k", "Tóth Ádám 10k")
        await chat.ok("/result Nagy Péter Kiss Anna B+")
        await chat.ok("/result Nagy Péter Tóth Ádám W+")  # a typo …
        await chat.ok("/undo")  # … taken back at once
        voided = await chat.ok("/result Kiss Anna Nagy Péter W+ again")  # a rematch
        await chat.ok(f"/void {voided.text.split('#')[1].split()[0]}")
        text = await unchanged(chat, "/history Nagy Péter")
        assert "Tóth Ádám" not in text and "undone" not in text
        # the game, the void, registered
        assert text.splitlines()[0] == "Nagy Péter — the last 3 entries"
        assert "game #1 vs Kiss Anna (B+)" in text and "game #3 vs Kiss Anna (W+) [voided]" in text
        text = (await chat.ok("/history Nagy Péter all", as_=ORGANISER)).text
        assert text.splitlines()[0] == "Nagy Péter — the last 4 entries (undone entries too)"
        assert "game #2 vs Tóth Ádám (W+) [undone]" in text
        assert "[voided]" in text
        assert (await chat.ok("/history Nagy Péter all 2")).text.splitlines()[0] == (
            "Nagy Péter — the last 2 entries (undone entries too)"
        )
        said = await chat.refused("/history Nagy Péter all", as_=PLAYER)
        assert said.text.startswith(
            "Only organisers see undone entries (/history NAME all); /history Nagy Péter "
            "shows what counts"
        )
    finally:
        await chat.close()


async def test_history_shows_a_tensuusei_days_games_and_those_that_did_not_count(
    tmp_path: Path,
) -> None:
    """The end of a club day is one row of /history; its note lists each game of the day by
    its club number, the opponent by name, and the games beyond local rule 1 with why."""
    chat = await FakeChat.open(tmp_path, "tensuusei")
    try:
        await chat.register("Nagy Péter 1d", "Kovács Anna 1d")
        for line in ("B+", "W+", "B+ again", "B+ again"):
            await chat.ok(f"/result Nagy Péter Kovács Anna {line}")
        await storage.end_day(chat.db, chat.club, dt.date(2026, 4, 20))
        text = (await chat.ok("/history Nagy Péter")).text
        assert (
            "Apr 20, 2026 end of day: 2–1 against Kovács Anna: #1 won, #2 lost, "
            "#3 won; "
            "#4: 4th game of the pair that day, not rated (3 a pair a day count)"
        ) in text
        assert "{" not in text
    finally:
        await chat.close()


async def test_history_lists_club_games_waiting_for_the_period(tmp_path: Path) -> None:
    """MGSZ rates club games when the month ends; until then /history still shows them."""
    chat = await FakeChat.open(tmp_path, players=("Nagy Péter 5k", "Kovács Anna 2d 2090"))
    try:
        await chat.ok("/result Nagy Péter Kovács Anna B+ h=4")
        text = (await chat.ok("/history Nagy Péter")).text
        assert text.splitlines()[0] == "Nagy Péter — the last 2 entries"
        assert "game #1 vs Kovács Anna (B+)  waits for the period's end" in text
    finally:
        await chat.close()


@pytest.mark.parametrize("system", ["mgsz", "gor"])
async def test_history_marks_the_games_recorded_from_an_sgf_file(
    tmp_path: Path, system: str
) -> None:
    """A game held for the period (MGSZ) or rated at once (GoR) recorded from an SGF is
    marked, and a line says how to get the file; a typed game, or a voided one, is not."""
    sgf = "(;GM[1]FF[4]SZ[19]KM[6.5]PB[Nagy Péter]PW[Kovács Anna]DT[2026-04-18]RE[B+R])"
    chat = await FakeChat.open(tmp_path, system, players=("Nagy Péter 5k", "Kovács Anna 2d 2090"))
    try:
        await chat.ok("/result Nagy Péter Kovács Anna B+")
        for _time in range(2):
            shown = await chat.ok(
                '/sgf black="Nagy Péter" white="Kovács Anna"', attachment=sgf.encode()
            )
            await chat.ok(shown.reply.buttons[0].command + " again")
        await chat.ok("/void 3")
        text = (await chat.ok("/history Nagy Péter")).text
        table = [line for line in text.splitlines() if "  " in line]  # the table's rows
        rows = {n: line for line in table for n in (1, 2, 3) if f"#{n} " in line}
        assert "· SGF" in rows[2] and "· SGF" not in rows[1] and "· SGF" not in rows[3]
        assert "/sgf game=N sends game #N's file" in text
        await chat.ok("/void 2")
        assert "SGF" not in (await chat.ok("/history Nagy Péter")).text
    finally:
        await chat.close()


# -- what the club's system answers (issue 12) -------------------------------------------------


async def test_rating_all_shows_the_player_under_every_system_from_the_same_games(
    club: FakeChat,
) -> None:
    await club.ok("/result Nagy Péter Tóth Ádám B+")
    await club.ok("/rating Tóth Ádám all")  # the other systems fold the club's log, once
    text = await unchanged(club, "/rating Nagy Péter all")
    lines = text.splitlines()
    assert lines[0] == "Nagy Péter — every system"
    body = "\n".join(lines[1:])
    for key, title in system_names.TITLES.items():
        if key in SYSTEMS:
            assert title in body, title
    mgsz = next(line for line in lines if line.startswith("MGSZ Elo (Hungary) *"))
    assert "1720" in mgsz and "Elo" in mgsz  # the club game waits for the period (§1.4)
    assert "1 game, settled at the end of the rating period" in mgsz
    tensuusei = next(line for line in lines if line.startswith("Tensuusei points (Japan)"))
    assert "70" in tensuusei and "+1 point, settled at the end of the club day" in tensuusei
    assert lines.index(mgsz) < lines.index(tensuusei)  # the club's own system first
    assert text.endswith("Budapest Go Club")


async def test_rating_all_reads_the_folded_ledgers_and_replays_nothing(
    club: FakeChat, monkeypatch: pytest.MonkeyPatch
) -> None:
    await club.ok("/rating Nagy Péter all")  # every system folds the club's log once, here

    def no_replay(*args: object, **kwargs: object) -> None:
        raise AssertionError("/rating all replayed the log")

    monkeypatch.setattr(projections, "fold", no_replay)
    monkeypatch.setattr(projections, "rebuild", no_replay)
    monkeypatch.setattr(projections, "_fold_into", no_replay)
    text = await unchanged(club, "/rating Tóth all")
    assert text.startswith("Tóth Ádám — every system")


async def test_rating_of_a_player_named_like_the_word_all_needs_quotes(club: FakeChat) -> None:
    said = await club.say('/rating "Nagy Péter"', as_=PLAYER)
    assert "every system" not in said.text


# What each rulebook does with a time control (issue 22): MGSZ's category of C (§1.2), GoR's
# class (§6), Swedish whole, half or no games by base time (§3.1), PSG's ranked-game clock
# (§4.1), Tensuusei's one point a game whatever the clock (§2).
TIME_TREATMENTS = [
    ("mgsz", "30m", "Multiplier C = 5", "category D: 5 (base 30 min"),
    ("mgsz", "10m", "Multiplier C = 0", "category E: 0"),
    ("gor", "30m", "Tournament class = C", "class C from the time control: every change × 0.50"),
    ("gor", "20m", "Tournament class = —", "below class C"),
    ("swedish", "30m", "Game weight = 0.5",
     "base time 30 min: a game with 30–59 minutes' base time counts as half a game (half the "
     "points, half a game in the count"),
    ("swedish", "45m 3x30s", "Game weight = 0.5", "base time 45 min: a game with 30–59 minutes'"),
    ("swedish", "60m", "Game weight = 1", "base time 60 min: a game with 60 minutes' base "
     "time or more counts as a whole game"),
    ("swedish", "unlimited", "Game weight = 1", "no time limit: counts as a whole game"),
    ("swedish", "20m 3x30s", "Game weight = 0", "base time 20 min: a game with under 30 "
     "minutes' base time does not count"),
    ("psg", "30m", "Game weight = 0", "30m is too short for a ranked game"),
    ("psg", "30m 3x10s", "Game weight = 1", "30m 3x10s japanese: a ranked game"),
    ("psg", "45m", "Game weight = 1", "45m: a ranked game"),
    ("tensuusei", "30m", "Game weight = 1", "30m: every rated game moves one point, whatever "
     "its time control"),
]  # fmt: skip


@pytest.mark.parametrize(("system", "time", "title", "treatment"), TIME_TREATMENTS)
async def test_multiplier_names_the_systems_treatment_of_the_time_control(
    tmp_path: Path, system: str, time: str, title: str, treatment: str
) -> None:
    chat = await FakeChat.open(tmp_path, system)
    try:
        text = await unchanged(chat, f"/multiplier {time}")
        assert text.splitlines()[0] == title
        assert treatment in text
        assert "every tournament alike" not in text
    finally:
        await chat.close()


def test_chart_bands_are_the_systems_rank_bands() -> None:
    bands = chart_bands(Tensuusei(TensuuseiParams(anchor_1d=200, spacing=20)))
    assert Band(190, 210, "1d") in bands  # the club's own rank line, not the seed's
    assert chart_bands(Swedish()) == ()
    assert (chart_bands(Mgsz())[0].label, chart_bands(Mgsz())[-1].label) == ("35k", "7d")


async def test_an_even_tensuusei_game_keeps_the_tables_komi_whatever_the_clubs(
    tmp_path: Path,
) -> None:
    chat = await FakeChat.open(tmp_path, "tensuusei")
    try:
        await chat.register("Erős Ede 1d 130", "Gyenge Géza 1d 130")
        await chat.ok("/club komi 7")
        text = await unchanged(chat, "/handicap Gyenge Erős")
        assert "Even game, komi 6" in text  # rules.md §2.1: difference 0 → komi 6
    finally:
        await chat.close()


# -- in the club's language (issue 13) ---------------------------------------------------------


async def said_in(chat: FakeChat, language: str, line: str, **kwargs: Any) -> str:
    """A command answered in ``language`` (as the core answers a club that speaks it)."""
    with using(language):
        return (await chat.say(line, **kwargs)).text


ENGLISH = (
    "rated game", "last played", "last change", "place ", "Name", "Rank", "Games", "last ",
    "Date", "What", "Rating", "registered", "start ", "has no", "charted", "Biggest",
    "Games recorded", "the week", "link your account", "is rated", "Before", "After",
)  # fmt: skip


def no_english(text: str, *allowed: str) -> None:
    for phrase in ENGLISH:
        assert phrase not in text or phrase in allowed, f"{phrase!r} in {text!r}"


async def test_a_japanese_tensuusei_club_reads_its_ratings_in_japanese(tmp_path: Path) -> None:
    chat = await FakeChat.open(
        tmp_path,
        "tensuusei",
        name="碁会所",
        settings={"language": "ja"},
        players=("山田太郎 1d", "鈴木花子 1d"),
    )
    try:
        await chat.ok("/result 山田太郎 鈴木花子 B+")
        rating = await said_in(chat, "ja", "/rating 鈴木花子")
        assert "有効局 1局" in rating and "最終対局 2026/04/20" in rating
        assert "2人中" in rating  # place … of 2
        no_english(rating, "registered")  # bot.core.format's word for a registration
        top = await said_in(chat, "ja", "/top")
        header = top.split("\n\n")[1].splitlines()[0].split()
        assert header[:3] == ["#", "名前", "段級位"] and header[-1] == "対局数"
        no_english(top)
        history = await said_in(chat, "ja", "/history 鈴木花子")
        assert history.splitlines()[0] == "鈴木花子 — 直近1件"
        assert "日付" in history and "内容" in history and "初期値 130" in history
        no_english(history, "registered")
        promotion = await said_in(chat, "ja", "/promotion 鈴木花子")
        assert promotion.startswith("鈴木花子: 1d")
        refused = await said_in(chat, "ja", "/promotion", as_=PLAYER)
        assert "/link あなたの名前" in refused and "/promotion" in refused
        no_english(refused)
        summary = await said_in(chat, "ja", "/summary")
        # the seven days up to today
        assert summary.startswith("碁会所：週間まとめ 2026年4月14日～20日")
        assert "記録した対局：1局" in summary
        no_english(summary)
    finally:
        await chat.close()


async def test_a_swedish_club_reads_its_ratings_in_swedish(tmp_path: Path) -> None:
    chat = await FakeChat.open(
        tmp_path,
        "swedish",
        name="Klubben",
        settings={"language": "sv"},
        players=("Lind Erik 2k", "Ek Sara 2k", "Åberg Öjvind 3k"),
    )
    try:
        await chat.ok("/tournament new Vårcupen start=2026-04-20 end=2026-04-20 rounds=1 time=60m")
        await chat.ok("/tournament result 1 Lind Erik Ek Sara W+")
        rated = await said_in(chat, "sv", "/tournament finalise")
        assert rated.startswith("Vårcupen är räknad\n\nNamn ")
        assert "Före" in rated and "Ändring" in rated and "Efter" in rated
        no_english(rated)
        rating = await said_in(chat, "sv", "/rating Ek Sara")
        assert "1 giltigt parti" in rating and "spelade senast 20 apr. 2026" in rating
        assert "plats 1 av 3" in rating and "senaste ändring: +" in rating
        no_english(rating)
        top = await said_in(chat, "sv", "/top 2")
        assert "Namn" in top and "Grad" in top and "Partier" in top
        assert "… och 1 till: /top 3" in top
        no_english(top)
        history = await said_in(chat, "sv", "/history Ek Sara")
        assert history.splitlines()[0] == "Ek Sara — de senaste 2 posterna"
        assert "Datum" in history and "Vad" in history
        no_english(history, "Rating", "start ", "registered")  # the Swedish words are English
        promotion = await said_in(chat, "sv", "/promotion Ek Sara")
        assert promotion.startswith("Ek Sara: 2k")
        refused = await said_in(chat, "sv", "/promotion", as_=PLAYER)
        assert "/link DITT NAMN" in refused and "/promotion" in refused
        no_english(refused)
        summary = await said_in(chat, "sv", "/summary")
        assert summary.startswith("Klubben: veckan 14–20 apr. 2026")
        assert "Räknade turneringar: Vårcupen" in summary
        assert "Största vinster: Ek Sara +" in summary
        no_english(summary)
    finally:
        await chat.close()


async def test_a_japanese_chart_names_its_player_and_dates_in_japanese(tmp_path: Path) -> None:
    chat = await FakeChat.open(
        tmp_path,
        "tensuusei",
        name="碁会所",
        settings={"language": "ja"},
        players=("山田太郎 1d", "鈴木花子 1d"),
    )
    try:
        await chat.ok("/result 山田太郎 鈴木花子 B+")
        await storage.end_day(chat.db, chat.club, dt.date(2026, 4, 20))
        with using("ja"):
            said = await chat.ok("/chart 山田太郎")
        assert said.text == "山田太郎：2026/04/20から2026/04/20までの2件をグラフにしました"
        picture = said.reply.picture
        assert picture is not None and picture.png.startswith(PNG_SIGNATURE)
        assert picture.caption.startswith("山田太郎 — ")
    finally:
        await chat.close()


async def test_a_reply_can_be_given_again_in_another_language(tmp_path: Path) -> None:
    """A reply composed in the club's language can be given again in a person's own
    (Reply.in_language, for a private answer): every sentence of /rating's card is, not only
    the ones that stand alone in a block."""
    chat = await FakeChat.open(
        tmp_path, "tensuusei", settings={"language": "ja"}, players=("山田太郎 1d", "鈴木花子 1d")
    )
    try:
        await chat.ok("/result 山田太郎 鈴木花子 B+")
        with using("ja"):
            japanese = (await chat.ok("/rating 鈴木花子")).reply
        assert "有効局 1局" in japanese.as_text()
        swedish = japanese.in_language("sv").as_text()
        assert "1 giltigt parti" in swedish and "plats 1 av 2" in swedish
        assert "有効局" not in swedish and "前回の変動" not in swedish
    finally:
        await chat.close()


@pytest.mark.parametrize("language", ["en", "pl"])
async def test_a_history_note_does_not_say_its_label_twice(tmp_path: Path, language: str) -> None:
    chat = await FakeChat.open(tmp_path, "psg", language=language, players=("Nagy Péter 6k",))
    try:
        text = (await chat.ok("/history Nagy Péter")).text
        with using(language):
            label = translated(_("registered"))
        assert label in text
        assert f"{label}: {label}" not in text
    finally:
        await chat.close()
