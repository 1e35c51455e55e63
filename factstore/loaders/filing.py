"""A local SEC primary document (a 10-K's HTML file, say): the company and filing it is (the one the store holds,
or what the document and its file name say), with its form, period and acceptance time; fetched SEC documents and
local ones alike become a batch by `documents_batch`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from factstore.errors import LoadError
from factstore.loaders.batch import Batch
from factstore.loaders.companyfacts import entity_row
from factstore.loaders.cover import Cover, read_file_name
from factstore.timing import Place, as_of_timestamp, filing_date, resolve_acceptances

ACCESSION = re.compile(r"(?<!\d)(\d{10})-?(\d{2})-?(\d{6})(?!\d)")  # 0000320193-24-000123
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
# a moment as ISO 8601 writes it: a day, then a time of day, with its offset or Z where it is not UTC
_MOMENT = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?")
_HTML = re.compile(rb"<(?:html|body|div|p|table|font)\b", re.IGNORECASE)
# periodic reports a company files once per period (an amendment, /A, may follow any number of times)
ONE_PER_PERIOD = frozenset({"10-K", "10-K405", "10-KSB", "10-Q", "10-QSB", "20-F", "40-F"})


def accession_in(path: str | Path, given: str | None = None) -> str | None:
    """The accession number given (checked, dashes added, and the file name's if it carries one) or, failing
    that, the one in the file's name."""
    m = ACCESSION.search(Path(path).name)
    named = "-".join(m.groups()) if m else None
    if given is None:
        return named
    m = ACCESSION.fullmatch(given.strip())
    if not m:
        raise LoadError(str(path), f"not an accession number (##########-##-######): {given!r}", field="accession")
    if named is not None and "-".join(m.groups()) != named:
        raise LoadError(str(path), f"the file's name says accession {named}, not {'-'.join(m.groups())}",
                        field="accession")
    return "-".join(m.groups())


@dataclass(frozen=True)
class Filer:
    """The company a document is loaded for: its entity_id, CIK (None for a filer known by name only), name and
    tickers."""

    entity_id: str
    cik: int | None
    name: str | None
    tickers: tuple[str, ...] = ()


def read_document(path: str | Path) -> bytes:
    """A local SEC document's bytes, refused where it cannot be read or is no HTML."""
    source = str(path)
    try:
        body = Path(path).read_bytes()
    except OSError as exc:
        raise LoadError(source, f"cannot read: {exc.strerror or exc}") from exc
    if not _HTML.search(body[:200_000]):
        raise LoadError(source, "not an HTML document (no <html>, <body>, <div>, <p> or <table> tag)")
    return body


def read_filing(path: str | Path, body: bytes, filer: Filer, filings: pd.DataFrame, cover: Cover, *,
                accession: str | None = None, form: str | None = None, accepted_at: Any = None,
                period_end: Any = None) -> Batch:
    """A batch of one SEC document for `filer`. `filings` are the stored filings of the company and any stored
    under the accession (filing_id, entity_id, form, period_end, filed, accepted_at, accepted_precision,
    accepted_note, source). Form and period are what is given, else what the document says (`cover`), else its
    file name (NVDA_10-K_2025-02-26.html); the given and the document's must agree. A filing the store knows
    gives form, period and acceptance time (what is given must agree); without an accession, the company's one
    stored filing of the form, filed on the day given (or the file name's), is it; any other is accepted at the
    time given (a day, or a moment: UTC unless it says), else at the end of the file name's day."""
    source = str(path)
    named = read_file_name(path)
    accession = accession_in(path, accession)
    form = _agreed(form.strip().upper() if form and form.strip() else None, cover.form, cover, source, "form")
    form = form or named.form
    end = _day(period_end, source, "period_end")
    _agreed(end, cover.period_end, cover, source, "period_end")
    given = given_acceptance(accepted_at, source, accession or Path(path).name, named.day)
    if accession is None and form and given:
        same = filings[(filings["entity_id"] == filer.entity_id) & (filings["form"].str.upper() == form)
                       & (pd.to_datetime(filings["filed"]).dt.date == given[1])]
        if len(same) > 1:
            raise LoadError(source, f"{len(same)} stored {form} filings of {filer.entity_id} were filed on "
                                    f"{given[1]} ({', '.join(same['filing_id'])}): give the accession",
                            field="accession")
        accession = same["filing_id"].iloc[0] if len(same) else None
    elif accession is None and form:  # no day: the company's one stored report of the form for the period
        accession = next(iter(_same_report(filings, filer.entity_id, form, end or cover.period_end)), None)
    filing_id = accession or Path(path).name
    stored = filings[filings["filing_id"] == filing_id]
    if len(stored):
        row = stored.iloc[0]
        check_stored(row, filer.entity_id, form, given, end, source)
        chosen = {"form": row["form"], "report_date": row["period_end"], "filed": row["filed"],
                  "accepted_at": row["accepted_at"], "accepted_precision": row["accepted_precision"],
                  "accepted_note": row["accepted_note"], "source": row["source"]}
    elif form is None or given is None:
        no_second_report(filings, filer.entity_id, form, end or cover.period_end, filing_id, source)
        known = f"the store holds no filing {accession}" if accession else "no accession in the file's name"
        missing = "its form" if form is None else "its acceptance time (accepted_at)"
        raise LoadError(source, f"{known}, and neither the document nor its file name says {missing}: give it",
                        field="form" if form is None else "accepted_at")
    else:
        at, day, precision, note = given
        no_second_report(filings, filer.entity_id, form, end or cover.period_end, filing_id, source)
        chosen = {"form": form, "report_date": end or cover.period_end, "filed": day, "accepted_at": at,
                  "accepted_precision": precision, "accepted_note": note, "source": source}
    frame = pd.DataFrame([{"filing_id": filing_id, **chosen}])
    frame["filed"] = pd.to_datetime(frame["filed"])
    frame["accepted_at"] = pd.to_datetime(frame["accepted_at"]).astype("datetime64[us]")
    return documents_batch(filer, frame, {filing_id: (body, Path(path))})


def no_second_report(filings: pd.DataFrame, entity_id: str, form: str | None, end: date | None, filing_id: str,
                      source: str) -> None:
    """A periodic report (not an amendment) the store already holds for the company and period under another
    accession is that filing: a document of it is refused as a second one, naming the stored filing."""
    stored = _same_report(filings, entity_id, form, end)
    if stored:
        row = filings[filings["filing_id"] == stored[0]].iloc[0]
        raise LoadError(source, f"the store holds the {form} of {entity_id} for the period ending {end} as filing "
                                f"{stored[0]} (accepted {pd.Timestamp(row['accepted_at']):%Y-%m-%d %H:%M:%S} UTC), "
                                f"not as {filing_id}: give its accession, or none", field="accession")


def _same_report(filings: pd.DataFrame, entity_id: str, form: str | None, end: date | None) -> list[str]:
    """The stored filings of a periodic report (ONE_PER_PERIOD) of the company's form and period."""
    if end is None or form not in ONE_PER_PERIOD:
        return []
    return filings.loc[(filings["entity_id"] == entity_id) & (filings["form"].str.upper() == form)
                       & (pd.to_datetime(filings["period_end"]).dt.date == end), "filing_id"].tolist()


def _agreed(given: Any, said: Any, cover: Cover, source: str, name: str) -> Any:
    """What is given, checked against what the document says of itself; else what it says."""
    if given is not None and said is not None and given != said:
        raise LoadError(source, f"the document's {cover.source} says {name} {said}, not {given}", field=name)
    return said if given is None else given


def given_acceptance(value: Any, source: str, accession: str, named_day: date | None = None
                     ) -> tuple[datetime, date, str, str] | None:
    """A given acceptance (else the day in the file's name, `named_day`) as (UTC moment, filing date, precision,
    note): a day alone is the end of that day in New York (as filings known to the day only are), a moment is UTC
    unless it says otherwise; either read by the one rule of acceptance times (no filing date is given beside it:
    only its bounds apply). Text is ISO 8601 only: '10/09/1999' or '2010/10/25' is refused, never read as a moment
    at midnight UTC or a guessed day order. The note says where a day came from."""
    value, how = (named_day, "file name") if value is None else (value, "given")
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    where = lambda i: Place(source, accession, "accepted_at", "accepted_at")  # noqa: E731
    day_only = isinstance(value, str) and _DAY.fullmatch(value.strip())
    if isinstance(value, str) and not day_only and not _MOMENT.fullmatch(value.strip()):
        raise LoadError(source, f"cannot read {value!r}: give a day as YYYY-MM-DD (the end of that day in New York) "
                                "or a moment as YYYY-MM-DDTHH:MM:SS (UTC unless it gives its offset)",
                        field="accepted_at")
    if day_only or (isinstance(value, date) and not isinstance(value, datetime)):
        day = _day(value, source, "accepted_at")
        (read,) = resolve_acceptances([None], [day], where)
        return read.at, day, read.precision, f"filing date only ({how}): end of day, New York"
    try:
        at = as_of_timestamp(value)
    except ValueError as exc:
        raise LoadError(source, f"cannot read {value!r} as a date or a time", field="accepted_at") from exc
    (read,) = resolve_acceptances([at], [None], where)
    return read.at, filing_date(read.at), read.precision, read.note


def _day(value: Any, source: str, name: str) -> date | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        return pd.Timestamp(value).date()
    except (ValueError, TypeError) as exc:
        raise LoadError(source, f"cannot read {value!r} as a date", field=name) from exc


def check_stored(row: pd.Series, entity_id: str, form: str | None, given: tuple[datetime, date, str, str] | None,
           end: date | None, source: str) -> None:
    """Refuse what contradicts the stored filing: another company's, another form, period or time."""
    accession = row["filing_id"]
    if row["entity_id"] != entity_id:
        raise LoadError(source, f"filing {accession} is stored as one of {row['entity_id']}, not of {entity_id}",
                        field="entity")
    if form is not None and form != str(row["form"]).upper():
        raise LoadError(source, f"filing {accession} is a {row['form']} in the store, not a {form}", field="form")
    stored_end = None if pd.isna(row["period_end"]) else pd.Timestamp(row["period_end"]).date()
    if end is not None and stored_end is not None and end != stored_end:
        raise LoadError(source, f"filing {accession} is for the period ending {stored_end} in the store, "
                                f"not {end}", field="period_end")
    if given is not None:
        at, day, precision, _ = given
        stored_at = pd.Timestamp(row["accepted_at"]).to_pydatetime()
        stored_day = pd.Timestamp(row["filed"]).date() if not pd.isna(row["filed"]) else filing_date(stored_at)
        exact = precision == "second" and row["accepted_precision"] == "second"
        if (at.replace(microsecond=0) != stored_at.replace(microsecond=0)) if exact else day != stored_day:
            raise LoadError(source, f"filing {accession} was accepted {stored_at:%Y-%m-%d %H:%M:%S} UTC (filed "
                                    f"{stored_day}) in the store, not {at:%Y-%m-%d %H:%M:%S} UTC (filed {day})",
                            field="accepted_at")


def documents_batch(filer: Filer, chosen: pd.DataFrame, bodies: dict[str, tuple[bytes, Path]],
                    company: dict[str, Any] | None = None) -> Batch:
    """Filing documents (with their filings rows) from primary documents fetched into the cache (`company`: the
    submissions JSON's own fields, for the company's other names)."""
    entity_id, name = filer.entity_id, filer.name
    rows = chosen[chosen["filing_id"].isin(bodies)]
    batch = Batch(source=f"documents of {name or entity_id}", kind="sec", stored_wins=True)
    batch.entities = entity_row(filer.cik, name, {**(company or {}), "tickers": list(filer.tickers)},
                                entity_id=entity_id)
    period_end = pd.to_datetime(rows["report_date"]).fillna(pd.to_datetime(rows["filed"]))
    batch.filings = pd.DataFrame({
        "filing_id": rows["filing_id"], "entity_id": entity_id, "form": rows["form"],
        "period_end": period_end.dt.date, "filed": rows["filed"], "accepted_at": rows["accepted_at"],
        "accepted_precision": rows["accepted_precision"], "accepted_note": rows["accepted_note"],
        "source": rows["source"]}).reset_index(drop=True)
    batch.documents = pd.DataFrame({
        "doc_id": rows["filing_id"], "entity_id": entity_id, "issuer": name, "kind": "filing",
        "form": rows["form"], "period_end": period_end, "year": period_end.dt.year,
        "accepted_at": rows["accepted_at"],
        "title": [f"{name} {f} {d:%Y-%m-%d}" for f, d in zip(rows["form"], period_end, strict=True)],
        "raw": [html_text(bodies[a][0]) for a in rows["filing_id"]]}).reset_index(drop=True)
    batch.source_of["documents"] = "; ".join(str(bodies[a][1]) for a in rows["filing_id"])
    return batch


def html_text(body: bytes) -> str:
    """A filing document's bytes as text (EDGAR documents are UTF-8 or Windows-1252)."""
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return body.decode("cp1252", errors="replace")
