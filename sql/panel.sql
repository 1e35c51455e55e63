-- factstore backtest panel, applied after macros.sql: panel_asof(dates_table, concepts, entities := NULL,
-- mode := 'as_of', items := NULL, period := 'quarter') takes the name of a table or view with a `date` column
-- (DATE, or TIMESTAMP in UTC), a list of qualified concepts, a list of entities (ids, tickers, CIKs or names as
-- entity_key reads them; NULL = all; one it cannot read is an error), a mode ('first':
-- values as first reported; 'latest': the newest, research only), the item (column) of each concept (NULL: each
-- concept its own; a metric's concepts share one, in priority order: for each period the newest filing's figure,
-- within one filing the first concept's) and
-- the period ('quarter', 'year': fiscal years, 'ttm': the trailing twelve months, a balance as of the newest
-- quarter), and with events := true, instead of the dates each entity's own vintages (the acceptance times of its
-- reports and periods), each seeing what was known at it. A date sees only filings accepted strictly before it. The TTM is the sum of the four newest quarters
-- known then, NULL unless they are four consecutive fiscal quarters of a duration in a unit that adds up (never for
-- instants, figures per share or share counts). Among
-- units, the entity's reporting currency (then USD) wins at the newest period. Rows come unordered.
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

-- A panel's entities: all (NULL), or each as entity_key reads it (an id, ticker, CIK or name; one it cannot read is
-- an error).
CREATE OR REPLACE MACRO panel_entity_ids(entities) AS TABLE
SELECT entity_id FROM entities WHERE entities IS NULL OR list_contains(entities, entity_id)
UNION SELECT entity_key(e) FROM (SELECT unnest(entities) AS e) WHERE e NOT IN (SELECT entity_id FROM entities);

-- Each date × entity × item: the newest fiscal period known strictly before the date, its value then and TTM.
CREATE OR REPLACE MACRO panel_asof(dates_table, concepts, entities := NULL, mode := 'as_of', items := NULL,
                                   period := 'quarter', events := false) AS TABLE
