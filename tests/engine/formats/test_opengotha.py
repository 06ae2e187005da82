"""OpenGotha tournament XML (formats.md, OpenGotha tournament XML)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from pathlib import Path

import pytest

from engine.errors import FormatError
from engine.formats.h9 import parse_h9, write_h9
from engine.formats.opengotha import parse_opengotha, player_key
from engine.formats.tournament_file import FileBye, TournamentFile
from engine.ranks import Rank
from engine.timecontrol import Overtime, TimeControl
from engine.types import Outcome, Result

DATA = Path(__file__).parent / "data"
B, W, J = Result.BLACK, Result.WHITE, Result.JIGO


def by_names(tf: TournamentFile) -> tuple[set[tuple[object, ...]], set[tuple[object, ...]]]:
    """Games and byes with names in place of positions (positions differ between formats)."""
    name = {p.position: p.name for p in tf.players}
    games = {
        (g.round, name[g.black], name[g.white], g.result, g.played, g.stones, g.colour_known,
         g.double)
        for g in tf.games
    }  # fmt: skip
    byes = {(b.round, name[b.player], b.kind) for b in tf.byes}
    return games, byes


@pytest.fixture(scope="module")
def kis_kupa() -> TournamentFile:
    return parse_opengotha((DATA / "kis_kupa.xml").read_bytes())


def test_the_same_tournament_as_h9_and_xml_gives_the_same_games(kis_kupa: TournamentFile) -> None:
    from_h9 = parse_h9((DATA / "kis_kupa.h9").read_bytes())
    assert by_names(kis_kupa) == by_names(from_h9)
    for attribute in ("name", "start", "end", "rounds", "komi", "handicap_rule", "even",
                      "time_minutes", "unknown_results"):  # fmt: skip
        assert getattr(kis_kupa, attribute) == getattr(from_h9, attribute), attribute
    assert sorted((p.name, p.rank, p.country, p.club) for p in kis_kupa.players) == sorted(
        (p.name, p.rank, p.country, p.club) for p in from_h9.players
    )


ADMINISTRATIVE = (
    "2 games with an administrative result (both win / both lose) are stored and not rated: "
    "round 1 Nagy Éva – Kiss Ádám (both win); round 2 Kiss Ádám – Tóth Jenő (both lose)"
)


def test_both_win_and_both_lose_read_the_same_from_h9_and_xml() -> None:
    """OpenGotha's administrative results: RESULT_BOTHWIN in XML is ``+`` on both h9 lines
    (``/`` as OpenGotha writes it), RESULT_BOTHLOSE_BYDEF is ``-!`` on both; both unplayed,
    never rated, and named in the readers' warnings."""
    from_xml = parse_opengotha((DATA / "both_results.xml").read_bytes())
    from_h9 = parse_h9((DATA / "both_results.h9").read_bytes())
    assert by_names(from_xml) == by_names(from_h9)
    doubles = sorted((g.round, g.double, g.played, g.result) for g in from_h9.games if g.double)
    assert doubles == [(1, Outcome.WIN, False, None), (2, Outcome.LOSS, False, None)]
    assert ADMINISTRATIVE in from_xml.warnings and ADMINISTRATIVE in from_h9.warnings
    assert from_xml.unknown_results == from_h9.unknown_results == 0


def test_kis_kupa_games_as_written(kis_kupa: TournamentFile) -> None:
    games, byes = by_names(kis_kupa)
    assert games == {
        (1, "Horváth Zsófia", "Tóth Bence", W, True, 0, True, None),
        (1, "Kiss Ödön", "Müller Jürgen", B, True, 0, True, None),
        (2, "Müller Jürgen", "Tóth Bence", B, False, 2, True, None),  # BLACKWINS_BYDEF
        (2, "Varga Gábor", "Horváth Zsófia", J, True, 6, True, None),
        (3, "Kiss Ödön", "Tóth Bence", None, True, 4, True, None),  # RESULT_UNKNOWN
        (3, "Müller Jürgen", "Horváth Zsófia", W, True, 0, True, None),
    }
    # two <ByePlayer>s; Varga has neither game nor bye in round 3: not paired
    assert byes == {(1, "Varga Gábor", "win"), (2, "Kiss Ödön", "win"), (3, "Varga Gábor", "none")}


