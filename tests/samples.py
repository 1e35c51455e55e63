"""Small synthetic inputs several test files share: course files, SEC companyfacts and submissions JSON, and
filing-like texts."""

from __future__ import annotations

import random
from pathlib import Path

import pandas as pd


# ----------------------------------------------------------------------------- course files
def course_docs() -> pd.DataFrame:
    """Two course filings of Rapsa (a 10-Q and a 10-K), as filings6_documentos has them."""
    return pd.DataFrame({"id_doc": ["D000001", "D000002"], "ticker": ["RPS", "RPS"],
                         "emisor": ["Rapsa", "Rapsa"], "tipo": ["10-Q", "10-K"],
                         "periodo_fin": ["2019-03-31", "2019-12-31"], "texto": ["<h2>Item 2</h2>", ""]})


def course_xbrl() -> pd.DataFrame:
    """Their three facts, as filings6_xbrl has them (dates as strings)."""
    return pd.DataFrame({
        "id_doc": ["D000001", "D000002", "D000002"],
        "concepto": ["us-gaap:Revenues"] * 3,
        "periodo_inicio": ["2019-01-01", "2019-01-01", None],
        "periodo_fin": ["2019-03-31", "2019-12-31", "2019-12-31"],
        "valor": [100.0, 420.0, 7.0],
        "ts_presentacion": ["2019-04-30T21:00:00Z", "2020-02-20T14:00:00+00:00", "2020-02-20T14:00:00Z"],
        "forma": ["10-Q", "10-K", "10-K"],
    })


def course_store_file(folder: Path) -> Path:
    """A store file in `folder` holding the two course files, loaded by the command line as a user would."""
    from factstore.cli import main

    course_xbrl().to_parquet(folder / "x.parquet")
    course_docs().to_parquet(folder / "d.parquet")
    path = folder / "store.duckdb"
    assert main(["load", "course", "--xbrl", str(folder / "x.parquet"), "--documents", str(folder / "d.parquet"),
                 "--db", str(path)]) == 0
    return path


# ----------------------------------------------------------------------------- SEC JSON
def companyfacts(cik: int, accessions: list[str], name: str = "Co") -> dict:
    """A small companyfacts document: a year's revenue and an instant per accession."""
    revenue, assets = [], []
    for i, accn in enumerate(accessions):
        year = 2019 + i
        revenue.append({"start": f"{year}-01-01", "end": f"{year}-12-31", "val": 100 + i, "accn": accn,
                        "form": "10-K", "filed": f"{year + 1}-02-03"})
        assets.append({"end": f"{year}-12-31", "val": 1000 + i, "accn": accn, "form": "10-K",
                       "filed": f"{year + 1}-02-03"})
    return {"cik": cik, "entityName": name, "facts": {"us-gaap": {
        "Revenues": {"label": "Revenues", "units": {"USD": revenue}},
        "Assets": {"units": {"USD": assets}}}, "dei": {
        "EntityCommonStockSharesOutstanding": {"units": {"shares": [{**assets[0], "val": 7}]}}}}}


def listing(accessions: list[str], hour: int, first_year: int = 2020) -> dict[str, list]:
    """Submissions columns for these accessions, filed on February 3 of a year each from `first_year`, each accepted at
    `hour`:00 UTC on its filing date."""
    days = [f"{first_year + i}-02-03" for i in range(len(accessions))]
    return {"accessionNumber": accessions, "filingDate": days, "form": ["10-K"] * len(days),
            "acceptanceDateTime": [f"{d}T{hour:02d}:00:00.000Z" for d in days], "reportDate": [""] * len(days),
            "primaryDocument": ["x.htm"] * len(days), "isXBRL": [1] * len(days)}


def submissions(cik: int, accessions: list[str], ticker: str, hour: int, first_year: int = 2020) -> dict:
    return {"cik": f"{cik:010d}", "name": ticker.title(), "tickers": [ticker],
            "filings": {"recent": listing(accessions, hour, first_year), "files": []}}


# ----------------------------------------------------------------------------- texts
_COMPANIES = ["Iberdrola", "Telefónica", "Inditex", "Repsol", "Ferrovial", "Apple", "Microsoft", "Alphabet"]
_SPANISH = [
    "Los ingresos netos de {co} crecieron un {pct} % en {year} hasta {num} millones de euros.",
    "El beneficio operativo de {co} alcanzó {num} millones en el ejercicio {year}, según el informe anual.",
    "La compañía {co} redujo su deuda financiera neta a {num} millones y mejoró su margen óptimo.",
    "{co} prevé un crecimiento moderado de las ventas en España y Latinoamérica durante {year}.",
    "El consejo de administración de {co} propone un dividendo de {dec} euros por acción.",
    "La inversión en energías renovables supuso {num} millones, un {pct} % más que en {year}.",
]
_ENGLISH = [
    "{co} reported net revenue of ${num} million for fiscal {year}, up {pct}% year over year.",
    "Operating income at {co} increased to ${num} million in {year}, driven by higher iPhone sales.",
    "The company expects capital expenditures of approximately ${num} million in {year}.",
    "{co}'s board approved a dividend of ${dec} per share payable in {year}.",
    "Risk factors include currency exchange rates, interest rates and regulatory changes.",
    "Cloud services revenue grew {pct}% as data center capacity expanded in {year}.",
]


def filing_texts(n: int = 300, seed: int = 11) -> list[str]:
    """Short Spanish and English filing-like texts; 'cifras' and 'millones' are in most of them, so their
    idf is negative and BM25Okapi's epsilon rule applies."""
    rng = random.Random(seed)
    texts = []
    for _ in range(n):
        templates = _SPANISH if rng.random() < 0.55 else _ENGLISH
        sentences = [t.format(co=rng.choice(_COMPANIES), year=rng.randint(2015, 2024), pct=rng.randint(1, 40),
                              num=rng.randint(10, 9000), dec=f"{rng.randint(0, 3)},{rng.randint(10, 99)}")
                     for t in rng.sample(templates, rng.randint(1, 3))]
        if rng.random() < 0.8:
            sentences.append("Cifras en millones.")
        texts.append(" ".join(sentences))
    return texts
