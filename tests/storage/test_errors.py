"""storage.errors: messages users see."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.i18n import translated
from engine.ranks import Rank
from engine.text import Msg
from storage import Club, Database, register_player, set_setting
from storage.errors import BatchError, Refused, StorageError
from storage.players import already_registered
from storage.settings import CLUB_SETTINGS
from tests.storage.conftest import ORGANISER


def test_a_batch_error_names_every_bad_item() -> None:
    error = BatchError([(2, "there is no player 404"), (5, "komi must be a half point")])
    assert str(error) == (
        "nothing was recorded — item 2: there is no player 404; item 5: komi must be a half point"
    )
    assert error.problems == ((2, "there is no player 404"), (5, "komi must be a half point"))
    assert isinstance(error, Refused) and isinstance(error, StorageError)


def test_a_batch_errors_message_is_translatable_item_by_item() -> None:
    problem = Msg("there is no player {player} in this club", player=404)
    text = BatchError([(2, problem), (5, Msg("a round number needs a tournament"))]).args[0]
    assert isinstance(text, Msg) and text.template == "nothing was recorded — {problems}"
    first = text.args["problems"].args["earlier"]
    assert first.template == "{item}: {problem}" and first.args["problem"] is problem
    assert first.args["item"] == Msg("item {number}", number=2)


def test_a_batch_error_says_what_its_numbers_count() -> None:
    """Never ``#2``: members read that as a game's or tournament's club number."""
    error = BatchError(
        [(2, "a player is not in the file"), (3, "komi must be a half point")],
        [Msg("game {number} of the file", number=2), Msg("line {number}", number=3)],
    )
    assert str(error) == (
        "nothing was recorded — game 2 of the file: a player is not in the file; line 3: komi "
        "must be a half point"
    )


async def test_the_club_logs_refusals_are_translatable(db: Database, club: Club) -> None:
    with pytest.raises(Refused) as caught:
        await set_setting(db, club, "plus.start", "100", actor=ORGANISER)
    assert caught.value.args[0].template == (
        "there is no setting {key!r}; /club settings lists every setting"
    )
    with pytest.raises(Refused) as refused:
        await set_setting(db, club, "language", "de", actor=ORGANISER)
    assert refused.value.args[0] == (
        "language takes one of en, hu, ja, sv, pl, not “de” (e.g. language hu)"
    )
    holder = await register_player(
        db, club, "Nagy Anna", Rank.kyu(8), date=dt.date(2026, 3, 1), actor=ORGANISER
    )
    said = already_registered(holder)
    assert isinstance(said, Msg) and said.args["name"] == "Nagy Anna"
    assert said.startswith("Nagy Anna (8k, since 2026-03-01) is already registered")


def test_the_setting_texts_are_translatable() -> None:
    for setting in CLUB_SETTINGS:
        assert isinstance(setting.summary, Msg), setting.key
        assert isinstance(setting.allowed, Msg), setting.key


async def test_a_refusal_reads_in_the_clubs_language(db: Database, club: Club) -> None:
    with pytest.raises(Refused) as caught:
        await set_setting(db, club, "plus.start", "100", actor=ORGANISER)
    said = translated(caught.value.args[0], "ja")
    assert said == "設定「plus.start」はありません。/club settings ですべての設定を確認できます"
    batch = BatchError([(3, Msg("a round number needs a tournament"))])
    said = translated(batch.args[0], "pl")  # the item's label: translated after the merge
    assert said.startswith("nic nie zostało zapisane — ")
    assert said.endswith(" 3: numer rundy wymaga turnieju") and "#" not in said
