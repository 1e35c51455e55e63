"""Accuracy of `ask` on gold questions: routing (facts, passages, table or unanswerable) for the course's
report questions, and routing plus numeric exact match (within 0.05 million) for numeric questions over
the filings, built from the course's quarterly revenue reference (acciones6_ventas.csv)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from factstore.loaders.columns import read_table, require
from factstore.progress import progress_bar

if TYPE_CHECKING:
    from factstore.store import FactStore

TOLERANCE_MILLIONS = 0.05
_ORDINAL_EN = {1: "first", 2: "second", 3: "third", 4: "fourth"}
_ORDINAL_ES = {1: "primer", 2: "segundo", 3: "tercer", 4: "cuarto"}
_TEMPLATES = [  # (language, template): name, quarter, year, as_of
    ("en", "What was {name}'s revenue in Q{q} {year}, as known on {as_of}?"),
    ("en", "{ticker} sales for the {ord_en} quarter of fiscal {year} as of {as_of}"),
    ("es", "¿Cuáles fueron las ventas de {name} en el {ord_es} trimestre de {year}, a fecha de {as_of_es}?"),
    ("es", "Ingresos de {name} en el {q}T {year} según lo conocido el {as_of}"),
]


def numeric_questions(store: FactStore, n: int = 200, seed: int = 0) -> pd.DataFrame:
    """Revenue questions over the filings, each with its gold answer from the sales reference, asked as of
    a moment after the quarter was reported (Q1-Q3: 25 days after the 10-Q, past any 10-Q/A; Q4: a day
    after the 10-K, before any 10-K/A)."""
    ref = store.sql("""
        SELECT s.entity_id, e.name, s.quarter_end, s.sales_millions, f.form, f.accepted_at
        FROM sales_reference s JOIN entities e USING (entity_id)
        JOIN filings f ON f.entity_id = s.entity_id AND f.period_end = s.quarter_end AND f.form IN ('10-Q', '10-K')
        ORDER BY s.entity_id, s.quarter_end""")
    if ref.empty:
        return pd.DataFrame(columns=["id_pregunta", "pregunta", "respuesta_oro", "tipo_pregunta", "expected"])
    labels = store.sql("""
        SELECT entity_id, period_end AS quarter_end, fiscal_period FROM fiscal_facts(NULL, mode := 'latest')
        WHERE kind IN ('quarter', 'instant') AND fiscal_period IS NOT NULL GROUP BY ALL""")
    labels = labels.drop_duplicates(["entity_id", "quarter_end"])
    ref = ref.merge(labels, on=["entity_id", "quarter_end"], how="inner")
    rng = np.random.default_rng(seed)
    picks = ref.iloc[rng.choice(len(ref), size=min(n, len(ref)), replace=False)].reset_index(drop=True)
    rows = []
    for i, r in enumerate(picks.itertuples()):
        as_of = r.accepted_at + pd.Timedelta(days=1 if r.form == "10-K" else 25)
        q, year = int(r.fiscal_period[-1]), int(r.fiscal_period[:4])
        lang, template = _TEMPLATES[i % len(_TEMPLATES)]
        text = template.format(name=r.name, ticker=r.entity_id, q=q, year=year, ord_en=_ORDINAL_EN[q],
                               ord_es=_ORDINAL_ES[q], as_of=f"{as_of:%Y-%m-%d}", as_of_es=f"{as_of:%d/%m/%Y}")
        rows.append({"id_pregunta": f"N{i:04d}", "pregunta": text, "respuesta_oro": r.sales_millions,
                     "tipo_pregunta": f"numeric_{lang}", "expected": "fact"})
    return pd.DataFrame(rows)


def report_questions(questions: str | pd.DataFrame) -> pd.DataFrame:
    """The course's report questions with the kind of answer each should get."""
    q, source = read_table(questions, "questions")
    require(q, ["id_pregunta", "pregunta", "tipo_pregunta", "respondible"], source)
    answerable = q["respondible"].astype(str).str.strip().str.lower().isin(["true", "1", "si", "sí", "yes"])
    q = q.assign(expected=np.where(~answerable, "unanswerable",
                                   np.where(q["tipo_pregunta"] == "comparacion", "table", "passages")))
    return q[["id_pregunta", "pregunta", "tipo_pregunta", "expected"]].assign(respuesta_oro=np.nan)


def evaluate_ask(store: FactStore, questions: pd.DataFrame, progress: bool | None = None) -> pd.DataFrame:
    """Ask every question; per question: the kind routed to, whether it matches, and numeric exact match."""
    rows = []
    for q in progress_bar(questions.itertuples(), total=len(questions), desc="eval ask", leave=False,
                          progress=progress):
        answer = store.ask(q.pregunta)
        routed = answer.kind == q.expected or (q.expected == "passages" and answer.kind == "table")
        exact = None
        if pd.notna(q.respuesta_oro):
            exact = answer.value is not None and abs(answer.value / 1e6 - float(q.respuesta_oro)) <= TOLERANCE_MILLIONS
        rows.append({"id_pregunta": q.id_pregunta, "type": q.tipo_pregunta, "expected": q.expected,
                     "kind": answer.kind, "routed": routed, "exact": exact})
    return pd.DataFrame(rows)


def summarize(results: pd.DataFrame) -> pd.DataFrame:
    """Routing accuracy and numeric exact-match accuracy by question type, and overall."""
    by_type = results.groupby("type").agg(questions=("routed", "size"), routing=("routed", "mean"),
                                          exact_match=("exact", lambda s: s.dropna().astype(float).mean()))
    total = pd.DataFrame({"questions": [len(results)], "routing": [results["routed"].mean()],
                          "exact_match": [results["exact"].dropna().astype(float).mean()]}, index=["all"])
    return pd.concat([by_type, total])
