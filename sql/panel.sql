-- factstore backtest panel: the newest fiscal quarter of each entity and concept as known at each date.
-- Applied after macros.sql. A date (DATE, or TIMESTAMP in UTC) sees only filings accepted strictly before it.

-- For every date of a table (a `date` column) × entity × concept (a list of qualified concepts, each its own
-- column): the newest discrete fiscal quarter known strictly before the date, its value as of then, when it
-- became known, and the trailing twelve months (the sum of the four newest quarters known then, NULL unless
-- they are four consecutive fiscal quarters of a duration concept). entities is a list of entity_ids (NULL
-- = all); mode 'first' gives values as first reported, 'latest' the newest (research only). Unordered.
--
-- How: the quarters of an entity change only when one of its filings is accepted, so they are computed once
-- per "vintage" (each acceptance time of its reports, or of a new period) that some date falls after, and
-- each date takes the latest vintage strictly before it (ASOF JOIN). quarters_asof is evaluated once for all
-- vintages: it reads reports and entity_periods, which the CTEs of those names below shadow with one copy of
-- each entity's rows per vintage (as known then), under a pseudo entity_id per (entity, vintage). (A LATERAL
-- call per vintage gives the same answer, but the macros' `entity IS NULL OR ...` filters turn its
-- decorrelated join into a nested loop, quadratic in the number of entities.)
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
    -- only the vintages some date falls after
    SELECT entity_id, vintage, row_number() OVER (ORDER BY entity_id, vintage)::VARCHAR AS pseudo_id
    FROM (SELECT DISTINCT v.entity_id, v.vintage
          FROM panel_dates d CROSS JOIN (SELECT DISTINCT entity_id FROM all_vintages) e
          ASOF JOIN all_vintages v ON v.entity_id = e.entity_id AND d.date > v.vintage)
), reports AS (
    SELECT r.filing_id, v.pseudo_id AS entity_id, r.concept, r.unit, r.period_start, r.period_end, r.value,
        r.accepted_at, r.form
    FROM panel_reports r JOIN vintages v
      ON v.entity_id = r.entity_id AND (mode = 'latest' OR r.accepted_at <= v.vintage)
), entity_periods AS (
    SELECT v.pseudo_id AS entity_id, p.period_start, p.period_end, p.first_accepted_at, p.reports
    FROM panel_periods p JOIN vintages v
      ON v.entity_id = p.entity_id AND (mode = 'latest' OR p.first_accepted_at <= v.vintage)
), ranked AS (
    SELECT q.entity_id AS pseudo_id, q.item AS concept, q.unit, q.fiscal_period, q.period_start, q.period_end,
        q.value, q.accepted_at, q.derived, q.fiscal_year * 4 + q.fiscal_quarter AS quarter_no,
        row_number() OVER (PARTITION BY q.entity_id, q.item, q.unit ORDER BY q.period_end DESC) AS recency
    FROM quarters_asof(NULL, mode := mode) q
    WHERE q.value IS NOT NULL
), per_unit AS (
    SELECT pseudo_id, concept, unit,
        arg_max({'fiscal_period': fiscal_period, 'period_start': period_start, 'period_end': period_end,
                 'value': value, 'accepted_at': accepted_at, 'derived': derived}, period_end) AS newest,
        CASE WHEN count(*) = 4 AND max(quarter_no) - min(quarter_no) = 3 AND bool_and(period_start IS NOT NULL)
             THEN sum(value) END AS ttm
    FROM ranked WHERE recency <= 4
    GROUP BY pseudo_id, concept, unit
), per_vintage AS (
    -- one row per vintage and concept, empty where nothing is known, so no date falls back to an older vintage
    SELECT v.entity_id, v.vintage, c.concept, u.newest, u.ttm
    FROM vintages v CROSS JOIN unnest(concepts) AS c(concept)
    LEFT JOIN per_unit u ON u.pseudo_id = v.pseudo_id AND u.concept = c.concept
    QUALIFY row_number() OVER (PARTITION BY v.pseudo_id, c.concept
                               ORDER BY u.newest.period_end DESC, u.unit <> 'USD', u.unit) = 1
)
SELECT d.date, e.entity_id, c.concept, p.newest.fiscal_period AS fiscal_period,
    p.newest.period_start AS period_start, p.newest.period_end AS period_end, p.newest.value AS value,
    p.newest.accepted_at AS accepted_at, p.newest.derived AS derived, p.ttm AS ttm
FROM panel_dates d CROSS JOIN panel_entities e CROSS JOIN unnest(concepts) AS c(concept)
ASOF LEFT JOIN per_vintage p ON p.entity_id = e.entity_id AND p.concept = c.concept AND d.date > p.vintage;
