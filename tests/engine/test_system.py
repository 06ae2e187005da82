"""The RatingSystem protocol's shared questions, asked of every system (engine/system.py).

``uncounted``: at entry, every game that will not count says so and why, in a club member's
words — the bot asks the club's ledger and never branches on the system's name.
"""

from __future__ import annotations

import datetime as dt
import json
import typing
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.calendar import Phase, event_day, event_key, month_end
from engine.errors import EngineError, RuleError
from engine.mgsz import month_period
from engine.mgsz.tables import RANK_BOUNDS
from engine.ranks import Rank
from engine.system import (
    NO_RESULT,
    UNPLAYED,
    Applied,
    Change,
    RankTrail,
    RatingScale,
    RatingSystem,
    entry_rank,
)
from engine.systems import SYSTEMS
from engine.tensuusei import Tensuusei, TensuuseiParams
from engine.timecontrol import TimeControl
from engine.types import (
    DayEnded,
    EgfRating,
    Entry,
    Event,
    Game,
    GamePlayed,
    MonthEnded,
    Override,
    PeriodClosed,
    Registered,
    Result,
    SettingsChanged,
    TeacherAction,
    TeacherKind,
    Tournament,
    TournamentRated,
    VerificationSuspended,
)
from storage.codec import card_json  # the JSON storage keeps of a card

DAY = dt.date(2026, 11, 20)


def club(key: str, ranks: tuple[str, ...] = ("1k", "1k")) -> RatingSystem:
    ledger = SYSTEMS[key]()
    for player, rank in enumerate(ranks, start=1):
        ledger.apply(Registered(player, Rank.parse(rank), DAY, committee=True))
    return ledger


def game(gid: int = 100, black: int = 1, white: int = 2, **kw: Any) -> Game:
    kw.setdefault("result", Result.BLACK)
    kw.setdefault("date", DAY)
    return Game(gid, black, white, **kw)


def why(ledger: RatingSystem, the_game: Game) -> str | None:
    """``uncounted``, checking on the way that asking changes nothing."""
    before = json.dumps(ledger.snapshot(), sort_keys=True)
    answer = ledger.uncounted(the_game)
    assert json.dumps(ledger.snapshot(), sort_keys=True) == before
    return answer


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_unplayed_and_resultless_games_say_why_under_every_system(key: str) -> None:
    ledger = club(key)
    assert why(ledger, game(played=False)) == UNPLAYED
    assert why(ledger, game(result=None)) == NO_RESULT
    assert "rules.md" not in UNPLAYED + NO_RESULT


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_a_9x9_game_says_its_board_is_not_rated(key: str) -> None:
    answer = why(club(key), game(board=9, tournament=1))
    assert answer is not None and "9×9" in answer


TIME_60 = TimeControl.parse("60m 3x30s japanese")


