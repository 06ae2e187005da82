"""One declaration per command: its name, arguments, options, help and who may use it.

A :class:`CommandSpec` is the single source of a command's surface (STYLE.md, "The declaration
drives the call"): its positional params (:class:`Param`), ``key=`` options
(:class:`Option`) and keyword flags (:class:`Flag`) are the fields of a frozen *arguments
dataclass* the handler takes::

    @dataclass(frozen=True, slots=True)
    class HistoryArgs:
        name: Player                      # Param("name", "player", …)
        n: int = HISTORY_DEFAULT          # Param("n", "int", …, required=False)
        all: bool = False                 # Flag("all", …)

    @command("history", usage="/history NAME [N] [all]", …, params=…, flags=…)
    async def history(ctx: Context, args: HistoryArgs) -> Reply: …

The spec finds the dataclass in the handler's annotation and checks at construction that its
fields are exactly the params, options and flags, typed as their kinds say (:data:`KINDS`), so
the two cannot drift. :func:`bot.core.parse.read_arguments` fills it from a typed line
(console, Telegram) and :func:`bot.core.parse.fill_arguments` from Discord's typed option
values; usage lines (:meth:`CommandSpec.usage_text`), /help and the Discord command tree come
from the same declaration, in the reader's language.

A handler of the older shape, ``async def h(ctx: Context) -> Reply``, reading its words with
:meth:`Context.args`, still works (``spec.arguments is None``) until it is converted.
:func:`command` only attaches a spec to its handler; the table of commands is listed
explicitly in :mod:`bot.core.command_table`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import keyword
import re
import types
import typing
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

from bot.i18n import N_, _
from engine.ranks import Rank
from engine.ratings import Rating
from engine.timecontrol import TimeControl
from engine.types import Result
from storage.records import Player

if TYPE_CHECKING:
    from bot.core.replies import Reply

# a handler takes the Context (bot.core.context) that the core makes for it; the declarations
# do not import what runs them, so the Context's module may import these (no import cycle:
# tests/bot/test_imports.py)
Handler = Callable[..., Awaitable["Reply"]]
"""``async def h(ctx: Context, args: HArgs) -> Reply`` (or, not yet converted, ``(ctx)``)."""
H = TypeVar("H", bound=Handler)

PLAYER = "player"
ORGANISER = "organiser"
CONSOLE = "console"  # only in the local console (e.g. /tick)

_SPEC = "__hoshi_command__"
_KEY = re.compile(r"[a-z_]+")
_USAGE_KEY = re.compile(r"(?<![\w=])([A-Za-z_]+)=")


# --- the values arguments read as ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameResult:
    """A game's result as typed (``B+R``, ``W+3.5``, ``jigo``, ``unplayed``): the winner
    (``None``: unknown or jigo is :attr:`Result`'s own), whether it was played, the SGF margin
    (``R``, ``3.5``; ``None`` when not given) and the text as typed."""

    outcome: Result | None
    played: bool
    margin: str | None
    text: str


@dataclass(frozen=True, slots=True)
class Grade:
    """A rank as /register takes it: an amateur rank, or a professional one (``3p``) read as 7d
    with ``pro`` = 3 (rules.md §6: GoR starts it at 2700 + 30·(N − 1), keeps Np as the title)."""

    rank: Rank
    pro: int = 0

    def __str__(self) -> str:
        return f"{self.pro}p" if self.pro else str(self.rank)


@dataclass(frozen=True, slots=True)
class Upload:
    """A file sent with the command (an attachment, or a table pasted below it)."""

    data: bytes
    name: str | None = None


KINDS: dict[str, object] = {
    "player": Player,  # a player of the club, resolved by name (bot.core.names)
    "text": str,  # words as typed (a multi-word param takes the words left for it)
    "int": int,  # a whole number in [low, high]
    "number": int,  # a club number, ``12`` or ``#12`` (a game's, a report's)
    "rating": Rating,  # a rating kept to 3 decimals (rules.md §6 Decision), in [low, high]
    "rank": Rank,
    "grade": Grade,  # a rank or a professional rank Np (/register)
    "result": GameResult,
    "date": dt.date,  # YYYY-MM-DD, today, yesterday; not in the future, not before 1900
    "day": dt.date,  # YYYY-MM-DD, past or future (a tournament's days), not before 1900
    "clock": dt.time,  # HH:MM, a time of day
    "month": dt.date,  # YYYY-MM, a past or current month (its first day)
    "komi": Fraction,
    "time": TimeControl,
    "choice": str,  # one of ``choices`` (lower case)
    "word": str,  # one word as typed (a setting's key; checked by the handler)
    "system": str,  # a rating system's key
    "file": Upload,
}
"""What each ``kind`` of a :class:`Param` or :class:`Option` reads as: the type of its field in
the arguments dataclass (``| None`` allowed for an optional one)."""

MULTI_WORD = frozenset({"player", "text"})
"""Kinds a positional argument of which takes several words (a name with spaces)."""


# --- placeholders in the reader's language ---------------------------------------------------

PLACEHOLDERS: dict[str, str] = {
    # TRANSLATORS: a placeholder in a usage line (/rating [NAME]): what the user types there
    "NAME": N_("NAME"),
    # TRANSLATORS: a placeholder in a usage line: the player who had Black
    "BLACK": N_("BLACK"),
    # TRANSLATORS: a placeholder in a usage line: the player who had White
    "WHITE": N_("WHITE"),
    # TRANSLATORS: a placeholder in a usage line: a game's result (B+, W+3.5 …)
    "RESULT": N_("RESULT"),
    # TRANSLATORS: a placeholder in a usage line: a rank such as 5k or 1d
    "RANK": N_("RANK"),
    # TRANSLATORS: a placeholder in a usage line: a rating value
    "RATING": N_("RATING"),
    # TRANSLATORS: a placeholder in a usage line: a number
    "N": N_("N"),
    # TRANSLATORS: a placeholder in a usage line: a tournament round's number
    "ROUND": N_("ROUND"),
    # TRANSLATORS: a placeholder in a usage line: a game's club number (#12)
    "GAME_ID": N_("GAME_ID"),
    # TRANSLATORS: a placeholder in a refusal: a file to attach (a results table)
    "FILE": N_("FILE"),
    # TRANSLATORS: a placeholder in a usage line: a command's name (/help COMMAND)
    "COMMAND": N_("COMMAND"),
    # TRANSLATORS: a placeholder in a usage line: a time control (60m 3x30s)
    "TIME": N_("TIME"),
    # TRANSLATORS: a placeholder in a usage line: a day of the week
    "DAY": N_("DAY"),
    # TRANSLATORS: a placeholder in a usage line: a time of day, hours and minutes
    "HH:MM": N_("HH:MM"),
    # TRANSLATORS: a placeholder in a usage line: a date, year-month-day
    "YYYY-MM-DD": N_("YYYY-MM-DD"),
    # TRANSLATORS: a placeholder in a usage line: a month, year-month
    "YYYY-MM": N_("YYYY-MM"),
    # TRANSLATORS: a placeholder in a usage line: how long (1d, 6h)
    "DURATION": N_("DURATION"),
    # TRANSLATORS: a placeholder in a usage line: a komi (6.5)
    "K": N_("K"),
    # TRANSLATORS: a placeholder in a usage line: a rank (rank=R)
    "R": N_("R"),
    # TRANSLATORS: a placeholder in a usage line: the first of two players
    "A": N_("A"),
    # TRANSLATORS: a placeholder in a usage line: the second of two players
    "B": N_("B"),
    # TRANSLATORS: a placeholder in a usage line: a chat account (telegram:12345)
    "PLATFORM:ID": N_("PLATFORM:ID"),
    # TRANSLATORS: a placeholder in a usage line: why (/dispute 12 REASON)
    "REASON": N_("REASON"),
    # TRANSLATORS: a placeholder in a usage line: a tournament's name or number
    "TOURNAMENT": N_("TOURNAMENT"),
    # TRANSLATORS: a placeholder in a usage line: a rating system's key (mgsz, gor …)
    "SYSTEM": N_("SYSTEM"),
    # TRANSLATORS: a placeholder in a usage line: a club's join code
    "CODE": N_("CODE"),
    # TRANSLATORS: a placeholder in a usage line: a time zone (Europe/Budapest)
    "ZONE": N_("ZONE"),
    # TRANSLATORS: a placeholder in a usage line: a two-letter country code (HU)
    "XX": N_("XX"),
    # TRANSLATORS: a placeholder in a usage line: a number of hours
    "HOURS": N_("HOURS"),
    # TRANSLATORS: a placeholder in a usage line: a person (a chat account or a player)
    "WHO": N_("WHO"),
    # TRANSLATORS: a placeholder in a usage line: a setting's name (/club set KEY VALUE)
    "KEY": N_("KEY"),
    # TRANSLATORS: a placeholder in a usage line: a setting's value (/club set KEY VALUE)
    "VALUE": N_("VALUE"),
    # TRANSLATORS: a placeholder in a usage line: a number of two digits (C=NN)
    "NN": N_("NN"),
    # TRANSLATORS: a placeholder in a usage line: a player's EGD PIN (pin=EGD)
    "EGD": N_("EGD"),
}
"""Every placeholder a usage line may hold, English as it is typed in the declarations; keys
(``h=``), choices and words the user types (``all``, ``on|off``) are never translated."""

LITERALS = frozenset({"XML", "CSV", "A-D"})
"""Capital words of usage lines that are typed or read as they are (file formats, the EGF
tournament classes A to D), not placeholders."""

_PLACEHOLDER = re.compile(r"(?<![\w:.-])([A-Z][A-Z_]*(?:[-:][A-Z]+)*)(?![\w=+])")


def placeholder_words(usage: str) -> list[str]:
    """The capital words of a usage line (or of its translation) that a reader reads as
    placeholders: ``NAME``, ``h=N``'s ``N``, ``YYYY-MM-DD``; not keys (``C=``), results
    (``W+``) or :data:`LITERALS`."""
    return [m[1] for m in _PLACEHOLDER.finditer(usage) if m[1] not in LITERALS]


def placeholders(usage: str) -> str:
    """A usage line with each placeholder (``NAME``, ``h=N``'s ``N``) in the current language;
    keys and the words typed as they are stay (``/result FEKETE FEHÉR EREDMÉNY [h=N]``)."""

    def one(match: re.Match[str]) -> str:
        english = PLACEHOLDERS.get(match[1])
        return _(english) if english is not None else match[1]

    return _PLACEHOLDER.sub(one, usage)


# --- the declarations ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Param:
    """One positional argument: a field of the arguments dataclass, a Discord option.

    ``kind`` is one of :data:`KINDS` (``player`` is autocompleted on Discord, ``choice`` takes
    ``choices``, ``file`` is the attachment). ``metavar`` is its placeholder in the usage line
    and in errors (default: the name in capitals); ``low``/``high`` bound a number;
    ``missing`` (marked ``N_``) is the refusal when it is required and absent or unreadable
    (default: "NAME is missing, e.g. …" with the command's first example); ``refusal`` (marked
    ``N_``, ``{value}``: the word, ``{example}``: the command's example) the refusal of a word
    where it stands that does not read as its kind (default: the kind's own, naming the word).

    ``first``, for a multi-word ``text``: it is the words before the first option or flag (a
    tournament's name, bot.md Arguments: a name ends at the first keyword), and a word after
    them is refused, never made part of it; ``check`` is called with each unquoted word of it
    and the word before it (``""`` for the first) and raises ``BadArgument`` for a word that
    cannot be part of it (a date typed without its ``start=``).
    """

    name: str
    kind: str
    description: str
    required: bool = True
    choices: tuple[str, ...] = ()
    metavar: str = ""
    low: int = 1
    high: int = 10_000
    missing: str = ""
    refusal: str = ""
    first: bool = False
    check: Callable[[str, str], None] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"param {self.name!r}: unknown kind {self.kind!r}")
        if not self.metavar:
            object.__setattr__(self, "metavar", self.name.upper())

    @property
    def field(self) -> str:
        """Its field in the arguments dataclass."""
        return field_name(self.name)

    @property
    def label(self) -> str:
        """How errors name it: its placeholder in the current language."""
        return placeholders(self.metavar)


def on_off(missing: str) -> Param:
    """A setting's ``on|off`` switch (/weekly, /club reports, /club web); ``missing`` (marked
    ``N_``) is the refusal when it is not given."""
    return Param(
        "state",
        "choice",
        N_("on or off"),
        choices=("on", "off"),
        metavar="on|off",
        missing=missing,
    )


@dataclass(frozen=True, slots=True)
class Option:
    """One ``key=value`` option: the parser accepts exactly a command's options.

    ``kind`` as for :class:`Param`; ``metavar`` is the value's placeholder in help (``h=N``);
    ``actions``, for a command with actions, are the actions that take it (empty: all of them);
    ``required`` marks an option the command cannot do without (Discord asks for it; the
    handler refuses its absence with an example). ``name`` (marked ``N_``) is how an error
    names it (default: the key: "board must be 5–25, not 30"); ``low``/``high`` bound a number.
    """

    key: str
    kind: str
    help: str
    metavar: str = ""
    choices: tuple[str, ...] = ()
    actions: tuple[str, ...] = ()
    required: bool = False
    name: str = ""
    low: int = 1
    high: int = 10_000

    def __post_init__(self) -> None:
        if not _KEY.fullmatch(self.key):
            raise ValueError(f"option key {self.key!r} must be lower-case letters")
        if self.kind not in KINDS:
            raise ValueError(f"option {self.key}=: unknown kind {self.kind!r}")
        if not self.metavar:
            default = "N" if self.kind == "int" else self.key.upper()
            object.__setattr__(self, "metavar", default)

    @property
    def field(self) -> str:
        """Its field in the arguments dataclass (``from=`` is ``from_``)."""
        return field_name(self.key)

    @property
    def label(self) -> str:
        return _(self.name) if self.name else self.key


@dataclass(frozen=True, slots=True)
class Flag:
    """A word the command takes on its own (``/rating NAME all``, ``/correct 12 swap``): a
    ``bool`` field, true when one of ``words`` (default: the name) is typed unquoted at the
    end of the arguments — or, ``anywhere``, among them, where it also splits two names
    (``Kiss beat Tóth``). ``instead_of`` names a param the flag's form does without (``beat``
    stands for the result). ``menu``: offered as a Discord option (false for words a button
    adds, such as ``again``)."""

    name: str
    description: str
    words: tuple[str, ...] = ()
    anywhere: bool = False
    instead_of: str = ""
    menu: bool = True

    @property
    def said(self) -> tuple[str, ...]:
        """The words that say it, lower case; the first is how it is written back."""
        return self.words or (self.name,)

    @property
    def field(self) -> str:
        return field_name(self.name)

    kind = "bool"


@dataclass(frozen=True, slots=True)
class Action:
    """An action of a command that has them (``/tournament new``); its options are the
    command's options that name it.

    A converted command with actions declares the action's own positional ``params`` and
    ``flags`` and its ``arguments`` dataclass (fields: those params, the options that name the
    action, the flags); the handler takes the union of its actions' dataclasses and the parser
    reads the first word as the action (or one of its ``aliases``: ``finalize``). ``table``:
    the action a line of this one is read as when a table comes with it (attached or pasted
    below: ``/tournament result`` with a table is an import); an action without a file param
    of a command that reads files elsewhere refuses a table. ``extra`` (marked ``N_``) is its
    refusal of words beyond what it takes (``{word}``: the first of them; default: the
    command's)."""

    name: str
    params: tuple[Param, ...] = ()
    flags: tuple[Flag, ...] = ()
    arguments: type | None = None
    aliases: tuple[str, ...] = ()
    table: str = ""
    extra: str = ""
    access: str = ""  # who may use it, when not the command's own access (``ORGANISER``)

    def said(self, word: str) -> bool:
        """Whether ``word`` (lower case) names this action."""
        return word == self.name or word in self.aliases


def field_name(key: str) -> str:
    """The dataclass field of a param, option or flag: its name, with ``_`` after a Python
    keyword (``from=`` → ``from_``)."""
    return f"{key}_" if keyword.iskeyword(key) else key


@dataclass(frozen=True, slots=True)
class Layout:
    """What one form of a command reads: its positional params, options and flags, and the
    dataclass they fill (a command without actions has one; each action has its own)."""

    params: tuple[Param, ...]
    options: tuple[Option, ...]
    flags: tuple[Flag, ...]
    arguments: type
    label: str  # how refusals name it: /history, /tournament new
    extra: str = ""  # the action's refusal of words left over (Action.extra)

    def positional(self) -> tuple[Param, ...]:
        """The params typed as words (a file is the attachment)."""
        return tuple(p for p in self.params if p.kind != "file")


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """A command as declared: everything a platform or the parser needs to know of it.

    Raises ``ValueError`` on construction when the usage line and the options disagree (an
    option missing from the usage line, or a ``key=`` in it the parser would refuse), or when
    the arguments dataclass and the params, options and flags disagree (:func:`check_fields`),
    so none of them can drift.
    """

    name: str
    usage: str
    summary: str
    examples: tuple[str, ...] = ()
    access: str = PLAYER
    params: tuple[Param, ...] = ()
    options: tuple[Option, ...] = ()
    actions: tuple[Action, ...] = ()
    needs_club: bool = True
    details: str | tuple[str, ...] = ""  # paragraphs (marked N_)
    aliases: tuple[str, ...] = ()
    flags: tuple[Flag, ...] = ()
    arguments: type | None = None
    """The arguments dataclass the handler takes (``None``: a handler of the older shape,
    ``(ctx)``, or a command whose actions each declare theirs)."""
    extra: str = ""
    """The refusal (marked ``N_``) of words beyond what the command takes (default: a
    generic one naming them)."""
    permit: Callable[..., None] | None = field(default=None, compare=False, repr=False)
    """A permission check run before the arguments are read (raises NotPermitted): who may
    use the command is said before what was typed wrong (/result's player reports)."""
    unknown: str = ""
    """For a command with actions: the refusal (marked ``N_``, ``{action}``: the word) of an
    action it does not have (default: a generic one naming the command)."""
    bare: type | None = None
    """For a command with actions: the (fieldless) dataclass a line without an action fills
    (``/club`` alone shows the club); ``None``: such a line is refused with the usage."""
    with_file: str = ""
    """The command that answers this one when a file comes with it (``/result`` with an
    ``.sgf`` attached is ``/sgf``); ``""``: none."""
    handler: Handler = field(kw_only=True, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not (self.usage == f"/{self.name}" or self.usage.startswith(f"/{self.name} ")):
            raise ValueError(f"the usage line {self.usage!r} must start with /{self.name}")
        keys = [o.key for o in self.options]
        if len(set(keys)) != len(keys):
            raise ValueError(f"/{self.name} declares an option twice: {keys}")
        in_usage = {key.lower() for key in _USAGE_KEY.findall(self.usage)}
        missing = [f"{k}=" for k in keys if k not in in_usage]
        extra = sorted(f"{k}=" for k in in_usage - set(keys))
        if missing or extra:
            raise ValueError(
                f"/{self.name}: the usage line and the options disagree "
                f"(not in the usage line: {', '.join(missing) or 'none'}; "
                f"not an option: {', '.join(extra) or 'none'})"
            )
        names = {a.name for a in self.actions}
        for option in self.options:
            unknown = set(option.actions) - names
            if unknown:
                raise ValueError(f"/{self.name} {option.key}= names unknown actions {unknown}")
        chosen = next((p.choices for p in self.params if p.name == "action"), None)
        if self.actions and chosen is not None and chosen != tuple(a.name for a in self.actions):
            raise ValueError(f"/{self.name}: the action param's choices are not its actions")
        if any(o.required for o in self.options) and not all(p.required for p in self.params):
            # Discord lists required options first: after an optional argument they cannot be
            raise ValueError(f"/{self.name}: a required option after an optional argument")
        positional = {p.name for p in self.params} & set(keys)
        if positional:
            raise ValueError(f"/{self.name}: {positional} is both an argument and an option")
        for layout in self.layouts():
            check_fields(layout)
        if self.bare is not None:
            check_fields(Layout((), (), (), self.bare, self.label))

    @property
    def organiser_only(self) -> bool:
        return self.access == ORGANISER

    def access_of(self, text: str) -> str:
        """Who may run the invocation ``text``: its action's own access when the first word
        names an action that has one (``/tournament pair``), else the command's."""
        words = text.split(maxsplit=1)
        word = words[0].lower() if words else ""
        action = next((a for a in self.actions if a.said(word)), None)
        return action.access if action is not None and action.access else self.access

    @property
    def typed(self) -> bool:
        """Whether the handler takes an arguments dataclass (``(ctx, args)``)."""
        return self.arguments is not None or (
            bool(self.actions) and all(a.arguments is not None for a in self.actions)
        )

    def layouts(self) -> tuple[Layout, ...]:
        """The forms the parser reads: the command's, or one per action (when converted)."""
        if self.arguments is not None:
            return (Layout(self.params, self.options, self.flags, self.arguments, self.label),)
        return tuple(
            Layout(
                a.params,
                tuple(o for o in self.options if not o.actions or a.name in o.actions),
                a.flags,
                a.arguments,
                f"{self.label} {a.name}",
                a.extra,
            )
            for a in self.actions
            if a.arguments is not None
        )

    def layout(self, action: str | None = None) -> Layout | None:
        """The form of ``action`` (``None``: the command's own form)."""
        if action is None:
            return self.layouts()[0] if self.arguments is not None else None
        return next(
            (
                lay
                for a, lay in zip(self.typed_actions(), self.layouts(), strict=True)
                if a.said(action)
            ),
            None,
        )

    def typed_actions(self) -> tuple[Action, ...]:
        return tuple(a for a in self.actions if a.arguments is not None)

    @property
    def label(self) -> str:
        return f"/{self.name}"

    def option_keys(self, action: str | None = None) -> tuple[str, ...]:
        """The ``key=`` options the parser accepts, in declaration order: all of them, or
        those of one action."""
        return tuple(
            o.key for o in self.options if action is None or not o.actions or action in o.actions
        )

    def usage_text(self, line: str | None = None) -> str:
        """The usage line (or ``line``, a part of it) in the current language, as /help, a
        refusal and the menus show it: each placeholder translated (:func:`placeholders`) —
        in the whole line's translation where the catalogue still has one (they predate
        placeholder translation and left ``h=N``, ``YYYY-MM-DD`` in English); in English
        exactly as declared."""
        return placeholders(_(self.usage if line is None else line))

    def usage_of(self, text: str) -> tuple[str, str | None]:
        """The usage line and example for an invocation's ``text``: of its action alone when
        the command has actions in its usage line (``/club set KEY VALUE …``), else the
        whole line and the first example (as declared: :meth:`usage_text` translates it)."""
        words = text.split(maxsplit=1)
        action = words[0].lower() if words else ""
        head = f"/{self.name} "
        parts = self.usage[len(head) :].split(" | ") if self.usage.startswith(head) else []
        part = next((p for p in parts if p.split(maxsplit=1)[0] == action), None)
        if not action or len(parts) < 2 or part is None:
            return self.usage, self.examples[0] if self.examples else None
        start = f"{head}{action}"
        example = next((e for e in self.examples if e == start or e.startswith(start + " ")), None)
        return head + part, example

    def option_lines(self) -> list[str]:
        """``h=N — handicap stones (0–9)``, one per option, for help (each option's
        explanation and placeholder in the current language; keys and actions as typed)."""
        lines = []
        for o in self.options:
            line = f"{o.key}={placeholders(o.metavar)} — {shown(o.help)}"
            if o.actions:
                line = _("{option} ({actions})", option=line, actions=", ".join(o.actions))
            lines.append(line)
        return lines

    def help_text(self) -> str:
        """The command's help in the current language: the usage line (its placeholders
        translated, :meth:`usage_text`), summary, details, options, examples (as typed) and
        who may use it."""
        lines = [self.usage_text(), shown(self.summary)]
        details = self.details if isinstance(self.details, tuple) else (self.details,)
        lines.extend(shown(text) for text in details if text)
        if self.options:
            lines.append(_("Options:\n{options}", options="\n".join(self.option_lines())))
        if self.examples:
            lines.append(_("Examples: {examples}", examples=" · ".join(self.examples)))
        if self.organiser_only:
            lines.append(_("For organisers."))
        return "\n".join(lines)


def _expected(kind: str, optional: bool) -> tuple[object, ...]:
    base = KINDS[kind]
    return (base, base | None) if optional else (base,)  # type: ignore[operator]


def check_fields(layout: Layout) -> None:
    """Check that ``layout.arguments`` is a frozen dataclass whose fields are exactly the
    params, options and flags, each typed as its kind reads (:data:`KINDS`; an optional one
    may be ``| None`` and must have a default, a required param must not; a flag is a
    ``bool`` defaulting to false).

    Raises:
        ValueError: naming the command and what disagrees.
    """
    cls, where = layout.arguments, layout.label
    if not dataclasses.is_dataclass(cls) or not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        raise ValueError(f"{where}: the arguments {cls!r} must be a frozen dataclass")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    hints = typing.get_type_hints(cls)
    declared: dict[str, tuple[tuple[object, ...], bool]] = {}
    replaced = {f.instead_of for f in layout.flags if f.instead_of}
    for p in layout.params:  # a param a flag stands for may be None (``beat``: no result)
        declared[p.field] = (_expected(p.kind, not p.required or p.name in replaced), False)
        declared[p.field] = (declared[p.field][0], not p.required)
    for o in layout.options:
        declared[o.field] = (_expected(o.kind, True), True)
    for f in layout.flags:
        declared[f.field] = ((bool,), True)
        if f.instead_of and f.instead_of not in {p.name for p in layout.params}:
            raise ValueError(f"{where}: flag {f.name} stands for no param {f.instead_of!r}")
    if set(declared) != set(fields):
        raise ValueError(
            f"{where}: the arguments {cls.__name__} and the declaration disagree (fields "
            f"not declared: {sorted(set(fields) - set(declared)) or 'none'}; declared, "
            f"no field: {sorted(set(declared) - set(fields)) or 'none'})"
        )
    for name, (types_, optional) in declared.items():
        hint = hints[name]
        if hint not in types_:
            raise ValueError(f"{where}: {cls.__name__}.{name} is {hint}, not {types_[0]}")
        has_default = (
            fields[name].default is not dataclasses.MISSING
            or fields[name].default_factory is not dataclasses.MISSING
        )
        if optional and not has_default:
            raise ValueError(f"{where}: {cls.__name__}.{name} is optional: give it a default")
        if not optional and has_default and name not in replaced:
            raise ValueError(f"{where}: {cls.__name__}.{name} is required: no default")
    multi = [p for p in layout.positional() if p.kind in MULTI_WORD]
    if len(multi) > 2 or (len(multi) == 2 and not all(p.kind == "player" for p in multi)):
        raise ValueError(f"{where}: at most two names in a row (a pair of players)")
    if len(multi) == 2:
        at = [layout.positional().index(p) for p in multi]
        if at[1] != at[0] + 1:
            raise ValueError(f"{where}: two multi-word params must stand side by side")


def shown(text: str) -> str:
    """A text of a spec (a summary, an option's help, a choice) in the current language: the
    handlers mark them ``N_`` where they declare them; a text without a translation, and the
    empty text, stay as they are."""
    return _(text) if text else text


def arguments_of(handler: Handler) -> type | None:
    """The arguments dataclass a handler takes: the annotation of its second parameter
    (``async def rating(ctx: Context, args: RatingArgs)``); ``None`` for ``(ctx)`` alone."""
    code = handler.__code__
    if code.co_argcount < 2:
        return None
    name = code.co_varnames[1]
    hints = typing.get_type_hints(handler, localns={"Context": object, "Reply": object})
    found = hints.get(name)
    if not isinstance(found, type) or isinstance(found, types.GenericAlias):
        return None  # a union of actions' dataclasses: each action names its own
    return found


def command(
    name: str,
    *,
    usage: str,
    summary: str,
    examples: tuple[str, ...] = (),
    access: str = PLAYER,
    options: tuple[Option, ...] = (),
    params: tuple[Param, ...] = (),
    actions: tuple[Action, ...] = (),
    needs_club: bool = True,
    details: str | tuple[str, ...] = "",
    aliases: tuple[str, ...] = (),
    flags: tuple[Flag, ...] = (),
    extra: str = "",
    permit: Callable[..., None] | None = None,
    unknown: str = "",
    bare: type | None = None,
    with_file: str = "",
) -> Callable[[H], H]:
    """Attach a command's spec to its handler; its arguments dataclass is the handler's
    second parameter's annotation (:func:`arguments_of`). Registers nothing: the table
    (:mod:`bot.core.command_table`) lists the handlers explicitly.

    Raises:
        ValueError: the declaration disagrees with itself (:class:`CommandSpec`).
    """

    def attach(handler: H) -> H:
        spec = CommandSpec(
            name,
            usage,
            summary,
            examples,
            access,
            params,
            options,
            actions,
            needs_club,
            details,
            aliases,
            flags,
            arguments_of(handler),
            extra,
            permit,
            unknown,
            bare,
            with_file,
            handler=handler,
        )
        setattr(handler, _SPEC, spec)
        return handler

    return attach


def spec_of(handler: Handler) -> CommandSpec:
    """The spec :func:`command` attached to ``handler``."""
    spec = getattr(handler, _SPEC, None)
    if not isinstance(spec, CommandSpec):
        raise ValueError(f"{handler!r} has no command spec (decorate it with @command)")
    return spec
