// `data export --format parquet` and docs/sql/check.sql, read by DuckDB (an engine of the data
// teams, not our writer): every table with the snapshot's rows and types, and the query's
// verdicts row for row those of `coverage check --format csv`, on the bundled data and on a
// generated dataset of many payers, states (Medicare's split ones) and dates.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { CORE_TABLES } from "../../src/snapshot/parquet-tables.js";
import { generateClaims, generateClaimsDataset, type ClaimRow } from "../helpers/claims-dataset.js";
import { ROOT } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";
import { buildSnapshot, SQLITE } from "../helpers/snapshot.js";

type DuckConnection = Awaited<ReturnType<typeof openDuckDb>>;

/** DuckDB in memory, or why it cannot run here (the test then skips, saying so). */
async function openDuckDb() {
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const instance = await DuckDBInstance.create(":memory:");
  return instance.connect();
}
let duckdbProblem: string | undefined;
try {
  await (await openDuckDb()).run("SELECT 1");
} catch (err) {
  duckdbProblem = `DuckDB's Node package does not run on Node.js ${process.versions.node}: ${(err as Error).message}`;
}
const skipReason = !SQLITE
  ? `snapshots need node:sqlite (Node.js 22.13+); this is ${process.versions.node}`
  : duckdbProblem;
if (skipReason) console.warn(`parquet-sql tests skipped: ${skipReason}`);

const CHECK_SQL = readFileSync(path.join(ROOT, "docs/sql/check.sql"), "utf8");
const tmp = () => mkdtempSync(path.join(os.tmpdir(), "coverage-parquet-"));

/** Exports a snapshot to a new folder through the CLI; the folder. */
async function exportParquet(snapshot: string): Promise<string> {
  const out = path.join(tmp(), "tables");
  const r = await runInProcess(["data", "export", snapshot, "--format", "parquet", "-o", out]);
  expect(r.stderr).toBe("");
  expect(r.exitCode).toBe(0);
  return out;
}

/** A DuckDB connection with a view per exported table. */
async function tablesIn(folder: string): Promise<DuckConnection> {
  const db = await openDuckDb();
  for (const { name } of CORE_TABLES)
    await db.run(`CREATE VIEW ${name} AS SELECT * FROM read_parquet('${folder}/${name}.parquet')`);
  return db;
}

/** `coverage check --format csv` on the lines (NDJSON: line N is the Nth object): line, payer_id, lob, verdict. */
async function checkRows(data: string, claims: ClaimRow[]): Promise<string[][]> {
  const input = path.join(tmp(), "claims.ndjson");
  writeFileSync(input, claims.map((c) => JSON.stringify(c)).join("\n") + "\n");
  const r = await runInProcess(["--data", data, "check", "--input", input, "--format", "csv"]);
  expect(r.exitCode, r.stderr).toBe(0);
  const rows = parse(r.stdout, { columns: true }) as Array<Record<string, string>>;
  return rows.map((row) => [row.line!, row.payer_id!, row.lob!, row.verdict!]);
}

/**
 * docs/sql/check.sql over the exported tables and the same lines as a `claims` table: every
 * column text (as `check --input` reads them), or as a CSV whose types DuckDB guesses (`date`
 * a DATE, `line` a number), the way a data team reads a file.
 */
async function sqlRows(
  db: DuckConnection,
  claims: ClaimRow[],
  read: "text" | "guessed" = "text",
): Promise<string[][]> {
  const numbered = claims.map((c, i) => ({ line: i + 1, ...c }));
  const input = path.join(tmp(), read === "text" ? "claims.ndjson" : "claims.csv");
  await db.run("DROP TABLE IF EXISTS claims");
  if (read === "text") {
    writeFileSync(input, numbered.map((c) => JSON.stringify(c)).join("\n") + "\n");
    await db.run(
      `CREATE TABLE claims AS SELECT * FROM read_json('${input}', format = 'newline_delimited',
        columns = {line: 'INTEGER', procedure: 'VARCHAR', diagnosis: 'VARCHAR', state: 'VARCHAR',
                   lob: 'VARCHAR', payer: 'VARCHAR', date: 'VARCHAR'})`,
    );
  } else {
    const columns = ["line", "procedure", "diagnosis", "state", "lob", "payer", "date"];
    writeFileSync(input, stringify(numbered, { header: true, columns }));
    await db.run(`CREATE TABLE claims AS FROM read_csv('${input}')`);
    const types = (await db.runAndReadAll("DESCRIBE claims")).getRowObjects();
    expect(types.find((t) => t.column_name === "date")!.column_type).toBe("DATE");
  }
  const result = await db.runAndReadAll(CHECK_SQL);
  expect(result.columnNames()).toEqual(["line", "payer_id", "lob", "verdict"]);
  return result
    .getRowObjectsJson()
    .map((r) => [String(r.line), String(r.payer_id ?? ""), String(r.lob ?? ""), String(r.verdict)]);
}

/** The query's rows equal the CLI's, line by line (a line's claim shown where they differ). */
function expectSameRows(claims: ClaimRow[], fromSql: string[][], fromCli: string[][]): void {
  const byLine = (rows: string[][]) => {
    const lines = new Map<string, string[]>();
    for (const [line, ...rest] of rows)
      lines.set(line!, [...(lines.get(line!) ?? []), rest.join(" | ")]);
    return lines;
  };
  const sql = byLine(fromSql);
  const cli = byLine(fromCli);
  expect(cli.size).toBe(claims.length);
  for (const [line, rows] of cli)
    expect(sql.get(line), `line ${line}: ${JSON.stringify(claims[Number(line) - 1])}`).toEqual(
      rows,
    );
  expect([...sql.keys()]).toEqual([...cli.keys()]);
}