@pytest.mark.parametrize(
    ("key", "the_game"),
    [
        ("mgsz", game(time=TIME_60)),
        ("mgsz", game(time=TimeControl.parse("10m"))),  # category E: rated
        ("mgsz", game(time=TimeControl.parse("5m"), tournament=1)),  # the tournament's C rules
        ("tensuusei", game(time=TimeControl.parse("5m"))),
        ("psg", game(time=TIME_60)),
        ("psg", game(stones=0, tournament=1, time=TIME_60)),
        ("swedish", game(tournament=1, time=TIME_60)),
        ("swedish", game(tournament=1)),  # the tournament's time control decides
        ("swedish", game(time=TIME_60, counts_as_tournament=True)),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_games_that_count_answer_none(key: str, the_game: Game) -> None:
    assert why(club(key), the_game) is None


@pytest.mark.parametrize(
    ("key", "the_game", "expected"),
    [
        (
            "mgsz",
            game(time=TimeControl.parse("5m")),
            "5m is below category E (base under 10 min and extended time under 20 min): not "
            "rated (MGSZ Minősítési Szabályzat, annex table 2)",
        ),
        (
            "mgsz",
            game(time=TimeControl.parse("9m 3x10s japanese")),
            "9m 3x10s japanese is below category E",
        ),
        ("psg", game(time=TimeControl.parse("20m")), "too short for a ranked game"),
        (
            "psg",
            game(stones=1),
            "yet Black received 1 stone: an arranged game between equal "
            "ranks is even (PSG regulations §8(1))",
        ),
        (
            "psg",
            game(stones=4, tournament=1),
            "the PSG points table has no cell for that "
            "handicap, so the game earns neither player points (PSG regulations §16)",
        ),
        ("swedish", game(time=TIME_60), "only tournament games count"),
        ("swedish", game(tournament=1, stones=2), "not an even game"),
        (
            "swedish",
            game(tournament=1, komi=Fraction(1, 2)),
            "komi 0.5 is outside 5.5–8, so it is not an even game",
        ),
        ("swedish", game(tournament=1, time=TimeControl.parse("25m")), "under 30 minutes"),
        ("swedish", game(counts_as_tournament=True), "time control is not known"),
        ("tensuusei", game(pair_go=True), "pair go"),
    ],
    ids=lambda v: v if isinstance(v, str) and len(v) < 10 else "",
)
def test_games_that_will_not_count_say_why(key: str, the_game: Game, expected: str) -> None:
    answer = why(club(key), the_game)
    assert answer is not None and expected in answer
    assert "rules.md" not in answer


def test_tensuusei_the_fourth_game_of_a_pair_in_a_day() -> None:
    """Tensuusei local rule 1 (rules.md §2.3): up to 3 games a pair a day count."""
    ledger = club("tensuusei")
    for gid in (1, 2, 3):
        assert why(ledger, game(gid)) is None
        ledger.apply(GamePlayed(game(gid)))
    assert why(ledger, game(4, black=2, white=1)) == (
        "4th game between these two players on 2026-11-20 (Tensuusei local rule: 3 games a "
        "pair a day)"
    )
    assert why(ledger, game(4, date=DAY + dt.timedelta(days=1))) is None  # another day
    ledger.apply(GamePlayed(game(4)))
    answer = why(ledger, game(5))
    assert answer is not None and answer.startswith("5th game between")


def test_psg_the_third_arranged_game_with_the_same_opponent() -> None:
    """PSG regulations §8(2) (rules.md §4.1): at most two arranged games with one opponent."""
    ledger = club("psg", ("10k", "10k"))
    for gid in (1, 2):
        assert why(ledger, game(gid, time=TIME_60)) is None
        ledger.apply(GamePlayed(game(gid, time=TIME_60)))
    answer = why(ledger, game(3, time=TIME_60))
    assert answer is not None and "2 arranged games between these players already count" in answer
    assert "PSG regulations §8(2)" in answer
    assert why(ledger, game(3, time=TIME_60, tournament=1)) is None  # a tournament game counts


@pytest.mark.parametrize(
    ("system", "inside", "outside"),
    [
        # every bound of the MGSZ rank table (rules.md §1.1) is an Elo; 5 is not
        ("mgsz", [bound for _, bound in RANK_BOUNDS], [5, 0, 100, 9000]),
        # initial points, 12 a rank from 130 at 1d (rules.md §2.2): 9k 22, 8d 214, 11k −2
        ("tensuusei", [22, 70, 130, 214, -2], [2100, 1720, -1000]),
    ],
)
def test_a_rated_systems_scale(system: str, inside: list[int], outside: list[int]) -> None:
    scale = SYSTEMS[system]().rating_scale()
    assert scale is not None
    assert all(value in scale for value in inside)
    assert not any(value in scale for value in outside)


@pytest.mark.parametrize("system", ["swedish", "psg"])
def test_systems_without_a_settable_rating_have_no_scale(system: str) -> None:
    assert SYSTEMS[system]().rating_scale() is None


def test_tensuusei_scale_follows_the_clubs_rank_line() -> None:
    wide = Tensuusei(TensuuseiParams(anchor_1d=1000, spacing=100)).rating_scale()
    assert wide is not None and 2100 in wide and -5000 not in wide


def test_a_scale_reads_as_a_range() -> None:
    assert str(RatingScale("MGSZ Elo", 800, 3300)) == "MGSZ Elo scale (800 to 3300)"


# ------------------------------------------------------- one dispatch table, one policy

ONE_OF_EACH: list[Event] = [
    Registered(9, Rank.parse("5k"), DAY, committee=True),
    GamePlayed(game()),
    TournamentRated(Tournament(50, "Cup", DAY, DAY, 1), (), ()),
    PeriodClosed(month_period(2026, 11)),
    DayEnded(DAY),
    MonthEnded(2026, 11),
    Override(1, DAY, "committee", rank=Rank.parse("2k")),
    EgfRating(1, 1950, 2026, 11),
    TeacherAction(1, TeacherKind.HOLD, DAY),
    VerificationSuspended(1, True, DAY),
    SettingsChanged(DAY, (("time", TimeControl.parse("30m")),)),
]


def test_one_of_each_names_every_kind_of_event() -> None:
    assert {type(event) for event in ONE_OF_EACH} == set(typing.get_args(Event))


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_a_system_handles_what_its_table_routes_and_the_rest_is_a_no_op(key: str) -> None:
    """Each ledger declares the event types it handles (the keys of its dispatch table, which
    has no "ignore" rows); any other event changes nothing and touches nobody, so a fold may
    skip it."""
    ledger = club(key)
    table = type(ledger)._HANDLERS  # type: ignore[attr-defined]
    assert ledger.handles == set(table) and ledger.handles < set(typing.get_args(Event))
    assert {Registered, GamePlayed, TournamentRated, Override, SettingsChanged} <= ledger.handles
    for event in ONE_OF_EACH:
        if type(event) not in ledger.handles:
            before = ledger.snapshot()
            assert ledger.apply(event) == Applied([], frozenset()), type(event)
            assert ledger.snapshot() == before
    assert ledger.apply(SettingsChanged(DAY, ((f"{key}.anything", 1),))).changes == []


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_an_object_that_is_no_event_changes_nothing_alike(key: str) -> None:
    ledger = club(key)
    before = ledger.snapshot()
    assert ledger.apply("a game") == Applied([], frozenset())  # type: ignore[arg-type]
    assert ledger.snapshot() == before


@pytest.mark.parametrize(
    ("key", "handles"),
    [
        ("mgsz", {PeriodClosed}),
        ("tensuusei", {DayEnded}),
        ("swedish", set()),
        ("psg", {MonthEnded, EgfRating, TeacherAction, VerificationSuspended}),
        ("gor", {EgfRating}),
    ],
)
def test_each_system_handles_its_own_rulebooks_events(key: str, handles: set[type]) -> None:
    common = {Registered, GamePlayed, TournamentRated, Override, SettingsChanged}
    assert SYSTEMS[key].handles == common | handles  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("key", "phases"),
    [
        ("mgsz", {Phase.PERIOD_END}),
        ("tensuusei", {Phase.DAY_END}),
        ("swedish", set()),
        ("psg", {Phase.MONTH_END}),
    ],
)
def test_each_system_names_the_scheduled_moments_it_uses(key: str, phases: set[Phase]) -> None:
    assert SYSTEMS[key]().scheduled == phases


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_no_system_speaks_at_a_moment_it_does_not_use(key: str) -> None:
    ledger = club(key)
    for phase in set(Phase) - ledger.scheduled:
        assert ledger.announcement(phase, "2026-11", []) is None


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_every_card_value_is_typed_and_keyed_once(key: str) -> None:
    """Card values carry numbers (or words) apart from their labels, one stable key each."""
    card = club(key, ("5k", "5k")).card(1)
    keys = [m.key for m in card.values]
    assert keys and len(keys) == len(set(keys))
    assert all(m.label for m in card.values)
    assert all(isinstance(m.value, int | Fraction | str | type(None)) for m in card.values)


def test_listed_and_clauses_keep_every_item_translatable() -> None:
    """Issue 13: a list (``a, b, c``) and a note's clauses (``a; b``) are nested Msg, so each
    item is translated on its own and a language may use its own separator."""
    from engine.system import clauses, listed
    from engine.text import Msg

    items = [Msg("{game} won", game="{game:1}"), Msg("{game} lost", game="{game:2}"), "x"]
    joined = listed(items)
    assert joined == "{game:1} won, {game:2} lost, x"
    assert isinstance(joined, Msg) and joined.template == "{first}, {rest}"
    assert joined.args["first"].template == "{game} won"
    assert joined.args["rest"].args["first"].template == "{game} lost"
    assert listed([]) == "" and listed(["only"]) == "only"
    note = clauses([Msg("win"), Msg("late")])
    assert note == "win; late" and note.template == "{first}; {rest}"  # type: ignore[attr-defined]
    assert clauses([]) == ""


def test_never_rated_says_why_in_a_translatable_message() -> None:
    from engine.system import never_rated
    from engine.text import Msg

    reason = never_rated(Game(1, 1, 2, None, dt.date(2026, 1, 1)))
    assert isinstance(reason, Msg)
    assert (
        reason.template == "a game without a result is stored, not rated until its result is known"
    )


def test_a_format_error_keeps_its_message_translatable_with_the_line() -> None:
    """Issue 13: ``FormatError`` puts the line number in a Msg around the message."""
    from engine.errors import FormatError
    from engine.text import Msg

    error = FormatError(Msg("bad rank {rank}", rank="3x"), line=4, token="3x")
    message = error.args[0]
    assert str(error) == message == "line 4: bad rank 3x"
    assert isinstance(message, Msg) and message.template == "line {line}: {message}"
    assert message.args["message"].template == "bad rank {rank}"
    assert FormatError("no header").args[0] == "no header"


def test_a_unit_keeps_its_english_plural_and_counts_for_a_catalogue() -> None:
    """Issue 13: a card's unit reads ``points`` in English as before (the bot writes
    ``1 point`` by its own rule) and carries ``n`` for a catalogue's own forms."""
    from engine.system import unit
    from engine.text import Msg, plural

    one = unit(plural("point", "points", 1))
    assert one == "points" and one.template == "point" and one.plural_template == "points"
    assert one.n == 1
    with pytest.raises(AssertionError):
        unit(Msg("points"))  # not a plural: a bug, not a club member's error


# ---------------------------------------------------------------- activity (issue 14)


def test_activity_lapses_exactly_the_months_later() -> None:
    from engine.system import Activity

    rule = Activity(12, "a rated game in the last 12 months")
    played, registered = dt.date(2025, 3, 15), dt.date(2020, 1, 1)
    assert rule.active(played, registered, dt.date(2026, 3, 14))
    assert not rule.active(played, registered, dt.date(2026, 3, 15))  # exactly 12 months later
    assert not rule.active(played, registered, dt.date(2027, 1, 1))
    assert rule.active(played, registered, played)


def test_activity_needs_a_game_and_counts_a_later_registration() -> None:
    from engine.system import Activity

    rule = Activity(13, "a ranked game in the last 13 months")
    registered = dt.date(2025, 6, 1)
    # no game: not active, however recent the registration ("a ranked game in the last …")
    assert not rule.active(None, registered, registered)
    assert not rule.active(None, registered, dt.date(2026, 6, 30))
    # a game before the registration (a back-dated import) does not shorten it
    assert rule.active(dt.date(2024, 1, 1), registered, dt.date(2026, 6, 30))
    # a later game extends it
    assert rule.active(dt.date(2026, 1, 10), registered, dt.date(2027, 2, 9))
    assert not rule.active(dt.date(2026, 1, 10), registered, dt.date(2027, 2, 10))


def test_activity_from_a_leap_day_ends_on_the_last_day_of_february() -> None:
    from engine.system import Activity

    rule = Activity(12, "x")
    leap = dt.date(2024, 2, 29)
    assert rule.active(leap, leap, dt.date(2025, 2, 27))
    assert not rule.active(leap, leap, dt.date(2025, 2, 28))  # 2025 has no 29 February
    assert Activity(48, "x").active(leap, leap, dt.date(2028, 2, 28))
    assert not Activity(48, "x").active(leap, leap, dt.date(2028, 2, 29))
    # the 31st, one month on, is the shorter month's last day
    assert not Activity(1, "x").active(dt.date(2026, 1, 31), leap, dt.date(2026, 2, 28))
    assert Activity(1, "x").active(dt.date(2026, 1, 31), leap, dt.date(2026, 2, 27))


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_every_system_declares_its_activity_rule_translatably(key: str) -> None:
    from engine.system import Activity
    from engine.text import Msg

    activity = SYSTEMS[key]().activity
    assert isinstance(activity, Activity) and activity.months > 0
    assert isinstance(activity.rule, Msg) and activity.rule.args["months"] == activity.months
    assert str(activity.months) in activity.rule
    assert "rules.md" not in activity.rule


def test_psg_activity_is_its_own_rule_and_agrees_with_the_card() -> None:
    from engine.psg import Psg, PsgParams

    assert Psg.activity.months == PsgParams().inactive_months == 13
    assert "PSG regulations §3(5)" in Psg.activity.rule
    ledger = club("psg")  # registered on DAY, 2026-11-20, no game yet: not active
    assert not ledger.active(1, DAY)  # type: ignore[attr-defined]
    assert not Psg.activity.active(None, DAY, DAY)
    assert {m.key: m.value for m in ledger.card(1).values}["active"] == "no"
    ledger.apply(GamePlayed(game(date=DAY)))  # a ranked game: active for 13 months
    for today, active in ((dt.date(2027, 12, 19), True), (dt.date(2027, 12, 20), False)):
        assert ledger.active(1, today) is active  # type: ignore[attr-defined]
        assert Psg.activity.active(DAY, DAY, today) is active


def test_psg_activity_follows_the_clubs_inactive_months_setting() -> None:
    ledger = club("psg")
    ledger.apply(SettingsChanged(DAY, (("psg.inactive_months", 6),)))
    assert ledger.activity.months == 6
    assert "6 months" in ledger.activity.rule
    ledger.apply(GamePlayed(game(date=DAY)))
    today = dt.date(2027, 5, 20)
    assert ledger.activity.active(DAY, DAY, today) == ledger.active(1, today)  # type: ignore[attr-defined]
    assert not ledger.activity.active(DAY, DAY, today)
    assert ledger.activity.active(DAY, DAY, dt.date(2027, 5, 19))
    assert SYSTEMS["psg"]().activity.months == 13  # a fresh ledger: the rulebook's


@pytest.mark.parametrize("key", ["mgsz", "tensuusei", "swedish", "gor"])
def test_systems_without_an_activity_rule_say_so(key: str) -> None:
    activity = SYSTEMS[key]().activity
    assert activity.months == 12
    assert "sets no activity rule" in activity.rule


def test_game_of_a_change_from_its_source_or_its_notes_game() -> None:
    from engine.system import game_of
    from engine.text import Msg, game_mark

    assert game_of("game:12", "") == 12
    psg = Msg(
        "{game}: {notes}", game=Msg("game {game} (round {round})", game=7, round=3), notes=""
    )
    assert game_of("tournament:5", psg) == 7
    assert game_of("tournament:5", Msg("game {game}", game=8)) == 8
    marked = Msg("game {game} (round {round})", game=game_mark(9), round=3)  # as PSG writes
    assert game_of("tournament:5", Msg("{game}: {notes}", game=marked, notes="")) == 9
    assert game_of("tournament:5", Msg("game {game}", game="{game:x}")) is None
    assert game_of("tournament:5", "game 7: win") is None  # plain text names nothing
    assert game_of("tournament:5", Msg("{n} games", n=3)) is None
    assert game_of("day:2026-11-20", Msg("{game}", game="x")) is None
    assert game_of("game:x", "") is None


def _moved(player: int, day: int, rank: str) -> Change:
    """A change dated the ``day``-th of November leaving ``player`` at ``rank``."""
    at = dt.date(2026, 11, day)
    return Change(player, at, "game:1", 0, 0, Rank.parse(rank), Rank.parse(rank))


def test_rank_trail_gives_the_rank_at_the_start_of_a_day() -> None:
    """The rank a typed tournament's entry plays with (rules.md, top: calendar order): where
    the last day before it ended; before any such day, the rank the player joined with."""
    trail = RankTrail()
    trail.note([_moved(1, 3, "1k")])  # registered on the 3rd
    trail.note([_moved(1, 3, "2k")])  # lost a game the same day
    trail.note([_moved(1, 10, "1k"), _moved(2, 10, "5k")])
    assert [str(trail.on(1, dt.date(2026, 11, d))) for d in (1, 3, 4, 10, 11)] == [
        "1k", "1k", "2k", "2k", "1k"
    ]  # fmt: skip
    assert str(trail.on(2, dt.date(2026, 11, 1))) == "5k" and trail.on(3, dt.date.max) is None


def test_rank_trail_keeps_where_each_day_ends_whatever_the_order_of_its_facts() -> None:
    """A day's facts in another order may move a rank back and forth within the day; the
    trail (and a ledger's snapshot of it) is the same."""
    one, other = RankTrail(), RankTrail()
    for trail, ranks in ((one, ("2k", "1k")), (other, ("1k", "1k"))):
        trail.note([_moved(1, 1, "1k")])
        trail.note([_moved(1, 5, ranks[0])])
        trail.note([_moved(1, 5, ranks[1])])
    assert one.snapshot() == other.snapshot() == {"1": {"joined": "1k", "steps": []}}


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.lists(
            st.tuples(
                st.integers(1, 3), st.integers(1, 20), st.sampled_from(["3k", "2k", "1k", "1d"])
            ),
            max_size=3,
        ),
        max_size=12,
    )
)
def test_rank_trail_notes_ranks_as_it_notes_changes(
    facts: list[list[tuple[int, int, str]]],
) -> None:
    """``note_ranks((player, date, rank))`` keeps the trail ``note`` keeps of changes with
    those players, dates and ranks after (MGSZ's band ranks are noted so)."""
    by_changes, by_ranks = RankTrail(), RankTrail()
    for fact in sorted(facts, key=lambda moves: min((day for _, day, _ in moves), default=0)):
        by_changes.note([_moved(player, day, rank) for player, day, rank in fact])
        by_ranks.note_ranks(
            (player, dt.date(2026, 11, day), Rank.parse(rank)) for player, day, rank in fact
        )
    assert by_ranks.snapshot() == by_changes.snapshot()
    for player in (1, 2, 3, 4):
        for day in (1, 10, 21):
            at = dt.date(2026, 11, day)
            assert by_ranks.on(player, at) == by_changes.on(player, at)


