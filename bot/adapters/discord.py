"""The Discord adapter: discord.py 2.x slash commands in front of the command core.

The ``app_commands`` tree is generated from the command table: one slash command per public
command, one typed option per positional :class:`~bot.core.commands.Param` and per ``key=``
:class:`~bot.core.commands.Option` of its spec, so Discord offers exactly the options the
console parser accepts (players autocompleted from the club's names, numbers as integers,
systems and other choices as choices, files as attachments, flags as yes/no). A command with
actions is a group with one subcommand per action (``/club komi``, ``/tournament new``), whose
options are that action's params, the options that apply to it and its flags (:func:`forms_of`).
Each callback rebuilds the typed values (by argument name: the core fills the command's — or
the action's — arguments dataclass from them, no text round trip; the text rendered beside
them only echoes them for buttons and usage lines) and calls :meth:`Core.handle`; the reply
comes back as an embed where
it reads better (cards, tables in code blocks), as plain messages otherwise, ephemeral for
errors and private replies, with buttons as a ``discord.ui.View``. A Discord server is one
chat: it binds to a club as a whole.

Organisers are members with Manage Server plus the people the club names; the core decides, so
organiser commands are visible to everyone and refused with an explanation when not allowed.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import io
import logging
import re
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Group

from bot.adapters.buttons import ButtonCommands, split_command
from bot.adapters.languages import for_person, too_big
from bot.config import SYSTEM_KEYS, DiscordConfig
from bot.core import facade
from bot.core.app import Core
from bot.core.command_table import public_commands
from bot.core.commands import CommandSpec, Flag, Layout, Option, Param, shown
from bot.core.facade import chat_language
from bot.core.invocation import Caller, Invocation
from bot.core.parse import render_arguments
from bot.core.replies import Reply, Table, Text, split_text
from bot.i18n import _, language_of, using
from bot.i18n.catalogues import SOURCE

log = logging.getLogger("hoshi.discord")

PLATFORM = "discord"
CONTENT_LIMIT = 2000  # message content
EMBED_TITLE_LIMIT = 256
EMBED_DESCRIPTION_LIMIT = 4096
DESCRIPTION_LIMIT = 100  # slash command and option descriptions
CHOICE_LIMIT = 100  # a choice's name
MAX_CHOICES = 25  # choices and autocomplete results
CUSTOM_ID_LIMIT = 100  # component custom ids
MODAL_TITLE_LIMIT = 45
PASTE_LIMIT = 4000  # a modal's paragraph input
MAX_MESSAGES = 4  # a longer answer is sent as a file
MAX_ATTACHMENT_BYTES = 5_000_000
PASTE_OFFER_S = 900.0  # how long a "paste the table" button works
DEFER_AFTER_S = 2.0  # Discord wants a first response within 3 s; defer a slow command
EMBED_COLOUR = discord.Colour(0x2F6F9F)
BUTTON_PREFIX = "hoshi:"
_OPTION_NAME = re.compile(r"[^-_\w]+")


# --- the table as slash commands -----------------------------------------------------------


Typed = Param | Option | Flag


def options_of(cmd: CommandSpec) -> tuple[Typed, ...]:
    """The command's Discord options: its positional params, then every ``key=`` option of
    its spec, then its flags (yes/no; not those a button adds). A command whose usage takes
    arguments but whose spec names no params gets one free-text option for them."""
    params: tuple[Param, ...] = cmd.params
    if not params and len(cmd.usage.split()) > 1 + len(cmd.options):
        params = (Param("arguments", "text", cmd.usage, required=False),)
    required = tuple(o for o in cmd.options if o.required)  # Discord: required ones first
    flags = tuple(f for f in cmd.flags if f.menu)
    return (*params, *required, *(o for o in cmd.options if not o.required), *flags)


def action_options(layout: Layout) -> tuple[Typed, ...]:
    """An action's Discord options (its subcommand's: ``/club komi``): its params, the
    ``key=`` options that apply to it (:attr:`Option.actions`) and its flags (not those a
    button adds); required ones first, as Discord wants them."""
    typed: tuple[Typed, ...] = (
        *layout.params,
        *layout.options,
        *(f for f in layout.flags if f.menu),
    )
    return tuple(sorted(typed, key=lambda t: not _required(t)))


@dataclass(frozen=True, slots=True)
class Form:
    """What one slash command or subcommand offers: the command's own options, or those of
    one of its actions (``action``: the subcommand, ``/tournament new``)."""

    cmd: CommandSpec
    action: str | None
    options: tuple[Typed, ...]

    @property
    def typed(self) -> bool:
        """Whether the core fills its arguments dataclass from the values (by field)."""
        return self.cmd.layout(self.action) is not None

    @property
    def label(self) -> str:
        return f"/{self.cmd.name} {self.action}" if self.action else f"/{self.cmd.name}"


def grouped(cmd: CommandSpec) -> bool:
    """Whether ``cmd`` is a group of subcommands on Discord: one per action, each with its
    own typed options (a command whose actions each declare their arguments)."""
    return cmd.typed and cmd.arguments is None and bool(cmd.actions)


def forms_of(cmd: CommandSpec) -> tuple[Form, ...]:
    """The command's slash forms: one per action for a group (:func:`grouped`), else one."""
    if not grouped(cmd):
        return (Form(cmd, None, options_of(cmd)),)
    forms = []
    for action in cmd.typed_actions():
        layout = cmd.layout(action.name)
        assert layout is not None
        forms.append(Form(cmd, action.name, action_options(layout)))
    return tuple(forms)


