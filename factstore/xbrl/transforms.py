"""Inline XBRL transformation registries: the canonical value of a fact's displayed text under its `format`.

`transform(namespace, name, text)` reads text under XBRL International's registries 1 to 5 (`ixt`) and the SEC's
(`ixt-sec`). Only the transforms that read English or language-neutral text are here: the others (month names in
other languages, Japanese eras, CJK, Danish and Hindi forms) are unknown, like a name its registry does not define.
Unknown formats and text a transform cannot read raise TransformError: a value is never guessed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from datetime import date
from decimal import ROUND_FLOOR, Decimal, localcontext

TR1 = "http://www.xbrl.org/inlineXBRL/transformation/2010-04-20"
TR2 = "http://www.xbrl.org/inlineXBRL/transformation/2011-07-31"
TR3 = "http://www.xbrl.org/inlineXBRL/transformation/2015-02-26"
TR4 = "http://www.xbrl.org/inlineXBRL/transformation/2020-02-12"
TR5 = "http://www.xbrl.org/inlineXBRL/transformation/2022-02-16"
SEC = "http://www.sec.gov/inlineXBRL/transformation/2015-08-31"

Reader = Callable[[str], str]


class TransformError(ValueError):
    """A format no registry here defines, or text its transform cannot read."""

    def __init__(self, namespace: str, name: str, text: str, reason: str = "cannot read the text") -> None:
        super().__init__(namespace, name, text, reason)
        self.namespace, self.name, self.text, self.reason = namespace, name, text, reason

    def __str__(self) -> str:
        return f"transform {self.name!r} of {self.namespace!r}: {self.reason}: {self.text!r}"


# --- numbers --------------------------------------------------------------------------------------------------

_DASHES = "-\u058a\u05be\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_UNIT = r"[^\d]*[^\d\s.,'\u2019][^\d]*"  # a unit between a number's parts: some non-digits, not only separators


def _integer(seps: str, indian: bool = False) -> str:
    """An integer part: bare digits, or groups of three (Indian: of two, then three) split by one of `seps`."""
    forms = [r"\d+"]
    for sep in map(re.escape, seps):
        forms.append(rf"\d{{1,3}}(?:{sep}\d{{3}})+")
        if indian:
            forms.append(rf"\d{{1,2}}(?:{sep}\d{{2}})*{sep}\d{{3}}")
    return "(?:" + "|".join(forms) + ")"


def _decimal(integer: str, fraction: str | None) -> str:
    """xs:decimal of an integer part (separators dropped) and a fraction's digits, as given."""
    digits = re.sub(r"\D", "", integer).lstrip("0") or "0"
    return f"{digits}.{fraction}" if fraction else digits


def _num(seps: str, point: str, indian: bool = False) -> Reader:
    """A number grouped by one of `seps`, with `point` before its decimals."""
    pattern = re.compile(rf"(?P<i>{_integer(seps, indian)})(?:{re.escape(point)}(?P<f>\d+))?", re.ASCII)

    def read(text: str) -> str:
        match = pattern.fullmatch(text)
        if not match:
            raise ValueError("not a number in this format")
        return _decimal(match["i"], match["f"])

    return read


def _unit(seps: str, indian: bool = False) -> Reader:
    """A number written with a unit between its whole part and its one or two decimals: '5 Dollars 50 cents'."""
    pattern = re.compile(rf"(?P<i>{_integer(seps, indian)}){_UNIT}(?P<f>\d{{1,2}})[^\d]*", re.ASCII)

    def read(text: str) -> str:
        match = pattern.fullmatch(text)
        if not match:
            raise ValueError("not a number with a unit between its parts")
        return _decimal(match["i"], match["f"].rjust(2, "0"))

    return read


def _dash(text: str) -> str:
    if len(text) != 1 or text not in _DASHES:
        raise ValueError("not a dash")
    return "0"


def _fixed(value: str) -> Reader:
    """A transform that gives `value` whatever the text."""
    return lambda _text: value


# --- dates ----------------------------------------------------------------------------------------------------

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")


