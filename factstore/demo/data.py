"""Deterministic generator of realistic demo data in the course's filings schema.

It produces the three course files for fictitious, Spanish-flavoured companies with
calendar, June and 52/53-week fiscal years:

* ``filings6_documentos.parquet``: one row per 10-Q, 10-K, 10-Q/A and 10-K/A (with HTML);
* ``filings6_xbrl.parquet``: the facts each filing reports, as a real filer reports them
  (quarter and year-to-date figures with prior-year comparatives, never a 3-month fourth
  quarter, misreported 10-Qs corrected by 10-Q/As, 10-K/A restatements carried into later
  comparatives, comparatives occasionally re-reported rounded to the million);
* ``acciones6_ventas.csv``: the true discrete quarterly revenue, in millions.

In memory the date columns are ``datetime64[s]`` (midnight) and acceptance times
``datetime64[us, UTC]``; :meth:`CourseData.write` stores dates as parquet ``date32``.
"""

from __future__ import annotations

import unicodedata
from calendar import monthrange
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from itertools import product
from pathlib import Path
from string import ascii_uppercase
from zoneinfo import ZoneInfo

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from tqdm.auto import tqdm

__all__ = ["CourseData", "generate", "write_course_files"]

DOCUMENTS_FILE = "filings6_documentos.parquet"
XBRL_FILE = "filings6_xbrl.parquet"
SALES_FILE = "acciones6_ventas.csv"

NEW_YORK = ZoneInfo("America/New_York")
REVENUE_SWITCH_YEAR = 2019  # switchers use ASC 606 revenue concept from this fiscal year on

_EPOCH_ORDINAL = date(1970, 1, 1).toordinal()
_STR = pd.StringDtype("pyarrow", na_value=np.nan)

# Duration line items (index k of the truth array); extra line items follow from 4 on.
_REV, _COST, _OPINC, _NI = 0, 1, 2, 3
# Instant line items.
_ASSETS, _LIAB, _EQUITY, _CASH = 0, 1, 2, 3
# Fact kinds and forms.
_DUR, _EPS, _INST = 0, 1, 2
_10Q, _10K, _10QA, _10KA = 0, 1, 2, 3
_FORMS = ("10-Q", "10-K", "10-Q/A", "10-K/A")
_CALENDAR_YEAR, _JUNE, _WEEKS_52_53 = 0, 1, 2

_CONCEPTS = (
    "us-gaap:Revenues",
    "us-gaap:SalesRevenueNet",
    "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax",
    "us-gaap:CostOfRevenue",
    "us-gaap:OperatingIncomeLoss",
    "us-gaap:NetIncomeLoss",
    "us-gaap:EarningsPerShareBasic",
    "us-gaap:Assets",
    "us-gaap:Liabilities",
    "us-gaap:StockholdersEquity",
    "us-gaap:CashAndCashEquivalentsAtCarryingValue",
)
_EPS_CODE, _INST_CODE, _EXTRA_CODE = 6, 7, len(_CONCEPTS)
_EXTRA_NAMES = (
    "SellingGeneralAndAdministrativeExpense",
    "ResearchAndDevelopmentExpense",
    "InterestExpense",
    "IncomeTaxExpenseBenefit",
    "DepreciationDepletionAndAmortization",
    "SellingAndMarketingExpense",
    "GeneralAndAdministrativeExpense",
    "AdvertisingExpense",
    "ShareBasedCompensation",
    "RestructuringCharges",
    "AmortizationOfIntangibleAssets",
    "Depreciation",
    "LaborAndRelatedExpense",
    "OperatingLeaseCost",
    "OperatingExpenses",
    "CostsAndExpenses",
    "InvestmentIncomeInterest",
    "InterestPaidNet",
    "IncomeTaxesPaidNet",
    "NetCashProvidedByUsedInOperatingActivities",
    "PaymentsToAcquirePropertyPlantAndEquipment",
    "PaymentsOfDividends",
    "RepaymentsOfLongTermDebt",
    "ProceedsFromIssuanceOfLongTermDebt",
    "ComprehensiveIncomeNetOfTax",
)

_INDUSTRIES = ("retail", "energy", "banking", "telecom", "pharma", "construction", "tourism", "food")
_PREFIXES = (
    "Al", "Ar", "Bal", "Bel", "Bus", "Cal", "Can", "Cor", "Dor", "El", "Fer", "Gal", "Lan", "Lor",
    "Mar", "Mon", "Nav", "Ol", "Par", "Rap", "Sal", "Ser", "Tal", "Tor", "Val", "Ver", "Vil", "Zar",
)  # fmt: skip
_SUFFIXES = ("sa", "mar", "mo", "ca", "ria", "dal", "ver", "tec", "nor", "via", "bra", "lia", "cor", "sur", "don")
_PATTERNS = (
    ("{}", None), ("Grupo {}", None), ("{} Industrial", None), ("Corporación {}", None),
    ("{} Hogar", "retail"), ("Almacenes {}", "retail"), ("{} Moda", "retail"), ("Supermercados {}", "retail"),
    ("{} Energía", "energy"), ("Petróleos {}", "energy"), ("{} Renovables", "energy"), ("Eléctrica {}", "energy"),
    ("Banco {}", "banking"), ("Caja {}", "banking"), ("{} Financiera", "banking"), ("{} Capital", "banking"),
    ("{} Telecom", "telecom"), ("{} Redes", "telecom"), ("{} Comunicaciones", "telecom"), ("{} Móvil", "telecom"),
    ("Laboratorios {}", "pharma"), ("{} Farma", "pharma"), ("{} Biotech", "pharma"), ("{} Salud", "pharma"),
    ("Construcciones {}", "construction"), ("{} Infraestructuras", "construction"),
    ("Cementos {}", "construction"), ("{} Obras", "construction"),
    ("Hoteles {}", "tourism"), ("Viajes {}", "tourism"), ("{} Turismo", "tourism"), ("{} Resorts", "tourism"),
    ("Cervecera {}", "food"), ("Conservas {}", "food"), ("Bodegas {}", "food"), ("{} Alimentación", "food"),
)  # fmt: skip
_FIXED_COMPANIES = (("Rapsa", "Rapsa", None), ("Busmar Hogar", "Busmar", "retail"))

# Relative revenue by calendar quarter (Jan-Mar, Apr-Jun, Jul-Sep, Oct-Dec).
_SEASON = {
    "retail": (0.92, 0.95, 0.95, 1.18),
    "energy": (1.12, 0.9, 0.93, 1.05),
    "banking": (1.0, 1.0, 0.99, 1.01),
    "telecom": (0.99, 1.0, 1.0, 1.01),
    "pharma": (1.02, 1.0, 0.96, 1.02),
    "construction": (0.9, 1.04, 1.02, 1.04),
    "tourism": (0.72, 1.06, 1.38, 0.84),
    "food": (0.93, 1.05, 1.08, 0.94),
}
# Revenue shock for quarters ending between April 2020 and March 2021.
_SHOCK_2020 = {"tourism": 0.45, "energy": 0.8, "retail": 0.9}
_SHOCK_START = date(2020, 4, 1).toordinal() - _EPOCH_ORDINAL
_SHOCK_END = date(2021, 3, 31).toordinal() - _EPOCH_ORDINAL

