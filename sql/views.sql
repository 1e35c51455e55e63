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
SELECT * FROM facts_asof(NULL, mode := 'latest');

-- Each fact as first reported.
CREATE OR REPLACE VIEW first_reported AS
SELECT * FROM facts_asof(NULL, mode := 'first');

-- Discrete fiscal quarters on the newest data, derived ones (Q4 = FY - 9M...) flagged with their formula.
CREATE OR REPLACE VIEW discrete_quarters AS
SELECT * EXCLUDE (parts) FROM quarters_asof(NULL, mode := 'latest') WHERE value IS NOT NULL;

-- Each entity's fiscal calendar as learned from everything loaded.
CREATE OR REPLACE VIEW fiscal_calendar AS
SELECT * FROM fiscal_years(NULL);

-- Every change of a fact's value at or above rounding level: old value, new value, when and by which filing.
CREATE OR REPLACE VIEW restatements AS
WITH ordered AS (
    SELECT entity_id, concept, unit, period_start, period_end, value AS new_value, filing_id AS new_filing_id,
        form AS new_form, accepted_at AS restated_at,
        lag(value) OVER w AS old_value, lag(filing_id) OVER w AS old_filing_id,
        lag(accepted_at) OVER w AS old_accepted_at
    FROM reports
    WINDOW w AS (PARTITION BY entity_id, concept, unit, period_start, period_end
                 ORDER BY accepted_at, filing_id)
)
SELECT entity_id, concept, unit, period_start, period_end, old_value, new_value,
    (new_value - old_value) / nullif(abs(old_value), 0) AS relative_change,
    restated_at, new_filing_id, new_form, old_filing_id, old_accepted_at
FROM ordered
WHERE old_value IS NOT NULL AND is_restatement(old_value, new_value);
