"""Several processes, one club (issue 15, item 3).

Three real ``hoshi run`` processes in webhook mode on one database behind the fake Bot API,
which is Telegram and a load balancer at once (tests/reliability/processes.py). Results are
posted to all three at once and one process is killed (SIGKILL) while it is writing: every
result whose answer was sent is stored exactly once, no result twice (an update the killed
process left unanswered is posted again to another process, and the deliveries table makes it
act once), and every process left answers ``/rating`` with the same numbers within a second
of the last write.

Beside it, in-process checks of the pieces: ``hoshi run`` follows the log (storage.follow);
the processes of one bot share its webhook's secret; a webhook answers Telegram only once it
has handled the update.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import random
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from telegram import Update
from telegram.ext import ContextTypes, TypeHandler

import storage
from bot.adapters.telegram import TelegramAdapter
from bot.config import Config, TelegramConfig
from bot.core.app import Core
from bot.run import Bots, run_bots
from engine.ranks import Rank
from engine.types import Result
from storage.follow import Follower
from tests.conftest import PgDatabases
from tests.fakes import telegram as ft
from tests.fakes.listener import FakeListener
from tests.reliability import processes as several
from tests.reliability.conftest import ADMIN, GROUP, TODAY, Clock, make_club, open_core

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")

PLAYERS = ("Nagy Péter", "Kovács Anna")
PLAYER = ft.user(202, "Péter", "Nagy")


@pytest.fixture(params=["postgresql", "sqlite"])
async def target(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The database every process opens: a fresh one in the session's throw-away PostgreSQL
    cluster (tests/conftest.py; skipped, saying what to install, only without PostgreSQL's
    binaries), or one SQLite file (several processes on one file work too, less fast)."""
    if request.param == "sqlite":
        yield str(tmp_path / "hoshi.sqlite")
        return
    databases: PgDatabases = request.getfixturevalue("pg_databases")
    url = await databases.create()
    try:
        yield url
    finally:
        await databases.drop(url)


# --- hoshi run follows the log ---------------------------------------------------------------


async def test_hoshi_run_follows_what_another_process_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "hoshi.sqlite"
    arranging = await storage.open_db(path)
    try:
        club = await make_club(arranging, players=PLAYERS)
    finally:
        await arranging.close()
    notices = FakeListener()
    started: list[Follower] = []
    real = storage.follow

    async def with_notices(db: storage.Database, **options: Any) -> Follower:
        monkeypatch.setattr(db, "listen", notices.listen, raising=False)
        follower = await real(db, **options)
        started.append(follower)
        return follower

    monkeypatch.setattr(storage, "follow", with_notices)
    monkeypatch.setenv("TELEGRAM_TOKEN", ft.TOKEN)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    stop = asyncio.Event()
    async with ft.FakeBotApi() as api:
        api.admins[GROUP["id"]] = {ADMIN["id"]}
        config = Config(
            db_path=path,
            telegram=TelegramConfig(api_base_url=api.base_url, file_base_url=api.file_base_url),
        )
        running: list[Bots] = []
        ready = asyncio.Event()

        def on_started(bots: Bots) -> None:
            running.append(bots)
            ready.set()

        task = asyncio.create_task(
            run_bots(config, stop=stop, on_started=on_started, err=io.StringIO())
        )
        try:
            await asyncio.wait_for(ready.wait(), 30)
            await follows(api, running[0], started, club, path, notices)
        finally:
            stop.set()
            code = await asyncio.wait_for(task, 10)
        assert code == 0
    assert notices.closed == 1  # stopped with the bot


async def follows(
    api: ft.FakeBotApi,
    bots: Bots,
    started: list[Follower],
    club: storage.Club,
    path: Path,
    notices: FakeListener,
) -> None:
    """A write through the bot caches the club's ledgers; another process writes; its notice
    catches this process's ledgers up."""
    assert bots.follower is not None and started == [bots.follower]
    api.command(f'/result "{PLAYERS[0]}" "{PLAYERS[1]}" B+', GROUP, ADMIN)
    await api.wait_for("sendMessage")
    db = bots.core.db
    assert club.id in db.projections.ledgers  # the write cached the club's ledgers
    other = await storage.open_db(path)  # another process writes a game
    try:
        black, white = [(await storage.find_player(other, club, n)).player for n in PLAYERS]
        assert black is not None and white is not None
        played = storage.new_game(
            white.id, black.id, Result.BLACK, stones=0, komi=Fraction(13, 2), date=TODAY
        )
        await storage.record_game(other, club, played, actor="test")
        row = await other.fetchone("SELECT MAX(seq) FROM log WHERE club = ?", (club.id,))
        assert row is not None
        seq = int(row[0])
    finally:
        await other.close()
    assert db.projections.ledgers[club.id].last_seq < seq
    notices.send(club.id, seq)  # what PostgreSQL says at the other process's commit
    await asyncio.wait_for(bots.follower.settled(), 10)
    assert db.projections.ledgers[club.id].last_seq == seq


# --- webhooks for several processes ----------------------------------------------------------


