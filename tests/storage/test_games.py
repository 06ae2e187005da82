"""storage.games: recording games (one or a batch), pending reports, reading them back."""

from __future__ import annotations

import dataclasses
import datetime as dt
from fractions import Fraction

import pytest

from engine.errors import RuleError
from engine.ranks import Rank
from engine.timecontrol import TimeControl
from engine.types import Game, Result, Tournament
from storage import (
    BatchError,
    Club,
    Database,
    NewPlayer,
    NotFound,
    Player,
    Refused,
    card,
    club_games,
    confirm_game,
    correct_game,
    create_club,
    create_tournament,
    finalise_tournament,
    game,
    games_of,
    new_game,
    pending_games,
    record_game,
    record_games,
    recorded_already,
    same_games,
    void_game,
)
from storage.bulk import BulkGame, BulkPlayer, bulk_load
from tests.storage.conftest import DAY, KOMI, ORGANISER, dump_all, player
from tests.storage.conftest import game as record


@pytest.fixture
async def pair(db: Database, club: Club) -> tuple[Player, Player]:
    return await player(db, club, "Nagy Péter"), await player(db, club, "Kovács Anna", "7k")


async def test_record_a_game(db: Database, club: Club, pair: tuple[Player, Player]) -> None:
    black, white = pair
    time = TimeControl.parse("60m 3x20s japanese")
    row = await record(
        db, club, black, white, Result.WHITE, stones=2, komi=Fraction(1, 2), time=time, chat="t:1"
    )
    assert row.game == Game(
        row.id, black.id, white.id, Result.WHITE, DAY, 2, Fraction(1, 2), time=time
    )
    assert (row.status, row.corrected) == ("ok", False)
    assert (row.entry.actor, row.entry.chat, row.entry.kind) == (ORGANISER, "t:1", "game")
    assert await game(db, club, row.id) == row
    assert (await card(db, club, white)).rating == 101
    assert (await card(db, club, black)).rating == 99


async def test_unknown_results_and_unplayed_games_are_stored_not_rated(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    black, white = pair
    unknown = await record(db, club, black, white, None)
    bye = await record(db, club, black, white, Result.BLACK, played=False)
    assert unknown.game.result is None and not bye.game.played
    assert (await card(db, club, black)).rating == 100


async def test_the_margin_is_stored_and_never_rated(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    """B+R, W+3.5: the margin reads back from every path and changes no rating."""
    black, white = pair
    plain = await record(db, club, black, white, Result.WHITE)
    before = (await card(db, club, black)).rating, (await card(db, club, white)).rating
    by_points = await record(db, club, black, white, Result.WHITE, margin="3.5")
    after = (await card(db, club, black)).rating, (await card(db, club, white)).rating
    assert plain.game.margin is None and by_points.game.margin == "3.5"
    assert after == (before[0] - 1, before[1] + 1)  # the same step as the plain win
    batch = await record_games(
        db,
        club,
        [new_game(white, black, Result.BLACK, stones=0, komi=KOMI, date=DAY, margin="R")],
        actor=ORGANISER,
    )
    assert batch[0].game.margin == "R"
    assert {r.id: r.game.margin for r in await club_games(db, club)} == {
        plain.id: None, by_points.id: "3.5", batch[0].id: "R"
    }  # fmt: skip
    assert (await game(db, club, by_points.id)).game.margin == "3.5"  # type: ignore[union-attr]
    fixed = await correct_game(
        db, club, by_points.id, actor=ORGANISER, result=Result.BLACK, margin="T"
    )
    assert (fixed.game.result, fixed.game.margin, fixed.corrected) == (Result.BLACK, "T", True)
    assert [r.game.margin for r in await games_of(db, club, black)][1] == "T"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"white": 999}, "there is no player 999 in this club"),
        ({"stones": 12}, "handicap stones must be 0–9, not 12"),
        ({"komi": Fraction(1, 3)}, "komi must be a whole or half point"),
        ({"board": 0}, "board size must be a number like 19 or 13, not 0"),
        ({"round": 2}, "a round number needs a tournament"),
        ({"tournament": 999}, "there is no tournament 999 in this club"),
    ],
    ids=["unknown-player", "stones", "komi", "board", "round-without-tournament", "tournament"],
)
async def test_refusals_write_nothing(
    db: Database, club: Club, pair: tuple[Player, Player], change: dict[str, object], message: str
) -> None:
    black, white = pair
    options = {"white": white, **change}
    before = await dump_all(db)
    with pytest.raises(Refused, match=message):
        await record(db, club, black, **options)  # type: ignore[arg-type]
    assert await dump_all(db) == before


