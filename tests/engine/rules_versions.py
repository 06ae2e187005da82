"""Each rulebook's results as one digest, recorded with the ``RULES_VERSION`` they were made under.

A snapshot of a club's ledgers is kept across a deploy while each rulebook's ``RULES_VERSION``
stays the same (storage.snapshots.system_version), so a change that moves a rulebook's results
must bump it. This module finds out whether one did: per registered system, a sha256 of what it
computes over

* every worked example of ``../shared/vectors/`` that the vector tests run for it, through the
  same loading and builders (``tests.engine.test_mgsz`` …): the values the tests check and the
  cards (and, where the builder returns them, the changes) of the ledgers they build;
* a small seeded synthetic federation (:func:`benchmarks.federation.federation`, a few thousand
  events) loaded into a database and read back as the club's history (storage.history, the
  events a club's fold gets), folded through the system: every change, every refusal, every
  card at the end.

``tests/engine/rules_versions.json`` records ``{system: {"version": N, "digest": "…"}}``;
``tests/engine/test_rules_versions.py`` fails when a digest moved under the same version, or
the versions are not the recorded ones. Record the current ones with::

    python3 -m tests.engine.rules_versions --update

which refuses to record a digest that moved under an unchanged ``RULES_VERSION``. A change of
the federation generator or of how storage reads the log into events moves every digest at
once: then what a fold gives did change, and every snapshot is stale: bump each.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import datetime as dt
import functools
import hashlib
import itertools
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from enum import Enum
from fractions import Fraction
from pathlib import Path
from typing import Any

from engine.errors import EngineError
from engine.ranks import Rank
from engine.system import RatingSystem
from engine.systems import SYSTEMS
from engine.types import DayEnded, Event, Importance, Outcome, Result
from storage.projections import seen_by
from tests.conftest import ROOT

RECORDED = Path(__file__).with_name("rules_versions.json")
"""The recorded versions and digests (committed)."""
COMMAND = "python3 -m tests.engine.rules_versions --update"
"""What records the current versions and digests."""
FEDERATION_GAMES = 3000
FEDERATION_SEED = 23

Factory = Callable[[], RatingSystem]
Results = Iterator[object]


# ------------------------------------------------------------------ a canonical text


def canonical(value: object) -> str:
    """``value`` as text that is the same in every process for equal values (no addresses,
    sets and mappings in sorted order; a :class:`~engine.text.Msg` as its English text).

    Raises:
        TypeError: a value of a kind this does not know (add it rather than fall back to
            ``repr``, which may name a memory address).
    """
    if value is None or isinstance(value, bool | int):
        return repr(value)
    if isinstance(value, float):  # to 12 digits: a last bit of another libm is not a change
        return format(value, ".12g")
    if isinstance(value, str):
        return repr(str(value))
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Rank):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = (
            f"{f.name}={canonical(getattr(value, f.name))}" for f in dataclasses.fields(value)
        )
        return f"{type(value).__name__}({', '.join(fields)})"
    fields_of = getattr(value, "_fields", None)
    if isinstance(value, tuple) and isinstance(fields_of, tuple):  # a named tuple
        fields = (f"{name}={canonical(item)}" for name, item in zip(fields_of, value, strict=True))
        return f"{type(value).__name__}({', '.join(fields)})"
    if isinstance(value, Mapping):
        items = sorted(f"{canonical(key)}: {canonical(item)}" for key, item in value.items())
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(canonical(item) for item in value) + "]"
    if isinstance(value, set | frozenset):
        return "{" + ", ".join(sorted(canonical(item) for item in value)) + "}"
    raise TypeError(f"no canonical text for a {type(value).__qualname__}: {value!r}")


def cards(system: RatingSystem) -> list[object]:
    """Every card of the ledger, by player."""
    return [system.card(player) for player in sorted(system.players())]


# ------------------------------------------------------------------ the worked examples


def _mgsz_vectors() -> Results:
    from engine.mgsz import band_width, game_points, multiplier, rank_after_tournament
    from tests.engine import test_mgsz as tests

    for case in tests.VECTORS["tournaments"]:
        for g in case["games"]:
            outcome = Outcome(g["result"])
            yield game_points(case["player_elo"], g["opponent_elo"], outcome, g["stones"])
        for guests in (False, True):
            ledger, changes = tests._run_vector_tournament(case, guests=guests)
            yield changes, cards(ledger)
    for case in tests.VECTORS["rank_progressions"]:
        title, reached = Rank.parse(case["start_rank"]), dict[Rank, int]()
        for step in case["after_each_tournament"]:
            title, reached = rank_after_tournament(title, reached, step["elo"])
            yield title, reached
    for case in tests.VECTORS["multipliers"]:
        yield tests._vector_multiplier(case)
    for case in tests.VECTORS["extended_time"]:
        time = tests._time_control(case["base_minutes"], case["overtime"])
        yield multiplier(19, time, even=False, participants=None, importance=Importance())
    for case in tests.VECTORS["band_widths"]:
        yield band_width(case["elo"])


def _tensuusei_vectors() -> Results:
    from engine.tensuusei import handicap_from_points, initial_points
    from tests.engine import test_tensuusei as tests

    for case in tests.VECTORS["handicaps"]:
        first, second = case["points"]
        yield handicap_from_points(max(first, second), min(first, second))
        yield tests.ledger({0: first, 1: second}).handicap(0, 1)
    for rank, _ in sorted(tests.VECTORS["initial_points"].items()):
        yield initial_points(Rank.parse(rank))
    for case in tests.VECTORS["day_settlement"]:
        names = list(case["start"])
        ids = {name: number for number, name in enumerate(names, start=1)}
        system = tests.ledger({ids[name]: value for name, value in case["start"].items()})
        first, second = ids[names[0]], ids[names[1]]
        for gid, winner in enumerate(case["games_same_day"], start=1):
            result = Result.WHITE if ids[winner] == first else Result.BLACK
            yield system.apply(tests.game(gid, second, first, result)).changes
        yield system.apply(DayEnded(tests.DAY)).changes, cards(system)


def _swedish_vectors() -> Results:
    from engine.swedish import POINTS_TABLE, Swedish, game_points_quarters
    from tests.engine import test_swedish as tests

    reference = Rank.parse("1k")
    for row in tests.VECTORS["points_table"]:
        offset = row["opponent_minus_reference"]
        yield POINTS_TABLE[offset]
        for outcome in (Outcome.WIN, Outcome.LOSS):
            yield game_points_quarters(reference + offset, reference, outcome)
    for target, _ in sorted(tests.VECTORS["requirements"].items()):
        yield Swedish().requirement(Rank.parse(target))
    for row in tests.EXAMPLE["games"]:
        system, changes = tests._replay_example_to(row["n"])
        yield changes
    yield cards(system)


def _psg_vectors() -> Results:
    from engine.psg import DAN_NORMS, cell, game_points, minimum_games, model_rating
    from tests.engine import test_psg as tests

    for case in tests.VECTORS["cells"]:
        yield cell(case["due"], case["played"])
    for case in tests.VECTORS["games_with_bonus"]:
        rank, outcome = Rank.parse(case["rank"]), Outcome(case["result"])
        yield game_points(rank, case["due"], case["played"], outcome)
    for rank, _ in sorted(tests.VECTORS["minimum_games"].items()):
        yield minimum_games(Rank.parse(rank))
    for rank, _ in sorted(tests.VECTORS["dan_norms"].items()):
        yield DAN_NORMS[Rank.parse(rank)]
    for rank, _ in sorted(tests.VECTORS["model_ratings"].items()):
        yield model_rating(Rank.parse(rank))
    for seq in tests.VECTORS["sequences"]:
        club = tests.Club()
        club.register(1, seq["start_rank"])
        for game in seq["games"]:
            yield club.tournament_game(1, game["opponent"], Outcome(game["result"]))
            yield club.score(1)
        yield cards(club.psg)


def _gor_vectors() -> Results:
    from engine.gor.formula import bonus, con, expected, game_change, initial_rating
    from tests.engine.gor import test_vectors as tests

    for case in tests.VECTORS["games"]:
        rating, opponent, stones = case["rating"], case["opponent"], case["stones"]
        yield expected(rating, opponent, stones), con(rating), bonus(rating)
        if "result" in case:
            yield game_change(rating, opponent, tests.SCORE[case["result"]], stones)
            yield cards(tests._club_game_ledger(case))
    for case in tests.VECTORS["tournaments"]:
        yield cards(tests._tournament_ledger(case))
    for rank, _ in sorted(tests.VECTORS["initial_ratings"].items()):
        yield initial_rating(Rank.parse(rank))


VECTORS: dict[str, Callable[[], Results]] = {
    "mgsz": _mgsz_vectors,
    "tensuusei": _tensuusei_vectors,
    "swedish": _swedish_vectors,
    "psg": _psg_vectors,
    "gor": _gor_vectors,
}
"""What each system computes over its worked examples (a system without any: none)."""


# ------------------------------------------------------------------ a seeded federation


async def _loaded_history() -> list[Event]:
    from benchmarks.federation import federation
    from storage import create_club, open_db
    from storage import overlay as overlays
    from storage.bulk import bulk_load
    from storage.history import club_events

    db = await open_db(":memory:", clock=lambda: dt.datetime(2030, 1, 1, tzinfo=dt.UTC))
    try:
        club = (await create_club(db, "Federation", "mgsz", actor="console")).id
        items = federation(FEDERATION_GAMES, seed=FEDERATION_SEED)
        await bulk_load(db, club, items, actor="console", replay=False)
        async with db.transaction() as tx:
            folded = await overlays.load(tx, club)
            return [event async for batch in club_events(tx, club, folded) for _, event in batch]
    finally:
        await db.close()


@functools.cache
def federation_history() -> tuple[Event, ...]:
    """The seeded federation's history as a club's fold reads it (calendar order)."""
    return tuple(asyncio.run(_loaded_history()))


def folded(key: str, factory: Factory, events: Iterable[Event]) -> Results:
    """``events`` folded through a fresh ledger of ``factory`` as a club's fold folds them:
    each event's changes, or its refusal (a fold skips a refused fact); then every card."""
    system = factory()
    for number, event in enumerate(events):
        try:
            yield number, system.apply(seen_by(key, event)).changes  # not whom it touched
        except EngineError as error:
            yield number, "refused", str(error)
    yield cards(system)