describe.skipIf(skipReason)("Parquet export of the bundled data, read by DuckDB", () => {
  const dataset = JSON.parse(readFileSync(path.join(ROOT, "fixtures/dataset.json"), "utf8"));
  let snapshot: string;
  let db: DuckConnection;
  beforeAll(async () => {
    snapshot = await buildSnapshot(path.join(ROOT, "fixtures/dataset.json"));
    db = await tablesIn(await exportParquet(snapshot));
  });

  const count = async (sql: string) => Number((await db.runAndReadAll(sql)).getRowObjects()[0]!.n);

  it("every table has the dataset's rows", async () => {
    const links = (key: "applicability" | "codes") =>
      dataset.policies.reduce((n: number, p: Record<string, unknown[]>) => n + p[key]!.length, 0);
    expect(await count("SELECT count(*) AS n FROM payers")).toBe(dataset.payers.length);
    expect(await count("SELECT count(*) AS n FROM lobs")).toBe(dataset.lobs.length);
    expect(await count("SELECT count(*) AS n FROM policies")).toBe(dataset.policies.length);
    expect(await count("SELECT count(*) AS n FROM applicability")).toBe(links("applicability"));
    expect(await count("SELECT count(*) AS n FROM code_links")).toBe(links("codes"));
    expect(await count("SELECT count(*) AS n FROM catalogue")).toBe(dataset.codes.length);
  });

  it("dates are DATE and every documented column is there", async () => {
    for (const table of CORE_TABLES) {
      const described = (await db.runAndReadAll(`DESCRIBE ${table.name}`)).getRowObjects();
      expect(described.map((c) => c.column_name)).toEqual(table.columns.map((c) => c.name));
      for (const column of table.columns)
        expect(described.find((c) => c.column_name === column.name)!.column_type).toBe(
          column.type === "DATE" ? "DATE" : "VARCHAR",
        );
    }
  });

  it("a policy's links and scopes are the dataset's, codes normalised as the filter compares them", async () => {
    const policy = dataset.policies.find((p: { codes: Array<{ code_system: string }> }) =>
      p.codes.some((c) => c.code_system === "ICD10CM"),
    );
    const id = policy.policy_id.replaceAll("'", "''");
    const codes = (
      await db.runAndReadAll(
        `SELECT code_system, code, code_as_listed, relationship, category FROM code_links WHERE policy_id = '${id}'`,
      )
    ).getRowObjectsJson();
    expect(codes).toEqual(
      policy.codes.map((c: Record<string, string | null>) => ({
        code_system: c.code_system,
        code:
          c.code_system === "ICD10CM"
            ? c.code!.replaceAll(".", "").toUpperCase()
            : c.code!.toUpperCase(),
        code_as_listed: c.code,
        relationship: c.relationship,
        category: c.category ?? null,
      })),
    );
    const scopes = (
      await db.runAndReadAll(
        `SELECT lob_id, CAST(from_date AS VARCHAR) AS "from", CAST(to_date AS VARCHAR) AS "to" FROM applicability WHERE policy_id = '${id}'`,
      )
    ).getRowObjectsJson();
    expect(scopes).toEqual(policy.applicability);
    const dates = (
      await db.runAndReadAll(
        `SELECT CAST(effective_from_date AS VARCHAR) AS f FROM policies WHERE policy_id = '${id}'`,
      )
    ).getRowObjectsJson();
    expect(dates).toEqual([{ f: policy.effective_from_date }]);
  });

  it("check.sql gives coverage check's rows", async () => {
    // Lines over the procedures the bundled data lists, in split states and not, with several
    // diagnoses (dotted, lower-case dotless, prefixed), dates before and after versions, a
    // code nobody lists, payer and LOB given.
    const procedures = new Set<string>();
    const diagnoses = new Set<string>();
    for (const p of dataset.policies)
      for (const c of p.codes)
        if (c.code_system === "ICD10CM") diagnoses.add(c.code);
        else if (c.code_system === "CPT" || c.code_system === "HCPCS")
          procedures.add(`${c.code_system}:${c.code}`);
    const claims = generateClaims(
      { procedures: [...procedures], diagnoses: [...diagnoses], payers: ["CMS", "AETNA", "UHC"] },
      400,
    );
    const fromCli = await checkRows(snapshot, claims);
    expect(new Set(fromCli.map((r) => r[3])).size).toBeGreaterThanOrEqual(5);
    expectSameRows(claims, await sqlRows(db, claims), fromCli);
    expectSameRows(claims, await sqlRows(db, claims, "guessed"), fromCli);
  });
});

describe.skipIf(skipReason)(
  "check.sql on a generated dataset of many payers, states and dates",
  () => {
    it("gives coverage check's rows, line for line", async () => {
      const generated = generateClaimsDataset();
      const json = path.join(tmp(), "generated.json");
      writeFileSync(json, JSON.stringify(generated.dataset));
      const snapshot = await buildSnapshot(json);
      const db = await tablesIn(await exportParquet(snapshot));
      const claims = generateClaims(generated, 600, 11);
      const fromCli = await checkRows(snapshot, claims);
      const verdicts = new Set(fromCli.map((r) => r[3]));
      // The lines reach every verdict, so each rule of the query is held to the CLI's.
      expect([...verdicts].sort()).toEqual(
        [
          "diagnosis not covered",
          "diagnosis not listed",
          "mentioned only",
          "no diagnosis limits",
          "not addressed",
          "procedure not covered",
          "supported",
        ].sort(),
      );
      expectSameRows(claims, await sqlRows(db, claims), fromCli);
    });
  },
);
