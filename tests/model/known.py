"""The model's known open bugs: each entry skips ONE check or generation path, and names the bug.

The lead empties this set once the fixes (other branches of issue 22) are merged; a check guarded
here is then live again. Nothing else in tests/model may skip a check.
"""

from __future__ import annotations

KNOWN_OPEN: frozenset[str] = frozenset(
    {
        # `/handicap X X` answers a game of a player with themselves, and a tournament game of
        # a player with themselves is recorded (bug "/handicap X X and self-pairing"): the
        # model pairs a player only with others
        "self-pairing",
        # MGSZ's "if the period ended now" pools every pending club game in one period, while
        # the close rates each month's club games as their own period, month by month: a club
        # game entered late for an earlier month makes the preview differ from what the close
        # gives (engine/mgsz/ledger.py, MgszLedger.provisional; found by the model, not one of
        # the seven known bugs; left to the helper who fixes the preview's C in the same
        # function). The model skips the MGSZ preview check for a player with such a game.
        "mgsz-preview-months",
        # the weekly summary lists a tournament reopened and finalised again twice
        # ("Tournaments rated: Alpha Cup, Alpha Cup"; bug "weekly summary counting a reopened
        # tournament twice"): the no-op check leaves the summary out
        "noop-summary",
        # `/correct N swap` swaps the players but keeps the result, so the other player wins
        # (bug "/correct N swap changing the winner"): the swap check is skipped
        "swap-winner",
        # PSG's /history notes name a game by its log position ("game 43: arranged game not
        # counted …"; bug "internal ids in PSG /history"): the numbers check lets a /history
        # reply's "game N:" pass
        "psg-history-ids",
    }
)


def known(name: str) -> bool:
    """Whether the check or path ``name`` is skipped for a known open bug."""
    return name in KNOWN_OPEN
