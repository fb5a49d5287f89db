import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { cleanEnv, ROOT, RULES_DATA, runCoverage } from "../helpers/cli.js";
import { runInProcess as runCoverageInProcess } from "../helpers/run-cli.js";
import { HTTP_DATA, sendRaw, startServe, type ServeProcess } from "../helpers/server.js";
import { buildSnapshot, SQLITE } from "../helpers/snapshot.js";
import { ACCEPTANCE_DATA } from "../fixtures/acceptance/cases.js";

/**
 * The CLI over a snapshot: byte-identical output to the same command over the JSON dataset
 * (every command, every output format), the `coverage data` commands, and `coverage serve` on a
 * snapshot.
 */

const BUNDLED = path.join(ROOT, "fixtures", "dataset.json");
const tmp = () => mkdtempSync(path.join(os.tmpdir(), "coverage-data-"));
const snapshots: Record<string, string> = {};

beforeAll(async () => {
  if (!SQLITE) return;
  for (const [key, file] of Object.entries({
    rules: RULES_DATA,
    http: HTTP_DATA,
    acceptance: ACCEPTANCE_DATA,
    bundled: BUNDLED,
  })) {
    snapshots[key] = await buildSnapshot(file);
    // Its stored files beside it, as beside the JSON: `policy` says whether a file is stored.
    const files = path.join(path.dirname(file), "files");
    if (existsSync(files))
      cpSync(files, path.join(path.dirname(snapshots[key]), "files"), { recursive: true });
  }
});

