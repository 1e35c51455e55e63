-- factstore schema: every report of every fact, with the filing that reported it and when.
-- Times are TIMESTAMP in UTC. Applied by factstore.store on every open (idempotent).

-- Who reports: a ticker for course data, the 10-digit CIK for SEC data.
CREATE TABLE IF NOT EXISTS entities (
    entity_id VARCHAR PRIMARY KEY,
    cik BIGINT,
    name VARCHAR,
    tickers VARCHAR[],
    other_names VARCHAR[],              -- former names (SEC submissions) and other spellings of the name
    named_at TIMESTAMP                  -- when the name was stated: its latest filing's acceptance (NULL: unknown)
);
ALTER TABLE entities ADD COLUMN IF NOT EXISTS other_names VARCHAR[];  -- stores made before the column
ALTER TABLE entities ADD COLUMN IF NOT EXISTS named_at TIMESTAMP;  -- stores made before the column

-- Every code an entity can be asked by (upper-case tickers, CIK with and without zeros); names, former names,
-- acronyms and curated aliases are resolved by factstore.names.
CREATE TABLE IF NOT EXISTS entity_aliases (
    alias VARCHAR PRIMARY KEY,
    entity_id VARCHAR NOT NULL
);

-- Every key an entity is found by in SQL (entity_key), as factstore.names makes them for the API: kind 'cik', 'code'
-- (tickers, acronyms), 'name' (a name's words: in full, without legal suffixes, its first words; former names,
-- curated aliases), 'absent' (a curated alias of a company not held), 'suffix' (a legal suffix core_key drops).
-- A key of several entities is ambiguous; entity_id is NULL for an issuer with documents but no facts.
-- Rewritten by factstore.entity_names in the write that changes the entities or documents.
CREATE TABLE IF NOT EXISTS entity_names (
    kind VARCHAR NOT NULL,
    key VARCHAR NOT NULL,
    entity_id VARCHAR,
    label VARCHAR NOT NULL
);
CREATE TABLE IF NOT EXISTS entity_names_digest (digest VARCHAR);  -- what entity_names were made from

-- One row per filing: its form and the moment it became public.
CREATE TABLE IF NOT EXISTS filings (
    filing_id VARCHAR PRIMARY KEY,      -- course id_doc or SEC accession number
    entity_id VARCHAR NOT NULL,
    form VARCHAR NOT NULL,
    period_end DATE,
    filed DATE,
    accepted_at TIMESTAMP NOT NULL,     -- UTC
    accepted_precision VARCHAR NOT NULL CHECK (accepted_precision IN ('second', 'minute', 'date')),
    accepted_note VARCHAR,              -- how accepted_at was read or repaired
    source VARCHAR                      -- the file it was loaded from
);

-- One row per fact per filing, never updated: the raw material of every answer.
CREATE TABLE IF NOT EXISTS reports (
    filing_id VARCHAR NOT NULL,
    entity_id VARCHAR NOT NULL,
    concept VARCHAR NOT NULL,           -- qualified: 'us-gaap:Revenues'
    unit VARCHAR NOT NULL,
    period_start DATE,                  -- NULL for instants
    period_end DATE NOT NULL,
    value DOUBLE NOT NULL,
    accepted_at TIMESTAMP NOT NULL,     -- the filing's, copied for as-of scans
    form VARCHAR NOT NULL               -- the filing's
);

-- Every fact of the XBRL documents loaded, as stated: exact values (scale and sign applied), decimals, text facts,
-- nil (value NULL) and forever (no dates); numbers are also in reports, except inconsistent duplicates.
CREATE TABLE IF NOT EXISTS xbrl_facts (
    filing_id VARCHAR NOT NULL,
    entity_id VARCHAR NOT NULL,
    fact_id VARCHAR,                    -- the document's id of the fact
    copies VARCHAR[],                   -- the ids of its other tagged occurrences (duplicates that agree)
    context_id VARCHAR NOT NULL,
    concept VARCHAR NOT NULL,           -- 'us-gaap:Revenues'; a company's own concept under its prefix ('aapl:...')
    namespace VARCHAR NOT NULL,         -- the concept's namespace URI
    dims VARCHAR,                       -- dimensions as reports key them ('ProductOrService=IPhone'), NULL for none
    period_start DATE,                  -- NULL for instants and forever
    period_end DATE,                    -- NULL for forever
    unit VARCHAR,                       -- 'USD', 'USD/shares'; NULL for text
    value VARCHAR,                      -- an exact decimal, or the text (whitespace collapsed); NULL when nil
    decimals VARCHAR,                   -- as written: '-6', 'INF'
    numeric BOOLEAN NOT NULL,
    inconsistent BOOLEAN NOT NULL,      -- a duplicate stating another value: kept here, never in reports
    line INTEGER,                       -- where it stands in its document
    accepted_at TIMESTAMP NOT NULL      -- the filing's
);

