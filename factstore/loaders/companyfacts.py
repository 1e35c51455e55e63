"""The SEC's companyfacts JSON, with acceptance times from the company's submissions JSON."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any, NamedTuple

import orjson
import pandas as pd

from factstore.errors import LoadError
from factstore.loaders.batch import Batch
from factstore.timing import resolve_acceptances


class Named(NamedTuple):
    """A parsed JSON object with the name of where it came from (a cache file, a zip member)."""

    data: dict[str, Any]
    source: str


Json = str | Path | dict[str, Any] | Named


def read_json(data: Json, name: str) -> tuple[dict[str, Any], str]:
    """A parsed JSON object and the name to report errors under."""
    if isinstance(data, Named):
        return data.data, data.source
    if isinstance(data, dict):
        return data, f"<{name} dict>"
    path = Path(data)
    source = str(path)
    try:
        text = path.read_bytes()
    except OSError as exc:
        raise LoadError(source, f"cannot read: {exc.strerror or exc}") from exc
    try:
        parsed = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise LoadError(source, f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
                        row=exc.lineno) from exc
    if not isinstance(parsed, dict):
        raise LoadError(source, f"expected a JSON object, got {type(parsed).__name__}")
    return parsed, source


def _day(text: Any, source: str, path: str) -> date:
    try:
        return date.fromisoformat(str(text))
    except ValueError as exc:
        raise LoadError(source, f"not an ISO date: {text!r}", field=path) from exc


def submission_rows(data: Json | list[Json]) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Filings listed in a submissions JSON (and its paged files): accession, form, dates, stamp."""
    documents = data if isinstance(data, list) else [data]
    rows: list[dict[str, Any]] = []
    company: dict[str, Any] = {}
    for doc in documents:
        parsed, source = read_json(doc, "submissions")
        recent = parsed.get("filings", {}).get("recent", parsed)
        if "cik" in parsed:
            company = parsed
        try:
            columns = {k: recent[k] for k in ("accessionNumber", "filingDate", "form")}
        except KeyError as exc:
            raise LoadError(source, "missing in submissions JSON", field=f"filings.recent.{exc.args[0]}") from exc
        n = len(columns["accessionNumber"])
        stamps = recent.get("acceptanceDateTime") or [None] * n
        reports = recent.get("reportDate") or [None] * n
        documents = recent.get("primaryDocument") or [None] * n
        xbrl = recent.get("isXBRL") or [None] * n
        for i, accn in enumerate(columns["accessionNumber"]):
            rows.append({"filing_id": accn, "form": columns["form"][i],
                         "filed": _day(columns["filingDate"][i], source, f"filings.recent.filingDate[{i}]"),
                         "stamp": stamps[i] or None, "report_date": reports[i] or None, "source": source,
                         "primary_document": documents[i] or None, "is_xbrl": bool(xbrl[i])})
    return pd.DataFrame(rows).drop_duplicates("filing_id"), company


