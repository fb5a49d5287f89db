import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";
import { makeFifoReader } from "../helpers/fifo.js";
import { startServe, type ServeProcess } from "../helpers/server.js";

/**
 * Defects found in review of issues 19 and 20 (the analyst views, the search table, input
 * checks, downloads), each checked through the built CLI, mostly on a small dataset of our own
 * (three versions of one policy, nationwide and state LOBs, ICD-10-CM codes written dotted,
 * dotless and in lower case), locally and through `coverage serve`.
 */

const DATA = path.join(ROOT, "test", "fixtures", "review", "dataset.json");
const KEY = "review-key";
const TODAY = "2026-06-15";
const HTTP_ENV = { COVERAGE_API_KEY: KEY, COVERAGE_RETRY_BASE_MS: "1" };
let server: ServeProcess;

beforeAll(async () => {
  server = await startServe(["--data", DATA, "--today", TODAY, "--quiet"], {
    COVERAGE_SERVE_KEY: KEY,
  });
});

afterAll(async () => {
  await server?.stop();
});

const local = (args: string[]) =>
  runInProcess(["--local", "--data", DATA, "--today", TODAY, "--quiet", ...args], {
    env: { COLUMNS: "100" },
  });
const http = (args: string[]) =>
  runInProcess(["--api-url", server.url, "--today", TODAY, "--quiet", ...args], {
    env: { ...HTTP_ENV, COLUMNS: "100" },
  });
const both = (args: string[]) => Promise.all([local(args), http(args)]);

