"""The SEC's Financial Statement Data Sets (FSDS): a quarter's sub.txt and num.txt, from a folder or the SEC's zip,
as one batch of every filer's facts, with their dimensions and acceptance times to the minute.

FSDS rounds each date to a month end; a fact takes the company's own period where the store knows one of the same
length ending within a week, so FSDS and companyfacts rows of one fact are one fact. A fact with dimensions (or of
a co-registrant) is stored under its own concept key, `concept|Axis=Member;...`, so it never mixes into the
company's totals.
"""

from __future__ import annotations

import re
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pandas as pd

from factstore import limits
from factstore.errors import LoadError
from factstore.loaders.batch import Batch
from factstore.progress import progress_bar
from factstore.resources import sql_text
from factstore.timing import Place, resolve_acceptances

SUB_FIELDS = ("adsh", "cik", "name", "form", "period", "filed", "accepted", "prevrpt")
NUM_FIELDS = ("adsh", "tag", "version", "ddate", "qtrs", "uom", "value")
FILES = ("sub.txt", "num.txt", "tag.txt")
MAX_LINE = 2_097_152  # bytes in one line: DuckDB's read_csv default max_line_size
MINUTE_NOTE = "FSDS: accepted to the minute, New York time"
COREGISTRANT = "Coregistrant"  # the axis a co-registrant's values are kept apart under


@dataclass(frozen=True)
class Known:
    """What the store holds of a quarter's filings and companies: filings (filing_id, entity_id, form), their
    periods (entity_id, filing_id, period_start, period_end: with filing_id, the periods that filing reported, else
    the company's calendar; period_start NULL for instants) and the units their concepts are reported in
    (entity_id, concept, unit)."""

    filings: pd.DataFrame
    periods: pd.DataFrame
    units: pd.DataFrame


def _axis(name: str) -> str:
    """An axis as FSDS spells it: no prefix, no 'Axis' suffix, no 'Statement' lead ('srt:StatementGeographicalAxis'
    -> 'Geographical')."""
    name = name.rsplit(":", 1)[-1].strip()
    name = name.removesuffix("Axis")
    return name.removeprefix("Statement") if name.startswith("Statement") and len(name) > 9 else name


def _member(name: str) -> str:
    """A member as FSDS spells it: no prefix, no 'Member' suffix ('aapl:IPhoneMember' -> 'IPhone')."""
    return name.rsplit(":", 1)[-1].strip().removesuffix("Member")


def dims_key(dims: dict[str, str]) -> str:
    """Dimensions as one canonical text, FSDS's spelling sorted by axis: {'srt:ProductOrServiceAxis':
    'aapl:IPhoneMember'} and {'ProductOrService': 'IPhone'} are both 'ProductOrService=IPhone'."""
    if not isinstance(dims, dict) or not dims:
        raise ValueError("dims: give a non-empty mapping of axis to member, e.g. {'ProductOrService': 'IPhone'}")
    pairs = {_axis(str(axis)): _member(str(member)) for axis, member in dims.items()}
    if any(not a or not m for a, m in pairs.items()):
        raise ValueError(f"dims: an empty axis or member in {dims!r}")
    return ";".join(f"{a}={m}" for a, m in sorted(pairs.items()))


_SEGMENT = re.compile(r"\s*([^=;/]+?)\s*(?:=|/)\s*([^;]+?)\s*(?:;|$)")


def segments_dims(segments: str | None, coreg: str | None) -> dict[str, str]:
    """A num.txt row's dimensions: its segments ('ProductOrService=IPhone;', or the XBRL spelling
    'us-gaap:StatementClassOfStockAxis/us-gaap:CommonClassAMember') and its co-registrant, if any."""
    dims = {m.group(1): m.group(2) for m in _SEGMENT.finditer(segments or "")}
    if coreg:
        dims[COREGISTRANT] = coreg
    return dims


