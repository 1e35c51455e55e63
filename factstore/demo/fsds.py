"""A deterministic synthetic quarter of the SEC's Financial Statement Data Sets (FSDS): sub.txt, num.txt (the 2024+
layout, with segments) and tag.txt, tab-separated as the SEC writes them, sized like a real quarter (about 6,500
submissions and 3 million num rows); with `zip_name`, also zipped as the SEC ships a quarter (2024q4.zip).

The submissions are filed in 2024 Q4: mostly 10-Qs, some 10-Ks, 10-Q/As and 10-K/As (an amendment's original filed
in the quarter has prevrpt=1), accepted in EDGAR's hours, New York time to the minute. Each reports its tags for the
periods its form covers (month ends of this and the prior year, qtrs 0 to 4): rows per submission log-normal, about
40% with segments, a few % of a co-registrant, some under the filer's own tags (version = its adsh), a few nil
(empty value). No key (adsh, tag, version, ddate, qtrs, uom, segments, coreg) repeats; num.txt rows come in no order.
"""

from __future__ import annotations

import re
import shutil
import zipfile
from calendar import monthrange
from datetime import date, timedelta
from itertools import product
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pcsv

__all__ = ["write_quarter"]

SUB_COLUMNS = ("adsh", "cik", "name", "sic", "countryba", "stprba", "cityba", "zipba", "bas1", "bas2", "baph",
               "countryma", "stprma", "cityma", "zipma", "mas1", "mas2", "countryinc", "stprinc", "ein", "former",
               "changed", "afs", "wksi", "fye", "form", "period", "fy", "fp", "filed", "accepted", "prevrpt",
               "detail", "instance", "nciks", "aciks")
NUM_COLUMNS = ("adsh", "tag", "version", "ddate", "qtrs", "uom", "segments", "coreg", "value", "footnote")
TAG_COLUMNS = ("tag", "version", "custom", "abstract", "datatype", "iord", "crdr", "tlabel", "doc")
FILES = ("sub.txt", "num.txt", "tag.txt")

FIRST_DAY, LAST_DAY = date(2024, 10, 1), date(2024, 12, 31)  # the quarter: 2024 Q4
CLOSED = {date(2024, 10, 14), date(2024, 11, 11), date(2024, 11, 28), date(2024, 12, 25), date(2025, 1, 1)}
HOUR_WEIGHTS = (9, 7, 12, 13, 19, 31, 30, 26, 35, 43, 117, 59, 6, 13, 7, 8)  # acceptances 06h..21h (2009q3 sub.txt)
FORMS = ("10-Q", "10-K", "10-Q/A", "10-K/A")
FORM_SHARES = (0.80, 0.14, 0.035, 0.025)
PAIRED = 0.5  # of amendments, those whose original is filed in the same quarter
SIGMA = 0.8  # log-normal spread of rows per submission
MIN_ROWS = 12
SEGMENTS, CUSTOM, NIL, FOOTNOTED = 0.40, 0.05, 0.002, 0.003  # shares of a submission's rows
COREG_FILERS, COREG = 0.08, 0.35  # filers with co-registrants, and the share of their rows that are a co-registrant's
PRIME = 2_147_483_647  # coprime to every row-space size below it: j -> (PRIME * j + b) mod M is one-to-one
TAXONOMIES = ("us-gaap", "dei")
VERSIONS = ("us-gaap/2024", "us-gaap/2023", "dei/2024", "dei/2023")  # index: 2 * taxonomy + (1: prior year's)
DATATYPES = ("monetary", "perShare", "shares", "pure")
DOCS = ("Amount of", "Amount per share of", "Number of shares of", "Ratio of")  # tag.txt's doc, by datatype

