"""Question understanding, in English and Spanish: which companies or funds, which metric, which
periods, as of when, and whether it asks for a growth or a comparison."""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from difflib import SequenceMatcher
from functools import cache
from pathlib import Path

from factstore.text.tokenize import normalize

METRICS_FILE = Path(__file__).resolve().parents[2] / "data" / "metrics.csv"

_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "primer": 1, "primero": 1, "segundo": 2,
             "tercer": 3, "tercero": 3, "cuarto": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_MONTHS = {"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
           "september": 9, "october": 10, "november": 11, "december": 12, "enero": 1, "febrero": 2,
           "marzo": 3, "abril": 4, "mayo": 5, "junio": 6, "julio": 7, "agosto": 8, "septiembre": 9,
           "setiembre": 9, "octubre": 10, "noviembre": 11, "diciembre": 12}
_MONTH = "|".join(_MONTHS)
_YEAR = r"((?:19|20)\d{2})"
_AS_OF_LEAD = (r"(?:as of|as at|as known on|known on|known at|at the date of|a fecha de|a dia|conocido el|"
               r"conocida el|segun lo conocido el|al)")
_OF = r"(?:of\s+|de\s+|del\s+)?"
_DATE = (rf"(\d{{4}}-\d{{2}}-\d{{2}}(?:[ t]\d{{2}}:\d{{2}}(?::\d{{2}})?)?|\d{{1,2}}/\d{{1,2}}/\d{{4}}"
         rf"|\d{{1,2}} de (?:{_MONTH}) de \d{{4}}|(?:{_MONTH}) \d{{1,2}},? \d{{4}}|\d{{1,2}} (?:{_MONTH}) \d{{4}})")
_AS_OF = re.compile(rf"\b{_AS_OF_LEAD}\s+(?:el\s+|the\s+)?{_DATE}")
_QUARTER_PATTERNS = [
    re.compile(rf"\bq([1-4])\s*(?:of\s+|de\s+|del\s+)?(?:fy\s*)?{_YEAR}\b"),
    re.compile(rf"\b{_YEAR}\s*-?\s*q([1-4])\b"),
    re.compile(rf"\b([1-4])\s*(?:q|t|tr|trim)\s*(?:de\s+|del\s+)?{_YEAR}\b"),
    re.compile(rf"\bt([1-4])\s*(?:de\s+|del\s+)?{_YEAR}\b"),
    re.compile(rf"\b(first|second|third|fourth|1st|2nd|3rd|4th) quarter {_OF}(?:fiscal\s+)?(?:year\s+)?{_YEAR}\b"),
    re.compile(rf"\b(primer|primero|segundo|tercer|tercero|cuarto) trimestre {_OF}(?:ejercicio\s+|ano\s+)?{_YEAR}\b"),
]
_HALF = [re.compile(rf"\b(?:first half|h1|1h|primer semestre|1s|s1)\s*(?:of\s+|de\s+|del\s+)?(?:fiscal\s+)?{_YEAR}\b"),
         re.compile(rf"\b{_YEAR}\s*h1\b")]
_NINE = re.compile(rf"\b(?:nine months|first nine months|9m|nueve meses|primeros nueve meses)\s*{_OF}{_YEAR}\b")
_FY = re.compile(rf"\b(?:fy\s*|fiscal\s+(?:year\s+)?|ejercicio\s+(?:fiscal\s+)?|ano\s+(?:fiscal\s+)?|year\s+){_YEAR}\b")
_BARE_YEAR = re.compile(rf"\b{_YEAR}\b")
_GROWTH = re.compile(r"\b(grow|grew|growth|increase|increased|rise|rose|change|changed|crecieron|crecio|crecer|"
                     r"crecimiento|aumentaron|aumento|variacion|vario|subieron|subio)\b")
_COMPARE = re.compile(r"\b(lowest|highest|largest|smallest|most|least|best|worst|compare|comparison|versus|vs|"
                      r"mas bajo|mas bajos|mas baja|mas alto|mas altos|mas alta|mayor|menor|compara|comparar|"
                      r"mejor|peor|which of|cual de|entre los|entre las|mas barato|mas barata|mas caro|mas cara)\b")


@dataclass(frozen=True)
class Metric:
    """A financial metric people name, and the XBRL concepts to try, in order."""

    name: str
    words: tuple[str, ...]
    concepts: tuple[str, ...]


@dataclass(frozen=True)
class Entity:
    """A company or fund the store knows: by its facts (entity_id) and/or its documents (issuer)."""

    name: str
    entity_id: str | None = None
    tickers: tuple[str, ...] = ()
    has_facts: bool = False
    members: tuple[str, ...] = ()  # for a group (a fund manager): the issuers it stands for


@dataclass
class Parsed:
    """What a question asks."""

    text: str
    entities: list[Entity] = field(default_factory=list)
    metric: Metric | None = None
    periods: list[str] = field(default_factory=list)  # fiscal labels: FY2023, 2019Q4, 2023H1, 2023M9
    as_of: datetime | None = None
    growth: bool = False
    comparison: bool = False


