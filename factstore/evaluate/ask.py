"""Accuracy of `ask` on gold questions: routing (facts, passages, table or unanswerable) for the course's
report questions, and routing plus numeric exact match (within 0.05 million) for numeric questions over
the filings, built from the course's quarterly revenue reference (acciones6_ventas.csv); and, on real SEC
data, questions as people ask them (data/eval/real_questions.csv) judged against gold answers computed from
the raw companyfacts JSON: value, unit, the filing that first reported each part, its span in the filing."""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from factstore.loaders.batch import sec_entity_id
from factstore.loaders.columns import read_table, require
from factstore.progress import progress_bar
from factstore.resources import data_file
from factstore.text.tokenize import normalize

if TYPE_CHECKING:
    from factstore.ask.route import Answer
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


# ------------------------------------------------------------------------------- real SEC questions
# Questions on real companyfacts (Apple, NVIDIA, Alphabet, TSMC) as people ask them, each with a gold answer
# computed by brute force from the raw companyfacts JSON (never through the store): the value known at the
# question's moment and, for each reported figure it rests on, the filing that first reported that value.

REAL_QUESTIONS = data_file("eval", "real_questions.csv")
REAL_DATA = Path(os.environ.get("FACTSTORE_REAL", Path(__file__).resolve().parents[3] / "shared" / "real"))
REAL_COMPANIES = ("CIK0000320193", "CIK0001045810", "CIK0001652044", "CIK0001046179", "CIK0001318605",
                  "CIK0001640147", "CIK0001835632", "CIK0001997711")  # the eight companies of shared/real
REAL_FILINGS = (  # (file in filings/, what load_filing is given): each loads from the document and its name alone,
    ("AAPL_10-K_2024-11-01_0000320193-24-000123.html", {}),  # but for the two filings of the 1990s and 2010s,
    ("AAPL_10-Q_2025-05-02_aapl-20250329.htm", {}),  # which say nothing of when they were filed: the filing day is
    ("AAPL_10-Q_2025-08-01_Q3FY25.html", {}),  # taken as their signatures' date (an assumption of this evaluation)
    ("GOOGL_10-K_2025-02-05.html", {}),
    ("NVDA_10-K_2025-02-26.html", {}),
    ("NVDA_10-Q_2025-08-27.html", {}),
    ("WFC_10-K_2025-02-25.html", {}),
    ("10-K_1999_0000950153-99-001234.html", {"accepted_at": "1999-09-28"}),
    ("10-K_2016_0001376474-16-000635.html", {"accepted_at": "2016-03-30"}),
)
FSDS_SAMPLES = ("2009q3", "2010q2", "apple_10k_2024")  # the FSDS quarters of shared/real/fsds (every filer)
_DAYS = {"year": (350, 380), "quarter": (80, 105), "nine_months": (260, 290)}
_SCALES = (1e6, 1e3, 1.0)


def load_real(store: FactStore, real: str | Path) -> None:
    """Load the store users build from the real data: the eight companies' companyfacts (each with its submissions
    and their paged files where present), the FSDS samples (every filer of those quarters) and every filing in
    filings/."""
    real = Path(real)
    for name in REAL_COMPANIES:
        subs = real / "submissions" / f"{name}.json"
        paged = sorted((real / "submissions").glob(f"{name}-submissions-*.json"))
        store.load_companyfacts(real / "companyfacts" / f"{name}.json", [subs, *paged] if subs.exists() else None,
                                progress=False)
    store.load_fsds([real / "fsds" / q for q in FSDS_SAMPLES], progress=False)
    for file, given in REAL_FILINGS:
        store.load_filing(real / "filings" / file, progress=False, **given)


@dataclass(frozen=True)
class RawFact:
    """One value one filing reported, as the companyfacts JSON gives it (accepted: from submissions, if any)."""

    concept: str
    unit: str
    start: date | None
    end: date
    value: float
    accn: str
    form: str
    filed: date
    accepted: datetime | None

    def visible(self, moment: datetime | None) -> bool:
        """Public at the moment; a filing known only by its day is public from the day after (the question
        set avoids moments within a day of such a filing)."""
        if moment is None:
            return True
        if self.accepted is not None:
            return self.accepted <= moment
        if self.filed + timedelta(days=1) < moment.date():
            return True
        if self.filed >= moment.date():
            return False
        raise ValueError(f"{self.accn} filed {self.filed}: too close to {moment} to tell")

    def days(self) -> int | None:
        return None if self.start is None else (self.end - self.start).days + 1


