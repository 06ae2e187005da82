"""Club settings and chats: /club …, /export."""

from __future__ import annotations

import datetime as dt
import difflib
import re
import time
from dataclasses import dataclass

import storage
from bot import system_names
from bot.core import exporting, rounds
from bot.core import format as fmt
from bot.core.commands import ORGANISER, Action, Option, Param, command, on_off, placeholders
from bot.core.context import Context
from bot.core.errors import BadArgument, NotPermitted
from bot.core.names import resolve, resolve_tournament
from bot.core.replies import Button, Document, Notice, Reply, Text
from bot.i18n import (
    N_,
    Msg,
    _,
    _n,
    date_text,
    language_name,
    quoted,
    translated,
    using,
    weekday_text,
)
from engine.errors import EngineError
from engine.formats import write_h9
from engine.settings import Setting
from engine.system import Weight
from engine.systems import SYSTEM_SETTINGS, SYSTEMS
from storage import settings as settings_mod
from storage.errors import Refused
from storage.names import fold
from storage.settings import ClubSettings

CLUB_USAGE = N_(
    "/club new NAME [SYSTEM] | join CODE | code | show | system SYSTEM | rename NAME | "
    "timezone ZONE | komi K | country XX | time TIME | reports on [HOURS]|off | grace HOURS | "
    "web on|off | organiser add|remove WHO | settings | set KEY VALUE [from=YYYY-MM-DD]"
)


REPORTS_HELP = N_("write /club reports on [HOURS] or /club reports off")
WEB_HELP = N_("write /club web on or /club web off")
ORGANISER_HELP = N_(
    "write /club organiser add WHO or /club organiser remove WHO; WHO is "
    "telegram:ID, discord:ID or a linked player's name"
)


@dataclass(frozen=True, slots=True)
class ClubAlone:
    """``/club`` with no action: the club, or how to start one."""


@dataclass(frozen=True, slots=True)
class NewArgs:
    name: str = ""
    system: str | None = None


@dataclass(frozen=True, slots=True)
class JoinArgs:
    code: str = ""


@dataclass(frozen=True, slots=True)
class CodeArgs:
    """``/club code`` takes no arguments."""


@dataclass(frozen=True, slots=True)
class ShowArgs:
    """``/club show`` takes no arguments."""


@dataclass(frozen=True, slots=True)
class SystemArgs:
    system: str = ""


@dataclass(frozen=True, slots=True)
class RenameArgs:
    name: str = ""


@dataclass(frozen=True, slots=True)
class TimezoneArgs:
    zone: str = ""


@dataclass(frozen=True, slots=True)
class KomiArgs:
    komi: str = ""


@dataclass(frozen=True, slots=True)
class CountryArgs:
    country: str = ""


@dataclass(frozen=True, slots=True)
class TimeArgs:
    time: str = ""


@dataclass(frozen=True, slots=True)
class ReportsArgs:
    state: str
    hours: str = ""


@dataclass(frozen=True, slots=True)
class GraceArgs:
    hours: str = ""


@dataclass(frozen=True, slots=True)
class WebArgs:
    state: str


@dataclass(frozen=True, slots=True)
class OrganiserArgs:
    verb: str
    who: str


@dataclass(frozen=True, slots=True)
class SettingsArgs:
    """``/club settings`` takes no arguments."""


@dataclass(frozen=True, slots=True)
class SetArgs:
    key: str | None = None
    value: str = ""
    from_: dt.date | None = None


ClubArgs = (
    ClubAlone
    | NewArgs
    | JoinArgs
    | CodeArgs
    | ShowArgs
    | SystemArgs
    | RenameArgs
    | TimezoneArgs
    | KomiArgs
    | CountryArgs
    | TimeArgs
    | ReportsArgs
    | GraceArgs
    | WebArgs
    | OrganiserArgs
    | SettingsArgs
    | SetArgs
)


def _value(name: str, description: str, metavar: str = "") -> Param:
    """A setting's value as typed: its declaration reads it (bot.core.handlers.club._change);
    ``metavar`` as the usage line shows it (default: the name in capitals)."""
    return Param(name, "text", description, required=False, metavar=metavar)


