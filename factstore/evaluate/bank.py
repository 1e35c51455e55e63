"""Independent evaluation bank for the financial question-answering tool.

Built blind: every expected value is recomputed here from the raw SEC companyfacts JSON
(``<real>/companyfacts/CIK##########.json``) and ``metrics.csv``, standard library only.

Rules implemented (the tool's promise):

1. A filing's moment is its ``filed`` date. No as-of moment is put within 2 days of the filed
   date of any filing that reports the asked metric's concepts for that company.
2. Visible at moment T: entries of filings filed before T; T = None sees everything.
3. Value of a metric for (start, end, unit) at T: among visible entries of the metric's concepts
   with exactly that start/end/unit, the newest filing (latest filed, ties: greatest accession);
   within it the concept listed first. Ambiguous data (two values, one concept, one filing) is skipped.
4. Unit: the company's reporting currency (3-letter ISO unit with most entries; TWD for TSMC),
   ``<cur>/shares`` for per-share metrics.
5. FY N: 350-380-day duration ending in calendar year N (an end in Jan 1-7 counts for N-1).
   Quarter k (1-3): 80-105-day duration ending within 10 days of fy_start + k*91.31 - 1.
   Q4: 3-month duration ending at FY end if reported, else FY - 9M (visible once both are).
   H1: 170-195 days, 9M: 260-290 days, both starting within 7 days of fy_start.
   Balance-sheet metrics: the instant at the period's end.
6. TTM through quarter Q: sum of the four fiscal quarters ending with Q (Q4 derived as needed),
   money duration metrics only, all four quarters present.
7. As-of: a date means 00:00 UTC of that date, a month its first instant, "end of 2023"
   2023-12-31 00:00 UTC. No visible value at T -> refuse ('before_filing'); month look-ahead
   traps are included (a filing later in the same month must not be seen).
8. "as originally reported": rule 3 at the first moment any concept had a value for the period;
   "latest"/"as restated": T = None.
9. Period by its end ("quarter ended June 29, 2024"): the duration of that length ending that day.
10. Comparisons: one row per company, each by its own fiscal year.
11. Refusals: before_filing, unknown_qualifier (recorded in ``inserted``), absent_company,
    no_such_period.

Each question is a dict: id, question, lang (en/es), klass, expect (fact/table/refuse), cik, metric, value,
unit, period_start/period_end (period_start None for balance-sheet instants), as_of (ISO UTC or None), rows
(tables: cik, value, unit, period_end), inserted (unknown_qualifier), mode ('first'/'latest' for the two mode
classes, whose as_of stays None) and why (the accession(s) behind the value). TSMC and LPA file annually and
are asked about fiscal years only.

Only periods that map unambiguously are asked: the company-wide set of durations must give
exactly one candidate per fiscal slot, fiscal years must be contiguous, and a question is
dropped whenever a filing holds two different values for the chosen concept and period.

Usage: ``python -m factstore.evaluate.bank REAL METRICS_CSV [--seed N] [--jsonl PATH]``
prints counts by class and language (and writes the questions only when --jsonl is given).
"""

from __future__ import annotations

import argparse
import bisect
import csv
import json
import random
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

# --------------------------------------------------------------------------------------------
# companies and vocabulary
# --------------------------------------------------------------------------------------------

COMPANIES: dict[int, dict] = {
    320193: {"names": ["Apple", "Apple", "AAPL", "aapl", "Apple Inc."], "annual": False},
    1045810: {"names": ["NVIDIA", "Nvidia", "NVDA", "nvda", "NVIDIA Corp."], "annual": False},
    1652044: {"names": ["Alphabet", "Google", "GOOGL", "googl", "Alphabet Inc."], "annual": False},
    1835632: {"names": ["Marvell", "Marvell Technology", "MRVL", "mrvl", "Marvell"], "annual": False},
    1046179: {"names": ["TSMC", "TSMC", "Taiwan Semiconductor", "TSM", "Taiwan Semiconductor Manufacturing"],
              "annual": True},
    1318605: {"names": ["Tesla", "Tesla", "TSLA", "tsla", "Tesla Inc."], "annual": False},
    1640147: {"names": ["Snowflake", "Snowflake", "Snowflake Inc."], "annual": False},
    1997711: {"names": ["Logistic Properties of the Americas"], "annual": True},
}
EARLIEST_ASKABLE_YEAR = {320193: 1995, 1045810: 1998, 1652044: 2005, 1835632: 2005, 1046179: 2000,
                         1318605: 2005, 1640147: 2014, 1997711: 2013}
ABSENT = ["Costco", "Walmart", "Wells Fargo", "Banco Santander", "Costco Wholesale", "WMT"]

INSTANT = {"total_assets", "equity", "cash", "total_liabilities"}
PER_SHARE = {"eps_diluted", "eps"}
MONEY_FLOW = {"revenue", "net_income", "operating_income", "research_development", "operating_cash_flow",
              "gross_profit", "capex"}
USED = sorted(INSTANT | PER_SHARE | MONEY_FLOW)

# English phrases: (text, plural)
M_EN: dict[str, list[tuple[str, bool]]] = {
    "revenue": [("revenue", False), ("revenue", False), ("revenues", True), ("sales", True), ("net sales", True),
                ("total revenue", False), ("rev", False), ("top line", False), ("turnover", False)],
    "net_income": [("net income", False), ("net income", False), ("net profit", False), ("net earnings", True),
                   ("profit", False), ("bottom line", False)],
    "operating_income": [("operating income", False), ("operating income", False), ("operating profit", False),
                         ("op income", False), ("income from operations", False)],
    "total_assets": [("total assets", True), ("total assets", True), ("assets", True)],
    "total_liabilities": [("total liabilities", True), ("liabilities", True)],
    "equity": [("shareholders' equity", False), ("stockholders' equity", False), ("total stockholders' equity", False),
               ("shareholders equity", False)],
    "cash": [("cash and cash equivalents", True), ("cash and equivalents", True), ("cash position", False)],
    "operating_cash_flow": [("operating cash flow", False), ("cash from operations", False), ("OCF", False),
                            ("cash flow from operating activities", False),
                            ("net cash provided by operating activities", False), ("cash flow from operations", False)],
    "research_development": [("R&D", False), ("R&D expense", False), ("research and development", False),
                             ("R&D spending", False), ("research and development expenses", True)],
    "eps_diluted": [("diluted EPS", False), ("diluted earnings per share", False), ("EPS diluted", False),
                    ("diluted net income per share", False)],
    "eps": [("EPS", False), ("earnings per share", False)],
    "gross_profit": [("gross profit", False)],
    "capex": [("capex", False), ("capital expenditures", True), ("capital spending", False)],
    "free_cash_flow": [("free cash flow", False), ("FCF", False), ("free cash flow", False)],
}
# Spanish phrases: (text with article, gender+number)
M_ES: dict[str, list[tuple[str, str]]] = {
    "revenue": [("los ingresos", "mp"), ("los ingresos", "mp"), ("las ventas", "fp"), ("la facturación", "fs"),
                ("las ventas netas", "fp"), ("los ingresos totales", "mp"), ("la cifra de negocios", "fs")],
    "net_income": [("el beneficio neto", "ms"), ("el beneficio neto", "ms"), ("el resultado neto", "ms"),
                   ("la utilidad neta", "fs"), ("la ganancia neta", "fs")],
    "operating_income": [("el resultado operativo", "ms"), ("el beneficio operativo", "ms"),
                         ("la utilidad operativa", "fs"), ("el resultado de explotación", "ms"),
                         ("el beneficio de explotación", "ms")],
    "total_assets": [("el activo total", "ms"), ("los activos totales", "mp"), ("el total de activos", "ms")],
    "total_liabilities": [("el pasivo total", "ms"), ("los pasivos totales", "mp")],
    "equity": [("el patrimonio neto", "ms"), ("el patrimonio neto", "ms"), ("los fondos propios", "mp")],
    "cash": [("el efectivo y equivalentes", "ms"), ("la caja", "fs"), ("el efectivo y equivalentes de efectivo", "ms"),
             ("la tesorería", "fs")],
    "operating_cash_flow": [("el flujo de caja operativo", "ms"), ("el flujo de caja operativo", "ms"),
                            ("el flujo de efectivo de las operaciones", "ms"),
                            ("el flujo de caja de explotación", "ms"),
                            ("el flujo de efectivo de actividades de operación", "ms")],
    "research_development": [("el gasto en I+D", "ms"), ("los gastos de investigación y desarrollo", "mp"),
                             ("los gastos de I+D", "mp"), ("el gasto en investigación y desarrollo", "ms")],
    "eps_diluted": [("el BPA diluido", "ms"), ("el beneficio por acción diluido", "ms"),
                    ("la ganancia por acción diluida", "fs"), ("la utilidad diluida por acción", "fs")],
    "eps": [("el BPA", "ms"), ("el beneficio por acción", "ms"), ("la ganancia por acción", "fs")],
    "gross_profit": [("el beneficio bruto", "ms"), ("la utilidad bruta", "fs"), ("el resultado bruto", "ms")],
    "capex": [("las inversiones en capital", "fp"), ("los gastos de capital", "mp"), ("el capex", "ms")],
    "free_cash_flow": [("el flujo de caja libre", "ms"), ("el flujo de caja libre", "ms"),
                       ("el flujo de efectivo libre", "ms"), ("el FCF", "ms")],
}
MONTHS_EN = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
             "November", "December"]
