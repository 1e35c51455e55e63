"""Issue #44 on FSDS: a num.txt field that names no dimension list, no period or no number the SEC could write is
refused naming its file, row and field (never stored as something else); a company's name is that of its latest
filing whatever the order of loads, every other name it was given among its other names."""

from __future__ import annotations

import calendar
import itertools
import math
from datetime import date, datetime, timedelta
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import factstore
from factstore.errors import LoadError
from factstore.loaders.batch import Batch
from tests.helpers import budget, reset
from tests.helpers import examples as hypothesis_budget

ADSH = "0000000789-24-000001"
SUB_HEADER = ["adsh", "cik", "name", "form", "period", "filed", "accepted", "prevrpt"]
NUM_HEADER = ["adsh", "tag", "version", "ddate", "qtrs", "uom", "segments", "coreg", "value"]
SUB = [ADSH, "789", "FILER 789", "10-K", "20231231", "20240215", "2024-02-15 09:30:00.0", "0"]


def _quarter(folder: Path, nums: list[list[str]], subs: list[list[str]] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, header, rows in (("sub.txt", SUB_HEADER, subs or [SUB]), ("num.txt", NUM_HEADER, nums)):
        (folder / name).write_text("\n".join("\t".join(r) for r in [header, *rows]) + "\n")
    return folder


def _num(tag: str, ddate: str = "20231231", qtrs: str = "4", segments: str = "", value: str = "900.0") -> list[str]:
    return [ADSH, tag, "us-gaap/2023", ddate, qtrs, "USD", segments, "", value]


def _empty(store: factstore.FactStore) -> bool:
    return all(store.sql(f"SELECT count(*) AS n FROM {t}")["n"][0] == 0  # t: ours
               for t in ("entities", "filings", "reports", "entity_periods", "concepts"))


def _refused(store: factstore.FactStore, folder: Path, row: int, field: str, text: str) -> None:
    """The load is refused naming num.txt, the data row and the field, with the text found; nothing is stored."""
    with pytest.raises(LoadError) as e:
        store.load_fsds(folder, progress=False)
    assert e.value.source.endswith("num.txt") and (e.value.row, e.value.field) == (row, field), str(e.value)
    assert repr(text) in str(e.value) and "\n" not in str(e.value)
    assert _empty(store)


# ----------------------------------------------------------------- segments (#44 item 12)
# each well-formed spelling, the key its dimensions are stored under
WELL_FORMED = {"": "", "ProductOrService=Widget;": "|ProductOrService=Widget",
               "Geographical=US;ProductOrService=Gadget;": "|Geographical=US;ProductOrService=Gadget",
               "us-gaap:StatementClassOfStockAxis/us-gaap:CommonClassBMember": "|ClassOfStock=CommonClassB",
               "srt:ProductOrServiceAxis/acme:WidgetMember;us-gaap:StatementGeographicalAxis/acme:USMember":
                   "|Geographical=US;ProductOrService=Widget"}


@pytest.mark.parametrize("segments", [
    "ProductOrService=Widget",  # a pair without its ';'
    ";;;", "=Widget;", "ProductOrService=;", "ProductOrService=Widget;;",  # an empty pair, axis or member
    "ProductOrService=Widget;Geographical",  # a pair without '='
    "Axis=Member;",  # an axis of no name once spelled as FSDS spells it ('Axis' without its suffix)
    "ProductOrService=Widget;ProductOrService=Gadget;",  # one axis twice
    "ProductOrService=Widget=Gadget;",
])
def test_a_malformed_segments_field_is_refused_and_well_formed_ones_are_read(tmp_path, segments):
    rows = [_num(f"Tag{i}", segments=s) for i, s in enumerate(WELL_FORMED)]
    with factstore.open() as store:
        _refused(store, _quarter(tmp_path / "bad", [*rows[:2], _num("Bad", segments=segments), *rows[2:]]),
                 3, "segments", segments)
        store.load_fsds(_quarter(tmp_path / "good", rows), progress=False)
        keys = store.sql("SELECT concept FROM reports ORDER BY concept")["concept"].tolist()
        assert keys == sorted(f"us-gaap:Tag{i}{k}" for i, k in enumerate(WELL_FORMED.values()))


# ----------------------------------------------------------------- periods and values (#44 items 13 and 1)
@pytest.mark.parametrize(("field", "bad", "good"), [
    ("qtrs", "497", "496"),  # a year's facts of 2023 back to a period starting 1899-10-01; 1900-01-01 is read
    ("qtrs", "999", "4"), ("qtrs", "1.5", "2"), ("qtrs", "1e1", "10"),  # a whole number as the SEC writes it
    ("ddate", "99991231", "21991231"), ("ddate", "22000131", "20231231"),  # 1900 to 2199
    ("ddate", "18991231", "19000131"), ("ddate", "2023123", "20231231"),  # yyyymmdd, as the SEC writes it
    ("value", "1e-400", "1e-10"), ("value", "-2.5E-330", "-0.0000e-999"),  # a number a double holds only as 0
])
def test_an_impossible_period_or_a_number_read_as_zero_is_refused_naming_row_and_field(tmp_path, field, bad, good):
    plain = {"qtrs": "0" if field == "ddate" else "4"}  # an instant: any day in range has a period
    with factstore.open() as store:
        rows = [_num("Assets", **plain), _num("Revenues", **{**plain, field: bad})]
        _refused(store, _quarter(tmp_path / "bad", rows), 2, field, bad)
        store.load_fsds(_quarter(tmp_path / "good", [_num("Assets", **plain),
                                                     _num("Revenues", **{**plain, field: good})]), progress=False)
        got = store.sql("SELECT period_start, period_end, value FROM reports WHERE concept = 'us-gaap:Revenues'")
        end = datetime.strptime(good if field == "ddate" else "20231231", "%Y%m%d").date()
        assert got["period_end"].dt.date.tolist() == [end] and got["value"].tolist() == [
            float(good if field == "value" else "900.0")]
        if field == "qtrs":
            months = end.year * 12 + end.month - 3 * int(good)
            assert got["period_start"].dt.date.tolist() == [date(months // 12, months % 12 + 1, 1)]


# the texts a value may be written in: as the SEC does (mostly), in exponent form, past a double or below it, long
# digit strings, and no numbers at all
GOOD = st.decimals(allow_nan=False, allow_infinity=False, places=4, min_value=-10**15, max_value=10**15).map(str)
VALUES = st.one_of(
    GOOD, GOOD, GOOD,
    st.decimals(allow_nan=False, allow_infinity=False, places=4, min_value=-10**20, max_value=10**20).map(str),
    st.sampled_from(["NaN", "nan", "inf", "-inf", "Infinity", "-Infinity", "1e309", "-1e309", "1e-400", "0",
                     "-0.0000", "1e18", "999999999999999999", "1e-12", "9.9999e-13", "12,5", "abc", "0x10", ""]),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.integers(0, 40).flatmap(lambda n: st.text("0123456789", min_size=n + 1, max_size=n + 1)),
    st.integers(-330, 330).map(lambda e: f"1.5e{e}"))
DDATES = ["20231231", "20230630", "20230331"] * 6 + ["19000131", "21991231", "99991231", "18991231", "22000131",
                                                     "20230231", "2023123"]
QTRS = ["0", "1", "2", "3", "4"] * 5 + ["496", "497", "999", "1.5", "-1", "1e1"]
SEGMENTS = [*WELL_FORMED] * 6 + ["ProductOrService=Widget", ";;;", "=M;", "Axis=;", "A=B;A=C;", "Axis=Member;"]
ROWS = st.lists(st.tuples(st.sampled_from(DDATES), st.sampled_from(QTRS), st.sampled_from(SEGMENTS), VALUES),
                min_size=1, max_size=3)


def _number(text: str) -> float | None:
    """What a value's text says, independently of the loader: a float, or None for no number."""
    try:
        return float(text) if "_" not in text and text.strip() == text else None
    except ValueError:
        return None


def _start(end: date, qtrs: int) -> date:
    """The first day of the `qtrs` quarters ending on `end`: from the day after, that many months back (the day kept,
    or the month's last)."""
    after = end + timedelta(days=1)
    months = after.year * 12 + after.month - 1 - 3 * qtrs
    year, month = divmod(months, 12)
    return date(year, month + 1, min(after.day, calendar.monthrange(year, month + 1)[1])) if year > 0 else date.min


def _problems(ddate: str, qtrs: str, segments: str, value: str) -> set[str]:
    """The fields that make a row one no filing could give (none: a row to store)."""
    found = set()
    try:
        end = datetime.strptime(ddate, "%Y%m%d").date()
        if len(ddate) != 8 or not 1900 <= end.year <= 2199:
            found.add("ddate")
        elif not qtrs.isdigit() or _start(end, int(qtrs)) < date(1900, 1, 1):
            found.add("qtrs")
    except ValueError:
        found.add("ddate")
    if not qtrs.isdigit():
        found.add("qtrs")
    if segments not in WELL_FORMED:
        found.add("segments")
    v = _number(value)  # a nil value (empty) is not loaded
    zero = v == 0 and any(c in "123456789" for c in value.lower().split("e")[0])  # a number a double holds as 0
    # else the write plan's rule (sql/write.sql implausible_value): finite, zero or of a size in [1e-12, 1e18)
    if value != "" and (v is None or zero or not (math.isfinite(v) and (v == 0 or 1e-12 <= abs(v) < 1e18))):
        found.add("value")
    return found


@budget(25, 150)
def test_every_generated_row_is_stored_as_its_number_or_refused_by_row_and_field(blank_store, tmp_path_factory,
                                                                               examples):
    """Random values (finite, non-finite, past a double, tiny, long digit strings, no numbers), periods and
    segments: a quarter whose rows are all possible is stored, each value exactly the number its text says, in the
    period and under the key it names; else the load is refused naming num.txt, one of the impossible rows and
    that row's field, and nothing is stored. (Non-finite values and sizes outside [1e-12, 1e18) are the write plan's
    rule, sql/write.sql implausible_value.)"""
    seen: dict[str, int] = {}

    @settings(**hypothesis_budget(examples, 150), deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(rows=ROWS)
    def check(rows):
        nums = [_num(f"Tag{i}", ddate, qtrs, segments, value) for i, (ddate, qtrs, segments, value) in
                enumerate(rows)]
        bad = {i + 1: p for i, row in enumerate(rows) if (p := _problems(*row))}
        folder = _quarter(tmp_path_factory.mktemp("fsds"), nums)
        store = reset(blank_store)
        if bad:
            with pytest.raises(LoadError) as e:
                store.load_fsds(folder, progress=False)
            message = str(e.value)
            named = e.value.row if e.value.row is not None else next(
                (r for r in bad if f"num.txt row {r}:" in message), None)
            assert e.value.source.endswith("num.txt") and named in bad and e.value.field in bad[named], message
            assert _empty(store) and "\n" not in message
            seen[e.value.field] = seen.get(e.value.field, 0) + 1
            return
        store.load_fsds(folder, progress=False)
        got = store.sql("SELECT concept, period_start, period_end, value FROM reports")
        want = []
        for i, (ddate, qtrs, segments, value) in enumerate(rows):
            if value == "":
                continue
            end = datetime.strptime(ddate, "%Y%m%d").date()
            start = _start(end, int(qtrs)) if int(qtrs) else None
            want.append((f"us-gaap:Tag{i}{WELL_FORMED[segments]}", start, end, _number(value)))
        stored = [(c, None if pd.isna(s) else s.date(), e.date(), v) for c, s, e, v in got.itertuples(index=False)]
        assert sorted(stored, key=str) == sorted(want, key=str)
        seen["stored"] = seen.get("stored", 0) + 1

    check()
    assert seen.get("stored", 0) >= examples // 10 and len(seen) >= 4, seen


# ----------------------------------------------------------------- names (#44 item 14)
def _entities(store: factstore.FactStore) -> pd.DataFrame:
    return store.sql("SELECT * FROM entities ORDER BY entity_id")


def test_the_name_is_the_latest_filings_whatever_the_order_the_quarters_are_loaded_in(real):
    """CIK 310158 is SCHERING PLOUGH CORP in 2009q3's sub.txt and MERCK & CO. INC. in 2010q2's: either order of
    loads leaves the same entities, named as of the later filing, the earlier name among the other names."""
    quarters = [real / "fsds" / "2009q3", real / "fsds" / "2010q2"]
    with factstore.open() as forward, factstore.open() as backward:
        forward.load_fsds(quarters, progress=False)
        backward.load_fsds(quarters[::-1], progress=False)
        pd.testing.assert_frame_equal(_entities(forward), _entities(backward))
        merck = forward.sql("SELECT name, other_names FROM entities WHERE cik = 310158").iloc[0]
        assert merck["name"] == "MERCK & CO. INC." and "SCHERING PLOUGH CORP" in list(merck["other_names"])
        assert forward.resolve_entity("Schering Plough") == backward.resolve_entity("Schering Plough") == "0000310158"


def _named(name: str, adsh: str, accepted: str, form: str = "10-Q") -> list[str]:
    return [adsh, "789", name, form, "20221231", accepted[:10].replace("-", ""), f"{accepted}:00.0", "0"]


QUARTERS = {  # one company under three names, a quarter each (the middle one amended under a fourth name)
    "a": [_named("OLD NAME INC", "0000000789-23-000001", "2023-02-15 09:30")],
    "b": [_named("NEW NAME INC", "0000000789-24-000001", "2024-02-15 09:30")],
    "c": [_named("MIDDLE NAME INC", "0000000789-23-000002", "2023-08-15 09:30"),
          _named("MIDDLE NAME CORP", "0000000789-23-000003", "2023-08-15 10:30", "10-Q/A")],
}


def test_loads_in_any_order_leave_one_name_and_the_same_other_names(blank_store, tmp_path):
    folders = {k: _quarter(tmp_path / k, [[subs[0][0], "Revenues", "us-gaap/2023", "20230930", "1", "USD", "", "",
                                           "5.0"]], subs) for k, subs in QUARTERS.items()}
    seen = []
    for order in itertools.permutations(folders):
        store = reset(blank_store)
        store.load_fsds([folders[k] for k in order], progress=False)
        seen.append(_entities(store))
    for other in seen[1:]:
        pd.testing.assert_frame_equal(other, seen[0])
    assert seen[0]["name"].tolist() == ["NEW NAME INC"]
    assert list(seen[0]["other_names"][0]) == ["MIDDLE NAME CORP", "MIDDLE NAME INC", "OLD NAME INC"]
    store = reset(blank_store)  # a quarter alone: the name of its latest submission (the amendment)
    store.load_fsds(folders["c"], progress=False)
    assert _entities(store)[["name", "other_names"]].map(str).values.tolist() == [["MIDDLE NAME CORP",
                                                                                  "['MIDDLE NAME INC']"]]


def test_names_given_in_the_same_minute_are_ordered_by_name_in_any_order(tmp_path):
    """Two filings accepted in the same minute under two names: the same one is the name either way."""
    one = _quarter(tmp_path / "one", [_num("Revenues")], [_named("BETA CORP", ADSH, "2024-02-15 09:30")])
    two = _quarter(tmp_path / "two", [["0000000789-24-000002", *_num("Revenues")[1:]]],
                   [_named("ALPHA CORP", "0000000789-24-000002", "2024-02-15 09:30")])
    names = []
    for order in ([one, two], [two, one], [_quarter(tmp_path / "both", [
            _num("Revenues"), ["0000000789-24-000002", *_num("Revenues")[1:]]],
            [_named("BETA CORP", ADSH, "2024-02-15 09:30"),
             _named("ALPHA CORP", "0000000789-24-000002", "2024-02-15 09:30")])]):
        with factstore.open() as store:
            store.load_fsds(order, progress=False)
            names.append(_entities(store)[["name", "other_names"]].map(str).values.tolist())
    assert names[0] == names[1] == names[2] and names[0][0][0] == "BETA CORP"


def test_a_name_given_with_a_filing_is_weighed_by_its_acceptance_against_fsds(tmp_path):
    """A batch naming a company beside its filings (as companyfacts, XBRL or documents do) and an FSDS quarter:
    the later filing's name wins in either order; a batch naming it with no filing (undated) never displaces a
    dated name, and between undated names the later load's wins."""
    fsds = _quarter(tmp_path / "q", [_num("Revenues")], [_named("FSDS NAME INC", ADSH, "2024-02-15 09:30")])

    def named(name: str, accepted: str | None) -> Batch:
        entities = pd.DataFrame({"entity_id": ["0000000789"], "cik": [789], "name": [name], "tickers": [[]]})
        filings = pd.DataFrame({"filing_id": ["0000000789-24-000009"], "entity_id": ["0000000789"],
                                "form": ["8-K"], "period_end": [pd.Timestamp(accepted).date()] if accepted else [None],
                                "filed": [pd.Timestamp(accepted).date()] if accepted else [None],
                                "accepted_at": [pd.Timestamp(accepted)], "accepted_precision": ["second"],
                                "accepted_note": [None], "source": ["test"]}) if accepted else None
        return Batch("test", "test", entities=entities, **({"filings": filings} if accepted else {}))

    for accepted, wins in (("2024-03-01 12:00", "LATER NAME INC"), ("2023-03-01 12:00", "FSDS NAME INC")):
        results = []
        for fsds_first in (True, False):
            with factstore.open() as store:
                if fsds_first:
                    store.load_fsds(fsds, progress=False)
                store.apply(named("LATER NAME INC" if wins != "FSDS NAME INC" else "EARLIER NAME INC", accepted))
                if not fsds_first:
                    store.load_fsds(fsds, progress=False)
                results.append(store.sql("SELECT name, other_names FROM entities").map(str).values.tolist())
        assert results[0] == results[1] and results[0][0][0] == wins, results
    with factstore.open() as store:
        store.load_fsds(fsds, progress=False)
        store.apply(named("UNDATED NAME", None))
        assert _entities(store)["name"].tolist() == ["FSDS NAME INC"]
        assert "UNDATED NAME" in list(_entities(store)["other_names"][0])
    with factstore.open() as store:
        store.apply(named("FIRST UNDATED", None))
        store.apply(named("SECOND UNDATED", None))
        assert _entities(store)["name"].tolist() == ["SECOND UNDATED"]
        assert list(_entities(store)["other_names"][0]) == ["FIRST UNDATED"]
