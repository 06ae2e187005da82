"""The club's web pages (issue 14), each built from the stored projections — no replay.

Every builder returns a :class:`Page` (its site path, the HTML) or ``None`` when there is no
such page (an unknown player, a tournament number the club lacks). The server
(bot.web.app) and the static export (bot.web.site) call the same builders, so a page is the
same wherever it is read. Builders run inside ``bot.i18n.using(lang)``: every word is in the
page's language, and dates and numbers are written its way.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from bot.core import format as fmt
from bot.core import reads
from bot.core.crosstable import headings, value_text
from bot.core.facade import Club, Database
from bot.core.handlers.ratings import (
    change_text,
    chart_data,
    history_cells,
    label_of_source,
    ranks_of,
    status_text,
)
from bot.core.notices import marked
from bot.core.reads import GAME_OK, GameRow, Player, Standing

# the pages' clubs, where the builders' callers have always found them
from bot.core.reads import Shown as Shown
from bot.core.reads import shown_club as shown_club
from bot.core.reads import web_clubs as web_clubs
from bot.core.rounds import pairing_line
from bot.i18n import LANGUAGES, _, _n, date_text, month_text, own_name, translated
from bot.web import urls
from bot.web.kept import Kept
from bot.web.render import render
from bot.web.svg import chart_svg
from engine.system import Value
from engine.systems import system_named


@dataclass(frozen=True, slots=True)
class Page:
    """One page: where it lives (a site path, bot.web.urls) and its HTML."""

    path: str
    html: str


class PageCache(Kept[Page]):
    """Ranking pages kept until the club's data moves on: a new log entry (a game, a setting,
    a player), a rebuilt projection or a new day. A federation's list of 2,000 players takes
    tens of milliseconds to write out; read again before the next write, it is served as it
    was (issue 14: fast pages at a million games)."""

    __slots__ = ()

    def __init__(self, size: int = 64) -> None:
        super().__init__(size)


@dataclass(frozen=True, slots=True)
class Site:
    """What every page is built from: the database, today's date (the club's clock), and the
    most games a page may replay for a ledger (promotion, handicap; beyond it, the page is
    built from the stored projections alone)."""

    db: Database
    today: dt.date
    replay_limit: int = 50_000
    cache: PageCache | None = None


@dataclass(slots=True)
class Layout:
    """The frame every page shares: header, navigation, languages, footer."""

    path: str
    lang: str
    title: str
    shown: Shown | None = None
    links: list[tuple[str, str, bool]] = field(default_factory=list)
    languages: list[tuple[str, str, str | None]] = field(default_factory=list)
    downloads: list[tuple[str, str]] = field(default_factory=list)


def _layout(path: str, lang: str, title: str, shown: Shown | None, other: str) -> Layout:
    """The frame of the page at ``path``; ``other`` is the same page's path with ``{lang}``
    for the language links."""
    layout = Layout(path, lang, title, shown)
    for code in LANGUAGES:
        href = None if code == lang else urls.relative(path, other.format(lang=code))
        layout.languages.append((code, own_name(code), href))
    if shown is not None:
        club = shown.club
        layout.links = [
            (_("Ranking"), urls.relative(path, urls.ranking(club, lang)), False),
            (_("Tournaments"), urls.relative(path, urls.tournaments(club, lang)), False),
        ]
        layout.downloads = [
            (_("players (CSV)"), urls.relative(path, urls.download(club, "players.csv"))),
            (_("games (CSV)"), urls.relative(path, urls.download(club, "games.csv"))),
            (_("ratings (JSON)"), urls.relative(path, urls.download(club, "ratings.json"))),
        ]
    return layout


def _page(template: str, layout: Layout, **values: object) -> Page:
    return Page(layout.path, render(template, layout=layout, url=_linker(layout.path), **values))


def _linker(here: str):  # type: ignore[no-untyped-def]
    def url(there: str) -> str:
        return urls.relative(here, there)

    return url


def _value(v: Value) -> str:
    return fmt.value(v) if v is not None else ""


def _sortable(v: Value) -> str:
    number = fmt.number(v)
    return "" if number is None else str(float(number))


# --- the ranking list --------------------------------------------------------------------


K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class RankingRow:
    place: int
    pid: int
    name: str
    rank: str
    rank_step: int
    rating: str
    rating_value: str
    own: str
    games: int
    last_played: str
    last_played_iso: str
    change: str
    change_value: str
    active: bool


async def ranking_page(
    site: Site, shown: Shown, lang: str, *, everyone: bool = False, query: str = ""
) -> Page:
    """The club's ranking list: place, name, rank, rating, games, last played and the change
    this month; the active players by the system's own rule (engine Activity), or everyone.
    ``query`` keeps the names containing it (the search form without JavaScript).

    With a :class:`PageCache`, a page asked again before the club's data moves on is the one
    written before."""
    if site.cache is None:
        return await _ranking_page(site, shown, lang, everyone, query)
    version = await reads.data_version(site.db, shown.club)
    key = (shown.club.id, lang, everyone, query, site.today, version)
    kept = site.cache.get(key)
    if kept is not None:
        return kept
    return site.cache.keep(key, await _ranking_page(site, shown, lang, everyone, query))


async def _ranking_page(site: Site, shown: Shown, lang: str, everyone: bool, query: str) -> Page:
    club = shown.club
    ranking = await reads.ranking_list(site.db, shown, site.today, everyone=everyone, query=query)
    standings, changes, since = ranking.standings, ranking.changes, ranking.since
    labels = _Texts(translated)
    headings, own = fmt.rating_heading([labels(s.card.rating_label) for s in standings])
    dates = _Texts(date_text)
    rows = [
        _ranking_row(standing, changes, own[index] if own else "", active, dates)
        for index, standing, active in ranking.listed
    ]
    path = urls.ranking(club, lang, everyone=everyone)
    other = urls.ranking(club, "{lang}", everyone=everyone)
    title = _("{club} — ranking", club=club.name)
    layout = _layout(path, lang, title, shown, other)
    layout.links[0] = (layout.links[0][0], layout.links[0][1], True)
    month = month_text(since.year, since.month)
    return _page(
        "ranking.html",
        layout,
        rows=rows,
        headings=headings,
        own_column=own is not None,
        everyone=everyone,
        query=query,
        total=len(standings),
        active_count=ranking.active_count,
        activity=translated(shown.activity.rule),
        month=month,
        toggle=urls.relative(path, urls.ranking(club, lang, everyone=not everyone)),
        system=fmt.system_title(shown.system),
        today=date_text(site.today),
    )


class _Texts(Generic[K]):
    """``text(key)`` once per distinct key: a list of thousands of rows shares a few hundred
    dates and one rating label, and Babel takes some 40 µs a date (the ranking page of a
    federation)."""

    def __init__(self, text: Callable[[K], str]) -> None:
        self.text = text
        self.known: dict[tuple[type, K], str] = {}

    def __call__(self, key: K) -> str:
        typed = (type(key), key)  # a catalogue's Msg is not the plain str equal to it
        found = self.known.get(typed)
        if found is None:
            found = self.known[typed] = self.text(key)
        return found


def _ranking_row(
    standing: Standing,
    changes: dict[int, tuple[Value, Value]],
    own: str,
    active: bool,
    dates: Callable[[dt.date], str] = date_text,
) -> RankingRow:
    card, player = standing.card, standing.player
    before_after = changes.get(player.id)
    change, change_value = "", ""
    if before_after is not None:
        before, after = before_after
        if before is None:
            change = _("new")
        else:
            delta = fmt.difference(before, after)
            change = fmt.signed(delta)
            change_value = _sortable(delta)
    return RankingRow(
        place=standing.place,
        pid=player.id,
        name=player.name,
        rank=str(card.rank),
        rank_step=card.rank.step,
        rating=fmt.value(card.rating),  # as /top writes it: "—" for none
        rating_value=_sortable(card.rating),
        own=own,
        games=card.games,
        last_played=dates(card.last_played) if card.last_played else "",
        last_played_iso=card.last_played.isoformat() if card.last_played else "",
        change=change,
        change_value=change_value,
        active=active,
    )


# --- a player ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HistoryLine:
    date: str
    what: str
    change: str
    rank: str
    note: str


@dataclass(frozen=True, slots=True)
class Meeting:
    """The record against one opponent."""

    pid: int
    name: str
    games: int
    wins: int
    losses: int
    jigo: int
    last: str
    href: str
    opponent_href: str


@dataclass(frozen=True, slots=True)
class SgfLine:
    """A game of the player recorded from an SGF file, with the file's address."""

    number: int
    date: str
    colour: str
    opponent: str
    opponent_href: str
    result: str
    href: str