# tags every filer reports first, durations and instants alternating: (name, taxonomy, datatype, iord, crdr)
CORE = (
    ("Revenues", "us-gaap", "monetary", "D", "C"),
    ("CashAndCashEquivalentsAtCarryingValue", "us-gaap", "monetary", "I", "D"),
    ("RevenueFromContractWithCustomerExcludingAssessedTax", "us-gaap", "monetary", "D", "C"),
    ("AccountsReceivableNetCurrent", "us-gaap", "monetary", "I", "D"),
    ("CostOfRevenue", "us-gaap", "monetary", "D", "D"),
    ("InventoryNet", "us-gaap", "monetary", "I", "D"),
    ("GrossProfit", "us-gaap", "monetary", "D", "C"),
    ("AssetsCurrent", "us-gaap", "monetary", "I", "D"),
    ("SellingGeneralAndAdministrativeExpense", "us-gaap", "monetary", "D", "D"),
    ("PropertyPlantAndEquipmentNet", "us-gaap", "monetary", "I", "D"),
    ("ResearchAndDevelopmentExpense", "us-gaap", "monetary", "D", "D"),
    ("Goodwill", "us-gaap", "monetary", "I", "D"),
    ("OperatingIncomeLoss", "us-gaap", "monetary", "D", "C"),
    ("Assets", "us-gaap", "monetary", "I", "D"),
    ("InterestExpense", "us-gaap", "monetary", "D", "D"),
    ("AccountsPayableCurrent", "us-gaap", "monetary", "I", "C"),
    ("IncomeTaxExpenseBenefit", "us-gaap", "monetary", "D", "D"),
    ("LiabilitiesCurrent", "us-gaap", "monetary", "I", "C"),
    ("NetIncomeLoss", "us-gaap", "monetary", "D", "C"),
    ("LongTermDebtNoncurrent", "us-gaap", "monetary", "I", "C"),
    ("EarningsPerShareBasic", "us-gaap", "perShare", "D", ""),
    ("Liabilities", "us-gaap", "monetary", "I", "C"),
    ("EarningsPerShareDiluted", "us-gaap", "perShare", "D", ""),
    ("RetainedEarningsAccumulatedDeficit", "us-gaap", "monetary", "I", "C"),
    ("WeightedAverageNumberOfSharesOutstandingBasic", "us-gaap", "shares", "D", ""),
    ("StockholdersEquity", "us-gaap", "monetary", "I", "C"),
    ("WeightedAverageNumberOfDilutedSharesOutstanding", "us-gaap", "shares", "D", ""),
    ("LiabilitiesAndStockholdersEquity", "us-gaap", "monetary", "I", "C"),
    ("NetCashProvidedByUsedInOperatingActivities", "us-gaap", "monetary", "D", "D"),
    ("CommonStockSharesOutstanding", "us-gaap", "shares", "I", ""),
    ("NetCashProvidedByUsedInInvestingActivities", "us-gaap", "monetary", "D", "D"),
    ("CommonStockParOrStatedValuePerShare", "us-gaap", "perShare", "I", ""),
    ("NetCashProvidedByUsedInFinancingActivities", "us-gaap", "monetary", "D", "D"),
    ("EntityCommonStockSharesOutstanding", "dei", "shares", "I", ""),
    ("ShareBasedCompensation", "us-gaap", "monetary", "D", "D"),
    ("EntityPublicFloat", "dei", "monetary", "I", ""),
    ("CommonStockDividendsPerShareDeclared", "us-gaap", "perShare", "D", ""),
    ("EffectiveIncomeTaxRateContinuingOperations", "us-gaap", "pure", "D", ""),
)
NOUNS = (("AccountsReceivable", "D"), ("Inventories", "D"), ("PrepaidExpense", "D"), ("AccruedLiabilities", "C"),
         ("DeferredRevenue", "C"), ("IncomeTaxesPayable", "C"), ("OperatingLeaseLiability", "C"),
         ("PropertyPlantAndEquipment", "D"), ("IntangibleAssets", "D"), ("Investments", "D"),
         ("MarketableSecurities", "D"), ("LongTermDebt", "C"), ("NotesPayable", "C"), ("ConvertibleDebt", "C"),
         ("PreferredStock", "C"), ("TreasuryStock", "D"), ("DerivativeAssets", "D"), ("DerivativeLiabilities", "C"),
         ("ContractWithCustomerAsset", "D"), ("EmployeeRelatedLiabilities", "C"), ("RestructuringReserve", "C"),
         ("AssetRetirementObligation", "C"), ("CapitalizedSoftware", "D"), ("LoansReceivable", "D"),
         ("Deposits", "C"), ("FinanceLeaseLiability", "C"), ("OtherAssets", "D"), ("OtherLiabilities", "C"),
         ("Warrants", "C"), ("CustomerRelationships", "D"))
DURATION_HEADS = (("IncreaseDecreaseIn", "D"), ("PaymentsFor", "C"), ("PaymentsToAcquire", "C"),
                  ("ProceedsFrom", "D"), ("ProceedsFromSaleOf", "D"), ("AmortizationOf", "D"), ("ImpairmentOf", "D"),
                  ("GainLossOn", "C"), ("RepaymentsOf", "C"), ("ProvisionFor", "D"), ("ForeignCurrencyEffectOn", "D"))
DURATION_TAILS = ("", "Net", "Current", "Noncurrent", "Gross", "Domestic", "Foreign")
INSTANT_HEADS = ("", "Accrued", "Deferred", "Other", "Unrecognized", "Restricted", "Pledged")
INSTANT_TAILS = ("Current", "Noncurrent", "Net", "Gross", "AtCarryingValue", "FairValueDisclosure", "AtCost")
CUSTOM_NAMES = tuple(f"{a}{n}{t}" for a, (n, _), t in product(
    ("Adjusted", "Segment", "Acquired", "Contingent", "Unbilled", "Reimbursable", "Legacy", "Regulatory"), NOUNS,
    ("", "Adjustment", "Reserve", "Impact", "Activity", "Balance")))

# contexts by quarters into the fiscal year (4: the year): (months before the period end, qtrs)
DURATIONS = {1: ((0, 1), (12, 1)), 2: ((0, 1), (12, 1), (0, 2), (12, 2)), 3: ((0, 1), (12, 1), (0, 3), (12, 3)),
             4: ((0, 4), (12, 4), (24, 4))}
INSTANTS = {1: ((0, 0), (3, 0)), 2: ((0, 0), (6, 0)), 3: ((0, 0), (9, 0)), 4: ((0, 0), (12, 0))}

