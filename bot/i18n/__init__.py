"""The bot's languages (issue 13): every text a club member reads goes through a catalogue.

``_("{name} is now {rank}", name=..., rank=...)`` gives the text in the language of the
conversation being answered (:func:`using`), formatted with its arguments; ``_n`` chooses a
plural form by the language's own rule (Polish has three); ``N_`` marks a text kept in a
constant and translated where it is shown (``_(CONSTANT)``). Each returns an
:class:`engine.text.Msg`, so a reply can be given again in another language
(:func:`translated`): a private answer in a group is in the person's own language.

Which language: the club's (``/club set language``, by default its rulebook's country); a
private conversation in the person's own language when the platform says it and a catalogue
exists (:func:`language_of`).
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime as dt
import os
import re
import string
from collections.abc import Iterator, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple

from babel import Locale
from babel.dates import format_date, format_skeleton, get_day_names
from babel.numbers import format_decimal, get_minus_sign_symbol, get_plus_sign_symbol

from bot.i18n.catalogues import LANGUAGES, SOURCE, catalogue
from engine.text import Msg, Typed

__all__ = [
    "LANGUAGES",
    "N_",
    "Msg",
    "_",
    "_n",
    "current",
    "date_text",
    "date_time_text",
    "language_name",
    "language_of",
    "month_text",
    "number_text",
    "own_name",
    "quoted",
    "signed_text",
    "terminal_language",
    "translated",
    "using",
    "weekday_text",
]

_language: contextvars.ContextVar[str] = contextvars.ContextVar("hoshi_language", default=SOURCE)


def current() -> str:
    """The language of the conversation being answered (``en`` outside any)."""
    return _language.get()


@contextlib.contextmanager
def using(language: str) -> Iterator[str]:
    """Answer in ``language`` inside the block (an unknown language answers in English)."""
    token = _language.set(language if language in LANGUAGES else SOURCE)
    try:
        yield _language.get()
    finally:
        _language.reset(token)


def language_of(tag: str | None) -> str | None:
    """The catalogue for a platform's language tag (Telegram ``pt-br``, Discord ``sv-SE``, a
    POSIX locale ``hu_HU.UTF-8``), or ``None`` when hoshi has none for it."""
    if not tag:
        return None
    primary = tag.replace("_", "-").split("-", 1)[0].split(".", 1)[0].lower()
    return primary if primary in LANGUAGES else None


def language_name(language: str) -> str:
    """The name of ``language`` in the current one (Babel: ``magyar``, ``日本語``,
    ``Hungarian``)."""
    return Locale.parse(language).get_display_name(current()) or language


def own_name(language: str) -> str:
    """The name of ``language`` in itself, as a language switch shows it (``English``,
    ``Magyar``, ``日本語``, ``Svenska``, ``Polski``)."""
    name = Locale.parse(language).get_display_name(language) or language
    return name[:1].upper() + name[1:]


def terminal_language(environ: Mapping[str, str] | None = None) -> str | None:
    """The language of the person at the terminal (the console, the command line): the POSIX
    locale's ``LC_ALL``, then ``LC_MESSAGES``, then ``LANG`` (the first one set decides, as
    ``setlocale`` reads them); ``None`` for the ``C``/``POSIX`` locale or a language hoshi has
    no catalogue for."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            if value.split(".", 1)[0] in ("C", "POSIX"):
                return None
            return language_of(value)
    return None


def N_(message: str) -> str:
    """``message`` as it is: marked for the catalogue, translated where it is shown."""
    return message


def _(message: str, /, **args: Any) -> Msg:
    """``message`` in the current language, formatted with ``args``."""
    return _rendered(message, None, None, args, current())


def _n(singular: str, plural: str, n: int, /, **args: Any) -> Msg:
    """``singular`` or ``plural`` by ``n`` and the current language's rule, formatted with
    ``args`` and ``{n}``."""
    return _rendered(singular, plural, n, {"n": n, **args}, current())


def translated(text: str, language: str | None = None) -> str:
    """``text`` in ``language`` (default: the current one) when it is a :class:`Msg`; any
    other text as it is."""
    if not isinstance(text, Msg):
        return text
    return _rendered(text.template, text.plural_template, text.n, text.args, language)


def _rendered(
    template: str,
    plural: str | None,
    n: int | None,
    args: Mapping[str, Any],
    language: str | None,
) -> Msg:
    language = language or current()
    found = catalogue(language)
    if plural is None:
        text = found.gettext(template)
    else:
        assert n is not None
        text = found.ngettext(template, plural, n)
    if args:
        text = _Formatter(language).vformat(_unquoted(text, args), (), args)
    return Msg.rendered(text, template, plural, n, args)


_QUOTED_FIELD = re.compile(r"[\"'“”„「‘’]\{(\w+)(!r)?\}[\"'“”」’‘]")
"""A field a template quotes itself (``'{value}'``, 「{value}」)."""


def _unquoted(text: str, args: Mapping[str, Any]) -> str:
    """``text`` without the quotation marks round a field whose value is quoted anyway (what
    a person typed, ``{x!r}``): a translation that quotes it too would show it twice
    (「「zqx」」, „'zqx'”)."""

    def bare(found: re.Match[str]) -> str:
        typed = found[2] or isinstance(args.get(found[1]), Typed)
        return found[0][1:-1] if typed else found[0]

    return _QUOTED_FIELD.sub(bare, text)


