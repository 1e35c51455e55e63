"""Acceptance times: EDGAR's hours, the filing-hours rule, repair of mislabelled times, date precision, and the
one rule every loader's stamps go through (`resolve_acceptances`).

All times leave this module as naive ``datetime`` in UTC, the store's convention.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import NoReturn
from zoneinfo import ZoneInfo

import numpy as np
import pandas as pd

from factstore.errors import LoadError

PRECISIONS = ("date", "minute", "second")  # of an acceptance time, coarsest first (as sql/write.sql retimed)

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
    if type(value) is datetime and value.tzinfo is None:  # already naive UTC (the common case of a caller's loop)
        return value
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


def json_ready(value: object) -> object:
    """A value with its dates and times, nested in dicts, lists and tuples, as ISO strings; a time with its zone
    (a naive one is the store's UTC); a number that is not finite is None (JSON's null)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, datetime):
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_ready(v) for v in value]
    return value


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


EDGAR_FIRST = datetime(1993, 1, 1, tzinfo=UTC)  # EDGAR took its first electronic filings in 1993: none is earlier
LATE_DAYS = 4  # a filing date may be this many days after its acceptance (after 17:30, over a weekend and a holiday)
WINDOW = {"second": timedelta(0), "minute": timedelta(minutes=1)}  # how far a stamp of this precision may be off


@dataclass(frozen=True)
class Place:
    """Where a filing's acceptance was given, for a refusal: the file, the accession, the field of its stamp and
    that of its filing date, and the file's 1-based data row where it has rows."""

    source: str
    accession: str
    stamp_field: str | None = None
    date_field: str | None = None
    row: int | None = None


Stamp = str | datetime | None  # EDGAR's acceptanceDateTime text, or a moment (naive: UTC)


def resolve_acceptances(
    stamps: Sequence[Stamp], filed: Sequence[date | None], where: Callable[[int], Place] | None = None, *,
    precision: str = "second", note: str = "as given (UTC)", now: datetime | None = None,
) -> list[Acceptance]:
    """The acceptance times of one filer's filings: every loader's stamps read by this one rule.

    A text stamp is EDGAR's acceptanceDateTime, labelled UTC but New York time for some filers: it is tried as
    both, against EDGAR's hours (06:00-22:00 New York) and its filing date (after 17:30, the next business day).
    Where only one reading fits, it wins; where both fit, the filer's own convention (the majority of its
    unambiguous stamps) decides, and without one the later reading. A moment (a datetime: naive is UTC; `note`
    says how it was read) is tried as it is, `precision` saying how far it may be off ('minute': FSDS).

    A stamp that fits neither reading of its filing date falls back to the end of that day in New York, with
    precision 'date' and a note of what was given and why it was not used; a stamp later still is kept (the
    later reading), so a value is never public earlier than the stamp or the filing date allow. Without a stamp,
    the end of the filing date. Without a filing date there is nothing to check a moment against: it is kept.

    A stamp before 1993-01-01 or after `now` (the time of loading), or a filing date before 1993 or after any
    date a filing accepted by now could have, is refused: a LoadError naming the file, the accession and the
    field (`where(i)` says where the i-th stamp was given).
    """
    now = _moment(now).replace(tzinfo=UTC) if now is not None else datetime.now(UTC)
    latest_day = now.astimezone(NEW_YORK).date() + timedelta(days=LATE_DAYS)
    window, first_day = WINDOW[precision], EDGAR_FIRST.date()
    readings: list[tuple[datetime, ...] | None] = []
    fits: list[tuple[bool, ...]] = []
    votes: Counter[str] = Counter()
    for i, (stamp, day) in enumerate(zip(stamps, filed, strict=True)):
        if day is not None and not first_day <= day <= latest_day:
            _refuse(where, i, "date", f"filed {day}", day < first_day, now)
        if not stamp or stamp is pd.NaT:
            readings.append(None)
            fits.append(())
            continue
        if isinstance(stamp, str):  # (EDGAR's shape: the fast path; the New York reading is its own wall time)
            read = _readings(stamp)
            local = (read[0].astimezone(NEW_YORK), read[1])
        else:
            read = (_moment(stamp).replace(tzinfo=UTC),)
            local = (read[0].astimezone(NEW_YORK),)
        if not EDGAR_FIRST <= read[0] <= now:
            _refuse(where, i, "stamp", f"accepted {_given(stamp)}", read[0] < EDGAR_FIRST, now)
        if window:
            ok = tuple(_fits(x, day, window) for x in local)
        else:
            ok = (plausible(local[0], day), plausible(local[1], day)) if len(local) == 2 else (
                plausible(local[0], day),)
        readings.append(read)
        fits.append(ok)
        if len(ok) == 2 and ok[0] != ok[1]:
            votes["utc" if ok[0] else "ny"] += 1
    convention = "ny" if votes["ny"] > votes["utc"] else "utc" if votes["utc"] else None
    out = []
    for stamp, read, ok, day in zip(stamps, readings, fits, filed, strict=True):
        if read is None:
            if day is None:
                raise ValueError("a filing has neither an acceptance time nor a filing date")
            out.append(Acceptance(end_of_filing_day(day), "date", "filing date only: end of day, New York"))
        elif len(read) == 1 and (ok[0] or day is None):
            out.append(Acceptance(utc_naive(read[0]), precision, note))
        elif len(read) == 1:
            out.append(_fallback(stamp, read, day, precision))
        elif ok[0] and not ok[1]:
            out.append(Acceptance(utc_naive(read[0]), precision, "as given (UTC)"))
        elif ok[1] and not ok[0]:
            out.append(Acceptance(utc_naive(read[1]), precision, "repaired: New York time labelled UTC"))
        elif ok[0] and convention == "utc":
            out.append(Acceptance(utc_naive(read[0]), precision, "as given (UTC, filer's convention)"))
        elif ok[0]:
            out.append(Acceptance(utc_naive(read[1]), precision,
                                  "repaired: New York time labelled UTC (filer's convention)" if convention
                                  else "ambiguous: read as New York time, the later reading"))
        elif day is None:
            out.append(Acceptance(utc_naive(max(read)), precision,
                                  "fits neither reading of EDGAR's hours: later reading kept"))
        else:
            out.append(_fallback(stamp, read, day, precision))
    return out


