"""A batch of rows ready for the store: what every loader produces."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

ENTITY_COLUMNS = ["entity_id", "cik", "name", "tickers"]
FILING_COLUMNS = ["filing_id", "entity_id", "form", "period_end", "filed", "accepted_at",
                  "accepted_precision", "accepted_note", "source"]
REPORT_COLUMNS = ["filing_id", "entity_id", "concept", "unit", "period_start", "period_end",
                  "value", "accepted_at", "form", "row"]
DOCUMENT_COLUMNS = ["doc_id", "entity_id", "issuer", "kind", "form", "period_end", "year", "accepted_at",
                    "title", "raw"]


def _empty(columns: list[str]) -> pd.DataFrame:
    return pd.DataFrame({c: [] for c in columns})


@dataclass
class Batch:
    """Rows for the store's tables from one source; `reports.row` points back into the source."""

    source: str
    kind: str
    entities: pd.DataFrame = field(default_factory=lambda: _empty(ENTITY_COLUMNS))
    filings: pd.DataFrame = field(default_factory=lambda: _empty(FILING_COLUMNS))
    reports: pd.DataFrame = field(default_factory=lambda: _empty(REPORT_COLUMNS))
    documents: pd.DataFrame = field(default_factory=lambda: _empty(DOCUMENT_COLUMNS))
    sales: pd.DataFrame | None = None
    source_of: dict[str, str] = field(default_factory=dict)  # table -> file it came from
    row_name: Callable[[Any], str] = str  # a `reports.row` as people find it in the source
    ingested: list[tuple[str, str, str | None]] = field(default_factory=list)  # (item, digest, entity_id)
    # SEC data: a filing already stored keeps its row, and the facts of an accession already loaded are not
    # loaded again (a value the SEC has since edited in place is kept as a revision beside them)
    stored_wins: bool = False

    def extend(self, other: Batch) -> Batch:
        """This batch with another's rows added (one company's facts and documents in one transaction)."""
        for name in ("entities", "filings", "reports", "documents"):
            mine, theirs = getattr(self, name), getattr(other, name)
            if len(theirs):
                setattr(self, name, pd.concat([mine, theirs], ignore_index=True) if len(mine) else theirs)
        self.entities = self.entities.drop_duplicates("entity_id", ignore_index=True)
        self.source_of.update(other.source_of)
        self.ingested += other.ingested
        self.stored_wins = self.stored_wins or other.stored_wins
        return self


@dataclass(frozen=True)
class LoadReport:
    """What a load added."""

    source: str
    entities: int
    filings: int
    reports: int
    documents: int
    error: str | None = None  # what failed in this part of a run (a company's facts load whole or not at all)
    note: str | None = None  # e.g. 'unchanged since it was loaded'
    revisions: int = 0  # values of filings loaded before that the SEC has since edited in place