MONTHS_ES = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
             "noviembre", "diciembre"]
ORD_EN = ["first", "second", "third", "fourth"]
ORD_ES = ["primer", "segundo", "tercer", "cuarto"]

QUALIFIERS_EN = [  # (words, where, metrics it fits)
    ("excluding Greater China", "post", {"revenue", "operating_income", "net_income"}),
    ("on a constant-currency basis", "post", {"revenue", "operating_income"}),
    ("per employee", "post", {"revenue", "net_income"}),
    ("adjusted", "pre", {"net_income", "operating_income", "eps_diluted", "revenue"}),
    ("pro forma", "pre", {"net_income", "revenue", "eps_diluted"}),
    ("non-GAAP", "pre", {"net_income", "operating_income", "eps_diluted", "research_development"}),
    ("in the third week of", "period", {"revenue", "net_income"}),
    ("excluding stock-based compensation", "post", {"operating_income", "net_income", "research_development"}),
    ("in Europe", "post", {"revenue"}),
    ("excluding one-time items", "post", {"net_income", "operating_income"}),
]
QUALIFIERS_ES = [  # (words or {gender: words}, where, metrics)
    ("sin contar China", "post", {"revenue", "operating_income", "net_income"}),
    ({"ms": "ajustado", "mp": "ajustados", "fs": "ajustada", "fp": "ajustadas"}, "post",
     {"net_income", "operating_income", "eps_diluted", "revenue", "research_development"}),
    ("a tipo de cambio constante", "post", {"revenue", "operating_income"}),
    ("por empleado", "post", {"revenue", "net_income"}),
    ("proforma", "post", {"net_income", "revenue"}),
    ("no GAAP", "post", {"net_income", "operating_income", "eps_diluted", "research_development"}),
    ("sin contar la compensación en acciones", "post", {"operating_income", "net_income", "research_development"}),
    ("en la tercera semana de", "period", {"revenue", "net_income"}),
    ("en Europa", "post", {"revenue"}),
    ("excluyendo partidas extraordinarias", "post", {"net_income", "operating_income"}),
]

CLASS_TARGETS = {
    "year": 120, "quarter": 100, "q4_derived": 45, "half": 50, "nine_months": 50, "ttm": 50, "end_date": 60,
    "as_of_month": 80, "as_of_date": 60, "end_of_year": 50, "first_reported": 55, "latest": 55,
    "comparison": 60, "derived": 45, "before_filing": 75, "unknown_qualifier": 70, "absent_company": 45,
    "no_such_period": 50,
}
ES_SHARE = 0.35
LAST_MOMENT = date(2026, 6, 1)


# --------------------------------------------------------------------------------------------
# data model
# --------------------------------------------------------------------------------------------

class Ambiguous(Exception):
    """Two different values for one concept and period in one filing."""


@dataclass(frozen=True)
class Fact:
    rank: int
    concept: str
    val: Decimal
    accn: str
    filed: date
    form: str


@dataclass(frozen=True)
class Res:
    val: Decimal
    why: str
    filed: date  # newest filing date involved


@dataclass(frozen=True)
class Period:
    kind: str  # FY, Q, Q4D, H1, 9M, TTM, I (instant), END (duration given by end)
    n: int
    k: int
    start: date | None
    end: date
    parts: tuple = ()  # Q4D: (fy Period, 9M Period); TTM: four quarter Periods


@dataclass
class Company:
    cik: int
    currency: str
    facts: dict[str, dict[tuple, list[Fact]]]
    filed: dict[str, list[date]]
    durations: list  # sorted distinct (start, end) pairs, company-wide
    fy: dict[int, tuple[date, date]]
    min_year: int
    names: list[str] = field(default_factory=list)
    annual: bool = False


def _d(s: str) -> date:
    return date.fromisoformat(s)


def fiscal_year_of(end: date) -> int:
    return end.year - 1 if (end.month == 1 and end.day <= 7) else end.year


def load_metrics(path: Path) -> dict[str, list[tuple[str, str]]]:
    out = {}
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            cs = [c.strip() for c in (row.get("concepts") or "").split(";") if c.strip()]
            out[row["metric"]] = [tuple(c.split(":", 1)) for c in cs]
    return out


def load_company(path: Path, cik: int, metrics: dict[str, list[tuple[str, str]]]) -> Company:
    raw = json.loads(path.read_text(encoding="utf-8"))["facts"]
    durations: set = set()
    cur_count: Counter = Counter()
    min_year = 9999
    for tax, concepts in raw.items():
        if tax == "dei":
            continue
        for body in concepts.values():
            for unit, entries in body["units"].items():
                if len(unit) == 3 and unit.isalpha() and unit.isupper():
                    cur_count[unit] += len(entries)
                for e in entries:
                    min_year = min(min_year, int(e["end"][:4]))
                    if e.get("start"):
                        durations.add((_d(e["start"]), _d(e["end"])))
    currency = cur_count.most_common(1)[0][0]
    facts: dict[str, dict[tuple, list[Fact]]] = {}
    filed: dict[str, list[date]] = {}
    for m in USED:
        by_key: dict[tuple, list[Fact]] = defaultdict(list)
        fdates = set()
        for rank, (tax, name) in enumerate(metrics[m]):
            body = raw.get(tax, {}).get(name)
            if not body:
                continue
            for unit, entries in body["units"].items():
                for e in entries:
                    key = (unit, _d(e["start"]) if e.get("start") else None, _d(e["end"]))
                    f = Fact(rank, f"{tax}:{name}", Decimal(str(e["val"])), e["accn"], _d(e["filed"]), e["form"])
                    by_key[key].append(f)
                    fdates.add(f.filed)
        facts[m] = dict(by_key)
        filed[m] = sorted(fdates)
    annual: dict[int, set] = defaultdict(set)
    for s, e in durations:
        if 350 <= (e - s).days + 1 <= 380:
            annual[fiscal_year_of(e)].add((s, e))
    fy = {n: next(iter(v)) for n, v in annual.items() if len(v) == 1}
    info = COMPANIES[cik]
    return Company(cik, currency, facts, filed, sorted(durations), fy, min_year, info["names"], info["annual"])


# --------------------------------------------------------------------------------------------
# oracle (rules 3-6)
# --------------------------------------------------------------------------------------------

def unit_for(co: Company, metric: str) -> str:
    return f"{co.currency}/shares" if metric in PER_SHARE else co.currency


def resolve(co: Company, metric: str, start: date | None, end: date, t: date | None) -> Res | None:
    """Rule 3: newest visible filing, first-listed concept within it."""
    facts = co.facts.get(metric, {}).get((unit_for(co, metric), start, end), [])
    vis = [f for f in facts if t is None or f.filed < t]
    if not vis:
        return None
    top = max((f.filed, f.accn) for f in vis)
    same = [f for f in vis if (f.filed, f.accn) == top]
    rank = min(f.rank for f in same)
    vals = {f.val for f in same if f.rank == rank}
    if len(vals) != 1:
        raise Ambiguous(f"{metric} {start}..{end} {top}")
    f = next(f for f in same if f.rank == rank)
    span = f"{start}..{end}" if start else f"@{end}"
    return Res(f.val, f"{f.concept} {span} = {f.val} ({f.form} {f.accn} filed {f.filed})", f.filed)


