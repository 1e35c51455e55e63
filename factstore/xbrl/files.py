"""XBRL from files: an instance (`.xml`), an inline document (`.htm`, `.html`, `.xhtml`), or the SEC's
`-xbrl.zip` of a filing (its inline documents where it has them, else its instance), read into one Document."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from lxml import etree

from factstore import limits
from factstore.errors import LoadError
from factstore.xbrl.inline import declares_inline, inline_namespace, read_inline
from factstore.xbrl.instance import read_instance
from factstore.xbrl.model import XBRLI, Document, resolve_duplicates

_SUFFIXES = (".htm", ".html", ".xhtml", ".xml")
_HEAD = 20_000  # the root element, with its namespaces, is within a document's first bytes
_INSTANCE = re.compile(rb"<(?:[\w-]+:)?xbrl[\s>]")
_PARSER = etree.XMLParser(huge_tree=True, remove_comments=True, resolve_entities=False, no_network=True)


def read_xbrl(path: str | Path) -> Document:
    """The facts of a filing's XBRL file (instance, inline document or the SEC's zip), each fact once:
    consistent duplicates kept once (the most precise), inconsistent ones kept and flagged."""
    source = str(path)
    if zipfile.is_zipfile(path):
        documents = _from_zip(Path(path))
    else:
        try:
            body = Path(path).read_bytes()
        except OSError as exc:
            raise LoadError(source, f"cannot read: {exc.strerror or exc}") from exc
        documents = [read_body(body, source)]
    facts = [f for d in documents for f in d.facts]
    return Document(source, documents[0].kind, resolve_duplicates(facts),
                    tuple(c for d in documents for c in d.contexts))


def inline_document(body: bytes, source: str) -> Document | None:
    """An HTML document's facts, each once, if it is inline XBRL; else None."""
    if not declares_inline(body):
        return None
    document = read_body(body, source)
    return Document(source, document.kind, resolve_duplicates(document.facts), document.contexts)


def read_body(body: bytes, source: str) -> Document:
    """One XML document's facts: an instance (root xbrli:xbrl) or an inline XBRL document."""
    try:
        root = etree.fromstring(body, _PARSER)
    except etree.XMLSyntaxError as exc:
        raise LoadError(source, f"not well-formed XML: {exc}") from exc
    # where the root's are the only namespace declarations, every element has the root's in scope
    shared = root.nsmap if body.count(b"xmlns") == len(root.nsmap) else None
    if root.tag == f"{{{XBRLI}}}xbrl":
        return read_instance(root, source, shared)
    if inline_namespace(root) is not None:
        return read_inline(root, source, shared)
    raise LoadError(source, f"neither an XBRL instance nor an inline XBRL document (root {root.tag})")


def _from_zip(path: Path) -> list[Document]:
    """A filing's zip: its inline documents (a document set), else its one instance; its members unpacked within
    the caps (factstore.limits), each and together."""
    source, bodies, packed, unpacked = str(path), {}, 0, 0
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise LoadError(source, f"cannot read as a zip archive: {exc}") from exc
    with archive:
        for info in archive.infolist():
            if info.filename.lower().endswith(_SUFFIXES):
                bodies[info.filename] = limits.read_member(archive, info.filename, f"{source}!{info.filename}")
                packed, unpacked = packed + info.compress_size, unpacked + len(bodies[info.filename])
                if why := limits.too_big(packed, unpacked):  # the members together, as each one
                    raise LoadError(source, f"refused: {why}")
    inline = [read_body(b, f"{source}:{n}") for n, b in bodies.items()
              if not n.lower().endswith(".xml") and declares_inline(b)]
    if inline:
        return inline
    instances = [read_body(b, f"{source}:{n}") for n, b in bodies.items()
                 if n.lower().endswith(".xml") and _INSTANCE.search(b[:_HEAD])]
    if len(instances) != 1:
        raise LoadError(source, f"{len(instances) or 'no'} XBRL instances and no inline document in the zip: "
                                "give one instance")
    return instances