def _dims_problem(segments: str | None, coreg: str | None) -> tuple[str, str] | None:
    """What is wrong with a num.txt row's dimensions, as (field, why), or None: a name empty once spelled as FSDS
    spells it (an axis 'Axis'), or an axis given twice (its syntax is checked in sql/fsds.sql)."""
    pairs = [(_axis(m.group(1)), _member(m.group(2)), "segments") for m in _SEGMENT.finditer(segments or "")]
    if coreg:
        pairs.append((COREGISTRANT, _member(coreg), "coreg"))
    axes = [axis for axis, _, _ in pairs]
    for axis, member, field in pairs:
        if not axis or not member:
            return field, "an axis or member of no name once spelled as FSDS spells it (no prefix or suffix)"
        if axes.count(axis) > 1:
            return field, f"the axis {axis} is given twice"
    return None


def concept_key(concept: str, dims: dict[str, str] | None) -> str:
    """The key a fact is stored under: the concept, with its dimensions after a bar when it has any."""
    return f"{concept}|{dims_key(dims)}" if dims else concept


def quarters(path: str | Path) -> list[str]:
    """The quarters a path holds, as the folder of each inside a zip ('' for a folder, or a zip of one quarter):
    the SEC ships one per zip, but a zip of several loads each (their members share names)."""
    path = Path(path)
    if not zipfile.is_zipfile(path):
        return [""]
    with zipfile.ZipFile(path) as archive:
        found = sorted({str(Path(n).parent) for n in archive.namelist() if Path(n).name == "num.txt"})
    return found if len(found) > 1 else [""]


@contextmanager
def fsds_files(path: str | Path, quarter: str = "", progress: bool | None = None) -> Iterator[dict[str, Path]]:
    """A quarter's sub.txt, num.txt and tag.txt by name (num.txt at least): a folder, or the SEC's zip (or one
    `quarter` folder of a zip holding several), whose members are streamed to a temporary folder."""
    path = Path(path)
    if path.is_dir():
        found = {n: limits.input_path(path / n) for n in FILES if (path / n).exists()}  # never a FIFO opened
        if "num.txt" not in found:
            raise LoadError(str(path), "no num.txt in this folder: not an FSDS quarter")
        yield found
        return
    if not path.is_file():
        raise LoadError(str(path), "no such file or folder")
    try:
        archive = zipfile.ZipFile(path)
    except zipfile.BadZipFile as exc:
        raise LoadError(str(path), f"not a zip file ({exc})") from exc
    with archive, tempfile.TemporaryDirectory(prefix="factstore-fsds-") as folder:
        members = [n for n in archive.namelist() if not quarter or str(Path(n).parent) == quarter]
        names = {Path(n).name: n for n in members}
        if "num.txt" not in names:
            raise LoadError(str(path), "no num.txt in this zip: not an FSDS quarter")
        wanted = [n for n in FILES if n in names]
        total = sum(archive.getinfo(names[n]).file_size for n in wanted)
        with progress_bar(total=total, unit="B", unit_scale=True, desc=f"unzip {path.name}", leave=False,
                          progress=progress) as bar:
            for name in wanted:
                with open(Path(folder) / name, "wb") as dst:  # streamed, a block at a time, stopped at the cap
                    for block in limits.member_blocks(archive, names[name], f"{path}!{names[name]}"):
                        dst.write(block)
                        bar.update(len(block))
        yield {n: Path(folder) / n for n in wanted}


def _table(con: duckdb.DuckDBPyConnection, name: str, path: Path, fields: tuple[str, ...], source: str) -> str:
    """A tab-separated file read into a table of text columns (rowid: its data row, in file order); the encoding
    it was read in."""
    for encoding in ("utf-8", "latin-1"):
        try:  # data_row: 1-based, in file order (DuckDB keeps the order rows are read in)
            con.execute(f"CREATE TABLE {name} AS SELECT row_number() OVER () AS data_row, * FROM fsds_file(?, ?)",
                        [str(path), encoding])  # name: ours
            break
        except duckdb.Error as exc:
            if encoding == "utf-8" and "Invalid unicode" in str(exc):
                continue  # bytes that are not UTF-8: the file is read as latin-1, and the load says so
            raise _read_error(source, path, exc) from exc
    columns = {r[0] for r in con.execute(f"DESCRIBE {name}").fetchall()}  # name: ours
    missing = [f for f in fields if f not in columns]
    if missing:
        raise LoadError(source, f"missing column(s) {', '.join(missing)}: not FSDS {path.name}", field=missing[0])
    for optional in {"num": ("segments", "coreg"), "sub": ("fye",)}.get(name, ()):
        if optional not in columns:
            con.execute(f"ALTER TABLE {name} ADD COLUMN {optional} VARCHAR")  # name, optional: ours
    return encoding


