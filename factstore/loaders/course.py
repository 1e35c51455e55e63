"""The course format: filings6_documentos.parquet, filings6_xbrl.parquet, acciones6_ventas.csv."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from factstore.errors import LoadError
from factstore.loaders.batch import Batch
from factstore.loaders.columns import dates, numbers, read_table, require, strings, utc_timestamps
from factstore.timing import Place, filing_date, resolve_acceptances

COURSE_FORMS = {"10-K", "10-Q", "10-K/A", "10-Q/A"}
DOCUMENT_FIELDS = ["id_doc", "ticker", "emisor", "tipo", "periodo_fin", "texto"]
XBRL_FIELDS = ["id_doc", "concepto", "periodo_inicio", "periodo_fin", "valor", "ts_presentacion",
               "forma"]
SALES_FIELDS = ["ticker", "fin_trimestre", "ventas"]

Table = str | Path | pd.DataFrame


def _first_row(mask: pd.Series) -> int:
    return int(mask.to_numpy().nonzero()[0][0]) + 1


def read_documents(data: Table) -> tuple[pd.DataFrame, str]:
    """Validated documents: one row per id_doc with entity, form, period end and (optional) acceptance."""
    df, source = read_table(data, "documents")
    require(df, DOCUMENT_FIELDS, source)
    out = pd.DataFrame({
        "doc_id": strings(df, "id_doc", source),
        "entity_id": strings(df, "ticker", source).str.upper(),
        "name": strings(df, "emisor", source),
        "form": strings(df, "tipo", source, allowed=COURSE_FORMS),
        "period_end": dates(df, "periodo_fin", source),
        "raw": df["texto"].astype("string").fillna("").astype(object),
    })
    out["accepted_at"] = (utc_timestamps(df, "ts_presentacion", source, nullable=True)
                          if "ts_presentacion" in df.columns else pd.NaT)
    dup = out["doc_id"].duplicated()
    if dup.any():
        raise LoadError(source, "duplicate id_doc", row=_first_row(dup), field="id_doc")
    return out, source


def read_xbrl(data: Table) -> tuple[pd.DataFrame, str]:
    """Validated fact rows of the course's XBRL file (entity not yet known: it comes from id_doc)."""
    df, source = read_table(data, "xbrl")
    require(df, XBRL_FIELDS, source)
    concept = strings(df, "concepto", source)
    unqualified = ~concept.str.contains(":", regex=False)
    concept = concept.where(~unqualified, "us-gaap:" + concept)
    if "unidad" in df.columns:
        unit = strings(df, "unidad", source)
    else:  # the course's files may omit units: money, except per-share concepts
        unit = pd.Series("USD", index=df.index, dtype=object).where(
            ~concept.str.contains("PerShare", regex=False), "USD/shares")
    out = pd.DataFrame({
        "filing_id": strings(df, "id_doc", source),
        "concept": concept,
        "unit": unit,
        "period_start": dates(df, "periodo_inicio", source, nullable=True),
        "period_end": dates(df, "periodo_fin", source),
        "value": numbers(df, "valor", source),
        "accepted_at": utc_timestamps(df, "ts_presentacion", source),
        "form": strings(df, "forma", source, allowed=COURSE_FORMS),
        "row": pd.RangeIndex(1, len(df) + 1),
    })
    backwards = out["period_start"].notna() & (out["period_start"] > out["period_end"])
    if backwards.any():
        raise LoadError(source, "periodo_inicio after periodo_fin", row=_first_row(backwards),
                        field="periodo_inicio")
    for column in ("accepted_at", "form"):
        varies = out.groupby("filing_id")[column].transform("nunique") > 1
        if varies.any():
            raise LoadError(source, f"differs between rows of the same id_doc "
                            f"{out['filing_id'][varies].iloc[0]}", row=_first_row(varies),
                            field={"accepted_at": "ts_presentacion", "form": "forma"}[column])
    return out, source


def read_sales(data: Table) -> tuple[pd.DataFrame, str]:
    """The quarterly revenue reference (millions) by ticker and quarter end."""
    df, source = read_table(data, "sales")
    require(df, SALES_FIELDS, source)
    return pd.DataFrame({
        "entity_id": strings(df, "ticker", source).str.upper(),
        "quarter_end": dates(df, "fin_trimestre", source),
        "sales_millions": numbers(df, "ventas", source),
    }), source


