"""Acceptance times: EDGAR's hours, the filing-hours rule, repair of mislabelled times, date precision.

All times leave this module as naive ``datetime`` in UTC, the store's convention.
"""

from __future__ import annotations

import re
from collections import Counter
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import numpy as np
import pandas as pd

NEW_YORK = ZoneInfo("America/New_York")
EDGAR_OPENS = time(6, 0)
EDGAR_CLOSES = time(22, 0)
FILING_DAY_CUTOFF = time(17, 30)
EDGAR_STAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z")  # acceptanceDateTime as EDGAR writes it


@dataclass(frozen=True)
class Acceptance:
    """When a filing became public, how precisely we know it, and how it was read."""

    at: datetime  # naive UTC
    precision: str  # 'second' | 'date'
    note: str


def as_of_timestamp(value: object) -> datetime | None:
    """Read a user's as-of moment: a date or time string, date, datetime or Timestamp (a bare date is
    00:00 UTC, a naive time is UTC), or a number of seconds since 1970-01-01 UTC (int or float)."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(f"as_of: cannot read {value!r} as a date or timestamp")
    try:
        if isinstance(value, int | float | np.integer | np.floating):
            ts = pd.Timestamp(float(value), unit="s")
        else:
            ts = pd.Timestamp(value)
    except (ValueError, TypeError, OverflowError) as exc:
        raise ValueError(f"as_of: cannot read {value!r} as a date or timestamp") from exc
    if ts is pd.NaT:
        raise ValueError(f"as_of: cannot read {value!r} as a date or timestamp")
    if ts.tzinfo is not None:
        ts = ts.tz_convert("UTC").tz_localize(None)
    return ts.floor("us").to_pydatetime()


def as_of_column(values: pd.Series) -> pd.Series:
    """A column of as-of moments read as `as_of_timestamp` reads one (naive UTC, microseconds); zone
    notations may be mixed. A value that cannot be read is refused, naming its row."""
    if pd.api.types.is_bool_dtype(values):
        pass  # refused row by row below
    elif pd.api.types.is_numeric_dtype(values) and values.notna().all():
        return pd.to_datetime(values.astype("float64"), unit="s").astype("datetime64[us]")
    elif pd.api.types.is_datetime64_any_dtype(values) and values.notna().all():
        stamps = values.dt.tz_convert("UTC").dt.tz_localize(None) if values.dt.tz is not None else values
        return stamps.dt.floor("us").astype("datetime64[us]")
    out = []
    for row, value in enumerate(values, start=1):
        try:
            out.append(as_of_timestamp(value))
        except ValueError as exc:
            raise ValueError(f"questions row {row}, column 'as_of': {exc}") from exc
    return pd.Series(out, index=values.index, dtype="datetime64[us]")


def utc_naive(value: datetime) -> datetime:
    """A tz-aware datetime as naive UTC."""
    return value.astimezone(UTC).replace(tzinfo=None)


def end_of_filing_day(filed: date) -> datetime:
    """The last second of a filing date in New York: the earliest moment a date-only filing is surely public."""
    local = datetime.combine(filed, time(23, 59, 59), tzinfo=NEW_YORK)
    return utc_naive(local)


def _next_business_day(day: date) -> date:
    day += timedelta(days=1)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


def plausible(local: datetime, filed: date | None) -> bool:
    """Whether a New York wall time fits EDGAR's hours and, if known, the filing date it was given.

    EDGAR accepts from 06:00 to 22:00; a filing accepted after 17:30 is dated the next business day
    (holidays are not known here, so a date up to four days later passes).
    """
    if not EDGAR_OPENS <= local.time() <= EDGAR_CLOSES:
        return False
    if filed is None:
        return True
    if local.time() <= FILING_DAY_CUTOFF:
        return filed == local.date()
    return _next_business_day(local.date()) <= filed <= local.date() + timedelta(days=4)


def _readings(stamp: str) -> tuple[datetime, datetime]:
    """The stamp read as UTC (as labelled) and as New York wall time (as some filers' stamps are)."""
    wall = _wall_time(stamp)
    return wall.replace(tzinfo=UTC), wall.replace(tzinfo=NEW_YORK)


def _wall_time(stamp: str) -> datetime:
    """A stamp's wall time, its zone label dropped, as pandas reads it; EDGAR's own shape
    (2020-02-03T18:00:00.000Z) read by the standard library, 50 times faster and alike."""
    if EDGAR_STAMP.fullmatch(stamp):
        with suppress(ValueError):  # (a time that does not exist: as pandas says)
            return datetime.fromisoformat(stamp[:-1])
    ts = pd.Timestamp(stamp)
    return (ts.tz_localize(None) if ts.tzinfo is not None else ts).to_pydatetime()


def resolve_acceptances(
    stamps: list[str | None], filed: list[date | None]
) -> list[Acceptance]:
    """Read one filer's acceptanceDateTime stamps, repairing New York times labelled as UTC.

    Each stamp is tried as UTC and as New York wall time against EDGAR's hours and its filing date.
    Where only one reading fits, it wins; where both fit, the filer's own convention (the majority of
    its unambiguous stamps) decides, and without one the later reading, so a value is never public
    earlier than in reality. Where there is no stamp, the end of the filing date in New York is used.
    """
    readings: list[tuple[datetime, datetime, bool, bool] | None] = []
    votes: Counter[str] = Counter()
    for stamp, day in zip(stamps, filed, strict=True):
        if not stamp:
            readings.append(None)
            continue
        as_utc, as_ny = _readings(stamp)
        utc_ok = plausible(as_utc.astimezone(NEW_YORK), day)
        ny_ok = plausible(as_ny, day)
        readings.append((as_utc, as_ny, utc_ok, ny_ok))
        if utc_ok != ny_ok:
            votes["utc" if utc_ok else "ny"] += 1
    convention = "ny" if votes["ny"] > votes["utc"] else "utc" if votes["utc"] else None
    out = []
    for reading, day in zip(readings, filed, strict=True):
        if reading is None:
            if day is None:
                raise ValueError("a filing has neither an acceptance time nor a filing date")
            out.append(Acceptance(end_of_filing_day(day), "date", "filing date only: end of day, New York"))
            continue
        as_utc, as_ny, utc_ok, ny_ok = reading
        if utc_ok and not ny_ok:
            out.append(Acceptance(utc_naive(as_utc), "second", "as given (UTC)"))
        elif ny_ok and not utc_ok:
            out.append(Acceptance(utc_naive(as_ny), "second", "repaired: New York time labelled UTC"))
        elif utc_ok and ny_ok and convention == "utc":
            out.append(Acceptance(utc_naive(as_utc), "second", "as given (UTC, filer's convention)"))
        elif utc_ok and ny_ok:
            note = "repaired: New York time labelled UTC (filer's convention)" if convention else (
                "ambiguous: read as New York time, the later reading")
            out.append(Acceptance(utc_naive(as_ny), "second", note))
        else:
            later = max(as_utc, as_ny)
            out.append(Acceptance(utc_naive(later), "second",
                                  "fits neither EDGAR hours nor filing date: later reading kept"))
    return out


def filing_date(accepted: datetime) -> date:
    """The date EDGAR gives a filing accepted at this UTC moment (after 17:30 New York: next business day)."""
    local = accepted.replace(tzinfo=UTC).astimezone(NEW_YORK)
    if local.time() > FILING_DAY_CUTOFF or local.weekday() >= 5:
        return _next_business_day(local.date())
    return local.date()
