"""``hoshi translations extract|update|compile|check`` on a tiny project in tmp_path."""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from bot.__main__ import main
from bot.i18n.catalogues import LANGUAGES

SOURCE = """
from bot.i18n import N_, _, _n

GREETING = N_("Welcome to the club")


def reply(name, count):
    # TRANSLATORS: {name} is a player's name
    first = _("Hello {name}", name=name)
    return first, _n("{n} game", "{n} games", count), _(GREETING)
"""

ENGINE = """
from engine.text import Msg, plural


def refuse(player):
    refused = Msg("player {player} is not registered", player=player)
    return refused, plural("{n} day", "{n} days", 2)
"""

LOCALES = Path("bot", "i18n", "locales")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project root with babel.cfg, a bot module and an engine module."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "babel.cfg").write_text(
        "[python: bot/**.py]\n[python: engine/**.py]\n", encoding="utf-8"
    )
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "talk.py").write_text(SOURCE, encoding="utf-8")
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "rules.py").write_text(ENGINE, encoding="utf-8")
    return tmp_path


def hoshi(project: Path, action: str) -> int:
    return main(["translations", action, "--root", str(project)])


def catalogue(project: Path, language: str):  # type: ignore[no-untyped-def]
    path = project / LOCALES / language / "LC_MESSAGES" / "hoshi.po"
    with path.open("rb") as handle:
        return read_po(handle, locale=language)


def save(project: Path, language: str, catalog) -> None:  # type: ignore[no-untyped-def]
    path = project / LOCALES / language / "LC_MESSAGES" / "hoshi.po"
    with path.open("wb") as handle:
        write_po(handle, catalog)


def translate_all(project: Path) -> None:
    """Every non-English catalogue filled with a made-up translation that keeps the fields."""
    for language in LANGUAGES:
        if language == "en":
            continue
        catalog = catalogue(project, language)
        for message in catalog:
            if not message.id:
                continue
            if isinstance(message.id, (list, tuple)):
                message.string = tuple(
                    f"[{language}] {message.id[-1]}" for _form in range(catalog.num_plurals)
                )
            else:
                message.string = f"[{language}] {message.id}"
            message.flags.discard("fuzzy")
        save(project, language, catalog)


def test_extract_collects_every_keyword_with_translators_comments(project: Path) -> None:
    assert hoshi(project, "extract") == 0
    with (project / LOCALES / "hoshi.pot").open("rb") as handle:
        template = read_po(handle)
    ids = {m.id if isinstance(m.id, str) else tuple(m.id) for m in template if m.id}
    assert ids == {
        "Welcome to the club",
        "Hello {name}",
        ("{n} game", "{n} games"),
        "player {player} is not registered",
        ("{n} day", "{n} days"),
    }
    hello = template.get("Hello {name}")
    assert hello.auto_comments == ["TRANSLATORS: {name} is a player's name"]
    assert hello.locations == [("bot/talk.py", 9)]  # relative to the project root


def test_update_makes_every_catalogue_and_fills_english_from_the_ids(project: Path) -> None:
    assert hoshi(project, "extract") == 0
    assert hoshi(project, "update") == 0
    for language in LANGUAGES:
        assert (project / LOCALES / language / "LC_MESSAGES" / "hoshi.po").is_file()
    english = catalogue(project, "en")
    assert english.get("Hello {name}").string == "Hello {name}"
    assert tuple(english.get(("{n} game", "{n} games")).string) == ("{n} game", "{n} games")
    assert not any(m.fuzzy for m in english if m.id)
    assert catalogue(project, "hu").get("Hello {name}").string == ""


def test_update_keeps_translations_and_adds_new_texts(project: Path) -> None:
    hoshi(project, "extract")
    hoshi(project, "update")
    translate_all(project)
    talk = project / "bot" / "talk.py"
    talk.write_text(
        talk.read_text(encoding="utf-8") + '\n\nBYE = N_("See you next week")\n',
        encoding="utf-8",
    )
    assert hoshi(project, "extract") == 0
    assert hoshi(project, "update") == 0
    hungarian = catalogue(project, "hu")
    assert hungarian.get("Hello {name}").string == "[hu] Hello {name}"
    assert hungarian.get("See you next week").string == ""
    assert catalogue(project, "en").get("See you next week").string == "See you next week"