ACTIONS = (
    Action(
        "new",
        params=(
            _value("name", N_("the club's name")),
            Param(
                "system",
                "system",
                N_("its rating system"),
                required=False,
                choices=tuple(SYSTEMS),
            ),
        ),
        arguments=NewArgs,
    ),
    Action("join", params=(_value("code", N_("the join code")),), arguments=JoinArgs),
    Action("code", arguments=CodeArgs),
    Action("show", arguments=ShowArgs),
    Action("system", params=(_value("system", N_("a rating system")),), arguments=SystemArgs),
    Action("rename", params=(_value("name", N_("the new name")),), arguments=RenameArgs),
    Action("timezone", params=(_value("zone", N_("a time zone")),), arguments=TimezoneArgs),
    Action("komi", params=(_value("komi", N_("the even-game komi"), "K"),), arguments=KomiArgs),
    Action(
        "country", params=(_value("country", N_("a country code"), "XX"),), arguments=CountryArgs
    ),
    Action("time", params=(_value("time", N_("a time control")),), arguments=TimeArgs),
    Action(
        "reports",
        params=(
            on_off(REPORTS_HELP),
            _value("hours", N_("how long a report waits")),
        ),
        arguments=ReportsArgs,
    ),
    Action("grace", params=(_value("hours", N_("hours")),), arguments=GraceArgs),
    Action(
        "web",
        params=(on_off(WEB_HELP),),
        arguments=WebArgs,
        extra=WEB_HELP,
    ),
    Action(
        "organiser",
        params=(
            Param(
                "verb",
                "choice",
                N_("add or remove"),
                choices=("add", "remove"),
                missing=ORGANISER_HELP,
                metavar="add|remove",
            ),
            Param("who", "text", N_("who"), missing=ORGANISER_HELP),
        ),
        arguments=OrganiserArgs,
        aliases=("organizer",),
    ),
    Action("settings", arguments=SettingsArgs),
    Action(
        "set",
        params=(
            Param("key", "word", N_("a setting's key"), required=False),
            _value("value", N_("its value")),
        ),
        arguments=SetArgs,
    ),
)


@command(
    "club",
    usage=CLUB_USAGE,
    summary=N_("Club settings; bind another chat to the same club."),
    examples=(
        f"/club new Budapest Go Club {system_names.DEFAULT_SYSTEM}",
        f"/club system {system_names.OTHER_SYSTEM}",
        "/club rename Budapesti Go Egyesület",
        "/club timezone Europe/Budapest",
        "/club settings",
        "/club web on",
        *(
            f"/club set {s.key} {s.example}{when}"
            for s, when in (
                (SYSTEM_SETTINGS[system_names.DEFAULT_SYSTEM][0], ""),
                (SYSTEM_SETTINGS[system_names.OTHER_SYSTEM][0], " from=2026-01-01"),
            )
        ),
        "/club organiser add telegram:12345",
        "/club code",
        "/club join K7Q2-MX4P",
    ),
    access=ORGANISER,
    needs_club=False,
    options=(
        Option(
            "from",
            "date",
            N_("the day a rating setting holds from (default today)"),
            "YYYY-MM-DD",
            actions=("set",),
        ),
    ),
    actions=ACTIONS,
    unknown=N_("unknown /club action {action}"),
    bare=ClubAlone,
    params=(
        Param("action", "choice", N_("what to do"), choices=tuple(a.name for a in ACTIONS)),
        Param("value", "text", N_("the setting's value"), required=False),
    ),
)
async def club(ctx: Context, args: ClubArgs) -> Reply:
    if isinstance(args, ClubAlone):
        return (
            await _show(ctx)
            if ctx.club
            else Reply.text(
                _("This chat has no club yet. {usage}", usage=placeholders(_(CLUB_USAGE))),
                error=True,
            )
        )
    if isinstance(args, NewArgs):
        return await _new(ctx, args.name.strip(), args.system)
    if isinstance(args, JoinArgs):
        return await _join(ctx, args.code.strip())
    if ctx.club is None:
        raise BadArgument(
            _(
                "this chat has no club yet: start one with /club new NAME SYSTEM or "
                "join one with /club join CODE"
            )
        )
    if isinstance(args, ShowArgs):
        return await _show(ctx)
    if isinstance(args, SettingsArgs):
        return _settings(ctx)
    if isinstance(args, SetArgs):
        return await _set(ctx, args)
    if isinstance(args, RenameArgs):
        return await _rename(ctx, args.name.strip())
    if isinstance(args, CodeArgs):
        code = await storage.new_join_code(ctx.db, ctx.club, actor=ctx.actor, chat=ctx.chat)
        return Reply.text(
            _("Join code for {club}: {code}", club=ctx.club.name, code=code),
            _(
                "In the other chat, an administrator types {command} (valid 24 hours, once).",
                command=f"/club join {code}",
            ),
            private=True,
        )
    if isinstance(args, SystemArgs):
        value = args.system.strip()
        key = value.lower()
        if key not in SYSTEMS:
            raise BadArgument(
                _(
                    "the system must be one of {systems}, not {value}",
                    systems=", ".join(SYSTEMS),
                    value=quoted(value),
                )
            )
        await _computed(ctx, key)
        changed = await storage.set_setting(
            ctx.db, ctx.club, "system", key, actor=ctx.actor, chat=ctx.chat
        )
        # a club that speaks its rulebook's language moves with it: the reply is the first
        # in the new system's language (a language the club chose stays)
        with using(ctx.language_in(await storage.club_settings(ctx.db, ctx.club))):
            if changed:
                return Reply.text(
                    _(
                        "{club} now uses {system}. Every rating is derived from the same "
                        "games, so switching back loses nothing.",
                        club=ctx.club.name,
                        system=fmt.system_title(key),
                    )
                )
            return Reply.text(
                _(
                    "{club} already uses {system}. Every rating is derived from the same "
                    "games, so switching back loses nothing.",
                    club=ctx.club.name,
                    system=fmt.system_title(key),
                )
            )
    if isinstance(args, TimezoneArgs):
        now = await _change(ctx, "timezone", args.zone.strip(), "/club timezone")
        return Reply.text(
            _("{club}'s time zone is now {zone}.", club=ctx.club.name, zone=now.time_zone)
        )
    if isinstance(args, KomiArgs):
        now = await _change(ctx, "komi", args.komi.strip(), "/club komi")
        komi = fmt.value(now.komi)
        return Reply.text(
            _("Even games in {club} now default to komi {komi}.", club=ctx.club.name, komi=komi)
        )
    if isinstance(args, CountryArgs):
        return await _country(ctx, args.country.strip())
    if isinstance(args, TimeArgs):
        return await _usual_time(ctx, args.time.strip())
    if isinstance(args, ReportsArgs):
        return await _reports(ctx, args)
    if isinstance(args, GraceArgs):
        now = await _change(ctx, "grace_hours", args.hours.strip(), "/club grace")
        return Reply.text(
            _n(
                "A weekly summary missed while the bot was down is posted when it is back, "
                "once, for its own week; up to {n} hour after its moment it reads as on time, "
                "later it is marked late. Rating work always runs.",
                "A weekly summary missed while the bot was down is posted when it is back, "
                "once, for its own week; up to {n} hours after its moment it reads as on time, "
                "later it is marked late. Rating work always runs.",
                now.grace_hours,
            )
        )
    if isinstance(args, WebArgs):
        return await _web(ctx, args.state)
    return await _organiser(ctx, args)


