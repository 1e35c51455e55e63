"""What an XBRL document states: contexts, units and facts, read exactly (values as decimals, never floats), with
the rules both readers share (names of standard taxonomies, units as QNames, periods, duplicates)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation, localcontext
from functools import cache

from lxml import etree

from factstore.errors import LoadError

XBRLI = "http://www.xbrl.org/2003/instance"
XBRLDI = "http://xbrl.org/2006/xbrldi"
LINK = "http://www.xbrl.org/2003/linkbase"
ISO4217 = "http://www.xbrl.org/2003/iso4217"
XSI_NIL = "{http://www.w3.org/2001/XMLSchema-instance}nil"
# standard taxonomies under the prefixes companyfacts and FSDS give them, whatever prefix a document declares
_STANDARD = [(re.compile(p), prefix) for p, prefix in (
    (r"^https?://(?:fasb\.org|xbrl\.us)/us-gaap/", "us-gaap"),
    (r"^https?://(?:xbrl\.sec\.gov|xbrl\.us)/dei/", "dei"),
    (r"^https?://fasb\.org/srt/", "srt"),
    (r"^https?://xbrl\.ifrs\.org/taxonomy/[\d-]+/ifrs-full$", "ifrs-full"),
    (r"^https?://xbrl\.sec\.gov/(\w+)/\d{4}", r"\1"))]
_DECIMAL = re.compile(r"([+-]?)(?:\d+(?:\.\d*)?|\.\d+)")
_INTEGER = re.compile(r"[+-]?\d+", re.ASCII)
# the most characters a number may be shown or written in (the real filings' longest: 17, '2,628,553,000,000'), and
# the largest size of a scale or decimals (theirs: scale -2 to 12, decimals -11 to 5); beyond, a document is refused
NUMBER_CHARS = 100
SMALL_INTEGER = 30


@dataclass(frozen=True, slots=True)
class Context:
    """Whose and when: the entity, the period (an instant has no start; forever has neither) and the dimensions,
    (axis, member) pairs sorted by axis (a typed dimension's member is its value's text)."""

    id: str
    scheme: str
    identifier: str
    start: date | None
    end: date | None
    dims: tuple[tuple[str, str], ...] = ()
    line: int | None = field(default=None, compare=False)  # where it stands

    @property
    def key(self) -> tuple:
        """What makes two contexts the same context, whatever their ids."""
        return self.scheme, self.identifier, self.start, self.end, self.dims


@dataclass(frozen=True, slots=True)
class Fact:
    """One fact as the document states it. `value` is an exact decimal's text for a number (scale and sign
    applied), the text otherwise, None when nil; `decimals` as written ('-6', 'INF'); `line` where it stands;
    `inconsistent`: another fact of the same concept, context and unit says another value; `copies`: the ids of
    the duplicates that agree with it, read as this one fact."""

    concept: str
    namespace: str
    context: Context
    unit: str | None
    value: str | None
    decimals: str | None
    numeric: bool
    id: str | None = None
    line: int | None = None
    inconsistent: bool = False
    copies: tuple[str, ...] = ()  # the ids of the agreeing duplicates it stands for

    @property
    def key(self) -> tuple:
        """The fact's identity: concept, context and unit."""
        return self.concept, self.context.key, self.unit


@dataclass(frozen=True)
class Document:
    """An XBRL instance or inline XBRL document read: its facts in document order ('instance' or 'inline'), and every
    context it defines, used by a fact or not."""

    source: str
    kind: str
    facts: list[Fact]
    contexts: tuple[Context, ...] = ()


def qname(element: etree._Element, text: str, source: str, field: str,
          scope: dict[str | None, str] | None = None) -> tuple[str, str]:
    """A QName written in an element ('us-gaap:Revenues') as (namespace, name under its standard prefix); `scope`:
    the namespaces in scope there, where known (else the element's own map is built)."""
    prefix, _, local = text.strip().rpartition(":")
    namespace = (element.nsmap if scope is None else scope).get(prefix or None)
    if namespace is None or not local:
        raise LoadError(source, f"line {element.sourceline}: {text!r} is not a QName declared in the document",
                        field=field)
    return namespace, f"{standard_prefix(namespace, prefix)}:{local}"


