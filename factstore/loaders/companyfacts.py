"""The SEC's companyfacts JSON, with acceptance times from the company's submissions JSON.

Both are checked as they are read: a wrong type, a missing field or an impossible date is a LoadError naming
the file and the JSON path, and submissions files are used only with the companyfacts of their own company.
"""

from __future__ import annotations

import json
import math
import re
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import cached_property
from pathlib import Path
from typing import Any, NamedTuple

import duckdb
import numpy as np
import orjson
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from factstore.errors import LoadError
from factstore.loaders.batch import Batch, first_rows, sec_entity_id
from factstore.resources import sql_text
from factstore.timing import Place, resolve_acceptances


class Named(NamedTuple):
    """A JSON object, parsed or as bytes, with the name of where it came from (a cache file, a zip member)."""

    data: dict[str, Any] | bytes
    source: str


Json = str | Path | dict[str, Any] | Named
CIK_NAME = re.compile(r"CIK(\d{10})(?:-submissions-\d+)?\.json$")  # the SEC's file names, paged files too
UNKNOWN = "of no known company (no cik field, no CIK##########.json name)"
ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
FIRST_DAY = pa.scalar(date(1, 1, 1), pa.date32())  # Arrow reads year 0 too; Python's dates, and ours, start here


def read_json(data: Json, name: str) -> tuple[dict[str, Any], str]:
    """A parsed JSON object and the name to report errors under."""
    if isinstance(data, Named):
        return (data.data if isinstance(data.data, dict) else _loads(data.data, data.source)), data.source
    if isinstance(data, dict):
        return data, f"<{name} dict>"
    path = Path(data)
    source = str(path)
    try:
        text = path.read_bytes()
    except OSError as exc:
        raise LoadError(source, f"cannot read: {exc.strerror or exc}") from exc
    return _loads(text, source), source


def _loads(text: bytes, source: str) -> dict[str, Any]:
    """JSON text parsed: an object, else a LoadError naming where it breaks."""
    try:
        parsed = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise LoadError(source, f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
                        row=exc.lineno) from exc
    if not isinstance(parsed, dict):
        raise LoadError(source, f"expected a JSON object, got {type(parsed).__name__}")
    return parsed


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

    listing: pa.Table  # LISTED columns (filed: a date; is_xbrl: bool; position: int; the rest text)
    company: dict[str, Any]
    cik: int | None = None
    sources: tuple[str, ...] = ()
    main: str = ""  # the main file (its lists are under filings.recent; a paged file's at its top level)

    def place(self, source: str, accession: str, position: int) -> Place:
        """Where a listed filing's acceptanceDateTime and filingDate are, by JSON path."""
        prefix = "filings.recent." if source == self.main else ""
        return Place(source, accession, f"{prefix}acceptanceDateTime[{position}]", f"{prefix}filingDate[{position}]")

    @cached_property
    def filings(self) -> pd.DataFrame:
        """The listing in pandas (filed: datetime64[us])."""
        frame = self.listing.to_pandas(date_as_object=False)
        frame["filed"] = frame["filed"].astype("datetime64[us]")
        return frame


LISTED = ["filing_id", "form", "filed", "stamp", "report_date", "source", "primary_document", "is_xbrl", "position"]
LISTED_TYPES = {"is_xbrl": pa.bool_(), "position": pa.int64()}  # the rest: text


def read_submissions(data: Json | list[Json]) -> Submissions:
    """The filings listed in one company's submissions JSON and its paged files; files of two companies,
    or two main files, are refused."""
    columns: dict[str, list[Any]] = {key: [] for key in LISTED}
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
        for key, values in _listed(parsed, source).items():
            columns[key] += values
    listing = pa.table({key: pa.array(columns[key], LISTED_TYPES.get(key, pa.string())) for key in LISTED})
    listing = listing.set_column(LISTED.index("filed"), "filed", pc.cast(listing["filed"], pa.date32()))  # (checked)
    # a filing listed twice: its first row
    return Submissions(first_rows(listing, "filing_id"), company, cik, tuple(sources), main)


