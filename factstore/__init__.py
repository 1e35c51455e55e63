"""factstore: a point-in-time financial facts store.

>>> import factstore
>>> store = factstore.open("store.duckdb")
>>> store.fact("RPS", "Revenues", period="2019Q4", as_of="2020-06-30")

`import factstore` is cheap: the names below are imported on first use (PEP 562), so that the command line starts
without DuckDB, pandas, pyarrow and the text and SEC stacks (`factstore --help`). `from factstore import FactStore`
and `factstore.open(...)` work as before; so do submodules reached as attributes (`factstore.store` after a bare
`import factstore`), which are imported when first asked for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from factstore.errors import FactstoreError, LoadError, NotFound

if TYPE_CHECKING:  # what type checkers and IDEs see; at run time __getattr__ imports them
    from factstore.facts import Fact
    from factstore.loaders.batch import LoadReport
    from factstore.store import FactStore
    from factstore.store import open_store as open
    from factstore.text.html import parse_filing

__all__ = ["Fact", "FactStore", "FactstoreError", "LoadError", "LoadReport", "NotFound", "open", "parse_filing"]
__version__ = "0.1.0"

# public name -> (module, name there), imported by __getattr__ on first use
_LAZY = {
    "Fact": ("factstore.facts", "Fact"),
    "FactStore": ("factstore.store", "FactStore"),
    "LoadReport": ("factstore.loaders.batch", "LoadReport"),
    "open": ("factstore.store", "open_store"),
    "parse_filing": ("factstore.text.html", "parse_filing"),
}


def __getattr__(name: str) -> Any:
    """A public name of _LAZY, imported now (and kept, so this runs once per name), or a submodule of factstore."""
    if name in _LAZY:
        module, attribute = _LAZY[name]
        value = getattr(importlib.import_module(module), attribute)
        globals()[name] = value
        return value
    if not name.startswith("_"):
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":  # the submodule exists but something it imports does not
                raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
