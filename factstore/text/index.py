"""The text side of the store: stored documents, their chunks for every strategy in use, the stored BM25 index
of each strategy, and search over it (remembered on the Db, per strategy, until the chunks change)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from factstore.db import Db
from factstore.errors import NotFound
from factstore.progress import progress_bar
from factstore.resolve import entity as entity_key
from factstore.resolve import names
from factstore.text import dense
from factstore.text.blocks import Block, Document, Section
from factstore.text.chunkers import STRATEGIES, chunk, chunk_text, header_for
from factstore.text.postings import index_rows, stored_index
from factstore.text.search import ChunkIndex, Hit, filter_values, ranking
from factstore.text.tokenize import normalize


def document(db: Db, doc_id: str) -> Document:
    """A stored document: its text, sections and blocks (see FactStore.document)."""
    row = db.one("SELECT text FROM documents WHERE doc_id = ?", [doc_id])
    if row is None:
        raise NotFound(f"unknown document {doc_id!r}")
    sections = [Section(h, lv, s, e, p, i, tuple(path or ())) for h, lv, s, e, p, i, path in db.all(
        "SELECT heading, level, start_char, end_char, part, item, path FROM sections WHERE doc_id = ? "
        "ORDER BY section_no", [doc_id])]
    blocks = [Block(k, s, e, sec, tuple(n or ()), m) for k, s, e, sec, n, m in db.all(
        "SELECT kind, start_char, end_char, section_no, notes, note_mark FROM blocks WHERE doc_id = ? "
        "ORDER BY block_no", [doc_id])]
    return Document(text=row[0] or "", sections=sections, blocks=blocks)


def index(db: Db, strategy: str = "scoped", *, size: int | None = None, new_only: bool = False,
          progress: bool | None = None) -> int:
    """Every stored document chunked with a strategy, and its index (see FactStore.index)."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
    if size is not None and size < 1:
        raise ValueError(f"size must be at least 1 character, not {size}")
    docs = db.all("""SELECT doc_id, title FROM documents d WHERE text IS NOT NULL AND NOT (? AND EXISTS (
        SELECT 1 FROM chunks c WHERE c.doc_id = d.doc_id AND c.strategy = ?)) ORDER BY doc_id""",
                     [new_only, strategy])
    frame = chunks_of(db, docs, strategy, size, progress)
    with db.transaction():
        if not new_only:
            db.all("DELETE FROM chunks WHERE strategy = ?", [strategy])
            db.all("DELETE FROM chunk_vectors WHERE strategy = ?", [strategy])
            _drop_index(db, strategy)
        insert_chunks(db, frame)
    forget(db, strategy)
    return len(frame)


def chunks_of(db: Db, docs: list[tuple[str, str | None]], strategy: str, size: int | None = None,
               progress: bool | None = False) -> pd.DataFrame:
    """Rows of the chunks table for stored documents (doc_id, title) chunked with a strategy."""
    rows = []
    for doc_id, title in progress_bar(docs, desc=f"index {strategy}", unit="doc", leave=False,
                                      progress=progress):
        doc = document(db, doc_id)
        for no, c in enumerate(chunk(doc, strategy, size=size)):
            section = " > ".join(doc.sections[c.section].path) if c.section is not None else None
            rows.append((doc_id, strategy, no, [{"start_char": s, "end_char": e} for s, e in c.spans],
                         section, c.kind, header_for(title or doc_id, c), chunk_text(doc, c)))
    return pd.DataFrame(rows, columns=["doc_id", "strategy", "chunk_no", "spans", "section", "kind",
                                       "header", "text"])


def insert_chunks(db: Db, frame: pd.DataFrame) -> None:
    """New chunks (of one strategy, whole documents) and their rows of the strategy's stored BM25 index."""
    if len(frame):
        with db.frame(frame) as name:
            db.all(f"INSERT INTO chunks BY NAME SELECT * FROM {name}")  # name: ours
        _index_chunks(db, str(frame["strategy"].iat[0]), frame)


