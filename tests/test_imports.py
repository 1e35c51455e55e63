"""The house's shape: imports point down (engine modules never import the face or its clients), no module
imports another in a cycle (imports under TYPE_CHECKING and inside functions count), and the face is thin."""

from __future__ import annotations

import ast
import inspect
import tomllib
from pathlib import Path

import factstore
from factstore.store import FactStore

PACKAGE = Path(factstore.__file__).parent
FACE = "factstore.store"
# the face's clients: they take a FactStore, as users do; nothing below the face imports them
CLIENTS = ("factstore.__main__", "factstore.cli", "factstore.demo", "factstore.spark", "factstore.evaluate")


def modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        out[".".join(parts).removesuffix(".__init__")] = path
    return out


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that a module imports, anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            found |= {f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names}
    return {m for m in found if m in known and m != name}


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def level(name: str) -> int:
    """2: the face's clients (and the package, which exports the face), 1: the face, 0: the engine."""
    if name == "factstore" or any(name == c or name.startswith(c + ".") for c in CLIENTS):
        return 2
    return 1 if name == FACE else 0


def upward_edges(edges: dict[str, set[str]]) -> list[str]:
    return sorted(f"{a} -> {b}" for a, targets in edges.items() for b in targets if level(b) > level(a))


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    state: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                found.append([*stack[stack.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    return found


def test_no_import_points_up():
    assert upward_edges(graph()) == []


def test_no_import_cycle():
    assert cycles(graph()) == []


def test_the_checks_see_an_upward_edge_and_a_cycle(tmp_path):
    edges = {"factstore.names": {"factstore.store"}, "factstore.store": {"factstore.names"},
             "factstore.cli": {"factstore.store"}}
    assert upward_edges(edges) == ["factstore.names -> factstore.store"]
    assert cycles(edges) == [["factstore.store", "factstore.names", "factstore.store"]]
    # a TYPE_CHECKING import and one inside a function count as edges
    source = tmp_path / "x.py"
    source.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from factstore.store import FactStore\n"
                      "def f():\n    from factstore import cli\n", encoding="utf-8")
    assert imports("factstore.x", source, {"factstore.store", "factstore.cli", "factstore"}) == \
        {"factstore.store", "factstore.cli"}


def test_each_public_method_of_the_face_is_one_call():
    tree = ast.parse(inspect.getsource(FactStore))
    cls = tree.body[0]
    thick = []
    for node in cls.body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
            call = body[0].value if len(body) == 1 and isinstance(body[0], ast.Return | ast.Expr) else None
            if not isinstance(call, ast.Call) and not isinstance(call, ast.Attribute):
                thick.append(node.name)
    assert thick == []


def test_the_question_banks_oracle_imports_nothing_of_ours():
    """factstore/evaluate/bank.py writes questions and their answers from the raw JSON: an oracle that imported the
    engine would agree with it by construction."""
    path = PACKAGE / "evaluate" / "bank.py"
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add("." * node.level + (node.module or ""))
    assert names and not [n for n in names if n.startswith(("factstore", "."))], sorted(names)
    assert {n.split(".")[0] for n in names} <= {"__future__", "argparse", "collections", "csv", "dataclasses",
                                                "datetime", "decimal", "json", "math", "pathlib", "random", "re",
                                                "sys", "typing", "functools", "itertools", "bisect"}, sorted(names)


def test_every_package_is_in_the_wheels_list():
    """pyproject.toml lists the packages the wheel ships; a subpackage left out is missing from an install."""
    listed = set(tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(PACKAGE.parent).parts) for p in PACKAGE.rglob("__init__.py")}
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
