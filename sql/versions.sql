-- Every version of every discrete fiscal quarter, computed at load (factstore/versions.py runs these blocks, by name,
-- in the load's transaction, for the entities it touched, listed in _touched): quarter_versions holds each figure
-- quarters_asof_by_id(t, concepts := [concept]) gives (value not null, mode as_of) with the moments between which
-- it is the answer, [known_from, known_until) (NULL: still current). Each concept is its own line item (metric
-- NULL), and so is each metric an entity reports under two concepts or more (metric its name, concept the one the
-- version's filing reported it under). The rules
-- are those of sql/macros.sql, read here over intervals of time in one pass rather than at each moment.
--
-- How: a quarter's figure at t depends on the fiscal calendar at t (which changes only when a year, half or
-- nine-month period first becomes visible: "epochs") and on the facts known at t. Each fiscal year's span of the
-- calendar over a run of epochs is a "frame"; every fact is placed and labelled once per frame it falls in; of the
-- facts sharing a label the best-ranked known one wins (fiscal_facts_by_id's QUALIFY); a slot's figure over time is
-- its winner crossed with the winner's versions ("parts"). Quarters: reported parts as they are; derived ones as
-- intersections of their parts' intervals, each clipped to before the reported quarter appears (a slot, once
-- filled, stays filled within a frame); FY - (Q1 + Q2 + Q3) only where FY - 9M does not hold. Intervals are
-- [from, until), 'infinity' = still current.

-- name: merged
-- 0. Line items: each concept, and each metric (metric_concepts) of which an entity reports two concepts or more (of
-- one, the metric's versions are that concept's): its facts merged, for each period the newest filing's figure,
-- within one filing the first concept's (panel_asof's items).
CREATE OR REPLACE TEMP TABLE qv_merged AS
SELECT r.entity_id, m.metric
FROM (SELECT DISTINCT entity_id, concept FROM reports WHERE entity_id IN (SELECT entity_id FROM _touched)) r
JOIN (SELECT DISTINCT metric, concept FROM metric_concepts) m USING (concept)
GROUP BY ALL HAVING count(*) > 1;