def _index_chunks(db: Db, strategy: str, frame: pd.DataFrame | pa.Table) -> None:
    """Append chunks (doc_id, header, text: whole documents, each document's chunks in chunk_no order) to the
    strategy's stored BM25 index: their postings and lengths, new terms, and the known terms' counts."""
    rows = index_rows(frame, blank=ranking(strategy).blank)
    first_chunk, first_term = db.one("""SELECT
        (SELECT coalesce(max(chunk_id) + 1, 0) FROM bm25_chunks WHERE strategy = ?),
        (SELECT coalesce(max(term_id) + 1, 0) FROM bm25_terms)""", [strategy])
    terms = pd.DataFrame({"term": rows.terms, "local": np.arange(len(rows.terms)), "df_text": rows.df_text,
                          "df_all": rows.df_all})
    with db.frame(terms) as name:  # name: ours, in the statements below
        db.all(f"""UPDATE bm25_terms t SET df_text = t.df_text + n.df_text, df_all = t.df_all + n.df_all
                      FROM {name} n WHERE t.strategy = ? AND t.term = n.term""", [strategy])
        db.all(f"""INSERT INTO bm25_terms
            SELECT ?, ? + row_number() OVER (ORDER BY local) - 1, term, df_text, df_all
            FROM {name} ANTI JOIN (SELECT term FROM bm25_terms WHERE strategy = ?) USING (term)""",
                  [strategy, first_term, strategy])
        term_id = db.con.execute(f"""SELECT t.term_id FROM {name} n JOIN bm25_terms t ON t.term = n.term
            WHERE t.strategy = ? ORDER BY n.local""", [strategy]).fetchnumpy()["term_id"]
    postings = pd.DataFrame({"term_id": term_id[rows.term], "chunk_id": first_chunk + rows.chunk,
                             "text_tf": rows.text_tf, "header_tf": rows.header_tf})
    with db.frame(postings) as name:
        db.all(f"INSERT INTO bm25_postings SELECT * FROM {name}")  # name: ours
    chunks = pd.DataFrame({"chunk_id": first_chunk + np.arange(len(frame)), "text_len": rows.text_len,
                           "header_len": rows.header_len})
    with db.frame(chunks) as name:
        db.all(f"INSERT INTO bm25_chunks SELECT ?, * FROM {name}", [strategy])  # name: ours
    doc_ids = frame["doc_id"].to_numpy()
    starts = np.flatnonzero(np.concatenate([[True], doc_ids[1:] != doc_ids[:-1]]))
    docs = pd.DataFrame({"doc_id": doc_ids[starts], "first_chunk": first_chunk + starts,
                         "chunks": np.diff(starts, append=len(frame))})
    with db.frame(docs) as name:
        db.all(f"INSERT INTO bm25_docs SELECT ?, * FROM {name}", [strategy])  # name: ours


def _drop_index(db: Db, strategy: str) -> None:
    """Delete a strategy's stored BM25 index."""
    db.all("DELETE FROM bm25_postings WHERE term_id IN (SELECT term_id FROM bm25_terms WHERE strategy = ?)",
              [strategy])
    for table in ("bm25_terms", "bm25_chunks", "bm25_docs"):
        db.all(f"DELETE FROM {table} WHERE strategy = ?", [strategy])  # table: ours


def search(db: Db, query: str, k: int = 5, strategy: str = "structure", filters: dict[str, Any] | None = None,
           *, header: bool = False) -> list[Hit]:
    """BM25 search over a strategy's chunks, best first (see FactStore.search). The remembered index is used only
    while the stored one is unchanged, and both are read in one moment: a load committing meanwhile (another
    thread's) is seen whole by the next search, never half by this one."""
    filters = _companies(db, filters)
    stored, chunks = _stored(db, strategy)
    key = (strategy, header)
    indexes = db.memo.setdefault("indexes", {})
    with db.reading():
        version = db.one("SELECT count(*), coalesce(sum(hash(chunk_id, text_len, header_len)), 0) FROM bm25_chunks "
                         "WHERE strategy = ?", [strategy])
        known = indexes.get(key)
        if known is None or known[0] != version:
            built = _stored_index(db, strategy, header) if stored else _memory_index(db, strategy, header,
                                                                                       stored=chunks)
            known = indexes[key] = (version, built)
        idx = known[1]
        if ranking(strategy).hybrid:
            _with_vectors(db, strategy, idx)
        return idx.scoped_search(query, k, filters) if strategy == "scoped" else idx.search(query, k, filters)


