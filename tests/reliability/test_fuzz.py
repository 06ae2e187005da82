"""Fuzzing the command core (issue 6/6, item 1), in CI sizes.

Hypothesis feeds lines (tests/reliability/strategies.py) to :meth:`Core.handle` and, for a
smaller number, to the real Telegram adapter talking to the fake Bot API. Found crashes — a
"Something went wrong (ref …)" is one — fail the test with the minimal line and the logged
traceback. ``python -m benchmarks.fuzz`` runs 100,000 lines.
"""

from __future__ import annotations

import asyncio
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import storage
from bot.adapters.telegram.rendering import CAPTION_LIMIT, MESSAGE_LIMIT, visible_length
from bot.i18n import LANGUAGES
from tests.fakes import telegram as ft
from tests.reliability.conftest import telegram_on
from tests.reliability.fuzzing import CRASH, Fuzzer, TelegramHtml
from tests.reliability.strategies import Line, fuzzed_lines

CORE_EXAMPLES = 600
LANGUAGE_EXAMPLES = 200  # each other language: the same lines, answered in it
TELEGRAM_EXAMPLES = 60


@pytest.mark.parametrize("language", LANGUAGES)
def test_fuzzed_lines_never_crash_the_core(language: str, tmp_path: Path) -> None:
    """In every language the bot speaks: a translation with a broken placeholder or a reply
    that grows past a platform's limit in Japanese or Polish is found here."""
    examples = CORE_EXAMPLES if language == "en" else LANGUAGE_EXAMPLES
    loop = asyncio.new_event_loop()
    fuzzer = loop.run_until_complete(Fuzzer.open(tmp_path / "fuzz.sqlite", language))
    try:

        @settings(
            max_examples=examples,
            deadline=None,
            database=None,
            derandomize=True,  # the same lines every run: CI never flakes; the benchmark explores
            suppress_health_check=list(HealthCheck),
        )
        @given(fuzzed_lines())
        def one_line(line: Any) -> None:
            problems = loop.run_until_complete(fuzzer.feed(line))
            assert not problems, "\n".join(problems)

        one_line()
        assert loop.run_until_complete(fuzzer.finish(tmp_path)) == []
        found = fuzzer.found
        print(f"{found.inputs} lines fuzzed: {dict(found.replies)}, {len(found.crashes)} crashes")
        assert found.replies["ok"] > examples // 20  # the lines get past the first check
    finally:
        loop.run_until_complete(fuzzer.close())
        loop.close()


def sent_problems(call: ft.Call) -> list[str]:
    """A Bot API call as Telegram would check it: length after parsing, only hoshi's tags."""
    text = call.params.get("text") or call.params.get("caption") or ""
    limit = MESSAGE_LIMIT if "text" in call.params else CAPTION_LIMIT
    problems = []
    parser = TelegramHtml()
    parser.feed(text)
    parser.close()
    problems += parser.errors
    if parser.stack:
        problems.append(f"<{parser.stack[-1]}> never closed")
    shown = visible_length(unescape(re.sub(r"</?(b|i|pre|code)>", "", text)))
    if shown > limit:
        problems.append(f"{call.method} of {shown} characters")
    if call.method == "sendMessage" and not unescape(re.sub(r"<[^>]*>", "", text)).strip():
        problems.append("an empty message")
    if CRASH.search(text):
        problems.append("a crash")
    return [f"{call.method}: {p}: {text[:200]!r}" for p in problems]


