"""Every number a reply shows is the club's own and resolves (issue 22, item 3).

A busy session in several clubs of one database (so that log positions, internal ids and the
clubs' numbers drift apart), under every system: each ``#N``, ``game N`` and ``tournament #N``
of every reply must name, by the club's number, the game or tournament meant (the players or
the tournament the same line names); no reply shows a log position or an internal id.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import storage
from tests.bot.core.fakechat import ADMIN, CALLERS, PLAYER, FakeChat

SYSTEMS = ("mgsz", "psg", "tensuusei", "swedish", "gor")
PLAYERS = ("Nagy Péter", "Kovács Anna", "Tóth Ádám", "Szabó Éva")
RANKS = ("6k", "6k", "6k", "6k")  # even games count under every system (PSG §8(1))
H9 = """\
; EV[{name}]
; DT[2026-04-11,2026-04-11]
; HA[h9]
; KM[6.5]
; TM[60]
;
; Pl Name           Rk Co Club
   1 Nagy Péter     6k HU Bp     2+/b0   3+/w0
   2 Kovács Anna    6k HU Bp     1-/w0   4+/b0
   3 Tóth Ádám      6k HU Bp     4-/w0   1-/b0
   4 Szabó Éva      6k HU Bp     3+/b0   2-/w0
"""


@dataclass
class Club:
    chat: FakeChat
    system: str


async def clubs(tmp_path: Path, systems: tuple[str, ...] = SYSTEMS) -> list[Club]:
    """One club per system in one database, each bound to a chat of its own."""
    first = await FakeChat.open(tmp_path, systems[0])
    found = [Club(first, systems[0])]
    admin = CALLERS[ADMIN].identity
    for i, system in enumerate(systems[1:], start=2):
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
    found[0].chat.clock.advance(dt.timedelta(minutes=5))  # imports are rate-limited
    await each(found, "/tournament import\n" + H9.format(name="Spring Cup"))  # twice: refused
    await each(found, "/tournament finalise Spring Cup")
    await each(found, '/tournament new Club Cup rounds=2 C=20 time="60m 3x30s"')
    await each(found, '/tournament result 1 Kovács Anna Szabó Éva B+ t="Club Cup"')
    await each(found, '/tournament result 2 Szabó Éva Tóth Ádám W+ t="Club Cup"')
    await each(found, "/tournament show Club Cup")
    await each(found, "/tournament finalise Club Cup confirm")
    await each(found, "/void 3")
    await each(found, "/correct 2 swap")
    await each(found, "/undo")
    await each(found, "/undo")
    await each(found, "/tournament list")
    await each(found, "/tournament show #1")
    await each(found, "/club reports on")
    for club in found:  # a player's report of their own game
        await club.chat.link("Szabó Éva", PLAYER)
        await club.chat.say("/result Szabó Éva Nagy Péter B+ date=2026-04-19", as_=PLAYER)
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


GAME_REF = re.compile(
    r"(?<![\w/])(?:(?:[Gg]ame|[Rr]eport)\s+#?|#|/(?:confirm|dispute|void|correct)\s+#?)(\d+)"
)
TOURNAMENT_REF = re.compile(r"(?:[Tt]ournament\s+#|/tournament\s+\w+\s+#|^#)(\d+)")
INTERNAL = re.compile(r"\b(?:entry|player|seq|id)\s+\d+\b|#0\b")
"""Words around a number that can only be a log position or an internal id."""


async def problems_of(club: Club, line: str, text: str) -> list[str]:
    """What is wrong with the numbers of one reply (``text``) to ``line`` in ``club``."""
    chat = club.chat
    names = [p.name for p in await storage.players(chat.db, chat.club, guests=True)]
    events = await storage.tournaments(chat.db, chat.club)
    found = []
    for shown in text.splitlines():
        if shown.startswith("Usage:"):
            continue
        shown = shown.split("e.g.")[0]  # an example shows a made-up number (/void 12)
        context = shown if any(n in shown for n in names) else line
        named = [n for n in names if n in context]
        cups = [t for t in events if t.tournament.name in shown]
        for bad in INTERNAL.finditer(shown):
            found.append(f"{bad[0]!r}: a log position or an internal id in {shown!r}")
        tournaments = {int(m[1]): m for m in TOURNAMENT_REF.finditer(shown)}
        for number in tournaments:
            row = await storage.tournament_by_number(chat.db, chat.club, number)
            if row is None:
                found.append(f"tournament #{number} does not resolve: {shown!r}")
            elif cups and row.tournament.name not in shown:
                found.append(f"tournament #{number} is {row.tournament.name}: {shown!r}")
            elif (await chat.say(f"/tournament show #{number}")).error:
                found.append(f"/tournament show #{number} refused: {shown!r}")
        for match in GAME_REF.finditer(shown):
            number = int(match[1])
            if any(m.start(1) == match.start(1) for m in tournaments.values()):
                continue
            game = await storage.game_by_number(chat.db, chat.club, number)
            if game is None:
                found.append(f"game #{number} does not resolve: {shown!r}")
                continue
            players = {
                (await storage.get_player(chat.db, chat.club, pid)).name  # type: ignore[union-attr]
                for pid in (game.game.black, game.game.white)
            }
            if named and not players & set(named):
                found.append(f"game #{number} is {sorted(players)}'s: {shown!r}")
            held = [t for t in cups if t.id == game.game.tournament]
            if cups and not held and "tournament #" not in shown:
                found.append(f"game #{number} is not of {cups[0].tournament.name}: {shown!r}")
    return [f"{club.system}, {line.splitlines()[0]}: {problem}" for problem in found]


@pytest.mark.parametrize("first", SYSTEMS)
async def test_every_number_a_reply_shows_is_the_clubs_and_resolves(
    tmp_path: Path, first: str
) -> None:
    order = (first, *(s for s in SYSTEMS if s != first))
    found = await clubs(tmp_path, order)
    try:
        await session(found)
        problems = []
        for club in found:
            said = list(club.chat.said)
            assert len(said) > 35  # the session ran
            assert sum(not s.error for _, s in said) > 25, [s.text for _, s in said]
            for line, reply in said:
                problems += await problems_of(club, line, reply.text)
        assert problems == []
    finally:
        await found[0].chat.close()


async def test_a_refusal_names_a_game_by_its_club_number(tmp_path: Path) -> None:
    """The rulebook's refusal at finalisation names the game as members know it (#2), not
    by the id the engine knows it by."""
    found = await clubs(tmp_path, ("tensuusei", "mgsz"))
    tensuusei, mgsz = (club.chat for club in found)
    try:
        for chat in (tensuusei, mgsz):  # the log interleaves the clubs' entries
            await chat.register("Nagy Péter 6k", "Kovács Anna 6k")
            await chat.ok("/result Nagy Péter Kovács Anna B+ date=2026-04-01")
        await mgsz.ok("/tournament new Big rounds=8 C=60")
        await mgsz.ok(
            "/tournament import name=Big\ndate,black,white,result\n"
            "2026-04-20,Nagy Péter,Kovács Anna,W+\n"  # no round: Big is rated in parts
        )
        said = await mgsz.refused("/tournament finalise Big confirm")
        assert said.text.startswith(
            "Game #2 has no round number, but tournament “Big” (C = 60, 8 rounds) is rated in "
            "parts by round (MGSZ §6(3))"
        )
    finally:
        await tensuusei.close()
