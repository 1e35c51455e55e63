"""Question understanding, in English and Spanish: a question is read into a `Reading` (companies, metric,
periods, as-of moment, mode, part of the company, growth, comparison, restatement), each part recording the words
it consumed. Words left over that could change the answer (a number, a month, a period or mode word, a word
modifying the metric) are kept in `unread`: a question about figures with unread words is refused, never answered
with the figure of another question.

Periods are labels: FY2024, 2024Q2, 2024H1, 2024M9, CY2024; TTM2025Q2 (the four quarters ending 2025Q2) and TTM
(the newest four known); END:<kind>:<date> (the quarter, half, nine months or year ending that day); LATEST:<kind>
(the newest quarter or year known). An as-of date means 00:00 UTC of that day, a month its first instant, "end of
2023" 2023-12-31 00:00 UTC: never later than what was asked.
"""

from __future__ import annotations

import itertools
import re
from calendar import monthrange
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import cache

from factstore.names import Entity, Found, Names, acronyms, name_words, one_edit
from factstore.text import tokenize
from factstore.text.tokenize import normalize
from factstore.timing import NEW_YORK, utc_naive
from factstore.vocabulary import Metric

_WORD = r"\w+(?:[&+]\w+)*"  # a word of a question or a metric: 'r&d' and 'i+d' are one, 'long-term' two
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "primer": 1, "primero": 1, "segundo": 2,
             "tercer": 3, "tercero": 3, "cuarto": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_MONTHS = {"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
           "september": 9, "october": 10, "november": 11, "december": 12, "enero": 1, "febrero": 2,
           "marzo": 3, "abril": 4, "mayo": 5, "junio": 6, "julio": 7, "agosto": 8, "septiembre": 9,
           "setiembre": 9, "octubre": 10, "noviembre": 11, "diciembre": 12, "jan": 1, "feb": 2, "mar": 3, "apr": 4,
           "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12, "ene": 1, "abr": 4,
           "ago": 8, "dic": 12}
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_YEAR = r"((?:19|20)\d{2})"
_YY = r"'?((?:19|20)?\d{2})"  # a year of two digits or four ('fy25', '2q24', "q1 '18")
_DAY = (rf"(?:\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}[/-]\d{{1,2}}[/-]\d{{4}}|\d{{1,2}} de (?:{_MONTH})\.? de(?:l)? \d{{4}}"
        rf"|(?:{_MONTH})\.? \d{{1,2}}(?:st|nd|rd|th)?,? \d{{4}}|\d{{1,2}} (?:{_MONTH})\.?,? \d{{4}})")
# a clock's zone after its time: UTC, or New York's (ET follows its daylight saving; EST and EDT are fixed)
_ZONES = r"utc|gmt|z|et|est|edt|eastern(?:\s+time)?|new\s+york\s+time|ny\s+time|hora\s+de\s+nueva\s+york"
_DATE = rf"({_DAY}(?:[ t]\d{{2}}:\d{{2}}(?::\d{{2}})?(?: ?(?:{_ZONES})\b)?)?)"
# a clock as people write it: '16:45', '3:29 p.m.', '8 pm', 'noon', 'mediodía'
_CLOCK = (r"\d{1,2}(?::\d{2}(?::\d{2})?)?\s*(?:a\.?\s?m\b\.?|p\.?\s?m\b\.?)|\d{1,2}:\d{2}(?::\d{2})?|noon|midday|"
          r"midnight|mediodia|medianoche")
_WEEKDAY = (r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|lunes|martes|miercoles|jueves|viernes|"
            r"sabado|domingo),?")
_AS_OF_LEAD = (r"(?:as of|as at|as known on|as known at|as known|known on|known at|known as of|at the date of|"
               r"a fecha de|a fecha|a dia|a dia de|conocido el|conocida el|conocido al?|conocida al?|"
               r"segun lo conocido el|segun lo conocido al?|con datos al?|con datos de|con datos a fecha de|"
               r"(?:tal\s+)?como\s+se\s+conocian?\s+(?:el|al?)|"
               r"segun se conocia el|segun se conocia a|se conocia el|segun lo publicado hasta el|"
               r"segun los datos disponibles el|segun los datos disponibles a|con los datos disponibles el|"
               r"segun lo publicado al?|hasta el|segun lo que se sabia el|segun lo que se conocia el|"
               r"segun la informacion disponible el|segun la informacion disponible a|"
               r"con la informacion disponible el|con la informacion disponible a)")
_AS_OF_OR_DATE = re.compile(r"(?:as of|as at|a fecha de|a dia|hasta)\b")  # leads that also say a balance's date
_WEAK_LEAD = r"(?:a|al|on|at|by)"  # 'a 31/12/2024', 'on 2024-06-30': an as-of moment only beside a period named
_AS_OF = re.compile(rf"\b{_AS_OF_LEAD}\s+(?:el\s+|the\s+)?(?:{_WEEKDAY}\s+)?{_DATE}")
_AS_OF_MONTH = re.compile(rf"\b(?:as of|as at|as known in|known in|a|hasta|a fecha de|segun lo conocido en)\s+"
                          rf"(?:(?:principios|inicios) de\s+)?({_MONTH})\.?,?\s+(?:de(?:l)?\s+)?{_YEAR}\b")
_AS_OF_END = re.compile(rf"\b(?:as of|as at|as known at|segun lo conocido a|conocido a|hasta)\s+"
                        rf"(?:the\s+)?(?:end|close|finales|fin|cierre)\s+"
                        rf"(?:of\s+|de(?:l)?\s+)?(?:calendar\s+|ano\s+)?{_YEAR}\b(?![-/]\d)")
# 'at the end of 2009', 'al cierre de 2024': beside a period
_AT_END = re.compile(rf"\b{_WEAK_LEAD}\s+(?:the\s+)?(?:end|close|finales|fin|cierre)\s+(?:of\s+|de(?:l)?\s+)?"
                     rf"(?:calendar\s+|ano\s+)?{_YEAR}\b(?![-/]\d)")
# the market's close on a day: 16:00 New York time ('as of close 2024-05-22', 'al cierre del 22 de mayo de 2024')
_AS_OF_CLOSE = re.compile(rf"\b(?:as of|as at|at)\s+(?:the\s+)?(?:market\s+)?close\s+(?:of\s+|on\s+)?"
                          rf"(?:the\s+)?({_DAY})"
                          rf"|\bal\s+cierre\s+(?:del?\s+)?(?:mercado\s+)?(?:del?\s+|el\s+)?({_DAY})")
# a clock before its day: 'at 16:45 ET on 2024-02-21', 'a las 16:45 ET del 2024-02-21', 'as of noon New York time on
# January 25, 2010', 'a las 15:31 (hora de Nueva York) del 14 de mayo de 2010'
_AS_OF_CLOCK = re.compile(rf"\b(?:as of|as known at|known at|at|a las|a la|al)\s+({_CLOCK})"
                          rf"(?:\s*\(?\s*({_ZONES})\b\s*\)?)?,?\s+(?:on|del?|el)\s+(?:the\s+|el\s+)?"
                          rf"(?:{_WEEKDAY}\s+)?({_DAY})")
_AT_DAY = re.compile(rf"\b{_WEAK_LEAD}\s+(?:el\s+|the\s+)?{_DATE}")
_AT_FILING = re.compile(r"\b(?:at the time of|when .{0,30}? filed|al publicar|cuando se publico|en el momento de)\s+"
                        r"(?:the\s+|its\s+|el\s+|su\s+)?(10-k|10-q|20-f|annual report|informe anual)\b")
