"""Generate the course's Spanish report corpus (rag6 format).

Writes rag6_documentos.parquet, rag6_pasajes.parquet and rag6_preguntas.csv (see
factstore.demo.reports). Run from the repository root:

    python scripts/generate_report_corpus.py --out data/cache/reports --seed 7
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

try:
    from factstore.demo import reports as demo_reports
except ModuleNotFoundError:  # not installed: use the repository this script lives in
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from factstore.demo import reports as demo_reports


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, generate the corpus, write it and print what was written."""
    parser = argparse.ArgumentParser(description="Generate the course's Spanish report corpus (rag6 files).")
    parser.add_argument("--out", type=Path, default=Path("data/cache/reports"), help="output directory")
    parser.add_argument("--seed", type=int, default=7, help="random seed (default 7)")
    args = parser.parse_args(argv)
    try:
        corpus = demo_reports.generate_reports(seed=args.seed)
    except ValueError as exc:
        parser.error(str(exc))
    frames = {"documents": corpus.documents, "passages": corpus.passages, "questions": corpus.questions}
    by_kind = {"documents": "tipo", "passages": "tipo", "questions": "tipo_pregunta"}
    for key, path in corpus.write(args.out).items():
        counts = frames[key][by_kind[key]].value_counts().sort_index()
        detail = ", ".join(f"{kind} {n}" for kind, n in counts.items())
        print(f"{path}\t{len(frames[key]):,} rows ({detail})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
