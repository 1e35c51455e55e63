-- The write plan's statements (factstore/write.py runs them, by name, inside one transaction). A loader's rows
-- are registered as _batch_filings, _batch_entities, _batch_reports, ...; {frame} and {concepts} name a frame or
-- table of factstore's own. Each block starts with `-- name:` and says in one line the rule it states.

-- name: filing_clash
-- A filing stored before must agree with the batch on time, form and company: the first that differs (or agrees).
SELECT b.filing_id, f.accepted_at, b.accepted_at, f.form, b.form, f.entity_id, b.entity_id,
    f.accepted_at <> b.accepted_at OR f.form <> b.form OR f.entity_id <> b.entity_id AS differs
FROM _batch_filings b JOIN filings f USING (filing_id) ORDER BY differs DESC LIMIT 1;

-- name: early_filing
-- SEC data (the parameter): a periodic report accepted before its period ended is refused; the first, if any (the
-- filing's declared period: a fact may end later, as a cover's shares outstanding or a contract's dates do).
SELECT filing_id, form, period_end::DATE, accepted_at::TIMESTAMP, accepted_precision, accepted_note, source
FROM _batch_filings WHERE ? AND accepted_before_period(form, period_end, accepted_at) LIMIT 1;

-- name: insert_filings
-- A filing is stored once: the first load of an accession wins, and later ones leave it as it is.
INSERT INTO filings SELECT filing_id, entity_id, form, period_end::DATE, filed::DATE,
    accepted_at::TIMESTAMP, accepted_precision, accepted_note, source
FROM _batch_filings ON CONFLICT (filing_id) DO NOTHING RETURNING entity_id;

-- name: batch_known
-- Whether the store holds some of the batch's filings, and whether the XBRL feed's index lists some.
SELECT EXISTS (SELECT 1 FROM filings WHERE filing_id IN (SELECT filing_id FROM _batch_filings)),
    EXISTS (SELECT 1 FROM xbrl_feed WHERE accession IN (SELECT filing_id FROM _batch_filings));

-- name: retimed
-- SEC data: a stored filing the batch gives another time, or one of another precision ('date' < 'minute' <
-- 'second'). The more precise time must lie where the less precise allows (a filing date's fallback: by the end of
-- that day, of that filing date; a minute: within a minute either side, as timing.WINDOW; a second: that second);
-- `better`: the batch's is the more precise and replaces the stored row, whichever source came first; `fits`: the
-- two agree (else the load is refused). Registered as _retimed for retime_filings.
SELECT *, CASE lo.precision WHEN 'date' THEN hi.at <= lo.at AND (hi.filed IS NULL OR hi.filed = lo.filed)
                            WHEN 'minute' THEN abs(epoch(hi.at) - epoch(lo.at)) <= 60 ELSE hi.at = lo.at END AS fits
FROM (SELECT b.filing_id, f.accepted_at AS old_at, f.accepted_precision AS old_precision, f.source AS old_source,
          b.accepted_at::TIMESTAMP AS new_at, b.accepted_precision AS new_precision, b.source AS new_source,
          list_position(['date', 'minute', 'second'], b.accepted_precision)
              > list_position(['date', 'minute', 'second'], f.accepted_precision) AS better,
          {'at': f.accepted_at, 'precision': f.accepted_precision, 'filed': f.filed} AS stored,
          {'at': b.accepted_at::TIMESTAMP, 'precision': b.accepted_precision, 'filed': b.filed::DATE} AS given,
          CASE WHEN better THEN stored ELSE given END AS lo, CASE WHEN better THEN given ELSE stored END AS hi
      FROM _batch_filings b JOIN filings f USING (filing_id)
      WHERE b.accepted_precision <> f.accepted_precision OR b.accepted_at::TIMESTAMP <> f.accepted_at);

-- name: retime_filings
-- A better time replaces the stored filing's row, and every time copied from it (reports, XBRL facts, documents; a
-- period first known or declared from it is so from the better time, or the period's first report now).
UPDATE filings f SET form = b.form, period_end = b.period_end::DATE, filed = b.filed::DATE,
    accepted_at = b.accepted_at::TIMESTAMP, accepted_precision = b.accepted_precision, accepted_note = b.accepted_note,
    source = b.source
FROM _batch_filings b JOIN _retimed t USING (filing_id) WHERE f.filing_id = b.filing_id AND t.better;
UPDATE reports r SET accepted_at = t.new_at FROM _retimed t WHERE r.filing_id = t.filing_id AND t.better;
UPDATE xbrl_facts x SET accepted_at = t.new_at FROM _retimed t WHERE x.filing_id = t.filing_id AND t.better;
UPDATE documents d SET accepted_at = t.new_at FROM _retimed t WHERE d.doc_id = t.filing_id AND t.better;
UPDATE entity_periods p SET first_accepted_at = least(t.new_at, coalesce((SELECT min(r.accepted_at) FROM reports r
        WHERE r.entity_id = p.entity_id AND r.period_start = p.period_start AND r.period_end = p.period_end), t.new_at))
FROM _retimed t JOIN filings f USING (filing_id)
WHERE t.better AND p.entity_id = f.entity_id AND p.first_accepted_at = t.old_at;
UPDATE entity_periods p SET declared_at = t.new_at FROM _retimed t JOIN filings f USING (filing_id)
WHERE t.better AND p.entity_id = f.entity_id AND p.declared_at = t.old_at;

-- name: new_entities
-- Each batch entity as the store is to hold it, where new (`new`) or changed (registered as _entities for the inserts). A name weighs as of when it was stated,
-- the latest acceptance of the batch's filings of the entity (as stored, where stored; none: undated): the latest
-- wins, a dated one over an undated one, of two undated ones the batch's, of two at the same time the greater; every
-- other name it was given is among its other names, sorted, once each: whatever the order of loads, the entity ends
-- up the same.
WITH weighed AS (
    SELECT b.entity_id, e.entity_id IS NULL AS new, coalesce(b.cik, e.cik) AS cik, b.name AS given, s.said_at,
        e.name AS held, e.named_at, e.tickers AS held_tickers, b.tickers,
        list_concat(coalesce(e.other_names, []), coalesce(b.other_names::VARCHAR[], []), [b.name, e.name]) AS names,
        b.name IS NOT NULL AND (e.name IS NULL OR e.named_at IS NULL OR s.said_at > e.named_at
            OR (s.said_at = e.named_at AND b.name >= e.name)) AS takes
    FROM _batch_entities b LEFT JOIN entities e USING (entity_id) LEFT JOIN (
        SELECT b.entity_id::VARCHAR AS entity_id, max(coalesce(f.accepted_at, b.accepted_at::TIMESTAMP)) AS said_at
        FROM _batch_filings b LEFT JOIN filings f ON f.filing_id = b.filing_id::VARCHAR GROUP BY ALL) s USING (entity_id)
), merged AS (
    SELECT entity_id, new, cik, CASE WHEN takes THEN given ELSE held END AS name,
        CASE WHEN takes THEN said_at ELSE named_at END AS named_at, names,
        CASE WHEN new THEN tickers ELSE list_distinct(list_concat(held_tickers, coalesce(tickers, []))) END AS tickers
    FROM weighed
), named AS (
    SELECT entity_id, new, cik, name, named_at, tickers,
        list_sort(list_distinct(list_filter(names, lambda n: n IS NOT NULL AND n <> coalesce(name, '')))) AS others
    FROM merged
)
SELECT n.entity_id, n.new, n.cik, n.name, n.named_at, n.tickers, n.others AS other_names
FROM named n LEFT JOIN entities e USING (entity_id)
WHERE n.new OR n.cik IS DISTINCT FROM e.cik OR n.name IS DISTINCT FROM e.name OR n.named_at IS DISTINCT FROM e.named_at
    OR NOT list_has_all(e.tickers, coalesce(n.tickers, [])) OR n.others IS DISTINCT FROM e.other_names;

-- name: insert_new_entities
-- Entities all new to the store (nothing to conflict with, and DuckDB inserts faster without the clause).
INSERT INTO entities (entity_id, cik, name, named_at, tickers, other_names)
SELECT entity_id, cik, name, named_at, tickers, other_names FROM _entities;

-- name: insert_entities
-- New entities, and stored ones as new_entities weighed them.
INSERT INTO entities (entity_id, cik, name, named_at, tickers, other_names)
SELECT entity_id, cik, name, named_at, tickers, other_names FROM _entities
ON CONFLICT (entity_id) DO UPDATE SET cik = EXCLUDED.cik, name = EXCLUDED.name, named_at = EXCLUDED.named_at,
    tickers = EXCLUDED.tickers, other_names = EXCLUDED.other_names;

-- name: insert_aliases
-- An entity is known by its id, its CIK with and without zeros and its tickers; an alias stored already stays,
-- and one two entities of the batch share goes to the first, as if they were loaded one by one.
INSERT INTO entity_aliases
SELECT * FROM (
    SELECT upper(alias) AS alias, arg_min(entity_id, ord) FROM (
        SELECT unnest(list_concat([entity_id, cik::VARCHAR, sec_entity_id(cik)], tickers))
            AS alias, entity_id, ord FROM _batch_entities)
    WHERE alias IS NOT NULL AND alias <> '' GROUP BY upper(alias))
ANTI JOIN entity_aliases USING (alias);

-- name: keys_repeat
-- Whether some fact is given twice in one filing among the rows (equal keys hash alike).
SELECT count(*) > count(DISTINCT hash(filing_id, entity_id, concept, unit, period_start, period_end)) FROM {frame};

-- name: plain_reports
-- Rows taken as they are (fresh filings, no key repeated): a view of the batch.
CREATE TEMP VIEW _new_reports AS
SELECT filing_id::VARCHAR AS filing_id, entity_id::VARCHAR AS entity_id, concept::VARCHAR AS concept,
    unit::VARCHAR AS unit, period_start::DATE AS period_start, period_end::DATE AS period_end, value,
    false AS twice, accepted_at::TIMESTAMP AS accepted_at, form::VARCHAR AS form
FROM _batch_reports;

-- name: grouped_reports
-- One row per fact per filing (a value the file repeats is one report; `twice`: two values); SEC data (the
-- parameter, twice) takes the stored filing's time and form.
CREATE OR REPLACE TEMP TABLE _new_reports AS
SELECT b.filing_id::VARCHAR AS filing_id, b.entity_id::VARCHAR AS entity_id,
    b.concept::VARCHAR AS concept, b.unit::VARCHAR AS unit, b.period_start::DATE AS period_start,
    b.period_end::DATE AS period_end, min(b.value) AS value, min(b.value) <> max(b.value) AS twice,
    any_value(CASE WHEN ? THEN coalesce(f.accepted_at, b.accepted_at::TIMESTAMP)
                   ELSE b.accepted_at::TIMESTAMP END) AS accepted_at,
    any_value(CASE WHEN ? THEN coalesce(f.form, b.form::VARCHAR) ELSE b.form::VARCHAR END) AS form
FROM _batch_reports b LEFT JOIN filings f ON f.filing_id = b.filing_id::VARCHAR
GROUP BY ALL;

-- name: implausible_report
-- The first row of the batch whose value no filing could state, or whose period no filing could report (macros.sql:
-- implausible_value, impossible_period), and whether it is the value.
SELECT row, value, period_start::DATE, period_end::DATE, implausible_value(value) AS bad_value FROM _batch_reports
WHERE implausible_value(value) OR impossible_period(period_start::DATE, period_end::DATE)
ORDER BY row LIMIT 1;

-- name: implausible_xbrl
-- The same of an XBRL document's facts as stated (their exact text; the reader's bounds on a numeral's length and
-- scale leave none a double holds only as 0; a fact of no dates is for ever).
SELECT line, value, s, e, bad_value FROM (
    SELECT line, value, period_start::DATE AS s, period_end::DATE AS e,
        numeric AND value IS NOT NULL AND implausible_value(TRY_CAST(value AS DOUBLE)) AS bad_value
    FROM _batch_xbrl)
