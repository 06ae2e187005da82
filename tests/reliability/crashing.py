"""The crash harness (issue 6/6, item 2): hoshi as a subprocess, killed with SIGKILL at random
moments while results are posted, restarted, and checked after every kill.

Three scenes, each a function returning :class:`Figures`:

* :func:`console_scene` — ``hoshi console`` reading results from a pipe; the harness reads the
  replies. The console has no redelivery: a line not answered before the kill is not sent
  again, so it must be present at most once, and every answered line exactly once.
* :func:`telegram_scene` — ``hoshi run`` with the Telegram adapter, long-polling a fake Bot API
  in this process (``TELEGRAM_API_BASE_URL``), results posted concurrently to several chats.
  After every kill the fake delivers again what it had handed to the killed process in its
  last second, and some earlier updates (Telegram's at-least-once, at its worst): the bot must
  act on each exactly once. The adapter confirms an update only once it is handled, so at the
  end every posted result is present exactly once (``dropped`` counts those that are not).
* :func:`scheduler_scene` — ``hoshi console --clock`` starting with a backlog of due work (days
  to settle, a tournament to finalise, weekly summaries), killed during the start-up sweep.

After every kill: ``PRAGMA integrity_check`` and ``foreign_key_check`` pass, every acknowledged
result is present exactly once, nothing is present twice, and the stored projections equal a
replay of the log (checked on a copy: the projection tables are read raw before hoshi's storage
opens the file, then the copy is replayed and compared).

Used by ``tests/reliability/test_crash.py`` (a few kills) and ``benchmarks/crash.py`` (many).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import math
import os
import random
import re
import shutil
import signal
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

import storage
from engine.ranks import Rank
from engine.types import Result as Outcome
from tests.fakes import telegram as ft

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 60.0
PROJECTION_TABLES = ("player_state", "rating_history", "projection_state")
Say = Callable[[str], None]


@dataclass
class Figures:
    """What a scene did and found."""

    scene: str
    kills: int = 0
    posted: int = 0
    acknowledged: int = 0
    present: int = 0
    lost: int = 0  # acknowledged but not present
    doubled: int = 0  # present more than once
    redelivered: int = 0  # updates delivered again after a kill
    dropped: int = 0  # never acknowledged, never recorded (killed before acting on it)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    unit: str = "results"

    def line(self) -> str:
        return (
            f"{self.scene}: {self.kills} kills survived, {self.posted} {self.unit} posted, "
            f"{self.acknowledged} acknowledged, {self.present} present, {self.lost} lost, "
            f"{self.doubled} applied twice, {self.redelivered} deliveries repeated, "
            f"{self.dropped} unanswered and not recorded, "
            f"{len(self.problems)} problems ({self.seconds:.0f} s)"
        )


def environment(home: Path, **extra: str) -> dict[str, str]:
    """A clean environment: HOME in the scene's folder (no user config or database)."""
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "PYTHONPATH": str(ROOT),
        "PYTHONDONTWRITEBYTECODE": "1",
        **extra,
    }


async def spawn(
    args: list[str], home: Path, env: dict[str, str], *, stdin: bool
) -> asyncio.subprocess.Process:
    """``python -m bot ARGS``; its log (standard error) is appended to ``home/hoshi.log``
    (a pipe nobody reads would fill up and stop the bot)."""
    with (home / "hoshi.log").open("ab") as log:
        log.write(f"--- hoshi {' '.join(args)}\n".encode())
        log.flush()
        return await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            *args,
            stdin=asyncio.subprocess.PIPE if stdin else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=log,
            env=env,
            cwd=home,
        )


def log_tail(home: Path, size: int = 1500) -> str:
    """The end of the log the scene's processes wrote."""
    try:
        return (home / "hoshi.log").read_bytes()[-size:].decode("utf-8", "replace")
    except FileNotFoundError:
        return ""


async def kill(process: asyncio.subprocess.Process) -> None:
    """SIGKILL, and reap it."""
    with contextlib.suppress(ProcessLookupError):
        process.send_signal(signal.SIGKILL)
    await process.wait()


# --- checking a database after a kill ------------------------------------------------------


def opened(path: Path) -> contextlib.closing[sqlite3.Connection]:
    """A connection to ``path`` closed at the end of the ``with`` block (``sqlite3.connect``'s
    own ``with`` only commits: the connection would stay open until the garbage collector
    runs, and with it the copy's WAL and the moment of its checkpoint)."""
    return contextlib.closing(sqlite3.connect(path))


