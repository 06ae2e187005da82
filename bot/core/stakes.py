"""What a game puts at stake under the club's system, in the reader's words (``/handicap``,
a published pairing): each player's gain or loss if Black wins and if White wins, worked out
by the rulebook (:meth:`engine.system.RatingSystem.stakes`)."""

from __future__ import annotations

from bot.core import format as fmt
from bot.i18n import _, translated
from engine.system import RatingSystem, Stake
from engine.types import Game
from storage.records import Player


def stake_lines(system: RatingSystem, black: Player, white: Player, game: Game) -> list[str]:
    """``If Black wins: Nagy Péter +12 Elo, Kovács Anna −12 Elo (if the period ended
    now)`` and the same if White wins; one line saying why when the game would not count, or
    who has no rating yet.

    Args:
        system: the club's ledger as it stands today (nothing is changed).
        black: the player taking Black in ``game``.
        white: the player taking White.
        game: the game as it would be played (its stones and komi; its result is ignored).
    """
    try:
        stakes = system.stakes(game)
    except KeyError:
        missing = [p for p in (black, white) if p.id not in set(system.players())]
        unrated = ", ".join(p.name for p in missing) or f"{black.name}, {white.name}"
        return [_("At stake: nothing to show, no rating yet for {names}", names=unrated)]
    if stakes.uncounted is not None:
        return [_("At stake: nothing ({reason})", reason=translated(stakes.uncounted))]
    names = {black.id: black.name, white.id: white.name}
    return [
        _("If Black wins: {changes}", changes=_changes(stakes.black_wins, names)),
        _("If White wins: {changes}", changes=_changes(stakes.white_wins, names)),
    ]


def _changes(pair: tuple[Stake, Stake], names: dict[int, str]) -> str:
    """``Nagy Péter +12 Elo, Kovács Anna −12 Elo (if the period ended now)``."""
    shown = [_one(stake, names[stake.player]) for stake in pair]
    text = _("{first}, {second}", first=shown[0], second=shown[1])
    notes = {stake.note for stake in pair if stake.note}
    if len(notes) == 1:
        # TRANSLATORS: what is at stake, then when it is settled: "…, Kovács Anna −1 point
        # (settled at the day's end)"
        text = _("{changes} ({note})", changes=text, note=translated(notes.pop()))
    return text


def _one(stake: Stake, name: str) -> str:
    """``Nagy Péter +12 Elo``; ``Nagy Péter (no rating yet)`` without a number."""
    if stake.change is None:
        return _("{name} (no rating yet)", name=name)
    # TRANSLATORS: a player's gain or loss and its unit: "Nagy Péter +12 Elo", "+1 points"
    return _(
        "{name} {change} {unit}",
        name=name,
        change=fmt.signed(stake.change),
        unit=translated(stake.unit),
    )
