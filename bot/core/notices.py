"""Replies the bot posts by itself or on request: a tournament rated, the weekly summary.

Each is composed in the language current when it is built (``bot.i18n.using``): the
conversation's for a command, the club's for what the scheduler posts.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from babel.dates import format_interval

import storage
from bot.core import format as fmt
from bot.core.chart import render_movers
from bot.core.replies import Picture, Reply, Table, Text
from bot.i18n import Msg, _, current, date_text, translated
from engine.system import Change, Pending
from engine.text import MARK as text_marks
from storage.db import Database
from storage.games import tournament_games
from storage.records import Club
from storage.summaries import Movement, days_of, facts_between

TOP_IN_SUMMARY = 5
MOVERS_IN_SUMMARY = 3
# how the engine, which knows no names, marks a player or a game in its words
MARK = text_marks


async def marked(db: Database, club: Club, text: str) -> str:
    """The engine's words as members read them, in the current language (a
    :class:`~engine.text.Msg` is translated first): each ``{player:ID}`` becomes the player's
    name and each ``{game:ID}`` the game's club number (``#12``)."""
    text = translated(text)
    parts: list[str] = []
    end = 0
    for mark in MARK.finditer(text):
        kind, ident = mark[1], int(mark[2])
        if kind == "player":
            found = await storage.get_player(db, club, ident)
            name = found.name if found is not None else _("a player")
        else:
            game = await storage.game(db, club, ident)
            name = f"#{game.number}" if game is not None else _("a game")
        parts.extend((text[end : mark.start()], name))
        end = mark.end()
    parts.append(text[end:])
    return "".join(parts)


def joined(parts: Iterable[str], separator: str = "\n") -> str:
    """``parts`` joined by ``separator``, kept a :class:`~engine.text.Msg` whose arguments
    are the parts: a reply given again in another language (``Reply.in_language``, a private
    answer in a group) gives each catalogue sentence in it again, not only a block's whole
    text. Each part is shown in the current language (an engine text is translated); the
    template is no catalogue id, so it stays as it is in every language."""
    texts = [translated(part) for part in parts]  # an engine text: in the current language
    between = separator.replace("{", "{{").replace("}", "}}")
    template = between.join(f"{{part{i}}}" for i in range(len(texts)))
    arguments: dict[str, Any] = {f"part{i}": text for i, text in enumerate(texts)}
    return Msg(template, **arguments)


def per_player(changes: list[Change]) -> list[Change]:
    """One change per player: from the first value before to the last value after (a system
    that rates a tournament game by game, like PSG, makes several changes per player)."""
    merged: dict[int, Change] = {}
    for change in changes:
        first = merged.get(change.player)
        merged[change.player] = (
            change
            if first is None
            else first._replace(rating_after=change.rating_after, rank_after=change.rank_after)
        )
    return list(merged.values())


def changes_table(changes: list[Change], names: dict[int, str]) -> Table:
    """Before, change, after and rank of each player, biggest gain first."""
    ordered = sorted(
        per_player(changes),
        key=lambda c: -(fmt.number(fmt.difference(c.rating_before, c.rating_after)) or 0),
    )
    rows = []
    for change in ordered:
        delta = fmt.difference(change.rating_before, change.rating_after)
        rank = (
            f"{change.rank_before} → {change.rank_after}"
            if change.rank_after != change.rank_before
            else str(change.rank_after)
        )
        rows.append(
            (
                names.get(change.player, f"#{change.player}"),
                fmt.value(change.rating_before),
                fmt.signed(delta),
                fmt.value(change.rating_after),
                rank,
            )
        )
    return Table(
        (_("Name"), _("Before"), _("Change"), _("After"), _("Rank")), tuple(rows), "lrrrl"
    )


async def pending_amounts(
    db: Database, club: Club, players: Iterable[int]
) -> dict[int, Pending | None]:
    """Each player's change not settled yet under the club's system (``None``: nothing
    pending), read before a tournament is finalised to tell what it left pending."""
    found: dict[int, Pending | None] = {}
    for player in players:
        try:
            found[player] = (await storage.card(db, club, player)).pending
        except storage.NotFound:  # a guest, or a player the system has no card for
            continue
    return found


