"""The write plan: a loader's Batch checked against what the store holds and written in one transaction. What
is stored already is left as it is, so writing the same batch again adds nothing; SEC data (`stored_wins`)
keeps a stored accession's facts and records a value edited in place as a revision."""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import suppress
from typing import Any

import duckdb
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from factstore import entity_names, versions
from factstore.db import Db
from factstore.errors import LoadError
from factstore.loaders.batch import Batch, LoadReport
from factstore.resources import statements
from factstore.text import index
from factstore.text.parse import parse_rows

SQL = statements("write.sql")  # the rules, stated in sql/write.sql
_BESIDE = ThreadPoolExecutor(1, thread_name_prefix="factstore-beside")  # a query run beside a write
# a batch's entities as the store registers them (ord: their order in the batch)
ENTITY_SCHEMA = pa.schema([("entity_id", pa.string()), ("cik", pa.int64()), ("name", pa.string()),
                           ("tickers", pa.list_(pa.string())), ("other_names", pa.list_(pa.string())),
                           ("ord", pa.int64())])


def apply(db: Db, batch: Batch) -> LoadReport:
    """A Batch written in one transaction (see FactStore.apply)."""
    return _apply(db, [batch], apart=False)[0]


def apply_many(db: Db, batches: list[Batch]) -> list[LoadReport]:
    """Several batches in one transaction, a LoadReport each (see FactStore.apply_many)."""
    return _apply(db, batches, apart=True) if batches else []


def _apply(db: Db, batches: list[Batch], apart: bool) -> list[LoadReport]:
    batch = batches[0].writable() if len(batches) == 1 else Batch.combine(batches)
    with db.transaction():
        added = _write(db, batch)
        versions.refresh(db, _touched(db, batch))
        # nothing else changes what entity_names are made of
        if any(kind in ("entities", "changed") for _, kind in added) or len(batch.documents):
            entity_names.refresh(db)
        parts = [(b, _values(b.entities, "entity_id") | _values(b.filings, "entity_id")) for b in batches] \
            if apart else [(batch, None)]
        reports, loads, ingested = [], [], []
        for part, ids in parts:
            n = Counter()
            for (entity_id, kind), count in added.items():
                if ids is None or entity_id in ids:
                    n[kind] += count
            reports.append(LoadReport(part.source, n["entities"], n["filings"], n["reports"], n["documents"],
                                      revisions=n["revisions"], xbrl_facts=n["xbrl"],
                                      listed=n["listed"]))
            if any(n.values()):
                loads.append((part.kind, "; ".join(sorted(set(part.source_of.values()))) or part.source,
                              n["filings"], n["reports"]))
            ingested += [(item, digest, entity_id, 0 if digest == "" else n["reports"])
                         for item, digest, entity_id in part.ingested]
        if loads:
            with db.frame(pd.DataFrame(loads, columns=["kind", "source", "filings", "reports"])) as name:
                db.all(SQL["insert_loads"].format(frame=name))
        if ingested:
            with db.frame(pd.DataFrame(ingested, columns=["item", "digest", "entity_id", "reports"])) as name:
                db.all(SQL["insert_ingested"].format(frame=name))
    db.forget("concepts", "names", "approximate", "printed")
    return reports


