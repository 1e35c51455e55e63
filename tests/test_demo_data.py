"""Invariants of the deterministic course-data generator (factstore.demo.data)."""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from factstore.demo import data as demo_data

NY = "America/New_York"
REVENUE = (
    "us-gaap:Revenues",
    "us-gaap:SalesRevenueNet",
    "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax",
)
DOC_COLUMNS = ["id_doc", "ticker", "emisor", "tipo", "periodo_fin", "texto", "ts_presentacion"]
XBRL_COLUMNS = ["id_doc", "concepto", "periodo_inicio", "periodo_fin", "valor", "ts_presentacion", "forma", "unidad"]


@pytest.fixture(scope="module")
def small() -> demo_data.CourseData:
    """Few companies, with HTML."""
    return demo_data.generate(companies=8)


@pytest.fixture(scope="module")
def wide() -> demo_data.CourseData:
    """The default 40 companies, without HTML (fast)."""
    return demo_data.generate(html=False)


def facts_of(data: demo_data.CourseData) -> pd.DataFrame:
    """XBRL facts with their filing's ticker and period end (``doc_fin``), and the fact's length in days."""
    docs = data.documents[["id_doc", "ticker", "periodo_fin"]].rename(columns={"periodo_fin": "doc_fin"})
    facts = data.xbrl.merge(docs, on="id_doc", how="left", validate="many_to_one")
    facts["days"] = (facts.periodo_fin - facts.periodo_inicio).dt.days + 1
    return facts


def sales_lookup(data: demo_data.CourseData) -> dict[tuple[str, pd.Timestamp], float]:
    return {(r.ticker, r.fin_trimestre): r.ventas for r in data.sales.itertuples()}


def millions(dollars: float) -> str:
    """Dollars as the HTML prints them: millions with one decimal."""
    return f"{float(dollars) / 1e6:,.1f}"


def original_of(docs: pd.DataFrame, amendment) -> pd.Series:
    """The filing an amendment amends: same company, period end and unamended form."""
    match = docs[
        (docs.ticker == amendment.ticker)
        & (docs.periodo_fin == amendment.periodo_fin)
        & (docs.tipo == amendment.tipo.removesuffix("/A"))
    ]
    assert len(match) == 1
    return match.iloc[0]


def next_filing_after(docs: pd.DataFrame, ticker: str, ts, exclude: str) -> pd.Timestamp | None:
    later = docs[(docs.ticker == ticker) & (docs.ts_presentacion > ts) & (docs.id_doc != exclude)]
    return later.ts_presentacion.min() if len(later) else None


def test_schema(small):
    docs, xbrl, sales = small.documents, small.xbrl, small.sales
    assert list(docs.columns) == DOC_COLUMNS
    assert list(xbrl.columns) == XBRL_COLUMNS
    assert list(sales.columns) == ["ticker", "fin_trimestre", "ventas"]
    for frame, columns in ((docs, ["id_doc", "ticker", "emisor", "tipo", "texto"]),
                           (xbrl, ["id_doc", "concepto", "forma", "unidad"]), (sales, ["ticker"])):  # fmt: skip
        for column in columns:
            assert frame[column].dtype == "str", column
    for frame, column in ((docs, "periodo_fin"), (xbrl, "periodo_inicio"), (xbrl, "periodo_fin"),
                          (sales, "fin_trimestre")):  # fmt: skip
        assert pd.api.types.is_datetime64_dtype(frame[column]), column
        assert frame[column].dropna().dt.normalize().equals(frame[column].dropna()), column
    for frame in (docs, xbrl):
        dtype = frame.ts_presentacion.dtype
        assert isinstance(dtype, pd.DatetimeTZDtype) and str(dtype.tz) == "UTC"
    assert xbrl.valor.dtype == np.float64 and sales.ventas.dtype == np.float64
    assert set(docs.tipo) == {"10-K", "10-Q", "10-K/A", "10-Q/A"}
    assert set(xbrl.unidad) == {"USD", "USD/shares"}
    assert (xbrl.unidad == "USD/shares").eq(xbrl.concepto == "us-gaap:EarningsPerShareBasic").all()
    instants = xbrl.periodo_inicio.isna()
    assert instants.any() and (xbrl.periodo_inicio[~instants] <= xbrl.periodo_fin[~instants]).all()
    assert docs.ticker.str.fullmatch(r"[A-Z]{3,5}").all()
    assert docs.drop_duplicates("ticker").emisor.is_unique


