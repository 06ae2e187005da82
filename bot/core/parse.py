"""Reading command lines: tokens, quoted names, ``key=value`` options (bot.md, Arguments).

A name may contain spaces (``/rating Nagy Péter``); it ends at the next token that is a rank,
a result, a ``key=value`` option or a keyword. Quotes (``"Nagy Péter"``, also typographic
quotes) keep a name together.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.core.errors import BadArgument
from bot.i18n import _, number_text, quoted, translated
from engine.ratings import Rating, parse_rating

_QUOTES = {'"': '"', "“": "”", "„": "”", "«": "»", "”": "”"}
_ZERO_WIDTH = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")
MAX_LINE = 20_000


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    quoted: bool = False

    @property
    def option(self) -> tuple[str, str] | None:
        """``(key, value)`` for a ``key=value`` token (keys are lower-cased)."""
        if self.quoted or "=" not in self.text:
            return None
        key, _eq, value = self.text.partition("=")
        if not key or not re.fullmatch(r"[A-Za-z_]+", key):
            return None
        return key.lower(), value


def clean(text: str) -> str:
    """Drop zero-width and direction-control characters; normalise spaces."""
    return _ZERO_WIDTH.sub("", text).replace("\u00a0", " ")


def tokenize(text: str) -> list[Token]:
    """Split a command's argument text into tokens, honouring quotes.

    Raises:
        BadArgument: for an unclosed quote, or a line too long to be a command.
    """
    text = clean(text)
    if len(text) > MAX_LINE:
        raise BadArgument(
            _(
                "that line is {length} characters long; a command takes at most {limit} "
                "(paste big tables as a file)",
                length=number_text(len(text)),
                limit=number_text(MAX_LINE),
            )
        )
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if ch in _QUOTES:
            close = _QUOTES[ch]
            end = text.find(close, i + 1)
            if end < 0:
                raise BadArgument(
                    _(
                        'the quote opened at "{start}" is never closed; write names like '
                        "{example}",
                        start=text[i : i + 20],
                        example='"Nagy Péter"',
                    )
                )
            tokens.append(Token(text[i + 1 : end].strip(), quoted=True))
            i = end + 1
            continue
        j = i
        while j < n and not text[j].isspace():
            j += 1
        word = text[i:j]
        # key="quoted value"
        if word.endswith("=") is False and re.fullmatch(r"[A-Za-z_]+=[\"“„«].*", word):
            key, _eq, rest = word.partition("=")
            opener = rest[0]
            end = text.find(_QUOTES[opener], i + len(key) + 2)
            if end < 0:
                raise BadArgument(
                    # TRANSLATORS: {key}= is an option's name as typed (reason=); translate
                    # only "two words"
                    _(
                        'the quote after {key}= is never closed; write e.g. {key}="two words"',
                        key=key,
                    )
                )
            tokens.append(Token(f"{key}={text[i + len(key) + 2 : end]}"))
            i = end + 1
            continue
        tokens.append(Token(word))
        i = j
    return tokens


@dataclass(slots=True)
class Args:
    """A command's tokens with its options taken out."""

    words: list[Token]
    options: dict[str, str] = field(default_factory=dict)

    @classmethod
    def read(cls, text: str, allowed: Sequence[str] = (), *, command: str | None = None) -> Args:
        """Tokens, with ``key=value`` options (only ``allowed`` keys) separated out.

        ``command`` names the command in a refusal (``/tournament new``; without it the
        refusal says "this command").

        Raises:
            BadArgument: naming an option the command does not take (and the ones it takes),
                or an option given twice.
        """
        words: list[Token] = []
        options: dict[str, str] = {}
        for token in tokenize(text):
            option = token.option
            if option is None:
                words.append(token)
                continue
            key, value = option
            if key not in allowed:
                raise BadArgument(_unknown_option(command, key, allowed))
            if key in options:
                raise BadArgument(_("option {key}= is given twice", key=key))
            options[key] = value
        return cls(words, options)

    def text(self) -> str:
        return " ".join(t.text for t in self.words)


def _unknown_option(command: str | None, key: str, allowed: Sequence[str]) -> str:
    """The refusal of an option ``key=`` that ``command`` does not take."""
    if not allowed:
        if command is None:
            return _("this command takes no key=value options (not {key}=)", key=key)
        return _("{command} takes no key=value options (not {key}=)", command=command, key=key)
    known = ", ".join(f"{k}=" for k in allowed)
    if command is None:
        return _("this command has no option {key}=; it takes {known}", key=key, known=known)
    return _(
        "{command} has no option {key}=; it takes {known}", command=command, key=key, known=known
    )


def join(tokens: list[Token]) -> str:
    return " ".join(t.text for t in tokens).strip()


def rating_value(text: str, what: str, *, low: int, high: int) -> Rating:
    """A rating in ``[low, high]`` kept exactly to 3 decimals (rules.md §6 Decision: an EGD
    GoR such as 2705.840), or a BadArgument naming ``what``, the value and the reason."""
    try:
        value = parse_rating(text)
    except ValueError as exc:
        raise BadArgument(
            _("{what}: {reason}", what=what, reason=translated(exc.args[0]))
        ) from None
    _refuse_outside(value, what, low, high, shown=text.strip())
    return value


def _refuse_outside(value: Rating, what: str, low: int, high: int, *, shown: object) -> None:
    """A BadArgument naming ``what`` and the value as ``shown`` unless ``value`` is in
    ``[low, high]``."""
    if not low <= value <= high:
        raise BadArgument(
            _(
                "{what} must be {low}–{high}, not {value}",
                what=what,
                low=low,
                high=high,
                value=shown,
            )
        )


def positive_int(text: str, what: str, *, low: int = 1, high: int = 10_000) -> int:
    """An integer in ``[low, high]``, or a BadArgument naming ``what`` and the value."""
    cleaned = text.strip()
    if not re.fullmatch(r"[+-]?\d{1,12}", cleaned):
        raise BadArgument(
            _("{what} must be a whole number, not {value}", what=what, value=quoted(cleaned))
        )
    value = int(cleaned)
    _refuse_outside(value, what, low, high, shown=value)
    return value
