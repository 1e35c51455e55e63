"""Starting is cheap: `import factstore` and the command line's parser (--version, --help, every command's --help)
import none of the heavy libraries, and the lazy names are the real ones. Behaviour, not timing (scripts/startup.py
measures the time)."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys

import factstore
from factstore import cli

HEAVY = {"duckdb", "pandas", "pyarrow", "numpy", "bm25s", "matplotlib", "pyspark", "requests", "lxml", "bs4",
         "scipy", "tqdm"}


def _loaded_after(code: str) -> set[str]:
    """The heavy top-level packages in sys.modules after running code in a fresh interpreter."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & {HEAVY!r})))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return set(json.loads(out.splitlines()[-1]))


def test_import_factstore_imports_nothing_heavy():
    assert _loaded_after("import factstore\nfactstore.__version__\nfactstore.FactstoreError") == set()


def test_the_parser_and_every_help_import_nothing_heavy():
    """--version, --help and the --help of every command and subcommand, in one process."""
    code = """
import argparse, contextlib, io
from factstore.cli import build_parser, main

def commands(parser, prefix=()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield (*prefix, name)
                yield from commands(sub, (*prefix, name))

names = list(commands(build_parser()))
assert len(names) > 20, names
for argv in [["--version"], ["--help"], *([*name, "--help"] for name in names)]:
    with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.suppress(SystemExit):
        main(argv)
    assert out.getvalue(), argv
"""
    assert _loaded_after(code) == set()


def test_the_console_script_answers_version_and_help():
    version = subprocess.run([sys.executable, "-m", "factstore", "--version"], capture_output=True, text=True,
                             check=True).stdout
    assert version.strip() == f"factstore {factstore.__version__}"
    assert "--as-of" in subprocess.run([sys.executable, "-m", "factstore", "fact", "--help"], capture_output=True,
                                       text=True, check=True).stdout


def test_the_parsers_copies_equal_the_originals():
    """cli.py repeats what its parser needs from heavy modules; a change there must reach it."""
    from factstore.evaluate.ask import REAL_DATA
    from factstore.store import MODES
    from factstore.text.chunkers import STRATEGIES

    assert cli.MODES == MODES
    assert cli.REAL_DATA == REAL_DATA
    assert list(STRATEGIES) == cli.STRATEGY_NAMES
    commands = next(a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for name in ("fact", "quarters"):
        assert tuple(next(a for a in commands.choices[name]._actions if a.dest == "mode").choices) == MODES


def test_the_lazy_names_are_the_real_ones():
    from factstore.errors import FactstoreError, LoadError, NotFound
    from factstore.loaders.batch import LoadReport
    from factstore.store import Fact, FactStore, open_store
    from factstore.text.html import parse_filing

    real = {"Fact": Fact, "FactStore": FactStore, "FactstoreError": FactstoreError, "LoadError": LoadError,
            "LoadReport": LoadReport, "NotFound": NotFound, "open": open_store, "parse_filing": parse_filing}
    assert set(factstore.__all__) == set(real)
    for name, value in real.items():
        assert getattr(factstore, name) is value, name
    assert set(real) <= set(dir(factstore))
    from factstore import FactStore as imported
    from factstore import open as opened

    assert imported is FactStore and opened is open_store


def test_names_and_submodules_resolve_after_a_bare_import():
    """In a fresh interpreter: `from factstore import X`, submodules as attributes (factstore.store), and an
    unknown name is an AttributeError / ImportError as for any module."""
    code = """
import factstore
assert factstore.store.FactStore is factstore.FactStore
from factstore import LoadReport, parse_filing
with factstore.open() as store:
    assert store.sql("SELECT 1 AS one")["one"][0] == 1
try:
    factstore.no_such_name
except AttributeError as exc:
    assert "no_such_name" in str(exc)
else:
    raise AssertionError("no AttributeError")
try:
    from factstore import no_such_name  # noqa: F401
except ImportError:
    pass
else:
    raise AssertionError("no ImportError")
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_modules_that_use_a_heavy_library_import_it_only_when_used():
    """pyspark (factstore.spark), bm25s (tokenize's function words), tqdm (progress bars) and matplotlib (the
    retrieval plot) stay out until a function needs them."""
    code = "import factstore.spark, factstore.text.tokenize, factstore.progress, factstore.evaluate.retrieval"
    loaded = _loaded_after(code)
    assert not loaded & {"pyspark", "bm25s", "tqdm", "matplotlib"}, loaded
    assert "bm25s" in _loaded_after("from factstore.text.tokenize import FUNCTION_WORDS")
    assert "tqdm" in _loaded_after("from factstore.progress import progress_bar\nprogress_bar([], progress=False)")


def test_the_lazy_function_words_are_the_eager_ones():
    """tokenize.FUNCTION_WORDS, made on first use (and once), is what the module used to build at import."""
    from bm25s.stopwords import STOPWORDS_EN_PLUS, STOPWORDS_SPANISH

    from factstore.text import tokenize

    words = tokenize.FUNCTION_WORDS
    assert words is tokenize.FUNCTION_WORDS
    assert words == {token for word in (*STOPWORDS_SPANISH, *STOPWORDS_EN_PLUS)
                     for token in re.findall(r"\w+", tokenize.normalize(word))}
    assert {"de", "the", "which", "cual"} <= words