_MODE = [
    (re.compile(r"\b(?:as|when)?\s*(?:originally|first|initially)\s+(?:reported|published|filed|stated)\b|"
                r"\b(?:tal\s+)?(?:y\s+)?como\s+se\s+(?:publico|reporto|informo|presento)(?:\s+(?:originalmente|"
                r"inicialmente|por primera vez|en su momento))?|"
                r"\bsegun se (?:publico|reporto|informo)(?:\s+(?:por primera vez|originalmente|inicialmente))?|"
                r"\b(?:publicad[oa]s?|reportad[oa]s?)\s+"
                r"(?:originalmente|inicialmente|por primera vez)\b|\boriginal(?:ly)?\s+reported\b|"
                r"\b(?:first|originally|initially)\s+(?:report|reports|publish|published|show|showed|shown)\b|"
                r"\b(?:publico|reporto|informo|presento)\s+(?:inicialmente|originalmente|por primera vez)\b|"
                r"\b(?:inicialmente|originalmente)\s+(?:publico|reporto|informo|presento)\b"), "first"),
    (re.compile(r"\b(?:as\s+)?(?:restated|revised|as currently reported)\b|\b(?:latest|most recent|newest|current)"
                r"\s+(?:available\s+|restated\s+|reported\s+)?(?:figures?|values?|numbers?|versions?|data|cifras?)\b|"
                r"\b(?:dato|cifra|valor)(?:s|es)?\s+(?:mas\s+recientes?|vigentes?|actual(?:es)?|actualizad[oa]s?)"
                r"(?:\s+(?:hoy|a\s+hoy|disponibles?))?\b|\bsegun la ultima cifra\b|"
                r"\b(?:reexpresad[oa]s?|cifra mas reciente|ultima cifra)\b|\b(?:according to|per|as per|on|by)\s+the\s+"
                r"(?:latest|most recent|newest|current)\s+(?:figures?|data|numbers|filings?|values?)\b|"
                r"\bsegun\s+(?:las?|los)\s+(?:ultim[oa]s?|mas recientes?)\s+(?:cifras?|datos)(?:\s+disponibles?)?\b|"
                r"\b(?:(?:tal\s+)?como\s+(?:figura|aparece)\s+)?(?:en|segun)\s+(?:la|su)\s+"
                r"(?:presentacion|informe(?:\s+anual)?|declaracion)\s+mas\s+reciente\b|"
                r"\b(?:in|per|according\s+to)\s+(?:the|its)\s+(?:most\s+recent|latest)\s+(?:filing|annual\s+report|10-k)\b|"
                r"\btras\s+la\s+reexpresion\b|\bafter\s+the\s+restatement\b"),
     "latest"),
]
_RESTATED = re.compile(r"\b(?:ever\s+)?(?:restated?|revised|reexpresad[oa]s?|revisad[oa]s?|corregid[oa]s?)\b|"
                       r"\bchange(?:d)?\s+between\s+filings\b|\bcambio\s+entre\s+(?:informes|presentaciones)\b")
_RESTATEMENT_QUESTION = re.compile(r"^\s*(?:was|were|has|have|did|se\s+|fue|fueron|ha\s+sido|how\s+did)\b|"
                                   r"\b(?:ever|alguna vez|between filings|entre (?:informes|presentaciones))\b")
_FISCAL = (r"(?:fiscal\s+(?:years?\s+)?|fy\s*'?|ejercicios?\s+(?:fiscal(?:es)?\s+)?|anos?\s+(?:fiscal(?:es)?\s+)?)?")
_OF = r"(?:of\s+|de\s+|del\s+|in\s+|en\s+)?(?:the\s+|el\s+|its\s+|their\s+|su\s+|sus\s+)?"
_Q_WORD = r"(first|second|third|fourth|1st|2nd|3rd|4th)"
_T_WORD = r"(primer|primero|segundo|tercer|tercero|cuarto)"
_QUARTER_PATTERNS = [  # (pattern, group of the quarter, group of the year)
    (re.compile(rf"\bf?q([1-4])\s*{_OF}{_FISCAL}{_YY}\b"), 1, 2),
    (re.compile(rf"\b{_FISCAL}{_YEAR}\s*-?\s*q([1-4])\b"), 2, 1),
    (re.compile(rf"\bfy\s*'?{_YY}\s*-?\s*q([1-4])\b"), 2, 1),
    (re.compile(rf"\b([1-4])\s*(?:q|t|tr|trim)\s*{_OF}{_FISCAL}{_YY}\b"), 1, 2),
    (re.compile(rf"\bt([1-4])\s*{_OF}{_FISCAL}{_YY}\b"), 1, 2),
    (re.compile(rf"\b{_Q_WORD}[\s-]+(?:fiscal\s+)?quarter\s+{_OF}{_FISCAL}{_YEAR}\b"), 1, 2),
    (re.compile(rf"\b{_T_WORD}\s+trimestre\s+(?:fiscal\s+)?{_OF}{_FISCAL}{_YEAR}\b"), 1, 2),
]
_HALF = [re.compile(rf"\b(?:first\s+half|1h|h1|1s|s1|primer\s+semestre|primera\s+mitad)\s*(?:fiscal\s+)?"
                    rf"{_OF}{_FISCAL}{_YY}\b"),
         re.compile(rf"\b{_FISCAL}{_YEAR}\s*-?\s*(?:h1|1h)\b")]
_SECOND = [re.compile(rf"\b(?:second\s+half|2h|h2|2s|s2|segundo\s+semestre|segunda\s+mitad)\s*(?:fiscal\s+)?"
                      rf"{_OF}{_FISCAL}{_YY}\b"),
           re.compile(rf"\b{_FISCAL}{_YEAR}\s*-?\s*(?:h2|2h)\b")]
# nine months, '(9M)' said again after the words allowed
_NINE = [re.compile(rf"\b(?:(?:the\s+)?first\s+nine\s+months|nine\s+months|9m|9\s*months|(?:los\s+)?primeros\s+nueve"
                    rf"\s+meses|(?:los\s+)?nueve\s+primeros\s+meses|nueve\s+meses)\s*(?:\(\s*9m\s*\)\s*)?"
                    rf"(?:fiscales\s+)?{_OF}{_FISCAL}{_YY}\b"),
         re.compile(rf"\b{_FISCAL}{_YEAR}\s*-?\s*9m\b")]
_FY = [re.compile(rf"\b(?:fy\s*|fiscal\s+(?:years?\s+)?|ejercicios?\s+(?:fiscal(?:es)?\s+)?|anos?\s+fiscal(?:es)?\s+)"
                  rf"{_YEAR}\b"),
       re.compile(rf"\b{_YEAR}\s+(?:fiscal year|ejercicio fiscal)\b"),
       re.compile(r"\bfy\s*'?(\d{2})\b"), re.compile(r"\bfiscal\s+(?:year\s+)?'(\d{2})\b")]
_CALENDAR = [re.compile(rf"\b(?:calendar\s+(?:year\s+)?|cy\s*|ano\s+(?:natural|calendario|civil)\s+(?:de\s+)?)"
                        rf"{_YEAR}\b"),
             re.compile(rf"\b{_YEAR}\s+(?:calendar year|ano natural|ano calendario)\b")]
_BARE_YEAR = re.compile(rf"(?<![\d/.-]){_YEAR}\b(?![/-]\d)")  # never a date's year
_TTM_WORDS = (r"(?:ttm|ltm|trailing[\s-]+(?:twelve|12)[\s-]+months?|trailing[\s-]+12m|"
              r"last[\s-]+(?:twelve|12)[\s-]+months?|"
              r"(?:the\s+)?last\s+(?:four|4)\s+(?:fiscal\s+)?quarters|(?:los\s+)?ultimos\s+(?:doce|12)\s+meses|"
              r"(?:los\s+)?ultimos\s+(?:cuatro|4)\s+trimestres)")
_TTM = re.compile(rf"\b(?:(?:over|in|for|during|durante|en)\s+)?(?:the\s+)?{_TTM_WORDS}"
                  rf"(?:\s+(?:through|thru|ending|ended|ending in|to|up to|hasta|al|"
                  rf"terminad[oa]s?\s+en)\b)?")
