"""SQL finds entities as the API does: entity_key (and every macro taking an entity) reads tickers, CIKs, names in
full or without legal suffixes, former names, first words, acronyms and curated aliases through the table
entity_names, which factstore.names writes in the transaction that changes the entities. Checked against
FactStore.resolve_entity on the same inputs: the same entity, or both refuse for the same reason."""

from __future__ import annotations

import random
import subprocess
import sys

import duckdb
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import factstore
from factstore import entity_names
from factstore.errors import Ambiguous, FactstoreError
from factstore.loaders.batch import Batch
from factstore.names import LEGAL_SUFFIXES, core_words, filer_words

# (entity_id, cik, name, tickers, other_names)
ENTITIES = [
    ("0000000001", 1, "Alpha Holdings Inc", ["ALH"], []),
    ("0000000002", 2, "Alpha Corp", [], []),
    ("0000723125", 723125, "MICRON TECHNOLOGY INC", ["MU"], []),
    ("0000070858", 70858, "BANK OF AMERICA CORP /DE/", ["BAC"], []),
    ("0001046179", 1046179, "TAIWAN SEMICONDUCTOR MANUFACTURING CO LTD", ["TSM"], []),
    ("0000021344", 21344, "COCA COLA CO", ["KO"], []),
    ("0001000001", 1000001, "Quillmark Software, Inc.", [], ["Quill & Lark Ltd"]),
    ("0000000003", 3, "Chase Packaging Corp", [], []),  # 'Chase' is also a curated alias of JPMorgan, not held
    ("0001067983", 1067983, "BERKSHIRE HATHAWAY INC", ["BRK-B", "BRK-A"], []),
]
WRITTEN = ["MU", "mu", "723125", "0000723125", "CIK 723125", "cik: 723125", "Micron Technology, Inc.",
           "micron technology", "MICRON", "Micron's", "Bank of America", "bank of america corporation", "BAC",
           "Bank of", "TSMC", "tsmc", "Taiwan Semiconductor", "TSM", "Coke", "Coca-Cola", "THE COCA-COLA CO.",
           "coca cola company", "Quillmark", "Quillmark Software", "quill & lark", "Quill & Lark Ltd.", "alpha",
           "Alpha Corp.", "ALPHA HOLDINGS", "alph", "Microsoft", "Acme", "", "CIK 99", "brk.b", "Alpha Holdings/DE",
           "Chase", "JPMorgan", "Berkshire"]


def outcome(run, x: str) -> str:
    """What a resolver makes of a name: the entity_id, or why it refuses."""
    try:
        return run(x)
    except (Ambiguous, FactstoreError, duckdb.Error) as exc:
        text = str(exc)
        return next(why for why in ("ambiguous", "is not in the store", "the name is empty", "unknown entity")
                    if why in text)


def sql_key(store: factstore.FactStore):
    return lambda x: store.sql("SELECT entity_key(?) AS k", [x])["k"][0]


@pytest.fixture(scope="module")
def named(tmp_path_factory) -> factstore.FactStore:
    path = tmp_path_factory.mktemp("names") / "names.duckdb"
    with factstore.open(path) as s:
        frame = pd.DataFrame(ENTITIES, columns=["entity_id", "cik", "name", "tickers", "other_names"])
        s.apply(Batch("names", "test", entities=frame))
    with factstore.open(path, read_only=True) as s:
        yield s


