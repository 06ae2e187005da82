"""OpenGotha tournament XML (formats.md, OpenGotha tournament XML).

The root ``<Tournament>`` holds ``<Players>``, ``<Games>``, ``<ByePlayers>`` and
``<TournamentParameterSet>`` (``GeneralParameterSet``, ``HandicapParameterSet``); team elements
and the other parameter sets are ignored. Games name their players by key: surname + first
name, spaces removed, upper-cased (``NAGYPÉTER``).

The file is user input: it is parsed with :mod:`defusedxml`, which refuses entity declarations
(billion laughs) and external references. Reading is all or nothing.
"""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET
from fractions import Fraction

import defusedxml.ElementTree as SafeET  # type: ignore[import-untyped,unused-ignore]
from defusedxml import DefusedXmlException  # type: ignore[import-untyped,unused-ignore]

from engine.errors import RankError, TimeControlError
from engine.formats.messages import format_error, joined, message_of
from engine.formats.names import fold_name
from engine.formats.tournament_file import (
    EVEN_RULE,
    FileBye,
    FileGame,
    FilePlayer,
    TournamentFile,
    administrative_note,
    parse_komi,
)
from engine.ranks import parse_rank_lenient
from engine.text import Msg, plural
from engine.timecontrol import Overtime, TimeControl
from engine.types import ByeKind, Outcome, Result

# OpenGotha's Game.result names → (result, played, both-win/both-lose); formats.md: the
# _BYDEF results are by default (unplayed); BOTHWIN and BOTHLOSE are unplayed for rating.
RESULTS: dict[str, tuple[Result | None, bool, Outcome | None]] = {
    "RESULT_UNKNOWN": (None, True, None),
    "RESULT_WHITEWINS": (Result.WHITE, True, None),
    "RESULT_BLACKWINS": (Result.BLACK, True, None),
    "RESULT_EQUAL": (Result.JIGO, True, None),
    "RESULT_BOTHLOSE": (None, False, Outcome.LOSS),
    "RESULT_BOTHWIN": (None, False, Outcome.WIN),
    "RESULT_WHITEWINS_BYDEF": (Result.WHITE, False, None),
    "RESULT_BLACKWINS_BYDEF": (Result.BLACK, False, None),
    "RESULT_EQUAL_BYDEF": (Result.JIGO, False, None),
    "RESULT_BOTHLOSE_BYDEF": (None, False, Outcome.LOSS),
    "RESULT_BOTHWIN_BYDEF": (None, False, Outcome.WIN),
}

# GeneralParameterSet genNBW2ValueBye: twice the points a bye is worth (2 = a win)
BYE_VALUES: dict[str, ByeKind] = {"2": "win", "1": "half", "0": "none"}
DEFAULT_BYE_VALUE = "2"

UNPLAYED_STATUS = "PRE"  # registeringStatus of a preliminary registration

