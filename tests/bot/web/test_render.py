"""The page templates: every word a reader sees comes from the catalogue, names are escaped."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from bot.i18n import using
from bot.web.render import environment, render

TEMPLATES = sorted(
    entry.name
    for entry in resources.files("bot.web").joinpath("templates").iterdir()
    if entry.name.endswith(".html")
)
NOT_WORDS = {"hoshi", "h9"}  # the program's name; the EGD file format's name


def visible_words(source: str) -> list[str]:
    """The words a template shows outside ``{{ … }}``, ``{% … %}`` and tags."""
    text = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", " ", source, flags=re.S)
    text = re.sub(r"<[^>]*>", " ", text)
    text = re.sub(r"&[#\w]+;", " ", text)
    return [w for w in re.findall(r"[^\W\d_]{2,}\w*", text) if w not in NOT_WORDS]


@pytest.mark.parametrize("template", TEMPLATES)
def test_no_word_outside_the_catalogue(template: str) -> None:
    source = resources.files("bot.web").joinpath("templates", template).read_text("utf-8")
    assert visible_words(source) == []


def test_the_scan_finds_a_bare_word() -> None:
    assert visible_words("<p>{{ _('Ranking') }} Players</p>") == ["Players"]


def test_templates_escape_what_they_are_given() -> None:
    assert environment().autoescape
    with using("en"):
        html = render("not_found.html", layout=_Layout(), home='"><script>', url=str)
    assert "<script>" not in html and "&#34;&gt;&lt;script&gt;" in html
    assert "&lt;b&gt;x&lt;/b&gt;" in html


class _Layout:
    def __init__(self) -> None:
        self.path, self.lang, self.title, self.shown = "", "en", "<b>x</b>", None
        self.links: list[tuple[str, str, bool]] = []
        self.languages: list[tuple[str, str, str | None]] = []
        self.downloads: list[tuple[str, str]] = []
