"""A club rated under the EGF GoR (rules.md §6), end to end through the command core: every
command a system answers works for ``gor`` and speaks in whole GoR points.

Expected values are worked by hand from rules.md §6 with plain ``math`` (:func:`gain`), never
taken from engine/gor.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections.abc import AsyncIterator
from fractions import Fraction
from pathlib import Path

import pytest

import storage
from bot.core.chart import Band
from bot.core.handlers.ratings import chart_bands
from bot.core.invocation import Caller
from bot.core.notices import weekly_reply
from bot.i18n import date_text
from tests.bot.core.fakechat import PLAYER, TODAY, FakeChat

NEW_ADMIN = Caller("telegram", "400", "Admin of another chat", chat_admin=True)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CLASS_C, CLASS_B = 0.5, 0.75  # rules.md §6: club games class C; CL[B] in the file below

COLOGNE_H9 = """; CL[B]
; EV[Köln Cup]
; DT[2026-04-11,2026-04-12]
; HA[h9]
; TM[90]
;
; Pl Name                  Rk Co Club MMS
   1 Nagy Péter            2k HU Bp    20  2+/w0  3+/b0
   2 Kovács Anna           1d HU Bp    20  1-/b0  0-
   3 Weber Lukas           3k DE Ber   19  0-     1-/w0
"""


def gain(r: float, r2: float, s: float, h: int = 0) -> float:
    """One game's con · (S − Se) + bonus (rules.md §6), ``h`` stones received (< 0 given)."""
    own = r + (100 * (h - 0.5) if h >= 1 else 0)
    other = r2 + (100 * (-h - 0.5) if h <= -1 else 0)
    se = 1 / (1 + math.exp(-7 * math.log(3300 - other) + 7 * math.log(3300 - own)))
    return ((3300 - r) / 200) ** 1.6 * (s - se) + math.log(1 + math.exp((2300 - r) / 80)) / 5


def whole(x: float) -> int:
    """Shown in whole points, half up (rules.md §6 Decision)."""
    return math.floor(x + 0.5)


# Nagy Péter (2k, 1900) beats Kovács Anna (1d, 2100) in a club game, class C
NAGY = 1900 + CLASS_C * gain(1900, 2100, 1)
KOVACS = 2100 + CLASS_C * gain(2100, 1900, 0)


@pytest.fixture
async def club(tmp_path: Path) -> AsyncIterator[FakeChat]:
    chat = await FakeChat.open(
        tmp_path, "gor", name="Kölner Go Club", players=("Nagy Péter 2k", "Kovács Anna 1d")
    )
    try:
        yield chat
    finally:
        await chat.close()


async def played(chat: FakeChat) -> None:
    await chat.ok("/result Nagy Péter Kovács Anna B+")


async def test_a_club_starts_under_the_gor(club: FakeChat) -> None:
    said = await club.ok("/club new Frankfurter Go Club gor", as_=NEW_ADMIN, chat_id="-77")
    assert said.text.startswith("Club Frankfurter Go Club created with EGF GoR (Europe);")
    new = await storage.club_for_chat(club.db, "telegram", "-77")
    assert new is not None and new.system == "gor"
    said = await club.ok("/club show", as_=NEW_ADMIN, chat_id="-77")
    assert "System: EGF GoR (Europe)" in said.text


async def test_register_starts_at_the_declared_ranks_gor(club: FakeChat) -> None:
    said = await club.ok("/register Szabó Éva 5k")
    assert said.text == "Registered Szabó Éva (5k)\n\nGoR: 1600"  # 1d = 2100, 100 a rank
    said = await club.ok("/register Weber Lukas 3k 1850")
    assert said.text == "Registered Weber Lukas (3k)\n\nGoR: 1850"


async def test_a_result_is_rated_at_once_in_whole_points(club: FakeChat) -> None:
    said = await club.ok("/result Nagy Péter Kovács Anna B+")
    assert said.text.endswith(
        f"EGF GoR (Europe): Nagy Péter {whole(NAGY)} · Kovács Anna {whole(KOVACS)}"
    )
    assert (whole(NAGY), whole(KOVACS)) == (1909, 2094)


async def test_rating_shows_the_whole_points_once(club: FakeChat) -> None:
    await played(club)
    said = await club.ok("/rating Nagy Péter", as_=PLAYER)
    assert said.text.splitlines()[:3] == [
        "Nagy Péter — 2k",
        "",
        f"GoR: {whole(NAGY)} · place 2 of 2 · 1 rated game · last played {date_text(TODAY)}",
    ]
    assert "games:" not in said.text  # the rated games are said once
    assert not re.search(r"\d\.\d", said.text)  # no decimals: GoR is shown in whole points


