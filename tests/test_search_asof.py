"""The text search's as_of filter at its edges: a filing is searchable from the second it was accepted; a report
without an acceptance time from 00:00 UTC of 1 January after the year its title names; one naming no year never
(while as_of is given)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pandas as pd
import pytest

import factstore

SECOND = timedelta(seconds=1)
ACCEPTED = datetime(2024, 3, 5, 15, 0, 0)
TEXT = "# Riesgos\n\nEl zafiro azul es el riesgo principal de {name}.\n"


@pytest.fixture(scope="module")
def store():
    reports = pd.DataFrame({"id_doc": ["R2023", "R-undated"], "tipo": ["informe_anual", "nota"],
                            "titulo": ["Acme — Informe anual 2023", "Acme — Nota de prensa"],
                            "texto": [TEXT.format(name="Acme"), TEXT.format(name="Acme")]})
    filing = pd.DataFrame({"id_doc": ["F1"], "ticker": ["ACM"], "emisor": ["Acme"], "tipo": ["10-K"],
                           "periodo_fin": ["2023-12-31"], "texto": ["<p>The zafiro azul risk of Acme.</p>"],
                           "ts_presentacion": [pd.Timestamp(ACCEPTED, tz="UTC")]})
    with factstore.open() as s:
        s.load_reports(reports)
        s.load_course(documents=filing)
        yield s


def found(store, as_of: datetime | None) -> set[str]:
    return {h.doc_id for h in store.search("zafiro azul", k=10, filters={"as_of": as_of} if as_of else None)}


@pytest.mark.parametrize(("as_of", "expected"), [
    (datetime(2023, 12, 31, 23, 59, 59), set()),
    (datetime(2024, 1, 1), {"R2023"}),
    (ACCEPTED - SECOND, {"R2023"}),
    (ACCEPTED, {"R2023", "F1"}),
    (datetime(2099, 1, 1), {"R2023", "F1"}),
    (None, {"R2023", "R-undated", "F1"}),
])
def test_documents_become_searchable_when_they_became_public(store, as_of, expected):
    assert found(store, as_of) == expected