WHERE bad_value OR impossible_period(s, e)
ORDER BY line LIMIT 1;

-- name: given_twice
-- A fact given twice with different values in one filing, if any.
SELECT filing_id, concept, unit, period_start, period_end FROM _new_reports WHERE twice LIMIT 1;

-- name: rows_of_fact
-- The batch's first two rows of one fact of one filing (to name them in the error).
SELECT row FROM _batch_reports WHERE filing_id = ? AND concept::VARCHAR = ? AND unit::VARCHAR = ?
AND period_start::DATE IS NOT DISTINCT FROM ? AND period_end::DATE = ? ORDER BY row LIMIT 2;

-- name: same_facts
-- The fact key, stated once: a stored report or revision is of a new row's fact when filing, entity, concept,
-- unit and period agree (an instant's start is NULL); one row per stored version (kind: reports or revisions).
CREATE OR REPLACE TEMP TABLE _same AS
SELECT n.rowid AS new_row, k.value AS stored_value, k.kind FROM _new_reports n JOIN (
    SELECT filing_id, entity_id, concept, unit, period_start, period_end, value, 'reports' AS kind FROM reports
    WHERE filing_id IN (SELECT filing_id FROM _new_reports)
    UNION ALL
    SELECT filing_id, entity_id, concept, unit, period_start, period_end, value, 'revisions' FROM revisions
    WHERE filing_id IN (SELECT filing_id FROM _new_reports)) k
ON k.filing_id = n.filing_id AND k.entity_id = n.entity_id AND k.concept = n.concept AND k.unit = n.unit
    AND k.period_end = n.period_end AND k.period_start IS NOT DISTINCT FROM n.period_start;

-- name: contradicts_stored
-- A value contradicting what the same filing already reported for the same fact, if any.
SELECT n.filing_id, n.concept, n.period_end, s.stored_value, n.value
FROM _new_reports n JOIN _same s ON s.new_row = n.rowid
WHERE s.kind = 'reports' AND s.stored_value <> n.value LIMIT 1;

-- name: drop_stored_reports
-- A fact a filing already reported (with the same value) is not reported again.
DELETE FROM _new_reports WHERE rowid IN (SELECT new_row FROM _same WHERE kind = 'reports');

-- name: insert_reports
-- The reports added, as the loader gave them (SEC files come one company at a time, concept by concept).
INSERT INTO reports SELECT * EXCLUDE (twice) FROM _new_reports;

-- name: insert_reports_clustered
-- The reports added, clustered by entity, then concept.
INSERT INTO reports SELECT * EXCLUDE (twice) FROM _new_reports
ORDER BY entity_id, concept, period_end, period_start, accepted_at;

-- name: insert_new_periods
-- The periods of entities new in this batch (nothing stored to conflict with).
INSERT INTO entity_periods (entity_id, period_start, period_end, first_accepted_at, reports)
SELECT entity_id, period_start, period_end, min(accepted_at), count(*) FROM _new_reports
WHERE period_start IS NOT NULL GROUP BY ALL;

-- name: insert_periods
-- An entity's periods count their reports, and know when the first was accepted.
INSERT INTO entity_periods (entity_id, period_start, period_end, first_accepted_at, reports)
SELECT entity_id, period_start, period_end, min(accepted_at), count(*) FROM _new_reports
WHERE period_start IS NOT NULL GROUP BY ALL
ON CONFLICT DO UPDATE SET reports = reports + EXCLUDED.reports,
    first_accepted_at = least(first_accepted_at, EXCLUDED.first_accepted_at);

-- name: insert_concepts
-- Every concept of the reports added is known by its taxonomy and name (a dimensional key by its concept).
INSERT INTO concepts
SELECT concept, split_part(concept, ':', 1), split_part(concept, ':', 2)
FROM (SELECT DISTINCT split_part(concept::VARCHAR, '|', 1) AS concept FROM {concepts})
ANTI JOIN concepts USING (concept);

-- name: loaded_before
-- The accessions of the new rows that their entity has loaded before, and whether the batch fills each (adds the
-- facts the store lacks): a source listing filings whole (the parameter: FSDS, XBRL) fills every one, companyfacts
-- those no companyfacts file listed (the SEC edits old filings in place: what a later file adds is a revision).
CREATE OR REPLACE TEMP TABLE _loaded AS SELECT DISTINCT filing_id, entity_id,
    ? OR filing_id NOT IN (SELECT filing_id FROM vintage_accessions) AS fills
FROM reports WHERE filing_id IN (SELECT filing_id FROM _new_reports);

-- name: no_revisions
-- Nothing of these accessions stored before: nothing revised.
CREATE OR REPLACE TEMP TABLE _revised AS FROM revisions LIMIT 0;

-- name: revised
-- A value of an accession loaded before that the store has not known for that fact (the SEC edits old filings in
-- place) is a revision, learned now (parameters: source, fills); an accession the batch fills (_loaded) is revised
-- only in a fact the store has a value for, and a source listing filings whole (FSDS) keeps 4 decimals.
CREATE OR REPLACE TEMP TABLE _revised AS
SELECT filing_id, entity_id, concept, unit, period_start, period_end, value, now() AT TIME ZONE 'UTC', ?
FROM _new_reports n JOIN _loaded l USING (filing_id, entity_id)
WHERE NOT EXISTS (SELECT 1 FROM _same s WHERE s.new_row = n.rowid
    AND (s.stored_value = n.value OR (? AND round(s.stored_value, 4) = n.value)
         OR (l.fills AND round(n.value, 4) = s.stored_value)))
AND (NOT l.fills OR EXISTS (SELECT 1 FROM _same s WHERE s.new_row = n.rowid));

-- name: refined
-- A value FSDS gave rounded to 4 decimals takes the exact value of the same fact that a source filling the accession
-- gives, as if that source had been loaded first.
UPDATE reports r SET value = n.value FROM (SELECT n.* FROM _new_reports n JOIN _loaded l USING (filing_id, entity_id)
                                           WHERE l.fills) n
WHERE r.filing_id = n.filing_id AND r.entity_id = n.entity_id AND r.concept = n.concept AND r.unit = n.unit
    AND r.period_end = n.period_end AND r.period_start IS NOT DISTINCT FROM n.period_start
    AND r.value = round(n.value, 4) AND r.value <> n.value;

-- name: insert_revisions
-- Revisions are kept beside the reports, never read by as-of queries.
INSERT INTO revisions SELECT * FROM _revised;

-- name: keep_stored
-- The facts of an accession loaded before are not loaded again; of one the batch fills, only those the store has a
-- report of.
DELETE FROM _new_reports n WHERE EXISTS (
    SELECT 1 FROM _loaded l WHERE l.filing_id = n.filing_id AND l.entity_id = n.entity_id
    AND (NOT l.fills OR n.rowid IN (SELECT new_row FROM _same WHERE kind = 'reports')));

-- name: insert_documents
-- New documents with their parsed text (stored ones are left alone by the caller).
INSERT INTO documents SELECT doc_id, entity_id, issuer, kind, form, period_end::DATE, year::INTEGER,
    accepted_at::TIMESTAMP, title, raw, text FROM _batch_documents;

-- name: insert_declared_years
-- A fiscal year a filing declares is a period of its entity of no reports, known from the filing's acceptance (as
-- the store holds it: the best time known), declared then (a period also reported keeps its count, and is known from
-- whichever came first).
INSERT INTO entity_periods (entity_id, period_start, period_end, first_accepted_at, reports, declared_at)
SELECT entity_id, fy_start, fy_end, known, 0, known FROM (
    SELECT b.entity_id, b.fy_start::DATE AS fy_start, b.fy_end::DATE AS fy_end,
        min(coalesce(f.accepted_at, b.accepted_at::TIMESTAMP)) AS known
    FROM _batch_declared b LEFT JOIN filings f USING (filing_id) GROUP BY ALL)
