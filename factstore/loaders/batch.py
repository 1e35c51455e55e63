"""A batch of rows ready for the store: what every loader produces."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

Frame = pd.DataFrame | pa.Table  # SEC readers give Arrow (cheap to make per company); see _writable

ENTITY_COLUMNS = ["entity_id", "cik", "name", "tickers"]
FILING_COLUMNS = ["filing_id", "entity_id", "form", "period_end", "filed", "accepted_at",
                  "accepted_precision", "accepted_note", "source"]
REPORT_COLUMNS = ["filing_id", "entity_id", "concept", "unit", "period_start", "period_end",
                  "value", "accepted_at", "form", "row"]
DOCUMENT_COLUMNS = ["doc_id", "entity_id", "issuer", "kind", "form", "period_end", "year", "accepted_at",
                    "title", "raw"]


_EMPTY: dict[str, pd.DataFrame] = {}


def sec_entity_id(cik: int) -> str:
    """An SEC company's entity_id: its CIK in ten digits, zeros first (the Python twin of sql macro sec_entity_id)."""
    return f"{cik:010d}"


def _empty(columns: list[str]) -> pd.DataFrame:
    """An empty frame of these columns, shared: batches replace their frames, never change them in place."""
    key = ",".join(columns)
    if key not in _EMPTY:
        _EMPTY[key] = pd.DataFrame({c: [] for c in columns})
    return _EMPTY[key]


@dataclass
class Batch:
    """Rows for the store's tables from one source; `reports.row` points back into the source. Frames are
    pandas or Arrow (see writable()), replaced, never changed in place (empty ones are shared)."""

    source: str
    kind: str
    entities: Frame = field(default_factory=lambda: _empty(ENTITY_COLUMNS))
    filings: Frame = field(default_factory=lambda: _empty(FILING_COLUMNS))
    reports: Frame = field(default_factory=lambda: _empty(REPORT_COLUMNS))
    documents: Frame = field(default_factory=lambda: _empty(DOCUMENT_COLUMNS))
    sales: pd.DataFrame | None = None
    xbrl: pd.DataFrame | None = None  # every fact of an XBRL document as stated (factstore.loaders.xbrl)
    feed: pd.DataFrame | None = None  # filings an EDGAR XBRL feed lists (factstore.loaders.xbrl_feed)
    approximate: pd.DataFrame | None = None  # periods given only as month ends: entity_id, period_start, period_end
    declared: pd.DataFrame | None = None  # fiscal years filings declare (FSDS fye): entity_id, filing_id, fy_start,
    # fy_end, accepted_at
    source_of: dict[str, str] = field(default_factory=dict)  # table -> file it came from
    row_name: Callable[[Any], str] = lambda row: f"row {row}"  # noqa: E731 - a `reports.row` as the source names it
    ingested: list[tuple[str, str, str | None]] = field(default_factory=list)  # (item, digest, entity_id)
    # SEC data: a filing already stored keeps its row, and the facts of an accession already loaded are not
    # loaded again (a value the SEC has since edited in place is kept as a revision beside them)
    stored_wins: bool = False
    # with stored_wins, a source that lists a filing's facts whole (FSDS): the facts of a stored filing are added
    # where the store has none for their key (a value differing from a stored one goes to revisions)
    fills: bool = False
    note: str | None = None  # what the reader wants said of the source (e.g. an encoding it fell back to)

    def extend(self, other: Batch) -> Batch:
        """This batch with another's rows added (one company's facts and documents in one transaction)."""
        for name in ("entities", "filings", "reports", "documents"):
            mine, theirs = getattr(self, name), getattr(other, name)
            if len(theirs):
                setattr(self, name, _concat([mine, theirs], name) if len(mine) else theirs)
        self.entities = first_rows(self.entities, "entity_id")
        self.source_of.update(other.source_of)
        self.ingested += other.ingested
        self.stored_wins = self.stored_wins or other.stored_wins
        return self

    def writable(self) -> Batch:
        """This batch with every frame as the store writes it (see _writable)."""
        return replace(self, **{name: _writable(getattr(self, name), name)
                                for name in ("entities", "filings", "reports", "documents")})

    @classmethod
    def combine(cls, batches: list[Batch]) -> Batch:
        """Several companies' batches as one, writable (applied together); a filing or entity two of them give
        is the first's, as if they were applied one after another."""
        first = batches[0]
        out = cls(source=f"{len(batches)} batches ({first.source}...)", kind=first.kind,
                  stored_wins=any(b.stored_wins for b in batches))
        for name, key in (("entities", "entity_id"), ("filings", "filing_id"), ("reports", None), ("documents", None)):
            frames = [getattr(b, name) for b in batches if len(getattr(b, name))]
            if frames:
                frame = _concat(frames, name)
                setattr(out, name, first_rows(frame, key) if key else frame)
        for b in batches:
            out.source_of.update(b.source_of)
            out.ingested += b.ingested
        return out

    def filing_ids(self) -> set[str]:
        """The accessions this batch's facts belong to."""
        ids = self.reports["filing_id"]
        return set(ids.unique().to_pylist() if isinstance(ids, pa.ChunkedArray) else ids.unique())


def _writable(frame: Frame, name: str) -> Frame:
    """A frame as the store writes it: as it is, Arrow in one chunk (facts with one dictionary per text column: no
    copy, no Python objects; DuckDB scans that fastest)."""
    if isinstance(frame, pd.DataFrame):
        return frame
    return frame.unify_dictionaries().combine_chunks() if name == "reports" else frame.combine_chunks()


def first_rows(frame: Frame, key: str) -> Frame:
    """Each value of a key column's first row, in order (a pandas or an Arrow frame)."""
    if isinstance(frame, pd.DataFrame):
        return frame.drop_duplicates(key, ignore_index=True)
    values = frame[key]
    if pc.count_distinct(values, mode="all").as_py() == len(values):
        return frame
    codes = pc.dictionary_encode(values, null_encoding="encode").combine_chunks().indices.to_numpy()
    return frame.take(np.sort(np.unique(codes, return_index=True)[1]))


def _in_pandas(frame: Frame, name: str) -> pd.DataFrame:
    """A frame in pandas (facts in Arrow keep Arrow-backed columns, text decoded: no copy, no Python objects)."""
    if isinstance(frame, pd.DataFrame):
        return frame
    if name != "reports":
        return frame.to_pandas()
    plain = [pc.cast(c, c.type.value_type) if pa.types.is_dictionary(c.type) else c for c in frame.columns]
    return pa.table(plain, names=frame.column_names).to_pandas(types_mapper=pd.ArrowDtype)


def _concat(frames: list[Frame], name: str) -> Frame:
    """Frames' rows as one, writable: Arrow ones are put together first; beside pandas ones, all in pandas."""
    if all(isinstance(f, pa.Table) for f in frames):
        return _writable(pa.concat_tables(frames, promote_options="permissive"), name)
    return pd.concat([_in_pandas(f, name) for f in frames], ignore_index=True)


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
    xbrl_facts: int = 0  # facts of XBRL documents, numbers and texts, as they state them
    listed: int = 0  # filings an EDGAR XBRL feed listed that the index did not hold