async def player_page(site: Site, shown: Shown, lang: str, pid: int) -> Page | None:
    """A player's page: the card, the chart, promotion progress, the whole history with each
    change, and the record against every opponent."""
    club, db = shown.club, site.db
    player = await reads.player(db, club, pid)
    if player is None:
        return None
    path = urls.player(club, lang, pid)
    layout = _layout(path, lang, player.name, shown, urls.player(club, "{lang}", pid))
    card, place, listed = await reads.placed_card(db, club, pid)
    facts: list[tuple[str, str]] = []
    if card is not None:
        facts.append((translated(card.rating_label), _value(card.rating)))
        facts.append((_("Rank"), str(card.rank)))
        if place is not None:
            facts.append((_("Place"), _("{place} of {listed}", place=place, listed=listed)))
        facts.append((_("Rated games"), str(card.games)))
        if card.last_played:
            facts.append((_("Last played"), date_text(card.last_played)))
        lines = [translated(line) for line in fmt.card_lines(card)]
    else:
        lines = []
    data = await chart_data(db, club, player)
    svg = chart_svg(data) if data is not None else ""
    progress = await _promotion(site, club, pid)
    history = await _history(db, club, pid)
    meetings = await _meetings(db, club, lang, player)
    sgf = await _sgf_games(db, club, lang, player, {m.pid: m.name for m in meetings})
    return _page(
        "player.html",
        layout,
        player=player,
        card=card,
        facts=facts,
        lines=lines,
        svg=svg,
        progress=progress,
        history=history,
        meetings=meetings,
        sgf=sgf,
        system=fmt.system_title(shown.system),
        today=date_text(site.today),
    )


