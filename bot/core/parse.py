"""Reading command lines: tokens, quoted names, ``key=value`` options (bot.md, Arguments),
and the one parser that fills a command's arguments dataclass (bot.core.commands).

A name may contain spaces (``/rating Nagy Péter``); it ends at the next token that is a rank,
a result, a ``key=value`` option or a keyword. Quotes (``"Nagy Péter"``, also typographic
quotes) keep a name together.

:func:`read_arguments` reads a typed line (console, Telegram) into the dataclass:

1. ``key=value`` options come out first (only the command's; each converted by its kind);
2. positional params before the first multi-word one (a name, a text) take one word each
   from the left (``/void 12``, ``/weekly on …``);
3. flags said ``anywhere`` are taken out where they stand (``Kiss beat Tóth``, ``12 swap``);
4. from the right, flags at the end and the params after the last multi-word one take a word
   each when it reads as their kind (a rank, a result, a number; optional ones only when the
   words left still fill the required ones): ``/history Kovács 20 all``;
5. what is left is the name (or text); two player params in a row are split by the club's
   names (:func:`bot.core.names.resolve_pair`, through the :class:`Names` port).

:func:`fill_arguments` fills the same dataclass from Discord's typed option values, with the
same conversions and refusals, and :func:`render_arguments` writes values back as the line
the parser reads (Discord's echo of a slash command, the buttons' commands).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from bot.core.commands import (
    MULTI_WORD,
    CommandSpec,
    GameResult,
    Grade,
    Layout,
    Option,
    Param,
    Upload,
    shown,
)
from bot.core.errors import BadArgument, reason
from bot.i18n import N_, _, number_text, quoted, translated
from engine.errors import EngineError, RankError
from engine.formats import parse_result_margin
from engine.formats.tournament_file import parse_komi
from engine.ranks import Rank, is_rank, parse_rank_lenient
from engine.ratings import Rating, parse_rating
from engine.timecontrol import TimeControl
from storage.records import Player

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
    def read(
        cls,
        text: str,
        allowed: Sequence[str] = (),
        *,
        command: str | None = None,
        elsewhere: Mapping[str, str] | None = None,
    ) -> Args:
        """Tokens, with ``key=value`` options (only ``allowed`` keys) separated out.

        ``command`` names the command in a refusal (``/tournament new``; without it the
        refusal says "this command"); ``elsewhere`` maps an option another action of the
        command takes to that action (``from`` → ``/club set``), which its refusal names.

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
                refusal = _unknown_option(command, key, allowed)
                other = (elsewhere or {}).get(key)
                if other is not None:
                    # TRANSLATORS: {refusal} is a refusal such as "/club komi takes no
                    # key=value options (not from=)"
                    refusal = _(
                        "{refusal} ({key}= goes with {other})",
                        refusal=refusal,
                        key=key,
                        other=other,
                    )
                raise BadArgument(refusal)
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
            _(
                "{what}: {reason}",
                what=what,
                reason=reason(exc, _("cannot read {text}", text=quoted(text))),
            )
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
    if not re.fullmatch(r"[+-]?[0-9]{1,12}", cleaned):
        raise BadArgument(
            _("{what} must be a whole number, not {value}", what=what, value=quoted(cleaned))
        )
    value = int(cleaned)
    _refuse_outside(value, what, low, high, shown=value)
    return value


# --- values of each kind ---------------------------------------------------------------------

RATING_WORD = re.compile(r"[-−]?[0-9]+(?:[.,][0-9]+)?")
"""A rating typed as a word: whole, or with decimals (an EGD GoR 2705.840)."""
PRO_WORD = re.compile(r"[1-9]\s*(?:p|pro)\.?", re.IGNORECASE)
"""A professional rank (``3p``)."""
EARLIEST = dt.date(1900, 1, 1)
AFTER = {
    "result": N_("unexpected {extra} after the result (options look like h=2)"),
    "grade": N_("unexpected {words} after the rank"),
}
"""The refusal of words after a result or a rank typed where it belongs."""
WORD_NAMED = frozenset({"result", "grade"})
"""Kinds whose refusal of a word names it and says what is missing (not ``Param.missing``)."""


def read_result(text: str) -> GameResult | None:
    """The result a word denotes, or ``None`` when it is not a result (SGF's ``0`` for a draw
    is too easily a typo here: it asks for ``jigo``)."""
    if text.lower() in ("0",):
        return None
    try:
        outcome, played, margin = parse_result_margin(text)
    except EngineError:
        return None
    return GameResult(outcome, played, margin, text)