def _action_summary(cmd: CommandSpec, action: str) -> str:
    """A subcommand's description in the current language: its part of the usage line, its
    placeholders translated (``/club komi K``)."""
    line, _example = cmd.usage_of(action)
    return cmd.usage_text(line)


def _name(typed: Typed) -> str:
    return typed.key if isinstance(typed, Option) else typed.name


def _required(typed: Typed) -> bool:
    # a file param is optional on Discord: the table can be pasted in a form instead
    return isinstance(typed, Param) and typed.required and typed.kind != "file"


def _description(typed: Typed, cmd: CommandSpec) -> str:
    """The option's description in the current language (``key=`` and a flag's word as
    typed; the free-text option of a command without params: its usage line, placeholders
    translated)."""
    if isinstance(typed, Param) and typed.description == cmd.usage:
        return cmd.usage_text()
    if isinstance(typed, Option):
        return f"{typed.key}= {shown(typed.help)}"
    if isinstance(typed, Flag):
        return f"{typed.said[0]}: {shown(typed.description)}"
    return shown(typed.description) or typed.name


def _summary(cmd: CommandSpec) -> str:
    """The command's description in the current language (the usage line without one). A
    command whose file goes to another (``/result``'s .sgf goes to ``/sgf``) names it: its
    required names leave Discord no room for the file (the form asks them before the file)."""
    said = shown(cmd.summary) or cmd.usage_text()
    if not cmd.with_file:
        return said
    # TRANSLATORS: ends /result's description on Discord, whose form cannot take the file
    hint = _("With an .sgf file: /{command}.", command=cmd.with_file)
    return f"{shorten(said, DESCRIPTION_LIMIT - len(hint) - 1)} {hint}"


# --- the menus in every language -------------------------------------------------------------

DISCORD_LOCALES: dict[discord.Locale, str] = {
    discord.Locale.hungarian: "hu",
    discord.Locale.japanese: "ja",
    discord.Locale.swedish: "sv",
    discord.Locale.polish: "pl",
}
"""The Discord locales with a catalogue, and its language (English is the default text)."""

_NAMES = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
)


def localized(english: str, make: Callable[[], str], limit: int) -> app_commands.locale_str:
    """A text of the command tree: ``english`` now (shortened to ``limit``), and ``make`` —
    which builds it in the current language — for :class:`CatalogueTranslator` to call in
    each language."""
    return app_commands.locale_str(shorten(english, limit), make=make, limit=limit)


_SENTENCE_ENDS = (". ", "; ", "。", "；")