def _with_vectors(db: Db, strategy: str, idx: ChunkIndex) -> None:
    """The strategy's dense vectors read into its index where they changed (all its chunks must have one; the
    encoder is loaded only where some are stored)."""
    stored = db.one("SELECT count(*) FROM chunk_vectors WHERE strategy = ?", [strategy])[0]
    if stored != idx.dense_count:
        idx.dense = dense.matrix(db, strategy, idx.bm25.n_docs) if stored and dense.available() else None
        idx.dense_count = stored


def ranked_by(db: Db, strategy: str) -> str:
    """How a strategy's search ranks now: 'BM25', or 'BM25 and dense vectors, their scores combined'."""
    built = [i for (s, _), (_, i) in db.memo.get("indexes", {}).items() if s == strategy]
    fused = ranking(strategy).hybrid and any(i.dense is not None for i in built)
    return "BM25 and dense vectors, their scores combined," if fused else "BM25"


def embed(db: Db, strategy: str = "scoped", *, progress: bool | None = None) -> int:
    """Dense vectors for a strategy's chunks that have none (see FactStore.embed)."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
    added = dense.embed(db, strategy, progress=progress)
    forget(db, strategy)
    return added


def _companies(db: Db, filters: dict[str, Any] | None) -> dict[str, Any] | None:
    """Filters with `company` (tickers, CIKs or names, as anywhere else) made the doc_ids of those companies'
    documents; a company the store does not hold, or holds no document of, is NotFound, never a search of the
    others' documents. An `issuer` no document has is NotFound too."""
    if not filters:
        return filters
    out = dict(filters)
    if out.get("company") is not None:
        ids, bare = [], []
        for company in filter_values(out.pop("company")):
            docs = [d for (d,) in db.all("SELECT doc_id FROM documents WHERE entity_id = ? OR issuer = ?",
                                         _company_keys(db, company))]
            ids += docs
            bare += [] if docs else [str(company)]
        if bare:
            raise NotFound(f"not in the store: no documents of {', '.join(map(repr, bare))}")
        out["doc_id"] = [d for d in filter_values(out["doc_id"]) if d in ids] if out.get("doc_id") else ids
    else:
        out.pop("company", None)
    if out.get("issuer") is not None:
        held = {normalize(i) for (i,) in db.all("SELECT DISTINCT issuer FROM documents WHERE issuer IS NOT NULL")}
        absent = [i for i in filter_values(out["issuer"]) if normalize(str(i)) not in held]
        if absent:
            raise NotFound(f"not in the store: no documents of issuer {', '.join(map(repr, absent))}")
    return out


def _company_keys(db: Db, company: Any) -> list[Any]:
    """A company's entity_id and (for one known by its documents only) issuer name; NotFound if the store holds
    neither."""
    try:
        return [entity_key(db, company), None]
    except NotFound:
        found = names(db).resolve(company)  # raises NotFound for a company the store does not hold
        return [found.entity_id, found.name]


def _stored(db: Db, strategy: str) -> tuple[bool, bool]:
    """Whether the strategy has a stored index to search, made first where a writable store has none: its chunks
    and index (a store written before indexes were stored has the chunks only); and whether it has chunks.
    Read-only, without one: searched in memory."""
    chunks, indexed = db.one("""SELECT (SELECT count(*) FROM chunks WHERE strategy = ?),
        (SELECT coalesce(sum(chunks), 0) FROM bm25_docs WHERE strategy = ?)""", [strategy, strategy])
    if not chunks and not db.one("SELECT count(*) FROM (SELECT 1 FROM documents WHERE trim(text) <> '' "
                                    "LIMIT 1)")[0]:
        raise NotFound("nothing to search: the store holds no document text (load reports with load_reports, "
                       "filings' documents with load_course(documents=...), load_filing or fetch_filings)")
    if chunks == indexed and chunks:
        return True, True
    if db.read_only:
        return False, bool(chunks)
    if chunks:
        frame = db.relation("SELECT doc_id, header, text FROM chunks WHERE strategy = ? "
                              "ORDER BY doc_id, chunk_no", [strategy]).to_arrow_table()
        with db.transaction():
            _drop_index(db, strategy)
            _index_chunks(db, strategy, frame)
    else:
        index(db, strategy)
    return True, True


