"""Generated inline XBRL documents whose facts the generator knows (tests/test_xbrl_inline.py,
tests/test_trust_xbrl.py): numbers with random digits, scale, sign and format, texts with excluded parts and
continuations, hidden facts and duplicates."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import strategies as st

HEAD = """<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"
 xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2020-02-12" xmlns:xbrli="http://www.xbrl.org/2003/instance"
 xmlns:xbrldi="http://xbrl.org/2006/xbrldi" xmlns:iso4217="http://www.xbrl.org/2003/iso4217"
 xmlns:us-gaap="http://fasb.org/us-gaap/2024" xmlns:dei="http://xbrl.sec.gov/dei/2024"
 xmlns:acme="http://acme.example/20241231" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><body>
<div style="display:none"><ix:header><ix:hidden>{hidden}</ix:hidden><ix:resources>
<xbrli:context id="d"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000042</xbrli:identifier>
</xbrli:entity><xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate><xbrli:endDate>2024-12-31</xbrli:endDate>
</xbrli:period></xbrli:context>
<xbrli:context id="i"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000042</xbrli:identifier>
</xbrli:entity><xbrli:period><xbrli:instant>2024-12-31</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:context id="s"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000042</xbrli:identifier>
<xbrli:segment><xbrldi:explicitMember dimension="us-gaap:StatementBusinessSegmentsAxis">acme:WidgetsMember
</xbrldi:explicitMember></xbrli:segment></xbrli:entity><xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate>
<xbrli:endDate>2024-12-31</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
<xbrli:unit id="eps"><xbrli:divide><xbrli:unitNumerator><xbrli:measure>iso4217:USD</xbrli:measure>
</xbrli:unitNumerator><xbrli:unitDenominator><xbrli:measure>xbrli:shares</xbrli:measure></xbrli:unitDenominator>
</xbrli:divide></xbrli:unit>
</ix:resources></ix:header></div>{body}</body></html>"""
CONCEPTS = ["us-gaap:Revenues", "us-gaap:NetIncomeLoss", "acme:WidgetBacklog"]
CONTEXTS = {"d": (Decimal, "2024-01-01"), "i": (None, None), "s": (Decimal, "2024-01-01")}


# what numbers() draws each part of a fact from, unless told otherwise
DRAWS = {"concept": st.sampled_from(CONCEPTS), "context": st.sampled_from(sorted(CONTEXTS)),
         "whole": st.integers(0, 10**12), "places": st.integers(0, 4), "scale": st.sampled_from([-2, 0, 3, 6, 9]),
         "decimals": st.sampled_from(["-6", "-3", "0", "2", "INF"])}


@st.composite
def numbers(draw: st.DrawFn, n: int, **given: st.SearchStrategy) -> tuple[str, dict]:
    """A nonFraction as the document shows it, and the fact it states: `value` the exact decimal (shown number,
    times ten to the scale, negated by sign="-"). `given`: strategies for parts (DRAWS' names), and `shown_sign`, a
    sign to show before the number, which no document may do."""
    parts = {**DRAWS, **given}
    concept = draw(parts["concept"])
    context = draw(parts["context"])
    unit = draw(st.sampled_from(["usd", "eps"]))
    whole = draw(parts["whole"])
    places = draw(parts["places"])
    fraction = draw(st.integers(0, 10**places - 1)) if places else 0
    scale = draw(parts["scale"])
    negative = draw(st.booleans())
    style = draw(st.sampled_from(["grouped", "plain", "zero"]) if whole or fraction else st.just("zero"))
    if style == "zero":
        whole, fraction, places = 0, 0, 0
    shown_number = Decimal(f"{whole}.{fraction:0{places}d}") if places else Decimal(whole)
    truth = Decimal(f"{'-' if negative and shown_number else ''}{shown_number:f}E{scale}")  # exact, whatever its size
    if style == "grouped":
        text = f"{whole:,}" + (f".{fraction:0{places}d}" if places else "")
        fmt = ' format="ixt:num-dot-decimal"'
    elif style == "plain":
        text, fmt = f"{shown_number:f}", ""
    else:
        text, fmt = draw(st.sampled_from(["—", "-", "–"])), ' format="ixt:fixed-zero"'
    decimals = draw(parts["decimals"])
    shown_sign = draw(parts["shown_sign"]) if "shown_sign" in parts and style != "zero" else ""
    text = shown_sign + text
    sign = ' sign="-"' if negative else ""
    element = (f'<ix:nonFraction name="{concept}" contextRef="{context}" unitRef="{unit}" decimals="{decimals}" '
               f'scale="{scale}"{fmt}{sign} id="n{n}">{text}</ix:nonFraction>')
    wrap = draw(st.sampled_from(["{}", "<b>{}</b>", "<span>$ <i>{}</i></span>", "<td>({})</td>"]))
    fact = {"concept": concept, "context": context, "unit": "USD" if unit == "usd" else "USD/shares",
            "value": truth, "decimals": decimals, "scale": scale, "format": bool(fmt), "shown": text}
    return wrap.format(element), fact


@st.composite
def texts(draw: st.DrawFn, n: int) -> tuple[str, str, dict]:
    """A nonNumeric (with excluded parts, nested markup and a continuation chain), its continuations placed
    elsewhere in the body, and the fact it states."""
    words = st.text(alphabet="abcdefghij", min_size=1, max_size=6)
    parts = draw(st.lists(st.lists(words, min_size=1, max_size=4), min_size=1, max_size=3))
    excluded = draw(st.lists(words, min_size=len(parts), max_size=len(parts)))
    shown = [" ".join(p) for p in parts]
    pieces = [f'{s} <ix:exclude>{x} </ix:exclude><span>.</span>' for s, x in zip(shown, excluded, strict=True)]
    first = (f'<ix:nonNumeric name="acme:Policy" contextRef="d" id="t{n}"'
             + (f' continuedAt="c{n}-1"' if len(pieces) > 1 else "") + f"><p>{pieces[0]}</p></ix:nonNumeric>")
    following = "".join(
        f'<div><ix:continuation id="c{n}-{i}"' + (f' continuedAt="c{n}-{i + 1}"' if i + 1 < len(pieces) else "")
        + f">{piece}</ix:continuation></div>" for i, piece in enumerate(pieces[1:], start=1))
    truth = " ".join(f"{s} ." for s in shown)
    return first, following, {"concept": "acme:Policy", "context": "d", "unit": None, "value": truth,
                              "decimals": None}


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, list[dict]]:
    """A document of numbers and texts (some repeated, some hidden), and its facts in document order."""
    count = draw(st.integers(1, 12))
    body, tail, hidden, facts = [], [], [], []
    for n in range(count):
        if draw(st.integers(0, 3)):
            shown, fact = draw(numbers(n))
            place = hidden if draw(st.integers(0, 5)) == 0 else body
            place.append(shown)
            facts.append(fact)
            if draw(st.integers(0, 4)) == 0:  # the same fact tagged again, as statements and notes do
                body.append(shown.replace(f'id="n{n}"', f'id="n{n}b"'))
                facts.append(fact)
        else:
            first, following, fact = draw(texts(n))
            body.append(first)
            tail.append(following)
            facts.append(fact)
    return HEAD.format(hidden="".join(hidden), body="".join(body + tail)), facts
