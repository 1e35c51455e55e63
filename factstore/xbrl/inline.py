"""An inline XBRL document (iXBRL 1.0 or 1.1, an SEC 10-K or 10-Q `.htm`) read into facts: contexts and units from
ix:resources, numbers from ix:nonFraction (format, scale and sign applied exactly), texts from ix:nonNumeric
(ix:exclude left out, ix:continuation chains followed), hidden facts included."""

from __future__ import annotations

import re
from decimal import Decimal

from lxml import etree

from factstore.errors import LoadError
from factstore.xbrl.model import (
    XSI_NIL,
    Document,
    Fact,
    contexts,
    decimals_of,
    element_text,
    exact,
    number_text,
    plain,
    qname,
    scaled,
    small_integer,
    units,
)
from factstore.xbrl.transforms import TransformError, transform

NAMESPACES = ("http://www.xbrl.org/2013/inlineXBRL", "http://www.xbrl.org/2008/inlineXBRL")
_DECLARED = re.compile(r"http://www\.xbrl\.org/(?:2013|2008)/inlineXBRL")
_HEAD = 20_000  # the root element, with its namespaces, is within a document's first characters


def declares_inline(body: str | bytes) -> bool:
    """Whether a document declares the Inline XBRL namespace where its root element is (its first characters)."""
    head = body[:_HEAD].decode("utf-8", "replace") if isinstance(body, bytes) else body[:_HEAD]
    return _DECLARED.search(head) is not None


def inline_namespace(root: etree._Element) -> str | None:
    """The Inline XBRL namespace a document uses, if any."""
    declared = set(root.nsmap.values())
    found = next((ns for ns in NAMESPACES if ns in declared), None)
    if found is None:
        found = next((ns for ns in NAMESPACES if root.find(f".//{{{ns}}}header") is not None), None)
    return found


def read_inline(root: etree._Element, source: str, shared: dict[str | None, str] | None = None) -> Document:
    """The facts of an inline XBRL document's root, in document order. `shared`: the namespaces every element has in
    scope, where the document declares none below its root (each element's own map is built otherwise)."""
    ix = inline_namespace(root)
    if ix is None:
        raise LoadError(source, "not an inline XBRL document (no ix:header)")
    resources = list(root.iter(f"{{{ix}}}resources"))
    if not resources:
        raise LoadError(source, "an inline XBRL document without ix:resources (no contexts, no units)")
    known_contexts, known_units = {}, {}
    for element in resources:
        known_contexts.update(contexts(element, source, shared))
        known_units.update(units(element, source, shared))
    continuations = {e.get("id"): e for e in root.iter(f"{{{ix}}}continuation")}
    facts = []
    for element in root.iter(f"{{{ix}}}nonFraction", f"{{{ix}}}nonNumeric", f"{{{ix}}}fraction",
                             f"{{{ix}}}tuple"):
        line = element.sourceline
        kind = etree.QName(element).localname
        if kind in ("fraction", "tuple"):
            raise LoadError(source, f"line {line}: ix:{kind} is not read", field="name")
        scope = element.nsmap if shared is None else shared
        namespace, concept = qname(element, element.get("name") or "", source, "name", scope)
        context_id = element.get("contextRef")
        context = known_contexts.get(context_id)
        if context is None:
            raise LoadError(source, f"line {line}: context {context_id!r} is not defined", field="contextRef")
        nil = element.get(XSI_NIL) in ("true", "1")
        if kind == "nonFraction":
            unit_id = element.get("unitRef")
            unit = known_units.get(unit_id)
            if unit is None:
                raise LoadError(source, f"line {line}: unit {unit_id!r} is not defined", field="unitRef")
            value = None if nil else _number(element, scope, source, line)
        else:
            unit = None
            value = None if nil else _formatted(element, scope, _chain(element, continuations, source), source,
                                                line)
        facts.append(Fact(concept, namespace, context, unit, value, decimals_of(element, source, line),
                          kind == "nonFraction", element.get("id"), line))
    return Document(source, "inline", facts, tuple(known_contexts.values()))


def _number(element: etree._Element, scope: dict[str | None, str], source: str, line: int | None) -> str:
    """A nonFraction's value: its text (no longer than a number can be, without a sign) through its format, times
    ten to its scale (a small integer), negated by sign="-", all exactly."""
    text = number_text("".join(element.itertext()), source, line)
    shown = _formatted(element, scope, text, source, line) if element.get("format") else text
    number = exact(shown, source, line, signed=False)
    scale = element.get("scale")
    if scale is not None:
        number = scaled(number, small_integer(scale, source, line, "scale"))
    sign = element.get("sign")
    if sign not in (None, "-"):
        raise LoadError(source, f"line {line}: sign {sign[:20]!r} is not '-'", field="sign")
    if sign:
        number = number.copy_negate()
    return plain(number if number else Decimal(0))


def _formatted(element: etree._Element, scope: dict[str | None, str], text: str, source: str,
               line: int | None) -> str:
    """Text through the element's ixt transformation, if it names one (`scope`: the namespaces in scope there)."""
    fmt = element.get("format")
    if not fmt:
        return text
    prefix, _, name = fmt.strip().rpartition(":")
    namespace = scope.get(prefix or None)
    if namespace is None:
        raise LoadError(source, f"line {line}: format {fmt!r} has an undeclared prefix", field="format")
    try:
        return transform(namespace, name, text)
    except TransformError as exc:
        raise LoadError(source, f"line {line}: {exc}", field="format") from exc


def _chain(element: etree._Element, continuations: dict[str, etree._Element], source: str) -> str:
    """A nonNumeric's text with its continuations', in chain order; a missing or circular link is an error."""
    parts, seen = [element_text(element)], set()
    following = element.get("continuedAt")
    while following:
        if following in seen or following not in continuations:
            problem = "circular" if following in seen else "missing"
            raise LoadError(source, f"line {element.sourceline}: continuation {following!r} is {problem}",
                            field="continuedAt")
        seen.add(following)
        part = continuations[following]
        parts.append(element_text(part))
        following = part.get("continuedAt")
    return " ".join(p for p in parts if p)