def test_written_files(small, tmp_path):
    paths = small.write(tmp_path)
    assert {k: p.name for k, p in paths.items()} == {
        "documents": "filings6_documentos.parquet",
        "xbrl": "filings6_xbrl.parquet",
        "sales": "acciones6_ventas.csv",
    }
    xbrl = pd.read_parquet(paths["xbrl"])
    assert list(xbrl.columns) == XBRL_COLUMNS and len(xbrl) == len(small.xbrl)
    assert xbrl.ts_presentacion.equals(small.xbrl.ts_presentacion)
    assert pd.to_datetime(xbrl.periodo_fin).dt.as_unit("s").equals(small.xbrl.periodo_fin)
    lines = paths["sales"].read_text().splitlines()
    assert lines[0] == "ticker,fin_trimestre,ventas" and len(lines) == len(small.sales) + 1
    assert all(re.fullmatch(r"[A-Z]{3,5},\d{4}-\d{2}-\d{2},-?\d+\.\d{3}", line) for line in lines[1:])


def test_id_doc_sequential_in_acceptance_order(wide):
    docs = wide.documents
    assert docs.id_doc.tolist() == [f"D{i:06d}" for i in range(1, len(docs) + 1)]
    assert docs.ts_presentacion.is_monotonic_increasing
    xbrl = wide.xbrl.merge(docs, on="id_doc", suffixes=("", "_doc"), validate="many_to_one")
    assert len(xbrl) == len(wide.xbrl)
    assert xbrl.ts_presentacion.equals(xbrl.ts_presentacion_doc) and xbrl.forma.equals(xbrl.tipo)
    assert wide.xbrl.id_doc.is_monotonic_increasing and set(wide.xbrl.id_doc) == set(docs.id_doc)


def test_deterministic_and_prefix_stable():
    first, second = demo_data.generate(companies=4), demo_data.generate(companies=4)
    for name in ("documents", "xbrl", "sales"):
        pd.testing.assert_frame_equal(getattr(first, name), getattr(second, name))
    other_seed = demo_data.generate(companies=4, seed=8, html=False)
    assert not other_seed.sales.equals(first.sales)
    more = demo_data.generate(companies=6, html=False)
    tickers = set(first.sales.ticker)
    pd.testing.assert_frame_equal(more.sales[more.sales.ticker.isin(tickers)].reset_index(drop=True), first.sales)


def test_fourth_quarter_never_filed_as_three_months(wide):
    facts = facts_of(wide)
    fiscal_year_ends = facts[facts.days > 300].groupby("ticker").periodo_fin.agg(set)
    quarters = facts[facts.days < 120]
    assert len(quarters) > 0
    assert not any(row.periodo_fin in fiscal_year_ends[row.ticker] for row in quarters.itertuples())
    assert facts[facts.forma.str.startswith("10-K") & facts.periodo_inicio.notna()].days.min() > 300


