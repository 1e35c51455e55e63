"""The errors factstore raises, each naming what was wrong and where."""

from __future__ import annotations


class FactstoreError(Exception):
    """Base class of factstore's errors."""


class LoadError(FactstoreError, ValueError):
    """Bad input: names the file, the row (1-based data row) or JSON path, and the field."""

    def __init__(self, source: str, message: str, *, row: int | None = None,
                 field: str | None = None) -> None:
        self.source, self.row, self.field, self.reason = source, row, field, message
        where = [source]
        if row is not None:
            where.append(f"row {row}")
        if field is not None:
            where.append(f"field {field!r}")
        super().__init__(f"{', '.join(where)}: {message}")


class NotFound(FactstoreError, LookupError):
    """A question the store cannot answer: unknown entity or concept, or no value known then."""


class Ambiguous(NotFound):
    """A name that fits several companies: never guessed; the candidates are listed."""

    def __init__(self, name: str, candidates: list[str]) -> None:
        self.name, self.candidates = name, candidates
        super().__init__(f"ambiguous: {name!r} could be {', '.join(candidates)}")