def test_entity_key_reads_a_name_as_resolve_entity_does(named):
    got = {x: outcome(sql_key(named), x) for x in WRITTEN}
    assert got == {x: outcome(named.resolve_entity, x) for x in WRITTEN}
    # and what both say is right
    assert {got[x] for x in ("MICRON", "Micron's", "CIK 723125", "micron technology")} == {"0000723125"}
    assert got["TSMC"] == got["Taiwan Semiconductor"] == "0001046179" and got["Coke"] == "0000021344"
    assert got["quill & lark"] == got["Quill & Lark Ltd."] == got["Quillmark"] == "0001000001"
    assert got["bank of america corporation"] == "0000070858" and got["Alpha Holdings/DE"] == "0000000001"
    assert (got["Chase"], got["JPMorgan"]) == ("0000000003", "is not in the store")
    assert got["brk.b"] == got["Berkshire"] == "0001067983"
    assert (got["alpha"], got["Microsoft"], got[""], got["Bank of"]) == (
        "ambiguous", "is not in the store", "the name is empty", "unknown entity")
    with pytest.raises(FactstoreError, match=r"ambiguous: 'alpha' could be Alpha Corp \(CIK 2\), Alpha Holdings"):
        named.sql("SELECT entity_key('alpha')")
    with pytest.raises(FactstoreError, match=r"'Microsoft': Microsoft Corporation \(CIK 789019\) is not in the"):
        named.sql("SELECT entity_key('Microsoft')")


def test_every_macro_taking_an_entity_reads_names(named):
    questions = ("CREATE OR REPLACE TEMP VIEW questions_n AS SELECT 1 AS question_no, {} AS entity, 'us-gaap:Revenues' "
                 "AS concept, NULL AS period_start, DATE '2024-12-31' AS period_end, NULL AS as_of; "
                 "SELECT count(*) FROM lookup_asof('questions_n')")
    for query in (questions, "SELECT count(*) FROM facts_asof(NULL, entity := {})",
                  "SELECT count(*) FROM fiscal_years(NULL, entity := {})", "SELECT reporting_currency({})",
                  "SELECT count(*) FROM quarters_asof(NULL, entity := {})",
                  "SELECT count(*) FROM fiscal_facts(NULL, entity := {})",
                  "SELECT count(*) FROM trailing_quarters(NULL, entity := {})"):
        named.sql(query.format("'micron technology'"), write=True)
        with pytest.raises(FactstoreError, match="ambiguous: 'alpha'"):
            named.sql(query.format("'alpha'"), write=True)


