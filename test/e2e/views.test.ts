import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { cleanEnv, ROOT } from "../helpers/cli.js";
import { runInProcess as inProcess } from "../helpers/run-cli.js";
import { startServe, type ServeProcess } from "../helpers/server.js";

/**
 * The analyst views compose the API's own endpoints, so each gives the same answer through the
 * local engine (`--local --data`) and through `coverage serve` (`--api-url`): byte-identical
 * stdout, stderr and exit code. The bundled dataset has policies with two and three versions.
 * "Today" is pinned on both sides (the engine's and the client's).
 */

const BUNDLED = path.join(ROOT, "fixtures", "dataset.json");
const KEY = "views-key";
const TODAY = "2026-11-21";
const HTTP_ENV = { COVERAGE_API_KEY: KEY, COVERAGE_RETRY_BASE_MS: "1" };
let server: ServeProcess;

beforeAll(async () => {
  server = await startServe(["--data", BUNDLED, "--today", TODAY, "--quiet"], {
    COVERAGE_SERVE_KEY: KEY,
  });
});

afterAll(async () => {
  await server?.stop();
});

function sink(chunks: Buffer[]): Writable {
  return new Writable({
    write(chunk: Buffer | string, _enc, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
}

async function runInProcess(args: string[], env: Record<string, string> = {}) {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const exitCode = await runCli(args, {
    env: cleanEnv(env) as NodeJS.ProcessEnv,
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

const local = (args: string[]) => ["--local", "--data", BUNDLED, "--today", TODAY, ...args];
const http = (args: string[]) => ["--api-url", server.url, "--today", TODAY, ...args];

async function expectParity(args: string[]) {
  const [l, h] = await Promise.all([runInProcess(local(args)), runInProcess(http(args), HTTP_ENV)]);
  expect(h.stdout).toBe(l.stdout);
  expect(h.stderr).toBe(l.stderr);
  expect(h.exitCode).toBe(l.exitCode);
  return l;
}

describe.concurrent("analyst views: the same answer locally and through coverage serve", () => {
  it.for<[string[], number, RegExp?]>([
    [["code", "CPT:97110"], 0, /^CPT 97110: Strength and flexibility/],
    [["code", "CPT:97110", "--json"], 0],
    [["code", "HCPCS:E0601", "--state", "CA", "--format", "csv"], 0],
    [["code", "CPT:97110", "--lob", "commercial", "--format", "ndjson"], 0],
    [["code", "CPT:97110", "--effective-on", "2024-06-01"], 0],
    [["code", "CPT:99999"], 0, /no description known \(no policy lists it: is it a real code\?\)/],
    [["code", "CPT:97110,97112"], 2],
    [["matrix", "--code", "CPT:97110"], 0, /Varies by state/],
    [["matrix", "--code", "CPT:97110", "--json"], 0],
    [["matrix", "--code", "CPT:97110", "--state", "CA,NY,TX", "--format", "csv"], 0],
    [["matrix", "--code", "HCPCS:E0601", "--lob", "medicare_part_b"], 0],
    [["matrix", "--code", "CPT:97110", "--payer", "CMS", "--effective-on", "2025-01-01"], 0],
    [["matrix"], 2],
    [["versions", "cms-lcd/L33718"], 0, /criteria/],
    [["versions", "aetna/cpb/0140", "--json"], 0],
    [["versions", "cms-article/A52464/2026-10-01", "--format", "csv"], 0],
    [["versions", "uhc/ma/outpatient-therapy-services"], 0, /first version/],
    [["versions", "nope/x"], 4],
    [["diff", "cms-lcd/L33718"], 0, /^--- cms-lcd\/L33718\/2024-01-01$/m],
    [["diff", "aetna/cpb/0325", "--json"], 0],
    [["diff", "aetna/cpb/0140/2018-06-01", "aetna/cpb/0140/2025-06-01"], 0, /\+ /],
    [["diff", "cms-ncd/240.4"], 2],
    [["diff", "aetna/cpb/0325", "--format", "csv"], 2],
    [["policy", "cms-lcd/L33718", "--json"], 0, /"policy_id": "cms-lcd\/L33718\/2026-11-01"/],
    [["policy", "cms-ncd/240.4"], 0],
    [["policy", "cms-lcd/L33718/2025-01-01"], 4],
    [["updates", "--days", "60", "--changes"], 0, /criteria changed/],
    [["updates", "--days", "90", "--changes", "--json", "--all"], 0],
    [["updates", "--days", "90", "--lob", "commercial", "--format", "csv"], 0],
    [["updates", "--days", "90", "--code", "CPT:97110", "--changes"], 0],
    [["updates", "--days", "90", "--payer", "cms", "--all"], 0],
  ])("%j", async ([args, code, stdout]) => {
    const r = await expectParity(["--quiet", ...args]);
    expect(r.exitCode).toBe(code);
    if (stdout) expect(r.stdout).toMatch(stdout);
    if (code === 0) expect(r.stdout).not.toBe("");
  });
});

describe("analyst views through the built CLI", () => {
  it("policy KEY shows the version in effect today; before its start, the one then", async () => {
    const now = await inProcess(["policy", "cms-lcd/L33718", "--json", "--today", TODAY]);
    expect(JSON.parse(now.stdout).policy_id).toBe("cms-lcd/L33718/2026-11-01");
    const then = await inProcess(["policy", "cms-lcd/L33718", "--json", "--today", "2025-01-01"]);
    expect(JSON.parse(then.stdout).policy_id).toBe("cms-lcd/L33718/2024-01-01");
  });

  it("an unknown date lists the versions that exist and the one in effect then (exit 4)", async () => {
    const r = await inProcess(["policy", "cms-lcd/L33718/2025-01-01"]);
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("no version of cms-lcd/L33718 starts on 2025-01-01");
    expect(r.stderr).toContain("cms-lcd/L33718/2024-01-01 (2024-01-01 until 2026-11-01)");
    expect(r.stderr).toContain("The version in effect on 2025-01-01 is cms-lcd/L33718/2024-01-01");
  });

  it("matrix --json gives every cell with its policy ids", async () => {
    const r = await inProcess(["matrix", "--code", "CPT:97110", "--state", "CA,TX", "--json"]);
    const m = JSON.parse(r.stdout);
    // CA brings Medicare's NF and SF, where California's Part B is (cli.md).
    expect(m.states).toEqual([null, "CA", "TX", "NF", "SF"]);
    expect(m.cells).toHaveLength(m.rows.length * 5);
    expect(m.cells).toContainEqual(
      expect.objectContaining({ lob: "medicare_part_b", state: "NF", verdict: "covers" }),
    );
    expect(m.cells).toContainEqual({
      payer_id: "CMS",
      payer_name: "Medicare (CMS)",
      lob: "medicare_part_a",
      state: "CA",
      verdict: "covers",
      policy_ids: ["cms-article/A57214/2026-10-24", "cms-lcd/L34049/2026-10-24"],
      policy_numbers: ["A57214", "L34049"],
    });
  });

  it("a wide matrix prints in pages of columns that fit the terminal", async () => {
    const r = await inProcess(["matrix", "--code", "CPT:97110"], { env: { COLUMNS: "80" } });
    expect(r.stdout).toMatch(/Columns, part 1 of \d+/);
    for (const line of r.stdout.split("\n")) expect(line.length).toBeLessThanOrEqual(80);
  });

  it("diff colours the criteria only on a terminal (FORCE_COLOR stands for one)", async () => {
    const plain = await inProcess(["diff", "cms-lcd/L33718"]);
    expect(plain.stdout).not.toContain("\u001b[");
    const coloured = await inProcess(["diff", "cms-lcd/L33718"], { env: { FORCE_COLOR: "1" } });
    expect(coloured.stdout).toContain("\u001b[32m+");
  });

  it.each([
    [["code", "CPT:97110"], "POST", "/v1/policies/filter"],
    [["versions", "cms-lcd/L33718"], "POST", "/v1/policies/filter"],
    [["policy", "cms-lcd/L33718"], "POST", "/v1/policies/filter"],
  ])("--dry-run %j prints the first request", async (args, method, url) => {
    const r = await inProcess([...args, "--dry-run"]);
    expect(r.exitCode).toBe(0);
    const req = JSON.parse(r.stdout);
    expect(req.method).toBe(method);
    expect(req.url).toBe(`http://local${url}`);
  });

  it("diff OLD NEW --dry-run prints both requests", async () => {
    const r = await inProcess(["diff", "a/b/2024-01-01", "a/b/2025-01-01", "--dry-run"]);
    expect(
      r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).url),
    ).toEqual([
      "http://local/v1/policies/a/b/2024-01-01",
      "http://local/v1/policies/a/b/2025-01-01",
    ]);
  });

  it("a server that ignores offset (the sandbox) is reported, never answered wrongly", async () => {
    const sandbox = await startServe(["--sandbox", "--quiet"], { COVERAGE_SERVE_KEY: KEY });
    try {
      const r = await inProcess(["--api-url", sandbox.url, "versions", "cms-lcd/L33718"], {
        env: HTTP_ENV,
      });
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(
        "it ignores paging (sandbox?), so policy versions cannot be listed",
      );
    } finally {
      await sandbox.stop();
    }
  });

  it("versions over HTTP costs a few filter requests, then one GET per version", async () => {
    const r = await inProcess(
      ["--api-url", server.url, "--verbose", "versions", "aetna/cpb/0140", "--json"],
      { env: HTTP_ENV },
    );
    expect(r.exitCode).toBe(0);
    const posts = r.stderr.split("\n").filter((l) => l.includes("POST"));
    const gets = r.stderr.split("\n").filter((l) => /GET .*\/v1\/policies\/aetna/.test(l));
    expect(posts.length).toBeLessThanOrEqual(3);
    expect(gets).toHaveLength(3);
  });
});
