"""The EDGAR XBRL feed: monthly archives written here from real filings' accessions and times (as the store read
them from the companies' submissions), loaded into the xbrl_feed index and used by load_xbrl."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pandas as pd
import pytest

import factstore
from factstore.cli import main
from factstore.errors import LoadError
from factstore.sec.client import SecClient
from tests.helpers import REAL, submissions_for
from tests.sec_server import SecServer

NEW_YORK = ZoneInfo("America/New_York")
ITEM = """<item><title>{company} ({form})</title><edgar:xbrlFiling xmlns:edgar="http://www.sec.gov/Archives/edgar">
<edgar:companyName>{company}</edgar:companyName><edgar:formType>{form}</edgar:formType>
<edgar:filingDate>{filed}</edgar:filingDate><edgar:cikNumber>{cik:010d}</edgar:cikNumber>
<edgar:accessionNumber>{accession}</edgar:accessionNumber><edgar:fileNumber>000-00000</edgar:fileNumber>
<edgar:acceptanceDatetime>{local}</edgar:acceptanceDatetime><edgar:period>{period}</edgar:period>
<edgar:assistantDirector>Office of Technology</edgar:assistantDirector><edgar:assignedSic>3571</edgar:assignedSic>
<edgar:fiscalYearEnd>0928</edgar:fiscalYearEnd><edgar:xbrlFiles>
<edgar:xbrlFile edgar:sequence="1" edgar:file="{document}" edgar:type="{form}" edgar:size="1" edgar:description="{form}"
 edgar:inlineXBRL="true" edgar:url="https://www.sec.gov/Archives/edgar/data/{cik}/{folder}/{document}"/>
</edgar:xbrlFiles></edgar:xbrlFiling></item>"""


def feed(items: list[dict]) -> str:
    """A monthly archive listing these filings (accepted_at in UTC, written as the feed writes it: New York)."""
    body = "".join(ITEM.format(
        company=i["company"], form=i["form"], filed=pd.Timestamp(i["filed"]).strftime("%m/%d/%Y"), cik=i["cik"],
        accession=i["accession"], period=pd.Timestamp(i["period"]).strftime("%Y%m%d"),
        local=i["accepted_at"].replace(tzinfo=ZoneInfo("UTC")).astimezone(NEW_YORK).strftime("%Y%m%d%H%M%S"),
        document=i.get("document", "doc.htm"), folder=i["accession"].replace("-", "")) for i in items)
    return f'<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>XBRL</title>{body}' \
           "</channel></rss>"


@pytest.fixture(scope="module")
def known(real, tmp_path_factory):
    """Apple's and NVIDIA's 10-K and 10-Q filings as the store reads them from their submissions."""
    with factstore.open(tmp_path_factory.mktemp("feed") / "known.duckdb") as store:
        for name in ("CIK0000320193.json", "CIK0001045810.json"):
            store.load_companyfacts(real / "companyfacts" / name, submissions_for(real, name), progress=False)
        rows = store.sql("""SELECT f.filing_id AS accession, e.cik, e.name AS company, f.form, f.period_end AS period,
            f.filed, f.accepted_at FROM filings f JOIN entities e USING (entity_id)
            WHERE f.form IN ('10-K', '10-Q') AND f.accepted_precision = 'second' AND f.filed >= '2023-01-01'
            ORDER BY f.accepted_at""")
    return [{**r, "accepted_at": pd.Timestamp(r["accepted_at"]).to_pydatetime()} for r in rows.to_dict("records")]


def _archives(known: list[dict], folder) -> list:
    """Two archives, each filing under its filing month, and NVIDIA's 10-K of February 2025 in both."""
    months: dict[str, list[dict]] = {}
    for item in known:
        months.setdefault(pd.Timestamp(item["filed"]).strftime("%Y-%m"), []).append(item)
    twice = next(i for i in known if i["accession"] == "0001045810-25-000023")
    paths = []
    for month in ("2025-02", "2025-03"):
        path = folder / f"xbrlrss-{month}.xml"
        path.write_text(feed(months.get(month, []) + ([twice] if month == "2025-03" else [])))
        paths.append(path)
    everything = folder / "xbrlrss-all.xml"
    everything.write_text(feed(known))
    return [*paths, everything]


