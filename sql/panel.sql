-- factstore backtest panel, applied after macros.sql: panel_asof(dates_table, concepts, entities := NULL,
-- mode := 'as_of') takes the name of a table or view with a `date` column (DATE, or TIMESTAMP in UTC), a list of
-- qualified concepts (each its own column), a list of entity_ids (NULL = all) and a mode ('first': values as
-- first reported; 'latest': the newest, research only). A date sees only filings accepted strictly before it.
-- The TTM is the sum of the four newest quarters known then, NULL unless they are four consecutive fiscal
-- quarters of a duration (never for instants). Rows come unordered.
--
-- How: an entity's quarters change only when one of its filings is accepted, so each date takes the latest
-- "vintage" strictly before it (each acceptance time of the entity's reports or periods; ASOF JOIN). A fiscal
-- year's quarters depend only on the year's span in the vintage's calendar and the reports in that span known
-- then, so each year is computed once per such state, by the first vintage in it, not once per vintage.
-- quarters_asof is evaluated once for all of them, as of 1970-01-01: the CTEs `entity_periods` and `reports`
-- below shadow the tables it reads with a copy per vintage of the entity's periods (its calendar) and, for the
-- vintage computing them, of the reports of those years (concepts as their position in the list), under a pseudo
-- entity_id, with every time shifted back by the vintage (so "accepted by the vintage" reads "accepted by
-- 1970-01-01"); known times are shifted forward again. Each vintage then reads the newest quarters of its years.

-- Each date × entity × concept: the newest fiscal quarter known strictly before the date, its value then and TTM.
CREATE OR REPLACE MACRO panel_asof(dates_table, concepts, entities := NULL, mode := 'as_of') AS TABLE
WITH panel_dates AS (
    SELECT DISTINCT date::TIMESTAMP AS date FROM query_table(dates_table)
), panel_entities AS (
    SELECT e.entity_id FROM entities e WHERE entities IS NULL OR list_contains(entities, e.entity_id)
), panel_reports AS (
    SELECT * FROM reports
    WHERE list_contains(concepts, concept) AND entity_id IN (SELECT entity_id FROM panel_entities)
), panel_periods AS (
    SELECT * FROM entity_periods WHERE entity_id IN (SELECT entity_id FROM panel_reports)
), all_vintages AS (
    SELECT DISTINCT entity_id, CASE WHEN mode = 'latest' THEN '-infinity'::TIMESTAMP ELSE known_at END AS vintage
    FROM (SELECT entity_id, accepted_at AS known_at FROM panel_reports
          UNION ALL SELECT entity_id, first_accepted_at FROM panel_periods)
), vintages AS (
    -- only the vintages some date falls after; shift = the vintage in microseconds since 1970 (none for 'latest')
    SELECT entity_id, vintage, row_number() OVER (ORDER BY entity_id, vintage)::VARCHAR AS pseudo_id,
        CASE WHEN mode = 'latest' THEN 0 ELSE epoch_us(vintage) END AS shift
    FROM (SELECT DISTINCT v.entity_id, v.vintage
          FROM panel_dates d CROSS JOIN (SELECT DISTINCT entity_id FROM all_vintages) e
          ASOF JOIN all_vintages v ON v.entity_id = e.entity_id AND d.date > v.vintage)
), entity_periods AS (
    -- each vintage's copy of its entity's periods, for its fiscal calendar
    SELECT v.pseudo_id AS entity_id, p.period_start, p.period_end,
        make_timestamp(epoch_us(p.first_accepted_at) - v.shift) AS first_accepted_at, p.reports
    FROM panel_periods p JOIN vintages v USING (entity_id)
), calendars AS MATERIALIZED (
    -- each vintage's fiscal years, each with the span of period ends fiscal_facts places in it: (lo, hi] by fy_end
    SELECT v.entity_id, v.vintage, v.pseudo_id, v.shift, c.fiscal_year,
        {'fy_start': c.fy_start, 'fy_end': c.fy_end, 'hi': c.fy_end + 7,
         'lo': coalesce(lag(c.fy_end) OVER (PARTITION BY c.entity_id ORDER BY c.fy_end) + 7, '-infinity'::DATE)}
            AS span
    FROM fiscal_years(CASE WHEN mode = 'latest' THEN NULL ELSE TIMESTAMP '1970-01-01' END) c
    JOIN vintages v ON v.pseudo_id = c.entity_id
), spans AS MATERIALIZED (
    -- each distinct fiscal year of an entity's calendars
    SELECT *, row_number() OVER () AS span_id FROM (SELECT DISTINCT entity_id, fiscal_year, span FROM calendars)
), span_reports AS (
    -- the reports falling in each, each with the acceptance of its fact's next version (NULL: none) and whether it
    -- is the first
    SELECT s.span_id, r.*, lead(r.accepted_at) OVER fact AS next_at, row_number() OVER fact = 1 AS first
    FROM spans s JOIN panel_reports r
      ON r.entity_id = s.entity_id AND r.period_end > s.span.lo AND r.period_end <= s.span.hi
    WINDOW fact AS (PARTITION BY s.span_id, r.concept, r.unit, r.period_start, r.period_end
                    ORDER BY r.accepted_at, r.filing_id)
), states AS (
    -- a vintage's fiscal year as known then: its span and the newest acceptance in it
    SELECT c.pseudo_id, c.vintage, c.shift, c.fiscal_year, s.span_id, t.state_at
    FROM calendars c JOIN spans s USING (entity_id, fiscal_year, span)
    ASOF JOIN (SELECT DISTINCT span_id, accepted_at AS state_at FROM span_reports) t
      ON t.span_id = s.span_id
     AND t.state_at <= CASE WHEN mode = 'latest' THEN 'infinity'::TIMESTAMP ELSE c.vintage END
), reps AS (
    -- the first vintage in each state of a year computes it for all
    SELECT span_id, state_at, arg_min(pseudo_id, vintage) AS rep, min(shift) AS rep_shift
    FROM states GROUP BY span_id, state_at
), reports AS (
    -- each such vintage's copy of the reports of the years it computes, shifted back by it (a concept as its
    -- position in the list: short strings keep quarters_asof's lists of parts cheap)
    SELECT r.filing_id, s.rep AS entity_id, list_position(concepts, r.concept)::VARCHAR AS concept, r.unit,
        r.period_start, r.period_end, r.value, make_timestamp(epoch_us(r.accepted_at) - s.rep_shift) AS accepted_at,
        r.form
    FROM reps s JOIN span_reports r ON r.span_id = s.span_id AND r.accepted_at <= s.state_at
    -- only the version quarters_asof would take then (the panel reads no restatement warnings)
    WHERE CASE mode WHEN 'first' THEN r.first ELSE r.next_at IS NULL OR r.next_at > s.state_at END
), quarters AS (
    -- the known quarters of each year as its computing vintage knew it
    SELECT q.entity_id AS rep, q.fiscal_year, concepts[q.item::INTEGER] AS concept, q.unit, q.fiscal_period,
        q.period_start, q.period_end, q.value, q.accepted_at, q.derived,
        q.fiscal_year * 4 + q.fiscal_quarter AS quarter_no
    FROM quarters_asof(TIMESTAMP '1970-01-01', mode := mode) q
    WHERE q.value IS NOT NULL
), current AS MATERIALIZED (
    -- each vintage's fiscal years with the vintage that computed each as it stood then
    SELECT s.pseudo_id, s.fiscal_year, r.rep, r.rep_shift FROM states s JOIN reps r USING (span_id, state_at)
), wanted AS MATERIALIZED (
    -- per vintage, concept and unit: the newest fiscal year with a known quarter and the year before (the newest
    -- four quarters, if consecutive, lie in them)
    SELECT c.*, t.concept, t.unit
    FROM (SELECT c.pseudo_id, q.concept, q.unit, max(c.fiscal_year) AS top_year
          FROM current c
          JOIN (SELECT DISTINCT rep, fiscal_year, concept, unit FROM quarters) q USING (rep, fiscal_year)
          GROUP BY ALL) t
    JOIN current c ON c.pseudo_id = t.pseudo_id AND c.fiscal_year IN (t.top_year, t.top_year - 1)
), ranked AS (
    -- those quarters, newest first, with their real acceptance times
    SELECT w.pseudo_id, q.concept, q.unit, q.fiscal_period, q.period_start, q.period_end, q.value, q.derived,
        q.quarter_no, make_timestamp(epoch_us(q.accepted_at) + w.rep_shift) AS accepted_at,
        row_number() OVER (PARTITION BY w.pseudo_id, q.concept, q.unit ORDER BY q.period_end DESC) AS recency
    FROM wanted w JOIN quarters q USING (rep, fiscal_year, concept, unit)
), per_unit AS (
    -- (recency <= 4 as an aggregate FILTER: as a WHERE, DuckDB rewrites the window into a far slower top-n arg_max)
    SELECT pseudo_id, concept, unit,
        arg_max({'fiscal_period': fiscal_period, 'period_start': period_start, 'period_end': period_end,
                 'value': value, 'accepted_at': accepted_at, 'derived': derived}, period_end) AS newest,
        CASE WHEN count(*) FILTER (recency <= 4) = 4
                  AND max(quarter_no) FILTER (recency <= 4) - min(quarter_no) FILTER (recency <= 4) = 3
                  AND bool_and(period_start IS NOT NULL) FILTER (recency <= 4)
             THEN sum(value) FILTER (recency <= 4) END AS ttm
    FROM ranked
    GROUP BY pseudo_id, concept, unit
), newest AS (
    SELECT * FROM per_unit
    QUALIFY row_number() OVER (PARTITION BY pseudo_id, concept
                               ORDER BY newest.period_end DESC, unit <> 'USD', unit) = 1
), per_vintage AS (
    -- one row per vintage and concept, empty where nothing is known, so no date falls back to an older vintage
    SELECT v.entity_id, v.vintage, c.concept, n.newest, n.ttm, n.newest.accepted_at AS accepted_at
    FROM vintages v CROSS JOIN unnest(list_distinct(concepts)) AS c(concept)
    LEFT JOIN newest n ON n.pseudo_id = v.pseudo_id AND n.concept = c.concept
)
SELECT d.date, e.entity_id, c.concept, p.newest.fiscal_period AS fiscal_period,
    p.newest.period_start AS period_start, p.newest.period_end AS period_end, p.newest.value AS value,
    p.accepted_at, p.newest.derived AS derived, p.ttm
FROM panel_dates d CROSS JOIN panel_entities e CROSS JOIN unnest(list_distinct(concepts)) AS c(concept)
ASOF LEFT JOIN per_vintage p ON p.entity_id = e.entity_id AND p.concept = c.concept AND d.date > p.vintage;