-- The EDGAR XBRL feed's filings index (load_xbrl_feed): every XBRL filing the monthly archives list, with its
-- acceptance to the second (the feed gives New York time), whether or not the store holds its company.
CREATE TABLE IF NOT EXISTS xbrl_feed (
    accession VARCHAR PRIMARY KEY,
    cik BIGINT NOT NULL,
    company VARCHAR,
    form VARCHAR NOT NULL,
    period DATE,
    fiscal_year_end VARCHAR,            -- MMDD, as the feed gives it
    filed DATE NOT NULL,
    accepted_at TIMESTAMP NOT NULL,     -- UTC
    accepted_local TIMESTAMP NOT NULL,  -- New York wall time, as the feed gives it
    accepted_precision VARCHAR NOT NULL,
    accepted_note VARCHAR,
    files STRUCT("sequence" INTEGER, file VARCHAR, "type" VARCHAR, url VARCHAR, inline BOOLEAN)[],
    source VARCHAR                      -- the archive it was read from
);

-- A value the SEC edited (or added) in place in a filing whose facts were loaded before, as a later load of
-- the company's companyfacts found it. Kept beside reports, never in them: no as-of answer changes.
CREATE TABLE IF NOT EXISTS revisions (
    filing_id VARCHAR NOT NULL,
    entity_id VARCHAR NOT NULL,
    concept VARCHAR NOT NULL,
    unit VARCHAR NOT NULL,
    period_start DATE,
    period_end DATE NOT NULL,
    value DOUBLE NOT NULL,              -- the value the newer file gives
    learned_at TIMESTAMP NOT NULL,      -- UTC: the load that found it (the earliest this store could know it)
    source VARCHAR                      -- the file it was found in
);

