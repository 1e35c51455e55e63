"""Company names as people write them: the normalizer, the index (tickers, CIKs, names, former names,
acronyms, curated aliases; ambiguity never guessed, no fuzzy resolution), and resolve_entity on real SEC
companies, whose expected ids and names are read from the raw JSON."""

from __future__ import annotations

import csv
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factstore.errors import Ambiguous, NotFound
from factstore.names import (
    ALIASES_FILE,
    Alias,
    Entity,
    Names,
    acronyms,
    core_words,
    filer_words,
    name_words,
    one_edit,
)
from tests.helpers import FOUR_COMPANIES, submissions_for


@pytest.mark.parametrize(("name", "core"), [
    ("Apple Inc.", "apple"), ("NVIDIA CORP", "nvidia"), ("NVIDIA CORP/CA", "nvidia"),
    ("APPLE COMPUTER INC/ FA", "apple computer"),
    ("Taiwan Semiconductor Manufacturing Co Ltd", "taiwan semiconductor manufacturing"),
    ("Taiwan Semiconductor Manufacturing Company Limited", "taiwan semiconductor manufacturing"),
    ("Meta Platforms, Inc.", "meta platforms"), ("Koninklijke Philips N.V.", "koninklijke philips"),
    ("Banco Santander, S.A.", "banco santander"), ("Vodafone Group Plc", "vodafone"),
    ("The Coca-Cola Company", "coca cola"), ("AT&T Inc.", "att"), ("Apple's", "apple"), ("Alphabet’s", "alphabet"),
    ("Berkshire Hathaway Holdings Ltd", "berkshire hathaway"), ("Eólica del Cierzo", "eolica del cierzo"),
    ("Amazon.com, Inc.", "amazon com"), ("AMAZON COM INC", "amazon com"), ("Holdings Inc", "holdings"),
])
def test_core_name_drops_case_accents_possessives_and_legal_suffixes(name, core):
    assert " ".join(core_words(filer_words(name))) == core


def test_question_words_keep_what_names_drop():
    assert name_words("What was Apple's revenue, in FY2024?") == ["what", "was", "apple", "revenue", "in", "fy2024"]


@pytest.mark.parametrize(("name", "expected"), [
    ("Taiwan Semiconductor Manufacturing Co Ltd", {"tsm", "tsmc"}),
    ("International Business Machines Corp", {"ibm", "ibmc"}),
    ("Logistic Properties of the Americas", {"lpa"}), ("Apple Inc.", set()), ("Busmar Hogar", set()),
    ("Atalaya IBEX 35 UCITS ETF", set()), ("Bank of America Corp", {"bac"}),
    # found blind (set u): 'AIG net income for the second quarter of 2009' named no company
    ("AMERICAN INTERNATIONAL GROUP INC", {"aig"}), ("Alibaba Group Holding Limited", set()),
])
def test_acronyms(name, expected):
    assert acronyms(name) == expected