def test_an_entry_without_a_declared_rank_plays_with_its_first_days_rank() -> None:
    trail = RankTrail()
    trail.note([_moved(1, 1, "3k")])
    trail.note([_moved(1, 20, "2k")])
    cup = Tournament(9, "Cup", dt.date(2026, 11, 14), dt.date(2026, 11, 22), 3)
    assert str(entry_rank(Entry(1, None), trail, cup)) == "3k"
    assert str(entry_rank(Entry(1, Rank.parse("1d")), trail, cup)) == "1d"  # declared
    with pytest.raises(RuleError, match="player 2 has no rank in tournament “Cup”"):
        entry_rank(Entry(2, None), trail, cup)


# ------------------------------------------- whom a fact touched, what is due (issue 23)

PEOPLE = (1, 2, 3, 4, 5, 6)
GUEST = 90
TIMES = (None, TimeControl.parse("60m 3x30s japanese"), TimeControl.parse("10m"))
FIRST = dt.date(2026, 1, 5)
SETTINGS_CHANGES: list[tuple[str, object]] = [
    ("tensuusei.anchor", 118),
    ("tensuusei.spacing", 10),
    ("tensuusei.settle_end_of_day", False),
    ("tensuusei.pair_games_per_day", 1),
    ("swedish.kyu_targets", True),
    ("psg.inactive_months", 2),
    ("psg.report_days", 1),
    ("mgsz.split_club_periods", False),
    ("gor.club_class", "B"),
    ("time", TimeControl.parse("30m")),
]