_CITIES = (
    "Madrid", "Barcelona", "Valencia", "Sevilla", "Bilbao", "Zaragoza", "Málaga", "Valladolid",
    "Oviedo", "A Coruña", "Palma", "Murcia", "Pamplona", "Santander", "Vigo",
)  # fmt: skip
_ACTIVITY = {
    "retail": ((50, 800), "{name} operates {n} stores in Spain and Portugal selling home furnishings, apparel and "
               "household goods, complemented by an online channel that serves customers across Iberia."),
    "energy": ((10, 60), "{name} generates, distributes and markets electricity and natural gas, operating a "
               "portfolio of {n} plants that includes combined-cycle, wind and solar facilities."),
    "banking": ((100, 1500), "{name} is a retail and commercial bank serving individuals, small businesses and "
                "corporate clients through a network of {n} branches and its digital banking platform."),
    "telecom": ((500, 9000), "{name} provides fixed broadband, mobile, television and enterprise connectivity "
                "services, with a fibre network that passes approximately {n} thousand homes."),
    "pharma": ((20, 200), "{name} researches, develops, manufactures and markets prescription medicines and "
               "consumer health products, with {n} products marketed in Europe and Latin America."),
    "construction": ((30, 400), "{name} designs and builds civil infrastructure and residential and "
                     "non-residential buildings, with {n} projects in progress in Spain and abroad."),
    "tourism": ((15, 150), "{name} operates {n} hotels and resorts in the Balearic and Canary Islands, mainland "
                "Spain and the Caribbean, together with a travel agency business."),
    "food": ((10, 200), "{name} produces and distributes beverages and packaged foods sold under its own brands "
             "and private labels through some {n} thousand points of sale."),
}  # fmt: skip
_FISCAL_YEAR_TEXT = (
    "Our fiscal year ends on December 31.",
    "Our fiscal year ends on June 30.",
    "Our fiscal year ends on the last Saturday of September; fiscal years comprise 52 or 53 weeks, and each "
    "of the first three fiscal quarters comprises 13 weeks.",
)
_IMPACTS = (
    "materially and adversely affect",
    "adversely affect",
    "significantly harm",
    "have a material adverse effect on",
)
_GENERAL_RISKS = (
    ("Economic conditions in Spain and the euro area could reduce demand.",
     "A slowdown in consumer spending, rising unemployment or a contraction of credit in Spain and the rest of "
     "the euro area could reduce demand for the products and services of {name} and {impact} its results."),
    ("Changes in interest rates and inflation may increase our costs.",
     "{name} is exposed to changes in market interest rates on its variable-rate borrowings and to inflation in "
     "wages, energy and materials; if {name} cannot pass these increases on to customers, margins could decline."),
    ("Fluctuations in exchange rates could affect our reported results.",
     "Although {name} reports in U.S. dollars, most of its revenue and costs are denominated in euros, and "
     "movements in the euro-dollar exchange rate could {impact} reported revenue and earnings."),
    ("Cybersecurity incidents could disrupt our operations.",
     "{name} relies on information systems to process transactions, manage its supply chain and store personal "
     "data; a breach, ransomware attack or prolonged outage could {impact} its operations and its reputation."),
    ("We depend on key personnel.",
     "The success of {name} depends on the continued service of its senior management and on its ability to "
     "attract and retain qualified employees; the loss of key people could {impact} the execution of its strategy."),
    ("Changes in tax laws and regulations could affect our results.",
     "{name} is subject to taxation in Spain and other jurisdictions; changes in tax rates, new tax legislation "
     "or adverse outcomes of tax audits could increase its effective tax rate and {impact} its net income."),
    ("Our indebtedness could limit our flexibility.",
     "The indebtedness of {name} could limit its ability to obtain additional financing, require it to dedicate "
     "a substantial portion of its cash flow to debt service and {impact} its competitive position."),
    ("Public-health crises could disrupt our business.",
     "Pandemics and other public-health emergencies, and the measures adopted to contain them, have in the past "
     "affected and could again {impact} the operations, supply chain and customer demand of {name}."),
    ("Climate change and extreme weather may affect our operations.",
     "Droughts, floods, heat waves and other extreme weather events, as well as regulations adopted to address "
     "climate change, could increase the costs of {name} or disrupt its facilities and those of its suppliers."),
    ("We may be subject to litigation and regulatory proceedings.",
     "From time to time {name} is involved in legal proceedings, claims and investigations; an unfavourable "
     "outcome could require significant payments, divert management attention and {impact} its results."),
    ("Material weaknesses in internal control could affect investor confidence.",
     "If {name} fails to maintain effective internal control over financial reporting, it may not be able to "
     "report its results accurately or on time, which could {impact} the trading price of its shares."),
    ("The price of our shares may be volatile.",
     "The market price of the shares of {name} may fluctuate significantly in response to quarterly variations "
     "in results, changes in analysts' estimates, announcements by competitors and general market conditions."),
)  # fmt: skip
_INDUSTRY_RISKS = {
    "retail": (
        ("Competition from online retailers could reduce our market share.",
         "{name} faces intense competition from international e-commerce platforms and discount chains, which "
         "could pressure prices and {impact} the sales of its stores."),
        ("Our results depend on the holiday season.",
         "A significant share of the annual revenue of {name} is generated during the Christmas and January sales "
         "periods; weak demand or disruptions during these weeks could {impact} full-year results."),
        ("Disruptions in our supply chain could leave our stores without inventory.",
         "{name} sources a large portion of its merchandise from suppliers in Asia; port congestion, higher "
         "freight rates or supplier failures could delay deliveries and {impact} its margins."),
    ),
    "energy": (
        ("Volatile commodity prices affect our revenue and margins.",
         "The revenue of {name} is closely linked to wholesale prices of electricity, natural gas and crude oil, "
         "which are volatile and outside its control; a sustained decline could {impact} its cash flows."),
        ("Regulatory changes in the Spanish electricity market could reduce our returns.",
         "Changes to the remuneration of regulated activities, windfall taxes or price caps adopted by Spanish or "
         "European authorities could {impact} the returns of {name} on its investments."),
        ("Our generation assets are exposed to operational risks.",
         "Breakdowns, accidents or low wind and hydro resources could reduce the output of the plants operated by "
         "{name} and require costly repairs or purchases of energy at market prices."),
    ),
    "banking": (
        ("Deterioration in credit quality could increase our impairment losses.",
         "An increase in defaults by households and small businesses, particularly in the mortgage portfolio, "
         "would require {name} to increase its loan-loss provisions and could {impact} its profitability."),
        ("Low interest rates compress our net interest margin.",
         "A prolonged period of low interest rates in the euro area reduces the margin that {name} earns between "
         "the interest on its loans and the cost of its deposits, and could {impact} its earnings."),
        ("We are subject to extensive prudential regulation.",
         "{name} must comply with capital, liquidity and resolution requirements set by the European Central Bank "
         "and the Bank of Spain; stricter requirements could force it to raise capital or restrict dividends."),
    ),
    "telecom": (
        ("Intense price competition could erode our average revenue per user.",
         "Low-cost operators and convergent bundles offered by larger competitors could force {name} to lower its "
         "tariffs and {impact} its revenue per customer."),
        ("We require substantial capital expenditure to upgrade our networks.",
         "The deployment of fibre and 5G networks requires significant investments by {name}, which may not "
         "generate the expected returns and could {impact} its free cash flow."),
        ("We depend on spectrum licences granted by the government.",
         "The inability of {name} to renew its spectrum licences on acceptable terms, or to obtain additional "
         "spectrum in future auctions, could limit its ability to offer services."),
    ),
    "pharma": (
        ("Our product candidates may fail in clinical trials.",
         "Drug development is lengthy and uncertain, and product candidates of {name} that appear promising in "
         "early trials may fail to demonstrate safety or efficacy in later stages."),
        ("Government pricing controls could reduce our revenue.",
         "Reference pricing, mandatory discounts and other cost-containment measures adopted by public health "
         "systems could {impact} the prices that {name} obtains for its medicines."),
        ("Loss of patent protection would expose our products to generic competition.",
         "When patents covering the main products of {name} expire, generic and biosimilar manufacturers may "
         "enter the market and {impact} its sales."),
    ),
    "construction": (
        ("Cost overruns on fixed-price contracts could reduce our margins.",
         "Many contracts of {name} are awarded at fixed prices; increases in the cost of materials, labour or "
         "energy not anticipated when bidding could result in losses on those projects."),
        ("We depend on public-sector investment.",
         "A significant part of the backlog of {name} relates to infrastructure commissioned by public "
         "administrations, and budget cuts or delays in tenders could {impact} its order intake."),
        ("Delays in collecting receivables could strain our liquidity.",
         "Public and private customers of {name} may delay payments for certified work, increasing its "
         "working-capital needs and borrowing costs."),
    ),
    "tourism": (
        ("Our business is highly seasonal and sensitive to travel demand.",
         "Most of the revenue of {name} is earned during the summer season; poor weather, travel restrictions or "
         "a decline in international arrivals to Spain could {impact} its annual results."),
        ("Geopolitical events and health alerts may deter travellers.",
         "Terrorist attacks, political instability or health alerts in its destinations could lead to "
         "cancellations and reduced bookings at {name}."),
        ("We depend on tour operators and airlines.",
         "{name} relies on tour operators, online travel agencies and airline capacity to reach its customers; "
         "the failure of a major partner could {impact} its occupancy."),
    ),
    "food": (
        ("Increases in the cost of raw materials could reduce our margins.",
         "{name} purchases agricultural commodities, packaging and energy whose prices are volatile; it may be "
         "unable to pass cost increases on to its customers in a timely manner."),
        ("Our customers are concentrated among large retail chains.",
         "A small number of supermarket chains account for a large share of the sales of {name}, and their "
         "bargaining power and private-label products could {impact} its prices and volumes."),
        ("Food-safety incidents could harm our reputation.",
         "Contamination, product recalls or labelling errors could expose {name} to liability, damage its brands "
         "and {impact} consumer demand for its products."),
    ),
}  # fmt: skip