def _write(db: Db, batch: Batch) -> Counter[tuple[str | None, str]]:
    """A batch's rows, checked and written (inside the caller's transaction); what each entity gained:
    (entity_id, 'entities' | 'filings' | 'reports' | 'documents' | 'revisions' | 'xbrl' | 'listed') -> rows
    added, and (entity_id, 'changed') for a stored entity the batch gave new names, tickers or CIK."""
    con = db.con
    added: Counter[tuple[str | None, str]] = Counter()
    con.register("_batch_filings", _arrow(batch.filings))
    distinct = None
    try:
        early = db.one(SQL["early_filing"], [batch.stored_wins]) if len(batch.filings) else None
        if early:
            raise LoadError(early[6] or batch.source, f"accession {early[0]}: a {early[1]} for the period ending "
                            f"{early[2]} cannot be accepted {early[3]:%Y-%m-%d %H:%M:%S} UTC ({early[5]}), before "
                            "its period ended", field="accepted_at")
        # a filing stored before must agree with this batch, except that SEC data leaves it as stored
        clash = None if batch.stored_wins else db.one(SQL["filing_clash"])
        if clash and clash[7]:
            raise LoadError(batch.source_of.get("reports", batch.source),
                            f"filing {clash[0]} is already stored as {clash[3]} of {clash[5]} "
                            f"accepted {clash[1]}; this file says {clash[4]} of {clash[6]} "
                            f"accepted {clash[2]}")
        # whether a filing these facts belong to may have been stored before
        reloading = not batch.stored_wins and (
            clash is not None or not batch.filing_ids() <= _values(batch.filings, "filing_id"))
        # the facts as Arrow, converted once: the check of their keys and the writes read the same table
        reports = _arrow(batch.reports) if len(batch.reports) else batch.reports
        # SEC facts, mostly of accessions new to the store: whether their keys repeat is asked beside the writes
        # below, on another connection (it reads the batch only)
        distinct = _BESIDE.submit(_distinct_keys, db, reports) \
            if batch.stored_wins and isinstance(batch.reports, pa.Table) and len(batch.reports) else None
        all_new = _insert_entities(db, batch.entities, added) if len(batch.entities) else False
        # whether every entity of these facts is new, so that nothing of theirs is stored to conflict with (asked
        # of Arrow facts only: SEC companies, a few distinct values at once)
        new_entities = all_new and isinstance(batch.reports, pa.Table) and \
            _values(batch.reports, "entity_id") <= _values(batch.entities, "entity_id")
        # SEC data: the batch's filings the store holds are weighed against them, those the XBRL feed lists too
        stored, indexed = db.one(SQL["batch_known"]) if batch.stored_wins and len(batch.filings) else (False, False)
        if stored:
            _retime(db, batch)
        inserted = db.all(SQL["insert_filings"])
        for entity_id, n in Counter(row[0] for row in inserted).items():
            added[entity_id, "filings"] += n
        # the XBRL feed's index may list them with a better time, as had it been loaded after them
        listed = indexed and _weigh_listed(
            db, batch, "(SELECT * FROM xbrl_feed WHERE accession IN (SELECT filing_id FROM _batch_filings))")
        fresh = len(inserted) == len(batch.filings) and batch.filing_ids() <= _values(batch.filings, "filing_id")
        # where no key repeats (equal keys hash alike), no filing was stored before and none retimed, the rows are
        # taken as they are
        distinct_keys = distinct.result() if distinct else None  # awaited even where unused: its errors are seen
        plain = fresh and not listed and bool(len(batch.reports)) and (
            distinct_keys if distinct else _distinct_keys(db, reports))
        if len(batch.reports):
            _insert_reports(db, batch, reports, reloading, fresh=fresh, plain=plain, new_entities=new_entities)
            # rows taken as they are (plain) are counted in the batch, others in what was left to add
            added.update({(entity_id, "reports"): n for entity_id, n in (
                _counts(reports, "entity_id") if plain
                else db.all("SELECT entity_id, count(*) FROM _new_reports GROUP BY ALL"))})
            for entity_id, n in db.all("SELECT entity_id, count(*) FROM _revised GROUP BY ALL")\
                    if batch.stored_wins and not fresh else []:
                added[entity_id, "revisions"] += n
        if len(batch.documents):
            for entity_id, n in _insert_documents(db, batch.documents).items():
                added[entity_id, "documents"] += n
        if batch.declared is not None and len(batch.declared):
            con.register("_batch_declared", batch.declared)
            db.all(SQL["insert_declared_years"])
        if batch.approximate is not None and len(batch.approximate):
            con.register("_batch_approximate", batch.approximate)
            db.all(SQL["insert_approximate"])
        if batch.xbrl is not None and len(batch.xbrl):
            con.register("_batch_xbrl", _arrow(batch.xbrl))
            bad = db.one(SQL["implausible_xbrl"])
            if bad:
                raise _implausible(batch.source_of.get("xbrl", batch.source), f"line {bad[0]}", *bad[1:])
            for entity_id, n in Counter(row[0] for row in db.all(SQL["insert_xbrl_facts"])).items():
                added[entity_id, "xbrl"] += n
        if batch.feed is not None and len(batch.feed):
            con.register("_batch_feed", batch.feed)
            early = db.one(SQL["early_feed"])
            if early:
                raise LoadError(batch.source, f"accession {early[0]}: item {early[1]} lists a {early[2]} for the "
                                f"period ending {early[3]} accepted {early[4]} New York, before its period ended",
                                row=early[1], field="edgar:acceptanceDatetime")
            feed = db.one(SQL["feed_clash"])
            if feed:
                raise LoadError(batch.source, f"accession {feed[0]}: item {feed[1]} lists it as CIK {feed[2]}, "
                                f"{feed[3]} for {feed[4]}, accepted {feed[5]} New York; {feed[6]} listed it as CIK "
                                f"{feed[7]}, {feed[8]} for {feed[9]}, accepted {feed[10]} New York",
                                row=feed[1], field=feed[11])
            _weigh_listed(db, batch, "_batch_feed")
            added[None, "listed"] += len(db.all(SQL["insert_xbrl_feed"]))
        if batch.sales is not None and len(batch.sales):
            con.register("_batch_sales", batch.sales)
            db.all(SQL["insert_sales"])
        if len(batch.reports):  # what _insert_reports made: the plain path, no table but its view
            db.all(f"DROP {'VIEW' if plain else 'TABLE'} IF EXISTS _new_reports")  # ours
            if not plain:
                db.all("DROP TABLE IF EXISTS _revised")
                db.all("DROP TABLE IF EXISTS _same")
    finally:
        if distinct is not None:  # no query outlives the load that started it, whatever failed
            wait([distinct])
        for name in ("_batch_filings", "_batch_entities", "_batch_documents", "_batch_sales", "_batch_reports",
                     "_batch_approximate", "_batch_declared", "_batch_concepts", "_batch_xbrl", "_batch_feed"):
            with suppress(duckdb.Error):
                con.unregister(name)
    return added


