"""What an SEC primary document says about itself: the filer, the form and the period, read from its inline XBRL
cover (the dei: facts), else from the cover page's text; and what its file name says (`NVDA_10-K_2025-02-26.html`)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pandas as pd

FORMS = r"10-K405|10-KT|10-KSB|10-K|10-QT|10-QSB|10-Q|20-F|40-F|8-K|6-K|S-1|S-4|F-1|DEF 14A"
_DEI = re.compile(r"<ix:nonNumeric\b([^>]*\bname=\"dei:(\w+)\"[^>]*)>", re.I)
_NON_NUMERIC = re.compile(r"<(/?)ix:nonNumeric\b[^>]*>", re.I)
_FORMAT = re.compile(r"\bformat=\"[^\"]*:([\w-]+)\"")
_TAG = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\s+")
_FORM_TEXT = re.compile(rf"\bFORM\s+({FORMS})(\s*/\s*A)?\b", re.I)
_PERIOD_TEXT = re.compile(r"\b(?:fiscal\s+year|quarterly\s+period|transition\s+period|period)\s+ended:?\s*"
                          r"([A-Z][a-z]+\.?\s+\d{1,2}\s*,?\s*\d{4})", re.I)
_NAME_TEXT = re.compile(r"((?:[A-Z&][\w&.,'’/-]*\s+){1,10})\((?i:\s*exact\s+name\s+of\s+(?:the\s+)?registrant)")
_FILE_NAME = re.compile(rf"^(?:([A-Z][A-Z.]{{0,5}})_)?({FORMS.replace(' ', '_')})(_A)?_(\d{{4}}-\d\d-\d\d)(?!\d)",
                        re.I)
COVER_CHARS = 20_000  # the cover page's text is within the document's first characters


@dataclass(frozen=True)
class Cover:
    """A document's own word on its filer and filing; None where it says nothing. `source` says where it was
    read: 'inline XBRL' (the dei: facts) or 'cover page'."""

    cik: int | None = None
    name: str | None = None
    tickers: tuple[str, ...] = ()
    form: str | None = None
    period_end: date | None = None
    source: str = "cover page"


def read_cover(body: bytes | str) -> Cover:
    """The filer, form and period a document gives: its inline XBRL cover where it has one (a form with
    AmendmentFlag true is the amendment '/A'), else its cover page's text."""
    text = body.decode("utf-8", errors="replace") if isinstance(body, bytes) else body
    dei: dict[str, list[tuple[str, str]]] = {}
    for m in _DEI.finditer(text):
        value = _SPACE.sub(" ", html.unescape(_TAG.sub("", _inner(text, m.end())))).strip()
        fmt = _FORMAT.search(m.group(1))
        dei.setdefault(m.group(2), []).append((value, fmt.group(1) if fmt else ""))
    if dei:
        return _from_dei(dei)
    return _from_text(_SPACE.sub(" ", html.unescape(_TAG.sub(" ", text[:COVER_CHARS * 10])))[:COVER_CHARS])


def _inner(text: str, start: int) -> str:
    """The content of the ix:nonNumeric element whose start tag ends at `start` (nested ones included)."""
    depth = 1
    for m in _NON_NUMERIC.finditer(text, start):
        depth += -1 if m.group(1) else 1
        if not depth:
            return text[start:m.start()]
    return text[start:]


def _from_dei(dei: dict[str, list[tuple[str, str]]]) -> Cover:
    def first(name: str) -> tuple[str, str] | None:
        return next(((v, f) for v, f in dei.get(name, []) if v), None)

    cik = first("EntityCentralIndexKey")
    name = first("EntityRegistrantName")
    form = first("DocumentType")
    amended = first("AmendmentFlag")
    end = first("DocumentPeriodEndDate")
    tickers = tuple(dict.fromkeys(v.upper() for v, _ in dei.get("TradingSymbol", [])
                                  if re.fullmatch(r"[A-Za-z]{1,6}", v)))
    kind = form[0].upper() if form else None
    if kind and amended and amended[0].strip().lower() == "true" and not kind.endswith("/A"):
        kind += "/A"
    return Cover(cik=int(cik[0]) if cik and cik[0].isdigit() else None, name=name[0] if name else None,
                 tickers=tickers, form=kind, period_end=_date(*end) if end else None, source="inline XBRL")


def _from_text(text: str) -> Cover:
    form = _FORM_TEXT.search(text)
    period = _PERIOD_TEXT.search(text)
    name = _NAME_TEXT.search(text)
    kind = (form.group(1).upper() + ("/A" if form.group(2) else "")) if form else None
    return Cover(name=_SPACE.sub(" ", name.group(1)).strip() if name else None, form=kind,
                 period_end=_date(period.group(1), "") if period else None)


def _date(value: str, fmt: str) -> date | None:
    """A cover date ('December 31, 2024', '2024-12-31'; day first where the ixt format says so), else None."""
    try:
        return pd.Timestamp(pd.to_datetime(value.replace(" ,", ","), dayfirst=fmt.startswith("date-day"))).date()
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