def date_value(value: str, today: dt.date) -> dt.date:
    """``YYYY-MM-DD``, ``today`` or ``yesterday`` (club time), not in the future, not before
    1900.

    Raises:
        BadArgument: naming the value and the form, with today as the example.
    """
    if value.lower() == "today":
        return today
    if value.lower() == "yesterday":
        return today - dt.timedelta(days=1)
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        raise BadArgument(
            _(
                "date must be YYYY-MM-DD, e.g. date={today}, not {value}",
                today=today.isoformat(),
                value=quoted(value),
            )
        ) from None
    if day > today + dt.timedelta(days=1):
        raise BadArgument(_("the date {date} is in the future", date=day.isoformat()))
    if day < EARLIEST:
        raise BadArgument(
            _("the date {date} is before {year}", date=day.isoformat(), year=EARLIEST.year)
        )
    return day


def month_value(value: str, today: dt.date) -> dt.date:
    """``YYYY-MM``, a past or current month, as its first day."""
    found = re.fullmatch(r"([0-9]{4})-([0-9]{1,2})", value.strip())
    if found is not None:
        year, month = int(found[1]), int(found[2])
        if 1 <= month <= 12 and 1900 <= year <= today.year and dt.date(year, month, 1) <= today:
            return dt.date(year, month, 1)
    raise BadArgument(_("month must be a past or current YYYY-MM, not {value}", value=value))


def day_value(value: str) -> dt.date:
    """``YYYY-MM-DD``, past or future (a tournament's days, a moment to rate it), not before
    1900."""
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        raise BadArgument(
            _("the date must be YYYY-MM-DD, not {value}", value=quoted(value))
        ) from None
    if day < EARLIEST:
        raise BadArgument(
            _("the date {date} is before {year}", date=day.isoformat(), year=EARLIEST.year)
        )
    return day


def clock_value(value: str) -> dt.time:
    """``HH:MM``, a time of day from 00:00 to 23:59."""
    try:
        return dt.time.fromisoformat(value.strip().zfill(5))
    except ValueError:
        raise BadArgument(
            _("{value} is not a time of day: HH:MM from 00:00 to 23:59", value=quoted(value))
        ) from None


def komi_value(value: str) -> Fraction:
    """A komi such as 6.5, 0.5 or -3, between -50 and 50."""
    try:
        k = parse_komi(value)
    except EngineError:
        raise BadArgument(
            _("komi must be a number like 6.5, 0.5 or -3, not {value}", value=quoted(value))
        ) from None
    if not -50 <= k <= 50:
        raise BadArgument(_("komi must be between -50 and 50, not {value}", value=value))
    return k


def time_value(value: str) -> TimeControl:
    """A time control (``60m 3x30s``), refused naming the value and why."""
    try:
        return TimeControl.parse(value)
    except EngineError as exc:
        reason = translated(exc.args[0]) if exc.args else str(exc)
        raise BadArgument(
            _("time={value}: {reason}", value=quoted(value), reason=reason)
        ) from None


def grade_value(text: str) -> Grade:
    """A rank (``5k``, ``5 k``) or a professional rank ``Np`` (read as 7d, rules.md §6)."""
    if PRO_WORD.fullmatch(text) and not is_rank(text):
        try:
            rank, pro = parse_rank_lenient(text)
        except RankError as exc:
            raise BadArgument(translated(exc.args[0]) if exc.args else str(exc)) from None
        return Grade(rank, pro)
    try:
        return Grade(Rank.parse(text))
    except RankError as exc:
        raise BadArgument(
            _(
                "the rank is missing or unreadable: {reason}",
                reason=translated(exc.args[0]) if exc.args else str(exc),
            )
        ) from None


class Names(Protocol):
    """How the parser turns names into the club's players (bot.core.names, the one place
    that matches names)."""

    async def player(self, name: str) -> Player:
        """The one player ``name`` denotes (UnknownPlayer, Ambiguous otherwise)."""
        ...

    async def pair(
        self, tokens: Sequence[Token], what: str, at: int | None = None
    ) -> tuple[Player, Player]:
        """Two players named one after the other; ``at``: they are split there."""
        ...


@dataclass(frozen=True, slots=True)
class Reader:
    """What reading arguments needs beyond the text: the club's today (dates; or how to tell
    it, asked only when a date is read: a command that reads none never needs the club's
    clock), its names (``None`` in a chat without a club) and the file sent with the
    command."""

    day: dt.date | Callable[[], dt.date]
    names: Names | None = None
    attachment: Upload | None = None

    @property
    def today(self) -> dt.date:
        return self.day() if callable(self.day) else self.day


