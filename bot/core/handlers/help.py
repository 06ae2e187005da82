"""/help and /link: finding your way, and saying which player you are."""

from __future__ import annotations

from dataclasses import dataclass

import storage
from bot.core.commands import CONSOLE, ORGANISER, CommandSpec, Option, Param, command, shown
from bot.core.context import Context
from bot.core.errors import BadArgument, NotPermitted
from bot.core.names import describe
from bot.core.replies import Button, Reply, Text
from bot.i18n import N_, _
from storage.records import Player


@dataclass(frozen=True, slots=True)
class HelpArgs:
    command: str | None = None


@command(
    "help",
    usage=N_("/help [COMMAND]"),
    summary=N_("What the bot can do, or one command's usage with examples."),
    examples=("/help", "/help result"),
    needs_club=False,
    params=(Param("command", "text", N_("a command name"), required=False),),
)
async def help_(ctx: Context, args: HelpArgs) -> Reply:
    COMMANDS, lookup = ctx.core.commands, ctx.core.lookup  # the table lists this handler too
    name = (args.command or "").strip()
    if name:
        cmd = lookup(name)
        if cmd is None or (cmd.access == CONSOLE and ctx.inv.caller.platform != "console"):
            raise BadArgument(
                _(
                    "there is no command {command}; /help lists them all",
                    command="/" + name.lstrip("/"),
                )
            )
        return Reply(blocks=(Text(f"/{cmd.name}", title=True), Text(cmd.help_text())))
    visible = [
        c for c in COMMANDS.values() if c.access != CONSOLE or ctx.inv.caller.platform == "console"
    ]
    players = [summary_line(c) for c in visible if c.access != ORGANISER]
    organisers = [summary_line(c) for c in visible if c.access == ORGANISER]
    title = (
        _("hoshi — go club ratings ({club}, {system})", club=ctx.club.name, system=ctx.club.system)
        if ctx.club
        else _("hoshi — go club ratings")
    )
    blocks = [
        Text(title, title=True),
        Text("\n".join(players)),
        Text(_("For organisers"), title=True),
        Text("\n".join(organisers)),
        *(
            [
                Text(
                    _(
                        "{usage} — Console only: run a command as another person, an "
                        "ordinary member in the club's chat (answered in the club's "
                        "language, as the chat would be), e.g. {example}",
                        usage="/as NAME /COMMAND …",
                        example="/as Kovács Anna /confirm 12",
                    )
                )
            ]
            if ctx.inv.caller.platform == "console"
            else []
        ),
        Text(
            _(
                "Names may contain spaces and accents are optional: {example}. "
                "/help COMMAND shows examples.",
                example="/rating szabo eva",
            )
        ),
    ]
    return Reply(blocks=tuple(blocks))


LONG_USAGE = 160
"""A usage line longer than this (a command with many actions) is shown in /help's list by
its actions' names; /help COMMAND gives it whole."""


def summary_line(cmd: CommandSpec) -> str:
    """``/rating [NAME] — A player's card …``: a command's usage line and summary in the
    conversation's language (:meth:`CommandSpec.usage_text`, placeholders translated); a
    long one of a command with actions as ``/tournament new | result | … — …``."""
    usage = cmd.usage_text()
    if cmd.actions and len(usage) > LONG_USAGE:
        usage = f"/{cmd.name} " + " | ".join(a.name for a in cmd.actions)
    return f"{usage} — {shown(cmd.summary)}"


@dataclass(frozen=True, slots=True)
class LinkArgs:
    name: Player
    account: str | None = None


@command(
    "link",
    usage=N_("/link NAME [account=PLATFORM:ID]"),
    summary=N_("Link your chat account to your player, so /rating alone shows your card."),
    examples=("/link Nagy Péter",),
    options=(
        Option(
            "account",
            "text",
            N_("for organisers: link someone else's account, e.g. telegram:12345"),
            "PLATFORM:ID",
        ),
    ),
    params=(Param("name", "player", N_("your name in the club's list")),),
    details=N_("If someone else is already linked to that player, an organiser must confirm."),
)
async def link(ctx: Context, args: LinkArgs) -> Reply:
    player = args.name
    caller = ctx.inv.caller
    platform, account = caller.platform, caller.account
    if args.account is not None:  # an organiser confirming someone else's link
        if not ctx.organiser:
            raise NotPermitted(_("only an organiser can link another person's account"))
        platform, _colon, account = args.account.partition(":")
        if not platform or not account:
            raise BadArgument(
                _("account= takes platform:id, e.g. {example}", example="account=telegram:12345")
            )
    others = [
        acc
        for acc in await storage.accounts_of(ctx.db, ctx.the_club, player.id)
        if acc != (platform, account) and acc[0] == platform
    ]
    if others and args.account is None and not ctx.organiser:
        return Reply(
            blocks=(
                Text(
                    _(
                        "{player} is already linked to another {platform} account. An "
                        "organiser can confirm that this account is theirs too.",
                        player=describe(player),
                        platform=platform,
                    )
                ),
            ),
            buttons=(
                Button(
                    _("Confirm (organisers)"),
                    f'/link "{player.name}" account={platform}:{account}',
                ),
            ),
        )
    changed = await storage.link_account(
        ctx.db, ctx.the_club, player.id, platform, account, actor=ctx.actor, chat=ctx.chat
    )
    if not changed:
        return Reply.text(_("That account is already linked to {name}.", name=player.name))
    if (platform, account) == (caller.platform, caller.account):
        return Reply.text(
            _(
                "Your account is now linked to {player}. /rating with no name shows this card.",
                player=describe(player),
            )
        )
    return Reply.text(
        _(
            "{account} is now linked to {player}. /rating with no name shows this card.",
            account=f"{platform}:{account}",
            player=describe(player),
        )
    )
