"""Filling the store from the SEC, one company per transaction: fetch companyfacts, fetch filings, bulk, update.

Each step fetches into the cache first, then writes a company's rows and its `ingested` marks in one
transaction, so an interrupted run resumes where it stopped and nothing is loaded twice.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from factstore import load, write
from factstore.errors import FactstoreError, LoadError
from factstore.loaders.batch import Batch, LoadReport, sec_entity_id
from factstore.loaders.companyfacts import Json, Named, Submissions, parse_companyfacts, read_submissions
from factstore.loaders.filing import Filer, documents_batch
from factstore.loaders.xbrl_feed import read_feed
from factstore.progress import progress_bar
from factstore.sec.client import FetchError, SecClient
from factstore.sec.ingest import (
    BulkArchive,
    Member,
    already,
    choose,
    company_batch,
    companyfacts_payload,
    listed_filings,
    payload_item,
    settled,
    stored_accessions,
    stored_documents,
    wanted_documents,
)
from factstore.text import index

if TYPE_CHECKING:
    from factstore.db import Db

Say = Callable[[str], None]
NO_SUBMISSIONS = "no submissions JSON (404): acceptance times are the end of each filing date, New York time"


def _companies(companies: str | int | Iterable[str | int]) -> list[str | int]:
    return [companies] if isinstance(companies, str | int) else list(companies)


def _bar(items: list[Any], desc: str, progress: bool | None) -> Any:
    return progress_bar(items, desc=desc, unit="company", progress=progress)


def _run(name: str, work: Callable[[], LoadReport], keep_going: bool, say: Say | None) -> LoadReport:
    """One company's step; with keep_going a failure becomes the report's error instead of an exception."""
    try:
        report = work()
    except FactstoreError as exc:
        if not keep_going:
            raise
        report = LoadReport(name, 0, 0, 0, 0, error=str(exc))
    if say:
        say(report_line(report))
    return report


def report_line(report: LoadReport) -> str:
    """One line per company for people watching a run."""
    parts = []
    if report.reports or report.filings or report.documents or not (report.note or report.error):
        parts.append(f"+{report.reports} facts, +{report.filings} filings"
                     + (f", +{report.documents} documents" if report.documents else ""))
    if report.note:
        parts.append(report.note)
    if report.error:
        parts.append(f"FAILED: {report.error}")
    return f"{report.source}: {'; '.join(parts)}"


def _today() -> Any:
    return datetime.now(UTC).date()


def fetch_companyfacts(db: Db, client: SecClient, companies: str | int | Iterable[str | int], *,
                       keep_going: bool = False, progress: bool | None = None, say: Say | None = None
                       ) -> list[LoadReport]:
    """Fetch each company's companyfacts and submissions and load the facts of accessions not loaded yet."""
    reports = []
    for company in _bar(_companies(companies), "companyfacts", progress):
        def work(company: str | int = company) -> LoadReport:
            cik = client.cik(company)
            facts, token = companyfacts_payload(client, cik)
            try:
                submissions: Submissions | None = read_submissions(client.submissions(cik))
            except FetchError as exc:
                if exc.status != 404:
                    raise
                submissions = None
            report = _load_company(db, cik, facts, submissions, payload_item("companyfacts", cik), token,
                                   f"CIK {cik}")
            if submissions is None:
                report = replace(report, note="; ".join(filter(None, (report.note, NO_SUBMISSIONS))))
            return report
        reports.append(_run(str(company), work, keep_going, say))
    return reports


def _load_company(db: Db, cik: int, facts: Json, submissions: Submissions | None, item: str, token: str,
                  name: str, extra: Batch | None = None) -> LoadReport:
    """A company's new facts (and `extra` rows) in one transaction, with marks for the accessions its
    submissions list that need no fetching again; an unchanged payload is not parsed again."""
    unchanged = already(db, item, token)
    batch = Batch(source=name, kind="sec") if unchanged else company_batch(facts, submissions, item, token)
    entity_id = sec_entity_id(cik)
    if submissions is not None:
        loaded = batch.filing_ids() | stored_accessions(db, entity_id)
        batch.ingested += [(a, "", entity_id) for a in settled(submissions.filings, loaded, _today())]
    if extra is not None:
        batch.extend(extra)
    report = replace(write.apply(db, batch), source=name)
    return replace(report, note="unchanged since it was loaded") if unchanged and not report.documents else report