def raw_projections(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    with opened(path) as con:
        return {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall()) for t in PROJECTION_TABLES}


def sqlite_problems(path: Path) -> list[str]:
    with opened(path) as con:
        problems = [r[0] for r in con.execute("PRAGMA integrity_check") if r[0] != "ok"]
        problems += [f"foreign key: {r!r}" for r in con.execute("PRAGMA foreign_key_check")]
    return problems


async def replay_differs(path: Path, scratch: Path) -> list[str]:
    """Replay every club of a copy of ``path``; the projections must come out the same."""
    copy = scratch / "replay.sqlite"
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            copy.with_name(copy.name + suffix).unlink()
    with opened(path) as source, opened(copy) as target:
        source.backup(target)  # a consistent copy, the WAL included
    db = await storage.open_db(copy)
    try:  # the shadows caught up first, as any reader of every system does
        for club in await storage.clubs(db):
            await storage.every_system(db, club)
    finally:
        await db.close()
    stored = raw_projections(copy)
    db = await storage.open_db(copy)
    try:
        for club in await storage.clubs(db):
            await storage.replay_club(db, club)
    finally:
        await db.close()
    replayed = raw_projections(copy)
    return [
        f"{table}: stored projections differ from a replay "
        f"({len(stored[table])} rows stored, {len(replayed[table])} replayed)"
        for table in PROJECTION_TABLES
        if stored[table] != replayed[table]
    ]


def game_pairs(path: Path) -> Counter[tuple[int, str, str]]:
    """(club, black name, white name) of every game, counted."""
    with opened(path) as con:
        rows = con.execute(
            "SELECT g.club, b.name, w.name FROM games g JOIN players b ON b.seq = g.black "
            "JOIN players w ON w.seq = g.white"
        ).fetchall()
    return Counter((club, black, white) for club, black, white in rows)


@dataclass(frozen=True, slots=True)
class Result:
    """One posted result: which club, which pair (each pair is posted once per scene)."""

    club: int
    black: str
    white: str

    @property
    def key(self) -> tuple[int, str, str]:
        return (self.club, self.black, self.white)


async def check_after_kill(
    figures: Figures,
    path: Path,
    scratch: Path,
    posted: list[Result],
    acknowledged: set[Result],
    *,
    when: str,
    replay: bool = True,
) -> Counter[tuple[int, str, str]]:
    """The invariants; problems are added to ``figures``. Returns the pairs present."""
    problems = [f"{when}: {p}" for p in sqlite_problems(path)]
    present = game_pairs(path)
    known = {r.key for r in posted}
    for key, count in present.items():
        if key not in known:
            problems.append(f"{when}: a game nobody posted: {key}")
        elif count > 1:
            problems.append(f"{when}: {key} is present {count} times")
    for result in acknowledged:
        if present[result.key] != 1:
            problems.append(f"{when}: acknowledged {result.key} is present {present[result.key]}")
    if replay and not problems:
        problems += [f"{when}: {p}" for p in await replay_differs(path, scratch)]
    figures.problems.extend(problems)
    return present


def final_counts(
    figures: Figures,
    present: Counter[tuple[int, str, str]],
    posted: list[Result],
    acknowledged: set[Result],
) -> None:
    figures.posted = len(posted)
    figures.acknowledged = len(acknowledged)
    figures.present = sum(1 for r in posted if present[r.key] >= 1)
    figures.lost = sum(1 for r in acknowledged if present[r.key] == 0)
    figures.doubled = sum(1 for count in present.values() if count > 1)


# --- arranging clubs -----------------------------------------------------------------------


def player_names(club: int, count: int) -> list[str]:
    """Distinct two-word names (accents included), never a prefix of one another."""
    first = ("Ádám", "Éva", "Péter", "Réka", "Zoltán", "Anna", "Bence", "Dóra")
    return [f"{first[i % len(first)]}{i:03d} Klub{club}" for i in range(count)]