def _matches(slot: Param, words: Sequence[Token]) -> int:
    """How many of the last ``words`` read as ``slot``'s kind (0: they do not)."""
    last = words[-1]
    if last.quoted:
        return 0
    text, kind = last.text, slot.kind
    if kind == "int":
        return int(re.fullmatch(r"[+-]?[0-9]+", text) is not None)
    if kind == "number":
        return int(re.fullmatch(r"#?[0-9]+", text) is not None)
    if kind == "rating":
        return int(RATING_WORD.fullmatch(text) is not None)
    if kind == "rank":
        return int(is_rank(text))
    if kind == "grade":
        if is_rank(text) or PRO_WORD.fullmatch(text):
            return 1
        two = len(words) >= 2 and not words[-2].quoted and is_rank(words[-2].text + text)
        return 2 if two else 0
    if kind == "result":
        return int(read_result(text) is not None)
    if kind == "date":
        day = r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}|today|yesterday"
        return int(re.fullmatch(day, text.lower()) is not None)
    if kind == "month":
        return int(re.fullmatch(r"[0-9]{4}-[0-9]{1,2}", text) is not None)
    if kind == "day":
        return int(re.fullmatch(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}", text) is not None)
    if kind == "clock":
        return int(re.fullmatch(r"[0-9]{1,2}:[0-9]{2}", text) is not None)
    if kind in ("choice", "system"):
        return int(text.lower() in slot.choices)
    if kind in ("komi", "time"):
        return 1
    return 0


async def convert(slot: Param | Option, text: str, reader: Reader) -> object:
    """``text`` read as ``slot``'s kind (bot.core.commands.KINDS).

    Raises:
        BadArgument: naming the argument and the value (UnknownPlayer, Ambiguous for names).
    """
    kind, what = slot.kind, slot.label
    if kind == "player":
        if reader.names is None:
            raise BadArgument(_("a player's name is missing"))
        return await reader.names.player(text)
    if kind == "int":
        return positive_int(text, what, low=slot.low, high=slot.high)
    if kind == "number":
        return positive_int(text.lstrip("#"), what, high=10**12)
    if kind == "rating":
        return rating_value(text, what, low=slot.low, high=slot.high)
    if kind == "rank":
        try:
            return Rank.parse(text)
        except RankError as exc:
            raise BadArgument(translated(exc.args[0]) if exc.args else str(exc)) from None
    if kind == "grade":
        return grade_value(text)
    if kind == "result":
        read = read_result(text)
        if read is not None:
            return read
        if isinstance(slot, Option):
            raise BadArgument(
                _(
                    "{key}={value}: write B+, W+, B+R, W+3.5, jigo or unplayed",
                    key=slot.key,
                    value=quoted(text),
                )
            )
        raise BadArgument(
            _(
                "the result is missing ({word} is not one): write B+, W+, B+R, W+3.5, "
                "jigo or unplayed after the two names",
                word=quoted(text),
            )
        )
    if kind == "date":
        return date_value(text, reader.today)
    if kind == "month":
        return month_value(text, reader.today)
    if kind == "day":
        return day_value(text)
    if kind == "clock":
        return clock_value(text)
    if kind == "komi":
        return komi_value(text)
    if kind == "time":
        return time_value(text)
    if kind in ("choice", "system"):
        word = text.strip().lower()
        if word not in slot.choices:
            raise BadArgument(
                _(
                    "{what} must be one of {choices}, not {value}",
                    what=what,
                    choices=", ".join(shown(c) for c in slot.choices),
                    value=quoted(text),
                )
            )
        return word
    if kind == "file":
        raise BadArgument(_("attach the file, or paste it on the lines below the command"))
    return text


def missing(slot: Param, example: str | None) -> BadArgument:
    """The refusal of a required param that was not given: its own (``{example}``: the
    command's example), or one naming it."""
    if slot.missing:
        return BadArgument(_(slot.missing, example=example or ""))
    if slot.kind == "player":
        return BadArgument(_("a player's name is missing"))
    if example:
        return BadArgument(
            _("{what} is missing, e.g. {example}", what=slot.label, example=example)
        )
    return BadArgument(_("{what} is missing", what=slot.label))


def _example(spec: CommandSpec, layout: Layout) -> str | None:
    start = layout.label
    return next((e for e in spec.examples if e == start or e.startswith(start + " ")), None)


def _layout(spec: CommandSpec, text: str, table: bool) -> tuple[Layout, str]:
    """The form ``text`` is in (an action's, by its first word or an alias; ``bare`` for a
    line without one) and the text after it; ``table``: a table came with it (an action
    declares what it is read as then, or one without a file param refuses it).

    Raises:
        BadArgument: no action or an unknown one (with the usage line), or a table for an
            action that reads none.
    """
    own = spec.layout()
    if own is not None:
        return own, text
    line, newline, below = text.partition("\n")  # a table pasted below stays below
    words = line.split(maxsplit=1)
    action = words[0].lower() if words else ""
    if not action and spec.bare is not None:
        return Layout((), (), (), spec.bare, spec.label), text
    if not action:
        raise BadArgument(_("say what to do: {usage}", usage=spec.usage_text()))
    declared = next((a for a in spec.typed_actions() if a.said(action)), None)
    if declared is None and spec.unknown:
        raise BadArgument(_(spec.unknown, action=quoted(action)))
    if declared is None:
        raise BadArgument(
            _("unknown {command} action {action}", command=spec.label, action=quoted(action))
        )
    if table and declared.table:
        declared = next(a for a in spec.typed_actions() if a.name == declared.table)
    found = spec.layout(declared.name)
    assert found is not None
    readers = [a.name for a in spec.typed_actions() if any(p.kind == "file" for p in a.params)]
    if table and readers and not any(p.kind == "file" for p in found.params):
        raise BadArgument(
            _(
                "{command} takes no pasted table; paste results with {other}",
                command=found.label,
                other=f"{spec.label} {readers[0]}",
            )
        )
    return found, (words[1] if len(words) > 1 else "") + newline + below


async def read_arguments(spec: CommandSpec, text: str, reader: Reader) -> object:
    """The command's arguments dataclass from the typed line ``text`` (the module's steps).

    Raises:
        BadArgument: an unknown or repeated option, a missing or unreadable argument, words
            left over (the command's ``extra`` refusal); UnknownPlayer, Ambiguous for names.
    """
    reads_files = any(p.kind == "file" for a in spec.actions for p in a.params)
    below = text.partition("\n")[2]
    table = reads_files and (reader.attachment is not None or bool(below.strip()))
    layout, text = _layout(spec, text, table)
    files = [p for p in layout.params if p.kind == "file"]
    upload = reader.attachment
    if files:  # a table pasted below the command is its file
        text, _newline, pasted = text.partition("\n")
        if upload is None and pasted.strip():
            upload = Upload(pasted.encode("utf-8"))
    lead = next((p for p in layout.positional() if p.first), None)
    if lead is not None:
        _lead_first(lead, layout, tokenize(text.partition("\n")[0]))
    keys = [o.key for o in layout.options]
    elsewhere = {
        o.key: f"{spec.label} {o.actions[0]}"
        for o in spec.options
        if o.actions and o.key not in keys
    }
    parsed = Args.read(text, keys, command=layout.label, elsewhere=elsewhere)
    values: dict[str, object] = {}
    for option in layout.options:
        if option.key in parsed.options:
            values[option.field] = await convert(option, parsed.options[option.key], reader)
    for param in files:
        if upload is not None:
            values[param.field] = upload
        elif param.required:
            raise missing(param, _example(spec, layout))
    words = list(parsed.words)
    flags: dict[str, bool] = {}
    positional = layout.positional()
    multi = [i for i, p in enumerate(positional) if p.kind in MULTI_WORD]
    first = multi[0] if multi else len(positional)
    # 2. singles before the first name, from the left
    for param in positional[:first]:
        if words:
            said = words.pop(0).text
            values[param.field] = await _single(param, said, reader, _example(spec, layout))
        elif param.required:
            raise missing(param, _example(spec, layout))
    # 3. flags said anywhere
    split_at: int | None = None
    for flag in layout.flags:
        if not flag.anywhere:
            continue
        at = next(
            (i for i, t in enumerate(words) if not t.quoted and t.text.lower() in flag.said),
            None,
        )
        if at is not None:
            flags[flag.field] = True
            del words[at]
            if 0 < at < len(words):
                split_at = at
    skipped = {f.instead_of for f in layout.flags if f.instead_of and flags.get(f.field)}
    middle = list(positional[first : multi[-1] + 1]) if multi else []
    pending = [p for p in positional[multi[-1] + 1 :] if p.name not in skipped] if multi else []
    # 4. from the right: flags at the end, and the params after the names
    trailing = [f for f in layout.flags if not f.anywhere]
    need_middle = (2 if len(middle) == 2 else 1) if middle and middle[0].required else 0
    while words:
        need = need_middle + sum(p.required for p in pending)
        last = words[-1]
        said_flag = next(
            (
                f
                for f in trailing
                if f.field not in flags and not last.quoted and last.text.lower() in f.said
            ),
            None,
        )
        if said_flag is not None and len(words) - 1 >= need:
            flags[said_flag.field] = True
            words.pop()
            continue
        if not pending:
            break
        param = pending[-1]
        count = _matches(param, words)
        if count and (param.required or len(words) - count >= need):
            said = " ".join(t.text for t in words[-count:])
            values[param.field] = await convert(param, said, reader)
            del words[-count:]
            pending.pop()
            continue
        if param.required:
            if param.refusal:
                example = _example(spec, layout) or ""
                raise BadArgument(_(param.refusal, value=quoted(last.text), example=example))
            if param.missing and param.kind not in WORD_NAMED:
                raise missing(param, _example(spec, layout))
            earlier = next(
                (i for i in range(len(words) - 1, -1, -1) if _matches(param, words[: i + 1])),
                None,
            )
            if earlier is not None and param.kind in AFTER:
                said = quoted(join(words[earlier + 1 :]))
                raise BadArgument(_(AFTER[param.kind], extra=said, words=said))
            await convert(param, last.text, reader)  # refuses it, naming the word
            raise missing(param, _example(spec, layout))
        pending.pop()
    for param in pending:
        if param.required:
            if not param.missing and param.kind in WORD_NAMED:
                await convert(param, "", reader)  # "the rank is missing or unreadable: …"
            raise missing(param, _example(spec, layout))
    # 5. what is left is the name, the text, or two names
    if len(middle) == 2:
        if words:
            names = _names(reader)
            values[middle[0].field], values[middle[1].field] = await names.pair(
                words, layout.label, split_at
            )
        elif middle[0].required:
            raise missing(middle[0], _example(spec, layout))
    elif middle:
        said = join(words)
        if said:
            values[middle[0].field] = await convert(middle[0], said, reader)
        elif middle[0].required:
            raise missing(middle[0], _example(spec, layout))
    elif words:
        raise _extra(spec, layout, words, parsed.words)
    values.update(flags)
    return layout.arguments(**values)


async def _single(param: Param, text: str, reader: Reader, example: str | None) -> object:
    """A one-word param from the left: its ``refusal`` (or, a choice, its ``missing`` one)
    when it does not read."""
    if param.refusal or (param.missing and param.kind == "choice"):
        probe = Param(param.name, param.kind, "", choices=param.choices)
        if not _matches(probe, [Token(text)]):
            if param.refusal:
                raise BadArgument(_(param.refusal, value=quoted(text), example=example or ""))
            raise BadArgument(_(param.missing))
    return await convert(param, text, reader)


def _lead_first(lead: Param, layout: Layout, tokens: Sequence[Token]) -> None:
    """A ``first`` param's words come before every option and flag (bot.md, Arguments: a
    name ends at the first keyword); a word after them means a name cut in two, or a word
    that is not the name or an option: refuse it rather than guess. ``lead.check`` refuses
    an unquoted word of it that cannot be part of it.

    Raises:
        BadArgument: naming the word, where it stands and how to write it.
    """
    said = {w for f in layout.flags for w in f.said}
    name: list[Token] = []
    mark: Token | None = None  # the first option or flag: the name ends before it
    for token in tokens:
        if token.option is not None or (not token.quoted and token.text.lower() in said):
            mark = mark or token
            continue
        if mark is None:
            if lead.check is not None and not token.quoted:
                lead.check(token.text, name[-1].text if name else "")
            name.append(token)
        elif mark.option is not None:
            raise BadArgument(
                _(
                    "{word} comes after the options: write the name first, e.g. {example}",
                    word=quoted(token.text),
                    example=f"{layout.label} {join([*name, token])} {mark.text}",
                )
            )
        else:
            # a word after a keyword: a name like "World Cup" was cut in two — say so
            flag = layout.flags[0].said[0]
            raise BadArgument(
                _(
                    "{word} comes after {mark}: write the name first, and in quotes when it "
                    "holds a word like {keyword}, e.g. {example}",
                    word=quoted(token.text),
                    mark=quoted(mark.text),
                    keyword=mark.text,
                    example=f'{layout.label} "{join([*name, mark, token])}" {flag}',
                )
            )


def _names(reader: Reader) -> Names:
    if reader.names is None:
        raise BadArgument(_("a player's name is missing"))
    return reader.names


def _extra(
    spec: CommandSpec, layout: Layout, words: Sequence[Token], typed: Sequence[Token]
) -> BadArgument:
    """The refusal of ``words`` left over: the action's or command's own (``{text}``: every
    word typed, ``{words}``: those left, ``{word}``: the first of them), or one naming them."""
    said = join(list(words))
    own = layout.extra or spec.extra
    if own:
        return BadArgument(
            _(own, text=quoted(join(list(typed))), words=quoted(said), word=quoted(words[0].text))
        )
    return BadArgument(
        _("{command} does not take {words}", command=spec.label, words=quoted(said))
    )


async def fill_arguments(
    spec: CommandSpec, values: Mapping[str, object], reader: Reader, action: str | None = None
) -> object:
    """The command's arguments dataclass — or, for a command with actions, ``action``'s (a
    Discord subcommand: ``/club komi``) — from typed option values by field name (Discord's
    options: ints as ints, booleans for flags, names and words as strings, the file as the
    reader's attachment), converted and refused as :func:`read_arguments` does; an absent or
    empty value takes the default.

    Raises:
        BadArgument: a required argument missing or a value that does not read.
        ValueError: ``action`` is not one of the command's forms.
    """
    layout = spec.layout(action)
    if layout is None:
        raise ValueError(f"/{spec.name} has no typed form {action!r}")
    filled: dict[str, object] = {}
    example = _example(spec, layout)
    for flag in layout.flags:
        if values.get(flag.field):
            filled[flag.field] = True
    skipped = {f.instead_of for f in layout.flags if f.instead_of and filled.get(f.field)}
    pair = [p for p in layout.positional() if p.kind in MULTI_WORD]
    pair = pair if len(pair) == 2 else []  # two names in a row (check_fields: players)
    slots: list[Param | Option] = [*layout.params, *layout.options]
    for slot in slots:
        value = values.get(slot.field)
        if isinstance(slot, Param) and slot.kind == "file":
            value = reader.attachment
        if value is None or (isinstance(value, str) and not value.strip()):
            if isinstance(slot, Param) and slot.required and slot.name not in skipped:
                raise missing(slot, example)
            continue
        if slot in pair:
            continue
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            filled[slot.field] = await convert(slot, str(value).strip(), reader)
        else:
            filled[slot.field] = value
    if pair and all(p.field in values and values[p.field] for p in pair):
        tokens = [Token(str(values[p.field]).strip(), quoted=True) for p in pair]
        filled[pair[0].field], filled[pair[1].field] = await _names(reader).pair(
            tokens, layout.label
        )
    return layout.arguments(**filled)


def value_text(value: object) -> str:
    """A value as it is typed (a player by name, a rank as ``5k``, a date as ISO)."""
    if isinstance(value, Player):
        return value.name
    if isinstance(value, GameResult):
        return value.text
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def render_arguments(
    spec: CommandSpec, values: Mapping[str, object], action: str | None = None
) -> str:
    """The line :func:`read_arguments` reads back as ``values`` (by field name, typed or as
    given): params in order (a name or text with spaces in quotes), then ``key=value``
    options, then flags by their first word; files and empty values are left out."""
    layout = spec.layout(action)
    if layout is None:
        raise ValueError(f"/{spec.name} has no form {action!r}")
    words: list[str] = [action] if action else []
    for param in layout.positional():
        value = values.get(param.field)
        if value is None:
            continue
        text = value_text(value).replace('"', "").strip()
        if param.kind == "month" and isinstance(value, dt.date):
            text = f"{value.year}-{value.month:02d}"
        if not text:
            continue
        words.append(f'"{text}"' if param.kind in MULTI_WORD else text)
    for option in layout.options:
        value = values.get(option.field)
        if value is None:
            continue
        text = value_text(value).replace('"', "").strip()
        if text:
            words.append(f'{option.key}="{text}"' if " " in text else f"{option.key}={text}")
    for flag in layout.flags:
        if values.get(flag.field):
            words.append(flag.said[0])
    return " ".join(words)


def as_values(args: object) -> dict[str, object]:
    """A filled arguments dataclass as values by field name (:func:`render_arguments`)."""
    return {f.name: getattr(args, f.name) for f in dataclasses.fields(args)}  # type: ignore[arg-type]
