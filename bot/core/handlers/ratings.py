"""Players' questions: /rating, /top, /history, /chart, /handicap, /multiplier, /promotion."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
from dataclasses import dataclass

import storage
from bot.core import format as fmt
from bot.core.chart import Band, ChartData, Marker, render_chart
from bot.core.commands import Flag, Option, Param, command
from bot.core.context import Context
from bot.core.errors import BadArgument, NotPermitted
from bot.core.handlers.game_options import komi as komi_default
from bot.core.names import describe
from bot.core.notices import joined, marked
from bot.core.replies import Picture, Reply, Table, Text
from bot.core.stakes import stake_lines
from bot.i18n import N_, _, _n, current, date_text, month_text, translated
from engine.errors import EngineError
from engine.ranks import Rank
from engine.system import RatingSystem, Value
from engine.systems import SYSTEMS, system_named
from engine.timecontrol import TimeControl
from engine.types import Game, Importance, Tournament
from storage import schedules
from storage.errors import StorageError
from storage.game_files import games_with_files
from storage.records import (
    HISTORY_CORRECTED,
    HISTORY_RATED,
    HISTORY_UNDONE,
    HISTORY_VOIDED,
    HistoryRow,
    Player,
    SeriesPoint,
)

TOP_DEFAULT, TOP_MAX = 10, 200
HISTORY_DEFAULT, HISTORY_MAX = 10, 100
DAY_ZERO = dt.date(2000, 1, 1)  # /multiplier's tournament: C does not depend on its dates
HISTORY_NOTES = 10  # notes shown under /history's table (a long list stays within a message)
STATUS_WORDS = {
    # TRANSLATORS: /history: a rating change of a game
    HISTORY_RATED: N_("rated"),
    # TRANSLATORS: /history: a rating change caused by a corrected game
    HISTORY_CORRECTED: N_("corrected"),
    # TRANSLATORS: /history: a game an organiser voided (it does not count)
    HISTORY_VOIDED: N_("voided"),
    # TRANSLATORS: /history: a game taken back with /undo (a typo)
    HISTORY_UNDONE: N_("undone"),
}
"""How /history names the status of a row (storage's HISTORY_… values)."""


def status_text(status: str) -> str:
    """A /history row's status in the conversation's language."""
    word = STATUS_WORDS.get(status)
    return _(word) if word is not None else status


def engine_text(exc: Exception) -> str:
    """An engine or storage error's message as members read it, in their language."""
    return translated(exc.args[0]) if exc.args else str(exc)


async def player_or_self(ctx: Context, named: Player | None) -> Player:
    """The named player, or with no name the caller's own linked player."""
    if named is not None:
        return named
    caller = ctx.inv.caller
    linked = await storage.player_for_account(
        ctx.db, ctx.the_club, caller.platform, caller.account
    )
    if linked is None:
        command = f"/{ctx.inv.command}"
        raise BadArgument(
            _(
                "name a player, e.g. {example}, or link your account first with /link YOUR "
                "NAME (then {command} alone answers for you)",
                example=f"{command} Nagy Péter",
                command=command,
            )
        )
    return linked


@dataclass(frozen=True, slots=True)
class RatingArgs:
    name: Player | None = None
    all: bool = False


@command(
    "rating",
    usage="/rating [NAME] [all]",
    summary=N_(
        "A player's card: rank, rating, place, last change, games, pending changes; "
        "with all, the player under every rating system side by side, from the same games."
    ),
    examples=("/rating Nagy Péter", "/rating szabo", "/rating", "/rating Nagy Péter all"),
    params=(Param("name", "player", N_("the player (default: you)"), required=False),),
    flags=(Flag("all", N_("the player under every rating system")),),
)
async def rating(ctx: Context, args: RatingArgs) -> Reply:
    if args.all:  # /rating NAME all: the player under every system, side by side
        return await rating_everywhere(ctx, await player_or_self(ctx, args.name))
    player = await player_or_self(ctx, args.name)
    system = ctx.the_club.system
    card, place, listed = await storage.placed_card(ctx.db, ctx.the_club, player.id)
    history = await storage.history(ctx.db, ctx.the_club, player.id, 1)
    head = f"{player.name} — {card.rank}"
    facts = [
        # TRANSLATORS: /rating's headline value, e.g. "Elo: 1865", "points: 72"
        _("{label}: {value}", label=card.rating_label, value=fmt.value(card.rating))
    ]
    if place is not None:
        # TRANSLATORS: /rating: the player's place on the club's list, e.g. "place 2 of 14"
        facts.append(_("place {place} of {listed}", place=place, listed=listed))
    facts.append(_n("{n} rated game", "{n} rated games", card.games))
    if card.last_played:
        facts.append(_("last played {date}", date=date_text(card.last_played)))
    lines = [joined(facts, " · ")]
    if history and history[0].rating_after is not None:
        last = history[0]
        lines.append(
            # TRANSLATORS: /rating: e.g. "last change: +16 (Spring Cup, Apr 20, 2026)"
            _(
                "last change: {change} ({source}, {date})",
                change=change_text(last.rating_before, last.rating_after),
                source=await source_label(ctx, last.source, dated=False),
                date=date_text(last.date),
            )
        )
    lines.extend(fmt.card_lines(card))
    return Reply(
        blocks=(
            Text(head, title=True),
            Text(joined(lines)),
            Text(f"{fmt.system_title(system)} · {ctx.the_club.name}"),
            *web_link(ctx, ctx.core.links.player(ctx.the_club, current(), player.id)),
        )
    )


def web_link(ctx: Context, address: str | None) -> tuple[Text, ...]:
    """The web page's ``address`` (from the core's links port) under a reply, when the club's
    pages are on (issue 14)."""
    if not ctx.settings.web or address is None:
        return ()
    # TRANSLATORS: under /top and /rating: the same on the club's web pages
    return (Text(_("On the web: {address}", address=address)),)


async def rating_everywhere(ctx: Context, player: Player) -> Reply:
    """``/rating NAME all``: the player's card under every system the club's ledgers hold,
    the club's own first — read from the ledgers already folded from the same games (each
    system keeps its ledger current), not worked out again."""
    current = ctx.the_club.system
    rows: list[tuple[str, ...]] = []
    for key in sorted(SYSTEMS, key=lambda k: k != current):
        try:
            ledger = await storage.ledger(ctx.db, ctx.the_club.id, key)
        except StorageError:
            continue  # a system this club's ledgers do not hold
        try:
            card = ledger.card(player.id)
        except KeyError:
            rows.append((fmt.system_title(key), "—", _("not registered"), "", ""))
            continue
        rows.append(
            (
                fmt.system_title(key) + (" *" if key == current else ""),
                str(card.rank),
                fmt.value(card.rating),
                translated(card.rating_label),
                "" if card.pending is None else fmt.pending(card.pending),
            )
        )
    return Reply(
        blocks=(
            Text(_("{name} — every system", name=player.name), title=True),
            Table((_("System"), _("Rank"), _("Rating"), "", _("Pending")), tuple(rows), "llrll"),
            Text(
                _(
                    "* the club's system. The same games under each rulebook; /rating "
                    "{name} shows the card in full. {club}",
                    name=player.name,
                    club=ctx.the_club.name,
                )
            ),
        )
    )


@dataclass(frozen=True, slots=True)
class TopArgs:
    n: int = TOP_DEFAULT


@command(
    "top",
    usage="/top [N]",
    summary=N_("The club's ranking list (the first N players, default 10)."),
    examples=("/top", "/top 25"),
    params=(Param("n", "int", N_("how many players"), required=False, high=TOP_MAX),),
    extra=N_("/top takes one number, not '{text}'"),
)
async def top(ctx: Context, args: TopArgs) -> Reply:
    n = args.n
    standings = await storage.standings(ctx.db, ctx.the_club)
    if not standings:
        return Reply.text(_("No players yet. Organisers add them with /register NAME RANK."))
    shown = standings[:n]
    # each row's own label when they differ (a Swedish player's target is their own)
    headings, notes = fmt.rating_heading([translated(s.card.rating_label) for s in shown])
    rows = tuple(
        (
            str(s.place),
            s.player.name,
            str(s.card.rank),
            fmt.value(s.card.rating),
            *([notes[i]] if notes else []),
            str(s.card.games),
        )
        for i, s in enumerate(shown)
    )
    title = f"{ctx.the_club.name} — {fmt.system_title(ctx.the_club.system)}"
    more = len(standings) - len(rows)
    blocks: list[Text | Table] = [
        Text(title, title=True),
        Table(
            ("#", _("Name"), _("Rank"), *headings, _("Games")),
            rows,
            "rllrlr" if notes else "rllrr",
        ),
    ]
    if more > 0:
        blocks.append(
            Text(
                _n(
                    "… and {n} more: /top {all}",
                    "… and {n} more: /top {all}",
                    more,
                    all=min(TOP_MAX, len(standings)),
                )
            )
        )
    blocks.extend(web_link(ctx, ctx.core.links.ranking(ctx.the_club, current())))
    return Reply(blocks=tuple(blocks))


@dataclass(frozen=True, slots=True)
class HistoryArgs:
    name: Player | None = None
    n: int = HISTORY_DEFAULT
    all: bool = False


@command(
    "history",
    usage="/history NAME [N] [all]",
    summary=N_("A player's last games and tournaments with the rating change of each."),
    examples=("/history Nagy Péter", "/history Kovács 20", "/history Kovács all"),
    details=N_(
        "Games taken back with /undo (typos) are left out; organisers see them, marked "
        "undone, with all."
    ),
    params=(
        Param("name", "player", N_("the player (default: you)"), required=False),
        Param("n", "int", N_("how many rows (default 10)"), required=False, high=HISTORY_MAX),
    ),
    flags=(Flag("all", N_("organisers: undone entries too")),),
)
async def history(ctx: Context, args: HistoryArgs) -> Reply:
    n, everything = args.n, args.all  # N and all in either order, after the name
    if everything and not ctx.organiser:
        raise NotPermitted(
            _(
                "Only organisers see undone entries (/history NAME all); /history {name} "
                "shows what counts",
                name=args.name.name if args.name is not None else "",
            )
        )
    player = await player_or_self(ctx, args.name)
    rows = await storage.history(ctx.db, ctx.the_club, player.id, n, undone=everything)
    # club games held for a rating period not closed yet (MGSZ, rules.md §1.4): no change yet
    held = [
        game
        for game in (await storage.ledger(ctx.db, ctx.the_club.id)).open_period()
        if player.id in (game.black, game.white)
    ]
    if not rows and not held:
        return Reply.text(_("{name} has no history yet.", name=player.name))
    ranks = ranks_of(rows)
    dated: list[tuple[dt.date, int, tuple[str, ...]]] = []
    now = (await storage.ledger(ctx.db, ctx.the_club.id)).card(player.id).rank
    # the games recorded from an SGF file (issue 4/5, item 5), in one query for the rows
    listed = [game.id for game in held] + [_game_of(row.source) for row in rows]
    sgf = await games_with_files(ctx.db, ctx.the_club, (game for game in listed if game))
    for game in held:  # not rated yet: at the player's rank now, the period being open
        what = await source_label(ctx, f"game:{game.id}", player.id)
        what += SGF_MARK if game.id in sgf else ""
        cells = (date_text(game.date), what, _("waits for the period's end"), str(now))
        dated.append((game.date, 1, cells))  # above a rated row of the same day
    notes: list[str] = []
    for row, rank in zip(rows, ranks, strict=True):
        label = await source_label(ctx, row.source, player.id, dated=False)
        if row.note and len(notes) < HISTORY_NOTES:
            note = await note_text(ctx, row.note)
            # a note that begins with the label says it again ("registered: registered")
            said = note if note.startswith(label) else f"{label}: {note}"
            notes.append(f"{date_text(row.date)} {said}")
        what, change, shown_rank = history_cells(row, label, rank)
        what += SGF_MARK if _game_of(row.source) in sgf else ""
        dated.append((row.date, 0, (date_text(row.date), what, change, shown_rank)))
    # newest first in calendar order (rules.md, top); a stable sort keeps the rated rows'
    # own order within a day
    dated.sort(key=lambda item: (item[0], item[1]), reverse=True)
    table_rows = [cells for _day, _held, cells in dated]
    shown = len(rows) + len(held)
    title = (
        _n(
            "{name} — the last entry (undone entries too)",
            "{name} — the last {n} entries (undone entries too)",
            shown,
            name=player.name,
        )
        if everything
        else _n(
            "{name} — the last entry", "{name} — the last {n} entries", shown, name=player.name
        )
    )
    return Reply(
        blocks=(
            Text(title, title=True),
            Table((_("Date"), _("What"), _("Rating"), _("Rank")), tuple(table_rows)),
            *([Text(joined(notes))] if notes else []),
            *(
                [
                    Text(
                        _(
                            "SGF: a game recorded from an SGF file; /sgf game=N sends game "
                            "#N's file"
                        )
                    )
                ]
                if sgf
                else []
            ),
        )
    )


SGF_MARK = " · SGF"
"""After a /history row's game recorded from an SGF file (``/sgf game=N`` sends it)."""


def _game_of(source: str) -> int:
    """The game id of a history row's source (``game:12`` → 12), or 0."""
    kind, _colon, ident = source.partition(":")
    return int(ident) if kind == "game" and ident.isdecimal() else 0


def history_cells(row: HistoryRow, label: str, rank: Rank | None = None) -> tuple[str, str, str]:
    """A /history row's "what", rating change and rank (the web's history too): the rank
    after the row, ``5k → 4k`` when it changed; ``rank`` is the player's rank at a row that
    carries none (a voided game, :func:`ranks_of`). ``label`` names its source
    (:func:`label_of_source`)."""
    if row.rating_after is None and row.rating_before is None:
        change = status_text(row.status)
    else:
        change = change_text(row.rating_before, row.rating_after, full=True)
    if row.rank_after is None:
        shown = "" if rank is None else str(rank)
    elif row.rank_before is None or row.rank_after == row.rank_before:
        shown = str(row.rank_after)
    else:
        shown = f"{row.rank_before} → {row.rank_after}"
    what = label if row.status == HISTORY_RATED else f"{label} [{status_text(row.status)}]"
    return what, change, shown


def ranks_of(rows: list[HistoryRow]) -> list[Rank | None]:
    """The player's rank at each of ``rows`` (newest first): a row's own rank after it, or
    for a row without one (a game voided or undone) the rank of the nearest older row, else
    the rank the nearest newer row started from."""
    ranks: list[Rank | None] = [None] * len(rows)
    current: Rank | None = None
    for i in range(len(rows) - 1, -1, -1):  # oldest first
        if rows[i].rank_after is not None:
            current = rows[i].rank_after
        ranks[i] = current
    following: Rank | None = None
    for i, row in enumerate(rows):  # newest first: fill what no older row told
        for known in (row.rank_before, row.rank_after):
            if known is not None:
                following = known
                break
        if ranks[i] is None:
            ranks[i] = following
    return ranks


async def note_text(ctx: Context, note: str) -> str:
    """A history note as members read it, in their language: the engine's ``{player:ID}``
    and ``{game:ID}`` marks (it knows no names) become the player's name and the game's
    club number."""
    return await marked(ctx.db, ctx.the_club, note)


def change_text(before: Value, after: Value, *, full: bool = False) -> str:
    """``+16``; with ``full`` ``1947 → 1963 (+16)``; a first value reads ``start 1720``."""
    if before is None:
        # TRANSLATORS: a player's first rating value, e.g. "start 1720"
        return _("start {value}", value=fmt.value(after))
    delta = fmt.signed(fmt.difference(before, after))
    return f"{fmt.value(before)} → {fmt.value(after)} ({delta})" if full else delta


async def source_label(
    ctx: Context, source: str, player: int | None = None, *, dated: bool = True
) -> str:
    """``tournament:3`` → ``Spring Cup``; ``game:12`` → ``game #12 vs Kovács Anna (B+)``;
    ``day:2026-04-01`` → ``end of day Apr 1, 2026``, ``month:2026-04`` → ``month end April
    2026`` (``end of day``, ``month end`` when not ``dated``: shown beside its date)."""
    return await label_of_source(ctx.db, ctx.the_club, source, player, dated=dated)


async def label_of_source(
    db: storage.Database,
    club: storage.Club,
    source: str,
    player: int | None = None,
    *,
    dated: bool = True,
) -> str:
    """:func:`source_label` for a club outside a conversation (the web pages, issue 14)."""
    kind, _colon, ident = source.partition(":")
    if kind == "tournament" and ident.isdecimal():
        row = await storage.tournament(db, club, int(ident))
        if row is not None:
            return row.tournament.name
        period = await schedules.period_name(db, club, int(ident))
        return fmt.tournament_title(period) if period else _("a tournament")
    if kind == "game" and ident.isdecimal():
        found = await storage.game(db, club, int(ident))
        if found is None:
            return _("a game")
        game = found.game
        if player is None:
            return _("game #{number} ({result})", number=found.number, result=fmt.result(game))
        opponent = await storage.get_player(db, club, game.opponent(player))
        name = opponent.name if opponent else "?"
        return _(
            "game #{number} vs {name} ({result})",
            number=found.number,
            name=name,
            result=fmt.result(game),
        )
    if kind == "day" and not dated:
        # TRANSLATORS: /history, /rating: a Tensuusei day's settling, beside its date
        return _("end of day")
    if kind == "day":
        try:
            day = date_text(dt.date.fromisoformat(ident))
        except ValueError:
            day = ident
        # TRANSLATORS: /history: a Tensuusei day's settling, e.g. "end of day Apr 1, 2026"
        return _("end of day {day}", day=day)
    if kind == "month" and not dated:
        # TRANSLATORS: /history, /rating: a PSG month's verification, beside its date
        return _("month end")
    if kind == "month":
        year, _dash, month = ident.partition("-")
        shown = (
            month_text(int(year), int(month))
            if year.isdecimal() and month.isdecimal() and 1 <= int(month) <= 12
            else ident
        )
        # TRANSLATORS: /history: a PSG month's verification, e.g. "month end April 2026"
        return _("month end {month}", month=shown)
    word = fmt.SIGNED_SOURCES.get(source)
    return source if word is None else _(word)


@dataclass(frozen=True, slots=True)
class NameArgs:
    """A player, by default the caller (/chart, /promotion)."""

    name: Player | None = None


@command(
    "chart",
    usage="/chart [NAME]",
    summary=N_("A picture of a player's rating over time, rank bands shaded, tournaments marked."),
    examples=("/chart Nagy Péter",),
    params=(Param("name", "player", N_("the player (default: you)"), required=False),),
)
async def chart(ctx: Context, args: NameArgs) -> Reply:
    player = await player_or_self(ctx, args.name)
    data = await chart_data(ctx.db, ctx.the_club, player)
    if data is None:
        return Reply.text(_("{name} has no rating history to draw yet.", name=player.name))
    system = ctx.the_club.system
    points = data.points
    png = await asyncio.to_thread(render_chart, data)  # CPU work off the event loop
    slug = fmt.file_slug(player.name, "player")
    return Reply(
        blocks=(
            Text(
                _n(
                    "{name}: {n} rating charted, from {first} to {last}",
                    "{name}: {n} ratings charted, from {first} to {last}",
                    len(points),
                    name=player.name,
                    first=date_text(points[0][0]),
                    last=date_text(points[-1][0]),
                )
            ),
        ),
        picture=Picture(png, f"hoshi-{slug}.png", f"{player.name} — {fmt.system_title(system)}"),
    )


async def chart_data(
    db: storage.Database, club: storage.Club, player: Player, system: str | None = None
) -> ChartData | None:
    """What ``/chart`` draws of the player (and the web page's SVG, issue 14), in the current
    language; ``None`` when there is nothing to draw yet. Rank bands come from a fresh ledger
    with the club's settings: they depend on the rules, not on the games."""
    series = await storage.rating_series(db, club, player.id)
    points = chart_points(series)
    if not points:
        return None
    settings = await storage.club_settings(db, club)
    key = system or settings.system or club.system
    markers = [
        Marker(date, await label_of_source(db, club, f"tournament:{tournament}"))
        for tournament, date in chart_tournaments(series, points).items()
    ]
    try:
        card = await storage.card(db, club, player.id)
    except StorageError:
        card = None
    return ChartData(
        title=f"{player.name} — {fmt.system_title(key)}",
        # TRANSLATORS: the chart's vertical axis when the player has no card
        y_label=translated(card.rating_label) if card else _("rating"),
        points=points,
        bands=chart_bands(system_named(key, settings.system_values(key))),
        markers=tuple(markers),
    )


def chart_points(series: list[SeriesPoint]) -> tuple[tuple[dt.date, float], ...]:
    """The series in history order; a point dated after the next one (a player registered
    after a back-dated tournament) is drawn at the next one's date, so the line runs forward."""
    points = [(p.date, float(v)) for p in series if (v := fmt.number(p.rating)) is not None]
    for i in range(len(points) - 2, -1, -1):
        if points[i][0] > points[i + 1][0]:
            points[i] = (points[i + 1][0], points[i][1])
    return tuple(points)


def chart_tournaments(
    series: list[SeriesPoint], points: tuple[tuple[dt.date, float], ...]
) -> dict[int, dt.date]:
    """Each tournament (or MGSZ period) that changed the player's rating, once, at the date
    its last change is drawn — whichever shape its system gives the changes (one row for the
    whole tournament, or a row per game or per day: storage's ``SeriesPoint.tournament``)."""
    drawn = iter(points)
    found: dict[int, dt.date] = {}
    for point in series:
        if fmt.number(point.rating) is None:
            continue  # not drawn (see chart_points)
        date = next(drawn)[0]
        if point.tournament is not None:
            found.pop(point.tournament, None)  # in the order of their last changes
            found[point.tournament] = date
    return found


def chart_bands(ledger: RatingSystem) -> tuple[Band, ...]:
    """Rank bands behind the line, as the club's system places its ranks on its scale (MGSZ's
    rank table, Tensuusei's rank line); none when ratings are not on a rank scale."""
    return tuple(Band(b.low, b.high, str(b.rank)) for b in ledger.rank_bands())


@dataclass(frozen=True, slots=True)
class HandicapArgs:
    a: Player
    b: Player
    reduce: int | None = None


@command(
    "handicap",
    usage="/handicap A B [reduce=N]",
    summary=N_("Stones and komi for a game between two players under the club's system."),
    examples=("/handicap Nagy Péter Kovács Anna", '/handicap "Nagy Péter" vs Szabó reduce=1'),
    options=(
        Option("reduce", "int", N_("reduce the handicap by N (tournament rule)"), low=0, high=9),
    ),
    params=(
        Param("a", "player", N_("first player")),
        Param("b", "player", N_("second player")),
    ),
)
async def handicap(ctx: Context, args: HandicapArgs) -> Reply:
    reduce = args.reduce or 0
    a, b = args.a, args.b
    system = await storage.ledger(ctx.db, ctx.the_club.id)
    try:
        advice = system.handicap(a.id, b.id, reduction=reduce)
    except KeyError as exc:
        raise BadArgument(
            _("no rating yet for one of the players ({detail})", detail=exc)
        ) from None
    black, white = (a, b) if advice.black == a.id else (b, a)
    if advice.stones == 0 and not advice.own_komi:
        # rules.md §5: an even game uses the club's even-game komi (/club komi); the ledgers
        # are built with the default, so the club's setting is applied here, as /result does
        # (a system whose table gives the komi, like Tensuusei's, says so: own_komi)
        advice = dataclasses.replace(advice, komi=komi_default(ctx, None, 0))
    setup = fmt.handicap_text(advice.stones, advice.komi)
    # each player with the rank they hold now (a rank moves with the rating under some
    # systems), not the one they registered with
    black, white = (dataclasses.replace(p, rank=system.card(p.id).rank) for p in (black, white))
    lines: list[str] = [
        _("Black: {player}", player=describe(black)),
        _("White: {player}", player=describe(white)),
        setup,
    ]
    lines.extend(f"({translated(note)})" for note in advice.notes)
    # issue 25: what each player gains or loses under the club's system, as things stand today
    game = Game(0, black.id, white.id, None, ctx.today(), stones=advice.stones, komi=advice.komi)
    lines.extend(stake_lines(system, black, white, game))
    return Reply(blocks=(Text(_("Handicap"), title=True), Text(joined(lines))))


@dataclass(frozen=True, slots=True)
class MultiplierArgs:
    time: str = ""
    participants: int | None = None
    c: int | None = None
    board: int | None = None
    even: bool = False
    handicap: bool = False
    over80: bool = False
    small: bool = False
    full: bool = False
    invitational: bool = False
    european: bool = False


MULTIPLIER_FLAGS = (
    Flag("even", N_("an even (no-handicap) tournament"), ("even", "no-handicap"), True),
    Flag("handicap", N_("a handicap tournament (the default)"), anywhere=True),
    Flag("over80", N_("more than 80 took part"), (">80", "over80"), True),
    Flag("small", N_("on 13×13"), ("13x13", "13×13"), True),
    Flag("full", N_("on 19×19 (the default)"), ("19x19", "19×19"), True),
    Flag(
        "invitational",
        N_("an invitational tournament or championship"),
        ("invitational", "championship", "hungarian", "national"),
        True,
    ),
    Flag("european", N_("a European or world event"), ("european", "world", "ec", "wc"), True),
)


@command(
    "multiplier",
    usage="/multiplier TIME [even|handicap] [>80|participants=N] [invitational|championship] "
    "[european|world] [13x13|board=N] [C=N]",
    summary=N_(
        "How the club's rulebook counts games at a time control: the MGSZ multiplier C with "
        "its breakdown (MGSZ Minősítési Szabályzat 6.§ (1)), the EGF tournament class, Swedish "
        "whole or half games, PSG ranked games."
    ),
    examples=("/multiplier 60m 3x20s japanese even >80 championship", "/multiplier 45m even"),
    options=(
        Option("participants", "int", N_("how many took part (instead of >80)"), high=100_000),
        Option(
            "c",
            "int",
            N_("a multiplier set by hand (shown with its breakdown)"),
            name="C",
            low=0,
            high=1000,
        ),
        Option("board", "int", N_("the board size (instead of 13x13)"), low=5, high=25),
    ),
    needs_club=False,
    params=(
        Param(
            "time",
            "text",
            N_("time control and flags, e.g. 60m 3x20s japanese even >80"),
            required=False,
        ),
    ),
    flags=MULTIPLIER_FLAGS,
)
async def multiplier(ctx: Context, args: MultiplierArgs) -> Reply:
    even = args.even and not args.handicap
    participants = 81 if args.over80 else None
    board = 13 if args.small and not args.full else 19
    if args.participants is not None:
        participants = args.participants
    if args.board is not None:
        board = args.board
    manual = args.c
    time = None
    if args.time:
        try:
            time = TimeControl.parse(args.time)
        except EngineError as exc:
            raise BadArgument(engine_text(exc)) from None
    elif manual is None and board == 19:
        raise BadArgument(
            _(
                "the time control is missing, e.g. {example}",
                example="/multiplier 60m 3x20s japanese even",
            )
        )
    tournament = Tournament(
        0,
        "/multiplier",
        DAY_ZERO,
        DAY_ZERO,
        1,
        board=board,
        time=time,
        even=even,
        participants=participants,
        importance=Importance(args.invitational, args.european),
        multiplier=manual,
    )
    if ctx.club is not None:
        ledgers = [await storage.ledger(ctx.db, ctx.club.id)]
    else:  # no club here: every system
        ledgers = [system_named(key) for key in SYSTEMS]
    weighed = []
    for ledger in ledgers:  # each rulebook answers by its own rule for this time control
        try:
            weighed.append((ledger.key, ledger.time_weight(tournament)))
        except EngineError as exc:
            raise BadArgument(engine_text(exc)) from None
    blocks: list[Text] = []
    for key, weight in weighed:
        title = f"{translated(weight.label)} = {fmt.value(weight.value)}"
        blocks.append(
            Text(title if len(weighed) == 1 else f"{title} ({fmt.system_title(key)})", title=True)
        )
        blocks.append(Text(joined(weight.lines)))
    return Reply(blocks=tuple(blocks))


@command(
    "promotion",
    usage="/promotion [NAME]",
    summary=N_("Progress toward the next rank under the club's system."),
    examples=("/promotion Nagy Péter",),
    params=(Param("name", "player", N_("the player (default: you)"), required=False),),
)
async def promotion(ctx: Context, args: NameArgs) -> Reply:
    player = await player_or_self(ctx, args.name)
    system = await storage.ledger(ctx.db, ctx.the_club.id)
    try:
        progress = system.promotion(player.id)
    except KeyError:
        raise BadArgument(
            _("{name} has no standing under this system yet", name=player.name)
        ) from None
    target = f" → {progress.target}" if progress.target else ""
    return Reply(
        blocks=(
            Text(f"{player.name}: {progress.rank}{target}", title=True),
            Text(joined(progress.lines)),
        )
    )
