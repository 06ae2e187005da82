"""storage.names: folding and lookup (case, accents, aliases, both orders, ambiguity)."""

from __future__ import annotations

import pytest

from storage.names import fold, lookup, name_key, unspaced


@pytest.mark.parametrize(
    ("name", "folded"),
    [
        ("Szabó Éva", "szabo eva"),
        ("  SZABO   eva ", "szabo eva"),
        ("Schmidt, Jonas", "schmidt jonas"),
        ("Łukasz Wróbel", "lukasz wrobel"),
        ("van_der_Berg Jan", "van der berg jan"),
        ("Kovács Réka (Szeg)", "kovacs reka szeg"),
        ("Nagy P. [Bp]", "nagy p bp"),
    ],
)
def test_fold(name: str, folded: str) -> None:
    assert fold(name) == folded


def test_a_club_in_parentheses_is_a_word_of_the_name() -> None:
    assert name_key("Kovács Réka (Szeg)") == name_key("Kovács Réka Szeg")


def test_name_key_ignores_word_order() -> None:
    assert name_key("Nagy Péter") == name_key("péter NAGY") == ("nagy", "peter")


CLUB = {
    1: ("Nagy Péter",),
    2: ("Kovács Anna", "Anni"),
    3: ("Nagy Pál",),
    4: ("Szabó Éva",),
    5: ("Szabo Eva",),  # a second person whose name folds the same
}


def _find(query: str) -> tuple[list[int], list[int], list[int]]:
    return lookup(query, list(CLUB), lambda p: CLUB[p])


@pytest.mark.parametrize(
    ("query", "exact"),
    [
        ("Nagy Péter", [1]),
        ("nagy peter", [1]),
        ("Péter Nagy", [1]),
        ("Anni", [2]),
        ("ANNA KOVACS", [2]),
        ("Szabo Eva", [4, 5]),
    ],
    ids=["as-written", "case-accents", "reversed", "alias", "reversed-folded", "ambiguous"],
)
def test_exact_matches(query: str, exact: list[int]) -> None:
    assert _find(query)[0] == exact


def test_partial_matches_contain_every_word() -> None:
    exact, partial, _ = _find("Nagy")
    assert exact == [] and partial == [1, 3]


def test_suggestions_on_a_miss() -> None:
    exact, partial, suggestions = _find("Kovach Ana")
    assert exact == [] and partial == []
    assert suggestions[0] == 2


def test_nothing_close_gives_nothing() -> None:
    assert _find("Zzyzx Qwerty") == ([], [], [])


def test_an_empty_query_matches_nobody() -> None:
    assert _find("   ") == ([], [], [])


def test_a_prefix_matches_when_asked() -> None:
    cups = {1: ("Tavaszi Kupa 2026",), 2: ("Tavaszi Kupa 2025",), 3: ("Őszi Kupa 2026",)}
    find = lambda query: lookup(query, list(cups), lambda c: cups[c], prefix=True)  # noqa: E731
    assert find("osz")[:2] == ([], [3])  # the start of the name, accents ignored
    assert find("tavaszi kupa 2")[:2] == ([], [1, 2])  # a prefix of two: both offered
    assert find("2026")[:2] == ([], [1, 3])  # every word, as for players
    assert lookup("osz", list(cups), lambda c: cups[c])[1] == []  # players: whole words only


JAPANESE_CLUB = {1: ("山田太郎",), 2: ("山本花子",), 3: ("Yamada Ken",)}


def test_a_japanese_name_is_found_by_any_part_of_it() -> None:
    """Japanese names have no spaces: 山田 (the family name) finds 山田太郎, 花子 finds
    山本花子, 山 finds both; a Latin-script word still needs to be a whole word."""

    def find(query: str) -> list[int]:
        return lookup(query, list(JAPANESE_CLUB), lambda p: JAPANESE_CLUB[p])[1]

    assert find("山田") == [1]
    assert find("花子") == [2]
    assert find("山") == [1, 2]
    assert find("Yama") == []


@pytest.mark.parametrize(
    ("text", "unspaced_"), [("山田", True), ("やまだ", True), ("Nagy", False), ("山 田", True)]
)
def test_scripts_without_spaces(text: str, unspaced_: bool) -> None:
    assert unspaced(text) is unspaced_