def test_kis_kupa_players_and_parameters(kis_kupa: TournamentFile) -> None:
    assert [p.name for p in kis_kupa.players] == [
        "Horváth Zsófia",
        "Kiss Ödön",
        "Müller Jürgen",
        "Tóth Bence",
        "Varga Gábor",
    ]
    assert kis_kupa.player(3).rank == Rank.kyu(3)
    assert kis_kupa.player(3).country == "DE"
    assert kis_kupa.encoding == "ISO-8859-15"
    assert (kis_kupa.start, kis_kupa.end) == (dt.date(2026, 3, 7), dt.date(2026, 3, 7))
    assert kis_kupa.time == TimeControl(30 * 60, Overtime.JAPANESE, 20, periods=1)
    assert kis_kupa.time_minutes == 45  # 30 min + 45 × 20 s
    assert kis_kupa.komi == Fraction(13, 2)
    assert (kis_kupa.handicap_rule, kis_kupa.even) == (2, False)
    assert kis_kupa.notes["shortName"] == "kiskupa26"
    assert kis_kupa.unknown_results == 1


def test_xml_tournament_writes_as_h9(kis_kupa: TournamentFile) -> None:
    again = parse_h9(write_h9(kis_kupa))
    assert by_names(again) == by_names(kis_kupa)
    assert again.time_minutes == 45


# ------------------------------------------------------------------ small documents


def doc(
    games: str = "",
    byes: str = "",
    players: str | None = None,
    general: str = 'numberOfRounds="2" beginDate="2026-04-11" endDate="2026-04-12"',
    handicap: str = "",
    prolog: str = '<?xml version="1.0" encoding="UTF-8"?>\n',
) -> bytes:
    if players is None:
        players = (
            '<Player name="Kiss" firstName="Ádám" rank="3K" country="HU" club="Bp" egfPin="1"/>'
            '<Player name="Nagy" firstName="Éva" rank="5K" country="hu" club="" egfPin=""/>'
            '<Player name="van der Berg" firstName="Jan" rank="1D" country="NL" club="Ams"/>'
        )
    return (
        f'{prolog}<Tournament dataVersion="201"><Players>{players}</Players>'
        f"<Games>{games}</Games><ByePlayers>{byes}</ByePlayers>"
        f"<TournamentParameterSet><GeneralParameterSet {general}/>{handicap}"
        f"</TournamentParameterSet></Tournament>"
    ).encode()


def game(result: str, white: str = "KISSÁDÁM", black: str = "NAGYÉVA", **extra: str) -> str:
    attributes = {"roundNumber": "1", "handicap": "0", "knownColor": "true", **extra}
    text = " ".join(f'{k}="{v}"' for k, v in attributes.items())
    return f'<Game whitePlayer="{white}" blackPlayer="{black}" result="{result}" {text}/>'


RESULTS = [
    # OpenGotha result, (result, played, double)
    ("RESULT_UNKNOWN", (None, True, None)),
    ("RESULT_WHITEWINS", (W, True, None)),
    ("RESULT_BLACKWINS", (B, True, None)),
    ("RESULT_EQUAL", (J, True, None)),
    ("RESULT_BOTHLOSE", (None, False, Outcome.LOSS)),
    ("RESULT_BOTHWIN", (None, False, Outcome.WIN)),
    ("RESULT_WHITEWINS_BYDEF", (W, False, None)),
    ("RESULT_BLACKWINS_BYDEF", (B, False, None)),
    ("RESULT_EQUAL_BYDEF", (J, False, None)),
    ("RESULT_BOTHLOSE_BYDEF", (None, False, Outcome.LOSS)),
    ("RESULT_BOTHWIN_BYDEF", (None, False, Outcome.WIN)),
]


@pytest.mark.parametrize("name, expected", RESULTS, ids=[r for r, _ in RESULTS])
def test_results(name: str, expected: tuple[object, ...]) -> None:
    (g,) = parse_opengotha(doc(game(name))).games
    assert (g.result, g.played, g.double) == expected
    assert (g.black, g.white) == (2, 1)


def test_players_as_read() -> None:
    tf = parse_opengotha(doc())
    assert [(p.position, p.name, p.rank, p.country, p.club, p.egd_pin) for p in tf.players] == [
        (1, "Kiss Ádám", Rank.kyu(3), "HU", "Bp", "1"),
        (2, "Nagy Éva", Rank.kyu(5), "HU", None, None),
        (3, "van der Berg Jan", Rank.dan(1), "NL", "Ams", None),
    ]
    assert tf.encoding == "UTF-8"


def test_player_keys() -> None:
    assert player_key("van der Berg", "Jan") == "VANDERBERGJAN"
    assert player_key("Fan", "Hui") == "FANHUI"
    assert player_key("Nagy", "Éva") == "NAGYÉVA"


