"""storage.settings: typed club settings over the defaults; a rating setting holds from its day."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from fractions import Fraction
from pathlib import Path

import pytest

from bot.i18n import translated
from engine.systems import SYSTEMS as REGISTRY
from storage import Club, Database, club_settings, every_system, set_setting, settings
from storage.clubs import create_club
from storage.corrections import undo_last
from storage.errors import Refused
from storage.projections import ledger, replay_club
from tests.storage.conftest import ORGANISER, dump, open_test_db, player


async def test_defaults_and_the_creation_system(db: Database, club: Club) -> None:
    assert await settings.settings(db, club.id) == {"system": "plus"}
    assert await settings.current_system(db, club.id) == "plus"


async def test_the_latest_value_wins(db: Database, club: Club) -> None:
    for zone in ("Europe/Budapest", "Asia/Tokyo", "Europe/Warsaw"):
        await set_setting(db, club, "timezone", zone, actor=ORGANISER)
    assert (await club_settings(db, club)).time_zone == "Europe/Warsaw"
    await set_setting(db, club, "system", "daily", actor=ORGANISER)
    await set_setting(db, club, "system", "plus", actor=ORGANISER)
    assert await settings.current_system(db, club.id) == "plus"


async def test_an_unknown_club(db: Database) -> None:
    with pytest.raises(LookupError, match="no club 42"):
        await settings.settings(db, 42)
    with pytest.raises(LookupError, match="no club 42"):
        await settings.current_system(db, 42)


async def test_an_undeclared_key_is_refused(db: Database, club: Club) -> None:
    with pytest.raises(Refused, match=r"no setting 'plus\.start'.*/club settings"):
        await set_setting(db, club, "plus.start", "100", actor=ORGANISER)


async def test_club_wide_settings_are_typed_with_their_defaults(db: Database, club: Club) -> None:
    typed = await club_settings(db, club)
    assert typed.time_zone == "UTC" and typed.komi == Fraction(13, 2)
    assert typed.language == "en" and typed.country is None and not typed.reports
    assert typed.report_hours == 48 and typed.weekly is None
    assert typed.value("tensuusei.anchor") == 130  # every system's settings, with defaults
    assert await set_setting(db, club, "language", "HU", actor=ORGANISER)
    assert not await set_setting(db, club, "language", "hu", actor=ORGANISER)  # unchanged
    await set_setting(db, club, "weekly", "fri 19:30", actor=ORGANISER)
    typed = await club_settings(db, club)
    assert typed.language == "hu" and typed.weekly == (4, dt.time(19, 30))
    assert typed.get("weekly") == "fri 19:30" and typed.get("system") == "plus"
    with pytest.raises(TypeError):
        typed.values["language"] = "en"  # type: ignore[index]  # frozen: built once


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        (
            "language",
            "de",
            r"language takes one of en, hu, ja, sv, pl, not “de” \(e\.g\. language hu\)",
        ),
        ("report_hours", "0", r"from 1 to 720.*e\.g\. report_hours 48"),
        ("tensuusei.anchor", "x", r"from 1 to 100000, not “x” \(e\.g\. tensuusei\.anchor 130\)"),
        ("swedish.komi_min", "9", r"komi_min 9 is above komi_max 8"),
    ],
    ids=["choice", "range", "rating", "combination"],
)
async def test_a_bad_value_names_the_range_and_an_example(
    db: Database, club: Club, key: str, value: str, message: str
) -> None:
    with pytest.raises(Refused, match=message):
        await set_setting(db, club, key, value, actor=ORGANISER)


D1, D2, D3 = dt.date(2026, 2, 1), dt.date(2026, 2, 10), dt.date(2026, 2, 20)


@pytest.fixture
async def real(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_test_db(tmp_path / "real.db", systems=REGISTRY)
    try:
        yield database
    finally:
        await database.close()


async def _points(db: Database, club: Club, player: int) -> int:
    rating = (await ledger(db, club, "tensuusei")).card(player).rating
    assert isinstance(rating, int)
    return rating


async def test_a_rating_setting_rewrites_ratings_from_its_date_and_undo_restores(
    real: Database,
) -> None:
    club = await create_club(real, "Sendai Go Club", "tensuusei", actor=ORGANISER)
    early = await player(real, club, "Aoi", "1d", date=D1)
    late = await player(real, club, "Ren", "1d", date=D3)
    async with real.transaction() as tx:  # a mark a rewrite of the whole history would erase
        await tx.execute(
            "UPDATE rating_history SET note = 'kept' WHERE date < ?", (D2.isoformat(),)
        )
    assert await set_setting(real, club, "tensuusei.anchor", "128", actor=ORGANISER, since=D2)
    assert await _points(real, club, early.id) == 130  # registered before the change
    assert await _points(real, club, late.id) == 128
    notes = await real.fetchall(
        "SELECT player, note FROM rating_history WHERE system = 'tensuusei' ORDER BY player"
    )
    assert notes[0] == (early.id, "kept")  # before the change: not rewritten
    assert "1d = 128" in notes[1][1]
    typed = await club_settings(real, club)
    assert typed.value("tensuusei.anchor") == 128 and typed.since["tensuusei.anchor"] == D2
    assert not await set_setting(real, club, "tensuusei.anchor", "128", actor=ORGANISER, since=D2)
    undone = await undo_last(real, club, actor=ORGANISER)
    assert undone.entry.kind == "rating_setting"
    assert await _points(real, club, late.id) == 130
    assert (await club_settings(real, club)).value("tensuusei.anchor") == 130
    late_rows = "SELECT * FROM rating_history WHERE date >= ? ORDER BY system, seq, idx"
    await every_system(real, club)  # the shadows caught up: every system's rows
    incremental = await dump(real, {"player_state": "club, system, player"})
    rows = await real.fetchall(late_rows, (D2.isoformat(),))
    await replay_club(real, club)
    assert await dump(real, {"player_state": "club, system, player"}) == incremental
    assert await real.fetchall(late_rows, (D2.isoformat(),)) == rows  # undo = a replay


async def test_a_rating_setting_defaults_to_today_in_the_club_zone(real: Database) -> None:
    club = await create_club(real, "Sendai Go Club", "tensuusei", actor=ORGANISER)
    await set_setting(real, club, "timezone", "Pacific/Kiritimati", actor=ORGANISER)  # UTC+14
    await set_setting(real, club, "tensuusei.spacing", "10", actor=ORGANISER)
    typed = await club_settings(real, club)
    assert typed.since["tensuusei.spacing"] == dt.date(2026, 3, 2)  # 18:00 UTC is tomorrow there
    with pytest.raises(Refused, match="today or an earlier day"):
        await set_setting(
            real, club, "tensuusei.spacing", "11", actor=ORGANISER, since=dt.date(2026, 3, 9)
        )
    with pytest.raises(Refused, match="takes no date"):
        await set_setting(real, club, "komi", "7", actor=ORGANISER, since=D1)


# ------------------------------------------------------------------ the club's language (issue 13)

HOME = {"mgsz": "hu", "tensuusei": "ja", "swedish": "sv", "psg": "pl", "gor": "en"}


class _Kansai:
    """A rulebook factory that declares its country's language, as the real systems do."""

    language = "ja"