@st.composite
def club_games(draw: st.DrawFn, gid: int, day: dt.date, tournament: int | None = None) -> Game:
    """A game between two of :data:`PEOPLE` (or the guest), of any kind a club records."""
    black, white = draw(st.permutations(PEOPLE + ((GUEST,) if tournament else ())))[:2]
    return Game(
        gid,
        black,
        white,
        draw(st.sampled_from([Result.BLACK, Result.WHITE, Result.JIGO, None])),
        day,
        stones=draw(st.sampled_from([0, 0, 0, 1, 3])),
        board=draw(st.sampled_from([19, 19, 19, 13, 9])),
        time=draw(st.sampled_from(TIMES)),
        played=draw(st.booleans()) or draw(st.booleans()),
        tournament=tournament,
        round=1 if tournament else None,
        counts_as_tournament=draw(st.booleans()),
    )


KINDS = (
    ["game"] * 9
    + ["tournament"] * 2
    + ["day", "day", "month", "period", "period", "override", "override", "egf"]
    + ["registration", "teacher", "suspension", "setting"]
)


@st.composite
def club_histories(draw: st.DrawFn) -> list[Event]:
    """Every kind of fact a club's log holds, for every system, in calendar order (as storage
    folds them): registrations, club games, tournaments, day, month and period ends,
    overrides, EGF ratings, teacher actions, suspensions and settings."""
    ranks = st.sampled_from(["12k", "5k", "5k", "1k"])  # often equal: even games count
    facts: list[Event] = [
        Registered(p, Rank.parse(draw(ranks)), FIRST, committee=True) for p in PEOPLE[:5]
    ]
    day = FIRST
    for gid in range(1, draw(st.integers(0, 45)) + 1):
        day += dt.timedelta(days=draw(st.sampled_from([0, 0, 0, 1, 1, 2, 5, 30, 400])))
        kind = draw(st.sampled_from(KINDS))
        player = draw(st.sampled_from(PEOPLE))
        if kind == "game":
            facts.append(GamePlayed(draw(club_games(gid, day))))
        elif kind == "tournament":
            games = tuple(draw(club_games(gid * 100 + n, day, gid)) for n in range(3))
            entries = tuple(
                Entry(p, Rank.parse("5k") if p == GUEST else None, registered=p != GUEST)
                for p in sorted({p for g in games for p in (g.black, g.white)})
            )
            cup = Tournament(gid, "Cup", day, day, 1, time=draw(st.sampled_from(TIMES[1:])))
            facts.append(TournamentRated(cup, entries, games))
        elif kind == "registration":
            facts.append(Registered(player, Rank.parse(draw(ranks)), day, committee=True))
        elif kind == "day":
            facts.append(DayEnded(day))
        elif kind == "month":
            facts.append(MonthEnded(day.year, day.month))
        elif kind == "period":
            facts.append(PeriodClosed(month_period(day.year, day.month)))
        elif kind == "override":
            rank = draw(st.sampled_from([None, Rank.parse("2k"), Rank.parse("1d")]))
            rating = draw(st.sampled_from([None, 150, 1900])) if rank is None else None
            facts.append(Override(player, day, "committee", rating=rating, rank=rank))
        elif kind == "egf":
            rating = draw(st.sampled_from([1500, 2100]))
            facts.append(EgfRating(player, rating, day.year, day.month))
        elif kind == "teacher":
            facts.append(TeacherAction(player, draw(st.sampled_from(list(TeacherKind))), day))
        elif kind == "suspension":
            facts.append(VerificationSuspended(player, draw(st.booleans()), day))
        else:
            facts.append(SettingsChanged(day, (draw(st.sampled_from(SETTINGS_CHANGES)),)))
    order = sorted(range(len(facts)), key=lambda i: event_key(facts[i], i))
    return [facts[i] for i in order]


