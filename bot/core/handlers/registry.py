"""The club's register: /register, /override, /egf."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

import storage
from bot.core import format as fmt
from bot.core.commands import ORGANISER, Flag, Grade, Option, Param, command
from bot.core.context import Context
from bot.core.errors import BadArgument
from bot.core.names import describe
from bot.core.replies import Reply, Text
from bot.i18n import N_, _, month_text, quoted, translated
from engine.ranks import Rank
from engine.ratings import Rating, whole_points
from storage.common import clean_name
from storage.records import Player

REGISTER_OPTIONS = (
    Option("country", "text", N_("two-letter country code, e.g. HU"), "XX"),
    Option("club", "text", N_("the player's home club"), "..."),
    Option("pin", "text", N_("EGD PIN"), "EGD"),
    Option(
        "rating",
        "rating",
        N_("an existing rating (Elo, points, or a GoR to 3 decimals)"),
        "N",
        low=-10_000,
        high=10_000,
    ),
    Option("alias", "text", N_("another name the player is known by"), "..."),
)
COMMITTEE_WORDS = ("override", "committee")


@dataclass(frozen=True, slots=True)
class RegisterArgs:
    name: str
    rank: Grade
    rating_given: Rating | None = None
    country: str | None = None
    club: str | None = None
    pin: str | None = None
    rating: Rating | None = None
    alias: str | None = None
    override: bool = False


@command(
    "register",
    usage=N_(
        "/register NAME RANK [RATING] [country=XX] [club=...] [pin=EGD] [rating=N] [alias=...] "
        "[override]"
    ),
    summary=N_(
        "Add a player. A rating records an existing standing; under MGSZ a new player "
        "without one starts at 5k at most unless marked override (committee decision)."
    ),
    examples=(
        "/register Nagy Péter 5k",
        "/register Kovács Anna 2d 2090 country=HU",
        "/register Szabó Éva 3k override",
    ),
    access=ORGANISER,
    options=REGISTER_OPTIONS,
    params=(
        Param(
            "name",
            "text",
            N_("the player's name (surname first is usual)"),
            missing=N_("the name is missing, e.g. {example}"),
        ),
        Param(
            "rank",
            "grade",
            N_("e.g. 5k or 1d"),
        ),
        Param(
            "rating_given",
            "rating",
            N_("an existing rating"),
            required=False,
            metavar="RATING",
            low=-10_000,
            high=10_000,
        ),
    ),
    flags=(Flag("override", N_("a committee decision"), COMMITTEE_WORDS),),
)
async def register(ctx: Context, args: RegisterArgs) -> Reply:
    committee = args.override
    rating = args.rating if args.rating is not None else args.rating_given
    rank_text, pro, name = str(args.rank.rank), args.rank.pro, args.name.strip()
    if not name:
        raise BadArgument(
            _("the name is missing, e.g. {example}", example="/register Nagy Péter 5k")
        )
    country = args.country
    if country is not None and not re.fullmatch(r"[A-Za-z]{2}", country):
        raise BadArgument(
            _("country= takes a two-letter code like HU, not {value}", value=quoted(country))
        )
    pin = args.pin
    if pin is not None and not re.fullmatch(r"[0-9]{4,10}", pin):
        raise BadArgument(_("pin= takes an EGD PIN (digits), not {value}", value=quoted(pin)))
    alias = args.alias
    if alias is not None:
        # checked before registering: the alias is a second write, and a refused alias must
        # not leave the player registered behind an error reply
        await _check_alias(ctx, alias.strip())
    player = await storage.register_player(
        ctx.db,
        ctx.the_club,
        name,
        Rank.parse(rank_text),
        date=ctx.today(),
        actor=ctx.actor,
        chat=ctx.chat,
        rating=rating,
        country=country.upper() if country else None,
        home_club=args.club,
        egd_pin=pin,
        committee=committee,
        pro=pro,
    )
    if alias is not None:
        await storage.add_alias(
            ctx.db, ctx.the_club, player.id, alias, actor=ctx.actor, chat=ctx.chat
        )
    card = await storage.card(ctx.db, ctx.the_club, player.id)
    lines = [
        _("{label}: {value}", label=translated(card.rating_label), value=fmt.value(card.rating))
    ]
    if committee:
        lines.append(_("Initial rank recorded as a committee decision."))
    return Reply(
        blocks=(
            Text(_("Registered {player}", player=describe(player)), title=True),
            Text("\n".join(lines)),
        )
    )


async def _check_alias(ctx: Context, alias: str) -> None:
    """Refuse an empty alias, or one that already names a player of the club."""
    if not alias:
        raise BadArgument(
            _(
                "alias= is empty; write e.g. {example} or {other}",
                example="alias=Peti",
                other='alias="Nagy P."',
            )
        )
    clean_name(alias, "alias")  # too long: refused before the player is registered
    taken = await storage.find_player(ctx.db, ctx.the_club, alias, guests=True)
    holder = taken.player or (taken.ambiguous[0] if taken.ambiguous else None)
    if holder is not None:
        raise BadArgument(
            _(
                "the alias {alias} already names {player}; choose another",
                alias=quoted(alias),
                player=describe(holder),
            )
        )


@dataclass(frozen=True, slots=True)
class OverrideArgs:
    name: Player
    rating: Rating | None = None
    rank: Rank | None = None
    reason: str | None = None


@command(
    "override",
    usage=N_('/override NAME rating=N|rank=R reason="..."'),
    summary=N_(
        "A committee adjustment of a player's rating or rank, recorded with who, when and why."
    ),
    examples=(
        '/override Nagy Péter rank=2d reason="committee decision 2026/3"',
        '/override Kovács rating=2100 reason="EGD import fix"',
    ),
    access=ORGANISER,
    options=(
        Option(
            "rating",
            "rating",
            N_("new rating (a GoR to 3 decimals)"),
            "N",
            low=-10_000,
            high=10_000,
        ),
        Option("rank", "rank", N_("new rank"), "R"),
        Option("reason", "text", N_("why (required)"), '"..."', required=True),
    ),
    params=(Param("name", "player", N_("the player")),),
)
async def override(ctx: Context, args: OverrideArgs) -> Reply:
    player = args.name
    if args.rating is None and args.rank is None:
        raise BadArgument(_("give rating=N or rank=R (or both)"))
    reason = (args.reason or "").strip()
    if not reason:
        raise BadArgument(
            _(
                "an override needs a reason, e.g. {example}",
                # TRANSLATORS: an example of what an organiser types; the reason may be in
                # the club's language, the key reason= stays
                example=_('reason="committee decision"'),
            )
        )
    rank, rating = args.rank, args.rating
    await storage.record_override(
        ctx.db,
        ctx.the_club,
        player.id,
        reason=reason,
        date=ctx.today(),
        actor=ctx.actor,
        chat=ctx.chat,
        rating=rating,
        rank=rank,
    )
    card = await storage.card(ctx.db, ctx.the_club, player.id)
    return Reply.text(
        _(
            "{name} is now {rank}, {label} {value} (override: {reason}).",
            name=player.name,
            rank=str(card.rank),
            label=translated(card.rating_label),
            value=fmt.value(card.rating),
            reason=reason,
        )
    )


EGF_EXAMPLE = N_("give the name and the EGF rating, e.g. {example}")


@dataclass(frozen=True, slots=True)
class EgfArgs:
    name: Player
    rating: Rating
    month: dt.date | None = None


@command(
    "egf",
    usage=N_("/egf NAME RATING [YYYY-MM]"),
    summary=N_(
        "Record a player's EGF rating for a month (PSG promotion and verification checks)."
    ),
    examples=("/egf Nagy Péter 2045", "/egf Kovács Anna 1890.456 2026-03"),
    access=ORGANISER,
    params=(
        Param("name", "player", N_("the player"), missing=EGF_EXAMPLE),
        Param(
            "rating",
            "rating",
            N_("EGF rating, to 3 decimals as the EGD gives it"),
            low=-1000,
            high=3500,
            missing=EGF_EXAMPLE,
        ),
        Param(
            "month",
            "month",
            N_("YYYY-MM (default this month)"),
            required=False,
            metavar="YYYY-MM",
        ),
    ),
)
async def egf(ctx: Context, args: EgfArgs) -> Reply:
    month_day = args.month or ctx.today()
    year, month = month_day.year, month_day.month
    rating, player = args.rating, args.name
    await storage.record_egf(
        ctx.db,
        ctx.the_club,
        player.id,
        rating,
        year=year,
        month=month,
        actor=ctx.actor,
        chat=ctx.chat,
    )
    return Reply.text(
        _(
            "EGF rating {rating} recorded for {name} ({month}).",
            rating=whole_points(rating),  # rules.md §6 Decision: replies show whole points
            name=player.name,
            month=month_text(year, month),
        )
    )
