"""What a question names, as the store knows it: entities by ticker, CIK or name; concepts by name; the keys of
dimensional facts. Remembered on the Db until a write (aliases for good: a stored alias never changes)."""

from __future__ import annotations

import difflib

import pandas as pd

from factstore import vocabulary
from factstore.db import Db
from factstore.errors import NotFound
from factstore.loaders.fsds import concept_key, dims_key, segments_dims
from factstore.names import Names, known_entities

TAXONOMY_ORDER = {"us-gaap": 0, "ifrs-full": 1, "dei": 2, "srt": 3}


def _aliases(db: Db) -> dict[str, str]:
    return db.memo.setdefault("aliases", {})  # code -> entity_id as found


def entity(db: Db, entity: str | int) -> str:
    """The entity_id for a ticker, a CIK or a name (see FactStore.resolve_entity)."""
    code = str(entity).strip().upper()
    aliases = _aliases(db)
    if code in aliases:
        return aliases[code]
    row = db.one("SELECT entity_id FROM entity_aliases WHERE alias = ?", [code])
    if row is not None:
        aliases[code] = row[0]
        return row[0]
    found = names(db).resolve(entity)
    if found.entity_id is None:
        raise NotFound(f"{found.name} has documents but no facts in the store")
    return found.entity_id


def entities(db: Db, given: list[str | int]) -> list[str]:
    """entity() for each of many, the codes (tickers, CIKs) looked up in one query."""
    codes = [str(e).strip().upper() for e in given]
    aliases = _aliases(db)
    aliases.update(db.all("SELECT alias, entity_id FROM entity_aliases WHERE list_contains(?, alias)",
                          [[c for c in codes if c not in aliases]]))
    return [aliases.get(code) or entity(db, e) for code, e in zip(codes, given, strict=True)]


def names(db: Db) -> Names:
    """Every company and fund the store can be asked about, by every name it goes by."""
    if "names" not in db.memo:
        db.memo["names"] = Names(known_entities(db))
    return db.memo["names"]


def _concepts_by_name(db: Db) -> dict[str, list[str]]:
    """Qualified concepts by lower-case name and qualified name, taxonomies in TAXONOMY_ORDER."""
    if "concepts" not in db.memo:
        by_name: dict[str, list[str]] = {}
        rows = db.all("SELECT concept, taxonomy, name FROM concepts")
        for qualified, _taxonomy, name in sorted(rows, key=lambda r: (TAXONOMY_ORDER.get(r[1], 9), r[0])):
            by_name.setdefault(name.lower(), []).append(qualified)
            by_name.setdefault(qualified.lower(), []).append(qualified)
        db.memo["concepts"] = by_name
    return db.memo["concepts"]


def concepts(db: Db, concept: str | list[str]) -> list[str]:
    """Qualified concepts for a name or an ordered list of names, dimensions kept (see FactStore.resolve_concepts).
    A qualified name or one with a capital letter is a concept ('us-gaap:Revenues', 'Revenues'); a lower-case
    name is a metric or an SF1 alias first ('revenue', 'net income', 'netinc': data/metrics.csv), its concepts
    in their order, then a concept by name."""
    known = _concepts_by_name(db)
    given = [concept] if isinstance(concept, str) else list(concept)
    if not given:
        raise ValueError("concept: give a concept name or a non-empty list of them")
    out: list[str] = []
    for name in given:
        base, _, dims = name.partition("|")
        suffix = f"|{dims_key(segments_dims(dims, None))}" if dims else ""
        found = _metric_concepts(base.strip()) or known.get(base.strip().lower(), [])
        out.extend(c + suffix for c in found if c + suffix not in out)
    if not out:
        names = [m.name for m in vocabulary.load_metrics()]
        close = difflib.get_close_matches(given[0], [*names, *(k for k in known if ":" in k)], n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise NotFound(f"unknown concept or metric {given[0]!r}{hint}")
    return out


def _metric_concepts(name: str) -> list[str]:
    """A lower-case name's metric concepts (none for a concept name); a metric only derived by a formula is
    refused here: it is no list of concepts."""
    m = vocabulary.as_metric(name)
    if m is None:
        return []
    if not m.concepts:
        raise NotFound(f"metric {m.name} is derived ({m.formula}), not reported under a concept: fact() and "
                       f"fundamentals() compute it")
    return list(m.concepts)


def dimensions(db: Db, given: str | int, concept: str | list[str] | None = None) -> pd.DataFrame:
    """An entity's dimensional facts per concept key (see FactStore.dimensions); of these concepts only, if given."""
    entity_id = entity(db, given)
    qualified = concepts(db, concept) if concept is not None else None
    return db.sql("""
        SELECT concept AS key, split_part(concept, '|', 1) AS concept, split_part(concept, '|', 2) AS dims,
            count(*) AS reports
        FROM reports WHERE entity_id = ? AND contains(concept, '|')
            AND (?::VARCHAR[] IS NULL OR list_contains(?::VARCHAR[], split_part(concept, '|', 1)))
        GROUP BY ALL ORDER BY concept, dims""", [entity_id, qualified, qualified])


def dimension_keys(db: Db, entity_ids: list[str], qualified: list[str], dims: dict[str, str] | None, *,
                   strict: bool = False) -> list[str]:
    """The keys facts of these dimensions are stored under (see FactStore.dimension_keys)."""
    if not dims:
        return qualified
    wanted = [concept_key(c, dims) for c in qualified]
    stored = dict(db.all("""SELECT DISTINCT lower(concept), concept FROM reports
        WHERE entity_id IN (SELECT unnest(?)) AND lower(concept) IN (SELECT lower(unnest(?)))""", [entity_ids, wanted]))
    if strict and not stored:
        have = sorted({d for e in entity_ids for d in dimensions(db, e, qualified)["dims"]})[:12]
        known = f"; its dimensions of {qualified[0]}: {', '.join(have)}" if have else \
            f"; it has no dimensional facts of {qualified[0]} (load FSDS quarters: load_fsds)"
        raise NotFound(f"{', '.join(entity_ids)}: no facts with dims {dims_key(dims)}{known}")
    return [stored.get(w.lower(), w) for w in wanted]
