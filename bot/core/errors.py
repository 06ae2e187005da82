"""Errors a command may show to its user (STYLE.md, Errors).

A :class:`UserError` is safe to show: its text says what was wrong and, with the command's
usage line, how to do it right. Anything else is a bug: logged with an incident id, and the
user sees only "Something went wrong (ref …)".

The message is a text of the catalogue (``bot.i18n._``), made while the conversation is
answered, so it is already in the conversation's language (bot.core.app).
"""

from __future__ import annotations


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
