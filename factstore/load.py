"""Loading: each input format read by its loader into a Batch, then written by the write plan in one
transaction, with a two-stage progress bar (read and check, then write)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from factstore import limits, resolve, write
from factstore.db import Db
from factstore.errors import Ambiguous, LoadError, NotFound
from factstore.loaders.batch import Batch, LoadReport, sec_entity_id
from factstore.loaders.companyfacts import (
    Json,
    SubmissionsAhead,
    companyfacts_batch,
    parse_companyfacts,
    read_companyfacts,
)
from factstore.loaders.course import Table, read_course
from factstore.loaders.cover import Cover, facts_cover, read_cover
from factstore.loaders.filing import Filer, accession_in, read_document, read_filing
from factstore.loaders.fsds import Known, read_fsds
from factstore.loaders.fsds import quarters as fsds_quarters
from factstore.loaders.reports import read_reports
from factstore.loaders.tickers import read_tickers, tickers_batch
from factstore.loaders.xbrl import with_facts, xbrl_batch
from factstore.loaders.xbrl_feed import read_feed
from factstore.names import Entity, Names
from factstore.progress import progress_bar
from factstore.xbrl.files import inline_document, read_xbrl

NO_SUBMISSIONS_GIVEN = "no submissions of its CIK given: acceptance times are the end of each filing date"


def course(db: Db, xbrl: Table | None = None, documents: Table | None = None,
                sales: Table | None = None, *, progress: bool | None = None) -> LoadReport:
    """The course's files, read and written in one transaction (see FactStore.load_course)."""
    if xbrl is None and documents is None and sales is None:
        raise ValueError("load_course: give xbrl, documents and/or sales")
    _inputs(xbrl, documents, sales, folder=True)  # a Parquet dataset may be a folder
    with _stages("load course", progress) as step:
        known = None
        if xbrl is not None:
            known = db.sql("SELECT filing_id, entity_id, form, accepted_at FROM filings")
        batch = read_course(xbrl=xbrl, documents=documents, sales=sales, known_filings=known)
        step("write")
        return write.apply(db, batch)


def companyfacts(db: Db, path_or_dict: Json, submissions: Json | list[Json] | None = None, *,
                      progress: bool | None = None) -> LoadReport:
    """One companyfacts JSON with its submissions, in one transaction (see FactStore.load_companyfacts)."""
    _inputs(path_or_dict, submissions)
    with _stages("load companyfacts", progress) as step:
        batch = read_companyfacts(path_or_dict, submissions)
        step("write")
        return write.apply(db, batch)


def companyfacts_many(db: Db, files: list[Json], submissions: list[Json] | None = None, *,
                           progress: bool | None = None) -> list[LoadReport]:
    """Several companyfacts files in one transaction (see FactStore.load_companyfacts_many)."""
    _inputs(files, submissions)
    with _stages("load companyfacts", progress) as step:
        ahead = SubmissionsAhead(submissions or [])  # read while DuckDB reads the facts
        parsed = parse_companyfacts(files)
        for one in parsed:
            if isinstance(one, LoadError):
                raise one
        pages = ahead.paired([p.cik for p in parsed])
        step("write")
        batches = [companyfacts_batch(p, own) for p, own in zip(parsed, pages, strict=True)]
        reports = write.apply_many(db, batches)
    return [r if own or not submissions else replace(r, note=NO_SUBMISSIONS_GIVEN)
            for r, own in zip(reports, pages, strict=True)]


def fsds(db: Db, paths: str | Path | list[str | Path], *, progress: bool | None = None) -> list[LoadReport]:
    """FSDS quarters, one transaction each (see FactStore.load_fsds)."""
    _inputs(paths, folder=True)
    reports = []
    for path in [paths] if isinstance(paths, str | Path) else list(paths):
        for quarter in fsds_quarters(path):  # a zip of several quarters: each loaded, one transaction each
            with _stages(f"load fsds {Path(path).name} {quarter}".rstrip(), progress) as step:
                batch = read_fsds(path, partial(_fsds_known, db), quarter=quarter, progress=progress)
                step("write")
                report = write.apply(db, batch)
                reports.append(replace(report, note="; ".join(filter(None, (report.note, batch.note))) or None))
    return reports


