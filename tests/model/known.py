"""The model's known open bugs: each entry skips ONE check or generation path, and names the bug.

The lead empties this set once the fixes (other branches of issue 22) are merged; a check guarded
here is then live again. Nothing else in tests/model may skip a check.
"""

from __future__ import annotations

KNOWN_OPEN: frozenset[str] = frozenset()
"""Empty: the bugs it held ("self-pairing": a game of a player with themselves;
"mgsz-preview-months": the MGSZ preview of club games of several months held at once) are
fixed, and every check runs (issue 22)."""


def known(name: str) -> bool:
    """Whether the check or path ``name`` is skipped for a known open bug."""
    return name in KNOWN_OPEN
