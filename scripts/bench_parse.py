"""Benchmark factstore.text.html.parse_filing on adversarial pages at growing sizes, against a naive baseline
(BeautifulSoup(html, "lxml").get_text(), which keeps text but finds no blocks or Items).

Shapes, each repeated up to the size asked for:
  items  a heading "Item 1A. Risk Factors" and a paragraph, over and over (the 10-K Item chain search);
  deep   unclosed <div>, <font>, raised <span> and <b> tags, each with a sentence: the page nests as deep as it
         is long (libxml2 builds its own tree 2,048 levels deep at most);
  table  one table of six-cell rows with presentational "$" and ")" cells.

Times are CPU seconds of this process. Linear parsing shows as a time ratio between consecutive sizes
close to their size ratio. "kept" is the share of the baseline's letters and digits that our text keeps
(1.00: nothing lost).

    python scripts/bench_parse.py --max-mb 50
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable

from bs4 import BeautifulSoup

from factstore.text.html import parse_filing

SIZES_MB = (1, 2, 4, 8, 16, 32, 50)
_SENTENCE = "Our results could be harmed by competition, regulation and the economy."


def items(i: int) -> str:
    return f"<p><b>Item 1A. Risk Factors</b></p><p>{_SENTENCE} Risk {i}.</p>\n"


def deep(i: int) -> str:
    tag = ("<div>", "<font size=2>", "<span style='vertical-align:super'>", "<b>")[i % 4]
    return f"{tag}{_SENTENCE} Level {i}.\n"


def table(i: int) -> str:
    return f"<tr><td>Line {i} net sales</td><td>$</td><td>{i:,}</td><td></td><td>({i % 97}</td><td>)</td></tr>\n"


SHAPES: dict[str, tuple[str, Callable[[int], str], str]] = {
    "items": ("<html><body>", items, "</body></html>"),
    "deep": ("<html><body>", deep, "</body></html>"),
    "table": ("<html><body><table>", table, "</table></body></html>"),
}


def page(shape: str, megabytes: float) -> str:
    """A page of the shape, about `megabytes` long."""
    head, unit, tail = SHAPES[shape]
    parts, size, i = [head], len(head) + len(tail), 0
    while size < megabytes * 1_000_000:
        parts.append(unit(i))
        size += len(parts[-1])
        i += 1
    return "".join(parts) + tail


def timed(fn: Callable[[str], str], html: str) -> tuple[float, str]:
    """CPU seconds (this machine's cores are shared: wall time measures the neighbours too) and the text."""
    gc.collect()
    started = time.process_time()
    text = fn(html)
    return time.process_time() - started, text


def ours(html: str) -> str:
    return parse_filing(html).text


def naive(html: str) -> str:
    return BeautifulSoup(html, "lxml").get_text()


def _alnum(text: str) -> int:
    return sum(map(str.isalnum, text))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-mb", type=float, default=8, help="largest page size in MB (default 8)")
    parser.add_argument("--shapes", default=",".join(SHAPES), help=f"comma-separated, of {', '.join(SHAPES)}")
    parser.add_argument("--no-baseline", action="store_true", help="time our parser only")
    args = parser.parse_args()
    sizes = [s for s in SIZES_MB if s <= args.max_mb] or [args.max_mb]
    print(f"{'shape':6} {'MB':>6} {'ours s':>8} {'MB/s':>6} {'size x':>6} {'time x':>6} "
          f"{'naive s':>8} {'MB/s':>6} {'ours/naive':>10} {'kept':>6}")
    for shape in args.shapes.split(","):
        previous: tuple[float, float] | None = None
        for mb in sizes:
            html = page(shape, mb)
            real_mb = len(html.encode()) / 1e6
            seconds, text = timed(ours, html)
            growth = (f"{real_mb / previous[0]:6.2f} {seconds / previous[1]:6.2f}" if previous else f"{'':6} {'':6}")
            previous = (real_mb, seconds)
            line = f"{shape:6} {real_mb:6.1f} {seconds:8.2f} {real_mb / seconds:6.2f} {growth}"
            if not args.no_baseline:
                base_seconds, base_text = timed(naive, html)
                kept = _alnum(text) / max(1, _alnum(base_text))
                line += f" {base_seconds:8.2f} {real_mb / base_seconds:6.2f} {seconds / base_seconds:10.2f} {kept:6.2f}"
            print(line, flush=True)
            del html, text


if __name__ == "__main__":
    main()
