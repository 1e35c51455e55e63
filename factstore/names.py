"""Companies named as people write them: one normalizer and one index behind every lookup of a company,
`FactStore.resolve_entity` (one name) and `ask` (the names inside a question).

A company is found by any of its tickers (every share class), its CIK, its legal name or a former one (case,
accents, possessives and legal suffixes ignored: "apple's" finds "Apple Inc."), the first words of a long
name ("Taiwan Semiconductor"), an acronym of its name that fits no other company (TSMC) or a curated alias
(data/aliases.csv: Google is Alphabet, before the predecessor filer GOOGLE INC., which a question's reading keeps
beside it for periods only the predecessor reported). A name that fits several
companies is ambiguous and never guessed; a close spelling is only a hint, except inside a question, where one
slip in a capitalized name ("Rapssa") is forgiven when it fits one company alone. Inside a question, too, a
capitalized first word of a name no other company's starts with finds it ("Quillmark"), a ticker counts in lower
case unless it is a common word ("nvda", never "snow"), and a name made of common words ("ventas", "target")
counts only written as a name: capitalized past the first word, possessive, before a legal suffix, or alone, or
opening the question right before a metric ("Travelers net income") where no other company is named.
"""

from __future__ import annotations

import csv
import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING

from factstore.errors import Ambiguous, NotFound
from factstore.resources import data_file
from factstore.text import tokenize
from factstore.text.tokenize import normalize

if TYPE_CHECKING:
    from factstore.db import Db

ALIASES_FILE = data_file("aliases.csv")
COMMON_WORDS_FILE = data_file("common_words.txt")
LEGAL_SUFFIXES = frozenset({"inc", "incorporated", "corp", "corporation", "co", "cos", "company", "companies",
                            "ltd", "limited", "plc", "sa", "nv", "ag", "se", "llc", "lp", "llp", "holdings",
                            "holding", "group"})
_COMPANY = frozenset({"co", "company", "corp", "corporation"})  # the C closing an acronym such as TSMC
_GROUP_WORDS = frozenset({"group", "holdings", "holding"})  # the G closing an acronym such as AIG
_STATE = re.compile(r"\s*/\s*[a-z]{1,3}\s*/?\s*$", re.IGNORECASE)  # EDGAR's "/DE/" or "/CA" after a name
_POSSESSIVE = re.compile(r"['’]s\b")
_INITIALS = re.compile(r"(?<!\w)(?:\w\.){2,}")  # S.A., N.V., U.S.
_GLUE = re.compile(r"[&'’]")  # AT&T -> att, O'Reilly -> oreilly
_WORD = re.compile(r"\w+")
_CIK = re.compile(r"(?:cik\s*:?\s*)?0*(\d{1,10})", re.IGNORECASE)
_CIK_IN_TEXT = re.compile(r"\bcik\s*:?\s*0*(\d{1,10})\b|\b(0\d{9})\b", re.IGNORECASE)  # CIK 320193, 0000320193
# capitals a question uses for other things than a company: never taken for a ticker there
NOT_TICKERS_IN_TEXT = frozenset({"AI", "CEO", "CFO", "COO", "EPS", "EBIT", "EBITDA", "ESG", "ETF", "EU", "EUR",
                                 "FCF", "FY", "GAAP", "IFRS", "IPO", "IT", "LTM", "MRQ", "NYSE", "OTC", "ROA",
                                 "ROE", "SEC", "SGA", "TTM", "UK", "US", "USA", "USD", "YOY"})
_EDGE = "¿¡\"“”«»()[]{},;:!?"
_TICKER_LIKE = re.compile(r"[A-Z]{2,5}(?:[.-][A-Z])?")  # MSFT, BRK.B
# a name where a question puts its company: "how many employees does Acme have", "what does Acme Corp say about",
# "¿cuántos empleados tiene Acme?" (a run of capitalized words between such a verb and what a company does)
_CAPITAL_RUN = r"[A-Z][\w&.'’-]*(?:\s+(?:&\s+)?[A-Z][\w&.'’-]*){0,3}"
_COMPANY_SLOT = re.compile(
    rf"\b(?:does|did|has|tiene|tenía|dice|decía|menciona|reporta|describe|emplea)\s+({_CAPITAL_RUN})(?=\s*[?.!]"
    r"|\s*$|\s+(?:have|had|say|said|report|describe|disclose|mention|name|list|employ|face|expect|see|sell|make"
    r"|compete|own|operate|plan|state|sobre|acerca|en|de|a|al|por|para|como|con)\b)")
