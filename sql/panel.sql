-- factstore backtest panel, applied after macros.sql: panel_asof(dates_table, concepts, entities := NULL,
-- mode := 'as_of') takes the name of a table or view with a `date` column (DATE, or TIMESTAMP in UTC), a list of
-- qualified concepts (each its own column), a list of entity_ids (NULL = all) and a mode ('first': values as
-- first reported; 'latest': the newest, research only). A date sees only filings accepted strictly before it.
-- The TTM is the sum of the four newest quarters known then, NULL unless they are four consecutive fiscal
-- quarters of a duration (never for instants). Rows come unordered.
--
-- How: an entity's quarters change only when one of its filings is accepted, so they are computed once per
-- "vintage" (each acceptance time of its reports or periods) that some date falls after, and each date takes
-- the latest vintage strictly before it (ASOF JOIN). quarters_asof is evaluated once for all vintages, as of
-- 1970-01-01: the CTEs `reports` and `entity_periods` below shadow the tables it reads with one copy of each
-- entity's whole history per vintage, under a pseudo entity_id, with every time shifted back by the vintage
-- (so "accepted by the vintage" reads "accepted by 1970-01-01"); known times are shifted forward again. (A
-- LATERAL call of quarters_asof per vintage gives the same answer, but the macros' `entity IS NULL OR ...`
-- filters turn its decorrelated join into a nested loop, quadratic in the number of entities.)

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
), reports AS (
    SELECT r.filing_id, v.pseudo_id AS entity_id, r.concept, r.unit, r.period_start, r.period_end, r.value,
        make_timestamp(epoch_us(r.accepted_at) - v.shift) AS accepted_at, r.form
    FROM panel_reports r JOIN vintages v USING (entity_id)
), entity_periods AS (
    SELECT v.pseudo_id AS entity_id, p.period_start, p.period_end,
        make_timestamp(epoch_us(p.first_accepted_at) - v.shift) AS first_accepted_at, p.reports
    FROM panel_periods p JOIN vintages v USING (entity_id)
), ranked AS (
    SELECT q.entity_id AS pseudo_id, q.item AS concept, q.unit, q.fiscal_period, q.period_start, q.period_end,
        q.value, q.accepted_at, q.derived, q.fiscal_year * 4 + q.fiscal_quarter AS quarter_no,
        row_number() OVER (PARTITION BY q.entity_id, q.item, q.unit ORDER BY q.period_end DESC) AS recency
    FROM quarters_asof(TIMESTAMP '1970-01-01', mode := mode) q
    WHERE q.value IS NOT NULL
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
    SELECT v.entity_id, v.vintage, c.concept, n.newest, n.ttm,
        make_timestamp(epoch_us(n.newest.accepted_at) + v.shift) AS accepted_at
    FROM vintages v CROSS JOIN unnest(list_distinct(concepts)) AS c(concept)
    LEFT JOIN newest n ON n.pseudo_id = v.pseudo_id AND n.concept = c.concept
)
SELECT d.date, e.entity_id, c.concept, p.newest.fiscal_period AS fiscal_period,
    p.newest.period_start AS period_start, p.newest.period_end AS period_end, p.newest.value AS value,
    p.accepted_at, p.newest.derived AS derived, p.ttm
FROM panel_dates d CROSS JOIN panel_entities e CROSS JOIN unnest(list_distinct(concepts)) AS c(concept)
ASOF LEFT JOIN per_vintage p ON p.entity_id = e.entity_id AND p.concept = c.concept AND d.date > p.vintage;
