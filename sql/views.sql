-- factstore views for analysts: paste into `duckdb -readonly store.duckdb`. Applied after macros.sql.

-- Every report of every fact, with who filed it, the form and when it became public.
CREATE OR REPLACE VIEW all_reports AS
SELECT r.entity_id, e.name, e.tickers, r.concept, r.unit, r.period_start, r.period_end,
    duration_class(r.period_start, r.period_end) AS kind, r.value, r.filing_id, r.form,
    r.accepted_at, f.accepted_precision, f.filed
FROM reports r
JOIN filings f USING (filing_id)
LEFT JOIN entities e ON e.entity_id = r.entity_id;

-- Every value each filing has given a fact: as loaded (revised_at NULL), then as the SEC later edited it in
-- place (revised_at: when this store learned it; see the revisions table). As-of answers read only the first.
CREATE OR REPLACE VIEW report_versions AS
SELECT *, NULL::TIMESTAMP AS revised_at FROM all_reports
UNION ALL BY NAME
SELECT v.entity_id, e.name, e.tickers, v.concept, v.unit, v.period_start, v.period_end,
    duration_class(v.period_start, v.period_end) AS kind, v.value, v.filing_id, f.form, f.accepted_at,
    f.accepted_precision, f.filed, v.learned_at AS revised_at
FROM revisions v
JOIN filings f USING (filing_id)
LEFT JOIN entities e ON e.entity_id = v.entity_id;

-- Each fact's newest value (research only: it knows the future).
CREATE OR REPLACE VIEW latest_facts AS
SELECT * FROM facts_asof_by_id(NULL, mode := 'latest');

-- Each fact as first reported.
CREATE OR REPLACE VIEW first_reported AS
SELECT * FROM facts_asof_by_id(NULL, mode := 'first');

-- Discrete fiscal quarters on the newest data, derived ones (Q4 = FY - 9M...) flagged with their formula.
CREATE OR REPLACE VIEW discrete_quarters AS
SELECT * EXCLUDE (parts) FROM quarters_asof_by_id(NULL, mode := 'latest') WHERE value IS NOT NULL;

-- Each entity's fiscal calendar as learned from everything loaded.
CREATE OR REPLACE VIEW fiscal_calendar AS
SELECT * FROM fiscal_years_by_id(NULL);

-- Every change of a fact's value at or above rounding level: old value, new value, when and by which filing.
CREATE OR REPLACE VIEW restatements AS
WITH ordered AS (
    SELECT entity_id, concept, unit, period_start, period_end, value AS new_value, filing_id AS new_filing_id,
        form AS new_form, accepted_at AS restated_at,
        lag(value) OVER w AS old_value, lag(filing_id) OVER w AS old_filing_id,
        lag(accepted_at) OVER w AS old_accepted_at
    FROM reports
    WINDOW w AS (PARTITION BY entity_id, concept, unit, period_start, period_end
                 ORDER BY filing_order(accepted_at, form, filing_id))
)
SELECT entity_id, concept, unit, period_start, period_end, old_value, new_value,
    (new_value - old_value) / nullif(abs(old_value), 0) AS relative_change,
    restated_at, new_filing_id, new_form, old_filing_id, old_accepted_at
FROM ordered
WHERE old_value IS NOT NULL AND is_restatement(old_value, new_value);

-- fact_occurrences: where XBRL figures are printed in their filings' stored text, one row per tagged occurrence (the
-- fact's own ix:nonFraction and the copies that agree with it), `shown` being text[start_char:end_char], of the
-- figures of a filing, concept key ('concept|Axis=Member'), unit and period given (NULL: any); occurrence 1 is the
-- primary statement's (a table of the financial statements' Item: 8 of a 10-K, Part I Item 1 of a 10-Q), then other
-- tables, then text, each in document order. The figures are chosen before their occurrences are ranked.
CREATE OR REPLACE MACRO fact_occurrences(filing, concept_key, unit_name, period_from, period_to) AS TABLE
WITH occurrences AS (
    SELECT filing_id, entity_id, fact_id, concept, dims, period_start, period_end, unit, value, decimals,
        accepted_at, unnest(list_prepend(fact_id, coalesce(copies, []::VARCHAR[]))) AS element_id
    FROM xbrl_facts WHERE numeric AND fact_id IS NOT NULL
        AND (filing IS NULL OR filing_id = filing)
        AND (concept_key IS NULL OR (concept = split_part(concept_key, '|', 1)
             AND dims IS NOT DISTINCT FROM nullif(split_part(concept_key, '|', 2), '')))
        AND (unit_name IS NULL OR unit = unit_name)
        AND (period_to IS NULL OR (period_end = period_to::DATE
             AND period_start IS NOT DISTINCT FROM period_from::DATE))),
placed AS (
    SELECT o.*, s.start_char, s.end_char, substr(d.text, s.start_char + 1, s.end_char - s.start_char) AS shown,
        b.kind AS block_kind, i.part, i.item,
        b.kind = 'table' AND (i.item = '8' OR (i.part = 'I' AND i.item = '1' AND d.form LIKE '10-Q%'))
            AS in_statements
    FROM occurrences o
    JOIN fact_spans s ON s.doc_id = o.filing_id AND s.fact_id = o.element_id
    JOIN documents d ON d.doc_id = s.doc_id
    LEFT JOIN blocks b ON b.doc_id = s.doc_id AND s.start_char >= b.start_char AND s.end_char <= b.end_char
    LEFT JOIN sections i ON i.doc_id = s.doc_id AND i.item IS NOT NULL
        AND s.start_char >= i.start_char AND s.start_char < i.end_char)
SELECT * EXCLUDE (in_statements), row_number() OVER (PARTITION BY filing_id, fact_id
    ORDER BY in_statements DESC, block_kind = 'table' DESC, start_char) AS occurrence
FROM placed;

-- Where each XBRL figure is printed in its filing's stored text: every figure's occurrences (fact_occurrences).
CREATE OR REPLACE VIEW fact_citations AS
SELECT * FROM fact_occurrences(NULL, NULL, NULL, NULL, NULL);

-- fact_printed: where a reported figure (a filing's fact: its reports key, unit and period) is printed in that
-- filing's stored text, its primary occurrence; no row where the filing was not loaded as inline XBRL.
CREATE OR REPLACE MACRO fact_printed(filing, concept_key, unit_name, period_from, period_to) AS TABLE
SELECT filing_id AS doc_id, start_char, end_char, shown
FROM fact_occurrences(filing, concept_key, unit_name, period_from, period_to) WHERE occurrence = 1;