def shorten(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters: its sentences (or clauses) that fit, when
    they say enough (two fifths of the limit); else cut after the last whole word that fits
    (languages that write without spaces, within the last quarter: at the limit), with "…"."""
    if len(text) <= limit:
        return text
    end = max(text.rfind(mark, 0, limit) for mark in _SENTENCE_ENDS)
    if end >= limit * 2 // 5:
        return text[:end].rstrip() + ("。" if text[end] in "。；" else ".")
    head = text[: limit - 1]
    if not text[limit - 1].isspace():  # the cut falls inside a word
        space = head.rfind(" ")
        if space >= limit * 3 // 4:
            head = head[:space]
    return head.rstrip(" ,;:—–-") + "…"


class CatalogueTranslator(app_commands.Translator):
    """Descriptions, option descriptions and choices of the slash commands in Hungarian,
    Japanese, Swedish and Polish from hoshi's catalogues (``tree.set_translator`` before the
    sync); command and option names stay the same in every language (``None``: no
    localisation), as does any text with no translation."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = DISCORD_LOCALES.get(locale)
        make = string.extras.get("make")
        if language is None or make is None or context.location in _NAMES:
            return None
        with using(language):
            text = shorten(make().strip(), string.extras["limit"])
        return text if text and text != string.message else None


def option_name(name: str, taken: set[str]) -> str:
    """A Discord option name (lower case, 1–32 of ``-_`` letters and digits), unique."""
    base = _OPTION_NAME.sub("_", name.lower()).strip("_")[:32] or "value"
    candidate, n = base, 2
    while candidate in taken:
        candidate = f"{base[:29]}_{n}"
        n += 1
    taken.add(candidate)
    return candidate


def _annotation(param: Typed) -> Any:
    if isinstance(param, Flag):
        return bool
    if param.kind in ("int", "number"):
        return int
    if param.kind == "file":
        return discord.Attachment
    return str


def _choices(param: Typed) -> tuple[str, ...]:
    if isinstance(param, Flag):
        return ()
    if param.choices:
        return param.choices
    if param.kind == "system":
        return SYSTEM_KEYS
    return ()


def argument_text(params: Sequence[Typed], values: Sequence[Any]) -> str:
    """The argument text the core reads, from typed option values in spec order (a command
    not converted to an arguments dataclass yet, or one with actions: ``/tournament``).

    Player names with spaces are quoted (``"Nagy Péter"``); options are ``key=value`` (quoted
    when the value has spaces); files travel separately as the attachment.
    """
    words: list[str] = []
    for param, value in zip(params, values, strict=True):
        if value is None or param.kind == "file":
            continue
        text = str(value).strip()
        if not text:
            continue
        if isinstance(param, Flag):
            if value:
                words.append(param.said[0])
            continue
        if param.kind == "player":
            text = text.replace('"', "")
            text = f'"{text}"' if any(ch.isspace() for ch in text) else text
        if isinstance(param, Option):
            text = text.replace('"', "")
            value_text = f'"{text}"' if any(ch.isspace() for ch in text) else text
            words.append(f"{param.key}={value_text}")
        else:
            words.append(text)
    return " ".join(words)


# --- rendering -----------------------------------------------------------------------------


@dataclass(slots=True)
class Outgoing:
    """One Discord message: content and/or an embed, and files."""

    content: str | None = None
    embed: discord.Embed | None = None
    files: list[tuple[str, bytes]] = field(default_factory=list)

    def kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.content:
            out["content"] = self.content
        if self.embed is not None:
            out["embed"] = self.embed
        if self.files:
            out["files"] = [discord.File(io.BytesIO(data), filename=n) for n, data in self.files]
        return out


def _escape(text: str) -> str:
    return discord.utils.escape_markdown(text)


def _code(text: str) -> str:
    return "```\n" + text.replace("```", "ˋˋˋ") + "\n```"


