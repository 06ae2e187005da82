"""Every reply is native to its language (issue 24, item 3).

Every command of the command table is driven through the real core with bad input made from
its own declaration (no arguments, an unknown player, a bad rank, number, date, choice or
option, for each argument and option its spec names) and with good input that answers with
tables, in each of the five languages under each rulebook. A reply fails when it shows:

* an English word in a reply that is not English (the English words are those of the English
  catalogue's message ids, less the words the language writes alike and what the user types:
  command names, option keys, choices, player names);
* Python's own text: a quoted repr (``'Nagy'``), ``Fraction(``, ``11/2``, an exception's
  class or message;
* an untranslated placeholder (``NAME``, ``BLACK``) in a reply that is not English;
* a table whose columns start at different screen widths from row to row.

An English word that only stands there because its catalogue entry is not translated yet is
told apart from one that no catalogue can translate (a text made outside ``_()``): the first
is the translators' work (tests/bot/i18n/test_catalogues.py), the second a bug
(:func:`test_no_reply_shows_english_python_or_a_misaligned_table`). A number a text writes
itself (``komi must be a number like 6.5``) is an example of what to type, as typed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from babel import numbers
from babel.messages.pofile import read_po

from bot import system_names
from bot.core.command_table import COMMANDS
from bot.core.commands import KINDS, PLACEHOLDERS, CommandSpec
from bot.core.replies import Reply, Table, Text, display_width
from bot.i18n import QUOTES, catalogue
from bot.i18n.catalogues import LOCALES, po_path
from engine.text import Msg, Typed
from storage import settings as storage_settings
from tests.bot.core.fakechat import ADMIN, FakeChat

LANGUAGES = ("hu", "ja", "pl", "sv", "en")
SYSTEMS = ("mgsz", "tensuusei", "psg", "swedish", "gor")
PLAYERS = ("Nagy Péter 6k", "Kovács Anna 7k", "Tóth Ádám 8k", "Szabó Éva 9k")
NOBODY = "Zqx Wyv"
"""An unknown player (no English word, so a reply that echoes it shows none)."""

BAD = {
    "player": (NOBODY,),
    "rank": ("99z", "0k"),
    "grade": ("99z", "0k", "12p"),
    "int": ("zqx", "-3", "0", "99999999999999999999"),
    "number": ("zqx", "-3", "#0", "99999999999999999999"),
    "rating": ("zqx", "-99999", "1.23456"),
    "result": ("Q+", "B+Q"),
    "date": ("2026-13-45", "02/11/2026", "2999-01-01", "1800-01-01"),
    "month": ("2026-13", "zqx", "2999-01"),
    "komi": ("zqx", "99", "1/3", "6,5"),
    "time": ("zqx", "forever", "60m 3x"),
    "text": ("zqx",),
    "choice": ("zqx",),
    "system": ("zqx",),
    "file": (),
    "word": ("zqx",),
    "day": ("2026-13-45", "02/11/2026", "1800-01-01"),
    "clock": ("25:00", "zqx", "7pm"),
}
"""Bad values for an argument or an option, by its kind (commands.KINDS)."""

BAD_OPTION = {
    **BAD,
    "int": ("zqx", "-3", "99999999999999999999"),
    "text": ("zqx", "02/11/2026", "2026-13-45", "9", "-99", "1/2"),
    "rank": ("99z",),
}

GOOD = {
    "player": "Nagy Péter",
    "rank": "5k",
    "grade": "5k",
    "int": "1",
    "number": "1",
    "rating": "2000",
    "result": "B+",
    "date": "2026-04-01",
    "month": "2026-04",
    "komi": "6.5",
    "time": "60m",
    "text": "Nagy Péter",
    "choice": "",
    "system": "mgsz",
    "file": "",
    "word": "Cup",
    "day": "2026-04-01",
    "clock": "20:00",
}


def test_every_kind_has_bad_and_good_values() -> None:
    # a kind added to the declarations is tried here too, not skipped
    assert set(BAD) == set(BAD_OPTION) == set(GOOD) == set(KINDS)


TABLES = (
    "/result Nagy Péter Kovács Anna B+ date=2026-04-01",
    "/result Tóth Ádám Szabó Éva W+R date=2026-04-02",
    "/result Nagy Péter Tóth Ádám W+ h=2 komi=0.5 date=2026-04-03",
    "/result Kovács Anna Szabó Éva B+ komi=-7 date=2026-04-04",
    "/top",
    "/rating Nagy Péter",
    "/rating Nagy Péter all",
    "/history Nagy Péter",
    "/history Kovács Anna all",
    "/promotion Nagy Péter",
    "/handicap Nagy Péter Tóth Ádám",
    "/multiplier 60m",
    "/multiplier 30m handicap participants=12",
    "/summary",
    '/tournament new Club Cup rounds=2 time="60m 3x30s"',
    '/tournament result 1 Kovács Anna Szabó Éva B+ t="Club Cup"',
    "/tournament show Club Cup",
    "/tournament list",
    # a tournament run from the chat (issue 25): 3 players, so a bye; Kovács (7k) takes Black
    "/tournament new Winter Cup rounds=2 pairing=mcmahon bar=5k floor=20k handicap=rank-1",
    '/tournament add Nagy Péter, Kovács Anna, Tóth Ádám t="Winter Cup"',
    "/tournament players Winter Cup",
    "/tournament pair Winter Cup",
    "/tournament publish Winter Cup",
    "/tournament missing Winter Cup",
    "/result Kovács Anna Nagy Péter B+",
    "/tournament standings Winter Cup",
    "/tournament standings Winter Cup picture",
    "/tournament show Winter Cup",
    "/tournament finalise Winter Cup",
    "/club show",
    "/club settings",
    "/club komi 9",
    "/club komi 6.5",
    "/register Zqx Wyv 6k",
    "/undo",
    "/help",
    *(f"/help {name}" for name in COMMANDS),
)
"""Good invocations: those that answer with tables, numbers, dates and signed changes."""


def bad_lines(spec: CommandSpec) -> Iterator[str]:
    """Bad invocations of ``spec``, made from its declaration: nothing; each argument in
    turn bad with the others good; each option with a bad value; an unknown option; each
    action with nothing and with a bad word."""
    name = f"/{spec.name}"
    yield name
    yield f"{name} zqx=1"
    good = [GOOD[p.kind] for p in spec.params if p.required and GOOD[p.kind]]
    for i, param in enumerate(p for p in spec.params if p.required):
        for bad in BAD[param.kind]:
            words = [*good[:i], bad, *good[i + 1 :]]
            yield " ".join([name, *words])
    for option in spec.options:
        for bad in BAD_OPTION.get(option.kind, ()):
            quoted = f'"{bad}"' if " " in bad else bad
            for action in option.actions or ("",):
                yield " ".join(w for w in (name, action, *good, f"{option.key}={quoted}") if w)
    head = f"/{spec.name} "
    for part in spec.usage[len(head) :].split(" | "):
        action = part.split(maxsplit=1)[0] if part else ""
        if action.islower() and action.isalpha():
            yield f"{name} {action}"
            yield f"{name} {action} zqx"
            yield f"{name} {action} {NOBODY} 99z 02/11/2026"


@cache
def english_words() -> frozenset[str]:
    """The words of the English catalogue's message ids (the texts' own words, not their
    ``{placeholders}``), lower-case."""
    with (LOCALES / "hoshi.pot").open("rb") as handle:
        messages = read_po(handle)
    words: set[str] = set()
    for message in messages:
        for text in message.id if isinstance(message.id, tuple) else (message.id,):
            words.update(_words(re.sub(r"\{[^}]*\}", " ", text)))
    return frozenset(words)


@cache
def native_words(language: str) -> frozenset[str]:
    """The words ``language``'s catalogue writes (a word the language shares with English,
    such as Elo, komi or the Polish "to", is no sign of English)."""
    with po_path(language).open("rb") as handle:
        messages = read_po(handle)
    words: set[str] = set()
    for message in messages:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            words.update(_words(re.sub(r"\{[^}]*\}", " ", text or "")))
    return frozenset(words)


@cache
def typed_words() -> frozenset[str]:
    """What a user types and a reply may quote as typed: command names, option keys,
    actions, choices and the usage lines' literal words, the systems' keys and titles,
    the players' and the club's names, examples."""
    words: set[str] = set()
    for spec in COMMANDS.values():
        words.update(_words(spec.name))
        words.update(w for a in spec.aliases for w in _words(a))
        words.update(_words(PLACEHOLDER.sub(" ", spec.usage)))  # its keys, not NAME
        for example in spec.examples:
            words.update(_words(example))
        for option in spec.options:
            words.update(_words(option.key))
            words.update(w for c in option.choices for w in _words(c))
        for param in spec.params:
            words.update(w for c in param.choices for w in _words(c))
    for key in system_names.KEYS:
        words.update(_words(key))
        words.update(_words(system_names.title(key)))
    for key in storage_settings.declared():
        words.update(_words(key))  # /club set KEY
    words.update(("japanese", "canadian", "fischer", "unlimited", "none", "on", "off"))
    words.update(("kyu", "dan"))  # a rank as typed (3 kyu, 2 dan: engine.ranks)
    for line in (*PLAYERS, NOBODY, "Budapest Go Club", "Club Cup", "zqx"):
        words.update(_words(line))
    return frozenset(words)


@cache
def placeholders() -> frozenset[str]:
    """The usage lines' placeholders as English writes them (NAME, GAME_ID, YYYY)."""
    return frozenset(w for w in PLACEHOLDERS if PLACEHOLDER.fullmatch(w))


