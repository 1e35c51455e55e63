"""Text retrieval on real filings: the gold set (data/eval/real_text_questions.jsonl: questions in English and
Spanish over every filing in shared/real/filings, written blind from the filings, each with 1–3 verbatim evidence
strings) asked as users ask (`store.ask` with k passages). A question is a hit at k when, for every company it
names, a passage cited covers at least half of one of that company's evidence strings, in whichever of its filings
prints it (a 10-Q repeats words of its 10-K); every passage cited must come from a company named."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from factstore.evaluate.retrieval import COVERAGE
from factstore.loaders.filing import html_text
from factstore.progress import progress_bar
from factstore.resources import data_file

if TYPE_CHECKING:
    from factstore.store import FactStore

TEXT_GOLD = data_file("eval", "real_text_questions.jsonl")
KS = (1, 3, 5)


@dataclass(frozen=True)
class Evidence:
    filing: str  # the file in shared/real/filings
    text: str  # verbatim, whitespace aside


def read_text_gold(path: str | Path | Any = TEXT_GOLD) -> list[dict[str, Any]]:
    """The gold questions: id, question, language, class, companies and evidence (Evidence)."""
    out = []
    source = Path(path) if isinstance(path, str) else path
    for i, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            row = json.loads(line)
            missing = {"id", "question", "language", "class", "companies", "evidence"} - set(row)
            if missing:
                raise ValueError(f"{path}: line {i}: missing {', '.join(sorted(missing))}")
            row["evidence"] = [Evidence(e["filing"], e["text"]) for e in row["evidence"]]
            out.append(row)
    return out


def locate(text: str, evidence: str) -> tuple[int, int] | None:
    """Where an evidence string first is in a document's text, whitespace and its amount aside; None if absent."""
    return next(iter(locate_all(text, evidence)), None)


def locate_all(text: str, evidence: str) -> list[tuple[int, int]]:
    """Every place an evidence string is in a document's text, whitespace and its amount aside (a 10-K may say a
    sentence in Item 1 and again in Item 1A)."""
    words = evidence.split()
    return [m.span() for m in re.finditer(r"\s*".join(re.escape(w) for w in words), text)] if words else []


def _covered(span: tuple[int, int], cited: list[tuple[int, int]]) -> bool:
    start, end = span
    inside = sum(max(0, min(e, end) - max(s, start)) for s, e in cited)
    return inside >= COVERAGE * (end - start)


def _documents_of(docs: pd.DataFrame, gold: list[dict[str, Any]], filings: str | Path
                  ) -> dict[str, tuple[str, str, str]]:
    """Each filing the gold cites as its stored document (doc_id, entity_id, text): the one keeping the file's bytes
    as raw. A filing not loaded is a ValueError."""
    raw = {r: (d, e, t) for d, e, r, t in docs[["doc_id", "entity_id", "raw", "text"]].itertuples(index=False)}
    by_file = {f: raw.get(html_text((Path(filings) / f).read_bytes()))
               for f in {ev.filing for q in gold for ev in q["evidence"]}}
    absent = sorted(f for f, found in by_file.items() if found is None)
    if absent:
        raise ValueError(f"filings not loaded in the store: {', '.join(absent)}")
    return by_file


def _wanted(docs: pd.DataFrame, gold: list[dict[str, Any]], filings: str | Path
            ) -> dict[str, dict[str, list[tuple[str, tuple[int, int]]]]]:
    """For each question, for each company it names, where its evidence is: every (doc_id, span) where that company's
    stored documents print one of its evidence strings verbatim (a 10-Q repeats its 10-K's words, a 10-K its Item 1
    in Item 1A: any copy answers). An evidence string not in the stored text of its own filing is a ValueError."""
    by_file = _documents_of(docs, gold, filings)
    texts = docs[["doc_id", "entity_id", "text"]].itertuples(index=False)
    of_entity: dict[str, list[tuple[str, str]]] = {}
    for doc, entity, text in texts:
        of_entity.setdefault(entity, []).append((doc, text or ""))
    out: dict[str, dict[str, list[tuple[str, tuple[int, int]]]]] = {}
    for q in gold:
        wanted = out.setdefault(q["id"], {})
        for ev in q["evidence"]:
            doc, entity, _ = by_file[ev.filing]
            found = [(other, span) for other, body in of_entity[entity] for span in locate_all(body, ev.text)]
            if not any(other == doc for other, _ in found):
                raise ValueError(f"{q['id']}: evidence not in the stored text of {ev.filing}: {ev.text[:60]!r}")
            wanted.setdefault(entity, []).extend(found)
    return out


