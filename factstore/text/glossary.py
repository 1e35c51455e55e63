"""Spanish finance words read in English too (data/glossary.csv: domain vocabulary, as metrics.csv is), so a
Spanish question finds the English filing's words: a query's terms gain the English terms of every Spanish word
or phrase it holds."""

from __future__ import annotations

import csv
from functools import cache

from factstore.resources import data_file
from factstore.text.tokenize import tokenize


@cache
def _entries() -> dict[tuple[str, ...], tuple[str, ...]]:
    """The glossary as (Spanish terms) -> English terms, tokenized as queries are."""
    with data_file("glossary.csv").open(encoding="utf-8") as f:
        return {tuple(tokenize(r["es"])): tuple(tokenize(r["en"])) for r in csv.DictReader(f)}


def english(terms: list[str]) -> list[str]:
    """The English terms of the Spanish words and phrases (longest first) among a query's terms."""
    entries = _entries()
    longest = max(map(len, entries), default=0)
    out, i = [], 0
    while i < len(terms):
        for n in range(min(longest, len(terms) - i), 0, -1):
            found = entries.get(tuple(terms[i:i + n]))
            if found:
                out += found
                i += n
                break
        else:
            i += 1
    return out
