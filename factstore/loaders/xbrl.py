"""A filing's XBRL (factstore.xbrl) as a batch: the company and filing its cover names (checked against what the
store holds), every fact exactly as stated into xbrl_facts, and its numbers into reports beside every other
source's (dimensional ones under FSDS's keys, so they never mix into totals)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa

from factstore.errors import LoadError
from factstore.loaders.batch import REPORT_COLUMNS, Batch
from factstore.loaders.companyfacts import entity_row
from factstore.loaders.cover import Cover, context_cik, read_file_name
from factstore.loaders.filing import Filer, check_stored, given_acceptance, no_second_report
from factstore.loaders.fsds import concept_key, dims_key
from factstore.timing import PRECISIONS
from factstore.xbrl.model import Document, Fact

_TEXT, _DAY, _AT = pa.string(), pa.date32(), pa.timestamp("us")
# every fact as stated (xbrl_facts), and the numbers as reports
XBRL_SCHEMA = pa.schema([("filing_id", _TEXT), ("entity_id", _TEXT), ("fact_id", _TEXT), ("copies", pa.list_(_TEXT)),
                         ("context_id", _TEXT), ("concept", _TEXT), ("namespace", _TEXT), ("dims", _TEXT),
                         ("period_start", _DAY), ("period_end", _DAY), ("unit", _TEXT), ("value", _TEXT),
                         ("decimals", _TEXT), ("numeric", pa.bool_()), ("inconsistent", pa.bool_()),
                         ("line", pa.int64()), ("accepted_at", _AT)])
REPORT_SCHEMA = pa.schema(zip(REPORT_COLUMNS, [_TEXT, _TEXT, _TEXT, _TEXT, _DAY, _DAY, pa.float64(), _AT, _TEXT,
                                               pa.int64()], strict=True))


def xbrl_batch(document: Document, filer: Filer, filings: pd.DataFrame, cover: Cover, *,
               accession: str | None = None, accepted_at: Any = None) -> Batch:
    """A batch of one filing's XBRL for `filer`. `filings`: the stored filings of the company and any stored under
    the accession. The filing is the accession given (or in the file's name), else the company's one stored
    filing of the cover's form and period, else one named by the file; its time is the stored one, else
    `accepted_at`, else the end of the day in the file's name (NVDA_10-K_2025-02-26.html)."""
    source = document.source
    if cover.form is None or cover.period_end is None:
        raise LoadError(source, "the document has no dei:DocumentType or dei:DocumentPeriodEndDate",
                        field="dei:DocumentType")
    context_cik(document, filer.cik)
    named = read_file_name(source)
    given = given_acceptance(accepted_at, source, accession or Path(source).name, named.day)
    if accession is None:
        same = filings[(filings["entity_id"] == filer.entity_id) & (filings["form"].str.upper() == cover.form)
                       & (pd.to_datetime(filings["period_end"]).dt.date == cover.period_end)]
        if len(same) > 1 or (not len(same) and given is None):
            found = f"{len(same)} stored {cover.form} filings" if len(same) else f"no stored {cover.form} filing"
            raise LoadError(source, f"{found} of {filer.entity_id} for the period ending {cover.period_end}: "
                                    "give the accession", field="accession")
        accession = same["filing_id"].iloc[0] if len(same) else Path(source).name
    stored = filings[filings["filing_id"] == accession]
    if len(stored):
        row = stored.iloc[0]
        check_stored(row, filer.entity_id, cover.form, given, cover.period_end, source)
        at, filed, precision, note = (pd.Timestamp(row["accepted_at"]).to_pydatetime(), row["filed"],
                                      row["accepted_precision"], row["accepted_note"])
        if given is not None and PRECISIONS.index(given[2]) > PRECISIONS.index(precision):
            at, filed, precision, note = given  # more precise: the write plan weighs it against the stored (retimed)
    else:
        no_second_report(filings, filer.entity_id, cover.form, cover.period_end, accession, source)
        if given is None:
            raise LoadError(source, f"the store holds no filing {accession}, and XBRL does not say when it was "
                                    "accepted: give accepted_at", field="accepted_at")
        at, filed, precision, note = given
    batch = Batch(source=source, kind="xbrl", stored_wins=True)
    batch.entities = entity_row(filer.cik, filer.name, {"tickers": list(filer.tickers)}, entity_id=filer.entity_id)
    batch.filings = pd.DataFrame([{
        "filing_id": accession, "entity_id": filer.entity_id, "form": cover.form, "period_end": cover.period_end,
        "filed": pd.Timestamp(filed), "accepted_at": pd.Timestamp(at).as_unit("us"),
        "accepted_precision": precision, "accepted_note": note, "source": source}])
    return with_facts(batch, document)


def with_facts(batch: Batch, document: Document) -> Batch:
    """A batch of one filing (its filings and entities rows) given the document's facts, every context naming the
    filer: every fact into xbrl_facts, the numbers (not nil, not inconsistent, not forever) into reports. Facts of
    the filing stored before are added only where the store has none for their key (as FSDS's are). Both frames are
    Arrow, built from the facts' columns."""
    filings = batch.filings
    (filing,) = filings.to_pylist() if isinstance(filings, pa.Table) else filings.to_dict("records")
    context_cik(document, batch.entities.column("cik")[0].as_py())  # every fact is the filer's
    facts, source = document.facts, document.source
    n, at, form = len(facts), pd.Timestamp(filing["accepted_at"]).as_unit("us").to_pydatetime(), filing["form"]
    same = lambda value, size: [value] * size  # noqa: E731
    contexts = [f.context for f in facts]
    batch.xbrl = pa.table([
        same(filing["filing_id"], n), same(filing["entity_id"], n), [f.id for f in facts],
        [list(f.copies) for f in facts], [c.id for c in contexts], [f.concept for f in facts],
        [f.namespace for f in facts], [_dims(f) for f in facts], [c.start for c in contexts],
        [c.end for c in contexts], [f.unit for f in facts], [f.value for f in facts], [f.decimals for f in facts],
        [f.numeric for f in facts], [f.inconsistent for f in facts], [f.line for f in facts], same(at, n)],
        schema=XBRL_SCHEMA)
    numbers = [(i, f) for i, f in enumerate(facts)
               if f.numeric and f.value is not None and not f.inconsistent and f.context.end is not None]
    k = len(numbers)
    batch.reports = pa.table([
        same(filing["filing_id"], k), same(filing["entity_id"], k),
        [concept_key(f.concept, dict(f.context.dims)) for _, f in numbers], [f.unit for _, f in numbers],
        [f.context.start for _, f in numbers], [f.context.end for _, f in numbers],
        [float(Decimal(f.value)) for _, f in numbers], same(at, k), same(form, k), [i for i, _ in numbers]],
        schema=REPORT_SCHEMA)
    batch.row_name = lambda i: f"line {facts[int(i)].line}"
    batch.source_of.update(reports=source, xbrl=source)
    batch.fills = True
    return batch


def _dims(fact: Fact) -> str | None:
    """A fact's dimensions as reports key them (FSDS's spelling), None for none."""
    return dims_key(dict(fact.context.dims)) if fact.context.dims else None
