"""``hoshi translations``: the message catalogues, with Babel's own ``pybabel`` (issue 13).

A translator's round, run from anywhere inside the project (the directory of ``babel.cfg``)::

    hoshi translations extract   # every marked text into bot/i18n/locales/hoshi.pot
    hoshi translations update    # the .pot into each language's hoshi.po (en: msgstr = msgid)
    # … translate the empty and fuzzy entries of hu, ja, sv, pl …
    hoshi translations check     # what is left: untranslated, fuzzy, placeholder mismatches
    hoshi translations compile   # hoshi.po → hoshi.mo (pip install does this too)

``extract``, ``update`` and ``compile`` run Babel's command line in this process, exactly as
``pybabel extract -F babel.cfg -k _ -k _n:1,2 -k N_ -k Msg -k plural:1,2
--add-comments=TRANSLATORS: -o bot/i18n/locales/hoshi.pot .``, ``pybabel update -i
bot/i18n/locales/hoshi.pot -d bot/i18n/locales -D hoshi`` and ``pybabel compile -d
bot/i18n/locales -D hoshi`` would; ``update`` first creates the catalogue of a language that
has none (``pybabel init``), and fills the English one from the message ids (English is the
source language).
"""

from __future__ import annotations

import argparse
import contextlib
import re
from pathlib import Path

from bot.cli.common import fail
from bot.i18n import _, _n

DOMAIN = "hoshi"
LOCALES = Path("bot", "i18n", "locales")
TEMPLATE = LOCALES / f"{DOMAIN}.pot"
KEYWORDS = ("_", "_n:1,2", "N_", "Msg", "plural:1,2")
"""The extraction keywords: bot.i18n's ``_``, ``_n``, ``N_``; engine.text's ``Msg``, ``plural``."""
SOURCE = "en"

_FIELD = re.compile(r"\{(\w*)[^{}]*\}")


