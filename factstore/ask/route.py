"""Routing and answers: a question that names a company with facts, a metric and a period (or a date: the
latest period known then) goes to the facts, except one asking for a part of the company ('iPhone revenue'),
which the company totals never answer; everything else to the BM25 index, within the documents of the
companies it names (all documents when it names none) and the years it names. Every answer cites its
sources; what the data cannot answer (an empty question, a name fitting several companies, a company the
store lacks) is said to be unanswerable, with the reason."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

import pandas as pd

from factstore import resolve
from factstore.ask.parse import Entity, Reading, changes_figure, describe_period, names_text, parse
from factstore.errors import NotFound
from factstore.facts import printed
from factstore.metrics import Figure, figure, metric_named, previous
from factstore.text import index
from factstore.text.glossary import english
from factstore.text.search import filter_values
from factstore.text.tokenize import normalize, tokenize
from factstore.timing import as_of_timestamp, json_ready
from factstore.vocabulary import Metric, load_metrics

if TYPE_CHECKING:
    from factstore.db import Db
    from factstore.text.search import Hit

_LOW = re.compile(r"\b(lowest|smallest|least|worst|mas bajo|mas bajos|mas baja|menor|peor)\b")


@dataclass(frozen=True)
class Citation:
    """A source: a document id and character offsets into the text the store keeps for it (None when
    the figure could not be found in the filing's text, or the store does not keep it), and the quoted text;
    for a filing a number is cited to, its form and acceptance time (UTC)."""

    doc: str
    start: int | None
    end: int | None
    text: str = ""
    form: str | None = None
    accepted_at: datetime | None = None
    company: str | None = None  # a passage's: the issuer its document names


@dataclass(frozen=True)
class Answer:
    """An answer: kind 'fact', 'passages', 'table' or 'unanswerable', with its citations."""

    kind: str
    question: str
    value: float | None = None
    unit: str | None = None
    citations: tuple[Citation, ...] = ()
    explanation: str = ""
    table: tuple[dict[str, Any], ...] = ()
    as_of: datetime | None = None
    parsed: dict[str, Any] = field(default_factory=dict, repr=False)
    parts: tuple[dict[str, Any], ...] = ()  # the reported figures a number rests on, each with its first filing

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready fields: dates and times as ISO strings, a time in UTC with its zone."""
        return json_ready(asdict(self))


MAX_QUESTION = 2_000  # characters: a question, not a document (the work of parsing grows with its length)


def ask(db: Db, question: str, *, as_of: Any = None, k: int = 5) -> Answer:
    """Answer a question from the facts or the text index (see the module docstring). A question never
    raises: what cannot be answered is 'unanswerable' with the reason (an unexpected error too). A bad
    `as_of` argument is the caller's error and raises ValueError."""
    moment = as_of_timestamp(as_of) if as_of is not None else None
    try:
        return _answer(db, question, moment, k)
    except NotFound as exc:  # what the store cannot answer from, said as it is (e.g. no text to search)
        return Answer("unanswerable", question, explanation=str(exc), as_of=moment)
    except Exception as exc:  # the last resort, beside the causes fixed where they arise
        return Answer("unanswerable", question, explanation=f"error while answering: {type(exc).__name__}: {exc}",
                      as_of=moment)


def _answer(db: Db, question: str, moment: datetime | None, k: int) -> Answer:
    if not isinstance(question, str) or not question.strip():
        return Answer("unanswerable", str(question or ""), explanation="empty question", as_of=moment)
    if len(question) > MAX_QUESTION:
        return Answer("unanswerable", question, explanation=f"a question of {len(question):,} characters: ask in at "
                      f"most {MAX_QUESTION:,} (documents go into the store, not into a question)", as_of=moment)
    p = _predecessor_with_facts(db, _one_with_facts(db, parse(question, resolve.names(db), load_metrics()), moment),
                                moment)
    given = moment is not None  # a moment the caller gave is always a bound; one the question says may be a date
    if moment is None and p.at_filing:
        moment = _filing_moment(db, p)
    moment = moment or p.as_of
    p = _same_period(db, p, moment)
    answer = (_unnamed(p) or _unread(p) or _other_weeks(db, p, moment) or _other_months(db, p, moment)
              or _balance_or_moment(db, p))
    with_facts = [e for e in p.entities if e.has_facts]
    if answer is None and p.restatement and p.metric and with_facts:
        answer = _versions(db, p, with_facts)
    # 'why did revenue rise in FY2024?' asks for the reasons, which the text gives, not for the figure
    if answer is None and _asks_facts(p) and not p.unread and not _EXPLAINS.search(p.text) and with_facts \
            and len(with_facts) == len(p.entities):
        answer = _from_facts(db, p, with_facts, moment)
    if answer is None or (answer.kind == "unanswerable" and p.entities and not p.part and not p.unread
                          and _has_documents(db, p.entities) and not _known_later(db, p, with_facts)):
        text = _from_text(db, p, moment, k, given=given)
        if answer is not None and text.kind != "unanswerable":  # the facts lack it, the documents may not
            text = replace(text, explanation=f"{answer.explanation}; {text.explanation}")
        answer = text if answer is None or text.kind != "unanswerable" else answer
        if p.metric and p.unread and answer.kind != "unanswerable":
            answer = replace(answer, explanation=f"no figure: {' '.join(p.unread)!r} asks about more than the "
                                                 f"{p.metric.name}, answered from the text; {answer.explanation}")
    read_as = "; ".join([f"read {written!r} as {e.name}" for written, e in p.typos] + p.notes)
    explanation = "; ".join(filter(None, [p.line(moment), answer.explanation, read_as]))
    return replace(answer, explanation=explanation, as_of=moment, parsed=p.to_dict())


def explain(db: Db, question: str) -> Reading:
    """How a question is read, without answering it."""
    return parse(question, resolve.names(db), load_metrics())


def _filing_moment(db: Db, p: Reading) -> datetime | None:
    """'at the time of the 10-K': the acceptance of the first filing of that form reporting the period asked (its
    period of report ending with the period); None when none is known (the question is then refused)."""
    if not p.entities or not p.periods or not p.entities[0].entity_id:
        return None
    try:
        f = figure(db, p.entities[0].entity_id, p.metric, p.periods[0], None) if p.metric else None
    except NotFound:
        return None
    if f is None:
        return None
    row = db.sql("SELECT min(accepted_at) AS at FROM filings WHERE entity_id = ? AND form IN (?, ? || '/A') "
                 "AND period_end = ?", [p.entities[0].entity_id, p.at_filing, p.at_filing, f.end])
    at = row["at"][0]
    return None if at is None or pd.isna(at) else pd.Timestamp(at).to_pydatetime()


def _has_figure(db: Db, e: Entity, p: Reading, periods: list[str | None], moment: datetime | None) -> bool:
    """Whether a company has the metric asked for every one of these periods (None: the newest), as known at the
    moment."""
    if not e.has_facts:
        return False
    try:
        for period in periods:
            figure(db, e.entity_id, p.metric, period, moment or p.as_of, p.mode)
    except NotFound:
        return False
    return True


def _one_with_facts(db: Db, p: Reading, moment: datetime | None) -> Reading:
    """A name fitting several filers ('Marvell Technology': the predecessor and the successor) is taken for the one
    that has facts for the metric and period asked, when only one has; the answer says so. Otherwise it stays
    ambiguous, listing the candidates."""
    if not p.ambiguous or not p.metric or not (p.periods or p.as_of or moment):
        return p
    entities, taken, still = list(p.entities), [], []
    for written, candidates in p.ambiguous:
        fit = [e for e in candidates if _has_figure(db, e, p, p.periods[:1] or [None], moment)]
        if len(fit) == 1:
            entities.append(fit[0])
            taken.append((written, fit[0], candidates))
        else:
            still.append((written, candidates))
    if not taken:
        return p
    notes = [f"{written!r} fits {', '.join(c.label for c in candidates)}; only {e.label} has {p.metric.name} for "
             f"the period asked" for written, e, candidates in taken]
    return replace(p, entities=entities, ambiguous=still, named_as=p.named_as + [w for w, _, _ in taken],
                   notes=p.notes + notes)


def _predecessor_with_facts(db: Db, p: Reading, moment: datetime | None) -> Reading:
    """A curated alias names the successor ('Google': Alphabet); where it has no figure for the metric and periods
    asked and one predecessor filer of that name has (GOOGLE INC., 2009), the predecessor is taken, said so."""
    if not p.predecessors or not p.metric or not p.periods:
        return p
    entities, notes = list(p.entities), list(p.notes)
    for written, successor, before in p.predecessors:
        if successor not in entities or _has_figure(db, successor, p, p.periods, moment):
            continue
        fit = [e for e in before if _has_figure(db, e, p, p.periods, moment)]
        if len(fit) == 1:
            entities[entities.index(successor)] = fit[0]
            notes.append(f"{written!r} names {successor.label}, which has no {p.metric.name} for the period asked; "
                         f"its predecessor {fit[0].label} has")
    return replace(p, entities=entities, notes=notes)


def _same_period(db: Db, p: Reading, moment: datetime | None) -> Reading:
    """Two periods named for one figure that are one ('1H FY2025 (six months ended March 29, 2025)') are read as the
    label, where every company asked has the figure for both and both name the same days; otherwise both stay, and
    the question is refused (see _unread). A growth 'in Q4 FY2025 (quarter ended Sep 27, 2025)' is the growth of
    that one quarter, never the change from it to itself."""
    if len(p.periods) != 2 or not p.metric or not p.entities or any(not e.has_facts for e in p.entities):
        return p
    for e in p.entities:
        try:
            a, b = (_lookup(db, e, p, period, moment) for period in p.periods)
        except NotFound as exc:
            return p if p.growth else replace(p, notes=p.notes + [f"not one period for {e.name}: {exc}"])
        if (a.start, a.end) != (b.start, b.end):  # a growth between two periods, or two periods asked: refused
            return p if p.growth else replace(p, notes=p.notes + [
                f"not one period for {e.name}: {describe_period(a.period)} is {a.start or ''}..{a.end}, "
                f"{describe_period(b.period)} {b.start or ''}..{b.end}"])
    label, other = sorted(p.periods, key=lambda period: period.startswith(("END:", "TTMEND:")))
    return replace(p, periods=[label], notes=p.notes + [f"{label} and {describe_period(other)} are one period"])


def _other_weeks(db: Db, p: Reading, moment: datetime | None) -> Answer | None:
    """'unanswerable' where the period asked is not as many weeks long as the question says ('the 14-week quarter'
    of a 13-week one): the question and the facts name two periods."""
    if not p.weeks or len(p.periods) != 1 or not p.metric:
        return None
    for e in (e for e in p.entities if e.has_facts):
        try:
            f = _lookup(db, e, p, p.periods[0], moment)
        except NotFound:
            return None  # refused later, saying why
        days = (f.end - f.start).days + 1 if f.start is not None else 0
        if days != 7 * p.weeks:
            return Answer("unanswerable", p.text, explanation=(
                f"{e.name} {f.period} is {f'{days} days ({f.start}..{f.end})' if days else f'a balance at {f.end}'}, "
                f"not {p.weeks} weeks as asked"))
    return None


def _other_months(db: Db, p: Reading, moment: datetime | None) -> Answer | None:
    """'unanswerable' where the period asked does not run the months the question says ('Q4 FY2025 (noviembre de
    2024 a enero de 2025)'), within a week at each end: the question and the facts name two periods."""
    if not p.months or len(p.periods) != 1 or not p.metric:
        return None
    first, last = p.months
    for e in (e for e in p.entities if e.has_facts):
        try:
            f = _lookup(db, e, p, p.periods[0], moment)
        except NotFound:
            return None  # refused later, saying why
        if f.start is None or abs((f.start - first).days) > 7 or abs((f.end - last).days) > 7:
            return Answer("unanswerable", p.text, explanation=(
                f"{e.name} {f.period} runs {f.start or ''}..{f.end}, not {first:%B %Y} to {last:%B %Y} as asked"))
    return None


def _unread(p: Reading) -> Answer | None:
    """'unanswerable' for a question the facts would answer (a figure, and a period or moment) with words no part
    of the reading took that could change the figure: a figure for another question is never given in its place
    (see _asks_the_text for the questions about a figure that go to the text instead). Without a period or moment
    no figure is given: the question goes to the text ('How dependent is Alphabet on ad revenue?'), as does one
    asking which company (no figure is given without one)."""
    if p.asks_which and not p.entities:
        return None
    if p.unread and p.metric and (p.periods or p.as_of) and not _asks_the_text(p):
        return Answer("unanswerable", p.text, explanation=f"could not read {' '.join(p.unread)!r}: those words could "
                      f"change which figure is asked, and no part of the question takes them")
    if len(p.periods) > 1 and p.metric and not p.growth:
        return Answer("unanswerable", p.text, explanation=f"names {len(p.periods)} periods "
                      f"({', '.join(p.periods)}): ask for one (or for the growth from one to the other)")
    return None


def _asks_the_text(p: Reading) -> bool:
    """Whether a question with unread words asks the text, not for a figure: it asks why or how, it names what the
    text describes (a program, a plan: names_text), or it says three
    words or more that no figure takes and none that could change one ('what share of sales went through its
    stores, carriers and resellers'), or TEXT_WORDS words or more whatever they are (a question about more than
    a figure: 'how much deferred revenue ..., and over what timeframe does it expect to recognize it'). One
    unknown word beside a figure is a qualifier ('like-for-like revenue'): refused."""
    said = len(set(p.unread))
    return (bool(_EXPLAINS.search(p.text)) or said >= TEXT_WORDS or names_text(p.unread)
            or (not changes_figure(p.unread) and said >= 3))


TEXT_WORDS = 5  # unread words that make a question one for the text, not for a figure (see _asks_the_text)


def _versions(db: Db, p: Reading, entities: list[Entity]) -> Answer:
    """'Was ... ever restated?': every version of the figure, each with its filing, and whether it changed."""
    entity, period = entities[0], p.periods[0] if p.periods else None
    try:
        f = figure(db, entity.entity_id, p.metric, period, None)
    except NotFound as exc:
        return Answer("unanswerable", p.text, explanation=f"not in the facts: {exc}")
    keys = sorted({part.concept for part in f.parts})
    versions = db.sql("""
        SELECT concept, unit, period_start, period_end, value, filing_id, form, accepted_at FROM report_versions
        WHERE entity_id = ? AND list_contains(?, concept) AND period_end = ? AND unit = ?
          AND period_start IS NOT DISTINCT FROM ?
        ORDER BY filing_order(accepted_at, form, filing_id)""", [entity.entity_id, keys, f.end, f.unit, f.start])
    rows = tuple({"entity": entity.name, "concept": r.concept, "value": float(r.value), "unit": r.unit,
                  "start": r.period_start.isoformat() if r.period_start is not None and not pd.isna(r.period_start)
                  else None, "end": r.period_end.isoformat(), "source": r.filing_id, "form": r.form,
                  "accepted_at": pd.Timestamp(r.accepted_at).isoformat()} for r in versions.itertuples())
    values = list(dict.fromkeys(round(r["value"], 6) for r in rows))
    said = (f"restated {len(values) - 1} time(s): " + " -> ".join(_money(v, f.unit) for v in values)
            if len(values) > 1 else f"never restated: every one of {len(rows)} filings gives {_money(f.value, f.unit)}")
    return Answer("table", p.text, value=f.value, unit=f.unit, table=rows, citations=_cite(db, f),
                  parts=tuple(pt.to_dict() for pt in f.parts),
                  explanation=f"{entity.name} {p.metric.name} {f.period} ({f.start or ''}..{f.end}) was {said}")


def _balance_or_moment(db: Db, p: Reading) -> Answer | None:
    """'unanswerable' for a balance asked 'as of' a day the company has a balance at, and no period: the day may be
    the balance's date or the moment it is known, two different figures ('total assets as of December 31, 2024':
    the year-end balance, filed in February, or the September one known on December 31)."""
    if not (p.as_of_or_date and p.metric and p.metric.statement == "balance" and not p.periods and p.as_of
            and p.as_of == datetime.combine(p.as_of.date(), datetime.min.time())):
        return None
    day = p.as_of.date().isoformat()
    for e in (e for e in p.entities if e.has_facts):
        try:
            dated = _lookup(db, e, p, f"END:instant:{day}", None)
        except NotFound:
            continue
        try:
            known = _lookup(db, e, p, None, p.as_of)
            then = f"; as known on {day}, the newest was {_money(known.value, known.unit)} at {known.end}"
        except NotFound:
            then = f"; none was known on {day}"
        return Answer("unanswerable", p.text, explanation=(
            f"'as of {day}' may be the balance's date or the moment it is known: {e.name} {p.metric.name} at {day} "
            f"is {_money(dated.value, dated.unit)}, known from {dated.known_since:%Y-%m-%d %H:%M:%S} UTC{then}; ask "
            f"'at {day}' for the balance, or 'as known on {day}' for what was known then"))
    return None


def _unnamed(p: Reading) -> Answer | None:
    """'unanswerable' when the question's words or names cannot be read: no words at all, a name fitting
    several companies, or companies the store does not hold named (where no held one is, or to compare); a figure
    of no company named, unless the question asks which company it is (the text answers that)."""
    why = None
    if not re.search(r"\w", p.text):
        why = "no recognizable words in the question"
    elif p.ambiguous:
        why = "ambiguous: " + "; ".join(f"{', '.join(e.label for e in found)} (all named {written!r})"
                                        for written, found in p.ambiguous)
    elif p.absent and (not p.entities or p.comparison):
        why = f"not in the store: {', '.join(p.absent)}"
    elif p.unknown and not p.entities:
        why = f"not in the store: no company known as {', '.join(repr(u) for u in p.unknown)}"
    elif p.metric and (p.periods or p.as_of) and not p.entities and not p.asks_which:
        why = ("names no company the store holds" + (f" (could not read {' '.join(p.unread)!r})" if p.unread else "")
               + ": a figure is given only for a company named")
    return Answer("unanswerable", p.text, explanation=why) if why else None


# ----------------------------------------------------------------------------------------- facts
def _asks_facts(p: Reading) -> bool:
    """Whether the facts may answer: a metric with concepts or a formula, and a period or a moment named in the
    question (then the latest period known at that moment)."""
    return bool(p.metric and (p.metric.concepts or p.metric.formula) and (p.periods or p.as_of))


def _known_later(db: Db, p: Reading, entities: list[Entity]) -> bool:
    """Whether the facts hold the asked figures at all (then an as-of miss is 'not yet known', not a
    reason to search the documents instead). A part of the company is never in them."""
    if p.part:
        return False
    try:
        for e in entities:
            for period in p.periods or [None]:
                _lookup(db, e, p, period, None)
    except NotFound:
        return False
    return True


_SPAN_SCALES = (1e6, 1e3, 1.0)  # filings print money and share counts in millions, thousands or units


def _renderings(value: float, unit: str) -> list[str]:
    """How a filing prints a figure: '391,035' (millions), '391,035,000' (thousands) or in full, else rounded to
    a tenth of a million ('573.4'); '6.08' per share. The sign is left out (a loss prints as '(885)')."""
    v = abs(value)
    if "/" in unit:
        return [f"{v:,.2f}"]
    exact = [f"{v / s:,.0f}" for s in _SPAN_SCALES if v >= s and abs(v / s - round(v / s)) < 1e-6]
    return [*exact, f"{v / 1e6:,.1f}"] if v >= 1e5 else exact or [f"{v:,.2f}"]


_FIGURE_EDGE = re.compile(r"(?<![\d,.])({})(?![\d]|[.,]\d)")


def _figure_span(text: str, value: float, unit: str, labels: tuple[str, ...]) -> tuple[int, int, str] | None:
    """Where a filing's text prints a figure: its first rendering on a line naming the metric (a label), else
    its first rendering of five digits or more anywhere; a loss's parentheses are kept. None when absent."""
    fallback = None
    for form in _renderings(value, unit):
        for m in re.finditer(_FIGURE_EDGE.pattern.format(re.escape(form)), text):
            start, end = _loss(text, *m.span(1), value)
            line = normalize(text[text.rfind("\n", 0, start) + 1:start])
            if any(label in line for label in labels):
                return start, end, text[start:end]
            if fallback is None and sum(c.isdigit() for c in form) >= 5:
                fallback = (start, end, text[start:end])
    return fallback


def _loss(text: str, start: int, end: int, value: float) -> tuple[int, int]:
    """A figure's span, with the parentheses that print it as a loss where its value is negative."""
    if value < 0 and text[start - 1:start] == "(" and text[end:end + 1] == ")":
        return start - 1, end + 1
    return start, end


def _cite(db: Db, f: Figure) -> tuple[Citation, ...]:
    """One citation per part: the filing that first reported its current value, with the figure's span in
    that filing's text where the store keeps it: its inline XBRL tag's where the filing was loaded with it,
    else the figure found in the text."""
    docs = sorted({part.filing_id for part in f.parts})
    texts = dict(db.sql("SELECT doc_id, text FROM documents WHERE list_contains(?, doc_id)", [docs]
                           ).itertuples(index=False))
    out = []
    for part in dict.fromkeys(f.parts):
        metric = metric_named(part.metric)
        text = texts.get(part.filing_id) or ""
        tagged = printed(db, [(part.filing_id, part.cited_concept)], part.unit, part.start, part.end) if text else None
        if tagged:
            start, end = _loss(text, tagged["start_char"], tagged["end_char"], part.cited_value)
            span = start, end, text[start:end]
        else:
            span = _figure_span(text, part.cited_value, part.unit, metric.labels or metric.words) if text else None
        start, end, quote = span or (None, None, "")
        out.append(Citation(part.filing_id, start, end, quote, form=part.form,
                            accepted_at=part.accepted_at.to_pydatetime().replace(tzinfo=None)))
    return tuple(out)


def _lookup(db: Db, entity: Entity, p: Reading, period: str | None, moment: datetime | None) -> Figure:
    metric = _part_metric(db, entity, p) if p.part else p.metric
    f = figure(db, entity.entity_id, metric, period, moment, p.mode)
    if p.currency and f.unit.split("/")[0] != p.currency:
        raise NotFound(f"{metric.name} {f.period} is reported in {f.unit}, not in {p.currency} as asked (figures are "
                       f"never converted between currencies)")
    mixed = [n for n in f.notes if n.startswith("mixed basis")]
    if mixed:  # a quarter derived from a restated year and a nine months as first reported is neither basis
        raise NotFound(f"{metric.name} {f.period} would be derived from parts on different bases ({mixed[0]}): it is "
                       f"no figure on either basis; ask for the year and the nine months apart, or as first reported")
    return f


_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def _member_words(member: str) -> list[str]:
    """A member's words ('GreaterChinaSegment' -> greater, china), without a trailing 'segment'."""
    words = [w.lower() for w in _CAMEL.findall(member)]
    return words[:-1] if len(words) > 1 and words[-1] in ("segment", "member") else words


_COUNTRIES = {"usa": ("us", "usa", "united states")}  # a part the parser reads as one word: its members' names


_OPERATING = "ConsolidationItems=OperatingSegments"  # beside a segment: its own figure, before eliminations


def _part(dims: str) -> str | None:
    """The one axis and member of dimensions that name a part ('ProductOrService=IPhone'; a segment's own figure,
    'BusinessSegments=GraphicsSegment;ConsolidationItems=OperatingSegments', is its segment's), else None."""
    axes = [d for d in dims.split(";") if d != _OPERATING]
    return axes[0] if len(axes) == 1 and "=" in axes[0] and not axes[0].startswith("Coregistrant=") else None


def _fits(part: str, dims: str) -> bool:
    """Whether a part a question names ('iphone', 'greater china', 'compute & networking', 'japón') is the member of
    the dimensions' part (_part): the same letters, or words all among the member's (plurals and 'and' aside; a
    Spanish word also in the English of data/glossary.csv)."""
    named = _part(dims)
    if named is None:
        return False
    have = [w.removesuffix("s") for w in _member_words(named.split("=", 1)[1]) if w != "and"]
    for name in _COUNTRIES.get(part, (part,)):
        words = [w for w in name.split() if w not in ("and", "y")]
        for asked in ([w.removesuffix("s") for w in words], [w.removesuffix("s") for w in english(words) or words]):
            if "".join(asked) == "".join(have) or set(asked) <= set(have):
                return True
    return False


def _part_metric(db: Db, entity: Entity, p: Reading) -> Metric:
    """The metric narrowed to the part of the company the question names: the company's facts of the metric's
    concepts whose one dimension's member is that part (FSDS segments, products, regions). NotFound lists the
    parts it has where none fits, and the candidates where several do: never a guess, never the total."""
    if not p.metric.concepts:
        raise NotFound(f"asks for {p.metric.name} of a part of the company ({p.part!r}); {p.metric.name} is derived "
                       f"({p.metric.formula}), and the facts hold no parts of it")
    found = resolve.dimensions(db, entity.entity_id, list(p.metric.concepts))
    fits = found[[_fits(p.part, d) for d in found["dims"]]]
    if fits.empty:
        have = sorted({named.split("=", 1)[1] for named in map(_part, found["dims"]) if named})
        raise NotFound(f"asks for {p.metric.name} of a part of the company ({p.part!r}); the facts of "
                       f"{entity.name} hold " + (f"these parts of it: {', '.join(have)}" if have else
                                                 "its totals only") + ", and a total is no answer for a part")
    parts = fits["dims"].map(_part)
    if parts.nunique() > 1:
        raise NotFound(f"{p.part!r} could be any of {', '.join(sorted(parts.unique()))} in the facts of "
                       f"{entity.name}: say which")
    keys = list(fits["key"])  # in the order of the metric's concepts, a part alone before its segment's own figure
    order = {c: i for i, c in enumerate(resolve.concepts(db, list(p.metric.concepts)))}
    keys.sort(key=lambda k: (order.get(k.split("|", 1)[0], len(order)), _OPERATING in k))
    dims = parts.iat[0]
    note = f"of {dims.split('=', 1)[1]} only ({dims}, as filed), not the company's total"
    return replace(p.metric, concepts=tuple(keys), formula="", note="; ".join(filter(None, [note, p.metric.note])))


def _money(value: float, unit: str) -> str:
    if unit == "%":
        return f"{value:.2f}%"
    return f"{value / 1e6:,.1f} million {unit}" if abs(value) >= 1e5 and "/" not in unit else f"{value:,.4g} {unit}"


def _when(moment: datetime | None) -> str:
    return f" as known on {moment:%Y-%m-%d %H:%M:%S} UTC" if moment else ""


def _describe(entity: Entity, f: Figure, p: Reading) -> str:
    """What a figure is: company, metric, period and its dates, how it is reported or derived, each part with
    the filing that first reported it, when it became known, and the notes (which EPS, currency, calendar)."""
    how = f"reported as {f.concept}" if not f.formula else (
        f"derived as {f.formula}" + (f" ({f.concept})" if f.concept else ""))
    parts = "; ".join(f"{pt.metric} {pt.start or ''}..{pt.end} = {_money(pt.value, pt.unit)} ({pt.form} "
                      f"{pt.filing_id}, accepted {pt.accepted_at:%Y-%m-%d %H:%M:%S} UTC)"
                      for pt in dict.fromkeys(f.parts))
    notes = list(f.notes)
    if f.period in p.bare_years and abs((f.end - f.end.replace(month=12, day=31)).days) > 7:
        notes.insert(0, f"the question names {f.period[2:]} without saying fiscal or calendar: this is the company's "
                        f"fiscal year {f.period[2:]} ({f.start}..{f.end}); ask for 'calendar {f.period[2:]}' for "
                        f"the calendar year")
    return (f"{entity.name} {f.metric.name} {f.period} ({f.start or ''}..{f.end}) = {_money(f.value, f.unit)}, "
            f"{how}; known from {f.known_since:%Y-%m-%d %H:%M:%S} UTC ({f.source.form} {f.source.filing_id}); "
            f"parts: {parts}" + "".join(f"; {n}" for n in notes))


def _growth(db: Db, entity: Entity, p: Reading, moment: datetime | None) -> tuple[Figure, Figure]:
    """The old and the new figure of a growth: the two periods named (the earlier is the old), or the one named and
    the same period a year before it (of its fiscal label: 'the quarter ended June 28, 2025' is 2025Q3, so 2024Q3)."""
    if len(p.periods) > 1:  # in time order, however written ('Q3 2025 against Q3 2024')
        one, two = _lookup(db, entity, p, p.periods[0], moment), _lookup(db, entity, p, p.periods[1], moment)
        return (one, two) if one.end <= two.end else (two, one)
    new = _lookup(db, entity, p, p.periods[0], moment)
    try:
        then = previous(new.period)
    except ValueError as exc:
        raise NotFound(f"{p.metric.name}: no growth of {new.period} (no same period a year before it)") from exc
    return _lookup(db, entity, p, then, moment), new


def _from_facts(db: Db, p: Reading, entities: list[Entity], moment: datetime | None) -> Answer:
    when = _when(moment)
    period = p.periods[0] if p.periods else None
    try:
        if p.comparison or len(entities) > 1:
            return _compare(db, p, entities, period, moment)
        entity = entities[0]
        if p.growth and p.periods:
            old, new = _growth(db, entity, p, moment)
            then, now = old.period, new.period
            if old.unit != new.unit or old.value == 0:
                raise NotFound(f"{p.metric.name}: no growth from {_money(old.value, old.unit)} to "
                               f"{_money(new.value, new.unit)}")
            points = old.unit == "%"
            change = new.value - old.value if points else (new.value - old.value) / abs(old.value) * 100
            how = "new - old, in percentage points" if points else "(new - old) / |old| × 100"
            return Answer("fact", p.text, value=change, unit="percentage points" if points else "%",
                          citations=_cite(db, old) + _cite(db, new),
                          parts=tuple(pt.to_dict() for f in (old, new) for pt in f.parts),
                          explanation=f"{entity.name} {p.metric.name} changed {change:.2f}"
                                      f"{' points' if points else '%'} from {then} to {now}, derived as {how}, "
                                      f"known from {max(old.known_since, new.known_since):%Y-%m-%d %H:%M:%S} UTC"
                                      f"{when}; old: {_describe(entity, old, p)}; new: {_describe(entity, new, p)}")
        f = _lookup(db, entity, p, period, moment)
    except NotFound as exc:
        return Answer("unanswerable", p.text, explanation=f"not in the facts: {exc}{when}")
    return Answer("fact", p.text, value=f.value, unit=f.unit, citations=_cite(db, f),
                  parts=tuple(pt.to_dict() for pt in f.parts), explanation=_describe(entity, f, p) + when)


def _compare(db: Db, p: Reading, entities: list[Entity], period: str | None, moment: datetime | None) -> Answer:
    """One row per company, each its own lookup with its own reading (its fiscal period, its filing), ranked by
    value; a company whose figure is missing has a row saying why, and is not ranked."""
    when = _when(moment)
    rows, figures = [], []
    for e in entities:
        try:
            f = _lookup(db, e, p, period, moment)
        except NotFound as exc:
            rows.append({"entity": e.name, "value": None, "unit": None, "period": period, "start": None, "end": None,
                         "source": None, "form": None, "accepted_at": None, "status": f"not in the facts: {exc}"})
            continue
        figures.append((e, f))
        rows.append({"entity": e.name, "value": f.value, "unit": f.unit, "period": f.period,
                     "start": f.start.isoformat() if f.start else None, "end": f.end.isoformat(),
                     "source": f.source.filing_id, "form": f.source.form, "accepted_at": f.known_since.isoformat(),
                     "status": "ok", "read_as": f"{e.name}, {p.metric.name}, {f.period} ({f.start or ''}..{f.end})"})
    if not figures:
        return Answer("unanswerable", p.text, table=tuple(rows), explanation="not in the facts for any company: "
                      + "; ".join(f"{r['entity']}: {r['status']}" for r in rows) + when)
    rows.sort(key=lambda r: (r["value"] is None, -(r["value"] or 0) if not _LOW.search(normalize(p.text))
                             else (r["value"] or 0)))
    units = {r["unit"] for r in rows if r["unit"]}
    mixed = f"; not comparable: values in {', '.join(sorted(units))}" if len(units) > 1 else ""
    missing = [r["entity"] for r in rows if r["value"] is None]
    # a company without its figure, or figures in different units, leave no first: the table has no one answer
    ranked = not missing and not mixed
    first = f"first: {rows[0]['entity']}" if ranked else "no first: " + (
        f"missing {', '.join(missing)}" if missing else "not comparable")
    return Answer("table", p.text, value=rows[0]["value"] if ranked else None, unit=rows[0]["unit"] if ranked
                  else None, table=tuple(rows), citations=tuple(c for _, f in figures for c in _cite(db, f)),
                  parts=tuple(pt.to_dict() for _, f in figures for pt in f.parts),
                  explanation=f"{p.metric.name} for {period or 'the latest period'}, one lookup per company{when}; "
                              f"{first}{mixed}" + (f"; missing: {', '.join(missing)}" if missing else "") + "; "
                              + "; ".join(_describe(e, f, p) for e, f in figures))


# ----------------------------------------------------------------------------------------- text
_NUMBER = re.compile(r"(?<![\w.,])(\d{1,3}(?:\.\d{3})+|\d+)(,\d+)?(?![\w])")


def _first_number(text: str) -> float | None:
    """The first figure in a Spanish-formatted line ('1.234,5' or '0,11 %'), ignoring note marks."""
    m = _NUMBER.search(text)
    return float(m.group(1).replace(".", "") + (m.group(2) or "").replace(",", ".")) if m else None


def _best_line(text: str, query: str) -> str:
    """The line of a passage (a table row, a list item) sharing most words with the query."""
    wanted = set(tokenize(query))
    return max(text.split("\n"), key=lambda line: len(wanted & set(tokenize(line))))


def _scopes(db: Db, entities: list[Entity]) -> list[tuple[str, list[str]]]:
    """Each company named with its documents (those stored under its entity_id or an issuer name it goes by),
    a group standing for each of its funds."""
    out = []
    for e in entities:
        for name, entity_id, issuers in ([(m, None, [m]) for m in e.members] if e.members
                                         else [(e.name, e.entity_id, [e.name, *e.aliases])]):
            docs = db.sql("SELECT doc_id FROM documents WHERE entity_id = ? OR list_contains(?, issuer) "
                             "ORDER BY doc_id", [entity_id, issuers])["doc_id"].tolist()
            out.append((name, docs))
    return out


def _reports_of_day(db: Db, p: Reading, held: list[tuple[str, list[str]]], given: bool
                    ) -> tuple[list[tuple[str, list[str]]], dict[str, Any]]:
    """The companies' documents narrowed to their reports of the period a question names by its end, where a company
    has one, and those reports (doc_id -> period end). The end is a period's ('the quarter ended March 29, 2025') or
    the day of a balance or a text 'as of' it (a date the question says, never a moment the caller gave: 'As of June
    28, 2025, how much ... had Apple yet to expense?' asks the 10-Q of that quarter, filed in August). A fiscal label
    names none (reading Q2 FY2026 as its 10-Q cost a question or two on the real set)."""
    days = {label.rsplit(":", 1)[1] for label in p.periods if label.startswith(("END:", "TTMEND:"))}
    if p.as_of and p.as_of_or_date and not given and p.as_of == datetime.combine(p.as_of.date(), datetime.min.time()):
        days.add(p.as_of.date().isoformat())
    docs = [d for _, ds in held for d in ds]
    if not days or not docs:
        return held, {}
    rows = db.sql("SELECT doc_id, period_end FROM documents WHERE list_contains(?, doc_id) "
                  "AND list_contains(?::DATE[], period_end)", [docs, sorted(days)])
    reports = {d: pd.Timestamp(end).date() for d, end in rows.itertuples(index=False)}
    return [(name, [d for d in ds if d in reports] or ds) for name, ds in held], reports


def _has_documents(db: Db, entities: list[Entity]) -> bool:
    """Whether reports (not filings, whose figures are the facts) of these companies are stored."""
    docs = [d for _, ds in _scopes(db, entities) for d in ds]
    return bool(docs) and bool(db.sql("SELECT count(*) AS n FROM documents WHERE kind = 'report' AND "
                                         "list_contains(?, doc_id)", [docs])["n"][0])


def _passages(hits: list[Any]) -> tuple[Citation, ...]:
    """One citation per span of each hit (a chunk with a note cites the note too), quoting it."""
    out = []
    for h in hits:
        offset = 0
        for start, end in h.spans:
            out.append(Citation(h.doc_id, start, end, h.text[offset:offset + end - start], company=h.issuer))
            offset += end - start + 2  # the blank line joining spans in the chunk text
    return tuple(out)


def search(db: Db, query: str, k: int = 5, strategy: str | None = None, filters: dict[str, Any] | None = None, *,
           header: bool = False) -> list[Hit]:
    """A search as `ask` ranks its passages (strategy None: `passages`), or over a strategy's chunks by name, as
    the course defines it (see FactStore.search)."""
    if strategy is None:
        return passages(db, query, k=k, filters=filters)
    return index.search(db, query, k, strategy, filters, header=header)


def passages(db: Db, query: str, *, k: int = 5, filters: dict[str, Any] | None = None) -> list[Hit]:
    """The passages `ask` cites for a question read as text (see FactStore.search): of the companies it names (or
    the `company` filter), the report of a period it names by its end, the years it names; the other filters narrow
    them. A company not held, or of no documents, is NotFound; no passage matching, none."""
    narrow = dict(filters or {})
    companies = narrow.pop("company", None)
    p = parse(query, resolve.names(db), load_metrics())
    if companies is not None:
        p = replace(p, entities=[resolve.names(db).resolve(c) for c in filter_values(companies)])
    refused = _unnamed(replace(p, metric=None))  # (a figure needs a company; passages do not)
    if refused is not None:
        raise NotFound(refused.explanation)
    given = narrow.get("as_of") is not None
    moment = as_of_timestamp(narrow.pop("as_of")) if given else p.as_of
    _, hits, unheld = _text(db, p, moment, k, given=given, narrow=narrow)
    if unheld:
        raise NotFound(f"not in the store: no documents of {', '.join(unheld)}")
    return hits


def _from_text(db: Db, p: Reading, moment: datetime | None, k: int, given: bool = True) -> Answer:
    """Passages from the documents of the companies named (all documents when none is), one search per
    company (a table) when the question compares several; of a company's report for the period a question names by
    its end ('the quarter ended March 29, 2025'; 'as of June 28, 2025' said in the question, unless `given`: a
    moment the caller gave), where it has one."""
    return _text(db, p, moment, k, given=given)[0]


def _text(db: Db, p: Reading, moment: datetime | None, k: int, *, given: bool = True,
          narrow: dict[str, Any] | None = None) -> tuple[Answer, list[Hit], list[str]]:
    """_from_text's answer with the hits it cites, and the companies named of which the store holds no document
    where it holds none of any named; `narrow`: filters of the caller's (form, year, doc_id, issuer, period_end),
    which narrow the documents the question's reading chose."""
    if not db.sql("SELECT count(*) AS n FROM documents")["n"][0]:
        return Answer("unanswerable", p.text, explanation="no metric named (data/metrics.csv lists them), and no "
                      "documents in the store to search"), [], []
    filters: dict[str, Any] = {**(narrow or {}), **({"as_of": moment} if moment else {})}
    scopes = _scopes(db, p.entities)
    held = [(name, docs) for name, docs in scopes if docs]
    missing = [name for name, docs in scopes if not docs]
    if scopes and not held:
        return (Answer("unanswerable", p.text, explanation=f"no documents of {', '.join(missing)} in the store"), [],
                missing)
    # the filter now carries the companies, so the words naming them no longer steer the ranking
    query = p.text
    for written in p.named_as:
        query = query.replace(written, " ")
    held, reports = _reports_of_day(db, p, held, given)
    if reports:  # the filter carries the period too: its words (dates, 'quarter ended') no longer steer the ranking
        said = set(re.findall(r"\w+", " ".join(p.words.get("period", []) + p.words.get("as_of", []))))
        query = re.sub(r"\w+", lambda m: " " if normalize(m.group()) in said else m.group(), query)
        if p.as_of and p.as_of.date() in reports.values() and not given:
            filters.pop("as_of", None)
    years = sorted({int(y[0]) for label in p.periods if (y := _YEAR_IN_LABEL.findall(label))})
    near = {y + d for y in years for d in (-1, 0, 1)}  # a year's figures appear in its documents and around it
    year_of = dict(db.sql("SELECT doc_id, year FROM documents WHERE list_contains(?, doc_id) AND year IS NOT NULL",
                             [[d for _, docs in held for d in docs]]).itertuples(index=False))
    unyeared = ""
    if held and years and not near & set(year_of.values()):
        if p.metric:  # a figure of a year no document covers
            return Answer("unanswerable", p.text, explanation=(
                f"no document of {', '.join(name for name, _ in held)} covers {', '.join(map(str, years))}")), [], []
        # else a year the text names (a 2030 goal, a 2017 fine): every document of the company may say it
        unyeared = (f"no document of {', '.join(name for name, _ in held)} is of {', '.join(map(str, years))}: "
                    f"searched all of its documents; ")
        near = set()

    def within(docs: list[str]) -> dict[str, Any]:
        """The filters for one company's documents (those of the caller's doc_id filter), of the years asked about
        where it has some (the caller's year filter wins)."""
        dated = near & {year_of.get(d) for d in docs}
        chosen = [d for d in docs if d in filter_values(filters["doc_id"])] if filters.get("doc_id") else docs
        return {**({"year": sorted(near)} if dated else {}), **filters, "doc_id": chosen}

    if (p.comparison or len(p.entities) > 1 or any(e.members for e in p.entities)) and len(held) > 1:
        names_words = {w for name, _ in held for w in re.findall(r"\w+", normalize(name))}
        query = " ".join(w for w in re.findall(r"\w+", normalize(query)) if w not in names_words)
        rows, forms, found_hits = [], set(), []
        for name, docs in held:
            hits = _scored(index.search(db, query, k=k, strategy="scoped", header=True, filters=within(docs)))
            if hits:
                rows.append({"entity": name, "doc": hits[0].doc_id, "text": _best_line(hits[0].text, query)})
                forms.add(hits[0].form or "")
                found_hits.extend(hits)
        if rows:
            found = f"one filtered search per entity, {k} passages each ({len(rows)} of {len(held)} found)"
            figures = [_first_number(r["text"]) for r in rows]
            # each row quotes a figure: rank them (never for a metric: a number in a passage is no figure of the
            # metric; nor in SEC filings, whose first number is mostly a year or a note's)
            if all(f is not None for f in figures) and not p.metric and not any(map(_SEC_FORM.match, forms)):
                low = bool(_LOW.search(normalize(p.text)))
                rows = sorted(({**r, "figure": f} for r, f in zip(rows, figures, strict=True)),
                              key=lambda r: r["figure"], reverse=not low)
                found_hits = [h for r in rows for h in found_hits if h.doc_id == r["doc"]]
                found += (f"; {'lowest' if low else 'highest'} figure quoted: {rows[0]['entity']} "
                          f"({rows[0]['figure']:g})")
            return (Answer("table", p.text, citations=_passages(found_hits), table=tuple(rows),
                           explanation=unyeared + found), found_hits, [])
    if held:
        filters = within([d for _, docs in held for d in docs])
    hits = _scored(index.search(db, query if held else p.text, k=k, strategy="scoped", header=True,
                                filters=filters or None))
    if not hits:
        if not set(tokenize(p.text)) - set(tokenize(" ".join(p.named_as))):
            why = "no recognizable words in the question besides the names"
        elif held:
            why = f"no passage of the documents of {', '.join(name for name, _ in held)} matches"
        else:
            why = ("no known company named, and no recognizable words: none of the question's words is in the "
                   "indexed documents")
        return Answer("unanswerable", p.text, explanation=why), [], []
    companies = ", ".join(dict.fromkeys(h.issuer or h.doc_id for h in hits))
    scope = (f" within the documents of {', '.join(name for name, _ in held)} only"
             + (f" (none of {', '.join(missing)})" if missing else "")) if held else (
        " over all documents (no company named" + (f"; {', '.join(p.mentioned)} only mentioned"
                                                                 if p.mentioned else "")
        + f"): passages of {companies}")
    scope += "".join(f"; the report of the period ended {day} ({doc})" for doc, day in reports.items())
    fallback = (" (no facts for this company: answered from its documents)"
                if p.metric and not any(e.has_facts for e in p.entities) and p.entities else "")
    return Answer("passages", p.text, citations=_passages(hits),
                  explanation=f"{unyeared}{index.ranked_by(db, 'scoped')} over scoped chunks{scope}{fallback}; "
                              f"{len(hits)} passages"), hits, []


# a question asking for a reason, a way or an effect, never for a figure: why, what drove, how does … account for,
# what effect, what does it say about, what happened, where did … go, when does it expect, por qué, qué efecto, a qué se
# debió, qué anunció
_EXPLAINS = re.compile(r"(?i)(?:^|[,;:¿])\W*(?:why\b|por\s+qu[eé]\b|what\s+(?:drove|caused|explains|led|was\s+behind)\b"
                       r"|how\s+(?:does|do|did|is|are|was|were|could|would|will|might|may)\b.*"
                       r"\b(?:affect|impact|account|recogni[sz]e|book|treat|describe)"
                       r"|what\s+(?:effects?|impacts?)\b|qu[eé]\s+(?:efectos?|impactos?)\b|c[oó]mo\s+(?:afect|impact|influ)"
                       r"|describe\b|explain\b|qu[eé]\s+(?:impuls|caus|explic|motiv|anunci)|a\s+qu[eé]\s+se\s+deb"
                       r"|what\s+(?:does|do|did)\b[^?]*\bsay\s+(?:about|happened)\b|what\s+happened\b"
                       r"|where\s+(?:did|does|do|will)\b|when\s+(?:did|does|do|will|would)\b[^?]*\bexpect"
                       r"|qu[eé]\s+(?:se\s+)?dice\b[^?]*\bsobre\b)")
_SEC_FORM = re.compile(r"\d{1,2}-[A-Z]")  # 10-K, 10-Q/A, 20-F, 8-K
_YEAR_IN_LABEL = re.compile(r"(?:19|20)\d\d")  # FY2024, 2024Q3, H1FY2024, TTM2025Q2, END:quarter:2025-07-27


def _scored(hits: list[Hit]) -> list[Hit]:
    """The hits that share a word with the query (a chunk scoring 0 is no match, only a filler)."""
    return [h for h in hits if h.score > 0]