@cache
def as_typed() -> tuple[str, ...]:
    """Texts a reply shows as the user would type them: usage lines, examples, longest
    first (the checks read the reply without them)."""
    found = {s.usage for s in COMMANDS.values()}
    found.update(e for s in COMMANDS.values() for e in s.examples)
    return tuple(sorted(found, key=len, reverse=True))


def _words(text: str) -> list[str]:
    """The lower-case words of ``text`` (letters only; one letter is no word)."""
    return [w.lower() for w in re.findall(r"[^\W\d_]{2,}", text)]


PYTHON = re.compile(
    r"(?<![\w’])'[^'\n]+'(?!\w)"  # a repr's quotes: 'Nagy'
    r"|\b(?:Fraction|Decimal|datetime|date|time)\("  # a repr of a number or a date
    r"|Traceback|\b\w+(?:Error|Exception)\b|isoformat|\bNone\b"
)
FRACTION = re.compile(r"(?<![\d/.,:])\d+/\d+(?![\d/\w])")
"""A Fraction's str (11/2), looked for in the texts made outside ``_()`` and in the values a
text is given (a catalogue's own "{n}/{minimum}" is a way of writing, not Python's)."""
QUOTED = re.compile("|".join(f"{re.escape(a)}[^\n]*?{re.escape(b)}" for a, b in QUOTES.values()))
"""What a reply quotes as typed (“zqx”, „zqx”, 「zqx」)."""
COMMAND_TYPED = re.compile(r"(?<!\w)/[a-z]+(?: +[^\s()（）,;]+)*")
"""A command written in a text as the user types it, with its words (/club komi 6.5)."""
NUMBERS = re.compile(r"[-−]?\d+(?:[.,/]\d+)?")
"""A number as a text may write it (6.5, -3, 2026/3)."""
PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_]{2,}\b")
"""A usage placeholder (NAME, GAME_ID, YYYY), as the English usage line writes it."""
DECIMAL = re.compile(r"(?<![\d.,])\d+([.,])\d+(?![\d.,])")
"""A decimal number, with its mark."""
MINUS = re.compile(r"(?<![\w\-−:])([-−])\d")
"""A negative number, with its minus sign."""