@pytest.fixture
def kansai(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(REGISTRY, "plus", _Kansai)  # type: ignore[arg-type]  # only its language


async def test_an_unset_language_is_the_systems_language(db: Database, club: Club, kansai: None):
    typed = await club_settings(db, club)
    assert typed.language == "ja"
    assert typed.value("language") == settings.SystemLanguage()  # still the default
    assert typed.text("language") == "the system's language (ja)"
    assert settings.ClubSettings.defaults("plus").language == "ja"
    assert settings.ClubSettings.defaults().language == "en"  # a chat without a club


async def test_an_explicit_language_wins_over_the_systems(db: Database, club: Club, kansai: None):
    assert await set_setting(db, club, "language", "sv", actor=ORGANISER)
    typed = await club_settings(db, club)
    assert typed.language == "sv" and typed.text("language") == "sv"
    assert typed.value("language") != settings.SystemLanguage()
    await set_setting(db, club, "system", "daily", actor=ORGANISER)
    assert (await club_settings(db, club)).language == "sv"  # a system change keeps it


async def test_an_unset_language_moves_with_the_system(db: Database, club: Club, kansai: None):
    assert (await club_settings(db, club)).language == "ja"
    await set_setting(db, club, "system", "daily", actor=ORGANISER)  # a system without one
    assert (await club_settings(db, club)).language == "en"
    await set_setting(db, club, "system", "plus", actor=ORGANISER)
    assert (await club_settings(db, club)).language == "ja"


def test_the_language_setting_shows_its_default_honestly() -> None:
    setting = settings.setting_named("language")
    assert setting is not None
    assert setting.show(setting.default) == "the system's language"
    assert setting.show(settings.SystemLanguage("hu")) == "the system's language (hu)"
    assert setting.show(setting.read("ja")) == "ja"


@pytest.mark.parametrize("system", sorted(HOME))
async def test_each_rulebooks_club_speaks_its_language_by_default(real: Database, system: str):
    club = await create_club(real, f"{system} club", system, actor=ORGANISER)
    typed = await club_settings(real, club)
    assert typed.language == settings.home_language(system)
    if settings.home_language("mgsz") == "en":
        pytest.skip("the rulebooks declare their languages in engine/ (helper wt-rules)")
    assert typed.language == HOME[system]


def test_the_language_settings_texts_read_in_each_language() -> None:
    setting = settings.setting_named("language")
    assert setting is not None
    assert translated(setting.summary, "sv") == "språket i botens svar"
    assert translated(setting.show(settings.SystemLanguage("hu")), "hu") == (
        "a rendszer nyelve (hu)"
    )
    assert translated(setting.show(settings.SystemLanguage("ja")), "ja") == "方式の言語（ja）"


async def test_web_on_in_one_statement_whether_the_club_is_unknown_off_or_on(
    db: Database, club: Club
) -> None:
    """Issue 26: an unknown club and one that keeps its pages off cost the same."""
    from storage.settings import web_on

    costs = []
    for expected, setting in ((False, None), (True, "on"), (False, "off")):
        if setting is not None:
            await set_setting(db, club, "web", setting, actor="t")
        before = db.statements
        assert await web_on(db, club.id) is expected
        costs.append(db.statements - before)
    before = db.statements
    assert await web_on(db, club.id + 1000) is False
    costs.append(db.statements - before)
    assert costs == [1, 1, 1, 1]
