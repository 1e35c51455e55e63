"""The standard metrics (data/metrics.csv), one table read by the engine and by `ask`: the snake_case names and
aliases (SF1's codes) people ask by, the XBRL concepts each stands for in priority order (US GAAP and IFRS), its
unit kind, the statement it belongs to, a formula over other metrics, and the words and line labels of questions
and filings."""

from __future__ import annotations

import csv
import difflib
import re
from dataclasses import dataclass
from functools import cache, lru_cache

from factstore.resources import data_file
from factstore.text.tokenize import normalize

METRICS_FILE = data_file("metrics.csv")
KINDS = ("money", "per_share", "shares", "ratio")


@dataclass(frozen=True)
class Metric:
    """A financial metric: the XBRL concepts to try, in order (for each company and period the first one it
    reported); a formula over other metrics (derived, or used when no concept is reported); its unit kind; the
    words people ask by, the line labels filings print it under, and a note to say with every answer."""

    name: str
    words: tuple[str, ...]
    concepts: tuple[str, ...]
    formula: str = ""
    labels: tuple[str, ...] = ()
    note: str = ""
    aliases: tuple[str, ...] = ()
    kind: str = "money"
    statement: str = ""


def _split(text: str | None) -> tuple[str, ...]:
    return tuple(w.strip() for w in (text or "").split(";") if w.strip())


@cache
def load_metrics() -> tuple[Metric, ...]:
    """The metrics table, read once."""
    with METRICS_FILE.open(encoding="utf-8") as f:
        return tuple(Metric(r["metric"], tuple(normalize(w) for w in _split(r["words"])), _split(r["concepts"]),
                            (r.get("formula") or "").strip(), tuple(normalize(w) for w in _split(r.get("labels"))),
                            (r.get("note") or "").strip(), tuple(a.lower() for a in _split(r.get("aliases"))),
                            (r.get("kind") or "money").strip(), (r.get("statement") or "").strip())
                     for r in csv.DictReader(f))


@lru_cache(maxsize=4096)
def key(name: str) -> str:
    """A metric name as looked up: lower case, spaces and hyphens as underscores ('Net income' -> 'net_income')."""
    return re.sub(r"[\s\-]+", "_", name.strip().lower())


@cache
def _by_key() -> dict[str, Metric]:
    return {k: m for m in load_metrics() for k in (m.name, *m.aliases)}


def find(name: str) -> Metric | None:
    """The metric a name or alias names (any case; 'net income', 'netinc', 'NET_INCOME'), or None."""
    return _by_key().get(key(name))


def as_metric(name: str) -> Metric | None:
    """The metric a name names where it is read as one: a lower-case name without a prefix ('revenue', 'net income',
    'netinc'); a name with a capital letter or a prefix is a concept's ('Revenues', 'us-gaap:Revenues'), None."""
    return None if name != name.lower() or ":" in name else find(name)


def named(name: str) -> Metric:
    """The metric of this name or alias; ValueError listing close names where there is none."""
    found = find(name)
    if found is None:
        close = difflib.get_close_matches(key(name), list(_by_key()), n=3)
        raise ValueError(f"unknown metric {name!r}" + (f"; did you mean {', '.join(close)}?" if close else ""))
    return found


def metric_concepts() -> list[dict[str, object]]:
    """The rows of the store's metric_concepts table: each metric's name and aliases with its concepts in order."""
    return [{"name": key, "metric": m.name, "rank": rank, "concept": c} for key, m in _by_key().items()
            for rank, c in enumerate(m.concepts, 1)]
