"""The on-disk cache of raw SEC responses: every payload is written here before anything parses it."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

from factstore.errors import FactstoreError

_SEGMENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def safe_path(url_path: str) -> str:
    """An SEC URL path checked segment by segment (names come from SEC JSON, so never trust '..')."""
    parts = url_path.strip("/").split("/")
    if not parts or not all(_SEGMENT.match(p) for p in parts):
        raise FactstoreError(f"refusing unexpected SEC path {url_path!r}")
    return "/" + "/".join(parts)


class ResponseCache:
    """Raw responses under `root`, at the path the SEC serves them from (the two hosts' paths never clash)."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def path_for(self, url_path: str) -> Path:
        return self.root / safe_path(url_path).lstrip("/")

    def read(self, url_path: str) -> bytes | None:
        path = self.path_for(url_path)
        return path.read_bytes() if path.is_file() else None

    def write(self, url_path: str, body: bytes, url: str) -> Path:
        """Keep a payload (atomically: a crash never leaves half a file) with a sidecar saying where and when."""
        path = self.path_for(url_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".{path.name}.{os.getpid()}.part")
        partial.write_bytes(body)
        os.replace(partial, path)
        meta = {"url": url, "fetched_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "bytes": len(body)}
        path.with_name(path.name + ".meta.json").write_text(json.dumps(meta))
        return path

    def quarantine(self, url_path: str) -> Path:
        """Move a payload that failed to parse aside, keeping it, so the next read fetches afresh."""
        path = self.path_for(url_path)
        kept = path.with_name(f"{path.name}.bad-{time.strftime('%Y%m%dT%H%M%S', time.gmtime())}-{time.time_ns()}")
        os.replace(path, kept)
        return kept