def read_companyfacts(data: Json, submissions: Json | list[Json] | None = None) -> Batch:
    """A batch from one companyfacts JSON: every reported value, none dropped, each with its filing."""
    parsed, source = read_json(data, "companyfacts")
    try:
        cik = int(parsed["cik"])
    except (KeyError, TypeError, ValueError) as exc:
        raise LoadError(source, "missing or not a number", field="cik") from exc
    entity_id = f"{cik:010d}"
    facts = parsed.get("facts")
    if not isinstance(facts, dict):
        raise LoadError(source, "missing or not an object", field="facts")
    columns: dict[str, list[Any]] = {k: [] for k in (
        "filing_id", "concept", "unit", "period_start", "period_end", "value", "form", "filed")}
    paths: list[str] = []  # one JSON path per unit list; rows are numbered within it
    sizes: list[int] = []
    for taxonomy, concepts in facts.items():
        for name, body in concepts.items():
            concept = f"{taxonomy}:{name}"
            for unit, values in (body.get("units") or {}).items():
                path = f"facts.{taxonomy}.{name}.units.{unit}"
                try:  # one pass per field is much faster than one per fact; a miss is located below
                    for key, column in (("accn", "filing_id"), ("end", "period_end"), ("val", "value"),
                                        ("form", "form"), ("filed", "filed")):
                        columns[column] += [f[key] for f in values]
                except (KeyError, TypeError):
                    _missing(values, source, path)
                columns["period_start"] += [f.get("start") for f in values]
                n = len(values)
                columns["concept"] += [concept] * n
                columns["unit"] += [unit] * n
                paths.append(path)
                sizes.append(n)
    values = columns["value"]
    if not all(type(v) is float or type(v) is int for v in values):
        i = next(i for i, v in enumerate(values) if type(v) is not float and type(v) is not int)
        raise LoadError(source, f"not a number: {values[i]!r}", field=f"{_row(paths, sizes, i)}.val")
    columns["row"] = [f"{p}[{i}]" for p, n in zip(paths, sizes, strict=True) for i in range(n)]
    reports = pd.DataFrame(columns).astype({"value": "float64"})
    for column in ("period_start", "period_end", "filed"):
        codes, distinct = pd.factorize(reports[column])  # few distinct dates: parse each once
        parsed_dates = pd.Series(pd.to_datetime(distinct, errors="coerce", format="%Y-%m-%d").take(codes),
                                 index=reports.index).where(codes >= 0)
        bad = parsed_dates.isna() & reports[column].notna()
        if bad.any():
            i = int(bad.to_numpy().nonzero()[0][0])
            raise LoadError(source, f"not an ISO date: {reports[column].iloc[i]!r}",
                            field=f"{reports['row'].iloc[i]}.{column.replace('period_', '')}")
        reports[column] = parsed_dates.astype("datetime64[us]")

    # One row per accession: its form (the most common one its facts give) and filing date.
    forms = (reports.groupby(["filing_id", "form"], sort=True).size().rename("n").reset_index()
             .sort_values(["filing_id", "n"], ascending=[True, False], kind="stable").drop_duplicates("filing_id"))
    per_filing = (reports.groupby("filing_id", sort=True).agg(filed=("filed", "min"), period_end=("period_end", "max"))
                  .reset_index().merge(forms[["filing_id", "form"]], on="filing_id"))
    tickers: list[str] = []
    name = parsed.get("entityName")
    if submissions is not None:
        listed, company = submission_rows(submissions)
        tickers = [t.upper() for t in company.get("tickers", []) if t]
        name = name or company.get("name")
        listed["filed"] = pd.to_datetime(listed["filed"])
        per_filing = per_filing.merge(listed[["filing_id", "stamp", "filed", "report_date", "source"]],
                                      on="filing_id", how="left", suffixes=("", "_sub"))
        per_filing["filed"] = per_filing["filed_sub"].fillna(per_filing["filed"])
        per_filing["period_end"] = pd.to_datetime(per_filing["report_date"]).fillna(per_filing["period_end"])
        per_filing = per_filing.drop(columns=["filed_sub", "report_date"])
    else:
        per_filing["stamp"] = None
        per_filing["source"] = None
    times = resolve_acceptances(
        [s if isinstance(s, str) else None for s in per_filing["stamp"]],
        [t.date() for t in per_filing["filed"]])
    per_filing["accepted_at"] = pd.Series([t.at for t in times], dtype="datetime64[us]")
    per_filing["accepted_precision"] = [t.precision for t in times]
    per_filing["accepted_note"] = [t.note for t in times]
    per_filing["source"] = [s if isinstance(s, str) else source for s in per_filing["source"]]
    per_filing["entity_id"] = entity_id
    batch = Batch(source=source, kind="companyfacts")
    batch.filings = per_filing.drop(columns=["stamp"]).assign(filed=per_filing["filed"].dt.date)
    batch.reports = (reports.drop(columns=["form", "filed"])
                     .merge(per_filing[["filing_id", "form", "accepted_at"]], on="filing_id")
                     .assign(entity_id=entity_id))
    batch.entities = pd.DataFrame({"entity_id": [entity_id], "cik": [cik], "name": [name],
                                   "tickers": [tickers]})
    batch.source_of["reports"] = source
    return batch


def _row(paths: list[str], sizes: list[int], i: int) -> str:
    """The JSON path of the i-th fact read."""
    for path, n in zip(paths, sizes, strict=True):
        if i < n:
            return f"{path}[{i}]"
        i -= n
    raise IndexError(i)


def _missing(values: Any, source: str, path: str) -> None:
    """Raise for the first fact of a unit list that lacks a required field."""
    if not isinstance(values, list):
        raise LoadError(source, "not a list of facts", field=path)
    for i, fact in enumerate(values):
        if not isinstance(fact, dict):
            raise LoadError(source, "not an object", field=f"{path}[{i}]")
        for key in ("val", "end", "accn", "form", "filed"):
            if key not in fact:
                raise LoadError(source, "missing", field=f"{path}[{i}].{key}")
    raise AssertionError("no missing field found")
