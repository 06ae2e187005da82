"""The five catalogues (bot/i18n/catalogues.py and the .po files): complete for every text the
source marks today, placeholders kept, plural forms by each language's rule (issue 13)."""

from __future__ import annotations

import gettext
import io
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.cli.translations import extract, problems
from bot.i18n.catalogues import LANGUAGES, SOURCE, catalogue, compiled, po_path

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A template extracted now from the source (the committed hoshi.pot may be behind)."""
    path = tmp_path_factory.mktemp("pot") / "hoshi.pot"
    assert extract(ROOT, path) == 0
    return path


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_of_the_source_is_translated(language: str, template: Path) -> None:
    """A new text without a translation, a fuzzy one or a translation that lost a
    placeholder fails CI (README, Translations)."""
    found = problems(po_path(language), template)
    assert not found, f"{language}: {len(found)} problems:\n" + "\n".join(found[:40])


def test_the_source_marks_hundreds_of_texts(template: Path) -> None:
    with template.open("rb") as handle:
        messages = [m for m in read_po(handle) if m.id]
    assert len(messages) > 1000
    assert any(isinstance(m.id, tuple) for m in messages)  # plurals are marked as plurals


@pytest.mark.parametrize(
    ("language", "forms"), [("en", 2), ("hu", 1), ("ja", 1), ("sv", 2), ("pl", 3)]
)
def test_each_catalogue_has_its_languages_plural_forms(language: str, forms: int) -> None:
    with po_path(language).open("rb") as handle:
        assert read_po(handle).num_plurals == forms


def test_polish_counts_take_three_forms() -> None:
    polish = catalogue("pl")
    singular, plural = "{n} player", "{n} players"
    shown = [polish.ngettext(singular, plural, n).format(n=n) for n in (1, 3, 5, 22, 25)]
    assert len({text.split(" ", 1)[1] for text in shown[:3]}) == 3  # 1, 3 and 5 differ
    assert shown[3].split(" ", 1)[1] == shown[1].split(" ", 1)[1]  # 22 like 3
    assert shown[4].split(" ", 1)[1] == shown[2].split(" ", 1)[1]  # 25 like 5


def test_a_catalogue_is_read_as_its_po_says(tmp_path: Path) -> None:
    """compiled() gives the .mo of a .po: what a translator wrote is what the bot reads
    (a fuzzy entry is left out, as pybabel compile does)."""
    po = tmp_path / "hoshi.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: hu\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=1; plural=0;\\n"\n\n'
        'msgid "Game #{number} recorded"\nmsgstr "#{number}. játszma rögzítve"\n\n'
        '#, fuzzy\nmsgid "Undone"\nmsgstr "Visszavonva"\n',
        encoding="utf-8",
    )
    read = gettext.GNUTranslations(io.BytesIO(compiled(po)))
    assert read.gettext("Game #{number} recorded") == "#{number}. játszma rögzítve"
    assert read.gettext("Undone") == "Undone"


def test_english_is_the_source_and_an_unknown_language_reads_it() -> None:
    assert catalogue(SOURCE).gettext("Name") == "Name"
    assert catalogue("de").gettext("Name") == "Name"
    assert catalogue("hu").gettext("Name") != "Name"


PROPER_NAMES = {"EGF GoR", "MGSZ Elo", "EGD PIN"}
"""Texts that are the same in every language: the names of ratings and of the EGD's id."""


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != SOURCE])
def test_no_sentence_is_left_in_english(language: str) -> None:
    """A msgstr copied from its msgid passes pybabel's checks but is not a translation."""
    with po_path(language).open("rb") as handle:
        catalog = read_po(handle)
    english = [
        message.id
        for message in catalog
        if isinstance(message.id, str)
        and message.string == message.id
        and message.id not in PROPER_NAMES
        and re.search(r"[A-Za-z]{3,} [A-Za-z]{3,}", re.sub(r"\{[^}]*\}", "", message.id))
    ]
    assert english == []


COUNTED = re.compile(
    r"\(s\)|\{\w+\} (?:player |log |registered )?"
    r"(?:games|players|guests|points|columns|rounds|lines|entries|days|hours|minutes|stones|"
    r"tournaments|clubs|members|reports|weeks|months|years|decimals)\b"
)
"""A count written with an English plural noun ("{n} games", "player(s)")."""

NEVER_ONE = {
    "{size}×{size} games": "a board size, not a count",
    "{text} has {n} decimals": "refused only past 3 decimals",
    "is capped at {most} stones": "the handicap tables' caps are 9 or more",
    "{stones} stones are capped at {most}": "refused only past the cap",
    "{stones} stones and komi {komi}": "the last cell of the Tensuusei table",
    "a difference of {difference} points is beyond": "the table ends at 100 or more",
    "a tournament cannot have {rounds} rounds": "refused: 0 or more than the rules allow",
    "{count}/{needed} tournaments": "the MGSZ bound needs 2",
    "rated in {n} parts of {sizes} rounds": "sizes is a list (4+4)",
    "(C = {c}, {rounds} rounds) is rated in parts": "parts need 2 rounds or more",
    "not {points} points in {games} games": "refused: fewer than 1",
    "{spacing} points a rank": "a club's line spaces ranks by 2 points or more",
    "begins at {points} points": "a step's threshold, past 1",
}
"""Texts whose count is never 1 (so English needs no singular), with the reason."""


def test_every_count_has_plural_forms(template: Path) -> None:
    """A count in a text chooses its plural form by each language's rule ("1 game", not
    "1 games", never "player(s)"): a text with a count is a plural entry (``_n``, ``plural``)."""
    with template.open("rb") as handle:
        messages = read_po(handle)
    found = [
        f"{message.id!r}: {match[0]}"
        for message in messages
        if isinstance(message.id, str)
        for match in COUNTED.finditer(message.id)
        if not any(known in message.id for known in NEVER_ONE)
    ]
    assert not found, "\n".join(found)


def _marked_calls() -> list[tuple[str, str, str | tuple[str, str]]]:
    """Every ``_("…")`` and ``_n("…", "…", n)`` with literal texts in bot/, engine/ and
    storage/, as (file, line, the text or the singular and plural)."""
    import ast

    root = Path(__file__).resolve().parents[3]
    found: list[tuple[str, str, str | tuple[str, str]]] = []
    for folder in ("bot", "engine", "storage"):
        for path in sorted((root / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                    continue
                texts = [
                    a.value
                    for a in node.args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)
                ]
                where = f"{path.relative_to(root)}:{node.lineno}"
                if node.func.id == "_n" and len(texts) >= 2:
                    found.append((where, node.func.id, (texts[0], texts[1])))
                elif node.func.id == "_" and texts:
                    found.append((where, node.func.id, texts[0]))
    return found


def test_every_marked_text_is_extracted_as_it_is_called(template: Path) -> None:
    """A text marked in the source is in the template, and a ``_n`` one as a plural entry: a
    call nested in another's arguments once hid both from the extractor (a plural entry
    extracted as a plain one is never found at runtime, so the reply stayed English)."""
    with template.open("rb") as handle:
        messages = read_po(handle)
    plural = {m.id for m in messages if isinstance(m.id, tuple)}
    plain = {m.id for m in messages if isinstance(m.id, str)}
    missing = [
        f"{where}: {text!r}"
        for where, name, text in _marked_calls()
        if (text not in plural if name == "_n" else text not in plain)
    ]
    assert not missing, "\n".join(missing)