async def _usual_time(ctx: Context, value: str) -> Reply:
    """The club's usual time control: its MGSZ rating period's multiplier (rules.md §1.4),
    from today; what it does to the open period is said as the period's end will do it."""
    held = await _period_weight(ctx)
    now = await _change(ctx, "time", value, "/club time")
    lines = [
        _(
            "{club}'s usual time control is {time} from {day}: under MGSZ the club games of a "
            "period that ends from then on are rated with the multiplier it gives.",
            club=ctx.the_club.name,
            time=str(now.time),
            day=date_text(ctx.today()),
        )
    ]
    effect = await _period_effect(ctx, held)
    return Reply.text(*lines, *([effect] if effect else []))


async def _period_weight(ctx: Context) -> Weight | None:
    """How the club's open period of club games will be counted at its end, as things stand
    (the current system's answer; ``None``: nothing held, or no such period)."""
    return (await storage.ledger(ctx.db, ctx.the_club.id)).period_weight()


async def _period_effect(ctx: Context, before: Weight | None) -> str | None:
    """What a change did to the open period of club games (rules.md §1.4): the weight its end
    will rate it with, worked out as the end works it out (the ledger's ``period_weight``),
    and what it was; ``None`` when no club game is held."""
    after = await _period_weight(ctx)
    if after is None:
        return None
    how = "; ".join(translated(line) for line in after.lines)
    if before is None or before.value == after.value:
        return _(
            "The open period of club games will be rated with {weight} = {value} when it ends "
            "({how}); /rating shows each player's rating if it ended now.",
            weight=translated(after.label),
            value=fmt.value(after.value),
            how=how,
        )
    return _(
        "The open period of club games will now be rated with {weight} = {value} when it ends, "
        "not {before} ({how}); /rating shows each player's rating if it ended now.",
        weight=translated(after.label),
        value=fmt.value(after.value),
        before=fmt.value(before.value),
        how=how,
    )