def first_filed(co: Company, metric: str, per: Period) -> date | None:
    if per.kind in ("Q4D", "TTM"):
        return None
    start = None if metric in INSTANT else per.start
    facts = co.facts.get(metric, {}).get((unit_for(co, metric), start, per.end), [])
    return min((f.filed for f in facts), default=None)


def filing_dates(co: Company, metric: str, per: Period) -> list[date]:
    start = None if metric in INSTANT else per.start
    facts = co.facts.get(metric, {}).get((unit_for(co, metric), start, per.end), [])
    return sorted({f.filed for f in facts})


def value(co: Company, metric: str, per: Period, t: date | None = None) -> Res | None:
    if metric == "free_cash_flow":
        a = value(co, "operating_cash_flow", per, t)
        b = value(co, "capex", per, t)
        if a is None or b is None:
            return None
        return Res(a.val - b.val, f"OCF {a.why} minus capex {b.why}", max(a.filed, b.filed))
    if metric in INSTANT:
        return resolve(co, metric, None, per.end, t)
    if per.kind == "Q4D":
        fy_r = value(co, metric, per.parts[0], t)
        m9_r = value(co, metric, per.parts[1], t)
        if fy_r is None or m9_r is None:
            return None
        return Res(fy_r.val - m9_r.val, f"FY {fy_r.why} minus 9M {m9_r.why}", max(fy_r.filed, m9_r.filed))
    if per.kind == "TTM":
        rs = [value(co, metric, q, t) for q in per.parts]
        if any(r is None for r in rs):
            return None
        return Res(sum((r.val for r in rs), Decimal(0)), " + ".join(r.why for r in rs), max(r.filed for r in rs))
    return resolve(co, metric, per.start, per.end, t)


def safe_value(co: Company, metric: str, per: Period, t: date | None = None) -> Res | None:
    try:
        return value(co, metric, per, t)
    except Ambiguous:
        return None


def moment_ok(co: Company, metrics: list[str], t: date) -> bool:
    """Rule 1: t (00:00 UTC) is more than 2 days away from every filing of the metrics' concepts."""
    if t > LAST_MOMENT:
        return False
    for m in metrics:
        m = "operating_cash_flow" if m == "free_cash_flow" else m
        ds = co.filed.get(m, [])
        i = bisect.bisect_left(ds, t - timedelta(days=2))
        if i < len(ds) and ds[i] <= t + timedelta(days=2):
            return False
    return True


# --------------------------------------------------------------------------------------------
# fiscal periods (rule 5)
# --------------------------------------------------------------------------------------------

def fy_period(co: Company, n: int) -> Period | None:
    if n not in co.fy:
        return None
    s, e = co.fy[n]
    return Period("FY", n, 0, s, e)


def _contiguous(co: Company, n: int) -> bool:
    return n in co.fy and (n - 1) in co.fy and co.fy[n - 1][1] + timedelta(days=1) == co.fy[n][0]


def _unique(cands: list[tuple[date, date]]) -> tuple[date, date] | None:
    return cands[0] if len(cands) == 1 else None


def quarter_period(co: Company, n: int, k: int) -> Period | None:
    """Quarter k (1-3) of FY n, or the reported 3-month Q4 (k=4) ending at the FY end."""
    if not _contiguous(co, n):
        return None
    s0, e0 = co.fy[n]
    q = [(s, e) for s, e in co.durations if 80 <= (e - s).days + 1 <= 105]
    if k == 4:
        hit = _unique([(s, e) for s, e in q if e == e0])
        return Period("Q", n, 4, hit[0], hit[1]) if hit else None
    target = k * 91.31 - 1
    near = [(s, e) for s, e in q if abs((e - s0).days - target) <= 10.5]
    hit = _unique(near)
    if not hit or abs((hit[1] - s0).days - target) > 9.5:
        return None
    return Period("Q", n, k, hit[0], hit[1])


def ytd_period(co: Company, n: int, kind: str) -> Period | None:
    if not _contiguous(co, n):
        return None
    s0, _ = co.fy[n]
    lo, hi = (170, 195) if kind == "H1" else (260, 290)
    near = [(s, e) for s, e in co.durations if lo <= (e - s).days + 1 <= hi and abs((s - s0).days) <= 8]
    hit = _unique(near)
    if not hit or abs((hit[0] - s0).days) > 6:
        return None
    return Period(kind, n, 0, hit[0], hit[1])


def has_direct_q4(co: Company, metric: str, n: int) -> bool:
    """Any 80-105-day entry of the metric's concepts (any unit, any time) ending at the FY end."""
    e0 = co.fy[n][1]
    return any(s is not None and e == e0 and 80 <= (e - s).days + 1 <= 105 for (_, s, e) in co.facts[metric])


def q4_period(co: Company, metric: str, n: int) -> Period | None:
    """Rule 5 Q4 for one metric: the reported 3-month Q4, else FY - 9M."""
    if not _contiguous(co, n):
        return None
    if has_direct_q4(co, metric, n):
        return quarter_period(co, n, 4)
    fy, m9 = fy_period(co, n), ytd_period(co, n, "9M")
    if fy is None or m9 is None:
        return None
    return Period("Q4D", n, 4, m9.end + timedelta(days=1), fy.end, (fy, m9))


def any_quarter(co: Company, metric: str, n: int, k: int) -> Period | None:
    return q4_period(co, metric, n) if k == 4 else quarter_period(co, n, k)


def ttm_period(co: Company, metric: str, n: int, k: int) -> Period | None:
    parts = []
    for i in range(4):
        kk, nn = k - i, n
        if kk <= 0:
            kk, nn = kk + 4, n - 1
        p = any_quarter(co, metric, nn, kk)
        if p is None:
            return None
        parts.append(p)
    parts.reverse()
    if any(parts[i].end + timedelta(days=1) != parts[i + 1].start for i in range(3)):
        return None
    return Period("TTM", n, k, parts[0].start, parts[-1].end, tuple(parts))


# --------------------------------------------------------------------------------------------
# phrasing
# --------------------------------------------------------------------------------------------

def yy(n: int) -> str:
    return f"{n % 100:02d}"


def date_en(rng: random.Random, d: date) -> str:
    return rng.choice([f"{MONTHS_EN[d.month - 1]} {d.day}, {d.year}", f"{d.day} {MONTHS_EN[d.month - 1]} {d.year}",
                       d.isoformat(), f"{MONTHS_EN[d.month - 1]} {d.day}, {d.year}"])


def date_es(rng: random.Random, d: date) -> str:
    return rng.choice([f"{d.day} de {MONTHS_ES[d.month - 1]} de {d.year}", d.isoformat(),
                       f"{d.day} de {MONTHS_ES[d.month - 1]} de {d.year}"])


def fy_phrase(rng: random.Random, lang: str, n: int) -> str:
    if lang == "en":
        return rng.choice([f"FY{n}", f"FY{yy(n)}", f"fiscal {n}", f"fiscal year {n}", f"FY {n}", f"the {n} fiscal year",
                           f"fiscal {n}", f"FY{n}", f"fy{yy(n)}"])
    return rng.choice([f"el ejercicio {n}", f"el ejercicio {n}", f"el año fiscal {n}", f"el ejercicio fiscal {n}",
                       f"el FY{n}", f"el año fiscal {n}"])


def quarter_phrase(rng: random.Random, lang: str, n: int, k: int) -> str:
    if lang == "en":
        return rng.choice([f"Q{k} FY{n}", f"Q{k} FY{yy(n)}", f"q{k} fy{yy(n)}", f"{k}Q{yy(n)}", f"Q{k} {n}",
                           f"the {ORD_EN[k - 1]} quarter of fiscal {n}", f"fiscal Q{k} {n}",
                           f"the {ORD_EN[k - 1]} fiscal quarter of {n}", f"Q{k} of fiscal year {n}"])
    return rng.choice([f"el {ORD_ES[k - 1]} trimestre del ejercicio {n}", f"T{k} {n}",
                       f"el {ORD_ES[k - 1]} trimestre fiscal de {n}",
                       f"el {ORD_ES[k - 1]} trimestre del año fiscal {n}",
                       f"el T{k} del ejercicio {n}", f"{k}T{yy(n)}", f"T{k} {n}"])