@dataclass(frozen=True, slots=True)
class Problem:
    """What is wrong with one reply: its kind, the words and the line said."""

    kind: str
    found: str
    line: str
    text: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.found} — {self.line!r} →\n{self.text}"


def untranslated(text: object, language: str) -> Iterator[str]:
    """The message ids of ``text``'s catalogue texts (and their arguments') that
    ``language``'s catalogue does not translate yet."""
    if not isinstance(text, Msg):
        return
    found = catalogue(language)
    if text.plural_template is None:
        same = found.gettext(text.template) == text.template
    else:
        same = found.ngettext(text.template, text.plural_template, 2) == text.plural_template
    if same and _words(re.sub(r"\{[^}]*\}", " ", text.template)):
        yield text.template
    for value in text.args.values():
        yield from untranslated(value, language)


def texts(reply: Reply) -> Iterator[object]:
    """Every text of ``reply`` as it was made (a :class:`Msg` keeps its message id)."""
    for block in reply.blocks:
        if isinstance(block, Table):
            yield from block.header
            for row in block.rows:
                yield from row
        else:
            yield block.text
    for button in reply.buttons:
        yield button.label
    for extra in (reply.picture, reply.document):
        if extra is not None:
            yield extra.caption


def problems(line: str, reply: Reply, language: str) -> tuple[list[Problem], set[str]]:
    """What is wrong in ``reply`` to ``line`` in ``language``, and the message ids it shows
    that ``language`` has no translation for yet."""
    text = reply.as_text()
    found: list[Problem] = []
    read = without_typed(text, line, language)
    for match in PYTHON.finditer(read):
        found.append(Problem("python", match[0], line, text))
    for made in made_outside(reply):
        for match in FRACTION.finditer(without_typed(made, line, language)):
            found.append(Problem("python", match[0], line, text))
    for block in reply.blocks:
        if isinstance(block, Table):
            found.extend(Problem("table", bad, line, text) for bad in misaligned(block))
    mark = numbers.get_decimal_symbol(language)
    minus = numbers.get_minus_sign_symbol(language)
    numbers_read = COMMAND_TYPED.sub(" ", read)  # /club komi 6.5: an example, as typed
    for match in DECIMAL.finditer(numbers_read):
        if match[1] != mark and not _setting_line(numbers_read, match.start()):
            found.append(Problem("number", match[0], line, text))
    for match in MINUS.finditer(numbers_read):
        if match[1] != minus and not _setting_line(numbers_read, match.start()):
            found.append(Problem("minus", match[0], line, text))
    if language == "en":
        return found, set()
    missing = {t for shown in texts(reply) for t in untranslated(shown, language)}
    excused = {w for t in missing for w in _words(re.sub(r"\{[^}]*\}", " ", t))}
    typed = typed_words() | set(_words(line))
    usage = set()
    for shown in text.splitlines():
        if shown.lstrip().startswith("/"):
            usage.update(_words(shown))  # a usage line or an example, as typed
    for word in re.findall(r"\b[^\W\d_]{2,}\b", read):
        if word.isupper() and len(word) > 2:
            continue  # a placeholder's check, below
        low = word.lower()
        if (
            low in english_words()
            and low not in native_words(language)
            and low not in typed
            and low not in usage
            and low not in excused
        ):
            found.append(Problem("english", word, line, text))
    for match in PLACEHOLDER.finditer(text):
        if match[0] in placeholders() and match[0] not in line:
            if catalogue(language).gettext(match[0]) == match[0]:
                missing.add(match[0])  # the translators' work, not a text made outside _()
            else:
                found.append(Problem("placeholder", match[0], line, text))
    return found, missing