def _company(parsed: dict[str, Any], source: str) -> dict[str, Any]:
    """A main submissions file's own fields, with its name and tickers checked."""
    name, tickers = parsed.get("name"), parsed.get("tickers") or []
    if name is not None and not isinstance(name, str):
        raise LoadError(source, f"not text: {name!r}", field="name")
    if not isinstance(tickers, list) or not all(isinstance(t, str) for t in tickers):
        raise LoadError(source, f"not a list of tickers: {tickers!r}", field="tickers")
    return {**parsed, "tickers": tickers}


def _listed(parsed: dict[str, Any], source: str) -> dict[str, list[Any]]:
    """A submissions file's filings (`filings.recent`, or the top level of a paged file) as LISTED columns (filed:
    ISO date text, checked)."""
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

    columns = {key: column(key, key in ("filingDate", "form")) for key in (
        "filingDate", "form", "acceptanceDateTime", "reportDate", "primaryDocument", "isXBRL")}
    columns["accessionNumber"] = accessions
    bad = [(i, order, key) for order, (key, ok) in enumerate(LISTED_CHECKS)
           if (i := _first_not(ok, columns[key])) is not None]
    if bad:
        i, _, key = min(bad)
        value = columns[key][i]
        reason = f"not an ISO date: {value!r}" if key == "filingDate" else f"not a valid value: {value!r}"
        raise LoadError(source, reason, field=f"{prefix}{key}[{i}]")
    return {"filing_id": accessions, "form": columns["form"], "filed": columns["filingDate"],
            "stamp": [s or None for s in columns["acceptanceDateTime"]],
            "report_date": [r or None for r in columns["reportDate"]], "source": [source] * len(accessions),
            "primary_document": [d or None for d in columns["primaryDocument"]],
            "is_xbrl": [bool(x) for x in columns["isXBRL"]], "position": list(range(len(accessions)))}


def _first_not(ok: Callable[[list[Any]], list[bool]], values: list[Any]) -> int | None:
    """The place of the first value that `ok` (whole column -> a flag per value) finds wrong, or None."""
    flags = ok(values)
    return None if all(flags) else flags.index(False)


def _stamps_ok(values: list[Any]) -> list[bool]:
    """Per value: empty, or a timestamp as EDGAR writes acceptanceDateTime (pandas reads it; most are read at
    once, the rest one by one). A column that Arrow reads whole, with its zones, is all valid at once."""
    if _arrow_cast([v or None for v in values], pa.timestamp("ns", "UTC")) is not None:  # (years pandas reads alike)
        return [True] * len(values)
    texts = pd.Series([v if isinstance(v, str) else None for v in values], dtype=object)
    read = pd.to_datetime(texts, errors="coerce", format="ISO8601", utc=True).notna().tolist()
    return [r or not v or _is_stamp(v) for r, v in zip(read, values, strict=True)]


# each column of filings.recent (in the order a row's fields are checked) and, for the whole column, which
# values are valid
LISTED_CHECKS: list[tuple[str, Callable[[list[Any]], list[bool]]]] = [
    ("accessionNumber", lambda vs: [isinstance(v, str) and v != "" for v in vs]),
    ("form", lambda vs: [isinstance(v, str) and v != "" for v in vs]),
    ("acceptanceDateTime", _stamps_ok),
    ("reportDate", lambda vs: [not v or ok for v, ok in zip(vs, _days_ok([v or None for v in vs]), strict=True)]),
    ("primaryDocument", lambda vs: [not v or isinstance(v, str) for v in vs]),
    ("isXBRL", lambda vs: [v in (None, 0, 1) for v in vs]),
    ("filingDate", lambda vs: _days_ok(vs)),
]


def _days_ok(values: list[Any]) -> list[bool]:
    """Per value: whether it is an ISO date (YYYY-MM-DD) that exists (_is_day, for a whole column at once; one
    that Arrow casts whole, strict as it is about both, at one go)."""
    read = _arrow_cast(values, pa.date32())
    if read is not None and not pc.any(pc.less(read, FIRST_DAY)).as_py():
        return [v is not None for v in values]
    texts = pa.array([v if isinstance(v, str) else None for v in values], pa.string())
    shaped = pc.and_(pc.match_substring_regex(texts, r"^\d{4}-\d{2}-\d{2}$"), pc.invert(pc.starts_with(texts, "0000")))
    read = pc.strptime(texts, "%Y-%m-%d", "s", error_is_null=True)  # (Feb 30 reads as Mar 1: written back, differs)
    exists = pc.equal(pc.strftime(read, "%Y-%m-%d"), texts)
    return pc.fill_null(pc.and_(shaped, exists), False).to_pylist()