async def test_top_lists_whole_points(club: FakeChat) -> None:
    await played(club)
    said = await club.ok("/top", as_=PLAYER)
    rows = [line.split() for line in said.text.splitlines()[2:]]
    assert rows[0] == ["#", "Name", "Rank", "GoR", "Games"]
    assert rows[1:] == [
        ["1", "Kovács", "Anna", "1k", str(whole(KOVACS)), "1"],  # 2093.7: 1k (rounded down)
        ["2", "Nagy", "Péter", "2k", str(whole(NAGY)), "1"],
    ]


async def test_handicap_is_the_difference_over_100(club: FakeChat) -> None:
    await played(club)
    said = await club.ok("/handicap Nagy Péter Kovács Anna", as_=PLAYER)
    # 2093.7 − 1908.8 = 184.9: 1 stone, no komi (rules.md §6, §5)
    lines = said.text.splitlines()
    assert "\n".join(lines[:6]) == (
        "Handicap\n\nBlack: Nagy Péter (2k)\nWhite: Kovács Anna (1k)\n"
        "1 stone: Black moves first, no komi\n"
        f"(GoR difference {whole(KOVACS) - whole(NAGY)} ({whole(KOVACS)} − {whole(NAGY)}))"
    )
    # what is at stake (issue 25): the shown ratings' moves, in whole points
    assert re.fullmatch(r"If Black wins: Nagy Péter \+\d+ GoR, Kovács Anna -\d+ GoR", lines[6])
    assert re.fullmatch(r"If White wins: Nagy Péter -\d+ GoR, Kovács Anna \+\d+ GoR", lines[7])


async def test_promotion_counts_whole_gor_points(club: FakeChat) -> None:
    await played(club)
    said = await club.ok("/promotion Nagy Péter", as_=PLAYER)
    to_go = math.ceil(2000 - NAGY)
    assert said.text.splitlines()[:3] == [
        "Nagy Péter: 2k → 1k",
        "",
        f"{to_go} GoR points to 1k (GoR 2000; now {whole(NAGY)})",
    ]


async def test_history_moves_in_whole_points(club: FakeChat) -> None:
    await played(club)
    said = await club.ok("/history Nagy Péter", as_=PLAYER)
    delta = whole(NAGY) - 1900
    assert f"1900 → {whole(NAGY)} (+{delta})" in said.text
    assert "club game, class C (× 0.50), 1 game" in said.text
    assert "start 1900" in said.text


async def test_chart_draws_the_gor_with_its_rank_bands(club: FakeChat) -> None:
    await played(club)
    said = await club.ok("/chart Nagy Péter", as_=PLAYER)
    picture = said.reply.picture
    assert picture is not None and picture.png.startswith(PNG_SIGNATURE)
    assert picture.caption == "Nagy Péter — EGF GoR (Europe)"
    bands = chart_bands(await storage.ledger(club.db, club.club.id))
    assert Band(2000.0, 2100.0, "1k") in bands and Band(2100.0, 2200.0, "1d") in bands
    assert bands[0] == Band(-900.0, -800.0, "30k")


async def test_rating_all_puts_the_gor_beside_the_other_systems(club: FakeChat) -> None:
    await played(club)
    said = await club.ok("/rating Nagy Péter all", as_=PLAYER)
    row = next(line for line in said.text.splitlines() if line.startswith("EGF GoR"))
    assert row.split() == ["EGF", "GoR", "(Europe)", "*", "2k", str(whole(NAGY)), "GoR"]


async def test_a_tournament_file_is_rated_with_its_class(club: FakeChat) -> None:
    said = await club.ok(
        "/tournament import", attachment=COLOGNE_H9.encode(), attachment_name="koeln.h9"
    )
    assert "Tournament class: class B given for the tournament: every change × 0.75" in (said.text)
    assert "C=NN" not in said.text  # the MGSZ multiplier means nothing to the GoR
    row = await storage.tournament(club.db, club.club, "Köln Cup")
    assert row is not None and row.tournament.klass == "B"
    said = await club.ok("/tournament finalise Köln Cup")
    # every game from the ratings before the tournament, the sum × 0.75 (rules.md §6)
    nagy = 1900 + CLASS_B * (gain(1900, 2100, 1) + gain(1900, 1800, 1))
    kovacs = 2100 + CLASS_B * gain(2100, 1900, 0)
    weber = 1800 + CLASS_B * gain(1800, 1900, 0)
    rows = {" ".join(line.split()[:2]): line.split()[2:] for line in said.text.splitlines()}
    assert rows["Nagy Péter"] == ["1900", f"+{whole(nagy) - 1900}", str(whole(nagy)), "2k"]
    assert rows["Kovács Anna"][:3] == ["2100", f"-{2100 - whole(kovacs)}", str(whole(kovacs))]
    assert rows["Weber Lukas"][:3] == ["1800", f"-{1800 - whole(weber)}", str(whole(weber))]
    said = await club.ok("/history Nagy Péter", as_=PLAYER)
    assert "Köln Cup: class B (× 0.75), 2 games" in said.text