def _fit(text: str, limit: int, wrap: Callable[[str], str]) -> list[str]:
    """``text`` in wrapped pieces of at most ``limit`` characters, split at line breaks."""
    size = max(1, limit - len(wrap("")))
    while True:
        pieces = [wrap(p) for p in split_text(text, size)]
        if all(len(p) <= limit for p in pieces):
            return pieces
        size = max(1, size * 3 // 4)  # escaping and fences take room


def markdown_units(blocks: Sequence[Text | Table], limit: int) -> list[str]:
    """Each block as Discord markdown (user text escaped, titles bold, tables in code
    blocks), split so that no unit exceeds ``limit``."""
    units: list[str] = []
    for block in blocks:
        if isinstance(block, Table):
            units.extend(_fit("\n".join(block.lines()), limit, _code))
        elif block.title:
            units.extend(_fit(block.text, limit, lambda t: f"**{_escape(t)}**"))
        else:
            units.extend(_fit(block.text, limit, _escape))
    return units


def pack(units: Sequence[str], limit: int) -> list[str]:
    """Units joined by blank lines into as few texts of at most ``limit`` as they fit."""
    texts: list[str] = []
    current = ""
    for unit in units:
        candidate = f"{current}\n\n{unit}" if current else unit
        if current and len(candidate) > limit:
            texts.append(current)
            current = unit
        else:
            current = candidate
    if current:
        texts.append(current)
    return texts


def _filename(name: str) -> str:
    return re.sub(r"[^\w.-]+", "_", name) or "file"


def render(reply: Reply) -> list[Outgoing]:
    """The reply as Discord messages: one embed for a titled answer that fits (a card, a
    table), plain messages otherwise; pictures and files attached to the last message."""
    blocks = list(reply.blocks)
    files: list[tuple[str, bytes]] = []
    first = blocks[0] if blocks else None
    if (
        not reply.error
        and isinstance(first, Text)
        and first.title
        and len(first.text) <= EMBED_TITLE_LIMIT
    ):
        descriptions = pack(markdown_units(blocks[1:], EMBED_DESCRIPTION_LIMIT), 4096)
        if len(descriptions) <= 1 and len(first.text) + sum(map(len, descriptions)) <= 5500:
            embed = discord.Embed(
                title=first.text,
                description=descriptions[0] if descriptions else None,
                colour=EMBED_COLOUR,
            )
            if reply.picture is not None:
                name = _filename(reply.picture.filename)
                embed.set_image(url=f"attachment://{name}")
                if reply.picture.caption:
                    embed.set_footer(text=reply.picture.caption[:2048])
                files.append((name, reply.picture.png))
            if reply.document is not None:
                files.append((_filename(reply.document.filename), reply.document.data))
            return [Outgoing(embed=embed, files=files)]
    texts = pack(markdown_units(blocks, CONTENT_LIMIT), CONTENT_LIMIT)
    document = reply.document
    if len(texts) > MAX_MESSAGES:  # a long list reads better as a file
        head = first.text if isinstance(first, Text) else _("The answer")
        long = _escape(_("The full answer is long; it is in the file."))
        texts = [f"{_escape(head[:200])}\n\n*{long}*"]
        stem = re.sub(r"[^\w-]+", "-", head.lower()).strip("-")[:40] or "answer"
        files.append((f"{stem}.txt", reply.as_text().encode("utf-8") + b"\n"))
    if reply.picture is not None:
        files.append((_filename(reply.picture.filename), reply.picture.png))
        if reply.picture.caption:
            texts.append(_escape(reply.picture.caption))
    if document is not None:
        files.append((_filename(document.filename), document.data))
        if document.caption:
            texts.append(_escape(document.caption))
    texts = pack(texts, CONTENT_LIMIT) or [""]
    messages = [Outgoing(content=t) for t in texts]
    messages[-1].files = files
    return messages


# --- buttons and modals --------------------------------------------------------------------


class CommandButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=re.compile(re.escape(BUTTON_PREFIX) + r".+", re.DOTALL),
):
    """A button that runs a command as the person who presses it (survives restarts for
    commands short enough to travel in the custom id)."""

    def __init__(self, label: str, custom_id: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80], style=discord.ButtonStyle.secondary, custom_id=custom_id
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> CommandButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(label or "", getattr(item, "custom_id", None) or match.group(0))

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        assert isinstance(client, HoshiClient)
        await client.adapter.press(interaction, self.item.custom_id or "")


@dataclass(frozen=True, slots=True)
class Asked:
    """A slash command as asked: its form, the line that echoes it (buttons, usage lines)
    and its typed values by argument name (``None``: the core reads the line)."""

    form: Form
    text: str
    values: tuple[tuple[str, object], ...] | None = None


class PasteButton(discord.ui.Button[discord.ui.View]):
    """Opens a :class:`PasteModal` for the command it was offered with."""

    def __init__(self, adapter: DiscordAdapter, asked: Asked) -> None:
        super().__init__(label=_("Paste the table"), style=discord.ButtonStyle.primary)
        self.adapter, self.asked = adapter, asked

    async def callback(self, interaction: discord.Interaction) -> None:
        with using(person_of(interaction) or SOURCE):
            modal = PasteModal(self.adapter, self.asked)
        await interaction.response.send_modal(modal)