def test_filing_contents(wide):
    facts = facts_of(wide)
    revenue = facts[facts.concepto.isin(REVENUE)]
    per_doc = revenue.groupby("id_doc").agg(n=("valor", "size"), concepts=("concepto", "nunique"))
    docs = wide.documents.set_index("id_doc").join(per_doc)
    assert (docs.concepts == 1).all()
    quarter = docs.tipo.str.startswith("10-Q")
    q1 = quarter & (revenue.groupby("id_doc").days.max().reindex(docs.index) < 120)
    assert (docs.n[q1] == 2).all() and (docs.n[quarter & ~q1] == 4).all()
    annual = docs[~quarter]
    first_annual = annual.periodo_fin == annual.groupby("ticker").periodo_fin.transform("min")
    assert (annual.n[first_annual] == 2).all() and (annual.n[~first_annual] == 3).all()
    current = facts[facts.periodo_fin == facts.doc_fin].pivot_table(
        index=["id_doc", "periodo_fin"], columns="concepto", values="valor", aggfunc="first"
    )
    assert (current["us-gaap:Assets"] - current["us-gaap:Liabilities"]).equals(current["us-gaap:StockholdersEquity"])
    assert (facts.valor[facts.unidad == "USD"] % 1000 == 0).all()
    eps = facts.valor[facts.unidad == "USD/shares"]
    assert np.allclose(eps, np.round(eps, 2), rtol=0, atol=1e-9)
    assert (facts[facts.concepto == "us-gaap:NetIncomeLoss"].valor < 0).any()


def test_year_to_date_is_sum_of_true_quarters(wide):
    facts = facts_of(wide)
    sales = wide.sales.sort_values(["ticker", "fin_trimestre"])
    amended = set(
        original_of(wide.documents, a).id_doc for a in wide.documents[wide.documents.tipo == "10-Q/A"].itertuples()
    )
    ytd = facts[
        facts.concepto.isin(REVENUE) & (facts.periodo_fin == facts.doc_fin) & facts.forma.str.startswith("10-Q")
        & ~facts.id_doc.isin(amended)
    ]  # fmt: skip
    assert len(ytd) > 0
    for row in ytd.itertuples():
        quarters = sales[(sales.ticker == row.ticker) & (sales.fin_trimestre >= row.periodo_inicio)
                         & (sales.fin_trimestre <= row.periodo_fin)]  # fmt: skip
        assert len(quarters) == round(row.days / 91) and quarters.ventas.sum() * 1e6 == pytest.approx(row.valor)


def test_fourth_quarter_from_10k_minus_nine_months_matches_sales(wide):
    facts, docs, sales = facts_of(wide), wide.documents, sales_lookup(wide)
    tenks = docs[docs.tipo == "10-K"]
    assert len(tenks) == 40 * 6
    for k in tenks.itertuples():
        annual = facts[(facts.id_doc == k.id_doc) & facts.concepto.isin(REVENUE) & (facts.periodo_fin == k.periodo_fin)]
        assert len(annual) == 1
        concept, start = annual.concepto.iloc[0], annual.periodo_inicio.iloc[0]
        if concept != "us-gaap:Revenues":  # switchers: the concept depends on the filing's fiscal year
            expected = "us-gaap:SalesRevenueNet" if k.periodo_fin.year < 2019 else REVENUE[2]
            assert concept == expected
        nine = facts[
            (facts.ticker == k.ticker) & (facts.concepto == concept) & (facts.periodo_inicio == start)
            & (facts.periodo_fin < k.periodo_fin) & facts.forma.isin(["10-Q", "10-Q/A"])
            & (facts.ts_presentacion < k.ts_presentacion)
        ]  # fmt: skip
        nine = nine[nine.periodo_fin == nine.periodo_fin.max()].sort_values("ts_presentacion")
        assert 250 < nine.days.iloc[-1] < 290
        q4 = (annual.valor.iloc[0] - nine.valor.iloc[-1]) / 1e6
        assert abs(q4 - sales[k.ticker, k.periodo_fin]) < 0.0005


def amended(facts: pd.DataFrame, docs: pd.DataFrame, a) -> tuple[float, pd.Series, pd.Series]:
    """Days from the filing an amendment amends to the amendment, and the values each gives by fact key;
    checks that the amendment comes before the company's next filing and gives the same facts."""
    original = original_of(docs, a)
    following = next_filing_after(docs, a.ticker, original.ts_presentacion, exclude=a.id_doc)
    assert following is None or a.ts_presentacion < following
    old = facts[facts.id_doc == original.id_doc].set_index(["concepto", "periodo_inicio", "periodo_fin"]).valor
    new = facts[facts.id_doc == a.id_doc].set_index(["concepto", "periodo_inicio", "periodo_fin"]).valor
    assert old.index.equals(new.index)
    return (a.ts_presentacion - original.ts_presentacion) / pd.Timedelta(days=1), old, new