def _fallback(stamp: Stamp, read: tuple[datetime, ...], day: date, precision: str) -> Acceptance:
    """A stamp that fits no reading of its filing date: the end of that day in New York, or the stamp's later
    reading where that is later still (never public earlier than either says); the note says what was given and
    why it was not used."""
    if len(read) == 1:
        why = f"does not fit filing date {day} under EDGAR's hours ({_why(read[0], day)})"
    else:
        why = (f"fits neither reading of filing date {day} under EDGAR's hours (as UTC: {_why(read[0], day)}; "
               f"as New York time: {_why(read[1], day)})")
    end, later = end_of_filing_day(day), utc_naive(max(read))
    if later > end:
        return Acceptance(later, precision, f"given {_given(stamp)}: {why}; kept, its later reading being after the "
                                            "end of the filing day")
    return Acceptance(end, "date", f"given {_given(stamp)}: {why}; end of filing day, New York")


def _refuse(where: Callable[[int], Place] | None, i: int, what: str, given: str, early: bool,
            now: datetime) -> NoReturn:
    """Refuse the i-th filing's stamp (what='stamp') or filing date ('date'), before 1993 (early) or after now."""
    place = where(i) if where else Place("acceptance times", f"#{i + 1}", "acceptance time", "filing date")
    reason = (f"{given}, before 1993-01-01, when EDGAR took its first filing" if early
              else f"{given}, after this load's time ({utc_naive(now):%Y-%m-%d %H:%M:%S} UTC)")
    raise LoadError(place.source, f"accession {place.accession}: {reason}", row=place.row,
                    field=place.stamp_field if what == "stamp" else place.date_field)


def _moment(value: datetime) -> datetime:
    """A moment as naive UTC (naive: UTC already), to the microsecond."""
    moment = utc_naive(value) if value.tzinfo is not None else value
    return moment.to_pydatetime() if isinstance(moment, pd.Timestamp) else moment


def _fits(local: datetime, day: date | None, window: timedelta) -> bool:
    """Whether a New York time, up to `window` either side, fits EDGAR's hours and its filing date."""
    return plausible(local, day) or plausible(local - window, day) or plausible(local + window, day)


def _why(moment: datetime, day: date) -> str:
    """Why a moment (aware) does not fit a filing date: outside EDGAR's hours, or a filing then dated otherwise."""
    local = moment.astimezone(NEW_YORK)
    if not EDGAR_OPENS <= local.time() <= EDGAR_CLOSES:
        return f"{local:%Y-%m-%d %H:%M:%S} New York, outside 06:00-22:00"
    return f"{local:%Y-%m-%d %H:%M:%S} New York, a filing dated {filing_date(utc_naive(moment))}"


def _given(stamp: Stamp) -> str:
    """A stamp as given, for a note or a refusal: its text, or the moment in New York and UTC."""
    if isinstance(stamp, str):
        return repr(stamp)
    moment = _moment(stamp)  # type: ignore[arg-type]
    local = moment.replace(tzinfo=UTC).astimezone(NEW_YORK)
    return f"{local:%Y-%m-%d %H:%M:%S} New York ({moment:%Y-%m-%d %H:%M:%S} UTC)"


def filing_date(accepted: datetime) -> date:
    """The date EDGAR gives a filing accepted at this UTC moment (after 17:30 New York: next business day)."""
    local = accepted.replace(tzinfo=UTC).astimezone(NEW_YORK)
    if local.time() > FILING_DAY_CUTOFF or local.weekday() >= 5:
        return _next_business_day(local.date())
    return local.date()