ON CONFLICT DO UPDATE SET first_accepted_at = least(first_accepted_at, EXCLUDED.first_accepted_at),
    declared_at = least(coalesce(declared_at, EXCLUDED.declared_at), EXCLUDED.declared_at);

-- name: insert_approximate
-- A period FSDS gave only as calendar months is listed once per entity.
INSERT INTO approximate_periods SELECT DISTINCT entity_id, period_start::DATE, period_end::DATE,
    source FROM _batch_approximate b WHERE NOT EXISTS (SELECT 1 FROM approximate_periods a
    WHERE a.entity_id = b.entity_id AND a.period_end = b.period_end::DATE
    AND a.period_start IS NOT DISTINCT FROM b.period_start::DATE);

-- name: insert_xbrl_facts
-- A filing's XBRL facts are stored once: the first load of them wins, and later ones leave them as they are; each
-- takes its filing's time as stored (the batch's, or a better one the store held).
INSERT INTO xbrl_facts SELECT b.filing_id, b.entity_id, fact_id, copies, context_id, concept, namespace, dims,
    b.period_start::DATE, b.period_end::DATE, unit, value, decimals, numeric, inconsistent, line,
    coalesce(f.accepted_at, b.accepted_at::TIMESTAMP)
FROM _batch_xbrl b LEFT JOIN filings f USING (filing_id)
WHERE b.filing_id NOT IN (SELECT filing_id FROM xbrl_facts) RETURNING entity_id;