@dataclass(frozen=True)
class Gold:
    """A gold answer: value and unit, the period's first and last day, and each part's first filing
    (accession, form, acceptance or filing moment, its own value)."""

    value: float
    unit: str
    start: date | None
    end: date
    firsts: tuple[tuple[str, str, datetime, float], ...]


class RawCompany:
    """A company's companyfacts values as the JSON gives them (acceptance times from its submissions JSON),
    by concept, with the periods its 10-K/20-F (years) and 10-Q (quarters) filings report."""

    def __init__(self, real: str | Path, cik: int) -> None:
        real = Path(real)
        data = json.loads((real / "companyfacts" / f"CIK{cik:010d}.json").read_text())
        accepted: dict[str, datetime] = {}
        subs = real / "submissions" / f"CIK{cik:010d}.json"
        if subs.exists():
            recent = json.loads(subs.read_text())["filings"]["recent"]
            for accn, stamp in zip(recent["accessionNumber"], recent["acceptanceDateTime"], strict=True):
                if stamp:
                    accepted[accn] = datetime.fromisoformat(stamp.replace("Z", "+00:00")).replace(tzinfo=None)
        self.by_concept: dict[str, list[RawFact]] = {}
        for concepts in data["facts"].values():
            for concept, body in concepts.items():
                for unit, values in body["units"].items():
                    self.by_concept.setdefault(concept, []).extend(
                        RawFact(concept, unit, date.fromisoformat(v["start"]) if v.get("start") else None,
                                date.fromisoformat(v["end"]), float(v["val"]), v["accn"], v["form"],
                                date.fromisoformat(v["filed"]), accepted.get(v["accn"])) for v in values)
        every = [f for facts in self.by_concept.values() for f in facts]
        self.years = [(f.start, f.end) for f in every if f.form in ("10-K", "20-F", "10-K/A") and _is(f, "year")]
        self.quarters = {(f.start, f.end) for f in every if f.form.startswith("10-Q") and _is(f, "quarter")}
        self.nine = {(f.start, f.end) for f in every if _is(f, "nine_months")}
        units = [f.unit for f in every if len(f.unit) == 3 and f.unit.isupper()]
        self.currency = max(set(units), key=units.count)  # a ratio is taken in the currency most values are in

    def of(self, concepts: list[str]) -> list[RawFact]:
        return [f for c in concepts for f in self.by_concept.get(c, [])]

    def fiscal_year(self, year: int) -> tuple[date, date]:
        """Fiscal year `year`: the annual period of its 10-K/20-F ending in that year (or in the first week of
        January after it), the most reported one."""
        found = [(s, e) for s, e in self.years
                 if e.year == year or (e.year == year + 1 and e.month == 1 and e.day <= 7)]
        if not found:
            raise ValueError(f"no fiscal year {year} in the filings")
        return max(set(found), key=found.count)

    def fiscal_quarters(self, year: int) -> list[tuple[date, date]]:
        """The fiscal year's quarters: the three 3-month periods of its 10-Qs in order, then Q4 from the end of
        its nine months to the year's end."""
        start, end = self.fiscal_year(year)
        three = sorted(((s, e) for s, e in self.quarters if start <= s and e < end - timedelta(days=30)),
                       key=lambda p: p[1])
        return [*three[:3], (self.nine_months(start)[1] + timedelta(days=1), end)]

    def nine_months(self, start: date) -> tuple[date, date]:
        return min((s, e) for s, e in self.nine if abs((s - start).days) <= 7)


def _is(f: RawFact, kind: str) -> bool:
    return f.start is not None and _DAYS[kind][0] <= f.days() <= _DAYS[kind][1]


def _moment(f: RawFact) -> datetime:
    return f.accepted or datetime.combine(f.filed, datetime.min.time())


def _material(old: float, new: float) -> bool:
    return new != old and abs(new - old) >= 0.005 * abs(old)


def _known(facts: list[RawFact], unit: str, start: date | None, end: date,
           moment: datetime | None) -> tuple[float, RawFact] | None:
    """The value of a fact known at the moment (the newest filing's version under any of the concepts, within one
    filing the first concept's: facts come in the metric's concept order), and the version that first reported it,
    under any of the concepts: the earliest one equal up to rounding after the last restatement under the value's
    own concept."""
    versions = sorted((f for f in facts if f.unit == unit and f.start == start and f.end == end
                       and f.visible(moment)), key=lambda f: (_moment(f), f.accn))
    if not versions:
        return None
    rank = {f.concept: -i for i, f in reversed(list(enumerate(facts)))}
    current = max(versions, key=lambda f: (_moment(f), f.accn, rank[f.concept]))
    cut = max((i for i, f in enumerate(versions) if f.concept == current.concept
               and _material(f.value, current.value)), default=-1)
    first = next(f for f in versions[cut + 1:] if not _material(f.value, current.value))
    return current.value, first