async def arrange(
    path: Path, clubs: list[tuple[str, str, list[tuple[str, str]]]], players: int
) -> list[tuple[int, list[str]]]:
    """Clubs ``(name, system, chats)`` with ``players`` each (8k, registered a month ago);
    returns ``(club id, names)``."""
    made = []
    db = await storage.open_db(path)
    try:
        for number, (name, system, chats) in enumerate(clubs, start=1):
            club = await storage.create_club(db, name, system, actor="console:local")
            # the harness reads the answers' English ("Game #12 recorded")
            await storage.set_setting(db, club, "language", "en", actor="console:local")
            for platform, chat_id in chats:
                await storage.bind_chat(db, club, platform, chat_id, actor="console:local")
            names = player_names(number, players)
            joined = dt.date.today() - dt.timedelta(days=30)
            for player in names:
                await storage.register_player(
                    db, club, player, Rank.kyu(8), date=joined, actor="console:local"
                )
            made.append((club.id, names))
    finally:
        await db.close()
    return made


def pairs(rng: random.Random, club: int, names: list[str]) -> list[Result]:
    everyone = [Result(club, a, b) for a in names for b in names if a != b]
    rng.shuffle(everyone)
    return everyone


RESULTS = ("B+", "W+", "B+R", "W+3.5", "jigo")


def result_line(result: Result, rng: random.Random) -> str:
    return f'/result "{result.black}" "{result.white}" {rng.choice(RESULTS)}'


# --- the console scene ---------------------------------------------------------------------

_ACK = re.compile(r"Game #\d+ recorded\n\n(.+?) \(B\) – (.+?) \(W\):")


async def console_scene(
    work: Path, kills: int, *, seed: int = 1, per_run: int = 200, say: Say = print
) -> Figures:
    """``hoshi console`` killed ``kills`` times while answering piped results."""
    began = time.monotonic()
    figures = Figures("console")
    rng = random.Random(seed)
    work.mkdir(parents=True, exist_ok=True)
    path = work / "console.sqlite"
    players = max(40, math.isqrt(per_run * (kills + 2)) + 2)  # a new pair for every result
    ((club, names),) = await arrange(path, [("Console Club", "tensuusei", [])], players)
    queue = pairs(rng, club, names)
    posted: list[Result] = []
    acknowledged: set[Result] = set()
    by_pair = {(r.black, r.white): r for r in queue}
    env = environment(work)
    args = ["console", "--db", str(path), "--club", "Console Club", "--quiet"]
    # how long a whole batch takes, start-up and exit included, measured on a copy
    trial = work / "console-trial.sqlite"
    shutil.copyfile(path, trial)
    started = time.monotonic()
    process = await spawn([*args[:2], str(trial), *args[3:]], work, env, stdin=True)
    assert process.stdin is not None
    process.stdin.write("".join(result_line(r, rng) + "\n" for r in queue[-per_run:]).encode())
    process.stdin.close()
    await asyncio.wait_for(process.communicate(), START_TIMEOUT_S)
    full = time.monotonic() - started
    say(f"  a console run of {per_run} results takes {full:.2f} s")
    for run in range(kills + 1):
        batch, queue = queue[:per_run], queue[per_run:]
        if not batch:
            raise RuntimeError("out of pairs: use more players or fewer kills")
        posted.extend(batch)
        process = await spawn(args, work, env, stdin=True)
        assert process.stdin is not None and process.stdout is not None
        script = "".join(result_line(r, rng) + "\n" for r in batch).encode("utf-8")
        process.stdin.write(script)
        with contextlib.suppress(ConnectionError):
            await process.stdin.drain()
        process.stdin.close()
        output = asyncio.ensure_future(process.stdout.read())
        last = run == kills
        if last:
            await asyncio.wait_for(process.wait(), START_TIMEOUT_S)
        else:
            # spread the kills over start-up, the answers and the exit
            await asyncio.sleep(rng.uniform(0.35, 1.02) * full)
            await kill(process)
            figures.kills += 1
        text = (await output).decode("utf-8", "replace")
        if last and process.returncode != 0:
            figures.problems.append(f"the last console run failed: {log_tail(work)}")
        answered = {by_pair[(b, w)] for b, w in _ACK.findall(text)}
        acknowledged |= answered
        await check_after_kill(
            figures, path, work, posted, acknowledged, when=f"run {run}", replay=True
        )
        say(
            f"  console run {run}: {len(answered)}/{len(batch)} answered"
            + ("" if last else " before the kill")
        )
    present = game_pairs(path)
    final_counts(figures, present, posted, acknowledged)
    figures.seconds = time.monotonic() - began
    return figures


