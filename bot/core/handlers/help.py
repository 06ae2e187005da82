"""/help and /link: finding your way, and saying which player you are."""

from __future__ import annotations

import storage
from bot.core.commands import CONSOLE, ORGANISER, CommandSpec, Option, Param, command
from bot.core.context import Context
from bot.core.errors import BadArgument, NotPermitted
from bot.core.names import describe, resolve
from bot.core.replies import Button, Reply, Text
from bot.i18n import N_, _


@command(
    "help",
    usage=N_("/help [COMMAND]"),
    summary=N_("What the bot can do, or one command's usage with examples."),
    examples=("/help", "/help result"),
    needs_club=False,
    params=(Param("command", "text", N_("a command name"), required=False),),
)
async def help_(ctx: Context) -> Reply:
    COMMANDS, lookup = ctx.core.commands, ctx.core.lookup  # the table lists this handler too
    name = ctx.args().text().strip()
    if name:
        cmd = lookup(name)
        if cmd is None or (cmd.access == CONSOLE and ctx.inv.caller.platform != "console"):
            raise BadArgument(
                _(
                    "there is no command {command}; /help lists them all",
                    command="/" + name.lstrip("/"),
                )
            )
        return Reply(blocks=(Text(f"/{cmd.name}", title=True), Text(help_text(cmd))))
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


def _shown(text: str) -> str:
    """A text of a command's spec in the conversation's language (the empty text stays empty:
    a catalogue's empty message is its header)."""
    return _(text) if text else text


def summary_line(cmd: CommandSpec) -> str:
    """``/rating [NAME] — A player's card …``: a command's usage and summary in the
    conversation's language (the table marks them for the catalogue)."""
    return f"{_shown(cmd.usage)} — {_shown(cmd.summary)}"


def help_text(cmd: CommandSpec) -> str:
    """One command's help in the conversation's language: usage, summary, details, options,
    examples (typed as they are in every language) and who may use it; in English exactly
    :meth:`CommandSpec.help_text`."""
    lines = [_shown(cmd.usage), _shown(cmd.summary)]
    if cmd.details:
        lines.append(_shown(cmd.details))
    if cmd.options:
        options = []
        for o in cmd.options:
            line = f"{o.key}={o.metavar} — {_shown(o.help)}"
            if o.actions:
                line = _("{option} ({actions})", option=line, actions=", ".join(o.actions))
            options.append(line)
        lines.append(_("Options:\n{options}", options="\n".join(options)))
    if cmd.examples:
        lines.append(_("Examples: {examples}", examples=" · ".join(cmd.examples)))
    if cmd.organiser_only:
        lines.append(_("For organisers."))
    return "\n".join(lines)


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
async def link(ctx: Context) -> Reply:
    args = ctx.args()
    player = await resolve(ctx, args.text())
    caller = ctx.inv.caller
    platform, account = caller.platform, caller.account
    if "account" in args.options:  # an organiser confirming someone else's link
        if not ctx.organiser:
            raise NotPermitted(_("only an organiser can link another person's account"))
        platform, _colon, account = args.options["account"].partition(":")
        if not platform or not account:
            raise BadArgument(
                _("account= takes platform:id, e.g. {example}", example="account=telegram:12345")
            )
    others = [
        acc
        for acc in await storage.accounts_of(ctx.db, ctx.the_club, player.id)
        if acc != (platform, account) and acc[0] == platform
    ]
    if others and "account" not in args.options and not ctx.organiser:
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