def _touched(db: Db, batch: Batch) -> set[str]:
    """The entities whose facts, filings or periods a batch may have changed: those it names, and those of the stored
    filings an XBRL feed lists (it may retime them)."""
    ids = set().union(*(_values(frame, "entity_id") for frame in (
        batch.entities, batch.filings, batch.reports, batch.approximate, batch.declared)
        if frame is not None and len(frame)))
    if batch.feed is not None and len(batch.feed):
        ids |= {row[0] for row in db.all("SELECT DISTINCT entity_id FROM filings WHERE list_contains(?, filing_id)",
                                         [list(_values(batch.feed, "accession"))])}
    return ids


def _retime(db: Db, batch: Batch) -> None:
    """SEC data: a stored filing the batch gives a more precise time its evidence allows takes the batch's row, and
    its copies of the time follow; a time of another precision that contradicts the stored one is refused, naming
    both (sql/write.sql retimed)."""
    retimed = db.relation(SQL["retimed"]).to_arrow_table()
    if not retimed.num_rows:  # (a company's next filings, mostly: nothing stored to weigh)
        return
    for row in retimed.to_pylist():
        if not row["fits"]:
            raise LoadError(row["new_source"] or batch.source,
                            f"filing {row['filing_id']} is stored as accepted {row['old_at']:%Y-%m-%d %H:%M:%S} UTC "
                            f"(to the {row['old_precision']}, from {row['old_source']}); this file says "
                            f"{row['new_at']:%Y-%m-%d %H:%M:%S} UTC (to the {row['new_precision']}): they cannot both "
                            "be right", field="accepted_at")
    if any(retimed["better"].to_pylist()):
        db.con.register("_retimed", retimed)
        try:
            db.all(SQL["retime_filings"])
        finally:
            db.con.unregister("_retimed")


def _weigh_listed(db: Db, batch: Batch, listed: str) -> bool:
    """The stored filings the XBRL feed lists (`listed`: the batch's listing, or a query of the index): one it lists
    as another company's or form is refused naming both, and a better time it lists replaces the stored one
    (retimed), whichever was loaded first. Whether it listed any."""
    item = "b.item" if listed == "_batch_feed" else "NULL"
    times = db.relation(SQL["feed_filings"].format(listed=listed)).to_arrow_table()
    if not times.num_rows:  # (it lists none of them: nothing to weigh)
        return False
    clash = db.one(SQL["feed_filing_clash"].format(listed=listed, item=item))
    if clash:
        raise LoadError(batch.source, f"accession {clash[0]}: the XBRL feed lists it as CIK {clash[2]}, {clash[3]}; "
                        f"the store holds it as {clash[4]}'s {clash[5]} (from {clash[6]})", row=clash[1],
                        field=clash[7])
    db.con.register("_batch_filings", times)
    try:
        _retime(db, batch)
    finally:
        db.con.register("_batch_filings", _arrow(batch.filings))
    return True


def _insert_entities(db: Db, entities: pd.DataFrame | pa.Table, added: Counter[tuple[str | None, str]]) -> bool:
    """New entities and their codes; a stored entity gains the batch's tickers and names, its name the latest
    stated (sql/write.sql new_entities). Whether all were new."""
    # registered as Arrow: DuckDB scans lists of names there without converting Python objects each time
    db.con.register("_batch_entities", _entity_table(entities))
    weighed = db.relation(SQL["new_entities"]).to_arrow_table()
    changed = list(zip(weighed["entity_id"].to_pylist(), weighed["new"].to_pylist(), strict=True))
    new = [entity_id for entity_id, is_new in changed if is_new]
    for entity_id, is_new in changed:
        added[entity_id, "entities" if is_new else "changed"] += 1
    all_new = len(new) == len(entities)
    if changed:  # entities stored as the batch has them are left alone (a company's next filing, mostly)
        db.con.register("_entities", weighed)
        try:
            db.all(SQL["insert_new_entities"] if all_new else SQL["insert_entities"])
            db.all(SQL["insert_aliases"])
        finally:
            db.con.unregister("_entities")
    return all_new