def test_plain_duckdb_reads_names_from_the_file(named):
    """An analyst's DuckDB, without factstore, in another process: the table and macros live in the file."""
    code = (f"import duckdb; con = duckdb.connect({str(named.path)!r}, read_only=True); "
            "print(con.execute(\"SELECT entity_key('Micron Technology, Inc.')\").fetchone()[0])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0000723125"


def test_the_names_follow_every_write_and_only_a_change_rewrites_them(tmp_path):
    with factstore.open(tmp_path / "s.duckdb") as s:
        frame = pd.DataFrame(ENTITIES[:1], columns=["entity_id", "cik", "name", "tickers", "other_names"])
        s.apply(Batch("one", "test", entities=frame))
        with pytest.raises(FactstoreError, match="unknown entity 'micron'"):
            s.sql("SELECT entity_key('micron')")
        before = s.sql("SELECT * FROM entity_names_digest")
        s.apply(Batch("again", "test", entities=frame))  # nothing new: nothing rewritten
        pd.testing.assert_frame_equal(s.sql("SELECT * FROM entity_names_digest"), before)
        with s.db.transaction():
            assert not entity_names.refresh(s.db)
        renamed = frame.assign(name="Alpha Group Holdings Inc")  # the old name becomes a former name
        s.apply(Batch("renamed", "test", entities=renamed))
        assert s.sql("SELECT entity_key('alpha group') AS a, entity_key('Alpha Holdings') AS b").values.tolist() \
            == [["0000000001", "0000000001"]]
        micron = pd.DataFrame(ENTITIES[2:3], columns=frame.columns)
        s.apply(Batch("micron", "test", entities=micron))
        assert s.sql("SELECT entity_key('micron') AS k")["k"][0] == "0000723125"
        # a stored entity given only a new ticker, or only a new other name, gains it (and is found by it)
        s.apply(Batch("ticker", "test", entities=renamed.assign(tickers=[["ALPH"]])))
        s.apply(Batch("other", "test", entities=renamed.assign(tickers=[[]], other_names=[["Omega Trust"]])))
        row = s.sql("SELECT tickers, other_names FROM entities WHERE entity_id = '0000000001'").iloc[0]
        assert sorted(row["tickers"]) == ["ALH", "ALPH"] and "Omega Trust" in list(row["other_names"])
        assert s.sql("SELECT entity_key('ALPH') AS a, entity_key('Omega Trust') AS b").values.tolist() \
            == [["0000000001", "0000000001"]]
        assert s.resolve_entity("ALPH") == "0000000001"


WORDS = st.sampled_from(["Apple", "NVIDIA", "coca", "Cola", "AT&T", "O'Reilly", "McDonald's", "S.A.", "U.S.",
                         "N.V.", "Inc.", "Inc", "Corp", "CORPORATION", "Holdings", "Group", "the", "The", "Nestlé",
                         "Société", "Générale", "Amazon.com", "Ltd", "plc", "Co.", "&", "3M", "Alpha-Beta",
                         "Procter", "Gamble", "21st", "Century", "Fox", "BRK.B", "Zürich", "Øresund", "L'Oréal",
                         "Hewlett‑Packard", "(The)", "co", "/DE/", "/CA"])
SEPARATORS = st.sampled_from([" ", " ", ", ", "  ", "-", " / "])


@settings(deadline=None, max_examples=300)
@given(st.lists(st.tuples(WORDS, SEPARATORS), min_size=1, max_size=6))
def test_name_and_core_keys_are_the_index_s_in_sql(named, parts):
    name = "".join(w + sep for w, sep in parts).strip()
    suffixes = "|".join(sorted(LEGAL_SUFFIXES))
    words, core = named.sql("SELECT filer_key(?) AS w, core_key(filer_key(?), ?) AS c",
                                  [name, name, suffixes]).iloc[0]
    assert words == " ".join(filer_words(name)), name
    assert core == " ".join(core_words(filer_words(name))), name


@pytest.mark.real
def test_every_real_name_resolves_in_sql_as_in_the_api(real_store):
    """The eight companies and a sample of the FSDS filers (former names too) as people write them."""
    rows = real_store.sql("SELECT entity_id, name, other_names, tickers, cik FROM entities ORDER BY entity_id")
    rng = random.Random(7)
    written = []
    for row in rows.itertuples(index=False):
        if row.tickers is not None and len(row.tickers) == 0 and rng.random() > 0.15:
            continue  # the eight companies (with tickers) always, a sample of the FSDS filers
        for name in [row.name, *(row.other_names if row.other_names is not None else [])]:
            written += [name, name.lower(), name.split()[0], " ".join(name.split()[:2]), f"{name} Inc.",
                        name.replace(",", ""), f"The {name}", f"{name}'s"]
        written += [*(row.tickers if row.tickers is not None else []), f"CIK {row.cik}"]
    written = list(dict.fromkeys([*written, "Google", "TSMC", "Taiwan Semiconductor", "Alphabet", "LPA", "Meta"]))
    assert len(written) > 500
    sql, api = sql_key(real_store), real_store.resolve_entity
    differ = [(x, s, a) for x in written if (s := outcome(sql, x)) != (a := outcome(api, x))]
    assert not differ, differ[:10]
    assert outcome(sql, "Google") == outcome(sql, "Alphabet") == "0001652044"


def test_a_name_it_cannot_read_is_an_error_in_the_panel_and_a_point_lookup(named):
    named.sql("CREATE OR REPLACE TEMP VIEW d AS SELECT TIMESTAMP '2024-06-30' AS date", write=True)
    with pytest.raises(FactstoreError, match="unknown entity 'Acme'"):
        named.sql("SELECT * FROM panel_asof('d', ['us-gaap:Revenues'], entities := ['MU', 'Acme'])")
    with pytest.raises(FactstoreError, match="ambiguous: 'alpha'"):
        named.sql("SELECT * FROM fact_asof('alpha', ['us-gaap:Revenues'], NULL, DATE '2024-01-28')")
    cells = named.sql("SELECT entity_id FROM panel_asof('d', ['us-gaap:Revenues'], entities := ['Micron', 'MU'])")
    assert cells["entity_id"].tolist() == ["0000723125"]