def _place(filing: pd.Series, reports: pd.DataFrame, docs: pd.DataFrame | None) -> Place:
    """Where a filing's ts_presentacion is given: its file (the XBRL file's where both give it) and first data row."""
    rows = reports.loc[reports["filing_id"] == filing["filing_id"], "row"]
    if len(rows):
        return Place(filing["source"], filing["filing_id"], "ts_presentacion", row=int(rows.min()))
    at = (docs["doc_id"] == filing["filing_id"]).to_numpy().nonzero()[0] if docs is not None else []
    return Place(filing["source"], filing["filing_id"], "ts_presentacion", row=int(at[0]) + 1 if len(at) else None)


def read_course(xbrl: Table | None = None, documents: Table | None = None, sales: Table | None = None,
                known_filings: pd.DataFrame | None = None) -> Batch:
    """A batch from any of the course's three files; `known_filings` (filing_id, entity_id, form,
    accepted_at) are the store's, so an XBRL file can be loaded after its documents."""
    batch = Batch(source="course", kind="course")
    filings = []
    docs = None
    if documents is not None:
        docs, doc_source = read_documents(documents)
        batch.source_of["documents"] = doc_source
        batch.entities = (docs.groupby("entity_id", sort=True)
                          .agg(name=("name", "first")).reset_index()
                          .assign(cik=None, tickers=lambda d: d["entity_id"].map(lambda t: [t])))
        batch.documents = docs.assign(
            kind="filing", issuer=docs["name"], year=docs["period_end"].dt.year,
            title=docs["name"] + " > " + docs["form"] + " " + docs["period_end"].dt.strftime("%Y-%m-%d"),
        ).drop(columns="name")
        dated = docs[docs["accepted_at"].notna()]
        filings.append(dated[["doc_id", "entity_id", "form", "period_end", "accepted_at"]]
                       .rename(columns={"doc_id": "filing_id"}).assign(source=doc_source))
    if xbrl is not None:
        facts, fact_source = read_xbrl(xbrl)
        batch.source_of["reports"] = fact_source
        owners = [] if docs is None else [
            docs[["doc_id", "entity_id", "form", "accepted_at"]].rename(columns={"doc_id": "filing_id"})]
        if known_filings is not None and len(known_filings):
            owners.append(known_filings[["filing_id", "entity_id", "form", "accepted_at"]])
        owner = (pd.concat(owners).drop_duplicates("filing_id") if owners
                 else pd.DataFrame(columns=["filing_id", "entity_id", "form", "accepted_at"]))
        facts = facts.merge(owner, on="filing_id", how="left", suffixes=("", "_doc"))
        unknown = facts["entity_id"].isna()
        if unknown.any():
            raise LoadError(fact_source, f"unknown document {facts['filing_id'][unknown].iloc[0]!r}: "
                            "load its documents file with it", row=_first_row(unknown), field="id_doc")
        for column, name in (("form", "forma"), ("accepted_at", "ts_presentacion")):
            other = facts[f"{column}_doc"]
            clash = other.notna() & (other != facts[column])
            if clash.any():
                i = _first_row(clash) - 1
                raise LoadError(fact_source, f"{facts[column].iloc[i]} disagrees with "
                                f"{other.iloc[i]} given for document {facts['filing_id'].iloc[i]}",
                                row=int(facts["row"].iloc[i]), field=name)
        batch.reports = facts.drop(columns=["form_doc", "accepted_at_doc"])
        by_filing = (batch.reports.groupby("filing_id", sort=False)
                     .agg(entity_id=("entity_id", "first"), form=("form", "first"),
                          accepted_at=("accepted_at", "first"), period_end=("period_end", "max"))
                     .reset_index().assign(source=fact_source))
        filings.insert(0, by_filing)
    if filings:
        merged = pd.concat(filings, ignore_index=True)
        if docs is not None:  # the document's own period end wins over the latest fact's
            ends = docs.set_index("doc_id")["period_end"]
            merged["period_end"] = merged["filing_id"].map(ends).fillna(merged["period_end"])
        merged = merged.drop_duplicates("filing_id").reset_index(drop=True)
        # the one rule of acceptance times; the course gives no filing date, so only its bounds apply
        times = resolve_acceptances(list(merged["accepted_at"]), [None] * len(merged),
                                    lambda i: _place(merged.iloc[i], batch.reports, docs))
        merged["accepted_at"] = pd.Series([t.at for t in times], dtype="datetime64[us]")
        merged["filed"] = [filing_date(t.at) for t in times]
        batch.filings = merged.assign(accepted_precision=[t.precision for t in times],
                                      accepted_note=[t.note for t in times])
    if sales is not None:
        batch.sales, batch.source_of["sales"] = read_sales(sales)
    return batch