def fetch_filings(db: Db, client: SecClient, companies: str | int | Iterable[str | int], *,
                  forms: list[str] | None = None, since: Any = None, until: Any = None, keep_going: bool = False,
                  progress: bool | None = None, say: Say | None = None) -> list[LoadReport]:
    """Fetch the primary documents of a company's filings (these forms, filed in [since, until]) and store
    them parsed into sections and blocks; the text index is chunked for them afterwards."""
    reports = []
    for company in _bar(_companies(companies), "filings", progress):
        def work(company: str | int = company) -> LoadReport:
            cik = client.cik(company)
            submissions = read_submissions(client.submissions(cik))
            chosen = choose(listed_filings(submissions), forms, since, until)
            return _load_documents(db, client, cik, submissions.company, chosen, f"CIK {cik}")
        reports.append(_run(str(company), work, keep_going, say))
    _chunk_new(db)
    return reports


def _documents(db: Db, client: SecClient, cik: int, about: dict[str, Any], chosen: Any
               ) -> tuple[Batch, list[str]]:
    """A batch of the chosen filings' documents not stored yet, and the ones that could not be fetched."""
    if chosen.empty:
        return Batch(source=f"CIK {cik}", kind="sec"), []
    stored = stored_documents(db, sec_entity_id(cik))
    bodies, failed = {}, []
    for accession, name in zip(chosen["filing_id"], chosen["primary_document"], strict=True):
        if accession in stored:
            continue
        try:
            bodies[accession] = client.document(cik, accession, name)
        except FetchError as exc:
            failed.append(str(exc))
    filer = Filer(sec_entity_id(cik), cik, about.get("name"), tuple(about.get("tickers") or ()))
    return documents_batch(filer, chosen, bodies, about), failed


def _load_documents(db: Db, client: SecClient, cik: int, about: dict[str, Any], chosen: Any,
                    name: str) -> LoadReport:
    batch, failed = _documents(db, client, cik, about, chosen)
    return replace(write.apply(db, batch), source=name, error="; ".join(failed) or None)


def _chunk_new(db: Db) -> None:
    """A first index (structure) when no strategy has chunks yet; stored documents join existing ones as they load."""
    if db.sql("SELECT count(*) AS n FROM chunks")["n"][0] == 0:
        index.index(db, "structure", progress=False)


_MONTH = re.compile(r"\d{4}-(0[1-9]|1[0-2])")


def fetch_xbrl_feed(db: Db, client: SecClient, months: str | Iterable[str], *, progress: bool | None = None
                    ) -> list[LoadReport]:
    """Months' EDGAR XBRL feed archives ('2025-02'), fetched into the cache and indexed, one transaction each (see
    FactStore.fetch_xbrl_feed)."""
    months = [months] if isinstance(months, str) else list(months)
    if bad := [m for m in months if not _MONTH.fullmatch(str(m))]:
        raise ValueError(f"fetch_xbrl_feed: months are YYYY-MM, not {', '.join(map(repr, bad))}")
    reports = []
    for month in progress_bar(months, desc="xbrl feed", unit="month", progress=progress):
        body, cached = client.xbrl_feed(month)
        batch = Batch(source=str(cached), kind="xbrl-feed", feed=read_feed(cached, body))
        reports.append(write.apply(db, batch))
    return reports


def fetch_xbrl(db: Db, client: SecClient, companies: str | int | Iterable[str | int] | None = None, *,
               since: Any = None, until: Any = None, keep_going: bool = False, progress: bool | None = None,
               say: Say | None = None) -> list[LoadReport]:
    """The XBRL of the filings the feed index lists (of these companies, filed in [since, until]) whose facts the
    store lacks, one transaction each (see FactStore.fetch_xbrl)."""
    ciks = None if companies is None else [client.cik(c) for c in _companies(companies)]
    listed = db.sql(write.SQL["xbrl_to_fetch"], {"ciks": ciks, "since": since, "until": until})
    reports = []
    for row in progress_bar(list(listed.itertuples()), desc="xbrl", unit="filing", progress=progress):
        def work(row: Any = row) -> LoadReport:
            name = xbrl_file(row.files, row.form, row.accession)
            _, cached = client.document(row.cik, row.accession, name)
            (report,) = load.xbrl(db, cached, accession=row.accession, progress=False)
            return replace(report, source=f"{row.accession} ({row.form} of CIK {row.cik})")
        reports.append(_run(row.accession, work, keep_going, say))
    return reports


