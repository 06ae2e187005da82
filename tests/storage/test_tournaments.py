"""storage.tournaments: open, import, entries, finalise, reopen, amend."""

from __future__ import annotations

import dataclasses
import datetime as dt
from fractions import Fraction
from pathlib import Path

import pytest

from engine.errors import RuleError
from engine.ranks import Rank
from engine.systems import SYSTEMS
from engine.text import Msg
from engine.types import ByeKind, Entry, Game, Importance, Outcome, Result, Tournament
from storage import (
    BatchError,
    Club,
    Database,
    NewPlayer,
    NotFound,
    Player,
    Refused,
    add_entry,
    amend_tournament,
    card,
    create_tournament,
    entries,
    every_system,
    finalise_tournament,
    history,
    import_tournament,
    open_tournaments,
    players,
    reopen_tournament,
    replay_club,
    tournament,
    tournaments,
)
from storage.clubs import create_club
from tests.storage.conftest import (
    DAY,
    ORGANISER,
    dump,
    dump_all,
    game,
    open_test_db,
    player,
)

CUP = Tournament(
    0,
    "Spring Cup",
    DAY,
    DAY + dt.timedelta(days=1),
    rounds=4,
    even=False,
    handicap_reduction=2,
    importance=Importance(invitational_or_national_championship=True),
    multiplier=25,
)


@pytest.fixture
async def pair(db: Database, club: Club) -> tuple[Player, Player]:
    return await player(db, club, "Nagy Péter"), await player(db, club, "Kovács Anna", "7k")


async def test_create_a_tournament(db: Database, club: Club) -> None:
    row = await create_tournament(db, club, CUP, actor=ORGANISER, notes="CL[B]")
    assert row.tournament == Tournament(
        row.id,
        "Spring Cup",
        CUP.start,
        CUP.end,
        4,
        even=False,
        handicap_reduction=2,
        importance=CUP.importance,
        multiplier=25,
    )
    assert (row.notes, row.finalised, row.club) == ("CL[B]", False, club.id)
    assert await tournament(db, club, "spring cup") == row
    assert await tournament(db, club, row.id) == row
    assert await tournament(db, club, "Autumn") is None
    assert await tournaments(db, club) == [row]
    assert await open_tournaments(db, club) == [row]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": "spring  CUP"}, "already a tournament called 'spring CUP'"),
        ({"name": "X", "end": DAY - dt.timedelta(days=1)}, "ends .* before it starts"),
        ({"name": "X", "rounds": 0}, "at least one round, not 0"),
        ({"name": "X", "multiplier": 0}, "multiplier C set by hand must be positive, not 0"),
        ({"name": "  "}, "needs a name"),
    ],
    ids=["taken", "dates", "rounds", "multiplier", "name"],
)
async def test_create_refusals(
    db: Database, club: Club, changes: dict[str, object], message: str
) -> None:
    await create_tournament(db, club, CUP, actor=ORGANISER)
    before = await dump_all(db)
    with pytest.raises(Refused, match=message):
        await create_tournament(db, club, dataclasses.replace(CUP, **changes), actor=ORGANISER)
    assert await dump_all(db) == before