async def _promotion(site: Site, club: Club, pid: int) -> tuple[str, list[str]] | None:
    """Progress toward the next rank (``/promotion``): the headline and its lines. Only a
    ledger answers it: a federation's page that would wait for a replay says where to ask."""
    db = site.db
    ledger = await reads.ledger(db, club, site.replay_limit)
    if ledger is None:
        player = await reads.player(db, club, pid)
        name = player.name if player is not None else ""
        return "", [
            _(
                "Progress toward the next rank is shown here once the bot has loaded the "
                "club's ratings; in the chat, {command} answers at once.",
                command=f"/promotion {name}",
            )
        ]
    try:
        progress = ledger.promotion(pid)
    except KeyError:
        return None
    target = f" → {progress.target}" if progress.target else ""
    return f"{progress.rank}{target}", [await marked(db, club, line) for line in progress.lines]


async def _history(db: Database, club: Club, pid: int) -> list[HistoryLine]:
    """Every rating change of the player, newest first; voided games marked (games taken
    back with /undo are typos and stay out, as in ``/history``)."""
    found = []
    rows = await reads.rating_history(db, club, pid)
    for row, at in zip(rows, ranks_of(rows), strict=True):
        label = await label_of_source(db, club, row.source, pid, dated=False)
        what, change, rank = history_cells(row, label, at)
        note = await marked(db, club, row.note) if row.note else ""
        found.append(HistoryLine(date_text(row.date), what, change, rank, note))
    return found


async def _meetings(db: Database, club: Club, lang: str, player: Player) -> list[Meeting]:
    """The player's record against each opponent faced in a game that counts, most games
    first (reads.meetings)."""
    path = urls.player(club, lang, player.id)
    return [
        Meeting(
            pid=record.pid,
            name=record.name,
            games=record.games,
            wins=record.wins,
            losses=record.losses,
            jigo=record.jigo,
            last=date_text(record.last),
            href=urls.relative(path, urls.head_to_head(club, lang, player.id, record.pid)),
            opponent_href=urls.relative(path, urls.player(club, lang, record.pid)),
        )
        for record in await reads.meetings(db, club, player.id)
    ]


async def _sgf_games(
    db: Database, club: Club, lang: str, player: Player, names: Mapping[int, str]
) -> list[SgfLine]:
    """The player's games that count and were recorded from an SGF file, newest first, each
    linking its file (``/sgf game=N``'s); ``names``: the opponents' (the head-to-head's)."""
    path = urls.player(club, lang, player.id)
    found = []
    for row in await reads.player_sgf_games(db, club, player.id):
        game, other = row.game, row.game.opponent(player.id)
        found.append(
            SgfLine(
                number=row.number,
                date=date_text(game.date),
                colour=_("Black") if game.black == player.id else _("White"),
                opponent=names.get(other, "?"),
                opponent_href=urls.relative(path, urls.player(club, lang, other)),
                result=fmt.result(game),
                href=urls.relative(path, urls.game_sgf(club, row.number)),
            )
        )
    return found


