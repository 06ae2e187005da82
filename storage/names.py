"""Name lookup: case- and accent-insensitive, either name order (bot.md, Arguments).

Folding is the engine's (``engine.formats.names.fold_name``, shared with the file importers);
this module adds the separators people type between names (commas, dots, parentheses) and
the matching.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from engine.formats.names import fold_name

T = TypeVar("T")

# Punctuation people and importers put between or around name parts: "Schmidt, Jonas",
# "Kovács Réka (Szeg)" — a word, not part of one.
_SEPARATORS = str.maketrans(dict.fromkeys(",.;()[]", " "))

SUGGESTIONS = 5
SUGGESTION_CUTOFF = 0.6


def fold(name: str) -> str:
    """``"Szabó,  Éva"`` → ``"szabo eva"``: casefolded, accents dropped, spaces collapsed."""
    return " ".join(fold_name(name).translate(_SEPARATORS).split())


def unspaced(text: str) -> bool:
    """Written in a script that puts no spaces between words (Japanese, Chinese: every
    character full width): any run of a name's characters is a part of it (山田 → 山田太郎)."""
    letters = [ch for ch in text if not ch.isspace()]
    return bool(letters) and all(unicodedata.east_asian_width(ch) in "WF" for ch in letters)


def name_key(name: str) -> tuple[str, ...]:
    """The folded words in sorted order: equal for ``Nagy Péter`` and ``Péter Nagy``."""
    return tuple(sorted(fold(name).split()))


def lookup(
    query: str,
    candidates: Sequence[T],
    names: Callable[[T], Iterable[str]],
    *,
    prefix: bool = False,
) -> tuple[list[T], list[T], list[T]]:
    """Match ``query`` against each candidate's names (its name and aliases).

    Args:
        prefix: also take names that start with the query (``tav`` → Tavaszi Kupa 2026), as
            tournament names are typed.

    Returns:
        ``(exact, partial, suggestions)``: the candidates whose name matches exactly (folded,
        any word order); on a miss, those whose names contain every query word (or, with
        ``prefix``, start with the query; or, for a query in a script without spaces, contain
        it: :func:`unspaced`); and the closest names by ``difflib`` among the rest.
    """
    key = name_key(query)
    if not key:
        return [], [], []
    exact = [c for c in candidates if any(name_key(n) == key for n in names(c))]
    if exact:
        return exact, [], []
    words, start, run = set(key), fold(query), unspaced(query)
    partial = [
        c
        for c in candidates
        if any(
            words <= set(name_key(n))
            or (prefix and fold(n).startswith(start))
            or (run and start in fold(n))
            for n in names(c)
        )
    ]
    folded: dict[str, list[T]] = {}
    for candidate in candidates:
        if candidate in partial:
            continue
        for name in names(candidate):
            for form in {fold(name), " ".join(reversed(fold(name).split()))}:
                folded.setdefault(form, []).append(candidate)
    suggestions: list[T] = []
    for match in difflib.get_close_matches(
        fold(query), list(folded), n=SUGGESTIONS * 2, cutoff=SUGGESTION_CUTOFF
    ):
        for candidate in folded[match]:
            if candidate not in suggestions:
                suggestions.append(candidate)
    return exact, partial, suggestions[:SUGGESTIONS]
