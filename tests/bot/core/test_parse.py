"""Reading command lines: tokens, quotes, key=value options (bot.md, Arguments)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.errors import BadArgument
from bot.core.parse import MAX_LINE, Args, Token, clean, join, positive_int, tokenize
from bot.i18n import using


def texts(line: str) -> list[str]:
    return [t.text for t in tokenize(line)]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Nagy Péter", ["Nagy", "Péter"]),
        ("  Nagy   Péter  ", ["Nagy", "Péter"]),
        ('"Nagy Péter" "Kovács Anna"', ["Nagy Péter", "Kovács Anna"]),
        ("“Nagy Péter” vs „Kovács Anna”", ["Nagy Péter", "vs", "Kovács Anna"]),
        ("«Szabó Éva» 3k", ["Szabó Éva", "3k"]),
        ('reason="entered twice" 12', ["reason=entered twice", "12"]),
        ('time="60m 3x30s" even', ["time=60m 3x30s", "even"]),
        ("Nagy\u00a0Péter", ["Nagy", "Péter"]),
        ("Na\u200bgy Pé\u200eter", ["Nagy", "Péter"]),
        ("", []),
    ],
    ids=["plain", "spaces", "quotes", "typographic", "guillemets", "key-quoted", "time",
         "nbsp", "zero-width", "empty"],
)  # fmt: skip
def test_tokenize(line: str, expected: list[str]) -> None:
    assert texts(line) == expected


def test_quoted_tokens_are_marked() -> None:
    tokens = tokenize('"Nagy Péter" B+')
    assert tokens == [Token("Nagy Péter", quoted=True), Token("B+")]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('"Nagy Péter', 'the quote opened at ""Nagy Péter" is never closed; write names like '
         '"Nagy Péter"'),
        ('reason="two words', 'the quote after reason= is never closed; write e.g. '
         'reason="two words"'),
    ],
)  # fmt: skip
def test_an_unclosed_quote_is_named(line: str, message: str) -> None:
    with pytest.raises(BadArgument) as caught:
        tokenize(line)
    assert str(caught.value) == message


def test_a_line_too_long_is_refused_with_its_length() -> None:
    with pytest.raises(BadArgument) as caught:
        tokenize("x" * (MAX_LINE + 1))
    assert str(caught.value) == (
        "that line is 20,001 characters long; a command takes at most 20,000 "
        "(paste big tables as a file)"
    )
    assert texts("x" * MAX_LINE) == ["x" * MAX_LINE]


def test_clean_drops_invisible_characters() -> None:
    assert clean("a\u200bb\ufeff\u00a0c\u202e") == "ab c"


@pytest.mark.parametrize(
    ("token", "option"),
    [
        (Token("h=2"), ("h", "2")),
        (Token("Komi=0.5"), ("komi", "0.5")),
        (Token("reason="), ("reason", "")),
        (Token("a=b=c"), ("a", "b=c")),
        (Token("h=2", quoted=True), None),
        (Token("=2"), None),
        (Token("W+3.5"), None),
        (Token("x1=2"), None),
        (Token("B+"), None),
    ],
)
def test_token_option(token: Token, option: tuple[str, str] | None) -> None:
    assert token.option == option


def test_args_separate_allowed_options() -> None:
    args = Args.read('Nagy Péter h=2 Komi=0.5 "a=b"', ("h", "komi"))
    assert args.text() == "Nagy Péter a=b"
    assert args.options == {"h": "2", "komi": "0.5"}
    assert args.words[-1].quoted


@pytest.mark.parametrize(
    ("line", "allowed", "message"),
    [
        ("Nagy x=1", ("h", "komi"), "this command has no option x=; it takes h=, komi="),
        ("Nagy x=1", (), "this command takes no key=value options (not x=)"),
        ("Nagy h=1 h=2", ("h",), "option h= is given twice"),
        ("Nagy h=1 H=2", ("h",), "option h= is given twice"),
    ],
)
def test_args_refuse_unknown_and_repeated_options(
    line: str, allowed: tuple[str, ...], message: str
) -> None:
    with pytest.raises(BadArgument) as caught:
        Args.read(line, allowed)
    assert str(caught.value) == message


def test_join() -> None:
    assert join([Token("Nagy"), Token("Péter", quoted=True)]) == "Nagy Péter"
    assert join([]) == ""


@pytest.mark.parametrize(
    ("text", "low", "high", "value"),
    [("5", 1, 10, 5), (" 7 ", 1, 10, 7), ("+3", 1, 10, 3), ("-4", -10, 10, -4), ("0", 0, 9, 0)],
)
def test_positive_int(text: str, low: int, high: int, value: int) -> None:
    assert positive_int(text, "N", low=low, high=high) == value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("abc", "N must be a whole number, not “abc”"),
        ("1.5", "N must be a whole number, not “1.5”"),
        ("", "N must be a whole number, not “”"),
        ("1" * 13, f"N must be a whole number, not “{'1' * 13}”"),
        ("0", "N must be 1–100, not 0"),
        ("101", "N must be 1–100, not 101"),
    ],
)
def test_positive_int_names_the_argument_and_value(text: str, message: str) -> None:
    with pytest.raises(BadArgument) as caught:
        positive_int(text, "N", high=100)
    assert str(caught.value) == message


words = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp", "Cf"),
        blacklist_characters='"“”„«»=\u00a0',
    ),
    min_size=1,
    max_size=12,
)


@given(st.lists(words, max_size=8))
def test_plain_words_come_back_as_typed(parts: list[str]) -> None:
    assert texts(" ".join(parts)) == parts


@given(st.lists(words.filter(lambda w: "\n" not in w), min_size=1, max_size=5))
def test_a_quoted_name_stays_one_token(parts: list[str]) -> None:
    name = " ".join(parts)
    tokens = tokenize(f'"{name}" B+')
    assert tokens[0] == Token(name.strip(), quoted=True)
    assert tokens[1:] == [Token("B+")]


def test_a_refusal_names_the_command_and_its_options_in_order() -> None:
    with pytest.raises(BadArgument) as caught:
        Args.read("1 Nagy Kis B+ x=1", ("h", "komi", "t"), command="/tournament result")
    assert str(caught.value) == "/tournament result has no option x=; it takes h=, komi=, t="


# -- in the conversation's language (issue 13) -------------------------------------------------


@pytest.mark.parametrize(
    ("language", "line", "allowed", "message"),
    [
        ("pl", "Nagy x=1", ("h", "komi"), "to polecenie nie ma opcji x=; przyjmuje h=, komi="),
        ("sv", "Nagy h=1 h=2", ("h",), "alternativet h= anges två gånger"),
        ("ja", '"Nagy Péter', (), '""Nagy Péter" で始まる引用符が閉じられていません。'),
        ("hu", 'reason="két', ("reason",), "a reason= utáni idézőjel nincs lezárva"),
    ],
)
def test_refusals_of_a_command_line_are_in_the_conversations_language(
    language: str, line: str, allowed: tuple[str, ...], message: str
) -> None:
    with using(language), pytest.raises(BadArgument) as caught:
        Args.read(line, allowed)
    assert str(caught.value).startswith(message)


def test_a_long_line_counts_its_characters_as_the_language_writes_numbers() -> None:
    with using("pl"), pytest.raises(BadArgument) as caught:
        tokenize("x" * (MAX_LINE + 1))
    assert str(caught.value) == (
        "ten wiersz jest za długi (długość: 20\u00a0001); polecenie może mieć najwyżej "
        "20\u00a0000 znaków (duże tabele wyślij jako plik)"
    )


def test_numbers_are_refused_in_japanese() -> None:
    with using("ja"), pytest.raises(BadArgument) as caught:
        positive_int("99", "N", high=10)
    assert str(caught.value) == "N は 1～10 の範囲で指定してください（99 は範囲外です）"


OTHER_DIGITS = {
    "Arabic-Indic": "٠١٢٣٤٥٦٧٨٩",
    "Extended Arabic-Indic": "۰۱۲۳۴۵۶۷۸۹",
    "full width": "０１２３４５６７８９",
    "Devanagari": "०१२३४५६७८९",
}
NUMBERED_KINDS = ("rank", "grade", "int", "number", "rating", "date", "month", "komi", "time",
                  "day", "clock")  # fmt: skip


@pytest.mark.parametrize("script", sorted(OTHER_DIGITS))
@pytest.mark.parametrize("kind", NUMBERED_KINDS)
async def test_a_number_is_written_in_ascii_digits(kind: str, script: str) -> None:
    """Issue 26: ``h=٣`` was read as 3. Every kind of argument that holds a number reads
    ASCII digits only: its good value written in another script's digits is refused."""
    from bot.core.commands import Option
    from bot.core.parse import Reader, convert
    from tests.bot.core.test_native_replies import GOOD

    good = GOOD[kind]
    reader = Reader(dt.date(2026, 4, 20))
    slot = Option("x", kind, "a value", high=10**6)
    assert await convert(slot, good, reader) is not None  # the ASCII value reads
    other = good.translate(str.maketrans("0123456789", OTHER_DIGITS[script]))
    assert other != good
    with pytest.raises(BadArgument):
        await convert(slot, other, reader)