def _arrow_cast(values: list[Any], to: pa.DataType) -> pa.Array | None:
    """The values cast by Arrow to `to`, or None unless every value is text (or None) that casts without error."""
    try:
        return pc.cast(pa.array(values, pa.string()), to)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError):
        return None


class SubmissionsAhead:
    """Submissions files read in a thread while their companyfacts are parsed: each file read and grouped by the
    CIK it names, and each company's files read as its Submissions (errors kept, to be raised in order)."""

    def __init__(self, submissions: list[Json]) -> None:
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="factstore-submissions")
        self._done = self._pool.submit(self._read, list(submissions))
        self._pool.shutdown(wait=False)

    @staticmethod
    def _read(submissions: list[Json]) -> tuple[list[Named | LoadError], dict[int, Submissions | LoadError]]:
        files: list[Named | LoadError] = []
        for doc in submissions:
            try:
                files.append(Named(*read_json(doc, "submissions")))
            except LoadError as exc:
                files.append(exc)
                break
        groups: dict[int, list[Named]] = {}
        for named in files:
            if isinstance(named, Named) and (cik := submissions_cik(*named)) is not None:
                groups.setdefault(cik, []).append(named)
        read: dict[int, Submissions | LoadError] = {}
        for cik, pages in groups.items():
            try:
                read[cik] = read_submissions(list(pages))
            except LoadError as exc:
                read[cik] = exc
        return files, read

    def paired(self, ciks: list[int]) -> list[Submissions | None]:
        """For each company (by CIK), its own submissions (paged files too) among those given, matched by CIK,
        never by position; a submissions file of none of these companies is refused."""
        files, read = self._done.result()
        for named in files:
            if isinstance(named, LoadError):
                raise named
            cik = submissions_cik(*named)
            if cik not in ciks:
                raise LoadError(named.source, f"a submissions file {f'of CIK {cik}' if cik else UNKNOWN}, but the "
                                              f"companyfacts files given are of CIK {', '.join(map(str, ciks))}",
                                field="cik")
        for cik in ciks:
            if isinstance(read.get(cik), LoadError):
                raise read[cik]
        return [read.get(cik) for cik in ciks]  # type: ignore[misc]


GLOB = re.compile(r"[*?\[\]{}]")  # read_json would take such a name for a pattern
_local = threading.local()


def _reader() -> duckdb.DuckDBPyConnection:
    """This thread's in-memory DuckDB connection that reads companyfacts files (never the store)."""
    con = getattr(_local, "con", None)
    if con is None:
        con = _local.con = duckdb.connect()
        con.execute(sql_text("companyfacts.sql"))
    return con


@dataclass(frozen=True)
class Parsed:
    """One companyfacts file, read and checked: its company, its facts, one Arrow row per value (concept, unit
    and i, the value's place in its unit's list, name where it is in the file), and its accessions."""

    source: str
    cik: int
    name: str | None
    facts: pa.Table
    filings: pa.Table  # its accessions: filing_id, form (most of their facts give it), filed, period_end


def read_companyfacts(data: Json, submissions: Json | list[Json] | Submissions | None = None) -> Batch:
    """A batch from one companyfacts JSON: every reported value, none dropped, each with its filing;
    acceptance times come from the company's submissions (files, or read already), which must be its own."""
    parsed = parse_companyfacts([data])[0]
    if isinstance(parsed, LoadError):
        raise parsed
    return companyfacts_batch(parsed, submissions)