async def _reports(ctx: Context, args: ReportsArgs) -> Reply:
    """Player-reported results: pending until the opponent (or an organiser) confirms."""
    if args.state == "off":
        await _change(ctx, "reports", "off", "/club reports")
        return Reply.text(_("Only organisers record results now."))
    hours = args.hours.strip() or str(settings_mod.DEFAULT_REPORT_HOURS)
    setting = _declared("report_hours")
    _read(setting, hours, "/club reports on")  # refused before anything changes
    await _change(ctx, "reports", "on", "/club reports")
    now = await _change(ctx, "report_hours", hours, "/club reports on")
    return Reply.text(
        _n(
            "Players may now report their own games with /result: a report waits for the "
            "opponent's confirmation and expires after {n} hour.",
            "Players may now report their own games with /result: a report waits for the "
            "opponent's confirmation and expires after {n} hours.",
            now.report_hours,
        )
    )


async def _web(ctx: Context, state: str) -> Reply:
    """The club's read-only web pages (issue 14): on, ``/top`` and ``/rating`` link to them;
    off, the web server answers "not found" for the club and never shows its data."""
    now = await _change(ctx, "web", state, "/club web")
    if not now.web:
        return Reply.text(
            _(
                '{club}\'s web pages are off: the web server answers "not found" for the club '
                "and shows none of its data.",
                club=ctx.the_club.name,
            )
        )
    address = ctx.core.links.ranking(ctx.the_club, ctx.language)
    if address is None:
        lines = [
            _(
                "{club}'s ranking list, players and tournaments are on the web (read-only) "
                "wherever this hoshi serves its pages.",
                club=ctx.the_club.name,
            ),
            _(
                "To link to them here, the bot's administrator sets {key} in hoshi's config "
                "file to the address members reach them at (e.g. {example}); /top and /rating "
                "replies then carry the link. /club web off takes the pages down.",
                key="[web] base_url",
                example='base_url = "https://go.example.org/hoshi"',
            ),
        ]
    else:
        lines = [
            _(
                "{club}'s ranking list, players and tournaments are on the web (read-only): "
                "{address}",
                club=ctx.the_club.name,
                address=address,
            ),
            _("/top and /rating replies now carry the link; /club web off takes the pages down."),
        ]
    if not ctx.core.config.web.enabled:
        lines.append(
            _(
                "The server runs with {command} (or {run} with {key} in the config).",
                command="hoshi web",
                run="hoshi run",
                key="[web] enabled = true",
            )
        )
    return Reply.text(*lines)


def _declared(key: str) -> Setting:
    setting = settings_mod.setting_named(key)
    assert setting is not None, key
    return setting


def _read(setting: Setting, value: str, command: str) -> object:
    """``value`` read by the setting's declaration; a bad one gets its range and an example
    of ``command`` (``/club komi``, ``/club set KEY``)."""
    try:
        return setting.read(value)
    except EngineError as error:
        raise BadArgument(_with_command(error, setting.key, command)) from None


def _with_command(error: Exception, key: str, command: str) -> str:
    """A setting's refusal, in the conversation's language, with its example written as the
    command that takes it (``komi 6.5`` → ``/club komi 6.5``): the key and the example are
    typed as they are in every language."""
    message = error.args[0] if error.args else None
    text = translated(message) if isinstance(message, str) else str(error)
    example = message.args.get("example") if isinstance(message, Msg) else None
    if isinstance(example, str) and example:
        typed = f"{key} {example}"
        at = text.rfind(typed)
        if at >= 0:
            return text[:at] + f"{command} {example}" + text[at + len(typed) :]
    return text.replace(f"(e.g. {key} ", f"(e.g. {command} ")


async def _change(
    ctx: Context, key: str, value: str, command: str, since: dt.date | None = None
) -> ClubSettings:
    """Change one setting through its declaration; the club's settings after the change."""
    return (await _changed(ctx, key, value, command, since))[1]


async def _changed(
    ctx: Context, key: str, value: str, command: str, since: dt.date | None = None
) -> tuple[bool, ClubSettings]:
    """:func:`_change`, and whether the setting changed (``False``: it already had the value).

    A bad value is refused with the setting's range and an example of ``command``."""
    _read(_declared(key), value, command)
    try:
        changed = await storage.set_setting(
            ctx.db, ctx.the_club, key, value, actor=ctx.actor, chat=ctx.chat, since=since
        )
    except Refused as error:
        raise BadArgument(_with_command(error, key, command)) from None
    return changed, await storage.club_settings(ctx.db, ctx.the_club)