def _fsds_known(db: Db, filing_ids: list[str], entity_ids: list[str]) -> Known:
    """What the store holds of an FSDS quarter: its filings, the periods it knows its companies to cover to the day
    (exact_periods), and the units of their per-share concepts."""
    filings = db.sql("SELECT filing_id, entity_id, form FROM filings WHERE filing_id IN (SELECT unnest(?))",
                       [filing_ids])
    ids = sorted(set(entity_ids) | set(filings["entity_id"]))
    periods = db.sql("SELECT * FROM exact_periods(?, ?)", [ids, filing_ids])
    units = db.sql("""SELECT DISTINCT entity_id, concept, unit FROM reports WHERE entity_id IN (SELECT unnest(?))
                        AND contains(unit, '/')""", [ids])
    return Known(filings, periods, units)


def filing(db: Db, path: str | Path, entity: str | int | None = None, *, cik: int | str | None = None,
           name: str | None = None, accession: str | None = None, form: str | None = None, accepted_at: Any = None,
           period_end: Any = None, progress: bool | None = None) -> LoadReport:
    """A local SEC primary document, of a company in the store or not (see FactStore.load_filing)."""
    _inputs(path)
    with _stages("load filing", progress) as step:
        body = read_document(path)
        document = inline_document(body, str(path))
        cover = facts_cover(document) if document else read_cover(body)
        filer = _filer(db, str(path), entity, cik, name, cover)
        filing_id = accession_in(path, accession) or Path(path).name
        filings = _known_filings(db, filer, filing_id)
        batch = read_filing(path, body, filer, filings, cover, accession=accession, form=form,
                            accepted_at=accepted_at, period_end=period_end)
        if document is not None:
            batch = with_facts(batch, document)
        step("write")
        return replace(write.apply(db, batch), source=str(path))


def xbrl(db: Db, paths: str | Path | list[str | Path], *, accession: str | None = None, accepted_at: Any = None,
         progress: bool | None = None) -> list[LoadReport]:
    """Filings' XBRL, one transaction each (see FactStore.load_xbrl)."""
    paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
    if len(paths) > 1 and (accession is not None or accepted_at is not None):
        raise ValueError("load_xbrl: accession and accepted_at are one filing's; give one path with them")
    _inputs(paths)
    reports = []
    for path in progress_bar(paths, desc="load xbrl", unit="filing", progress=progress, leave=False):
        document = read_xbrl(path)
        cover = facts_cover(document)
        filer = _filer(db, str(path), None, None, None, cover)
        known = accession_in(path, accession)
        filings = _known_filings(db, filer, known or "")
        batch = xbrl_batch(document, filer, filings, cover, accession=known, accepted_at=accepted_at)
        reports.append(replace(write.apply(db, batch), source=str(path)))
    return reports


def xbrl_feed(db: Db, paths: str | Path | list[str | Path], *, progress: bool | None = None) -> list[LoadReport]:
    """EDGAR XBRL feed archives into the xbrl_feed index, one transaction each (see FactStore.load_xbrl_feed)."""
    paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
    _inputs(paths)
    reports = []
    for path in progress_bar(paths, desc="load xbrl-feed", unit="archive", progress=progress, leave=False):
        batch = Batch(source=str(path), kind="xbrl-feed", feed=read_feed(path))
        reports.append(write.apply(db, batch))
    return reports


def _known_filings(db: Db, filer: Filer, filing_id: str) -> Any:
    """The filings a document of `filer` may be: stored, or listed by the XBRL feed (sql/write.sql)."""
    return db.sql(write.SQL["known_filings"], {"entity": filer.entity_id, "accession": filing_id,
                                               "cik": filer.cik})


