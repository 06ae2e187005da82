"""No user-facing text of bot/ escapes the catalogue (issue 13): an AST scan of every module.

A string literal that reads as prose (two words or more) must be the message id of a
catalogue call (``_``, ``_n``, ``N_``) or sit inside one (an example argument), or be
something nobody reads as the bot's words: a docstring, a log line, a metric's help line (the
operator's Prometheus shows it, bot.metrics), an internal error a bug raises, or one of the
few literals listed in :data:`NOT_PROSE` with the reason.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"

CATALOGUE_CALLS = {"_", "_n", "N_", "Msg", "plural"}
LOG_CALLS = {"debug", "info", "warning", "error", "exception", "critical", "log"}
METRIC_CALLS = {"Counter", "Gauge", "Histogram", "GaugeMetricFamily", "CounterMetricFamily"}
"""prometheus_client's metrics: their help lines are for the operator, as log lines are."""
USER_ERRORS = {"UserError", "BadArgument", "UnknownPlayer", "Ambiguous", "NotPermitted"}
PROSE = re.compile(r"[^\W\d_]{2,}[,.:;!?'’)]?\s+[(]?[^\W\d_]{2,}")
HTTP = re.compile(
    r"^(?:[a-z]+/[-\w.+]+(?:;|$)|default-src |public, max-age=|attachment; filename=)"
)
"""HTTP header values (media types, the web pages' content security policy, cache and download
directives, bot/web): browsers read them, not people."""

NOT_PROSE: dict[str, str] = {
    # literal → why it is not the bot's words
    "DejaVu Sans": "a font's name (bot/core/chart.py)",
    "My Go Club": "the name a console club gets, like any name a club is given",
    "Club games ": "the name of a club-games period, stored as its tournament's name",
    "no club": "part of an imported player's name, stored in the log (Kiss Béla (no club, 3))",
    "Nagy Péter vs Kovács Anna": "two names as typed",
    '"Nagy Péter" vs "Kovács Anna"': "two names as typed",
}


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _docstrings(tree: ast.Module) -> set[int]:
    """ids of every bare string statement: docstrings of modules, classes, functions and
    attributes (nothing shows them)."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }


def _exempt(tree: ast.Module) -> set[int]:
    """ids of the nodes under a catalogue call, a log call, a metric's declaration, a regular
    expression (``re.…``) or a bug's exception."""
    exempt: set[int] = set()
    for node in ast.walk(tree):
        under: ast.AST | None = None
        if isinstance(node, ast.Call):
            name = _name(node.func)
            logging = isinstance(node.func, ast.Attribute) and name in LOG_CALLS
            regex = isinstance(node.func, ast.Attribute) and _name(node.func.value) == "re"
            if name in CATALOGUE_CALLS or name in METRIC_CALLS or logging or regex:
                under = node
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            name = _name(node.exc.func)
            if name.endswith(("Error", "Exception")) and name not in USER_ERRORS:
                under = node
        if under is not None:
            exempt.update(id(child) for child in ast.walk(under))
    return exempt


def prose_literals(path: Path) -> Iterator[tuple[int, str]]:
    """``(line, text)`` of each prose literal of ``path`` outside the catalogue."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree) | _exempt(tree)
    for node in ast.walk(tree):
        if id(node) in skip or not isinstance(node, ast.Constant):
            continue
        if isinstance(node.value, str) and PROSE.search(node.value):
            # a command as typed ("/result Kiss beat Tóth h=3", "hoshi import FILE") reads the
            # same in every language
            typed = node.value.startswith(("/", "hoshi ")) or HTTP.match(node.value) is not None
            if node.value not in NOT_PROSE and not typed:
                yield node.lineno, node.value


def test_every_exception_is_still_needed() -> None:
    sources = "".join(path.read_text(encoding="utf-8") for path in BOT.rglob("*.py"))
    assert [text for text in NOT_PROSE if repr(text)[1:-1] not in sources] == []


def test_every_prose_literal_of_bot_goes_through_the_catalogue() -> None:
    escaped = [
        f"{path.relative_to(BOT.parent)}:{line}: {text!r}"
        for path in sorted(BOT.rglob("*.py"))
        for line, text in prose_literals(path)
    ]
    assert not escaped, "texts outside the catalogue:\n" + "\n".join(escaped)


def test_the_scan_finds_a_literal_reply(tmp_path: Path) -> None:
    module = tmp_path / "handler.py"
    module.write_text(
        'def answer():\n    """A docstring."""\n    log.info("a log line here")\n'
        '    ok = _("Recorded {n} games", n=2)\n'
        '    Counter("hoshi_games", "Games recorded by the bot")\n'
        '    return f"Game recorded for {name}"\n',
        encoding="utf-8",
    )
    assert [text for _, text in prose_literals(module)] == ["Game recorded for "]