async def test_a_player_cannot_play_themselves(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    with pytest.raises(Refused, match="cannot play themselves"):
        await record(db, club, pair[0], pair[0])


async def test_a_guest_cannot_play_a_club_game(db: Database, club: Club) -> None:
    guest = await player(db, club, "Schmidt Jonas", "1k", guest=True)
    member = await player(db, club, "Nagy Péter")
    with pytest.raises(Refused, match="Schmidt Jonas is a tournament guest"):
        await record(db, club, member, guest)


async def test_an_engine_refusal_writes_nothing(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    before = await dump_all(db)
    with pytest.raises(RuleError, match="pair go"):
        await record(db, club, *pair, pair_go=True)
    assert await dump_all(db) == before
    assert (await card(db, club, pair[0])).games == 0
    # and the ledgers still work incrementally afterwards
    await record(db, club, *pair)
    assert (await card(db, club, pair[0])).rating == 101


async def test_tournament_games_wait_for_finalisation(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    cup = await create_tournament(
        db, club, Tournament(0, "Spring Cup", DAY, DAY, rounds=3), actor=ORGANISER
    )
    row = await record(db, club, *pair, tournament=cup.id, round=1)
    assert row.game.tournament == cup.id
    assert (await card(db, club, pair[0])).rating == 100
    await finalise_tournament(db, club, cup, actor=ORGANISER)
    assert (await card(db, club, pair[0])).rating == 101
    with pytest.raises(Refused, match="Spring Cup is already finalised; reopen it to add games"):
        await record(db, club, *pair, tournament=cup.id, round=2)


async def test_a_round_outside_the_tournament(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    cup = await create_tournament(
        db, club, Tournament(0, "Cup", DAY, DAY, rounds=3), actor=ORGANISER
    )
    with pytest.raises(Refused, match="round 4 is outside Cup's rounds 1–3"):
        await record(db, club, *pair, tournament=cup.id, round=4)


async def test_batches_are_all_or_nothing(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    black, white = pair
    good = new_game(black, white, Result.BLACK, stones=0, komi=KOMI, date=DAY)
    bad_player = new_game(black, 404, Result.BLACK, stones=0, komi=KOMI, date=DAY)
    bad_komi = new_game(black, white, Result.BLACK, stones=0, komi=Fraction(1, 3), date=DAY)
    before = await dump_all(db)
    with pytest.raises(BatchError) as refused:
        await record_games(db, club, [good, bad_player, good, bad_komi], actor=ORGANISER)
    assert [number for number, _ in refused.value.problems] == [2, 4]
    assert "item 2: there is no player 404" in str(refused.value)
    assert await dump_all(db) == before


async def test_a_batch_refused_by_the_engine_leaves_ledgers_untouched(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    black, white = pair
    good = new_game(black, white, Result.BLACK, stones=0, komi=KOMI, date=DAY)
    pair_go = new_game(black, white, Result.BLACK, stones=0, komi=KOMI, date=DAY, pair_go=True)
    before = await dump_all(db)
    with pytest.raises(BatchError, match=r"item 3: .*pair go"):
        await record_games(db, club, [good, good, pair_go], actor=ORGANISER)
    assert await dump_all(db) == before
    await record(db, club, black, white)  # the in-memory ledgers did not keep games 1–2
    assert (await card(db, club, black)).rating == 101


async def test_a_batch(db: Database, club: Club, pair: tuple[Player, Player]) -> None:
    black, white = pair
    games = [
        new_game(black, white, Result.BLACK, stones=0, komi=KOMI, date=DAY),
        new_game(white, black, Result.BLACK, stones=0, komi=KOMI, date=DAY),
    ]
    rows = await record_games(db, club, games, actor=ORGANISER)
    assert [r.game.black for r in rows] == [black.id, white.id]
    assert rows[0].id < rows[1].id
    assert (await card(db, club, black)).games == 2


async def test_pending_reports_count_once_confirmed(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    black, white = pair
    row = await record(db, club, black, white, pending=True, actor="telegram:5")
    assert row.status == "pending"
    assert await pending_games(db, club) == [row]
    assert (await card(db, club, black)).rating == 100
    confirmed = await confirm_game(db, club, row.id, actor="telegram:6")
    assert confirmed.status == "ok"
    assert await pending_games(db, club) == []
    assert (await card(db, club, black)).rating == 101
    with pytest.raises(Refused, match=f"game #{row.number} is already confirmed"):
        await confirm_game(db, club, row.id, actor="telegram:6")
    with pytest.raises(NotFound, match="no such game"):
        await confirm_game(db, club, 999, actor="telegram:6")


async def test_a_players_report_of_a_tournament_game_counts_once_confirmed(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    """Issue 25: a player reports the game of their board and the opponent confirms it; the
    report waits unrated, never rated with its tournament until confirmed, and a report still
    waiting when the tournament is finalised is refused confirmation (reopen first)."""
    cup = await create_tournament(
        db, club, Tournament(0, "Cup", DAY, DAY, rounds=3), actor=ORGANISER
    )
    waiting = await record(db, club, *pair, tournament=cup.id, round=1, pending=True)
    assert waiting.status == "pending"
    confirmed = await confirm_game(db, club, waiting.id, actor=ORGANISER)
    assert confirmed.status == "ok"
    late = await record(db, club, *pair, tournament=cup.id, round=2, pending=True)
    changes = await finalise_tournament(db, club, cup.id, actor=ORGANISER)
    assert {c.player for c in changes} == {p.id for p in pair}  # the confirmed game only
    with pytest.raises(Refused, match="already finalised"):
        await confirm_game(db, club, late.id, actor=ORGANISER)


async def test_games_of_a_player_newest_first(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    black, white = pair
    third = await player(db, club, "Szabó Éva")
    first = await record(db, club, black, white)
    second = await record(db, club, third, black, date=DAY + dt.timedelta(days=1))
    await record(db, club, third, white)
    assert [r.id for r in await games_of(db, club, black)] == [second.id, first.id]
    assert [r.id for r in await games_of(db, club, black, limit=1)] == [second.id]
    last = await games_of(db, club, third, limit=1)
    # the club's games in date order (rules.md, top), a day's games in entry order
    assert [r.id for r in await club_games(db, club)] == [first.id, last[0].id, second.id]


async def test_an_unknown_game(db: Database, club: Club) -> None:
    assert await game(db, club, 12345) is None


async def test_a_bulk_loaded_game_keeps_its_margin_like_a_recorded_one(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    """storage.bulk writes the games row column for column as record_game does."""
    black, white = pair
    recorded = await record(db, club, black, white, Result.WHITE, margin="3.5")
    other = await create_club(db, "Bulk Club", "plus", actor=ORGANISER)
    new = NewPlayer("Nagy Péter", Rank.kyu(5)), NewPlayer("Kovács Anna", Rank.kyu(7))
    await bulk_load(
        db,
        other,
        [
            BulkPlayer(1, new[0], DAY),
            BulkPlayer(2, new[1], DAY),
            BulkGame(1, 2, "W+", DAY, komi2=13, margin="3.5"),
        ],
    )
    (bulk,) = await club_games(db, other)
    assert bulk.game.margin == "3.5"
    rows = await db.fetchall(
        "SELECT * FROM games WHERE seq IN (?, ?) ORDER BY seq", (recorded.id, bulk.id)
    )
    names = await db.columns("games")
    same = {"club", "seq", "black", "white"}  # the rest must agree column for column
    assert [{n: v for n, v in zip(names, row, strict=True) if n not in same} for row in rows] == [
        {n: v for n, v in zip(names, rows[0], strict=True) if n not in same}
    ] * 2


async def test_same_games_finds_the_same_pair_date_and_result_either_colour(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    """A game entered twice (colours either way) is found; other games are not."""
    black, white = pair
    third = await player(db, club, "Szabó Éva")
    first = await record(db, club, black, white, Result.BLACK, margin="R")
    report = await record(db, club, black, white, Result.WHITE, pending=True)
    await record(db, club, black, third, Result.BLACK)  # another opponent
    await record(db, club, black, white, Result.BLACK, date=DAY + dt.timedelta(days=1))
    voided = await record(db, club, black, white, Result.JIGO)
    await void_game(db, club, voided.id, actor=ORGANISER)

    def like(b: Player, w: Player, result: Result | None, **options: object) -> Game:
        options.setdefault("date", DAY)
        return new_game(b, w, result, stones=0, komi=KOMI, **options)  # type: ignore[arg-type]

    assert [r.id for r in await same_games(db, club, like(black, white, Result.BLACK))] == [
        first.id
    ]
    # the colours the other way round: the same winner
    assert [r.id for r in await same_games(db, club, like(white, black, Result.WHITE))] == [
        first.id
    ]
    assert [r.id for r in await same_games(db, club, like(white, black, Result.BLACK))] == [
        report.id
    ]  # a pending report counts too
    assert await same_games(db, club, like(black, white, Result.JIGO)) == []  # voided: gone
    assert await same_games(db, club, like(black, white, Result.BLACK, margin="3.5")) == []
    assert await same_games(db, club, like(black, white, Result.BLACK, played=False)) == []


async def test_recorded_already_answers_for_a_batch_as_same_games_does_for_one(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    """A file imported twice: each game of the batch with look-alikes, numbered in the batch."""
    black, white = pair
    third = await player(db, club, "Szabó Éva")
    first = await record(db, club, black, white, Result.BLACK)
    voided = await record(db, club, black, third, Result.JIGO)
    await void_game(db, club, voided.id, actor=ORGANISER)
    batch = [
        new_game(black, third, Result.JIGO, stones=0, komi=KOMI, date=DAY),  # voided: new
        new_game(white, black, Result.WHITE, stones=0, komi=KOMI, date=DAY),  # = first
        new_game(white, third, Result.BLACK, stones=0, komi=KOMI, date=DAY),  # new pair
    ]
    found = await recorded_already(db, club, batch)
    assert [(number, [r.id for r in rows]) for number, rows in found] == [(2, [first.id])]
    for number, game_ in enumerate(batch, start=1):  # the same as one at a time
        alone = [r.id for r in await same_games(db, club, game_)]
        assert alone == [r.id for n, rows in found if n == number for r in rows]
    assert await recorded_already(db, club, []) == []


async def test_games_are_numbered_per_club_and_numbers_are_never_reused(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    from storage import create_club, void_game
    from storage.games import game_by_number

    other = await create_club(db, "Szeged Go Club", "plus", actor=ORGANISER)
    a, b = await player(db, other, "Kiss Béla"), await player(db, other, "Tóth Ádám")
    first = await record(db, club, *pair)
    elsewhere = await record(db, other, a, b)
    second = await record(db, club, *pair)
    await void_game(db, club, second.id, actor=ORGANISER)
    third = await record(db, club, *pair)
    batch = await record_games(
        db,
        club,
        [new_game(*pair, Result.WHITE, stones=0, komi=KOMI, date=DAY) for _ in range(2)],
        actor=ORGANISER,
    )
    assert (first.number, second.number, third.number) == (1, 2, 3)
    assert [row.number for row in batch] == [4, 5]
    assert elsewhere.number == 1
    assert third.id > elsewhere.id  # the log position is global, the number the club's own
    found = await game_by_number(db, club, 2)
    assert found is not None and found.id == second.id and found.status == "voided"
    assert (await game_by_number(db, other, 1)).id == elsewhere.id  # type: ignore[union-attr]
    assert await game_by_number(db, other, 2) is None
    assert [row.number for row in await club_games(db, club)] == [1, 2, 3, 4, 5]


async def test_a_player_has_one_game_a_round(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    """A second game of a player in one round is refused, naming the player, the round and
    the other game; a batch names every such game; nothing is written."""
    black, white = pair
    third = await player(db, club, "Szabó Éva")
    fourth = await player(db, club, "Tóth Ádám")
    cup = await create_tournament(
        db, club, Tournament(0, "Cup", DAY, DAY, rounds=3), actor=ORGANISER
    )
    first = await record(db, club, black, white, Result.BLACK, tournament=cup.id, round=1)
    before = await dump_all(db)
    with pytest.raises(Refused) as refused:
        await record(db, club, third, white, Result.WHITE, tournament=cup.id, round=1)
    assert str(refused.value) == (
        f"Kovács Anna already has a game in round 1 of Cup: #{first.number} Nagy Péter (B) – "
        "Kovács Anna (W), B+; a player plays one game a round (void or correct that game first)"
    )

    def in_round(b: Player, w: Player, round_: int) -> Game:
        return new_game(
            b, w, Result.BLACK, stones=0, komi=KOMI, date=DAY, tournament=cup.id, round=round_
        )

    with pytest.raises(BatchError) as batch:
        await record_games(
            db,
            club,
            [
                in_round(third, fourth, 2),
                in_round(black, third, 2),  # Szabó Éva twice in round 2
                in_round(fourth, black, 1),  # both already play in round 1 / … in this batch
                in_round(white, fourth, 3),
            ],
            actor=ORGANISER,
        )
    assert [number for number, _ in batch.value.problems] == [2, 3]
    assert batch.value.problems[0][1] == (
        "Szabó Éva already has a game in round 2 of Cup: game 1 of this batch, Szabó Éva (B) – "
        "Tóth Ádám (W), B+; a player plays one game a round (void or correct that game first)"
    )
    assert "Nagy Péter already has a game in round 1 of Cup: #" in batch.value.problems[1][1]
    assert await dump_all(db) == before
    # a correction may keep its own round; a voided game frees it
    await correct_game(db, club, first.id, actor=ORGANISER, result=Result.WHITE)
    second = await record(db, club, third, fourth, Result.BLACK, tournament=cup.id, round=2)
    with pytest.raises(Refused, match="Szabó Éva already has a game in round 2 of Cup"):
        await correct_game(db, club, first.id, actor=ORGANISER, white=third.id, round=2)
    await void_game(db, club, second.id, actor=ORGANISER)
    await record(db, club, third, white, Result.WHITE, tournament=cup.id, round=2)


async def test_record_game_returns_what_changed(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    """One game value in, what changed out: the stored row, the current system's changes and
    the two players' cards before and after — a reply needs no second read."""
    black, white = pair
    played = new_game(black, white, Result.WHITE, stones=0, komi=KOMI, date=DAY)
    done = await record_game(db, club, played, actor=ORGANISER, chat="t:1")
    assert done.row == await game(db, club, done.row.id)
    assert done.system == "plus"
    assert [(c.player, c.rating_before, c.rating_after) for c in done.changes] == [
        (black.id, 100, 99),
        (white.id, 100, 101),
    ]
    assert {p: c.rating for p, c in done.before.items()} == {black.id: 100, white.id: 100}
    assert {p: c.rating for p, c in done.after.items()} == {black.id: 99, white.id: 101}
    assert done.after[white.id] == await card(db, club, white)
    assert done.after[black.id] == await card(db, club, black)


async def test_a_report_or_a_tournament_game_changes_no_card(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    black, white = pair
    played = new_game(black, white, Result.BLACK, stones=0, komi=KOMI, date=DAY)
    report = await record_game(db, club, played, actor="telegram:5", pending=True)
    assert report.row.status == "pending" and report.changes == ()
    assert report.before == report.after
    cup = await create_tournament(
        db, club, Tournament(0, "Spring Cup", DAY, DAY, rounds=3), actor=ORGANISER
    )
    entered = dataclasses.replace(played, tournament=cup.id, round=1)
    in_cup = await record_game(db, club, entered, actor=ORGANISER)
    assert in_cup.changes == () and in_cup.before == in_cup.after


async def test_a_backdated_game_returns_its_own_changes(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    """Entered for an earlier day, the game rewrites the history after it: its own changes
    are the ones returned, and the cards are the recomputed ones."""
    black, white = pair
    later = DAY + dt.timedelta(days=5)
    await record(db, club, black, white, Result.BLACK, date=later)
    earlier = new_game(black, white, Result.WHITE, stones=0, komi=KOMI, date=DAY)
    done = await record_game(db, club, earlier, actor=ORGANISER)
    assert [(c.player, c.rating_before, c.rating_after) for c in done.changes] == [
        (black.id, 100, 99),
        (white.id, 100, 101),
    ]
    assert {p: c.rating for p, c in done.before.items()} == {black.id: 101, white.id: 99}
    assert {p: c.rating for p, c in done.after.items()} == {black.id: 100, white.id: 100}


async def test_a_refused_game_changes_nothing(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    black, white = pair
    before = await dump_all(db)
    with pytest.raises(RuleError):
        await record_game(
            db,
            club,
            new_game(black, white, Result.BLACK, stones=0, komi=KOMI, date=DAY, pair_go=True),
            actor=ORGANISER,
        )
    assert await dump_all(db) == before
