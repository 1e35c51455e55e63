"""The EDGAR XBRL feed (`/Archives/edgar/monthly/xbrlrss-YYYY-MM.xml`): every XBRL filing of a month with its
accession, company, form, period and acceptance time (New York, to the second), read into the xbrl_feed index."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import pandas as pd
from lxml import etree

from factstore.errors import LoadError
from factstore.loaders.filing import ACCESSION
from factstore.timing import NEW_YORK, Place, resolve_acceptances

EDGAR = "http://www.sec.gov/Archives/edgar"
FEED_COLUMNS = ["accession", "cik", "company", "form", "period", "fiscal_year_end", "filed", "accepted_at",
                "accepted_local", "accepted_precision", "accepted_note", "files", "source", "item"]
SAYS = {"cik": "edgar:cikNumber", "form": "edgar:formType", "period": "edgar:period",
        "accepted_local": "edgar:acceptanceDatetime"}  # what two listings of one accession must agree on
_PARSER = etree.XMLParser(huge_tree=True, resolve_entities=False, no_network=True)


def read_feed(path: str | Path, body: bytes | None = None) -> pd.DataFrame:
    """A monthly feed's filings, one row each, with its item number (1-based). An accession listed twice alike is
    kept once; listed with another CIK, form, period or acceptance time, it is refused naming both items. A missing
    or unreadable field is a LoadError naming the file, the item and the field."""
    source = str(path)
    try:
        root = etree.fromstring(body if body is not None else Path(path).read_bytes(), _PARSER)
    except OSError as exc:
        raise LoadError(source, f"cannot read: {exc.strerror or exc}") from exc
    except etree.XMLSyntaxError as exc:
        raise LoadError(source, f"not well-formed XML: {exc}") from exc
    rows = []
    for n, filing in enumerate(root.iter(f"{{{EDGAR}}}xbrlFiling"), start=1):
        rows.append(_row(filing, source, n))
    if not rows:
        raise LoadError(source, "no edgar:xbrlFiling items: not an EDGAR XBRL feed")
    frame = pd.DataFrame(rows)
    _no_contradiction(frame, source)
    frame = frame.drop_duplicates("accession", ignore_index=True)
    times = resolve_acceptances(list(frame["moment"]), list(frame["filed"]),
                                lambda i: Place(source, frame["accession"][i], "acceptanceDatetime", "filingDate"),
                                note="EDGAR XBRL feed (New York time)")
    frame["accepted_at"] = [t.at for t in times]
    frame["accepted_precision"] = [t.precision for t in times]
    frame["accepted_note"] = [t.note for t in times]
    frame["source"] = source
    return frame[FEED_COLUMNS]


def _no_contradiction(frame: pd.DataFrame, source: str) -> None:
    """Refuse an accession the feed lists twice with another CIK, form, period or acceptance time."""
    repeats = frame[frame.duplicated("accession", keep=False)]
    for _, listings in repeats.groupby("accession", sort=False):
        first = listings.iloc[0]
        for _, other in listings.iloc[1:].iterrows():
            differs = [c for c in SAYS if not (first[c] == other[c] or pd.isna(first[c]) and pd.isna(other[c]))]
            if differs:
                raise LoadError(source, f"accession {first['accession']} is listed twice: item {first['item']} says "
                                f"{_says(first)}, item {other['item']} says {_says(other)}", row=int(other["item"]),
                                field=SAYS[differs[0]])


def _says(row: pd.Series) -> str:
    """What a listing says of its filing, for a refusal."""
    return f"CIK {row['cik']}, {row['form']} for {row['period']}, accepted {row['accepted_local']} New York"


def _row(filing: etree._Element, source: str, n: int) -> dict[str, Any]:
    def text(name: str, required: bool = True) -> str | None:
        value = (filing.findtext(f"{{{EDGAR}}}{name}") or "").strip()
        if not value and required:
            raise LoadError(source, f"item {n} has no edgar:{name}", row=n, field=f"edgar:{name}")
        return value or None

    def parsed(name: str, fmt: str, required: bool = True) -> datetime | None:
        value = text(name, required)
        try:
            return datetime.strptime(value, fmt) if value else None
        except ValueError as exc:
            raise LoadError(source, f"item {n}: {value!r} is not a {fmt} date", row=n,
                            field=f"edgar:{name}") from exc

    accession = ACCESSION.fullmatch(text("accessionNumber"))
    if not accession:
        raise LoadError(source, f"item {n}: not an accession number", row=n, field="edgar:accessionNumber")
    cik = text("cikNumber")
    if not cik.isdigit():
        raise LoadError(source, f"item {n}: CIK {cik!r} is not a number", row=n, field="edgar:cikNumber")
    local = parsed("acceptanceDatetime", "%Y%m%d%H%M%S")
    period = parsed("period", "%Y%m%d", required=False)
    files = [{"sequence": int(f.get(f"{{{EDGAR}}}sequence") or 0), "file": f.get(f"{{{EDGAR}}}file"),
              "type": f.get(f"{{{EDGAR}}}type"), "url": f.get(f"{{{EDGAR}}}url"),
              "inline": (f.get(f"{{{EDGAR}}}inlineXBRL") or "").lower() == "true"}
             for f in filing.iter(f"{{{EDGAR}}}xbrlFile")]
    return {"accession": "-".join(accession.groups()), "cik": int(cik), "company": text("companyName", False),
            "form": text("formType"), "period": period.date() if period else None,
            "fiscal_year_end": text("fiscalYearEnd", False), "filed": parsed("filingDate", "%m/%d/%Y").date(),
            "moment": local.replace(tzinfo=NEW_YORK), "accepted_local": local, "files": files, "item": n}