def cards(ledger: RatingSystem) -> dict[int, str]:
    return {player: card_json(ledger.card(player)) for player in ledger.players()}


def fold(ledger: RatingSystem, event: Event) -> Applied | None:
    """``ledger.apply(event)``; ``None`` when the ledger refuses it (then nothing changed)."""
    before = ledger.snapshot()
    try:
        return ledger.apply(event)
    except EngineError:
        assert ledger.snapshot() == before
        return None


def players_of(event: Event) -> set[int]:
    if isinstance(event, GamePlayed):
        return {event.game.black, event.game.white}
    if isinstance(event, TournamentRated):
        return {p for g in event.games for p in (g.black, g.white)}
    return set()


@pytest.mark.parametrize("key", sorted(SYSTEMS))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(club_histories())
def test_every_card_a_fact_changed_is_one_it_says_it_touched(
    key: str, events: list[Event]
) -> None:
    """After every fact, every player whose card (as storage keeps it) differs is in the
    fact's ``touched`` — the invariant that keeps storage from showing a stale card — and
    ``touched`` stays cheap: "everyone" only for a setting, never for a game, a
    registration or a tournament; a Tensuusei day end touches no more than the players of
    the days it ends (rules.md §2.3); an event the system does not handle touches nobody."""
    ledger = SYSTEMS[key]()
    waiting: dict[dt.date, set[int]] = {}  # the players of each day not ended yet
    for event in events:
        before = cards(ledger)
        applied = fold(ledger, event)
        if applied is None:
            continue
        after = cards(ledger)
        changed = {p for p, text in after.items() if before.get(p) != text}
        if type(event) not in ledger.handles:
            assert applied == Applied([], frozenset()) and not changed
        if not isinstance(event, SettingsChanged):
            assert applied.touched is not None, event
        if applied.touched is not None:
            assert changed <= applied.touched, (event, changed - applied.touched)
        for player in players_of(event):
            waiting.setdefault(event_day_of(event, player), set()).add(player)
        if isinstance(event, DayEnded) and key == "tensuusei":
            ended = {d for d in waiting if d <= event.date}
            assert applied.touched is not None
            assert applied.touched <= set().union(*(waiting.pop(d) for d in ended))


