"""factstore: a point-in-time financial facts store.

>>> import factstore
>>> store = factstore.open("store.duckdb")
>>> store.fact("RPS", "Revenues", period="2019Q4", as_of="2020-06-30")
"""

from factstore.errors import FactstoreError, LoadError, NotFound
from factstore.store import Fact, FactStore, LoadReport
from factstore.store import open_store as open
from factstore.text.html import parse_filing

__all__ = ["Fact", "FactStore", "FactstoreError", "LoadError", "LoadReport", "NotFound", "open", "parse_filing"]
__version__ = "0.1.0"