# company furniture
FIRST_WORDS = ("ALDER", "BEACON", "CEDAR", "SUMMIT", "HARBOR", "MERIDIAN", "NORTHGATE", "SILVERLINE", "IRONWOOD",
               "BLUESTEM", "COPPER", "EVERGREEN", "FALCON", "GRANITE", "HIGHLAND", "JUNIPER", "KESTREL", "LANTERN",
               "MAPLE", "NEPTUNE", "OAKMONT", "PINNACLE", "QUARRY", "REDWOOD", "SAGE", "TIDEWATER", "UNION",
               "VANGUARD", "WILLOW", "YARROW", "ZENITH", "ASPEN", "BRIGHTON", "CASCADE", "DELTA", "EMBER", "FRONTIER",
               "GALLEON", "HORIZON", "ISLAND", "JASPER", "KEYSTONE", "LIBERTY", "MESA", "NOVA", "ORCHARD", "PRAIRIE",
               "QUANTUM", "RIDGE", "SPRUCE", "TRIDENT", "UPLAND", "VERTEX", "WESTFIELD", "ATLAS", "BOREAL", "CITADEL",
               "DUNMORE", "ELKHORN", "FOXGLOVE")
SECOND_WORDS = ("RIVER", "ROCK", "BRIDGE", "FIELD", "LAKE", "PEAK", "STONE", "GATE", "POINT", "CREEK", "VALLEY",
                "BAY", "HILL", "FORGE", "MILL", "SHORE", "CROSS", "PARK", "SPRINGS", "WOOD", "HAVEN", "PORT", "STAR",
                "LINE", "WAY", "CREST", "GROVE", "MOUNT", "TRAIL", "WELL")
INDUSTRIES = (("ENERGY", "1311"), ("THERAPEUTICS", "2834"), ("BANCORP", "6022"), ("FINANCIAL", "6199"),
              ("TECHNOLOGIES", "7372"), ("SYSTEMS", "3570"), ("PHARMACEUTICALS", "2834"), ("REALTY", "6798"),
              ("INDUSTRIES", "3490"), ("BRANDS", "2080"), ("RESOURCES", "1000"), ("SEMICONDUCTOR", "3674"),
              ("MEDICAL", "3841"), ("CAPITAL", "6770"), ("UTILITIES", "4911"), ("BIOSCIENCES", "2836"),
              ("FOODS", "2000"), ("LOGISTICS", "4213"), ("RETAIL", "5331"), ("NETWORKS", "4813"))
SUFFIXES = ("INC", "CORP", "CO", "LTD", "HOLDINGS INC", "GROUP INC", "TRUST", "LP")
PLACES = (("NEW YORK", "NY", "10017"), ("HOUSTON", "TX", "77002"), ("SAN JOSE", "CA", "95113"),
          ("BOSTON", "MA", "02110"), ("CHICAGO", "IL", "60606"), ("DENVER", "CO", "80202"), ("ATLANTA", "GA", "30303"),
          ("MIAMI", "FL", "33131"), ("SEATTLE", "WA", "98101"), ("MINNEAPOLIS", "MN", "55402"),
          ("CHARLOTTE", "NC", "28202"), ("PHOENIX", "AZ", "85004"), ("DALLAS", "TX", "75201"),
          ("PITTSBURGH", "PA", "15222"), ("NASHVILLE", "TN", "37203"), ("LAS VEGAS", "NV", "89101"),
          ("SAN DIEGO", "CA", "92101"), ("COLUMBUS", "OH", "43215"), ("SALT LAKE CITY", "UT", "84111"),
          ("STAMFORD", "CT", "06901"))
STREETS = ("MAIN ST", "MARKET ST", "PARK AVE", "COMMERCE DR", "INNOVATION WAY", "CORPORATE BLVD", "RIVER RD",
           "INDUSTRIAL PKWY", "CENTER ST", "TECHNOLOGY DR")
INCORPORATED = ("DE", "DE", "DE", "NV", "MD", "NY", "TX", "FL")
AFS = ("1-LAF", "2-ACC", "4-NON", "5-SML")
AFS_SHARES = (0.30, 0.15, 0.45, 0.10)
AGENTS = ("0001193125", "0001558370", "0000950170", "0001437749", "0001213900", "0001628280", "0001140361",
          "0001104659", "0001493152", "0001654954")  # filing agents' CIKs, the first part of most accessions
CURRENCIES = ("USD", "EUR", "CAD", "GBP", "JPY")
CURRENCY_SHARES = (0.96, 0.01, 0.01, 0.01, 0.01)
FOOTNOTES = ("(1)", "Includes amounts of consolidated variable interest entities.", "See Note 2.",
             "Recast to reflect discontinued operations.")

# dimensions: axes with members every kind of filer uses, and the axes a filer fills with its own members
SHARED_AXES = {
    "EquityComponents": ("RetainedEarnings", "CommonStock", "AdditionalPaidInCapital", "TreasuryStock",
                         "AccumulatedOtherComprehensiveIncome", "NoncontrollingInterest", "Parent"),
    "FairValueByFairValueHierarchyLevel": ("FairValueInputsLevel1", "FairValueInputsLevel2", "FairValueInputsLevel3"),
    "FinancialInstrument": ("USTreasurySecurities", "CorporateDebtSecurities", "MoneyMarketFunds", "CommercialPaper",
                            "AssetBackedSecurities"),
    "ClassOfStock": ("CommonClassA", "CommonClassB", "SeriesAPreferredStock"),
    "Range": ("Minimum", "Maximum", "WeightedAverage"),
    "ConsolidationItems": ("OperatingSegments", "IntersegmentElimination", "CorporateNonSegment"),
    "LongtermDebtType": ("SeniorNotes", "RevolvingCreditFacility", "TermLoan", "ConvertibleNotesPayable"),
    "AwardType": ("RestrictedStockUnitsRSU", "EmployeeStockOption", "PerformanceShares"),
    "IncomeTaxAuthority": ("Domestic", "Foreign", "StateAndLocal"),
}
PRODUCTS = ("Devices", "Software", "Services", "Subscriptions", "Licenses", "Consumables", "Equipment", "Maintenance",
            "Royalties", "Advertising", "Wholesale", "Merchandise")
