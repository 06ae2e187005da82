"""A game entered twice, asked about in the club's language (bot.core.handlers.same_game; the
English behaviour is tested with /result in test_games.py)."""

from __future__ import annotations

from pathlib import Path

import storage
from tests.bot.core.fakechat import ORGANISER, PLAYER, FakeChat


async def test_a_game_entered_twice_is_asked_about_in_japanese(tmp_path: Path) -> None:
    chat = await FakeChat.open(
        tmp_path,
        "tensuusei",
        name="Sendai Go Club",
        settings={"language": "ja"},
        players=("佐藤 健 1d", "鈴木 花 1k"),
    )
    try:
        await chat.ok("/result 佐藤 健 鈴木 花 B+R")
        said = await chat.say("/result 佐藤 健 鈴木 花 B+R", as_=ORGANISER)
        assert not said.error
        assert said.text == (
            "記録済みでは？\n\n"
            "クラブにすでにある対局と同じようです：\n"
            "#1 2026/04/20、佐藤 健（黒）– 鈴木 花（白）：B+R、2026/04/20 18:00に"
            "telegram:100が入力\n"
            "何も記録していません。別の対局なら、最後に again を付けてください："
            "/result 佐藤 健 鈴木 花 B+R again"
        )
        assert [b.label for b in said.reply.buttons] == ["もう一度記録"]
        said = await chat.say("/result 佐藤 健 鈴木 花 B+R")  # by the one who entered it
        assert "、2026/04/20 18:00にあなたが入力\n" in said.text
    finally:
        await chat.close()


async def test_a_reported_game_entered_again_is_asked_about_in_hungarian(
    tmp_path: Path,
) -> None:
    chat = await FakeChat.open(
        tmp_path, settings={"language": "hu"}, players=("Nagy Péter 5k", "Kovács Anna 2d 2090")
    )
    try:
        await chat.ok("/club reports on")
        await chat.link("Nagy Péter", PLAYER)
        await chat.ok("/result Nagy Péter Kovács Anna B+", as_=PLAYER)
        (report,) = await storage.pending_games(chat.db, chat.club)
        said = await chat.say("/result Nagy Péter Kovács Anna B+")
        assert said.text.startswith("Már rögzítve?\n\nEz olyan játszmának tűnik")
        assert (
            f"#{report.number} 2026. ápr. 20., Nagy Péter (B) – Kovács Anna (W): B+, "
            "rögzítette: Nagy Péter, 2026. ápr. 20. 18:00 — játékosjelentés, megerősítésre vár "
            f"(/confirm {report.number})"
        ) in said.text
        assert [b.label for b in said.reply.buttons] == [
            f"#{report.number} megerősítése",
            "Rögzítsd újra",
        ]
    finally:
        await chat.close()
