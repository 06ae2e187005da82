"""Name keys (bot.md: names are matched case- and accent-insensitively, surname first or last)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.formats.names import fold_name, name_keys, name_variants, visible_name

FOLDED = [
    ("Szabó Éva", "szabo eva"),
    ("SZABO EVA", "szabo eva"),
    ("szabo_eva", "szabo eva"),
    ("  Nagy   Péter ", "nagy peter"),
    ("Kovács\tAnna", "kovacs anna"),
    ("Szűcs Ödön", "szucs odon"),  # Hungarian double acute
    ("Łukasz Wróbel", "lukasz wrobel"),  # ł does not decompose
    ("Øystein Ærø", "oystein aero"),
    ("Straße", "strasse"),
    ("Đorđe", "dorde"),
    ("Ko\u200bvács", "kovacs"),  # zero-width space
    ("\ufeffNagy\u00adPéter", "nagypeter"),  # BOM and soft hyphen
    ("ﬁala", "fiala"),  # NFKD ligature
    ("Nagy_Kovács  _Anna", "nagy kovacs anna"),
]


@pytest.mark.parametrize("name, key", FOLDED, ids=[n for n, _ in FOLDED])
def test_fold_name(name: str, key: str) -> None:
    assert fold_name(name) == key


VARIANTS = [
    ("Nagy Péter", ("Nagy Péter", "Péter Nagy")),
    ("Madonna", ("Madonna",)),
    ("Kovács Anna Mária", ("Kovács Anna Mária", "Anna Mária Kovács", "Mária Kovács Anna")),
    ("Schmidt, Jonas", ("Schmidt Jonas", "Jonas Schmidt")),
    ("van_der_Berg Jan", ("van der Berg Jan", "der Berg Jan van", "Berg Jan van der",
                          "Jan van der Berg")),
    ("  Nagy   Péter ", ("Nagy Péter", "Péter Nagy")),
    ("Ho Ho", ("Ho Ho",)),
    ("", ()),
]  # fmt: skip


@pytest.mark.parametrize("name, variants", VARIANTS, ids=[n or "empty" for n, _ in VARIANTS])
def test_name_variants(name: str, variants: tuple[str, ...]) -> None:
    assert name_variants(name) == variants


MATCHES = [
    ("Nagy Péter", "peter nagy", True),
    ("Nagy Péter", "NAGY_PETER", True),
    ("van der Berg Jan", "Jan van der Berg", True),
    ("Szabó Éva", "Szabo Eva", True),
    ("Nagy Péter", "Nagy Pál", False),
    ("Nagy Péter", "Péter", False),
]


@pytest.mark.parametrize("a, b, match", MATCHES, ids=[f"{a}~{b}" for a, b, _ in MATCHES])
def test_name_keys_meet_for_the_same_person(a: str, b: str, match: bool) -> None:
    assert bool(name_keys(a) & name_keys(b)) is match


LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZáéíóöőúüűÁÉÍÓÖŐÚÜŰłŁøßąęńśźż"
names = st.text(LETTERS + " _\t\u200b", max_size=30)


@given(names)
def test_fold_is_idempotent_ascii_and_tidy(name: str) -> None:
    key = fold_name(name)
    assert fold_name(key) == key
    assert key.isascii()
    assert key == key.strip() and "  " not in key
    assert key == key.lower()


@given(names)
def test_fold_ignores_case(name: str) -> None:
    assert fold_name(name.upper()) == fold_name(name) == fold_name(name.lower())


@given(st.lists(st.text(LETTERS, min_size=1, max_size=8), min_size=1, max_size=4))
def test_every_variant_has_the_same_words(words: list[str]) -> None:
    variants = name_variants(" ".join(words))
    assert variants[0] == " ".join(words)
    for variant in variants:
        assert sorted(variant.split()) == sorted(words)
    # surname first ↔ surname last: moving the first word to the end is a variant
    assert " ".join(words[1:] + words[:1]) in variants


@pytest.mark.parametrize(
    "hidden",
    ["\u2066", "\u2067", "\u2068", "\u2069", "\u202e", "\u061c", "\u200e", "\x00", "\u034f",
     "\ufe0f", "\U000e0041"],
)  # fmt: skip
def test_a_name_with_an_invisible_character_is_the_same_name(hidden: str) -> None:
    """Issue 26: bidirectional controls and other default-ignorables (and NUL) draw nothing,
    so they are no part of a name: Nagy Péter cannot be registered again with one inside."""
    written = f"Nagy{hidden} Pé{hidden}ter{hidden}"
    assert visible_name(written) == "Nagy Péter"
    assert fold_name(written) == fold_name("Nagy Péter")


def test_a_visible_name_keeps_every_letter_and_composes_them() -> None:
    assert visible_name("Sza\u0301bo\u0301  E\u0301va") == "Szábó Éva"  # NFC
    assert visible_name("山田　太郎") == "山田 太郎"  # an ideographic space is a space
    for ch in ("ß", "ł", "ı", "ﬁ"):
        assert visible_name(ch) == ch