def _read_error(source: str, path: Path, exc: duckdb.Error) -> LoadError:
    """A file DuckDB cannot read, said where: the first line past the longest DuckDB reads, by its data row and
    field (DuckDB's own message counts lines in its buffer, not in the file); else DuckDB's reason."""
    with path.open("rb") as f:
        header = f.readline().rstrip(b"\r\n").split(b"\t")
        for row, line in enumerate(f, start=1):
            if len(line) > MAX_LINE:
                cells = line.rstrip(b"\r\n").split(b"\t")
                widest = max(range(len(cells)), key=lambda i: len(cells[i]))
                field = header[widest].decode("latin-1") if widest < len(header) else f"#{widest + 1}"
                return LoadError(source, f"a line of {len(line):,} bytes, past the {MAX_LINE:,} read in one line",
                                 row=row, field=field)
    reason = " ".join(part.strip() for part in str(exc).splitlines() if part.strip())
    return LoadError(source, f"cannot read as tab-separated text ({reason})")


def _first_problem(con: duckdb.DuckDBPyConnection, macro: str, table: str, source: str) -> None:
    """A LoadError at the first row of a table with a field not as the SEC writes it."""
    row = con.execute(f"SELECT data_row, problem, found FROM {macro}('{table}') WHERE problem IS NOT NULL "
                      "ORDER BY data_row LIMIT 1").fetchone()  # names: ours
    if row:
        raise LoadError(source, f"not as the SEC writes it: {row[2]!r}", row=int(row[0]), field=row[1])


def _accept(con: duckdb.DuckDBPyConnection, source: str) -> None:
    """Each submission's acceptance by the one rule (factstore.timing): its minute where it fits its filing date
    under EDGAR's hours, else the end of the filing day; refused before 1993 or after now. Written into `subs`."""
    rows = con.execute("SELECT data_row, filing_id, filed, accepted_at FROM subs ORDER BY data_row").fetchall()
    times = resolve_acceptances([r[3] for r in rows], [r[2] for r in rows],
                                lambda i: Place(source, rows[i][1], "accepted", "filed", row=int(rows[i][0])),
                                precision="minute", note=MINUTE_NOTE)
    resolved = pd.DataFrame({"data_row": [r[0] for r in rows],
                             "accepted_at": pd.Series([t.at for t in times], dtype="datetime64[us]"),
                             "accepted_precision": [t.precision for t in times],
                             "accepted_note": [t.note for t in times]})
    con.register("_resolved", resolved)
    con.execute("""CREATE OR REPLACE TABLE subs AS SELECT s.* REPLACE (r.accepted_at AS accepted_at),
        r.accepted_precision, r.accepted_note FROM subs s JOIN _resolved r USING (data_row) ORDER BY s.data_row""")
    con.unregister("_resolved")


