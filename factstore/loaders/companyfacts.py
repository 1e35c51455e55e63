"""The SEC's companyfacts JSON, with acceptance times from the company's submissions JSON.

Both are checked as they are read: a wrong type, a missing field or an impossible date is a LoadError naming
the file and the JSON path, and submissions files are used only with the companyfacts of their own company.
"""

from __future__ import annotations

import math
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
CIK_NAME = re.compile(r"CIK(\d{10})(?:-submissions-\d+)?\.json$")  # the SEC's file names, paged files too
UNKNOWN = "of no known company (no cik field, no CIK##########.json name)"
ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


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


def read_cik(value: Any, source: str) -> int:
    """A CIK as the SEC writes it (a number, or digits with leading zeros): 1 to 10 digits, not zero."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 10:
        value = int(value)
    if type(value) is int and 0 < value < 10**10:
        return value
    raise LoadError(source, f"not a CIK (a positive number of at most 10 digits): {value!r}", field="cik")


def submissions_cik(parsed: dict[str, Any], source: str) -> int | None:
    """Whose a submissions file is: its `cik`, else the CIK in its name (paged files have no `cik`)."""
    if "cik" in parsed:
        return read_cik(parsed["cik"], source)
    named = CIK_NAME.search(source)
    return int(named.group(1)) if named else None


@dataclass(frozen=True)
class Submissions:
    """A company's submissions JSON (and its paged files): one row per filing listed (accession, form,
    filing date, acceptance stamp, report date, primary document, XBRL or not), the company's fields, its
    CIK (None where no file tells) and the files read."""

    filings: pd.DataFrame
    company: dict[str, Any]
    cik: int | None = None
    sources: tuple[str, ...] = ()


LISTED = ["filing_id", "form", "filed", "stamp", "report_date", "source", "primary_document", "is_xbrl"]


def read_submissions(data: Json | list[Json]) -> Submissions:
    """The filings listed in one company's submissions JSON and its paged files; files of two companies,
    or two main files, are refused."""
    rows: list[tuple[Any, ...]] = []
    company: dict[str, Any] = {}
    cik, main, owner = None, "", ""
    sources = []
    for doc in data if isinstance(data, list) else [data]:
        parsed, source = read_json(doc, "submissions")
        sources.append(source)
        own = submissions_cik(parsed, source)
        if own is not None:
            if cik is not None and own != cik:
                raise LoadError(source, f"a submissions file of CIK {own}, given with {owner} of CIK {cik}: "
                                        "one company's files only", field="cik")
            cik, owner = own, source
        if "cik" in parsed:
            if main:
                raise LoadError(source, f"a second main submissions file of one company (the first: {main})",
                                field="cik")
            company, main = _company(parsed, source), source
        rows += _listed(parsed, source)
    filings = pd.DataFrame(rows, columns=LISTED).drop_duplicates("filing_id", ignore_index=True)
    filings["filed"] = pd.to_datetime(filings["filed"]).astype("datetime64[us]")
    return Submissions(filings, company, cik, tuple(sources))


def _company(parsed: dict[str, Any], source: str) -> dict[str, Any]:
    """A main submissions file's own fields, with its name and tickers checked."""
    name, tickers = parsed.get("name"), parsed.get("tickers") or []
    if name is not None and not isinstance(name, str):
        raise LoadError(source, f"not text: {name!r}", field="name")
    if not isinstance(tickers, list) or not all(isinstance(t, str) for t in tickers):
        raise LoadError(source, f"not a list of tickers: {tickers!r}", field="tickers")
    return {**parsed, "tickers": tickers}


