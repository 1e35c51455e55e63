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

-- fsds_num_problems: each num.txt row with the first of its fields that is not as the SEC writes it (NULL: none);
-- a value may be empty (a nil fact, not loaded)
CREATE OR REPLACE MACRO fsds_num_problems(num) AS TABLE
SELECT data_row, CASE
    WHEN NOT coalesce(regexp_full_match(adsh, '\d{10}-\d{2}-\d{6}'), false) THEN 'adsh'
    WHEN coalesce(tag, '') = '' THEN 'tag'
    WHEN coalesce(version, '') = '' THEN 'version'
    WHEN try_strptime(ddate, '%Y%m%d') IS NULL THEN 'ddate'
    WHEN coalesce(try_cast(qtrs AS INTEGER), -1) < 0 THEN 'qtrs'
    WHEN coalesce(uom, '') = '' THEN 'uom'
    WHEN coalesce(value, '') <> '' AND try_cast(value AS DOUBLE) IS NULL THEN 'value'
END AS problem, CASE problem WHEN 'adsh' THEN adsh WHEN 'tag' THEN tag WHEN 'version' THEN version
    WHEN 'ddate' THEN ddate WHEN 'qtrs' THEN qtrs WHEN 'uom' THEN uom WHEN 'value' THEN value END AS found
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

-- fsds_periods: each fact's period, the company's own where the store knows it: one its filing reported (the store
-- holds the filing) ending within 16 days of the month end FSDS rounds to, else one of the company's ending within a
-- week, of the same length (the closest); otherwise the calendar months FSDS names, marked approximate.
-- facts: (row, filing_id, entity_id, ddate, qtrs); known: (entity_id, filing_id, period_start, period_end), filing_id
-- NULL for the company's calendar, period_start NULL for instants
CREATE OR REPLACE MACRO fsds_periods(facts, known) AS TABLE
WITH known AS (SELECT entity_id, filing_id, period_start::DATE AS period_start, period_end::DATE AS period_end,
                      date_diff('day', period_start::DATE, period_end::DATE) AS days FROM query_table(known)),
matched AS (
    SELECT f.row, k.period_start, k.period_end
    FROM query_table(facts) f JOIN known k
      ON k.entity_id = f.entity_id AND (k.filing_id = f.filing_id OR k.filing_id IS NULL)
     AND abs(date_diff('day', f.ddate, k.period_end)) <= CASE WHEN k.filing_id IS NULL THEN 7 ELSE 16 END
     AND (CASE WHEN f.qtrs = 0 THEN k.period_start IS NULL ELSE abs(k.days - 91.3 * f.qtrs) <= 10 END)
    QUALIFY row_number() OVER (PARTITION BY f.row ORDER BY k.filing_id IS NULL,
        abs(date_diff('day', f.ddate, k.period_end)), abs(k.days - 91.3 * f.qtrs), k.period_end) = 1)
SELECT f.row,
    CASE WHEN m.period_end IS NOT NULL THEN m.period_start
         WHEN f.qtrs > 0 THEN (f.ddate + INTERVAL 1 DAY - to_months(3 * f.qtrs))::DATE END AS period_start,
    coalesce(m.period_end, f.ddate) AS period_end,
    m.period_end IS NULL AS approximate
FROM query_table(facts) f LEFT JOIN matched m ON m.row = f.row;