-- name: known_filings
-- The filings a document may be of: the company's stored ones and the one stored under its accession, and those the
-- XBRL feed lists for its CIK or accession that are not stored (with the feed's time, to the second).
SELECT filing_id, entity_id, form, period_end, filed, accepted_at, accepted_precision, accepted_note, source
FROM filings WHERE entity_id = $entity OR filing_id = $accession
UNION ALL
SELECT accession, sec_entity_id(cik), form, period, filed, accepted_at, accepted_precision, accepted_note,
    'EDGAR XBRL feed ' || source
FROM xbrl_feed WHERE (cik = $cik OR accession = $accession) AND accession NOT IN (SELECT filing_id FROM filings);

-- name: xbrl_to_fetch
-- The feed's filings whose XBRL the store lacks (of these CIKs, filed in [since, until]; NULL: any), oldest first.
SELECT accession, cik, form, files FROM xbrl_feed
WHERE ($ciks IS NULL OR list_contains($ciks, cik)) AND ($since IS NULL OR filed >= $since::DATE)
    AND ($until IS NULL OR filed <= $until::DATE) AND accession NOT IN (SELECT filing_id FROM xbrl_facts)
ORDER BY accepted_at, accession;

-- name: early_feed
-- A listing of a periodic report accepted before its period ended is refused (as early_filing); the first, if any.
SELECT accession, item, form, period::DATE, accepted_local::TIMESTAMP FROM _batch_feed
WHERE accepted_before_period(form, period, accepted_at) ORDER BY item LIMIT 1;

-- name: feed_clash
-- An accession the index holds that the batch lists with another CIK, form, period or acceptance time, if any
-- (listed alike, it is indexed once).
SELECT b.accession, b.item, b.cik, b.form, b.period::DATE, b.accepted_local::TIMESTAMP, x.source, x.cik, x.form,
    x.period, x.accepted_local,
    CASE WHEN b.cik <> x.cik THEN 'edgar:cikNumber' WHEN b.form <> x.form THEN 'edgar:formType'
         WHEN b.period::DATE IS DISTINCT FROM x.period THEN 'edgar:period' ELSE 'edgar:acceptanceDatetime' END
FROM _batch_feed b JOIN xbrl_feed x USING (accession)
WHERE b.cik <> x.cik OR b.form <> x.form OR b.period::DATE IS DISTINCT FROM x.period
    OR b.accepted_local::TIMESTAMP <> x.accepted_local
ORDER BY b.item LIMIT 1;

-- name: feed_filing_clash
-- A filing the store holds that the XBRL feed lists ({listed}: the batch's listing, or the index's of the batch's
-- filings) as another company's, or as another form, if any.
SELECT b.accession, {item}, b.cik, b.form, f.entity_id, f.form, f.source,
    CASE WHEN f.entity_id <> sec_entity_id(b.cik) THEN 'edgar:cikNumber' ELSE 'edgar:formType' END
FROM {listed} b JOIN filings f ON f.filing_id = b.accession
WHERE f.entity_id <> sec_entity_id(b.cik) OR upper(f.form) <> upper(b.form)
ORDER BY 2 LIMIT 1;

-- name: feed_filings
-- The stored filings the XBRL feed lists ({listed}), with the time it lists (to the second): weighed against the
-- stored (retimed), whichever was loaded first.
SELECT f.filing_id, f.entity_id, f.form, f.period_end, b.filed::DATE AS filed, b.accepted_at::TIMESTAMP AS accepted_at,
    b.accepted_precision, b.accepted_note, b.source
FROM {listed} b JOIN filings f ON f.filing_id = b.accession;

-- name: insert_xbrl_feed
-- A filing the feed lists is indexed once: an accession listed again alike (feed_clash refuses one listed otherwise)
-- keeps the row first loaded.
INSERT INTO xbrl_feed SELECT accession, cik, company, form, period::DATE, fiscal_year_end, filed::DATE,
    accepted_at::TIMESTAMP, accepted_local::TIMESTAMP, accepted_precision, accepted_note, files, source
FROM _batch_feed ON CONFLICT (accession) DO NOTHING RETURNING accession;

-- name: insert_sales
-- The course's reference sales, once per company and quarter.
INSERT INTO sales_reference SELECT entity_id, quarter_end::DATE, sales_millions
FROM _batch_sales ON CONFLICT DO NOTHING;

-- name: insert_loads
-- One row per load that added something: its kind, sources and counts.
INSERT INTO loads SELECT now()::TIMESTAMP, * FROM {frame};

-- name: insert_ingested
-- What was ingested (an SEC item and its digest) is marked once.
INSERT OR IGNORE INTO ingested SELECT item, digest, entity_id, now()::TIMESTAMP, reports FROM {frame};

-- name: roster_digest
-- What entity_names are made of (factstore.names.known_entities: the entities, and the issuers and titles of the
-- documents) and the code that makes them (?), and whether entity_names were made of it.
SELECT digest, digest IN (SELECT digest FROM entity_names_digest) FROM (SELECT concat_ws(':', ?,
    (SELECT sum(hash(entity_id, cik, name, tickers, other_names)::HUGEINT) FROM entities),
    (SELECT sum(hash(issuer, entity_id, title)::HUGEINT)
     FROM (SELECT DISTINCT issuer, entity_id, title FROM documents WHERE issuer IS NOT NULL))) AS digest);

-- name: insert_vintage
-- The accessions a companyfacts file listed facts of (see loaded_before).
INSERT INTO vintage_accessions SELECT DISTINCT filing_id FROM _batch_reports ON CONFLICT DO NOTHING;

-- name: confirmed_exact
-- A period a source of exact dates reports (not FSDS) is no longer approximate for its entity.
DELETE FROM approximate_periods a WHERE EXISTS (SELECT 1 FROM _batch_reports b WHERE b.entity_id = a.entity_id
    AND b.period_end::DATE = a.period_end AND b.period_start::DATE IS NOT DISTINCT FROM a.period_start);

-- name: any_loose
-- Whether an entity of the batch (the parameter) has a period FSDS gave only approximately.
SELECT EXISTS (SELECT 1 FROM approximate_periods WHERE list_contains(?, entity_id));

-- name: per_share
-- FSDS gives a per-share value's unit as its currency: a fact of the batch's entities in a currency, of a concept the
-- entity reports per share in that currency, is that per-share fact.
CREATE OR REPLACE TEMP TABLE _moved AS
SELECT r.rowid AS row, r.filing_id, r.entity_id, r.concept, r.value, k.unit AS new_unit, r.period_start AS new_start,
    r.period_end AS new_end
FROM reports r JOIN (SELECT DISTINCT entity_id, concept, unit, split_part(unit, '/', 1) AS currency FROM reports
                     WHERE entity_id IN (SELECT DISTINCT entity_id::VARCHAR FROM _batch_reports)
                     AND unit LIKE '%/shares') k ON k.entity_id = r.entity_id AND k.concept = r.concept
    AND k.currency = r.unit
WHERE r.entity_id IN (SELECT DISTINCT entity_id::VARCHAR FROM _batch_reports);

-- name: loose_facts
-- The facts of the batch's entities placed at an approximate period (FSDS's calendar months), with FSDS's month end
-- and number of quarters, to be placed again among the periods the store now knows exactly.
CREATE OR REPLACE TEMP TABLE _loose AS
SELECT r.rowid AS row, r.filing_id, r.entity_id, r.concept, r.unit, r.value, r.period_start, r.period_end AS ddate,
    CASE WHEN r.period_start IS NULL THEN 0
         ELSE round(date_diff('month', r.period_start, r.period_end + 1) / 3)::INTEGER END AS qtrs