@dataclass(frozen=True, eq=False)
class CourseData:
    """The three course tables, in memory."""

    documents: pd.DataFrame
    xbrl: pd.DataFrame
    sales: pd.DataFrame

    def write(self, out_dir: str | Path) -> dict[str, Path]:
        """Write the course files into ``out_dir``; return their paths."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        paths = {"documents": out / DOCUMENTS_FILE, "xbrl": out / XBRL_FILE, "sales": out / SALES_FILE}
        _write_parquet(self.documents, paths["documents"])
        _write_parquet(self.xbrl, paths["xbrl"])
        self.sales.to_csv(paths["sales"], index=False, date_format="%Y-%m-%d", float_format="%.3f", lineterminator="\n")
        return paths


@dataclass(frozen=True)
class _Company:
    name: str
    ticker: str
    industry: str
    calendar: int
    switcher: bool


def write_course_files(out_dir: str | Path, **kwargs) -> dict[str, Path]:
    """Generate the data set (``kwargs`` as for :func:`generate`) and write it into ``out_dir``."""
    return generate(**kwargs).write(out_dir)


def generate(
    companies: int = 40,
    start_year: int = 2018,
    end_year: int = 2023,
    seed: int = 7,
    extra_concepts: int = 0,
    html: bool = True,
) -> CourseData:
    """Generate filings of fiscal years ``start_year``..``end_year`` for ``companies`` companies.

    The same arguments always give identical frames; a company's data do not depend on how
    many companies follow it.
    """
    if companies < 1 or end_year < start_year or extra_concepts < 0 or seed < 0:
        raise ValueError("need companies >= 1, end_year >= start_year, extra_concepts >= 0, seed >= 0")
    years = np.arange(start_year - 1, end_year + 1)  # truth includes the year before the first filed one
    n_years, n_dur = len(years), 4 + extra_concepts
    dur = np.empty((companies, n_dur, n_years, 4), np.int64)
    inst = np.empty((companies, 4, n_years, 4), np.int64)
    shares = np.empty((companies, n_years, 4))
    qstart = np.empty((companies, n_years, 4), np.int64)
    qend = np.empty((companies, n_years, 4), np.int64)
    restate = np.ones((companies, n_years))
    infos: list[_Company] = []
    filings: list[tuple[int, ...]] = []
    used_tickers: set[str] = set()
    for i, (name, base, industry) in enumerate(
        tqdm(_company_names(companies, seed), desc="companies", unit="co", disable=None, leave=False)
    ):
        rng = np.random.default_rng([seed, i])
        info = _profile(i, name, base, industry, used_tickers, rng)
        infos.append(info)
        first = len(filings)
        for row in _simulate(i, info, years, rng, dur, inst, shares, qstart, qend, restate):
            kind, seq, orig = row[0], row[6], row[7]
            filings.append((i, kind, *row[1:6], first + orig if orig >= 0 else -1, seq if orig < 0 else orig))
    f = np.array(filings, np.int64).T
    f_company, f_kind, f_year, f_q, f_day, f_sec, f_err, f_orig, f_key = f
    local = (f_day * 86400 + f_sec).astype("datetime64[s]")
    ts = pd.DatetimeIndex(local).tz_localize(NEW_YORK).tz_convert("UTC").as_unit("us")
    order = np.lexsort((f_key, f_company, ts.asi8))
    rev_code = np.where(np.array([c.switcher for c in infos])[:, None], np.where(years < REVENUE_SWITCH_YEAR, 1, 2), 0)
    facts = _facts(
        (f_company, f_kind, f_year, f_q, f_err, f_key), order, dur, inst, shares, qstart, qend, restate,
        rev_code, seed,
    )  # fmt: skip
    id_doc = [f"D{r + 1:06d}" for r in range(len(order))]
    c_ord = f_company[order]
    doc_end = qend[f_company, f_year, f_q][order].astype("datetime64[D]").astype("datetime64[s]")
    texts = (
        _html_texts(infos, (f_company, f_kind, f_year, f_q, f_orig), order, facts, years, local, seed)
        if html
        else [""] * len(order)
    )
    documents = pd.DataFrame(
        {
            "id_doc": pd.Series(id_doc, dtype=_STR),
            "ticker": pd.Series([infos[c].ticker for c in c_ord], dtype=_STR),
            "emisor": pd.Series([infos[c].name for c in c_ord], dtype=_STR),
            "tipo": pd.Series([_FORMS[k] for k in f_kind[order]], dtype=_STR),
            "periodo_fin": doc_end,
            "texto": pd.Series(texts, dtype=_STR),
            "ts_presentacion": ts[order],
        }
    )
    names = [*_CONCEPTS, *_extra_concept_names(extra_concepts)]
    row_doc = pa.array(facts.row_doc)
    ts_rows = ts.asi8[order][facts.row_doc].view("datetime64[us]")
    xbrl = pd.DataFrame(
        {
            "id_doc": _take(id_doc, row_doc),
            "concepto": _take(names, pa.array(facts.code)),
            "periodo_inicio": facts.start.astype("datetime64[s]"),
            "periodo_fin": facts.end.astype("datetime64[s]"),
            "valor": facts.value,
            "ts_presentacion": pd.DatetimeIndex(ts_rows).tz_localize("UTC"),
            "forma": _take(_FORMS, pa.array(f_kind[order]).take(row_doc)),
            "unidad": _take(("USD", "USD/shares"), pa.array((facts.code == _EPS_CODE).astype(np.int8))),
        }
    )
    return CourseData(documents, xbrl, _sales(infos, years, dur, qend))


# --------------------------------------------------------------------------- companies


def _company_names(n: int, seed: int) -> list[tuple[str, str, str | None]]:
    """(name, base word, industry or None) of ``n`` companies; Rapsa and Busmar Hogar first."""
    bases = [p + s for p in _PREFIXES for s in _SUFFIXES if p.lower() != s]
    combos = [(pattern.format(b), b, industry) for pattern, industry in _PATTERNS for b in bases]
    if n > len(combos):
        raise ValueError(f"at most {len(combos)} companies can be generated")
    shuffled = (combos[j] for j in np.random.default_rng(seed).permutation(len(combos)))
    return [*_FIXED_COMPANIES, *(c for c in shuffled if c not in _FIXED_COMPANIES)][:n]


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def _ticker(name: str, base: str, used: set[str]) -> str:
    """Consonant skeleton of the base word plus initials of the other words, made unique."""
    plain = _ascii(base).upper()
    skeleton = plain[0] + "".join(ch for ch in plain[1:] if ch not in "AEIOU")
    initials = "".join(_ascii(w)[0].upper() for w in name.split() if w != base)
    stem = skeleton[:3] + initials
    candidates = [
        stem[:5],
        (skeleton[:4] + initials)[:5],
        *(stem[:4] + ch for ch in ascii_uppercase),
        *(stem[:3] + a + b for a, b in product(ascii_uppercase, repeat=2)),
    ]
    return next(c for c in candidates if c not in used)


def _profile(i: int, name: str, base: str, industry: str | None, used: set[str], rng) -> _Company:
    """Industry, fiscal calendar and revenue-concept policy of company ``i``."""
    drawn_industry = _INDUSTRIES[rng.integers(len(_INDUSTRIES))]
    u_calendar, u_switch = rng.random(2)
    calendar = _CALENDAR_YEAR if u_calendar < 0.7 else _JUNE if u_calendar < 0.85 else _WEEKS_52_53
    calendar = (_CALENDAR_YEAR, _JUNE)[i] if i < 2 else calendar
    ticker = _ticker(name, base, used)
    used.add(ticker)
    return _Company(name, ticker, industry or drawn_industry, calendar, i == 0 or u_switch < 0.4)


def _fiscal_year_end(calendar: int, year: int) -> date:
    if calendar == _CALENDAR_YEAR:
        return date(year, 12, 31)
    if calendar == _JUNE:
        return date(year, 6, 30)
    sep30 = date(year, 9, 30)
    return sep30 - timedelta(days=(sep30.weekday() - 5) % 7)  # last Saturday of September


def _quarter_ends(calendar: int, year: int) -> list[date]:
    """Ends of fiscal quarters Q1..Q4 of fiscal ``year``."""
    end = _fiscal_year_end(calendar, year)
    if calendar == _WEEKS_52_53:
        previous = _fiscal_year_end(calendar, year - 1)
        return [previous + timedelta(weeks=13 * k) for k in (1, 2, 3)] + [end]
    ends = []
    for back in (9, 6, 3):
        y, m = divmod(end.year * 12 + end.month - 1 - back, 12)
        ends.append(date(y, m + 1, monthrange(y, m + 1)[1]))
    return ends + [end]


# --------------------------------------------------------------------------- truth and schedule


def _thousands(millions: np.ndarray) -> np.ndarray:
    """Millions of dollars to whole dollars rounded to the thousand."""
    return np.round(millions * 1000).astype(np.int64) * 1000


def _simulate(i, info: _Company, years, rng, dur, inst, shares, qstart, qend, restate) -> list[tuple[int, ...]]:
    """Fill company ``i``'s truth arrays; return its filings as (kind, year index, quarter, local day,
    local second, revenue error, sequence, original's sequence or -1), in filing order."""
    n_years = len(years)
    ends = np.array([[d.toordinal() for d in _quarter_ends(info.calendar, y)] for y in years]) - _EPOCH_ORDINAL
    first_start = _fiscal_year_end(info.calendar, int(years[0]) - 1).toordinal() - _EPOCH_ORDINAL + 1
    starts = np.concatenate([[first_start], ends.ravel()[:-1] + 1]).reshape(n_years, 4)
    qstart[i], qend[i] = starts, ends
    months = (ends.ravel().astype("datetime64[D]").astype("datetime64[M]").astype(np.int64) % 12) // 3

    n_q = 4 * n_years
    t = np.arange(n_q) / 4
    base = np.exp(rng.uniform(np.log(50), np.log(5000)))
    growth = np.clip(rng.normal(0.05, 0.07), -0.1, 0.25)
    season = 1 + rng.uniform(0.5, 1.5) * (np.array(_SEASON[info.industry]) - 1)
    in_shock = (ends.ravel() >= _SHOCK_START) & (ends.ravel() <= _SHOCK_END)
    trend = base * (1 + growth) ** t
    revenue = (
        trend
        * season[months]
        / season.mean()
        * ((ends - starts + 1).ravel() / 91.3)
        * np.where(in_shock, _SHOCK_2020.get(info.industry, 1.0), 1.0)
        * np.exp(np.repeat(rng.normal(0, 0.04, n_years), 4) + rng.normal(0, 0.025, n_q))
    )
    gross, operating, fixed = rng.uniform(0.25, 0.6), rng.uniform(0.02, 0.2), rng.uniform(0.02, 0.1)
    cost = revenue * (1 - gross) * (1 + rng.normal(0, 0.01, n_q))
    opex = (fixed * base + max(gross - operating - fixed, 0.01) * revenue) * (1 + rng.normal(0, 0.03, n_q))
    pretax = revenue - cost - opex - rng.uniform(0, 0.02) * base
    net = pretax - np.where(pretax > 0, 0.25, 0.1) * pretax
    shares[i] = (base * 1e6 * rng.uniform(0.05, 0.5) * (1 + rng.uniform(-0.02, 0.03)) ** t).reshape(n_years, 4)
    banking = info.industry == "banking"
    turnover = rng.uniform(6, 10) if banking else rng.uniform(0.8, 2.5)
    leverage = rng.uniform(0.88, 0.93) if banking else rng.uniform(0.35, 0.75)
    assets = _thousands(4 * trend * turnover * (1 + rng.normal(0, 0.02, n_q)))
    liabilities = _thousands(assets / 1e6 * leverage * (1 + rng.normal(0, 0.01, n_q)))
    cash = _thousands(assets / 1e6 * rng.uniform(0.03, 0.15) * (1 + rng.normal(0, 0.08, n_q)))
    inst[i] = np.stack([assets, liabilities, assets - liabilities, cash]).reshape(4, n_years, 4)
    rev = _thousands(revenue)
    dur[i, :4] = np.stack([rev, _thousands(cost), _thousands(revenue - cost - opex), _thousands(net)]).reshape(
        4, n_years, 4
    )

    n = n_years - 1  # filed fiscal years
    lag = rng.integers(25, 46, (n, 4))
    lag[:, 3] = rng.integers(55, 81, n)
    second = rng.integers(6 * 3600, 22 * 3600, (n, 4))
    amended = np.column_stack([rng.random((n, 3)) < 0.10, rng.random(n) < 0.08])
    factor = np.column_stack([rng.uniform(1.01, 1.05, (n, 3)), rng.uniform(1.02, 1.06, n)])
    amend_u = rng.random((n, 4))
    amend_second = rng.integers(6 * 3600, 22 * 3600, (n, 4))
    if i == 0:  # Rapsa: at least one 10-Q/A and one 10-K/A, and a filing in the first UTC hour of a day
        amended[0, 1] |= not amended[:, :3].any()
        amended[0, 3] |= not amended[:, 3].any()
        second[0, 0] = _first_utc_hour_second(int(ends[1, 0] + lag[0, 0]), rng)
    restate[i, 1:] = np.where(amended[:, 3], factor[:, 3], 1.0)
    filed = ends[1:] + lag
    error = _thousands(rev[4:].reshape(n, 4) / 1e6 * factor) - rev[4:].reshape(n, 4)

    out: list[tuple[int, ...]] = []
    for y, q in product(range(n), range(4)):
        day = int(filed[y, q])
        kind = _10K if q == 3 else _10Q
        misreported = q < 3 and amended[y, q]
        out.append((kind, y + 1, q, day, int(second[y, q]), int(error[y, q]) if misreported else 0, len(out), -1))
        if amended[y, q]:
            low, high = (20, 40) if q == 3 else (5, 20)
            following = filed[y, q + 1] if q < 3 else filed[y + 1, 0] if y + 1 < n else day + high + 1
            high = min(high, int(following) - day - 1)
            delay = low + int(amend_u[y, q] * (high - low + 1))
            out.append((kind + 2, y + 1, q, day + delay, int(amend_second[y, q]), 0, len(out), len(out) - 1))

    n_extra = dur.shape[1] - 4
    ratios = rng.uniform(0.005, 0.15, n_extra)
    extras = revenue * ratios[:, None] * (1 + rng.normal(0, 0.03, (n_extra, n_q)))
    dur[i, 4:] = _thousands(extras).reshape(n_extra, n_years, 4)
    return out


