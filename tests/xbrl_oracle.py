"""Independent test oracle: a reader of Inline XBRL documents, standard library only.

Written from the Inline XBRL 1.1 specification, the XBRL 2.1 / XBRL Dimensions instance syntax and the
transformation registries (XII Transformation Registry 4, namespace 2020-02-12, and the SEC registry, namespace
2015-08-31) as a cross-check of the project's own reader; it shares no code with it and uses nothing outside the
Python standard library (no lxml, no BeautifulSoup).

``inline_facts(path)`` lists every ix:nonFraction and ix:nonNumeric fact of one inline document, in document order,
duplicates kept, each as a dict with the keys concept, entity, start, end, dims, unit, value, decimals, id, hidden.

Text of a nonNumeric fact: the content with ix:exclude left out, a space wherever a block element (BLOCK_ELEMENTS)
begins or ends, whitespace runs (Unicode whitespace, as ``str.split`` sees it, so no-break spaces too) collapsed to
one space and stripped; the parts of a continuedAt chain are joined with one space, empty parts left out; a
``format`` transform then applies to the joined text. A format this module does not know raises ValueError.
"""

from __future__ import annotations

import datetime as _dt
import re
import xml.etree.ElementTree as ET
from decimal import ROUND_FLOOR, Decimal, localcontext
from pathlib import Path

NS_IX = "http://www.xbrl.org/2013/inlineXBRL"
NS_XBRLI = "http://www.xbrl.org/2003/instance"
NS_XBRLDI = "http://xbrl.org/2006/xbrldi"
NS_XSI = "http://www.w3.org/2001/XMLSchema-instance"
NS_IXT = "http://www.xbrl.org/inlineXBRL/transformation/2020-02-12"
NS_IXT_SEC = "http://www.sec.gov/inlineXBRL/transformation/2015-08-31"

BLOCK_ELEMENTS = frozenset(
    {
        "address", "article", "blockquote", "br", "dd", "div", "dl", "dt", "h1", "h2", "h3", "h4", "h5", "h6", "hr",
        "li", "ol", "p", "pre", "section", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
    }
)  # fmt: skip

_IX_NONFRACTION = f"{{{NS_IX}}}nonFraction"
_IX_NONNUMERIC = f"{{{NS_IX}}}nonNumeric"
_IX_EXCLUDE = f"{{{NS_IX}}}exclude"
_IX_CONTINUATION = f"{{{NS_IX}}}continuation"
_IX_HIDDEN = f"{{{NS_IX}}}hidden"
_XSI_NIL = f"{{{NS_XSI}}}nil"


# ----------------------------------------------------------------------------------------------------------------
# small helpers


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1] if tag.startswith("{") else tag


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _resolve_qname(qname: str, nsmap: dict[str, str]) -> str:
    """A QName (prefix:local or local) to Clark notation with the namespace declarations in scope."""
    qname = qname.strip()
    if ":" in qname:
        prefix, local = qname.split(":", 1)
        if prefix not in nsmap:
            raise ValueError(f"undeclared namespace prefix {prefix!r} in QName {qname!r}")
        return f"{{{nsmap[prefix]}}}{local}"
    default = nsmap.get("")
    return f"{{{default}}}{qname}" if default else qname


def _parse(path: Path) -> tuple[ET.Element, dict[ET.Element, dict[str, str]], list[tuple[ET.Element, bool]]]:
    """Parse the document; return its root, the namespace map in scope of every element, and the facts with their
    hidden flag in document order."""
    nsmaps: dict[ET.Element, dict[str, str]] = {}
    facts: list[tuple[ET.Element, bool]] = []
    scope_stack: list[dict[str, str]] = [{"xml": "http://www.w3.org/XML/1998/namespace"}]
    pending: dict[str, str] = {}
    hidden_depth = 0
    root = None
    for event, item in ET.iterparse(str(path), events=("start-ns", "start", "end")):
        if event == "start-ns":
            prefix, uri = item
            pending[prefix or ""] = uri
        elif event == "start":
            if root is None:
                root = item
            if pending:
                scope = dict(scope_stack[-1])
                scope.update(pending)
                pending = {}
            else:
                scope = scope_stack[-1]
            scope_stack.append(scope)
            nsmaps[item] = scope
            if item.tag == _IX_HIDDEN:
                hidden_depth += 1
            elif item.tag in (_IX_NONFRACTION, _IX_NONNUMERIC):
                facts.append((item, hidden_depth > 0))
        else:  # end
            scope_stack.pop()
            if item.tag == _IX_HIDDEN:
                hidden_depth -= 1
    if root is None:
        raise ValueError(f"{path}: empty document")
    return root, nsmaps, facts


