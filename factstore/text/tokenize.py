"""Tokenization shared by chunks and queries, the course's normalization: lower case, accents stripped (NFKD,
combining marks dropped), `\\w+` tokens (digits and one-character tokens kept), the course's stop words removed (a
few Spanish words; English text keeps its own, which Okapi's idf weighs next to nothing).

`tokenize` is the rule, one text at a time (queries). `tokenize_columns` gives the same tokens for many texts
(chunks) at once, in columns, batch by batch on every core: a batch is one UTF-8 buffer (an Arrow array's), whose
characters beyond ASCII are folded per distinct character (the rule is per character but for the final sigma: a
batch holding a capital sigma takes the rule itself, text by text), and splitting, term ids and stop words are
Arrow kernels over the whole buffer.
"""

from __future__ import annotations

import os
import re
import sys
import unicodedata
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from itertools import filterfalse
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc


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
    """Lower case, then accents stripped: NFKD, combining marks dropped ("Óptimo" -> "optimo"), in the course's
    order."""
    text = text.lower()
    if text.isascii():
        return text
    text = _BMP_MARKS.sub("", unicodedata.normalize("NFKD", text))
    if _ASTRAL.search(text):
        text = _ASTRAL_MARKS.sub("", text)
    return text


# The course's list, normalized. No English list joins it: its words ("or", "a", "is") are also fragments of
# Spanish words that a fixed window cuts, which the course keeps.
STOPWORDS: frozenset[str] = frozenset([
    "de", "la", "el", "en", "y", "a", "los", "las", "del", "que", "se", "por", "con", "un", "una", "para", "es", "al",
    "lo", "su", "sus", "o", "como", "fue", "cual", "cuanto", "cuantos", "cuales", "segun"])
_is_stopword = STOPWORDS.__contains__


def __getattr__(name: str) -> Any:
    """FUNCTION_WORDS: the function words of both languages (NLTK's lists, as bm25s ships them), normalized and
    split as text is: what names and questions are read past (names.py, ask), never what BM25 indexes. Made on first
    use (then kept as the module's attribute): bm25s, imported for them, brings numpy, scipy... of its own."""
    if name != "FUNCTION_WORDS":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from bm25s.stopwords import STOPWORDS_EN_PLUS, STOPWORDS_SPANISH

    words = frozenset(token for word in (*STOPWORDS_SPANISH, *STOPWORDS_EN_PLUS)
                      for token in _WORD.findall(normalize(word)))
    globals()[name] = words
    return words


def tokenize(text: str) -> list[str]:
    """The `\\w+` tokens of the normalized text, stop words removed."""
    return list(filterfalse(_is_stopword, _WORD.findall(normalize(text))))


@dataclass(frozen=True)
class Tokens:
    """Many texts tokenized, in columns: the term ids of all tokens, text after text; each text's number of
    tokens; the terms by id, in order of first appearance."""

    ids: np.ndarray  # int32
    lengths: np.ndarray  # int64
    terms: list[str]

    def lists(self) -> list[list[str]]:
        """Each text's tokens as strings, as tokenize() gives them."""
        words = np.array(self.terms, dtype=object)[self.ids].tolist()
        ends = np.cumsum(self.lengths).tolist()
        return [words[end - n:end] for end, n in zip(ends, self.lengths.tolist(), strict=True)]


def tokenize_many(texts: Iterable[str]) -> list[list[str]]:
    """tokenize() of each text, computed in columns (see tokenize_columns)."""
    return tokenize_columns(texts).lists()