def parse_companyfacts(items: list[Json]) -> list[Parsed | LoadError]:
    """Companyfacts JSON (files, parsed objects or bytes) read together by DuckDB's JSON reader, its threads
    sharing the files, into Arrow columns checked all at once; each item comes back as its Parsed or as the
    LoadError naming the first place in it that is not as the SEC writes it."""
    with tempfile.TemporaryDirectory(prefix="factstore-") as folder:
        named: list[tuple[str, str] | LoadError] = []
        for i, item in enumerate(items):
            try:
                named.append(_on_disk(item, Path(folder) / f"{i}.json"))
            except LoadError as exc:
                named.append(exc)
        paths = list(dict.fromkeys(n[0] for n in named if not isinstance(n, LoadError)))
        if not paths:
            return named  # type: ignore[return-value]
        try:
            largest = max(16 << 20, 2 * max(Path(p).stat().st_size for p in paths))  # the reader's buffer
            docs = _reader().sql("SELECT * FROM companyfacts_json(?, ?)", params=[paths, largest]).to_arrow_table()
            tiny = {f for (f,) in _reader().execute("SELECT filename FROM companyfacts_tiny(?)", [paths]).fetchall()}
            read = _fact_columns(docs)
        except duckdb.Error as exc:
            if len(paths) > 1:  # which file it was
                return [one for item in items for one in parse_companyfacts([item])]
            return [n if isinstance(n, LoadError) else _refused(*n, exc) for n in named]
        if read is None and len(paths) > 1:  # which file it was
            return [one for item in items for one in parse_companyfacts([item])]
        return _split(named, docs, read, tiny)


def _on_disk(item: Json, spare: Path) -> tuple[str, str]:
    """A file DuckDB can read for an item, and the name errors give it (objects and bytes are written out)."""
    if isinstance(item, str | Path):
        path, source = Path(item), str(item)
        if not path.is_file():
            read_json(path, "companyfacts")  # the LoadError saying why it cannot be read
        if not GLOB.search(str(path.resolve())):
            return str(path.resolve()), source
        spare.write_bytes(path.read_bytes())
        return str(spare), source
    data, source = (item.data, item.source) if isinstance(item, Named) else (item, "<companyfacts dict>")
    if isinstance(data, dict):
        _check(data, source)  # in memory already: checked here, as orjson writes NaN as null
    spare.write_bytes(data if isinstance(data, bytes) else orjson.dumps(data))
    return str(spare), source


def _split(named: list[tuple[str, str] | LoadError], docs: pa.Table,
           read: tuple[pa.Table, np.ndarray, pa.Table] | None, tiny: set[str]) -> list[Parsed | LoadError]:
    """Each item's Parsed, or its LoadError, from the files as DuckDB read them (read: None where the one file
    read has something wrong in it; tiny: files whose numbers DuckDB may have read as 0, read exactly first)."""
    rows: dict[str, list[int]] = {}
    for i, filename in enumerate(docs["filename"].to_pylist()):
        rows.setdefault(filename, []).append(i)
    ciks, names = (docs[c].to_pylist() for c in ("cik", "entity_name"))
    out: list[Parsed | LoadError] = []
    for item in named:
        if isinstance(item, LoadError):
            out.append(item)
            continue
        path, source = item
        try:
            if path in tiny:
                _diagnose(path, source)
            found = rows.get(path, [])
            if len(found) != 1 or read is None:  # none or two JSON texts in the file, or a bad value
                _diagnose(path, source)
                raise LoadError(source, "not companyfacts JSON as the SEC writes it")
            doc = found[0]
            cik, name = _identity(ciks[doc], names[doc], source)
            columns, starts, filings = read
            lo, hi = np.searchsorted(filings["file"].to_numpy(), [doc, doc + 1])
            out.append(Parsed(source, cik, name, columns.slice(starts[doc], starts[doc + 1] - starts[doc]),
                              filings.slice(lo, hi - lo).drop_columns(["file"])))
        except LoadError as exc:
            out.append(exc)
    return out