def _distinct_keys(db: Db, reports: pa.Table) -> bool:
    """Whether no fact is given twice in the same filing among these rows (by the hash of its key)."""
    with db.frame(reports) as name:
        return not db.one(SQL["keys_repeat"].format(frame=name))[0]


def _insert_reports(db: Db, batch: Batch, reports: pa.Table, reloading: bool, fresh: bool = False, plain: bool = False,
                    new_entities: bool = False) -> None:
    """New facts, checked: one value per fact per filing, and none contradicting what a filing already
    reported (those checks against stored rows run only when a filing was stored before; `fresh`: none of
    the batch's filings was). The rows added stay in _new_reports (and revisions found in _revised) for the
    caller to count: a temp table, or a view of the batch where they are `plain` (to take as they are)."""
    source = batch.source_of.get("reports", batch.source)
    db.con.register("_batch_reports", reports)
    bad = db.one(SQL["implausible_report"])
    if bad:
        raise _implausible(source, batch.row_name(bad[0]), *bad[1:])
    if plain:
        db.all(SQL["plain_reports"])
    else:
        db.all(SQL["grouped_reports"], [batch.stored_wins] * 2)
    twice = not plain and db.one(SQL["given_twice"])
    if twice:
        rows = db.all(SQL["rows_of_fact"], list(twice))
        raise LoadError(source, f"the same fact ({twice[1]} {twice[4]}) is given twice with different "
                        f"values in filing {twice[0]} ({', '.join(batch.row_name(r[0]) for r in rows)})",
                        field="value")
    if batch.stored_wins and not fresh:
        _keep_stored(db, source, fills=batch.fills)
    if reloading:
        db.all(SQL["same_facts"])
    stored = reloading and db.one(SQL["contradicts_stored"])
    if stored:
        raise LoadError(source, f"filing {stored[0]} already reported {stored[1]} for {stored[2]} "
                        f"as {stored[3]}; this file says {stored[4]}", field="value")
    if reloading:
        db.all(SQL["drop_stored_reports"])
    db.all(SQL["insert_reports" if batch.stored_wins else "insert_reports_clustered"])
    db.all(SQL["insert_new_periods"] if new_entities else SQL["insert_periods"])
    # the concepts of the rows added: where they are all a batch's rows, Arrow's dictionary lists them at once
    named = "_new_reports"
    if plain and isinstance(batch.reports, pa.Table):
        db.con.register("_batch_concepts", pa.table({"concept": pc.unique(batch.reports["concept"])}))
        named = "_batch_concepts"
    db.all(SQL["insert_concepts"].format(concepts=named))
    if batch.stored_wins and not batch.fills:  # companyfacts
        db.all(SQL["insert_vintage"])
    if batch.approximate is None:  # a source of exact dates (not FSDS): what FSDS placed approximately is placed anew
        _place_anew(db, source, sorted(_values(reports, "entity_id")))


def _place_anew(db: Db, source: str, entity_ids: list[str]) -> None:
    """What FSDS placed before the store knew the company (per-share values in their currency, facts at calendar
    months), of the batch's entities, placed anew by what the store now knows (sql/write.sql, confirmed_exact to
    approximate_left), as if FSDS had been loaded last."""
    if not db.one(SQL["any_loose"], [entity_ids])[0]:  # (FSDS placed nothing of theirs approximately, mostly)
        return
    db.all(SQL["confirmed_exact"])
    moved = 0
    for steps in (("per_share",), ("loose_facts", "exact_known", "moved")):  # units first: periods are keyed by them
        for name in steps:
            db.all(SQL[name])
        if count := db.one("SELECT count(*) FROM _moved")[0]:
            db.all(SQL["moved_revised"], [source])
            db.all(SQL["moved_dropped"])
            db.all(SQL["moved_placed"])
            moved += count
    if moved:
        for name in ("uncounted_periods", "declared_only", "recounted_periods", "approximate_left"):
            db.all(SQL[name])
    for table in ("_loose", "_exact", "_moved"):
        db.all(f"DROP TABLE {table}")  # ours


