"""SEC payloads into store batches: companyfacts with submissions, filing documents, bulk zip members.

Every batch here is `stored_wins`: the store never loads the facts of an accession it holds again (the rule
`load companyfacts` follows too), so a re-fetch, a resumed run or a daily update only adds filings the store
has not seen, and a value the SEC later edits in place is kept as a revision, never rewriting what a
backtest already read.
"""

from __future__ import annotations

import hashlib
import re
import zlib
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any
from zipfile import BadZipFile, ZipFile

import orjson
import pandas as pd

from factstore import limits
from factstore.errors import LoadError
from factstore.loaders.batch import Batch
from factstore.loaders.companyfacts import (
    CIK_NAME,
    Json,
    Named,
    Parsed,
    Submissions,
    companyfacts_batch,
    read_companyfacts,
)
from factstore.timing import resolve_acceptances

if TYPE_CHECKING:
    from factstore.db import Db
    from factstore.sec.client import SecClient

MEMBER = re.compile(r"CIK(\d{10})\.json")
SETTLED_DAYS = 3  # companyfacts carries a filing's XBRL within hours; after this, a missing one never comes


def digest(body: bytes) -> str:
    return "sha256:" + hashlib.sha256(body).hexdigest()


def already(db: Db, item: str, token: str) -> bool:
    """Whether this payload (item and digest) was loaded before."""
    return len(db.sql("SELECT 1 FROM ingested WHERE item = ? AND digest = ?", [item, token])) > 0


def stored_accessions(db: Db, entity_id: str) -> set[str]:
    """The accessions an entity has facts of in the store."""
    return set(db.sql("SELECT DISTINCT filing_id FROM reports WHERE entity_id = ?", [entity_id])["filing_id"])


def stored_documents(db: Db, entity_id: str) -> set[str]:
    """The documents (accessions) an entity has in the store."""
    return set(db.sql("SELECT doc_id FROM documents WHERE entity_id = ?", [entity_id])["doc_id"])


def settled(listed: pd.DataFrame, loaded: set[str], today: date) -> list[str]:
    """Accessions whose facts a later `update` need not fetch: loaded (now or before), without XBRL, or old
    enough that companyfacts would already carry them (a stored document does not settle its facts)."""
    old = listed["filed"] < pd.Timestamp(today - timedelta(days=SETTLED_DAYS))
    keep = listed["filing_id"].isin(loaded) | ~listed["is_xbrl"] | old
    return sorted(listed.loc[keep, "filing_id"])


def wanted_documents(db: Db, entity_id: str, listed: pd.DataFrame) -> pd.DataFrame:
    """Listed filings whose document the store lacks, of the forms it keeps documents of for this company,
    filed since the first one kept (a failed fetch is tried again; older filings are not pulled in)."""
    kept = dict(db.sql("""SELECT d.form, min(f.filed)::TIMESTAMP AS since FROM documents d
        JOIN filings f ON f.filing_id = d.doc_id WHERE d.entity_id = ? AND d.kind = 'filing' GROUP BY d.form""",
                          [entity_id]).itertuples(index=False))
    stored = stored_documents(db, entity_id)
    since = pd.to_datetime(listed["form"].map(kept))
    return listed[(listed["filed"] >= since) & ~listed["filing_id"].isin(stored) & listed["primary_document"].notna()]


def listed_filings(submissions: Submissions) -> pd.DataFrame:
    """Every filing the submissions list, with its acceptance resolved (over all of them)."""
    listed = submissions.filings.copy()
    files, accessions, positions = (listed[c].tolist() for c in ("source", "filing_id", "position"))
    times = resolve_acceptances([s if isinstance(s, str) else None for s in listed["stamp"]],
                                [t.date() for t in listed["filed"]],
                                lambda i: submissions.place(files[i], accessions[i], positions[i]))
    listed["accepted_at"] = pd.Series([t.at for t in times], dtype="datetime64[us]", index=listed.index)
    listed["accepted_precision"] = [t.precision for t in times]
    listed["accepted_note"] = [t.note for t in times]
    return listed


