-- The verdicts of `coverage check` (cli.md, "Claim checks") as one query over the tables of
-- `coverage data export SNAPSHOT.db --format parquet -o DIR` (docs/data.md, "Parquet tables")
-- and a table `claims` of claim lines:
--
--   claims(line, procedure, diagnosis, state, lob, payer, date)
--
-- `line` is the claim's own number; the other columns are what `check --input` reads: text,
-- an empty value as NULL (or '', except in `date`), `procedure` as CPT:97110, HCPCS:E0601 or
-- a bare code (CPT when it starts with a digit, HCPCS otherwise; any case), `diagnosis` one or
-- more ICD-10-CM codes joined by ';' or ',' (with or without ICD10CM:, dots, any case),
-- `state` a state or a Medicare jurisdiction (NF, SF, DN, QN, UN, EM, WM), `lob` a LOB
-- category, `payer` a payer id in any case, `date` the date of service (YYYY-MM-DD text or a
-- DATE).
--
-- The result has one row per line and payer x LOB, as `check --format csv` gives them:
-- line, payer_id, lob, verdict (ordered by line, payer id, then LOB in the API's order). A line
-- that no policy in scope lists gets one `not addressed` row with the payer and LOB it asked
-- for (NULL where it asked for none: the CSV's empty field).
--
-- What this query does not do that `coverage check` does: it checks no input (a bad code,
-- system or date, a payer that no policy names, are the caller's to keep out; the CLI reports
-- such a line and skips it), and a line without a date is in scope of nothing (the CLI uses
-- --date or the data's today).
--
-- Standard SQL only (CASE, LIKE, ||, SUBSTR, REPLACE, NULLIF, CAST, NOT EXISTS), written to
-- run unchanged in DuckDB, Spark SQL (3.x) and Trino: test/e2e/parquet-sql.test.ts runs it in
-- DuckDB against `coverage check`; in Spark and Trino it was parsed (sqlglot), not run by our
-- tests. No column or alias is a reserved word in any of the three. Dialect notes:
-- - Strings compare by code point in all three (DuckDB and Trino by default; Spark binary),
--   which is the CLI's order of payer ids.
-- - The line's diagnoses are matched with LIKE against ';' || codes || ';' rather than split
--   into rows, because splitting is not portable (DuckDB unnest(string_split(...)), Spark
--   explode(split(...)), Trino CROSS JOIN UNNEST(split(...))). On very large claim tables,
--   splitting with the engine's own function and joining on the code is faster.
-- - The query ends with `;` (the duckdb and trino command lines run it on reading that);
--   Trino's client API, a JDBC driver or a notebook cell may want it left off.
-- - `date` is cast to DATE: a text that is not a date fails the query in DuckDB and Trino (and
--   in Spark with spark.sql.ansi.enabled; without it Spark makes it NULL): keep such lines out.
WITH
claim AS (
  SELECT
    c.line,
    -- A code holds no space (a line whose code does is a bad line): `CPT : 97110` reads alike.
    -- Cast: a reader that guesses types makes a column of bare CPT codes a number.
    REPLACE(UPPER(CAST(c.procedure AS VARCHAR(64))), ' ', '') AS procedure_text,
    -- The line's diagnoses, normalised as the filter compares them and wrapped in ';'.
    ';' || REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(
      REPLACE(UPPER(COALESCE(c.diagnosis, '')), ' ', ''),
      'ICD-10-CM:', ''), 'ICD10CM:', ''), 'ICD-10:', ''), 'ICD10:', ''),
      '.', ''), ',', ';') || ';' AS diagnoses,
    NULLIF(UPPER(TRIM(c.state)), '') AS state,
    NULLIF(REPLACE(LOWER(TRIM(c.lob)), '-', '_'), '') AS lob,
    -- The payer in the catalogue's spelling (compared ignoring case, as check does).
    COALESCE(known.payer_id, NULLIF(TRIM(CAST(c.payer AS VARCHAR(255))), '')) AS payer,
    CAST(c.date AS DATE) AS service_date
  FROM claims c
  LEFT JOIN (SELECT DISTINCT payer_id FROM applicability) known
    ON UPPER(known.payer_id) = UPPER(TRIM(CAST(c.payer AS VARCHAR(255))))
),
line_scope AS (
  SELECT
    line, diagnoses, state, lob, payer, service_date,
    CASE
      WHEN procedure_text LIKE 'CPT:%' THEN 'CPT'
      WHEN procedure_text LIKE 'HCPCS:%' THEN 'HCPCS'
      WHEN SUBSTR(procedure_text, 1, 1) BETWEEN '0' AND '9' THEN 'CPT'
      ELSE 'HCPCS'
    END AS code_system,
    CASE
      WHEN procedure_text LIKE 'CPT:%' THEN SUBSTR(procedure_text, 5)
      WHEN procedure_text LIKE 'HCPCS:%' THEN SUBSTR(procedure_text, 7)
      ELSE procedure_text
    END AS code,
    -- States Medicare splits (cli.md, "States that Medicare splits"): a state asks for its
    -- sub-state jurisdictions, and a jurisdiction for its state.
    CASE state
      WHEN 'NF' THEN 'CA' WHEN 'SF' THEN 'CA'
      WHEN 'DN' THEN 'NY' WHEN 'QN' THEN 'NY' WHEN 'UN' THEN 'NY'
      WHEN 'EM' THEN 'MO' WHEN 'WM' THEN 'MO'
    END AS whole_state,
    CASE state
      WHEN 'CA' THEN ';NF;SF;'
      WHEN 'NY' THEN ';DN;QN;UN;'
      WHEN 'MO' THEN ';EM;WM;'
      ELSE ''
    END AS parts
  FROM claim
),
-- The policies in effect on the date of service that list the procedure, and what each says
-- of it: 1 does not cover, 2 covers, 3 only references (the strongest of its listings).
stance AS (
  SELECT s.line, p.policy_id,
    MIN(CASE k.relationship
          WHEN 'DOES_NOT_COVER' THEN 1 WHEN 'COVERS' THEN 2 WHEN 'REFERENCES' THEN 3 END) AS stance
  FROM line_scope s
  JOIN code_links k ON k.code_system = s.code_system AND k.code = s.code
  JOIN policies p ON p.policy_id = k.policy_id
  WHERE k.relationship IN ('DOES_NOT_COVER', 'COVERS', 'REFERENCES')
    AND p.effective_from_date <= s.service_date
    AND (p.effective_to_date IS NULL OR s.service_date < p.effective_to_date)
  GROUP BY s.line, p.policy_id
),
-- Of those, the payer x LOB rows the line's scope reaches: links in effect on the day, in the
-- state asked (with its jurisdictions and their state) or nationwide, of the LOB and payer asked.
reach AS (
  SELECT DISTINCT t.line, t.policy_id, t.stance, a.payer_id, a.lob
  FROM stance t
  JOIN line_scope s ON s.line = t.line
  JOIN applicability a ON a.policy_id = t.policy_id
  WHERE a.from_date <= s.service_date
    AND (a.to_date IS NULL OR s.service_date < a.to_date)
    AND (s.payer IS NULL OR a.payer_id = s.payer)
    AND (s.lob IS NULL OR a.lob = s.lob)
    AND (s.state IS NULL OR a.state IS NULL OR a.state = s.state OR a.state = s.whole_state
         OR s.parts LIKE ('%;' || a.state || ';%'))
),
-- Each policy's verdict on the line, by its rank in the precedence of cli.md:
-- 1 procedure not covered, 2 diagnosis not covered, 3 supported, 4 diagnosis not listed,
-- 5 no diagnosis limits, 6 mentioned only.
policy_verdict AS (
  SELECT v.line, v.policy_id,
    CASE
      WHEN v.stance = 1 THEN 1
      WHEN v.stance = 3 THEN 6
      WHEN MAX(CASE WHEN d.relationship = 'DOES_NOT_COVER'
                     AND s.diagnoses LIKE ('%;' || d.code || ';%') THEN 1 ELSE 0 END) = 1 THEN 2
      WHEN MAX(CASE WHEN d.relationship = 'COVERS'
                     AND s.diagnoses LIKE ('%;' || d.code || ';%') THEN 1 ELSE 0 END) = 1 THEN 3
      WHEN MAX(CASE WHEN d.relationship = 'COVERS' THEN 1 ELSE 0 END) = 1 THEN 4
      ELSE 5
    END AS verdict_rank
  FROM (SELECT DISTINCT line, policy_id, stance FROM reach) v
  JOIN line_scope s ON s.line = v.line
  LEFT JOIN code_links d
    ON v.stance = 2 AND d.policy_id = v.policy_id AND d.code_system = 'ICD10CM'
   AND d.relationship IN ('COVERS', 'DOES_NOT_COVER')
  GROUP BY v.line, v.policy_id, v.stance
),
-- Each payer x LOB gets the first verdict of the precedence among its policies.
grouped AS (
  SELECT r.line, r.payer_id, r.lob, MIN(pv.verdict_rank) AS verdict_rank
  FROM reach r
  JOIN policy_verdict pv ON pv.line = r.line AND pv.policy_id = r.policy_id
  GROUP BY r.line, r.payer_id, r.lob
),
result AS (
  SELECT line, payer_id, lob, verdict_rank FROM grouped
  UNION ALL
  SELECT s.line, s.payer, s.lob, 7
  FROM line_scope s
  WHERE NOT EXISTS (SELECT 1 FROM grouped g WHERE g.line = s.line)
)
SELECT
  line,
  payer_id,
  lob,
  CASE verdict_rank
    WHEN 1 THEN 'procedure not covered'
    WHEN 2 THEN 'diagnosis not covered'
    WHEN 3 THEN 'supported'
    WHEN 4 THEN 'diagnosis not listed'
    WHEN 5 THEN 'no diagnosis limits'
    WHEN 6 THEN 'mentioned only'
    ELSE 'not addressed'
  END AS verdict
FROM result
ORDER BY
  line,
  payer_id,
  CASE lob
    WHEN 'commercial' THEN 1
    WHEN 'medicare_part_a' THEN 2
    WHEN 'medicare_part_b' THEN 3
    WHEN 'medicare_advantage' THEN 4
    WHEN 'medicare_part_d' THEN 5
    WHEN 'medicaid' THEN 6
    WHEN 'individual_aca' THEN 7
  END;