def _listed(parsed: dict[str, Any], source: str) -> list[tuple[Any, ...]]:
    """A submissions file's filings (`filings.recent`, or the top level of a paged file) as LISTED rows."""
    prefix, recent = "", parsed
    if "filings" in parsed:
        filings = parsed["filings"]
        prefix, recent = "filings.recent.", filings.get("recent") if isinstance(filings, dict) else None
    if not isinstance(recent, dict):
        raise LoadError(source, "missing or not an object", field="filings.recent")
    accessions = recent.get("accessionNumber")
    if not isinstance(accessions, list):
        raise LoadError(source, "missing or not a list", field=f"{prefix}accessionNumber")

    def column(key: str, required: bool = False) -> list[Any]:
        values = recent.get(key)
        if values is None and not required:
            return [None] * len(accessions)
        if not isinstance(values, list) or len(values) != len(accessions):
            raise LoadError(source, "missing" if values is None else f"not a list of {len(accessions)} values",
                            field=prefix + key)
        return values

    rows = []
    for i, (accn, day, form, stamp, report, document, xbrl) in enumerate(zip(
            accessions, column("filingDate", True), column("form", True), column("acceptanceDateTime"),
            column("reportDate"), column("primaryDocument"), column("isXBRL"), strict=True)):
        for key, value, ok in (("accessionNumber", accn, isinstance(accn, str) and accn),
                               ("form", form, isinstance(form, str) and form),
                               ("acceptanceDateTime", stamp, not stamp or _is_stamp(stamp)),
                               ("reportDate", report, not report or _is_day(report)),
                               ("primaryDocument", document, not document or isinstance(document, str)),
                               ("isXBRL", xbrl, xbrl in (None, 0, 1))):
            if not ok:
                raise LoadError(source, f"not a valid value: {value!r}", field=f"{prefix}{key}[{i}]")
        if not _is_day(day):
            raise LoadError(source, f"not an ISO date: {day!r}", field=f"{prefix}filingDate[{i}]")
        rows.append((accn, form, date.fromisoformat(day), stamp or None, report or None, source, document or None,
                     bool(xbrl)))
    return rows


def pair_submissions(files: list[Json], submissions: list[Json]) -> list[tuple[Json, list[Named]]]:
    """Each companyfacts file with its own company's submissions files (paged ones too), matched by CIK,
    never by position; a submissions file of none of these companies is refused before anything loads."""
    if not submissions:
        return [(f, []) for f in files]
    ciks = []
    for f in files:  # read for the CIK only: the load reads the file again, so few are in memory at once
        parsed, source = read_json(f, "companyfacts")
        ciks.append(read_cik(parsed.get("cik"), source))
    pages: dict[int, list[Named]] = {}
    for doc in submissions:
        named = Named(*read_json(doc, "submissions"))
        cik = submissions_cik(*named)
        if cik not in ciks:
            raise LoadError(named.source, f"a submissions file {f'of CIK {cik}' if cik else UNKNOWN}, but the "
                                          f"companyfacts files given are of CIK {', '.join(map(str, ciks))}",
                            field="cik")
        pages.setdefault(cik, []).append(named)
    return [(f, pages.get(cik, [])) for f, cik in zip(files, ciks, strict=True)]


REQUIRED = (("accn", "filing_id"), ("end", "period_end"), ("val", "value"), ("form", "form"), ("filed", "filed"))


def read_companyfacts(data: Json, submissions: Json | list[Json] | Submissions | None = None) -> Batch:
    """A batch from one companyfacts JSON: every reported value, none dropped, each with its filing;
    acceptance times come from the company's submissions (files, or read already), which must be its own."""
    parsed, source = read_json(data, "companyfacts")
    if "cik" not in parsed:
        raise LoadError(source, "missing", field="cik")
    cik = read_cik(parsed["cik"], source)
    entity_id = f"{cik:010d}"
    name = parsed.get("entityName")
    if name is not None and not isinstance(name, str):
        raise LoadError(source, f"not text: {name!r}", field="entityName")
    facts = parsed.get("facts")
    if not isinstance(facts, dict):
        raise LoadError(source, "missing or not an object", field="facts")
    table, row_name = _fact_table(facts, source)
    if submissions is not None and not isinstance(submissions, Submissions):
        submissions = read_submissions(submissions)
    if submissions is not None and submissions.cik != cik:
        whose = f"of CIK {submissions.cik}" if submissions.cik else UNKNOWN
        raise LoadError(source, f"this file is of CIK {cik}; its submissions {', '.join(submissions.sources)} "
                                f"are {whose}", field="cik")

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
    batch = Batch(source=source, kind="companyfacts", row_name=row_name, stored_wins=True)
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
    batch.entities = entity_row(cik, name or company.get("name"), company)
    batch.source_of["reports"] = source
    return batch


def entity_row(cik: int, name: str | None, company: dict[str, Any]) -> pd.DataFrame:
    """An SEC company as the one-row entities frame: 10-digit id, CIK, name, upper-case tickers and other
    names: the submissions' own name where it differs, and its former names (`company`: the submissions
    JSON's own fields, or {})."""
    former = [f.get("name") for f in company.get("formerNames") or [] if isinstance(f, dict)]
    others = [n for n in dict.fromkeys([company.get("name"), *former]) if isinstance(n, str) and n and n != name]
    return pd.DataFrame({"entity_id": [f"{cik:010d}"], "cik": [cik], "name": [name],
                         "tickers": [[t.upper() for t in company.get("tickers", []) if t]], "other_names": [others]})