-- Each distinct period an entity has reported, when it was first reported and how often: the small
-- table fiscal calendars are learned from (kept by the loader beside reports). A row of no reports is a fiscal year
-- a filing declares (FSDS sub.txt's fye), known from that filing's acceptance: the calendar of an entity that
-- reported no year, half or nine months.
CREATE TABLE IF NOT EXISTS entity_periods (
    entity_id VARCHAR NOT NULL,
    period_start DATE NOT NULL,
    period_end DATE NOT NULL,
    first_accepted_at TIMESTAMP NOT NULL,
    reports BIGINT NOT NULL,
    PRIMARY KEY (entity_id, period_start, period_end)
);
-- when a filing first declared the period its fiscal year (FSDS sub.txt's fye; NULL: none did); a store made before
-- the column had its declared years as the periods of no reports
ALTER TABLE entity_periods ADD COLUMN IF NOT EXISTS declared_at TIMESTAMP;
UPDATE entity_periods SET declared_at = first_accepted_at WHERE reports = 0 AND declared_at IS NULL;

-- The accessions a companyfacts file listed facts of: a later companyfacts file adds no fact to them (what the SEC
-- edited in place since is a revision), while one only FSDS or XBRL gave is filled with the facts the store lacks.
CREATE TABLE IF NOT EXISTS vintage_accessions (filing_id VARCHAR PRIMARY KEY);

-- Periods that the SEC's Financial Statement Data Sets gave only as month ends, with no period of the company's
-- own of that length ending within a week: their bounds are calendar month ends, approximate.
CREATE TABLE IF NOT EXISTS approximate_periods (
    entity_id VARCHAR NOT NULL,
    period_start DATE,                  -- NULL for instants
    period_end DATE NOT NULL,
    source VARCHAR
);

-- Dictionary of the concepts present, so 'Revenues' finds 'us-gaap:Revenues' (a dimensional key,
-- 'concept|Axis=Member', is not a concept of its own).
CREATE TABLE IF NOT EXISTS concepts (
    concept VARCHAR PRIMARY KEY,
    taxonomy VARCHAR NOT NULL,
    name VARCHAR NOT NULL
);

-- The metrics of data/metrics.csv as the macros read them: each metric's name and aliases (lower case, words joined
-- by '_') with its concepts in priority order; rewritten by the store whenever the SQL files or the table change.
CREATE TABLE IF NOT EXISTS metric_concepts (
    name VARCHAR NOT NULL,
    metric VARCHAR NOT NULL,
    rank INTEGER NOT NULL,
    concept VARCHAR NOT NULL
);

-- Filing and report documents: the source (HTML or Markdown) and the plain text every citation points into.
CREATE TABLE IF NOT EXISTS documents (
    doc_id VARCHAR PRIMARY KEY,
    entity_id VARCHAR,                  -- set when the issuer also has facts
    issuer VARCHAR,                     -- issuer or fund name as the document gives it
    kind VARCHAR NOT NULL,              -- 'filing' | 'report'
    form VARCHAR,                       -- 10-K, 10-Q... or the report type (informe_anual, kid...)
    period_end DATE,
    year INTEGER,                       -- fiscal or report year, for filtering
    accepted_at TIMESTAMP,              -- when it became public, where known
    title VARCHAR,
    raw VARCHAR,
    text VARCHAR                        -- parsed plain text (Markdown is kept as is)
);

-- Headed sections of each document, as character spans into documents.text.
CREATE TABLE IF NOT EXISTS sections (
    doc_id VARCHAR NOT NULL,
    section_no INTEGER NOT NULL,
    heading VARCHAR NOT NULL,
    level INTEGER NOT NULL,
    start_char INTEGER NOT NULL,
    end_char INTEGER NOT NULL,
    part VARCHAR,                       -- SEC Part ('II') and Item ('1A') where they apply
    item VARCHAR,
    path VARCHAR[],
    PRIMARY KEY (doc_id, section_no)
);

-- Blocks (heading, paragraph, list, table, note) of each document, with the notes they cite.
CREATE TABLE IF NOT EXISTS blocks (
    doc_id VARCHAR NOT NULL,
    block_no INTEGER NOT NULL,
    kind VARCHAR NOT NULL,
    start_char INTEGER NOT NULL,
    end_char INTEGER NOT NULL,
    section_no INTEGER,
    notes VARCHAR[],
    note_mark VARCHAR,
    PRIMARY KEY (doc_id, block_no)
);

-- Where each tagged figure of an inline XBRL filing stands in its stored text (factstore/text/tagged.py): by the
-- id of its ix:nonFraction element, which xbrl_facts.fact_id and copies name.
CREATE TABLE IF NOT EXISTS fact_spans (
    doc_id VARCHAR NOT NULL,
    fact_id VARCHAR NOT NULL,
    start_char INTEGER NOT NULL,
    end_char INTEGER NOT NULL,
    PRIMARY KEY (doc_id, fact_id)
);

-- Chunks per strategy: spans into documents.text, section path, the optional context header, and text.
CREATE TABLE IF NOT EXISTS chunks (
    doc_id VARCHAR NOT NULL,
    strategy VARCHAR NOT NULL,
    chunk_no INTEGER NOT NULL,
    spans STRUCT(start_char INTEGER, end_char INTEGER)[] NOT NULL,
    section VARCHAR,
    kind VARCHAR NOT NULL,
    header VARCHAR NOT NULL,
    text VARCHAR NOT NULL,
    PRIMARY KEY (doc_id, strategy, chunk_no)
);

-- The stored BM25 index of each strategy's chunks (factstore/text/postings.py), appended to as chunks are added.
-- Its documents: a document's chunks have consecutive ids from first_chunk, in chunk_no order.
CREATE TABLE IF NOT EXISTS bm25_docs (
    strategy VARCHAR NOT NULL,
    doc_id VARCHAR NOT NULL,
    first_chunk INTEGER NOT NULL,
    chunks INTEGER NOT NULL
);

-- Its chunks' token counts, in the text and in the header.
CREATE TABLE IF NOT EXISTS bm25_chunks (
    strategy VARCHAR NOT NULL,
    chunk_id INTEGER NOT NULL,
    text_len INTEGER NOT NULL,
    header_len INTEGER NOT NULL
);

-- Its terms (ids unique across strategies), with the number of chunks whose text holds each and whose header or
-- text does.
CREATE TABLE IF NOT EXISTS bm25_terms (
    strategy VARCHAR NOT NULL,
    term_id INTEGER NOT NULL,
    term VARCHAR NOT NULL,
    df_text INTEGER NOT NULL,
    df_all INTEGER NOT NULL
);

-- Its postings: how often a term occurs in a chunk's text and header; stored by term (a query reads its terms'
-- row groups only).
CREATE TABLE IF NOT EXISTS bm25_postings (
    term_id INTEGER NOT NULL,
    chunk_id INTEGER NOT NULL,
    text_tf INTEGER NOT NULL,
    header_tf INTEGER NOT NULL
);