Texts = Iterable[str] | pa.Array | pa.ChunkedArray
_BATCH_BYTES = 1 << 22  # of UTF-8 text per batch
_DROPPED = pa.array(["", *sorted(STOPWORDS)])  # '' is what splitting yields at the ends of a text
# ASCII bytes: letters lower-cased, word characters kept, the rest spaces; bytes of wider characters kept
_ASCII = bytes(c if chr(c).isalnum() or c == 95 else 32 for c in range(128)).lower() + bytes(range(128, 256))
_LEAD_SIZE = np.zeros(256, dtype=np.int64)  # UTF-8 lead byte -> bytes of its character
_LEAD_SIZE[0xC0:0xE0], _LEAD_SIZE[0xE0:0xF0], _LEAD_SIZE[0xF0:] = 2, 3, 4
_LEAD_BITS = np.array([0, 0, 0x1F, 0x0F, 0x07], dtype=np.int64)  # by size: the code point bits of the lead byte
_MARK_CHARS = frozenset(map(chr, _MARK_POINTS))
_NON_WORD = re.compile(r"\W")
_SURROGATES = re.compile("[\ud800-\udfff]")
_FOLDED: dict[int, bytes | None] = {}


def tokenize_columns(texts: Texts, *, blank: str = "") -> Tokens:
    """The tokens tokenize() gives each text (str, or Arrow strings, such as a DuckDB result's or a pandas string
    column's), for many texts at once (see the module docstring); the characters of blank (all beyond ASCII) are
    read as spaces."""
    batches = list(_batches(_strings(texts)))
    if not batches:
        return Tokens(np.empty(0, dtype=np.int32), np.empty(0, dtype=np.int64), [])
    with ThreadPoolExecutor(min(len(batches), os.cpu_count() or 1)) as pool:  # Arrow and numpy let go of the GIL
        parts, lengths = zip(*pool.map(partial(_tokenize_batch, blank=frozenset(map(ord, blank))), batches),
                             strict=True)
    chunks = pa.chunked_array(parts).unify_dictionaries().chunks
    # the unified dictionary holds every batch's strings in order of first appearance, stop words too
    used = ~pc.is_in(chunks[0].dictionary, value_set=_DROPPED).to_numpy(zero_copy_only=False)
    new_id = (np.cumsum(used) - 1).astype(np.int32)
    ids = np.concatenate([new_id[c.indices.to_numpy()] for c in chunks])
    return Tokens(ids, np.concatenate(lengths), chunks[0].dictionary.filter(pa.array(used)).to_pylist())


def _strings(texts: Texts) -> list[pa.Array]:
    """Texts as Arrow arrays of strings; lone surrogates (no UTF-8 for them) become spaces, as non-word
    characters that are neither cased nor case-ignorable change no token."""
    if not isinstance(texts, pa.Array | pa.ChunkedArray):
        texts = texts if hasattr(texts, "__len__") else list(texts)  # a list, a pandas column...
        try:
            texts = pa.array(texts, type=pa.large_string())
        except UnicodeEncodeError:
            texts = pa.array([_SURROGATES.sub(" ", t) for t in texts], type=pa.large_string())
    arrays = texts.chunks if isinstance(texts, pa.ChunkedArray) else [texts]
    return [a if a.type in (pa.string(), pa.large_string()) else a.cast(pa.large_string()) for a in arrays]


def _batches(arrays: list[pa.Array]) -> Iterator[pa.Array]:
    """Slices of the arrays of about _BATCH_BYTES each (at least one text)."""
    for array in filter(len, arrays):
        offsets = _offsets(array)
        cuts = np.searchsorted(offsets, np.arange(offsets[0] + _BATCH_BYTES, offsets[-1], _BATCH_BYTES))
        bounds = np.unique(np.concatenate([[0], cuts, [len(array)]])).tolist()
        for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
            yield array.slice(lo, hi - lo)


def _offsets(array: pa.Array) -> np.ndarray:
    """Where each text of an array of strings starts in its data buffer, and where the last ends."""
    width = np.int64 if array.type == pa.large_string() else np.int32
    return np.frombuffer(array.buffers()[1], dtype=width)[array.offset:array.offset + len(array) + 1]


