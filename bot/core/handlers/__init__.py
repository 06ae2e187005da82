"""Command handlers by topic; :mod:`bot.core.command_table` lists them (importing this package
registers nothing)."""