def set_example(system: str) -> str:
    """``/club set KEY VALUE`` with the first setting of ``system`` (of any system when it
    declares none), as an example in replies."""
    declared = SYSTEM_SETTINGS.get(system) or next(s for s in SYSTEM_SETTINGS.values() if s)
    return f"/club set {declared[0].key} {declared[0].example}"


def _close_keys(key: str) -> list[str]:
    """Declared keys close to a mistyped one (``anchor`` → ``<system>.anchor``)."""
    keys = list(settings_mod.declared())
    found = [k for k in keys if k.endswith("." + key) or k == key]
    found += difflib.get_close_matches(key, keys, n=3, cutoff=0.8)
    found += difflib.get_close_matches(
        key, [k.partition(".")[2] for k in keys if "." in k], n=3, cutoff=0.75
    )
    named = []
    for each in found:
        full = each if each in keys else next(k for k in keys if k.endswith("." + each))
        if full not in named:
            named.append(full)
    return named[:3]


SLOW_SWITCH_S = 1.0
"""A switch of system whose ratings take longer than this to compute tells the chat so."""


async def _computed(ctx: Context, key: str) -> None:
    """The club's ratings under ``key`` brought up to its last fact before a switch to it (a
    system the club does not use is folded only when asked: storage.projections.caught_up);
    when that takes longer than :data:`SLOW_SWITCH_S`, the chat is told once what is being
    computed, and how far it has got."""
    club = ctx.the_club
    began = time.monotonic()
    told = False

    def progress(done: int, _total: int) -> None:
        nonlocal told
        if told or not done or time.monotonic() - began < SLOW_SWITCH_S:
            return
        told = True
        text = _n(
            "Computing {club}'s ratings under {system} from its history: {n} fact so far …",
            "Computing {club}'s ratings under {system} from its history: {n} facts so far …",
            done,
            club=club.name,
            system=fmt.system_title(key),
        )
        notice = Notice(club.id, Reply.text(text))
        ctx.core.post_soon(notice)

    await storage.ensure_fresh(ctx.db, club.id, key, progress=progress)


async def _set(ctx: Context, args: SetArgs) -> Reply:
    """``/club set KEY VALUE [from=YYYY-MM-DD]``: any setting, by its declaration."""
    if args.key is None or not args.value.strip():
        raise BadArgument(
            _(
                "write /club set KEY VALUE, e.g. {example}; /club settings lists every setting",
                example=set_example(ctx.settings.system),
            )
        )
    key, value = args.key.strip().lower(), args.value.strip()
    if key == settings_mod.SYSTEM:
        raise BadArgument(
            _(
                "change the rating system with /club system, e.g. {example}",
                example=f"/club system {value}",
            )
        )
    setting = settings_mod.setting_named(key)
    if setting is None:
        close = _close_keys(key)
        if close:
            raise BadArgument(
                _(
                    "there is no setting {key}; did you mean {keys}? /club settings lists "
                    "every setting",
                    key=quoted(key),
                    # TRANSLATORS: between setting keys offered for a mistyped one
                    keys=_(" or ").join(close),
                )
            )
        raise BadArgument(
            _("there is no setting {key}; /club settings lists every setting", key=quoted(key))
        )
    command = f"/club set {key}"
    since = args.from_
    if since is not None and not setting.rates:
        raise BadArgument(
            _(
                "{key} changes no rating, so it takes no from= date; e.g. {example}",
                key=key,
                example=f"{command} {setting.example}",
            )
        )
    before = ctx.settings.value(key)
    held = await _period_weight(ctx) if setting.rates else None
    changed, now = await _changed(ctx, key, value, command, since)
    shown = setting.show(now.value(key))
    asked = setting.show(setting.read(value))  # read already by _changed: it cannot fail
    if not changed:
        return Reply.text(_("{key} is already {value}.", key=key, value=asked))
    if not setting.rates:
        # the language changed: its reply is the first in the new language
        with using(ctx.language_in(now)):
            return Reply.text(
                _(
                    "{club}: {key} is now {value} (was {before}).",
                    club=ctx.the_club.name,
                    key=key,
                    value=shown,
                    before=setting.show(before),
                )
            )
    day = since or ctx.today()
    effect = await _period_effect(ctx, held)
    return Reply.text(
        _(
            "{club}: {key} is {value} from {day} (was {before}); every rating from that day on "
            "is recomputed. /undo takes it back.",
            club=ctx.the_club.name,
            key=key,
            value=asked,
            day=date_text(day),
            before=setting.show(before),
        ),
        *([effect] if effect else []),
    )


