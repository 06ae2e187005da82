"""The club's register: /register, /override, /egf."""

from __future__ import annotations

import datetime as dt
import re

import storage
from bot.core import format as fmt
from bot.core.commands import ORGANISER, Option, Param, command
from bot.core.context import Context
from bot.core.errors import BadArgument
from bot.core.names import describe, resolve
from bot.core.parse import join, rating_value
from bot.core.replies import Reply, Text
from bot.i18n import N_, _, month_text, quoted, translated
from engine.errors import RankError
from engine.ranks import Rank, is_rank, parse_rank_lenient
from engine.ratings import Rating, whole_points
from storage.common import clean_name

REGISTER_OPTIONS = (
    Option("country", "text", N_("two-letter country code, e.g. HU"), "XX"),
    Option("club", "text", N_("the player's home club"), "..."),
    Option("pin", "text", N_("EGD PIN"), "EGD"),
    Option("rating", "text", N_("an existing rating (Elo, points, or a GoR to 3 decimals)"), "N"),
    Option("alias", "text", N_("another name the player is known by"), "..."),
)
COMMITTEE_WORDS = {"override", "committee"}
RATING_WORD = re.compile(r"[-−]?\d+(?:[.,]\d+)?")
"""A rating typed after the name: whole, or with decimals (an EGD GoR 2705.840)."""
PRO_WORD = re.compile(r"[1-9]\s*(?:p|pro)\.?", re.IGNORECASE)


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
        Param("name", "text", N_("the player's name (surname first is usual)")),
        Param("rank", "rank", N_("e.g. 5k or 1d")),
    ),
)
async def register(ctx: Context) -> Reply:
    args = ctx.args()
    words = list(args.words)
    committee = False
    if words and not words[-1].quoted and words[-1].text.lower() in COMMITTEE_WORDS:
        committee, words = True, words[:-1]
    rating: Rating | None = None
    if words and RATING_WORD.fullmatch(words[-1].text) and len(words) >= 3:
        rating = rating_value(words[-1].text, "RATING", low=-10_000, high=10_000)
        words = words[:-1]
    if "rating" in args.options:
        rating = rating_value(args.options["rating"], "rating", low=-10_000, high=10_000)
    pro = 0
    rank_at = next(
        (
            i
            for i in range(len(words) - 1, -1, -1)
            if not words[i].quoted and is_rank(words[i].text)
        ),
        None,
    )
    if rank_at is None and len(words) >= 3 and is_rank(f"{words[-2].text}{words[-1].text}"):
        rank_text, name_words = f"{words[-2].text} {words[-1].text}", words[:-2]
    elif rank_at is None and len(words) >= 2 and PRO_WORD.fullmatch(words[-1].text):
        # a professional rank Np: 7d on the amateur ladder; GoR starts it at 2700 + 30·(N − 1)
        # and keeps Np as the title (rules.md §6)
        rank, pro = parse_pro(words[-1].text)
        rank_text, name_words = str(rank), words[:-1]
    elif rank_at is None:
        bad = words[-1].text if words else ""
        try:
            Rank.parse(bad)
        except RankError as exc:
            raise BadArgument(
                _(
                    "the rank is missing or unreadable: {reason}",
                    reason=translated(exc.args[0]) if exc.args else str(exc),
                )
            ) from None
        raise BadArgument(
            _("the rank is missing, e.g. {example}", example="/register Nagy Péter 5k")
        )
    else:
        if rank_at != len(words) - 1:
            raise BadArgument(
                _("unexpected {words} after the rank", words=quoted(join(words[rank_at + 1 :])))
            )
        rank_text, name_words = words[rank_at].text, words[:rank_at]
    name = join(name_words)
    if not name:
        raise BadArgument(
            _("the name is missing, e.g. {example}", example="/register Nagy Péter 5k")
        )
    country = args.options.get("country")
    if country is not None and not re.fullmatch(r"[A-Za-z]{2}", country):
        raise BadArgument(
            _("country= takes a two-letter code like HU, not {value}", value=quoted(country))
        )
    pin = args.options.get("pin")
    if pin is not None and not re.fullmatch(r"\d{4,10}", pin):
        raise BadArgument(_("pin= takes an EGD PIN (digits), not {value}", value=quoted(pin)))
    alias = args.options.get("alias")
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
        home_club=args.options.get("club"),
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


def parse_pro(text: str) -> tuple[Rank, int]:
    """A professional rank Np as (7d, N) (formats.md: a professional rank is read as 7d)."""
    try:
        return parse_rank_lenient(text)
    except RankError as exc:
        raise BadArgument(translated(exc.args[0]) if exc.args else str(exc)) from None


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
        Option("rating", "text", N_("new rating (a GoR to 3 decimals)"), "N"),
        Option("rank", "rank", N_("new rank"), "R"),
        Option("reason", "text", N_("why (required)"), '"..."', required=True),
    ),
    params=(Param("name", "player", N_("the player")),),
)
async def override(ctx: Context) -> Reply:
    args = ctx.args()
    player = await resolve(ctx, args.text())
    o = args.options
    if "rating" not in o and "rank" not in o:
        raise BadArgument(_("give rating=N or rank=R (or both)"))
    reason = o.get("reason", "").strip()
    if not reason:
        raise BadArgument(
            _(
                "an override needs a reason, e.g. {example}",
                # TRANSLATORS: an example of what an organiser types; the reason may be in
                # the club's language, the key reason= stays
                example=_('reason="committee decision"'),
            )
        )
    rank = None
    if "rank" in o:
        try:
            rank = Rank.parse(o["rank"])
        except RankError as exc:
            raise BadArgument(translated(exc.args[0]) if exc.args else str(exc)) from None
    rating = (
        rating_value(o["rating"], "rating", low=-10_000, high=10_000) if "rating" in o else None
    )
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


@command(
    "egf",
    usage=N_("/egf NAME RATING [YYYY-MM]"),
    summary=N_(
        "Record a player's EGF rating for a month (PSG promotion and verification checks)."
    ),
    examples=("/egf Nagy Péter 2045", "/egf Kovács Anna 1890.456 2026-03"),
    access=ORGANISER,
    params=(
        Param("name", "player", N_("the player")),
        Param("rating", "text", N_("EGF rating, to 3 decimals as the EGD gives it")),
        Param("month", "text", N_("YYYY-MM (default this month)"), required=False),
    ),
)
async def egf(ctx: Context) -> Reply:
    words = ctx.args().words
    today = ctx.today()
    year, month = today.year, today.month
    if words and re.fullmatch(r"\d{4}-\d{1,2}", words[-1].text):
        y, m = words[-1].text.split("-")
        year, month = int(y), int(m)
        if (
            not 1 <= month <= 12
            or not 1900 <= year <= today.year
            or dt.date(year, month, 1) > today
        ):
            raise BadArgument(
                _("month must be a past or current YYYY-MM, not {value}", value=words[-1].text)
            )
        words = words[:-1]
    if len(words) < 2 or not RATING_WORD.fullmatch(words[-1].text):
        raise BadArgument(
            _(
                "give the name and the EGF rating, e.g. {example}",
                example="/egf Nagy Péter 2045.840",
            )
        )
    rating = rating_value(words[-1].text, "RATING", low=-1000, high=3500)
    player = await resolve(ctx, join(words[:-1]))
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