class _Formatter(string.Formatter):
    """Formats a text's arguments as ``language`` writes them (:func:`_shown`); ``{x!r}``
    (the engine's texts quote what a person typed so) quotes as the language does, never as
    Python's ``repr`` (``'zqx'``)."""

    def __init__(self, language: str) -> None:
        self.language = language

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion == "r" and isinstance(value, str):
            return Typed(translated(value, self.language))
        return super().convert_field(value, conversion)

    def format_field(self, value: Any, format_spec: str) -> str:
        return format(_shown(value, self.language), format_spec)


def _shown(value: object, language: str) -> object:
    """An argument as ``language`` writes it: a text of a catalogue translated, a day as a
    date (the rules pass ``dt.date``: ISO in their English, ``2026. nov. 20.`` here)."""
    if isinstance(value, Msg):
        return translated(value, language)
    if type(value) is dt.date:
        return format_date(value, "medium", locale=language)
    if isinstance(value, Month):
        return format_skeleton("yMMMM", dt.date(value.year, value.month, 1), locale=language)
    if isinstance(value, Typed):
        return _quoted(value, language)
    if isinstance(value, Fraction | Decimal | float) or (
        isinstance(value, int) and not isinstance(value, bool) and value < 0
    ):
        with using(language):
            return number_text(value, _places(value), grouped=False)
    return value


def _places(value: Fraction | Decimal | float | int) -> int:
    """The decimals ``value`` is written with: a Decimal's own (``Decimal("0.50")``: two),
    else the fewest of at most two that show it as its rounding does (5.5, 37.25)."""
    if isinstance(value, Decimal):
        exponent = value.as_tuple().exponent
        return -exponent if isinstance(exponent, int) and exponent < 0 else 0
    exact = Fraction(value)
    rounded = round(exact, 2)
    return next(d for d in range(3) if round(rounded, d) == rounded)


def date_text(day: dt.date) -> str:
    """``day`` as the current language writes a date (Babel: ``Nov 23, 2026``,
    ``2026. nov. 23.``, ``2026/11/23``)."""
    return format_date(day, "medium", locale=current())


def date_time_text(moment: dt.datetime) -> str:
    """``moment`` (already in the club's time zone) as a date and a 24-hour time."""
    return f"{date_text(moment.date())} {moment.strftime('%H:%M')}"


def weekday_text(weekday: int) -> str:
    """The name of ``weekday`` (0 = Monday) in the current language."""
    name: str = get_day_names("wide", locale=current())[weekday]
    return name


class Month(NamedTuple):
    """A month as a text's argument: written as the language that shows the text writes
    it (``November 2026``, ``2026. november``), also when the text is given again in another
    language (:func:`translated`)."""

    year: int
    month: int


def month_text(year: int, month: int) -> str:
    """A month and its year as the current language writes them (``November 2026``)."""
    return format_skeleton("yMMMM", dt.date(year, month, 1), locale=current())


def number_text(
    value: float | Fraction | Decimal | int, digits: int = 0, *, grouped: bool = True
) -> str:
    """``value`` with ``digits`` decimals, the current language's decimal mark and minus
    sign (Babel: ``-7`` in English, ``−7`` in Swedish, ``1,00`` in Polish) and, when
    ``grouped``, its thousands separator (``20,001``; a rating reads 1720 ungrouped).
    Rounded half away from zero, exactly (a Fraction is not made a float first)."""
    exact = Decimal(value) if isinstance(value, float) else value
    if isinstance(exact, Fraction):
        exact = Decimal(exact.numerator) / Decimal(exact.denominator)
    whole = "#,##0" if grouped else "0"
    pattern = f"{whole}.{'0' * digits}" if digits else whole
    rounded = Decimal(exact).quantize(Decimal(1).scaleb(-digits), rounding="ROUND_HALF_UP")
    text = format_decimal(abs(rounded), format=pattern, locale=current())
    # Babel's patterns write an ASCII hyphen whatever the locale's minus sign: its own
    return get_minus_sign_symbol(current()) + text if rounded < 0 else text


def signed_text(value: float | Fraction | Decimal | int, digits: int = 0) -> str:
    """A change with its sign in the current language (Babel's plus and minus signs):
    ``+16``, ``-4.5`` (``−4,5`` in Swedish), ``±0``."""
    text = number_text(-value if value < 0 else value, digits)
    if value > 0:
        return get_plus_sign_symbol(current()) + text
    if value < 0:
        return get_minus_sign_symbol(current()) + text
    return f"±{text}"


QUOTES = {
    "en": ("“", "”"),
    "hu": ("„", "”"),
    "ja": ("「", "」"),
    "pl": ("„", "”"),
    "sv": ("”", "”"),
}
"""Each language's quotation marks (CLDR's delimiters; Babel does not carry them)."""


def quoted(text: str) -> Typed:
    """What a person typed, as an argument of ``_()``: quoted as the reader's language
    quotes (“zqx”, „zqx”, 「zqx」), never as Python's ``repr`` (``'zqx'``); an empty text is
    quoted too (“”)."""
    return Typed(text)


def _quoted(text: Typed, language: str) -> str:
    start, end = QUOTES.get(language, QUOTES[SOURCE])
    return f"{start}{text.shown}{end}"
