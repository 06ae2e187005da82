"""storage.clubs: clubs, chat bindings, settings, organisers, join codes."""

from __future__ import annotations

import datetime as dt

import pytest

from storage import (
    Club,
    Database,
    NotFound,
    Refused,
    add_organiser,
    bind_chat,
    chats,
    club_for_chat,
    club_settings,
    clubs,
    create_club,
    get_club,
    log,
    new_join_code,
    only_club_or_create,
    organisers,
    redeem_join_code,
    remove_organiser,
    set_setting,
)
from storage.projections import club_write
from tests.storage.conftest import ORGANISER, FakeClock, dump_all


async def test_create_and_get_a_club(db: Database) -> None:
    club = await create_club(db, "  Budapest   Go ", "plus", actor=ORGANISER)
    assert club == Club(club.id, "Budapest Go", "plus")
    assert await get_club(db, "budapest go") == club
    assert await get_club(db, club.id) == club
    assert await get_club(db, "Szeged") is None
    assert await clubs(db) == [club]


async def test_the_creator_is_the_first_organiser(db: Database, club: Club) -> None:
    assert await organisers(db, club) == {ORGANISER}


@pytest.mark.parametrize(
    ("name", "system", "message"),
    [
        ("budapest go club", "plus", "already a club called 'budapest go club'"),
        ("Szeged", "elo", "unknown rating system 'elo'; choose one of daily, plus"),
        ("   ", "plus", "club name is empty"),
    ],
    ids=["taken", "unknown-system", "empty"],
)
async def test_create_club_refusals(
    db: Database, club: Club, name: str, system: str, message: str
) -> None:
    before = await dump_all(db)
    with pytest.raises(Refused, match=message):
        await create_club(db, name, system, actor=ORGANISER)
    assert await dump_all(db) == before


async def test_only_club_or_create(db: Database) -> None:
    first = await only_club_or_create(db, "Home", "daily")
    assert first.name == "Home" and first.system == "daily"
    assert await only_club_or_create(db, "Other", "plus") == first
    await create_club(db, "Second", "plus", actor=ORGANISER)
    with pytest.raises(Refused, match=r"several clubs \(Home, Second\); name one with --club"):
        await only_club_or_create(db, "Home", "plus")


async def test_bind_chats(db: Database, club: Club) -> None:
    assert await club_for_chat(db, "telegram", -100) is None
    assert await bind_chat(db, club, "telegram", -100, actor=ORGANISER) is True
    assert await bind_chat(db, club, "telegram", "-100", actor=ORGANISER) is False
    assert await bind_chat(db, club, "discord", 42, actor=ORGANISER) is True
    assert await club_for_chat(db, "telegram", "-100") == club
    assert await club_for_chat(db, "discord", 42) == club
    assert await chats(db, club) == [("telegram", "-100"), ("discord", "42")]


async def test_a_chat_cannot_belong_to_two_clubs(db: Database, club: Club) -> None:
    other = await create_club(db, "Szeged", "plus", actor=ORGANISER)
    await bind_chat(db, club, "telegram", 1, actor=ORGANISER)
    with pytest.raises(Refused, match="already belongs to the club 'Budapest Go Club'"):
        await bind_chat(db, other, "telegram", 1, actor=ORGANISER)


async def test_settings_default_and_change(db: Database, club: Club) -> None:
    typed = await club_settings(db, club)
    assert (typed.system, typed.time_zone, typed.weekly) == ("plus", "UTC", None)
    assert await set_setting(db, club, "timezone", "Europe/Budapest", actor=ORGANISER)
    assert not await set_setting(db, club, "timezone", "Europe/Budapest", actor=ORGANISER)
    assert await set_setting(db, club, "weekly", "mon 18:00", actor=ORGANISER)
    typed = await club_settings(db, club)
    assert (typed.system, typed.time_zone) == ("plus", "Europe/Budapest")
    assert typed.weekly == (0, dt.time(18, 0)) and typed.get("weekly") == "mon 18:00"


async def test_changing_the_system_is_a_setting(db: Database, club: Club) -> None:
    assert await set_setting(db, club, "system", "Daily", actor=ORGANISER)
    assert (await get_club(db, club.id)) == Club(club.id, club.name, "daily")
    assert (await club_settings(db, club)).system == "daily"


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("system", "elo", "unknown rating system 'elo'"),
        ("Time Zone", "x", "setting names are lower-case words like timezone, not 'time zone'"),
    ],
    ids=["unknown-system", "bad-key"],
)
async def test_setting_refusals(
    db: Database, club: Club, key: str, value: str, message: str
) -> None:
    with pytest.raises(Refused, match=message):
        await set_setting(db, club, key, value, actor=ORGANISER)


async def test_organisers_add_and_remove(db: Database, club: Club) -> None:
    assert await add_organiser(db, club, "discord:9", actor=ORGANISER)
    assert not await add_organiser(db, club, "discord:9", actor=ORGANISER)
    assert await organisers(db, club) == {ORGANISER, "discord:9"}
    await remove_organiser(db, club, ORGANISER, actor="discord:9")
    assert await organisers(db, club) == {"discord:9"}


async def test_the_last_organiser_cannot_be_removed(db: Database, club: Club) -> None:
    with pytest.raises(Refused, match="telegram:1 is the club's last organiser; add another"):
        await remove_organiser(db, club, ORGANISER, actor=ORGANISER)
    assert await organisers(db, club) == {ORGANISER}


async def test_removing_a_non_organiser_is_refused(db: Database, club: Club) -> None:
    with pytest.raises(Refused, match="discord:5 is not an organiser"):
        await remove_organiser(db, club, "discord:5", actor=ORGANISER)