class PasteModal(discord.ui.Modal):
    """A form to paste a results table into, for a command that reads a file (its words in
    the current language); the table goes with the command's typed values as its file."""

    def __init__(self, adapter: DiscordAdapter, asked: Asked) -> None:
        title = _("/{command}: paste the table", command=asked.form.label.lstrip("/"))
        super().__init__(title=_cut(title, MODAL_TITLE_LIMIT), timeout=900)
        self.adapter, self.asked = adapter, asked
        self.paste: discord.ui.TextInput[PasteModal] = discord.ui.TextInput(
            style=discord.TextStyle.paragraph, max_length=PASTE_LIMIT
        )
        self.add_item(discord.ui.Label(text=_("Results table"), component=self.paste))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        data = self.paste.value.encode("utf-8")
        await self.adapter.run(interaction, self.asked, (data, "pasted.txt"))


# --- the client and the adapter ------------------------------------------------------------


class HoshiTree(app_commands.CommandTree["HoshiClient"]):
    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Log with an incident reference; the user sees only the reference."""
        await report_incident(interaction, error)


async def report_incident(interaction: discord.Interaction, error: BaseException) -> None:
    """Log with an incident reference; the user sees only the reference (in their own
    language: the answer is ephemeral)."""
    ref = secrets.token_hex(3)
    log.error("incident %s: a Discord interaction failed", ref, exc_info=error)
    with using(person_of(interaction) or SOURCE):
        text = _(
            "Something went wrong (ref {ref}). Nothing more was changed; an organiser can "
            "report the reference to the bot's operator.",
            ref=ref,
        )
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("Discord: could not report incident %s: %s", ref, exc)


class HoshiClient(discord.Client):
    """A client with hoshi's command tree; no privileged intents are needed."""

    def __init__(self, adapter: DiscordAdapter) -> None:
        # hoshi never joins a voice channel: discord.py's start-up warnings that PyNaCl and
        # davey (voice) are missing say nothing to its operator; these flags are how it
        # warns once per process
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            intents=discord.Intents(guilds=True),
            allowed_mentions=discord.AllowedMentions.none(),  # names never ping anyone
        )
        self.adapter = adapter
        self.tree = HoshiTree(self)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CommandButton)
        await self.tree.set_translator(CatalogueTranslator())  # before the sync
        await self.adapter.sync()