SEGMENT_NAMES = ("Industrial", "Consumer", "Commercial", "Healthcare", "Energy", "Americas", "International",
                 "Residential", "Aerospace", "Specialty")
REGIONS = ("US", "NonUs", "Europe", "AsiaPacific", "LatinAmerica", "Canada", "China", "Japan", "UnitedKingdom",
           "OtherCountries")
COREG_SUFFIXES = ("OperatingPartnership", "Llc", "FinanceCorp", "Lp", "UtilityCompany", "GuarantorSubsidiaries")


def write_quarter(folder: Path, *, submissions: int = 6500, rows: int = 3_000_000, seed: int = 7,
                  zip_name: str | None = None) -> Path:
    """Write a synthetic FSDS quarter (sub.txt, num.txt, tag.txt) of `submissions` filings and `rows` num rows into
    `folder`; the same arguments give the same bytes. Returns the folder, or with `zip_name` the SEC-style zip of the
    files, written beside them."""
    if submissions < 1 or rows < MIN_ROWS * submissions:
        raise ValueError(f"give at least one submission and {MIN_ROWS} rows per submission")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    tags = _tag_pool(rng)
    subs = _submissions(rng, submissions)
    num, custom = _num(rng, subs, tags, rows)
    _write_tsv(folder / "sub.txt", SUB_COLUMNS, pa.table(subs["text"]))
    _write_tsv(folder / "num.txt", NUM_COLUMNS, num)
    _write_tsv(folder / "tag.txt", TAG_COLUMNS, _tag_table(tags, custom, subs["adsh"]))
    return _zip(folder, zip_name) if zip_name else folder