def _month(word: str, kind: str) -> int:
    """An English month name: 'long' (full), 'short' (three letters) or 'name' (either, or 'Sept')."""
    word = word.lower()
    if kind != "short" and word in _MONTHS:
        return _MONTHS.index(word) + 1
    if kind != "long" and word in (short := [m[:3] for m in _MONTHS]):
        return short.index(word) + 1
    if kind == "name" and word == "sept":
        return 9
    raise ValueError(f"no month {word!r}")


def _year(digits: str) -> int:
    """A four-digit year, or a two-digit one: 00-49 are 2000-2049 and 50-99 are 1950-1999."""
    if len(digits) == 4:
        return int(digits)
    return int(digits) + (2000 if int(digits) < 50 else 1900)


def _date(order: str, month: str = "num", seps: tuple[str, ...] = ()) -> Reader:
    """A date of day (D), month (M) and year (Y) in `order`, the month in digits or English ('long', 'short',
    'name'); parts separated by `seps` (regexes), by default any run of non-alphanumerics (optional beside a
    month name). A date gives xs:date, day and month xs:gMonthDay, month and year xs:gYearMonth."""
    parts = []
    for i, part in enumerate(order):
        if i:
            beside_name = month != "num" and "M" in order[i - 1:i + 1]
            parts.append(seps[i - 1] if seps else r"[^0-9A-Za-z]*" if beside_name else r"[^0-9A-Za-z]+")
        if part == "D":
            parts.append(r"(?P<D>\d{1,2})" + ("(?:st|nd|rd|th)?" if month == "name" else ""))
        elif part == "Y":
            parts.append(r"(?P<Y>\d{4}|\d{2})")
        else:
            parts.append(r"(?P<M>\d{1,2})" if month == "num" else r"(?P<M>[A-Za-z]+)\.?")
    pattern = re.compile("".join(parts), re.IGNORECASE | re.ASCII)

    def read(text: str) -> str:
        match = pattern.fullmatch(text)
        if not match:
            raise ValueError("not a date in this format")
        number = int(match["M"]) if month == "num" else _month(match["M"], month)
        if "Y" not in order:
            date(2000, number, int(match["D"]))  # a leap year: --02-29 is a gMonthDay
            return f"--{number:02d}-{int(match['D']):02d}"
        year = _year(match["Y"])
        if "D" not in order:
            date(year, number, 1)
            return f"{year:04d}-{number:02d}"
        return date(year, number, int(match["D"])).isoformat()

    return read


# --- the SEC's: words, durations, quarters, ballot boxes and names ------------------------------------------------

