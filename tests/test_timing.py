"""Acceptance times: EDGAR hours, the filing-hours rule, repairs, and the date-only fallback."""

from __future__ import annotations

from datetime import date, datetime

import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from factstore.timing import _wall_time, as_of_timestamp, end_of_filing_day, filing_date, resolve_acceptances


def test_new_york_time_labelled_utc_is_repaired():
    # 06:01 "Z" would be 02:01 in New York, before EDGAR opens: it is New York time
    (a,) = resolve_acceptances(["2025-10-31T06:01:26.000Z"], [date(2025, 10, 31)])
    assert a.at == datetime(2025, 10, 31, 10, 1, 26) and a.note.startswith("repaired")


def test_after_hours_stamp_dated_next_day_is_new_york_time():
    # 18:03 "Z" read as UTC is 14:03 New York, which would have been dated the same day
    (a,) = resolve_acceptances(["2024-08-01T18:03:34.000Z"], [date(2024, 8, 2)])
    assert a.at == datetime(2024, 8, 1, 22, 3, 34)


def test_true_utc_stamp_is_kept():
    # 22:37 UTC is 17:37 New York, after 17:30, so dated the next business day: consistent as UTC
    (a,) = resolve_acceptances(["2025-11-18T22:37:19.000Z"], [date(2025, 11, 19)])
    assert a.at == datetime(2025, 11, 18, 22, 37, 19) and a.note == "as given (UTC)"


def test_ambiguous_stamps_follow_the_filers_convention():
    stamps = ["2024-08-01T18:03:34.000Z", "2024-05-02T14:00:00.000Z"]  # second fits both readings
    out = resolve_acceptances(stamps, [date(2024, 8, 2), date(2024, 5, 2)])
    assert out[1].at == datetime(2024, 5, 2, 18, 0) and "convention" in out[1].note
    utc = resolve_acceptances(["2025-11-18T22:37:19.000Z", "2024-05-02T14:00:00.000Z"],
                              [date(2025, 11, 19), date(2024, 5, 2)])
    assert utc[1].at == datetime(2024, 5, 2, 14, 0)


def test_ambiguous_without_convention_takes_the_later_reading():
    (a,) = resolve_acceptances(["2024-05-02T14:00:00.000Z"], [date(2024, 5, 2)])
    assert a.at == datetime(2024, 5, 2, 18, 0)


def test_date_only_is_end_of_day_new_york():
    (a,) = resolve_acceptances([None], [date(2020, 7, 21)])
    assert (a.at, a.precision) == (datetime(2020, 7, 22, 3, 59, 59), "date")
    assert end_of_filing_day(date(2020, 1, 21)) == datetime(2020, 1, 22, 4, 59, 59)  # EST


def test_filing_date_rule():
    assert filing_date(datetime(2020, 7, 21, 21, 29)) == date(2020, 7, 21)  # 17:29 New York
    assert filing_date(datetime(2020, 7, 21, 21, 31)) == date(2020, 7, 22)  # 17:31 New York
    assert filing_date(datetime(2020, 7, 24, 22, 0)) == date(2020, 7, 27)  # Friday evening -> Monday


def test_as_of_reading():
    assert as_of_timestamp("2020-09-30") == datetime(2020, 9, 30)
    assert as_of_timestamp("2020-09-30T12:00:00-04:00") == datetime(2020, 9, 30, 16)
    assert as_of_timestamp(date(2020, 9, 30)) == datetime(2020, 9, 30)
    with pytest.raises(ValueError, match="as_of"):
        as_of_timestamp("yesterday-ish")


def pandas_wall_time(stamp: str) -> datetime:
    """How a stamp read before EDGAR's shape had a fast path: pandas, its zone label dropped."""
    ts = pd.Timestamp(stamp)
    return (ts.tz_localize(None) if ts.tzinfo is not None else ts).to_pydatetime()


fractions = st.sampled_from(["", ".0", ".000", ".5", ".123456", ".1234567"])
edgar_stamps = st.builds(lambda t, f: t.strftime("%Y-%m-%dT%H:%M:%S") + f + "Z", st.datetimes(), fractions)
near_misses = st.from_regex(r"\A(19|20)[0-9]{2}-(0[0-9]|1[0-3])-([0-3][0-9])T(1[0-9]|2[0-5]):[0-6][0-9]:[0-6][0-9]"
                            r"(\.[0-9]{1,7})?(Z|\+05:00|)\Z")


@pytest.mark.filterwarnings("ignore:Discarding nonzero nanoseconds")  # (pandas, on 7 digits of a second)
@settings(max_examples=300, deadline=None)
@given(st.one_of(edgar_stamps, near_misses))
@example("2024-02-30T10:00:00.000Z").via("a day that does not exist")
@example("2024-08-01T24:00:00.000Z").via("hour 24, which Python refuses")
def test_a_stamp_reads_as_pandas_reads_it(stamp):
    """EDGAR's own shape is read by the standard library, with pandas' reading, or pandas' refusal."""
    try:
        expected = pandas_wall_time(stamp)
    except ValueError:
        with pytest.raises(ValueError):
            _wall_time(stamp)
        return
    assert _wall_time(stamp) == expected