def evaluate_text(store: FactStore, gold: list[dict[str, Any]], filings: str | Path, *, ks: tuple[int, ...] = KS,
                  progress: bool | None = None) -> pd.DataFrame:
    """One row per question and k: hit, characters delivered, and whether every passage came from a company
    named (where the question names one). The files in `filings` must be loaded (a document is the file whose
    bytes it keeps as raw)."""
    docs = store.sql("SELECT doc_id, entity_id, raw, text FROM documents")
    where = _wanted(docs, gold, filings)
    rows = []
    for q in progress_bar(gold, desc="eval text (real filings)", unit="question", progress=progress, leave=False):
        wanted = where[q["id"]]
        for k in ks:
            answer = store.ask(q["question"], k=k)
            cited: dict[str, list[tuple[int, int]]] = {}
            for c in answer.citations:
                if c.start is not None:
                    cited.setdefault(c.doc, []).append((c.start, c.end))
            hit = all(any(_covered(span, cited.get(doc, [])) for doc, span in spans) for spans in wanted.values())
            entities = set(docs.loc[docs["doc_id"].isin(cited), "entity_id"])
            named = bool((answer.parsed or {}).get("entities"))  # a question naming none searches every filing
            rows.append({"id": q["id"], "class": q["class"], "language": q["language"], "k": k, "hit": hit,
                         "chars": sum(len(c.text) for c in answer.citations), "kind": answer.kind,
                         "own_company": entities <= set(wanted) or not named})
    return pd.DataFrame(rows)


PARAGRAPH_CHARS = 1_000


def paragraphs(text: str) -> list[tuple[int, int]]:
    """The baseline's passages: blank-line paragraphs of a document's text, merged up to PARAGRAPH_CHARS."""
    spans, start, end = [], None, 0
    for m in re.finditer(r"[^\n](?:.|\n(?!\n))*", text):
        if start is not None and m.end() - start > PARAGRAPH_CHARS:
            spans.append((start, end))
            start = None
        start = m.start() if start is None else start
        end = m.end()
    return spans + ([(start, end)] if start is not None else [])


def evaluate_baseline(store: FactStore, gold: list[dict[str, Any]], filings: str | Path, *,
                      ks: tuple[int, ...] = KS) -> pd.DataFrame:
    """The plain baseline, as evaluate_text judges ours: bm25s (Lucene BM25, English stop words) over paragraphs of
    about PARAGRAPH_CHARS, the document title as their first line, searched within the documents of the companies
    the gold names (one search each, k passages each)."""
    import bm25s

    docs = store.sql("SELECT doc_id, entity_id, title, raw, text FROM documents")
    where = _wanted(docs, gold, filings)
    indexes = {}
    for entity, rows in docs.groupby("entity_id"):
        passages = [(d, span, f"{title}\n{text[span[0]:span[1]]}") for d, title, text in
                    rows[["doc_id", "title", "text"]].itertuples(index=False) for span in paragraphs(text)]
        model = bm25s.BM25()
        model.index(bm25s.tokenize([p for *_, p in passages], stopwords="en", show_progress=False),
                    show_progress=False)
        indexes[entity] = (model, passages)
    rows = []
    for q in gold:
        wanted = where[q["id"]]
        tokens = bm25s.tokenize([q["question"]], stopwords="en", show_progress=False)
        for k in ks:
            hit, chars = True, 0
            for entity, spans in wanted.items():
                model, passages = indexes[entity]
                found, _ = model.retrieve(tokens, k=min(k, len(passages)), show_progress=False)
                top = [passages[i] for i in found[0]]
                chars += sum(len(p) for *_, p in top)
                hit &= any(_covered(span, [s for d, s, _ in top if d == doc]) for doc, span in spans)
            rows.append({"id": q["id"], "class": q["class"], "language": q["language"], "k": k, "hit": hit,
                         "chars": chars, "kind": "baseline", "own_company": True})
    return pd.DataFrame(rows)


def summarize_text(results: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """hit@k and characters delivered, overall, by language and by class; and the share of answers citing only
    the companies named."""
    results = results.assign(all="all")

    def table(by: str) -> pd.DataFrame:
        hits = results.pivot_table(index=by, columns="k", values="hit", aggfunc="mean")
        chars = results.pivot_table(index=by, columns="k", values="chars", aggfunc="mean")
        n = results[results["k"] == results["k"].min()].groupby(by).size().rename("questions")
        return pd.concat([n, hits.rename(columns=lambda k: f"hit@{k}"), chars.rename(columns=lambda k: f"chars@{k}")],
                         axis=1)

    return {"all": table("all"), "language": table("language"), "class": table("class"),
            "own_company": results.groupby("all")[["own_company"]].mean()}
