"""Page furniture among a filing's blocks: running headers and footers, contents back-links, page numbers.

A short line is furniture when its shape (numbers masked) sits at a page edge, next to a page break, on
many pages. Edges are peeled: once the outermost furniture is gone, the line behind it is at the edge,
so a running header of several lines goes line by line. Nothing depends on a company's wording.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

MAX_CHARS = 100  # longest line taken for furniture
MIN_PAGES = 3  # a line at the edge of fewer pages is kept, whatever the document's length
PAGE_SHARE = 0.25  # ... and of fewer than this share of the pages
_NUMBER = re.compile(r"\d+")
_ROMAN = r"(?=[ivxlc])c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})"
# a page number alone: "7", "7.", "- 7 -", "iv", "F-7", "Page 7", "7 of 90"
_PAGE_NUMBER = re.compile(
    rf"(?:page )?[-–—(]? ?(?:\d{{1,4}}|{_ROMAN}|[a-z]{{1,2}}-\d{{1,3}})(?: of \d{{1,4}})? ?[-–—)]?\.?")


def shape(text: str) -> str:
    """A line as it repeats from page to page: lower case, single spaces, numbers masked; any page
    number alone is "#"."""
    line = " ".join(text.split()).lower()
    return "#" if _PAGE_NUMBER.fullmatch(line) else _NUMBER.sub("#", line)


def furniture(texts: Sequence[str | None], breaks: Sequence[int]) -> set[int]:
    """The indexes of the furniture among a document's blocks. ``texts[i]`` is None for a block that
    never is (a table, a heading that must stay); ``breaks`` are the indexes of the blocks a page
    starts with. The document's start and end are page edges too."""
    n = len(texts)
    bounds = sorted({0, n, *(b for b in breaks if 0 < b < n)})
    need = max(MIN_PAGES, math.ceil(PAGE_SHARE * (len(bounds) - 1)))
    # each page's next block from the top and from the bottom, with the page's own range
    sides = [[lo, lo, hi, 1] for lo, hi in zip(bounds, bounds[1:], strict=False)]
    sides += [[hi - 1, lo, hi, -1] for lo, hi in zip(bounds, bounds[1:], strict=False)]
    found: set[int] = set()
    known: set[str] = set()
    while True:
        edges = {side[0]: s for side in sides if (s := _edge(texts, side, found)) is not None}
        new = {s for s, count in Counter(edges.values()).items() if count >= need} - known
        if not new:
            return found
        known |= new
        for side in sides:
            while _edge(texts, side, found) in known:
                found.add(side[0])
                side[0] += side[3]


def _edge(texts: Sequence[str | None], side: list[int], found: set[int]) -> str | None:
    """The shape of a page side's next block; None when it cannot be furniture (outside the page, taken
    already, long, or a block that never is)."""
    i, lo, hi, _ = side
    if not lo <= i < hi or i in found or texts[i] is None or len(texts[i]) > MAX_CHARS:
        return None
    return shape(texts[i])
