"""The user's cache folder, where factstore keeps what it makes once and reuses: the demo's generated files and this
version's empty store (factstore.db). $FACTSTORE_CACHE if set, else $XDG_CACHE_HOME/factstore, else
~/.cache/factstore."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "FACTSTORE_CACHE"


def cache_dir() -> Path:
    """The cache folder: $FACTSTORE_CACHE, else $XDG_CACHE_HOME/factstore, else ~/.cache/factstore."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "factstore"