def test_the_feed_gives_every_filings_time_to_the_second_and_lists_each_once(known, tmp_path):
    february, march, everything = _archives(known, tmp_path)
    with factstore.open(tmp_path / "feed.duckdb") as store:
        first = store.load_xbrl_feed([february, march], progress=False)
        assert first[1].listed == len(pd.read_xml(march, xpath="//item")) - 1  # NVIDIA's 10-K: listed already
        (rest,) = store.load_xbrl_feed(everything, progress=False)
        assert first[0].listed + first[1].listed + rest.listed == len(known)
        assert store.load_xbrl_feed(everything, progress=False)[0].listed == 0
        index = store.sql("SELECT accession, accepted_at, accepted_local, accepted_precision, files FROM xbrl_feed")
    got = {r.accession: r for r in index.itertuples()}
    for item in known:
        row = got[item["accession"]]
        assert pd.Timestamp(row.accepted_at).to_pydatetime() == item["accepted_at"]
        assert row.accepted_precision == "second"
        wall = pd.Timestamp(row.accepted_local).to_pydatetime().replace(tzinfo=NEW_YORK)
        assert wall.astimezone(ZoneInfo("UTC")).replace(tzinfo=None) == item["accepted_at"]
    assert got["0001045810-25-000023"].files[0]["url"].endswith("/000104581025000023/doc.htm")


def test_a_10k_takes_its_accession_and_time_from_the_feed(known, tmp_path):
    path = tmp_path / "xbrlrss-2025-02.xml"
    path.write_text(feed([i for i in known if i["accession"] == "0001045810-25-000023"]))
    with factstore.open(tmp_path / "nvda.duckdb") as store:
        store.load_xbrl_feed(path, progress=False)
        (report,) = store.load_xbrl(REAL / "filings/NVDA_10-K_2025-02-26.html", progress=False)
        assert report.filings == 1 and report.reports > 900
        filing = store.sql("SELECT filing_id, accepted_at, accepted_precision FROM filings").iloc[0]
    assert (filing["filing_id"], filing["accepted_precision"]) == ("0001045810-25-000023", "second")
    assert filing["accepted_at"] == datetime(2025, 2, 26, 21, 48, 33)


def test_a_bad_item_names_the_file_the_item_and_the_field(tmp_path, known):
    good = feed(known[:2])
    for broken, field in ((good.replace("<edgar:acceptanceDatetime>2", "<edgar:acceptanceDatetime>x2", 1),
                           "edgar:acceptanceDatetime"),
                          (re.sub(r"<edgar:formType>[^<]+<", "<edgar:formType> <", good, count=1), "edgar:formType")):
        path = tmp_path / "bad.xml"
        path.write_text(broken)
        with factstore.open(tmp_path / "bad.duckdb") as store:
            with pytest.raises(LoadError) as err:
                store.load_xbrl_feed(path, progress=False)
            assert err.value.field == field and err.value.row == 1 and str(path) in str(err.value)
            assert store.sql("SELECT count(*) AS n FROM xbrl_feed")["n"][0] == 0


def test_the_cli_loads_a_feed(known, tmp_path, capsys):
    path = tmp_path / "xbrlrss.xml"
    path.write_text(feed(known[:3]))
    assert main(["load", "xbrl-feed", str(path), "--db", str(tmp_path / "cli.duckdb")]) == 0
    assert f"{path}: 3 filings added to the XBRL feed index" in capsys.readouterr().out


def test_fetch_the_feed_then_the_filings_xbrl_from_the_local_sec_and_resume(known, tmp_path):
    nvidia = next(i for i in known if i["accession"] == "0001045810-25-000023")
    archive = "/Archives/edgar/monthly/xbrlrss-2025-02.xml"
    document = "/Archives/edgar/data/1045810/000104581025000023/nvda-20250126.htm"
    routes = {archive: feed([{**nvidia, "document": "nvda-20250126.htm"}]).encode(),
              document: REAL / "filings/NVDA_10-K_2025-02-26.html"}
    with SecServer(routes) as sec, factstore.open(tmp_path / "fetch.duckdb") as store:
        client = SecClient("factstore tests tests@example.com", base_url=sec.url, cache_dir=tmp_path / "cache",
                           backoff=0.01)
        sec.fail(document, "500")  # one server error: retried
        (listed,) = store.fetch_xbrl_feed("2025-02", client, progress=False)
        assert listed.listed == 1
        (loaded,) = store.fetch_xbrl(1045810, client, progress=False)
        assert loaded.xbrl_facts > 1000 and loaded.error is None
        assert len(sec.requests_to(document)) == 2
        # a rerun finds nothing left to fetch, and asks the SEC for nothing
        assert store.fetch_xbrl(client=client, progress=False) == []
        assert len(sec.requests_to(document)) == 2
        with pytest.raises(ValueError, match="months are YYYY-MM"):
            store.fetch_xbrl_feed(["2025-2"], client)
        time = store.sql("SELECT accepted_at FROM filings WHERE filing_id = '0001045810-25-000023'")
        assert time["accepted_at"][0] == nvidia["accepted_at"]
