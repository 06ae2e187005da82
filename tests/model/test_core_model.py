"""The model-checked core (issue 22): a stateful property test of bot.core through the console.

A hypothesis state machine types console lines — the organiser's and members' (``/as``) — into
one club on one SQLite file: registrations, results (dated, backdated, duplicates + ``again``,
margins, handicaps, time controls, boards), tournaments typed round by round and imported (h9,
XML, CSV, the same file twice), finalise / reopen, ``/void``, ``/correct`` (every field),
``/undo``, ``/club set`` (rating settings, time, system, language), ``/egf``, overrides,
``/tick`` across days, months, periods and weekly summaries. After every step it checks:

* **incident**: no reply is an incident ("Something went wrong");
* **refused**: a refused command changes no row of any table;
* **numbers**: every ``#N`` a reply shows is the club's own number and resolves; no reply
  shows a log position or an internal id;
* **replay**: the stored projections equal a full replay of the log, byte for byte;
* **undo**: ``/undo`` restores the projections of before the step it takes back;
* **no-op**: reopening a finalised tournament and finalising it unchanged changes nothing —
  cards, history, weekly summary, month changes, web pages, exports;
* **preview**: MGSZ's "if the period ended now" Elo is what the period's close gives, and a
  Tensuusei pending amount is its settlement, when nothing else happens;
* **liveness**: once the clock has passed every due moment nothing is pending;
* **reports**: ``/top``, the web list, the JSON export and the month changes agree with the
  cards and histories they are computed from;
* **calendar** (at the end of each example): the same dated facts entered in another order
  (by date) give the same cards, histories and tournament entry ranks under all five systems.

A failure names the invariant and prints the steps as a console script (``hoshi console --db
x.sqlite --clock "…" --system S < script.txt`` reproduces it). CI runs a bounded number of
examples; ``HOSHI_MODEL_EXAMPLES=N`` runs N (and explores beyond the fixed seed).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import storage
from storage import schedules
from storage.projections import replay_club
from tests.model import steps as S
from tests.model import views
from tests.model.known import known
from tests.model.session import Said, Session, render

EXAMPLES = int(os.environ.get("HOSHI_MODEL_EXAMPLES", "0"))
LONG = EXAMPLES > 0
INCIDENT = re.compile(r"incident ([0-9a-f]+)")
# what a reply may call by the club's number
GAME_NUMBER = re.compile(r"\b(?:[Gg]ames?|[Rr]eports?|[Gg]ame and) #(\d+)")
TOURNAMENT_NUMBER = re.compile(r"\b[Tt]ournaments? #(\d+)")
ANY_NUMBER = re.compile(r"#(\d+)\b")
INTERNAL = re.compile(
    r"\b(?:game|tournament|player|seq|id):\s?\d+"  # a source or placeholder shown as it is
    r"|\b[Gg]ame \d+\b(?! (?:games?|players?|rounds?|stones?|points?)\b)"  # "game 12"
)
CUPS = ("Alpha Cup", "Beta Cup", "Gamma Cup", "Delta Cup")
FAR = dt.timedelta(days=75)
"""How far the final tick goes: past every due moment of the facts (two month ends)."""


class Incidents(logging.Handler):
    """The tracebacks the core logs under an incident reference."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.found: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if INCIDENT.search(record.getMessage()):
            text = record.getMessage()
            if record.exc_info:
                text += "\n" + logging.Formatter().formatException(record.exc_info)
            self.found.append(text)


@dataclass
class Fact:
    """A dated fact as typed: its date and its console lines (a typed tournament's whole life
    is one fact: opened, its rounds, finalised, reopened …)."""

    date: dt.date
    lines: list[tuple[str, str | None]] = field(default_factory=list)
    at: dt.datetime | None = None
    """The moment it was typed, when the clock dates it (an override)."""


@dataclass
class Cup:
    """A tournament the model typed."""

    name: str
    start: dt.date
    end: dt.date
    rounds: int
    fact: Fact
    finalised: bool = False


def winner(game: Any) -> Any:
    """Who won a game (``None``: a jigo or no result)."""
    if game.result is None or game.result.value == "jigo":
        return None
    return game.black if game.result.value == "B+" else game.white