# ----------------------------------------------------------------------------------------------------------------
# contexts and units (XBRL 2.1 instance syntax, XBRL Dimensions for segment/scenario members)


def _plain_date(text: str | None, what: str) -> str:
    value = (text or "").strip()
    if "T" in value:
        raise ValueError(f"period {what} {value!r} has a time part")
    try:
        return _dt.date.fromisoformat(value).isoformat()
    except ValueError as exc:
        raise ValueError(f"period {what} {value!r} is not a date") from exc


def _read_context(ctx: ET.Element, nsmaps: dict[ET.Element, dict[str, str]]) -> dict:
    entity = ctx.find(f"{{{NS_XBRLI}}}entity")
    if entity is None:
        raise ValueError(f"context {ctx.get('id')!r} has no entity")
    ident = entity.find(f"{{{NS_XBRLI}}}identifier")
    if ident is None:
        raise ValueError(f"context {ctx.get('id')!r} has no identifier")
    entity_key = (ident.get("scheme", "").strip(), (ident.text or "").strip())

    period = ctx.find(f"{{{NS_XBRLI}}}period")
    if period is None:
        raise ValueError(f"context {ctx.get('id')!r} has no period")
    instant = period.find(f"{{{NS_XBRLI}}}instant")
    start_el = period.find(f"{{{NS_XBRLI}}}startDate")
    end_el = period.find(f"{{{NS_XBRLI}}}endDate")
    if instant is not None:
        start, end = None, _plain_date(instant.text, "instant")
    elif start_el is not None and end_el is not None:
        start, end = _plain_date(start_el.text, "startDate"), _plain_date(end_el.text, "endDate")
    elif period.find(f"{{{NS_XBRLI}}}forever") is not None:
        start, end = None, None
    else:
        raise ValueError(f"context {ctx.get('id')!r} has an unreadable period")

    dims: list[tuple[str, str]] = []
    containers = [entity.find(f"{{{NS_XBRLI}}}segment"), ctx.find(f"{{{NS_XBRLI}}}scenario")]
    for container in containers:
        if container is None:
            continue
        for member in container:
            if member.tag == f"{{{NS_XBRLDI}}}explicitMember":
                axis = _resolve_qname(member.get("dimension", ""), nsmaps[member])
                dims.append((axis, _resolve_qname(member.text or "", nsmaps[member])))
            elif member.tag == f"{{{NS_XBRLDI}}}typedMember":
                axis = _resolve_qname(member.get("dimension", ""), nsmaps[member])
                children = list(member)
                if len(children) != 1:
                    raise ValueError(f"typed member of {axis} in context {ctx.get('id')!r} is not one element")
                dims.append((axis, _collapse("".join(children[0].itertext()))))
    axes = [axis for axis, _ in dims]
    if len(set(axes)) != len(axes):
        raise ValueError(f"context {ctx.get('id')!r} repeats an axis")
    return {"entity": entity_key, "start": start, "end": end, "dims": tuple(sorted(dims))}


def _measures(parent: ET.Element) -> str:
    names = sorted(_local_qname(m.text or "") for m in parent.findall(f"{{{NS_XBRLI}}}measure"))
    if not names:
        raise ValueError("unit without measures")
    return "*".join(names)


def _local_qname(qname: str) -> str:
    return qname.strip().rsplit(":", 1)[-1]


def _read_unit(unit: ET.Element) -> str:
    divide = unit.find(f"{{{NS_XBRLI}}}divide")
    if divide is None:
        return _measures(unit)
    num = divide.find(f"{{{NS_XBRLI}}}unitNumerator")
    den = divide.find(f"{{{NS_XBRLI}}}unitDenominator")
    if num is None or den is None:
        raise ValueError(f"unit {unit.get('id')!r}: divide without numerator or denominator")
    return f"{_measures(num)}/{_measures(den)}"