def _level(array: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """A list or map array's offsets (from 0) and the children they index."""
    offsets = array.offsets.to_numpy()
    children = array.values.slice(offsets[0], offsets[-1] - offsets[0])
    return offsets - offsets[0], children


def _fact_columns(docs: pa.Table) -> tuple[pa.Table, np.ndarray, pa.Table] | None:
    """Every fact of every file as typed Arrow columns, the row each file's facts start at (and the end), and
    each file's accessions; None where any file has something not as the SEC writes it: a null or empty name,
    missing units, a null list or fact, a field of the wrong type, an impossible date, a start after its end."""
    facts = docs["facts"].combine_chunks()
    tax_at, taxonomies = _level(facts)        # file -> its taxonomies
    concept_at, concepts = _level(taxonomies.field("value"))  # taxonomy -> its concepts
    bodies = concepts.field("value")
    units = bodies.field("units")
    list_at, lists = _level(units)            # concept -> its unit lists
    fact_at, rows = _level(lists.field("value"))  # unit list -> its facts
    typed = _typed(rows)
    checks = [
        facts.is_null(),
        pc.or_(pc.equal(taxonomies.field("key"), ""), taxonomies.field("value").is_null()),
        pc.or_kleene(pc.or_(pc.equal(concepts.field("key"), ""), bodies.is_null()), units.is_null()),
        pc.or_(pc.equal(lists.field("key"), ""), lists.field("value").is_null()),
    ]
    if typed is None or any(pc.any(pc.fill_null(flags, True)).as_py() for flags in checks if len(flags)):
        return None
    starts = fact_at[list_at[concept_at[tax_at]]]
    # each fact's unit list, concept and taxonomy, as indexes into the level above
    unit_of = np.repeat(np.arange(len(fact_at) - 1, dtype=np.int32), np.diff(fact_at))
    concept_of = np.repeat(np.arange(len(list_at) - 1, dtype=np.int32), np.diff(list_at))
    taxonomy_of = np.repeat(np.arange(len(concept_at) - 1, dtype=np.int32), np.diff(concept_at))
    names = pc.binary_join_element_wise(taxonomies.field("key").take(taxonomy_of), concepts.field("key"), ":")
    columns = pa.table({
        "filing_id": _text(rows.field("accn")),
        "concept": pa.DictionaryArray.from_arrays(pa.array(concept_of[unit_of]), names),
        "unit": pa.DictionaryArray.from_arrays(pa.array(unit_of), lists.field("key")),
        "i": pa.array(np.arange(len(rows), dtype=np.int32) - fact_at[unit_of].astype(np.int32)),
        **typed, "form": _text(rows.field("form"))})
    # a filing's period is that of its financial facts ended by its filing date, not of its cover's (dei: shares
    # outstanding at a later date) nor of a fact dated ahead (a share repurchase to settle next quarter)
    cover = pc.starts_with(names, "dei:").to_numpy(zero_copy_only=False)[concept_of[unit_of]]
    past = pc.and_(pa.array(~cover), pc.less(typed["period_end"], typed["filed"]))
    keyed = columns.select(["filing_id", "form", "filed", "period_end"]).append_column(
        "file", pa.array(np.repeat(np.arange(len(starts) - 1, dtype=np.int32), np.diff(starts)))).append_column(
        "fact_end", pc.if_else(past, typed["period_end"], pa.scalar(None, pa.date32())))
    return columns, starts, _filings(keyed)


def _filings(facts: pa.Table) -> pa.Table:
    """Each file's accessions (file: its number in the list read), in order, from their facts (file, filing_id,
    form, filed, period_end, fact_end: period_end where a financial fact ended before filing): the form most of their
    facts give (of two as common, the first in order), the first filing date and the last such period end (else the
    last of any)."""
    forms = facts.group_by(["file", "filing_id", "form"], use_threads=False).aggregate(
        [("form", "count"), ("filed", "min"), ("period_end", "max"), ("fact_end", "max")]).sort_by(
        [("file", "ascending"), ("filing_id", "ascending"), ("form_count", "descending"), ("form", "ascending")])
    # ("first" takes the rows in order without threads)
    out = forms.group_by(["file", "filing_id"], use_threads=False).aggregate(
        [("form", "first"), ("filed_min", "min"), ("period_end_max", "max"), ("fact_end_max", "max")])
    return pa.table({"file": out["file"], "filing_id": out["filing_id"], "form": out["form_first"],
                     "filed": out["filed_min_min"],
                     "period_end": pc.coalesce(out["fact_end_max_max"], out["period_end_max_max"])}).sort_by(
        [("file", "ascending"), ("filing_id", "ascending")])


def _typed(rows: pa.StructArray) -> dict[str, pa.Array] | None:
    """The facts' dates and values as typed columns, or None unless every fact is whole: text accn and form,
    ISO dates that exist, a finite JSON number, start <= end. Dates come as text (no other JSON value reads as
    one), the rest as JSON."""
    try:  # a cast fails on a value that is no JSON number, or on a date that is not one or does not exist
        typed = {"period_start": pc.cast(rows.field("start"), pa.date32()),
                 "period_end": pc.cast(rows.field("end"), pa.date32()),
                 "value": pc.cast(rows.field("val"), pa.float64()), "filed": pc.cast(rows.field("filed"), pa.date32())}
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None

    def text(field: str) -> pa.Array:  # JSON string text, not empty
        raw = rows.field(field)
        return pc.and_kleene(pc.starts_with(raw, '"'), pc.greater(pc.binary_length(raw), 2))

    value = typed["value"]
    conditions = [pc.invert(rows.is_null()), text("accn"), text("form"), pc.invert(rows.field("end").is_null()),
                  pc.invert(rows.field("filed").is_null()),
                  *(pc.fill_null(pc.greater_equal(typed[c], FIRST_DAY), True) for c in ("period_start", "period_end",
                                                                                          "filed")),
                  pc.invert(rows.field("val").is_null()), pc.is_finite(value),
                  # a number a double holds only as 0 (1e-400: a nonzero digit before any exponent) is no number
                  pc.invert(pc.and_kleene(pc.equal(value, 0), pc.match_substring_regex(rows.field("val"),
                                                                                       r"^-?[0-9.]*[1-9]"))),
                  pc.invert(pc.fill_null(pc.greater(typed["period_start"], typed["period_end"]), False))]
    huge = pc.greater_equal(pc.abs(value), 2.0**1023)
    if pc.any(huge).as_py():  # JSON integers beyond 1023 bits are refused, as Python's float() would
        conditions.append(pc.invert(pc.and_kleene(huge, pc.match_substring_regex(rows.field("val"), r"^-?\d+$"))))
    ok = conditions[0]
    for condition in conditions[1:]:
        ok = pc.and_kleene(ok, condition)
    return None if pc.any(pc.invert(pc.fill_null(ok, False))).as_py() else typed


def _text(raw: pa.Array) -> pa.Array:
    """JSON string text as plain text (escapes read, where there are any)."""
    plain = pc.utf8_slice_codeunits(raw, 1, -1)
    data = raw.buffers()[2]  # (None: no value has text)
    if data is None or b"\\" not in data.to_pybytes():  # no backslash under any value: none escaped
        return plain
    escaped = pc.match_substring(raw, "\\")
    if not pc.any(escaped).as_py():
        return plain
    return pa.array([orjson.loads(r) if e else p for r, e, p in zip(raw.to_pylist(), escaped.to_pylist(),
                                                                      plain.to_pylist(), strict=True)], pa.string())


def _identity(cik: str | None, name: str | None, source: str) -> tuple[int, str | None]:
    """A file's CIK and entityName, from their JSON text, checked."""
    if cik is None:
        raise LoadError(source, "missing", field="cik")
    cik_value = read_cik(orjson.loads(cik), source)
    name_value = orjson.loads(name) if name is not None else None
    if name_value is not None and not isinstance(name_value, str):
        raise LoadError(source, f"not text: {name_value!r}", field="entityName")
    return cik_value, name_value


def _refused(path: str, source: str, exc: duckdb.Error) -> LoadError:
    """The LoadError for a file DuckDB could not read: the first bad place in it, or DuckDB's reason."""
    try:
        _diagnose(path, source)
    except LoadError as found:
        return found
    reason = str(exc).strip().splitlines()[0]
    return LoadError(source, f"not companyfacts JSON as the SEC writes it ({reason})")


def companyfacts_batch(parsed: Parsed, submissions: Json | list[Json] | Submissions | None = None) -> Batch:
    """The batch of one parsed companyfacts file: its filings, each in the form most of its facts give, with
    acceptance times from the company's own submissions where given, and every fact, each with its filing's
    form and acceptance time."""
    source, cik, table = parsed.source, parsed.cik, parsed.facts
    entity_id = sec_entity_id(cik)
    if submissions is not None and not isinstance(submissions, Submissions):
        submissions = read_submissions(submissions)
    if submissions is not None and submissions.cik != cik:
        whose = f"of CIK {submissions.cik}" if submissions.cik else UNKNOWN
        raise LoadError(source, f"this file is of CIK {cik}; its submissions {', '.join(submissions.sources)} "
                                f"are {whose}", field="cik")
    accns, forms, filed, period_end = (parsed.filings[c].to_pylist() for c in ("filing_id", "form", "filed",
                                                                                "period_end"))
    stamps: list[str | None] = [None] * len(accns)
    sources = [source] * len(accns)
    positions: list[int | None] = [None] * len(accns)  # the filing's place in its submissions file's lists
    company: dict[str, Any] = {}
    if submissions is not None:
        listed, company = submissions.listing, submissions.company
        # each accession's row in the listing (its accessions are unique), or -1
        at = pc.fill_null(pc.index_in(pa.array(accns, pa.string()), value_set=listed["filing_id"]), -1).to_numpy()
        mine = np.flatnonzero(at >= 0)
        given, reported, files, days, places = (listed[c].take(at[mine]).to_pylist()
                                                for c in ("stamp", "report_date", "source", "filed", "position"))
        # the submissions' filing date and report date win over the facts'
        for i, stamp, day, report_date, source_i, place in zip(mine.tolist(), given, days, reported, files, places,
                                                                strict=True):
            stamps[i], filed[i], sources[i] = stamp if isinstance(stamp, str) else None, day, source_i
            positions[i] = place
            period_end[i] = date.fromisoformat(report_date) if isinstance(report_date, str) else period_end[i]

    def where(i: int) -> Place:
        if submissions is not None and positions[i] is not None:
            return submissions.place(sources[i], accns[i], positions[i])
        return Place(source, accns[i], None, "filed")

    times = resolve_acceptances(stamps, filed, where)
    accepted = [t.at for t in times]
    batch = Batch(source=source, kind="companyfacts", row_name=_row_namer(table), stored_wins=True)
    batch.filings = pa.table({
        "filing_id": pa.array(accns, pa.string()), "form": pa.array(forms, pa.string()),
        "filed": pa.array(filed, pa.date32()), "period_end": pa.array(period_end, pa.date32()),
        "accepted_at": pa.array(accepted, pa.timestamp("us")),
        "accepted_precision": pa.array([t.precision for t in times], pa.string()),
        "accepted_note": pa.array([t.note for t in times], pa.string()),
        "source": pa.array(sources, pa.string()), "entity_id": pa.array([entity_id] * len(accns), pa.string())})
    # each fact takes its filing's form and acceptance time
    at = pc.index_in(table["filing_id"], value_set=pa.array(accns, pa.string()))
    n = table.num_rows
    batch.reports = pa.table({
        **{c: table[c] for c in ("filing_id", "concept", "unit", "period_start", "period_end", "value")},
        "form": pa.array(forms, pa.string()).take(at),
        "accepted_at": pa.array(accepted, pa.timestamp("us")).take(at),
        "entity_id": pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, np.int32)), pa.array([entity_id])),
        "row": pa.array(np.arange(n))})
    batch.entities = entity_row(cik, parsed.name or company.get("name"), company)
    batch.source_of["reports"] = source
    return batch


