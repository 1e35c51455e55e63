"""An XBRL 2.1 instance (EX-101.INS, or the SEC's `*_htm.xml` extracted from an inline document) read into facts."""

from __future__ import annotations

from lxml import etree

from factstore.errors import LoadError
from factstore.xbrl.model import (
    LINK,
    XBRLI,
    XSI_NIL,
    Document,
    Fact,
    contexts,
    decimals_of,
    element_text,
    exact,
    markup_text,
    plain,
    standard_prefix,
    units,
)


def read_instance(root: etree._Element, source: str, shared: dict[str | None, str] | None = None) -> Document:
    """The facts of an instance document's root (`xbrli:xbrl`), in document order. `shared`: the namespaces every
    element has in scope, where the document declares none below its root (each element's own map is built
    otherwise)."""
    known_contexts, known_units = contexts(root, source, shared), units(root, source, shared)
    facts = []
    names: dict[tuple[str, str | None], tuple[str, str]] = {}  # (tag, prefix) -> (namespace, concept)
    for element in root.iterchildren(tag=etree.Element):
        tag, prefix = element.tag, element.prefix
        name = names.get((tag, prefix))
        if name is None:
            namespace, _, local = tag[1:].partition("}")
            name = names[tag, prefix] = namespace, f"{standard_prefix(namespace, prefix or '')}:{local}"
        namespace, concept = name
        if namespace in (XBRLI, LINK):
            continue
        line = element.sourceline
        context_id = element.get("contextRef")
        if context_id is None:
            raise LoadError(source, f"line {line}: {element.tag} has no contextRef (tuples are not read)",
                            field="contextRef")
        context = known_contexts.get(context_id)
        if context is None:
            raise LoadError(source, f"line {line}: context {context_id!r} is not defined", field="contextRef")
        unit_id = element.get("unitRef")
        unit = None if unit_id is None else known_units.get(unit_id)
        if unit_id is not None and unit is None:
            raise LoadError(source, f"line {line}: unit {unit_id!r} is not defined", field="unitRef")
        nil = element.get(XSI_NIL) in ("true", "1")
        if nil:
            value = None
        elif unit is not None:
            if len(element):
                raise LoadError(source, f"line {line}: a fraction ({element.tag}) is not read", field="value")
            value = plain(exact(element.text or "", source, line))
        else:
            value = markup_text(element.text or "") if not len(element) else element_text(element)
        facts.append(Fact(concept, namespace, context, unit, value, decimals_of(element, source, line),
                          unit is not None, element.get("id"), line))
    return Document(source, "instance", facts, tuple(known_contexts.values()))