def _settings(ctx: Context) -> Reply:
    """``/club settings``: every setting with its value, default and what it does; the club's
    own settings first, then its rating system's, then the other systems'."""
    current = ctx.settings
    blocks = [Text(_("{club}: settings", club=ctx.the_club.name), title=True)]
    # TRANSLATORS: heading of the club-wide settings in /club settings
    blocks.append(Text(_("Club"), title=True))
    blocks.append(Text("\n".join(_setting_line(current, s) for s in settings_mod.CLUB_SETTINGS)))
    system = current.system
    order = [system, *sorted(k for k in SYSTEM_SETTINGS if k != system)]
    for key in order:
        declared = SYSTEM_SETTINGS.get(key, ())
        if not declared:
            continue
        title = fmt.system_title(key)
        if key == system:
            title = _("{system} — the club's system", system=title)
        blocks.append(Text(title, title=True))
        blocks.append(Text("\n".join(_setting_line(current, s) for s in declared)))
    blocks.append(
        Text(
            _(
                "Change one with /club set KEY VALUE, e.g. {example}; a rating setting holds "
                "from today, or from=YYYY-MM-DD, and /undo takes it back.",
                example=set_example(system),
            )
        )
    )
    return Reply(blocks=tuple(blocks))


def _setting_line(current: ClubSettings, setting: Setting) -> str:
    """``komi = 6.5 (default): …`` — a setting's value, whether it is the default (and from
    which day it holds when not) and what it does, in the conversation's language."""
    value = current.value(setting.key)
    shown = setting.show(value)
    summary = translated(setting.summary)
    if value == setting.default:
        return _(
            "{key} = {value} (default): {summary}", key=setting.key, value=shown, summary=summary
        )
    default = setting.show(setting.default)
    since = current.since.get(setting.key)
    if since is not None:
        return _(
            "{key} = {value} (default {default}, from {day}): {summary}",
            key=setting.key,
            value=shown,
            default=default,
            day=date_text(since),
            summary=summary,
        )
    return _(
        "{key} = {value} (default {default}): {summary}",
        key=setting.key,
        value=shown,
        default=default,
        summary=summary,
    )


async def _rename(ctx: Context, name: str) -> Reply:
    """A new name for the club: a log event; the old name stays in the history."""
    if not name.strip():
        raise BadArgument(
            _("give the new name, e.g. {example}", example="/club rename Budapest Go Club")
        )
    old = ctx.the_club.name
    renamed = await storage.rename_club(ctx.db, ctx.the_club, name, actor=ctx.actor, chat=ctx.chat)
    return Reply.text(
        _(
            "{old} is now called {new}. The old name stays in the club's history.",
            old=old,
            new=renamed.name,
        )
    )


async def _new(ctx: Context, name: str, system: str | None) -> Reply:
    if ctx.club is not None:
        if name and await _made_on_first_use(ctx):
            return _offer_rename(ctx, name, system)
        raise BadArgument(_("this chat already belongs to {club}", club=ctx.club.name))
    if not ctx.inv.caller.chat_admin:
        raise NotPermitted(_("only a chat administrator can start a club in this chat"))
    system = system or system_names.DEFAULT_SYSTEM
    if not name:
        raise BadArgument(
            _(
                "name the club, e.g. {example}",
                example=f"/club new Budapest Go Club {system_names.DEFAULT_SYSTEM}",
            )
        )
    new = await storage.create_club(ctx.db, name, system, actor=ctx.actor, chat=ctx.chat)
    await storage.bind_chat(ctx.db, new, ctx.inv.caller.platform, ctx.inv.chat_id, actor=ctx.actor)
    settings = await storage.club_settings(ctx.db, new)
    spoken = settings.language
    with using(ctx.language_in(settings)):
        return Reply.text(
            _(
                "Club {club} created with {system}; this chat is bound to it and you are its "
                "organiser.",
                club=new.name,
                system=fmt.system_title(system),
            ),
            _(
                "hoshi answers here in {language}, the rulebook's language; {command} changes it.",
                language=language_name(spoken),
                command="/club set language " + ("hu" if spoken == "en" else "en"),
            ),
            _("Next: /register NAME RANK for each player, then /result or /tournament."),
        )