async def test_a_member_entered_by_a_game_declares_no_rank(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    """A club member entered by typing their game carries no rank captured at that moment:
    each system gives them the rank of the tournament's first day when it is rated
    (engine.types.Entry; rules.md, top: calendar order)."""
    cup = await create_tournament(db, club, CUP, actor=ORGANISER)
    await add_entry(db, club, cup, pair[0], Rank.kyu(4), actor=ORGANISER)
    await game(db, club, *pair, tournament=cup.id, round=1)
    assert await entries(db, club, cup) == [
        Entry(pair[0].id, Rank.kyu(4)),
        Entry(pair[1].id, None),
    ]
    await add_entry(db, club, cup, pair[0], Rank.kyu(5), actor=ORGANISER)  # replaces
    assert (await entries(db, club, cup))[0] == Entry(pair[0].id, Rank.kyu(5))


async def test_finalise_rates_once(db: Database, club: Club, pair: tuple[Player, Player]) -> None:
    cup = await create_tournament(db, club, CUP, actor=ORGANISER)
    await game(db, club, *pair, tournament=cup.id, round=1)
    await game(db, club, *pair, tournament=cup.id, round=2)
    changes = await finalise_tournament(db, club, "Spring Cup", actor=ORGANISER)
    assert [(c.player, c.rating_before, c.rating_after, c.source) for c in changes] == [
        (pair[0].id, 100, 102, f"tournament:{cup.id}"),
        (pair[1].id, 100, 98, f"tournament:{cup.id}"),
    ]
    row = await tournament(db, club, cup.id)
    assert row is not None and row.finalised and row.finalised_at is not None
    assert await open_tournaments(db, club) == []
    with pytest.raises(Refused, match="Spring Cup was already finalised on 2026-03-01; reopen"):
        await finalise_tournament(db, club, cup, actor=ORGANISER)


async def test_reopen_takes_the_rating_back(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    cup = await create_tournament(db, club, CUP, actor=ORGANISER)
    await game(db, club, *pair, tournament=cup.id, round=1)
    await finalise_tournament(db, club, cup, actor=ORGANISER)
    reopened = await reopen_tournament(db, club, cup, actor=ORGANISER)
    assert not reopened.finalised
    assert (await card(db, club, pair[0])).rating == 100
    await game(db, club, *pair, tournament=cup.id, round=2)  # open again: games may be added
    await finalise_tournament(db, club, cup, actor=ORGANISER)
    assert (await card(db, club, pair[0])).rating == 102


async def test_reopening_an_open_tournament_is_refused(db: Database, club: Club) -> None:
    cup = await create_tournament(db, club, CUP, actor=ORGANISER)
    with pytest.raises(Refused, match="Spring Cup is not finalised, so there is nothing to"):
        await reopen_tournament(db, club, cup, actor=ORGANISER)


async def test_an_unknown_tournament(db: Database, club: Club) -> None:
    with pytest.raises(NotFound, match="no tournament 'Autumn'"):
        await finalise_tournament(db, club, "Autumn", actor=ORGANISER)


async def test_amend_a_finalised_tournament_rerates_it(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    cup = await create_tournament(db, club, CUP, actor=ORGANISER)
    await game(db, club, *pair, tournament=cup.id, round=1)
    await finalise_tournament(db, club, cup, actor=ORGANISER)
    amended = await amend_tournament(db, club, cup, actor=ORGANISER, multiplier=30, name="Cup")
    assert amended.tournament.multiplier == 30 and amended.tournament.name == "Cup"
    assert amended.finalised
    with pytest.raises(Refused, match="nothing to change"):
        await amend_tournament(db, club, cup, actor=ORGANISER, multiplier=30)
    with pytest.raises(Refused, match="cannot change id of a tournament"):
        await amend_tournament(db, club, cup, actor=ORGANISER, id=5)


async def test_an_imported_file_of_new_players_before_later_games_folds_the_club_once(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    """Forty new players of a results file registered on a day before the club's later games
    rebuild the club's ratings once at the end of the import, not once each, and give what a
    whole replay gives."""
    for day in range(1, 31):
        await game(db, club, *pair, date=DAY + dt.timedelta(days=day))
    folded = db.projections.folded_events
    newcomers = {n: NewPlayer(f"Newcomer {n}", Rank.kyu(10)) for n in range(1, 41)}
    result = await import_tournament(
        db,
        club,
        CUP,
        players=newcomers,
        games=[Game(0, 1, 2, Result.BLACK, DAY, round=1)],
        actor=ORGANISER,
    )
    assert len(result.created) == 40
    once = db.projections.folded_events - folded
    assert 0 < once < 2 * (30 + 40 + 4)  # one fold of the club's events, not forty
    await every_system(db, club)  # the shadows caught up: every system's rows
    stored = await dump(db)
    await replay_club(db, club)
    assert await dump(db) == stored


class TestImport:
    GAMES = (
        Game(0, 1, 2, Result.BLACK, DAY, round=1),
        Game(0, 3, 1, Result.WHITE, DAY, round=2),
        Game(0, 2, 3, Result.JIGO, DAY, round=3),
    )

    async def test_one_transaction_creates_everything(
        self, db: Database, club: Club, pair: tuple[Player, Player]
    ) -> None:
        result = await import_tournament(
            db,
            club,
            CUP,
            players={
                1: pair[0],
                2: NewPlayer("Szabó Éva", Rank.kyu(9)),
                3: NewPlayer("Schmidt Jonas", Rank.kyu(1), country="DE", guest=True),
            },
            entries=[Entry(1, Rank.kyu(4)), Entry(3, Rank.kyu(1), country="DE")],
            games=self.GAMES,
            actor=ORGANISER,
        )
        eva, jonas = result.created
        assert (eva.name, jonas.name, jonas.guest) == ("Szabó Éva", "Schmidt Jonas", True)
        assert [(g.game.black, g.game.white) for g in result.games] == [
            (pair[0].id, eva.id),
            (jonas.id, pair[0].id),
            (eva.id, jonas.id),
        ]
        assert all(g.game.tournament == result.tournament.id for g in result.games)
        assert {e.player: (e.rank, e.registered) for e in await entries(db, club, CUP.name)} == {
            pair[0].id: (Rank.kyu(4), True),
            jonas.id: (Rank.kyu(1), False),
            eva.id: (None, True),  # no entry in the file: the rank of its first day
        }
        await finalise_tournament(db, club, result.tournament, actor=ORGANISER)
        # the fake rates only games between registered entries: Nagy beat Éva
        assert (await card(db, club, pair[0])).rating == 101
        assert (await card(db, club, eva)).rating == 99

    async def test_the_files_byes_administrative_results_and_header_are_kept(
        self, db: Database, club: Club, pair: tuple[Player, Player]
    ) -> None:
        """What the results file said beyond the games (formats.md): byes, both-win and
        both-lose results, games without colours, the header lines the tournament does not
        hold itself."""
        byes: tuple[tuple[int, ByeKind], ...] = ((2, "win"), (3, "half"))
        both = ((1, Outcome.WIN),)
        header = "; PC[HU, Budapest]\n; TC[T260411A]\n; HA[]"
        result = await import_tournament(
            db,
            club,
            CUP,
            players={1: pair[0], 2: pair[1]},
            entries=[
                Entry(1, Rank.kyu(4), byes=byes, administrative=both, colourless=(1,)),
                Entry(2, Rank.kyu(9), byes=((2, "none"),), administrative=both, colourless=(1,)),
            ],
            games=[dataclasses.replace(self.GAMES[0], result=None, played=False)],
            actor=ORGANISER,
            notes=header,
        )
        found = {
            e.player: (e.byes, e.administrative, e.colourless)
            for e in await entries(db, club, CUP.name)
        }
        assert found == {
            pair[0].id: (byes, both, (1,)),
            pair[1].id: (((2, "none"),), both, (1,)),
        }
        row = await tournament(db, club, CUP.name)
        assert row is not None and row.notes == header
        # an entry added by hand replaces the file's and has none
        await add_entry(db, club, result.tournament, pair[0], Rank.kyu(4), actor=ORGANISER)
        first, second = await entries(db, club, CUP.name)
        assert first == Entry(pair[0].id, Rank.kyu(4))
        assert second == Entry(
            pair[1].id, Rank.kyu(9), byes=((2, "none"),), administrative=both, colourless=(1,)
        )

    async def test_the_files_criteria_are_kept_on_the_entries(
        self, db: Database, club: Club, pair: tuple[Player, Player]
    ) -> None:
        criteria = (("MMS", "33"), ("SOS", "128"), (Msg("criterion {n}", n=3), ""))
        result = await import_tournament(
            db,
            club,
            CUP,
            players={1: pair[0], 2: NewPlayer("Szabó Éva", Rank.kyu(9))},
            entries=[Entry(1, Rank.kyu(4), criteria=criteria), Entry(2, Rank.kyu(9))],
            games=self.GAMES[:1],
            actor=ORGANISER,
        )
        (eva,) = result.created
        found = {e.player: e.criteria for e in await entries(db, club, CUP.name)}
        assert found == {pair[0].id: criteria, eva.id: ()}
        title = found[pair[0].id][2][0]  # an untitled column's name stays translatable
        assert isinstance(title, Msg) and title.template == "criterion {n}"
        # an entry added by hand replaces the file's and has none
        await add_entry(db, club, result.tournament, pair[0], Rank.kyu(4), actor=ORGANISER)
        assert (await entries(db, club, CUP.name))[0] == Entry(pair[0].id, Rank.kyu(4))

    async def test_any_problem_writes_nothing(
        self, db: Database, club: Club, pair: tuple[Player, Player]
    ) -> None:
        before = await dump_all(db)
        with pytest.raises(BatchError) as refused:
            await import_tournament(
                db,
                club,
                CUP,
                players={
                    1: pair[0],
                    2: NewPlayer("Kovács Anna", Rank.kyu(9)),  # already registered
                    3: NewPlayer("Too Strong", Rank.dan(2)),  # refused by the engine
                    4: 999,
                },
                games=self.GAMES,
                actor=ORGANISER,
            )
        messages = dict(refused.value.problems)
        assert "Kovács Anna" in messages[2] and "already registered" in messages[2]
        assert "at most 5k" in messages[3]
        assert "no such player in this club" in messages[4]
        assert await dump_all(db) == before
        assert len(await players(db, club)) == 2

    async def test_a_bad_game_writes_nothing(
        self, db: Database, club: Club, pair: tuple[Player, Player]
    ) -> None:
        before = await dump_all(db)
        with pytest.raises(BatchError, match="game 1 of the file: round 9 is outside"):
            await import_tournament(
                db,
                club,
                CUP,
                players={1: pair[0], 2: pair[1]},
                games=[Game(0, 1, 2, Result.BLACK, DAY, round=9)],
                actor=ORGANISER,
            )
        assert await dump_all(db) == before

    async def test_a_game_with_a_player_missing_from_the_file(
        self, db: Database, club: Club, pair: tuple[Player, Player]
    ) -> None:
        with pytest.raises(BatchError, match="game 1 of the file: a player is not in the file"):
            await import_tournament(
                db,
                club,
                CUP,
                players={1: pair[0]},
                games=[Game(0, 1, 7, Result.BLACK, DAY, round=1)],
                actor=ORGANISER,
            )

    async def test_a_taken_tournament_name(
        self, db: Database, club: Club, pair: tuple[Player, Player]
    ) -> None:
        await create_tournament(db, club, CUP, actor=ORGANISER)
        with pytest.raises(Refused, match=r"^there is already a tournament") as refused:
            await import_tournament(db, club, CUP, players={1: pair[0]}, games=[], actor=ORGANISER)
        assert not isinstance(refused.value, BatchError)  # no item "#0" of the batch


async def test_a_refused_finalisation_writes_nothing(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    cup = await create_tournament(db, club, CUP, actor=ORGANISER)
    await game(db, club, *pair, tournament=cup.id, round=1, pair_go=True)
    before = await dump_all(db)
    with pytest.raises(RuleError, match="pair go"):
        await finalise_tournament(db, club, cup, actor=ORGANISER)
    assert await dump_all(db) == before


async def test_tournaments_are_numbered_per_club(db: Database, club: Club) -> None:
    from storage import create_club

    other = await create_club(db, "Szeged Go Club", "plus", actor=ORGANISER)
    first = await create_tournament(db, club, CUP, actor=ORGANISER)
    elsewhere = await create_tournament(db, other, CUP, actor=ORGANISER)
    second = await create_tournament(
        db, club, dataclasses.replace(CUP, name="Autumn Cup"), actor=ORGANISER
    )
    assert (first.number, second.number, elsewhere.number) == (1, 2, 1)
    assert [row.number for row in await tournaments(db, club)] == [1, 2]
    assert (await tournament(db, club, "Autumn Cup")).number == 2  # type: ignore[union-attr]


async def test_missing_rounds_count_live_games_against_the_entries(
    db: Database, club: Club, pair: tuple[Player, Player]
) -> None:
    from storage import missing_rounds, void_game
    from storage.tournaments import MissingRound

    third, fourth = await player(db, club, "Szabó Éva"), await player(db, club, "Tóth Ádám")
    row = await create_tournament(db, club, CUP, actor=ORGANISER)
    assert await missing_rounds(db, club, row) == [MissingRound(r, 0, 1) for r in (1, 2, 3, 4)]
    await game(db, club, *pair, tournament=row.id, round=1, stones=2, komi=0)
    await game(db, club, third, fourth, tournament=row.id, round=1, stones=0)
    await game(db, club, pair[0], third, tournament=row.id, round=2)
    voided = await game(db, club, pair[1], fourth, tournament=row.id, round=2)
    await void_game(db, club, voided.id, actor=ORGANISER)  # a voided game does not count
    await game(db, club, *pair, tournament=row.id, round=3)
    await game(db, club, third, fourth, tournament=row.id, round=3)
    assert await missing_rounds(db, club, row) == [MissingRound(2, 1, 2), MissingRound(4, 0, 2)]


async def test_find_a_tournament_like_a_player(db: Database, club: Club) -> None:
    from storage.tournaments import find_tournament

    spring = await create_tournament(
        db, club, dataclasses.replace(CUP, name="Tavaszi Kupa 2026"), actor=ORGANISER
    )
    autumn = await create_tournament(
        db, club, dataclasses.replace(CUP, name="Őszi Kupa 2026"), actor=ORGANISER
    )
    found = await find_tournament(db, club, "TAVASZI kupa 2026")
    assert found.exact is not None and found.exact.id == spring.id
    found = await find_tournament(db, club, "osz")
    assert found.exact is None and [r.id for r in found.partial] == [autumn.id]
    found = await find_tournament(db, club, "kupa")
    assert [r.id for r in found.partial] == [spring.id, autumn.id]
    found = await find_tournament(db, club, "Tavasi Kupa 2026")
    assert found.exact is None and found.partial == ()
    assert [r.id for r in found.suggestions][:1] == [spring.id]


class TestEgfClass:
    """A tournament keeps its EGF class (an h9 header's CL[…]) through create, import, reading
    and amending (schema version 9)."""

    async def test_create_read_amend(self, db: Database, club: Club) -> None:
        row = await create_tournament(
            db, club, dataclasses.replace(CUP, klass="B"), actor=ORGANISER
        )
        assert row.tournament.klass == "B"
        assert (await tournament(db, club, row.id)).tournament.klass == "B"  # type: ignore[union-attr]
        amended = await amend_tournament(db, club, row, actor=ORGANISER, klass="A")
        assert amended.tournament.klass == "A"
        assert (await tournaments(db, club))[0].tournament.klass == "A"
        cleared = await amend_tournament(db, club, row, actor=ORGANISER, klass=None)
        assert cleared.tournament.klass is None
        with pytest.raises(Refused, match="EGF tournament class is A, B, C or D, not 'E'"):
            await amend_tournament(db, club, row, actor=ORGANISER, klass="E")

    async def test_import_keeps_it(
        self, db: Database, club: Club, pair: tuple[Player, Player]
    ) -> None:
        result = await import_tournament(
            db,
            club,
            dataclasses.replace(CUP, klass="C"),
            players={1: pair[0], 2: pair[1]},
            games=[Game(0, 1, 2, Result.BLACK, DAY, round=1)],
            actor=ORGANISER,
        )
        assert result.tournament.tournament.klass == "C"
        assert (await tournament(db, club, CUP.name)).tournament.klass == "C"  # type: ignore[union-attr]

    async def test_a_gor_club_rates_it_with_its_class(self, tmp_path: Path) -> None:
        """Under the EGF GoR the class weighs every change: CL[B] is × 0.75 of class A."""
        changes = {}
        for letter in ("A", "B"):
            database = await open_test_db(tmp_path / f"{letter}.db", systems=SYSTEMS)
            try:
                gor_club = await create_club(database, "Köln", "gor", actor=ORGANISER)
                winner = await player(database, gor_club, "Nagy Péter", "1d")
                loser = await player(database, gor_club, "Kovács Anna", "1d")
                cup = dataclasses.replace(CUP, klass=letter, time=None)
                result = await import_tournament(
                    database,
                    gor_club,
                    cup,
                    players={1: winner, 2: loser},
                    games=[Game(0, 1, 2, Result.BLACK, DAY, round=1)],
                    actor=ORGANISER,
                )
                await finalise_tournament(database, gor_club, result.tournament, actor=ORGANISER)
                rows = await history(database, gor_club, winner)
                assert f"class {letter}" in rows[0].note
                exact = next(
                    m for m in (await card(database, gor_club, winner)).values if m.key == "gor"
                )
                changes[letter] = Fraction(exact.value) - 2100
            finally:
                await database.close()
        assert changes["B"] == pytest.approx(changes["A"] * Fraction(3, 4), abs=0.002)
        assert changes["A"] == pytest.approx(9.306, abs=0.001)  # rules.md §6 vector
