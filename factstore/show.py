"""Formatting for people: the text the command line and the demo print for numbers, facts, frames, search hits and
answers. Each function returns the text (the caller prints it); none imports anything heavy until it runs (pandas
for frames only), so the command line can import this module while it builds its parser."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

    from factstore.ask.route import Answer
    from factstore.facts import Fact
    from factstore.text.search import Hit


def number(value: float) -> str:
    """A value for people: thousands separated, small values (per share) with decimals."""
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:,.4g}"


def fact_lines(fact: Fact) -> str:
    """One fact in a few human lines: value, period, provenance (for a derived fact, the figures it rests on)."""
    period = f"{fact.start}..{fact.end}" if fact.start else f"at {fact.end}"
    label = f" {fact.fiscal_period}" if fact.fiscal_period else ""
    lines = [f"{number(fact.value)} {fact.unit}  {fact.concept}{label} ({period})",
             f"  known from {fact.known_since or fact.accepted_at:%Y-%m-%d %H:%M:%S} UTC, first reported in "
             f"{fact.first_form or fact.form} {fact.first_source or fact.source}"]
    if fact.accepted_precision not in (None, "second"):
        lines.append(f"  accepted time known to the {fact.accepted_precision} only")
    if fact.first_source not in (None, fact.source):
        lines.append(f"  last reported in {fact.form} {fact.source} ({fact.accepted_at:%Y-%m-%d %H:%M:%S} UTC)")
    if fact.derived:
        lines.append(f"  derived: {fact.formula}")
        # (a derived quarter's parts are its figures by fiscal label; a derived metric's, its terms by metric)
        lines += [f"    {p.get('fiscal_period') or p.get('metric') or ''} {p['concept']} "
                  f"{p.get('period_start', p.get('start'))}..{p.get('period_end', p.get('end'))} = "
                  f"{number(p['value'])} ({p['form']} {p['filing_id']}, "
                  f"{_moment(p['accepted_at']):%Y-%m-%d %H:%M:%S})" for p in fact.parts]
    if fact.printed:
        p = fact.printed
        lines.append(f"  printed as {p['shown']!r} in {p['doc_id']}, chars {p['start_char']}-{p['end_char']}")
    lines += [f"  warning: {w}" for w in fact.warnings]
    return "\n".join(lines)


def _moment(value: datetime | str) -> datetime:
    return datetime.fromisoformat(value) if isinstance(value, str) else value


def json_text(value: object) -> str:
    """A value as JSON text: times as ISO strings, a missing or infinite number as null (never NaN or Infinity,
    which are not JSON)."""
    import json

    from factstore.timing import json_ready

    return json.dumps(json_ready(value), indent=2, ensure_ascii=False, default=str, allow_nan=False)


def frame(df: pd.DataFrame, as_json: bool = False) -> str:
    """A frame as JSON records (a column of days as ISO dates, a time in UTC with its zone: the store's times are
    UTC), or as a table of up to 500 rows ("(no rows)" for none)."""
    if as_json:
        return _utc_times(df).to_json(orient="records", date_format="iso", default_handler=str)
    if df.empty:
        return "(no rows)"
    import pandas as pd

    with pd.option_context("display.max_rows", 500, "display.max_columns", 50, "display.width", 200):
        return df.to_string(index=False)


def hit_lines(rank: int, hit: Hit) -> str:
    """A search hit in two lines: rank, score, title > section, document and character spans; then its text's
    first 300 characters on one line."""
    spans = ", ".join(f"{s}-{e}" for s, e in hit.spans)
    return (f"{rank}. [{hit.score:.3f}] {hit.title or hit.doc_id} > {hit.section or ''} ({hit.doc_id} chars {spans})\n"
            + "   " + hit.text[:300].replace("\n", " ") + ("..." if len(hit.text) > 300 else ""))


def answer_lines(answer: Answer) -> str:
    """An answer of `ask`: its kind and value, the explanation, its table's rows and every citation (document,
    filing, character span and the quoted text's start)."""
    value = f" = {number(answer.value)} {answer.unit or ''}" if answer.value is not None else ""
    lines = [f"[{answer.kind}]{value}", f"  {answer.explanation}"]
    for row in answer.table:
        lines.append("  | " + " | ".join(f"{k}: {number(v) if isinstance(v, float) else v}" for k, v in row.items()
                                         if k != "text")
                     + (" | " + " ".join(row["text"].split())[:120] + "..." if "text" in row else ""))
    for c in answer.citations:
        filing = f" ({c.form}, accepted {c.accepted_at:%Y-%m-%d %H:%M:%S} UTC)" if c.form and c.accepted_at else ""
        where = f"chars {c.start}-{c.end}" if c.start is not None else "no span (its text is not stored, or lacks it)"
        quote = c.text.replace("\n", " ")
        lines.append(f"  cite {c.doc}{filing} {where}: {quote[:160]}{'...' if len(quote) > 160 else ''}")
    return "\n".join(lines)


def _utc_times(df: pd.DataFrame) -> pd.DataFrame:
    """The frame with each naive time column in UTC, and each column of days alone (every value a midnight) as
    ISO dates."""
    import pandas as pd

    out = df.copy()
    for name in out.columns[[pd.api.types.is_datetime64_any_dtype(t) for t in out.dtypes]]:
        column = out[name]
        if column.dt.tz is not None:
            continue
        if (column.dropna() == column.dropna().dt.normalize()).all():
            out[name] = column.dt.strftime("%Y-%m-%d").astype(object).where(column.notna(), None)
        else:
            out[name] = column.dt.tz_localize("UTC")
    return out
