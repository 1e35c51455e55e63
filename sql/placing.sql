-- Placing FSDS facts, whose dates the SEC rounds to month ends, in their company's own periods. Applied to the FSDS
-- loader's connection (placing a quarter's facts) and to the store (the write plan places again the facts placed only
-- approximately, once the store learns the company's periods from any source: loads in any order, one store).

-- fsds_periods: each fact's period, the company's own where the store knows it: one its filing reported (the store
-- holds the filing) ending within 16 days of the month end FSDS rounds to (of several, the one the filing reports
-- most facts at: its balance sheet's day, not an equity statement's opening day beside it), else one of the company's
-- ending within a week, of the same length (the closest); otherwise the calendar months FSDS names, marked
-- approximate. facts: (row, filing_id, entity_id, ddate, qtrs); known: (entity_id, filing_id, period_start,
-- period_end, n_facts), filing_id NULL for the company's calendar, period_start NULL for instants
CREATE OR REPLACE MACRO fsds_periods(facts, known) AS TABLE
WITH known AS (SELECT entity_id, filing_id, period_start::DATE AS period_start, period_end::DATE AS period_end,
                      date_diff('day', period_start::DATE, period_end::DATE) AS days, n_facts FROM query_table(known)),
matched AS (
    SELECT f.row, k.period_start, k.period_end
    FROM query_table(facts) f JOIN known k
      ON k.entity_id = f.entity_id AND (k.filing_id = f.filing_id OR k.filing_id IS NULL)
     AND abs(date_diff('day', f.ddate, k.period_end)) <= CASE WHEN k.filing_id IS NULL THEN 7 ELSE 16 END
     AND (CASE WHEN f.qtrs = 0 THEN k.period_start IS NULL ELSE abs(k.days - 91.3 * f.qtrs) <= 10 END)
    QUALIFY row_number() OVER (PARTITION BY f.row ORDER BY k.filing_id IS NULL,
        CASE WHEN k.filing_id IS NOT NULL THEN -k.n_facts END, abs(date_diff('day', f.ddate, k.period_end)),
        abs(k.days - 91.3 * f.qtrs), k.period_end) = 1)
SELECT f.row,
    CASE WHEN m.period_end IS NOT NULL THEN m.period_start
         WHEN f.qtrs > 0 THEN (f.ddate + INTERVAL 1 DAY - to_months(3 * f.qtrs))::DATE END AS period_start,
    coalesce(m.period_end, f.ddate) AS period_end,
    m.period_end IS NULL AS approximate
FROM query_table(facts) f LEFT JOIN matched m ON m.row = f.row;