async def test_export_json_keeps_the_gor_to_three_decimals(club: FakeChat) -> None:
    await played(club)
    said = await club.ok("/export json")
    doc = said.reply.document
    assert doc is not None
    data = {p["name"]: p for p in json.loads(doc.data.decode("utf-8"))}
    nagy = data["Nagy Péter"]
    assert (nagy["rank"], nagy["games"]) == ("2k", 1)
    assert re.fullmatch(r"\d{4}\.\d{3}", nagy["gor"])
    assert float(nagy["gor"]) == pytest.approx(NAGY, abs=0.0006)
    assert float(data["Kovács Anna"]["gor"]) == pytest.approx(KOVACS, abs=0.0006)


async def test_the_weekly_summary_speaks_in_whole_points(club: FakeChat) -> None:
    await played(club)
    start = dt.datetime(2026, 4, 14, tzinfo=dt.UTC)
    reply = await weekly_reply(
        club.db, club.club, start, start + dt.timedelta(days=7), picture=False
    )
    text = reply.as_text()
    rows = [line.split() for line in text.splitlines()]
    assert ["2", "Nagy", "Péter", "2k", str(whole(NAGY))] in rows
    assert f"Biggest gains: Nagy Péter +{whole(NAGY) - 1900}" in text
    assert f"Biggest losses: Kovács Anna -{2100 - whole(KOVACS)}" in text
    assert not re.search(r"\d\.\d", text)


async def test_a_tournament_opened_in_the_chat_takes_its_class(club: FakeChat) -> None:
    """A short (or online) tournament is rated only when its class is given: class=D."""
    said = await club.ok("/tournament new Online Cup rounds=1 time=20m class=d")
    assert "class D from the tournament's header: every change × 0.25" not in said.text
    assert "class D given for the tournament: every change × 0.25" in said.text
    row = await storage.tournament(club.db, club.club, "Online Cup")
    assert row is not None and row.tournament.klass == "D"
    said = await club.ok("/tournament result 1 Nagy Péter Kovács Anna B+")
    assert "will not count" not in said.text  # class D: it counts, whatever its clock
    await club.ok("/tournament finalise")
    quarter = 1900 + 0.25 * gain(1900, 2100, 1)
    assert (await club.card("Nagy Péter")).rating == whole(quarter)


async def test_an_import_may_set_the_class(club: FakeChat) -> None:
    said = await club.ok(
        "/tournament import class=A", attachment=COLOGNE_H9.encode(), attachment_name="k.h9"
    )
    assert "class A given for the tournament: every change × 1.00" in said.text
    row = await storage.tournament(club.db, club.club, "Köln Cup")
    assert row is not None and row.tournament.klass == "A"


async def test_a_bad_class_is_refused_with_an_example(club: FakeChat) -> None:
    said = await club.refused("/tournament new Cup class=E")
    assert said.text.startswith(
        "The EGF tournament class is A, B, C or D, not “E” (e.g. /tournament new Cup class=B)"
    )


# rules.md §6: GoR values from the EGD carry 3 decimals; kept exactly wherever one is typed or
# imported, more refused with the reason; replies show whole points, exports the thousandths
EGD_GOR = "2705.840"


async def _export_gor(chat: FakeChat) -> dict[str, str]:
    said = await chat.ok("/export json")
    doc = said.reply.document
    assert doc is not None
    return {p["name"]: p["gor"] for p in json.loads(doc.data.decode("utf-8"))}


async def test_register_keeps_an_egd_gor_to_the_thousandth(club: FakeChat) -> None:
    said = await club.ok(f"/register Weber Lukas 7d {EGD_GOR}")
    assert said.text == "Registered Weber Lukas (7d)\n\nGoR: 2706"
    said = await club.ok("/register Schmidt Jonas 7d rating=2705,125")
    assert said.text.endswith("GoR: 2705")
    gor = await _export_gor(club)
    assert (gor["Weber Lukas"], gor["Schmidt Jonas"]) == (EGD_GOR, "2705.125")
    player = await club.player("Weber Lukas")
    assert player.rating == Fraction(EGD_GOR)


async def test_egf_and_override_keep_an_egd_gor_to_the_thousandth(club: FakeChat) -> None:
    said = await club.ok(f"/egf Nagy Péter {EGD_GOR}")
    assert said.text.startswith("EGF rating 2706 recorded for Nagy Péter")
    assert (await _export_gor(club))["Nagy Péter"] == EGD_GOR
    await club.ok('/override Kovács Anna rating=2100.333 reason="EGD import"')
    assert (await _export_gor(club))["Kovács Anna"] == "2100.333"
    assert (await club.card("Kovács Anna")).rating == 2100