@asynccontextmanager
async def webhook_bots(
    core: Core, api: ft.FakeBotApi, count: int
) -> AsyncIterator[list[TelegramAdapter]]:
    """``count`` adapters of one bot in webhook mode (each as its own process would run it)."""
    adapters = []
    try:
        for _ in range(count):
            port = several.free_port()
            config = TelegramConfig(
                api_base_url=api.base_url,
                file_base_url=api.file_base_url,
                webhook_url=f"http://127.0.0.1:{port}/hook",
                webhook_port=port,
            )
            adapter = TelegramAdapter(core, ft.TOKEN, config, rate_limiter=False)
            await adapter.start()
            adapters.append(adapter)
        yield adapters
    finally:
        for adapter in adapters:
            await adapter.stop()


async def test_the_processes_of_one_bot_share_its_webhook_secret(tmp_path: Path) -> None:
    """Telegram keeps one secret per bot and sends it to whichever process the load balancer
    picks: a process that made up its own would refuse every update meant for it."""
    core = await open_core(tmp_path / "hoshi.sqlite", Clock())
    try:
        await make_club(core.db, players=PLAYERS)
        async with ft.FakeBotApi() as api, webhook_bots(core, api, 2):
            assert len(api.webhooks) == 2
            updates = [api.command("/help", GROUP, PLAYER, to=to) for to in (0, 1)]
            await api.settled()
            assert [(p.url, p.outcome) for p in api.posts] == [(u, 200) for u in api.webhooks]
            assert all(several.answer_to(api, several.message_id(u)) for u in updates)
    finally:
        await core.db.close()


