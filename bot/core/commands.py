"""One declaration per command: its name, arguments, options, help and who may use it.

A :class:`CommandSpec` is the single source of a command's surface: the parser reads the
``key=value`` options a command takes from it (:meth:`Context.args`), the usage line is
checked against it, and /help, Telegram's command menu and the Discord command tree are
generated from it (STYLE.md, bot/). :func:`command` only attaches a spec to its handler; the
table of commands is listed explicitly in :mod:`bot.core.command_table`.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.i18n import _

if TYPE_CHECKING:
    from bot.core.replies import Reply

# a handler takes the Context (bot.core.context) that the core makes for it; the declarations
# do not import what runs them, so the Context's module may import these (no import cycle:
# tests/bot/test_imports.py)
Handler = Callable[..., Awaitable["Reply"]]

PLAYER = "player"
ORGANISER = "organiser"
CONSOLE = "console"  # only in the local console (e.g. /tick)

_SPEC = "__hoshi_command__"
_KEY = re.compile(r"[a-z_]+")
_USAGE_KEY = re.compile(r"(?<![\w=])([A-Za-z_]+)=")


@dataclass(frozen=True, slots=True)
class Param:
    """One positional argument, for platforms with typed options (Discord slash commands).

    ``kind``: ``player`` (autocompleted from the club's names), ``text``, ``int``, ``rank``,
    ``result``, ``system`` (a choice), ``file`` (an attachment) or ``choice`` (with
    ``choices``).
    """

    name: str
    kind: str
    description: str
    required: bool = True
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Option:
    """One ``key=value`` option: the parser accepts exactly a command's options.

    ``kind`` as for :class:`Param` (a Discord option's type); ``metavar`` is the value's
    placeholder in help (``h=N``); ``actions``, for a command with actions, are the actions
    that take it (empty: all of them); ``required`` marks an option the command cannot do
    without (Discord asks for it; the handler refuses its absence with an example).
    """

    key: str
    kind: str
    help: str
    metavar: str = ""
    choices: tuple[str, ...] = ()
    actions: tuple[str, ...] = ()
    required: bool = False

    def __post_init__(self) -> None:
        if not _KEY.fullmatch(self.key):
            raise ValueError(f"option key {self.key!r} must be lower-case letters")
        if not self.metavar:
            default = "N" if self.kind == "int" else self.key.upper()
            object.__setattr__(self, "metavar", default)


@dataclass(frozen=True, slots=True)
class Action:
    """An action of a command that has them (``/tournament new``); its options are the
    command's options that name it."""

    name: str


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """A command as declared: everything a platform or the parser needs to know of it.

    Raises ``ValueError`` on construction when the usage line and the options disagree (an
    option missing from the usage line, or a ``key=`` in it the parser would refuse), so the
    two cannot drift.
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
    details: str = ""
    aliases: tuple[str, ...] = ()
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

    @property
    def organiser_only(self) -> bool:
        return self.access == ORGANISER

    def option_keys(self, action: str | None = None) -> tuple[str, ...]:
        """The ``key=`` options the parser accepts, in declaration order: all of them, or
        those of one action."""
        return tuple(
            o.key for o in self.options if action is None or not o.actions or action in o.actions
        )

    def usage_of(self, text: str) -> tuple[str, str | None]:
        """The usage line and example for an invocation's ``text``: of its action alone when
        the command has actions in its usage line (``/club set KEY VALUE …``), else the
        whole line and the first example."""
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
        explanation in the current language; keys, placeholders and actions as typed)."""
        lines = []
        for o in self.options:
            where = f" ({', '.join(o.actions)})" if o.actions else ""
            lines.append(f"{o.key}={o.metavar} — {shown(o.help)}{where}")
        return lines

    def help_text(self) -> str:
        """The command's help in the current language: the usage line (its placeholders,
        such as NAME, translated where a catalogue has them), summary, details, options,
        examples (as typed) and who may use it."""
        lines = [shown(self.usage), shown(self.summary)]
        if self.details:
            lines.append(shown(self.details))
        if self.options:
            lines.append(_("Options:") + "\n" + "\n".join(self.option_lines()))
        if self.examples:
            lines.append(_("Examples: {examples}", examples=" · ".join(self.examples)))
        if self.organiser_only:
            lines.append(_("For organisers."))
        return "\n".join(lines)


def shown(text: str) -> str:
    """A text of a spec (a summary, an option's help, a choice) in the current language: the
    handlers mark them ``N_`` where they declare them; a text without a translation, and the
    empty text, stay as they are."""
    return _(text) if text else text


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
    details: str = "",
    aliases: tuple[str, ...] = (),
) -> Callable[[Handler], Handler]:
    """Attach a command's spec to its handler. Registers nothing: the table
    (:mod:`bot.core.command_table`) lists the handlers explicitly."""

    def attach(handler: Handler) -> Handler:
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