def half_phrase(rng: random.Random, lang: str, n: int) -> str:
    if lang == "en":
        return rng.choice([f"1H{yy(n)}", f"H1 FY{n}", f"H1 FY{yy(n)}", f"the first half of fiscal {n}",
                           f"the first half of FY{n}", f"1H FY{n}", f"H1 {n}", f"first half of fiscal year {n}"])
    return rng.choice([f"el primer semestre del ejercicio {n}", f"el primer semestre fiscal de {n}", f"S1 {n}",
                       f"el primer semestre del año fiscal {n}", f"el S1 del ejercicio {n}"])


def m9_phrase(rng: random.Random, lang: str, n: int) -> str:
    if lang == "en":
        return rng.choice([f"9M FY{n}", f"9M FY{yy(n)}", f"9M{yy(n)}", f"the first nine months of fiscal {n}",
                           f"the first nine months of FY{n}", f"first nine months of fiscal year {n}"])
    return rng.choice([f"los primeros nueve meses del ejercicio {n}", f"9M {n}",
                       f"los nueve primeros meses del año fiscal {n}", f"el 9M del ejercicio {n}",
                       f"los primeros nueve meses del año fiscal {n}"])


def period_phrase(rng: random.Random, lang: str, per: Period) -> str:
    if per.kind == "FY":
        return fy_phrase(rng, lang, per.n)
    if per.kind in ("Q", "Q4D"):
        return quarter_phrase(rng, lang, per.n, per.k)
    if per.kind == "H1":
        return half_phrase(rng, lang, per.n)
    if per.kind == "9M":
        return m9_phrase(rng, lang, per.n)
    raise ValueError(per.kind)


def end_phrase(rng: random.Random, lang: str, length: str, end: date) -> str:
    if lang == "en":
        d = date_en(rng, end)
        return rng.choice({
            "Q": [f"for the quarter ended {d}", f"in the three months ended {d}", f"for the quarter ending {d}",
                  f"for the three months ended {d}"],
            "H1": [f"for the six months ended {d}", f"in the six months ended {d}"],
            "9M": [f"for the nine months ended {d}", f"in the nine months ended {d}"],
            "FY": [f"for the year ended {d}", f"for the fiscal year ended {d}", f"in the year ended {d}"],
        }[length])
    d = date_es(rng, end)
    return rng.choice({
        "Q": [f"en el trimestre terminado el {d}", f"en los tres meses terminados el {d}",
              f"en el trimestre cerrado el {d}"],
        "H1": [f"en los seis meses terminados el {d}", f"en el semestre terminado el {d}"],
        "9M": [f"en los nueve meses terminados el {d}"],
        "FY": [f"en el ejercicio terminado el {d}", f"en el año terminado el {d}",
               f"en el ejercicio cerrado el {d}"],
    }[length])


def asof_phrase(rng: random.Random, lang: str, style: str, t: date) -> str:
    if style == "month":
        if lang == "en":
            mon = f"{MONTHS_EN[t.month - 1]} {t.year}"
            return rng.choice([f"as of {mon}", f"as known in {mon}", f"as of {mon}"])
        mes = f"{MONTHS_ES[t.month - 1]} de {t.year}"
        return rng.choice([f"a {mes}", f"a fecha de {mes}", f"según lo conocido en {mes}"])
    if style == "date":
        if lang == "en":
            return rng.choice([f"as of {date_en(rng, t)}", f"as known on {date_en(rng, t)}", f"as of {t.isoformat()}"])
        return rng.choice([f"a fecha de {date_es(rng, t)}", f"según lo conocido el {date_es(rng, t)}",
                           f"a {date_es(rng, t)}"])
    if style == "eoy":
        if lang == "en":
            return rng.choice([f"as of the end of {t.year}", f"at the end of {t.year}",
                               f"as known at the end of {t.year}"])
        return rng.choice([f"a finales de {t.year}", f"según lo conocido a finales de {t.year}"])
    raise ValueError(style)


MODE_EN = {"first": ["as originally reported", "as first reported", "as initially reported"],
           "latest": ["as restated", "according to the latest figures", "as restated", "per the latest figures"]}
MODE_ES = {"first": ["tal como se publicó originalmente", "según se publicó por primera vez",
                     "tal como se informó originalmente"],
           "latest": ["según la última cifra", "según la última cifra disponible", "según la cifra más reciente"]}


def co_name(rng: random.Random, co: Company, plain: bool = False) -> str:
    names = [n for n in co.names if not (plain and n.endswith("."))] or co.names
    return rng.choice(names)