def _contexts_and_units(root: ET.Element) -> tuple[dict[str, ET.Element], dict[str, ET.Element]]:
    """The xbrli:context and xbrli:unit elements by id (read when a fact uses them)."""
    contexts: dict[str, ET.Element] = {}
    units: dict[str, ET.Element] = {}
    for table, tag in ((contexts, "context"), (units, "unit")):
        for elem in root.iter(f"{{{NS_XBRLI}}}{tag}"):
            key = elem.get("id")
            if key in table:
                raise ValueError(f"duplicate {tag} id {key!r}")
            table[key] = elem
    return contexts, units


# ----------------------------------------------------------------------------------------------------------------
# displayed text


def _text_pieces(elem: ET.Element, out: list[str]) -> None:
    """Text content of elem (not its tail), ix:exclude left out, a space at each block element's start and end."""
    if elem.text:
        out.append(elem.text)
    for child in elem:
        if isinstance(child.tag, str) and child.tag != _IX_EXCLUDE:
            block = _local(child.tag).lower() in BLOCK_ELEMENTS
            if block:
                out.append(" ")
            _text_pieces(child, out)
            if block:
                out.append(" ")
        if child.tail:
            out.append(child.tail)


def _element_text(elem: ET.Element) -> str:
    pieces: list[str] = []
    _text_pieces(elem, pieces)
    return _collapse("".join(pieces))


def _chain_text(fact: ET.Element, continuations: dict[str, ET.Element]) -> str:
    parts = [_element_text(fact)]
    seen: set[str] = set()
    next_id = fact.get("continuedAt")
    while next_id:
        if next_id in seen:
            raise ValueError(f"continuedAt chain loops at {next_id!r}")
        seen.add(next_id)
        cont = continuations.get(next_id)
        if cont is None:
            raise ValueError(f"continuedAt {next_id!r} names no ix:continuation")
        parts.append(_element_text(cont))
        next_id = cont.get("continuedAt")
    return " ".join(p for p in parts if p)


# ----------------------------------------------------------------------------------------------------------------
# transformation registries

_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}


def _month_number(word: str) -> int:
    key = word.lower().rstrip(".")
    if key not in _MONTHS:
        raise ValueError(f"not a month name: {word!r}")
    return _MONTHS[key]


def _year(text: str) -> int:
    if len(text) == 4:
        return int(text)
    if len(text) in (1, 2):
        return 2000 + int(text)
    raise ValueError(f"not a year: {text!r}")


def _iso_date(year: int, month: int, day: int) -> str:
    return _dt.date(year, month, day).isoformat()


def _iso_month_day(month: int, day: int) -> str:
    _dt.date(2000, month, day)  # validates (2000 is a leap year, so --02-29 passes)
    return f"--{month:02d}-{day:02d}"


def _match(pattern: str, text: str, fmt: str) -> re.Match:
    m = re.fullmatch(pattern, text, flags=re.IGNORECASE)
    if m is None:
        raise ValueError(f"{fmt}: cannot read {text!r}")
    return m


_GROUPED = r"[0-9]{1,3}(?:[,\u00a0\u202f ' \u2019]?[0-9]{3})*|[0-9]+"


def _num_dot_decimal(text: str) -> str:
    m = _match(rf"({_GROUPED})?(?:\.([0-9]*))?", text.strip(), "num-dot-decimal")
    whole, frac = m.group(1), m.group(2)
    if whole is None and not frac:
        raise ValueError(f"num-dot-decimal: cannot read {text!r}")
    digits = re.sub(r"[^0-9]", "", whole or "0")
    return f"{digits}.{frac}" if frac else digits


def _num_comma_decimal(text: str) -> str:
    m = _match(
        r"([0-9]{1,3}(?:[.\u00a0\u202f ' \u2019]?[0-9]{3})*|[0-9]+)?(?:,([0-9]*))?", text.strip(), "num-comma-decimal"
    )
    whole, frac = m.group(1), m.group(2)
    if whole is None and not frac:
        raise ValueError(f"num-comma-decimal: cannot read {text!r}")
    digits = re.sub(r"[^0-9]", "", whole or "0")
    return f"{digits}.{frac}" if frac else digits


