"""Name folding and lookup: case- and accent-insensitive, either name order (bot.md, Arguments).

Folding lives here in one place: :func:`fold` uses ``engine.formats.names.fold_name`` when the
engine provides it and a local NFKD + casefold otherwise.
"""

from __future__ import annotations

import difflib
import importlib
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")

# Letters NFKD does not decompose into a base letter plus marks.
_LETTERS = str.maketrans(
    {"ł": "l", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ı": "i"}
)
_SEPARATORS = str.maketrans({"_": " ", ",": " ", ".": " ", ";": " "})

SUGGESTIONS = 5
SUGGESTION_CUTOFF = 0.6


def _local_fold(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.translate(_LETTERS).translate(_SEPARATORS).split())


def _engine_fold() -> Callable[[str], str] | None:
    try:
        module = importlib.import_module("engine.formats.names")
    except ImportError:
        return None
    found: Callable[[str], str] | None = getattr(module, "fold_name", None)
    return found


_FOLD = _engine_fold() or _local_fold


def fold(name: str) -> str:
    """``"Szabó  Éva"`` → ``"szabo eva"``: casefolded, accents dropped, spaces collapsed."""
    return " ".join(_local_fold(_FOLD(name)).split())


def name_key(name: str) -> tuple[str, ...]:
    """The folded words in sorted order: equal for ``Nagy Péter`` and ``Péter Nagy``."""
    return tuple(sorted(fold(name).split()))


def lookup(
    query: str, candidates: Sequence[T], names: Callable[[T], Iterable[str]]
) -> tuple[list[T], list[T], list[T]]:
    """Match ``query`` against each candidate's names (its name and aliases).

    Returns:
        ``(exact, partial, suggestions)``: the candidates whose name matches exactly (folded,
        any word order); on a miss, those whose names contain every query word; and the
        closest names by ``difflib`` among the rest.
    """
    key = name_key(query)
    if not key:
        return [], [], []
    exact = [c for c in candidates if any(name_key(n) == key for n in names(c))]
    if exact:
        return exact, [], []
    words = set(key)
    partial = [c for c in candidates if any(words <= set(name_key(n)) for n in names(c))]
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
