"""/help and /link: finding your way, and saying which player you are."""

from __future__ import annotations

import storage
from bot.core.commands import CONSOLE, ORGANISER, Option, Param, command
from bot.core.context import Context
from bot.core.errors import BadArgument, NotPermitted
from bot.core.names import describe, resolve
from bot.core.replies import Button, Reply, Text


@command(
    "help",
    usage="/help [COMMAND]",
    summary="What the bot can do, or one command's usage with examples.",
    examples=("/help", "/help result"),
    needs_club=False,
    params=(Param("command", "text", "a command name", required=False),),
)
async def help_(ctx: Context) -> Reply:
    from bot.core.command_table import COMMANDS, lookup  # the table lists this handler too

    name = ctx.args().text().strip()
    if name:
        cmd = lookup(name)
        if cmd is None or (cmd.access == CONSOLE and ctx.inv.caller.platform != "console"):
            raise BadArgument(f"there is no command /{name.lstrip('/')}; /help lists them all")
        return Reply(blocks=(Text(f"/{cmd.name}", title=True), Text(cmd.help_text())))
    visible = [
        c for c in COMMANDS.values() if c.access != CONSOLE or ctx.inv.caller.platform == "console"
    ]
    players = [f"{c.usage} — {c.summary}" for c in visible if c.access != ORGANISER]
    organisers = [f"{c.usage} — {c.summary}" for c in visible if c.access == ORGANISER]
    club = f" ({ctx.club.name}, {ctx.club.system})" if ctx.club else ""
    blocks = [
        Text(f"hoshi — go club ratings{club}", title=True),
        Text("\n".join(players)),
        Text("For organisers", title=True),
        Text("\n".join(organisers)),
        Text(
            "Names may contain spaces and accents are optional: /rating szabo eva. "
            "/help COMMAND shows examples."
        ),
    ]
    return Reply(blocks=tuple(blocks))


@command(
    "link",
    usage="/link NAME [account=PLATFORM:ID]",
    summary="Link your chat account to your player, so /rating alone shows your card.",
    examples=("/link Nagy Péter",),
    options=(
        Option(
            "account",
            "text",
            "for organisers: link someone else's account, e.g. telegram:12345",
            "PLATFORM:ID",
        ),
    ),
    params=(Param("name", "player", "your name in the club's list"),),
    details="If someone else is already linked to that player, an organiser must confirm.",
)
async def link(ctx: Context) -> Reply:
    args = ctx.args()
    player = await resolve(ctx, args.text())
    caller = ctx.inv.caller
    platform, account = caller.platform, caller.account
    if "account" in args.options:  # an organiser confirming someone else's link
        if not ctx.organiser:
            raise NotPermitted("only an organiser can link another person's account")
        platform, _, account = args.options["account"].partition(":")
        if not platform or not account:
            raise BadArgument("account= takes platform:id, e.g. account=telegram:12345")
    others = [
        acc
        for acc in await storage.accounts_of(ctx.db, ctx.the_club, player.id)
        if acc != (platform, account) and acc[0] == platform
    ]
    if others and "account" not in args.options and not ctx.organiser:
        return Reply(
            blocks=(
                Text(
                    f"{describe(player)} is already linked to another {platform} account. "
                    "An organiser can confirm that this account is theirs too."
                ),
            ),
            buttons=(
                Button(
                    "Confirm (organisers)", f'/link "{player.name}" account={platform}:{account}'
                ),
            ),
        )
    changed = await storage.link_account(
        ctx.db, ctx.the_club, player.id, platform, account, actor=ctx.actor, chat=ctx.chat
    )
    if not changed:
        return Reply.text(f"That account is already linked to {player.name}.")
    who = (
        "Your account"
        if (platform, account) == (caller.platform, caller.account)
        else f"{platform}:{account}"
    )
    return Reply.text(
        f"{who} is now linked to {describe(player)}. /rating with no name shows this card."
    )