@cache
def own_fragments(language: str) -> re.Pattern[str]:
    """The stretches of ``language``'s catalogue texts (between their ``{placeholders}``)
    that write a number themselves: examples of what to type (``komi must be a number like
    6.5, 0.5 or -3``), shown as typed in every language; one pattern, longest first."""
    with po_path(language).open("rb") as handle:
        messages = read_po(handle)
    found: set[str] = set()
    for message in messages:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in (*ids, *strings):  # a text not translated yet is shown in English
            for fragment in re.split(r"\{[^}]*\}", text or ""):
                if NUMBERS.search(fragment):
                    found.add(fragment.strip())
    # a refusal starts with a capital
    found.update(f[:1].upper() + f[1:] for f in list(found))
    fragments = sorted(found - {""}, key=len, reverse=True)
    return re.compile("|".join(re.escape(f) for f in fragments))


def without_typed(text: str, line: str, language: str) -> str:
    """``text`` less what it shows as typed: what it quotes, usage lines and examples, the
    words of ``line``, and the numbers its catalogue texts write themselves."""
    read = QUOTED.sub(" ", text)
    for typed in as_typed():
        read = read.replace(typed, " ")
    for word in sorted(_said(line), key=len, reverse=True):
        read = re.sub(rf"(?<![\w.,/-]){re.escape(word)}(?![\w.,/])", " ", read)
    read = "\n".join(s for s in read.splitlines() if not s.lstrip().startswith("/"))
    return own_fragments(language).sub(lambda found: NUMBERS.sub("#", found[0]), read)


