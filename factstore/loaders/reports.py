"""The course's Markdown reports: rag6_documentos.parquet (id_doc, titulo, tipo, texto)."""

from __future__ import annotations

import re

import pandas as pd

from factstore.loaders.batch import Batch
from factstore.loaders.columns import read_table, require, strings
from factstore.loaders.course import Table

REPORT_FIELDS = ["id_doc", "titulo", "tipo", "texto"]
_TITLE_SPLIT = re.compile(r"\s+[—–-]\s+")
_YEAR = re.compile(r"\b(19|20)\d{2}\b")


def issuer_of(title: str) -> str:
    """The issuer or fund a report title names: the part before its first dash ('Rapsa — Informe 2023')."""
    return _TITLE_SPLIT.split(title.strip(), maxsplit=1)[0]


def year_of(title: str) -> int | None:
    """The last year a title names."""
    years = [m.group() for m in _YEAR.finditer(title)]
    return int(years[-1]) if years else None


def read_reports(documents: Table) -> Batch:
    """A batch of report documents; the store parses their Markdown into blocks when it writes them."""
    df, source = read_table(documents, "reports")
    require(df, REPORT_FIELDS, source)
    titles = strings(df, "titulo", source)
    batch = Batch(source=source, kind="reports")
    batch.documents = pd.DataFrame({
        "doc_id": strings(df, "id_doc", source), "entity_id": None,
        "issuer": [issuer_of(t) for t in titles], "kind": "report", "form": strings(df, "tipo", source),
        "period_end": pd.NaT, "year": pd.array([year_of(t) for t in titles], dtype="Int64"),
        "accepted_at": pd.NaT, "title": titles,
        "raw": strings(df, "texto", source, strip=False),  # as given: reference passages are offsets into it
    })
    batch.source_of["documents"] = source
    return batch
