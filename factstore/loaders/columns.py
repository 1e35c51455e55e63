"""Reading and checking tabular input: every failure names the file, the row and the field."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from factstore.errors import LoadError

_TZ_SUFFIX = r"(?:Z|[+-]\d{2}:?\d{2})$"
_TEXT = pd.StringDtype("pyarrow")


def read_table(data: str | Path | pd.DataFrame, name: str) -> tuple[pd.DataFrame, str]:
    """A DataFrame and the name to report errors under, from a path (.parquet or .csv) or a DataFrame."""
    if isinstance(data, pd.DataFrame):
        return data.reset_index(drop=True), f"<{name} DataFrame>"
    path = Path(data)
    source = str(path)
    if not path.exists():
        raise LoadError(source, "file not found")
    try:
        if path.suffix.lower() == ".csv":
            return pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[""]), source
        return pq.read_table(path).to_pandas(date_as_object=False), source
    except Exception as exc:  # noqa: BLE001 - any reader failure is reported against the file
        raise LoadError(source, f"cannot read: {exc}") from exc


def require(df: pd.DataFrame, columns: list[str], source: str) -> None:
    """Raise naming the first required column that is missing."""
    for column in columns:
        if column not in df.columns:
            raise LoadError(source, f"missing column (have: {', '.join(map(str, df.columns))})",
                            field=column)


def _fail_at(mask: pd.Series, source: str, column: str, message: str, df: pd.DataFrame) -> None:
    if mask.any():
        i = int(mask.to_numpy().nonzero()[0][0])
        raise LoadError(source, f"{message} (got {df[column].iloc[i]!r})", row=i + 1, field=column)


def strings(df: pd.DataFrame, column: str, source: str, *, allowed: set[str] | None = None,
            nullable: bool = False, strip: bool = True) -> pd.Series:
    """A text column, stripped (unless not `strip`: a text that offsets point into); empty (or blank) or
    (optionally) values outside `allowed` are errors."""
    values = df[column].astype(_TEXT)
    stripped = values.str.strip()
    values = stripped if strip else values
    if not nullable:
        _fail_at(stripped.isna() | (stripped == ""), source, column, "missing value", df)
    if allowed is not None:
        bad = values.notna() & ~values.isin(sorted(allowed))
        _fail_at(bad, source, column, f"unknown value; expected one of {sorted(allowed)}", df)
    return values


def numbers(df: pd.DataFrame, column: str, source: str) -> pd.Series:
    """A numeric column; text that is not a number, one a double holds only as 0 ('1e-400'), or a missing value, is
    an error."""
    raw = df[column]
    values = raw if pd.api.types.is_numeric_dtype(raw) else pd.to_numeric(raw, errors="coerce")
    _fail_at(values.isna() & raw.notna(), source, column, "not a number", df)
    if not pd.api.types.is_numeric_dtype(raw):  # text (or Decimal objects): a nonzero digit before any exponent
        mantissa = raw.astype(str).str.lower().str.split("e").str[0]
        _fail_at((values == 0) & mantissa.str.contains("[1-9]", regex=True), source, column,
                 "a number a double holds only as 0", df)
    _fail_at(raw.isna(), source, column, "missing value", df)
    return values.astype("float64")


def dates(df: pd.DataFrame, column: str, source: str, *, nullable: bool = False) -> pd.Series:
    """A date column from ISO strings, dates or timestamps, as datetime64 at midnight."""
    raw = df[column]
    missing = raw.isna()
    if isinstance(raw.dtype, pd.DatetimeTZDtype):
        values = raw.dt.tz_convert("UTC").dt.tz_localize(None)
    elif pd.api.types.is_datetime64_dtype(raw):
        values = raw
    else:
        missing |= raw.astype(_TEXT).str.strip() == ""
        values = pd.to_datetime(raw, errors="coerce", format="mixed")
    _fail_at(values.isna() & ~missing, source, column, "not a date", df)
    if not nullable:
        _fail_at(missing, source, column, "missing value", df)
    return values.dt.normalize().astype("datetime64[us]")


def utc_timestamps(df: pd.DataFrame, column: str, source: str, *, nullable: bool = False) -> pd.Series:
    """A timestamp column that must carry a time zone, as naive UTC datetime64."""
    raw = df[column]
    if isinstance(raw.dtype, pd.DatetimeTZDtype):
        values = raw.dt.tz_convert("UTC").dt.tz_localize(None)
    elif pd.api.types.is_datetime64_dtype(raw):
        _fail_at(raw.notna(), source, column, "timestamp without time zone (expected UTC)", df)
        values = raw
    else:
        text = raw.astype(_TEXT).str.strip()
        present = text.notna() & (text != "")
        _fail_at(present & ~text.str.contains(_TZ_SUFFIX, regex=True).fillna(False), source, column,
                 "timestamp without time zone (expected e.g. 2020-07-30T21:05:00Z)", df)
        values = pd.to_datetime(text.where(present), errors="coerce", utc=True, format="ISO8601")
        _fail_at(values.isna() & present, source, column, "not a timestamp", df)
        values = values.dt.tz_localize(None)
    if not nullable:
        _fail_at(values.isna(), source, column, "missing value", df)
    return values.astype("datetime64[us]")
