// `data export --format parquet` on bad input (cli.md, "Beyond one machine"; issue 42): a folder
// holding other files is refused unless --force (never a mix of two exports), a failure or a
// signal leaves no Parquet file, a snapshot of a newer release is refused; the optional tables
// (edits, fees, prior authorization) are written when the snapshot has them.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, cleanEnv, ROOT } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";
import { buildSnapshot, SQLITE } from "../helpers/snapshot.js";

const CORE = [
  "applicability.parquet",
  "catalogue.parquet",
  "code_links.parquet",
  "lobs.parquet",
  "payers.parquet",
  "policies.parquet",
];
const work = mkdtempSync(path.join(os.tmpdir(), "coverage-parquet-bad-"));
const fresh = () => mkdtempSync(path.join(work, "o-"));
let snapshot = "";

/** A copy of the snapshot changed by `sql` (node:sqlite, writable). */
async function changedCopy(sql: string): Promise<string> {
  const copy = path.join(fresh(), "changed.db");
  copyFileSync(snapshot, copy);
  const { DatabaseSync } = await import("node:sqlite");
  const db = new DatabaseSync(copy);
  db.exec(sql);
  db.close();
  return copy;
}

/** `data export --format parquet` of `from` (the bundled data's snapshot) into `out`. */
const exportTo = (out: string, more: string[] = [], from = snapshot) =>
  runInProcess(["data", "export", from, "--format", "parquet", "-o", out, ...more]);

