"""A tournament's standings as a crosstable: a reply table and a PNG picture (issue 25, item 3).

The values come from :func:`engine.pairing.standings.standings`; this module only lays them
out. Conventions, as OpenGotha writes its h9 results (``ExternalDocument.generateH9File``):

* Rows are in place order. Each row has a *number* (its line, 1-based) and a *place*; tied
  players share the place, and the place is written on the first row of the tie only, the
  rows after it blank (``9``, ``""``, ``""``). A cell names its opponent by row number, so a
  tie never leaves two rows called alike.
* A round's cell: opponent's row number, the result mark (``+`` won, ``-`` lost, ``=`` jigo,
  ``?`` no result yet), ``/b`` or ``/w`` for the player's colour, then the handicap stones
  when there were any: ``5+/b2`` beat row 5 with Black taking two stones, ``3-/w`` lost to row
  3 with White in an even game, ``7=/w`` jigo. OpenGotha writes ``/w0`` for an even game;
  hoshi leaves the ``0`` out. Both won / both lost (a referee's decision) are ``+`` / ``-``.
  A result by default is written as any other (OpenGotha's ``!`` for ``/``): the engine's
  ``RoundGame`` scores it as played and does not say.
* A round without an opponent: ``0`` and the mark of the McMahon points it gave
  (OpenGotha ``halfGamesStrings``): ``0+`` a bye counted as a win, ``0=`` an absence worth half
  a point, ``0-`` an absence worth nothing, or a round the player was neither paired nor given
  the bye. A round after ``rounds`` is not shown.
* The tie-break columns are the criteria the tournament chose, as exact numbers. In a reply
  they are written as the reader's language writes a number (``12.5``, ``12,5``): a reply is
  read, not parsed; ``h9_text`` (``12½``) is for h9 files only.

Rendering a picture is CPU work (about a second for 40 players and 10 rounds): callers run
:func:`render_crosstable` off the event loop.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.text import Text
from matplotlib.transforms import IdentityTransform

from bot.core.chart import (
    EDGE_PX,
    TITLE_SIZE,
    _fit,
    _shorten,
    drawable,
    font_family,
)
from bot.core.replies import Table
from bot.i18n import N_, _, number_text
from engine.pairing.standings import (
    Criterion,
    RoundGame,
    Scoring,
    Standing,
    Unpaired,
)
from engine.types import Outcome

# Column titles of the criteria: OpenGotha's h9 titles (SOS for SOSM and SOSW alike), and the
# full names shown when a table has both the W and the M variant of one criterion
HEADINGS: Mapping[Criterion, tuple[str, str]] = {
    "NBW": (N_("Wins"), N_("Wins")),
    "MMS": (N_("MMS"), N_("MMS")),
    "SOSW": (N_("SOS"), N_("SOSW")),
    "SOSM": (N_("SOS"), N_("SOSM")),
    "SOSOSW": (N_("SOSOS"), N_("SOSOSW")),
    "SOSOSM": (N_("SOSOS"), N_("SOSOSM")),
    "SODOSW": (N_("SODOS"), N_("SODOSW")),
    "SODOSM": (N_("SODOS"), N_("SODOSM")),
}

DEFAULT_SCORING = Scoring()  # OpenGotha's defaults: a bye 1 point, an absence ½ (MMS)


@dataclass(frozen=True, slots=True)
class CrosstableRow:
    """One player's line. ``number`` is the row (what other rows' cells call the player),
    ``place`` the place shared with tied players; ``cells`` one text per round; ``values`` one
    exact number per column of the table."""

    number: int
    place: int
    player: int
    name: str
    rank: str
    cells: tuple[str, ...]
    values: tuple[Fraction, ...]

    @property
    def place_text(self) -> str:
        """The place as OpenGotha prints it: on the first row of a tie, blank after it."""
        return str(self.place) if self.place == self.number else ""


@dataclass(frozen=True, slots=True)
class Crosstable:
    """The standings after ``rounds`` rounds, rows in place order; ``columns`` the criteria
    shown after the rounds."""

    rounds: int
    columns: tuple[Criterion, ...]
    rows: tuple[CrosstableRow, ...]


def crosstable(
    standings: Sequence[Standing],
    names: Mapping[int, str],
    ranks: Mapping[int, str],
    games: Sequence[RoundGame],
    unpaired: Sequence[Unpaired],
    rounds: int,
    columns: Sequence[Criterion],
    scoring: Scoring = DEFAULT_SCORING,
) -> Crosstable:
    """The crosstable of ``standings`` (already in place order, as the engine returns them).

    Args:
        standings: the engine's standings after ``rounds`` rounds.
        names, ranks: each player's name and rank as shown, by player id.
        games, unpaired: the rounds' games and unplayed rounds (later rounds are left out).
        rounds: how many rounds to show.
        columns: the criteria shown after the rounds (usually the tournament's order).
        scoring: the points of a bye and an absence, which mark a cell ``0+``/``0=``/``0-``.

    Raises:
        ValueError: a game or unplayed round of a player not in ``standings``.
    """
    number = {s.id: i for i, s in enumerate(standings, start=1)}
    cells = {(r, s.id): "0-" for s in standings for r in range(1, rounds + 1)}
    for u in unpaired:
        if u.round > rounds:
            continue
        if u.player not in number:
            raise ValueError(f"round {u.round}: unknown player {u.player}")
        points_x2 = scoring.bye_mms_x2 if u.kind == "bye" else scoring.absent_mms_x2
        cells[(u.round, u.player)] = "0" + _mark(points_x2)
    for g in games:
        if g.round > rounds:
            continue
        for pid in (g.black, g.white):
            if pid not in number:
                raise ValueError(f"round {g.round}: unknown player {pid}")
        for pid, opp, colour in ((g.black, g.white, "b"), (g.white, g.black, "w")):
            stones = str(g.handicap) if g.handicap else ""
            cells[(g.round, pid)] = f"{number[opp]}{_result(g, colour == 'b')}/{colour}{stones}"
    rows = tuple(
        CrosstableRow(
            number=number[s.id],
            place=s.place,
            player=s.id,
            name=names.get(s.id, str(s.id)),
            rank=ranks.get(s.id, ""),
            cells=tuple(cells[(r, s.id)] for r in range(1, rounds + 1)),
            values=tuple(s.value(c) for c in columns),
        )
        for s in standings
    )
    return Crosstable(rounds, tuple(columns), rows)


def _mark(points_x2: int) -> str:
    """``+``, ``=`` or ``-`` for doubled points 2, 1, 0."""
    return "+" if points_x2 >= 2 else "=" if points_x2 == 1 else "-"


def _result(game: RoundGame, black: bool) -> str:
    """One side's result mark: ``?`` while unknown (OpenGotha writes the same)."""
    if game.double is not None:
        return "+" if game.double is Outcome.WIN else "-"
    if game.result is None:
        return "?"
    return _mark(int(game.result.score_for(black) * 2))


def headings(table: Crosstable) -> tuple[str, ...]:
    """The columns' titles in the current language: place, name, rank, ``R1`` …, criteria."""
    short = [HEADINGS[c][0] for c in table.columns]
    full = [short.count(HEADINGS[c][0]) > 1 for c in table.columns]  # both SOSW and SOSM
    criteria = [_(HEADINGS[c][int(f)]) for c, f in zip(table.columns, full, strict=True)]
    rounds = [_("R{n}", n=r) for r in range(1, table.rounds + 1)]
    return (_("Place"), _("Name"), _("Rank"), *rounds, *criteria)


def value_text(value: Fraction) -> str:
    """A criterion as the current language writes a number: ``12``, ``12.5``, ``3,25``
    (SODOS counts quarters)."""
    digits = next(d for d in range(3) if (value * 10**d).denominator == 1)
    return number_text(value, digits, grouped=False)


def standings_table(table: Crosstable) -> Table:
    """The crosstable as a reply table (monospace: every adapter shows it aligned)."""
    header = headings(table)
    rows = tuple(
        (
            row.place_text,
            row.name,
            row.rank,
            *row.cells,
            *(value_text(v) for v in row.values),
        )
        for row in table.rows
    )
    align = "rlr" + "l" * table.rounds + "r" * len(table.columns)
    return Table(header, rows, align)


# --- the picture ------------------------------------------------------------------------------

DPI = 120  # 40 players and 10 rounds come to about 1280 px, the side Telegram keeps
BODY_SIZE = 9  # points
NAME_MAX_PX = 270  # a longer name is shortened with "…"
GAP_PX = 12  # between columns
ROW_PAD_PX = 6  # above and below a row's tallest text
MARGIN_PX = 14
MIN_WIDTH_PX = 480
STRIPE = "#eef2f7"
WIN, LOSS, OTHER, HEAD = "#1b5e20", "#8e1b1b", "#222222", "#1f4e79"


def render_crosstable(table: Crosstable, title: str) -> bytes:
    """The crosstable as a PNG picture, as wide and tall as its columns and rows need."""
    fig = crosstable_figure(table, title)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


def crosstable_figure(table: Crosstable, title: str) -> Figure:
    """The crosstable as a matplotlib figure, laid out in pixels: every column as wide as its
    widest text (a name at most :data:`NAME_MAX_PX`, shortened with "…"), every row as tall
    as its tallest, the title set smaller then shortened to the picture's width. Texts are
    measured with the renderer that draws them, so none lies over another or past the edge."""
    family = list(font_family())
    fig = Figure(figsize=(4, 3), dpi=DPI)
    FigureCanvasAgg(fig)
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    header = headings(table)
    lines: list[tuple[str, ...]] = [tuple(drawable(h) for h in header)]
    for row in table.rows:
        lines.append(
            (
                row.place_text,
                drawable(row.name),
                drawable(row.rank),
                *row.cells,
                *(value_text(v) for v in row.values),
            )
        )
    ncols = len(header)
    align = ["right", "left", "right"] + ["center"] * table.rounds + ["right"] * len(table.columns)
    texts: list[list[Text]] = []
    for i, line in enumerate(lines):
        texts.append(
            [
                fig.text(
                    0,
                    0,
                    cell,
                    fontsize=BODY_SIZE,
                    fontfamily=family,
                    ha=align[j],
                    va="baseline",
                    color=HEAD
                    if i == 0
                    else _colour(cell)
                    if 3 <= j < 3 + table.rounds
                    else OTHER,
                )
                for j, cell in enumerate(line)
            ]
        )
    for drawn in texts[1:]:  # names only: the other columns are short
        _shorten(drawn[1], renderer, lambda box: box.width <= NAME_MAX_PX)
    widths = [0.0] * ncols
    ascent = descent = 0.0
    for drawn in texts:
        for j, text in enumerate(drawn):
            if not text.get_text():
                continue
            box = text.get_window_extent(renderer)  # at the origin: y0 is minus the descent
            widths[j] = max(widths[j], box.width)
            ascent, descent = max(ascent, box.y1), max(descent, -box.y0)
    row_px = ascent + descent + 2 * ROW_PAD_PX
    table_px = sum(widths) + GAP_PX * (ncols - 1)
    width_px = max(MIN_WIDTH_PX, table_px + 2 * MARGIN_PX)
    heading = fig.text(
        0.5, 0, drawable(title), fontsize=TITLE_SIZE, fontfamily=family, ha="center", va="top"
    )
    title_px = heading.get_window_extent(renderer).height + ROW_PAD_PX
    height_px = 2 * MARGIN_PX + title_px + row_px * len(lines)
    fig.set_size_inches(width_px / DPI, height_px / DPI)
    # the title: set smaller, then shortened, to the picture's width
    heading.set_y(1 - MARGIN_PX / height_px)
    _fit(heading, renderer, lambda box: box.width <= width_px - 2 * (EDGE_PX + MARGIN_PX))
    left = (width_px - table_px) / 2
    top = height_px - MARGIN_PX - title_px
    for i, drawn in enumerate(texts):
        baseline = top - row_px * i - ROW_PAD_PX - ascent
        if i % 2 == 1:
            stripe = Rectangle(
                (left - GAP_PX / 2, top - row_px * (i + 1)),
                table_px + GAP_PX,
                row_px,
                transform=IdentityTransform(),
                facecolor=STRIPE,
                edgecolor="none",
                zorder=0,
            )
            fig.add_artist(stripe)
        x = left
        for j, text in enumerate(drawn):
            anchor = {"left": x, "center": x + widths[j] / 2, "right": x + widths[j]}[align[j]]
            text.set_position((anchor / width_px, baseline / height_px))
            x += widths[j] + GAP_PX
    rule = top - row_px  # under the header
    ends = (left - GAP_PX / 2, left + table_px + GAP_PX / 2)
    fig.add_artist(Line2D(ends, (rule, rule), transform=IdentityTransform(), lw=0.8, c="#555555"))
    return fig


def _colour(cell: str) -> str:
    """A won round green, a lost one red, the others dark grey."""
    mark = cell.split("/", 1)[0][-1:]
    return WIN if mark == "+" else LOSS if mark == "-" else OTHER