def made_outside(reply: Reply) -> Iterator[str]:
    """The texts of ``reply`` made outside ``_()`` and the plain values its texts are
    given (where a Python ``str(Fraction)`` would show)."""

    def plain(text: object) -> Iterator[str]:
        if isinstance(text, Msg):
            for value in text.args.values():
                yield from plain(value)
        elif isinstance(text, str) and not isinstance(text, Typed):
            yield text

    for shown in texts(reply):
        if isinstance(shown, Msg):
            yield from plain(shown)
        elif isinstance(shown, str):
            yield shown


def _said(line: str) -> set[str]:
    """The words of ``line`` and its options' values, as a reply may echo them."""
    words = set(line.split()[1:])
    words.update(w.partition("=")[2].strip('"') for w in line.split() if "=" in w)
    return {w for w in words if w}


def _setting_line(text: str, at: int) -> bool:
    """Whether ``at`` is in a ``key = value`` line of /club settings: a value as typed."""
    start = text.rfind("\n", 0, at) + 1
    return bool(re.match(r"[a-z_.]+ = ", text[start:]))


def misaligned(table: Table) -> list[str]:
    """The rows of ``table`` whose columns do not start at the header's screen columns (the
    console's and Telegram's monospace rendering: :meth:`Table.lines`)."""
    lines = table.lines()
    rows = [table.header, *table.rows]
    starts: list[list[int]] = []
    bad = []
    for row, shown in zip(rows, lines, strict=True):
        if any("\n" in cell or "\t" in cell for cell in row):
            bad.append(f"a cell with a line break or tab: {row}")
            continue
        at, here = 0, []
        for cell in row:
            index = shown.find(cell, at) if cell else at
            if index < 0:
                bad.append(f"cell {cell!r} not in {shown!r}")
                break
            here.append(display_width(shown[:index]))
            at = index + len(cell)
        starts.append(here)
    align = (table.align or "").ljust(len(table.header), "l")
    for column in range(len(table.header)):
        if align[column] == "r":
            continue  # a right-aligned column ends, not starts, at one place
        seen = {
            here[column]
            for here, row in zip(starts, rows, strict=False)
            if column < len(here) and row[column]
        }
        if len(seen) > 1:
            bad.append(f"column {column} starts at {sorted(seen)}")
    return bad


async def run_all(tmp_path: Path, system: str, language: str) -> list[tuple[str, Reply]]:
    chat = await FakeChat.open(tmp_path, system, language=language, players=PLAYERS)
    try:
        lines = [*TABLES, *(line for spec in COMMANDS.values() for line in bad_lines(spec))]
        said = []
        for line in lines:
            said.append((line, (await chat.say(line, as_=ADMIN)).reply))
        return said
    finally:
        await chat.close()


PAIRS = [(s, lang) for lang in LANGUAGES for s in SYSTEMS]


@pytest.mark.parametrize(("system", "language"), PAIRS)
async def test_no_reply_shows_english_python_or_a_misaligned_table(
    tmp_path: Path, system: str, language: str
) -> None:
    found: list[Problem] = []
    for line, reply in await run_all(tmp_path, system, language):
        found += problems(line, reply, language)[0]
    unique = {(p.kind, p.found, p.line): p for p in found}
    assert not unique, "\n\n".join(str(p) for p in unique.values())


@pytest.mark.parametrize(
    ("shown", "kind"),
    [
        ("No player called 'Nagy'", "python"),
        ("a komi of 11/2", "python"),
        ("ValueError: Invalid isoformat string", "python"),
        ("a komi of 6.5", "number"),
        ("a change of -4", "minus"),
        ("a játékos is not found", "english"),
    ],
)
def test_the_checks_find_each_kind(shown: str, kind: str) -> None:
    # a text made outside _() with each fault, in a Swedish reply
    found, _missing = problems("/rating", Reply((Text(shown),)), "sv")
    assert kind in {p.kind for p in found}, found


def test_the_checks_find_a_misaligned_table() -> None:
    class ByCharacters(Table):
        """Padded by characters, not by screen columns (佐藤 takes four)."""

        def lines(self) -> list[str]:
            return ["Namn        Grad", "佐藤" + " " * 10 + "1d", "Nagy Péter  5k"]

    table = Table(("Namn", "Grad"), (("佐藤", "1d"), ("Nagy Péter", "5k")))
    assert misaligned(table) == []
    assert misaligned(ByCharacters(table.header, table.rows))
