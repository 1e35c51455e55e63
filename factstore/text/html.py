"""Filing HTML to a Document: a plain text of blank-line separated blocks (headings, paragraphs, lists,
whole tables, notes) and the SEC Item sections found in it, all by character offsets.

Real 10-K/10-Q documents have no heading tags: Item and PART headings are short (often bold) paragraphs
or one-row layout tables, and a table of contents repeats them. Candidates are matched by pattern, and
the Items kept are the longest run in document and Item order with the most body text behind it, which
drops table-of-contents copies (links, page numbers, tiny bodies).

Page furniture (running headers and footers, contents back-links, page numbers) is left out of the text;
pages end at page-break styles and rules (factstore.text.furniture).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from itertools import islice

import lxml.html
from lxml import etree

from factstore.text.blocks import Block, Document, Section
from factstore.text.furniture import furniture

_SKIP = frozenset({"head", "title", "script", "style", "noscript", "template", "ix:header", "ix:hidden"})
_BLOCK = frozenset({
    "address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "header", "hr", "html", "main", "nav", "p",
    "section", "tbody", "td", "tfoot", "th", "thead", "tr",
})
_HEADING_TAGS = {f"h{n}": n for n in range(1, 7)}
_HIDDEN = re.compile(r"display\s*:\s*none", re.I)
_BREAK_BEFORE = re.compile(r"(page-)?break-before\s*:\s*(always|page)", re.I)
_BREAK_AFTER = re.compile(r"(page-)?break-after\s*:\s*(always|page)", re.I)
_BOLD = re.compile(r"font-weight\s*:\s*(bold|bolder|[6-9]00)|font\s*:[^;]*\bbold\b", re.I)
_NOT_BOLD = re.compile(r"font-weight\s*:\s*(normal|lighter|[1-5]00)", re.I)
_RAISED = re.compile(r"vertical-align\s*:\s*super|position\s*:\s*relative\s*;\s*top\s*:\s*-", re.I)
_INDENTED = re.compile(r"(padding|margin)-left\s*:\s*[1-9]", re.I)
_WS = re.compile(r"\s+")
_DROP = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u00ad\ufeff"))
_MARKS = re.compile(r"(?:\(?\d{1,2}\)?,?)+")
_SUPERSCRIPT = str.maketrans("0123456789()", "⁰¹²³⁴⁵⁶⁷⁸⁹⁽⁾")
_PREFIX_CELLS = frozenset({"$", "US$", "€", "£", "¥", "("})
_SUFFIX_CELLS = frozenset({")", "%", ")%", "%)"})
_BULLETS = frozenset("•·●◦○▪■\uf0b7\uf0a7")
_MARK_NODES = 16  # a note mark is a few nodes ("<sup><a>1</a></sup>"); more is raised text
_KEPT_ATTRIBUTES = ("style", "href")  # all the walk reads

_ITEM = re.compile(
    r"(?:PART\s+(?P<part>[IVX]+)\b\W*)?ITEM\s*(?P<item>\d{1,2}[A-C]?)(?![\w(])(?!\s*\()\s*[.:\-\u2013\u2014]?\s*(?P<title>.*)",
    re.I | re.S,
)
_PART = re.compile(r"PART\s+(?P<part>[IVX]+)(?![\w(])", re.I)
_ITEM_ALONE = re.compile(r"ITEM\s*\d{1,2}[A-C]?\s*[.:\-\u2013\u2014]?", re.I)
_HTML_TAG = re.compile(r"<(?:!--|/?(?:html|body|p|div|span|table|tr|td|font|pre|br|hr|h[1-6]|ul|ol|li|a|b|i|sup)\b)",
                       re.I)
_FONT_OPEN, _FONT_CLOSE, _FONT_TAG = (re.compile(p, re.I) for p in (r"<font\b", r"</font\s*>", r"</?font\b[^>]*>"))
_UNCLOSED_FONTS = 500
_PAGE_NUMBER = re.compile(r"\s\d{1,3}$")
_HEADING_MAX = 300  # longest block taken for an Item heading
_PART_MAX = 100
_ITEMS_WORD = re.compile(r"\bitems?\b", re.I)
_SUBHEADING = re.compile(r"[^a-z\n][^\n]*[^.,;:\n]")  # one line, no lowercase start or final punctuation
_SUBHEADING_MAX = 150
_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4}
_TENK_ONLY = frozenset({"1B", "1C", "7", "7A", "8", "9", "9A", "9B", "9C", "10", "11", "12", "13", "14", "15", "16"})


def _tenk_parts(item: str) -> tuple[str, ...]:
    """The Parts a 10-K Item can be in: 1-4 I, 5-9C II, 10-14 III, 15-16 IV; before 2003 Item 14 (the
    exhibits) was in Part IV."""
    n = int(re.match(r"\d+", item).group())
    return ("I",) if n <= 4 else ("II",) if n <= 9 else ("III",) if n <= 13 else ("III", "IV") if n == 14 else ("IV",)


@dataclass
class _Raw:
    """A block before offsets: its text and what heading detection needs to know about it."""

    kind: str
    text: str
    bold: bool = False
    link: bool = False
    level: int = 0  # h1..h6 tag level, 0 when not a heading tag
    notes: tuple[str, ...] = ()
    note_mark: str | None = None


@dataclass
class _Line:
    """Inline text gathered for one block or one table cell, with its note marks."""

    parts: list[str] = field(default_factory=list)
    chars: int = 0
    bold: int = 0
    link: int = 0
    marks: list[str] = field(default_factory=list)
    lead_mark: bool = False

    def add(self, text: str, bold: bool, link: bool) -> None:
        text = _WS.sub(" ", text.translate(_DROP))
        if not text:
            return
        self.parts.append(text)
        n = len(text) - text.count(" ")
        self.chars += n
        self.bold += n if bold else 0
        self.link += n if link else 0

    def mark(self, shown: str, digits: list[str]) -> None:
        """A note mark, attached to the text before it."""
        while self.parts and self.parts[-1].endswith(" "):
            self.parts[-1] = self.parts[-1].rstrip(" ")
            if not self.parts[-1]:
                self.parts.pop()
        self.lead_mark = self.lead_mark or (self.chars == 0 and not self.marks)
        self.parts.append(shown)
        self.marks += digits

    def text(self) -> str:
        lines = (" ".join(line.split()) for line in "".join(self.parts).split("\n"))
        return "\n".join(line for line in lines if line)

    def raw(self, kind: str, text: str | None = None, level: int = 0) -> _Raw:
        text = self.text() if text is None else text
        if kind == "paragraph" and self.lead_mark:
            return _Raw("note", text, notes=_unique(self.marks[1:]), note_mark=self.marks[0])
        return _Raw(kind, text, bold=self.chars > 0 and self.bold == self.chars,
                    link=self.chars > 0 and self.link == self.chars, level=level, notes=_unique(self.marks))


def _unique(marks: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(marks))


class _Builder:
    """Walks the HTML tree and collects blocks; inside table cells and list items (``flat``) block
    boundaries become spaces."""

    def __init__(self) -> None:
        self.raws: list[_Raw] = []
        self.breaks: list[int] = []  # indexes of the raws a page starts with
        self.line = _Line()
        self.flat = 0
        self.level = 0

    def flush(self) -> None:
        line, self.line = self.line, _Line()
        if line.text():
            self.raws.append(line.raw("heading" if self.level else "paragraph", level=self.level))

    def visit(self, root, bold: bool, link: bool) -> None:
        """Walk ``root`` iteratively (old filings nest unclosed tags thousands deep). An element stays on
        ``todo`` until its subtree is done: lxml frees a dropped element by climbing to the nearest ancestor
        still referenced, which would make a deep walk quadratic."""
        todo: list = [(root, bold, link)]
        while todo:
            step = todo.pop()
            if callable(step):
                step()
            elif isinstance(step, tuple):
                todo += [step[0], *reversed(self.enter(*step))]

    def enter(self, el, bold: bool, link: bool) -> list:
        """Handle an element's start; return what follows in order: its children, their tails and the
        action closing it."""
        tag = el.tag
        if not isinstance(tag, str):  # comments, processing instructions
            return []
        tag = tag.lower()
        style = el.get("style") or ""
        if tag in _SKIP or _HIDDEN.search(style):
            return []
        if not self.flat and _BREAK_BEFORE.search(style):
            self.page_break()
        ends = [self.page_break] if not self.flat and (tag == "hr" or _BREAK_AFTER.search(style)) else []
        if tag in ("b", "strong") or _BOLD.search(style):
            bold = True
        elif _NOT_BOLD.search(style):
            bold = False
        link = link or (tag == "a" and el.get("href") is not None)
        if _INDENTED.search(style):
            self.line.add(" ", bold, link)
        close = None
        if tag == "br":
            self.line.parts.append(" " if self.flat else "\n")
            return ends
        if tag == "sup" or _RAISED.search(style):
            if shown := _note_mark(el):  # a note mark ("1", "(2)(3)"); other raised text (®, st) stays text
                self.line.mark(shown.translate(_SUPERSCRIPT), re.findall(r"\d+", shown))
                return []
        elif self.flat:
            if tag in _BLOCK or tag in _HEADING_TAGS or tag in ("table", "li", "pre"):
                self.line.add(" ", bold, link)
                close = self.space
        elif tag == "table":
            self.table(el)
            return ends
        elif tag in ("ul", "ol"):
            self.listing(el, ordered=tag == "ol")
            return ends
        elif tag == "pre":
            self.pre(el)
            return ends
        elif tag in _HEADING_TAGS:
            self.flush()
            self.level, bold, close = _HEADING_TAGS[tag], True, self.end_heading
        elif tag in _BLOCK or tag == "li":
            self.flush()
            close = self.flush
        if el.text:
            self.line.add(el.text, bold, link)
        steps: list = []
        for child in el:
            steps.append((child, bold, link))
            if child.tail:
                steps.append(lambda tail=child.tail, b=bold, a=link: self.line.add(tail, b, a))
        return [*steps, close, *ends] if close else [*steps, *ends]

    def page_break(self) -> None:
        """A page ends here (a page-break style or a rule)."""
        self.flush()
        if not self.breaks or self.breaks[-1] != len(self.raws):
            self.breaks.append(len(self.raws))

    def space(self) -> None:
        self.line.add(" ", False, False)

    def end_heading(self) -> None:
        self.flush()
        self.level = 0

    def cells(self, parent) -> list[_Line]:
        """The gathered text of each visible cell (or list item) under ``parent``."""
        out = []
        self.flat += 1
        for child in parent:
            if isinstance(child.tag, str) and not _HIDDEN.search(child.get("style") or ""):
                self.line = _Line()
                self.visit(child, False, False)
                out.append(self.line)
        self.flat -= 1
        self.line = _Line()
        return out

    def table(self, el) -> None:
        """A data table as one block (a line per row, cells joined by " | "); a bulleted layout table as a
        list; another layout table (one row or one column) as paragraphs, so headings set in tables are
        found."""
        self.flush()
        rows = []
        for tr in el.xpath("./tr | ./*/tr"):
            if _HIDDEN.search(tr.get("style") or ""):
                continue
            cells = [c for c in self.cells(tr) if c.text()]
            texts = _merge_cells([c.text() for c in cells])
            if texts:
                rows.append((texts, cells))
        if rows and all(len(texts) == 2 and texts[0] in _BULLETS for texts, _ in rows):
            marks = [m for _, cells in rows for c in cells for m in c.marks]
            self.raws.append(_Raw("list", "\n".join(f"- {texts[1]}" for texts, _ in rows), notes=_unique(marks)))
        elif len(rows) == 1 or all(len(texts) == 1 for texts, _ in rows):
            for texts, cells in rows:
                line = _Line(chars=sum(c.chars for c in cells), bold=sum(c.bold for c in cells),
                             link=sum(c.link for c in cells), marks=[m for c in cells for m in c.marks],
                             lead_mark=cells[0].lead_mark)
                self.raws.append(line.raw("paragraph", " ".join(texts)))
        elif rows:
            marks = [m for _, cells in rows for c in cells for m in c.marks]
            self.raws.append(_Raw("table", "\n".join(" | ".join(texts) for texts, _ in rows), notes=_unique(marks)))

    def listing(self, el, ordered: bool) -> None:
        self.flush()
        items = [c for c in self.cells(el) if c.text()]
        if items:
            lines = [f"{n}. {c.text()}" if ordered else f"- {c.text()}" for n, c in enumerate(items, 1)]
            self.raws.append(_Raw("list", "\n".join(lines), notes=_unique([m for c in items for m in c.marks])))

    def pre(self, el) -> None:
        """Preformatted text: a block per blank-line separated chunk, and Item/PART lines on their own."""
        self.flush()
        text = "".join(el.itertext()).translate(_DROP).replace("\xa0", " ").expandtabs()
        chunk: list[str] = []
        for line in [*text.splitlines(), ""]:
            line = line.rstrip()
            heading = _is_heading_line(line.lstrip())
            if chunk and (not line or heading):
                self.raws.append(_Raw("paragraph", "\n".join(chunk)))
                chunk = []
            if heading:
                self.raws.append(_Raw("paragraph", line.lstrip()))
            elif line:
                chunk.append(line if chunk else line.lstrip())


def _note_mark(el) -> str | None:
    """The text of a raised element that is a note mark, else None. Only a few nodes are read, so nested
    raised elements cost no more than flat ones."""
    if len(list(islice(el.iter(), _MARK_NODES + 1))) > _MARK_NODES:
        return None
    shown = "".join("".join(el.itertext()).split())
    return shown if _MARKS.fullmatch(shown) else None


def _is_heading_line(line: str) -> bool:
    """A line of plain text that reads like an Item or PART heading."""
    return len(line) <= _HEADING_MAX // 2 and bool(_item_heading(line) or _part_heading(line))


def _item_heading(text: str) -> re.Match | None:
    """The match of an Item heading ("Item 1A. Risk Factors"), not of a sentence ("Item 7 of this ...")."""
    m = _ITEM.match(text)
    return m if m and int(re.match(r"\d+", m["item"]).group()) <= 16 and not m["title"][:1].islower() else None


def _part_heading(text: str) -> re.Match | None:
    """The match of a PART heading ("PART II — OTHER INFORMATION"), not of a reference ("Part II, Item 5")."""
    m = _PART.match(text)
    if not m or m["part"].upper() not in _ROMAN or len(text) > _PART_MAX or _ITEMS_WORD.search(text):
        return None
    return None if text[m.end():].lstrip(" .,:-\u2013\u2014")[:1].islower() else m


def _merge_cells(cells: list[str]) -> list[str]:
    """Drop empty cells and merge presentational ones ("$", ")", "%") into their neighbours."""
    out: list[str] = []
    prefix = ""
    for cell in cells:
        if not cell:
            continue
        if cell in _PREFIX_CELLS:
            prefix += cell
        elif cell in _SUFFIX_CELLS and out and not prefix:
            out[-1] += cell
        else:
            out.append(prefix + cell)
            prefix = ""
    if prefix:
        out.append(prefix)
    return out


def _blocks(html: str) -> list[_Raw]:
    """The blocks of an HTML (or plain-text) filing, in document order."""
    html = re.sub(r"^\s*<\?xml[^>]*\?>", "", html)
    if len(_FONT_OPEN.findall(html)) - len(_FONT_CLOSE.findall(html)) > _UNCLOSED_FONTS:
        html = _FONT_TAG.sub("", html)  # else they nest past libxml2's tree depth: the slower parse below
    if not _HTML_TAG.search(html):
        html = "<pre>" + html.replace("&", "&amp;").replace("<", "&lt;") + "</pre>"
    parser = lxml.html.HTMLParser(huge_tree=True)
    try:
        root = lxml.html.document_fromstring(html, parser=parser)
    except etree.ParserError:  # nothing but comments or whitespace
        return []
    if any(e.type == etree.ErrorTypes.ERR_RESOURCE_LIMIT for e in parser.error_log):
        # libxml2 builds its tree 2,048 levels deep at most and drops the rest; its events go on
        root = etree.fromstring(html, lxml.html.HTMLParser(huge_tree=True, target=_TreeTarget()))
    builder = _Builder()
    builder.visit(root, False, False)
    builder.flush()
    dropped = _furniture(builder.raws, builder.breaks)
    return [raw for i, raw in enumerate(builder.raws) if i not in dropped]


def _furniture(raws: list[_Raw], breaks: list[int]) -> set[int]:
    """The page furniture among the blocks (running headers and footers, contents back-links, page
    numbers); tables, lists, notes and Item or PART headings never are."""
    return furniture([raw.text if raw.kind in ("paragraph", "heading") and not _is_heading_line(raw.text) else None
                      for raw in raws], breaks)


class _TreeTarget:
    """A parser target building the tree from the parser's events, at any depth; elements keep only the
    attributes the walk reads, and comments are left out."""

    def __init__(self) -> None:
        self.maker = lxml.html.HTMLParser()  # its elements take HTML names ("ix:header"), unlike XML's
        self.root = None
        self.open: list = []
        self.last = None  # the element that ended last, while the text after it is its tail
        self.texts: list[str] = []

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        self.put_text()
        kept = {name: attrib[name] for name in _KEPT_ATTRIBUTES if name in attrib}
        parent = self.open[-1] if self.open else self.root
        el = self.maker.makeelement(tag, kept) if parent is None else etree.SubElement(parent, tag, kept)
        self.root = self.root if self.root is not None else el
        self.open.append(el)
        self.last = None

    def end(self, tag: str) -> None:
        self.put_text()
        self.last = self.open.pop() if self.open else None

    def data(self, text: str) -> None:
        self.texts.append(text)

    def put_text(self) -> None:
        """Set the text gathered since the last start or end (joined once: the parser sends it in pieces)."""
        if self.texts and (self.last is not None or self.open):
            text = "".join(self.texts)
            if self.last is not None:
                self.last.tail = text
            else:
                self.open[-1].text = text
        self.texts = []

    def close(self):
        self.put_text()
        return self.root


@dataclass
class _Candidate:
    index: int  # into the raws
    part: str | None
    item: str | None  # None for a PART heading


def _candidates(raws: list[_Raw]) -> list[_Candidate]:
    """Short non-link blocks that read like an Item or PART heading (not a contents line with a page)."""
    out = []
    for i, raw in enumerate(raws):
        if raw.kind not in ("paragraph", "heading") or raw.link or len(raw.text) > _HEADING_MAX:
            continue
        text = raw.text.replace("\n", " ")
        if _PAGE_NUMBER.search(text):
            continue
        if m := _item_heading(text):
            part = m["part"].upper() if m["part"] and m["part"].upper() in _ROMAN else None
            out.append(_Candidate(i, part, m["item"].upper()))
        elif m := _part_heading(text):
            out.append(_Candidate(i, m["part"].upper(), None))
    return out


def _merge_split_headings(raws: list[_Raw]) -> list[_Raw]:
    """Join an "Item 1A." block with the short title block that follows it."""
    out: list[_Raw] = []
    i = 0
    while i < len(raws):
        raw = raws[i]
        nxt = raws[i + 1] if i + 1 < len(raws) else None
        if (nxt and raw.kind in ("paragraph", "heading") and nxt.kind in ("paragraph", "heading")
                and _ITEM_ALONE.fullmatch(raw.text) and len(nxt.text) <= _HEADING_MAX // 2
                and not _ITEM.match(nxt.text) and not _PART.match(nxt.text)):
            out.append(_Raw(raw.kind, f"{raw.text} {nxt.text}", bold=raw.bold and nxt.bold, link=raw.link,
                            level=raw.level, notes=_unique([*raw.notes, *nxt.notes])))
            i += 2
        else:
            out.append(raw)
            i += 1
    return out


def _item_key(part: str, item: str) -> tuple[int, int, str]:
    number = re.match(r"\d+", item).group()
    return _ROMAN[part], int(number), item[len(number):]


def _choose_items(cands: list[_Candidate], raws: list[_Raw]) -> list[_Candidate]:
    """The Item headings: the longest chain increasing in document and (Part, Item) order, ties broken by
    the body text behind the chosen headings (a contents entry has almost none)."""
    tenk = any(c.item in _TENK_ONLY for c in cands)
    pos = [0]
    for raw in raws:
        pos.append(pos[-1] + len(raw.text) + 2)
    items, context = [], None
    for k, c in enumerate(cands):
        if c.item is None:
            context = c.part
            continue
        allowed = _tenk_parts(c.item)  # a 10-Q's Items take the Part heading above them
        part = c.part or (context if context in allowed or (context and not tenk) else allowed[0])
        body = pos[cands[k + 1].index if k + 1 < len(cands) else len(raws)] - pos[c.index]
        items.append((_Candidate(c.index, part, c.item), _item_key(part, c.item), body))
    best = _best_chains([key for _, key, _ in items], [body for _, _, body in items])
    if not best:
        return []
    j = max(range(len(best)), key=lambda i: best[i][:2])
    chain = []
    while j >= 0:
        chain.append(items[j][0])
        j = best[j][2]
    return chain[::-1]


def _best_chains(keys: list[tuple], bodies: list[int]) -> list[tuple[int, int, int]]:
    """Per position j: (count, body, previous) of the best chain ending at j, increasing in position and key;
    best is most positions, then most body, then the latest previous position. The best ending before j
    at a lower key comes from a prefix-maximum (Fenwick) tree over the key ranks: O(n log keys)."""
    rank = {key: r for r, key in enumerate(sorted(set(keys)), 1)}
    tree = [(0, 0, -1)] * (len(rank) + 1)  # (count, body, position) of the best chain ending in a rank range
    best = []
    for j, (key, body) in enumerate(zip(keys, bodies, strict=True)):
        top, r = (0, 0, -1), rank[key] - 1
        while r:
            top, r = max(top, tree[r]), r & (r - 1)
        best.append((top[0] + 1, top[1] + body, top[2]))
        r = rank[key]
        while r < len(tree):
            tree[r] = max(tree[r], (top[0] + 1, top[1] + body, j))
            r += r & -r
    return best


def _headings(raws: list[_Raw]) -> list[tuple[int, int, str | None, str | None]]:
    """(raw index, level, part, item) of each section heading, in document order: PART (1) and Item (2)
    headings, then inside Items the heading tags and short all-bold lines (3). Without Items, the h2-h6
    headings at their tag level."""
    cands = _candidates(raws)
    items = _choose_items(cands, raws)
    out = []
    previous = -1
    for n, c in enumerate(items):
        if n == 0 or c.part != items[n - 1].part:
            parts = [p for p in cands if p.item is None and p.part == c.part and previous < p.index < c.index]
            if parts:
                out.append((parts[-1].index, 1, c.part, None))
        out.append((c.index, 2, c.part, c.item))
        previous = c.index
    taken = {c.index for c in cands}
    if not items:
        return out + [(i, raw.level, None, None) for i, raw in enumerate(raws) if raw.level >= 2]
    repeated = Counter(raw.text for raw in raws)
    for i in range(items[0].index + 1, len(raws)):
        raw = raws[i]
        if i not in taken and (raw.level >= 2 or _is_subheading(raw, repeated[raw.text])):
            out.append((i, 3, None, None))
    return sorted(out)


def _is_subheading(raw: _Raw, copies: int) -> bool:
    """A short all-bold line, not a running page header (repeated) nor an aside like "(In millions)"."""
    return (raw.kind == "paragraph" and raw.bold and len(raw.text) <= _SUBHEADING_MAX and copies < 3
            and bool(_SUBHEADING.fullmatch(raw.text)) and not (raw.text[0] == "(" and raw.text[-1] == ")"))


def parse_filing(html: str) -> Document:
    """Parse a filing's HTML into its text, blocks and (SEC Item) sections."""
    raws = _merge_split_headings(_blocks(html)) if html.strip() else []
    heads = _headings(raws)
    for i, *_ in heads:
        raws[i].kind = "heading"
    pieces, spans, pos = [], [], 0
    for raw in raws:
        if pieces:
            pieces.append("\n\n")
            pos += 2
        pieces.append(raw.text)
        spans.append((pos, pos + len(raw.text)))
        pos += len(raw.text)
    text = "".join(pieces)
    sections: list[Section] = []
    open_: list[int] = []  # indexes of the sections still open, outermost first
    for i, level, part, item in heads:
        start = spans[i][0]
        while open_ and sections[open_[-1]].level >= level:
            k = open_.pop()
            sections[k] = replace(sections[k], end=start)
        heading = " ".join(raws[i].text.split())
        path = tuple(sections[k].heading for k in open_) + (heading,)
        open_.append(len(sections))
        sections.append(Section(heading, level, start, len(text), part, item, path))
    return Document(text=text, sections=sections, blocks=_located(raws, spans, sections))