WITH panel_dates AS (
    SELECT DISTINCT date::TIMESTAMP AS date FROM query_table(dates_table)
), panel_entities AS (
    SELECT * FROM panel_entity_ids(entities)
), panel_items AS (
    -- each concept with its rank in the list and its item (a concept may stand in several items)
    SELECT unnest(concepts) AS concept, unnest(range(1, len(concepts) + 1)) AS rank,
        unnest(coalesce(items::BIGINT[], range(1, len(concepts) + 1))) AS item
    -- (a mode, period or entity it cannot read is an error, never an empty or an as_of panel)
    WHERE mode_key(mode) IS NOT NULL AND CASE WHEN period IN ('quarter', 'year', 'ttm') THEN true
        ELSE error('period ''' || coalesce(period::VARCHAR, 'NULL') || ''': give quarter, year or ttm') END
), panel_reports AS (
    SELECT r.*, i.rank, i.item FROM reports r JOIN panel_items i USING (concept)
    WHERE r.entity_id IN (SELECT entity_id FROM panel_entities)
), panel_currencies AS (
    -- (read here, before the CTE `reports` below shadows the table)
    SELECT * FROM reporting_currencies() WHERE entity_id IN (SELECT entity_id FROM panel_entities)
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
          ASOF JOIN all_vintages v ON v.entity_id = e.entity_id AND d.date > v.vintage
          WHERE NOT events
          UNION ALL SELECT entity_id, vintage FROM all_vintages WHERE events)
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
    FROM fiscal_years_by_id(CASE WHEN mode = 'latest' THEN NULL ELSE TIMESTAMP '1970-01-01' END) c
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
    WINDOW fact AS (PARTITION BY s.span_id, r.item, r.concept, r.unit, r.period_start, r.period_end
                    ORDER BY filing_order(r.accepted_at, r.form, r.filing_id))
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
    -- each such vintage's copy of the reports of the years it computes, shifted back by it (a concept as its item's
    -- number: short strings keep quarters_asof's lists of parts cheap)
    SELECT r.filing_id, s.rep AS entity_id, r.item::VARCHAR AS concept, r.unit, r.period_start, r.period_end,
        r.value, make_timestamp(epoch_us(r.accepted_at) - s.rep_shift) AS accepted_at, r.form
    FROM reps s JOIN span_reports r ON r.span_id = s.span_id AND r.accepted_at <= s.state_at
    -- only the version quarters_asof would take then (the panel reads no restatement warnings)
    WHERE CASE mode WHEN 'first' THEN r.first ELSE r.next_at IS NULL OR r.next_at > s.state_at END
    -- of an item's concepts reporting the period, the one facts_asof takes (the newest filing's, or the first's;
    -- within a filing the first in the list)
    QUALIFY row_number() OVER (PARTITION BY s.rep, r.item, r.unit, r.period_start, r.period_end
        ORDER BY CASE WHEN mode = 'first' THEN filing_order(r.accepted_at, r.form, r.filing_id) END,
                 filing_order(r.accepted_at, r.form, r.filing_id) DESC, r.rank) = 1
), quarters AS (
    -- the known quarters of each year as its computing vintage knew it (none when fiscal years are asked)
    SELECT q.entity_id AS rep, q.fiscal_year, q.item::INTEGER AS item, q.unit, q.fiscal_period, q.period_start,
        q.period_end, q.value, q.accepted_at, q.derived, q.filing_id, q.form,
        q.fiscal_year * 4 + q.fiscal_quarter AS quarter_no,
        list_transform(coalesce(q.parts, []), lambda p: p.filing_id) AS part_filings  -- (a derived quarter's parts')
    FROM quarters_asof_by_id(TIMESTAMP '1970-01-01', mode := mode) q
    WHERE q.value IS NOT NULL AND period <> 'year'
), years AS (
    -- the fiscal years as reported, a balance at the year's end (only when fiscal years are asked)
    SELECT f.entity_id AS rep, f.fiscal_year, f.item::INTEGER AS item, f.unit, 'FY' || f.fiscal_year AS fiscal_period,
        f.period_start, f.period_end, f.value, f.accepted_at, false AS derived, f.filing_id, f.form,
        f.fiscal_year AS quarter_no, []::VARCHAR[] AS part_filings
    FROM fiscal_facts_by_id(TIMESTAMP '1970-01-01', mode := mode) f
    WHERE period = 'year' AND f.value IS NOT NULL
      AND (f.kind = 'year' AND f.fiscal_period = 'FY' || f.fiscal_year
           OR f.kind = 'instant' AND f.fiscal_period = f.fiscal_year || 'Q4')
), figures AS (
    SELECT * FROM quarters UNION ALL SELECT * FROM years
), current AS MATERIALIZED (
    -- each vintage's fiscal years with the vintage that computed each as it stood then
    SELECT s.pseudo_id, s.fiscal_year, r.rep, r.rep_shift FROM states s JOIN reps r USING (span_id, state_at)
), wanted AS MATERIALIZED (
    -- per vintage, item and unit: the newest fiscal year with a known figure and the year before (the newest
    -- four quarters, if consecutive, lie in them)
    SELECT c.*, t.item, t.unit
    FROM (SELECT c.pseudo_id, q.item, q.unit, max(c.fiscal_year) AS top_year
          FROM current c
          JOIN (SELECT DISTINCT rep, fiscal_year, item, unit FROM figures) q USING (rep, fiscal_year)
          GROUP BY ALL) t
    JOIN current c ON c.pseudo_id = t.pseudo_id AND c.fiscal_year IN (t.top_year, t.top_year - 1)
), ranked AS (
    -- those figures, newest first, with their real acceptance times
    SELECT w.pseudo_id, q.item, q.unit, q.fiscal_period, q.period_start, q.period_end, q.value, q.derived,
        q.filing_id, q.form, q.quarter_no, q.part_filings,
        make_timestamp(epoch_us(q.accepted_at) + w.rep_shift) AS accepted_at,
        row_number() OVER (PARTITION BY w.pseudo_id, q.item, q.unit ORDER BY q.period_end DESC) AS recency
    FROM wanted w JOIN figures q USING (rep, fiscal_year, item, unit)
), per_unit AS (
    -- (recency <= 4 as an aggregate FILTER: as a WHERE, DuckDB rewrites the window into a far slower top-n arg_max)
    SELECT pseudo_id, item, unit,
        arg_max({'fiscal_period': fiscal_period, 'period_start': period_start, 'period_end': period_end,
                 'value': value, 'accepted_at': accepted_at, 'derived': derived, 'filing_id': filing_id,
                 'form': form, 'part_filings': part_filings}, period_end) AS newest,
        CASE WHEN period <> 'year' AND count(*) FILTER (recency <= 4) = 4
                  AND max(quarter_no) FILTER (recency <= 4) - min(quarter_no) FILTER (recency <= 4) = 3
                  AND bool_and(period_start IS NOT NULL) FILTER (recency <= 4)
                  AND is_additive_unit(unit)  -- (a sum of four quarters' EPS is not the twelve months')
             THEN {'value': sum(value) FILTER (recency <= 4), 'start': min(period_start) FILTER (recency <= 4)}
        END AS ttm
    FROM ranked
    GROUP BY pseudo_id, item, unit
), newest AS (
    -- at the newest period, the reporting currency, then USD, then the other units by name
    SELECT n.* FROM per_unit n JOIN vintages v USING (pseudo_id)
    LEFT JOIN panel_currencies c USING (entity_id)
    QUALIFY row_number() OVER (PARTITION BY n.pseudo_id, n.item
        ORDER BY n.newest.period_end DESC, unit_rank(n.unit, c.currency)) = 1
), tags AS (
    -- the concept each filing reported an item under (the first in the list, should it use several)
    SELECT entity_id, filing_id, item, unit, arg_min(concept, rank) AS tag FROM panel_reports GROUP BY ALL
), columns AS (
    -- each item with its first concept, which names it
    SELECT item, arg_min(concept, rank) AS concept FROM panel_items GROUP BY item
), precisions AS (
    -- the coarsest acceptance precision of each figure's filing and its parts' (an equi-join: an OR of the two
    -- made DuckDB compare every figure with every filing, four fifths of a panel's time)
    SELECT n.pseudo_id, n.item, coarsest_precision(list(f.accepted_precision)) AS accepted_precision
    FROM (SELECT pseudo_id, item, unnest(list_append(newest.part_filings, newest.filing_id)) AS filing_id
          FROM newest) n
    JOIN filings f USING (filing_id)
    GROUP BY ALL
), per_vintage AS (
    -- one row per vintage and item, empty where nothing is known, so no date falls back to an older vintage
    SELECT v.entity_id, v.vintage, c.item, n.unit, n.newest, n.ttm, n.newest.accepted_at AS accepted_at, t.tag,
        p.accepted_precision
    FROM vintages v CROSS JOIN columns c
    LEFT JOIN newest n ON n.pseudo_id = v.pseudo_id AND n.item = c.item
    LEFT JOIN tags t ON t.entity_id = v.entity_id AND t.filing_id = n.newest.filing_id AND t.item = c.item
                    AND t.unit = n.unit
    LEFT JOIN precisions p ON p.pseudo_id = v.pseudo_id AND p.item = c.item
), cells AS (
    -- each date's vintage per entity and item; with events, each vintage itself (what was known at, not before it)
    SELECT d.date, e.entity_id, c.item, c.concept, p.tag, p.unit, p.newest, p.ttm, p.accepted_at, p.accepted_precision
    FROM panel_dates d CROSS JOIN panel_entities e CROSS JOIN columns c
    ASOF LEFT JOIN per_vintage p ON p.entity_id = e.entity_id AND p.item = c.item AND d.date > p.vintage
    WHERE NOT events
    UNION ALL
    SELECT p.vintage, p.entity_id, c.item, c.concept, p.tag, p.unit, p.newest, p.ttm, p.accepted_at,
        p.accepted_precision
    FROM per_vintage p JOIN columns c USING (item)
    WHERE events
)
SELECT date, entity_id, item, concept, tag, unit, newest.fiscal_period AS fiscal_period,
    CASE WHEN period = 'ttm' AND newest.period_start IS NOT NULL THEN ttm.start ELSE newest.period_start END
        AS period_start,
    newest.period_end AS period_end,
    CASE WHEN period = 'ttm' AND newest.period_start IS NOT NULL THEN ttm.value ELSE newest.value END AS value,
    accepted_at, accepted_precision,
    newest.derived AS derived, ttm.value AS ttm, newest.filing_id AS filing_id, newest.form AS form
FROM cells;

-- panel_versions(dates_table, names, entities := NULL, period := 'quarter', with_ttm := true, events := false):
-- panel_asof's panel in mode 'as_of' (period 'quarter' or 'ttm') of concepts and metrics (metric_concepts: a metric's
-- items as panel_asof's items := [1, 1, ...] of its concepts): the same cells, computed at load (newest_quarters), each
-- date reading its entity's and name's row known strictly before it (an ASOF join; ttm NULL without with_ttm). With
-- events := true, instead of the dates (dates_table is not read) each entity's own moments of change (when a row of
-- its names begins), each seeing what was known at it: panel_asof's events at the vintages where a cell changes.
CREATE OR REPLACE MACRO panel_versions(dates_table, names, entities := NULL, period := 'quarter',
                                       with_ttm := true, events := false) AS TABLE
WITH panel_items AS (
    -- each name, its item (its place in the list) and the concept naming it (a metric's first)
    SELECT n.name, n.item, coalesce(m.concept, n.name) AS concept
    FROM (SELECT unnest(names) AS name, unnest(range(1, len(names) + 1)) AS item) n
    LEFT JOIN metric_concepts m ON m.name = n.name AND m.metric = n.name AND m.rank = 1
    WHERE CASE WHEN period IN ('quarter', 'ttm') THEN true
        ELSE error('period ''' || coalesce(period::VARCHAR, 'NULL') || ''': give quarter or ttm') END
      AND CASE WHEN len(list_distinct(names)) = len(names) THEN true
          ELSE error('panel_versions: a name given twice; give each once') END
), panel_entities AS (
    SELECT * FROM panel_entity_ids(entities)
), sources AS (
    -- where each name's rows are: under its own name; a metric's, for an entity without rows of its own (it reports
    -- one of its concepts, not two), under that concept's (metric: the name is a metric; own: its own rows)
    SELECT name, name AS item, true AS own,
        name IN (SELECT metric FROM metric_concepts WHERE name = metric) AS metric
    FROM panel_items
    UNION ALL
    SELECT m.metric, m.concept, false, true FROM metric_concepts m
    WHERE m.name = m.metric AND list_contains(names, m.metric)
), found AS MATERIALIZED (
    SELECT s.*, n.name, n.own, n.metric FROM newest_quarters s JOIN sources n USING (item)
    WHERE s.entity_id IN (SELECT entity_id FROM panel_entities)
), fallback AS (
    SELECT * FROM found ANTI JOIN (SELECT entity_id, name FROM found WHERE own AND metric) o USING (entity_id, name)
    WHERE NOT own
), rows AS (
    SELECT * FROM found WHERE own
    UNION ALL
    SELECT * FROM fallback
    -- (an entity without cells of a metric's own has one of its concepts: two would be mixed, so an error)
    WHERE CASE WHEN NOT EXISTS (SELECT 1 FROM fallback GROUP BY entity_id, name HAVING count(DISTINCT item) > 1)
               THEN true ELSE error('panel_versions: a metric read from two of its concepts; report it') END
), grid AS (
    SELECT d.date::TIMESTAMP AS date, e.entity_id FROM (SELECT DISTINCT date FROM query_table(dates_table)) d
    CROSS JOIN panel_entities e WHERE NOT events
    UNION ALL
    SELECT DISTINCT known_from, entity_id FROM rows WHERE events
), cells AS (
    SELECT g.date, g.entity_id, g.item, g.concept, s.concept AS tag, s.unit, s.fiscal_year, s.fiscal_quarter,
        s.period_start, s.period_end, s.value, s.derived, s.filing_id, s.form, s.accepted_at, s.accepted_precision,
        s.ttm, s.ttm_start
    -- (keyed by a hash of entity and item: a third of the time of the two strings; a hash two keys share is an error)
    FROM (SELECT *, hash(entity_id, name) AS k FROM grid CROSS JOIN panel_items) g
    ASOF LEFT JOIN (SELECT *, hash(entity_id, name) AS k FROM rows) s
      -- (a date sees what was accepted strictly before it; a moment of change what was accepted by it)
      ON s.k = g.k AND (CASE WHEN events THEN g.date + INTERVAL 1 MICROSECOND ELSE g.date END) > s.known_from
    WHERE CASE WHEN s.k IS NULL OR (s.entity_id = g.entity_id AND s.name = g.name) THEN true
               ELSE error('panel_versions: a hash collision; join on the keys themselves') END
)
SELECT c.date, c.entity_id, c.item, c.concept, c.tag, c.unit, c.fiscal_year || 'Q' || c.fiscal_quarter AS fiscal_period,
    CASE WHEN period = 'ttm' AND c.period_start IS NOT NULL THEN c.ttm_start ELSE c.period_start END AS period_start,
    c.period_end,
    CASE WHEN period = 'ttm' AND c.period_start IS NOT NULL THEN c.ttm ELSE c.value END AS value,
    c.accepted_at, c.accepted_precision, c.derived, CASE WHEN with_ttm OR period = 'ttm' THEN c.ttm END AS ttm,
    c.filing_id, c.form
FROM cells c;
