"""Question understanding, in English and Spanish: which companies or funds, which metric, which
periods, as of when, and whether it asks for a growth or a comparison."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from factstore.names import Entity, Found, Names, acronyms, name_words
from factstore.text import tokenize
from factstore.text.tokenize import normalize
from factstore.vocabulary import Metric

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
_FISCAL = r"(?:fiscal\s+(?:year\s+)?|fy\s*|ejercicio\s+(?:fiscal\s+)?|ano\s+(?:fiscal\s+)?)?"  # "Q4 of fiscal 2025"
_QUARTER_PATTERNS = [
    re.compile(rf"\bq([1-4])\s*(?:of\s+|de\s+|del\s+)?(?:the\s+|el\s+)?{_FISCAL}{_YEAR}\b"),
    re.compile(rf"\b{_YEAR}\s*-?\s*q([1-4])\b"),
    re.compile(rf"\b([1-4])\s*(?:q|t|tr|trim)\s*(?:de\s+|del\s+)?(?:el\s+)?{_FISCAL}{_YEAR}\b"),
    re.compile(rf"\bt([1-4])\s*(?:de\s+|del\s+)?(?:el\s+)?{_FISCAL}{_YEAR}\b"),
    re.compile(rf"\b(first|second|third|fourth|1st|2nd|3rd|4th) (?:fiscal )?quarter {_OF}(?:the\s+)?{_FISCAL}"
               rf"{_YEAR}\b"),
    re.compile(rf"\b(primer|primero|segundo|tercer|tercero|cuarto) trimestre (?:fiscal )?{_OF}(?:el\s+)?{_FISCAL}"
               rf"{_YEAR}\b"),
]
_HALF = [re.compile(rf"\b(?:first half|h1|1h|primer semestre|1s|s1)\s*(?:of\s+|de\s+|del\s+)?(?:fiscal\s+)?{_YEAR}\b"),
         re.compile(rf"\b{_YEAR}\s*h1\b")]
_NINE = re.compile(rf"\b(?:nine months|first nine months|9m|nueve meses|primeros nueve meses)\s*{_OF}{_YEAR}\b")
_FY = [re.compile(rf"\b(?:fy\s*|fiscal\s+(?:year\s+)?|ejercicio\s+(?:fiscal\s+)?|ano\s+fiscal\s+){_YEAR}\b"),
       re.compile(rf"\b{_YEAR}\s+(?:fiscal year|ejercicio fiscal)\b")]
_FY_SHORT = re.compile(r"\bfy\s*'?(\d{2})\b")  # FY25
_CALENDAR = [re.compile(rf"\b(?:calendar\s+(?:year\s+)?|cy\s*|ano\s+(?:natural|calendario|civil)\s+(?:de\s+)?)"
                        rf"{_YEAR}\b"),
             re.compile(rf"\b{_YEAR}\s+(?:calendar year|ano natural|ano calendario)\b")]
_BARE_YEAR = re.compile(rf"\b{_YEAR}\b")
_GROWTH = re.compile(r"\b(grow|grew|growth|increase|increased|rise|rose|change|changed|crecieron|crecio|crecer|"
                     r"crecimiento|aumentaron|aumento|variacion|vario|subieron|subio)\b")
_COMPARE = re.compile(r"\b(lowest|highest|largest|smallest|most|least|best|worst|compare|comparison|versus|vs|"
                      r"mas bajo|mas bajos|mas baja|mas alto|mas altos|mas alta|mayor|menor|compara|comparar|"
                      r"mejor|peor|which of|cual de|entre los|entre las|mas barato|mas barata|mas caro|mas cara)\b")


@dataclass
class Reading:
    """What a question asks."""

    text: str
    entities: list[Entity] = field(default_factory=list)
    ambiguous: list[tuple[str, tuple[Entity, ...]]] = field(default_factory=list)  # a name fitting several
    absent: list[str] = field(default_factory=list)  # companies named that the store does not hold
    unknown: list[str] = field(default_factory=list)  # what looks like a company and is none known: "Acme's", MSFT
    typos: list[tuple[str, Entity]] = field(default_factory=list)  # a slip in a name, and the company taken
    named_as: list[str] = field(default_factory=list)  # the words that named the companies, as written
    metric: Metric | None = None
    periods: list[str] = field(default_factory=list)  # fiscal labels: FY2023, 2019Q4, 2023H1, 2023M9
    as_of: datetime | None = None
    growth: bool = False
    comparison: bool = False
    part: str | None = None  # a part of the company the metric is asked for ('iPhone', 'China'), not its total
    bare_years: tuple[str, ...] = ()  # FY labels read from a bare year ('in 2024'), neither fiscal nor calendar


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
    """Period labels a (normalized) question names, in order of appearance: fiscal (FY2023, 2019Q4, 2023H1,
    2023M9; a bare year is read as the fiscal year of that number) or calendar years (CY2024)."""
    return [label for _, label, _ in _periods(norm)]


def find_bare_years(norm: str) -> tuple[str, ...]:
    """The FY labels read from a bare year ('in 2024'): the question said neither fiscal nor calendar."""
    return tuple(label for _, label, bare in _periods(norm) if bare)


def _periods(norm: str) -> list[tuple[int, str, bool]]:
    found: list[tuple[int, str, bool]] = []
    taken: list[tuple[int, int]] = []

    def add(match: re.Match[str], label: str, bare: bool = False) -> None:
        if not any(s < match.end() and match.start() < e for s, e in taken):
            taken.append((match.start(), match.end()))
            found.append((match.start(), label, bare))

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
    for pattern in _CALENDAR:
        for m in pattern.finditer(norm):
            add(m, f"CY{m.group(1)}")
    for pattern in _FY:
        for m in pattern.finditer(norm):
            add(m, f"FY{m.group(1)}")
    for m in _FY_SHORT.finditer(norm):
        add(m, f"FY20{m.group(1)}")
    for m in _BARE_YEAR.finditer(norm):
        add(m, f"FY{m.group(1)}", bare=True)
    return sorted(found)


def find_entities(question: str, known: Names | Sequence[Entity]) -> Found:
    """The companies or funds a question names, and the names it uses that fit several or none the store
    holds (see factstore.names: the one resolver of names)."""
    return (known if isinstance(known, Names) else Names(known)).find(question)


def _metric_at(words: list[str], metrics: Sequence[Metric]) -> tuple[Metric, int, int] | None:
    """The metric named by the longest synonym among the words, and where it stands (word positions)."""
    best: tuple[int, Metric, int, int] | None = None
    for metric in metrics:
        for word in metric.words:
            want = _words(word)
            for i in range(len(words) - len(want) + 1):
                if words[i:i + len(want)] == want and (best is None or len(word) > best[0]):
                    best = (len(word), metric, i, i + len(want))
                    break
    return best[1:] if best else None


# Words that may stand next to a metric without narrowing it to a part of the company: periods, totals,
# units, the company itself, verbs of reporting. Any other word modifying the metric ('iPhone revenue',
# 'revenue from China', 'data center revenue') names a part.
_NEUTRAL = frozenset({
    "fiscal", "fy", "calendar", "cy", "year", "years", "quarter", "quarters", "quarterly", "annual", "annually",
    "yearly", "half", "semester", "month", "months", "period", "periods", "ended", "ending", "end", "full", "first",
    "second", "third", "fourth", "nine", "six", "three", "twelve", "ttm", "trailing", "ejercicio", "ano", "anos",
    "trimestre", "trimestres", "trimestral", "semestre", "semestral", "anual", "meses", "mes", "periodo", "cerrado",
    "natural", "civil", "primer", "primero", "primera", "segundo", "segunda", "tercer", "tercero", "tercera",
    "cuarto", "cuarta", "nueve", "seis", "doce", "total", "totals", "net", "consolidated", "reported", "overall",
    "entire", "whole", "global", "worldwide", "neto", "neta", "netos", "netas", "consolidado", "consolidada",
    "consolidados", "consolidadas", "totales", "mundial", "reportado", "reportada", "declarado", "company",
    "companys", "firm", "group", "corporation", "corp", "inc", "incorporated", "ltd", "limited", "co", "plc",
    "holdings", "empresa", "compania", "sociedad", "grupo", "firma", "recent", "latest", "last", "previous",
    "prior", "current", "newest", "ultimo", "ultima", "ultimos", "ultimas", "reciente", "recientes", "anterior",
    "actual", "millions", "million", "billions", "billion", "thousands", "thousand", "dollars", "dollar", "usd",
    "twd", "nt", "euros", "currency", "reporting", "dolares", "millones", "miles", "moneda", "value", "figure",
    "amount", "number", "cifra", "importe", "monto", "valor", "statement", "statements", "sheet", "filing",
    "filings", "report", "reports", "form", "informe", "informes", "cuentas", "estado", "estados", "resultados",
    "balance", "gaap", "niif", "ifrs", "basis", "base", "much", "many", "cuanto", "cuanta", "cuantos", "cuantas",
    "grow", "grew", "growth", "increase", "increased", "rise", "rose", "change", "changed", "post", "posted",
    "record", "recorded", "generate", "generated", "earn", "earned", "make", "made", "book", "booked", "show",
    "showed", "crecer", "crecio", "crecieron", "aumento", "aumentaron", "subio", "subieron", "registro", "genero",
    "obtuvo", "tuvo", "reporto", "declaro"
}) | frozenset(_MONTHS)
_PART_WORDS = frozenset({
    "segment", "segments", "segmento", "segmentos", "division", "divisions", "divisiones", "region", "regions",
    "regional", "geographic", "geography", "geographies", "product", "products", "producto", "productos"
})
_PERIOD_TOKEN = re.compile(r"\d+|fy\d{2,4}|cy\d{4}|q[1-4]|[1-4]q|t[1-4]|[1-4]t|h[12]|[12]h|s[12]|9m|\d+(st|nd|rd|th)")
_LEADS = frozenset({
    "from", "in", "of", "for", "by", "at", "within", "across", "de", "del", "en", "por", "para", "desde"
})


def find_part(words: list[str], span: tuple[int, int], own: set[str]) -> str | None:
    """Words naming a part of the company the metric at `span` is asked for: a word modifying it that is
    neither neutral (periods, totals, units...) nor one of `own` (the company's own names), directly before
    it ('iPhone revenue') or first after a preposition following it ('revenue from China'); or a word such
    as 'segment' anywhere. Conservative: an unknown modifier counts as a part."""
    def neutral(word: str) -> bool:
        return word in _NEUTRAL or word in own or bool(_PERIOD_TOKEN.fullmatch(word))

    if any(w in _PART_WORDS for w in words):
        return next(w for w in words if w in _PART_WORDS)
    start, end = span
    before = []
    for word in reversed(words[:start]):
        if word == "s" or (neutral(word) and not before):  # possessive "Apple's", "FY2024 ..."
            continue
        if word in tokenize.FUNCTION_WORDS or neutral(word):
            break
        before.insert(0, word)
    if before:
        return " ".join(before)
    for i in range(end, len(words)):
        if words[i] not in _LEADS:
            continue
        rest = [w for w in words[i + 1:] if w != "s"]
        at = next((j for j, w in enumerate(rest) if w not in tokenize.FUNCTION_WORDS), len(rest))
        after = list(itertools.takewhile(lambda w: w not in tokenize.FUNCTION_WORDS and not neutral(w), rest[at:]))
        if after:
            return " ".join(after)
    return None


def own_words(entities: Sequence[Entity]) -> set[str]:
    """The words a question may use for these companies: the words of their names and aliases, their
    acronyms ('tsmc') and tickers."""
    out: set[str] = set()
    for e in entities:
        for name in (e.name, *e.aliases):
            out |= set(name_words(name)) | {normalize(a) for a in acronyms(name)}
        out |= {normalize(t) for t in e.tickers}
    return out


def parse(question: str, known: Names | Sequence[Entity], metrics: Sequence[Metric]) -> Reading:
    """Read a question in English or Spanish."""
    norm = normalize(question)
    as_of, rest = find_as_of(norm)
    found = find_entities(question, known)
    entities = found.entities
    words = _words(rest)
    at = _metric_at(words, metrics)
    return Reading(text=question, entities=entities, ambiguous=found.ambiguous, absent=found.absent,
                  unknown=found.unknown, typos=found.typos, named_as=found.named_as, metric=at[0] if at else None,
                  periods=find_periods(rest), as_of=as_of, growth=bool(_GROWTH.search(rest)),
                  comparison=bool(_COMPARE.search(rest)),
                  part=find_part(words, at[1:], own_words(entities) | {
                      w for written in found.named_as for w in _words(normalize(written))}) if at else None,
                  bare_years=find_bare_years(rest))
