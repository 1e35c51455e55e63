"""Query vocabulary (domain vocabulary, as metrics.csv is): Spanish finance words read in English too
(data/glossary.csv), so that a Spanish question finds the English filing's words; and the words questions use read
with the words filings use for the same thing (data/synonyms.csv: 'people' and 'staff' for employees, 'rivals' for
competitors, 'business lines' for segments). A query's terms gain the terms of every word or phrase a table
holds, the longest phrase first."""

from __future__ import annotations

import csv
from functools import cache

from factstore.resources import data_file
from factstore.text.tokenize import tokenize


@cache
def _entries(name: str, key: str, value: str) -> dict[tuple[str, ...], tuple[str, ...]]:
    """A table as (terms) -> terms, both tokenized as queries are."""
    with data_file(name).open(encoding="utf-8") as f:
        return {tuple(tokenize(r[key])): tuple(tokenize(r[value])) for r in csv.DictReader(f)}


def _lookup(entries: dict[tuple[str, ...], tuple[str, ...]], terms: list[str]) -> list[str]:
    """The terms the table gives for the words and phrases (longest first) among a query's terms."""
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


def english(terms: list[str]) -> list[str]:
    """The English terms of the Spanish words and phrases among a query's terms (data/glossary.csv)."""
    return _lookup(_entries("glossary.csv", "es", "en"), terms)


def filed(terms: list[str]) -> list[str]:
    """The words filings use for the words and phrases among a query's terms (data/synonyms.csv), those the query
    does not hold already."""
    held = set(terms)
    return list(dict.fromkeys(t for t in _lookup(_entries("synonyms.csv", "asked", "filed"), terms) if t not in held))
