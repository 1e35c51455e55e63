"""Retrieval evaluation against reference passages: recall@k, complete answers and characters delivered,
for every strategy with and without its context header, and the recall-versus-characters curve.

A gold passage counts as retrieved when the union of the top-k chunks' spans in its document covers at
least half of its characters. Unanswerable questions are left out. Searches see only the question's
text, never its gold documents.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from factstore.loaders.columns import read_table, require
from factstore.progress import progress_bar
from factstore.text.chunkers import STRATEGIES
from factstore.text.search import Hit

if TYPE_CHECKING:
    from factstore.store import FactStore

COVERAGE = 0.5
K_MAX = 10
PASSAGE_FIELDS = ["id_pasaje", "id_doc", "inicio", "fin"]
QUESTION_FIELDS = ["id_pregunta", "pregunta", "pasajes_oro", "tipo_pregunta", "respondible"]


def read_gold(passages: str | Path | pd.DataFrame, questions: str | Path | pd.DataFrame
              ) -> tuple[dict[str, tuple[str, int, int]], pd.DataFrame]:
    """Reference passages by id (document, start, end) and the answerable questions with their gold ids."""
    p, p_source = read_table(passages, "passages")
    require(p, PASSAGE_FIELDS, p_source)
    q, q_source = read_table(questions, "questions")
    require(q, QUESTION_FIELDS, q_source)
    spans = {str(r.id_pasaje): (str(r.id_doc), int(r.inicio), int(r.fin)) for r in p.itertuples()}
    answerable = q["respondible"].astype(str).str.strip().str.lower().isin(["true", "1", "si", "sí", "yes"])
    q = q[answerable].copy()
    q["gold"] = [[g for g in str(ids).split(";") if g.strip()] for ids in q["pasajes_oro"].fillna("")]
    missing = sorted({g for ids in q["gold"] for g in ids} - set(spans))
    if missing:
        raise ValueError(f"{q_source}: gold passages not in {p_source}: {', '.join(missing[:5])}")
    return spans, q[q["gold"].map(len) > 0].reset_index(drop=True)


def coverage(passage: tuple[str, int, int], hits: Iterable[Hit]) -> float:
    """Share of a passage's characters covered by the union of the hits' spans in its document."""
    doc, start, end = passage
    intervals = sorted((max(s, start), min(e, end)) for h in hits if h.doc_id == doc
                       for s, e in h.spans if s < end and e > start)
    covered, reach = 0, start
    for s, e in intervals:
        s = max(s, reach)
        if e > s:
            covered += e - s
            reach = e
    return covered / max(end - start, 1)


def evaluate(store: FactStore, passages: str | Path | pd.DataFrame, questions: str | Path | pd.DataFrame, *,
             strategies: Sequence[str] = tuple(STRATEGIES), headers: Sequence[bool] = (False, True),
             k_max: int = K_MAX, progress: bool | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per (strategy, header, k): mean recall, share complete, mean characters delivered; and per
    question type. The documents must already be loaded in `store`."""
    spans, gold = read_gold(passages, questions)
    rows = []
    for strategy in strategies:
        for header in headers:
            for q in progress_bar(gold.itertuples(), total=len(gold), desc=f"eval {strategy} header={header}",
                                  progress=progress, leave=False):
                hits = store.search(q.pregunta, k=k_max, strategy=strategy, header=header)
                for k in range(1, k_max + 1):
                    top = hits[:k]
                    found = [coverage(spans[g], top) >= COVERAGE for g in q.gold]
                    rows.append((strategy, header, k, q.tipo_pregunta, sum(found) / len(found), all(found),
                                 sum(h.chars for h in top)))
    per_question = pd.DataFrame(rows, columns=["strategy", "header", "k", "type", "recall", "complete", "chars"])
    keys = ["strategy", "header", "k"]
    summary = per_question.groupby(keys, sort=False).agg(
        recall=("recall", "mean"), complete=("complete", "mean"), chars=("chars", "mean")).reset_index()
    by_type = per_question.groupby([*keys, "type"], sort=False).agg(
        recall=("recall", "mean"), complete=("complete", "mean"), questions=("recall", "size")).reset_index()
    return summary, by_type


def plot(summary: pd.DataFrame, path: str | Path) -> Path:
    """The recall-versus-characters curve (one line per strategy and header, a point per k) as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5), dpi=120)
    for (strategy, header), g in summary.groupby(["strategy", "header"], sort=False):
        ax.plot(g["chars"], g["recall"], marker="o", markersize=3, linestyle="-" if header else "--",
                label=f"{strategy}{' + header' if header else ''}")
    ax.set_xlabel("mean characters delivered (top-k chunks)")
    ax.set_ylabel(f"mean recall (passage ≥{COVERAGE:.0%} covered)")
    ax.set_title("Recall against context budget, k = 1..10")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return Path(path)


def at_budget(summary: pd.DataFrame, budget: float) -> pd.DataFrame:
    """Each (strategy, header) at the largest k whose mean characters stay within a budget."""
    within = summary[summary["chars"] <= budget]
    best = within.sort_values("k").groupby(["strategy", "header"], sort=False).tail(1)
    return best.sort_values("recall", ascending=False).reset_index(drop=True)
