"""Arranging a club through the chat, from the rulebooks' worked examples (shared/vectors)."""

from __future__ import annotations

from typing import Any

from engine.ranks import Rank
from tests.bot.core.fakechat import FakeChat
from tests.conftest import load_vectors

# rules.md §1.1: lower bound of each rank's Elo band, strongest first
RANK_BOUNDS = [("7d", 2700), ("6d", 2500), ("5d", 2350), ("4d", 2230), ("3d", 2130),
               ("2d", 2050), ("1d", 1980), ("1k", 1920), ("2k", 1865), ("3k", 1815),
               ("4k", 1765), ("5k", 1720), ("6k", 1675), ("7k", 1635), ("8k", 1595)]  # fmt: skip
SUBJECT = "Kiss Béla"


def band_rank(elo: int) -> str:
    """The rank whose band holds ``elo`` (rules.md §1.1)."""
    return next(rank for rank, low in RANK_BOUNDS if elo >= low)


def mgsz_tournaments() -> list[dict[str, Any]]:
    return list(load_vectors("mgsz")["tournaments"])


def opponent(i: int) -> str:
    return f"Ellenfél {'ABCDEFGH'[i]}"


async def play_mgsz_example(chat: FakeChat, case: dict[str, Any], name: str = "Example") -> None:
    """Register the subject and opponents at their Elo, and post the example's games in one
    tournament with the example's C (handicaps from the subject's view, rules.md vectors)."""
    elo = case["player_elo"]
    await chat.register(f"{SUBJECT} {band_rank(elo)} {elo}")
    for i, game in enumerate(case["games"]):
        await chat.register(
            f"{opponent(i)} {band_rank(game['opponent_elo'])} {game['opponent_elo']}"
        )
    even = all(g["stones"] == 0 for g in case["games"])
    rounds = len(case["games"])
    await chat.ok(
        f"/tournament new {name} rounds={rounds} C={case['C']} "
        + ("even" if even else "handicap reduce=1")
    )
    for i, game in enumerate(case["games"]):
        won = game["result"] == "win"
        stones = game["stones"]
        if stones >= 0:  # the subject took Black (and the stones, if any)
            black, white, result = SUBJECT, opponent(i), "B+" if won else "W+"
        else:
            black, white, result = opponent(i), SUBJECT, "W+" if won else "B+"
        options = f" h={abs(stones)}" if stones else ""
        await chat.ok(f'/tournament result {i + 1} "{black}" "{white}" {result}{options}')


def rank(text: str) -> Rank:
    return Rank.parse(text)
