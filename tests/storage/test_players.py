"""storage.players: registration, aliases, account links, name lookup."""

from __future__ import annotations

import pytest

from engine.errors import RuleError
from engine.ranks import Rank
from storage import (
    Club,
    Database,
    NotFound,
    Player,
    Refused,
    accounts_of,
    add_alias,
    card,
    create_club,
    find_player,
    get_player,
    link_account,
    player_for_account,
    players,
    set_setting,
    unlink_accounts,
)
from tests.storage.conftest import DAY, ORGANISER, dump_all, player


async def test_register_a_player(db: Database, club: Club) -> None:
    nagy = await player(
        db, club, "Nagy  Péter", "5k", country="HU", home_club="Bp", egd_pin="12345678"
    )
    assert nagy == Player(
        nagy.id, club.id, "Nagy Péter", Rank.kyu(5), DAY, None, "HU", "Bp", "12345678"
    )
    assert await players(db, club) == [nagy]
    assert await get_player(db, club, nagy.id) == nagy
    assert (await card(db, club, nagy)).rating == 100


async def test_a_rating_or_committee_decision_allows_a_stronger_rank(
    db: Database, club: Club
) -> None:
    moved = await player(db, club, "Old Hand", "2d", rating=250)
    committee = await player(db, club, "Strong Newcomer", "1d", committee=True)
    assert (await card(db, club, moved)).rating == 250
    assert (await card(db, club, committee)).rank == Rank.dan(1)


async def test_a_refused_registration_writes_nothing(db: Database, club: Club) -> None:
    before = await dump_all(db)
    with pytest.raises(RuleError, match="initial rank is at most 5k, not 3k"):
        await player(db, club, "Too Strong", "3k")
    assert await dump_all(db) == before
    assert await players(db, club) == []


async def test_the_current_system_decides_what_is_refused(db: Database, club: Club) -> None:
    await set_setting(db, club, "system", "daily", actor=ORGANISER)
    strong = await player(db, club, "Strong", "3d")  # Daily has no 5k limit
    assert (await card(db, club, strong)).rank == Rank.dan(3)
    # the other system takes the rank as a recorded standing (Registered.for_system): the
    # player is not stranded there (a later switch to it would otherwise refuse their games)
    assert (await card(db, club, strong, system="plus")).rank == Rank.dan(3)


@pytest.mark.parametrize("name", ["nagy péter", "NAGY PETER"], ids=["case", "accents"])
async def test_duplicate_names_are_refused(db: Database, club: Club, name: str) -> None:
    nagy = await player(db, club, "Nagy Péter")
    shown = f"Nagy Péter \\({nagy.rank}, since {nagy.date.isoformat()}\\) is already registered"
    with pytest.raises(Refused, match=shown):
        await player(db, club, name)


@pytest.mark.parametrize("name", ["Péter Nagy", "peter nagy"])
async def test_a_name_in_another_word_order_asks_whether_it_is_the_same_person(
    db: Database, club: Club, name: str
) -> None:
    nagy = await player(db, club, "Nagy Péter")
    shown = (
        f"Is {name} the same person as Nagy Péter \\({nagy.rank}, since "
        f"{nagy.date.isoformat()}\\), with the names in another order\\?"
    )
    with pytest.raises(Refused, match=shown):
        await player(db, club, name)
    assert [p.name for p in await players(db, club)] == ["Nagy Péter"]


async def test_a_duplicate_can_be_allowed(db: Database, club: Club) -> None:
    await player(db, club, "Nagy Péter")
    await player(db, club, "Nagy Péter", allow_duplicate=True)
    assert len(await players(db, club)) == 2


async def test_an_empty_name_is_refused(db: Database, club: Club) -> None:
    with pytest.raises(Refused, match="the name is empty"):
        await player(db, club, "   ")


async def test_guests_are_stored_but_not_ranked(db: Database, club: Club) -> None:
    guest = await player(db, club, "Schmidt Jonas", "1k", guest=True, country="DE")
    assert guest.guest
    assert await players(db, club) == []
    assert await players(db, club, guests=True) == [guest]
    with pytest.raises(NotFound):
        await card(db, club, guest)


async def test_aliases(db: Database, club: Club) -> None:
    anna = await player(db, club, "Kovács Anna")
    other = await player(db, club, "Szabó Éva")
    assert await add_alias(db, club, anna, "Anni", actor=ORGANISER)
    assert not await add_alias(db, club, anna, "anni", actor=ORGANISER)
    assert (await get_player(db, club, anna.id)).aliases == ("Anni",)  # type: ignore[union-attr]
    with pytest.raises(Refused, match="'Anni' already names Kovács Anna"):
        await add_alias(db, club, other, "Anni", actor=ORGANISER)
    with pytest.raises(Refused, match=r"Kovács Anna .* is already registered"):
        await player(db, club, "anni")
    with pytest.raises(NotFound, match="no player 999"):
        await add_alias(db, club, 999, "X", actor=ORGANISER)