def _first_utc_hour_second(day: int, rng) -> int:
    """New York second of day, on local ``day``, of a time in the first hour of the next UTC day."""
    utc = datetime.fromordinal(day + _EPOCH_ORDINAL + 1).replace(tzinfo=UTC)
    local = (utc + timedelta(seconds=int(rng.integers(3600)))).astimezone(NEW_YORK)
    return local.hour * 3600 + local.minute * 60 + local.second


# --------------------------------------------------------------------------- facts


@dataclass(frozen=True)
class _Facts:
    """XBRL rows in final order, plus where each filing's rows start and its template."""

    value: np.ndarray
    code: np.ndarray
    start: np.ndarray
    end: np.ndarray
    row_doc: np.ndarray
    offset: np.ndarray  # by filing (original index)
    template: np.ndarray  # by filing (original index)
    templates: tuple[np.ndarray, ...]


def _template(q: int, years_back: int, n_dur: int) -> np.ndarray:
    """Fact layout of a filing for fiscal quarter ``q`` (3: annual) as rows (kind, k, dy, qs, qe)."""
    if q == 3:
        periods = [(-back, 0, 3) for back in range(years_back + 1)]
    else:
        periods = [(dy, qs, q) for dy in (0, -1) for qs in dict.fromkeys((q, 0))]
    rows = [(_DUR, k, *p) for k in (_REV, _COST, *range(4, n_dur), _OPINC, _NI) for p in periods]
    rows += [(_EPS, 0, *p) for p in periods]
    rows += [(_INST, j, dy, qe, qe) for j in range(4) for dy, qe in ((0, q), (-1, 3))]
    return np.array(rows, np.int64)