@cache
def standard_prefix(namespace: str, prefix: str) -> str:
    """A namespace's prefix: a standard taxonomy's usual one (any year), else the one the document declares."""
    for pattern, name in _STANDARD:
        m = pattern.match(namespace)
        if m:
            return m.expand(name)
    return prefix


def number_text(text: str, source: str, line: int | None, field: str = "value") -> str:
    """A number's text, stripped, refused beyond NUMBER_CHARS characters (bounded work whatever a document holds)."""
    value = text.strip()
    if len(value) > NUMBER_CHARS:
        raise LoadError(source, f"line {line}: a number of {len(value):,} characters ({value[:20]!r}...): more than "
                                f"{NUMBER_CHARS}", field=field)
    return value


def exact(text: str, source: str, line: int | None, field: str = "value", *, signed: bool = True) -> Decimal:
    """An xs:decimal's exact value (an integer or decimal literal: no exponent, no grouping); `signed=False`: an
    inline number's shown text, which carries no sign (the sign attribute does)."""
    value = number_text(text, source, line, field)
    match = _DECIMAL.fullmatch(value)
    if not match:
        raise LoadError(source, f"line {line}: {value[:40]!r} is not a decimal number", field=field)
    if match[1] and not signed:
        raise LoadError(source, f"line {line}: {value[:40]!r} is shown with a sign (an inline number's sign is its "
                                "sign attribute)", field=field)
    try:
        return Decimal(value)
    except InvalidOperation as exc:  # pragma: no cover - the pattern admits only what Decimal reads
        raise LoadError(source, f"line {line}: {value[:40]!r} is not a decimal number", field=field) from exc


def small_integer(text: str, source: str, line: int | None, field: str) -> int:
    """An integer attribute (a scale, decimals) of at most SMALL_INTEGER either way."""
    value = text.strip()
    if len(value) > 12 or not _INTEGER.fullmatch(value) or abs(int(value)) > SMALL_INTEGER:
        raise LoadError(source, f"line {line}: {value[:40]!r} is not an integer from {-SMALL_INTEGER} to "
                                f"{SMALL_INTEGER}", field=field)
    return int(value)


def decimals_of(element: etree._Element, source: str, line: int | None) -> str | None:
    """A fact's decimals as written ('-6', 'INF'), None where absent; anything else is refused."""
    value = element.get("decimals")
    if value is None:
        return None
    value = value.strip()
    if value != "INF":
        small_integer(value, source, line, "decimals")
    return value


def scaled(number: Decimal, scale: int) -> Decimal:
    """A decimal times ten to `scale`, exactly (no context's precision or exponent limit applies)."""
    sign, digits, exponent = number.as_tuple()
    return Decimal((sign, digits, exponent + scale))


def plain(number: Decimal) -> str:
    """A decimal's text without exponent ('6.8714E+10' -> '68714000000'; '-0' -> '0')."""
    return format(abs(number) if number == 0 else number, "f")


# address article blockquote br dd div dl dt h1-h6 hr li ol p pre section table tbody td tfoot th thead tr ul: the
# names in a lookahead (twice as fast as matching them in place) and as a tree of their letters (re tries an
# alternation's branches one by one: a quarter less time), the same tags
_BLOCK_TAG = re.compile(r"<(?=/?(?:[\w-]+:)?(?:a(?:ddress|rticle)|b(?:lockquote|r)|d(?:[dlt]|iv)|h[1-6r]|li|ol|"
                        r"p(?:re)?|section|t(?:able|body|[dhr]|foot|head)|ul)\b)[^>]*>", re.IGNORECASE)
