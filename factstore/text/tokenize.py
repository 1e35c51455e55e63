"""Tokenization shared by chunks and queries: lower case, accents stripped (NFKD, combining marks dropped),
`\\w+` tokens (digits and one-character tokens kept), NLTK Spanish and English stop words removed."""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterable
from itertools import filterfalse

from bm25s.stopwords import STOPWORDS_EN_PLUS, STOPWORDS_SPANISH


def _char_class(code_points: list[int]) -> str:
    """A regex character class body covering code_points (sorted), as ranges."""
    ranges: list[list[int]] = []
    for cp in code_points:
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    return "".join(re.escape(chr(a)) if a == z else f"{re.escape(chr(a))}-{re.escape(chr(z))}" for a, z in ranges)


_MARK_POINTS = [cp for cp in range(sys.maxunicode + 1) if unicodedata.combining(chr(cp))]
# Combining marks split in two: re compiles a class of BMP characters to a fast bitmap, but any character
# beyond U+FFFF makes it a slow list of ranges; the astral marks (rare scripts) get a second, guarded pass.
_BMP_MARKS = re.compile(f"[{_char_class([cp for cp in _MARK_POINTS if cp <= 0xFFFF])}]+")
_ASTRAL_MARKS = re.compile(f"[{_char_class([cp for cp in _MARK_POINTS if cp > 0xFFFF])}]+")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_WORD = re.compile(r"\w+")


def normalize(text: str) -> str:
    """Lower case with accents stripped: NFKD, combining marks dropped ("Óptimo" -> "optimo")."""
    if text.isascii():
        return text.lower()
    text = _BMP_MARKS.sub("", unicodedata.normalize("NFKD", text))
    if _ASTRAL.search(text):
        text = _ASTRAL_MARKS.sub("", text)
    return text.lower()


# The NLTK lists (bm25s ships them), normalized and split exactly as text is, so "está" -> "esta" and
# "aren't" -> "aren", "t" (both already listed).
STOPWORDS: frozenset[str] = frozenset(
    token for word in (*STOPWORDS_SPANISH, *STOPWORDS_EN_PLUS) for token in _WORD.findall(normalize(word))
)
_is_stopword = STOPWORDS.__contains__


def tokenize(text: str) -> list[str]:
    """The `\\w+` tokens of the normalized text, stop words removed."""
    return list(filterfalse(_is_stopword, _WORD.findall(normalize(text))))


def tokenize_many(texts: Iterable[str]) -> list[list[str]]:
    """tokenize() over many texts (chunks)."""
    return list(map(tokenize, texts))