def _uniform(seed: int, *keys: np.ndarray) -> np.ndarray:
    """Counter-based uniforms in [0, 1): a SplitMix64-style hash of integer keys."""
    x = np.full(np.broadcast_shapes(*(np.shape(k) for k in keys)), seed, np.uint64)
    for key in keys:
        x = (x ^ np.asarray(key).astype(np.uint64)) * np.uint64(0x9E3779B97F4A7C15)
        x ^= x >> np.uint64(30)
        x *= np.uint64(0xBF58476D1CE4E5B9)
        x ^= x >> np.uint64(27)
    return (x >> np.uint64(11)).astype(np.float64) / 2.0**53


def _cumulative(a: np.ndarray) -> np.ndarray:
    """Year-to-date sums along the last axis, with a leading zero."""
    return np.concatenate([np.zeros((*a.shape[:-1], 1), a.dtype), np.cumsum(a, axis=-1)], axis=-1)


def _facts(filings, order, dur, inst, shares, qstart, qend, restate, rev_code, seed) -> _Facts:
    """Every filing's facts, vectorised by filing template, in acceptance order."""
    f_company, f_kind, f_year, f_q, f_err, f_key = filings
    n_dur = dur.shape[1]
    basis = dur.copy()  # restated (10-K/A) basis of revenue and net income
    factor = restate[:, None, :, None]
    basis[:, [_REV, _NI]] = np.where(factor != 1, _thousands(dur[:, [_REV, _NI]] / 1e6 * factor), basis[:, [_REV, _NI]])
    cum_true, cum_basis = _cumulative(dur), _cumulative(basis)
    net = dur[:, _NI].astype(np.float64)
    average_shares = np.cumsum(shares, axis=-1) / np.arange(1, 5)
    eps = np.stack([np.round(net / shares, 2), np.round(np.cumsum(net, axis=-1) / average_shares, 2)], axis=-1)
    dur_code = np.array([-1, 3, 4, 5, *range(_EXTRA_CODE, _EXTRA_CODE + n_dur - 4)])

    templates = (*(_template(q, 1, n_dur) for q in range(4)), _template(3, 2, n_dur))
    template = np.where((f_q == 3) & (f_year >= 2), 4, f_q)
    counts = np.array([len(t) for t in templates])[template]
    offset = np.empty_like(counts)
    offset[order] = np.cumsum(counts[order]) - counts[order]
    n_rows = int(counts.sum())
    value = np.empty(n_rows)
    code = np.empty(n_rows, np.int16)
    start = np.empty(n_rows, "datetime64[D]")
    end = np.empty(n_rows, "datetime64[D]")
    for g, tm in enumerate(templates):
        idx = np.flatnonzero(template == g)
        kind, k, dy, qs, qe = tm.T
        c, y = f_company[idx, None], f_year[idx, None] + dy
        dest = offset[idx, None] + np.arange(len(tm))
        v = np.empty(dest.shape)
        cd = np.empty(dest.shape, np.int16)
        d = kind == _DUR
        kd, yd, sd, ed = k[d], y[:, d], qs[d], qe[d]
        use_basis = (dy[d] < 0) | (f_kind[idx, None] == _10KA)
        v[:, d] = np.where(
            use_basis,
            cum_basis[c, kd, yd, ed + 1] - cum_basis[c, kd, yd, sd],
            cum_true[c, kd, yd, ed + 1] - cum_true[c, kd, yd, sd],
        ) + f_err[idx, None] * ((kd == _REV) & (dy[d] == 0))
        cd[:, d] = np.where(kd == _REV, rev_code[c, f_year[idx, None]], dur_code[kd])
        e = kind == _EPS
        v[:, e] = eps[c, y[:, e], qe[e], (qs[e] == 0).astype(np.int64)]
        cd[:, e] = _EPS_CODE
        s = kind == _INST
        v[:, s] = inst[c, k[s], y[:, s], qe[s]]
        cd[:, s] = _INST_CODE + k[s]
        comparative = (dy < 0) & (kind != _EPS)  # re-reported dollar figures: sometimes rounded to the million
        entry = (((kind * 1000 + k) * 4 + dy + 2) * 4 + qs)[comparative]
        old = v[:, comparative]
        rounded = np.round(old / 1e6) * 1e6
        chosen = (_uniform(seed, c, f_key[idx, None], entry) < 0.2) & (np.abs(rounded - old) < 0.005 * np.abs(old))
        v[:, comparative] = np.where(chosen, rounded, old)
        value[dest] = v
        code[dest] = cd
        start[dest] = np.where(kind == _INST, np.datetime64("NaT"), qstart[c, y, qs].astype("datetime64[D]"))
        end[dest] = qend[c, y, qe].astype("datetime64[D]")
    row_doc = np.repeat(np.arange(len(order)), counts[order])
    return _Facts(value, code, start, end, row_doc, offset, template, templates)