async def test_a_webhook_answers_telegram_only_once_the_update_is_handled(
    tmp_path: Path,
) -> None:
    """A process killed while handling leaves Telegram's request unanswered, so Telegram
    delivers the update again (to another process): the answer must not come first."""
    core = await open_core(tmp_path / "hoshi.sqlite", Clock())
    entered, release = asyncio.Event(), asyncio.Event()

    async def slow(_update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        entered.set()
        await release.wait()

    try:
        await make_club(core.db, players=PLAYERS)
        async with ft.FakeBotApi() as api, webhook_bots(core, api, 1) as (adapter,):
            adapter.application.add_handler(TypeHandler(Update, slow), group=-2)
            update = api.command("/help", GROUP, PLAYER)
            try:
                await asyncio.wait_for(entered.wait(), 10)
                # a webhook that answers before handling has answered by now; this one has not
                with pytest.raises(TimeoutError):
                    await api.wait_for(lambda _: bool(api.posts), timeout=0.5)
            finally:
                released = time.monotonic()
                release.set()
            await api.settled()
            (post,) = api.posts
            assert post.delivered and post.at >= released
            answer = several.answer_to(api, several.message_id(update))
            assert answer is not None and answer.at <= post.at
    finally:
        await core.db.close()


# --- three processes, one killed -------------------------------------------------------------

PROCESSES = 3
ORGANISERS = [ft.user(700 + i, f"Organiser{i}") for i in range(4)]
NAMES = [f"{first} Tag{i:02d}" for i, first in enumerate(("Ádám", "Éva", "Péter", "Réka") * 3)]
RESULTS = 48
OUTCOMES = ("B+", "W+", "B+R", "W+3.5", "jigo")


async def test_three_processes_one_killed_mid_write_act_once_and_agree(
    tmp_path: Path, target: str
) -> None:
    began = time.monotonic()
    rng = random.Random(15)
    club = await several.arrange(target, ORGANISERS)
    chats = [ft.private(o) for o in ORGANISERS]
    async with ft.FakeBotApi() as api:
        procs = await several.start(tmp_path, target, api, PROCESSES)
        try:
            # players registered through all three processes at once
            registrations = [
                api.command(
                    several.register_line(name, Rank.kyu(8)),
                    chats[i % len(chats)],
                    ORGANISERS[i % len(chats)],
                    to=i % PROCESSES,
                )
                for i, name in enumerate(NAMES)
            ]
            answers = await several.answered(api, registrations, procs, "registrations")
            assert all("Registered" in a.params["text"] for a in answers), [
                a.params["text"] for a in answers
            ]

            # results posted to all three at once; the first process is killed mid-write
            # each two players meet once (one game entered twice would be asked about)
            pairs = [tuple(rng.sample(pair, 2)) for pair in itertools.combinations(NAMES, 2)]
            rng.shuffle(pairs)
            posted: dict[int, tuple[str, ...]] = {}  # message id → (black, white)
            victim = procs[0]
            # one result the first process records and never finishes answering: killed, it
            # leaves Telegram's request open, and the process that gets it again must not act
            black, white = pairs[0]
            acted = api.command(f'/result "{black}" "{white}" B+', chats[0], ORGANISERS[0], to=0)
            api.stalled.add(several.message_id(acted))
            posted[several.message_id(acted)] = (black, white)

            async def post_results() -> None:
                for n in range(1, RESULTS):
                    black, white = pairs[n]
                    chat = n % len(chats)
                    update = api.command(
                        f'/result "{black}" "{white}" {rng.choice(OUTCOMES)}',
                        chats[chat],
                        ORGANISERS[chat],
                    )
                    posted[several.message_id(update)] = (black, white)
                    await asyncio.sleep(0.01)

            posting = asyncio.create_task(post_results())
            # the kill: once results flow and the victim has requests under way
            await several.until(
                lambda: (
                    len(posted) >= RESULTS // 3
                    and api.in_flight[victim.url] > 1
                    and several.answer_to(api, several.message_id(acted)) is not None
                ),
                procs,
                "writes under way in the first process",
            )
            await victim.kill()
            await posting
            await api.settled(timeout=60)
            survivors = [p for p in procs if p is not victim]
            given_up = [p for p in api.posts if not p.url]
            assert given_up == [], f"updates never delivered: {given_up}"
            redelivered = api.redelivered()
            cut = {p.update_id for p in api.posts if p.url == victim.url and not p.delivered}
            assert cut, "the kill cut no request: nothing was under way"
            assert cut <= redelivered  # every update the killed process left was posted again

            # every result acted on exactly once; every answered one by its game number
            db = await storage.open_db(target)
            try:
                games = await several.stored_games(db, club)
                assert [k for k, n in games.pairs.items() if n > 1] == []
                assert [k for k, n in games.numbers.items() if n > 1] == []
                assert sorted(games.pairs) == sorted(posted.values())  # none lost, none extra
                acknowledged = 0
                for message, pair in posted.items():
                    answer = several.answer_to(api, message)
                    assert answer is not None, f"result {pair} was never answered"
                    found = several.ACK.search(answer.params["text"])
                    if found is None:  # handled by the killed process, answered on the retry
                        assert "already handled" in answer.params["text"], answer.params["text"]
                        continue
                    acknowledged += 1
                    number, black, white = int(found[1]), found[2], found[3]
                    assert (black, white) == pair
                    assert games.by_number[number] == pair
                assert acknowledged >= RESULTS - len(cut)
                # the result the killed process had recorded: once, and said so on the retry
                again = [
                    call.params["text"]
                    for call in api.sent("sendMessage")
                    if (call.params.get("reply_parameters") or {}).get("message_id")
                    == several.message_id(acted)
                ]
                assert len(again) == 2 and several.ACK.search(again[0]), again
                assert "already handled" in again[1], again
                assert games.pairs[pairs[0]] == 1
            finally:
                await db.close()

            # the last write, then every process left answers /rating alike within a second
            black, white = pairs[RESULTS]
            name = black
            written = time.monotonic()
            final = api.command(f'/result "{black}" "{white}" B+', chats[0], ORGANISERS[0])
            (ack,) = await several.answered(api, [final], procs, "the last write")
            assert several.ACK.search(ack.params["text"]), ack.params["text"]
            db = await storage.open_db(target)
            try:
                row = await db.fetchone(
                    "SELECT COUNT(*) FROM games g JOIN players p ON p.seq IN (g.black, g.white) "
                    "WHERE g.club = ? AND p.name = ?",
                    (club, name),
                )
                assert row is not None
                expected = f"{row[0]} rated games"
            finally:
                await db.close()
            rounds = 0
            while True:
                rounds += 1
                asked = [
                    api.command(f'/rating "{name}"', chats[1], ORGANISERS[1], to=p.index)
                    for p in survivors
                ]
                said = [
                    a.params["text"] for a in await several.answered(api, asked, procs, "/rating")
                ]
                if len(set(said)) == 1 and expected in said[0]:
                    break
                assert time.monotonic() - written < 5, said
            agreed = time.monotonic()
            print(
                f"\nseveral processes: {RESULTS} results, {len(cut)} requests cut by the kill, "
                f"{len(redelivered)} updates posted again, {acknowledged} acknowledged; "
                f"all {len(survivors)} processes left agree {agreed - written:.3f} s after the "
                f"last write was posted ({agreed - ack.at:.3f} s after its answer), "
                f"{rounds} round(s) of /rating"
            )
            assert agreed - written <= 1.0
            # the ledgers in each process's memory agree too (/rating NAME all reads them)
            asked = [
                api.command(f'/rating "{name}" all', chats[1], ORGANISERS[1], to=p.index)
                for p in survivors
            ]
            said = [
                a.params["text"] for a in await several.answered(api, asked, procs, "/rating all")
            ]
            assert len(set(said)) == 1, said
            for process in survivors:
                assert await process.stop() == 0, process.tail()
            folds = [several.catch_ups(p) for p in survivors]
            print(f"  catch-ups by the followers of the processes left: {folds}")
            if not target.endswith(".sqlite"):  # PostgreSQL's notices: each one followed
                assert all(folds), folds
        finally:
            for process in procs:
                if process.alive:
                    await process.kill()
    db = await storage.open_db(target)
    try:
        assert await several.replay_differs(db) == []
    finally:
        await db.close()
    assert time.monotonic() - began < 90