# no-break spaces written as references: a space in the text (html.unescape would call Python for each)
_NBSP = re.compile(r"&(?:#160|#[xX][aA]0|nbsp);")
_EXCLUDED = re.compile(r"<([\w-]+:)?exclude\b[^>]*?(?:/>|>.*?</\1exclude\s*>)", re.DOTALL)
_TAG = re.compile(r"<[^>]*>")


def markup_text(markup: str) -> str:
    """The text of (X)HTML markup, whitespace collapsed, with a space where a block (a paragraph, a cell...)
    begins or ends and without ix:exclude's content: an inline document's text facts and the SEC instance's escaped
    markup of them read alike."""
    if "exclude" in markup:
        markup = _EXCLUDED.sub("", markup)
    text = _TAG.sub("", _BLOCK_TAG.sub(" ", markup))
    if "&" in text:
        text = html.unescape(_NBSP.sub(" ", text))
    return " ".join(text.split())


def element_text(element: etree._Element) -> str:
    """An element's text as `markup_text` reads it."""
    return markup_text(etree.tostring(element, encoding="unicode", with_tail=False))


def contexts(parent: etree._Element, source: str, scope: dict[str | None, str] | None = None) -> dict[str, Context]:
    """The xbrli:context elements under an element, by id (`scope`: the namespaces every element has in scope, where
    known: see qname)."""
    out = {}
    for element in parent.iter(f"{{{XBRLI}}}context"):
        out[element.get("id")] = _context(element, source, scope)
    return out


_IDENTIFIER, _INSTANT, _FOREVER = f"{{{XBRLI}}}identifier", f"{{{XBRLI}}}instant", f"{{{XBRLI}}}forever"
_START, _END, _PERIOD = f"{{{XBRLI}}}startDate", f"{{{XBRLI}}}endDate", f"{{{XBRLI}}}period"
_EXPLICIT, _TYPED = f"{{{XBRLDI}}}explicitMember", f"{{{XBRLDI}}}typedMember"


def _context(element: etree._Element, source: str, scope: dict[str | None, str] | None) -> Context:
    """One context, read in one pass over its descendants."""
    line = element.sourceline
    identifier = period = instant = start = end = None
    forever = False
    dims = {}
    for child in element.iter(_IDENTIFIER, _PERIOD, _EXPLICIT, _TYPED):
        tag = child.tag
        if tag in (_EXPLICIT, _TYPED):
            _, axis = qname(child, child.get("dimension") or "", source, "dimension", scope)
            dims[axis] = qname(child, child.text or "", source, "member", scope)[1] if tag == _EXPLICIT else \
                " ".join("".join(child.itertext()).split())
        elif tag == _IDENTIFIER:
            identifier = child
        else:
            period = child
    if identifier is None or period is None:
        raise LoadError(source, f"line {line}: context {element.get('id')!r} has no entity identifier or period",
                        field="context")
    for child in period.iterchildren(_INSTANT, _FOREVER, _START, _END):
        tag = child.tag
        if tag == _INSTANT:
            instant = child.text or ""
        elif tag == _FOREVER:
            forever = True
        elif tag == _START:
            start = child.text or ""
        else:
            end = child.text or ""
    if instant is not None:
        first, last = None, _day(instant, True, source, line)
    elif forever:
        first = last = None
    else:
        first, last = _day(start or "", False, source, line), _day(end or "", True, source, line)
        if last < first:
            raise LoadError(source, f"line {line}: context {element.get('id')!r} ends ({end.strip()}) before it "
                                    f"starts ({start.strip()})", field="period")
    return Context(element.get("id"), identifier.get("scheme", ""), (identifier.text or "").strip(), first, last,
                   tuple(sorted(dims.items())), line)