-- Dense vectors of a strategy's chunks (factstore/text/dense.py), computed once by embed(), gone with the chunks.
CREATE TABLE IF NOT EXISTS chunk_vectors (
    strategy VARCHAR NOT NULL,
    doc_id VARCHAR NOT NULL,
    chunk_no INTEGER NOT NULL,
    model VARCHAR NOT NULL,
    vector FLOAT[384] NOT NULL,
    PRIMARY KEY (doc_id, strategy, chunk_no)
);

-- Every version of every discrete fiscal quarter, each concept its own line item, with the moments between which it is
-- quarters_asof's answer: [known_from, known_until), NULL = still current (sql/versions.sql, computed at load).
CREATE TABLE IF NOT EXISTS quarter_versions (
    entity_id VARCHAR NOT NULL,
    concept VARCHAR NOT NULL,           -- a metric's: the concept its filing reported it under
    metric VARCHAR,                     -- NULL: the concept's own line item; else a metric of two concepts or more
    unit VARCHAR NOT NULL,
    fiscal_year INTEGER NOT NULL,
    fiscal_quarter INTEGER NOT NULL,
    period_start DATE,                  -- NULL for a balance (an instant at the quarter's end)
    period_end DATE NOT NULL,
    value DOUBLE NOT NULL,
    derived BOOLEAN NOT NULL,
    formula VARCHAR,                    -- 'FY - 9M', 'H1 - Q1', '9M - H1', 'FY - (Q1 + Q2 + Q3)'; NULL: reported
    filing_id VARCHAR NOT NULL,         -- the filing of its newest part (its form: filings')
    accepted_at TIMESTAMP NOT NULL,     -- its newest part's acceptance
    accepted_precision VARCHAR NOT NULL, -- the coarsest of its parts' filings'
    known_from TIMESTAMP NOT NULL,
    known_until TIMESTAMP,
    newest_until TIMESTAMP,             -- from then on never among its concept and unit's four newest quarters
    unit_rank INTEGER NOT NULL          -- its unit's place among the concept's (the reporting currency first)
);
-- Per entity and line item of quarter_versions (a concept, or a metric of its own), its newest quarter and TTM from
-- known_from until its next row (computed at load from quarter_versions; NULLs: none).
CREATE TABLE IF NOT EXISTS newest_quarters (
    entity_id VARCHAR NOT NULL,
    item VARCHAR NOT NULL,              -- a concept, or a metric the entity has versions of its own of
    known_from TIMESTAMP NOT NULL,
    concept VARCHAR,                    -- the concept the quarter's filing reported it under
    unit VARCHAR,
    fiscal_year INTEGER,
    fiscal_quarter INTEGER,
    period_start DATE,
    period_end DATE,
    value DOUBLE,
    derived BOOLEAN,
    filing_id VARCHAR,
    form VARCHAR,                       -- the filing's (filings')
    accepted_at TIMESTAMP,
    accepted_precision VARCHAR,
    ttm DOUBLE,                         -- the four newest quarters' sum where they are consecutive and add up
    ttm_start DATE
);
-- The code quarter_versions were computed by: versions computed by other code are computed again.
CREATE TABLE IF NOT EXISTS quarter_versions_digest (digest VARCHAR);

-- The course's discrete quarterly revenue (millions), the reference for derived quarters.
CREATE TABLE IF NOT EXISTS sales_reference (
    entity_id VARCHAR NOT NULL,
    quarter_end DATE NOT NULL,
    sales_millions DOUBLE NOT NULL,
    PRIMARY KEY (entity_id, quarter_end)
);

-- One row per load that changed the store.
CREATE TABLE IF NOT EXISTS loads (
    loaded_at TIMESTAMP NOT NULL,
    kind VARCHAR NOT NULL,
    source VARCHAR NOT NULL,
    filings_added BIGINT NOT NULL,
    reports_added BIGINT NOT NULL
);

-- What SEC ingestion has taken in (a companyfacts payload, a bulk member, an accession it need not fetch
-- again), written in the same transaction as the rows: a resumed run or `update` skips what is here.
CREATE TABLE IF NOT EXISTS ingested (
    item VARCHAR NOT NULL,              -- 'companyfacts:CIK0000320193.json', 'bulk:CIK0000320193.json', an accession
    digest VARCHAR NOT NULL,            -- sha256 of the payload, a zip member's CRC and size, or '' for an accession
    entity_id VARCHAR,
    loaded_at TIMESTAMP NOT NULL,
    reports_added BIGINT NOT NULL,
    PRIMARY KEY (item, digest)
);