def xbrl_file(files: Any, form: str, accession: str) -> str:
    """The file a feed entry's facts are read from: its inline XBRL document of the form, else its instance."""
    files = list(files) if files is not None else []
    inline = [f["file"] for f in files if f["inline"] and f["type"] == form]
    instance = [f["file"] for f in files if f["type"] == "EX-101.INS"]
    if not inline and not instance:
        raise FactstoreError(f"{accession}: the XBRL feed lists no inline document or instance for it")
    return (inline or instance)[0]


def fetch_bulk(db: Db, archive: str | Path, client: SecClient | None, *, submissions: str | Path | None = None,
               progress: bool | None = None, say: Callable[[str], None] | None = None) -> list[LoadReport]:
    """load_bulk of the archive (and submissions.zip), each downloaded first where it is not a local file."""
    paths = []
    for name, folder in ((archive, "xbrl"), (submissions, "bulkdata")):
        if name is not None and not Path(name).is_file():
            client = client or SecClient()
            name = client.download(f"/Archives/edgar/daily-index/{folder}/{Path(name).name}", progress=progress)
        paths.append(name)
    return load_bulk(db, paths[0], submissions=paths[1], progress=progress, say=say)


def load_bulk(db: Db, path: str | Path, *, submissions: str | Path | None = None,
              progress: bool | None = None, say: Say | None = None) -> list[LoadReport]:
    """Load the SEC's companyfacts.zip: members read in groups (DuckDB parses a group's files in parallel, while
    the group before is written), each group written in one transaction with a LoadReport per company. Members
    loaded before (same name and CRC) are skipped unread, so an interrupted load resumes; a member that is not
    whole JSON, or holds a bad value, is reported by name and skipped."""
    done = set(db.sql("SELECT item, digest FROM ingested WHERE item LIKE 'bulk:%'").itertuples(index=False))
    reports: dict[str, LoadReport] = {}
    with db.memory_capped(BULK_MEMORY), BulkArchive(path, submissions) as archive, ThreadPoolExecutor(1) as reader, \
            progress_bar(total=len(archive.members), desc=Path(path).name, unit="company", progress=progress) as bar:
        todo = []
        for member in archive.members:
            if (f"bulk:{member.name}", member.token) in done:  # skipped unread
                reports[member.name] = _said(LoadReport(member.name, 0, 0, 0, 0,
                                                        note="unchanged since it was loaded"), say)
                bar.update()
            else:
                todo.append(member)
        groups = list(_groups(todo))
        ahead = reader.submit(_read_group, archive, groups[0]) if groups else None
        for i in range(len(groups)):
            read = ahead.result()
            ahead = reader.submit(_read_group, archive, groups[i + 1]) if i + 1 < len(groups) else None
            for report in _write_group(db, read):
                reports[report.source] = _said(report, say)
                bar.update()
    return [reports[m.name] for m in archive.members]


GROUP_BYTES = 256 * 2**20  # a group's JSON, unpacked
# DuckDB's memory during a bulk load: the store's cached pages otherwise grow with it (18,000 synthetic companies,
# 253M facts: peak 6.9 GB of the process; 2.5 GB with this, and no slower)
BULK_MEMORY = 2**30
GROUP_COMPANIES = 512


def _groups(members: list[Member]) -> Iterator[list[Member]]:
    """Members in groups of 1, 1, 2, 4... companies, at most GROUP_COMPANIES and GROUP_BYTES of JSON: the first
    companies land at once, and a long run pays a transaction's fixed costs once per group."""
    sizes, group, total = iter([1, *(min(2**k, GROUP_COMPANIES) for k in range(64))]), [], 0
    size = next(sizes)
    for member in members:
        if group and (len(group) >= size or total + member.size > GROUP_BYTES):
            yield group
            size, group, total = next(sizes, GROUP_COMPANIES), [], 0
        group.append(member)
        total += member.size
    if group:
        yield group