def _value(co: RawCompany, concepts: list[str], unit: str, period: str, moment: datetime | None) -> Gold | None:
    """A reported metric for a fiscal label (FY2024, 2024Q1..2024Q4: Q4 = FY - 9M), a calendar year (CY2024:
    the fiscal quarters whose middle falls in it, summed) or 'latest' (the newest year or quarter known)."""
    facts = co.of(concepts)
    instant = all(f.start is None for f in facts)
    if period == "latest":
        newest = max((f for f in facts if f.unit == unit and f.visible(moment)
                      and (instant or _is(f, "year") or _is(f, "quarter"))), key=lambda f: (f.end, f.days() or 0))
        return _fact_gold(facts, unit, newest.start, newest.end, moment)
    if period.startswith("CY"):
        year = int(period[2:])
        same = [y for y in (year, year + 1) if abs((co.fiscal_year(y)[1] - date(year, 12, 31)).days) <= 7]
        if same:
            return _value(co, concepts, unit, f"FY{same[0]}", moment)
        labels = [f"{y}Q{i + 1}" for y in (year, year + 1) for i, (s, e) in enumerate(co.fiscal_quarters(y))
                  if (s + (e - s) / 2).year == year]
        golds = [_value(co, concepts, unit, label, moment) for label in labels]
        if len(golds) != 4 or any(g is None for g in golds):
            return None
        return Gold(sum(g.value for g in golds), unit, golds[0].start, golds[-1].end,
                    tuple(f for g in golds for f in g.firsts))
    if period.startswith("FY"):
        start, end = co.fiscal_year(int(period[2:]))
        return _fact_gold(facts, unit, None if instant else start, end, moment)
    year, quarter = int(period[:4]), int(period[-1])
    s, e = co.fiscal_quarters(year)[quarter - 1]
    if quarter < 4 or instant:
        return _fact_gold(facts, unit, None if instant else s, e, moment)
    start, end = co.fiscal_year(year)
    total = _fact_gold(facts, unit, start, end, moment)
    nine = _fact_gold(facts, unit, *co.nine_months(start), moment)
    if total is None or nine is None:
        return None
    return Gold(total.value - nine.value, unit, s, e, total.firsts + nine.firsts)


def _fact_gold(facts: list[RawFact], unit: str, start: date | None, end: date,
               moment: datetime | None) -> Gold | None:
    known = _known(facts, unit, start, end, moment)
    if known is None:
        return None
    value, first = known
    return Gold(value, unit, start, end, ((first.accn, first.form, _moment(first), first.value),))


def gold_answer(co: RawCompany, q: Any) -> Gold | None:
    """The gold answer of a question of the real set (ops: value, div, margin, sub, growth)."""
    moment = datetime.fromisoformat(q.as_of) if isinstance(q.as_of, str) and q.as_of else None
    a_concepts = str(q.concepts).split(";")
    b_concepts = str(q.concepts2).split(";") if isinstance(q.concepts2, str) else []
    unit = co.currency if q.unit == "%" else q.unit
    if q.op == "value":
        return _value(co, a_concepts, unit, q.period, moment)
    if q.op == "growth":
        old, new = (_value(co, a_concepts, unit, p, moment) for p in (q.period, q.period2))
        return Gold((new.value - old.value) / abs(old.value) * 100, "%", new.start, new.end,
                    old.firsts + new.firsts)
    a, b = _value(co, a_concepts, unit, q.period, moment), _value(co, b_concepts, unit, q.period, moment)
    value = {"div": lambda: a.value / b.value * 100, "margin": lambda: (a.value - b.value) / a.value * 100,
             "sub": lambda: a.value - b.value}[q.op]()
    return Gold(value, q.unit, a.start, a.end, a.firsts + b.firsts)


def real_questions(real: str | Path, path: str | Path = REAL_QUESTIONS) -> pd.DataFrame:
    """The real question set with each question's gold answer (value, unit, period, first filings)."""
    q = pd.read_csv(path, dtype=str, keep_default_na=False)
    companies: dict[int, RawCompany] = {}
    golds = []
    for row in q.itertuples():
        if row.expect != "fact":
            golds.append(None)
            continue
        cik = int(row.cik)
        if cik not in companies:
            companies[cik] = RawCompany(real, cik)
        golds.append(gold_answer(companies[cik], row))
    return q.assign(gold=golds)


