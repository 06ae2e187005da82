"""A refusal's reason is the rules' or the bot's own text, never Python's (issue 24, item 3)."""

from __future__ import annotations

import datetime as dt

from bot.core.errors import reason
from bot.i18n import _, using
from engine.text import Msg


def test_a_library_message_is_never_the_reason() -> None:
    try:
        dt.datetime.fromisoformat("2026-13-45 25:00")
    except ValueError as exc:
        assert reason(exc, "cannot read it") == "cannot read it"


def test_the_rules_own_text_is_given_in_the_readers_language() -> None:
    exc = ValueError(Msg("{text} is not a rank ({examples})", text="x", examples="3k"))
    with using("hu"):
        given = reason(exc, "cannot read it")
        assert given == _("{text} is not a rank ({examples})", text="x", examples="3k")
    assert given != "x is not a rank (3k)"  # Hungarian, not the engine's English
