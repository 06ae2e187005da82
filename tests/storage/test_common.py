"""storage.common: references and free-text checks shared by the repositories."""

from __future__ import annotations

import datetime as dt

import pytest

from engine.formats import parse_players_csv
from engine.ranks import Rank
from storage import Database, NewPlayer, players, register_players
from storage.common import clean_identity, clean_name, club_id, player_id
from storage.errors import Refused
from storage.records import Club, Player


def test_ids_from_records_or_ints() -> None:
    assert club_id(Club(3, "x", "plus")) == club_id(3) == 3
    assert player_id(Player(7, 3, "x", Rank.kyu(5), dt.date(2026, 1, 1))) == player_id(7) == 7


@pytest.mark.parametrize(("raw", "clean"), [("  Nagy   Péter ", "Nagy Péter"), ("X", "X")])
def test_clean_name(raw: str, clean: str) -> None:
    assert clean_name(raw) == clean


def test_empty_names_are_refused() -> None:
    with pytest.raises(Refused, match="the alias is empty"):
        clean_name(" \t", "alias")


@pytest.mark.parametrize("bad", ["", "two words", "   "])
def test_identities(bad: str) -> None:
    assert clean_identity(" telegram:1 ") == "telegram:1"
    with pytest.raises(Refused, match="should look like telegram:123"):
        clean_identity(bad)


async def test_a_players_csv_with_nul_and_bidi_controls_stores_the_visible_names(
    db: Database, club: Club
) -> None:
    """Issue 26: NUL bytes and invisible characters entered names through a CSV import."""
    rows = parse_players_csv("name,rank\nKiss\x00 Béla,5k\nTóth\u2066 Ádám\u2069,6k\n")
    await register_players(
        db,
        club,
        [(row.line, NewPlayer(row.name, row.rank)) for row in rows],
        date=dt.date(2026, 4, 1),
        actor="console",
    )
    names = sorted(p.name for p in await players(db, club))
    assert names == ["Kiss Béla", "Tóth Ádám"]
