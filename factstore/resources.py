"""The files that ship inside the package: sql/ (factstore.sql) and data/ (factstore.data), found through
importlib.resources so that an installed wheel finds them as an editable install does."""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable

MACRO_SQL = ("ids.sql", "macros.sql", "panel.sql")  # the table macros (what Spark's executors need beside the tables)
CATALOG_SQL = (*MACRO_SQL, "views.sql")  # the macros and views, over a store's tables or a snapshot's
SQL_FILES = ("schema.sql", *CATALOG_SQL)  # what makes a store, in this order


@cache
def sql_text(name: str) -> str:
    """The text of one of the package's SQL files (e.g. 'schema.sql')."""
    return files("factstore.sql").joinpath(name).read_text(encoding="utf-8")


def data_file(*parts: str) -> Traversable:
    """One of the package's data files (e.g. data_file('eval', 'real_questions.csv'))."""
    return files("factstore.data").joinpath(*parts)


@cache
def statements(name: str) -> dict[str, str]:
    """The named statements of a SQL file of blocks (sql/write.sql): each block starts `-- name: NAME`."""
    blocks = re.split(r"^-- name: (\w+)\n", sql_text(name), flags=re.MULTILINE)[1:]
    return {key: body.strip().rstrip(";") for key, body in zip(blocks[::2], blocks[1::2], strict=True)}