def test_10q_amendments(wide):
    facts, docs, sales = facts_of(wide), wide.documents, sales_lookup(wide)
    amendments = docs[docs.tipo == "10-Q/A"]
    assert 0.05 < len(amendments) / (docs.tipo == "10-Q").sum() < 0.16
    for a in amendments.itertuples():
        days, old, new = amended(facts, docs, a)
        assert 4 < days < 21
        changed = old.index[old.to_numpy() != new.to_numpy()]
        assert all(c in REVENUE and end == a.periodo_fin for c, _start, end in changed)
        quarter = [key for key in changed if (key[2] - key[1]).days < 120]
        assert len(quarter) == 1 and len(changed) in (1, 2)
        assert abs(new[quarter[0]] / 1e6 - sales[a.ticker, a.periodo_fin]) < 0.0005
        assert 1.0099 < old[quarter[0]] / new[quarter[0]] < 1.0501
        assert len({old[key] - new[key] for key in changed}) == 1  # the quarter's error flows into the YTD


def test_10k_amendments_restate_and_carry_into_later_comparatives(wide):
    facts, docs, sales = facts_of(wide), wide.documents, wide.sales
    amendments = docs[docs.tipo == "10-K/A"]
    assert len(amendments) > 0
    for a in amendments.itertuples():
        days, old, new = amended(facts, docs, a)
        assert 19 < days < 41
        changed = old.index[old.to_numpy() != new.to_numpy()]
        assert {c in REVENUE or c == "us-gaap:NetIncomeLoss" for c, _s, _e in changed} == {True}
        assert {end for _c, _s, end in changed} == {a.periodo_fin} and len(changed) == 2
        (rev_key,) = [key for key in changed if key[0] in REVENUE]
        ratio = new[rev_key] / old[rev_key]
        assert 1.0199 < ratio < 1.0601
        start = rev_key[1]
        # the next 10-K (if any) reports this year as FY-1 on the restated basis (up to rounding to the million)
        later = facts[(facts.ticker == a.ticker) & (facts.forma == "10-K") & (facts.ts_presentacion > a.ts_presentacion)
                      & facts.concepto.isin(REVENUE) & (facts.periodo_inicio == start)]  # fmt: skip
        for value in later.valor:
            assert abs(value / new[rev_key] - 1) < 0.005 and abs(value / old[rev_key] - 1) > 0.015
        # the next year's 10-Qs report this year's quarters and year-to-date multiplied by the same factor
        quarterly = facts[(facts.ticker == a.ticker) & facts.forma.str.startswith("10-Q") & facts.concepto.isin(REVENUE)
                          & (facts.periodo_inicio >= start) & (facts.periodo_fin < a.periodo_fin)
                          & (facts.doc_fin > a.periodo_fin)]  # fmt: skip
        for row in quarterly.itertuples():
            in_period = (sales.ticker == a.ticker) & sales.fin_trimestre.between(row.periodo_inicio, row.periodo_fin)
            assert abs(row.valor / (sales.ventas[in_period].sum() * 1e6 * ratio) - 1) < 0.005


def test_comparatives_sometimes_rounded_to_the_million(wide):
    facts = facts_of(wide)
    restated = {(a.ticker, a.periodo_fin) for a in wide.documents[wide.documents.tipo == "10-K/A"].itertuples()}
    sales = sales_lookup(wide)
    prior = facts[facts.concepto.isin(REVENUE) & (facts.days < 120) & (facts.periodo_fin < facts.doc_fin)]
    prior = prior[[(t, e) in sales for t, e in zip(prior.ticker, prior.periodo_fin, strict=True)]]
    restated_year = [
        any(t == rt and e < re and e > re - pd.Timedelta(days=370) for rt, re in restated)
        for t, e in zip(prior.ticker, prior.periodo_fin, strict=True)
    ]
    prior = prior[~np.array(restated_year, dtype=bool)]
    truth = np.array([sales[t, e] * 1e6 for t, e in zip(prior.ticker, prior.periodo_fin, strict=True)])
    same = np.isclose(prior.valor, truth, rtol=0, atol=0.5)
    rounded = (prior.valor % 1e6 == 0) & (np.abs(prior.valor / truth - 1) < 0.005)
    assert (same | rounded).all()
    comparatives = facts[(facts.unidad == "USD") & (facts.periodo_fin < facts.doc_fin)]
    share = (comparatives.valor % 1e6 == 0).mean()
    assert 0.05 < share < 0.3


