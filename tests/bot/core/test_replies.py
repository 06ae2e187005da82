"""Platform-neutral replies: blocks, tables, plain rendering, splitting long text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.replies import (
    Button,
    Document,
    Picture,
    Reply,
    Table,
    Text,
    display_width,
    split_text,
)


def test_reply_text_makes_paragraphs_with_an_optional_title() -> None:
    reply = Reply.text("one", "", "two", title="Head", error=True)
    assert reply.blocks == (Text("Head", title=True), Text("one"), Text("two"))
    assert reply.error and not reply.private
    assert reply.as_text() == "Head\n\none\n\ntwo"


def test_tables_are_aligned_by_column() -> None:
    table = Table(("#", "Name", "Elo"), (("1", "Kovács Anna", "2090"), ("10", "Tóth", "985")),
                  "rlr")  # fmt: skip
    assert table.lines() == [
        " #  Name          Elo",
        " 1  Kovács Anna  2090",
        "10  Tóth          985",
    ]


def test_japanese_tables_line_up_in_monospace() -> None:
    """Kanji and kana take two columns on a monospace screen: the columns after them start
    where they do after Latin names."""
    table = Table(
        ("#", "名前", "点数"),
        (("1", "田中太郎", "120"), ("2", "Sato", "95"), ("3", "ｽｽﾞｷ", "7")),
        "rlr",
    )
    assert table.lines() == [
        "#  名前      点数",
        "1  田中太郎   120",
        "2  Sato        95",
        "3  ｽｽﾞｷ         7",
    ]
    ends = {display_width(line) for line in table.lines()}
    assert ends == {17}  # every line ends in the same screen column


@pytest.mark.parametrize(
    ("text", "width"),
    [("Tóth", 4), ("田中", 4), ("ｽｽﾞｷ", 4), ("ＡＢ", 4), ("e\u0301", 1), ("", 0), ("3段", 3)],
)
def test_display_width_counts_wide_characters_twice(text: str, width: int) -> None:
    assert display_width(text) == width


def test_a_table_without_alignment_is_left_aligned_and_extra_cells_are_dropped() -> None:
    table = Table(("a", "b"), (("xx", "y", "ignored"),))
    assert table.lines() == ["a   b", "xx  y"]


def test_as_text_renders_tables_between_paragraphs() -> None:
    reply = Reply(blocks=(Text("Top", title=True), Table(("N",), (("1",),)), Text("end")))
    assert reply.as_text() == "Top\n\nN\n1\n\nend"


def test_pictures_documents_and_buttons_are_not_text() -> None:
    reply = Reply(
        picture=Picture(b"\x89PNG", "c.png"),
        document=Document(b"x", "f.csv"),
        buttons=(Button("Confirm", "/confirm 1"),),
    )
    assert reply.as_text() == ""
    assert reply.picture is not None and reply.picture.caption == ""


@pytest.mark.parametrize(
    ("text", "limit", "pieces"),
    [
        ("", 10, [""]),
        ("short", 10, ["short"]),
        ("aaa\nbbb\nccc", 7, ["aaa\nbbb", "ccc"]),
        ("aaaaaaaaaa", 4, ["aaaa", "aaaa", "aa"]),
        ("ab\ncdefghij\nk", 4, ["ab", "cdef", "ghij", "k"]),
    ],
)
def test_split_text(text: str, limit: int, pieces: list[str]) -> None:
    assert split_text(text, limit) == pieces


def test_split_text_needs_a_positive_limit() -> None:
    with pytest.raises(ValueError, match="limit must be positive"):
        split_text("x", 0)


@given(st.text(alphabet="ab \n", max_size=300), st.integers(min_value=1, max_value=40))
def test_split_text_keeps_every_character_within_the_limit(text: str, limit: int) -> None:
    pieces = split_text(text, limit)
    assert all(len(p) <= limit for p in pieces)
    assert "".join(pieces).replace("\n", "") == text.replace("\n", "")


@given(st.lists(st.text(alphabet="xyz", min_size=1, max_size=20), min_size=1, max_size=30))
def test_split_text_breaks_only_at_line_ends_when_lines_fit(lines: list[str]) -> None:
    pieces = split_text("\n".join(lines), 20)
    assert "\n".join(pieces).split("\n") == lines