def _located(raws: list[_Raw], spans: list[tuple[int, int]], sections: list[Section]) -> list[Block]:
    """Blocks with their innermost section (sections nest: each ends by its parent's end)."""
    blocks, open_, k = [], [], 0
    for raw, (start, end) in zip(raws, spans, strict=True):
        while k < len(sections) and sections[k].start <= start:
            open_.append(k)
            k += 1
        while open_ and sections[open_[-1]].end <= start:
            open_.pop()
        blocks.append(Block(raw.kind, start, end, open_[-1] if open_ else None, raw.notes, raw.note_mark))
    return blocks


def linearize_table(table_text: str) -> str:
    """A table block's text as "row label: column header = value; ..." lines. The header is the first
    row with several cells, prefixed by the one-cell rows above it ("Years ended"); headers align to
    the rightmost values when the label column has none."""
    lines = table_text.split("\n")
    spanners = []
    while len(lines) > 1 and " | " not in lines[0]:
        spanners.append(lines.pop(0))
    header = [" ".join([*spanners, cell]) for cell in lines[0].split(" | ")]
    out = []
    for line in lines[1:]:
        label, *values = line.split(" | ")
        if not values:
            out.append(label)
            continue
        heads = header[1:] if len(header) == len(values) + 1 else header[-len(values):]
        heads = [""] * (len(values) - len(heads)) + heads
        out.append(f"{label}: " + "; ".join(f"{h} = {v}" if h else v for h, v in zip(heads, values, strict=True)))
    return "\n".join(out)
