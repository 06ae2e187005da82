"""Every number a reply shows is the club's own and resolves (issue 22, item 3).

A busy session in several clubs of one database (so that log positions, internal ids and the
clubs' numbers drift apart), under every system: each ``#N``, ``game N`` and ``tournament #N``
of every reply must name, by the club's number, the game or tournament meant (the players or
the tournament the same line names); no reply shows a log position or an internal id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import storage
from tests.bot.core.fakechat import ADMIN, CALLERS, FakeChat

SYSTEMS = ("mgsz", "psg", "tensuusei", "swedish", "gor")
PLAYERS = ("Nagy Péter", "Kovács Anna", "Tóth Ádám", "Szabó Éva")
RANKS = ("5k", "6k", "7k", "8k")
H9 = """\
; EV[{name}]
; DT[2026-04-11,2026-04-11]
; HA[h9]
; KM[6.5]
; TM[60]
;
; Pl Name           Rk Co Club
   1 Nagy Péter     5k HU Bp     2+/b0   3+/w0
   2 Kovács Anna    6k HU Bp     1-/w0   4+/b0
   3 Tóth Ádám      7k HU Bp     4-/w0   1-/b0
   4 Szabó Éva      8k HU Bp     3+/b0   2-/w0
"""


@dataclass
class Club:
    chat: FakeChat
    system: str


async def clubs(tmp_path: Path) -> list[Club]:
    """One club per system in one database, each bound to a chat of its own."""
    first = await FakeChat.open(tmp_path, SYSTEMS[0])
    found = [Club(first, SYSTEMS[0])]
    admin = CALLERS[ADMIN].identity
    for i, system in enumerate(SYSTEMS[1:], start=2):
        club = await storage.create_club(first.db, f"Club {system}", system, actor=admin)
        chat_id = f"-100{i}"
        await storage.bind_chat(first.db, club, first.platform, chat_id, actor=admin)
        await storage.set_setting(first.db, club, "language", "en", actor=admin)
        found.append(Club(FakeChat(first.db, first.core, club, first.clock, chat_id), system))
    return found


async def each(found: list[Club], line: str) -> None:
    """``line`` said in every club in turn (the log interleaves them)."""
    for club in found:
        await club.chat.say(line.format(system=club.system))


async def session(found: list[Club]) -> None:
    for name, rank in zip(PLAYERS, RANKS, strict=True):
        await each(found, f"/register {name} {rank}")
    await each(found, "/result Nagy Péter Kovács Anna B+ date=2026-04-01")
    await each(found, "/result Tóth Ádám Szabó Éva W+R date=2026-04-02")
    await each(found, "/result Nagy Péter Tóth Ádám B+ date=2026-04-03")
    await each(found, "/result Nagy Péter Kovács Anna B+ date=2026-04-01")  # twice: asked
    await each(found, f"/tournament import\n{H9.format(name='Spring Cup')}")
    await each(found, "/tournament import\n" + H9.format(name="Spring Cup"))  # twice: refused
    await each(found, "/tournament finalise Spring Cup")
    await each(found, "/tournament new Club Cup rounds=2 C=20")
    await each(found, "/tournament result 1 Kovács Anna Szabó Éva B+ t=Club Cup")
    await each(found, "/tournament result 2 Szabó Éva Tóth Ádám W+ t=Club Cup")
    await each(found, "/tournament show Club Cup")
    await each(found, "/tournament finalise Club Cup confirm")
    await each(found, "/void 3")
    await each(found, "/correct 2 swap")
    await each(found, "/undo")
    await each(found, "/undo")
    await each(found, "/tournament list")
    for name in PLAYERS:
        await each(found, f"/history {name} 20")
        await each(found, f"/rating {name}")
        await each(found, f"/promotion {name}")
    await each(found, "/top")
    await each(found, "/summary")
    await each(found, "/tournament reopen Club Cup")
    await each(found, "/void 6")
    await each(found, "/undo")
    await each(found, "/tournament finalise Club Cup confirm")
    await each(found, "/undo")
    await each(found, "/history Kovács Anna all")


async def test_show(tmp_path: Path) -> None:
    found = await clubs(tmp_path)
    try:
        await session(found)
        for club in found:
            print("=" * 30, club.system)
            for line, said in club.chat.said:
                print(">>>", line.split("\n")[0])
                print(said.text)
    finally:
        await found[0].chat.close()