def test_acceptance_times(wide):
    docs = wide.documents
    local = docs.ts_presentacion.dt.tz_convert(NY)
    clock = local.dt.time
    assert ((clock >= time(6)) & (clock < time(22))).all()
    assert (clock > time(17, 30)).any() and (docs.ts_presentacion.dt.hour == 0).any()
    assert not docs.duplicated(["ticker", "ts_presentacion"]).any()
    lag = (local.dt.tz_localize(None).dt.normalize() - docs.periodo_fin).dt.days
    assert lag[docs.tipo == "10-Q"].between(25, 45).all() and lag[docs.tipo == "10-K"].between(55, 80).all()


def test_fiscal_calendars(wide):
    docs = wide.documents
    ends = docs[docs.tipo == "10-K"].groupby("ticker").periodo_fin.agg(list)
    kinds = {}
    for ticker, dates in ends.items():
        if all(d.month == 12 and d.day == 31 for d in dates):
            kinds[ticker] = "calendar"
        elif all(d.month == 6 and d.day == 30 for d in dates):
            kinds[ticker] = "june"
        else:
            assert all(d.month == 9 and d.day >= 24 and d.day_of_week == 5 for d in dates), ticker
            kinds[ticker] = "52-53"
            quarters = docs[(docs.ticker == ticker) & (docs.tipo == "10-Q")].periodo_fin
            assert (quarters.dt.day_of_week == 5).all()
            lengths = {(b - a).days for a, b in zip(dates, dates[1:], strict=False)}
            assert lengths <= {364, 371}
    assert set(kinds.values()) == {"calendar", "june", "52-53"}
    assert list(kinds.values()).count("calendar") > len(kinds) / 2
    assert docs[docs.tipo == "10-Q"].periodo_fin.groupby(docs.ticker).nunique().eq(18).all()


def test_rapsa_and_busmar_hogar(wide):
    docs, facts = wide.documents, facts_of(wide)
    first_two = docs.drop_duplicates("ticker").set_index("ticker").emisor
    assert first_two["RPS"] == "Rapsa" and first_two["BSMH"] == "Busmar Hogar"
    rapsa = docs[docs.ticker == "RPS"]
    assert {"10-K/A", "10-Q/A"} <= set(rapsa.tipo)
    assert ((rapsa.periodo_fin.dt.month == 12) & (rapsa.periodo_fin.dt.day == 31))[rapsa.tipo == "10-K"].all()
    rapsa_revenue = facts[(facts.ticker == "RPS") & facts.concepto.isin(REVENUE)]
    concept_by_year = rapsa_revenue.groupby(rapsa_revenue.doc_fin.dt.year).concepto.agg(set)
    for year, concepts in concept_by_year.items():
        assert concepts == ({"us-gaap:SalesRevenueNet"} if year < 2019 else {REVENUE[2]}), year
    busmar = docs[docs.ticker == "BSMH"]
    assert (busmar[busmar.tipo == "10-K"].periodo_fin.dt.strftime("%m-%d") == "06-30").all()
    assert set(busmar[busmar.tipo == "10-Q"].periodo_fin.dt.strftime("%m-%d")) == {"09-30", "12-31", "03-31"}