_LENGTHS = {"quarter": r"(?:(?:three|3)\s+months|quarter|fiscal\s+quarter|(?:tres|3)\s+meses|trimestre)",
            "half": r"(?:(?:six|6)\s+months|(?:seis|6)\s+meses|semestre|half(?:\s+year)?)",
            "nine_months": r"(?:(?:nine|9)\s+months|(?:nueve|9)\s+meses)",
            "year": r"(?:(?:fiscal\s+)?year|twelve\s+months|12\s+months|ejercicio|ano(?:\s+fiscal)?|doce\s+meses)"}
_KINDS = "|".join(f"(?P<{k}>{v})" for k, v in _LENGTHS.items())
_ENDED = re.compile(rf"\b(?:the\s+|el\s+|los\s+|las\s+)?(?P<kind>{_KINDS})\s+(?:ended|ending|that\s+ended|"
                    rf"terminad[oa]s?|cerrad[oa]s?|finalizad[oa]s?)\s+(?:on\s+|el\s+)?(?P<date>{_DAY})")
# a period's end said again in parentheses after its label: 'Q1 2026 (March 31, 2026)', 'FY2025 (ended Feb 1, 2025)'
_PAREN_END = re.compile(rf"\(\s*(?:(?:ended|ending)\s+(?:on\s+)?|at\s+|al\s+|a\s+|"
                        rf"(?:cerrad[oa]|terminad[oa]|finalizad[oa])\s+el\s+)?"
                        rf"(?P<date>{_DAY})\s*\)|,\s*(?:cerrad[oa]|terminad[oa]|finalizad[oa])\s+el\s+(?P<comma>{_DAY})\b")
_LATEST = re.compile(r"\bmrq\b|\b(?:the\s+)?(?:latest|last|most\s+recent|newest|ultimo|ultima)\s+"
                     r"(?P<kind>quarter(?:ly)?|fiscal\s+year|year|annual|trimestre|ejercicio|ano)\b|\b(?:el\s+)?(?P<kind2>trimestre|ejercicio)\s+mas\s+reciente\b")
_GROWTH = re.compile(r"\b(grow|grew|grown|growth|increase|increased|rise|rose|change|changed|crecieron|crecio|crecer|"
                     r"crecimiento|aumentaron|aumento|variacion|vario|subieron|subio)\b")
_COMPARE = re.compile(r"\b(lowest|highest|largest|smallest|most|least|best|worst|compare|comparison|versus|vs|"
                      r"mas bajo|mas bajos|mas baja|mas alto|mas altos|mas alta|mayor|mayores|menor|menores|"
                      r"compara|comparar|"
                      r"mejor|peor|which of|cual de|entre los|entre las|mas barato|mas barata|mas caro|mas cara|"
                      r"higher|lower|bigger|larger|smaller|which one|frente a|comparad[oa]s? con|"
                      r"compared (?:to|with)|against|contra|"
                      r"(?:these|estas|estos)\s+(?:two|three|four|dos|tres|cuatro)(?:\s+(?:companies|empresas|companias))?)\b")
_COMPARE_MANY = re.compile(r"\b(?:more|less|mas|menos|quien|who|had|tuvo|between|entre|or|o)\b")  # with 2+ names
_SOURCE = re.compile(r"\b(?:in|from|according to|per|as per|segun|en|de)\s+"
                     r"(?:the\s+|its\s+|their\s+|el\s+|su\s+|sus\s+)?"
                     r"(?:10-k|10-q|20-f|annual report|quarterly report|filings?|financial statements|informe anual|"
                     r"cuentas anuales|estados financieros)\b")
_PERCENT = re.compile(r"\b(?:in|en|as\s+a|como(?:\s+un)?)\s+(?:percent(?:age)?|porcentaje)\b")  # of a ratio
# the months a period runs, said beside its label: '(octubre-diciembre de 2025)', '(de octubre de 2024 a marzo de
# 2025)', '(November 2024 - January 2025)', 'es decir, el trimestre de julio a septiembre de 2025'
_MONTH_RANGE = re.compile(rf"(?:\(\s*|,?\s*\b(?:es\s+decir|that\s+is|i\.?e\.?),?\s+(?:el\s+|the\s+)?"
                          rf"(?:trimestre|semestre|periodo|quarter|half|period)\s+)(?:de\s+|from\s+)?({_MONTH})\.?"
                          rf"(?:\s+(?:de\s+)?{_YEAR})?\s*(?:-|–|a|to|hasta|through)\s*({_MONTH})\.?\s+(?:de\s+)?"
                          rf"{_YEAR}\s*\)?")
_SAME_PERIOD_BEFORE = re.compile(
    r"\b(?:(?:con\s+)?respecto\s+al?|frente\s+al?|compared\s+(?:to|with)|versus|vs\.?|over|from)\s+(?:el\s+|the\s+)?"
    r"(?:mismo|same)\s+(?:trimestre|semestre|periodo|quarter|half|period)\s+(?:del\s+ano\s+anterior|del\s+ano\s+pasado|"
    r"(?:of\s+)?(?:the\s+)?(?:previous|prior|last)\s+year|a\s+year\s+(?:earlier|ago|before))\b")
_WEEKS = re.compile(r"\b(\d{2})[\s-]+(?:weeks?|semanas)\b")  # 'the 14-week quarter', 'el ejercicio de 53 semanas'
_POLITE = re.compile(r"\b(?:please|por favor|thanks|thank you|gracias|can you tell me|could you tell me|tell me|"
                     r"show me|give me|i need|i want to know|quiero saber|dime|dame|necesito saber|me dices|"
                     r"puedes decirme|podrias decirme)\b")
# 'financial' read past only where it says figures ('financial results', 'estados financieros'): 'ingresos
# financieros' and 'finance income' are no revenue, and stay unread
_FINANCIAL = re.compile(r"\b(?:resultados|estados|cifras|datos|informacion|informes|reportes)\s+financier[oa]s\b|"
                        r"\bfinancial\s+(?:results|statements|figures|data|reports|information|filings)\b|"
                        r"\bxbrl\s+(?:data|figures|facts)\b")
_UNIT = re.compile(r"\b(?:in|en)\s+(?:millions?|billions?|thousands?|millones|miles(?:\s+de\s+millones)?|"
                   r"(?:u\.?\s?s\.?\s*)?dollars?|usd|dolares(?:\s+(?:estadounidenses|americanos))?|euros?|twd|nt\$?|"
                   r"(?:nuevos\s+)?dolares\s+taiwaneses|"
                   r"(?:new\s+)?taiwan(?:ese)?\s+dollars?|moneda\s+local|local\s+currency)"
                   r"(?:\s+(?:of\s+|de\s+)?(?:dollars?|usd|dolares))?\b")
# the currency a unit phrase names (NT dollars are TWD), as an ISO code
_CURRENCIES = (("TWD", re.compile(r"\b(?:twd|nt|taiwan|taiwanese|taiwaneses)\b")), ("EUR", re.compile(r"\beuros?\b")),
               ("USD", re.compile(r"\b(?:dollars?|usd|dolares)\b")))


def _currency(units: list[re.Match[str]]) -> str | None:
    """The currency the unit phrases of a question name ('in US dollars': USD), or None ('in millions')."""
    for m in units:
        for code, words in _CURRENCIES:
            if words.search(m.group()):
                return code
    return None


