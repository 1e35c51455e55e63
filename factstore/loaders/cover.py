"""What an SEC primary document says about itself: the filer, the form and the period, read from its inline XBRL
cover (the dei: facts), else from the cover page's text; and what its file name says (`NVDA_10-K_2025-02-26.html`)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pandas as pd

from factstore.errors import LoadError
from factstore.xbrl.model import Context, Document

FORMS = r"10-K405|10-KT|10-KSB|10-K|10-QT|10-QSB|10-Q|20-F|40-F|8-K|6-K|S-1|S-4|F-1|DEF 14A"
_TAG = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\s+")
_FORM_TEXT = re.compile(rf"\bFORM\s+({FORMS})(\s*/\s*A)?\b", re.I)
_PERIOD_TEXT = re.compile(r"\b(?:fiscal\s+year|quarterly\s+period|transition\s+period|period)\s+ended:?\s*"
                          r"([A-Z][a-z]+\.?\s+\d{1,2}\s*,?\s*\d{4})", re.I)
_NAME_TEXT = re.compile(r"((?:[A-Z&][\w&.,'’/-]*\s+){1,10})\((?i:\s*exact\s+name\s+of\s+(?:the\s+)?registrant)")
_FILE_NAME = re.compile(rf"^(?:([A-Z][A-Z.]{{0,5}})_)?({FORMS.replace(' ', '_')})(_A)?_(\d{{4}}-\d\d-\d\d)(?!\d)",
                        re.I)
# the scheme of contexts' identifiers that are CIKs, however spelled: http or https, www. or not, any case, a last /
SEC_SCHEME = re.compile(r"\s*https?://(?:www\.)?sec\.gov/cik/?\s*", re.IGNORECASE)
_CIK = re.compile(r"\s*\d{1,10}\s*", re.ASCII)
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
    named = context_cik(document)
    said = dei.get("EntityCentralIndexKey")
    cik = int(said) if said and _CIK.fullmatch(said) else named
    if named is not None and cik != named:
        raise LoadError(document.source, f"dei:EntityCentralIndexKey says CIK {cik}, the contexts CIK {named}: "
                                         "a document of two companies", field="dei:EntityCentralIndexKey")
    form = dei.get("DocumentType")
    if form and dei.get("AmendmentFlag", "").lower() == "true" and not form.upper().endswith("/A"):
        form += "/A"
    end = dei.get("DocumentPeriodEndDate")
    tickers = tuple(dict.fromkeys(f.value.upper() for f in document.facts
                                  if f.concept == "dei:TradingSymbol" and f.value
                                  and re.fullmatch(r"[A-Za-z]{1,6}", f.value)))
    return Cover(cik=cik, name=dei.get("EntityRegistrantName"),
                 tickers=tickers, form=form.upper() if form else None, period_end=_iso_day(end),
                 source="inline XBRL" if document.kind == "inline" else "XBRL instance")


def context_cik(document: Document, filer: int | None = None) -> int | None:
    """The CIK every context of the document names under the SEC's scheme (CIKs compare as numbers), None where they
    name none: each context it defines, a fact's or not (a document read without them: its facts'). Contexts naming
    two companies (two CIKs, or a CIK and another scheme's identifier) are refused, and, given the `filer`'s CIK,
    contexts naming anyone else."""
    first: tuple[Context, tuple] | None = None
    seen: set[tuple[str, str]] = set()
    for context in document.contexts or tuple(f.context for f in document.facts):
        if (context.scheme, context.identifier) in seen:
            continue
        seen.add((context.scheme, context.identifier))
        who = _entity(context, document.source)
        if first is None:
            first = context, who
        elif who != first[1]:
            raise LoadError(document.source, f"line {context.line}: context {context.id!r} names {_named(who)}, "
                                             f"context {first[0].id!r} (line {first[0].line}) {_named(first[1])}: "
                                             "a document of two companies", field="identifier")
    if first is None:
        return None
    context, who = first
    if filer is not None and who != ("CIK", filer):
        raise LoadError(document.source, f"line {context.line}: context {context.id!r} names {_named(who)}, not the "
                                         f"filer's CIK {filer}", field="identifier")
    return who[1] if who[0] == "CIK" else None


def _entity(context: Context, source: str) -> tuple[str, int | str]:
    """Whom a context names: ('CIK', the number) under the SEC's scheme, else (scheme, identifier)."""
    if not SEC_SCHEME.fullmatch(context.scheme):
        return context.scheme.strip(), context.identifier
    if not _CIK.fullmatch(context.identifier):
        raise LoadError(source, f"line {context.line}: context {context.id!r}: {context.identifier[:40]!r} under "
                                "the SEC's scheme is not a CIK", field="identifier")
    return "CIK", int(context.identifier)


def _named(who: tuple[str, int | str]) -> str:
    return f"CIK {who[1]}" if who[0] == "CIK" else f"{who[1]!r} under scheme {who[0]!r}"


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
