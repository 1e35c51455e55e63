#!/usr/bin/env bash
# The wheel works on its own: build it, install it with its dependencies into a fresh virtual environment in a
# temporary folder, and from an empty working folder (nothing of the checkout on the path) check that
#   - the wheel holds every tracked module of factstore/ and the package data (sql/*.sql, data/*.csv, data/*.txt,
#     data/eval/*.csv, data/eval/*.jsonl as factstore/sql/, factstore/data/): a package left out of pyproject.toml's list fails here;
#   - factstore is imported from the new environment's site-packages, and every one of its modules imports there
#     (its declared dependencies suffice; factstore.spark without the optional pyspark);
#   - import factstore and factstore --help import none of the heavy libraries;
#   - factstore --version names the project's version, and factstore demo runs to its end, its answers as
#     expected, generating its files into $FACTSTORE_CACHE (not into site-packages).
#
#   scripts/check_wheel.sh            # with .venv/bin/python (the repository's venv); PYTHON=... for another
#   KEEP=1 scripts/check_wheel.sh     # keep the temporary folder (printed) to look into
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
python=${PYTHON:-$repo/.venv/bin/python}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/factstore-wheel.XXXXXX")
if [[ -z ${KEEP:-} ]]; then trap 'rm -rf "$tmp"' EXIT; else echo "check_wheel: keeping $tmp"; fi
step() { echo "check_wheel: $* ($SECONDS s)"; }
unset PYTHONPATH FACTSTORE_DB FACTSTORE_CACHE
project_version=$("$python" -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')

step "building the wheel"
# from a copy of the tree's files (tracked, or new and not ignored): setuptools reuses ./build/, whose files of an
# earlier build would otherwise go into the wheel (a package dropped from pyproject.toml's list would still ship)
mkdir "$tmp/src"
git ls-files -z --cached --others --exclude-standard | tar --null -T - --ignore-failed-read -cf - 2> /dev/null \
    | tar -xf - -C "$tmp/src"
"$python" -m pip wheel -q --no-deps -w "$tmp/dist" "$tmp/src"
wheel=$(echo "$tmp"/dist/factstore-*.whl)
test -f "$wheel"

step "checking $(basename "$wheel") holds every module and data file"
git ls-files 'factstore/*.py' 'sql/*.sql' 'data/*.csv' 'data/*.txt' 'data/eval/*.csv' 'data/eval/*.jsonl' > "$tmp/tracked"
"$python" - "$wheel" "$tmp/tracked" <<'EOF'
import sys
import zipfile

wheel, tracked = sys.argv[1], sys.argv[2]
held = set(zipfile.ZipFile(wheel).namelist())
wanted = {path if path.startswith("factstore/") else f"factstore/{path}" for path in open(tracked).read().split()}
missing = sorted(wanted - held)
if missing or not wanted:
    sys.exit(f"check_wheel: the wheel lacks {len(missing)} of {len(wanted)} files: {', '.join(missing[:20])}")
print(f"  {len(wanted)} modules and data files, all in the wheel")
EOF

step "installing it and its dependencies into a fresh environment"
"$python" -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install -q "$wheel"
mkdir "$tmp/work"
cd "$tmp/work"  # an empty folder: nothing of the checkout can be imported from here
py=$tmp/venv/bin/python

step "importing factstore, its parser and each of its modules from the environment"
"$py" - "$tmp/venv" "$repo" <<'EOF'
import importlib
import pkgutil
import sys
from pathlib import Path

venv, repo = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
import factstore  # noqa: E402

heavy = {"duckdb", "pandas", "pyarrow", "numpy", "bm25s", "matplotlib", "pyspark", "requests", "lxml", "bs4"}
loaded = heavy & {m.split(".")[0] for m in sys.modules}
where = Path(factstore.__file__).resolve()
print(f"  factstore {factstore.__version__} from {where}")
if not where.is_relative_to(venv) or "site-packages" not in where.parts or where.is_relative_to(repo):
    sys.exit(f"check_wheel: factstore imported from {where}, not from {venv}'s site-packages")
if loaded:
    sys.exit(f"check_wheel: import factstore imported {', '.join(sorted(loaded))}")
from factstore.cli import build_parser  # noqa: E402

build_parser().format_help()
loaded = heavy & {m.split(".")[0] for m in sys.modules}
if loaded:
    sys.exit(f"check_wheel: the command line's parser imported {', '.join(sorted(loaded))}")
# every module but __main__ (it runs the command line)
names = sorted(m.name for m in pkgutil.walk_packages(factstore.__path__, "factstore.")
               if m.name != "factstore.__main__")
for name in names:
    importlib.import_module(name)
for name in factstore.__all__:
    getattr(factstore, name)
print(f"  {len(names)} modules import; the public names resolve")
EOF
version=$("$tmp/venv/bin/factstore" --version)
[[ $version == "factstore $project_version" ]] || {
    echo "check_wheel: --version said '$version', not 'factstore $project_version'"; exit 1; }
"$tmp/venv/bin/factstore" --help > /dev/null

step "running factstore demo from $tmp/work"
FACTSTORE_CACHE=$tmp/cache "$tmp/venv/bin/factstore" demo > demo.out 2> demo.err || {
    echo "check_wheel: factstore demo failed:"; tail -30 demo.out demo.err; exit 1; }
for expected in "demo data: $tmp/cache/demo-40" "course reference (acciones6_ventas.csv)" "derived: FY - 9M" \
                "as of 2020-" "mixed basis" "Rapsa's discrete quarters" "[fact] read as: Rapsa, revenue, FY2021" \
                "Rapsa revenue changed" "[table] read as: Gestora Atalaya" "one filtered search per entity" \
                "factstore eval retrieval --documents $tmp/cache/reports/"; do
    grep -qF -- "$expected" demo.out || {
        echo "check_wheel: the demo's output lacks '$expected':"; cat demo.out; exit 1; }
done
for made in demo-40/filings6_xbrl.parquet demo-40/filings6_documentos.parquet demo-40/acciones6_ventas.csv \
            reports/rag6_documentos.parquet reports/rag6_pasajes.parquet reports/rag6_preguntas.csv; do
    test -s "$tmp/cache/$made" || { echo "check_wheel: the demo did not write $tmp/cache/$made"; exit 1; }
done
site=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
if [[ -e $site/data ]]; then echo "check_wheel: something wrote $site/data"; exit 1; fi
test -s demo.duckdb
echo "  $(wc -l < demo.out) lines of demo output, as expected"
step "the wheel works"