async def _made_on_first_use(ctx: Context) -> bool:
    """Whether the chat's club is the one hoshi made on first use (named by the config's
    ``[hoshi] club``) and nothing has been played in it yet."""
    club = ctx.the_club
    return fold(club.name) == fold(ctx.core.config.club) and not await storage.has_games(
        ctx.db, club
    )


def _offer_rename(ctx: Context, name: str, system: str | None) -> Reply:
    """``/club new`` in the first-use club's chat: rename that club rather than start another."""
    club = ctx.the_club
    rename = f"/club rename {name}"
    if system is not None and system != (ctx.settings.system or club.system):
        text = _(
            "This chat uses {club}, the club made on first use, and it has no games yet. "
            "Rename it instead of starting a second club: {rename} (then {system}).",
            club=club.name,
            rename=rename,
            system=f"/club system {system}",
        )
    else:
        text = _(
            "This chat uses {club}, the club made on first use, and it has no games yet. "
            "Rename it instead of starting a second club: {rename}.",
            club=club.name,
            rename=rename,
        )
    return Reply(
        blocks=(Text(text),),
        buttons=(Button(_("Rename to {name}", name=name), rename),),
    )


async def _join(ctx: Context, code: str) -> Reply:
    if not code:
        raise BadArgument(
            _(
                "give the code, e.g. {example} (an organiser of the club gets one with "
                "/club code)",
                example="/club join K7Q2-MX4P",
            )
        )
    if ctx.club is not None:
        raise BadArgument(_("this chat already belongs to {club}", club=ctx.club.name))
    if not ctx.inv.caller.chat_admin:
        raise NotPermitted(_("only a chat administrator can bind this chat to a club"))
    joined = await storage.redeem_join_code(
        ctx.db, code.strip(), ctx.inv.caller.platform, ctx.inv.chat_id, actor=ctx.actor
    )
    return Reply.text(
        _(
            "This chat now belongs to {club}: the same players, games and ratings as its "
            "other chats.",
            club=joined.name,
        )
    )


async def _show(ctx: Context) -> Reply:
    assert ctx.club is not None
    chats = await storage.chats(ctx.db, ctx.club)
    organisers = sorted(await storage.organisers(ctx.db, ctx.club))
    players = await storage.players(ctx.db, ctx.club)
    settings = ctx.settings
    lines = [
        _("System: {system}", system=fmt.system_title(settings.system or ctx.club.system)),
        _("Time zone: {zone}", zone=settings.time_zone),
        _("Even-game komi: {komi}", komi=fmt.value(settings.komi)),
        _("Country: {country}", country=settings.country)
        if settings.country
        else _("Country: not set (every new player joins the register)"),
        _("Usual time control: {time}", time=str(settings.time)),
        _n(
            "Player reports: on, expiring after {n} hour",
            "Player reports: on, expiring after {n} hours",
            settings.report_hours,
        )
        if settings.reports
        else _("Player reports: off (organisers record results)"),
        _weekly(settings),
        _("Players: {count}", count=len(players)),
        _("Chats: {chats}", chats=", ".join(f"{p}:{c}" for p, c in chats)),
        _(
            "Organisers (besides chat administrators): {organisers}",
            organisers=", ".join(organisers),
        )
        if organisers
        else _("Organisers (besides chat administrators): none"),
    ]
    return Reply(blocks=(Text(ctx.club.name, title=True), Text("\n".join(lines))))


def _weekly(settings: ClubSettings) -> str:
    """The weekly summary's day and time in the conversation's language, or that it is off."""
    weekly = settings.value("weekly")
    if weekly is None:
        return _("Weekly summary: off")
    assert isinstance(weekly, tuple)
    day, at = weekly
    return _(
        "Weekly summary: {weekday} {time}", weekday=weekday_text(day), time=at.strftime("%H:%M")
    )


async def _country(ctx: Context, value: str) -> Reply:
    """The club's country: imported players from elsewhere are guests (rules.md §1.4 step 2)."""
    assert ctx.club is not None
    now = await _change(ctx, "country", value, "/club country")
    if now.country is None:
        return Reply.text(
            _("{club} has no country now: every imported player joins.", club=ctx.club.name)
        )
    return Reply.text(
        _(
            "{club} is in {country}: players from other countries in an imported tournament "
            "are rated as guests and not added to the register.",
            club=ctx.club.name,
            country=now.country,
        )
    )


