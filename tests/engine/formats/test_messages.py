"""engine.formats.messages: the readers' and storage's texts stay translatable (issue 13)."""

from __future__ import annotations

import pytest

from bot.i18n import translated
from engine.errors import FormatError
from engine.formats import parse_h9, parse_opengotha, parse_players_csv
from engine.formats.messages import bare_message, format_error, joined, message_of
from engine.text import Msg


def test_a_format_error_keeps_its_line_and_its_message_translatable() -> None:
    error = format_error(Msg("the name is empty"), line=3, token="")
    assert str(error) == "line 3: the name is empty" and error.line == 3
    text = error.args[0]
    assert isinstance(text, Msg) and text.template == "line {line}: {message}"
    assert text.args["message"].template == "the name is empty"
    assert bare_message(error) == "the name is empty"
    assert isinstance(format_error(Msg("no line")).args[0], Msg)


def test_message_of_passes_a_msg_on_and_joined_nests_each_part() -> None:
    assert isinstance(message_of(ValueError(Msg("x {a}", a=1))), Msg)
    assert message_of(ValueError()) == ""
    parts = [Msg("problem {n}", n=n) for n in range(1, 6)]
    together = joined(parts)
    assert together == "; ".join(parts) and isinstance(together, Msg)
    assert joined(parts[:2], lines=True) == "problem 1\nproblem 2"
    assert joined([]) == "" and joined(parts[:1]) is parts[0]


def test_a_long_list_nests_only_a_few_levels() -> None:
    together = joined([Msg("p") for _ in range(4096)])

    def depth(text: object) -> int:
        if not isinstance(text, Msg) or not text.args:
            return 0
        return 1 + max(depth(value) for value in text.args.values())

    assert depth(together) <= 13


@pytest.mark.parametrize(
    ("read", "data", "template"),
    [
        (parse_players_csv, "name,rank\n,3k\n", "the name is empty"),
        (
            parse_h9,
            "; EV[x]\n",
            "the file has no player lines (place, name, rank, country, club, …)",
        ),
        (
            parse_opengotha,
            "<Nope/>",
            "the root element is <{tag}>, not <Tournament>: this is not "
            "an OpenGotha tournament file",
        ),
    ],
)
def test_the_readers_refuse_with_translatable_texts(read, data, template) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(FormatError) as caught:
        read(data)
    text = caught.value.args[0]
    assert isinstance(text, Msg)
    if text.template == "line {line}: {message}":
        text = text.args["message"]
    assert text.template == template


def test_a_readers_warning_counts_with_a_plural() -> None:
    h9 = (
        "; EV[Cup]\n; DT[2026-04-11,2026-04-12]\n"
        " 1 Nagy Anna 3d HU Bp 2?/w0\n 2 Kiss Bela 3d HU Bp 1?/b0\n"
    )
    warnings = parse_h9(h9).warnings
    counted = [w for w in warnings if isinstance(w, Msg) and w.plural_template]
    assert counted and counted[0] == "1 game has an unknown result (?): stored, never rated"


def test_a_readers_refusal_reads_in_the_organisers_language() -> None:
    with pytest.raises(FormatError) as caught:
        parse_players_csv("name,rank\n,3k\n")
    assert translated(caught.value.args[0], "hu") == "2. sor: a név üres"
    assert translated(caught.value.args[0], "sv") == "rad 2: namnet är tomt"
