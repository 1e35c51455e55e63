"""Progress bars for long work: shown on a terminal (progress=None), always (True) or never (False)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tqdm import tqdm


def progress_bar(iterable: Any = None, *, progress: bool | None = None, **options: Any) -> tqdm:
    """A tqdm bar that follows factstore's `progress` argument (tqdm is imported on the first bar)."""
    from tqdm import tqdm

    return tqdm(iterable, disable=None if progress is None else not progress, **options)
