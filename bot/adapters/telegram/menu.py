"""The bot's commands as Telegram knows them: the command menu made from the table, and the
command a message holds (``/name@bot rest``)."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from telegram import BotCommand

from bot.adapters.telegram.rendering import cut as _cut
from bot.core.commands import CommandSpec, shown
from bot.i18n import LANGUAGES
from bot.i18n.catalogues import SOURCE

log = logging.getLogger("hoshi.telegram")

COMMAND_DESCRIPTION_LIMIT = 256  # BotCommand.description: 3-256 characters
COMMAND_DESCRIPTION_MIN = 3
MENU_LANGUAGES = tuple(language for language in LANGUAGES if language != SOURCE)
"""The menus with a ``language_code`` (hu, ja, sv, pl); English is the default menu."""
_COMMAND = re.compile(r"/([A-Za-z0-9_]{1,64})(?:@([A-Za-z0-9_]{1,64}))?(?=\s|$)(.*)\Z", re.DOTALL)
_BOT_COMMAND_NAME = re.compile(r"[a-z0-9_]{1,32}")


def parse_command(text: str, bot_username: str | None) -> tuple[str, str] | None:
    """``(name, rest)`` of ``/name@bot rest``; ``None`` for no command or another bot's."""
    match = _COMMAND.match(text)
    if match is None:
        return None
    name, target, rest = match.groups()
    if target and (bot_username is None or target.lower() != bot_username.lower()):
        return None
    return name.lower(), rest.strip()


def bot_commands(commands: Sequence[CommandSpec]) -> list[BotCommand]:
    """Telegram's command menu for ``commands`` in the current language (names Telegram
    accepts and the same in every language, descriptions translated and cut to fit)."""
    menu = []
    for cmd in commands:
        if not _BOT_COMMAND_NAME.fullmatch(cmd.name):
            log.warning("/%s cannot be in Telegram's command menu (name)", cmd.name)
            continue
        menu.append(BotCommand(cmd.name, menu_description(cmd)))
    return menu


def menu_description(cmd: CommandSpec) -> str:
    """The command's summary in the current language, as a menu entry (3-256 characters;
    the usage line where the summary would be too short)."""
    text = shown(cmd.summary).strip()
    if len(text) < COMMAND_DESCRIPTION_MIN:
        text = shown(cmd.usage)
    return _cut(text, COMMAND_DESCRIPTION_LIMIT)