# Words that never change which figure is asked: question words, auxiliaries, reporting verbs, totals, the
# company itself, units. A function word that can (before, after, not, only, per, sin, hasta...) is no filler.
_CHANGERS = frozenset({
    "not", "no", "nor", "only", "before", "after", "until", "between", "above", "below", "over", "under",
    "against", "more", "most", "less", "than", "each", "per", "same", "other", "again", "further", "off", "out",
    "down", "up", "sin", "antes", "despues", "hasta", "entre", "contra", "mas", "menos", "solo", "sino",
    "cada", "otro", "otra", "otros", "otras", "excepto", "salvo", "ni", "nada", "ningun", "ninguna", "both",
    "all", "any", "few", "some", "todos", "todas", "algunos", "algunas", "ambos", "ambas", "once", "while",
    "since", "desde", "tras", "hace", "ago", "ya", "aun", "todavia", "still", "yet", "very",
})
_FILLER_EXTRA = frozenset({
    "what", "was", "were", "is", "are", "how", "much", "many", "did", "does", "do", "which", "who", "whose",
    "when", "the", "a", "an", "of", "for", "in", "at", "to", "by", "on", "from", "with", "and", "its", "their",
    "s", "please", "cual", "cuales", "cuanto", "cuanta", "cuantos", "cuantas", "que", "quien", "fue", "fueron",
    "es", "son", "era", "eran", "ha", "han", "tuvo", "tenia", "total", "totals", "net", "consolidated",
    "reported", "overall", "entire", "whole", "global", "worldwide", "neto", "neta", "netos", "netas",
    "consolidado", "consolidada", "consolidados", "consolidadas", "totales", "mundial", "reportado", "reportada",
    "declarado", "company", "companys", "firm", "group", "corporation", "corp", "inc", "incorporated", "ltd",
    "limited", "co", "plc", "holdings", "empresa", "compania", "sociedad", "grupo", "firma", "millions",
    "million", "billions", "billion", "thousands", "thousand", "dollars", "dollar", "usd", "twd", "nt", "euros",
    "currency", "reporting", "dolares", "millones", "miles", "moneda", "value", "figure", "amount", "number",
    "cifra", "importe", "monto", "valor", "statement", "statements", "gaap", "basis", "post", "posted", "record",
    "recorded", "generate", "generated", "earn", "earned", "make", "made", "book", "booked", "show", "showed",
    "report", "registro", "registraron", "genero", "obtuvo", "reporto", "declaro", "tell", "me", "give", "know",
    "saber", "dime", "dame", "have", "has", "had", "hay", "fy", "be", "been", "being", "they", "it", "el",
    "la", "los", "las", "lo", "de", "del", "en", "y", "e", "por", "para", "con", "su", "sus", "un", "una",
    "companies", "empresas", "come", "came", "amounted", "ascendio", "ascendieron", "alcanzo",
    "alcanzaron", "level", "nivel", "about", "sobre", "acerca", "exactly", "exactamente", "approximately",
    "aproximadamente", "roughly", "us", "nos", "i", "yo", "we", "you", "can", "could", "would", "will",
    "puedes", "podrias", "quiero", "want", "need", "necesito", "tiene", "tienen", "tenian", "hubo",
    "results", "resultados", "reportados",
    "reportadas", "figures", "cifras", "numbers", "durante", "during", "decir", "spend",
    "spent", "spending", "gasto", "gastaron", "invirtio", "invest", "invested", "disponible", "disponibles", "segun",
    "according", "mi", "my", "our", "nuestro", "whats", "pago", "pagaron", "paid", "pay", "pays",
    "procedentes", "procedente", "provenientes", "proveniente", "presento", "presentaron", "figuraba", "figura",
    "mostraban", "mostraba", "mostro", "ascendia", "ascendian", "presentadas", "presentados", "presentada",
    "presentado", "medido", "medida", "expresado", "expresada", "expresados", "expresadas", "measured", "expressed",
    "publicado", "publicada", "publicados", "publicadas",
    "informacion", "datos", "correspondiente", "correspondientes", "corresponding", "respectivos",
    "respectivas", "respective", "aseguradora", "insurer", "filings", "filing", "shareholders", "stockholders",
    "accionistas", "matriz", "controladora", "dominante", "parent",
})


@cache
def _filler() -> frozenset[str]:
    """The words read past: function words but the ones that change meaning, and the extra fillers (made once)."""
    return (tokenize.FUNCTION_WORDS - _CHANGERS) | _FILLER_EXTRA


_TO_DATE = {"acumulado", "acumulada", "acumulados", "acumuladas", "ytd", "cumulative"}  # of the year so far
_PERIOD_WORDS = frozenset({
    "fiscal", "calendar", "cy", "year", "years", "quarter", "quarters", "quarterly", "annual", "annually", "yearly",
    "half", "semester", "month", "months", "period", "periods", "ended", "ending", "end", "full", "first", "second",
    "third", "fourth", "nine", "six", "three", "twelve", "ttm", "ltm", "trailing", "ejercicio", "ano", "anos",
    "trimestre", "trimestres", "trimestral", "semestre", "semestral", "anual", "meses", "mes", "periodo", "cerrado",
    "natural", "civil", "primer", "primero", "primera", "segundo", "segunda", "tercer", "tercero", "tercera",
    "cuarto", "cuarta", "nueve", "seis", "doce", "recent", "latest", "last", "previous", "prior", "current",
    "newest", "ultimo", "ultima", "ultimos", "ultimas", "reciente", "recientes", "anterior", "actual", *_TO_DATE,
})
_ENDS = {"end", "close", "cierre", "final", "fin", "finales"}  # 'at the end of fiscal 2024'
_AGREES = {"year": {"annual", "annually", "yearly", "full", "year", "anual", "fiscal", "ejercicio", "ano", *_ENDS},
           "quarter": {"quarterly", "quarter", "trimestral", "trimestre", "fiscal", *_ENDS},
           "half": {"fiscal", "semestral", "h1", "1h", "s1", "1s", *_ENDS, *_TO_DATE},
           "second_half": {"fiscal", "semestral", "h2", "2h", "s2", "2s", *_ENDS},
           "nine_months": {"fiscal", *_ENDS, *_TO_DATE},
           "ttm": {"fiscal", "twelve", "month", "months", "doce", "meses", "ending", *_ENDS}}
_NEWEST = re.compile(r"\b(?:the\s+)?(?:latest|most\s+recent|newest|mas\s+recientes?|ultim[oa]s?)\b")


@dataclass
class Reading:
    """What a question asks, and the words each part was read from (`words`); `unread`: words that could change
    the answer and that no part took."""

    text: str
    entities: list[Entity] = field(default_factory=list)
    ambiguous: list[tuple[str, tuple[Entity, ...]]] = field(default_factory=list)  # a name fitting several
    absent: list[str] = field(default_factory=list)  # companies named that the store does not hold
    unknown: list[str] = field(default_factory=list)  # what looks like a company and is none known: "Acme's", MSFT
    mentioned: list[str] = field(default_factory=list)  # organizations named in asking which company (names.Found)
    asks_which: bool = False  # it asks which company does something: the text answers, over every company's
    typos: list[tuple[str, Entity]] = field(default_factory=list)  # a slip in a name, and the company taken
    named_as: list[str] = field(default_factory=list)  # the words that named the companies, as written
    # a curated alias read ('Google'): (as written, the company it names, the other filers of that name)
    predecessors: list[tuple[str, Entity, tuple[Entity, ...]]] = field(default_factory=list)
    metric: Metric | None = None
    periods: list[str] = field(default_factory=list)  # see the module docstring
    as_of: datetime | None = None
    at_filing: str | None = None  # 'at the time of the 10-K': the as-of moment is that filing's acceptance
    as_of_or_date: bool = False  # the moment said with 'as of' (or 'a fecha de'), which may also be a balance's date
    mode: str = "as_of"  # 'as_of' (as known then), 'first' (as originally reported), 'latest' (restated)
    growth: bool = False
    comparison: bool = False
    restatement: bool = False  # 'was ... ever restated?': every version of the figure
    part: str | None = None  # a part of the company the metric is asked for ('iPhone', 'China'), not its total
    bare_years: tuple[str, ...] = ()  # FY labels read from a bare year ('in 2024'), neither fiscal nor calendar
    words: dict[str, list[str]] = field(default_factory=dict)
    unread: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # slips read past, a name fitting several companies settled
    currency: str | None = None  # the currency a figure is asked in ('in euros': EUR), which no answer converts
    weeks: int | None = None  # the length in weeks a question gives its period ('the 14-week quarter'), to check
    months: tuple[date, date] | None = None  # the months a question says its period runs (first day, last day)

    def line(self, moment: datetime | None = None) -> str:
        """The reading in one line: 'read as: Apple, revenue, FY2024, as known on 2025-06-01 00:00 UTC'."""
        at = moment or self.as_of
        parts = [" and ".join(e.name for e in self.entities) or "no company",
                 self.metric.name if self.metric else "no metric",
                 (", ".join(describe_period(p) for p in self.periods) or
                  ("the newest period" if self.metric else "no period")) + (f" of {self.part}" if self.part else ""),
                 {"first": "as first reported", "latest": "as last restated"}.get(
                     self.mode, f"as known on {at:%Y-%m-%d %H:%M:%S} UTC" if at else
                     f"as known at the {self.at_filing.upper()}" if self.at_filing else "as known now")]
        extra = [w for w, on in (("growth", self.growth), ("comparison", self.comparison),
                                 ("every version", self.restatement)) if on]
        return "read as: " + ", ".join(parts + extra)

    def to_dict(self) -> dict:
        return {"entities": [e.name for e in self.entities], "metric": self.metric.name if self.metric else None,
                "periods": self.periods, "as_of": self.as_of.isoformat() if self.as_of else None,
                "at_filing": self.at_filing, "mode": self.mode, "growth": self.growth,
                "comparison": self.comparison, "restatement": self.restatement, "part": self.part,
                "currency": self.currency, "weeks": self.weeks, "words": self.words, "unread": self.unread,
                "read_as": self.line()}