# --- the Telegram scene --------------------------------------------------------------------


class RedeliveringBotApi(ft.FakeBotApi):
    """The fake Bot API, remembering what it handed to the running bot so that it can deliver
    it again after a kill (:meth:`redeliver`)."""

    def __init__(self) -> None:
        super().__init__()
        self.handed: dict[int, tuple[float, dict[str, Any]]] = {}
        self.polls = 0

    async def _m_getUpdates(self, params: dict[str, Any], files: Any) -> web.Response:
        self.polls += 1
        offset = int(params.get("offset") or 0)
        wait = min(float(params.get("timeout") or 0), ft.MAX_POLL_WAIT_S)
        self._updates = [u for u in self._updates if u["update_id"] >= offset]
        if not self._updates and wait > 0 and not self._closing:
            async with self._changed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(
                        self._changed.wait_for(lambda: bool(self._updates) or self._closing),
                        wait,
                    )
        handed = self._updates[: int(params.get("limit") or 100)]
        now = time.monotonic()
        for update in handed:
            self.handed[update["update_id"]] = (now, update)
        return web.json_response({"ok": True, "result": handed})

    def redeliver(self, rng: random.Random, recent_s: float, earlier: float) -> int:
        """Queue again (same ids, in order) what was handed out in the last ``recent_s``
        seconds — the updates around a crash — and a fraction ``earlier`` of the rest."""
        now = time.monotonic()
        again = [
            json.loads(json.dumps(update))
            for at, update in self.handed.values()
            if now - at <= recent_s or rng.random() < earlier
        ]
        queued = {u["update_id"] for u in self._updates}
        self._updates.extend(u for u in again if u["update_id"] not in queued)
        self._updates.sort(key=lambda u: u["update_id"])
        self.handed.clear()
        return len(again)

    def pending(self) -> int:
        return len(self._updates)


ADMIN = ft.user(101, "Anna", "Admin")