def test_keys_with_spaces_removed_and_accent_free_keys_are_found() -> None:
    tf = parse_opengotha(doc(game("RESULT_WHITEWINS", white="VANDERBERGJAN", black="NAGYEVA")))
    assert (tf.games[0].white, tf.games[0].black) == (3, 2)


def test_unpaired_players_get_a_none_bye_and_byes_count_as_the_file_says() -> None:
    general = 'numberOfRounds="2" beginDate="2026-04-11" endDate="2026-04-11" genNBW2ValueBye="1"'
    tf = parse_opengotha(
        doc(game("RESULT_WHITEWINS"), '<ByePlayer roundNumber="1" player="VANDERBERGJAN"/>',
            general=general)
    )  # fmt: skip
    assert tf.byes == (
        FileBye(1, 3, "half"),
        FileBye(2, 1, "none"),
        FileBye(2, 2, "none"),
        FileBye(2, 3, "none"),
    )


def test_unknown_colour() -> None:
    (g,) = parse_opengotha(doc(game("RESULT_WHITEWINS", knownColor="false"))).games
    assert g.colour_known is False


HANDICAP_SETS = [
    # HandicapParameterSet, games' stones, expected (handicap rule, even)
    ('<HandicapParameterSet hdCorrection="1" hdCeiling="9"/>', "0", (1, False)),
    ('<HandicapParameterSet hdCorrection="0" hdCeiling="0"/>', "0", (9, True)),  # no handicap
    ('<HandicapParameterSet hdCorrection="9" hdCeiling="9"/>', "0", (9, True)),
    ("", "0", (None, True)),  # no parameter set: even when every game is
    ("", "2", (None, False)),
]


@pytest.mark.parametrize(
    "element, stones, expected",
    HANDICAP_SETS,
    ids=["h1", "ceiling-0", "h9", "none-even", "none-handicap"],
)
def test_handicap_rule(element: str, stones: str, expected: tuple[int | None, bool]) -> None:
    tf = parse_opengotha(doc(game("RESULT_WHITEWINS", handicap=stones), handicap=element))
    assert (tf.handicap_rule, tf.even) == expected


TIME_SYSTEMS = [
    ('basicTime="60" complementaryTimeSystem="SUDDENDEATH"', TimeControl(3600), 60),
    (
        'basicTime="40" complementaryTimeSystem="CANBYOYOMI" canByoYomiTime="300" '
        'nbMovesCanTime="15"',
        TimeControl(2400, Overtime.CANADIAN, 300, moves=15),
        60,  # 40 min + 60 moves × 300 s / 15 moves = 60 min
    ),
    (
        'basicTime="30" complementaryTimeSystem="FISCHER" fischerTime="10"',
        TimeControl(1800, Overtime.FISCHER, 10),
        37,  # 30 min + 45 × 10 s = 37.5 min, whole minutes
    ),
    ('basicTime="0" complementaryTimeSystem="SUDDENDEATH"', None, None),
]


@pytest.mark.parametrize(
    "attributes, time, minutes", TIME_SYSTEMS, ids=["sudden", "canadian", "fischer", "none"]
)
def test_time_systems(attributes: str, time: TimeControl | None, minutes: int | None) -> None:
    general = f'numberOfRounds="1" beginDate="2026-04-11" endDate="2026-04-11" {attributes}'
    tf = parse_opengotha(doc(general=general))
    assert (tf.time, tf.time_minutes) == (time, minutes)


def test_pre_registered_players_without_games_are_left_out() -> None:
    players = (
        '<Player name="Kiss" firstName="Ádám" rank="3K" registeringStatus="FIN"/>'
        '<Player name="Nagy" firstName="Éva" rank="5K" registeringStatus="FIN"/>'
        '<Player name="Tóth" firstName="Jenő" rank="5K" registeringStatus="PRE"/>'
    )
    tf = parse_opengotha(doc(game("RESULT_BLACKWINS"), players=players))
    assert [p.name for p in tf.players] == ["Kiss Ádám", "Nagy Éva"]
    assert "pre-registered" in tf.warnings[0]


def test_pro_ranks_are_read_as_7d() -> None:
    players = (
        '<Player name="Cho" firstName="Hun" rank="9P"/><Player name="A" firstName="B" rank="1D"/>'
    )
    tf = parse_opengotha(doc(players=players))
    assert (tf.player(1).rank, tf.player(1).pro) == (Rank.dan(7), 9)


