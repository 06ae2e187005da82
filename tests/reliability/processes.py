"""Several ``hoshi run`` processes on one database, behind one bot (issue 15, item 3).

The harness of ``tests/reliability/test_processes.py``: real ``python -m bot run`` processes in
Telegram webhook mode, each with its own config file (``webhook_url`` and ``webhook_port``), all
with the same token and the same database, behind the fake Bot API — which is Telegram and the
load balancer at once: it posts each update to one process's webhook (round-robin, or one the
test names) and posts it again to another process when the request fails or is cut
(benchmarks.fake_bot_api).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import socket
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import storage
from engine.ranks import Rank
from storage.db import Database
from tests.fakes import telegram as ft

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 60.0
WEBHOOK_PATH = "/telegram-webhook"
ACK = re.compile(r"Game #(\d+) recorded(?:</b>)?\n\n(.+?) \(B\) – (.+?) \(W\):")
"""A recorded result's answer (English): its club number and the two players."""
PROJECTIONS = {
    "player_state": "club, system, player",
    "rating_history": "club, system, seq, idx",
    "projection_state": "club",
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Process:
    """One ``hoshi run``: its webhook, its log, the running subprocess."""

    index: int
    port: int
    log: Path
    process: asyncio.subprocess.Process | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{WEBHOOK_PATH}"

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.returncode is None

    def tail(self, size: int = 2000) -> str:
        try:
            return self.log.read_bytes()[-size:].decode("utf-8", "replace")
        except FileNotFoundError:
            return ""

    async def kill(self) -> None:
        """SIGKILL, and reap it."""
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGKILL)
        await self.process.wait()

    async def stop(self, timeout: float = START_TIMEOUT_S) -> int:
        """SIGTERM; the exit status."""
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(self.process.wait(), timeout)


def config_text(process: Process) -> str:
    """The process's config file: its own webhook (a load balancer would share one public
    ``webhook_url`` and reach each process at its own address and port)."""
    return (
        '[hoshi]\nlog_level = "DEBUG"\n\n'
        "[telegram]\n"
        f'webhook_url = "{process.url}"\n'
        'webhook_listen = "127.0.0.1"\n'
        f"webhook_port = {process.port}\n"
    )


async def start(work: Path, target: str, api: ft.FakeBotApi, count: int) -> list[Process]:
    """``count`` ``hoshi run`` processes on ``target`` behind ``api``; returns once every one
    has set its webhook."""
    processes = []
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(work),
        "PYTHONPATH": str(ROOT),
        "PYTHONDONTWRITEBYTECODE": "1",
        "TELEGRAM_TOKEN": ft.TOKEN,
        "TELEGRAM_API_BASE_URL": api.base_url,
        "TELEGRAM_FILE_BASE_URL": api.file_base_url,
    }
    for index in range(count):
        process = Process(index, free_port(), work / f"hoshi-{index}.log")
        config = work / f"hoshi-{index}.toml"
        config.write_text(config_text(process), "utf-8")
        with process.log.open("ab") as log:
            process.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                "run",
                "--config",
                str(config),
                "--db",
                target,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                env=env,
                cwd=work,
            )
        processes.append(process)
    try:
        await until(lambda: all(p.url in api.webhooks for p in processes), processes, "webhooks")
    except BaseException:
        for process in processes:
            await process.kill()
        raise
    # the pool in the processes' order, whichever set its webhook first
    api.webhooks.sort(key=lambda url: [p.url for p in processes].index(url))
    return processes


async def until(
    condition: Callable[[], bool],
    processes: list[Process],
    what: str,
    timeout: float = START_TIMEOUT_S,
) -> None:
    """Poll ``condition`` until it holds; fail if a process that should run has exited."""
    deadline = time.monotonic() + timeout
    while not condition():
        for process in processes:
            if process.process is not None and process.process.returncode not in (None, -9):
                raise RuntimeError(
                    f"hoshi {process.index} exited ({process.process.returncode}) before "
                    f"{what}: {process.tail()}"
                )
        if time.monotonic() > deadline:
            tails = "\n".join(f"--- {p.index}\n{p.tail(800)}" for p in processes)
            raise TimeoutError(f"no {what} within {timeout} s\n{tails}")
        await asyncio.sleep(0.01)


def catch_ups(process: Process) -> int:
    """How many times the process's follower caught its ledgers up with another process's
    writes (storage.follow logs each at DEBUG)."""
    try:
        text = process.log.read_text("utf-8", "replace")
    except FileNotFoundError:
        return 0
    return len(re.findall(r"follow: club \d+ caught up", text))


def answer_to(api: ft.FakeBotApi, message_id: int) -> ft.Call | None:
    """The first message the bot sent quoting ``message_id``."""
    for call in api.sent("sendMessage"):
        if (call.params.get("reply_parameters") or {}).get("message_id") == message_id:
            return call
    return None


def message_id(update: dict[str, Any]) -> int:
    return int(update["message"]["message_id"])


async def answered(
    api: ft.FakeBotApi,
    updates: list[dict[str, Any]],
    processes: list[Process],
    what: str,
    timeout: float = START_TIMEOUT_S,
) -> list[ft.Call]:
    """Wait until every update has an answer; the answers, in the updates' order."""
    ids = [message_id(u) for u in updates]
    await until(lambda: all(answer_to(api, i) for i in ids), processes, what, timeout)
    return [call for i in ids if (call := answer_to(api, i)) is not None]


# --- the database, read by the test ----------------------------------------------------------


@dataclass
class Games:
    """The club's games as stored: (black name, white name) per club number."""

    by_number: dict[int, tuple[str, str]] = field(default_factory=dict)
    pairs: Counter[tuple[str, str]] = field(default_factory=Counter)
    numbers: Counter[int] = field(default_factory=Counter)


async def stored_games(db: Database, club: int) -> Games:
    rows = await db.fetchall(
        "SELECT g.number, b.name, w.name FROM games g JOIN players b ON b.seq = g.black "
        "JOIN players w ON w.seq = g.white WHERE g.club = ? ORDER BY g.seq",
        (club,),
    )
    games = Games()
    for number, black, white in rows:
        games.by_number[int(number)] = (black, white)
        games.pairs[(black, white)] += 1
        games.numbers[int(number)] += 1
    return games


async def projections(db: Database) -> dict[str, list[Any]]:
    """Every club's stored projections, each system's (the shadows caught up first)."""
    for club in await storage.clubs(db):
        await storage.every_system(db, club)
    return {
        table: await db.fetchall(f"SELECT * FROM {table} ORDER BY {order}")
        for table, order in PROJECTIONS.items()
    }


async def replay_differs(db: Database) -> list[str]:
    """Replay every club; the stored projections must not change."""
    stored = await projections(db)
    for club in await storage.clubs(db):
        await storage.replay_club(db, club)
    replayed = await projections(db)
    return [
        f"{table}: the stored projections differ from a replay "
        f"({len(stored[table])} rows stored, {len(replayed[table])} replayed)"
        for table in PROJECTIONS
        if stored[table] != replayed[table]
    ]


async def arrange(target: str, organisers: list[dict[str, Any]]) -> int:
    """A club speaking English, bound to each organiser's private chat; its id."""
    db = await storage.open_db(target)
    try:
        club = await storage.create_club(db, "Several Processes", "tensuusei", actor="test")
        await storage.set_setting(db, club, "language", "en", actor="test")
        for organiser in organisers:
            await storage.bind_chat(db, club, "telegram", str(organiser["id"]), actor="test")
        return club.id
    finally:
        await db.close()


def register_line(name: str, rank: Rank) -> str:
    return f'/register "{name}" {rank}'