def _tokenize_batch(texts: pa.Array, blank: frozenset[int]) -> tuple[pa.DictionaryArray, np.ndarray]:
    """The batch's kept tokens (dictionary encoded, stop words still in the dictionary) and each text's count."""
    offsets = _offsets(texts).astype(np.int64)
    data = np.frombuffer(texts.buffers()[2] or b"", dtype=np.uint8)[offsets[0]:offsets[-1]]  # none: all empty
    offsets -= offsets[0]
    data = np.frombuffer(data.tobytes().translate(_ASCII), dtype=np.uint8)
    if (data >= 0x80).any():
        data, offsets = _folded(data, offsets, texts, blank)
    folded = pa.LargeStringArray.from_buffers(len(texts), pa.py_buffer(offsets), pa.py_buffer(data.tobytes()))
    words = pc.ascii_split_whitespace(folded)
    encoded = pc.dictionary_encode(words.flatten())
    indices = encoded.indices.to_numpy()
    kept = ~pc.is_in(encoded.dictionary, value_set=_DROPPED).to_numpy(zero_copy_only=False)[indices]
    before = np.concatenate([[0], np.cumsum(kept)])
    counts = np.diff(before[words.offsets.to_numpy()])
    return pa.DictionaryArray.from_arrays(pa.array(indices[kept]), encoded.dictionary), counts


def _folded(raw: np.ndarray, offsets: np.ndarray, texts: pa.Array,
            blank: frozenset[int]) -> tuple[np.ndarray, np.ndarray]:
    """UTF-8 text (the texts' bytes, ASCII folded already, and offsets) with every character beyond ASCII replaced
    by its normalization (lower case, accents stripped) with non-word characters (and those of blank) as spaces:
    afterwards a byte is part of a word when it is not a space. The new bytes, and the texts' offsets."""
    lead = np.flatnonzero(raw >= 0xC0)
    size = _LEAD_SIZE[raw[lead]]
    code = raw[lead] & _LEAD_BITS[size]
    for k in (1, 2, 3):
        more = size > k
        code[more] = (code[more] << 6) | (raw[lead[more] + k] & 0x3F)
    distinct, which = np.unique(code, return_inverse=True)
    replacements = [b" " if c in blank else _fold(c) for c in distinct.tolist()]
    if None in replacements:  # a capital sigma, lower-cased by its context: the rule itself, text by text
        spaces = dict.fromkeys(blank, " ")
        ruled = pa.array([_NON_WORD.sub(" ", normalize(t.translate(spaces))) for t in texts.to_pylist()],
                         type=pa.large_string())
        offsets = _offsets(ruled)
        return np.frombuffer(ruled.buffers()[2], dtype=np.uint8)[:offsets[-1]], offsets
    sizes = np.array([len(r) for r in replacements], dtype=np.int64)
    starts = np.cumsum(sizes) - sizes
    flat = np.frombuffer(b"".join(replacements), dtype=np.uint8)
    lengths = sizes[which]
    values = flat[np.repeat(starts[which] - np.cumsum(lengths) + lengths, lengths) + np.arange(lengths.sum())]
    ascii_before = lead - (np.cumsum(size) - size)
    growth = np.concatenate([[0], np.cumsum(lengths - size)])  # bytes gained before each wide character
    folded = np.insert(raw[raw < 0x80], np.repeat(ascii_before, lengths), values)
    return folded, offsets + growth[np.searchsorted(lead, offsets)]


def _fold(code: int) -> bytes | None:
    """A character beyond ASCII as normalize() turns it (but for lower-casing a capital sigma, which depends on
    its neighbours: None), non-word characters as spaces, in UTF-8 (ASCII letters it gives keep their case)."""
    folded = _FOLDED.get(code)
    if folded is None and code not in _FOLDED:
        base = "".join(c for c in unicodedata.normalize("NFKD", chr(code).lower()) if c not in _MARK_CHARS)
        folded = None if code == 0x3A3 else "".join(
            c if _WORD.fullmatch(c) else " " for c in base).encode("utf-8")
        _FOLDED[code] = folded
    return folded