# a question asking which company does something: the companies it names in capitals are what it is about, not who
_WHICH_COMPANY = re.compile(
    r"(?i)\b(?:which|what)\s+(?:\w+\s+){0,2}?(?:compan(?:y|ies)|firms?|banks?|issuers?|filers?|registrants?"
    r"|chipmakers?|manufacturers?)\b|(?:\b|¿)(?:qu[eé]|cu[aá]l(?:es)?)\s+(?:\w+\s+){0,2}?(?:empresas?"
    r"|compa[ñn][ií]as?|bancos?|sociedad(?:es)?|firmas?|emisoras?)\b")
MIN_TYPO_KEY = 5  # a slip is forgiven only in names of at least this many characters


def name_words(text: str) -> list[str]:
    """A name (or a question) as lower-case words without accents, possessives or dots: "Apple's" -> apple,
    "S.A." -> sa, "AT&T" -> att, "Coca-Cola" -> coca cola."""
    t = _POSSESSIVE.sub("", normalize(text))
    t = _INITIALS.sub(lambda m: m.group(0).replace(".", ""), t)
    return _WORD.findall(_GLUE.sub("", t))


def core_words(words: list[str]) -> list[str]:
    """The words of a name without a leading 'the' and trailing legal suffixes (Inc, Corp, Co, Ltd, plc,
    S.A., N.V., Holdings...); one word is always kept."""
    if len(words) > 1 and words[0] == "the":
        words = words[1:]
    while len(words) > 1 and words[-1] in LEGAL_SUFFIXES:
        words = words[:-1]
    return words


def filer_words(name: str) -> list[str]:
    """A filer's name as words, without EDGAR's state suffix ('NVIDIA CORP/CA')."""
    return name_words(_STATE.sub("", name))


def acronyms(name: str) -> set[str]:
    """Acronyms a long name is known by, in lower case: its initials (Taiwan Semiconductor Manufacturing Co Ltd:
    tsm), with the C of Co or Corp (tsmc) and with the G or H of Group or Holdings (American International Group
    Inc: aig). Names of fewer than three initials have none."""
    words = filer_words(name)
    core = core_words(words)
    initials = [w[0] for w in core if w not in tokenize.FUNCTION_WORDS and w.isalpha()]
    if len(initials) != len([w for w in core if w not in tokenize.FUNCTION_WORDS]):
        return set()  # a name with a number in it has no acronym
    out = {"".join(initials)} if len(initials) >= 3 else set()
    suffixes = words[len(core):]
    if len(initials) >= 2 and _COMPANY & set(suffixes):
        out.add("".join(initials) + "c")
    if len(initials) >= 2 and suffixes[:1] and suffixes[0] in _GROUP_WORDS:
        out.add("".join(initials) + suffixes[0][0])
    return out


def code(text: str) -> str:
    """A ticker as the index keeps it: upper case, share class after a dash ('brk.b' -> 'BRK-B')."""
    return re.sub(r"[./]", "-", text.strip().upper())


@cache
def common_words() -> frozenset[str]:
    """Words of either language that name a company in a question only when written as a name: the function
    words, the words of the metric vocabulary ('ventas', 'revenue') and data/common_words.txt ('target')."""
    from factstore.vocabulary import load_metrics

    with COMMON_WORDS_FILE.open(encoding="utf-8") as f:
        listed = {w for line in f if not line.startswith("#") for w in name_words(line)}
    vocabulary = {w for m in load_metrics() for phrase in m.words for w in name_words(phrase)}
    return frozenset(listed | vocabulary | tokenize.FUNCTION_WORDS)