def _row_namer(table: pa.Table) -> Callable[[int], str]:
    """A function naming a fact row of a parsed file by its JSON path (facts.us-gaap.Revenues.units.USD[3])."""
    def row_name(row: int) -> str:
        concept, unit, i = (table[c][row].as_py() for c in ("concept", "unit", "i"))
        return f"facts.{concept.replace(':', '.', 1)}.units.{unit}[{i}]"
    return row_name


def entity_row(cik: int | None, name: str | None, company: dict[str, Any], *, entity_id: str | None = None
               ) -> pa.Table:
    """An SEC company as the one-row entities frame: 10-digit id (or the one given, for a filer known by name
    only), CIK, name, upper-case tickers and other names: the submissions' own name where it differs, and its
    former names (`company`: the submissions JSON's own fields, or {})."""
    former = [f.get("name") for f in company.get("formerNames") or [] if isinstance(f, dict)]
    others = [n for n in dict.fromkeys([company.get("name"), *former]) if isinstance(n, str) and n and n != name]
    names = pa.list_(pa.string())
    return pa.table({"entity_id": pa.array([entity_id or sec_entity_id(cik)]), "cik": pa.array([cik], pa.int64()),
                     "name": pa.array([name], pa.string()),
                     "tickers": pa.array([[t.upper() for t in company.get("tickers", []) if t]], names),
                     "other_names": pa.array([others], names)})