# ------------------------------------------------------------------ unsafe and broken files

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE Tournament [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<Tournament><Players><Player name="&lol9;" firstName="x" rank="1K"/></Players></Tournament>
"""

EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE Tournament [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<Tournament><Players><Player name="&secret;" firstName="x" rank="1K"/></Players></Tournament>
"""


@pytest.mark.parametrize("data", [BILLION_LAUGHS, EXTERNAL_ENTITY], ids=["billion-laughs", "xxe"])
def test_entity_declarations_are_refused(data: bytes) -> None:
    with pytest.raises(FormatError, match="refuses to expand"):
        parse_opengotha(data)


BROKEN = [
    ("not well-formed", b"<Tournament><Players></Tournament>", "not well-formed XML"),
    ("wrong root", b"<Tourney/>", "not <Tournament>"),
    ("no parameters", b"<Tournament><Players/></Tournament>", "GeneralParameterSet"),
    ("no players", doc(players=""), "has no <Players>"),
    ("unknown player", doc(game("RESULT_WHITEWINS", black="SOMEONEELSE")), "'SOMEONEELSE'"),
    ("unknown result", doc(game("RESULT_WHITEWIN")), "is not an OpenGotha result"),
    ("round too high", doc(game("RESULT_WHITEWINS", roundNumber="3")), "2-round tournament"),
    ("handicap too high", doc(game("RESULT_WHITEWINS", handicap="10")), "0–9"),
    ("self pairing", doc(game("RESULT_WHITEWINS", black="KISSÁDÁM")), "with themselves"),
    (
        "two games in a round",
        doc(game("RESULT_WHITEWINS") + game("RESULT_WHITEWINS", black="VANDERBERGJAN")),
        "appears twice",
    ),
    (
        "game and bye in a round",
        doc(game("RESULT_WHITEWINS"), '<ByePlayer roundNumber="1" player="KISSÁDÁM"/>'),
        "appears twice",
    ),
    ("bad rank", doc(players='<Player name="A" firstName="B" rank="3X"/>'), "is not a rank"),
    (
        "duplicate key",
        doc(
            players='<Player name="A B" firstName="C" rank="3K"/>'
            '<Player name="A" firstName="B C" rank="3K"/>'
        ),
        "two players have the key 'ABC'",
    ),
    ("bad date", doc(general='numberOfRounds="1" beginDate="11/04/2026"'), "is not a date"),
    ("no rounds", doc(general='beginDate="2026-04-11"'), "has no numberOfRounds"),
    ("bad komi", doc(general='numberOfRounds="1" komi="x"'), "cannot read the komi"),
    (
        "bad time system",
        doc(general='numberOfRounds="1" basicTime="10" complementaryTimeSystem="HOURGLASS"'),
        "complementaryTimeSystem='HOURGLASS'",
    ),
]


def test_every_player_twice_in_a_round_is_named() -> None:
    """All or nothing: each player with two games (or a game and a bye) in one round is
    named with the round and both elements."""
    data = doc(
        game("RESULT_WHITEWINS")
        + game("RESULT_BLACKWINS", black="VANDERBERGJAN")
        + game("RESULT_WHITEWINS", white="VANDERBERGJAN", roundNumber="2"),
        '<ByePlayer roundNumber="2" player="NAGYÉVA"/><ByePlayer roundNumber="2" '
        'player="VANDERBERGJAN"/>',
    )
    with pytest.raises(FormatError) as caught:
        parse_opengotha(data)
    lines = str(caught.value).splitlines()
    assert len(lines) == 3
    assert lines[0].startswith('round 1: Kiss Ádám appears twice (<Game whitePlayer="KISSÁDÁM"')
    assert 'blackPlayer="VANDERBERGJAN"' in lines[0]
    assert lines[1].startswith("round 2: Nagy Éva appears twice (<Game ")
    assert lines[2].startswith("round 2: van der Berg Jan appears twice (<Game ")
    assert lines[2].endswith(
        '<ByePlayer roundNumber="2" player="VANDERBERGJAN"/>); a player has one game or '
        "bye a round"
    )


@pytest.mark.parametrize("data, fragment", [c[1:] for c in BROKEN], ids=[c[0] for c in BROKEN])
def test_broken_files(data: bytes, fragment: str) -> None:
    with pytest.raises(FormatError) as caught:
        parse_opengotha(data)
    assert fragment in str(caught.value)


def test_xml_errors_carry_the_line() -> None:
    with pytest.raises(FormatError) as caught:
        parse_opengotha(b"<Tournament>\n<Players>\n</Tournament>")
    assert caught.value.line == 3