def _date_monthname_day_year_en(text: str) -> str:
    m = _match(
        r"([a-z]+\.?)\s*([0-9]{1,2})(?:st|nd|rd|th)?\s*,?\s*([0-9]{4}|[0-9]{2})", text, "date-monthname-day-year-en"
    )
    return _iso_date(_year(m.group(3)), _month_number(m.group(1)), int(m.group(2)))


def _date_day_monthname_year_en(text: str) -> str:
    m = _match(
        r"([0-9]{1,2})(?:st|nd|rd|th)?\s*([a-z]+\.?)\s*,?\s*([0-9]{4}|[0-9]{2})", text, "date-day-monthname-year-en"
    )
    return _iso_date(_year(m.group(3)), _month_number(m.group(2)), int(m.group(1)))


def _date_monthname_day_en(text: str) -> str:
    m = _match(r"([a-z]+\.?)\s*([0-9]{1,2})(?:st|nd|rd|th)?", text, "date-monthname-day-en")
    return _iso_month_day(_month_number(m.group(1)), int(m.group(2)))


def _date_month_day(text: str) -> str:
    m = _match(r"([0-9]{1,2})\s*[/.\- ]\s*([0-9]{1,2})", text, "date-month-day")
    return _iso_month_day(int(m.group(1)), int(m.group(2)))


def _date_month_day_year(text: str) -> str:
    m = _match(r"([0-9]{1,2})\s*[/.\- ]\s*([0-9]{1,2})\s*[/.\- ]\s*([0-9]{4}|[0-9]{2})", text, "date-month-day-year")
    return _iso_date(_year(m.group(3)), int(m.group(1)), int(m.group(2)))


def _date_year_month_day(text: str) -> str:
    m = _match(r"([0-9]{4}|[0-9]{2})\s*[/.\- ]\s*([0-9]{1,2})\s*[/.\- ]\s*([0-9]{1,2})", text, "date-year-month-day")
    return _iso_date(_year(m.group(1)), int(m.group(2)), int(m.group(3)))


# English number words (SEC numwordsen, and the numbers inside durwordsen)
_SMALL_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
)  # fmt: skip
_SMALL = {w: i for i, w in enumerate(_SMALL_WORDS)}
_TENS_WORDS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_TENS = {w: 10 * i for i, w in enumerate(_TENS_WORDS, start=2)}
_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}


def _words_to_int(words: list[str], fmt: str) -> int:
    """English cardinal words (already lower case, split on spaces/hyphens/commas) to an integer."""
    words = [w for w in words if w]
    if words in (["no"], ["none"]):
        return 0
    if not words:
        raise ValueError(f"{fmt}: no number")
    total = 0
    current = 0
    seen_any = False
    for w in words:
        if w == "and" and seen_any:
            continue
        if w in _SMALL:
            current += _SMALL[w]
        elif w in _TENS:
            current += _TENS[w]
        elif w == "hundred":
            current = (current or 1) * 100
        elif w in _SCALES:
            total += (current or 1) * _SCALES[w]
            current = 0
        else:
            raise ValueError(f"{fmt}: not a number word: {w!r}")
        seen_any = True
    return total + current


def _numwordsen(text: str) -> str:
    words = re.split(r"[\s,\-]+", text.strip().lower())
    return str(_words_to_int(words, "numwordsen"))


# durations
_DUR_UNITS = (("Y", 12), ("M", 30), ("D", 24), ("H", 60), ("MIN", 60), ("S", None))


def _duration(amount: Decimal, first: str) -> str:
    """An amount of one duration unit (Y, M or D) to xs:duration, fractions spilling over into the smaller units (a
    year is 12 months, a month 30 days, a day 24 hours, an hour 60 minutes, a minute 60 seconds); zero components
    are left out, and a zero duration is written with the given unit ("P0Y")."""
    units = [u for u, _ in _DUR_UNITS]
    parts: dict[str, Decimal] = {}
    rest = amount
    for unit, factor in _DUR_UNITS[units.index(first) :]:
        if factor is None:
            parts[unit] = rest
            break
        whole = rest.to_integral_value(rounding=ROUND_FLOOR)
        parts[unit] = whole
        rest = (rest - whole) * factor
        if rest == 0:
            break

    def num(v: Decimal) -> str:
        return format(v.normalize(), "f")

    date_part = "".join(f"{num(parts[u])}{u}" for u in ("Y", "M", "D") if parts.get(u))
    time_part = "".join(f"{num(parts[u])}{u[0]}" for u in ("H", "MIN", "S") if parts.get(u))
    if not date_part and not time_part:
        return f"P0{first}"
    return "P" + date_part + (f"T{time_part}" if time_part else "")


