"""The CLI mirrors the face: every public method of FactStore has a command, unless it is on the explicit list
of what only the library offers (Python objects, plumbing, streaming forms of another command)."""

from __future__ import annotations

import argparse
import inspect

from factstore.cli import build_parser
from factstore.store import FactStore

LIBRARY_ONLY = {
    "con", "relation", "frame", "reading", "schema_digest", "close",  # connections and transactions: Python's
    "apply", "apply_many",  # a loader's Batch object
    "names", "resolve_entities", "dimension_keys", "check_mode",  # objects and checks the engine's callers use
    "panel_arrow", "iter_panel",  # panel as Arrow and as an iterator: `factstore panel` writes the table
    "path", "read_only", "snapshot",  # what the open store is
}
COMMAND = {"load_companyfacts_many": "load companyfacts", "resolve_entity": "resolve", "resolve_concepts": "concepts"}


def commands(parser: argparse.ArgumentParser, prefix: str = "") -> set[str]:
    """Every command path of the parser ('fact', 'load course', ...)."""
    found = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                path = f"{prefix}{name}"
                found |= {path} | commands(sub, path + " ")
    return found


def public_methods() -> set[str]:
    return {name for name, _ in inspect.getmembers(FactStore) if not name.startswith("_")}


def command_for(method: str) -> str:
    return COMMAND.get(method) or method.replace("_", " ")


def test_every_public_method_has_a_command_or_is_library_only():
    known = commands(build_parser())
    missing = sorted(m for m in public_methods() - LIBRARY_ONLY if command_for(m) not in known and m not in known)
    assert missing == []


def test_the_library_only_list_names_real_methods_without_commands():
    known = commands(build_parser())
    assert LIBRARY_ONLY - public_methods() == set()
    assert sorted(m for m in LIBRARY_ONLY if command_for(m) in known) == []


def test_every_command_has_help():
    parser = build_parser()
    stack = [parser]
    while stack:
        p = stack.pop()
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                helps = {a.dest: a.help for a in action._choices_actions}
                assert all(helps.get(name) for name in action.choices), sorted(action.choices)
                stack += list(action.choices.values())