_ENCODING_RE = re.compile(rb"""^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")
_NOTE_ATTRIBUTES = ("shortName", "director")


def parse_opengotha(data: bytes | str) -> TournamentFile:
    """Read an OpenGotha tournament file (formats.md, OpenGotha tournament XML).

    Players are numbered in the order of their ``<Player>`` elements. A round in which a
    player has neither game nor ``<ByePlayer>`` is recorded as not paired (``kind="none"``),
    as an h9 file writes ``0-``; the bye itself counts as ``genNBW2ValueBye`` says (2: win,
    1: half, 0: nothing).

    Raises:
        FormatError: for malformed or unsafe XML (entity declarations are refused), unknown
            player keys and results, and games that contradict each other.
    """
    root = _parse_xml(data)
    if root.tag != "Tournament":
        raise format_error(
            Msg(
                "the root element is <{tag}>, not <Tournament>: this is not an "
                "OpenGotha tournament file",
                tag=root.tag,
            ),
            token=root.tag,
        )
    encoding = _declared_encoding(data)
    warnings: list[str] = []
    general = root.find("TournamentParameterSet/GeneralParameterSet")
    if general is None:
        raise format_error(
            Msg(
                "the file has no <TournamentParameterSet><GeneralParameterSet>; export "
                "the whole tournament from OpenGotha (File → Save)"
            ),
            token="GeneralParameterSet",
        )
    rounds = _int(general, "numberOfRounds", None, low=1)
    players, keys = _players(root, warnings)
    by_position = _Rounds({player.position: player.name for player in players})
    games = _games(root, keys, rounds, by_position)
    byes = _byes(root, general, keys, rounds, by_position)
    if by_position.clashes:  # all or nothing: every player twice in a round is named
        raise format_error(joined(by_position.clashes, lines=True), token=by_position.first)
    for round_number in range(1, rounds + 1):
        for player in players:
            if (round_number, player.position) not in by_position:
                byes.append(FileBye(round_number, player.position, "none"))
    byes.sort(key=lambda bye: (bye.round, bye.player))
    games.sort(key=lambda game: (game.round, min(game.black, game.white)))
    handicap = root.find("TournamentParameterSet/HandicapParameterSet")
    handicap_rule, even = _handicap(handicap, games)
    time = _time(general)
    unknown = sum(1 for g in games if g.result is None and g.double is None)
    if unknown:
        warnings.append(
            plural(
                "{n} game has an unknown result: stored, never rated",
                "{n} games have an unknown result: stored, never rated",
                unknown,
            )
        )
    note = administrative_note(games, {player.position: player.name for player in players})
    if note:
        warnings.append(note)
    notes = {
        attribute: general.get(attribute, "")
        for attribute in _NOTE_ATTRIBUTES
        if general.get(attribute)
    }
    if handicap is not None:
        notes.update(
            {
                f"handicap.{attribute}": value
                for attribute, value in sorted(handicap.attrib.items())
            }
        )
    return TournamentFile(
        name=general.get("name", "").strip(),
        start=_date(general, "beginDate"),
        end=_date(general, "endDate"),
        rounds=rounds,
        board=_int(general, "size", 19, low=2),
        komi=_komi(general),
        time_minutes=_whole_minutes(time),
        time=time,
        handicap_rule=handicap_rule,
        even=even,
        place=general.get("location", "").strip() or None,
        notes=notes,
        encoding=encoding,
        players=tuple(players),
        games=tuple(games),
        byes=tuple(byes),
        unknown_results=unknown,
        warnings=tuple(warnings),
    )


def _parse_xml(data: bytes | str) -> ET.Element:
    try:
        root: ET.Element = SafeET.fromstring(data)
    except DefusedXmlException as exc:
        raise format_error(
            Msg(
                "the XML file declares entities or external references ({error}); hoshi refuses "
                "to expand them: export the file again from OpenGotha",
                error=message_of(exc),
            ),
            token=type(exc).__name__,
        ) from None
    except ET.ParseError as exc:
        line = exc.position[0] if exc.position else None
        raise format_error(
            Msg("not well-formed XML: {error}", error=message_of(exc)), line=line
        ) from None
    return root


def _declared_encoding(data: bytes | str) -> str:
    if isinstance(data, str):
        return "text"
    match = _ENCODING_RE.match(data.removeprefix(b"\xef\xbb\xbf"))
    return match[1].decode("ascii").upper() if match else "UTF-8"


def _where(element: ET.Element) -> str:
    attributes = " ".join(f'{key}="{value}"' for key, value in element.attrib.items())
    return f"<{element.tag} {attributes}/>"


def _int(element: ET.Element, attribute: str, default: int | None, *, low: int = 0) -> int:
    text = element.get(attribute)
    if text is None or not text.strip():
        if default is None:
            raise format_error(
                Msg(
                    "{element} has no {attribute}; it needs a whole number",
                    element=_where(element),
                    attribute=attribute,
                ),
                token=attribute,
            )
        return default
    stripped = text.strip()
    if not stripped.isdecimal() or int(stripped) < low:
        raise format_error(
            Msg(
                "{attribute}={text!r} in {element} is not a whole number ≥ {low}",
                attribute=attribute,
                text=text,
                element=_where(element),
                low=low,
            ),
            token=text,
        )
    return int(stripped)


def _date(element: ET.Element, attribute: str) -> dt.date | None:
    text = element.get(attribute, "").strip()
    if not text:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise format_error(
            Msg(
                "{attribute}={text!r} is not a date; OpenGotha writes YYYY-MM-DD, e.g. 2026-04-11",
                attribute=attribute,
                text=text,
            ),
            token=text,
        ) from None


def _komi(element: ET.Element) -> Fraction | None:
    text = element.get("komi", "").strip()
    return parse_komi(text) if text else None


def player_key(name: str, first_name: str) -> str:
    """OpenGotha's key of a player: surname + first name, spaces removed, upper-cased."""
    return (name + first_name).replace(" ", "").upper()


def _players(root: ET.Element, warnings: list[str]) -> tuple[list[FilePlayer], dict[str, int]]:
    elements = root.findall("Players/Player")
    if not elements:
        raise format_error(Msg("the file has no <Players><Player …/></Players>"), token="Players")
    used = _used_keys(root)
    players: list[FilePlayer] = []
    keys: dict[str, int] = {}
    for element in elements:
        surname = element.get("name", "").strip()
        first_name = element.get("firstName", "").strip()
        key = player_key(surname, first_name)
        if not key:
            raise format_error(Msg("{element} has no name", element=_where(element)), token="name")
        if element.get("registeringStatus") == UNPLAYED_STATUS and key not in used:
            warnings.append(
                Msg(
                    "{surname} {first_name} is only pre-registered and played no game",
                    surname=surname,
                    first_name=first_name,
                )
            )
            continue
        if key in keys:
            raise format_error(
                Msg(
                    "two players have the key {key!r} ({surname} {first_name}); OpenGotha "
                    "keys must be unique",
                    key=key,
                    surname=surname,
                    first_name=first_name,
                ),
                token=key,
            )
        rank_text = element.get("rank", "").strip()
        try:
            rank, pro = parse_rank_lenient(rank_text)
        except RankError as exc:
            raise format_error(
                Msg(
                    "rank={rank!r} of {surname} {first_name} is not a rank: {error}",
                    rank=rank_text,
                    surname=surname,
                    first_name=first_name,
                    error=message_of(exc),
                ),
                token=rank_text,
            ) from None
        position = len(players) + 1
        name = " ".join(f"{surname} {first_name}".replace("_", " ").split())
        if pro:
            warnings.append(
                Msg(
                    "{name} has a professional rank {pro}, read as {rank}",
                    name=name,
                    pro=rank_text,
                    rank=rank,
                )
            )
        players.append(
            FilePlayer(
                position=position,
                line=0,
                name=name,
                rank=rank,
                pro=pro,
                country=element.get("country", "").strip().upper() or None,
                club=element.get("club", "").strip() or None,
                egd_pin=element.get("egfPin", "").strip() or None,
            )
        )
        keys[key] = position
    return players, keys


def _used_keys(root: ET.Element) -> set[str]:
    used = {
        game.get(side, "")
        for game in root.findall("Games/Game")
        for side in ("whitePlayer", "blackPlayer")
    }
    used.update(bye.get("player", "") for bye in root.findall("ByePlayers/ByePlayer"))
    return used


def _lookup(keys: dict[str, int], key: str, element: ET.Element) -> int:
    """A player's position from a key; like OpenGotha, fall back to the accent-free key."""
    if key in keys:
        return keys[key]
    folded = [pos for k, pos in keys.items() if _ascii_key(k) == _ascii_key(key)]
    if len(folded) == 1:
        return folded[0]
    raise format_error(
        Msg(
            "{element} names the player {key!r}, who is not among the <Player> elements",
            element=_where(element),
            key=key,
        ),
        token=key,
    )


def _ascii_key(key: str) -> str:
    return fold_name(key).replace(" ", "")


class _Rounds(dict[tuple[int, int], str]):
    """(round, position) → the element that occupies it; ``clashes`` names each player
    found twice in a round (a player has one game or bye a round)."""

    def __init__(self, names: dict[int, str]) -> None:
        super().__init__()
        self.names = names
        self.clashes: list[str] = []
        self.first: str | None = None


def _occupy(by_position: _Rounds, round_number: int, position: int, what: str) -> None:
    earlier = by_position.get((round_number, position))
    if earlier is not None:
        name = by_position.names.get(position) or Msg("player {position}", position=position)
        by_position.clashes.append(
            Msg(
                "round {round}: {name} appears twice ({earlier} and {what}); a player has one "
                "game or bye a round",
                round=round_number,
                name=name,
                earlier=earlier,
                what=what,
            )
        )
        if by_position.first is None:
            by_position.first = what
        return
    by_position[(round_number, position)] = what


def _games(
    root: ET.Element,
    keys: dict[str, int],
    rounds: int,
    by_position: _Rounds,
) -> list[FileGame]:
    games: list[FileGame] = []
    for element in root.findall("Games/Game"):
        round_number = _int(element, "roundNumber", None, low=1)
        if round_number > rounds:
            raise format_error(
                Msg(
                    "{element} is in round {round_number} of a {rounds}-round tournament",
                    element=_where(element),
                    round_number=round_number,
                    rounds=rounds,
                ),
                token=str(round_number),
            )
        white = _lookup(keys, element.get("whitePlayer", ""), element)
        black = _lookup(keys, element.get("blackPlayer", ""), element)
        if white == black:
            raise format_error(
                Msg("{element} pairs a player with themselves", element=_where(element)),
                token="Game",
            )
        stones = _int(element, "handicap", 0)
        if stones > 9:
            raise format_error(
                Msg(
                    "handicap={stones} in {element}: handicap stones are 0–9",
                    stones=stones,
                    element=_where(element),
                ),
                token=str(stones),
            )
        result_name = element.get("result", "RESULT_UNKNOWN").strip()
        if result_name not in RESULTS:
            raise format_error(
                Msg(
                    "result={result!r} in {element} is not an OpenGotha result "
                    "(RESULT_BLACKWINS, RESULT_WHITEWINS, RESULT_EQUAL, RESULT_UNKNOWN, …)",
                    result=result_name,
                    element=_where(element),
                ),
                token=result_name,
            )
        result, played, double = RESULTS[result_name]
        for position in (white, black):
            _occupy(by_position, round_number, position, _where(element))
        games.append(
            FileGame(
                round=round_number,
                black=black,
                white=white,
                result=result,
                played=played,
                stones=stones,
                colour_known=element.get("knownColor", "true").strip().lower() != "false",
                double=double,
            )
        )
    return games


def _byes(
    root: ET.Element,
    general: ET.Element,
    keys: dict[str, int],
    rounds: int,
    by_position: _Rounds,
) -> list[FileBye]:
    value = general.get("genNBW2ValueBye", DEFAULT_BYE_VALUE).strip()
    if value not in BYE_VALUES:
        raise format_error(
            Msg(
                "genNBW2ValueBye={value!r} should be 2 (a bye is a win), 1 (half) or 0",
                value=value,
            ),
            token=value,
        )
    byes: list[FileBye] = []
    for element in root.findall("ByePlayers/ByePlayer"):
        round_number = _int(element, "roundNumber", None, low=1)
        if round_number > rounds:
            raise format_error(
                Msg(
                    "{element} is in round {round_number} of a {rounds}-round tournament",
                    element=_where(element),
                    round_number=round_number,
                    rounds=rounds,
                ),
                token=str(round_number),
            )
        position = _lookup(keys, element.get("player", ""), element)
        _occupy(by_position, round_number, position, _where(element))
        byes.append(FileBye(round_number, position, BYE_VALUES[value]))
    return byes


def _handicap(element: ET.Element | None, games: list[FileGame]) -> tuple[int | None, bool]:
    """The h9 handicap rule and whether the tournament is even (formats.md).

    ``hdCorrection`` is the reduction N of ``HA[hN]``; a ceiling of 0 stones means no
    handicap at all, which h9 writes ``HA[h9]``. Without a HandicapParameterSet the
    tournament is even when all its games are.
    """
    if element is None:
        return None, all(game.stones == 0 for game in games)
    ceiling = _int(element, "hdCeiling", 9)
    correction = _int(element, "hdCorrection", 0)
    rule = EVEN_RULE if ceiling == 0 else correction
    return rule, rule >= EVEN_RULE


def _time(general: ET.Element) -> TimeControl | None:
    """The time control from GeneralParameterSet (basicTime in minutes, the rest in seconds).

    OpenGotha's standard byo-yomi has one period of ``stdByoYomiTime`` seconds (the number of
    periods does not matter for the extended time, rules.md §1.2). Sudden death with no basic
    time means the file gives no time control.
    """
    base_s = _int(general, "basicTime", 0) * 60
    system = general.get("complementaryTimeSystem", "SUDDENDEATH").strip().upper()
    try:
        if system == "STDBYOYOMI":
            return TimeControl(
                base_s, Overtime.JAPANESE, _int(general, "stdByoYomiTime", 0), periods=1
            )
        if system == "CANBYOYOMI":
            return TimeControl(
                base_s,
                Overtime.CANADIAN,
                _int(general, "canByoYomiTime", 0),
                moves=_int(general, "nbMovesCanTime", 0),
            )
        if system == "FISCHER":
            return TimeControl(base_s, Overtime.FISCHER, _int(general, "fischerTime", 0))
    except TimeControlError as exc:
        raise format_error(
            Msg("the time control cannot be read: {error}", error=message_of(exc)), token=system
        ) from None
    if system != "SUDDENDEATH":
        raise format_error(
            Msg(
                "complementaryTimeSystem={system!r} should be SUDDENDEATH, STDBYOYOMI, "
                "CANBYOYOMI or FISCHER",
                system=system,
            ),
            token=system,
        )
    return TimeControl(base_s) if base_s else None


def _whole_minutes(time: TimeControl | None) -> int | None:
    """The adjusted time in whole minutes, rounded down, as h9's ``TM`` writes it."""
    if time is None:
        return None
    return int(time.extended_s() // 60)