def test_fuzzed_messages_through_the_telegram_adapter(tmp_path: Path) -> None:
    """The same lines as Telegram messages (with documents): PTB parses them, the adapter
    renders the answers, the fake Bot API receives them."""
    loop = asyncio.new_event_loop()
    fuzzer = loop.run_until_complete(Fuzzer.open(tmp_path / "fuzz.sqlite"))
    api = ft.FakeBotApi()
    loop.run_until_complete(api.__aenter__())
    api.admins[-1001] = {100}
    bot_context = telegram_on(fuzzer.core, api)
    bot = loop.run_until_complete(bot_context.__aenter__())
    users = {"admin": 100, "organiser": 200, "linked": 300, "player": 400}
    try:

        @settings(
            max_examples=TELEGRAM_EXAMPLES,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
        @given(fuzzed_lines(), st.sampled_from(sorted(users)))
        def one_message(line: Any, role: str) -> None:
            text = f"/{line.command} {line.text}".strip()
            sender = ft.user(users[role], role.title())
            document = (
                (line.filename or "table.txt", line.attachment)
                if line.attachment is not None
                else None
            )
            before = len(api.calls)

            async def send() -> None:
                update = api.message(text, ft.group(-1001), sender, document=document)
                await bot.processed(update, timeout=30)

            loop.run_until_complete(send())
            problems = [p for c in api.calls[before:] for p in sent_problems(c)]
            assert not problems, f"{line!r}:\n" + "\n".join(problems)

        one_message()
        assert loop.run_until_complete(fuzzer.finish(tmp_path)) == []
        assert loop.run_until_complete(storage.clubs(fuzzer.db))
    finally:
        loop.run_until_complete(bot_context.__aexit__(None, None, None))
        loop.run_until_complete(api.close())
        loop.run_until_complete(fuzzer.close())
        loop.close()


# --- what fuzzing found: each stays fixed ----------------------------------------------------

FOUND = {
    # a CJK name: matplotlib warned for each glyph its font lacks (an error under the suite)
    "cjk-chart": [("chart", "李 明")],
    # a "$" in a name started matplotlib mathtext; a malformed one raised
    "mathtext-chart": [("register", '"Dollár $\\frac$" 5k'), ("chart", '"Dollár $\\frac$"')],
    "mathtext-marker": [
        ("tournament", 'new "Kupa $\\x$" rounds=1 C=20'),
        ("tournament", 'result 1 Nagy Péter "Kovács Anna" B+ t="Kupa $\\x$"'),
        ("tournament", "finalise Kupa $\\x$"),
        ("chart", "Nagy Péter"),
    ],
    # "/weekly on off": an assert on parse_weekly's None
    "weekly-on-off": [("weekly", "on off")],
    # /club komi took any number; a huge one overflowed SQLite's integer on every even game
    "huge-club-komi": [
        ("club", "komi 99999999999999999999"),
        ("result", "Nagy Péter Tóth Ádám B+"),
    ],
    # the console's /tick: to the year 9999 ran for hours; a huge duration overflowed
    "tick-to-9999": [("tick", "9999-12-31 23:59", "console")],
    "tick-overflow": [("tick", "99999999999999999999d", "console")],
    # the 100,000-line run: '³' passed str.isdigit() and int() refused it
    "superscript-time": [("multiplier", "³ world even >80")],
    # a time of day that looks like one: 25:00 passed the pattern and dt.time refused it
    "hour-25": [
        ("tournament", 'new "Kupa" rounds=1 C=20'),
        ("tournament", "schedule Kupa 2030-01-01 25:00"),
    ],
}


@pytest.mark.parametrize("lines", list(FOUND.values()), ids=list(FOUND))
async def test_what_fuzzing_found_stays_fixed(
    tmp_path: Path, lines: list[tuple[str, ...]]
) -> None:
    fuzzer = await Fuzzer.open(tmp_path / "fuzz.sqlite")
    try:
        for command, text, *where in lines:
            platform = where[0] if where else "telegram"
            line = Line(command, text, "admin", platform, None, None, False, 60)
            assert await fuzzer.feed(line) == []
        assert fuzzer.found.crashes == []
    finally:
        await fuzzer.close()


async def test_stored_projections_equal_a_replay_when_time_moves_on(tmp_path: Path) -> None:
    """Found by fuzzing (the end-of-run replay check): registering a player years later."""
    import datetime as dt

    from engine.ranks import Rank

    db = await storage.open_db(tmp_path / "psg.sqlite")
    try:
        club = await storage.create_club(db, "C", "psg", actor="t:1")
        first = await storage.register_player(
            db, club, "Kiss Béla", Rank.kyu(8), date=dt.date(2026, 1, 9), actor="t:1"
        )
        await storage.register_player(
            db, club, "Later One", Rank.kyu(8), date=dt.date(2029, 7, 21), actor="t:1"
        )
        sql = "SELECT card FROM player_state WHERE club = ? AND system = 'psg' AND player = ?"
        stored = await db.fetchone(sql, (club.id, first.id))
        await storage.replay_club(db, club)
        assert await db.fetchone(sql, (club.id, first.id)) == stored
    finally:
        await db.close()
