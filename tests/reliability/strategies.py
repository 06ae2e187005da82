"""Hypothesis strategies for command lines people (and bots, and cats on keyboards) type.

Random bytes, unicode names, huge numbers, negative handicaps, dates in year 0 and 9999, empty
and 100 kB pastes, SQL and HTML metacharacters, zero-width and right-to-left characters, lone
surrogates (a JSON update can carry ``\\ud800``), unclosed quotes, every command and its
options. Shared by ``tests/reliability/test_fuzz.py`` and ``benchmarks/fuzz.py``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from bot.core.command_table import COMMANDS

DATA = Path(__file__).resolve().parents[1] / "engine" / "formats" / "data"

# the fuzzed club's players (fuzzing.py registers them): accents, apostrophes, CJK, hyphens
PLAYERS = (
    "Nagy Péter",
    "Kovács Anna",
    "Szabó Éva",
    "Tóth Ádám",
    "O'Brien Seán",
    "Müller-Lüdenscheidt Hans",
    "李 明",
    "de la Cruz María",
    "Nagy Péter Pál",
)
ROLES = ("admin", "organiser", "linked", "player", "stranger", "other-admin")
PLATFORMS = ("telegram", "telegram-b", "telegram-unbound", "discord", "console")

KEYWORDS = (
    "beat", "beats", "vs", "new", "join", "code", "show", "system", "timezone", "komi",
    "country", "time", "reports", "grace", "organiser", "add", "remove", "on", "off", "result",
    "import", "finalise", "schedule", "reopen", "list", "csv", "json", "games", "h9", "mgsz",
    "tensuusei", "swedish", "psg", "even", "handicap", "championship", "invitational",
    "european", "world", "override", "committee", "swap", "today", "yesterday", "mon", "sun",
    "18:00", "25:99", "Europe/Budapest", "Mars/Olympus", "../../etc/passwd", "UTC",
    "telegram:1", "discord:2", "console:local", "#12", "13x13", ">80",
)  # fmt: skip
OPTION_KEYS = (
    "h", "komi", "date", "time", "board", "reason", "rating", "rank", "country", "club", "pin",
    "alias", "account", "reduce", "participants", "c", "C", "start", "end", "rounds", "name",
    "result", "black", "white", "played", "t", "x", "",
)  # fmt: skip
RESULTS = (
    "B+", "W+", "B+R", "W+R", "W+3.5", "B+0.5", "jigo", "unplayed", "B+T", "W+F", "B+-5",
    "W+1e9", "B+99999999999999999999", "0", "1-0", "½", "B", "W+", "b+r", "Jigo",
)  # fmt: skip
RANKS = ("30k", "1k", "1d", "9d", "7p", "0k", "-5k", "99d", "31k", "10d", "5 kyu", "2 dan", "k")
DATES = (
    "0000-01-01", "0001-01-01", "1899-12-31", "1900-01-01", "9999-12-31", "10000-01-01",
    "2026-02-29", "2024-02-29", "2026-13-01", "2026-00-10", "2026-1-1", "20260101",
    "2026-03-10T12:00", "-2026-01-01", "today", "yesterday",
)  # fmt: skip
NUMBERS = (
    "0", "-0", "-1", "-9", "10", "2147483648", "-2147483649", "9223372036854775808",
    "1" + "0" * 40, "-" + "9" * 400, "1e999", "-1e999", "NaN", "inf", "0x10", "1_000",
    "٣", "Ⅻ", "1.5", "6,5", "½", "3/2",
)  # fmt: skip
METACHARACTERS = (
    "'; DROP TABLE games; --", '" OR 1=1 --', "%", "_", "\\", "`rm -rf /`", "$(reboot)",
    "{0}", "%s%s%s", "{{ 7*7 }}", "<b>", "</pre>", "<pre>", "&amp;", "&lt;", "&", "<",
    "<script>alert(1)</script>", "&#0;", "<a href='tg://user?id=1'>x</a>", "</b></i><i>",
    "**bold**", "__u__", "`code`", "```", "@everyone", "<@123>", "||spoiler||", "\\n",
)  # fmt: skip
INVISIBLE = (
    "\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d",
    "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\ufeff", "\u00a0", "\u3000", "\x00",
    "\x1b[31m", "\r", "\n", "\t", "\x0b", "\u0301", "\u034f", "\U000e0001", "\U0001f600",
    "\u2028", "\u2029", "\ufffd",
)  # fmt: skip
QUOTES = ('"', "“", "„", "«", "”", "'", '""', '"unterminated', "«Nagy Péter»", '"Nagy Péter"')
FILENAMES = (
    "pasted.txt", "cup.h9", "cup.xml", "cup.csv", "../../etc/passwd", "cup\u202egpj.exe",
    "", "a" * 300, "cup.H9", "NUL", "con.txt",
)  # fmt: skip


def _names() -> st.SearchStrategy[str]:
    """Registered names, altered: folded, upper case, a word missing, an accent off."""
    name = st.sampled_from(PLAYERS)
    return st.one_of(
        name,
        name.map(str.upper),
        name.map(str.lower),
        name.map(lambda n: n.split()[0]),
        name.map(lambda n: n.replace("é", "e").replace("á", "a")),
        name.map(lambda n: f'"{n}"'),
        name.map(lambda n: n.replace(" ", "\u200b ")),
        name.map(lambda n: "\u202e" + n),
    )


def _option(values: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.builds(lambda k, v: f"{k}={v}", st.sampled_from(OPTION_KEYS), values)


def _words() -> st.SearchStrategy[str]:
    plain = st.one_of(
        st.sampled_from(KEYWORDS),
        st.sampled_from(RESULTS),
        st.sampled_from(RANKS),
        st.sampled_from(DATES),
        st.sampled_from(NUMBERS),
        st.integers(min_value=-(10**30), max_value=10**30).map(str),
        st.sampled_from(METACHARACTERS),
        st.sampled_from(INVISIBLE),
        st.sampled_from(QUOTES),
        _names(),
    )
    text = st.one_of(
        st.text(max_size=20),
        st.text(
            st.characters(categories=["Cs", "Co", "Cn", "Cf", "Zs", "Mn"]), max_size=6
        ),  # surrogates, private use, unassigned, format, spaces, combining marks
        st.binary(max_size=24).map(lambda b: b.decode("utf-8", "replace")),
        st.binary(max_size=24).map(lambda b: b.decode("latin-1")),
    )
    return st.one_of(
        plain, plain, plain, text, _option(st.one_of(plain, text)), _option(st.just(""))
    )


def command_names() -> st.SearchStrategy[str]:
    known = sorted(COMMANDS) + sorted(a for c in COMMANDS.values() for a in c.aliases)
    return st.one_of(
        st.sampled_from(known),
        st.sampled_from(known),
        st.sampled_from(known),
        st.sampled_from(known).map(str.upper),
        st.sampled_from(known).map(lambda c: f"{c}@hoshi_test_bot"),
        st.sampled_from(known).map(lambda c: f"{c}@someone_else_bot"),
        st.text(max_size=12),
        st.just(""),
    )


def arguments() -> st.SearchStrategy[str]:
    words = st.lists(_words(), max_size=14)
    return st.one_of(
        words.map(" ".join),
        words.map(" ".join),
        words.map("".join),
        st.text(max_size=200),
        st.builds(lambda w, n: (w + " ") * n, _words(), st.integers(1, 3000)),  # long lines
        st.builds(lambda w, p: f"{w}\n{p}", words.map(" ".join), _h9_text()),  # a pasted table
    )


# --- pastes and attachments ----------------------------------------------------------------


def big_paste(seed: int, size: int = 100_000) -> bytes:
    """About ``size`` bytes of h9-looking lines with random damage."""
    rng = random.Random(seed)
    lines = ["; EV[Fuzz Cup]", "; DT[2026-03-01,2026-03-02]", "; HA[h9]", "; KM[6.5]"]
    total = sum(map(len, lines))
    n = 0
    while total < size:
        n += 1
        rounds = " ".join(
            f"{rng.randint(0, 400)}{rng.choice('+-=?')}/{rng.choice('bwx')}{rng.randint(0, 9)}"
            for _ in range(rng.randint(0, 8))
        )
        line = (
            f"{n:4} {rng.choice(PLAYERS)}{n} {rng.choice(RANKS)} {rng.choice(('HU', 'XX', ''))} "
            f"Bp {rounds}"
        )
        if rng.random() < 0.05:
            line = "".join(rng.choice((c, rng.choice(INVISIBLE + METACHARACTERS))) for c in line)
        lines.append(line)
        total += len(line) + 1
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")[:size]


def _mutated(data: bytes) -> st.SearchStrategy[bytes]:
    def mutate(seed: int) -> bytes:
        rng = random.Random(seed)
        out = bytearray(data)
        for _ in range(rng.randint(1, 12)):
            i = rng.randrange(len(out))
            action = rng.random()
            if action < 0.4:
                out[i] = rng.randrange(256)
            elif action < 0.7:
                del out[i : i + rng.randint(1, 40)]
            else:
                out[i:i] = rng.choice(METACHARACTERS + INVISIBLE).encode("utf-8", "replace")
        return bytes(out)

    return st.one_of(st.just(data), st.integers(0, 2**32).map(mutate))


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<Tournament name="&lol3;"><Players/></Tournament>
"""
EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]>
<Tournament name="&x;"><Players/></Tournament>
"""


def _h9_text() -> st.SearchStrategy[str]:
    return _mutated((DATA / "formats_example.h9").read_bytes()).map(
        lambda b: b.decode("utf-8", "replace")
    )


def attachments() -> st.SearchStrategy[bytes | None]:
    return st.one_of(
        st.none(),
        st.none(),
        st.none(),
        st.just(b""),
        st.integers(0, 2**32).map(big_paste),
        _mutated((DATA / "kis_kupa.h9").read_bytes()),
        _mutated((DATA / "formats_example.h9").read_bytes()),
        _mutated((DATA / "kis_kupa.xml").read_bytes()),
        _mutated((DATA / "spring_cup_start.csv").read_bytes()),
        st.sampled_from((BILLION_LAUGHS, EXTERNAL_ENTITY)),
        st.binary(max_size=3000),
    )


@dataclass(frozen=True, slots=True)
class Line:
    """One fuzzed command: who types what, where, with which file."""

    command: str
    text: str
    role: str
    platform: str
    attachment: bytes | None
    filename: str | None
    private: bool
    advance_s: int  # how far the clock moves before it

    def __repr__(self) -> str:  # hypothesis prints the failing example with this
        size = "no file" if self.attachment is None else f"{len(self.attachment)} bytes"
        return (
            f"Line(/{self.command!r} {self.text[:300]!r}{'…' if len(self.text) > 300 else ''}"
            f" as {self.role} on {self.platform}, {size} {self.filename!r}, +{self.advance_s}s)"
        )


def lines() -> st.SearchStrategy[Line]:
    return st.builds(
        Line,
        command=command_names(),
        text=arguments(),
        role=st.sampled_from(ROLES),
        platform=st.sampled_from(PLATFORMS),
        attachment=attachments(),
        filename=st.one_of(st.none(), st.sampled_from(FILENAMES)),
        private=st.booleans(),
        advance_s=st.one_of(st.integers(0, 120), st.integers(0, 10 * 86400)),
    )


# --- command-shaped lines: mostly right, now and then wrong, to get past the first check ----


def _maybe(valid: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Usually ``valid``, sometimes any fuzzed word."""
    return st.one_of(valid, valid, valid, valid, valid, _words())


