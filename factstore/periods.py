"""Fiscal period labels: FY2019, 2019Q1..2019Q4, 2019H1, 2019M9 on the company's own calendar.

The calendar itself is learned in SQL (`fiscal_years`, `fiscal_facts` in sql/macros.sql); this module
only reads and checks the labels people type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PERIODS = ("quarter", "year", "ttm")  # what a panel's cell holds: the newest quarter, fiscal year or TTM
DIMENSIONS = ("ARQ", "ARY", "ART", "MRQ", "MRY", "MRT")  # fundamentals: as first reported or most recent, Q/Y/T

_LABEL = re.compile(r"^\s*(?:FY\s*(\d{4})|(\d{4})\s*-?\s*(Q[1-4]|H1|M9|9M))\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class FiscalLabel:
    """A parsed fiscal period label."""

    year: int
    part: str  # 'FY', 'Q1'..'Q4', 'H1', 'M9'

    @property
    def label(self) -> str:
        return f"FY{self.year}" if self.part == "FY" else f"{self.year}{self.part}"

    @property
    def quarter(self) -> int | None:
        return int(self.part[1]) if self.part.startswith("Q") else None


def parse_label(text: str) -> FiscalLabel:
    """Read 'FY2019', '2019Q4', '2019-Q4', '2019H1' or '2019M9' (also '2019 9M')."""
    match = _LABEL.match(text)
    if not match:
        raise ValueError(
            f"period {text!r}: expected a fiscal label such as FY2019, 2019Q1..2019Q4, 2019H1 or 2019M9")
    if match.group(1):
        return FiscalLabel(int(match.group(1)), "FY")
    part = match.group(3).upper()
    return FiscalLabel(int(match.group(2)), "M9" if part == "9M" else part)


def period_before(text: str) -> str | None:
    """The fiscal period before a year or quarter (FY2023 for FY2024, 2024Q2 for 2024Q3, 2023Q4 for 2024Q1);
    None for another label or text that is none."""
    try:
        p = parse_label(text)
    except ValueError:
        return None
    if p.part == "FY":
        return f"FY{p.year - 1}"
    if not p.quarter:
        return None
    return f"{p.year - 1}Q4" if p.quarter == 1 else f"{p.year}Q{p.quarter - 1}"
