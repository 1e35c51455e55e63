"""Our inline XBRL reader against an independent oracle (tests/xbrl_oracle.py: the standard library only, written
blind from the specifications by someone who never read factstore/xbrl): every fact of every real inline filing,
duplicates and hidden facts included."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

import pytest

from factstore.xbrl.files import read_body
from tests.real_filings import FILINGS
from tests.xbrl_oracle import inline_facts

INLINE = ["AAPL_10-K_2024-11-01_0000320193-24-000123.html", "AAPL_10-Q_2025-05-02_aapl-20250329.htm",
          "AAPL_10-Q_2025-08-01_Q3FY25.html", "NVDA_10-K_2025-02-26.html", "NVDA_10-Q_2025-08-27.html",
          "GOOGL_10-K_2025-02-05.html", "WFC_10-K_2025-02-25.html"]


def _local(name: str) -> str:
    """A name without its namespace or prefix: '{uri}Name' and 'prefix:Name' are 'Name'."""
    return name.rpartition("}")[2].rpartition(":")[2]


# the Apple 10-Q and Wells Fargo's cover in the default run; the 10-Ks and other 10-Qs under the slow marker
@pytest.mark.parametrize("name", [pytest.param(n, marks=() if n in (INLINE[1], INLINE[6]) else pytest.mark.slow)
                                  for n in INLINE])
def test_every_fact_equals_the_independent_oracles(real, name):
    path = FILINGS / name
    theirs = Counter((f["concept"], f["entity"], f["start"], f["end"],
                      tuple((_local(a), _local(m)) for a, m in f["dims"]), f["unit"], f["value"], f["decimals"],
                      f["id"]) for f in inline_facts(path))
    ours = Counter((f"{{{f.namespace}}}{_local(f.concept)}", (f.context.scheme, f.context.identifier),
                    f.context.start and f.context.start.isoformat(), f.context.end and f.context.end.isoformat(),
                    tuple((_local(a), _local(m)) for a, m in f.context.dims), f.unit,
                    None if f.value is None else Decimal(f.value) if f.numeric else f.value, f.decimals, f.id)
                   for f in read_body(path.read_bytes(), str(path)).facts)
    assert ours == theirs
    assert sum(ours.values()) > 100