@cache
def load_metrics(path: Path = METRICS_FILE) -> tuple[Metric, ...]:
    """The synonym table: words (either language) to an ordered list of concepts (read once)."""
    with open(path, encoding="utf-8") as f:
        return tuple(Metric(r["metric"], tuple(normalize(w) for w in r["words"].split(";") if w),
                       tuple(c for c in r["concepts"].split(";") if c)) for r in csv.DictReader(f))


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text)


def _read_date(text: str) -> datetime:
    text = text.strip()
    if m := re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", text):
        return datetime(int(m[3]), int(m[2]), int(m[1]))
    if m := re.fullmatch(rf"(\d{{1,2}}) de ({_MONTH}) de (\d{{4}})", text):
        return datetime(int(m[3]), _MONTHS[m[2]], int(m[1]))
    if m := re.fullmatch(rf"({_MONTH}) (\d{{1,2}}),? (\d{{4}})", text):
        return datetime(int(m[3]), _MONTHS[m[1]], int(m[2]))
    if m := re.fullmatch(rf"(\d{{1,2}}) ({_MONTH}) (\d{{4}})", text):
        return datetime(int(m[3]), _MONTHS[m[2]], int(m[1]))
    return datetime.fromisoformat(text.replace(" t", "T").replace("t", "T"))


def find_as_of(norm: str) -> tuple[datetime | None, str]:
    """The moment a question is asked as of ('as of 2020-09-30', 'a fecha de 30/09/2020'), and the
    question without it (so its year is not taken for a period)."""
    match = _AS_OF.search(norm)
    if not match:
        return None, norm
    return _read_date(match.group(1)), norm[:match.start()] + " " + norm[match.end():]


def find_periods(norm: str) -> list[str]:
    """Fiscal labels a (normalized) question names, in order of appearance."""
    found: list[tuple[int, str]] = []
    taken: list[tuple[int, int]] = []

    def add(match: re.Match[str], label: str) -> None:
        if not any(s < match.end() and match.start() < e for s, e in taken):
            taken.append((match.start(), match.end()))
            found.append((match.start(), label))

    for pattern in _QUARTER_PATTERNS:
        for m in pattern.finditer(norm):
            a, b = m.group(1), m.group(2)
            quarter, year = (b, a) if len(a) == 4 else (a, b)
            add(m, f"{year}Q{_ORDINALS.get(quarter, quarter)}")
    for pattern in _HALF:
        for m in pattern.finditer(norm):
            add(m, f"{m.group(1)}H1")
    for m in _NINE.finditer(norm):
        add(m, f"{m.group(1)}M9")
    for m in _FY.finditer(norm):
        add(m, f"FY{m.group(1)}")
    for m in _BARE_YEAR.finditer(norm):
        add(m, f"FY{m.group(1)}")
    return [label for _, label in sorted(found)]


def find_entities(question: str, norm: str, known: list[Entity]) -> list[Entity]:
    """Companies or funds named by ticker (as written, upper case), by name (accents and case ignored;
    the first half of a long name suffices) or by a close misspelling of the name."""
    words = _words(norm)
    raw_words = set(re.findall(r"\b[A-Z][A-Z0-9.]{1,5}\b", question))
    out: list[Entity] = []
    for entity in known:
        tokens = _words(normalize(entity.name))
        if not tokens:
            continue
        need = tokens if len(tokens) <= 2 else tokens[:max(2, len(tokens) // 2)]
        exact = any(words[i:i + len(need)] == need for i in range(len(words) - len(need) + 1))
        close = not exact and any(
            SequenceMatcher(None, " ".join(words[i:i + len(need)]), " ".join(need)).ratio() >= 0.85
            for i in range(len(words) - len(need) + 1) if len(" ".join(need)) >= 5)
        if exact or close or raw_words & set(entity.tickers):
            out.append(entity)
    # a name inside a longer matched name (e.g. a manager inside a fund's name) is not named on its own
    return [e for e in out if not any(o is not e and normalize(e.name) in normalize(o.name) for o in out)]


def find_metric(norm: str, metrics: Sequence[Metric]) -> Metric | None:
    """The metric named by the longest synonym found in the question."""
    spaced = " " + " ".join(_words(norm)) + " "
    best: tuple[int, Metric] | None = None
    for metric in metrics:
        for word in metric.words:
            if f" {' '.join(_words(word))} " in spaced and (best is None or len(word) > best[0]):
                best = (len(word), metric)
    return best[1] if best else None


def parse(question: str, known: list[Entity], metrics: Sequence[Metric]) -> Parsed:
    """Read a question in English or Spanish."""
    norm = normalize(question)
    as_of, rest = find_as_of(norm)
    return Parsed(text=question, entities=find_entities(question, rest, known), metric=find_metric(rest, metrics),
                  periods=find_periods(rest), as_of=as_of, growth=bool(_GROWTH.search(rest)),
                  comparison=bool(_COMPARE.search(rest)))
