"""Command handlers by topic; importing this package fills the command table."""

from bot.core.handlers import help, ratings  # noqa: F401