describe.skipIf(!SQLITE)("data export --format parquet: bad input", () => {
  beforeAll(async () => {
    snapshot = await buildSnapshot(path.join(ROOT, "fixtures/dataset.json"));
  });

  it("writes a new folder, or an empty one, with one file per table", async () => {
    const parent = fresh();
    expect((await exportTo(path.join(parent, "new"))).exitCode).toBe(0);
    expect(readdirSync(path.join(parent, "new")).sort()).toEqual(CORE);
    const empty = path.join(parent, "empty");
    mkdirSync(empty);
    expect((await exportTo(empty)).exitCode).toBe(0);
    expect(readdirSync(empty).sort()).toEqual(CORE);
  });

  it("refuses a folder that holds other files unless --force, and never leaves a mix of two exports", async () => {
    const dir = fresh();
    writeFileSync(path.join(dir, "README.txt"), "ours\n");
    // A table of an earlier export that this snapshot does not have.
    writeFileSync(path.join(dir, "ptp_edits.parquet"), "old");
    const refused = await exportTo(dir);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("holds other files");
    expect(refused.stderr).toContain("--force");
    expect(readdirSync(dir).sort()).toEqual(["README.txt", "ptp_edits.parquet"]);
    const forced = await exportTo(dir, ["--force"]);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([...CORE, "README.txt"].sort());
  });

  it("refuses, even with --force, a folder holding a folder named like a table", async () => {
    const dir = fresh();
    mkdirSync(path.join(dir, "policies.parquet"));
    const r = await exportTo(dir, ["--force"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("policies.parquet is a folder");
    expect(readdirSync(dir)).toEqual(["policies.parquet"]);
  });

  it("refuses a file as the folder, and -o -", async () => {
    const file = path.join(fresh(), "x.parquet");
    writeFileSync(file, "x");
    const r = await exportTo(file, ["--force"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("is a file");
    const dash = await exportTo("-");
    expect(dash.exitCode).toBe(2);
    expect(dash.stderr).toContain("not a stream");
  });

  it("refuses a snapshot of a newer release, writing nothing", async () => {
    const newer = await changedCopy("UPDATE meta SET value = 99 WHERE key = 'format_version'");
    const parent = fresh();
    const r = await exportTo(path.join(parent, "t"), [], newer);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("newer than this release reads");
    expect(readdirSync(parent)).toEqual([]);
  });

  it("refuses a format other than json or parquet", async () => {
    const r = await runInProcess(["data", "export", snapshot, "--format", "csv", "-o", fresh()]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("data export writes json or parquet");
  });

  it("writes an optional table the snapshot has (fees), typed from its declaration", async () => {
    const withFees = await changedCopy(
      "CREATE TABLE fees (code TEXT, modifier TEXT, amount REAL, units INTEGER, effective_date TEXT);" +
        "INSERT INTO fees VALUES (' e0601 ', NULL, 12.5, 3, '2026-01-01'), ('97110', 'GP', 30, 1, NULL), ('A4253', NULL, 1, 1, '0099-12-31');",
    );
    const out = path.join(fresh(), "t");
    const r = await exportTo(out, [], withFees);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual([...CORE, "fees.parquet"].sort());
    const { DuckDBInstance } = await import("@duckdb/node-api").catch(() => ({
      DuckDBInstance: undefined,
    }));
    if (!DuckDBInstance) return;
    const db = await (await DuckDBInstance.create(":memory:")).connect();
    const file = path.join(out, "fees.parquet");
    const types = (await db.runAndReadAll(`DESCRIBE SELECT * FROM '${file}'`)).getRowObjects();
    expect(types.map((t) => `${t.column_name} ${t.column_type}`)).toEqual([
      "code VARCHAR",
      "modifier VARCHAR",
      "amount DOUBLE",
      "units BIGINT",
      "effective_date DATE",
    ]);
    const rows = await db.runAndReadAll(
      `SELECT code, CAST(effective_date AS VARCHAR) AS d FROM '${file}' ORDER BY code`,
    );
    // A year below 100 stays that year (Date.UTC would read 0099 as 1999).
    expect(rows.getRowObjectsJson()).toEqual([
      { code: "97110", d: null },
      { code: "A4253", d: "0099-12-31" },
      { code: "E0601", d: "2026-01-01" },
    ]);
  });

  it("writes the dossier's tables it has rows of, dates as DATE and ids as their texts", async () => {
    const { MEDICARE_TABLES } = await import("../../src/snapshot/medicare-schema.js");
    const withRules = await changedCopy(
      MEDICARE_TABLES +
        "INSERT INTO rule_release VALUES (1, 'ptp', 'practitioner', 'ncci', '2026Q1', 1, 'f', 1, 0, 20260101, 'x', 1);" +
        "INSERT INTO rule_text VALUES (7, 'Mutually exclusive procedures');" +
        "INSERT INTO ptp_edit VALUES (1, '97110', '97530', 0, 20200101, 20991231, 1, 7);" +
        "INSERT INTO aoc_edit VALUES (1, '64484', '64483', 1, 20110101, NULL, NULL, NULL, 7);" +
        "INSERT INTO prior_auth VALUES (1, 'e0601', 'dmepos', 'PAP', 'CA;NY', 20250401, NULL, 'list');",
    );
    const out = path.join(fresh(), "t");
    const r = await exportTo(out, [], withRules);
    expect(r.exitCode, r.stderr).toBe(0);
    // mue, pfs and dmepos_fee are there but empty: no file.
    expect(readdirSync(out).sort()).toEqual(
      [...CORE, "add_on_edits.parquet", "prior_auth.parquet", "ptp_edits.parquet"].sort(),
    );
    const { DuckDBInstance } = await import("@duckdb/node-api").catch(() => ({
      DuckDBInstance: undefined,
    }));
    if (!DuckDBInstance) return;
    const db = await (await DuckDBInstance.create(":memory:")).connect();
    const ptp = await db.runAndReadAll(
      `SELECT release, column1, CAST(effective_date AS VARCHAR) AS e, CAST(deletion_date AS VARCHAR) AS d, rationale FROM '${path.join(out, "ptp_edits.parquet")}'`,
    );
    expect(ptp.getRowObjectsJson()).toEqual([
      {
        release: "2026Q1",
        column1: "97110",
        e: "2020-01-01",
        d: "2099-12-31",
        rationale: "Mutually exclusive procedures",
      },
    ]);
    const aoc = await db.runAndReadAll(
      `SELECT type, add_on, primary_code, CAST(effective_date AS VARCHAR) AS e FROM '${path.join(out, "add_on_edits.parquet")}'`,
    );
    expect(aoc.getRowObjectsJson()).toEqual([
      { type: "1", add_on: "64484", primary_code: "64483", e: "2011-01-01" },
    ]);
    const pa = await db.runAndReadAll(
      `SELECT code, CAST(from_date AS VARCHAR) AS f, to_date FROM '${path.join(out, "prior_auth.parquet")}'`,
    );
    expect(pa.getRowObjectsJson()).toEqual([{ code: "E0601", f: "2025-04-01", to_date: null }]);
  });

  it("streams row groups: a table of many row groups reads back whole", async () => {
    const { exportParquet } = await import("../../src/snapshot/parquet-export.js");
    const out = path.join(fresh(), "t");
    const { tables } = await exportParquet(snapshot, out, { rowGroupRows: 7 });
    const links = tables.find((t) => t.name === "code_links")!.rows;
    expect(links).toBeGreaterThan(70);
    const { DuckDBInstance } = await import("@duckdb/node-api").catch(() => ({
      DuckDBInstance: undefined,
    }));
    if (!DuckDBInstance) return;
    const db = await (await DuckDBInstance.create(":memory:")).connect();
    const file = path.join(out, "code_links.parquet");
    const read = await db.runAndReadAll(`SELECT count(*) AS n FROM '${file}'`);
    const groups = await db.runAndReadAll(
      `SELECT count(DISTINCT row_group_id) AS g FROM parquet_metadata('${file}')`,
    );
    expect(Number(read.getRowObjects()[0]!.n)).toBe(links);
    expect(Number(groups.getRowObjects()[0]!.g)).toBe(Math.ceil(links / 7));
  });

  it("a failure part way leaves no Parquet file (a new folder, or an existing one)", async () => {
    const bad = await changedCopy(
      "CREATE TABLE prior_auth (code TEXT, start_date TEXT); INSERT INTO prior_auth VALUES ('E0601', 'soon');",
    );
    const parent = fresh();
    const r = await exportTo(path.join(parent, "t"), [], bad);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("prior_auth.start_date: 'soon' is not a date");
    expect(readdirSync(parent)).toEqual([]);
    const existing = fresh();
    writeFileSync(path.join(existing, "notes.txt"), "x");
    const again = await exportTo(existing, ["--force"], bad);
    expect(again.exitCode).toBe(2);
    expect(readdirSync(existing)).toEqual(["notes.txt"]);
  });
});

describe.skipIf(!SQLITE)("data export --format parquet stopped by Ctrl-C", () => {
  let big = "";
  beforeAll(async () => {
    const json = path.join(work, "big.json");
    await execa("node", [
      path.join(ROOT, "bench", "generate-dataset.mjs"),
      ...["--out", json, "--versions", "3000", "--links", "300000", "--codes", "8000"],
    ]);
    big = await buildSnapshot(json);
  }, 240_000);

  /**
   * Polls until the export is part way: the tables before `code_links` written, its own under
   * way (a hidden file of that name in `dir`, or in the hidden folder a new export writes), or
   * until the process ended. No timing: the limit only bounds how long we wait.
   */
  async function partWay(dir: string, child: { exitCode: number | null }): Promise<void> {
    const end = Date.now() + 180_000;
    const reached = () =>
      readdirSync(dir, { withFileTypes: true }).some(
        (e) =>
          e.name.startsWith(".") &&
          (e.name.startsWith(".code_links.parquet") ||
            (e.isDirectory() &&
              readdirSync(path.join(dir, e.name)).includes("code_links.parquet"))),
      );
    while (!reached() && child.exitCode === null) {
      if (Date.now() > end) throw new Error("the export never reached code_links");
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it.each([
    { into: "a new folder", existing: false },
    { into: "a folder with other files (--force)", existing: true },
  ])(
    "into $into, part way: exit 130, no Parquet file left",
    async ({ existing }) => {
      const parent = fresh();
      const out = existing ? parent : path.join(parent, "t");
      if (existing) writeFileSync(path.join(parent, "notes.txt"), "x");
      const child = execa(
        "node",
        [
          BIN,
          "data",
          "export",
          big,
          "--format",
          "parquet",
          "-o",
          out,
          ...(existing ? ["--force"] : []),
        ],
        {
          reject: false,
          extendEnv: false,
          env: cleanEnv({}),
          stdin: "ignore",
          forceKillAfterDelay: false,
        },
      );
      await partWay(parent, child);
      child.kill("SIGINT");
      const r = await child;
      expect(r.exitCode, r.stderr).toBe(130);
      expect(r.stderr).toContain("nothing was written");
      expect(readdirSync(parent)).toEqual(existing ? ["notes.txt"] : []);
    },
    300_000,
  );
});