def _tag_pool(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """The standard tags, core first and then the rest in a random order: name, taxonomy (index in TAXONOMIES),
    datatype (index in DATATYPES), iord and crdr."""
    generated = [(h + n + t, "us-gaap", "monetary", "D", c) for (h, c), (n, _), t in
                 product(DURATION_HEADS, NOUNS, DURATION_TAILS)]
    generated += [(h + n + t, "us-gaap", "monetary", "I", c) for h, (n, c), t in
                  product(INSTANT_HEADS, NOUNS, INSTANT_TAILS)]
    core = {t[0] for t in CORE}
    generated = [g for g in dict((g[0], g) for g in generated).values() if g[0] not in core]
    pool = list(CORE) + [generated[i] for i in rng.permutation(len(generated))]
    names, taxonomy, datatype, iord, crdr = zip(*pool, strict=True)
    return {"name": np.array(names), "taxonomy": np.array([TAXONOMIES.index(t) for t in taxonomy]),
            "datatype": np.array([DATATYPES.index(d) for d in datatype]), "iord": np.array(iord),
            "crdr": np.array(crdr)}


def _month_end(month: int) -> date:
    """The last day of a month counted as year * 12 + month - 1."""
    year, m = divmod(int(month), 12)
    return date(year, m + 1, monthrange(year, m + 1)[1])


def _business_days() -> np.ndarray:
    """EDGAR's business days from the quarter's first day to a month past its last, as ordinals."""
    days = (FIRST_DAY + timedelta(n) for n in range((LAST_DAY - FIRST_DAY).days + 32))
    return np.array([d.toordinal() for d in days if d.weekday() < 5 and d not in CLOSED])


def _submissions(rng: np.random.Generator, n: int) -> dict:
    """The quarter's submissions: sub.txt's columns ('text'), and per submission its accession, company, quarters
    into the fiscal year (4: the year) and period (a month count); with their companies ('firms')."""
    forms = rng.choice(len(FORMS), n, p=FORM_SHARES)
    unpaired = {f: [int(i) for i in rng.permutation(np.flatnonzero(forms == f))] for f in (0, 1)}
    original = np.full(n, -1)  # an amendment's original in this quarter
    for i in np.flatnonzero(forms >= 2):
        if rng.random() < PAIRED and unpaired[forms[i] - 2]:
            original[i] = unpaired[forms[i] - 2].pop()
    paired = np.flatnonzero(original >= 0)
    company = np.cumsum(original < 0) - 1
    company[paired] = company[original[paired]]
    companies = int(company.max()) + 1
    prevrpt = np.zeros(n, dtype=int)
    prevrpt[original[paired]] = 1

    # fiscal calendars: 10-Qs mostly of September (calendar Q3; some Q1 and Q2), 10-Ks of years ending June to
    # October; an amendment without its original here amends the quarter before, or (10-K/A) mostly calendar 2023
    september = 2024 * 12 + 8
    quarter = np.where(forms % 2 == 0, rng.choice((3, 1, 2), n, p=(0.72, 0.14, 0.14)), 4)
    period = september + np.select(
        [forms == 0, forms == 2, forms == 1],
        [rng.choice((0, -1, 1), n, p=(0.84, 0.06, 0.10)), rng.choice((0, -1, 1), n, p=(0.84, 0.06, 0.10)) - 3,
         rng.choice((-3, -1, 0, 1), n, p=(0.15, 0.12, 0.60, 0.13))], rng.choice((-9, -3, 0), n, p=(0.6, 0.2, 0.2)))
    quarter[paired], period[paired] = quarter[original[paired]], period[original[paired]]
    fye = (period + 12 - 3 * (quarter % 4)) % 12  # the fiscal year's last month (0: January)
    fiscal_year = (period + (12 - 3 * quarter) % 12) // 12

    # acceptance: a lag after the period end (any day of the quarter where that falls before it), on an EDGAR
    # business day, at an hour as EDGAR sees them; an amendment after its original
    days = _business_days()
    last = int(np.searchsorted(days, LAST_DAY.toordinal(), side="right")) - 1
    target = np.array([_month_end(p).toordinal() for p in period]) + np.where(
        quarter == 4, rng.triangular(50, 88, 95, n), rng.triangular(18, 42, 47, n)).astype(int)
    day = np.where(target < days[0], rng.integers(0, last + 1, n), np.minimum(np.searchsorted(days, target), last))
    hours = rng.choice(len(HOUR_WEIGHTS), n, p=np.array(HOUR_WEIGHTS) / sum(HOUR_WEIGHTS))
    minute = (6 + hours) * 60 + rng.integers(0, 60, n)
    for i in paired:
        o = original[i]
        day[i] = min(day[o] + int(rng.integers(1, 15)), last)
        if day[i] == day[o]:
            minute[o], minute[i] = np.sort(rng.choice(np.arange(6 * 60, 22 * 60), 2, replace=False))
    filed = days[np.where(minute > 17 * 60 + 30, day + 1, day)]  # after 17:30: the next business day's filing

    # CIKs: the companies', then four for each company's co-registrants; accessions: per filer agent (or the company
    # itself), numbered in acceptance order
    cik = 1000 + rng.choice(2_000_000, 5 * companies, replace=False)
    firms = _companies(rng, companies)
    prefix = np.where(rng.random(n) < 0.3, np.char.zfill(cik[company].astype(str), 10),
                      np.array(AGENTS)[rng.integers(0, len(AGENTS), n)])
    adsh = np.empty(n, dtype=object)
    numbers: dict[str, int] = {}
    for i in np.lexsort((minute, day)):
        numbers[prefix[i]] = numbers.get(prefix[i], int(rng.integers(0, 20_000))) + int(rng.integers(1, 8))
        adsh[i] = f"{prefix[i]}-24-{numbers[prefix[i]]:06d}"

    coregs = firms["coregs"][company]
    text = {
        "adsh": adsh.tolist(), "cik": cik[company].astype(str).tolist(),
        **{k: [v[c] for c in company] for k, v in firms["text"].items()},
        "fye": [f"{m + 1:02d}{monthrange(2023, m + 1)[1]}" for m in fye],
        "form": [FORMS[f] for f in forms],
        "period": [f"{_month_end(p):%Y%m%d}" for p in period],
        "fy": fiscal_year.astype(str).tolist(),
        "fp": [f"Q{q}" if q < 4 else "FY" for q in quarter],
        "filed": [f"{date.fromordinal(int(d)):%Y%m%d}" for d in filed],
        "accepted": [f"{date.fromordinal(int(days[d]))} {m // 60:02d}:{m % 60:02d}:00.0"
                     for d, m in zip(day, minute, strict=True)],
        "prevrpt": prevrpt.astype(str).tolist(),
        "detail": (rng.random(n) < 0.9).astype(int).astype(str).tolist(),
        "instance": [f"{firms['ticker'][c]}-{_month_end(p):%Y%m%d}_htm.xml" for c, p in zip(company, period,
                                                                                          strict=True)],
        "nciks": (coregs + 1).astype(str).tolist(),
        "aciks": [" ".join(cik[companies + 4 * c: companies + 4 * c + k].astype(str)) for c, k in zip(
            company, coregs, strict=True)],
    }
    return {"text": text, "adsh": adsh, "company": company, "quarter": quarter, "period": period, "firms": firms}


def _companies(rng: np.random.Generator, n: int) -> dict:
    """The companies: sub.txt's columns about them ('text'), tickers, segments values and co-registrants (each one
    list, a company's a slice: start and count), taxonomy year (1: the prior year's), currency and size."""
    text: dict[str, list[str]] = {k: [] for k in SUB_COLUMNS[2:24]}
    tickers, segments, seg_start, coreg_names, coreg_start = [], [], [], [], []
    combos = rng.choice(len(FIRST_WORDS) * len(SECOND_WORDS) * len(INDUSTRIES) * len(SUFFIXES), n, replace=False)
    coregs = np.where(rng.random(n) < COREG_FILERS, rng.integers(1, 4, n), 0)
    for c, combo in enumerate(combos):
        rest, suffix = divmod(int(combo), len(SUFFIXES))
        rest, industry = divmod(rest, len(INDUSTRIES))
        first, second = divmod(rest, len(SECOND_WORDS))
        words = (FIRST_WORDS[first], SECOND_WORDS[second], INDUSTRIES[industry][0])
        token = words[0].capitalize() + words[1].capitalize()
        tickers.append((words[0][:2] + words[1][0] + words[2][0]).lower())
        seg_start.append(len(segments))
        segments += _dimensions(rng, token)
        coreg_start.append(len(coreg_names))
        coreg_names += [token + s for s in rng.choice(COREG_SUFFIXES, coregs[c], replace=False)]
        city, state, zipcode = PLACES[rng.integers(len(PLACES))]
        street = f"{rng.integers(1, 9999)} {STREETS[rng.integers(len(STREETS))]}"
        suite = f"SUITE {rng.integers(100, 2000)}" if rng.random() < 0.4 else ""
        phone = f"{rng.integers(201, 990)}{rng.integers(200, 999)}{rng.integers(0, 10_000):04d}"
        renamed = rng.random() < 0.15
        afs = AFS[rng.choice(len(AFS), p=AFS_SHARES)]
        values = {
            "name": f"{' '.join(words)} {SUFFIXES[suffix]}", "sic": INDUSTRIES[industry][1], "countryba": "US",
            "stprba": state, "cityba": city, "zipba": zipcode, "bas1": street, "bas2": suite,
            "baph": f"({phone[:3]}) {phone[3:6]}-{phone[6:]}" if rng.random() < 0.5 else phone,
            "countryma": "US", "stprma": state, "cityma": city, "zipma": zipcode, "mas1": street, "mas2": suite,
            "countryinc": "US", "stprinc": INCORPORATED[rng.integers(len(INCORPORATED))],
            "ein": f"{rng.integers(10_000_000, 999_999_999):09d}",
            "former": f"{words[0]} {words[1]} {SUFFIXES[(suffix + 1) % len(SUFFIXES)]}" if renamed else "",
            "changed": f"{rng.integers(1995, 2024)}{rng.integers(1, 13):02d}{rng.integers(1, 29):02d}"
            if renamed else "",
            "afs": afs, "wksi": str(int(afs == "1-LAF" and rng.random() < 0.7)),
        }
        for k, v in values.items():
            text[k].append(v)
    return {
        "text": text, "ticker": tickers, "segments": segments, "seg_start": np.array(seg_start),
        "seg_count": np.diff(seg_start + [len(segments)]), "coreg_names": coreg_names,
        "coreg_start": np.array(coreg_start), "coregs": coregs, "year": (rng.random(n) < 0.15).astype(int),
        "currency": rng.choice(len(CURRENCIES), n, p=CURRENCY_SHARES),
        "scale": 10 ** rng.uniform(5, 10.5, n), "shares": 10 ** rng.uniform(6, 9.5, n),
    }


def _dimensions(rng: np.random.Generator, token: str) -> list[str]:
    """A company's segments values as FSDS writes them ('Axis=Member;', axes in order): members of shared axes, its
    own products, business segments and regions, and some pairs."""
    own = {"ProductOrService": [token + p for p in rng.choice(PRODUCTS, rng.integers(2, 8), replace=False)],
           "BusinessSegments": [s + "Segment" for s in rng.choice(SEGMENT_NAMES, rng.integers(2, 6), replace=False)],
           "Geographical": list(rng.choice(REGIONS, rng.integers(2, 6), replace=False))}
    shared = [(a, m) for a, ms in SHARED_AXES.items() for m in ms]
    chosen = [{a: m} for a, ms in own.items() for m in ms]
    chosen += [dict([shared[i]]) for i in rng.choice(len(shared), rng.integers(4, 16), replace=False)]
    pairs = [{"BusinessSegments": s, "Geographical": g} for s, g in product(own["BusinessSegments"],
                                                                          own["Geographical"])]
    pairs += [{"FairValueByFairValueHierarchyLevel": v, "FinancialInstrument": f} for v, f in product(
        SHARED_AXES["FairValueByFairValueHierarchyLevel"], SHARED_AXES["FinancialInstrument"])]
    chosen += [pairs[i] for i in rng.choice(len(pairs), rng.integers(0, len(pairs) // 2), replace=False)]
    return ["".join(f"{a}={d[a]};" for a in sorted(d)) for d in chosen]


def _spread(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For rows counted per submission: each row's submission and its position among that submission's rows."""
    owner = np.repeat(np.arange(len(counts)), counts)
    return owner, np.arange(int(counts.sum())) - (np.cumsum(counts) - counts)[owner]


def _num(rng: np.random.Generator, subs: dict, tags: dict[str, np.ndarray], rows: int) -> tuple[pa.Table, dict]:
    """num.txt's rows in a random order, and the custom tags they use (index in CUSTOM_NAMES, submission)."""
    n, firms, company, quarter = len(subs["adsh"]), subs["firms"], subs["company"], subs["quarter"]
    # each kind of filing's (tag, context) pairs, tag by tag, core tags first; kind: quarters into the year
    pair_tag, pair_back, pair_qtrs, base, core, length = [], [], [], {}, {}, {}
    for kind in (1, 2, 3, 4):
        base[kind] = len(pair_tag)
        for t, iord in enumerate(tags["iord"]):
            contexts = (DURATIONS if iord == "D" else INSTANTS)[kind]
            pair_tag += [t] * len(contexts)
            pair_back += [back for back, _ in contexts]
            pair_qtrs += [qtrs for _, qtrs in contexts]
            if t == len(CORE) - 1:
                core[kind] = len(pair_tag) - base[kind]
        length[kind] = len(pair_tag) - base[kind]
    pair_tag, pair_back, pair_qtrs = np.array(pair_tag), np.array(pair_back), np.array(pair_qtrs)
    k_base, k_core, k_len = (np.array([d[q] for q in quarter]) for d in (base, core, length))

    # rows per submission (log-normal, `rows` in all), and of them: co-registrant, custom, segments and plain rows
    weights = rng.lognormal(0, SIGMA, n)
    size = MIN_ROWS + np.floor(weights / weights.sum() * (rows - MIN_ROWS * n)).astype(np.int64)
    size[rng.permutation(n)[:rows - int(size.sum())]] += 1
    coregs, seg_count = firms["coregs"][company], firms["seg_count"][company]
    n_coreg = np.where(coregs > 0, np.round(COREG * size), 0).astype(np.int64)
    n_custom = np.round(CUSTOM * size).astype(np.int64)
    n_seg = np.round(SEGMENTS * size).astype(np.int64)
    n_plain = size - n_coreg - n_custom - n_seg
    spill = np.maximum(n_plain - k_len, 0)  # more plain rows than pairs: the rest get segments
    n_plain, n_seg = n_plain - spill, n_seg + spill
    if np.any(n_seg > n_plain * seg_count) or np.any(n_coreg > n_plain * coregs * (seg_count + 1)) or \
            np.any(n_custom > 2 * len(CUSTOM_NAMES)):
        raise ValueError(f"{rows:,} rows are too many for {n:,} submissions")
    offset = rng.integers(0, k_len - k_core)

    def pair(sub: np.ndarray, j: np.ndarray) -> np.ndarray:
        """The j-th (tag, context) pair a submission reports: its kind's core pairs, then a run from its offset."""
        rest = k_len[sub] - k_core[sub]
        return k_base[sub] + np.where(j < k_core[sub], j, k_core[sub] + (offset[sub] + j - k_core[sub]) % rest)

    def spaced(counts: np.ndarray, space: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rows spread over each submission's space of (plain pair, rest) codes, distinct ones (j -> PRIME * j +
        b mod space is one-to-one): submission, plain pair position, rest."""
        sub, j = _spread(counts)
        code = (PRIME * j + rng.integers(0, space)[sub]) % space[sub]
        return sub, code % n_plain[sub], code // n_plain[sub]

    plain_sub, plain_j = _spread(n_plain)
    seg_sub, seg_local, seg = spaced(n_seg, n_plain * seg_count)
    # a co-registrant's rows: with or without segments (rest: co-registrant, then segments + 1)
    coreg_sub, coreg_local, rest = spaced(n_coreg, n_plain * np.maximum(coregs, 1) * (seg_count + 1))
    coreg_k, coreg_seg = rest % coregs[coreg_sub], rest // coregs[coreg_sub] - 1
    std_sub = np.concatenate([plain_sub, seg_sub, coreg_sub])
    std_tag_pair = np.concatenate([pair(plain_sub, plain_j), pair(seg_sub, seg_local), pair(coreg_sub, coreg_local)])
    std_tag = pair_tag[std_tag_pair]

    # custom rows: the filer's own tags (version = its adsh), two contexts each; even-numbered names are instants
    custom_sub, custom_j = _spread(n_custom)
    custom_ix = (rng.integers(0, len(CUSTOM_NAMES), n)[custom_sub] + custom_j // 2) % len(CUSTOM_NAMES)
    instant, q = custom_ix % 2 == 0, quarter[custom_sub]
    prior = np.where(instant, np.where(q < 4, 3 * q, 12), 12)  # months back to the second context
    first = custom_j % 2 == 0
    custom = {"name": custom_ix[first], "sub": custom_sub[first]}

    sub = np.concatenate([std_sub, custom_sub])
    tag = np.concatenate([std_tag, len(tags["name"]) + custom_ix])
    version = np.concatenate([2 * tags["taxonomy"][std_tag] + firms["year"][company[std_sub]],
                              len(VERSIONS) + custom_sub])
    datatype = np.concatenate([tags["datatype"][std_tag], np.full(len(custom_sub), DATATYPES.index("monetary"))])
    back = np.concatenate([pair_back[std_tag_pair], np.where(first, 0, prior)])
    qtrs = np.concatenate([pair_qtrs[std_tag_pair], np.where(instant, 0, np.where(q < 4, 1, 4))])
    segment = np.concatenate([np.full(len(plain_sub), -1), firms["seg_start"][company[seg_sub]] + seg,
                              np.where(coreg_seg < 0, -1, firms["seg_start"][company[coreg_sub]] + coreg_seg),
                              np.full(len(custom_sub), -1)])
    coreg = np.concatenate([np.full(len(plain_sub) + len(seg_sub), -1),
                            firms["coreg_start"][company[coreg_sub]] + coreg_k, np.full(len(custom_sub), -1)])

    order = rng.permutation(rows)
    sub, tag, version, datatype, back, qtrs, segment, coreg = (
        a[order] for a in (sub, tag, version, datatype, back, qtrs, segment, coreg))
    firm = company[sub]
    month = subs["period"][sub] - back
    uom = np.select([datatype == DATATYPES.index("shares"), datatype == DATATYPES.index("pure")],
                    [len(CURRENCIES), len(CURRENCIES) + 1], firms["currency"][firm])
    units = _values(rng, datatype, qtrs == 0, firms["scale"][firm], firms["shares"][firm])
    footnote = np.where(rng.random(rows) < FOOTNOTED, rng.integers(0, len(FOOTNOTES), rows), -1)
    table = pa.table({
        "adsh": _take(subs["adsh"], sub),
        "tag": _take([*tags["name"], *CUSTOM_NAMES], tag),
        "version": _take([*VERSIONS, *subs["adsh"]], version),
        "ddate": _take([f"{_month_end(m):%Y%m%d}" for m in range(month.min(), month.max() + 1)], month - month.min()),
        "qtrs": _take([str(q) for q in range(5)], qtrs),
        "uom": _take([*CURRENCIES, "shares", "pure"], uom),
        "segments": _take(firms["segments"], segment),
        "coreg": _take(firms["coreg_names"], coreg),
        "value": _decimals(units, valid=rng.random(rows) >= NIL),
        "footnote": _take(FOOTNOTES, footnote),
    })
    return table, custom


def _values(rng: np.random.Generator, datatype: np.ndarray, instant: np.ndarray, scale: np.ndarray,
            shares: np.ndarray) -> np.ndarray:
    """Values in ten-thousandths (FSDS keeps four decimals): money around the company's size (some negative, some
    zero), share counts around its shares, per-share amounts in cents (par values 0.0001 to 1), ratios."""
    n = len(datatype)
    money = np.minimum(np.round(scale * rng.lognormal(0, 1.2, n)), 10 ** 14).astype(np.int64)
    money = np.where(scale >= 1e7, money // 1000 * 1000, money) * rng.choice((-1, 0, 1), n, p=(0.1, 0.04, 0.86))
    count = np.round(shares * rng.uniform(0.9, 1.1, n)).astype(np.int64)
    per_share = np.where(instant, 10 ** rng.integers(0, 5, n), np.round(rng.normal(150, 250, n)).astype(np.int64) * 100)
    return np.select([datatype == DATATYPES.index("monetary"), datatype == DATATYPES.index("shares"),
                      datatype == DATATYPES.index("perShare")],
                     [money * 10_000, count * 10_000, per_share], rng.integers(0, 5000, n))


def _take(pool: list[str] | tuple[str, ...] | np.ndarray, index: np.ndarray) -> pa.Array:
    """Strings of a pool by index (-1: null)."""
    return pa.array(pool, pa.string()).take(pa.array(index, mask=index < 0))


def _decimals(units: np.ndarray, valid: np.ndarray) -> pa.Array:
    """Ten-thousandths as FSDS's decimal text ('-1.4300'), null where not valid."""
    data = np.stack([units, units >> 63], axis=1).ravel()  # 128-bit two's complement, little-endian
    array = pa.Array.from_buffers(pa.decimal128(28, 4), len(units), [pa.array(valid).buffers()[1],
                                                                     pa.py_buffer(data)])
    return array.cast(pa.string())


def _tag_table(tags: dict[str, np.ndarray], custom: dict, adsh: np.ndarray) -> pa.Table:
    """tag.txt: every standard tag under both taxonomy years, then each custom tag with its submission's adsh."""
    standard = [(name, f"{TAXONOMIES[tax]}/{year}", "0", DATATYPES[dt], iord, crdr, _label(name))
                for year in (2024, 2023) for name, tax, dt, iord, crdr in zip(
                    tags["name"], tags["taxonomy"], tags["datatype"], tags["iord"], tags["crdr"], strict=True)]
    own = [(CUSTOM_NAMES[i], adsh[s], "1", "monetary", "I" if i % 2 == 0 else "D", "D", _label(CUSTOM_NAMES[i]))
           for i, s in zip(custom["name"], custom["sub"], strict=True)]
    tag, version, is_custom, datatype, iord, crdr, label = zip(*standard, *own, strict=True)
    return pa.table({"tag": tag, "version": version, "custom": is_custom, "abstract": ["0"] * len(tag),
                     "datatype": datatype, "iord": iord, "crdr": crdr, "tlabel": label,
                     "doc": [f"{DOCS[DATATYPES.index(d)]} {lab.lower()}." if c == "0" else None
                             for d, lab, c in zip(datatype, label, is_custom, strict=True)]})


def _label(name: str) -> str:
    """A tag's words: 'NetIncomeLoss' -> 'Net Income Loss'."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name)


def _write_tsv(path: Path, columns: tuple[str, ...], table: pa.Table) -> None:
    """A table as the SEC writes one: a header line, tab-separated unquoted fields, empty for null, LF ends."""
    with pa.OSFile(str(path), "wb") as out:
        out.write(("\t".join(columns) + "\n").encode())
        pcsv.write_csv(table.select(list(columns)), out,
                       pcsv.WriteOptions(include_header=False, delimiter="\t", quoting_style="none"))


def _zip(folder: Path, name: str) -> Path:
    """The files zipped as the SEC ships a quarter, with fixed times so the bytes depend only on the files."""
    path = folder / name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for member in FILES:
            info = zipfile.ZipInfo(member, date_time=(2025, 1, 2, 8, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(folder / member, "rb") as src, archive.open(info, "w") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
    return path