@dataclass(frozen=True, slots=True)
class GameLine:
    number: int
    date: str
    round: str
    black: str
    black_href: str
    white: str
    white_href: str
    result: str
    handicap: str
    black_change: str
    white_change: str
    status: str


async def head_to_head_page(
    site: Site, shown: Shown, lang: str, pid: int, other: int
) -> Page | None:
    """Two players' games against each other, with each game's rating changes, and the
    handicap between them today under the club's system."""
    club, db = shown.club, site.db
    found = await reads.head_to_head(db, club, pid, other)
    if found is None:
        return None
    a, b, rows = found.a, found.b, found.games
    path = urls.head_to_head(club, lang, pid, other)
    title = _("{a} vs {b}", a=a.name, b=b.name)
    layout = _layout(path, lang, title, shown, urls.head_to_head(club, "{lang}", pid, other))
    names = {a.id: a.name, b.id: b.name}
    games = [
        _game_line(path, shown, lang, row, names, found.changes.get(row.id, {})) for row in rows
    ]
    record = list(found.record)
    advice = None
    hc = await reads.handicap(db, club, pid, other, site.replay_limit)
    try:
        if hc is None:
            raise KeyError(pid)  # no ledger without a long replay, or no advice: none here
        advice = _(
            "Black: {black}, white: {white}, {stones}, komi {komi}",
            black=names[hc.black],
            white=names[hc.white],
            stones=_n("{n} handicap stone", "{n} handicap stones", hc.stones)
            if hc.stones
            else _("even game"),
            komi=fmt.komi(hc.komi),
        )
    except (KeyError, ValueError):
        advice = None
    return _page(
        "head_to_head.html",
        layout,
        a=a,
        b=b,
        a_href=urls.relative(path, urls.player(club, lang, pid)),
        b_href=urls.relative(path, urls.player(club, lang, other)),
        games=games,
        record=record,
        advice=advice,
        system=fmt.system_title(shown.system),
        today=date_text(site.today),
    )


def _game_line(
    path: str,
    shown: Shown,
    lang: str,
    row: GameRow,
    names: dict[int, str],
    changes: Mapping[int, tuple[Value, Value]],
) -> GameLine:
    game, club = row.game, shown.club

    def change(pid: int) -> str:
        found = changes.get(pid)
        if found is None:
            return ""
        before, after = found
        return change_text(before, after) if before is not None else _value(after)

    stones = _n("{n} stone", "{n} stones", game.stones) if game.stones else ""
    komi = _("komi {komi}", komi=fmt.komi(game.komi))
    return GameLine(
        number=row.number,
        date=date_text(game.date),
        round=str(game.round) if game.round else "",
        black=names.get(game.black, "?"),
        black_href=urls.relative(path, urls.player(club, lang, game.black)),
        white=names.get(game.white, "?"),
        white_href=urls.relative(path, urls.player(club, lang, game.white)),
        result=fmt.result(game),
        handicap=f"{stones}, {komi}" if stones else komi,
        black_change=change(game.black),
        white_change=change(game.white),
        status="" if row.status == GAME_OK else status_text(row.status),
    )


# --- tournaments ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TournamentLine:
    number: int
    name: str
    dates: str
    rounds: int
    players: int
    state: str
    href: str
    h9: str


async def tournaments_page(site: Site, shown: Shown, lang: str) -> Page:
    """The club's tournaments, newest first."""
    club, db = shown.club, site.db
    path = urls.tournaments(club, lang)
    layout = _layout(
        path,
        lang,
        _("{club} — tournaments", club=club.name),
        shown,
        urls.tournaments(club, "{lang}"),
    )
    layout.links[1] = (layout.links[1][0], layout.links[1][1], True)
    lines = []
    for summary in await reads.tournament_list(db, club):
        row, t = summary.row, summary.row.tournament
        lines.append(
            TournamentLine(
                number=row.number,
                name=t.name,
                dates=_dates(t.start, t.end),
                rounds=t.rounds,
                players=summary.players,
                state=_("rated") if row.finalised else _("open"),
                href=urls.relative(path, urls.tournament(club, lang, row.number)),
                h9=urls.relative(path, urls.download(club, f"tournaments/{row.number}.h9")),
            )
        )
    return _page("tournaments.html", layout, tournaments=lines, today=date_text(site.today))


