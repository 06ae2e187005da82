"""Turning typed names into players: accents and case ignored, aliases, closest matches on a
miss, ambiguity asked back, never guessed (bot.md, What every reply and error must be like)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import storage
from bot.core.context import Context
from bot.core.errors import Ambiguous, BadArgument, UnknownPlayer
from bot.core.parse import Token, join
from bot.i18n import _, _n, quoted
from storage.common import NAME_MAX
from storage.records import Lookup, Player, TournamentRow

MAX_LISTED = 5
PAIR_SEPARATORS = {"vs", "vs.", "v", "-", "–", "—", "and", ",", "&"}
PAIR_EXAMPLE = "Nagy Péter vs Kovács Anna"
NAME_WORDS = 8
"""The most words one name is read from (a name is at most NAME_MAX characters): a line of
thousands of words is refused at once, never split every way (issue 26: /handicap with 2,000
words held the bot for seconds)."""
QUOTED_PAIR_EXAMPLE = '"Nagy Péter" vs "Kovács Anna"'


def describe(player: Player) -> str:
    """``Nagy Péter (3k, HU)`` — enough to tell two namesakes apart; a professional by the
    declared title (``Cho Hun (3p)``, rules.md §6), not the amateur rank kept beside it."""
    rank = f"{player.pro}p" if player.pro else str(player.rank)
    extra = ", ".join(x for x in (rank, player.country, player.home_club) if x)
    return f"{player.name} ({extra})"


async def lookup(ctx: Context, name: str) -> Lookup:
    return await storage.find_player(ctx.db, ctx.the_club, name)


def _possible(name: str) -> bool:
    """Whether ``name`` may be a player's name: at most :data:`NAME_WORDS` words and
    ``NAME_MAX`` characters (longer text is no name, and is not looked up)."""
    return len(name) <= NAME_MAX and len(name.split()) <= NAME_WORDS


def _too_long(what: str) -> BadArgument:
    """Two names in more words than two names have."""
    return BadArgument(
        _(
            "{what} takes two players' names of at most {words} words each, e.g. {example}",
            what=what,
            words=NAME_WORDS,
            example=PAIR_EXAMPLE,
        )
    )


def refusal(name: str, found: Lookup) -> Ambiguous | UnknownPlayer:
    """The error for a lookup that found no single player."""
    if found.ambiguous:
        listed = "; ".join(describe(p) for p in found.ambiguous[:MAX_LISTED])
        return Ambiguous(
            _n(
                "{n} player is called {name}: {listed}. Which one? Add an alias with /register "
                "or use the full name in quotes.",
                "{n} players are called {name}: {listed}. Which one? Add an alias with "
                "/register or use the full name in quotes.",
                len(found.ambiguous),
                name=quoted(name),
                listed=listed,
            )
        )
    close = [*found.partial, *(p for p in found.suggestions if p not in found.partial)]
    if close:
        listed = ", ".join(p.name for p in close[:MAX_LISTED])
        return UnknownPlayer(
            _("no player called {name}. Did you mean: {listed}?", name=quoted(name), listed=listed)
        )
    return UnknownPlayer(
        _(
            "no player called {name} in this club. Organisers add players with "
            "/register NAME RANK, e.g. {example}",
            name=quoted(name),
            example="/register Nagy Péter 3k",
        )
    )


def single(found: Lookup) -> Player | None:
    """The one player a lookup names: an exact match, or the only partial one."""
    if found.player is not None:
        return found.player
    if not found.ambiguous and len(found.partial) == 1:
        return found.partial[0]
    return None


async def resolve(ctx: Context, name: str) -> Player:
    """The one player ``name`` denotes (one partial match is accepted: ``Nagy`` → Nagy Péter).

    Raises:
        UnknownPlayer: with the closest names.
        Ambiguous: listing the namesakes.
    """
    name = name.strip()
    if not name:
        raise BadArgument(_("a player's name is missing"))
    if not _possible(name):
        raise BadArgument(
            _(
                "a player's name is at most {words} words and {chars} characters, e.g. {example}",
                words=NAME_WORDS,
                chars=NAME_MAX,
                example="Nagy Péter",
            )
        )
    found = await lookup(ctx, name)
    player = single(found)
    if player is None:
        raise refusal(name, found)
    return player


async def resolve_pair(
    ctx: Context, tokens: Sequence[Token], what: str, at: int | None = None
) -> tuple[Player, Player]:
    """Two players named one after the other: ``Nagy Péter Kovács Anna``, ``"A" "B"`` or
    ``A vs B``. Without quotes or a separator every split is tried; exactly one split must
    name two players. ``at``: the names are split before that token (a word such as
    ``beat`` stood there).

    Raises:
        BadArgument: fewer than two names, or no or several readings.
        UnknownPlayer, Ambiguous: for a side that does not resolve.
    """
    words = list(tokens)
    if at is not None:
        return await _both(ctx, join(words[:at]), join(words[at:]), what)
    for i, token in enumerate(words):
        if not token.quoted and token.text.lower() in PAIR_SEPARATORS:
            return await _both(ctx, join(words[:i]), join(words[i + 1 :]), what)
    if len(words) < 2:
        raise BadArgument(
            _("{what} needs two players, e.g. {example}", what=what, example=PAIR_EXAMPLE)
        )
    if len(words) == 2:
        return await _both(ctx, words[0].text, words[1].text, what)
    if len(words) > 2 * NAME_WORDS or len(join(words)) > 2 * NAME_MAX:
        raise _too_long(what)  # before any split is tried: each costs a lookup per side
    readings: list[tuple[Player, Player]] = []
    twice: Player | None = None  # a split naming one player on both sides
    for i in range(1, len(words)):
        if words[i - 1].quoted and not words[i].quoted and i < len(words) - 1:
            continue
        left, right = join(words[:i]), join(words[i:])
        if not (_possible(left) and _possible(right)):
            continue
        first = single(await lookup(ctx, left))
        second = single(await lookup(ctx, right))
        if first is None or second is None:
            continue
        if first.id == second.id:
            twice = first  # never a reading: one player cannot be both sides
        elif (first, second) not in readings:
            readings.append((first, second))  # splits naming the same pair are one reading
    if not readings and twice is not None:
        raise same_player(twice, what)
    if len(readings) == 1:
        return readings[0]
    if len(readings) > 1:
        raise BadArgument(
            _n(
                "I can read those names in {n} way; put each name in quotes or write vs "
                "between them, e.g. {example}",
                "I can read those names in {n} ways; put each name in quotes or write vs "
                "between them, e.g. {example}",
                len(readings),
                example=QUOTED_PAIR_EXAMPLE,
            )
        )
    # no split names two known players: explain the likeliest one
    middle = len(words) // 2
    return await _both(ctx, join(words[:middle]), join(words[middle:]), what)


async def _both(ctx: Context, a: str, b: str, what: str) -> tuple[Player, Player]:
    if not a or not b:
        raise BadArgument(
            _("{what} needs two players, e.g. {example}", what=what, example=PAIR_EXAMPLE)
        )
    first = await resolve(ctx, a)
    second = await resolve(ctx, b)
    if first.id == second.id:
        raise same_player(first, what)
    return first, second


def same_player(player: Player, what: str) -> BadArgument:
    """The refusal of two names that denote one player: nobody plays themselves."""
    return BadArgument(
        _(
            "both names are {name}; {what} needs two different players",
            name=player.name,
            what=what,
        )
    )


async def resolve_tournament(ctx: Context, name: str, example: str) -> TournamentRow:
    """The tournament ``name`` denotes, matched as player names are (storage.names): case and
    accents ignored, a unique prefix or partial name accepted, ambiguity asked back, the
    closest names on a miss. ``#3`` (or a bare 3 no tournament is called) is the club's number.

    ``example`` shows how to name one by number, with ``{}`` for it (``/tournament show #{}``).

    Raises:
        BadArgument: no such tournament (with the closest names).
        Ambiguous: several match (listed with their numbers).
    """
    name = name.strip()
    number = re.fullmatch(r"#?(\d{1,12})", name)
    found = await storage.find_tournament(ctx.db, ctx.the_club, name)
    if number is not None and (name.startswith("#") or found.exact is None):
        row = await storage.tournament_by_number(ctx.db, ctx.the_club, int(number[1]))
        if row is not None:
            return row
        if name.startswith("#") or not (found.partial or found.suggestions):
            raise BadArgument(_("there is no tournament #{number} in this club", number=number[1]))
    if found.exact is not None:
        return found.exact
    if len(found.partial) == 1:
        return found.partial[0]
    if found.partial:
        listed = ", ".join(f"{r.tournament.name} (#{r.number})" for r in found.partial)
        raise Ambiguous(
            _n(
                "{n} tournament matches {name}: {listed}. Which one? Give more of the name or "
                "its number, e.g. {example}",
                "{n} tournaments match {name}: {listed}. Which one? Give more of the name or "
                "its number, e.g. {example}",
                len(found.partial),
                name=quoted(name),
                listed=listed,
                example=example.format(found.partial[0].number),
            )
        )
    if found.suggestions:
        listed = ", ".join(r.tournament.name for r in found.suggestions[:MAX_LISTED])
        raise BadArgument(
            _(
                "there is no tournament {name}. Did you mean: {listed}?",
                name=quoted(name),
                listed=listed,
            )
        )
    known = ", ".join(r.tournament.name for r in await storage.tournaments(ctx.db, ctx.the_club))
    if known:
        raise BadArgument(
            _(
                "there is no tournament {name} in this club; it has: {known}",
                name=quoted(name),
                known=known,
            )
        )
    raise BadArgument(_("there is no tournament {name} in this club", name=quoted(name)))


@dataclass(frozen=True, slots=True)
class ClubNames:
    """The parser's :class:`~bot.core.parse.Names` port for a conversation's club: names
    matched here, in one place (:func:`resolve`, :func:`resolve_pair`)."""

    ctx: Context

    async def player(self, name: str) -> Player:
        return await resolve(self.ctx, name)

    async def pair(
        self, tokens: Sequence[Token], what: str, at: int | None = None
    ) -> tuple[Player, Player]:
        return await resolve_pair(self.ctx, tokens, what, at)