def event_day_of(event: Event, player: int) -> dt.date:
    """The earliest day of ``player``'s games in ``event``."""
    if isinstance(event, GamePlayed):
        return event.game.date
    assert isinstance(event, TournamentRated)
    return min(g.date for g in event.games if player in (g.black, g.white))


@pytest.mark.parametrize("key", sorted(SYSTEMS))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(club_histories())
def test_folding_only_the_handled_events_gives_the_same_ledger(
    key: str, events: list[Event]
) -> None:
    """A fold may skip what a system does not handle: the ledger is the same."""
    every, handled = SYSTEMS[key](), SYSTEMS[key]()
    for event in events:
        fold(every, event)
        if type(event) in handled.handles:
            fold(handled, event)
    assert every.snapshot() == handled.snapshot()
    assert cards(every) == cards(handled)


@pytest.mark.parametrize("key", sorted(SYSTEMS))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(club_histories(), st.integers(0, 400))
def test_what_is_due_is_past_in_order_and_folding_it_leaves_nothing_due(
    key: str, events: list[Event], later: int
) -> None:
    """``due(today)``: scheduled events only, each before ``today`` (a day before it, a month
    or period ended), oldest first, and once they are in the calendar nothing is due any
    more; asking changes nothing."""
    ledger = SYSTEMS[key]()
    for event in events:
        fold(ledger, event)
    today = max([FIRST, *(event_day(e) for e in events)]) + dt.timedelta(days=later)
    before = ledger.snapshot()
    due = ledger.due(today)
    assert ledger.snapshot() == before
    assert all(isinstance(e, DayEnded | MonthEnded | PeriodClosed) for e in due)
    assert {type(e) for e in due} <= ledger.handles
    assert all(last_day(e) < today for e in due)
    assert [event_key(e, 0) for e in due] == sorted(event_key(e, 0) for e in due)
    # storage writes them and folds the log again in calendar order: nothing is due then
    refolded = SYSTEMS[key]()
    everything = [*events, *due]
    for index in sorted(range(len(everything)), key=lambda i: event_key(everything[i], i)):
        fold(refolded, everything[index])
    assert refolded.due(today) == []


