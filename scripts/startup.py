"""How long factstore takes to start: each command run in a fresh subprocess, several times; median and min.

    python scripts/startup.py              # 7 runs of each command
    python scripts/startup.py --runs 15 --modules

Commands: `python -c pass` (the interpreter's own start, for scale), `python -c "import factstore"`,
`factstore --version`, `factstore --help` and `factstore fact --help` (the console script beside this
interpreter, else `python -m factstore`). The first run of each is a warm-up (bytecode written, files in the page
cache) and is not counted. --modules adds how many modules each command ends with and which of the heavy ones
(duckdb, pandas, ...) are among them. Goals: --version and --help within 0.3 s, import factstore within 0.5 s.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

HEAVY = ("duckdb", "pandas", "pyarrow", "numpy", "bm25s", "matplotlib", "pyspark", "requests", "lxml", "bs4")

# a command's modules, reported at exit by the process itself (--modules)
_REPORT = ("import atexit, sys\n"
           "atexit.register(lambda: print('MODULES', len(sys.modules), *sorted({m.split('.')[0] for m in sys.modules} "
           f"& {set(HEAVY)!r}), file=sys.stderr))\n")


def commands() -> dict[str, tuple[list[str], str]]:
    """The commands timed, by label: the command line, and the same as Python code (to count its modules)."""
    script = Path(sys.executable).with_name("factstore")
    cli = [str(script)] if script.exists() else [sys.executable, "-m", "factstore"]
    found = {"python -c pass": ([sys.executable, "-c", "pass"], "pass"),  # the interpreter alone, for scale
             "import factstore": ([sys.executable, "-c", "import factstore"], "import factstore")}
    for args in (["--version"], ["--help"], ["fact", "--help"]):
        code = f"import sys\nsys.argv = ['factstore', *{args!r}]\nfrom factstore.cli import main\nmain()\n"
        found[" ".join(["factstore", *args])] = ([*cli, *args], code)
    return found


def timed(argv: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def modules(code: str) -> str:
    """The number of modules loaded at exit by the code, and the heavy ones among them."""
    done = subprocess.run([sys.executable, "-c", _REPORT + code], capture_output=True, text=True)
    line = next((x for x in done.stderr.splitlines() if x.startswith("MODULES ")), "MODULES ?")
    _, count, *heavy = line.split()
    return f"{count:>7}  {' '.join(heavy) or '-'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each command (default 7)")
    parser.add_argument("--modules", action="store_true", help="also report the modules each command loads")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]} ({sys.executable}), {args.runs} runs each after one warm-up")
    header = f"{'command':<24} {'median s':>9} {'min s':>7}"
    header += "  modules  heavy modules loaded" if args.modules else ""
    print(header)
    print("-" * len(header))
    for label, (argv, code) in commands().items():
        timed(argv)
        times = [timed(argv) for _ in range(args.runs)]
        row = f"{label:<24} {statistics.median(times):>9.3f} {min(times):>7.3f}"
        print(row + (f"  {modules(code)}" if args.modules else ""), flush=True)


if __name__ == "__main__":
    main()