async def telegram_scene(
    work: Path,
    kills: int,
    *,
    seed: int = 2,
    per_run: int = 10,
    chats: int = 4,
    say: Say = print,
) -> Figures:
    """``hoshi run`` (Telegram) killed ``kills`` times while results arrive in ``chats``
    chats at once; every update handed to a killed bot is delivered again.

    After a kill the fake delivers again what the killed bot had not confirmed (as Telegram
    does), and on top of that every update handed to it in its last second and a tenth of the
    earlier ones (at-least-once at its worst). The first chat is a group, the others are
    organisers' private chats bound to their clubs: Telegram lets a bot post only 20 messages a
    minute into one group (PTB's rate limiter keeps to it), so the group gets a tenth of the
    posts.
    """
    began = time.monotonic()
    figures = Figures("telegram")
    rng = random.Random(seed)
    work.mkdir(parents=True, exist_ok=True)
    path = work / "telegram.sqlite"
    systems = ("tensuusei", "mgsz", "swedish", "psg")
    senders = [ADMIN] + [ft.user(500 + i, f"Organiser{i}") for i in range(1, chats)]
    groups = [ft.group(-2000, "Club 0")] + [ft.private(u) for u in senders[1:]]
    made = await arrange(
        path,
        [
            (f"Club {i}", systems[i % len(systems)], [("telegram", str(g["id"]))])
            for i, g in enumerate(groups)
        ],
        max(30, math.isqrt(per_run * (kills + 1) * 2) + 2),  # a new pair for every result
    )
    queues = [pairs(rng, club, names) for club, names in made]
    posted: list[Result] = []
    by_message: dict[int, Result] = {}
    acknowledged: set[Result] = set()
    async with RedeliveringBotApi() as api:
        api.admins[groups[0]["id"]] = {ADMIN["id"]}
        env = environment(
            work,
            TELEGRAM_TOKEN=ft.TOKEN,
            TELEGRAM_API_BASE_URL=api.base_url,
            TELEGRAM_FILE_BASE_URL=api.file_base_url,
        )
        args = ["run", "--db", str(path)]

        def post(chat: int) -> None:
            result = queues[chat].pop()
            update = api.message(result_line(result, rng), groups[chat], senders[chat])
            by_message[update["message"]["message_id"]] = result
            posted.append(result)

        async def poster(count: int) -> None:
            for _ in range(count):
                for chat in rng.sample(range(chats), chats):
                    if chat > 0 or rng.random() < 0.1:
                        post(chat)
                        await asyncio.sleep(rng.uniform(0.0, 0.05))

        def acknowledge() -> None:
            for call in api.sent("sendMessage"):
                quoted = (call.params.get("reply_parameters") or {}).get("message_id")
                text = call.params.get("text", "")
                if quoted in by_message and ("Game #" in text or "already handled" in text):
                    acknowledged.add(by_message[quoted])

        for run in range(kills + 1):
            last = run == kills
            polls = api.polls
            process = await spawn(args, work, env, stdin=False)
            feeding = asyncio.ensure_future(poster(per_run))
            try:
                await wait_until(lambda: api.polls > polls, process, "polling", work)  # noqa: B023
                if last:
                    await feeding
                    # nothing queued, and every update handed to this run answered
                    try:
                        await wait_until(
                            lambda: api.pending() == 0 and drained(api), process, "drain", work
                        )
                    except TimeoutError:
                        raise TimeoutError(
                            f"{api.pending()} updates queued, "
                            f"{len(api.handed)} handed out in the last run"
                        ) from None
                    process.send_signal(signal.SIGTERM)
                    code = await asyncio.wait_for(process.wait(), START_TIMEOUT_S)
                    if code != 0:
                        figures.problems.append(f"the last run exited {code}: {log_tail(work)}")
                else:
                    await asyncio.sleep(rng.uniform(0.0, 2.0))
                    await kill(process)
                    figures.kills += 1
            finally:
                if not feeding.done():
                    feeding.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await feeding
                if process.returncode is None:
                    await kill(process)
            acknowledge()
            await check_after_kill(
                figures, path, work, posted, acknowledged, when=f"run {run}", replay=True
            )
            if not last:
                figures.redelivered += api.redeliver(rng, recent_s=1.0, earlier=0.1)
            say(
                f"  telegram run {run}: {len(acknowledged)} of {len(posted)} acknowledged, "
                f"{api.pending()} queued for the next start"
            )
        present = game_pairs(path)
    final_counts(figures, present, posted, acknowledged)
    figures.dropped = sum(1 for r in posted if present[r.key] == 0 and r not in acknowledged)
    figures.seconds = time.monotonic() - began
    return figures


def answered_messages(api: ft.FakeBotApi) -> set[int]:
    """The messages the bot's answers quote."""
    return {
        (call.params.get("reply_parameters") or {}).get("message_id")
        for call in api.sent("sendMessage")
    }


def drained(api: RedeliveringBotApi) -> bool:
    """Every update handed to the running bot has an answer quoting it."""
    quoted = answered_messages(api)
    return all(u["message"]["message_id"] in quoted for _, u in api.handed.values())


