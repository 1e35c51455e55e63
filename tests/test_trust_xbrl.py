"""Issue #44, XBRL: a number is stored exactly or refused by line and field, never as another number (too long to
be one, a scale or decimals that is no small integer, a sign shown in an inline number's text, a value no filing
could state); a period that ends before it starts is refused; every context names the filer, whatever the
spelling of the SEC's scheme, and a document naming two companies is refused."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from datetime import date
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import factstore
from factstore.errors import LoadError
from factstore.loaders.cover import context_cik, facts_cover
from factstore.xbrl.files import read_body, read_xbrl
from factstore.xbrl.model import NUMBER_CHARS, SMALL_INTEGER
from tests.helpers import budget, reset
from tests.helpers import examples as hypothesis_budget
from tests.inline_documents import HEAD, numbers
from tests.samples import companyfacts

COVER = ('<ix:nonNumeric name="dei:DocumentType" contextRef="d">10-K</ix:nonNumeric>'
         '<ix:nonNumeric name="dei:DocumentPeriodEndDate" contextRef="d">2024-12-31</ix:nonNumeric>'
         '<ix:nonNumeric name="dei:EntityRegistrantName" contextRef="d">Acme Corp</ix:nonNumeric>\n')
ACCESSION = "0000000042-25-000001"


def _doc(body: str, contexts: str = "") -> str:
    return HEAD.format(hidden="", body=body).replace("</ix:resources>", contexts + "</ix:resources>")


def _fact(text: str, attributes: str = 'decimals="0"', fid: str = "x") -> str:
    return (f'<ix:nonFraction name="us-gaap:Revenues" contextRef="d" unitRef="usd" {attributes} id="{fid}">{text}'
            "</ix:nonFraction>")


def _line(document: str, marker: str) -> int:
    """The line of a document where `marker` (in an element's start tag) stands."""
    return document[:document.index(marker)].count("\n") + 1


def _refused(document: str | bytes, field: str, line: int, name: str = "bad.htm") -> LoadError:
    body = document.encode() if isinstance(document, str) else document
    with pytest.raises(LoadError) as caught:
        read_body(body, name)
    assert caught.value.field == field, str(caught.value)
    assert f"line {line}:" in str(caught.value) and name in str(caught.value), str(caught.value)
    return caught.value


def _load(store: factstore.FactStore, path: Path, document: str) -> None:
    path.write_text(document)
    store.load_xbrl(path, accession=ACCESSION, accepted_at="2025-02-01T21:00:00Z", progress=False)


def _instance(facts: str, contexts: str = "") -> bytes:
    return ('<xbrl xmlns="http://www.xbrl.org/2003/instance" xmlns:us-gaap="http://fasb.org/us-gaap/2024" '
            'xmlns:iso4217="http://www.xbrl.org/2003/iso4217">\n'
            '<context id="c"><entity><identifier scheme="http://www.sec.gov/CIK">42</identifier></entity>'
            '<period><instant>2024-12-31</instant></period></context>\n'
            f'{contexts}<unit id="u"><measure>iso4217:USD</measure></unit>\n{facts}</xbrl>').encode()


# ------------------------------------------------------------------------------------------- numbers' sizes
@pytest.mark.parametrize("fmt", ["", ' format="ixt:num-dot-decimal"'])
def test_a_number_of_ten_million_digits_is_refused_quickly_naming_its_line(fmt: str) -> None:
    document = _doc("\n" + _fact("1" + "0" * 10_000_000, f'decimals="0"{fmt}'))
    started = time.perf_counter()
    error = _refused(document, "value", _line(document, 'id="x"'))
    assert time.perf_counter() - started < 5
    assert "10,000,001 characters" in str(error) and len(str(error)) < 300
    instance = _instance('<us-gaap:Revenues contextRef="c" unitRef="u" decimals="0">' + "9" * 10_000_000
                         + "</us-gaap:Revenues>")
    _refused(instance, "value", _line(instance.decode(), "<us-gaap:"), "big.xml")


def test_a_number_as_long_as_a_number_may_be_is_read_exactly() -> None:
    longest = "0." + "1234567890" * ((NUMBER_CHARS - 2) // 10) + "1" * ((NUMBER_CHARS - 2) % 10)
    assert len(longest) == NUMBER_CHARS
    (fact,) = read_body(_doc(_fact(longest, 'decimals="INF" scale="0" sign="-"')).encode(), "long.htm").facts
    assert Decimal(fact.value) == Decimal("-" + longest)  # not rounded to a context's 28 digits
    document = _doc("\n" + _fact(longest + "1", 'decimals="INF"'))
    _refused(document, "value", _line(document, 'id="x"'))


@pytest.mark.parametrize("scale", ["400", "-400", str(SMALL_INTEGER + 1), "9999999999", "", "٣", "1_0"])
def test_a_scale_that_is_no_small_integer_is_refused_naming_line_and_field(scale: str) -> None:
    """10^400 had been stored as inf, 10^-400 as 0.0, 9999999999 a decimal.InvalidOperation."""
    document = _doc("\n\n" + _fact("1", f'decimals="0" scale="{scale}"'))
    _refused(document, "scale", _line(document, 'id="x"'))
    for small, value in ((str(SMALL_INTEGER), f"1E+{SMALL_INTEGER}"), (str(-SMALL_INTEGER), f"1E-{SMALL_INTEGER}"),
                         (" 6 ", "1000000"), ("+3", "1000")):
        (fact,) = read_body(_doc(_fact("1", f'decimals="INF" scale="{small}"')).encode(), "scale.htm").facts
        assert Decimal(fact.value) == Decimal(value)


@pytest.mark.parametrize("decimals", ["abc", "99999", "-99999", str(SMALL_INTEGER + 1), "1.5", "", "inf", "٣"])
def test_decimals_that_are_neither_inf_nor_a_small_integer_are_refused_even_on_duplicates(decimals: str) -> None:
    """Duplicates are compared at their decimals: 'abc' had been a bare int() error, 99999 decimal.InvalidOperation."""
    document = _doc("\n" + _fact("5", f'decimals="{decimals}"', "a") + "\n" + _fact("5", 'decimals="0"', "b"))
    _refused(document, "decimals", _line(document, 'id="a"'))
    instance = _instance(f'<us-gaap:Revenues contextRef="c" unitRef="u" decimals="{decimals}">5</us-gaap:Revenues>\n'
                         '<us-gaap:Revenues contextRef="c" unitRef="u" decimals="0">5</us-gaap:Revenues>')
    _refused(instance, "decimals", _line(instance.decode(), "<us-gaap:"), "dup.xml")


def test_duplicates_at_the_extreme_decimals_and_scale_are_compared_without_error(tmp_path: Path) -> None:
    """The rounding that compares duplicates is exact at every size the reader admits."""
    big = "9" * (NUMBER_CHARS - 1)
    document = _doc(_fact(big, f'decimals="{SMALL_INTEGER}" scale="{SMALL_INTEGER}"', "a")
                    + _fact(big, f'decimals="{-SMALL_INTEGER}" scale="{SMALL_INTEGER}"', "b"))
    path = tmp_path / "dup.htm"
    path.write_text(document)
    (fact,) = read_xbrl(path).facts
    assert (fact.id, Decimal(fact.value)) == ("a", Decimal(f"{big}E{SMALL_INTEGER}"))


# ------------------------------------------------------------------------------------------------ signs
@pytest.mark.parametrize(("text", "attributes"), [("-5", 'sign="-"'), ("-5", ""), ("+5", ""),
                                                  (" -5 ", 'sign="-" scale="6"')])
def test_a_sign_shown_in_an_inline_numbers_text_is_refused(text: str, attributes: str) -> None:
    """The shown number carries no sign: sign="-" does. '-5' with sign="-" had been stored as +5. Zero dashes
    (ixt:fixed-zero) are no sign, and an instance's number does carry its sign."""
    document = _doc("\n" + _fact(text, f'decimals="0" {attributes}'))
    _refused(document, "value", _line(document, 'id="x"'))
    facts = read_body(_doc(_fact("5", 'decimals="0" sign="-"', "a") + _fact("-", 'decimals="0" format="ixt:fixed-zero"',
                                                                           "b")
                           + _fact("—", 'decimals="0" sign="-" format="ixt:fixed-zero"', "c")).encode(),
                      "signs.htm").facts
    assert [(f.id, f.value) for f in facts] == [("a", "-5"), ("b", "0"), ("c", "0")]
    instance = _instance('<us-gaap:Revenues contextRef="c" unitRef="u" decimals="0">-7</us-gaap:Revenues>')
    assert read_body(instance, "loss.xml").facts[0].value == "-7"


@pytest.mark.parametrize("sign", ["+", "minus", "--", ""])
def test_a_sign_attribute_other_than_minus_is_refused(sign: str) -> None:
    document = _doc("\n" + _fact("5", f'decimals="0" sign="{sign}"'))
    _refused(document, "sign", _line(document, 'id="x"'))


# ---------------------------------------------------------------------------------------------- periods
def _duration(cid: str, start: str, end: str) -> str:
    return (f'\n<xbrli:context id="{cid}"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">42'
            '</xbrli:identifier></xbrli:entity><xbrli:period>'
            f'<xbrli:startDate>{start}</xbrli:startDate><xbrli:endDate>{end}</xbrli:endDate></xbrli:period>'
            '</xbrli:context>')


@pytest.mark.parametrize(("start", "end"), [("2024-12-31", "2024-01-01"), ("2024-01-02", "2024-01-01"),
                                            ("2024-01-01T00:00:00", "2024-01-01T00:00:00")])
def test_a_context_that_ends_before_it_starts_is_refused_naming_its_line(start: str, end: str) -> None:
    document = _doc(_fact("1").replace('contextRef="d"', 'contextRef="p"'), _duration("p", start, end))
    error = _refused(document, "period", _line(document, '<xbrli:context id="p"'))
    assert "'p' ends" in str(error)
    instance = _instance('<us-gaap:Revenues contextRef="p" unitRef="u" decimals="0">1</us-gaap:Revenues>',
                         _duration("p", start, end).replace("xbrli:", "") + "\n")
    _refused(instance, "period", _line(instance.decode(), '<context id="p"'), "period.xml")
    one_day = _doc(_fact("1").replace('contextRef="d"', 'contextRef="p"'), _duration("p", "2024-01-01", "2024-01-01"))
    (fact,) = read_body(one_day.encode(), "day.htm").facts
    assert fact.context.start == fact.context.end == date(2024, 1, 1)


# ------------------------------------------------------------------------------------------------ whose
def _company(cid: str, scheme: str, cik: str) -> str:
    return (f'\n<xbrli:context id="{cid}"><xbrli:entity><xbrli:identifier scheme="{scheme}">{cik}</xbrli:identifier>'
            '</xbrli:entity><xbrli:period><xbrli:instant>2024-12-31</xbrli:instant></xbrli:period></xbrli:context>')


def _planted(scheme: str, cik: str, dei_cik: str | None = "0000320193") -> str:
    """Apple's cover (its CIK unless told otherwise) with revenue in a context naming `cik` under `scheme`."""
    cover = COVER.replace("Acme Corp", "Apple Inc.") + (
        f'<ix:nonNumeric name="dei:EntityCentralIndexKey" contextRef="d">{dei_cik}</ix:nonNumeric>' if dei_cik else "")
    contexts = "".join(_company(c, "http://www.sec.gov/CIK", "0000320193") for c in ("d", "i", "s"))
    planted = _fact("391,035", 'decimals="-6" scale="6" format="ixt:num-dot-decimal"', "planted")
    document = re.sub(r'<xbrli:context id="[dis]">.*?</xbrli:context>\n?', "",
                      _doc(cover + "\n" + planted.replace('contextRef="d"', 'contextRef="p"')), flags=re.DOTALL)
    return document.replace("</ix:resources>", contexts + _company("p", scheme, cik) + "</ix:resources>")


@pytest.mark.parametrize("kind", ["inline", "instance"])
def test_a_context_of_another_company_no_fact_uses_is_refused_too(tmp_path, kind) -> None:
    """Every context the document defines is its filer's: one naming another company refuses the document though no
    fact stands in it (found by an outside probe)."""
    stranger = _company("c9", "http://www.sec.gov/CIK", "0000320193")
    document = (_doc(COVER + _fact("5"), stranger) if kind == "inline"
                else _instance('<us-gaap:Assets contextRef="c" unitRef="u" decimals="0">5</us-gaap:Assets>\n',
                               stranger.replace("xbrli:", "")).decode())
    with pytest.raises(LoadError, match="context 'c9' names CIK 320193.*a document of two companies") as caught:
        read = read_body(document.encode(), f"acme.{'htm' if kind == 'inline' else 'xml'}")
        context_cik(read)
    assert caught.value.field == "identifier"


SPELLINGS = ["https://www.sec.gov/CIK", "http://sec.gov/CIK", "HTTP://WWW.SEC.GOV/cik", "https://www.sec.gov/CIK/",
             " http://www.sec.gov/CIK "]


@pytest.mark.parametrize("scheme", SPELLINGS)
def test_another_companys_context_under_any_spelling_of_the_secs_scheme_is_refused(tmp_path, scheme) -> None:
    """NVIDIA's revenue planted in Apple's document had been answered as Apple's."""
    with factstore.open() as store:
        with pytest.raises(LoadError) as caught:
            _load(store, tmp_path / "aapl.htm", _planted(scheme, "0001045810"))
        assert "1045810" in str(caught.value) and "320193" in str(caught.value)
        assert caught.value.field in ("identifier", "dei:EntityCentralIndexKey")
        assert store.sql("SELECT count(*) AS n FROM xbrl_facts")["n"][0] == 0
        # without the cover's CIK, a document naming two companies is no one's
        with pytest.raises(LoadError) as caught:
            _load(store, tmp_path / "aapl.htm", _planted(scheme, "1045810", dei_cik=None))
        assert caught.value.field == "identifier" and "two companies" in str(caught.value)
        assert re.search(r"line \d+: context 'p' names CIK 1045810", str(caught.value))
        assert store.sql("SELECT count(*) AS n FROM entities")["n"][0] == 0
        # the filer's own CIK, under any spelling and without its zeros, is the filer
        document = _planted(scheme, "320193")
        assert context_cik(read_body(document.encode(), "aapl.htm")) == 320193
        _load(store, tmp_path / "aapl.htm", document)
        assert store.sql("SELECT entity_id, cik FROM entities").values.tolist() == [["0000320193", 320193]]
        assert store.sql("SELECT value FROM xbrl_facts WHERE fact_id = 'planted'")["value"][0] == "391035000000"


@pytest.mark.parametrize(("scheme", "identifier", "says"), [
    ("http://example.com/entity", "NVIDIA", "'NVIDIA' under scheme 'http://example.com/entity'"),
    ("http://www.sec.gov/CIK", "NVDA", "'NVDA' under the SEC's scheme is not a CIK"),
    ("http://www.sec.gov/CIK", "٣٢٠١٩٣", "under the SEC's scheme is not a CIK")])
def test_a_context_naming_no_cik_beside_the_filers_is_refused(tmp_path, scheme, identifier, says) -> None:
    with factstore.open() as store:
        with pytest.raises(LoadError, match=says) as caught:
            _load(store, tmp_path / "aapl.htm", _planted(scheme, identifier))
        assert caught.value.field == "identifier"
        assert store.sql("SELECT count(*) AS n FROM xbrl_facts")["n"][0] == 0


def test_contexts_under_another_scheme_are_not_a_filer_with_a_cik(tmp_path) -> None:
    document = _doc(COVER + '<ix:nonNumeric name="dei:EntityCentralIndexKey" contextRef="d">42</ix:nonNumeric>\n'
                    + _fact("1")).replace('scheme="http://www.sec.gov/CIK">0000000042', 'scheme="http://e.com/id">ACME')
    with factstore.open() as store:
        with pytest.raises(LoadError, match=r"line \d+: context 'd' names 'ACME' under scheme 'http://e.com/id', not "
                                            "the filer's CIK 42") as caught:
            _load(store, tmp_path / "acme.htm", document)
        assert caught.value.field == "identifier"
        assert store.sql("SELECT count(*) AS n FROM xbrl_facts")["n"][0] == 0


def test_the_covers_cik_and_the_contexts_must_agree() -> None:
    with pytest.raises(LoadError, match="CIK 320193, the contexts CIK 1045810") as caught:
        facts_cover(read_body(_planted("http://www.sec.gov/CIK", "1045810").replace(
            ">0000320193</xbrli:identifier>", ">0001045810</xbrli:identifier>").encode(), "aapl.htm"))
    assert caught.value.field == "dei:EntityCentralIndexKey"


# ------------------------------------------------------------------------------ the property: exact or refused
DAYS = st.dates(date(2020, 1, 1), date(2025, 12, 31))


def _rarely(usual: st.SearchStrategy, unusual: st.SearchStrategy, one_in: int = 8) -> st.SearchStrategy:
    """`unusual` one time in `one_in`, else `usual`."""
    return st.integers(0, one_in - 1).flatmap(lambda r: unusual if r == 1 else usual)  # (hypothesis favours 0, max)


# every part of a number at sizes a filing has, and now and then at sizes none has, or shown with a sign: a quarter
# of the numbers have 18 to 60 digits, for the write plan to refuse the ones no filing could state
DIGITS = _rarely(st.integers(0, 17), st.integers(18, 60), 4).flatmap(lambda k: st.integers(10**k // 10, 10**k))
DRAWN = {"whole": DIGITS,
         "places": _rarely(st.integers(0, 4), st.integers(5, 110)),
         "scale": _rarely(st.sampled_from([-2, 0, 3, 6, 9]), st.integers(-45, 45) | st.sampled_from([400, -400])),
         "decimals": _rarely(st.sampled_from(["-6", "-3", "0", "2", "INF"]) | st.integers(-30, 30).map(str),
                             st.integers(31, 99999).map(str) | st.sampled_from(["-31", "abc", "1.5", "", "inf"]), 16),
         "context": st.sampled_from(["d", "i", "s", "p0", "p1"]),
         "shown_sign": _rarely(st.just(""), st.sampled_from(["-", "+"]), 16)}


@st.composite
def filings(draw: st.DrawFn) -> tuple[str, list[dict], tuple[str, int, str] | None]:
    """An inline 10-K of one to three numbers drawn at every size, scale, sign and decimals, in two contexts of
    drawn periods; its facts (each `line` added), and the first refusal its load must give, if any: (field, line,
    who refuses: 'reader' or 'write plan')."""
    periods = [sorted((draw(DAYS), draw(DAYS)), reverse=draw(st.integers(0, 15)) == 1) for _ in range(2)]
    contexts = "".join(_duration(f"p{i}", start.isoformat(), end.isoformat()) for i, (start, end) in enumerate(periods))
    drawn = [draw(numbers(k, concept=st.just(f"acme:Figure{k}"), **DRAWN)) for k in range(draw(st.integers(1, 3)))]
    document = _doc(COVER + "\n".join(shown for shown, _ in drawn) + "\n", contexts)
    facts = [{**fact, "line": _line(document, f'id="n{k}"')} for k, (_, fact) in enumerate(drawn)]
    reader = [("period", _line(document, f'<xbrli:context id="p{i}"'), "reader")
              for i, (start, end) in enumerate(periods) if end < start]
    for fact in facts:
        reader += [(field, fact["line"], "reader") for field in _refusals(fact)][:1]
    # the write plan's rule (sql/write.sql implausible_value): no filing states a nonzero value outside [1e-12, 1e18)
    written = [("value", f["line"], "write plan") for f in facts
               if f["value"] and not 1e-12 <= abs(float(f["value"])) < 1e18]
    return document, facts, (reader + written or [None])[0]


def _refusals(fact: dict) -> list[str]:
    """The fields the reader refuses a drawn fact for, in the order it reads them."""
    decimals = fact["decimals"]
    return [field for field, bad in (
        ("value", len(fact["shown"]) > NUMBER_CHARS),
        ("format" if fact["format"] else "value", fact["shown"][:1] in ("-", "+") and len(fact["shown"]) > 1),
        ("scale", abs(fact["scale"]) > SMALL_INTEGER),
        ("decimals", decimals != "INF" and not (re.fullmatch(r"[+-]?\d+", decimals)
                                                 and abs(int(decimals)) <= SMALL_INTEGER))) if bad]


@budget(40, 150)
def test_every_drawn_number_is_stored_exactly_or_refused_by_line_and_field(blank_store, tmp_path, examples) -> None:
    """Whatever its digits, scale, sign, decimals and period, a number is stored as the document states it (the
    shown number times ten to the scale, negated by sign="-"), in xbrl_facts exactly and in reports as its double,
    or the load is refused naming the line and field of the first thing wrong, the store left as it was."""
    path = tmp_path / "acme.htm"
    met: Counter[str] = Counter()

    @settings(**hypothesis_budget(examples, 150), deadline=None)
    @given(filings())
    def exact_or_refused(case: tuple[str, list[dict], tuple[str, int] | None]) -> None:
        document, facts, refusal = case
        store = reset(blank_store)
        met[refusal[2] if refusal else "stored"] += 1
        if refusal is not None:
            with pytest.raises(LoadError) as caught:
                _load(store, path, document)
            where = re.search(r"line (\d+):", str(caught.value))
            assert (caught.value.field, int(where[1]) if where else None) == refusal[:2], str(caught.value)
            assert store.sql("SELECT count(*) AS n FROM xbrl_facts")["n"][0] == 0
            return
        _load(store, path, document)
        stored = store.sql("SELECT fact_id, value FROM xbrl_facts WHERE numeric")
        assert {i: Decimal(v) for i, v in stored.itertuples(index=False)} == {
            f"n{k}": f["value"] for k, f in enumerate(facts)}
        reports = store.sql("SELECT split_part(concept, '|', 1) AS concept, value FROM reports")
        assert dict(reports.itertuples(index=False)) == {
            f"acme:Figure{k}": float(f["value"]) for k, f in enumerate(facts)}

    exact_or_refused()
    assert met["stored"] >= examples // 10 and met["reader"] >= examples // 10 and met["write plan"] >= 1, met


# ------------------------------------------------------------------------------------------- the filer's name
@pytest.mark.parametrize("xbrl_first", [False, True])
def test_a_covers_name_is_the_filers_as_of_its_filing_whatever_the_order(tmp_path, xbrl_first) -> None:
    """The name an XBRL cover states (Acme Corp, 2025) is the company's from its filing on: loaded after an older
    companyfacts file naming it otherwise, it was restated as the older name, dated 2025 (issue #44, item 14)."""
    (tmp_path / "CIK0000000042.json").write_text(json.dumps(companyfacts(42, ["0000000042-20-000001"], "Old Acme Inc")))
    with factstore.open() as store:
        steps = [lambda: store.load_companyfacts(tmp_path / "CIK0000000042.json", progress=False),
                 lambda: _load(store, tmp_path / "acme.htm", _doc(COVER + _fact("5"))) ]
        for step in (reversed(steps) if xbrl_first else steps):
            step()
        name, others = store.sql("SELECT name, other_names FROM entities").iloc[0]
        assert (name, list(others)) == ("Acme Corp", ["Old Acme Inc"])


@pytest.mark.parametrize("xbrl_first", [False, True])
def test_a_second_given_to_load_xbrl_replaces_a_filing_days_fallback_whichever_came_first(tmp_path, xbrl_first):
    """companyfacts without submissions knows the 10-K by its filing day only; the time given with its XBRL, to the
    second, is the filing's in either order (loaded after, it had been dropped for the stored fallback)."""
    doc = companyfacts(42, [ACCESSION], "Acme Corp")
    us_gaap = doc["facts"].pop("us-gaap")
    for fact in us_gaap["Revenues"]["units"]["USD"] + us_gaap["Assets"]["units"]["USD"]:
        fact.update(filed="2025-02-04", end="2024-12-31", **({"start": "2024-01-01"} if "start" in fact else {}))
    doc["facts"] = {"us-gaap": us_gaap}
    path = tmp_path / "acme.htm"
    path.write_text(_doc(COVER + _fact("5")))
    with factstore.open() as store:
        steps = [lambda: store.load_companyfacts(doc),
                 lambda: store.load_xbrl(path, accession=ACCESSION, accepted_at="2025-02-04T21:00:00Z", progress=False)]
        for step in (reversed(steps) if xbrl_first else steps):
            step()
        row = store.sql("SELECT accepted_at, accepted_precision FROM filings").iloc[0]
        assert (row["accepted_at"], row["accepted_precision"]) == (pd.Timestamp("2025-02-04 21:00:00"), "second")
        times = store.sql("SELECT DISTINCT accepted_at FROM reports UNION SELECT DISTINCT accepted_at FROM xbrl_facts")
        assert times["accepted_at"].tolist() == [pd.Timestamp("2025-02-04 21:00:00")]


def test_an_implausible_number_kept_only_as_stated_is_refused_too(tmp_path) -> None:
    """Two copies of one fact that disagree are kept as stated only (never in reports): one of 1e18 is refused by
    the write plan as a reported one is, naming its line."""
    document = _doc(COVER + _fact("5", fid="a") + "\n" + _fact("1000000000000000000", fid="b"))
    with factstore.open() as store:
        with pytest.raises(LoadError, match="no value a filing could state") as err:
            _load(store, tmp_path / "acme.htm", document)
        line = _line(document, 'id="b"')
        assert err.value.field == "value" and f"line {line}:" in str(err.value)
        assert store.sql("SELECT count(*) AS n FROM xbrl_facts")["n"][0] == 0
