import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";
import { SQLITE } from "../helpers/snapshot.js";

const ID = "humana/HUM-0410/2024-08-22";
const tempDir = () => mkdtempSync(path.join(os.tmpdir(), "coverage-formats-"));

// Finding 29: a format a command cannot honour is exit 2 naming what it takes, never ignored.
describe.concurrent("a --format is honoured or refused", () => {
  it.for<[string, string[], number, RegExp]>([
    [
      "--url-only as ndjson: one line",
      ["download", ID, "--url-only", "--format", "ndjson"],
      0,
      /^\{"url":"[^\n]*"filename":"HUM-0410-019\.pdf"\}$/,
    ],
    [
      "--url-only as csv: a header and one row",
      ["download", ID, "--url-only", "--format", "csv"],
      0,
      /^url,content_type,filename\r\n[^\r\n]+,application\/pdf,HUM-0410-019\.pdf\r?$/,
    ],
    ["--url-only as json", ["download", ID, "--url-only", "--json"], 0, /^\{\n {2}"url": /],
    [
      "download --json (a file, no JSON)",
      ["download", ID, "--json"],
      2,
      /^error: download cannot print --format json\n.*--url-only/,
    ],
    [
      "download --format csv",
      ["download", ID, "--format", "csv"],
      2,
      /^error: download cannot print --format csv/,
    ],
    [
      "policy --criteria --json",
      ["policy", "cms-lcd/L33718", "--criteria", "--json"],
      2,
      /^error: policy --criteria cannot print --format json\n.*criteria_text/,
    ],
    [
      "policy --criteria --format ndjson",
      ["policy", "cms-lcd/L33718", "--criteria", "--format", "ndjson"],
      2,
      /cannot print --format ndjson/,
    ],
  ])("%s", async ([, args, exit, shown], { expect: expectHere }) => {
    const cwd = tempDir();
    const r = await runInProcess(["--quiet", ...args], { cwd });
    expectHere(r.exitCode, r.stderr).toBe(exit);
    expectHere(exit ? r.stderr : r.stdout).toMatch(shown);
    if (exit) expectHere(r.stdout).toBe("");
    // Nothing saved: a link printed, or a refusal before any request.
    expectHere(readdirSync(cwd)).toEqual([]);
  });

  it("a format from COVERAGE_FORMAT is a default for lists: --criteria still prints markdown", async () => {
    const r = await runInProcess(["--quiet", "policy", "cms-lcd/L33718", "--criteria"], {
      env: { COVERAGE_FORMAT: "csv" },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^## /);
  });
});

// Finding 30: `--all --offset N` is every item from N on, and the envelope says so.
describe("--all --offset", () => {
  it("json: every item from the offset, in one envelope whose offset is N", async () => {
    const all = await runInProcess(["--quiet", "search", "--all", "--json"]);
    const from = await runInProcess(["--quiet", "search", "--all", "--offset", "5", "--json"]);
    expect(from.exitCode).toBe(0);
    const every = JSON.parse(all.stdout) as { data: Array<{ policy_id: string }> };
    const rest = JSON.parse(from.stdout) as typeof every & { offset: number; has_more: boolean };
    expect(every.data.length).toBeGreaterThan(25);
    expect(rest.offset).toBe(5);
    expect(rest.has_more).toBe(false);
    expect(rest.data.map((p) => p.policy_id)).toEqual(every.data.slice(5).map((p) => p.policy_id));
  });
});

// Finding 30: messages that name what the user typed, not a flag or a step that does not apply.
describe("data commands say what applies", () => {
  it("data export of a JSON dataset: exit 2, it is one already, nothing written", async () => {
    const cwd = tempDir();
    const json = path.join(ROOT, "fixtures", "dataset.json");
    const r = await runInProcess(["data", "export", json, "-o", "out.json"], { cwd });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${json} is a JSON dataset already, not a snapshot`);
    expect(r.stderr).toContain("coverage data build");
    expect(r.stderr).not.toContain("Rebuild");
    expect(readdirSync(cwd)).toEqual([]);
  });

  it.skipIf(!SQLITE)("data build of a bad dataset does not blame --data", async () => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, "obj.json"), "{}");
    const r = await runInProcess(["data", "build", "obj.json", "-o", "obj.db"], { cwd });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("bad dataset obj.json");
    expect(r.stderr).not.toContain("--data");
    expect(readdirSync(cwd)).toEqual(["obj.json"]);
  });
});
