"""The files that ship inside the package: sql/ (factstore.sql) and data/ (factstore.data), found through
importlib.resources so that an installed wheel finds them as an editable install does."""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable

# the table macros (what Spark's executors need beside the tables)
MACRO_SQL = ("ids.sql", "placing.sql", "macros.sql", "panel.sql")
CATALOG_SQL = (*MACRO_SQL, "views.sql")  # the macros and views, over a store's tables or a snapshot's
SQL_FILES = ("schema.sql", *CATALOG_SQL)  # what makes a store, in this order


@cache
def sql_text(name: str) -> str:
    """The text of one of the package's SQL files (e.g. 'schema.sql')."""
    return files("factstore.sql").joinpath(name).read_text(encoding="utf-8")


_DEFINED = re.compile(r"((?:^--[^\n]*\n)+)CREATE OR REPLACE (MACRO|VIEW) (\w+)(.*?)\bAS\b(\s+TABLE\b)?",
                      re.MULTILINE | re.DOTALL)


@cache
def catalog_sql(name: str) -> str:
    """A SQL file of views and macros with each one's comment (the lines above its CREATE) put in the catalog
    (`COMMENT ON`: duckdb_functions() and duckdb_views() show it), so the comment is stated once."""
    comments = []
    for m in _DEFINED.finditer(sql_text(name)):
        text = " ".join(line.removeprefix("--").strip() for line in m.group(1).splitlines()).replace("'", "''")
        kind = "VIEW" if m.group(2) == "VIEW" else "MACRO TABLE" if m.group(5) else "MACRO"
        comments.append(f"COMMENT ON {kind} {m.group(3)} IS '{text}';")
    return sql_text(name) + "\n" + "\n".join(comments)


def data_file(*parts: str) -> Traversable:
    """One of the package's data files (e.g. data_file('eval', 'real_questions.csv'))."""
    return files("factstore.data").joinpath(*parts)


@cache
def statements(name: str) -> dict[str, str]:
    """The named statements of a SQL file of blocks (sql/write.sql): each block starts `-- name: NAME`."""
    blocks = re.split(r"^-- name: (\w+)\n", sql_text(name), flags=re.MULTILINE)[1:]
    return {key: body.strip().rstrip(";") for key, body in zip(blocks[::2], blocks[1::2], strict=True)}