def poss(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _es_fix(s: str) -> str:
    return s.replace(" de el ", " del ").replace(" a el ", " al ")


def es_metric(rng: random.Random, metric: str) -> tuple[str, str]:
    return rng.choice(M_ES[metric])


def en_metric(rng: random.Random, metric: str) -> tuple[str, bool]:
    return rng.choice(M_EN[metric])


def fact_question_en(rng: random.Random, co: Company, metric: str, p: str, pp: str | None = None, x: str = "",
                     pre: str = "", post: str = "", mode: str = "") -> str:
    """One English question; p is the bare period phrase, pp the prepositional one, x an as-of/mode phrase."""
    m, plural = en_metric(rng, metric)
    if pre:
        m = f"{pre} {m}"
    if post:
        m = f"{m} {post}"
    name = co_name(rng, co)
    pname = poss(co_name(rng, co, plain=True))
    pp = pp or rng.choice([f"in {p}", f"for {p}", f"in {p}"])
    be = "were" if plural else "was"
    if mode == "latest" and rng.random() < 0.35:
        return rng.choice([f"What is the latest figure for {pname} {m} {pp}?", f"Latest {m} for {name}, {p}?",
                           f"{pname} latest reported {m} {pp}", f"What is the latest {m} figure for {name} {pp}?"])
    prefix = bool(x) and rng.random() < 0.25
    xs = "" if prefix or not x else (f", {x}" if rng.random() < 0.4 else f" {x}")
    tpls = [
        f"What {be} {pname} {m} {pp}{xs}?",
        f"Can you tell me {pname} {m} {pp}{xs}?",
        f"What {be} {pname} {m} {pp}{xs}? Thanks",
    ]
    if not prefix:
        tpls += [
            f"{name} {m} {p}{xs}",
            f"Give me {pname} {m} {pp}{xs}, please.",
            f"{_cap(m)} of {name} {pp}{xs}",
            f"I need {pname} {m} {pp}{xs}.",
            f"{name}: {m}, {p}{xs}",
        ]
        if not p.startswith(("the ", "for ", "in ", "first ")):  # p reads as a modifier: "FY2024", "Q2 FY25"
            tpls += [f"{pname} {p} {m}{xs}?", f"{_cap(p)} {m} for {name}{xs}?"]
    if not pre and not post:
        verbs = {
            "revenue": [f"How much did {name} make in revenue {pp}{xs}?",
                        f"How much revenue did {name} generate {pp}{xs}?"],
            "net_income": [f"What did {name} earn in net income {pp}{xs}?",
                           f"How much net profit did {name} make {pp}{xs}?"],
            "research_development": [f"How much did {name} spend on R&D {pp}{xs}?",
                                     f"How much did {name} spend on research and development {pp}{xs}?"],
            "operating_income": [f"How much operating income did {name} generate {pp}{xs}?"],
            "operating_cash_flow": [f"How much cash from operations did {name} generate {pp}{xs}?"],
            "free_cash_flow": [f"How much free cash flow did {name} generate {pp}{xs}?"],
        }.get(metric, [])
        if metric in INSTANT and not x and pp.startswith(("in ", "for ")):
            verbs = [f"What {be} {pname} {m} at the end of {p}?", f"{name} {m} at the end of {p}"]
        tpls += verbs * 2
    q = rng.choice(tpls)
    if prefix:
        q = f"{_cap(x)}, {q[0].lower()}{q[1:]}"
    elif rng.random() < 0.12 and "?" not in q:
        q = q.lower()
    return q


def fact_question_es(rng: random.Random, co: Company, metric: str, p: str, pp: str | None = None, x: str = "",
                     post: str | dict = "", period_pre: str = "", mode: str = "") -> tuple[str, str]:
    """One Spanish question; returns (question, inserted qualifier as written or '')."""
    m, gn = es_metric(rng, metric)
    ins = ""
    if post:
        ins = post[gn] if isinstance(post, dict) else post
        m = f"{m} {ins}"
    bare = m.split(" ", 1)[1]
    name = co_name(rng, co)
    if period_pre:
        ins = period_pre
        pp = f"{period_pre} {p}"
    pp = pp or rng.choice([f"en {p}", f"en {p}", f"durante {p}"])
    plural = gn.endswith("p")
    cual = "Cuáles fueron" if plural else "Cuál fue"
    asc = "ascendieron" if plural else "ascendió"
    fue = "fueron" if plural else "fue"
    if mode == "latest" and rng.random() < 0.35:
        q = rng.choice([f"¿Cuál es la última cifra de {m} de {name} {pp}?",
                        f"Última cifra de {m} de {name} {pp}"])
        return _es_fix(q), ""
    prefix = bool(x) and rng.random() < 0.25
    xs = "" if prefix or not x else (f", {x}" if rng.random() < 0.4 else f" {x}")
    tpls = [
        f"¿{cual} {m} de {name} {pp}{xs}?",
        f"¿Me puedes decir {m} de {name} {pp}{xs}?",
        f"¿A cuánto {asc} {m} de {name} {pp}{xs}?",
        f"¿Cuánto {fue} {m} de {name} {pp}{xs}? Gracias",
    ]
    if not prefix:
        tpls += [
            f"{_cap(m)} de {name} {pp}{xs}",
            f"¿{_cap(m)} de {name} {pp}{xs}?",
            f"Dame {m} de {name} {pp}{xs}, por favor.",
            f"{name}: {bare} {pp}{xs}",
        ]
    if not post and not period_pre:
        verbs = {
            "revenue": [f"¿Cuánto ingresó {name} {pp}{xs}?", f"¿Cuánto facturó {name} {pp}{xs}?"],
            "net_income": [f"¿Qué beneficio neto obtuvo {name} {pp}{xs}?"],
            "research_development": [f"¿Cuánto gastó {name} en I+D {pp}{xs}?",
                                     f"¿Cuánto invirtió {name} en investigación y desarrollo {pp}{xs}?"],
            "operating_cash_flow": [f"¿Cuánto flujo de caja operativo generó {name} {pp}{xs}?"],
            "free_cash_flow": [f"¿Cuánto flujo de caja libre generó {name} {pp}{xs}?"],
        }.get(metric, [])
        if metric in INSTANT and not x and pp.startswith("en "):
            verbs = [f"¿{cual} {m} de {name} al cierre de {p}?", f"{_cap(m)} de {name} al cierre de {p}"]
        tpls += verbs * 2
    q = rng.choice(tpls)
    if prefix:
        q = f"{_cap(x)}, ¿{q[1].lower()}{q[2:]}"
    elif rng.random() < 0.08 and not q.startswith("¿"):
        q = q.lower()
    return _es_fix(q), ins


# --------------------------------------------------------------------------------------------
# generation
# --------------------------------------------------------------------------------------------

def iso_moment(t: date | None) -> str | None:
    return None if t is None else f"{t.isoformat()}T00:00:00Z"


@dataclass
class Cand:
    co: Company
    metric: str
    per: Period
    t: date | None = None
    res: Res | None = None
    style: str = ""
    tag: str = ""
    weight: float = 1.0
    extra: dict = field(default_factory=dict)


class Bank:
    def __init__(self, companies: list[Company], rng: random.Random):
        self.cos = companies
        self.rng = rng
        self.out: list[dict] = []

    # ---- helpers -------------------------------------------------------------------------
    def langs(self, n: int) -> list[str]:
        k = round(n * ES_SHARE)
        ls = ["es"] * k + ["en"] * (n - k)
        self.rng.shuffle(ls)
        return ls

    def with_langs(self, chosen: list) -> list[tuple]:
        return list(zip(chosen, self.langs(len(chosen)), strict=True))

    def pick(self, cands: list[Cand], n: int, key=lambda c: c.co.cik) -> list[Cand]:
        """Round-robin over groups (default: company), shuffled within, preferring weight."""
        groups: dict = defaultdict(list)
        for c in cands:
            groups[key(c)].append(c)
        for g in groups.values():
            self.rng.shuffle(g)
            g.sort(key=lambda c: -c.weight)
        order = sorted(groups)
        self.rng.shuffle(order)
        chosen: list[Cand] = []
        seen = set()
        while len(chosen) < n and any(groups.values()):
            for g in order:
                while groups[g]:
                    c = groups[g].pop(0)
                    sig = (c.co.cik, c.metric, c.per, c.t, c.style)
                    if sig in seen:
                        continue
                    seen.add(sig)
                    chosen.append(c)
                    break
                if len(chosen) >= n:
                    break
        return chosen

    def emit(self, klass: str, lang: str, question: str, expect: str, cand: Cand | None = None, res: Res | None = None,
             t: date | None = None, **kw) -> None:
        d = {"id": "", "question": question, "lang": lang, "klass": klass, "expect": expect,
             "cik": None, "metric": None, "value": None, "unit": None, "period_start": None, "period_end": None,
             "as_of": iso_moment(t), "rows": None, "inserted": None, "mode": None, "why": ""}
        if cand is not None:
            per = cand.per
            d["cik"] = cand.co.cik
            d["metric"] = cand.metric
            if per is not None:
                d["period_start"] = None if cand.metric in INSTANT else per.start.isoformat()
                d["period_end"] = per.end.isoformat()
            if expect == "fact" and res is not None:
                d["value"] = float(res.val)
                d["unit"] = unit_for(cand.co, cand.metric)
                d["why"] = res.why
        d.update(kw)
        self.out.append(d)

    def ask(self, lang: str, cand: Cand, p: str, pp: str | None = None, x: str = "", mode: str = "") -> str:
        if lang == "en":
            return fact_question_en(self.rng, cand.co, cand.metric, p, pp, x, mode=mode)
        if pp and not pp.startswith("en "):
            pp = None
        return fact_question_es(self.rng, cand.co, cand.metric, p, pp, x, mode=mode)[0]

    def metric_pool(self, co: Company, kinds: str) -> list[str]:
        base = ["revenue", "net_income", "operating_income", "research_development", "eps_diluted",
                "operating_cash_flow", "total_assets", "equity", "cash"]
        if kinds == "year":
            base += ["gross_profit", "total_liabilities", "capex", "eps"]
        elif kinds == "flow":
            base = ["revenue", "net_income", "operating_income", "research_development", "gross_profit",
                    "operating_cash_flow"]
        elif kinds == "ytd":
            base = ["revenue", "net_income", "operating_income", "research_development", "operating_cash_flow",
                    "eps_diluted", "gross_profit", "capex"]
        return [m for m in base if co.facts.get(m)]

    def fiscal_years(self, co: Company) -> list[int]:
        return sorted(co.fy)

    # ---- fact classes at T=None ------------------------------------------------------------
    def year(self, n: int) -> None:
        cands = []
        for co in self.cos:
            for y in self.fiscal_years(co):
                per = fy_period(co, y)
                for m in self.metric_pool(co, "year"):
                    r = safe_value(co, m, per)
                    if r is not None:
                        w = 2.0 if m in ("revenue", "net_income", "total_assets", "eps_diluted") else 1.0
                        cands.append(Cand(co, m, per, res=r, weight=w + self.rng.random()))
        for c, lang in self.with_langs(self.pick(cands, n)):
            self.emit("year", lang, self.ask(lang, c, period_phrase(self.rng, lang, c.per)), "fact", c, c.res)

    def quarter(self, n: int) -> None:
        cands = []
        for co in self.cos:
            if co.annual:
                continue
            for y in self.fiscal_years(co):
                for k in (1, 2, 3, 4):
                    per = quarter_period(co, y, k)
                    if per is None:
                        continue
                    for m in self.metric_pool(co, "all"):
                        if m in INSTANT and k == 4:
                            continue
                        r = safe_value(co, m, per)
                        if r is not None:
                            w = 0.5 if m in INSTANT else 1.0
                            cands.append(Cand(co, m, per, res=r, weight=w + self.rng.random()))
        for c, lang in self.with_langs(self.pick(cands, n)):
            self.emit("quarter", lang, self.ask(lang, c, period_phrase(self.rng, lang, c.per)), "fact", c, c.res)

    def q4_derived(self, n: int) -> None:
        cands = []
        for co in self.cos:
            if co.annual:
                continue
            for y in self.fiscal_years(co):
                for m in ("revenue", "net_income", "operating_income", "research_development", "gross_profit",
                          "operating_cash_flow"):
                    if not co.facts.get(m):
                        continue
                    per = q4_period(co, m, y)
                    if per is None or per.kind != "Q4D":
                        continue
                    r = safe_value(co, m, per)
                    if r is not None:
                        cands.append(Cand(co, m, per, res=r, weight=self.rng.random()))
        for c, lang in self.with_langs(self.pick(cands, n)):
            self.emit("q4_derived", lang, self.ask(lang, c, period_phrase(self.rng, lang, c.per)), "fact", c, c.res)

    def ytd(self, klass: str, kind: str, n: int) -> None:
        cands = []
        for co in self.cos:
            if co.annual:
                continue
            for y in self.fiscal_years(co):
                per = ytd_period(co, y, kind)
                if per is None:
                    continue
                for m in self.metric_pool(co, "ytd"):
                    r = safe_value(co, m, per)
                    if r is not None:
                        cands.append(Cand(co, m, per, res=r, weight=self.rng.random()))
        for c, lang in self.with_langs(self.pick(cands, n)):
            self.emit(klass, lang, self.ask(lang, c, period_phrase(self.rng, lang, c.per)), "fact", c, c.res)

    def ttm(self, n: int) -> None:
        cands = []
        for co in self.cos:
            if co.annual:
                continue
            for y in self.fiscal_years(co):
                for k in (1, 2, 3, 4):
                    for m in ("revenue", "net_income", "operating_income", "research_development", "gross_profit"):
                        if not co.facts.get(m):
                            continue
                        per = ttm_period(co, m, y, k)
                        if per is None:
                            continue
                        r = safe_value(co, m, per)
                        if r is not None:
                            cands.append(Cand(co, m, per, res=r, weight=self.rng.random()))
        rng = self.rng
        for c, lang in self.with_langs(self.pick(cands, n)):
            y, k = c.per.n, c.per.k
            name = co_name(rng, c.co)
            if lang == "en":
                m, _ = en_metric(rng, c.metric)
                qp = rng.choice([f"Q{k} FY{y}", f"Q{k} FY{yy(y)}", f"the {ORD_EN[k - 1]} quarter of fiscal {y}",
                                 f"{k}Q{yy(y)}", f"Q{k} {y}"])
                pname = poss(co_name(rng, c.co, plain=True))
                q = rng.choice([f"What was {pname} TTM {m} through {qp}?", f"{name} LTM {m} ending {qp}",
                                f"{pname} trailing twelve months {m} through {qp}?",
                                f"{_cap(m)} for {name} over the last twelve months ending {qp}",
                                f"TTM {m} {name} through {qp}", f"LTM {m} of {name} ending {qp}, please"])
            else:
                m, gn = es_metric(rng, c.metric)
                qp = rng.choice([f"el {ORD_ES[k - 1]} trimestre fiscal {y}",
                                 f"el {ORD_ES[k - 1]} trimestre del ejercicio {y}", f"T{k} {y}",
                                 f"el T{k} del ejercicio {y}"])
                cual = "Cuáles fueron" if gn.endswith("p") else "Cuál fue"
                q = rng.choice([f"¿{cual} {m} de {name} en los últimos doce meses hasta {qp}?",
                                f"{_cap(m)} de {name} en los últimos doce meses hasta {qp}",
                                f"{_cap(m)} de {name} (últimos 12 meses hasta {qp})",
                                f"¿{_cap(m)} de los últimos doce meses de {name} hasta {qp}?"])
            parts = ", ".join(f"{'Q4 (FY-9M)' if p.kind == 'Q4D' else 'Q' + str(p.k)} FY{p.n}" for p in c.per.parts)
            self.emit("ttm", lang, q, "fact", c, c.res)
            self.out[-1]["why"] = f"sum of {parts}: {c.res.why}"

    def end_date(self, n: int) -> None:
        cands = []
        classes = {"Q": (80, 105), "H1": (170, 195), "9M": (260, 290), "FY": (350, 380)}
        for co in self.cos:
            by_end: dict = defaultdict(set)
            for s, e in co.durations:
                days = (e - s).days + 1
                for key, (lo, hi) in classes.items():
                    if lo <= days <= hi:
                        by_end[(key, e)].add(s)
            for (key, e), starts in by_end.items():
                if len(starts) != 1 or (co.annual and key != "FY"):
                    continue
                s = next(iter(starts))
                if key == "FY" and co.fy.get(fiscal_year_of(e)) != (s, e):
                    continue
                per = Period("END", 0, 0, s, e, (key,))
                for m in self.metric_pool(co, "ytd"):
                    if key == "Q" and m == "eps_diluted" and self.rng.random() < 0.5:
                        continue
                    r = safe_value(co, m, per)
                    if r is not None:
                        w = {"Q": 1.0, "H1": 1.4, "9M": 1.4, "FY": 0.8}[key]
                        cands.append(Cand(co, m, per, res=r, weight=w * self.rng.random()))
        for c, lang in self.with_langs(self.pick(cands, n)):
            pp = end_phrase(self.rng, lang, c.per.parts[0], c.per.end)
            bare = pp.split(" ", 1)[1]
            self.emit("end_date", lang, self.ask(lang, c, bare, pp), "fact", c, c.res)

    def derived(self, n: int) -> None:
        cands = []
        for co in self.cos:
            if not co.facts.get("operating_cash_flow") or not co.facts.get("capex"):
                continue
            for y in self.fiscal_years(co):
                pers = [fy_period(co, y)]
                if not co.annual:
                    pers += [ytd_period(co, y, "H1"), ytd_period(co, y, "9M"), quarter_period(co, y, 1)]
                for per in pers:
                    if per is None:
                        continue
                    r = safe_value(co, "free_cash_flow", per)
                    if r is not None:
                        w = 1.5 if per.kind == "FY" else 1.0
                        cands.append(Cand(co, "free_cash_flow", per, res=r, weight=w * self.rng.random()))
        for c, lang in self.with_langs(self.pick(cands, n)):
            q = self.ask(lang, c, period_phrase(self.rng, lang, c.per))
            self.emit("derived", lang, q, "fact", c, c.res)

    def comparison(self, n: int) -> None:
        rng = self.rng
        metrics = ["revenue", "net_income", "operating_income", "research_development", "total_assets",
                   "eps_diluted", "operating_cash_flow", "cash"]
        combos = []
        for m in metrics:
            for y in range(2010, 2026):
                ok = []
                for co in self.cos:
                    per = fy_period(co, y)
                    if per is None or not co.facts.get(m):
                        continue
                    r = safe_value(co, m, per)
                    if r is not None:
                        ok.append((co, per, r))
                if len(ok) >= 2:
                    combos.append((m, y, ok))
        rng.shuffle(combos)
        langs = self.langs(n)
        made = 0
        used = set()
        i = 0
        while made < n and i < 50 * n:
            m, y, ok = combos[i % len(combos)]
            i += 1
            size = 2 if rng.random() < 0.75 or len(ok) < 3 else 3
            pick = rng.sample(ok, size)
            sig = (m, y, tuple(sorted(c.cik for c, _, _ in pick)))
            if sig in used:
                continue
            used.add(sig)
            lang = langs[made]
            names = [co_name(rng, c, plain=True) for c, _, _ in pick]
            fyp = fy_phrase(rng, lang, y)
            if lang == "en":
                mt, _ = en_metric(rng, m)
                if size == 2:
                    a, b = names
                    q = rng.choice([f"{a} vs {b} {mt} in {fyp}", f"Compare {a} and {b} {mt} for {fyp}",
                                    f"Who had more {mt} in {fyp}, {a} or {b}?",
                                    f"How did {poss(a)} {mt} compare with {poss(b)} in {fyp}?",
                                    f"{_cap(mt)}: {a} versus {b}, {fyp}"])
                else:
                    q = rng.choice([f"Compare {names[0]}, {names[1]} and {names[2]} {mt} for {fyp}",
                                    f"{_cap(mt)}: {names[0]} vs {names[1]} vs {names[2]}, {fyp}"])
            else:
                mt, _ = es_metric(rng, m)
                bare = mt.split(" ", 1)[1]
                if size == 2:
                    a, b = names
                    q = rng.choice([f"¿Quién tuvo más {bare} en {fyp}, {a} o {b}?",
                                    f"Compara {mt} de {a} y {b} en {fyp}", f"{a} frente a {b}: {bare} en {fyp}",
                                    f"{_cap(mt)} de {a} y {b} en {fyp}"])
                else:
                    q = rng.choice([f"{_cap(mt)} de {names[0]}, {names[1]} y {names[2]} en {fyp}",
                                    f"Compara {mt} de {names[0]}, {names[1]} y {names[2]} en {fyp}"])
            rows = [{"cik": c.cik, "value": float(r.val), "unit": unit_for(c, m), "period_end": per.end.isoformat()}
                    for c, per, r in pick]
            why = "; ".join(f"{c.cik} FY{y}: {r.why}" for c, _, r in pick)
            self.emit("comparison", lang, _es_fix(q), "table", None, metric=m, rows=rows, why=why)
            made += 1

    # ---- time-aware classes ------------------------------------------------------------------
    def asof_periods(self, co: Company):
        """(metric, period) pairs usable with an as-of moment: FY and Q1-Q3, FY-end balances."""
        for y in self.fiscal_years(co):
            fy = fy_period(co, y)
            for m in self.metric_pool(co, "all"):
                yield m, fy
            if co.annual:
                continue
            for k in (1, 2, 3):
                per = quarter_period(co, y, k)
                if per is None:
                    continue
                for m in ("revenue", "net_income", "operating_income", "research_development", "eps_diluted"):
                    if co.facts.get(m):
                        yield m, per

    def timeline_cands(self) -> dict[str, list[Cand]]:
        """Candidate (period, moment) pairs for as-of classes and refusals."""
        rng = self.rng
        out: dict[str, list[Cand]] = defaultdict(list)
        for co in self.cos:
            for m, per in self.asof_periods(co):
                dates = filing_dates(co, m, per)
                if not dates:
                    continue
                d1 = dates[0]
                try:
                    latest = value(co, m, per)
                except Ambiguous:
                    continue
                if latest is None:
                    continue
                w_bal = 0.35 if m in INSTANT else (0.6 if m in PER_SHARE else 1.0)
                original = (d1 - per.end).days <= (130 if per.kind == "FY" else 80)

                todo: list[tuple[str, str, date, str, float]] = []
                add = todo.append
                try:
                    changed = [d for d in dates[1:] if value(co, m, per, d + timedelta(days=1)).val
                               != value(co, m, per, d).val]
                except Ambiguous:
                    continue
                # months: look-ahead traps in the month of a later filing, plus random months
                for d in dates[1:]:
                    if d.day >= 4:
                        w = 2.0 if d in changed else 0.8
                        add(("as_of_month", "month", d.replace(day=1), "trap-later-filing", w))
                for _ in range(2):
                    t = d1 + timedelta(days=rng.randint(20, 900))
                    add(("as_of_month", "month", t.replace(day=1), "random", 1.0))
                # dates: just before a restatement, and random
                for d in changed:
                    add(("as_of_date", "date", d - timedelta(days=rng.randint(3, 40)), "before-restatement", 2.0))
                    add(("as_of_date", "date", d + timedelta(days=rng.randint(3, 40)), "after-restatement", 2.0))
                add(("as_of_date", "date", d1 + timedelta(days=rng.randint(3, 700)), "random", 1.0))
                # end of year
                for yr in range(per.end.year - (per.end.month == 1), per.end.year + 4):
                    t = date(yr, 12, 31)
                    klass = "end_of_year" if t > d1 else "before_filing"
                    add((klass, "eoy", t, "eoy", 1.5 if any(t < d for d in changed) else 1.0))
                # before the first filing
                if d1.day >= 4:
                    add(("before_filing", "month", d1.replace(day=1), "trap-first-filing-month", 2.0))
                gap = (d1 - per.end).days
                if gap > 8:
                    add(("before_filing", "date", per.end + timedelta(days=rng.randint(2, gap - 4)),
                         "after-period-end", 1.5))
                    mt = (per.end + timedelta(days=rng.randint(1, gap - 4))).replace(day=1)
                    if mt > per.end:
                        add(("before_filing", "month", mt, "after-period-end-month", 1.2))
                add(("before_filing", "date", per.end - timedelta(days=rng.randint(10, 200)), "before-period-end", 0.5))
                for klass, style, t, tag, w in todo:
                    if not moment_ok(co, [m], t) or (klass == "before_filing" and not original):
                        continue
                    try:
                        r = value(co, m, per, t)
                    except Ambiguous:
                        continue
                    if (r is None) != (klass == "before_filing"):
                        continue
                    out[klass].append(Cand(co, m, per, t=t, res=r, style=style, tag=tag,
                                           weight=w * w_bal * (0.5 + rng.random())))
        return out

    def pick_quota(self, cands: list[Cand], n: int, quotas: dict[str, float]) -> list[Cand]:
        """Pick by tag share (tags not listed share the rest), topping up from everything left."""
        chosen: list[Cand] = []
        rest_tags = [c.tag for c in cands if c.tag not in quotas]
        for tag, share in list(quotas.items()) + [("*", 1 - sum(quotas.values()))]:
            pool = [c for c in cands if (c.tag == tag if tag != "*" else c.tag in rest_tags)]
            chosen += self.pick(pool, round(n * share))
        if len(chosen) < n:
            ids = {id(c) for c in chosen}
            chosen += self.pick([c for c in cands if id(c) not in ids], n - len(chosen))
        return chosen[:n]

    def asof_class(self, klass: str, cands: list[Cand], n: int) -> None:
        quotas = {"as_of_month": {"trap-later-filing": 0.5},
                  "before_filing": {"trap-first-filing-month": 0.45, "eoy": 0.15},
                  "as_of_date": {"random": 0.34}}.get(klass, {})
        chosen = self.pick_quota(cands, n, quotas) if quotas else self.pick(cands, n)
        for c, lang in self.with_langs(chosen):
            p = period_phrase(self.rng, lang, c.per)
            x = asof_phrase(self.rng, lang, c.style, c.t)
            if klass == "before_filing":
                q = self.ask(lang, c, p, None, x)
                first = filing_dates(c.co, c.metric, c.per)[0]
                self.emit(klass, lang, q, "refuse", c, None, c.t,
                          why=f"{c.tag}: first filing with the period filed {first}, after {c.t}")
            else:
                self.emit(klass, lang, self.ask(lang, c, p, None, x), "fact", c, c.res, c.t)
                self.out[-1]["why"] = f"{c.tag}: {c.res.why}"

    def modes(self, n_first: int, n_latest: int) -> None:
        cands: list[Cand] = []
        for co in self.cos:
            for y in self.fiscal_years(co):
                pers = [fy_period(co, y)]
                if not co.annual:
                    pers += [quarter_period(co, y, k) for k in (1, 2, 3)]
                    pers += [ytd_period(co, y, "H1"), ytd_period(co, y, "9M")]
                for per in pers:
                    if per is None:
                        continue
                    for m in self.metric_pool(co, "all"):
                        if m in INSTANT and per.kind != "FY":
                            continue
                        d1 = first_filed(co, m, per)
                        if d1 is None:
                            continue
                        try:
                            first = value(co, m, per, d1 + timedelta(days=1))
                            latest = value(co, m, per)
                        except Ambiguous:
                            continue
                        if first is None or latest is None:
                            continue
                        restated = first.val != latest.val
                        w = (3.0 if restated else 0.0) + self.rng.random()
                        cands.append(Cand(co, m, per, t=d1, res=first, weight=w, extra={"latest": latest,
                                                                                        "restated": restated}))
        want = n_first + n_latest
        chosen = self.pick([c for c in cands if c.extra["restated"]], round(want * 0.7))
        chosen += self.pick([c for c in cands if not c.extra["restated"]], want - len(chosen))
        self.rng.shuffle(chosen)
        firsts, latests = chosen[:n_first], chosen[n_first:]
        for klass, group in (("first_reported", firsts), ("latest", latests)):
            for c, lang in self.with_langs(group):
                mode = "first" if klass == "first_reported" else "latest"
                x = self.rng.choice((MODE_EN if lang == "en" else MODE_ES)[mode])
                q = self.ask(lang, c, period_phrase(self.rng, lang, c.per), None, x, mode=mode)
                res = c.res if mode == "first" else c.extra["latest"]
                self.emit(klass, lang, q, "fact", c, res, None, mode=mode)
                other = c.extra["latest"] if mode == "first" else c.res
                self.out[-1]["why"] = (f"{mode} (first filed {c.t}; restated={c.extra['restated']}): {res.why}; "
                                       f"other mode gives {other.val}")

    # ---- refusals ------------------------------------------------------------------------
    def least_used(self, used: Counter, opts: list[tuple]) -> tuple:
        low = min(used[str(o[0])] for o in opts)
        pick = self.rng.choice([o for o in opts if used[str(o[0])] == low])
        used[str(pick[0])] += 1
        return pick

    def unknown_qualifier(self, n: int) -> None:
        rng = self.rng
        used: Counter = Counter()
        cands = []
        for co in self.cos:
            for y in self.fiscal_years(co):
                pers = [fy_period(co, y)]
                if not co.annual:
                    pers += [quarter_period(co, y, k) for k in (1, 2, 3)]
                for per in pers:
                    if per is None:
                        continue
                    for m in ("revenue", "net_income", "operating_income", "eps_diluted", "research_development"):
                        if co.facts.get(m) and safe_value(co, m, per) is not None:
                            cands.append(Cand(co, m, per, weight=rng.random()))
        for c, lang in self.with_langs(self.pick(cands, n)):
            p = period_phrase(rng, lang, c.per)
            if lang == "en":
                opts = [q for q in QUALIFIERS_EN if c.metric in q[2] and (q[1] != "period" or c.per.kind == "Q")]
                words, where, _ = self.least_used(used, opts)
                if where == "period" and c.per.kind != "Q":
                    words, where = "adjusted", "pre"
                if where == "period":
                    q = fact_question_en(rng, c.co, c.metric, f"{words} {p}", f"{words} {p}")
                else:
                    q = fact_question_en(rng, c.co, c.metric, p, None, pre=words if where == "pre" else "",
                                         post=words if where == "post" else "")
            else:
                opts = [q for q in QUALIFIERS_ES if c.metric in q[2] and (q[1] != "period" or c.per.kind == "Q")]
                words, where, _ = self.least_used(used, opts)
                if where == "period" and c.per.kind != "Q":
                    words, where = QUALIFIERS_ES[1][0], "post"
                if where == "period":
                    q, words = fact_question_es(rng, c.co, c.metric, p, None, period_pre=words)
                else:
                    q, words = fact_question_es(rng, c.co, c.metric, p, None, post=words)
            if words.lower() not in q.lower():
                raise AssertionError((q, words))
            start = q.lower().index(words.lower())
            if q[start + len(words):].startswith("l ") and words.endswith(" de"):
                words += "l"
            words = q[start:start + len(words)]
            r = safe_value(c.co, c.metric, c.per)
            self.emit("unknown_qualifier", lang, q, "refuse", c, None, inserted=words,
                      why=f"answerable without '{words}' ({r.val}); the qualifier cannot be answered from the facts")

    def absent_company(self, n: int) -> None:
        rng = self.rng
        metrics = ["revenue", "net_income", "operating_income", "total_assets", "eps_diluted", "operating_cash_flow",
                   "cash", "equity"]
        fake = Company(0, "USD", {}, {}, [], {}, 0)
        for i, lang in enumerate(self.langs(n)):
            fake.names = [ABSENT[i % len(ABSENT)]]
            m = rng.choice(metrics)
            y = rng.randint(2015, 2024)
            kind = rng.random()
            if kind < 0.6:
                p = fy_phrase(rng, lang, y)
            elif kind < 0.85:
                p = quarter_phrase(rng, lang, y, rng.randint(1, 3))
            else:
                p = half_phrase(rng, lang, y)
            c = Cand(fake, m, None)
            x, t = "", None
            if rng.random() < 0.2:
                t = date(y + 1, rng.randint(1, 12), 1)
                x = asof_phrase(rng, lang, "month", t)
            q = self.ask(lang, c, p, None, x)
            self.emit("absent_company", lang, q, "refuse", None, None, t, metric=m,
                      why=f"{fake.names[0]} is not among the companies in the data")

    def no_such_period(self, n: int) -> None:
        rng = self.rng
        cands = []
        for co in self.cos:
            last = co.min_year - 2
            lo = EARLIEST_ASKABLE_YEAR[co.cik]
            for y in range(lo, last + 1):
                for m in ("revenue", "net_income", "total_assets", "operating_income", "eps_diluted",
                          "research_development", "operating_cash_flow"):
                    if co.facts.get(m):
                        cands.append(Cand(co, m, Period("FY", y, 0, None, date(y, 12, 31)), weight=rng.random()))
        for c, lang in self.with_langs(self.pick(cands, n)):
            y = c.per.n
            if not c.co.annual and rng.random() < 0.2:
                p = quarter_phrase(rng, lang, y, rng.randint(1, 3))
            else:
                p = fy_phrase(rng, lang, y)
                if lang == "en" and rng.random() < 0.3:
                    p = f"FY{y}"
            q = self.ask(lang, c, p)
            self.emit("no_such_period", lang, q, "refuse", None, cik=c.co.cik, metric=c.metric,
                      why=f"data for CIK {c.co.cik} starts in {c.co.min_year}; nothing for fiscal {y}")

    # ---- driver --------------------------------------------------------------------------
    def build(self) -> list[dict]:
        t = CLASS_TARGETS
        self.year(t["year"])
        self.quarter(t["quarter"])
        self.q4_derived(t["q4_derived"])
        self.ytd("half", "H1", t["half"])
        self.ytd("nine_months", "9M", t["nine_months"])
        self.ttm(t["ttm"])
        self.end_date(t["end_date"])
        tl = self.timeline_cands()
        for klass in ("as_of_month", "as_of_date", "end_of_year", "before_filing"):
            self.asof_class(klass, tl[klass], t[klass])
        self.modes(t["first_reported"], t["latest"])
        self.comparison(t["comparison"])
        self.derived(t["derived"])
        self.unknown_qualifier(t["unknown_qualifier"])
        self.absent_company(t["absent_company"])
        self.no_such_period(t["no_such_period"])
        for i, d in enumerate(self.out):
            d["id"] = f"bank-{i + 1:04d}-{d['klass']}"
        return self.out


def generate(real: Path, metrics_csv: Path, *, seed: int = 0) -> list[dict]:
    """Return the evaluation questions (deterministic for a seed)."""
    metrics = load_metrics(Path(metrics_csv))
    companies = []
    for cik in COMPANIES:
        path = Path(real) / "companyfacts" / f"CIK{cik:010d}.json"
        companies.append(load_company(path, cik, metrics))
    return Bank(companies, random.Random(seed)).build()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("real", type=Path)
    ap.add_argument("metrics_csv", type=Path)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jsonl", type=Path, default=None, help="also write the questions as JSON lines")
    args = ap.parse_args(argv)
    qs = generate(args.real, args.metrics_csv, seed=args.seed)
    by = Counter((q["klass"], q["lang"]) for q in qs)
    print(f"{'klass':<20}{'en':>6}{'es':>6}{'total':>7}")
    for klass in CLASS_TARGETS:
        en, es = by[(klass, "en")], by[(klass, "es")]
        print(f"{klass:<20}{en:>6}{es:>6}{en + es:>7}")
    en = sum(v for (_, lang), v in by.items() if lang == "en")
    print(f"{'all':<20}{en:>6}{len(qs) - en:>6}{len(qs):>7}")
    if args.jsonl:
        with open(args.jsonl, "w", encoding="utf-8") as fh:
            for q in qs:
                fh.write(json.dumps(q, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
