"""Generate the course's demo data files.

Writes filings6_documentos.parquet, filings6_xbrl.parquet and acciones6_ventas.csv
(see factstore.demo.data). Run from the repository root:

    python scripts/generate_course_data.py --out data/cache/demo --companies 40
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

try:
    from factstore.demo import data as demo_data
except ModuleNotFoundError:  # not installed: use the repository this script lives in
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from factstore.demo import data as demo_data


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, generate the data set, write it and print what was written."""
    parser = argparse.ArgumentParser(description="Generate the course's demo data files.")
    parser.add_argument("--out", type=Path, default=Path("data/cache/demo"), help="output directory")
    parser.add_argument("--companies", type=int, default=40, help="number of companies (default 40)")
    parser.add_argument("--start-year", type=int, default=2018, help="first fiscal year filed (default 2018)")
    parser.add_argument("--end-year", type=int, default=2023, help="last fiscal year filed (default 2023)")
    parser.add_argument("--seed", type=int, default=7, help="random seed (default 7)")
    parser.add_argument("--extra-concepts", type=int, default=0, help="extra duration line items per filing")
    parser.add_argument("--no-html", action="store_true", help="leave the filings' texto empty")
    args = parser.parse_args(argv)
    try:
        data = demo_data.generate(
            companies=args.companies,
            start_year=args.start_year,
            end_year=args.end_year,
            seed=args.seed,
            extra_concepts=args.extra_concepts,
            html=not args.no_html,
        )
    except ValueError as exc:
        parser.error(str(exc))
    rows = {"documents": len(data.documents), "xbrl": len(data.xbrl), "sales": len(data.sales)}
    for key, path in data.write(args.out).items():
        print(f"{path}\t{rows[key]:,} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
