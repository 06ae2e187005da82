"""Errors a command may show to its user (STYLE.md, Errors).

A :class:`UserError` is safe to show: its text says what was wrong and, with the command's
usage line, how to do it right. Anything else is a bug: logged with an incident id, and the
user sees only "Something went wrong (ref …)".

The message is a text of the catalogue (``bot.i18n._``), made while the conversation is
answered, so it is already in the conversation's language (bot.core.app).
"""

from __future__ import annotations

from bot.i18n import translated
from engine.text import Msg


class UserError(Exception):
    """Bad input or a refused action; the message is shown as it is."""

    def __init__(self, message: str, *, usage: bool = True):
        super().__init__(message)
        self.show_usage = usage


class BadArgument(UserError):
    """An argument that cannot be read; the message names it and its value."""


class UnknownPlayer(UserError):
    """No player of that name; the message lists the closest names."""


class Ambiguous(UserError):
    """Several players match; the message lists them and asks which one."""


class NotPermitted(UserError):
    """The caller may not do this (e.g. an organiser command from a player)."""

    def __init__(self, message: str):
        super().__init__(message, usage=False)


def reason(exc: BaseException, instead: str) -> str:
    """Why ``exc`` refused, as members read it: the rules' or the bot's own text (a
    :class:`~engine.text.Msg`) in their language, never a Python or library message
    (``Invalid isoformat string``, ``year 0 is out of range``): ``instead`` for that."""
    said = exc.args[0] if exc.args else None
    return translated(said) if isinstance(said, Msg) else instead
