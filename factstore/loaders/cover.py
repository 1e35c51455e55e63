"""What an SEC primary document says about itself: the filer, the form and the period, read from its inline XBRL
cover (the dei: facts), else from the cover page's text; and what its file name says (`NVDA_10-K_2025-02-26.html`)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pandas as pd

from factstore.xbrl.model import Document

FORMS = r"10-K405|10-KT|10-KSB|10-K|10-QT|10-QSB|10-Q|20-F|40-F|8-K|6-K|S-1|S-4|F-1|DEF 14A"
_TAG = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\s+")
_FORM_TEXT = re.compile(rf"\bFORM\s+({FORMS})(\s*/\s*A)?\b", re.I)
_PERIOD_TEXT = re.compile(r"\b(?:fiscal\s+year|quarterly\s+period|transition\s+period|period)\s+ended:?\s*"
                          r"([A-Z][a-z]+\.?\s+\d{1,2}\s*,?\s*\d{4})", re.I)
_NAME_TEXT = re.compile(r"((?:[A-Z&][\w&.,'’/-]*\s+){1,10})\((?i:\s*exact\s+name\s+of\s+(?:the\s+)?registrant)")
_FILE_NAME = re.compile(rf"^(?:([A-Z][A-Z.]{{0,5}})_)?({FORMS.replace(' ', '_')})(_A)?_(\d{{4}}-\d\d-\d\d)(?!\d)",
                        re.I)
SEC_SCHEME = "http://www.sec.gov/CIK"  # the scheme of contexts' identifiers that are CIKs
COVER_CHARS = 20_000  # the cover page's text is within the document's first characters


@dataclass(frozen=True)
class Cover:
    """A document's own word on its filer and filing; None where it says nothing. `source` says where it was
    read: 'inline XBRL' or 'XBRL instance' (the dei: facts) or 'cover page'."""

    cik: int | None = None
    name: str | None = None
    tickers: tuple[str, ...] = ()
    form: str | None = None
    period_end: date | None = None
    source: str = "cover page"


def read_cover(body: bytes | str) -> Cover:
    """The form, period and registrant's name a document's cover page gives in its text (a document without
    XBRL; an inline XBRL document's cover is its dei: facts, `facts_cover`)."""
    text = body.decode("utf-8", errors="replace") if isinstance(body, bytes) else body
    return _from_text(_SPACE.sub(" ", html.unescape(_TAG.sub(" ", text[:COVER_CHARS * 10])))[:COVER_CHARS])


def facts_cover(document: Document) -> Cover:
    """The filer, form and period the document's dei: facts give (a form with AmendmentFlag true is its '/A');
    the CIK, where the cover omits it, from the contexts' SEC identifiers."""
    dei = {}
    for fact in document.facts:
        if fact.concept.startswith("dei:") and fact.value and not fact.context.dims:
            dei.setdefault(fact.concept[4:], fact.value)
    ciks = {f.context.identifier for f in document.facts if f.context.scheme == SEC_SCHEME}
    cik = dei.get("EntityCentralIndexKey") or (ciks.pop() if len(ciks) == 1 else None)
    form = dei.get("DocumentType")
    if form and dei.get("AmendmentFlag", "").lower() == "true" and not form.upper().endswith("/A"):
        form += "/A"
    end = dei.get("DocumentPeriodEndDate")
    tickers = tuple(dict.fromkeys(f.value.upper() for f in document.facts
                                  if f.concept == "dei:TradingSymbol" and f.value
                                  and re.fullmatch(r"[A-Za-z]{1,6}", f.value)))
    return Cover(cik=int(cik) if cik and cik.isdigit() else None, name=dei.get("EntityRegistrantName"),
                 tickers=tickers, form=form.upper() if form else None, period_end=_iso_day(end),
                 source="inline XBRL" if document.kind == "inline" else "XBRL instance")


def _iso_day(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text.strip()) if text else None
    except ValueError:
        return None


def _from_text(text: str) -> Cover:
    form = _FORM_TEXT.search(text)
    period = _PERIOD_TEXT.search(text)
    name = _NAME_TEXT.search(text)
    kind = (form.group(1).upper() + ("/A" if form.group(2) else "")) if form else None
    return Cover(name=_SPACE.sub(" ", name.group(1)).strip() if name else None, form=kind,
                 period_end=_date(period.group(1)) if period else None)


def _date(value: str) -> date | None:
    """A cover page's date ('December 31, 2024'), else None."""
    try:
        return pd.Timestamp(pd.to_datetime(value.replace(" ,", ","))).date()
    except (ValueError, TypeError):
        return None


@dataclass(frozen=True)
class FileName:
    """What a file name like NVDA_10-K_2025-02-26.html says: ticker, form and filing day (None where absent)."""

    ticker: str | None = None
    form: str | None = None
    day: date | None = None


def read_file_name(path: str | Path) -> FileName:
    """The ticker, form and filing day a file name carries as TICKER_FORM_DAY (or FORM_DAY) at its start."""
    m = _FILE_NAME.match(Path(path).name)
    if not m:
        return FileName()
    try:
        day = date.fromisoformat(m.group(4))
    except ValueError:
        return FileName()
    form = m.group(2).upper().replace("_", " ") + ("/A" if m.group(3) else "")
    return FileName(ticker=m.group(1).upper() if m.group(1) else None, form=form, day=day)