def describe_period(label: str) -> str:
    """A period label in words: 'TTM2025Q2' -> 'the twelve months ending 2025Q2'."""
    if label == "TTM":
        return "the newest twelve months known"
    if label.startswith("TTMEND:"):
        return f"the twelve months ended {label.split(':', 2)[2]}"
    if label.startswith("TTM"):
        return f"the twelve months ending {label[3:]}"
    if label.startswith("END:"):
        _, kind, day = label.split(":", 2)
        return f"the balance at {day}" if kind == "instant" else f"{kind.replace('_', ' ')} ended {day}"
    if label.startswith("LATEST:"):
        return f"the newest {label[7:]} known"
    return label


class _Taken:
    """Spans of the normalized question that parts of the reading consumed."""

    def __init__(self, norm: str) -> None:
        self.norm = norm
        self.spans: list[tuple[int, int, str]] = []

    def free(self, start: int, end: int) -> bool:
        return not any(s < end and start < e for s, e, _ in self.spans)

    def take(self, start: int, end: int, what: str) -> None:
        self.spans.append((start, end, what))

    def find(self, pattern: re.Pattern[str], what: str) -> list[re.Match[str]]:
        """The matches of a pattern over text no part took yet, taken for `what`."""
        out = []
        for m in pattern.finditer(self.norm):
            if m.end() > m.start() and self.free(m.start(), m.end()):
                self.take(m.start(), m.end(), what)
                out.append(m)
        return out

    def words(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for s, e, what in sorted(self.spans):
            out.setdefault(what, []).append(self.norm[s:e].strip())
        return out

    def left(self) -> list[tuple[int, int, str]]:
        return [(m.start(), m.end(), m.group()) for m in re.finditer(_WORD, self.norm)
                if self.free(m.start(), m.end())]


def _year(text: str) -> int:
    return int(text) if len(text) == 4 else 2000 + int(text)


def _read_date(text: str) -> datetime:
    """A date (at 00:00) or a date and time, as written in either language; ValueError when it is no date."""
    zone = re.search(rf"(?<=\d)\s?({_ZONES})$", text.strip())
    if zone:
        return _zoned(_read_date(text.strip()[:zone.start()]), zone.group(1))
    text = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", text.strip()).replace(".", "")
    if m := re.fullmatch(r"(\d{1,2})([/-])(\d{1,2})\2(\d{4})", text):  # day first: '15/11/2009', '30-06-2022'
        return datetime(int(m[4]), int(m[3]), int(m[1]))
    if m := re.fullmatch(rf"(\d{{1,2}}) de ({_MONTH}) del? (\d{{4}})", text):
        return datetime(int(m[3]), _MONTHS[m[2]], int(m[1]))
    if m := re.fullmatch(rf"({_MONTH}) (\d{{1,2}}),? (\d{{4}})", text):
        return datetime(int(m[3]), _MONTHS[m[1]], int(m[2]))
    if m := re.fullmatch(rf"(\d{{1,2}}) ({_MONTH}),? (\d{{4}})", text):
        return datetime(int(m[3]), _MONTHS[m[2]], int(m[1]))
    return datetime.fromisoformat(re.sub(r"(\d) ?t(\d)", r"\1T\2", text).replace(" ", "T", 1))


def _zoned(at: datetime, zone: str | None) -> datetime:
    """A clock time in a zone as UTC (naive): UTC, GMT and Z as they are, EST and EDT fixed offsets, any other
    (ET, Eastern, New York time) New York's clock with its daylight saving; no zone is UTC."""
    offset = {"est": -5, "edt": -4}.get(zone or "")
    if offset is not None:
        return at - timedelta(hours=offset)
    return at if zone in (None, "utc", "gmt", "z") else utc_naive(at.replace(tzinfo=NEW_YORK))


def _months(taken: _Taken) -> tuple[date, date] | None:
    """The months one range says a period runs ('octubre-diciembre de 2025'), taken, for the router to check
    against the period's own dates; none, or two ranges, leave the words to be read as any are."""
    found = taken.find(_MONTH_RANGE, "period")
    if len(found) != 1:
        for m in found:
            taken.spans.remove((m.start(), m.end(), "period"))
        return None
    m = found[0]
    first, last, last_year = _MONTHS[m.group(1)], _MONTHS[m.group(3)], int(m.group(4))
    first_year = int(m.group(2)) if m.group(2) else last_year - (first > last)
    return date(first_year, first, 1), date(last_year, last, monthrange(last_year, last)[1])


def _hhmm(clock: str) -> str:
    """A clock as 'HH:MM' (or 'HH:MM:SS'): '3:29 p.m.' -> '15:29', '8 am' -> '08:00', 'noon' -> '12:00'."""
    named = {"noon": "12:00", "midday": "12:00", "mediodia": "12:00", "midnight": "00:00", "medianoche": "00:00"}
    if clock in named:
        return named[clock]
    m = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?(:\d{2})?\s*(?:([ap])\.?\s?m\.?)?", clock.strip())
    if m is None:
        raise ValueError(clock)
    hour = int(m[1]) % 12 + (12 if m[4] == "p" else 0) if m[4] else int(m[1])
    return f"{hour:02d}:{m[2] or '00'}{m[3] or ''}"


def _as_of(taken: _Taken) -> tuple[datetime | None, str | None]:
    """The moment asked as of (a date, a month's first instant, the end of a year) or the filing it is asked at."""
    found: list[datetime] = []
    for m in taken.find(_AS_OF_CLOSE, "as_of"):
        found.append(utc_naive(_read_date(m.group(1) or m.group(2)).replace(hour=16, tzinfo=NEW_YORK)))
    for m in taken.find(_AS_OF_CLOCK, "as_of"):
        try:
            hour, minute, *second = map(int, _hhmm(m.group(1)).split(":"))
            day = _read_date(m.group(3)).replace(hour=hour, minute=minute, second=second[0] if second else 0)
            found.append(_zoned(day, m.group(2)))
        except ValueError:
            taken.spans.pop()
    for m in taken.find(_AS_OF, "as_of"):
        try:
            found.append(_read_date(m.group(1)))
        except ValueError:
            taken.spans.pop()  # '32/13/2024' is no date: left unread
    for m in taken.find(_AS_OF_MONTH, "as_of"):
        found.append(datetime(int(m.group(2)), _MONTHS[m.group(1)], 1))
    for m in taken.find(_AS_OF_END, "as_of"):
        found.append(datetime(int(m.group(1)), 12, 31))
    filing = [m.group(1) for m in taken.find(_AT_FILING, "as_of")]
    if len(found) + len(filing) > 1:  # two moments: neither is taken, the question is refused for them
        for s in [s for s in taken.spans if s[2] == "as_of"]:
            taken.spans.remove(s)
        return None, None
    return (found[0] if found else None), ("10-K" if filing and filing[0] in ("annual report", "informe anual")
                                           else filing[0].upper() if filing else None)


def find_as_of(norm: str) -> tuple[datetime | None, str]:
    """The moment a (normalized) question is asked as of, and the question without it."""
    taken = _Taken(norm)
    moment, _ = _as_of(taken)
    rest = norm
    for s, e, _ in sorted(taken.spans, reverse=True):
        rest = rest[:s] + " " + rest[e:]
    return moment, rest


def _periods(taken: _Taken) -> list[tuple[int, str, bool]]:
    found: list[tuple[int, str, bool]] = []

    def add(m: re.Match[str], label: str, bare: bool = False) -> None:
        found.append((m.start(), label, bare))

    ttm = taken.find(_TTM, "period")
    for m in taken.find(_LATEST, "period"):
        kind = m.group("kind") or m.group("kind2") or "quarter"  # MRQ: the most recent quarter
        add(m, f"LATEST:{'quarter' if kind in ('quarter', 'quarterly', 'trimestre') else 'year'}")
    for pattern, q, y in _QUARTER_PATTERNS:
        for m in taken.find(pattern, "period"):
            add(m, f"{_year(m.group(y))}Q{_ORDINALS.get(m.group(q), m.group(q))}")
    for pattern in _HALF:
        for m in taken.find(pattern, "period"):
            add(m, f"{_year(m.group(1))}H1")
    for pattern in _SECOND:
        for m in taken.find(pattern, "period"):
            add(m, f"{_year(m.group(1))}H2")
    for pattern in _NINE:
        for m in taken.find(pattern, "period"):
            add(m, f"{_year(m.group(1))}M9")
    for pattern in _CALENDAR:
        for m in taken.find(pattern, "period"):
            add(m, f"CY{m.group(1)}")
    for pattern in _FY:
        for m in taken.find(pattern, "period"):
            add(m, f"FY{_year(m.group(1))}")
    for m in taken.find(_BARE_YEAR, "period"):
        add(m, f"FY{m.group(1)}", bare=True)
    if ttm:  # TTM alone (the newest), or the twelve months through the one quarter named
        quarters = [f for f in found if re.fullmatch(r"\d{4}Q[1-4]|END:quarter:.*", f[1])]
        if found == quarters and len(quarters) <= 1:  # 'TTM' said twice ('los últimos doce meses (TTM)') is one
            found = [(ttm[0].start(), f"TTM{quarters[0][1] if quarters else ''}", False)]
            if quarters:
                taken.find(re.compile(r"\b(?:through|thru|ending|ended|hasta|up to)\b"), "period")
        else:
            for m in ttm:  # 'TTM' beside a year, or twice: left unread
                taken.spans.remove((m.start(), m.end(), "period"))
    return sorted(found)


def _ended(taken: _Taken) -> list[tuple[int, str, bool]]:
    """Periods given by their length and end ('six months ended March 30, 2024'), read before as-of dates."""
    found = []
    for m in taken.find(_ENDED, "period"):
        kind = next(k for k in _LENGTHS if m.group(k))
        try:
            day = _read_date(m.group("date")).date().isoformat()
        except ValueError:
            taken.spans.pop()
            continue
        # 'the last twelve months ended', 'los últimos doce meses terminados': trailing, not a fiscal year
        lead = re.search(r"\b(?:the\s+|los\s+)?(?:last|trailing|past|ultimos)\s+$", taken.norm[:m.start()])
        if kind == "year" and lead and not m.group("year").startswith(("year", "ejercicio", "ano", "fiscal")):
            taken.take(lead.start(), lead.end(), "period")
            found.append((lead.start(), f"TTMEND:quarter:{day}", False))
        else:
            found.append((m.start(), f"END:{kind}:{day}", False))
    return found


def _paren_ends(taken: _Taken) -> list[re.Match[str]]:
    """Dates in parentheses after a period's label ('Q1 2026 (March 31, 2026)'), taken as ends said again: a date
    in parentheses after no label is left to be read as any date is."""
    probe = _Taken(taken.norm)
    probe.spans = list(taken.spans)
    starts = [s for s, _, _ in _ended(probe) + _periods(probe)]
    return [m for m in _PAREN_END.finditer(taken.norm) if taken.free(m.start(), m.end())
            and any(s < m.start() for s in starts) and not taken.take(m.start(), m.end(), "period")]


def _with_ends(taken: _Taken, dated: list[tuple[int, str, bool]], said: list[re.Match[str]]
               ) -> list[tuple[int, str, bool]]:
    """The periods named, with the ends said beside them: a date in parentheses is the end of a period of the kind
    of the label before it (the router answers only where both name the same days); beside TTM, a quarter's or a
    twelve months' end is where the twelve months end ('TTM revenue for the twelve months ended Dec 27, 2025')."""
    out = list(dated)
    for m in said:
        label = max((d for d in dated if d[0] < m.start()), default=(0, "", False))[1]
        kind = _kind(label) if label and not label.startswith(("CY", "LATEST:", "END:instant")) else None
        try:
            day = _read_date(m.group("date") or m.group("comma")).date().isoformat()
        except ValueError:
            kind = None
        if kind not in ("year", "quarter", "half", "nine_months", "ttm"):
            taken.spans.remove((m.start(), m.end(), "period"))  # its words stay unread: the question is refused
            continue
        out.append((m.start(), f"END:{'quarter' if kind == 'ttm' else kind}:{day}", False))
    if any(label.startswith("TTM") for _, label, _ in out):
        ends = [(s, f"TTMEND:quarter:{label.split(':', 2)[2]}", bare) for s, label, bare in out
                if label.startswith(("END:quarter:", "END:year:"))]
        if ends:
            out = [d for d in out if not d[1].startswith("END:") and d[1] != "TTM"] + ends
    return out


def find_periods(norm: str) -> list[str]:
    """Period labels a (normalized) question names, in order of appearance (see the module docstring)."""
    taken = _Taken(norm)
    ended = _ended(taken)
    said = _paren_ends(taken)
    return [label for _, label, _ in sorted(_with_ends(taken, ended + _periods(taken), said))]


def find_bare_years(norm: str) -> tuple[str, ...]:
    """The FY labels read from a bare year ('in 2024'): the question said neither fiscal nor calendar."""
    return tuple(label for _, label, bare in _periods(_Taken(norm)) if bare)


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


def _words(text: str) -> list[str]:
    return re.findall(_WORD, text)


def changes_figure(words: list[str]) -> bool:
    """Whether unread words could change which figure is asked: a qualifier ('excluding', 'adjusted', 'per'), a
    word that bounds or compares ('before', 'only', 'more'), a period or month word, or a number. Other words
    (what a question asks about a figure: 'why', 'drove', 'stores') make it a question for the text."""
    return any(w in _QUALIFIERS or w in _CHANGERS or w in _PERIOD_WORDS or w in _MONTHS or not w.isalpha()
               for w in words)


def names_text(words: list[str]) -> bool:
    """Whether unread words name what a filing's text describes, not a figure: a program, a plan, a reason, a policy,
    a relation between companies ('how big is the buyback program Apple announced in May 2024')."""
    return any(w in _TEXT_NOUNS for w in words)


_TEXT_NOUNS = frozenset({
    "program", "programs", "programme", "programmes", "plan", "plans", "reason", "reasons", "policy", "policies",
    "relationship", "relationships", "relation", "relations", "agreement", "agreements", "arrangement", "strategy",
    "initiative", "initiatives", "partnership", "partnerships", "supplier", "suppliers", "partner", "partners",
    "programa", "programas", "planes", "razon", "razones", "motivo", "motivos", "politica", "politicas", "relacion",
    "relaciones", "acuerdo", "acuerdos", "estrategia", "iniciativa", "iniciativas", "proveedor", "proveedores",
    "socio", "socios", "alianza", "alianzas",
})
_QUALIFIERS = frozenset({  # words that change a figure's definition: never a part of the company, always unread
    "excluding", "exclude", "excludes", "ex", "without", "adjusted", "ajustado", "ajustada", "ajustados", "ajustadas",
    "pro", "proforma", "forma", "non-gaap", "non", "constant", "organic", "organico", "organica", "underlying", "sin",
    "comparable", "recurring", "recurrente", "normalized", "normalizado", "core", "implied", "estimated", "estimado",
    "forecast", "guidance", "expected", "previsto", "prevision", "budget", "per", "por", "each", "cada",
})
_PART_WORDS = frozenset({
    "segment", "segments", "segmento", "segmentos", "division", "divisions", "divisiones", "region", "regions",
    "regional", "geographic", "geography", "geographies", "product", "products", "producto", "productos"
})
_PERIOD_TOKEN = re.compile(r"\d+|fy\d{2,4}|cy\d{4}|q[1-4]|[1-4]q|t[1-4]|[1-4]t|h[12]|[12]h|s[12]|9m|\d+(st|nd|rd|th)")
_LEADS = frozenset({
    "from", "in", "of", "for", "by", "at", "within", "across", "de", "del", "en", "por", "para", "desde", "procedentes",
    "procedente", "provenientes", "proveniente"
})
_NEUTRAL = _FILLER_EXTRA | _PERIOD_WORDS | _ENDS | frozenset(_MONTHS)


def find_part(words: list[str], span: tuple[int, int], own: set[str]) -> tuple[str, list[int]] | None:
    """Words naming a part of the company the metric at `span` is asked for, and their positions: a word
    modifying it that is neither neutral (periods, totals, units...) nor one of `own` (the company's own names),
    directly before it ('iPhone revenue') or first after a preposition following it ('revenue from China'); or a
    word such as 'segment' anywhere. Conservative: an unknown modifier counts as a part."""
    def neutral(word: str) -> bool:
        return (word in _NEUTRAL or word in own or bool(_PERIOD_TOKEN.fullmatch(word))
                or _slip(word, _filler()) is not None)

    def joins(j: int, step: int) -> bool:
        """Whether words[j] is 'of' or 'de' inside a part's name ('rest of asia pacific', 'resto de asia pacifico'):
        a word naming something stands on its other side."""
        return words[j] in ("of", "de") and 0 <= j + step < len(words) and not neutral(words[j + step]) \
            and words[j + step] not in tokenize.FUNCTION_WORDS | _PART_WORDS and not span[0] <= j + step < span[1]

    for i, w in enumerate(words):
        if w in _PART_WORDS:  # 'segmento de gaming', 'the gaming segment', 'revenue by segment'
            def named(j: int, step: int) -> bool:
                return (not neutral(words[j]) and words[j] not in _PART_WORDS and not span[0] <= j < span[1]) \
                    or joins(j, step)

            k = i + 1
            while k < len(words) and words[k] in tokenize.FUNCTION_WORDS | _LEADS:
                k += 1
            chosen = list(itertools.takewhile(lambda j: named(j, 1), range(k, len(words)))) or list(
                itertools.takewhile(lambda j: named(j, -1), range(i - 1, -1, -1)))[::-1]
            return (" ".join(words[j] for j in chosen) if chosen else w), [*chosen, i]
    start, end = span
    before: list[int] = []
    for i in range(start - 1, -1, -1):
        word = words[i]
        if word == "s" or (neutral(word) and not before):  # possessive "Apple's", "FY2024 ..."
            continue
        if before and joins(i, -1):
            before.insert(0, i)
            continue
        if word in tokenize.FUNCTION_WORDS or neutral(word):
            break
        before.insert(0, i)
    if before:
        return " ".join(words[i] for i in before), before
    for i in range(end - 1, len(words)):  # (a metric's words may end on the lead: 'make from')
        if words[i] not in _LEADS:
            continue
        rest = [j for j in range(i + 1, len(words)) if words[j] != "s"]
        at = next((n for n, j in enumerate(rest) if words[j] not in tokenize.FUNCTION_WORDS | _LEADS), len(rest))
        after = list(itertools.takewhile(lambda j: words[j] not in tokenize.FUNCTION_WORDS and not neutral(words[j]),
                                         rest[at:]))
        if after:
            return " ".join(words[j] for j in after), after
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


# a clock's zone is no ticker: '12:00 UTC' (United Technologies), '9:00 ET', '6:30 New York time'
_ZONE = re.compile(rf"((?:{_CLOCK})\s*\(?\s*)({_ZONES})\b", re.IGNORECASE)

# a currency named after a country is no company: 'New Taiwan dollars' (TSMC is Taiwan Semiconductor)
_MONEY_NAME = re.compile(r"\b(?:new\s+)?taiwan(?:ese)?\s+dollars?\b|\bd[oó]lares\s+taiwaneses\b", re.IGNORECASE)

# The United States as questions write it ('U.S.', 'US', 'USA', 'EE. UU.', 'United States', 'Estados Unidos'), read
# as one word, 'usa': the pronoun 'us' is read past, and 'United States' named United States Steel (still named by
# 'United States Steel'); U.S. GAAP, dollars and Treasuries are not the country asked about
_USA = re.compile(r"(?<![\w.])(?:U\.\s?S\.(?:\s?A\.)?|USA|US|EE\.\s?UU\.|EEUU)(?!\w)"
                  r"(?!\s*(?:GAAP|[Dd]ollars?|\$|Treasur))"
                  r"|(?i:\bunited\s+states\b(?!\s+steel)|\bestados\s+unidos\b)")


# analysts' capitals for a metric, read only in capitals (Spanish 'ni' is 'nor'): NI, GM%, OM%
_SHORTHAND = re.compile(r"(?<![\w%])(?:(NI)|(GM)\s?%|(OM)\s?%)(?![\w%])")
_SHORTHAND_SAYS = ("net income", "gross margin", "operating margin")


def parse(question: str, known: Names | Sequence[Entity], metrics: Sequence[Metric]) -> Reading:
    """Read a question in English or Spanish (see the module docstring)."""
    read = _SHORTHAND.sub(lambda m: _SHORTHAND_SAYS[m.lastindex - 1], _USA.sub("USA", question))
    norm = normalize(read)
    taken = _Taken(norm)
    months = _months(taken)
    ended = _ended(taken)
    said = _paren_ends(taken)
    as_of, at_filing = _as_of(taken)
    restatement = bool(_RESTATEMENT_QUESTION.search(norm) and taken.find(_RESTATED, "restatement"))
    if restatement:
        taken.find(re.compile(r"\b(?:ever|alguna vez|how did|como)\b"), "restatement")
    mode = next((m for pattern, m in _MODE if taken.find(pattern, "mode")), "as_of")
    unnamed = _ZONE.sub(lambda m: m.group(1) + " " * len(m.group(2)), read)
    found = find_entities(_MONEY_NAME.sub(lambda m: " " * len(m.group()), unnamed), known)
    for written in found.named_as + found.absent_as + [w for w, _ in found.ambiguous]:
        for m in re.finditer(rf"(?<!\w){re.escape(normalize(written))}(?!\w)", norm):
            if taken.free(m.start(), m.end()):
                taken.take(m.start(), m.end(), "entity")
    weak = [(m, datetime(int(m.group(1)), 12, 31)) for m in _AT_END.finditer(norm) if taken.free(m.start(), m.end())]
    for m in _AT_DAY.finditer(norm):
        if taken.free(m.start(), m.end()) and not any(m.start() < w.end() and w.start() < m.end() for w, _ in weak):
            try:
                weak.append((m, _read_date(m.group(1))))
            except ValueError:
                continue
    day_alone = None  # 'at December 31, 2024' with no period: a balance's date, if a balance is asked
    if len(weak) == 1 and as_of is None and at_filing is None:  # a moment only beside a period named
        end, moment = weak[0]
        taken.take(end.start(), end.end(), "as_of")
        dated = ended + _periods(taken)
        if dated:
            as_of = moment
        else:
            taken.spans.remove((end.start(), end.end(), "as_of"))
            dated = ended + _periods(taken)
            day_alone = (end, moment) if end.re is _AT_DAY else None
    else:
        dated = ended + _periods(taken)
        if len(weak) == 1 and at_filing is None and weak[0][0].re is _AT_DAY:  # 'as known on X, cash at Y'
            day_alone = weak[0]
    taken.find(_NEWEST, "period")  # 'latest revenue': the newest period known
    taken.find(_SOURCE, "source")
    currency = _currency(taken.find(_UNIT, "unit"))
    taken.find(_POLITE, "filler")
    taken.find(_FINANCIAL, "filler")
    growth = bool(taken.find(_GROWTH, "growth"))
    if growth and len(dated) == 2:  # 'between 2023 and 2024', 'from FY2023 to FY2024', 'frente al 3T de 2024'
        taken.find(re.compile(r"\b(?:between|entre|from|to|desde|hasta|frente\s+al?|compared\s+(?:to|with)|against|"
                              r"(?:con\s+)?respecto\s+al?|a|and|y|vs|versus)\b"), "growth")
    if growth:  # over the same period a year before: what a growth is ('respecto al mismo trimestre del año anterior')
        taken.find(_SAME_PERIOD_BEFORE, "growth")
    if growth:  # 'by what percent', 'en porcentaje': a growth is a percentage
        taken.find(re.compile(r"\b(?:percent(?:age)?|per\s+cent|porcentaje|porcentual(?:mente)?|interanual(?:mente)?|yoy|"
                              r"year[\s-]+over[\s-]+year|year[\s-]+on[\s-]+year)\b"), "growth")
    comparison = bool(taken.find(_COMPARE, "comparison"))
    if len(found.entities) > 1:
        comparison = bool(taken.find(_COMPARE_MANY, "comparison")) or comparison
    # a period's length in weeks, checked against the facts (one length, of one period: else the words stay unread)
    said_weeks = [m for m in _WEEKS.finditer(norm) if taken.free(m.start(), m.end())]
    weeks = {int(m.group(1)) for m in said_weeks}
    if len(weeks) == 1 and len({_kind(label) for _, label, _ in dated}) == 1 and not growth:
        for m in said_weeks:
            taken.take(m.start(), m.end(), "period")
    else:
        weeks = set()
    left = taken.left()
    words = [w for _, _, w in left]
    at = _metric_at(words, metrics)
    part = None
    if at:
        s, e = left[at[1]][0], left[at[2] - 1][1]
        taken.take(s, e, "metric")
        rest = taken.left()  # the same metric said again: 'patrimonio neto (stockholders' equity)'
        again = _metric_at([w for _, _, w in rest], [at[0]])
        if again:
            taken.take(rest[again[1]][0], rest[again[2] - 1][1], "metric")
            twice = {start for start, _, _ in rest[again[1]:again[2]]}
            words = ["the" if left[i][0] in twice else w for i, w in enumerate(words)]  # no part's words
        if at[0].kind == "ratio":  # 'margen bruto ... en porcentaje': the ratio's unit, no part's words
            for m in taken.find(_PERCENT, "unit"):
                words = ["the" if m.start() <= left[i][0] < m.end() else w for i, w in enumerate(words)]
        found_part = find_part(words, at[1:], own_words(found.entities) | {
            w for written in found.named_as for w in _words(normalize(written))})
        if found_part and not set(found_part[0].split()) & _QUALIFIERS:
            part, positions = found_part
            for i in positions:
                taken.take(left[i][0], left[i][1], "part")
    if day_alone and at and at[0].statement == "balance":
        end, day = day_alone
        inside = [(s, e, w) for s, e, w in taken.spans if end.start() <= s and e <= end.end()]
        if all(w == "period" for _, _, w in inside) and len(dated) == len(inside):  # only the date's own year
            for span in inside:
                taken.spans.remove(span)
            taken.take(end.start(), end.end(), "period")
            dated = [(end.start(), f"END:instant:{day.date().isoformat()}", False)]
    dated = _with_ends(taken, dated, said)
    periods = [label for _, label, _ in sorted(dated)]
    if not growth:  # 'in its annual report for 2021, ... in FY2021': one period, said twice
        periods = list(dict.fromkeys(periods))
    kinds = {_kind(p) for p in periods}
    agree = set().union(*(_AGREES.get(k, set()) for k in kinds)) if periods else set()
    filler = _filler()
    unread: list[str] = []
    notes: list[str] = []
    for s, e, w in taken.left():
        if w in agree:
            taken.take(s, e, "period")
        elif slip := _slip(w, filler):
            taken.take(s, e, "filler")
            notes.append(f"read {w!r} as {slip!r}")
        elif w not in filler or (w == "gaap" and unread[-1:] in (["no"], ["non"])):  # 'no GAAP'
            unread.append(w)
    return Reading(text=question, entities=found.entities, ambiguous=found.ambiguous, absent=found.absent,
                   unknown=found.unknown, mentioned=found.mentioned, asks_which=found.asks_which,
                   typos=found.typos, named_as=found.named_as,
                   predecessors=found.predecessors,
                   metric=at[0] if at else None, periods=periods, as_of=as_of, at_filing=at_filing, mode=mode,
                   as_of_or_date=as_of is not None and any(_AS_OF_OR_DATE.match(w) for w in taken.words().get(
                       "as_of", [])),
                   growth=growth, comparison=comparison or (len(found.entities) > 1 and not growth),
                   restatement=restatement, part=part,
                   bare_years=tuple(label for _, label, bare in dated if bare), words=taken.words(), unread=unread,
                   notes=notes, currency=currency, weeks=weeks.pop() if weeks else None, months=months)


_SHORT = {"whats": "what is", "pls": "please", "plz": "please", "thx": "thanks", "ty": "thank you", "hw": "how",
          "u": "you", "r": "are", "xq": "porque", "q": "que", "pq": "porque", "tb": "tambien", "porfa": "por favor"}


def _slip(word: str, filler: frozenset[str]) -> str | None:
    """The filler word a slip stands for: a chat abbreviation ('pls', 'thx') or a filler word of three letters or
    more with two neighbouring letters swapped ('teh', 'waht', 'fro'). Never any other edit: 'car' is no 'can'."""
    if word in _SHORT:
        return _SHORT[word]
    if len(word) < 3 or not word.isalpha() or word in _CHANGERS | _QUALIFIERS | _PERIOD_WORDS | set(_MONTHS):
        return None
    swapped = sorted(f for f in filler if len(f) == len(word) and sorted(f) == sorted(word) and one_edit(word, f))
    return swapped[0] if len(swapped) == 1 else None


def _kind(label: str) -> str:
    if label.startswith(("END:", "LATEST:")):
        return label.split(":")[1]
    if label.startswith(("FY", "CY")):
        return "year"
    return {"Q": "quarter", "H": "half" if label[5:6] == "1" else "second_half", "M": "nine_months"}.get(label[4:5],
                                                                                                  "ttm")