def _unit_lists(facts: dict[str, Any], source: str) -> list[tuple[str, str, str, Any]]:
    """(taxonomy, concept name, unit, list of facts) for every unit list, each level's type checked; a
    concept's `units` must be an object (an empty one: no facts)."""
    out = []
    for taxonomy, by_name in facts.items():
        if not taxonomy or not isinstance(by_name, dict):
            raise LoadError(source, "an empty name" if not taxonomy else "not an object", field=f"facts.{taxonomy}")
        for name, body in by_name.items():
            path = f"facts.{taxonomy}.{name}"
            if not name or not isinstance(body, dict):
                raise LoadError(source, "an empty name" if not name else "not an object", field=path)
            units = body.get("units")
            if not isinstance(units, dict):
                raise LoadError(source, "missing" if units is None else "not an object of unit -> facts",
                                field=f"{path}.units")
            for unit, values in units.items():
                if not unit:
                    raise LoadError(source, "an empty unit name", field=f"{path}.units")
                out.append((taxonomy, name, unit, values))
    return out


def _fact_table(facts: dict[str, Any], source: str) -> tuple[pa.Table, Callable[[int], str]]:
    """Every fact of a companyfacts `facts` object as one Arrow table, validated, and a function naming a
    row by its JSON path. One pass per field over each unit list is much faster than one per fact."""
    columns: dict[str, list[Any]] = {column: [] for _, column in REQUIRED}
    starts: list[Any] = []
    concepts: list[str] = []
    units: list[str] = []
    paths: list[str] = []
    sizes: list[int] = []
    for taxonomy, name, unit, values in _unit_lists(facts, source):
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

    group = np.repeat(np.arange(len(sizes), dtype=np.int32), sizes)
    arrays = {"filing_id": _strings(columns["filing_id"], source, row_name, "accn"),
              "concept": _dictionary(concepts, group), "unit": _dictionary(units, group),
              "period_start": _days(starts, source, row_name, "start", required=False),
              "period_end": _days(columns["period_end"], source, row_name, "end"),
              "value": _numbers(columns["value"], source, row_name),
              "form": _strings(columns["form"], source, row_name, "form"),
              "filed": _days(columns["filed"], source, row_name, "filed")}
    inverted = pc.fill_null(pc.greater(arrays["period_start"], arrays["period_end"]), False)
    if pc.any(inverted).as_py():
        i = pc.index(inverted, True).as_py()
        raise LoadError(source, f"start {starts[i]} is after end {columns['period_end'][i]}",
                        field=f"{row_name(i)}.start")
    return pa.table(arrays), row_name


def _numbers(values: list[Any], source: str, row_name: Callable[[int], str]) -> pa.Array:
    """JSON numbers (not booleans) as a float column; the first that is not a finite number is named."""
    bad = next((i for i, v in enumerate(values) if not _is_number(v)), None)
    if bad is not None:
        raise LoadError(source, f"not a number: {values[bad]!r}", field=f"{row_name(bad)}.val")
    try:
        return pa.array(values, pa.float64())
    except pa.ArrowInvalid:  # an integer beyond 64 bits
        return pa.array([float(v) for v in values], pa.float64())


def _is_number(value: Any) -> bool:
    return (type(value) is float and math.isfinite(value)) or (type(value) is int and value.bit_length() <= 1023)


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
        if v is not None and not _is_day(v):
            raise LoadError(source, f"not an ISO date: {v!r}", field=f"{row_name(i)}.{key}")
    raise AssertionError("no bad date found")


def _is_day(value: Any) -> bool:
    """Whether a value is an ISO date (YYYY-MM-DD) that exists."""
    try:
        return isinstance(value, str) and bool(ISO_DAY.fullmatch(value)) and bool(date.fromisoformat(value))
    except ValueError:
        return False


def _is_stamp(value: Any) -> bool:
    """Whether a value is a timestamp as EDGAR writes acceptanceDateTime (pandas reads it)."""
    try:
        return isinstance(value, str) and pd.Timestamp(value) is not pd.NaT
    except ValueError:
        return False


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