@dataclass(frozen=True)
class Entity:
    """A company or fund the store knows: by its facts (entity_id) and/or its documents (issuer)."""

    name: str
    entity_id: str | None = None
    tickers: tuple[str, ...] = ()
    has_facts: bool = False
    members: tuple[str, ...] = ()  # for a group (a fund manager): the issuers it stands for
    cik: int | None = None
    aliases: tuple[str, ...] = ()  # former names, other spellings (as its documents give it), curated aliases

    @property
    def label(self) -> str:
        """The name with what tells it apart: 'Apple Inc. (AAPL)', 'ALPHABET INC. (CIK 1652044)'."""
        tag = ", ".join(self.tickers) or (f"CIK {self.cik}" if self.cik else self.entity_id)
        return f"{self.name} ({tag})" if tag else self.name


@dataclass(frozen=True)
class Alias:
    """A curated name that differs from the filer's (data/aliases.csv): 'Google' is CIK 1652044."""

    alias: str
    cik: int
    company: str


@cache
def curated_aliases(path: Traversable = ALIASES_FILE) -> tuple[Alias, ...]:
    """The curated alias table (read once)."""
    with path.open(encoding="utf-8") as f:
        return tuple(Alias(r["alias"], int(r["cik"]), r["company"]) for r in csv.DictReader(f))


@dataclass
class Found:
    """The companies a question names, in order, and the names it uses that fit none or several."""

    entities: list[Entity] = field(default_factory=list)
    ambiguous: list[tuple[str, tuple[Entity, ...]]] = field(default_factory=list)  # (as written, candidates)
    absent: list[str] = field(default_factory=list)  # companies named that the store does not hold
    unknown: list[str] = field(default_factory=list)  # what looks like a company and is none known: "Acme's", MSFT
    # capitals naming none known in a question asking which company ('which chip company relies on TSMC'): an
    # organization it mentions, not its subject
    mentioned: list[str] = field(default_factory=list)
    asks_which: bool = False  # it asks which company does something ('¿qué empresa ...?')
    typos: list[tuple[str, Entity]] = field(default_factory=list)  # (as written, taken for)
    named_as: list[str] = field(default_factory=list)  # the words that named the companies found, as written
    absent_as: list[str] = field(default_factory=list)  # the words that named companies the store lacks
    # a curated alias found ('Google'): (as written, the company it names, the other filers of that name)
    predecessors: list[tuple[str, Entity, tuple[Entity, ...]]] = field(default_factory=list)


@dataclass(frozen=True)
class _Match:
    start: int  # character span in the question
    end: int
    written: str
    found: frozenset[int]  # positions in Names.entities
    absent: str | None = None
    typo: bool = False
    key: str | None = None  # the name key matched
    opening: bool = False  # a common word opening the question before a metric: a name only if no other is found