def _keep_stored(db: Db, source: str, fills: bool = False) -> None:
    """SEC data: the facts of an accession its entity has loaded before are not loaded again, and a value
    not known before for a fact of it (the SEC edits old filings in place) goes to revisions, learned now,
    never into what as-of queries read. A source that lists filings whole (`fills`: FSDS) adds the facts the
    store has no value for; only a value differing from a stored one of the same fact is a revision. So does
    companyfacts for an accession no companyfacts file listed before (one FSDS or XBRL gave: any order, one store)."""
    loaded = db.one(SQL["loaded_before"], [fills])[0]
    if not loaded:  # nothing of these accessions stored before: nothing revised
        db.all(SQL["no_revisions"])
        db.all("DROP TABLE _loaded")
        return
    db.all(SQL["same_facts"])
    db.all(SQL["revised"], [source, fills])
    db.all(SQL["insert_revisions"])
    db.all(SQL["refined"])
    db.all(SQL["keep_stored"])
    db.all("DROP TABLE _loaded")


def _insert_documents(db: Db, documents: pd.DataFrame) -> Counter[str | None]:
    """New documents with their parsed text, sections and blocks (stored ones are left alone); how many
    each entity gained."""
    stored = {r[0] for r in db.all("SELECT doc_id FROM documents")}
    new = documents[~documents["doc_id"].isin(stored)].drop_duplicates("doc_id").reset_index(drop=True)
    if new.empty:
        return Counter()
    texts, sections, blocks, spans = parse_rows(new)
    db.con.register("_batch_documents", new.assign(text=texts))
    db.all(SQL["insert_documents"])
    for table, frame in (("sections", sections), ("blocks", blocks), ("fact_spans", spans)):
        if len(frame):
            db.con.register("_batch_parts", frame)
            db.all(f"INSERT INTO {table} BY NAME SELECT * FROM _batch_parts")  # table: ours
            db.con.unregister("_batch_parts")
    # an index built before misses nothing: new documents join every strategy that has chunks (default size)
    docs = list(zip(new["doc_id"], new["title"], strict=True))
    for (strategy,) in db.all("SELECT DISTINCT strategy FROM chunks ORDER BY strategy"):
        index.insert_chunks(db, index.chunks_of(db, docs, strategy))
    index.forget(db)
    return Counter(None if pd.isna(e) else e for e in new["entity_id"])


def _implausible(source: str, where: str, value: Any, start: Any, end: Any, bad_value: bool) -> LoadError:
    """The error of a row whose value or period no filing could give (sql/macros.sql implausible_value,
    impossible_period), a value's text cut short."""
    if not bad_value:
        return LoadError(source, f"{where}: {start or ''}..{end} is no period a filing could report (days of 1900 to "
                                 "2199, start <= end)", field="period")
    shown = "missing" if value is None else f"{str(value)[:40]}{'...' if len(str(value)) > 40 else ''}"
    return LoadError(source, f"{where}: {shown} is no value a filing could state (not finite, or nonzero of a size "
                             "outside 1e-12 to 1e18)", field="value")


def _entity_table(entities: pd.DataFrame | pa.Table) -> pa.Table:
    """Entities as an Arrow table of ENTITY_SCHEMA: other names null where not given, ord each one's place."""
    if isinstance(entities, pd.DataFrame):
        frame = entities if "other_names" in entities else entities.assign(other_names=None)
        return pa.Table.from_pandas(frame.assign(ord=range(len(frame)))[ENTITY_SCHEMA.names], ENTITY_SCHEMA,
                                    preserve_index=False)
    n = entities.num_rows
    given = {name: entities[name] if name in entities.column_names else pa.nulls(n, ENTITY_SCHEMA.field(name).type)
             for name in ENTITY_SCHEMA.names[:-1]}
    return pa.table({**given, "ord": pa.array(range(n), pa.int64())}).cast(ENTITY_SCHEMA)


def _arrow(frame: pd.DataFrame | pa.Table) -> pa.Table:
    """A frame as Arrow: DuckDB binds an Arrow scan faster than a pandas one, once per statement reading it."""
    return pa.Table.from_pandas(frame, preserve_index=False) if isinstance(frame, pd.DataFrame) else frame


def _counts(table: pa.Table, column: str) -> list[tuple[Any, int]]:
    """How many rows each value of an Arrow table's column has."""
    return [(c["values"], c["counts"]) for c in pc.value_counts(table[column]).to_pylist()]


def _values(frame: pd.DataFrame | pa.Table, column: str) -> set[Any]:
    """The distinct values of a column of a pandas or Arrow frame."""
    values = frame[column]
    return set(pc.unique(values).to_pylist() if isinstance(values, pa.ChunkedArray) else values)