async def test_account_links(db: Database, club: Club) -> None:
    anna = await player(db, club, "Kovács Anna")
    eva = await player(db, club, "Szabó Éva")
    assert await player_for_account(db, club, "telegram", 5) is None
    assert await link_account(db, club, anna, "telegram", 5, actor="telegram:5")
    assert not await link_account(db, club, anna, "telegram", "5", actor="telegram:5")
    assert await player_for_account(db, club, "telegram", 5) == anna
    assert await link_account(db, club, eva, "telegram", 5, actor=ORGANISER)  # relinked
    assert await player_for_account(db, club, "telegram", 5) == eva
    assert await accounts_of(db, club, anna) == []
    assert await accounts_of(db, club, eva) == [("telegram", "5")]


async def test_an_unlinked_account_is_linked_to_nobody_until_linked_again(
    db: Database, club: Club
) -> None:
    """Issue 26, item 4: ``/link NAME remove``. The newest entry of an account wins, links
    and unlinks alike; only accounts linked to the player named are taken off, in one
    transaction (test_log: both tables are append-only)."""
    anna = await player(db, club, "Kovács Anna")
    eva = await player(db, club, "Szabó Éva")
    await link_account(db, club, anna, "telegram", 5, actor=ORGANISER)
    await link_account(db, club, anna, "discord", 7, actor=ORGANISER)
    await link_account(db, club, eva, "telegram", 6, actor=ORGANISER)
    wanted = [("telegram", "5"), ("telegram", "6"), ("discord", "9")]
    taken = await unlink_accounts(db, club, anna, wanted, actor=ORGANISER)
    assert taken == [("telegram", "5")]  # 6 is Éva's, 9 nobody's: left as they are
    assert await player_for_account(db, club, "telegram", 5) is None
    assert await player_for_account(db, club, "telegram", 6) == eva
    assert await accounts_of(db, club, anna) == [("discord", "7")]
    assert await unlink_accounts(db, club, anna, [("telegram", "5")], actor=ORGANISER) == []
    assert await link_account(db, club, eva, "telegram", 5, actor=ORGANISER)  # linked again
    assert await player_for_account(db, club, "telegram", 5) == eva
    assert await accounts_of(db, club, eva) == [("telegram", "6"), ("telegram", "5")]


async def test_linking_to_an_unknown_player(db: Database, club: Club) -> None:
    with pytest.raises(NotFound, match="no player 404"):
        await link_account(db, club, 404, "telegram", 5, actor="telegram:5")


async def test_players_of_other_clubs_are_invisible(db: Database, club: Club) -> None:
    other = await create_club(db, "Szeged", "plus", actor=ORGANISER)
    theirs = await player(db, other, "Nagy Péter")
    assert await get_player(db, club, theirs.id) is None
    assert (await find_player(db, club, "Nagy Péter")).player is None
    await player(db, club, "Nagy Péter")  # the same name in another club is fine


class TestFindPlayer:
    @pytest.fixture
    async def roster(self, db: Database, club: Club) -> dict[str, Player]:
        names = ["Nagy Péter", "Nagy Pál", "Kovács Anna", "Szabó Éva", "Łukasz Wróbel"]
        found = {name: await player(db, club, name) for name in names}
        await add_alias(db, club, found["Kovács Anna"], "Anni", actor=ORGANISER)
        return found

    @pytest.mark.parametrize(
        ("query", "name"),
        [
            ("Nagy Péter", "Nagy Péter"),
            ("nagy peter", "Nagy Péter"),
            ("Péter Nagy", "Nagy Péter"),
            ("Szabo Eva", "Szabó Éva"),
            ("eva szabo", "Szabó Éva"),
            ("anni", "Kovács Anna"),
            ("Lukasz Wrobel", "Łukasz Wróbel"),
        ],
        ids=["exact", "case-accents", "reversed", "accents", "reversed-accents", "alias", "ł"],
    )
    async def test_exact(
        self, db: Database, club: Club, roster: dict[str, Player], query: str, name: str
    ) -> None:
        found = await find_player(db, club, query)
        assert found.player is not None and found.player.id == roster[name].id
        assert found.ambiguous == ()

    async def test_ambiguous(self, db: Database, club: Club, roster: dict[str, Player]) -> None:
        twin = await player(db, club, "Szabo Eva", allow_duplicate=True)
        found = await find_player(db, club, "szabó éva")
        assert found.player is None
        assert set(found.ambiguous) == {roster["Szabó Éva"], twin}

    async def test_partial(self, db: Database, club: Club, roster: dict[str, Player]) -> None:
        found = await find_player(db, club, "nagy")
        assert found.player is None
        assert found.partial == (roster["Nagy Péter"], roster["Nagy Pál"])

    async def test_suggestions(self, db: Database, club: Club, roster: dict[str, Player]) -> None:
        found = await find_player(db, club, "Kovach Ana")
        assert found.player is None
        assert found.suggestions[0].id == roster["Kovács Anna"].id

    async def test_nothing(self, db: Database, club: Club, roster: dict[str, Player]) -> None:
        found = await find_player(db, club, "Qwerty Zzyzx")
        assert (found.player, found.ambiguous, found.partial, found.suggestions) == (
            None,
            (),
            (),
            (),
        )