def _stored_index(db: Db, strategy: str, header: bool) -> ChunkIndex:
    """The strategy's stored index, its documents' fields and chunk lengths read now (postings when searched)."""
    docs = db.sql("""
        SELECT d.doc_id, d.issuer, d.form, d.year, d.period_end, d.title, d.accepted_at, b.first_chunk, b.chunks
        FROM bm25_docs b JOIN documents d USING (doc_id) WHERE b.strategy = ? ORDER BY d.doc_id""", [strategy])
    lengths = db.con.execute("SELECT chunk_id, text_len, header_len FROM bm25_chunks WHERE strategy = ?",
                               [strategy]).fetchnumpy()
    terms = db.con.execute("SELECT term_id, df_text, df_all FROM bm25_terms WHERE strategy = ? ORDER BY term_id",
                             [strategy]).fetchnumpy()
    return stored_index(docs, lengths, terms, header=header, find=lambda tokens: _bm25_terms(db, strategy, tokens),
                        postings=lambda term_ids: _bm25_postings(db, term_ids),
                        rows=lambda doc_ids, chunk_nos: _chunk_rows(db, strategy, doc_ids, chunk_nos),
                        ranking=ranking(strategy))


def _bm25_terms(db: Db, strategy: str, tokens: list[str]) -> dict[str, int]:
    """The ids of those tokens that are terms of the strategy's stored index."""
    return dict(db.all("SELECT term, term_id FROM bm25_terms WHERE strategy = ? AND term IN (SELECT unnest(?))",
                          [strategy, tokens]))


def _bm25_postings(db: Db, term_ids: np.ndarray) -> dict[str, np.ndarray]:
    """The stored postings of terms, as columns."""
    return db.con.execute("SELECT * FROM bm25_postings WHERE term_id IN (SELECT unnest(?))",
                            [term_ids.tolist()]).fetchnumpy()


def _chunk_rows(db: Db, strategy: str, doc_ids: list[str], chunk_nos: list[int]) -> list[tuple]:
    """The (spans, section, header, text) of chunks (doc_ids[i], chunk_nos[i]), in that order."""
    found = {(d, n): rest for d, n, *rest in db.all("""
        SELECT doc_id, chunk_no, spans, section, header, text FROM chunks
        SEMI JOIN (SELECT unnest(?::VARCHAR[]) AS doc_id, unnest(?::INTEGER[]) AS chunk_no) USING (doc_id, chunk_no)
        WHERE strategy = ?""", [doc_ids, chunk_nos, strategy])}
    return [tuple(found[key]) for key in zip(doc_ids, chunk_nos, strict=True)]


def _memory_index(db: Db, strategy: str, header: bool, *, stored: bool) -> ChunkIndex:
    """An index in memory over the strategy's stored chunks, or over chunks made now (none stored)."""
    select = """
        SELECT c.doc_id, c.chunk_no, c.spans, c.section, c.kind, c.header, c.text,
            d.issuer, d.form, d.year, d.period_end, d.title, d.accepted_at, d.entity_id
        FROM {} c JOIN documents d USING (doc_id) WHERE c.strategy = ?
        ORDER BY c.doc_id, c.chunk_no"""
    if stored:
        chunks = db.sql(select.format("chunks"), [strategy])
    else:
        docs = db.all("SELECT doc_id, title FROM documents WHERE text IS NOT NULL ORDER BY doc_id")
        with db.frame(chunks_of(db, docs, strategy)) as name:
            chunks = db.sql(select.format(name), [strategy])  # name: ours
    return ChunkIndex.from_frame(chunks, header=header, ranking=ranking(strategy))


def forget(db: Db, strategy: str | None = None) -> None:
    """Drop the remembered indexes of a strategy (of every strategy, with None): its chunks changed."""
    indexes = db.memo.get("indexes", {})
    for key in [k for k in indexes if strategy is None or k[0] == strategy]:
        del indexes[key]