def _printed(text: str, unit: str) -> list[float]:
    """The values a figure printed in a filing may stand for: in millions, thousands or units ('(885)' is
    negative); per-share figures as printed; none for a text that is no number (a tag may print a zero as a dash)."""
    try:
        number = float(text.strip("()$").replace(",", "")) * (-1 if text.startswith("(") else 1)
    except ValueError:
        return []
    return [number] if "/" in unit else [number * s for s in _SCALES]


def judge(q: Any, answer: Answer, docs: pd.Series, texts: dict[str, str]) -> tuple[bool, str]:
    """Whether an answer is right, and why not: the gold value and unit, every part cited to the filing that
    first reported it (its form; the figure's span in its text where the store keeps it) and the period's
    dates named; for a part of the company, no value but one of the part (a dimension's member); passages
    from the company's own documents. `docs`: the
    stored documents' entity_id by doc_id; `texts`: the filings' texts by doc_id."""
    cik = sec_entity_id(int(q.cik)) if q.cik else None
    if q.expect == "unanswerable":
        return answer.kind == "unanswerable", f"expected unanswerable, got {answer.kind}"
    if q.expect == "no_total" and answer.kind == "fact":  # a figure of the part (FSDS segments), never the total
        parts = [pt["concept"] for pt in answer.parts]
        return bool(parts) and all("|" in c for c in parts), f"a fact not of the part: {parts}"
    if q.expect in ("passages", "no_total"):
        allowed = ("passages", "table") if q.expect == "passages" else ("passages", "unanswerable")
        if answer.kind not in allowed or answer.value is not None:
            return False, f"expected {' or '.join(allowed)} without a value, got {answer.kind} {answer.value}"
        if answer.kind == "passages" or q.expect == "passages":
            others = {c.doc for c in answer.citations if docs.get(c.doc) != cik}
            if others or not answer.citations:
                return False, f"passages from other companies' documents: {sorted(others)}"
        return True, ""
    g: Gold = q.gold
    if g is None:
        return False, "no gold answer in the raw data"
    if answer.kind != "fact" or answer.value is None:
        return False, f"expected a fact, got {answer.kind}: {answer.explanation[:200]}"
    if answer.unit != g.unit or not math.isclose(answer.value, g.value, rel_tol=1e-9, abs_tol=1e-9):
        return False, f"value {answer.value} {answer.unit}, gold {g.value} {g.unit}"
    for day in (g.start, g.end):
        if day is not None and day.isoformat() not in answer.explanation:
            return False, f"the explanation does not name the period day {day}"
    for accn, form, _, printed in g.firsts:
        cites = [c for c in answer.citations if c.doc == accn and c.form == form]
        if not cites:
            return False, f"not cited to the first filing {form} {accn}: {sorted({c.doc for c in answer.citations})}"
        if accn in texts and not any(
                c.start is not None and texts[accn][c.start:c.end] == c.text
                and any(math.isclose(v, printed, rel_tol=1e-9) for v in _printed(c.text, g.unit)) for c in cites):
            return False, f"no span of {printed} in {accn}: {cites}"
    return True, ""


def evaluate_real(store: FactStore, questions: pd.DataFrame, progress: bool | None = None) -> pd.DataFrame:
    """Ask each real question; per question: its type, the kind of answer, whether it is right and why not,
    and the answer."""
    stored = store.sql("SELECT doc_id, entity_id, kind, text FROM documents")
    docs = stored.set_index("doc_id")["entity_id"]
    texts = dict(stored.loc[stored["kind"] == "filing", ["doc_id", "text"]].itertuples(index=False))
    rows = []
    for q in progress_bar(questions.itertuples(), total=len(questions), desc="eval ask --real", leave=False,
                          progress=progress):
        answer = store.ask(q.question)
        right, why = judge(q, answer, docs, texts)
        rows.append({"id": q.id, "type": q.type, "lang": q.lang, "expected": q.expect, "kind": answer.kind,
                     "right": right, "why": why, "answer": answer})
    return pd.DataFrame(rows)