def _dates(start: dt.date, end: dt.date) -> str:
    if start == end:
        return date_text(start)
    return _("{start} – {end}", start=date_text(start), end=date_text(end))


@dataclass(frozen=True, slots=True)
class StandingLine:
    place: int
    pid: int
    name: str
    href: str
    rank: str
    wins: str
    wins_value: str
    criteria: tuple[str, ...]
    change: str
    change_value: str


async def tournament_page(site: Site, shown: Shown, lang: str, number: int) -> Page | None:
    """A tournament: its standings (wins, and the file's MMS/SOS when it had them) and every
    game with its rating change; for a tournament run from the chat, how it is paired, each
    published round's boards (newest first) and the live standings as a crosstable."""
    club, db = shown.club, site.db
    results = await reads.tournament_results(db, club, number)
    if results is None:
        return None
    row = results.row
    t = row.tournament
    path = urls.tournament(club, lang, number)
    layout = _layout(path, lang, t.name, shown, urls.tournament(club, "{lang}", number))
    ranks = results.ranks  # the first day's, not today's
    games, names, changes, wins = results.games, results.names, results.changes, results.wins
    criteria_names = results.criteria
    by_player = {e.player: e for e in results.entries}
    lines: list[StandingLine] = []
    for pid, place in results.places:
        entry = by_player.get(pid)
        change, change_value = _tournament_change(changes, pid)
        values = dict(entry.criteria) if entry is not None else {}
        lines.append(
            StandingLine(
                place=place,
                pid=pid,
                name=names.get(pid, "?"),
                href=urls.relative(path, urls.player(club, lang, pid)),
                rank=str(ranks[pid]) if pid in ranks else "",
                wins=fmt.value(wins[pid]),
                wins_value=str(float(wins[pid])),
                criteria=tuple(values.get(n, "") for n in criteria_names),
                change=change,
                change_value=change_value,
            )
        )
    game_lines = [
        _game_line(path, shown, lang, g, names, changes.games.get(g.id, {})) for g in games
    ]
    weight = None
    try:
        found_weight = system_named(shown.system, shown.settings.system_values(shown.system))
        measured = found_weight.tournament_weight(t)
        if measured is not None:
            weight = f"{translated(measured.label)}: {_value(measured.value)}"
    except Exception:  # a tournament the weight cannot be found for (no time control)
        weight = None
    facts = [
        _dates(t.start, t.end),
        _n("{n} round", "{n} rounds", t.rounds),
        f"{t.board}×{t.board}",
        _("rated") if row.finalised else _("open: not rated yet"),
    ]
    if t.time is not None:
        facts.append(_("time: {time}", time=str(t.time)))
    if weight:
        facts.append(weight)
    run = await reads.tournament_rounds(db, club, row, komi=shown.settings.komi)
    return _page(
        "tournament.html",
        layout,
        tournament=t,
        facts=facts,
        standings=lines,
        criteria=criteria_names,
        games=game_lines,
        run=None if run is None else _run_view(path, shown, lang, run, changes),
        h9=urls.relative(path, urls.download(club, f"tournaments/{number}.h9")),
        system=fmt.system_title(shown.system),
        today=date_text(site.today),
    )


def _tournament_change(changes: reads.TournamentChanges, pid: int) -> tuple[str, str]:
    """A player's rating change over the tournament and its sortable value ("" before it is
    rated)."""
    found = changes.players.get(pid)
    if found is None or found[0] is None:
        return "", ""
    delta = fmt.difference(found[0], found[1])
    return change_text(found[0], found[1], full=True), _sortable(delta)