async def tournament_players(db: Database, club: Club, tournament: int) -> set[int]:
    """The players of a tournament's games."""
    return {
        player
        for row in await tournament_games(db, club, tournament)
        for player in (row.game.black, row.game.white)
    }


async def _left_pending(
    db: Database, club: Club, before: dict[int, Pending | None], names: dict[int, str]
) -> list[str]:
    """``Nagy Péter +1 point, settled at the end of the club day``: what finalising left
    pending for each player (their pending change now, less what was pending before)."""
    shown = []
    for player, was in before.items():
        now = (await storage.card(db, club, player)).pending
        if now is None:
            continue
        earlier = was.amount if was is not None and was.unit == now.unit else 0
        if not isinstance(now.amount, int | Fraction) or not isinstance(earlier, int | Fraction):
            continue  # a pending change is a number of points or games (engine.system.Pending)
        amount = now.amount - earlier
        if amount:
            left = Pending(amount, now.unit, now.settles)
            shown.append(f"{names.get(player, f'#{player}')} {fmt.pending(left)}")
    return shown


async def finalisation_reply(
    db: Database,
    club: Club,
    tournament: str,
    changes: list[Change],
    *,
    ended: dt.date | None = None,
    today: dt.date | None = None,
    pending_before: dict[int, Pending | None] | None = None,
) -> Reply:
    """ "<tournament> is rated": the changes, then what is not settled yet (with
    ``pending_before``, :func:`pending_amounts` of its players read before it was finalised),
    then the promotions; for a tournament that ended before ``today``, that it counts at its
    end date and what that means."""
    names = {p.id: p.name for p in await storage.players(db, club, guests=True)}
    blocks: list[Text | Table] = [
        Text(_("{tournament} is rated", tournament=tournament), title=True)
    ]
    waiting = (
        await _left_pending(db, club, pending_before, names) if pending_before is not None else []
    )
    if changes:
        blocks.append(changes_table(changes, names))
    elif not waiting:
        blocks.append(Text(_("No rating changed (no rated games, or the system rates none).")))
    if waiting:
        # TRANSLATORS: between players' pending changes, which contain commas themselves
        between = str(_("; "))
        blocks.append(Text(_("Not settled yet: {list}.", list=between.join(waiting))))
    if changes and ended is not None and today is not None and ended < today:
        blocks.append(
            Text(
                _(
                    "Rated at its end date, {date}: the table shows that day's change, "
                    "and every rating since then is recomputed (/top shows where everyone "
                    "stands now).",
                    date=date_text(ended),
                )
            )
        )
    promoted = [c for c in per_player(changes) if c.rank_after > c.rank_before]
    if promoted:
        blocks.append(
            Text(
                _(
                    "Promotions: {list}",
                    list=_listed(
                        f"{names.get(c.player, c.player)} {c.rank_before} → {c.rank_after}"
                        for c in promoted
                    ),
                )
            )
        )
    return Reply(blocks=tuple(blocks))


def _listed(items: Iterable[str]) -> str:
    """Names (with what they did) one after another, as the language separates them
    (Japanese with 、)."""
    # TRANSLATORS: the separator between names in a list, e.g. "Nagy +16, Kovács +9"
    return str(_(", ")).join(items)


def week_text(start: dt.date, last: dt.date) -> str:
    """The days of a week as the current language writes a span of dates (Babel)."""
    return format_interval(start, last, "yMMMd", locale=current())


def _delta(m: Movement) -> float:
    return float(fmt.number(fmt.difference(m.rating_before, m.rating_after)) or 0)


