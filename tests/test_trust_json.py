"""Every JSON output is JSON: a missing or infinite number is null, never NaN or Infinity (issue #44, item 16)."""

from __future__ import annotations

import json
import math
from datetime import datetime

import pytest

import factstore
from factstore.cli import main
from factstore.show import json_text
from tests.samples import course_store_file


def _strict(text: str):
    """JSON as the standard has it: NaN, Infinity and -Infinity are not values."""
    def refuse(constant: str):
        raise AssertionError(f"{constant} is not JSON")
    return json.loads(text, parse_constant=refuse)


def test_json_text_writes_null_for_numbers_that_are_not_finite():
    value = {"a": math.nan, "b": [math.inf, -math.inf, 1.5], "c": (datetime(2020, 1, 2, 3, 4, 5), None)}
    assert _strict(json_text(value)) == {"a": None, "b": [None, None, 1.5], "c": ["2020-01-02T03:04:05+00:00", None]}


@pytest.fixture
def nan_store(tmp_path):
    """A store whose FY2019 revenue is NaN: written by a factstore before the write plan refused such values."""
    path = course_store_file(tmp_path)
    with factstore.open(path) as store:
        store.sql("UPDATE reports SET value = 'nan'::DOUBLE WHERE value = 420", write=True)
        assert math.isnan(store.fact("RPS", "Revenues", period="FY2019").value)
    return path


@pytest.mark.parametrize("command", [
    ["fact", "RPS", "Revenues", "--period", "FY2019", "--json"],
    ["history", "RPS", "Revenues", "--json"],
    ["sql", "SELECT 'nan'::DOUBLE AS a, 'inf'::DOUBLE AS b, -'inf'::DOUBLE AS c", "--json"],
])
def test_a_number_that_is_not_finite_prints_as_null(nan_store, capsys, command):
    capsys.readouterr()
    assert main([*command, "--db", str(nan_store)]) == 0
    printed = _strict(capsys.readouterr().out)
    rows = printed if isinstance(printed, list) else [printed]
    assert any(None in row.values() for row in rows)


def test_ask_json_is_json(nan_store, capsys):
    capsys.readouterr()
    main(["ask", "What was Rapsa's revenue in fiscal 2019?", "--json", "--db", str(nan_store)])
    answer = _strict(capsys.readouterr().out)
    assert answer["question"].startswith("What was Rapsa")


def test_the_apis_dicts_are_json_as_they_are(nan_store):
    """Fact.to_dict() and Answer.to_dict() are ready for json.dumps itself: times as ISO text, NaN as None."""
    with factstore.open(nan_store, read_only=True) as store:
        fact = store.fact("RPS", "Revenues", period="FY2019")
        answer = store.ask("What was Rapsa's revenue in fiscal 2019?")
        for value in (fact.to_dict(), answer.to_dict()):
            assert _strict(json.dumps(value, allow_nan=False)) == value