# --- a tournament run from the chat -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CrossLine:
    """One row of the live crosstable."""

    number: int
    place: str
    pid: int
    name: str
    href: str
    rank: str
    note: str  # "withdrawn", "entered in round 2"
    cells: tuple[str, ...]
    values: tuple[str, ...]
    change: str


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One board of a published round."""

    number: str
    black: str
    black_href: str
    white: str
    white_href: str
    stones: str
    komi: str
    result: str
    waiting: bool


@dataclass(frozen=True, slots=True)
class RoundView:
    """A published round: its boards, the bye, who sits out (round robin), the boards that
    wait for a result."""

    number: int
    boards: list[BoardLine]
    bye: tuple[str, str] | None
    idle: list[tuple[str, str]]
    waiting: list[str]


@dataclass(frozen=True, slots=True)
class RunView:
    """What the page shows of a tournament run from the chat."""

    pairing: str
    headings: tuple[str, ...]
    rounds_shown: int
    crosstable: list[CrossLine]
    rated: bool
    rounds: list[RoundView]  # newest first
    waiting: int


def _run_view(
    path: str,
    shown: Shown,
    lang: str,
    run: reads.TournamentRounds,
    changes: reads.TournamentChanges,
) -> RunView:
    """The page's view of ``run``; ``changes``: the rating changes once it is rated."""
    club = shown.club

    def link(pid: int) -> tuple[str, str]:
        return run.names.get(pid, "?"), urls.relative(path, urls.player(club, lang, pid))

    table = run.table
    crosstable = []
    for row in table.rows:
        name, href = link(row.player)
        note = ""
        if row.player in run.withdrawn:
            note = _("withdrawn")
        elif row.player in run.late:
            note = _("entered in round {n}", n=run.late[row.player])
        crosstable.append(
            CrossLine(
                number=row.number,
                place=row.place_text,
                pid=row.player,
                name=name,
                href=href,
                rank=row.rank,
                note=note,
                cells=row.cells,
                values=tuple(value_text(v) for v in row.values),
                change=_tournament_change(changes, row.player)[0],
            )
        )
    rounds = []
    for published in reversed(run.rounds):
        boards = []
        for board in published.boards:
            black, black_href = link(board.black)
            white, white_href = link(board.white)
            game = board.game
            boards.append(
                BoardLine(
                    number="" if board.number is None else str(board.number),
                    black=black,
                    black_href=black_href,
                    white=white,
                    white_href=white_href,
                    stones=str(board.stones) if board.stones else _("even"),
                    komi=fmt.komi(board.komi),
                    result=_("no result yet")
                    if board.waiting or game is None
                    else fmt.result(game.game),
                    waiting=board.waiting,
                )
            )
        rounds.append(
            RoundView(
                number=published.number,
                boards=boards,
                bye=None if published.bye is None else link(published.bye),
                idle=[link(pid) for pid in published.idle],
                waiting=[b.number for b in boards if b.waiting and b.number],
            )
        )
    return RunView(
        pairing=pairing_line(run.setup),
        headings=(_("No."), *headings(table)),
        rounds_shown=table.rounds,
        crosstable=crosstable,
        rated=bool(changes.players),
        rounds=rounds,
        waiting=len(run.waiting()),
    )


# --- the site's front page and the page that is not there ---------------------------------


async def index_page(site: Site, lang: str) -> Page:
    """The clubs whose pages are on the web."""
    path = "" if lang == "en" else f"{lang}.html"
    layout = _layout(path, lang, _("Go clubs on hoshi"), None, "{lang}.html")
    for i, (code, name, href) in enumerate(layout.languages):
        if href is not None and code == "en":
            layout.languages[i] = (code, name, urls.relative(path, ""))
    clubs = [
        (
            s.club.name,
            fmt.system_title(s.system),
            urls.relative(path, urls.ranking(s.club, s.settings.language)),
        )
        for s in await web_clubs(site.db)
    ]
    return _page("index.html", layout, clubs=clubs, today=date_text(site.today))


def not_found_page(lang: str, path: str = "404.html") -> Page:
    """The answer to an address with no page: the same for a club that keeps its pages off
    and for one that does not exist."""
    layout = _layout(path, lang, _("Page not found"), None, path)
    layout.languages = [(lang, own_name(lang), None)]  # no page in any language
    return _page("not_found.html", layout, home=urls.relative(path, ""))


def club_redirect_page(shown: Shown) -> Page:
    """The club's folder: sends the reader on to the ranking in the club's language (a static
    site has no redirects: a refresh and a link)."""
    path = urls.club_slug(shown.club) + "/"
    lang = shown.settings.language
    target = urls.relative(path, urls.ranking(shown.club, lang))
    layout = _layout(path, lang, shown.club.name, shown, urls.ranking(shown.club, "{lang}"))
    return _page("redirect.html", layout, target=target)
