"""Command handlers by topic; importing this package fills the command table (in help order)."""

from bot.core.handlers import (  # noqa: F401
    club,
    games,
    help,
    ratings,
    registry,
    schedule,
    tournaments,
)
