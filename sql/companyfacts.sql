-- Reading the SEC's companyfacts JSON, applied to the loader's own in-memory connection (it reads the files it is
-- given), never to the store. Leaves stay JSON text, so that the loader checks their types as strictly as the SEC
-- writes them (a number where text belongs is refused, not cast); dates come as text, since no JSON value but a
-- string reads as a date.

-- companyfacts_json: each companyfacts file given (largest: bytes of the largest), as read: its CIK, name and every
-- fact, nested as in the file
CREATE OR REPLACE MACRO companyfacts_json(files, largest) AS TABLE
SELECT filename, cik::VARCHAR AS cik, entityName::VARCHAR AS entity_name, facts
FROM read_json(files, filename = true, format = 'unstructured', maximum_object_size = largest,
    columns = {cik: 'JSON', entityName: 'JSON', facts: 'MAP(VARCHAR, MAP(VARCHAR, STRUCT(units MAP(VARCHAR,
        STRUCT(accn JSON, "start" VARCHAR, "end" VARCHAR, val JSON, form JSON, filed VARCHAR)[]))))'});

-- companyfacts_tiny: the files given that write a number of an exponent of -100 or less, or with 300 zeros after its
-- point: a double may hold it only as 0, and the reader keeps no number's text (the loader reads them exactly)
CREATE OR REPLACE MACRO companyfacts_tiny(files) AS TABLE
SELECT filename FROM read_text(files)
WHERE regexp_matches(content, '[eE]-0*[1-9][0-9][0-9]') OR contains(content, '.' || repeat('0', 300));