def summarize_real(results: pd.DataFrame) -> pd.DataFrame:
    """Accuracy by question type and language, and overall."""
    by = results.groupby("type").agg(questions=("right", "size"), accuracy=("right", "mean"))
    langs = results.groupby("lang").agg(questions=("right", "size"), accuracy=("right", "mean"))
    total = pd.DataFrame({"questions": [len(results)], "accuracy": [results["right"].mean()]}, index=["all"])
    return pd.concat([by, langs.rename(index=lambda x: f"lang {x}"), total])


# ------------------------------------------------------------------------------- the generated question bank
# factstore/evaluate/bank.py writes ~1,100 questions from the raw companyfacts JSON with its own oracle (it imports
# nothing of ours: tests/test_imports.py holds it to that). Each answer is judged as one of: right, refused (an
# answerable question refused), not answered (passages where a figure or a refusal was due) or wrong: a number
# stated as fact that is not the oracle's, or stated where the question must be refused. Wrong must be 0.

def bank_questions(real: str | Path, seed: int = 0) -> pd.DataFrame:
    """The generated bank (factstore.evaluate.bank.generate) over the real data, one row per question."""
    from factstore.evaluate.bank import generate

    return pd.DataFrame(generate(Path(real), data_file("metrics.csv"), seed=seed))


def _close(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6)


def judge_bank(q: Any, answer: Answer) -> tuple[str, str]:
    """The verdict on one bank answer ('right', 'refused', 'not answered' or 'wrong') and why."""
    stated = [r["value"] for r in answer.table if r.get("value") is not None] if answer.kind == "table" else (
        [answer.value] if answer.kind == "fact" and answer.value is not None else [])
    if q.expect == "refuse":
        if answer.kind == "unanswerable":
            words = [w for w in normalize_words(q.inserted) if len(w) >= 4] if isinstance(q.inserted, str) else []
            if words and not set(words) & set(normalize_words(answer.explanation)):
                return "refused", f"refused without naming {q.inserted!r}: {answer.explanation[:160]}"
            return "right", ""
        return ("wrong" if stated else "not answered"), f"expected a refusal, got {answer.kind} {stated[:3]}"
    if q.expect == "table":
        want = [r["value"] for r in q.rows]
        if answer.kind != "table":
            return ("wrong" if stated else "refused" if answer.kind == "unanswerable" else "not answered"), (
                f"expected a table, got {answer.kind}: {answer.explanation[:160]}")
        if any(not any(_close(v, w) for w in want) for v in stated):
            return "wrong", f"table values {stated}, oracle {want}"
        if not all(any(_close(v, w) for v in stated) for w in want):
            return "refused", f"table lacks some companies: {stated}, oracle {want}"
        return "right", ""
    if answer.kind == "fact" and _close(answer.value, q.value) and answer.unit == q.unit:
        return "right", ""
    if stated:
        return "wrong", f"stated {stated[:3]} {answer.unit}, oracle {q.value} {q.unit}"
    return ("refused" if answer.kind == "unanswerable" else "not answered"), (
        f"{answer.kind}: {answer.explanation[:200]}")


def normalize_words(text: str) -> list[str]:
    """A text's words, lower case and accents stripped."""
    return [w for w in re.findall(r"\w+", normalize(text)) if w]


def evaluate_bank(store: FactStore, questions: pd.DataFrame, progress: bool | None = None) -> pd.DataFrame:
    """Ask every bank question; per question: class, language, the verdict and why, and the answer."""
    rows = []
    for q in progress_bar(questions.itertuples(), total=len(questions), desc="eval ask bank", leave=False,
                          progress=progress):
        answer = store.ask(q.question)
        verdict, why = judge_bank(q, answer)
        rows.append({"id": q.id, "klass": q.klass, "lang": q.lang, "expected": q.expect, "kind": answer.kind,
                     "verdict": verdict, "why": why, "question": q.question, "answer": answer})
    return pd.DataFrame(rows)


def summarize_bank(results: pd.DataFrame) -> pd.DataFrame:
    """Per class and language, and overall: questions, right (answered or rightly refused), refused although
    answerable, not answered and wrong (a number stated as fact that is not the oracle's)."""
    def table(groups: Any) -> pd.DataFrame:
        return groups["verdict"].value_counts().unstack(fill_value=0).reindex(
            columns=["right", "refused", "not answered", "wrong"], fill_value=0).assign(
            questions=groups.size(), accuracy=lambda t: t["right"] / t["questions"])

    every = results.assign(all="all")
    langs = table(results.groupby("lang")).rename(index=lambda x: f"lang {x}")
    return pd.concat([table(results.groupby("klass")), langs, table(every.groupby("all"))])