class Names:
    """Every way the given companies can be named, indexed for exact lookups (see the module docstring)."""

    def __init__(self, entities: Iterable[Entity], aliases: Iterable[Alias] | None = None) -> None:
        self.entities = list(entities)
        self._keys: dict[str, set[int]] = {}  # name words joined by a space -> entities
        self._codes: dict[str, set[int]] = {}  # tickers, acronyms, course ids -> entities
        self._ciks: dict[int, set[int]] = {}
        self._absent: dict[str, str] = {}  # curated alias key -> the company it names, not held
        self._typo_keys: set[str] = set()
        self._deletes: dict[str, set[str]] | None = None  # a key with one character deleted -> keys (on first use)
        named_codes: dict[str, set[int]] = {}
        for i, e in enumerate(self.entities):
            for name in (e.name, *e.aliases):
                self._add_name(name, i)
                for a in acronyms(name):
                    named_codes.setdefault(code(a), set()).add(i)
            for c in (*e.tickers, *([] if e.entity_id is None or e.entity_id.isdigit() else [e.entity_id])):
                self._codes.setdefault(code(c), set()).add(i)
            cik = e.cik or (int(e.entity_id) if e.entity_id and e.entity_id.isdigit() else None)
            if cik:
                self._ciks.setdefault(cik, set()).add(i)
        # an acronym counts only where it fits one company and is no other company's name ('FMC' is FMC Corp,
        # never Ford Motor Co)
        for a, owners in named_codes.items():
            if len(owners) == 1 and self._codes.get(a, owners) == owners == self._keys.get(a.lower(), owners):
                self._codes[a] = owners
        curated: dict[str, set[int]] = {}
        for alias in curated_aliases() if aliases is None else aliases:
            key = " ".join(name_words(alias.alias))
            if alias.cik in self._ciks:
                for i in self._ciks[alias.cik]:
                    self._add_key(key, i, typos=True)
                    curated.setdefault(key, set()).add(i)
            else:
                self._absent.setdefault(key, f"{alias.company} (CIK {alias.cik})")
        # a curated alias outranks a former or predecessor filer's name ('Google'), which is kept as its predecessor
        self._before = {key: frozenset(self._keys[key] - owners) for key, owners in curated.items()
                        if self._keys[key] - owners}
        self._keys.update(curated)
        self._capital_only = self._first_words()
        self._longest = max((len(k.split()) for k in (*self._keys, *self._absent)), default=0)

    def _first_words(self) -> set[str]:
        """A name's first word alone ('Quillmark' for 'Quillmark Software, Inc.') where no other company's name
        starts with it, it is no key already and no common word: found only when capitalized in a question."""
        firsts: dict[str, set[int]] = {}
        for i, e in enumerate(self.entities):
            for name in (e.name, *e.aliases):
                core = core_words(filer_words(name))
                if len(core) > 1 and len(core[0]) >= 4 and core[0].isalpha():
                    firsts.setdefault(core[0], set()).add(i)
        common = common_words()
        out = {w for w, owners in firsts.items() if len(owners) == 1 and w not in self._keys and w not in common}
        for w in out:
            self._keys[w] = firsts[w]
        return out

    def _add_key(self, key: str, i: int, *, typos: bool = False) -> None:
        if key:
            self._keys.setdefault(key, set()).add(i)
            if typos and len(key) >= MIN_TYPO_KEY:
                self._typo_keys.add(key)

    def _add_name(self, name: str, i: int) -> None:
        """A name in full, without one legal suffix after another ('alpha holdings inc', 'alpha holdings',
        'alpha'), and its first words (at least two, at least half, not ending on a stop word) when it is
        longer than two words."""
        words = filer_words(name)
        core = core_words(words)
        body = words[1:] if words[:1] == ["the"] and len(words) > 1 else words
        for key in {" ".join(words), *(" ".join(body[:n]) for n in range(len(core), len(body) + 1))}:
            self._add_key(key, i, typos=True)
        for n in range(max(2, len(core) // 2), len(core)):
            if core[n - 1] not in tokenize.FUNCTION_WORDS:
                self._add_key(" ".join(core[:n]), i)

    # ------------------------------------------------------------------ one name
    def lookup(self, name: str | int) -> list[Entity]:
        """Every company a name fits exactly: a CIK, a ticker or acronym (any case), a name (full or without
        legal suffixes, current or former, or its first words) or a curated alias."""
        text = str(name).strip()
        if m := _CIK.fullmatch(text):
            return self._entities(self._ciks.get(int(m.group(1)), set()))
        if found := self._codes.get(code(text)):
            return self._entities(found)
        words = filer_words(text)
        for key in (" ".join(words), " ".join(core_words(words))):
            if found := self._keys.get(key):
                return self._entities(found)
        return []

    def resolve(self, name: str | int) -> Entity:
        """The one company a name fits; NotFound (with the closest names as a hint, or saying the store does
        not hold the company an alias names) or Ambiguous (listing the candidates) otherwise."""
        text = str(name).strip()
        if not text:
            raise NotFound("unknown entity '': the name is empty")
        found = self.lookup(text)
        if len(found) == 1:
            return found[0]
        if found:
            raise Ambiguous(text, sorted(e.label for e in found))
        absent = self._absent.get(" ".join(name_words(text)))
        if absent:
            raise NotFound(f"unknown entity {text!r}: {absent} is not in the store")
        raise NotFound(f"unknown entity {text!r}{self.hint(text)}")

    def hint(self, text: str) -> str:
        """'; did you mean ...?' with up to three close names or tickers, or ''."""
        tickers = [t for e in self.entities for t in e.tickers]
        close = difflib.get_close_matches(text, [e.name for e in self.entities] + tickers, n=3) or (
            difflib.get_close_matches(text.upper(), tickers, n=3))
        return f"; did you mean {', '.join(close)}?" if close else ""

    # ------------------------------------------------------------------ free text
    def find(self, question: str) -> Found:
        """The companies a question names: names in any case (the longest name wins where two overlap),
        tickers and acronyms written in capitals, CIKs ('CIK 320193'), and one slip in a capitalized name
        that fits one company alone."""
        tokens = [(m.start(), m.end(), m.group()) for m in re.finditer(r"\S+", question)]
        words = [(w, s, e, _capitalized(t)) for s, e, t in tokens for w in name_words(t)]
        matches = [*self._name_matches(question, words), *self._code_matches(question, tokens)]
        taken: list[_Match] = []
        for m in sorted(matches, key=lambda m: (m.start - m.end, m.start)):
            if not any(m.start < t.end and t.start < m.end for t in taken):
                taken.append(m)
        if any(not m.opening for m in taken):  # another name found: a common word opening the question is a word
            taken = [m for m in taken if not m.opening]
        taken += self._typo_matches(question, words, taken)
        out = Found(asks_which=bool(_WHICH_COMPANY.search(question)))
        for m in sorted(taken, key=lambda m: m.start):
            found = self._entities(m.found)
            if m.absent:
                out.absent.append(m.absent)
                out.absent_as.append(m.written)
            elif len(found) > 1:
                out.ambiguous.append((m.written, tuple(found)))
            else:
                out.named_as.append(m.written)
                if found[0] not in out.entities:
                    out.entities.append(found[0])
                if m.typo:
                    out.typos.append((m.written, found[0]))
                elif m.key in self._before:
                    out.predecessors.append((m.written, found[0], tuple(self._entities(self._before[m.key]))))
        for s, e, t in tokens:
            if any(s < m.end and m.start < e for m in taken):
                continue
            word = _POSSESSIVE.sub("", t).strip(_EDGE).rstrip(".")
            if _TICKER_LIKE.fullmatch(word) and _in_capitals(word) and not _POSSESSIVE.search(t) and out.asks_which:
                out.mentioned.append(word)
            elif (_TICKER_LIKE.fullmatch(word) and _in_capitals(word)) or (
                    _POSSESSIVE.search(t) and _capitalized(t) and not set(name_words(word)) <= tokenize.FUNCTION_WORDS):
                out.unknown.append(word)
        common = common_words()
        for m in _COMPANY_SLOT.finditer(question):
            run = m.group(1).rstrip(".")
            if not any(m.start(1) < t.end and t.start < m.end(1) for t in taken) and run not in out.unknown and (
                    not set(name_words(run)) <= common | tokenize.FUNCTION_WORDS):
                out.unknown.append(run)
        return out

    def _name_matches(self, question: str, words: list[tuple[str, int, int, bool]]) -> list[_Match]:
        out = []
        common = common_words()
        for i in range(len(words)):
            for n in range(min(self._longest, len(words) - i), 0, -1):
                key = " ".join(w for w, *_ in words[i:i + n])
                start, end = words[i][1], words[i + n - 1][2]
                opening = False
                if key in self._keys and set(key.split()) <= common and not _as_name(question, words, i, n):
                    opening = _opens(words, i, n)  # 'Travelers net income 1H09'
                    if not opening:
                        continue
                if key in self._keys and key in self._capital_only and not words[i][3]:
                    continue
                if key in self._keys:
                    out.append(_Match(start, end, _span(question, start, end), frozenset(self._keys[key]), key=key,
                                      opening=opening))
                    break
                if key in self._absent and words[i][3]:
                    out.append(_Match(start, end, _span(question, start, end), frozenset(), self._absent[key]))
                    break
        return out

    def _code_matches(self, question: str, tokens: list[tuple[int, int, str]]) -> list[_Match]:
        out = []
        common = common_words()
        for s, e, t in tokens:
            written = _POSSESSIVE.sub("", t).strip(_EDGE).rstrip(".")
            lower = written.islower() and written.isalpha() and len(written) >= 3 and written not in common and (
                code(written) not in NOT_TICKERS_IN_TEXT)  # 'nvda'; never 'rev' or 'snow'
            if (_in_capitals(written) or lower) and (found := self._codes.get(code(written))):
                out.append(_Match(s, e, written, frozenset(found)))
        for m in _CIK_IN_TEXT.finditer(question):
            cik = int(m.group(1) or m.group(2))
            if cik in self._ciks:
                out.append(_Match(m.start(), m.end(), m.group(), frozenset(self._ciks[cik])))
        return out

    def _typo_matches(self, question: str, words: list[tuple[str, int, int, bool]], taken: list[_Match]
                      ) -> list[_Match]:
        out: list[_Match] = []
        for i, (word, start, _, capital) in enumerate(words):
            if not capital or word in tokenize.FUNCTION_WORDS or any(t.start <= start < t.end for t in (*taken, *out)):
                continue
            for n in range(min(self._longest, len(words) - i), 0, -1):
                end = words[i + n - 1][2]
                key = " ".join(w for w, *_ in words[i:i + n])
                if len(key) < MIN_TYPO_KEY or any(start < t.end and t.start < end for t in taken):
                    continue
                near = {j for k in self._near(key) for j in self._keys[k]}
                if near:
                    out.append(_Match(start, end, _span(question, start, end), frozenset(near), typo=True))
                    break
        return out

    def _near(self, key: str) -> set[str]:
        """Name keys one edit (insertion, deletion, substitution or swap of neighbours) away from key."""
        if self._deletes is None:
            self._deletes = {}
            for k in self._typo_keys:
                for d in _deletions(k):
                    self._deletes.setdefault(d, set()).add(k)
        candidates: set[str] = set()
        for d in _deletions(key):
            candidates |= self._deletes.get(d, set())
        return {k for k in candidates if one_edit(key, k)}

    def _entities(self, found: Iterable[int]) -> list[Entity]:
        return [self.entities[i] for i in sorted(found)]

    def keys(self) -> list[tuple[str, str, str | None, str]]:
        """Every exact key `lookup` and `resolve` read, as rows of the table SQL's entity_key reads
        (entity_names): (kind, key, entity_id, label), kind 'cik', 'code', 'name' or 'absent' (a curated alias of
        a company not held); and the legal suffixes core_words drops ('suffix')."""
        rows = [("suffix", w, None, w) for w in sorted(LEGAL_SUFFIXES)]
        for kind, index in (("cik", {str(k): v for k, v in self._ciks.items()}), ("code", self._codes),
                            ("name", self._keys)):
            rows += [(kind, key, e.entity_id, e.label) for key, found in index.items() for e in self._entities(found)]
        return rows + [("absent", key, None, company) for key, company in self._absent.items()]


def _as_name(question: str, words: list[tuple[str, int, int, bool]], i: int, n: int) -> bool:
    """Whether words[i:i+n] of a question are written as a name: capitalized past the first word, followed by a
    possessive or a legal suffix, or the whole question."""
    start, end = words[i][1], words[i + n - 1][2]
    after = question[end:end + 2]
    return ((words[i][3] and i > 0) or after[:1] in ("'", "’") or (i + n < len(words) and words[i + n][0] in
            LEGAL_SUFFIXES) or not re.sub(r"\W", "", question[:start] + question[end:]))


def _opens(words: list[tuple[str, int, int, bool]], i: int, n: int) -> bool:
    """Whether words[i:i+n] open the question, capitalized, right before a metric's first word ('Travelers net
    income', 'Target revenue'): a name there unless the question names another company."""
    return i == 0 and words[0][3] and i + n < len(words) and words[i + n][0] in _metric_starts()


@cache
def _metric_starts() -> frozenset[str]:
    """The first word of each phrase of the metric vocabulary ('net' of 'net income', 'revenue'), but a function
    word ('from' of 'from operating activities')."""
    from factstore.vocabulary import load_metrics

    firsts = {name_words(phrase)[0] for m in load_metrics() for phrase in m.words if name_words(phrase)}
    return frozenset(firsts - tokenize.FUNCTION_WORDS)


def _in_capitals(written: str) -> bool:
    """Whether a word is written as a ticker is in a question: two characters or more, letters in capitals,
    and not one of the abbreviations questions use for other things (EPS, FY, USD...)."""
    letters = [c for c in written if c.isalpha()]
    return (len(written) >= 2 and bool(letters) and all(c.isupper() for c in letters)
            and code(written) not in NOT_TICKERS_IN_TEXT)


def _capitalized(token: str) -> bool:
    return next((c for c in token if c.isalpha()), "").isupper()


def _span(text: str, start: int, end: int) -> str:
    return _POSSESSIVE.sub("", text[start:end]).strip(_EDGE)


def _deletions(key: str) -> set[str]:
    """key with one character deleted, and key itself."""
    return {key} | {key[:i] + key[i + 1:] for i in range(len(key))}


def one_edit(a: str, b: str) -> bool:
    """Whether b is a (one insertion, deletion, substitution or swap of neighbours) away: Damerau distance 1."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        return a[i + 1:] == b[i + 1:] or (a[i:i + 2] == b[i:i + 2][::-1] and a[i + 2:] == b[i + 2:])
    return a[i + 1:] == b[i:] if len(a) > len(b) else a[i:] == b[i + 1:]


_GROUP = re.compile(r"\(([^,()]+),")  # "(Gestora Atalaya, 5 de febrero de 2023)": the fund's manager


def known_entities(db: Db) -> list[Entity]:
    """Everything a store can be asked about: its companies (with former names, the issuer names their
    documents give and curated aliases), issuers of documents without facts (merged into the company of the
    same name), and the groups (fund managers) report titles name, standing for their funds."""
    by_id: dict[str, Entity] = {}
    rows = db.relation("SELECT * FROM entities ORDER BY entity_id")  # a store read-only since before
    columns = rows.columns                                                 # other_names has none
    for row in rows.fetchall():
        e = dict(zip(columns, row, strict=True))
        by_id[e["entity_id"]] = Entity(e["name"] or e["entity_id"], e["entity_id"], tuple(e["tickers"] or ()), True,
                                       cik=e["cik"], aliases=tuple(e.get("other_names") or ()))
    by_cik = {e.cik: e.entity_id for e in by_id.values() if e.cik}
    for alias in curated_aliases():
        if alias.cik in by_cik:
            e = by_id[by_cik[alias.cik]]
            by_id[e.entity_id] = replace(e, aliases=(*e.aliases, alias.alias))
    by_core = {" ".join(core_words(filer_words(e.name))): e.entity_id for e in by_id.values()}
    issuers: dict[str, Entity] = {}
    groups: dict[str, set[str]] = {}
    for issuer, entity_id, title in db.relation(
            "SELECT DISTINCT issuer, entity_id, title FROM documents WHERE issuer IS NOT NULL ORDER BY ALL"
    ).fetchall():
        owner = entity_id if entity_id in by_id else by_core.get(" ".join(core_words(filer_words(issuer))))
        if owner is not None:
            e = by_id[owner]
            if issuer != e.name and issuer not in e.aliases:
                by_id[owner] = replace(e, aliases=(*e.aliases, issuer))
        else:
            issuers.setdefault(normalize(issuer), Entity(issuer))
        if title and (m := _GROUP.search(title)):
            groups.setdefault(m.group(1).strip(), set()).add(issuer)
    out = [*by_id.values(), *issuers.values()]
    held = {normalize(e.name) for e in out}
    out += [Entity(group, members=tuple(sorted(members))) for group, members in sorted(groups.items())
            if normalize(group) not in held]
    return out
