"""Texts the rules give a club member, kept translatable (issue 13: the bot speaks the club's
language; engine/ stays pure and English).

A :class:`Msg` is the English text itself (a ``str``, so every caller, log and test reads it
as before) that also remembers its message id and arguments. The bot looks the id up in the
club's catalogue and formats the arguments again in that language (``bot.i18n``); an argument
that is itself a :class:`Msg` is translated the same way. ``Msg`` and ``plural`` are the
extraction keywords of ``babel.cfg``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any


class Msg(str):
    """A text in English that a catalogue can give in another language.

    ``Msg("{player} moves to {rank}", player="Nagy", rank="3d")`` reads
    ``"Nagy moves to 3d"``; ``template`` and ``args`` keep what a translation needs.
    ``plural`` and ``n`` choose between a singular and a plural template by the language's
    own rule (English: ``n == 1`` is singular); ``n`` is also the argument ``{n}``.
    """

    template: str
    plural_template: str | None
    n: int | None
    args: Mapping[str, Any]

    def __new__(
        cls, template: str, /, *, _plural: str | None = None, _n: int | None = None, **args: Any
    ) -> Msg:
        # a replay makes hundreds of thousands (history notes): built in one go, formatted
        # only when there is something to put in (a template without arguments is its text)
        if _n is not None:
            args["n"] = _n
        chosen = template if _plural is None or _n == 1 else _plural
        made = str.__new__(cls, chosen.format_map(args) if args else chosen)
        made.__dict__ = {"template": template, "plural_template": _plural, "n": _n, "args": args}
        return made

    @classmethod
    def rendered(
        cls,
        text: str,
        template: str,
        plural_template: str | None,
        n: int | None,
        args: Mapping[str, Any],
    ) -> Msg:
        """A message whose text is already rendered (in any language)."""
        made = str.__new__(cls, text)
        made.__dict__ = {
            "template": template,
            "plural_template": plural_template,
            "n": n,
            "args": args,
        }
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        return (Msg.rendered, (str(self), self.template, self.plural_template, self.n, self.args))


def plural(singular: str, plural_: str, n: int, /, **args: Any) -> Msg:
    """``singular`` or ``plural_`` by ``n`` (English rule here; each catalogue has its own),
    formatted with ``args`` and ``{n}``."""
    return Msg(singular, _plural=plural_, _n=n, **args)


class Typed(str):
    """What a person typed, as a text's argument: shown quoted (“zqx”; the bot quotes it as
    the reader's language does, „zqx” or 「zqx」), never as Python's ``repr`` (``'zqx'``)."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        return f"“{self.shown}”"

    @property
    def shown(self) -> str:
        """The text as it can be shown: a character that prints nothing (a NUL, a lone
        surrogate, a control) written as its escape (``x\\x00y``), as Python's ``repr``
        would, without its quotes."""
        text = str.__str__(self)
        if text.isprintable():
            return text
        return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def decimal(value: Fraction | int, places: int | None = None, *, cut: bool = False) -> Decimal:
    """A number for a text's argument: ``Decimal``, so a text reads ``5.5`` in English (a
    ``Fraction`` would read ``11/2``) and the bot writes it in the reader's language with
    the same decimals (``5,5``; ``× 1,00``).

    Args:
        value: the exact number.
        places: the decimals to show; ``None``: the fewest (at most two) that show
            ``value`` as its rounding to two does (``6.5``, ``37.25``, ``7``).
        cut: cut the further decimals instead of rounding half away from zero.
    """
    exact = Fraction(value)
    if places is None:
        rounded = round(exact, 2)
        places = next(d for d in range(3) if round(rounded, d) == rounded)
    quotient = Decimal(exact.numerator) / Decimal(exact.denominator)
    step = Decimal(1).scaleb(-places)
    return quotient.quantize(step, rounding=ROUND_DOWN if cut else ROUND_HALF_UP)


MARK = re.compile(r"\{(player|game):(\d+)\}")
"""A mark in a text (:func:`game_mark`, :func:`player_mark`): its kind and id."""


def game_mark(game: int) -> str:
    """``{game:ID}``: a game named in a text, which the bot shows as the game's club number
    (``#12``); the engine knows only ids, which members never see (issue 22, item 3)."""
    return f"{{game:{game}}}"


def player_mark(player: int) -> str:
    """``{player:ID}``: a player named in a text, which the bot shows as the player's name."""
    return f"{{player:{player}}}"


def marked_id(text: object, kind: str) -> int | None:
    """The id of a lone ``{kind:ID}`` mark (:func:`game_mark`), else ``None``."""
    if isinstance(text, str):
        prefix = "{" + kind + ":"
        if text.startswith(prefix) and text.endswith("}") and text[len(prefix) : -1].isdecimal():
            return int(text[len(prefix) : -1])
    return None