def company_batch(facts: Json | Parsed, submissions: Submissions | None, item: str, token: str) -> Batch:
    """One company's facts (with its submissions for acceptance times), logged as `item` at `token`."""
    batch = companyfacts_batch(facts, submissions) if isinstance(facts, Parsed) else read_companyfacts(
        facts, submissions)
    batch.kind = "sec"
    batch.ingested.append((item, token, batch.entities["entity_id"][0].as_py()))
    return batch


def choose(listed: pd.DataFrame, forms: list[str] | None, since: Any, until: Any) -> pd.DataFrame:
    """The listed filings of these forms, filed within [since, until], that name a primary document."""
    keep = listed["primary_document"].notna()
    if forms:
        keep &= listed["form"].str.upper().isin([f.upper() for f in forms])
    filed = pd.to_datetime(listed["filed"])
    if since is not None:
        keep &= filed >= pd.Timestamp(since)
    if until is not None:
        keep &= filed <= pd.Timestamp(until)
    return listed[keep].sort_values("filed")


@dataclass(frozen=True)
class Member:
    """One company's companyfacts in a bulk zip: its name, a token that changes when its content does, and
    its size unpacked."""

    name: str
    token: str
    path: str  # inside the archive
    size: int


class BulkArchive:
    """companyfacts.zip (and optionally submissions.zip) read member by member; nothing is unpacked to disk
    but the members being read."""

    def __init__(self, path: str | Path, submissions: str | Path | None = None) -> None:
        self.path, self.submissions = Path(path), Path(submissions) if submissions else None
        self._facts = _open_zip(self.path)
        self._subs = _open_zip(self.submissions) if self.submissions else None
        self._pages: dict[str, list[str]] = {}  # CIK##########.json -> its company's submissions members
        for name in sorted(self._subs.namelist()) if self._subs else []:
            found = CIK_NAME.search(Path(name).name)
            if found:
                self._pages.setdefault(f"CIK{found.group(1)}.json", []).append(name)
        self.members = [Member(Path(i.filename).name, f"crc32:{i.CRC:08x}:{i.file_size}", i.filename, i.file_size)
                        for i in sorted(self._facts.infolist(), key=lambda i: i.filename)
                        if MEMBER.fullmatch(Path(i.filename).name)]

    def __enter__(self) -> BulkArchive:
        return self

    def __exit__(self, *exc: object) -> None:
        self._facts.close()
        if self._subs:
            self._subs.close()

    def facts(self, member: Member) -> Named:
        """A member's companyfacts JSON, as bytes; LoadError when the archive cannot give it whole."""
        source = f"{self.path}!{member.path}"
        return Named(limits.read_member(self._facts, member.path, source), source)

    def pages(self, member: Member) -> list[Named]:
        """The member's company's submissions files (main and paged), parsed."""
        return [_member_json(self._subs, self.submissions, n) for n in self._pages.get(member.name, [])] \
            if self._subs else []


def _open_zip(path: Path) -> ZipFile:
    try:
        return ZipFile(path)
    except (OSError, BadZipFile) as exc:
        raise LoadError(str(path), f"cannot read as a zip archive: {exc}") from exc


def _member_json(archive: ZipFile | None, path: Path | None, name: str) -> Named:
    source = f"{path}!{name}"
    try:
        parsed = orjson.loads(limits.read_member(archive, name, source))  # type: ignore[arg-type]
    except orjson.JSONDecodeError as exc:
        raise LoadError(source, f"malformed JSON: {exc}") from exc
    except (BadZipFile, OSError, EOFError, zlib.error) as exc:
        raise LoadError(source, f"cannot read the member: {exc}") from exc
    if not isinstance(parsed, dict):
        raise LoadError(source, f"expected a JSON object, got {type(parsed).__name__}")
    return Named(parsed, source)


def payload_item(kind: str, cik: int) -> str:
    return f"{kind}:CIK{cik:010d}.json"


def companyfacts_payload(client: SecClient, cik: int) -> tuple[Path, str]:
    """A company's companyfacts, as its cache file, and the payload's digest."""
    _, path = client.companyfacts(cik)
    return path, digest(path.read_bytes())