async def weekly_reply(
    db: Database,
    club: Club,
    start: dt.datetime,
    end: dt.datetime,
    *,
    picture: bool = True,
    late: bool = False,
) -> Reply:
    """The weekly summary (bot.md; issue 4/6) of the days of ``[start, end)`` in the club's
    time zone (:func:`storage.summaries.days_of`): the top of the list, the biggest gains and
    losses, promotions, new players, tournaments rated, games played — or one short line for
    an empty week; ``late``: posted after its moment, so the title says so. Read from the
    projections in calendar order, so asked again it says the
    same, however its facts were entered (issue 22)."""
    facts = await facts_between(db, club, start, end)
    zone = (await storage.club_settings(db, club)).zone
    days = week_text(*days_of(start, end, zone))
    weeks = end - start > dt.timedelta(days=7)  # several missed at once (bot.core.scheduler)
    if weeks:
        heading = _("{club}: the weeks {days}, posted late", club=club.name, days=days)
    elif late:  # its moment passed while the bot was down (issue 22)
        heading = _("{club}: the week {days}, posted late", club=club.name, days=days)
    else:
        heading = _("{club}: the week {days}", club=club.name, days=days)
    title = Text(heading, title=True)
    if facts.empty:
        quiet = (
            _("Quiet weeks: no games, no new players, no tournaments. The list stands as it was.")
            if weeks
            else _(
                "A quiet week: no games, no new players, no tournaments. The list stands as "
                "it was."
            )
        )
        return Reply(blocks=(title, Text(quiet)))
    standings = await storage.standings(db, club)
    blocks: list[Text | Table] = [title]
    if standings:
        top = standings[:TOP_IN_SUMMARY]
        # each row's own label when they differ (a Swedish player's target is their own)
        headings, own = fmt.rating_heading([translated(s.card.rating_label) for s in top])
        blocks.append(
            Table(
                ("#", _("Name"), _("Rank"), *headings),
                tuple(
                    (
                        str(s.place),
                        s.player.name,
                        str(s.card.rank),
                        fmt.value(s.card.rating),
                        *([own[i]] if own else []),
                    )
                    for i, s in enumerate(top)
                ),
                "rllrl" if own else "rllr",
            )
        )
    moved = sorted((m for m in facts.movements if _delta(m)), key=_delta, reverse=True)
    gains = [m for m in moved if _delta(m) > 0][:MOVERS_IN_SUMMARY]
    losses = [m for m in reversed(moved) if _delta(m) < 0][:MOVERS_IN_SUMMARY]
    lines = []
    if gains:
        lines.append(
            _(
                "Biggest gains: {list}",
                list=_listed(
                    f"{m.player.name} "
                    f"{fmt.signed(fmt.difference(m.rating_before, m.rating_after))}"
                    for m in gains
                ),
            )
        )
    if losses:
        lines.append(
            _(
                "Biggest losses: {list}",
                list=_listed(
                    f"{m.player.name} "
                    f"{fmt.signed(fmt.difference(m.rating_before, m.rating_after))}"
                    for m in losses
                ),
            )
        )
    promoted = [m for m in facts.movements if m.rank_after > m.rank_before]
    if promoted:
        lines.append(
            _(
                "Promotions: {list}",
                list=_listed(
                    f"{m.player.name} {m.rank_before} → {m.rank_after}" for m in promoted
                ),
            )
        )
    if facts.new_players:
        lines.append(
            _(
                "New players: {list}",
                list=_listed(f"{p.name} ({p.rank})" for p in facts.new_players),
            )
        )
    if facts.tournaments:
        lines.append(_("Tournaments rated: {list}", list=_listed(facts.tournaments)))
    lines.append(_("Games recorded: {n}", n=facts.games))
    blocks.append(Text(joined(lines)))
    image = None
    if picture and moved:
        shown = (gains + losses)[: 2 * MOVERS_IN_SUMMARY]
        movers = [(m.player.name, _delta(m)) for m in sorted(shown, key=_delta, reverse=True)]
        caption = _("{club}: the week's movers", club=club.name)
        png = await asyncio.to_thread(render_movers, caption, movers)
        image = Picture(png, "hoshi-weekly.png", caption)
    return Reply(blocks=tuple(blocks), picture=image)