def _dur_number(text: str, fmt: str) -> Decimal:
    m = _match(r"([0-9]+(?:\.[0-9]*)?|\.[0-9]+)", text.strip(), fmt)
    return Decimal(m.group(1))


def _duryear(text: str) -> str:
    return _duration(_dur_number(text, "duryear"), "Y")


def _durmonth(text: str) -> str:
    return _duration(_dur_number(text, "durmonth"), "M")


def _durday(text: str) -> str:
    return _duration(_dur_number(text, "durday"), "D")


_DUR_WORD_UNITS = {"year": "Y", "years": "Y", "month": "M", "months": "M", "day": "D", "days": "D"}


def _durwordsen(text: str) -> str:
    tokens = re.findall(r"[0-9]+|[a-z]+", text.lower())
    if re.search(r"[^0-9a-z\s,\-]", text.lower()):
        raise ValueError(f"durwordsen: cannot read {text!r}")
    parts: dict[str, int] = {}
    pending: list[str] = []
    for tok in tokens:
        if tok in _DUR_WORD_UNITS:
            unit = _DUR_WORD_UNITS[tok]
            if unit in parts or not pending:
                raise ValueError(f"durwordsen: cannot read {text!r}")
            if len(pending) == 1 and pending[0].isdigit():
                parts[unit] = int(pending[0])
            else:
                parts[unit] = _words_to_int(pending, "durwordsen")
            pending = []
        elif tok == "and" and not pending:
            continue
        else:
            pending.append(tok)
    if pending or not parts:
        raise ValueError(f"durwordsen: cannot read {text!r}")
    if not any(parts.values()):
        return "P0" + next(u for u in ("Y", "M", "D") if u in parts)
    return "P" + "".join(f"{parts[u]}{u}" for u in ("Y", "M", "D") if parts.get(u))


# SEC name-to-code tables
_EXCHANGES = [
    (r"(the )?nasdaq( stock market| global select market| global market| capital market)?( llc| inc)?", "NASDAQ"),
    (r"(the )?new york stock exchange( llc| inc)?|nyse( llc)?", "NYSE"),
    (r"nyse american( llc)?|nyse mkt( llc)?", "NYSEAMER"),
    (r"nyse arca( inc| llc)?", "NYSEArca"),
    (r"nyse national( inc)?", "NYSENAT"),
    (r"nyse chicago( inc)?|chicago stock exchange( inc)?", "CHX"),
    (r"nasdaq bx( inc)?", "BX"),
    (r"nasdaq phlx( llc)?", "PHLX"),
    (r"nasdaq ise( llc)?", "ISE"),
    (r"nasdaq gemx( llc)?", "GEMX"),
    (r"nasdaq mrx( llc)?", "MRX"),
    (r"cboe exchange( inc)?|chicago board options exchange( inc| incorporated)?", "CBOE"),
    (r"cboe c2 exchange( inc)?", "C2"),
    (r"cboe byx exchange( inc)?", "CboeBYX"),
    (r"cboe bzx exchange( inc)?", "CboeBZX"),
    (r"cboe edga exchange( inc)?", "CboeEDGA"),
    (r"cboe edgx exchange( inc)?", "CboeEDGX"),
    (r"investors exchange( llc)?|iex( llc)?", "IEX"),
    (r"long term stock exchange( inc)?", "LTSE"),
    (r"members exchange( llc)?|memx( llc)?", "MEMX"),
    (r"miami international securities exchange( llc)?", "MIAX"),
    (r"box (options )?exchange( llc)?", "BOX"),
]


def _exchnameen(text: str) -> str:
    key = _collapse(re.sub(r"[^a-z0-9]+", " ", text.lower()))
    for pattern, code in _EXCHANGES:
        if re.fullmatch(pattern, key):
            return code
    raise ValueError(f"exchnameen: unknown exchange {text!r}")


