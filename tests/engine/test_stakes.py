"""RatingSystem.stakes (issue 25): what a game puts at stake equals what folding it does, and
asking changes nothing — for every rulebook, on random club histories."""

from __future__ import annotations

import copy
import datetime as dt
from dataclasses import replace
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ranks import Rank
from engine.systems import system_named
from engine.types import Game, GamePlayed, Registered, Result

DAY = dt.date(2026, 3, 2)
KEYS = ("mgsz", "tensuusei", "swedish", "psg", "gor")


def ledger(key: str, ranks: list[int], games: list[tuple[int, int, bool, int]]):  # type: ignore[no-untyped-def]
    system = system_named(key)
    for player, kyu in enumerate(ranks, 1):
        system.apply(Registered(player, Rank.parse(f"{kyu}k"), DAY))
    for n, (a, b, black_won, day) in enumerate(sorted(games, key=lambda g: g[3]), 1):
        if a != b:
            result = Result.BLACK if black_won else Result.WHITE
            date = DAY + dt.timedelta(days=day)
            system.apply(GamePlayed(Game(n, a, b, result, date, counts_as_tournament=True)))
    return system


histories = st.tuples(
    st.lists(st.integers(6, 15), min_size=2, max_size=6),
    st.lists(
        st.tuples(st.integers(1, 6), st.integers(1, 6), st.booleans(), st.integers(0, 3)),
        max_size=10,
    ),  # games of other players on earlier days too: a day the game ends settles them
    st.integers(0, 3),
)
LATER = DAY + dt.timedelta(days=5)  # the day the game at stake is played


@settings(max_examples=60, deadline=None)
@given(key=st.sampled_from(KEYS), history=histories)
def test_stakes_equal_folding_the_game_into_a_copy(key: str, history) -> None:  # type: ignore[no-untyped-def]
    ranks, games, stones = history
    games = [(min(a, len(ranks)), min(b, len(ranks)), won, day) for a, b, won, day in games]
    system = ledger(key, ranks, games)
    before = system.snapshot()
    game = Game(
        99, 1, 2, None, LATER, stones=stones, komi=Fraction(1, 2), counts_as_tournament=True
    )
    stakes = system.stakes(game)
    assert system.snapshot() == before  # asking changes nothing
    for result, outcome in ((Result.BLACK, stakes.black_wins), (Result.WHITE, stakes.white_wins)):
        if stakes.uncounted is not None:
            assert all(stake.change is None for stake in outcome)
            continue
        folded = copy.deepcopy(system)
        folded.apply(
            GamePlayed(
                Game(
                    99,
                    1,
                    2,
                    result,
                    LATER,
                    stones=stones,
                    komi=Fraction(1, 2),
                    counts_as_tournament=True,
                )
            )
        )
        for stake in outcome:
            was = _value(key, system, stake.player, after=False)
            now = _value(key, folded, stake.player, after=True)
            if stake.change is not None:
                assert now - was == stake.change, (key, stake)


def _value(key: str, system, player: int, *, after: bool):  # type: ignore[no-untyped-def]
    """The value each rulebook's stake is counted on, read through its public card (MGSZ:
    the open period's change with the game, from today's Elo to "if it ended now")."""
    card = system.card(player)
    values = {m.key: m.value for m in card.values}
    if key == "mgsz":
        held = values.get("pending_elo") if after else None
        return held if held is not None else card.rating
    if key == "tensuusei":
        pending = card.pending.amount if card.pending is not None else 0
        return card.rating + pending
    if key == "swedish":
        return values["swedish_sequences.points"]
    return card.rating  # GoR: the rating shown, in whole points (rules.md §6 Decision)


def test_a_won_game_moves_the_winner_up_under_every_rulebook_that_rates_at_once() -> None:
    """Tensuusei: one point a game, settled at the day's end (rules.md §2, §2.3)."""
    system = ledger("tensuusei", [10, 10], [])
    stakes = system.stakes(Game(1, 1, 2, None, DAY))
    assert [s.change for s in stakes.black_wins] == [1, -1]
    assert [s.change for s in stakes.white_wins] == [-1, 1]
    assert stakes.black_wins[0].note == "settled at the day's end"


@settings(max_examples=150, deadline=None)
@given(
    key=st.sampled_from(("mgsz", "gor")),
    ranks=st.lists(st.integers(6, 15), min_size=2, max_size=8),
    games=st.lists(
        st.tuples(
            st.integers(1, 8), st.integers(1, 8), st.booleans(), st.integers(0, 70), st.booleans()
        ),
        max_size=25,
    ),
    stones=st.integers(0, 3),
    later=st.sampled_from((0, 5)),  # the game at stake on the last day played, or after it
)
def test_a_trial_of_its_own_equals_a_whole_copy(  # type: ignore[no-untyped-def]
    key, ranks, games, stones, later
) -> None:
    """The rulebooks' own trial copies (Mgsz.trial_copy: the open period; Gor.trial_copy:
    the two players and the day) share every other player: over periods of one month or
    several, whole or split, and days already begun, their stakes are a whole copy's, and the
    ledger asked is left exactly as it was, every card (MGSZ's "if the period ended now"
    included)."""
    system = system_named(key)
    for player, kyu in enumerate(ranks, 1):
        system.apply(Registered(player, Rank.parse(f"{kyu}k"), DAY))
    for n, (a, b, won, day, tournament) in enumerate(sorted(games, key=lambda g: g[3]), 1):
        a, b = min(a, len(ranks)), min(b, len(ranks))
        if a != b:
            result = Result.BLACK if won else Result.WHITE
            played = Game(n, a, b, result, DAY + dt.timedelta(days=day))
            system.apply(GamePlayed(replace(played, counts_as_tournament=tournament)))
    players = range(1, len(ranks) + 1)
    before = (system.snapshot(), [system.card(p) for p in players])
    pristine = copy.deepcopy(system)
    last = max((day for *_rest, day, _t in games), default=0)
    day = DAY + dt.timedelta(days=last + later)
    game = Game(99, 1, 2, None, day, stones=stones, komi=Fraction(1, 2))
    stakes = system.stakes(game)
    assert (system.snapshot(), [system.card(p) for p in players]) == before
    assert stakes == stakes_by_trial_whole(system, game)
    # nothing hidden moved either (a day's running sums): the same game folds the same way
    played = GamePlayed(replace(game, id=100, result=Result.BLACK, played=True))
    system.apply(played)
    pristine.apply(played)
    after = (system.snapshot(), [system.card(p) for p in players])
    assert after == (pristine.snapshot(), [pristine.card(p) for p in players])


def stakes_by_trial_whole(system, game: Game):  # type: ignore[no-untyped-def]
    """``system.stakes(game)`` with every trial a whole deep copy."""
    import engine.system as engine_system

    real = engine_system.trial
    engine_system.trial = lambda ledger, _game: copy.deepcopy(ledger)
    try:
        return system.stakes(game)
    finally:
        engine_system.trial = real
