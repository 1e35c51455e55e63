-- The write plan's statements (factstore/write.py runs them, by name, inside one transaction). A loader's rows
-- are registered as _batch_filings, _batch_entities, _batch_reports, ...; {frame} and {concepts} name a frame or
-- table of factstore's own. Each block starts with `-- name:` and says in one line the rule it states.

-- name: filing_clash
-- A filing stored before must agree with the batch on time, form and company: the first that differs (or agrees).
SELECT b.filing_id, f.accepted_at, b.accepted_at, f.form, b.form, f.entity_id, b.entity_id,
    f.accepted_at <> b.accepted_at OR f.form <> b.form OR f.entity_id <> b.entity_id AS differs
FROM _batch_filings b JOIN filings f USING (filing_id) ORDER BY differs DESC LIMIT 1;

-- name: insert_filings
-- A filing is stored once: the first load of an accession wins, and later ones leave it as it is.
INSERT INTO filings SELECT filing_id, entity_id, form, period_end::DATE, filed::DATE,
    accepted_at::TIMESTAMP, accepted_precision, accepted_note, source
FROM _batch_filings ON CONFLICT (filing_id) DO NOTHING RETURNING entity_id;

-- name: new_entities
-- The batch's entities the store does not hold yet (new), and those it holds that the batch would change.
SELECT b.entity_id, e.entity_id IS NULL AS new FROM _batch_entities b LEFT JOIN entities e USING (entity_id)
WHERE e.entity_id IS NULL OR (b.cik IS NOT NULL AND b.cik IS DISTINCT FROM e.cik)
    OR (b.name IS NOT NULL AND b.name IS DISTINCT FROM e.name)
    OR NOT list_has_all(e.tickers, coalesce(b.tickers, [])) OR NOT list_has_all(e.other_names, coalesce(b.other_names, []));

-- name: insert_new_entities
-- Entities all new to the store (nothing to conflict with, and DuckDB inserts faster without the clause).
INSERT INTO entities SELECT entity_id, cik, name, tickers, coalesce(other_names::VARCHAR[], [])
FROM _batch_entities;

-- name: insert_entities
-- A stored entity gains the batch's tickers and names; a name it is no longer given joins its other names.
INSERT INTO entities SELECT entity_id, cik, name, tickers, coalesce(other_names::VARCHAR[], [])
FROM _batch_entities
ON CONFLICT (entity_id) DO UPDATE SET
    other_names = list_distinct(list_concat(other_names, EXCLUDED.other_names,
        CASE WHEN EXCLUDED.name IS DISTINCT FROM name AND EXCLUDED.name IS NOT NULL
             AND name IS NOT NULL THEN [name] END)),
    name = coalesce(EXCLUDED.name, name),
    tickers = list_distinct(list_concat(tickers, EXCLUDED.tickers)),
    cik = coalesce(EXCLUDED.cik, cik);

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
INSERT INTO entity_periods
SELECT entity_id, period_start, period_end, min(accepted_at), count(*) FROM _new_reports
WHERE period_start IS NOT NULL GROUP BY ALL;

-- name: insert_periods
-- An entity's periods count their reports, and know when the first was accepted.
INSERT INTO entity_periods
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
-- The accessions of the new rows that their entity has loaded before.
CREATE OR REPLACE TEMP TABLE _loaded AS SELECT DISTINCT filing_id, entity_id
FROM reports WHERE filing_id IN (SELECT filing_id FROM _new_reports);

-- name: no_revisions
-- Nothing of these accessions stored before: nothing revised.
CREATE OR REPLACE TEMP TABLE _revised AS FROM revisions LIMIT 0;

-- name: revised
-- A value of an accession loaded before that the store has not known for that fact (the SEC edits old filings in
-- place) is a revision, learned now (parameters: source, fills twice); a source that lists filings whole
-- (fills: FSDS) revises only a fact the store has a value for, and FSDS keeps 4 decimals.
CREATE OR REPLACE TEMP TABLE _revised AS
SELECT filing_id, entity_id, concept, unit, period_start, period_end, value, now() AT TIME ZONE 'UTC', ?
FROM _new_reports n SEMI JOIN _loaded USING (filing_id, entity_id)
WHERE NOT EXISTS (SELECT 1 FROM _same s WHERE s.new_row = n.rowid
    AND (s.stored_value = n.value OR (? AND round(s.stored_value, 4) = n.value)))
AND (NOT ? OR EXISTS (SELECT 1 FROM _same s WHERE s.new_row = n.rowid));

-- name: insert_revisions
-- Revisions are kept beside the reports, never read by as-of queries.
INSERT INTO revisions SELECT * FROM _revised;

-- name: keep_stored
-- The facts of an accession loaded before are not loaded again; with fills (the parameter), only those the
-- store has a report of.
DELETE FROM _new_reports n WHERE EXISTS (
    SELECT 1 FROM _loaded l WHERE l.filing_id = n.filing_id AND l.entity_id = n.entity_id) AND (NOT ? OR
    n.rowid IN (SELECT new_row FROM _same WHERE kind = 'reports'));

-- name: insert_documents
-- New documents with their parsed text (stored ones are left alone by the caller).
INSERT INTO documents SELECT doc_id, entity_id, issuer, kind, form, period_end::DATE, year::INTEGER,
    accepted_at::TIMESTAMP, title, raw, text FROM _batch_documents;

-- name: insert_declared_years
-- A fiscal year a filing declares is a period of its entity of no reports, known from the filing's acceptance (a
-- period also reported keeps its count, and is known from whichever came first).
INSERT INTO entity_periods SELECT entity_id, fy_start::DATE, fy_end::DATE, min(accepted_at)::TIMESTAMP, 0
FROM _batch_declared GROUP BY entity_id, fy_start, fy_end
ON CONFLICT DO UPDATE SET first_accepted_at = least(first_accepted_at, EXCLUDED.first_accepted_at);

-- name: insert_approximate
-- A period FSDS gave only as calendar months is listed once per entity.
INSERT INTO approximate_periods SELECT DISTINCT entity_id, period_start::DATE, period_end::DATE,
    source FROM _batch_approximate b WHERE NOT EXISTS (SELECT 1 FROM approximate_periods a
    WHERE a.entity_id = b.entity_id AND a.period_end = b.period_end::DATE
    AND a.period_start IS NOT DISTINCT FROM b.period_start::DATE);

-- name: insert_xbrl_facts
-- A filing's XBRL facts are stored once: the first load of them wins, and later ones leave them as they are.
INSERT INTO xbrl_facts SELECT filing_id, entity_id, fact_id, copies, context_id, concept, namespace, dims,
    period_start::DATE, period_end::DATE, unit, value, decimals, numeric, inconsistent, line, accepted_at::TIMESTAMP
FROM _batch_xbrl WHERE filing_id NOT IN (SELECT filing_id FROM xbrl_facts) RETURNING entity_id;

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

-- name: insert_xbrl_feed
-- A filing the feed lists is indexed once: an accession two archives list keeps the first one loaded.
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