def _read_group(archive: BulkArchive, group: list[Member]) -> list[tuple[Member, Batch | LoadError]]:
    """Each member of a group as its company's batch (facts with its submissions), or the LoadError saying why
    it is not loaded."""
    items: list[tuple[Member, Named | LoadError]] = []
    for member in group:
        try:
            items.append((member, archive.facts(member)))
        except LoadError as exc:
            items.append((member, exc))
    parsed = iter(parse_companyfacts([item for _, item in items if not isinstance(item, LoadError)]))
    out: list[tuple[Member, Batch | LoadError]] = []
    for member, item in items:
        facts = item if isinstance(item, LoadError) else next(parsed)
        try:
            if isinstance(facts, LoadError):
                raise facts
            if facts.cik != int(member.name[3:13]):  # the member's name says whose facts it holds
                raise LoadError(f"{archive.path}!{member.path}", f"the payload is CIK {facts.cik}'s, not the "
                                f"{member.name[3:13].lstrip('0')} its name gives", field="cik")
            pages = archive.pages(member)
            subs = read_submissions(pages) if pages else None
            batch = company_batch(facts, subs, f"bulk:{member.name}", member.token)
            if subs is not None:
                entity_id = sec_entity_id(facts.cik)
                batch.ingested += [(a, "", entity_id) for a in settled(subs.filings, batch.filing_ids(), _today())]
            out.append((member, batch))
        except LoadError as exc:
            out.append((member, exc))
    return out


def _write_group(db: Db, read: list[tuple[Member, Batch | LoadError]]) -> list[LoadReport]:
    """A group's companies written in one transaction; where that fails, one by one, so that only the
    company at fault is reported failed."""
    batches = [(m, b) for m, b in read if isinstance(b, Batch)]
    failed = [LoadReport(m.name, 0, 0, 0, 0, error=str(b)) for m, b in read if isinstance(b, LoadError)]
    try:
        written = write.apply_many(db, [b for _, b in batches])
    except FactstoreError as exc:
        if len(batches) > 1:
            return failed + [r for m, b in batches for r in _write_group(db, [(m, b)])]
        written = [LoadReport("", 0, 0, 0, 0, error=str(exc))]
    return failed + [replace(r, source=m.name) for (m, _), r in zip(batches, written, strict=True)]


def _said(report: LoadReport, say: Say | None) -> LoadReport:
    if say:
        say(report_line(report))
    return report


def update(db: Db, client: SecClient, companies: str | int | Iterable[str | int] | None = None, *,
           keep_going: bool = False, progress: bool | None = None, say: Say | None = None) -> list[LoadReport]:
    """For each SEC company in the store (or those named), fetch its submissions and load only accessions
    that are new since the last run: their facts, and their documents where the store keeps that form's
    documents for the company. A company with nothing new costs one request."""
    if companies is None:
        ciks = db.sql("SELECT cik FROM entities WHERE cik IS NOT NULL "
                         "AND entity_id = sec_entity_id(cik) ORDER BY cik")["cik"].tolist()
    else:
        ciks = [client.cik(c) for c in _companies(companies)]
    reports = []
    for cik in _bar(ciks, "update", progress):
        reports.append(_run(f"CIK {cik}", lambda cik=cik: _update_one(db, client, cik), keep_going, say))
    if any(r.documents for r in reports):
        _chunk_new(db)
    return reports


def _update_one(db: Db, client: SecClient, cik: int) -> LoadReport:
    entity_id = sec_entity_id(cik)
    submissions = read_submissions(client.submissions(cik))
    listed = submissions.filings
    seen = set(db.sql("SELECT item FROM ingested WHERE entity_id = ? AND digest = '' UNION "
                         "SELECT filing_id FROM reports WHERE entity_id = ?", [entity_id] * 2)["item"])
    new = listed[~listed["filing_id"].isin(seen)]
    wanted = wanted_documents(db, entity_id, listed)
    if new.empty and wanted.empty:
        return LoadReport(f"CIK {cik}", 0, 0, 0, 0, note="nothing new")
    if len(wanted):  # their acceptance times, resolved over all the company's filings
        wanted = listed_filings(submissions).loc[wanted.index].sort_values("filed")
    documents, failed = _documents(db, client, cik, submissions.company, wanted)
    if new["is_xbrl"].any():
        facts, token = companyfacts_payload(client, cik)
        report = _load_company(db, cik, facts, submissions, payload_item("companyfacts", cik), token,
                               f"CIK {cik}", extra=documents)
    else:
        loaded = documents.filing_ids() | stored_accessions(db, entity_id)
        documents.ingested += [(a, "", entity_id) for a in settled(listed, loaded, _today())]
        report = replace(write.apply(db, documents), source=f"CIK {cik}")
    return replace(report, error="; ".join(failed) or None)


def load_tickers(db: Db, source: Json | None, client: SecClient | None, *, progress: bool | None = None
                 ) -> LoadReport:
    """company_tickers.json (given, or fetched from www.sec.gov/files) loaded into the companies held."""
    if source is None:
        data, path = (client or SecClient()).get_json("/files/company_tickers.json", "www")
        source = Named(data, str(path))
    return load.tickers(db, source, progress=progress)
