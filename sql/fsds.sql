-- Reading the SEC's Financial Statement Data Sets (tab-separated, UTF-8 as the SEC's readme says), applied to the loader's own in-memory
-- connection (it reads the files it is given), never to the store. Every field is read as text and checked here.

-- fsds_file: a sub.txt or num.txt as read in an encoding ('utf-8'; 'latin-1' for a file that is not), fields as text
CREATE OR REPLACE MACRO fsds_file(path, enc) AS TABLE
SELECT * FROM read_csv(path, delim = '\t', header = true, quote = '', escape = '', all_varchar = true,
                       encoding = enc, null_padding = true);

-- fsds_sub_problems: each sub.txt row with the first of its fields that is not as the SEC writes it (NULL: none)
CREATE OR REPLACE MACRO fsds_sub_problems(sub) AS TABLE
SELECT data_row, CASE
    WHEN NOT coalesce(regexp_full_match(adsh, '\d{10}-\d{2}-\d{6}'), false) THEN 'adsh'
    WHEN NOT coalesce(regexp_full_match(cik, '\d{1,10}'), false) OR cik::BIGINT = 0 THEN 'cik'
    WHEN coalesce(form, '') = '' THEN 'form'
    WHEN try_strptime(filed, '%Y%m%d') IS NULL THEN 'filed'
    WHEN try_strptime(accepted, ['%Y-%m-%d %H:%M:%S.%f', '%Y-%m-%d %H:%M:%S']) IS NULL THEN 'accepted'
    WHEN coalesce(prevrpt, '') NOT IN ('0', '1') THEN 'prevrpt'
    WHEN coalesce(period, '') <> '' AND try_strptime(period, '%Y%m%d') IS NULL THEN 'period'
    WHEN coalesce(fye, '') <> '' AND NOT regexp_full_match(fye, '(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])') THEN 'fye'
END AS problem, CASE problem WHEN 'adsh' THEN adsh WHEN 'cik' THEN cik WHEN 'form' THEN form WHEN 'filed' THEN filed
    WHEN 'accepted' THEN accepted WHEN 'prevrpt' THEN prevrpt WHEN 'period' THEN period WHEN 'fye' THEN fye
    END AS found
FROM query_table(sub);

-- fsds_submissions: sub.txt's submissions, typed: acceptance in UTC (the SEC gives New York time to the minute)
CREATE OR REPLACE MACRO fsds_submissions(sub) AS TABLE
SELECT data_row, adsh AS filing_id, cik::BIGINT AS cik, sec_entity_id(cik) AS entity_id, trim(name) AS name, form,
    strptime(filed, '%Y%m%d')::DATE AS filed, nullif(period, '') AS period,
    (try_strptime(accepted, ['%Y-%m-%d %H:%M:%S.%f', '%Y-%m-%d %H:%M:%S']) AT TIME ZONE 'America/New_York')
        AT TIME ZONE 'UTC' AS accepted_at,
    prevrpt = '1' AS superseded, nullif(fye, '') AS fye
FROM query_table(sub);

