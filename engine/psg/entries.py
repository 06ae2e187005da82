"""PSG entry ranks of a tournament being imported or opened (rules.md §4.1; seed §5, §11, §13).

A pure check: it lists the entries that break the rules so an organiser can correct them (the
committee may exclude the tournament, §11(4)); it never changes the entries.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.ranks import Rank
from engine.text import Msg
from engine.types import Entry, PlayerId

# Seed §11(3) (rules.md §4.1): a player who never was a participant enters at 6k or weaker;
# stronger needs committee approval: one member up to 3k, two members up to 1k, a committee
# resolution above 1k. (limit, who must approve a rank up to the limit)
NEW_PLAYER_APPROVALS: tuple[tuple[Rank, str], ...] = (
    (Rank.kyu(6), Msg("no approval")),
    (Rank.kyu(3), Msg("one committee member's approval (§11(3)(1))")),
    (Rank.kyu(1), Msg("two committee members' approval (§11(3)(2))")),
    (Rank.dan(9), Msg("a committee resolution (§11(3)(3))")),
)

# Countries whose players the §11 rules govern; an entry without a country is taken as domestic.
DOMESTIC_COUNTRIES: frozenset[str | None] = frozenset({"PL", None})


@dataclass(frozen=True, slots=True)
class EntryStanding:
    """What the ledger knows of one participant for the entry rules (rules.md §4.1).

    ``rank`` is the current PSG rank (for an inactive participant: their last rank).
    """

    rank: Rank
    active: bool


def entry_rank_violations(
    entries: Iterable[Entry],
    standings: Mapping[PlayerId, EntryStanding],
    *,
    approvals: Mapping[PlayerId, Rank] | None = None,
    domestic: frozenset[str | None] = DOMESTIC_COUNTRIES,
) -> list[str]:
    """Readable problems with the entries' ranks (rules.md §4.1, Entry ranks).

    * an active participant must enter with their current PSG rank (§5(1), §11(1));
    * an inactive participant at no more than their last rank (§13(1));
    * a domestic player who never was a participant at no more than 6k, unless committee
      members approved a stronger rank (§11(3)); ``approvals`` holds those approvals by player.
    Foreign players who are not participants are not governed by these rules.

    Args:
        entries: the tournament's entries.
        standings: participants known to the ledger, by player.
        approvals: committee approvals on record (the strongest rank allowed), by player.
        domestic: the countries whose non-participants §11(3) covers.

    Returns:
        One sentence per problem, in entry order; empty when every entry is in order.
    """
    approved = approvals or {}
    problems: list[str] = []
    for entry in entries:
        if entry.rank is None:
            continue  # no rank declared: the entry plays with the PSG rank of its first day
        standing = standings.get(entry.player)
        allowed = approved.get(entry.player)
        if standing is not None:
            problems.extend(_participant_problem(entry, standing, allowed))
        elif entry.country in domestic:
            problems.extend(_new_player_problem(entry, allowed))
    return problems


def _participant_problem(entry: Entry, standing: EntryStanding, allowed: Rank | None) -> list[str]:
    assert entry.rank is not None
    if allowed is not None and entry.rank <= allowed:
        return []  # a committee approval on record covers this entry (§11(2), §13)
    if standing.active and entry.rank != standing.rank:
        return [
            Msg(
                "{player} entered as {rank} but their PSG rank is {current} (PSG regulations "
                "§5(1): participants enter with their current rank)",
                player=f"{{player:{entry.player}}}",
                rank=str(entry.rank),
                current=str(standing.rank),
            )
        ]
    if not standing.active and entry.rank > standing.rank:
        return [
            Msg(
                "{player} entered as {rank}, stronger than their last PSG rank {last} (PSG "
                "regulations §13(1): an inactive participant enters at most at the last rank)",
                player=f"{{player:{entry.player}}}",
                rank=str(entry.rank),
                last=str(standing.rank),
            )
        ]
    return []


def _new_player_problem(entry: Entry, allowed: Rank | None) -> list[str]:
    assert entry.rank is not None
    free_limit = NEW_PLAYER_APPROVALS[0][0]
    if entry.rank <= free_limit or (allowed is not None and entry.rank <= allowed):
        return []
    needed = next(who for limit, who in NEW_PLAYER_APPROVALS if entry.rank <= limit)
    return [
        Msg(
            "{player} never was a PSG participant and entered as {rank}; "
            "above {limit} that needs {approval}",
            player=f"{{player:{entry.player}}}",
            rank=str(entry.rank),
            limit=str(free_limit),
            approval=needed,
        )
    ]