def _osa(a: str, b: str) -> int:
    """Optimal string alignment distance, brute force."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


WORDS = st.text(alphabet="abcde ", min_size=0, max_size=8)


@settings(deadline=None, max_examples=300)
@given(WORDS, WORDS)
def testone_edit_is_distance_one(a, b):
    assert one_edit(a, b) == (_osa(a, b) == 1)


@settings(deadline=None, max_examples=100)
@given(st.lists(st.text(alphabet="abcd", min_size=5, max_size=7), min_size=1, max_size=6, unique=True),
       st.text(alphabet="abcd", min_size=5, max_size=7))
def test_typo_index_finds_every_nameone_edit_away(names, query):
    index = Names([Entity(n.capitalize()) for n in names], aliases=[])
    assert index._near(query) == {n for n in names if _osa(query, n) == 1}


ALPHA = [Entity("Alpha Holdings Inc", "0000000001", cik=1), Entity("Alpha Corp", "0000000002", cik=2),
         Entity("Micron Technology Inc", "0000723125", ("MU",), cik=723125),
         Entity("Bank of America Corp", "0000070858", ("BAC",), cik=70858),
         Entity("Gartner Inc", "0000749251", ("IT",), cik=749251),
         Entity("Apple Inc.", "0000320193", ("AAPL",), cik=320193), Entity("The Coca-Cola Company", "KO")]
CURATED = [Alias("Microsoft", 789019, "Microsoft Corporation"), Alias("BofA", 70858, "Bank of America")]


def test_a_name_that_fits_several_is_never_guessed():
    names = Names(ALPHA, CURATED)
    with pytest.raises(Ambiguous) as caught:
        names.resolve("alpha")
    assert caught.value.candidates == ["Alpha Corp (CIK 2)", "Alpha Holdings Inc (CIK 1)"]
    assert names.resolve("Alpha Corp.").cik == 2 and names.resolve("ALPHA HOLDINGS").cik == 1
    found = names.find("What was Alpha's revenue in 2023?")
    assert not found.entities and [w for w, _ in found.ambiguous] == ["Alpha"]


def test_an_acronym_never_takes_another_company_s_name():
    """Found blind on the FSDS filers: 'FMC' was Ford Motor Co's acronym before FMC Corp's name, and 'EMC' Exxon
    Mobil's before EMC Corp's."""
    names = Names([Entity("FORD MOTOR CO", "0000037996", cik=37996), Entity("FMC CORP", "0000037785", cik=37785),
                   Entity("TAIWAN SEMICONDUCTOR MANUFACTURING CO LTD", "0001046179", cik=1046179)], [])
    assert names.resolve("FMC").cik == 37785 and names.resolve("fmc corp").cik == 37785
    assert names.resolve("TSMC").cik == 1046179 and names.resolve("Ford Motor").cik == 37996


def test_a_company_not_held_resolves_to_nothing_else():
    names = Names(ALPHA, CURATED)
    with pytest.raises(NotFound, match="Microsoft Corporation .CIK 789019. is not in the store"):
        names.resolve("Microsoft")
    with pytest.raises(NotFound, match="unknown entity 'Micro'"):
        names.resolve("Micro")  # close to Micron, and still not Micron
    assert names.find("How did Microsoft do in 2023?").absent == ["Microsoft Corporation (CIK 789019)"]
    assert names.find("What was Acme's revenue?").unknown == ["Acme"]


@pytest.mark.parametrize(("question", "mentioned", "unknown"), [
    ("which chip company relies on TSMC and Samsung to produce its wafers", ["TSMC"], []),
    ("¿Qué empresa debe presentar planes de resolución (living wills) a la FRB y la FDIC?", ["FRB", "FDIC"], []),
    ("Which banks report to the FDIC?", ["FDIC"], []),
    ("What does TSMC say about its wafers?", [], ["TSMC"]),  # no company asked for: TSMC is the subject
    ("Which company is TSMC's largest customer?", [], ["TSMC"]),  # a possessive names its subject
    ("What was MSFT revenue in 2023?", [], ["MSFT"]),
])
def test_an_organization_a_question_asking_which_company_mentions_is_not_its_subject(question, mentioned, unknown):
    found = Names(ALPHA, CURATED).find(question)
    assert (found.mentioned, found.unknown) == (mentioned, unknown)
    assert found.asks_which == question.lower().startswith(("which", "¿qué"))


def test_codes_names_prefixes_and_curated_aliases():
    names = Names(ALPHA, CURATED)
    for text, cik in [("MU", 723125), ("mu", 723125), ("723125", 723125), ("0000723125", 723125),
                      ("CIK 723125", 723125), ("Micron Technology, Inc.", 723125), ("micron technology", 723125),
                      ("Bank of America", 70858), ("BofA", 70858), ("BAC", 70858)]:
        assert names.resolve(text).cik == cik, text
    for text in ("Coca-Cola", "coca cola company", "THE COCA-COLA CO.", "KO"):
        assert names.resolve(text).entity_id == "KO", text
    with pytest.raises(NotFound):
        names.resolve("Bank of")  # a first-words prefix never ends on a stop word


def test_free_text_wants_codes_in_capitals_and_forgives_only_capitalized_slips():
    names = Names(ALPHA, CURATED)
    assert [e.cik for e in names.find("revenue of MU and apple in 2023").entities] == [723125, 320193]
    assert not names.find("how much mu is there").entities  # a code in lower case is a word
    assert not names.find("What IT spending did they report?").entities  # IT: a word questions use
    assert [e.cik for e in names.find("Appel revenue").entities] == [320193]
    assert not names.find("how does the rule apply to them").entities  # 'apply' is one edit from Apple
    assert [e.cik for e in names.find("filings of CIK 0000070858").entities] == [70858]


def test_the_longest_name_wins_where_two_overlap():
    names = Names([Entity("Atalaya IBEX 35 UCITS ETF"), Entity("Gestora Atalaya", members=("x",)),
                   Entity("Atalaya MSCI World ESG UCITS ETF")], aliases=[])
    assert [e.name for e in names.find("riesgos del Atalaya IBEX 35 y del Atalaya MSCI World").entities] == [
        "Atalaya IBEX 35 UCITS ETF", "Atalaya MSCI World ESG UCITS ETF"]


def test_alias_file_rows_are_whole():
    with open(ALIASES_FILE, encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert rows and all(r["alias"].strip() and r["cik"].isdigit() and r["company"].strip() for r in rows)


# ------------------------------------------------------------------------------------------------- real data
COMPANIES = FOUR_COMPANIES  # conftest's four_companies holds them


@pytest.fixture(scope="module")
def sec(four_companies):
    """Apple, NVIDIA, Alphabet and TSMC, with their submissions where shared/real has them."""
    return four_companies


def _json(path):
    return json.loads(path.read_text())


@pytest.mark.parametrize("name", COMPANIES)
def test_every_ticker_cik_and_name_the_sec_gives_resolves(sec, real, name):
    facts = _json(real / "companyfacts" / name)
    entity_id = f"{int(facts['cik']):010d}"
    ways = [facts["entityName"], facts["entityName"].upper(), str(int(facts["cik"])), entity_id, int(facts["cik"])]
    subs = submissions_for(real, name)
    if subs:
        company = _json(subs[0])
        ways += [company["name"], *(f["name"] for f in company["formerNames"]),
                 *company["tickers"], *(t.lower() for t in company["tickers"])]
    for way in ways:
        assert sec.resolve_entity(way) == entity_id, way


@pytest.mark.parametrize(("written", "name"), [
    ("Apple", "CIK0000320193.json"), ("apple's", "CIK0000320193.json"), ("Nvidia", "CIK0001045810.json"),
    ("Alphabet", "CIK0001652044.json"), ("Google", "CIK0001652044.json"), ("TSMC", "CIK0001046179.json"),
    ("tsmc", "CIK0001046179.json"), ("Taiwan Semiconductor", "CIK0001046179.json"),
])
def test_names_as_people_write_them(sec, real, written, name):
    assert sec.resolve_entity(written) == f"{int(_json(real / 'companyfacts' / name)['cik']):010d}"


def test_a_company_the_store_lacks_is_not_found(sec, real):
    microsoft = _json(real / "submissions" / "CIK0000789019.json")
    for written in ("Microsoft", microsoft["name"], *microsoft["tickers"]):
        with pytest.raises(NotFound):
            sec.resolve_entity(written)
    with pytest.raises(NotFound, match=f"CIK {int(microsoft['cik'])}. is not in the store"):
        sec.resolve_entity("Microsoft")