-- name: source
-- The rows of the line items: each report under its concept (metric NULL, rank 0), and under each merged metric it
-- stands in (rank: its concept's place in the metric).
CREATE OR REPLACE TEMP VIEW qv_source AS
SELECT entity_id, concept AS item, NULL::VARCHAR AS metric, concept, 0 AS rank, unit, period_start, period_end, value,
    filing_id, accepted_at
FROM reports WHERE entity_id IN (SELECT entity_id FROM _touched)
UNION ALL
SELECT r.entity_id, m.metric, m.metric, r.concept, m.rank, r.unit, r.period_start, r.period_end, r.value, r.filing_id,
    r.accepted_at
FROM reports r JOIN (SELECT DISTINCT metric, rank, concept FROM metric_concepts) m USING (concept)
SEMI JOIN qv_merged q ON q.entity_id = r.entity_id AND q.metric = m.metric
WHERE r.entity_id IN (SELECT entity_id FROM _touched);

-- name: keys
-- Numbers for strings, so the tables below carry no strings (joins and sorts on them cost, and so does writing
-- them): gh for an entity, line item and unit, fid for a filing; two strings of one number are an error (checked).
CREATE OR REPLACE TEMP TABLE qv_keys AS
SELECT k.*,
    -- the unit's place among the item's units (unit_rank: the reporting currency first, then USD)
    rank() OVER (PARTITION BY k.entity_id, k.item ORDER BY unit_rank(k.unit, c.currency)) AS unit_rank
FROM (SELECT hash(entity_id, item, unit) AS gh, any_value(entity_id) AS entity_id, any_value(item) AS item,
          any_value(metric) AS metric, any_value(unit) AS unit,
          -- (a second hash, in another order, differs between two (entity, item, unit) of one gh)
          min(hash(unit, item, entity_id)) <> max(hash(unit, item, entity_id)) AS collided
      FROM qv_source GROUP BY 1) k
LEFT JOIN (SELECT * FROM reporting_currencies() WHERE entity_id IN (SELECT entity_id FROM _touched)) c
  USING (entity_id);

-- name: filings
CREATE OR REPLACE TEMP TABLE qv_filings AS
-- (prec: its acceptance's precision as a number, 1 'date' < 2 'minute' < 3 'second', the coarsest the least; no: its
-- place in filing_order, a number to sort the facts' versions by)
SELECT hash(filing_id) AS fid, filing_id, form, list_position(['date', 'minute', 'second'], accepted_precision) AS prec,
    row_number() OVER (ORDER BY filing_order(accepted_at, form, filing_id)) AS no
FROM filings WHERE entity_id IN (SELECT entity_id FROM _touched);

-- name: checked
-- A hash shared by two keys would have mixed them: an error, never a wrong answer.
SELECT CASE WHEN (SELECT bool_or(collided) FROM qv_keys)
            OR (SELECT count(*) <> count(DISTINCT fid) FROM qv_filings)
            OR (SELECT count(*) <> count(DISTINCT hash(entity_id)) FROM _touched)
            THEN error('quarter_versions: a hash collision; partition by the keys themselves') ELSE true END AS ok;

-- name: tags
-- A merged metric's concept in each filing: the first of its concepts the filing reports it under (any period).
CREATE OR REPLACE TEMP TABLE qv_tags AS
SELECT hash(entity_id, item, unit) AS gh, hash(filing_id) AS fid, arg_min(concept, rank) AS tag
FROM qv_source WHERE metric IS NOT NULL GROUP BY ALL;

-- name: facts
-- 1. Each version of each fact that some label could take, [v_from, v_until); first_seen: its key's first report.
CREATE OR REPLACE TEMP TABLE qv_facts AS
SELECT hash(entity_id) AS eh, hash(entity_id, item, unit) AS gh, is_additive_unit(unit) AS additive, period_start,
    period_end, value, fid, accepted_at AS v_from,
    coalesce(lead(accepted_at) OVER fact, 'infinity'::TIMESTAMP) AS v_until,
    first_value(accepted_at) OVER fact AS first_seen
FROM (SELECT *, hash(filing_id) AS fid FROM qv_source WHERE duration_class(period_start, period_end) <> 'other')
JOIN (SELECT fid, no FROM qv_filings) USING (fid)
-- (partitioned by gh, not the three strings: a fifth faster; ordered by filing_order as a number, within a filing
-- a metric's first concept last, so that it replaces the others within the second)
WINDOW fact AS (PARTITION BY hash(entity_id, item, unit), period_start, period_end ORDER BY no, rank DESC)
-- (a version replaced within the same second is never the one known)
QUALIFY v_until > accepted_at;

-- name: epochs
-- 2. Calendar epochs, [e_from, e_until): the calendar changes only when a year, half or nine-month period
-- first becomes visible; before the first, fiscal_years_by_id learns it from all of them.
CREATE OR REPLACE TEMP TABLE qv_epochs AS
WITH periods AS (
    SELECT entity_id, first_accepted_at FROM entity_periods
    WHERE entity_id IN (SELECT entity_id FROM _touched) AND duration_class(period_start, period_end) IN ('year', 'half', 'nine_months')
    QUALIFY reports > 0 OR NOT bool_or(reports > 0) OVER (PARTITION BY entity_id)
), starts AS (
    SELECT DISTINCT entity_id, first_accepted_at AS e_from FROM periods
    UNION ALL SELECT DISTINCT entity_id, '-infinity'::TIMESTAMP FROM periods
)
SELECT entity_id, e_from, coalesce(lead(e_from) OVER w, 'infinity'::TIMESTAMP) AS e_until,
    row_number() OVER w AS epoch_no, entity_id || '#' || row_number() OVER w AS pseudo_id,
    -- the moment the epoch's calendar is read at (the first epoch: just before anything is visible)
    epoch_us(CASE WHEN e_from = '-infinity'::TIMESTAMP THEN lead(e_from) OVER w - INTERVAL 1 MICROSECOND
                  ELSE e_from END) AS shift
FROM starts
WINDOW w AS (PARTITION BY entity_id ORDER BY e_from);

-- name: calendars
-- 3. Each epoch's calendar by fiscal_years_by_id itself, read at 1970-01-01 over a copy of the entity's periods
-- shifted back by the epoch's moment (panel_asof's device), with each fiscal year's span of period ends (lo, hi]
-- (fiscal_facts_by_id's ASOF join on fy_end + 7 days).
CREATE OR REPLACE TEMP TABLE qv_calendars AS
WITH entity_periods AS (
    SELECT e.pseudo_id AS entity_id, p.period_start, p.period_end,
        make_timestamp(epoch_us(p.first_accepted_at) - e.shift) AS first_accepted_at, p.reports
    FROM entity_periods p JOIN qv_epochs e USING (entity_id)
    WHERE duration_class(p.period_start, p.period_end) IN ('year', 'half', 'nine_months')
)
SELECT e.entity_id, e.epoch_no, e.e_from, e.e_until, c.fiscal_year, c.fy_start, c.fy_end,
    coalesce(lag(c.fy_end) OVER (PARTITION BY c.entity_id ORDER BY c.fy_end) + 7, '-infinity'::DATE) AS lo,
    c.fy_end + 7 AS hi
FROM fiscal_years_by_id(TIMESTAMP '1970-01-01') c JOIN qv_epochs e ON e.pseudo_id = c.entity_id;

-- name: frames
-- 4. Frames: a fiscal year's span over a run of consecutive epochs that keep it, [f_from, f_until), listed under
-- each calendar year its span touches (for an equi-join with the facts).
CREATE OR REPLACE TEMP TABLE qv_frames AS
SELECT *, hash(entity_id) AS eh, unnest(range(greatest(year(lo), 1899), year(hi) + 1)) AS y
FROM (SELECT entity_id, fiscal_year, fy_start, fy_end, lo, hi, min(e_from) AS f_from, max(e_until) AS f_until,
          row_number() OVER () AS frame_id
      FROM (SELECT *, epoch_no - row_number() OVER (PARTITION BY entity_id, fiscal_year, fy_start, fy_end, lo, hi
                                                      ORDER BY epoch_no) AS run
            FROM qv_calendars)
      GROUP BY entity_id, fiscal_year, fy_start, fy_end, lo, hi, run);

-- name: parts
-- 5. Each fact version placed and labelled in each frame its period falls in and it was known in (fiscal_facts_by_id's
-- rules): its slot (1-4 quarters, 5-8 instants at their ends, 9 H1, 10 9M, 11 FY), its interval within the frame
-- [p_from, p_until), when its key appeared in the frame and the key's rank among those of its label (the QUALIFY's
-- order as one number: distance to the year's start or end, then the latest end, the latest start). These are the
-- parts (each slot's figure over time) but where several keys compete for a label (7 below).
CREATE OR REPLACE TEMP TABLE qv_parts AS
WITH placed AS (
    SELECT v.*, prec, duration_class(v.period_start, v.period_end) AS kind,
        f.frame_id, f.fiscal_year, f.fy_start, f.fy_end, f.f_from, f.f_until,
        date_diff('day', f.fy_start, v.period_end) + 1 AS days_in,
        round((date_diff('day', f.fy_start, v.period_end) + 1) / 91.31)::INTEGER AS fq
    FROM qv_facts v JOIN (SELECT fid, prec FROM qv_filings) USING (fid)
    JOIN qv_frames f ON f.eh = v.eh AND f.y = year(v.period_end)
     AND v.period_end > f.lo AND v.period_end <= f.hi AND v.v_from < f.f_until
     -- (a version gone before the frame counts only as its key's first)
     AND (v.v_until > f.f_from OR v.v_from = v.first_seen)
)
SELECT frame_id, gh, additive, fiscal_year, period_start, period_end, value, fid, prec, v_from AS accepted_at,
    v_from = first_seen AS is_first, f_from, f_until,
    CASE kind WHEN 'quarter' THEN fq WHEN 'instant' THEN 4 + fq WHEN 'half' THEN 9 WHEN 'nine_months' THEN 10
              ELSE 11 END AS slot,
    greatest(v_from, f_from) AS p_from, least(v_until, f_until) AS p_until, greatest(first_seen, f_from) AS appear,
    coalesce(CASE WHEN kind IN ('year', 'nine_months', 'half') THEN abs(date_diff('day', fy_start, period_start))
                  WHEN kind = 'instant' AND fq = 4 THEN abs(date_diff('day', fy_end, period_end)) END, 0) * 68719476736
        + (131072 - date_diff('day', DATE '1900-01-01', period_end)) * 262144
        + (131072 - coalesce(date_diff('day', DATE '1900-01-01', period_start), 0)) AS rk
FROM placed
WHERE CASE
    WHEN kind IN ('year', 'nine_months', 'half') THEN abs(date_diff('day', fy_start, period_start)) <= 7
    ELSE fq BETWEEN 1 AND 4 AND abs(days_in - fq * 91.31) <= 10 END;

-- name: contested
-- 6. Labels several keys compete for (few), and of those keys the one each names at each moment,
-- [w_from, w_until): a key from its appearance if it outranks every key that appeared before it.
CREATE OR REPLACE TEMP TABLE qv_contested AS
SELECT frame_id, gh, slot FROM qv_parts WHERE is_first GROUP BY ALL HAVING count(*) > 1;

-- name: winners
CREATE OR REPLACE TEMP TABLE qv_winners AS
WITH records AS (
    SELECT * FROM qv_parts SEMI JOIN qv_contested USING (frame_id, gh, slot)
    WHERE is_first
    QUALIFY rk < coalesce(min(rk) OVER (PARTITION BY frame_id, gh, slot ORDER BY appear, rk
                                        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 9223372036854775807)
)
SELECT frame_id, gh, slot, period_start, period_end, appear AS w_from,
    coalesce(lead(appear) OVER (PARTITION BY frame_id, gh, slot ORDER BY appear), f_until) AS w_until
FROM records;

-- name: contested_parts
-- 7. A contested label's parts: its versions crossed with its winners, in place of its versions as placed (a
-- version of no interval is kept elsewhere only as its key's first: it overlaps nothing).
CREATE OR REPLACE TEMP TABLE qv_contested_parts AS
SELECT * EXCLUDE (w_from, w_until) REPLACE (greatest(p_from, w_from) AS p_from, least(p_until, w_until) AS p_until)
FROM (SELECT p.*, w.w_from, w.w_until FROM qv_parts p
      JOIN qv_winners w ON w.frame_id = p.frame_id AND w.gh = p.gh AND w.slot = p.slot
       AND w.period_end = p.period_end AND w.period_start IS NOT DISTINCT FROM p.period_start)
WHERE greatest(p_from, w_from) < least(p_until, w_until);

-- name: uncontested
DELETE FROM qv_parts p USING qv_contested c WHERE p.frame_id = c.frame_id AND p.gh = c.gh AND p.slot = c.slot;

-- name: recontested
INSERT INTO qv_parts SELECT * FROM qv_contested_parts;

-- name: groups
-- 8. Per frame, concept and unit (gh): when each slot is first filled ('infinity': never); d0, when the first
-- duration is (quarters read instants only while the year has no duration: bool_and(kind = 'instant')).
CREATE OR REPLACE TEMP TABLE qv_groups AS
SELECT frame_id, gh, bool_and(additive) AS additive, any_value(f_until) AS f_until,
    coalesce(min(p_from) FILTER (slot = 2), 'infinity'::TIMESTAMP) AS a2,
    coalesce(min(p_from) FILTER (slot = 3), 'infinity'::TIMESTAMP) AS a3,
    coalesce(min(p_from) FILTER (slot = 4), 'infinity'::TIMESTAMP) AS a4,
    coalesce(min(p_from) FILTER (slot = 11), 'infinity'::TIMESTAMP) AS a11,
    coalesce(min(p_from) FILTER (slot NOT BETWEEN 5 AND 8), 'infinity'::TIMESTAMP) AS d0
FROM qv_parts GROUP BY frame_id, gh;

-- name: derived
-- 9. Derived quarters in each frame: Q2 = H1 - Q1 before Q2 is reported, Q3 = 9M - H1 before Q3 is, Q4 = FY - 9M
-- (same start) before Q4 is, else FY - (Q1 + Q2 + Q3) (Q1 starting with the year) where and while FY - 9M does not
-- hold. Each with known_at (its newest part's acceptance) and the filing of its first part known then.
CREATE OR REPLACE TEMP TABLE qv_derived AS
WITH pairs AS MATERIALIZED (
    -- a the minuend, b the subtrahend; [t_from, t_until) not yet clipped to the reported quarter's arrival
    SELECT a.frame_id, a.gh, a.fiscal_year, a.f_from, a.f_until,
        a.slot - 7 AS fiscal_quarter, greatest(a.p_from, b.p_from) AS t_from, least(a.p_until, b.p_until) AS t_until,
        CASE a.slot WHEN 9 THEN g.a2 WHEN 10 THEN g.a3 ELSE g.a4 END AS reported_at,
        b.period_end + 1 AS period_start, a.period_end, a.value - b.value AS value,
        CASE a.slot WHEN 9 THEN 'H1 - Q1' WHEN 10 THEN '9M - H1' ELSE 'FY - 9M' END AS formula,
        greatest(a.accepted_at, b.accepted_at) AS known_at,
        CASE WHEN a.accepted_at >= b.accepted_at THEN a.fid ELSE b.fid END AS fid, least(a.prec, b.prec) AS prec
    FROM qv_parts a JOIN qv_groups g USING (frame_id, gh)
    JOIN qv_parts b ON b.frame_id = a.frame_id AND b.gh = a.gh AND b.slot = CASE a.slot WHEN 9 THEN 1 WHEN 10 THEN 9
                                                                                         ELSE 10 END
     AND b.period_start = a.period_start AND a.p_from < b.p_until AND b.p_from < a.p_until
    WHERE a.slot IN (9, 10, 11) AND g.additive
      -- (a part first known once Q2 or Q3 is reported derives nothing; FY - 9M also bars FY - (Q1 + Q2 + Q3))
      AND (a.slot = 11 OR (a.p_from < CASE a.slot WHEN 9 THEN g.a2 ELSE g.a3 END
                           AND b.p_from < CASE a.slot WHEN 9 THEN g.a2 ELSE g.a3 END))
), derived AS MATERIALIZED (
    SELECT * EXCLUDE (reported_at) REPLACE (least(t_until, reported_at) AS t_until) FROM pairs
    WHERE t_from < least(t_until, reported_at)
), bad AS (
    -- the years where FY - (Q1 + Q2 + Q3) may hold: FY known before Q4 is reported, and FY - 9M not holding all
    -- along from FY's arrival to the frame's end (or Q4's report)
    SELECT g.frame_id, g.gh FROM qv_groups g LEFT JOIN (
        SELECT frame_id, gh, min(t_from) AS c_from, max(t_until) AS c_until,
            sum(epoch_us(least(t_until, TIMESTAMP '9000-01-01')) - epoch_us(t_from)) AS c_length
        FROM pairs WHERE fiscal_quarter = 4 GROUP BY ALL) c USING (frame_id, gh)
    WHERE g.additive AND g.a11 < g.a4
      AND NOT coalesce(c.c_from = g.a11 AND c.c_until >= least(g.f_until, g.a4)
                       AND c.c_length = epoch_us(least(c.c_until, TIMESTAMP '9000-01-01')) - epoch_us(c.c_from), false)
), gaps AS (
    -- in those, the times FY - 9M does not hold: the gaps between its runs
    SELECT * FROM (
        SELECT frame_id, gh, coalesce(lag(t_until) OVER w, '-infinity'::TIMESTAMP) AS gap_from, t_from AS gap_until
        FROM pairs SEMI JOIN bad USING (frame_id, gh) WHERE fiscal_quarter = 4
        WINDOW w AS (PARTITION BY frame_id, gh ORDER BY t_from)
        UNION ALL
        SELECT frame_id, gh, coalesce(max(t_until), '-infinity'::TIMESTAMP), 'infinity'::TIMESTAMP
        FROM bad LEFT JOIN (SELECT * FROM pairs WHERE fiscal_quarter = 4) USING (frame_id, gh)
        GROUP BY ALL)
    WHERE gap_from < gap_until
), resolved AS (
    -- in those, Q1 to Q3 as reported or derived
    SELECT frame_id, gh, slot AS fiscal_quarter, p_from AS t_from, p_until AS t_until, period_start, period_end,
        value, accepted_at AS known_at, fid, prec
    FROM qv_parts SEMI JOIN bad USING (frame_id, gh) WHERE slot BETWEEN 1 AND 3
    UNION ALL
    SELECT frame_id, gh, fiscal_quarter, t_from, t_until, period_start, period_end, value, known_at, fid, prec
    FROM derived SEMI JOIN bad USING (frame_id, gh) WHERE fiscal_quarter IN (2, 3)
), sums AS (
    -- FY - (Q1 + Q2 + Q3): the year and the three quarters known together, in a gap of FY - 9M
    SELECT y.frame_id, y.gh, y.fiscal_year, y.f_from, y.f_until, 4 AS fiscal_quarter,
        greatest(y.p_from, q1.t_from, q2.t_from, q3.t_from, h.gap_from) AS t_from,
        least(y.p_until, q1.t_until, q2.t_until, q3.t_until, h.gap_until, g.a4) AS t_until,
        q3.period_end + 1 AS period_start, y.period_end, y.value - q1.value - q2.value - q3.value AS value,
        'FY - (Q1 + Q2 + Q3)' AS formula,
        greatest(y.accepted_at, q1.known_at, q2.known_at, q3.known_at) AS known_at,
        -- the filing of the first part known last, in the order FY, Q1, Q2's parts, Q3's parts
        CASE greatest(y.accepted_at, q1.known_at, q2.known_at, q3.known_at)
            WHEN y.accepted_at THEN y.fid WHEN q1.known_at THEN q1.fid WHEN q2.known_at THEN q2.fid ELSE q3.fid
        END AS fid,
        least(y.prec, q1.prec, q2.prec, q3.prec) AS prec
    FROM gaps h JOIN qv_groups g USING (frame_id, gh)
    JOIN qv_parts y ON y.frame_id = h.frame_id AND y.gh = h.gh AND y.slot = 11
     AND y.p_from < least(h.gap_until, g.a4) AND h.gap_from < y.p_until
    JOIN resolved q1 ON q1.frame_id = y.frame_id AND q1.gh = y.gh AND q1.fiscal_quarter = 1
     AND q1.period_start = y.period_start AND q1.t_from < y.p_until AND y.p_from < q1.t_until
    JOIN resolved q2 ON q2.frame_id = y.frame_id AND q2.gh = y.gh AND q2.fiscal_quarter = 2
     AND q2.t_from < least(y.p_until, q1.t_until) AND greatest(y.p_from, q1.t_from) < q2.t_until
    JOIN resolved q3 ON q3.frame_id = y.frame_id AND q3.gh = y.gh AND q3.fiscal_quarter = 3
     AND q3.t_from < least(y.p_until, q1.t_until, q2.t_until) AND greatest(y.p_from, q1.t_from, q2.t_from) < q3.t_until
)
SELECT * FROM derived
UNION ALL BY NAME
SELECT * FROM sums WHERE t_from < t_until;

-- name: forget
-- The touched entities' versions go, to be computed anew from all their reports.
DELETE FROM quarter_versions WHERE entity_id IN (SELECT entity_id FROM _touched);

-- name: forget_newest
DELETE FROM newest_quarters WHERE entity_id IN (SELECT entity_id FROM _touched);

-- name: versions
-- 10. Versions: reported quarters as their parts are (instants while the year has no duration), derived ones as
-- above; a figure a calendar change keeps (a piece at a frame's bound continued by an equal one) is one version
-- (within a frame a piece always differs from the one before: a new part is a newer acceptance). Each version's
-- newest_until: from when four later period ends of its concept and unit are known for good, so that it is never
-- among the four newest quarters a panel reads (NULL: it may always be); accepted_precision: the coarsest of its
-- parts' filings'.
INSERT INTO quarter_versions
WITH pieces AS (
    SELECT p.gh, fiscal_year, f_from, f_until,
        CASE WHEN slot > 4 THEN slot - 4 ELSE slot END AS fiscal_quarter, p_from AS t_from,
        CASE WHEN slot > 4 AND m.d0 IS NOT NULL THEN least(p_until, m.d0) ELSE p_until END AS t_until,
        period_start, period_end, value, NULL::VARCHAR AS formula, accepted_at AS known_at, fid, prec
    FROM qv_parts p
    -- (the years of a concept with instants and durations, rare: read d0 from the few)
    LEFT JOIN (SELECT frame_id, gh, d0 FROM qv_groups WHERE d0 < 'infinity'::TIMESTAMP) m
      ON p.slot > 4 AND m.frame_id = p.frame_id AND m.gh = p.gh
    WHERE p.slot <= 8 AND p.p_from < p.p_until AND (p.slot <= 4 OR m.d0 IS NULL OR p.p_from < m.d0)
    UNION ALL BY NAME
    SELECT * EXCLUDE (frame_id) FROM qv_derived
), bounded AS (
    SELECT * EXCLUDE (f_from, f_until),
        (t_from = f_from AND f_from > '-infinity'::TIMESTAMP) OR (t_until = f_until AND f_until < 'infinity'::TIMESTAMP)
            AS bound
    FROM pieces
), linked AS (
    -- at frames' bounds: whether a piece continues the one before with the same figure, or is so continued
    SELECT *,
        coalesce(lag(figure) OVER w IS NOT DISTINCT FROM figure AND lag(t_until) OVER w = t_from, false) AS continues,
        coalesce(lead(figure) OVER w IS NOT DISTINCT FROM figure AND lead(t_from) OVER w = t_until, false) AS continued
    FROM (SELECT *, {'s': period_start, 'e': period_end, 'v': value, 'f': formula, 'k': known_at, 'i': fid,
                     'p': prec} AS figure
          FROM bounded WHERE bound)
    WINDOW w AS (PARTITION BY gh, fiscal_year, fiscal_quarter ORDER BY t_from)
), runs AS (
    -- a run's first piece takes its last one's end
    SELECT * REPLACE (CASE WHEN continued THEN lead(t_until) OVER (
                          PARTITION BY gh, fiscal_year, fiscal_quarter ORDER BY t_from)
                      ELSE t_until END AS t_until)
    FROM linked WHERE NOT (continues AND continued)
), final AS (
    SELECT * FROM (SELECT * EXCLUDE (bound) FROM bounded WHERE NOT bound
                   UNION ALL BY NAME
                   SELECT * EXCLUDE (bound, figure, continues, continued) FROM runs WHERE NOT continues)
), islands AS (
    -- per concept, unit and period end, whether a version starts a run of time with one of them known
    SELECT gh, period_end, t_from, t_until,
        t_from > coalesce(max(t_until) OVER (PARTITION BY gh, period_end ORDER BY t_from
                                             ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), '-infinity'::TIMESTAMP)
            AS starts
    FROM final
), ends AS (
    -- each period end known for good from `settled` (the start of its last run, if that run never ends)
    SELECT gh, period_end,
        CASE WHEN max(t_until) = 'infinity'::TIMESTAMP THEN max(t_from) FILTER (starts) END AS settled
    FROM islands GROUP BY ALL
), cuts AS (
    -- from when four later period ends are known for good: no four newest quarters include this one after it
    SELECT gh, period_end, CASE WHEN count(settled) OVER w = 4 THEN max(settled) OVER w END AS cut
    FROM ends
    WINDOW w AS (PARTITION BY gh ORDER BY period_end DESC ROWS BETWEEN 4 PRECEDING AND 1 PRECEDING)
)
SELECT k.entity_id, coalesce(t.tag, k.item) AS concept, k.metric, k.unit, fiscal_year, fiscal_quarter,
    period_start, period_end, value, formula IS NOT NULL AS derived, formula, f.filing_id, known_at AS accepted_at,
    ['date', 'minute', 'second'][v.prec] AS accepted_precision, t_from AS known_from,
    nullif(t_until, 'infinity'::TIMESTAMP) AS known_until,
    nullif(greatest(t_from, least(t_until, coalesce(c.cut, 'infinity'::TIMESTAMP))), 'infinity'::TIMESTAMP)
        AS newest_until,
    k.unit_rank
FROM final v JOIN cuts c USING (gh, period_end) JOIN qv_keys k USING (gh) JOIN qv_filings f USING (fid)
LEFT JOIN qv_tags t USING (gh, fid);

-- name: lines
-- 11. The panel's cells (newest_quarters): per entity and line item (a concept's versions, or a metric's own), its
-- newest quarter and TTM from each moment they may change (each version's known_from and newest_until). The versions
-- alive at a moment (known then and still among the four newest: known_from <= m < newest_until) give it: per unit
-- the newest period, of the units the newest period then unit_rank; the TTM, the sum of that unit's four newest
-- where they are consecutive fiscal quarters of a duration in a unit that adds up (a sum of four quarters' EPS is not
-- the twelve months'). A row holds until the next of its entity and item; a row of NULLs: nothing known.
-- These blocks run for a part of the touched entities at a time (_within: memory follows the part). Here their
-- versions, each with its key as numbers (ek: entity and item; uk: the unit, its unit_rank, one per unit of an item)
-- and its rowid as id.
CREATE OR REPLACE TEMP TABLE qv_lines AS
SELECT rowid AS id, hash(entity_id, coalesce(metric, concept)) AS ek, unit_rank AS uk,
    coalesce(newest_until, 'infinity'::TIMESTAMP) AS nu,
    date_diff('day', DATE '1900-01-01', period_end) * 1024 - unit_rank AS place,
    fiscal_year * 4 + fiscal_quarter AS qno, period_start IS NOT NULL AND is_additive_unit(unit) AS adds,
    coalesce(metric, concept) AS item, * EXCLUDE (metric, formula, known_until, newest_until, unit_rank)
FROM quarter_versions WHERE entity_id IN (SELECT entity_id FROM _within);

-- name: alive
-- Each moment with the versions alive at it (none: one row of NULLs).
CREATE OR REPLACE TEMP TABLE qv_alive AS
SELECT m.ek, m.m, v.uk, v.place, v.id, v.period_end, v.qno, v.value, v.period_start, v.adds
FROM (SELECT DISTINCT ek, unnest([known_from, nu]) AS m FROM qv_lines) m
LEFT JOIN qv_lines v ON v.ek = m.ek AND v.known_from <= m.m AND m.m < v.nu
WHERE m.m < 'infinity'::TIMESTAMP;

-- name: states
-- Per moment, the newest version (id) and the TTM.
CREATE OR REPLACE TEMP TABLE qv_states AS
WITH units AS (
    -- per moment and unit: the newest; and the four newest's figures (of more than four, rare, counted apart)
    SELECT ek, m, uk, count(id) AS n, max(place) AS place, arg_max(id, period_end) AS id, sum(value) AS total,
        max(qno) - min(qno) AS span, bool_and(adds) AS adds, min(period_start) AS start
    FROM qv_alive GROUP BY ek, m, uk
), fours AS (
    SELECT * FROM units WHERE n <= 4
    UNION ALL
    SELECT ek, m, uk, count(*), max(place), arg_max(id, period_end), sum(value), max(qno) - min(qno), bool_and(adds),
        min(period_start)
    FROM (SELECT * FROM qv_alive SEMI JOIN (SELECT ek, m, uk FROM units WHERE n > 4) USING (ek, m, uk)
          QUALIFY row_number() OVER (PARTITION BY ek, m, uk ORDER BY period_end DESC) <= 4)
    GROUP BY ek, m, uk
)
SELECT ek, m, arg_max(id, place) AS id,
    CASE WHEN arg_max(n = 4 AND span = 3 AND adds, place) THEN arg_max(total, place) END AS ttm,
    CASE WHEN arg_max(n = 4 AND span = 3 AND adds, place) THEN arg_max(start, place) END AS ttm_start
FROM fours GROUP BY ek, m;

-- name: newest
INSERT INTO newest_quarters
SELECT i.entity_id, i.item, s.m AS known_from, v.concept, v.unit, v.fiscal_year, v.fiscal_quarter, v.period_start,
    v.period_end, v.value, v.derived, v.filing_id, f.form, v.accepted_at, v.accepted_precision, s.ttm, s.ttm_start
FROM qv_states s
-- (a hash shared by two entities and items would have mixed them: an error, never a wrong answer)
JOIN (SELECT ek, any_value(entity_id) AS entity_id,
          CASE WHEN min(hash(item, entity_id)) = max(hash(item, entity_id)) THEN any_value(item)
               ELSE error('newest_quarters: a hash collision; partition by the keys themselves') END AS item
      FROM qv_lines GROUP BY ek) i USING (ek)
LEFT JOIN qv_lines v ON v.id = s.id
LEFT JOIN (SELECT filing_id, form FROM filings WHERE entity_id IN (SELECT entity_id FROM _within)) f USING (filing_id);