def test_sales_rows(wide):
    sales = wide.sales
    assert len(sales) == 40 * 6 * 4 and not sales.duplicated(["ticker", "fin_trimestre"]).any()
    assert np.allclose(sales.ventas * 1000, np.round(sales.ventas * 1000), atol=1e-6)
    assert sales.ventas.gt(0).all()
    assert sales.groupby("ticker").size().eq(24).all()


def test_extra_concepts_add_rows():
    base = demo_data.generate(companies=3, html=False)
    extra = demo_data.generate(companies=3, html=False, extra_concepts=30)
    assert (base.documents.texto == "").all()
    revenue_facts = base.xbrl.concepto.isin(REVENUE).sum()
    assert len(extra.xbrl) - len(base.xbrl) == 30 * revenue_facts
    names = set(extra.xbrl.concepto) - set(base.xbrl.concepto)
    assert len(names) == 30 and "us-gaap:SellingGeneralAndAdministrativeExpense" in names
    assert {n for n in names if n.startswith("fsx:")} == {f"fsx:LineItem{i}" for i in range(1, 31 - 25)}
    pd.testing.assert_frame_equal(extra.sales, base.sales)


def test_html(small):
    docs, facts = small.documents, facts_of(small)
    size = docs.texto.str.encode("utf-8").str.len()
    assert size.between(3000, 15000).all()
    for d in docs.itertuples():
        head = f"<html><body><h1>{d.emisor} — Form {d.tipo} — period ended {d.periodo_fin.date().isoformat()}</h1>\n"
        assert d.texto.startswith(head) and d.texto.endswith("</body></html>")
        after_head = d.texto[len(head) :]
        assert after_head.startswith("<p><b>Explanatory Note.</b>") == d.tipo.endswith("/A")
        items = re.findall(r"<h2>(.*?)</h2>", d.texto)
        if d.tipo.startswith("10-K"):
            assert [i.split(".")[0] for i in items] == ["Item 1", "Item 1A", "Item 7", "Item 8"]
            match = re.search(r"Revenue for fiscal (\d{4}) was \$([\d,.]+) million, compared with \$([\d,.]+) million "
                              r"in fiscal (\d{4})", d.texto)  # fmt: skip
            annual = facts[(facts.id_doc == d.id_doc) & facts.concepto.isin(REVENUE)].sort_values("periodo_fin")
            assert match.group(2) == millions(annual.valor.iloc[-1])
            assert match.group(3) == millions(annual.valor.iloc[-2])
            assert int(match.group(1)) == int(match.group(4)) + 1
            assert re.search(r"<td>[\d,.()]+<sup>1</sup></td>", d.texto) and "<p><sup>2</sup> " in d.texto
        else:
            assert [i.split(".")[0] for i in items] == ["Part I — Item 1", "Part I — Item 2", "Part II — Item 1A"]
            match = re.search(r"Revenue for the (first|second|third) quarter of fiscal \d{4} was \$([\d,.]+) million",
                              d.texto)  # fmt: skip
            quarter = facts[(facts.id_doc == d.id_doc) & facts.concepto.isin(REVENUE) & (facts.days < 120)
                            & (facts.periodo_fin == d.periodo_fin)]  # fmt: skip
            assert match.group(2) == millions(quarter.valor.iloc[0])
        assert d.emisor in after_head


def test_cli_script(tmp_path):
    root = Path(__file__).resolve().parents[1]
    command = [sys.executable, "scripts/generate_course_data.py", "--out", str(tmp_path), "--companies", "3"]
    command += ["--start-year", "2020", "--end-year", "2020", "--no-html"]
    result = subprocess.run(command, cwd=root, capture_output=True, text=True, check=True)
    written = {Path(line.split("\t")[0]).name: line.split("\t")[1] for line in result.stdout.splitlines()}
    assert written["acciones6_ventas.csv"] == "12 rows"
    docs = pd.read_parquet(tmp_path / "filings6_documentos.parquet")
    assert written["filings6_documentos.parquet"] == f"{len(docs)} rows"
    assert {"10-K/A", "10-Q/A"} <= set(docs[docs.ticker == "RPS"].tipo)