function sink(chunks: Buffer[]): Writable {
  return new Writable({
    write(chunk: Buffer | string, _enc, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
}

async function runInProcess(args: string[]) {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const exitCode = await runCli(args, {
    env: cleanEnv() as NodeJS.ProcessEnv,
    stdout: sink(out),
    stderr: sink(err),
    signal: new AbortController().signal,
  });
  return {
    exitCode,
    stdout: Buffer.concat(out).toString("utf8"),
    stderr: Buffer.concat(err).toString("utf8"),
  };
}

async function expectSameOutput(json: string, snapshot: string, args: string[], today?: string) {
  const pin = today ? ["--today", today] : [];
  const [a, b] = await Promise.all([
    runInProcess(["--local", "--data", json, ...pin, ...args]),
    runInProcess(["--local", "--data", snapshot, ...pin, ...args]),
  ]);
  expect(b.stdout).toBe(a.stdout);
  expect(b.stderr).toBe(a.stderr);
  expect(b.exitCode).toBe(a.exitCode);
}

const SEARCHES: string[][] = [
  [],
  ["--code", "CPT:97110"],
  ["--code", "CPT:97110", "--state", "CA"],
  ["--code", "cpt:97110", "--relationship", "covers"],
  ["--code", "ICD10:g47.33", "--code", "HCPCS:E0601", "--match", "all"],
  ["--code", "CPT_MODIFIER:59,KX"],
  ["therapy"],
  ["sleep", "apnea", "--sort", "title_asc"],
  ["--query", "<b>therapeutic</b> exercise"],
  ["--sort", "policy_number_desc"],
  ["--retired"],
  ["--no-retired", "--applicability"],
  ["--effective-on", "2024-06-01"],
  ["--effective-start", "2025-01-01", "--effective-end", "2025-12-31"],
  ["--payer", "P2", "--state", "TX"],
  ["--lob-id", "P1_commercial_"],
  ["--state", "ca", "--lob", "medicare_advantage"],
  ["--applicability", "--code-groups", "--effective-on", "2025-06-01"],
  ["--all", "--limit", "2"],
  ["--offset", "100"],
  ["--code", "ICD10PCS:0SRC0J9"],
];

const policyIds = (file: string) =>
  (
    JSON.parse(readFileSync(file, "utf8")) as { policies: Array<{ policy_id: string }> }
  ).policies.map((p) => p.policy_id);

describe.skipIf(!SQLITE).concurrent("the same output from a snapshot as from its JSON", () => {
  for (const format of ["--json", "--format=table", "--format=csv", "--format=ndjson"])
    for (const today of [undefined, "2025-06-01"])
      it.for(SEARCHES.map((a) => [a.join(" ") || "(no flags)", a] as const))(
        `rules ${format} today=${today ?? "as_of"}: search %s`,
        async ([, args]) => {
          await expectSameOutput(RULES_DATA, snapshots.rules!, [format, "search", ...args], today);
        },
      );

  it.for([
    ...policyIds(RULES_DATA).map((id) => ["rules", id] as const),
    ...policyIds(HTTP_DATA).map((id) => ["http", id] as const),
    ...policyIds(ACCEPTANCE_DATA).map((id) => ["acceptance", id] as const),
    ["rules", "no/such/2020-01-01"] as const,
  ])("policy %s %s (json and table)", async ([key, id]) => {
    const json = { rules: RULES_DATA, http: HTTP_DATA, acceptance: ACCEPTANCE_DATA }[key];
    await expectSameOutput(json, snapshots[key]!, ["--json", "policy", id]);
    await expectSameOutput(json, snapshots[key]!, ["policy", id]);
  });

  it.for([
    ["payers"],
    ["payers", "--lob", "commercial"],
    ["lobs", "--state", "CA"],
    ["lobs", "--all", "--limit", "2"],
    ["updates"],
    ["updates", "--days", "365"],
    ["updates", "--days", "365", "--format", "csv"],
    ["download", "no/such/2020-01-01", "--url-only"],
    ["download", "a/pt/2024-01-01", "--url-only"],
  ])("rules: %j", async (args) => {
    await expectSameOutput(RULES_DATA, snapshots.rules!, ["--json", ...args]);
  });

  it.for([["search", "--code", "CPT:97110", "--applicability"], ["updates"], ["payers"]])(
    "the bundled data: %j",
    async (args) => {
      await expectSameOutput(BUNDLED, snapshots.bundled!, ["--json", ...args]);
    },
  );
});

// In the test's own process (test/helpers/run-cli.ts), but for the first build: only a process
// shows that node:sqlite's ExperimentalWarning never reaches the user.
describe.skipIf(!SQLITE)("coverage data", () => {
  it("build, info, export: the round trip is exact, byte for byte", async () => {
    const dir = tmp();
    const db = path.join(dir, "bundled.db");
    const back = path.join(dir, "back.json");
    const build = await runCoverage(["data", "build", BUNDLED, "-o", db]);
    expect(build.exitCode).toBe(0);
    expect(build.stdout).toBe("");
    // node:sqlite's ExperimentalWarning never reaches the user.
    expect(build.stderr).toBe("");
    const exported = await runCoverageInProcess(["data", "export", db, "-o", back]);
    expect(exported.exitCode).toBe(0);
    expect(readFileSync(back, "utf8")).toBe(readFileSync(BUNDLED, "utf8"));
    const info = await runCoverageInProcess(["data", "info", db, "--json"]);
    expect(info.exitCode).toBe(0);
    const json = await runCoverageInProcess(["data", "info", "--json"]);
    const a = JSON.parse(info.stdout) as Record<string, unknown>;
    const b = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(a.format).toBe("coverage-snapshot");
    expect(b.format).toBe("coverage-dataset");
    const counts = [
      "as_of",
      "payers",
      "lobs",
      "policies",
      "versions",
      "code_links",
      "codes",
      "catalogue",
    ];
    for (const k of counts) expect(a[k]).toEqual(b[k]);
    expect(a).toMatchObject({ format_version: 2, source: "dataset.json", versions: 111 });
    expect(readdirSync(dir).sort()).toEqual(["back.json", "bundled.db"]);
  });

  it("refuses to replace a file without --force, and replaces it with --force", async () => {
    const dir = tmp();
    const out = path.join(dir, "x.db");
    writeFileSync(out, "keep");
    const refused = await runCoverageInProcess(["data", "build", RULES_DATA, "-o", out]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/exists.*\n.*--force/s);
    expect(readFileSync(out, "utf8")).toBe("keep");
    const forced = await runCoverageInProcess(["data", "build", RULES_DATA, "-o", out, "--force"]);
    expect(forced.exitCode).toBe(0);
    const search = await runCoverageInProcess([
      "--data",
      out,
      "--json",
      "search",
      "--code",
      "CPT:97110",
    ]);
    expect(search.exitCode).toBe(0);
    const exportRefused = await runCoverageInProcess(["data", "export", out, "-o", out]);
    expect(exportRefused.exitCode).toBe(2);
  });

  it("a bad dataset: exit 2 naming the first problems by path, no output file left", async () => {
    const dir = tmp();
    const bad = path.join(dir, "bad.json");
    const data = JSON.parse(readFileSync(RULES_DATA, "utf8")) as {
      policies: Array<Record<string, unknown>>;
      lobs: Array<Record<string, unknown>>;
    };
    // As --data checks it: the format first (by path), then the references.
    data.policies[1]!.effective_from_date = "2025-02-30";
    writeFileSync(bad, JSON.stringify(data));
    const r = await runCoverageInProcess(["data", "build", bad, "-o", path.join(dir, "bad.db")]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("policies[1].effective_from_date");
    expect(readdirSync(dir)).toEqual(["bad.json"]);
    data.policies[1]!.effective_from_date = "2025-02-28";
    (data.policies[2]!.applicability as Array<Record<string, unknown>>)[0]!.lob_id = "NOPE";
    data.lobs.push({ ...data.lobs[0], payer_id: "GONE" });
    writeFileSync(bad, JSON.stringify(data));
    const refs = await runCoverageInProcess(["data", "build", bad, "-o", path.join(dir, "bad.db")]);
    expect(refs.exitCode).toBe(2);
    expect(refs.stderr).toContain("policies[2].applicability[0].lob_id: unknown LOB 'NOPE'");
    expect(refs.stderr).toMatch(/lobs\[\d+\]\.lob_id: duplicate lob_id/);
    expect(refs.stderr).toMatch(/lobs\[\d+\]\.payer_id: unknown payer 'GONE'/);
    expect(readdirSync(dir)).toEqual(["bad.json"]);
    writeFileSync(bad, '{"format": "coverage-dataset", "version": 1, "payers": [1,]}');
    const syntax = await runCoverageInProcess([
      "data",
      "build",
      bad,
      "-o",
      path.join(dir, "bad.db"),
    ]);
    expect(syntax.exitCode).toBe(2);
    expect(syntax.stderr).toMatch(/not valid JSON/);
    expect(readdirSync(dir)).toEqual(["bad.json"]);
  });

  it("a snapshot of another format version is refused (exit 2), never misread", async () => {
    const dir = tmp();
    const db = await buildSnapshot(RULES_DATA, path.join(dir, "new.db"));
    const { DatabaseSync } = await import("node:sqlite");
    const setVersion = (v: number) => {
      const handle = new DatabaseSync(db);
      handle.prepare("UPDATE meta SET value = ? WHERE key = 'format_version'").run(v);
      handle.close();
    };
    setVersion(99);
    for (const args of [
      ["--data", db, "search"],
      ["data", "info", db],
      ["data", "export", db, "-o", path.join(dir, "o.json")],
    ]) {
      const r = await runCoverageInProcess(args);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain("format version 99, newer than this release reads (2)");
    }
    // An older format is not queried, but can still be described and turned back into its
    // dataset (the way to rebuild it).
    setVersion(1);
    const query = await runCoverageInProcess(["--data", db, "search"]);
    expect(query.exitCode).toBe(2);
    expect(query.stderr).toContain("format version 1, older than this release queries (2)");
    expect(query.stderr).toContain("coverage data export");
    const info = await runCoverageInProcess(["data", "info", db, "--json"]);
    expect(info.exitCode).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({ format_version: 1 });
    const back = path.join(dir, "back.json");
    const exported = await runCoverageInProcess(["data", "export", db, "-o", back]);
    expect(exported.exitCode).toBe(0);
    setVersion(2);
    const again = path.join(dir, "again.json");
    expect((await runCoverageInProcess(["data", "export", db, "-o", again])).exitCode).toBe(0);
    expect(readFileSync(back, "utf8")).toBe(readFileSync(again, "utf8"));
    const other = path.join(dir, "other.db");
    const h2 = new DatabaseSync(other);
    h2.exec("CREATE TABLE t (x)");
    h2.close();
    const r = await runCoverageInProcess(["--data", other, "search"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("not a coverage snapshot");
  });

  it("COVERAGE_DATA takes a snapshot too", async () => {
    const r = await runCoverageInProcess(["--json", "payers"], {
      env: { COVERAGE_DATA: snapshots.rules },
    });
    const j = await runCoverageInProcess(["--json", "payers"], {
      env: { COVERAGE_DATA: RULES_DATA },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(j.stdout);
  });
});

describe("node:sqlite is loaded only for a snapshot", () => {
  it("not by a search over JSON, nor by --help; by a search over a snapshot", async () => {
    const hook = path.join(tmp(), "hook.cjs");
    writeFileSync(
      hook,
      'process.on("exit", () => require("fs").writeSync(2, "modules:" + JSON.stringify(process.moduleLoadList.filter((m) => /sqlite/.test(m))) + "\\n"));\n',
    );
    const env = { NODE_OPTIONS: `--require ${hook}` };
    const json = await runCoverage(["-q", "--local", "search", "--code", "CPT:97110"], { env });
    expect(json.exitCode).toBe(0);
    expect(json.stderr).toContain("modules:[]");
    const help = await runCoverage(["--help"], { env });
    expect(help.stderr).toContain("modules:[]");
    if (!SQLITE) return;
    const snap = await runCoverage(["-q", "--data", snapshots.rules!, "search"], { env });
    expect(snap.exitCode).toBe(0);
    expect(snap.stderr).toMatch(/modules:\[.*sqlite/);
    expect(snap.stderr).not.toContain("Warning");
  });
});

describe.skipIf(SQLITE)("snapshots on a Node.js without node:sqlite", () => {
  it("data commands and a snapshot given to --data exit 2 naming the version needed", async () => {
    // Told apart by content: SQLite's header is enough to be taken for a snapshot.
    const fake = path.join(tmp(), "x.db");
    writeFileSync(fake, Buffer.concat([Buffer.from("SQLite format 3\0"), Buffer.alloc(84)]));
    for (const args of [
      ["data", "build", RULES_DATA, "-o", path.join(tmp(), "y.db")],
      ["data", "info", fake],
      ["data", "export", fake, "-o", path.join(tmp(), "y.json")],
      ["--data", fake, "search"],
    ]) {
      const r = await runCoverageInProcess(args);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain("Node.js 22.13 or newer");
    }
    // The JSON path keeps working.
    const json = await runCoverageInProcess(["--data", RULES_DATA, "--json", "payers"]);
    expect(json.exitCode).toBe(0);
    const info = await runCoverageInProcess(["data", "info", RULES_DATA, "--json"]);
    expect(info.exitCode).toBe(0);
  });
});

describe.skipIf(!SQLITE)("coverage serve on a snapshot", () => {
  let fromJson: ServeProcess;
  let fromSnapshot: ServeProcess;
  beforeAll(async () => {
    [fromJson, fromSnapshot] = await Promise.all([
      startServe(["--data", ACCEPTANCE_DATA, "--quiet"]),
      startServe(["--data", snapshots.acceptance!, "--quiet"]),
    ]);
  });
  afterAll(async () => {
    await Promise.all([fromJson?.stop(), fromSnapshot?.stop()]);
  });

  it.for([
    ["POST", "/v1/policies/filter", '{"policies":{"q":"knee"},"include_applicability":true}'],
    ["POST", "/v1/policies/filter", '{"policies":{"states":["NY"]},"include_code_groups":true}'],
    ["GET", "/v1/payers", undefined],
    ["GET", "/v1/lobs?states=NY", undefined],
    ["GET", "/v1/policies/updates?days=60", undefined],
    ["GET", "/v1/policies/cms/lcd/L1/2026-06-01", undefined],
    ["GET", "/ready", undefined],
  ] as const)("%s %s: the same answer", async ([method, url, body]) => {
    const init = body === undefined ? { method } : { method, body };
    const [a, b] = await Promise.all([
      sendRaw(fromJson.url, url, init),
      sendRaw(fromSnapshot.url, url, init),
    ]);
    expect(b.status).toBe(a.status);
    expect(b.text).toBe(a.text);
    expect(fromSnapshot.stderr()).not.toContain("Warning");
  });
});