def _take(labels, indices: pa.Array) -> pd.Series:
    """A ``str`` column of ``labels[indices]``, built in Arrow."""
    return pd.Series(pa.array(list(labels), pa.large_string()).take(indices), dtype=_STR)


def _extra_concept_names(n: int) -> list[str]:
    named = [f"us-gaap:{name}" for name in _EXTRA_NAMES[:n]]
    return named + [f"fsx:LineItem{i}" for i in range(1, n - len(named) + 1)]


def _sales(infos: list[_Company], years, dur, qend) -> pd.DataFrame:
    """True discrete quarterly revenue (millions) of the filed fiscal years."""
    per_company = 4 * (len(years) - 1)
    sales = pd.DataFrame(
        {
            "ticker": pd.Series(np.repeat([c.ticker for c in infos], per_company), dtype=_STR),
            "fin_trimestre": qend[:, 1:].reshape(-1).astype("datetime64[D]").astype("datetime64[s]"),
            "ventas": (dur[:, _REV, 1:] // 1000).reshape(-1) / 1000,
        }
    )
    return sales.sort_values(["ticker", "fin_trimestre"], ignore_index=True)


def _write_parquet(frame: pd.DataFrame, path: Path) -> None:
    """Write ``frame`` with its naive datetime columns stored as parquet dates."""
    table = pa.Table.from_pandas(frame, preserve_index=False)
    schema = pa.schema(
        pa.field(f.name, pa.date32()) if pa.types.is_timestamp(f.type) and f.type.tz is None else f
        for f in table.schema
    )
    pq.write_table(table.cast(schema).replace_schema_metadata(None), path)


# --------------------------------------------------------------------------- HTML


def _html_texts(infos, filings, order, facts: _Facts, years, local, seed) -> list[str]:
    """HTML text of every filing, in acceptance order."""
    f_company, f_kind, f_year, f_q, f_orig = filings
    lookups = [{(kind, k, dy, qs): col for col, (kind, k, dy, qs, _qe) in enumerate(t)} for t in facts.templates]
    voices = {}
    texts = []
    for f in order:
        c = int(f_company[f])
        if c not in voices:
            voices[c] = _voice(infos[c], np.random.default_rng([seed, c, 1]))
        texts.append(
            _document(
                infos[c],
                voices[c],
                int(f_kind[f]),
                int(years[f_year[f]]),
                int(f_q[f]),
                2 if facts.template[f] == 4 else 1,
                _reader(facts, lookups, int(f)),
                _reader(facts, lookups, int(f_orig[f])) if f_orig[f] >= 0 else None,
                pd.Timestamp(local[f_orig[f]]).date() if f_orig[f] >= 0 else None,
            )
        )
    return texts


def _reader(facts: _Facts, lookups, f: int):
    """Value of filing ``f``'s fact (kind, k, dy, qs)."""
    offset, lookup = facts.offset[f], lookups[facts.template[f]]
    return lambda kind, k, dy, qs: float(facts.value[offset + lookup[kind, k, dy, qs]])


@dataclass(frozen=True)
class _Voice:
    """Company-specific wording of the narrative sections."""

    business: str
    risks: tuple[tuple[str, str], ...]


def _voice(info: _Company, rng) -> _Voice:
    (low, high), activity = _ACTIVITY[info.industry]
    size = f"{int(rng.integers(low, high)):,}"
    business = (
        f"<p>{activity.format(name=info.name, n=size)}</p>\n"
        f"<p>{info.name} was founded in {int(rng.integers(1900, 2005))} and is headquartered in "
        f"{_CITIES[rng.integers(len(_CITIES))]}, Spain. It employs approximately "
        f"{int(rng.integers(8, 400)) * 100:,} people. {_FISCAL_YEAR_TEXT[info.calendar]} "
        f"{info.name} competes on the basis of price, service quality, brand recognition and the breadth of "
        f"its offering, and its shares are listed under the ticker symbol {info.ticker}.</p>"
    )
    pool = _GENERAL_RISKS + _INDUSTRY_RISKS[info.industry]
    chosen = rng.choice(len(pool), int(rng.integers(4, 9)), replace=False)
    risks = tuple(
        (pool[j][0], pool[j][1].format(name=info.name, impact=_IMPACTS[rng.integers(len(_IMPACTS))])) for j in chosen
    )
    return _Voice(business, risks)


def _millions(v: float) -> str:
    """Table cell in millions, negatives in parentheses."""
    return f"({abs(v) / 1e6:,.1f})" if v < 0 else f"{v / 1e6:,.1f}"


def _long_date(d: date) -> str:
    return f"{d:%B} {d.day}, {d.year}"


def _change(new: float, old: float) -> str:
    pct = (new / old - 1) * 100
    return f"an increase of {pct:.1f}%" if pct >= 0 else f"a decrease of {-pct:.1f}%"


def _table(header: list[str], rows: list[tuple[str, list[str]]]) -> str:
    head = "".join(f"<th>{h}</th>" for h in header)
    body = "".join(f"<tr><td>{label}</td>{''.join(f'<td>{c}</td>' for c in cells)}</tr>\n" for label, cells in rows)
    return f"<table>\n<tr>{head}</tr>\n{body}</table>"


def _document(
    info: _Company, voice: _Voice, kind: int, year: int, q: int, years_back: int, get, original, filed_on
) -> str:
    """HTML of one filing; ``get`` reads its facts, ``original`` those of the amended filing."""
    ends = _quarter_ends(info.calendar, year)
    period_end = ends[q]
    parts = [f"<html><body><h1>{info.name} — Form {_FORMS[kind]} — period ended {period_end.isoformat()}</h1>"]
    if kind == _10QA:
        wrong, right = original(_DUR, _REV, 0, q), get(_DUR, _REV, 0, q)
        parts.append(
            f"<p><b>Explanatory Note.</b> {info.name} is filing this Amendment No. 1 on Form 10-Q/A to amend its "
            f"Quarterly Report on Form 10-Q for the quarter ended {_long_date(period_end)}, originally filed on "
            f"{_long_date(filed_on)}, to correct revenue for the three months ended {_long_date(period_end)}, which "
            f"was overstated by ${(wrong - right) / 1e6:,.1f} million ({(wrong / right - 1) * 100:.1f}%) as a result "
            f"of a clerical error in the consolidation of intercompany sales. Revenue for the three-month and "
            f"year-to-date periods has been corrected; no other amounts have changed.</p>"
        )
    if kind == _10KA:
        parts.append(
            f"<p><b>Explanatory Note.</b> {info.name} is filing this Amendment No. 1 on Form 10-K/A to amend its "
            f"Annual Report on Form 10-K for the fiscal year ended {_long_date(period_end)}, originally filed on "
            f"{_long_date(filed_on)}, to restate revenue and net income for fiscal {year} following a change in "
            f"the basis on which revenue from distributor agreements is recognised. Revenue previously reported "
            f"as ${original(_DUR, _REV, 0, 0) / 1e6:,.1f} million has been restated to "
            f"${get(_DUR, _REV, 0, 0) / 1e6:,.1f} million, and net income from "
            f"${original(_DUR, _NI, 0, 0) / 1e6:,.1f} million to ${get(_DUR, _NI, 0, 0) / 1e6:,.1f} million. "
            f"Comparative periods will be presented on the restated basis in future filings.</p>"
        )
    if q == 3:
        parts += _annual_sections(info, voice, year, years_back, get, restated=kind == _10KA)
    else:
        parts += _quarterly_sections(info, voice, year, q, ends, get)
    return "\n".join(parts) + "\n</body></html>"


def _statement_rows(get, columns: list[tuple[int, int]]) -> list[tuple[str, list[str]]]:
    """Income-statement rows for the (dy, qs) columns of a filing."""
    rows = []
    for label, k in (("Revenue", _REV), ("Cost of revenue", _COST)):
        rows.append((label, [_millions(get(_DUR, k, dy, qs)) for dy, qs in columns]))
    gross = [get(_DUR, _REV, dy, qs) - get(_DUR, _COST, dy, qs) for dy, qs in columns]
    rows.append(("Gross profit", [_millions(v) for v in gross]))
    for label, k in (("Operating income (loss)", _OPINC), ("Net income (loss)", _NI)):
        rows.append((label, [_millions(get(_DUR, k, dy, qs)) for dy, qs in columns]))
    rows.append(("Basic earnings per share (dollars)", [f"{get(_EPS, 0, dy, qs):.2f}" for dy, qs in columns]))
    return rows


def _balance_table(get, q: int, labels: list[str]) -> str:
    items = (("Cash and cash equivalents", _CASH), ("Total assets", _ASSETS), ("Total liabilities", _LIAB),
             ("Stockholders' equity", _EQUITY))  # fmt: skip
    rows = [(label, [_millions(get(_INST, j, 0, q)), _millions(get(_INST, j, -1, 3))]) for label, j in items]
    return _table(["Balance sheet (in millions)", *labels], rows)


def _revenue_note(info: _Company, year: int) -> str:
    """Accounting-policy paragraph on revenue, mentioning the ASC 606 adoption of concept switchers."""
    policy = (
        "Revenue is recognised when control of the promised goods or services is transferred to customers, in an "
        "amount that reflects the consideration the company expects to be entitled to in exchange."
    )
    if info.switcher and year >= REVENUE_SWITCH_YEAR:
        policy += (
            f" {info.name} adopted ASC 606, Revenue from Contracts with Customers, at the beginning of fiscal "
            f"{REVENUE_SWITCH_YEAR} using the full retrospective method; prior periods are presented on the same basis."
        )
    elif info.switcher:
        policy += (
            f" {info.name} will adopt ASC 606, Revenue from Contracts with Customers, at the beginning of fiscal "
            f"{REVENUE_SWITCH_YEAR} and is evaluating its effect on the consolidated financial statements."
        )
    return f"<p><b>Revenue recognition.</b> {policy}</p>"


def _income_sentence(name: str, net: float, when: str) -> str:
    if net >= 0:
        return f"{name} reported net income of ${net / 1e6:,.1f} million for {when}."
    return f"{name} reported a net loss of ${-net / 1e6:,.1f} million for {when}."


def _annual_sections(info: _Company, voice: _Voice, year: int, years_back: int, get, restated: bool) -> list[str]:
    name = info.name
    rev, prior = get(_DUR, _REV, 0, 0), get(_DUR, _REV, -1, 0)
    risks = "\n".join(f"<p><b>{title}</b> {body}</p>" for title, body in voice.risks)
    key_rows = [
        ("Revenue", [f"{_millions(rev)}<sup>1</sup>", f"{_millions(prior)}<sup>1</sup>"]),
        ("Operating income (loss)", [f"{_millions(get(_DUR, _OPINC, dy, 0))}<sup>2</sup>" for dy in (0, -1)]),
        ("Net income (loss)", [_millions(get(_DUR, _NI, dy, 0)) for dy in (0, -1)]),
        ("Total assets", [_millions(get(_INST, _ASSETS, dy, 3)) for dy in (0, -1)]),
    ]
    note1 = "Restated; see the Explanatory Note." if restated else "Revenue is presented net of returns and discounts."
    columns = [(-back, 0) for back in range(years_back + 1)]
    return [
        "<h2>Item 1. Business</h2>",
        voice.business,
        "<h2>Item 1A. Risk Factors</h2>",
        f"<p>An investment in the securities of {name} involves risks. The following risk factors, together with "
        f"the other information in this report, should be considered carefully.</p>",
        risks,
        "<h2>Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations</h2>",
        f"<p>Revenue for fiscal {year} was ${rev / 1e6:,.1f} million, compared with ${prior / 1e6:,.1f} million in "
        f"fiscal {year - 1}, {_change(rev, prior)}. {_income_sentence(name, get(_DUR, _NI, 0, 0), f'fiscal {year}')} "
        f"Cash and cash equivalents were ${get(_INST, _CASH, 0, 3) / 1e6:,.1f} million at the end of the year.</p>",
        _table(["Key figures (in millions)", f"Fiscal {year}", f"Fiscal {year - 1}"], key_rows),
        f"<p><sup>1</sup> {note1}</p>",
        "<p><sup>2</sup> Operating income includes restructuring and other charges.</p>",
        "<h2>Item 8. Financial Statements and Supplementary Data</h2>",
        _table(
            ["Consolidated statements of operations (in millions)", *(f"Fiscal {year + dy}" for dy, _ in columns)],
            _statement_rows(get, columns),
        ),
        _balance_table(get, 3, [f"Fiscal {year}", f"Fiscal {year - 1}"]),
        _revenue_note(info, year),
    ]


_ORDINALS = ("first", "second", "third")
_SPANS = ("three months", "six months", "nine months")


def _quarterly_sections(info: _Company, voice: _Voice, year: int, q: int, ends: list[date], get) -> list[str]:
    name, when = info.name, _long_date(ends[q])
    rev, prior = get(_DUR, _REV, 0, q), get(_DUR, _REV, -1, q)
    columns = [(0, q), (-1, q)] + ([(0, 0), (-1, 0)] if q else [])
    header = [f"{_SPANS[0].capitalize()} ended {when}", "Prior year"]
    header += [f"{_SPANS[q].capitalize()} ended {when}", "Prior year"] if q else []
    mdna = (
        f"Revenue for the {_ORDINALS[q]} quarter of fiscal {year} was ${rev / 1e6:,.1f} million, compared with "
        f"${prior / 1e6:,.1f} million in the {_ORDINALS[q]} quarter of fiscal {year - 1}, {_change(rev, prior)}."
    )
    if q:
        ytd, ytd_prior = get(_DUR, _REV, 0, 0), get(_DUR, _REV, -1, 0)
        mdna += (
            f" Revenue for the first {_SPANS[q]} of fiscal {year} was ${ytd / 1e6:,.1f} million, compared with "
            f"${ytd_prior / 1e6:,.1f} million a year earlier."
        )
    title, body = voice.risks[(year + q) % len(voice.risks)]
    return [
        "<h2>Part I — Item 1. Financial Statements</h2>",
        f"<p>The accompanying unaudited condensed consolidated financial statements of {name} have been prepared "
        f"in accordance with U.S. generally accepted accounting principles for interim financial information. In "
        f"the opinion of management, they include all adjustments necessary for a fair presentation. Results for "
        f"interim periods are not necessarily indicative of results for the full fiscal year.</p>",
        _table(["Statements of operations (in millions)", *header], _statement_rows(get, columns)),
        _balance_table(get, q, [when, "End of prior fiscal year"]),
        _revenue_note(info, year),
        "<h2>Part I — Item 2. Management's Discussion and Analysis of Financial Condition and Results of "
        "Operations</h2>",
        voice.business,
        f"<p>{mdna} {_income_sentence(name, get(_DUR, _NI, 0, q), f'the {_ORDINALS[q]} quarter')} Operating "
        f"income (loss) for the quarter was ${get(_DUR, _OPINC, 0, q) / 1e6:,.1f} million, compared with "
        f"${get(_DUR, _OPINC, -1, q) / 1e6:,.1f} million a year earlier, reflecting changes in volumes, pricing and "
        f"the cost of materials, energy and labour.</p>",
        f"<p>Cash and cash equivalents were ${get(_INST, _CASH, 0, q) / 1e6:,.1f} million at {when}. Management "
        f"believes that cash on hand, cash generated by operations and available credit lines will be sufficient "
        f"to meet the liquidity needs of {name} for at least the next twelve months.</p>",
        "<h2>Part II — Item 1A. Risk Factors</h2>",
        f"<p>There have been no material changes from the risk factors disclosed in Item 1A of the Annual Report "
        f"on Form 10-K of {name} for fiscal {year - 1}, other than the update below.</p>",
        f"<p><b>{title}</b> {body}</p>",
    ]