-- fsds_entities: each company of the submissions with the name of its latest (at the same minute, the greatest:
-- the write plan's order, sql/write.sql new_entities) and the names the others give it, sorted, once each
CREATE OR REPLACE MACRO fsds_entities(subs) AS TABLE
SELECT entity_id, cik, name, list_sort(list_filter(names, lambda n: n <> name)) AS other_names
FROM (SELECT entity_id, any_value(cik) AS cik, arg_max(name, (accepted_at, name)) AS name,
          list_distinct(list(name)) AS names
      FROM query_table(subs) WHERE name IS NOT NULL AND name <> '' GROUP BY entity_id)
ORDER BY entity_id;

-- fsds_month_day: the day d of month m of year y, or the month's last day where it has no day d
CREATE OR REPLACE MACRO fsds_month_day(y, m, d) AS
    least((make_date(y, m, 1) + to_days(d - 1))::DATE, last_day(make_date(y, m, 1)));

-- fsds_declared_years: the fiscal year each submission declares by its fiscal year end (fye, 'MMDD') and its period:
-- the year ending on the first such month and day on or after the period (a day past its month's end is the end)
CREATE OR REPLACE MACRO fsds_declared_years(subs) AS TABLE
WITH given AS (
    SELECT entity_id, filing_id, accepted_at, strptime(period, '%Y%m%d')::DATE AS period,
        fye[1:2]::INTEGER AS m, fye[3:4]::INTEGER AS d
    FROM query_table(subs) WHERE fye IS NOT NULL AND period IS NOT NULL
), ends AS (
    SELECT *, CASE WHEN fsds_month_day(year(period), m, d) >= period THEN fsds_month_day(year(period), m, d)
                   ELSE fsds_month_day(year(period) + 1, m, d) END AS fy_end
    FROM given
)
SELECT entity_id, filing_id, (fy_end - INTERVAL 1 YEAR + INTERVAL 1 DAY)::DATE AS fy_start, fy_end, accepted_at
FROM ends;

-- fsds_num_problems: each num.txt row with the first of its fields that is not as the SEC writes it (NULL: none).
-- ddate: a real day (yyyymmdd) of the years 1900 to 2199 (the SEC's own data never ends a period after its filing;
-- a year outside is no period a filing reports, as 99991231). qtrs: a whole number of quarters (0: an instant) whose
-- period (fsds_periods: from the day after ddate, qtrs quarters back) starts in 1900 or later (qtrs=999 would start
-- in 1775). segments: empty (no dimension), or axis=member pairs each
-- ending in ';' (the SEC's spelling, 'ProductOrService=IPhone;'), or axis/member pairs between ';' (the XBRL
-- spelling of daily files, 'us-gaap:StatementClassOfStockAxis/us-gaap:CommonClassAMember'); no name empty (the
-- names themselves are checked by the loader, factstore.loaders.fsds). value: empty (a nil fact, not loaded) or a
-- number, never one a double holds only as 0 ('1e-400'); whether it is one a filing could state is the write
-- plan's rule (sql/write.sql implausible_value).
CREATE OR REPLACE MACRO fsds_num_problems(num) AS TABLE
SELECT data_row, CASE
    WHEN NOT coalesce(regexp_full_match(adsh, '\d{10}-\d{2}-\d{6}'), false) THEN 'adsh'
    WHEN coalesce(tag, '') = '' THEN 'tag'
    WHEN coalesce(version, '') = '' THEN 'version'
    WHEN NOT (coalesce(regexp_full_match(ddate, '\d{8}'), false)
              AND coalesce(year(try_strptime(ddate, '%Y%m%d')) BETWEEN 1900 AND 2199, false)) THEN 'ddate'
    WHEN NOT coalesce(regexp_full_match(qtrs, '\d{1,8}'), false) OR year(try_strptime(ddate, '%Y%m%d')::DATE + 1) * 12
        + month(try_strptime(ddate, '%Y%m%d')::DATE + 1) - 1 - 3 * try_cast(qtrs AS BIGINT) < 1900 * 12 THEN 'qtrs'
    WHEN coalesce(uom, '') = '' THEN 'uom'
    WHEN coalesce(segments, '') <> '' AND NOT regexp_full_match(segments,
        '(\s*[^=;/\s][^=;/]*=\s*[^=;/\s][^=;/]*;)+\s*|\s*[^=;/\s][^=;/]*/\s*[^=;/\s][^=;/]*(;\s*[^=;/\s][^=;/]*/\s*[^=;/\s][^=;/]*)*;?\s*')
        THEN 'segments'
    WHEN coalesce(value, '') <> '' AND (try_cast(value AS DOUBLE) IS NULL OR (try_cast(value AS DOUBLE) = 0
        AND regexp_matches(split_part(lower(value), 'e', 1), '[1-9]'))) THEN 'value'
END AS problem, CASE problem WHEN 'adsh' THEN adsh WHEN 'tag' THEN tag WHEN 'version' THEN version
    WHEN 'ddate' THEN ddate WHEN 'qtrs' THEN qtrs WHEN 'uom' THEN uom WHEN 'segments' THEN segments
    WHEN 'value' THEN value END AS found
FROM query_table(num);

-- fsds_facts: num.txt's values with a standard taxonomy's tag (a filer's own tags, version = its adsh, are left out,
-- as companyfacts leaves them), nil values left out; `dims` is the raw segments and co-registrant
CREATE OR REPLACE MACRO fsds_facts(num) AS TABLE
SELECT data_row AS row, adsh AS filing_id,
    CASE split_part(version, '/', 1) WHEN 'ifrs' THEN 'ifrs-full' ELSE split_part(version, '/', 1) END
        || ':' || tag AS concept,
    uom AS unit, strptime(ddate, '%Y%m%d')::DATE AS ddate, qtrs::INTEGER AS qtrs,
    nullif(segments, '') AS segments, nullif(coreg, '') AS coreg, value::DOUBLE AS value
FROM query_table(num)
WHERE coalesce(value, '') <> '' AND version <> adsh;