# ------------------------------------------------------------------ digests and checks


def digest(key: str, factory: Factory) -> str:
    """sha256 of what the system computes over its worked examples and the federation."""
    found = hashlib.sha256()
    vectors = VECTORS.get(key, lambda: iter(()))
    for result in itertools.chain(vectors(), folded(key, factory, federation_history())):
        found.update(canonical(result).encode())
        found.update(b"\n")
    return found.hexdigest()


def current(systems: Mapping[str, Factory] = SYSTEMS) -> dict[str, dict[str, Any]]:
    """Each system's ``rules_version`` and :func:`digest` now."""
    return {
        key: {"version": factory().rules_version, "digest": digest(key, factory)}
        for key, factory in sorted(systems.items())
    }


def recorded(path: Path | None = None) -> dict[str, dict[str, Any]]:
    """The recorded versions and digests (default :data:`RECORDED`; none when the file is
    missing)."""
    path = RECORDED if path is None else path
    if not path.exists():
        return {}
    data: dict[str, dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _shown(path: Path) -> str:
    """A file as a path from the checkout, where it is in it."""
    path = path.resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def module_of(factory: Factory) -> str:
    """Where the system's ``RULES_VERSION`` is defined: its class's module, as a path from the
    checkout (``engine/mgsz/ledger.py``)."""
    name = getattr(factory, "__module__", "")
    file = getattr(sys.modules.get(name), "__file__", None)
    return name if file is None else _shown(Path(file))


def problems(
    now: Mapping[str, Mapping[str, Any]],
    then: Mapping[str, Mapping[str, Any]],
    systems: Mapping[str, Factory] = SYSTEMS,
) -> list[str]:
    """What is wrong with the record ``then`` for the results ``now``: a digest moved under
    an unchanged version (bump it, then record), or versions not the recorded ones (record)."""
    file = _shown(RECORDED)
    found = []
    for key in sorted(now.keys() | then.keys()):
        mine, theirs = now.get(key), then.get(key)
        if mine is None:
            found.append(f"{key}: recorded in {file} but no such system: run {COMMAND}")
        elif theirs is None:
            found.append(f"{key}: no results recorded in {file}: run {COMMAND}")
        elif mine["version"] == theirs["version"] and mine["digest"] != theirs["digest"]:
            found.append(
                f"{key}: its results changed but RULES_VERSION is still {mine['version']}: "
                f"bump RULES_VERSION in {module_of(systems[key])} and run {COMMAND}"
            )
        elif mine["version"] != theirs["version"]:
            found.append(
                f"{key}: RULES_VERSION is {mine['version']} but {file} records "
                f"{theirs['version']}: run {COMMAND}"
            )
    return found


def update(path: Path | None = None, systems: Mapping[str, Factory] = SYSTEMS) -> list[str]:
    """Record the current versions and digests in ``path`` (default :data:`RECORDED`);
    refused (nothing written) while a system's results moved under its recorded
    ``RULES_VERSION``. Returns the refusals."""
    path = RECORDED if path is None else path
    now, then = current(systems), recorded(path)
    refused = [
        problem for problem in problems(now, then, systems) if "bump RULES_VERSION" in problem
    ]
    if not refused:
        path.write_text(json.dumps(now, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return refused


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m tests.engine.rules_versions",
        description="Check, or record, each rulebook's RULES_VERSION against its results.",
    )
    parser.add_argument("--update", action="store_true", help=f"record them in {RECORDED.name}")
    args = parser.parse_args(argv)
    if args.update:
        found = update()
        print("\n".join(found) if found else f"recorded in {_shown(RECORDED)}")
    else:
        found = problems(current(), recorded())
        print("\n".join(found) if found else "every RULES_VERSION matches its results")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