REQUIRED = ("accn", "end", "val", "form", "filed")


def _diagnose(path: str, source: str) -> None:
    """Raise the LoadError naming the first place in a companyfacts file that is not as the SEC writes it
    (the reader flagged one)."""
    data = Path(path).read_bytes()
    read_json(Named(data, source), "companyfacts")  # malformed JSON, named where it breaks
    _check(json.loads(data, parse_float=Decimal), source)  # numbers exact: one a double holds only as 0 is seen


def _check(parsed: dict[str, Any], source: str) -> None:
    """Raise the LoadError naming the first place in a parsed companyfacts object that is not as the SEC
    writes it: a wrong type, a missing field or an impossible date, by its JSON path."""
    if "cik" not in parsed:
        raise LoadError(source, "missing", field="cik")
    read_cik(parsed["cik"], source)
    name = parsed.get("entityName")
    if name is not None and not isinstance(name, str):
        raise LoadError(source, f"not text: {name!r}", field="entityName")
    facts = parsed.get("facts")
    if not isinstance(facts, dict):
        raise LoadError(source, "missing or not an object", field="facts")
    for taxonomy, by_name in facts.items():
        if not taxonomy or not isinstance(by_name, dict):
            raise LoadError(source, "an empty name" if not taxonomy else "not an object", field=f"facts.{taxonomy}")
        for name, body in by_name.items():
            where = f"facts.{taxonomy}.{name}"
            if not name or not isinstance(body, dict):
                raise LoadError(source, "an empty name" if not name else "not an object", field=where)
            units = body.get("units")
            if not isinstance(units, dict):
                raise LoadError(source, "missing" if units is None else "not an object of unit -> facts",
                                field=f"{where}.units")
            for unit, values in units.items():
                if not unit:
                    raise LoadError(source, "an empty unit name", field=f"{where}.units")
                if not isinstance(values, list):
                    raise LoadError(source, "not a list of facts", field=f"{where}.units.{unit}")
                for i, fact in enumerate(values):
                    _check_fact(fact, source, f"{where}.units.{unit}[{i}]")


