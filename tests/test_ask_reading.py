"""Questions read as people ask them (issue: no silent misreading): every qualifier a question carries is read or
left unread, and a question about figures with unread words is refused naming them. Each failure the blind
analysts quoted is a case here. Readings only: the answers on real data are in test_ask_bank.py."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from factstore.ask.parse import Entity, parse
from factstore.names import Names
from factstore.vocabulary import load_metrics

METRICS = load_metrics()
APPLE = Entity("Apple Inc.", "0000320193", ("AAPL",), True, cik=320193)
NVIDIA = Entity("NVIDIA CORP", "0001045810", ("NVDA",), True, cik=1045810)
ALPHABET = Entity("ALPHABET INC.", "0001652044", ("GOOGL", "GOOG"), True, cik=1652044)
GOOGLE_INC = Entity("GOOGLE INC.", "0001288776", (), True, cik=1288776)  # Alphabet's predecessor filer
VENTAS = Entity("VENTAS INC", "0000740260", (), True, cik=740260)
TARGET = Entity("TARGET CORP", "0000027419", (), True, cik=27419)
QUILLMARK = Entity("Quillmark Software, Inc.", "QMK", (), True)
SNOWFLAKE = Entity("SNOWFLAKE INC.", "0001640147", ("SNOW",), True, cik=1640147)
TESLA = Entity("Tesla, Inc.", "0001318605", ("TSLA",), True, cik=1318605)
KNOWN = Names([APPLE, NVIDIA, ALPHABET, GOOGLE_INC, VENTAS, TARGET, QUILLMARK, SNOWFLAKE, TESLA])


def read(question: str):
    return parse(question, KNOWN, METRICS)


# ------------------------------------------------------------------------- the qualifiers that were dropped
@pytest.mark.parametrize(("question", "periods"), [
    ("Apple revenue 1H24", ["2024H1"]),
    ("What was Apple's H1 FY2024 revenue?", ["2024H1"]),
    ("Apple revenue in the first half of fiscal 2024", ["2024H1"]),
    ("ventas de Apple en el primer semestre del ejercicio 2024", ["2024H1"]),
    ("Apple TTM revenue", ["TTM"]),
    ("Apple LTM revenue through Q2 FY2025", ["TTM2025Q2"]),
    ("Apple revenue over the last twelve months ending 4Q24", ["TTM2024Q4"]),
    ("Alphabet trailing twelve month revenue through Q3 2024", ["TTM2024Q3"]),
    ("ingresos de Apple en los últimos doce meses hasta el segundo trimestre fiscal 2025", ["TTM2025Q2"]),
    ("Ingresos de Apple de los últimos doce meses (TTM) al cierre del 1T del ejercicio fiscal 2026", ["TTM2026Q1"]),
    ("Apple revenue over the last four fiscal quarters ending Q1 FY2026", ["TTM2026Q1"]),
    ("What was Apple trailing twelve month revenue for the twelve months ending with Q1 fiscal 2026?",
     ["TTM2026Q1"]),
    ("Apple revenue for the six months ended March 30, 2024", ["END:half:2024-03-30"]),
    ("Apple net income for the nine months ended June 29, 2024", ["END:nine_months:2024-06-29"]),
    ("ventas de Apple en los seis meses terminados el 30 de marzo de 2024", ["END:half:2024-03-30"]),
    ("Apple revenue for the quarter ended June 29, 2024", ["END:quarter:2024-06-29"]),
    ("Apple revenue Q2 FY25", ["2025Q2"]),
    ("apple rev q2 fy25", ["2025Q2"]),
    ("Apple revenue Q1 '18", ["2018Q1"]),
    ("Apple revenue fiscal '26", ["FY2026"]),
    ("Apple revenue 2Q24", ["2024Q2"]),
    ("Apple revenue in 9M FY2023", ["2023M9"]),
    ("ventas de Apple en los nueve primeros meses del año fiscal 2021", ["2021M9"]),
    ("ventas de Apple en los primeros nueve meses (9M) del ejercicio fiscal 2021", ["2021M9"]),
    ("What was Apple's most recent quarterly revenue?", ["LATEST:quarter"]),
])
def test_periods_are_read_whole(question, periods):
    p = read(question)
    assert p.periods == periods and p.unread == [] and p.metric.name in ("revenue", "net_income")
    assert p.entities


@pytest.mark.parametrize(("question", "mode"), [
    ("Apple's FY2023 revenue as originally reported", "first"),
    ("¿Ingresos de Apple en el ejercicio 2023 tal como se publicó?", "first"),
    ("Apple FY2023 revenue, according to the latest figures", "latest"),
    ("Apple FY2023 revenue as restated", "latest"),
    ("Apple FY2023 revenue", "as_of"),
])
def test_modes(question, mode):
    p = read(question)
    assert p.mode == mode and p.periods == ["FY2023"] and p.unread == []


@pytest.mark.parametrize(("question", "moment"), [
    ("NVIDIA shares outstanding as of March 2024", datetime(2024, 3, 1)),  # a month: its first instant
    ("Apple's fiscal 2024 revenue as of October 2024", datetime(2024, 10, 1)),
    ("Apple revenue FY2024 as of Oct 15, 2024", datetime(2024, 10, 15)),
    ("Apple revenue FY2024 a fecha de 15/10/2024", datetime(2024, 10, 15)),
    ("ventas de Apple en el ejercicio 2024 a marzo de 2025", datetime(2025, 3, 1)),
    ("Apple revenue FY2023 as of the end of 2023", datetime(2023, 12, 31)),
    ("At the end of 2009, how much revenue did Apple generate for fiscal 2008?", datetime(2009, 12, 31)),
    ("A 2025-03-27, ¿cuánto fue la utilidad operativa de Alphabet en el primer trimestre del ejercicio 2024?",
     datetime(2025, 3, 27)),
    ("Apple revenue FY2024 as of 2024-11-01 10:01:36", datetime(2024, 11, 1, 10, 1, 36)),
    ("BPA diluido de Apple del ejercicio fiscal 2023 según se conocía el 1 de diciembre de 2024",
     datetime(2024, 12, 1)),
    ("Ganancia neta de Apple en el ejercicio 2009 según los datos disponibles el 1 de febrero de 2010",
     datetime(2010, 2, 1)),
    # the close: 16:00 New York (EDT in May); it had been read as the end of 2024, the date's year
    ("NVDA MRQ rev as of close 2024-05-22", datetime(2024, 5, 22, 20)),
    ("NVDA revenue Q1 FY2025 as of the market close on May 22, 2024", datetime(2024, 5, 22, 20)),
    ("ingresos de NVIDIA del 4T FY24 al cierre del 21 de febrero de 2024", datetime(2024, 2, 21, 21)),
    ("ingresos de NVIDIA del 4T FY24 a las 16:45 ET del 2024-02-21", datetime(2024, 2, 21, 21, 45)),
    ("NVDA revenue Q4 FY24 at 9:30 ET on 2024-02-22", datetime(2024, 2, 22, 14, 30)),
    ("Según lo que se sabía el 30 de julio de 2024, ¿cuál fue la utilidad neta de NVIDIA en el 2T FY25?",
     datetime(2024, 7, 30)),
    ("¿Cuál fue el BPA diluido de NVIDIA en FY24, según la información disponible el 20 de abril de 2024?",
     datetime(2024, 4, 20)),
    # 'New York time' after a clock had named New York Community Bancorp, and the clock was read as 00:00
    ("As of noon New York time on January 25, 2010, what was Apple's reported net income for fiscal 2009?",
     datetime(2010, 1, 25, 17)),
    ("What was Apple's operating cash flow for fiscal 2017, as known at 3:00 a.m. New York time on November 5, 2018?",
     datetime(2018, 11, 5, 8)),
    ("At 8 p.m. New York time on July 29, 2009, what revenue had Apple reported for the second quarter of 2009?",
     datetime(2009, 7, 30)),
    ("¿Cuál era el flujo de caja operativo de Apple del ejercicio fiscal 2017 a las 10:00 (hora de Nueva York) del "
     "5 de noviembre de 2018?", datetime(2018, 11, 5, 15)),
    ("Según lo conocido el domingo 6 de febrero de 2022, ¿cuáles fueron los ingresos totales de Apple en 2021?",
     datetime(2022, 2, 6)),
    ("Según lo publicado al 30 de junio de 2013, ¿cuál fue el flujo de caja de operaciones de Apple en 2011?",
     datetime(2013, 6, 30)),
])
def test_as_of_moments_never_later_than_asked(question, moment):
    p = read(question)
    assert p.as_of == moment and p.unread == [] and len(p.periods) <= 1 and p.part is None, p.unread


def test_a_weak_lead_names_a_moment_only_beside_a_period():
    """'at the end of fiscal 2024' and 'al cierre de 2024' alone are the period; a bare date alone is a balance's
    date, and for a flow it is unread."""
    assert read("How much cash did Apple have at the end of fiscal 2024?").periods == ["FY2024"]
    p = read("activos totales de Apple al cierre de 2024")
    assert p.periods == ["FY2024"] and p.as_of is None
    p = read("activos totales de Apple a 31/12/2024")
    assert p.periods == ["END:instant:2024-12-31"] and p.as_of is None and p.unread == []
    p = read("ventas de Apple a 31/12/2024")
    assert p.as_of is None and p.unread


@pytest.mark.parametrize(("question", "unread"), [
    ("What was Apple's revenue in FY2023 excluding Greater China?", "excluding"),
    ("What was Apple's adjusted revenue in FY2023?", "adjusted"),
    ("NVIDIA adjusted EBITDA fiscal 2025", "adjusted"),
    ("EBITDA ajustado de Apple en el ejercicio 2024", "ajustado"),
    ("Apple revenue per employee FY2024", "employee"),
    ("Apple revenue in March 2024", "march"),  # a month without 'as of': no moment, no period
    ("Apple TTM revenue FY2024", "ttm"),  # twelve months beside a year: which?
    ("¿Cuál fue el gasto en I+D no GAAP de Google en 1T25?", "gaap"),
    ("Apple revenue on a constant-currency basis in fiscal 2016", "constant"),
])
def test_words_that_change_the_figure_are_never_dropped(question, unread):
    assert unread in read(question).unread


def test_a_word_modifying_the_metric_is_a_part_never_dropped():
    assert read("What was Apple's car revenue in FY2024?").part == "car"  # not a slip of 'can'
    assert read("How much did Apple make from iPhone in fiscal 2024?").part == "iphone"
    assert read("ingresos de NVIDIA procedentes del segmento de gaming en 2025").part == "gaming"


def test_slips_of_filler_words_are_read_past_and_said():
    p = read("waht were apple's total assets in teh fiscal year 2023? thx")
    assert p.unread == [] and p.metric.name == "total_assets" and p.periods == ["FY2023"]
    assert "read 'teh' as 'the'" in p.notes


def test_comparisons_and_restatements():
    p = read("Apple vs NVIDIA revenue in fiscal 2024")
    assert p.comparison and p.entities == [APPLE, NVIDIA] and p.unread == []
    p = read("nvda frente a aapl: activos totales en el año fiscal 2015")
    assert p.comparison and p.entities == [NVIDIA, APPLE] and p.unread == []
    p = read("Was Tesla's 2019 revenue ever restated?")
    assert p.restatement and p.periods == ["FY2019"] and p.unread == []


def test_growth_between_two_periods_reads_both():
    p = read("¿Cuánto crecieron los ingresos de Alphabet entre 2023 y 2024?")
    assert p.growth and p.periods == ["FY2023", "FY2024"] and p.unread == []


# ------------------------------------------------------------------------- names among many filers
def test_a_common_word_names_a_company_only_written_as_a_name():
    p = read("¿Cuáles fueron las ventas de Apple en 2023?")
    assert p.entities == [APPLE] and p.metric.name == "revenue"
    assert read("Ventas de Apple en el ejercicio 2023").entities == [APPLE]  # capitalized first word: a sentence
    assert read("What was Ventas's revenue in FY2009?").entities == [VENTAS]  # possessive: a name
    assert read("target revenue FY2009").entities == []
    assert read("Target").entities == [TARGET]  # the whole question
    # found blind (set u: 'Travelers net income 1H09'): opening the question right before a metric, unless another
    # company is named
    assert read("Target revenue FY2009").entities == [TARGET]
    assert read("Target revenue FY2009 for Apple").entities == [APPLE]
    assert read("Ventas netas de Apple en 2023").entities == [APPLE]


def test_a_curated_alias_outranks_a_predecessors_name():
    assert read("Google revenue FY2024").entities == [ALPHABET]
    assert read("Google Inc. revenue FY2010").entities == [GOOGLE_INC]  # its own full name still finds it
    # the predecessor is kept beside it, for a period only it reported (route: _predecessor_with_facts)
    assert read("Google revenue FY2024").predecessors == [("Google", ALPHABET, (GOOGLE_INC,))]
    assert read("Google Inc. revenue FY2010").predecessors == read("Apple revenue FY2024").predecessors == []


def test_a_names_first_word_alone_when_no_other_company_shares_it():
    assert read("Quillmark's revenue in 2023").entities == [QUILLMARK]
    assert read("quillmark revenue 2023").entities == []  # lower case: a word, not a name


def test_lower_case_tickers_unless_a_common_word():
    assert read("nvda revenue FY2025").entities == [NVIDIA]
    assert read("snow revenue FY2025").entities == []  # 'snow' is a word
    assert read("SNOW revenue FY2025").entities == [SNOWFLAKE]


@pytest.mark.parametrize(("question", "metric"), [
    ("Apple op income FY2024", "operating_income"), ("Apple opex FY2024", "operating_expenses"),
    ("Apple D&A FY2024", "depreciation_amortization"), ("Apple SBC FY2024", "stock_based_compensation"),
    ("Apple FCF FY2024", "free_cash_flow"), ("Apple capex FY2024", "capex"), ("Apple inventory FY2024", "inventory"),
    ("¿Cuánto ingresó Apple en el ejercicio 2024?", "revenue"), ("¿Cuánto facturó Apple en 2024?", "revenue"),
    ("¿Cuánto ganó Apple en el ejercicio 2024?", "net_income"), ("apple rev FY2024", "revenue"),
    # (found blind: 'earn' was corrected to the Spanish 'eran', and the question refused)
    ("How much did Apple earn in fiscal 2024?", "net_income"), ("What Apple earned in FY2024", "net_income"),
    ("How much revenue did Apple earn in FY2024?", "revenue"),
])
def test_abbreviations_and_verbs_name_metrics(question, metric):
    p = read(question)
    assert p.metric.name == metric and p.entities == [APPLE] and p.unread == []


def test_headcount_is_no_figure_of_the_facts():
    """Employees are not in companyfacts: a headcount question is a text question, never another metric."""
    p = read("How many employees does Apple have? headcount")
    assert p.metric is None and p.entities == [APPLE]


# ------------------------------------------------------------------------- the United States, as questions write it
US_STEEL = Entity("UNITED STATES STEEL CORP", "0001163302", ("X",), True, cik=1163302)


@pytest.mark.parametrize("question", [
    "What was Apple's revenue in the U.S. in fiscal 2024?",
    "What was Apple's U.S. revenue in fiscal 2024?",
    "What was Apple's US revenue in fiscal 2024?",
    "What was Apple's revenue in the USA in fiscal 2024?",
    "What was Apple's revenue in the U.S.A. in fiscal 2024?",
    "What was Apple's revenue in the United States in fiscal 2024?",
    "What was Apple's United States revenue in fiscal 2024?",
    "Apple revenue in United States FY2024",
    "¿Cuáles fueron las ventas de Apple en EE. UU. en el ejercicio 2024?",
    "¿Cuáles fueron las ventas de Apple en Estados Unidos en el ejercicio 2024?",
])
def test_the_united_states_is_a_part_of_the_company_never_read_past(question):
    # 'U.S.' was read as 'u' ('you') and 's', and 'US' as the pronoun: the company's total was given for its U.S.
    # sales; 'the United States' named United States Steel
    p = parse(question, Names([APPLE, US_STEEL]), METRICS)
    assert ([e.name for e in p.entities], p.metric.name, p.periods, p.part) == (
        ["Apple Inc."], "revenue", ["FY2024"], "usa"), p.line()


@pytest.mark.parametrize(("question", "currency"), [
    ("What was Apple's revenue in fiscal 2024 in US dollars?", "USD"),
    ("What was Apple's revenue in fiscal 2024 in U.S. dollars?", "USD"),
    ("Tell us Apple's revenue in fiscal 2024", None),
])
def test_us_dollars_and_the_pronoun_are_not_the_country(question, currency):
    p = parse(question, Names([APPLE, US_STEEL]), METRICS)
    assert (p.part, p.currency, p.unread, [e.name for e in p.entities]) == (None, currency, [], ["Apple Inc."])


def test_united_states_steel_is_still_the_company():
    p = parse("What was United States Steel's revenue in 2023?", Names([APPLE, US_STEEL]), METRICS)
    assert ([e.name for e in p.entities], p.part) == (["UNITED STATES STEEL CORP"], None)


@pytest.mark.parametrize(("question", "metric"), [
    # 'attributable to common stockholders' labels net income (to the parent: Tesla's NetIncomeLoss line); 'available
    # to' is the numerator of basic EPS (NetIncomeLossAvailableToCommonStockholdersBasic: 5M more for Tesla's 2021)
    ("How much did Tesla earn in Q4 2021 (net income attributable to common stockholders)?", "net_income"),
    ("Tesla net income available to common stockholders in FY2021", "net_income_common"),
    # attributable to the company itself (to the parent) is net income; to the minority, the minority's share
    ("Tesla net loss attributable to Tesla, Inc. in FY2021", "net_income"),
    ("utilidad neta atribuible a los propietarios de la controladora de Tesla en 2021", "net_income"),
    ("Tesla net income attributable to noncontrolling interests in FY2021", "net_income_nci"),
])
def test_attributable_is_net_income_and_available_is_the_eps_numerator(question, metric):
    p = read(question)
    assert p.metric.name == metric and p.unread == []


# ------------------------------------------------------------- a period said twice, its end beside its label
@pytest.mark.parametrize(("question", "periods"), [
    ("What was Apple's net income for 1H FY2025 (six months ended March 29, 2025)?",
     ["2025H1", "END:half:2025-03-29"]),
    ("NVIDIA trailing-twelve-month revenue through 3Q FY26 (quarter ended Oct 26, 2025)",
     ["TTM2026Q3", "TTMEND:quarter:2025-10-26"]),
    ("AAPL TTM revenue for the twelve months ended Dec 27, 2025", ["TTMEND:quarter:2025-12-27"]),
    ("Ingresos de Alphabet de los últimos doce meses al cierre del 1T 2026 (31 de marzo de 2026)",
     ["TTM2026Q1", "TTMEND:quarter:2026-03-31"]),
    ("Apple revenue in FY2025 (ended Sep 27, 2025)", ["FY2025", "END:year:2025-09-27"]),
])
def test_an_end_said_beside_a_label_is_kept_for_the_router_to_check(question, periods):
    """Both stay: the router answers only where both name the same days (test_ask_real.py)."""
    p = read(question)
    assert (p.periods, p.unread) == (periods, [])


def test_a_date_in_parentheses_after_no_period_is_no_end():
    p = read("Apple revenue (Sep 27, 2025)")
    assert not any(":" in label for label in p.periods) and "sep" in p.unread  # refused, naming them
    p = read("Apple cash (at Sep 27, 2025)")  # read as any date is: a balance's day
    assert (p.periods, p.unread) == (["END:instant:2025-09-27"], [])


@pytest.mark.parametrize(("said", "utc"), [
    ("2025-10-31 12:00 UTC", datetime(2025, 10, 31, 12)),
    ("2025-10-31 09:00 ET", datetime(2025, 10, 31, 13)),  # New York in daylight saving time
    ("2025-01-31 09:00 ET", datetime(2025, 1, 31, 14)),
    ("2025-10-31 06:30 New York time", datetime(2025, 10, 31, 10, 30)),
    ("2025-10-31 09:00 EST", datetime(2025, 10, 31, 14)),  # EST and EDT are fixed offsets
    ("2025-01-31 09:00 EDT", datetime(2025, 1, 31, 13)),
])
def test_a_clock_times_zone_is_read_and_is_no_company(said, utc):
    """'12:00 UTC' had named United Technologies (ticker UTC), '09:00 ET' read as 09:00 UTC with 'et' a part of the
    company, and 'New York time' named New York Community Bancorp."""
    p = read(f"Apple revenue for the fourth quarter of fiscal 2025, as known at {said}")
    assert ([e.name for e in p.entities], p.as_of, p.unread, p.part) == (["Apple Inc."], utc, [], None)


@pytest.mark.parametrize("question", [
    "Apple net income in Q4 fiscal 2009, latest restated figures",
    "TSLA diluted EPS for 3Q21 (latest available figure)",
    "BPA diluido de Tesla del 3T 2021 (dato más reciente)",
    "BPA diluido de Tesla del 3T 2021, dato vigente",
    "Dividendos pagados por Apple en el ejercicio fiscal 2016, con la cifra vigente hoy",
])
def test_the_latest_figure_said_in_other_words(question):
    p = read(question)
    assert (p.mode, p.unread, p.part, len(p.periods)) == ("latest", [], None, 1)


@pytest.mark.parametrize(("question", "moment"), [
    ("ingresos de Marvell del primer trimestre fiscal 2022, según lo conocido al 2021-12-01", datetime(2021, 12, 1)),
    ("ventas netas de Apple año fiscal 2009 a fecha 2010-03-01", datetime(2010, 3, 1)),
    ("ingresos de Apple en el 4T del año fiscal 2009, con datos al 15/11/2009", datetime(2009, 11, 15)),
    ("BPA diluido de Alphabet 2021, según lo conocido al 30-06-2022", datetime(2022, 6, 30)),
])
def test_spanish_moments_with_data_as_of(question, moment):
    p = read(question)
    assert (p.as_of, p.unread, p.part, len(p.periods)) == (moment, [], None, 1)


def test_the_same_metric_said_twice_is_no_part():
    p = read("Patrimonio neto (stockholders' equity) de NVIDIA al cierre del ejercicio fiscal 2026")
    assert (p.metric.name, p.part, p.unread) == ("equity", None, [])
    assert read("iPhone revenue (net sales) of Apple in FY2024").part == "iphone"


def test_a_ratio_in_percent_and_the_year_to_date():
    p = read("Margen bruto de Tesla en 2021, en porcentaje")
    assert (p.metric.name, p.part, p.unread) == ("gross_margin", None, [])
    assert read("Tesla revenue in 2021, in percent").part == "percent"  # of what? refused
    p = read("resultado operativo de NVDA acumulado a nueve meses del ejercicio fiscal 2026")
    assert (p.periods, p.part, p.unread) == (["2026M9"], None, [])


@pytest.mark.parametrize(("question", "weeks"), [
    ("Marvell revenue in Q4 of fiscal 2024 (the 14-week quarter ended Feb 3, 2024)", 14),
    ("Ingresos de NVIDIA en el cuarto trimestre del ejercicio fiscal 2021 (el trimestre de 14 semanas)", 14),
    ("Apple revenue in the 53-week fiscal 2023", 53),
])
def test_a_periods_length_in_weeks_is_read_to_be_checked(question, weeks):
    p = read(question)
    assert (p.weeks, p.unread) == (weeks, [])


def test_two_lengths_in_weeks_stay_unread():
    p = read("Apple revenue growth from the 52-week fiscal 2022 to the 53-week fiscal 2023")
    assert p.weeks is None and "52" in p.unread


@pytest.mark.parametrize(("question", "part"), [
    ("apple rest of asia pacific operating income Q2 fiscal 2025", "rest of asia pacific"),
    ("ventas netas de Apple del segmento resto de Asia Pacífico en el ejercicio fiscal 2024", "resto de asia pacifico"),
    ("What was Apple's share of iPhone revenue in FY2024?", "share of iphone"),  # never the iPhone revenue itself
])
def test_a_parts_name_joined_by_of_is_read_whole(question, part):
    """'rest of Asia Pacific' had left 'rest' unread (refused); 'share of iPhone revenue' is no iPhone revenue."""
    p = read(question)
    assert (p.part, p.unread) == (part, [])


# ------------------------------------------------------------------------- blind sets u (FSDS filers) and v (shorthand)
@pytest.mark.parametrize(("question", "metric", "periods"), [
    ("AAPL rev FQ3'25", "revenue", ["2025Q3"]),
    ("AAPL NI FY09 as first reported", "net_income", ["FY2009"]),
    ("AAPL GM% FQ1'26", "gross_margin", ["2026Q1"]),
    ("TSLA GM % FY21", "gross_margin", ["FY2021"]),
    ("NVDA op margin FQ2'25", "operating_margin", ["2025Q2"]),
    ("AAPL EPS dil FY24", "eps_diluted", ["FY2024"]),
    ("NVDA MRQ rev", "revenue", ["LATEST:quarter"]),
    ("ingresos de Apple del 1S FY26 (H1)", "revenue", ["2026H1"]),
    ("How much cash did Apple generate from operating activities in fiscal 2024?", "operating_cash_flow",
     ["FY2024"]),
    ("Apple cash generated from operating activities FY2024", "operating_cash_flow", ["FY2024"]),
    ("flujo de efectivo de las actividades de operación de Apple en 2024", "operating_cash_flow", ["FY2024"]),
    ("¿Cuánto efectivo generaron las operaciones de Apple en el primer semestre de 2024?", "operating_cash_flow",
     ["2024H1"]),
    ("¿Cuál fue la utilidad por acción diluida de Apple en el primer trimestre de 2024?", "eps_diluted",
     ["2024Q1"]),
    ("¿Cuál era el patrimonio de los accionistas de Apple al cierre del ejercicio 2024?", "equity", ["FY2024"]),
    ("What was Apple's total owner's equity (deficit) in fiscal 2024?", "equity", ["FY2024"]),
    ("pérdida neta de Apple del 1T FY26", "net_income", ["2026Q1"]),
    ("flujo de caja de operaciones de Apple en el primer semestre del ejercicio fiscal 2025", "operating_cash_flow",
     ["2025H1"]),
    ("How much did Apple spend on capex (purchases of property, equipment and intangible assets) in FY2026?",
     "capex", ["FY2026"]),
    ("compras de propiedades, equipo y activos intangibles (capex) de Apple en el año fiscal 2025", "capex",
     ["FY2025"]),
    ("AAPL SG&A 2H FY24", "sga", ["2024H2"]),
    ("¿Cuánto invirtió Apple en inmovilizado (capex) en el año fiscal 2024?", "capex", ["FY2024"]),
    ("Beneficio neto atribuible a los accionistas comunes de Apple en los nueve primeros meses de 2024", "net_income",
     ["2024M9"]),
    ("¿Cuáles fueron los ingresos de Apple en los últimos doce meses terminados el 27 de diciembre de 2025?",
     "revenue", ["TTMEND:quarter:2025-12-27"]),
    ("Apple revenue for the last twelve months ended December 27, 2025", "revenue", ["TTMEND:quarter:2025-12-27"]),
    ("Apple revenue for the twelve months ended September 27, 2025", "revenue", ["END:year:2025-09-27"]),
    ("Apple revenue H2 2024", "revenue", ["2024H2"]),
    ("Apple revenue FY2024 H2", "revenue", ["2024H2"]),
    ("ingresos de Apple en el segundo semestre del ejercicio 2024 (H2)", "revenue", ["2024H2"]),
])
def test_analysts_shorthand_and_spanish_names_of_metrics(question, metric, periods):
    """Found blind (sets u and v): each was refused, its words unread."""
    p = read(question)
    assert (p.metric.name, p.periods, p.unread, p.part) == (metric, periods, [], None), p.unread
    assert p.entities


def test_ni_in_spanish_is_nor_and_only_capitals_are_net_income():
    assert read("AAPL NI FY24").metric.name == "net_income"
    assert read("ni ingresos ni ventas de Apple en 2024").metric.name == "revenue"


def test_a_year_end_lead_never_reads_a_dates_year():
    assert read("Apple revenue FY2024 as of close 2024-12-31").as_of == datetime(2024, 12, 31, 21)
    assert read("Apple revenue FY2023 as of the end of 2023").as_of == datetime(2023, 12, 31)
    p = read("NVDA revenue Q1 FY2025 as of end 2024-05-22")  # no close, no end of 2024: unread, refused
    assert p.as_of is None and p.unread


def test_mayores_compares():
    p = read("¿Qué empresa tuvo mayores ingresos en el ejercicio 2024, Apple o NVIDIA?")
    assert (p.comparison, p.metric.name, p.unread, p.part) == (True, "revenue", [], None)


def test_a_first_half_said_beside_a_second_is_unread():
    p = read("Apple revenue 2H FY24 (H1)")
    assert p.periods == ["2024H2"] and p.unread == ["h1"]


@pytest.mark.parametrize("question", [
    "What was Apple's year-over-year revenue growth in Q3 of fiscal 2025?",
    "¿Cuánto creció el flujo de caja operativo de Apple en 2025 respecto a 2024, en porcentaje?",
    "¿Cuánto crecieron las ventas de Apple en 2025 con respecto al 2024?",
    "As of December 1, 2025, by what percentage had Apple's net sales grown in fiscal 2025 versus fiscal 2024?",
])
def test_growth_said_year_over_year_or_respecto_a(question):
    p = read(question)
    assert (p.growth, p.unread, p.part) == (True, [], None), p.unread



# ------------------------------------------------------------------------- blind sets w (restatements) and x (Spanish)
@pytest.mark.parametrize(("question", "periods", "mode"), [
    ("¿Cuál fue el margen operativo de Apple en el segundo trimestre de su ejercicio fiscal 2026?", ["2026Q2"],
     "as_of"),
    ("¿Cuál fue el beneficio neto de Apple en el 4T de su ejercicio fiscal 2025?", ["2025Q4"], "as_of"),
    ("What was Apple's revenue in the first-quarter of its fiscal 2025?", ["2025Q1"], "as_of"),
    ("What diluted EPS did Apple first report for fiscal 2019?", ["FY2019"], "first"),
    ("What operating income did Apple originally report for full-year 2018?", ["FY2018"], "first"),
    ("¿Qué BPA diluido publicó inicialmente Apple en su ejercicio fiscal 2024?", ["FY2024"], "first"),
    ("Tal como figura en la presentación más reciente, ¿cuál es el BPA diluido de Apple del ejercicio fiscal 2024?",
     ["FY2024"], "latest"),
    ("¿Cuál es el beneficio neto de Apple en el ejercicio fiscal 2017, tras la reexpresión?", ["FY2017"], "latest"),
    ("¿Cuál fue el BPA diluido de Apple en el ejercicio fiscal 2025, cerrado el 27 de septiembre de 2025?",
     ["FY2025", "END:year:2025-09-27"], "as_of"),
])
def test_its_fiscal_year_verbs_of_first_and_latest_and_an_end_after_a_comma(question, periods, mode):
    p = read(question)
    assert (p.periods, p.mode, p.unread, p.part) == (periods, mode, [], None), p.unread


@pytest.mark.parametrize(("question", "months"), [
    ("¿Cuánto facturó Apple en el cuarto trimestre de su ejercicio fiscal 2025 (noviembre de 2024 a enero de 2025)?",
     (date(2024, 11, 1), date(2025, 1, 31))),
    ("¿Cuál fue el crecimiento interanual de los ingresos de Apple en el primer trimestre de su ejercicio fiscal 2026 "
     "(octubre-diciembre de 2025)?", (date(2025, 10, 1), date(2025, 12, 31))),
    ("Apple revenue in the fourth quarter of fiscal 2025 (November 2024 - January 2025)",
     (date(2024, 11, 1), date(2025, 1, 31))),
    ("¿Cuál fue el beneficio neto de Apple en el 4T de su ejercicio fiscal 2025, es decir, el trimestre de julio a "
     "septiembre de 2025?", (date(2025, 7, 1), date(2025, 9, 30))),
])
def test_the_months_a_period_runs_are_kept_for_the_router_to_check(question, months):
    """'(de octubre de 2024 a marzo de 2025)' had been read as of March 2025 and the years as two periods."""
    p = read(question)
    assert (p.months, len(p.periods), p.as_of, p.unread, p.part) == (months, 1, None, [], None), p.unread


@pytest.mark.parametrize("question", [
    "¿Cuáles son los ingresos financieros de Apple en 2024?",  # finance income: no revenue (TSMC's was answered
    "¿Cuáles fueron los gastos financieros de Apple en 2024?",  # with its revenue once 'publicada' was read)
])
def test_financial_income_is_no_revenue(question):
    assert "financieros" in read(question).unread


def test_the_same_quarter_a_year_before_and_these_three_companies():
    p = read("¿Cuánto crecieron, en porcentaje, los ingresos de Apple en el tercer trimestre fiscal de 2025 respecto "
             "al mismo trimestre del año anterior?")
    assert (p.growth, p.periods, p.unread, p.part) == (True, ["2025Q3"], [], None), p.unread
    p = read("¿Cuál de estas tres empresas, Apple, Alphabet o NVIDIA, gastó más en investigación y desarrollo en su "
             "ejercicio fiscal 2022?")
    assert (p.comparison, len(p.entities), p.unread, p.part) == (True, 3, [], None), p.unread


def test_us_dollars_said_in_spanish_are_a_currency():
    p = read("¿Cuánto facturó Apple en el ejercicio 2024 expresado en dólares estadounidenses?")
    assert (p.currency, p.unread, p.part) == ("USD", [], None)