class DiscordAdapter:
    """Bridges a discord.py client to the core. ``start()``/``stop()`` run it."""

    def __init__(self, core: Core, token: str, config: DiscordConfig) -> None:
        self.core = core
        self.config = config
        self._token = token
        self.buttons = ButtonCommands(CUSTOM_ID_LIMIT, prefix=BUTTON_PREFIX)
        self.client = HoshiClient(self)
        self.tree = self.client.tree
        self.commands: dict[str, app_commands.Command[Any, ..., Any] | Group] = {}
        for cmd in public_commands():
            slash = self._slash_command(cmd)
            self.tree.add_command(slash)
            self.commands[cmd.name] = slash
        self._gateway: asyncio.Task[None] | None = None

    # --- lifecycle

    @property
    def running(self) -> bool:
        """Whether updates come in now (``/healthz``): the client is open and its gateway task
        alive (a gateway reconnecting after a dropped connection still counts: discord.py
        retries by itself)."""
        gateway = self._gateway
        return gateway is not None and not gateway.done() and not self.client.is_closed()

    async def start(self) -> None:
        """Log in (which syncs the commands) and connect to the gateway in the background."""
        try:
            await self.client.login(self._token)
        except BaseException:
            await self.client.close()  # a refused token must not leave the session open
            raise
        self._gateway = asyncio.create_task(self.client.connect(), name="discord-gateway")

    async def stop(self) -> None:
        """Close the client; a gateway still waiting to reconnect is cancelled."""
        await self.client.close()
        if self._gateway is not None:
            self._gateway.cancel()
            try:
                await self._gateway
            except asyncio.CancelledError:
                pass
            except Exception:  # the gateway's own failure was already logged
                log.debug("Discord gateway ended with an error", exc_info=True)
            self._gateway = None

    async def sync(self) -> None:
        """Publish the commands: to each configured guild (immediate), else globally."""
        if not self.config.guild_ids:
            synced = await self.tree.sync()
            log.info("Discord: %d commands synced globally", len(synced))
            return
        for guild_id in self.config.guild_ids:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("Discord: %d commands synced to guild %s", len(synced), guild_id)

    # --- the table → slash commands

    def _slash_command(self, cmd: CommandSpec) -> app_commands.Command[Any, ..., Any] | Group:
        """The command on Discord: a slash command, or a group of subcommands, one per
        action (:func:`grouped`: ``/club komi``, ``/tournament new``)."""
        description = localized(_summary(cmd), functools.partial(_summary, cmd), DESCRIPTION_LIMIT)
        forms = forms_of(cmd)
        if not grouped(cmd):
            return self._slash(forms[0], cmd.name, description)
        group = Group(name=cmd.name, description=description, extras={"hoshi": cmd.name})
        for form in forms:
            assert form.action is not None
            summary = functools.partial(_action_summary, cmd, form.action)
            group.add_command(
                self._slash(form, form.action, localized(summary(), summary, DESCRIPTION_LIMIT))
            )
        return group

    def _slash(
        self, form: Form, name: str, description: app_commands.locale_str
    ) -> app_commands.Command[Any, ..., Any]:
        """A slash command (or subcommand) whose options are ``form``'s, typed: numbers as
        integers, choices as choices, players autocompleted, files as attachments, flags as
        yes/no; names and descriptions in the reader's language (:class:`CatalogueTranslator`)."""
        cmd, params = form.cmd, form.options
        names = [f"p{i}" for i in range(len(params))]
        adapter = self

        async def callback(interaction: discord.Interaction, **values: Any) -> None:
            await adapter.slash(interaction, form, [values.get(n) for n in names])

        signature = [
            inspect.Parameter(
                "interaction",
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation=discord.Interaction,
            )
        ]
        renames: dict[str, str] = {}
        descriptions: dict[str, app_commands.locale_str] = {}
        choices: dict[str, list[app_commands.Choice[str]]] = {}
        completers: dict[str, Any] = {}
        taken: set[str] = set()
        for name_, param in zip(names, params, strict=True):
            required = _required(param)
            signature.append(
                inspect.Parameter(
                    name_,
                    inspect.Parameter.KEYWORD_ONLY,
                    annotation=_annotation(param),
                    default=inspect.Parameter.empty if required else None,
                )
            )
            renames[name_] = option_name(_name(param), taken)
            descriptions[name_] = localized(
                _description(param, cmd),
                functools.partial(_description, param, cmd),
                DESCRIPTION_LIMIT,
            )
            options = _choices(param)
            if options and len(options) <= MAX_CHOICES and param.kind != "int":
                choices[name_] = [
                    app_commands.Choice(
                        name=localized(c, functools.partial(shown, c), CHOICE_LIMIT), value=c
                    )
                    for c in options
                ]
            elif options and param.kind != "int":
                completers[name_] = _choice_completer(options)
            elif param.kind == "player":
                completers[name_] = _player_completer(self)
        callback.__signature__ = inspect.Signature(signature)  # type: ignore[attr-defined]
        callback.__name__ = callback.__qualname__ = f"slash_{cmd.name}_{form.action or ''}"
        decorated: Any = callback
        if renames:
            decorated = app_commands.rename(**renames)(decorated)
        if descriptions:
            decorated = app_commands.describe(**descriptions)(decorated)
        if choices:
            decorated = app_commands.choices(**choices)(decorated)
        if completers:
            decorated = app_commands.autocomplete(**completers)(decorated)
        return app_commands.Command(
            name=name,
            description=description,
            callback=decorated,
            extras={"hoshi": cmd.name, "action": form.action},
        )

    # --- interactions → invocations

    @staticmethod
    def chat_of(interaction: discord.Interaction) -> tuple[str, bool]:
        """``(chat id, private)``: a server is one chat; a DM is its own."""
        if interaction.guild_id is not None:
            return str(interaction.guild_id), False
        return str(interaction.channel_id), True

    def caller(self, interaction: discord.Interaction) -> Caller:
        """The person (in their Discord language); an administrator if they have Manage
        Server (or it is a DM)."""
        _chat, private = self.chat_of(interaction)
        user = interaction.user
        admin = private or interaction.permissions.manage_guild
        return Caller(
            PLATFORM,
            str(user.id),
            user.display_name,
            chat_admin=admin,
            language=person_of(interaction),
        )

    async def language(self, interaction: discord.Interaction, only_the_caller: bool) -> str:
        """The language of an answer's own words: the person's own for what only they see
        (an ephemeral answer, a DM) when Discord says it, else the server's club's."""
        chat, private = self.chat_of(interaction)
        person = person_of(interaction)
        if (only_the_caller or private) and person is not None:
            return person
        return await chat_language(self.core.db, PLATFORM, chat, person)

    async def slash(
        self, interaction: discord.Interaction, form: Form, values: Sequence[Any]
    ) -> None:
        """A slash command (or an action's subcommand): its typed values, by argument name,
        go to the core as they are — the text rendered beside them only echoes them, for
        buttons and usage lines — (a command not converted yet: its argument text); or ask
        for a paste."""
        cmd, params = form.cmd, form.options
        typed: tuple[tuple[str, object], ...] | None = None
        if form.typed:
            named = {
                p.field: v
                for p, v in zip(params, values, strict=True)
                if v is not None and p.kind != "file"
            }
            typed = tuple(named.items())
            text = render_arguments(cmd, named, form.action)
        else:
            text = argument_text(params, values)
        asked = Asked(form, text, typed)
        files = [(v, p) for v, p in zip(values, params, strict=True) if p.kind == "file"]
        attachment = next((v for v, _p in files if v is not None), None)
        if attachment is None and any(isinstance(p, Param) and p.required for _v, p in files):
            with using(await self.language(interaction, True)):
                modal = PasteModal(self, asked)
            await interaction.response.send_modal(modal)
            return
        if attachment is not None and attachment.size > MAX_ATTACHMENT_BYTES:
            with using(await self.language(interaction, True)):
                refused = too_big(attachment.filename, attachment.size, MAX_ATTACHMENT_BYTES)
            await self.respond(interaction, Reply.text(refused, error=True))
            return

        async def read() -> tuple[bytes, str] | None:
            if attachment is None:
                return None
            return await attachment.read(), attachment.filename

        # a command that reads files, refused without one, offers a form to paste into
        offer = bool(files) and attachment is None
        await self.run(interaction, asked, read, paste_offer=offer)

    async def run(
        self,
        interaction: discord.Interaction,
        asked: Asked,
        attachment: tuple[bytes, str] | Callable[[], Awaitable[tuple[bytes, str] | None]] | None,
        *,
        paste_offer: bool = False,
    ) -> None:
        """Run a slash command as the interaction's user and respond (deferring when slow);
        ``paste_offer``: a refusal offers a form to paste a table into."""
        chat, private = self.chat_of(interaction)

        async def handle() -> Reply:
            file = await attachment() if callable(attachment) else attachment
            inv = Invocation(
                command=asked.form.cmd.name,
                text=asked.text,
                caller=self.caller(interaction),
                chat_id=chat,
                private=private,
                attachment=file[0] if file else None,
                attachment_name=file[1] if file else None,
                received_at=interaction.created_at,
                values=asked.values,
                action=asked.form.action if asked.values is not None else None,
            )
            return await self.core.handle(inv)

        task = asyncio.ensure_future(handle())
        done, _pending = await asyncio.wait({task}, timeout=DEFER_AFTER_S)
        if not done:
            await interaction.response.defer(thinking=True)
        reply = await task
        await self.respond(
            interaction, reply, paste=asked if paste_offer and reply.error else None
        )

    async def press(self, interaction: discord.Interaction, custom_id: str) -> None:
        """A button: run its command as the presser; replace the message on success."""
        try:
            command = self.buttons.decode(custom_id)
            if command is None:
                with using(await self.language(interaction, True)):
                    stale = _("This button is no longer active; please use the command instead.")
                await interaction.response.send_message(stale, ephemeral=True)
                return
            name, rest = split_command(command)
            chat, private = self.chat_of(interaction)
            inv = Invocation(name, rest, self.caller(interaction), chat, private=private)
            reply = await self.core.handle(inv)
            if reply.error or reply.private:
                await self.respond(interaction, reply)
                return
            with using(await self.language(interaction, False)):
                outgoing = render(reply)
            if (
                not reply.error
                and not reply.private
                and len(outgoing) == 1
                and not outgoing[0].files
            ):
                out = outgoing[0]
                await interaction.response.edit_message(
                    content=out.content,
                    embed=out.embed,
                    view=self.view(reply),
                )
                return
            await self.respond(interaction, reply)
        except Exception as exc:  # a failed press must still answer the presser
            await report_incident(interaction, exc)

    # --- replies → messages

    def view(self, reply: Reply, paste: Asked | None = None) -> discord.ui.View | None:
        """The reply's buttons (and a "paste the table" button that opens a form)."""
        if not reply.buttons and paste is None:
            return None
        view = discord.ui.View(timeout=None if paste is None else PASTE_OFFER_S)
        for button in reply.buttons:
            view.add_item(CommandButton(button.label, self.buttons.encode(button.command)))
        if paste is not None:
            view.add_item(PasteButton(self, paste))
        return view

    async def respond(
        self,
        interaction: discord.Interaction,
        reply: Reply,
        *,
        paste: Asked | None = None,
    ) -> None:
        """Send the reply: errors and private replies only to the caller (ephemeral), in the
        person's own language when Discord says it."""
        ephemeral = reply.error or reply.private
        if ephemeral:
            reply = for_person(reply, person_of(interaction))
        with using(await self.language(interaction, ephemeral)):
            outgoing = render(reply)
            view = self.view(reply, paste)
        for i, out in enumerate(outgoing):
            kwargs = out.kwargs()
            if i == len(outgoing) - 1 and view is not None:
                kwargs["view"] = view
            if not interaction.response.is_done():
                await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
            else:
                await interaction.followup.send(ephemeral=ephemeral, **kwargs)

    async def post(self, chat_id: str, reply: Reply) -> None:
        """Post a reply the bot sends by itself (scheduled summaries): in a server, to its
        system channel or the first text channel the bot may write to."""
        channel: Any = None
        guild = self.client.get_guild(int(chat_id))
        if guild is not None:
            me = guild.me
            candidates = [guild.system_channel, *guild.text_channels]
            channel = next(
                (c for c in candidates if c is not None and c.permissions_for(me).send_messages),
                None,
            )
        else:
            channel = self.client.get_channel(int(chat_id))
        if channel is None:
            log.warning("Discord: nowhere to post in chat %s", chat_id)
            return
        await self._send(channel, reply, await chat_language(self.core.db, PLATFORM, chat_id))

    async def tell(self, account: str, reply: Reply) -> None:
        """Tell one person in a direct message (their own board of a tournament round)."""
        user = await self.client.fetch_user(int(account))
        channel = await user.create_dm()
        await self._send(channel, reply, await chat_language(self.core.db, PLATFORM, account))

    async def _send(self, channel: Any, reply: Reply, language: str) -> None:
        with using(language):
            view = self.view(reply)
            outgoing = render(reply)
        for i, out in enumerate(outgoing):
            kwargs = out.kwargs()
            if i == len(outgoing) - 1 and view is not None:
                kwargs["view"] = view
            await channel.send(**kwargs)


def _player_completer(
    adapter: DiscordAdapter,
) -> Callable[[discord.Interaction, str], Awaitable[list[app_commands.Choice[str]]]]:
    async def complete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        chat, _private = adapter.chat_of(interaction)
        return await player_choices(adapter.core, chat, current)

    return complete


async def player_choices(core: Core, chat_id: str, current: str) -> list[app_commands.Choice[str]]:
    """Up to 25 of the club's players whose name contains ``current`` (accents and case
    ignored), those starting with it first (:func:`bot.core.facade.player_names`)."""
    names = await facade.player_names(core.db, PLATFORM, chat_id, current, MAX_CHOICES)
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names]


def _choice_completer(
    options: Sequence[str],
) -> Callable[[discord.Interaction, str], Awaitable[list[app_commands.Choice[str]]]]:
    async def complete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        key = current.lower()
        hits = [o for o in options if key in o.lower()]
        return [app_commands.Choice(name=o[:100], value=o[:100]) for o in hits[:MAX_CHOICES]]

    return complete


def person_of(interaction: discord.Interaction) -> str | None:
    """The person's own language (``interaction.locale``, e.g. ``sv-SE``) when hoshi has a
    catalogue for it."""
    return language_of(interaction.locale.value)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
