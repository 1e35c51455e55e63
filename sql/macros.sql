-- factstore macros: the point-in-time logic, as SQL that the Python API and analysts share.
-- as_of is a UTC TIMESTAMP or its text ('2024-06-30', NULL = everything loaded); mode is 'as_of', 'first' or
-- 'latest'; concepts is an ordered list standing for one line item: concepts (qualified or not) or metrics, read
-- by concept_keys (NULL = each concept on its own); entity is an entity_id, a ticker, a CIK or a name as
-- entity_key reads it (NULL = all entities). An entity or concept the store cannot read is an error, never an empty answer.

-- A character of a name's words (Python's \w): none of ASCII's spaces and punctuation nor Unicode's punctuation,
-- currency signs and symbols; with glue, also & and the apostrophes. (RE2's \pL costs 7 ms a query to compile.)
CREATE OR REPLACE MACRO word_class(glue) AS CASE WHEN glue
    THEN '[^\s!-%(-/:-@\[-^`{-~\x{80}-\x{bf}\x{2000}-\x{2018}\x{201a}-\x{206f}\x{20a0}-\x{20cf}\x{2100}-\x{2bff}\x{3000}-\x{303f}]'
    ELSE '[^\s!-/:-@\[-^`{-~\x{80}-\x{bf}\x{2000}-\x{206f}\x{20a0}-\x{20cf}\x{2100}-\x{2bff}\x{3000}-\x{303f}]' END;

-- A name's words as factstore.names.name_words reads them, joined by a space: lower case, accents stripped,
-- possessives and the glue of AT&T and O'Reilly dropped, the dots of initials (S.A.) dropped: the words are initials
-- (a character and a dot, twice or more) with what follows them, or runs of characters and glue.
CREATE OR REPLACE MACRO name_key(x) AS array_to_string(list_filter(list_transform(regexp_extract_all(
    regexp_replace(strip_accents(lower(x::VARCHAR)), '[''’]s\b', '', 'g'),
    '(?:' || word_class(false) || '\.){2,}' || word_class(true) || '*|' || word_class(true) || '+'),
    lambda w: regexp_replace(w, '[.&''’]', '', 'g')), lambda w: w <> ''), ' ');

-- A filer's name as name_key reads it, without EDGAR's state suffix ('NVIDIA CORP/CA'; names.filer_words).
CREATE OR REPLACE MACRO filer_key(x) AS name_key(regexp_replace(x::VARCHAR, '\s*/\s*[A-Za-z]{1,3}\s*/?\s*$', ''));

-- A name key without a leading 'the' and its trailing legal suffixes (suffixes: a regular expression of them), one
-- word always kept (names.core_words).
CREATE OR REPLACE MACRO core_key(key, suffixes) AS
    regexp_extract(regexp_replace(key, '^the ', ''), '^(\S+(?: \S+)*?)(?: (?:' || suffixes || '))*$', 1);

-- The entity_id of an entity as the API reads it (FactStore.resolve_entity; the keys in entity_names): an
-- entity_id, ticker or CIK (any case, zeros or not, 'CIK 320193'), an acronym that fits one company (TSMC), a name
-- in full or without legal suffixes, current or former, its first words, or a curated alias (Google). A name that
-- fits no entity or several is an error naming them, never a guess.
CREATE OR REPLACE MACRO entity_key(x) AS
    CASE WHEN x IS NULL THEN NULL
         WHEN (SELECT entity_id FROM entity_aliases WHERE alias = upper(trim(x::VARCHAR))) IS NOT NULL
             THEN (SELECT entity_id FROM entity_aliases WHERE alias = upper(trim(x::VARCHAR)))
         ELSE (
    WITH given AS (
        SELECT text, words, regexp_replace(upper(text), '[./]', '-', 'g') AS code,
            core_key(words, (SELECT string_agg(key, '|') FROM entity_names WHERE kind = 'suffix')) AS core,
            regexp_extract(text, '^(?i:cik\s*:?\s*)?0*(\d{1,10})$', 1) AS cik
        FROM (SELECT trim(x::VARCHAR) AS text, filer_key(x) AS words)
    ), hits AS (
        -- the first kind of key that fits: a CIK (then nothing else), a code, the name, its core, an absent alias
        SELECT CASE WHEN n.kind = 'cik' THEN 1 WHEN n.kind = 'code' THEN 2 WHEN n.kind = 'absent' THEN 5
                    WHEN n.key = g.words THEN 3 ELSE 4 END AS tier, n.*
        FROM entity_names n, given g
        WHERE CASE WHEN g.cik <> '' THEN n.kind = 'cik' AND n.key = g.cik::BIGINT::VARCHAR
                   ELSE (n.kind = 'code' AND n.key = g.code) OR (n.kind = 'name' AND n.key IN (g.words, g.core))
                     OR (n.kind = 'absent' AND n.key = g.words) END
    ), best AS (
        SELECT * FROM hits QUALIFY tier = min(tier) OVER ()
    )
    SELECT CASE WHEN (SELECT text FROM given) = '' THEN error('unknown entity '''': the name is empty')
                WHEN count(*) = 0 THEN error('unknown entity ''' || (SELECT text FROM given) || ''''
                    || coalesce('; did you mean ' || (SELECT string_agg(label, ', ' ORDER BY s DESC) FROM (
                        SELECT label, max(jaro_winkler_similarity(n.key, g.words)) AS s
                        FROM entity_names n, given g WHERE n.kind = 'name' GROUP BY label
                        HAVING s >= 0.85 ORDER BY s DESC LIMIT 3)) || '?', '')
                    || ' (SELECT name, tickers FROM entities lists them)')
                WHEN count(DISTINCT label) > 1 THEN error('ambiguous: ''' || (SELECT text FROM given)
                    || ''' could be ' || string_agg(DISTINCT label, ', ' ORDER BY label))
                WHEN any_value(kind) = 'absent' THEN error('unknown entity ''' || (SELECT text FROM given)
                    || ''': ' || any_value(label) || ' is not in the store')
                WHEN any_value(entity_id) IS NULL
                    THEN error(any_value(label) || ' has documents but no facts in the store')
                ELSE any_value(entity_id) END
    FROM best) END;

-- The concepts a list of names stands for, in order, as store.resolve_concepts reads them: a qualified name is
-- itself; a lower-case name is a metric or alias (metric_concepts, its concepts in order) before a concept of that
-- name; a name with a capital letter is a concept of that name (any case; us-gaap, ifrs-full, dei, srt first). An
-- error for a name that is none of these.
CREATE OR REPLACE MACRO concept_keys(given) AS (
    WITH names AS (
        SELECT unnest(given) AS c, generate_subscripts(given, 1) AS pos
    ), candidates AS (
        SELECT c, c AS concept, 0 AS tier, 0 AS rank FROM names WHERE contains(c, ':')
        UNION ALL
        SELECT n.c, m.concept, 1, m.rank FROM names n
        JOIN metric_concepts m ON m.name = regexp_replace(lower(trim(n.c)), '[\s\-]+', '_', 'g')
        WHERE n.c = lower(n.c) AND NOT contains(n.c, ':')
        UNION ALL
        SELECT n.c, k.concept, 2, row_number() OVER (PARTITION BY n.c
            ORDER BY list_position(['us-gaap', 'ifrs-full', 'dei', 'srt'], k.taxonomy) NULLS LAST, k.concept)
        FROM names n JOIN concepts k ON lower(k.name) = lower(trim(n.c)) WHERE NOT contains(n.c, ':')
    ), found AS (
        SELECT n.pos, n.c, k.concept, k.rank FROM names n LEFT JOIN candidates k USING (c)
        QUALIFY k.tier IS NULL OR k.tier = min(k.tier) OVER (PARTITION BY n.pos)
    ), firsts AS (
        -- a concept named twice keeps its first place
        SELECT * FROM found QUALIFY concept IS NULL OR row_number() OVER (PARTITION BY concept ORDER BY pos, rank) = 1
    )
    SELECT CASE WHEN count(*) FILTER (concept IS NULL) = 0 THEN list(concept ORDER BY pos, rank)
        ELSE error('unknown concept or metric ''' || min(c) FILTER (concept IS NULL)
                   || ''' (a concept: us-gaap:Revenues or Revenues; a metric: revenue: data/metrics.csv)') END
    FROM firsts);

-- A list of concepts as a point lookup takes them: each qualified ('us-gaap:Revenues'); an error for a bare name.
CREATE OR REPLACE MACRO qualified_concepts(concepts) AS
    list_transform(concepts, lambda c: CASE WHEN contains(c, ':') THEN c
        ELSE error('concept ''' || c || ''': give it qualified, as us-gaap:' || c || ' (store.resolve_concepts)') END);

-- The one order of filings, stated once, for every reading (as of, first, latest, panels, histories): by acceptance
-- time, within one second an original before its amendment, then by accession.
CREATE OR REPLACE MACRO filing_order(accepted_at, form, filing_id) AS
    (accepted_at, coalesce(form LIKE '%/A', false), filing_id);

-- A value no filing could state: missing, not finite, or nonzero of a size outside [1e-12, 1e18).
CREATE OR REPLACE MACRO implausible_value(v) AS
    v IS NULL OR NOT isfinite(v) OR abs(v) >= 1e18 OR (v <> 0 AND abs(v) < 1e-12);

-- A period no filing could report (FSDS's bounds): a day outside 1900 to 2199, or a start after its end.
CREATE OR REPLACE MACRO impossible_period(s, e) AS
    e NOT BETWEEN DATE '1900-01-01' AND DATE '2199-12-31' OR s NOT BETWEEN DATE '1900-01-01' AND DATE '2199-12-31'
    OR s > e;

-- A mode as given, checked: 'as_of', 'first' or 'latest'; an error for any other (a typo never reads as 'as_of').
CREATE OR REPLACE MACRO mode_key(mode) AS
    CASE WHEN mode IN ('as_of', 'first', 'latest') THEN mode
         ELSE error('mode ''' || coalesce(mode::VARCHAR, 'NULL') || ''': give as_of, first or latest') END;

-- A periodic report: a 10-K, 10-Q, 20-F or 40-F (or a variant: 10-KT, 10-QT, 10-K405, 10-KSB, 10-QSB), or an amendment.
CREATE OR REPLACE MACRO is_periodic(form) AS
    regexp_full_match(upper(form), '(10-K|10-K405|10-KSB|10-KT|10-Q|10-QSB|10-QT|20-F|40-F)(/A)?');

-- A periodic report accepted (New York time) on or before its period's last day: impossible, so a wrong time or period.
CREATE OR REPLACE MACRO accepted_before_period(form, period_end, accepted_at) AS
    is_periodic(form) AND timezone('America/New_York', timezone('UTC', accepted_at::TIMESTAMP))::DATE
        <= period_end::DATE;

-- Length class of a period, by days with tolerance: instant, quarter, half, nine_months, year or other.
CREATE OR REPLACE MACRO duration_class(s, e) AS
    CASE WHEN s IS NULL THEN 'instant'
         WHEN date_diff('day', s, e) + 1 BETWEEN 80 AND 105 THEN 'quarter'
         WHEN date_diff('day', s, e) + 1 BETWEEN 170 AND 195 THEN 'half'
         WHEN date_diff('day', s, e) + 1 BETWEEN 260 AND 290 THEN 'nine_months'
         WHEN date_diff('day', s, e) + 1 BETWEEN 350 AND 380 THEN 'year'
         ELSE 'other' END;

-- Fiscal year number of a year ending on e: a year ending in the first week of January counts as the year before.
CREATE OR REPLACE MACRO fiscal_year_of(e) AS
    year(e) - CASE WHEN month(e) = 1 AND day(e) <= 7 THEN 1 ELSE 0 END;

-- Whether values in this unit add up over time (money does; per-share values, share counts and ratios do not).
CREATE OR REPLACE MACRO is_additive_unit(u) AS
    u NOT LIKE '%/%' AND lower(u) NOT IN ('shares', 'pure');

-- Whether a change from old to new is a restatement rather than rounding (half a percent or more).
CREATE OR REPLACE MACRO is_restatement(old, new) AS
    abs(new - old) >= 0.005 * abs(old) AND new <> old;

-- Each fact's value as known at as_of ('as_of'), as first reported ('first') or newest ('latest'), with its filing
-- (entity an entity_id: facts_asof, at the end, reads any name).
CREATE OR REPLACE MACRO facts_asof_by_id(as_of, mode := 'as_of', concepts := NULL, entity := NULL) AS TABLE
WITH wanted AS MATERIALIZED (
    -- the concepts as qualified keys (a metric's in its order) and the mode, read and checked once
    SELECT CASE WHEN concepts IS NOT NULL THEN concept_keys(concepts) END AS keys, mode_key(mode) AS mode
), versions AS (
    SELECT r.*, list_position(w.keys, r.concept) AS rank FROM reports r, wanted w
    WHERE w.mode IS NOT NULL AND r.entity_id = coalesce(entity, r.entity_id)
      AND (concepts IS NULL OR list_contains(w.keys, r.concept))
      AND (mode = 'latest' OR as_of IS NULL OR r.accepted_at <= as_of::TIMESTAMP)
), keyed AS (
    SELECT entity_id, concept, unit, period_start, period_end, any_value(rank) AS rank,
        CASE WHEN mode = 'first'
            THEN arg_min({'value': value, 'filing_id': filing_id, 'form': form, 'accepted_at': accepted_at},
                         filing_order(accepted_at, form, filing_id))
            ELSE arg_max({'value': value, 'filing_id': filing_id, 'form': form, 'accepted_at': accepted_at},
                         filing_order(accepted_at, form, filing_id))
        END AS v,
        arg_min(value, filing_order(accepted_at, form, filing_id)) AS first_value,
        count(*) AS n_versions
    FROM versions
    GROUP BY entity_id, concept, unit, period_start, period_end
)
SELECT entity_id,
    CASE WHEN concepts IS NULL THEN concept ELSE concepts[1] END AS item,
    concept, unit, period_start, period_end,
    v.value AS value, v.filing_id AS filing_id, v.form AS form, v.accepted_at AS accepted_at,
    first_value, is_restatement(first_value, v.value) AS restated, n_versions
FROM keyed
-- Of a line item's concepts with a figure for the period, the one of the newest filing (as first reported: the first
-- filing), and within one filing the first in the list: a company that re-tags a restated comparative is read
-- from the restatement on. (This order is also fact_lookup's, panel_asof's and facts()'s.)
-- (without a list each concept is its own item, so nothing to choose: as a constant, the optimizer drops the window)
QUALIFY concepts IS NULL OR row_number() OVER (
    PARTITION BY entity_id, item, unit, period_start, period_end
    ORDER BY CASE WHEN mode = 'first' THEN filing_order(v.accepted_at, v.form, v.filing_id) END,
             filing_order(v.accepted_at, v.form, v.filing_id) DESC, rank) = 1;

-- Each entity's fiscal years (number, start, end), learned from the annual periods (or, lacking them, the
-- year-to-date starts) reported by as_of (an entity with none by then, e.g. before its first 10-K, uses all
-- it ever reported: a calendar, not a value); missing years and one year on each side are extrapolated (entity an
-- entity_id: fiscal_years reads any name).
CREATE OR REPLACE MACRO fiscal_years_by_id(as_of, entity := NULL) AS TABLE
WITH periods AS (
    SELECT *, as_of IS NULL OR first_accepted_at <= as_of::TIMESTAMP AS visible
    FROM entity_periods
    WHERE entity_id = coalesce(entity, entity_id)
      AND duration_class(period_start, period_end) IN ('year', 'half', 'nine_months')
    -- (the years filings declare, of no reports, only for an entity that reported none of these periods)
    QUALIFY reports > 0 OR NOT bool_or(reports > 0) OVER (PARTITION BY entity_id)
), candidates AS (
    SELECT entity_id, period_start AS fy_start,
        CASE WHEN duration_class(period_start, period_end) = 'year' THEN period_end
             ELSE (period_start + INTERVAL 1 YEAR - INTERVAL 1 DAY)::DATE END AS fy_end,
        duration_class(period_start, period_end) = 'year' AS annual, reports
    FROM periods
    QUALIFY visible OR NOT bool_or(visible) OVER (PARTITION BY entity_id)
), counted AS (
    SELECT entity_id, fy_start, fy_end, fiscal_year_of(fy_end) AS fiscal_year,
        bool_or(annual) AS annual, sum(reports) AS n
    FROM candidates GROUP BY entity_id, fy_start, fy_end
), known AS (
    SELECT entity_id, fiscal_year, fy_start, fy_end FROM counted
    QUALIFY row_number() OVER (PARTITION BY entity_id, fiscal_year
                               ORDER BY annual DESC, n DESC, fy_end DESC, fy_start) = 1
), span AS (
    SELECT entity_id, unnest(range(min(fiscal_year) - 1, max(fiscal_year) + 2)) AS fiscal_year
    FROM known GROUP BY entity_id
), filled AS (
    SELECT s.entity_id, s.fiscal_year, k.fy_start, k.fy_end,
        last_value(k.fiscal_year IGNORE NULLS) OVER before AS prev_year,
        last_value(k.fy_end IGNORE NULLS) OVER before AS prev_end,
        first_value(k.fiscal_year IGNORE NULLS) OVER after AS next_year,
        first_value(k.fy_start IGNORE NULLS) OVER after AS next_start
    FROM span s LEFT JOIN known k USING (entity_id, fiscal_year)
    WINDOW before AS (PARTITION BY s.entity_id ORDER BY s.fiscal_year
                      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW),
           after AS (PARTITION BY s.entity_id ORDER BY s.fiscal_year
                     ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)
)
SELECT entity_id, fiscal_year,
    coalesce(fy_start,
        CASE WHEN prev_end IS NOT NULL
             THEN (prev_end + to_years(fiscal_year - prev_year - 1) + INTERVAL 1 DAY)::DATE
             ELSE (next_start - to_years(next_year - fiscal_year))::DATE END) AS fy_start,
    coalesce(fy_end,
        CASE WHEN prev_end IS NOT NULL
             THEN (prev_end + to_years(fiscal_year - prev_year))::DATE
             ELSE (next_start - to_years(next_year - fiscal_year - 1) - INTERVAL 1 DAY)::DATE END) AS fy_end,
    fy_start IS NULL AS extrapolated
FROM filled;

-- facts_asof with each period placed on the entity's fiscal calendar: FY2019, 2019H1, 2019M9, 2019Q1..2019Q4
-- (3-month periods, and instants at quarter ends); NULL fiscal_period for periods that fit no slot (entity an
-- entity_id: fiscal_facts reads any name).
CREATE OR REPLACE MACRO fiscal_facts_by_id(as_of, mode := 'as_of', concepts := NULL, entity := NULL) AS TABLE
WITH f AS (
    SELECT *, duration_class(period_start, period_end) AS kind
    FROM facts_asof_by_id(as_of, mode := mode, concepts := concepts, entity := entity)
), fy AS (
    SELECT *, (fy_end + INTERVAL 7 DAY)::DATE AS fy_reach
    FROM fiscal_years_by_id(CASE WHEN mode = 'latest' THEN NULL ELSE as_of::TIMESTAMP END, entity := entity)
), placed AS (
    SELECT f.*, fy.fiscal_year, fy.fy_start, fy.fy_end,
        date_diff('day', fy.fy_start, f.period_end) + 1 AS days_in,
        round((date_diff('day', fy.fy_start, f.period_end) + 1) / 91.31)::INTEGER AS fq
    FROM f ASOF JOIN fy ON f.entity_id = fy.entity_id AND f.period_end <= fy.fy_reach
), labelled AS (
    SELECT * EXCLUDE (days_in),
        CASE
            WHEN kind IN ('year', 'nine_months', 'half')
                 AND abs(date_diff('day', fy_start, period_start)) > 7 THEN NULL
            WHEN kind = 'year' THEN 'FY' || fiscal_year
            WHEN kind = 'nine_months' THEN fiscal_year || 'M9'
            WHEN kind = 'half' THEN fiscal_year || 'H1'
            WHEN kind IN ('quarter', 'instant') AND fq BETWEEN 1 AND 4 AND abs(days_in - fq * 91.31) <= 10
                THEN fiscal_year || 'Q' || fq
        END AS fiscal_period
    FROM placed
)
-- a label names one figure of each kind, so a lookup by label has one answer: among year-to-date figures the one
-- starting closest to the fiscal year, among balances at a year's end the one closest to it (Tesla's 10-Q gives its
-- deficit at 2020-12-31 and, restated by a new standard, at 2021-01-01: the year's is the first), then the latest
-- ending (as quarters_asof takes them); the rest get none
SELECT * REPLACE (CASE WHEN row_number() OVER (
        PARTITION BY entity_id, item, unit, kind, fiscal_period
        ORDER BY CASE WHEN kind IN ('year', 'nine_months', 'half') THEN abs(date_diff('day', fy_start, period_start))
                      WHEN kind = 'instant' AND fq = 4 THEN abs(date_diff('day', fy_end, period_end))
                 END, period_end DESC, period_start DESC) = 1 THEN fiscal_period END AS fiscal_period)
FROM labelled;


-- A reported figure p as a quarter result: its own value and period, with itself as the only part.
CREATE OR REPLACE MACRO reported_quarter(p) AS
    CASE WHEN p IS NOT NULL THEN {'value': p.value, 'period_start': p.period_start,
        'period_end': p.period_end, 'formula': NULL::VARCHAR, 'parts': [p]} END;

-- A derived quarter result: value from formula over parts, for the period start..end.
CREATE OR REPLACE MACRO derived_quarter(value, s, e, formula, parts) AS
    {'value': value, 'period_start': s::DATE, 'period_end': e::DATE, 'formula': formula, 'parts': parts};

-- The discrete fiscal quarters known at as_of: reported 3-month figures win; else Q2 = H1 - Q1, Q3 = 9M - H1,
-- Q4 = FY - 9M (same start) or FY - (Q1 + Q2 + Q3); instants at quarter ends as reported. A derived value
-- is known once all its parts are, carries its formula and parts, a warning when it mixes restated and
-- first-reported parts, and a note (value NULL) when a quarter cannot be derived (entity an entity_id:
-- quarters_asof reads any name).
CREATE OR REPLACE MACRO quarters_asof_by_id(as_of, mode := 'as_of', concepts := NULL, entity := NULL) AS TABLE
WITH f AS (
    SELECT *, {'concept': concept, 'fiscal_period': fiscal_period, 'period_start': period_start,
               'period_end': period_end, 'value': value, 'filing_id': filing_id, 'form': form,
               'accepted_at': accepted_at, 'restated': restated} AS part,
        -- its slot in the year: 1-4 the quarters, 5-8 instants at their ends, 9 H1, 10 9M, 11 FY
        CASE kind WHEN 'quarter' THEN fq WHEN 'instant' THEN 4 + fq WHEN 'half' THEN 9 WHEN 'nine_months' THEN 10
                  ELSE 11 END AS slot
    FROM fiscal_facts_by_id(as_of, mode := mode, concepts := concepts, entity := entity)
    WHERE fiscal_period IS NOT NULL
), years AS (
    -- a fiscal label names one figure of each kind, so each slot holds at most one part: a pivot by aggregation
    -- (eleven self-joins of f took longer to plan than to run: 0.13 s a lookup, against 0.09 s; one list of the
    -- year's parts, not eleven FILTERed any_value of them: a panel 16.0 s -> 13.3 s)
    SELECT entity_id, item, unit, fiscal_year, bool_and(kind = 'instant') AS instant,
        is_additive_unit(unit) AS additive, list(part) AS figures, list(slot) AS slots
    FROM f GROUP BY entity_id, item, unit, fiscal_year
), slotted AS (
    SELECT * EXCLUDE (figures, slots),
        figures[list_position(slots, 1)] AS q1, figures[list_position(slots, 2)] AS q2,
        figures[list_position(slots, 3)] AS q3, figures[list_position(slots, 4)] AS q4,
        figures[list_position(slots, 5)] AS i1, figures[list_position(slots, 6)] AS i2,
        figures[list_position(slots, 7)] AS i3, figures[list_position(slots, 8)] AS i4,
        figures[list_position(slots, 9)] AS h1, figures[list_position(slots, 10)] AS m9,
        figures[list_position(slots, 11)] AS fy
    FROM years
), first_half AS (
    SELECT *,
        CASE WHEN instant THEN reported_quarter(i1) ELSE reported_quarter(q1) END AS r1,
        CASE WHEN instant THEN reported_quarter(i2)
             WHEN q2 IS NOT NULL THEN reported_quarter(q2)
             WHEN additive AND h1.period_start = q1.period_start
                 THEN derived_quarter(h1.value - q1.value, q1.period_end + 1, h1.period_end,
                                      'H1 - Q1', [h1, q1])
        END AS r2,
        CASE WHEN instant OR q1 IS NOT NULL THEN NULL
             ELSE 'not reported: no 3-month figure for Q1' END AS n1,
        CASE WHEN instant OR q2 IS NOT NULL THEN NULL
             WHEN NOT additive THEN 'not derivable: ' || unit || ' values do not add up'
             WHEN h1 IS NULL THEN 'not derivable: no 3-month or 6-month figure for Q2'
             WHEN q1 IS NULL OR h1.period_start <> q1.period_start
                 THEN 'not derivable: no Q1 figure with the same start as the 6-month figure'
        END AS n2
    FROM slotted
), third AS (
    SELECT *,
        CASE WHEN instant THEN reported_quarter(i3)
             WHEN q3 IS NOT NULL THEN reported_quarter(q3)
             WHEN additive AND m9.period_start = h1.period_start
                 THEN derived_quarter(m9.value - h1.value, h1.period_end + 1, m9.period_end,
                                      '9M - H1', [m9, h1])
        END AS r3,
        CASE WHEN instant OR q3 IS NOT NULL THEN NULL
             WHEN NOT additive THEN 'not derivable: ' || unit || ' values do not add up'
             WHEN m9 IS NULL THEN 'not derivable: no 3-month or 9-month figure for Q3'
             WHEN h1 IS NULL OR m9.period_start <> h1.period_start
                 THEN 'not derivable: no 6-month figure with the same start as the 9-month figure'
        END AS n3
    FROM first_half
), fourth AS (
    SELECT *,
        CASE WHEN instant THEN reported_quarter(i4)
             WHEN q4 IS NOT NULL THEN reported_quarter(q4)
             WHEN NOT additive OR fy IS NULL THEN NULL
             WHEN m9.period_start = fy.period_start
                 THEN derived_quarter(fy.value - m9.value, m9.period_end + 1, fy.period_end,
                                      'FY - 9M', [fy, m9])
             WHEN q1.period_start = fy.period_start AND r2 IS NOT NULL AND r3 IS NOT NULL
                 THEN derived_quarter(fy.value - r1.value - r2.value - r3.value, r3.period_end + 1,
                                      fy.period_end, 'FY - (Q1 + Q2 + Q3)',
                                      list_concat([fy], r1.parts, r2.parts, r3.parts))
        END AS r4,
        CASE WHEN instant OR q4 IS NOT NULL THEN NULL
             WHEN NOT additive THEN 'not derivable: ' || unit || ' values do not add up'
             WHEN fy IS NULL THEN 'not derivable: no annual figure'
             WHEN coalesce(m9.period_start = fy.period_start, false) THEN NULL
             WHEN NOT coalesce(q1.period_start = fy.period_start AND r2 IS NOT NULL AND r3 IS NOT NULL,
                               false)
                 THEN 'not derivable: no 9-month figure with the same start as the year, '
                      || 'and Q1 to Q3 not all known'
        END AS n4
    FROM third
), quarters AS (
    -- (unnest in the select list: a lateral unnest in FROM becomes a far slower join with the rows it came from)
    SELECT entity_id, item, unit, fiscal_year, u.fiscal_quarter, u.r, u.note
    FROM (SELECT entity_id, item, unit, fiscal_year,
              unnest([{'fiscal_quarter': 1, 'r': r1, 'note': n1}, {'fiscal_quarter': 2, 'r': r2, 'note': n2},
                      {'fiscal_quarter': 3, 'r': r3, 'note': n3}, {'fiscal_quarter': 4, 'r': r4, 'note': n4}]) AS u
          FROM fourth)
    WHERE u.r IS NOT NULL OR u.note IS NOT NULL
), known AS (
    SELECT *, list_max(list_transform(r.parts, lambda p: p.accepted_at)) AS known_at
    FROM quarters
)
SELECT entity_id,
    -- the concept the figures were reported under, or the line item's first concept when they differ
    CASE WHEN len(list_distinct(list_transform(r.parts, lambda p: p.concept))) = 1
         THEN r.parts[1].concept ELSE item END AS concept,
    item, unit, fiscal_year, fiscal_quarter,
    fiscal_year || 'Q' || fiscal_quarter AS fiscal_period,
    r.period_start AS period_start, r.period_end AS period_end, r.value AS value,
    r.formula IS NOT NULL AS derived, r.formula AS formula, known_at AS accepted_at,
    list_filter(r.parts, lambda p: p.accepted_at = known_at)[1].filing_id AS filing_id,
    list_filter(r.parts, lambda p: p.accepted_at = known_at)[1].form AS form,
    CASE WHEN r.formula IS NOT NULL
              AND list_bool_or(list_transform(r.parts, lambda p: p.restated))
              AND NOT list_bool_and(list_transform(r.parts, lambda p: p.restated))
         THEN ['mixed basis: '
               || array_to_string(list_transform(list_filter(r.parts, lambda p: p.restated),
                                                 lambda p: p.fiscal_period), ', ')
               || ' restated since first reported, '
               || array_to_string(list_transform(list_filter(r.parts, lambda p: NOT p.restated),
                                                 lambda p: p.fiscal_period), ', ')
               || ' as first reported']
         ELSE []::VARCHAR[] END AS warnings,
    r.parts AS parts, note
FROM known;

-- A batch of questions (a table with question_no, entity, concept, period_start, period_end, as_of) answered
-- at once: each question's fact as known at its own as_of (or first/latest), one row per answered question. The
-- entity is an entity_id (lookup_asof, at the end, reads any name); a name that is no concept (neither qualified nor
-- a stored us-gaap name) is an error (a metric is a list of concepts: store.facts reads it).
CREATE OR REPLACE MACRO lookup_asof_by_id(questions, mode := 'as_of') AS TABLE
WITH q AS (
    SELECT q.question_no, q.entity_id,
        CASE WHEN c.concept IS NOT NULL THEN c.concept WHEN contains(q.concept, ':') THEN q.concept
             ELSE error('lookup_asof: ''' || q.concept || ''' is no concept of the store (a metric: store.facts, '
                        || 'or concept_keys([''' || q.concept || ''']) for its concepts)') END AS concept,
        q.period_start, q.period_end, q.as_of
    FROM (SELECT question_no, entity AS entity_id, concept, period_start::DATE AS period_start,
              period_end::DATE AS period_end, as_of::TIMESTAMP AS as_of FROM query_table(questions)) q
    LEFT JOIN concepts c ON c.concept = q.concept OR (c.name = q.concept AND c.taxonomy = 'us-gaap')
)
SELECT q.question_no, r.unit,
    CASE WHEN mode = 'first'
        THEN arg_min({'value': r.value, 'filing_id': r.filing_id, 'form': r.form, 'accepted_at': r.accepted_at},
                     filing_order(r.accepted_at, r.form, r.filing_id))
        ELSE arg_max({'value': r.value, 'filing_id': r.filing_id, 'form': r.form, 'accepted_at': r.accepted_at},
                     filing_order(r.accepted_at, r.form, r.filing_id))
    END AS v
FROM q JOIN reports r
  ON r.entity_id = q.entity_id AND r.concept = q.concept AND r.period_end = q.period_end
 AND r.period_start IS NOT DISTINCT FROM q.period_start
 AND (mode_key(mode) = 'latest' OR q.as_of IS NULL OR r.accepted_at <= q.as_of)
GROUP BY q.question_no, r.unit;

-- Of the reports of one figure under a line item's concepts (structs with concept, value, filing_id, form and
-- accepted_at, in order of acceptance and filing), the one that first gave p (the figure as known at p.accepted_at,
-- under p.concept) its current value: the earliest, up to p's own, of the same value (up to rounding under p's
-- concept, exactly under another: a net income beside its owners' share is no rounding of it) after the last report
-- of p's concept that restated it. A later filing repeating the value does not move it; a restatement does.
CREATE OR REPLACE MACRO first_report(reports, p) AS
    list_filter(reports, lambda rep: rep.accepted_at <= p.accepted_at
        AND (rep.value = p.value OR rep.concept = p.concept AND NOT is_restatement(rep.value, p.value))
        AND rep.accepted_at > coalesce(list_filter(reports, lambda chg: chg.accepted_at <= p.accepted_at
            AND chg.concept = p.concept AND is_restatement(chg.value, p.value))[-1].accepted_at, '-infinity'::TIMESTAMP)
    )[1];

-- For figures of one entity (a list of {concept, unit, period_start, period_end, value, accepted_at}: each a value
-- as known at some moment), the report that first gave each its current value (first_report over the reports of
-- the figure's period and unit under its own concept or any of `concepts`). One row per figure (part_no, 1-based)
-- with `first`.
CREATE OR REPLACE MACRO first_filings(parts, concepts := NULL, entity := NULL) AS TABLE
WITH wanted AS (
    SELECT unnest(range(1, len(parts) + 1)) AS part_no, unnest(parts) AS p
), found AS (
    SELECT w.part_no, first_report(list({'concept': r.concept, 'value': r.value, 'filing_id': r.filing_id,
        'form': r.form, 'accepted_at': r.accepted_at} ORDER BY filing_order(r.accepted_at, r.form, r.filing_id)),
        any_value(w.p)) AS first
    FROM wanted w JOIN reports r
      ON r.entity_id = entity AND r.unit = w.p.unit AND r.period_end = w.p.period_end
     AND r.period_start IS NOT DISTINCT FROM w.p.period_start
     AND (r.concept = w.p.concept OR list_contains(coalesce(concepts, []), r.concept))
    GROUP BY w.part_no
)
SELECT * FROM found WHERE first IS NOT NULL;

-- One fact of an entity (its entity_id) for exact dates (fact_start NULL for an instant), one row per unit: the value
-- known at as_of (or as first reported, or newest) under `concepts` (qualified; facts_asof's order), with
-- its filing and `first`, the report that first gave it that value (first_report). The single lookup behind
-- store.fact, which passes keys it has resolved (as constants the filter is fast). `derivable`: no figure for these
-- dates, but one of a longer period ending on fact_end is known (quarters_asof may derive a quarter from it).
CREATE OR REPLACE MACRO fact_lookup(entity, concepts, fact_start, fact_end, as_of := NULL, mode := 'as_of') AS TABLE
SELECT v.concept AS concept, unit, fact_start::DATE AS period_start, fact_end::DATE AS period_end, v.value AS value,
    v.filing_id AS filing_id, v.form AS form, v.accepted_at AS accepted_at, first_report(reports, v) AS first,
    v IS NULL AND derivable AS derivable
-- (subqueries, not CTEs, no window, one statement, and few expressions: a point lookup's time goes to binding them)
FROM (SELECT unit,
          -- (facts_asof's order: the newest filing, or the first, then the first concept in the list)
          CASE WHEN mode = 'first' THEN arg_min(r, (filing_order(r.accepted_at, r.form, r.filing_id), rank))
                   FILTER (exact)
               ELSE arg_max(r, (filing_order(r.accepted_at, r.form, r.filing_id), -rank)) FILTER (exact) END AS v,
          list(r ORDER BY filing_order(r.accepted_at, r.form, r.filing_id)) FILTER (exact) AS reports,
          bool_or(NOT exact) AS derivable
      FROM (SELECT unit, list_position(concepts, concept) AS rank,
                {'accepted_at': accepted_at, 'filing_id': filing_id, 'concept': concept, 'value': value, 'form': form}
                    AS r,
                period_start IS NOT DISTINCT FROM fact_start AS exact
            FROM reports
            -- (list_position, not list_contains: the optimizer makes no join of it)
            WHERE entity_id = entity AND list_position(concepts, concept) IS NOT NULL AND period_end = fact_end
              AND (period_start IS NOT DISTINCT FROM fact_start OR period_start < fact_start)
              AND (as_of IS NULL OR mode = 'latest' OR accepted_at <= as_of::TIMESTAMP))
      GROUP BY unit)
WHERE v IS NOT NULL OR derivable;

-- fact_lookup for analysts: the entity as entity_key reads it (ticker, CIK, name); an entity or a concept that is no
-- key is an error, never an empty answer (store.resolve_concepts gives a metric's concepts).
CREATE OR REPLACE MACRO fact_asof(entity, concepts, fact_start, fact_end, as_of := NULL, mode := 'as_of') AS TABLE
SELECT * FROM fact_lookup(entity_key(entity), qualified_concepts(concepts), fact_start, fact_end, as_of := as_of,
                          mode := mode)
UNION ALL
SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
WHERE mode_key(mode) IS NULL OR entity_key(entity) IS NULL;  -- (read even where nothing is stored)


-- The currency each entity reports in: the ISO currency unit most of its monetary facts are given in (a foreign
-- filer's USD convenience translations cover only some lines of some years; a tie goes to the first by name).
CREATE OR REPLACE MACRO reporting_currencies() AS TABLE
SELECT entity_id, unit AS currency FROM reports WHERE regexp_full_match(unit, '[A-Z]{3}')
GROUP BY entity_id, unit
QUALIFY row_number() OVER (PARTITION BY entity_id ORDER BY count(*) DESC, unit) = 1;

-- A unit's place among one figure's units, to order by: the entity's reporting currency (`currency`; a per-share
-- unit by its currency) first, then USD, then the others by name. A convenience translation never comes first.
CREATE OR REPLACE MACRO unit_rank(unit, currency) AS
    {'translated': split_part(unit, '/', 1) IS DISTINCT FROM currency, 'not_usd': unit <> 'USD', 'unit': unit};

-- The currency an entity reports in (reporting_currencies), the entity as entity_key reads it (ticker, CIK, name).
CREATE OR REPLACE MACRO reporting_currency(entity) AS (
    SELECT currency FROM reporting_currencies() WHERE entity_id = entity_key(entity));

-- The coarsest of acceptance precisions (a list of 'second', 'minute' and 'date'): what rests on a time known to the
-- day (a filing day's fallback, end of day New York) is known to the day only.
CREATE OR REPLACE MACRO coarsest_precision(precisions) AS
    CASE WHEN list_contains(precisions, 'date') THEN 'date' WHEN list_contains(precisions, 'minute') THEN 'minute'
         WHEN list_contains(precisions, 'second') THEN 'second' END;

-- Each quarter known at as_of with its trailing twelve months: the sum of it and the three quarters before when
-- they are consecutive fiscal quarters of a duration in a unit that adds up (a balance: its own value; a figure per
-- share or a share count: NULL, a sum of quarters' EPS is not the twelve months'), known once all four are, from
-- the filing of the one known last.
CREATE OR REPLACE MACRO trailing_quarters_by_id(as_of, mode := 'as_of', concepts := NULL, entity := NULL) AS TABLE
SELECT * EXCLUDE (value, period_start, accepted_at, filing_id, form, consecutive, sum4, start4, known4, newest4),
    CASE WHEN period_start IS NULL THEN value WHEN consecutive THEN sum4 END AS value,
    CASE WHEN period_start IS NOT NULL AND consecutive THEN start4 END AS period_start,
    CASE WHEN period_start IS NULL THEN accepted_at ELSE known4 END AS accepted_at,
    CASE WHEN period_start IS NULL THEN filing_id ELSE newest4.filing_id END AS filing_id,
    CASE WHEN period_start IS NULL THEN form ELSE newest4.form END AS form
FROM (SELECT *,
          fiscal_year * 4 + fiscal_quarter - lag(fiscal_year * 4 + fiscal_quarter, 3) OVER last4 = 3
              AND count(period_start) OVER last4 = 4 AND is_additive_unit(unit) AS consecutive,
          sum(value) OVER last4 AS sum4, min(period_start) OVER last4 AS start4, max(accepted_at) OVER last4 AS known4,
          arg_max({'filing_id': filing_id, 'form': form}, filing_order(accepted_at, form, filing_id)) OVER last4
              AS newest4
      FROM quarters_asof_by_id(as_of, mode := mode, concepts := concepts, entity := entity)
      WHERE value IS NOT NULL
      WINDOW last4 AS (PARTITION BY entity_id, item, unit ORDER BY period_end ROWS 3 PRECEDING));

-- The analysts' macros: the six above with the entity as entity_key reads it (an id, ticker, CIK or name; one it
-- cannot read is an error). The API passes entity_ids to the _by_id ones: binding entity_key costs ~6 ms a query.

-- facts_asof_by_id, the entity as entity_key reads it.
CREATE OR REPLACE MACRO facts_asof(as_of, mode := 'as_of', concepts := NULL, entity := NULL) AS TABLE
SELECT * FROM facts_asof_by_id(as_of, mode := mode, concepts := concepts, entity := entity_key(entity));

-- fiscal_years_by_id, the entity as entity_key reads it.
CREATE OR REPLACE MACRO fiscal_years(as_of, entity := NULL) AS TABLE
SELECT * FROM fiscal_years_by_id(as_of, entity := entity_key(entity));

-- fiscal_facts_by_id, the entity as entity_key reads it.
CREATE OR REPLACE MACRO fiscal_facts(as_of, mode := 'as_of', concepts := NULL, entity := NULL) AS TABLE
SELECT * FROM fiscal_facts_by_id(as_of, mode := mode, concepts := concepts, entity := entity_key(entity));

-- quarters_asof_by_id, the entity as entity_key reads it.
CREATE OR REPLACE MACRO quarters_asof(as_of, mode := 'as_of', concepts := NULL, entity := NULL) AS TABLE
SELECT * FROM quarters_asof_by_id(as_of, mode := mode, concepts := concepts, entity := entity_key(entity));

-- trailing_quarters_by_id, the entity as entity_key reads it.
CREATE OR REPLACE MACRO trailing_quarters(as_of, mode := 'as_of', concepts := NULL, entity := NULL) AS TABLE
SELECT * FROM trailing_quarters_by_id(as_of, mode := mode, concepts := concepts, entity := entity_key(entity));

-- lookup_asof_by_id, each question's entity as entity_key reads it (one it cannot read is an error).
CREATE OR REPLACE MACRO lookup_asof(questions, mode := 'as_of') AS TABLE
WITH _lookup_questions AS (SELECT * REPLACE (entity_key(entity) AS entity) FROM query_table(questions))
SELECT * FROM lookup_asof_by_id('_lookup_questions', mode := mode);

-- exact_periods: the periods an entity's filings are known to cover to the day, for placing FSDS's month ends
-- (fsds_periods): its calendar (durations with reports, instants) and, with filing_id, the entity's filings' own
-- periods with how many facts each reports at it; a period FSDS gave only approximately is not one, whatever load
-- came first
CREATE OR REPLACE MACRO exact_periods(entity_ids, filing_ids) AS TABLE
SELECT * FROM (
    SELECT entity_id, NULL::VARCHAR AS filing_id, period_start, period_end, reports AS n_facts FROM entity_periods
    WHERE entity_id IN (SELECT unnest(entity_ids)) AND reports > 0
    UNION ALL
    SELECT entity_id, NULL, NULL::DATE, period_end, count(*) FROM reports
    WHERE entity_id IN (SELECT unnest(entity_ids)) AND period_start IS NULL GROUP BY ALL
    UNION ALL
    SELECT entity_id, filing_id, period_start, period_end, count(*) FROM reports
    WHERE filing_id IN (SELECT unnest(filing_ids)) GROUP BY ALL) k
WHERE NOT EXISTS (SELECT 1 FROM approximate_periods a WHERE a.entity_id = k.entity_id
    AND a.period_end = k.period_end AND a.period_start IS NOT DISTINCT FROM k.period_start);