@pytest.mark.parametrize(
    "line",
    [
        "/register Weber Lukas 7d 2705.8401",
        "/register Weber Lukas 7d rating=2705.8401",
        "/egf Nagy Péter 2705.8401",
        '/override Nagy Péter rating=2705.8401 reason="EGD"',
    ],
)
async def test_more_than_three_decimals_are_refused_with_the_reason(
    club: FakeChat, line: str
) -> None:
    said = await club.refused(line)
    assert "2705.8401 has 4 decimals; a rating is kept to 3 decimals at most" in said.text


async def test_a_professional_starts_at_the_egd_nominal_gor_and_keeps_the_title(
    club: FakeChat,
) -> None:
    """1p = 2700, each professional rank 30 more; the rank shown for the rating is the amateur
    one, the player is named by the declared title."""
    said = await club.ok("/register Cho Hun 3p")
    assert said.text.startswith("Registered Cho Hun (3p)")
    assert (await club.ok("/rating Cho Hun")).text.startswith("Cho Hun — 7d")
    assert said.text.endswith("GoR: 2760")
    card = await club.card("Cho Hun")
    assert {m.key: m.value for m in card.values}["title"] == "3p"


async def test_an_imported_professional_starts_at_the_egd_nominal_gor(club: FakeChat) -> None:
    h9 = re.sub(r"(Weber Lukas\s+)3k", r"\g<1>2p", COLOGNE_H9)
    assert h9 != COLOGNE_H9
    await club.ok("/tournament import", attachment=h9.encode(), attachment_name="koeln.h9")
    assert (await club.card("Weber Lukas")).rating == 2730


GOR_COLUMN_H9 = """; CL[B]
; EV[Köln Cup]
; DT[2026-04-11,2026-04-12]
; HA[h9]
; TM[90]
;
; Pl Name                  Rk Co Club GoR       MMS
   1 Schmidt Jonas         2k DE Ber  1905.840   20  2+/w0  3+/b0
   2 Kovács Anna           1d HU Bp   2100.123   20  1-/b0  0-
   3 Weber Lukas           3k DE Ber  {weber}   19  0-     1-/w0
"""


async def test_an_h9s_gor_column_starts_new_players_to_the_thousandth(club: FakeChat) -> None:
    """rules.md §6: an h9's rating column (GoR, as the EGD writes it) starts a new player of
    the file exactly; a player already in the club keeps their own GoR."""
    h9 = GOR_COLUMN_H9.format(weber="1799.5")
    await club.ok("/tournament import", attachment=h9.encode(), attachment_name="koeln.h9")
    gor = await _export_gor(club)
    assert (gor["Schmidt Jonas"], gor["Weber Lukas"]) == ("1905.840", "1799.500")
    assert gor["Kovács Anna"] == "2100.000"  # registered before: not moved by the file


async def test_an_h9s_gor_with_four_decimals_refuses_the_import(club: FakeChat) -> None:
    h9 = GOR_COLUMN_H9.format(weber="1799.5001")
    said = await club.refused(
        "/tournament import", attachment=h9.encode(), attachment_name="koeln.h9"
    )
    assert "Weber Lukas's GoR 1799.5001: 1799.5001 has 4 decimals" in said.text


async def test_an_imported_guest_professional_plays_at_the_egd_nominal_gor(
    tmp_path: Path,
) -> None:
    """A foreign guest entered as 2p plays at 2730 (rules.md §6): Nagy Péter's gain from
    beating him is worked from 2730, not 7d's 2700."""
    chat = await FakeChat.open(
        tmp_path, "gor", settings={"country": "HU"}, players=("Nagy Péter 7d 2700",)
    )
    try:
        h9 = """; CL[A]
; EV[Pro Cup]
; DT[2026-04-11,2026-04-11]
; HA[h9]
; TM[90]
;
; Pl Name                  Rk Co Club
   1 Nagy Péter            7d HU Bp    2+/w0
   2 Cho Hun               2p KR Seo   1-/b0
"""
        await chat.ok("/tournament import", attachment=h9.encode(), attachment_name="p.h9")
        await chat.ok("/tournament finalise Pro Cup")
        card = await chat.card("Nagy Péter")
        kept = float({m.key: m.value for m in card.values}["gor"])  # type: ignore[arg-type]
        assert kept == pytest.approx(2700 + gain(2700, 2730, 1), abs=0.0006)
        assert abs(gain(2700, 2730, 1) - gain(2700, 2700, 1)) > 0.5  # 2730 tells, not 2700
    finally:
        await chat.close()
