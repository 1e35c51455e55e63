"""The SEC's companyfacts JSON, with acceptance times from the company's submissions JSON."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import orjson
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

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


@dataclass(frozen=True)
class Submissions:
    """A company's submissions JSON (and its paged files): one row per filing listed (accession, form,
    filing date, acceptance stamp, report date, primary document, XBRL or not) and the company's fields."""

    filings: pd.DataFrame
    company: dict[str, Any]


def read_submissions(data: Json | list[Json]) -> Submissions:
    """The filings listed in a submissions JSON and its paged files."""
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
    filings = pd.DataFrame(rows).drop_duplicates("filing_id", ignore_index=True)
    filings["filed"] = pd.to_datetime(filings["filed"]).astype("datetime64[us]")
    return Submissions(filings, company)


REQUIRED = (("accn", "filing_id"), ("end", "period_end"), ("val", "value"), ("form", "form"), ("filed", "filed"))
ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def read_companyfacts(data: Json, submissions: Json | list[Json] | Submissions | None = None) -> Batch:
    """A batch from one companyfacts JSON: every reported value, none dropped, each with its filing;
    acceptance times come from the company's submissions (files, or read already)."""
    parsed, source = read_json(data, "companyfacts")
    try:
        cik = int(parsed["cik"])
    except (KeyError, TypeError, ValueError) as exc:
        raise LoadError(source, "missing or not a number", field="cik") from exc
    entity_id = f"{cik:010d}"
    facts = parsed.get("facts")
    if not isinstance(facts, dict):
        raise LoadError(source, "missing or not an object", field="facts")
    table, row_name = _fact_table(facts, source)

    # One row per accession: its form (the most common one its facts give), filing date and period.
    counts = table.group_by(["filing_id", "form"]).aggregate([("value", "count")]).to_pydict()
    form_of: dict[str, tuple[int, str]] = {}
    for accn, form, n in zip(counts["filing_id"], counts["form"], counts["value_count"], strict=True):
        form_of[accn] = min(form_of.get(accn, (0, form)), (-n, form))
    spans = table.group_by("filing_id").aggregate([("filed", "min"), ("period_end", "max")]).to_pydict()
    order = sorted(range(len(spans["filing_id"])), key=spans["filing_id"].__getitem__)
    accns = [spans["filing_id"][i] for i in order]
    filed = [spans["filed_min"][i] for i in order]
    period_end = [spans["period_end_max"][i] for i in order]
    stamps: list[str | None] = [None] * len(accns)
    sources = [source] * len(accns)
    company: dict[str, Any] = {}
    if submissions is not None:
        if not isinstance(submissions, Submissions):
            submissions = read_submissions(submissions)
        listed, company = submissions.filings, submissions.company
        known = dict(zip(listed["filing_id"], zip(listed["stamp"], listed["filed"], listed["report_date"],
                                                  listed["source"], strict=True), strict=True))
        for i, accn in enumerate(accns):
            if accn in known:  # the submissions' filing date and report date win over the facts'
                stamp, day, report_date, sources[i] = known[accn]
                stamps[i], filed[i] = stamp if isinstance(stamp, str) else None, day.date()
                period_end[i] = date.fromisoformat(report_date) if isinstance(report_date, str) else period_end[i]
    times = resolve_acceptances(stamps, filed)
    forms = [form_of[a][1] for a in accns]
    accepted = [t.at for t in times]
    batch = Batch(source=source, kind="companyfacts", row_name=row_name)
    batch.filings = pd.DataFrame({
        "filing_id": accns, "form": forms, "filed": filed, "period_end": period_end,
        "accepted_at": pd.Series(accepted, dtype="datetime64[us]"),
        "accepted_precision": [t.precision for t in times], "accepted_note": [t.note for t in times],
        "source": sources, "entity_id": entity_id})
    # each fact takes its filing's form and acceptance time
    at = pc.index_in(table["filing_id"], value_set=pa.array(accns, pa.string()))
    n = table.num_rows
    batch.reports = (table.drop_columns(["form", "filed"])
                     .append_column("form", pa.array(forms, pa.string()).take(at))
                     .append_column("accepted_at", pa.array(accepted, pa.timestamp("us")).take(at))
                     .append_column("entity_id", pa.DictionaryArray.from_arrays(
                         pa.array(np.zeros(n, np.int32)), pa.array([entity_id])))
                     .append_column("row", pa.array(np.arange(n)))
                     .to_pandas(date_as_object=False))
    batch.entities = entity_row(cik, parsed.get("entityName") or company.get("name"), company)
    batch.source_of["reports"] = source
    return batch