def test_check_lists_untranslated_texts_by_language_and_fails(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hoshi(project, "extract")
    hoshi(project, "update")
    capsys.readouterr()
    assert hoshi(project, "check") == 1
    out = capsys.readouterr().out
    assert "en: complete" in out
    assert "hu: 5 problems" in out and "ja: 5 problems" in out
    assert "  untranslated: 'Hello {name}'" in out
    assert "  untranslated: '{n} game'" in out


def test_check_passes_a_complete_set_and_finds_fuzzy_and_placeholder_mistakes(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hoshi(project, "extract")
    hoshi(project, "update")
    translate_all(project)
    capsys.readouterr()
    assert hoshi(project, "check") == 0
    assert "hu: complete" in capsys.readouterr().out

    swedish = catalogue(project, "sv")
    swedish.get("Hello {name}").string = "Hej {namn}"  # a renamed field breaks .format()
    swedish.get("Welcome to the club").flags.add("fuzzy")
    save(project, "sv", swedish)
    polish = catalogue(project, "pl")
    polish.get(("{n} game", "{n} games")).string = ("{n} partia", "{n} partie", "")
    save(project, "pl", polish)
    assert hoshi(project, "check") == 1
    out = capsys.readouterr().out
    assert "sv: 2 problems" in out
    assert "  placeholders {namn} instead of {name}: 'Hello {name}'" in out
    assert "  fuzzy: 'Welcome to the club'" in out
    assert "pl: 1 problem\n  untranslated: '{n} game'" in out
    assert "hu: complete" in out


def test_check_finds_a_text_the_catalogue_lacks(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hoshi(project, "extract")
    hoshi(project, "update")
    translate_all(project)
    talk = project / "bot" / "talk.py"
    talk.write_text(
        talk.read_text(encoding="utf-8") + '\n\nBYE = N_("See you next week")\n',
        encoding="utf-8",
    )
    hoshi(project, "extract")  # extracted, but no update yet
    capsys.readouterr()
    assert hoshi(project, "check") == 1
    assert "  missing: 'See you next week'" in capsys.readouterr().out


def test_compile_writes_catalogues_gettext_reads(project: Path) -> None:
    hoshi(project, "extract")
    hoshi(project, "update")
    translate_all(project)
    assert hoshi(project, "compile") == 0
    mo = project / LOCALES / "pl" / "LC_MESSAGES" / "hoshi.mo"
    with mo.open("rb") as handle:
        polish = gettext.GNUTranslations(handle)
    assert polish.gettext("Hello {name}") == "[pl] Hello {name}"
    assert polish.ngettext("{n} game", "{n} games", 5) == "[pl] {n} games"


def test_the_root_is_found_from_a_directory_inside_the_project(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project / "engine")
    assert main(["translations", "extract"]) == 0
    assert (project / LOCALES / "hoshi.pot").is_file()
    assert Path.cwd() == project / "engine"  # pybabel ran in the root; we are back


def test_without_babel_cfg_it_says_where_it_looked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert main(["translations", "check", "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"hoshi: there is no babel.cfg in {tmp_path} or above it" in err
    assert "--root ~/src/hoshi" in err


def test_update_before_extract_says_what_to_run(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert hoshi(project, "update") == 2
    assert "run hoshi translations extract first" in capsys.readouterr().err


def test_a_catalogue_marked_fuzzy_as_a_whole_is_named_by_check_and_compile(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """pybabel compile skips such a catalogue and exits 0; hoshi says which and fails."""
    hoshi(project, "extract")
    hoshi(project, "update")
    translate_all(project)
    hungarian = catalogue(project, "hu")
    hungarian.fuzzy = True  # as a Catalog made by hand starts
    save(project, "hu", hungarian)
    capsys.readouterr()
    assert hoshi(project, "check") == 1
    assert "hu: 1 problem\n  the header marks the whole catalogue fuzzy (#, fuzzy)" in (
        capsys.readouterr().out
    )
    assert hoshi(project, "compile") == 1
    err = capsys.readouterr().err
    assert "hoshi: bot/i18n/locales/hu/LC_MESSAGES/hoshi.po: not compiled: its header" in err
    assert not (project / LOCALES / "hu" / "LC_MESSAGES" / "hoshi.mo").exists()
    assert (project / LOCALES / "pl" / "LC_MESSAGES" / "hoshi.mo").exists()


def test_update_leaves_the_english_catalogue_whole(project: Path) -> None:
    hoshi(project, "extract")
    hoshi(project, "update")
    english = catalogue(project, "en")
    english.fuzzy = True
    save(project, "en", english)
    hoshi(project, "update")
    assert not catalogue(project, "en").fuzzy
