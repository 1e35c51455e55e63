"""Routing and answers: a question that names a company with facts, a metric and a period goes to the
facts; everything else to the BM25 index, scoped to the issuers and years it names. Every answer cites
its sources; what the data cannot answer is said to be unanswerable, with the reason."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from factstore.ask.parse import Entity, Parsed, load_metrics, parse
from factstore.errors import NotFound
from factstore.periods import parse_label
from factstore.text.tokenize import normalize, tokenize
from factstore.timing import as_of_timestamp

if TYPE_CHECKING:
    from factstore.store import Fact, FactStore

_GROUP = re.compile(r"\(([^,()]+),")  # "(Gestora Atalaya, 5 de febrero de 2023)": the fund's manager
_LOW = re.compile(r"\b(lowest|smallest|least|worst|mas bajo|mas bajos|mas baja|menor|peor)\b")


@dataclass(frozen=True)
class Citation:
    """A source: a document id and character offsets into the text the store keeps for it (None when
    the figure could not be found in the filing's text), and the quoted text."""

    doc: str
    start: int | None
    end: int | None
    text: str = ""


@dataclass(frozen=True)
class Answer:
    """An answer: kind 'fact', 'passages', 'table' or 'unanswerable', with its citations."""

    kind: str
    question: str
    value: float | None = None
    unit: str | None = None
    citations: tuple[Citation, ...] = ()
    explanation: str = ""
    table: tuple[dict[str, Any], ...] = ()
    as_of: datetime | None = None
    parsed: dict[str, Any] = field(default_factory=dict, repr=False)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["as_of"] = self.as_of.isoformat() if self.as_of else None
        return out


def known_entities(store: FactStore) -> list[Entity]:
    """Companies with facts, issuers of documents, and the groups (fund managers) titles name."""
    out: dict[str, Entity] = {}
    for entity_id, name, tickers in store.sql("SELECT entity_id, name, tickers FROM entities").itertuples(index=False):
        if name:
            out[normalize(name)] = Entity(name, entity_id, tuple(tickers or ()), True)
    groups: dict[str, set[str]] = {}
    for issuer, title in store.sql("SELECT DISTINCT issuer, title FROM documents WHERE issuer IS NOT NULL"
                                   ).itertuples(index=False):
        out.setdefault(normalize(issuer), Entity(issuer))
        if title and (m := _GROUP.search(title)):
            groups.setdefault(m.group(1).strip(), set()).add(issuer)
    for group, members in groups.items():
        out.setdefault(normalize(group), Entity(group, members=tuple(sorted(members))))
    return list(out.values())


def ask(store: FactStore, question: str, *, as_of: Any = None, k: int = 5) -> Answer:
    """Answer a question from the facts or the text index (see the module docstring)."""
    p = parse(question, known_entities(store), load_metrics())
    moment = as_of_timestamp(as_of) if as_of is not None else p.as_of
    summary = {"entities": [e.name for e in p.entities], "metric": p.metric.name if p.metric else None,
               "periods": p.periods, "as_of": moment.isoformat() if moment else None,
               "growth": p.growth, "comparison": p.comparison}
    with_facts = [e for e in p.entities if e.has_facts]
    answer = None
    if p.metric and p.metric.concepts and p.periods and with_facts and len(with_facts) == len(p.entities):
        answer = _from_facts(store, p, with_facts, moment)
    if answer is None or (answer.kind == "unanswerable" and _has_documents(store, p.entities)
                          and not _known_later(store, p, with_facts)):
        text = _from_text(store, p, moment, k)
        if answer is not None and text.kind != "unanswerable":  # the facts lack it, the documents may not
            text = Answer(**{**text.__dict__, "explanation": f"{answer.explanation}; {text.explanation}"})
        answer = text if answer is None or text.kind != "unanswerable" else answer
    return Answer(**{**answer.__dict__, "as_of": moment, "parsed": summary})


# ----------------------------------------------------------------------------------------- facts
def _known_later(store: FactStore, p: Parsed, entities: list[Entity]) -> bool:
    """Whether the facts hold the asked figures at all (then an as-of miss is 'not yet known', not a
    reason to search the documents instead)."""
    try:
        for e in entities:
            for period in p.periods:
                store.fact(e.entity_id, list(p.metric.concepts), period=period, mode="latest", strict=True)
    except NotFound:
        return False
    return True


def _figure_span(store: FactStore, doc_id: str, value: float) -> Citation:
    """Where a figure appears in a filing's stored text ('1,234.5' million or the full number)."""
    row = store.sql("SELECT text FROM documents WHERE doc_id = ?", [doc_id])
    text = row["text"][0] if len(row) and row["text"][0] else ""
    for form in (f"{value / 1e6:,.1f}", f"{value:,.0f}", f"{value / 1e3:,.0f}", f"{value:,.2f}"):
        at = text.find(form)
        if at >= 0 and form.strip("0.,"):
            return Citation(doc_id, at, at + len(form), form)
    return Citation(doc_id, None, None)


def _cite(store: FactStore, fact: Fact) -> tuple[Citation, ...]:
    return tuple(_figure_span(store, p["filing_id"], p["value"]) for p in fact.parts)


def _lookup(store: FactStore, entity: Entity, p: Parsed, period: str, moment: datetime | None) -> Fact:
    return store.fact(entity.entity_id, list(p.metric.concepts), period=period, as_of=moment, strict=True)


def _money(value: float, unit: str) -> str:
    return f"{value / 1e6:,.1f} million {unit}" if abs(value) >= 1e5 and "/" not in unit else f"{value:,.4g} {unit}"


def _previous(label: str) -> str:
    parsed = parse_label(label)
    return parsed.label.replace(str(parsed.year), str(parsed.year - 1))


def _from_facts(store: FactStore, p: Parsed, entities: list[Entity], moment: datetime | None) -> Answer:
    when = f" as known on {moment:%Y-%m-%d %H:%M:%S} UTC" if moment else ""
    try:
        if p.comparison or len(entities) > 1:
            rows = []
            for e in entities:
                f = _lookup(store, e, p, p.periods[0], moment)
                rows.append({"entity": e.name, "value": f.value, "unit": f.unit, "source": f.source,
                             "form": f.form, "accepted_at": f.accepted_at.isoformat()})
            rows.sort(key=lambda r: r["value"], reverse=not _LOW.search(normalize(p.text)))
            return Answer("table", p.text, value=rows[0]["value"], unit=rows[0]["unit"], table=tuple(rows),
                          citations=tuple(_figure_span(store, r["source"], r["value"]) for r in rows),
                          explanation=f"{p.metric.name} for {p.periods[0]}, one lookup per company{when}; "
                                      f"first: {rows[0]['entity']}")
        entity = entities[0]
        if p.growth:
            then, now = (sorted(p.periods[:2], key=lambda x: parse_label(x).year) if len(p.periods) > 1
                         else (_previous(p.periods[0]), p.periods[0]))
            old, new = _lookup(store, entity, p, then, moment), _lookup(store, entity, p, now, moment)
            growth = (new.value - old.value) / abs(old.value) * 100
            return Answer("fact", p.text, value=growth, unit="%", citations=_cite(store, old) + _cite(store, new),
                          explanation=f"{entity.name} {p.metric.name} grew {growth:.2f}% from {then} "
                                      f"({_money(old.value, old.unit)}, {old.form} {old.source}) to {now} "
                                      f"({_money(new.value, new.unit)}, {new.form} {new.source}){when}")
        f = _lookup(store, entity, p, p.periods[0], moment)
    except NotFound as exc:
        return Answer("unanswerable", p.text, explanation=f"not in the facts: {exc}")
    how = f"derived as {f.formula} from " + ", ".join(
        f"{part['fiscal_period']} ({part['form']} {part['filing_id']})" for part in f.parts) if f.derived else (
        f"reported in {f.form} {f.source}")
    warn = f"; warning: {'; '.join(f.warnings)}" if f.warnings else ""
    return Answer("fact", p.text, value=f.value, unit=f.unit, citations=_cite(store, f),
                  explanation=f"{entity.name} {p.metric.name} ({f.concept}) {f.fiscal_period or p.periods[0]} = "
                              f"{_money(f.value, f.unit)}, {how}, known from {f.accepted_at:%Y-%m-%d %H:%M:%S} "
                              f"UTC{when}{warn}")


# ----------------------------------------------------------------------------------------- text
_NUMBER = re.compile(r"(?<![\w.,])(\d{1,3}(?:\.\d{3})+|\d+)(,\d+)?(?![\w])")


def _first_number(text: str) -> float | None:
    """The first figure in a Spanish-formatted line ('1.234,5' or '0,11 %'), ignoring note marks."""
    m = _NUMBER.search(text)
    return float(m.group(1).replace(".", "") + (m.group(2) or "").replace(",", ".")) if m else None


def _best_line(text: str, query: str) -> str:
    """The line of a passage (a table row, a list item) sharing most words with the query."""
    wanted = set(tokenize(query))
    return max(text.split("\n"), key=lambda line: len(wanted & set(tokenize(line))))


def _has_documents(store: FactStore, entities: list[Entity]) -> bool:
    names = [e.name for e in entities]
    return bool(names) and bool(store.sql("SELECT count(*) AS n FROM documents WHERE kind = 'report' AND "
                                          "list_contains(?, issuer)", [names])["n"][0])


def _passages(hits: list[Any]) -> tuple[Citation, ...]:
    """One citation per span of each hit (a chunk with a note cites the note too), quoting it."""
    out = []
    for h in hits:
        offset = 0
        for start, end in h.spans:
            out.append(Citation(h.doc_id, start, end, h.text[offset:offset + end - start]))
            offset += end - start + 2  # the blank line joining spans in the chunk text
    return tuple(out)


def _from_text(store: FactStore, p: Parsed, moment: datetime | None, k: int) -> Answer:
    filters = {"as_of": moment} if moment else None
    names = [n for e in p.entities for n in (e.members or (e.name,))]
    issuers = set(store.sql("SELECT DISTINCT issuer FROM documents")["issuer"].dropna())
    named = [n for n in names if n in issuers]
    years = sorted({int(label[-6:-2] if "Q" in label or label[-2:] in ("H1", "M9") else label[2:])
                    for label in p.periods})
    if named and years:
        covered = store.sql("SELECT DISTINCT year FROM documents WHERE list_contains(?, issuer)", [named])["year"]
        if not {y + d for y in years for d in (-1, 0, 1)} & set(covered.dropna().astype(int)):
            return Answer("unanswerable", p.text, explanation=(
                f"no document of {', '.join(named)} covers {', '.join(map(str, years))}"))
    if (p.comparison or len(p.entities) > 1 or any(e.members for e in p.entities)) and len(named) > 1:
        rows, cites = [], []
        # each search is filtered to one entity, so the entities' names no longer steer the ranking
        names_words = {w for n in [*names, *(e.name for e in p.entities)] for w in re.findall(r"\w+", normalize(n))}
        query = " ".join(w for w in re.findall(r"\w+", normalize(p.text)) if w not in names_words)
        for issuer in named:
            hits = store.search(query, k=1, strategy="scoped", header=True,
                                filters={**(filters or {}), "issuer": issuer})
            if hits:
                rows.append({"entity": issuer, "doc": hits[0].doc_id, "text": _best_line(hits[0].text, query)})
                cites.extend(_passages(hits[:1]))
        if rows:
            found = f"one filtered search per entity ({len(rows)} of {len(named)} found)"
            figures = [_first_number(r["text"]) for r in rows]
            if all(f is not None for f in figures):  # each row quotes a figure: rank them
                low = bool(_LOW.search(normalize(p.text)))
                rows = sorted(({**r, "figure": f} for r, f in zip(rows, figures, strict=True)),
                              key=lambda r: r["figure"], reverse=not low)
                cites = [c for r in rows for c in cites if c.doc == r["doc"]]
                found += (f"; {'lowest' if low else 'highest'} figure quoted: {rows[0]['entity']} "
                          f"({rows[0]['figure']:g})")
            return Answer("table", p.text, citations=tuple(cites), table=tuple(rows), explanation=found)
    hits = store.search(p.text, k=k, strategy="scoped", header=True, filters=filters)
    if not hits:
        return Answer("unanswerable", p.text, explanation="no passage of the indexed documents matches")
    scope = f" within {', '.join(named)}" if named else ""
    fallback = (" (no facts for this company: answered from its documents)"
                if p.metric and not any(e.has_facts for e in p.entities) and p.entities else "")
    return Answer("passages", p.text, citations=_passages(hits),
                  explanation=f"BM25 over scoped chunks{scope}{fallback}; {len(hits)} passages")