_STATES = {
    "alabama": "AL", "alaska": "AK", "arizona": "AZ", "arkansas": "AR", "california": "CA", "colorado": "CO",
    "connecticut": "CT", "delaware": "DE", "district of columbia": "DC", "florida": "FL", "georgia": "GA",
    "hawaii": "HI", "idaho": "ID", "illinois": "IL", "indiana": "IN", "iowa": "IA", "kansas": "KS",
    "kentucky": "KY", "louisiana": "LA", "maine": "ME", "maryland": "MD", "massachusetts": "MA", "michigan": "MI",
    "minnesota": "MN", "mississippi": "MS", "missouri": "MO", "montana": "MT", "nebraska": "NE", "nevada": "NV",
    "new hampshire": "NH", "new jersey": "NJ", "new mexico": "NM", "new york": "NY", "north carolina": "NC",
    "north dakota": "ND", "ohio": "OH", "oklahoma": "OK", "oregon": "OR", "pennsylvania": "PA",
    "rhode island": "RI", "south carolina": "SC", "south dakota": "SD", "tennessee": "TN", "texas": "TX",
    "utah": "UT", "vermont": "VT", "virginia": "VA", "washington": "WA", "west virginia": "WV",
    "wisconsin": "WI", "wyoming": "WY",
    "american samoa": "AS", "guam": "GU", "northern mariana islands": "MP", "puerto rico": "PR",
    "united states virgin islands": "VI", "u s virgin islands": "VI", "us virgin islands": "VI",
    "virgin islands": "VI",
    "alberta": "AB", "british columbia": "BC", "manitoba": "MB", "new brunswick": "NB",
    "newfoundland and labrador": "NL", "newfoundland": "NL", "nova scotia": "NS", "northwest territories": "NT",
    "nunavut": "NU", "ontario": "ON", "prince edward island": "PE", "quebec": "QC", "québec": "QC",
    "saskatchewan": "SK", "yukon": "YT",
}  # fmt: skip


def _stateprovnameen(text: str) -> str:
    key = _collapse(re.sub(r"[^a-zé]+", " ", text.lower()))
    key = key.removeprefix("state of ").removeprefix("commonwealth of ")
    if key not in _STATES:
        raise ValueError(f"stateprovnameen: unknown state or province {text!r}")
    return _STATES[key]


def _entityfilercategoryen(text: str) -> str:
    key = _collapse(re.sub(r"[^a-z]+", " ", text.lower()))
    table = {
        "large accelerated filer": "Large Accelerated Filer",
        "accelerated filer": "Accelerated Filer",
        "non accelerated filer": "Non-accelerated Filer",
        "nonaccelerated filer": "Non-accelerated Filer",
    }
    if key not in table:
        raise ValueError(f"entityfilercategoryen: unknown filer category {text!r}")
    return table[key]


def _boolballotbox(text: str) -> str:
    box = text.strip()
    if box == "\u2610":
        return "false"
    if box in ("\u2611", "\u2612"):
        return "true"
    raise ValueError(f"boolballotbox: not a ballot box {text!r}")


def _fixed(value: str):
    return lambda _text: value


TRANSFORMS = {
    (NS_IXT, "num-dot-decimal"): _num_dot_decimal,
    (NS_IXT, "num-comma-decimal"): _num_comma_decimal,
    (NS_IXT, "fixed-zero"): _fixed("0"),
    (NS_IXT, "fixed-empty"): _fixed(""),
    (NS_IXT, "fixed-true"): _fixed("true"),
    (NS_IXT, "fixed-false"): _fixed("false"),
    (NS_IXT, "date-monthname-day-year-en"): _date_monthname_day_year_en,
    (NS_IXT, "date-day-monthname-year-en"): _date_day_monthname_year_en,
    (NS_IXT, "date-monthname-day-en"): _date_monthname_day_en,
    (NS_IXT, "date-month-day"): _date_month_day,
    (NS_IXT, "date-month-day-year"): _date_month_day_year,
    (NS_IXT, "date-year-month-day"): _date_year_month_day,
    (NS_IXT_SEC, "numwordsen"): _numwordsen,
    (NS_IXT_SEC, "duryear"): _duryear,
    (NS_IXT_SEC, "durmonth"): _durmonth,
    (NS_IXT_SEC, "durday"): _durday,
    (NS_IXT_SEC, "durwordsen"): _durwordsen,
    (NS_IXT_SEC, "exchnameen"): _exchnameen,
    (NS_IXT_SEC, "stateprovnameen"): _stateprovnameen,
    (NS_IXT_SEC, "entityfilercategoryen"): _entityfilercategoryen,
    (NS_IXT_SEC, "boolballotbox"): _boolballotbox,
}


