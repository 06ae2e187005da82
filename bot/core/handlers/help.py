"""/help and /link: finding your way, and saying which player you are."""

from __future__ import annotations

from dataclasses import dataclass

import storage
from bot.core.commands import (
    CONSOLE,
    ORGANISER,
    CommandSpec,
    Flag,
    Option,
    Param,
    command,
    shown,
)
from bot.core.context import Context
from bot.core.errors import BadArgument, NotPermitted
from bot.core.names import describe
from bot.core.replies import Button, Reply, Text
from bot.i18n import N_, _, _n
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
    remove: bool = False


@command(
    "link",
    usage=N_("/link NAME [account=PLATFORM:ID] [remove]"),
    summary=N_("Link your chat account to your player, so /rating alone shows your card."),
    examples=("/link Nagy Péter", "/link Nagy Péter remove"),
    options=(
        Option(
            "account",
            "text",
            N_("the account to link (confirming its request) or to take off, e.g. telegram:12345"),
            "PLATFORM:ID",
        ),
    ),
    params=(Param("name", "player", N_("your name in the club's list")),),
    flags=(
        Flag(
            "remove",
            N_(
                "take your account off the player; an organiser's takes every account off, or "
                "the one account= names"
            ),
        ),
    ),
    details=N_(
        "A link counts once an organiser confirms it (or, for a second account, the account "
        "already linked to that player): until then your /rating, reports and tournament entry "
        "do not speak for that player. /link NAME remove takes your account off the player "
        "again; an organiser's takes every account off, or the one account= names."
    ),
)
async def link(ctx: Context, args: LinkArgs) -> Reply:
    """Tie a chat account to a player (issue 26, item 4): who may report games as that player,
    enter their tournaments and read their card with /rating alone.

    A member's own ``/link`` is a request: it links nothing and carries a Confirm button, the
    same ``/link NAME account=PLATFORM:ID`` line an organiser types. That line links when an
    organiser sends it, or when the player's own already-linked account does and the account
    is linked to nobody else (moving a link stays with the organisers)."""
    player = args.name
    if args.remove:
        return await _unlink(ctx, player, args.account)
    caller = ctx.inv.caller
    own = (caller.platform, caller.account)
    target = own if args.account is None else _account(args.account)
    current = await storage.player_for_account(ctx.db, ctx.the_club, *target)
    if current is not None and current.id == player.id:
        return Reply.text(_("That account is already linked to {name}.", name=player.name))
    if not ctx.organiser and not await _players_own(ctx, player, current, target):
        if target != own:
            raise NotPermitted(
                _(
                    "only an organiser, or an account already linked to {name}, can link "
                    "another account to them",
                    name=player.name,
                )
            )
        return _request(player, current, target)
    await storage.link_account(
        ctx.db, ctx.the_club, player.id, *target, actor=ctx.actor, chat=ctx.chat
    )
    if target == own:
        return Reply.text(
            _(
                "Your account is now linked to {player}. /rating with no name shows this card.",
                player=describe(player),
            )
        )
    return Reply.text(
        _(
            "{account} is now linked to {player}. /rating with no name shows this card.",
            account=":".join(target),
            player=describe(player),
        )
    )


def _account(text: str) -> tuple[str, str]:
    """``telegram:12345`` as ``("telegram", "12345")``."""
    platform, _colon, account = text.partition(":")
    if not platform or not account:
        raise BadArgument(
            _("account= takes platform:id, e.g. {example}", example="account=telegram:12345")
        )
    return platform, account


async def _players_own(
    ctx: Context, player: Player, current: Player | None, target: tuple[str, str]
) -> bool:
    """Whether the caller is the player confirming an account of their own: the caller's
    account is linked to ``player`` and ``target`` to nobody (not a move)."""
    caller = ctx.inv.caller
    if current is not None or target == (caller.platform, caller.account):
        return False
    return await _linked_to(ctx, player)


async def _linked_to(ctx: Context, player: Player) -> bool:
    """Whether the caller's own account is linked to ``player``."""
    caller = ctx.inv.caller
    mine = await storage.player_for_account(ctx.db, ctx.the_club, caller.platform, caller.account)
    return mine is not None and mine.id == player.id


def _request(player: Player, current: Player | None, target: tuple[str, str]) -> Reply:
    """A member's own link, waiting for whoever may confirm it (the Confirm button)."""
    confirm = f'/link "{player.name}" account={":".join(target)}'
    lines = [
        _(
            "Your account is linked to {name} now; moving it to {player} needs an organiser's "
            "confirmation.",
            name=current.name,
            player=describe(player),
        )
        if current is not None
        else _(
            "Linking your account to {player} needs an organiser's confirmation, or one from "
            "an account already linked to {name}.",
            player=describe(player),
            name=player.name,
        ),
        _(
            "Until then, /rating alone, reports and tournament entries do not speak for "
            "{name}. To confirm, press the button or send: {command}",
            name=player.name,
            command=confirm,
        ),
    ]
    return Reply(
        blocks=(Text("\n".join(lines)),),
        buttons=(Button(_("Confirm (organisers)"), confirm),),
    )


async def _unlink(ctx: Context, player: Player, account: str | None) -> Reply:
    """``/link NAME remove``: a member's takes their own account off ``player``, an
    organiser's every account linked to ``player`` (an approval given by mistake taken back);
    with ``account=`` (an organiser, or the player's own linked account) that one account."""
    caller = ctx.inv.caller
    own = (caller.platform, caller.account)
    is_mine = await _linked_to(ctx, player)
    if account is not None:
        if not ctx.organiser and not is_mine:
            raise NotPermitted(
                _(
                    "only an organiser, or an account linked to {name}, can take another "
                    "account off them",
                    name=player.name,
                )
            )
        wanted = [_account(account)]
    elif ctx.organiser:
        wanted = await storage.accounts_of(ctx.db, ctx.the_club, player.id)
    elif is_mine:
        wanted = [own]
    else:
        raise BadArgument(
            _(
                "your account is not linked to {name}: there is nothing to take off",
                name=player.name,
            )
        )
    taken = await storage.unlink_accounts(
        ctx.db, ctx.the_club, player.id, wanted, actor=ctx.actor, chat=ctx.chat
    )
    if not taken:
        raise BadArgument(
            _("{account} is not linked to {name}", account=":".join(wanted[0]), name=player.name)
            if wanted
            else _("{name} has no linked account", name=player.name)
        )
    if taken == [own] and not ctx.organiser:
        return Reply.text(
            _(
                "Your account is no longer linked to {player}. /link NAME links it again, "
                "once an organiser confirms it.",
                player=describe(player),
            )
        )
    return Reply.text(
        _n(
            "{accounts} is no longer linked to {player}.",
            "{accounts} are no longer linked to {player}.",
            len(taken),
            accounts=", ".join(":".join(a) for a in taken),
            player=describe(player),
        )
    )