def add(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = commands.add_parser(
        "translations",
        help=_("extract, update, compile or check the message catalogues (pybabel)"),
        description=_(
            "The translators' round with Babel's pybabel, run inside the project (the "
            "directory of {config}): {extract} collects every marked text into {template}; "
            "{update} merges it into each language's catalogue (the English one is filled "
            "from the texts themselves); {check} lists what is untranslated, fuzzy or has "
            "other placeholders than the English text, and fails if anything is; {compile} "
            "writes the .mo files the bot reads.",
            config="babel.cfg",
            extract="extract",
            template=str(TEMPLATE),
            update="update",
            check="check",
            compile="compile",
        ),
    )
    parser.add_argument(
        "action",
        choices=("extract", "update", "compile", "check"),
        help=_("what to do: {actions}", actions="extract, update, compile, check"),
    )
    parser.add_argument(
        "--root",
        type=Path,
        help=_(
            "the project's directory, where {config} is (default: the nearest one above the "
            "current directory)",
            config="babel.cfg",
        ),
    )
    parser.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    root = project_root(args.root)
    if root is None:
        where = args.root or Path.cwd()
        return fail(
            _(
                "there is no {config} in {directory} or above it; run this inside hoshi's "
                "source tree or give it with --root, e.g. {example}",
                config="babel.cfg",
                directory=where,
                example="--root ~/src/hoshi",
            )
        )
    return {"extract": extract, "update": update, "compile": compile_, "check": check}[
        args.action
    ](root)


def project_root(given: Path | None = None) -> Path | None:
    """The directory holding ``babel.cfg``: ``given`` itself, or the nearest one at or above
    the current directory; ``None`` when there is none."""
    if given is not None:
        given = given.expanduser().resolve()
        return given if (given / "babel.cfg").is_file() else None
    here = Path.cwd().resolve()
    return next((d for d in (here, *here.parents) if (d / "babel.cfg").is_file()), None)


def extract(root: Path, template: Path = TEMPLATE) -> int:
    """``pybabel extract`` of the whole tree into the template ``hoshi.pot`` (or ``template``:
    the tests extract a fresh one beside the committed)."""
    (root / template).parent.mkdir(parents=True, exist_ok=True)
    keywords = [arg for keyword in KEYWORDS for arg in ("-k", keyword)]
    return _pybabel(
        root,
        "extract",
        "-F",
        "babel.cfg",
        *keywords,
        "--add-comments=TRANSLATORS:",
        "--project=hoshi",
        "-o",
        str(template),
        ".",
    )


def update(root: Path) -> int:
    """``pybabel update`` of every language's catalogue from the template; a language without
    a catalogue gets one (``pybabel init``); the English one says each text as it is."""
    from bot.i18n.catalogues import LANGUAGES

    if not (root / TEMPLATE).is_file():
        return fail(
            _(
                "there is no {template} yet; run {command} first",
                template=TEMPLATE,
                command="hoshi translations extract",
            )
        )
    for language in LANGUAGES:
        if not (root / _po(language)).is_file():
            status = _pybabel(
                root, "init", "-i", str(TEMPLATE), "-d", str(LOCALES), "-D", DOMAIN, "-l", language
            )
            if status:
                return status
    status = _pybabel(root, "update", "-i", str(TEMPLATE), "-d", str(LOCALES), "-D", DOMAIN)
    if status:
        return status
    fill_source(root / _po(SOURCE))
    return 0


def compile_(root: Path) -> int:
    """``pybabel compile`` of every catalogue into its ``hoshi.mo``; 1 when pybabel left one
    out because its header marks the whole catalogue fuzzy (it says so only in passing)."""
    from bot.i18n.catalogues import LANGUAGES

    status = _pybabel(root, "compile", "-d", str(LOCALES), "-D", DOMAIN)
    skipped = [language for language in LANGUAGES if _whole_fuzzy(root / _po(language))]
    for language in skipped:
        fail(
            _(
                "{path}: not compiled: its header marks the whole catalogue fuzzy ({flag}); "
                "remove that mark once the catalogue is reviewed",
                path=_po(language),
                flag="#, fuzzy",
            )
        )
    return status or (1 if skipped else 0)


def _whole_fuzzy(po: Path) -> bool:
    """Whether the catalogue ``po`` exists and its header carries the ``fuzzy`` flag."""
    from babel.messages.pofile import read_po

    if not po.is_file():
        return False
    with po.open("rb") as handle:
        return bool(read_po(handle).fuzzy)


def fill_source(po: Path) -> int:
    """Give every message of the English catalogue ``po`` its own text as its translation
    (every plural form too), not fuzzy; returns how many were filled."""
    from babel.messages.pofile import read_po, write_po

    with po.open("rb") as handle:
        catalog = read_po(handle, locale=SOURCE, domain=DOMAIN)
    filled = 0
    catalog.fuzzy = False  # English is complete by definition
    for message in catalog:
        if not message.id:
            continue
        wanted = tuple(message.id) if isinstance(message.id, (list, tuple)) else message.id
        if message.string != wanted or message.fuzzy:
            message.string = wanted
            message.flags.discard("fuzzy")
            filled += 1
    with po.open("wb") as handle:
        write_po(handle, catalog, width=76)
    return filled


def problems(po: Path, template: Path | None = None) -> list[str]:
    """What keeps the catalogue ``po`` from being complete, one line each: a message of the
    template it lacks, an untranslated or fuzzy message, a translation whose placeholders are
    not the English text's (a singular form may leave ``{n}`` out: "one game")."""
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        catalog = read_po(handle)
    found: list[str] = []
    if template is not None and template.is_file():
        with template.open("rb") as handle:
            wanted = read_po(handle)
        for message in wanted:
            if message.id and catalog.get(message.id, message.context) is None:
                found.append(_("missing: {text}", text=repr(_first(message.id))))
    if catalog.fuzzy:
        found.append(
            _(
                "the header marks the whole catalogue fuzzy ({flag}): pybabel compiles none of "
                "it until that mark is removed",
                flag="#, fuzzy",
            )
        )
    plurals = catalog.num_plurals
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, (list, tuple)) else (message.id,)
        strings = (
            message.string if isinstance(message.string, (list, tuple)) else (message.string,)
        )
        if message.fuzzy:
            found.append(_("fuzzy: {text}", text=repr(ids[0])))
            continue
        forms = plurals if isinstance(message.id, (list, tuple)) else 1
        if len(strings) != forms or not all(strings):
            found.append(_("untranslated: {text}", text=repr(ids[0])))
            continue
        want = _fields(ids[-1])
        for string in strings:
            got = _fields(string or "")
            if got != want and sorted(set(got) - {"n"}) != sorted(set(want) - {"n"}):
                found.append(
                    _(
                        "placeholders {got} instead of {wanted}: {text}",
                        got=" ".join(f"{{{f}}}" for f in got) or "–",
                        wanted=" ".join(f"{{{f}}}" for f in want) or "–",
                        text=repr(ids[0]),
                    )
                )
                break
    return found


def check(root: Path) -> int:
    """Every language's problems (:func:`problems`); 1 when there is any, else 0."""
    from bot.i18n.catalogues import LANGUAGES

    total = 0
    for language in LANGUAGES:
        po = root / _po(language)
        if not po.is_file():
            print(_("{language}: no catalogue ({path})", language=language, path=_po(language)))
            total += 1
            continue
        found = problems(po, root / TEMPLATE)
        total += len(found)
        if found:
            print(
                _n(
                    "{language}: {n} problem",
                    "{language}: {n} problems",
                    len(found),
                    language=language,
                )
            )
            for line in found:
                print(f"  {line}")
        else:
            print(_("{language}: complete", language=language))
    return 1 if total else 0


def _po(language: str) -> Path:
    return LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def _first(message_id: str | tuple[str, ...] | list[str]) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


def _fields(text: str) -> list[str]:
    return sorted(_FIELD.findall(text.replace("{{", "").replace("}}", "")))


def _pybabel(root: Path, *argv: str) -> int:
    """Babel's command line (``pybabel ARGV``) run here, in ``root``; its exit status."""
    from babel.messages.frontend import CommandLineInterface, OptionError

    with contextlib.chdir(root):
        try:
            status = CommandLineInterface().run(["pybabel", *argv])  # type: ignore[no-untyped-call]
        except OptionError as exc:
            return fail(f"pybabel {argv[0]}: {exc}")
        except SystemExit as exc:  # optparse's error exit, after printing why
            return exc.code if isinstance(exc.code, int) else 2
    return int(status or 0)