async def test_a_malformed_identity_is_refused(db: Database, club: Club) -> None:
    with pytest.raises(Refused, match="should look like telegram:123"):
        await add_organiser(db, club, "Nagy Péter", actor=ORGANISER)


async def test_join_codes_bind_another_chat_once(db: Database, club: Club) -> None:
    code = await new_join_code(db, club, actor=ORGANISER)
    joined = await redeem_join_code(db, code.lower(), "discord", 77, actor="discord:5")
    assert joined == club
    assert await club_for_chat(db, "discord", 77) == club
    with pytest.raises(Refused, match="already used"):
        await redeem_join_code(db, code, "telegram", 78, actor="telegram:5")
    assert await club_for_chat(db, "telegram", 78) is None


async def test_join_codes_expire_after_a_day(db: Database, club: Club, clock: FakeClock) -> None:
    code = await new_join_code(db, club, actor=ORGANISER)
    clock.advance(dt.timedelta(hours=24, seconds=1))
    with pytest.raises(Refused, match="expired"):
        await redeem_join_code(db, code, "discord", 77, actor="discord:5")


async def test_join_codes_work_until_they_expire(
    db: Database, club: Club, clock: FakeClock
) -> None:
    code = await new_join_code(db, club, actor=ORGANISER)
    clock.advance(dt.timedelta(hours=23, minutes=59))
    assert await redeem_join_code(db, code, "discord", 77, actor="discord:5") == club


async def test_an_unknown_join_code(db: Database, club: Club) -> None:
    with pytest.raises(NotFound, match="'NOPE' is not a join code"):
        await redeem_join_code(db, "NOPE", "discord", 77, actor="discord:5")


async def test_join_codes_are_stored_hashed(db: Database, club: Club) -> None:
    code = await new_join_code(db, club, actor=ORGANISER)
    rows = await db.fetchall("SELECT key, payload FROM events WHERE kind = 'join_code'")
    assert rows and all(code not in (key + payload) for key, payload in rows)


async def test_redeeming_into_a_chat_of_another_club_changes_nothing(
    db: Database, club: Club
) -> None:
    other = await create_club(db, "Szeged", "plus", actor=ORGANISER)
    await bind_chat(db, other, "discord", 77, actor=ORGANISER)
    code = await new_join_code(db, club, actor=ORGANISER)
    with pytest.raises(Refused, match="already belongs to the club 'Szeged'"):
        await redeem_join_code(db, code, "discord", 77, actor="discord:5")
    # the code is still unused
    assert await redeem_join_code(db, code, "discord", 78, actor="discord:5") == club


async def test_a_club_created_in_a_rolled_back_transaction_leaves_no_ledgers(
    db: Database,
) -> None:
    with pytest.raises(RuntimeError, match="later failure"):
        async with db.transaction() as tx:
            seq = await log.append(
                tx, db.clock, club=None, kind="club", actor=ORGANISER, chat=None
            )
            await tx.execute(
                "INSERT INTO clubs (seq, name, folded, system) VALUES (?, 'Gone', 'gone', ?)",
                (seq, "daily"),
            )
            async with club_write(db, seq, tx):
                pass
            raise RuntimeError("later failure")
    assert seq not in db.projections.ledgers
    club = await create_club(db, "Kept", "plus", actor=ORGANISER)
    # SQLite reuses the id (its ledgers must be the new club's); a PostgreSQL sequence never
    # hands a position out twice
    assert club.id == seq if db.dialect == "sqlite" else club.id > seq
    assert db.projections.ledgers[club.id].current == "plus"


async def test_rename_a_club_keeps_the_old_name_in_the_history(db: Database) -> None:
    from storage import rename_club

    club = await create_club(db, "My Go Club", "plus", actor=ORGANISER)
    other = await create_club(db, "Szeged Go Club", "plus", actor=ORGANISER)
    await bind_chat(db, club, "telegram", "-5", actor=ORGANISER)
    renamed = await rename_club(db, club, "  Budapest   Go Club ", actor=ORGANISER, chat="t:-5")
    assert renamed == Club(club.id, "Budapest Go Club", "plus")
    assert await get_club(db, "budapest go club") == renamed
    assert await get_club(db, "MY GO CLUB") == renamed  # an old name still finds it
    assert await get_club(db, club.id) == renamed
    assert await club_for_chat(db, "telegram", "-5") == renamed
    assert await clubs(db) == [renamed, other]
    from storage import export_rows

    assert (await export_rows(db, club)).club.name == "Budapest Go Club"
    (event,) = await log.events(db, club.id, [log.RENAME])
    assert event.payload == {"name": "Budapest Go Club", "from": "My Go Club"}
    assert event.entry.actor == ORGANISER and event.entry.chat == "t:-5"
    before = await dump_all(db)
    with pytest.raises(Refused, match="there is already a club called 'szeged go club'"):
        await rename_club(db, club, "szeged go club", actor=ORGANISER)
    with pytest.raises(Refused, match="Budapest Go Club is already called 'Budapest Go Club'"):
        await rename_club(db, club, "Budapest Go Club", actor=ORGANISER)
    with pytest.raises(Refused, match="'My Go Club' was a name of Budapest Go Club"):
        await create_club(db, "My Go Club", "plus", actor=ORGANISER)
    with pytest.raises(Refused, match="'My Go Club' was a name of Budapest Go Club"):
        await rename_club(db, other, "My Go Club", actor=ORGANISER)
    assert await dump_all(db) == before
    back = await rename_club(db, club, "My Go Club", actor=ORGANISER)  # its own old name
    assert back.name == "My Go Club" and await get_club(db, "Budapest Go Club") == back