def apply_format(fmt_clark: str, text: str) -> str:
    """Apply the transform named by fmt_clark ("{namespace}local-name") to the (collapsed) displayed text."""
    ns, _, local = fmt_clark[1:].partition("}") if fmt_clark.startswith("{") else ("", "", fmt_clark)
    func = TRANSFORMS.get((ns, local))
    if func is None:
        raise ValueError(f"unknown transformation format {fmt_clark!r}")
    return func(text)


# ----------------------------------------------------------------------------------------------------------------
# facts

_PLAIN_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")


def _is_nil(elem: ET.Element) -> bool:
    return (elem.get(_XSI_NIL) or "").strip() in ("true", "1")


def _nonfraction_value(elem: ET.Element, nsmap: dict[str, str]) -> Decimal:
    text = _collapse("".join(elem.itertext()))
    fmt = elem.get("format")
    if fmt:
        text = apply_format(_resolve_qname(fmt, nsmap), text)
    if not _PLAIN_DECIMAL.fullmatch(text):
        raise ValueError(f"nonFraction {elem.get('name')!r} (id {elem.get('id')!r}): not a number: {text!r}")
    value = Decimal(text)
    scale = int((elem.get("scale") or "0").strip())
    with localcontext() as ctx:
        ctx.prec = 100
        value = value * (Decimal(10) ** scale)
        if (elem.get("sign") or "").strip() == "-":
            value = -value
    return value


def inline_facts(path: str | Path) -> list[dict]:
    """Every ix:nonFraction and ix:nonNumeric fact of an inline XBRL document, in document order, duplicates kept."""
    path = Path(path)
    root, nsmaps, fact_elems = _parse(path)
    context_elems, unit_elems = _contexts_and_units(root)
    contexts: dict[str, dict] = {}
    units: dict[str, str] = {}
    continuations: dict[str, ET.Element] = {}
    for cont in root.iter(_IX_CONTINUATION):
        cid = cont.get("id")
        if cid in continuations:
            raise ValueError(f"duplicate ix:continuation id {cid!r}")
        continuations[cid] = cont

    facts: list[dict] = []
    for elem, hidden in fact_elems:
        nsmap = nsmaps[elem]
        ctx_ref = elem.get("contextRef")
        if ctx_ref not in contexts:
            if ctx_ref not in context_elems:
                raise ValueError(f"fact {elem.get('name')!r}: unknown context {ctx_ref!r}")
            contexts[ctx_ref] = _read_context(context_elems[ctx_ref], nsmaps)
        ctx = contexts[ctx_ref]
        numeric = elem.tag == _IX_NONFRACTION
        if numeric:
            unit_ref = elem.get("unitRef")
            if unit_ref not in units:
                if unit_ref not in unit_elems:
                    raise ValueError(f"fact {elem.get('name')!r}: unknown unit {unit_ref!r}")
                units[unit_ref] = _read_unit(unit_elems[unit_ref])
            unit = units[unit_ref]
            value = None if _is_nil(elem) else _nonfraction_value(elem, nsmap)
        else:
            unit = None
            if _is_nil(elem):
                value = None
            else:
                value = _chain_text(elem, continuations)
                fmt = elem.get("format")
                if fmt:
                    value = apply_format(_resolve_qname(fmt, nsmap), value)
        facts.append(
            {
                "concept": _resolve_qname(elem.get("name", ""), nsmap),
                "entity": ctx["entity"],
                "start": ctx["start"],
                "end": ctx["end"],
                "dims": ctx["dims"],
                "unit": unit,
                "value": value,
                "decimals": elem.get("decimals") if numeric else None,
                "id": elem.get("id"),
                "hidden": hidden,
            }
        )
    return facts


__all__ = ["BLOCK_ELEMENTS", "TRANSFORMS", "apply_format", "inline_facts"]