class CoreModel(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.runner = asyncio.Runner()
        self.dir = Path(tempfile.mkdtemp(prefix="hoshi-model-ex-"))
        self.session: Session | None = None
        self.system = "mgsz"
        self.start = S.STARTS[0]
        self.steps: list[tuple[str, str | None]] = []
        self.registrations: list[tuple[dt.datetime, str]] = []
        self.players: list[str] = []
        self.facts: list[Fact] = []
        self.cups: list[Cup] = []
        self.pure = True  # only facts, ticks and reads so far: the calendar compares the club
        self.undoable: list[dict[str, Any]] = []  # projections before each undoable step
        self.last_result: str | None = None
        self.reports_on = False
        self.linked: set[str] = set()
        self.imports: set[tuple[str, str]] = set()
        self.incidents = Incidents()
        logging.getLogger().addHandler(self.incidents)

    # -- plumbing -----------------------------------------------------------------------------

    def run(self, coro: Any) -> Any:
        return self.runner.run(coro)

    @property
    def s(self) -> Session:
        assert self.session is not None
        return self.session

    @property
    def today(self) -> dt.date:
        return self.s.now.date()

    def script(self) -> str:
        return render(self.system, self.start, self.steps)

    def fail(self, invariant_name: str, message: str) -> None:
        raise AssertionError(
            f"invariant {invariant_name!r} broken: {message}\n\n"
            f"--- script.txt ---\n{self.script()}\n--- end ---"
        )

    def step(
        self, line: str, block: str | None = None, *, undoable: bool = False, reads: bool = False
    ) -> Said:
        """Type one console line and check what must hold after every step."""
        before_projections = None
        if undoable:  # first: catching the shadows up writes their rows (not the step's)
            before_projections = self.run(views.projections(self.s, state=False))
        before = None if reads else self.run(views.tables(self.s))
        self.steps.append((line, block))
        note(line if block is None else f"{line} <<END\n{block}END")
        said = self.run(self.s.run(line, block))
        self.check_incidents(said)
        self.check_numbers(said)
        if before is not None and said.error:
            after = self.run(views.tables(self.s))
            if after != before:
                self.fail(
                    "refused",
                    f"{line!r} was refused but changed:\n" + views.differences(before, after),
                )
        if not reads and not said.error:
            wrote = self.run(self.log_size()) != len((before or {}).get("log", ()))
            if not wrote:
                pass  # nothing entered (a setting given its own value): nothing to take back
            elif undoable and not line.startswith("/as "):
                self.undoable.append(before_projections or {})
            elif not line.startswith("/undo"):
                self.undoable.clear()  # what an /undo would take back is not this step
            self.check_replay(line)
        return said

    async def log_size(self) -> int:
        row = await self.s.db.fetchone("SELECT COUNT(*) FROM log")
        assert row is not None
        return int(row[0])

    def check_incidents(self, said: Said) -> None:
        if self.incidents.found or "Something went wrong" in said.text:
            found = "\n".join(self.incidents.found)
            self.incidents.found.clear()
            self.fail("incident", f"{said.line!r} answered:\n{said.text}\n{found}")

    def check_numbers(self, said: Said) -> None:
        text = said.text
        if not text:
            return
        if known("psg-history-ids") and said.line.startswith("/history"):
            text = re.sub(r"\bgame \d+:", "game:", text)
        if INTERNAL.search(text):
            self.fail("numbers", f"{said.line!r} shows an internal id:\n{text}")
        games = self.run(storage.club_games(self.s.db, self.s.club))
        game_numbers = {g.number for g in games}
        rows = self.run(storage.tournaments(self.s.db, self.s.club))
        cup_numbers = {r.number for r in rows}
        for match in GAME_NUMBER.finditer(text):
            if int(match[1]) not in game_numbers:
                self.fail(
                    "numbers",
                    f"{said.line!r} shows game #{match[1]}, which the club "
                    f"does not have (its games: {sorted(game_numbers)}):\n{text}",
                )
        for match in TOURNAMENT_NUMBER.finditer(text):
            if int(match[1]) not in cup_numbers:
                self.fail(
                    "numbers",
                    f"{said.line!r} shows tournament #{match[1]}, which the "
                    f"club does not have (its tournaments: {sorted(cup_numbers)}):\n{text}",
                )
        highest = max([0, *game_numbers, *cup_numbers, len(self.players) + 20])
        for match in ANY_NUMBER.finditer(text):
            if int(match[1]) > highest:
                self.fail(
                    "numbers",
                    f"{said.line!r} shows #{match[1]}, more than any number "
                    f"of the club (a log position?):\n{text}",
                )

    def check_replay(self, line: str) -> None:
        stored = self.run(views.projections(self.s))
        self.run(replay_club(self.s.db, self.s.club))
        replayed = self.run(views.projections(self.s))
        if stored != replayed:
            self.fail(
                "replay",
                f"after {line!r} the projections differ from a replay:\n"
                + views.differences(stored, replayed),
            )

    def impure(self) -> None:
        self.pure = False

    def games(self) -> list[storage.GameRow]:
        return self.run(storage.club_games(self.s.db, self.s.club))

    def name(self, i: int) -> str:
        return self.players[i % len(self.players)]

    # -- the club -----------------------------------------------------------------------------

    @initialize(
        system=st.sampled_from(S.SYSTEMS),
        start=st.sampled_from(S.STARTS),
        first=st.lists(st.integers(0, len(S.PLAYERS) - 1), min_size=2, max_size=4, unique=True),
    )
    def open_club(self, system: str, start: dt.datetime, first: list[int]) -> None:
        self.system, self.start = system, start
        self.session = self.run(Session.start(self.dir / "x.sqlite", system, start))
        for i in first:
            self.register_known(i)

    def register_known(self, i: int, rank: str | None = None, override: bool = False) -> None:
        name, own_rank, rating = S.PLAYERS[i]
        line = f"/register {name} {rank or own_rank}"
        if rating is not None and rank is None:
            line += f" {rating}"
        if override:
            line += " override"
        known_before = len(self.run(storage.players(self.s.db, self.s.club, guests=True)))
        said = self.step(line, undoable=True)
        registered = len(self.run(storage.players(self.s.db, self.s.club, guests=True)))
        # only a line that registered someone is a fact the calendar check types again (a
        # question asked back, or a refusal, registers nobody)
        if not said.error and registered > known_before:
            self.registrations.append((self.s.now, line))
            if name not in self.players:
                self.players.append(name)

    @rule(
        i=st.integers(0, len(S.PLAYERS) - 1),
        rank=st.sampled_from((None, *S.RANKS)),
        override=st.booleans(),
    )
    def register(self, i: int, rank: str | None, override: bool) -> None:
        self.register_known(i, rank, override)

    @precondition(lambda self: len(self.players) >= 2)
    @rule(
        a=S.index,
        b=S.index,
        result=st.sampled_from(S.RESULTS),
        back=S.days_back,
        h=st.sampled_from((None, 0, 2, 4, 9)),
        komi=st.sampled_from(S.KOMIS),
        time=st.sampled_from(S.TIMES),
        board=st.sampled_from(S.BOARDS),
    )
    def result(
        self,
        a: int,
        b: int,
        result: str,
        back: int,
        h: int | None,
        komi: str | None,
        time: str | None,
        board: str | None,
    ) -> None:
        black, white = self.name(a), self.name(b)
        if black == white and known("self-pairing"):
            white = self.name(a + 1)
        date = S.day(self.today, back)
        line = S.result_line(
            black, white, result, h=h, komi=komi, date=date, time=time, board=board
        )
        self.dated_result(line, date)

    def dated_result(self, line: str, date: str) -> None:
        count = len(self.games())
        said = self.step(line, undoable=True)
        self.last_result = line if "again" not in line else None
        if not said.error and len(self.games()) > count:
            self.facts.append(Fact(dt.date.fromisoformat(date), [(line, None)]))

    @precondition(lambda self: self.last_result is not None)
    @rule()
    def result_again(self) -> None:
        """The same game once more, recorded on purpose (``again``)."""
        assert self.last_result is not None
        line = self.last_result + " again"
        date = re.search(r"date=(\S+)", line)
        assert date is not None
        self.dated_result(line, date[1])

    # -- player reports -----------------------------------------------------------------------

    @precondition(lambda self: len(self.players) >= 2)
    @rule(
        a=S.index,
        b=S.index,
        result=st.sampled_from(("B+", "W+", "W+R")),
        back=st.integers(0, 3),
        confirm=st.sampled_from(("opponent", "organiser", "none")),
    )
    def member_report(self, a: int, b: int, result: str, back: int, confirm: str) -> None:
        black, white = self.name(a), self.name(b)
        if black == white:
            return
        if not self.reports_on:
            self.step("/club set reports on")
            self.reports_on = True
        for who in (black, white):
            if who not in self.linked:
                # a member asks; the organiser presses the reply's Confirm button (issue 26)
                asked = self.step(f"/as {who} /link {who}")
                confirm = re.search(r"\[button: [^]]+\] → (/link .+)", asked.text)
                if not asked.error and confirm is not None:
                    said = self.step(confirm[1])
                    if not said.error:
                        self.linked.add(who)
        self.impure()
        before = {g.number for g in self.games()}
        date = S.day(self.today, back)
        self.step(f"/as {black} /result {black} {white} {result} date={date}")
        new = [g.number for g in self.games() if g.number not in before]
        if new and confirm == "opponent":
            self.step(f"/as {white} /confirm {new[0]}")
        elif new and confirm == "organiser":
            self.step(f"/confirm {new[0]}")

    # -- tournaments typed --------------------------------------------------------------------

    @precondition(lambda self: len(self.cups) < len(CUPS) and len(self.players) >= 2)
    @rule(
        back=st.integers(0, 40),
        days=st.integers(0, 2),
        rounds=st.integers(1, 3),
        kind=st.sampled_from(("", " handicap reduce=1", " C=20", " class=B", " time=5m")),
    )
    def tournament_new(self, back: int, days: int, rounds: int, kind: str) -> None:
        end = self.today - dt.timedelta(days=back)
        start = end - dt.timedelta(days=days)
        name = CUPS[len(self.cups)]
        line = f"/tournament new {name} start={start} end={end} rounds={rounds} time=60m{kind}"
        said = self.step(line)
        if not said.error:
            fact = Fact(start, [(line, None)])
            self.facts.append(fact)
            self.cups.append(Cup(name, start, end, rounds, fact))

    @precondition(lambda self: bool(self.cups))
    @rule(
        t=S.small,
        rnd=st.integers(1, 3),
        a=S.index,
        b=S.index,
        result=st.sampled_from(S.RESULTS),
        h=st.sampled_from((None, 0, 3)),
        on=st.integers(0, 2),
    )
    def tournament_result(
        self, t: int, rnd: int, a: int, b: int, result: str, h: int | None, on: int
    ) -> None:
        cup = self.cups[t % len(self.cups)]
        black, white = self.name(a), self.name(b)
        if black == white and known("self-pairing"):
            white = self.name(a + 1)
        date = min(cup.start + dt.timedelta(days=on), cup.end)
        line = f"/tournament result {rnd} {black} {white} {result}"
        if h is not None:
            line += f" h={h}"
        line += f" date={date} t={cup.name}"
        said = self.step(line, undoable=True)
        if black == white and not said.error:
            self.fail(
                "self-pairing",
                f"a tournament game of a player with themselves was recorded:\n{said.text}",
            )
        if not said.error:
            cup.fact.lines.append((line, None))

    @precondition(lambda self: bool(self.cups))
    @rule(t=S.small)
    def tournament_finalise(self, t: int) -> None:
        cup = self.cups[t % len(self.cups)]
        line = f"/tournament finalise {cup.name} confirm"
        said = self.step(line)
        if not said.error:
            cup.fact.lines.append((line, None))
            cup.finalised = True

    @precondition(lambda self: any(c.finalised for c in self.cups))
    @rule(t=S.small)
    def reopen_and_finalise(self, t: int) -> None:
        """Reopening a rated tournament and rating it again unchanged changes nothing."""
        done = [c for c in self.cups if c.finalised]
        cup = done[t % len(done)]
        before = self.run(self.everything())
        reopened = self.step(f"/tournament reopen {cup.name}")
        if reopened.error:
            return
        cup.fact.lines.append((f"/tournament reopen {cup.name}", None))
        cup.finalised = False
        line = f"/tournament finalise {cup.name} confirm"
        said = self.step(line)
        if said.error:
            return
        cup.fact.lines.append((line, None))
        cup.finalised = True
        after = self.run(self.everything())
        if known("noop-summary"):
            before.pop("summary"), after.pop("summary")
        if before != after:
            self.fail(
                "no-op",
                f"reopening and finalising {cup.name} unchanged changed:\n"
                + views.differences(before, after),
            )

    @precondition(lambda self: bool(self.cups))
    @rule(t=S.small)
    def tournament_reopen(self, t: int) -> None:
        cup = self.cups[t % len(self.cups)]
        line = f"/tournament reopen {cup.name}"
        said = self.step(line)
        if not said.error:
            cup.fact.lines.append((line, None))
            cup.finalised = False

    async def everything(self) -> dict[str, Any]:
        return {**await views.facts(self.s), **await views.outputs(self.s)}

    # -- tournaments imported -----------------------------------------------------------------

    @rule(file=st.sampled_from(sorted(S.FILES)), committee=st.booleans())
    def tournament_import(self, file: str, committee: bool) -> None:
        line = "/tournament import" + (" committee" if committee else "")
        self.imported(line, S.FILES[file], S.FILE_DATES[file])

    @precondition(lambda self: len(self.players) >= 2)
    @rule(
        back=st.integers(0, 30),
        a=S.index,
        b=S.index,
        c=S.index,
        results=st.lists(st.sampled_from(("B+", "W+", "W+R", "jigo")), min_size=2, max_size=2),
        name=st.sampled_from(("CSV Open", "CSV Open", "Night Cup")),
    )
    def tournament_import_csv(
        self, back: int, a: int, b: int, c: int, results: list[str], name: str
    ) -> None:
        date = S.day(self.today, back)
        x, y, z = self.name(a), self.name(b), self.name(c)
        rows = [(date, x, y, results[0], 1), (date, y, z, results[1], 2)]
        if x == y or y == z:
            return
        self.imported(
            f"/tournament import name={name}", S.csv_table(rows), dt.date.fromisoformat(date)
        )

    def imported(self, line: str, block: str, date: dt.date) -> None:
        count = len(self.games())
        again = (line, block) in self.imports
        before = self.run(views.facts(self.s)) if again else None
        said = self.step(line, block)
        if again and not said.error and not known("import-twice"):
            after = self.run(views.facts(self.s))
            if len(self.games()) != count or after != before:
                self.fail(
                    "import-twice",
                    "the same file imported again changed the club:\n"
                    + said.text
                    + "\n"
                    + views.differences(before or {}, after),
                )
        if not said.error:
            self.imports.add((line, block))
        if not said.error and len(self.games()) > count:
            self.facts.append(Fact(date, [(line, block)]))
            for name in self.run(storage.players(self.s.db, self.s.club)):
                if name.name not in self.players:
                    self.players.append(name.name)

    # -- fixing -------------------------------------------------------------------------------

    @precondition(lambda self: bool(self.games()))
    @rule(n=st.integers(0, 30))
    def void(self, n: int) -> None:
        games = self.games()
        number = games[n % len(games)].number
        self.impure()
        self.step(f"/void {number}", undoable=True)

    @precondition(lambda self: bool(self.games()))
    @rule(n=st.integers(0, 30), what=st.integers(0, len(S.CORRECTIONS) - 1), v=S.index)
    def correct(self, n: int, what: int, v: int) -> None:
        games = self.games()
        number = games[n % len(games)].number
        key, values = S.CORRECTIONS[what]
        if key == "swap":
            option = "swap"
        elif key == "date":
            option = f"date={S.day(self.today, v * 3)}"
        elif key in ("black", "white"):
            option = f"{key}={self.name(v)}"
        else:
            option = f"{key}={values[v % len(values)]}"
        self.impure()
        before = self.run(storage.game_by_number(self.s.db, self.s.club, number))
        said = self.step(f"/correct {number} {option}", undoable=True)
        if not said.error and said.text.lstrip().startswith("Record it as written?"):
            # asked as /result asks (a far date, the stronger player with the stones): nothing
            # changed; answered as the question offers
            said = self.step(f"/correct {number} {option} confirm", undoable=True)
        if key == "swap" and not said.error and not known("swap-winner"):
            after = self.run(storage.game_by_number(self.s.db, self.s.club, number))
            assert before is not None and after is not None
            if winner(before.game) != winner(after.game):
                self.fail(
                    "swap",
                    f"/correct {number} swap changed who won: "
                    f"{before.game} → {after.game}\n{said.text}",
                )

    @rule()
    def undo(self) -> None:
        expected = self.undoable.pop() if self.undoable else None
        finalised_before = self.run(self.finalised_games())
        names_before = self.run(self.registered_names())
        said = self.step("/undo")
        self.impure()
        if said.error:
            if expected is not None:
                self.undoable.append(expected)
            return
        for name in names_before - self.run(self.registered_names()):
            # the registration was taken back: no longer a fact the calendar check types
            typed = [
                i
                for i, (_at, line) in enumerate(self.registrations)
                if line.startswith(f"/register {name} ")
            ]
            if typed:  # (a player a file brought is not among the typed registrations)
                del self.registrations[typed[-1]]
        # a game of a tournament that stays finalised changes only by reopening it; /undo
        # of the finalisation itself reopens the tournament (and says so)
        finalised_after = self.run(self.finalised_games())
        changed = {
            name: games
            for name, games in finalised_after.items()
            if name in finalised_before and finalised_before[name] != games
        }
        if changed and not known("undo-finalised"):
            self.fail("undo", "/undo changed the games of a finalised tournament:\n" + said.text)
        if expected is None or known("undo"):
            return
        now = self.run(views.projections(self.s, state=False))
        if now != expected:
            self.fail(
                "undo",
                "/undo did not restore the projections of before the step:\n"
                + said.text
                + "\n"
                + views.differences(expected, now),
            )

    async def registered_names(self) -> set[str]:
        return {p.name for p in await storage.players(self.s.db, self.s.club, guests=True)}

    async def finalised_games(self) -> dict[str, list[int]]:
        found = {}
        games = await storage.club_games(self.s.db, self.s.club)
        for row in await storage.tournaments(self.s.db, self.s.club):
            if row.finalised:
                found[row.tournament.name] = sorted(
                    g.number for g in games if g.game.tournament == row.id and g.status == "ok"
                )
        return found

    # -- settings, committee, EGF ---------------------------------------------------------

    @rule(
        which=st.integers(0, len(S.SETTINGS) - 1),
        v=st.integers(0, 4),
        back=st.sampled_from((None, 0, 10, 40)),
    )
    def club_set(self, which: int, v: int, back: int | None) -> None:
        key, values = S.SETTINGS[which]
        value = values[v % len(values)]
        line = f"/club set {key} {value}"
        if back is not None and "." in key:
            line += f" from={S.day(self.today, back)}"
        self.impure()
        said = self.step(line, undoable="." in key)
        if not said.error and key == "system":
            self.system_now = value

    @precondition(lambda self: bool(self.players))
    @rule(i=S.index, rank=st.sampled_from(S.RANKS), rating=st.sampled_from((None, 1500, 2100)))
    def override(self, i: int, rank: str, rating: int | None) -> None:
        what = f"rating={rating}" if rating is not None else f"rank={rank}"
        line = f'/override {self.name(i)} {what} reason="committee"'
        said = self.step(line, undoable=True)
        if not said.error:  # a committee decision dated by the clock: a fact of that moment
            self.facts.append(Fact(self.today, [(line, None)], at=self.s.now))

    @precondition(lambda self: bool(self.players))
    @rule(
        i=S.index,
        rating=st.sampled_from((1450, 1980, 2210, 2460)),
        month=st.integers(0, 2),
    )
    def egf(self, i: int, rating: int, month: int) -> None:
        first = self.today.replace(day=1)
        for _ in range(month):
            first = (first - dt.timedelta(days=1)).replace(day=1)
        line = f"/egf {self.name(i)} {rating} {first:%Y-%m}"
        said = self.step(line, undoable=True)
        if not said.error:
            self.facts.append(Fact(first, [(line, None)]))

    @rule(
        when=st.sampled_from(("on", "on sun 20:00", "on wed 09:00", "off")),
    )
    def weekly(self, when: str) -> None:
        self.step(f"/weekly {when}")

    # -- time ---------------------------------------------------------------------------------

    @rule(by=st.sampled_from(S.TICKS))
    def tick(self, by: str) -> None:
        self.step(f"/tick {by}")

    @rule()
    def tick_month_end(self) -> None:
        """To just past the month's end, checking the previews against what settles."""
        today = self.today
        first = (today.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
        previews = self.run(self.previews())
        self.step(f"/tick {first} 00:05")
        self.check_previews(previews)

    async def previews(self) -> dict[str, Any] | None:
        """What each card says will settle — MGSZ's Elo if the period ended now, Tensuusei's
        pending points — with the history rows so far (``None`` when something else may
        happen meanwhile: a tournament open or scheduled, a report pending)."""
        db, club = self.s.db, self.s.club
        if await storage.open_tournaments(db, club) or await storage.pending_games(db, club):
            return None
        found: dict[str, Any] = {}
        for player in await storage.players(db, club):
            for system in ("mgsz", "tensuusei"):
                try:
                    card = await storage.card(db, club, player.id, system)
                except storage.NotFound:
                    continue
                if system == "mgsz":
                    promised = [m.value for m in card.values if m.key == "pending_elo"]
                    if not promised:
                        continue
                    if known("mgsz-preview-months") and await self.late_club_games(player.id):
                        continue
                    value = promised[0]
                elif card.pending is not None:
                    value = card.pending.amount
                else:
                    continue
                rows = await storage.history(db, club, player.id, None, system)
                found[f"{system} {player.name}"] = (player.id, value, {r.seq for r in rows})
        return found

    async def late_club_games(self, player: int) -> bool:
        """Whether the player has a club game waiting from a month before this one (a late
        entry for a month whose period has ended)."""
        this_month = self.today.replace(day=1)
        return any(
            g.status == "ok"
            and g.game.tournament is None
            and g.game.date < this_month
            and player in (g.game.black, g.game.white)
            for g in await storage.club_games(self.s.db, self.s.club)
        )

    def check_previews(self, previews: dict[str, Any] | None) -> None:
        """What settled is what was shown: the MGSZ period's row ends at the Elo shown "if
        the period ended now"; the Tensuusei days' rows add up to the pending amount."""
        if not previews:
            return
        db, club = self.s.db, self.s.club
        for key, (pid, promised, seen) in previews.items():
            system, _sep, name = key.partition(" ")
            if known(f"preview-{system}"):
                continue
            rows = self.run(storage.history(db, club, pid, None, system))
            new = [r for r in rows if r.seq not in seen and r.status == "rated"]
            if system == "mgsz":
                periods = [r for r in new if r.source.startswith("tournament:")]
                got = periods[0].rating_after if periods else None  # newest first
            else:
                days = [r for r in new if r.source.startswith("day:")]
                got = sum(r.rating_after - r.rating_before for r in days)  # type: ignore[operator,misc]
            if got != promised:
                shown = [(r.date, r.source, r.rating_before, r.rating_after) for r in new]
                self.fail(
                    "preview",
                    f"{system}: {name} was shown {promised} until the settlement, which gave "
                    f"{got} (new rows: {shown})",
                )

    # -- reads ------------------------------------------------------------------------------

    @precondition(lambda self: bool(self.players))
    @rule(
        i=S.index,
        what=st.sampled_from(("/rating {} all", "/history {}", "/promotion {}", "/rating {}")),
    )
    def read_player(self, i: int, what: str) -> None:
        self.step(what.format(self.name(i)), reads=True)

    @precondition(lambda self: len(self.players) >= 2)
    @rule(a=S.index, b=S.index)
    def handicap(self, a: int, b: int) -> None:
        x, y = self.name(a), self.name(b)
        if x == y and known("self-pairing"):
            return
        said = self.step(f"/handicap {x} {y}", reads=True)
        if x == y and not said.error:
            self.fail(
                "self-pairing", f"/handicap of a player with themselves was answered:\n{said.text}"
            )

    @rule(
        what=st.sampled_from(
            (
                "/top 50",
                "/tournament list",
                "/summary",
                "/export csv",
                "/export json",
                "/export games",
            )
        )
    )
    def read_club(self, what: str) -> None:
        self.step(what, reads=True)

    @precondition(lambda self: bool(self.cups) or bool(self.facts))
    @rule(n=st.integers(1, 6), export=st.booleans())
    def read_tournament(self, n: int, export: bool) -> None:
        rows = self.run(storage.tournaments(self.s.db, self.s.club))
        if not rows:
            return
        row = rows[n % len(rows)]
        if export and known("h9-export"):
            return
        line = f"/export h9 #{row.number}" if export else f"/tournament show #{row.number}"
        said = self.step(line, reads=True)
        if said.error:
            self.fail("numbers", f"tournament #{row.number} does not resolve:\n{said.text}")

    # -- every step -----------------------------------------------------------------------

    @invariant()
    def reports_agree(self) -> None:
        if self.session is None or known("reports"):
            return
        self.run(self.check_reports())

    async def check_reports(self) -> None:
        db, club = self.s.db, self.s.club
        standing = await storage.standings(db, club)
        names = {p.id: p.name for p in await storage.players(db, club)}
        order = [s.player.name for s in standing]
        top = (await self.s.run(f"/top {max(len(order), 1) + 5}")).text
        places = [top.find(n) for n in order]
        if -1 in places or places != sorted(places):
            self.fail("reports", f"/top does not list the ranking in its order {order}:\n{top}")
        # month changes are the histories' first "before" and last "after" since the 1st
        since = self.today.replace(day=1)
        for system in views.ALL_SYSTEMS:
            changes = await storage.month_changes(db, club, since, system)
            expected = {}
            for pid in names:
                rows = [
                    r
                    for r in await storage.history(db, club, pid, None, system, undone=False)
                    if r.date >= since and r.status in ("rated", "corrected")
                ]
                if rows:  # newest first, in calendar order
                    expected[pid] = (rows[-1].rating_before, rows[0].rating_after)
            got = {p: v for p, v in changes.items() if p in names}
            if got != expected:
                self.fail(
                    "reports",
                    f"{system}: month changes since {since} {got} are not "
                    f"what the histories say {expected}",
                )

    def teardown(self) -> None:
        try:
            if self.session is not None:
                self.finish()
        finally:
            try:
                if self.session is not None:
                    self.run(self.session.close())
            finally:
                self.runner.close()
                logging.getLogger().removeHandler(self.incidents)
                shutil.rmtree(self.dir, ignore_errors=True)

    def finish(self) -> None:
        """The end of an example: the clock past every due moment (liveness), then the same
        facts entered by date into a fresh club (calendar)."""
        end = self.s.now + FAR
        self.step(f"/tick {end:%Y-%m-%d %H:%M}")
        self.check_liveness()
        self.check_calendar(end)

    def check_liveness(self) -> None:
        db, club = self.s.db, self.s.club
        waiting = []
        for player in self.run(storage.players(db, club)):
            for system in views.ALL_SYSTEMS:
                try:
                    card = self.run(storage.card(db, club, player.id, system))
                except storage.NotFound:
                    continue
                if card.pending is not None and not known(f"liveness-{system}"):
                    waiting.append(f"{player.name} under {system}: {card.pending}")
        due = self.run(self.due(db, club))
        if due and not known("liveness-tensuusei"):
            waiting.append(f"still due under the rulebooks: {due}")
        now = self.s.now
        for target, when in self.run(schedules.scheduled_finalisations(db, club)):
            if when <= now:
                row = self.run(storage.tournament(db, club, target))
                if not row.finalised:
                    waiting.append(f"{row.tournament.name} scheduled {when}, not finalised")
        if waiting:
            self.fail("liveness", "with the clock past every due moment:\n" + "\n".join(waiting))

    async def due(self, db: storage.Database, club: Any) -> list[Any]:
        """What the club's rulebooks still have due on its today (``RatingSystem.due``: days,
        months and club periods to end)."""
        found = []
        for system in views.ALL_SYSTEMS:
            found.extend((await storage.ledger(db, club, system)).due(self.today))
        return found

    def check_calendar(self, end: dt.datetime) -> None:
        if known("calendar") or not self.facts:
            return
        entered = self.run(self.shadow(self.facts, end, "entered"))
        by_date = sorted(self.facts, key=lambda f: f.date)
        dated = self.run(self.shadow(by_date, end, "by-date"))
        if entered != dated:
            self.fail(
                "calendar",
                "the same facts entered by date give other projections "
                "than entered as they were:\n"
                + views.differences(entered, dated)
                + "\n--- by date ---\n"
                + self.fact_script(by_date),
            )
        if self.pure:
            mine = {**self.run(views.facts(self.s)), "refused": []}
            if mine != dated:
                self.fail(
                    "calendar",
                    "the club differs from its facts entered by date:\n"
                    + views.differences(mine, dated)
                    + "\n--- by date ---\n"
                    + self.fact_script(by_date),
                )

    def fact_script(self, facts: list[Fact]) -> str:
        lines: list[tuple[str, str | None]] = [(line, None) for _at, line in self.registrations]
        for fact in facts:
            lines.extend(fact.lines)
        return render(self.system, self.start, lines)

    async def shadow(self, facts: list[Fact], end: dt.datetime, name: str) -> dict[str, Any]:
        """A fresh club: the same registrations at their moments, then ``facts`` in the
        given order at the last moment, then the clock to ``end``."""
        path = self.dir / f"{name}.sqlite"
        other = await Session.start(path, self.system, self.start)
        try:
            for at, line in self.registrations:
                other.clock.now = at
                said = await other.run(line)
                if said.error:  # a registration main took back: both shadows refuse it alike
                    continue
            last = end - FAR
            refused = []
            for fact in facts:
                other.clock.now = fact.at or last
                for line, block in fact.lines:
                    said = await other.run(line, block)
                    if not said.error and said.text.lstrip().startswith("Record it as written?"):
                        # typed in another order, a game can look implausible for a moment
                        # (the stronger player with the stones, by the ranks of then): the
                        # same fact, so answered as the question offers
                        said = await other.run(f"{line} confirm", block)
                    if said.error:
                        # what was refused, not its wording: a reply may suggest the names
                        # the club has at that moment ("Did you mean: Nagy Éva?")
                        refused.append(line)
            await other.run(f"/tick {end:%Y-%m-%d %H:%M}")
            # refusals compared as a set: each shadow refuses in its own order
            return {**await views.facts(other), "refused": sorted(refused)}
        finally:
            await other.close()


CoreModel.TestCase.settings = settings(
    max_examples=EXAMPLES or 80,
    stateful_step_count=35,
    deadline=None,
    derandomize=not LONG,
    database=None if not LONG else settings.default.database,
    suppress_health_check=list(HealthCheck),
    print_blob=True,
)
test_core_model = CoreModel.TestCase
