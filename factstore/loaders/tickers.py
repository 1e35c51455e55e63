"""The SEC's company_tickers.json ({"0": {"cik_str": 320193, "ticker": "AAPL", "title": "Apple Inc."}, ...}) read
into ticker rows for the companies a store holds, so that one known without a submissions file (Snowflake, LPA)
is found by its ticker too."""

from __future__ import annotations

import re

import pandas as pd

from factstore.errors import LoadError
from factstore.loaders.batch import ENTITY_COLUMNS, Batch, sec_entity_id
from factstore.loaders.companyfacts import Json, read_cik, read_json

TICKER = re.compile(r"[A-Z0-9][A-Z0-9.\-/]{0,11}")  # BRK-B, BF.B, 4 digits on some exchanges


def read_tickers(source: Json) -> pd.DataFrame:
    """The (cik, ticker, title) rows of a company_tickers.json; a bad row is a LoadError naming it and its field."""
    data, name = read_json(source, "company_tickers")
    rows = []
    for key, entry in data.items():
        if not isinstance(entry, dict):
            raise LoadError(name, f"entry {key!r} is {type(entry).__name__}, not an object", field=key)
        cik = read_cik(entry.get("cik_str"), f"{name}, entry {key!r}")
        ticker = entry.get("ticker")
        if not isinstance(ticker, str) or not TICKER.fullmatch(ticker.strip().upper()):
            raise LoadError(name, f"entry {key!r}: ticker {ticker!r} is no ticker", field="ticker")
        rows.append((cik, ticker.strip().upper(), str(entry.get("title") or "")))
    return pd.DataFrame(rows, columns=["cik", "ticker", "title"])


def tickers_batch(rows: pd.DataFrame, held: set[str], source: str) -> tuple[Batch, int]:
    """A batch adding the tickers of the companies held (entity ids) to them, and how many rows were of others."""
    rows = rows.assign(entity_id=[sec_entity_id(c) for c in rows["cik"]])
    mine = rows[rows["entity_id"].isin(held)]
    entities = (mine.groupby("entity_id", sort=True).agg(cik=("cik", "first"), tickers=("ticker", list))
                .reset_index().assign(name=None))
    return Batch(source=source, kind="sec", entities=entities[ENTITY_COLUMNS]), len(rows) - len(mine)
