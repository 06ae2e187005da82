"""Name keys for matching people across files and chats (bot.md: names are matched case- and
accent-insensitively, surname first or last; formats.md: the importer matches names).

``fold_name`` gives the key two spellings of one name share (``"Szabó  Éva"``, ``"szabo_eva"``);
``name_variants`` lists the word orders a name may be written in (``"Nagy Péter"`` /
``"Péter Nagy"``). The storage and bot layers combine them: a name matches a player when some
variant of one folds to the same key as some variant of the other.
"""

from __future__ import annotations

import unicodedata

# Letters that carry their "accent" in the letter itself, so that NFKD does not split it off;
# folded by hand so that the Polish, Nordic and Croatian names of the seeds' clubs match typed
# without diacritics (bot.md: ``Szabo`` finds ``Szabó``).
UNDECOMPOSED_LETTERS = {
    "ł": "l",
    "Ł": "l",
    "ø": "o",
    "Ø": "o",
    "đ": "d",
    "Đ": "d",
    "ħ": "h",
    "Ħ": "h",
    "ı": "i",
    "æ": "ae",
    "Æ": "ae",
    "œ": "oe",
    "Œ": "oe",
    "þ": "th",
    "Þ": "th",
}

# Invisible characters that copy-and-paste leaves inside names (zero-width space, joiners,
# word joiner, byte order mark, soft hyphen), kept as the fold's first examples.
INVISIBLE_CHARACTERS = "\u200b\u200c\u200d\u2060\ufeff\u00ad"

_TRANSLATION = str.maketrans({**UNDECOMPOSED_LETTERS, "_": " "})

# Unicode's Default_Ignorable_Code_Point beyond the format characters (category Cf): the
# combining grapheme joiner, Hangul fillers, Khmer inherent vowels, Mongolian free variation
# selectors, variation selectors and the tag block's rest.
_IGNORABLE_RANGES = (
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xE0000, 0xE0FFF),
)


def ignorable(ch: str) -> bool:
    """Whether ``ch`` draws nothing in a name: a control character other than whitespace
    (NUL …), a format character (category Cf: the bidirectional controls U+202A–202E and
    U+2066–2069, U+061C, U+200E/F, zero-width characters, the byte order mark, the soft
    hyphen …) or another default-ignorable code point (issue 26: ``Nagy Péter`` must not be
    registered again with an invisible character in it)."""
    if ch.isspace():
        return False
    if unicodedata.category(ch) in ("Cc", "Cf"):
        return True
    code = ord(ch)
    return any(low <= code <= high for low, high in _IGNORABLE_RANGES)


def visible_name(text: str) -> str:
    """``text`` without the characters that draw nothing (:func:`ignorable`), composed (NFC),
    whitespace collapsed: the form a name is stored and compared in."""
    kept = "".join(ch for ch in text if not ignorable(ch))
    return " ".join(unicodedata.normalize("NFC", kept).split())


def fold_name(name: str) -> str:
    """The case- and accent-insensitive key of a name (bot.md, Arguments; formats.md).

    Underscores count as spaces (OpenGotha writes ``van_der_Berg``), invisible characters are
    dropped, accents are stripped (NFKD, combining marks removed), case is folded and runs of
    whitespace become one space.

    >>> fold_name("  Szabó_Éva ")
    'szabo eva'
    """
    text = visible_name(name).translate(_TRANSLATION)
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split())


def name_variants(name: str) -> tuple[str, ...]:
    """The word orders a name may be written in: surname first and surname last.

    A surname may have several words (``van der Berg Jan``), so every rotation of the words
    is a variant: moving the first word(s) to the end reads a surname-first name
    surname-last, and the reverse. ``"Schmidt, Jonas"`` (surname, comma, given names) is read
    as ``"Schmidt Jonas"``. The first variant is the name as written (spaces normalised).

    >>> name_variants("Nagy Péter")
    ('Nagy Péter', 'Péter Nagy')
    """
    surname, comma, given = name.replace("_", " ").partition(",")
    words = (surname.split() + given.split()) if comma else surname.split()
    variants: list[str] = []
    for start in range(len(words)):
        variant = " ".join(words[start:] + words[:start])
        if variant not in variants:
            variants.append(variant)
    return tuple(variants)


def name_keys(name: str) -> frozenset[str]:
    """The folded keys of every variant of ``name``: two names match when their keys meet."""
    return frozenset(fold_name(variant) for variant in name_variants(name))