def _optional(strategy: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(st.just(""), strategy)


NAME = _maybe(_names())
NEW_NAME = st.one_of(
    st.builds(
        lambda a, b: f"{a.title()} {b.title()}",
        st.text("abcdeéáőúxyzßçñ'-", min_size=2, max_size=10),
        st.text("abcdeéáőúxyzßçñ'-", min_size=2, max_size=10),
    ),
    _names(),
    st.text(min_size=1, max_size=60),
)
RANK = _maybe(st.sampled_from(("8k", "5k", "1k", "1d", "3d", "20k", "6k")))
RESULT = _maybe(st.sampled_from(("B+", "W+", "B+R", "W+3.5", "jigo", "unplayed")))
GAME_ID = _maybe(st.integers(1, 60).map(str))
SMALL = _maybe(st.integers(-3, 300).map(str))
DATE = _maybe(
    st.one_of(
        st.dates(min_value=__import__("datetime").date(1, 1, 1)).map(lambda d: d.isoformat()),
        st.sampled_from(DATES),
    )
)
TIME = _maybe(st.sampled_from(("60m", "90m 3x30s", "45m", "30m 5x20s", "0m", "9999m", "1h")))
GAME_OPTS = st.lists(
    st.one_of(
        st.builds("h={}".format, _maybe(st.integers(-9, 12).map(str))),
        st.builds("komi={}".format, _maybe(st.sampled_from(("6.5", "0.5", "-3", "7", "99")))),
        st.builds("date={}".format, DATE),
        st.builds('time="{}"'.format, TIME),
        st.builds("board={}".format, _maybe(st.sampled_from(("9", "13", "19", "4", "26")))),
    ),
    max_size=3,
).map(" ".join)

TEMPLATES: dict[str, st.SearchStrategy[str]] = {
    "rating": _optional(NAME),
    "chart": _optional(NAME),
    "promotion": _optional(NAME),
    "history": st.builds("{} {}".format, NAME, _optional(SMALL)),
    "link": NAME,
    "top": _optional(SMALL),
    "handicap": st.builds(
        "{} {} {}".format, NAME, NAME, _optional(st.builds("reduce={}".format, SMALL))
    ),
    "multiplier": st.builds(
        "{} {}".format,
        TIME,
        st.lists(
            st.sampled_from(
                (
                    "even",
                    "handicap",
                    ">80",
                    "championship",
                    "world",
                    "13x13",
                    "C=12",
                    "participants=90",
                )
            ),
            max_size=3,
        ).map(" ".join),
    ),
    "register": st.builds(
        "{} {} {} {}".format,
        NEW_NAME,
        RANK,
        _optional(_maybe(st.integers(-200, 3000).map(str))),
        st.lists(
            st.sampled_from(
                (
                    "country=HU",
                    "country=XX1",
                    "alias=Peti",
                    "club=Bp",
                    "pin=12345678",
                    "override",
                    "rating=2100",
                )
            ),
            max_size=2,
        ).map(" ".join),
    ),
    "result": st.one_of(
        st.builds("{} {} {} {}".format, NAME, NAME, RESULT, GAME_OPTS),
        st.builds("{} beat {} {}".format, NAME, NAME, GAME_OPTS),
    ),
    "undo": st.just(""),
    "void": st.builds("{} {}".format, GAME_ID, _optional(st.just('reason="entered twice"'))),
    "correct": st.builds(
        "{} {}".format,
        GAME_ID,
        st.lists(
            st.one_of(
                st.builds("result={}".format, RESULT),
                st.just("swap"),
                st.builds("black={}".format, NAME),
                GAME_OPTS,
            ),
            max_size=3,
        ).map(" ".join),
    ),
    "override": st.builds(
        '{} {} reason="{}"'.format,
        NAME,
        st.one_of(st.builds("rating={}".format, SMALL), st.builds("rank={}".format, RANK)),
        st.text(max_size=20),
    ),
    "egf": st.builds(
        "{} {} {}".format,
        NAME,
        _maybe(st.integers(-100, 3000).map(str)),
        _optional(
            _maybe(st.sampled_from(("2026-01", "2025-12", "9999-12", "0000-01", "2026-13")))
        ),
    ),
    "club": st.one_of(
        st.sampled_from(
            ("show", "code", "reports off", "reports on", "reports on 1", "grace 12", "weekly")
        ),
        st.builds(
            "system {}".format, _maybe(st.sampled_from(("mgsz", "tensuusei", "swedish", "psg")))
        ),
        st.builds(
            "timezone {}".format,
            _maybe(
                st.sampled_from(
                    ("Europe/Budapest", "Asia/Tokyo", "UTC", "Etc/GMT+12", "Pacific/Kiritimati")
                )
            ),
        ),
        st.builds("komi {}".format, _maybe(st.sampled_from(("6.5", "7", "0.5", "-50", "51")))),
        st.builds("country {}".format, _maybe(st.sampled_from(("HU", "JP", "none", "-")))),
        st.builds("time {}".format, TIME),
        st.builds(
            "organiser {} {}".format,
            st.sampled_from(("add", "remove")),
            _maybe(
                st.sampled_from(
                    ("telegram:200", "telegram:100", "discord:7", "Nagy Péter", "telegram:999")
                )
            ),
        ),
        st.builds("new {} {}".format, NEW_NAME, _maybe(st.sampled_from(("mgsz", "psg")))),
        st.builds("join {}".format, _words()),
    ),
    "weekly": st.one_of(
        st.just("off"),
        st.builds(
            "on {}".format,
            _optional(
                _maybe(
                    st.sampled_from(
                        ("mon 18:00", "sun 23:59", "fri 00:00", "xyz 18:00", "mon 25:00")
                    )
                )
            ),
        ),
    ),
    "summary": st.just(""),
    "tick": _maybe(
        st.sampled_from(
            (
                "1d",
                "6h",
                "90m",
                "1d12h",
                "400d",
                "2026-12-01 00:05",
                "9999-12-31 23:59",
                "2027-01-01",
            )
        )
    ),
    "confirm": GAME_ID,
    "dispute": st.builds("{} {}".format, GAME_ID, st.text(max_size=30)),
    "tournament": st.one_of(
        st.builds(
            "new {} {} {}".format,
            NEW_NAME,
            _optional(st.builds("rounds={}".format, SMALL)),
            st.lists(
                st.sampled_from(
                    (
                        "even",
                        "handicap",
                        "start=2026-03-01",
                        "end=2026-03-02",
                        "C=20",
                        "world",
                        'time="60m 3x30s"',
                        "reduce=1",
                    )
                ),
                max_size=3,
            ).map(" ".join),
        ),
        st.builds(
            "result {} {} {} {} {}".format,
            SMALL,
            NAME,
            NAME,
            RESULT,
            _optional(st.builds("t={}".format, NEW_NAME)),
        ),
        st.just("import"),
        st.builds("import C={}".format, SMALL),
        st.builds(
            "{} {}".format,
            st.sampled_from(("finalise", "reopen", "show", "list")),
            _optional(NEW_NAME),
        ),
        st.builds(
            "schedule {} {} {}".format,
            NEW_NAME,
            DATE,
            _maybe(st.sampled_from(("20:00", "25:00", ""))),
        ),
    ),
    "export": st.one_of(
        st.sampled_from(("", "csv", "json", "games", "h9", "xml")),
        st.builds("h9 {}".format, NEW_NAME),
    ),
    "help": _optional(st.sampled_from(sorted(COMMANDS))),
}


def shaped() -> st.SearchStrategy[tuple[str, str]]:
    """A command with arguments shaped like its own."""
    return st.sampled_from(sorted(TEMPLATES)).flatmap(
        lambda name: st.tuples(st.just(name), TEMPLATES[name])
    )


def fuzzed_lines() -> st.SearchStrategy[Line]:
    """Three in four lines shaped like their command, the rest anything at all."""
    shaped_line = shaped().flatmap(
        lambda pair: st.builds(
            Line,
            command=st.just(pair[0]),
            text=st.just(pair[1].strip()),
            role=st.sampled_from(("admin", "admin", "organiser", *ROLES)),
            platform=st.sampled_from(("telegram", "telegram", "discord", *PLATFORMS)),
            attachment=attachments() if pair[0] == "tournament" else st.none(),
            filename=st.one_of(st.none(), st.sampled_from(FILENAMES)),
            private=st.booleans(),
            advance_s=st.integers(0, 4 * 3600),
        )
    )
    return st.one_of(shaped_line, shaped_line, shaped_line, lines())