FROM reports r WHERE r.entity_id IN (SELECT DISTINCT entity_id::VARCHAR FROM _batch_reports)
AND EXISTS (SELECT 1 FROM approximate_periods a WHERE a.entity_id = r.entity_id AND a.period_end = r.period_end
    AND a.period_start IS NOT DISTINCT FROM r.period_start);

-- name: exact_known
-- The periods the loose facts' entities and filings are known to cover to the day.
CREATE OR REPLACE TEMP TABLE _exact AS SELECT * FROM exact_periods(
    (SELECT list(DISTINCT entity_id) FROM _loose), (SELECT list(DISTINCT filing_id) FROM _loose));

-- name: moved
-- A loose fact that a period known exactly now fits moves there, as if FSDS had been loaded after the source of it.
CREATE OR REPLACE TEMP TABLE _moved AS
SELECT l.row, l.filing_id, l.entity_id, l.concept, l.value, l.unit AS new_unit, p.period_start AS new_start,
    p.period_end AS new_end
FROM fsds_periods('_loose', '_exact') p JOIN _loose l USING (row) WHERE NOT p.approximate;

-- name: moved_revised
-- A moved fact the store holds already under its new key, with another value (FSDS keeps 4 decimals), is a
-- revision, learned now (parameter: source), as FSDS's value loaded after it would be.
INSERT INTO revisions SELECT m.filing_id, m.entity_id, m.concept, m.new_unit, m.new_start, m.new_end, m.value,
    now() AT TIME ZONE 'UTC', ?
