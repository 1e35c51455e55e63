"""A local SEC primary document (a 10-K's HTML file, say) for the company whose facts the store holds: the
same entity and, where the store knows the accession, the same filing, with its form, period and acceptance
time; fetched SEC documents and local ones alike become a batch by `documents_batch`."""

from __future__ import annotations

import re
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from factstore.errors import LoadError
from factstore.loaders.batch import Batch, sec_entity_id
from factstore.loaders.companyfacts import entity_row
from factstore.timing import Place, as_of_timestamp, filing_date, resolve_acceptances

ACCESSION = re.compile(r"(?<!\d)(\d{10})-?(\d{2})-?(\d{6})(?!\d)")  # 0000320193-24-000123
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_HTML = re.compile(rb"<(?:html|body|div|p|table|font)\b", re.IGNORECASE)


def accession_in(path: str | Path, given: str | None = None) -> str | None:
    """The accession number given (checked, dashes added) or, failing that, the one in the file's name."""
    if given is not None:
        m = ACCESSION.fullmatch(given.strip())
        if not m:
            raise LoadError(str(path), f"not an accession number (##########-##-######): {given!r}",
                            field="accession")
        return "-".join(m.groups())
    m = ACCESSION.search(Path(path).name)
    return "-".join(m.groups()) if m else None


def read_filing(path: str | Path, cik: int, company: dict[str, Any], filings: pd.DataFrame, *,
                accession: str | None = None, form: str | None = None, accepted_at: Any = None,
                period_end: Any = None) -> Batch:
    """A batch of one SEC document for company `cik` (`company`: name and tickers). `filings` are the stored
    filings of the company and any stored under the accession (filing_id, entity_id, form, period_end, filed,
    accepted_at, accepted_precision, accepted_note, source). A filing the store knows gives form, period and
    acceptance time (what is given must agree); without an accession, the company's one stored filing of the
    form given, filed on the day given, is it; any other needs form and accepted_at (a day, or a moment: UTC
    unless it says)."""
    source = str(path)
    try:
        body = Path(path).read_bytes()
    except OSError as exc:
        raise LoadError(source, f"cannot read: {exc.strerror or exc}") from exc
    if not _HTML.search(body[:200_000]):
        raise LoadError(source, "not an HTML document (no <html>, <body>, <div>, <p> or <table> tag)")
    entity_id = sec_entity_id(cik)
    accession = accession_in(path, accession)
    form = form.strip().upper() if form and form.strip() else None
    given = _acceptance(accepted_at, source, accession or Path(path).name)
    end = _day(period_end, source, "period_end")
    if accession is None and form and given:
        same = filings[(filings["entity_id"] == entity_id) & (filings["form"].str.upper() == form)
                       & (pd.to_datetime(filings["filed"]).dt.date == given[1])]
        if len(same) > 1:
            raise LoadError(source, f"{len(same)} stored {form} filings of {entity_id} were filed on {given[1]} "
                                    f"({', '.join(same['filing_id'])}): give the accession", field="accession")
        accession = same["filing_id"].iloc[0] if len(same) else None
    filing_id = accession or Path(path).name
    stored = filings[filings["filing_id"] == filing_id]
    if len(stored):
        row = stored.iloc[0]
        _agree(row, entity_id, form, given, end, source)
        chosen = {"form": row["form"], "report_date": row["period_end"], "filed": row["filed"],
                  "accepted_at": row["accepted_at"], "accepted_precision": row["accepted_precision"],
                  "accepted_note": row["accepted_note"], "source": row["source"]}
    elif form is None or given is None:
        known = f"the store holds no filing {accession}" if accession else "no accession in the file's name"
        raise LoadError(source, f"{known}: give its form and acceptance time (accepted_at)",
                        field="form" if form is None else "accepted_at")
    else:
        at, day, precision, note = given
        chosen = {"form": form, "report_date": end, "filed": day, "accepted_at": at, "accepted_precision": precision,
                  "accepted_note": note, "source": source}
    frame = pd.DataFrame([{"filing_id": filing_id, **chosen}])
    frame["filed"] = pd.to_datetime(frame["filed"])
    frame["accepted_at"] = pd.to_datetime(frame["accepted_at"]).astype("datetime64[us]")
    return documents_batch(cik, company, frame, {filing_id: (body, Path(path))})


def _acceptance(value: Any, source: str, accession: str) -> tuple[datetime, date, str, str] | None:
    """A given acceptance as (UTC moment, filing date, precision, note): a day alone is the end of that day in
    New York (as filings known to the day only are), a moment is UTC unless it says otherwise; either read by the
    one rule of acceptance times (no filing date is given beside it: only its bounds apply)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    where = lambda i: Place(source, accession, "accepted_at", "accepted_at")  # noqa: E731
    day_only = isinstance(value, str) and _DAY.fullmatch(value.strip())
    if day_only or (isinstance(value, date) and not isinstance(value, datetime)):
        day = _day(value, source, "accepted_at")
        (read,) = resolve_acceptances([None], [day], where)
        return read.at, day, read.precision, "filing date only (given): end of day, New York"
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


def _agree(row: pd.Series, entity_id: str, form: str | None, given: tuple[datetime, date, str, str] | None,
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


def documents_batch(cik: int, company: dict[str, Any], chosen: pd.DataFrame, bodies: dict[str, tuple[bytes, Path]]
                    ) -> Batch:
    """Filing documents (with their filings rows) from primary documents fetched into the cache."""
    entity_id = sec_entity_id(cik)
    name = company.get("name")
    rows = chosen[chosen["filing_id"].isin(bodies)]
    batch = Batch(source=f"submissions of CIK {cik}", kind="sec", stored_wins=True)
    batch.entities = entity_row(cik, name, company)
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
