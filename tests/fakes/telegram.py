"""The fake Telegram Bot API for the tests: :mod:`benchmarks.fake_bot_api` (it is installed with
``hoshi bench``, which measures the Telegram adapter against it)."""

from benchmarks.fake_bot_api import (
    BOT_ID,
    BOT_USERNAME,
    MAX_POLL_WAIT_S,
    TOKEN,
    Call,
    FakeBotApi,
    group,
    private,
    user,
)

__all__ = [
    "BOT_ID",
    "BOT_USERNAME",
    "MAX_POLL_WAIT_S",
    "TOKEN",
    "Call",
    "FakeBotApi",
    "group",
    "private",
    "user",
]