def read_fsds(path: str | Path, known: Callable[[list[str], list[str]], Known], *, quarter: str = "",
              progress: bool | None = None) -> Batch:
    """A batch of one FSDS quarter (folder or zip): its submissions as filings (New York acceptance times in UTC,
    to the minute), every standard-taxonomy value as a report with its dimensions, each in its company's own period
    where `known` (accessions, entity ids -> what the store holds) has one. Without sub.txt, every accession must be
    one the store holds. `quarter`: one quarter's folder inside a zip of several (see `quarters`)."""
    source = f"{path}!{quarter}" if quarter else str(path)
    encodings: dict[str, str] = {}
    with fsds_files(path, quarter, progress) as files, duckdb.connect() as con:
        con.execute(sql_text("ids.sql") + sql_text("placing.sql") + sql_text("fsds.sql"))
        sub_path, num_path = files.get("sub.txt"), files["num.txt"]
        num_source = f"{source}: num.txt"
        sub_source = f"{source}: sub.txt"
        if sub_path is not None:
            encodings["sub.txt"] = _table(con, "sub", sub_path, SUB_FIELDS, sub_source)
            _first_problem(con, "fsds_sub_problems", "sub", sub_source)
            twice = con.execute("""SELECT data_row, adsh FROM (SELECT data_row, adsh,
                count(*) OVER (PARTITION BY adsh) AS n FROM sub) WHERE n > 1 ORDER BY data_row LIMIT 1""").fetchone()
            if twice:
                raise LoadError(sub_source, f"accession {twice[1]} is listed twice", row=int(twice[0]), field="adsh")
            con.execute("CREATE TABLE subs AS FROM fsds_submissions('sub')")
            _accept(con, sub_source)
        else:
            con.execute("CREATE TABLE subs (data_row BIGINT, filing_id VARCHAR, cik BIGINT, entity_id VARCHAR, "
                        "name VARCHAR, form VARCHAR, filed DATE, period VARCHAR, accepted_at TIMESTAMP, "
                        "superseded BOOLEAN, fye VARCHAR, accepted_precision VARCHAR, accepted_note VARCHAR)")
        encodings["num.txt"] = _table(con, "num", num_path, NUM_FIELDS, num_source)
        _first_problem(con, "fsds_num_problems", "num", num_source)
        adshs = [r[0] for r in con.execute("SELECT DISTINCT adsh FROM num UNION SELECT filing_id FROM subs")
                 .fetchall()]
        entity_ids = [r[0] for r in con.execute("SELECT DISTINCT entity_id FROM subs").fetchall()]
        held = known(adshs, entity_ids)
        con.register("_held", held.filings)
        # a submission the store holds belongs to the same company
        clash = con.execute("""SELECT s.data_row, s.filing_id, s.entity_id, h.entity_id FROM subs s
            JOIN _held h USING (filing_id) WHERE h.entity_id <> s.entity_id ORDER BY s.data_row LIMIT 1""").fetchone()
        if clash:
            raise LoadError(sub_source, f"accession {clash[1]} is of CIK {int(clash[2])} here, but the store holds "
                                        f"it as a filing of {clash[3]}", row=int(clash[0]), field="cik")
        orphan = con.execute("""SELECT data_row, adsh FROM num
            WHERE adsh NOT IN (SELECT filing_id FROM subs) AND adsh NOT IN (SELECT filing_id FROM _held)
            ORDER BY data_row LIMIT 1""").fetchone()
        if orphan:
            raise LoadError(num_source, f"accession {orphan[1]} is in no sub.txt row and not in the store",
                            row=int(orphan[0]), field="adsh")
        if "tag.txt" in files:
            encodings["tag.txt"] = _table(con, "tags", files["tag.txt"], ("tag", "version", "datatype"),
                                          f"{source}: tag.txt")
        else:
            con.execute("CREATE TABLE tags (tag VARCHAR, version VARCHAR, datatype VARCHAR)")
        con.register("_units", held.units)
        # each value with its company, form and time; FSDS gives a per-share value's unit as its currency: the unit
        # the store knows the concept in ('USD/shares'), else the currency per share where tag.txt says perShare
        con.execute("""CREATE TABLE facts AS
            SELECT f.* REPLACE (coalesce(k.unit, CASE WHEN t.tag IS NOT NULL THEN f.unit || '/shares' END, f.unit)
                AS unit)
            FROM (SELECT f.*, coalesce(s.entity_id, h.entity_id) AS entity_id, coalesce(h.form, s.form) AS form,
                      s.accepted_at
                  FROM fsds_facts('num') f LEFT JOIN subs s USING (filing_id) LEFT JOIN _held h USING (filing_id)) f
            LEFT JOIN (SELECT entity_id, concept, split_part(unit, '/', 1) AS currency, min(unit) AS unit FROM _units
                       GROUP BY ALL) k ON k.entity_id = f.entity_id AND k.concept = f.concept AND k.currency = f.unit
            LEFT JOIN (SELECT DISTINCT tag FROM tags WHERE datatype = 'perShare') t
                ON t.tag = split_part(f.concept, ':', 2)""")
        con.unregister("_held")
        con.unregister("_units")
        # dimensions, canonical, per distinct segments and co-registrant (the first row of each checked)
        pairs = con.execute("""SELECT nullif(segments, '') AS s, nullif(coreg, '') AS c, min(data_row) FROM num
            WHERE s IS NOT NULL OR c IS NOT NULL GROUP BY ALL ORDER BY 3""").fetchall()
        for segments, coreg, row in pairs:
            if problem := _dims_problem(segments, coreg):
                found = segments if problem[0] == "segments" else coreg
                raise LoadError(num_source, f"{problem[1]}: {found!r}", row=int(row), field=problem[0])
        keys = pd.DataFrame([(s, c, dims_key(d) if (d := segments_dims(s, c)) else None) for s, c, _ in pairs],
                            columns=["segments", "coreg", "dims"], dtype=object)
        con.register("_dims", keys)
        con.register("_known", held.periods)
        con.execute("""CREATE TABLE placed AS SELECT f.filing_id, f.entity_id,
                f.concept || coalesce('|' || d.dims, '') AS concept, f.unit, p.period_start, p.period_end, f.value,
                f.accepted_at, f.form, f.row, p.approximate
            FROM facts f JOIN fsds_periods('facts', '_known') p USING (row)
            LEFT JOIN _dims d ON d.segments IS NOT DISTINCT FROM f.segments AND d.coreg IS NOT DISTINCT FROM f.coreg
            ORDER BY f.row""")
        reports = con.sql("SELECT * EXCLUDE (approximate) FROM placed").to_arrow_table()  # Arrow: no copy to pandas
        approximate = con.sql("""SELECT DISTINCT entity_id, period_start, period_end FROM placed WHERE approximate
                                 ORDER BY ALL""").df()
        subs = con.execute("SELECT * FROM subs").df()
        entities = con.execute("SELECT * FROM fsds_entities('subs')").df()
        declared = con.execute("""SELECT entity_id, filing_id, fy_start, fy_end, accepted_at
                                  FROM fsds_declared_years('subs') WHERE filing_id IN (SELECT filing_id FROM placed)
                                  """).df()
    latin = [name for name, encoding in encodings.items() if encoding == "latin-1"]
    batch = Batch(source=source, kind="fsds", row_name=lambda row: f"num.txt row {int(row)}",
                  stored_wins=True, fills=True,
                  note=f"{' and '.join(latin)} not valid UTF-8: read as latin-1" if latin else None)
    batch.reports = reports
    batch.approximate = approximate.assign(source=source)
    batch.declared = declared
    note = [n + ("; superseded by a later amendment (prevrpt)" if s else "")
            for n, s in zip(subs["accepted_note"], subs["superseded"], strict=True)]
    batch.filings = pd.DataFrame({
        "filing_id": subs["filing_id"], "entity_id": subs["entity_id"], "form": subs["form"],
        "period_end": pd.to_datetime(subs["period"], format="%Y%m%d").dt.date, "filed": subs["filed"],
        "accepted_at": subs["accepted_at"], "accepted_precision": subs["accepted_precision"], "accepted_note": note,
        "source": sub_source})
    # named as of their latest submission here; the write plan weighs that against the name stored
    batch.entities = entities.assign(tickers=[[] for _ in range(len(entities))],
                                     other_names=[list(n) for n in entities["other_names"]])
    batch.source_of.update(reports=num_source, filings=sub_source)
    return batch
