"""Per-person rate limits of the expensive commands (bot/ratelimit.py; issue 6/6, item 5)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

import storage
from bot.core.app import Core
from bot.core.invocation import Caller, Invocation
from bot.core.replies import Reply
from bot.i18n import translated, using
from bot.ratelimit import (
    CHART,
    CHART_REFUSAL,
    EXPORT,
    IMPORT,
    LIMITS,
    Limit,
    RateLimiter,
    kind_of,
)
from tests.reliability.conftest import GROUP, Clock, make_club, open_core

H9 = (
    Path(__file__).resolve().parents[1] / "engine" / "formats" / "data" / "kis_kupa.h9"
).read_bytes()


# --- the limiter ---------------------------------------------------------------------------


def test_a_burst_then_one_request_per_interval() -> None:
    clock = Clock()
    limiter = RateLimiter(clock, {CHART: Limit(burst=3, every_s=20, refusal=CHART_REFUSAL)})
    assert [limiter.take("telegram:1", CHART) for _ in range(3)] == [0, 0, 0]
    assert limiter.take("telegram:1", CHART) == 20  # the next in 20 s
    clock.advance(seconds=5)
    assert limiter.take("telegram:1", CHART) == 15
    clock.advance(seconds=15)
    assert limiter.take("telegram:1", CHART) == 0  # one more allowed …
    assert limiter.take("telegram:1", CHART) == 20  # … and only one
    clock.advance(seconds=60)  # a quiet minute refills the whole burst
    assert [limiter.take("telegram:1", CHART) for _ in range(3)] == [0, 0, 0]


def test_people_and_kinds_are_counted_apart() -> None:
    clock = Clock()
    limiter = RateLimiter(clock, {CHART: Limit(1, 30, "charts"), EXPORT: Limit(1, 30, "exports")})
    assert limiter.take("telegram:1", CHART) == 0
    assert limiter.take("telegram:1", CHART) > 0
    assert limiter.take("telegram:2", CHART) == 0  # someone else
    assert limiter.take("telegram:1", EXPORT) == 0  # something else
    assert limiter.take("telegram:1", "rating") == 0  # no limit at all


def test_a_refused_request_is_not_counted() -> None:
    clock = Clock()
    limiter = RateLimiter(clock, {CHART: Limit(1, 10, "charts")})
    limiter.take("a", CHART)
    for _ in range(50):  # hammering does not push the next allowed moment further
        assert limiter.take("a", CHART) == 10
    clock.advance(seconds=10)
    assert limiter.take("a", CHART) == 0


def test_idle_people_are_forgotten(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.ratelimit.MAX_PEOPLE", 10)
    clock = Clock()
    limiter = RateLimiter(clock, {CHART: Limit(1, 10, "charts")})
    for n in range(10):
        limiter.take(f"p{n}", CHART)
    clock.advance(seconds=11)
    limiter.take("p10", CHART)
    limiter.take("p11", CHART)
    assert len(limiter._next) == 2


def test_a_limit_needs_a_burst_and_an_interval() -> None:
    with pytest.raises(ValueError, match="burst >= 1"):
        Limit(0, 10, "charts")


@pytest.mark.parametrize(
    ("command", "text", "attachment", "kind"),
    [
        ("chart", "Nagy Péter", None, CHART),
        ("export", "csv", None, EXPORT),
        ("tournament", "import", None, IMPORT),
        ("tournament", "IMPORT C=20", None, IMPORT),
        ("tournament", "result", b"; EV[x]", IMPORT),  # a file given to result is an import
        ("tournament", "result\n1 Nagy ...", None, IMPORT),  # a pasted table
        ("tournament", "new Spring Cup", None, None),
        ("tournament", "", None, None),
        ("rating", "Nagy Péter", None, None),
        ("top", "200", None, None),
    ],
)
def test_which_commands_are_expensive(
    command: str, text: str, attachment: bytes | None, kind: str | None
) -> None:
    assert kind_of(command, text, attachment) == kind


def test_the_refusal_says_when_to_try_again() -> None:
    limiter = RateLimiter(Clock())
    assert limiter.refusal(CHART, 7) == (
        "That is a lot of charts in a short time: please try again in 7 seconds. (Each person "
        f"may ask for {LIMITS[CHART].burst} at once, then one every 20 seconds, so that the "
        "bot stays quick for everyone.)"
    )
    assert "in 2 minutes" in limiter.refusal(EXPORT, 61)


# --- in the core ---------------------------------------------------------------------------


async def core_with_club(tmp_path: Path, clock: Clock) -> Core:
    path = tmp_path / "hoshi.sqlite"
    db = await storage.open_db(path, clock=clock)
    try:
        await make_club(db, players=("Nagy Péter", "Kovács Anna"))
    finally:
        await db.close()
    return await open_core(path, clock)


def ask(
    line: str, account: str = "101", platform: str = "telegram", **kwargs: object
) -> Invocation:
    name, _, rest = line.lstrip("/").partition(" ")
    caller = Caller(platform, account, "someone", chat_admin=True)
    chat = str(GROUP["id"]) if platform == "telegram" else "club-1"
    return Invocation(name, rest, caller, chat, **kwargs)  # type: ignore[arg-type]


def limited(reply: Reply) -> bool:
    return reply.error and "try again in" in reply.as_text()


async def test_charts_beyond_the_burst_get_a_friendly_reply(tmp_path: Path) -> None:
    clock = Clock()
    core = await core_with_club(tmp_path, clock)
    try:
        burst = LIMITS[CHART].burst
        replies = [await core.handle(ask("/chart Nagy Péter")) for _ in range(burst + 1)]
        assert not any(limited(r) for r in replies[:burst])
        assert limited(replies[-1]) and not replies[-1].private  # said where it was asked
        assert replies[-1].picture is None
        assert not limited(await core.handle(ask("/chart Nagy Péter", account="202")))
        assert not limited(await core.handle(ask("/rating Nagy Péter")))  # cheap: not limited
        clock.advance(seconds=LIMITS[CHART].every_s)
        assert not limited(await core.handle(ask("/chart Nagy Péter")))
    finally:
        await core.db.close()


async def test_exports_and_imports_are_limited_and_a_refusal_changes_nothing(
    tmp_path: Path,
) -> None:
    clock = Clock()
    core = await core_with_club(tmp_path, clock)
    try:
        for _ in range(LIMITS[EXPORT].burst):
            assert not limited(await core.handle(ask("/export csv")))
        assert limited(await core.handle(ask("/export json")))
        imports = [
            await core.handle(
                ask("/tournament import C=20", attachment=H9, attachment_name="k.h9")
            )
            for _ in range(LIMITS[IMPORT].burst + 1)
        ]
        assert not limited(imports[0]) and limited(imports[-1])
        size = await core.db.fetchone("SELECT COUNT(*) FROM log")
        assert limited(
            await core.handle(
                ask("/tournament import C=20", attachment=H9, attachment_name="k.h9")
            )
        )
        assert await core.db.fetchone("SELECT COUNT(*) FROM log") == size
    finally:
        await core.db.close()


async def test_the_console_operator_is_not_limited(tmp_path: Path) -> None:
    clock = Clock()
    core = await core_with_club(tmp_path, clock)
    try:
        club = (await storage.clubs(core.db))[0]
        await storage.bind_chat(core.db, club, "console", "club-1", actor="console:local")
        for _ in range(LIMITS[EXPORT].burst * 2):
            assert not limited(await core.handle(ask("/export csv", "local", "console")))
    finally:
        await core.db.close()


def test_the_core_takes_the_limiter_on_its_clock(tmp_path: Path) -> None:
    clock = Clock(dt.datetime(2026, 1, 1, tzinfo=dt.UTC))

    class Db:  # the core reads nothing else at construction
        pass

    core = Core(Db(), object(), clock=clock)  # type: ignore[arg-type]
    assert core.limiter.clock is clock


@pytest.mark.parametrize(
    ("wait_s", "polish"),
    [(1, "za 1 sekundę"), (3, "za 3 sekundy"), (7, "za 7 sekund"), (61, "za 2 minuty")],
)
def test_the_refusal_speaks_the_conversations_language(wait_s: int, polish: str) -> None:
    limiter = RateLimiter(Clock())
    with using("pl"):
        refusal = limiter.refusal(CHART, wait_s)
    assert refusal.startswith("To dużo wykresów w krótkim czasie: spróbuj ponownie " + polish)
    assert "co 20 sekund" in refusal and "try again" not in refusal
    assert translated(refusal, "ja").startswith("短い間にグラフの依頼が多すぎます。")
    assert translated(refusal, "en") == limiter.refusal(CHART, wait_s)  # given again in English