def entity_row(cik: int, name: str | None, company: dict[str, Any]) -> pd.DataFrame:
    """An SEC company as the one-row entities frame: 10-digit id, CIK, name, upper-case tickers
    (`company`: the submissions JSON's own fields, or {})."""
    return pd.DataFrame({"entity_id": [f"{cik:010d}"], "cik": [cik], "name": [name],
                         "tickers": [[t.upper() for t in company.get("tickers", []) if t]]})


def _fact_table(facts: dict[str, Any], source: str) -> tuple[pa.Table, Callable[[int], str]]:
    """Every fact of a companyfacts `facts` object as one Arrow table, validated, and a function naming a
    row by its JSON path. One pass per field over each unit list is much faster than one per fact."""
    columns: dict[str, list[Any]] = {column: [] for _, column in REQUIRED}
    starts: list[Any] = []
    concepts: list[str] = []
    units: list[str] = []
    paths: list[str] = []
    sizes: list[int] = []
    for taxonomy, by_name in facts.items():
        for name, body in by_name.items():
            for unit, values in (body.get("units") or {}).items():
                path = f"facts.{taxonomy}.{name}.units.{unit}"
                try:
                    for key, column in REQUIRED:
                        columns[column] += [f[key] for f in values]
                    starts += [f.get("start") for f in values]
                except (KeyError, TypeError, AttributeError):
                    _missing(values, source, path)
                concepts.append(f"{taxonomy}:{name}")
                units.append(unit)
                paths.append(path)
                sizes.append(len(values))
    ends = np.cumsum(sizes)

    def row_name(i: int) -> str:
        group = int(np.searchsorted(ends, i, side="right"))
        return f"{paths[group]}[{i - (ends[group] - sizes[group])}]"

    values = columns["value"]
    if not all(type(v) is float or type(v) is int for v in values):
        i = next(i for i, v in enumerate(values) if type(v) is not float and type(v) is not int)
        raise LoadError(source, f"not a number: {values[i]!r}", field=f"{row_name(i)}.val")
    group = np.repeat(np.arange(len(sizes), dtype=np.int32), sizes)
    arrays = {"filing_id": _strings(columns["filing_id"], source, row_name, "accn"),
              "concept": _dictionary(concepts, group), "unit": _dictionary(units, group),
              "period_start": _days(starts, source, row_name, "start", required=False),
              "period_end": _days(columns["period_end"], source, row_name, "end"),
              "value": pa.array(values, pa.float64()),
              "form": _strings(columns["form"], source, row_name, "form"),
              "filed": _days(columns["filed"], source, row_name, "filed")}
    return pa.table(arrays), row_name


def _dictionary(names: list[str], group: np.ndarray) -> pa.DictionaryArray:
    """One name per unit list, repeated for its facts, as a dictionary-encoded column."""
    codes, distinct = pd.factorize(pd.Series(names, dtype=object))
    return pa.DictionaryArray.from_arrays(pa.array(codes[group].astype(np.int32)), pa.array(list(distinct)))


def _strings(values: list[Any], source: str, row_name: Callable[[int], str], key: str) -> pa.Array:
    """Non-empty text as an Arrow column; the first bad value is named by its JSON path."""
    try:
        text = pa.array(values, pa.string())
        if not text.null_count and (not len(text) or pc.min(pc.utf8_length(text)).as_py() > 0):
            return text
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        pass
    for i, v in enumerate(values):
        if not isinstance(v, str) or not v:
            raise LoadError(source, "missing" if v is None or v == "" else f"not text: {v!r}",
                            field=f"{row_name(i)}.{key}")
    raise AssertionError("no bad value found")


def _days(values: list[Any], source: str, row_name: Callable[[int], str], key: str, required: bool = True
          ) -> pa.Array:
    """ISO dates (YYYY-MM-DD) as an Arrow date column; the first bad one is named by its JSON path."""
    try:
        days = pa.array(values, pa.string()).cast(pa.date32())
        if not required or not days.null_count:
            return days
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        pass
    for i, v in enumerate(values):
        if v is None and required:
            raise LoadError(source, "missing", field=f"{row_name(i)}.{key}")
        if v is not None and not (isinstance(v, str) and ISO_DAY.fullmatch(v) and _is_day(v)):
            raise LoadError(source, f"not an ISO date: {v!r}", field=f"{row_name(i)}.{key}")
    raise AssertionError("no bad date found")


def _is_day(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _missing(values: Any, source: str, path: str) -> None:
    """Raise for the first fact of a unit list that lacks a required field."""
    if not isinstance(values, list):
        raise LoadError(source, "not a list of facts", field=path)
    for i, fact in enumerate(values):
        if not isinstance(fact, dict):
            raise LoadError(source, "not an object", field=f"{path}[{i}]")
        for key, _ in REQUIRED:
            if key not in fact:
                raise LoadError(source, "missing", field=f"{path}[{i}].{key}")
    raise AssertionError("no missing field found")