async def _organiser(ctx: Context, args: OrganiserArgs) -> Reply:
    assert ctx.club is not None
    verb, who = args.verb, args.who.strip()
    identities = await _identities(ctx, who)
    done: list[str] = []
    already: list[str] = []
    for identity in identities:
        if verb == "add":
            added = await storage.add_organiser(
                ctx.db, ctx.club, identity, actor=ctx.actor, chat=ctx.chat
            )
            (done if added else already).append(identity)
        else:
            await storage.remove_organiser(
                ctx.db, ctx.club, identity, actor=ctx.actor, chat=ctx.chat
            )
            done.append(identity)
    lines = []
    if done and verb == "add":
        lines.append(
            _(
                "{who} is now an organiser of {club}.",
                who=", ".join(done),
                club=ctx.club.name,
            )
        )
    elif done:
        lines.append(
            _(
                "{who} is no longer an organiser of {club}.",
                who=", ".join(done),
                club=ctx.club.name,
            )
        )
    if already:
        lines.append(
            _(
                "{who} was already an organiser of {club}.",
                who=", ".join(already),
                club=ctx.club.name,
            )
        )
    return Reply.text(*lines)


async def _identities(ctx: Context, who: str) -> list[str]:
    if re.fullmatch(r"(telegram|discord|console):[\w-]+", who):
        return [who]
    player = await resolve(ctx, who)
    accounts = await storage.accounts_of(ctx.db, ctx.the_club, player.id)
    if not accounts:
        raise BadArgument(
            _(
                "{name} has no linked chat account; they can /link first, or name the account "
                "as telegram:ID or discord:ID",
                name=player.name,
            )
        )
    return [f"{platform}:{account}" for platform, account in accounts]


@dataclass(frozen=True, slots=True)
class ExportArgs:
    format: str | None = None
    tournament: str = ""


@command(
    "export",
    usage=N_("/export [csv|games|json|h9 TOURNAMENT]"),
    summary=N_(
        "The club's players and ratings (csv, json), its games (games) or a tournament "
        "(h9) as a file."
    ),
    examples=("/export csv", "/export json", "/export h9 Spring Cup"),
    access=ORGANISER,
    params=(
        Param(
            "format",
            "word",
            N_("file format"),
            required=False,
            choices=exporting.FORMATS,
            metavar="|".join(exporting.FORMATS),
        ),
        Param("tournament", "text", N_("for h9: the tournament"), required=False),
    ),
)
async def export(ctx: Context, args: ExportArgs) -> Reply:
    kind = (args.format or "csv").lower()
    if kind not in exporting.FORMATS:
        raise BadArgument(
            _(
                "the format must be one of {formats}, not {kind}",
                formats=", ".join(exporting.FORMATS),
                kind=quoted(kind),
            )
        )
    data = await storage.export_rows(ctx.db, ctx.the_club)
    slug = fmt.file_slug(ctx.the_club.name, "club")
    if kind == "h9":
        name = args.tournament.strip()
        if not name:
            raise BadArgument(
                _("name the tournament, e.g. {example}", example="/export h9 Spring Cup")
            )
        row = await resolve_tournament(ctx, name, "/export h9 #{}")
        given = await rounds.h9_input(ctx.db, ctx.the_club, row)
        tf = exporting.tournament_file(data, row, given.entries, given.ranks, given.places)
        filename = f"{slug}-{row.number}.h9"
        return Reply(  # the file's own players and games, not the club's
            blocks=(
                Text(
                    _(
                        "{tournament}: {players}, {games}.",
                        tournament=row.tournament.name,
                        players=_n("{n} player", "{n} players", len(tf.players)),
                        games=_n("{n} game", "{n} games", len(tf.games)),
                    )
                ),
            ),
            document=Document(write_h9(tf).encode("utf-8"), filename, filename),
        )
    if kind == "json":
        activity = exporting.club_activity(ctx.settings, ctx.the_club.system)
        active = exporting.active_players(data, activity, ctx.today())
        text, filename = exporting.ratings_json(data, active), f"{slug}-ratings.json"
    elif kind == "games":
        text, filename = exporting.games_csv(data), f"{slug}-games.csv"
    else:
        text, filename = exporting.players_csv(data), f"{slug}-players.csv"
    count = sum(1 for p, _rating in data.players if not p.guest)
    games = sum(1 for g in data.games if g.status == "ok")  # voided and undone ones are left out
    return Reply(
        blocks=(
            Text(
                _(
                    "{club}: {players}, {games}.",
                    club=ctx.the_club.name,
                    players=_n("{n} player", "{n} players", count),
                    games=_n("{n} game", "{n} games", games),
                )
            ),
        ),
        document=Document(text.encode("utf-8"), filename, filename),
    )