_SMALL = {word: value for value, word in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"))}
_TENS = {word: 10 * value for value, word in enumerate(
    ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"), 2)}
_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}


def _words(text: str) -> list[str]:
    return re.sub(r"[\s,\-\u2010-\u2013]+", " ", text.lower()).split()


def _below_thousand(words: list[str], i: int) -> tuple[int, int]:
    """The value of words[i:] up to 999 ('three hundred and five'), and where it ends."""
    start, value = i, 0
    if i + 1 < len(words) and 1 <= _SMALL.get(words[i], 0) <= 9 and words[i + 1] == "hundred":
        value, i = 100 * _SMALL[words[i]], i + 2
        if i + 1 < len(words) and words[i] == "and" and (words[i + 1] in _TENS or _SMALL.get(words[i + 1], 0)):
            i += 1
    if i < len(words) and words[i] in _TENS:
        value, i = value + _TENS[words[i]], i + 1
        if i < len(words) and 1 <= _SMALL.get(words[i], 0) <= 9:
            value, i = value + _SMALL[words[i]], i + 1
    elif i < len(words) and _SMALL.get(words[i], 0):
        value, i = value + _SMALL[words[i]], i + 1
    if i == start:
        raise ValueError("not a number in words")
    return value, i


def _number_words(text: str) -> int:
    """An integer in English words: 'no', 'none', 'zero', 'twenty-one', 'one million two hundred and five'."""
    words = _words(text)
    if words in (["no"], ["none"], ["zero"]):
        return 0
    if not words:
        raise ValueError("not a number in words")
    total, i, last_scale = 0, 0, None
    while i < len(words):
        if words[i] == "and" and total:
            i += 1
        value, i = _below_thousand(words, i)
        scale = 1
        if i < len(words) and words[i] in _SCALES:
            scale, i = _SCALES[words[i]], i + 1
        if last_scale is not None and scale >= last_scale:
            raise ValueError("not a number in words")
        total, last_scale = total + value * scale, scale
    return total


def _numwords(text: str) -> str:
    return str(_number_words(text))


def _plain(number: Decimal) -> str:
    text = format(number, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


_AMOUNT = re.compile(r"(\d+|\d{1,3}(?:,\d{3})+)(?:\.(\d+))?", re.ASCII)
_CHAIN = ("Y", "M", "D", "H", "MIN", "S")
_PER = {"Y": 12, "M": 30, "D": 24, "H": 60, "MIN": 60}  # a month's fraction in days only where 30 days are exact


def _duration(unit: str) -> Reader:
    """A number of years, months, days or hours as xs:duration, its fraction carried down: 2.5 years is P2Y6M,
    2.5 days P2DT12H. A fraction of a month must be a whole number of days at 30 a month (0.1 years is P1M6D),
    since the day count of a month is a convention, not arithmetic; otherwise the text is not read."""

    def read(text: str) -> str:
        match = _AMOUNT.fullmatch(text)
        if not match:
            raise ValueError("not a number")
        amount, parts = Decimal(_decimal(match[1], match[2])), {}
        with localcontext() as context:
            context.prec = len(text) + 20  # exact: each carry adds at most two digits
            for step in _CHAIN[_CHAIN.index(unit):]:
                whole = amount if step == "S" else amount.to_integral_value(ROUND_FLOOR)
                parts[step], amount = whole, amount - whole
                if not amount:
                    break
                amount *= _PER[step]
                if step == "M" and amount != amount.to_integral_value():
                    raise ValueError("a fraction of a month that is not a whole number of days")
        return _iso_duration(parts, unit)

    return read


def _iso_duration(parts: dict[str, Decimal | int], first: str) -> str:
    days = "".join(f"{_plain(Decimal(parts[u]))}{u}" for u in ("Y", "M", "D") if parts.get(u))
    times = "".join(f"{_plain(Decimal(parts[u]))}{u[0]}" for u in ("H", "MIN", "S") if parts.get(u))
    if not days and not times:
        return "PT0H" if first == "H" else f"P0{first}"
    return "P" + days + ("T" + times if times else "")


_DURATION_WORDS = {"year": "Y", "years": "Y", "month": "M", "months": "M", "week": "W", "weeks": "W", "day": "D",
                   "days": "D"}


def _durwords(text: str) -> str:
    """A duration in English: 'five years', 'two years, six months and ten days' (weeks count 7 days)."""
    parts: dict[str, int] = {}
    number: list[str] = []
    joined = False  # an 'and' between two amounts
    for word in _words(text):
        unit = _DURATION_WORDS.get(word)
        if unit is None:
            if word == "and" and parts and not number and not joined:
                joined = True
            else:
                number.append(word)
            continue
        if not number or any("YMWD".index(unit) <= "YMWD".index(u) for u in parts):
            raise ValueError("not a duration in words")
        amount = " ".join(number)
        parts[unit], number = int(amount) if amount.isascii() and amount.isdigit() else _number_words(amount), []
        joined = False
    if number or joined or not parts:
        raise ValueError("not a duration in words")
    first = next(iter(parts)).replace("W", "D")
    parts["D"] = parts.get("D", 0) + 7 * parts.pop("W", 0)
    return _iso_duration(parts, first)


_QUARTER = re.compile(r"(?:q(?P<a>[1-4])|(?P<b>[1-4])q|(?P<c>first|second|third|fourth|1st|2nd|3rd|4th) quarter"
                      r"(?: of)?) (?P<y>\d{4})|(?P<y2>\d{4}) q(?P<d>[1-4])", re.ASCII)
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}


def _quarter_end(text: str) -> str:
    """The last day of a calendar quarter: 'Q3 2024', '3Q 2024', 'third quarter of 2024', '2024 Q3'."""
    match = _QUARTER.fullmatch(" ".join(_words(text)))
    if not match:
        raise ValueError("not a quarter")
    quarter = int(match["a"] or match["b"] or match["d"] or _ORDINALS[match["c"]])
    return f"{int(match['y'] or match['y2']):04d}-{('03-31', '06-30', '09-30', '12-31')[quarter - 1]}"


def _ballot(checked: str, unchecked: str) -> Reader:
    def read(text: str) -> str:
        if text in ("\u2612", "\u2611"):  # ☒ ☑
            return checked
        if text == "\u2610":  # ☐
            return unchecked
        raise ValueError("not a ballot box")

    return read


def _key(text: str) -> str:
    """A name as looked up: accents, case, dots, brackets, commas, hyphens and a leading 'the' dropped."""
    text = unicodedata.normalize("NFKD", text.replace("\u2019", "'"))
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold().replace("&", " and ")
    text = " ".join(re.sub(r"[,\-]", " ", re.sub(r"[.()]", "", text)).split())
    return text.removeprefix("the ")


def _table(rows: str) -> dict[str, str]:
    """'CODE: name; other name' lines as {looked-up name: code}."""
    table: dict[str, str] = {}
    for row in rows.strip().splitlines():
        code, _, names = row.partition(":")
        for name in names.split(";"):
            if table.setdefault(_key(name), code.strip()) != code.strip():
                raise AssertionError(f"{name!r} has two codes")
    return table


def _lookup(table: dict[str, str], what: str, drop: str = "") -> Reader:
    def read(text: str) -> str:
        key = re.sub(drop, "", _key(text)).strip() if drop else _key(text)
        if key not in table:
            raise ValueError(f"no {what} of that name")
        return table[key]

    return read


_STATES = """
AL: Alabama
AK: Alaska
AZ: Arizona
AR: Arkansas
CA: California
CO: Colorado
CT: Connecticut
DE: Delaware
DC: District of Columbia; Washington, D.C.
FL: Florida
GA: Georgia
HI: Hawaii
ID: Idaho
IL: Illinois
IN: Indiana
IA: Iowa
KS: Kansas
KY: Kentucky
LA: Louisiana
ME: Maine
MD: Maryland
MA: Massachusetts
MI: Michigan
MN: Minnesota
MS: Mississippi
MO: Missouri
MT: Montana
NE: Nebraska
NV: Nevada
NH: New Hampshire
NJ: New Jersey
NM: New Mexico
NY: New York
NC: North Carolina
ND: North Dakota
OH: Ohio
OK: Oklahoma
OR: Oregon
PA: Pennsylvania
RI: Rhode Island
SC: South Carolina
SD: South Dakota
TN: Tennessee
TX: Texas
UT: Utah
VT: Vermont
VA: Virginia
WA: Washington
WV: West Virginia
WI: Wisconsin
WY: Wyoming
"""
_US_TERRITORIES = """
PR: Puerto Rico
GU: Guam
VI: U.S. Virgin Islands; Virgin Islands, U.S.; United States Virgin Islands
"""
_PROVINCES = """
AB: Alberta
BC: British Columbia
MB: Manitoba
NB: New Brunswick
NL: Newfoundland and Labrador; Newfoundland
NS: Nova Scotia
NT: Northwest Territories
NU: Nunavut
ON: Ontario
PE: Prince Edward Island
QC: Quebec
SK: Saskatchewan
YT: Yukon; Yukon Territory
"""
# EDGAR's own codes (www.sec.gov/edgar/searchedgar/edgarstatecodes): the states' are the postal ones; only the
# countries whose codes are certain here are listed, the others are not read
_EDGAR = """
X1: United States; United States of America; USA; U.S.A.; U.S.
A0: Alberta
A1: British Columbia
A2: Manitoba
A3: New Brunswick
A4: Newfoundland; Newfoundland and Labrador
A5: Nova Scotia
A6: Ontario
A7: Prince Edward Island
A8: Quebec
A9: Saskatchewan
B0: Yukon
Z4: Canada; Canada (Federal Level)
C3: Australia
C9: Belgium
D0: Bermuda
D5: Brazil
D8: British Virgin Islands; Virgin Islands, British
E9: Cayman Islands
F4: China
F5: Taiwan; Taiwan, Province of China
G4: Cyprus
G7: Denmark
H9: Finland
I0: France
2M: Germany
J3: Greece
K3: Hong Kong
K7: India
L2: Ireland
L3: Israel
L6: Italy
M0: Japan
M5: Korea, Republic of; South Korea; Republic of Korea
N4: Luxembourg
1T: Marshall Islands
O5: Mexico
O9: Monaco
P7: Netherlands
Q2: New Zealand
Q8: Norway
U0: Singapore
T3: South Africa
U3: Spain
V7: Sweden
V8: Switzerland
X0: United Kingdom; United Kingdom of Great Britain and Northern Ireland; Great Britain; UK; U.K.
"""
_COUNTRIES = """
AD: Andorra
AE: United Arab Emirates
AF: Afghanistan
AG: Antigua and Barbuda
AI: Anguilla
AL: Albania
AM: Armenia
AO: Angola
AQ: Antarctica
AR: Argentina
AS: American Samoa
AT: Austria
AU: Australia
AW: Aruba
AX: Åland Islands
AZ: Azerbaijan
BA: Bosnia and Herzegovina
BB: Barbados
BD: Bangladesh
BE: Belgium
BF: Burkina Faso
BG: Bulgaria
BH: Bahrain
BI: Burundi
BJ: Benin
BL: Saint Barthélemy
BM: Bermuda
BN: Brunei Darussalam; Brunei
BO: Bolivia (Plurinational State of); Bolivia
BQ: Bonaire, Sint Eustatius and Saba
BR: Brazil
BS: Bahamas
BT: Bhutan
BV: Bouvet Island
BW: Botswana
BY: Belarus
BZ: Belize
CA: Canada
CC: Cocos (Keeling) Islands
CD: Congo, Democratic Republic of the; Congo, the Democratic Republic of the; Democratic Republic of the Congo
CF: Central African Republic
CG: Congo; Republic of the Congo
CH: Switzerland
CI: Côte d'Ivoire; Ivory Coast
CK: Cook Islands
CL: Chile
CM: Cameroon
CN: China; People's Republic of China
CO: Colombia
CR: Costa Rica
CU: Cuba
CV: Cabo Verde; Cape Verde
CW: Curaçao
CX: Christmas Island
CY: Cyprus
CZ: Czechia; Czech Republic
DE: Germany
DJ: Djibouti
DK: Denmark
DM: Dominica
DO: Dominican Republic
DZ: Algeria
EC: Ecuador
EE: Estonia
EG: Egypt
EH: Western Sahara
ER: Eritrea
ES: Spain
ET: Ethiopia
FI: Finland
FJ: Fiji
FK: Falkland Islands (Malvinas); Falkland Islands
FM: Micronesia (Federated States of); Micronesia, Federated States of; Micronesia
FO: Faroe Islands
FR: France
GA: Gabon
GB: United Kingdom of Great Britain and Northern Ireland; United Kingdom; Great Britain; UK; U.K.
GD: Grenada
GE: Georgia
GF: French Guiana
GG: Guernsey
GH: Ghana
GI: Gibraltar
GL: Greenland
GM: Gambia
GN: Guinea
GP: Guadeloupe
GQ: Equatorial Guinea
GR: Greece
GS: South Georgia and the South Sandwich Islands
GT: Guatemala
GU: Guam
GW: Guinea-Bissau
GY: Guyana
HK: Hong Kong
HM: Heard Island and McDonald Islands
HN: Honduras
HR: Croatia
HT: Haiti
HU: Hungary
ID: Indonesia
IE: Ireland
IL: Israel
IM: Isle of Man
IN: India
IO: British Indian Ocean Territory
IQ: Iraq
IR: Iran (Islamic Republic of); Iran
IS: Iceland
IT: Italy
JE: Jersey
JM: Jamaica
JO: Jordan
JP: Japan
KE: Kenya
KG: Kyrgyzstan
KH: Cambodia
KI: Kiribati
KM: Comoros
KN: Saint Kitts and Nevis
KP: Korea (Democratic People's Republic of); Korea, Democratic People's Republic of; North Korea
KR: Korea, Republic of; Republic of Korea; South Korea
KW: Kuwait
KY: Cayman Islands
KZ: Kazakhstan
LA: Lao People's Democratic Republic; Laos
LB: Lebanon
LC: Saint Lucia
LI: Liechtenstein
LK: Sri Lanka
LR: Liberia
LS: Lesotho
LT: Lithuania
LU: Luxembourg
LV: Latvia
LY: Libya
MA: Morocco
MC: Monaco
MD: Moldova, Republic of; Republic of Moldova; Moldova
ME: Montenegro
MF: Saint Martin (French part)
MG: Madagascar
MH: Marshall Islands
MK: North Macedonia; Macedonia
ML: Mali
MM: Myanmar
MN: Mongolia
MO: Macao; Macau
MP: Northern Mariana Islands
MQ: Martinique
MR: Mauritania
MS: Montserrat
MT: Malta
MU: Mauritius
MV: Maldives
MW: Malawi
MX: Mexico
MY: Malaysia
MZ: Mozambique
NA: Namibia
NC: New Caledonia
NE: Niger
NF: Norfolk Island
NG: Nigeria
NI: Nicaragua
NL: Netherlands; Kingdom of the Netherlands
NO: Norway
NP: Nepal
NR: Nauru
NU: Niue
NZ: New Zealand
OM: Oman
PA: Panama
PE: Peru
PF: French Polynesia
PG: Papua New Guinea
PH: Philippines
PK: Pakistan
PL: Poland
PM: Saint Pierre and Miquelon
PN: Pitcairn
PR: Puerto Rico
PS: Palestine, State of; Palestine
PT: Portugal
PW: Palau
PY: Paraguay
QA: Qatar
RE: Réunion
RO: Romania
RS: Serbia
RU: Russian Federation; Russia
RW: Rwanda
SA: Saudi Arabia
SB: Solomon Islands
SC: Seychelles
SD: Sudan
SE: Sweden
SG: Singapore
SH: Saint Helena, Ascension and Tristan da Cunha
SI: Slovenia
SJ: Svalbard and Jan Mayen
SK: Slovakia
SL: Sierra Leone
SM: San Marino
SN: Senegal
SO: Somalia
SR: Suriname
SS: South Sudan
ST: Sao Tome and Principe
SV: El Salvador
SX: Sint Maarten (Dutch part); Sint Maarten
SY: Syrian Arab Republic; Syria
SZ: Eswatini; Swaziland
TC: Turks and Caicos Islands
TD: Chad
TF: French Southern Territories
TG: Togo
TH: Thailand
TJ: Tajikistan
TK: Tokelau
TL: Timor-Leste
TM: Turkmenistan
TN: Tunisia
TO: Tonga
TR: Türkiye; Turkey
TT: Trinidad and Tobago
TV: Tuvalu
TW: Taiwan, Province of China; Taiwan
TZ: Tanzania, United Republic of; Tanzania
UA: Ukraine
UG: Uganda
UM: United States Minor Outlying Islands
US: United States of America; United States; USA; U.S.A.; U.S.
UY: Uruguay
UZ: Uzbekistan
VA: Holy See; Holy See (Vatican City State); Vatican City
VC: Saint Vincent and the Grenadines
VE: Venezuela (Bolivarian Republic of); Venezuela
VG: Virgin Islands (British); Virgin Islands, British; British Virgin Islands
VI: Virgin Islands (U.S.); Virgin Islands, U.S.; U.S. Virgin Islands
VN: Viet Nam; Vietnam
VU: Vanuatu
WF: Wallis and Futuna
WS: Samoa
YE: Yemen
YT: Mayotte
ZA: South Africa
ZM: Zambia
ZW: Zimbabwe
"""
# dei:SecurityExchangeName codes; a market tier of an exchange is that exchange
_EXCHANGES = """
NASDAQ: Nasdaq; Nasdaq Stock Market; Nasdaq Global Select Market; Nasdaq Global Market; Nasdaq Capital Market
NYSE: New York Stock Exchange; NYSE
NYSEAMER: NYSE American; NYSE MKT
NYSEArca: NYSE Arca
NYSENAT: NYSE National
CHX: NYSE Chicago; Chicago Stock Exchange
BX: Nasdaq BX
Phlx: Nasdaq PHLX
ISE: Nasdaq ISE
GEMX: Nasdaq GEMX
MRX: Nasdaq MRX
CBOE: Cboe Exchange; Chicago Board Options Exchange
CboeBYX: Cboe BYX Exchange
CboeBZX: Cboe BZX Exchange
CboeEDGA: Cboe EDGA Exchange
CboeEDGX: Cboe EDGX Exchange
IEX: Investors Exchange; IEX
BOX: BOX Exchange
MIAX: Miami International Securities Exchange; MIAX
PEARL: MIAX PEARL
LTSE: Long-Term Stock Exchange
MEMX: MEMX; Members Exchange
"""
# dei:EntityFilerCategory as the dei enumeration spells it (the last two are dei's before 2019)
_FILER_CATEGORIES = """
Large Accelerated Filer: Large accelerated filer
Accelerated Filer: Accelerated filer
Non-accelerated Filer: Non-accelerated filer; Nonaccelerated filer
Smaller Reporting Company: Smaller reporting company
Smaller Reporting Accelerated Filer: Smaller reporting accelerated filer
"""

# --- the registries -------------------------------------------------------------------------------------------

_TR1: dict[str, Reader] = {
    "datedoteu": _date("DMY", seps=(r"\.", r"\.")),
    "datedotus": _date("MDY", seps=(r"\.", r"\.")),
    "datelonguk": _date("DMY", "long", (" ", " ")),
    "datelongus": _date("MDY", "long", (" ", ",? ")),
    "dateshortuk": _date("DMY", "short", (" ", " ")),
    "dateshortus": _date("MDY", "short", (" ", ",? ")),
    "dateslasheu": _date("DMY", seps=("/", "/")),
    "dateslashus": _date("MDY", seps=("/", "/")),
    "datelongdaymonthuk": _date("DM", "long", (" ",)),
    "datelongmonthdayus": _date("MD", "long", (" ",)),
    "dateshortdaymonthuk": _date("DM", "short", (" ",)),
    "dateshortmonthdayus": _date("MD", "short", (" ",)),
    "dateslashdaymontheu": _date("DM", seps=("/",)),
    "dateslashmonthdayus": _date("MD", seps=("/",)),
    "datelongyearmonth": _date("YM", "long", (" ",)),
    "dateshortyearmonth": _date("YM", "short", (" ",)),
    "datelongmonthyear": _date("MY", "long", (",? ",)),
    "dateshortmonthyear": _date("MY", "short", (",? ",)),
    "numcomma": _num("", ","),
    "numcommadot": _num(",", "."),
    "numdash": _dash,
    "numdotcomma": _num(".", ","),
    "numspacecomma": _num(" ", ","),
    "numspacedot": _num(" ", "."),
}
_TR2: dict[str, Reader] = {
    "booleanfalse": _fixed("false"),
    "booleantrue": _fixed("true"),
    "datedaymonth": _date("DM"),
    "datedaymonthen": _date("DM", "name"),
    "datedaymonthyear": _date("DMY"),
    "datedaymonthyearen": _date("DMY", "name"),
    "datemonthday": _date("MD"),
    "datemonthdayen": _date("MD", "name"),
    "datemonthdayyear": _date("MDY"),
    "datemonthdayyearen": _date("MDY", "name"),
    "datemonthyearen": _date("MY", "name"),
    "dateyearmonthen": _date("YM", "name"),
    "nocontent": _fixed(""),
    "numcommadecimal": _num(". ", ","),
    "numdotdecimal": _num(", ", "."),
    "numunitdecimal": _unit(",. "),
    "zerodash": _dash,
}
_TR3: dict[str, Reader] = {
    **_TR2,
    "datemonthyear": _date("MY"),
    "dateyearmonthday": _date("YMD"),
    "numdotdecimalin": _num(", ", ".", indian=True),
    "numunitdecimalin": _unit(",. ", indian=True),
}
_TR4: dict[str, Reader] = {
    "date-day-month": _date("DM"),
    "date-day-month-year": _date("DMY"),
    "date-day-monthname-en": _date("DM", "name"),
    "date-day-monthname-year-en": _date("DMY", "name"),
    "date-month-day": _date("MD"),
    "date-month-day-year": _date("MDY"),
    "date-month-year": _date("MY"),
    "date-monthname-day-en": _date("MD", "name"),
    "date-monthname-day-year-en": _date("MDY", "name"),
    "date-monthname-year-en": _date("MY", "name"),
    "date-year-month": _date("YM"),
    "date-year-month-day": _date("YMD"),
    "date-year-monthname-en": _date("YM", "name"),
    "fixed-empty": _fixed(""),
    "fixed-false": _fixed("false"),
    "fixed-true": _fixed("true"),
    "fixed-zero": _fixed("0"),
    "num-comma-decimal": _num(". ", ","),
    "num-dot-decimal": _num(", ", "."),
    "num-unit-decimal": _unit(",. "),
}
_TR5: dict[str, Reader] = {
    **_TR4,
    "num-comma-decimal-apos": _num(". '\u2019", ","),
    "num-dot-decimal-apos": _num(", '\u2019", "."),
    "num-unit-decimal-apos": _unit(",. '\u2019"),
}
_SEC: dict[str, Reader] = {
    "boolballotbox": _ballot("true", "false"),
    "countrynameen": _lookup(_table(_COUNTRIES), "country"),
    "datequarterend": _quarter_end,
    "durday": _duration("D"),
    "durhour": _duration("H"),
    "durmonth": _duration("M"),
    "durwordsen": _durwords,
    "duryear": _duration("Y"),
    "edgarprovcountryen": _lookup(_table(_STATES + _US_TERRITORIES + _EDGAR), "state, province or country"),
    "entityfilercategoryen": _lookup(_table(_FILER_CATEGORIES), "filer category"),
    "exchnameen": _lookup(_table(_EXCHANGES), "exchange", r"\s(?:llc|inc)$"),
    "numinf": _fixed("INF"),
    "numnan": _fixed("NaN"),
    "numneginf": _fixed("-INF"),
    "numwordsen": _numwords,
    "stateprovnameen": _lookup(_table(_STATES + _US_TERRITORIES + _PROVINCES), "state or province"),
    "yesnoballotbox": _ballot("Yes", "No"),
}
_REGISTRIES = {TR1: _TR1, TR2: _TR2, TR3: _TR3, TR4: _TR4, TR5: _TR5, SEC: _SEC}


def supported(namespace: str) -> frozenset[str]:
    """The names of a registry's transforms read here (none for a namespace that is not a registry)."""
    return frozenset(_REGISTRIES.get(namespace, ()))


def transform(namespace: str, name: str, text: str) -> str:
    """The canonical value of `text` under transform `name` of the registry `namespace`."""
    registry = _REGISTRIES.get(namespace)
    if registry is None or name not in registry:
        reason = "not a transformation registry" if registry is None else "no such transform in this registry"
        raise TransformError(namespace, name, text, reason)
    try:
        return registry[name](" ".join(text.split()))
    except ValueError as exc:
        raise TransformError(namespace, name, text, str(exc)) from None