def last_day(event: Event) -> dt.date:
    if isinstance(event, DayEnded):
        return event.date
    if isinstance(event, MonthEnded):
        return month_end(event.year, event.month)
    assert isinstance(event, PeriodClosed)
    return event.tournament.end


@pytest.mark.parametrize("key", sorted(SYSTEMS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_moment_due_on_a_day_is_due_on_every_later_day(key: str, data: st.DataObject) -> None:
    """``due`` is monotone in the day (the scheduler's quiet answer, storage.schedules
    .quiet_through, relies on it), and a system with no scheduled moments has nothing due."""
    ledger = club(key, tuple("5k" for _ in PEOPLE))
    days = data.draw(st.lists(st.integers(0, 90), min_size=1, max_size=8))
    for gid, offset in enumerate(sorted(days), start=100):
        the_game = data.draw(club_games(gid, DAY + dt.timedelta(days=offset)))
        try:
            ledger.apply(GamePlayed(the_game))
        except EngineError:
            continue  # refused: the ledger is as it was
    first, later = sorted(data.draw(st.lists(st.integers(-10, 200), min_size=2, max_size=2)))
    early = ledger.due(DAY + dt.timedelta(days=first))
    late = ledger.due(DAY + dt.timedelta(days=later))
    assert all(event in late for event in early)
    if not ledger.scheduled:
        assert late == []