def _check_fact(fact: Any, source: str, where: str) -> None:
    """Raise the LoadError for what is wrong with one fact, if anything."""
    if not isinstance(fact, dict):
        raise LoadError(source, "not an object", field=where)
    for key in REQUIRED:
        if key not in fact:
            raise LoadError(source, "missing", field=f"{where}.{key}")
    for key in ("accn", "form"):
        value = fact[key]
        if not isinstance(value, str) or not value:
            raise LoadError(source, "missing" if value is None or value == "" else f"not text: {value!r}",
                            field=f"{where}.{key}")
    for key in ("start", "end", "filed"):
        value = fact.get(key)
        if (value is not None or key != "start") and not _is_day(value):
            raise LoadError(source, "missing" if value is None else f"not an ISO date: {value!r}",
                            field=f"{where}.{key}")
    value = fact["val"]
    if isinstance(value, Decimal):  # (as _diagnose reads it)
        if value.is_finite() and value != 0 and float(value) == 0:
            raise LoadError(source, f"{value} is a number a double holds only as 0", field=f"{where}.val")
        value = float(value)
    if not ((type(value) is float and math.isfinite(value)) or (type(value) is int and value.bit_length() <= 1023)):
        raise LoadError(source, f"not a number: {value!r}", field=f"{where}.val")
    if fact.get("start") is not None and fact["start"] > fact["end"]:
        raise LoadError(source, f"start {fact['start']} is after end {fact['end']}", field=f"{where}.start")


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