FROM _moved m JOIN reports e ON e.filing_id = m.filing_id AND e.entity_id = m.entity_id AND e.concept = m.concept
    AND e.unit = m.new_unit AND e.period_end = m.new_end AND e.period_start IS NOT DISTINCT FROM m.new_start
WHERE e.value <> m.value AND round(e.value, 4) <> m.value;

-- name: moved_dropped
-- A moved fact the store holds already under its new key is not reported twice.
DELETE FROM reports WHERE rowid IN (SELECT m.row FROM _moved m JOIN reports e ON e.filing_id = m.filing_id
    AND e.entity_id = m.entity_id AND e.concept = m.concept AND e.unit = m.new_unit AND e.period_end = m.new_end
    AND e.period_start IS NOT DISTINCT FROM m.new_start);

-- name: moved_placed
-- The others take their new key.
UPDATE reports SET unit = m.new_unit, period_start = m.new_start, period_end = m.new_end FROM _moved m
WHERE reports.rowid = m.row;

-- name: uncounted_periods
-- The periods of the batch's entities, where facts moved, are counted anew: none is left but the years filings
-- declared...
DELETE FROM entity_periods WHERE entity_id IN (SELECT DISTINCT entity_id::VARCHAR FROM _batch_reports)
AND declared_at IS NULL;

-- name: declared_only
-- ...as they were declared...
UPDATE entity_periods SET reports = 0, first_accepted_at = declared_at
WHERE entity_id IN (SELECT DISTINCT entity_id::VARCHAR FROM _batch_reports);

-- name: recounted_periods
-- ...from their reports.
INSERT INTO entity_periods (entity_id, period_start, period_end, first_accepted_at, reports)
SELECT entity_id, period_start, period_end, min(accepted_at), count(*) FROM reports
WHERE entity_id IN (SELECT DISTINCT entity_id::VARCHAR FROM _batch_reports) AND period_start IS NOT NULL GROUP BY ALL
ON CONFLICT DO UPDATE SET reports = EXCLUDED.reports,
    first_accepted_at = least(first_accepted_at, EXCLUDED.first_accepted_at);

-- name: approximate_left
-- An approximate period no report is placed at any more is gone.
DELETE FROM approximate_periods a WHERE a.entity_id IN (SELECT DISTINCT entity_id::VARCHAR FROM _batch_reports)
AND NOT EXISTS (SELECT 1 FROM reports r WHERE r.entity_id = a.entity_id AND r.period_end = a.period_end
    AND r.period_start IS NOT DISTINCT FROM a.period_start);