describe.concurrent("review of issues 19 and 20, through the built CLI", () => {
  it("code and matrix match --payer ids in any case, as search does", async () => {
    for (const r of await both(["code", "CPT:99901", "--payer", "cms"])) {
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain("cms-lcd/L1/2026-05-01");
      expect(r.stdout).not.toContain("No policy lists this code");
    }
    for (const r of await both(["matrix", "--code", "CPT:99901", "--payer", "Beta"])) {
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain("B-7");
    }
  });

  it("code and matrix refuse a payer id the catalogue lacks, naming --payer (exit 2)", async () => {
    for (const r of await both(["matrix", "--code", "CPT:99901", "--payer", "nope"])) {
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/--payer 'nope'.*ACME, BETA, CMS/s);
    }
  });

  it("updates --lob refuses a category that is not one (exit 2), as search does", async () => {
    for (const r of await both(["updates", "--days", "365", "--lob", "medicare"])) {
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/--lob 'medicare' is not a LOB category[\s\S]*medicare_part_b/);
    }
    for (const r of await both(["updates", "--days", "365", "--lob", "Medicaid"])) {
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain("acme/P1/2026-01-01");
    }
  });

  it("matrix refuses a second --code rather than answering for the last one (exit 2)", async () => {
    const r = await local(["matrix", "--code", "CPT:99901", "--code", "CPT:99902"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/matrix takes one code, not 2/);
  });

  it("updates --changes at 80 columns: the kinds wrap, ids and payers keep their words", async () => {
    const r = await runInProcess(
      ["--data", DATA, "--quiet", "updates", "--changes", "--days", "365"],
      { env: { COLUMNS: "80" } },
    );
    expect(r.exitCode).toBe(0);
    for (const line of r.stdout.split("\n")) expect(line.length).toBeLessThanOrEqual(80);
    expect(r.stdout).toMatch(/Acme Health +codes changed,/);
    // The table is wider than 80 columns with the ids whole: it stacks under each id.
    expect(r.stdout.split("\n")).toContain("acme/P1/2026-01-01");
    expect(r.stdout).toContain("Beta exercise");
  });

  it("diff VERSION_ID compares that version with the one before it, not the two latest", async () => {
    const [l, h] = await both(["diff", "acme/P1/2026-01-01"]);
    expect(l.exitCode).toBe(0);
    expect(l.stdout.split("\n")[0]).toBe("acme/P1/2025-01-01 → acme/P1/2026-01-01");
    expect(h.stdout).toBe(l.stdout);
    for (const r of await both(["diff", "acme/P1/2025-01-01"])) {
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/acme\/P1\/2025-01-01 is the first version of acme\/P1/);
    }
    for (const r of await both(["diff", "acme/P1/2026-02-01"])) {
      expect(r.exitCode).toBe(4);
      expect(r.stderr).toMatch(/versions: acme\/P1\/2025-01-01 .*acme\/P1\/2026-09-01/);
    }
  });

  it("--today over HTTP: the warning says it still sets the day code looks at", async () => {
    const r = await runInProcess(
      ["--api-url", server.url, "--today", "2026-01-15", "code", "CPT:99901"],
      { env: HTTP_ENV },
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("Policies in effect on 2026-01-15");
    expect(r.stderr).toMatch(/--today sets only what this client works out: .*`code`/s);
    expect(r.stderr).not.toMatch(/only sets the status column/);
  });

  it("code --format csv leaves a null category empty, never the word null", async () => {
    const r = await local(["code", "ICD10:M54.5", "--format", "csv"]);
    expect(r.exitCode).toBe(0);
    const [header, first] = r.stdout.split("\n");
    const at = header!.split(",").indexOf("categories");
    expect(at).toBeGreaterThan(0);
    expect(first).toContain("acme/P1/2026-01-01");
    expect(r.stdout).not.toMatch(/(^|,)null(,|$)/m);
  });

  it("code and matrix show the code in upper case, whatever case it was typed in", async () => {
    const r = await local(["code", "icd10:m54.5"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe("ICD10CM M54.5: Own paraphrase: low back ache");
    const m = await local(["matrix", "--code", "cpt:99901", "--json"]);
    expect(JSON.parse(m.stdout)).toMatchObject({ code_system: "CPT", code: "99901" });
    const j = await local(["code", "hcpcs:e0601", "--json"]);
    expect(JSON.parse(j.stdout)).toMatchObject({ code_system: "HCPCS", code: "E0601" });
  });

  it("updates --changes --fields takes the fields --changes adds (changes, predecessor_id)", async () => {
    const args = [
      "updates",
      "--days",
      "365",
      "--changes",
      "--fields",
      "policy_id,changes,predecessor_id",
    ];
    const csv = await local([...args, "--format", "csv"]);
    expect(csv.exitCode).toBe(0);
    expect(csv.stdout).toContain("policy_id,changes,predecessor_id\r\n");
    expect(csv.stdout).toContain(
      "acme/P1/2026-01-01,codes changed;criteria changed;applicability changed,acme/P1/2025-01-01",
    );
    const json = await local([...args, "--json"]);
    expect(json.exitCode).toBe(0);
    expect(JSON.parse(json.stdout).data[0]).toEqual({
      policy_id: "beta/B-7/2026-06-01",
      changes: ["new"],
      predecessor_id: null,
    });
    const table = await local(args);
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toMatch(/^POLICY ID +CHANGES +PREDECESSOR ID/);
    const without = await local(["updates", "--days", "365", "--fields", "policy_id,changes"]);
    expect(without.exitCode).toBe(2);
  });

  it("download -o FIFO of a binary file (no --force): the reader gets every byte", async () => {
    // The check for a terminal opened the FIFO once and closed it: the waiting reader saw an
    // empty file, and the real write then blocked with no reader left.
    const { fifo, received } = await makeFifoReader();
    const r = await runInProcess(["-q", "download", "cms-lcd/L33718/2024-01-01", "-o", fifo]);
    expect(r.exitCode, r.stderr).toBe(0);
    const file = readFileSync(
      path.join(ROOT, "fixtures", "files", "cms-lcd-L33718-2024-01-01.pdf"),
    );
    expect((await received).equals(file)).toBe(true);
  });

  it("versions and diff: an empty key or a slash too many is a usage error (exit 2)", async () => {
    for (const args of [
      ["versions", ""],
      ["versions", "acme/P1/"],
      ["diff", "/acme/P1"],
    ]) {
      const r = await local(args);
      expect(r.exitCode, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/is not a policy key: it has an empty segment/);
      expect(r.stderr).toMatch(/without a leading, trailing or double slash/);
    }
  });
});
