// The findings still failing in docs/findings-rerun.md (newcomer.md 21, 27, 28, 30, bad input
// row 48; newcomer-2.md step 3; reliability-2.md "minor"), through the CLI in this process.
import { mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/run-cli.js";
import { cmsContent, pullArgsFor, startCms, zipOf, type CmsServer } from "../helpers/cms-server.js";
import { sampleTables } from "../helpers/mcd-sample.js";
import { SQLITE } from "../helpers/snapshot.js";

const tempDir = () => mkdtempSync(path.join(os.tmpdir(), "coverage-left-"));

describe("newcomer 21: diff NEW OLD", () => {
  it("shows the changes from the older to the newer, and says the order was reversed", async () => {
    const older = "cms-lcd/L33718/2024-01-01";
    const newer = "cms-lcd/L33718/2026-11-01";
    const reversed = await runInProcess(["diff", newer, older]);
    const inOrder = await runInProcess(["diff", older, newer]);
    expect(reversed.exitCode, reversed.stderr).toBe(0);
    expect(reversed.stdout).toBe(inOrder.stdout);
    expect(reversed.stdout.split("\n")[0]).toBe(`${older} → ${newer}`);
    expect(reversed.stderr).toContain(
      `${newer} is the newer version (given first): showing the changes from ${older} to ${newer}.`,
    );
    expect(inOrder.stderr).not.toContain("is the newer version");
    const json = await runInProcess(["diff", newer, older, "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ old_id: older, new_id: newer });
  });
});

describe("newcomer 27: two versions of a policy saved in one folder", () => {
  // cli.md fixes the default name (the link's filename): the second version is refused, never
  // clobbering the first, and the message names the two ways out.
  it("keeps the link's filename and refuses the second, naming --force and -o", async () => {
    const cwd = tempDir();
    const first = await runInProcess(["download", "aetna/cpb/0070/2025-01-01"], { cwd });
    expect(first.exitCode, first.stderr).toBe(0);
    const second = await runInProcess(["download", "aetna/cpb/0070/2026-12-01"], { cwd });
    expect(second.exitCode).not.toBe(0);
    expect(second.stderr).toContain("0070.html");
    expect(second.stderr).toMatch(/--force/);
    expect(second.stderr).toMatch(/-o/);
    expect(readdirSync(cwd)).toEqual(["0070.html"]);
  });
});

describe("newcomer 28: policy of a version with no stored file", () => {
  it("says no file is stored, not `File type html`", async () => {
    const r = await runInProcess(["policy", "cms-ncd/150.3/2007-01-01"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^File type +none stored \(the html is at the source\)$/m);
    const stored = await runInProcess(["policy", "cms-lcd/L33718/2026-11-01"]);
    expect(stored.stdout).toMatch(/^File type +pdf$/m);
  });
});

describe("newcomer 30: config set confirms; versions agree across formats", () => {
  it("config set says what it set on stderr off a terminal, never the API key", async () => {
    const env = { COVERAGE_CONFIG_DIR: tempDir() };
    const url = await runInProcess(["config", "set", "api-url", "https://api.example.com"], {
      env,
    });
    expect(url.exitCode, url.stderr).toBe(0);
    expect(url.stdout).toBe("");
    expect(url.stderr).toMatch(
      /^Set api-url = https:\/\/api\.example\.com for profile 'default' \(.*config\.json\)\.$/m,
    );
    const key = "left-secret-key-0123456789abcdef";
    const set = await runInProcess(["config", "set", "api-key"], { env, input: key });
    expect(set.exitCode, set.stderr).toBe(0);
    expect(set.stderr).toMatch(/^Set api-key for profile 'default'/m);
    expect(set.stderr).not.toContain(key.slice(-4));
    const quiet = await runInProcess(["-q", "config", "set", "timeout", "1000"], { env });
    expect(quiet.stderr).toBe("");
  });

  it("versions: the first version's changes are null in --json and in ndjson alike", async () => {
    const json = await runInProcess(["versions", "aetna/cpb/0070", "--json"]);
    const nd = await runInProcess(["versions", "aetna/cpb/0070", "--format", "ndjson"]);
    const rows = nd.stdout.split("\n").map((l) => JSON.parse(l) as { changes: unknown });
    const versions = (JSON.parse(json.stdout) as { versions: Array<{ changes: unknown }> })
      .versions;
    expect(versions[0]!.changes).toBeNull();
    expect(rows[0]!.changes).toBeNull();
    expect(rows[1]!.changes).toEqual(["codes changed", "criteria changed"]);
  });
});

describe("bad input 48: -o a file whose folder takes no new file", () => {
  it.skipIf(process.platform !== "linux")(
    "-o /proc/version --force names the folder, not ENOENT alone",
    async () => {
      const r = await runInProcess([
        "download",
        "aetna/cpb/0070/2025-01-01",
        "-o",
        "/proc/version",
        "--force",
      ]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(
        "error: cannot write /proc/version: no new file can be created in the folder /proc (ENOENT)",
      );
      expect(r.stderr).not.toContain("no such file or directory");
    },
  );
});

describe("newcomer-2 step 3: updates on data of another day", () => {
  it("names the day the days are counted back from (the data's as_of)", async () => {
    // The sample's as_of is 2026-11-21: the machine's date is another day (unless it is that day).
    const today = new Date().toISOString().slice(0, 10);
    const r = await runInProcess(["updates", "--days", "3"]);
    expect(r.exitCode, r.stderr).toBe(0);
    if (today !== "2026-11-21")
      expect(r.stderr).toContain(
        "The days are counted back from 2026-11-21 (the data's day, its as_of unless a day is set), not from today's date.",
      );
    const pinned = await runInProcess(["updates", "--days", "3", "--today", today]);
    expect(pinned.stderr).not.toContain("counted back");
  });
});

describe.skipIf(!SQLITE)("reliability-2 minor: data pull import errors", () => {
  let cms: CmsServer;
  const work = tempDir();
  beforeAll(async () => {
    cms = await startCms(await cmsContent(path.join(work, "export"), sampleTables()));
  }, 120_000);
  afterAll(async () => cms?.close());

  it("name the downloaded file, not the hidden staging folder", async () => {
    cms.put(
      "/exports/ncd.zip",
      await zipOf([["ncd_trkg.csv", Buffer.from('ncd_id,ncd_vrsn_num\r\n"never closed\r\n')]]),
    );
    const dataHome = path.join(work, "data-home");
    mkdirSync(dataHome, { recursive: true });
    const r = await runInProcess(pullArgsFor(cms.url), {
      env: { XDG_DATA_HOME: dataHome, COVERAGE_RETRY_BASE_MS: "5", NO_COLOR: "1" },
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("error: ncd.zip > ncd_trkg.csv: no column");
    expect(r.stderr).not.toContain(".part");
  }, 120_000);
});