def _day(text: str, ends: bool, source: str, line: int | None) -> date:
    """A period's date; a dateTime at midnight that ends a period is the day before (XBRL 2.1, 4.7.2)."""
    text = text.strip()
    try:
        day = date.fromisoformat(text[:10])
    except ValueError as exc:
        raise LoadError(source, f"line {line}: {text!r} is not a date", field="period") from exc
    clock = text[10:]
    if clock and clock.rstrip("Z") not in ("T00:00:00", "T00:00:00.0"):
        raise LoadError(source, f"line {line}: a period bound at a time of day ({text}) is not supported",
                        field="period")
    return day - timedelta(days=1) if clock and ends else day


def units(parent: etree._Element, source: str, scope: dict[str | None, str] | None = None) -> dict[str, str]:
    """The xbrli:unit elements under an element, by id, as companyfacts names units: measures by local name
    ('iso4217:USD' -> 'USD'), a product joined by '*', a ratio by '/' ('USD/shares'). `scope` as for contexts."""
    out = {}
    for element in parent.iter(f"{{{XBRLI}}}unit"):
        divide = element.find(f"{{{XBRLI}}}divide")
        if divide is None:
            out[element.get("id")] = _measures(element, source, scope)
        else:
            top = divide.find(f"{{{XBRLI}}}unitNumerator")
            bottom = divide.find(f"{{{XBRLI}}}unitDenominator")
            if top is None or bottom is None:
                raise LoadError(source, f"line {element.sourceline}: unit {element.get('id')!r} divides without "
                                        "numerator or denominator", field="unit")
            out[element.get("id")] = f"{_measures(top, source, scope)}/{_measures(bottom, source, scope)}"
    return out


def _measures(parent: etree._Element, source: str, scope: dict[str | None, str] | None) -> str:
    names = [qname(m, m.text or "", source, "measure", scope)[1].rpartition(":")[2]
             for m in parent.findall(f"{{{XBRLI}}}measure")]
    if not names:
        raise LoadError(source, f"line {parent.sourceline}: a unit without a measure", field="unit")
    return "*".join(sorted(names))


def resolve_duplicates(facts: list[Fact]) -> list[Fact]:
    """Each fact once: duplicates that agree (numbers equal at the lesser precision, texts equal) are one fact,
    the most precise, in the place of the first; ones that disagree are all kept, flagged `inconsistent`."""
    groups: dict[tuple, list[int]] = {}
    for i, fact in enumerate(facts):
        groups.setdefault(fact.key, []).append(i)
    out: list[Fact | None] = list(facts)
    for members in groups.values():
        if len(members) == 1:
            continue
        same = [facts[i] for i in members]
        if _consistent(same):
            kept = max(same, key=_precision)
            out[members[0]] = replace(kept, copies=tuple(f.id for f in same if f is not kept and f.id))
            for i in members[1:]:
                out[i] = None
        else:
            for i in members:
                out[i] = replace(facts[i], inconsistent=True)
    return [f for f in out if f is not None]


def _precision(fact: Fact) -> float:
    if fact.decimals is None:
        return float("-inf")
    return float("inf") if fact.decimals == "INF" else int(fact.decimals)


def _consistent(facts: list[Fact]) -> bool:
    """Whether duplicates agree: nil with nil, text with the same text, numbers once rounded to the fewest
    decimals among them."""
    if any(f.value is None for f in facts):
        return all(f.value is None for f in facts)
    if not facts[0].numeric:
        return len({" ".join(f.value.split()) for f in facts}) == 1
    fewest = min(_precision(f) for f in facts)
    values = [Decimal(f.value) for f in facts]
    if fewest == float("inf") or fewest == float("-inf"):
        return len(set(values)) == 1
    # exact: a value has at most NUMBER_CHARS digits, moved by a scale, and is rounded at decimals of SMALL_INTEGER
    with localcontext(prec=NUMBER_CHARS + 3 * SMALL_INTEGER):
        quantum = Decimal(1).scaleb(-int(fewest))
        return len({v.quantize(quantum) for v in values}) == 1