def _filer(db: Db, source: str, entity: str | int | None, cik: int | str | None, name: str | None,
           cover: Cover) -> Filer:
    """The company a document is for: the entity given, else the CIK given or on its inline XBRL cover, else the
    name given or on its cover page (a company the store does not hold is taken as the document says). A CIK
    given or on the cover that is not the stored company's is refused, naming both."""
    said = _cik(cik, source) if cik is not None else cover.cik
    if said != cover.cik and cover.cik is not None:
        raise LoadError(source, f"the document's {cover.source} says CIK {cover.cik} ({cover.name}), not CIK {said}",
                        field="cik")
    label = name or cover.name
    if entity is not None and not _held(db, entity, source, cover):
        entity = None  # the document's own company, named as its cover names it
    if entity is not None:
        entity_id = resolve.entity(db, entity)
    elif said is not None:
        entity_id = sec_entity_id(said)
    elif label:
        try:
            entity_id = resolve.entity(db, label)
        except NotFound:
            entity_id = " ".join(label.upper().split())  # a filer known by name only is keyed by it
    else:
        raise LoadError(source, "the document does not say whose it is (no inline XBRL cover, no registrant's "
                                "name on its cover page): give the company, its cik or its name", field="entity")
    row = db.one("SELECT cik, name, tickers FROM entities WHERE entity_id = ?", [entity_id])
    if row is None:
        return Filer(entity_id, said, label, cover.tickers)
    if row[0] is None and (entity is not None or said is not None):
        raise LoadError(source, f"{entity_id} is not an SEC company (no CIK): load its documents with "
                                "load_course", field="entity")
    if said is not None and said != row[0]:
        raise LoadError(source, f"the document is CIK {said} ({label or 'unnamed'}), but {entity} is CIK {row[0]} "
                                f"({row[1]}) in the store", field="cik" if cik is not None else "entity")
    # an XBRL cover states the filer's name as of its filing (the write plan weighs it by that acceptance); a name
    # read off a cover page's text is no such statement, and the stored one stands
    stated = cover.name if cover.source != "cover page" else None
    return Filer(entity_id, row[0], stated or row[1], tuple(dict.fromkeys([*(row[2] or ()), *cover.tickers])))


def _held(db: Db, entity: str | int, source: str, cover: Cover) -> bool:
    """Whether the store holds the company given; one it does not hold is the document's own when the cover names
    it as the store would (ticker, CIK, name or a curated alias), and refused, naming both, when the cover says
    another (NotFound, as for any unknown company, when the cover says nothing)."""
    try:
        resolve.entity(db, entity)
        return True
    except Ambiguous:
        raise
    except NotFound:
        if cover.cik is None and not cover.name:
            raise
        own = Entity(cover.name or f"CIK {cover.cik}", tickers=cover.tickers, cik=cover.cik)
        if not Names([own]).lookup(entity):
            raise LoadError(source, f"the document's {cover.source} says {own.label}, not {entity!r}, which the "
                                    "store does not hold", field="entity") from None
        return False


def _cik(value: int | str, source: str) -> int:
    text = str(value).strip().upper().removeprefix("CIK").strip()
    if not text.isdigit() or not 0 < int(text) < 10**10:
        raise LoadError(source, f"not a CIK (up to ten digits): {value!r}", field="cik")
    return int(text)


def reports(db: Db, path: Table, *, progress: bool | None = None) -> LoadReport:
    """Markdown reports in the rag6 format, in one transaction (see FactStore.load_reports)."""
    _inputs(path, folder=True)
    with _stages("load reports", progress) as step:
        batch = read_reports(path)
        step("write")
        return write.apply(db, batch)


def _inputs(*given: Any, folder: bool = False) -> None:
    """Every path among a load's inputs checked before any is read (limits.input_path: a FIFO or device is refused,
    never opened); dicts, frames and bytes pass as they are."""
    for item in given:
        if isinstance(item, list | tuple):
            _inputs(*item, folder=folder)
        elif isinstance(item, str | Path):
            limits.input_path(item, folder=folder)


@contextmanager
def _stages(desc: str, progress: bool | None) -> Iterator[Callable[[str], None]]:
    """A two-stage progress bar (read and check, then write) with elapsed time."""
    with progress_bar(total=2, desc=f"{desc}: read", unit="stage", progress=progress, leave=False) as bar:
        def step(name: str) -> None:
            bar.update()
            bar.set_description(f"{desc}: {name}")
        yield step
        bar.update()


def tickers(db: Db, source: Json, *, progress: bool | None = None) -> LoadReport:
    """The tickers of a company_tickers.json added to the companies the store holds (see FactStore.load_tickers)."""
    _inputs(source)
    with _stages("load tickers", progress) as step:
        rows = read_tickers(source)
        held = set(db.sql("SELECT entity_id FROM entities WHERE cik IS NOT NULL")["entity_id"])
        batch, others = tickers_batch(rows, held, str(source) if not isinstance(source, dict) else "<tickers dict>")
        step("write")
        report = write.apply(db, batch)
    found = len(rows) - others
    return replace(report, note=f"{found} tickers of {batch.entities['entity_id'].nunique()} companies held; "
                                f"{others} of companies not held left out")