async def wait_until(
    condition: Callable[[], bool],
    process: asyncio.subprocess.Process,
    what: str,
    home: Path | None = None,
) -> None:
    """Poll ``condition`` until it holds; fail if hoshi exits or takes too long."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while not condition():
        if process.returncode is not None:
            tail = log_tail(home) if home is not None else ""
            raise RuntimeError(f"hoshi exited ({process.returncode}) before {what}: {tail}")
        if time.monotonic() > deadline:
            raise TimeoutError(f"hoshi did not reach {what} within {START_TIMEOUT_S} s")
        await asyncio.sleep(0.02)


# --- the scheduler scene -------------------------------------------------------------------


async def scheduler_scene(work: Path, kills: int, *, seed: int = 3, say: Say = print) -> Figures:
    """``hoshi console --clock`` started with a backlog of due work, killed during the sweep."""
    began = time.monotonic()
    figures = Figures("scheduler", unit="days due")
    rng = random.Random(seed)
    work.mkdir(parents=True, exist_ok=True)
    path = work / "scheduler.sqlite"
    start = dt.date(2026, 1, 5)  # a Monday
    days = [start + dt.timedelta(days=d) for d in range(120)]
    clock = dt.datetime.combine(start + dt.timedelta(days=121), dt.time(12), tzinfo=dt.UTC)
    db = await storage.open_db(path, clock=lambda: clock - dt.timedelta(days=121))
    try:
        club = await storage.create_club(db, "Sweep Club", "tensuusei", actor="console:local")
        await storage.set_setting(db, club, "language", "en", actor="console:local")
        names = player_names(1, 12)
        ids = [
            (
                await storage.register_player(
                    db, club, n, Rank.kyu(8), date=start, actor="console:local"
                )
            ).id
            for n in names
        ]
        for day in days:
            for _ in range(2):
                a, b = rng.sample(ids, 2)
                outcome = rng.choice((Outcome.BLACK, Outcome.WHITE, Outcome.JIGO))
                await storage.record_game(
                    db,
                    club,
                    storage.new_game(a, b, outcome, stones=0, komi=7, date=day),
                    actor="console:local",
                )
        await storage.set_setting(db, club, "weekly", "mon 18:00", actor="console:local")
    finally:
        await db.close()
    env = environment(work)
    args = [
        "console",
        "--db",
        str(path),
        "--club",
        "Sweep Club",
        "--quiet",
        "--clock",
        clock.strftime("%Y-%m-%d %H:%M"),
    ]
    # how long a whole sweep takes, and how long a start with nothing due, on a copy
    trial = work / "scheduler-trial.sqlite"
    shutil.copyfile(path, trial)
    trial_args = [*args[:2], str(trial), *args[3:]]
    timings = []
    for _ in range(2):
        started = time.monotonic()
        process = await spawn(trial_args, work, env, stdin=False)
        await asyncio.wait_for(process.wait(), START_TIMEOUT_S)
        timings.append(time.monotonic() - started)
    full, idle = timings
    say(f"  a sweep of the backlog takes {full:.2f} s, a start with nothing due {idle:.2f} s")
    rounds = max(1, (kills + 1) // 2)
    for round_ in range(rounds):
        # each round starts from the whole backlog: killed twice, then run to the end
        copy = work / f"scheduler-{round_}.sqlite"
        shutil.copyfile(path, copy)
        round_args = [*args[:2], str(copy), *args[3:]]
        for attempt in range(3):
            last = attempt == 2 or figures.kills >= kills
            process = await spawn(round_args, work, env, stdin=False)
            if last:
                await asyncio.wait_for(process.wait(), START_TIMEOUT_S)
                if process.returncode != 0:
                    figures.problems.append(
                        f"a last sweep exited {process.returncode}: {log_tail(work)}"
                    )
            else:
                await asyncio.sleep(rng.uniform(0.9 * idle, 1.05 * full))
                await kill(process)
                figures.kills += 1
            when = f"round {round_} run {attempt}"
            problems = [f"{when}: {p}" for p in sqlite_problems(copy)]
            problems += [f"{when}: {p}" for p in once_each(copy)]
            if not problems:
                problems += [f"{when}: {p}" for p in await replay_differs(copy, work)]
            figures.problems.extend(problems)
            done = sweep_counts(copy)
            say(
                f"  scheduler {when}: {done['day']} of {len(days)} days settled, "
                f"{done['job']} jobs run, {len(problems)} problems"
            )
            if last:
                figures.posted += len(days)
                figures.present += done["day"]
                # the weekly summaries missed: claimed once each (once_each), posted as one
                if done["day"] != len(days) or done["job"] == 0:
                    figures.lost += len(days) - done["day"]
                    figures.problems.append(f"{when}: {dict(done)} after the last sweep")
                break
        copy.unlink()
    figures.seconds = time.monotonic() - began
    return figures


def once_each(path: Path) -> list[str]:
    """Each day ended, month checked and job occurrence run at most once."""
    with opened(path) as con:
        rows = con.execute(
            "SELECT kind, key, COUNT(*) FROM events WHERE kind IN ('day', 'month', 'job', "
            "'period') GROUP BY club, kind, key HAVING COUNT(*) > 1"
        ).fetchall()
    return [f"{kind} {key} recorded {count} times" for kind, key, count in rows]


def sweep_counts(path: Path) -> Counter[str]:
    with opened(path) as con:
        rows = con.execute(
            "SELECT kind, COUNT(*) FROM events WHERE kind IN ('day', 'month', 'job') GROUP BY kind"
        ).fetchall()
    return Counter(dict(rows))


def clean(work: Path) -> None:
    shutil.rmtree(work, ignore_errors=True)


if os.name == "nt":  # pragma: no cover
    raise ImportError("the crash harness needs SIGKILL")
